"""TUBO rulebook diagrams and facts, drawn from the design and played through the engine.

Every position shown is reached by playing a short script on the rules engine
(`TuboGame`), so a diagram can only show what the rules allow; the pieces are drawn with
the stocks' own colours and `pnp.render.pathtiles`, as the printed pieces are.

Diagrams (listed in DIAGRAMS, given to the GameSpec; from a rules text: `{{ diagram("tubo.wrap") }}`):

* `tubo.board()` — the board: its zones, Start and its branches, the Objective on a cell of
  the Objective zone (the worked example's cell), coordinates.
* `tubo.fitting(side="W")` — a path end entering a cell from `side`: the pieces of a stock
  that fit (their line meets it) and those that do not.
* `tubo.wrap()` — a path leaving the right edge and re-entering on the left (highlighted).
* `tubo.loop()` — an infinite loop: the path comes back into Start.
* `tubo.close_exit()` — continuing from a Close piece in play: its 3 ways out, never back.
* `tubo.pass_over()` — a new round's path passing over a piece of an earlier path.
* `tubo.example(step=1)` — the worked example after part `step` (1, 2 or 3).

`rulebook_facts(design, lang)` gives the rules text its `facts` (see `rulebook_facts`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from pnp.engine import IllegalActionError
from pnp.errors import DesignError
from pnp.games.tubo.components import INK
from pnp.render.colour import tint
from pnp.games.tubo.engine import CLOSE, CONNECTORS, TuboGame, cell_name, design_stocks, find_component
from pnp.games.tubo.geometry import DELTA, SIDE_NAMES, connectors, fitting, opposite, side_of
from pnp.model import Design
from pnp.render.pathtiles import Hub, Link, PathStyle, Spoke, Stub, draw_tile, square
from pnp.render.svg import Canvas

WORDS = {
    "en": {"colours": {}, "symbols": {}, "zones": {},
           "sides": {"N": "north", "E": "east", "S": "south", "W": "west"}},
    "fr": {"colours": {"orange": "orange", "sky": "ciel", "green": "vert", "yellow": "jaune", "blue": "bleu",
                       "vermilion": "vermillon", "purple": "violet", "grey": "gris", "red": "rouge",
                       "black": "noir", "white": "blanc", "pink": "rose", "brown": "marron"},
           "symbols": {"circle": "rond", "ring": "anneau", "square": "carré", "diamond": "losange",
                       "triangle": "triangle", "cross": "croix", "star": "étoile", "hexagon": "hexagone",
                       "none": "aucun"},
           "zones": {"grey": "grise", "black": "noire", "white": "blanche"},
           "sides": {"N": "nord", "E": "est", "S": "sud", "W": "ouest"}},
}
SIDE_LETTERS = {"en": "NESW", "fr": "NESO"}
PLAYERS = ("Léa", "Tom")  # seat 1 (starts round 1), seat 2 (places the Objective)
HIGHLIGHT = "#C2185B"  # not one of the stocks' colours
GOOD, BAD = "#009E73", "#C62828"


def _word(kind: str, key: str, lang: str) -> str:
    return WORDS.get(lang, WORDS["en"])[kind].get(key, key)


# --- playing a script on the engine -------------------------------------------------------


@dataclass
class Laid:
    cell: tuple[int, int]
    piece: int  # connector index, or CLOSE
    opening: int  # Close piece: the side facing the path
    colour: str
    player: int
    round: int
    step: int  # 1, 2... in order of play
    entry: int


@dataclass
class Play:
    game: TuboGame
    state: object
    laid: list[Laid] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)  # one per scripted action, what happened


def _objective_cell(game: TuboGame) -> tuple[int, int]:
    """The worked example's Objective: the top-right cell when it is in the Objective zone, else the first one."""
    b = game.board
    want = (b.width - 1, 0)
    return want if b.index(want) in game.objective_cells else b.cell(game.objective_cells[0])


