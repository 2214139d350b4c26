"""Generated phrases agree (issue 32): pnp.rulebook.words makes every phrase the games build from data — a noun with
its colour, count and article, elided, in French and English — and the games' own sentences use it."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from pnp.loader import load_design
from pnp.rulebook import words as w

ROOT = Path(__file__).resolve().parent.parent
NOUNS = sorted(w.NOUNS["fr"])
COLOURS = sorted(w.COLOUR_FORMS["fr"])
COUNTS = [0, 1, 2, 4, 13]
INVARIABLE = {"orange", "brown", "sky", "vermilion"}  # nouns used as colours, compound colours

PEOPLE = {"Alice": "f", "Bob": "m", "Carole": "f"}
# what a French reader expects, written out by hand
EXPECTED_FR = [
    (lambda: w.a("piece", "fr", colour_key="blue"), "une pièce bleue"),
    (lambda: w.a("stock", "fr", colour_key="blue"), "un stock bleu"),
    (lambda: w.a("tile", "fr", colour_key="orange"), "une tuile orange"),
    (lambda: w.the("star", "fr"), "l'étoile"),
    (lambda: w.the("star", "fr", colour_key="green"), "l'étoile verte"),
    (lambda: w.the("round", "fr"), "le tour"),
    (lambda: w.the("tile", "fr", 3, colour_key="white"), "les tuiles blanches"),
    (lambda: w.colour("blue", "fr", "star"), "bleue"),
    (lambda: w.colour("grey", "fr", "triangle", 2), "gris"),
    (lambda: w.colour("grey", "fr", "piece", 2), "grises"),
    (lambda: w.colour("purple", "fr", "piece"), "violette"),
    (lambda: w.colour("sky", "fr", "piece", 5), "bleu ciel"),
    (lambda: w.possession("reserve", "Orange", "fr"), "la réserve d'Orange"),
    (lambda: w.possession("reserve", "Bleu", "fr"), "la réserve de Bleu"),
    (lambda: w.possession("score_zone", "Orange", "fr"), "la zone de score d'Orange"),
    (lambda: w.count(4, "tile", "fr", adj="straight"), "4 tuiles droites"),
    (lambda: w.count(1, "tile", "fr", adj="straight"), "1 tuile droite"),
    (lambda: w.count(0, "point", "fr"), "0 point"),
    (lambda: w.count(2, "bonus", "fr"), "2 bonus"),
    (lambda: w.count(3, "piece", "fr", colour_key="red"), "3 pièces rouges"),
    (lambda: w.count(2, "triangle", "fr", colour_key="black"), "2 triangles noirs"),
    (lambda: w.each("bonus", "fr"), "chacun"),
    (lambda: w.each("loop", "fr"), "chacune"),
    (lambda: w.player_name("blue", "fr"), "Bleu"),
    (lambda: w.player_name("sky", "fr"), "Bleu ciel"),
    (lambda: w.colour("sky", "fr"), "bleu ciel"),  # (alone, as a colour's name: never "ciel")
    (lambda: w.word(w.COLOURS, "sky", "fr"), "bleu ciel"),
    (lambda: w.elide("de", "Orange"), "d'Orange"),
    (lambda: w.elide("que", "il"), "qu'il"),
    (lambda: w.elide("De", "Orange"), "D'Orange"),
    (lambda: w.elide("de", "Bleu"), "de Bleu"),
    (lambda: w.listing(["Alice", "Bob", "Carole"], "fr"), "Alice, Bob et Carole"),
    (lambda: w.each_count(["Alice", "Bob", "Carole"], "keep", 1, "tile", "fr"), "Alice, Bob et Carole gardent chacun 1 tuile"),
    (lambda: w.each_count(["Alice", "Carole"], "keep", 2, "tile", "fr", feminine=True),
     "Alice et Carole gardent chacune 2 tuiles"),
    (lambda: w.each_count(["Bob"], "keep", 0, "tile", "fr"), "Bob ne garde aucune tuile"),
    (lambda: w.each_count(["Bob"], "have", 0, "point", "fr"), "Bob n'a aucun point"),
    (lambda: w.counts_of([("Alice", 1), ("Bob", 1), ("Carole", 1)], "keep", "tile", "fr", PEOPLE),
     "Alice, Bob et Carole gardent chacun 1 tuile"),
    (lambda: w.counts_of([("Alice", 2), ("Bob", 0), ("Carole", 2)], "keep", "tile", "fr", PEOPLE),
     "Alice et Carole gardent chacune 2 tuiles et Bob ne garde aucune tuile"),
    (lambda: w.counts_of([("Alice", 2), ("Bob", 3), ("Carole", 1)], "keep", "tile", "fr", PEOPLE),
     "Alice garde 2 tuiles, Bob garde 3 tuiles et Carole garde 1 tuile"),
    (lambda: w.pronoun("f", "fr"), "elle"),
]
EXPECTED_EN = [
    (lambda: w.a("tile", "en", colour_key="orange"), "an orange tile"),
    (lambda: w.a("tile", "en", colour_key="blue"), "a blue tile"),
    (lambda: w.a("piece", "en"), "a piece"),
    (lambda: w.count(1, "point", "en"), "1 point"),
    (lambda: w.count(0, "point", "en"), "0 points"),
    (lambda: w.count(2, "bonus", "en"), "2 bonuses"),
    (lambda: w.count(4, "tile", "en", adj="straight"), "4 straight tiles"),
    (lambda: w.possession("reserve", "Orange", "en"), "Orange's reserve"),
    (lambda: w.player_name("blue", "en"), "Blue"),
    (lambda: w.each("bonus", "en"), "each"),
    (lambda: w.the("tile", "en", 2, colour_key="red"), "the red tiles"),
    (lambda: w.counts_of([("Alice", 1), ("Bob", 1), ("Carole", 1)], "keep", "tile", "en", PEOPLE),
     "Alice, Bob and Carole keep 1 tile each"),
    (lambda: w.counts_of([("Alice", 2), ("Bob", 0), ("Carole", 2)], "keep", "tile", "en", PEOPLE),
     "Alice and Carole keep 2 tiles each and Bob keeps no tiles"),
    (lambda: w.each_count(["Bob"], "keep", 1, "tile", "en"), "Bob keeps 1 tile"),
    (lambda: w.pronoun("m", "en"), "he"),
]


@pytest.mark.parametrize("make,expected", EXPECTED_FR + EXPECTED_EN, ids=[e for _, e in EXPECTED_FR + EXPECTED_EN])
def test_phrases_read_as_written_by_hand(make, expected):
    assert make() == expected


@pytest.mark.parametrize("noun", NOUNS)
def test_every_french_noun_colour_and_count_agree(noun):
    """Every colour and count of each noun (one test per noun: a test per phrase cost more in pytest than in words)."""
    for colour, n in itertools.product(COLOURS, COUNTS):
        _french_agrees(noun, colour, n)


def _french_agrees(noun, colour, n):
    nn = w.noun(noun, "fr")
    phrase = w.count(n, noun, "fr", colour_key=colour)
    head = nn.singular if n < 2 else nn.plural
    assert phrase.startswith(f"{n} {head} ")
    adj = phrase[len(f"{n} {head} "):]
    m, f, mp, fp = w.COLOUR_FORMS["fr"][colour]
    if colour in INVARIABLE:
        assert adj == m  # never agrees
    else:
        assert adj == {("m", False): m, ("f", False): f, ("m", True): mp, ("f", True): fp}[(nn.gender, n >= 2)]
        assert mp.endswith("s") and fp.endswith("s") and fp == f + "s"  # the forms themselves are French
    # the article: elided before a vowel, of the noun's gender and number
    art = w.the(noun, "fr", n, colour_key=colour)
    if n >= 2:
        assert art.startswith("les ")
    elif w.starts_with_vowel(nn.singular):
        assert art.startswith("l'") and art[2:].startswith(nn.singular)
    else:
        assert art.startswith("la " if nn.gender == "f" else "le ")
    one = w.a(noun, "fr", colour_key=colour)
    assert one.startswith("une " if nn.gender == "f" else "un ")


@pytest.mark.parametrize("noun", sorted(w.NOUNS["en"]))
def test_every_english_noun_colour_and_count_agree(noun):
    for colour, n in itertools.product(COLOURS, COUNTS):
        _english_agrees(noun, colour, n)


def _english_agrees(noun, colour, n):
    phrase = w.count(n, noun, "en", colour_key=colour)
    nn = w.noun(noun, "en")
    assert phrase == f"{n} {w.colour(colour, 'en')} {nn.singular if n == 1 else nn.plural}"
    one = w.a(noun, "en", colour_key=colour)
    assert one.startswith("an " if colour[0] in "aeiou" else "a ")


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("verb", sorted(w.VERBS["fr"]))
def test_every_shared_count_agrees(verb, lang):
    """Every verb x noun x count x group size (1 to 3 people, men, women or both): one person takes the verb's
    singular, several its plural and "chacun" / "chacune" / "each"; none, "ne ... aucun(e)" / "no"."""
    names = ["Alice", "Carole", "Bob"]
    one, many = w.VERBS[lang][verb]
    for noun, n, size, women in itertools.product(sorted(w.NOUNS[lang]), COUNTS, (1, 2, 3), (True, False)):
        who = names[:size]
        text = w.each_count(who, verb, n, noun, lang, feminine=women)
        nn = w.noun(noun, lang)
        subject = w.listing(who, lang)
        form = one if size == 1 else many
        assert text.startswith(subject + " ") and subject.count(",") == max(size - 2, 0)
        rest = text[len(subject) + 1:]
        if lang == "fr":
            if n == 0:
                assert rest == f"{w.elide('ne', form)} {'aucune' if nn.gender == 'f' else 'aucun'} {nn.singular}"
            else:
                each = "" if size == 1 else ("chacune " if women else "chacun ")
                assert rest == f"{form} {each}{w.count(n, noun, lang)}"
        else:
            if n == 0:
                assert rest == f"{form} no {nn.plural}"
            else:
                assert rest == f"{form} {w.count(n, noun, lang)}" + (" each" if size > 1 else "")


def test_shared_counts_group_the_people_with_the_same_count():
    """Every hand of three players (0 to 2 tiles each): one verb per distinct count, in the plural when several
    people share it, each name said once, "chacune" only for women."""
    for hands in itertools.product(range(3), repeat=3):
        people = list(zip(["Alice", "Bob", "Carole"], hands))
        for lang in ("fr", "en"):
            one, many = w.VERBS[lang]["keep"]
            words = w.counts_of(people, "keep", "tile", lang, PEOPLE).split()
            verbs = [x for x in words if x in (one, many)]
            assert len(verbs) == len(set(hands))
            assert verbs.count(many) == sum(1 for n in set(hands) if hands.count(n) > 1)
            assert all(words.count(name) + words.count(name + ",") == 1 for name in PEOPLE)
            women = {n for n in set(hands) if all(PEOPLE[p] == "f" for p, h in people if h == n)}
            if lang == "fr":
                assert words.count("chacune") == sum(1 for n in women if n and hands.count(n) > 1)


def test_the_word_table_knows_each_nouns_gender():
    assert all(n.gender in ("m", "f") for n in w.NOUNS["fr"].values())
    assert set(w.VERBS["fr"]) == set(w.VERBS["en"])
    with pytest.raises(KeyError, match="no verb 'fly'"):
        w.verb("fly", "fr")
    assert set(w.NOUNS["fr"]) == set(w.NOUNS["en"])
    with pytest.raises(KeyError, match="no noun 'dragon'"):
        w.noun("dragon", "fr")


# --- the games' sentences ----------------------------------------------------------------------------------------

def _facts(design: str, lang: str) -> dict:
    from pnp.registry import discover, get_game

    discover()
    d = load_design(ROOT / "designs" / design)
    return get_game(d.game).rulebook_facts(d, lang)


def test_ishi_hamas_sentences_agree():
    fr, en = _facts("ishi-hama", "fr"), _facts("ishi-hama", "en")
    assert fr["first"]["reserve"] == "la réserve d'Orange" and fr["second"]["reserve"] == "la réserve de Bleu"
    assert fr["second"]["score_zone"] == "la zone de score de Bleu"
    assert fr["first"]["a_tile"] == "une tuile orange" and fr["second"]["a_tile"] == "une tuile bleue"
    assert en["first"]["a_tile"] == "an orange tile" and en["second"]["a_tile"] == "a blue tile"
    assert [m["tiles"] for m in fr["mix"]] == ["6 tuiles coude", "4 tuiles droites", "4 tuiles T"]
    ex = fr["example"]
    assert ex["player"] == "Bleu" and ex["opponent_reserve"] == "la réserve d'Orange"
    assert ex["take_the"].startswith("la tuile ") and ex["reserve_after_text"] == "1 tuile"
    assert ex["given_text"].startswith("4 tuiles ")
    assert ex["take_the"].split()[-1] in ("orange", "bleue")
    assert en["example"]["take_the"].startswith("the ") and en["example"]["take_the"].endswith(" tile")


def test_three_stars_sentences_agree():
    fr, en = _facts("three-stars", "fr"), _facts("three-stars", "en")
    assert [c["player"] for c in fr["colours"]] == ["Bleu", "Rouge", "Jaune", "Vert"]
    assert [c["a_piece"] for c in fr["colours"]] == ["une pièce bleue", "une pièce rouge", "une pièce jaune",
                                                     "une pièce verte"]
    assert fr["example"]["first_star"] == "bleue" and fr["example"]["second_a_piece"] == "une pièce rouge"
    assert fr["colours"][0]["of"] == "de Bleu"
    assert en["example"]["second_a_piece"] == "a red piece" and en["colours"][0]["player"] == "Blue"


def test_a_three_stars_colour_is_named_as_a_french_colour(tmp_path):
    """A 3 Stars design may seat a sky-blue player: the book names the colour "bleu ciel" (invariable), never "ciel"."""
    import shutil

    from pnp.registry import discover, get_game

    discover()
    folder = tmp_path / "three-stars"
    shutil.copytree(ROOT / "designs" / "three-stars", folder)
    yaml = folder / "design.yaml"
    text = yaml.read_text(encoding="utf-8")
    assert "{name: green, colour: \"#009E73\"" in text
    yaml.write_text(text.replace("{name: green, colour: \"#009E73\"", "{name: sky, colour: \"#56B4E9\""), encoding="utf-8")
    d = load_design(folder)
    fr, en = (get_game(d.game).rulebook_facts(d, lang) for lang in ("fr", "en"))
    sky = fr["colours"][3]
    assert (sky["name"], sky["player"], sky["a_piece"], sky["star"]) == ("bleu ciel", "Bleu ciel",
                                                                        "une pièce bleu ciel", "bleu ciel")
    assert [c["name"] for c in fr["colours"]] == ["bleu", "rouge", "jaune", "bleu ciel"]
    assert en["colours"][3]["name"] == "sky blue"


def test_the_books_sentences_agree():
    """The sentences the issue found wrong, read in the built French and English books."""
    from rulebook_checks import flat, rulebooks

    stars = {k: flat(v) for k, v in rulebooks(ROOT / "designs" / "three-stars").items()}
    assert "est entièrement bleue" in stars["fr"] and "une pièce bleue sur chaque position" in stars["fr"]
    assert "Bleu a marqué les étoiles" in stars["fr"] and "bleu a marqué" not in stars["fr"]
    assert "est entièrement bleu " not in stars["fr"] and "une pièce bleu " not in stars["fr"]
    ishi = {k: flat(v) for k, v in rulebooks(ROOT / "designs" / "ishi-hama").items()}
    assert "la réserve d'Orange" in ishi["fr"] and "réserve de Orange" not in ishi["fr"]
    assert "4 tuiles droites" in ishi["fr"] and "tuiles droite " not in ishi["fr"]
    assert "Blue places an orange tile" in ishi["en"] and "a orange" not in ishi["en"]


def test_triloopites_sentences_agree():
    """The worked first game's hands said together, and the player who keeps a tile named by their pronoun."""
    fr, en = _facts("triloopite", "fr"), _facts("triloopite", "en")
    hands = [x["tiles"] for x in fr["first"]["hands"]]
    if len(set(hands)) == 1 and hands[0] > 0:  # the shipped game: one tile each
        assert fr["first"]["hands_text"] == f"Alice, Bob et Carole gardent chacun {w.count(hands[0], 'tile', 'fr')}"
        assert en["first"]["hands_text"] == f"Alice, Bob and Carole keep {w.count(hands[0], 'tile', 'en')} each"
    kept = fr["first"]["kept"][0]
    assert kept["pronoun"] == {"Alice": "elle", "Bob": "il", "Carole": "elle"}[kept["player"]]
    assert en["first"]["kept"][0]["pronoun"] == {"Alice": "she", "Bob": "he", "Carole": "she"}[kept["player"]]
    assert "6 T1 trilobites" in str(en["edition"]) and "trilobites T1" not in str(en["edition"])
    assert "trilobites T1" in str(fr["edition"])
