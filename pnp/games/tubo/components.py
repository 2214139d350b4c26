"""TUBO component generators: the wrapping board, the 8 colour stocks, the Objective piece.

Geometry comes from .geometry (cells, sides, connectors); the lines are drawn with the
core path-tile renderer (pnp.render.pathtiles), so a line on a piece meets the line on the
next piece — or the Start cell's branch on the board — exactly at the shared edge.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from pnp.games.tubo.geometry import (
    SIDE_NAMES,
    Board,
    Zone,
    connector_name,
    connector_of,
    connectors,
    side_of,
)
from pnp.model import Text
from pnp.params import MAX_ITEMS, Colour, GridIndex, Length, Params as _Params
from pnp.registry import FaceSpec, GeneratorContext, generator
from pnp.render.colour import tint
from pnp.render.pathtiles import Hub, Link, PathStyle, Spoke, Stub, draw_tile, square
from pnp.render.svg import Canvas
from pnp.render.symbols import Symbol, symbol
from pnp.rulebook import glossary
from pnp.rulebook.words import SIDE_LETTERS, colour as colour_word

INK = "#1a1a1a"
PAPER = "#fbf8f0"


# --- the board -------------------------------------------------------------------------


class ZoneSpec(_Params):
    columns: tuple[GridIndex, GridIndex] | None = Field(None,
                                                        description="First and last column of a rectangle, 0-based")
    rows: tuple[GridIndex, GridIndex] | None = Field(None, description="First and last row of a rectangle, 0-based")
    cells: list[tuple[GridIndex, GridIndex]] = Field(default_factory=list, max_length=MAX_ITEMS,
                                                     description="Single cells [x, y]")
    rest: bool = Field(False, description="Every cell of no other zone")
    fill: Colour = Field("#bdbdbd", description="Colour of the zone's cells")
    label: Text = Field("", description="Legend text under the board: plain, or one per language {en: ..., fr: ...}")

    @model_validator(mode="after")
    def _given(self) -> "ZoneSpec":
        if (self.columns is None) != (self.rows is None):
            raise ValueError("a rectangle needs both 'columns' and 'rows'; expected e.g. columns: [1, 5], rows: [1, 5]")
        if not (self.rest or self.cells or self.columns is not None):
            raise ValueError("a zone needs cells; expected columns + rows, cells: [[x, y]...] or rest: true")
        return self


class BoardParams(_Params):
    columns: int = Field(7, ge=3, le=26, description="Cells across")
    rows: int = Field(7, ge=3, le=26, description="Cells down")
    cell: Length = Field(25.0, gt=0, description="Side of a cell (= side of a piece)")
    margin: Length = Field(12.0, ge=6, description="Paper around the cells (coordinates, wrap marks)")
    start: tuple[int, int] = Field((3, 3), description="The Start cell [column, row], 0-based")
    branches: list[str] = Field(default_factory=lambda: ["N", "E", "S", "W"], max_length=MAX_ITEMS,
                                description="Start's branches")
    zones: dict[str, ZoneSpec] = Field(max_length=MAX_ITEMS, description="Zones by name (e.g. grey, black)")
    path_width: Length = Field(6.0, gt=0, description="Width of the printed path lines")

    @model_validator(mode="after")
    def _inside(self) -> "BoardParams":
        x, y = self.start
        if not (0 <= x < self.columns and 0 <= y < self.rows):
            raise ValueError(f"start {list(self.start)} is off the {self.columns}x{self.rows} board")
        for b in self.branches:
            side_of(b)
        return self


def board_geometry(p: BoardParams) -> Board:
    """The rules' view of the board params."""
    zones = []
    for name, z in p.zones.items():
        rects = ((z.columns[0], z.columns[1], z.rows[0], z.rows[1]),) if z.columns is not None else ()  # type: ignore[index]
        zones.append(Zone(name, rects, tuple(tuple(c) for c in z.cells), z.rest))  # type: ignore[misc]
    return Board(p.columns, p.rows, tuple(p.start), tuple(side_of(b) for b in p.branches), tuple(zones))  # type: ignore[arg-type]


