"""Ishi-Hama (Christophe Berg, 2004): 9x9 board, 28 path tiles in two colours, connect 5 to score.

geometry.py: the grid, sides and path masks (pure); components.py: the board (reserve and
score strips printed on it) and the tiles (drawn by pnp.render.pathtiles); engine.py: every
rule of seed 001; checks.py: `pnp validate`.
"""

from pnp.games.ishi_hama import components, diagrams, facts, play
from pnp.games.ishi_hama.checks import run_checks
from pnp.games.ishi_hama.engine import Rules, make_engine
from pnp.registry import GameSpec

GAME = GameSpec(
    name="ishi_hama", title="Ishi-Hama",
    generators=(components.tiles, components.board),
    engine=make_engine, checks=run_checks, rules=Rules,
    diagrams=diagrams.DIAGRAMS, wordless_diagrams=diagrams.WORDLESS, rulebook_facts=facts.rulebook_facts,  # type: ignore[arg-type]
    play=play.PLAY,
    default_agent="greedy",  # random players almost never join 5 tiles, so simulations default to greedy
)
