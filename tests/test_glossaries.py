"""Each game's glossary (pnp/games/<game>/glossary.yaml, issue 32): its French terms are the seed's own words; the
built books print them as the seed spells them and none of the drifting spellings; every book ends with "About this
edition" listed from the glossary; the components' generators print their words in the face's language."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from rulebook_checks import flat, rulebooks

from pnp.errors import DesignError
from pnp.loader import load_design
from pnp.registry import GeneratorContext, discover, get_game, get_generator
from pnp.rulebook import glossary

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "pnp" / "games"
SEEDS = Path("/work/shared/seeds")
SEED = {"tubo": "000", "ishi_hama": "001", "triloopite": "002", "three_stars": "003"}
DESIGNS = {"tubo": ["tubo"], "ishi_hama": ["ishi-hama"], "triloopite": ["triloopite"],
           "three_stars": ["three-stars", "three-stars-lozenge", "three-stars-circles"]}
ALL = [(game, d) for game, ds in DESIGNS.items() for d in ds]


def words_of(game: str) -> glossary.Glossary:
    return glossary.load(GAMES / game / "glossary.yaml")


def singular(term: str) -> str:
    """"Pièces Close" -> "Pièce Close", "Boucles Infinies" -> "Boucle Infinie": the seed's form of a plural."""
    return " ".join(w[:-1] if w.endswith("s") and len(w) > 3 else w for w in term.split())


def present(term: str, text: str) -> bool:
    """The term in the text as a whole word, as spelled (its first letter may be upper case at a sentence's start)."""
    forms = {term, term[:1].upper() + term[1:]}
    return any(re.search(r"(?<![\w])" + re.escape(f) + r"(?![\w])", text) for f in forms)


@pytest.fixture(scope="module")
def books() -> dict[tuple[str, str], str]:
    out = {}
    for _, design in ALL:
        for lang, pdf in rulebooks(ROOT / "designs" / design).items():
            out[(design, lang)] = flat(pdf)
    return out


@pytest.mark.parametrize("game", sorted(SEED))
def test_every_french_term_is_the_seeds_own_word(game):
    seeds = sorted(SEEDS.glob(f"{SEED[game]}_*.txt"))
    if not seeds:
        pytest.skip("the seeds are not on this machine")
    seed = seeds[0].read_text(encoding="utf-8")
    g = words_of(game)
    assert g.terms and g.choices and all(c.get("fr") and c.get("en") for c in g.choices + g.additions)
    for key, entry in g.terms.items():
        assert entry.get("fr") and entry.get("en"), (game, key)
        fr = entry["fr"]
        assert fr in seed or singular(fr) in seed, f"{game}: term {key} = {fr!r} is not written so in the seed"
    for variant in g.drift.get("fr", []):
        assert variant not in [e["fr"] for e in g.terms.values()]


@pytest.mark.parametrize("game,design", ALL)
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_books_print_the_glossary_terms_and_none_of_the_drift(books, game, design, lang):
    text = books[(design, lang)]
    g = words_of(game)
    base = design == DESIGNS[game][0]  # a variant may leave out what it does not have (regions, triangles)
    if base:
        missing = [e[lang] for e in g.terms.values() if not present(e[lang], text)]
        assert not missing, f"{design} ({lang}) never prints {missing}"
    said = re.sub(r"«[^»]*»|\"[^\"]*\"|“[^”]*”", "", text)  # a spelling quoted (the seed's own) is not the book's
    found = [v for v in g.drift.get(lang, []) if re.search(r"(?<![\w])" + re.escape(v) + r"(?![\w])", said)]
    assert not found, f"{design} ({lang}) prints {found}; the glossary spells them otherwise"


@pytest.mark.parametrize("game,design", ALL)
def test_every_book_ends_with_about_this_edition(books, game, design):
    d = load_design(ROOT / "designs" / design)
    for lang, heading in (("fr", "À propos de cette édition"), ("en", "About this edition")):
        text = books[(design, lang)]
        at = text.rindex(heading)
        assert at > len(text) / 2  # the last section, not only its line in the contents
        end = text[at:]
        edition = get_game(d.game).rulebook_facts(d, lang)["edition"]
        assert len(edition["choices"]) >= 4 and edition["additions"]
        for line in edition["choices"] + edition["additions"]:
            assert re.sub(r"\s+", " ", line)[:50] in end, (design, lang, line)
        assert ("pas ceux de l'auteur" if lang == "fr" else "not the author's") in end


def test_the_edition_lines_follow_the_design(books):
    """3 Stars' piece supply in "About this edition" is the design's own number, per variant."""
    for design in DESIGNS["three_stars"]:
        n = load_design(ROOT / "designs" / design).rules["pieces_per_player"]
        assert f"cette édition en donne {n} par couleur" in books[(design, "fr")]
        assert f"this edition gives {n} of each colour" in books[(design, "en")]
    # the board line and the examples line follow the design: regions only where the board has some, the blocking
    # example only where the book shows one (the lozenge board has neither), the French participle agreeing
    assert "Les régions du plateau pour 2, 3 et 4 joueurs" in books[("three-stars", "fr")]
    assert "The board's regions for 2, 3 and 4 players" in books[("three-stars", "en")].replace("\u2019", "'")
    assert "l'exemple de blocage, cherchés sur le plateau et vérifiés" in books[("three-stars", "fr")]
    lozenge = books[("three-stars-lozenge", "fr")]
    assert "régions du plateau" not in lozenge and "Le tracé exact du plateau" in lozenge
    assert "exemple de blocage" not in lozenge and "l'exemple de partie, cherché sur le plateau et vérifié" in lozenge
    assert "blocking example" not in books[("three-stars-lozenge", "en")]


