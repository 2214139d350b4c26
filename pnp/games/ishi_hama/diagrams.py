"""Ishi-Hama rulebook diagrams, drawn from the design and played through the engine.

Every position shown is one of pnp.games.ishi_hama.scripts: a hand-made position
(`IshiHamaGame.position`) or the initial one, then played on the rules engine, so a diagram
can only show what the rules allow; pnp.games.ishi_hama.painter draws the tiles exactly as
they are printed.

Diagrams (listed in DIAGRAMS, given to the GameSpec; from a rules text:
`{{ diagram("ishi_hama.combination") }}`):

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
* `ishi_hama.position(board=..., reserves=..., points=..., player=..., phase=..., turns=...)` — a whole
  position as `pnp play` draws it (without its clickable parts), from the data the page exports
  (pnp.games.ishi_hama.play.position).
"""

from __future__ import annotations

from pnp.games.ishi_hama.components import INK
from pnp.games.ishi_hama.engine import IshiHamaGame
from pnp.games.ishi_hama.facts import label, player_name
from pnp.games.ishi_hama.painter import GROUND, Painter, arrow, cross, strip, tick, turn_arrow
from pnp.games.ishi_hama.play import picture
from pnp.games.ishi_hama.scripts import (
    BIG,
    BIG_WINDOW,
    COMBO_WINDOW,
    CONNECTION,
    EXAMPLE_WINDOW,
    PHASE1_WINDOW,
    SCORE,
    SCORE_WINDOW,
    big_play,
    combination_play,
    end_of_turn,
    example_play,
    paths_mask,
    phase1_play,
    score_play,
    turned_mask,
    window,
)
from pnp.model import Design
from pnp.render.svg import Canvas
from pnp.rulebook.figures import BAD, GOOD, HIGHLIGHT


def phase1_diagram(design: Design, lang: str, unit: float = 11.0) -> str:
    """phase1(): tiles placed apart; dots where the next tile may go, crosses where it may not."""
    pl = phase1_play(design)
    g, st = pl.game, pl.state
    p = Painter(design, *window(g, PHASE1_WINDOW), unit=unit)
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


def combination_diagram(design: Design, lang: str, stage: str = "before", unit: float = 11.0) -> str:
    """combination(stage="before"): before (numbered arrows: turn, move, swaps) or after the combination."""
    if stage not in ("before", "after"):
        raise ValueError(f"stage {stage!r}; expected before or after")
    pl = combination_play(design)
    g = pl.game
    p = Painter(design, *window(g, COMBO_WINDOW), unit=unit)
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
        turned = turned_mask(pl)
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
    p = Painter(design, range(1, 3), range(1, 3), unit=unit, margin=0, coords=False)
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


def scoring_diagram(design: Design, lang: str, unit: float = 11.0) -> str:
    """scoring(): a group of 5 (framed) is removed: 4 tiles to the opponent's reserve, 1 to the score strip."""
    pl = score_play(design)
    g, st = pl.game, pl.state
    before = pl.start.clone()
    placed = pl.events[0][1]
    cols, rows = window(g, SCORE_WINDOW)
    p = Painter(design, cols, rows, unit=unit)
    side = 4 * unit + 2 + unit * 1.2  # the strips on the right
    c = Canvas(p.width + side, p.height)
    p.ground(c, g)
    # the board at the end of the turn, before scoring: the start position plus the placed tile
    group = [cl for cl in range(g.N) if before.kind[cl] >= 0] + [placed]
    p.tiles_of(c, before)
    k = g.kind_index(*SCORE[0][1].split())
    p.tile(c, g, k, paths_mask(SCORE[0][3]), p.xy(g, placed))
    for cl in group:
        p.frame(c, g, cl)
    scorer, opp = 1, 0  # Blue scores; Orange receives
    given = [(kk, g.kinds[kk].mask) for kk in range(g.K) for _ in range(st.reserve[opp][kk])]
    marker = [(kk, g.kinds[kk].mask) for kk in range(g.K) for _ in range(st.scored[scorer][kk])]
    sx = p.width + unit * 0.6
    y1, y2 = p.margin + unit * 0.4, p.margin + unit * 2.6
    strip(c, p, g, sx, y1, given, label("reserve", lang, name=player_name(g.player_name(opp), lang)),
           "#fdf3dc")
    strip(c, p, g, sx, y2, marker, label("score", lang, name=player_name(g.player_name(scorer), lang)), "#ffffff")
    gx, gy = p.centre(g, group[-1])
    for (ax, ay), (bx, by), count in (((gx + unit * 0.55, gy - unit * 0.3), (sx - 0.8, y1 + unit * 0.5), len(given)),
                                      ((gx + unit * 0.55, gy + unit * 0.1), (sx - 0.8, y2 + unit * 0.5),
                                       len(marker))):
        arrow(c, (ax, ay), (bx, by))
        p.badge(c, (ax + bx) / 2, (ay + by) / 2, str(count))
    return c.to_string()


