"""TriLOOPite rulebook diagrams and facts, drawn from the design and checked by the rules code.

Every layout shown is laid tile by tile under the placement rules (geometry.Board, or the
engine for the worked examples) and analysed by geometry.analyse, so a diagram can only
show a legal table, and what a caption claims (a loop of 6, a figure 8...) is what the
analysis finds. Tiles are drawn as printed (components.draw_tile_face: tints, marks, the
design's line colour); the loops a diagram is about are redrawn over them in the colours
and dash patterns of `pnp loops` (picture.py), so they read in black and white too.

Diagrams (listed in DIAGRAMS, given to the GameSpec; from a rules text: `{{ diagram("triloopite.witness") }}`):

* `triloopite.varieties()` — every tile variety, its name (in the rulebook's language) and count.
* `triloopite.placement(case="legal")` — a small table and one tile being laid: `legal`,
  `line_blank` (a line meets a blank edge) or `no_line` (it touches, extends no line).
* `triloopite.witness(which="loop_of_6", alternative=0)` — a witness layout (witnesses.py): `loop_of_6`
  (tiles numbered round the loop), `figure_eight`, `crossing_loops`, `nested_loops`,
  `start_loop`; the loops concerned highlighted, the tiles that make the bonus ringed.
* `triloopite.example(part="first")` — the worked examples: `first` (a first game played
  turn by turn on the engine, tiles numbered by the turn they were laid on) and
  `standard` (the table at the end of a seeded standard game, every loop highlighted).

`rulebook_facts(design, lang)` gives the rules text its `facts` (see `rulebook_facts`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pnp.engine import IllegalActionError
from pnp.errors import DesignError
from pnp.games.triloopite.components import (
    TilesParams,
    VarietySpec,
    design_varieties,
    draw_tile_face,
    tile_shape,
)
from pnp.games.triloopite.engine import (
    KEEP,
    TILES_GENERATOR,
    TriloopiteGame,
    start_and_bag,
)
from pnp.games.triloopite.geometry import (
    BONUSES,
    SQRT3,
    Analysis,
    Board,
    Hex,
    Line,
    Variety,
    analyse,
    centre,
    lines_cross,
    norm_line,
    rotate_lines,
)
from pnp.games.triloopite.picture import INK, LOOP_COLOURS, LOOP_DASHES
from pnp.games.triloopite.scoring import BONUS_TEXT, read_rules
from pnp.games.triloopite.witnesses import WITNESSES, Built, build_witness
from pnp.model import Design
from pnp.render.pathtiles import Link, PathStyle, draw_tile, path_d
from pnp.render.svg import Canvas

HIGHLIGHT = "#C2185B"  # rings round the tiles that make a bonus; not a line or loop colour
GOOD, BAD = "#009E73", "#C62828"
LOOPS = (0, 2, 3, 4, 6, 7, 1, 5)  # picture.py's palette, the orange-like ones last: blue, green, pink...
PLAYERS = ("Alice", "Bob", "Carole")  # the seed's own example names
WORDS = {
    "en": {"places": "places it", "keeps": "keeps it",
           "keeps_drawn": "keeps it and places the {tile} kept on turn {turn}"},
    "fr": {"places": "la pose", "keeps": "la garde",
           "keeps_drawn": "la garde et pose la tuile {tile} gardée au tour {turn}"},
}


def _w(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


# --- the tiles as printed, at any size -----------------------------------------------------


class _Painter:
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
                           stroke_dasharray=_scale_dash(dash, self.side / 7.0))
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
        r = self.side * size
        c.circle((x, y), r, fill="#ffffff", stroke=INK, stroke_width=0.2)
        c.text(x, y + r * 0.42, text, size=r * (1.15 if len(text) < 2 else 0.95), anchor="middle", weight="bold",
               fill=INK)

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


def _scale_dash(dash: str, k: float) -> str:
    return ",".join(f"{float(x) * k:.2f}" for x in dash.split(","))


def _check(c: Canvas, x: float, y: float, r: float) -> None:
    c.circle((x, y), r, fill="#ffffff", stroke=GOOD, stroke_width=0.5)
    c.polyline([(x - r * 0.5, y), (x - r * 0.1, y + r * 0.45), (x + r * 0.55, y - r * 0.45)], stroke=GOOD,
               stroke_width=0.6)


def _cross(c: Canvas, x: float, y: float, r: float) -> None:
    c.circle((x, y), r, fill="#ffffff", stroke=BAD, stroke_width=0.5)
    for s in (-1, 1):
        c.line((x - r * 0.45, y - s * r * 0.45), (x + r * 0.45, y + s * r * 0.45), stroke=BAD, stroke_width=0.6)


# --- witnesses: layouts laid under the rules -----------------------------------------------


def _bag(design: Design) -> tuple[Variety, list[Variety]]:
    try:
        return start_and_bag(design)
    except DesignError as exc:
        raise ValueError(str(exc)) from None


def witness(design: Design, name: str, alternative: int = 0) -> Built:
    """A witness layout of `name` the design's tiles can lay, trying alternative number
    `alternative` first, then the others in order (ValueError if none can be laid)."""
    if name not in WITNESSES:
        raise ValueError(f"no witness {name!r}; expected one of {', '.join(WITNESSES)}")
    start, bag = _bag(design)
    problems = []
    options = list(WITNESSES[name])
    k = alternative % len(options)
    for desc, make in options[k:] + options[:k]:
        built = build_witness(make(), start, bag, description=desc)
        if built.board is not None:
            return built
        problems.append(f"{desc}: {built.problem}")
    raise ValueError(f"the design's tiles cannot lay {name}: " + "; ".join(problems))


def _featured(a: Analysis, layout: Mapping[Hex, Sequence[Line]], name: str) -> tuple[list[int], set[Hex]]:
    """The loops a witness diagram highlights and the tiles it rings."""
    if name == "loop_of_6":
        return [min(range(a.count), key=lambda k: a.loops[k].length)], set()
    if name == "start_loop":
        return [a.through_start[0]], {(0, 0)}
    if name == "figure_eight":
        k = a.self_crossing[0]
        return [k], {c for c, lns in layout.items() if len(lns) == 2 and lines_cross(*lns)
                     and all((c, i) in a.loops[k].visits for i in range(2))}
    if name == "crossing_loops":
        i, j = a.crossing_pairs[0]
        vi, vj = set(a.loops[i].visits), set(a.loops[j].visits)
        return [i, j], {c for c, lns in layout.items() if len(lns) == 2 and lines_cross(*lns)
                        and {(c, 0), (c, 1)} <= vi | vj and not {(c, 0), (c, 1)} <= vi}
    if name == "nested_loops":
        inner, outer = a.nested_pairs[0]
        return [outer, inner], set()
    raise ValueError(f"no witness {name!r}")


def witness_diagram(design: Design, lang: str, which: str = "loop_of_6", alternative: int = 0,
                    side: float = 7.0) -> str:
    """witness(which="loop_of_6", alternative=0): a layout showing a loop of 6 or a bonus (figure_eight...)."""
    name = which
    built = witness(design, name, alternative)
    layout = built.board.layout()
    a = built.analysis
    if name != "loop_of_6" and not a.bonuses.get(name):
        raise ValueError(f"the {name} witness does not score its bonus")  # pragma: no cover - checked by tests
    loops, rings = _featured(a, layout, name)
    p = _Painter(design, side)
    c = Canvas(*p.fit(list(layout)))
    p.layout(c, layout, a, loops, marks=name != "loop_of_6")
    for cell in rings:
        p.ring(c, cell)
    if name == "loop_of_6":
        for n, cell in enumerate(dict.fromkeys(a.loops[loops[0]].cells), start=1):
            p.number(c, cell, str(n))
    return c.to_string()


# --- the varieties ------------------------------------------------------------------------


def varieties_diagram(design: Design, lang: str, side: float = 9.0) -> str:
    """varieties(): every tile variety with its name and count."""
    p = _Painter(design, side)
    specs = [s for s in p.specs if s.count > 0]
    gap, label = side * 0.45, side * 1.15
    width = len(specs) * (2 * side + gap) + gap
    c = Canvas(width, p.h + label + 2)
    for i, spec in enumerate(specs):
        x = gap + i * (2 * side + gap)
        draw_tile_face(c, p.params, spec, origin=(x, 1))
        c.polygon([(vx + x, vy + 1) for vx, vy in p.shape.vertices], fill="none", stroke="#8a8a8a",
                  stroke_width=0.2)
        name = _name(spec, lang)
        size = side * 0.2
        words = name.split(": ") if ": " in name else name.split(" : ") if " : " in name else [name]
        y = 1 + p.h + size * 1.5
        for part in words[:2]:
            c.text(x + side, y, part + (":" if len(words) > 1 and part is words[0] and lang == "en" else
                                        " :" if len(words) > 1 and part is words[0] else ""),
                   size=size, anchor="middle", weight="bold" if part is words[0] else "normal", fill=INK)
            y += size * 1.25
        c.text(x + side, y, f"× {spec.count}", size=size, anchor="middle", fill=INK)
    return c.to_string()


def _name(spec: VarietySpec, lang: str) -> str:
    if isinstance(spec.name, str):
        return spec.name or spec.id
    return spec.name.get(lang) or spec.name.get("en") or spec.id


# --- placement ----------------------------------------------------------------------------

# A small table (the start tile and one tile continuing its upper end), then one tile laid:
# (cell, lines) of the table, and per case the cell and lines of the new tile.
PLACEMENT_TABLE = (((0, -1), ((1, 3),)),)
PLACEMENT_CASES = {
    "legal": ((1, 0), ((1, 5),)),        # continues the start tile's lower end
    "line_blank": ((1, -1), ((2, 4),)),  # touches two tiles; its line meets the start tile's blank edge
    "no_line": ((1, -1), ((0, 2),)),     # touches two tiles, blanks against blanks, but extends no line
}


def placement_board(design: Design, case: str) -> tuple[Board, Hex, tuple[Line, ...], str]:
    """The small table, the tile being laid, and why the rules refuse it ('' when they allow it)."""
    if case not in PLACEMENT_CASES:
        raise ValueError(f"no placement case {case!r}; expected one of {', '.join(PLACEMENT_CASES)}")
    start, bag = _bag(design)
    b = Board(6)
    b.place(b.cell_of((0, 0)), start.lines)
    for cell, lines in PLACEMENT_TABLE:
        b.place(b.cell_of(cell), lines)  # PlacementError if the table were illegal
    cell, lines = PLACEMENT_CASES[case]
    if not any(v.fits(lines) is not None for v in bag):
        raise ValueError(f"no tile of the design has the lines {list(lines)}")
    why = b.why_not(b.cell_of(cell), lines)
    if (case == "legal") == bool(why):
        raise ValueError(f"placement case {case!r} is {'refused' if why else 'allowed'} by the rules")
    return b, cell, lines, why


def placement_diagram(design: Design, lang: str, case: str = "legal", side: float = 8.0) -> str:
    """placement(case="legal"): the tile being laid is legal, or refused (line_blank, no_line)."""
    b, cell, lines, why = placement_board(design, case)
    layout = b.layout()
    p = _Painter(design, side)
    c = Canvas(*p.fit(list(layout) + [cell, (cell[0] + 1, cell[1]), (-1, 0), (-1, -1)]))
    for h in layout:  # empty neighbours: a faint outline of the honeycomb
        for n in ((h[0] + dq, h[1] + dr) for dq, dr in ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))):
            if n not in layout and n != cell:
                c.polygon(p.corners(n), fill="none", stroke="#cfcfcf", stroke_width=0.2, stroke_dasharray="1,0.8")
    p.layout(c, layout)
    p.tile(c, cell, lines, start=None)
    ok = not why
    p.ring(c, cell, GOOD if ok else BAD, 0.8)
    known, need = b.needs(b.cell_of(cell))
    mask = 0
    for a, z in lines:
        mask |= 1 << a | 1 << z
    for port in range(6):
        if not known >> port & 1:
            continue
        x, y = p.port_point(cell, port)
        if (mask >> port & 1) != (need >> port & 1):
            _cross(c, x, y, side * 0.17)
        elif need >> port & 1:
            _check(c, x, y, side * 0.17)
    x, y = p.centre(cell)
    (_check if ok else _cross)(c, x + side * 1.55, y, side * 0.3)
    return c.to_string()


# --- the worked examples ------------------------------------------------------------------

# A first game for three: per turn, the tile drawn, then the tile laid (by its place in the
# figure-8 witness' laying order) or None (the player keeps). Tiles are taken from hand when
# the drawn one is not the one laid.
FIRST_GAME = (("crab", 2), ("t3", None), ("t1", 1), ("crab", 3), ("t1", 4), ("t1", 5), ("t2", None),
              ("crab", 6), ("t4", None), ("t1", 7), ("crab", 8), ("crab", 9), ("crab", 10), ("crab", 11),
              ("crab", 12))
FIRST_GAME_WITNESS = "figure_eight"
STANDARD_GAME = {"players": 3, "seed": 2, "agent": "greedy"}


@dataclass
class FirstGame:
    layout: dict[Hex, tuple[Line, ...]]
    turn_of: dict[Hex, int]  # the turn each tile was laid on (the start tile: none)
    turns: list[dict]
    hands: list[int]
    analysis: Analysis
    verdict: dict[str, str]
    verdict_range: str


def first_game(design: Design) -> FirstGame:
    """Play FIRST_GAME on the engine (first game, 3 players); ValueError if the design cannot."""
    built = witness(design, FIRST_GAME_WITNESS)
    order = [built.board.hex_of(cl) for cl in built.board.order]
    wlines = built.board.layout()
    game = TriloopiteGame(design, len(PLAYERS), mode="first")
    ids = [v.id for v in game.varieties]
    st = game.new_initial_state()
    kept: dict[tuple[int, str], list[int]] = {}  # (player, variety) -> turns it was kept on
    turn_of: dict[Hex, int] = {}
    turns = []
    try:
        for t, (draw, place) in enumerate(FIRST_GAME, start=1):
            p = st.player
            if draw not in ids:
                raise ValueError(f"no {draw} tiles in the bag")
            st.apply_action(game.draw_action(ids.index(draw)))
            row = {"turn": t, "player": PLAYERS[p], "seat": p, "draws": draw, "laid": None, "from_turn": None}
            if place is None:
                st.apply_action(KEEP)
                kept.setdefault((p, draw), []).append(t)
            else:
                cell = order[place]
                lines = wlines[cell]
                v = next(i for i, var in enumerate(game.varieties) if var.fits(lines) is not None)
                rot = game.varieties[v].fits(lines)
                st.apply_action(game.place_action(v, rot, st.board.cell_of(cell)))
                row["laid"] = ids[v]
                turn_of[cell] = t
                if ids[v] != draw:
                    row["from_turn"] = kept[(p, ids[v])].pop(0)
                    kept.setdefault((p, draw), []).append(t)
            turns.append(row)
    except (IllegalActionError, KeyError, IndexError, StopIteration) as exc:
        raise ValueError(f"the design cannot play the first-game example ({exc})") from None
    if not st.over or not st.closed_by_loop or len(turns) != len(FIRST_GAME):
        raise ValueError("the first-game example does not end with its last tile closing a loop")
    layout = st.board.layout()
    a = analyse(layout, start=(0, 0))
    hands = [sum(h) for h in st.hands]
    rows = game.rules.verdicts
    row = rows.row(sum(hands))
    verdict = row.value if row is not None and isinstance(row.value, dict) else {"en": "", "fr": ""}
    return FirstGame(layout, turn_of, turns, hands, a, verdict, row.label if row is not None else "")


def standard_game(design: Design):
    """The seeded standard game of the worked example: (final state, analysis, score)."""
    from pnp.engine.agents import make_agent
    from pnp.engine.playout import play

    game = TriloopiteGame(design, STANDARD_GAME["players"], mode="standard")
    res = play(game, [make_agent(STANDARD_GAME["agent"]) for _ in range(game.players)], STANDARD_GAME["seed"],
               keep_state=True)
    st = res.state
    a, s = st.final()
    return st, a, s


def example_diagram(design: Design, lang: str, part: str = "first", side: float = 7.0) -> str:
    """example(part="first"): the worked first game (tiles numbered by turn), or part="standard"."""
    p = _Painter(design, side)
    if part == "first":
        g = first_game(design)
        c = Canvas(*p.fit(list(g.layout)))
        p.layout(c, g.layout, g.analysis, range(g.analysis.count), marks=False)
        for cell, t in g.turn_of.items():
            p.number(c, cell, str(t), at=_label_spot(p, g.layout[cell], cell))
        return c.to_string()
    if part == "standard":
        st, a, _ = standard_game(design)
        layout = st.board.layout()
        c = Canvas(*p.fit(list(layout)))
        p.layout(c, layout, a, range(a.count))
        for k, lp in enumerate(a.loops):
            hole = _hole(lp.cells, layout)
            if hole is not None:  # a ring round an empty space: the number in the middle
                p.number(c, hole, str(k + 1), size=0.3)
            else:
                cell = _label_cell(lp.cells)
                p.number(c, cell, str(k + 1), at=_label_spot(p, layout[cell], cell), size=0.3)
        return c.to_string()
    raise ValueError(f"no example part {part!r}; expected first or standard")


def _hole(cells: Sequence[Hex], layout: Mapping[Hex, object]) -> Hex | None:
    """The empty cell at the middle of a loop, if there is one."""
    xs = [centre(h) for h in cells]
    mx, my = sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs)
    q = round(mx / 1.5)
    r = round(my / SQRT3 - q / 2)
    best = min(((q + dq, r + dr) for dq in (-1, 0, 1) for dr in (-1, 0, 1)),
               key=lambda h: (centre(h)[0] - mx) ** 2 + (centre(h)[1] - my) ** 2)
    near = (centre(best)[0] - mx) ** 2 + (centre(best)[1] - my) ** 2 < 0.25
    return best if near and best not in layout else None


def _label_cell(cells: Sequence[Hex]) -> Hex:
    """The topmost tile of a loop (where its number goes)."""
    return min(cells, key=lambda h: (h[1] + h[0] / 2, h[0]))


def _label_spot(p: _Painter, lines: Sequence[Line], cell: Hex) -> tuple[float, float]:
    """A point of the tile clear of its lines (components' own mark placement), in canvas mm."""
    from pnp.games.triloopite.components import _mark_spot

    ox, oy = p.origin(cell)
    x, y = _mark_spot(p.shape, [norm_line(ln) for ln in lines], p.params.path_width)
    return ox + x, oy + y


# --- facts for the rules text -------------------------------------------------------------


def _range(label: str, lang: str) -> str:
    """'11+' -> '11 or more', '1-2' -> '1–2' (en dash)."""
    if label.endswith("+"):
        return f"{label[:-1]} {'ou plus' if lang == 'fr' else 'or more'}"
    return label.replace("-", "–")


def rulebook_facts(design: Design, lang: str) -> dict:
    """What a TriLOOPite rules text reads as `facts`:

    tiles (total, start: name, crabs: count, trilobites: [{id, name, mark, count, crossing}],
    varieties: [{id, name, count, lines, crossing}]), smallest_loop (the ring of 6's length),
    tables (loop_points, longest_loop_points, verdicts: rows with `range` as printed and
    `points` / `text`), bonuses ([{key, name, points}]), penalty (power, example hands and
    total), first (the worked first game, or None), standard (the worked standard game, or None).
    """
    rules = read_rules(design)
    p = _Painter(design)
    _, bag = _bag(design)
    varieties = [{"id": s.id, "name": _name(s, lang), "count": s.count, "family": s.family, "mark": s.mark,
                  "lines": len(s.lines), "crossing": s.variety().crossing(), "start": s.start}
                 for s in p.specs if s.count > 0]
    try:
        ring: Analysis | None = witness(design, "loop_of_6").analysis
    except ValueError:
        ring = None  # the design's tiles cannot lay a ring: the text reads smallest_loop as None
    example_hands = [2, 3, 0]
    facts = {
        "tiles": {
            "total": sum(v["count"] for v in varieties),
            "bag": sum(v.count for v in bag),
            "start": next(v["name"] for v in varieties if v["start"]),
            "start_count": sum(v["count"] for v in varieties if v["start"]),
            "crabs": sum(v["count"] for v in varieties if v["family"] == "crab" and not v["start"]),
            "crab_name": next((v["name"] for v in varieties if v["family"] == "crab" and not v["start"]), ""),
            "trilobites": [v for v in varieties if v["family"] == "trilobite"],
            "varieties": varieties,
            "crossing": [v for v in varieties if v["crossing"]],
            "double": [v for v in varieties if v["lines"] == 2 and not v["crossing"]],
        },
        "smallest_loop": min(lp.length for lp in ring.loops) if ring else None,
        "tables": {
            "loop_points": [{"range": _range(r.label, lang), "points": r.value} for r in rules.loop_points.rows],
            "longest_loop_points": [{"range": _range(r.label, lang), "points": r.value}
                                    for r in rules.longest_loop_points.rows],
            "verdicts": [{"range": _range(r.label, lang), "text": r.value.get(lang) or r.value.get("en", "")}
                         for r in rules.verdicts.rows],
        },
        "bonuses": [{"key": k, "name": BONUS_TEXT[k][lang if lang in ("en", "fr") else "en"],
                     "points": rules.bonuses[k]} for k in BONUSES if k in rules.bonuses],
        "penalty": {"power": rules.hand_penalty_power, "hands": example_hands,
                    "terms": [h ** rules.hand_penalty_power for h in example_hands],
                    "total": sum(h ** rules.hand_penalty_power for h in example_hands),
                    "players": list(PLAYERS)},
        "players": list(PLAYERS),
    }
    facts["first"] = _first_facts(design, lang)
    facts["standard"] = _standard_facts(design, lang, rules)
    return facts


def _first_facts(design: Design, lang: str) -> dict | None:
    try:
        g = first_game(design)
    except ValueError:
        return None
    names = {v["id"]: v for v in _variety_names(design, lang)}
    w = _w(lang)
    rows = []
    for t in g.turns:
        drawn = names[t["draws"]]["short"]
        if t["laid"] is None:
            then = w["keeps"]
        elif t["from_turn"] is None:
            then = w["places"]
        else:
            then = w["keeps_drawn"].format(tile=names[t["laid"]]["short"], turn=t["from_turn"])
        rows.append({"turn": t["turn"], "player": t["player"], "draws": drawn, "then": then,
                     "kept": t["laid"] is None, "from_turn": t["from_turn"]})
    lp = g.analysis.loops[0]
    left = [{"player": PLAYERS[i], "tiles": n} for i, n in enumerate(g.hands)]
    return {
        "turns": rows, "last": rows[-1], "placed": len(g.turn_of), "loop_length": lp.length,
        "figure_eight": bool(g.analysis.self_crossing), "hands": left, "in_hand": sum(g.hands),
        "verdict": g.verdict.get(lang) or g.verdict.get("en", ""), "verdict_range": _range(g.verdict_range, lang),
        "kept": [r for r in rows if r["kept"]],
        "from_hand": [r for r in rows if r["from_turn"] is not None],
    }


def _variety_names(design: Design, lang: str) -> list[dict]:
    """Each variety's name and a short name for the example table (the trilobites' mark, e.g. T3)."""
    out = []
    for _, spec in design_varieties(design, TILES_GENERATOR):
        name = _name(spec, lang)
        short = spec.mark or name
        out.append({"id": spec.id, "name": name, "short": short})
    return out


def _standard_facts(design: Design, lang: str, rules) -> dict | None:
    try:
        st, a, s = standard_game(design)
    except (ValueError, DesignError, IllegalActionError):
        return None
    if not a.loops:
        return None
    loops = []
    for k, lp in enumerate(a.loops):
        loops.append({"number": k + 1, "length": lp.length, "figure_eight": k in a.self_crossing,
                      "start": k in a.through_start,
                      "crosses": [j + 1 for pair in a.crossing_pairs if k in pair for j in pair if j != k],
                      "inside": [o + 1 for i, o in a.nested_pairs if i == k]})
    hands = [sum(h) for h in st.hands]
    bonus_names = {b: BONUS_TEXT[b][lang if lang in ("en", "fr") else "en"] for b in BONUSES}
    return {
        "players": STANDARD_GAME["players"], "names": list(PLAYERS[:STANDARD_GAME["players"]]),
        "placed": len(st.board.lines), "loops": loops, "count": a.count, "longest": a.longest,
        "loop_points": s.loop_points, "longest_points": s.longest_points,
        "bonuses": [{"key": k, "name": bonus_names[k], "points": v} for k, v in s.bonuses.items()],
        "bonus_points": s.bonus_points, "hands": hands,
        "penalty_terms": [h ** rules.hand_penalty_power for h in hands], "penalty": s.penalty, "total": s.total,
        "loop_range": _range(rules.loop_points.row(a.count).label, lang) if rules.loop_points.row(a.count) else "",
        "longest_range": (_range(rules.longest_loop_points.row(a.longest).label, lang)
                          if rules.longest_loop_points.row(a.longest) else ""),
    }


DIAGRAMS = {  # the rulebook diagrams, by the short name a rules text gives after 'triloopite.'
    "witness": witness_diagram,
    "varieties": varieties_diagram,
    "placement": placement_diagram,
    "example": example_diagram,
}
