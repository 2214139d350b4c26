"""TUBO rulebook diagrams, drawn from the design and played through the engine.

Every position shown is reached by playing a script of pnp.games.tubo.scripts on the rules
engine, so a diagram can only show what the rules allow; pnp.games.tubo.painter draws the
pieces with the stocks' own colours and `pnp.render.pathtiles`, as the printed pieces are.

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
* `tubo.position(objective=..., round=..., pieces=...)` — a position given as data (what `pnp play` exports:
  the arguments of the engine's `game.position`), drawn as the play page draws it, without the points.
"""

from __future__ import annotations

from pnp.games.tubo.components import INK
from pnp.games.tubo.engine import CONNECTORS, TuboGame
from pnp.games.tubo.facts import example_facts
from pnp.games.tubo.geometry import DELTA, connectors, fitting, opposite, side_of
from pnp.games.tubo.painter import Painter, play_svg
from pnp.games.tubo.play import picture, position_state
from pnp.games.tubo.scripts import (
    CLOSE_EXIT,
    EXAMPLE,
    EXAMPLE_PARTS,
    LOOP,
    PASS_OVER,
    WRAP,
    objective_cell,
    safe_play,
    stock_params,
)
from pnp.model import Design
from pnp.render.svg import Canvas
from pnp.rulebook.figures import BAD, GOOD, HIGHLIGHT
from pnp.rulebook.words import SIDE_LETTERS


def board_diagram(design: Design, lang: str, unit: float = 11.0) -> str:
    """board(): the zones, Start and its branches, the Objective on a cell of its zone."""
    p = Painter(design, unit)
    c = Canvas(p.width, p.height)
    game = p.game
    p.ground(c, objective=objective_cell(game))
    return c.to_string()


def fitting_diagram(design: Design, lang: str, side: str = "W", unit: float = 13.0) -> str:
    """fitting(side="W"): a path entering from `side`; the pieces that fit, and those that do not."""
    entry = side_of(side)
    params = stock_params(design)
    colour = params.stocks[0].colour
    good = fitting(entry, connectors())
    bad = [c for c in connectors() if c not in good]
    u, gap = unit, unit * 0.35
    width = (len(good) + len(bad)) * (u + gap) + gap * 3
    height = u * 2.2
    c = Canvas(width, height)
    p = Painter(design, u, margin=0)
    pw = p.pw
    y = u * 0.45
    x = gap
    for k, con in enumerate(good + bad):
        if k == len(good):
            x += gap * 3
        p.piece_face(c, x, y, CONNECTORS.index(con), colour)
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
    pl = safe_play(design, WRAP)
    crossing = next(((a, b) for a, b in zip(pl.laid, pl.laid[1:]) if b.cell[0] < a.cell[0]), None)
    if crossing is None:
        raise ValueError("the scripted path does not cross the edge on this board")
    a, b = crossing

    def extra(p: Painter, c: Canvas) -> None:
        for q in pl.laid:
            p.frame(c, q.cell, HIGHLIGHT, 0.7)
        out_from = p.port(a.cell, 1)
        p.arrow(c, out_from, p.port(a.cell, 1, out=p.margin * 0.42))
        p.arrow(c, p.port(b.cell, 3, out=p.margin * 0.42), p.port(b.cell, 3, out=0.2))

    return play_svg(design, pl, numbers=True, unit=unit, extra=extra)


def loop_diagram(design: Design, lang: str, unit: float = 10.0) -> str:
    """loop(): the path comes back into Start: an infinite loop."""
    pl = safe_play(design, LOOP)
    if not pl.events[-1]["loop"]:
        raise ValueError("the scripted path does not close a loop on this board")
    last = pl.laid[-1]
    side = next(s for s in CONNECTORS[last.piece] if s != last.entry)

    def extra(p: Painter, c: Canvas) -> None:
        for q in pl.laid:
            p.frame(c, q.cell, HIGHLIGHT, 0.7)
        p.frame(c, pl.game.board.start, HIGHLIGHT, 0.7)
        p.loop_mark(c, last.cell, side)

    return play_svg(design, pl, numbers=True, unit=unit, extra=extra)


