"""Crop marks and cut lines: where the knife or the ruler goes."""

from __future__ import annotations

import math

from pnp.layout.sheets.config import LayoutConfig, Paper
from pnp.layout.sheets.sheet import Box, Placed, Point, Segment, Sheet


def add_marks(sheet: Sheet, marks: str, p: Paper, cfg: LayoutConfig) -> None:
    """Crop marks around a block of faces, or full cut lines through it (`marks`: crop | cut | none)."""
    if marks == "crop":
        sheet.marks += crop_marks(sheet.placed, p, cfg)
    elif marks == "cut":
        sheet.cuts += grid_cuts(sheet.placed, p, cfg)


def crop_marks(placed: list[Placed], p: Paper, cfg: LayoutConfig) -> list[Segment]:
    """Marks on the extension of every trim line, outside the block of faces and its bleed."""
    if not placed:
        return []
    xs = sorted({round(v, 4) for pl in placed for v in (pl.x, pl.x + pl.w)})
    ys = sorted({round(v, 4) for pl in placed for v in (pl.y, pl.y + pl.h)})
    art = [(pl.x - pl.bleed, pl.y - pl.bleed, pl.x + pl.w + pl.bleed, pl.y + pl.h + pl.bleed) for pl in placed]
    left = min(a[0] for a in art) - cfg.mark_gap
    right = max(a[2] for a in art) + cfg.mark_gap
    bottom = min(a[1] for a in art) - cfg.mark_gap
    top = max(a[3] for a in art) + cfg.mark_gap
    out: list[Segment] = []
    for x in xs:
        out.append(((x, top), (x, min(p.height, top + cfg.mark_max))))
        out.append(((x, bottom), (x, max(cfg.footer, bottom - cfg.mark_max))))
    for y in ys:
        out.append(((left, y), (max(0.0, left - cfg.mark_max), y)))
        out.append(((right, y), (min(p.width, right + cfg.mark_max), y)))
    return [s for s in out if length(s) > 0.5]


def crosses_any(seg: Segment, placed: list[Placed]) -> bool:
    """Whether an axis-parallel segment enters any face's trim + bleed."""
    (x1, y1), (x2, y2) = seg
    lo_x, hi_x, lo_y, hi_y = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
    for p in placed:
        ax0, ay0, ax1, ay1 = p.x - p.bleed, p.y - p.bleed, p.x + p.w + p.bleed, p.y + p.h + p.bleed
        if lo_x < ax1 and hi_x > ax0 and lo_y < ay1 and hi_y > ay0:
            return True
    return False


def grid_cuts(placed: list[Placed], p: Paper, cfg: LayoutConfig) -> list[Segment]:
    """Full-length cut lines through a block of abutting faces, running out into the margins."""
    if not placed:
        return []
    xs = sorted({round(v, 4) for pl in placed for v in (pl.x, pl.x + pl.w)})
    ys = sorted({round(v, 4) for pl in placed for v in (pl.y, pl.y + pl.h)})
    x_lo, x_hi = max(0.0, xs[0] - cfg.mark_max), min(p.width, xs[-1] + cfg.mark_max)
    y_lo, y_hi = max(cfg.footer, ys[0] - cfg.mark_max), min(p.height, ys[-1] + cfg.mark_max)
    return [((x, y_lo), (x, y_hi)) for x in xs] + [((x_lo, y), (x_hi, y)) for y in ys]


def rect_edges(box: Box) -> list[Segment]:
    x0, y0, x1, y1 = box
    return [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))]


def length(s: Segment) -> float:
    (a, b), (c, d) = s
    return math.hypot(c - a, d - b)


def merge_collinear(segments: list[Segment]) -> list[Segment]:
    """Join shared and touching edges into long straight cut lines (one ruler stroke each)."""
    by_line: dict[tuple, list[tuple[float, float]]] = {}
    for (p1, p2) in segments:
        (x1, y1), (x2, y2) = sorted([p1, p2])
        dx, dy = x2 - x1, y2 - y1
        seg_length = math.hypot(dx, dy)
        if seg_length < 1e-9:
            continue
        ux, uy = dx / seg_length, dy / seg_length
        key = (round(ux, 6), round(uy, 6), round(x1 * uy - y1 * ux, 4))  # direction, distance from origin
        t1, t2 = sorted((x1 * ux + y1 * uy, x2 * ux + y2 * uy))
        by_line.setdefault(key, []).append((t1, t2))
    merged: list[Segment] = []
    for (ux, uy, d), spans in sorted(by_line.items()):
        spans.sort()
        cur = list(spans[0])
        for t1, t2 in spans[1:] + [(math.inf, math.inf)]:
            if t1 <= cur[1] + 1e-6:
                cur[1] = max(cur[1], t2)
                continue
            merged.append((_at(ux, uy, d, cur[0]), _at(ux, uy, d, cur[1])))
            cur = [t1, t2]
    return merged


def _at(ux: float, uy: float, d: float, t: float) -> Point:
    """The point p of the line p.(uy, -ux) = d at parameter t = p.(ux, uy)."""
    return (t * ux + d * uy, t * uy - d * ux)
