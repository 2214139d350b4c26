"""Draws Ishi-Hama for the rulebook: a window of the board, the tiles exactly as printed (the tile
generator's own `draw_tile_face`), a tile's ghost where it arrives, strips of the board.

The marks (frames, arrows, ticks, crosses, numbered badges) come from pnp.rulebook.figures;
what a diagram shows comes from pnp.games.ishi_hama.scripts.
"""

from __future__ import annotations

import math

from pnp.games.ishi_hama.components import INK, TILES_GENERATOR, draw_tile_face, tile_colours
from pnp.games.ishi_hama.engine import IshiHamaGame, find_component
from pnp.model import Design
from pnp.render.colour import tint
from pnp.render.pathtiles import Hub, PathStyle, Spoke, draw_tile, square
from pnp.render.svg import Canvas
from pnp.rulebook import figures
from pnp.rulebook.figures import HIGHLIGHT, badge, cross, tick

GROUND = "#f4f1e8"  # the board's grid colour

__all__ = ["GROUND", "HIGHLIGHT", "Painter", "arrow", "cross", "strip", "tick", "turn_arrow"]


class Painter:
    """A window of the board (columns x0..x1, rows y0..y1) at `unit` mm a cell, tiles as printed."""

    def __init__(self, design: Design, cols: range, rows: range, unit: float = 12.0, margin: float = 6.0,
                 coords: bool = True, pad: float = 1.5):
        self.design = design
        _, comp = find_component(design, TILES_GENERATOR, "tile")
        self.tiles = comp.params
        self.specs = {s.name: s for s in tile_colours(design)}
        self.cols, self.rows = cols, rows
        self.unit, self.margin, self.coords = unit, margin, coords
        self.pw = self.tiles.path_width * unit / self.tiles.cell
        self.width = len(cols) * unit + margin + pad  # coordinates on the top and left only
        self.height = len(rows) * unit + margin + pad

    def xy(self, game: IshiHamaGame, cell: int) -> tuple[float, float]:
        x, y = game.grid.cell(cell)
        return self.margin + (x - self.cols.start) * self.unit, self.margin + (y - self.rows.start) * self.unit

    def centre(self, game, cell) -> tuple[float, float]:
        x, y = self.xy(game, cell)
        return x + self.unit / 2, y + self.unit / 2

    def inside(self, game, cell) -> bool:
        x, y = game.grid.cell(cell)
        return x in self.cols and y in self.rows

    def ground(self, c: Canvas, game: IshiHamaGame, ox: float = 0.0, oy: float = 0.0) -> None:
        u, m = self.unit, self.margin
        w, h = len(self.cols) * u, len(self.rows) * u
        c.rect(ox + m, oy + m, w, h, fill=GROUND)
        for i in range(len(self.cols) + 1):
            c.line((ox + m + i * u, oy + m), (ox + m + i * u, oy + m + h), stroke="#8a8a8a", stroke_width=0.2)
        for j in range(len(self.rows) + 1):
            c.line((ox + m, oy + m + j * u), (ox + m + w, oy + m + j * u), stroke="#8a8a8a", stroke_width=0.2)
        # the board's edges are drawn dark, the cut of the window light
        g = game.grid
        edges = [(self.rows.start == 0, (0, 0), (w, 0)), (self.rows.stop == g.rows, (0, h), (w, h)),
                 (self.cols.start == 0, (0, 0), (0, h)), (self.cols.stop == g.columns, (w, 0), (w, h))]
        for dark, a, b in edges:
            c.line((ox + m + a[0], oy + m + a[1]), (ox + m + b[0], oy + m + b[1]), stroke=INK if dark else "#8a8a8a",
                   stroke_width=0.6 if dark else 0.2)
        if self.coords:
            size = min(3.0, m * 0.5)
            for x in self.cols:
                c.text(ox + m + (x - self.cols.start + 0.5) * u, oy + m - size * 0.5, chr(ord("A") + x), size=size,
                       anchor="middle", weight="bold", fill="#555555")
            for y in self.rows:
                c.text(ox + m - size * 0.75, oy + m + (y - self.rows.start + 0.5) * u + size * 0.36, str(y + 1),
                       size=size, anchor="middle", weight="bold", fill="#555555")

    def tile(self, c: Canvas, game: IshiHamaGame, kind: int, mask: int, origin: tuple[float, float]) -> None:
        spec = self.specs[game.kinds[kind].colour_name]
        draw_tile_face(c, self.unit, mask, spec, self.pw, origin=origin)
        c.rect(origin[0], origin[1], self.unit, self.unit, stroke="#6a6a6a", stroke_width=0.2)

    def ghost(self, c: Canvas, game: IshiHamaGame, kind: int, mask: int, cell: int) -> None:
        """A tile shown faded (no transparency: pale colours), where the played tile arrives."""
        x, y = self.xy(game, cell)
        colour = self.specs[game.kinds[kind].colour_name].colour
        c.rect(x, y, self.unit, self.unit, fill=tint(colour, 0.93))
        style = PathStyle(width=self.pw, colour=tint(colour, 0.55), outline="#b5b5b5", outline_width=0.35)
        draw_tile(c, square(self.unit), [Spoke(s) for s in range(4) if mask >> s & 1] + [Hub(self.pw * 0.72)],
                  style, origin=(x, y), extend=0)
        self.frame(c, game, cell, HIGHLIGHT, 0.45, dash=True)

    def tiles_of(self, c: Canvas, state, skip=()) -> None:
        g = state.game
        for cell in range(g.N):
            if state.kind[cell] >= 0 and self.inside(g, cell) and cell not in skip:
                self.tile(c, g, state.kind[cell], state.mask[cell], self.xy(g, cell))

    def frame(self, c: Canvas, game, cell, colour: str = HIGHLIGHT, width: float = 0.8, dash: bool = False) -> None:
        x, y = self.xy(game, cell)
        extra = {"stroke_dasharray": "1.2 0.8"} if dash else {}
        c.rect(x + width / 2, y + width / 2, self.unit - width, self.unit - width, stroke=colour,
               stroke_width=width, **extra)  # type: ignore[arg-type]

    def badge(self, c: Canvas, x: float, y: float, text: str, colour: str = HIGHLIGHT) -> None:
        badge(c, x, y, self.unit * 0.15, text, colour, line=0.45)


