"""Play a `Compiled` SVG on a ReportLab canvas.

Path geometry goes out as PDF path operators through `Canvas.addLiteral` (numbers formatted by
ReportLab's own `fp_str`); everything that needs a resource of the document (fonts and their
subsets, alpha states, shadings, images, forms) goes through the canvas API, so ReportLab
embeds and shares them: each font subset, image and SVG image once per document.
"""

from __future__ import annotations

import io
import struct

from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import (
    PDFArrayCompact,
    PDFAxialShading,
    PDFExponentialFunction,
    PDFRadialShading,
    PDFResourceDictionary,
    PDFStitchingFunction,
)
from reportlab.pdfbase.pdfmetrics import getFont

from pnp.render import fonts, reportlab_internals as rl
from pnp.render.spool import StreamSpool
from pnp.render.svgpdf.compiler import Compiled, FileImage, image_bytes
from pnp.spooled import SpooledFile

rl.install_deflate()  # every stream ReportLab deflates goes through zlib-ng (rl.deflate)

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
    for name in names:
        if not fonts.ensure(name):
            pdfmetrics.getFont(name)  # not one of ours: it must already be registered by the caller


def _shading(kind: str, coords, stops, extend: bool):
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
        rl.need_transparency(c)
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
    shadings = rl.shadings_used(c)  # the form's own accumulator, gone after endForm
    c.endForm()
    form = rl.form_object(c, name)
    colours = rl.form_colours_used(form)
    if not (form.XObjects or form.ExtGState or shadings or colours):
        form.Resources = rl.basic_resources(rl.document(c))  # (most faces: one text, formatted once for the document)
        rl.fonts_only(form)  # (written as ReportLab writes it, without its general formatting)
        return
    res = PDFResourceDictionary()
    res.basicFonts()
    res.allProcs()
    if form.XObjects:
        res.XObject = form.XObjects
    if form.ExtGState:
        res.ExtGState = form.ExtGState
    res.setShading(shadings)
    res.setColorSpace(colours or {})
    form.Resources = res


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
    if not rl.is_subsetting_font(font):
        return None
    doc = rl.document(c)  # the document the subsets belong to (what ReportLab's own text objects use)
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


def _image(c, key: str, image: bytes | FileImage, box) -> None:
    """A raster image, stored once per document: a 1x1 form holding the image XObject, keyed by
    the file's content, drawn as often as it is used (a FileImage's file read then, once)."""
    name = f"svgpdf_img_{key}"
    if not c.hasForm(name):
        data = image_bytes(image)
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
    canvas._pnp_streams = StreamSpool()


def splice(pdf: bytes, canvas) -> bytes | SpooledFile:
    """The saved `pdf` of a canvas given to `defer_streams`, with each placeholder replaced by its pixel data,
    its /Length, the cross-reference table and startxref updated (rl.splice_streams_into). Art of more than
    pnp.render.spool.SPOOL_FROM bytes waited on disk, and the PDF is written to a file (a SpooledFile, read back
    in chunks when it is published): the same bytes, never all in memory."""
    streams: StreamSpool | None = getattr(canvas, "_pnp_streams", None)
    if not streams:
        return pdf
    try:
        if not streams.spilled:
            return rl.splice_streams(pdf, streams.held)
        out = SpooledFile()
        rl.splice_streams_into(pdf, streams.lengths(), streams.read, out.file)
        out.file.flush()
        return out
    finally:
        streams.close()
        canvas._pnp_streams = StreamSpool()


def _png_passthrough(c, key: str, data: bytes) -> bool:
    """Draw a PNG into the unit square by copying its compressed pixels into the image XObject (no decoding,
    no re-compression: the PDF holds the file's own IDAT data, so it is about the PNG's size); False when the
    PNG is of a kind that needs decoding (alpha, palette, 16 bits, interlaced), which ReportLab then does."""
    found = png_stream(data)
    if found is None:
        return False
    width, height, colours, stream = found
    name = f"png{key}"
    reg = rl.xobject_name(c, name)
    if not rl.has_xobject(c, reg):
        deferred = getattr(c, "_pnp_streams", None)
        if deferred is not None:  # the caller splices the pixels in after saving (defer_streams)
            placeholder = f"pnp-deferred-image-{key}-{len(deferred)}".encode()
            deferred[placeholder] = stream
            stream = placeholder
        img = rl.pass_through_png(name, width, height, colours, stream)
        rl.register_xobject(c, img)
        rl.add_xobject(c, name, img, reg)
    c.saveState()
    rl.page_code(c).append(f"/{reg} Do")
    c.restoreState()
    rl.use_form(c, name)
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
    rl.add_xobject(canvas, name, rl.new_fonts_only_form(canvas, compiled.width, compiled.height, code))
    return name
