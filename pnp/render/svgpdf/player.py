"""Play a `Compiled` SVG on a ReportLab canvas.

Path geometry goes out as PDF path operators through `Canvas.addLiteral` (numbers formatted by
ReportLab's own `fp_str`); everything that needs a resource of the document (fonts and their
subsets, alpha states, shadings, images, forms) goes through the canvas API, so ReportLab
embeds and shares them: each font subset, image and SVG image once per document.
"""

from __future__ import annotations

import io
import re
import types
import zlib

from reportlab import rl_config
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import NoEncryption, PDFFormXObject, PDFResourceDictionary
from reportlab.pdfbase.pdfmetrics import getFont
from zlib_ng import zlib_ng

from pnp.render import fonts
from pnp.render.svgpdf.compiler import Compiled

DEFLATE_LEVEL = 6  # zlib's default: the same sizes as zlib's streams (within 1 %)


def deflate(data: bytes) -> bytes:
    """A PDF stream's /FlateDecode data, by zlib-ng: at the same level, 1.7x faster than zlib on every shipped
    design's streams (page contents, fonts, images, forms: 8.9 MB in 143 ms against 249; 0.6 MB of a 500-card
    deck's in 20 ms against 23), and the same bytes in every run (zlib-ng's version is part of the cache's key)."""
    return zlib_ng.compress(data, DEFLATE_LEVEL)


class _ZlibForReportLab(types.ModuleType):
    """zlib as ReportLab's pdfdoc sees it: every stream it deflates (page contents, font files, images) goes
    through `deflate`; the rest is zlib's."""

    compress = staticmethod(deflate)

    def __getattr__(self, name: str):
        return getattr(zlib, name)


pdfdoc.zlib = _ZlibForReportLab("zlib")  # (it calls zlib.compress(data) by the module's global)

_OPERATOR = {"M": "%s %s m", "L": "%s %s l", "C": "%s %s %s %s %s %s c", "R": "%s %s %s %s re", "Z": "h"}
_TEMPLATES: dict[str, str] = {}


def _path(letters: str, nums) -> str:
    """PDF path operators: all numbers formatted by one fp_str call into a template per letter string
    (a face repeats a few shapes: rect "R", circle "MCCCCZ", triangle "MLLZ"...). Faces of one
    template share most of their geometry, so the text of each path is kept (bounded)."""
    key = (letters, nums)
    code = _PATHS.get(key)
    if code is not None:
        return code
    t = _TEMPLATES.get(letters)
    if t is None:
        if len(_TEMPLATES) > 4096:
            _TEMPLATES.clear()
        t = _TEMPLATES[letters] = " ".join(_OPERATOR[k] for k in letters)
    code = t % tuple(_fmt(*nums).split(" ")) if nums else t
    if len(_PATHS) > 20000:
        _PATHS.clear()
    _PATHS[key] = code
    return code


_PATHS: dict[tuple, str] = {}


def _fmt(*nums) -> str:
    """Numbers as PDF text (ReportLab's fp_str); the compiler bounds what it emits, and this
    clamps whatever still is not a finite PDF number rather than fail."""
    try:
        out = fp_str(*nums)
        if "n" not in out:  # nan
            return out
    except ValueError:
        pass
    return fp_str(*[min(max(v, -1e12), 1e12) if v == v else 0.0 for v in nums])


def _ensure_fonts(names) -> None:
    from reportlab.pdfbase import pdfmetrics

    for name in names:
        if not fonts.ensure(name):
            pdfmetrics.getFont(name)  # not one of ours: it must already be registered by the caller


