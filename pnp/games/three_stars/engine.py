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

Action encoding (S star positions of the player count, C distinct cards; pnp.engine.codec):
place (c, s), steal (c, s), exchange (c), then the chance draws (c): `place = c*S + s`,
`steal = C*S + c*S + s`, `exchange = 2*C*S + c`, `draw = 2*C*S + C + c`. Cards are
numbered as printed (1-based face index).
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import Field, StrictInt

from pnp.engine.api import CHANCE, TERMINAL, Game, GameInfo, IllegalActionError, State
from pnp.engine.codec import ActionCodec
from pnp.engine.design import design_problem as _problem, find_component, game_rules
from pnp.errors import ErrorReport
from pnp.games.three_stars.components import board_geometry
from pnp.games.three_stars.geometry import Board, star_triangles
from pnp.model import Design
from pnp.params import RulesSection
from pnp.registry import GeneratorContext, get_generator

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


class Rules(RulesSection):
    """The design's `rules:` section (checked at load time, file:line messages)."""

    hand_size: StrictInt = Field(ge=1, description="the number of cards in a hand, e.g. 3")
    stars_to_win: StrictInt = Field(ge=1, description="the number of stars to win, e.g. 3")
    pieces_per_player: StrictInt = Field(ge=1, description="the number of pieces of each colour, e.g. 34")
    star_positions: dict[int, StrictInt] = Field(
        default_factory=dict, description="star positions per player count, e.g. {2: 12, 3: 18, 4: 24}")
    card_positions: tuple[StrictInt, StrictInt] = Field(
        (1, 3), description="the fewest and most positions a card marks, e.g. [1, 3] (pnp validate)")


def read_rules(design: Design) -> Rules:
    """The rule numbers under `rules:`; DesignError naming each missing or wrong one."""
    return game_rules(design, Rules)


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
    faces = gen.fn(ctx)  # type: ignore[union-attr]
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
            self.rules = self.rules.model_copy(update={"pieces_per_player": pieces})
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
        deck_size = sum(self.card_copies)
        if deck_size < players * self.rules.hand_size:
            report = ErrorReport()
            _problem(design, ("rules", "hand_size"), f"{deck_size} cards cannot fill {players} hands of "
                     f"{self.rules.hand_size}; expected more cards or a smaller hand", report)
            report.raise_if_any()
        name = f"three_stars:{design.slug}"
        self.codec = ActionCodec(name, place=(C, S), steal=(C, S), exchange=(C,), draw=(C,))
        self.place_ids = [self.codec.row("place", c) for c in range(C)]  # place_ids[c][s]: card c on star s
        self.steal_ids = [self.codec.row("steal", c) for c in range(C)]
        self.exchange_ids = self.codec.row("exchange")
        self.draw_ids = self.codec.row("draw")
        # by action: (cells marked, ((star, its cells) for every star sharing a cell with them)) for a place or
        # a steal, -(card size) for an exchange, 0.0 for a draw: what `action_values` reads, decoded once
        self.action_table: list = [None] * self.codec.size
        for c in range(C):
            for s in range(S):
                entry = (self.masks[c][s], tuple((t, self.star_masks[t]) for t in self.touched[c][s]))
                self.action_table[self.place_ids[c][s]] = self.action_table[self.steal_ids[c][s]] = entry
            self.action_table[self.exchange_ids[c]] = -self.card_sizes[c]
            self.action_table[self.draw_ids[c]] = 0.0
        self.info = GameInfo(
            name=name, num_players=players, min_utility=0.0, max_utility=1.0,
            max_game_length=max_turns, max_chance_actions=players * self.rules.hand_size + max_turns,
            num_distinct_actions=self.codec.size,
        )

    # encoding
    def decode(self, action: int) -> tuple[str, int, int]:
        """(kind, card index, star index) of an action; star index -1 for exchange and draw."""
        return self.codec.unpack(action)

    def place_action(self, card: int, star: int) -> int:
        return self.codec.encode("place", card, star)

    def steal_action(self, card: int, star: int) -> int:
        return self.codec.encode("steal", card, star)

    def exchange_action(self, card: int) -> int:
        return self.codec.encode("exchange", card)

    def draw_action(self, card: int) -> int:
        return self.codec.encode("draw", card)

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

    def position(self, owners: Mapping[Cell, int] | None = None,
                 hands: Mapping[int, Sequence[Sequence[int]]] | None = None,
                 scored: Mapping[Centre, int] | None = None, reserved: Iterable[Cell] = (),
                 scores: Sequence[int] | None = None, deck: Mapping[Sequence[int], int] | None = None,
                 draws: Sequence[int] = (), player: int = 0) -> "ThreeStarsState":
        """A position made from data (tests, rulebook examples), after the deal.

        owners: {cell: seat}, the pieces on the board; hands: {seat: [arrangement, e.g. (0, 2)]};
        scored: {star centre: seat}, stars already scored (their cells are that seat's pieces and
        reserved); reserved: more reserved cells; scores: stars per seat (default: counted from
        `scored`); deck: {arrangement: copies} in the draw pile (default: every card not in a hand;
        when given, the other cards are in the discard pile); draws: seats still owed a card, in
        order (the position is then a chance node); player: the seat to play. ValueError when the
        data does not fit the game (an unknown cell or card, more copies than printed).
        """
        st = ThreeStarsState(self)
        st.queue.clear()
        bit = {cell: 1 << i for i, cell in enumerate(self.cells)}

        def mask(cell: Cell) -> int:
            if cell not in bit:
                raise ValueError(f"{cell!r} is not a cell of the board for {self.players} players")
            return bit[cell]

        def card(arrangement: Sequence[int]) -> int:
            if tuple(arrangement) not in self.card_positions:
                raise ValueError(f"no card {list(arrangement)} in {self.design.slug}")
            return self.card_index(arrangement)

        out = [0] * self.C  # copies out of the deck: in hands
        for p, cards in (hands or {}).items():
            for arrangement in cards:
                c = card(arrangement)
                st.hands[p].append(c)
                out[c] += 1
            st.hands[p].sort()
        for cell, p in (owners or {}).items():
            st.own[p] |= mask(cell)
            st.occupied |= mask(cell)
        for cell in reserved:
            st.reserved |= mask(cell)
        for centre, p in (scored or {}).items():
            t = self.star_index(centre)
            st.scored[t] = p
            for q in range(self.players):
                st.own[q] &= ~self.star_masks[t]
            st.own[p] |= self.star_masks[t]
            st.occupied |= self.star_masks[t]
            st.reserved |= self.star_masks[t]
            st.scores[p] += 1
        if scores is not None:
            st.scores = list(scores)
        piles = [n - k for n, k in zip(self.card_copies, out)]
        if any(n < 0 for n in piles):
            raise ValueError("the hands hold more copies of a card than the design prints")
        st.deck = piles
        if deck is not None:
            st.deck = [0] * self.C
            for arrangement, n in deck.items():
                st.deck[card(arrangement)] = n
            st.discard = [n - k for n, k in zip(piles, st.deck)]
            if any(n < 0 for n in st.discard):
                raise ValueError("the deck holds more copies of a card than are left out of the hands")
        st.deck_n, st.discard_n = sum(st.deck), sum(st.discard)
        st.queue = list(draws)
        st.player = player
        st._settle()
        return st


