"""The seed's lozenge variant: the same cards and rules on a rhombille board.

Geometry (pure, lattice units): star centres are the vertices (q, r) of a triangular
lattice, drawn rotated by 30 degrees so that the lozenge of position k points at
60k + 30 degrees, like sector k of a card's star. A lozenge lies on the edge between two
neighbouring centres (its long diagonal), so each lozenge is in 2 stars; a star is the 6
lozenges around a centre. A region is the hexagon of centres with |q|, |r|, |q+r| <=
radius; the 2-player board is radius 2: 19 star positions.

The engine reads this board through the same BoardGeometry protocol as the triangle
board (engine.py): only the geometry differs.
"""

from __future__ import annotations

import math
from functools import cache

from pydantic import Field

from pnp.games.three_stars.components import INK, orientation_mark, region_legend, words
from pnp.games.three_stars.engine import board_geometry_for
from pnp.geometry import region_boundaries
from pnp.limits import limit
from pnp.params import MAX_ITEMS, Colour, Length, Params as _Params
from pnp.registry import FaceSpec, GeneratorContext, generator
from pnp.render.svg import Canvas

DIRS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
"""Neighbour steps in axial coordinates; position k of a star is the lozenge towards DIRS[k]."""

Centre = tuple[int, int]
Lozenge = tuple[str, int, int, int]  # ("L", q, r, d): the edge from (q, r) to (q, r) + DIRS[d], d in 0..2
_COS30, _SIN30 = math.sqrt(3) / 2, 0.5


def centre_xy(v: Centre) -> tuple[float, float]:
    """A centre in lattice units (centre spacing 1, y up), rotated by 30 degrees."""
    q, r = v
    x, y = q + r / 2, r * math.sqrt(3) / 2
    return (x * _COS30 - y * _SIN30, x * _SIN30 + y * _COS30)


def star_lozenges(centre: Centre) -> tuple[Lozenge, ...]:
    """The 6 lozenges around `centre`, by position 0..5."""
    q, r = centre
    out = []
    for k, (dq, dr) in enumerate(DIRS):
        out.append(("L", q, r, k) if k < 3 else ("L", q + dq, r + dr, k - 3))
    return tuple(out)


def lozenge_xy(z: Lozenge) -> list[tuple[float, float]]:
    """The 4 corners of a lozenge: the two star centres and the ends of the short diagonal."""
    _, q, r, d = z
    dq, dr = DIRS[d]
    ax, ay = centre_xy((q, r))
    bx, by = centre_xy((q + dq, r + dr))
    mx, my = (ax + bx) / 2, (ay + by) / 2
    h = 1 / (2 * math.sqrt(3))  # half the short diagonal of a 60-degree lozenge whose long diagonal is 1
    nx, ny = -(by - ay) * h, (bx - ax) * h
    return [(ax, ay), (mx + nx, my + ny), (bx, by), (mx - nx, my - ny)]


def hex_distance(v: Centre) -> int:
    q, r = v
    return max(abs(q), abs(r), abs(q + r))


class LozengeRegion(_Params):
    players: int = Field(ge=1, le=limit("players"), description="Smallest player count that uses this region")
    radius: int = Field(ge=0, le=limit("grid"),
                        description="Star centres with |q|, |r|, |q+r| <= radius (2 -> 19 stars)")
    tint: Colour = Field("#eeeeee", description="Fill colour of the region's lozenges")


class LozengeBoardParams(_Params):
    lozenge: Length = Field(20.0, gt=0, description="Side of one lozenge")
    margin: Length = Field(10.0, ge=0, description="Paper around the lozenges")
    regions: dict[str, LozengeRegion] = Field(min_length=1, max_length=MAX_ITEMS,
                                              description="Regions by name; a game for P players uses those "
                                                          "with players <= P")


