"""3 Stars (Julien Grimard, 2019): triangular board in 3 regions, 41 placement cards, triangle pieces.

Also the seed's lozenge variant (lozenge.py): the same cards and rules on a rhombille board.
"""

from pnp.registry import GameSpec

from pnp.games.three_stars import components, diagrams, facts, lozenge
from pnp.games.three_stars.checks import run_checks
from pnp.games.three_stars.engine import Rules, make_engine

GAME = GameSpec(
    name="three_stars", title="3 Stars",
    generators=(components.placement_cards, components.card_back, components.board, components.pieces,
                lozenge.lozenge_board),
    engine=make_engine, checks=run_checks, rules=Rules,
    diagrams=diagrams.DIAGRAMS, rulebook_facts=facts.rulebook_facts,
)
