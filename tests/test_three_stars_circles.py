"""The circles variant of 3 Stars: its geometry, its board, cards and round tokens as printed,
the same engine and validator on it, and its rulebooks."""

from __future__ import annotations

import io
import math
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader
from test_shapes import Page, centre

from pnp.cli import main
from pnp.engine.agents import RandomAgent
from pnp.engine.invariants import check_random_playouts
from pnp.engine.playout import play
from pnp.games.three_stars.circles import (
    CENTRE_DISTANCE,
    CircleBoardParams,
    circle_geometry,
    circle_xy,
    links,
    neighbours,
)
from pnp.games.three_stars.components import RegionSpec
from pnp.games.three_stars.engine import ThreeStarsGame, design_geometry
from pnp.games.three_stars.geometry import vertex_xy
from pnp.loader import load_design, package_root
from pnp.registry import get_diagram
from pnp.render.faces import design_faces
from pnp.validate import validate

DESIGN = package_root() / "designs" / "three-stars-circles"
TRIANGLES = package_root() / "designs" / "three-stars"


@pytest.fixture(scope="module")
def design():
    return load_design(DESIGN)


@pytest.fixture(scope="module")
def faces(design):
    return {cf.component_id: cf for cf in design_faces(design)}


def big_board(columns: int = 9, rows: int = 9):
    """One region of columns x rows star centres: its middle is far from every edge."""
    return circle_geometry(CircleBoardParams(regions={"A": RegionSpec(players=2, columns=(0, columns - 1),
                                                                      rows=(0, rows - 1))}))


# --- geometry ---------------------------------------------------------------------------------


def test_circles_and_star_positions_per_region(design):
    geo = design_geometry(design)
    assert {n: len(geo.cells(n)) for n in (2, 3, 4)} == {2: 38, 3: 54, 4: 68}
    assert {n: len(geo.star_positions(n)) for n in (2, 3, 4)} == {2: 12, 3: 18, 4: 24}
    own = Counter(geo.board.region_of(t).name for t in geo.cells(4))
    assert own == {"2": 38, "3": 16, "4": 14}  # regions named by the player count that first uses them


def test_the_circles_are_the_triangle_boards_cells(design):
    """A circle stands at each triangle's place: same cells, same stars, cell for cell."""
    circles, triangles = design_geometry(design), design_geometry(load_design(TRIANGLES))
    for n in (2, 3, 4):
        assert circles.cells(n) == triangles.cells(n)
        assert circles.star_positions(n) == triangles.star_positions(n)
        assert all(circles.star_cells(v) == triangles.star_cells(v) for v in circles.star_positions(n))


def test_every_circle_away_from_the_edge_is_in_exactly_three_stars():
    geo = big_board()
    stars = geo.star_positions(2)
    in_stars = Counter(t for v in stars for t in geo.star_cells(v))
    assert set(in_stars) == set(geo.cells(2))  # the board is the union of its stars
    middle = [t for t in geo.cells(2) if all(n in geo.cells(2) and all(m in geo.cells(2) for m in neighbours(n))
                                            for n in neighbours(t))]
    assert len(middle) > 100
    assert all(in_stars[t] == 3 for t in middle)
    assert max(in_stars.values()) == 3 and min(in_stars.values()) == 1  # corners of the board: one star


def test_every_circle_of_the_full_board_is_in_one_to_three_stars(design):
    geo = design_geometry(design)
    in_stars = Counter(t for v in geo.star_positions(4) for t in geo.star_cells(v))
    assert set(in_stars) == set(geo.cells(4))
    assert set(in_stars.values()) == {1, 2, 3}
    assert sum(in_stars.values()) == 6 * 24


def test_a_star_is_the_ring_of_six_circles_around_its_centre():
    geo = big_board(3, 3)
    v = geo.star_positions(2)[4]
    cx, cy = vertex_xy(v)
    for k, t in enumerate(geo.star_cells(v)):  # circle k at 60k + 30 degrees, like position k of a card
        x, y = circle_xy(t)
        assert math.hypot(x - cx, y - cy) == pytest.approx(CENTRE_DISTANCE)
        assert math.degrees(math.atan2(y - cy, x - cx)) % 360 == pytest.approx(60 * k + 30)
    for a, b in links(geo.cells(2)):  # linked circles are neighbours, one centre distance apart
        assert b in neighbours(a) and a in neighbours(b)
        assert math.dist(circle_xy(a), circle_xy(b)) == pytest.approx(CENTRE_DISTANCE)


