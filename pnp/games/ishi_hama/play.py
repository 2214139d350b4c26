"""How `pnp play` shows an Ishi-Hama position (pnp.registry.PlayView): the board and the tiles as the rulebook's
painter draws them (the tile generator's own faces), each player's reserve and score strip beside the grid as on
the printed board, whose turn and what the engine asks for now, and the places a click may play.

The engine splits a turn into small decisions (a tile of the reserve, a cell, an orientation, a tile to play, a
move or a swap, the tiles of a scored group...): each clickable element carries `data-actions`, the decisions it
means at the step the engine is at, legal or not (a click where the decision is illegal gets the engine's
reason), and `data-label`, its name for a person:

* choosing a tile of the reserve: each kind of the acting player's reserve (none left: illegal);
* choosing a cell (where to place, which tile to take or to play, which tile of a group scores): every cell;
* an orientation: the tray under the board shows the tile in each orientation the engine lists (the tile's cell
  carries them all: the page then points at them in its list);
* a move or a swap: each of the 4 neighbours of the played tile (a move of 1 cell onto it or a swap with it,
  whichever the cell allows) and each cell 2 cells away (a move of 2);
* the score tile: each tile of the group being scored (its kind);
* stop (no combination, the end of one) and pass: a button under the board.

Ishi-Hama hides nothing (the reserves lie open beside the board, no chance): every viewer sees the same picture.
`position(state)` gives `IshiHamaGame.position(...)`'s arguments for the board as it lies; the "position" diagram
(pnp.games.ishi_hama.diagrams) draws them with `picture`, the same drawing without the clickable parts.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from pnp.games.ishi_hama.components import INK
from pnp.games.ishi_hama.engine import (
    ACT,
    C_ROT,
    MARKER,
    ORIENT_OTHER,
    ORIENT_SELF,
    OVER,
    P_CELL,
    P_KIND,
    P_ROT,
    PASS_STEP,
    PHASE1,
    PICK,
    SELECT,
    TAKE,
    IshiHamaState,
)
from pnp.games.ishi_hama.facts import a_tile, player_name, tile_words, words
from pnp.games.ishi_hama.geometry import mask_name
from pnp.games.ishi_hama.painter import GROUND, HIGHLIGHT, Painter
from pnp.model import Design
from pnp.registry import PlayView, clickable
from pnp.render.colour import tint
from pnp.render.svg import Canvas
from pnp.rulebook.figures import GOOD

UNIT = 12.0  # mm a cell, as the rulebook's diagrams (Painter's default)
MARGIN = 6.0  # the painter's margin: column letters above, row numbers on the left
HEAD = 13.0  # the band above: the phase and turn, whose turn and what the engine asks for
PAD = 1.6  # paper around
GAP = 4.0  # between the grid and a reserve strip
STRIP_GAP = 3.0  # between a reserve strip and its score strip (as printed)
TRAY = UNIT + 9.0  # the band below: orientations, stop, pass

PROMPTS: Mapping[str, Mapping[int, str]] = MappingProxyType({  # read-only: the same for every build
    "en": {P_KIND: "choose a tile of your reserve", P_CELL: "choose the cell for the {tile}",
           P_ROT: "orient the {tile}", TAKE: "take a tile from the board",
           SELECT: "play {a_colour} (a combination) or no combination", C_ROT: "turn the played tile",
           ACT: "move it, swap it, or end the combination", ORIENT_OTHER: "orient the swapped tile",
           ORIENT_SELF: "orient the played tile", PICK: "choose the tiles of the group that scores",
           MARKER: "choose the score tile among the framed tiles", PASS_STEP: "nothing to place or take: pass"},
    "fr": {P_KIND: "choisir une tuile de sa réserve", P_CELL: "choisir la case de la {tile}",
           P_ROT: "orienter la {tile}", TAKE: "prendre une tuile du plateau",
           SELECT: "jouer {a_colour} (combinaison) ou pas de combinaison", C_ROT: "tourner la tuile jouée",
           ACT: "la déplacer, la swapper ou finir la combinaison", ORIENT_OTHER: "orienter la tuile swappée",
           ORIENT_SELF: "orienter la tuile jouée", PICK: "choisir les tuiles du groupe qui marque",
           MARKER: "choisir la tuile de score parmi les tuiles encadrées",
           PASS_STEP: "rien à poser ni à prendre : passer"},
})
WORDS: Mapping[str, Mapping[str, str]] = MappingProxyType({
    "en": {"cell": "cell {cell}", "turn": "turn {n}", "phase": "Phase {n}", "to_play": "{name}: {what}",
           "wins": "{name} wins, {a} to {b}", "over": "game over", "points": "{n} pt", "points_n": "{n} pts",
           "reserve": "reserve", "in_reserve": "{tile} (reserve: {n})", "score_tile": "score with the {tile}",
           "no_combination": "No combination", "end_combination": "End the combination", "pass": "Pass",
           "orient": "orientation {paths}", "orientations": "orientations",
           "tiles": "{n} tile(s)", "empty": "empty"},
    "fr": {"cell": "case {cell}", "turn": "tour {n}", "phase": "Phase {n}", "to_play": "{name} : {what}",
           "wins": "{name} gagne, {a} à {b}", "over": "partie finie", "points": "{n} pt", "points_n": "{n} pts",
           "reserve": "réserve", "in_reserve": "{tile} (réserve : {n})",
           "score_tile": "marquer avec la {tile}", "no_combination": "Pas de combinaison",
           "end_combination": "Finir la combinaison", "pass": "Passer", "orient": "orientation {paths}",
           "orientations": "orientations", "tiles": "{n} tuile(s)",
           "empty": "vide"},
})


def _w(key: str, lang: str, **values) -> str:
    text = WORDS.get(lang, WORDS["en"])[key]
    return text.format(**values) if values else text


def _name(state: IshiHamaState, seat: int, lang: str) -> str:
    return player_name(state.game.player_name(seat), lang)


def _kind_words(state: IshiHamaState, k: int, lang: str, n: int = 1) -> str:
    kind = state.game.kinds[k]
    return tile_words(kind.shape, kind.colour_name, lang, n)


def headline(state: IshiHamaState, lang: str) -> tuple[str, str]:
    """The band above the board: (the phase and the turn, who is to act and what the engine asks for now, or the
    result)."""
    g = state.game
    pts = state.points()
    if state.phase == OVER:
        returns = state.returns()
        winner = returns.index(1.0) if 1.0 in returns else -1
        if winner >= 0:
            return "", _w("wins", lang, name=_name(state, winner, lang), a=pts[winner], b=sum(pts) - pts[winner])
        return "", f"{_w('over', lang)} ({' – '.join(str(v) for v in pts)})"
    where = _w("phase", lang, n=state.phase)
    if state.phase == PHASE1:
        where += f" ({words().term('phase1', lang).lower()})"
    where += f" · {_w('turn', lang, n=state.turns + 1)}"
    values = {"tile": _kind_words(state, state.pend_kind, lang) if state.pend_kind >= 0 else words().term("tile", lang),
              "a_colour": a_tile(None, g.colours[state.turn_colour], lang) if state.turn_colour >= 0 else ""}
    what = PROMPTS.get(lang, PROMPTS["en"]).get(state.step, "").format(**values)
    return where, _w("to_play", lang, name=_name(state, state.player, lang), what=what)


def _clickable(state: IshiHamaState, lang: str) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """({cell: the actions a click on it means now}, {kind: the actions a click on it in the acting player's
    reserve means now})."""
    g = state.game
    st = state.step
    cells: dict[int, list[int]] = {}
    kinds: dict[int, list[int]] = {}
    if st == P_KIND:
        kinds = {k: [g.kind_ids[k]] for k in range(g.K)}
    elif st in (P_CELL, TAKE, SELECT, PICK):
        cells = {c: [c] for c in range(g.N)}
    elif st in (P_ROT, C_ROT, ORIENT_SELF, ORIENT_OTHER):
        target = state.pend_cell if st == P_ROT else state.other if st == ORIENT_OTHER else state.sel
        cells = {target: state.legal_actions()}
    elif st == ACT:
        nb = g.grid.nb
        for side in range(4):
            a = nb[state.sel][side]
            if a < 0:
                continue
            # a tile there: a swap with it (a move onto it is refused); empty: a move of 1 (no swap with nothing)
            one = [g.move_ids[side][0], g.swap_ids[side]]
            cells[a] = one[::-1] if state.kind[a] >= 0 else one
            b = nb[a][side]
            if b >= 0:
                cells[b] = [g.move_ids[side][1]]
    elif st == MARKER:
        cells = {c: [g.kind_ids[state.kind[c]]] for c in state.picks}
    return cells, kinds


def _cell_label(state: IshiHamaState, cell: int, lang: str) -> str:
    g = state.game
    where = _w("cell", lang, cell=g.grid.name(cell))
    k = state.kind[cell]
    return f"{where}: {_kind_words(state, k, lang)}" if k >= 0 else where


def _orient_kind(state: IshiHamaState) -> int:
    """The kind of the tile the engine asks to orient now."""
    st = state.step
    if st == P_ROT:
        return state.pend_kind
    return state.kind[state.other if st == ORIENT_OTHER else state.sel]


def picture(design: Design, state: IshiHamaState, lang: str, clickable: bool = True) -> str:
    """The position: the grid and its tiles as the rulebook's painter draws them, each player's reserve (a
    count per kind of tile) and score strip beside it as printed (seat 1 on the left), whose turn and what the
    engine asks for; `clickable`: also the tray (orientations, stop, pass) and the clickable places."""
    g = state.game
    u = UNIT
    p = Painter(design, range(g.grid.columns), range(g.grid.rows), unit=u, margin=MARGIN)
    side = _side(p)
    width = 2 * side + p.width
    height = HEAD + p.height + (TRAY if clickable else 2.0)
    c = Canvas(width, height)
    c.rect(0, 0, width, height, fill="#ffffff")
    where, what = headline(state, lang)
    c.text(PAD, 4.0, where, size=2.8, fill="#555555")
    c.text(PAD, 9.5, what, size=3.6, weight="bold", fill=INK)
    over = state.phase == OVER
    st = -1 if over else state.step
    with c.group(transform=f"translate({side:g} {HEAD:g})"):
        p.ground(c, g)
        p.tiles_of(c, state)
        _marks(c, p, state, st)
    top = HEAD + MARGIN
    for seat in range(g.players):
        left = seat == 0
        rx = _reserve_x(p, seat)
        sx = PAD if left else rx + u + STRIP_GAP
        _strips(c, p, state, seat, min(rx, sx), rx, sx, top, lang, acting=not over and seat == state.player)
    if not clickable:
        return c.to_string()
    ty = HEAD + p.height + 1.0
    buttons = _tray(c, p, state, st, ty, lang)
    cells, kinds = _clickable(state, lang) if not over else ({}, {})
    # the clickable places, drawn last (above everything), transparent
    for cell, actions in cells.items():
        x, y = p.xy(g, cell)
        label = _w("score_tile", lang, tile=_kind_words(state, state.kind[cell], lang)) if st == MARKER \
            else _cell_label(state, cell, lang)
        _hot(c, side + x, HEAD + y, u, u, actions, label)
    for k, actions in kinds.items():
        x, y = _slot(p, state, state.player, k, top)
        n = state.reserve[state.player][k]
        _hot(c, x, y, u, u, actions, _w("in_reserve", lang, tile=_kind_words(state, k, lang), n=n))
    for x, y, w, h, actions, label in buttons:
        _hot(c, x, y, w, h, actions, label)
    return c.to_string()


def _hot(c: Canvas, x: float, y: float, w: float, h: float, actions: list[int], label: str) -> None:
    """A transparent clickable rectangle: the actions it means, its name."""
    c.rect(x, y, w, h, fill="#ffffff", fill_opacity="0", **clickable(actions, label))


def _marks(c: Canvas, p: Painter, state: IshiHamaState, st: int) -> None:
    """On the board: the tile being placed (its ghost), the played and swapped tiles, the tiles of a group being
    scored (framed), and the cells the engine allows now where they are few (a green ring)."""
    g = state.game
    ring: list[int] = []
    if st == P_ROT:
        p.ghost(c, g, state.pend_kind, g.kinds[state.pend_kind].mask, state.pend_cell)
    if st in (C_ROT, ACT, ORIENT_SELF, ORIENT_OTHER) and state.sel >= 0:
        for cell in range(g.N):
            if state.swapped >> cell & 1 and cell != state.sel:
                p.frame(c, g, cell, "#777777", 0.5, dash=True)
        if st == ORIENT_OTHER and state.other >= 0:  # the swapped tile is the one to orient
            p.frame(c, g, state.sel, HIGHLIGHT, 0.5, dash=True)
            p.frame(c, g, state.other)
        else:
            p.frame(c, g, state.sel)
    if st in (PICK, MARKER):
        for cell in state.picks:
            p.frame(c, g, cell)
    if st == ACT:
        nb = g.grid.nb
        for a in state.legal_actions():
            what, v, w = g.decode(a)
            if what == "move":
                ring.append(nb[nb[state.sel][v]][v] if w else nb[state.sel][v])
            elif what == "swap":
                ring.append(nb[state.sel][v])
    elif st == PICK:
        ring = state.legal_actions()
    elif st == P_CELL and state.phase == PHASE1:
        for cell in state.legal_actions():
            c.circle(p.centre(g, cell), p.unit * 0.09, fill=GOOD)
    for cell in ring:
        c.circle(p.centre(g, cell), p.unit * 0.3, stroke=GOOD, stroke_width=0.7)


def _side(p: Painter) -> float:
    """The width of the left player's strips (the score strip outside, the reserve strip beside the grid)."""
    return PAD + 2 * p.unit + STRIP_GAP + GAP


