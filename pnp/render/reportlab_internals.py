"""The fence around ReportLab's internals: every private attribute, undocumented method, setting or byte layout of
ReportLab that pnp relies on is reached through this module, one small named function (or class) per internal, and
nowhere else (tests/test_reportlab_internals.py checks both: that each still exists and behaves as pnp relies on, so
an upgrade of ReportLab fails there first, under the internal's name, and that no other module of pnp touches one).
ReportLab is pinned to 5.1.x for them (pyproject.toml); to move the pin, run that test file against the new version.

What is here, and why it is kept rather than replaced by code owning its PDF objects:

- The canvas's page stream (`Canvas._code`, a list of operator strings joined at showPage) and what a written
  operator must tell the canvas (`_formsinuse`, `_fillMode`, `_doc.getXObjectName`): the sheets write one
  q/clip/cm/Do/Q per card copy and the rulebook footer is replayed, without the canvas's per-call bookkeeping
  (pnp.layout.pdf). The canvas API writes the same bytes, only slower; owning the page stream would mean owning
  the page objects, their resources and the document's xref too, i.e. a PDF writer of pnp's own.
- The document behind a canvas (`Canvas._doc`: `idToObject`, `addForm`, `Reference`, `ensureMinPdfVersion`) and
  the canvas's form bookkeeping (`_setXObjects`, `_shadingUsed`, `_pageCompression`, `_preamble`,
  `PDFFormXObject._colorsUsed`): faces become form XObjects made directly (FontsOnlyForm, PassThroughPng) and get
  the resources ReportLab 5.1 leaves out of a form (end_form in pnp.render.svgpdf.player). These are the objects
  pnp could own (a form or image XObject is a dictionary and a stream), but they must be numbered, referenced and
  shared with the fonts' subsets by ReportLab's document, which only this API does.
- `FontsOnlyForm`, set as the class of a form ReportLab made (`form.__class__ = ...`), and `PassThroughPng`: pnp's
  own `format` of those objects, the same bytes as ReportLab's with pnp's settings (a third of a 500-card PDF's
  time was ReportLab's general dictionary formatting; a PNG's compressed pixels are copied as they are).
- `pdfdoc.zlib` replaced (install_deflate): every stream ReportLab deflates goes through zlib-ng.
- The paragraph module's spaces (`_wsc`, `split`): U+202F taken out of the characters a line breaks at
  (no_break_at_narrow_spaces), as U+00A0 is.
- `rl_config.useA85` set off (binary streams) and read with `rl_config.pdfMultiLine`.
- The layout of the saved file (splice): one xref section from object 0, entries of 20 bytes, `/Length N` before a
  stream, `startxref`: pass-through PNG pixels are spliced in after saving instead of being copied through
  ReportLab's in-memory formatting (600 MB of art cost 3 GB). Owning this would need the writer above.
- The canvas's per-page state (its instance `__dict__`, `_startPage`, `_pageNumber`, `_annotationCount`,
  `_currentMatrix`, `_curr_tx_info`): the rulebook's NumberedCanvas keeps every page to draw "page N of M" and the
  contents' page numbers when the document is saved (ReportLab's multiBuild laid the rulebook out twice instead).
- Fonts and platypus: `TTFont._dynamicFont` (a subsetting font), its per-document subsets (`_assignState`, the
  state's `assignments`, `subsets`, `nextCode`, `frozen`: split_string gives U+00A0 a code of its own, which
  ReportLab's splitString writes with the space's), `KeepTogether._content`,
  `TableOfContents._entries` and `_table` (the one-pass contents of pnp.rulebook.document),
  `Table._rowHeights` (a row taller than a page is split, pnp.rulebook.markdown).
"""

from __future__ import annotations

import bisect
import io
import re
import types
import zlib
from collections.abc import Callable
from typing import Any, BinaryIO

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import NoEncryption, PDFFormXObject, PDFResourceDictionary, xObjectName
from zlib_ng import zlib_ng

DEFLATE_LEVEL = 6  # zlib's default: the same sizes as zlib's streams (within 1 %)


