"""3 Stars rulebook facts: what a rules text reads as `facts`: star positions and cells per player
count, card counts by size, colour names, the worked example and the blocking example. Every
number comes from the design's components through the engine's own geometry.
"""

from __future__ import annotations

from pnp.games.three_stars.engine import design_cards, read_rules
from pnp.games.three_stars.painter import Board, player_colours
from pnp.games.three_stars.scripts import blocking_facts, example_facts
from pnp.model import Design
from pnp.rulebook import glossary
from pnp.rulebook.run import shared_by_languages
from pnp.rulebook.words import a, colour, of_player, player_name

CELL_NOUNS = {"triangle": {"en": ("triangle", "triangles"), "fr": ("triangle", "triangles")},
              "lozenge": {"en": ("lozenge", "lozenges"), "fr": ("losange", "losanges")},
              "circle": {"en": ("circle", "circles"), "fr": ("cercle", "cercles")}}


def rulebook_facts(design: Design, lang: str) -> dict:
    """What a 3 Stars rules text reads as `facts` (see the module docstring)."""
    b = Board(design)
    rules = read_rules(design)
    one, many = CELL_NOUNS[b.kind].get(lang, CELL_NOUNS[b.kind]["en"])
    setups, per_cell = _board_counts(design)
    faces = design_cards(design)
    sizes: dict[int, int] = {}
    for f in faces:
        sizes[len(f.positions)] = sizes.get(len(f.positions), 0) + f.count
    colours = [{"key": name, "name": colour(name, lang), "fill": fill, "symbol": symbol,
                "player": player_name(name, lang), "of": of_player(player_name(name, lang), lang),
                "piece": colour(name, lang, "piece"),
                "pieces": colour(name, lang, "piece", 2), "a_piece": a("piece", lang, colour_key=name),
                "star": colour(name, lang, "star"), "token": colour(name, lang, "token")}
               for name, fill, symbol in player_colours(design)]
    g = glossary.of_package(__file__)
    blocking = blocking_facts(design)
    counts = [str(s["players"]) for s in setups]
    players = (", ".join(counts[:-1]) + " " + g.term("and", lang) + " " + counts[-1]) if len(counts) > 1 else "".join(counts)
    board = (g.term("board_regions", lang).format(players=players) if len(b.params.regions) > 1
             else g.term("board_whole", lang))
    return {
        "board": b.kind, "cell": one, "cells": many, "stars_per_cell": per_cell,
        "setups": [dict(s, regions=list(s["regions"])) for s in setups],
        "regions": [{"name": name, "players": spec.players} for name, spec in
                    sorted(b.params.regions.items(), key=lambda kv: (kv[1].players, kv[0]))],
        "cards": {"total": sum(f.count for f in faces), "distinct": len(faces),
                  "sizes": [{"size": s, "count": sizes[s]} for s in sorted(sizes)],
                  "min": min(sizes), "max": max(sizes), "positions": 6},
        "colours": colours,
        "example": example_facts(design, lang),
        "blocking": blocking,
        **g.facts(lang, {"pieces": rules.pieces_per_player, "stars": rules.stars_to_win,
                         "board": board, "examples": g.term("examples_blocking" if blocking else "examples_plain", lang)}),
    }


@shared_by_languages
def _board_counts(design: Design) -> tuple[list[dict], int]:
    """Per player count, the regions in play, star positions and cells; and how many stars share one cell (the
    most): the same in every language."""
    b = Board(design)
    meta = design.meta
    setups = []
    for n in range(meta.players.min, meta.players.max + 1):
        regions = sorted((name for name, spec in b.params.regions.items() if spec.players <= n),
                         key=lambda r: (b.params.regions[r].players, r))
        setups.append({"players": n, "regions": regions, "stars": len(b.stars(n)), "cells": len(b.cells(n))})
    everything = b.cells(b.max_players)
    per_cell = max(sum(1 for v in b.stars(b.max_players) if cell in b.star_cells(v)) for cell in everything)
    return setups, per_cell
