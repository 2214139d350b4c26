"""Words the rulebooks and components of several games need in each language: colour names (with the French
feminine and plural forms), the colour-blind marks' names, the four sides; and the phrases built from them that
agree (a word table with each noun's gender and plural, the adjectives' four forms): `a("piece", "fr",
colour_key="blue")` is "une pièce bleue", `the("star", "fr")` "l'étoile", `possession("reserve", "Orange", "fr")`
"la réserve d'Orange", `count(4, "tile", "fr", adj="straight")` "4 tuiles droites", `each("bonus", "fr")`
"chacun", `a("tile", "en", colour_key="orange")` "an orange tile", `counts_of([("Alice", 1), ("Bob", 1)], "keep", "tile",
"fr")` "Alice et Bob gardent chacun 1 tuile".

`word(TABLE, key, lang)` gives the word, or the key itself when the language or the key
has none (English keys are the words). A game keeps only its own words (shapes, labels)
and may lay its own over these (`{**SYMBOLS["fr"], "none": "rien"}`). Nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Mapping

Table = Mapping[str, Mapping[str, str]]
"""lang -> key -> word."""

COLOURS: Table = {"en": {"sky": "sky blue"}, "fr": {
    "orange": "orange", "sky": "bleu ciel", "green": "vert", "yellow": "jaune", "blue": "bleu",
    "vermilion": "vermillon", "purple": "violet", "grey": "gris", "red": "rouge", "black": "noir",
    "white": "blanc", "pink": "rose", "brown": "marron",
}}
"""A colour's name, as a noun or a masculine adjective."""
COLOURS_FEMININE: Table = {"fr": {
    "orange": "orange", "blue": "bleue", "green": "verte", "red": "rouge", "yellow": "jaune",
    "purple": "violette", "black": "noire", "white": "blanche", "grey": "grise", "sky": "bleu ciel",
}}
"""As in "une tuile bleue"."""
COLOURS_PLURAL: Table = {"fr": {
    "orange": "orange", "blue": "bleues", "green": "vertes", "red": "rouges", "yellow": "jaunes",
    "purple": "violettes", "black": "noires", "white": "blanches", "grey": "grises", "sky": "bleu ciel",
}}
"""Feminine plural, as in "les tuiles bleues"."""
SYMBOLS: Table = {"fr": {
    "circle": "rond", "ring": "anneau", "square": "carré", "diamond": "losange", "triangle": "triangle",
    "cross": "croix", "star": "étoile", "hexagon": "hexagone", "none": "aucun",
}}
"""The marks of pnp.render.symbols."""
SIDES: Table = {
    "en": {"N": "north", "E": "east", "S": "south", "W": "west"},
    "fr": {"N": "nord", "E": "est", "S": "sud", "W": "ouest"},
}
SIDE_LETTERS = {"en": "NESW", "fr": "NESO"}
"""The sides' initials, north first, clockwise."""


def word(table: Table, key: str, lang: str) -> str:
    """The word for `key` in `lang`; the key itself when there is none."""
    return table.get(lang, {}).get(key, key)


# --- agreement: nouns with their gender and number, colour adjectives, counts, articles ----------------------

VOWELS = "aàâäeéèêëiîïoôöuùûüyœæh"
"""Letters before which French elides (le -> l', de -> d'); a leading h is taken as mute."""


class Noun:
    """A noun in one language: its singular and plural, and in French its gender ("m" or "f")."""

    __slots__ = ("singular", "plural", "gender")

    def __init__(self, singular: str, plural: str | None = None, gender: str = "m") -> None:
        self.singular = singular
        self.plural = plural if plural is not None else singular + "s"
        self.gender = gender

    def __repr__(self) -> str:
        return f"Noun({self.singular!r}, {self.plural!r}, {self.gender!r})"


def _fr(singular: str, gender: str, plural: str | None = None) -> Noun:
    return Noun(singular, plural, gender)


def _en(singular: str, plural: str | None = None) -> Noun:
    return Noun(singular, plural, "")


