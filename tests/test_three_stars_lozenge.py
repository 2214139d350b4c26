"""The lozenge variant: its geometry, its board generator, and the same engine on it."""

from __future__ import annotations

from collections import Counter

import pytest

from pnp.engine.agents import RandomAgent
from pnp.engine.playout import play
from pnp.games.three_stars.engine import ThreeStarsGame, design_geometry
from pnp.games.three_stars.lozenge import LozengeBoard, LozengeRegion, lozenge_xy, star_lozenges
from pnp.loader import load_design, package_root
from pnp.registry import GeneratorContext, get_generator

DESIGN = package_root() / "designs" / "three-stars-lozenge"


@pytest.fixture(scope="module")
def design():
    return load_design(DESIGN)


def test_nineteen_star_positions_for_two_players(design):
    geo = design_geometry(design)
    positions = geo.star_positions(2)
    assert len(positions) == 19
    assert set(positions) == {(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2}


def test_each_lozenge_lies_in_two_stars():
    big = LozengeBoard({"A": LozengeRegion(players=2, radius=4)})
    stars_of = Counter(z for v in big.star_positions(2) for z in star_lozenges(v))
    inner = {z for v in big.star_positions(2) if max(abs(v[0]), abs(v[1]), abs(v[0] + v[1])) <= 2
             for z in star_lozenges(v)}
    assert inner and all(stars_of[z] == 2 for z in inner)
    assert max(stars_of.values()) == 2


def test_a_star_is_six_distinct_lozenges_around_its_centre():
    cells = star_lozenges((0, 0))
    assert len(set(cells)) == 6
    for k, z in enumerate(cells):
        corners = lozenge_xy(z)
        assert any(abs(x) < 1e-9 and abs(y) < 1e-9 for x, y in corners)  # each touches the centre
    # position k points at 60k + 30 degrees, like sector k of a card
    import math

    for k, z in enumerate(cells):
        xs, ys = zip(*lozenge_xy(z))
        angle = math.degrees(math.atan2(sum(ys) / 4, sum(xs) / 4)) % 360
        assert abs(angle - (60 * k + 30)) < 1e-6


def test_the_same_engine_plays_the_lozenge_board(design):
    game = ThreeStarsGame(design, 2)
    assert game.S == 19 and game.C == 41
    assert len(game.cells) == 19 * 6 - 42  # 42 lozenges are shared by two of the 19 stars
    res = play(game, [RandomAgent(), RandomAgent()], 5)
    assert res.winners and not res.metrics["unfinished"]


def test_the_lozenge_board_generator_draws_every_lozenge(design):
    comp = design.components["board"]
    gen = get_generator("three_stars.lozenge_board")
    faces = gen.fn(GeneratorContext(design, "board", comp, comp.params, 0.0))
    assert len(faces) == 1
    face = faces[0]
    assert face.data["star_positions"] == {"2": 19}
    svg = face.paint()
    geo = design_geometry(design)
    assert svg.count("<polygon") >= 2 * len(geo.cells(2)) + 19  # fills, outlines and small stars
    assert 150 < face.width < 210 and 150 < face.height < 297  # fits an A4 sheet
