"""Fonts (issue 15): every font in every PDF pnp writes is embedded, whatever family a template names;
a design's own TTF files (its `fonts:` section) are drawn and embedded (a subset) in the PDF, drawn
by the PNG and linked from the SVG; inline <tspan> keeps the spaces around it.

tests/fixtures/font-deck: two cards; line 1 in the design's "Deck Condensed" (DejaVu Sans Condensed,
ASCII subset), line 2 its bold, then lines in serif, monospace, Times and an unknown family, and a
line with inline bold and italic tspans."""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pytest
from clirun import run
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import DictionaryObject, IndirectObject

from pnp.build import build_designs
from pnp.errors import drain_warnings

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
FONT_DECK = FIXTURES / "font-deck"


def fonts_of(pdf: Path) -> dict[str, bool]:
    """Every font dictionary of the file: BaseFont -> embedded (its descriptor, or its descendant's, holds a
    FontFile, FontFile2 or FontFile3). Walks every object, so fonts of forms and annotations count too."""
    reader = PdfReader(str(pdf))
    out: dict[str, bool] = {}
    size = int(reader.trailer["/Size"])
    for num in range(1, size):
        try:
            obj = reader.get_object(IndirectObject(num, 0, reader))
        except Exception:
            continue
        if not isinstance(obj, DictionaryObject) or obj.get("/Type") != "/Font":
            continue
        if obj.get("/Subtype") == "/CIDFontType2" or obj.get("/Subtype") == "/CIDFontType0":
            continue  # checked through its Type0 parent
        font = obj
        if obj.get("/Subtype") == "/Type0":
            font = obj["/DescendantFonts"][0].get_object()
        desc = font.get("/FontDescriptor")
        desc = desc.get_object() if desc is not None else {}
        embedded = any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
        out[str(obj.get("/BaseFont"))] = out.get(str(obj.get("/BaseFont")), True) and embedded
    return out


@pytest.fixture(scope="module")
def every_pdf(tmp_path_factory) -> list[Path]:
    """Sheets, print-shop sheets and rulebooks of every shipped design, the fixtures and the font deck."""
    tmp = tmp_path_factory.mktemp("fonts")
    designs = [str(p) for p in sorted((ROOT / "designs").iterdir()) if (p / "design.yaml").is_file()]
    designs += [str(p) for p in sorted(FIXTURES.iterdir()) if (p / "design.yaml").is_file()]
    build_designs(designs, out=tmp / "out", print_shop=True, exports=False, show_progress=False)
    drain_warnings()
    pdfs = sorted((tmp / "out").glob("*/*.pdf"))
    assert len(pdfs) >= 2 * len(designs)  # sheets and print-shop sheets at least, rulebooks besides
    return pdfs


def test_no_pdf_pnp_writes_has_a_font_that_is_not_embedded(every_pdf):
    seen: set[str] = set()
    for pdf in every_pdf:
        found = fonts_of(pdf)
        assert found, f"{pdf.name} has no fonts"
        assert all(found.values()), f"{pdf.name}: not embedded: {[n for n, ok in found.items() if not ok]}"
        seen |= set(found)
    names = {n.split("+", 1)[-1] for n in seen}
    assert not names & {"/Helvetica", "Times-Roman", "Courier", "Helvetica", "/Times-Roman", "/Courier"}
    assert "DejaVuSansCondensed" in names and "DejaVuSerif" in names and "DejaVuSansMono" in names


def test_generic_and_unknown_families_map_to_the_shipped_fonts(every_pdf):
    [pdf] = [p for p in every_pdf if p.name == "font-deck-a4.pdf"]
    with pdfplumber.open(pdf) as doc:
        words = doc.pages[0].extract_words(extra_attrs=["fontname"])
    font = {w["text"]: w["fontname"].split("+", 1)[-1] for w in words}
    assert font["serif"] == "DejaVuSerif"
    assert font["mono"] == "DejaVuSansMono"
    assert font["times"] == "DejaVuSerif"
    assert font["unknown"] == "DejaVuSans"
    assert font["condensed"] == "DejaVuSansCondensed"
    assert font["Bold"] == "DejaVuSans-Bold" and font["italic"] == "DejaVuSans-Oblique"
    assert font["Alpha"] in ("DejaVuSansCondensed", "DejaVuSansCondensed-Bold")


def test_inline_tspans_keep_their_spaces(every_pdf):
    [pdf] = [p for p in every_pdf if p.name == "font-deck-a4.pdf"]
    with pdfplumber.open(pdf) as doc:
        text = doc.pages[0].extract_text()
    assert "Bold then italic end" in text
    assert "Boldthen" not in text and "thenitalic" not in text


