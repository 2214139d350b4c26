"""Seeded playouts: chance from one generator, agents from another, both from the seed."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from pnp.engine.agents import Agent
from pnp.engine.api import CHANCE, Game, State


@dataclass
class PlayoutResult:
    seed: int
    returns: list[float]
    length: int
    """Player (non-chance) actions taken."""
    history: list[int]
    kinds: Counter = field(default_factory=Counter)
    """Player actions by kind (place, steal, ...)."""
    metrics: dict[str, int] = field(default_factory=dict)
    state: State | None = None

    @property
    def winners(self) -> list[int]:
        """Players with the best result, or [] when every player has the same result (a draw)."""
        best = max(self.returns)
        if all(r == best for r in self.returns):
            return []
        return [p for p, r in enumerate(self.returns) if r == best]


def rngs(seed: int) -> tuple[random.Random, random.Random]:
    """(chance, agents) generators for a game seed: independent streams, both reproducible."""
    return random.Random(f"chance:{seed}"), random.Random(f"agents:{seed}")


def play(game: Game, agents: Sequence[Agent], seed: int, keep_state: bool = False,
         start: State | None = None) -> PlayoutResult:
    """Play one game to the end: chance actions sampled with the seed, players by `agents[player]`; from the
    initial state, or from a copy of `start` (a game saved halfway: pnp simulate --replay)."""
    chance_rng, agent_rng = rngs(seed)
    state = game.new_initial_state() if start is None else start.clone()
    kinds: Counter = Counter()
    length = 0
    limit = game.info.max_game_length + game.info.max_chance_actions
    steps = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance(chance_rng)
        else:
            action = agents[player].step(state, agent_rng)
            kinds[state.action_kind(action)] += 1
            length += 1
        state.apply_action(action)
        steps += 1
        if steps > limit:  # a broken engine; never loop forever
            raise RuntimeError(f"{game.info.name}: game exceeded its declared maximum length {limit}")
    return PlayoutResult(seed=seed, returns=state.returns(), length=length, history=state.history(),
                         kinds=kinds, metrics=state.metrics(), state=state if keep_state else None)


def replay(game: Game, history: Sequence[int]) -> State:
    """The state reached by applying `history` to a fresh initial state."""
    state = game.new_initial_state()
    for a in history:
        state.apply_action(a)
    return state