def _shading(kind: str, coords, stops, extend: bool):
    from reportlab.pdfbase.pdfdoc import (
        PDFArrayCompact,
        PDFAxialShading,
        PDFExponentialFunction,
        PDFRadialShading,
        PDFStitchingFunction,
    )

    pts = list(stops)
    if pts[0][0] > 0:
        pts.insert(0, (0.0, *pts[0][1:]))
    if pts[-1][0] < 1:
        pts.append((1.0, *pts[-1][1:]))
    # PDF wants strictly increasing bounds: a hard stop (two stops at one offset) is nudged by 1e-5
    for i in range(1, len(pts)):
        if pts[i][0] <= pts[i - 1][0]:
            pts[i] = (min(pts[i - 1][0] + 1e-5, 1.0), *pts[i][1:])
    funcs = [PDFExponentialFunction(C0=list(a[1:]), C1=list(b[1:]), N=1) for a, b in zip(pts, pts[1:])]
    if len(funcs) == 1:
        fn = funcs[0]
    else:
        fn = PDFStitchingFunction(funcs, [p[0] for p in pts[1:-1]], [0.0, 1.0] * len(funcs),
                                  Domain=PDFArrayCompact((0.0, 1.0)))
    ext = "[true true]" if extend else "[false false]"
    if kind == "axial":
        return PDFAxialShading(*coords, Function=fn, ColorSpace="DeviceRGB", Extend=ext)
    return PDFRadialShading(*coords, Function=fn, ColorSpace="DeviceRGB", Extend=ext)


def draw(compiled: Compiled, canvas) -> None:
    """Draw `compiled` on `canvas` (a bottom-up ReportLab canvas, the default) with its box at
    (0, 0)-(width, height) of the current user space (points, y up): inside a form XObject of
    that size, or anywhere on a page."""
    _ensure_fonts(compiled.fonts)
    c = canvas
    # Paths, colours, line style, matrices, text state and TrueType text go out as PDF operators,
    # gathered and handed to the canvas in one piece before each canvas call. Every compiled list
    # is bracketed by q ... Q (canvas.saveState / restoreState), so what ReportLab tracks of the
    # graphics state is the same again after it. Alphas, shadings, images and forms use the
    # canvas API, which registers their resources.
    out: list[str] = []
    add = out.append
    for op in compiled.ops:
        k = op[0]
        if k in _OPERATORS:
            code = _code(c, op)
            if code is not None:
                add(code)
            else:  # text in a font that is not TrueType
                _flush(c, out)
                _text_object(c, op[1], op[2], op[3], op[4], op[5])
        else:
            _flush(c, out)
            if k == "q":
                c.saveState()
            elif k == "Q":
                c.restoreState()
            elif k == "ca":
                c.setFillAlpha(op[1])
            elif k == "CA":
                c.setStrokeAlpha(op[1])
            elif k == "shade":
                c.shade(_shading(op[1], op[2], op[3], op[4]))
            elif k == "image":
                _image(c, op[1], compiled.images[op[1]], op[2:])
            elif k == "svg":
                _svg(c, op[1], compiled.svgs[op[1]], op[2:])
    _flush(c, out)


def _code(c, op: tuple) -> str | None:
    """The PDF operators of one path, state, text or clip operation; None for text in a font that is not
    TrueType (the canvas draws it)."""
    k = op[0]
    if k == "path":
        return _path(op[1], op[2]) + " " + op[3]
    if k == "text":
        return _text_code(c, op[1], op[2], op[3], op[4], op[5])
    if k == "clip":
        return _path(op[1], op[2]) + (" W* n" if op[3] else " W n")
    code = _LITERALS.get(op)
    return code if code is not None else _literal(op)


def _operators_only(c, compiled: Compiled) -> list[str] | None:
    """The content of `compiled`'s form as beginForm, draw and endForm make it (operator runs joined by
    newlines, and each q and Q), for a face drawn with PDF operators alone: paths, colours, line styles,
    matrices, clips, TrueType text, and alphas of 1 only (which the canvas writes nothing for: a form starts
    opaque). None for one that needs the canvas (another alpha, a shading, an image, a nested SVG, a font that
    is not TrueType)."""
    ops = compiled.ops
    alpha = False
    for op in ops:
        k = op[0]
        if k not in _OPERATORS_AND_STATE:
            if k not in _ALPHAS or op[1] != 1.0:
                return None
            alpha = True
    if alpha:  # (setting an alpha, even 1, makes the document PDF 1.4, as the canvas does)
        c._doc.ensureMinPdfVersion("transparency")
    _ensure_fonts(compiled.fonts)
    code: list[str] = []
    out: list[str] = []
    for op in ops:
        k = op[0]
        if k == "q" or k == "Q":
            if out:
                code.append("\n".join(out))
                out.clear()
            code.append(k)
        elif k not in _ALPHAS:
            text = _code(c, op)
            if text is None:
                return None
            out.append(text)
    if out:
        code.append("\n".join(out))
    return code


