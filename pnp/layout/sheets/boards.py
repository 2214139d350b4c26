"""Boards: at true size on their own page, or split into overlapping parts after an assembly map."""

from __future__ import annotations

import math

from pnp.layout.sheets.config import LayoutConfig, Paper, SheetOptions, papers
from pnp.layout.sheets.marks import crop_marks, rect_edges
from pnp.layout.sheets.sheet import Placed, Sheet
from pnp.render.facespec import FaceSpec
from pnp.words import say

TICK = 4.0  # mm: the alignment marks' length, beyond the part's art


def board_sheets(face: FaceSpec, path: str, name: str, base: Paper, opts: SheetOptions,
                 cfg: LayoutConfig) -> list[Sheet]:
    """A board at true size: one page when it fits (either orientation), else parts with overlap."""
    w, h, b = face.width, face.height, face.bleed
    # with room for crop marks; else (a board that just fills the printable area) its trim drawn as the cut line
    for need in (cfg.mark_gap + cfg.mark_min, 0.0):
        for p in papers(base, opts.orientation):
            aw, ah = p.width - 2 * (b + need), p.height - cfg.footer - 2 * (b + need)
            if w <= aw + 1e-9 and h <= ah + 1e-9:
                x = (p.width - w) / 2
                y = cfg.footer + (p.height - cfg.footer - h) / 2
                sheet = Sheet(p.width, p.height, say("sheets.board", opts.lang, name=name), "board", section=name)
                sheet.placed.append(Placed(path, x, y, w, h, b, label=name))
                if opts.marks != "none" and need:
                    sheet.marks = crop_marks(sheet.placed, p, cfg)
                elif opts.marks != "none":
                    sheet.cuts = rect_edges((x, y, x + w, y + h))
                return [sheet]
    return tiled_board(face, path, name, base, opts, cfg)


def board_parts(w: float, h: float, uw: float, uh: float, overlap: float) -> tuple[list[float], list[float]]:
    """Left edges (board x) of the columns and bottom edges (board y) of the rows of parts.

    Consecutive parts overlap by exactly `overlap`; the last part may show less than a page.
    """
    def starts(total: float, page: float) -> list[float]:
        if total <= page + 1e-9:
            return [0.0]
        n = math.ceil((total - overlap) / (page - overlap) - 1e-9)
        return [i * (page - overlap) for i in range(n)]
    return starts(w, uw), starts(h, uh)


