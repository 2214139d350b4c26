"""Ishi-Hama rulebook diagrams and facts, drawn from the design and played through the engine.

Every position shown starts from a hand-made position (`IshiHamaGame.position`) or the
initial one and is then played on the rules engine, so a diagram can only show what the
rules allow; the tiles are drawn by the tile generator's own `draw_tile_face` (with
`pnp.render.pathtiles`), exactly as they are printed.

Diagrams (listed in DIAGRAMS, given to the GameSpec; from a rules text: `{{ diagram("ishi_hama.combination") }}`):

* `ishi_hama.phase1()` — phase 1: tiles placed apart; the empty cells where the next tile
  may go (dot) and those it may not (cross, they touch a tile).
* `ishi_hama.combination(stage="before")` — a combination: `before` with numbered arrows
  (turn, move 2 cells, 2 swaps), `after` the result.
* `ishi_hama.connection()` — four pairs of neighbours: connected, or why not.
* `ishi_hama.scoring()` — a group of 5 removed: 4 tiles to the opponent's reserve, 1 to the
  scorer's score strip.
* `ishi_hama.big_group()` — a group of 6: the 5 chosen tiles numbered in the order of
  choice, the one that stays.
* `ishi_hama.example(stage="before")` — the worked example before and after the turn.

`rulebook_facts(design, lang)` gives the rules text its `facts` (see `rulebook_facts`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from pnp.engine import IllegalActionError
from pnp.errors import DesignError
from pnp.games.ishi_hama.components import INK, TILES_GENERATOR, draw_tile_face, tile_colours
from pnp.render.colour import tint
from pnp.games.ishi_hama.engine import ACT, MARKER, PICK, IshiHamaGame, find_component
from pnp.games.ishi_hama.geometry import mask_of, side_of
from pnp.model import Design
from pnp.render.pathtiles import Hub, PathStyle, Spoke, draw_tile, square
from pnp.render.svg import Canvas

HIGHLIGHT = "#C2185B"  # not a tile colour
GOOD, BAD = "#009E73", "#C62828"
GROUND = "#f4f1e8"  # the board's grid colour
WORDS = {
    "en": {"colours": {}, "shapes": {}, "plural": {}, "feminine": {},
           "reserve": "{name}'s reserve", "score": "{name}'s score strip", "stays": "stays",
           "to_reserve": "to the reserve"},
    "fr": {"colours": {"orange": "orange", "blue": "bleu", "green": "vert", "red": "rouge", "yellow": "jaune",
                       "purple": "violet", "black": "noir", "white": "blanc", "grey": "gris", "sky": "ciel"},
           # feminine, as in "une tuile bleue", and feminine plural, as in "les tuiles bleues"
           "feminine": {"orange": "orange", "blue": "bleue", "green": "verte", "red": "rouge", "yellow": "jaune",
                        "purple": "violette", "black": "noire", "white": "blanche", "grey": "grise",
                        "sky": "bleu ciel"},
           "plural": {"orange": "orange", "blue": "bleues", "green": "vertes", "red": "rouges",
                      "yellow": "jaunes", "purple": "violettes", "black": "noires", "white": "blanches",
                      "grey": "grises", "sky": "bleu ciel"},
           "shapes": {"corner": "coude", "straight": "droite", "tee": "T", "cross": "croix", "end": "impasse"},
           "reserve": "réserve de {name}", "score": "score de {name}", "stays": "reste",
           "to_reserve": "vers la réserve"},
}


def _word(kind: str, key: str, lang: str) -> str:
    return WORDS.get(lang, WORDS["en"])[kind].get(key, key)


def _label(kind: str, lang: str, **kw) -> str:
    return WORDS.get(lang, WORDS["en"])[kind].format(**kw)


def _player(name: str, lang: str) -> str:
    """A player, named by the colour they start with: Orange, Bleu."""
    w = _word("colours", name, lang)
    return w[:1].upper() + w[1:]


def _of(name: str, lang: str) -> str:
    """Belonging to that player: "Orange's"; in French "d'Orange", "de Bleu"."""
    who = _player(name, lang)
    if lang == "fr":
        return ("d'" if who[:1].lower() in "aeiouyhéèêàâîôû" else "de ") + who
    return f"{who}'s"


SYMBOLS = {"en": {"circle": "circle", "square": "square", "diamond": "diamond", "ring": "ring", "none": "nothing"},
           "fr": {"circle": "rond", "square": "carré", "diamond": "losange", "ring": "anneau", "none": "rien"}}


# --- playing a script on the engine -------------------------------------------------------


@dataclass
class Played:
    game: IshiHamaGame
    start: object  # the state before the script
    state: object  # after it
    events: list[tuple] = field(default_factory=list)  # ("take", cell) ("select", cell) ("move", a, b)...


def _mask(paths: str) -> int:
    """"N+E" -> the path mask."""
    return mask_of(side_of(s) for s in paths.split("+"))


def _orient(game: IshiHamaGame, state, cell: int, paths: str) -> int:
    """The rotate action that makes the tile on `cell` show `paths`."""
    return game.rotate_action(game.rot_mask[state.kind[cell]].index(_mask(paths)))


def run(design: Design, board: dict, script: list[tuple], reserves=None, points=(0, 0), player: int = 0) -> Played:
    """A hand-made position (see IshiHamaGame.position), then the script, every step checked by the engine:
    ("place", "colour shape", cell, paths), ("take", cell), ("select", cell, paths), ("move", side, cells),
    ("swap", side, other_paths, own_paths), ("stop",), ("pick", cell), ("marker", "colour shape")."""
    game = IshiHamaGame(design, 2)
    try:
        st = game.position(board, reserves=reserves or [[], []], points=points, player=player)
        start = st.clone()
        out = Played(game, start, st)
        g = game
        for kind, *args in script:
            if kind == "place":
                colour, shape = args[0].split()
                c = g.grid.parse(args[1])
                st.apply_action(g.kind_action(colour, shape))
                st.apply_action(c)
                k = g.kind_index(colour, shape)
                st.apply_action(g.rotate_action(g.rot_mask[k].index(_mask(args[2]))))
                out.events.append(("place", c))
            elif kind == "take":
                c = g.grid.parse(args[0])
                st.apply_action(c)
                out.events.append(("take", c))
            elif kind == "select":
                c = g.grid.parse(args[0])
                st.apply_action(c)
                st.apply_action(_orient(g, st, c, args[1]))
                out.events.append(("select", c))
            elif kind == "move":
                a = b = st.sel
                for _ in range(args[1]):
                    b = g.grid.nb[b][side_of(args[0])]
                st.apply_action(g.move_action(args[0], args[1]))
                out.events.append(("move", a, b))
            elif kind == "swap":
                a = st.sel
                st.apply_action(g.swap_action(args[0]))
                st.apply_action(_orient(g, st, st.other, args[1]))
                b = st.sel
                st.apply_action(_orient(g, st, b, args[2]))
                out.events.append(("swap", a, b))
            elif kind == "stop":
                st.apply_action(g.stop_action)
            elif kind == "pick":
                c = g.grid.parse(args[0])
                st.apply_action(c)
                out.events.append(("pick", c))
            elif kind == "marker":
                colour, shape = args[0].split()
                st.apply_action(g.kind_action(colour, shape))
            else:  # pragma: no cover - a mistake in a script below
                raise ValueError(f"unknown script step {kind!r}")
    except (IllegalActionError, DesignError, KeyError, ValueError, IndexError) as exc:
        raise ValueError(f"this design cannot play the scripted position ({exc})") from None
    return out


# --- drawing ------------------------------------------------------------------------------


class _Painter:
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
               stroke_width=width, **extra)

    def badge(self, c: Canvas, x: float, y: float, text: str, colour: str = HIGHLIGHT) -> None:
        r = self.unit * 0.15
        c.circle((x, y), r, fill="#ffffff", stroke=colour, stroke_width=0.45)
        c.text(x, y + r * 0.45, text, size=r * 1.3, anchor="middle", weight="bold", fill=colour)


def arrow(c: Canvas, a, b, colour: str = HIGHLIGHT, width: float = 0.7, head: float = 2.0,
          both: bool = False) -> None:
    ax, ay = a
    bx, by = b
    d = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / d, (by - ay) / d
    s = (ax + ux * head * 0.8, ay + uy * head * 0.8) if both else (ax, ay)
    e = (bx - ux * head * 0.8, by - uy * head * 0.8)

    def tip(px, py, vx, vy, **kw):
        c.polygon([(px, py), (px - vx * head - vy * head * 0.5, py - vy * head + vx * head * 0.5),
                   (px - vx * head + vy * head * 0.5, py - vy * head - vx * head * 0.5)], **kw)

    halo = dict(fill="#ffffff", stroke="#ffffff", stroke_width=0.9)
    c.line(s, e, stroke="#ffffff", stroke_width=width + 0.9)  # a white halo: readable over the paths
    tip(bx, by, ux, uy, **halo)
    if both:
        tip(ax, ay, -ux, -uy, **halo)
    c.line(s, e, stroke=colour, stroke_width=width)
    tip(bx, by, ux, uy, fill=colour)
    if both:
        tip(ax, ay, -ux, -uy, fill=colour)


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


def cross(c: Canvas, x: float, y: float, r: float, colour: str = BAD, width: float = 0.7) -> None:
    c.line((x - r, y - r), (x + r, y + r), stroke=colour, stroke_width=width)
    c.line((x - r, y + r), (x + r, y - r), stroke=colour, stroke_width=width)


def tick(c: Canvas, x: float, y: float, r: float, colour: str = GOOD, width: float = 0.8) -> None:
    c.polyline([(x - r, y), (x - r * 0.3, y + r * 0.7), (x + r, y - r * 0.8)], stroke=colour, stroke_width=width)


# --- the scripted positions ---------------------------------------------------------------

# phase 1: the first tiles of a game, each touching no other
PHASE1 = [("orange corner", "C3", "E+S"), ("blue tee", "E4", "N+E+S"), ("orange straight", "D5", "E+W"),
          ("blue corner", "F2", "S+W")]
PHASE1_WINDOW = (range(1, 8), range(0, 6))  # columns B-H, rows 1-6

# the combination: Orange places a blue tile, so the turn is blue; the blue corner on C4 is turned,
# moves 2 cells east, then swaps with the orange straight (F4), then with the orange tee (F5)
COMBO_BOARD = {
    "C4": ("blue", "corner", "N+E"), "F4": ("orange", "straight", "N+S"), "F5": ("orange", "tee", "W+N+E"),
    "F6": ("blue", "tee", "W+N+E"), "G6": ("blue", "corner", "S+W"), "E6": ("blue", "corner", "E+S"),
    "C6": ("orange", "corner", "E+S"), "G3": ("orange", "corner", "S+W"),
}
COMBO = [("place", "blue tee", "H2", "N+E+S"), ("select", "C4", "E+S"), ("move", "E", 2),
         ("swap", "E", "E+W", "S+W"), ("swap", "S", "S+W+N", "E+S"), ("stop",)]
COMBO_WINDOW = (range(1, 8), range(1, 7))  # columns B-H, rows 2-7

# connection: four pairs of neighbours
CONNECTION = [
    ({"B2": ("blue", "straight", "E+W"), "C2": ("blue", "corner", "S+W")}, True, "a"),
    ({"B2": ("blue", "straight", "E+W"), "C2": ("orange", "straight", "E+W")}, False, "b"),
    ({"B2": ("blue", "straight", "E+W"), "C2": ("blue", "straight", "N+S")}, False, "c"),
    ({"B2": ("blue", "corner", "E+S"), "C3": ("blue", "corner", "W+N")}, False, "d"),
]

# scoring: Blue places an orange tee that completes a group of 5 orange tiles
SCORE_BOARD = {"B3": ("orange", "corner", "E+S"), "C3": ("orange", "straight", "E+W"),
               "D3": ("orange", "corner", "S+W"), "D4": ("orange", "straight", "N+S")}
SCORE = [("place", "orange tee", "D5", "W+N+E"), ("stop",), ("marker", "orange tee")]
SCORE_WINDOW = (range(0, 6), range(1, 6))  # columns A-F, rows 2-6

# a group of 6: the player chooses 5 tiles connected among themselves
BIG_BOARD = {"C3": ("blue", "straight", "E+W"), "D3": ("blue", "tee", "E+S+W"), "E3": ("blue", "straight", "E+W"),
             "F3": ("blue", "corner", "S+W"), "D4": ("blue", "straight", "N+S")}
BIG = [("place", "blue straight", "F4", "N+S"), ("stop",), ("pick", "D4"), ("pick", "D3"), ("pick", "E3"),
       ("pick", "F3"), ("pick", "F4"), ("marker", "blue straight")]
BIG_WINDOW = (range(1, 7), range(1, 5))  # columns B-G, rows 2-5

# the worked example: Blue, reserve empty, takes an orange corner (the turn is orange); the orange
# straight on D6 swaps with the blue tee on E6, then moves 2 cells north into the gap of row 4
EXAMPLE_BOARD = {
    "C4": ("orange", "straight", "E+W"), "D4": ("orange", "straight", "E+W"), "F4": ("orange", "tee", "E+S+W"),
    "G4": ("orange", "corner", "S+W"), "D6": ("orange", "straight", "N+S"), "E6": ("blue", "tee", "N+E+S"),
    "H6": ("orange", "corner", "W+N"), "B6": ("blue", "corner", "N+E"), "F7": ("blue", "straight", "E+W"),
    "G2": ("blue", "tee", "E+S+W"), "D2": ("orange", "corner", "E+S"), "B3": ("blue", "straight", "N+S"),
    "E3": ("blue", "corner", "W+N"),
}
EXAMPLE_POINTS = (2, 3)
EXAMPLE = [("take", "H6"), ("select", "D6", "N+S"), ("swap", "E", "N+E+S", "E+W"), ("move", "N", 2)]
# the move after a swap ends the combination by itself; the group then waits for its score tile
EXAMPLE_MARKER = "orange corner"
EXAMPLE_WINDOW = (range(1, 9), range(1, 7))  # columns B-I, rows 2-7


def _turned_mask(pl: Played) -> int:
    """The played tile's orientation once turned, before it moves or swaps (replayed on the engine)."""
    st = pl.start.clone()
    hist = pl.state.history()
    target = None
    for a in hist:
        st.apply_action(a)
        if st.sel >= 0 and st.step in (ACT,):
            target = st.mask[st.sel]
            break
    if target is None:
        raise ValueError("the scripted combination turns no tile")
    return target


