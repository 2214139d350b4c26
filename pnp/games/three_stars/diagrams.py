"""3 Stars rulebook diagrams, drawn from the design (triangle and lozenge boards alike).

Diagrams (listed in DIAGRAMS, given to the GameSpec; called from a rules text as `{{ diagram("three_stars.board") }}`):

* `three_stars.board(players=None, labels=False)` — the board, each region tinted, bordered and
  labelled with its player count; with `players`, the regions not used are greyed out.
* `three_stars.board_with_card(card=1, star=1, players=2, colour=0)` — a card, and its pieces
  placed on star number `star` (reading order on the board for `players`).
* `three_stars.example(step=0)` — the worked example (see `example_facts`) after `step` turns.
* `three_stars.blocking()` — the blocking win: two reserved stars leave too few positions.
* `three_stars.cell_stars(players=None)` — one cell with a piece on it and the outline of every star
  it belongs to (3 on the triangle and circle boards, 2 on the lozenge board).
* `three_stars.position(owners=..., hands=..., scored=..., scores=..., player=...)` — a position as
  `pnp play` exports it (pnp.games.three_stars.play.position), drawn as the play page draws it for
  every seat: the board, the pieces, the stars and pieces of each player, the hands face down.

pnp.games.three_stars.painter draws them; the worked example and the blocking position are
pnp.games.three_stars.scripts.
"""

from __future__ import annotations

from pnp.games.three_stars.components import INK
from pnp.games.three_stars.engine import ThreeStarsGame, design_cards
from pnp.games.three_stars.painter import Board, card_cells, draw_card, fit, player_colours
from pnp.games.three_stars.play import players_of, position_kwargs, render
from pnp.games.three_stars.scripts import blocking_facts, example_facts
from pnp.model import Design
from pnp.render.svg import Canvas


def board_diagram(design: Design, lang: str, players: int | None = None, labels: bool = False,
                  size: float = 115) -> str:
    """board(players=None, labels=False): the board's regions; with players, the unused regions grey."""
    b = Board(design)
    p = fit(b, players, size)
    c = Canvas(p.width, p.height)
    p.board(c)
    if labels:
        p.labels(c, b.stars(p.players))
    return c.to_string()


def board_with_card(design: Design, lang: str, card: int = 1, star: int = 1, players: int = 2, colour: int = 0,
                    size: float = 125) -> str:
    """board_with_card(card=1, star=1, players=2, colour=0): a card and its pieces placed on star `star`."""
    b = Board(design)
    cards = {f.number: f.positions for f in design_cards(design)}
    if card not in cards:
        raise ValueError(f"there is no card {card} (cards are 1 to {max(cards)})")
    stars = b.stars(players)
    if not 1 <= star <= len(stars):
        raise ValueError(f"there is no star {star} for {players} players (stars are 1 to {len(stars)})")
    _name, fill, symbol = player_colours(design)[colour]
    card_w = 26.0
    p = fit(b, players, size - card_w - 8, whole=False)
    c = Canvas(p.width + card_w + 8, max(p.height, card_w * 88 / 63 + 8))
    p.dx = card_w + 8
    draw_card(c, 2, 4, card_w, cards[card], card, kind=card_cells(design))
    p.board(c)
    v = stars[star - 1]
    cells = b.star_cells(v)
    p.pieces(c, [cells[k] for k in cards[card]], fill, symbol)
    p.star_outline(c, v, INK, 1.2, dash="1.2,0.8")
    p.labels(c, stars, only={star})
    return c.to_string()


def example_diagram(design: Design, lang: str, step: int = 0, size: float = 80) -> str:
    """example(step=0): the worked example's position after `step` turns (0: before the first)."""
    ex = example_facts(design, lang)
    if ex is None:
        raise ValueError("this design's cards cannot play the worked example")
    if not 0 <= step <= len(ex["steps"]):
        raise ValueError(f"no step {step}; the example has steps 0 to {len(ex['steps'])}")
    b = Board(design)
    p = fit(b, 2, size, whole=False)
    c = Canvas(p.width, p.height)
    p.board(c, region_numbers=False)
    owners = ex["_positions"][step]
    colours = player_colours(design)
    changed = ex["_changed"][step]
    for who in (0, 1):
        mine = [cell for cell, o in owners.items() if o == who]
        p.pieces(c, [x for x in mine if x not in changed], colours[who][1], colours[who][2])
        p.pieces(c, [x for x in mine if x in changed], colours[who][1], colours[who][2], highlight=True)
    stars = b.stars(2)
    if ex["_scored"][step]:
        p.star_outline(c, stars[ex["star"] - 1], colours[0][1], 1.6)
    else:
        p.star_outline(c, stars[ex["star"] - 1], INK, 0.9, dash="1.2,0.8")
    p.labels(c, stars, only={ex["star"]} | ({ex["neighbour"]} if step >= 2 else set()))
    return c.to_string()


