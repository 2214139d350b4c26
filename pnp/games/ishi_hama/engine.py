"""The Ishi-Hama rules engine: every rule of seed 001, read from the loaded design.

The design supplies everything: the board size from the `ishi_hama.board` component's
params, the tiles exactly as `ishi_hama.tiles` prints them (colours in seat order, shapes
and how many of each), and the rule numbers stated once under `rules:`
(tiles_per_colour, first_player, group_size, tiles_to_opponent, points_in_game).

Rules as implemented (seed 001, ../shared/specs/ishi-hama.md). Decisions the seed leaves
open are marked *decision*; the rulebook quotes them.

Setup
* Each player takes the tiles of one colour into their reserve. The player with the
  `first_player` colour (orange) is seat 1 and starts phase 1.
* Tiles are told apart only by colour and shape, so a reserve is a count per (colour,
  shape); a tile's orientation is a quarter-turn rotation of its printed paths.

Phase 1 — filling the board
* In turn, each player places one tile of their reserve, in any orientation, on an empty
  cell touching no tile (no common side with a tile; corners may touch).
* At the start of a player's turn, if they have no tile left or no empty cell touching
  no tile remains, phase 2 begins and that same player plays the first phase-2 turn
  (*decision*: "il enchaîne sur la phase 2"). Unplaced tiles stay in their reserves.
  The metric `phase1_blocked` counts games where phase 1 ended for lack of a
  non-touching cell while the player still had tiles.

Phase 2 — a turn
1. If the player's reserve holds tiles, they place one of them (either colour) on any
   empty cell in any orientation (touching allowed); otherwise they take any tile from
   the board into their reserve. That tile's colour is the colour of the turn.
   (*decision*: a player with an empty reserve facing an empty board passes; it never
   happens in the standard design.)
2. Then, optionally, one combination with a board tile of the turn's colour (any such
   tile, the one just placed included — *decision*):
   a. select it and turn it freely (keeping its orientation is allowed);
   b. a move: 1 or 2 cells in a straight line, orthogonally, onto an empty cell; for 2
      cells the cell in between must be empty too (*decision*: straight, as "la case
      intermédiaire" implies one intermediate cell);
   c. a chain of swaps: the tile exchanges places with a touching tile of any colour,
      and the player re-orients both tiles freely; the chain goes on while the tile
      touches a tile it has not swapped with yet (*decision*: each other tile is swapped
      at most once a turn, so chains end — after a swap the two tiles always touch, so
      the seed's "tant que la tuile jouée est en contact" is read as contact with tiles
      not yet swapped).
   The player does b then c, or c then b, or only one of them; a combination holds at
   least one of b and c (*decision*: the seed's "ne réaliser que l'une ou l'autre";
   a rotation alone is no combination). Once the move follows swaps, the chain is over.

Connection and scoring
* Two tiles are connected when they have the same colour, share a side and both paths
  reach that side. A group is a set of tiles linked by connections.
* Groups are scored at the end of the turn (after the combination, or after the
  placement or take when the player makes none) — *decision*: intermediate positions
  inside a combination never score. Every group of `group_size` (5) or more tiles, of
  either colour, scores for the player whose turn it is.
* Scoring a group: the player removes `group_size` connected tiles of it, gives
  `tiles_to_opponent` (4) of them to the opponent's reserve, and puts the last one on
  their score strip (1 point; it never comes back into play). The player chooses which
  tile is the score tile (only its shape can differ).
* Groups larger than 5 (*decision*): the player chooses 5 tiles of the group that are
  connected among themselves (one at a time, each connected to one already chosen);
  the other tiles stay on the board. Groups are then looked for again: whatever still
  forms a group of 5 or more scores again, one point a group of 5, until none is left
  (so a group of 10 can score 2). With several groups at once, the player chooses the
  order by the first tile chosen.
* The game ends as soon as the `points_in_game`-th (7th) point of the game is scored;
  further groups are not scored. Most points wins (7 is odd: no tie).
* Safety cap (*decision*, not a rule): after `max_turns` turns (default 600) the game
  stops unfinished, as a draw; metric `unfinished`.
* Results: 1 for the winner, 0 for the other; a draw gives 0 to both. No chance events:
  the game is deterministic.

Action encoding (N cells, K tile kinds = colours x shapes, as printed; pnp.engine.codec):
a turn is a sequence of decisions by the same player, each from a small list:
`cell = c` (0 <= c < N: where to place, which tile to take, which tile to select, which
tile to remove when scoring), `kind = N + k` (which tile of the reserve to place, which
shape scores), `rotate = N + K + r` (r quarter turns clockwise from the printed tile),
`move = N + K + 4 + 2*side + (cells - 1)`, `swap = N + K + 12 + side` (sides 0 N, 1 E,
2 S, 3 W), `stop = N + K + 16` (no combination / end it), `pass = N + K + 17`.
Decision order: phase 1: kind, cell, rotate. Phase 2: (kind, cell, rotate) or take
cell; then select cell or stop; rotate; then moves/swaps/stop, each swap followed by
rotate (the other tile) and rotate (the played tile). Scoring: cells to remove (only
when there is a choice), then kind of the score tile (only when the shapes differ).
Rotation steps list only distinct orientations (a straight tile has 2).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import Field, StrictInt

from pnp.engine.api import TERMINAL, Game, GameInfo, IllegalActionError, State
from pnp.engine.codec import ActionCodec
from pnp.engine.design import design_problem as _problem, find_component, game_rules
from pnp.errors import ErrorReport
from pnp.games.ishi_hama.components import BOARD_GENERATOR, TILES_GENERATOR
from pnp.games.ishi_hama.geometry import (
    SIDE_NAMES,
    Grid,
    groups,
    mask_name,
    mask_of,
    orientations,
    rotate,
    side_of,
)
from pnp.model import Design
from pnp.params import RulesSection
from pnp.registry import GeneratorContext, get_generator

DEFAULT_MAX_TURNS = 600

# phases
PHASE1, PHASE2, OVER = 1, 2, 3
# decision steps
(P_KIND, P_CELL, P_ROT, TAKE, SELECT, C_ROT, ACT, ORIENT_OTHER, ORIENT_SELF, PICK, MARKER,
 PASS_STEP) = range(12)

STEP_WORDS = {
    P_KIND: "choose a tile of the reserve", P_CELL: "choose the cell for the tile", P_ROT: "orient the tile",
    TAKE: "take a tile from the board", SELECT: "select a tile for a combination or stop",
    C_ROT: "turn the selected tile", ACT: "move, swap or stop", ORIENT_OTHER: "orient the swapped tile",
    ORIENT_SELF: "orient the played tile", PICK: "choose the tiles of the scored group",
    MARKER: "choose the score tile", PASS_STEP: "pass",
}


class Rules(RulesSection):
    """The design's `rules:` section (checked at load time, file:line messages)."""

    tiles_per_colour: StrictInt = Field(ge=1, description="the number of tiles of each colour, e.g. 14")
    first_player: str = Field(min_length=1, description="the colour that starts, e.g. orange")
    group_size: StrictInt = Field(ge=1, description="the number of connected tiles that score a point, e.g. 5")
    tiles_to_opponent: StrictInt = Field(
        ge=0, description="the number of tiles of a scored group given to the opponent, e.g. 4")
    points_in_game: StrictInt = Field(ge=1, description="the number of points after which the game ends, e.g. 7")


