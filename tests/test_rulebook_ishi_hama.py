"""The Ishi-Hama rulebooks: both languages build, read as their language, follow the design's
numbers, carry the Ishi-Hama diagrams as vector drawings played through the engine, and report a
bad expression as file:line."""

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
    flat,
    rulebooks,
)

from pnp.games.ishi_hama.facts import example_facts, figure_facts
from pnp.loader import load_design

ROOT = Path(__file__).resolve().parent.parent
ISHI = ROOT / "designs" / "ishi-hama"
DIAGRAMS = (("ishi_hama.phase1", {}), ("ishi_hama.combination", {"stage": "before"}),
            ("ishi_hama.combination", {"stage": "after"}), ("ishi_hama.connection", {}),
            ("ishi_hama.scoring", {}), ("ishi_hama.big_group", {}), ("ishi_hama.example", {"stage": "before"}),
            ("ishi_hama.example", {"stage": "after"}))


@pytest.fixture(scope="module")
def books() -> dict[str, bytes]:
    return rulebooks(ISHI)


@pytest.fixture(scope="module")
def texts(books) -> dict[str, str]:
    return {lang: flat(pdf) for lang, pdf in books.items()}


def test_both_rulebooks_build(books):
    assert set(books) == {"fr", "en"}
    for pdf in books.values():
        assert pdf.startswith(b"%PDF") and len(PdfReader(io.BytesIO(pdf)).pages) >= 6


def test_text_reads_as_its_language(books, texts):
    for lang, pdf in books.items():
        assert_reads_as(lang, pdf)
    assert "série d'échanges" in texts["fr"] and "chain of swaps" in texts["en"]


def test_every_rule_is_stated(texts):
    en, fr = texts["en"], texts["fr"]
    for phrase in ("touches no tile", "no tile left", "you place one", "you draw one", "colour of the turn",
                   "one or two cells", "each tile only once", "a move or at least one swap",
                   "Once you move after swaps, the combination is over", "paths meet", "end of your turn",
                   "connected among themselves", "you choose the order", "whoever scores it"):
        assert phrase in en, phrase
    for phrase in ("ne touche aucune tuile", "plus de tuile", "vous en posez une", "vous en piochez une",
                   "couleur du tour", "une ou deux cases", "une seule fois avec chaque tuile",
                   "un déplacement ou au moins un échange", "chemins se rejoignent", "fin de votre tour",
                   "connectées entre elles", "vous choisissez l'ordre"):
        assert phrase in fr, phrase


def test_numbers_come_from_the_design(texts):
    design = load_design(ISHI)
    r = design.rules
    board = design.components["board"].params
    en, fr = texts["en"], texts["fr"]
    assert f"a grid of {board.columns} × {board.rows} cells, each {board.cell:g} mm wide" in en
    assert f"{2 * r['tiles_per_colour']} tiles, {r['tiles_per_colour']} orange and {r['tiles_per_colour']} blue" in en
    assert "6 corner tiles" in en and "4 straight tiles" in en and "4 tee tiles" in en
    assert f"{r['tiles_to_opponent']} of those tiles go to your opponent" in en
    assert f"Every group of {r['group_size']} or more tiles" in en
    assert "7th point of the game is scored" in en and "4 points always win" in en
    assert "41 cells no two of which touch" in en
    assert "une grille de 9 × 9 cases de 18 mm de côté" in fr
    assert "28 tuiles, 14 orange et 14 bleues" in fr and "6 tuiles coude" in fr
    assert "7e point de la partie est marqué" in fr


def test_a_changed_design_changes_the_rulebook(tmp_path):
    folder = tmp_path / "ishi-hama"
    shutil.copytree(ISHI, folder)
    y = folder / "design.yaml"
    text = y.read_text(encoding="utf-8")
    text = re.sub(r"points_in_game: \d+", "points_in_game: 8", text)
    text = re.sub(r"tiles_per_colour: \d+", "tiles_per_colour: 12", text)
    text = text.replace("{name: corner, paths: [N, E], count: 6}", "{name: corner, paths: [N, E], count: 4}")
    y.write_text(text, encoding="utf-8")
    books = rulebooks(folder)
    en, fr = flat(books["en"]), flat(books["fr"])
    assert "24 tiles, 12 orange and 12 blue" in en and "4 corner tiles" in en and "6 corner" not in en
    assert "8th point of the game is scored" in en and "7th" not in en
    assert "equal points are a draw" in en  # 8 points in play: a tie is possible
    assert "score zone of 8 slots" in en
    assert "24 tuiles, 12 orange et 12 bleues" in fr and "8e point" in fr and "7e point" not in fr


def test_ishi_hama_diagrams_are_vector(books):
    for pdf in books.values():
        assert_vector_only(pdf)
    assert_diagrams_draw_shapes(ISHI, DIAGRAMS, shapes=("<path", "<rect"))


def test_diagrams_show_what_the_engine_plays():
    design = load_design(ISHI)
    figs = figure_facts(design, "en")
    assert figs["connection"] == [True, False, False, False]  # (a) only: same colour, paths meeting
    combo = figs["combination"]
    assert len(combo["swaps"]) == 2 and combo["group"] == 4  # a chain of 2 swaps joining 4 blue tiles
    big = figs["big_group"]
    assert big["size"] == 6 and len(big["picks"]) == design.rules["group_size"] and len(big["stays"]) == 1
    ex = example_facts(design, "en")
    assert len(ex["group"]) == design.rules["group_size"]
    assert ex["after"][0] == ex["points"][0] + 1 and ex["given"] == design.rules["tiles_to_opponent"]


def test_bad_expression_gives_file_and_line(tmp_path):
    assert_bad_expression_gives_file_and_line(tmp_path, ISHI, "Tiles: {{ rules.tiles_per_colur }}.", "tiles_per_colur")
