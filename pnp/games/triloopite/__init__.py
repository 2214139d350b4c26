"""TriLOOPite (festival l'Alchimie du Jeu, Toulouse, 2024): cooperative hexagonal path tiles, loops.

geometry.py: hex grid, placement rules, the exact loop analysis (crossing and inside
defined there); scoring.py: the design's tables; components.py: tile and aid generators
(lines drawn by pnp.render.pathtiles); engine.py: both ways to play; witnesses.py and
checks.py: `pnp validate`; picture.py: the analysed layout as SVG (`pnp loops`); play.py:
the `pnp play` page's view (the table, the hands as each seat may see them, what a click means).
"""

from pnp.games.triloopite import components, diagrams, facts, play
from pnp.games.triloopite.checks import run_checks
from pnp.games.triloopite.engine import make_engine
from pnp.games.triloopite.picture import loops_command
from pnp.games.triloopite.scoring import TriloopiteRules
from pnp.registry import GameSpec

GAME = GameSpec(
    name="triloopite", title="TriLOOPite",
    generators=(components.tiles, components.aid),
    engine=make_engine, checks=run_checks, rules=TriloopiteRules,
    diagrams=diagrams.DIAGRAMS, wordless_diagrams=diagrams.WORDLESS, rulebook_facts=facts.rulebook_facts,  # type: ignore[arg-type]
    cooperative=True,  # the players win or lose together: simulate reports scores, not seats
    commands={"loops": loops_command},
    play=play.PLAY,
)