NOUNS: Mapping[str, Mapping[str, Noun]] = {
    "fr": {
        "piece": _fr("pièce", "f"), "tile": _fr("tuile", "f"), "star": _fr("étoile", "f"), "card": _fr("carte", "f"),
        "stock": _fr("stock", "m"), "triangle": _fr("triangle", "m"), "lozenge": _fr("losange", "m"),
        "circle": _fr("cercle", "m"), "token": _fr("jeton", "m"), "point": _fr("point", "m"),
        "loop": _fr("boucle", "f"), "reserve": _fr("réserve", "f"), "zone": _fr("zone", "f"),
        "cell": _fr("case", "f"), "bonus": _fr("bonus", "m", "bonus"), "player": _fr("joueur", "m"),
        "position": _fr("position", "f"), "region": _fr("région", "f"), "round": _fr("tour", "m"),
        "turn": _fr("tour", "m"), "marble": _fr("bille", "f"), "crab": _fr("crabe", "m"),
        "trilobite": _fr("trilobite", "m"), "configuration": _fr("configuration", "f"),
        "opponent": _fr("adversaire", "m"), "side": _fr("côté", "m"), "hand": _fr("main", "f"),
        "score_zone": _fr("zone de score", "f", "zones de score"),
    },
    "en": {
        "piece": _en("piece"), "tile": _en("tile"), "star": _en("star"), "card": _en("card"), "stock": _en("stock"),
        "triangle": _en("triangle"), "lozenge": _en("lozenge"), "circle": _en("circle"), "token": _en("token"),
        "point": _en("point"), "loop": _en("loop"), "reserve": _en("reserve"), "zone": _en("zone"),
        "cell": _en("cell"), "bonus": _en("bonus", "bonuses"), "player": _en("player"),
        "position": _en("position"), "region": _en("region"), "round": _en("round"), "turn": _en("turn"),
        "marble": _en("marble"), "crab": _en("crab"), "trilobite": _en("trilobite"),
        "configuration": _en("configuration"), "opponent": _en("opponent"), "side": _en("side"),
        "hand": _en("hand"), "score_zone": _en("score zone"),
    },
}
"""The nouns the games build phrases with, by key (the English singular), per language."""

COLOUR_FORMS: Mapping[str, Mapping[str, tuple[str, str, str, str]]] = {"fr": {
    # masculine, feminine, masculine plural, feminine plural; a noun used as a colour (orange, marron) and a
    # compound colour (bleu ciel) never agree
    "orange": ("orange",) * 4, "brown": ("marron",) * 4, "sky": ("bleu ciel",) * 4,
    "vermilion": ("vermillon",) * 4,
    "blue": ("bleu", "bleue", "bleus", "bleues"), "green": ("vert", "verte", "verts", "vertes"),
    "red": ("rouge", "rouge", "rouges", "rouges"), "yellow": ("jaune", "jaune", "jaunes", "jaunes"),
    "purple": ("violet", "violette", "violets", "violettes"), "black": ("noir", "noire", "noirs", "noires"),
    "white": ("blanc", "blanche", "blancs", "blanches"), "grey": ("gris", "grise", "gris", "grises"),
    "pink": ("rose", "rose", "roses", "roses"),
}}
"""Every form of each colour adjective (French; English colours never agree)."""

ADJECTIVES: Mapping[str, Mapping[str, tuple[str, str, str, str]]] = {"fr": {
    "straight": ("droit", "droite", "droits", "droites"), "whole": ("entier", "entière", "entiers", "entières"),
    "closed": ("fermé", "fermée", "fermés", "fermées"), "reserved": ("réservé", "réservée", "réservés", "réservées"),
    "connected": ("connecté", "connectée", "connectés", "connectées"), "empty": ("vide", "vide", "vides", "vides"),
    "free": ("libre", "libre", "libres", "libres"), "left": ("restant", "restante", "restants", "restantes"),
}, "en": {
    "straight": ("straight",) * 4, "whole": ("whole",) * 4, "closed": ("closed",) * 4,
    "reserved": ("reserved",) * 4, "connected": ("connected",) * 4, "empty": ("empty",) * 4, "free": ("free",) * 4,
    "left": ("left",) * 4,
}}
"""Other adjectives the games agree: masculine, feminine, masculine plural, feminine plural."""


def number(n: int | float, lang: str) -> int:
    """1 (singular) or 2 (plural) for a count: French takes the singular below 2 (0 point, 1,5 point), English
    only for exactly 1."""
    if lang == "fr":
        return 1 if abs(n) < 2 else 2
    return 1 if n == 1 else 2


def noun(key: str, lang: str) -> Noun:
    """The noun `key` in `lang` (English when the language has none); KeyError for a noun nobody listed."""
    table = NOUNS.get(lang) or NOUNS["en"]
    if key in table:
        return table[key]
    raise KeyError(f"no noun {key!r} in the word table of {lang!r}; expected one of {', '.join(sorted(table))}")


def gender(key: str, lang: str) -> str:
    """"m" or "f" (French), "" (English)."""
    return noun(key, lang).gender


def _agree(forms: tuple[str, str, str, str], g: str, plural: bool) -> str:
    return forms[(1 if g == "f" else 0) + (2 if plural else 0)]


def adjective(key: str, of: str, lang: str, n: int | float = 1) -> str:
    """The adjective `key` agreed with the noun `of` (its gender) and the count `n` (its number)."""
    table = ADJECTIVES.get(lang) or {}
    forms = table.get(key) or ADJECTIVES["en"].get(key) or (key,) * 4
    return _agree(forms, gender(of, lang), number(n, lang) == 2)


