"""The TUBO rules engine: every rule of seed 000, read from the loaded design.

The design supplies everything: the board (size, Start cell and branches, zones) from the
`tubo.board` component's params, the colour stocks exactly as `tubo.stocks` prints them
(pieces per stock, Close pieces, copies), and the rule numbers stated once under
`rules:` (stocks_per_player, path_rounds, objective_zone).

Rules as implemented (seed 000, ../shared/specs/tubo.md). Decisions the seed leaves
open are marked *decision*; the rulebook quotes them.

Setup
* Seats: seat 1 (index 0, "starter") and seat 2 (index 1, "placer"). Stock choice: the
  players choose the colour stocks one at a time, alternately, seat 1 first, until each holds
  `stocks_per_player` different colours (*decision*: a draft; the seed only says each
  chooses 4 of the 8). A player uses its stocks in the order chosen, one per path round
  (*decision*; in the standard design all stocks hold the same pieces, so the order
  changes nothing but colour).
* Seat 2 places the Objective on a cell of the `objective_zone` (black) zone, never on
  the grey zone (*decision*: the seed's "un joueur au choix" is seat 2), then seat 1
  starts the first path round.

Path rounds (Tours Chemin)
* A round starts from a free branch of Start (one no earlier round started from): the
  player starting it chooses the branch (an *open* action), then lays the round's first
  piece. Each player's hand for the round is its next stock.
* Players alternate, one piece per turn, always continuing the one open end of the path:
  the piece goes on the cell the open end leads into and its line must meet the open end
  (pieces are never turned: an N-S connector fits an end entering from N or S).
* The board has no edge: a step off one side enters the cell on the opposite side, on
  both axes.
* Duty to play: a player holding a fitting connector of the round's stock must lay a
  piece; it may be that connector or, by choice, its Close piece (the seed allows
  stopping a round voluntarily). A player with no fitting connector must lay its Close
  piece (forced). Unplayed pieces of a stock stay in the player's hand for the score;
  they are never played in a later round (*decision*: "un stock ... à chaque Tour").
* A Close piece is laid on the cell the open end leads into, its opening facing the
  path; it ends the round, and the opponent of the player who closed starts the next
  round from a free branch of Start.
* If a player has neither a fitting connector nor a Close piece (only in designs whose
  stocks lack one), the round ends without a piece (action "stuck", metric `stuck`).

Where the open end leads (checked after every piece and every open action)
* Into the Objective's cell: the player who made that end reaches the Objective and
  wins at once (*decision*: the Objective is reached from any side).
* Into Start, into a cell whose visible piece has a line on the side it is entered from
  (the paths join), into any piece laid during the current round (the path runs into
  itself: "une case déjà établie ... un chemin en cours de construction"), or into an
  unused Close piece in play from any side (*decision*: a Close piece opens on its 3
  other sides, so entering by one of them joins its path): the player who made that
  end creates an **infinite loop** (-1 point for it).
* Into a cell holding a piece of an earlier round that the open end does not join: the
  new path passes over it (*decision*: the next piece is laid on top; the seed's "le
  nouveau chemin peut passer par dessus les précédents chemins").
* Otherwise (an empty cell): the next player lays the next piece there.

After an infinite loop
* If Close pieces are in play (laid in earlier rounds, not yet used as an exit, not
  covered), the next player continues the same round from one of them: it chooses the
  Close piece and one of its 3 other sides (an *open* action; never back through its
  opening, so never back towards Start), then lays a piece there. A Close piece serves
  as an exit once; afterwards it is an ordinary part of the path (its opening and the
  exit side).
* Otherwise the next player starts a new round from a free branch of Start.

End and score
* A player reaching the Objective wins. Otherwise the game ends when a round ends and
  `path_rounds` rounds have been played (every player has used its stocks), or when a
  new round is due and Start has no free branch left.
* Score: +1 per path piece (connector) in hand, i.e. not laid, of all the player's
  stocks; -1 per infinite loop it created; -1 per Close piece it laid. Unused Close
  pieces score nothing (*decision*: the seed counts "Pièces Chemin"). Higher score wins;
  equal scores are a draw.
* Results: 1 for the winner, 0 for the other; a draw gives 0 to both.

There are no chance events: the game is deterministic (no chance nodes).

Action encoding (S stocks in the design, C = columns x rows cells; pnp.engine.codec):
`draft = s` (0 <= s < S), `objective = S + cell`, `open = S + C + 4*cell + side`
(Start's branch or a Close piece's exit side; sides 0 N, 1 E, 2 S, 3 W),
`place = S + 5*C + t` with t the connector in enumeration order (0 N-E, 1 N-S,
2 N-W, 3 E-S, 4 E-W, 5 S-W), 6 the Close piece, 7 "stuck" (no piece to lay).
Cells are numbered row by row from the top-left (A1 = 0).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pydantic import Field, StrictInt

from pnp.engine.api import TERMINAL, Game, GameInfo, IllegalActionError, State
from pnp.engine.codec import ActionCodec
from pnp.engine.design import design_problem as _problem, find_component, game_rules
from pnp.errors import ErrorReport
from pnp.games.tubo.components import board_geometry
from pnp.games.tubo.geometry import (
    SIDE_NAMES,
    Board,
    Cell,
    connector_name,
    connector_of,
    connectors,
    opposite,
    side_of,
)
from pnp.model import Design
from pnp.params import RulesSection
from pnp.registry import GeneratorContext, get_generator

BOARD_GENERATOR = "tubo.board"
STOCK_GENERATOR = "tubo.stocks"
OBJECTIVE_GENERATOR = "tubo.objective"

CONNECTORS = connectors()  # the 6 two-edge connectors, in enumeration order
CLOSE = len(CONNECTORS)  # piece type 6
STUCK = CLOSE + 1  # place-action 7: no piece to lay
PIECE_TYPES = CLOSE + 1

# what a cell shows
EMPTY, PATH, CLOSED, START, OBJECTIVE = 0, 1, 2, 3, 4
# phases
DRAFT, PLACE_OBJECTIVE, OPEN, PLACE, OVER = range(5)

SEAT_NAMES = ("starter", "placer")  # seat 1 starts round 1; seat 2 places the Objective


class Rules(RulesSection):
    """The design's `rules:` section (checked at load time, file:line messages)."""

    stocks: StrictInt | None = Field(None, ge=1, description="the number of colour stocks in the box, e.g. 8")
    stocks_per_player: StrictInt = Field(ge=1, description="the number of colour stocks each player chooses, e.g. 4")
    pieces_per_stock: StrictInt = Field(ge=1, description="the number of path pieces in a stock, e.g. 6")
    close_per_stock: StrictInt = Field(ge=0, description="the number of Close pieces in a stock, e.g. 1")
    path_rounds: StrictInt = Field(ge=1, description="the number of path rounds in a game, e.g. 4")
    objective_zone: str = Field(min_length=1, description="the zone the Objective goes on, e.g. black")


