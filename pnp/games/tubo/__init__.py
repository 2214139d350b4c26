"""TUBO (Ludovic Servat, 2011): a shared path on a wrapping 7x7 board, 8 colour stocks of path pieces.

geometry.py: the torus board, zones, connectors (pure); components.py: board, stocks and
Objective generators (lines drawn by pnp.render.pathtiles); engine.py: every rule of the
seed; checks.py: `pnp validate`; play.py: how `pnp play` draws a position and maps clicks to actions.
"""

from pnp.games.tubo import components, diagrams, facts, play
from pnp.games.tubo.checks import run_checks
from pnp.games.tubo.engine import Rules, make_engine
from pnp.registry import GameSpec

GAME = GameSpec(
    name="tubo", title="TUBO",
    generators=(components.board, components.stocks, components.objective),
    engine=make_engine, checks=run_checks, rules=Rules,
    diagrams=diagrams.DIAGRAMS, wordless_diagrams=diagrams.WORDLESS, rulebook_facts=facts.rulebook_facts,  # type: ignore[arg-type]
    play=play.PLAY,
)
