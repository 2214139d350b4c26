"""Defects of the French and English editions (issue 32), read back from the files a build writes: the kit's how-to
page says only what is true of the design (bleed, card sleeves, shapes and split boards where the design's sheets
have them, in the words of the kit's language, pnp.words: kit); a book's cover prints the age as a box in its
language does."""

from __future__ import annotations

import re
from pathlib import Path

import pypdf
import pytest

from pnp.build import build_designs
from pnp.cache import Cache

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Path]:
    """design -> the folder its build (with its kits) wrote."""
    out = tmp_path_factory.mktemp("kits")
    folders = {}
    for design in ("tubo", "ishi-hama", "three-stars", "showcase", "triloopite"):
        [res] = build_designs([str(ROOT / "designs" / design)], out=out, cache=Cache(None), exports={"kit"},
                              show_progress=False)
        folders[design] = res.out_dir
    return folders


@pytest.fixture(scope="module")
def howto(made) -> dict[tuple[str, str], str]:
    """(design, lang) -> the text of its kit's how-to page (the kit's second page), spaces made plain."""
    pages = {}
    for design, folder in made.items():
        for lang in ("en", "fr"):
            text = pypdf.PdfReader(folder / f"{design}-kit-{lang}-a4.pdf").pages[1].extract_text()
            pages[design, lang] = re.sub(r"\s+", " ", text.replace("\u00a0", " ").replace("\u202f", " "))
    return pages


CARDS = {"en": r"\b[Cc]ards\b|[Ss]leeves|corner rounder", "fr": r"\b[Cc]artes?\b|protège-cartes|coupe-coins"}
BLEED = {"en": r"\bbleed\b|coloured edge", "fr": r"fond perdu|bord coloré"}
SHAPES = {"en": r"circles|hexagons|triangles|not rectangles|round", "fr": r"cercles|hexagones|triangles|rectangulaires|rond"}
SPLIT = {"en": "The board spreads over several pages", "fr": "Le plateau s’étend sur plusieurs pages"}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("design", ["tubo", "ishi-hama"])
def test_a_design_without_cards_or_bleed_is_told_of_neither(howto, design, lang):
    text = howto[design, lang]
    assert text.startswith("How to print and cut" if lang == "en" else "Imprimer et découper"), text[:60]
    for what in (CARDS, BLEED, SHAPES):  # square pieces and tiles, boards, no cards; every bleed 0 mm
        assert not re.search(what[lang], text), (re.search(what[lang], text), text)  # ("Card stock" is said)
    said = {"tubo": "pieces", "ishi-hama": "tiles"}[design] if lang == "en" else \
        {"tubo": "pièces", "ishi-hama": "tuiles"}[design]
    assert re.search(rf"(for the|pour les) {said} ?;", text), text  # card stock for what the design has, only
    assert ("printed cut lines" if lang == "en" else "lignes de coupe imprimées") in text  # its sheets' cut lines
    assert (SPLIT[lang] in text) == (design == "tubo")  # TUBO's board is split over three pages, Ishi-Hama's is not


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_design_with_cards_bleed_and_triangles_is_told_of_each(howto, lang):
    text = howto["three-stars", lang]
    if lang == "en":
        assert "for the cards and pieces;" in text
        assert "The cards have a coloured edge (bleed)" in text  # the board and the triangles have none
        assert "The pieces are not rectangles (triangles)" in text and "The pieces touch" in text
        assert "Sleeves and a corner rounder make the cards last longer." in text
        assert "crop marks" in text
    else:
        assert "pour les cartes et les pièces ;" in text
        assert "Les cartes ont un bord coloré (fond perdu)" in text
        assert "Les pièces ne sont pas rectangulaires (triangles)" in text and "Les pièces se touchent" in text
        assert "Des protège-cartes et un coupe-coins font durer les cartes." in text
        assert "traits de coupe" in text
    assert SPLIT[lang] not in text and not re.search(r"circles|hexagons|cercles|hexagones", text)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_one_board_is_said_in_the_singular(howto, lang):
    """Lantern Harbour: cards, coins (round tokens) and one board split over three pages, all with a bleed."""
    text = howto["showcase", lang]
    assert SPLIT[lang] in text
    assert ("The cards, tokens and the board have a coloured edge (bleed)" if lang == "en" else
            "Les cartes, les jetons et le plateau ont un bord coloré (fond perdu)") in text
    assert ("The tokens are round" if lang == "en" else "Les jetons ont un contour rond") in text
    assert not re.search(r"boards|plateaux|triangles|hexagons|hexagones", text)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_one_component_with_a_bleed_takes_a_singular_verb(howto, lang):
    """TriLOOPite: hexagonal tiles sharing their cut lines (no bleed), one aid card with a bleed; no cards to sleeve."""
    text = howto["triloopite", lang]
    if lang == "en":
        assert "The player aid has a coloured edge (bleed)" in text and "The tiles are not rectangles (hexagons)" in text
        assert "for the tiles and the player aid;" in text and "The tiles touch" in text
    else:
        assert "L’aide de jeu a un bord coloré (fond perdu)" in text
        assert "Les tuiles ne sont pas rectangulaires (hexagones)" in text
        assert "pour les tuiles et l’aide de jeu ;" in text and "Les tuiles se touchent" in text
    assert not re.search(CARDS[lang], text)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_cover_prints_the_age_as_a_box_in_its_language_does(made, lang):
    """design.yaml says `age: 8+`: "Ages 8+" in English, "8 ans et +" in French (never "Âge 8+"), unbreakable."""
    for design in ("tubo", "three-stars"):
        cover = pypdf.PdfReader(made[design] / f"{design}-rules-{lang}-a4.pdf").pages[0].extract_text()
        facts = re.sub(r"[ \t]*\n[ \t]*", "|", cover)
        if lang == "en":
            assert "|Ages|8+|" in facts, facts
        else:
            assert "|Âge|8\u00a0ans et\u00a0+|" in facts, facts
            assert "8+" not in cover


