"""Ishi-Hama component generators: the board (with each player's reserve and score strips)
and the path tiles of both colours.

The tiles are drawn with the core path-tile renderer (pnp.render.pathtiles): one `Spoke`
from the centre to the midpoint of each side the tile's path reaches, and a `Hub` disc at
the centre, so the paths of two tiles side by side meet exactly at the shared edge's
midpoint. The two colours differ in black-and-white print too: each colour has its own
symbol on the hub and its own path pattern (solid, or "rail": dark cross-ties along the
path, spaced symmetrically about every edge midpoint so they line up across tiles).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from pnp.games.ishi_hama.geometry import SIDE_NAMES, mask_name, mask_of, side_of
from pnp.params import MAX_ITEMS, Colour, Count, Length, Params as _Params
from pnp.registry import FaceSpec, GeneratorContext, generator
from pnp.render import fonts
from pnp.render.colour import tint
from pnp.render.pathtiles import Hub, PathStyle, Spoke, draw_tile, square
from pnp.render.svg import Canvas
from pnp.render.symbols import Symbol, symbol
from pnp.rulebook import glossary
from pnp.rulebook.words import colour as colour_word, of_player, player_name

INK = "#1a1a1a"
GRID = "#8a8a8a"
BOARD_GENERATOR = "ishi_hama.board"
TILES_GENERATOR = "ishi_hama.tiles"


# --- the tiles -------------------------------------------------------------------------


class MixEntry(_Params):
    name: str = Field(description="Name of the tile shape, e.g. corner")
    paths: list[str] = Field(description="Sides the path reaches from the centre, e.g. [N, E]")
    count: Count = Field(description="Tiles of this shape per colour")

    @field_validator("paths")
    @classmethod
    def _sides(cls, value: list[str]) -> list[str]:
        sides = [SIDE_NAMES[side_of(v)] for v in value]
        if len(set(sides)) != len(sides):
            raise ValueError(f"{value} names a side twice; expected distinct sides among N, E, S, W")
        return sides

    @property
    def mask(self) -> int:
        return mask_of(side_of(s) for s in self.paths)


class ColourSpec(_Params):
    name: str = Field(description="Colour name, e.g. orange (the player who owns these tiles at the start)")
    colour: Colour = Field(description="Path colour, e.g. #E69F00")
    symbol: Symbol = Field("circle", description="Mark on the hub, for black-and-white print")
    pattern: Literal["solid", "rail"] = Field("solid", description="solid path, or rail: dark cross-ties along it")


class TilesParams(_Params):
    cell: Length = Field(18.0, gt=0, description="Side of a tile: the board's cell")
    path_width: Length = Field(4.5, gt=0, description="Width of the printed path")
    mix: list[MixEntry] = Field(min_length=1, max_length=MAX_ITEMS,
                                description="Tile shapes and how many of each per colour")
    colours: list[ColourSpec] = Field(min_length=1, max_length=MAX_ITEMS, description="One entry per tile colour")


def hub_symbol(c: Canvas, kind: str, x: float, y: float, r: float) -> None:
    """The colour's mark on the hub (radius r): white with a dark outline, readable in greyscale."""
    symbol(c, kind, x, y, r * 0.63, ink=INK)


def draw_rail(c: Canvas, size: float, mask: int, width: float, origin: tuple[float, float] = (0.0, 0.0)) -> None:
    """Dark cross-ties across each spoke, at spacing/2, 3*spacing/2... from the edge midpoint,
    so two tiles side by side show one evenly spaced rail across their shared edge."""
    half = size / 2
    spacing = width * 0.42
    ox, oy = origin
    for side in range(4):
        if not mask >> side & 1:
            continue
        dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[side]
        d = spacing / 2
        while d < half - width * 0.85:  # stop short of the hub
            px, py = ox + half + dx * (half - d), oy + half + dy * (half - d)
            ux, uy = -dy * width / 2, dx * width / 2  # across the path
            c.line((px - ux, py - uy), (px + ux, py + uy), stroke=INK, stroke_width=0.45)
            d += spacing


