"""`pnp validate`'s simulation checks play exactly the games their report line states: as many seeds per player
count (or setup) as the number it names, capped with the reason it gives, and a seed that validate's
playability check also asks is played once, not twice.

Every game is played in this process (one core) so that each call of the playout can be counted."""

from __future__ import annotations

from collections import Counter

import pytest

import pnp.engine.playout
import pnp.engine.records
import pnp.games.three_stars.checks as three_stars_checks
import pnp.games.triloopite.checks as triloopite_checks
import pnp.parallel
from pnp.loader import load_design, package_root
from pnp.validate import validate

DESIGNS = package_root() / "designs"


@pytest.fixture
def played(monkeypatch) -> Counter:
    """(players, mode, seed) -> how many times a game was played, all of them in this process."""
    counts: Counter = Counter()
    real = pnp.engine.playout.play

    def counting(game, agents, seed, *args, **kwargs):
        counts[(len(agents), getattr(game, "mode", ""), seed)] += 1
        return real(game, agents, seed, *args, **kwargs)

    monkeypatch.setattr(pnp.engine.playout, "play", counting)
    monkeypatch.setattr(three_stars_checks, "play", counting)
    monkeypatch.setattr(triloopite_checks, "play", counting)
    monkeypatch.setattr(pnp.parallel, "cores", lambda: 1)
    monkeypatch.setattr(pnp.engine.records, "cores", lambda: 1)
    return counts


def stated(message: str) -> int:
    """The number of games a simulation check's report line says it played per player count or setup."""
    return int(message.split()[0])


def seeds(counts: Counter, players: int, mode: str = "") -> list[int]:
    return sorted(s for (n, m, s) in counts if n == players and m == mode)


def test_three_stars_plays_the_games_it_states_and_says_why_it_stops(monkeypatch, played):
    monkeypatch.setattr(three_stars_checks, "SIMULATION_GAMES", 4)
    design = load_design(DESIGNS / "three-stars")
    sim = three_stars_checks.check_simulation(design, three_stars_checks.read_rules(design), 7, 1)
    assert sim.ok, sim.details
    assert sim.message == ("4 seeded random games per player count (of the 7 asked: a shortage in 3 % of games "
                           "shows 19 times in 20)")
    for n in (2, 3, 4):
        assert seeds(played, n) == list(range(1, 1 + stated(sim.message))), n
    assert [line.split(":")[1].split(",")[0] for line in sim.details] == [" 4 games ended"] * 3
    assert set(played.values()) == {1}


def test_three_stars_states_no_cap_when_it_plays_all_the_games_asked(played):
    design = load_design(DESIGNS / "three-stars-lozenge")
    sim = three_stars_checks.check_simulation(design, three_stars_checks.read_rules(design), 5, 3)
    assert sim.message == "5 seeded random games per player count"
    assert seeds(played, 2) == [3, 4, 5, 6, 7]


def test_triloopite_plays_the_games_it_states_in_every_setup(monkeypatch, played):
    monkeypatch.setattr(triloopite_checks, "SIMULATION_GAMES", 3)
    design = load_design(DESIGNS / "triloopite")
    sim = triloopite_checks.check_simulation(design, 5, 1)
    assert sim.ok, sim.details
    assert sim.message == ("3 seeded random games per setup end (of the 5 asked: a fault in 6 % of games shows "
                           "19 times in 20)")
    k = stated(sim.message)
    assert seeds(played, 1, "standard") == seeds(played, 6, "standard") == seeds(played, 1, "first") == [1, 2, 3]
    assert len(played) == 3 * k and set(played.values()) == {1}
    assert [line.split(";")[0].split(": ")[1] for line in sim.details] == ["3 games ended"] * 3


def test_validate_plays_each_seed_once_for_the_check_and_playability(monkeypatch, played):
    """The simulation check's games are the playability check's: 3 Stars' check plays seeds 1..4 (capped),
    playability asks 1..6 of which only 5 and 6 are new."""
    monkeypatch.setattr(three_stars_checks, "SIMULATION_GAMES", 4)
    [report] = validate([str(DESIGNS / "three-stars")], games=6, seed=1)
    res = {r.name: r for r in report.results}
    assert res["simulation"].ok and res["playability"].ok
    assert stated(res["simulation"].message) == 4
    assert "seeds 1..6" in res["playability"].message
    for n in (2, 3, 4):
        assert seeds(played, n) == [1, 2, 3, 4, 5, 6], n
    assert set(played.values()) == {1}  # no game played twice


def test_validate_shares_triloopite_standard_games_with_playability(monkeypatch, played):
    monkeypatch.setattr(triloopite_checks, "SIMULATION_GAMES", 2)
    [report] = validate([str(DESIGNS / "triloopite")], games=2, seed=1)
    assert all(r.ok for r in report.results), [(r.name, r.message) for r in report.results if not r.ok]
    assert set(played.values()) == {1}  # the check's standard games (1 and 6 players) are playability's
    assert sorted({n for (n, m, _) in played if m == "standard"}) == [1, 2, 3, 4, 5, 6]
    assert seeds(played, 1, "first") == [1, 2]


def test_triloopite_names_the_seed_of_a_game_that_raises(monkeypatch, played):
    """Games played in batches (shared with playability) still report a broken game by its seed."""
    real = pnp.engine.playout.play

    def broken(game, agents, seed, *args, **kwargs):
        if seed == 2:
            raise RuntimeError("triloopite: game exceeded its declared maximum length 99")
        return real(game, agents, seed, *args, **kwargs)

    monkeypatch.setattr(pnp.engine.playout, "play", broken)
    monkeypatch.setattr(triloopite_checks, "play", broken)
    sim = triloopite_checks.check_simulation(load_design(DESIGNS / "triloopite"), 3, 1)
    assert not sim.ok
    assert sim.details[:3] == [f"{mode} game, {n} players, seed 2: triloopite: game exceeded its declared maximum "
                               "length 99" for mode, n in (("standard", 1), ("standard", 6), ("first", 1))]
    assert all("2 games ended" in line for line in sim.details[3:])