def _reserve_x(p: Painter, seat: int) -> float:
    return PAD + p.unit + STRIP_GAP if seat == 0 else _side(p) + p.width + GAP - 1.5


def _slot(p: Painter, state: IshiHamaState, seat: int, k: int, top: float) -> tuple[float, float]:
    """The top-left corner of kind k's slot in a seat's reserve strip."""
    g = state.game
    u = p.unit
    rx = _reserve_x(p, seat)
    pitch = g.grid.rows * u / max(1, g.K)
    return rx, top + k * pitch + (pitch - u) / 2


def _strips(c: Canvas, p: Painter, state: IshiHamaState, seat: int, x0: float, rx: float, sx: float, top: float,
            lang: str, acting: bool) -> None:
    """A seat's reserve strip (every kind of tile with how many the reserve holds) and score strip (one slot per
    point of the game, the score tiles in them), its name and points above."""
    g = state.game
    u = p.unit
    h = g.grid.rows * u
    hue = p.specs[g.player_name(seat)].colour
    c.rect(rx, top, u, h, fill=tint(hue, 0.88), stroke=INK, stroke_width=0.5)
    for k in range(g.K):
        x, y = _slot(p, state, seat, k, top)
        n = state.reserve[seat][k]
        if n:
            p.tile(c, g, k, g.kinds[k].mask, (x, y))
        else:
            c.rect(x + 0.5, y + 0.5, u - 1, u - 1, fill=tint(p.specs[g.kinds[k].colour_name].colour, 0.95),
                   stroke="#b5b5b5", stroke_width=0.25, stroke_dasharray="1 0.8")
        if acting and state.step == P_CELL and k == state.pend_kind:
            c.rect(x - 0.3, y - 0.3, u + 0.6, u + 0.6, stroke=HIGHLIGHT, stroke_width=0.8)
        r = 1.9  # the count, in the corner a tile's paths leave free
        bx, by = x + u - r - 0.4, y + r + 0.4
        c.circle((bx, by), r, fill="#ffffff", stroke=INK if n else "#9a9a9a", stroke_width=0.3)
        c.text(bx, by + r * 0.45, str(n), size=r * 1.3, anchor="middle", weight="bold", fill=INK if n else "#9a9a9a")
    slots = min(g.rules.points_in_game, g.grid.rows)
    stop = top + (h - slots * u) / 2
    scored = [k for k in range(g.K) for _ in range(state.scored[seat][k])]
    for i in range(slots):
        y = stop + i * u
        c.rect(sx, y, u, u, fill="#ffffff", stroke=INK, stroke_width=0.5)
        if i < len(scored):
            p.tile(c, g, scored[i], g.kinds[scored[i]].mask, (sx, y))
        else:
            c.text(sx + u / 2, y + u / 2 + 2.1, str(i + 1), size=6.0, anchor="middle", weight="bold", fill="#d9d9d9")
    pts = state.points()[seat]
    name = _name(state, seat, lang)
    label = f"{name} · {_w('points' if pts < 2 else 'points_n', lang, n=pts)}"
    c.text(x0, top - 1.6, ("▶ " if acting else "") + label, size=3.2, weight="bold", fill=HIGHLIGHT if acting else INK)
    if acting:
        c.rect(x0 - 0.6, top - 0.6, 2 * u + STRIP_GAP + 1.2, h + 1.2, stroke=HIGHLIGHT, stroke_width=0.8)


