"""The shared invariants (pnp.engine.invariants), over every registered game with an engine and
every design of it, at every player count: a game added to pnp is covered without a line here.
"""

from __future__ import annotations

import random

import pytest

from pnp import registry
from pnp.engine import CHANCE, IllegalActionError, load_engine, player_counts
from pnp.engine.invariants import check_random_playouts
from pnp.loader import find_designs, load_design, package_root


def _cases() -> list[tuple[str, int]]:
    registry.discover()
    out = []
    for folder in find_designs(package_root() / "designs"):
        design = load_design(folder)
        game = registry.get_game(design.game) if design.game else None
        if game and game.engine:
            out += [(folder.name, n) for n in player_counts(design)]
    return out


CASES = _cases()


def test_every_game_with_an_engine_has_a_design_to_play():
    engines = {name for name, g in registry.GAMES.items() if g.engine}
    covered = {load_design(package_root() / "designs" / d).game for d, _ in CASES}
    assert engines and engines <= covered


@pytest.fixture(scope="module")
def designs():
    return {d: load_design(package_root() / "designs" / d) for d in {d for d, _ in CASES}}


@pytest.mark.parametrize("design_name, players", CASES)
def test_random_playouts_keep_the_invariants(designs, design_name, players):
    assert check_random_playouts(load_engine(designs[design_name], players), seeds=range(2)) > 0


def test_illegal_actions_name_the_action_and_why(designs):
    name, players = CASES[0]
    game = load_engine(designs[name], players)
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(rng))
    illegal = next(a for a in range(game.info.num_distinct_actions) if a not in state.legal_actions())
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(illegal)
    assert state.action_to_string(illegal) in str(err.value) and ":" in str(err.value)

