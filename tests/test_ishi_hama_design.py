"""The Ishi-Hama design: what `pnp build` makes of it, what `pnp validate` says of it and of broken
copies, and what `pnp simulate` reports."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from click.testing import CliRunner

from pnp.build import build_designs
from pnp.cli import main
from pnp.engine.agents import RandomAgent
from pnp.engine.playout import play
from pnp.games.ishi_hama.engine import IshiHamaGame
from pnp.loader import load_design
from pnp.simulate import simulate
from pnp.validate import validate
from tests.conftest import DESIGNS

ORANGE, BLUE = "#E69F00", "#0072B2"



def _face(folder, stem: str):
    """svg/<stem>.svg, or the first language's svg/<stem>.<lang>.svg when the face is drawn in each language."""
    plain = folder / f"{stem}.svg"
    return plain if plain.exists() else next(folder.glob(f"{stem}.??.svg"))


@pytest.fixture(scope="module")

def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("ishi-hama")
    build_designs([str(DESIGNS / "ishi-hama")], out=out)
    return out / "ishi-hama"


def edit(design_copy, change) -> str:
    """A copy of designs/ishi-hama with `change(data)` applied to its YAML; returns the folder."""
    folder = design_copy("ishi-hama")
    path = folder / "design.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return str(folder)


def results(folder: str, games: int = 0) -> dict:
    (report,) = validate([folder], games=games, seed=1)
    return {r.name: r for r in report.results}


def mix(data) -> list[dict]:
    return data["components"]["tiles"]["params"]["mix"]


# --- build ----------------------------------------------------------------------------------------


def test_build_makes_28_tiles_and_the_board(built):
    manifest = json.loads((built / "manifest.json").read_text())
    entries = manifest["components"]
    tiles = [e for e in entries if e["component"] == "tiles"]
    (board,) = [e for e in entries if e["component"] == "board"]
    assert sum(e["count"] for e in tiles) == 28 and len(tiles) == 6
    assert all(e["trim_mm"] == [18.0, 18.0] and e["bleed_mm"] == 0 for e in tiles)
    per = {}
    for e in tiles:
        per.setdefault(e["data"]["colour"], {})[e["data"]["shape"]] = (e["count"], "".join(e["data"]["paths"]))
    assert per == {c: {"corner": (6, "NE"), "straight": (4, "NS"), "tee": (4, "NES")} for c in ("orange", "blue")}
    assert board["data"]["columns"] == board["data"]["rows"] == 9 and board["data"]["cell_mm"] == 18.0
    assert board["data"]["score_slots"] == 7 and board["data"]["seats"] == ["orange", "blue"]
    w, h = board["trim_mm"]
    assert w <= 297 - 2 * 3.5 - 20 and h <= 210 - 8 - 2 * 3.5  # one A4 landscape page, room to spare
    assert w <= 279.4 - 7 and h <= 215.9 - 15  # and one US Letter landscape page
    assert manifest["sheets"] == 2  # the board on its own page, the 28 tiles on one sheet


def test_the_board_is_one_page_at_true_size(built):
    from pypdf import PdfReader

    for lang, whole, part in (("fr", "taille réelle", "partie"), ("en", "true size", "part")):
        pages = PdfReader(str(built / f"ishi-hama-{lang}-a4.pdf")).pages
        assert len(pages) == 2
        w, h = (float(v) for v in pages[0].mediabox.upper_right)
        assert w > h  # landscape
        text = pages[0].extract_text()
        assert whole in text and part not in text  # not split into parts


def _ends(svg: str, colour: str) -> list[set[tuple[float, float]]]:
    out = []
    for d in re.findall(rf'<path d="([^"]+)"[^>]*stroke="{colour}"', svg):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
        out.append({(nums[0], nums[1]), (nums[-2], nums[-1])})
    return out


def test_paths_run_from_the_centre_to_the_edge_midpoints(built):
    """So two tiles side by side meet exactly in the middle of their shared edge."""
    svg = built / "svg"
    c = (9.0, 9.0)
    assert _ends(_face(svg, "tiles-orange-corner").read_text(), ORANGE) == [{c, (9.0, 0.0)}, {c, (18.0, 9.0)}]
    assert _ends(_face(svg, "tiles-blue-straight").read_text(), BLUE) == [{c, (9.0, 0.0)}, {c, (9.0, 18.0)}]
    assert _ends(_face(svg, "tiles-blue-tee").read_text(), BLUE) == [{c, (9.0, 0.0)}, {c, (18.0, 9.0)},
                                                                      {c, (9.0, 18.0)}]


def test_colours_differ_without_colour(built):
    """Orange paths carry dark cross-ties and a square on the hub; blue paths are plain with a circle."""
    orange = _face(built / "svg", "tiles-orange-corner").read_text()
    blue = _face(built / "svg", "tiles-blue-corner").read_text()
    assert orange.count("<line") == 6 and blue.count("<line") == 0  # 3 ties on each of the 2 spokes
    assert '<rect fill="#ffffff"' in orange and '<circle cx="9" cy="9" fill="#ffffff"' in blue
    # the ties sit symmetrically about the edge: 0.945 mm in, so 1.89 mm apart across the edge, as along it
    ties = [float(v) for v in re.findall(r'y1="([\d.]+)" y2="\1"', orange)]
    assert ties[:3] == [0.945, 2.835, 4.725]


