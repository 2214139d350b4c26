"""3 Stars component generators: placement cards, their back, the board, the pieces.

Geometry comes from .geometry (lattice units, y up); here it is scaled to mm and
flipped to SVG's y-down.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field, field_validator

from pnp.games.three_stars.geometry import (
    SQRT3_2,
    Board,
    Region,
    placements as all_placements,
    region_centres,
    triangle_xy,
    unit_star_polygons,
    vertex_xy,
)
from pnp.geometry import region_boundaries
from pnp.limits import limit
from pnp.params import MAX_ITEMS, Colour, GridIndex, Length, Params as _Params
from pnp.registry import FaceSpec, GeneratorContext, generator
from pnp.render.svg import Canvas
from pnp.render.symbols import Symbol, symbol
from pnp.rulebook import glossary
from pnp.rulebook.words import colour as colour_word

INK = "#1a1a1a"
PAPER = "#fbf8f0"
FILLED = "#1a1a1a"
EMPTY = "#ffffff"


# --- shared drawing --------------------------------------------------------------------


def orientation_mark(c: Canvas, cx: float, base_y: float, size: float) -> None:
    """The white triangle that shows which way is down: held at the bottom, as on the board."""
    h = size * SQRT3_2
    c.polygon([(cx - size / 2, base_y), (cx + size / 2, base_y), (cx, base_y - h)],
              fill="#ffffff", stroke=INK, stroke_width=0.5)


def star(c: Canvas, cx: float, cy: float, side: float, filled: set[int], line: float = 0.6,
         cells: str = "triangle") -> None:
    """A star of 6 triangles of `side` mm centred at (cx, cy); positions in `filled` are solid ink.
    With cells="circle", the circles variant's star of 6 circles, as wide (circles.circle_star)."""
    if cells == "circle":
        from pnp.games.three_stars.circles import circle_star  # lazy: cycle components -> circles -> components

        return circle_star(c, cx, cy, side, filled, line)
    for k, poly in enumerate(unit_star_polygons()):
        pts = [(cx + x * side, cy - y * side) for x, y in poly]
        c.polygon(pts, fill=FILLED if k in filled else EMPTY, stroke=INK, stroke_width=line)


# --- placement cards -------------------------------------------------------------------


class PlacementParams(_Params):
    min: int = Field(1, ge=1, le=6, description="Fewest marked positions on a card")
    max: int = Field(3, ge=1, le=6, description="Most marked positions on a card")
    cells: Literal["triangle", "circle"] = Field(
        "triangle", description="What the star on a card is made of: triangle, or circle for the circles board")


@generator("three_stars.placements", params=PlacementParams, wordless=True)
def placement_cards(ctx: GeneratorContext) -> list[FaceSpec]:
    """One card per arrangement of min..max positions on a star (41 for 1..3)."""
    p: PlacementParams = ctx.params
    size = ctx.component.size
    w, h = (size.width, size.height) if size else (63.0, 88.0)
    arrangements = all_placements(p.min, p.max)
    total = len(arrangements)

    def draw_for(index: int, positions: tuple[int, ...]):
        def draw(c: Canvas) -> None:
            b = c.bleed
            c.rect(-b, -b, w + 2 * b, h + 2 * b, fill=PAPER)
            side = min(w * 0.40, h * 0.30)
            cx, cy = w / 2, h * 0.45
            star(c, cx, cy, side, set(positions), line=0.7, cells=p.cells)
            safe = ctx.design.print.safe_zone
            c.text(safe + 1, safe + 4.2, f"{index}", size=4.2, weight="bold", fill=INK)
            c.text(w - safe - 1, safe + 4.2, f"{index}/{total}", size=2.6, anchor="end", fill="#666666")
            orientation_mark(c, w / 2, h - safe - 2.5, 7.5)
        return draw

    return [
        ctx.face(f"{i:02d}", w, h, draw_for(i, pos), count=ctx.component.count,
                 data={"positions": list(pos)}, label=words().label("card", ctx.lang, n=i, positions=", ".join(map(str, pos))))
        for i, pos in enumerate(arrangements, start=1)
    ]


class CardBackParams(_Params):
    cells: Literal["triangle", "circle"] = Field(
        "triangle", description="What the back's three stars are made of: triangle or circle")


