"""Ishi-Hama rulebook facts: what a rules text reads as `facts`, asked of the design and the engine.

The worked example and the small diagrams' captions come from pnp.games.ishi_hama.scripts,
played on the rules engine.
"""

from __future__ import annotations

from pnp.engine import IllegalActionError
from pnp.games.ishi_hama.components import TILES_GENERATOR, tile_colours
from pnp.games.ishi_hama.engine import IshiHamaGame, find_component
from pnp.games.ishi_hama.geometry import side_of
from pnp.games.ishi_hama.scripts import (
    CONNECTION,
    EXAMPLE_MARKER,
    EXAMPLE_POINTS,
    big_play,
    combination_play,
    end_of_turn,
    example_play,
    phase1_play,
    score_play,
)
from pnp.model import Design
from pnp.rulebook import glossary
from pnp.rulebook.words import (
    COLOURS,
    COLOURS_FEMININE,
    COLOURS_PLURAL,
    SYMBOLS,
    capitalised,
    colour,
    count,
    definite,
    indefinite,
    of_player,
    player_name as _player_name,
    possession,
    word,
)

LABELS = {
    "en": {"stays": "stays", "to_reserve": "to the reserve"},
    "fr": {"stays": "reste", "to_reserve": "vers la réserve"},
}
NOTHING = {"en": "nothing", "fr": "rien"}  # a tile without a mark on its hub


def words() -> glossary.Glossary:
    """Ishi-Hama's glossary (pnp/games/ishi_hama/glossary.yaml)."""
    return glossary.of_package(__file__)


def shape(key: str, lang: str, n: int = 1) -> str:
    """A tile shape's word, agreed with "tuile" and the count (droite, droites; coude, T stay as they are)."""
    g = words()
    return g.term(key, lang, n) if key in g.terms or key in g.words else key


def tile_words(shape_key: str | None, colour_key: str | None, lang: str, n: int = 1) -> str:
    """Tiles of a shape and a colour, agreed, without article: "tuile coude orange", "tuiles droites bleues",
    "orange corner tile", "blue straight tiles"."""
    noun = words().term("tile", lang, n)
    parts = [shape(shape_key, lang, n)] if shape_key else []
    hue = colour(colour_key, lang, "tile", n) if colour_key else ""
    if lang == "fr":
        return " ".join([noun, *parts, *([hue] if hue else [])])
    return " ".join([*([hue] if hue else []), *parts, noun])


def the_tiles(shape_key: str | None, colour_key: str | None, lang: str, n: int = 1) -> str:
    """With the definite article: "la tuile coude orange", "the orange corner tile"."""
    return definite(tile_words(shape_key, colour_key, lang, n), "tile", lang, n)


def a_tile(shape_key: str | None, colour_key: str | None, lang: str) -> str:
    """With the indefinite article: "une tuile bleue", "an orange tile"."""
    return indefinite(tile_words(shape_key, colour_key, lang), "tile", lang)


def label(kind: str, lang: str, name: str = "") -> str:
    """A label of the scoring diagram in the language: "reserve" and "score" of the player `name` ("la réserve
    d'Orange", "Orange's reserve"), "stays", "to_reserve"."""
    if kind == "reserve":
        return capitalised(possession("reserve", name, lang))
    if kind == "score":
        return capitalised(possession("score_zone", name, lang))
    return LABELS.get(lang, LABELS["en"])[kind]


def player_name(name: str, lang: str) -> str:
    """A player, named by the colour they start with: Orange, Bleu."""
    return _player_name(name, lang)


def _of(name: str, lang: str) -> str:
    """Belonging to that player: "Orange's"; in French "d'Orange", "de Bleu"."""
    return of_player(player_name(name, lang), lang)


def _cell(game: IshiHamaGame, cell: int) -> str:
    return game.grid.name(cell)


def connection_facts(design: Design) -> list[bool]:
    """Whether each pair of the connection diagram is connected, asked of the engine."""
    game = IshiHamaGame(design, 2)
    out = []
    for board, _, _ in CONNECTION:
        st = game.position(board, reserves=[["blue straight"], []])
        cells = sorted(game.grid.parse(n) for n in board)
        out.append(any(all(cl in grp for cl in cells) for grp in st.groups()))
    return out


