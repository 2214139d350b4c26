"""The search's kept positions (pnp.engine.openspiel_adapter._Tree): the position a search state reaches by an
action is the one a replay from the root makes (a world's draws included), a clone shares the kept positions,
an action already played from a position is a look-up, and nothing the search does changes a kept position.
Also 3 Stars' chance sampling (a cumulative search) picks the card the one-by-one count picks.

Needs the optional [ai] extra (open_spiel); skipped cleanly without it."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel")

from pnp.engine import load_engine
from pnp.engine.api import CHANCE
from pnp.engine.openspiel_adapter import SearchState, WorldState, _Fixed, spiel_game
from pnp.loader import load_design, package_root

DESIGNS = package_root() / "designs"


def engine(name: str, players: int | None = None):
    design = load_design(DESIGNS / name)
    return load_engine(design, players or design.meta.players.min)


def replay_world(root, actions, draws):
    """The reference: the root's engine state cloned and played action by action, the k-th chance event
    drawn with draws[k]."""
    s = root.clone()
    k = 0
    while s.current_player() == CHANCE:
        s.apply_action(s.sample_chance(_Fixed(draws[k % len(draws)])))
        k += 1
    for a in actions:
        s.apply_action(a)
        while s.current_player() == CHANCE:
            s.apply_action(s.sample_chance(_Fixed(draws[k % len(draws)])))
            k += 1
    return s


@pytest.mark.parametrize("name, players", [("three-stars", 2), ("three-stars", 3), ("tubo", None)])
def test_kept_positions_equal_a_replay(name, players):
    game = engine(name, players)
    sg = spiel_game(game)
    rng = random.Random(7)
    start = game.new_initial_state()
    while start.current_player() == CHANCE:
        start.apply_action(start.sample_chance(rng))
    for _ in range(6):  # a few moves into the game
        start.apply_action(rng.choice(start.legal_actions()))
        while start.current_player() == CHANCE:
            start.apply_action(start.sample_chance(rng))
    draws = [rng.random() for _ in range(64)]
    before = start.key()
    root = WorldState(sg, start.clone(), draws) if sg.has_chance else SearchState(sg, start.clone())
    tree = root._tree
    paths = []
    for _ in range(30):  # random walks down from the root, as MCTS's simulations do (each on a clone)
        st = root.clone()
        path = []
        for _ in range(rng.randint(1, 8)):
            if st.is_terminal():
                break
            a = rng.choice(st.legal_actions())
            st.apply_action(a)
            path.append(a)
            assert st.engine_state.key() == replay_world(start, path, draws).key()
        paths.append(path)
    kept = len(tree.states)
    keys = [s.key() for s in tree.states]
    for path in paths:  # the same walks again: look-ups only, the same positions
        st = root.clone()
        for a in path:
            st.apply_action(a)
        assert st.engine_state.key() == replay_world(start, path, draws).key()
    assert len(tree.states) == kept and kept > 30
    assert [s.key() for s in tree.states] == keys  # no kept position is played on
    assert start.key() == before  # nor the searched position itself


def test_three_stars_draws_the_card_the_count_reaches():
    game = engine("three-stars", 2)
    rng = random.Random(3)
    for _ in range(300):
        st = game.new_initial_state()
        st.deck = [rng.choice([0, 0, 1, 2, 3]) for _ in range(game.C)]
        st.deck[rng.randrange(game.C)] += 1
        st.deck_n = sum(st.deck)
        u = rng.random()
        x = int(u * st.deck_n)
        for c, k in enumerate(st.deck):  # the card whose copies, counted one card after another, span x
            if x < k:
                break
            x -= k
        assert st.sample_chance(_Fixed(u)) == game.draw_ids[c]
