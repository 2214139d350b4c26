"""Where every face goes on the paper: pure data, no drawing.

Coordinates are mm with the origin at the sheet's bottom-left corner (as in PDF).
A component's layout follows from its kind and shape:

- cards (and anything with a back): a grid with crop marks or cut lines, backs by duplex
  mode (long- or short-edge flip, separate sheets, or gutter-fold on the same sheet);
- boards: at true size on their own page, or split into overlapping parts plus an overview;
- loose rectangular pieces, tokens and tiles: shelf-packed together, full cut lines;
- triangles and hexagons: tessellated so that neighbours share their cut lines.

`print_shop_sheets` is the other output: one face side per page at trim + bleed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
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
Box = tuple[float, float, float, float]  # x0, y0, x1, y1


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


@dataclass(frozen=True)
class SheetOptions:
    """Print settings as the planner needs them: the design's `print:` with command-line overrides."""

    paper: str = "a4"
    orientation: str = "auto"  # auto | portrait | landscape
    duplex: str = "long"  # long | short | none | fold
    gutter: float = 3.0
    marks: str = "crop"  # crop | cut | none
    back_offset: tuple[float, float] = (0.0, 0.0)
    proof: bool = False
    safe_zone: float = 3.0

    @classmethod
    def from_print(cls, pr, paper: str | None = None) -> "SheetOptions":
        return cls(paper=paper or pr.paper, orientation=pr.orientation, duplex=pr.duplex,
                   gutter=pr.effective_gutter, marks=pr.marks, back_offset=tuple(pr.back_offset),
                   proof=pr.proof, safe_zone=pr.safe_zone)


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
    clip: Box | None = None  # what of the art shows (page coordinates)
    clip_poly: list[Point] | None = None  # or a polygon (hexagons, triangles)
    label: str = ""
    component: str = ""
    scale: float = 1.0  # 1 = true size (the overview of a split board is drawn smaller)

    @property
    def trim(self) -> Box:
        return (self.x, self.y, self.x + self.w, self.y + self.h)

    @property
    def art(self) -> Box:
        """The box the visible art may cover: the clip, else trim + bleed."""
        if self.clip:
            return self.clip
        if self.clip_poly:
            xs, ys = [p[0] for p in self.clip_poly], [p[1] for p in self.clip_poly]
            return (min(xs), min(ys), max(xs), max(ys))
        b = self.bleed
        return (self.x - b, self.y - b, self.x + self.w + b, self.y + self.h + b)

    def shifted(self, dx: float, dy: float) -> "Placed":
        return replace(self, x=self.x + dx, y=self.y + dy,
                       clip=_shift_box(self.clip, dx, dy) if self.clip else None,
                       clip_poly=[(x + dx, y + dy) for x, y in self.clip_poly] if self.clip_poly else None)


@dataclass
class Sheet:
    width: float
    height: float
    title: str
    side: str  # front | back | fold | board | overview | pieces | print-shop
    placed: list[Placed] = field(default_factory=list)
    marks: list[Segment] = field(default_factory=list)  # crop marks, outside every face's art
    cuts: list[Segment] = field(default_factory=list)  # full cut lines
    folds: list[Segment] = field(default_factory=list)  # fold lines (gutter-fold)
    notes: list[tuple[float, float, str]] = field(default_factory=list)  # small labels
    outlines: list[list[Point]] = field(default_factory=list)  # thin drawn shapes (board overview grid)
    number: int = 0
    total: int = 0
    furniture: bool = True  # footer and ruler; off for print-shop pages
    trim_box: Box | None = None
    bleed_box: Box | None = None
    proof: bool = False
    safe_zone: float = 3.0


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


def _papers(base: Paper, orientation: str) -> list[Paper]:
    portrait = base if base.width <= base.height else base.turned()
    if orientation == "portrait":
        return [portrait]
    if orientation == "landscape":
        return [portrait.turned()]
    return [portrait, portrait.turned()]


# --- the plan ----------------------------------------------------------------------------


