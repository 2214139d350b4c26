"""TUBO rulebook facts: what a rules text reads as `facts`, every number asked of the design and the engine.

The worked example and the small diagrams' captions come from the scripts of
pnp.games.tubo.scripts, played on the rules engine.
"""

from __future__ import annotations

from pnp.games.tubo.engine import CLOSE, CONNECTORS, TuboGame, cell_name, design_stocks, find_component
from pnp.games.tubo.geometry import SIDE_NAMES, connectors, fitting
from pnp.games.tubo.scripts import (
    EXAMPLE,
    EXAMPLE_PARTS,
    LOOP,
    PASS_OVER,
    WRAP,
    safe_play,
    score_values,
    stock_params,
)
from pnp.model import Design
from pnp.rulebook import glossary
from pnp.rulebook.words import SIDE_LETTERS, SIDES, SYMBOLS, colour, word

ZONES = {"fr": {"grey": "grise", "black": "noire", "white": "blanche"}}  # feminine: "la zone noire"
PLAYERS = ("Léa", "Tom")  # seat 1 (starts round 1), seat 2 (places the Objective)


def _signed(v: int) -> str:
    return f"+{v}" if v > 0 else f"−{-v}" if v < 0 else "0"


def example_facts(design: Design, lang: str) -> dict | None:
    """The worked example as the text tells it: names, cells, pieces, per step; None if it cannot be played."""
    try:
        pl = safe_play(design, EXAMPLE)
    except ValueError:
        return None
    ev = pl.events
    if not (ev[-1]["reached"] and any(e["loop"] for e in ev) and any(e["closed"] for e in ev)):
        return None
    g = pl.game
    letters = SIDE_LETTERS.get(lang, "NESW")

    def name(cell) -> str:
        return cell_name(g.board, cell)

    def piece(i: int) -> str:
        return "-".join(letters[s] for s in CONNECTORS[i]) if i != CLOSE else "Close"

    steps = []
    for e in ev:
        d = {"player": PLAYERS[e["player"]], "kind": e["kind"], "round": e["round"], "loop": e["loop"],
             "closed": e["closed"], "reached": e["reached"], "passed_over": e.get("passed_over", False)}
        if e["kind"] == "open":
            d.update(cell=name(e["cell"]), side=word(SIDES, SIDE_NAMES[e["side"]], lang),
                     letter=letters[e["side"]])
        else:
            d.update(cell=name(e["cell"]), piece=piece(e["piece"]))
        if "next" in e:
            d["next"] = name(e["next"][0])
        steps.append(d)
    stocks = design_stocks(design)
    laid = [step for step in steps if step["kind"] == "lay"]
    for i, step in enumerate(laid, start=1):
        step["number"] = i
    colours = [[colour(stocks[k].name, lang, "stock") for k in pl.state.drafted[p]] for p in (0, 1)]
    return {
        "players": list(PLAYERS), "objective": name(g.board.cell(pl.state.objective)),
        "start": name(g.board.start), "colours": colours, "steps": steps,
        "parts": [list(range(a, b)) for a, b in zip((0,) + EXAMPLE_PARTS, EXAMPLE_PARTS)],
        "winner": PLAYERS[pl.state.winner],
    }


def rulebook_facts(design: Design, lang: str) -> dict:
    """What a TUBO rules text reads as `facts`:

    board (columns, rows, cells, cell_mm, start, branches, branch_names), zones (name, key,
    cells, objective: bool), objective_zone (its name), other_zones, stocks (name,
    symbol), stock_count, connectors (per stock), fitting (pieces of a stock that fit one
    open end), closes (per stock), loose (pieces in the box), score (piece, loop, close,
    unused_close, and signed texts), max_pieces, sides, example (or None); and from the game's glossary
    (pnp/games/tubo/glossary.yaml): term, label, edition (choices, additions), drift.
    """
    game = TuboGame(design, 2)
    b = game.board
    _, comp = find_component(design, "tubo.board", "board")
    params = comp.params
    zones = []
    objective_zone = game.rules.objective_zone
    for zname, cells in b.zone_cells.items():
        zones.append({"key": zname, "name": word(ZONES, zname, lang), "cells": len(cells),
                      "objective": zname == objective_zone})
    sp = stock_params(design)
    stocks = design_stocks(design)
    score = score_values(game)
    _, obj = find_component(design, "tubo.objective", "Objective piece")
    loose = sum(sum(s.counts) for s in stocks) + obj.count
    return {
        "board": {"columns": b.width, "rows": b.height, "cells": b.size, "cell_mm": _mm(params.cell),
                  "start": cell_name(b, b.start), "branches": len(b.branches),
                  "branch_names": [word(SIDES, SIDE_NAMES[s], lang) for s in b.branches],
                  "last_column": chr(ord("A") + b.width - 1)},
        "zones": zones,
        "objective_zone": word(ZONES, objective_zone, lang),
        "other_zones": [z["name"] for z in zones if not z["objective"]],
        "stocks": [{"name": colour(s.name, lang, "stock"), "symbol": word(SYMBOLS, s.symbol, lang)}
                   for s in sp.stocks],
        "stock_count": len(stocks),
        "connectors": stocks[0].connectors,
        "fitting": len(fitting(0, connectors())),
        "closes": stocks[0].closes,
        "loose": loose,
        "max_pieces": game.rules.stocks_per_player * stocks[0].connectors,
        "score": {**score, **{f"{k}_text": _signed(v) for k, v in score.items()}},
        "sides": {k: word(SIDES, k, lang) for k in SIDE_NAMES},
        "letters": SIDE_LETTERS.get(lang, "NESW"),
        "example": example_facts(design, lang),
        "figures": figure_facts(design),
        **glossary.of_package(__file__).facts(lang),
    }


def figure_facts(design: Design) -> dict:
    """The numbers printed on the pieces of the small diagrams, for their captions (None when unplayable)."""
    out: dict = {}
    try:
        pl = safe_play(design, WRAP)
        a, b = next((a, b) for a, b in zip(pl.laid, pl.laid[1:]) if b.cell[0] < a.cell[0])
        out["wrap"] = {"out": a.step, "in": b.step, "row": a.cell[1] + 1}
    except (ValueError, StopIteration):
        out["wrap"] = None
    try:
        pl = safe_play(design, LOOP)
        out["loop"] = {"last": pl.laid[-1].step}
    except ValueError:
        out["loop"] = None
    try:
        pl = safe_play(design, PASS_OVER)
        top = pl.laid[-1]
        under = next(q for q in pl.laid if q.cell == top.cell and q is not top)
        out["pass_over"] = {"top": top.step, "under": under.step, "round": top.round, "earlier": under.round}
    except (ValueError, StopIteration):
        out["pass_over"] = None
    return out


def _mm(v: float) -> str:
    return f"{v:g}"