def play(design: Design, script: list[tuple], objective: tuple[int, int] | None = None) -> Play:
    """Draft (seat 1 takes stocks 0, 2, 4..., seat 2 the others), seat 2 places the Objective,
    then the script: ("open", (x, y) | "start", side) and ("lay", "E-W" | "close")."""
    game = TuboGame(design, 2)
    st = game.new_initial_state()
    k = 0
    while st.phase == 0:  # DRAFT
        st.apply_action(game.draft_action(k))
        k += 1
    st.apply_action(game.objective_action(objective or _objective_cell(game)))
    stocks = _stock_params(design).stocks
    out = Play(game, st)
    for n, (kind, *args) in enumerate(script, start=1):
        p = st.current_player()
        before = (list(st.loops), list(st.closes), st.round, st.passed_over)
        ev: dict = {"player": p, "round": st.round}
        if kind == "open":
            where, side = args
            c = game.board.start if where == "start" else tuple(where)
            st.apply_action(game.open_action(c, side_of(side)))
            ev.update(kind="open", cell=c, side=side_of(side))
        else:
            t, entry = st.target()
            cell = game.board.cell(t)
            piece = args[0]
            drafted = st.drafted[p][st.round - 1]
            a = game.place_action(piece)
            st.apply_action(a)
            idx = CLOSE if piece == "close" else CONNECTORS.index(tuple(sorted(_connector(piece))))
            out.laid.append(Laid(cell, idx, entry, stocks[drafted].colour,
                                 p, ev["round"], len(out.laid) + 1, entry))
            ev.update(kind="lay", cell=cell, piece=idx, entry=entry, passed_over=st.passed_over > before[3])
        ev.update(loop=st.loops[p] > before[0][p], closed=st.closes[p] > before[1][p],
                  new_round=st.round > before[2], over=st.phase == 4, winner=st.winner, reached=st.reached)
        if st.phase != 4 and st.end_cell >= 0:
            t, entry = st.target()
            ev["next"] = (game.board.cell(t), entry)
        out.events.append(ev)
    return out


def _connector(name: str) -> tuple[int, int]:
    from pnp.games.tubo.geometry import connector_of

    return connector_of(name)


def _stock_params(design: Design):
    _, comp = find_component(design, "tubo.stocks", "colour stock")
    return comp.params


# --- drawing ------------------------------------------------------------------------------


class _Painter:
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

    def piece(self, c: Canvas, cell, piece: int, colour: str, opening: int = 2, lift: float = 0.0) -> None:
        u = self.unit
        x, y = self.xy(cell)
        x, y = x - lift, y - lift
        if lift:
            c.rect(x + lift + 0.3, y + lift + 0.3, u, u, fill="#000000", opacity="0.25")
        c.rect(x, y, u, u, fill=tint(colour, 0.82), stroke="#777777", stroke_width=0.15)
        style = PathStyle(width=self.pw, colour=colour, outline=INK, outline_width=0.3)
        conns = [Stub(opening, reach=0.92, cap="bar")] if piece == CLOSE else [Link(*CONNECTORS[piece])]
        draw_tile(c, square(u), conns, style, origin=(x, y), extend=0)

    def pieces(self, c: Canvas, laid: list[Laid], numbers: bool = False, lift_covering: bool = True) -> None:
        seen: set = set()
        for p in laid:
            covering = p.cell in seen
            self.piece(c, p.cell, p.piece, p.colour, p.opening, lift=self.unit * 0.07 if covering else 0.0)
            seen.add(p.cell)
        if numbers:
            for p in laid:
                x, y = self.xy(p.cell)
                r = self.unit * 0.13
                cx, cy = x + r + 0.5, y + r + 0.5
                c.circle((cx, cy), r, fill="#ffffff", stroke=INK, stroke_width=0.2)
                c.text(cx, cy + r * 0.45, str(p.step), size=r * 1.3, anchor="middle", weight="bold", fill=INK)

    def frame(self, c: Canvas, cell, colour: str = HIGHLIGHT, width: float = 0.8) -> None:
        x, y = self.xy(cell)
        c.rect(x + width / 2, y + width / 2, self.unit - width, self.unit - width, stroke=colour,
               stroke_width=width)

    def arrow(self, c: Canvas, a, b, colour: str = HIGHLIGHT, width: float = 0.7, head: float = 1.8) -> None:
        ax, ay = a
        bx, by = b
        d = math.hypot(bx - ax, by - ay) or 1.0
        ux, uy = (bx - ax) / d, (by - ay) / d
        c.line((ax, ay), (bx - ux * head * 0.8, by - uy * head * 0.8), stroke=colour, stroke_width=width)
        c.polygon([(bx, by), (bx - ux * head - uy * head * 0.55, by - uy * head + ux * head * 0.55),
                   (bx - ux * head + uy * head * 0.55, by - uy * head - ux * head * 0.55)], fill=colour)

    def cross(self, c: Canvas, x: float, y: float, r: float, colour: str = BAD) -> None:
        c.line((x - r, y - r), (x + r, y + r), stroke=colour, stroke_width=0.8)
        c.line((x - r, y + r), (x + r, y - r), stroke=colour, stroke_width=0.8)


