"""3 Stars boards name their regions the way the legend and the rules do (issue 30 item 8), and the board
of circles prints each region's name where no circle covers it: read back from the PDFs (pdfplumber)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pdfplumber
import pytest

from pnp.build import build_designs
from pnp.cache import Cache

ROOT = Path(__file__).resolve().parent.parent
LEGEND = "2 players: region 2 · 3 players: 2 + 3 · 4 players: 2 + 3 + 4"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("boards")
    results = build_designs([str(ROOT / "designs" / d) for d in ("three-stars", "three-stars-circles")], out=out,
                            cache=Cache(None), show_progress=False)
    return {r.slug: r.out_dir for r in results}


def _board_page(pdf) -> pdfplumber.page.Page:
    [page] = [p for p in pdf.pages if re.search(r"· Board( of circles)? \(true size\)", p.extract_text() or "")]
    return page


def _labels(page) -> list[dict]:
    return [c for c in page.chars if c["size"] > 15 and c["text"].strip()]


@pytest.mark.parametrize("design", ["three-stars", "three-stars-circles"])
def test_board_legend_and_rules_name_the_regions_alike(built, design):
    folder = built[design]
    with pdfplumber.open(folder / f"{design}-en-a4.pdf") as pdf:
        page = _board_page(pdf)
        text = " ".join((page.extract_text() or "").split())
        printed = sorted(c["text"] for c in _labels(page))
    assert printed == ["2", "3", "4"]  # the names the board prints in its regions
    assert LEGEND in text and "region A" not in text
    for lang, head in (("en", "Players Regions in play"), ("fr", "Joueurs Régions en jeu")):
        with pdfplumber.open(folder / f"{design}-rules-{lang}-a4.pdf") as pdf:
            rules = "\n".join(p.extract_text() or "" for p in pdf.pages)
        assert head in rules
        rows = re.findall(r"^([234]) ((?:[234A-C](?: \+ )?)+) (\d+) (\d+)$", rules, re.M)
        assert [(n, regions) for n, regions, _, _ in rows] == [("2", "2"), ("3", "2 + 3"), ("4", "2 + 3 + 4")]
        assert not re.search(r"\b(?:region|région)s? [ABC]\b|\bA \+ B\b", rules)


def test_the_circles_board_labels_lie_clear_of_every_circle(built):
    """Each region name's glyph box (advance width x cap height, from the baseline) keeps at least 1 mm from
    every one of the 68 circles."""
    with pdfplumber.open(built["three-stars-circles"] / "three-stars-circles-en-a4.pdf") as pdf:
        page = _board_page(pdf)
        labels = _labels(page)
        circles = [c for c in page.curves if 40 < c["x1"] - c["x0"] < 60
                   and abs((c["x1"] - c["x0"]) - (c["bottom"] - c["top"])) < 1]
        height = float(page.height)
    assert len(circles) == 68 and len(labels) == 3
    mm = 72 / 25.4
    for ch in labels:
        base = height - ch["matrix"][5]
        box = (ch["x0"], base - 0.73 * ch["size"], ch["x1"], base)
        assert ch["size"] > 6 * mm  # large enough to read across the table
        for c in circles:
            cx, cy, r = (c["x0"] + c["x1"]) / 2, (c["top"] + c["bottom"]) / 2, (c["x1"] - c["x0"]) / 2
            dx = max(box[0] - cx, 0, cx - box[2])
            dy = max(box[1] - cy, 0, cy - box[3])
            assert math.hypot(dx, dy) > r + 0.5 * mm, (ch["text"], cx, cy)


def test_label_spots_fit_every_region_inside_its_own_cells():
    """The spot search itself: on the shipped board each region gets a spot inside its own triangles; a name
    too big for any gap gets none rather than one over the circles."""
    import yaml

    from pnp.games.three_stars.circles import CircleBoardParams, circle_geometry, label_box, label_spot

    data = yaml.safe_load((ROOT / "designs" / "three-stars-circles" / "design.yaml").read_text(encoding="utf-8"))
    params = CircleBoardParams(**data["components"]["board"]["params"])
    board = circle_geometry(params).board
    for reg in board.regions:
        (x, y), size = label_spot(board, reg.name, params.radius)
        box = label_box((x, y), reg.name, size)
        assert size >= 0.2 and box[0] < x < box[2]
    assert label_spot(board, "2", params.radius, sizes=[3.0]) is None