def end_form(c, name: str) -> None:
    """`c.endForm()`, then give the form the resources it uses. ReportLab 5.1's form XObjects list
    only fonts and nested forms: an alpha state (ExtGState), a gradient (Shading) or a colour space
    used inside a form was found only in the page's resources, which viewers may refuse ("ExtGState
    'gRLs0' is unknown")."""
    from reportlab.pdfbase.pdfdoc import xObjectName

    shadings = dict(c._shadingUsed)  # the form's own accumulator, gone after endForm
    c.endForm()
    form = c._doc.idToObject[xObjectName(name)]
    if not (form.XObjects or form.ExtGState or shadings or getattr(form, "_colorsUsed", None)):
        form.Resources = _basic_resources(c._doc)  # (most faces: one text, formatted once for the document)
        form.__class__ = _Form  # (written as ReportLab writes it, without its general formatting)
        return
    res = PDFResourceDictionary()
    res.basicFonts()
    res.allProcs()
    if form.XObjects:
        res.XObject = form.XObjects
    if form.ExtGState:
        res.ExtGState = form.ExtGState
    res.setShading(shadings)
    res.setColorSpace(getattr(form, "_colorsUsed", None) or {})
    form.Resources = res


def _basic_resources(doc):
    """The resources of a form that uses only fonts: the same for every such form of `doc`, whose text is
    made once (as ReportLab writes it: the document's fonts and every procedure set)."""
    res = getattr(doc, "_pnp_basic_resources", None)
    if res is None:
        res = doc._pnp_basic_resources = _BasicResources()
        res.basicFonts()
        res.allProcs()
    return res


class _BasicResources(PDFResourceDictionary):
    _text: bytes | None = None

    def format(self, document):
        if self._text is None:
            self._text = super().format(document)
        return self._text


class _Form(PDFFormXObject):
    """A face's form XObject that uses only fonts (end_form): the same bytes as ReportLab's
    PDFFormXObject.format writes with pnp's settings (Flate, one line, no encryption), put together
    directly; ReportLab's general formatting of its dictionary was a third of a 500-card PDF's time.
    Any other setting: ReportLab's own."""

    def format(self, document):
        if (self.Annots or self.Contents or self.BBox or self.Matrix or not self.compression or not self.stream
                or rl_config.useA85 or rl_config.pdfMultiLine or not isinstance(document.encrypt, NoEncryption)
                or not isinstance(self.Resources, _BasicResources)):
            return super().format(document)
        data = deflate(self.stream)
        box = fp_str(self.lowerx, self.lowery, self.upperx, self.uppery).encode("ascii")
        return (b"<<\n/BBox [ " + box + b" ] /Filter [ /FlateDecode ] /FormType 1 /Length " + str(len(data)).encode()
                + b" /Matrix [ 1 0 0 1 0 0 ] /Resources " + self.Resources.format(document)
                + b" \n  /Subtype /Form /Type /XObject\n>>\nstream\n" + data + b"endstream\n")


def _flush(c, out: list[str]) -> None:
    if out:
        c.addLiteral("\n".join(out))  # the canvas joins its stream with newlines too
        out.clear()


_STATE = {"rg", "RG", "cm", "w", "J", "j", "M", "d", "Tc", "Tr"}
_OPERATORS = _STATE | {"path", "text", "clip"}  # what draw writes as operators, not through the canvas API
_OPERATORS_AND_STATE = _OPERATORS | {"q", "Q"}
_ALPHAS = {"ca", "CA"}  # fill and stroke alpha: of 1 everywhere in a face, the canvas writes nothing for them
_LITERALS: dict[tuple, str] = {}  # a state operation -> its PDF text (faces repeat a few colours and widths)


def _literal(op: tuple) -> str:
    k = op[0]
    if k == "d":
        code = f"[{_fmt(*op[1])}] {_fmt(op[2])} d" if op[1] else "[] 0 d"
    elif k in ("J", "j", "Tr"):
        code = f"{op[1]} {k}"
    else:
        code = f"{_fmt(*op[1:])} {k}"
    if len(_LITERALS) > 10000:
        _LITERALS.clear()
    _LITERALS[op] = code
    return code


