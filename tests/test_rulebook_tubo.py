"""The TUBO rulebooks: both languages build, read as their language, follow the design's
numbers, carry the TUBO diagrams as vector drawings, and report a bad expression as file:line."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader
from rulebook_checks import (
    assert_bad_expression_gives_file_and_line,
    assert_diagrams_draw_shapes,
    assert_reads_as,
    assert_vector_only,
    rulebooks,
    text_of,
)

from pnp.games.tubo.facts import example_facts, figure_facts
from pnp.games.tubo.scripts import EXAMPLE
from pnp.loader import load_design
from pnp.render.faces import language_faces
from pnp.rulebook import render_rulebooks

ROOT = Path(__file__).resolve().parent.parent
TUBO = ROOT / "designs" / "tubo"
DIAGRAMS = ("tubo.board", "tubo.fitting", "tubo.wrap", "tubo.loop", "tubo.close_exit", "tubo.pass_over",
            "tubo.example")


@pytest.fixture(scope="module")
def books() -> dict[str, bytes]:
    return rulebooks(TUBO)


def test_both_rulebooks_build(books):
    assert set(books) == {"fr", "en"}
    for pdf in books.values():
        assert pdf.startswith(b"%PDF") and len(PdfReader(io.BytesIO(pdf)).pages) >= 6


def test_text_reads_as_its_language(books):
    for lang, pdf in books.items():
        assert_reads_as(lang, pdf)
    assert "Tour Chemin" in text_of(books["fr"]) and "infinite loop" in text_of(books["en"])


def test_numbers_come_from_the_design(books):
    design = load_design(TUBO)
    r = design.rules
    en = re.sub(r"\s+", " ", text_of(books["en"]))
    fr = re.sub(r"\s+", " ", text_of(books["fr"]))
    board = design.components["board"].params
    assert f"a square of {board.columns} × {board.rows} cells, each {board.cell:g} mm wide" in en
    assert f"until each player holds {r['stocks_per_player']} stocks" in en
    assert f"at most {r['path_rounds']} Path rounds" in en
    assert f"{r['stocks']} colour stocks. Each stock holds {r['pieces_per_stock']} Path pieces" in en
    assert f"au plus {r['path_rounds']} Tours Chemin" in fr
    assert f"possède {r['stocks_per_player']} stocks" in fr
    assert "57 loose pieces" in en  # 8 x (6 + 1) + 1, counted from the generated components


def test_a_changed_design_changes_the_rulebook(tmp_path):
    folder = tmp_path / "tubo"
    shutil.copytree(TUBO, folder)
    y = folder / "design.yaml"
    text = y.read_text(encoding="utf-8")
    text = text.replace("cell: 25mm", "cell: 30mm")
    text = re.sub(r"path_rounds: \d+", "path_rounds: 3", text)
    y.write_text(text, encoding="utf-8")
    design = load_design(folder)
    pdfs = render_rulebooks(design, language_faces(design))
    en = re.sub(r"\s+", " ", text_of(pdfs["tubo-rules-en-a4.pdf"]))
    fr = re.sub(r"\s+", " ", text_of(pdfs["tubo-rules-fr-a4.pdf"]))
    assert "each 30 mm wide" in en and "25 mm" not in en
    assert "at most 3 Path rounds" in en and "after 3 rounds" in en
    assert "de 30 mm de côté" in fr and "au plus 3 Tours Chemin" in fr


def test_tubo_diagrams_are_vector(books):
    for pdf in books.values():
        assert_vector_only(pdf)
    assert_diagrams_draw_shapes(TUBO, [(n, {}) for n in DIAGRAMS], shapes=("<path", "<rect"))


def test_diagrams_show_what_they_claim():
    design = load_design(TUBO)
    figs = figure_facts(design)
    assert figs["wrap"]["in"] == figs["wrap"]["out"] + 1  # consecutive pieces on opposite edges
    assert figs["pass_over"]["round"] > figs["pass_over"]["earlier"]
    ex = example_facts(design, "en")
    kinds = [(s["loop"], s["closed"], s["reached"]) for s in ex["steps"]]
    assert (False, True, False) in kinds and (True, False, False) in kinds and kinds[-1][2]
    assert len(ex["steps"]) == len(EXAMPLE) and ex["winner"] == ex["players"][0]


def test_bad_expression_gives_file_and_line(tmp_path):
    assert_bad_expression_gives_file_and_line(tmp_path, TUBO, "Stocks: {{ rules.stocks_per_playr }}.", "stocks_per_playr")
