"""Draws 3 Stars for the rulebook, the triangle and the lozenge board alike: the board's cells and
regions from the engine's own geometry, pieces with the colours' symbols, star outlines,
numbered star positions, a small placement card as printed.
"""

from __future__ import annotations

from pnp.games.three_stars.components import INK, orientation_mark, star as draw_star
from pnp.games.three_stars.engine import (
    BOARD_GEOMETRIES,
    CARD_GENERATOR,
    PIECE_GENERATOR,
    design_geometry,
    find_component,
)
from pnp.games.three_stars.geometry import triangle_xy, vertex_xy
from pnp.games.three_stars.lozenge import centre_xy, lozenge_xy, small_star
from pnp.model import Design
from pnp.render.svg import Canvas
from pnp.render.symbols import symbol as draw_symbol
from pnp.rulebook.figures import badge


class Board:
    """The design's board for drawing: cell polygons and star centres in lattice units (y up)."""

    def __init__(self, design: Design):
        _cid, comp = find_component(design, sorted(BOARD_GEOMETRIES), "board")
        self.kind = "lozenge" if "lozenge" in comp.generate else "circle" if "circle" in comp.generate else "triangle"
        self.params = comp.params
        self.geo = design_geometry(design)
        self.counts = tuple(self.geo.player_counts())
        self.max_players = max(self.counts)

    def polygon(self, cell) -> list[tuple[float, float]]:
        if self.kind == "lozenge":
            return lozenge_xy(cell)
        return triangle_xy(cell)

    def centre(self, v) -> tuple[float, float]:
        if self.kind == "lozenge":
            return centre_xy(v)
        return vertex_xy(v)

    def region(self, cell) -> tuple[str, int, str]:
        """(name, players, tint) of the region a cell first belongs to."""
        if self.kind == "lozenge":
            name = self.geo.region_of(cell)  # type: ignore[attr-defined]
        else:
            name = self.geo.board.region_of(cell).name  # type: ignore[attr-defined]
        spec = self.params.regions[name]
        return name, spec.players, spec.tint

    def cells(self, players: int):
        return self.geo.cells(self._players(players))

    def stars(self, players: int) -> list:
        """Star positions of the active board in reading order: top row first, left to right."""
        pos = self.geo.star_positions(self._players(players))
        return sorted(pos, key=lambda v: (-round(self.centre(v)[1], 6), round(self.centre(v)[0], 6)))

    def star_cells(self, v):
        return self.geo.star_cells(v)

    def _players(self, players: int) -> int:
        usable = [n for n in self.counts if n <= players]
        return max(usable) if usable else min(self.counts)