class LozengeBoard:
    """A rhombille board in regions; provides the engine's BoardGeometry protocol."""

    def __init__(self, regions: dict[str, LozengeRegion]):
        self.regions = dict(sorted(regions.items(), key=lambda kv: kv[1].players))

    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted({r.players for r in self.regions.values()}))

    @property
    def max_players(self) -> int:
        return max(self.player_counts())

    @cache
    def centres(self, players: int) -> frozenset[Centre]:
        radius = max((r.radius for r in self.regions.values() if r.players <= players), default=-1)
        return frozenset((q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
                         if hex_distance((q, r)) <= radius)

    @cache
    def cells(self, players: int) -> frozenset[Lozenge]:
        return frozenset(z for c in self.centres(players) for z in star_lozenges(c))

    @cache
    def star_positions(self, players: int) -> tuple[Centre, ...]:
        cells = self.cells(players)
        ends = {(z[1] + dq, z[2] + dr) for z in cells for dq, dr in ((0, 0), DIRS[z[3]])}
        return tuple(sorted((v for v in ends if all(z in cells for z in star_lozenges(v))),
                            key=lambda v: (v[1], v[0])))

    def star_cells(self, centre: Centre) -> tuple[Lozenge, ...]:
        return star_lozenges(centre)

    def region_of(self, z: Lozenge) -> str:
        """The first region (fewest players) whose stars cover the lozenge."""
        for name, reg in self.regions.items():
            if z in self.cells(reg.players):
                return name
        raise KeyError(z)

    def __hash__(self) -> int:
        return id(self)


@board_geometry_for("three_stars.lozenge_board")
def lozenge_geometry(params: LozengeBoardParams) -> LozengeBoard:
    return LozengeBoard(params.regions)


@generator("three_stars.lozenge_board", params=LozengeBoardParams)
def lozenge_board(ctx: GeneratorContext) -> list[FaceSpec]:
    """The lozenge variant's board at true size: lozenges tinted by region, a small star on each star centre."""
    p: LozengeBoardParams = ctx.params
    geo = lozenge_geometry(p)
    unit = p.lozenge * math.sqrt(3)  # centre spacing = the lozenge's long diagonal
    m = p.margin
    cells = sorted(geo.cells(geo.max_players))
    pts = [pt for z in cells for pt in lozenge_xy(z)]
    xmin, xmax = min(x for x, _ in pts), max(x for x, _ in pts)
    ymin, ymax = min(y for _, y in pts), max(y for _, y in pts)
    w, h = (xmax - xmin) * unit + 2 * m, (ymax - ymin) * unit + 2 * m + 12

    def to_mm(x: float, y: float) -> tuple[float, float]:
        return (m + (x - xmin) * unit, m + (ymax - y) * unit)

    def draw(c: Canvas) -> None:
        c.rect(-c.bleed, -c.bleed, w + 2 * c.bleed, h + 2 * c.bleed, fill="#ffffff")
        owner = {z: geo.region_of(z) for z in cells}
        for z in cells:
            c.polygon([to_mm(*pt) for pt in lozenge_xy(z)], fill=p.regions[owner[z]].tint)
        for name, reg in geo.regions.items():
            own = [pt for z in cells if owner[z] == name for pt in lozenge_xy(z)]
            if own and len(geo.regions) > 1:
                lx, ly = to_mm(sum(x for x, _ in own) / len(own), sum(y for _, y in own) / len(own))
                c.text(lx, ly + 0.35 * unit, name, size=unit, anchor="middle", weight="bold",
                       fill="#000000", opacity="0.12")
        for z in cells:
            c.polygon([to_mm(*pt) for pt in lozenge_xy(z)], stroke="#555555", stroke_width=0.35)
        for a, b in _boundary(cells, owner):
            c.line(to_mm(*a), to_mm(*b), stroke=INK, stroke_width=1.0, stroke_linecap="round")
        # the seed's reading aid: a small star on every star centre
        for v in geo.star_positions(geo.max_players):
            c.polygon(small_star(*to_mm(*centre_xy(v)), unit * 0.09), fill="#555555")
        legend = region_legend(((n, r.players) for n, r in geo.regions.items()), ctx.lang)
        c.text(m, h - 6, words().label("title_lozenge", ctx.lang), size=5, weight="bold", fill=INK)
        c.text(w - m, h - 6, legend, size=3.2, anchor="end", fill="#333333")
        orientation_mark(c, w / 2, h - 3.5, 8)

    counts = geo.player_counts()
    return [ctx.face("board", w, h, draw, data={
        "lozenge_mm": p.lozenge,
        "regions": {n: {"players": r.players, "radius": r.radius} for n, r in geo.regions.items()},
        "star_positions": {str(n): len(geo.star_positions(n)) for n in counts},
        "lozenges": {str(n): len(geo.cells(n)) for n in counts},
    })]


def small_star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """A six-pointed star polygon of outer radius r."""
    out = []
    for i in range(12):
        rad = r if i % 2 == 0 else r * 0.5
        a = math.radians(90 + 30 * i)
        out.append((cx + rad * math.cos(a), cy - rad * math.sin(a)))
    return out


def _boundary(cells: list[Lozenge], owner: dict) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Lozenge edges between two regions or between the board and the outside."""
    return region_boundaries((owner[z], lozenge_xy(z)) for z in cells)
