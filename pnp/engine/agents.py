"""Generic agents: they choose among a state's legal actions with a seeded generator."""

from __future__ import annotations

import random
from typing import Protocol

from pnp.engine.api import State


class Agent(Protocol):
    name: str

    def step(self, state: State, rng: random.Random) -> int:
        """A legal action for the player to act."""


class RandomAgent:
    """Uniformly random among the legal actions."""

    name = "random"

    def step(self, state: State, rng: random.Random) -> int:
        actions = state.legal_actions()
        return actions[int(rng.random() * len(actions))]


class GreedyAgent:
    """The legal action with the highest `state.action_value`; ties broken at random."""

    name = "greedy"

    def step(self, state: State, rng: random.Random) -> int:
        actions = state.legal_actions()
        best: list[int] = []
        best_value = float("-inf")
        for a in actions:
            v = state.action_value(a)
            if v > best_value:
                best, best_value = [a], v
            elif v == best_value:
                best.append(a)
        return best[int(rng.random() * len(best))]


AGENTS: dict[str, type] = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str) -> Agent:
    from pnp.errors import PnpError

    try:
        return AGENTS[name]()
    except KeyError:
        raise PnpError(f"unknown agent '{name}'; expected one of: {', '.join(AGENTS)}") from None
