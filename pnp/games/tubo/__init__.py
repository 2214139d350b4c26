"""TUBO (Ludovic Servat, 2011): a shared path on a wrapping 7x7 board, 8 colour stocks of path pieces.

geometry.py: the torus board, zones, connectors (pure); components.py: board, stocks and
Objective generators (lines drawn by pnp.render.pathtiles); engine.py: every rule of the
seed; checks.py: `pnp validate`.
"""

from pnp.registry import register_game

from pnp.games.tubo import components  # noqa: F401  (registers the generators)
from pnp.games.tubo import diagrams  # noqa: F401  (rulebook diagrams and facts)
from pnp.games.tubo.checks import run_checks
from pnp.games.tubo.engine import make_engine

register_game("tubo", title="TUBO", engine=make_engine, checks=run_checks)