@dataclass(frozen=True)
class Kind:
    """One kind of tile as printed: a colour and a shape (path mask in the printed orientation)."""

    colour: int
    colour_name: str
    shape: str
    mask: int
    count: int

    @property
    def name(self) -> str:
        return f"{self.colour_name} {self.shape}"


def read_rules(design: Design) -> Rules:
    """The rule numbers under `rules:`; DesignError naming each missing or wrong one."""
    return game_rules(design, Rules)


def design_grid(design: Design) -> Grid:
    _, comp = find_component(design, BOARD_GENERATOR, "board")
    return Grid(comp.params.columns, comp.params.rows)


def design_kinds(design: Design) -> tuple[list[str], list[Kind]]:
    """(colour names in the design's order, every kind of tile) exactly as the tile generator prints them."""
    cid, comp = find_component(design, TILES_GENERATOR, "tile")
    gen = get_generator(TILES_GENERATOR)
    ctx = GeneratorContext(design=design, component_id=cid, component=comp, params=comp.params,
                           bleed=design.bleed_of(comp))
    colours: list[str] = []
    counts: dict[tuple[str, str, int], int] = {}
    for face in gen.fn(ctx):  # type: ignore[union-attr]
        d = face.data
        if d["colour"] not in colours:
            colours.append(d["colour"])
        key = (d["colour"], d["shape"], mask_of(side_of(s) for s in d["paths"]))
        counts[key] = counts.get(key, 0) + face.count
    kinds = [Kind(colours.index(col), col, shape, mask, n) for (col, shape, mask), n in counts.items()]
    return colours, kinds