@generator("three_stars.card_back", params=CardBackParams)
def card_back(ctx: GeneratorContext) -> list[FaceSpec]:
    """The shared back of the placement cards: three stars and the title on a dark ground."""
    p: CardBackParams = ctx.params
    size = ctx.component.size
    w, h = (size.width, size.height) if size else (63.0, 88.0)

    def draw(c: Canvas) -> None:
        b = c.bleed
        c.rect(-b, -b, w + 2 * b, h + 2 * b, fill="#20304a")
        c.rect(3.5, 3.5, w - 7, h - 7, stroke="#e8c36a", stroke_width=0.6, rx=3)
        for i, (dx, dy) in enumerate(((0, -20), (-13, 4), (13, 4))):
            filled = {0, 2, 4} if i != 1 else {1, 3, 5}
            if p.cells == "circle":
                from pnp.games.three_stars.circles import circle_star  # lazy: cycle components -> circles -> components

                circle_star(c, w / 2 + dx, h / 2 - 6 + dy, 9, filled, 0.5, ink="#e8c36a", on="#e8c36a",
                            off="#20304a")
                continue
            for k, poly in enumerate(unit_star_polygons()):
                pts = [(w / 2 + dx + x * 9, h / 2 - 6 + dy - y * 9) for x, y in poly]
                c.polygon(pts, fill="#e8c36a" if k in filled else "#20304a", stroke="#e8c36a", stroke_width=0.5)
        c.text(w / 2, h - 14, "3 STARS", size=7, anchor="middle", weight="bold", fill="#e8c36a")

    return [ctx.face("back", w, h, draw)]


# --- board -----------------------------------------------------------------------------


class RegionSpec(_Params):
    players: int = Field(ge=1, le=limit("players"), description="Smallest player count that uses this region")
    columns: tuple[GridIndex, GridIndex] = Field(description="First and last star column, e.g. [0, 3]")
    rows: tuple[GridIndex, GridIndex] = Field(description="First and last star row, e.g. [0, 2]")
    tint: Colour = Field("#eeeeee", description="Fill colour of the region's triangles")

    @field_validator("columns", "rows")
    @classmethod
    def _forward(cls, value: tuple[int, int]) -> tuple[int, int]:
        if value[0] > value[1]:
            raise ValueError(f"{list(value)} runs backwards; expected [first, last] with first <= last")
        return value


class BoardParams(_Params):
    triangle: Length = Field(30.0, gt=0, description="Side of one triangle (= piece side)")
    margin: Length = Field(10.0, ge=0, description="Paper around the triangles")
    regions: dict[str, RegionSpec] = Field(min_length=1, max_length=MAX_ITEMS,
                                           description="Regions by name; a game for P players uses those with players <= P")


def board_geometry(params: BoardParams) -> Board:
    return Board(tuple(
        Region(name, spec.players, region_centres(range(spec.columns[0], spec.columns[1] + 1),
                                                   range(spec.rows[0], spec.rows[1] + 1)))
        for name, spec in params.regions.items()
    ))


def words() -> glossary.Glossary:
    """3 Stars' glossary (pnp/games/three_stars/glossary.yaml): the words the boards and cards print."""
    return glossary.of_package(__file__)


def region_legend(regions, lang: str = "en") -> str:
    """The board's legend from (name, players) pairs: which regions each player count plays on, by the
    names the board prints in them ("2 players: region 2  ·  3 players: 2 + 3  ·  4 players: 2 + 3 + 4";
    "2 joueurs : région 2  ·  3 joueurs : 2 + 3..."), in `lang`."""
    g = words()
    ordered = sorted(regions, key=lambda r: (r[1], r[0]))
    if len(ordered) == 1:
        return g.label("whole_board", lang, n=ordered[0][1])
    parts = []
    for i, players in enumerate(sorted({p for _, p in ordered})):
        names = " + ".join(n for n, p in ordered if p <= players)
        parts.append(g.label("players_regions", lang, n=players,
                             regions=g.label("region", lang, name=names) if i == 0 else names))
    return "  ·  ".join(parts)


