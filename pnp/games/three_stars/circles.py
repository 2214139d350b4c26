"""The seed's circles variant: the same cards and rules on a board of circles, played with
round tokens or marbles.

Geometry (pure, lattice units of geometry.py): a circle sits at the centre of every
triangle of the triangular lattice, so the circles are the cells of the triangle board
under another drawing: the same regions, the same star positions, the same cells per
star. The 6 circles around a lattice vertex form a star (circle k lies at 60k + 30
degrees from the centre, like sector k of a card), and every circle is in the 3 stars of
its triangle's corners. Drawn, the circles are the corners of a honeycomb: each hexagon
of the honeycomb, with a small star mark at its centre, is one star position.

The engine reads this board through the same BoardGeometry protocol as the triangle board
(engine.py); here are the geometry, the board generator, the round pieces, the circles
drawn on a placement card, and the rulebook painter.
"""

from __future__ import annotations

import math

from pydantic import Field, model_validator

from pnp.games.three_stars.components import INK, RegionSpec, board_geometry, orientation_mark, region_legend, words
from pnp.games.three_stars.engine import TriangleGeometry, board_geometry_for
from pnp.games.three_stars.geometry import (
    Board,
    Triangle,
    star_triangles,
    triangle_corners,
    triangle_xy,
    vertex_xy,
)
from pnp.games.three_stars.painter import PAINTERS, Painter
from pnp.geometry import region_boundaries
from pnp.params import Length, Params as _Params
from pnp.registry import FaceSpec, GeneratorContext, generator
from pnp.render.svg import Canvas
from pnp.render.symbols import symbol
from pnp.rulebook.words import colour

CENTRE_DISTANCE = 1 / math.sqrt(3)
"""From a star centre to each of its circles, and between two neighbouring circles (lattice units)."""

OUTLINE = math.sqrt(3) / 2
"""Radius of a star's outline ring: halfway between its circles (1/sqrt(3) from the centre) and the
next circles out (2/sqrt(3)), whatever the circles' size (lattice units)."""

RING = "#6b6b6b"  # circle outlines on the board
LINK = "#9a9a9a"  # the honeycomb links between neighbouring circles


# --- geometry ------------------------------------------------------------------------------


def circle_xy(t: Triangle) -> tuple[float, float]:
    """The centre of the circle of triangle `t`: the triangle's centroid (lattice units, y up)."""
    pts = triangle_xy(t)
    return (sum(x for x, _ in pts) / 3, sum(y for _, y in pts) / 3)


def neighbours(t: Triangle) -> tuple[Triangle, Triangle, Triangle]:
    """The 3 triangles sharing an edge with `t`: the circles one honeycomb link away."""
    kind, q, r = t
    if kind == "U":
        return (("D", q, r), ("D", q - 1, r), ("D", q, r - 1))
    return (("U", q, r), ("U", q + 1, r), ("U", q, r + 1))


def links(cells) -> list[tuple[Triangle, Triangle]]:
    """Honeycomb links: every pair of neighbouring circles both in `cells`, sorted."""
    cells = set(cells)
    return sorted((t, n) for t in cells if t[0] == "U" for n in neighbours(t) if n in cells)


class CircleBoardParams(_Params):
    pitch: Length = Field(20.0, gt=0, description="Distance between the centres of two neighbouring circles")
    circle: Length = Field(17.0, gt=0, description="Diameter of a circle on the board (at most the pitch)")
    margin: Length = Field(10.0, ge=0, description="Paper around the board")
    regions: dict[str, RegionSpec] = Field(description="Regions by name, as on the triangle board (star columns "
                                                       "and rows); a game for P players uses those with players <= P")

    @model_validator(mode="after")
    def _circles_apart(self) -> "CircleBoardParams":
        if self.circle > self.pitch:
            raise ValueError(f"circle ({self.circle:g} mm) is wider than pitch ({self.pitch:g} mm), so neighbouring "
                             "circles would overlap; expected circle <= pitch")
        return self

    @property
    def side(self) -> float:
        """mm per lattice unit: the side of the (undrawn) triangle each circle sits in."""
        return self.pitch * math.sqrt(3)

    @property
    def radius(self) -> float:
        """A circle's radius in lattice units."""
        return self.circle / 2 / self.side