def colour(key: str, lang: str, of: str | None = None, n: int | float = 1) -> str:
    """A colour as an adjective agreed with the noun `of` and the count `n` ("bleue", "bleues", "orange"); alone,
    the colour's name (masculine singular: "bleu")."""
    forms = COLOUR_FORMS.get(lang, {}).get(key)
    if forms is None:
        return word(COLOURS, key, lang)
    if of is None:
        return forms[0]
    return _agree(forms, gender(of, lang), number(n, lang) == 2)


def count(n: int, key: str, lang: str, *, colour_key: str | None = None, adj: str | None = None) -> str:
    """A number and its noun, the noun's adjectives agreed: "4 tuiles droites", "1 pièce bleue", "0 point",
    "2 orange tiles"."""
    return f"{n} {nominal(key, lang, n, colour_key=colour_key, adj=adj)}"


def nominal(key: str, lang: str, n: int | float = 1, *, colour_key: str | None = None, adj: str | None = None) -> str:
    """The noun with its adjectives, agreed, without a number or article: "tuiles droites bleues",
    "blue straight tiles"."""
    nn = noun(key, lang)
    head = nn.singular if number(n, lang) == 1 else nn.plural
    words = []
    if adj:
        words.append(adjective(adj, key, lang, n))
    if colour_key:
        words.append(colour(colour_key, lang, key, n))
    if lang == "fr":
        return " ".join([head, *words])
    return " ".join([*reversed(words), head])


def starts_with_vowel(text: str) -> bool:
    return text[:1].lower() in VOWELS


def elide(particle: str, following: str) -> str:
    """French elision: "de" + "Orange" -> "d'Orange", "le" + "étoile" -> "l'étoile", "que" + "il" -> "qu'il"; the
    particle and the word joined with a space otherwise."""
    elides = {"de": "d'", "le": "l'", "la": "l'", "que": "qu'", "ne": "n'", "je": "j'", "se": "s'", "ce": "c'"}
    if particle.lower() in elides and starts_with_vowel(following):
        short = elides[particle.lower()]
        return (short[:1].upper() + short[1:] if particle[:1].isupper() else short) + following
    return f"{particle} {following}"


def indefinite(phrase: str, key: str, lang: str, n: int | float = 1) -> str:
    """The indefinite article before `phrase` (a nominal of the noun `key`): "une pièce bleue", "des tuiles",
    "an orange tile", "a blue tile"."""
    if lang == "fr":
        art = "des" if number(n, lang) == 2 else ("une" if gender(key, lang) == "f" else "un")
        return f"{art} {phrase}"
    if number(n, lang) == 2:
        return phrase
    vowel = phrase[:1].lower() in "aeiou" and not phrase.lower().startswith(("eu", "one", "uni", "use"))
    return f"{'an' if vowel else 'a'} {phrase}"


def definite(phrase: str, key: str, lang: str, n: int | float = 1) -> str:
    """The definite article before `phrase`: "la pièce", "l'étoile", "les tuiles", "le tour", "the tile"."""
    if lang == "fr":
        if number(n, lang) == 2:
            return f"les {phrase}"
        return elide("la" if gender(key, lang) == "f" else "le", phrase)
    return f"the {phrase}"


def a(key: str, lang: str, *, colour_key: str | None = None, adj: str | None = None) -> str:
    """One of the noun, with its article: "une pièce bleue", "un stock orange", "an orange tile"."""
    return indefinite(nominal(key, lang, colour_key=colour_key, adj=adj), key, lang)


def the(key: str, lang: str, n: int | float = 1, *, colour_key: str | None = None, adj: str | None = None) -> str:
    """The noun with its definite article: "l'étoile", "la pièce bleue", "les tuiles orange", "the blue tile"."""
    return definite(nominal(key, lang, n, colour_key=colour_key, adj=adj), key, lang, n)


def each(key: str, lang: str) -> str:
    """"Each" standing for the noun `key`: "chacun" (un bonus), "chacune" (une boucle), "each"."""
    if lang == "fr":
        return "chacune" if gender(key, lang) == "f" else "chacun"
    return "each"


def capitalised(text: str) -> str:
    """The first letter upper case, the rest as it is ("bleu ciel" -> "Bleu ciel"): a name at a sentence's start or
    a player named by a colour."""
    return text[:1].upper() + text[1:]


def player_name(colour_key: str, lang: str) -> str:
    """A player named by their colour: a proper noun, capitalised ("Bleu", "Orange", "Blue")."""
    forms = COLOUR_FORMS.get(lang, {}).get(colour_key)
    return capitalised(forms[0] if forms else word(COLOURS, colour_key, lang) if lang != "en" else colour_key)


