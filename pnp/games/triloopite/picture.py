"""The analysed layout as a picture: every tile, each closed loop in its own colour and dash.

`layout_svg` draws a layout (cell -> lines) with its analysis; `loops_command` is what
`pnp loops` runs (registered as the game's `loops` extra): it plays a seeded game, or
reads a layout from a small YAML file, analyses it, writes the SVG and returns a report.

Layout file (cells are axial [q, r]: q columns right, r down a column; ports 0 top,
clockwise to 5):

    tiles:
      - {at: [0, 0], lines: [[0, 2]]}            # the start tile is the one at [0, 0]
      - {at: [1, -1], variety: crab, turn: 2}   # or a variety of the design, turned 0..5
    hands: [2, 3, 0]                             # optional: tiles left in each hand
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import yaml

from pnp.engine.agents import make_agent
from pnp.engine.playout import play
from pnp.errors import PnpError
from pnp.games.triloopite.engine import TriloopiteGame, design_tiles
from pnp.games.triloopite.geometry import (
    SQRT3,
    Analysis,
    Hex,
    Line,
    analyse,
    centre,
    line_problems,
    norm_line,
    rotate_lines,
)
from pnp.games.triloopite.scoring import read_rules, score
from pnp.model import Design
from pnp.render.pathtiles import Link, hexagon, path_d
from pnp.render.svg import Canvas

INK = "#1a1a1a"
LOOP_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#56B4E9", "#E69F00", "#000000", "#F0E442")
LOOP_DASHES = ("", "2,1.2", "0.6,0.9", "3,1,0.6,1", "1.5,1.5", "4,1.5", "0.6,2", "2,0.6")


def layout_svg(layout: Mapping[Hex, Sequence[Line]], analysis: Analysis, side: float = 10.0,
               start: Hex | None = (0, 0), title: str = "", notes: Sequence[str] = ()) -> str:
    """SVG of a layout: tiles, plain lines grey, loop k in colour k with dash pattern k, a legend below."""
    shape = hexagon(side, "flat")
    h = SQRT3 * side
    cells = list(layout) or [(0, 0)]
    xs = [centre(c, side)[0] for c in cells]
    ys = [centre(c, side)[1] for c in cells]
    m = 8.0
    x0, y0 = min(xs) - side - m, min(ys) - h / 2 - m - (8.0 if title else 0.0)
    legend = 6.0 + 4.5 * (len(analysis.loops) + len(notes))
    w = max(xs) - min(xs) + 2 * side + 2 * m
    ht = max(ys) - min(ys) + h + 2 * m + (8.0 if title else 0.0) + legend
    w = max(w, 120.0)
    c = Canvas(w, ht)
    c.rect(0, 0, w, ht, fill="#ffffff")

    def origin(cell: Hex) -> tuple[float, float]:
        cx, cy = centre(cell, side)
        return (cx - side - x0, cy - h / 2 - y0)

    owner: dict[tuple[Hex, int], int] = {}
    for k, lp in enumerate(analysis.loops):
        for v in lp.visits:
            owner[v] = k
    lw = side * 0.2
    for cell in sorted(layout):
        o = origin(cell)
        corners = [(x + o[0], y + o[1]) for x, y in shape.vertices]
        fill = "#fff7b8" if cell == start else "#f4f4f4"
        c.polygon(corners, fill=fill, stroke="#9a9a9a", stroke_width=0.25)
        for i, ln in enumerate(layout[cell]):
            a, b = norm_line(ln)
            d = path_d(shape, Link(a, b), o)
            k = owner.get((cell, i))  # type: ignore[assignment]
            c.path(d, stroke=INK, stroke_width=lw + 0.7, stroke_linecap="butt")
            if k is None:
                c.path(d, stroke="#d0d0d0", stroke_width=lw, stroke_linecap="butt")
            else:
                c.path(d, stroke=LOOP_COLOURS[k % len(LOOP_COLOURS)], stroke_width=lw, stroke_linecap="butt")
                dash = LOOP_DASHES[k % len(LOOP_DASHES)]
                if dash:
                    c.path(d, stroke="#ffffff", stroke_width=lw * 0.35, stroke_linecap="butt",
                           stroke_dasharray=dash)
        if cell == start:
            cx, cy = centre(cell, side)
            c.text(cx - x0, cy - y0 + h * 0.38, "start", size=side * 0.22, anchor="middle", fill=INK)
    if title:
        c.text(m, 7.0, title, size=4.0, weight="bold", fill=INK)
    y = ht - legend + 4.0
    for k, lp in enumerate(analysis.loops):
        col, dash = LOOP_COLOURS[k % len(LOOP_COLOURS)], LOOP_DASHES[k % len(LOOP_DASHES)]
        c.line((m, y - 1.0), (m + 12, y - 1.0), stroke=INK, stroke_width=2.6)
        c.line((m, y - 1.0), (m + 12, y - 1.0), stroke=col, stroke_width=2.0)
        if dash:
            c.line((m, y - 1.0), (m + 12, y - 1.0), stroke="#ffffff", stroke_width=0.7, stroke_dasharray=dash)
        c.text(m + 15, y, f"loop {k + 1}: {lp.length} tiles" + "".join(_flags(analysis, k)), size=3.0, fill=INK)
        y += 4.5
    for note in notes:
        c.text(m, y, note, size=3.0, fill=INK)
        y += 4.5
    return c.to_string()


def _flags(a: Analysis, k: int) -> list[str]:
    out = []
    if k in a.self_crossing:
        out.append(", crosses itself (figure 8)")
    crosses = sorted({j for p in a.crossing_pairs if k in p for j in p if j != k})
    if crosses:
        out.append(", crosses loop " + ", ".join(str(j + 1) for j in crosses))
    inside = sorted(o for i, o in a.nested_pairs if i == k)
    if inside:
        out.append(", inside loop " + ", ".join(str(j + 1) for j in inside))
    if k in a.through_start:
        out.append(", through the start tile")
    return out


def read_layout(path: Path, design: Design) -> tuple[dict[Hex, tuple[Line, ...]], list[int]]:
    """A layout file (see the module docstring) -> (layout, hands); PnpError naming what is wrong."""
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise PnpError(f"{path}: cannot read the layout: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("tiles"), list):
        raise PnpError(f"{path}: expected a mapping with 'tiles:' (a list of {{at: [q, r], lines: [[a, b]]}})")
    varieties = {v.id: v for v in design_tiles(design)}
    layout: dict[Hex, tuple[Line, ...]] = {}
    for i, t in enumerate(data["tiles"], start=1):
        where = f"{path}: tile {i}"
        if not isinstance(t, dict) or "at" not in t:
            raise PnpError(f"{where}: expected {{at: [q, r], lines: [[a, b]]}} or "
                           "{at: [q, r], variety: crab, turn: 0}")
        try:
            q, r = (int(x) for x in t["at"])
        except (TypeError, ValueError):
            raise PnpError(f"{where}: at {t['at']!r}; expected [q, r]") from None
        if "lines" in t:
            lines = tuple(norm_line(ln) for ln in t["lines"])
        elif t.get("variety") in varieties:
            lines = rotate_lines(varieties[t["variety"]].lines, int(t.get("turn", 0)))
        else:
            raise PnpError(f"{where}: variety {t.get('variety')!r}; expected lines or one of {', '.join(varieties)}")
        probs = line_problems(lines)
        if probs:
            raise PnpError(f"{where}: {probs[0]}")
        if (q, r) in layout:
            raise PnpError(f"{where}: cell [{q}, {r}] holds two tiles")
        layout[(q, r)] = lines
    hands = [int(h) for h in data.get("hands", [])]
    return layout, hands


def loops_command(design: Design, out: Path, layout_file: Path | None = None, seed: int = 1,
                  players: int | None = None, agent: str = "greedy", mode: str | None = None) -> str:
    """Play a seeded game (or read a layout file), analyse its loops, write the SVG; the report text."""
    rules = read_rules(design)
    if layout_file is not None:
        layout, hands = read_layout(layout_file, design)
        head = f"{design.meta.title}: layout {layout_file}"
    else:
        n = players or design.meta.players.min
        game = TriloopiteGame(design, n, mode=mode)
        res = play(game, [make_agent(agent) for _ in range(n)], seed, keep_state=True)
        state = res.state
        layout, hands = state.board.layout(), [sum(h) for h in state.hands]  # type: ignore[union-attr]
        head = f"{design.meta.title}: {game.mode} game, {n} player{'s' if n > 1 else ''}, {agent} agents, seed {seed}"
    a = analyse(layout, start=(0, 0) if (0, 0) in layout else None)
    s = score(a, hands, rules)
    notes = [f"{len(layout)} tiles, {a.count} loop(s), longest {a.longest}, {a.open_curves} open curve(s); "
             f"score {s.total} ({s.loop_points} + {s.longest_points} + bonuses {s.bonus_points} "
             f"- hand {s.penalty})"]
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(layout_svg(layout, a, title=head, notes=notes), encoding="utf-8")
    lines = [head, f"  {notes[0]}"]
    for k, lp in enumerate(a.loops):
        lines.append(f"  loop {k + 1}: {lp.length} tiles" + "".join(_flags(a, k)))
    lines += [f"  {t}" for t in s.lines()]
    if (mode or rules.mode) == "first":
        lines.append(f"  first game: {sum(hands)} tile(s) in hand: {rules.verdict(sum(hands))}")
    lines.append(f"  wrote {out}")
    return "\n".join(lines)
