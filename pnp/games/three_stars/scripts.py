"""3 Stars' scripted positions: the worked example and the blocking win, found on the design's board.

Both are searched on the engine's own geometry (the star positions of the player count and
their cells) and the design's cards, so they exist on the triangle and the lozenge board
alike; tests play them through the rules engine (game.position) to prove them legal.
"""

from __future__ import annotations

import math
from itertools import combinations

from pnp.games.three_stars.engine import design_cards, read_rules
from pnp.games.three_stars.painter import Board, player_colours
from pnp.model import Design
from pnp.rulebook.words import a, colour, player_name


def blocking_facts(design: Design) -> dict | None:
    """The first set of `stars_to_win - 1` disjoint stars (reading order) that leaves the opponent
    fewer available star positions than `stars_to_win` — as many as possible, like the seed's example."""
    rules = read_rules(design)
    b = Board(design)
    players = min(b.counts)
    stars = b.stars(players)
    k = rules.stars_to_win - 1
    if k < 1:
        return None
    cells = [frozenset(b.star_cells(v)) for v in stars]
    best = None
    for combo in combinations(range(len(stars)), k):
        taken: set = set()
        if any(taken & cells[i] or taken.update(cells[i]) for i in combo):  # type: ignore[func-returns-value]
            continue
        left = [j for j in range(len(stars)) if j not in combo and not cells[j] & taken]
        if len(left) < rules.stars_to_win and (best is None or len(left) > len(best[1])):
            best = (combo, left)
    if best is None:
        return None
    return {"players": players, "reserved": [i + 1 for i in best[0]], "left": [j + 1 for j in best[1]],
            "count_left": len(best[1]), "needed": rules.stars_to_win}


def example_facts(design: Design, lang: str) -> dict | None:
    """The worked example, 2 players, on a star S with a neighbour star T sharing S's cell 5:

    start: the first colour holds S's cells 0, 1, 2; the second colour holds cells 3 and 4.
    1. first colour: card [3,4,5] fits neither a place (3, 4 taken) nor a steal (5 empty);
       card [3,4] steals cells 3 and 4 on S.
    2. second colour: a one-position card places on T, on the cell S's position 5 shares.
    3. first colour: card [5] steals that cell on S: S is complete, scored and reserved.
    """
    b = Board(design)
    cards = {f.positions: f.number for f in design_cards(design)}
    stars = b.stars(2)
    need = [(3, 4, 5), (3, 4), (5,)]
    if any(n not in cards for n in need):
        return None
    # S: the star nearest the middle whose cell 5 is also in another star T of the 2-player board
    xs = [b.centre(v) for v in stars]
    mx, my = sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs)
    order = sorted(range(len(stars)), key=lambda i: (math.dist(xs[i], (mx, my)), i))
    for si in order:
        cells = b.star_cells(stars[si])
        for ti, t in enumerate(stars):
            if ti != si and cells[5] in b.star_cells(t):
                j = b.star_cells(t).index(cells[5])
                if (j,) in cards:
                    break
        else:
            continue
        break
    else:
        return None
    S, T = stars[si], stars[ti]
    cells = b.star_cells(S)
    pos0 = {cells[0]: 0, cells[1]: 0, cells[2]: 0, cells[3]: 1, cells[4]: 1}
    pos1 = {**pos0, cells[3]: 0, cells[4]: 0}
    pos2 = {**pos1, cells[5]: 1}
    pos3 = {**pos2, cells[5]: 0}
    colours = player_colours(design)
    names = [player_name(colours[i][0], lang) for i in (0, 1)]
    return {
        "players": 2, "first": names[0], "second": names[1], "star": si + 1, "neighbour": ti + 1,
        "first_star": colour(colours[0][0], lang, "star"),  # l'étoile est entièrement bleue
        "second_a_piece": a("piece", lang, colour_key=colours[1][0]),  # une pièce rouge, an orange piece
        "start": {"first": 3, "second": 2, "empty": 1},  # cells of star S each colour holds before step 1
        "steps": [
            {"player": names[0], "kind": "steal", "card": cards[(3, 4)], "blocked": cards[(3, 4, 5)],
             "star": si + 1, "pieces": 2},
            {"player": names[1], "kind": "place", "card": cards[(j,)], "star": ti + 1, "pieces": 1},
            {"player": names[0], "kind": "steal", "card": cards[(5,)], "star": si + 1, "pieces": 1},
        ],
        "_positions": [pos0, pos1, pos2, pos3],
        "_changed": [set(), {cells[3], cells[4]}, {cells[5]}, {cells[5]}],
        "_scored": [False, False, False, True],
        "_centres": {"star": S, "neighbour": T},
    }