def of_player(name: str, lang: str) -> str:
    """Belonging to a player: French "de Bleu", "d'Orange"; English "Blue's"."""
    if lang == "fr":
        return elide("de", name)
    return f"{name}'s" if not name.endswith("s") else f"{name}'"


def possession(key: str, name: str, lang: str) -> str:
    """A player's thing with its article: "la réserve d'Orange", "la zone de score de Bleu", "Orange's reserve"."""
    if lang == "fr":
        return f"{the(key, lang)} {of_player(name, lang)}"
    return f"{of_player(name, lang)} {nominal(key, lang)}"


# --- people: lists of names, verbs agreed with their subject, counts shared by several people ----------------

VERBS: Mapping[str, Mapping[str, tuple[str, str]]] = {
    "fr": {"keep": ("garde", "gardent"), "have": ("a", "ont"), "hold": ("a", "ont"), "draw": ("pioche", "piochent"),
           "place": ("pose", "posent"), "score": ("marque", "marquent")},
    "en": {"keep": ("keeps", "keep"), "have": ("has", "have"), "hold": ("holds", "hold"), "draw": ("draws", "draw"),
           "place": ("places", "place"), "score": ("scores", "score")},
}
"""A verb's present tense, third person: (singular, plural), by key (the English infinitive)."""

PRONOUNS: Mapping[str, Mapping[str, str]] = {"fr": {"m": "il", "f": "elle"}, "en": {"m": "he", "f": "she"}}
"""The subject pronoun standing for a person of a gender ("m", "f")."""


def verb(key: str, lang: str, people: int = 1) -> str:
    """The verb `key` agreed with a subject of `people` persons: "garde", "gardent", "keeps", "keep"."""
    table = VERBS.get(lang) or VERBS["en"]
    if key not in table:
        raise KeyError(f"no verb {key!r} in the word table of {lang!r}; expected one of {', '.join(sorted(table))}")
    return table[key][0 if people == 1 else 1]


def pronoun(gender_: str, lang: str) -> str:
    """"il" / "elle", "he" / "she" for a person of the gender "m" or "f" (the masculine for anything else)."""
    table = PRONOUNS.get(lang) or PRONOUNS["en"]
    return table.get(gender_, table["m"])


def listing(items: list[str], lang: str) -> str:
    """"Alice", "Alice et Bob", "Alice, Bob et Carole"; "Alice, Bob and Carole"."""
    items = [str(i) for i in items]
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + (" et " if lang == "fr" else " and ") + items[-1]


def each_count(names: list[str], verb_key: str, n: int, key: str, lang: str, *, feminine: bool = False) -> str:
    """People who each have the same count of a noun, the verb agreed with them: "Alice garde 1 tuile", "Alice,
    Bob et Carole gardent chacun 1 tuile", "Alice et Carole gardent chacune 2 tuiles" (`feminine`: every one
    of them is a woman), "Bob ne garde aucune tuile"; "Alice, Bob and Carole keep 1 tile each", "Bob keeps no
    tiles"."""
    if not names:
        raise ValueError("each_count needs at least one name")
    who, v = listing(names, lang), verb(verb_key, lang, len(names))
    nn = noun(key, lang)
    if lang == "fr":
        if n == 0:
            none = "aucune" if nn.gender == "f" else "aucun"
            return f"{who} {elide('ne', v)} {none} {nn.singular}"
        if len(names) == 1:
            return f"{who} {v} {count(n, key, lang)}"
        return f"{who} {v} {'chacune' if feminine else 'chacun'} {count(n, key, lang)}"
    if n == 0:
        return f"{who} {v} no {nn.plural}"
    return f"{who} {v} {count(n, key, lang)}" + (" each" if len(names) > 1 else "")


def counts_of(people: list[tuple[str, int]], verb_key: str, key: str, lang: str,
              genders: Mapping[str, str] | None = None) -> str:
    """What each person has, those with the same count said together (in the order they come): [("Alice", 1),
    ("Bob", 1), ("Carole", 1)] -> "Alice, Bob et Carole gardent chacun 1 tuile"; [("Alice", 2), ("Bob", 0),
    ("Carole", 2)] -> "Alice et Carole gardent chacune 2 tuiles et Bob ne garde aucune tuile" (with `genders`,
    name -> "m" / "f": a group of women only takes "chacune"; without, "chacun")."""
    groups: dict[int, list[str]] = {}
    for name, n in people:
        groups.setdefault(n, []).append(name)
    g = genders or {}
    parts = [each_count(names, verb_key, n, key, lang, feminine=bool(names) and all(g.get(x) == "f" for x in names))
             for n, names in groups.items()]
    return listing(parts, lang)
