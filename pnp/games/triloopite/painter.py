"""Draws TriLOOPite for the rulebook: layouts with the design's printed tiles (components.draw_tile_face:
tints, marks, the design's line colour) at any size; the loops a diagram is about redrawn over
them in the colours and dash patterns of `pnp loops` (picture.py), so they read in black and
white too; rings, numbers and the ringed tick and cross of the placement diagram.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pnp.games.triloopite.components import TilesParams, VarietySpec, design_varieties, draw_tile_face, tile_shape
from pnp.games.triloopite.engine import TILES_GENERATOR
from pnp.games.triloopite.geometry import SQRT3, Analysis, Hex, Line, centre, norm_line, rotate_lines
from pnp.games.triloopite.picture import INK, LOOP_COLOURS, LOOP_DASHES
from pnp.model import Design
from pnp.render.pathtiles import Link, PathStyle, draw_tile, path_d
from pnp.render.svg import Canvas
from pnp.rulebook.figures import BAD, GOOD, HIGHLIGHT, badge

LOOPS = (0, 2, 3, 4, 6, 7, 1, 5)  # picture.py's palette, the orange-like ones last: blue, green, pink...


class Painter:
    """Draws layouts (cell -> lines) with the design's printed tiles at `side` mm."""

    def __init__(self, design: Design, side: float = 7.0, margin: float = 2.5):
        pairs = design_varieties(design, TILES_GENERATOR)
        if not pairs:
            raise ValueError("the design has no triloopite.tiles component")
        cid = pairs[0][0]
        raw = design.components[cid].params
        params = raw if isinstance(raw, TilesParams) else TilesParams.model_validate(raw)
        self.params = params.model_copy(update={"side": side, "path_width": params.path_width * side / params.side})
        self.specs = [spec for _, spec in pairs]
        self.start = next((s for s in self.specs if s.start and s.count > 0), None)
        self.bag = [s for s in self.specs if not s.start and s.count > 0]
        self.side, self.margin = side, margin
        self.shape = tile_shape(side)
        self.h = SQRT3 * side
        self.box = (0.0, 0.0)  # the canvas position of the cell (0, 0)'s box, set by fit()

    def spec_for(self, cell: Hex, lines: Sequence[Line], start: Hex | None = (0, 0)) -> tuple[VarietySpec, int]:
        """The variety printed on this tile and its rotation (the start tile at `start`)."""
        pool = [self.start] if cell == start and self.start is not None else self.bag
        for spec in pool:
            k = spec.variety().fits(lines)
            if k is not None:
                return spec, k
        raise ValueError(f"no tile of the design has the lines {list(lines)}")

    def fit(self, cells: Sequence[Hex], extra: float = 0.0) -> tuple[float, float]:
        """Place the cells on a canvas; returns its (width, height)."""
        cs = [centre(c, self.side) for c in cells] or [(0.0, 0.0)]
        x0 = min(x for x, _ in cs) - self.side - self.margin - extra
        y0 = min(y for _, y in cs) - self.h / 2 - self.margin - extra
        self.box = (-x0, -y0)
        return (max(x for x, _ in cs) - min(x for x, _ in cs) + 2 * self.side + 2 * (self.margin + extra),
                max(y for _, y in cs) - min(y for _, y in cs) + self.h + 2 * (self.margin + extra))

    def origin(self, cell: Hex) -> tuple[float, float]:
        cx, cy = self.centre(cell)
        return cx - self.side, cy - self.h / 2

    def centre(self, cell: Hex) -> tuple[float, float]:
        cx, cy = centre(cell, self.side)
        return cx + self.box[0], cy + self.box[1]

    def corners(self, cell: Hex, shrink: float = 1.0) -> list[tuple[float, float]]:
        ox, oy = self.origin(cell)
        cx, cy = self.shape.centre
        return [(cx + (x - cx) * shrink + ox, cy + (y - cy) * shrink + oy) for x, y in self.shape.vertices]

    def tile(self, c: Canvas, cell: Hex, lines: Sequence[Line], owner: Mapping[Line, int] | None = None,
             start: Hex | None = (0, 0), marks: bool = True) -> None:
        """One tile as printed; lines owned by a loop redrawn in that loop's colour (over/under kept)."""
        spec, k = self.spec_for(cell, lines, start)
        turned = spec.model_copy(update={"lines": list(rotate_lines(spec.lines, k))})
        o = self.origin(cell)
        draw_tile_face(c, self.params, turned, origin=o, marks=marks)
        owner = owner or {}
        if any(norm_line(ln) in owner for ln in turned.lines):
            for i, ln in enumerate(turned.lines):
                style = self.line_style(owner.get(norm_line(ln)))
                draw_tile(c, self.shape, [Link(ln[0], ln[1], layer=i)], style, origin=o, extend=0)
                n = owner.get(norm_line(ln))
                dash = LOOP_DASHES[LOOPS[n % len(LOOPS)]] if n is not None else ""
                if dash:
                    c.path(path_d(self.shape, Link(ln[0], ln[1]), o), stroke="#ffffff",
                           stroke_width=self.params.path_width * 0.35, stroke_linecap="butt",
                           stroke_dasharray=scale_dash(dash, self.side / 7.0))
        c.polygon(self.corners(cell), fill="none", stroke="#8a8a8a", stroke_width=0.2)

    def line_style(self, loop: int | None) -> PathStyle:
        p = self.params
        colour = p.line_colour if loop is None else LOOP_COLOURS[LOOPS[loop % len(LOOPS)]]
        return PathStyle(width=p.path_width, colour=colour, outline=INK, outline_width=0.55 * self.side / 20)

    def ring(self, c: Canvas, cell: Hex, colour: str = HIGHLIGHT, width: float = 0.7) -> None:
        c.polygon(self.corners(cell, 0.93), fill="none", stroke=colour, stroke_width=width)

    def number(self, c: Canvas, cell: Hex, text: str, at: tuple[float, float] | None = None,
               size: float = 0.2) -> None:
        x, y = at or self.centre(cell)
        badge(c, x, y, self.side * size, text, INK, line=0.2, rise=0.42, size=1.15 if len(text) < 2 else 0.95)

    def port_point(self, cell: Hex, port: int) -> tuple[float, float]:
        ox, oy = self.origin(cell)
        x, y = self.shape.port(port)
        return ox + x, oy + y

    def layout(self, c: Canvas, layout: Mapping[Hex, Sequence[Line]], analysis: Analysis | None = None,
               loops: Sequence[int] = (), start: Hex | None = (0, 0), marks: bool = True) -> None:
        """Every tile; the lines of `loops` (indexes into analysis.loops) coloured as loops 0, 1, 2..."""
        owner: dict[Hex, dict[Line, int]] = {}
        if analysis is not None:
            for n, k in enumerate(loops):
                for cell, i in analysis.loops[k].visits:
                    owner.setdefault(cell, {})[norm_line(layout[cell][i])] = n
        for cell in sorted(layout, key=lambda h: (h[1] + h[0] / 2, h[0])):
            self.tile(c, cell, layout[cell], owner.get(cell), start, marks)


def scale_dash(dash: str, k: float) -> str:
    return ",".join(f"{float(x) * k:.2f}" for x in dash.split(","))


def ringed_tick(c: Canvas, x: float, y: float, r: float) -> None:
    c.circle((x, y), r, fill="#ffffff", stroke=GOOD, stroke_width=0.5)
    c.polyline([(x - r * 0.5, y), (x - r * 0.1, y + r * 0.45), (x + r * 0.55, y - r * 0.45)], stroke=GOOD,
               stroke_width=0.6)


def ringed_cross(c: Canvas, x: float, y: float, r: float) -> None:
    c.circle((x, y), r, fill="#ffffff", stroke=BAD, stroke_width=0.5)
    for s in (-1, 1):
        c.line((x - r * 0.45, y - s * r * 0.45), (x + r * 0.45, y + s * r * 0.45), stroke=BAD, stroke_width=0.6)
