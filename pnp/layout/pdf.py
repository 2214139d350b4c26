"""Sheets -> one PDF, with ReportLab.

Each distinct SVG face is parsed once by svglib into a vector drawing and stored as a
PDF form XObject; every copy on every sheet is a reference to that form, clipped to
its cell. Output is deterministic (ReportLab's invariant mode: fixed dates and ids).
"""

from __future__ import annotations

import io
from collections.abc import Mapping

from reportlab import rl_config
from reportlab.graphics import renderPDF
from reportlab.lib.colors import black, white, Color
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import svg2rlg

from pnp.layout.sheets import LayoutConfig, Sheet, load_config
from pnp.render import fonts
from pnp.units import mm_to_pt as pt

rl_config.shapeChecking = 0  # svglib builds many shapes; skip ReportLab's per-attribute validation
rl_config.useA85 = 0  # binary streams: smaller files, no ASCII85 encoding pass

GREY = Color(0.35, 0.35, 0.35)


def parse_svg(svg_text: str):
    """An SVG face as a ReportLab drawing (vector)."""
    fonts.register()
    drawing = svg2rlg(io.BytesIO(svg_text.encode("utf-8")))
    if drawing is None:
        raise ValueError("svglib could not read the SVG")
    return drawing


def parse_all(svgs: Mapping[str, str]) -> dict[str, object]:
    """Every SVG face as a drawing; large sets are parsed on all cores."""
    from pnp.parallel import pmap

    keys = sorted(svgs)
    fonts.register()
    return dict(zip(keys, pmap(parse_svg, [svgs[k] for k in keys])))


def render_pdf(sheets: list[Sheet], svgs: Mapping[str, str], *, title: str, author: str = "",
               subject: str = "", cfg: LayoutConfig | None = None, drawings: Mapping | None = None) -> bytes:
    """The PDF bytes of `sheets`; `svgs` maps each face key to its SVG text."""
    cfg = cfg or load_config()
    fonts.register()
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1, pageCompression=1, initialFontName=fonts.REGULAR, initialFontSize=7)
    c.setTitle(title)
    c.setAuthor(author)
    c.setSubject(subject)
    c.setCreator("pnp")
    forms: dict[str, str] = {}
    used = {pl.face for sheet in sheets for pl in sheet.placed}
    drawings = dict(drawings) if drawings is not None else parse_all({k: svgs[k] for k in used})
    for sheet in sheets:
        c.setPageSize((pt(sheet.width), pt(sheet.height)))
        for pl in sheet.placed:
            if pl.face not in forms:
                forms[pl.face] = _define_form(c, pl.face, drawings.get(pl.face) or parse_svg(svgs[pl.face]),
                                              len(forms))
        _draw_sheet(c, sheet, forms, title, cfg)
        c.showPage()
    c.save()
    return buf.getvalue()


def _define_form(c: Canvas, key: str, drawing, n: int) -> str:
    name = f"face{n}"
    c.beginForm(name, 0, 0, drawing.width, drawing.height)
    renderPDF.draw(drawing, c, 0, 0)
    c.endForm()
    return name


def _draw_sheet(c: Canvas, sheet: Sheet, forms: dict[str, str], title: str, cfg: LayoutConfig) -> None:
    for pl in sheet.placed:
        c.saveState()
        if pl.clip:
            x0, y0, x1, y1 = pl.clip
            path = c.beginPath()
            path.rect(pt(x0), pt(y0), pt(x1 - x0), pt(y1 - y0))
            c.clipPath(path, stroke=0, fill=0)
        if pl.rotate:
            cx, cy = pt(pl.x + pl.w / 2), pt(pl.y + pl.h / 2)
            c.translate(cx, cy)
            c.rotate(pl.rotate)
            c.translate(-cx, -cy)
        c.translate(pt(pl.x - pl.bleed), pt(pl.y - pl.bleed))
        c.doForm(forms[pl.face])
        c.restoreState()
    c.setStrokeColor(black)
    c.setLineCap(0)
    if sheet.marks:
        c.setLineWidth(cfg.mark_width / 25.4 * 72)
        for (x1, y1), (x2, y2) in sheet.marks:
            c.line(pt(x1), pt(y1), pt(x2), pt(y2))
    if sheet.cuts:
        c.setLineWidth(cfg.cut_width / 25.4 * 72)
        for (x1, y1), (x2, y2) in sheet.cuts:
            c.line(pt(x1), pt(y1), pt(x2), pt(y2))
    c.setFillColor(GREY)
    c.setFont(fonts.REGULAR, 7)
    for x, y, text in sheet.notes:
        c.drawString(pt(x), pt(y), text)
    _footer(c, sheet, title, cfg)


def _footer(c: Canvas, sheet: Sheet, title: str, cfg: LayoutConfig) -> None:
    """Game, sheet and "print at 100%" beside a calibration ruler, in the band at the bottom."""
    base = cfg.footer / 2 - 1.2
    left = cfg.margin
    c.setFillColor(black)
    c.setFont(fonts.BOLD, 7.5)
    c.drawString(pt(left), pt(base), title)
    x = left + c.stringWidth(title, fonts.BOLD, 7.5) / 72 * 25.4 + 2.5
    c.setFont(fonts.REGULAR, 7.5)
    c.drawString(pt(x), pt(base), f"sheet {sheet.number} of {sheet.total} · {sheet.title}")
    # ruler at the right: calibration length in 10 mm steps, alternately filled
    length = cfg.calibration
    rx = sheet.width - cfg.margin - length
    ry = base - 0.2
    c.setLineWidth(0.5)
    c.setStrokeColor(black)
    steps = max(int(round(length / 10)), 1)
    for i in range(steps):
        c.setFillColor(black if i % 2 == 0 else white)
        c.rect(pt(rx + i * length / steps), pt(ry), pt(length / steps), pt(2), stroke=1, fill=1)
    c.setFillColor(black)
    c.setFont(fonts.BOLD, 7.5)
    label = "print at 100%"
    c.drawRightString(pt(rx - 2.5), pt(base), label)
    c.setFont(fonts.REGULAR, 6)
    c.drawCentredString(pt(rx + length / 2), pt(ry + 2.8), f"{length:g} mm: measure me")