def _text_code(c, name: str, size: float, x: float, y: float, text: str) -> str | None:
    """One run of text as PDF operators, baseline start at (x, y) of the y-down user space,
    glyphs upright; None for a font that is not TrueType. A TrueType font (all of pnp's) is
    written the way ReportLab's ttfonts module documents it: the text split into the font's
    subsets, each named by getSubsetInternalName (which registers the subset for embedding)."""
    font = getFont(name)
    if not (getattr(font, "_dynamicFont", False) and hasattr(font, "splitString")):
        return None
    doc = c._doc  # the document the subsets belong to (what ReportLab's own text objects use)
    size_s = _fmt(size)
    parts = [f"{font.getSubsetInternalName(subset, doc)} {size_s} Tf ({escapePDF(chunk)}) Tj"
             for subset, chunk in font.splitString(text, doc)]
    return f"BT 1 0 0 -1 {_fmt(x, y)} Tm {' '.join(parts)} ET"


def _text_object(c, name: str, size: float, x: float, y: float, text: str) -> None:
    t = c.beginText()
    t.setTextTransform(1, 0, 0, -1 if c.bottomup else 1, x, y)
    t.setFont(name, size)
    t.textOut(text)
    c.drawText(t)


def _image(c, key: str, data: bytes, box) -> None:
    """A raster image, stored once per document: a 1x1 form holding the image XObject, keyed by
    the file's content, drawn as often as it is used."""
    name = f"svgpdf_img_{key}"
    if not c.hasForm(name):
        from reportlab.lib.utils import ImageReader

        c.beginForm(name, 0, 0, 1, 1)
        if not _png_passthrough(c, key, data):
            c.drawImage(ImageReader(io.BytesIO(data)), 0, 0, 1, 1, mask="auto")
        end_form(c, name)
    x, y, w, h = box
    c.saveState()
    c.transform(w, 0, 0, -h, x, y + h)  # y-down box -> the unit square, upright
    c.doForm(name)
    c.restoreState()


def png_stream(data: bytes) -> tuple[int, int, int, bytes] | None:
    """(width, height, colours, zlib data) of a PNG whose compressed pixels a PDF can hold as they are (8-bit
    grey or RGB, no alpha, no transparency, not interlaced: PDF's Flate filter with PNG predictors reads them),
    else None."""
    import struct

    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return None
    pos, idat, head = 8, [], None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if len(body) != length:
            return None
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind in (b"tRNS", b"PLTE"):
            return None
        elif kind == b"IEND":
            break
        pos += 12 + length
    if head is None or not idat:
        return None
    width, height, depth, colour, compression, filtering, interlace = head
    if depth != 8 or colour not in (0, 2) or compression or filtering or interlace:
        return None
    return width, height, 3 if colour == 2 else 1, b"".join(idat)


def defer_streams(canvas) -> None:
    """Keep the pixel data of pass-through PNGs out of ReportLab: it then writes a short placeholder in each
    image's stream, and `splice(pdf, canvas)` puts the pixels in the saved file. ReportLab formats a document
    in memory, copying each stream several times (objects, formatted parts, the joined file, the buffer):
    with 600 MB of card art that is 3 GB; spliced, the art is held twice (its bytes and the file)."""
    canvas._pnp_streams = {}


def splice(pdf: bytes, canvas) -> bytes:
    """The saved `pdf` of a canvas given to `defer_streams`, with each placeholder replaced by its pixel data,
    its /Length, the cross-reference table and startxref updated."""
    import bisect

    streams: dict[bytes, bytes] = getattr(canvas, "_pnp_streams", None) or {}
    if not streams:
        return pdf
    edits: list[tuple[int, int, bytes]] = []
    for placeholder, data in streams.items():
        at = pdf.find(placeholder)
        length = pdf.rfind(b"/Length ", max(0, at - 4096), at)
        m = re.match(rb"/Length (\d+)", pdf[length:length + 32]) if at >= 0 and length >= 0 else None
        if m is None or int(m.group(1)) != len(placeholder):
            raise RuntimeError("svgpdf.splice: a deferred image stream is not where ReportLab should have put it")
        edits.append((length, length + m.end(), b"/Length %d" % len(data)))
        edits.append((at, at + len(placeholder), data))
    edits.sort(key=lambda e: e[0])
    starts = [e[0] for e in edits]
    shift, total = [], 0
    for start, end, new in edits:
        total += len(new) - (end - start)
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
    parts, pos = [], 0
    for start, end, new in edits:
        parts += [pdf[pos:start], new]
        pos = end
    parts += [pdf[pos:xref], pdf[xref:table_at], *entries, tail]
    canvas._pnp_streams = {}
    return b"".join(parts)


