"""`pnp validate` says what it checked and with which agent, never passes a design that does not build,
and never passes a simulation that only ended because of the safety cap (issues 12, 13, 17)."""

from __future__ import annotations

import shutil

from click.testing import CliRunner

from pnp.cli import main
from pnp.loader import package_root

DESIGNS = package_root() / "designs"
FIXTURES = package_root() / "tests" / "fixtures"


def validate(*args: str):
    return CliRunner().invoke(main, ["validate", *args])


def test_a_design_that_does_not_build_is_bad_input(tmp_path):
    """Issue 13: validate said 'all checks pass' on a design whose faces could not render."""
    folder = tmp_path / "deck"
    shutil.copytree(FIXTURES / "deck-csv", folder)
    (folder / "templates" / "token.svg.j2").write_text("<svg>{{ label </svg>\n", encoding="utf-8")
    out = validate(str(folder))
    assert out.exit_code == 2, out.output
    assert "token.svg.j2:1: template syntax error" in out.output
    assert "all checks pass" not in out.output and "Traceback" not in out.output
    (folder / "templates" / "token.svg.j2").write_text("<svg>{{ 1 / 0 }}</svg>\n", encoding="utf-8")
    out = validate(str(folder))
    assert out.exit_code == 2, out.output
    assert "templates/token.svg.j2:1: ZeroDivisionError: division by zero" in out.output
    assert "all checks pass" not in out.output and "Traceback" not in out.output


def test_a_design_without_a_game_says_no_rules_checks_ran():
    """Issue 13: '0 of 0 checks pass' for a design naming no game."""
    out = validate(str(FIXTURES / "deck-csv"), "--no-build")
    assert out.exit_code == 0
    assert "no rules checks: this design names no game" in out.output
    assert "0 of 0" not in out.output and "no checks ran" in out.output
    built = validate(str(FIXTURES / "deck-csv"))
    assert "ok    build: 7 faces" in built.output and "1 of 1 checks pass" in built.output


def test_a_pass_decided_by_the_safety_cap_is_a_failure():
    """Issue 12: 'ok' for a simulation where every random Ishi-Hama game hit the 600-turn cap."""
    out = validate(str(DESIGNS / "ishi-hama"), "-n", "3", "--agent", "random", "--no-build")
    assert out.exit_code == 1, out.output
    assert "agent  simulation checks played by random agents (asked with --agent)" in out.output
    assert "FAIL  playability: the safety cap, not the rules, ended most random games (seeds 1..3)" in out.output
    assert "2 players: 0 of 3 random games ended by the rules, 3 stopped at the safety cap" in out.output
    assert "FAIL  simulation" in out.output and "3 of 3 random game(s) stopped at the 600-turn safety cap" in out.output
    assert "proves: the rules engine plays this design to an end its rules define" in out.output


def test_validate_uses_the_game_default_agent_and_says_so():
    out = validate(str(DESIGNS / "ishi-hama"), "-n", "2", "--no-build")
    assert out.exit_code == 0, out.output
    assert "simulation checks played by greedy agents (the game's default)" in out.output
    assert "ok    playability: every greedy game (seeds 1..2) ended by the rules" in out.output
