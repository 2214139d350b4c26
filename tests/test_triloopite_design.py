"""TriLOOPite design: `pnp validate` passes and fails as it should, the build, the CLI commands."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pnp.build import build_designs
from pnp.cli import main
from pnp.games.triloopite.geometry import SQRT3
from pnp.loader import package_root
from pnp.validate import validate

DESIGNS = package_root() / "designs"


def copy_design(tmp_path: Path, edit=None) -> Path:
    folder = tmp_path / "triloopite"
    shutil.copytree(DESIGNS / "triloopite", folder)
    if edit is not None:
        path = folder / "design.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        edit(data)
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return folder


def varieties(d) -> list[dict]:
    return d["components"]["tiles"]["params"]["varieties"]


def checks(folder: Path, games: int = 0) -> dict:
    [report] = validate([str(folder)], games=games, seed=1)
    return {r.name: r for r in report.results}


def test_the_default_design_passes_every_check():
    res = checks(DESIGNS / "triloopite", games=10)
    assert set(res) == {"start tile", "tile lines", "scoring tables", "loop of 6", "bonuses", "simulation",
                        "playability"}
    assert all(r.ok for r in res.values()), [(r.name, r.message, r.details) for r in res.values() if not r.ok]
    assert "crossing tiles: t3, t4" in res["bonuses"].message


def test_two_start_tiles_fail(tmp_path):
    def edit(d):
        varieties(d)[0]["count"] = 2
    res = checks(copy_design(tmp_path, edit), games=2)
    assert not res["start tile"].ok
    assert res["start tile"].message.startswith("2 start tiles (start x2); expected exactly one")
    assert not res["simulation"].ok  # the engine refuses to play it, saying why


def test_no_start_tile_fails(tmp_path):
    def edit(d):
        varieties(d)[0]["start"] = False
    res = checks(copy_design(tmp_path, edit))
    assert not res["start tile"].ok and res["start tile"].message.startswith("no start tile")


def test_no_tile_able_to_cross_lines_fails(tmp_path):
    def edit(d):
        d["components"]["tiles"]["params"]["varieties"] = [v for v in varieties(d) if v["id"] not in ("t3", "t4")]
    res = checks(copy_design(tmp_path, edit))
    assert res["loop of 6"].ok and res["tile lines"].ok
    bonus = res["bonuses"]
    assert not bonus.ok
    text = "\n".join(bonus.details)
    assert "figure_eight: no tile variety has two lines that cross" in text
    assert "crossing_loops: no tile variety has two lines that cross" in text
    assert "nested_loops" in text  # its witness needs arc-over-straight tiles too
    assert "start_loop: a ring of 6" in text  # still reachable


def test_a_sharp_arc_fails(tmp_path):
    def edit(d):
        varieties(d)[2]["lines"] = [[0, 1]]
    res = checks(copy_design(tmp_path, edit))
    assert not res["tile lines"].ok
    assert any("t1: line [0, 1] is a sharp arc" in line for line in res["tile lines"].details)


def test_too_few_crabs_for_a_ring_fails(tmp_path):
    def edit(d):
        for v in varieties(d):
            if v["id"] in ("crab", "t2", "t4"):
                v["count"] = 1 if v["id"] == "crab" else 0
    res = checks(copy_design(tmp_path, edit))
    assert not res["loop of 6"].ok and "cannot be laid" in res["loop of 6"].message


def test_build_gives_every_tile_and_the_aid(tmp_path):
    [_built] = build_designs([str(DESIGNS / "triloopite")], out=tmp_path)
    folder = tmp_path / "triloopite"
    manifest = json.loads((folder / "manifest.json").read_text())
    entries = manifest["components"]
    assert len(entries) == 7  # 6 tiles and the aid (in the language it is drawn in)
    tiles = {e["key"]: e for e in entries if e["component"] == "tiles"}
    assert {k: e["count"] for k, e in tiles.items()} == {"start": 1, "crab": 35, "t1": 6, "t2": 6, "t3": 6, "t4": 6}
    assert sum(e["count"] for e in tiles.values()) == 60
    assert all(e["shape"] == "hexagon" and e["trim_mm"] == [40.0, 34.641] for e in tiles.values())
    assert tiles["t3"]["data"]["lines"] == [[0, 3], [1, 4]]
    aids = [e for e in entries if e["component"] == "aid"]
    assert [e["key"] for e in aids] == ["aid"] and aids[0]["trim_mm"] == [63.0, 88.0]
    # the aid prints the tables from the design, in each language (the manifest's first edition is French)
    aid = (folder / aids[0]["face"].replace(".fr.svg", ".en.svg")).read_text()
    for text in ("Closed loops", "11+", "30+", "54", "A loop through the start tile", "Another go?"):
        assert text in aid
    # every line of every tile starts and ends on an edge midpoint of the 20 mm hexagon
    side, h = 20.0, 20.0 * SQRT3 / 2
    mids = {(round(x, 2), round(y, 2)) for x, y in [(side, 0), (1.75 * side, h / 2), (1.75 * side, 1.5 * h),
                                                     (side, 2 * h), (0.25 * side, 1.5 * h), (0.25 * side, h / 2)]}
    for e in tiles.values():
        svg = (folder / e["face"]).read_text()
        paths = re.findall(r'<path d="M([\d.]+) ([\d.]+) [AL][^"]*?([\d.]+) ([\d.]+)"', svg)
        assert len(paths) == 2 * len(e["data"]["lines"])  # outline + colour per line
        for x0, y0, x1, y1 in paths:
            assert (round(float(x0), 2), round(float(y0), 2)) in mids
            assert (round(float(x1), 2), round(float(y1), 2)) in mids
    assert (folder / "triloopite-fr-a4.pdf").stat().st_size > 10_000


def test_loops_command_on_a_layout_file_and_on_a_seeded_game(tmp_path):
    from pnp.games.triloopite import witnesses as W

    layout = W.figure8_cross()
    (tmp_path / "f8.yaml").write_text(yaml.safe_dump(
        {"tiles": [{"at": list(c), "lines": [list(ln) for ln in lns]} for c, lns in layout.items()],
         "hands": [1, 2]}))
    out = tmp_path / "f8.svg"
    r = CliRunner().invoke(main, ["loops", str(DESIGNS / "triloopite"), "--layout", str(tmp_path / "f8.yaml"),
                                  "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "loop 1: 13 tiles, crosses itself (figure 8), through the start tile" in r.output
    assert "\n  score 9\n" in r.output  # 1 loop: 1, 13 tiles: 3, +5 figure 8, +5 start, -(1 + 4)
    assert out.read_text().count("<path") >= 14
    out2 = tmp_path / "game.svg"
    r = CliRunner().invoke(main, ["loops", str(DESIGNS / "triloopite"), "--seed", "3", "--out", str(out2)])
    assert r.exit_code == 0 and "standard game, 1 player, greedy agents, seed 3" in r.output
    assert "loop 1:" in r.output and out2.exists()
    r = CliRunner().invoke(main, ["loops", str(DESIGNS / "three-stars"), "--out", str(tmp_path / "x.svg")])
    assert r.exit_code != 0 and "has no loop analysis" in r.output


def test_simulate_reports_scores_loops_bonuses_and_hands():
    r = CliRunner().invoke(main, ["simulate", str(DESIGNS / "triloopite"), "-n", "4", "--players", "3",
                                  "--agent", "greedy"])
    assert r.exit_code == 0, r.output
    for name in ("score ", "loops ", "longest_loop ", "bonus_figure_eight", "bonus_crossing_loops",
                 "bonus_nested_loops", "bonus_start_loop", "tiles_in_hand", "hand_penalty", "score_1:0..9"):
        assert name in r.output


@pytest.mark.slow
def test_two_hundred_greedy_games_score_and_end():
    from pnp.simulate import simulate

    res = simulate(str(DESIGNS / "triloopite"), 200, players=3, seed=1, agent="greedy")
    m = res.to_dict()["metrics"]
    assert res.lengths == [59] * 200
    assert m["loops"]["mean"] > 1.5 and m["score"]["mean"] > 5
    assert m["bonus_start_loop"]["games"] > 50
