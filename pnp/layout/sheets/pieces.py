"""Pieces, tokens and tiles packed in rows, several components a sheet; shaped pieces cut along their outline.

Rectangles, and triangles and hexagons without bleed, tessellate as they always did (shared
straight cut lines). Circles, outlines (polygon or SVG path), and triangles and hexagons
with bleed are `_Lattice` rows: a gap between neighbours (the print gutter), each piece's
art clipped to its outline grown by at most half that gap, so no bleed reaches another
piece's cut line, and rows nesting as tightly as the outline allows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from pnp.layout.sheets.config import LayoutConfig, Paper, SheetOptions, papers
from pnp.layout.sheets.marks import merge_collinear
from pnp.layout.sheets.outline import (
    Outline,
    grown,
    hexagon_corners,
    outline_of,
    shape_key,
    slide,
    turned,
)
from pnp.layout.sheets.sheet import Placed, Point, Segment, Sheet, shift_path
from pnp.render.faces import ComponentFaces
from pnp.render.facespec import FaceSpec
from pnp.words import say

Region = tuple[float, float, float, float]  # left, bottom, right, top: where pieces (and their bleed) go


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

    def count(self, odd_row: bool) -> int:
        return self.per_row

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


@dataclass(frozen=True)
class _Lattice:
    """Shaped pieces in rows: a gap apart, alternating or not, rows nesting into each other.

    Piece k of a row sits `pitch` after piece k - 1 (or, when pieces alternate, every other
    piece `t1` after its partner, turned 180 degrees and/or `drop` lower); odd rows start
    `shift` further right; a row continuing the same component starts `nest` below the last.
    """

    outline: Outline
    e: float  # the bleed each piece shows around its outline (and keeps inside the region)
    pitch: float
    t1: float | None
    turn_odd: bool
    drop: float
    shift: float
    nest: float
    counts: tuple[int, int] = (0, 0)  # pieces in an even row, in an odd row
    clips: tuple = ()  # clip path of an upright and of a turned piece (trim coordinates)

    @property
    def first(self) -> float:
        return self.outline.h + self.drop + 2 * self.e

    @property
    def w(self) -> float:
        return self.outline.w

    def count(self, odd_row: bool) -> int:
        return self.counts[1 if odd_row else 0]

    def slot(self, k: int, odd_row: bool) -> tuple[float, float, int]:
        odd = self.t1 is not None and k % 2 == 1
        x = k * self.pitch if self.t1 is None else (k // 2) * self.pitch + (self.t1 if odd else 0.0)
        x += self.e + (self.shift if odd_row else 0.0)
        return (x, self.e + self.outline.h + (self.drop if odd else 0.0), 180 if odd and self.turn_odd else 0)


def _gap(face: FaceSpec, opts: SheetOptions) -> float:
    """Shaped pieces with bleed stand the print gutter apart (default: the bleed); without bleed they abut."""
    return max(opts.gutter, 0.0) if face.bleed > 0 else 0.0


def row_shape(face: FaceSpec, width: float, opts: SheetOptions):
    """How this face's copies sit in rows `width` wide."""
    shape, w, h, bleed = face.shape, face.width, face.height, face.bleed
    gap = _gap(face, opts)
    if (shape in ("triangle", "hexagon") and gap == 0) or shape == "rect" or not shape:
        return _row_shape(shape if shape in ("triangle", "hexagon") else "rect", w, h, bleed, width)
    outline = outline_of(shape, w, h)
    return _lattice(outline, min(bleed, gap / 2), gap, width)  # type: ignore[arg-type]