@generator("tubo.board", params=BoardParams)
def board(ctx: GeneratorContext) -> list[FaceSpec]:
    """The board at true size: zones, the Start cell and its branches, wrap-around coordinates."""
    p: BoardParams = ctx.params
    geo = board_geometry(p)
    s, m = p.cell, p.margin
    band = 9.0
    w, h = p.columns * s + 2 * m, p.rows * s + 2 * m + band
    tile = square(s)
    fills = {name: z.fill for name, z in p.zones.items()}
    words = glossary.of_package(__file__)

    def draw(c: Canvas) -> None:
        c.rect(-c.bleed, -c.bleed, w + 2 * c.bleed, h + 2 * c.bleed, fill="#ffffff")
        for (x, y) in geo.all_cells():
            zone = geo.zone_of((x, y))
            c.rect(m + x * s, m + y * s, s, s, fill=fills.get(zone, "#ffffff") if zone else "#ffffff")
        # grid: light lines over dark and light cells alike
        for i in range(p.columns + 1):
            c.line((m + i * s, m), (m + i * s, m + p.rows * s), stroke="#8a8a8a", stroke_width=0.3)
        for j in range(p.rows + 1):
            c.line((m, m + j * s), (m + p.columns * s, m + j * s), stroke="#8a8a8a", stroke_width=0.3)
        c.rect(m, m, p.columns * s, p.rows * s, stroke=INK, stroke_width=0.6)
        # Start: its branches reach the middle of the cell's edges, where the first pieces continue them
        sx, sy = geo.start
        origin = (m + sx * s, m + sy * s)
        c.rect(origin[0], origin[1], s, s, stroke=INK, stroke_width=0.4)  # on its zone's fill
        style = PathStyle(width=p.path_width, colour="#ffffff", outline=INK, outline_width=0.6)
        draw_tile(c, tile, [Spoke(b) for b in geo.branches] + [Hub(p.path_width * 0.95)], style, origin=origin,
                  extend=0)
        c.text(origin[0] + s / 2, origin[1] + s / 2 + 1.0, words.label("start", ctx.lang), size=2.6, anchor="middle",
               weight="bold", fill=INK)
        # coordinates on every side: a path leaving at column C (or row 4) comes back at the same label opposite
        for i in range(p.columns):
            label = chr(ord("A") + i)
            x = m + (i + 0.5) * s  # type: ignore[assignment]
            c.text(x, m - 3.2, label, size=4, anchor="middle", weight="bold", fill="#444444")
            c.text(x, m + p.rows * s + 6.6, label, size=4, anchor="middle", weight="bold", fill="#444444")
        for j in range(p.rows):
            y = m + (j + 0.5) * s + 1.4  # type: ignore[assignment]
            c.text(m / 2, y, str(j + 1), size=4, anchor="middle", weight="bold", fill="#444444")
            c.text(m + p.columns * s + m / 2, y, str(j + 1), size=4, anchor="middle", weight="bold", fill="#444444")
        # wrap marks: a small double arrow in each margin corner
        for (cx, cy) in ((m / 2, m / 2), (w - m / 2, m / 2), (m / 2, m + p.rows * s + m / 2),
                         (w - m / 2, m + p.rows * s + m / 2)):
            c.circle((cx, cy), 3.2, fill="none", stroke="#444444", stroke_width=0.35)
            c.text(cx, cy + 1.2, "↻", size=3.6, anchor="middle", fill="#444444")
        legend = "   ".join(ctx.text(z.label) for z in p.zones.values() if z.label)
        base = m + p.rows * s + m + 2.5
        c.text(m, base + 3.5, "TUBO", size=5, weight="bold", fill=INK)
        c.text(w - m, base + 1.2, words.label("no_edge", ctx.lang), size=2.4, anchor="end", fill="#333333")
        c.text(w - m, base + 4.6, legend, size=2.4, anchor="end", fill="#333333")
        # north: pieces are never turned; their top edge faces this way
        c.polygon([(w / 2, 1.2), (w / 2 + 2.2, 5.0), (w / 2 - 2.2, 5.0)], fill=INK)

    zone_cells = {name: sorted([list(cell) for cell in geo.zone_cells[name]]) for name in p.zones}
    return [ctx.face("board", w, h, draw, data={
        "columns": p.columns, "rows": p.rows, "cell_mm": s, "start": list(geo.start),
        "branches": [SIDE_NAMES[b] for b in geo.branches],
        "zones": {name: len(cells) for name, cells in zone_cells.items()},
    })]


# --- the colour stocks ------------------------------------------------------------------


class StockSpec(_Params):
    name: str = Field(description="Colour name, e.g. orange")
    colour: Colour = Field(description="Line colour, e.g. #E69F00")
    symbol: Symbol = Field(description="Mark that tells the stock apart in black-and-white print")
    omit: list[str] = Field(default_factory=list, max_length=MAX_ITEMS,
                            description="Connectors left out of this stock, e.g. [N-S] (variants; `pnp validate` flags it)")

    @model_validator(mode="after")
    def _omit(self) -> "StockSpec":
        for name in self.omit:
            connector_of(name)
        return self


class StocksParams(_Params):
    cell: Length = Field(25.0, gt=0, description="Side of a piece: the board's cell")
    path_width: Length = Field(6.0, gt=0, description="Width of the printed path lines (as on the board)")
    close_pieces: int = Field(1, ge=0, le=MAX_ITEMS, description="Close pieces per stock (each a face of its own)")
    stocks: list[StockSpec] = Field(min_length=1, max_length=MAX_ITEMS, description="One entry per colour stock")