def example_facts(design: Design, lang: str) -> dict | None:
    """The worked example as the text tells it (cells, colours, points), or None if this design cannot play it."""
    try:
        pl = example_play(design)
        end = end_of_turn(pl)
    except ValueError:
        return None
    g = pl.game
    found = end.groups(g.rules.group_size)
    if len(found) != 1 or len(found[0]) != g.rules.group_size:
        return None
    st = end.clone()
    try:
        st.apply_action(g.kind_action(*EXAMPLE_MARKER.split()))
    except IllegalActionError:
        return None
    ev = pl.events
    take, sel = ev[0][1], ev[1][1]
    _, _, swapped_to = ev[2]
    _, _, moved_to = ev[3]
    k_take = pl.start.kind[take]
    group = found[0]
    mover, opp = 1, 0
    other_kind = pl.start.kind[swapped_to]
    return {
        "player": player_name(g.player_name(mover), lang), "opponent": player_name(g.player_name(opp), lang),
        "opponent_of": _of(g.player_name(opp), lang),
        "points": [EXAMPLE_POINTS[mover], EXAMPLE_POINTS[opp]], "after": [st.points()[mover], st.points()[opp]],
        "take": _cell(g, take), "take_shape": shape(g.kinds[k_take].shape, lang),
        "take_the": the_tiles(g.kinds[k_take].shape, g.kinds[k_take].colour_name, lang),
        "select_the": the_tiles(g.kinds[pl.start.kind[sel]].shape, g.kinds[k_take].colour_name, lang),
        "swap_the": the_tiles(g.kinds[other_kind].shape, g.kinds[other_kind].colour_name, lang),
        "marker_the": the_tiles(EXAMPLE_MARKER.split()[1], EXAMPLE_MARKER.split()[0], lang),
        "reserve": possession("reserve", player_name(g.player_name(mover), lang), lang),
        "opponent_reserve": possession("reserve", player_name(g.player_name(opp), lang), lang),
        "score_zone": possession("score_zone", player_name(g.player_name(mover), lang), lang),
        "colour": word(COLOURS, g.kinds[k_take].colour_name, lang),
        "colour_plural": word(COLOURS_PLURAL, g.kinds[k_take].colour_name, lang),
        "colour_fem": word(COLOURS_FEMININE, g.kinds[k_take].colour_name, lang),
        "select": _cell(g, sel), "select_shape": shape(g.kinds[pl.start.kind[sel]].shape, lang),
        "swap_with": _cell(g, swapped_to),
        "swap_shape": shape(g.kinds[other_kind].shape, lang),
        "swap_colour": word(COLOURS, g.kinds[other_kind].colour_name, lang),
        "move_to": _cell(g, moved_to),
        "through": _cell(g, g.grid.nb[swapped_to][0]),
        "group": [_cell(g, cl) for cl in group],
        "marker_shape": shape(EXAMPLE_MARKER.split()[1], lang),
        "given": sum(st.reserve[opp]) - sum(pl.start.reserve[opp]),
        "reserve_after": sum(st.reserve[mover]),
        "reserve_after_text": count(sum(st.reserve[mover]), "tile", lang),
        "given_text": count(sum(st.reserve[opp]) - sum(pl.start.reserve[opp]), "tile", lang,
                            colour_key=g.kinds[k_take].colour_name),
    }


def figure_facts(design: Design, lang: str) -> dict:
    """The cells and tiles the small diagrams show, for their captions (None when unplayable)."""
    out: dict = {}
    try:
        pl = combination_play(design)
        g, ev = pl.game, pl.events
        out["combination"] = {
            "placed": _cell(g, ev[0][1]), "select": _cell(g, ev[1][1]), "move_to": _cell(g, ev[2][2]),
            "swaps": [_cell(g, e[2]) for e in ev[3:]],
            "swapped": [(word(COLOURS_FEMININE, g.kinds[pl.start.kind[e[2]]].colour_name, lang),
                         shape(g.kinds[pl.start.kind[e[2]]].shape, lang)) for e in ev[3:]],
            "swapped_the": [the_tiles(g.kinds[pl.start.kind[e[2]]].shape, g.kinds[pl.start.kind[e[2]]].colour_name, lang)
                            for e in ev[3:]],
            "end": _cell(g, ev[-1][2]),
            "group": max((len(gr) for gr in pl.state.groups() if ev[-1][2] in gr), default=1),
        }
    except ValueError:
        out["combination"] = None
    try:
        out["connection"] = connection_facts(design)
    except (KeyError, ValueError):
        out["connection"] = None
    try:
        pl = big_play(design)
        g = pl.game
        picks = [_cell(g, e[1]) for e in pl.events if e[0] == "pick"]
        stays = [_cell(g, cl) for cl in range(g.N) if pl.state.kind[cl] >= 0]
        out["big_group"] = {"size": len(picks) + len(stays), "picks": picks, "stays": stays}
    except ValueError:
        out["big_group"] = None
    try:
        pl = score_play(design)
        out["scoring"] = {"placed": _cell(pl.game, pl.events[0][1])}
    except ValueError:
        out["scoring"] = None
    try:
        pl = phase1_play(design)
        out["phase1"] = {"tiles": len(pl.events)}
    except ValueError:
        out["phase1"] = None
    return out

