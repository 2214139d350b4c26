"""Draws TUBO for the rulebook: the board (zones, Start, coordinates), the Objective and the
pieces as printed (the stocks' colours, lines by pnp.render.pathtiles), at any scale.

The marks (frames, arrows, crosses, numbers) come from pnp.rulebook.figures; what a
diagram shows comes from pnp.games.tubo.scripts.
"""

from __future__ import annotations

from collections.abc import Callable

from pnp.games.tubo.components import INK
from pnp.games.tubo.engine import CLOSE, CONNECTORS, TuboGame, find_component
from pnp.games.tubo.geometry import DELTA
from pnp.games.tubo.scripts import Laid, Play
from pnp.model import Design
from pnp.render.colour import tint
from pnp.render.pathtiles import Hub, Link, PathStyle, Spoke, Stub, draw_tile, square
from pnp.render.svg import Canvas
from pnp.rulebook.figures import BAD, HIGHLIGHT, arrow, badge, cross


class Painter:
    """The board at `unit` mm per cell, coordinates in a margin; pieces as printed."""

    def __init__(self, design: Design, unit: float = 10.0, margin: float = 9.0, cols=None, rows=None):
        self.design = design
        self.game = TuboGame(design, 2)
        self.board = self.game.board
        _, comp = find_component(design, "tubo.board", "board")
        self.params = comp.params
        self.unit, self.margin = unit, margin
        self.cols = cols if cols is not None else range(self.board.width)
        self.rows = rows if rows is not None else range(self.board.height)
        self.width = len(self.cols) * unit + 2 * margin
        self.height = len(self.rows) * unit + 2 * margin
        self.pw = self.params.path_width * unit / self.params.cell

    def xy(self, cell) -> tuple[float, float]:
        """Top-left corner of a cell, in mm on the canvas."""
        return (self.margin + list(self.cols).index(cell[0]) * self.unit,
                self.margin + list(self.rows).index(cell[1]) * self.unit)

    def centre(self, cell) -> tuple[float, float]:
        x, y = self.xy(cell)
        return x + self.unit / 2, y + self.unit / 2

    def port(self, cell, side: int, out: float = 0.0) -> tuple[float, float]:
        """Midpoint of a cell's side, `out` mm beyond it."""
        cx, cy = self.centre(cell)
        dx, dy = DELTA[side]
        return cx + dx * (self.unit / 2 + out), cy + dy * (self.unit / 2 + out)

    def ground(self, c: Canvas, objective=None, coords: bool = True) -> None:
        u, b = self.unit, self.board
        fills = {name: z.fill for name, z in self.params.zones.items()}
        for y in self.rows:
            for x in self.cols:
                zone = b.zone_of((x, y))
                px, py = self.xy((x, y))
                c.rect(px, py, u, u, fill=fills.get(zone, "#ffffff") if zone else "#ffffff")
        x0, y0 = self.margin, self.margin
        w, h = len(self.cols) * u, len(self.rows) * u
        for i in range(len(self.cols) + 1):
            c.line((x0 + i * u, y0), (x0 + i * u, y0 + h), stroke="#8a8a8a", stroke_width=0.2)
        for j in range(len(self.rows) + 1):
            c.line((x0, y0 + j * u), (x0 + w, y0 + j * u), stroke="#8a8a8a", stroke_width=0.2)
        c.rect(x0, y0, w, h, stroke=INK, stroke_width=0.45)
        if b.start[0] in self.cols and b.start[1] in self.rows:
            style = PathStyle(width=self.pw, colour="#ffffff", outline=INK, outline_width=0.35)
            draw_tile(c, square(u), [Spoke(s) for s in b.branches] + [Hub(self.pw * 0.95)], style,
                      origin=self.xy(b.start), extend=0)
        if objective is not None:
            self.objective(c, objective)
        if coords:
            size = min(3.2, self.margin * 0.4)
            for x in self.cols:
                cx = self.xy((x, self.rows[0]))[0] + u / 2
                label = chr(ord("A") + x)
                c.text(cx, size * 1.1, label, size=size, anchor="middle", weight="bold", fill="#555555")
                c.text(cx, y0 + h + self.margin - size * 0.4, label, size=size, anchor="middle", weight="bold",
                       fill="#555555")
            for y in self.rows:
                cy = self.xy((self.cols[0], y))[1] + u / 2 + size * 0.36
                c.text(size * 0.8, cy, str(y + 1), size=size, anchor="middle", weight="bold", fill="#555555")
                c.text(x0 + w + self.margin - size * 0.8, cy, str(y + 1), size=size, anchor="middle",
                       weight="bold", fill="#555555")

    def objective(self, c: Canvas, cell) -> None:
        u = self.unit
        x, y = self.xy(cell)
        c.rect(x, y, u, u, fill="#fff4cc")
        style = PathStyle(width=self.pw, colour="#ffffff", outline=INK, outline_width=0.35)
        draw_tile(c, square(u), [Stub(k, reach=0.5, cap="none") for k in range(4)], style, origin=(x, y), extend=0)
        for r, fill in ((0.30, INK), (0.24, "#ffffff"), (0.18, INK), (0.12, "#ffffff"), (0.06, "#D55E00")):
            c.circle((x + u / 2, y + u / 2), u * r, fill=fill)

    def piece_face(self, c: Canvas, x: float, y: float, piece: int, colour: str, opening: int = 2,
                   unit: float | None = None) -> None:
        """A path piece as printed, its top-left corner at (x, y): a connector, or a Close piece."""
        u = self.unit if unit is None else unit
        c.rect(x, y, u, u, fill=tint(colour, 0.82), stroke="#777777", stroke_width=0.15)
        style = PathStyle(width=self.pw, colour=colour, outline=INK, outline_width=0.3)
        conns = [Stub(opening, reach=0.92, cap="bar")] if piece == CLOSE else [Link(*CONNECTORS[piece])]
        draw_tile(c, square(u), conns, style, origin=(x, y), extend=0)

    def piece(self, c: Canvas, cell, piece: int, colour: str, opening: int = 2, lift: float = 0.0) -> None:
        u = self.unit
        x, y = self.xy(cell)
        x, y = x - lift, y - lift
        if lift:
            c.rect(x + lift + 0.3, y + lift + 0.3, u, u, fill="#000000", opacity="0.25")
        self.piece_face(c, x, y, piece, colour, opening)

    def pieces(self, c: Canvas, laid: list[Laid], numbers: bool = False) -> None:
        """The laid pieces in order (a piece laid over another lifted, with a shadow); `numbers`: their step."""
        seen: set = set()
        for p in laid:
            covering = p.cell in seen
            self.piece(c, p.cell, p.piece, p.colour, p.opening, lift=self.unit * 0.07 if covering else 0.0)
            seen.add(p.cell)
        if numbers:
            for p in laid:
                x, y = self.xy(p.cell)
                r = self.unit * 0.13
                badge(c, x + r + 0.5, y + r + 0.5, r, str(p.step))

    def frame(self, c: Canvas, cell, colour: str = HIGHLIGHT, width: float = 0.8) -> None:
        x, y = self.xy(cell)
        c.rect(x + width / 2, y + width / 2, self.unit - width, self.unit - width, stroke=colour,
               stroke_width=width)

    def arrow(self, c: Canvas, a, b, colour: str = HIGHLIGHT, width: float = 0.7, head: float = 1.8) -> None:
        arrow(c, a, b, colour, width, head, spread=0.55)

    def cross(self, c: Canvas, x: float, y: float, r: float, colour: str = BAD) -> None:
        cross(c, x, y, r, colour, width=0.8)

    def loop_mark(self, c: Canvas, cell, side: int) -> None:
        """∞ on a cell's side: the path runs into itself there (an infinite loop)."""
        x, y = self.port(cell, side)
        r = self.unit * 0.16
        badge(c, x, y, r, "∞", HIGHLIGHT, line=0.6, rise=0.55, size=1.7)


def play_svg(design: Design, pl: Play, numbers: bool = False, unit: float = 10.0,
             extra: Callable[[Painter, Canvas], None] | None = None) -> str:
    """A played script: the board, the Objective, every piece laid, and the Close pieces used as a way out."""
    p = Painter(design, unit)
    c = Canvas(p.width, p.height)
    p.ground(c, objective=pl.game.board.cell(pl.state.objective))
    p.pieces(c, pl.laid, numbers=numbers)
    for ev in pl.events:  # a Close piece used as a way out: its chosen side
        if ev["kind"] == "open" and ev["cell"] != pl.game.board.start:
            p.arrow(c, p.centre(ev["cell"]), p.port(ev["cell"], ev["side"], out=p.unit * 0.1), HIGHLIGHT, 0.7, 1.8)
    if extra:
        extra(p, c)
    return c.to_string()
