"""3 Stars geometry: a triangular lattice, stars, board regions. Pure: points and sets, no drawing.

Lattice vertex (q, r) sits at x = q + r/2, y = r*sqrt(3)/2 (y up, unit = triangle side).
Up triangle U(q,r): corners (q,r), (q+1,r), (q,r+1); down triangle D(q,r): corners
(q+1,r), (q,r+1), (q+1,r+1). A star is the 6 triangles around a vertex; position k
(0..5) is the 60-degree sector counter-clockwise from east.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import combinations

SQRT3_2 = math.sqrt(3) / 2

Vertex = tuple[int, int]
Triangle = tuple[str, int, int]  # ("U" | "D", q, r)


def vertex_xy(v: Vertex) -> tuple[float, float]:
    q, r = v
    return (q + r / 2, r * SQRT3_2)


def triangle_corners(t: Triangle) -> tuple[Vertex, Vertex, Vertex]:
    kind, q, r = t
    if kind == "U":
        return ((q, r), (q + 1, r), (q, r + 1))
    return ((q + 1, r), (q, r + 1), (q + 1, r + 1))


def triangle_xy(t: Triangle) -> list[tuple[float, float]]:
    return [vertex_xy(v) for v in triangle_corners(t)]


def star_triangles(center: Vertex) -> tuple[Triangle, ...]:
    """The 6 triangles of the star around `center`, indexed by position 0..5."""
    q, r = center
    return (
        ("U", q, r),
        ("D", q - 1, r),
        ("U", q - 1, r),
        ("D", q - 1, r - 1),
        ("U", q, r - 1),
        ("D", q, r - 1),
    )


def unit_star_polygons() -> list[list[tuple[float, float]]]:
    """The 6 position triangles of a star centred at the origin (unit side, y up), by position."""
    cx, cy = vertex_xy((0, 0))
    return [[(x - cx, y - cy) for x, y in triangle_xy(t)] for t in star_triangles((0, 0))]


def placements(min_size: int = 1, max_size: int = 3, positions: int = 6) -> list[tuple[int, ...]]:
    """Every arrangement of min..max positions on a star, by size then lexicographically."""
    return [c for k in range(min_size, max_size + 1) for c in combinations(range(positions), k)]


@dataclass(frozen=True)
class Region:
    name: str
    players: int
    centres: tuple[Vertex, ...]


def region_centres(columns: Iterable[int], rows: Iterable[int]) -> tuple[Vertex, ...]:
    """Star centres (c - floor(r/2), r): a roughly rectangular block with straight top and bottom."""
    return tuple((c - r // 2, r) for r in rows for c in columns)


@dataclass(frozen=True)
class Board:
    regions: tuple[Region, ...]

    def regions_for(self, players: int) -> tuple[Region, ...]:
        return tuple(reg for reg in self.regions if reg.players <= players)

    @cache
    def triangles(self, players: int) -> frozenset[Triangle]:
        """Triangles of the active board for a player count: the union of its regions' stars."""
        return frozenset(t for reg in self.regions_for(players) for c in reg.centres for t in star_triangles(c))

    @cache
    def star_positions(self, players: int) -> tuple[Vertex, ...]:
        """Every vertex whose 6 triangles all lie on the active board, sorted (r, q)."""
        tris = self.triangles(players)
        candidates = {corner for t in tris for corner in triangle_corners(t)}
        return tuple(sorted((v for v in candidates if all(t in tris for t in star_triangles(v))),
                            key=lambda v: (v[1], v[0])))

    @property
    def max_players(self) -> int:
        return max(reg.players for reg in self.regions)

    def region_of(self, t: Triangle) -> Region:
        """The first region (fewest players) whose stars cover the triangle."""
        for reg in sorted(self.regions, key=lambda g: g.players):
            if any(t in star_triangles(c) for c in reg.centres):
                return reg
        raise KeyError(t)

    def bounds(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax) of the full board in lattice units."""
        pts = [p for t in self.triangles(self.max_players) for p in triangle_xy(t)]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return min(xs), min(ys), max(xs), max(ys)