FORMS = {
    "en": {"end": "a dead end to one side", "bend": "two neighbouring sides", "line": "two opposite sides",
           "three": "three sides", "four": "all four sides", "none": "no side"},
    "fr": {"end": "un seul côté", "bend": "deux côtés voisins", "line": "deux côtés opposés",
           "three": "trois côtés", "four": "les quatre côtés", "none": "aucun côté"},
}


def _form(mask: int, lang: str) -> str:
    """Which sides a path reaches, in words: two neighbouring sides, two opposite sides..."""
    n = bin(mask).count("1")
    key = {0: "none", 1: "end", 3: "three", 4: "four"}.get(n) or ("line" if mask in (5, 10) else "bend")
    return FORMS.get(lang, FORMS["en"])[key]


def _ordinal(k: int, lang: str) -> str:
    if lang == "fr":
        return "1er" if k == 1 else f"{k}e"
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def _listed(items: list[str], lang: str) -> str:
    """"a, b et c", "a, b and c"."""
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + (" et " if lang == "fr" else " and ") + items[-1]


def rulebook_facts(design: Design, lang: str) -> dict:
    """What an Ishi-Hama rules text reads as `facts`:

    * board: columns, rows, cells, last_column, cell_mm, apart (the most tiles that fit touching
      no other), score_slots;
    * colours (seat order; first and second are the same two): key, name, fem and plural (French
      feminine and feminine plural adjectives), symbol, pattern, player (the player's name: Orange),
      of ("Orange's", "d'Orange");
    * symbols: the names of the hub symbols in the language;
    * mix (per shape): key, name, count, paths, ends, form (the sides its path reaches, in words);
    * tiles (per colour), total, score (score tiles a group: 1);
    * points_to_win (a majority of the points of the game), last_point (its ordinal: 7th, 7e),
      tie_possible;
    * example (the worked example, or None), figures (what the small diagrams show).
    """
    game = IshiHamaGame(design, 2)
    g = game.grid
    _, board = find_component(design, "ishi_hama.board", "board")
    specs = tile_colours(design)
    colours = []
    for seat in range(2):
        name = game.player_name(seat)
        spec = next((s for s in specs if s.name == name), None)
        colours.append({"key": name, "name": word(COLOURS, name, lang), "plural": word(COLOURS_PLURAL, name, lang),
                        "fem": word(COLOURS_FEMININE, name, lang),
                        "symbol": spec.symbol if spec else "", "pattern": spec.pattern if spec else "",
                        "player": player_name(name, lang), "of": _of(name, lang),
                        "reserve": possession("reserve", player_name(name, lang), lang),
                        "score_zone": possession("score_zone", player_name(name, lang), lang),
                        "a_tile": a_tile(None, name, lang)})
    _, tiles = find_component(design, TILES_GENERATOR, "tile")
    letters = "NESO" if lang == "fr" else "NESW"
    mix = [{"key": m.name, "name": shape(m.name, lang, m.count), "count": m.count,
            "tiles": f"{m.count} {tile_words(m.name, None, lang, m.count)}",
            "paths": "+".join(letters[side_of(s)] for s in m.paths), "ends": len(m.paths),
            "form": _form(m.mask, lang)} for m in tiles.params.mix]
    per_colour = sum(k.count for k in game.kinds if k.colour == game.seat_colour[0])
    points = game.rules.points_in_game
    return {
        "board": {"columns": g.columns, "rows": g.rows, "cells": g.size, "last_column": chr(ord("A") + g.columns - 1),
                  "cell_mm": f"{board.params.cell:g}", "apart": g.max_apart(),
                  "score_slots": min(game.rules.points_in_game, g.rows)},
        "colours": colours, "first": colours[0], "second": colours[1],
        "symbols": {**{k: word(SYMBOLS, k, lang) for k in SYMBOLS["fr"]}, "none": NOTHING.get(lang, NOTHING["en"])},
        "mix": mix, "tiles": per_colour,
        "total": sum(k.count for k in game.kinds),
        "points_to_win": points // 2 + 1, "last_point": _ordinal(points, lang), "tie_possible": points % 2 == 0,
        "score": game.rules.group_size - game.rules.tiles_to_opponent,
        "example": example_facts(design, lang),
        "figures": figure_facts(design, lang),
        **words().facts(lang, {"mix": _listed([m["tiles"] for m in mix], lang), "n": game.rules.group_size}),
    }