def arrow(c: Canvas, a, b, colour: str = HIGHLIGHT, width: float = 0.7, head: float = 2.0,
          both: bool = False) -> None:
    """An arrow with a white halo, so it reads over the tiles' paths."""
    figures.arrow(c, a, b, colour, width, head, spread=0.5, both=both, halo=True)


def turn_arrow(c: Canvas, cx: float, cy: float, r: float, colour: str = HIGHLIGHT, width: float = 0.7) -> None:
    """A clockwise arc around (cx, cy) ending in an arrow head: "turn this tile"."""
    a0, a1 = math.radians(-150), math.radians(60)
    p0 = (cx + r * math.cos(a0), cy + r * math.sin(a0))
    p1 = (cx + r * math.cos(a1), cy + r * math.sin(a1))
    d = f"M {p0[0]:.3f} {p0[1]:.3f} A {r:.3f} {r:.3f} 0 1 1 {p1[0]:.3f} {p1[1]:.3f}"
    c.path(d, stroke="#ffffff", stroke_width=width + 0.9)
    c.path(d, stroke=colour, stroke_width=width)
    tx, ty = -math.sin(a1), math.cos(a1)  # clockwise tangent (y down)
    h = 1.8
    c.polygon([(p1[0] + tx * h, p1[1] + ty * h), (p1[0] - ty * h * 0.5, p1[1] + tx * h * 0.5),
               (p1[0] + ty * h * 0.5, p1[1] - tx * h * 0.5)], fill=colour)


def strip(c: Canvas, p: Painter, game, x: float, y: float, tiles: list[tuple[int, int]], label: str,
           fill: str) -> None:
    """A strip of the board (reserve or score) holding `tiles` (kind, mask), labelled above."""
    u = p.unit
    n = max(1, len(tiles))
    c.rect(x, y, n * u + 2, u + 2, fill=fill, stroke=INK, stroke_width=0.4)
    for i, (k, m) in enumerate(tiles):
        p.tile(c, game, k, m, (x + 1 + i * u, y + 1))
    c.text(x, y - 1.2, label, size=3.0, weight="bold", fill=INK)
