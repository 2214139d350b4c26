"""How `pnp play` shows a 3 Stars game (pnp.registry.PlayView): the board and its pieces drawn by the rulebook's
painters (painter.py, the board as printed), the players' stars, pieces and cards, whose turn it is.

Clicks (the page intersects the `data-actions` of the elements clicked in a row): a card of the viewer's hand
means every action with that card (place or steal on any star, exchange); a star position (the small star at its
centre) every action of the hand's cards on that star; a cell every action whose pieces would cover it; the
exchange button every exchange of the hand. So card + star is one move (a place and a steal of the same card on
the same star are never both legal), and a lone card is its exchange when only exchanges are legal.

Hidden information (the engine's information_key): the other hands are drawn face down (a count), the deck as a
count; the discard pile is public. A draw is told only to the seat that draws it.

`position(state)` gives the arguments of `ThreeStarsGame.position(...)` as JSON (cells, star centres and card
arrangements written "D,-1,-1", "1,0", "0,3,4" as dict keys), `position_kwargs` reads them back, and the
rulebook's `three_stars.position` diagram draws them (diagrams.py) with the same painter, viewer None.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from pnp.games.three_stars.components import INK
from pnp.games.three_stars.engine import ThreeStarsGame, ThreeStarsState
from pnp.games.three_stars.lozenge import small_star
from pnp.games.three_stars.painter import Board, Painter, card_cells, draw_card, fit, player_colours
from pnp.model import Design
from pnp.registry import PlayView, clickable
from pnp.render.svg import Canvas
from pnp.render.symbols import symbol as draw_symbol
from pnp.rulebook.words import colour as colour_word

WIDTH = 160.0  # mm: the page scales the SVG
ROW = 9.0  # one player's line
CARD_W = 22.0
BACK_W = 5.0
HEADER = 9.0
SOFT = "#555555"

WORDS: Mapping[str, Mapping[str, str]] = MappingProxyType({  # read-only: no module state
    "en": {"to_play": "{name} to play", "wins": "{name} wins", "draw": "a draw: nobody wins",
           "pieces": "pieces: {n}", "hand": "your hand", "piles": "deck {deck} · discard {discard}",
           "exchange": "exchange", "star": "star ({q},{r})", "card": "card {n} [{positions}]", "cell": "cell {cell}",
           "turn": "turn {n}", "cards": "cards: {n}", "stars": "stars: {n}/{target}", "you": "you"},
    "fr": {"to_play": "au tour de {name}", "wins": "{name} gagne", "draw": "partie nulle : personne ne gagne",
           "pieces": "pièces : {n}", "hand": "votre main", "piles": "pioche {deck} · défausse {discard}",
           "exchange": "échanger", "star": "étoile ({q},{r})", "card": "carte {n} [{positions}]",
           "cell": "case {cell}", "turn": "tour {n}", "cards": "cartes : {n}", "stars": "étoiles : {n}/{target}",
           "you": "vous"},
})


def _w(lang: str, key: str, **values: Any) -> str:
    return WORDS.get(lang, WORDS["en"])[key].format(**values)


def _name(g: ThreeStarsGame, p: int, lang: str) -> str:
    return colour_word(g.colours[p], lang)


def _card_label(g: ThreeStarsGame, c: int, lang: str) -> str:
    return _w(lang, "card", n=g.card_numbers[c], positions=",".join(map(str, g.card_positions[c])))


def _key(value: Sequence) -> str:
    """A cell, a star centre or a card arrangement as a JSON key: ('D', -1, 0) -> "D,-1,0"."""
    return ",".join(str(v) for v in value)


def _unkey(value: Any) -> tuple:
    """The inverse of `_key` (a list or a tuple is taken as it is): "D,-1,0" -> ('D', -1, 0)."""
    if not isinstance(value, str):
        return tuple(value)
    parts: list[Any] = []
    for part in value.split(","):
        part = part.strip()
        try:
            parts.append(int(part))
        except ValueError:
            parts.append(part)
    return tuple(parts)


# --- what a click means ----------------------------------------------------------------------------------------


def _pair(st: ThreeStarsState, c: int, s: int) -> tuple[int, int]:
    """The place and the steal of card c on star s, the one that fits the cells' state first (a click where neither
    is legal sends the first: its refusal then tells the most useful reason)."""
    g = st.game
    place, steal = g.place_ids[c][s], g.steal_ids[c][s]
    return (steal, place) if g.masks[c][s] & st.occupied else (place, steal)


def click_sets(st: ThreeStarsState, viewer: int | None) -> dict[str, Any]:
    """The actions each clickable thing may mean for `viewer`: {"cards": {card: [...]}, "stars": [[...] per star],
    "cells": [[...] per cell index], "exchange": [...]}, from the viewer's hand only (no other hand is told)."""
    g = st.game
    hand = sorted(set(st.hands[viewer])) if viewer is not None and 0 <= viewer < g.players else []
    pairs = {(c, s): _pair(st, c, s) for c in hand for s in range(g.S)}
    cards = {c: [a for s in range(g.S) for a in pairs[c, s]] + [g.exchange_ids[c]] for c in hand}
    stars = [[a for c in hand for a in pairs[c, s]] for s in range(g.S)]
    cells: list[list[int]] = [[] for _ in g.cells]
    for c in hand:
        for s in range(g.S):
            m = g.masks[c][s]
            for i in range(len(g.cells)):
                if m >> i & 1:
                    cells[i].extend(pairs[c, s])
    return {"cards": cards, "stars": stars, "cells": cells, "exchange": [g.exchange_ids[c] for c in hand]}


