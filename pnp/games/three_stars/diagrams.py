"""3 Stars rulebook diagrams and facts, drawn from the design (triangle and lozenge boards alike).

Diagrams (listed in DIAGRAMS, given to the GameSpec; called from a rules text as `{{ diagram("three_stars.board") }}`):

* `three_stars.board(players=None, labels=False)` — the board, each region tinted, bordered and
  labelled with its player count; with `players`, the regions not used are greyed out.
* `three_stars.board_with_card(card=1, star=1, players=2, colour=0)` — a card, and its pieces
  placed on star number `star` (reading order on the board for `players`).
* `three_stars.example(step=0)` — the worked example (see `example_facts`) after `step` turns.
* `three_stars.blocking()` — the blocking win: two reserved stars leave too few positions.

`rulebook_facts(design, lang)` gives the rules text its `facts`: star positions and cells per
player count, card counts by size, colour names, the worked example and the blocking example.
Every number comes from the design's components through the engine's own geometry.
"""

from __future__ import annotations

import math
from itertools import combinations

from pnp.games.three_stars.components import INK, orientation_mark, star as draw_star
from pnp.games.three_stars.engine import (
    BOARD_GEOMETRIES, PIECE_GENERATOR, design_cards, design_geometry, find_component, read_rules,
)
from pnp.games.three_stars.geometry import triangle_xy, vertex_xy
from pnp.model import Design
from pnp.render.svg import Canvas
from pnp.render.symbols import symbol as draw_symbol

COLOUR_NAMES = {"fr": {"blue": "bleu", "red": "rouge", "yellow": "jaune", "green": "vert", "black": "noir",
                       "white": "blanc", "orange": "orange", "purple": "violet"}}
CELL_NOUNS = {"triangle": {"en": ("triangle", "triangles"), "fr": ("triangle", "triangles")},
              "lozenge": {"en": ("lozenge", "lozenges"), "fr": ("losange", "losanges")}}
GREY = "#d9d9d9"


# --- the board as drawn ------------------------------------------------------------------


class _Board:
    """The design's board for drawing: cell polygons and star centres in lattice units (y up)."""

    def __init__(self, design: Design):
        cid, comp = find_component(design, sorted(BOARD_GEOMETRIES), "board")
        self.kind = "lozenge" if "lozenge" in comp.generate else "triangle"
        self.params = comp.params
        self.geo = design_geometry(design)
        self.counts = tuple(self.geo.player_counts())
        self.max_players = max(self.counts)

    def polygon(self, cell) -> list[tuple[float, float]]:
        if self.kind == "lozenge":
            from pnp.games.three_stars.lozenge import lozenge_xy

            return lozenge_xy(cell)
        return triangle_xy(cell)

    def centre(self, v) -> tuple[float, float]:
        if self.kind == "lozenge":
            from pnp.games.three_stars.lozenge import centre_xy

            return centre_xy(v)
        return vertex_xy(v)

    def region(self, cell) -> tuple[str, int, str]:
        """(name, players, tint) of the region a cell first belongs to."""
        if self.kind == "lozenge":
            name = self.geo.region_of(cell)
        else:
            name = self.geo.board.region_of(cell).name
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