class CircleGeometry(TriangleGeometry):
    """The board of circles for the engine: one circle per triangle of the triangle board, the
    triangle naming its circle (circle_xy gives where it is drawn)."""


@board_geometry_for("three_stars.circle_board")
def circle_geometry(params: CircleBoardParams) -> CircleGeometry:
    return CircleGeometry(board_geometry(params))  # type: ignore[arg-type]


# --- drawing shared by the board and the rulebook --------------------------------------------


def star_mark(c: Canvas, x: float, y: float, r: float, fill: str = "#555555") -> None:
    """A small six-pointed star of outer radius r: the centre of a star position."""
    pts = []
    for i in range(12):
        rad = r if i % 2 == 0 else r * 0.5
        a = math.radians(90 + 30 * i)
        pts.append((x + rad * math.cos(a), y - rad * math.sin(a)))
    c.polygon(pts, fill=fill)


def draw_board(c: Canvas, board: Board, radius: float, to_mm, unit: float, tints: dict[str, str],
               active: frozenset | None = None, numbers: bool = True, line: float = 1.0) -> None:
    """Tinted regions, their borders, the honeycomb links, the circles and a star mark on every
    star position. `to_mm` maps lattice units to the canvas, `unit` is mm per lattice unit,
    `line` scales every stroke; cells not in `active` are greyed out."""
    players = board.max_players
    tris = sorted(board.triangles(players))
    owner = {t: board.region_of(t).name for t in tris}
    for t in tris:
        fill = tints[owner[t]] if active is None or t in active else "#f2f2f2"
        c.polygon([to_mm(*pt) for pt in triangle_xy(t)], fill=fill)
    for a, b in region_boundaries((owner[t], triangle_xy(t)) for t in tris):
        c.line(to_mm(*a), to_mm(*b), stroke=INK, stroke_width=1.0 * line, stroke_linecap="round")
    for a, b in links(tris):  # type: ignore[assignment]
        off = active is not None and not (a in active and b in active)
        c.line(to_mm(*circle_xy(a)), to_mm(*circle_xy(b)), stroke="#cccccc" if off else LINK,  # type: ignore[arg-type]
               stroke_width=0.9 * line, stroke_linecap="round")
    r = radius * unit
    for t in tris:
        off = active is not None and t not in active
        c.circle(to_mm(*circle_xy(t)), r, fill="#ffffff", stroke="#bbbbbb" if off else RING,
                 stroke_width=0.45 * line)
    for v in board.star_positions(players):
        off = active is not None and not all(t in active for t in star_triangles(v))
        star_mark(c, *to_mm(*vertex_xy(v)), 0.075 * unit, fill="#c4c4c4" if off else "#555555")  # type: ignore[call-arg, misc]
    if numbers and len(board.regions) > 1:
        # each region's name in a free spot of its own: between circles, clear of every circle and star mark
        for reg in board.regions:
            spot = label_spot(board, reg.name, radius)
            if spot is None:
                continue
            (x, y), size = to_mm(*spot[0]), spot[1] * unit
            c.text(x, y + LABEL_CAP * size / 2, reg.name, size=size, anchor="middle", weight="bold",
                   fill=LABEL_INK)


LABEL_INK = "#4a4a4a"
LABEL_CAP = 0.73
"""A digit's height as a fraction of the font size (DejaVu Sans Bold: 0.729 em)."""
LABEL_ADVANCE = 0.70
"""A digit's width, as a fraction of the font size (DejaVu Sans Bold: 0.696 em)."""
STAR_MARK = 0.075
"""A star mark's outer radius, lattice units."""


