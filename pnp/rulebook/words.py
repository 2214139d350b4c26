"""Words the rulebooks of several games need in each language: colour names (with the French
feminine and plural forms), the colour-blind marks' names, the four sides.

`word(TABLE, key, lang)` gives the word, or the key itself when the language or the key
has none (English keys are the words). A game keeps only its own words (shapes, labels)
and may lay its own over these (`{**SYMBOLS["fr"], "none": "rien"}`). Nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Mapping

Table = Mapping[str, Mapping[str, str]]
"""lang -> key -> word."""

COLOURS: Table = {"fr": {
    "orange": "orange", "sky": "ciel", "green": "vert", "yellow": "jaune", "blue": "bleu",
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