def deflate(data: bytes) -> bytes:
    """A PDF stream's /FlateDecode data, by zlib-ng: at the same level, 1.7x faster than zlib on every shipped
    design's streams (page contents, fonts, images, forms: 8.9 MB in 143 ms against 249; 0.6 MB of a 500-card
    deck's in 20 ms against 23), and the same bytes in every run (zlib-ng's version is part of the cache's key)."""
    return zlib_ng.compress(data, DEFLATE_LEVEL)


# --- settings and module globals ----------------------------------------------------------------------------------

class _ZlibForReportLab(types.ModuleType):
    """zlib as ReportLab's pdfdoc sees it: every stream it deflates (page contents, font files, images) goes
    through `deflate`; the rest is zlib's."""

    compress = staticmethod(deflate)

    def __getattr__(self, name: str):
        return getattr(zlib, name)


def no_break_at_narrow_spaces() -> None:
    """Paragraphs never break a line at U+202F (narrow no-break space: the French space before ; ! ? and inside
    « », pnp.render.typography), as they never break at U+00A0. ReportLab 5.1's paragraph module counts U+202F
    among the spaces it splits words at (its `_wsc`, and Python's own str.split in its `split`): both are
    replaced by the same without it, in that module's globals, which its line breaking reads at each call.
    Process-wide and idempotent (a no-break space breaks no line in any of pnp's texts)."""
    from reportlab.platypus import paragraph as _paragraph  # lazy: 126 ms (reportlab.platypus)

    if "\u202f" not in _paragraph._wsc:
        return
    wsc = _paragraph._wsc.replace("\u202f", "")
    _paragraph._wsc = wsc
    _paragraph._wsc_re_split = re.compile(f"[{re.escape(wsc)}]+").split
    _paragraph._wsc_end_search = re.compile(f"[{re.escape(wsc)}]+$").search
    keep = ("\u00a0", "\u202f")

    def split(text, delim=None):  # ReportLab's, with its U+00A0 case for U+202F too
        if isinstance(text, bytes):
            text = text.decode("utf8")
        if delim is not None and isinstance(delim, bytes):
            delim = delim.decode("utf8")
        if delim is None and any(k in text for k in keep):
            return _paragraph._wsc_re_split(text)
        return text.split(delim)

    _paragraph.split = split


def install_deflate() -> None:
    """Make pdfdoc deflate with `deflate` (it calls zlib.compress(data) by its module's global `zlib`)."""
    pdfdoc.zlib = _ZlibForReportLab("zlib")


def use_binary_streams() -> None:
    """rl_config.useA85 off: binary streams, smaller files, no ASCII85 encoding pass (a process-wide setting)."""
    rl_config.useA85 = 0


def plain_streams() -> bool:
    """True while ReportLab writes streams as pnp's own formatting of them assumes: not ASCII85, one line."""
    return not (rl_config.useA85 or rl_config.pdfMultiLine)


# --- the canvas's page stream ---------------------------------------------------------------------------------------

def page_code(c) -> list[str]:
    """The current page's (or form's) content: the canvas's list of operator strings, joined by newlines when the
    page is written. Appending to it writes operators as the canvas's own calls do."""
    return c._code


def set_page_code(c, code: list[str]) -> None:
    c._code = code


def fill_mode(c) -> int:
    """The canvas's fill rule (FILL_EVEN_ODD or FILL_NON_ZERO), which its clip operators follow."""
    return c._fillMode


def use_form(c, name: str) -> None:
    """Tell the canvas that the page draws form `name` (written by hand as `/Name Do`), as doForm does: the page's
    resources then list it."""
    c._formsinuse.append(name)


def register_xobject(c, obj) -> None:
    """Tell the canvas (or the form being made) that it uses the image XObject `obj`, as drawImage does."""
    c._setXObjects(obj)


def shadings_used(c) -> dict:
    """A copy of the shadings the form being made uses (the canvas's accumulator, reset by endForm)."""
    return dict(c._shadingUsed)


def page_compression(c):
    """Whether the canvas deflates its page and form streams."""
    return c._pageCompression


def preamble(c) -> str:
    """What the canvas writes first in each page and form stream (the initial font and colours)."""
    return c._preamble


# --- the document behind a canvas -------------------------------------------------------------------------------------

def document(c):
    """The PDFDocument a canvas writes into (what ReportLab's own text objects pass to a font's subsetting)."""
    return c._doc


def xobject_name(c, name: str) -> str:
    """The document's name of form `name` (what `/Name Do` draws)."""
    return c._doc.getXObjectName(name)