def _lattice(outline: Outline, e: float, gap: float, width: float) -> _Lattice:
    w, h = outline.w, outline.h
    r3 = math.sqrt(3)
    regular = (abs(h - w * r3 / 2) < 0.01 if outline.kind in ("triangle", "hexagon") and w >= h
               else abs(w - h * r3 / 2) < 0.01)
    if outline.kind == "circle":  # offset rows: each circle touches six neighbours' gaps
        s = w + gap
        lat = _Lattice(outline, e, s, None, False, 0.0, s / 2, s * r3 / 2)
    elif outline.kind == "hexagon" and regular and w >= h:  # flat top: zig-zag rows, as the honeycomb
        c = h + gap
        lat = _Lattice(outline, e, c * r3, c * r3 / 2, False, c / 2, 0.0, c)
    elif outline.kind == "hexagon" and regular:  # pointy top: odd rows shifted half a tile
        s = w + gap
        lat = _Lattice(outline, e, s, None, False, 0.0, s / 2, s * r3 / 2)
    elif outline.kind == "triangle" and regular:  # alternately up and down, a gap across every edge
        t1 = w / 2 + 2 * gap / r3
        lat = _Lattice(outline, e, 2 * t1, t1, True, 0.0, t1, h + gap)
    else:
        lat = _fitted(outline, e, gap)
    counts = []
    for odd_row in (False, True):
        n = 0
        while n < 10000 and lat.slot(n, odd_row)[0] + w + e <= width + 1e-9:
            n += 1
        counts.append(n)
    clip = grown(outline, e)
    return replace(lat, counts=tuple(counts), clips=(clip, turned(clip, w, h)))  # type: ignore[arg-type]


def _fitted(outline: Outline, e: float, gap: float) -> _Lattice:
    """Rows for any outline: the closest pitch in a row, alone or alternating with the piece turned
    180 degrees, odd rows shifted by 0 or half a pitch; the densest wins."""
    poly, tol = outline.pack_poly
    g = gap + 2 * tol  # the packing polygon may stray tol from the true outline, on each piece
    w, h = outline.w, outline.h
    up = list(poly)
    down = [(w - x, h - y) for x, y in poly]
    plain = slide(up, up, (1.0, 0.0), g)
    t1 = slide(up, down, (1.0, 0.0), g)
    alt = max(t1 + slide(down, up, (1.0, 0.0), g), plain)
    best = None
    for pitch, first in ((plain, None), (alt, t1)):
        for shift in (0.0, pitch / 2):
            lat = _Lattice(outline, e, pitch, first, first is not None, 0.0, shift, 0.0)
            nest = max(_row_gap(lat, up, down, shift, g), _row_gap(lat, up, down, 2 * shift, g) / 2, 1e-3)
            per = 2 if first is not None else 1
            density = per / (pitch * nest)
            if best is None or density > best[0] + 1e-9:
                best = (density, replace(lat, nest=nest))
    return best[1]  # type: ignore[index]


def _row_gap(lat: _Lattice, up, down, shift: float, g: float) -> float:
    """How far below a row the next row (shifted right by `shift`) must start: the largest downward
    slide any of its pieces needs to clear the pieces above."""
    per = 2 if lat.t1 is not None else 1
    reach = lat.outline.w + g
    span = math.ceil(reach / lat.pitch) + 2
    row = []
    for k in range(-span * per, (span + 1) * per):
        x = lat.slot(k, False)[0] - lat.e
        row.append((x, down if lat.t1 is not None and k % 2 else up))
    need = -math.inf
    for k in range(per):  # one period of the upper row
        ux = lat.slot(k, False)[0] - lat.e
        upper = [(x + ux, y) for x, y in (down if lat.t1 is not None and k % 2 else up)]
        for lx, poly in row:
            lx += shift
            if abs(lx - ux) > reach:
                continue
            lower = [(x + lx, y) for x, y in poly]
            need = max(need, slide(upper, lower, (0.0, -1.0), g))
    return need


def _tessellated(rs) -> bool:
    return isinstance(rs, _RowShape)


def pack_sheets(components: list[ComponentFaces], face_path, base: Paper, opts: SheetOptions,
                cfg: LayoutConfig) -> list[Sheet]:
    """Faces without backs (pieces, tokens, tiles of any shape) packed in rows, several components a sheet.

    Squares abut, triangles alternate point up and point down, hexagons interlock in a
    honeycomb: neighbours share their cut lines, so each cut is one straight stroke where
    it can be. Faces with bleed keep a gap of twice the bleed. Circles sit in offset rows
    and other outlines nest as tightly as they allow, a gutter apart when they have bleed,
    each cut along its own outline. Each component starts a new row; the orientation that
    takes fewer sheets wins.
    """
    best = None
    for p in papers(base, opts.orientation):
        sheets = pack_rows(components, face_path, p, opts, cfg)
        if sheets is not None and (best is None or len(sheets) < len(best)):
            best = sheets
    if best is None:
        cf = components[0]
        raise cf.error(f"its faces do not fit on {base.name.upper()}; "
                       "expected a smaller size or a larger paper")
    return best


