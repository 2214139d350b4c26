"""TUBO on the `pnp play` page: the position drawn with the rulebook's painter, the clicks it maps to actions,
a text view, the log's texts and the position as the data of a rulebook diagram.

Everything in TUBO is open (the stocks are chosen in view, their pieces lie on the table): every seat sees the
same picture, so `viewer` changes nothing and there is no chance to mask.

What a click means (`data-actions`, the engine's actions; the page intersects the sets of the elements clicked in
a row and plays the one legal action left):
* stock choice: each colour stock of the box carries its draft action (a stock already taken: the engine says so);
* the Objective: each cell carries its Objective action (a grey cell: the engine's reason);
* where a path goes on from: each side of Start and of every Close piece in play carries that open action, and a
  cell carries the open actions of its own sides and of the sides leading into it (a click on the cell beyond a
  free branch of Start plays that branch); a cell that starts nothing gets the engine's reason;
* laying a piece: the piece is the only choice (the cell is where the open end leads): each piece of the stock of
  the seat to act carries its place action (a piece that does not fit, or none left: the engine's reason), and
  the target cell carries them all; "no piece to lay" (a stock without a fitting piece nor a Close piece) is a
  button, drawn when it is the one legal action.

The pieces keep the colour of the stock they came from, read from the state's history; a position made from data
(`game.position`, a rulebook diagram) has none, and its pieces take the colour of seat 1's stock of the round they
were laid in.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from pnp.errors import PnpError
from pnp.games.tubo.components import INK
from pnp.games.tubo.engine import (
    CLOSE,
    CLOSED,
    CONNECTORS,
    DRAFT,
    OPEN,
    OVER,
    PATH,
    PLACE,
    PLACE_OBJECTIVE,
    STUCK,
    TuboGame,
    TuboState,
    cell_name,
)
from pnp.games.tubo.facts import ZONES
from pnp.games.tubo.geometry import SIDE_NAMES, connector_name
from pnp.games.tubo.painter import Painter
from pnp.games.tubo.scripts import Laid, stock_params
from pnp.model import Design
from pnp.registry import Clickable, PlayView, clickable
from pnp.render.svg import Canvas
from pnp.rulebook import glossary
from pnp.rulebook.figures import GOOD, HIGHLIGHT, badge
from pnp.rulebook.words import COLOURS, SIDE_LETTERS, word

UNIT, MARGIN = 10.0, 9.0  # the board: mm per cell, margin for the coordinates (as the rulebook's diagrams)
TOP = 11.0  # the status line above the board
PANEL = 86.0  # the seats, their stocks and the box's stocks, right of the board
SEAT_H = 35.0
HAND = 8.6  # a piece of a stock in the panel
HAND_GAP = 3.0

WORDS: Mapping[str, Mapping[str, str]] = MappingProxyType({  # read-only: the page's words, per language
    "en": {"seat": "Seat {n}", "to_play": "{who} to play: {what}", "draft": "choose a colour stock",
           "objective": "place the Objective piece on a cell of the {zone} zone",
           "open_start": "choose the branch of Start the path leaves from",
           "open_close": "choose a Close piece in play and the side the path goes on from",
           "place": "lay a piece on {cell}", "over": "Game over: {result}",
           "reached": "{who} reaches the Objective and wins", "points": "{who} wins on points",
           "draw": "a draw on points", "score": "{n} points", "score1": "1 point", "cell": "cell {cell}",
           "stuck": "no piece to lay", "stocks": "Colour stocks (click one to choose it)",
           "round": "Path round {r} of {n}", "towards": "{what} towards {side}", "sep": ": ",
           "hand": "stock {colour}", "before": "Before the first path round"},
    "fr": {"seat": "Joueur {n}", "to_play": "À {who} de jouer : {what}", "draft": "choisir un stock de couleur",
           "objective": "poser la Pièce Objectif sur une case de la zone {zone}",
           "open_start": "choisir la branche de la Case Départ d'où part le chemin",
           "open_close": "choisir une Pièce Close en jeu et le côté d'où repart le chemin",
           "place": "poser une pièce en {cell}", "over": "Partie terminée : {result}",
           "reached": "{who} atteint l'Objectif et gagne", "points": "{who} gagne aux points",
           "draw": "égalité aux points, partie nulle", "score": "{n} points", "score1": "1 point",
           "cell": "case {cell}", "stuck": "aucune pièce à poser",
           "stocks": "Stocks de couleur (cliquer pour choisir)", "round": "Tour Chemin {r} sur {n}",
           "towards": "{what} vers {side}", "sep": " : ", "hand": "stock {colour}",
           "before": "Avant le premier Tour Chemin"},
})


def _w(key: str, lang: str, **values: object) -> str:
    table = WORDS.get(lang, WORDS["en"])
    return table.get(key, WORDS["en"][key]).format(**values)


def _terms() -> glossary.Glossary:
    return glossary.of_package(__file__)


def seat_name(player: int, lang: str) -> str:
    return _w("seat", lang, n=player + 1)


def _side(side: int, lang: str) -> str:
    return SIDE_LETTERS.get(lang, SIDE_LETTERS["en"])[side]


def _colour_name(name: str, lang: str) -> str:
    return word(COLOURS, name, lang)


def _piece_label(piece: int, stock: str, lang: str) -> str:
    colour = _colour_name(stock, lang)
    if piece == CLOSE:
        return _terms().label("close", lang, colour=colour)
    return _terms().label("connector", lang, colour=colour, sides="-".join(_side(s, lang) for s in CONNECTORS[piece]))


def status(state: TuboState, lang: str) -> str:
    """Whose turn and what to do, or the result."""
    g = state.game
    if state.phase == OVER:
        if state.reached:
            result = _w("reached", lang, who=seat_name(state.winner, lang))
        elif state.winner >= 0:
            result = _w("points", lang, who=seat_name(state.winner, lang))
        else:
            result = _w("draw", lang)
        return _w("over", lang, result=result)
    if state.phase == DRAFT:
        what = _w("draft", lang)
    elif state.phase == PLACE_OBJECTIVE:
        zone = g.rules.objective_zone
        what = _w("objective", lang, zone=ZONES.get(lang, {}).get(zone, zone))
    elif state.phase == OPEN:
        what = _w("open_close" if _from_closes(state) else "open_start", lang)
    else:
        t, _ = state.target()
        what = _w("place", lang, cell=cell_name(g.board, g.board.cell(t)))
    return _w("to_play", lang, who=seat_name(state.player, lang), what=what)


def _from_closes(state: TuboState) -> bool:
    """After an infinite loop with Close pieces in play: the path goes on from one of them (not from Start)."""
    return state.last_loop and any(o >= 0 for o in state.opening)


def _score(n: int, lang: str) -> str:
    return _w("score1", lang) if n == 1 else _w("score", lang, n=n)


def _stock_of(state: TuboState, player: int) -> int | None:
    """The stock (index in the box) the seat plays in the current round (the first one before round 1)."""
    k = max(state.round, 1) - 1
    return state.drafted[player][k] if k < len(state.drafted[player]) else None


def _hand_of(state: TuboState, player: int) -> list[int] | None:
    k = max(state.round, 1) - 1
    return state.hands[player][k] if k < len(state.hands[player]) else None


# --- the pieces on the board ----------------------------------------------------------------------------------
def laid_pieces(state: TuboState, colours: list[str]) -> tuple[list[Laid], list[tuple[tuple[int, int], int]]]:
    """Every piece laid, in order (covered ones too), each in its stock's colour, and the Close pieces used as a
    way out (cell, side): replayed from the state's history. A state whose history does not lead to it (made by
    `game.position`) gives its visible pieces, coloured by round (seat 1's stock of that round)."""
    g = state.game
    b = g.board
    st = g.new_initial_state()
    laid: list[Laid] = []
    exits: list[tuple[tuple[int, int], int]] = []
    try:
        for action in state.history():
            kind, a, side = g.decode(action)
            if kind == "place" and a < STUCK:
                t, entry = st.target()
                p = st.player
                laid.append(Laid(b.cell(t), a, entry, colours[st.drafted[p][st.round - 1]], p, st.round,
                                 len(laid) + 1, entry))
            elif kind == "open" and a != g.start:
                exits.append((b.cell(a), side))
            st.apply_action(action)
    except ValueError:  # (IllegalActionError is one) a history that is not this game's: the cells alone
        st = g.new_initial_state()
    if st.key() == state.key():
        return laid, exits
    laid = []
    for i in range(g.C):
        shown = state.kind[i]
        if shown not in (PATH, CLOSED) or state.laid_in[i] < 1:
            continue
        r = state.laid_in[i]
        stock = state.drafted[0][r - 1] if r - 1 < len(state.drafted[0]) else 0
        if shown == CLOSED:
            piece, opening = CLOSE, state.opening[i]
        else:
            piece = g.port_mask.index(state.ports[i])
            opening = CONNECTORS[piece][0]
        laid.append(Laid(b.cell(i), piece, opening, colours[stock], 0, r, len(laid) + 1, opening))
    return laid, []


# --- the picture ----------------------------------------------------------------------------------------------
class _View:
    """One picture of a position: the board (the rulebook's painter), the seats' stocks, the box's stocks while
    they are chosen; `clickable`: with the click data of the page."""

    def __init__(self, design: Design, state: TuboState, lang: str, clickable: bool, scores: bool):
        self.design, self.state, self.lang = design, state, lang
        self.clickable, self.show_scores = clickable, scores
        self.g: TuboGame = state.game
        self.p = Painter(design, UNIT, MARGIN)
        self.hp = Painter(design, HAND, 0.0)
        self.stocks = stock_params(design).stocks
        self.colours = [s.colour for s in self.stocks]
        self.legal = set(state.legal_actions()) if state.phase != OVER else set()
        self.x0 = self.p.width + 4.0
        self.width = self.x0 + PANEL
        panel = 2 * (SEAT_H + 3) + 2 + (36.0 if state.phase == DRAFT else 16.0)  # the seats, then `below`
        self.height = TOP + max(self.p.height, panel)
        self.c = Canvas(self.width, self.height)

    def attrs(self, actions: list[int], label: str) -> Clickable | dict[str, str]:
        if not self.clickable:
            return {}
        return clickable(actions, label)

    def hit(self, x: float, y: float, w: float, h: float, actions: list[int], label: str) -> None:
        """A transparent clickable rectangle (its fill takes the clicks)."""
        if self.clickable and actions:
            self.c.rect(x, y, w, h, fill="#ffffff", fill_opacity="0", **clickable(actions, label))

    def draw(self) -> str:
        c = self.c
        c.rect(0, 0, self.width, self.height, fill="#ffffff")
        c.text(2.0, 7.0, status(self.state, self.lang), size=3.6, weight="bold",
               fill=HIGHLIGHT if self.state.phase != OVER else INK)
        with c.group(transform=f"translate(0,{TOP})"):
            self.board()
        for player in range(self.g.players):
            self.seat(player, TOP + player * (SEAT_H + 3))
        self.below(TOP + 2 * (SEAT_H + 3) + 2)
        return c.to_string()

    # the board
    def board(self) -> None:
        st, g, p, c = self.state, self.g, self.p, self.c
        objective = g.board.cell(st.objective) if st.objective >= 0 else None
        p.ground(c, objective=objective)
        laid, exits = laid_pieces(st, self.colours)
        p.pieces(c, laid)
        for cell, side in exits:
            p.arrow(c, p.centre(cell), p.port(cell, side, out=p.unit * 0.1), HIGHLIGHT, 0.7, 1.8)
        if st.phase == PLACE:
            t, entry = st.target()
            cell = g.board.cell(t)
            p.frame(c, cell, HIGHLIGHT, 0.8)
            p.arrow(c, p.port(cell, entry, out=p.unit * 0.45), p.port(cell, entry, out=-p.unit * 0.08))
        if st.phase == PLACE_OBJECTIVE:
            for i in range(g.C):
                self.cell_hit(i, [g.objective_ids[i]])
        elif st.phase == OPEN:
            self.open_hits()
        elif st.phase == PLACE:
            t, _ = st.target()
            self.cell_hit(t, [g.place_ids[k] for k in range(CLOSE + 1)])

    def cell_hit(self, i: int, actions: list[int]) -> None:
        cell = self.g.board.cell(i)
        x, y = self.p.xy(cell)
        self.hit(x, y, self.p.unit, self.p.unit, actions, _w("cell", self.lang, cell=cell_name(self.g.board, cell)))

    def open_hits(self) -> None:
        """Every cell: the open actions of its sides and of the sides of Start or a Close piece leading into it;
        then the sides of Start and of the Close pieces in play, each its own action (drawn on top)."""
        st, g, p, c = self.state, self.g, self.p, self.c
        sources = [g.start] + [i for i in range(g.C) if st.opening[i] >= 0]
        into: dict[int, list[int]] = {}
        for i in sources:
            for s in range(4):
                into.setdefault(g.step[i][s], []).append(g.codec.encode("open", i, s))
        for i in range(g.C):
            own = [g.codec.encode("open", i, s) for s in range(4)]
            self.cell_hit(i, into.get(i, []) + own)
        for i in sources:
            cell = g.board.cell(i)
            cx, cy = p.centre(cell)
            where = _terms().term("start", self.lang) if i == g.start else \
                f"{_terms().term('close_piece', self.lang)} {cell_name(g.board, cell)}"
            for s in range(4):
                if i != g.start and s == st.opening[i]:
                    continue  # never back through its opening (the cell's own set still says why)
                action = g.codec.encode("open", i, s)
                ok = action in self.legal
                tip = p.port(cell, s, out=-p.unit * 0.04)
                base = p.port(cell, s, out=-p.unit * 0.3)
                dx, dy = tip[0] - cx, tip[1] - cy
                n = (dx * dx + dy * dy) ** 0.5 or 1.0
                ox, oy = -dy / n * p.unit * 0.2, dx / n * p.unit * 0.2
                points = [tip, (base[0] + ox, base[1] + oy), (base[0] - ox, base[1] - oy)]
                label = _w("towards", self.lang, what=where, side=_side(s, self.lang))
                c.polygon(points, fill=HIGHLIGHT if ok else "#9a9a9a", stroke="#ffffff", stroke_width=0.3,
                          opacity="1" if ok else "0.6", **self.attrs([action], label))

    # the panel
    def seat(self, player: int, y: float) -> None:
        st, c, x0, lang = self.state, self.c, self.x0, self.lang
        acting = st.phase != OVER and st.player == player
        c.rect(x0, y, PANEL - 2, SEAT_H, fill="#fbf6f8" if acting else "#ffffff",
               stroke=HIGHLIGHT if acting else "#bbbbbb", stroke_width=0.7 if acting else 0.25, rx=1.5)
        name = seat_name(player, lang)
        if acting:
            c.polygon([(x0 + 1.8, y + 2.6), (x0 + 4.4, y + 4.3), (x0 + 1.8, y + 6.0)], fill=HIGHLIGHT)
        c.text(x0 + 5.5, y + 5.6, name, size=3.4, weight="bold", fill=HIGHLIGHT if acting else INK)
        if self.show_scores and st.round >= 1:
            c.text(x0 + PANEL - 4, y + 5.6, _score(st.scores()[player], lang), size=3.4, anchor="end",
                   weight="bold", fill=INK)
        sep = _w("sep", lang)
        words = _terms()
        line = (f"{words.term('loops', lang, 2)}{sep}{st.loops[player]}   "
                f"{words.term('close_pieces', lang, 2)}{sep}{st.closes[player]}")
        c.text(x0 + 2.5, y + 10.6, line, size=2.5, fill="#444444")
        self.stock_strip(player, x0 + PANEL - 4, y + 7.8)
        stock = _stock_of(st, player)
        hand = _hand_of(st, player)
        if stock is None or hand is None:
            return
        c.text(x0 + 2.5, y + 15.0, _w("hand", lang, colour=_colour_name(self.stocks[stock].name, lang)), size=2.4,
               fill="#444444")
        playing = st.phase == PLACE and st.player == player
        for piece in range(CLOSE + 1):
            px = x0 + 2.5 + piece * (HAND + HAND_GAP)
            py = y + 16.8
            action = self.g.place_ids[piece]
            label = _piece_label(piece, self.stocks[stock].name, lang)
            with c.group(opacity="1" if hand[piece] > 0 else "0.3", **(self.attrs([action], label) if playing else {})):
                self.hp.piece_face(c, px, py, piece, self.stocks[stock].colour, 2, HAND)
                if playing and action in self.legal:
                    c.rect(px - 0.6, py - 0.6, HAND + 1.2, HAND + 1.2, stroke=GOOD, stroke_width=0.6, rx=0.6)
            c.text(px + HAND / 2, py + HAND + 3.6, f"×{hand[piece]}", size=2.6, anchor="middle", weight="bold",
                   fill=INK if hand[piece] > 0 else "#999999")

    def stock_strip(self, player: int, right: float, y: float) -> None:
        """The seat's stocks in the order chosen (small squares, right-aligned): played ones faded, the round's
        one framed."""
        st, c = self.state, self.c
        per = self.g.rules.stocks_per_player
        size, gap = 4.2, 1.2
        for k in range(per):
            x = right - (per - k) * (size + gap) + gap
            if k >= len(st.drafted[player]):
                c.rect(x, y, size, size, stroke="#bbbbbb", stroke_width=0.25, rx=0.5)
                continue
            spec = self.stocks[st.drafted[player][k]]
            done = k < st.round - 1
            c.rect(x, y, size, size, fill=spec.colour, opacity="0.3" if done else "1", rx=0.5,
                   stroke=INK if k == max(st.round, 1) - 1 else None, stroke_width=0.5)

    def below(self, y: float) -> None:
        st, c, x0, lang, g = self.state, self.c, self.x0, self.lang, self.g
        if st.phase == DRAFT:
            self.box(y)
            return
        if st.round >= 1:
            text = _w("round", lang, r=st.round, n=g.rules.path_rounds)
        else:
            text = _w("before", lang)
        c.text(x0 + 2.5, y + 4.0, text, size=3.0, fill=INK)
        stuck = g.place_ids[STUCK]
        if st.phase == PLACE and stuck in self.legal:
            with c.group(**self.attrs([stuck], _w("stuck", lang))):
                c.rect(x0 + 2.5, y + 6.0, 40, 6.5, fill=HIGHLIGHT, rx=1.2)
                c.text(x0 + 22.5, y + 10.5, _w("stuck", lang), size=2.8, anchor="middle", weight="bold",
                       fill="#ffffff")

    def box(self, y: float) -> None:
        """The colour stocks of the box while they are chosen: each one its draft action; taken ones faded, with
        the number of the seat that took it."""
        st, c, x0, lang, g = self.state, self.c, self.x0, self.lang, self.g
        c.text(x0 + 2.5, y + 3.5, _w("stocks", lang), size=2.8, weight="bold", fill=INK)
        owner = {k: p for p, ks in enumerate(st.drafted) for k in ks}
        cols = 4
        for k, spec in enumerate(self.stocks[:g.S]):
            px = x0 + 2.5 + (k % cols) * 20.5 + 5.5
            py = y + 6.0 + (k // cols) * 14.0
            name = _colour_name(spec.name, lang)
            taken = k in owner
            with c.group(opacity="0.35" if taken else "1", **self.attrs([g.draft_ids[k]], name)):
                self.hp.piece_face(c, px, py, 4, spec.colour, 2, HAND)  # an E-W connector of the stock
                c.text(px + HAND / 2, py + HAND + 3.2, name, size=2.4, anchor="middle", fill=INK)
            if taken:
                badge(c, px + HAND, py, 2.2, str(owner[k] + 1), HIGHLIGHT, line=0.4)


def picture(design: Design, state: TuboState, lang: str, clickable: bool = True, scores: bool = True) -> str:
    """The position: the board as the rulebook draws it, the seats' stocks and scores, whose turn; with the page's
    click data when `clickable`. `scores=False` leaves the points out (a position made from data holds only the
    current round's stock, so its points would be wrong)."""
    return _View(design, state, lang, clickable, scores).draw()


def draw(design: Design, state: TuboState, viewer: int | None, lang: str) -> str:
    """Every seat sees the same picture (nothing is hidden in TUBO)."""
    return picture(design, state, lang)


def text(state: TuboState, viewer: int | None, lang: str) -> str:
    """Whose turn, the round, each seat's points, loops, Close pieces and stock of the round, then the board
    (S Start, O the Objective, x a Close piece, | - + path pieces)."""
    g = state.game
    stocks = g.stocks
    sep = _w("sep", lang)
    words = _terms()
    lines = [status(state, lang)]
    if state.round >= 1:
        lines.append(_w("round", lang, r=state.round, n=g.rules.path_rounds))
    scores = state.scores()
    for p in range(g.players):
        row = f"{seat_name(p, lang)}{sep}{_score(scores[p], lang)}" if state.round >= 1 else seat_name(p, lang)
        row += (f", {words.term('loops', lang, 2)} {state.loops[p]}, "
                f"{words.term('close_pieces', lang, 2)} {state.closes[p]}")
        stock, hand = _stock_of(state, p), _hand_of(state, p)
        if stock is not None and hand is not None:
            pieces = " ".join(f"{'-'.join(_side(s, lang) for s in CONNECTORS[k])}×{hand[k]}" for k in range(CLOSE))
            row += f"; {_w('hand', lang, colour=_colour_name(stocks[stock].name, lang))}{sep}{pieces} " \
                   f"{words.term('close_piece', lang)}×{hand[CLOSE]}"
        lines.append(row)
    lines += str(state).splitlines()[1:]
    return "\n".join(lines)


def action_text(before: TuboState, action: int, viewer: int | None) -> str:
    """The engine's words (no chance and nothing hidden in TUBO)."""
    return before.action_to_string(action, before.current_player() if before.current_player() >= 0 else None)


# --- the position as data ---------------------------------------------------------------------------------------
def position(state: TuboState) -> dict:
    """The arguments of `game.position(...)` that lay out this position again, as JSON values (cells as printed,
    sides as letters N E S W, `hands` keyed by the seat's number as a string: read them back with
    `position_state`). From the first path round on: before it there is no Objective on the board, which
    `game.position` needs. What the data cannot hold (game.position has no word for it): the pieces left in the
    stocks of earlier rounds (so the points of a later round), the end of the game (a finished game comes back as
    its last position, the seat that moved last to play), and whether the path goes on from a Close piece after
    a loop."""
    g = state.game
    b = g.board
    if state.objective < 0 or state.round < 1:
        raise PnpError("TUBO: no position data before the first path round (the Objective is not on the board "
                       "yet); expected a game whose Objective is placed")

    def name(i: int) -> str:
        return cell_name(b, b.cell(i))

    pieces = {name(i): [connector_name(CONNECTORS[g.port_mask.index(state.ports[i])]), state.laid_in[i]]
              for i in range(g.C) if state.kind[i] == PATH}
    closes = {name(i): [SIDE_NAMES[state.opening[i]], state.laid_in[i]]
              for i in range(g.C) if state.kind[i] == CLOSED}
    hands: dict[str, dict[str, int]] = {}
    for p in range(g.players):
        printed = g.stocks[state.drafted[p][state.round - 1]].counts
        hand = state.hands[p][state.round - 1]
        diff = {("close" if k == CLOSE else connector_name(CONNECTORS[k])): hand[k]
                for k in range(CLOSE + 1) if hand[k] != printed[k]}
        if diff:
            hands[str(p)] = diff
    return {
        "objective": name(state.objective), "round": state.round,
        "branches": [SIDE_NAMES[s] for s in range(4) if state.branches_used >> s & 1],
        "pieces": pieces, "closes": closes,
        "end": [name(state.end_cell), SIDE_NAMES[state.end_side]] if state.end_cell >= 0 else None,
        "player": state.player, "hands": hands, "drafted": [list(d) for d in state.drafted],
        "loops": list(state.loops), "closed": list(state.closes),
    }


def position_state(game: TuboGame, **args) -> TuboState:
    """`game.position(**args)` for the data `position` gives (also read back from JSON): the seats of `hands`
    given as strings ("0") are numbers to the engine."""
    hands = args.get("hands")
    if hands:
        args["hands"] = {int(k): v for k, v in hands.items()}
    return game.position(**args)


PLAY = PlayView(draw=draw, text=text, action_text=action_text, position=position, position_diagram="position")
