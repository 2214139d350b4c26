"""The 3 Stars rules engine: every rule for 2-4 players, read from the loaded design.

The design supplies everything: the board component (its generator's params decide the
geometry: which stars exist for a player count and which cells each star covers), the
placement cards (the faces the card generator prints), the piece colours, and the rule
numbers stated once under `rules:` (hand_size, stars_to_win, pieces_per_player).
Change the design and the game changes; the triangle board and the lozenge board run
the same code, only their `BoardGeometry` differs.

Rules as implemented (seed 003 and ../shared/specs/three-stars.md; decisions the seed
leaves open are marked *decision*):

* Setup: the cards are dealt one at a time, seat 0 first, until every hand holds
  `hand_size` cards; each deal is a chance action (a uniform draw from the deck).
* A turn is one of:
  - **place** a card on a star position: every marked cell is empty; the player puts
    one own piece on each;
  - **steal** with a card on a star position: every marked cell holds a piece of some
    opponent (mixed opponents allowed) that is not reserved; each is replaced by an own
    piece (the opponent takes its piece back);
  - **exchange** a card (only when no card of the hand allows a place or a steal):
    discard it and draw one.
  A played card is discarded and the player draws back to `hand_size` [seed inference].
  When the deck is empty the discard pile becomes the deck (a reshuffle: draws are
  uniform over the deck, so no order is kept) [seed inference]; if both are empty the
  draw is skipped.
* Pieces (*decision*): a player has `pieces_per_player` pieces. A place or a steal of k
  cells needs k pieces in the player's supply; a move needing more is illegal. Such a
  turn is counted in the metric `piece_shortages` (the validator reports it).
* Scoring: after a move, every star position touching a changed cell whose 6 cells all
  hold the mover's pieces is scored by the mover and its cells become reserved (never
  stolen). A move completing two stars at once scores both (*decision*). Stars are
  scored once.
* Winning: the mover wins on reaching `stars_to_win` stars. Otherwise, after a scoring
  move (only scoring changes reservations), a player wins when no opponent of theirs can
  still reach `stars_to_win` (*decision*, the seed's blocking rule made exact): a star
  position is *available* to player q when none of its cells is reserved by another
  player; q can still reach the target iff
  `scored(q) + (available positions q has not scored) >= stars_to_win`. This is exact
  for the board alone: any set of available positions can be completed together by q
  (shared cells would simply all be q's), so no pairwise-compatibility test is needed;
  piece supply is ignored here (the validator checks separately that pieces suffice).
  The mover is checked first (so when nobody can reach the target any more, the mover
  wins); with 3-4 players, when the move leaves exactly one other player able to reach
  the target, that player wins.
* A game ends as a draw, counted in the metric `unfinished` (*decisions*, not rules of the
  seed): when no player has any card move left with any card of the game (pieces all
  used up and nothing to place on: the board can never change again; also counted in
  `stalled`), or at `max_turns` player turns (default 5000, a safety cap).
* Results: 1 for the winner, 0 for everyone else (a draw gives 0 to all).

Action encoding (S star positions of the player count, C distinct cards):
`place = c*S + s`, `steal = C*S + c*S + s`, `exchange = 2*C*S + c`; chance draws are
`2*C*S + C + c`. Cards are numbered as printed (1-based face index).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pnp.engine.api import CHANCE, TERMINAL, Game, GameInfo, IllegalActionError, State
from pnp.errors import ErrorReport
from pnp.games.three_stars.components import board_geometry
from pnp.games.three_stars.geometry import Board, star_triangles
from pnp.model import Design
from pnp.registry import GeneratorContext, get_generator
from pnp.engine.design import design_problem as _problem, find_component, rule_numbers

CARD_GENERATOR = "three_stars.placements"
PIECE_GENERATOR = "three_stars.pieces"
DEFAULT_MAX_TURNS = 5000

Cell = Hashable
Centre = tuple[int, int]


# --- what the engine needs from a design -----------------------------------------------


class BoardGeometry(Protocol):
    """A board's star structure. The triangle and the lozenge boards both provide it."""

    def player_counts(self) -> tuple[int, ...]:
        """The player counts the board's regions cater for (each region's `players`)."""

    def star_positions(self, players: int) -> tuple[Centre, ...]:
        """The star positions (centres) of the active board for a player count, in a fixed order."""

    def star_cells(self, centre: Centre) -> tuple[Cell, ...]:
        """The 6 cells of the star at `centre`, by position 0..5 (the cards' positions)."""

    def cells(self, players: int) -> frozenset:
        """Every cell of the active board for a player count."""


