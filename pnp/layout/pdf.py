"""Sheets -> one PDF, with ReportLab.

Each distinct SVG face is compiled once by pnp.render.svgpdf and drawn into a PDF form
XObject; every copy on every sheet is a reference to that form, clipped to its cell. Faces
are compiled when their first copy is placed and not kept (a 10,000-card deck streams),
except in a cache's bounded memory (pnp watch). Output is deterministic (ReportLab's
invariant mode: fixed dates and ids).
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Mapping

from reportlab.lib.colors import Color, black, white
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas

from pnp import products
from pnp.cache import NO_CACHE, Cache
from pnp.layout.sheets import LayoutConfig, Sheet, load_config
from pnp.render import fonts, reportlab_internals as rl
from pnp.render.svgpdf import Compiled, Resources, SvgWarning, compile_svg, form
from pnp.render.svgpdf.player import defer_streams, splice
from pnp.render.typography import typeset
from pnp.spooled import SpooledFile
from pnp.units import mm_to_pt as pt
from pnp.words import say

rl.use_binary_streams()  # smaller files, no ASCII85 encoding pass

GREY = Color(0.35, 0.35, 0.35)

OnWarning = Callable[[str, SvgWarning], None]
"""(face name, warning) for what the renderer could not draw as written."""


def compile_face(svg_text: str, cache: Cache = NO_CACHE, resources: Resources | None = None,
                 ready: Compiled | None = None) -> Compiled:
    """An SVG face compiled for drawing; with a cache, each distinct SVG once per process (bounded).
    `ready`: the face already compiled (where it was painted: pnp.render.faces.paint_compiled)."""
    def make() -> Compiled:
        return ready if ready is not None else compile_svg(svg_text, resources=resources)

    if not cache.remembers:
        return cache.memo("compiled", "", make)
    return cache.memo("compiled", products.COMPILED_FACE.key(face_svg=svg_text), make)


def define_form(c: Canvas, name: str, compiled: Compiled) -> str:
    """`compiled` as the form XObject `name` of the canvas's document; `c.doForm(name)` draws it."""
    return form(c, compiled, name)


def render_pdf(sheets: list[Sheet], svgs: Mapping[str, str], *, title: str, author: str = "",
               subject: str = "", cfg: LayoutConfig | None = None, cache: Cache = NO_CACHE,
               resources: Resources | None = None, on_warning: OnWarning | None = None,
               transform: Callable[[Compiled], Compiled] | None = None,
               compiled: dict[str, Compiled] | None = None) -> bytes | SpooledFile:
    """The PDF bytes of `sheets`; `svgs` maps each face key to its SVG text. With more card art than
    pnp.render.spool.SPOOL_FROM, the PDF is a SpooledFile instead (on disk, read in chunks when published).

    `transform` changes each compiled face before it is drawn (the ink saver of
    pnp.render.svgpdf.ink lightens its large fills).

    Each face is compiled when its first copy is placed (or taken out of `compiled`, face key -> its
    drawing compiled where it was painted); what the renderer could not draw as written goes to
    `on_warning(face, warning)`.
    """
    cfg = cfg or load_config()
    fonts.register_furniture()
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1, pageCompression=1, initialFontName=fonts.REGULAR, initialFontSize=7)
    c.setTitle(title)
    c.setAuthor(author)
    c.setSubject(subject)
    c.setCreator("pnp")
    defer_streams(c)  # card art goes into the file after ReportLab has made it (memory: see defer_streams)
    forms: dict[str, str] = {}
    for sheet in sheets:
        c.setPageSize((pt(sheet.width), pt(sheet.height)))
        for pl in sheet.placed:
            if pl.face not in forms:
                svg = svgs[pl.face]  # (may wait for the face to be painted, and fill `compiled`)
                face = compile_face(svg, cache, resources, compiled.pop(pl.face, None) if compiled else None)
                if transform is not None:
                    face = transform(face)
                if on_warning is not None:
                    for warning in face.warnings:
                        on_warning(pl.face, warning)
                forms[pl.face] = define_form(c, f"face{len(forms)}", face)
        _draw_sheet(c, sheet, forms, title, cfg)
        c.showPage()
    c.save()
    pdf = buf.getvalue()
    buf.close()
    return splice(pdf, c)