# --- drawing ---------------------------------------------------------------------------------------------------


def _last_move(st: ThreeStarsState) -> set:
    """The cells the last place or steal covered (outlined: what just changed); none after an exchange."""
    g = st.game
    for action in reversed(st.history()):
        kind, c, s = g.decode(action)
        if kind == "draw":
            continue
        if kind == "exchange":
            return set()
        m = g.masks[c][s]
        return {cell for i, cell in enumerate(g.cells) if m >> i & 1}
    return set()


def _swatch(c: Canvas, x: float, y: float, r: float, fill: str, mark: str, round_: bool) -> None:
    """A player's piece, small, centred at (x, y)."""
    if round_:
        c.circle((x, y), r, fill=fill, stroke=INK, stroke_width=0.3)
    else:
        c.polygon([(x, y - r), (x + r * 0.95, y + r * 0.65), (x - r * 0.95, y + r * 0.65)], fill=fill, stroke=INK,
                  stroke_width=0.3)
    draw_symbol(c, mark, x, y + (0 if round_ else r * 0.1), r * 0.3, line=0.2)


def _status(st: ThreeStarsState, lang: str) -> str:
    g = st.game
    if st.over:
        return _w(lang, "wins", name=_name(g, st.winner, lang)) if st.winner >= 0 else _w(lang, "draw")
    return _w(lang, "to_play", name=_name(g, st.player, lang))


