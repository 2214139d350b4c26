"""The TriLOOPite rules engine: both ways to play, any number of players, cooperative.

Everything comes from the design: the tile varieties with their lines and counts (the
`triloopite.tiles` faces, exactly as printed), the scoring tables under `rules:`
(pnp.games.triloopite.scoring) and which game to play (`rules.game`: standard or first).

Rules as implemented (seed 002, ../shared/specs/triloopite.md). Decisions the seed leaves
open are marked *decision*; the rulebook quotes them.

* Setup: the start tile lies in the middle of the table (cell (0, 0), rotation 0); every
  other tile is in the bag; hands are empty. The seed's "the first tile may go anywhere"
  is the start tile (*decision*: every later tile follows the placement rules). Seat 1
  begins.
* A turn: the player draws a tile at random from the bag (a chance action: each tile in
  the bag equally likely) into their hand, then either **places** one tile of their hand
  (the one just drawn or an earlier one), in any of its 6 rotations, or **keeps** (places
  nothing; the drawn tile stays in hand). Keeping is always allowed ("ne souhaite pas
  (ou ne peut pas)").
* Placement rules, checked when the tile is laid (pnp.games.triloopite.geometry.Board):
  the cell is empty (touch without overlapping); the tile touches at least one tile; at
  every edge it shares with a tile a line meets a line and a blank meets a blank (the
  lines' orientation); at least one of its lines continues a line of a neighbour (extend
  a line on at least one tile). Laid tiles never move.
* Standard game: when a player has drawn the last tile, they finish their turn and the
  game ends. Score (same for every player, cooperative): points for the number of
  closed loops, points for the longest loop's length, each bonus configuration present
  once, minus the sum over players of (tiles in hand) ** `hand_penalty_power` (2).
* First game (`rules.game: first`): the game ends as soon as a loop closes (after the
  placement that closes it), or, if none ever closes, like the standard game when the
  last tile has been drawn and played (*decision*). Result: the tiles left in all hands
  (lower is better; the engine returns minus that number) and the seed's verdict.
* Results: every player gets the same value (the team's score).

Action encoding (V bag varieties in print order, the table's cells packed as in Board,
NC = (2R + 1)^2 with R = the number of tiles; pnp.engine.codec): `keep = 0`, `place = 1 + (v * 6 + rot) * NC
+ cell` (only the rotations giving distinct tiles: a straight line has 3), `draw = 1 +
V * 6 * NC + v` (chance).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from pnp.engine.api import CHANCE, TERMINAL, Game, GameInfo, IllegalActionError, State
from pnp.engine.codec import ActionCodec
from pnp.engine.design import design_problem as _problem
from pnp.errors import ErrorReport
from pnp.games.triloopite.components import design_varieties
from pnp.games.triloopite.geometry import (
    BONUSES,
    Analysis,
    Board,
    Hex,
    Variety,
    analyse,
    gap as gap_of,
    join,
    port_mask,
    rotate_lines,
)
from pnp.games.triloopite.scoring import Rules, Score, read_rules, score
from pnp.model import Design

TILES_GENERATOR = "triloopite.tiles"
KEEP = 0  # keep is the first kind of action of the codec, so always action 0
SCORE_BUCKETS = ((None, -1), (0, 9), (10, 19), (20, 29), (30, 49), (50, 79), (80, None))


def design_tiles(design: Design) -> list[Variety]:
    """Every tile variety of the design, as its tiles component(s) print them."""
    return [spec.variety() for _, spec in design_varieties(design, TILES_GENERATOR)]


def start_and_bag(design: Design) -> tuple[Variety, list[Variety]]:
    """The one start tile and the bag's varieties (count > 0); DesignError unless exactly one start tile."""
    tiles = design_tiles(design)
    starts = [v for v in tiles if v.start and v.count > 0]
    n = sum(v.count for v in starts)
    if n != 1:
        report = ErrorReport()
        _problem(design, ("components",), f"{n} start tiles ({', '.join(v.id for v in starts) or 'none'}); "
                 "expected exactly one tile with start: true and count 1", report)
        report.raise_if_any()
    return starts[0], [v for v in tiles if not v.start and v.count > 0]