class Painter:
    """Draws (part of) a board on a Canvas at `unit` mm per lattice unit."""

    def __init__(self, board: Board, players: int | None, unit: float, margin: float = 4.0,
                 whole: bool = True):
        self.b = board
        self.players = players or board.max_players
        self.unit = unit
        shown = board.cells(board.max_players if whole else self.players)
        pts = [p for cell in shown for p in board.polygon(cell)]
        self.xmin, self.xmax = min(x for x, _ in pts), max(x for x, _ in pts)
        self.ymin, self.ymax = min(y for _, y in pts), max(y for _, y in pts)
        self.shown = sorted(shown, key=repr)
        self.margin = margin
        self.width = (self.xmax - self.xmin) * unit + 2 * margin
        self.height = (self.ymax - self.ymin) * unit + 2 * margin
        self.dx, self.dy = 0.0, 0.0

    def mm(self, x: float, y: float) -> tuple[float, float]:
        return (self.dx + self.margin + (x - self.xmin) * self.unit,
                self.dy + self.margin + (self.ymax - y) * self.unit)

    def poly(self, cell, inset: float = 0.0) -> list[tuple[float, float]]:
        pts = self.b.polygon(cell)
        if inset:
            cx, cy = sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)
            pts = [(cx + (x - cx) * (1 - inset), cy + (y - cy) * (1 - inset)) for x, y in pts]
        return [self.mm(x, y) for x, y in pts]

    def board(self, c: Canvas, region_numbers: bool = True) -> None:
        active = self.b.cells(self.players)
        for cell in self.shown:
            _, _, tint = self.b.region(cell)
            c.polygon(self.poly(cell), fill=tint if cell in active else "#f2f2f2")
        if region_numbers:
            groups: dict[str, list] = {}
            for cell in self.shown:
                groups.setdefault(self.b.region(cell)[0], []).append(cell)
            for name, cells in groups.items():
                if len(groups) < 2:
                    break
                pts = [p for cell in cells for p in self.poly(cell)]
                x, y = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
                c.text(x, y + self.unit * 0.18, name, size=self.unit * 0.5, anchor="middle", weight="bold",
                       fill="#000000", opacity="0.16")
        for cell in self.shown:
            c.polygon(self.poly(cell), stroke="#777777" if cell in active else "#bbbbbb", stroke_width=0.2)
        self.borders(c)
        if self.b.kind == "lozenge":  # the small star on each star centre, as the printed board has it
            for v in self.b.geo.star_positions(self.b.max_players):
                off = not all(z in active for z in self.b.star_cells(v))
                c.polygon(small_star(*self.mm(*self.b.centre(v)), self.unit * 0.09),
                          fill="#c4c4c4" if off else "#555555")

    def borders(self, c: Canvas) -> None:
        edges: dict[tuple, list[str]] = {}
        for cell in self.shown:
            pts = self.b.polygon(cell)
            for i in range(len(pts)):
                a, b = pts[i], pts[(i + 1) % len(pts)]
                key = tuple(sorted(((round(a[0], 5), round(a[1], 5)), (round(b[0], 5), round(b[1], 5)))))
                edges.setdefault(key, []).append(self.b.region(cell)[0])
        for (a, b), owners in sorted(edges.items()):
            if len(owners) == 1 or owners[0] != owners[1]:
                c.line(self.mm(*a), self.mm(*b), stroke=INK, stroke_width=0.6, stroke_linecap="round")

    def pieces(self, c: Canvas, cells, colour: str, symbol: str = "none", highlight: bool = False) -> None:
        for cell in sorted(cells, key=repr):
            pts = self.poly(cell, inset=0.16)
            c.polygon(pts, fill=colour, stroke="#ffffff" if not highlight else INK,
                      stroke_width=0.35 if not highlight else 0.7)
            x, y = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
            draw_symbol(c, symbol, x, y, self.unit * 0.075, line=0.25)

    def star_outline(self, c: Canvas, v, colour: str = INK, width: float = 1.0, dash: str | None = None) -> None:
        edges: dict[tuple, int] = {}
        for cell in self.b.star_cells(v):
            pts = self.b.polygon(cell)
            for i in range(len(pts)):
                a, b = pts[i], pts[(i + 1) % len(pts)]
                key = tuple(sorted(((round(a[0], 5), round(a[1], 5)), (round(b[0], 5), round(b[1], 5)))))
                edges[key] = edges.get(key, 0) + 1
        extra = {"stroke_dasharray": dash} if dash else {}
        for (a, b), n in sorted(edges.items()):
            if n == 1:
                c.line(self.mm(*a), self.mm(*b), stroke=colour, stroke_width=width, stroke_linecap="round", **extra)

    def labels(self, c: Canvas, stars: list, only=None) -> None:
        for i, v in enumerate(stars, start=1):
            if only is not None and i not in only:
                continue
            x, y = self.mm(*self.b.centre(v))
            badge(c, x, y, self.unit * 0.17, str(i), INK, line=0.3, rise=0.42, size=1.15)


PAINTERS: dict[str, type[Painter]] = {}
"""Board kind -> its Painter subclass, when it draws its cells its own way (circles.py registers one)."""


def player_colours(design: Design) -> list[tuple[str, str, str]]:
    """(name, fill, symbol) of each player colour."""
    found = [c for c in design.components.values() if c.generate == PIECE_GENERATOR]
    if not found:
        return [("blue", "#0072B2", "circle"), ("red", "#D55E00", "square")]
    return [(col.name, col.colour, col.symbol) for col in found[0].params.colours]


def card_cells(design: Design) -> str:
    """What the design's placement cards draw their star with: "triangle" or "circle" (their `cells`)."""
    _, comp = find_component(design, [CARD_GENERATOR], "placement card")
    return getattr(comp.params, "cells", "triangle")


def _unit(painter_width_units: float, target: float) -> float:
    return target / max(painter_width_units, 1e-9)


def fit(board: Board, players: int | None, width: float, whole: bool = True) -> Painter:
    """A painter `width` mm wide, or less when the board is tall (height at most 0.8 x width)."""
    cls = PAINTERS.get(board.kind, Painter)
    probe = cls(board, players, 1.0, margin=0.0, whole=whole)
    unit = min(_unit(probe.width, width - 8), _unit(probe.height, 0.8 * width - 8))
    return cls(board, players, unit, whole=whole)


def draw_card(c: Canvas, x: float, y: float, w: float, positions, number: int, colour: str = "#1a1a1a",
          kind: str = "triangle") -> None:
    """A small placement card (as printed: star, filled positions, orientation mark) with top-left at (x, y);
    `kind` is the cards' `cells` (triangle or circle)."""
    h = w * 88 / 63
    c.rect(x, y, w, h, fill="#fbf8f0", stroke=INK, stroke_width=0.4, rx=w * 0.05)
    with c.group(transform=f"translate({x:.3f},{y:.3f})"):
        draw_star(c, w / 2, h * 0.45, w * 0.36, set(positions), line=0.35, cells=kind)
        c.text(w * 0.08, w * 0.16, str(number), size=w * 0.12, weight="bold", fill=INK)
        orientation_mark(c, w / 2, h - w * 0.08, w * 0.12)