def _draw_sheet(c: Canvas, sheet: Sheet, forms: dict[str, str], title: str, cfg: LayoutConfig) -> None:
    if sheet.trim_box:
        c.setTrimBox(tuple(pt(v) for v in sheet.trim_box))
    if sheet.bleed_box:
        c.setBleedBox(tuple(pt(v) for v in sheet.bleed_box))
    code = rl.page_code(c)
    for pl in sheet.placed:
        if pl.clip and not pl.clip_path and not pl.rotate and pl.scale == 1:
            # the common placement, written as the canvas calls below write it (q, clip, cm, Do and Q leave the
            # canvas's own state as it was), without their per-call bookkeeping: 1000s of copies on a deck
            x0, y0, x1, y1 = pl.clip
            code += ["q", f"n {fp_str(pt(x0), pt(y0), pt(x1 - x0), pt(y1 - y0))} re "
                          f"{'W*' if rl.fill_mode(c) == FILL_EVEN_ODD else 'W'} n",
                     f"{fp_str(1, 0, 0, 1, pt(pl.x - pl.bleed), pt(pl.y - pl.bleed))} cm",
                     f"/{rl.xobject_name(c, forms[pl.face])} Do", "Q"]
            rl.use_form(c, forms[pl.face])
            continue
        if pl.clip and not pl.clip_path and pl.rotate in (90, 270):
            # a quarter turn (the cards of most sheets), written as the canvas calls below write it: the clip,
            # then translate, rotate, translate merged into one cm as the canvas merges them (_merged_cm)
            x0, y0, x1, y1 = pl.clip
            code += ["q", f"n {fp_str(pt(x0), pt(y0), pt(x1 - x0), pt(y1 - y0))} re "
                          f"{'W*' if rl.fill_mode(c) == FILL_EVEN_ODD else 'W'} n",
                     _merged_cm([(1, 0, 0, 1, pt(pl.x + pl.w / 2), pt(pl.y + pl.h / 2)), _rotation(pl.rotate),
                                 (1, 0, 0, 1, -pt(pl.h / 2 + pl.bleed), -pt(pl.w / 2 + pl.bleed))]),
                     f"/{rl.xobject_name(c, forms[pl.face])} Do", "Q"]
            rl.use_form(c, forms[pl.face])
            continue
        c.saveState()
        if pl.clip_path:
            c.clipPath(shape_path(c, pl.clip_path), stroke=0, fill=0, fillMode=FILL_NON_ZERO)
        elif pl.clip or pl.clip_poly:
            path = c.beginPath()
            if pl.clip:
                x0, y0, x1, y1 = pl.clip
                path.rect(pt(x0), pt(y0), pt(x1 - x0), pt(y1 - y0))
            else:
                (fx, fy), *rest = pl.clip_poly  # type: ignore[misc]
                path.moveTo(pt(fx), pt(fy))
                for x, y in rest:
                    path.lineTo(pt(x), pt(y))
                path.close()
            c.clipPath(path, stroke=0, fill=0)
        if pl.rotate in (90, 270):  # a quarter turn: the w x h box holds the face lying on its side
            c.translate(pt(pl.x + pl.w / 2), pt(pl.y + pl.h / 2))
            c.rotate(pl.rotate)
            c.translate(-pt(pl.h / 2 + pl.bleed), -pt(pl.w / 2 + pl.bleed))
            c.doForm(forms[pl.face])
            c.restoreState()
            continue
        if pl.rotate:
            cx, cy = pt(pl.x + pl.w / 2), pt(pl.y + pl.h / 2)
            c.translate(cx, cy)
            c.rotate(pl.rotate)
            c.translate(-cx, -cy)
        c.translate(pt(pl.x - pl.bleed * pl.scale), pt(pl.y - pl.bleed * pl.scale))
        if pl.scale != 1:
            c.scale(pl.scale, pl.scale)
        c.doForm(forms[pl.face])
        c.restoreState()
    c.setStrokeColor(black)
    c.setLineCap(0)
    if sheet.marks:
        c.setLineWidth(pt(cfg.mark_width))
        code += [f"n {fp_str(pt(x1), pt(y1))} m {fp_str(pt(x2), pt(y2))} l S"  # as c.line writes them
                 for (x1, y1), (x2, y2) in sheet.marks]
    if sheet.cuts:
        c.setLineWidth(pt(cfg.cut_width))
        code += [f"n {fp_str(pt(x1), pt(y1))} m {fp_str(pt(x2), pt(y2))} l S" for (x1, y1), (x2, y2) in sheet.cuts]
    if sheet.cut_paths:
        c.setLineWidth(pt(cfg.cut_width))
        for ops in sheet.cut_paths:
            c.drawPath(shape_path(c, ops), stroke=1, fill=0)
    if sheet.folds:
        c.saveState()
        c.setLineWidth(0.6)
        c.setDash(4, 3)
        for (x1, y1), (x2, y2) in sheet.folds:
            c.line(pt(x1), pt(y1), pt(x2), pt(y2))
        c.restoreState()
    if sheet.outlines:
        c.saveState()
        c.setLineWidth(0.8)
        c.setStrokeColor(GUIDE_RED)
        c.setDash(3, 2)
        for poly in sheet.outlines:
            path = c.beginPath()
            path.moveTo(pt(poly[0][0]), pt(poly[0][1]))
            for x, y in poly[1:]:
                path.lineTo(pt(x), pt(y))
            path.close()
            c.drawPath(path, stroke=1, fill=0)
        c.restoreState()
    if sheet.proof:
        _proof_guides(c, sheet)
    c.setFillColor(GREY)
    c.setFont(fonts.REGULAR, 7)
    for x, y, text in sheet.notes:
        c.drawString(pt(x), pt(y), typeset(text, sheet.lang))
    if sheet.furniture:
        _footer(c, sheet, title, cfg)


