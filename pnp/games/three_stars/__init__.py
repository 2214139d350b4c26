"""3 Stars (Julien Grimard, 2019): triangular board in 3 regions, 41 placement cards, triangle pieces.

Also the seed's lozenge variant (lozenge.py): the same cards and rules on a rhombille board.
"""

from pnp.registry import register_game

from pnp.games.three_stars import components  # noqa: F401  (registers the generators)
from pnp.games.three_stars import lozenge  # noqa: F401  (the lozenge board generator and geometry)
from pnp.games.three_stars import diagrams  # noqa: F401  (rulebook diagrams and facts)
from pnp.games.three_stars.checks import run_checks
from pnp.games.three_stars.engine import make_engine

register_game("three_stars", title="3 Stars", engine=make_engine, checks=run_checks)