def _png_passthrough(c, key: str, data: bytes) -> bool:
    """Draw a PNG into the unit square by copying its compressed pixels into the image XObject (no decoding,
    no re-compression: the PDF holds the file's own IDAT data, so it is about the PNG's size); False when the
    PNG is of a kind that needs decoding (alpha, palette, 16 bits, interlaced), which ReportLab then does."""
    found = png_stream(data)
    if found is None:
        return False
    from reportlab.pdfbase import pdfdoc

    width, height, colours, stream = found

    class _PngImage(pdfdoc.PDFImageXObject):
        def format(self, document):
            S = pdfdoc.PDFStream(content=self.streamContent)
            d = S.dictionary
            d["Type"] = pdfdoc.PDFName("XObject")
            d["Subtype"] = pdfdoc.PDFName("Image")
            d["Width"], d["Height"], d["BitsPerComponent"] = self.width, self.height, 8
            d["ColorSpace"] = pdfdoc.PDFName(self.colorSpace)
            d["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName("FlateDecode")])
            d["DecodeParms"] = pdfdoc.PDFArray([pdfdoc.PDFDictionary({  # one per filter, as Filter is an array
                "Predictor": 15, "Colors": colours, "BitsPerComponent": 8, "Columns": self.width})])
            d["Length"] = len(self.streamContent)
            S.filters = []  # the content is already compressed: written as it is
            return S.format(document)

    name = f"png{key}"
    reg = c._doc.getXObjectName(name)
    if c._doc.idToObject.get(reg) is None:
        img = _PngImage(name)
        img.width, img.height = width, height
        img.colorSpace = "DeviceRGB" if colours == 3 else "DeviceGray"
        deferred = getattr(c, "_pnp_streams", None)
        if deferred is not None:  # the caller splices the pixels in after saving (defer_streams)
            placeholder = f"pnp-deferred-image-{key}-{len(deferred)}".encode()
            deferred[placeholder] = stream
            stream = placeholder
        img.streamContent = stream
        img.mask = None
        c._setXObjects(img)
        c._doc.Reference(img, reg)
        c._doc.addForm(name, img)
    c.saveState()
    c._code.append(f"/{reg} Do")
    c.restoreState()
    c._formsinuse.append(name)
    return True


def _svg(c, key: str, nested: Compiled, box) -> None:
    """An SVG image: compiled once, drawn once per document as a form, placed like a raster."""
    name = f"svgpdf_svg_{key}"
    if not c.hasForm(name):
        c.beginForm(name, 0, 0, nested.width, nested.height)
        draw(nested, c)
        end_form(c, name)
    x, y, w, h = box
    c.saveState()
    c.transform(w / nested.width, 0, 0, -h / nested.height, x, y + h)
    c.doForm(name)
    c.restoreState()


def form(canvas, compiled: Compiled, name: str) -> str:
    """Define `compiled` as the form XObject `name` (once per document) and return the name;
    `canvas.doForm(name)` then draws it with its box at the origin, size in points.

    A face drawn with operators alone (most: paths, colours, TrueType text) becomes its form directly, with
    the bytes beginForm, draw and endForm write, without the canvas's bookkeeping of a form's graphics state
    and accumulators (0.096 -> 0.067 ms a form of the 500-card bench deck); any other through the canvas."""
    if canvas.hasForm(name):
        return name
    code = _operators_only(canvas, compiled)
    if code is None:
        canvas.beginForm(name, 0, 0, compiled.width, compiled.height)
        draw(compiled, canvas)
        end_form(canvas, name)
        return name
    made = _Form(0, 0, compiled.width, compiled.height)
    made.compression = canvas._pageCompression
    made.setStreamList([canvas._preamble] + code)
    made.Resources = _basic_resources(canvas._doc)
    canvas._doc.addForm(name, made)
    return name
