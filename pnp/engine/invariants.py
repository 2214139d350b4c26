"""The invariants every rules engine keeps, checked on seeded random games.

pnp's own test suite runs `check_random_playouts` on every registered game that has a design
under designs/ (tests/test_engine_invariants.py); a game in its own package calls it from its
tests (`pnp new NAME --engine` writes such a test). It raises AssertionError naming the seed
and the broken rule:

legal actions are sorted, unique and within the game's action range; chance outcomes are
the legal actions with probabilities summing to 1; every action has a text; a clone equals
its original and an action applied to the clone leaves the original untouched; a finished
game has no legal actions and refuses one with IllegalActionError; results lie in the
declared range; games end within the declared lengths; a game replays from its history
and from its seed.
"""

from __future__ import annotations

from collections.abc import Iterable

from pnp.engine.agents import RandomAgent
from pnp.engine.api import CHANCE, TERMINAL, Game, IllegalActionError
from pnp.engine.playout import play, replay, rngs


def _require(ok: bool, seed: int, what: str) -> None:
    if not ok:
        raise AssertionError(f"seed {seed}: {what}")


def check_random_playouts(game: Game, seeds: Iterable[int] = range(2), clone_every: int = 7) -> int:
    """Play one random game per seed, checking the invariants along the way; returns the actions applied."""
    info = game.info
    agent = RandomAgent()
    total = 0
    for seed in seeds:
        chance_rng, agent_rng = rngs(seed)
        state = game.new_initial_state()
        moves = chances = 0
        legal: list[int] = []
        while not state.is_terminal():
            player = state.current_player()
            legal = state.legal_actions()
            _require(bool(legal) and legal == sorted(set(legal)), seed,
                     f"legal actions {legal[:8]} are not sorted, unique and non-empty at\n{state}")
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                _require([a for a, _ in outcomes] == legal, seed, "chance outcomes are not the legal actions")
                _require(abs(sum(p for _, p in outcomes) - 1) < 1e-9 and all(p > 0 for _, p in outcomes), seed,
                         "chance probabilities do not sum to 1")
                action = state.sample_chance(chance_rng)
                chances += 1
            else:
                _require(0 <= player < info.num_players, seed, f"player {player} is no seat")
                _require(all(0 <= a < info.num_distinct_actions for a in legal), seed,
                         f"an action is outside range({info.num_distinct_actions})")
                action = agent.step(state, agent_rng)
                moves += 1
            _require(isinstance(state.action_to_string(action), str), seed, f"action {action} has no text")
            if (moves + chances) % clone_every == 0:
                before = state.clone()
                _require(before == state and before is not state, seed, "a clone differs from its original")
                twin = state.clone()
                twin.apply_action(action)
                _require(state == before, seed, f"applying {state.action_to_string(action)} to a clone changed "
                         "the original")
                _require(twin.history() == state.history() + [action] and twin != state, seed,
                         "a clone's history or position did not follow its action")
            state.apply_action(action)
        _require(state.current_player() == TERMINAL, seed, "the game ended off TERMINAL")
        _require(state.legal_actions() == [] and state.chance_outcomes() == [], seed,
                 "a finished game still has legal actions")
        if legal:
            try:
                state.apply_action(legal[0])
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"seed {seed}: a finished game accepted an action")
        _require(moves <= info.max_game_length and chances <= info.max_chance_actions, seed,
                 f"{moves} moves and {chances} chance actions exceed the declared maximum lengths")
        _require(all(info.min_utility <= r <= info.max_utility for r in state.returns()), seed,
                 f"returns {state.returns()} are outside [{info.min_utility}, {info.max_utility}]")
        _require(replay(game, state.history()) == state, seed, "the game does not replay from its history")
        _require(play(game, [agent] * info.num_players, seed).history == state.history(), seed,
                 "the same seed does not replay the same game")
        total += moves + chances
    return total