def label_box(centre: tuple[float, float], text: str, size: float) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1; lattice units, y up) a region name of font size `size` covers when centred at
    `centre`."""
    w, h = LABEL_ADVANCE * size * max(len(text), 1), LABEL_CAP * size
    return (centre[0] - w / 2, centre[1] - h / 2, centre[0] + w / 2, centre[1] + h / 2)


def _box_gap(box, x: float, y: float) -> float:
    """Distance from (x, y) to the box (0 inside)."""
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return math.hypot(dx, dy)


def _inside(t: Triangle, x: float, y: float) -> bool:
    (ax, ay), (bx, by), (cx, cy) = triangle_xy(t)
    d1 = (x - bx) * (ay - by) - (ax - bx) * (y - by)
    d2 = (x - cx) * (by - cy) - (bx - cx) * (y - cy)
    d3 = (x - ax) * (cy - ay) - (cx - ax) * (y - ay)
    return not ((d1 < -1e-9 or d2 < -1e-9 or d3 < -1e-9) and (d1 > 1e-9 or d2 > 1e-9 or d3 > 1e-9))


def label_spot(board: Board, name: str, radius: float, sizes=None) -> tuple[tuple[float, float], float] | None:
    """Where region `name`'s label goes on the board of circles (lattice units): the largest font size, then
    the spot nearest the region's middle, whose box lies inside the region's own triangles and clear of every
    circle (of `radius`) and star mark. The spots tried are the gaps around the lattice's vertices (the only
    room between the circles): centred on a vertex without a star mark, or just above or below a mark."""
    players = board.max_players
    tris = sorted(board.triangles(players))
    own = [t for t in tris if board.region_of(t).name == name]
    if not own:
        return None
    own_set = set(own)
    centres = [circle_xy(t) for t in tris]
    marks = {v: vertex_xy(v) for v in board.star_positions(players)}
    mx = sum(p[0] for p in map(circle_xy, own)) / len(own)
    my = sum(p[1] for p in map(circle_xy, own)) / len(own)
    vertices = sorted({v for t in own for v in triangle_corners(t)})
    gap = 0.03  # about 1 mm on the shipped board

    def fits(box) -> bool:
        xs = (box[0], (box[0] + box[2]) / 2, box[2])
        ys = (box[1], (box[1] + box[3]) / 2, box[3])
        near = [t for t in own_set if _box_gap(box, *circle_xy(t)) < 1.2]
        if not all(any(_inside(t, x, y) for t in near) for x in xs for y in ys):
            return False
        if any(_box_gap(box, x, y) < radius + gap for x, y in centres):
            return False
        return not any(_box_gap(box, x, y) < STAR_MARK + gap for x, y in marks.values())

    for size in sizes or [0.9 - 0.05 * i for i in range(15)]:
        h = LABEL_CAP * size
        found = []
        for v in vertices:
            x, y = vertex_xy(v)
            offsets = [0.0] if v not in marks else []
            offsets += [STAR_MARK + gap + h / 2, -(STAR_MARK + gap + h / 2)]
            for dy in offsets:
                box = label_box((x, y + dy), name, size)
                if fits(box):
                    found.append((math.hypot(x - mx, y + dy - my), (x, y + dy)))
        if found:
            return min(found)[1], size
    return None


def circle_star(c: Canvas, cx: float, cy: float, side: float, filled: set[int], line: float = 0.6,
                ink: str = INK, on: str = INK, off: str = "#ffffff") -> None:
    """A star of 6 circles centred at (cx, cy) as the cards show it: as wide as a star of 6
    triangles of `side` mm; the positions in `filled` are solid `on`, the others `off`,
    linked into a hexagon like the board's honeycomb, with a star mark at the centre."""
    d = side * 0.7  # centre to each circle
    rc = d * 0.42
    pts = [(cx + d * math.cos(math.radians(60 * k + 30)), cy - d * math.sin(math.radians(60 * k + 30)))
           for k in range(6)]
    c.polygon(pts, stroke=ink, stroke_width=line * 0.8)
    for k, p in enumerate(pts):
        c.circle(p, rc, fill=on if k in filled else off, stroke=ink, stroke_width=line)
    star_mark(c, cx, cy, side * 0.09, fill=ink)


# --- the board ------------------------------------------------------------------------------