def _window(game: IshiHamaGame, window) -> tuple[range, range]:
    cols, rows = window
    if cols.stop > game.grid.columns or rows.stop > game.grid.rows:
        raise ValueError(f"the diagram needs a board of at least {cols.stop} x {rows.stop} cells")
    return cols, rows


# --- diagrams -----------------------------------------------------------------------------


def phase1_play(design: Design) -> Played:
    game = IshiHamaGame(design, 2)
    st = game.new_initial_state()
    out = Played(game, st.clone(), st)
    try:
        for name, cell, paths in PHASE1:
            colour, shape = name.split()
            st.apply_action(game.kind_action(colour, shape))
            c = game.grid.parse(cell)
            st.apply_action(c)
            k = game.kind_index(colour, shape)
            st.apply_action(game.rotate_action(game.rot_mask[k].index(_mask(paths))))
            out.events.append(("place", c))
    except (IllegalActionError, KeyError, ValueError) as exc:
        raise ValueError(f"this design cannot play the scripted position ({exc})") from None
    return out


def phase1_diagram(design: Design, lang: str, unit: float = 11.0) -> str:
    """phase1(): tiles placed apart; dots where the next tile may go, crosses where it may not."""
    pl = phase1_play(design)
    g, st = pl.game, pl.state
    p = _Painter(design, *_window(g, PHASE1_WINDOW), unit=unit)
    c = Canvas(p.width, p.height)
    p.ground(c, g)
    p.tiles_of(c, st)
    apart = set(st.apart_cells())
    for cell in range(g.N):
        if st.kind[cell] >= 0 or not p.inside(g, cell):
            continue
        x, y = p.centre(g, cell)
        if cell in apart:
            c.circle((x, y), unit * 0.09, fill=GOOD)
        else:
            cross(c, x, y, unit * 0.12)
    return c.to_string()


