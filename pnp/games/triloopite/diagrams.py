"""TriLOOPite rulebook diagrams, drawn from the design and checked by the rules code.

Every layout shown is one of pnp.games.triloopite.scripts: laid tile by tile under the
placement rules, or played on the engine for the worked examples, and analysed by
geometry.analyse, so a diagram can only show a legal table, and what a caption claims (a
loop of 6, a figure 8...) is what the analysis finds. pnp.games.triloopite.painter draws the
tiles as printed and the loops over them.

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
* `triloopite.position(tiles=[...], hands={...}, player=0, drawing=False)` — a position as `pnp play` exports
  it (play.position): game.position(...) drawn as the play page draws it for every seat (hands face down).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pnp.games.triloopite.components import _mark_spot, draw_tile_face
from pnp.games.triloopite.engine import TriloopiteGame
from pnp.games.triloopite.facts import variety_name
from pnp.games.triloopite.geometry import SQRT3, Analysis, Hex, Line, centre, lines_cross, norm_line
from pnp.games.triloopite.painter import Painter, ringed_cross, ringed_tick
from pnp.games.triloopite.picture import INK
from pnp.games.triloopite.play import picture, position_kwargs, seats_in
from pnp.games.triloopite.scripts import first_game, placement_board, standard_game, witness
from pnp.model import Design
from pnp.render.svg import Canvas
from pnp.rulebook.figures import BAD, GOOD


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
    layout = built.board.layout()  # type: ignore[union-attr]
    a = built.analysis
    if name != "loop_of_6" and not a.bonuses.get(name):  # type: ignore[union-attr]
        raise ValueError(f"the {name} witness does not score its bonus")  # pragma: no cover - checked by tests
    loops, rings = _featured(a, layout, name)  # type: ignore[arg-type]
    p = Painter(design, side)
    c = Canvas(*p.fit(list(layout)))
    p.layout(c, layout, a, loops, marks=name != "loop_of_6")
    for cell in rings:
        p.ring(c, cell)
    if name == "loop_of_6":
        for n, cell in enumerate(dict.fromkeys(a.loops[loops[0]].cells), start=1):  # type: ignore[union-attr]
            p.number(c, cell, str(n))
    return c.to_string()


def varieties_diagram(design: Design, lang: str, side: float = 9.0) -> str:
    """varieties(): every tile variety with its name and count."""
    p = Painter(design, side)
    specs = [s for s in p.specs if s.count > 0]
    gap, label = side * 0.45, side * 1.15
    width = len(specs) * (2 * side + gap) + gap
    c = Canvas(width, p.h + label + 2)
    for i, spec in enumerate(specs):
        x = gap + i * (2 * side + gap)
        draw_tile_face(c, p.params, spec, origin=(x, 1))
        c.polygon([(vx + x, vy + 1) for vx, vy in p.shape.vertices], fill="none", stroke="#8a8a8a",
                  stroke_width=0.2)
        name = variety_name(spec, lang)
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


def placement_diagram(design: Design, lang: str, case: str = "legal", side: float = 8.0) -> str:
    """placement(case="legal"): the tile being laid is legal, or refused (line_blank, no_line)."""
    b, cell, lines, why = placement_board(design, case)
    layout = b.layout()
    p = Painter(design, side)
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
            ringed_cross(c, x, y, side * 0.17)
        elif need >> port & 1:
            ringed_tick(c, x, y, side * 0.17)
    x, y = p.centre(cell)
    (ringed_tick if ok else ringed_cross)(c, x + side * 1.55, y, side * 0.3)
    return c.to_string()


def example_diagram(design: Design, lang: str, part: str = "first", side: float = 7.0) -> str:
    """example(part="first"): the worked first game (tiles numbered by turn), or part="standard"."""
    p = Painter(design, side)
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


def position_diagram(design: Design, lang: str, **data) -> str:
    """position(tiles=[[variety, rotation, [q, r]]...], hands={"0": [variety...]}, player=0, drawing=False): the
    data `pnp play` exports (play.position), laid by game.position under the placement rules and drawn by the
    play page's picture for every seat (the table, the score, the bag, the hands face down)."""
    game = TriloopiteGame(design, seats_in(data))
    state = game.position(**position_kwargs(data))
    return picture(design, state, None, lang, clickable=False)


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


def _label_spot(p: Painter, lines: Sequence[Line], cell: Hex) -> tuple[float, float]:
    """A point of the tile clear of its lines (components' own mark placement), in canvas mm."""
    ox, oy = p.origin(cell)
    x, y = _mark_spot(p.shape, [norm_line(ln) for ln in lines], p.params.path_width)
    return ox + x, oy + y


DIAGRAMS = {  # the rulebook diagrams, by the short name a rules text gives after 'triloopite.'
    "witness": witness_diagram,
    "varieties": varieties_diagram,
    "placement": placement_diagram,
    "example": example_diagram,
    "position": position_diagram,
}
WORDLESS = frozenset({"witness", "placement", "example"})
"""The diagrams that draw no words, the same in every language (drawn once for all): all but varieties,
which names the tile varieties, and position, which writes the turn, the score and the hands."""
