"""Cut outlines of shaped faces (circle, hexagon, triangle, polygon, SVG path) as paths and polygons.

A path is a tuple of operations in mm: ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y)
and ("Z",); a clip path may hold several closed subpaths, filled with the non-zero rule (so
subpaths turning the same way make their union). An outline is in trim coordinates: origin
at the trim's bottom-left corner, y up. The design gives polygons and paths from the
top-left corner, y down, as templates draw; they are turned here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from pnp.errors import PnpError
from pnp.layout.sheets.sheet import Point

Op = tuple
Path = tuple[Op, ...]

KAPPA = 4 * (math.sqrt(2) - 1) / 3  # a quarter circle as one cubic Bézier
FINE = 0.005  # mm: curves flattened this close for clips and checks
PACK = 0.05  # mm: coarser polygons for packing; clearances grow by twice this


@dataclass(frozen=True)
class Outline:
    """A face's cut line: the exact path (`ops`) and the same as a counter-clockwise polygon (`poly`)."""

    kind: str  # circle | ellipse | hexagon | triangle | polygon | path
    w: float
    h: float
    ops: Path
    poly: tuple[Point, ...]
    curved: bool
    convex: bool

    @property
    def pack_poly(self) -> tuple[tuple[Point, ...], float]:
        """A coarser polygon for packing, and how far it may stray from the true outline."""
        return _pack_poly(self)


def hexagon_corners(x: float, y: float, w: float, h: float) -> list[Point]:
    """Corners of the regular hexagon filling the box (x, y, w, h): flat-top if wider, else pointy-top."""
    if w >= h:  # flat top: w = 2a, h = sqrt(3) a
        return [(x + w / 4, y), (x + 3 * w / 4, y), (x + w, y + h / 2), (x + 3 * w / 4, y + h),
                (x + w / 4, y + h), (x, y + h / 2)]
    return [(x + w / 2, y), (x + w, y + h / 4), (x + w, y + 3 * h / 4), (x + w / 2, y + h),
            (x, y + 3 * h / 4), (x, y + h / 4)]


def shape_key(shape) -> str:
    """A hashable name of a shape (named shapes are strings, outlines dicts)."""
    if isinstance(shape, dict):
        return repr(sorted(shape.items()))
    return str(shape or "rect")


def outline_of(shape, w: float, h: float) -> Outline | None:
    """The outline of a face of this shape and trim size; None for a rectangle."""
    if shape is None or shape == "rect":
        return None
    if isinstance(shape, dict):
        polygon = shape.get("polygon")
        return _custom(w, h, tuple(tuple(p) for p in polygon) if polygon else None, shape.get("path"))
    return _named(str(shape), w, h)


@lru_cache(maxsize=64)
def _named(name: str, w: float, h: float) -> Outline:
    if name == "circle":
        ops = ellipse_ops(w / 2, h / 2, w / 2, h / 2)
        return _make("circle" if abs(w - h) < 1e-9 else "ellipse", w, h, ops, curved=True)
    if name == "hexagon":
        return _make("hexagon", w, h, polygon_ops(hexagon_corners(0.0, 0.0, w, h)), curved=False)
    if name == "triangle":
        return _make("triangle", w, h, polygon_ops([(0.0, 0.0), (w, 0.0), (w / 2, h)]), curved=False)
    raise PnpError(f"unknown shape '{name}'; expected rect, triangle, hexagon, circle, a polygon or a path")


@lru_cache(maxsize=64)
def _custom(w: float, h: float, polygon, path) -> Outline:
    if polygon:
        outline = _make("polygon", w, h, polygon_ops([(x, h - y) for x, y in polygon]), curved=False)
    else:
        outline = _make("path", w, h, svg_path_ops(path, h), curved=None)
    x0, y0, x1, y1 = bounds(outline.poly)
    worst = max(-x0, -y0, x1 - w, y1 - h)
    if worst > 0.05:
        raise PnpError(f"a cut outline reaches {worst:.1f} mm outside its {w:g} x {h:g} mm trim; expected an outline "
                       "inside the trim box (mm from its top-left corner, as templates draw)")
    if abs(_area(outline.poly)) < 1.0:
        raise PnpError("a cut outline encloses less than 1 mm²; expected a closed outline of the piece")
    return outline


def _make(kind: str, w: float, h: float, ops: Path, curved: bool | None) -> Outline:
    poly = flatten(ops, FINE)[0]
    if _area(poly) < 0:
        poly = poly[::-1]
    if curved is None:
        curved = any(op[0] == "C" for op in ops)
    return Outline(kind, w, h, tuple(ops), tuple(poly), curved, _convex(poly))


# --- paths --------------------------------------------------------------------------------------


def polygon_ops(points) -> Path:
    (x, y), *rest = points
    return (("M", x, y), *(("L", px, py) for px, py in rest), ("Z",))