def _state_svg(design: Design, pl: Play, numbers: bool = False, unit: float = 10.0,
               extra=None) -> str:
    p = _Painter(design, unit)
    c = Canvas(p.width, p.height)
    p.ground(c, objective=pl.game.board.cell(pl.state.objective))
    p.pieces(c, pl.laid, numbers=numbers)
    for ev in pl.events:  # a Close piece used as a way out: its chosen side
        if ev["kind"] == "open" and ev["cell"] != pl.game.board.start:
            p.arrow(c, p.centre(ev["cell"]), p.port(ev["cell"], ev["side"], out=p.unit * 0.1), HIGHLIGHT, 0.7, 1.8)
    if extra:
        extra(p, c)
    return c.to_string()


# --- the scripts (relative to Start, so any board large enough plays them) ----------------


def _rel(design: Design, dx: int, dy: int) -> tuple[int, int]:
    b = TuboGame(design, 2).board
    return b.wrap((b.start[0] + dx, b.start[1] + dy))


WRAP = [("open", "start", "E"), ("lay", "E-W"), ("lay", "E-W"), ("lay", "S-W"), ("lay", "N-E"), ("lay", "N-W")]
LOOP = [("open", "start", "N"), ("lay", "E-S"), ("lay", "S-W"), ("lay", "N-W")]
CLOSE_EXIT = [("open", "start", "E"), ("lay", "E-W"), ("lay", "close")]
PASS_OVER = [("open", "start", "E"), ("lay", "E-W"), ("lay", "close"),
             ("open", "start", "N"), ("lay", "E-S"), ("lay", "S-W"), ("lay", "N-S")]
# the worked example: round 1 (E), two wraps, a Close chosen; round 2 (S) a loop into Start,
# then the path goes on from the Close piece and reaches the Objective through the bottom edge.
EXAMPLE = [
    ("open", "start", "E"), ("lay", "E-W"), ("lay", "S-W"), ("lay", "N-E"), ("lay", "E-W"), ("lay", "S-W"),
    ("lay", "N-W"), ("lay", "close"),
    ("open", "start", "S"), ("lay", "N-W"), ("lay", "N-E"), ("lay", "E-S"),
    ("open", "close", "S"), ("lay", "N-S"),
]
EXAMPLE_PARTS = (8, 12, 14)  # script actions played at the end of parts 1, 2, 3


def _resolve_close(design: Design, script: list[tuple]) -> list[tuple]:
    """Replace ("open", "close", side) by the cell of the last Close piece laid before it."""
    game = TuboGame(design, 2)
    done: list[tuple] = []
    for item in script:
        if item[0] == "open" and item[1] == "close":
            pl = play(design, done, _objective_cell(game))
            closes = [p for p in pl.laid if p.piece == CLOSE]
            if not closes:
                raise ValueError("no Close piece in play")
            done.append(("open", closes[-1].cell, item[2]))
        else:
            done.append(item)
    return done


def _rules_error(exc: Exception) -> ValueError:
    return ValueError(f"this design cannot play the scripted position ({exc})")


def _safe_play(design: Design, script: list[tuple]) -> Play:
    try:
        return play(design, _resolve_close(design, script))
    except (IllegalActionError, DesignError, IndexError) as exc:
        raise _rules_error(exc) from None


# --- diagrams -----------------------------------------------------------------------------


def board_diagram(design: Design, lang: str, unit: float = 11.0) -> str:
    """board(): the zones, Start and its branches, the Objective on a cell of its zone."""
    p = _Painter(design, unit)
    c = Canvas(p.width, p.height)
    game = p.game
    p.ground(c, objective=_objective_cell(game))
    return c.to_string()