def draw_tile_face(c: Canvas, size: float, mask: int, spec: ColourSpec, path_width: float,
                   origin: tuple[float, float] = (0.0, 0.0), background: bool = True) -> None:
    """One tile: tinted ground, the path from the centre to each side of `mask`, the hub and its symbol."""
    ox, oy = origin
    if background:
        b = c.bleed if origin == (0.0, 0.0) else 0.0
        c.rect(ox - b, oy - b, size + 2 * b, size + 2 * b, fill=tint(spec.colour, 0.84))
    style = PathStyle(width=path_width, colour=spec.colour, outline=INK, outline_width=0.45)
    conns = [Spoke(s) for s in range(4) if mask >> s & 1]
    hub_r = path_width * 0.72
    draw_tile(c, square(size), conns + [Hub(hub_r)], style, origin=origin, extend=0)
    if spec.pattern == "rail":
        draw_rail(c, size, mask, path_width, origin)
    hub_symbol(c, spec.symbol, ox + size / 2, oy + size / 2, hub_r)


@generator(TILES_GENERATOR, params=TilesParams, wordless=True)
def tiles(ctx: GeneratorContext) -> list[FaceSpec]:
    """Per colour, one face per shape of the mix (count: the mix's count); paths are spokes to edge midpoints."""
    p: TilesParams = ctx.params
    s = p.cell
    faces = []
    words = glossary.of_package(__file__)
    for spec in p.colours:
        for entry in p.mix:
            mask = entry.mask
            shape = words.term(entry.name, ctx.lang) if entry.name in words.words else entry.name
            tile = words.term("tile", ctx.lang)
            hue = colour_word(spec.name, ctx.lang, "tile")

            def draw(c: Canvas, spec=spec, mask=mask) -> None:
                draw_tile_face(c, s, mask, spec, p.path_width)

            faces.append(ctx.face(f"{spec.name}-{entry.name}", s, s, draw, count=entry.count * ctx.component.count,
                                  label=(f"{tile} {shape} {hue}" if ctx.lang == "fr" else f"{hue} {shape} {tile}")
                                  + f" ({mask_name(mask)})",
                                  data={"colour": spec.name, "shape": entry.name, "paths": list(entry.paths)}))
    return faces


# --- the board -------------------------------------------------------------------------


class BoardParams(_Params):
    columns: int = Field(9, ge=3, le=26, description="Cells across")
    rows: int = Field(9, ge=3, le=26, description="Cells down")
    cell: Length = Field(18.0, gt=0, description="Side of a cell (= side of a tile)")
    margin: Length = Field(4.0, ge=0, description="Paper around everything")
    gap: Length = Field(5.0, ge=0, description="Between the grid and a reserve strip (row numbers go here)")
    strip_gap: Length = Field(3.0, ge=0, description="Between a reserve strip and its score strip")


def tile_colours(design) -> list[ColourSpec]:
    """The tile colours as the design's tile component states them (seat order: as listed)."""
    for comp in design.components.values():
        if comp.generate == TILES_GENERATOR and isinstance(comp.params, TilesParams):
            return list(comp.params.colours)
    return []


def board_size(p: BoardParams) -> tuple[float, float]:
    c = p.cell
    w = 2 * p.margin + 2 * (c + p.strip_gap + c + p.gap) + p.columns * c
    h = 2 * p.margin + 6.0 + p.rows * c + 8.0
    return w, h


def fitted(text: str, size: float, room: float, bold: bool = False) -> float:
    """The text size, at most `size`, at which `text` in the shipped DejaVu Sans fits in `room` mm: a label of any
    language stays inside its strip."""
    from reportlab.pdfbase import pdfmetrics  # lazy: 51 ms (reportlab.pdfbase)

    face = fonts.BOLD if bold else fonts.REGULAR
    fonts.ensure(face)
    wide = pdfmetrics.stringWidth(text, face, size)
    return size if wide <= room else size * room / wide


def _rotated_text(c: Canvas, x: float, y: float, text: str, angle: int, size: float, **kw) -> None:
    with c.group(transform=f"translate({x:.3f} {y:.3f}) rotate({angle})"):
        c.text(0, size * 0.35, text, size=size, anchor="middle", **kw)