def test_a_malformed_glossary_is_a_file_and_line_error(tmp_path):
    bad = tmp_path / "glossary.yaml"
    bad.write_text("terms:\n  ok: {fr: a, en: b}\n  bad: just text\nextra: 1\n", encoding="utf-8")
    with pytest.raises(DesignError) as err:
        glossary.load(bad)
    found = {(p.line, p.message.split(" ")[0]) for p in err.value.problems}
    assert (3, "terms.bad") in found and (4, "unknown") in found


def test_a_word_missing_in_a_language_is_a_warning_naming_file_and_line(tmp_path):
    from pnp.errors import drain_warnings

    f = tmp_path / "glossary.yaml"
    f.write_text("terms:\n  a: {fr: mot}\n", encoding="utf-8")
    drain_warnings()
    assert glossary.load(f).term("a", "en") == "mot"
    [w] = [p for p in drain_warnings() if "glossary.yaml" in p.file]
    assert w.line == 2 and "'en'" in w.message


# --- the components' words -------------------------------------------------------------------------------------

ENGLISH = {"the", "of", "to", "tile", "tiles", "players", "player", "region", "whole", "board", "edge", "comes",
           "back", "never", "each", "once", "game", "loops", "loop", "longest", "hand", "closed", "reserve", "start",
           "lozenges", "circles", "cells", "goes", "here", "side", "same", "letter", "number", "given", "scoring",
           "piece", "card", "grey", "black", "objective", "path", "crab", "straight", "corner", "tee", "an", "and",
           "or", "in", "aid", "yours", "those", "you"}
"""English words that are not also French ones (French "on", "place", "zone", "Close", "points" are left out)."""


def face_texts(design: str, lang: str) -> dict[tuple[str, str], list[str]]:
    """{(component, face label): the texts it prints} of every generated face drawn in `lang`."""
    discover()
    d = load_design(ROOT / "designs" / design)
    out = {}
    for cid, comp in d.components.items():
        if not comp.generate or comp.back:
            continue
        for face in get_generator(comp.generate).fn(GeneratorContext(d, cid, comp, comp.params, 0.0, lang=lang)):
            texts = [html.unescape(t) for t in re.findall(r"<text[^>]*>(.*?)</text>", face.paint(), re.S)]
            out[(cid, face.label)] = texts
    return out


@pytest.mark.parametrize("game,design", ALL)
def test_components_drawn_in_french_print_french(game, design):
    fr, en = face_texts(design, "fr"), face_texts(design, "en")
    english = set()
    for (cid, label), texts in fr.items():
        for t in [label, *texts]:
            english |= {w for w in re.findall(r"[A-Za-z]+", t.lower()) if w in ENGLISH}
    assert not english, f"{design}: English words on the French components: {sorted(english)}"
    assert {label for _, label in fr} != {label for _, label in en}  # the labels are per language too
    words = words_of(game)
    printed = " ".join(t for texts in fr.values() for t in texts)
    title = {"three-stars": "title_triangle", "three-stars-lozenge": "title_lozenge",
             "three-stars-circles": "title_circle"}.get(design)
    for key in words.labels:
        text = words.labels[key]["fr"]
        if "{" not in text and (key == title or key.startswith(("start", "no_edge", "per_point", "reserve_note",
                                                                 "loops", "longest", "penalty", "first"))):
            assert text in printed, (design, key)


def test_the_boards_say_what_the_issue_found_in_english_in_french():
    tubo = " | ".join(t for ts in face_texts("tubo", "fr").values() for t in ts)
    assert "DÉPART" in tubo and "Plateau sans bord : un chemin qui sort" in tubo
    assert "Zone grise : jamais la Pièce Objectif." in tubo and "START" not in tubo
    ishi = " | ".join(t for ts in face_texts("ishi-hama", "fr").values() for t in ts)
    assert "RÉSERVE D'ORANGE" in ishi and "RÉSERVE DE BLEU" in ishi and "1 tuile par point" in ishi
    assert "RESERVE" not in ishi and "1 tile a point" not in ishi
    stars = " | ".join(t for ts in face_texts("three-stars", "fr").values() for t in ts)
    assert "2 joueurs : région 2  ·  3 joueurs : 2 + 3  ·  4 joueurs : 2 + 3 + 4" in stars
    lozenge = " | ".join(t for ts in face_texts("three-stars-lozenge", "fr").values() for t in ts)
    assert "3 STARS · LOSANGES" in lozenge and "2 joueurs : tout le plateau" in lozenge
    aid = face_texts("triloopite", "fr")
    [(key, texts)] = [(k, v) for k, v in aid.items() if k[0] == "aid"]
    assert key[1] == "Aide de jeu" and "Bonus : +5 chacun (une fois par partie)" in texts
    assert "9+ : On retente une partie ?" in texts and "Plus grande boucle" in texts
    [(key, texts)] = [(k, v) for k, v in face_texts("triloopite", "en").items() if k[0] == "aid"]
    assert key[1] == "Player aid" and "Bonuses: +5 each (once a game)" in texts