def page_region(p: Paper, cfg: LayoutConfig) -> Region:
    m = cfg.margin
    return (m, cfg.footer + m, p.width - m, p.height - m)


def pack_rows(components: list[ComponentFaces], face_path, p: Paper, opts: SheetOptions,
              cfg: LayoutConfig, region: Region | None = None) -> list[Sheet] | None:
    """The components' faces in rows inside `region` (default: the page inside its margins and footer)."""
    left, bottom, right, top = region or page_region(p, cfg)
    width = right - left
    sheets: list[Sheet] = []
    edges: list[list[Segment]] = []
    free = top  # the highest free height on the current sheet
    row = None  # the open row: [key, row_top, row_index, next slot]
    for cf in components:
        for face in cf.fronts:
            rs = row_shape(face, width, opts)
            if rs.count(False) < 1 or rs.first > top - bottom + 1e-9:
                return None
            key = (cf.component_id, face.width, face.height, shape_key(face.shape))
            for _ in range(face.count):
                if row is None or row[0] != key or row[3] >= rs.count(row[2] % 2 == 1):  # type: ignore[operator]  # a new row
                    nested = row is not None and row[0] == key and bool(sheets)
                    row_top = row[1] - rs.nest if nested else free  # type: ignore[index]
                    index = row[2] + 1 if nested else 0  # type: ignore[index, operator]
                    if nested and rs.count(index % 2 == 1) < 1:  # shifted rows hold none here: skip one
                        row_top, index = row_top - rs.nest, index + 1
                    if not sheets or row_top - rs.first < bottom - 1e-9:
                        sheets.append(Sheet(p.width, p.height, "", "pieces"))
                        edges.append([])
                        row_top, index = top, 0
                    row = [key, row_top, index, 0]
                    free = row_top - rs.first
                dx, dy, rot = rs.slot(row[3], row[2] % 2 == 1)  # type: ignore[operator]
                x0, y0 = left + dx, row[1] - dy
                path = face_path(cf.component_id, face)
                if _tessellated(rs):
                    corners = rs.corners(x0, y0, rot)
                    b = face.bleed
                    clip = (x0 - b, y0 - b, x0 + face.width + b, y0 + face.height + b) if rs.kind == "rect" else None
                    sheets[-1].placed.append(Placed(path, x0, y0, face.width, face.height, b, rotate=rot, clip=clip,
                                                    clip_poly=None if clip else corners, label=face.label,
                                                    component=cf.component_id))
                    edges[-1] += [(corners[i], corners[(i + 1) % len(corners)]) for i in range(len(corners))]
                else:
                    placed, cut_edges, cut_path = _shaped_piece(rs, path, face, x0, y0, rot, cf.component_id)
                    sheets[-1].placed.append(placed)
                    edges[-1] += cut_edges
                    if cut_path and opts.marks != "none":
                        sheets[-1].cut_paths.append(cut_path)
                row[3] += 1  # type: ignore[operator]
        row = None  # the next component starts a fresh row
    titles = {cf.component_id: (cf.component.display_name(opts.lang) or cf.component_id) for cf in components}
    for s, e in zip(sheets, edges):
        if opts.marks != "none":
            s.cuts = merge_collinear(e)
        counts: dict[str, int] = {}
        for pl in s.placed:
            counts[pl.component] = counts.get(pl.component, 0) + 1
        s.title = ", ".join(say("sheets.pieces", opts.lang, name=titles[c], count=n) for c, n in counts.items())
        s.section = titles[next(iter(counts))] if counts else ""
    return sheets



def _shaped_piece(lat: _Lattice, path: str, face: FaceSpec, x0: float, y0: float, rot: int,
                  component: str) -> tuple[Placed, list[Segment], tuple | None]:
    """A shaped piece at (x0, y0): clipped to its grown outline; straight edges or a curved cut path."""
    o = lat.outline
    cut = o.ops if not rot else turned(o.ops, o.w, o.h)
    cut = shift_path(cut, x0, y0)
    clip = shift_path(lat.clips[1 if rot else 0], x0, y0)
    placed = Placed(path, x0, y0, o.w, o.h, face.bleed, rotate=rot, clip_path=clip, outline=cut,
                    label=face.label, component=component)
    if o.curved:
        return placed, [], cut
    poly = [(o.w - x, o.h - y) for x, y in o.poly] if rot else list(o.poly)
    poly = [(x + x0, y + y0) for x, y in poly]
    return placed, [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))], None