def test_circles_wider_than_the_pitch_are_refused(tmp_path):
    folder = tmp_path / "three-stars-circles"
    shutil.copytree(DESIGN, folder)
    text = (folder / "design.yaml").read_text(encoding="utf-8")
    (folder / "design.yaml").write_text(re.sub(r"circle: 17mm", "circle: 21mm", text), encoding="utf-8")
    line = next(i for i, s in enumerate(text.splitlines(), start=1) if s.strip() == "params:"
                and "pitch:" in text.splitlines()[i])
    result = CliRunner().invoke(main, ["build", str(folder), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert f"design.yaml:{line}: components.board.params: circle (21 mm) is wider than pitch (20 mm)" in result.output
    assert not (tmp_path / "out").exists()


# --- the faces as drawn -----------------------------------------------------------------------


def _circles(svg: str) -> list[dict]:
    return [dict(re.findall(r'([\w-]+)="([^"]*)"', m)) for m in re.findall(r"<circle ([^>]*)/>", svg)]


def test_the_board_draws_every_circle_at_true_size_and_a_mark_on_every_star(design, faces):
    board = faces["board"].fronts[0]
    assert board.data["circles"] == {"2": 38, "3": 54, "4": 68}
    assert board.data["star_positions"] == {"2": 12, "3": 18, "4": 24}
    svg = board.paint()
    params = design.components["board"].params
    drawn = [c for c in _circles(svg) if float(c["r"]) == params.circle / 2]
    assert len(drawn) == 68
    centres = sorted((float(c["cx"]), float(c["cy"])) for c in drawn)
    nearest = min(math.dist(a, b) for i, a in enumerate(centres) for b in centres[i + 1:])
    assert nearest == pytest.approx(params.pitch, abs=0.002)  # neighbouring circles 20 mm apart
    marks = [m for m in re.findall(r'<polygon fill="#555555" points="([^"]*)"', svg) if m.count(" ") == 11]
    assert len(marks) == 24  # a 12-point star mark on each star position
    assert board.width < 285 and board.height < 190  # one A4 sheet, landscape


def test_the_cards_show_their_star_as_six_circles(faces):
    cards = faces["placement-cards"].fronts
    assert len(cards) == 41
    for card in cards:
        circles = _circles(card.paint())
        assert len(circles) == 6
        assert len({c["r"] for c in circles}) == 1
        filled = [k for k, c in enumerate(circles) if c["fill"] == "#1a1a1a"]
        assert filled == card.data["positions"]
    # position k of a card lies at 60k + 30 degrees, y up, as on the board
    card = cards[0]
    cx = sum(float(c["cx"]) for c in _circles(card.paint())) / 6
    cy = sum(float(c["cy"]) for c in _circles(card.paint())) / 6
    for k, c in enumerate(_circles(card.paint())):
        angle = math.degrees(math.atan2(cy - float(c["cy"]), float(c["cx"]) - cx)) % 360
        assert angle == pytest.approx(60 * k + 30, abs=0.05)
    assert len(_circles(faces["placement-cards"].back.paint())) == 18  # three stars of circles on the back


def test_round_tokens_one_per_colour_with_its_symbol(design, faces):
    tokens = faces["pieces"].fronts
    params = design.components["pieces"].params
    assert [t.key for t in tokens] == [c.name for c in params.colours]
    for t, colour in zip(tokens, params.colours):
        assert t.shape == "circle" and t.width == t.height == params.diameter
        assert t.count == design.rules["pieces_per_player"]
        assert t.data["symbol"] == colour.symbol and colour.colour in t.paint()
    assert len({c.symbol for c in params.colours}) == len(params.colours)


# --- engine and validator -----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_same_engine_plays_full_games_on_the_circles(design, players):
    game = ThreeStarsGame(design, players)
    assert game.S == {2: 12, 3: 18, 4: 24}[players] and game.C == 41
    assert check_random_playouts(game, seeds=range(2)) > 0
    for seed in range(3):
        res = play(game, [RandomAgent() for _ in range(players)], seed)
        assert len(res.winners) == 1 and not res.metrics["unfinished"]


def test_the_validator_passes():
    [report] = validate([str(DESIGN)], games=12, seed=1)
    res = {r.name: r for r in report.results}
    assert all(r.ok for r in res.values()), [(r.name, r.message, r.details) for r in res.values() if not r.ok]
    assert res["cards"].message.startswith("41 cards")
    assert "2: 12, 3: 18, 4: 24" in res["star positions"].message
    assert res["pieces"].message.startswith(f"{load_design(DESIGN).rules['pieces_per_player']} per colour")


# --- the build ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The design built as a user builds it (sheets and both rulebooks), once for this module."""
    out = tmp_path_factory.mktemp("circles")
    result = CliRunner().invoke(main, ["build", str(DESIGN), "--out", str(out), "--no-exports"])
    assert result.exit_code == 0, result.output
    return out / DESIGN.name


@pytest.fixture(scope="module")
def sheets(built) -> PdfReader:
    return PdfReader(built / f"{DESIGN.name}-fr-a4.pdf")


def test_the_tokens_are_cut_as_circles(design, sheets):
    params = design.components["pieces"].params
    d, bleed = params.diameter, 2.0
    total = design.rules["pieces_per_player"] * len(params.colours)
    pages = [p for p in (Page(sheets, i) for i in range(len(sheets.pages))) if p.faces_of(d + 2 * bleed)]
    assert sum(len(p.faces_of(d + 2 * bleed)) for p in pages) == total
    for page in pages:
        rings = [s[0] for s in page.curved if len(s) == 1]
        tokens = page.faces_of(d + 2 * bleed)
        for token in tokens:
            cx, cy = centre(token["box"])
            mine = [r for r in rings if math.hypot(sum(p[0] for p in r) / len(r) - cx,
                                                   sum(p[1] for p in r) / len(r) - cy) < 1]
            assert len(mine) == 1, "one cut line per token"
            assert max(abs(math.hypot(x - cx, y - cy) - d / 2) for x, y in mine[0]) <= 0.1
        # offset rows: neighbours in a row stand the print gutter apart, the next row is shifted half a
        # step and nested into the gaps (its centres sqrt(3)/2 of a step lower)
        step = d + (design.print.gutter if design.print.gutter is not None else design.print.bleed)
        rows: dict[float, list[float]] = {}
        for t in tokens:
            x, y = centre(t["box"])
            rows.setdefault(round(y, 2), []).append(x)
        ys = sorted(rows, reverse=True)
        first, second = sorted(rows[ys[0]]), sorted(rows[ys[1]])
        assert all(abs(b - a - step) < 0.01 for a, b in zip(first, first[1:]))
        assert abs(abs(second[0] - first[0]) - step / 2) < 0.01
        assert abs(ys[0] - ys[1] - step * math.sqrt(3) / 2) < 0.01


def test_the_board_prints_at_true_size_on_one_sheet(faces, sheets):
    board = faces["board"].fronts[0]
    found = [f for i in range(len(sheets.pages)) for f in Page(sheets, i).faces
             if abs(f["box"][2] - f["box"][0] - board.width) < 0.01
             and abs(f["box"][3] - f["box"][1] - board.height) < 0.01]
    assert len(found) == 1


# --- rulebooks ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def books(built) -> dict[str, bytes]:
    return {lang: (built / f"{DESIGN.name}-rules-{lang}-a4.pdf").read_bytes() for lang in ("fr", "en")}


def flat(pdf: bytes) -> str:
    """The text of a PDF, every run of white space as one space (pypdf: the language and vector checks
    of every rulebook are in tests/test_rulebook.py), its typographic apostrophes read as typed."""
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
                  .replace("’", "'"))


def test_both_rulebooks_follow_the_design(design, books):
    assert set(books) == {"fr", "en"}
    en, fr = flat(books["en"]), flat(books["fr"])
    n = design.rules["pieces_per_player"]
    board, tokens = design.components["board"].params, design.components["pieces"].params
    circle, pitch, d = (f"{v:g}" for v in (board.circle, board.pitch, tokens.diameter))
    assert "a star is the ring of 6 circles around a small star mark" in en
    assert "every circle belongs to 3 different stars" in en
    assert f"The circles of the board are {circle} mm across and their centres {pitch} mm apart" in en
    assert (f"Glass marbles {d} mm across, the usual size, can replace the tokens: "
            f"each player needs {n} of one colour") in en
    assert "12 star positions for 2 players, 18 for 3 players, 24 for 4 players" in en
    assert "12 positions d'étoiles à 2 joueurs, 18 à 3 joueurs, 24 à 4 joueurs" in fr
    assert f"takes the {n} pieces" in en and f"{4 * n} (4 × {n})" in en
    assert "une étoile est l'anneau des 6 cercles" in fr and "chaque cercle fait partie de 3 étoiles différentes" in fr
    assert f"Les cercles du plateau mesurent {circle} mm de diamètre et leurs centres sont à {pitch} mm" in fr
    assert (f"Des billes de verre de {d} mm, la taille courante, peuvent remplacer les jetons : "
            f"chaque joueur en prend {n}") in fr


def test_the_cell_diagram_rings_the_three_stars_of_one_circle(design):
    svg = get_diagram("three_stars.cell_stars")(design, "en")
    rings = [c for c in _circles(svg) if c.get("stroke-dasharray")]
    assert len(rings) == 3
    centres = [(float(c["cx"]), float(c["cy"])) for c in rings]
    token = [c for c in _circles(svg) if c.get("fill") == "#0072B2"]
    assert len(token) == 1
    t = (float(token[0]["cx"]), float(token[0]["cy"]))
    # the token's circle is equally far from the three star centres: one circle, its 3 stars
    assert max(math.dist(t, c) for c in centres) - min(math.dist(t, c) for c in centres) < 0.01