GUIDE_RED = Color(0.85, 0.1, 0.1)
GUIDE_BLUE = Color(0.1, 0.35, 0.9)
GUIDE_GREEN = Color(0.0, 0.6, 0.3)


def _proof_guides(c: Canvas, sheet: Sheet) -> None:
    """Proof mode: trim (red), bleed (blue, dashed) and safe zone (green, dashed) of every face."""
    c.saveState()
    c.setLineWidth(0.4)
    for pl in sheet.placed:
        if pl.outline:  # a shaped piece: its cut outline, and what of its bleed shows
            for colour, ops, dash in ((GUIDE_RED, pl.outline, None), (GUIDE_BLUE, pl.clip_path, (2, 1.5))):
                c.setStrokeColor(colour)
                c.setDash(*dash) if dash else c.setDash()
                c.drawPath(shape_path(c, ops), stroke=1, fill=0, fillMode=FILL_NON_ZERO)
            continue
        if pl.clip_poly:
            path = c.beginPath()
            path.moveTo(pt(pl.clip_poly[0][0]), pt(pl.clip_poly[0][1]))
            for x, y in pl.clip_poly[1:]:
                path.lineTo(pt(x), pt(y))
            path.close()
            c.setStrokeColor(GUIDE_RED)
            c.setDash()
            c.drawPath(path, stroke=1, fill=0)
            continue
        for colour, inset, dash in ((GUIDE_BLUE, -pl.bleed, (2, 1.5)), (GUIDE_RED, 0.0, None),
                                    (GUIDE_GREEN, sheet.safe_zone, (1, 1.5))):
            if inset < 0 and pl.bleed == 0:
                continue
            c.setStrokeColor(colour)
            c.setDash(*dash) if dash else c.setDash()
            c.rect(pt(pl.x + inset), pt(pl.y + inset), pt(pl.w - 2 * inset), pt(pl.h - 2 * inset), stroke=1, fill=0)
    c.restoreState()


def shape_path(c: Canvas, ops):
    """A ReportLab path from a planner path: ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",) in mm."""
    path = c.beginPath()
    for op in ops:
        if op[0] == "M":
            path.moveTo(pt(op[1]), pt(op[2]))
        elif op[0] == "L":
            path.lineTo(pt(op[1]), pt(op[2]))
        elif op[0] == "C":
            path.curveTo(*(pt(v) for v in op[1:]))
        else:
            path.close()
    return path


def _rotation(degrees: float) -> tuple[float, ...]:
    """The matrix Canvas.rotate adjoins (its own arithmetic)."""
    cos, sin = math.cos(degrees * math.pi / 180), math.sin(degrees * math.pi / 180)
    return (cos, sin, -sin, cos, 0, 0)


def _merged_cm(matrices: list[tuple[float, ...]]) -> str:
    """The one `cm` operator Canvas.transform writes for these transforms adjoined one after another: it formats
    the first, then each next one multiplied into the numbers the previous one was written with (the same bytes
    as the canvas calls, without their bookkeeping)."""
    a0, b0, c0, d0, e0, f0 = matrices[0]
    text = fp_str(a0, b0, c0, d0, e0, f0)
    for a, b, c, d, e, f in matrices[1:]:
        a0, b0, c0, d0, e0, f0 = map(float, text.split())
        text = fp_str(a0 * a + c0 * b, b0 * a + d0 * b, a0 * c + c0 * d, b0 * c + d0 * d, a0 * e + c0 * f + e0,
                      b0 * e + d0 * f + f0)
    return f"{text} cm"