def has_xobject(c, internal_name: str) -> bool:
    return c._doc.idToObject.get(internal_name) is not None


def add_xobject(c, name: str, obj, internal_name: str | None = None) -> None:
    """Put the form or image XObject `obj` in the document as form `name` (referenced as `internal_name`, when
    given, before it is added: an image's object)."""
    if internal_name is not None:
        c._doc.Reference(obj, internal_name)
    c._doc.addForm(name, obj)


def form_object(c, name: str):
    """The PDFFormXObject of form `name`, once endForm has made it."""
    return c._doc.idToObject[xObjectName(name)]


def form_colours_used(form) -> dict | None:
    """The colour spaces a form made by the canvas uses (ReportLab's accumulator, absent when none)."""
    return getattr(form, "_colorsUsed", None)


def need_transparency(c) -> None:
    """Make the document at least PDF 1.4, as setting an alpha on the canvas does."""
    c._doc.ensureMinPdfVersion("transparency")


# --- XObjects pnp formats itself ----------------------------------------------------------------------------------------

class BasicResources(PDFResourceDictionary):
    """The resources of a form that uses only fonts (the document's fonts and every procedure set), formatted once."""

    _text: bytes | None = None

    def format(self, document):
        if self._text is None:
            self._text = super().format(document)
        return self._text


def basic_resources(doc) -> BasicResources:
    """The BasicResources of `doc` (a PDFDocument), the same object for every such form of it."""
    res = getattr(doc, "_pnp_basic_resources", None)
    if res is None:
        res = doc._pnp_basic_resources = BasicResources()
        res.basicFonts()
        res.allProcs()
    return res


class FontsOnlyForm(PDFFormXObject):
    """A face's form XObject that uses only fonts: the same bytes as ReportLab's PDFFormXObject.format writes with
    pnp's settings (Flate, one line, no encryption), put together directly; ReportLab's general formatting of its
    dictionary was a third of a 500-card PDF's time. Any other setting: ReportLab's own."""

    def format(self, document):
        if (self.Annots or self.Contents or self.BBox or self.Matrix or not self.compression or not self.stream
                or not plain_streams() or not isinstance(document.encrypt, NoEncryption)
                or not isinstance(self.Resources, BasicResources)):
            return super().format(document)
        data = deflate(self.stream)
        box = fp_str(self.lowerx, self.lowery, self.upperx, self.uppery).encode("ascii")
        return (b"<<\n/BBox [ " + box + b" ] /Filter [ /FlateDecode ] /FormType 1 /Length " + str(len(data)).encode()
                + b" /Matrix [ 1 0 0 1 0 0 ] /Resources " + self.Resources.format(document)
                + b" \n  /Subtype /Form /Type /XObject\n>>\nstream\n" + data + b"endstream\n")


def fonts_only(form) -> None:
    """Make a form the canvas made (endForm) a FontsOnlyForm with the document's basic resources: written as
    ReportLab writes it, without its general formatting."""
    form.__class__ = FontsOnlyForm


def new_fonts_only_form(c, width: float, height: float, code: list[str]) -> FontsOnlyForm:
    """A FontsOnlyForm of the box (0, 0)-(width, height) whose stream is `code` (operator runs), with the stream's
    start and compression the canvas gives its own forms."""
    made = FontsOnlyForm(0, 0, width, height)
    made.compression = c._pageCompression
    made.setStreamList([c._preamble] + code)
    made.Resources = basic_resources(c._doc)
    return made


