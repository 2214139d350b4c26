"""`pnp validate`: the checks pass on sound designs and fail, saying why, on broken copies."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from pnp.cli import main
from pnp.errors import DesignError
from pnp.loader import package_root
from pnp.validate import exit_code, format_report, validate

DESIGNS = package_root() / "designs"
ENOUGH = 34  # pieces per colour that `pnp validate` found sufficient (200 random games, seed 1; it now plays 100)


def copy_design(tmp_path: Path, name: str = "three-stars", edit=None) -> Path:
    folder = tmp_path / name
    shutil.copytree(DESIGNS / name, folder)
    if edit is not None:
        path = folder / "design.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        edit(data)
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return folder


def pieces(n: int):
    def edit(d):
        d["components"]["pieces"]["count"] = n
        d["rules"]["pieces_per_player"] = n
    return edit


def results(folder: Path, games: int = 0, seed: int = 1) -> dict:
    [report] = validate([str(folder)], games=games, seed=seed)
    return {r.name: r for r in report.results}


def test_the_real_design_matches_its_rules():
    res = results(DESIGNS / "three-stars", games=0)
    assert set(res) == {"cards", "star positions", "placement", "pieces", "deck"}
    assert all(r.ok for r in res.values()), format_report(validate([str(DESIGNS / "three-stars")], games=0))
    assert res["cards"].message.startswith("41 cards")
    assert "2: 12, 3: 18, 4: 24" in res["star positions"].message


def test_the_real_design_with_enough_pieces_passes_the_simulation(tmp_path):
    folder = copy_design(tmp_path, edit=pieces(ENOUGH))
    res = results(folder, games=12)
    assert all(r.ok for r in res.values()), [(r.name, r.message, r.details) for r in res.values() if not r.ok]
    assert len(res["simulation"].details) == 3  # one line per player count


def test_the_lozenge_design_passes_with_nineteen_positions():
    res = results(DESIGNS / "three-stars-lozenge", games=10)
    assert all(r.ok for r in res.values())
    assert "(2: 19)" in res["star positions"].message


def test_two_pieces_printed_against_the_rules_number(tmp_path):
    folder = copy_design(tmp_path, edit=lambda d: d["components"]["pieces"].update(count=2))
    res = results(folder)
    assert not res["pieces"].ok
    assert "prints 2 per colour but rules.pieces_per_player is 34" in res["pieces"].message


def test_two_pieces_per_colour_fail_the_simulation(tmp_path):
    folder = copy_design(tmp_path, edit=pieces(2))
    res = results(folder, games=3)
    assert res["pieces"].ok  # consistent numbers...
    sim = res["simulation"]
    assert not sim.ok  # ...but nobody can ever complete a star with 2 pieces
    text = "\n".join(sim.details)
    assert "2 players: blue ran short of pieces in 3 of 3 games (has 2)" in text
    assert "stalled" in text


def test_twenty_pieces_run_short_in_random_games(tmp_path):
    """The spec's first guess, 20 per colour, is too few for random play: the validator says so and how many
    were needed (which is why the design ships 34)."""
    folder = copy_design(tmp_path, edit=pieces(20))
    sim = results(folder, games=20)["simulation"]
    assert not sim.ok
    assert any("ran short of pieces" in line and "(has 20)" in line for line in sim.details)
    assert any("with unlimited pieces, a colour needed up to" in line for line in sim.details)


def test_an_incomplete_card_set_names_the_missing_cards(tmp_path):
    folder = copy_design(tmp_path, edit=lambda d: d["components"]["placement-cards"]["params"].update(max=2))
    cards = results(folder)["cards"]
    assert not cards.ok
    assert "every arrangement of 1-3 positions" in cards.message
    assert cards.details[0].startswith("missing 20: [0,1,2], [0,1,3], [0,1,4]")
    assert "and 8 more" in cards.details[0]


def test_duplicate_cards_are_named(tmp_path):
    folder = copy_design(tmp_path, edit=lambda d: d["components"]["placement-cards"].update(count=2))
    cards = results(folder)["cards"]
    assert not cards.ok
    assert cards.details[0].startswith("more than once 41: [0] x2, [1] x2")


def test_cards_with_four_positions_are_extra(tmp_path):
    folder = copy_design(tmp_path, edit=lambda d: d["components"]["placement-cards"]["params"].update(max=4))
    cards = results(folder)["cards"]
    assert not cards.ok and cards.details == ["not 1-3 positions 15: [0,1,2,3], [0,1,2,4], [0,1,2,5], "
                                              "[0,1,3,4], [0,1,3,5], [0,1,4,5], [0,2,3,4], [0,2,3,5], "
                                              "[0,2,4,5], [0,3,4,5], [1,2,3,4], [1,2,3,5] and 3 more"]


def test_star_positions_must_match_the_rules(tmp_path):
    folder = copy_design(tmp_path, edit=lambda d: d["rules"].update(star_positions={2: 13, 3: 18}))
    res = results(folder)["star positions"]
    assert not res.ok
    assert res.details == ["2 players: 12 star positions; rules.star_positions says 13",
                           "4 players: 24 star positions; rules.star_positions states none"]


def test_a_smaller_board_changes_the_star_positions(tmp_path):
    def edit(d):
        d["components"]["board"]["params"]["regions"]["2"]["columns"] = [0, 2]
    res = results(copy_design(tmp_path, edit=edit))["star positions"]
    assert not res.ok and res.details[0] == "2 players: 9 star positions; rules.star_positions says 12"


def test_missing_rule_numbers_are_bad_input(tmp_path):
    folder = copy_design(tmp_path, edit=lambda d: d["rules"].pop("hand_size"))
    with pytest.raises(DesignError, match="rules.hand_size: missing"):
        validate([str(folder)], games=0)


# --- the command ---------------------------------------------------------------------------


def test_cli_exit_codes(tmp_path):
    runner = CliRunner()
    ok = runner.invoke(main, ["validate", str(DESIGNS / "three-stars-lozenge"), "-n", "5"])
    assert ok.exit_code == 0, ok.output
    assert "all checks pass" in ok.output and "8 of 8 checks pass" in ok.output  # build + 6 + playability
    broken = copy_design(tmp_path, edit=lambda d: d["components"]["placement-cards"]["params"].update(max=2))
    bad = runner.invoke(main, ["validate", str(broken), "-n", "0"])
    assert bad.exit_code == 1
    assert "FAIL  cards" in bad.output and "missing 20" in bad.output
    missing = runner.invoke(main, ["validate", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2
    assert "no design folder here" in missing.output and "Traceback" not in missing.output
    no_rules = copy_design(tmp_path / "x", edit=lambda d: d["rules"].pop("stars_to_win"))
    wrong = runner.invoke(main, ["validate", str(no_rules), "-n", "0"])
    assert wrong.exit_code == 2 and "rules.stars_to_win: missing" in wrong.output


def test_exit_code_follows_the_results():
    [report] = validate([str(DESIGNS / "three-stars")], games=0)
    assert exit_code([report]) == 0
    report.results[0].ok = False
    assert exit_code([report]) == 1


@pytest.mark.slow
def test_full_validation_with_enough_pieces(tmp_path):
    folder = copy_design(tmp_path, edit=pieces(ENOUGH))
    result = CliRunner().invoke(main, ["validate", str(folder), str(DESIGNS / "three-stars-lozenge")])
    assert result.exit_code == 0, result.output