def combination_play(design: Design) -> Played:
    return run(design, COMBO_BOARD, COMBO, reserves=[["blue tee"], []])


def combination_diagram(design: Design, lang: str, stage: str = "before", unit: float = 11.0) -> str:
    """combination(stage="before"): before (numbered arrows: turn, move, swaps) or after the combination."""
    if stage not in ("before", "after"):
        raise ValueError(f"stage {stage!r}; expected before or after")
    pl = combination_play(design)
    g = pl.game
    p = _Painter(design, *_window(g, COMBO_WINDOW), unit=unit)
    c = Canvas(p.width, p.height)
    p.ground(c, g)
    ev = pl.events
    placed = ev[0][1]
    if stage == "before":
        p.tiles_of(c, pl.start)
        if p.inside(g, placed):
            p.tile(c, g, pl.state.kind[placed], pl.state.mask[placed], p.xy(g, placed))
            p.frame(c, g, placed, "#777777", 0.5, dash=True)
        sel = ev[1][1]
        p.frame(c, g, sel)
        x, y = p.centre(g, sel)
        turn_arrow(c, x, y, unit * 0.36)
        p.badge(c, x - unit * 0.36, y - unit * 0.36, "1")
        _, a, b = ev[2]
        turned = _turned_mask(pl)
        p.ghost(c, g, pl.start.kind[sel], turned, b)
        ca, cb = p.centre(g, a), p.centre(g, b)
        arrow(c, (ca[0] + unit * 0.5, ca[1]), (cb[0] - unit * 0.5, cb[1]))
        p.badge(c, (ca[0] + cb[0]) / 2 + unit * 0.2, ca[1] - unit * 0.22, "2")
        for n, (_, a, b) in enumerate(ev[3:], start=3):
            ca, cb = p.centre(g, a), p.centre(g, b)
            dx, dy = cb[0] - ca[0], cb[1] - ca[1]
            mx, my = (ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2
            k = 0.28
            arrow(c, (mx - dx * k, my - dy * k), (mx + dx * k, my + dy * k), both=True, head=1.7)
            p.badge(c, mx + (unit * 0.3 if dy else 0.0), my - (unit * 0.25 if dx else 0.0), str(n))
    else:
        p.tiles_of(c, pl.state)
        p.frame(c, g, ev[-1][2])
        for _, a, b in ev[3:]:
            p.frame(c, g, a, "#777777", 0.5, dash=True)
    return c.to_string()


def connection_diagram(design: Design, lang: str, unit: float = 11.0) -> str:
    """connection(): four pairs of neighbours (a to d): connected (tick) or not (cross)."""
    game = IshiHamaGame(design, 2)
    gap = unit * 0.9
    panel = 2 * unit
    c = Canvas(len(CONNECTION) * panel + (len(CONNECTION) + 1) * gap, panel + unit * 0.75)
    p = _Painter(design, range(1, 3), range(1, 3), unit=unit, margin=0, coords=False)
    for i, (board, _, letter) in enumerate(CONNECTION):
        ox = gap + i * (panel + gap)
        try:
            st = game.position(board, reserves=[["blue straight"], []])
        except (KeyError, ValueError) as exc:
            raise ValueError(f"this design cannot show the pair {letter} ({exc})") from None
        cells = sorted(game.grid.parse(n) for n in board)
        joined = any(all(cl in grp for cl in cells) for grp in st.groups())
        c.rect(ox, 0, panel, panel, fill=GROUND, stroke="#8a8a8a", stroke_width=0.2)
        for cl in cells:
            x, y = p.xy(game, cl)
            p.tile(c, game, st.kind[cl], st.mask[cl], (ox + x, y))
        (x0, y0), (x1, y1) = (p.centre(game, cl) for cl in cells)
        mx, my = ox + (x0 + x1) / 2, (y0 + y1) / 2
        c.circle((mx, my), unit * 0.2, fill="#ffffff", stroke=GOOD if joined else BAD, stroke_width=0.5)
        (tick if joined else cross)(c, mx, my, unit * 0.11)
        c.text(ox + panel / 2, panel + unit * 0.6, f"{letter}", size=unit * 0.36, anchor="middle", weight="bold",
               fill=INK)
    return c.to_string()


def connection_facts(design: Design) -> list[bool]:
    """Whether each pair of the connection diagram is connected, asked of the engine."""
    game = IshiHamaGame(design, 2)
    out = []
    for board, _, _ in CONNECTION:
        st = game.position(board, reserves=[["blue straight"], []])
        cells = sorted(game.grid.parse(n) for n in board)
        out.append(any(all(cl in grp for cl in cells) for grp in st.groups()))
    return out


def score_play(design: Design) -> Played:
    return run(design, SCORE_BOARD, SCORE, reserves=[[], ["orange tee"]], player=1)


def _strip(c: Canvas, p: _Painter, game, x: float, y: float, tiles: list[tuple[int, int]], label: str,
           fill: str) -> None:
    """A strip of the board (reserve or score) holding `tiles` (kind, mask), labelled above."""
    u = p.unit
    n = max(1, len(tiles))
    c.rect(x, y, n * u + 2, u + 2, fill=fill, stroke=INK, stroke_width=0.4)
    for i, (k, m) in enumerate(tiles):
        p.tile(c, game, k, m, (x + 1 + i * u, y + 1))
    c.text(x, y - 1.2, label, size=3.0, weight="bold", fill=INK)


def scoring_diagram(design: Design, lang: str, unit: float = 11.0) -> str:
    """scoring(): a group of 5 (framed) is removed: 4 tiles to the opponent's reserve, 1 to the score strip."""
    pl = score_play(design)
    g, st = pl.game, pl.state
    before = pl.start.clone()
    placed = pl.events[0][1]
    cols, rows = _window(g, SCORE_WINDOW)
    p = _Painter(design, cols, rows, unit=unit)
    side = 4 * unit + 2 + unit * 1.2  # the strips on the right
    c = Canvas(p.width + side, p.height)
    p.ground(c, g)
    # the board at the end of the turn, before scoring: the start position plus the placed tile
    group = [cl for cl in range(g.N) if before.kind[cl] >= 0] + [placed]
    p.tiles_of(c, before)
    k = g.kind_index(*SCORE[0][1].split())
    p.tile(c, g, k, _mask(SCORE[0][3]), p.xy(g, placed))
    for cl in group:
        p.frame(c, g, cl)
    scorer, opp = 1, 0  # Blue scores; Orange receives
    given = [(kk, g.kinds[kk].mask) for kk in range(g.K) for _ in range(st.reserve[opp][kk])]
    marker = [(kk, g.kinds[kk].mask) for kk in range(g.K) for _ in range(st.scored[scorer][kk])]
    sx = p.width + unit * 0.6
    y1, y2 = p.margin + unit * 0.4, p.margin + unit * 2.6
    _strip(c, p, g, sx, y1, given, _label("reserve", lang, name=_player(g.player_name(opp), lang)),
           "#fdf3dc")
    _strip(c, p, g, sx, y2, marker, _label("score", lang, name=_player(g.player_name(scorer), lang)), "#ffffff")
    gx, gy = p.centre(g, group[-1])
    for (ax, ay), (bx, by), count in (((gx + unit * 0.55, gy - unit * 0.3), (sx - 0.8, y1 + unit * 0.5), len(given)),
                                      ((gx + unit * 0.55, gy + unit * 0.1), (sx - 0.8, y2 + unit * 0.5),
                                       len(marker))):
        arrow(c, (ax, ay), (bx, by))
        p.badge(c, (ax + bx) / 2, (ay + by) / 2, str(count))
    return c.to_string()


def big_play(design: Design) -> Played:
    return run(design, BIG_BOARD, BIG, reserves=[["blue straight"], []])


def big_group_diagram(design: Design, lang: str, unit: float = 11.0) -> str:
    """big_group(): a group of 6; the 5 tiles chosen, numbered in the order of choice; the one that stays."""
    pl = big_play(design)
    g, st = pl.game, pl.state
    cols, rows = _window(g, BIG_WINDOW)
    p = _Painter(design, cols, rows, unit=unit)
    c = Canvas(p.width, p.height)
    p.ground(c, g)
    full = pl.start.clone()
    placed = pl.events[0][1]
    p.tiles_of(c, full)
    k = g.kind_index(*BIG[0][1].split())
    p.tile(c, g, k, _mask(BIG[0][3]), p.xy(g, placed))
    picks = [e[1] for e in pl.events if e[0] == "pick"]
    for n, cl in enumerate(picks, start=1):
        p.frame(c, g, cl)
        x, y = p.xy(g, cl)
        p.badge(c, x + unit * 0.2, y + unit * 0.2, str(n))
    for cl in range(g.N):
        if st.kind[cl] >= 0 and p.inside(g, cl):
            p.frame(c, g, cl, "#555555", 0.6, dash=True)
            x, y = p.xy(g, cl)
            c.text(x + unit / 2, y + unit + 3.2, _label("stays", lang), size=2.6, anchor="middle", weight="bold",
                   fill="#555555")
    return c.to_string()


def example_play(design: Design) -> Played:
    return run(design, EXAMPLE_BOARD, EXAMPLE, reserves=[["orange tee"], []], points=EXAMPLE_POINTS, player=1)


def example_diagram(design: Design, lang: str, stage: str = "before", unit: float = 11.0) -> str:
    """example(stage="before"): the worked example before the turn (numbered arrows) or at its end, before scoring."""
    if stage not in ("before", "after"):
        raise ValueError(f"stage {stage!r}; expected before or after")
    pl = example_play(design)
    g = pl.game
    p = _Painter(design, *_window(g, EXAMPLE_WINDOW), unit=unit)
    c = Canvas(p.width, p.height)
    p.ground(c, g)
    ev = pl.events
    u = unit
    if stage == "before":
        p.tiles_of(c, pl.start)
        take = ev[0][1]
        x, y = p.centre(g, take)
        p.frame(c, g, take, HIGHLIGHT, 0.5, dash=True)
        arrow(c, (x + u * 0.2, y + u * 0.2), (x + u * 0.62, y + u * 0.62))
        p.badge(c, x - u * 0.32, y - u * 0.32, "1")
        c.text(x - u * 0.5, y + u * 1.05, _label("to_reserve", lang), size=2.4, weight="bold", fill=HIGHLIGHT)
        sel = ev[1][1]
        p.frame(c, g, sel)
        _, a, b = ev[2]
        ca, cb = p.centre(g, a), p.centre(g, b)
        mx, my = (ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2
        arrow(c, (mx - u * 0.28, my), (mx + u * 0.28, my), both=True, head=1.7)
        p.badge(c, mx, my + u * 0.3, "2")
        _, a, b = ev[3]
        p.ghost(c, g, pl.start.kind[sel], pl.state.mask[b], b)
        ca, cb = p.centre(g, a), p.centre(g, b)
        arrow(c, (ca[0] + u * 0.3, ca[1] - u * 0.1), (cb[0] + u * 0.3, cb[1] + u * 0.45))
        p.badge(c, ca[0] + u * 0.5, (ca[1] + cb[1]) / 2, "3")
    else:
        before_score = _end_of_turn(pl)
        p.tiles_of(c, before_score)
        for cl in before_score.groups(g.rules.group_size)[0]:
            p.frame(c, g, cl)
    return c.to_string()


def _end_of_turn(pl: Played):
    """The worked example's board at the end of the turn: the group of 5 is still there, waiting to be scored."""
    if pl.state.step not in (PICK, MARKER):
        raise ValueError("the worked example does not end with a group to score on this design")
    return pl.state.clone()


# --- facts for the rules text -------------------------------------------------------------


def _cell(game: IshiHamaGame, cell: int) -> str:
    return game.grid.name(cell)


def example_facts(design: Design, lang: str) -> dict | None:
    """The worked example as the text tells it (cells, colours, points), or None if this design cannot play it."""
    try:
        pl = example_play(design)
        end = _end_of_turn(pl)
    except ValueError:
        return None
    g = pl.game
    found = end.groups(g.rules.group_size)
    if len(found) != 1 or len(found[0]) != g.rules.group_size:
        return None
    st = end.clone()
    try:
        st.apply_action(g.kind_action(*EXAMPLE_MARKER.split()))
    except IllegalActionError:
        return None
    ev = pl.events
    take, sel = ev[0][1], ev[1][1]
    _, _, swapped_to = ev[2]
    _, _, moved_to = ev[3]
    k_take = pl.start.kind[take]
    group = found[0]
    mover, opp = 1, 0
    other_kind = pl.start.kind[swapped_to]
    return {
        "player": _player(g.player_name(mover), lang), "opponent": _player(g.player_name(opp), lang),
        "opponent_of": _of(g.player_name(opp), lang),
        "points": [EXAMPLE_POINTS[mover], EXAMPLE_POINTS[opp]], "after": [st.points()[mover], st.points()[opp]],
        "take": _cell(g, take), "take_shape": _word("shapes", g.kinds[k_take].shape, lang),
        "colour": _word("colours", g.kinds[k_take].colour_name, lang),
        "colour_plural": _word("plural", g.kinds[k_take].colour_name, lang),
        "colour_fem": _word("feminine", g.kinds[k_take].colour_name, lang),
        "select": _cell(g, sel), "select_shape": _word("shapes", g.kinds[pl.start.kind[sel]].shape, lang),
        "swap_with": _cell(g, swapped_to),
        "swap_shape": _word("shapes", g.kinds[other_kind].shape, lang),
        "swap_colour": _word("colours", g.kinds[other_kind].colour_name, lang),
        "move_to": _cell(g, moved_to),
        "through": _cell(g, g.grid.nb[swapped_to][0]),
        "group": [_cell(g, cl) for cl in group],
        "marker_shape": _word("shapes", EXAMPLE_MARKER.split()[1], lang),
        "given": sum(st.reserve[opp]) - sum(pl.start.reserve[opp]),
        "reserve_after": sum(st.reserve[mover]),
    }


def figure_facts(design: Design, lang: str) -> dict:
    """The cells and tiles the small diagrams show, for their captions (None when unplayable)."""
    out: dict = {}
    try:
        pl = combination_play(design)
        g, ev = pl.game, pl.events
        out["combination"] = {
            "placed": _cell(g, ev[0][1]), "select": _cell(g, ev[1][1]), "move_to": _cell(g, ev[2][2]),
            "swaps": [_cell(g, e[2]) for e in ev[3:]],
            "swapped": [(_word("feminine", g.kinds[pl.start.kind[e[2]]].colour_name, lang),
                         _word("shapes", g.kinds[pl.start.kind[e[2]]].shape, lang)) for e in ev[3:]],
            "end": _cell(g, ev[-1][2]),
            "group": max((len(gr) for gr in pl.state.groups() if ev[-1][2] in gr), default=1),
        }
    except ValueError:
        out["combination"] = None
    try:
        out["connection"] = connection_facts(design)
    except (KeyError, ValueError):
        out["connection"] = None
    try:
        pl = big_play(design)
        g = pl.game
        picks = [_cell(g, e[1]) for e in pl.events if e[0] == "pick"]
        stays = [_cell(g, cl) for cl in range(g.N) if pl.state.kind[cl] >= 0]
        out["big_group"] = {"size": len(picks) + len(stays), "picks": picks, "stays": stays}
    except ValueError:
        out["big_group"] = None
    try:
        pl = score_play(design)
        out["scoring"] = {"placed": _cell(pl.game, pl.events[0][1])}
    except ValueError:
        out["scoring"] = None
    try:
        pl = phase1_play(design)
        out["phase1"] = {"tiles": len(pl.events)}
    except ValueError:
        out["phase1"] = None
    return out


FORMS = {
    "en": {"end": "a dead end to one side", "bend": "two neighbouring sides", "line": "two opposite sides",
           "three": "three sides", "four": "all four sides", "none": "no side"},
    "fr": {"end": "un seul côté", "bend": "deux côtés voisins", "line": "deux côtés opposés",
           "three": "trois côtés", "four": "les quatre côtés", "none": "aucun côté"},
}


def _form(mask: int, lang: str) -> str:
    """Which sides a path reaches, in words: two neighbouring sides, two opposite sides..."""
    n = bin(mask).count("1")
    key = {0: "none", 1: "end", 3: "three", 4: "four"}.get(n) or ("line" if mask in (5, 10) else "bend")
    return FORMS.get(lang, FORMS["en"])[key]


def _ordinal(k: int, lang: str) -> str:
    if lang == "fr":
        return "1er" if k == 1 else f"{k}e"
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def rulebook_facts(design: Design, lang: str) -> dict:
    """What an Ishi-Hama rules text reads as `facts`:

    * board: columns, rows, cells, last_column, cell_mm, apart (the most tiles that fit touching
      no other), score_slots;
    * colours (seat order; first and second are the same two): key, name, fem and plural (French
      feminine and feminine plural adjectives), symbol, pattern, player (the player's name: Orange),
      of ("Orange's", "d'Orange");
    * symbols: the names of the hub symbols in the language;
    * mix (per shape): key, name, count, paths, ends, form (the sides its path reaches, in words);
    * tiles (per colour), total, score (score tiles a group: 1);
    * points_to_win (a majority of the points of the game), last_point (its ordinal: 7th, 7e),
      tie_possible;
    * example (the worked example, or None), figures (what the small diagrams show).
    """
    game = IshiHamaGame(design, 2)
    g = game.grid
    _, board = find_component(design, "ishi_hama.board", "board")
    specs = tile_colours(design)
    colours = []
    for seat in range(2):
        name = game.player_name(seat)
        spec = next((s for s in specs if s.name == name), None)
        colours.append({"key": name, "name": _word("colours", name, lang), "plural": _word("plural", name, lang),
                        "fem": _word("feminine", name, lang),
                        "symbol": spec.symbol if spec else "", "pattern": spec.pattern if spec else "",
                        "player": _player(name, lang), "of": _of(name, lang)})
    _, tiles = find_component(design, TILES_GENERATOR, "tile")
    letters = "NESO" if lang == "fr" else "NESW"
    mix = [{"key": m.name, "name": _word("shapes", m.name, lang), "count": m.count,
            "paths": "+".join(letters[side_of(s)] for s in m.paths), "ends": len(m.paths),
            "form": _form(m.mask, lang)} for m in tiles.params.mix]
    per_colour = sum(k.count for k in game.kinds if k.colour == game.seat_colour[0])
    points = game.rules.points_in_game
    return {
        "board": {"columns": g.columns, "rows": g.rows, "cells": g.size, "last_column": chr(ord("A") + g.columns - 1),
                  "cell_mm": f"{board.params.cell:g}", "apart": g.max_apart(),
                  "score_slots": min(game.rules.points_in_game, g.rows)},
        "colours": colours, "first": colours[0], "second": colours[1],
        "symbols": SYMBOLS.get(lang, SYMBOLS["en"]), "mix": mix, "tiles": per_colour,
        "total": sum(k.count for k in game.kinds),
        "points_to_win": points // 2 + 1, "last_point": _ordinal(points, lang), "tie_possible": points % 2 == 0,
        "score": game.rules.group_size - game.rules.tiles_to_opponent,
        "example": example_facts(design, lang),
        "figures": figure_facts(design, lang),
    }


DIAGRAMS = {  # the rulebook diagrams, by the short name a rules text gives after 'ishi_hama.'
    "phase1": phase1_diagram,
    "combination": combination_diagram,
    "connection": connection_diagram,
    "scoring": scoring_diagram,
    "big_group": big_group_diagram,
    "example": example_diagram,
}