class _Painter:
    """Draws (part of) a board on a Canvas at `unit` mm per lattice unit."""

    def __init__(self, board: _Board, players: int | None, unit: float, margin: float = 4.0,
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
                players = self.b.region(cells[0])[1]
                c.text(x, y + self.unit * 0.18, str(players), size=self.unit * 0.5, anchor="middle", weight="bold",
                       fill="#000000", opacity="0.16")
        for cell in self.shown:
            c.polygon(self.poly(cell), stroke="#777777" if cell in active else "#bbbbbb", stroke_width=0.2)
        self.borders(c)

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
            r = self.unit * 0.17
            c.circle((x, y), r, fill="#ffffff", stroke=INK, stroke_width=0.3)
            c.text(x, y + r * 0.42, str(i), size=r * 1.15, anchor="middle", weight="bold", fill=INK)


def _colours(design: Design) -> list[tuple[str, str, str]]:
    """(name, fill, symbol) of each player colour."""
    found = [c for c in design.components.values() if c.generate == PIECE_GENERATOR]
    if not found:
        return [("blue", "#0072B2", "circle"), ("red", "#D55E00", "square")]
    return [(col.name, col.colour, col.symbol) for col in found[0].params.colours]


def _colour_name(name: str, lang: str) -> str:
    return COLOUR_NAMES.get(lang, {}).get(name, name)


def _unit(painter_width_units: float, target: float) -> float:
    return target / max(painter_width_units, 1e-9)


def _fit(board: _Board, players: int | None, width: float, whole: bool = True) -> _Painter:
    """A painter `width` mm wide, or less when the board is tall (height at most 0.8 x width)."""
    probe = _Painter(board, players, 1.0, margin=0.0, whole=whole)
    unit = min(_unit(probe.width, width - 8), _unit(probe.height, 0.8 * width - 8))
    return _Painter(board, players, unit, whole=whole)


def _card(c: Canvas, x: float, y: float, w: float, positions, number: int, colour: str = "#1a1a1a",
          kind: str = "triangle") -> None:
    """A small placement card (as printed: star, filled positions, orientation mark) with top-left at (x, y)."""
    h = w * 88 / 63
    c.rect(x, y, w, h, fill="#fbf8f0", stroke=INK, stroke_width=0.4, rx=w * 0.05)
    with c.group(transform=f"translate({x:.3f},{y:.3f})"):
        draw_star(c, w / 2, h * 0.45, w * 0.36, set(positions), line=0.35)
        c.text(w * 0.08, w * 0.16, str(number), size=w * 0.12, weight="bold", fill=INK)
        orientation_mark(c, w / 2, h - w * 0.08, w * 0.12)


# --- diagrams ------------------------------------------------------------------------------


def board_diagram(design: Design, lang: str, players: int | None = None, labels: bool = False,
                  size: float = 115) -> str:
    """board(players=None, labels=False): the board's regions; with players, the unused regions grey."""
    b = _Board(design)
    p = _fit(b, players, size)
    c = Canvas(p.width, p.height)
    p.board(c)
    if labels:
        p.labels(c, b.stars(p.players))
    return c.to_string()


def board_with_card(design: Design, lang: str, card: int = 1, star: int = 1, players: int = 2, colour: int = 0,
                    size: float = 125) -> str:
    """board_with_card(card=1, star=1, players=2, colour=0): a card and its pieces placed on star `star`."""
    b = _Board(design)
    cards = {f.number: f.positions for f in design_cards(design)}
    if card not in cards:
        raise ValueError(f"there is no card {card} (cards are 1 to {max(cards)})")
    stars = b.stars(players)
    if not 1 <= star <= len(stars):
        raise ValueError(f"there is no star {star} for {players} players (stars are 1 to {len(stars)})")
    name, fill, symbol = _colours(design)[colour]
    card_w = 26.0
    p = _fit(b, players, size - card_w - 8, whole=False)
    c = Canvas(p.width + card_w + 8, max(p.height, card_w * 88 / 63 + 8))
    p.dx = card_w + 8
    _card(c, 2, 4, card_w, cards[card], card)
    p.board(c)
    v = stars[star - 1]
    cells = b.star_cells(v)
    p.pieces(c, [cells[k] for k in cards[card]], fill, symbol)
    p.star_outline(c, v, INK, 1.2, dash="1.2,0.8")
    p.labels(c, stars, only={star})
    return c.to_string()


def example_diagram(design: Design, lang: str, step: int = 0, size: float = 80) -> str:
    """example(step=0): the worked example's position after `step` turns (0: before the first)."""
    ex = example_facts(design, lang)
    if ex is None:
        raise ValueError("this design's cards cannot play the worked example")
    if not 0 <= step <= len(ex["steps"]):
        raise ValueError(f"no step {step}; the example has steps 0 to {len(ex['steps'])}")
    b = _Board(design)
    p = _fit(b, 2, size, whole=False)
    c = Canvas(p.width, p.height)
    p.board(c, region_numbers=False)
    owners = ex["_positions"][step]
    colours = _colours(design)
    changed = ex["_changed"][step]
    for who in (0, 1):
        mine = [cell for cell, o in owners.items() if o == who]
        p.pieces(c, [x for x in mine if x not in changed], colours[who][1], colours[who][2])
        p.pieces(c, [x for x in mine if x in changed], colours[who][1], colours[who][2], highlight=True)
    stars = b.stars(2)
    if ex["_scored"][step]:
        p.star_outline(c, stars[ex["star"] - 1], colours[0][1], 1.6)
    else:
        p.star_outline(c, stars[ex["star"] - 1], INK, 0.9, dash="1.2,0.8")
    p.labels(c, stars, only={ex["star"]} | ({ex["neighbour"]} if step >= 2 else set()))
    return c.to_string()


def blocking_diagram(design: Design, lang: str, size: float = 95) -> str:
    """blocking(): two reserved stars of the first colour leave the second too few star positions."""
    bl = blocking_facts(design)
    if bl is None:
        raise ValueError("no blocking example exists on this board")
    b = _Board(design)
    players = bl["players"]
    p = _fit(b, players, size, whole=False)
    c = Canvas(p.width, p.height)
    p.board(c, region_numbers=False)
    stars = b.stars(players)
    colours = _colours(design)
    for label in bl["reserved"]:
        p.pieces(c, b.star_cells(stars[label - 1]), colours[0][1], colours[0][2])
        p.star_outline(c, stars[label - 1], colours[0][1], 1.4)
    for label in bl["left"]:
        p.star_outline(c, stars[label - 1], colours[1][1], 1.2, dash="1.5,1")
    p.labels(c, stars, only=set(bl["left"]))
    return c.to_string()


# --- facts for the rules text ------------------------------------------------------------


def blocking_facts(design: Design) -> dict | None:
    """The first set of `stars_to_win - 1` disjoint stars (reading order) that leaves the opponent
    fewer available star positions than `stars_to_win` — as many as possible, like the seed's example."""
    rules = read_rules(design)
    b = _Board(design)
    players = min(b.counts)
    stars = b.stars(players)
    k = rules.stars_to_win - 1
    if k < 1:
        return None
    cells = [frozenset(b.star_cells(v)) for v in stars]
    best = None
    for combo in combinations(range(len(stars)), k):
        taken: set = set()
        if any(taken & cells[i] or taken.update(cells[i]) for i in combo):
            continue
        left = [j for j in range(len(stars)) if j not in combo and not cells[j] & taken]
        if len(left) < rules.stars_to_win and (best is None or len(left) > len(best[1])):
            best = (combo, left)
    if best is None:
        return None
    return {"players": players, "reserved": [i + 1 for i in best[0]], "left": [j + 1 for j in best[1]],
            "count_left": len(best[1]), "needed": rules.stars_to_win}


def example_facts(design: Design, lang: str) -> dict | None:
    """The worked example, 2 players, on a star S with a neighbour star T sharing S's cell 5:

    start: the first colour holds S's cells 0, 1, 2; the second colour holds cells 3 and 4.
    1. first colour: card [3,4,5] fits neither a place (3, 4 taken) nor a steal (5 empty);
       card [3,4] steals cells 3 and 4 on S.
    2. second colour: a one-position card places on T, on the cell S's position 5 shares.
    3. first colour: card [5] steals that cell on S: S is complete, scored and reserved.
    """
    b = _Board(design)
    cards = {f.positions: f.number for f in design_cards(design)}
    stars = b.stars(2)
    need = [(3, 4, 5), (3, 4), (5,)]
    if any(n not in cards for n in need):
        return None
    # S: the star nearest the middle whose cell 5 is also in another star T of the 2-player board
    xs = [b.centre(v) for v in stars]
    mx, my = sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs)
    order = sorted(range(len(stars)), key=lambda i: (math.dist(xs[i], (mx, my)), i))
    for si in order:
        cells = b.star_cells(stars[si])
        for ti, t in enumerate(stars):
            if ti != si and cells[5] in b.star_cells(t):
                j = b.star_cells(t).index(cells[5])
                if (j,) in cards:
                    break
        else:
            continue
        break
    else:
        return None
    S, T = stars[si], stars[ti]
    cells = b.star_cells(S)
    pos0 = {cells[0]: 0, cells[1]: 0, cells[2]: 0, cells[3]: 1, cells[4]: 1}
    pos1 = {**pos0, cells[3]: 0, cells[4]: 0}
    pos2 = {**pos1, cells[5]: 1}
    pos3 = {**pos2, cells[5]: 0}
    colours = _colours(design)
    names = [_colour_name(colours[i][0], lang) for i in (0, 1)]
    return {
        "players": 2, "first": names[0], "second": names[1], "star": si + 1, "neighbour": ti + 1,
        "start": {"first": 3, "second": 2, "empty": 1},  # cells of star S each colour holds before step 1
        "steps": [
            {"player": names[0], "kind": "steal", "card": cards[(3, 4)], "blocked": cards[(3, 4, 5)],
             "star": si + 1, "pieces": 2},
            {"player": names[1], "kind": "place", "card": cards[(j,)], "star": ti + 1, "pieces": 1},
            {"player": names[0], "kind": "steal", "card": cards[(5,)], "star": si + 1, "pieces": 1},
        ],
        "_positions": [pos0, pos1, pos2, pos3],
        "_changed": [set(), {cells[3], cells[4]}, {cells[5]}, {cells[5]}],
        "_scored": [False, False, False, True],
        "_centres": {"star": S, "neighbour": T},
    }


