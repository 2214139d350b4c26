"""Every edition reads in its own language: the text of every PDF pnp writes for the shipped designs (rulebooks,
print sheets, the kit), extracted page by page, holds none of the other language's words of pnp's own table
(pnp/words/), no straight apostrophe, and none of the spellings a game's glossary says its books must never print
(the seed's terms drifted: "boucle infinie" for Boucle Infinie). A French page has no breakable space (U+0020)
before : ; ! ? or », none after «, each of them has its no-break space (U+00A0 or U+202F; a colon between digits
or after a slash, as in 10:30 or https:, is no French colon) and none starts a line; an English page has none of
those no-break spaces before : ; ! ? and no « ». The PDFs write U+00A0 with a code of its own
(pnp.render.reportlab_internals.split_string), so the extracted text tells it from a breakable space.

The designs are built once for the module, the way a designer makes a kit (`pnp export kit`), in a new process.
"""

from __future__ import annotations

import re
import string
import subprocess
import sys
from pathlib import Path

import pypdfium2
import pytest
import yaml

from pnp import words

ROOT = Path(__file__).resolve().parent.parent
DESIGNS = sorted(p.name for p in (ROOT / "designs").iterdir() if (p / "design.yaml").is_file())
LANGS = ("fr", "en")
SPACES = str.maketrans({"\u00a0": " ", "\u202f": " ", "\u2009": " "})


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("editions")
    done = subprocess.run([sys.executable, "-m", "pnp.cli", "export", "kit", *[f"designs/{d}" for d in DESIGNS],
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def pdfs_of(out: Path, design: str, lang: str) -> list[Path]:
    """The design's PDFs of one language: its rulebook, its print sheets and its kit."""
    found = sorted(p for p in (out / design).glob("*.pdf") if f"-{lang}-" in p.name)
    kinds = {"rules" if "-rules-" in p.name else "kit" if "-kit-" in p.name else "sheets" for p in found}
    assert kinds == {"rules", "sheets", "kit"}, (design, lang, [p.name for p in found])
    return found


def pages(pdf: Path) -> list[str]:
    """Each page's text, read by pdfium (its lines end in \\r\\n; a tenth of pypdf's time on these 42 PDFs)."""
    doc = pypdfium2.PdfDocument(pdf)
    try:
        return [doc[i].get_textpage().get_text_range().replace("\r\n", "\n") for i in range(len(doc))]
    finally:
        doc.close()


def _strings(node) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for v in node.values() for s in _strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return []


def phrases(lang: str, other: str) -> set[str]:
    """The phrases of `lang`'s table of pnp's own words that the `other` table does not hold: the pieces of each
    entry between its {placeholders}, of two words or more."""
    theirs = " ".join(_strings(words.table(other))).translate(SPACES)
    found = set()
    for text in _strings(words.table(lang)):
        for literal, *_ in string.Formatter().parse(text):
            piece = " ".join(literal.translate(SPACES).split()).strip(" :;,.·()")
            if len(piece.split()) >= 2 and len(piece) >= 8 and piece not in theirs:
                found.add(piece)
    return found


def drift(design: str) -> list[str]:
    """The spellings the design's game's glossary says its French books must never print."""
    game = yaml.safe_load((ROOT / "designs" / design / "design.yaml").read_text(encoding="utf-8")).get("game")
    path = ROOT / "pnp" / "games" / str(game) / "glossary.yaml"
    if not game or not path.is_file():
        return []
    return list((yaml.safe_load(path.read_text(encoding="utf-8")).get("drift") or {}).get("fr") or [])


FRENCH_PUNCTUATION = re.compile(
    r"(^|\n)[\u00a0\u202f]*[:;!?»]"  # at a line's start (a line broken at its no-break space)
    r"|\u0020[:;!?»]|«\u0020"  # a breakable space where a no-break one belongs
    r"|(?<=[^\s\d/\u00a0\u202f]):(?=\s|$)"  # a colon with no space before it (10:30 and https: are no colons)
    r"|(?<![\s\u00a0\u202f;!?])[;!?](?=\s|$)"  # ; ! ? with no space before it (?! keeps one space, before ?)
    r"|«(?=[^\s\u00a0\u202f])|(?<=[^\s\u00a0\u202f])»")  # « » with no space inside
ENGLISH_PUNCTUATION = re.compile(r"[\u00a0\u202f][:;!?]|[«»]")  # French typography in an English text


def punctuation(text: str, lang: str) -> list[str]:
    """Each place of a page's extracted text where its language's punctuation is not spaced as it should be."""
    found = (FRENCH_PUNCTUATION if lang == "fr" else ENGLISH_PUNCTUATION).finditer(text)
    return [f"{lang} punctuation spaced wrongly in {text[max(0, m.start() - 20):m.end() + 10]!r}" for m in found]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("design", DESIGNS)
def test_every_pdf_reads_in_its_language(built, design, lang):
    other = "en" if lang == "fr" else "fr"
    foreign = phrases(other, lang)
    never = drift(design) if lang == "fr" else []
    problems = []
    for pdf in pdfs_of(built, design, lang):
        for n, text in enumerate(pages(pdf), start=1):
            where = f"{pdf.name} p.{n}"
            flat = " ".join(text.translate(SPACES).split())
            for m in re.finditer(r"'", text):
                problems.append(f"{where}: straight apostrophe in {text[max(0, m.start() - 20):m.end() + 20]!r}")
            problems += [f"{where}: {problem}" for problem in punctuation(text, lang)]
            problems += [f"{where}: {other} words {p!r}" for p in sorted(foreign) if p in flat]
            unquoted = re.sub(r"«[^»]*»|\"[^\"]*\"|“[^”]*”", "", flat)  # (an edition may quote the seed's spelling)
            problems += [f"{where}: {t!r}, not the glossary's term" for t in never if t in unquoted]
    assert problems == []


def test_the_french_pages_have_their_no_break_spaces(built):
    """The French PDFs' text has U+00A0 before its colons, U+202F before ; ! ? (what pnp.render.typography sets):
    the check above reads the characters themselves, not spaces that extraction could have made up."""
    colons = nbsp = narrow = 0
    for design in DESIGNS:
        for pdf in pdfs_of(built, design, "fr"):
            text = "".join(pages(pdf))
            colons, nbsp = colons + len(re.findall(r"(?<![\d/]):(?!\d)", text)), nbsp + text.count("\u00a0:")
            narrow += len(re.findall("\u202f[;!?]", text))
    assert colons > 100 and nbsp == colons and narrow > 50, (colons, nbsp, narrow)


@pytest.mark.parametrize("text, lang, found", [
    ("Tour\u00a0: piochez\u202f; jouez\u202f! «\u202fPort\u202f» 10:30 https://x", "fr", 0),
    ("Tour : piochez", "fr", 1), ("Tour: piochez", "fr", 1), ("Tour\u00a0:", "fr", 0), ("Tour\n\u00a0: x", "fr", 1),
    ("piochez ; jouez", "fr", 1), ("piochez; jouez", "fr", 1), ("jouez !", "fr", 1), ("quoi ?", "fr", 1),
    ("jouez\u00a0!", "fr", 0), ("« Port »", "fr", 2), ("«Port»", "fr", 2), ("«\u202fPort\u00a0»", "fr", 0),
    ("Turn: draw; play! Why?", "en", 0), ("Turn\u00a0: draw", "en", 1), ("« Port »", "en", 2),
])
def test_the_punctuation_check_can_fail(text, lang, found):
    assert len(punctuation(text, lang)) == found, punctuation(text, lang)


def test_the_check_finds_english_in_a_french_page():
    """The checks above can fail: an English table phrase is among the French phrases searched for."""
    english = phrases("en", "fr")
    assert english and any(len(p.split()) >= 2 for p in english)
    assert not (english & phrases("fr", "en"))


def test_each_edition_has_its_title(built):
    """meta.title given per language ({en: ..., fr: ...}) titles each edition's sheets, book and kit."""
    for lang, title, other in (("fr", "3 Stars (losanges)", "(lozenges)"), ("en", "3 Stars (lozenges)", "(losanges)")):
        for pdf in pdfs_of(built, "three-stars-lozenge", lang):
            first = " ".join(pages(pdf)[0].split())
            assert title in first and other not in first, (pdf.name, first[:200])


def test_the_kits_pages_fit_their_design(built):
    """The kit's how-to page gives the tip on boards split over pages only to a design that has one (Lantern
    Harbour's board, not TriLOOPite's tiles); a sheet of one face is titled by that face, not a range "41 à 41"."""
    tip = {"fr": "sur plusieurs pages", "en": "over several pages"}  # (kit.split or, one board, kit.split_one)
    for lang in LANGS:
        kits = {d: next(p for p in pdfs_of(built, d, lang) if "-kit-" in p.name) for d in ("triloopite", "showcase")}
        howto = {d: " ".join(pages(p)[1].split()) for d, p in kits.items()}
        assert tip[lang] in howto["showcase"] and tip[lang] not in howto["triloopite"], (lang, howto["triloopite"])
        sheets = " ".join(" ".join(pages(p)) for p in pdfs_of(built, "three-stars", lang) if "-kit-" not in p.name)
        assert ("recto 41" if lang == "fr" else "front 41") in " ".join(sheets.split())
        assert "41 à 41" not in sheets and "41–41" not in sheets and "41-41" not in sheets
