"""The shared invariants, over every registered game with an engine and every design of it.

Seeded random playouts at every player count: legal actions are sorted and unique; chance
outcomes are probabilities summing to 1; a clone equals its original and diverges only by
the actions applied to it; a finished game has no legal actions; results lie in the
declared range; games end within the declared maximum length; a game replays from its
seed and from its history.
"""

from __future__ import annotations

import random

import pytest

from pnp import registry
from pnp.engine import CHANCE, TERMINAL, IllegalActionError, load_engine, player_counts
from pnp.engine.agents import RandomAgent
from pnp.engine.playout import play, replay, rngs
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
    game = load_engine(designs[design_name], players)
    info = game.info
    agent = RandomAgent()
    for seed in range(2):
        chance_rng, agent_rng = rngs(seed)
        state = game.new_initial_state()
        moves = chances = 0
        while not state.is_terminal():
            player = state.current_player()
            legal = state.legal_actions()
            assert legal == sorted(set(legal)) and legal, state
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                assert [a for a, _ in outcomes] == legal
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9 and all(p > 0 for _, p in outcomes)
                action = state.sample_chance(chance_rng)
                chances += 1
            else:
                assert 0 <= player < info.num_players
                assert all(0 <= a < info.num_distinct_actions for a in legal)
                action = agent.step(state, agent_rng)
                moves += 1
            assert isinstance(state.action_to_string(action), str)
            if (moves + chances) % 7 == 0:  # clones, checked along the way
                before = state.clone()
                assert before == state and before is not state
                twin = state.clone()
                twin.apply_action(action)
                assert state == before  # the original is untouched by its clone's action
                assert twin.history() == state.history() + [action]
                assert twin != state
            state.apply_action(action)
        assert state.current_player() == TERMINAL
        assert state.legal_actions() == [] and state.chance_outcomes() == []
        with pytest.raises(IllegalActionError):
            state.apply_action(legal[0])
        assert moves <= info.max_game_length and chances <= info.max_chance_actions
        assert all(info.min_utility <= r <= info.max_utility for r in state.returns())
        assert replay(game, state.history()) == state
        result = play(game, [agent] * players, seed)
        assert result.history == state.history()  # the same seed replays the same game


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

