"""The TriLOOPite rulebooks: both languages build, read as their language, print the scoring
tables from the design's data, carry the diagrams as vector drawings, show what their captions
claim, and report a bad expression as file:line."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader
from rulebook_checks import (
    assert_bad_expression_gives_file_and_line,
    assert_diagrams_draw_shapes,
    assert_reads_as,
    assert_vector_only,
    flat,
    rulebooks,
)

from pnp.games.triloopite.facts import rulebook_facts
from pnp.games.triloopite.scoring import read_rules
from pnp.games.triloopite.scripts import PLACEMENT_CASES, first_game, placement_board, witness
from pnp.loader import load_design
from pnp.render.faces import language_faces
from pnp.rulebook import render_rulebooks

ROOT = Path(__file__).resolve().parent.parent
TRI = ROOT / "designs" / "triloopite"
DIAGRAMS = [("triloopite.varieties", {}), ("triloopite.example", {"part": "first"}),
            ("triloopite.example", {"part": "standard"})]
DIAGRAMS += [("triloopite.placement", {"case": c}) for c in PLACEMENT_CASES]
DIAGRAMS += [("triloopite.witness", {"which": w}) for w in
             ("loop_of_6", "figure_eight", "crossing_loops", "nested_loops", "start_loop")]


@pytest.fixture(scope="module")
def books() -> dict[str, bytes]:
    return rulebooks(TRI)


def test_both_rulebooks_build(books):
    assert set(books) == {"fr", "en"}
    for pdf in books.values():
        assert pdf.startswith(b"%PDF") and len(PdfReader(io.BytesIO(pdf)).pages) >= 6


def test_text_reads_as_its_language(books):
    for lang, pdf in books.items():
        assert_reads_as(lang, pdf)
    assert "boucle fermée" in flat(books["fr"]) and "closed loop" in flat(books["en"])


def test_numbers_and_tables_come_from_the_design(books):
    design = load_design(TRI)
    rules = read_rules(design)
    en, fr = flat(books["en"]), flat(books["fr"])
    tiles = design.components["tiles"].params
    total = sum(v.count for v in tiles.varieties)
    crabs = sum(v.count for v in tiles.varieties if v.id == "crab")
    assert f"{total} hexagonal tiles" in en and f"{total} tuiles hexagonales" in fr
    assert f"{crabs} crabs" in en and f"{crabs} crabes" in fr
    for row in rules.verdicts.rows:  # the verdict table, both languages
        assert row.value["en"] in en and row.value["fr"] in fr
    # the two scoring tables side by side: "range points range points" on each row
    for a, b in zip(rules.loop_points.rows, rules.longest_loop_points.rows):
        cell = lambda r: r.label.replace("-", "–") if r.hi is not None else f"{r.lo} or more"  # noqa: E731
        assert f"{cell(a)} {a.value} {cell(b)} {b.value}" in en, (a, b)
    assert "4 + 9 + 0 = 13 points" in en and "4 + 9 + 0 = 13 points" in fr
    assert "A loop crossing itself (like an 8) +5" in en
    assert "Not bad at all." in en and "Pas mal du tout." in fr  # the worked first game's verdict


def test_a_changed_table_changes_the_rulebook(tmp_path):
    folder = tmp_path / "triloopite"
    shutil.copytree(TRI, folder)
    y = folder / "design.yaml"
    text = y.read_text(encoding="utf-8")
    text = text.replace('"30+": 54', '"30+": 77').replace('"9-10": 8', '"9-10": 9')
    text = text.replace("nested_loops: 5 ", "nested_loops: 6 ").replace("hand_penalty_power: 2", "hand_penalty_power: 3")
    y.write_text(text, encoding="utf-8")
    design = load_design(folder)
    pdfs = render_rulebooks(design, language_faces(design))
    en, fr = flat(pdfs["triloopite-rules-en-a4.pdf"]), flat(pdfs["triloopite-rules-fr-a4.pdf"])
    assert "30 or more 77" in en and "30 ou plus 77" in fr and " 54" not in en
    assert "9–10 9" in en and "9–10 8" not in en
    assert "A loop inside another loop +6" in en and "Une boucle à l'intérieur d'une autre boucle +6" in fr
    assert "8 + 27 + 0 = 35 points" in en and "power 3" in en and "puissance 3" in fr


def test_triloopite_diagrams_are_vector(books):
    for pdf in books.values():
        assert_vector_only(pdf)
    assert_diagrams_draw_shapes(TRI, DIAGRAMS, shapes=("<path", "<polygon"))


def test_diagrams_show_what_they_claim():
    design = load_design(TRI)
    ring = witness(design, "loop_of_6").analysis
    assert [lp.length for lp in ring.loops] == [6] and ring.through_start
    for bonus in ("figure_eight", "crossing_loops", "nested_loops", "start_loop"):
        assert witness(design, bonus).analysis.bonuses[bonus], bonus
    assert witness(design, "figure_eight", 1).analysis.bonuses["figure_eight"]
    for case in PLACEMENT_CASES:
        _, _, _, why = placement_board(design, case)
        assert bool(why) == (case != "legal"), case
    assert "blank" in placement_board(design, "line_blank")[3]
    assert "extends no line" in placement_board(design, "no_line")[3]
    g = first_game(design)  # played on the engine: ends with the last scripted turn closing a loop
    assert g.analysis.count == 1 and sum(g.hands) == 3 and any(t["from_turn"] for t in g.turns)
    facts = rulebook_facts(design, "en")
    st = facts["standard"]
    assert st["total"] == st["loop_points"] + st["longest_points"] + st["bonus_points"] - st["penalty"]
    assert facts["smallest_loop"] == 6


def test_bad_expression_gives_file_and_line(tmp_path):
    assert_bad_expression_gives_file_and_line(tmp_path, TRI, "Bonus: {{ rules.bonuses.figure_eigth }}.", "figure_eigth")
