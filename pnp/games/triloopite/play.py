"""TriLOOPite on the page of `pnp play` (pnp.registry.PlayView): the table drawn with the printed tiles
(painter.py, as the rulebook draws it), each hand as its viewer may see it, the score if the game stopped
now, whose turn, and what a click means.

Clicks (the page intersects the action sets of the elements clicked in a row): each tile of the viewer's
hand is drawn in each of its distinct rotations, and each drawing is the set of that tile's placements, so
turned, on every cell drawn; every cell of the table and every empty cell next to it is the set of every
placement on it (every variety and rotation, whatever the hands hold, so the set tells nothing of a hand).
A turned tile then a cell (or a cell then a turned tile) is one placement: played, or refused by the engine
with its reason (a cell taken, a line meeting a blank...). A variety's name is the set of its placements in
every rotation: then a cell leaves the rotations that fit there, picked in the list. Keep is a button.
No action is reachable only through the list.

Hidden information (the engine's information_key): a seat sees the table, its own hand, and only how many
tiles the other hands and the bag hold; viewer None sees the counts alone. Another seat's draw is told as
"draws a tile".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from pnp.games.triloopite.components import INK, draw_tile_face
from pnp.games.triloopite.engine import KEEP, TriloopiteGame, TriloopiteState
from pnp.games.triloopite.facts import variety_name
from pnp.games.triloopite.geometry import SQRT3, rotate_lines
from pnp.games.triloopite.painter import Painter
from pnp.model import Design
from pnp.registry import PlayView, clickable as place_attrs
from pnp.render.svg import Canvas
from pnp.rulebook.figures import GOOD, HIGHLIGHT

SIDE = 7.0  # a table tile's side in mm (the rulebook's diagrams)
HAND_SIDE = 4.2  # a hand tile's side
PANEL = 72.0  # the panel right of the table: turn, score, bag, hands, keep
PAD = 3.0
FACE_DOWN = "#b9b2a6"

WORDS: Mapping[str, Mapping[str, str]] = MappingProxyType({  # read-only: no module state
    "en": {"turn": "{who} to play", "you": "you", "over": "Game over", "seat": "Seat {n}",
           "score_now": "Score so far: {n}", "score_end": "Final score: {n}", "loops": "Loops: {n} → {pts} pt",
           "longest": "Longest loop: {n} tiles → {pts} pt", "bonuses": "Bonuses: +{n}", "penalty": "Hands: −{n}",
           "in_hand": "Tiles in hands: {n} (fewer is better)", "bag": "Bag: {tiles}", "tile": "{n} tile",
           "tiles": "{n} tiles", "empty": "empty hand", "keep": "Keep the tile", "cell": "cell ({q},{r})",
           "turned": "turned {k}", "hand": "Your hand: {tiles}", "holds": "{who}: {tiles}", "drawing": "{who} draws"},
    "fr": {"turn": "À {who} de jouer", "you": "vous", "over": "Partie terminée", "seat": "Siège {n}",
           "score_now": "Score actuel : {n}", "score_end": "Score final : {n}", "loops": "Boucles : {n} → {pts} pt",
           "longest": "Plus longue boucle : {n} tuiles → {pts} pt", "bonuses": "Bonus : +{n}",
           "penalty": "Mains : −{n}", "in_hand": "Tuiles en main : {n} (moins c'est mieux)", "bag": "Sac : {tiles}",
           "tile": "{n} tuile", "tiles": "{n} tuiles", "empty": "main vide", "keep": "Garder la tuile",
           "cell": "case ({q},{r})", "turned": "tournée {k}", "hand": "Votre main : {tiles}",
           "holds": "{who} : {tiles}", "drawing": "{who} pioche"},
})


def _w(lang: str) -> Mapping[str, str]:
    return WORDS.get(lang, WORDS["en"])


def _seat(w: Mapping[str, str], p: int, viewer: int | None) -> str:
    name = w["seat"].format(n=p + 1)
    return f"{name} ({w['you']})" if p == viewer else name


def _tiles(w: Mapping[str, str], n: int) -> str:
    return w["tile" if n == 1 else "tiles"].format(n=n)


# --- the picture ----------------------------------------------------------------------------------------------


def draw(design: Design, state: TriloopiteState, viewer: int | None, lang: str) -> str:
    """The position as `viewer` sees it, with the click targets (see the module's docstring)."""
    return picture(design, state, viewer, lang, clickable=True)


def picture(design: Design, state: TriloopiteState, viewer: int | None, lang: str, clickable: bool = True) -> str:
    """The table (printed tiles, the last one laid ringed), and beside it whose turn, the score, the bag and the
    hands (the viewer's tiles in each rotation, the others face down); `clickable`: the data-actions targets and
    the keep button (a rulebook diagram draws none)."""
    g: TriloopiteGame = state.game
    w = _w(lang)
    board = state.board
    p = Painter(design, SIDE)
    hand_painter = Painter(design, HAND_SIDE)
    specs = hand_painter.bag
    if [s.id for s in specs] != [v.id for v in g.varieties]:  # pragma: no cover - both read the same design
        raise ValueError("the painter's tiles and the engine's varieties differ")
    taken = sorted(board.lines)
    empty = sorted({c + o for c in taken for o in board.off if c + o not in board.lines and board.inside(c + o)}) \
        if clickable else []
    cells = taken + empty
    to_act = state.current_player()
    mine = viewer is not None and to_act == viewer
    legal = set(state.legal_actions()) if mine else set()
    legal_cells = {g.decode(a)[3] for a in legal if a != KEEP}

    bw, bh = p.fit([board.hex_of(c) for c in cells])
    rows = _panel(state, viewer, w, specs, hand_painter, cells, legal, clickable, lang)
    ph = PAD + sum(h for h, _ in rows) + PAD
    height = max(bh, ph)
    c = Canvas(bw + PANEL, height)
    with c.group(transform=f"translate(0,{(height - bh) / 2:.3f})"):
        for cell in empty:
            ring = cell in legal_cells
            c.polygon(p.corners(board.hex_of(cell)), fill="none", stroke=GOOD if ring else "#bdbdbd",
                      stroke_width=0.45 if ring else 0.2, stroke_dasharray=None if ring else "1,0.8")
        p.layout(c, board.layout())
        if len(board.order) > 1:
            p.ring(c, board.hex_of(board.order[-1]), HIGHLIGHT, 0.6)
        if clickable:
            for cell in cells:
                q, r = board.hex_of(cell)
                here = [g.place_ids[v][rot][cell] for v in range(g.V) for rot in g.rot_lines[v]]
                c.polygon(p.corners((q, r)), fill="#ffffff", fill_opacity="0", **place_attrs(here, w["cell"].format(q=q, r=r)))
    c.line((bw, PAD), (bw, height - PAD), stroke="#d0d0d0", stroke_width=0.3)
    y = PAD
    for h, paint in rows:
        paint(c, bw + 3.0, y)
        y += h
    return c.to_string()


Row = tuple[float, Callable[[Canvas, float, float], None]]


def _text_row(text: str, size: float = 3.0, weight: str = "normal", colour: str = INK) -> Row:
    def paint(c: Canvas, x: float, y: float) -> None:
        c.text(x, y + size * 0.95, text, size=size, weight=weight, fill=colour)
    return size * 1.45, paint


def _panel(state: TriloopiteState, viewer: int | None, w: Mapping[str, str], specs: Sequence[Any],
           hp: Painter, cells: Sequence[int], legal: set[int], clickable: bool, lang: str) -> list[Row]:
    """The panel's rows (height, painter), top to bottom: the canvas is sized from their heights first."""
    g = state.game
    rows: list[Row] = []
    to_act = state.current_player()
    if state.is_terminal():
        rows.append(_text_row(w["over"], 3.6, "bold"))
    else:
        rows.append(_text_row(w["turn"].format(who=_seat(w, state.player, viewer)), 3.6, "bold",
                              HIGHLIGHT if to_act == viewer else INK))
    if g.mode == "first":
        rows.append(_text_row(w["in_hand"].format(n=state.tiles_in_hand()), 2.8, "bold"))
        if state.is_terminal():
            rows.append(_text_row(state.verdict(lang), 2.8))
    else:
        a, s = state.final()
        key = "score_end" if state.is_terminal() else "score_now"
        rows.append(_text_row(w[key].format(n=s.total), 3.2, "bold"))
        rows.append(_text_row(w["loops"].format(n=a.count, pts=s.loop_points), 2.6))
        rows.append(_text_row(w["longest"].format(n=a.longest, pts=s.longest_points), 2.6))
        if s.bonus_points:
            rows.append(_text_row(w["bonuses"].format(n=s.bonus_points), 2.6))
        rows.append(_text_row(w["penalty"].format(n=s.penalty), 2.6))
    rows.append((2.0, lambda c, x, y: None))
    rows.append(_text_row(w["bag"].format(tiles=_tiles(w, state.bag_n)), 2.8))
    rows.append((2.0, lambda c, x, y: None))
    for seat in range(g.players):
        n = sum(state.hands[seat])
        rows.append(_seat_row(w, seat, viewer, n, seat == state.player and not state.is_terminal()))
        if seat == viewer:
            for v, k in enumerate(state.hands[seat]):
                if k:
                    rows += _hand_rows(state, v, k, specs[v], hp, cells, legal, clickable, w, lang)
    if clickable and viewer is not None and not state.is_terminal():
        rows.append((2.0, lambda c, x, y: None))
        rows.append(_keep_row(w))
    return rows


def _seat_row(w: Mapping[str, str], seat: int, viewer: int | None, n: int, acting: bool) -> Row:
    """A seat: its name (marked when it is to act) and, face down, how many tiles its hand holds."""
    size = 3.0

    def paint(c: Canvas, x: float, y: float) -> None:
        mid = y + 3.2
        if acting:
            c.polygon([(x, mid - 1.4), (x + 2.0, mid), (x, mid + 1.4)], fill=HIGHLIGHT)
        r = 2.0  # a face-down tile: the count on its back
        hx = x + 4.5
        c.polygon([(hx + r * dx, mid + r * dy) for dx, dy in ((1, 0), (0.5, SQRT3 / 2), (-0.5, SQRT3 / 2), (-1, 0),
                                                               (-0.5, -SQRT3 / 2), (0.5, -SQRT3 / 2))],
                  fill=FACE_DOWN, stroke=INK, stroke_width=0.2)
        c.text(hx, mid + 0.75, str(n), size=2.1, anchor="middle", weight="bold", fill=INK)
        tiles = _tiles(w, n) if n else w["empty"]
        c.text(x + 8.0, mid + 1.05, w["holds"].format(who=_seat(w, seat, viewer), tiles=tiles), size=size,
               weight="bold" if acting else "normal", fill=INK)
    return 6.4, paint


def _hand_rows(state: TriloopiteState, v: int, count: int, spec: Any, hp: Painter, cells: Sequence[int],
               legal: set[int], clickable: bool, w: Mapping[str, str], lang: str) -> list[Row]:
    """One variety of the viewer's hand: its name and count (the set of all its placements), then the tile in
    each distinct rotation (the set of its placements so turned; dimmed when it fits nowhere now), once the
    game is over in one."""
    g = state.game
    name = variety_name(spec, lang)
    rots = list(g.rot_lines[v])[:1] if state.is_terminal() else list(g.rot_lines[v])  # the end: as it lies
    per_rot = {rot: [g.place_ids[v][rot][cell] for cell in cells] for rot in rots}
    size = 2.5

    def label(c: Canvas, x: float, y: float) -> None:
        text = f"{name} × {count}"
        if clickable:
            with c.group(**place_attrs([a for rot in rots for a in per_rot[rot]], name)):
                c.rect(x + 7.5, y, PANEL - 12.0, size * 1.4, fill="#ffffff", fill_opacity="0")
                c.text(x + 8.0, y + size * 1.05, text, size=size, fill=INK)
        else:
            c.text(x + 8.0, y + size * 1.05, text, size=size, fill=INK)

    tile_w, tile_h = 2 * HAND_SIDE, SQRT3 * HAND_SIDE

    def tiles(c: Canvas, x: float, y: float) -> None:
        for i, rot in enumerate(rots):
            ox, oy = x + 8.0 + i * (tile_w + 1.2), y + 0.4
            turned = spec.model_copy(update={"lines": list(rotate_lines(spec.lines, rot))})
            corners = [(vx + ox, vy + oy) for vx, vy in hp.shape.vertices]
            if clickable:
                with c.group(**place_attrs(per_rot[rot], f"{name}, {w['turned'].format(k=rot)}")):
                    draw_tile_face(c, hp.params, turned, origin=(ox, oy))
                    c.polygon(corners, fill="#ffffff", fill_opacity="0.6" if legal and not legal & set(per_rot[rot])
                              else "0", stroke="#8a8a8a", stroke_width=0.2)
            else:
                draw_tile_face(c, hp.params, turned, origin=(ox, oy))
                c.polygon(corners, fill="none", stroke="#8a8a8a", stroke_width=0.2)
    return [(size * 1.45, label), (tile_h + 1.4, tiles)]


def _keep_row(w: Mapping[str, str]) -> Row:
    def paint(c: Canvas, x: float, y: float) -> None:
        with c.group(**place_attrs([KEEP], w["keep"])):
            c.rect(x + 8.0, y, 40.0, 7.0, fill="#f3efe6", stroke=INK, stroke_width=0.3, rx=1.5)
            c.text(x + 28.0, y + 4.6, w["keep"], size=3.0, anchor="middle", weight="bold", fill=INK)
    return 9.0, paint


# --- text, log, position --------------------------------------------------------------------------------------


def text(state: TriloopiteState, viewer: int | None, lang: str) -> str:
    """A short text view: whose turn, the score, the bag, the viewer's hand, how many tiles each hand holds."""
    g = state.game
    w = _w(lang)
    out = [w["over"] if state.is_terminal() else
           (w["drawing"] if state.drawing else w["turn"]).format(who=_seat(w, state.player, viewer))]
    if g.mode == "first":
        out.append(w["in_hand"].format(n=state.tiles_in_hand()))
    else:
        a, s = state.final()
        out.append(w["score_end" if state.is_terminal() else "score_now"].format(n=s.total))
        out.append(", ".join([w["loops"].format(n=a.count, pts=s.loop_points),
                              w["longest"].format(n=a.longest, pts=s.longest_points),
                              w["bonuses"].format(n=s.bonus_points), w["penalty"].format(n=s.penalty)]))
    out.append(w["bag"].format(tiles=_tiles(w, state.bag_n)))
    for seat in range(g.players):
        n = sum(state.hands[seat])
        out.append(w["holds"].format(who=_seat(w, seat, viewer), tiles=_tiles(w, n) if n else w["empty"]))
    if viewer is not None and 0 <= viewer < g.players:
        tiles = ", ".join(f"{v.id} × {k}" for v, k in zip(g.varieties, state.hands[viewer]) if k)
        out.append(w["hand"].format(tiles=tiles or w["empty"]))
    return "\n".join(out)


def action_text(state: TriloopiteState, action: int, viewer: int | None) -> str:
    """The engine's text of an action; a draw is told in full only to the seat that drew it."""
    if state.drawing and state.game.decode(action)[0] == "draw" and viewer != state.player:
        return f"seat {state.player + 1} draws a tile"
    return state.action_to_string(action)


def position(state: TriloopiteState) -> dict:
    """The arguments of `game.position(...)` that lay this table again: the tiles in the order they were laid
    (variety, rotation, [q, r]), every seat's hand (seat as a string key, so the data is JSON), whose turn and
    whether drawing. The bag is left to its default (every tile neither laid nor in a hand: what it holds).
    A finished game is given as drawing from the empty bag, which game.position makes a finished game too.

    What the rebuilt state does not hold (TriloopiteState.key): the turn counter counts the keeps too, and
    game.position counts only the tiles laid; a first game ended by a loop while the bag still held tiles comes
    back as the next seat's draw (not finished)."""
    g = state.game
    board = state.board
    which = {lines: (v, rot) for v in range(g.V) for rot, lines in g.rot_lines[v].items()}
    tiles = []
    for cell in board.order[1:]:  # the start tile is laid by the setup
        v, rot = which[board.lines[cell]]
        q, r = board.hex_of(cell)
        tiles.append([g.varieties[v].id, rot, [q, r]])
    hands = {str(seat): [g.varieties[v].id for v, k in enumerate(hand) for _ in range(k)]
             for seat, hand in enumerate(state.hands)}
    return {"tiles": tiles, "hands": hands, "player": state.player, "drawing": state.drawing or state.is_terminal()}


def position_kwargs(data: Mapping[str, Any]) -> dict:
    """`position(state)`'s data (as JSON gives it back) as game.position's arguments: seats as ints, cells as
    tuples."""
    out = dict(data)
    if "tiles" in out:
        out["tiles"] = [(str(vid), int(rot), (int(h[0]), int(h[1]))) for vid, rot, h in out["tiles"]]
    if out.get("hands") is not None:
        out["hands"] = {int(seat): [str(t) for t in ids] for seat, ids in out["hands"].items()}
    return out


def seats_in(data: Mapping[str, Any]) -> int:
    """How many seats the data's position has (every seat's hand is listed; at least the seat to act)."""
    hands = data.get("hands") or {}
    return max([int(s) + 1 for s in hands] + [int(data.get("player", 0)) + 1])


PLAY = PlayView(draw=draw, text=text, action_text=action_text, position=position, position_diagram="position")
