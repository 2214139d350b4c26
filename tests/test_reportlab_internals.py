"""ReportLab's internals that pnp relies on (pnp.render.reportlab_internals), one test each: an upgrade of ReportLab
that changes one fails here first, under its name; and no module of pnp outside the fence touches one."""

from __future__ import annotations

import ast
import io
import zlib
from pathlib import Path

import pypdf
import pytest
from reportlab import rl_config
from reportlab.lib.colors import CMYKColorSep
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFDocument, PDFFormXObject, PDFResourceDictionary
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas
from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table
from reportlab.platypus.tableofcontents import TableOfContents

import pnp.layout.pdf  # noqa: F401  (sets rl_config as every build does)
from pnp.render import fonts, reportlab_internals as rl
from pnp.render.svgpdf import player

PNP = Path(__file__).resolve().parent.parent / "pnp"
FENCE = PNP / "render" / "reportlab_internals.py"


def _canvas(**kw) -> Canvas:
    return Canvas(io.BytesIO(), invariant=1, **kw)


def _saved(c: Canvas) -> bytes:
    c.save()
    return c._filename.getvalue()  # (the test's own look at where the bytes went)


def _png(width: int, height: int, pixel: bytes) -> bytes:
    import struct

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    rows = b"".join(b"\0" + pixel * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


# --- the canvas's page stream -----------------------------------------------------------------------------------

def test_page_code_is_the_list_the_page_stream_is_joined_from():
    c = _canvas(pageCompression=0)
    code = rl.page_code(c)
    assert isinstance(code, list)
    c.rect(1, 2, 3, 4)
    assert (rl.page_code(c) is code and code[-1].endswith("re B")) or "re" in code[-1]
    code.append("0.5 w % written by hand")
    c.showPage()
    assert b"0.5 w % written by hand" in _saved(c)


def test_set_page_code_redirects_what_the_canvas_draws():
    c = _canvas()
    page = rl.page_code(c)
    rl.set_page_code(c, [])
    c.setLineWidth(3)
    assert rl.page_code(c) == ["3 w"] and "3 w" not in page


def test_fill_mode_is_the_rule_clip_paths_follow():
    c = _canvas()
    assert rl.fill_mode(c) in (FILL_EVEN_ODD, FILL_NON_ZERO)
    c._fillMode = FILL_NON_ZERO  # (what setFillMode would do; the test pins the attribute's meaning)
    rl.page_code(c).clear()
    c.clipPath(c.beginPath(), stroke=0, fill=0)
    assert rl.page_code(c)[-1].endswith("W n")


def test_use_form_and_xobject_name_put_a_hand_written_form_in_the_page_resources():
    c = _canvas(pageCompression=0)
    c.beginForm("box", 0, 0, 10, 10)
    c.rect(0, 0, 10, 10)
    c.endForm()
    name = rl.xobject_name(c, "box")
    assert name == "FormXob.box"
    rl.page_code(c).append(f"/{name} Do")
    rl.use_form(c, "box")
    c.showPage()
    page = pypdf.PdfReader(io.BytesIO(_saved(c))).pages[0]
    assert f"/{name}" in page["/Resources"]["/XObject"]


def test_shadings_used_lists_a_forms_shadings_before_end_form():
    c = _canvas()
    c.beginForm("shaded", 0, 0, 10, 10)
    c.shade(player._shading("axial", (0, 0, 10, 0), [(0.0, 0, 0, 0), (1.0, 1, 1, 1)], True))
    used = rl.shadings_used(c)
    c.endForm()
    assert len(used) == 1 and not rl.form_object(c, "shaded").Resources


def test_page_compression_and_preamble_start_each_stream():
    c = _canvas(pageCompression=1)
    assert rl.page_compression(c) == 1
    assert rl.preamble(c).startswith("1 0 0 1 0 0 cm") and "Tf" in rl.preamble(c)


# --- the document -----------------------------------------------------------------------------------------------

def test_document_is_the_canvas_pdf_document():
    assert isinstance(rl.document(_canvas()), PDFDocument)


def test_form_object_and_colours_used():
    c = _canvas()
    c.beginForm("plain", 0, 0, 1, 1)
    c.rect(0, 0, 1, 1, fill=1)
    c.endForm()
    plain = rl.form_object(c, "plain")
    assert isinstance(plain, PDFFormXObject) and not rl.form_colours_used(plain)
    assert hasattr(plain, "XObjects") and hasattr(plain, "ExtGState")
    c.beginForm("spot", 0, 0, 1, 1)
    c.setFillColor(CMYKColorSep(0, 0, 1, 0, spotName="GOLD"))
    c.rect(0, 0, 1, 1, fill=1)
    c.endForm()
    assert rl.form_colours_used(rl.form_object(c, "spot")) == {"GOLD": "GOLD"}


def test_has_xobject_add_xobject_and_register_xobject_draw_a_pass_through_png():
    c = _canvas()
    data = _png(2, 3, b"\x10\x80\xf0")
    width, height, colours, stream = player.png_stream(data)
    img = rl.pass_through_png("pngk", width, height, colours, stream)
    reg = rl.xobject_name(c, "pngk")
    assert not rl.has_xobject(c, reg)
    c.beginForm("holder", 0, 0, 1, 1)
    rl.register_xobject(c, img)
    rl.add_xobject(c, "pngk", img, reg)
    rl.page_code(c).append(f"/{reg} Do")
    rl.use_form(c, "pngk")
    c.endForm()
    assert rl.has_xobject(c, reg)
    c.doForm("holder")
    c.showPage()
    reader = pypdf.PdfReader(io.BytesIO(_saved(c)), strict=True)
    [image] = reader.pages[0].images
    assert image.image.size == (2, 3) and image.image.getpixel((1, 2)) == (0x10, 0x80, 0xF0)


def test_need_transparency_makes_the_document_pdf_1_4():
    c = _canvas()
    rl.need_transparency(c)
    assert _saved(c).startswith(b"%PDF-1.4")


# --- XObjects pnp formats itself ----------------------------------------------------------------------------------

def _fonts_only_form(c: Canvas) -> PDFFormXObject:
    return rl.new_fonts_only_form(c, 20, 30, ["0 0 m 20 30 l S", "q", "1 0 0 rg", "Q"])


def test_fonts_only_form_writes_reportlabs_bytes():
    c = _canvas(pageCompression=1)
    made = _fonts_only_form(c)
    doc = rl.document(c)
    assert made.format(doc) == PDFFormXObject.format(made, doc)


def test_fonts_only_turns_a_canvas_form_into_one_with_the_same_bytes():
    c = _canvas(pageCompression=1)
    c.beginForm("f", 0, 0, 5, 5)
    c.rect(0, 0, 5, 5)
    c.endForm()
    form = rl.form_object(c, "f")
    form.Resources = rl.basic_resources(rl.document(c))
    rl.fonts_only(form)
    assert type(form) is rl.FontsOnlyForm
    assert form.format(rl.document(c)) == PDFFormXObject.format(form, rl.document(c))


def test_basic_resources_are_reportlabs_fonts_and_procedures_once_per_document():
    c = _canvas()
    doc = rl.document(c)
    res = rl.basic_resources(doc)
    assert rl.basic_resources(doc) is res
    plain = PDFResourceDictionary()
    plain.basicFonts()
    plain.allProcs()
    assert res.format(doc) == plain.format(doc)


def test_install_deflate_replaces_pdfdocs_zlib():
    assert pdfdoc.zlib.compress is rl.deflate  # (player installs it at import)
    assert pdfdoc.zlib.decompress is zlib.decompress
    assert zlib.decompress(pdfdoc.zlib.compress(b"abc" * 100)) == b"abc" * 100


def test_binary_and_plain_streams_settings():
    assert rl_config.useA85 == 0 and hasattr(rl_config, "pdfMultiLine")
    assert rl.plain_streams()
    c = _canvas(pageCompression=1)
    c.rect(0, 0, 1, 1)
    c.showPage()
    assert b"ASCII85Decode" not in _saved(c)


# --- the saved file's layout --------------------------------------------------------------------------------------

@pytest.mark.parametrize("spill", [False, True])
def test_splice_streams_puts_deferred_pixels_in_the_saved_file(spill):
    from pnp.render.spool import StreamSpool
    from pnp.spooled import SpooledFile

    c = _canvas()
    player.defer_streams(c)
    if spill:  # the pixels wait in a temporary file, the PDF is written to one
        c._pnp_streams = StreamSpool(spill_at=0)
    data = _png(40, 30, b"\x20\x40\x60")
    player._image(c, "k", data, (0, 0, 40, 30))
    c.showPage()
    pdf = _saved(c)
    [placeholder] = c._pnp_streams.lengths()
    assert placeholder in pdf  # ReportLab wrote the placeholder as the stream's whole content
    out = player.splice(pdf, c)
    assert isinstance(out, SpooledFile) == spill
    spliced = bytes(out)
    assert placeholder not in spliced
    reader = pypdf.PdfReader(io.BytesIO(spliced), strict=True)  # strict: every xref offset must be right
    for number in range(1, len(reader.xref_objStm) + reader.trailer["/Size"]):
        try:
            reader.get_object(number)
        except (IndexError, pypdf.errors.PdfReadError):
            break
    [image] = reader.pages[0].images
    assert image.image.size == (40, 30) and image.image.getpixel((5, 5)) == (0x20, 0x40, 0x60)


def test_splice_streams_refuses_a_file_laid_out_otherwise():
    with pytest.raises(RuntimeError):
        rl.splice_streams(b"%PDF-1.4\nstream\nXX\nendstream\n", {b"XX": b"pixels"})


# --- the canvas's per-page state ------------------------------------------------------------------------------------

def test_page_state_start_page_and_restore_page_state():
    c = _canvas()
    c.setLineWidth(7)
    state = rl.page_state(c)
    assert rl.page_number(c) == 1
    rl.start_page(c)
    assert "7 w" not in rl.page_code(c)
    rl.restore_page_state(c, state)
    assert "7 w" in rl.page_code(c)
    c.showPage()
    assert rl.page_number(c) == 2


def test_annotation_count_counts_links_and_is_settable():
    c = _canvas()
    assert rl.annotation_count(c) == 0
    c.linkURL("https://example.org", (0, 0, 10, 10))
    assert rl.annotation_count(c) == 1
    rl.set_annotation_count(c, 5)
    c.linkURL("https://example.org", (0, 0, 10, 10))
    assert rl.annotation_count(c) == 6 and "Annot.NUMBER6" in rl.document(c).idToObject


def test_current_matrix_follows_the_transformations():
    c = _canvas()
    c.translate(10, 20)
    assert tuple(rl.current_matrix(c)) == (1, 0, 0, 1, 10, 20)
    rl.set_current_matrix(c, (1, 0, 0, 1, 0, 0))
    assert tuple(rl.current_matrix(c)) == (1, 0, 0, 1, 0, 0)


def test_text_cursor_is_where_a_paragraphs_text_ended_for_an_on_draw_callback():
    c = _canvas()
    seen = []

    def callback(canvas, kind, label):
        at = rl.text_cursor(canvas)
        seen.append(at)
        rl.set_text_cursor(canvas, {"cur_x": 1.0, "cur_y": 2.0})
        assert rl.text_cursor(canvas) == {"cur_x": 1.0, "cur_y": 2.0}
        rl.set_text_cursor(canvas, at)

    c.setNamedCB("end", callback)
    p = Paragraph('Some words<onDraw name="end" label="x"/>', ParagraphStyle("s", fontSize=10))
    p.wrapOn(c, 300, 100)
    p.drawOn(c, 50, 500)
    assert len(seen) == 1 and seen[0]["cur_x"] > 50 and set(seen[0]) == {"cur_x", "cur_y"}
    rl.set_text_cursor(c, seen[0])
    rl.clear_text_cursor(c)
    assert not hasattr(c, "_curr_tx_info")


# --- fonts and platypus -------------------------------------------------------------------------------------------

def test_is_subsetting_font():
    assert fonts.ensure(fonts.REGULAR)
    font = pdfmetrics.getFont(fonts.REGULAR)
    assert isinstance(font, TTFont) and rl.is_subsetting_font(font)
    assert not rl.is_subsetting_font(pdfmetrics.getFont("Helvetica"))


def test_split_string_is_reportlabs_split_with_a_code_of_its_own_for_the_no_break_space():
    """Without U+00A0, split_string gives ReportLab's splitString's runs and leaves the same subsets (in a document
    whose earlier texts filled subset 0 and opened a second one); with it, U+00A0 has its own code, not the space's,
    and a reader extracts it as U+00A0 (ReportLab's own splitString writes it as a space)."""
    font = TTFont("pnp-probe-split", str(fonts.FILES[fonts.REGULAR]))
    texts = ["Règle : oui", "".join(map(chr, range(0xC0, 0x17F))), "ASCII only", "Ŧŧ ĳ œ Œ ‘’ “” …"]
    ours, theirs = PDFDocument(invariant=1), PDFDocument(invariant=1)
    for text in texts:
        assert rl.split_string(font, text, ours) == font.splitString(text, theirs)
    assert font.state[ours].subsets == font.state[theirs].subsets and len(font.state[ours].subsets) == 2
    doc = PDFDocument(invariant=1)
    runs = rl.split_string(font, "a\u00a0: b", doc)
    space, nbsp = (font.state[doc].assignments[code] for code in (0x20, 0xA0))
    assert space == 32 and nbsp not in (0, 32) and runs == [(0, bytes([ord("a"), nbsp, ord(":"), 32, ord("b")]))]
    assert font.splitString("a\u00a0:", PDFDocument(invariant=1)) == [(0, b"a :")]  # (what the fix is for)

    assert fonts.ensure(fonts.REGULAR)
    c = _canvas()
    c.setFont(fonts.REGULAR, 12)
    c.drawString(10, 10, "Règle\u00a0: oui\u202f; a b")
    assert pypdf.PdfReader(io.BytesIO(_saved(c))).pages[0].extract_text().strip() == "Règle\u00a0: oui\u202f; a b"


def test_kept_together_is_what_keep_together_holds():
    a, b = Spacer(1, 1), Spacer(1, 2)
    assert rl.kept_together(KeepTogether([a, b])) == [a, b]


def test_toc_entries_and_the_table_a_table_of_contents_draws():
    toc = TableOfContents()
    toc.addEntry(0, "First", 3, "k1")
    assert rl.toc_entries(toc) == [(0, "First", 3, "k1")]
    table = Table([["x"]])
    rl.set_toc_table(toc, table)
    assert rl.toc_table(toc) is table
    drawn = []
    table.drawOn = lambda canvas, x, y, _sW=0: drawn.append((x, y))  # type: ignore[method-assign]
    toc.drawOn(_canvas(), 3, 4)
    assert drawn == [(3, 4)]


# --- the fence ------------------------------------------------------------------------------------------------------

def _reportlab_private_names() -> set[str]:
    """The private names of the ReportLab objects pnp handles: classes' and a fresh instance's attributes."""
    from reportlab.pdfbase.pdfdoc import PDFImageXObject
    from reportlab.platypus import BaseDocTemplate, Flowable

    c = _canvas()
    classes = [Canvas, PDFDocument, PDFFormXObject, PDFImageXObject, TTFont, Paragraph, KeepTogether, TableOfContents,
               BaseDocTemplate, Flowable, Table]
    table = Table([["x"]])
    table.wrap(100, 100)
    instances = [c, rl.document(c), PDFFormXObject(0, 0, 1, 1), TTFont("probe", str(next(fonts.FONT_DIR.glob("*.ttf")))),
                 Paragraph("x", ParagraphStyle("s")), KeepTogether([]), TableOfContents(), table]
    names: set[str] = set()
    for cls in classes:
        names |= set(dir(cls))
    for obj in instances:
        names |= set(vars(obj))
    names.add("_curr_tx_info")  # (set by a paragraph while it draws, for its onDraw callbacks)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def _violations(source: str, where: str, private: set[str]) -> list[str]:
    tree = ast.parse(source, where)
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Attribute) and node.attr in private:
            found.append(f"{where}:{line}: .{node.attr}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in private:
            found.append(f"{where}:{line}: {node.value!r} (getattr by name)")
        elif isinstance(node, ast.Attribute) and node.attr == "__class__" and isinstance(node.ctx, ast.Store):
            found.append(f"{where}:{line}: __class__ =")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("reportlab"):
            for alias in node.names:
                if alias.name in ("rl_config", "pdfdoc") or alias.name.startswith("_"):
                    found.append(f"{where}:{line}: from {node.module} import {alias.name}")
        elif isinstance(node, ast.Import):
            found += [f"{where}:{line}: import {a.name}" for a in node.names
                      if a.name in ("reportlab.rl_config", "reportlab.pdfbase.pdfdoc")]
        elif isinstance(node, ast.Constant) and isinstance(node.value, bytes) and (
                b"xref" in node.value or b"/Length" in node.value):
            found.append(f"{where}:{line}: {node.value!r} (the saved file's layout)")
    return found


def test_no_module_outside_the_fence_touches_reportlab_internals():
    private = _reportlab_private_names()
    assert {"_code", "_doc", "_formsinuse", "_annotationCount", "_content", "_entries", "_rowHeights"} <= private
    found = [v for path in sorted(PNP.rglob("*.py")) if path != FENCE
             for v in _violations(path.read_text(), str(path.relative_to(PNP.parent)), private)]
    assert found == [], "ReportLab internals used outside pnp/render/reportlab_internals.py:\n" + "\n".join(found)


def test_the_fence_check_finds_a_use():
    """The check above finds each kind of use (so it cannot pass for want of looking)."""
    source = ("from reportlab import rl_config\nfrom reportlab.pdfbase import pdfdoc\n"
              "def f(c, form):\n    c._code.append('x')\n    form.__class__ = int\n    getattr(form, '_colorsUsed')\n"
              "    return b'startxref'\n")
    found = _violations(source, "probe.py", _reportlab_private_names())
    assert len(found) == 6, found