@generator(BOARD_GENERATOR, params=BoardParams)
def board(ctx: GeneratorContext) -> list[FaceSpec]:
    """The board at true size: the grid (A1 top-left), each player's reserve strip and score strip
    (one slot per point of the game) on the player's side, facing the player."""
    p: BoardParams = ctx.params
    c = p.cell
    w, h = board_size(p)
    gx = p.margin + c + p.strip_gap + c + p.gap  # left edge of the grid
    gy = p.margin + 6.0
    gw, gh = p.columns * c, p.rows * c
    points = ctx.design.rules.get("points_in_game", 7)
    slots = points if isinstance(points, int) and 0 < points <= p.rows else p.rows
    colours = tile_colours(ctx.design)
    words = glossary.of_package(__file__)
    names = [player_name(col.name, ctx.lang) for col in colours[:2]]
    while len(names) < 2:
        names.append(words.label("player", ctx.lang, n=len(names) + 1))
    hues = [col.colour for col in colours[:2]] + ["#9a9a9a"] * 2

    def draw(cv: Canvas) -> None:
        b = cv.bleed
        cv.rect(-b, -b, w + 2 * b, h + 2 * b, fill="#ffffff")
        # the grid
        cv.rect(gx, gy, gw, gh, fill="#f4f1e8")
        for i in range(p.columns + 1):
            cv.line((gx + i * c, gy), (gx + i * c, gy + gh), stroke=GRID, stroke_width=0.3)
        for j in range(p.rows + 1):
            cv.line((gx, gy + j * c), (gx + gw, gy + j * c), stroke=GRID, stroke_width=0.3)
        cv.rect(gx, gy, gw, gh, stroke=INK, stroke_width=0.6)
        for i in range(p.columns):
            cv.text(gx + (i + 0.5) * c, gy - 1.8, chr(ord("A") + i), size=3.4, anchor="middle", weight="bold",
                    fill="#555555")
        for j in range(p.rows):
            y = gy + (j + 0.5) * c + 1.2
            cv.text(gx - p.gap / 2, y, str(j + 1), size=3.2, anchor="middle", weight="bold", fill="#555555")
            cv.text(gx + gw + p.gap / 2, y, str(j + 1), size=3.2, anchor="middle", weight="bold", fill="#555555")
        # each player's side: seat 1 (the first colour) on the left, seat 2 on the right
        for seat in range(2):
            left = seat == 0
            angle = 90 if left else -90  # text faces the player sitting on that side
            rx = gx - p.gap - c if left else gx + gw + p.gap  # reserve strip
            sx = rx - p.strip_gap - c if left else rx + c + p.strip_gap  # score strip
            name = names[seat]
            said = {"name": name.upper(), "of": of_player(name, ctx.lang).upper()}
            cv.rect(rx, gy, c, gh, fill=tint(hues[seat], 0.88), stroke=INK, stroke_width=0.5)
            _rotated_text(cv, rx + c / 2, gy + gh / 2, words.label("reserve", ctx.lang, **said), angle, 3.6, weight="bold",
                          fill="#555555")
            _rotated_text(cv, rx + c / 2 + (4.5 if left else -4.5), gy + gh / 2,
                          words.label("reserve_note", ctx.lang), angle, 2.2,
                          fill="#777777")
            # score: one slot per point of the game, clearly apart from the reserve
            top = gy + (gh - slots * c) / 2
            for k in range(slots):
                y = top + k * c
                cv.rect(sx, y, c, c, fill="#ffffff", stroke=INK, stroke_width=0.5)
                num = k + 1 if left else slots - k  # numbered from the player's left
                _rotated_text(cv, sx + c / 2, y + c / 2, str(num), angle, 6.0, weight="bold", fill="#d9d9d9")
            label_y = top / 2 + gy / 2 if left else top + slots * c + (gy + gh - top - slots * c) / 2
            up = 1.9 if left else -1.9  # towards the top of the text as its player reads it
            room = (gh - slots * c) / 2 - 1.0  # the strip's length beside the slots, less a margin
            first, second = words.label("score_first", ctx.lang, **said), words.label("score_second", ctx.lang, **said)
            big = min(fitted(first, 2.8, room, bold=True), fitted(second, 2.8, room, bold=True))
            _rotated_text(cv, sx + c / 2 + up, label_y, first, angle, big, weight="bold", fill=INK)
            _rotated_text(cv, sx + c / 2 - up, label_y, second, angle, big, weight="bold", fill=INK)
            other_y = top + slots * c + (gy + gh - top - slots * c) / 2 if left else top / 2 + gy / 2
            per_point = words.label("per_point", ctx.lang)
            _rotated_text(cv, sx + c / 2, other_y, per_point, angle, fitted(per_point, 2.4, room), fill="#555555")
        base = gy + gh + 6.0
        cv.text(gx, base, "ISHI-HAMA", size=4.4, weight="bold", fill=INK)
        cv.text(gx + gw, base, words.label("footer", ctx.lang, columns=p.columns, rows=p.rows, cell=f"{c:g}"),
                size=2.4, anchor="end", fill="#444444")

    return [ctx.face("board", w, h, draw, data={
        "columns": p.columns, "rows": p.rows, "cell_mm": c, "score_slots": slots,
        "seats": [col.name for col in colours[:2]] or names,
    })]
