"""What a game's checks return, and the static checks a build shows: the engine layer's side of `pnp validate`.

A game registers `checks=f` (pnp.registry.GameSpec), `f(design, *, games, seed, agent) -> list[CheckResult]`;
games and designers' packages import `CheckResult` from here, never from the command module pnp.validate.
`static_checks` runs a game's checks without games (what `pnp build` prints on index.html), so build needs
nothing from validate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pnp.registry import get_game

if TYPE_CHECKING:
    from pnp.model import Design


@dataclass
class CheckResult:
    """One check: its name, whether it passed, a one-line message and optional detail lines.

    `proves` says what a pass establishes; `warning` marks a pass with a caveat the
    designer should read (it does not change the exit status)."""

    name: str
    ok: bool
    message: str
    details: list[str] = field(default_factory=list)
    proves: str = ""
    warning: bool = False


def static_checks(design: Design) -> list[CheckResult] | None:
    """The game's checks without simulation (games=0, the game's default agent); None when the design names no
    game or its game registers no checks."""
    entry = get_game(design.game)
    if entry is None or entry.checks is None:
        return None
    return list(entry.checks(design, games=0, seed=1, agent=entry.default_agent))