def blocking_diagram(design: Design, lang: str, size: float = 95) -> str:
    """blocking(): two reserved stars of the first colour leave the second too few star positions."""
    bl = blocking_facts(design)
    if bl is None:
        raise ValueError("no blocking example exists on this board")
    b = Board(design)
    players = bl["players"]
    p = fit(b, players, size, whole=False)
    c = Canvas(p.width, p.height)
    p.board(c, region_numbers=False)
    stars = b.stars(players)
    colours = player_colours(design)
    for label in bl["reserved"]:
        p.pieces(c, b.star_cells(stars[label - 1]), colours[0][1], colours[0][2])
        p.star_outline(c, stars[label - 1], colours[0][1], 1.4)
    for label in bl["left"]:
        p.star_outline(c, stars[label - 1], colours[1][1], 1.2, dash="1.5,1")
    p.labels(c, stars, only=set(bl["left"]))
    return c.to_string()


def cell_stars_diagram(design: Design, lang: str, players: int | None = None, size: float = 80) -> str:
    """cell_stars(players=None): a cell near the middle of the board, and every star it belongs to."""
    b = Board(design)
    n = players or min(b.counts)
    stars = b.stars(n)
    share = {}  # type: ignore[var-annotated]
    for v in stars:
        for cell in b.star_cells(v):
            share.setdefault(cell, []).append(v)
    most = max(len(vs) for vs in share.values())
    mid = [sum(b.centre(v)[i] for v in stars) / len(stars) for i in (0, 1)]

    def off_middle(cell) -> tuple:
        pts = b.polygon(cell)
        x, y = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
        return (round((x - mid[0]) ** 2 + (y - mid[1]) ** 2, 6), repr(cell))

    cell = min((cell for cell, vs in share.items() if len(vs) == most), key=off_middle)
    p = fit(b, n, size, whole=False)
    c = Canvas(p.width, p.height)
    p.board(c, region_numbers=False)
    _, fill, symbol = player_colours(design)[0]
    p.pieces(c, [cell], fill, symbol, highlight=True)
    for v in share[cell]:
        p.star_outline(c, v, INK, 0.9, dash="1.2,0.8")
    p.labels(c, stars, only={stars.index(v) + 1 for v in share[cell]})
    return c.to_string()


def position_diagram(design: Design, lang: str, owners: dict | None = None, hands: dict | None = None,
                     scored: dict | None = None, reserved: list | None = None, scores: list | None = None,
                     deck: dict | None = None, draws: list | None = None, player: int = 0) -> str:
    """position(owners=..., hands=..., scored=..., scores=..., player=...): the position `pnp play` exports (the
    keyword arguments of the engine's position(), as JSON), drawn as the play page draws it for every seat."""
    data = {"owners": owners, "hands": hands, "scored": scored, "reserved": reserved, "scores": scores, "deck": deck,
            "draws": draws, "player": player}
    game = ThreeStarsGame(design, players_of(data, Board(design).counts))
    return render(design, game.position(**position_kwargs(data)), None, lang)


DIAGRAMS = {  # the rulebook diagrams, by the short name a rules text gives after 'three_stars.'
    "board": board_diagram,
    "board_with_card": board_with_card,
    "example": example_diagram,
    "blocking": blocking_diagram,
    "cell_stars": cell_stars_diagram,
    "position": position_diagram,
}
WORDLESS = frozenset({"board", "board_with_card", "example", "blocking", "cell_stars"})
"""The diagrams that draw no words, the same in every language (drawn once for all):
every one: the board, its pieces and the stars' numbers."""