BOARD_GEOMETRIES: dict[str, Callable[[Any], BoardGeometry]] = {}
"""Board generator name -> builder of its geometry from the generator's (validated) params."""


def board_geometry_for(generator_name: str):
    """Decorator: register how a board generator's params become a BoardGeometry."""

    def wrap(fn: Callable[[Any], BoardGeometry]) -> Callable[[Any], BoardGeometry]:
        BOARD_GEOMETRIES[generator_name] = fn
        return fn

    return wrap


class TriangleGeometry:
    """The standard board: triangles of a triangular lattice (see geometry.py)."""

    def __init__(self, board: Board):
        self.board = board

    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted({r.players for r in self.board.regions}))

    def star_positions(self, players: int) -> tuple[Centre, ...]:
        return self.board.star_positions(players)

    def star_cells(self, centre: Centre) -> tuple[Cell, ...]:
        return star_triangles(centre)

    def cells(self, players: int) -> frozenset:
        return self.board.triangles(players)


@board_geometry_for("three_stars.board")
def _triangle_board(params) -> BoardGeometry:
    return TriangleGeometry(board_geometry(params))


@dataclass(frozen=True)
class Rules:
    hand_size: int
    stars_to_win: int
    pieces_per_player: int
    star_positions: dict[int, int]


def read_rules(design: Design) -> Rules:
    """The rule numbers under `rules:`; DesignError naming each missing or wrong one."""
    report = ErrorReport()
    values = rule_numbers(design, (("hand_size", "cards in a hand, e.g. 3", 1),
                                   ("stars_to_win", "stars to win, e.g. 3", 1),
                                   ("pieces_per_player", "pieces of each colour, e.g. 34", 1)), report)
    positions: dict[int, int] = {}
    raw = design.rules.get("star_positions", {})
    if not isinstance(raw, dict):
        _problem(design, ("rules", "star_positions"), "rules.star_positions: not a mapping; expected "
                 "star positions per player count, e.g. {2: 12, 3: 18, 4: 24}", report)
    else:
        for k, v in raw.items():
            try:
                positions[int(k)] = int(v)
            except (TypeError, ValueError):
                _problem(design, ("rules", "star_positions", k), f"rules.star_positions: {k!r}: {v!r} is not "
                         "a number of star positions; expected e.g. 2: 12", report)
    report.raise_if_any()
    return Rules(star_positions=positions, **values)


def design_geometry(design: Design) -> BoardGeometry:
    """The board geometry the design's board component describes."""
    _, comp = find_component(design, sorted(BOARD_GEOMETRIES), "board")
    return BOARD_GEOMETRIES[comp.generate](comp.params)


@dataclass(frozen=True)
class CardFace:
    number: int
    positions: tuple[int, ...]
    count: int


def design_cards(design: Design) -> list[CardFace]:
    """The placement cards exactly as the card generator prints them (face order, copies)."""
    cid, comp = find_component(design, [CARD_GENERATOR], "placement card")
    gen = get_generator(CARD_GENERATOR)
    ctx = GeneratorContext(design=design, component_id=cid, component=comp, params=comp.params,
                           bleed=design.bleed_of(comp))
    faces = gen.fn(ctx)
    return [CardFace(i, tuple(f.data["positions"]), f.count) for i, f in enumerate(faces, start=1)]


def colour_names(design: Design, players: int) -> list[str]:
    found = [c for c in design.components.values() if c.generate == PIECE_GENERATOR]
    names = [col.name for col in found[0].params.colours] if found else []
    return [names[p] if p < len(names) else f"player {p + 1}" for p in range(players)]


# --- the game --------------------------------------------------------------------------


