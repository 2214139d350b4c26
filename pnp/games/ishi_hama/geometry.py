"""Ishi-Hama geometry (pure): the square grid, sides, path masks and their rotations.

Sides are numbered as the path-tile renderer numbers a square's ports: 0 N (top), 1 E
(right), 2 S (bottom), 3 W (left). A tile's paths are a 4-bit mask of the sides its path
reaches from the centre (bit s = side s). Turning a tile a quarter turn clockwise moves
the path on side s to side s+1.

Cells are (column, row) with (0, 0) the top-left cell, numbered row by row
(index = row * columns + column) and named as printed on the board: column letter, row
number (A1 top-left).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

N, E, S, W = 0, 1, 2, 3
SIDE_NAMES = ("N", "E", "S", "W")
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))  # (dx, dy) of a step towards each side


def opposite(side: int) -> int:
    return (side + 2) % 4


def side_of(name: str) -> int:
    key = str(name).strip().upper()
    if key not in SIDE_NAMES:
        raise ValueError(f"side {name!r}; expected one of N, E, S, W")
    return SIDE_NAMES.index(key)


def mask_of(sides: Iterable[int]) -> int:
    m = 0
    for s in sides:
        m |= 1 << s
    return m


def sides_of(mask: int) -> list[int]:
    return [s for s in range(4) if mask >> s & 1]


def mask_name(mask: int) -> str:
    """'N+E' for a mask; '-' for a tile without paths."""
    return "+".join(SIDE_NAMES[s] for s in sides_of(mask)) or "-"


def rotate(mask: int, quarter_turns: int) -> int:
    """The mask turned `quarter_turns` quarter turns clockwise."""
    r = quarter_turns % 4
    return ((mask << r) | (mask >> (4 - r))) & 0xF


def orientations(mask: int) -> list[tuple[int, int]]:
    """The distinct orientations of a path mask as (quarter turns, mask), fewest turns first.

    A straight path has 2, a corner or a tee 4, a cross (or no path) 1.
    """
    seen: dict[int, int] = {}
    for r in range(4):
        seen.setdefault(rotate(mask, r), r)
    return sorted(((r, m) for m, r in seen.items()), key=lambda t: t[0])


class Grid:
    """A columns x rows board of square cells with its neighbour table."""

    def __init__(self, columns: int, rows: int):
        self.columns, self.rows = columns, rows
        self.size = columns * rows
        nb = []
        for i in range(self.size):
            x, y = i % columns, i // columns
            row = []
            for dx, dy in STEP:
                nx, ny = x + dx, y + dy
                row.append(ny * columns + nx if 0 <= nx < columns and 0 <= ny < rows else -1)
            nb.append(tuple(row))
        self.nb: tuple[tuple[int, ...], ...] = tuple(nb)
        """nb[cell][side]: the neighbouring cell across that side, or -1 off the board."""
        self.adjacent: tuple[tuple[int, ...], ...] = tuple(tuple(c for c in row if c >= 0) for row in nb)

    def index(self, x: int, y: int) -> int:
        return y * self.columns + x

    def cell(self, i: int) -> tuple[int, int]:
        return i % self.columns, i // self.columns

    def name(self, i: int) -> str:
        x, y = self.cell(i)
        return f"{chr(ord('A') + x)}{y + 1}"

    def parse(self, name: str) -> int:
        """'C4' -> the cell index (column C, row 4)."""
        name = name.strip().upper()
        x, y = ord(name[0]) - ord("A"), int(name[1:]) - 1
        if not (0 <= x < self.columns and 0 <= y < self.rows):
            raise ValueError(f"cell {name} is off the {self.columns}x{self.rows} board")
        return self.index(x, y)

    def max_apart(self) -> int:
        """The most cells that can hold tiles none of which touches another (edge contact).

        A grid graph is bipartite with a perfect or near-perfect matching along its rows, so
        its largest independent set is one colour class of the chessboard colouring:
        ceil(columns x rows / 2) — 41 on 9x9.
        """
        return (self.size + 1) // 2

    def chessboard_cells(self) -> list[int]:
        """Those cells: every cell whose column + row is even (A1, C1, ..., B2, ...)."""
        return [i for i in range(self.size) if sum(self.cell(i)) % 2 == 0]


def connected(grid: Grid, colour: Sequence[int], masks: Sequence[int], a: int, side: int) -> bool:
    """Whether the tile on cell `a` connects with its neighbour across `side`: same colour, paths meeting."""
    b = grid.nb[a][side]
    return (b >= 0 and colour[a] >= 0 and colour[a] == colour[b]
            and masks[a] >> side & 1 and masks[b] >> opposite(side) & 1) != 0


def groups(grid: Grid, colour: Sequence[int], masks: Sequence[int], min_size: int = 1) -> list[list[int]]:
    """Connected groups of tiles (same colour, edge contact, paths meeting) of at least `min_size` tiles,
    each sorted, in the order of their smallest cell."""
    seen = bytearray(grid.size)
    out = []
    nb = grid.nb
    for start, c in enumerate(colour):
        if c < 0 or seen[start]:
            continue
        seen[start] = 1
        group = [start]
        for a in group:  # grows while it is walked: a breadth-first search
            m = masks[a]
            if not m:
                continue
            north, east, south, west = nb[a]
            # each side's neighbour joins when it has the colour and a path back to this side (N<->S, E<->W)
            if m & 1 and north >= 0 and not seen[north] and colour[north] == c and masks[north] & 4:
                seen[north] = 1
                group.append(north)
            if m & 2 and east >= 0 and not seen[east] and colour[east] == c and masks[east] & 8:
                seen[east] = 1
                group.append(east)
            if m & 4 and south >= 0 and not seen[south] and colour[south] == c and masks[south] & 1:
                seen[south] = 1
                group.append(south)
            if m & 8 and west >= 0 and not seen[west] and colour[west] == c and masks[west] & 2:
                seen[west] = 1
                group.append(west)
        if len(group) >= min_size:
            group.sort()
            out.append(group)
    return out