def test_own_font_in_svg_pdf_and_png(tmp_path):
    shutil.copytree(FONT_DECK, tmp_path / "d")
    build_designs([str(tmp_path / "d")], out=tmp_path / "out", exports={"png"}, show_progress=False)
    drain_warnings()
    out = tmp_path / "out" / "d"
    # SVG: the @font-face names a copy of the file beside the face
    svg = (out / "svg" / "cards-1.svg").read_text()
    assert 'src: url("art/fonts/Condensed.ttf")' in svg and 'font-family: "Deck Condensed"' in svg
    assert (out / "svg" / "art" / "fonts" / "Condensed.ttf").read_bytes() == \
        (FONT_DECK / "fonts" / "Condensed.ttf").read_bytes()
    # PDF: a subset (ReportLab's AAAAAA+ prefix, far smaller than the file)
    reader = PdfReader(str(out / "d-a4.pdf"))
    sizes = {}
    for num in range(1, int(reader.trailer["/Size"])):
        obj = reader.get_object(IndirectObject(num, 0, reader))
        if isinstance(obj, DictionaryObject) and obj.get("/Type") == "/FontDescriptor":
            sizes[str(obj["/FontName"])] = len(obj["/FontFile2"].get_object().get_data())
    [name] = [n for n in sizes if n.endswith("+DejaVuSansCondensed")]
    assert sizes[name] < (FONT_DECK / "fonts" / "Condensed.ttf").stat().st_size  # 15 of its 95 glyphs
    # PNG: line 1 ("Alpha condensed", 6 mm type from x = 5 mm) ends where the condensed font's advance widths
    # put it, not where DejaVu Sans would
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from pnp.render import fonts

    condensed = fonts.register_data((FONT_DECK / "fonts" / "Condensed.ttf").read_bytes())
    want = 3 + 5 + stringWidth("Alpha condensed", condensed, 6)  # mm from the left of the bleed box
    wide = 3 + 5 + stringWidth("Alpha condensed", fonts.REGULAR, 6)
    assert wide - want > 2
    im = Image.open(out / "png" / "cards-1.png").convert("L")
    px = 300 / 25.4
    band = range(int((3 + 10 - 5) * px), int((3 + 10 + 1) * px))
    ink = [x for x in range(im.width) if any(im.getpixel((x, y)) < 128 for y in band)]
    assert abs(ink[0] / px - 8) < 0.5
    assert abs((ink[-1] + 1) / px - want) < 1.0, ((ink[-1] + 1) / px, want, wide)  # less the "d"s side bearing


@pytest.mark.parametrize("fonts_yaml, message", [
    ("  Deck Condensed:\n    regular: fonts/gone.ttf\n",
     "d/design.yaml:8: font 'fonts/gone.ttf' not found; expected it in d/"),
    ("  Deck Condensed:\n    regular: fonts/notes.ttf\n",
     "d/design.yaml:8: fonts.Deck Condensed.regular: 'fonts/notes.ttf' cannot be used: it is not a"),
    ("  Deck Condensed:\n    regular: fonts/LICENSE-DejaVu.txt\n",
     "d/design.yaml:8: fonts.Deck Condensed.regular: 'fonts/LICENSE-DejaVu.txt' is not a .ttf or .otf file; "
     "expected a TrueType font file in the design folder"),
    ("  serif:\n    regular: fonts/Condensed.ttf\n",
     "d/design.yaml:6: fonts: font family 'serif' is a name pnp maps to its shipped fonts; expected a name of your own"),
    ("  Deck Condensed:\n    regular: ../outside.ttf\n",
     "d/design.yaml:8: font '../outside.ttf' is outside the design folder; expected a file inside d/"),
])
def test_bad_fonts_are_file_line_errors(tmp_path, fonts_yaml, message):
    d = tmp_path / "d"
    shutil.copytree(FONT_DECK, d)
    (d / "fonts" / "notes.ttf").write_text("not a font")
    shutil.copy(FONT_DECK / "fonts" / "Condensed.ttf", tmp_path / "outside.ttf")
    text = (d / "design.yaml").read_text()
    start, end = text.index("fonts:\n") + len("fonts:\n"), text.index("components:")
    (d / "design.yaml").write_text(text[:start] + fonts_yaml + text[end:])
    result = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert message in result.output, result.output
    assert not (tmp_path / "out" / "d").exists()
