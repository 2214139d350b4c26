"""Ishi-Hama's scripted positions: hand-made positions and short scripts played on the rules engine.

Every position an Ishi-Hama diagram shows, and every cell its captions and worked example
name, starts from a position made from data (`IshiHamaGame.position`) or the initial one
and is then played on the engine, every step checked by it; a design that cannot play a
script raises ValueError. Cells are named as printed (C4), paths by the sides they reach.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pnp.engine import IllegalActionError
from pnp.errors import DesignError
from pnp.games.ishi_hama.engine import ACT, MARKER, PICK, IshiHamaGame, IshiHamaState
from pnp.games.ishi_hama.geometry import mask_of, side_of
from pnp.model import Design
from pnp.rulebook.run import shared_by_languages


@dataclass
class Played:
    game: IshiHamaGame
    start: IshiHamaState  # the state before the script
    state: IshiHamaState  # after it
    events: list[tuple] = field(default_factory=list)  # ("take", cell) ("select", cell) ("move", a, b)...


def paths_mask(paths: str) -> int:
    """"N+E" -> the path mask."""
    return mask_of(side_of(s) for s in paths.split("+"))


def orient(game: IshiHamaGame, state, cell: int, paths: str) -> int:
    """The rotate action that makes the tile on `cell` show `paths`."""
    return game.rotate_action(game.rot_mask[state.kind[cell]].index(paths_mask(paths)))


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
                st.apply_action(g.rotate_action(g.rot_mask[k].index(paths_mask(args[2]))))
                out.events.append(("place", c))
            elif kind == "take":
                c = g.grid.parse(args[0])
                st.apply_action(c)
                out.events.append(("take", c))
            elif kind == "select":
                c = g.grid.parse(args[0])
                st.apply_action(c)
                st.apply_action(orient(g, st, c, args[1]))
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
                st.apply_action(orient(g, st, st.other, args[1]))
                b = st.sel
                st.apply_action(orient(g, st, b, args[2]))
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


# --- the scripted positions ---------------------------------------------------------------

# phase 1: the first tiles of a game, each touching no other
PHASE1 = [("orange corner", "C3", "E+S"), ("blue tee", "E4", "N+E+S"), ("orange straight", "D5", "E+W"),
          ("blue corner", "F2", "S+W")]
PHASE1_WINDOW = (range(1, 8), range(6))  # columns B-H, rows 1-6

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
SCORE_WINDOW = (range(6), range(1, 6))  # columns A-F, rows 2-6

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


def turned_mask(pl: Played) -> int:
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


def window(game: IshiHamaGame, window) -> tuple[range, range]:
    cols, rows = window
    if cols.stop > game.grid.columns or rows.stop > game.grid.rows:
        raise ValueError(f"the diagram needs a board of at least {cols.stop} x {rows.stop} cells")
    return cols, rows


@shared_by_languages
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
            st.apply_action(game.rotate_action(game.rot_mask[k].index(paths_mask(paths))))
            out.events.append(("place", c))
    except (IllegalActionError, KeyError, ValueError) as exc:
        raise ValueError(f"this design cannot play the scripted position ({exc})") from None
    return out


@shared_by_languages
def combination_play(design: Design) -> Played:
    return run(design, COMBO_BOARD, COMBO, reserves=[["blue tee"], []])


@shared_by_languages
def score_play(design: Design) -> Played:
    return run(design, SCORE_BOARD, SCORE, reserves=[[], ["orange tee"]], player=1)


@shared_by_languages
def big_play(design: Design) -> Played:
    return run(design, BIG_BOARD, BIG, reserves=[["blue straight"], []])


@shared_by_languages
def example_play(design: Design) -> Played:
    return run(design, EXAMPLE_BOARD, EXAMPLE, reserves=[["orange tee"], []], points=EXAMPLE_POINTS, player=1)


def end_of_turn(pl: Played):
    """The worked example's board at the end of the turn: the group of 5 is still there, waiting to be scored."""
    if pl.state.step not in (PICK, MARKER):
        raise ValueError("the worked example does not end with a group to score on this design")
    return pl.state.clone()