def read_rules(design: Design) -> Rules:
    """The rule numbers under `rules:`; DesignError naming each missing or wrong one."""
    return game_rules(design, Rules)


def design_board(design: Design) -> Board:
    _, comp = find_component(design, BOARD_GENERATOR, "board")
    return board_geometry(comp.params)


@dataclass(frozen=True)
class Stock:
    """One colour stock as printed: copies of each connector type, and of the Close piece."""

    name: str
    counts: tuple[int, ...]  # by piece type: the 6 connectors, then Close

    @property
    def connectors(self) -> int:
        return sum(self.counts[:CLOSE])

    @property
    def closes(self) -> int:
        return self.counts[CLOSE]


def design_stocks(design: Design) -> list[Stock]:
    """The colour stocks exactly as the stock generator prints them (in the design's order)."""
    cid, comp = find_component(design, STOCK_GENERATOR, "colour stock")
    gen = get_generator(STOCK_GENERATOR)
    ctx = GeneratorContext(design=design, component_id=cid, component=comp, params=comp.params,
                           bleed=design.bleed_of(comp))
    counts: dict[str, list[int]] = {}
    for face in gen.fn(ctx):  # type: ignore[union-attr]
        d = face.data
        row = counts.setdefault(d["stock"], [0] * PIECE_TYPES)
        if d["piece"] == "close":
            row[CLOSE] += face.count
        else:
            sides = tuple(sorted(SIDE_NAMES.index(s) for s in d["sides"]))
            row[CONNECTORS.index(sides)] += face.count  # type: ignore[arg-type]
    return [Stock(name, tuple(row)) for name, row in counts.items()]


