"""TriLOOPite's scripted positions: witness layouts, the placement cases and the worked games.

Every layout a TriLOOPite diagram shows is laid tile by tile under the placement rules
(geometry.Board, witnesses.py) or played on the rules engine (the worked first game, the
seeded standard game) and analysed by geometry.analyse, so a diagram can only show a legal
table and what a caption claims is what the analysis finds. A design whose tiles cannot lay
one raises ValueError.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.engine import IllegalActionError
from pnp.engine.agents import make_agent
from pnp.engine.playout import play
from pnp.errors import DesignError
from pnp.games.triloopite.engine import KEEP, TriloopiteGame, start_and_bag
from pnp.games.triloopite.geometry import Analysis, Board, Hex, Line, Variety, analyse
from pnp.games.triloopite.witnesses import WITNESSES, Built, build_witness
from pnp.model import Design
from pnp.rulebook.run import shared_by_languages

PLAYERS = ("Alice", "Bob", "Carole")  # the seed's own example names
GENDERS = {"Alice": "f", "Bob": "m", "Carole": "f"}  # what the worked games' sentences agree with (il / elle)


def design_bag(design: Design) -> tuple[Variety, list[Variety]]:
    try:
        return start_and_bag(design)
    except DesignError as exc:
        raise ValueError(str(exc)) from None


def witness(design: Design, name: str, alternative: int = 0) -> Built:
    """A witness layout of `name` the design's tiles can lay, trying alternative number
    `alternative` first, then the others in order (ValueError if none can be laid)."""
    if name not in WITNESSES:
        raise ValueError(f"no witness {name!r}; expected one of {', '.join(WITNESSES)}")
    start, bag = design_bag(design)
    problems = []
    options = list(WITNESSES[name])
    k = alternative % len(options)
    for desc, make in options[k:] + options[:k]:
        built = build_witness(make(), start, bag, description=desc)
        if built.board is not None:
            return built
        problems.append(f"{desc}: {built.problem}")
    raise ValueError(f"the design's tiles cannot lay {name}: " + "; ".join(problems))


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
    start, bag = design_bag(design)
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


@shared_by_languages
def first_game(design: Design) -> FirstGame:
    """Play FIRST_GAME on the engine (first game, 3 players); ValueError if the design cannot."""
    built = witness(design, FIRST_GAME_WITNESS)
    order = [built.board.hex_of(cl) for cl in built.board.order]  # type: ignore[union-attr]
    wlines = built.board.layout()  # type: ignore[union-attr]
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
                st.apply_action(game.place_action(v, rot, st.board.cell_of(cell)))  # type: ignore[arg-type]
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
    row = rows.row(sum(hands))  # type: ignore[assignment]
    verdict = row.value if row is not None and isinstance(row.value, dict) else {"en": "", "fr": ""}  # type: ignore[attr-defined]
    return FirstGame(layout, turn_of, turns, hands, a, verdict, row.label if row is not None else "")  # type: ignore[attr-defined]


@shared_by_languages
def standard_game(design: Design):
    """The seeded standard game of the worked example: (final state, analysis, score)."""
    game = TriloopiteGame(design, STANDARD_GAME["players"], mode="standard")  # type: ignore[arg-type]
    res = play(game, [make_agent(STANDARD_GAME["agent"]) for _ in range(game.players)], STANDARD_GAME["seed"],  # type: ignore[arg-type]
               keep_state=True)
    st = res.state
    a, s = st.final()  # type: ignore[union-attr]
    return st, a, s