def fitting_diagram(design: Design, lang: str, side: str = "W", unit: float = 13.0) -> str:
    """fitting(side="W"): a path entering from `side`; the pieces that fit, and those that do not."""
    entry = side_of(side)
    params = _stock_params(design)
    colour = params.stocks[0].colour
    good = fitting(entry, connectors())
    bad = [c for c in connectors() if c not in good]
    u, gap = unit, unit * 0.35
    width = (len(good) + len(bad)) * (u + gap) + gap * 3
    height = u * 2.2
    c = Canvas(width, height)
    p = _Painter(design, u, margin=0)
    pw = p.pw
    style = PathStyle(width=pw, colour=colour, outline=INK, outline_width=0.3)
    y = u * 0.45
    x = gap
    for k, con in enumerate(good + bad):
        if k == len(good):
            x += gap * 3
        c.rect(x, y, u, u, fill=tint(colour, 0.82), stroke="#777777", stroke_width=0.15)
        draw_tile(c, square(u), [Link(*con)], style, origin=(x, y), extend=0)
        # the path arrives at the `entry` side: a short grey stub outside
        px, py = x + u / 2 + DELTA[entry][0] * u / 2, y + u / 2 + DELTA[entry][1] * u / 2
        ok = con in good
        mark = GOOD if ok else BAD
        qx, qy = px + DELTA[entry][0] * gap * 0.9, py + DELTA[entry][1] * gap * 0.9
        c.line((qx, qy), (px, py), stroke="#9a9a9a", stroke_width=pw)
        c.circle((px, py), pw * 0.45, fill=mark)
        label = "-".join(SIDE_LETTERS.get(lang, "NESW")[s] for s in con)
        c.text(x + u / 2, y + u + u * 0.38, label, size=u * 0.2, anchor="middle", weight="bold", fill=INK)
        if not ok:
            p.cross(c, x + u / 2, y + u / 2, u * 0.22)
        x += u + gap
    return c.to_string()


def wrap_diagram(design: Design, lang: str, unit: float = 10.0) -> str:
    """wrap(): a path leaving the right edge re-enters on the left, same row (highlighted)."""
    pl = _safe_play(design, WRAP)
    crossing = next(((a, b) for a, b in zip(pl.laid, pl.laid[1:]) if b.cell[0] < a.cell[0]), None)
    if crossing is None:
        raise ValueError("the scripted path does not cross the edge on this board")
    a, b = crossing

    def extra(p: _Painter, c: Canvas) -> None:
        for q in pl.laid:
            p.frame(c, q.cell, HIGHLIGHT, 0.7)
        out_from = p.port(a.cell, 1)
        p.arrow(c, out_from, p.port(a.cell, 1, out=p.margin * 0.42))
        p.arrow(c, p.port(b.cell, 3, out=p.margin * 0.42), p.port(b.cell, 3, out=0.2))

    return _state_svg(design, pl, numbers=True, unit=unit, extra=extra)


def loop_diagram(design: Design, lang: str, unit: float = 10.0) -> str:
    """loop(): the path comes back into Start: an infinite loop."""
    pl = _safe_play(design, LOOP)
    if not pl.events[-1]["loop"]:
        raise ValueError("the scripted path does not close a loop on this board")
    last = pl.laid[-1]
    side = next(s for s in CONNECTORS[last.piece] if s != last.entry)

    def extra(p: _Painter, c: Canvas) -> None:
        for q in pl.laid:
            p.frame(c, q.cell, HIGHLIGHT, 0.7)
        p.frame(c, pl.game.board.start, HIGHLIGHT, 0.7)
        x, y = p.port(last.cell, side)
        r = p.unit * 0.16
        c.circle((x, y), r, fill="#ffffff", stroke=HIGHLIGHT, stroke_width=0.6)
        c.text(x, y + r * 0.55, "∞", size=r * 1.7, anchor="middle", weight="bold", fill=HIGHLIGHT)

    return _state_svg(design, pl, numbers=True, unit=unit, extra=extra)


def close_exit_diagram(design: Design, lang: str, unit: float = 10.0) -> str:
    """close_exit(): the path goes on from a Close piece in play: 3 ways out, never back through its opening."""
    pl = _safe_play(design, CLOSE_EXIT)
    close = pl.laid[-1]

    def extra(p: _Painter, c: Canvas) -> None:
        p.frame(c, close.cell, HIGHLIGHT, 0.7)
        for s in range(4):
            if s == close.opening:
                x, y = p.port(close.cell, s)
                p.cross(c, x, y, p.unit * 0.13)
                continue
            p.arrow(c, p.port(close.cell, s, out=-p.unit * 0.1), p.port(close.cell, s, out=p.unit * 0.55), GOOD,
                    0.8, 2.0)

    return _state_svg(design, pl, unit=unit, extra=extra)


def pass_over_diagram(design: Design, lang: str, unit: float = 10.0) -> str:
    """pass_over(): a new round's path passes over a piece of an earlier round (laid on top of it)."""
    pl = _safe_play(design, PASS_OVER)
    over = next((ev for ev in pl.events if ev.get("passed_over")), None)
    if over is None:
        raise ValueError("the scripted path does not pass over an earlier one on this board")

    def extra(p: _Painter, c: Canvas) -> None:
        for q in pl.laid:
            if q.round == pl.laid[-1].round:
                p.frame(c, q.cell, HIGHLIGHT, 0.7)

    return _state_svg(design, pl, numbers=True, unit=unit, extra=extra)


