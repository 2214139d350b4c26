"""TriLOOPite component generators: the hexagonal tiles and the player aid.

The tiles' lines are data (port pairs per variety in the design) drawn by the core
path-tile renderer (pnp.render.pathtiles): every line leaves an edge exactly at its
midpoint, perpendicular to it, so a line continues seamlessly on the neighbouring tile;
later lines are drawn over earlier ones (the crossing tiles' over/under). Readable in
black and white: light tiles, lines with a dark outline, a small mark per variety in a
blank corner, and the start tile ringed with a bold border and a star.

The aid card prints both scoring tables, the four bonuses and the hand penalty from the
design's `rules:` (never from constants here), one face per rulebook language.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field, field_validator

from pnp.games.triloopite.geometry import Variety, norm_line
from pnp.games.triloopite.scoring import BONUS_TEXT, read_rules
from pnp.model import Design, text_in
from pnp.params import MAX_ITEMS, Colour, Count, Length, Params as _Params
from pnp.registry import FaceSpec, GeneratorContext, generator
from pnp.render.pathtiles import Arc, Link, PathStyle, TileShape, draw_tile, geometry, hexagon
from pnp.render.svg import Canvas
from pnp.rulebook import glossary
from pnp.rulebook.words import each

INK = "#1a1a1a"


class VarietySpec(_Params):
    id: str = Field(description="Short id, e.g. crab or t3 (names the face files)")
    name: str | dict[str, str] = Field("", description="Display name, plain or {en: ..., fr: ...}")
    lines: list[tuple[int, int]] = Field(max_length=MAX_ITEMS,
        description="Port pairs at rotation 0 (0 top, clockwise to 5 upper-left); later lines pass over earlier")
    count: Count = Field(1, description="Tiles of this variety in the box")
    start: bool = Field(False, description="The start tile (placed first, in the middle of the table)")
    family: Literal["crab", "trilobite"] = Field("crab", description="Crab or trilobite (decides the tint)")
    mark: str = Field("", description="A short label printed in a blank corner, e.g. T3")

    @field_validator("lines")
    @classmethod
    def _ports(cls, value: list[tuple[int, int]]) -> list[tuple[int, int]]:
        for a, b in value:
            if not (0 <= a <= 5 and 0 <= b <= 5) or a == b:
                raise ValueError(f"line [{a}, {b}]: expected two different ports 0..5 (the edge midpoints)")
        return value

    def variety(self) -> Variety:
        nm = self.name if isinstance(self.name, str) else (self.name.get("en") or next(iter(self.name.values()), ""))
        return Variety(self.id, tuple(norm_line(ln) for ln in self.lines), self.count, self.start, nm or self.id)


class TilesParams(_Params):
    side: Length = Field(20.0, gt=0, description="Side of a hexagon (flat-top: width 2 x side)")
    path_width: Length = Field(4.2, gt=0, description="Width of the printed lines")
    line_colour: Colour = Field("#E69F00", description="Colour of the lines (dark outline kept for B&W print)")
    crab_tint: Colour = Field("#fdf3e1", description="Background of crab tiles")
    trilobite_tint: Colour = Field("#e6eef7", description="Background of trilobite tiles")
    start_tint: Colour = Field("#fff7b8", description="Background of the start tile")
    varieties: list[VarietySpec] = Field(min_length=1, max_length=MAX_ITEMS,
                                         description="Tile varieties, with their lines and counts")


def tile_shape(side: float) -> TileShape:
    return hexagon(side, "flat")


def design_varieties(design: Design, generator_name: str = "triloopite.tiles") -> list[tuple[str, VarietySpec]]:
    """(component id, spec) of every tile variety of every tiles component, in print order."""
    out = []
    for cid, comp in design.components.items():
        if comp.generate == generator_name:
            params = comp.params if isinstance(comp.params, TilesParams) else TilesParams.model_validate(comp.params)
            out += [(cid, v) for v in params.varieties]
    return out


def _mark_spot(shape: TileShape, lines, width: float) -> tuple[float, float]:
    """A point in a blank part of the tile, as far as possible from every line (for the variety mark)."""
    pts = []
    for a, b in lines:
        g = geometry(shape, Link(a, b))
        if isinstance(g, Arc):
            pts += [g.point_at(t / 16) for t in range(17)]
        else:
            pts += [(g.start[0] + (g.end[0] - g.start[0]) * t / 16, g.start[1] + (g.end[1] - g.start[1]) * t / 16)  # type: ignore[union-attr]
                    for t in range(17)]
    cx, cy = shape.centre
    best, spot = -1.0, (cx, cy)
    for k in range(12):  # towards each edge midpoint and each corner
        ang = -math.pi / 2 + k * math.pi / 6
        for f in (0.45, 0.55):
            x, y = cx + math.cos(ang) * shape.side * f, cy + math.sin(ang) * shape.side * f
            d = min((math.dist((x, y), p) for p in pts), default=99.0)
            if d > best + 1e-9:
                best, spot = d, (x, y)
    return spot


def draw_mark(c: Canvas, kind: str, x: float, y: float, r: float, text: str = "") -> None:
    """The variety marks: a crab, a trilobite, or the start star; readable without colour."""
    if kind == "start":
        pts = []
        for k in range(10):
            rad = r * 1.25 if k % 2 == 0 else r * 0.55
            ang = -math.pi / 2 + k * math.pi / 5
            pts.append((x + rad * math.cos(ang), y + rad * math.sin(ang)))
        c.polygon(pts, fill=INK)
        return
    if kind == "crab":  # a body and two claws
        c.circle((x, y + r * 0.15), r * 0.55, fill="#ffffff", stroke=INK, stroke_width=0.35)
        for s in (-1, 1):
            c.circle((x + s * r * 0.75, y - r * 0.55), r * 0.28, fill=INK)
            c.line((x + s * r * 0.45, y - r * 0.05), (x + s * r * 0.7, y - r * 0.45), stroke=INK, stroke_width=0.35)
        return
    # trilobite: a segmented oval, its label beside it
    c.polygon([(x, y - r), (x + r * 0.6, y - r * 0.4), (x + r * 0.5, y + r * 0.7), (x, y + r),
               (x - r * 0.5, y + r * 0.7), (x - r * 0.6, y - r * 0.4)], fill="#ffffff", stroke=INK,
              stroke_width=0.35)
    for t in (-0.25, 0.15, 0.5):
        c.line((x - r * 0.45, y + r * t), (x + r * 0.45, y + r * t), stroke=INK, stroke_width=0.25)
    c.line((x, y - r * 0.6), (x, y + r * 0.85), stroke=INK, stroke_width=0.25)
    if text:
        c.text(x, y + r * 2.1, text, size=r * 1.1, anchor="middle", weight="bold", fill=INK)


def draw_tile_face(c: Canvas, p: TilesParams, spec: VarietySpec, origin: tuple[float, float] = (0.0, 0.0),
                   style: PathStyle | None = None, marks: bool = True) -> None:
    """One tile at `origin` (top-left of its box): background, lines (bottom first), mark."""
    shape = tile_shape(p.side)
    ox, oy = origin
    corners = [(x + ox, y + oy) for x, y in shape.vertices]
    tint = p.start_tint if spec.start else (p.crab_tint if spec.family == "crab" else p.trilobite_tint)
    c.polygon(corners, fill=tint)
    if spec.start:  # a bold inner ring: the distinct marking of the start tile
        cx, cy = shape.centre
        inner = [(cx + (x - cx) * 0.9 + ox, cy + (y - cy) * 0.9 + oy) for x, y in shape.vertices]
        c.polygon(inner, fill="none", stroke=INK, stroke_width=0.9, stroke_dasharray="2.2,1.2")
    style = style or PathStyle(width=p.path_width, colour=p.line_colour, outline=INK, outline_width=0.55)
    conns = [Link(a, b, layer=i) for i, (a, b) in enumerate(spec.lines)]
    draw_tile(c, shape, conns, style, origin=origin, extend=0)
    if marks:
        x, y = _mark_spot(shape, spec.lines, p.path_width)
        kind = "start" if spec.start else spec.family
        draw_mark(c, kind, x + ox, y + oy, p.side * 0.11, spec.mark if kind == "trilobite" else "")


@generator("triloopite.tiles", params=TilesParams)
def tiles(ctx: GeneratorContext) -> list[FaceSpec]:
    """Hexagonal path tiles, one face per variety (its lines from the design), `count` copies each."""
    p: TilesParams = ctx.params
    shape = tile_shape(p.side)
    faces = []
    for spec in p.varieties:
        def draw(c: Canvas, spec=spec) -> None:
            draw_tile_face(c, p, spec)
        name = ctx.text(spec.name) or spec.id
        faces.append(ctx.face(spec.id, shape.width, shape.height, draw, count=spec.count, shape="hexagon",
                              label=name or spec.id,
                              data={"variety": spec.id, "family": spec.family, "start": spec.start,
                                    "lines": [list(ln) for ln in spec.lines], "mark": spec.mark}))
    return faces


# --- the player aid ------------------------------------------------------------------------

class AidParams(_Params):
    languages: list[Literal["en", "fr"]] = Field(default_factory=list,
                                                  description="One face per language listed (aid-fr, aid-en...); "
                                                              "default: one face, in the language the face is drawn in")


@generator("triloopite.aid", params=AidParams)
def aid(ctx: GeneratorContext) -> list[FaceSpec]:
    """Player aid: both scoring tables, the four bonuses and the hand penalty, read from rules:."""
    rules = read_rules(ctx.design)
    size = ctx.component.size
    w, h = (size.width, size.height) if size else (63.0, 88.0)
    langs = list(ctx.params.languages) or [ctx.lang]
    words = glossary.of_package(__file__)
    faces = []
    for lang in langs:
        t = {k: words.label(k, lang) for k in words.labels if k not in ("bonus", "power", "example", "verdict")}

        def draw(c: Canvas, t=t, lang=lang) -> None:
            b = c.bleed
            c.rect(-b, -b, w + 2 * b, h + 2 * b, fill="#ffffff")
            c.rect(-b, -b, w + 2 * b, 9.5 + b, fill="#fdf3e1")
            m = 4.0
            c.text(w / 2, 6.6, t["title"], size=3.6, anchor="middle", weight="bold", fill=INK)
            y = 13.2
            rh = 3.0  # table row height
            col = (w - 2 * m - 3) / 2
            for i, (table, head) in enumerate(((rules.loop_points, t["loops"]), (rules.longest_loop_points,
                                                                                  t["longest"]))):
                x = m + i * (col + 3)
                c.text(x, y, head, size=2.2, weight="bold", fill=INK)
                yy = y + 1.0
                for k, row in enumerate(table.rows):
                    if k % 2 == 0:
                        c.rect(x, yy, col, rh, fill="#eeeeee")
                    c.text(x + 1.2, yy + 2.25, row.label, size=2.2, fill=INK)
                    c.text(x + col - 1.2, yy + 2.25, str(row.value), size=2.2, anchor="end", weight="bold", fill=INK)
                    yy += rh
                c.rect(x, y + 1.0, col, yy - y - 1.0, stroke=INK, stroke_width=0.25)
            rows = max(len(rules.loop_points.rows), len(rules.longest_loop_points.rows))
            y = y + 1.0 + rows * rh + 4.0
            pts = sorted(set(rules.bonuses.values()))
            c.text(m, y, words.label("bonus", lang, n="/".join(map(str, pts)), each=each("bonus", lang)), size=2.2,
                   weight="bold", fill=INK)
            for k in rules.bonuses:  # type: ignore[assignment]
                y += 2.9
                c.text(m + 1.2, y, f"+{rules.bonuses[k]}  {BONUS_TEXT[k][lang]}", size=2.0, fill=INK)  # type: ignore[index]
            y += 4.0
            pw = rules.hand_penalty_power
            form = t["square"] if pw == 2 else words.label("power", lang, p=pw)
            c.text(m, y, f"{t['penalty']} {form}", size=2.2, weight="bold", fill=INK)
            y += 2.9
            ex = sum(v ** pw for v in (2, 3, 0))
            c.text(m + 1.2, y, words.label("example", lang, v=ex), size=2.0, fill=INK)
            if rules.verdicts.rows:
                y += 4.0
                c.text(m, y, t["first"], size=2.2, weight="bold", fill=INK)
                for row in rules.verdicts.rows:
                    y += 2.8
                    v = row.value.get(lang) or next(iter(row.value.values()), "")
                    c.text(m + 1.2, y, words.label("verdict", lang, range=row.label, text=v), size=2.0, fill=INK)

        key = f"aid-{lang}" if ctx.params.languages else "aid"
        faces.append(ctx.face(key, w, h, draw, count=ctx.component.count, label=ctx.text(ctx.component.name)
                              if not ctx.params.languages else f"{text_in(ctx.component.name, lang)} ({lang})",
                              data={"lang": lang}))
    return faces
