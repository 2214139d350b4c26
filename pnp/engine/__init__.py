"""Generic rules engines: the Game/State API, agents and seeded playouts.

Games provide an engine factory through pnp.registry (`GameSpec(..., engine=f)`,
`f(design, players) -> Game`); `load_engine` finds it for a loaded design. Nothing in
this package imports a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.engine.api import CHANCE, TERMINAL, Game, GameInfo, IllegalActionError, State
from pnp.errors import PnpError

if TYPE_CHECKING:
    from pnp.model import Design

__all__ = ["CHANCE", "TERMINAL", "Game", "GameInfo", "IllegalActionError", "State", "load_engine",
           "player_counts"]


def load_engine(design: "Design", players: int) -> Game:
    """The rules engine of a design's game at a player count; PnpError when there is none or the count is wrong."""
    from pnp import registry  # lazy: 8.3 ms (pnp)

    if not design.game:
        raise PnpError(f"{design.slug}: the design names no game; expected 'game:' with a registered rules engine")
    game = registry.get_game(design.game)
    factory = game.engine if game else None
    if factory is None:
        raise PnpError(f"{design.slug}: game '{design.game}' has no rules engine to play it")
    lo, hi = design.meta.players.min, design.meta.players.max
    if not lo <= players <= hi:
        raise PnpError(f"{design.slug}: {design.meta.title} plays {design.meta.players} players; got {players}")
    return factory(design, players)


def player_counts(design: "Design") -> list[int]:
    return list(range(design.meta.players.min, design.meta.players.max + 1))