def example_diagram(design: Design, lang: str, step: int = 1, unit: float = 10.0) -> str:
    """example(step=1): the worked example at the end of part `step` (1 to 3)."""
    if not 1 <= step <= len(EXAMPLE_PARTS):
        raise ValueError(f"no part {step}; the example has parts 1 to {len(EXAMPLE_PARTS)}")
    ex = example_facts(design, lang)
    if ex is None:
        raise ValueError("this design cannot play the worked example")
    pl = _safe_play(design, EXAMPLE[:EXAMPLE_PARTS[step - 1]])
    first = 0 if step == 1 else len(_safe_play(design, EXAMPLE[:EXAMPLE_PARTS[step - 2]]).laid)

    def extra(p: _Painter, c: Canvas) -> None:
        for q in pl.laid[first:]:
            p.frame(c, q.cell, HIGHLIGHT, 0.6)
        ev = pl.events[-1]
        if step == 2 and ev["loop"]:
            last = pl.laid[-1]
            side = next(s for s in CONNECTORS[last.piece] if s != last.entry)
            x, y = p.port(last.cell, side)
            r = p.unit * 0.16
            c.circle((x, y), r, fill="#ffffff", stroke=HIGHLIGHT, stroke_width=0.6)
            c.text(x, y + r * 0.55, "∞", size=r * 1.7, anchor="middle", weight="bold", fill=HIGHLIGHT)
        if step == 3 and ev["reached"]:
            last = pl.laid[-1]
            side = next(s for s in CONNECTORS[last.piece] if s != last.entry)
            target = pl.game.board.cell(pl.state.objective)
            p.arrow(c, p.port(last.cell, side), p.port(last.cell, side, out=p.margin * 0.42))
            p.arrow(c, p.port(target, opposite(side), out=p.margin * 0.42), p.port(target, opposite(side), out=0.2))

    return _state_svg(design, pl, numbers=True, unit=unit, extra=extra)


# --- facts for the rules text -------------------------------------------------------------


def _score_values(game: TuboGame) -> dict[str, int]:
    """Points per piece in hand, per loop, per Close piece laid: asked of the engine's own score."""
    st = game.new_initial_state()
    zero = [[0] * len(h) for h in [[0] * (CLOSE + 1)]]
    st.hands = [[z[:] for z in zero], [z[:] for z in zero]]
    base = st.scores()[0]
    st.hands[0][0][0] = 1
    piece = st.scores()[0] - base
    st.hands[0][0][0] = 0
    st.hands[0][0][CLOSE] = 1
    unused_close = st.scores()[0] - base
    st.hands[0][0][CLOSE] = 0
    st.loops = [1, 0]
    loop = st.scores()[0] - base
    st.loops = [0, 0]
    st.closes = [1, 0]
    close = st.scores()[0] - base
    return {"piece": piece, "loop": loop, "close": close, "unused_close": unused_close}


def _signed(v: int) -> str:
    return f"+{v}" if v > 0 else f"−{-v}" if v < 0 else "0"


def example_facts(design: Design, lang: str) -> dict | None:
    """The worked example as the text tells it: names, cells, pieces, per step; None if it cannot be played."""
    try:
        pl = _safe_play(design, EXAMPLE)
    except ValueError:
        return None
    ev = pl.events
    if not (ev[-1]["reached"] and any(e["loop"] for e in ev) and any(e["closed"] for e in ev)):
        return None
    g = pl.game
    letters = SIDE_LETTERS.get(lang, "NESW")

    def name(cell) -> str:
        return cell_name(g.board, cell)

    def piece(i: int) -> str:
        return "-".join(letters[s] for s in CONNECTORS[i]) if i != CLOSE else "Close"

    steps = []
    for e in ev:
        d = {"player": PLAYERS[e["player"]], "kind": e["kind"], "round": e["round"], "loop": e["loop"],
             "closed": e["closed"], "reached": e["reached"], "passed_over": e.get("passed_over", False)}
        if e["kind"] == "open":
            d.update(cell=name(e["cell"]), side=_word("sides", SIDE_NAMES[e["side"]], lang),
                     letter=letters[e["side"]])
        else:
            d.update(cell=name(e["cell"]), piece=piece(e["piece"]))
        if "next" in e:
            d["next"] = name(e["next"][0])
        steps.append(d)
    stocks = design_stocks(design)
    laid = [step for step in steps if step["kind"] == "lay"]
    for i, step in enumerate(laid, start=1):
        step["number"] = i
    colours = [[_word("colours", stocks[k].name, lang) for k in pl.state.drafted[p]] for p in (0, 1)]
    return {
        "players": list(PLAYERS), "objective": name(g.board.cell(pl.state.objective)),
        "start": name(g.board.start), "colours": colours, "steps": steps,
        "parts": [list(range(a, b)) for a, b in zip((0,) + EXAMPLE_PARTS, EXAMPLE_PARTS)],
        "winner": PLAYERS[pl.state.winner],
    }


