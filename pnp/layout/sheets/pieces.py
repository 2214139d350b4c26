"""Loose pieces, tokens and tiles without a back: packed in rows, several components a sheet."""

from __future__ import annotations

from dataclasses import dataclass

from pnp.errors import PnpError
from pnp.layout.sheets.config import LayoutConfig, Paper, SheetOptions, papers
from pnp.layout.sheets.marks import merge_collinear
from pnp.layout.sheets.sheet import Placed, Point, Segment, Sheet
from pnp.render.faces import ComponentFaces


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
    for p in papers(base, opts.orientation):
        sheets = _pack_rows(components, face_path, p, opts, cfg)
        if sheets is not None and (best is None or len(sheets) < len(best)):
            best = sheets
    if best is None:
        cf = components[0]
        raise PnpError(f"component '{cf.component_id}': its faces do not fit on {base.name.upper()}; "
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
            s.cuts = merge_collinear(e)
        counts: dict[str, int] = {}
        for pl in s.placed:
            counts[pl.component] = counts.get(pl.component, 0) + 1
        s.title = ", ".join(f"{titles[c]} ({n})" for c, n in counts.items())
    return sheets

