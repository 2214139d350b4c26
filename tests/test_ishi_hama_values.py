"""The greedy agent's batched `action_values` (groups found once, tiles lifted and laid without playing the
actions out) gives exactly `action_value`'s numbers (each action played out on a clone): on hand-made
positions whose values are worked out by hand, and at every decision of seeded games."""

from __future__ import annotations

import random

import pytest

from pnp.engine.agents import GreedyAgent, RandomAgent
from pnp.games.ishi_hama.engine import ACT, P_CELL, P_ROT, SELECT, TAKE, IshiHamaGame
from pnp.loader import load_design
from tests.conftest import DESIGNS
from tests.test_ishi_hama_engine import act, blue_turn, orient

ORANGE = 0


@pytest.fixture(scope="module")
def game() -> IshiHamaGame:
    return IshiHamaGame(load_design(DESIGNS / "ishi-hama"), 2)


def weigh(st) -> dict[int, float]:
    """{action: value} from the batch, after checking it equals one `action_value` per action."""
    actions = st.legal_actions()
    batch = st.action_values(actions)
    one_by_one = [st.action_value(a) for a in actions]
    assert batch == one_by_one, str(st)
    return dict(zip(actions, batch))


def test_a_placement_joins_the_groups_its_paths_meet(game):
    # blue straights B2-C2-D2 (a group of 3) and F2-G2 (2): sum of squares 9 + 4 = 13
    board = dict.fromkeys(("B2", "C2", "D2", "F2", "G2"), ("blue", "straight", "E+W"))
    st = game.position(board, reserves=[["blue tee"], []], player=ORANGE)
    act(st, game.kind_action("blue", "tee"))
    assert st.step == P_CELL
    values = weigh(st)
    assert values[game.cell_action("A9")] == 13.0  # touches nothing
    assert values[game.cell_action("E2")] == 36.0  # its best turn (E+S+W) joins both: one group of 6
    assert values[game.cell_action("H2")] == 13.0 + 9 - 4  # joins F2-G2 by its W path
    act(st, game.cell_action("E2"))
    assert st.step == P_ROT
    values = weigh(st)  # a group of 6 stands for two turns: those are played out, and agree
    assert sorted(values.values()) == [9 + 9, 16 + 4, 36.0, 36.0]  # N+E+S: F2-G2 + E2; S+W+N: B2-E2


def test_taking_a_tile_splits_its_group(game):
    board = dict.fromkeys(("B2", "C2", "D2", "E2"), ("blue", "straight", "E+W"))
    board["H8"] = ("orange", "corner", "N+E")
    st = game.position(board, reserves=[[], []], player=ORANGE)
    assert st.step == TAKE
    values = weigh(st)
    assert values[game.cell_action("C2")] == 4.0  # B2 alone, D2-E2
    assert values[game.cell_action("B2")] == 9.0
    assert values[game.cell_action("H8")] == 16.0


def test_a_tile_to_play_is_worth_its_best_turn_and_moves_and_swaps_are_weighed(game):
    board = {"D4": ("blue", "straight", "E+W"), "E4": ("blue", "straight", "E+W"),
             "C5": ("blue", "corner", "S+W"), "C6": ("orange", "tee", "N+E+S"), "B5": ("blue", "corner", "N+E")}
    st = blue_turn(game, board)
    assert st.step == SELECT
    values = weigh(st)
    assert values[game.stop_action] == 4 + 4  # D4-E4, and B5-C5 (C5's W path meets B5's E)
    assert values[game.cell_action("C5")] == 4 + 4  # its best turns keep the W path
    assert values[game.cell_action("D4")] == 4 + 4  # turned E+W it joins E4 again
    act(st, game.cell_action("C5"), orient(game, "blue", "corner", "N+E"))
    assert st.step == ACT
    values = weigh(st)
    assert values[game.move_action("N", 1)] == 9.0  # to C4: its E path meets D4's W
    assert values[game.swap_action("S")] == 4.0  # C5 gets the orange tee, C6 the corner: no link
    assert values[game.swap_action("W")] == 4.0  # the corners exchanged as they lie (N+E both): no link


def test_a_stop_that_scores_is_played_out(game):
    board = {f"{c}2": ("blue", "straight", "E+W") for c in "BCDE"}
    st = game.position(board, reserves=[["blue straight"], []], player=ORANGE)
    act(st, game.kind_action("blue", "straight"), game.cell_action("F2"), orient(game, "blue", "straight", "E+W"))
    assert st.step == SELECT and st.groups(5)
    values = weigh(st)
    assert values[game.stop_action] == 1000.0  # the group of five straights scores: a point, the board empty


@pytest.mark.parametrize("seed", range(4))
def test_every_decision_of_seeded_games(game, seed):
    """Games mixing greedy and random choices (so unusual positions come up): the batch equals the
    one-by-one values at every decision."""
    rng = random.Random(seed)
    greedy, rand = GreedyAgent(), RandomAgent()
    st = game.new_initial_state()
    steps = set()
    while not st.is_terminal() and st.turns < 120:
        steps.add(st.step)
        weigh(st)
        st.apply_action((greedy if rng.random() < 0.7 else rand).step(st, rng))
    assert {P_CELL, P_ROT, SELECT, ACT} <= steps
