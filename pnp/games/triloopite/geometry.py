"""TriLOOPite geometry: hexagonal path tiles, the placement rules, and the exact loop analysis.

Pure data and arithmetic, no drawing (the tiles are drawn by pnp.render.pathtiles).

Tiles and ports
---------------
Tiles are regular hexagons, flat-top, on an axial grid (q, r): q counts columns to the
right, r rows down a column (q + r constant along a NE-SW diagonal). A tile's *ports*
are the midpoints of its 6 edges, numbered as pnp.render.pathtiles numbers a flat
hexagon: 0 top (N), then clockwise 1 NE, 2 SE, 3 S, 4 SW, 5 NW. Port k faces the
neighbour in direction `DIRS[k]`, and that neighbour's port `(k + 3) % 6`.

A *line* joins two ports 2 apart (a gentle 120-degree arc, bending around the port
between them) or 3 apart (a straight line through the centre). A tile carries one or two
lines and uses each port at most once. Rotating a tile one step clockwise turns port p
into p + 1. Lines are listed bottom first: a later line passes *over* an earlier one.

Crossing (the definition the rulebook quotes)
---------------------------------------------
Two lines of one tile *cross* when their ports interleave around the hexagon: going round
the edge from one end of the first line to its other end, exactly one end of the second
line is met. Then the curves intersect exactly once inside the tile (two chords of a
convex tile whose ends interleave always do). So the T3 cross {0,3}+{1,4} and the T4
"arc over straight" {0,3}+{1,5} are *crossing tiles*; the T2 double arc {0,2}+{3,5} is
not: its arcs bend away from each other and only come near at the centre.

Loops (the analysis of a layout, exact)
---------------------------------------
The lines of a layout join end to end across shared edges into curves. A *closed loop*
is a curve with no open end. Its *length* is the number of distinct tiles it passes
through (a tile used twice by a figure 8 counts once). Then:

* a loop **crosses itself** (figure 8) when it uses both lines of one crossing tile;
  a loop using both arcs of a T2 only touches itself (no bonus);
* **two loops cross** when they share a crossing tile (each uses one of its two lines);
  two closed curves always cross an even number of times, so this needs two crossing
  tiles; loops sharing a T2 (one arc each) touch without crossing;
* a loop B lies **inside** a loop A when the two do not cross, B passes through at least
  one tile that A does not, and A winds around the centre of every such tile of B (a
  non-zero winding number of the polygon through A's tile centres, taken in the order
  A visits them; the polygon and the drawn curve enclose exactly the same tile centres,
  since both pass through the same edge midpoints and differ only inside A's tiles);
* a loop passes **through the start tile** when one of its lines is on the start tile.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

Hex = tuple[int, int]
Line = tuple[int, int]

DIRS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
"""Axial step across port k (flat-top): N, NE, SE, S, SW, NW."""
PORT_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
SQRT3 = math.sqrt(3.0)


def step(cell: Hex, port: int) -> Hex:
    dq, dr = DIRS[port]
    return (cell[0] + dq, cell[1] + dr)


def opposite(port: int) -> int:
    return (port + 3) % 6


def distance(a: Hex, b: Hex = (0, 0)) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def centre(cell: Hex, side: float = 1.0) -> tuple[float, float]:
    """The tile centre on the page (y down) for tiles of the given side."""
    q, r = cell
    return (1.5 * side * q, SQRT3 * side * (r + q / 2))


def rotate_cell(cell: Hex, k: int) -> Hex:
    """The cell turned k steps of 60 degrees clockwise about (0, 0)."""
    x, z = cell
    y = -x - z
    for _ in range(k % 6):
        x, y, z = -z, -x, -y
    return (x, z)


def norm_line(line: Sequence[int]) -> Line:
    a, b = int(line[0]) % 6, int(line[1]) % 6
    return (a, b) if a < b else (b, a)


def rotate_lines(lines: Iterable[Sequence[int]], k: int) -> tuple[Line, ...]:
    """Lines turned k steps clockwise (order, i.e. over/under, kept)."""
    return tuple(norm_line((a + k, b + k)) for a, b in lines)


def port_mask(lines: Iterable[Sequence[int]]) -> int:
    m = 0
    for a, b in lines:
        m |= 1 << a | 1 << b
    return m


def gap(line: Sequence[int]) -> int:
    """Ports between the two ends the short way round: 1 sharp, 2 gentle arc, 3 straight."""
    d = abs(int(line[0]) - int(line[1])) % 6
    return min(d, 6 - d)


def lines_cross(l1: Sequence[int], l2: Sequence[int]) -> bool:
    """Whether two lines of one tile cross: their ends interleave around the hexagon."""
    a, b = sorted((l1[0] % 6, l1[1] % 6))
    c, d = l2[0] % 6, l2[1] % 6
    if len({a, b, c, d}) < 4:
        return False
    return (a < c < b) != (a < d < b)


def line_problems(lines: Sequence[Sequence[int]]) -> list[str]:
    """Why these lines cannot be a TriLOOPite tile ([] when they can)."""
    out = []
    if not lines:
        out.append("no line; expected one or two lines between edge midpoints")
    used: set[int] = set()
    for ln in lines:
        if len(ln) != 2:
            out.append(f"line {list(ln)} does not join two ports; expected a pair such as [0, 2]")
            continue
        a, b = ln
        if not (0 <= a <= 5 and 0 <= b <= 5):
            out.append(f"line {list(ln)}: ports are 0..5 (the edge midpoints)")
            continue
        g = gap(ln)
        if g == 0:
            out.append(f"line {list(ln)} joins a port to itself; expected two ports 2 or 3 apart")
        elif g == 1:
            out.append(f"line {list(ln)} is a sharp arc (ports 1 apart); expected ports 2 apart (gentle arc) "
                       "or 3 apart (straight)")
        for p in (a, b):
            if p in used:
                out.append(f"port {p} is used by two lines; expected each edge midpoint at most once")
            used.add(p)
    return out


@dataclass(frozen=True)
class Variety:
    """A kind of tile: its lines (port pairs, bottom first) at rotation 0, and how many the box holds."""

    id: str
    lines: tuple[Line, ...]
    count: int = 1
    start: bool = False
    name: str = ""

    @property
    def mask(self) -> int:
        return port_mask(self.lines)

    def rotations(self) -> list[int]:
        """The rotations giving different tiles on the table (a straight line has 3, an arc 6)."""
        seen: set = set()
        out = []
        for k in range(6):
            key = frozenset(rotate_lines(self.lines, k))
            if key not in seen:
                seen.add(key)
                out.append(k)
        return out

    def crossing(self) -> bool:
        return any(lines_cross(a, b) for i, a in enumerate(self.lines) for b in self.lines[i + 1:])

    def fits(self, lines: Iterable[Sequence[int]]) -> int | None:
        """The rotation that turns this variety into exactly these lines (ignoring over/under), or None."""
        want = frozenset(norm_line(ln) for ln in lines)
        for k in self.rotations():
            if frozenset(rotate_lines(self.lines, k)) == want:
                return k
        return None


# --- the table: placement rules ------------------------------------------------------------


class PlacementError(ValueError):
    """A placement the rules refuse; the message says which rule."""


class Board:
    """Tiles on the table, with the placement rules and the open ends of every unfinished curve.

    Cells are ints (an axial (q, r) with |q|, |r| <= radius packed as (q+R)*(2R+1) + r+R) so
    the engine stays fast; `cell_of`/`hex_of` convert. An *open end* is a line end whose
    edge faces an empty cell (by the rules, a line end facing a tile always meets a line);
    `partner[end]` is the other end of its curve, `end = cell * 6 + port`.
    """

    __slots__ = ("radius", "width", "off", "lines", "mask", "partner", "loops", "order")

    def __init__(self, radius: int):
        self.radius = radius
        self.width = 2 * radius + 1
        self.off = tuple(dq * self.width + dr for dq, dr in DIRS)
        self.lines: dict[int, tuple[Line, ...]] = {}
        self.mask: dict[int, int] = {}
        self.partner: dict[int, int] = {}
        self.loops = 0  # closed loops so far (counted as they close)
        self.order: list[int] = []

    def clone(self) -> "Board":
        new = object.__new__(Board)
        new.radius, new.width, new.off = self.radius, self.width, self.off
        new.lines = dict(self.lines)
        new.mask = dict(self.mask)
        new.partner = dict(self.partner)
        new.loops = self.loops
        new.order = list(self.order)
        return new

    # coordinates
    def cell_of(self, h: Hex) -> int:
        q, r = h
        R = self.radius
        if max(abs(q), abs(r), abs(q + r)) > R:
            raise PlacementError(f"cell {list(h)} is beyond the table area of radius {R}")
        return (q + R) * self.width + (r + R)

    def hex_of(self, cell: int) -> Hex:
        return (cell // self.width - self.radius, cell % self.width - self.radius)

    def inside(self, cell: int) -> bool:
        q, r = cell // self.width - self.radius, cell % self.width - self.radius
        return 0 <= cell < self.width * self.width and max(abs(q), abs(r), abs(q + r)) <= self.radius

    # rules
    def needs(self, cell: int) -> tuple[int, int]:
        """(known, lines): ports of `cell` that face a tile, and those of them facing a line."""
        known = need = 0
        mask = self.mask
        for k, o in enumerate(self.off):
            m = mask.get(cell + o)
            if m is not None:
                known |= 1 << k
                if m >> ((k + 3) % 6) & 1:
                    need |= 1 << k
        return known, need

    def why_not(self, cell: int, lines: Sequence[Line]) -> str:
        """Why the rules refuse these lines on `cell` ('' when they allow it)."""
        if not self.inside(cell):
            return "that cell is beyond the table area"
        if cell in self.mask:
            return f"cell {list(self.hex_of(cell))} already holds a tile; tiles touch without overlapping"
        if not self.mask:
            return ""  # the first tile goes anywhere
        known, need = self.needs(cell)
        if not known:
            return f"cell {list(self.hex_of(cell))} touches no tile; a tile must touch one or more tiles"
        m = port_mask(lines)
        bad = (m & known) ^ need
        if bad:
            k = (bad & -bad).bit_length() - 1
            if need >> k & 1:
                return (f"the line of the neighbour across port {k} ({PORT_NAMES[k]}) meets a blank edge; "
                        "lines must meet lines and blanks meet blanks")
            return (f"port {k} ({PORT_NAMES[k]}) is a line end facing the neighbour's blank edge; "
                    "lines must meet lines and blanks meet blanks")
        if not need:
            return "it extends no line; a tile must extend a line on at least one tile"
        return ""

    def candidates(self) -> dict[int, tuple[int, int]]:
        """Empty cells facing an open end (the only cells where a tile may extend a line) -> needs()."""
        out: dict[int, tuple[int, int]] = {}
        off = self.off
        for end in self.partner:
            c = end // 6 + off[end % 6]
            if c not in out:
                out[c] = self.needs(c)
        return out

    def place(self, cell: int, lines: Sequence[Line], check: bool = True) -> int:
        """Put a tile with these (already rotated) lines on `cell`; returns the loops it closed."""
        if check:
            why = self.why_not(cell, lines)
            if why:
                raise PlacementError(why)
        closed = join(self.partner, self.mask, self.off, cell, lines)
        self.lines[cell] = tuple(lines)
        self.mask[cell] = port_mask(lines)
        self.loops += closed
        self.order.append(cell)
        return closed

    def layout(self) -> dict[Hex, tuple[Line, ...]]:
        return {self.hex_of(c): ln for c, ln in self.lines.items()}


def join(partner: dict[int, int], mask: Mapping[int, int], off: Sequence[int], cell: int,
         lines: Sequence[Line], overlay: dict[int, int | None] | None = None) -> int:
    """Join a new tile's lines to the open ends around `cell`; returns how many loops close.

    Updates `partner` in place, or, with `overlay`, records the changes there only (a
    dry run for the heuristics: `overlay[end] = None` marks a removed end).
    """
    if overlay is None:
        get = partner.get

        def setp(e: int, v: int | None) -> None:
            if v is None:
                partner.pop(e, None)
            else:
                partner[e] = v
    else:
        def get(e: int):  # type: ignore[misc]
            if e in overlay:
                return overlay[e]
            return partner.get(e)

        def setp(e: int, v: int | None) -> None:
            overlay[e] = v
    base = cell * 6
    for a, b in lines:
        setp(base + a, base + b)
        setp(base + b, base + a)
    closed = 0
    for a, b in lines:
        for p in (a, b):
            n = cell + off[p]
            m = mask.get(n)
            if m is None or not m >> ((p + 3) % 6) & 1:
                continue
            s, e = base + p, n * 6 + (p + 3) % 6
            x, y = get(s), get(e)
            setp(s, None)
            setp(e, None)
            if x == e:  # both ends of one curve meet: a loop closes
                closed += 1
            else:
                setp(x, y)  # type: ignore[arg-type]
                setp(y, x)  # type: ignore[arg-type]
    return closed


# --- the loop analysis ---------------------------------------------------------------------


@dataclass(frozen=True)
class Loop:
    """A closed loop: the tiles it visits in order (a figure 8 visits its crossing tile twice)."""

    visits: tuple[tuple[Hex, int], ...]
    """(cell, index of the line on that tile), in the order the loop runs through them."""

    @property
    def cells(self) -> tuple[Hex, ...]:
        return tuple(c for c, _ in self.visits)

    @property
    def tiles(self) -> frozenset[Hex]:
        return frozenset(self.cells)

    @property
    def length(self) -> int:
        """Distinct tiles on the loop."""
        return len(self.tiles)


@dataclass
class Analysis:
    """Every closed loop of a layout and the four bonus configurations."""

    loops: list[Loop]
    open_curves: int
    self_crossing: list[int] = field(default_factory=list)
    """Loops that cross themselves (figure 8)."""
    crossing_pairs: list[tuple[int, int]] = field(default_factory=list)
    """Pairs of loops sharing a crossing tile."""
    nested_pairs: list[tuple[int, int]] = field(default_factory=list)
    """(inner, outer): loop `inner` lies inside loop `outer`."""
    through_start: list[int] = field(default_factory=list)
    """Loops passing through the start tile."""
    tiles: int = 0

    @property
    def count(self) -> int:
        return len(self.loops)

    @property
    def longest(self) -> int:
        return max((lp.length for lp in self.loops), default=0)

    @property
    def bonuses(self) -> dict[str, bool]:
        return {"figure_eight": bool(self.self_crossing), "crossing_loops": bool(self.crossing_pairs),
                "nested_loops": bool(self.nested_pairs), "start_loop": bool(self.through_start)}


BONUSES = ("figure_eight", "crossing_loops", "nested_loops", "start_loop")


def analyse(layout: Mapping[Hex, Sequence[Sequence[int]]], start: Hex | None = (0, 0)) -> Analysis:
    """Every closed loop of a finished layout (cell -> lines as placed), with the bonus configurations.

    Exact: each line is a segment with two ends; ends meet across shared edges; a curve
    is followed from segment to segment until it returns to where it began (a loop) or
    reaches an edge with no line beyond (an open curve). See the module docstring for
    crossing, inside and through-the-start.
    """
    lines = {c: [norm_line(ln) for ln in lns] for c, lns in layout.items()}
    port_line: dict[tuple[Hex, int], int] = {}
    for c, lns in lines.items():
        for i, (a, b) in enumerate(lns):
            port_line[(c, a)] = i
            port_line[(c, b)] = i
    seen: set[tuple[Hex, int]] = set()
    loops: list[Loop] = []
    open_curves = 0
    for c in sorted(lines):
        for i in range(len(lines[c])):
            if (c, i) in seen:
                continue
            # walk forward from (c, i) leaving by its second port
            visits = [(c, i)]
            seen.add((c, i))
            cur, out = c, lines[c][i][1]
            closed = False
            while True:
                n = step(cur, out)
                j = port_line.get((n, opposite(out)))
                if j is None:
                    break
                if (n, j) == (c, i):
                    closed = True
                    break
                visits.append((n, j))
                seen.add((n, j))
                a, b = lines[n][j]
                out = b if a == opposite(out) else a
                cur = n
            if closed:
                loops.append(Loop(tuple(visits)))
                continue
            # open: walk backward too, only to mark the curve seen
            cur, out = c, lines[c][i][0]
            while True:
                n = step(cur, out)
                j = port_line.get((n, opposite(out)))
                if j is None or (n, j) in seen:
                    break
                seen.add((n, j))
                a, b = lines[n][j]
                out = b if a == opposite(out) else a
                cur = n
            open_curves += 1
    res = Analysis(loops=loops, open_curves=open_curves, tiles=len(lines))
    # which loop uses which line of each tile
    owner: dict[tuple[Hex, int], int] = {}
    for k, lp in enumerate(loops):
        for v in lp.visits:
            owner[v] = k
    for c, lns in lines.items():
        for i in range(len(lns)):
            for j in range(i + 1, len(lns)):
                if not lines_cross(lns[i], lns[j]):
                    continue
                a, b = owner.get((c, i)), owner.get((c, j))  # type: ignore[assignment]
                if a is None or b is None:
                    continue
                if a == b:
                    if a not in res.self_crossing:
                        res.self_crossing.append(a)
                else:
                    pair = (min(a, b), max(a, b))
                    if pair not in res.crossing_pairs:
                        res.crossing_pairs.append(pair)
    res.self_crossing.sort()
    res.crossing_pairs.sort()
    crossing = set(res.crossing_pairs)
    polys = [[centre(cl) for cl in lp.cells] for lp in loops]
    for inner, lp in enumerate(loops):
        for outer, other in enumerate(loops):
            if inner == outer or (min(inner, outer), max(inner, outer)) in crossing:
                continue
            own = [cl for cl in lp.tiles if cl not in other.tiles]
            if own and all(winding(polys[outer], centre(cl)) != 0 for cl in own):
                res.nested_pairs.append((inner, outer))
    if start is not None:
        res.through_start = [k for k, lp in enumerate(loops) if start in lp.tiles]
    return res


def winding(poly: Sequence[tuple[float, float]], p: tuple[float, float]) -> int:
    """Winding number of the closed polygon around point p (p never on the polygon here)."""
    x, y = p
    w = 0
    n = len(poly)
    for k in range(n):
        x0, y0 = poly[k]
        x1, y1 = poly[(k + 1) % n]
        if y0 <= y:
            if y1 > y and (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0) > 0:
                w += 1
        elif y1 <= y and (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0) < 0:
            w -= 1
    return w


# --- layouts from walks (hand-made layouts, witnesses of the bonuses) ------------------------


def walk(start: Hex, heading: int, turns: str) -> list[tuple[Hex, Line]]:
    """The (cell, line) visits of a curve entering `start` with `heading` (the port direction it moves in).

    Each letter is one tile: S straight on, R a gentle turn right (clockwise), L left.
    """
    out = []
    cell, h = start, heading % 6
    for t in turns:
        entry = opposite(h)
        h = (h + {"S": 0, "R": 1, "L": -1}[t]) % 6
        out.append((cell, norm_line((entry, h))))
        cell = step(cell, h)
    return out


def walks_layout(*walks: Sequence[tuple[Hex, Line]]) -> dict[Hex, tuple[Line, ...]]:
    """Merge walks into a layout (a cell visited twice gets two lines); ValueError on a clash."""
    layout: dict[Hex, list[Line]] = {}
    for w in walks:
        for cell, ln in w:
            lst = layout.setdefault(cell, [])
            if ln not in lst:
                lst.append(ln)
    for cell, lns in layout.items():
        probs = line_problems(lns)
        if len(lns) > 2 or probs:
            raise ValueError(f"cell {list(cell)}: lines {lns} cannot be one tile")
    return {c: tuple(v) for c, v in layout.items()}


def transform(layout: Mapping[Hex, Sequence[Line]], k: int, shift: Hex) -> dict[Hex, tuple[Line, ...]]:
    """The layout turned k steps clockwise about (0, 0), then moved by `shift`."""
    out = {}
    for c, lns in layout.items():
        q, r = rotate_cell(c, k)
        out[(q + shift[0], r + shift[1])] = rotate_lines(lns, k)
    return out