def ellipse_ops(cx: float, cy: float, rx: float, ry: float) -> Path:
    """An ellipse as four cubic Béziers, counter-clockwise from its rightmost point."""
    kx, ky = KAPPA * rx, KAPPA * ry
    return (("M", cx + rx, cy),
            ("C", cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
            ("C", cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
            ("C", cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
            ("C", cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
            ("Z",))


def svg_path_ops(d: str, h: float) -> Path:
    """SVG path data (mm, y down) as absolute moves, lines and cubics in trim coordinates (y up).

    The renderer that draws every face reads the path data too (pnp.render.svgpdf: arcs,
    quadratics, relative commands all become lines and cubics), so the cut line is the curve
    the template draws.
    """
    from pnp.render.svgpdf.geometry import path, segments  # lazy: 84 ms (pnp.render.svgpdf.geometry)
    from pnp.render.svgpdf.values import path_commands  # lazy: 102 ms (pnp.render.svgpdf.values)

    commands, _ = path_commands(d)
    ops: list = []
    for seg in segments(path(commands)):
        op, nums = seg[0], seg[1:]
        if op == "Z":
            ops.append(("Z",))
        else:
            ops.append((op, *(v if i % 2 == 0 else h - v for i, v in enumerate(nums))))
    if not any(op[0] in "LC" for op in ops):
        raise PnpError("a cut outline path draws nothing; expected SVG path data such as 'M 0 0 L 20 0 L 10 17 Z'")
    if ops[-1] != ("Z",):
        ops.append(("Z",))
    return tuple(ops)


def transform(ops: Path, f) -> Path:
    """The path with every point mapped by f(x, y) -> (x, y)."""
    out = []
    for op in ops:
        if op[0] == "Z":
            out.append(op)
            continue
        vals = []
        for i in range(1, len(op), 2):
            vals += f(op[i], op[i + 1])
        out.append((op[0], *vals))
    return tuple(out)


def turned(ops: Path, w: float, h: float) -> Path:
    """Turned 180 degrees about the centre of the w x h box at the origin."""
    return transform(ops, lambda x, y: (w - x, h - y))


def flatten(ops: Path, tol: float) -> list[list[Point]]:
    """Each subpath as a polygon whose edges stay within `tol` of the curve."""
    polys: list[list[Point]] = []
    cur: list[Point] = []
    for op in ops:
        if op[0] == "M":
            if len(cur) > 1:
                polys.append(cur)
            cur = [(op[1], op[2])]
        elif op[0] == "L":
            cur.append((op[1], op[2]))
        elif op[0] == "C":
            (x0, y0), (x1, y1, x2, y2, x3, y3) = cur[-1], op[1:]
            # a cubic cut in n equal steps strays at most (1/8) * max |B''| / n^2 from its chords
            dd = max(math.hypot(x0 - 2 * x1 + x2, y0 - 2 * y1 + y2), math.hypot(x1 - 2 * x2 + x3, y1 - 2 * y2 + y3))
            n = max(1, min(256, math.ceil(math.sqrt(6 * dd / (8 * tol)))))
            for k in range(1, n + 1):
                t = k / n
                s = 1 - t
                cur.append((s * s * s * x0 + 3 * s * s * t * x1 + 3 * s * t * t * x2 + t * t * t * x3,
                            s * s * s * y0 + 3 * s * s * t * y1 + 3 * s * t * t * y2 + t * t * t * y3))
    if len(cur) > 1:
        polys.append(cur)
    out = []
    for poly in polys:
        clean = [p for i, p in enumerate(poly) if math.dist(p, poly[i - 1]) > 1e-9]
        out.append(clean)
    return out


def bounds(poly) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    return (min(xs), min(ys), max(xs), max(ys))


def _area(poly) -> float:
    return sum(poly[i - 1][0] * poly[i][1] - poly[i][0] * poly[i - 1][1] for i in range(len(poly))) / 2


def _convex(poly) -> bool:
    n = len(poly)
    for i in range(n):
        (ax, ay), (bx, by), (cx, cy) = poly[i - 2], poly[i - 1], poly[i]
        if (bx - ax) * (cy - by) - (by - ay) * (cx - bx) < -1e-9:
            return False
    return True


# --- bleed: the outline grown by e --------------------------------------------------------------


def grown(outline: Outline, e: float) -> Path:
    """The region within e of the piece (its outline grown by e), as a clip path in trim coordinates."""
    if e <= 0:
        return outline.ops
    if outline.kind == "circle":
        r = outline.w / 2
        return ellipse_ops(r, r, r + e, r + e)
    if outline.convex:
        return _grown_convex(outline.poly, e)
    return _grown_union(outline.poly, e)


def _arc(cx: float, cy: float, r: float, a0: float, a1: float) -> list[Op]:
    """Cubic Béziers along the circle (cx, cy, r) from angle a0 to a1 (counter-clockwise, a1 > a0)."""
    parts = max(1, math.ceil((a1 - a0) / (math.pi / 2) - 1e-9))
    step = (a1 - a0) / parts
    k = 4 / 3 * math.tan(step / 4)
    ops = []
    for i in range(parts):
        b0, b1 = a0 + i * step, a0 + (i + 1) * step
        p0 = (cx + r * math.cos(b0), cy + r * math.sin(b0))
        p3 = (cx + r * math.cos(b1), cy + r * math.sin(b1))
        ops.append(("C", p0[0] - k * r * math.sin(b0), p0[1] + k * r * math.cos(b0),
                    p3[0] + k * r * math.sin(b1), p3[1] - k * r * math.cos(b1), p3[0], p3[1]))
    return ops


def _normal(a: Point, b: Point) -> Point:
    """Outward unit normal of the edge a -> b of a counter-clockwise polygon."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy)
    return (dy / n, -dx / n)


def _grown_convex(poly, e: float) -> Path:
    """A convex polygon grown by e: its edges pushed out, rounded at the corners (one subpath)."""
    n = len(poly)
    normals = [_normal(poly[i], poly[(i + 1) % n]) for i in range(n)]  # normals[i]: edge i -> i+1
    ops: list[Op] = []
    for i in range(n):
        v = poly[i]
        n_in, n_out = normals[i - 1], normals[i]
        a0, a1 = math.atan2(n_in[1], n_in[0]), math.atan2(n_out[1], n_out[0])
        while a1 < a0 - 1e-12:
            a1 += 2 * math.pi
        start = (v[0] + e * n_in[0], v[1] + e * n_in[1])
        ops.append(("M" if i == 0 else "L", *start))
        if a1 - a0 > 1e-9:
            ops += _arc(v[0], v[1], e, a0, a1)
    ops.append(("Z",))
    return tuple(ops)


def _grown_union(poly, e: float) -> Path:
    """Any polygon grown by e, as the union of the polygon, a band along each edge and a disc at each
    corner: subpaths all counter-clockwise, so the non-zero rule fills their union exactly."""
    n = len(poly)
    ops: list[Op] = list(polygon_ops(poly))
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        nx, ny = _normal(a, b)
        ops += polygon_ops([(a[0] + e * nx, a[1] + e * ny), (b[0] + e * nx, b[1] + e * ny),
                            (b[0] - e * nx, b[1] - e * ny), (a[0] - e * nx, a[1] - e * ny)])
        ops += ellipse_ops(a[0], a[1], e, e)
    return tuple(ops)


# --- packing: how close two pieces may come -----------------------------------------------------


@lru_cache(maxsize=64)
def _pack_poly(outline: Outline) -> tuple[tuple[Point, ...], float]:
    if not outline.curved:
        return outline.poly, 0.0
    tol = PACK
    while True:
        poly = flatten(outline.ops, tol)[0]
        if len(poly) <= 96 or tol > 1:
            return tuple(poly), tol
        tol *= 2


def slide(a, b, u: Point, gap: float) -> float:
    """How far along the unit direction u polygon b must be moved so that it stays at least `gap`
    from polygon a, however much further it goes: the largest t at which b + t u comes closer.

    Two polygons come closest at a corner of one and an edge of the other, so this is the
    last moment a corner of b leaves the band of width `gap` around an edge of a (or a corner
    of a that around an edge of b). -inf if they never come that close.
    """
    g = max(gap, 1e-7)
    best = -math.inf
    for p, edges_of, sign in ((b, a, 1.0), (a, b, -1.0)):
        ux, uy = u[0] * sign, u[1] * sign
        n = len(edges_of)
        for i in range(n):
            ax, ay = edges_of[i]
            bx, by = edges_of[(i + 1) % n]
            # across u, a corner must lie within the edge's reach to touch its band
            lo = min(ax * uy - ay * ux, bx * uy - by * ux) - g
            hi = max(ax * uy - ay * ux, bx * uy - by * ux) + g
            for px, py in p:
                c = px * uy - py * ux
                if c < lo or c > hi:
                    continue
                t = _ray_capsule(px, py, ux, uy, ax, ay, bx, by, g)
                if t > best:
                    best = t
    return best


def _ray_capsule(px, py, ux, uy, ax, ay, bx, by, g) -> float:
    """The largest t with p + t u within g of the segment ab (-inf if none)."""
    best = -math.inf
    for cx, cy in ((ax, ay), (bx, by)):
        dx, dy = px - cx, py - cy
        bq = dx * ux + dy * uy
        disc = bq * bq - (dx * dx + dy * dy - g * g)
        if disc >= 0:
            t = -bq + math.sqrt(disc)
            if t > best:
                best = t
    vx, vy = bx - ax, by - ay
    length = math.hypot(vx, vy)
    if length < 1e-12:
        return best
    vx, vy = vx / length, vy / length
    nx, ny = -vy, vx
    lo, hi = -math.inf, math.inf
    # along the edge: 0 <= (p + t u - a).v <= length; across: -g <= (p + t u - a).n <= g
    for (alpha, beta, a_lo, a_hi) in (((px - ax) * vx + (py - ay) * vy, ux * vx + uy * vy, 0.0, length),
                                      ((px - ax) * nx + (py - ay) * ny, ux * nx + uy * ny, -g, g)):
        if abs(beta) < 1e-12:
            if not a_lo <= alpha <= a_hi:
                return best
            continue
        t1, t2 = (a_lo - alpha) / beta, (a_hi - alpha) / beta
        if t1 > t2:
            t1, t2 = t2, t1
        lo, hi = max(lo, t1), min(hi, t2)
    if lo <= hi and hi > best:
        best = hi
    return best