def close_exit_diagram(design: Design, lang: str, unit: float = 10.0) -> str:
    """close_exit(): the path goes on from a Close piece in play: 3 ways out, never back through its opening."""
    pl = safe_play(design, CLOSE_EXIT)
    close = pl.laid[-1]

    def extra(p: Painter, c: Canvas) -> None:
        p.frame(c, close.cell, HIGHLIGHT, 0.7)
        for s in range(4):
            if s == close.opening:
                x, y = p.port(close.cell, s)
                p.cross(c, x, y, p.unit * 0.13)
                continue
            p.arrow(c, p.port(close.cell, s, out=-p.unit * 0.1), p.port(close.cell, s, out=p.unit * 0.55), GOOD,
                    0.8, 2.0)

    return play_svg(design, pl, unit=unit, extra=extra)


def pass_over_diagram(design: Design, lang: str, unit: float = 10.0) -> str:
    """pass_over(): a new round's path passes over a piece of an earlier round (laid on top of it)."""
    pl = safe_play(design, PASS_OVER)
    over = next((ev for ev in pl.events if ev.get("passed_over")), None)
    if over is None:
        raise ValueError("the scripted path does not pass over an earlier one on this board")

    def extra(p: Painter, c: Canvas) -> None:
        for q in pl.laid:
            if q.round == pl.laid[-1].round:
                p.frame(c, q.cell, HIGHLIGHT, 0.7)

    return play_svg(design, pl, numbers=True, unit=unit, extra=extra)


def example_diagram(design: Design, lang: str, step: int = 1, unit: float = 10.0) -> str:
    """example(step=1): the worked example at the end of part `step` (1 to 3)."""
    if not 1 <= step <= len(EXAMPLE_PARTS):
        raise ValueError(f"no part {step}; the example has parts 1 to {len(EXAMPLE_PARTS)}")
    ex = example_facts(design, lang)
    if ex is None:
        raise ValueError("this design cannot play the worked example")
    pl = safe_play(design, EXAMPLE[:EXAMPLE_PARTS[step - 1]])
    first = 0 if step == 1 else len(safe_play(design, EXAMPLE[:EXAMPLE_PARTS[step - 2]]).laid)

    def extra(p: Painter, c: Canvas) -> None:
        for q in pl.laid[first:]:
            p.frame(c, q.cell, HIGHLIGHT, 0.6)
        ev = pl.events[-1]
        if step == 2 and ev["loop"]:
            last = pl.laid[-1]
            side = next(s for s in CONNECTORS[last.piece] if s != last.entry)
            p.loop_mark(c, last.cell, side)
        if step == 3 and ev["reached"]:
            last = pl.laid[-1]
            side = next(s for s in CONNECTORS[last.piece] if s != last.entry)
            target = pl.game.board.cell(pl.state.objective)
            p.arrow(c, p.port(last.cell, side), p.port(last.cell, side, out=p.margin * 0.42))
            p.arrow(c, p.port(target, opposite(side), out=p.margin * 0.42), p.port(target, opposite(side), out=0.2))

    return play_svg(design, pl, numbers=True, unit=unit, extra=extra)


def position_diagram(design: Design, lang: str, **position) -> str:
    """position(objective=..., ...): a position given as the data `pnp play` exports (game.position's arguments,
    JSON values), drawn by the play page's picture: the board, whose turn, each seat's stock of the round. The
    points are left out: the data holds only the current round's stock."""
    state = position_state(TuboGame(design, 2), **position)
    return picture(design, state, lang, clickable=False, scores=False)


DIAGRAMS = {  # the rulebook diagrams, by the short name a rules text gives after 'tubo.'
    "board": board_diagram,
    "fitting": fitting_diagram,
    "wrap": wrap_diagram,
    "loop": loop_diagram,
    "close_exit": close_exit_diagram,
    "pass_over": pass_over_diagram,
    "example": example_diagram,
    "position": position_diagram,
}
WORDLESS = frozenset({"board", "wrap", "loop", "close_exit", "pass_over", "example"})
"""The diagrams that draw no words, the same in every language (drawn once for all): all but fitting,
which names the sides in the rulebook's language, and position, which says whose turn it is."""
