"""Agents: who plays a seat. Named the same way everywhere (`--agent` of simulate, validate, sweep).

* `random`: uniformly random among the legal actions;
* `greedy`: the legal action with the best `state.action_value` (each game's own heuristic);
* `mcts:N`: OpenSpiel's Monte Carlo tree search with N simulations per move, through
  pnp.engine.openspiel_adapter (the `[ai]` extra), guided by the game's own action values
  (priors) and position judgement (leaf values). Games with hidden information (a hand,
  the draw pile) are searched in worlds redealt from what the player to move has not seen
  (determinization), so the agent never reads an opponent's hand. `mcts` alone means
  `mcts:200`.

A spec names one agent for every seat (`greedy`) or one per seat, comma separated
(`mcts:200,random`: seat 1 searches, seat 2 plays at random), to measure skill.
Agents draw every random choice from the generator the playout gives them, so a game
replays from its seed whatever process plays it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from pnp.engine.api import State
from pnp.errors import PnpError

if TYPE_CHECKING:
    from pnp.engine.api import Game

DEFAULT_MCTS_SIMULATIONS = 200
MAX_MCTS_SIMULATIONS = 100_000
NAMES = ("random", "greedy", "mcts:N")


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


def action_values(state: State, actions: list[int]) -> list[float]:
    """`state.action_value` of each action: through the engine's batch `action_values(actions)` when it has
    one (the same numbers, worked out once per position), else one call per action."""
    batch = getattr(state, "action_values", None)
    if batch is not None:
        return batch(actions)
    value = state.action_value
    return [value(a) for a in actions]


class GreedyAgent:
    """The legal action with the highest `state.action_value`; ties broken at random."""

    name = "greedy"

    def step(self, state: State, rng: random.Random) -> int:
        actions = state.legal_actions()
        values = action_values(state, actions)
        top = max(values)
        best = [a for a, v in zip(actions, values) if v == top]
        return best[int(rng.random() * len(best))]  # one draw a move, even when forced: games replay by seed


class MCTSAgent:
    """OpenSpiel's MCTS (determinized worlds for hidden information) with `simulations` per move.

    The OpenSpiel game is made from the engine's Game the first time the agent plays
    (`game`, else the state's own `game`), once per agent.
    """

    def __init__(self, simulations: int = DEFAULT_MCTS_SIMULATIONS, game: "Game | None" = None, settings=None):
        """`settings`: a pnp.engine.openspiel_adapter.SearchSettings (default: its DEFAULT_SETTINGS)."""
        from pnp.engine.openspiel_adapter import require_openspiel  # lazy: optional (ai)

        require_openspiel(f"mcts:{simulations}")
        self.simulations = simulations
        self.name = f"mcts:{simulations}"
        self._game = game
        self._settings = settings
        self._searcher = None

    def step(self, state: State, rng: random.Random) -> int:
        if self._searcher is None:
            from pnp.engine.openspiel_adapter import Searcher  # lazy: optional (ai)

            game = self._game if self._game is not None else getattr(state, "game", None)
            if game is None:
                raise PnpError(f"{self.name}: this engine's states do not name their game; pass the game to the agent")
            self._searcher = (Searcher(game, self.simulations) if self._settings is None  # type: ignore[assignment]
                              else Searcher(game, self.simulations, self._settings))
        return self._searcher.choose(state, rng)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class AgentSpec:
    """One seat's agent, parsed: kind 'random', 'greedy' or 'mcts', and the MCTS budget."""

    kind: str
    simulations: int = 0

    @property
    def name(self) -> str:
        return f"mcts:{self.simulations}" if self.kind == "mcts" else self.kind

    def make(self, game: "Game | None" = None) -> Agent:
        if self.kind == "random":
            return RandomAgent()
        if self.kind == "greedy":
            return GreedyAgent()
        return MCTSAgent(self.simulations, game)


def parse_agent(text: str) -> AgentSpec:
    """`random`, `greedy`, `mcts` or `mcts:N`; PnpError naming what is expected otherwise."""
    t = text.strip().lower()
    if t in ("random", "greedy"):
        return AgentSpec(t)
    if t == "mcts":
        return AgentSpec("mcts", DEFAULT_MCTS_SIMULATIONS)
    if t.startswith("mcts:"):
        n = t[5:]
        if n.isdigit() and 1 <= int(n) <= MAX_MCTS_SIMULATIONS:
            return AgentSpec("mcts", int(n))
        raise PnpError(f"agent '{text}': the simulations per move must be a whole number from 1 to "
                       f"{MAX_MCTS_SIMULATIONS}; expected e.g. mcts:200")
    raise PnpError(f"unknown agent '{text}'; expected one of: {', '.join(NAMES)} "
                   "(one for every seat, or one per seat separated by commas, e.g. mcts:200,random)")


def parse_agents(text: str, players: int) -> list[AgentSpec]:
    """One AgentSpec per seat from `greedy` (every seat) or `mcts:200,random` (seat by seat)."""
    parts = [p for p in text.split(",")]
    specs = [parse_agent(p) for p in parts]
    if len(specs) == 1:
        return specs * players
    if len(specs) != players:
        raise PnpError(f"--agent {text}: {len(specs)} agents for {players} players; expected one agent for "
                       f"every seat or exactly {players}, one per seat")
    return specs


def describe(specs: list[AgentSpec]) -> str:
    """'greedy' when every seat plays the same agent, else 'mcts:200,random' (seat by seat)."""
    names = [s.name for s in specs]
    return names[0] if len(set(names)) == 1 else ",".join(names)


def make_agents(text: str, game: "Game") -> list[Agent]:
    """The agents of every seat of `game` from an agent spec."""
    return [s.make(game) for s in parse_agents(text, game.num_players)]


def make_agent(name: str, game: "Game | None" = None) -> Agent:
    """One agent by name (`random`, `greedy`, `mcts:N`)."""
    return parse_agent(name).make(game)


AGENTS: dict[str, type] = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MCTSAgent}
