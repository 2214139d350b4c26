"""Path tiles: a tile shape plus lines between its edge ports (TUBO, Ishi-Hama, TriLOOPite...).

A *port* is the midpoint of one edge of a regular tile; ports are numbered around the
shape (clockwise on the page, y down). Every line meets its port exactly at the edge
midpoint and perpendicular to the edge, with a butt end lying on the edge, so a line on
one tile continues seamlessly on the neighbouring tile across that edge.

Geometry (pure, no drawing) and drawing are separate:

* `square(side)`, `hexagon(side, orientation)`, `triangle(side, pointing)` -> `TileShape`
  (vertices in mm, origin at the top-left of the bounding box = the face's trim corner).
  Port numbering: square 0 top, 1 right, 2 bottom, 3 left (N E S W). Flat hexagon 0 top,
  then clockwise (1 upper-right ... 5 upper-left); pointy hexagon 0 upper-right, 1 right,
  2 lower-right, 3 lower-left, 4 left, 5 upper-left. Triangle pointing up: 0 right, 1
  bottom, 2 left; pointing down: 0 top, 1 right, 2 left.
* Connections: `Link(a, b)` port to port (a straight line when the two edges face each
  other, else a circular arc centred where the two edge lines cross), `Spoke(port)` centre
  to port (a hub is several spokes; `Hub` adds a disc at the centre), `Stub(port, reach,
  cap)` a dead end from a port inwards, ending with a cap ("bar", "disc", "arrow" or
  "none"). Each connection has a `layer`: higher layers are drawn over lower ones, so
  crossing lines pass over/under (TriLOOPite).
* `geometry(shape, connection)` -> `Line` / `Arc` primitives; `path_d(...)` their SVG path.
  `neighbour(shape, port)` -> the tile across that edge (its shape, offset and port).
* `draw_tile(canvas, shape, connections, style)` draws them on a `pnp.render.svg.Canvas`:
  per layer, every outline first, then every coloured line, then caps.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from pnp.render.svg import Canvas
from pnp.units import fmt_mm

Point = tuple[float, float]
EPS = 1e-9
SQRT3 = math.sqrt(3.0)


# --- shapes ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TileShape:
    """A regular tile: vertices clockwise on the page, edge i from vertex i to vertex i+1 (= port i)."""

    kind: str  # "square" | "hexagon" | "triangle"
    side: float
    vertices: tuple[Point, ...]
    variant: str = ""  # hexagon: "flat" | "pointy"; triangle: "up" | "down"

    @property
    def ports(self) -> int:
        return len(self.vertices)

    @property
    def width(self) -> float:
        return max(x for x, _ in self.vertices) - min(x for x, _ in self.vertices)

    @property
    def height(self) -> float:
        return max(y for _, y in self.vertices) - min(y for _, y in self.vertices)

    @property
    def centre(self) -> Point:
        """The incentre (equal distance to every edge): the hub of spokes."""
        n = len(self.vertices)
        return (sum(x for x, _ in self.vertices) / n, sum(y for _, y in self.vertices) / n)

    def edge(self, i: int) -> tuple[Point, Point]:
        vs = self.vertices
        return vs[i % len(vs)], vs[(i + 1) % len(vs)]

    def port(self, i: int) -> Point:
        """The midpoint of edge i."""
        (x0, y0), (x1, y1) = self.edge(i)
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def outward(self, i: int) -> Point:
        """The unit normal of edge i pointing out of the tile."""
        (x0, y0), (x1, y1) = self.edge(i)
        dx, dy = x1 - x0, y1 - y0
        n = math.hypot(dx, dy)
        # vertices run clockwise on the page (y down): the outside is to the left of the edge direction
        return (dy / n, -dx / n)

    def check_port(self, i: int) -> int:
        if not isinstance(i, int) or not 0 <= i < self.ports:
            raise ValueError(f"port {i!r} is not a port of a {self.kind}; expected 0..{self.ports - 1}")
        return i


def square(side: float) -> TileShape:
    s = float(side)
    return TileShape("square", s, ((0.0, 0.0), (s, 0.0), (s, s), (0.0, s)))


def hexagon(side: float, orientation: Literal["flat", "pointy"] = "flat") -> TileShape:
    a = float(side)
    h = a * SQRT3 / 2
    if orientation == "flat":  # width 2a, height sqrt(3)a; edge 0 on top
        vs = ((a / 2, 0.0), (3 * a / 2, 0.0), (2 * a, h), (3 * a / 2, 2 * h), (a / 2, 2 * h), (0.0, h))
    elif orientation == "pointy":  # width sqrt(3)a, height 2a; vertex on top, edge 0 upper-right
        vs = ((h, 0.0), (2 * h, a / 2), (2 * h, 3 * a / 2), (h, 2 * a), (0.0, 3 * a / 2), (0.0, a / 2))
    else:
        raise ValueError(f"hexagon orientation {orientation!r}; expected 'flat' or 'pointy'")
    return TileShape("hexagon", a, vs, orientation)


def triangle(side: float, pointing: Literal["up", "down"] = "up") -> TileShape:
    s = float(side)
    h = s * SQRT3 / 2
    if pointing == "up":  # apex, bottom-right, bottom-left: edges right, bottom, left
        vs = ((s / 2, 0.0), (s, h), (0.0, h))
    elif pointing == "down":  # top-left, top-right, bottom apex: edges top, right, left
        vs = ((0.0, 0.0), (s, 0.0), (s / 2, h))
    else:
        raise ValueError(f"triangle pointing {pointing!r}; expected 'up' or 'down'")
    return TileShape("triangle", s, vs, pointing)


def tile_shape(kind: str, side: float, variant: str = "") -> TileShape:
    """A shape by name: square, hexagon (variant flat|pointy), triangle (variant up|down)."""
    if kind == "square":
        return square(side)
    if kind == "hexagon":
        return hexagon(side, variant or "flat")  # type: ignore[arg-type]
    if kind == "triangle":
        return triangle(side, variant or "up")  # type: ignore[arg-type]
    raise ValueError(f"tile shape {kind!r}; expected square, hexagon or triangle")


def neighbour(shape: TileShape, port: int) -> tuple[TileShape, Point, int]:
    """The tile sharing edge `port`: (its shape, its origin in this tile's frame, its port on that edge).

    In the square, hexagonal and triangular tilings the neighbour is this tile turned half
    a turn about the shared edge's midpoint (for triangles that flips up and down).
    """
    shape.check_port(port)
    mx, my = shape.port(port)
    reflected = [(2 * mx - x, 2 * my - y) for x, y in shape.vertices]
    if shape.kind == "triangle":
        other = triangle(shape.side, "down" if shape.variant == "up" else "up")
    else:
        other = shape
    ox = min(x for x, _ in reflected)
    oy = min(y for _, y in reflected)
    for j in range(other.ports):
        px, py = other.port(j)
        if abs(px + ox - mx) < 1e-6 and abs(py + oy - my) < 1e-6:
            return other, (ox, oy), j
    raise AssertionError("no shared edge found")  # pragma: no cover


# --- connections -------------------------------------------------------------------------


@dataclass(frozen=True)
class Link:
    """A line from port a to port b (straight when the edges face each other, else an arc)."""

    a: int
    b: int
    layer: int = 0


@dataclass(frozen=True)
class Spoke:
    """A straight line from the tile centre to a port (Ishi-Hama's paths; the arms of a hub)."""

    port: int
    layer: int = 0


@dataclass(frozen=True)
class Stub:
    """A dead end: a line from a port inwards, `reach` of the way to the centre, ending with a cap."""

    port: int
    reach: float = 1.0
    cap: Literal["bar", "disc", "arrow", "none"] = "bar"
    layer: int = 0


@dataclass(frozen=True)
class Hub:
    """A disc at the tile centre (where spokes meet); radius in mm, default 0.8 x the line width."""

    radius: float | None = None
    layer: int = 0


Connection = Link | Spoke | Stub | Hub


@dataclass(frozen=True)
class Line:
    start: Point
    end: Point


@dataclass(frozen=True)
class Arc:
    """A circular arc from `start` to `end` about `centre`; `sweep` 1 when the angle increases (SVG's flag)."""

    centre: Point
    radius: float
    start: Point
    end: Point
    sweep: int
    large: int = 0

    @property
    def angle(self) -> float:
        """The arc's angle in radians (positive)."""
        a0 = math.atan2(self.start[1] - self.centre[1], self.start[0] - self.centre[0])
        a1 = math.atan2(self.end[1] - self.centre[1], self.end[0] - self.centre[0])
        d = (a1 - a0) % (2 * math.pi)
        return d if self.sweep else 2 * math.pi - d

    def point_at(self, t: float) -> Point:
        """The point a fraction t (0..1) along the arc."""
        a0 = math.atan2(self.start[1] - self.centre[1], self.start[0] - self.centre[0])
        a = a0 + (1 if self.sweep else -1) * self.angle * t
        return (self.centre[0] + self.radius * math.cos(a), self.centre[1] + self.radius * math.sin(a))

    def tangent_at(self, t: float) -> Point:
        """Unit direction of travel at fraction t."""
        x, y = self.point_at(t)
        rx, ry = x - self.centre[0], y - self.centre[1]
        s = 1 if self.sweep else -1
        n = math.hypot(rx, ry)
        return (-ry * s / n, rx * s / n)


Primitive = Line | Arc


def _line_intersection(p: Point, d: Point, q: Point, e: Point) -> Point | None:
    """Where p + t*d meets q + u*e, or None when parallel."""
    den = d[0] * e[1] - d[1] * e[0]
    if abs(den) < EPS:
        return None
    t = ((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / den
    return (p[0] + t * d[0], p[1] + t * d[1])


def link_geometry(shape: TileShape, a: int, b: int) -> Primitive:
    """The line or arc joining ports a and b, perpendicular to both edges at their midpoints."""
    shape.check_port(a)
    shape.check_port(b)
    if a == b:
        raise ValueError(f"a link joins two different ports; got {a} twice (use a Stub for a dead end)")
    ma, mb = shape.port(a), shape.port(b)
    (a0, a1), (b0, b1) = shape.edge(a), shape.edge(b)
    da = (a1[0] - a0[0], a1[1] - a0[1])
    db = (b1[0] - b0[0], b1[1] - b0[1])
    centre = _line_intersection(ma, da, mb, db)
    if centre is None:  # parallel edges: opposite sides, joined by a straight line
        return Line(ma, mb)
    ra = math.dist(centre, ma)
    rb = math.dist(centre, mb)
    if abs(ra - rb) > 1e-6 * max(ra, rb, 1.0):  # pragma: no cover - regular shapes are symmetric
        raise ValueError(f"ports {a} and {b} are not equidistant from their edges' crossing")
    a0_ = math.atan2(ma[1] - centre[1], ma[0] - centre[0])
    a1_ = math.atan2(mb[1] - centre[1], mb[0] - centre[0])
    d = (a1_ - a0_ + math.pi) % (2 * math.pi) - math.pi  # the short way round, in (-pi, pi]
    return Arc(centre, ra, ma, mb, sweep=1 if d > 0 else 0, large=0)


def spoke_geometry(shape: TileShape, port: int, reach: float = 1.0) -> Line:
    """From the port towards the centre, `reach` of the way (1 = to the centre)."""
    px, py = shape.port(shape.check_port(port))
    cx, cy = shape.centre
    return Line((px, py), (px + (cx - px) * reach, py + (cy - py) * reach))


def geometry(shape: TileShape, conn: Connection) -> Primitive | None:
    """The line or arc a connection draws (None for a Hub, which is only a disc)."""
    if isinstance(conn, Link):
        return link_geometry(shape, conn.a, conn.b)
    if isinstance(conn, Spoke):
        g = spoke_geometry(shape, conn.port)
        return Line(g.end, g.start)  # centre -> port
    if isinstance(conn, Stub):
        return spoke_geometry(shape, conn.port, conn.reach)
    if isinstance(conn, Hub):
        return None
    raise TypeError(f"not a connection: {conn!r}")


def conn_ports(conn: Connection) -> tuple[int, ...]:
    """The ports a connection reaches (where it must meet the neighbouring tile's line)."""
    if isinstance(conn, Link):
        return (conn.a, conn.b)
    if isinstance(conn, (Spoke, Stub)):
        return (conn.port,)
    return ()


def _f(v: float) -> str:
    return fmt_mm(round(v, 4))


def _pt(p: Point, offset: Point) -> str:
    return f"{_f(p[0] + offset[0])} {_f(p[1] + offset[1])}"


def path_d(shape: TileShape, conn: Connection, origin: Point = (0.0, 0.0), extend: float = 0.0) -> str:
    """SVG path data of a connection with the tile at `origin`; `extend` mm straight on beyond each port (bleed)."""
    g = geometry(shape, conn)
    if g is None:
        return ""
    ports = conn_ports(conn)

    def ext(port: int, p: Point) -> Point:
        n = shape.outward(port)
        return (p[0] + n[0] * extend, p[1] + n[1] * extend)

    parts: list[str] = []
    start, end = g.start, g.end
    start_port = ports[0] if ports and not isinstance(conn, Spoke) else None
    end_port = ports[-1] if isinstance(conn, (Link, Spoke)) else None
    if extend > 0 and start_port is not None:
        parts.append(f"M{_pt(ext(start_port, start), origin)} L{_pt(start, origin)}")
    else:
        parts.append(f"M{_pt(start, origin)}")
    if isinstance(g, Arc):
        parts.append(f"A{_f(g.radius)} {_f(g.radius)} 0 {g.large} {g.sweep} {_pt(end, origin)}")
    else:
        parts.append(f"L{_pt(end, origin)}")
    if extend > 0 and end_port is not None:
        parts.append(f"L{_pt(ext(end_port, end), origin)}")
    return " ".join(parts)


# --- drawing -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PathStyle:
    """How lines look: a coloured stroke with an optional dark outline on each side."""

    width: float = 5.0  # mm, the coloured line
    colour: str = "#0072B2"
    outline: str | None = "#1a1a1a"
    outline_width: float = 0.6  # mm on each side of the coloured line
    cap_colour: str | None = None  # default: the outline colour (or the line colour without one)
    extra: dict = field(default_factory=dict)  # more SVG attributes for the coloured stroke

    @property
    def total_width(self) -> float:
        return self.width + (2 * self.outline_width if self.outline else 0.0)


def draw_tile(canvas: Canvas, shape: TileShape, connections: Sequence[Connection], style: PathStyle,
              origin: Point = (0.0, 0.0), extend: float | None = None) -> None:
    """Draw the connections of one tile whose bounding box's top-left is at `origin` (mm).

    `extend` defaults to the canvas bleed: lines then continue straight into the bleed.
    Per layer (ascending): outlines, coloured lines, then caps and hubs.
    """
    ext = canvas.bleed if extend is None else extend
    layers = sorted({c.layer for c in connections})
    for layer in layers:
        conns = [c for c in connections if c.layer == layer]
        lines = [(c, path_d(shape, c, origin, ext)) for c in conns if not isinstance(c, Hub)]
        if style.outline:
            for c, d in lines:
                canvas.path(d, stroke=style.outline, stroke_width=style.total_width, stroke_linecap="butt")
            for c in conns:  # type: ignore[assignment]
                _cap(canvas, shape, c, style, origin, outline=True)
        for c, d in lines:
            canvas.path(d, stroke=style.colour, stroke_width=style.width, stroke_linecap="butt", **style.extra)
        for c in conns:  # type: ignore[assignment]
            _cap(canvas, shape, c, style, origin, outline=False)


def _cap(canvas: Canvas, shape: TileShape, conn: Connection, style: PathStyle, origin: Point,
         outline: bool) -> None:
    """Hub discs and stub caps: an outline pass (slightly larger, dark) then the coloured pass."""
    o = style.outline_width if style.outline else 0.0
    if outline and not style.outline:
        return
    fill = style.outline if outline else style.colour
    grow = o if outline else 0.0
    if isinstance(conn, Hub):
        r = (conn.radius if conn.radius is not None else 0.8 * style.width) + grow
        cx, cy = shape.centre
        canvas.circle((cx + origin[0], cy + origin[1]), r, fill=fill)
        return
    if not isinstance(conn, Stub) or conn.cap == "none":
        return
    g = spoke_geometry(shape, conn.port, conn.reach)
    (sx, sy), (ex, ey) = g.start, g.end
    length = math.hypot(ex - sx, ey - sy) or 1.0
    ux, uy = (ex - sx) / length, (ey - sy) / length  # direction of travel (inwards)
    vx, vy = -uy, ux  # across
    w = style.width
    X, Y = ex + origin[0], ey + origin[1]
    if conn.cap == "disc":
        canvas.circle((X, Y), 0.85 * w + grow, fill=fill)
    elif conn.cap == "bar":
        half, depth = 1.0 * w + grow, 0.35 * w + grow
        pts = [(X + vx * half - ux * depth, Y + vy * half - uy * depth),
               (X + vx * half + ux * depth, Y + vy * half + uy * depth),
               (X - vx * half + ux * depth, Y - vy * half + uy * depth),
               (X - vx * half - ux * depth, Y - vy * half - uy * depth)]
        canvas.polygon(pts, fill=fill)
    elif conn.cap == "arrow":
        half, depth = 0.9 * w + grow, 0.9 * w + grow
        back = 0.1 * w
        pts = [(X + ux * depth, Y + uy * depth), (X + vx * half - ux * back, Y + vy * half - uy * back),
               (X - vx * half - ux * back, Y - vy * half - uy * back)]
        canvas.polygon(pts, fill=fill)
    else:
        raise ValueError(f"cap {conn.cap!r}; expected bar, disc, arrow or none")


def tile_outline(shape: TileShape, origin: Point = (0.0, 0.0)) -> list[Point]:
    """The tile's corners at `origin` (for backgrounds and cut lines)."""
    return [(x + origin[0], y + origin[1]) for x, y in shape.vertices]
