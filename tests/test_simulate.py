"""`pnp simulate`: seeded, reproducible statistics; JSON, text and SVG plot."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.simulate import simulate, wilson


def run(*args: str):
    return CliRunner().invoke(main, ["simulate", *args])


def test_json_is_identical_for_identical_seeds():
    a = run("three-stars", "-n", "15", "--players", "2", "--seed", "7", "--json")
    b = run("three-stars", "-n", "15", "--players", "2", "--seed", "7", "--json")
    c = run("three-stars", "-n", "15", "--players", "2", "--seed", "8", "--json")
    assert a.exit_code == 0, a.output
    assert a.output == b.output
    assert a.output != c.output


def test_json_fields():
    out = run("three-stars", "-n", "12", "--players", "3", "--seed", "1", "--json")
    d = json.loads(out.output)
    assert d["games"] == 12 and d["players"] == 3 and d["agent"] == "random" and d["seed"] == 1
    assert [s["name"] for s in d["seats"]] == ["blue", "red", "yellow"]
    assert sum(s["wins"] for s in d["seats"]) + d["draws"] == 12
    for s in d["seats"]:
        lo, hi = s["ci95"]
        assert 0 <= lo <= s["win_rate"] <= hi <= 1
    assert set(d["length"]) == {"mean", "median", "min", "max"}
    assert d["length"]["min"] <= d["length"]["median"] <= d["length"]["max"]
    assert set(d["actions"]) <= {"place", "steal", "exchange"} and "place" in d["actions"]
    turns = sum(v["count"] for v in d["actions"].values())
    assert turns == pytest.approx(d["length"]["mean"] * 12)
    m = d["metrics"]
    assert {"exchanges", "pieces_needed:blue", "piece_shortages", "won_by_blocking"} <= set(m)
    assert m["exchanges"]["total"] == d["actions"].get("exchange", {"count": 0})["count"]
    assert 6 <= m["pieces_needed:blue"]["max"] <= 34 + 2  # at most the supply, plus a blocked card's extra


def test_text_report_and_plot(tmp_path):
    plot = tmp_path / "sim.svg"
    out = run("three-stars", "-n", "10", "--players", "2", "--agent", "greedy", "--plot", str(plot))
    assert out.exit_code == 0, out.output
    assert "win rate per seat (95% interval)" in out.output and "greedy agents" in out.output
    assert "seat 1 blue" in out.output and "game length" in out.output
    svg = plot.read_text()
    assert svg.startswith("<?xml") and "games by length" in svg and "win rate per seat" in svg
    assert svg.count("<rect") >= 1 + 1 + 2  # background, at least one histogram bar, two seats


def test_the_same_seed_gives_the_same_games_whatever_else_runs():
    a = simulate("three-stars", 5, 2, seed=3)
    simulate("three-stars", 3, 4, seed=99)
    b = simulate("three-stars", 5, 2, seed=3)
    assert a.lengths == b.lengths and a.wins == b.wins


def test_greedy_games_are_shorter_than_random_ones():
    greedy = simulate("three-stars", 20, 2, seed=1, agent="greedy")
    rand = simulate("three-stars", 20, 2, seed=1, agent="random")
    assert sum(greedy.lengths) < sum(rand.lengths)


def test_bad_input_exits_2():
    out = run("three-stars", "--players", "5")
    assert out.exit_code == 2 and "plays 2-4 players; got 5" in out.output
    out = run("no-such-design")
    assert out.exit_code == 2 and "no design folder here" in out.output


def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0


@pytest.mark.slow
def test_two_hundred_games_per_player_count():
    for players in (2, 3, 4):
        res = simulate("three-stars", 200, players, seed=1)
        assert res.games == 200 and len(res.lengths) == 200


def test_validate_checks_share_their_seeded_games(monkeypatch):
    """Inside shared_games() a seed played once is not played again (validate's game check and its
    playability check ask for the same seeds), and the records are those a fresh run gives."""
    import pnp.engine.records as sim
    from pnp.loader import resolve_design

    folder = resolve_design("tubo")
    fresh = sim.game_records(folder, 2, "greedy", 1, 6, workers=1)
    played = []
    real = sim.run_local
    monkeypatch.setattr(sim, "run_local", lambda work, workers=None: played.extend(
        s for b in work for s in range(b.first_seed, b.first_seed + b.games)) or real(work, workers))
    with sim.shared_games():
        a = sim.game_records(folder, 2, "greedy", 3, 4, workers=1)  # seeds 3..6
        b = sim.game_records(folder, 2, "greedy", 1, 6, workers=1)  # 1..6: only 1 and 2 are new
        c = sim.game_records(folder, 2, "random", 1, 2, workers=1)  # another agent: played
    assert played == [3, 4, 5, 6, 1, 2, 1, 2]
    assert b == fresh and a == fresh[2:]
    assert [r.seed for r in c] == [1, 2] and c != fresh[:2]
    played.clear()
    sim.game_records(folder, 2, "greedy", 1, 2, workers=1)  # outside the block nothing is kept
    assert played == [1, 2]


def _dies(batch):
    import os

    if batch == 3:
        os._exit(9)  # as a worker killed by the system (out of memory) ends
    return [batch]


def test_a_worker_that_dies_is_an_error_not_a_hang(monkeypatch):
    """multiprocessing.Pool.imap waited forever for a lost worker's results (seen once, 14 minutes)."""
    from pnp import distributed
    from pnp.engine import records
    from pnp.errors import PnpError

    monkeypatch.setattr(records, "play_batch", _dies)
    assert distributed.run_batches([1, 2], workers=2)[0] == [[1], [2]]
    with pytest.raises(PnpError, match="a worker process stopped before its games were played"):
        distributed.run_batches([1, 2, 3, 4], workers=2)