class IshiHamaGame(Game):
    """Ishi-Hama for a design (2 players)."""

    def __init__(self, design: Design, players: int = 2, max_turns: int = DEFAULT_MAX_TURNS):
        report = ErrorReport()
        if players != 2:
            _problem(design, ("meta", "players"), f"Ishi-Hama is played by 2 players; got {players}", report)
            report.raise_if_any()
        self.design = design
        self.players = players
        self.max_turns = max_turns
        self.rules = rules = read_rules(design)
        self.grid = grid = design_grid(design)
        self.colours, self.kinds = design_kinds(design)
        if len(self.colours) != 2:
            _problem(design, ("components",), f"{len(self.colours)} tile colour(s) ({', '.join(self.colours)}); "
                     "expected 2, one per player", report)
        elif rules.first_player not in self.colours:
            _problem(design, ("rules", "first_player"), f"rules.first_player: '{rules.first_player}' is not a tile "
                     f"colour; expected one of {', '.join(self.colours)}", report)
        if rules.tiles_to_opponent != rules.group_size - 1:
            _problem(design, ("rules", "tiles_to_opponent"), f"rules.tiles_to_opponent: {rules.tiles_to_opponent} "
                     f"of a group of {rules.group_size} leaves {rules.group_size - rules.tiles_to_opponent} "
                     "score tiles; expected the group size less the 1 score tile", report)
        report.raise_if_any()
        first = self.colours.index(rules.first_player)
        self.seat_colour = [first, 1 - first]
        """seat_colour[seat]: the colour index a seat owns at the start (seat 1 = first_player)."""
        self.N = N = grid.size
        self.K = K = len(self.kinds)
        self.kind_colour = [k.colour for k in self.kinds]
        self.orients = [orientations(k.mask) for k in self.kinds]  # per kind: [(quarter turns, mask)]
        self.rot_mask = [[rotate(k.mask, r) for r in range(4)] for k in self.kinds]
        name = f"ishi_hama:{design.slug}"
        self.codec = ActionCodec(name, cell=(N,), kind=(K,), rotate=(4,), move=(4, 2), swap=(4,), stop=(),
                                 **{"pass": ()})
        self.kind_ids = self.codec.row("kind")
        self.rotate_ids = self.codec.row("rotate")
        self.move_ids = [self.codec.row("move", side) for side in range(4)]  # move_ids[side][cells - 1]
        self.swap_ids = self.codec.row("swap")
        self.stop_action = self.codec.encode("stop")
        self.pass_action = self.codec.encode("pass")
        self.start_reserve = [[k.count if k.colour == self.seat_colour[p] else 0 for k in self.kinds]
                              for p in range(players)]
        tiles = sum(k.count for k in self.kinds)
        # a turn: 3 placement steps, select, rotate, move, 3 steps a swap (at most tiles - 1), stop;
        # scoring: group_size picks and a score-tile choice per point
        per_turn = 7 + 3 * max(0, tiles - 1)
        self.info = GameInfo(
            name=name, num_players=players, min_utility=0.0, max_utility=1.0,
            max_game_length=max_turns * per_turn + rules.points_in_game * (rules.group_size + 1) + 4,
            max_chance_actions=0, num_distinct_actions=self.codec.size,
        )

    def player_name(self, player: int) -> str:
        return self.colours[self.seat_colour[player]]

    def new_initial_state(self) -> "IshiHamaState":
        return IshiHamaState(self)

    def position(self, board: dict[str, tuple[str, str, str]] | None = None,
                 reserves: Sequence[Sequence[str]] | None = None, points: Sequence[int] = (0, 0),
                 player: int = 0, phase: int = PHASE2, turns: int = 0) -> "IshiHamaState":
        """A hand-made position at the start of `player`'s turn (tests, rulebook examples).

        board: {"E5": ("blue", "corner", "E+S")} — colour, shape and the sides its path reaches
        as it lies; reserves: per seat, tiles as "colour shape"; points: per seat (score tiles).
        """
        st = IshiHamaState(self)
        for c in range(self.N):
            st._clear(c)
        for name, (colour, shape, paths) in (board or {}).items():
            k = self.kind_index(colour, shape)
            m = mask_of(side_of(x) for x in paths.split("+")) if paths not in ("", "-") else 0
            if m not in self.rot_mask[k]:
                raise ValueError(f"{name}: a {colour} {shape} cannot show paths {paths}; expected a turn of "
                                 f"{mask_name(self.kinds[k].mask)}")
            st._put(self.grid.parse(name), k, m)
        st.reserve = [[0] * self.K for _ in range(self.players)]
        for p, tiles in enumerate(reserves or [[], []]):
            for t in tiles:
                colour, shape = t.split()
                st.reserve[p][self.kind_index(colour, shape)] += 1
        st.scored = [[0] * self.K for _ in range(self.players)]
        for p, n in enumerate(points):
            st.scored[p][0] = n
        st.phase, st.turns = phase, turns
        st._begin_turn(player)
        return st

    # --- encoding helpers (tests, rulebook examples) --------------------------------------
    def kind_index(self, colour: str, shape: str) -> int:
        for i, k in enumerate(self.kinds):
            if k.colour_name == colour and k.shape == shape:
                return i
        raise KeyError(f"no {colour} {shape} tile in {self.design.slug}")

    def cell_action(self, cell: int | str) -> int:
        return self.grid.parse(cell) if isinstance(cell, str) else cell

    def kind_action(self, colour: str, shape: str) -> int:
        return self.kind_ids[self.kind_index(colour, shape)]

    def rotate_action(self, quarter_turns: int) -> int:
        return self.rotate_ids[quarter_turns % 4]

    def move_action(self, side: int | str, cells: int) -> int:
        s = side_of(side) if isinstance(side, str) else side
        return self.codec.encode("move", s, cells - 1)

    def swap_action(self, side: int | str) -> int:
        return self.swap_ids[side_of(side) if isinstance(side, str) else side]

    def decode(self, action: int) -> tuple[str, int, int]:
        """(kind, value, second value): ('cell', c, -1), ('kind', k, -1), ('rotate', r, -1), ('move', side,
        cells - 1), ('swap', side, -1), ('stop', -1, -1), ('pass', -1, -1)."""
        return self.codec.unpack(action)


_Laid = tuple[tuple[int, int, int], ...]
"""Tiles laid on a board to weigh a candidate: (cell, colour, paths mask as it lies) each."""

_SLOTS = ("game", "kind", "col", "mask", "reserve", "scored", "phase", "step", "player", "turn_colour",
          "pend_kind", "pend_cell", "sel", "moved", "swaps", "swap_closed", "swapped", "other", "picks",
          "pick_group", "turns", "winner", "phase1_end", "phase1_tiles", "n_moves", "n_swaps", "n_takes",
          "n_combos", "n_big", "n_passes", "_history")  # with the base's slot, for clone()