@generator("three_stars.circle_board", params=CircleBoardParams)
def circle_board(ctx: GeneratorContext) -> list[FaceSpec]:
    """The board of circles at true size: regions tinted and labelled, circles linked in a honeycomb
    whose every hexagon is a star, a small star mark on each star position."""
    p: CircleBoardParams = ctx.params
    geo = circle_geometry(p)
    board = geo.board
    s, m = p.side, p.margin
    xmin, ymin, xmax, ymax = board.bounds()
    w, h = (xmax - xmin) * s + 2 * m, (ymax - ymin) * s + 2 * m + 12

    def to_mm(x: float, y: float) -> tuple[float, float]:
        return (m + (x - xmin) * s, m + (ymax - y) * s)

    def draw(c: Canvas) -> None:
        c.rect(-c.bleed, -c.bleed, w + 2 * c.bleed, h + 2 * c.bleed, fill="#ffffff")
        draw_board(c, board, p.radius, to_mm, s, {n: r.tint for n, r in p.regions.items()})
        legend = region_legend(((r.name, r.players) for r in board.regions), ctx.lang)
        c.text(m, h - 6, words().label("title_circle", ctx.lang), size=5, weight="bold", fill=INK)
        c.text(w - m, h - 6, legend, size=3.2, anchor="end", fill="#333333")
        orientation_mark(c, w / 2, h - 3.5, 8)

    counts = geo.player_counts()
    return [ctx.face("board", w, h, draw, data={
        "pitch_mm": p.pitch, "circle_mm": p.circle,
        "regions": {r.name: {"players": r.players, "centres": [list(v) for v in r.centres]} for r in board.regions},
        "star_positions": {str(n): len(geo.star_positions(n)) for n in counts},
        "circles": {str(n): len(geo.cells(n)) for n in counts},
    })]


# --- round pieces ---------------------------------------------------------------------------


def round_pieces(ctx: GeneratorContext, colours, diameter: float) -> list[FaceSpec]:
    """One round token face per player colour (the pieces generator with `shape: circle`):
    a disc of the colour with the colour's symbol, `count` copies of each."""

    def draw_for(col):
        def draw(c: Canvas) -> None:
            r = diameter / 2
            c.circle((r, r), r + c.bleed, fill=col.colour)
            symbol(c, col.symbol, r, r, diameter * 0.2, line=0.5)
        return draw

    return [ctx.face(col.name, diameter, diameter, draw_for(col), count=ctx.component.count, shape="circle",
                     data={"colour": col.name, "fill": col.colour, "symbol": col.symbol, "diameter_mm": diameter},
                     label=colour(col.name, ctx.lang, "piece"))
            for col in colours]


# --- the rulebook painter -------------------------------------------------------------------


class CirclePainter(Painter):
    """Draws the board of circles for the rulebook diagrams (pnp.games.three_stars.painter):
    the same star outlines and labels as the triangle board, its own board and pieces."""

    def _radius(self) -> float:
        return self.b.params.radius

    def board(self, c: Canvas, region_numbers: bool = True) -> None:
        geo = self.b.geo.board  # type: ignore[attr-defined]
        active = self.b.cells(self.players)
        shown = frozenset(self.shown)
        # draw only the shown part: a board of the shown cells' regions
        sub = Board(tuple(reg for reg in geo.regions if all(t in shown for t in geo.triangles(reg.players))))
        tints = {n: r.tint for n, r in self.b.params.regions.items()}
        draw_board(c, sub, self._radius(), self.mm, self.unit, tints,
                   active=None if active == shown else active, numbers=region_numbers, line=0.4)

    def pieces(self, c: Canvas, cells, colour: str, symbol_kind: str = "none", highlight: bool = False) -> None:
        r = self._radius() * self.unit * 0.92
        for cell in sorted(cells, key=repr):
            x, y = self.mm(*circle_xy(cell))
            c.circle((x, y), r, fill=colour, stroke=INK if highlight else "#ffffff",
                     stroke_width=0.7 if highlight else 0.35)
            symbol(c, symbol_kind, x, y, r * 0.36, line=0.25)

    def star_outline(self, c: Canvas, v, colour: str = INK, width: float = 1.0, dash: str | None = None) -> None:
        """A ring around the star's 6 circles, halfway between them and the next circles out."""
        extra = {"stroke_dasharray": dash} if dash else {}
        c.circle(self.mm(*vertex_xy(v)), OUTLINE * self.unit, stroke=colour, stroke_width=width, **extra)


PAINTERS["circle"] = CirclePainter

