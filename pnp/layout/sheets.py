"""Where every face goes on the paper: pure data, no drawing.

Coordinates are mm with the origin at the sheet's bottom-left corner (as in PDF).
A component's layout follows from its kind and shape: cards and tiles in a grid with
crop marks and duplex backs, boards at true size on their own page(s), pieces
tessellated with full cut lines.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from pnp.errors import PnpError
from pnp.loader import templates_dir
from pnp.registry import FaceSpec
from pnp.render.faces import ComponentFaces
from pnp.units import parse_length

Point = tuple[float, float]
Segment = tuple[Point, Point]


@dataclass(frozen=True)
class LayoutConfig:
    papers: dict[str, tuple[float, float]]
    footer: float
    margin: float
    mark_gap: float
    mark_min: float
    mark_max: float
    mark_width: float
    cut_width: float
    calibration: float
    board_overlap: float


@lru_cache(maxsize=4)
def load_config(path: Path | None = None) -> LayoutConfig:
    path = path or templates_dir() / "sheets" / "layout.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    papers = {k: (parse_length(v[0]), parse_length(v[1])) for k, v in raw.pop("papers").items()}
    return LayoutConfig(papers=papers, **{k: parse_length(v) for k, v in raw.items()})


@dataclass
class Placed:
    """One copy of a face on a sheet. (x, y) is the trim's bottom-left corner before rotation."""

    face: str  # key of the face's SVG (its path under svg/)
    x: float
    y: float
    w: float
    h: float
    bleed: float
    rotate: int = 0  # 0 or 180 degrees about the trim centre
    clip: tuple[float, float, float, float] | None = None  # (x0, y0, x1, y1): what of the art shows
    label: str = ""

    @property
    def trim(self) -> tuple[float, float, float, float]:
        return (self.x, self.y, self.x + self.w, self.y + self.h)


@dataclass
class Sheet:
    width: float
    height: float
    title: str
    side: str  # front | back | board | pieces
    placed: list[Placed] = field(default_factory=list)
    marks: list[Segment] = field(default_factory=list)  # crop marks, outside every trim
    cuts: list[Segment] = field(default_factory=list)  # full cut lines
    notes: list[tuple[float, float, str]] = field(default_factory=list)  # small labels (board tiles)
    number: int = 0
    total: int = 0


@dataclass(frozen=True)
class Paper:
    name: str
    width: float
    height: float

    def turned(self) -> "Paper":
        return Paper(self.name, self.height, self.width)


def paper(name: str, cfg: LayoutConfig) -> Paper:
    w, h = cfg.papers[name]
    return Paper(name, w, h)


# --- the plan ----------------------------------------------------------------------------


def plan(components: list[ComponentFaces], paper_name: str, duplex: str, gutter: float,
         face_path, cfg: LayoutConfig | None = None) -> list[Sheet]:
    """All sheets of a design, in component order; `face_path(cid, face)` names a face's SVG."""
    cfg = cfg or load_config()
    base = paper(paper_name, cfg)
    sheets: list[Sheet] = []
    deferred_backs: list[Sheet] = []
    for cf in components:
        if not cf.fronts or cf.copies == 0:
            continue
        kind, shape = cf.component.kind, cf.component.shape
        name = cf.component.display_name("en") or cf.component_id
        if kind == "board":
            for face in cf.fronts:
                for _ in range(face.count):
                    sheets += board_sheets(face, face_path(cf.component_id, face), name, base, cfg)
        elif shape == "triangle":
            sheets += triangle_sheets(cf, face_path, name, base, cfg)
        else:
            g = gutter if kind == "card" else 0.0
            fronts, backs = grid_sheets(cf, face_path, name, base, g, duplex, cfg)
            if duplex == "none":
                sheets += fronts
                deferred_backs += backs
            else:
                for i, front in enumerate(fronts):
                    sheets.append(front)
                    if backs:
                        sheets.append(backs[i])
    sheets += deferred_backs
    for i, s in enumerate(sheets, start=1):
        s.number, s.total = i, len(sheets)
    return sheets


# --- grids of cards and tiles --------------------------------------------------------------


