"""3 Stars (Julien Grimard, 2019): triangular board in 3 regions, 41 placement cards, triangle pieces."""

from pnp.registry import register_game

from pnp.games.three_stars import components  # noqa: F401  (registers the generators)

register_game("three_stars", title="3 Stars")
