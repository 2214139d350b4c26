"""The TUBO design: what `pnp build` makes of it, and what `pnp validate` says of it and of broken copies."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from click.testing import CliRunner

from pnp.build import build_designs
from pnp.cli import main
from pnp.validate import validate
from tests.conftest import DESIGNS


def _face(folder, stem: str):
    """svg/<stem>.svg, or the first language's svg/<stem>.<lang>.svg when the face is drawn in each language."""
    plain = folder / f"{stem}.svg"
    return plain if plain.exists() else next(folder.glob(f"{stem}.??.svg"))


@pytest.fixture(scope="module")

def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("tubo")
    build_designs([str(DESIGNS / "tubo")], out=out)
    return out / "tubo"


def edit(design_copy, change) -> str:
    """A copy of designs/tubo with `change(data)` applied to its YAML; returns the folder."""
    folder = design_copy("tubo")
    path = folder / "design.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return str(folder)


def results(folder: str, games: int = 5) -> dict:
    (report,) = validate([folder], games=games, seed=1)
    return {r.name: r for r in report.results}


def test_build_makes_every_piece_once_and_the_board(built):
    manifest = json.loads((built / "manifest.json").read_text())
    entries = manifest["components"]
    assert len(entries) == 8 * 7 + 1 + 1
    stocks = [e for e in entries if e["component"] == "stocks"]
    assert len(stocks) == 56 and all(e["count"] == 1 and e["trim_mm"] == [25.0, 25.0] for e in stocks)
    by_colour: dict[str, list] = {}
    for e in stocks:
        by_colour.setdefault(e["data"]["stock"], []).append(e["data"])
    assert len(by_colour) == 8
    for pieces in by_colour.values():
        assert sorted("".join(p["sides"]) for p in pieces if p["piece"] == "connector") == \
            ["ES", "EW", "NE", "NS", "NW", "SW"]
        assert [p["piece"] for p in pieces].count("close") == 1
    assert len({p[0]["symbol"] for p in by_colour.values()}) == 8  # tellable apart without colour
    (objective,) = [e for e in entries if e["component"] == "objective"]
    assert objective["trim_mm"] == [25.0, 25.0]
    (board,) = [e for e in entries if e["component"] == "board"]
    assert board["data"]["zones"] == {"grey": 25, "black": 24} and board["data"]["start"] == [3, 3]
    w, h = board["trim_mm"]
    assert w == 7 * 25 + 2 * 12 and w < 210 and h < 297 - 8  # true size, one A4 page
    assert (built / "tubo-fr-a4.pdf").stat().st_size > 0


def _ends(svg: str, colour: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    out = []
    for d in re.findall(rf'<path d="([^"]+)"[^>]*stroke="{colour}"', svg):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
        out.append(((nums[0], nums[1]), (nums[-2], nums[-1])))
    return out


def test_lines_end_exactly_on_edge_midpoints(built):
    """E-W runs from (0, 12.5) to (25, 12.5); the Start branches end on the Start cell's edges,
    where the first piece of a round continues them."""
    ew = _face(built / "svg", "stocks-orange-ew").read_text()
    assert [set(e) for e in _ends(ew, "#E69F00")] == [{(0.0, 12.5), (25.0, 12.5)}]
    ne = _face(built / "svg", "stocks-orange-ne").read_text()
    assert [set(e) for e in _ends(ne, "#E69F00")] == [{(12.5, 0.0), (25.0, 12.5)}]
    board = _face(built / "svg", "board-board").read_text()
    m, s = 12.0, 25.0
    x0, y0 = m + 3 * s, m + 3 * s
    spokes = {end for _, end in _ends(board, "#ffffff")}
    assert spokes == {(x0 + s / 2, y0), (x0 + s, y0 + s / 2), (x0 + s / 2, y0 + s), (x0, y0 + s / 2)}


def test_the_design_passes_validation():
    res = results(str(DESIGNS / "tubo"), games=20)
    assert all(r.ok for r in res.values()), {k: (r.message, r.details) for k, r in res.items()}
    assert set(res) == {"stocks", "fitting pieces", "board", "objective", "simulation", "playability"}
    assert "24 black cells" in res["objective"].message


def test_one_stock_fails_with_a_clear_message(design_copy):
    folder = edit(design_copy, lambda d: d["components"]["stocks"]["params"].__setitem__(
        "stocks", d["components"]["stocks"]["params"]["stocks"][:1]))
    res = results(folder)
    assert not res["stocks"].ok
    assert "1 colour stock(s); rules.stocks says 8" in res["stocks"].details
    assert "1 colour stock(s) for 2 players choosing 4 each; expected at least 8" in res["stocks"].details
    assert not res["simulation"].ok and "cannot play" in res["simulation"].message


def test_a_stock_missing_a_connector_is_named(design_copy):
    def change(d):
        d["components"]["stocks"]["params"]["stocks"][4]["omit"] = ["N-S"]
    res = results(edit(design_copy, change))
    assert not res["stocks"].ok
    assert res["stocks"].details == ["stock 'blue' has 5 path pieces, missing N-S; expected each of the 6 "
                                     "two-edge connectors once"]
    assert res["fitting pieces"].ok  # N-E and N-W still meet a path from N


def test_a_stock_that_cannot_continue_westwards_fails_fitting(design_copy):
    def change(d):
        d["components"]["stocks"]["params"]["stocks"][0]["omit"] = ["N-W", "E-W", "S-W"]
    res = results(edit(design_copy, change))
    assert not res["fitting pieces"].ok
    assert res["fitting pieces"].details == ["stock 'orange' has no piece meeting a path entering from W; "
                                             "expected one of N-W, E-W, S-W"]


def test_a_missing_close_piece_and_a_wrong_objective_zone(design_copy):
    def change(d):
        d["components"]["stocks"]["params"]["close_pieces"] = 0
        d["rules"]["close_per_stock"] = 1
        d["components"]["board"]["params"]["zones"]["black"] = {"columns": [0, 0], "rows": [0, 0]}
    res = results(edit(design_copy, change), games=3)
    assert "stock 'orange' has 0 Close piece(s); rules.close_per_stock says 1" in res["stocks"].details
    assert res["objective"].ok and "1 black cells" in res["objective"].message
    # without Close pieces a player can be left with nothing to lay: the simulation says so
    assert not res["simulation"].ok and "neither a fitting piece nor a Close piece" in res["simulation"].details[0]


def test_cli_exit_codes(design_copy):
    runner = CliRunner()
    ok = runner.invoke(main, ["validate", str(DESIGNS / "tubo"), "-n", "5"])
    assert ok.exit_code == 0, ok.output
    assert "tubo (TUBO): all checks pass" in ok.output
    folder = edit(design_copy, lambda d: d["components"]["stocks"]["params"]["stocks"][4].__setitem__(
        "omit", ["E-S"]))
    bad = runner.invoke(main, ["validate", folder, "-n", "5"])
    assert bad.exit_code == 1 and "missing E-S" in bad.output
    sim = runner.invoke(main, ["simulate", str(DESIGNS / "tubo"), "-n", "20", "--seed", "1"])
    assert sim.exit_code == 0 and "objective_reached" in sim.output and "loops" in sim.output


@pytest.mark.slow
def test_two_hundred_games_each_agent():
    for agent in ("random", "greedy"):
        (report,) = validate([str(DESIGNS / "tubo")], games=200, seed=1, agent=agent)
        assert report.ok
