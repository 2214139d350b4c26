"""The block placer shared by the card grid and gutter-fold: how many faces fit, where each one goes.

A block is `cols` x `rows` faces of one size, `gutter` apart, each showing its bleed art up to
the block's outside and up to mid-gutter between neighbours. A back lands at the mirror image
of its front: across the sheet's middle for duplex printing, across the fold line for
gutter-fold.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.layout.sheets.config import LayoutConfig, Paper, SheetOptions, papers
from pnp.layout.sheets.sheet import Box, Placed, Point
from pnp.render.faces import ComponentFaces
from pnp.render.facespec import FaceSpec


def grid_fit(w: float, h: float, g: float, b: float, avail_w: float, avail_h: float,
             edge: float) -> tuple[int, int]:
    """Columns and rows of w x h trims, gutter g, that fit with room `edge` beyond the outer bleed."""
    cols = int((avail_w - 2 * (b + edge) + g + 1e-9) // (w + g)) if avail_w > 0 else 0
    rows = int((avail_h - 2 * (b + edge) + g + 1e-9) // (h + g)) if avail_h > 0 else 0
    return max(cols, 0), max(rows, 0)


@dataclass(frozen=True)
class Grid:
    paper: Paper
    cols: int
    rows: int
    gutter: float
    x0: float  # trim of the block's bottom-left face
    y0: float
    marks: str  # crop | cut | none
    w: float  # one face's trim and bleed
    h: float
    b: float
    advice: str = ""  # what the build summary says of this grid (see choose_grid)
    rotate: int = 0  # 90: the faces lie on their side (w and h above are then the turned face's)

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def block_w(self) -> float:
        return self.cols * self.w + (self.cols - 1) * self.gutter

    @property
    def block_h(self) -> float:
        return self.rows * self.h + (self.rows - 1) * self.gutter


def choose_grid(cf: ComponentFaces, base: Paper, gutter: float, opts: SheetOptions, cfg: LayoutConfig,
                avail: tuple[float, float] | None = None, reserve_top: bool = False) -> Grid:
    """The grid that puts the most faces on a sheet, its block centred above the footer.

    With `marks: crop`, the design's gutter with crop marks outside the block, in the
    orientation that fits most; only when no face fits so (the face nearly fills the
    printable area) do faces abut with full cut lines. Cut lines are never drawn over faces
    otherwise: when abutting faces would fit more, `Grid.advice` says so. With `marks: cut`
    faces abut with cut lines, with `marks: none` faces keep the gutter and nothing is drawn.
    """
    w, h, b = cf.fronts[0].width, cf.fronts[0].height, cf.fronts[0].bleed
    reserve = 2 * cfg.footer if reserve_top else cfg.footer

    def fit(g: float, edge: float, marks: str):
        """The most faces, upright first, then turned a quarter (only where that fits more)."""
        best = None
        for turn, fw, fh in ((0, w, h), (90, h, w)) if w != h else ((0, w, h),):
            for p in papers(base, opts.orientation):
                aw, ah = avail if avail else (p.width, p.height - reserve)
                cols, rows = grid_fit(fw, fh, g, b, aw, ah, edge)
                if cols * rows and (best is None or cols * rows > best[1] * best[2]):
                    best = (p, cols, rows, g, marks, turn)
        return best

    advice = ""
    if opts.marks == "crop":
        best, abutting = fit(max(gutter, 0.0), cfg.mark_gap + cfg.mark_min, "crop"), fit(0.0, 0.0, "cut")
        room = f"inside the {opts.margin:g} mm printable margin" if opts.margin else "on the sheet"
        if best is None and abutting is not None:
            best = abutting
            advice = f"no room for crop marks {room}: faces abut, with cut lines"
        elif best is not None and abutting is not None and abutting[1] * abutting[2] > best[1] * best[2]:
            advice = (f"{best[1] * best[2]} per sheet{', turned a quarter,' if best[5] else ''} with crop marks "
                      f"{room} ({abutting[1] * abutting[2]} with cut lines through abutting faces: --marks cut, "
                      "or a smaller --margin)")
    else:
        best = fit(0.0, 0.0, "cut") if opts.marks == "cut" else fit(max(gutter, 0.0), 0.0, "none")
    if best is None:
        raise cf.error(f"a {w:g} x {h:g} mm face with {b:g} mm bleed does not fit "
                       f"on {base.name.upper()}; expected a smaller size or a larger paper")
    p, cols, rows, g, marks, turn = best
    if turn:
        w, h = h, w
        advice = advice or f"turned a quarter to fit {cols * rows} per sheet"
    block_w, block_h = cols * w + (cols - 1) * g, rows * h + (rows - 1) * g
    x0 = (p.width - block_w) / 2
    y0 = cfg.footer + (p.height - reserve - block_h) / 2
    if marks != "cut" and b > 0 and cols * rows > 1 and g < 2 * b - 1e-9:
        kept = max(min(b, g / 2), 0.0)
        advice = "; ".join(filter(None, [advice, (
            f"{kept:g} mm of the {b:g} mm bleed survive between neighbours (gutter {g:g} mm; "
            f"print.gutter: bleed keeps all of it)")]))
    return Grid(p, cols, rows, g, x0, y0, marks, w, h, b, advice, turn)


@dataclass(frozen=True)
class Mirror:
    """Reflection across the line x = span / 2 (axis "x") or y = span / 2 (axis "y")."""

    axis: str
    span: float

    def origin(self, x: float, y: float, w: float, h: float) -> Point:
        """Where a w x h box whose bottom-left is (x, y) has its bottom-left after the reflection."""
        if self.axis == "y":
            return x, self.span - y - h
        return self.span - x - w, y

    def box(self, box: Box) -> Box:
        x0, y0, x1, y1 = box
        if self.axis == "y":
            return (x0, self.span - y1, x1, self.span - y0)
        return (self.span - x1, y0, self.span - x0, y1)

    def point(self, x: float, y: float) -> Point:
        return (x, self.span - y) if self.axis == "y" else (self.span - x, y)

    def path(self, ops: tuple) -> tuple:
        """A planner path (("M", x, y), ("C", ...)...) reflected."""
        k = self.span
        if self.axis == "y":
            return tuple((op[0], *(k - v if i % 2 else v for i, v in enumerate(op[1:], start=0))) for op in ops)
        return tuple((op[0], *(v if i % 2 else k - v for i, v in enumerate(op[1:], start=0))) for op in ops)


def duplex_mirror(p: Paper, duplex: str) -> Mirror:
    """Where a back goes so it lands behind its front: long-edge flip mirrors columns, short-edge rows."""
    return Mirror("y", p.height) if duplex == "short" else Mirror("x", p.width)


def cell_clip(x, y, w, h, b, g, c, r, cols, rows) -> Box:
    """Art shows up to the full bleed on the block's outside, and up to mid-gutter between neighbours."""
    inner = min(b, g / 2)
    left = b if c == 0 else inner
    right = b if c == cols - 1 else inner
    top = b if r == 0 else inner
    bottom = b if r == rows - 1 else inner
    return (x - left, y - bottom, x + w + right, y + h + top)