def _side(side: int | str) -> int:
    return side_of(side) if isinstance(side, str) else side


def cell_name(board: Board, cell: tuple[int, int]) -> str:
    """As printed on the board: column letter, row number (A1 top-left)."""
    return f"{chr(ord('A') + cell[0])}{cell[1] + 1}"


class TuboGame(Game):
    """TUBO for a design (2 players)."""

    def __init__(self, design: Design, players: int = 2):
        if players != 2:
            report = ErrorReport()
            _problem(design, ("meta", "players"), f"TUBO is played by 2 players; got {players}", report)
            report.raise_if_any()
        self.design = design
        self.players = players
        self.rules = read_rules(design)
        self.board = board = design_board(design)
        self.stocks = design_stocks(design)
        self.S = len(self.stocks)
        self.C = board.size
        report = ErrorReport()
        need = players * self.rules.stocks_per_player
        if self.S < need:
            _problem(design, ("components",), f"{self.S} colour stock(s) for {players} players choosing "
                     f"{self.rules.stocks_per_player} each; expected at least {need}", report)
        if self.rules.path_rounds > self.rules.stocks_per_player:
            _problem(design, ("rules", "path_rounds"), f"rules.path_rounds: {self.rules.path_rounds} rounds but "
                     f"{self.rules.stocks_per_player} stocks per player (one stock a round); expected at most "
                     f"{self.rules.stocks_per_player}", report)
        zone = board.zone_cells.get(self.rules.objective_zone)
        if not zone:
            _problem(design, ("rules", "objective_zone"), f"rules.objective_zone: the board has no cell in zone "
                     f"'{self.rules.objective_zone}'; expected one of its zones: {', '.join(board.zone_cells)}",
                     report)
        report.raise_if_any()
        self.objective_cells = sorted(board.index(c) for c in zone if c != board.start)  # type: ignore[union-attr]
        self.start = board.index(board.start)
        # neighbour table: step[cell][side]
        self.step = [[board.index(board.step(board.cell(i), s)) for s in range(4)] for i in range(self.C)]
        self.port_mask = [(1 << a) | (1 << b) for a, b in CONNECTORS]
        name = f"tubo:{design.slug}"
        self.codec = ActionCodec(name, draft=(self.S,), objective=(self.C,), open=(self.C, 4), place=(STUCK + 1,))
        self.draft_ids = self.codec.row("draft")
        self.objective_ids = self.codec.row("objective")
        self.place_ids = self.codec.row("place")
        total_pieces = sum(sum(s.counts) for s in self.stocks)
        total_closes = sum(s.closes for s in self.stocks)
        rounds = self.rules.path_rounds
        self.info = GameInfo(
            name=name, num_players=players, min_utility=0.0, max_utility=1.0,
            max_game_length=self.S + 1 + total_pieces + 2 * rounds + 3 * total_closes + 4,
            max_chance_actions=0, num_distinct_actions=self.codec.size,
        )

    def player_name(self, player: int) -> str:
        return SEAT_NAMES[player] if player < len(SEAT_NAMES) else f"seat {player + 1}"

    def new_initial_state(self) -> "TuboState":
        return TuboState(self)

    def position(self, objective: Cell | str, round: int = 1, branches: Iterable[int | str] = (),
                 pieces: Mapping[Cell | str, tuple[str, int]] | None = None,
                 closes: Mapping[Cell | str, tuple[int | str, int]] | None = None,
                 end: tuple[Cell | str, int | str] | None = None, player: int = 0,
                 hands: Mapping[int, Mapping[str, int]] | None = None,
                 drafted: Sequence[Sequence[int]] | None = None, loops: Sequence[int] | None = None,
                 closed: Sequence[int] | None = None) -> "TuboState":
        """A position made from data during path round `round` (tests, rulebook examples).

        Cells are (column, row) or names as printed ("D4"), sides 0-3 or "N", "E", "S", "W".
        objective: the Objective's cell; branches: Start's branches earlier rounds started
        from; pieces: {cell: (connector, e.g. "E-W", round laid)}; closes: {cell: (the side of
        its opening, round laid)}, unused Close pieces in play; end: (cell, side), the path's
        open end: `player` lays the next piece beyond that side (None: `player` chooses where
        the round's path starts); hands: {seat: {"N-S": 0, "close": 0...}}, counts of the
        round's stock that differ from the printed stock; drafted: each seat's stocks in the
        order chosen (default: seat 1 takes stocks 0, 2, 4..., seat 2 stocks 1, 3, 5...);
        loops, closed: per seat, the infinite loops created and the Close pieces laid so far
        (they count in the score). ValueError when the data does not fit the game.
        """
        st = TuboState(self)
        per = self.rules.stocks_per_player
        order = drafted if drafted is not None else [list(range(p, self.S, self.players))[:per]
                                                     for p in range(self.players)]
        for p, stocks in enumerate(order):
            for k in stocks:
                st.taken |= 1 << k
                st.drafted[p].append(k)
                st.hands[p].append(list(self.stocks[k].counts))
        obj = self._cell_index(objective)
        if obj not in self.objective_cells:
            raise ValueError(f"the Objective goes on the {self.rules.objective_zone} zone; "
                             f"{cell_name(self.board, self.board.cell(obj))} is not in it")
        st.objective, st.kind[obj], st.ports[obj] = obj, OBJECTIVE, 0
        if not 1 <= round <= min(self.rules.path_rounds, len(order[0])):
            raise ValueError(f"round {round}; expected 1 to {self.rules.path_rounds}")
        st.round = round
        for b in branches:
            st.branches_used |= 1 << _side(b)
        for cell, (piece, laid) in (pieces or {}).items():
            i = self._cell_index(cell)
            a, b = connector_of(piece)
            st.kind[i], st.ports[i], st.laid_in[i], st.depth[i] = PATH, (1 << a) | (1 << b), laid, 1
        for cell, (opening, laid) in (closes or {}).items():
            i, o = self._cell_index(cell), _side(opening)
            st.kind[i], st.ports[i], st.opening[i], st.laid_in[i], st.depth[i] = CLOSED, 1 << o, o, laid, 1
        for p, counts in (hands or {}).items():
            for piece, n in counts.items():
                st.hands[p][round - 1][CLOSE if piece == "close" else CONNECTORS.index(connector_of(piece))] = n
        st.loops = list(loops) if loops is not None else st.loops
        st.closes = list(closed) if closed is not None else st.closes
        st.player = player
        if end is None:
            st.phase = OPEN
        else:
            st.phase, st.end_cell, st.end_side = PLACE, self._cell_index(end[0]), _side(end[1])
        return st

    def _cell_index(self, cell: Cell | str) -> int:
        """A cell given as (column, row) or as printed ("D4")."""
        if isinstance(cell, str):
            name = cell.strip().upper()
            if len(name) < 2 or not name[0].isalpha() or not name[1:].isdigit():
                raise ValueError(f"cell {cell!r}; expected a column letter and a row number, e.g. D4")
            cell = (ord(name[0]) - ord("A"), int(name[1:]) - 1)
        x, y = cell
        if not (0 <= x < self.board.width and 0 <= y < self.board.height):
            raise ValueError(f"cell {cell!r} is off the {self.board.width}x{self.board.height} board")
        return self.board.index((x, y))

    # encoding helpers
    def draft_action(self, stock: int) -> int:
        return self.codec.encode("draft", stock)

    def objective_action(self, cell: tuple[int, int]) -> int:
        return self.codec.encode("objective", self.board.index(cell))

    def open_action(self, cell: tuple[int, int], side: int) -> int:
        return self.codec.encode("open", self.board.index(cell), side)

    def place_action(self, piece: tuple[int, int] | str) -> int:
        """A connector as sides, e.g. (0, 2) or 'N-S', or 'close' / 'stuck'."""
        if piece == "close":
            return self.place_ids[CLOSE]
        if piece == "stuck":
            return self.place_ids[STUCK]
        if isinstance(piece, str):
            piece = connector_of(piece)
        return self.place_ids[CONNECTORS.index(tuple(sorted(piece)))]  # type: ignore[arg-type]

    def decode(self, action: int) -> tuple[str, int, int]:
        """(kind, a, b): ('draft', stock, -1), ('objective', cell, -1), ('open', cell, side), ('place', type, -1)."""
        return self.codec.unpack(action)


