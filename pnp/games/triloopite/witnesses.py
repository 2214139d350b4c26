"""Hand-made layouts that show a loop of 6 and each bonus can be made with a design's tiles.

A witness is a layout drawn as closed walks (see geometry.walk: S straight, R/L a gentle
turn). `build_witness` turns it and moves it so that one of its tiles is the start tile
as the engine lays it (cell (0, 0), rotation 0), matches every other cell to a tile
variety of the bag (exactly the same lines up to rotation, without using more tiles of a
variety than the box holds), then lays the tiles one by one under the placement rules,
each extending a line of a tile already down. Several witnesses per configuration:
one that the design's varieties can build is enough.

The layouts were found by a small search over hexagon-shaped loops (and checked by the
tests); their sizes: ring of 6 (6 tiles), figure 8 (12-13), two crossing loops (14-16),
nested loops (19).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pnp.games.triloopite.geometry import (
    DIRS,
    Analysis,
    Board,
    Hex,
    Line,
    Variety,
    analyse,
    rotate_cell,
    transform,
    walk,
    walks_layout,
)


def ring6() -> dict[Hex, tuple[Line, ...]]:
    """Six gentle arcs round an empty cell: the smallest loop."""
    return walks_layout(walk((0, 0), 0, "RRRRRR"))


def figure8_cross() -> dict[Hex, tuple[Line, ...]]:
    """A figure 8 through a cross (two straight lines): lobes of 6 tiles each side."""
    return walks_layout(walk((0, 0), 0, "S" + "SRRRRS" + "S" + "SLLLLS"))


def figure8_arc() -> dict[Hex, tuple[Line, ...]]:
    """A figure 8 through an arc-over-straight tile."""
    return walks_layout(walk((0, 0), 0, "S" + "SRRRRS" + "R" + "LLLLL"))


def crossing_arcs() -> dict[Hex, tuple[Line, ...]]:
    """A ring of 6 and a loop of 10 crossing it twice on arc-over-straight tiles."""
    second = transform(walks_layout(walk((0, 0), 0, "RRSRSRRSRS")), 0, (-2, 1))
    return walks_layout(walk((0, 0), 0, "RRRRRR"), [(c, ln) for c, lns in second.items() for ln in lns])


def crossing_crosses() -> dict[Hex, tuple[Line, ...]]:
    """Loops of 8 and 10 crossing twice on crosses."""
    second = transform(walks_layout(walk((0, 0), 0, "RRSRSRRSRS")), 2, (3, -2))
    return walks_layout(walk((0, 0), 0, "RRRSRRRS"), [(c, ln) for c, lns in second.items() for ln in lns])


def nested() -> dict[Hex, tuple[Line, ...]]:
    """A ring of 6 inside a ring of 12, joined by a straight line crossing both on arc-over-straight tiles."""
    inner = walk(DIRS[5], 0, "RRRRRR")
    outer = walk((0, -2), 1, "RS" * 6)
    radial = walk(DIRS[0], 0, "SS")
    return walks_layout(inner, outer, radial)


WITNESSES: dict[str, tuple[tuple[str, Callable[[], dict]], ...]] = {
    "loop_of_6": (("a ring of 6 gentle arcs", ring6),),
    "start_loop": (("a ring of 6 through the start tile", ring6),),
    "figure_eight": (("a figure 8 through a cross", figure8_cross),
                     ("a figure 8 through an arc-over-straight tile", figure8_arc)),
    "crossing_loops": (("two loops crossing on two arc-over-straight tiles", crossing_arcs),
                       ("two loops crossing on two crosses", crossing_crosses)),
    "nested_loops": (("a ring of 6 inside a ring of 12", nested),),
}


@dataclass
class Built:
    description: str
    board: Board | None
    analysis: Analysis | None
    uses: dict[str, int]
    problem: str = ""


def build_witness(layout: dict[Hex, Sequence[Line]], start: Variety, bag: Sequence[Variety], radius: int = 40,
                  description: str = "", start_in_loop: bool = False) -> Built:
    """Lay a witness layout with the design's tiles (see the module docstring); `problem` says why not."""
    best_problem = "no tile of the layout can be the start tile"
    for anchor in sorted(layout):
        k = start.fits(layout[anchor])
        if k is None:
            continue
        # turn the layout so the anchor shows the start tile at rotation 0, then move it to (0, 0)
        turned = transform(layout, -k % 6, (0, 0))
        aq, ar = rotate_cell(anchor, -k % 6)
        placed = transform(turned, 0, (-aq, -ar))
        if frozenset(placed[(0, 0)]) != frozenset(start.lines):  # pragma: no cover - by construction
            continue
        assignment, problem = _assign(placed, bag)  # type: ignore[arg-type]
        if assignment is None:
            best_problem = problem
            continue
        board = Board(radius)
        board.place(board.cell_of((0, 0)), placed[(0, 0)])
        todo = {c for c in placed if c != (0, 0)}
        progress = True
        while todo and progress:
            progress = False
            for c in sorted(todo):
                cell = board.cell_of(c)
                if not board.why_not(cell, placed[c]):
                    board.place(cell, placed[c], check=False)
                    todo.discard(c)
                    progress = True
        if todo:
            first = sorted(todo)[0]
            best_problem = (f"{len(todo)} tile(s) cannot be laid in any order under the placement rules, e.g. at "
                            f"{list(first)}: {board.why_not(board.cell_of(first), placed[first])}")
            continue
        a = analyse(board.layout(), start=(0, 0))
        uses: dict[str, int] = {}
        for vid in assignment.values():
            uses[vid] = uses.get(vid, 0) + 1
        return Built(description, board, a, uses)
    return Built(description, None, None, {}, best_problem)


def _assign(layout: dict[Hex, Sequence[Line]], bag: Sequence[Variety]) -> tuple[dict[Hex, str] | None, str]:
    """A bag variety for every cell but (0, 0), within the counts; (None, why) when impossible."""
    left = {v.id: v.count for v in bag}
    options = {c: [v.id for v in bag if v.fits(lns) is not None] for c, lns in layout.items() if c != (0, 0)}
    out: dict[Hex, str] = {}
    for c in sorted(options, key=lambda c: (len(options[c]), c)):
        if not options[c]:
            lines = " + ".join(f"{{{a},{b}}}" for a, b in layout[c])
            return None, f"no tile variety has the lines {lines} (in any rotation)"
        pick = max(options[c], key=lambda vid: left[vid])
        if left[pick] <= 0:
            need = sum(1 for d in options if options[d] == options[c])
            have = sum(v.count for v in bag if v.id in options[c])
            return None, (f"needs {need} tile(s) of {' or '.join(options[c])} but the box holds {have}")
        left[pick] -= 1
        out[c] = pick
    return out, ""
