"""Play a `Compiled` SVG on a ReportLab canvas.

Path geometry goes out as PDF path operators through `Canvas.addLiteral` (numbers formatted by
ReportLab's own `fp_str`); everything that needs a resource of the document (fonts and their
subsets, alpha states, shadings, images, forms) goes through the canvas API, so ReportLab
embeds and shares them: each font subset, image and SVG image once per document.
"""

from __future__ import annotations

import io

from reportlab.lib.rl_accel import fp_str

from pnp.render import fonts
from pnp.render.svgpdf.compiler import Compiled

_SEG = {"M": " m", "L": " l", "C": " c", "R": " re"}


def _path(segs) -> str:
    return " ".join("h" if s[0] == "Z" else fp_str(*s[1:]) + _SEG[s[0]] for s in segs)


def _ensure_fonts(names) -> None:
    from reportlab.pdfbase import pdfmetrics

    for name in names:
        if not fonts.ensure(name):
            pdfmetrics.getFont(name)  # not one of ours: it must already be registered by the caller


def _shading(kind: str, coords, stops, extend: bool):
    from reportlab.pdfbase.pdfdoc import (PDFArrayCompact, PDFAxialShading, PDFExponentialFunction,
                                          PDFRadialShading, PDFStitchingFunction)

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
    """Draw `compiled` on `canvas` with its box at (0, 0)-(width, height) of the current user space
    (points, y up): inside a form XObject of that size, or anywhere on a page."""
    _ensure_fonts(compiled.fonts)
    c = canvas
    lit = c.addLiteral
    flip = 1 if getattr(c, "bottomup", 1) else -1
    # Colours, line style, matrices and text state go out as PDF operators: every compiled list
    # is bracketed by q ... Q (canvas.saveState / restoreState), so what ReportLab tracks of the
    # graphics state is the same again after it. Alphas, fonts, shadings and images use the
    # canvas API, which registers their resources.
    for op in compiled.ops:
        k = op[0]
        if k == "path":
            lit(_path(op[1]) + " " + op[2])
        elif k == "rg":
            lit(f"{fp_str(op[1], op[2], op[3])} rg")
        elif k == "RG":
            lit(f"{fp_str(op[1], op[2], op[3])} RG")
        elif k == "q":
            c.saveState()
        elif k == "Q":
            c.restoreState()
        elif k == "cm":
            lit(f"{fp_str(*op[1:])} cm")
        elif k == "text":
            t = c.beginText()
            t.setTextTransform(1, 0, 0, -flip, op[3], op[4])  # y-down user space: glyphs upright
            t.setFont(op[1], op[2])
            t.textOut(op[5])
            c.drawText(t)
        elif k == "w":
            lit(f"{fp_str(op[1])} w")
        elif k == "ca":
            c.setFillAlpha(op[1])
        elif k == "CA":
            c.setStrokeAlpha(op[1])
        elif k == "J" or k == "j":
            lit(f"{op[1]} {k}")
        elif k == "M":
            lit(f"{fp_str(op[1])} M")
        elif k == "d":
            lit(f"[{fp_str(*op[1])}] {fp_str(op[2])} d" if op[1] else "[] 0 d")
        elif k == "Tc":
            lit(f"{fp_str(op[1])} Tc")
        elif k == "Tr":
            lit(f"{op[1]} Tr")
        elif k == "clip":
            lit(_path(op[1]) + (" W* n" if op[2] else " W n"))
        elif k == "shade":
            c.shade(_shading(op[1], op[2], op[3], op[4]))
        elif k == "image":
            _image(c, op[1], compiled.images[op[1]], op[2:])
        elif k == "svg":
            _svg(c, op[1], compiled.svgs[op[1]], op[2:])


def _image(c, key: str, data: bytes, box) -> None:
    """A raster image, stored once per document: a 1x1 form holding the image XObject, keyed by
    the file's content, drawn as often as it is used."""
    name = f"svgpdf_img_{key}"
    if not c.hasForm(name):
        from reportlab.lib.utils import ImageReader

        c.beginForm(name, 0, 0, 1, 1)
        c.drawImage(ImageReader(io.BytesIO(data)), 0, 0, 1, 1, mask="auto")
        c.endForm()
    x, y, w, h = box
    c.saveState()
    c.transform(w, 0, 0, -h, x, y + h)  # y-down box -> the unit square, upright
    c.doForm(name)
    c.restoreState()


def _svg(c, key: str, nested: Compiled, box) -> None:
    """An SVG image: compiled once, drawn once per document as a form, placed like a raster."""
    name = f"svgpdf_svg_{key}"
    if not c.hasForm(name):
        c.beginForm(name, 0, 0, nested.width, nested.height)
        draw(nested, c)
        c.endForm()
    x, y, w, h = box
    c.saveState()
    c.transform(w / nested.width, 0, 0, -h / nested.height, x, y + h)
    c.doForm(name)
    c.restoreState()


def form(canvas, compiled: Compiled, name: str) -> str:
    """Define `compiled` as the form XObject `name` (once per document) and return the name;
    `canvas.doForm(name)` then draws it with its box at the origin, size in points."""
    if not canvas.hasForm(name):
        canvas.beginForm(name, 0, 0, compiled.width, compiled.height)
        draw(compiled, canvas)
        canvas.endForm()
    return name