# --- validate -------------------------------------------------------------------------------------


def test_the_design_passes_validation():
    res = results(str(DESIGNS / "ishi-hama"), games=3)
    assert all(r.ok for r in res.values()), {k: (r.message, r.details) for k, r in res.items()}
    assert set(res) == {"tiles", "paths", "board", "phase 1", "scoring", "simulation", "playability"}
    assert res["tiles"].message.startswith("14 tiles per colour")
    assert "41 such cells on 9x9" in res["phase 1"].message
    assert "orange 8, blue 8" in res["scoring"].message
    assert any(line.startswith("greedy: 3 of 3 reached point 7") for line in res["simulation"].details)


def test_three_tiles_per_kind_fail_with_clear_messages(design_copy):
    folder = edit(design_copy, lambda d: [m.update(count=3) for m in mix(d)])
    res = results(folder)
    assert not res["tiles"].ok
    assert "orange: 9 tiles printed (corner 3, straight 3, tee 3); rules.tiles_per_colour says 14" in \
        res["tiles"].details
    assert not res["scoring"].ok
    assert ("blue: 9 tiles; after 6 points all scored in blue only 3 stay in play, fewer than a group of 5; "
            "expected at least 11 tiles") in res["scoring"].details
    assert res["paths"].ok and res["phase 1"].ok


def test_a_tile_without_paths_fails_naming_it(design_copy):
    def change(d):
        mix(d)[0]["count"] = 5
        mix(d).append({"name": "blank", "paths": [], "count": 1})
    res = results(edit(design_copy, change))
    assert not res["paths"].ok
    assert res["paths"].details == [
        "orange blank (1 printed): no path end; expected a path from the centre to at least one side, e.g. paths: [N]",
        "blue blank (1 printed): no path end; expected a path from the centre to at least one side, e.g. paths: [N]"]
    assert res["tiles"].ok  # still 14 a colour


def test_too_many_tiles_for_phase_one_and_tiles_unlike_the_cells(design_copy):
    def change(d):
        mix(d)[0]["count"] = 20
        d["rules"]["tiles_per_colour"] = 28
        d["components"]["tiles"]["params"]["cell"] = "20mm"
    res = results(edit(design_copy, change))
    assert not res["phase 1"].ok
    assert res["phase 1"].details == ["56 tiles but at most 41 cells of the 9x9 board can hold tiles touching no "
                                      "other; expected at most that many tiles"]
    assert not res["board"].ok and "tiles of 20 mm on cells of 18 mm" in res["board"].details[0]


def test_rules_that_do_not_add_up(design_copy):
    def change(d):
        d["rules"]["tiles_to_opponent"] = 3
    res = results(edit(design_copy, change), games=2)
    assert not res["scoring"].ok and "tiles_to_opponent 3 + 1 score tile is not rules.group_size 5" in \
        res["scoring"].details[0]
    assert not res["simulation"].ok and "tiles_to_opponent" in res["simulation"].details[0]


def test_cli_exit_codes(design_copy):
    runner = CliRunner()
    ok = runner.invoke(main, ["validate", str(DESIGNS / "ishi-hama"), "-n", "2"])
    assert ok.exit_code == 0, ok.output
    assert "8 of 8 checks pass" in ok.output  # build + 6 + playability
    broken = edit(design_copy, lambda d: [m.update(count=3) for m in mix(d)])
    bad = runner.invoke(main, ["validate", broken, "-n", "0"])
    assert bad.exit_code == 1 and "FAIL  tiles" in bad.output


# --- simulate and speed -----------------------------------------------------------------------


def test_simulate_reports_seats_scores_length_and_blocking():
    res = simulate(str(DESIGNS / "ishi-hama"), games=4, seed=1, agent="greedy")
    assert res.seat_names == ["orange", "blue"] and sum(res.wins) + res.draws == 4
    text = res.to_text()
    assert "phase1_blocked" in text and "turns" in text
    finals = {k: v for k, v in res.metrics.items() if k.startswith("final ")}
    assert sum(v["games"] for v in finals.values()) == 4  # every greedy game reached point 7
    assert res.metrics["unfinished"]["total"] == 0


def test_random_playouts_are_long_games():
    """Random players rarely join 5 tiles: games run to the turn cap (their speed is measured in bench/)."""
    game = IshiHamaGame(load_design(DESIGNS / "ishi-hama"), 2)
    actions = sum(play(game, [RandomAgent()] * 2, seed).length for seed in range(5))
    assert actions > 5 * 2000


@pytest.mark.slow
def test_two_hundred_greedy_games():
    res = simulate(str(DESIGNS / "ishi-hama"), games=200, seed=1, agent="greedy")
    assert res.draws == 0 and res.metrics["unfinished"]["total"] == 0
    assert all(0.35 < w / 200 < 0.65 for w in res.wins)
