"""The shared rules-engine API, in the manner of OpenSpiel's Python games.

A `Game` describes a game instance (a design at a player count): its `GameInfo`
(players, result range, maximum length) and `new_initial_state()`. A `State` knows
whose turn it is — a player index, `CHANCE` or `TERMINAL` — its legal actions as a
sorted list of ints, applies an action (an illegal one raises `IllegalActionError`
naming the action and why), clones, and returns each player's result.

An engine writes only its rules (legal moves, why a move is illegal, applying one); the
`State` base keeps the history, guards the end of the game and clones. Actions are ints;
`pnp.engine.codec.ActionCodec` lays out an engine's kinds of action (place, steal, draw...)
as blocks of mixed-radix numbers.

Random events (drawing a card, a tile from a bag) are chance actions: at a chance node
`chance_outcomes()` lists `(action, probability)` pairs and the driver picks one with a
seeded `random.Random` (see pnp.engine.playout), so a game replays exactly from its
seed and its action history.

Nothing here knows any game; games register an engine factory with pnp.registry.
"""

from __future__ import annotations

import functools
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


_UNSET = object()
_SHARED = frozenset({int, float, complex, str, bytes, bool, type(None), tuple, frozenset, range})
"""Types the default clone shares instead of copying: immutable values."""


def _copied(value: Any) -> Any:
    """A copy of one attribute of a state for `State.clone` (see there)."""
    t = type(value)
    if t in _SHARED:
        return value
    if t is list:
        if _SHARED.issuperset(map(type, value)):  # the common case, checked in C: a flat list
            return value[:]
        return [v if type(v) in _SHARED else _copied(v) for v in value]
    if t is dict:
        if _SHARED.issuperset(map(type, value.values())):
            return value.copy()
        return {k: v if type(v) in _SHARED else _copied(v) for k, v in value.items()}
    if t is set:
        return set(value)
    clone = getattr(value, "clone", None)
    return clone() if callable(clone) and not isinstance(value, Game) else value


class State(ABC):
    """One position of a game.

    An engine writes only its rules: `current_player()`, `_legal_actions()` (the legal
    actions of the player to act), `_why_illegal(action)` (why an action is not legal
    now, "" when it is) and `_apply(action)` (apply a legal one); a game with chance
    events adds `_chance_outcomes()`; and `action_to_string`, `returns`, `key`. The base
    does the bookkeeping: nothing is legal once the game is over and applying an action
    then is refused, an illegal action is refused with the engine's reason, the history
    is kept, and `clone()` copies the state. A subclass calls `super().__init__()`.
    """

    __slots__ = ("_history",)

    def __init__(self) -> None:
        self._history: list[int] = []

    # --- what an engine implements --------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The player to act (0-based), CHANCE, or TERMINAL."""

    @abstractmethod
    def _legal_actions(self) -> list[int]:
        """Sorted legal actions of the player to act (called only when a player is to act)."""

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        """(action, probability) pairs sorted by action, summing to 1 (called only at a chance node)."""
        return []

    def _why_illegal(self, action: int) -> str:
        """Why `action` cannot be applied now, "" when it can (called only before the game is over).

        The default looks the action up in the legal actions; engines say more.
        """
        legal = [a for a, _ in self._chance_outcomes()] if self.is_chance_node() else self._legal_actions()
        return "" if action in legal else "not a legal action now; expected one of legal_actions()"

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply an action `_why_illegal` accepted (the base has recorded it in the history)."""

    @abstractmethod
    def action_to_string(self, action: int, player: int | None = None) -> str:
        """Readable text for an action of `player` (default: the player to act)."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Each player's result; meaningful once terminal (all within the GameInfo range)."""

    @abstractmethod
    def key(self) -> Any:
        """A hashable value equal for equal positions (used by __eq__)."""

    # --- provided -------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """Sorted legal actions of the player to act (chance actions at a chance node; [] when terminal)."""
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [a for a, _ in self._chance_outcomes()]
        return self._legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: (action, probability) pairs, sorted by action, probabilities summing to 1."""
        return self._chance_outcomes() if self.current_player() == CHANCE else []

    def apply_action(self, action: int) -> None:
        """Apply a legal action; raise IllegalActionError (naming the action and why) otherwise."""
        if self.current_player() == TERMINAL:
            raise IllegalActionError(f"{self.action_to_string(action)}: the game is over; expected no more actions")
        why = self._why_illegal(action)
        if why:
            raise IllegalActionError(f"{self.action_to_string(action)}: {why}")
        self._history.append(action)
        self._apply(action)

    def apply_legal_action(self, action: int) -> None:
        """Apply an action this very state just offered (from its `legal_actions()`, `chance_outcomes()` or
        `sample_chance()`) without checking it again: search's hot path. Anything else goes through
        `apply_action`."""
        self._history.append(action)
        self._apply(action)

    def history(self) -> list[int]:
        """Every action applied since the initial state, chance actions included."""
        return list(self._history)

    def clone(self) -> "State":
        """An independent copy: equal to this state until either is changed.

        The default copies every attribute: lists, dicts and sets (and what they hold), and
        objects with a `clone()` method, are copied; everything else (numbers, strings,
        tuples, the Game) is shared, so keep mutable data in lists, dicts, sets or cloneable
        objects. An engine may override it for speed.
        """
        cls = type(self)
        new = object.__new__(cls)
        shared = _SHARED
        for name in _attribute_names(cls):
            value = getattr(self, name, _UNSET)
            t = type(value)
            if t in shared:  # most attributes: copied inline, no call (clones are hot in search agents)
                setattr(new, name, value)
            elif t is list and shared.issuperset(map(type, value)):  # type: ignore[call-overload]
                setattr(new, name, value[:])  # type: ignore[index]
            elif value is not _UNSET:  # _UNSET: a slot never set
                setattr(new, name, _copied(value))
        if hasattr(self, "__dict__"):
            for name, value in self.__dict__.items():
                setattr(new, name, _copied(value))
        return new

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
        return type(self) is type(other) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())


@functools.cache
def _attribute_names(cls: type) -> tuple[str, ...]:
    """Every slot of `cls` and its bases (a state's attributes when it has no __dict__)."""
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and name not in names:
                names.append(name)
    return tuple(names)


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
