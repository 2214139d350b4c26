"""TUBO's scripted positions: short games played on the rules engine for the rulebook.

Every position a TUBO diagram shows, and every number its captions and worked example
quote, is reached by playing one of these scripts on `TuboGame`, so a diagram can only show
what the rules allow. Scripts are written relative to Start (its branches, then pieces as
sides: "E-W"), so any board large enough plays them; a design that cannot raises ValueError.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pnp.engine import IllegalActionError
from pnp.errors import DesignError
from pnp.games.tubo.engine import CLOSE, CONNECTORS, OVER, TuboGame, TuboState, find_component
from pnp.games.tubo.geometry import connector_of, side_of
from pnp.model import Design
from pnp.rulebook.run import shared_by_languages

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


@dataclass
class Laid:
    """A piece laid by a script, as the diagrams draw it."""

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
    state: TuboState
    laid: list[Laid] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)  # one per scripted action, what happened


def objective_cell(game: TuboGame) -> tuple[int, int]:
    """The worked example's Objective: the top-right cell when it is in the Objective zone, else the first one."""
    b = game.board
    want = (b.width - 1, 0)
    return want if b.index(want) in game.objective_cells else b.cell(game.objective_cells[0])


def stock_params(design: Design):
    _, comp = find_component(design, "tubo.stocks", "colour stock")
    return comp.params


def play(design: Design, script: list[tuple], objective: tuple[int, int] | None = None) -> Play:
    """Draft (seat 1 takes stocks 0, 2, 4..., seat 2 the others), seat 2 places the Objective,
    then the script: ("open", (x, y) | "start", side) and ("lay", "E-W" | "close")."""
    game = TuboGame(design, 2)
    st = game.new_initial_state()
    k = 0
    while st.phase == 0:  # DRAFT
        st.apply_action(game.draft_action(k))
        k += 1
    st.apply_action(game.objective_action(objective or objective_cell(game)))
    stocks = stock_params(design).stocks
    out = Play(game, st)
    for kind, *args in script:
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
            st.apply_action(game.place_action(piece))
            idx = CLOSE if piece == "close" else CONNECTORS.index(tuple(sorted(connector_of(piece))))  # type: ignore[arg-type]
            out.laid.append(Laid(cell, idx, entry, stocks[drafted].colour,
                                 p, ev["round"], len(out.laid) + 1, entry))
            ev.update(kind="lay", cell=cell, piece=idx, entry=entry, passed_over=st.passed_over > before[3])
        ev.update(loop=st.loops[p] > before[0][p], closed=st.closes[p] > before[1][p],
                  new_round=st.round > before[2], over=st.phase == OVER, winner=st.winner, reached=st.reached)
        if st.phase != OVER and st.end_cell >= 0:
            t, entry = st.target()
            ev["next"] = (game.board.cell(t), entry)
        out.events.append(ev)
    return out


def resolve_close(design: Design, script: list[tuple]) -> list[tuple]:
    """Replace ("open", "close", side) by the cell of the last Close piece laid before it."""
    game = TuboGame(design, 2)
    done: list[tuple] = []
    for item in script:
        if item[0] == "open" and item[1] == "close":
            pl = play(design, done, objective_cell(game))
            closes = [p for p in pl.laid if p.piece == CLOSE]
            if not closes:
                raise ValueError("no Close piece in play")
            done.append(("open", closes[-1].cell, item[2]))
        else:
            done.append(item)
    return done


@shared_by_languages
def safe_play(design: Design, script: list[tuple]) -> Play:
    """`play` after resolving the Close pieces; ValueError when the design's game cannot play the script."""
    try:
        return play(design, resolve_close(design, script))
    except (IllegalActionError, DesignError, IndexError) as exc:
        raise ValueError(f"this design cannot play the scripted position ({exc})") from None


def score_values(game: TuboGame) -> dict[str, int]:
    """Points per connector in hand, per loop, per Close piece laid or kept: asked of the engine's own score."""
    objective = objective_cell(game)
    base = game.position(objective).scores()[0]
    hand = game.position(objective).hand(0)
    kept = next((i for i in range(CLOSE) if hand[i] > 0), None)
    connector = "-".join("NESW"[s] for s in CONNECTORS[kept]) if kept is not None else None
    return {
        "piece": base - game.position(objective, hands={0: {connector: hand[kept] - 1}}).scores()[0]  # type: ignore[index]
        if connector else 1,
        "loop": game.position(objective, loops=[1, 0]).scores()[0] - base,
        "close": game.position(objective, closed=[1, 0]).scores()[0] - base,
        "unused_close": base - game.position(objective, hands={0: {"close": hand[CLOSE] - 1}}).scores()[0]
        if hand[CLOSE] else 0,
    }