def _grid_fit(w: float, h: float, g: float, b: float, avail_w: float, avail_h: float,
              edge: float) -> tuple[int, int]:
    """Columns and rows of w x h trims, gutter g, that fit with room `edge` beyond the outer bleed."""
    cols = int((avail_w - 2 * (b + edge) + g) // (w + g)) if avail_w > 0 else 0
    rows = int((avail_h - 2 * (b + edge) + g) // (h + g)) if avail_h > 0 else 0
    return max(cols, 0), max(rows, 0)


def grid_sheets(cf: ComponentFaces, face_path, name: str, base: Paper, gutter: float, duplex: str,
                cfg: LayoutConfig) -> tuple[list[Sheet], list[Sheet]]:
    faces = cf.fronts
    w, h, b = faces[0].width, faces[0].height, faces[0].bleed
    if any((f.width, f.height, f.bleed) != (w, h, b) for f in faces):
        raise PnpError(f"component '{cf.component_id}': faces of different sizes cannot share a grid")
    # Candidates: the design's gutter with crop marks outside the block, or cards abutting with
    # full cut lines (no room needed for marks). The one that puts more faces on a sheet wins;
    # on a tie, the design's gutter. Letter paper needs the second for 9 poker cards.
    # A short-edge flip mirrors the rows about the sheet's middle, so the block must be centred on
    # the whole sheet, with the footer's height kept free at the top too.
    reserve = 2 * cfg.footer if duplex == "short" and cf.back is not None else cfg.footer
    best = None
    for g, edge in ((max(gutter, 0.0), cfg.mark_gap + cfg.mark_min), (0.0, 0.0)):
        for p in (base, base.turned()):
            cols, rows = _grid_fit(w, h, g, b, p.width, p.height - reserve, edge)
            if cols * rows and (best is None or cols * rows > best[1] * best[2]):
                best = (p, cols, rows, g)
    if best is None:
        raise PnpError(f"component '{cf.component_id}': a {w:g} x {h:g} mm face with {b:g} mm bleed does not fit "
                       f"on {base.name.upper()}; expected a smaller size or a larger paper")
    p, cols, rows, g = best
    shared_cuts = g == 0
    per = cols * rows
    block_w, block_h = cols * w + (cols - 1) * g, rows * h + (rows - 1) * g
    x0 = (p.width - block_w) / 2
    y0 = cfg.footer + (p.height - reserve - block_h) / 2
    copies = [(f, k) for f in faces for k in range(f.count)]
    fronts, backs = [], []
    n_sheets = math.ceil(len(copies) / per)
    for s in range(n_sheets):
        chunk = copies[s * per:(s + 1) * per]
        first, last = s * per + 1, s * per + len(chunk)
        front = Sheet(p.width, p.height, f"{name}: fronts {first}-{last}", "front")
        back = Sheet(p.width, p.height, f"{name}: backs {first}-{last} ({_duplex_words(duplex)})", "back")
        for i, (face, _) in enumerate(chunk):
            c, r = i % cols, i // cols
            x = x0 + c * (w + g)
            y = y0 + block_h - h - r * (h + g)  # rows from the top
            clip = _cell_clip(x, y, w, h, b, g, c, r, cols, rows)
            front.placed.append(Placed(face_path(cf.component_id, face), x, y, w, h, b, clip=clip, label=face.label))
            if cf.back is not None:
                bx, by = _mirror(x, y, w, h, p, duplex)
                bclip = _mirror_clip(clip, p, duplex)
                back.placed.append(Placed(face_path(cf.component_id, cf.back), bx, by, w, h, cf.back.bleed,
                                          clip=bclip, label="back"))
        for sheet in ([front, back] if cf.back is not None else [front]):
            if shared_cuts:
                sheet.cuts = _grid_cuts(sheet.placed, p, cfg)
            else:
                sheet.marks = crop_marks(sheet.placed, p, cfg)
        fronts.append(front)
        if cf.back is not None:
            backs.append(back)
    return fronts, backs


def _duplex_words(duplex: str) -> str:
    return {"long": "duplex, flip on long edge", "short": "duplex, flip on short edge",
            "none": "print separately, glue back to back"}.get(duplex, duplex)


def _cell_clip(x, y, w, h, b, g, c, r, cols, rows) -> tuple[float, float, float, float]:
    """Art shows up to the full bleed on the block's outside, and up to mid-gutter between neighbours."""
    inner = min(b, g / 2)
    left = b if c == 0 else inner
    right = b if c == cols - 1 else inner
    top = b if r == 0 else inner
    bottom = b if r == rows - 1 else inner
    return (x - left, y - bottom, x + w + right, y + h + top)


def _mirror(x: float, y: float, w: float, h: float, p: Paper, duplex: str) -> tuple[float, float]:
    """Where a back goes so it lands behind its front: long-edge flip mirrors columns, short-edge rows."""
    if duplex == "short":
        return x, p.height - y - h
    return p.width - x - w, y


def _mirror_clip(clip, p: Paper, duplex: str):
    x0, y0, x1, y1 = clip
    if duplex == "short":
        return (x0, p.height - y1, x1, p.height - y0)
    return (p.width - x1, y0, p.width - x0, y1)


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
    return [s for s in out if _length(s) > 0.5]


def _grid_cuts(placed: list[Placed], p: Paper, cfg: LayoutConfig) -> list[Segment]:
    """Full-length cut lines through a block of abutting faces, running out into the margins."""
    xs = sorted({round(v, 4) for pl in placed for v in (pl.x, pl.x + pl.w)})
    ys = sorted({round(v, 4) for pl in placed for v in (pl.y, pl.y + pl.h)})
    x_lo, x_hi = max(0.0, xs[0] - cfg.mark_max), min(p.width, xs[-1] + cfg.mark_max)
    y_lo, y_hi = max(cfg.footer, ys[0] - cfg.mark_max), min(p.height, ys[-1] + cfg.mark_max)
    return [((x, y_lo), (x, y_hi)) for x in xs] + [((x_lo, y), (x_hi, y)) for y in ys]


def _length(s: Segment) -> float:
    (a, b), (c, d) = s
    return math.hypot(c - a, d - b)


# --- boards ------------------------------------------------------------------------------


def board_sheets(face: FaceSpec, path: str, name: str, base: Paper, cfg: LayoutConfig) -> list[Sheet]:
    """A board at true size: one page when it fits (either orientation), else tiles with overlap."""
    w, h, b = face.width, face.height, face.bleed
    need = cfg.mark_gap + cfg.mark_min
    for p in (base, base.turned()):
        aw, ah = p.width - 2 * (b + need), p.height - cfg.footer - 2 * (b + need)
        if w <= aw and h <= ah:
            x = (p.width - w) / 2
            y = cfg.footer + (p.height - cfg.footer - h) / 2
            sheet = Sheet(p.width, p.height, f"{name} (true size)", "board")
            sheet.placed.append(Placed(path, x, y, w, h, b, label=name))
            sheet.marks = crop_marks(sheet.placed, p, cfg)
            return [sheet]
    return _tiled_board(face, path, name, base, cfg)


def _tiled_board(face: FaceSpec, path: str, name: str, base: Paper, cfg: LayoutConfig) -> list[Sheet]:
    """Split over pages: each page shows one tile of the board; neighbours overlap by board_overlap."""
    w, h = face.width, face.height
    o, m = cfg.board_overlap, cfg.margin
    best = None
    for p in (base, base.turned()):
        uw, uh = p.width - 2 * m, p.height - cfg.footer - 2 * m
        cols = 1 if w <= uw else math.ceil((w - o) / (uw - o))
        rows = 1 if h <= uh else math.ceil((h - o) / (uh - o))
        if best is None or cols * rows < best[1] * best[2]:
            best = (p, cols, rows, uw, uh)
    p, cols, rows, uw, uh = best
    step_x = (w - uw) / (cols - 1) if cols > 1 else 0.0
    step_y = (h - uh) / (rows - 1) if rows > 1 else 0.0
    sheets = []
    for r in range(rows):
        for c in range(cols):
            # the part of the board [bx0, bx0+uw] x [by0, by0+uh] (board coords, y from the bottom)
            bx0 = c * step_x
            by0 = (rows - 1 - r) * step_y
            vis_w, vis_h = min(uw, w), min(uh, h)
            x = m - bx0
            y = cfg.footer + m - by0
            label = f"{chr(ord('A') + r)}{c + 1}"
            sheet = Sheet(p.width, p.height, f"{name} (true size), part {label} of {rows * cols}", "board")
            sheet.placed.append(Placed(path, x, y, w, h, 0.0, clip=(m, cfg.footer + m, m + vis_w,
                                                                      cfg.footer + m + vis_h), label=label))
            sheet.notes.append((m, p.height - m + 1.5, f"{label}: row {chr(ord('A') + r)}, column {c + 1}"))
            # alignment marks: where the neighbouring tile's edge falls inside this one (the overlap)
            if c + 1 < cols:
                ox = m + vis_w - (bx0 + uw - (bx0 + step_x))
                sheet.marks += [((ox, cfg.footer + m - 3), (ox, cfg.footer + m)),
                                ((ox, cfg.footer + m + vis_h), (ox, cfg.footer + m + vis_h + 3))]
            if r + 1 < rows:
                oy = cfg.footer + m + (uh - step_y)
                sheet.marks += [((m - 3, oy), (m, oy)), ((m + vis_w, oy), (m + vis_w + 3, oy))]
            sheets.append(sheet)
    return sheets


# --- tessellated triangles -------------------------------------------------------------------


def triangle_sheets(cf: ComponentFaces, face_path, name: str, base: Paper, cfg: LayoutConfig) -> list[Sheet]:
    """Equilateral triangles in rows, alternately point up and point down, sharing every cut line."""
    faces = cf.fronts
    s, h = faces[0].width, faces[0].height
    m = cfg.margin
    best = None
    for p in (base, base.turned()):
        uw, uh = p.width - 2 * m, p.height - cfg.footer - 2 * m
        per_row = max(int(2 * uw / s) - 1, 0)
        rows = int(uh // h)
        if per_row * rows and (best is None or per_row * rows > best[1] * best[2]):
            best = (p, per_row, rows)
    if best is None:
        raise PnpError(f"component '{cf.component_id}': a triangle of side {s:g} mm does not fit on the sheet")
    p, per_row, rows = best
    per_sheet = per_row * rows
    row_w = (per_row + 1) / 2 * s
    x0 = (p.width - row_w) / 2
    y_top = cfg.footer + (p.height - cfg.footer + rows * h) / 2
    copies = [(f, k) for f in faces for k in range(f.count)]
    sheets = []
    for sidx in range(math.ceil(len(copies) / per_sheet)):
        chunk = copies[sidx * per_sheet:(sidx + 1) * per_sheet]
        sheet = Sheet(p.width, p.height, f"{name}: {sidx * per_sheet + 1}-{sidx * per_sheet + len(chunk)}", "pieces")
        for i, (face, _) in enumerate(chunk):
            r, k = divmod(i, per_row)
            y = y_top - (r + 1) * h
            x = x0 + k * s / 2
            pl = Placed(face_path(cf.component_id, face), x, y, s, h, face.bleed, rotate=180 if k % 2 else 0,
                        clip=(x, y, x + s, y + h), label=face.label)
            sheet.placed.append(pl)
            sheet.cuts += _triangle_edges(x, y, s, h, down=bool(k % 2))
        sheet.cuts = _merge_collinear(sheet.cuts)
        sheets.append(sheet)
    return sheets


def _triangle_edges(x: float, y: float, s: float, h: float, down: bool) -> list[Segment]:
    if down:
        a, b, c = (x, y + h), (x + s, y + h), (x + s / 2, y)
    else:
        a, b, c = (x, y), (x + s, y), (x + s / 2, y + h)
    return [(a, b), (b, c), (c, a)]


def _merge_collinear(segments: list[Segment]) -> list[Segment]:
    """Join shared and touching edges into long straight cut lines (one ruler stroke each)."""
    by_line: dict[tuple, list[tuple[float, float]]] = {}
    for (p1, p2) in segments:
        (x1, y1), (x2, y2) = sorted([p1, p2])
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy)
        ux, uy = dx / length, dy / length
        if ux < -1e-9 or (abs(ux) < 1e-9 and uy < 0):
            ux, uy = -ux, -uy
        # line key: direction and signed distance from the origin
        key = (round(ux, 6), round(uy, 6), round(x1 * uy - y1 * ux, 4))
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
            # point on the line at parameter t: t*(ux,uy) + d*(uy,-ux)... (normal form)
            merged.append((_at(ux, uy, d, cur[0]), _at(ux, uy, d, cur[1])))
            cur = [t1, t2]
    return merged


def _at(ux: float, uy: float, d: float, t: float) -> Point:
    # points p with p.(uy, -ux) = d and p.(ux, uy) = t
    return (t * ux + d * uy, t * uy - d * ux)
