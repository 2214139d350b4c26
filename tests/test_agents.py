"""Agents named the same everywhere, one per seat, optional extras named when missing, and results that
do not depend on how many processes or Dask workers play them."""

from __future__ import annotations

import builtins
import json

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.engine.agents import AgentSpec, GreedyAgent, RandomAgent, describe, make_agent, parse_agents
from pnp.errors import PnpError
from pnp.loader import package_root
from pnp.simulate import simulate

DESIGNS = package_root() / "designs"


def test_agent_names():
    assert parse_agents("greedy", 3) == [AgentSpec("greedy")] * 3
    assert parse_agents("mcts:200,random", 2) == [AgentSpec("mcts", 200), AgentSpec("random")]
    assert parse_agents("mcts", 1) == [AgentSpec("mcts", 200)]
    assert describe(parse_agents("random,random", 2)) == "random"
    assert describe(parse_agents("MCTS:50, greedy", 2)) == "mcts:50,greedy"
    assert isinstance(make_agent("random"), RandomAgent) and isinstance(make_agent("greedy"), GreedyAgent)


@pytest.mark.parametrize("spec, message", [
    ("smart", "unknown agent 'smart'; expected one of: random, greedy, mcts:N"),
    ("mcts:0", "the simulations per move must be a whole number from 1 to"),
    ("mcts:lots", "expected e.g. mcts:200"),
    ("random,greedy,random", "3 agents for 2 players; expected one agent for every seat or exactly 2"),
])
def test_bad_agent_specs_say_what_is_expected(spec, message):
    with pytest.raises(PnpError, match=message):
        parse_agents(spec, 2)
    out = CliRunner().invoke(main, ["simulate", "tubo", "-n", "2", "--agent", spec])
    assert out.exit_code == 2 and message.split(";")[0] in out.output and "Traceback" not in out.output


def _without(monkeypatch, *modules):
    real = builtins.__import__

    def fake(name, *args, **kwargs):
        if name.split(".")[0] in modules:
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)
    import sys

    for m in list(sys.modules):
        if m.split(".")[0] in modules or m == "pnp.engine.openspiel_adapter":
            monkeypatch.delitem(sys.modules, m)


def test_mcts_without_openspiel_names_the_extra(monkeypatch):
    _without(monkeypatch, "pyspiel", "open_spiel")
    out = CliRunner().invoke(main, ["simulate", "tubo", "-n", "2", "--agent", "mcts:50,random"])
    assert out.exit_code == 2, out.output
    assert 'needs OpenSpiel, which is not installed; it is the optional extra [ai]: pip install -e ".[ai]"' \
        in out.output
    assert "Traceback" not in out.output


def test_dask_without_dask_names_the_extra(monkeypatch):
    _without(monkeypatch, "dask", "distributed")
    out = CliRunner().invoke(main, ["simulate", "tubo", "-n", "2", "--scheduler", "tcp://127.0.0.1:1"])
    assert out.exit_code == 2, out.output
    assert 'needs Dask, which is not installed; it is the optional extra [cluster]: pip install -e ".[cluster]"' \
        in out.output


def test_results_do_not_depend_on_the_number_of_processes():
    one = simulate("three-stars", 60, 2, seed=5, agent="random,greedy", workers=1)
    two = simulate("three-stars", 60, 2, seed=5, agent="random,greedy", workers=2)
    assert one.to_json() == two.to_json()
    assert two.run.workers == 2 and one.run.workers == 1


def test_per_seat_agents_are_reported_seat_by_seat():
    res = simulate("three-stars", 30, 2, seed=1, agent="greedy,random", workers=1)
    d = res.to_dict()
    assert d["agent"] == "greedy,random" and [s["agent"] for s in d["seats"]] == ["greedy", "random"]
    assert res.wins[0] > res.wins[1]  # greedy beats random from either seat (see test_three_stars_agents)
    text = res.to_text()
    assert "agents seat 1 greedy, seat 2 random (asked with --agent)" in text


def test_reports_state_the_agent_and_whether_it_is_the_game_default():
    out = CliRunner().invoke(main, ["simulate", "ishi-hama", "-n", "2", "--workers", "1"])
    assert out.exit_code == 0, out.output
    assert "greedy agents (the game's default)" in out.output
    asked = json.loads(CliRunner().invoke(main, ["simulate", "tubo", "-n", "2", "--agent", "random", "--json"]).output)
    assert asked["agent"] == "random" and asked["agent_source"] == "asked"


def test_simulate_flags_games_stopped_by_the_safety_cap():
    res = simulate("ishi-hama", 2, seed=1, agent="random", workers=1)
    assert res.capped == 2 and res.capped_most
    text = res.to_text()
    assert "WARNING: 2 of 2 games (100%) stopped at the engine's safety cap, not by the rules" in text
    assert res.to_dict()["decided_by_cap"] is True
    assert not simulate("ishi-hama", 2, seed=1, workers=1).capped  # the default greedy agent finishes


def test_action_shares_are_of_the_actions_counted():
    """Issue 12: Ishi-Hama's shares were of game turns, not actions ('place 3300 (261.9%)')."""
    res = simulate("ishi-hama", 3, seed=1, workers=1)
    d = res.to_dict()
    shares = [v["share"] for v in d["actions"].values()]
    assert all(0 < s <= 1 for s in shares) and sum(shares) == pytest.approx(1, abs=1e-3)
    assert d["actions_counted"] == sum(v["count"] for v in d["actions"].values())
    text = res.to_text()
    assert f"actions (share of the {d['actions_counted']} player actions counted; per game):" in text
    shown = [float(part.split("(")[1].split("%")[0]) for part in text.split("per game): ")[1].split("\n")[0]
             .split("), ")]
    assert max(shown) <= 100.0


def test_a_local_dask_cluster_gives_the_serial_results():
    pytest.importorskip("distributed")
    from pnp.sweep import sweep

    args = ("three-stars", ["rules.stars_to_win=2,3"], [2, 3], 8, 1, "greedy")
    serial = sweep(*args, workers=1)
    dask = sweep(*args, workers=2, scheduler="local")
    assert dask.to_json() == serial.to_json()
    assert "Dask" in dask.workers and "2 workers" in dask.workers