OUTLOOK_DECAY = 0.75
"""Leaf judgement (`TriloopiteState.outlook`): the chance that an open curve closes, per tile its gap needs."""
FIT_HORIZON = 6
"""Leaf judgement: the turns ahead over which a table that few tiles fit is expected to make players keep."""


@dataclass(frozen=True)
class Curve:
    """An unfinished curve on the table (`TriloopiteState.open_curves`)."""

    tiles: int
    """Distinct tiles it passes through."""
    gap: int
    """Tiles needed at least to close it: 1 when both ends face one cell, else the distance between the two
    cells the ends face + 1."""
    live: bool
    """Both ends face a cell some tile of the game can fill (and, facing one cell, a line can join them)."""
    start: bool
    """It passes through the start tile."""
    growing: int
    """Its ends (0, 1 or 2) that face a cell some tile of the game can fill."""
    cell: int
    """The cell both its ends face (a loop one tile from closing), else -1."""


class TriloopiteGame(Game):
    """TriLOOPite for a design at a player count; `mode` overrides rules.game (standard | first)."""

    search_settings: ClassVar[dict[str, float]] = {"c": 0.4}
    """What `mcts:N` changes in pnp.engine.openspiel_adapter.SearchSettings for this game: exploration 0.4 of
    the result range (-87..87 points), not 0.7: at 0.7 the greedy priors outweigh the leaf judgement's few points
    of difference between moves and the search plays like greedy (bench/agent_ladder.py, docs/balance.md)."""

    def __init__(self, design: Design, players: int, mode: str | None = None):
        self.design = design
        self.players = players
        self.rules: Rules = read_rules(design)
        self.mode = mode or self.rules.mode
        if self.mode not in ("standard", "first"):
            raise ValueError(f"mode {self.mode!r}; expected standard or first")
        self.start, self.varieties = start_and_bag(design)
        V = len(self.varieties)
        self.V = V
        self.bag0 = tuple(v.count for v in self.varieties)
        self.bag_size = sum(self.bag0)
        self.radius = self.bag_size + 1
        self.width = 2 * self.radius + 1
        self.NC = self.width * self.width
        # every variety's distinct rotations: (rot, lines, port mask)
        self.rots: list[list[tuple[int, tuple, int]]] = []
        for v in self.varieties:
            rows = []
            for k in v.rotations():
                lines = rotate_lines(v.lines, k)
                rows.append((k, lines, port_mask(lines)))
            self.rots.append(rows)
        self.rot_lines = [{k: lines for k, lines, _ in rows} for rows in self.rots]
        self.start_lines = self.start.lines
        # fillable[known * 64 + need]: some tile of the game fits a cell with these needs
        masks = {m for rows in self.rots for _, _, m in rows} | {port_mask(self.start.lines)}
        self.fillable = bytearray(64 * 64)
        for known in range(64):
            for m in masks:
                self.fillable[known * 64 + (m & known)] = 1
        # fits[known * 64 + need]: the varieties (a bit each) that fit a cell with these needs in some rotation
        self.fits = [0] * (64 * 64)
        for known in range(64):
            for need in range(64):
                if need & ~known:
                    continue
                for i, rows in enumerate(self.rots):
                    if need and any(m & known == need for _, _, m in rows):
                        self.fits[known * 64 + need] |= 1 << i
        self.two_lines = sum(1 << v for v, var in enumerate(self.varieties) if len(var.lines) > 1)
        self.codec = ActionCodec(f"triloopite:{design.slug}:{self.mode}", keep=(), place=(V, 6, self.NC), draw=(V,))
        assert self.codec.encode("keep") == KEEP
        self.draw_ids = self.codec.row("draw")
        self.place_ids = [[self.codec.row("place", v, rot) for rot in range(6)] for v in range(V)]
        p = self.rules.hand_penalty_power
        worst = max(self.bag_size ** p if p else players, 0)
        if self.mode == "first":
            lo, hi = -float(self.bag_size), 0.0
        else:
            lo, hi = -float(worst), float(self.rules.max_points)
        self.info = GameInfo(name=self.codec.name, num_players=players, min_utility=lo,
                             max_utility=hi, max_game_length=self.bag_size, max_chance_actions=self.bag_size,
                             num_distinct_actions=self.codec.size)

    # encoding
    def place_action(self, v: int, rot: int, cell: int) -> int:
        return self.codec.encode("place", v, rot, cell)

    def draw_action(self, v: int) -> int:
        return self.draw_ids[v]

    def decode(self, action: int) -> tuple[str, int, int, int]:
        """(kind, variety, rotation, cell) of an action; -1 where it does not apply."""
        return self.codec.unpack(action)

    def variety_index(self, vid: str) -> int:
        for i, v in enumerate(self.varieties):
            if v.id == vid:
                return i
        raise ValueError(f"no tile variety {vid!r} in the bag; expected one of {', '.join(v.id for v in self.varieties)}")

    def new_board(self) -> Board:
        b = Board(self.radius)
        b.place(b.cell_of((0, 0)), self.start_lines)
        return b

    def new_initial_state(self) -> "TriloopiteState":
        return TriloopiteState(self)

    def position(self, tiles: Sequence[tuple[str, int, Hex]] = (), hands: Mapping[int, Sequence[str]] | None = None,
                 bag: Mapping[str, int] | None = None, player: int = 0, drawing: bool = False) -> "TriloopiteState":
        """A position made from data (tests, rulebook examples).

        tiles: (variety id, rotation, (q, r)) laid after the start tile, in order, under the
        placement rules (PlacementError otherwise); hands: {seat: [variety id...]}; bag:
        {variety id: tiles} (default: every tile neither laid nor in a hand); player: the seat
        whose turn it is; drawing: True when that seat is about to draw (a chance node), False
        when it has drawn and places or keeps. ValueError when the tiles run short.
        """
        st = TriloopiteState(self)
        left = list(self.bag0)
        for vid, rot, h in tiles:
            v = self.variety_index(vid)
            st.board.place(st.board.cell_of(h), rotate_lines(self.varieties[v].lines, rot))
            left[v] -= 1
        for p, ids in (hands or {}).items():
            for vid in ids:
                v = self.variety_index(vid)
                st.hands[p][v] += 1
                left[v] -= 1
        if any(n < 0 for n in left):
            raise ValueError("the tiles laid and in hand are more than the bag holds")
        if bag is not None:
            given = [0] * self.V
            for vid, n in bag.items():
                given[self.variety_index(vid)] = n
            if any(g > n for g, n in zip(given, left)):
                raise ValueError("the bag holds more tiles than are left")
            left = given
        st.bag, st.bag_n = left, sum(left)
        st.player, st.drawing, st.turns = player, drawing, len(tiles)
        st.over = drawing and st.bag_n == 0
        return st