class ThreeStarsState(State):
    """A 3 Stars position: pieces as bitmasks over the board's cells, hands, deck and discards."""

    __slots__ = ("game", "own", "occupied", "reserved", "scored", "scores", "hands", "deck", "deck_n",
                 "discard", "discard_n", "queue", "player", "winner", "over", "turns",
                 "exchanges", "shortages", "needed", "double_stars", "by_blocking", "stalled")

    def __init__(self, game: ThreeStarsGame):
        super().__init__()
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

    def _legal_actions(self) -> list[int]:
        places, steals, _ = self._moves(self.player)
        if places or steals:
            return places + steals
        exchange = self.game.exchange_ids
        return [exchange[c] for c in sorted(set(self.hands[self.player]))]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        n, draw = self.deck_n, self.game.draw_ids
        return [(draw[c], k / n) for c, k in enumerate(self.deck) if k]

    def sample_chance(self, rng) -> int:
        x = int(rng.random() * self.deck_n)
        c = bisect.bisect_right(list(itertools.accumulate(self.deck)), x)  # the card whose copies span x
        if c >= self.game.C:
            raise RuntimeError("empty deck at a chance node")  # pragma: no cover
        return self.game.draw_ids[c]

    def _why_illegal(self, action: int) -> str:
        g = self.game
        kind, c, s = g.decode(action)
        if self.queue:
            if kind != "draw":
                return "a card must be drawn first; expected a draw"
            return "" if self.deck[c] else "that card is not in the deck"
        p = self.player
        if kind == "draw":
            return f"nobody is drawing; expected a move of {g.colours[p]}"
        if c not in self.hands[p]:
            return f"{g.colours[p]} does not hold {g.card_text(c)}"
        if kind == "exchange":
            places, steals, _ = self._moves(p)
            if places or steals:
                return (f"exchanging is allowed only when no card can place or steal; "
                        f"expected e.g. {self._text((places + steals)[0])}")
            return ""
        m = g.masks[c][s]
        supply = g.rules.pieces_per_player - self.own[p].bit_count()
        if g.card_sizes[c] <= supply:  # the common case, a legal move: bit tests only, no message built
            if kind == "place":
                if not m & self.occupied:
                    return ""
            elif m & self.occupied & ~self.own[p] & ~self.reserved == m:
                return ""
        return self._illegal_reason(p, kind, m, supply)

    def _apply(self, action: int) -> None:
        g = self.game
        if self.queue:  # a draw (half the actions search plays: written without decoding)
            c = action - g.draw_ids.start
            p = self.queue.pop(0)
            bisect.insort(self.hands[p], c)
            self.deck[c] -= 1
            self.deck_n -= 1
            if self.queue and not self.deck_n:
                self._settle()
            return
        kind, c, s = g.decode(action)
        p = self.player
        hand = self.hands[p]
        supply = g.rules.pieces_per_player - self.own[p].bit_count()
        if kind == "exchange":
            if supply < g.max_card_size:
                self._note_shortage(p, supply)
            self.exchanges[p] += 1
            if self._frozen():
                self.over = self.stalled = True
        else:
            m = g.masks[c][s]
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

    def clone(self) -> "ThreeStarsState":
        # written out for this state (search agents clone on every simulation): twice as fast as the base's
        new = object.__new__(ThreeStarsState)
        new.game = self.game
        new.own = self.own[:]
        new.occupied, new.reserved = self.occupied, self.reserved
        new.scored = self.scored[:]
        new.scores = self.scores[:]
        new.hands = [h[:] for h in self.hands]
        new.deck, new.deck_n = self.deck[:], self.deck_n
        new.discard, new.discard_n = self.discard[:], self.discard_n
        new.queue = self.queue[:]
        new.player, new.winner, new.over, new.turns = self.player, self.winner, self.over, self.turns
        new.exchanges = self.exchanges[:]
        new.shortages = self.shortages[:]
        new.needed = self.needed[:]
        new.double_stars, new.by_blocking, new.stalled = self.double_stars, self.by_blocking, self.stalled
        new._history = self._history[:]
        return new

    def returns(self) -> list[float]:
        return [1.0 if p == self.winner else 0.0 for p in range(self.game.players)]

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

    def action_values(self, actions: Sequence[int]) -> list[float]:
        """`action_value` of each action, in one pass (the greedy agent and search priors weigh every legal
        action of a position): what depends only on the position — per star, its sole holder's potential
        and which cells other players hold — is worked out once, then each action costs a few bit
        operations per star it touches. The same numbers as `action_value` (tests compare them)."""
        g = self.game
        p = self.player
        own = self.own
        own_p = own[p]
        others = self.occupied & ~own_p
        scored, table = self.scored, g.action_table
        # before[t]: the mover's gain from the star's former sole holder losing it (+ for an opponent's
        # potential removed, - for the mover's own replaced); None for a scored star, worked out when needed
        before: list = [0.0 if x < 0 else None for x in scored]
        done = [x >= 0 for x in scored]
        out = []
        for action in actions:
            entry = table[action]
            if type(entry) is not tuple:  # an exchange or a draw
                out.append(entry)
                continue
            m, stars = entry
            mine = own_p | m
            value = 0.0
            for t, sm in stars:
                if not done[t]:
                    done[t] = True
                    sole = -1
                    for q, o in enumerate(own):
                        if o & sm:
                            if sole >= 0:
                                sole = -2
                                break
                            sole = q
                    if sole >= 0:
                        k = (own[sole] & sm).bit_count()
                        v = k * k + (100.0 if k == 6 else 0.0)
                        before[t] = v if sole != p else -v
                b = before[t]
                if b is None:
                    continue
                value += b
                if not others & sm & ~m:  # nobody else keeps a cell of it: the mover alone holds it after
                    k = (mine & sm).bit_count()
                    value += k * k + (100.0 if k == 6 else 0.0)
            out.append(value)
        return out

    # --- helpers --------------------------------------------------------------------------
    def _moves(self, p: int) -> tuple[list[int], list[int], bool]:
        """(place actions, steal actions, whether a move was refused only for lack of pieces)."""
        g = self.game
        occupied = self.occupied
        stealable = occupied & ~self.own[p] & ~self.reserved
        supply = g.rules.pieces_per_player - self.own[p].bit_count()
        places: list[int] = []
        steals: list[int] = []
        short = False
        last = -1
        for c in self.hands[p]:
            if c == last:
                continue
            last = c
            place, steal = g.place_ids[c], g.steal_ids[c]
            enough = g.card_sizes[c] <= supply
            for s, m in enumerate(g.masks[c]):
                if not m & occupied:
                    if enough:
                        places.append(place[s])
                    else:
                        short = True
                elif m & stealable == m:
                    if enough:
                        steals.append(steal[s])
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
