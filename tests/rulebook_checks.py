"""What every game's rulebook tests check the same way: text, language, vector-only drawings,
and a bad Jinja2 expression reported as file:line."""

from __future__ import annotations

import functools
import hashlib
import io
import re
import shutil
from collections import Counter
from pathlib import Path

import pdfplumber
import pypdfium2
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import main
from pnp.loader import load_design
from pnp.registry import get_diagram
from pnp.render.faces import language_faces
from pnp.rulebook import render_rulebooks

FR_WORDS = {"le", "la", "les", "des", "est", "une", "et", "du", "pour", "qui", "sur", "vous", "à", "de"}
SHIPPED = Path(__file__).resolve().parent.parent / "designs"
EN_WORDS = {"the", "and", "is", "of", "to", "a", "your", "you", "on", "it", "with", "for", "that"}


def text_of(pdf: bytes | Path) -> str:
    """The text of every page, in reading order, read by pdfium (seventy times faster than pdfplumber on a book, and
    it keeps a diagram's labels whole where pdfplumber interleaves their letters)."""
    data = pdf if isinstance(pdf, bytes) else Path(pdf).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest not in _TEXTS:
        doc = pypdfium2.PdfDocument(data)
        try:
            _TEXTS[digest] = "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
        finally:
            doc.close()
    return _TEXTS[digest]


_TEXTS: dict[str, str] = {}  # PDF's sha256 -> its text (the same book is read by several tests)


_UNTYPESET = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"',
                             "ᵉ": "e", "ʳ": "r", "ˢ": "s", "ᵈ": "d", "\u00a0": " ", "\u202f": " "})


def flat(pdf: bytes) -> str:
    """The text with every run of white space as one space (lines re-joined), its typography's apostrophes, English quotes,
    superscript ordinals and no-break spaces read as typed (l'étoile, 7e, 3 cartes: what the rules texts say;
    tests/test_typography.py checks the typography itself)."""
    return re.sub(r"\s+", " ", text_of(pdf).translate(_UNTYPESET))


def rulebooks(folder: Path) -> dict[str, bytes]:
    """{lang: PDF bytes} of a design's rulebooks (a shipped design's are made once per session: no test edits
    designs/)."""
    folder = Path(folder).resolve()
    if folder.parent == SHIPPED:
        return dict(_shipped_rulebooks(folder))
    return _rulebooks(folder)


@functools.cache
def _shipped_rulebooks(folder: Path) -> tuple[tuple[str, bytes], ...]:
    return tuple(_rulebooks(folder).items())


def _rulebooks(folder: Path) -> dict[str, bytes]:
    design = load_design(folder)
    out = render_rulebooks(design, language_faces(design))
    return {lang: out[f"{design.slug}-rules-{lang}-a4.pdf"] for lang in design.meta.languages}


def assert_reads_as(lang: str, pdf: bytes) -> None:
    """French function words outnumber English ones three to one in a French book, and the reverse."""
    words = Counter(re.findall(r"[a-zàâçéèêëîïôûùüÿœ]+", text_of(pdf).lower()))
    fr, en = sum(words[w] for w in FR_WORDS), sum(words[w] for w in EN_WORDS)
    assert (fr > 3 * en) if lang == "fr" else (en > 3 * fr), (lang, fr, en)


def assert_vector_only(pdf: bytes) -> None:
    """Every drawing is a form XObject made of shapes; no raster image anywhere."""
    reader = PdfReader(io.BytesIO(pdf))
    forms = {}
    for page in reader.pages:
        for name, x in (page["/Resources"].get("/XObject") or {}).items():
            forms[name] = x.get_object()
    assert forms and all(x.get("/Subtype") == "/Form" for x in forms.values())
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        assert not any(page.images for page in doc.pages)


def assert_diagrams_draw_shapes(folder: Path, diagrams, shapes=("<path", "<rect", "<polygon")) -> None:
    """Each (name, params) diagram is SVG made of more than 10 shapes and no embedded image."""
    design = load_design(folder)
    for name, params in diagrams:
        svg = get_diagram(name)(design, "en", **params)
        assert "<image" not in svg and sum(svg.count(s) for s in shapes) > 10, (name, params)


def assert_bad_expression_gives_file_and_line(tmp_path: Path, folder: Path, expression: str, name: str) -> None:
    """A misspelt name inserted after '# Setup' in a copy of rules.en.md: file:line, exit 2, nothing written."""
    copy = tmp_path / folder.name
    shutil.copytree(folder, copy)
    rules = copy / "rules.en.md"
    lines = rules.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("# Setup"))
    lines.insert(at + 1, expression)
    rules.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["rules", str(copy), "--out", str(tmp_path / "out")], catch_exceptions=False)
    assert result.exit_code == 2, result.output
    assert re.search(rf"rules\.en\.md:{at + 2}: .*{name}", result.output), result.output
    assert not (tmp_path / "out").exists()