class IshiHamaState(State):
    """An Ishi-Hama position: each cell's tile (kind, orientation), reserves, score strips, and where
    the current turn stands."""

    __slots__ = _SLOTS[:-1]

    def __init__(self, game: IshiHamaGame):
        super().__init__()
        self.game = game
        N = game.N
        self.kind = [-1] * N  # kind index of the tile on each cell, -1 empty
        self.col = [-1] * N  # its colour
        self.mask = [0] * N  # its paths, as oriented
        self.reserve = [r[:] for r in game.start_reserve]
        self.scored = [[0] * game.K for _ in range(game.players)]
        self.phase = PHASE1
        self.step = P_KIND
        self.player = 0
        self.turn_colour = -1
        self.pend_kind = -1
        self.pend_cell = -1
        self.sel = -1
        self.moved = False
        self.swaps = 0
        self.swap_closed = False
        self.swapped = 0  # bitmask of cells holding tiles already swapped this turn
        self.other = -1  # the tile just swapped (its cell), to orient
        self.picks: list[int] = []
        self.pick_group = 0  # bitmask of the group being scored
        self.turns = 0
        self.winner = -1
        self.phase1_end = ""  # "exhausted" | "blocked"
        self.phase1_tiles = 0
        self.n_moves = self.n_swaps = self.n_takes = self.n_combos = self.n_big = self.n_passes = 0
        self._begin_turn(0)

    # --- API ----------------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.player

    def _legal_actions(self) -> list[int]:
        g = self.game
        st = self.step
        if st == P_KIND:
            r = self.reserve[self.player]
            return [g.kind_ids[k] for k in range(g.K) if r[k] > 0]
        if st == P_CELL:
            return self._place_cells()
        if st == P_ROT:
            return [g.rotate_ids[r] for r, _ in g.orients[self.pend_kind]]
        if st == TAKE:
            return [c for c in range(g.N) if self.kind[c] >= 0]
        if st == SELECT:
            tc = self.turn_colour
            return [c for c in range(g.N) if self.col[c] == tc] + [g.stop_action]
        if st == C_ROT or st == ORIENT_SELF:
            return [g.rotate_ids[r] for r, _ in g.orients[self.kind[self.sel]]]
        if st == ORIENT_OTHER:
            return [g.rotate_ids[r] for r, _ in g.orients[self.kind[self.other]]]
        if st == ACT:
            return self._act_options()
        if st == PICK:
            return self._pick_options()
        if st == MARKER:
            return sorted({g.kind_ids[self.kind[c]] for c in self.picks})
        return [g.pass_action]

    def _why_illegal(self, action: int) -> str:
        return "" if action in self._legal_actions() else self._why_not(action)

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return self._text(action, player)

    def returns(self) -> list[float]:
        return [1.0 if p == self.winner else 0.0 for p in range(self.game.players)]

    def clone(self) -> "IshiHamaState":
        # the greedy agent clones about 4 states per decision it weighs: this copy, written for this
        # state, is 3 times faster than the base's generic one (which inspects every list)
        new = object.__new__(IshiHamaState)
        for name in _SLOTS:
            setattr(new, name, getattr(self, name))
        new.kind = self.kind[:]
        new.col = self.col[:]
        new.mask = self.mask[:]
        new.reserve = [r[:] for r in self.reserve]
        new.scored = [s[:] for s in self.scored]
        new.picks = self.picks[:]
        new._history = self._history[:]
        return new

    def key(self) -> tuple:
        return (self.phase, self.step, self.player, tuple(self.kind), tuple(self.mask),
                tuple(map(tuple, self.reserve)), tuple(map(tuple, self.scored)), self.turn_colour, self.pend_kind,
                self.pend_cell, self.sel, self.moved, self.swaps, self.swap_closed, self.swapped, self.other,
                tuple(self.picks), self.turns, self.winner)

    def action_kind(self, action: int) -> str:
        kind = self.game.decode(action)[0]
        st = self.step
        if st in (P_KIND, P_CELL, P_ROT):
            return "place"
        if st == TAKE:
            return "take"
        if st == SELECT:
            return "select" if kind == "cell" else "no-combination"
        if st in (C_ROT, ORIENT_OTHER, ORIENT_SELF):
            return "rotate"
        if st in (PICK, MARKER):
            return "score"
        return kind  # move, swap, stop, pass

    def metrics(self) -> dict[str, int]:
        g = self.game
        over = self.phase == OVER
        pts = self.points()
        out = {
            "turns": self.turns,
            "phase1_blocked": int(self.phase1_end == "blocked"),
            "phase1_tiles": self.phase1_tiles,
            "combinations": self.n_combos,
            "moves": self.n_moves,
            "swaps": self.n_swaps,
            "takes": self.n_takes,
            "groups_over_size": self.n_big,
            "unfinished": int(over and sum(pts) < g.rules.points_in_game),
            "capped": int(over and sum(pts) < g.rules.points_in_game),  # stopped by the max_turns safety cap
            "passes": self.n_passes,
        }
        for p in range(g.players):
            out[f"points_{g.player_name(p)}"] = pts[p]
        # the final score distribution: one indicator per result (games > 0 = how many games ended so)
        total = g.rules.points_in_game
        if over and sum(pts) >= total:
            for a in range(total + 1):
                out[f"final {g.player_name(0)} {a}-{total - a} {g.player_name(1)}"] = int(pts[0] == a)
        return out

    def action_value(self, action: int) -> float:
        """Greedy heuristic, one decision ahead: the mover's point lead (x1000) plus the sum of the
        squared sizes of the connected groups on the board after the action. Decisions that change
        nothing yet look one step further: a cell to place on is worth its best orientation, a tile to
        select its best turn on its cell; choosing a reserve tile or a tile to score is worth 0."""
        g = self.game
        st = self.step
        if st in (P_KIND, PICK, MARKER, PASS_STEP):
            return 0.0
        p = self.player
        twin = self.clone()
        twin._apply(action)
        if twin.phase != OVER and twin.player == p and action != g.stop_action:
            if st == P_CELL or (st == SELECT and g.decode(action)[0] == "cell"):
                best = None
                for a in twin.legal_actions():
                    t2 = twin.clone()
                    t2._apply(a)
                    v = t2.potential(p)
                    best = v if best is None or v > best else best
                if best is not None:
                    return best
        return twin.potential(p)

    def action_values(self, actions: Sequence[int]) -> list[float]:
        """`action_value` of each action, in one pass, without playing the actions out (the greedy agent's
        whole cost). The groups of the position are found once (`_Groups`); each candidate's board differs
        from it by one or two tiles (placed, taken, turned, moved, swapped), so its sum of squared group sizes
        follows from the groups those tiles leave and join. A candidate whose board holds a group of
        `group_size` or more may score at the end of the turn, which changes the points and the board: that
        one is played out by `action_value`. The same numbers as `action_value` (tests compare them on
        hand-made and random positions)."""
        g = self.game
        st = self.step
        if g.rules.group_size < 2 or st in (P_KIND, PICK, MARKER, PASS_STEP):  # (a group of 1 scores at once)
            return [self.action_value(a) for a in actions]
        pts = self.points()
        p = self.player
        lead = 1000.0 * (pts[p] - sum(pts) + pts[p])
        limit = g.rules.group_size
        here = _Groups.of(self)
        col, mask, kind, nb = self.col, self.mask, self.kind, g.grid.nb
        out: list[float] = []
        tiles: list[_Laid]
        if st == P_CELL:  # each cell worth its best orientation (nothing scores: phase 2 goes on, phase 1 tiles touch none)
            colour = g.kind_colour[self.pend_kind]
            orients = g.orients[self.pend_kind]
            alone = lead + here.sumsq
            beside = bytearray(g.N)  # the cells with a tile of the colour beside them
            adjacent = g.grid.adjacent
            for c in range(g.N):
                if col[c] == colour:
                    for b in adjacent[c]:
                        beside[b] = 1
            for c in actions:
                if not beside[c]:  # joins nothing
                    out.append(alone)
                else:
                    out.append(lead + max(here.value_with(((c, colour, m),))[0] for _, m in orients))
            return out
        if st == SELECT:  # a tile: its best orientation (turning it never ends the turn); stop: this board
            for a in actions:
                if a == g.stop_action:
                    out.append(lead + here.sumsq if here.biggest < limit else self.action_value(a))
                    continue
                lifted = here.without(a)
                colour, masks = col[a], g.rot_mask[kind[a]]
                out.append(lead + max(lifted.value_with(((a, colour, masks[r]),))[0] for r, _ in g.orients[kind[a]]))
            return out
        if st == P_ROT:
            c, k = self.pend_cell, self.pend_kind
            tiles = [((c, g.kind_colour[k], g.rot_mask[k][self._rotation(a)]),) for a in actions]
            return self._weigh(actions, lead, limit, [here] * len(actions), tiles)
        if st == TAKE:
            return self._weigh(actions, lead, limit, [here.without(c) for c in actions], [()] * len(actions))
        if st in (C_ROT, ORIENT_SELF, ORIENT_OTHER):
            t = self.other if st == ORIENT_OTHER else self.sel
            lifted = here.without(t)
            tiles = [((t, col[t], g.rot_mask[kind[t]][self._rotation(a)]),) for a in actions]
            return self._weigh(actions, lead, limit, [lifted] * len(actions), tiles)
        # ACT: stop, a move (the tile, as it lies, to another cell), a swap (the two tiles, as they lie, exchanged)
        a0 = self.sel
        bases: list[_Groups] = []
        tiles = []
        lifted = None  # type: ignore[assignment]
        for a in actions:
            what, v, w = g.decode(a)
            if what == "move":
                b = nb[nb[a0][v]][v] if w else nb[a0][v]
                lifted = lifted or here.without(a0)
                bases.append(lifted)
                tiles.append(((b, col[a0], mask[a0]),))
            elif what == "swap":
                b = nb[a0][v]
                lifted = lifted or here.without(a0)
                bases.append(lifted.without(b))
                tiles.append(((a0, col[b], mask[b]), (b, col[a0], mask[a0])))
            else:
                bases.append(here)
                tiles.append(())
        return self._weigh(actions, lead, limit, bases, tiles)

    def _rotation(self, action: int) -> int:
        return action - self.game.rotate_ids[0]

    def _weigh(self, actions: Sequence[int], lead: float, limit: int, bases: "Sequence[_Groups]",
               tiles: "Sequence[_Laid]") -> list[float]:
        """lead + the sum of squared group sizes of each candidate's board (`bases[i]` with `tiles[i]` laid on
        it); played out by `action_value` when that board holds a group that may score."""
        out = []
        for a, base, placed in zip(actions, bases, tiles):
            v, biggest = base.value_with(placed)
            out.append(lead + v if biggest < limit else self.action_value(a))
        return out

    def potential(self, player: int) -> float:
        """The greedy agent's view of a position for `player`: point lead x1000 + sum of squared group sizes."""
        pts = self.points()
        lead = pts[player] - sum(pts) + pts[player]
        return 1000.0 * lead + sum(len(gr) ** 2 for gr in self.groups(2))

    def heuristic_returns(self) -> list[float]:
        """Each player's chance of winning as the position suggests (for search leaves, summing to 1):
        the point lead, and a group of 4 or more that the player to move may complete."""
        if self.phase == OVER:
            return self.returns()
        pts = self.points()
        lead = pts[0] - pts[1]
        near = max((len(gr) for gr in self.groups(self.game.rules.group_size - 1)), default=0)
        mover = self.current_player()
        if near and mover in (0, 1):
            lead += 0.5 if mover == 0 else -0.5  # type: ignore[assignment]
        p0 = 0.5 + 0.5 * math.tanh(lead / 2)
        return [p0, 1.0 - p0]

    # --- queries --------------------------------------------------------------------------------
    def points(self) -> list[int]:
        return [sum(s) for s in self.scored]

    def tiles_on_board(self) -> int:
        return sum(1 for k in self.kind if k >= 0)

    def links(self) -> int:
        """Connected pairs of tiles on the board (same colour, paths meeting)."""
        g = self.game
        nb, col, mask = g.grid.nb, self.col, self.mask
        n = 0
        for a in range(g.N):
            if col[a] >= 0:
                m = mask[a]
                if m & 2:
                    b = nb[a][1]
                    if b >= 0 and col[b] == col[a] and mask[b] & 8:
                        n += 1
                if m & 4:
                    b = nb[a][2]
                    if b >= 0 and col[b] == col[a] and mask[b] & 1:
                        n += 1
        return n

    def groups(self, min_size: int = 1) -> list[list[int]]:
        return groups(self.game.grid, self.col, self.mask, min_size)

    def apart_cells(self) -> list[int]:
        """Empty cells touching no tile (where phase 1 may place)."""
        kind = self.kind
        adj = self.game.grid.adjacent
        near = bytearray(self.game.N)  # a tile or a tile beside
        for c, k in enumerate(kind):
            if k >= 0:
                near[c] = 1
                for d in adj[c]:
                    near[d] = 1
        return [c for c, n in enumerate(near) if not n]

    def _any_apart_cell(self) -> bool:
        kind = self.kind
        adj = self.game.grid.adjacent
        return any(kind[c] < 0 and all(kind[d] < 0 for d in adj[c]) for c in range(self.game.N))

    # --- decision options -----------------------------------------------------------------------
    def _place_cells(self) -> list[int]:
        if self.phase == PHASE1:
            return self.apart_cells()
        return [c for c in range(self.game.N) if self.kind[c] < 0]

    def _move_options(self) -> list[int]:
        g = self.game
        nb, kind, sel = g.grid.nb, self.kind, self.sel
        out = []
        for side in range(4):
            a = nb[sel][side]
            if a >= 0 and kind[a] < 0:
                out.append(g.move_ids[side][0])
                b = nb[a][side]
                if b >= 0 and kind[b] < 0:
                    out.append(g.move_ids[side][1])
        return out

    def _swap_options(self) -> list[int]:
        g = self.game
        nb, kind, sel, swapped = g.grid.nb, self.kind, self.sel, self.swapped
        return [g.swap_ids[side] for side in range(4)
                if (a := nb[sel][side]) >= 0 and kind[a] >= 0 and not swapped >> a & 1]

    def _act_options(self) -> list[int]:
        out = [] if self.moved else self._move_options()
        if not self.swap_closed:
            out += self._swap_options()
        if self.moved or self.swaps:
            out.append(self.game.stop_action)
        return out

    def _pick_options(self) -> list[int]:
        if not self.picks:
            return sorted(c for grp in self.groups(self.game.rules.group_size) for c in grp)
        g = self.game
        nb, col, mask = g.grid.nb, self.col, self.mask
        picked = 0
        for c in self.picks:
            picked |= 1 << c
        out = set()
        for a in self.picks:
            for side in range(4):
                if mask[a] >> side & 1:
                    b = nb[a][side]
                    if (b >= 0 and not picked >> b & 1 and self.pick_group >> b & 1 and col[b] == col[a]
                            and mask[b] >> ((side + 2) & 3) & 1):
                        out.add(b)
        return sorted(out)

    # --- applying -------------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        g = self.game
        kind, v, w = g.decode(action)
        st = self.step
        p = self.player
        if st == P_KIND:
            self.pend_kind = v
            self.step = P_CELL
        elif st == P_CELL:
            self.pend_cell = v
            self.step = P_ROT
        elif st == P_ROT:
            k, c = self.pend_kind, self.pend_cell
            self.reserve[p][k] -= 1
            self._put(c, k, g.rot_mask[k][v])
            self.pend_kind = self.pend_cell = -1
            if self.phase == PHASE1:
                self.phase1_tiles += 1
                self._end_turn()
            else:
                self.turn_colour = g.kind_colour[k]
                self.step = SELECT
        elif st == TAKE:
            k = self.kind[v]
            self._clear(v)
            self.reserve[p][k] += 1
            self.n_takes += 1
            self.turn_colour = g.kind_colour[k]
            self.step = SELECT
        elif st == SELECT:
            if kind == "stop":
                self._end_turn()
            else:
                self.sel = v
                self.moved, self.swaps, self.swap_closed, self.swapped = False, 0, False, 0
                self.n_combos += 1
                self.step = C_ROT
        elif st == C_ROT or st == ORIENT_SELF:
            self.mask[self.sel] = g.rot_mask[self.kind[self.sel]][v]
            self._to_act()
        elif st == ORIENT_OTHER:
            self.mask[self.other] = g.rot_mask[self.kind[self.other]][v]
            self.step = ORIENT_SELF
        elif st == ACT:
            if kind == "stop":
                self._end_turn()
            elif kind == "move":
                side, cells = v, w + 1
                a = self.sel
                b = g.grid.nb[a][side]
                if cells == 2:
                    b = g.grid.nb[b][side]
                self._put(b, self.kind[a], self.mask[a])
                self._clear(a)
                self.sel = b
                self.moved = True
                if self.swaps:
                    self.swap_closed = True
                self.n_moves += 1
                self._to_act()
            else:  # swap
                a = self.sel
                b = g.grid.nb[a][v]
                ka, ma, kb, mb = self.kind[a], self.mask[a], self.kind[b], self.mask[b]
                self._put(a, kb, mb)
                self._put(b, ka, ma)
                self.swapped |= 1 << a
                self.other, self.sel = a, b
                self.swaps += 1
                self.n_swaps += 1
                self.step = ORIENT_OTHER
        elif st == PICK:
            self.picks.append(v)
            if len(self.picks) == 1:
                grp = next(gr for gr in self.groups(g.rules.group_size) if v in gr)
                self.pick_group = 0
                for c in grp:
                    self.pick_group |= 1 << c
                if len(grp) == g.rules.group_size:
                    self.picks = grp[:]
                else:
                    self.n_big += 1
            if len(self.picks) == g.rules.group_size:
                self._choose_marker()
        elif st == MARKER:
            self._score(v)
        else:  # pass
            self.n_passes += 1
            self._end_turn()

    def _put(self, c: int, k: int, m: int) -> None:
        self.kind[c] = k
        self.col[c] = self.game.kind_colour[k]
        self.mask[c] = m

    def _clear(self, c: int) -> None:
        self.kind[c] = -1
        self.col[c] = -1
        self.mask[c] = 0

    def _to_act(self) -> None:
        """Back to the move/swap choice; the turn ends by itself when only 'stop' is left."""
        self.step = ACT
        if self._act_options() == [self.game.stop_action]:
            self._end_turn()

    def _begin_turn(self, p: int) -> None:
        g = self.game
        self.player = p
        self.turn_colour = -1
        self.sel = self.other = -1
        if self.turns >= g.max_turns:
            self._finish()
            return
        if self.phase == PHASE1:
            if not any(self.reserve[p]):
                self.phase1_end = "exhausted"
                self.phase = PHASE2
            elif not self._any_apart_cell():
                self.phase1_end = "blocked"
                self.phase = PHASE2
            else:
                self.step = P_KIND
                return
        if any(self.reserve[p]):
            self.step = P_KIND
        elif any(k >= 0 for k in self.kind):
            self.step = TAKE
        else:
            self.step = PASS_STEP

    def _end_turn(self) -> None:
        """Score every group of group_size or more, then the next player's turn."""
        g = self.game
        self.sel = self.other = -1
        self.step = -1
        found = self.groups(g.rules.group_size)
        if found:
            self.picks = []
            self.pick_group = 0
            if len(found) == 1 and len(found[0]) == g.rules.group_size:
                self.picks = found[0][:]
                self._choose_marker()
            else:
                self.step = PICK
            return
        self.turns += 1
        self._begin_turn((self.player + 1) % g.players)

    def _choose_marker(self) -> None:
        kinds = {self.kind[c] for c in self.picks}
        if len(kinds) == 1:
            self._score(kinds.pop())
        else:
            self.step = MARKER

    def _score(self, marker: int) -> None:
        g = self.game
        p = self.player
        opp = (p + 1) % g.players
        given = False
        for c in self.picks:
            k = self.kind[c]
            if k == marker and not given:
                given = True
                self.scored[p][k] += 1
            else:
                self.reserve[opp][k] += 1
            self._clear(c)
        self.picks = []
        self.pick_group = 0
        if sum(self.points()) >= g.rules.points_in_game:
            self.turns += 1
            self._finish()
            return
        self._end_turn()

    def _finish(self) -> None:
        self.phase = OVER
        self.step = -1
        pts = self.points()
        best = max(pts)
        leaders = [p for p, v in enumerate(pts) if v == best]
        self.winner = leaders[0] if len(leaders) == 1 and sum(pts) >= self.game.rules.points_in_game else -1

    # --- text -----------------------------------------------------------------------------------
    def _why_not(self, action: int) -> str:
        g = self.game
        try:
            kind, v, _ = g.decode(action)
        except IllegalActionError as exc:
            return str(exc)
        st = self.step
        want = STEP_WORDS.get(st, "")
        if st in (P_CELL,) and kind == "cell":
            if self.kind[v] >= 0:
                return f"{g.grid.name(v)} is not empty; expected an empty cell"
            if self.phase == PHASE1:
                return f"in phase 1 a tile touches no other tile and {g.grid.name(v)} does; expected an empty " \
                       "cell with no tile on its 4 sides"
        if st == P_KIND and kind == "kind":
            return f"no {g.kinds[v].name} tile in the reserve; expected a tile of the reserve"
        if st == SELECT and kind == "cell":
            return (f"a combination plays a tile of the turn's colour ({g.colours[self.turn_colour]}); "
                    f"expected one of those tiles, or stop")
        if st == TAKE and kind == "cell":
            return f"no tile on {g.grid.name(v)}; expected a tile on the board"
        if st == ACT:
            if kind == "move":
                if self.moved:
                    return "the tile has already moved this turn; expected swaps or stop"
                return "a move goes 1 or 2 cells in a straight line through empty cells only"
            if kind == "swap":
                if self.swap_closed:
                    return "the swaps ended when the tile moved; expected stop"
                return "a swap exchanges the tile with a touching tile it has not swapped with yet this turn"
            if kind == "stop":
                return "a combination holds a move or at least one swap; expected a move or a swap"
        if st == PICK and kind == "cell":
            return "the score takes tiles of a group of 5 or more, each connected to one already chosen"
        return f"it is time to {want}"

    def _text(self, action: int, player: int | None = None) -> str:
        g = self.game
        who = g.player_name(self.player if player is None else player)
        try:
            kind, v, w = g.decode(action)
        except IllegalActionError:
            return f"action {action}"
        st = self.step
        if kind == "cell":
            where = g.grid.name(v) if v < g.N else str(v)
            if st == P_CELL:
                k = g.kinds[self.pend_kind].name if self.pend_kind >= 0 else "a tile"
                return f"{who} places the {k} on {where}"
            if st == TAKE:
                return f"{who} takes the tile on {where}"
            if st == SELECT:
                return f"{who} plays the tile on {where}"
            if st == PICK:
                return f"{who} scores the tile on {where}"
            return f"{who} chooses {where}"
        if kind == "kind":
            name = g.kinds[v].name if v < g.K else str(v)
            a = "an" if name[:1] in "aeiou" else "a"
            return f"{who} scores with {a} {name}" if st == MARKER else f"{who} takes {a} {name} from the reserve"
        if kind == "rotate":
            target = self.other if st == ORIENT_OTHER else self.sel if st in (C_ROT, ORIENT_SELF) else -1
            k = self.pend_kind if st == P_ROT else self.kind[target] if target >= 0 else -1  # type: ignore[assignment]
            paths = f" with paths {mask_name(g.rot_mask[k][v])}" if k >= 0 else f" {v} quarter turn(s)"  # type: ignore[call-overload, operator]
            what = "the swapped tile" if st == ORIENT_OTHER else "the tile"
            return f"{who} orients {what}{paths}"
        if kind == "move":
            return f"{who} moves the tile {w + 1} cell(s) {SIDE_NAMES[v]}"
        if kind == "swap":
            return f"{who} swaps the tile with its {SIDE_NAMES[v]} neighbour"
        if kind == "stop":
            return f"{who} stops"
        return f"{who} passes"

    def __str__(self) -> str:
        g = self.game
        glyph = {0: "·", 1: "╵", 2: "╶", 4: "╷", 8: "╴", 3: "└", 6: "┌", 12: "┐", 9: "┘", 5: "│", 10: "─",
                 7: "├", 14: "┬", 13: "┤", 11: "┴", 15: "┼"}
        rows = []
        for y in range(g.grid.rows):
            row = []
            for x in range(g.grid.columns):
                c = g.grid.index(x, y)
                if self.kind[c] < 0:
                    row.append(" .")
                else:
                    row.append(g.colours[self.col[c]][0].upper() + glyph[self.mask[c]])
            rows.append(" ".join(row))
        pts = self.points()
        head = (f"phase {self.phase if self.phase != OVER else 'over'}, turn {self.turns}, "
                f"{g.player_name(self.player)} to {STEP_WORDS.get(self.step, 'stop')}; points "
                + ", ".join(f"{g.player_name(p)} {pts[p]}" for p in range(g.players)))
        return head + "\n" + "\n".join(rows)