class TuboState(State):
    """A TUBO position: the visible piece of every cell, the open end, stocks in hand, scores."""

    __slots__ = ("game", "phase", "player", "drafted", "taken", "objective", "round", "hands", "kind", "ports",
                 "laid_in", "opening", "depth", "end_cell", "end_side", "branches_used", "loops", "closes",
                 "laid", "winner", "reached", "passed_over", "exits", "forced", "stuck",
                 "last_loop")

    def __init__(self, game: TuboGame):
        super().__init__()
        self.game = game
        n, C = game.players, game.C
        self.phase = DRAFT
        self.player = 0
        self.drafted: list[list[int]] = [[] for _ in range(n)]
        self.taken = 0  # bitmask of drafted stocks
        self.objective = -1
        self.round = 0
        self.hands: list[list[list[int]]] = [[] for _ in range(n)]  # per player, per drafted stock: counts
        self.kind = [EMPTY] * C
        self.kind[game.start] = START
        self.ports = [0] * C  # sides of the visible piece's line (bitmask); Start: all 4
        self.ports[game.start] = 0b1111
        self.laid_in = [0] * C  # round in which the visible piece was laid (or joined the path)
        self.opening = [-1] * C  # unused Close pieces: the side of their opening
        self.depth = [0] * C  # pieces stacked on the cell
        self.end_cell = -1
        self.end_side = -1
        self.branches_used = 0
        self.loops = [0] * n
        self.closes = [0] * n
        self.laid = [0] * n
        self.winner = -1
        self.reached = False
        self.passed_over = 0
        self.exits = 0
        self.forced = 0
        self.stuck = 0
        self.last_loop = False
        if game.rules.stocks_per_player == 0:  # pragma: no cover - read_rules refuses it
            self.phase = PLACE_OBJECTIVE

    # --- API ----------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.player

    def _legal_actions(self) -> list[int]:
        g = self.game
        ph = self.phase
        if ph == DRAFT:
            return [g.draft_ids[s] for s in range(g.S) if not self.taken >> s & 1]
        if ph == PLACE_OBJECTIVE:
            return [g.objective_ids[c] for c in g.objective_cells]
        if ph == OPEN:
            return [g.codec.encode("open", c, s) for c, s in self._open_options()]
        return [g.place_ids[t] for t in self._place_options()]

    def _why_illegal(self, action: int) -> str:
        g = self.game
        kind, a, b = g.decode(action)
        expected = {DRAFT: "draft", PLACE_OBJECTIVE: "objective", OPEN: "open", PLACE: "place"}[self.phase]
        if kind != expected:
            return f"it is time to {self._phase_words()}; expected a {expected} action"
        if kind == "draft":
            return f"stock {g.stocks[a].name} is already chosen" if self.taken >> a & 1 else ""
        if kind == "objective":
            return "" if a in g.objective_cells else (f"the Objective goes on a cell of the {g.rules.objective_zone} "
                                                      "zone; expected one of those cells")
        if kind == "open":
            return "" if (a, b) in self._open_options() else self._why_not_open(a, b)
        options = self._place_options()
        return "" if a in options else self._why_not_place(a, options)

    def _apply(self, action: int) -> None:
        g = self.game
        kind, a, b = g.decode(action)
        p = self.player
        if kind == "draft":
            self.taken |= 1 << a
            self.drafted[p].append(a)
            self.hands[p].append(list(g.stocks[a].counts))
            if all(len(d) >= g.rules.stocks_per_player for d in self.drafted):
                self.phase, self.player = PLACE_OBJECTIVE, 1 % g.players
            else:
                self.player = (p + 1) % g.players
        elif kind == "objective":
            self.objective = a
            self.kind[a] = OBJECTIVE
            self.ports[a] = 0
            self._new_round(0)
        elif kind == "open":
            if a != g.start:  # a Close piece used as an exit becomes part of this round's path
                self.kind[a] = PATH
                self.ports[a] = (1 << self.opening[a]) | (1 << b)
                self.opening[a] = -1
                self.laid_in[a] = self.round
                self.exits += 1
            else:
                self.branches_used |= 1 << b
            self.end_cell, self.end_side = a, b
            self._resolve(p, same_player=True)
        else:  # place
            self._place(p, a)

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return self._text(action, player)

    def returns(self) -> list[float]:
        return [1.0 if p == self.winner else 0.0 for p in range(self.game.players)]

    def key(self) -> tuple:
        return (self.phase, self.player, tuple(map(tuple, self.drafted)), self.objective, self.round,
                tuple(tuple(map(tuple, hs)) for hs in self.hands), tuple(self.kind), tuple(self.ports),
                tuple(self.laid_in), tuple(self.opening), self.end_cell, self.end_side, self.branches_used,
                tuple(self.loops), tuple(self.closes), self.winner)

    def action_kind(self, action: int) -> str:
        kind, a, _ = self.game.decode(action)
        if kind == "place":
            return "close" if a == CLOSE else "stuck" if a == STUCK else "connector"
        if kind == "open":
            return "open-start" if a == self.game.start else "open-close"
        return kind

    def metrics(self) -> dict[str, int]:
        over = self.phase == OVER
        scores = self.scores()
        return {
            "objective_reached": int(self.reached),
            "decided_on_points": int(over and not self.reached and scores[0] != scores[1]),
            "draw": int(over and self.winner < 0),
            "loops": sum(self.loops),
            "closes": sum(self.closes),
            "forced_closes": self.forced,
            "voluntary_closes": sum(self.closes) - self.forced,
            "continued_from_close": self.exits,
            "passed_over": self.passed_over,
            "rounds": self.round,
            "pieces_laid": sum(self.laid),
            "stuck": self.stuck,
        }

    def action_value(self, action: int) -> float:
        """Greedy heuristic: win now; otherwise bring the path's next target closer to the Objective,
        avoid loops and Close pieces (each costs a point)."""
        g = self.game
        kind, a, b = g.decode(action)
        if kind in ("draft", "objective") or self.objective < 0:
            return 0.0
        if kind == "open":
            return self._end_value(g.step[a][b], opposite(b), a) + 0.5
        if a == STUCK:
            return -20.0
        if a == CLOSE:
            return -12.0
        t = g.step[self.end_cell][self.end_side]
        entry = opposite(self.end_side)
        con = CONNECTORS[a]
        out = con[1] if con[0] == entry else con[0]
        return self._end_value(g.step[t][out], opposite(out), t)

    def _end_value(self, target: int, entry: int, origin: int) -> float:
        g = self.game
        if target == self.objective:
            return 1000.0
        if self._joins(target, entry):
            return -10.0
        return -float(g.board.distance(g.board.cell(target), g.board.cell(self.objective)))

    # --- rules ----------------------------------------------------------------------------
    def scores(self) -> list[int]:
        """+1 per connector in hand (all stocks), -1 per loop created, -1 per Close piece laid."""
        out = []
        for p in range(self.game.players):
            in_hand = sum(sum(h[:CLOSE]) for h in self.hands[p])
            out.append(in_hand - self.loops[p] - self.closes[p])
        return out

    def hand(self, player: int) -> list[int]:
        """The counts, by piece type, of the player's stock for the current round."""
        return self.hands[player][self.round - 1]

    def target(self) -> tuple[int, int]:
        """(cell, entry side) the open end leads into."""
        t = self.game.step[self.end_cell][self.end_side]
        return t, opposite(self.end_side)

    def _joins(self, t: int, entry: int) -> bool:
        """Whether an open end entering cell t through side `entry` closes an infinite loop."""
        k = self.kind[t]
        if k == START or k == CLOSED:
            return True
        if k == PATH:
            return bool(self.ports[t] >> entry & 1) or self.laid_in[t] == self.round
        return False

    def _open_options(self) -> list[tuple[int, int]]:
        g = self.game
        if self.last_loop and any(o >= 0 for o in self.opening):
            return [(c, s) for c in range(g.C) if self.opening[c] >= 0 for s in range(4) if s != self.opening[c]]
        return [(g.start, b) for b in sorted(g.board.branches) if not self.branches_used >> b & 1]

    def _place_options(self) -> list[int]:
        _t, entry = self.target()
        hand = self.hand(self.player)
        fit = [i for i, con in enumerate(CONNECTORS) if entry in con and hand[i] > 0]
        if hand[CLOSE] > 0:
            fit.append(CLOSE)
        return fit or [STUCK]

    def _place(self, p: int, piece: int) -> None:
        g = self.game
        t, entry = self.target()
        hand = self.hand(p)
        if piece == STUCK:
            self.stuck += 1
            self._end_round(p)
            return
        if self.kind[t] != EMPTY:
            self.passed_over += 1
        self.depth[t] += 1
        hand[piece] -= 1
        self.laid_in[t] = self.round
        if piece == CLOSE:
            if not any(hand[i] > 0 and entry in con for i, con in enumerate(CONNECTORS)):
                self.forced += 1
            self.closes[p] += 1
            self.kind[t] = CLOSED
            self.ports[t] = 1 << entry
            self.opening[t] = entry
            self._end_round(p)
            return
        self.laid[p] += 1
        con = CONNECTORS[piece]
        self.kind[t] = PATH
        self.ports[t] = g.port_mask[piece]
        self.opening[t] = -1
        self.end_cell, self.end_side = t, (con[1] if con[0] == entry else con[0])
        self._resolve(p, same_player=False)

    def _resolve(self, mover: int, same_player: bool) -> None:
        """Where the new open end leads: the Objective, an infinite loop, or the next piece's cell."""
        g = self.game
        t, entry = self.target()
        self.last_loop = False
        if t == self.objective:
            self.reached = True
            self.winner = mover
            self.phase = OVER
            return
        if self._joins(t, entry):
            self.loops[mover] += 1
            self.last_loop = True
            nxt = (mover + 1) % g.players
            if any(o >= 0 for o in self.opening):  # continue this round from a Close piece in play
                self.phase, self.player = OPEN, nxt
                self.end_cell = self.end_side = -1
            else:
                self.last_loop = False
                self._new_round(nxt)
            return
        self.phase = PLACE
        self.player = mover if same_player else (mover + 1) % g.players

    def _end_round(self, closer: int) -> None:
        self.end_cell = self.end_side = -1
        self._new_round((closer + 1) % self.game.players)

    def _new_round(self, starter: int) -> None:
        g = self.game
        free = [b for b in g.board.branches if not self.branches_used >> b & 1]
        if self.round >= g.rules.path_rounds or not free:
            self._finish()
            return
        self.round += 1
        self.phase, self.player = OPEN, starter
        self.end_cell = self.end_side = -1

    def _finish(self) -> None:
        self.phase = OVER
        s = self.scores()
        best = max(s)
        leaders = [p for p, v in enumerate(s) if v == best]
        self.winner = leaders[0] if len(leaders) == 1 else -1

    # --- text -------------------------------------------------------------------------------
    def _phase_words(self) -> str:
        return {DRAFT: "choose colour stocks", PLACE_OBJECTIVE: "place the Objective",
                OPEN: "choose where the path goes on from", PLACE: "lay a piece", OVER: "stop"}[self.phase]

    def _why_not_open(self, cell: int, side: int) -> str:
        g = self.game
        if self.last_loop and any(o >= 0 for o in self.opening):
            if self.opening[cell] < 0:
                return "after an infinite loop the path goes on from a Close piece in play; expected one of those"
            return "a Close piece opens on its 3 other sides, never back through its opening"
        if cell != g.start:
            return "a path round starts from a branch of Start; expected a free branch"
        return f"branch {SIDE_NAMES[side]} of Start is not free; expected one of the free branches"

    def _why_not_place(self, piece: int, options: Sequence[int]) -> str:
        _t, entry = self.target()
        hand = self.hand(self.player)
        if piece == STUCK:
            return "a fitting piece or the Close piece is in hand; expected to lay one"
        if piece == CLOSE:
            return "no Close piece left in this round's stock"
        con = CONNECTORS[piece]
        if entry not in con:
            return (f"its line does not meet the path entering from {SIDE_NAMES[entry]}; "
                    f"expected a piece with a line on side {SIDE_NAMES[entry]} (pieces are never turned)")
        if hand[piece] <= 0:
            return "not in hand (already laid this round)"
        return "not allowed now"  # pragma: no cover

    def _text(self, action: int, player: int | None = None) -> str:
        g = self.game
        try:
            kind, a, b = g.decode(action)
        except IllegalActionError:
            return f"action {action}"
        who = f"seat {(self.player if player is None else player) + 1}"
        if kind == "draft":
            return f"{who} chooses the {g.stocks[a].name} stock"
        if kind == "objective":
            return f"{who} places the Objective on {cell_name(g.board, g.board.cell(a))}"
        if kind == "open":
            where = "Start" if a == g.start else f"the Close piece on {cell_name(g.board, g.board.cell(a))}"
            return f"{who} goes on from {where} towards {SIDE_NAMES[b]}"
        if a == STUCK:
            return f"{who} has no piece to lay"
        piece = "the Close piece" if a == CLOSE else f"connector {connector_name(CONNECTORS[a])}"
        if self.end_cell >= 0:
            t, _ = self.target()
            return f"{who} lays {piece} on {cell_name(g.board, g.board.cell(t))}"
        return f"{who} lays {piece}"

    def __str__(self) -> str:
        g = self.game
        rows = []
        for y in range(g.board.height):
            row = []
            for x in range(g.board.width):
                i = g.board.index((x, y))
                k = self.kind[i]
                if k == START:
                    row.append("S")
                elif k == OBJECTIVE:
                    row.append("O")
                elif k == CLOSED:
                    row.append("x")
                elif k == PATH:
                    row.append({0b0101: "|", 0b1010: "-"}.get(self.ports[i], "+"))
                else:
                    row.append(".")
            rows.append("".join(row))
        head = f"round {self.round}, {'over' if self.phase == OVER else f'seat {self.player + 1} to play'}"
        return head + "\n" + "\n".join(rows)


def make_engine(design: Design, players: int) -> TuboGame:
    """The registered engine factory: TUBO for `design`."""
    return TuboGame(design, players)