def _footer(c: Canvas, sheet: Sheet, title: str, cfg: LayoutConfig) -> None:
    """Game, sheet and "print at 100%" beside a calibration ruler, in the band at the bottom: the words of the
    sheet's language (pnp.words), typeset in it with the game's title (pnp.render.typography).

    A long sheet title is set smaller, then on two lines, so it never runs into the ruler's
    label (shortened with an ellipsis only if two lines cannot hold it).
    """
    m = sheet.margin  # the footer sits on the printable area's bottom edge
    base = m + cfg.footer / 2 - 1.2
    left = max(cfg.margin, m)
    length = cfg.calibration
    rx = sheet.width - left - length - (0.1 if m else 0.0)  # (its outline's stroke inside the printable area)
    lang = sheet.lang
    title = typeset(title, lang)
    label = typeset(say("sheets.print_at", lang), lang)
    label_x = rx - 2.5 - _mm(c.stringWidth(label, fonts.BOLD, 7.5))
    room = label_x - 4 - left
    text = typeset(say("sheets.footer", lang, number=sheet.number, total=sheet.total, title=sheet.title), lang)
    size = 7.5
    while size > 5.5 and _mm(c.stringWidth(title, fonts.BOLD, size) + c.stringWidth(text, fonts.REGULAR, size)) + 2.5 > room:
        size -= 0.5
    x = left + _mm(c.stringWidth(title, fonts.BOLD, size)) + 2.5
    lines = _wrap(c, text, size, room - (x - left)) if _mm(c.stringWidth(text, fonts.REGULAR, size)) > room - (
        x - left) else [text]

    def game() -> None:
        c.setFillColor(black)
        c.setFont(fonts.BOLD, size)
        c.drawString(pt(left), pt(base), title)

    _replayed(c, ("game", title, size, left, base), game)
    c.setFont(fonts.REGULAR, size)
    for k, line in enumerate(lines):  # a title too long for one line goes on two, the last on the baseline
        c.drawString(pt(x), pt(base + (len(lines) - 1 - k) * _mm(size * 1.15)), line)
    ry = base - 0.2

    measure = typeset(say("sheets.ruler", lang, length=f"{length:g}"), lang)

    def ruler() -> None:  # at the right: calibration length in 10 mm steps, alternately filled
        c.setLineWidth(0.5)
        c.setStrokeColor(black)
        steps = max(int(round(length / 10)), 1)
        for i in range(steps):
            c.setFillColor(black if i % 2 == 0 else white)
            c.rect(pt(rx + i * length / steps), pt(ry), pt(length / steps), pt(2), stroke=1, fill=1)
        c.setFillColor(black)
        c.setFont(fonts.BOLD, 7.5)
        c.drawRightString(pt(rx - 2.5), pt(base), label)
        c.setFont(fonts.REGULAR, 6)
        c.drawCentredString(pt(rx + length / 2), pt(ry + 2.8), measure)

    _replayed(c, ("ruler", rx, ry, base, length, label, measure), ruler)
    if sheet.proof:
        c.setFillColor(GUIDE_RED)
        c.setFont(fonts.BOLD, 7)
        c.drawString(pt(left), pt(sheet.height - m - 3.5), typeset(say("sheets.proof", lang), lang))


def _wrap(c: Canvas, text: str, size: float, room: float) -> list[str]:
    """`text` in at most two lines of `room` mm, broken between words; the second shortened if it must be."""
    fits = lambda t: _mm(c.stringWidth(t, fonts.REGULAR, size)) <= room  # noqa: E731
    words = text.split(" ")
    first = words[0]
    for k in range(1, len(words)):
        if not fits(first + " " + words[k]):
            rest = " ".join(words[k:])
            break
        first += " " + words[k]
    else:
        return [first]
    if not fits(rest):
        while rest and not fits(rest + "…"):
            rest = rest[:-1]
        rest = rest.rstrip() + "…"
    return [first, rest]


def _replayed(c: Canvas, key: tuple, draw: Callable[[], None]) -> None:
    """draw(), or the page code it wrote the first time it ran for `key` on this canvas, written again (the
    footer's unchanging parts: ReportLab's text calls cost far more than their text). `draw` must set every
    state its code depends on and leave none that later calls depend on (the footer ends each page)."""
    made = c.__dict__.setdefault("_pnp_replays", {})
    code = made.get(key)
    if code is not None:
        rl.page_code(c).extend(code)
        return
    start = len(rl.page_code(c))
    draw()
    made[key] = rl.page_code(c)[start:]


def _mm(points: float) -> float:
    return points / 72 * 25.4
