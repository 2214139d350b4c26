"""What simulate, validate and sweep read from a game's registration, in one place.

`registered(name)` is the only function of these commands that looks inside
pnp.registry's GameSpec, so a change in how games register is one edit here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Registered:
    name: str
    title: str
    engine: Callable[..., Any] | None
    checks: Callable[..., Any] | None
    default_agent: str
    """The agent a game's figures are played with unless told otherwise ('random' unless the game says)."""
    cooperative: bool
    """The players win or lose together: results are a team score, not seat win rates."""


def registered(game: str | None) -> Registered | None:
    """The registration of the game a design names; None for no game or an unknown one."""
    from pnp import registry

    entry = registry.get_game(game) if game else None
    if entry is None:
        return None
    return Registered(name=entry.name, title=entry.title, engine=entry.engine, checks=entry.checks,
                      default_agent=entry.default_agent or "random", cooperative=bool(entry.cooperative))