def render(design: Design, st: ThreeStarsState, viewer: int | None, lang: str, width: float = WIDTH) -> str:
    """The position as `viewer` may see it (None: what every seat sees), clickable for the viewer's hand."""
    g = st.game
    board = Board(design)
    painter: Painter = fit(board, g.players, width, whole=False)
    colours = player_colours(design)
    round_ = board.kind == "circle"
    mine = viewer is not None and 0 <= viewer < g.players
    sets = click_sets(st, viewer)
    hand_h = (CARD_W * 88 / 63 + 12) if mine else 0.0
    rows_top = HEADER + painter.height + 2
    height = rows_top + ROW * g.players + 6 + hand_h
    c = Canvas(width, height)
    c.rect(0, 0, width, height, fill="#ffffff")
    status = _status(st, lang)
    c.text(4, 6.2, status[:1].upper() + status[1:], size=4.2, weight="bold", fill=INK)
    c.text(width - 4, 6.2, _w(lang, "turn", n=st.turns + 1 if not st.over else st.turns), size=3.2, anchor="end",
           fill=SOFT)

    # the board, its pieces (the last move outlined), the scored stars in their scorer's colour
    painter.dx, painter.dy = (width - painter.width) / 2, HEADER
    painter.board(c, region_numbers=False)
    changed = _last_move(st)
    for p in range(g.players):
        cells = [g.cells[i] for i in range(len(g.cells)) if st.own[p] >> i & 1]
        _, fill, mark = colours[p]
        painter.pieces(c, [z for z in cells if z not in changed], fill, mark)
        painter.pieces(c, [z for z in cells if z in changed], fill, mark, highlight=True)
    for t, p in enumerate(st.scored):
        if p >= 0:
            painter.star_outline(c, g.positions[t], colours[p][1], 1.6)
    # the click targets: every cell (transparent, over its piece), then a small star at each star centre
    for i, cell in enumerate(g.cells):
        c.polygon(painter.poly(cell), fill="#000000", fill_opacity="0", **clickable(sets["cells"][i],
                                                                                      _w(lang, "cell", cell=_key(cell))))
    reach = painter.unit * (0.22 if board.kind == "lozenge" else 0.26)
    for t, v in enumerate(g.positions):
        x, y = painter.mm(*board.centre(v))
        scorer = st.scored[t]
        with c.group(**clickable(sets["stars"][t], _w(lang, "star", q=v[0], r=v[1]))):
            c.circle((x, y), reach, fill="#ffffff", fill_opacity="0")
            c.polygon(small_star(x, y, painter.unit * 0.11), fill=colours[scorer][1] if scorer >= 0 else "#ffffff",
                      stroke=INK, stroke_width=0.3)

    # the players: whose turn, stars scored, pieces left, cards (face down but the viewer's)
    target = g.rules.stars_to_win
    for p in range(g.players):
        y = rows_top + ROW * p
        _, fill, mark = colours[p]
        if not st.over and p == st.player:
            c.rect(1.5, y, width - 3, ROW - 1, fill="#fff6d8", stroke=INK, stroke_width=0.4, rx=1.2)
            c.polygon([(3, y + 2.2), (6.2, y + ROW / 2 - 0.5), (3, y + ROW - 3.2)], fill=INK)
        elif st.over and p == st.winner:
            c.rect(1.5, y, width - 3, ROW - 1, fill="#e6f4e6", stroke=INK, stroke_width=0.4, rx=1.2)
        cy = y + ROW / 2 - 0.5
        _swatch(c, 10, cy, 3, fill, mark, round_)
        who = _name(g, p, lang) + (f" ({_w(lang, 'you')})" if p == viewer else "")
        c.text(15, cy + 1.3, who, size=3.6, weight="bold", fill=INK)
        for k in range(target):
            c.polygon(small_star(52 + k * 6, cy, 2.6), fill=fill if k < st.scores[p] else "#ffffff", stroke=INK,
                      stroke_width=0.3)
        extra = max(0, st.scores[p] - target)
        if extra:
            c.text(52 + target * 6, cy + 1.3, f"+{extra}", size=3.2, fill=INK)
        c.text(52 + target * 6 + 6, cy + 1.3, _w(lang, "pieces", n=g.rules.pieces_per_player - st.own[p].bit_count()),
               size=3.2, fill=INK)
        n = len(st.hands[p])
        c.text(118, cy + 1.3, _w(lang, "cards", n=n), size=3.2, fill=INK)
        if p != viewer:
            for k in range(n):
                bx = 136 + k * (BACK_W + 1)
                c.rect(bx, cy - BACK_W * 0.7, BACK_W, BACK_W * 1.4, fill="#20304a", stroke="#e8c36a",
                       stroke_width=0.3, rx=0.5)
    piles = _w(lang, "piles", deck=st.deck_n, discard=st.discard_n)
    y = rows_top + ROW * g.players
    c.text(4, y + 3.6, piles, size=3.2, fill=SOFT)

    # the viewer's hand: each card as printed, then the exchange button
    if mine:
        assert viewer is not None
        y += 6
        c.text(4, y + 3, _w(lang, "hand"), size=3.4, weight="bold", fill=INK)
        kind = card_cells(design)
        for k, card in enumerate(st.hands[viewer]):
            x = 4 + k * (CARD_W + 4)
            with c.group(**clickable(sets["cards"][card], _card_label(g, card, lang))):
                draw_card(c, x, y + 5, CARD_W, g.card_positions[card], g.card_numbers[card], kind=kind)
        bx = max(4 + len(st.hands[viewer]) * (CARD_W + 4) + 6, width - 40)
        with c.group(**clickable(sets["exchange"], _w(lang, "exchange"))):
            c.rect(bx, y + 12, 34, 10, fill="#eef1f6", stroke=INK, stroke_width=0.5, rx=2)
            c.text(bx + 17, y + 18.4, _w(lang, "exchange"), size=3.6, anchor="middle", weight="bold", fill=INK)
    return c.to_string()


def draw(design: Design, state: ThreeStarsState, viewer: int | None, lang: str) -> str:
    return render(design, state, viewer, lang)


