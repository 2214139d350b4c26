"""TriLOOPite rulebook facts: what a rules text reads as `facts`, from the design's tables and the
worked games of pnp.games.triloopite.scripts.
"""

from __future__ import annotations

from typing import Any

from pnp.engine import IllegalActionError
from pnp.errors import DesignError
from pnp.games.triloopite.components import VarietySpec, design_varieties
from pnp.games.triloopite.engine import TILES_GENERATOR
from pnp.games.triloopite.geometry import BONUSES, Analysis
from pnp.games.triloopite.scoring import BONUS_TEXT, read_rules
from pnp.games.triloopite.scripts import GENDERS, PLAYERS, STANDARD_GAME, design_bag, first_game, standard_game, witness
from pnp.model import Design
from pnp.rulebook import glossary
from pnp.rulebook.words import count, counts_of, listing, nominal, pronoun

WORDS = {
    "en": {"places": "places it", "keeps": "keeps it",
           "keeps_drawn": "keeps it and places the {tile} kept on turn {turn}"},
    "fr": {"places": "la pose", "keeps": "la garde",
           "keeps_drawn": "la garde et pose la tuile {tile} gardée au tour {turn}"},
}


def _w(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


def variety_name(spec: VarietySpec, lang: str) -> str:
    if isinstance(spec.name, str):
        return spec.name or spec.id
    return spec.name.get(lang) or spec.name.get("en") or spec.id


def _range(label: str, lang: str) -> str:
    """'11+' -> '11 or more', '1-2' -> '1–2' (en dash)."""
    if label.endswith("+"):
        return f"{label[:-1]} {'ou plus' if lang == 'fr' else 'or more'}"
    return label.replace("-", "–")


def rulebook_facts(design: Design, lang: str) -> dict:
    """What a TriLOOPite rules text reads as `facts`:

    tiles (total, start: name, crabs: count, trilobites: [{id, name, mark, count, crossing}],
    varieties: [{id, name, count, lines, crossing}]), smallest_loop (the ring of 6's length),
    tables (loop_points, longest_loop_points, verdicts: rows with `range` as printed and
    `points` / `text`), bonuses ([{key, name, points}]), penalty (power, example hands and
    total), first (the worked first game, or None), standard (the worked standard game, or None).
    """
    rules = read_rules(design)
    specs = [spec for _, spec in design_varieties(design, TILES_GENERATOR)]
    if not specs:
        raise ValueError("the design has no triloopite.tiles component")
    _, bag = design_bag(design)
    varieties = [{"id": s.id, "name": variety_name(s, lang), "count": s.count, "family": s.family, "mark": s.mark,
                  "lines": len(s.lines), "crossing": s.variety().crossing(), "start": s.start}
                 for s in specs if s.count > 0]
    try:
        ring: Analysis | None = witness(design, "loop_of_6").analysis
    except ValueError:
        ring = None  # the design's tiles cannot lay a ring: the text reads smallest_loop as None
    example_hands = [2, 3, 0]
    facts = {
        "tiles": {
            "total": sum(v["count"] for v in varieties),  # type: ignore[misc]
            "bag": sum(v.count for v in bag),
            "start": next(v["name"] for v in varieties if v["start"]),
            "start_count": sum(v["count"] for v in varieties if v["start"]),  # type: ignore[misc]
            "crabs": sum(v["count"] for v in varieties if v["family"] == "crab" and not v["start"]),  # type: ignore[misc]
            "crab_name": next((v["name"] for v in varieties if v["family"] == "crab" and not v["start"]), ""),
            "trilobites": [v for v in varieties if v["family"] == "trilobite"],
            "varieties": varieties,
            "crossing": [v for v in varieties if v["crossing"]],
            "double": [v for v in varieties if v["lines"] == 2 and not v["crossing"]],
        },
        "smallest_loop": min(lp.length for lp in ring.loops) if ring else None,
        "tables": {
            "loop_points": [{"range": _range(r.label, lang), "points": r.value} for r in rules.loop_points.rows],
            "longest_loop_points": [{"range": _range(r.label, lang), "points": r.value}
                                    for r in rules.longest_loop_points.rows],
            "verdicts": [{"range": _range(r.label, lang), "text": r.value.get(lang) or r.value.get("en", "")}
                         for r in rules.verdicts.rows],
        },
        "bonuses": [{"key": k, "name": BONUS_TEXT[k][lang if lang in ("en", "fr") else "en"],
                     "points": rules.bonuses[k]} for k in BONUSES if k in rules.bonuses],
        "penalty": {"power": rules.hand_penalty_power, "hands": example_hands,
                    "terms": [h ** rules.hand_penalty_power for h in example_hands],
                    "total": sum(h ** rules.hand_penalty_power for h in example_hands),
                    "players": list(PLAYERS)},
        "players": list(PLAYERS),
    }
    facts["first"] = _first_facts(design, lang)
    facts["standard"] = _standard_facts(design, lang, rules)
    t: Any = facts["tiles"]
    kinds = [f"{t['start_count']} {t['start'].lower()}", count(t["crabs"], "crab", lang)]
    # "6 trilobites T1" / "6 T1 trilobites": French names the mark after the noun, English before it
    kinds += [f"{count(v['count'], 'trilobite', lang)} {v['mark'] or v['name']}" if lang == "fr" else
              f"{v['count']} {v['mark'] or v['name']} {nominal('trilobite', lang, v['count'])}" for v in t["trilobites"]]
    tiles = listing(kinds, lang)
    facts.update(glossary.of_package(__file__).facts(lang, {"tiles": tiles, "min": design.meta.players.min,
                                                            "max": design.meta.players.max}))
    return facts


def _first_facts(design: Design, lang: str) -> dict | None:
    try:
        g = first_game(design)
    except ValueError:
        return None
    names = {v["id"]: v for v in _variety_names(design, lang)}
    w = _w(lang)
    rows = []
    for t in g.turns:
        drawn = names[t["draws"]]["short"]
        if t["laid"] is None:
            then = w["keeps"]
        elif t["from_turn"] is None:
            then = w["places"]
        else:
            then = w["keeps_drawn"].format(tile=names[t["laid"]]["short"], turn=t["from_turn"])
        rows.append({"turn": t["turn"], "player": t["player"], "draws": drawn, "then": then,
                     "kept": t["laid"] is None, "from_turn": t["from_turn"],
                     "pronoun": pronoun(GENDERS.get(t["player"], ""), lang)})
    lp = g.analysis.loops[0]
    left = [{"player": PLAYERS[i], "tiles": n} for i, n in enumerate(g.hands)]
    return {
        "turns": rows, "last": rows[-1], "placed": len(g.turn_of), "loop_length": lp.length,
        "figure_eight": bool(g.analysis.self_crossing), "hands": left, "in_hand": sum(g.hands),
        "hands_text": counts_of([(PLAYERS[i], n) for i, n in enumerate(g.hands)], "keep", "tile", lang, GENDERS),
        "verdict": g.verdict.get(lang) or g.verdict.get("en", ""), "verdict_range": _range(g.verdict_range, lang),
        "kept": [r for r in rows if r["kept"]],
        "from_hand": [r for r in rows if r["from_turn"] is not None],
    }


def _variety_names(design: Design, lang: str) -> list[dict]:
    """Each variety's name and a short name for the example table (the trilobites' mark, e.g. T3)."""
    out = []
    for _, spec in design_varieties(design, TILES_GENERATOR):
        name = variety_name(spec, lang)
        short = spec.mark or name
        out.append({"id": spec.id, "name": name, "short": short})
    return out


def _standard_facts(design: Design, lang: str, rules) -> dict | None:
    try:
        st, a, s = standard_game(design)
    except (ValueError, DesignError, IllegalActionError):
        return None
    if not a.loops:
        return None
    loops = []
    for k, lp in enumerate(a.loops):
        loops.append({"number": k + 1, "length": lp.length, "figure_eight": k in a.self_crossing,
                      "start": k in a.through_start,
                      "crosses": [j + 1 for pair in a.crossing_pairs if k in pair for j in pair if j != k],
                      "inside": [o + 1 for i, o in a.nested_pairs if i == k]})
    hands = [sum(h) for h in st.hands]
    bonus_names = {b: BONUS_TEXT[b][lang if lang in ("en", "fr") else "en"] for b in BONUSES}
    return {
        "players": STANDARD_GAME["players"], "names": list(PLAYERS[:STANDARD_GAME["players"]]),  # type: ignore[index]
        "placed": len(st.board.lines), "loops": loops, "count": a.count, "longest": a.longest,
        "loop_points": s.loop_points, "longest_points": s.longest_points,
        "bonuses": [{"key": k, "name": bonus_names[k], "points": v} for k, v in s.bonuses.items()],
        "bonus_points": s.bonus_points, "hands": hands,
        "penalty_terms": [h ** rules.hand_penalty_power for h in hands], "penalty": s.penalty, "total": s.total,
        "loop_range": _range(rules.loop_points.row(a.count).label, lang) if rules.loop_points.row(a.count) else "",
        "longest_range": (_range(rules.longest_loop_points.row(a.longest).label, lang)
                          if rules.longest_loop_points.row(a.longest) else ""),
    }