def big_group_diagram(design: Design, lang: str, unit: float = 11.0) -> str:
    """big_group(): a group of 6; the 5 tiles chosen, numbered in the order of choice; the one that stays."""
    pl = big_play(design)
    g, st = pl.game, pl.state
    cols, rows = window(g, BIG_WINDOW)
    p = Painter(design, cols, rows, unit=unit)
    c = Canvas(p.width, p.height)
    p.ground(c, g)
    full = pl.start.clone()
    placed = pl.events[0][1]
    p.tiles_of(c, full)
    k = g.kind_index(*BIG[0][1].split())
    p.tile(c, g, k, paths_mask(BIG[0][3]), p.xy(g, placed))
    picks = [e[1] for e in pl.events if e[0] == "pick"]
    for n, cl in enumerate(picks, start=1):
        p.frame(c, g, cl)
        x, y = p.xy(g, cl)
        p.badge(c, x + unit * 0.2, y + unit * 0.2, str(n))
    for cl in range(g.N):
        if st.kind[cl] >= 0 and p.inside(g, cl):
            p.frame(c, g, cl, "#555555", 0.6, dash=True)
            x, y = p.xy(g, cl)
            c.text(x + unit / 2, y + unit + 3.2, label("stays", lang), size=2.6, anchor="middle", weight="bold",
                   fill="#555555")
    return c.to_string()


def example_diagram(design: Design, lang: str, stage: str = "before", unit: float = 11.0) -> str:
    """example(stage="before"): the worked example before the turn (numbered arrows) or at its end, before scoring."""
    if stage not in ("before", "after"):
        raise ValueError(f"stage {stage!r}; expected before or after")
    pl = example_play(design)
    g = pl.game
    p = Painter(design, *window(g, EXAMPLE_WINDOW), unit=unit)
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
        c.text(x - u * 0.5, y + u * 1.05, label("to_reserve", lang), size=2.4, weight="bold", fill=HIGHLIGHT)
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
        before_score = end_of_turn(pl)
        p.tiles_of(c, before_score)
        for cl in before_score.groups(g.rules.group_size)[0]:
            p.frame(c, g, cl)
    return c.to_string()


def position_diagram(design: Design, lang: str, board: dict | None = None, reserves: list | None = None,
                     points: list | tuple = (0, 0), player: int = 0, phase: int = 2, turns: int = 0) -> str:
    """position(board=..., reserves=..., ...): `IshiHamaGame.position(...)` of these arguments (what `pnp play`
    exports) drawn as the page draws it: the board, both reserves and score strips, whose turn."""
    game = IshiHamaGame(design, 2)
    state = game.position(board, reserves=reserves, points=points, player=player, phase=phase, turns=turns)
    return picture(design, state, lang, clickable=False)


DIAGRAMS = {  # the rulebook diagrams, by the short name a rules text gives after 'ishi_hama.'
    "phase1": phase1_diagram,
    "combination": combination_diagram,
    "connection": connection_diagram,
    "scoring": scoring_diagram,
    "big_group": big_group_diagram,
    "example": example_diagram,
    "position": position_diagram,
}
WORDLESS = frozenset({"phase1", "combination", "connection"})
"""The diagrams that draw no words, the same in every language (drawn once for all): the others write
words (reserve, score, stays, to the reserve)."""