def rulebook_facts(design: Design, lang: str) -> dict:
    """What a 3 Stars rules text reads as `facts` (see the module docstring)."""
    b = _Board(design)
    one, many = CELL_NOUNS[b.kind].get(lang, CELL_NOUNS[b.kind]["en"])
    meta = design.meta
    setups = []
    for n in range(meta.players.min, meta.players.max + 1):
        regions = sorted((name for name, spec in b.params.regions.items() if spec.players <= n),
                         key=lambda r: (b.params.regions[r].players, r))
        setups.append({"players": n, "regions": regions, "stars": len(b.stars(n)), "cells": len(b.cells(n))})
    everything = b.cells(b.max_players)
    per_cell = max(sum(1 for v in b.stars(b.max_players) if cell in b.star_cells(v)) for cell in everything)
    faces = design_cards(design)
    sizes: dict[int, int] = {}
    for f in faces:
        sizes[len(f.positions)] = sizes.get(len(f.positions), 0) + f.count
    colours = [{"key": name, "name": _colour_name(name, lang), "fill": fill, "symbol": symbol}
               for name, fill, symbol in _colours(design)]
    return {
        "board": b.kind, "cell": one, "cells": many, "stars_per_cell": per_cell,
        "setups": setups,
        "regions": [{"name": name, "players": spec.players} for name, spec in
                    sorted(b.params.regions.items(), key=lambda kv: (kv[1].players, kv[0]))],
        "cards": {"total": sum(f.count for f in faces), "distinct": len(faces),
                  "sizes": [{"size": s, "count": sizes[s]} for s in sorted(sizes)],
                  "min": min(sizes), "max": max(sizes), "positions": 6},
        "colours": colours,
        "example": example_facts(design, lang),
        "blocking": blocking_facts(design),
    }


DIAGRAMS = {  # the rulebook diagrams, by the short name a rules text gives after 'three_stars.'
    "board": board_diagram,
    "board_with_card": board_with_card,
    "example": example_diagram,
    "blocking": blocking_diagram,
}
