"""Pure geometry helpers shared by games: points in, points out, nothing drawn."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

Point = tuple[float, float]
Segment = tuple[Point, Point]


def region_boundaries(cells: Iterable[tuple[Hashable, Sequence[Point]]]) -> list[Segment]:
    """Edges of polygon cells that lie between two regions or between the cells and the outside.

    `cells` are (region, corners) pairs of a tiling (triangles, lozenges, squares...);
    an edge shared by two cells of the same region is inside it and left out. Edges come
    back sorted, each with its end points sorted, so drawings are deterministic.
    """
    edges: dict[frozenset, list[Hashable]] = {}
    for region, corners in cells:
        for i in range(len(corners)):
            a, b = corners[i], corners[(i + 1) % len(corners)]
            key = frozenset({(round(a[0], 6), round(a[1], 6)), (round(b[0], 6), round(b[1], 6))})
            edges.setdefault(key, []).append(region)
    out = []
    for key, owners in sorted(edges.items(), key=lambda kv: sorted(kv[0])):
        if len(owners) == 1 or owners[0] != owners[1]:
            a, b = sorted(key)
            out.append((a, b))
    return out