def _tray(c: Canvas, p: Painter, state: IshiHamaState, st: int, y: float, lang: str) -> list[tuple]:
    """Under the board: the orientations the engine lists (the tile in each) or a button (stop, pass); the
    clickable places they make, (x, y, w, h, actions, label) each."""
    g = state.game
    u = p.unit
    out: list[tuple] = []
    x = _side(p) + MARGIN
    if st in (P_ROT, C_ROT, ORIENT_SELF, ORIENT_OTHER):
        k = _orient_kind(state)
        c.text(x - 2.0, y + u * 0.55, _w("orientations", lang), size=3.2, anchor="end", weight="bold", fill=INK)
        for i, a in enumerate(state.legal_actions()):
            r = a - g.rotate_ids[0]
            m = g.rot_mask[k][r]
            tx = x + i * (u + 4.0)
            c.rect(tx - 0.8, y - 0.8, u + 1.6, u + 1.6, fill=GROUND, stroke=HIGHLIGHT, stroke_width=0.5, rx=1.0)
            p.tile(c, g, k, m, (tx, y))
            c.text(tx + u / 2, y + u + 4.0, mask_name(m), size=2.6, anchor="middle", fill="#555555")
            out.append((tx - 0.8, y - 0.8, u + 1.6, u + 1.6, [a], _w("orient", lang, paths=mask_name(m))))
    buttons = []
    if st in (SELECT, ACT):
        buttons.append(([g.stop_action], _w("no_combination" if st == SELECT else "end_combination", lang)))
    if st == PASS_STEP:
        buttons.append(([g.pass_action], _w("pass", lang)))
    for actions, label in buttons:
        w = 5.0 + 2.1 * len(label)  # (DejaVu Sans Bold at 3.4 mm: about 2.1 mm a letter)
        c.rect(x, y + 1.0, w, 8.0, fill="#ffffff", stroke=HIGHLIGHT, stroke_width=0.6, rx=1.5)
        c.text(x + w / 2, y + 6.3, label, size=3.4, anchor="middle", weight="bold", fill=HIGHLIGHT)
        out.append((x, y + 1.0, w, 8.0, actions, label))
        x += w + 4.0
    return out


