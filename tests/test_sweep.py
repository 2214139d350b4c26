"""`pnp sweep`: checked copies of a design with values changed, tables with intervals, JSON, plot."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.errors import PnpError
from pnp.loader import package_root
from pnp.sweep import combinations, edited_text, parse_setting, sweep

DESIGNS = package_root() / "designs"
PIECES = "rules.pieces_per_player+components.pieces.count"


def run(*args: str):
    return CliRunner().invoke(main, ["sweep", *args])


def test_settings_parse_and_multiply():
    a = parse_setting("rules.pieces_per_player=20, 25,30")
    assert a.keys == ("rules.pieces_per_player",) and a.values == (20, 25, 30)
    b = parse_setting(f"{PIECES}=20,34")
    assert b.keys == ("rules.pieces_per_player", "components.pieces.count")
    c = parse_setting("meta.title=Big,true,0.5")
    assert c.values == ("Big", True, 0.5)
    combos = combinations([a, parse_setting("rules.hand_size=2,3")])
    assert len(combos) == 6 and combos[0] == {"rules.pieces_per_player": 20, "rules.hand_size": 2}
    for bad in ("rules.hand_size", "=3", "rules..x=3", "rules.hand_size=3,,4"):
        with pytest.raises(PnpError, match="--set"):
            parse_setting(bad)


def test_the_copy_differs_only_in_the_values_set():
    text = (DESIGNS / "three-stars" / "design.yaml").read_text(encoding="utf-8")
    new = edited_text(text, {PIECES: 20, "meta.title": "3 Stars: big"}, "design.yaml")
    old_lines, new_lines = text.splitlines(), new.splitlines()
    assert len(old_lines) == len(new_lines)  # every line number kept
    changed = [(a, b) for a, b in zip(old_lines, new_lines) if a != b]
    assert changed == [
        ("  title: 3 Stars", '  title: "3 Stars: big"'),
        ("  pieces_per_player: 34          # found by `pnp validate`: random play needs up to 34 of a colour "
         "(20 ran short)",
         "  pieces_per_player: 20          # found by `pnp validate`: random play needs up to 34 of a colour "
         "(20 ran short)"),
        ("    count: 34                       # per colour (= rules.pieces_per_player)",
         "    count: 20                       # per colour (= rules.pieces_per_player)"),
    ]


def test_unknown_keys_and_non_values_are_bad_input():
    out = run("three-stars", "--set", "rules.nope=1")
    assert out.exit_code == 2
    assert "--set rules.nope: no key 'nope' under rules; expected one of: hand_size, stars_to_win" in out.output
    out = run("three-stars", "--set", "rules.star_positions=3")
    assert out.exit_code == 2 and "holds a mapping, not a single value" in out.output
    out = run("three-stars", "--players", "two")
    assert out.exit_code == 2 and "expected player counts separated by commas" in out.output


def test_a_setting_that_fails_validation_is_reported_and_not_played():
    res = sweep("three-stars", ["rules.pieces_per_player=20,34", "rules.hand_size=0,3"], [2], 4, 1, "greedy",
                workers=1)
    status = {(s.values["rules.pieces_per_player"], s.values["rules.hand_size"]): s for s in res.settings}
    invalid = status[(20, 0)]
    assert invalid.status == "invalid" and not invalid.players
    # the file:line of the original design, and the setting that caused it
    assert invalid.problems[0].startswith("designs/three-stars/design.yaml:25: rules.hand_size: 0 is too small; "
                                          "expected 1 or more")
    assert invalid.problems[0].endswith("(with rules.pieces_per_player=20, rules.hand_size=0)")
    mismatch = status[(20, 3)]
    assert mismatch.status == "fails validation" and not mismatch.players
    assert "prints 34 per colour but rules.pieces_per_player is 20" in mismatch.problems[0]
    played = status[(34, 3)]
    assert played.status == "ok" and played.players[2]["games"] == 4
    text = res.to_text()
    assert "NOT PLAYED  rules.pieces_per_player=20, rules.hand_size=3: fails validation" in text
    assert [s.status for s in res.failed] == ["invalid", "fails validation", "invalid"]


def test_tables_json_and_plot(tmp_path):
    plot = tmp_path / "sweep.svg"
    out = run("three-stars", "--set", f"{PIECES}=25,34", "--players", "2,3,5", "-n", "12", "--agent", "greedy",
              "--workers", "2", "--plot", str(plot))
    assert out.exit_code == 0, out.output
    assert "win rate of seat 1 (95% interval)" in out.output and "win rate of seat 3 (95% interval)" in out.output
    assert "game length in player turns (mean, 95% interval)" in out.output
    assert "5 players: the design plays 2-4 players" in out.output
    svg = plot.read_text()
    assert "2 players" in svg and "3 players" in svg and "win rate by seat" in svg and "game length" in svg
    assert f"setting 2: {PIECES}=34" in svg
    d = json.loads(run("three-stars", "--set", f"{PIECES}=25,34", "--players", "2", "-n", "12", "--agent", "greedy",
                       "--json").output)
    assert d["agent"] == "greedy" and d["games"] == 12 and len(d["settings"]) == 2
    fig = d["settings"][1]["players"]["2"]
    assert sum(s["wins"] for s in fig["seats"]) + fig["draws"] == 12
    for s in fig["seats"]:
        assert s["ci95"][0] <= s["win_rate"] <= s["ci95"][1]
    lo, hi = fig["length"]["ci95"]
    assert lo <= fig["length"]["mean"] <= hi


def test_every_setting_plays_the_same_seeds():
    """Two identical settings give identical figures: only what was changed can make settings differ."""
    res = sweep("tubo", ["rules.path_rounds=4,4"], None, 10, 3, "random", workers=1)
    a, b = (s.players[2] for s in res.settings)
    assert a == b


def test_exit_status_is_1_when_a_setting_fails_validation():
    out = run("three-stars", "--set", "rules.pieces_per_player=20", "-n", "2")
    assert out.exit_code == 1 and "no setting passed validation: nothing was played" in out.output
