"""The shared rules-engine API, in the manner of OpenSpiel's Python games.

A `Game` describes a game instance (a design at a player count): its `GameInfo`
(players, result range, maximum length) and `new_initial_state()`. A `State` knows
whose turn it is — a player index, `CHANCE` or `TERMINAL` — its legal actions as a
sorted list of ints, applies an action (an illegal one raises `IllegalActionError`
naming the action and why), clones, and returns each player's result.

Random events (drawing a card, a tile from a bag) are chance actions: at a chance node
`chance_outcomes()` lists `(action, probability)` pairs and the driver picks one with a
seeded `random.Random` (see pnp.engine.playout), so a game replays exactly from its
seed and its action history.

Nothing here knows any game; games register an engine factory with pnp.registry.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

CHANCE = -1
"""`current_player()` at a chance node."""
TERMINAL = -4
"""`current_player()` once the game is over."""


class IllegalActionError(ValueError):
    """An action that is not legal in the state it was applied to; the message says why."""


@dataclass(frozen=True)
class GameInfo:
    """What a driver or a test may rely on for every game of this kind."""

    name: str
    num_players: int
    min_utility: float
    max_utility: float
    max_game_length: int
    """Most player (non-chance) actions a game can take before it is over."""
    max_chance_actions: int
    """Most chance actions a game can take."""
    num_distinct_actions: int
    """Player actions are ints in range(num_distinct_actions)."""


class State(ABC):
    """One position of a game. Subclasses implement the abstract methods."""

    @abstractmethod
    def current_player(self) -> int:
        """The player to act (0-based), CHANCE, or TERMINAL."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Sorted legal actions of the player to act (chance actions at a chance node; [] when terminal)."""

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: (action, probability) pairs, sorted by action, probabilities summing to 1."""

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Apply a legal action; raise IllegalActionError (naming the action and why) otherwise."""

    @abstractmethod
    def action_to_string(self, action: int, player: int | None = None) -> str:
        """Readable text for an action of `player` (default: the player to act)."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Each player's result; meaningful once terminal (all within the GameInfo range)."""

    @abstractmethod
    def clone(self) -> "State":
        """An independent copy: equal to this state until either is changed."""

    @abstractmethod
    def history(self) -> list[int]:
        """Every action applied since the initial state, chance actions included."""

    @abstractmethod
    def key(self) -> Any:
        """A hashable value equal for equal positions (used by __eq__)."""

    # --- provided -------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def action_kind(self, action: int) -> str:
        """A short name of the action's kind (e.g. 'place'); games override it for statistics."""
        return "chance" if self.is_chance_node() else "action"

    def action_value(self, action: int) -> float:
        """A game's heuristic value of a legal action for the player to act (used by the greedy agent)."""
        return 0.0

    def metrics(self) -> dict[str, int]:
        """Game-specific counters of the game so far (simulate aggregates them by sum, max and games > 0)."""
        return {}

    def sample_chance(self, rng: random.Random) -> int:
        """A chance action drawn with `rng` according to chance_outcomes()."""
        outcomes = self.chance_outcomes()
        x = rng.random()
        acc = 0.0
        for action, p in outcomes:
            acc += p
            if x < acc:
                return action
        return outcomes[-1][0]

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.key() == other.key()  # type: ignore[union-attr]

    def __hash__(self) -> int:
        return hash(self.key())


class Game(ABC):
    """A game at a fixed setup (e.g. a design at a player count)."""

    info: GameInfo

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before anything happened (often a chance node: dealing)."""

    @property
    def num_players(self) -> int:
        return self.info.num_players

    def player_name(self, player: int) -> str:
        """A seat's name for reports (games override it, e.g. with a colour)."""
        return f"seat {player + 1}"
