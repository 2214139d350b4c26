"""SVG -> ReportLab canvas, for pnp's faces: fast, exact, deterministic, no machine fonts.

    compiled = compile_svg(svg_text, resources=read_image)   # plain data, picklable
    compiled.warnings                                          # (line, message, error) each
    c.beginForm("face0", 0, 0, compiled.width, compiled.height)
    draw(compiled, c)                                          # or: form(c, compiled, "face0")
    c.endForm()
    pdf_bytes = svg_to_pdf(svg_text)                           # one page of the face's size

Why our own walk of the SVG grammar rather than svglib: measured on this project (bench/
svgpdf_bench.py, process CPU time, 2 cores), svglib spends 1.9-3.7 ms parsing a face and
renderPDF 0.6-0.8 ms drawing it, where issue 16's 500-card deck leaves under 0.5 ms per face
for both; here it is 0.13-0.29 ms to compile and 0.07-0.10 ms to draw (10-12x faster per face).
svglib also resolves fonts through fontconfig (machine-dependent) and looks them up again for
every text element; drops the space after an inline <tspan> ("**Bold**then"); silently leaves
out <image> files and raises on data: URIs. Here lxml parses (safe parser: no entities, no
network, bounded tree), one walk emits flat operations, ReportLab draws and stores fonts,
images and shadings once per document, Pillow reads images. The module never opens a file an
SVG names: images come only through the caller's `resources(href) -> bytes | None`.

Faces of one template repeat most of their structure: the root and every leaf element that
refers to nothing else are compiled once per process and replayed (through the same state
tracking, so the output is the same as a cold compile; `clear_caches()` forgets them).

Drawn: svg (nested; viewBox, preserveAspectRatio), g, a, defs, use (to symbol, svg or any
element), rect (rx/ry), circle, ellipse, line, polyline, polygon, path (all commands, arcs
as Béziers), text/tspan (x/y/dx/dy lists, text-anchor per text chunk, dominant-baseline /
alignment-baseline, letter-spacing, XML white space), image (PNG, JPEG, WebP, GIF, SVG;
files via `resources`, data: URIs), clipPath (userSpaceOnUse; objectBoundingBox on shapes),
linearGradient / radialGradient (focal point, href inheritance, gradientTransform), styles
from attributes, style="" and <style> (type, class, id and compound selectors), opacity
(group opacity is multiplied into each shape: exact unless shapes in the group overlap),
fill/stroke opacity, fill-rule, stroke width / dashes / caps / joins / miter limit,
transforms, display / visibility, colours (names, #rgb[a], #rrggbb[aa], rgb[a](), hsl[a](),
currentColor), lengths in px, pt, pc, mm, cm, in, em, ex and %.

Warned and skipped (SvgWarning, error=False): filter, mask, pattern paint (its fallback
colour is used), markers, foreignObject, switch, textPath, tref, animation, scripts,
spreadMethod reflect/repeat, gradients on strokes and text (first stop colour), per-stop
opacity that varies, rotate / textLength / word-spacing on text, text-decoration,
baseline-shift. Invalid values (a colour, length, transform, path data that does not parse,
a reference to a missing id, an image that cannot be read) are warnings with error=True:
the element is drawn as if the value were absent, and the caller reports file:line.
"""

from __future__ import annotations

import io

from pnp.render import fonts
from pnp.render.svgpdf import compiler, player
from pnp.render.svgpdf.compiler import Compiled, Resources, SvgWarning, compile_svg
from pnp.render.svgpdf.player import draw, form

__all__ = ["Compiled", "Resources", "SvgWarning", "clear_caches", "compile_svg", "draw", "form", "svg_to_pdf"]


def clear_caches() -> None:
    """Forget what earlier compiles and draws kept (parsed values, shared roots and elements, path
    text): a process starts like this. Output never depends on it; time and memory do."""
    for cache in (compiler._MEMO, compiler._ROOTS, compiler._PARSED, compiler._OPS_MEMO, compiler._LINE_MEMO,
                  compiler._image_cache, player._PATHS, player._LITERALS):
        cache.clear()


def svg_to_pdf(svg: "str | bytes | Compiled", *, resources: Resources | None = None) -> bytes:
    """One PDF page of the SVG's size with the SVG drawn on it (ReportLab invariant mode: the
    same SVG gives the same bytes)."""
    from reportlab.pdfgen.canvas import Canvas  # lazy: 5.0 ms (reportlab.pdfgen.canvas)

    compiled = svg if isinstance(svg, Compiled) else compile_svg(svg, resources=resources)
    fonts.ensure(fonts.REGULAR)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(max(compiled.width, 1.0), max(compiled.height, 1.0)), invariant=1,
               pageCompression=1, initialFontName=fonts.REGULAR)
    draw(compiled, c)
    c.showPage()
    c.save()
    return buf.getvalue()