def stock_pieces(spec: StockSpec, close_pieces: int) -> list[tuple[str, tuple[int, int] | None]]:
    """(key, connector) of every piece of a stock: the 6 enumerated connectors (less `omit`), then Close pieces."""
    left_out = {connector_of(o) for o in spec.omit}
    out: list[tuple[str, tuple[int, int] | None]] = [
        (connector_name(con).lower().replace("-", ""), con) for con in connectors() if con not in left_out]
    out += [("close" if close_pieces == 1 else f"close{k + 1}", None) for k in range(close_pieces)]
    return out


def piece_style(colour: str, path_width: float) -> PathStyle:
    return PathStyle(width=path_width, colour=colour, outline=INK, outline_width=0.6)


def _draw_piece(c: Canvas, size: float, spec: StockSpec, con, path_width: float) -> None:
    b = c.bleed
    c.rect(-b, -b, size + 2 * b, size + 2 * b, fill=tint(spec.colour, 0.82))
    tile = square(size)
    r = size * 0.075
    if con is None:
        # Close piece: one opening, a stop bar. Turned to face whichever side the path comes from.
        draw_tile(c, tile, [Stub(2, reach=0.92, cap="bar")], piece_style(spec.colour, path_width))
        symbol(c, spec.symbol, size * 0.2, size * 0.2, r)
        symbol(c, spec.symbol, size * 0.8, size * 0.2, r)
        return
    draw_tile(c, tile, [Link(*con)], piece_style(spec.colour, path_width))
    symbol(c, spec.symbol, size * 0.16, size * 0.16, r)
    # orientation: this corner points north (pieces are never turned)
    t = size * 0.055
    x, y = size * 0.84, size * 0.12
    c.polygon([(x, y - t), (x + t, y + t * 0.8), (x - t, y + t * 0.8)], fill=INK)


@generator("tubo.stocks", params=StocksParams, wordless=True)
def stocks(ctx: GeneratorContext) -> list[FaceSpec]:
    """Per colour stock: the 6 two-edge connectors of a square (enumerated) and its Close piece(s)."""
    p: StocksParams = ctx.params
    s = p.cell
    faces = []
    words = glossary.of_package(__file__)
    for spec in p.stocks:
        colour = colour_word(spec.name, ctx.lang, "piece")
        letters = SIDE_LETTERS.get(ctx.lang, SIDE_LETTERS["en"])
        for key, con in stock_pieces(spec, p.close_pieces):
            def draw(c: Canvas, spec=spec, con=con) -> None:
                _draw_piece(c, s, spec, con, p.path_width)
            kind = "close" if con is None else "connector"
            sides = [] if con is None else [SIDE_NAMES[x] for x in con]
            label = words.label("close", ctx.lang, colour=colour) if con is None else \
                words.label("connector", ctx.lang, colour=colour, sides="-".join(letters[x] for x in con))
            faces.append(ctx.face(f"{spec.name}-{key}", s, s, draw, count=ctx.component.count, label=label,
                                  data={"stock": spec.name, "colour": spec.colour, "symbol": spec.symbol,
                                        "piece": kind, "sides": sides}))
    return faces


# --- the Objective ----------------------------------------------------------------------


class ObjectiveParams(_Params):
    cell: Length = Field(25.0, gt=0, description="Side of the piece: the board's cell")
    path_width: Length = Field(6.0, gt=0, description="Width of the path stubs (as on the pieces)")


@generator("tubo.objective", params=ObjectiveParams, wordless=True)
def objective(ctx: GeneratorContext) -> list[FaceSpec]:
    """The Objective piece: a target reached from any side."""
    p: ObjectiveParams = ctx.params
    s = p.cell

    def draw(c: Canvas) -> None:
        b = c.bleed
        c.rect(-b, -b, s + 2 * b, s + 2 * b, fill="#fff4cc")
        style = PathStyle(width=p.path_width, colour="#ffffff", outline=INK, outline_width=0.6)
        draw_tile(c, square(s), [Stub(k, reach=0.5, cap="none") for k in range(4)], style)
        ctr = (s / 2, s / 2)
        for k, (r, fill) in enumerate(((s * 0.30, INK), (s * 0.24, "#ffffff"), (s * 0.18, INK),
                                       (s * 0.12, "#ffffff"), (s * 0.06, "#D55E00"))):
            c.circle(ctr, r, fill=fill)

    return [ctx.face("objective", s, s, draw, count=ctx.component.count,
                     label=glossary.of_package(__file__).label("objective", ctx.lang),
                     data={"piece": "objective"})]