class ThreeStarsGame(Game):
    """3 Stars for a design at a player count; precomputes every card's cells on every star."""

    def __init__(self, design: Design, players: int, max_turns: int = DEFAULT_MAX_TURNS,
                 pieces: int | None = None):
        """`pieces` overrides rules.pieces_per_player (e.g. to measure how many a colour would need)."""
        self.design = design
        self.players = players
        self.rules = read_rules(design)
        if pieces is not None:
            self.rules = Rules(self.rules.hand_size, self.rules.stars_to_win, pieces, self.rules.star_positions)
        self.geometry = design_geometry(design)
        self.positions: tuple[Centre, ...] = tuple(self.geometry.star_positions(players))
        self.colours = colour_names(design, players)
        self.max_turns = max_turns
        if not self.positions:
            report = ErrorReport()
            _problem(design, ("components",), f"the board has no star position for {players} players; "
                     "expected its regions to cover at least one whole star", report)
            report.raise_if_any()
        cells = sorted(self.geometry.cells(players), key=repr)
        self.cells = cells
        bit = {c: 1 << i for i, c in enumerate(cells)}
        star_cells = [self.geometry.star_cells(v) for v in self.positions]
        self.star_masks = [sum(bit[c] for c in sc) for sc in star_cells]
        # cards: distinct arrangements, numbered by their first printed face; copies add up
        faces = design_cards(design)
        by_pos: dict[tuple[int, ...], list] = {}
        for f in faces:
            if f.positions in by_pos:
                by_pos[f.positions][1] += f.count
            else:
                by_pos[f.positions] = [f.number, f.count]
        self.card_positions = list(by_pos)
        self.card_numbers = [by_pos[p][0] for p in self.card_positions]
        self.card_copies = [by_pos[p][1] for p in self.card_positions]
        self.card_sizes = [len(p) for p in self.card_positions]
        self.max_card_size = max(self.card_sizes, default=0)
        S, C = len(self.positions), len(self.card_positions)
        self.S, self.C = S, C
        # masks[c][s]: the cells card c marks on star s; touched[c][s]: stars sharing a cell with them
        self.masks = [[sum(bit[sc[k]] for k in pos) for sc in star_cells] for pos in self.card_positions]
        self.touched = [[tuple(t for t in range(S) if self.star_masks[t] & m) for m in row] for row in self.masks]
        self.full_mask = (1 << len(cells)) - 1
        deck_size = sum(self.card_copies)
        self.info = GameInfo(
            name=f"three_stars:{design.slug}", num_players=players, min_utility=0.0, max_utility=1.0,
            max_game_length=max_turns, max_chance_actions=players * self.rules.hand_size + max_turns,
            num_distinct_actions=2 * C * S + C,
        )
        if deck_size < players * self.rules.hand_size:
            report = ErrorReport()
            _problem(design, ("rules", "hand_size"), f"{deck_size} cards cannot fill {players} hands of "
                     f"{self.rules.hand_size}; expected more cards or a smaller hand", report)
            report.raise_if_any()

    # encoding
    def decode(self, action: int) -> tuple[str, int, int]:
        """(kind, card index, star index) of an action; star index -1 for exchange and draw."""
        CS = self.C * self.S
        if 0 <= action < CS:
            return "place", action // self.S, action % self.S
        if action < 2 * CS:
            a = action - CS
            return "steal", a // self.S, a % self.S
        if action < 2 * CS + self.C:
            return "exchange", action - 2 * CS, -1
        if action < 2 * CS + 2 * self.C:
            return "draw", action - 2 * CS - self.C, -1
        raise IllegalActionError(f"action {action} is not an action of {self.info.name}")

    def place_action(self, card: int, star: int) -> int:
        return card * self.S + star

    def steal_action(self, card: int, star: int) -> int:
        return self.C * self.S + card * self.S + star

    def exchange_action(self, card: int) -> int:
        return 2 * self.C * self.S + card

    def draw_action(self, card: int) -> int:
        return 2 * self.C * self.S + self.C + card

    def card_index(self, positions: Sequence[int]) -> int:
        """The card index of an arrangement, e.g. (0, 2)."""
        return self.card_positions.index(tuple(positions))

    def star_index(self, centre: Centre) -> int:
        return self.positions.index(tuple(centre))

    def card_text(self, c: int) -> str:
        return f"card {self.card_numbers[c]} [{','.join(map(str, self.card_positions[c]))}]"

    def player_name(self, player: int) -> str:
        return self.colours[player]

    def new_initial_state(self) -> "ThreeStarsState":
        return ThreeStarsState(self)