def text(state: ThreeStarsState, viewer: int | None, lang: str) -> str:
    """Whose turn, each player's stars, pieces and card count, the viewer's own hand, the piles."""
    g = state.game
    lines = [f"{_w(lang, 'turn', n=state.turns + 1 if not state.over else state.turns)}: {_status(state, lang)}"]
    for p in range(g.players):
        parts = [_w(lang, "stars", n=state.scores[p], target=g.rules.stars_to_win),
                 _w(lang, "pieces", n=g.rules.pieces_per_player - state.own[p].bit_count()),
                 _w(lang, "cards", n=len(state.hands[p]))]
        lines.append(f"{_name(g, p, lang)}: {', '.join(parts)}")
    if viewer is not None and 0 <= viewer < g.players:
        lines.append(f"{_w(lang, 'hand')}: {', '.join(_card_label(g, c, lang) for c in state.hands[viewer])}")
    lines.append(_w(lang, "piles", deck=state.deck_n, discard=state.discard_n))
    return "\n".join(lines)


def action_text(before: ThreeStarsState, action: int, viewer: int | None) -> str:
    """The engine's text, but a draw is told only to the seat drawing it (the others see that a card was drawn)."""
    g = before.game
    kind, _c, _s = g.decode(action)
    if kind == "draw" and before.queue:
        seat = before.queue[0]
        if viewer != seat:
            return f"{g.colours[seat]} draws a card"
    return before.action_to_string(action)


# --- the position as data --------------------------------------------------------------------------------------


def position(state: ThreeStarsState) -> dict:
    """The keyword arguments of `ThreeStarsGame.position(...)` that make this position again, as JSON (see
    `position_kwargs`). The turn count, and the end of a finished game (winner, over), are not among them: the
    position rebuilt has the same board, hands, piles, scores and player to act (state.key() but those)."""
    g = state.game
    owners: dict[str, int] = {}
    for i, cell in enumerate(g.cells):
        for p in range(g.players):
            if state.own[p] >> i & 1:
                owners[_key(cell)] = p
    scored_mask = 0
    for t, p in enumerate(state.scored):
        if p >= 0:
            scored_mask |= g.star_masks[t]
    out: dict[str, Any] = {
        "owners": owners,
        "hands": {str(p): [list(g.card_positions[c]) for c in state.hands[p]] for p in range(g.players)},
        "scored": {_key(g.positions[t]): p for t, p in enumerate(state.scored) if p >= 0},
        "scores": list(state.scores),
    }
    extra = state.reserved & ~scored_mask
    if extra:
        out["reserved"] = [list(cell) for i, cell in enumerate(g.cells) if extra >> i & 1]
    if state.discard_n:  # else the deck is every card out of the hands: the default
        out["deck"] = {_key(g.card_positions[c]): n for c, n in enumerate(state.deck) if n}
    if state.queue:
        out["draws"] = list(state.queue)
    out["player"] = state.player
    return out


def position_kwargs(data: Mapping[str, Any]) -> dict[str, Any]:
    """`position(state)`'s JSON read back as the arguments `ThreeStarsGame.position(...)` takes (tuples, int keys)."""
    out: dict[str, Any] = {}
    if data.get("owners") is not None:
        out["owners"] = {_unkey(k): int(v) for k, v in data["owners"].items()}
    if data.get("hands") is not None:
        out["hands"] = {int(k): [tuple(a) for a in v] for k, v in data["hands"].items()}
    if data.get("scored") is not None:
        out["scored"] = {_unkey(k): int(v) for k, v in data["scored"].items()}
    if data.get("reserved"):
        out["reserved"] = [_unkey(cell) for cell in data["reserved"]]
    if data.get("scores") is not None:
        out["scores"] = [int(n) for n in data["scores"]]
    if data.get("deck") is not None:
        out["deck"] = {_unkey(k): int(v) for k, v in data["deck"].items()}
    if data.get("draws"):
        out["draws"] = [int(p) for p in data["draws"]]
    out["player"] = int(data.get("player", 0))
    return out


def players_of(data: Mapping[str, Any], counts: Sequence[int]) -> int:
    """The player count a position's data is for: its scores' length, else the seats it names, at least the
    board's smallest count."""
    if data.get("scores") is not None:
        return len(data["scores"])
    seats = [int(k) for k in (data.get("hands") or {})] + [int(v) for v in (data.get("owners") or {}).values()]
    return max([min(counts)] + [s + 1 for s in seats])


PLAY = PlayView(draw=draw, text=text, action_text=action_text, position=position, position_diagram="position")