class PassThroughPng(pdfdoc.PDFImageXObject):
    """An image XObject whose stream is a PNG's own IDAT data (Flate with PNG predictors), written as it is."""

    colours = 3

    def format(self, document):
        S = pdfdoc.PDFStream(content=self.streamContent)
        d = S.dictionary
        d["Type"] = pdfdoc.PDFName("XObject")
        d["Subtype"] = pdfdoc.PDFName("Image")
        d["Width"], d["Height"], d["BitsPerComponent"] = self.width, self.height, 8
        d["ColorSpace"] = pdfdoc.PDFName(self.colorSpace)
        d["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName("FlateDecode")])
        d["DecodeParms"] = pdfdoc.PDFArray([pdfdoc.PDFDictionary({  # one per filter, as Filter is an array
            "Predictor": 15, "Colors": self.colours, "BitsPerComponent": 8, "Columns": self.width})])
        d["Length"] = len(self.streamContent)
        S.filters = []  # the content is already compressed: written as it is
        return S.format(document)


def pass_through_png(name: str, width: int, height: int, colours: int, stream: bytes) -> PassThroughPng:
    img = PassThroughPng(name)
    img.width, img.height, img.colours = width, height, colours
    img.colorSpace = "DeviceRGB" if colours == 3 else "DeviceGray"
    img.streamContent = stream
    img.mask = None
    return img


# --- the saved file's layout ------------------------------------------------------------------------------------------

def splice_streams(pdf: bytes, streams: dict[bytes, bytes]) -> bytes:
    """The saved `pdf` with each placeholder (a key of `streams`, the whole content of one stream) replaced by its
    data, its /Length, the cross-reference table and startxref updated."""
    if not streams:
        return pdf
    out = io.BytesIO()
    splice_streams_into(pdf, {k: len(v) for k, v in streams.items()}, streams.__getitem__, out)
    return out.getvalue()


def splice_streams_into(pdf: bytes, lengths: dict[bytes, int], read: Callable[[bytes], bytes], out: BinaryIO) -> None:
    """`splice_streams` written into `out` part by part: each placeholder's data (`read(placeholder)`, of
    `lengths[placeholder]` bytes) is asked for when its turn comes, so only one stream is held at a time."""
    edits: list[tuple[int, int, bytes | None, bytes]] = []  # (start, end, new bytes or None: a stream, placeholder)
    for placeholder, size in lengths.items():
        at = pdf.find(placeholder)
        length = pdf.rfind(b"/Length ", max(0, at - 4096), at)
        m = re.match(rb"/Length (\d+)", pdf[length:length + 32]) if at >= 0 and length >= 0 else None
        if m is None or int(m.group(1)) != len(placeholder):
            raise RuntimeError("svgpdf.splice: a deferred image stream is not where ReportLab should have put it")
        edits.append((length, length + m.end(), b"/Length %d" % size, placeholder))
        edits.append((at, at + len(placeholder), None, placeholder))
    edits.sort(key=lambda e: e[0])
    starts = [e[0] for e in edits]
    shift, total = [], 0
    for start, end, new, placeholder in edits:
        total += (len(new) if new is not None else lengths[placeholder]) - (end - start)
        shift.append(total)

    def moved(offset: int) -> int:
        i = bisect.bisect_left(starts, offset)
        return offset + (shift[i - 1] if i else 0)

    xref = pdf.rindex(b"\nxref\n") + 1
    head = re.match(rb"xref\n0 (\d+)\n", pdf[xref:xref + 32])
    if head is None:  # ReportLab writes one xref section from object 0; anything else is not ours to edit
        raise ValueError("unexpected PDF cross-reference table")
    count = int(head.group(1))
    table_at = xref + head.end()
    entries = []
    for i in range(count):
        line = pdf[table_at + 20 * i:table_at + 20 * i + 20]
        if line.endswith(b" n \n"):
            line = b"%010d" % moved(int(line[:10])) + line[10:]
        entries.append(line)
    tail = pdf[table_at + 20 * count:]
    tail = re.sub(rb"startxref\n\d+\n", b"startxref\n%d\n" % moved(xref), tail)
    pos = 0
    for start, end, new, placeholder in edits:
        out.write(pdf[pos:start])
        if new is not None:
            out.write(new)
        else:
            data = read(placeholder)
            if len(data) != lengths[placeholder]:
                raise RuntimeError("svgpdf.splice: a deferred image stream changed size")
            out.write(data)
        pos = end
    out.write(pdf[pos:xref])
    out.write(pdf[xref:table_at])
    out.write(b"".join(entries))
    out.write(tail)


# --- the canvas's per-page state -----------------------------------------------------------------------------------------

def page_state(c) -> dict[str, Any]:
    """A copy of everything the canvas holds of its current page (its instance attributes), for restore_page_state."""
    return dict(c.__dict__)


def restore_page_state(c, state: dict[str, Any]) -> None:
    c.__dict__.update(state)


def start_page(c) -> None:
    """Begin a new page without writing the current one (what showPage does after writing it)."""
    c._startPage()


def page_number(c) -> int:
    return c._pageNumber


def annotation_count(c) -> int:
    """The links made so far (each is named Annot.NUMBER<count>): the counter is part of a page's state."""
    return c._annotationCount


def set_annotation_count(c, n: int) -> None:
    c._annotationCount = n


def current_matrix(c) -> tuple[float, ...]:
    """The canvas's transformation matrix (what relative link rectangles use)."""
    return c._currentMatrix


def set_current_matrix(c, matrix: tuple[float, ...]) -> None:
    c._currentMatrix = matrix


def text_cursor(c) -> dict[str, float]:
    """Where the text drawn last ended ({"cur_x", "cur_y"}: ReportLab's record for an onDraw callback)."""
    info = c._curr_tx_info
    return {"cur_x": info["cur_x"], "cur_y": info["cur_y"]}


def set_text_cursor(c, at: dict[str, float]) -> None:
    c._curr_tx_info = at


def clear_text_cursor(c) -> None:
    del c._curr_tx_info


# --- fonts and platypus ---------------------------------------------------------------------------------------------

def is_subsetting_font(font) -> bool:
    """Whether `font` is a TrueType font that ReportLab subsets (splitString and getSubsetInternalName)."""
    return bool(getattr(font, "_dynamicFont", False)) and hasattr(font, "splitString")


def split_string(font, text, doc) -> list[tuple[int, bytes]]:
    """A TrueType font's `splitString(text, doc)` (the text as (subset, codes) runs of the document's subsets of the
    font), except that U+00A0 (no-break space) is a character of its own: ReportLab 5.1 writes it with the code
    of the space (32), so its ToUnicode maps it back to U+0020 and a reader extracting the text cannot tell the
    French no-break space before ":" from a breakable one. Here U+00A0 gets its own code, drawn with the glyph
    and width ReportLab gives it (the space's: TTFontFace maps 0xA0 to the space's glyph) and mapped to U+00A0
    in the subset's ToUnicode. The same loop as ReportLab 5.1's, the same codes in the same order (text without
    U+00A0 gives ReportLab's result, to the byte), less its `if code == 0xa0: code = 32`; the fonts call it only
    for text that has U+00A0 (pnp.render.fonts). No paragraph of pnp is justified by word spacing (Tw applies to
    code 32 only), so nothing else changes."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    state = font._assignState(doc)
    skip31 = 31 if font._asciiReadable and state.nextCode < 32 else -256
    char_to_glyph = font.face.charToGlyph
    assignments, subsets = state.assignments, state.subsets
    current, run, results = -1, bytearray(), []
    for code in map(ord, text):
        if code in assignments:
            n = assignments[code]
        elif code not in char_to_glyph:
            n = 0
        else:
            if state.frozen:
                raise pdfdoc.PDFError(f"Font {font.fontName} is already frozen, cannot add new character "
                                      f"U+{code:04X}")
            n = state.nextCode
            if n & 0xFF == 32:  # code 32 of every subset is the space
                if n != 32:
                    subsets[n >> 8].append(32)
                state.nextCode += 1
                n = state.nextCode
            if n > 32:
                if not n & 0xFF:
                    subsets.append([0])  # code 0 of every subset is .notdef
                    state.nextCode += 1
                    n = state.nextCode
                subsets[n >> 8].append(code)
            else:
                if n == skip31:  # codes 1-31 filled: go on past the ASCII ones (32-126) of subset 0
                    state.nextCode = 127
                subsets[0][n] = code
            state.nextCode += 1
            assignments[code] = n
        if n >> 8 != current:
            if run:
                results.append((current, bytes(run)))
            current, run = n >> 8, bytearray()
        run.append(n & 0xFF)
    if run:
        results.append((current, bytes(run)))
    return results


def kept_together(flowable) -> list:
    """The flowables a KeepTogether holds."""
    return flowable._content


def toc_entries(toc) -> list:
    """A TableOfContents's entries (level, text, page, key), as addEntry listed them."""
    return toc._entries


def set_toc_table(toc, table) -> None:
    """The Table a TableOfContents draws (and splits), made by its wrap."""
    toc._table = table


def toc_table(toc):
    return toc._table


def row_heights(table) -> list[float]:
    """The heights of a Table's rows, as its wrap measured them."""
    return table._rowHeights