def tiled_board(face: FaceSpec, path: str, name: str, base: Paper, opts: SheetOptions,
                cfg: LayoutConfig) -> list[Sheet]:
    """An overview page, then one page per part, rows A, B... from the top, columns 1, 2... from the left.

    Each part shows [x0, x0 + page] of the board; neighbours overlap by `board_overlap`
    (10 mm). On each part, short alignment marks at both ends of the lines where the
    neighbouring parts begin and end; tape the parts so that the marks meet.
    """
    w, h, b = face.width, face.height, face.bleed
    o, m = cfg.board_overlap, max(cfg.margin, TICK)  # room for the part's label and alignment marks
    best = None
    for p in papers(base, opts.orientation):  # each part's window, with room for the board's bleed around it
        uw, uh = p.width - 2 * (m + b), p.height - cfg.footer - 2 * (m + b)
        xs, ys = board_parts(w, h, uw, uh, o)
        if best is None or len(xs) * len(ys) < len(best[1]) * len(best[2]):
            best = (p, xs, ys, uw, uh)
    p, xs, ys, uw, uh = best  # type: ignore[misc]
    rows, cols = len(ys), len(xs)
    total_parts = rows * cols
    sheets = [_board_overview(face, path, name, base, xs, ys, uw, uh, opts, cfg)]
    ox, oy = m + b, cfg.footer + m + b  # where the part's window sits on the page
    for r in range(rows):
        by0 = ys[rows - 1 - r]  # row A is the top of the board
        for c in range(cols):
            bx0 = xs[c]
            vis_w, vis_h = min(uw, w - bx0), min(uh, h - by0)
            wx0, wy0 = ox, oy + (uh - vis_h)  # parts hang from the top of the window
            label = f"{chr(ord('A') + r)}{c + 1}"
            sheet = Sheet(p.width, p.height, say("sheets.board_part", opts.lang, name=name, label=label,
                                                 parts=total_parts), "board", section=name)
            # the board's bleed shows on its own outer edges only; inside, the part ends at its window
            el, er = (b if c == 0 else 0.0), (b if c == cols - 1 else 0.0)
            et, eb = (b if r == 0 else 0.0), (b if r == rows - 1 else 0.0)
            sheet.placed.append(Placed(path, wx0 - bx0, wy0 - by0, w, h, b,
                                       clip=(wx0 - el, wy0 - eb, wx0 + vis_w + er, wy0 + vis_h + et), label=label,
                                       component=name))
            sheet.notes.append((wx0, wy0 + vis_h + et + 1.8, say(
                "sheets.part_note", opts.lang, label=label, row=chr(ord("A") + r), column=c + 1, rows=rows,
                columns=cols, overlap=f"{o:g}")))
            sheet.cuts += rect_edges((wx0, wy0, wx0 + vis_w, wy0 + vis_h))
            # alignment marks where a neighbour's edge falls on this part (inside the overlap strip)
            tick = TICK
            for nx in ([bx0 + uw - o] if c + 1 < cols else []) + ([bx0 + o] if c > 0 else []):
                px = wx0 + (nx - bx0)
                sheet.marks += [((px, wy0 - eb - tick), (px, wy0 - eb)),
                                ((px, wy0 + vis_h + et), (px, wy0 + vis_h + et + tick))]
            for ny in ([by0 + o] if r + 1 < rows else []) + ([by0 + uh - o] if r > 0 else []):
                py = wy0 + (ny - by0)
                if wy0 < py < wy0 + vis_h:
                    sheet.marks += [((wx0 - el - tick, py), (wx0 - el, py)),
                                    ((wx0 + vis_w + er, py), (wx0 + vis_w + er + tick, py))]
            sheets.append(sheet)
    return sheets


def _board_overview(face: FaceSpec, path: str, name: str, base: Paper, xs, ys, uw, uh, opts: SheetOptions,
                    cfg: LayoutConfig) -> Sheet:
    """The whole board scaled to one page with its parts outlined and labelled: the assembly map."""
    w, h, m = face.width, face.height, max(cfg.margin, TICK)
    best = None
    for p in papers(base, opts.orientation):
        aw, ah = p.width - 2 * m, p.height - cfg.footer - 2 * m - 8
        k = min(aw / w, ah / h, 1.0)
        if best is None or k > best[1]:
            best = (p, k)
    p, k = best  # type: ignore[misc]
    x0 = (p.width - w * k) / 2
    y0 = cfg.footer + m + (p.height - cfg.footer - 2 * m - 8 - h * k) / 2
    sheet = Sheet(p.width, p.height, say("sheets.overview", opts.lang, name=name, parts=len(xs) * len(ys),
                                         scale=f"{k * 100:.0f}"), "overview", section=name)
    sheet.placed.append(Placed(path, x0, y0, w * k, h * k, face.bleed, clip=(x0, y0, x0 + w * k, y0 + h * k),
                               label=name, component=name, scale=k))
    rows = len(ys)
    for r in range(rows):
        by0 = ys[rows - 1 - r]
        for c, bx0 in enumerate(xs):
            vis_w, vis_h = min(uw, w - bx0), min(uh, h - by0)
            box = (x0 + bx0 * k, y0 + by0 * k, x0 + (bx0 + vis_w) * k, y0 + (by0 + vis_h) * k)
            sheet.outlines.append([(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])])
            # the top row's labels just above the board (its corners may hold marks), the others inside
            sheet.notes.append((box[0] + 1, box[3] + 0.8 if r == 0 else box[3] - 5, f"{chr(ord('A') + r)}{c + 1}"))
    sheet.notes.append((x0, y0 + h * k + 4.5, say("sheets.overview_note", opts.lang, name=name,
                                                parts=len(xs) * len(ys))))
    return sheet