class _Groups:
    """The connected groups of a position's board, as the greedy agent weighs candidate moves without playing
    them: `label[c]` the group of the tile on c (-1: empty or lifted), `size`/`cells` per group, `sumsq` the sum
    of squared sizes of the groups of 2 or more (what `potential` counts), `biggest` the largest group.

    `without(c)` lifts a tile (its group splits into the pieces still connected); `value_with(tiles)` lays
    tiles on empty cells and gives the board's sumsq and largest group, leaving this object as it is."""

    __slots__ = ("state", "label", "size", "cells", "sumsq", "biggest")

    def __init__(self, state: "IshiHamaState", label: list[int], size: list[int], cells: list[list[int]]):
        self.state = state
        self.label, self.size, self.cells = label, size, cells
        self.sumsq = sum(n * n for n in size if n >= 2)
        self.biggest = max(size, default=0)

    @classmethod
    def of(cls, state: "IshiHamaState") -> "_Groups":
        nb, col, mask = state.game.grid.nb, state.col, state.mask
        label = [-1] * state.game.N
        cells: list[list[int]] = []
        for start, colour in enumerate(col):
            if colour < 0 or label[start] >= 0:
                continue
            gid = len(cells)
            label[start] = gid
            group = [start]
            for a in group:  # breadth-first: the tiles of the colour whose paths meet
                m = mask[a]
                around = nb[a]
                for side in range(4):
                    if m >> side & 1:
                        b = around[side]
                        if b >= 0 and label[b] < 0 and col[b] == colour and mask[b] >> ((side + 2) & 3) & 1:
                            label[b] = gid
                            group.append(b)
            cells.append(group)
        return cls(state, label, [len(grp) for grp in cells], cells)

    def without(self, c: int) -> "_Groups":
        """These groups once the tile on `c` is lifted off the board."""
        n = self.label[c]
        label, size, cells = self.label[:], self.size[:], self.cells[:]
        label[c] = -1
        rest = [x for x in cells[n] if x != c]
        for x in rest:
            label[x] = -2  # in the split group, not yet in a piece
        nb, mask = self.state.game.grid.nb, self.state.mask
        size[n], cells[n] = 0, []
        gid = n
        for start in rest:
            if label[start] != -2:
                continue
            piece = [start]
            label[start] = gid
            for a in piece:  # breadth-first, within the split group (one colour)
                m = mask[a]
                around = nb[a]
                for side in range(4):
                    if m >> side & 1:
                        b = around[side]
                        if b >= 0 and label[b] == -2 and mask[b] >> ((side + 2) & 3) & 1:
                            label[b] = gid
                            piece.append(b)
            if gid == n:
                size[n], cells[n] = len(piece), piece
            else:
                size.append(len(piece))
                cells.append(piece)
            gid = len(size)
        return _Groups(self.state, label, size, cells)

    def value_with(self, tiles: _Laid) -> tuple[int, int]:
        """(sum of squared sizes of the groups of 2 or more, the largest group) once `tiles` (cell, colour,
        paths mask as it lies) lie on their cells, empty here."""
        if not tiles:
            return self.sumsq, self.biggest
        label, size = self.label, self.size
        st = self.state
        nb, col, mask = st.game.grid.nb, st.col, st.mask
        if len(tiles) == 1:  # the common case, written out: one tile joins the groups its paths meet
            c, colour, m = tiles[0]
            around = nb[c]
            n, value = 1, self.sumsq
            met: list[int] = []
            for side in range(4):
                if m >> side & 1:
                    b = around[side]
                    if b >= 0 and (g := label[b]) >= 0 and col[b] == colour and mask[b] >> ((side + 2) & 3) & 1 \
                            and g not in met:
                        met.append(g)
                        k = size[g]
                        n += k
                        if k >= 2:
                            value -= k * k
            if n == 1:
                return value, self.biggest
            return value + n * n, n if n > self.biggest else self.biggest
        joined: list[list[int]] = []  # per tile: the groups its paths meet
        for c, colour, m in tiles:
            meet: list[int] = []
            around = nb[c]
            for side in range(4):
                if m >> side & 1:
                    b = around[side]
                    if b >= 0 and (g := label[b]) >= 0 and col[b] == colour and mask[b] >> ((side + 2) & 3) & 1 \
                            and g not in meet:
                        meet.append(g)
            joined.append(meet)
        # the laid tiles' components: a tile with the groups it meets; two tiles are one component when
        # their paths meet each other or they meet a common group
        comp = list(range(len(tiles)))
        for i in range(len(tiles)):
            ci, coli, mi = tiles[i]
            for j in range(i):
                cj, colj, mj = tiles[j]
                linked = set(joined[i]) & set(joined[j])
                if not linked and coli == colj:
                    side = nb[ci].index(cj) if cj in nb[ci] else -1
                    linked = side >= 0 and mi >> side & 1 and mj >> ((side + 2) & 3) & 1  # type: ignore[assignment]
                if linked:
                    old, new = comp[i], comp[j]
                    comp = [new if x == old else x for x in comp]
        value, biggest = self.sumsq, self.biggest
        for root in set(comp):
            groups = {g for i, x in enumerate(comp) if x == root for g in joined[i]}
            n = sum(1 for x in comp if x == root) + sum(size[g] for g in groups)
            value -= sum(size[g] ** 2 for g in groups if size[g] >= 2)
            if n >= 2:
                value += n * n
            if n > biggest:
                biggest = n
        return value, biggest


def make_engine(design: Design, players: int) -> IshiHamaGame:
    """The registered engine factory: Ishi-Hama for `design`."""
    return IshiHamaGame(design, players)
