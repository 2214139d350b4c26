"""3 Stars (Julien Grimard, 2019): triangular board in 3 regions, 41 placement cards, triangle pieces.

Also the seed's variants: lozenges (lozenge.py), the same cards and rules on a rhombille board,
and circles (circles.py), a circle at each triangle's place, played with round tokens or marbles.
"""

from pnp.games.three_stars import circles, components, diagrams, facts, lozenge, play
from pnp.games.three_stars.checks import run_checks
from pnp.games.three_stars.engine import Rules, make_engine
from pnp.registry import GameSpec

GAME = GameSpec(
    name="three_stars", title="3 Stars",
    generators=(components.placement_cards, components.card_back, components.board, components.pieces,
                lozenge.lozenge_board, circles.circle_board),
    engine=make_engine, checks=run_checks, rules=Rules,
    diagrams=diagrams.DIAGRAMS, wordless_diagrams=diagrams.WORDLESS, rulebook_facts=facts.rulebook_facts,  # type: ignore[arg-type]
    play=play.PLAY,
)