def draw(design: Design, state: IshiHamaState, viewer: int | None, lang: str) -> str:
    """The page's picture: the same for every viewer (nothing is hidden)."""
    return picture(design, state, lang, clickable=True)


def text(state: IshiHamaState, viewer: int | None, lang: str) -> str:
    """The position told: the headline, each player's points and reserve, the board as the engine writes it."""
    g = state.game
    lines = [" — ".join(x for x in headline(state, lang) if x)]
    for seat in range(g.players):
        held = [f"{_kind_words(state, k, lang, n)} ×{n}" for k in range(g.K) if (n := state.reserve[seat][k])]
        reserve = ", ".join(held) if held else _w("empty", lang)
        pts = state.points()[seat]
        lines.append(f"{_name(state, seat, lang)}: {_w('points' if pts < 2 else 'points_n', lang, n=pts)}; "
                     f"{_w('reserve', lang)} ({_w('tiles', lang, n=sum(state.reserve[seat]))}): {reserve}")
    lines += str(state).split("\n")[1:]  # the board rows (nothing is hidden: the engine's own text may be shown)
    return "\n".join(lines)


def action_text(state: IshiHamaState, action: int, viewer: int | None) -> str:
    """The engine's words for the action (no chance, nothing hidden: the same for every viewer)."""
    return state.action_to_string(action, state.current_player())


def position(state: IshiHamaState) -> dict:
    """`IshiHamaGame.position(...)`'s arguments for the board as it lies, the reserves, the points, the player
    to act, the phase and the turn, as JSON values. That makes the start of the player's turn on this board: a
    turn under way (a tile placed and being played, a group being scored) is not kept, and the score tiles all
    count as points (position() does not say which kind each is)."""
    g = state.game
    board = {g.grid.name(cl): [g.kinds[k].colour_name, g.kinds[k].shape, mask_name(state.mask[cl])]
             for cl, k in enumerate(state.kind) if k >= 0}
    reserves = [[g.kinds[k].name for k in range(g.K) for _ in range(state.reserve[seat][k])]
                for seat in range(g.players)]
    return {"board": board, "reserves": reserves, "points": state.points(), "player": state.player,
            "phase": state.phase, "turns": state.turns}


PLAY = PlayView(draw=draw, text=text, action_text=action_text, position=position, position_diagram="position")