class TriloopiteState(State):
    """A position: the board, each hand (counts per variety), the bag, whose turn and whether drawing."""

    __slots__ = ("game", "board", "hands", "bag", "bag_n", "player", "drawing", "over", "turns",
                 "kept", "closed_by_loop", "_final", "_cache")

    def __init__(self, game: TriloopiteGame):
        super().__init__()
        self.game = game
        self.board = game.new_board()
        self.hands = [[0] * game.V for _ in range(game.players)]
        self.bag = list(game.bag0)
        self.bag_n = game.bag_size
        self.player = 0
        self.drawing = True
        self.over = self.bag_n == 0
        self.turns = 0
        self.kept = 0
        self.closed_by_loop = False
        self._final: tuple[Analysis, Score] | None = None
        self._cache: int | None = None

    # --- API ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.drawing else self.player

    def _legal_actions(self) -> list[int]:
        return [KEEP] + sorted(self._places())

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        n, draw = self.bag_n, self.game.draw_ids
        return [(draw[v], k / n) for v, k in enumerate(self.bag) if k]

    def sample_chance(self, rng: random.Random) -> int:
        x = int(rng.random() * self.bag_n)
        for v, k in enumerate(self.bag):
            if x < k:
                return self.game.draw_ids[v]
            x -= k
        raise RuntimeError("empty bag at a chance node")  # pragma: no cover

    def _why_illegal(self, action: int) -> str:
        g = self.game
        kind, v, rot, cell = g.decode(action)
        p = self.player
        if self.drawing:
            if kind != "draw":
                return "a tile must be drawn first; expected a draw"
            return "" if self.bag[v] else f"no {g.varieties[v].id} tile left in the bag"
        if kind == "draw":
            return "the tile is drawn already; expected a placement or keep"
        if kind == "keep":
            return ""
        if not self.hands[p][v]:
            return f"seat {p + 1} holds no {g.varieties[v].id} tile"
        rows = g.rot_lines[v]
        if rot not in rows:
            return (f"rotation {rot} of {g.varieties[v].id} repeats rotation {sorted(rows)}; "
                    f"expected one of {sorted(rows)}")
        return self.board.why_not(cell, rows[rot])

    def _apply(self, action: int) -> None:
        g = self.game
        kind, v, rot, cell = g.decode(action)
        p = self.player
        if self.drawing:
            self.bag[v] -= 1
            self.bag_n -= 1
            self.hands[p][v] += 1
            self.drawing = False
            return
        closed = 0
        if kind == "keep":
            self.kept += 1
        else:
            closed = self.board.place(cell, g.rot_lines[v][rot], check=False)
            self.hands[p][v] -= 1
        self.turns += 1
        self._final = None
        self._cache = None
        if g.mode == "first" and closed:
            self.over = self.closed_by_loop = True
        elif self.bag_n == 0:
            self.over = True
        else:
            self.player = (p + 1) % g.players
            self.drawing = True

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return self._text(action, player)

    def returns(self) -> list[float]:
        if self.game.mode == "first":
            value = float(-self.tiles_in_hand())
        else:
            value = float(self.final()[1].total)
        return [value] * self.game.players

    def key(self) -> tuple:
        return (tuple(sorted(self.board.lines.items())), tuple(tuple(h) for h in self.hands), tuple(self.bag),
                self.player, self.drawing, self.over, self.turns)

    def action_kind(self, action: int) -> str:
        return self.game.decode(action)[0]

    # --- results ------------------------------------------------------------------------
    def tiles_in_hand(self) -> int:
        return sum(sum(h) for h in self.hands)

    def final(self) -> tuple[Analysis, Score]:
        """The loop analysis of the layout so far and its standard-game score."""
        if self._final is None:
            a = analyse(self.board.layout(), start=(0, 0))
            self._final = (a, score(a, [sum(h) for h in self.hands], self.game.rules))
        return self._final

    def verdict(self, lang: str = "en") -> str:
        return self.game.rules.verdict(self.tiles_in_hand(), lang)

    def metrics(self) -> dict[str, int]:
        a, s = self.final()
        out = {
            "loops": a.count,
            "longest_loop": a.longest,
            "tiles_placed": len(self.board.lines),
            "tiles_in_hand": self.tiles_in_hand(),
            "hand_penalty": s.penalty,
            "kept": self.kept,
            "points_loops": s.loop_points,
            "points_longest": s.longest_points,
            "points_bonuses": s.bonus_points,
        }
        for k in BONUSES:
            out[f"bonus_{k}"] = int(a.bonuses[k])
        if self.game.mode == "first":
            out["first_game_tiles_in_hand"] = self.tiles_in_hand()
            out["first_game_ended_by_loop"] = int(self.closed_by_loop)
            for i, row in enumerate(self.game.rules.verdicts.rows):
                out[f"verdict_{i}:{row.label}"] = int(row.covers(self.tiles_in_hand()))
        else:
            out["score"] = s.total
            for i, (lo, hi) in enumerate(SCORE_BUCKETS):
                label = f"<{hi + 1}" if lo is None else (f"{lo}+" if hi is None else f"{lo}..{hi}")  # type: ignore[operator]
                inside = (lo is None or s.total >= lo) and (hi is None or s.total <= hi)
                out[f"score_{i}:{label}"] = int(inside)
        return out

    # --- moves and the greedy heuristic --------------------------------------------------
    def _places(self) -> list[int]:
        g = self.game
        hand = self.hands[self.player]
        out = []
        board = self.board
        # the cells a tile may go (touching the table, on the board), asked once rather than per tile and turn
        cands = [(cell, known, need) for cell, (known, need) in board.candidates().items()
                 if need and board.inside(cell)]
        for v, n in enumerate(hand):
            if not n:
                continue
            for rot, _, m in g.rots[v]:
                ids = g.place_ids[v][rot]
                for cell, known, need in cands:
                    if (m & known) == need:
                        out.append(ids[cell])
        return out

    def action_value(self, action: int) -> float:
        """Greedy heuristic: place rather than keep, close loops, bend curves back on themselves, keep ends alive.

        keep: -(2h - 1) with h tiles in hand (what keeping adds to the final square penalty).
        place: 10 + 40 per loop closed + 3 per line end joined + 1 per line of the tile (hard
        tiles first) + 2 per step the touched curves' two open ends come closer - 6 per open
        end left facing a cell no tile of the game can fill (dead) - 500 when no live end
        would remain while tiles are still to come (the table would be stuck for good).
        """
        g = self.game
        kind, v, rot, cell = g.decode(action)
        if kind == "keep":
            h = sum(self.hands[self.player])
            return -(2 * h - 1.0)
        if kind != "place":
            return 0.0
        b = self.board
        off = b.off
        lines = g.rot_lines[v][rot]
        m = port_mask(lines)
        known, need = b.needs(cell)
        overlay: dict = {}
        closed = join(b.partner, b.mask, off, cell, lines, overlay)
        value = 10.0 + 40.0 * closed + 3.0 * bin(need).count("1") + len(lines)
        fill = g.fillable
        width = b.width

        def dist(c1: int, c2: int) -> int:
            q1, r1 = divmod(c1, width)
            q2, r2 = divmod(c2, width)
            dq, dr = q1 - q2, r1 - r2
            return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

        # curves touched before: the neighbours' ends facing this cell
        before = 0
        seen: set = set()
        for k in range(6):
            if need >> k & 1:
                e = (cell + off[k]) * 6 + (k + 3) % 6
                pe = b.partner.get(e)
                if pe is not None and e not in seen:
                    seen.add(e)
                    seen.add(pe)
                    before += dist(cell, pe // 6 + off[pe % 6])
        after = 0
        seen = set()
        base = cell * 6
        for k in range(6):
            if m >> k & 1 and not known >> k & 1:
                e = base + k
                pe = overlay.get(e, b.partner.get(e))
                if pe is not None and e not in seen:
                    seen.add(e)
                    seen.add(pe)
                    after += dist(cell + off[k], pe // 6 + off[pe % 6])
        value += 2.0 * (before - after)
        # live ends: those facing a cell some tile can still fill
        live = self._live()
        live -= bin(need).count("1")
        for k, o in enumerate(off):
            if known >> k & 1:
                continue
            n = cell + o
            kn, nd = b.needs(n)
            if not nd and not m >> k & 1:
                continue
            ok_before = nd and fill[kn * 64 + nd]
            bit = 1 << ((k + 3) % 6)
            kn2 = kn | bit
            nd2 = nd | (bit if m >> k & 1 else 0)
            ok_after = nd2 and fill[kn2 * 64 + nd2]
            if ok_before:
                live -= bin(nd).count("1")
            if ok_after:
                live += bin(nd2).count("1")
            elif nd2 and (ok_before or not nd):
                value -= 6.0 * bin(nd2).count("1")
        if live <= 0 and self.bag_n > 0 and not (g.mode == "first" and closed):
            value -= 500.0
        return value

    def _live(self) -> int:
        """Open ends facing a cell that some tile of the game can fill (cached per position)."""
        if self._cache is None:
            fill = self.game.fillable
            self._cache = sum(bin(nd).count("1") for kn, nd in self.board.candidates().values()
                              if fill[kn * 64 + nd])
        return self._cache

    def _text(self, action: int, player: int | None = None) -> str:
        g = self.game
        try:
            kind, v, rot, cell = g.decode(action)
        except IllegalActionError:
            return f"action {action}"
        p = self.player if player is None else player
        who = f"seat {p + 1}" if 0 <= p < g.players else "chance"
        if kind == "keep":
            return f"{who} keeps"
        if kind == "draw":
            return f"{who} draws {g.varieties[v].id}"
        q, r = self.board.hex_of(cell)
        return f"{who} places {g.varieties[v].id} turned {rot} at [{q}, {r}]"

    # --- what a player knows (search with hidden information: pnp.engine.openspiel_adapter) ----
    def information_key(self, player: int) -> tuple:
        """What `player` knows: the layout, their own hand, and only how many tiles the other hands and
        the bag hold (*decision*: hands are not shown; the bag's mix is known only as what is unseen)."""
        return (tuple(sorted(self.board.lines.items())), tuple(self.hands[player]),
                tuple(sum(h) for h in self.hands), self.bag_n, self.player, self.drawing, self.over, self.turns)

    def resample_from_infostate(self, player: int, rng) -> "TriloopiteState":
        """A position `player` cannot tell from this one: the other hands dealt again at random from the
        tiles `player` has not seen (those hands and the bag), each hand keeping its size."""
        new = self.clone()
        pool = list(self.bag)
        for q, hand in enumerate(self.hands):
            if q != player:
                pool = [a + b for a, b in zip(pool, hand)]
        n = sum(pool)
        for q, hand in enumerate(self.hands):
            if q == player:
                continue
            dealt = [0] * len(pool)
            for _ in range(sum(hand)):
                x = int(rng.random() * n)
                for v, k in enumerate(pool):
                    if x < k:
                        break
                    x -= k
                pool[v] -= 1
                n -= 1
                dealt[v] += 1
            new.hands[q] = dealt  # type: ignore[attr-defined]
        new.bag, new.bag_n = pool, n  # type: ignore[attr-defined]
        new._final = None  # type: ignore[attr-defined]
        return new  # type: ignore[return-value]

    def heuristic_returns(self) -> list[float]:
        """The team's expected final score, for search leaves: the score if the game stopped here
        (`returns()`) plus what the open curves still promise and minus the risk of a stuck table
        (`outlook()`). The first game: `returns()` (minus the tiles in hand)."""
        if self.over or self.game.mode == "first":
            return self.returns()
        value = float(self.final()[1].total) + self.outlook()
        return [value] * self.game.players

    def open_curves(self) -> list[Curve]:
        """Every unfinished curve on the table, followed from one open end to the other (see `Curve`)."""
        b = self.board
        off, lines, fill = b.off, b.lines, self.game.fillable
        other: dict[int, int] = {}
        for cell, lns in lines.items():
            base = cell * 6
            for x, y in lns:
                other[base + x] = y
                other[base + y] = x
        start = b.cell_of((0, 0))
        cands = b.candidates()
        width = b.width
        out = []
        seen: set[int] = set()
        for e in b.partner:
            if e in seen:
                continue
            cell, port = divmod(e, 6)
            tiles: set[int] = set()
            while True:  # along the curve to its other open end
                tiles.add(cell)
                o = other[cell * 6 + port]
                n = cell + off[o]
                if n not in lines:
                    break
                cell, port = n, (o + 3) % 6
            seen.add(e)
            seen.add(cell * 6 + o)
            c1, c2 = e // 6 + off[e % 6], n
            growing = sum(1 for c in (c1, c2) if fill[cands[c][0] * 64 + cands[c][1]])
            live = growing == 2
            if c1 == c2:  # one tile closes it when a line can join the two ports (2 or 3 apart)
                gap = 1
                live = live and gap_of(((e % 6 + 3) % 6, (o + 3) % 6)) >= 2
            else:
                q1, r1 = divmod(c1, width)
                q2, r2 = divmod(c2, width)
                dq, dr = q1 - q2, r1 - r2
                gap = (abs(dq) + abs(dr) + abs(dq + dr)) // 2 + 1
            out.append(Curve(len(tiles), gap, live, start in tiles, growing, c1 if c1 == c2 else -1))
        return out

    def outlook(self) -> float:
        """What the table still promises, in points (0 at the end of the game; never changes a rule).

        Each open curve whose two ends can still be extended may close into a loop of about
        (its tiles + its gap) tiles, with a chance of OUTLOOK_DECAY ** gap (0 when fewer
        placements are left than the gap). Added: the loop-count table's points for the
        expected number of loops (interpolated between rows), the best expected gain of the
        longest-loop table, and the start-loop bonus (not yet earned) for a curve through the
        start tile. Removed, when no open end can be extended any more (no tile can ever be
        placed again): the hand penalty of every tile still to come staying in its drawer's hand;
        otherwise, for the next FIT_HORIZON draws, the chance that a tile drawn fits nowhere
        (by the varieties left in the bag) times what keeping it costs (2h + 1 for h tiles in
        a hand, the mean hand). When one curve alone can still grow, closing it with a one-line
        tile would end the placing for good: its closing counts only with a two-line tile (the
        bag's share of them), and a one-line tile on the cell both its ends face fits nowhere.
        """
        g = self.game
        rules = g.rules
        a, sc = self.final()
        left = self.bag_n + (0 if self.drawing else 1)  # placements still possible
        value = 0.0
        if left:
            expected = 0.0
            best_long = 0.0
            best_start = 0.0
            lp = rules.longest_loop_points
            now = lp.points(a.longest)
            start_bonus = 0 if a.bonuses["start_loop"] else rules.bonuses.get("start_loop", 0)
            curves = self.open_curves()
            sole = sum(1 for c in curves if c.growing) == 1
            for c in curves:
                if not c.live or c.gap > left:
                    continue
                p = OUTLOOK_DECAY ** c.gap
                if sole and self.bag_n:  # closing the only curve with a one-line tile would end the placing
                    p *= self._two_line_share()
                expected += p
                best_long = max(best_long, p * (lp.points(max(a.longest, c.tiles + c.gap)) - now))
                if c.start:
                    best_start = max(best_start, p * start_bonus)
            n = a.count + expected
            lo = int(n)
            table = rules.loop_points
            value += (table.points(lo) + (n - lo) * (table.points(lo + 1) - table.points(lo))
                      - table.points(a.count))
            value += best_long + best_start
        if self.bag_n and not self._live():  # no tile can ever be placed again
            value -= self._penalty_if_stuck() - sc.penalty
        elif self.bag_n:  # the tiles to come that fit nowhere will be kept
            miss = 1.0 - self._fit_chance(curves if left else self.open_curves())
            if miss:
                h = self.tiles_in_hand() / g.players
                value -= miss * min(self.bag_n, FIT_HORIZON) * (2.0 * h + 1.0)
        return value

    def _fit_chance(self, curves: Sequence[Curve]) -> float:
        """The chance that the next tile drawn from the bag fits some cell of the table as it is, without closing
        the table's only curve for good (a one-line tile on the cell both its ends face)."""
        g = self.game
        fits = g.fits
        growing = [c for c in curves if c.growing]
        last = growing[0].cell if len(growing) == 1 else -1
        ok = 0
        for cell, (kn, nd) in self.board.candidates().items():
            f = fits[kn * 64 + nd]
            ok |= f & g.two_lines if cell == last else f
        return sum(k for v, k in enumerate(self.bag) if ok >> v & 1) / self.bag_n if self.bag_n else 1.0

    def _two_line_share(self) -> float:
        """The share of the bag's tiles that carry two lines."""
        two = self.game.two_lines
        return sum(k for v, k in enumerate(self.bag) if two >> v & 1) / self.bag_n if self.bag_n else 0.0

    def _penalty_if_stuck(self) -> int:
        """The hand penalty at the end if every tile still to be drawn stayed in its drawer's hand."""
        g = self.game
        hands = [sum(h) for h in self.hands]
        p = self.player if self.drawing else (self.player + 1) % g.players
        for _ in range(self.bag_n):
            hands[p] += 1
            p = (p + 1) % g.players
        return sum(h ** g.rules.hand_penalty_power for h in hands)

    def __str__(self) -> str:
        g = self.game
        lines = [f"turn {self.turns}, {'over' if self.over else f'seat {self.player + 1}'}; "
                 f"{len(self.board.lines)} tiles down, {self.bag_n} in the bag, {self.board.loops} loop(s)"]
        for p in range(g.players):
            hand = ", ".join(f"{g.varieties[v].id} x{n}" for v, n in enumerate(self.hands[p]) if n)
            lines.append(f"  seat {p + 1}: {hand or 'empty hand'}")
        return "\n".join(lines)


def make_engine(design: Design, players: int) -> TriloopiteGame:
    """The registered engine factory: TriLOOPite for `design` at `players` players (rules.game decides the mode)."""
    return TriloopiteGame(design, players)