class ThreeStarsState(State):
    """A 3 Stars position: pieces as bitmasks over the board's cells, hands, deck and discards."""

    __slots__ = ("game", "own", "occupied", "reserved", "scored", "scores", "hands", "deck", "deck_n",
                 "discard", "discard_n", "queue", "player", "winner", "over", "turns", "_history",
                 "exchanges", "shortages", "needed", "double_stars", "by_blocking", "stalled")

    def __init__(self, game: ThreeStarsGame):
        self.game = game
        n = game.players
        self.own = [0] * n
        self.occupied = 0
        self.reserved = 0
        self.scored = [-1] * game.S  # scorer of each star position, -1 if none
        self.scores = [0] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.deck = list(game.card_copies)
        self.deck_n = sum(self.deck)
        self.discard = [0] * game.C
        self.discard_n = 0
        self.queue = [p for _ in range(game.rules.hand_size) for p in range(n)]
        self.player = 0
        self.winner = -1
        self.over = False
        self.turns = 0
        self._history: list[int] = []
        self.exchanges = [0] * n
        self.shortages = [0] * n
        self.needed = [0] * n
        self.double_stars = 0
        self.by_blocking = False
        self.stalled = False
        self._settle()

    # --- API ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.queue:
            return CHANCE
        return self.player

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        if self.queue:
            return [a for a, _ in self.chance_outcomes()]
        places, steals, _ = self._moves(self.player)
        if places or steals:
            return places + steals
        g = self.game
        base = 2 * g.C * g.S
        return [base + c for c in sorted(set(self.hands[self.player]))]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.over or not self.queue:
            return []
        g, n = self.game, self.deck_n
        base = 2 * g.C * g.S + g.C
        return [(base + c, k / n) for c, k in enumerate(self.deck) if k]

    def sample_chance(self, rng) -> int:
        x = int(rng.random() * self.deck_n)
        for c, k in enumerate(self.deck):
            if x < k:
                return 2 * self.game.C * self.game.S + self.game.C + c
            x -= k
        raise RuntimeError("empty deck at a chance node")  # pragma: no cover

    def apply_action(self, action: int) -> None:
        g = self.game
        if self.over:
            raise IllegalActionError(f"{self._text(action)}: the game is over; expected no more actions")
        kind, c, s = g.decode(action)
        if self.queue:
            if kind != "draw":
                raise IllegalActionError(f"{self._text(action)}: a card must be drawn first; expected a draw")
            if not self.deck[c]:
                raise IllegalActionError(f"{self._text(action)}: that card is not in the deck")
            p = self.queue.pop(0)
            bisect.insort(self.hands[p], c)
            self.deck[c] -= 1
            self.deck_n -= 1
            self._history.append(action)
            self._settle()
            return
        p = self.player
        if kind == "draw":
            raise IllegalActionError(f"{self._text(action)}: nobody is drawing; expected a move of {g.colours[p]}")
        hand = self.hands[p]
        if c not in hand:
            raise IllegalActionError(f"{self._text(action)}: {g.colours[p]} does not hold {g.card_text(c)}")
        supply = g.rules.pieces_per_player - self.own[p].bit_count()
        if kind == "exchange":
            places, steals, _ = self._moves(p)
            if places or steals:
                raise IllegalActionError(
                    f"{self._text(action)}: exchanging is allowed only when no card can place or steal; "
                    f"expected e.g. {self._text((places + steals)[0])}")
            if supply < g.max_card_size:
                self._note_shortage(p, supply)
            self.exchanges[p] += 1
            if self._frozen():
                self.over = self.stalled = True
        else:
            m = g.masks[c][s]
            why = self._illegal_reason(p, kind, m, supply)
            if why:
                raise IllegalActionError(f"{self._text(action)}: {why}")
            if supply < g.max_card_size:
                self._note_shortage(p, supply)
            if kind == "place":
                self.own[p] |= m
                self.occupied |= m
            else:
                for q in range(g.players):
                    if q != p:
                        self.own[q] &= ~m
                self.own[p] |= m
            on_board = self.own[p].bit_count()
            if on_board > self.needed[p]:
                self.needed[p] = on_board
            self._score(p, g.touched[c][s])
        hand.remove(c)
        self.discard[c] += 1
        self.discard_n += 1
        self._history.append(action)
        self.turns += 1
        if not self.over:
            self.queue.extend([p] * (g.rules.hand_size - len(hand)))
            self.player = (p + 1) % g.players
            if self.turns >= g.max_turns:
                self.over = True
                self.queue.clear()
        self._settle()

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return self._text(action, player)

    def returns(self) -> list[float]:
        return [1.0 if p == self.winner else 0.0 for p in range(self.game.players)]

    def clone(self) -> "ThreeStarsState":
        new = object.__new__(ThreeStarsState)
        new.game = self.game
        new.own = self.own[:]
        new.occupied = self.occupied
        new.reserved = self.reserved
        new.scored = self.scored[:]
        new.scores = self.scores[:]
        new.hands = [h[:] for h in self.hands]
        new.deck = self.deck[:]
        new.deck_n = self.deck_n
        new.discard = self.discard[:]
        new.discard_n = self.discard_n
        new.queue = self.queue[:]
        new.player = self.player
        new.winner = self.winner
        new.over = self.over
        new.turns = self.turns
        new._history = self._history[:]
        new.exchanges = self.exchanges[:]
        new.shortages = self.shortages[:]
        new.needed = self.needed[:]
        new.double_stars = self.double_stars
        new.by_blocking = self.by_blocking
        new.stalled = self.stalled
        return new

    def history(self) -> list[int]:
        return list(self._history)

    def key(self) -> tuple:
        return (tuple(self.own), self.reserved, tuple(self.scored), tuple(self.scores),
                tuple(tuple(h) for h in self.hands), tuple(self.deck), tuple(self.discard),
                tuple(self.queue), self.player, self.winner, self.over, self.turns)

    def action_kind(self, action: int) -> str:
        return self.game.decode(action)[0]

    def metrics(self) -> dict[str, int]:
        g = self.game
        out = {
            "exchanges": sum(self.exchanges),
            "piece_shortages": sum(self.shortages),
            "stars_scored": sum(self.scores),
            "double_stars": self.double_stars,
            "won_by_blocking": int(self.by_blocking),
            "unfinished": int(self.over and self.winner < 0),
            "stalled": int(self.stalled),
            "capped": int(self.over and self.winner < 0 and not self.stalled and self.turns >= g.max_turns),
        }
        for p in range(g.players):
            out[f"pieces_needed:{g.colours[p]}"] = self.needed[p]
            out[f"exchanges:{g.colours[p]}"] = self.exchanges[p]
            out[f"piece_shortages:{g.colours[p]}"] = self.shortages[p]
        return out

    def action_value(self, action: int) -> float:
        """Greedy heuristic: the mover's gain in star potential plus the opponents' loss.

        A star's potential for a player is 0 when another player holds or reserved one of
        its cells, else (own cells)^2, plus 100 when complete; completing a star therefore
        dominates, then advancing own stars, and steals score by the opponents' lost
        potential (blocking). An exchange discards the smallest card (value -size).
        """
        g = self.game
        kind, c, s = g.decode(action)
        if kind == "exchange":
            return -g.card_sizes[c]
        if kind == "draw":
            return 0.0
        # Per touched star: after the move the mover holds cells of it, so only the mover can have a
        # potential there afterwards (if nobody else still holds one); before, only a sole holder has one.
        # The same sums as adding every player's gain (mover) and loss (others), without the loops.
        p = self.player
        m = g.masks[c][s]
        own = self.own
        mine = own[p] | m
        scored, star_masks = self.scored, g.star_masks
        value = 0.0
        for t in g.touched[c][s]:
            if scored[t] >= 0:
                continue
            sm = star_masks[t]
            holders = 0
            sole = -1
            kept = False  # another player still holds a cell of the star after the move
            for q, o in enumerate(own):
                x = o & sm
                if x:
                    holders += 1
                    sole = q
                    if q != p and x & ~m:
                        kept = True
            if holders == 1:  # a sole holder's potential before the move
                k = (own[sole] & sm).bit_count()
                before = k * k + (100.0 if k == 6 else 0.0)
                value += before if sole != p else -before
            if not kept:  # the mover alone holds it after
                k = (mine & sm).bit_count()
                value += k * k + (100.0 if k == 6 else 0.0)
        return value

    # --- helpers --------------------------------------------------------------------------
    def _moves(self, p: int) -> tuple[list[int], list[int], bool]:
        """(place actions, steal actions, whether a move was refused only for lack of pieces)."""
        g = self.game
        occupied = self.occupied
        stealable = occupied & ~self.own[p] & ~self.reserved
        supply = g.rules.pieces_per_player - self.own[p].bit_count()
        S, CS = g.S, g.C * g.S
        places: list[int] = []
        steals: list[int] = []
        short = False
        last = -1
        for c in self.hands[p]:
            if c == last:
                continue
            last = c
            base = c * S
            enough = g.card_sizes[c] <= supply
            for s, m in enumerate(g.masks[c]):
                if not m & occupied:
                    if enough:
                        places.append(base + s)
                    else:
                        short = True
                elif m & stealable == m:
                    if enough:
                        steals.append(CS + base + s)
                    else:
                        short = True
        return places, steals, short

    def _frozen(self) -> bool:
        """Whether no player can ever place or steal again, whatever cards they draw."""
        g = self.game
        occupied = self.occupied
        for p in range(g.players):
            supply = g.rules.pieces_per_player - self.own[p].bit_count()
            stealable = occupied & ~self.own[p] & ~self.reserved
            for c, row in enumerate(g.masks):
                if g.card_sizes[c] > supply:
                    continue
                for m in row:
                    if not m & occupied or m & stealable == m:
                        return False
        return True

    def _note_shortage(self, p: int, supply: int) -> None:
        """Count a turn where a card move was legal on the board but the player lacked the pieces."""
        g = self.game
        occupied = self.occupied
        stealable = occupied & ~self.own[p] & ~self.reserved
        need = 0
        for c in set(self.hands[p]):
            k = g.card_sizes[c]
            if k <= supply:
                continue
            if any(not m & occupied or m & stealable == m for m in g.masks[c]):
                need = max(need, self.own[p].bit_count() + k)
        if need:
            self.shortages[p] += 1
            self.needed[p] = max(self.needed[p], need)

    def _illegal_reason(self, p: int, kind: str, m: int, supply: int) -> str:
        g = self.game
        cells = [g.cells[i] for i in range(len(g.cells)) if m >> i & 1]
        if kind == "place":
            taken = [cell for i, cell in enumerate(g.cells) if m >> i & 1 and self.occupied >> i & 1]
            if taken:
                return f"cells {taken} are not empty; expected every marked cell to be empty"
        else:
            for i, cell in enumerate(g.cells):
                if not m >> i & 1:
                    continue
                if not self.occupied >> i & 1:
                    return f"cell {cell} is empty; expected every marked cell to hold an opponent's piece"
                if self.own[p] >> i & 1:
                    return f"cell {cell} is already {g.colours[p]}'s; expected opponents' pieces only"
                if self.reserved >> i & 1:
                    return f"cell {cell} is reserved by a scored star and can never be stolen"
        if len(cells) > supply:
            return f"{g.colours[p]} has {supply} pieces left and the card needs {len(cells)}"
        return ""

    def _score(self, p: int, stars: Sequence[int]) -> None:
        g = self.game
        own = self.own[p]
        new = 0
        for t in stars:
            sm = g.star_masks[t]
            if self.scored[t] < 0 and own & sm == sm:
                self.scored[t] = p
                self.reserved |= sm
                self.scores[p] += 1
                new += 1
        if not new:
            return
        if new > 1:
            self.double_stars += 1
        target = g.rules.stars_to_win
        if self.scores[p] >= target:
            self.winner, self.over = p, True
        else:
            reach = [q for q in range(g.players) if self.can_reach(q)]
            if not [q for q in reach if q != p]:
                self.winner, self.over, self.by_blocking = p, True, True
            elif len(reach) == 1:  # the mover shut itself and the rest out, all but one other player
                self.winner, self.over, self.by_blocking = reach[0], True, True
        if self.over:
            self.queue.clear()

    def available(self, q: int) -> list[int]:
        """Star positions still available to q: none of their cells reserved by another player."""
        g = self.game
        blocked = self.reserved & ~self.own[q]
        return [t for t, sm in enumerate(g.star_masks) if not sm & blocked]

    def can_reach(self, q: int) -> bool:
        """Whether q can still score `stars_to_win` stars (see the module docstring)."""
        open_ = sum(1 for t in self.available(q) if self.scored[t] != q)
        return self.scores[q] + open_ >= self.game.rules.stars_to_win

    def _settle(self) -> None:
        """Reshuffle the discards into an empty deck when a draw is due; skip draws with no card left."""
        if self.queue and not self.deck_n:
            if self.discard_n:
                self.deck, self.discard = self.discard, [0] * self.game.C
                self.deck_n, self.discard_n = self.discard_n, 0
            else:
                self.queue.clear()

    def _text(self, action: int, player: int | None = None) -> str:
        g = self.game
        try:
            kind, c, s = g.decode(action)
        except IllegalActionError:
            return f"action {action}"
        if player is None:
            player = self.queue[0] if (self.queue and kind == "draw") else self.player
        who = g.colours[player] if 0 <= player < g.players else "chance"
        if kind == "draw":
            return f"{who} draws {g.card_text(c)}"
        if kind == "exchange":
            return f"{who} exchanges {g.card_text(c)}"
        q, r = g.positions[s]
        verb = "places" if kind == "place" else "steals with"
        return f"{who} {verb} {g.card_text(c)} on star ({q},{r})"

    # --- what a player knows (search with hidden information: pnp.engine.openspiel_adapter) ----
    def information_key(self, player: int) -> tuple:
        """What `player` knows: the board, the scores, the discard pile (played and exchanged cards are
        shown), their own hand, and only how many cards the other hands and the deck hold."""
        return (tuple(self.own), self.reserved, tuple(self.scored), tuple(self.scores), tuple(self.hands[player]),
                tuple(len(h) for h in self.hands), self.deck_n, tuple(self.discard), tuple(self.queue), self.player,
                self.winner, self.over, self.turns)

    def resample_from_infostate(self, player: int, rng) -> "ThreeStarsState":
        """A position `player` cannot tell from this one: the other hands dealt again at random from the
        cards `player` has not seen (those hands and the deck), each hand keeping its size. What the
        opponents' past choices reveal about their cards is not used (plain determinization)."""
        new = self.clone()
        pool = list(self.deck)
        for q, hand in enumerate(self.hands):
            if q != player:
                for c in hand:
                    pool[c] += 1
        n = sum(pool)
        for q, hand in enumerate(self.hands):
            if q == player:
                continue
            dealt = []
            for _ in hand:
                x = int(rng.random() * n)
                for c, k in enumerate(pool):
                    if x < k:
                        break
                    x -= k
                pool[c] -= 1
                n -= 1
                dealt.append(c)
            new.hands[q] = sorted(dealt)
        new.deck, new.deck_n = pool, n
        return new

    def heuristic_returns(self) -> list[float]:
        """Each player's chance of winning as the position suggests (for search leaves, summing to 1): stars
        scored, plus the best star each can still complete, by the square of its share of own cells."""
        g = self.game
        if self.over:
            return self.returns()
        blocked_by = [self.reserved & ~o for o in self.own]
        strength = []
        for q in range(g.players):
            others = self.occupied & ~self.own[q]
            best = 0.0
            for t, sm in enumerate(g.star_masks):
                if self.scored[t] < 0 and not sm & (blocked_by[q] | others):
                    k = (self.own[q] & sm).bit_count() / 6
                    best = max(best, k * k)
            strength.append(self.scores[q] + best)
        weights = [math.exp(2.0 * x) for x in strength]
        total = sum(weights)
        return [w / total for w in weights]

    def __str__(self) -> str:
        g = self.game
        lines = [f"turn {self.turns}, {'over' if self.over else g.colours[self.player] + ' to play'}"]
        for p in range(g.players):
            hand = ", ".join(g.card_text(c) for c in self.hands[p])
            lines.append(f"  {g.colours[p]}: {self.scores[p]} stars, {self.own[p].bit_count()} pieces, hand {hand}")
        return "\n".join(lines)


def make_engine(design: Design, players: int) -> ThreeStarsGame:
    """The registered engine factory: 3 Stars for `design` at `players` players."""
    return ThreeStarsGame(design, players)