def plan(components: list[ComponentFaces], opts: SheetOptions, face_path,
         cfg: LayoutConfig | None = None) -> list[Sheet]:
    """All sheets of a design, in component order; `face_path(cid, face)` names a face's SVG."""
    cfg = cfg or load_config()
    base = paper(opts.paper, cfg)
    sheets: list[Sheet] = []
    deferred_backs: list[Sheet] = []
    loose: list[ComponentFaces] = []

    def flush_loose() -> None:
        if loose:
            sheets.extend(pack_sheets(loose, face_path, base, opts, cfg))
            loose.clear()

    for cf in components:
        if not cf.fronts or cf.copies == 0:
            continue
        kind = cf.component.kind
        name = cf.component.display_name("en") or cf.component_id
        if kind == "board":
            flush_loose()
            for face in cf.fronts:
                for _ in range(face.count):
                    sheets += board_sheets(face, face_path(cf.component_id, face), name, base, opts, cfg)
        elif cf.back is None and kind in ("piece", "token", "tile"):
            loose.append(cf)
        else:
            flush_loose()
            g = opts.gutter if kind in ("card", "aid") else 0.0
            if opts.duplex == "fold" and cf.back is not None:
                sheets += fold_sheets(cf, face_path, name, base, g, opts, cfg)
                continue
            fronts, backs = grid_sheets(cf, face_path, name, base, g, opts, cfg)
            if opts.duplex == "none":
                sheets += fronts
                deferred_backs += backs
            else:
                for i, front in enumerate(fronts):
                    sheets.append(front)
                    if backs:
                        sheets.append(backs[i])
    flush_loose()
    sheets += deferred_backs
    dx, dy = opts.back_offset
    for s in sheets:
        if s.side == "back" and (dx or dy):
            _shift_sheet(s, dx, dy)
        s.proof, s.safe_zone = opts.proof, opts.safe_zone
    for i, s in enumerate(sheets, start=1):
        s.number, s.total = i, len(sheets)
    return sheets


def _shift_box(box: Box, dx: float, dy: float) -> Box:
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def _shift_sheet(sheet: Sheet, dx: float, dy: float) -> None:
    """Move everything printed on a back page (not the footer) by the printer's drift correction."""
    sheet.placed = [p.shifted(dx, dy) for p in sheet.placed]
    move = lambda seg: ((seg[0][0] + dx, seg[0][1] + dy), (seg[1][0] + dx, seg[1][1] + dy))  # noqa: E731
    sheet.marks = [move(s) for s in sheet.marks]
    sheet.cuts = [move(s) for s in sheet.cuts]


# --- grids of cards ----------------------------------------------------------------------


