"""TUBO geometry: a square board that wraps on both axes, its zones, and the path pieces.

Pure data and arithmetic, no drawing. Cells are (x, y) with x the column (0 = left) and
y the row (0 = top). Sides are the square path tile's ports: 0 N, 1 E, 2 S, 3 W
(pnp.render.pathtiles numbering), so a piece's connection is a pair of ports.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations

N, E, S, W = 0, 1, 2, 3
SIDES = (N, E, S, W)
SIDE_NAMES = "NESW"
DELTA = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}

Cell = tuple[int, int]
Connector = tuple[int, int]  # two sides, ascending


def opposite(side: int) -> int:
    return (side + 2) % 4


def side_of(name: str) -> int:
    """'N' -> 0 ... 'W' -> 3 (also 'north', case-insensitive)."""
    key = str(name).strip().upper()[:1]
    if key not in SIDE_NAMES:
        raise ValueError(f"side {name!r}; expected one of N, E, S, W")
    return SIDE_NAMES.index(key)


def connectors() -> list[Connector]:
    """Every two-edge connector of a square in fixed orientation: C(4, 2) = 6, enumerated."""
    return list(combinations(SIDES, 2))


def connector_name(c: Connector) -> str:
    """'N-S', 'E-W', 'N-E'... (sides in N E S W order)."""
    return "-".join(SIDE_NAMES[s] for s in c)


def connector_of(name: str) -> Connector:
    """'N-S' / 'ns' / 'S-N' -> (0, 2)."""
    letters = [ch for ch in str(name).upper() if ch in SIDE_NAMES]
    if len(letters) != 2 or letters[0] == letters[1]:
        raise ValueError(f"connector {name!r}; expected two different sides such as N-S or E-W")
    a, b = sorted(SIDE_NAMES.index(ch) for ch in letters)
    return (a, b)


def fitting(entry: int, pieces: Iterable[Connector]) -> list[Connector]:
    """The connectors whose line meets an open end entering the cell through side `entry`."""
    return [c for c in pieces if entry in c]


def other_side(c: Connector, entry: int) -> int:
    return c[1] if c[0] == entry else c[0]


@dataclass(frozen=True)
class Zone:
    """A named set of cells, given as rectangles and/or single cells, or `rest`: every cell of no other zone."""

    name: str
    rects: tuple[tuple[int, int, int, int], ...] = ()  # (x0, x1, y0, y1) inclusive
    cells: tuple[Cell, ...] = ()
    rest: bool = False


@dataclass(frozen=True)
class Board:
    """A width x height torus of cells with a Start cell, its branches and named zones."""

    width: int
    height: int
    start: Cell
    branches: tuple[int, ...]
    zones: tuple[Zone, ...]

    def wrap(self, cell: Cell) -> Cell:
        return (cell[0] % self.width, cell[1] % self.height)

    def step(self, cell: Cell, side: int) -> Cell:
        """The neighbour across `side`; leaving one edge re-enters on the opposite edge."""
        dx, dy = DELTA[side]
        return ((cell[0] + dx) % self.width, (cell[1] + dy) % self.height)

    def index(self, cell: Cell) -> int:
        return cell[1] * self.width + cell[0]

    def cell(self, index: int) -> Cell:
        return (index % self.width, index // self.width)

    @property
    def size(self) -> int:
        return self.width * self.height

    def all_cells(self) -> list[Cell]:
        return [(x, y) for y in range(self.height) for x in range(self.width)]

    @cached_property
    def zone_cells(self) -> Mapping[str, frozenset[Cell]]:
        """Cells of each zone; `rest` zones take every cell of no explicit zone (Start excluded from none)."""
        explicit: dict[str, set[Cell]] = {}
        for z in self.zones:
            if z.rest:
                continue
            cells: set[Cell] = set(z.cells)
            for x0, x1, y0, y1 in z.rects:
                cells |= {(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)}
            explicit[z.name] = cells
        taken = set().union(*explicit.values()) if explicit else set()
        out = {}
        for z in self.zones:
            out[z.name] = frozenset(explicit[z.name]) if not z.rest else frozenset(
                c for c in self.all_cells() if c not in taken)
        return out

    def zone_of(self, cell: Cell) -> str | None:
        for z in self.zones:
            if cell in self.zone_cells[z.name]:
                return z.name
        return None

    def distance(self, a: Cell, b: Cell) -> int:
        """Steps between two cells on the torus (Manhattan, each axis the short way round)."""
        dx = abs(a[0] - b[0]) % self.width
        dy = abs(a[1] - b[1]) % self.height
        return min(dx, self.width - dx) + min(dy, self.height - dy)


def pieces_to_reach(board: Board, target: Cell, pieces: Iterable[Connector], blocked: Iterable[Cell] = ()) -> int | None:
    """Fewest path pieces from a branch of Start until the path's open end leads into `target`,
    on an empty board using the given connector types (any number of each); None if never.

    Breadth-first over open ends (cell, exit side); Start and `blocked` cells take no piece.
    """
    kinds = list(set(pieces))
    stop = set(blocked) | {board.start}
    frontier = [(board.start, b) for b in board.branches]
    seen = set(frontier)
    laid = 0
    while frontier:
        nxt = []
        for cell, side in frontier:
            t = board.step(cell, side)
            if t == target:
                return laid
            if t in stop:
                continue
            entry = opposite(side)
            for c in fitting(entry, kinds):
                end = (t, other_side(c, entry))
                if end not in seen:
                    seen.add(end)
                    nxt.append(end)
        frontier = nxt
        laid += 1
    return None