def _pdf_pages(path: Path):
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        yield from pdf.pages


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_side_by_side_boards_keep_their_row_numbers_apart(made, lang):
    """TUBO's example boards 2 and 3 stand side by side: each board's row numbers (1-7, on both sides) sit nearer
    their own board than the neighbour's numbers, measured from the PDF (the boards' outlines: their rectangles;
    the numbers: their glyphs), with at least 6 mm between the two columns of numbers."""
    found = 0
    for page in _pdf_pages(made["tubo"] / f"tubo-rules-{lang}-a4.pdf"):
        boards = sorted({(round(r["x0"], 1), round(r["x1"], 1), round(r["top"], 1), round(r["bottom"], 1))
                         for r in page.rects if r["width"] > 150 and abs(r["width"] - r["height"]) < 1})
        pairs = [(a, b) for a, b in zip(boards, boards[1:]) if b[0] > a[1] and min(a[3], b[3]) - max(a[2], b[2]) > 100]
        for left, right in pairs:
            found += 1
            numbers = [c for c in page.chars if c["text"] in "1234567" and c["size"] > 6 and "Bold" in c["fontname"]
                       and min(left[2], right[2]) < c["top"] < max(left[3], right[3])
                       and left[1] < c["x0"] < right[0]]  # (not the pieces' small numbers, nor the captions)
            assert len(numbers) == 14, [c["text"] for c in numbers]  # 7 rows, on each board's facing side
            mine = [c for c in numbers if c["x0"] - left[1] < right[0] - c["x1"]]
            theirs = [c for c in numbers if c not in mine]
            assert len(mine) == len(theirs) == 7
            own = max(max(c["x0"] for c in mine) - left[1], right[0] - min(c["x1"] for c in theirs))
            between = min(c["x0"] for c in theirs) - max(c["x1"] for c in mine)
            assert between >= 2 * own and between >= 6 * 72 / 25.4, (between, own)
    assert found == 1  # the pair of example boards (boards 2 and 3 of the example)


@pytest.mark.parametrize("design,lang", [("tubo", "fr"), ("tubo", "en"), ("three-stars", "fr")])
def test_the_footer_spaces_its_separators_evenly(made, design, lang):
    """A book's footer "TUBO · Rulebook · v1.0": as much space before each "·" as after it (the glyphs' positions)."""
    for n, page in enumerate(_pdf_pages(made[design] / f"{design}-rules-{lang}-a4.pdf")):
        if n not in (1, 2):  # (the cover has no footer)
            continue
        line = sorted((c for c in page.chars if c["top"] > page.height - 60), key=lambda c: c["x0"])
        dots = [i for i, c in enumerate(line) if c["text"] == "·"]
        assert len(dots) == 2, "".join(c["text"] for c in line)
        for i in dots:
            before = line[i]["x0"] - next(c["x1"] for c in reversed(line[:i]) if c["text"].strip())
            after = next(c["x0"] for c in line[i + 1:] if c["text"].strip()) - line[i]["x1"]
            assert abs(before - after) < 0.3 and before < 4, (before, after)