@generator("three_stars.board", params=BoardParams)
def board(ctx: GeneratorContext) -> list[FaceSpec]:
    """The board at true size: each region tinted and labelled with its player count."""
    p: BoardParams = ctx.params
    geo = board_geometry(p)
    s, m = p.triangle, p.margin
    xmin, ymin, xmax, ymax = geo.bounds()
    w, h = (xmax - xmin) * s + 2 * m, (ymax - ymin) * s + 2 * m + 12

    def to_mm(x: float, y: float) -> tuple[float, float]:
        return (m + (x - xmin) * s, m + (ymax - y) * s)

    def draw(c: Canvas) -> None:
        c.rect(-c.bleed, -c.bleed, w + 2 * c.bleed, h + 2 * c.bleed, fill="#ffffff")
        tris = sorted(geo.triangles(geo.max_players))
        for t in tris:
            reg = geo.region_of(t)
            c.polygon([to_mm(*pt) for pt in triangle_xy(t)], fill=p.regions[reg.name].tint)
        # region labels: a large numeral at the centre of each region's own triangles
        for reg in geo.regions:
            own = [t for t in tris if geo.region_of(t) == reg]
            pts = [to_mm(*pt) for t in own for pt in triangle_xy(t)]
            lx = sum(x for x, _ in pts) / len(pts)
            ly = sum(y for _, y in pts) / len(pts)
            c.text(lx, ly + 0.35 * s, reg.name, size=s, anchor="middle", weight="bold",
                   fill="#b9b9b9")
        for t in tris:
            c.polygon([to_mm(*pt) for pt in triangle_xy(t)], stroke="#555555", stroke_width=0.35)
        # region borders: edges between triangles of different regions, and the outer edge
        for a, b in _region_edges(geo, tris):
            c.line(to_mm(*a), to_mm(*b), stroke=INK, stroke_width=1.0, stroke_linecap="round")
        # star centres: a small dot helps the eye find stars
        for v in geo.star_positions(geo.max_players):
            c.circle(to_mm(*vertex_xy(v)), 0.8, fill="#555555")
        legend = region_legend(((r.name, r.players) for r in geo.regions), ctx.lang)
        c.text(m, h - 6, words().label("title_triangle", ctx.lang), size=5, weight="bold", fill=INK)
        c.text(w - m, h - 6, legend, size=3.2, anchor="end", fill="#333333")
        orientation_mark(c, w / 2, h - 3.5, 8)

    return [ctx.face("board", w, h, draw, data={
        "triangle_mm": s,
        "regions": {r.name: {"players": r.players, "centres": [list(v) for v in r.centres]} for r in geo.regions},
        "star_positions": {str(n): len(geo.star_positions(n)) for n in sorted({r.players for r in geo.regions})},
        "triangles": {str(n): len(geo.triangles(n)) for n in sorted({r.players for r in geo.regions})},
    })]


def _region_edges(geo: Board, tris: list) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Edges lying on a region boundary (between two regions, or between the board and the outside)."""
    return region_boundaries((geo.region_of(t).name, triangle_xy(t)) for t in tris)


# --- pieces ----------------------------------------------------------------------------


class PieceColour(_Params):
    name: str
    colour: Colour = Field(description="Fill colour, e.g. #0072B2")
    symbol: Symbol = Field(
        description="Mark that tells the colour apart in black-and-white print")


class PieceParams(_Params):
    side: Length = Field(30.0, gt=0, description="Side of the triangle: the board's triangle side")
    diameter: Length | None = Field(None, gt=0, description="Diameter of a round piece (component shape: circle), "
                                                            "e.g. 16mm; default: side")
    colours: list[PieceColour] = Field(min_length=1, max_length=MAX_ITEMS, description="One entry per player colour")


@generator("three_stars.pieces", params=PieceParams, wordless=True)
def pieces(ctx: GeneratorContext) -> list[FaceSpec]:
    """One triangular piece face per player colour (a round one with `shape: circle`); `count` copies of each."""
    p: PieceParams = ctx.params
    if ctx.component.shape == "circle":
        from pnp.games.three_stars.circles import round_pieces  # lazy: cycle components -> circles -> components

        return round_pieces(ctx, p.colours, p.diameter or p.side)
    s = p.side
    h = s * SQRT3_2

    def draw_for(col: PieceColour):
        def draw(c: Canvas) -> None:
            b = c.bleed
            k = b * math.sqrt(3)  # the triangle offset outwards by b
            c.polygon([(-k, h + b), (s + k, h + b), (s / 2, -2 * b)], fill=col.colour)
            symbol(c, col.symbol, s / 2, h * 2 / 3, s * 0.14, line=0.5)
        return draw

    return [ctx.face(col.name, s, h, draw_for(col), count=ctx.component.count, shape="triangle",
                     data={"colour": col.name, "fill": col.colour, "symbol": col.symbol},
                     label=colour_word(col.name, ctx.lang, "piece"))
            for col in p.colours]