def place_block(grid: Grid, chunk: list[FaceSpec], cid: str, face_path, back,
                mirror: Mirror) -> list[tuple[Placed, Placed | None]]:
    """Each face of `chunk` in the block, rows from the top, and its back (if any) at the mirror image. `back`
    is the shared back, or a function front -> its back (backs per row)."""
    w, h, b, g = grid.w, grid.h, grid.b, grid.gutter
    block_h = grid.block_h
    out: list[tuple[Placed, Placed | None]] = []
    for i, face in enumerate(chunk):
        c, r = i % grid.cols, i // grid.cols
        x = grid.x0 + c * (w + g)
        y = grid.y0 + block_h - h - r * (h + g)  # rows from the top
        clip = cell_clip(x, y, w, h, b, g, c, r, grid.cols, grid.rows)
        front = Placed(face_path(cid, face), x, y, w, h, b, rotate=grid.rotate, clip=clip, label=face.label,
                       component=cid)
        face_back = back(face) if callable(back) else back
        if face_back is None:
            out.append((front, None))
            continue
        bx, by = mirror.origin(x, y, w, h)
        # a turned back: its top towards the edge its front's top faces once the sheet is turned over
        turn = (360 - grid.rotate) % 360 if mirror.axis == "x" else grid.rotate
        out.append((front, Placed(face_path(cid, face_back), bx, by, w, h, face_back.bleed, rotate=turn,
                                  clip=mirror.box(clip), label="back", component=cid)))
    return out


def copies(cf: ComponentFaces) -> list[FaceSpec]:
    """Every printed copy of the component's fronts, in order."""
    return [f for f in cf.fronts for _ in range(f.count)]


def check_uniform(cf: ComponentFaces) -> None:
    """All fronts of a block share one size: the grid is computed from the first."""
    w, h, b = cf.fronts[0].width, cf.fronts[0].height, cf.fronts[0].bleed
    if any((f.width, f.height, f.bleed) != (w, h, b) for f in cf.fronts):
        raise cf.error("faces of different sizes cannot share a grid")