def rulebook_facts(design: Design, lang: str) -> dict:
    """What a TUBO rules text reads as `facts`:

    board (columns, rows, cells, cell_mm, start, branches, branch_names), zones (name, key,
    cells, objective: bool), objective_zone (its name), other_zones, stocks (name,
    symbol), stock_count, connectors (per stock), fitting (pieces of a stock that fit one
    open end), closes (per stock), loose (pieces in the box), score (piece, loop, close,
    unused_close, and signed texts), max_pieces, sides, example (or None).
    """
    game = TuboGame(design, 2)
    b = game.board
    _, comp = find_component(design, "tubo.board", "board")
    params = comp.params
    zones = []
    objective_zone = game.rules.objective_zone
    for zname, cells in b.zone_cells.items():
        zones.append({"key": zname, "name": _word("zones", zname, lang), "cells": len(cells),
                      "objective": zname == objective_zone})
    sp = _stock_params(design)
    stocks = design_stocks(design)
    score = _score_values(game)
    _, obj = find_component(design, "tubo.objective", "Objective piece")
    loose = sum(sum(s.counts) for s in stocks) + obj.count
    return {
        "board": {"columns": b.width, "rows": b.height, "cells": b.size, "cell_mm": _mm(params.cell),
                  "start": cell_name(b, b.start), "branches": len(b.branches),
                  "branch_names": [_word("sides", SIDE_NAMES[s], lang) for s in b.branches],
                  "last_column": chr(ord("A") + b.width - 1)},
        "zones": zones,
        "objective_zone": _word("zones", objective_zone, lang),
        "other_zones": [z["name"] for z in zones if not z["objective"]],
        "stocks": [{"name": _word("colours", s.name, lang), "symbol": _word("symbols", s.symbol, lang)}
                   for s in sp.stocks],
        "stock_count": len(stocks),
        "connectors": stocks[0].connectors,
        "fitting": len(fitting(0, connectors())),
        "closes": stocks[0].closes,
        "loose": loose,
        "max_pieces": game.rules.stocks_per_player * stocks[0].connectors,
        "score": {**score, **{f"{k}_text": _signed(v) for k, v in score.items()}},
        "sides": {k: _word("sides", k, lang) for k in SIDE_NAMES},
        "letters": SIDE_LETTERS.get(lang, "NESW"),
        "example": example_facts(design, lang),
        "figures": figure_facts(design),
    }


def figure_facts(design: Design) -> dict:
    """The numbers printed on the pieces of the small diagrams, for their captions (None when unplayable)."""
    out: dict = {}
    try:
        pl = _safe_play(design, WRAP)
        a, b = next((a, b) for a, b in zip(pl.laid, pl.laid[1:]) if b.cell[0] < a.cell[0])
        out["wrap"] = {"out": a.step, "in": b.step, "row": a.cell[1] + 1}
    except (ValueError, StopIteration):
        out["wrap"] = None
    try:
        pl = _safe_play(design, LOOP)
        out["loop"] = {"last": pl.laid[-1].step}
    except ValueError:
        out["loop"] = None
    try:
        pl = _safe_play(design, PASS_OVER)
        top = pl.laid[-1]
        under = next(q for q in pl.laid if q.cell == top.cell and q is not top)
        out["pass_over"] = {"top": top.step, "under": under.step, "round": top.round, "earlier": under.round}
    except (ValueError, StopIteration):
        out["pass_over"] = None
    return out


def _mm(v: float) -> str:
    return f"{v:g}"


DIAGRAMS = {  # the rulebook diagrams, by the short name a rules text gives after 'tubo.'
    "board": board_diagram,
    "fitting": fitting_diagram,
    "wrap": wrap_diagram,
    "loop": loop_diagram,
    "close_exit": close_exit_diagram,
    "pass_over": pass_over_diagram,
    "example": example_diagram,
}