def _grid_fit(w: float, h: float, g: float, b: float, avail_w: float, avail_h: float,
              edge: float) -> tuple[int, int]:
    """Columns and rows of w x h trims, gutter g, that fit with room `edge` beyond the outer bleed."""
    cols = int((avail_w - 2 * (b + edge) + g + 1e-9) // (w + g)) if avail_w > 0 else 0
    rows = int((avail_h - 2 * (b + edge) + g + 1e-9) // (h + g)) if avail_h > 0 else 0
    return max(cols, 0), max(rows, 0)


@dataclass
class _Grid:
    paper: Paper
    cols: int
    rows: int
    gutter: float
    x0: float  # trim of the block's bottom-left card
    y0: float
    marks: str  # crop | cut | none


def _choose_grid(cf: ComponentFaces, base: Paper, gutter: float, opts: SheetOptions, cfg: LayoutConfig,
                 avail: tuple[float, float] | None = None, reserve_top: bool = False) -> _Grid:
    """The grid that puts the most faces on a sheet.

    Candidates: the design's gutter with crop marks outside the block, or faces abutting with
    full cut lines (no room needed for marks); a tie keeps the design's gutter. With
    `marks: cut` only the second, with `marks: none` faces abut and nothing is drawn.
    """
    w, h, b = cf.fronts[0].width, cf.fronts[0].height, cf.fronts[0].bleed
    if opts.marks == "crop":
        variants = [(max(gutter, 0.0), cfg.mark_gap + cfg.mark_min, "crop"), (0.0, 0.0, "cut")]
    elif opts.marks == "cut":
        variants = [(0.0, 0.0, "cut")]
    else:
        variants = [(max(gutter, 0.0), 0.0, "none")]
    reserve = 2 * cfg.footer if reserve_top else cfg.footer
    best = None
    for g, edge, marks in variants:
        for p in _papers(base, opts.orientation):
            aw, ah = avail if avail else (p.width, p.height - reserve)
            cols, rows = _grid_fit(w, h, g, b, aw, ah, edge)
            if cols * rows and (best is None or cols * rows > best[1] * best[2]):
                best = (p, cols, rows, g, marks)
    if best is None:
        raise cf.error(f"a {w:g} x {h:g} mm face with {b:g} mm bleed does not fit "
                       f"on {base.name.upper()}; expected a smaller size or a larger paper")
    p, cols, rows, g, marks = best
    block_w, block_h = cols * w + (cols - 1) * g, rows * h + (rows - 1) * g
    x0 = (p.width - block_w) / 2
    y0 = cfg.footer + (p.height - reserve - block_h) / 2
    return _Grid(p, cols, rows, g, x0, y0, marks)


def grid_sheets(cf: ComponentFaces, face_path, name: str, base: Paper, gutter: float, opts: SheetOptions,
                cfg: LayoutConfig) -> tuple[list[Sheet], list[Sheet]]:
    faces = cf.fronts
    w, h, b = faces[0].width, faces[0].height, faces[0].bleed
    if any((f.width, f.height, f.bleed) != (w, h, b) for f in faces):
        raise cf.error("faces of different sizes cannot share a grid")
    # A short-edge flip mirrors the rows about the sheet's middle: keep the block centred on the
    # whole sheet, with the footer's height kept free at the top too.
    short = opts.duplex == "short" and cf.back is not None
    grid = _choose_grid(cf, base, gutter, opts, cfg, reserve_top=short)
    p, cols, rows, g = grid.paper, grid.cols, grid.rows, grid.gutter
    per = cols * rows
    block_h = rows * h + (rows - 1) * g
    copies = [(f, k) for f in faces for k in range(f.count)]
    fronts, backs = [], []
    for s in range(math.ceil(len(copies) / per)):
        chunk = copies[s * per:(s + 1) * per]
        first, last = s * per + 1, s * per + len(chunk)
        front = Sheet(p.width, p.height, f"{name}: fronts {first}-{last}", "front")
        back = Sheet(p.width, p.height, f"{name}: backs {first}-{last} ({_duplex_words(opts.duplex)})", "back")
        for i, (face, _) in enumerate(chunk):
            c, r = i % cols, i // cols
            x = grid.x0 + c * (w + g)
            y = grid.y0 + block_h - h - r * (h + g)  # rows from the top
            clip = _cell_clip(x, y, w, h, b, g, c, r, cols, rows)
            front.placed.append(Placed(face_path(cf.component_id, face), x, y, w, h, b, clip=clip,
                                       label=face.label, component=cf.component_id))
            if cf.back is not None:
                bx, by = _mirror(x, y, w, h, p, opts.duplex)
                back.placed.append(Placed(face_path(cf.component_id, cf.back), bx, by, w, h, cf.back.bleed,
                                          clip=_mirror_box(clip, p, opts.duplex), label="back",
                                          component=cf.component_id))
        for sheet in ([front, back] if cf.back is not None else [front]):
            _add_marks(sheet, grid.marks, p, cfg)
        fronts.append(front)
        if cf.back is not None:
            backs.append(back)
    return fronts, backs


def _add_marks(sheet: Sheet, marks: str, p: Paper, cfg: LayoutConfig) -> None:
    if marks == "crop":
        sheet.marks += crop_marks(sheet.placed, p, cfg)
    elif marks == "cut":
        sheet.cuts += _grid_cuts(sheet.placed, p, cfg)


def fold_sheets(cf: ComponentFaces, face_path, name: str, base: Paper, gutter: float, opts: SheetOptions,
                cfg: LayoutConfig) -> list[Sheet]:
    """Gutter-fold: fronts on one half of the sheet, backs mirrored on the other; fold, glue, cut.

    The fold line runs down the middle of the printable area (vertical or horizontal,
    whichever holds more faces); each back is the mirror image of its front's position
    across it, so the pair lines up whatever the printer.
    """
    faces = cf.fronts
    w, h, b = faces[0].width, faces[0].height, faces[0].bleed
    margin_fold = b + cfg.mark_gap + cfg.mark_min  # room between the faces and the fold
    best = None
    for p in _papers(base, opts.orientation):
        usable_h = p.height - cfg.footer
        for axis in ("vertical", "horizontal"):
            half = (p.width / 2 - margin_fold, usable_h) if axis == "vertical" else (p.width, usable_h / 2 - margin_fold)
            try:
                grid = _choose_grid(cf, p, gutter, replace(opts, orientation="portrait" if p.width <= p.height
                                                           else "landscape"), cfg, avail=half)
            except PnpError:
                continue
            n = grid.cols * grid.rows
            if best is None or n > best[0]:
                best = (n, p, axis, grid)
    if best is None:
        raise cf.error(f"a {w:g} x {h:g} mm face does not fit half a "
                       f"{base.name.upper()} sheet for gutter-fold; expected duplex long, short or none")
    per, p, axis, grid = best
    g = grid.gutter
    block_w, block_h = grid.cols * w + (grid.cols - 1) * g, grid.rows * h + (grid.rows - 1) * g
    usable_h = p.height - cfg.footer
    if axis == "vertical":
        fold_at = p.width / 2
        x0 = fold_at - margin_fold - block_w  # fronts on the left half, next to the fold
        y0 = cfg.footer + (usable_h - block_h) / 2
        fold_line = ((fold_at, cfg.footer), (fold_at, p.height))
    else:
        fold_at = cfg.footer + usable_h / 2
        x0 = (p.width - block_w) / 2
        y0 = fold_at + margin_fold  # fronts on the top half
        fold_line = ((0.0, fold_at), (p.width, fold_at))
    copies = [(f, k) for f in faces for k in range(f.count)]
    sheets = []
    for s in range(math.ceil(len(copies) / per)):
        chunk = copies[s * per:(s + 1) * per]
        sheet = Sheet(p.width, p.height, f"{name}: {s * per + 1}-{s * per + len(chunk)}, fronts and backs "
                      f"(fold on the dashed line)", "fold")
        for i, (face, _) in enumerate(chunk):
            c, r = i % grid.cols, i // grid.cols
            x = x0 + c * (w + g)
            y = y0 + block_h - h - r * (h + g)
            clip = _cell_clip(x, y, w, h, b, g, c, r, grid.cols, grid.rows)
            sheet.placed.append(Placed(face_path(cf.component_id, face), x, y, w, h, b, clip=clip,
                                       label=face.label, component=cf.component_id))
            if axis == "vertical":
                bx, by, bclip = 2 * fold_at - x - w, y, (2 * fold_at - clip[2], clip[1], 2 * fold_at - clip[0], clip[3])
            else:
                bx, by, bclip = x, 2 * fold_at - y - h, (clip[0], 2 * fold_at - clip[3], clip[2], 2 * fold_at - clip[1])
            sheet.placed.append(Placed(face_path(cf.component_id, cf.back), bx, by, w, h, cf.back.bleed,
                                       clip=bclip, label="back", component=cf.component_id))
        _add_marks(sheet, grid.marks, p, cfg)
        if grid.marks == "crop":  # marks may not cross the fold into the other half's art
            sheet.marks = [m for m in sheet.marks if not _crosses_any(m, sheet.placed)]
        sheet.folds.append(fold_line)
        sheets.append(sheet)
    return sheets


def _duplex_words(duplex: str) -> str:
    return {"long": "duplex, flip on long edge", "short": "duplex, flip on short edge",
            "none": "print separately, glue back to back"}.get(duplex, duplex)


def _cell_clip(x, y, w, h, b, g, c, r, cols, rows) -> Box:
    """Art shows up to the full bleed on the block's outside, and up to mid-gutter between neighbours."""
    inner = min(b, g / 2)
    left = b if c == 0 else inner
    right = b if c == cols - 1 else inner
    top = b if r == 0 else inner
    bottom = b if r == rows - 1 else inner
    return (x - left, y - bottom, x + w + right, y + h + top)


def _mirror(x: float, y: float, w: float, h: float, p: Paper, duplex: str) -> Point:
    """Where a back goes so it lands behind its front: long-edge flip mirrors columns, short-edge rows."""
    if duplex == "short":
        return x, p.height - y - h
    return p.width - x - w, y


def _mirror_box(box: Box, p: Paper, duplex: str) -> Box:
    x0, y0, x1, y1 = box
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


def _crosses_any(seg: Segment, placed: list[Placed]) -> bool:
    (x1, y1), (x2, y2) = seg
    lo_x, hi_x, lo_y, hi_y = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
    for p in placed:
        ax0, ay0, ax1, ay1 = p.x - p.bleed, p.y - p.bleed, p.x + p.w + p.bleed, p.y + p.h + p.bleed
        if lo_x < ax1 and hi_x > ax0 and lo_y < ay1 and hi_y > ay0:
            return True
    return False


def _grid_cuts(placed: list[Placed], p: Paper, cfg: LayoutConfig) -> list[Segment]:
    """Full-length cut lines through a block of abutting faces, running out into the margins."""
    if not placed:
        return []
    xs = sorted({round(v, 4) for pl in placed for v in (pl.x, pl.x + pl.w)})
    ys = sorted({round(v, 4) for pl in placed for v in (pl.y, pl.y + pl.h)})
    x_lo, x_hi = max(0.0, xs[0] - cfg.mark_max), min(p.width, xs[-1] + cfg.mark_max)
    y_lo, y_hi = max(cfg.footer, ys[0] - cfg.mark_max), min(p.height, ys[-1] + cfg.mark_max)
    return [((x, y_lo), (x, y_hi)) for x in xs] + [((x_lo, y), (x_hi, y)) for y in ys]


def _length(s: Segment) -> float:
    (a, b), (c, d) = s
    return math.hypot(c - a, d - b)


# --- loose pieces, tokens and tiles: rows ----------------------------------------------------

def hexagon_corners(x: float, y: float, w: float, h: float) -> list[Point]:
    """Corners of the regular hexagon filling the box (x, y, w, h): flat-top if wider, else pointy-top."""
    if w >= h:  # flat top: w = 2a, h = sqrt(3) a
        return [(x + w / 4, y), (x + 3 * w / 4, y), (x + w, y + h / 2), (x + 3 * w / 4, y + h),
                (x + w / 4, y + h), (x, y + h / 2)]
    return [(x + w / 2, y), (x + w, y + h / 4), (x + w, y + 3 * h / 4), (x + w / 2, y + h),
            (x, y + 3 * h / 4), (x, y + h / 4)]


@dataclass(frozen=True)
class _RowShape:
    """How faces of one shape sit in a row, and how rows of the same faces nest.

    `slot(k, odd_row)` gives the k-th face's box offset (dx, dy_from_row_top, rotate);
    `first` is the height of a row that starts fresh, `nest` the extra height of a row
    that continues the same component (tessellated rows interlock and share edges).
    """

    per_row: int
    first: float
    nest: float
    kind: str
    w: float
    h: float
    gap: float

    def slot(self, k: int, odd_row: bool) -> tuple[float, float, int]:
        w, h = self.w, self.h
        if self.kind == "triangle":  # odd rows shift half a side: lattice lines run straight through
            return (k * w / 2 + (w / 2 if odd_row else 0), h, 180 if k % 2 else 0)
        if self.kind == "hex-flat":  # zig-zag row: every other hexagon half a tile lower
            return (k * 3 * w / 4, h + (h / 2 if k % 2 else 0), 0)
        if self.kind == "hex-pointy":  # odd rows shift half a tile to interlock
            return (k * w + (w / 2 if odd_row else 0), h, 0)
        return (k * (w + self.gap) + self.gap / 2, h + self.gap / 2, 0)

    def corners(self, x: float, y: float, rotate: int) -> list[Point]:
        w, h = self.w, self.h
        if self.kind == "triangle":
            return ([(x, y + h), (x + w, y + h), (x + w / 2, y)] if rotate
                    else [(x, y), (x + w, y), (x + w / 2, y + h)])
        if self.kind.startswith("hex"):
            return hexagon_corners(x, y, w, h)
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


def _row_shape(shape: str, w: float, h: float, bleed: float, width: float) -> _RowShape:
    if shape == "triangle":
        return _RowShape(int(2 * (width - w / 2) / w + 1e-9) - 1, h, h, "triangle", w, h, 0.0)
    if shape == "hexagon" and w >= h:
        return _RowShape(int((width - w / 4) / (3 * w / 4) + 1e-9), 1.5 * h, h, "hex-flat", w, h, 0.0)
    if shape == "hexagon":
        return _RowShape(int((width - w / 2) / w + 1e-9), h, 0.75 * h, "hex-pointy", w, h, 0.0)
    gap = 2 * bleed
    return _RowShape(int((width + 1e-9) // (w + gap)), h + gap, h + gap, "rect", w, h, gap)


def pack_sheets(components: list[ComponentFaces], face_path, base: Paper, opts: SheetOptions,
                cfg: LayoutConfig) -> list[Sheet]:
    """Faces without backs (pieces, tokens, tiles of any shape) packed in rows, several components a sheet.

    Squares abut, triangles alternate point up and point down, hexagons interlock in a
    honeycomb: neighbours share their cut lines, so each cut is one straight stroke where
    it can be. Faces with bleed keep a gap of twice the bleed. Each component starts a new
    row; the orientation that takes fewer sheets wins.
    """
    best = None
    for p in _papers(base, opts.orientation):
        sheets = _pack_rows(components, face_path, p, opts, cfg)
        if sheets is not None and (best is None or len(sheets) < len(best)):
            best = sheets
    if best is None:
        cf = components[0]
        raise cf.error(f"its faces do not fit on {base.name.upper()}; "
                       "expected a smaller size or a larger paper")
    return best


def _pack_rows(components: list[ComponentFaces], face_path, p: Paper, opts: SheetOptions,
               cfg: LayoutConfig) -> list[Sheet] | None:
    m = cfg.margin
    left, top, bottom = m, p.height - m, cfg.footer + m
    width = p.width - 2 * m
    sheets: list[Sheet] = []
    edges: list[list[Segment]] = []
    free = top  # the highest free height on the current sheet
    row = None  # the open row: [key, row_top, row_index, next slot]
    for cf in components:
        for face in cf.fronts:
            shape = face.shape if face.shape in ("triangle", "hexagon") else "rect"
            rs = _row_shape(shape, face.width, face.height, face.bleed, width)
            if rs.per_row < 1 or rs.first > top - bottom + 1e-9:
                return None
            key = (cf.component_id, face.width, face.height, shape)
            for _ in range(face.count):
                if row is None or row[0] != key or row[3] >= rs.per_row:  # a new row
                    nested = row is not None and row[0] == key and bool(sheets)
                    row_top = row[1] - rs.nest if nested else free
                    index = row[2] + 1 if nested else 0
                    if not sheets or row_top - rs.first < bottom - 1e-9:
                        sheets.append(Sheet(p.width, p.height, "", "pieces"))
                        edges.append([])
                        row_top, index = top, 0
                    row = [key, row_top, index, 0]
                    free = row_top - rs.first
                dx, dy, rot = rs.slot(row[3], row[2] % 2 == 1)
                x0, y0 = left + dx, row[1] - dy
                corners = rs.corners(x0, y0, rot)
                b = face.bleed
                clip = (x0 - b, y0 - b, x0 + face.width + b, y0 + face.height + b) if rs.kind == "rect" else None
                sheets[-1].placed.append(Placed(face_path(cf.component_id, face), x0, y0, face.width, face.height, b,
                                                rotate=rot, clip=clip, clip_poly=None if clip else corners,
                                                label=face.label, component=cf.component_id))
                edges[-1] += [(corners[i], corners[(i + 1) % len(corners)]) for i in range(len(corners))]
                row[3] += 1
        row = None  # the next component starts a fresh row
    titles = {cf.component_id: (cf.component.display_name("en") or cf.component_id) for cf in components}
    for s, e in zip(sheets, edges):
        if opts.marks != "none":
            s.cuts = _merge_collinear(e)
        counts: dict[str, int] = {}
        for pl in s.placed:
            counts[pl.component] = counts.get(pl.component, 0) + 1
        s.title = ", ".join(f"{titles[c]} ({n})" for c, n in counts.items())
    return sheets


def _rect_edges(box: Box) -> list[Segment]:
    x0, y0, x1, y1 = box
    return [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))]


# --- boards --------------------------------------------------------------------------------


def board_sheets(face: FaceSpec, path: str, name: str, base: Paper, opts: SheetOptions,
                 cfg: LayoutConfig) -> list[Sheet]:
    """A board at true size: one page when it fits (either orientation), else parts with overlap."""
    w, h, b = face.width, face.height, face.bleed
    need = cfg.mark_gap + cfg.mark_min
    for p in _papers(base, opts.orientation):
        aw, ah = p.width - 2 * (b + need), p.height - cfg.footer - 2 * (b + need)
        if w <= aw + 1e-9 and h <= ah + 1e-9:
            x = (p.width - w) / 2
            y = cfg.footer + (p.height - cfg.footer - h) / 2
            sheet = Sheet(p.width, p.height, f"{name} (true size)", "board")
            sheet.placed.append(Placed(path, x, y, w, h, b, label=name))
            if opts.marks != "none":
                sheet.marks = crop_marks(sheet.placed, p, cfg)
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
    w, h = face.width, face.height
    o, m = cfg.board_overlap, cfg.margin
    best = None
    for p in _papers(base, opts.orientation):
        uw, uh = p.width - 2 * m, p.height - cfg.footer - 2 * m
        xs, ys = board_parts(w, h, uw, uh, o)
        if best is None or len(xs) * len(ys) < len(best[1]) * len(best[2]):
            best = (p, xs, ys, uw, uh)
    p, xs, ys, uw, uh = best
    rows, cols = len(ys), len(xs)
    total_parts = rows * cols
    sheets = [_board_overview(face, path, name, base, xs, ys, uw, uh, opts, cfg)]
    ox, oy = m, cfg.footer + m  # where the part's window sits on the page
    for r in range(rows):
        by0 = ys[rows - 1 - r]  # row A is the top of the board
        for c in range(cols):
            bx0 = xs[c]
            vis_w, vis_h = min(uw, w - bx0), min(uh, h - by0)
            wx0, wy0 = ox, oy + (uh - vis_h)  # parts hang from the top of the window
            label = f"{chr(ord('A') + r)}{c + 1}"
            sheet = Sheet(p.width, p.height, f"{name} (true size), part {label} of {total_parts}", "board")
            sheet.placed.append(Placed(path, wx0 - bx0, wy0 - by0, w, h, 0.0,
                                       clip=(wx0, wy0, wx0 + vis_w, wy0 + vis_h), label=label,
                                       component=name))
            sheet.notes.append((wx0, wy0 + vis_h + 1.8, f"part {label}: row {chr(ord('A') + r)}, column {c + 1} "
                                f"of {rows} x {cols}; overlaps its neighbours by {o:g} mm"))
            sheet.cuts += _rect_edges((wx0, wy0, wx0 + vis_w, wy0 + vis_h))
            # alignment marks where a neighbour's edge falls on this part (inside the overlap strip)
            tick = 4.0
            for nx in ([bx0 + uw - o] if c + 1 < cols else []) + ([bx0 + o] if c > 0 else []):
                px = wx0 + (nx - bx0)
                sheet.marks += [((px, wy0 - tick), (px, wy0)), ((px, wy0 + vis_h), (px, wy0 + vis_h + tick))]
            for ny in ([by0 + o] if r + 1 < rows else []) + ([by0 + uh - o] if r > 0 else []):
                py = wy0 + (ny - by0)
                if wy0 < py < wy0 + vis_h:
                    sheet.marks += [((wx0 - tick, py), (wx0, py)), ((wx0 + vis_w, py), (wx0 + vis_w + tick, py))]
            sheets.append(sheet)
    return sheets


def _board_overview(face: FaceSpec, path: str, name: str, base: Paper, xs, ys, uw, uh, opts: SheetOptions,
                    cfg: LayoutConfig) -> Sheet:
    """The whole board scaled to one page with its parts outlined and labelled: the assembly map."""
    w, h, m = face.width, face.height, cfg.margin
    best = None
    for p in _papers(base, opts.orientation):
        aw, ah = p.width - 2 * m, p.height - cfg.footer - 2 * m - 8
        k = min(aw / w, ah / h, 1.0)
        if best is None or k > best[1]:
            best = (p, k)
    p, k = best
    x0 = (p.width - w * k) / 2
    y0 = cfg.footer + m + (p.height - cfg.footer - 2 * m - 8 - h * k) / 2
    sheet = Sheet(p.width, p.height, f"{name}: assembly map ({len(xs) * len(ys)} parts, scale {k:.0%})", "overview")
    sheet.placed.append(Placed(path, x0, y0, w * k, h * k, 0.0, label=name, component=name, scale=k))
    rows = len(ys)
    for r in range(rows):
        by0 = ys[rows - 1 - r]
        for c, bx0 in enumerate(xs):
            vis_w, vis_h = min(uw, w - bx0), min(uh, h - by0)
            box = (x0 + bx0 * k, y0 + by0 * k, x0 + (bx0 + vis_w) * k, y0 + (by0 + vis_h) * k)
            sheet.outlines.append([(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])])
            sheet.notes.append((box[0] + 2, box[3] - 5, f"{chr(ord('A') + r)}{c + 1}"))
    sheet.notes.append((x0, y0 + h * k + 3, f"{name}: print the {len(xs) * len(ys)} parts that follow at 100%, "
                        "cut along the outline, tape them with the alignment marks meeting"))
    return sheet


# --- print-shop output -----------------------------------------------------------------------------


def print_shop_sheets(components: list[ComponentFaces], face_path) -> list[Sheet]:
    """One face side per page at trim + bleed, TrimBox and BleedBox set, each back right after its front.

    Every copy gets its pages (a deck of 41 cards with one back is 82 pages), the way
    print-on-demand shops take a deck.
    """
    sheets = []
    for cf in components:
        sides = [(f, cf.back) for f in cf.fronts for _ in range(f.count)]
        for i, (front, back) in enumerate(sides, start=1):
            for side, face in (("front", front), ("back", back)):
                if face is None:
                    continue
                b = face.bleed
                pw, ph = face.width + 2 * b, face.height + 2 * b
                name = cf.component.display_name("en") or cf.component_id
                sheet = Sheet(pw, ph, f"{name} {i} {side}", "print-shop", furniture=False,
                              trim_box=(b, b, b + face.width, b + face.height), bleed_box=(0.0, 0.0, pw, ph))
                sheet.placed.append(Placed(face_path(cf.component_id, face), b, b, face.width, face.height, b,
                                           label=face.label, component=cf.component_id))
                sheets.append(sheet)
    for i, s in enumerate(sheets, start=1):
        s.number, s.total = i, len(sheets)
    return sheets


# --- cut lines ---------------------------------------------------------------------------------------


def _merge_collinear(segments: list[Segment]) -> list[Segment]:
    """Join shared and touching edges into long straight cut lines (one ruler stroke each)."""
    by_line: dict[tuple, list[tuple[float, float]]] = {}
    for (p1, p2) in segments:
        (x1, y1), (x2, y2) = sorted([p1, p2])
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy)
        if length < 1e-9:
            continue
        ux, uy = dx / length, dy / length
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


def sheets_needed(components: list[ComponentFaces], opts: SheetOptions, face_path,
                  papers: tuple[str, ...] = ("a4", "letter")) -> dict[str, int]:
    """How many sheets the design takes on each paper (for the build summary)."""
    return {name: len(plan(components, replace(opts, paper=name), face_path)) for name in papers}
