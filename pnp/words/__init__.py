"""The words pnp itself prints (the print sheets' titles, footers, ruler and part labels, the kit's pages), one
table per language: pnp/words/<lang>.yaml, shipped in the package.

    say("sheets.fronts", "fr", name="Cartes", first=1, last=9)  ->  "Cartes : recto 1-9"
    say("sheets.fronts", "fr", name="Cartes", first=41, last=41)  ->  "Cartes : recto 41" (sheets.fronts_one)
    table("fr")["kit"]["kinds"]  ->  the how-to page's names of the kinds of components

The words are plain text: whoever draws them typesets them in their language (pnp.render.typography), as every
text it prints. Every table has the keys and {placeholders} of en.yaml (tests/test_words.py). A language
without a table is printed with the English words, and said once (a warning naming the folder). This is data:
it knows no game, no sheet and no drawing.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pnp.errors import DesignError, Problem, display_path, warn
from pnp.yamlio import Document, parse_yaml

FOLDER = Path(__file__).resolve().parent
DEFAULT = "en"


def languages() -> list[str]:
    """The languages that have a table."""
    return list(_languages())


@functools.cache
def _languages() -> tuple[str, ...]:  # (the package's files: the same for the whole process; asked for per word)
    return tuple(sorted(p.stem for p in FOLDER.glob("*.yaml")))


@functools.cache
def _document(lang: str) -> Document:
    """`lang`'s table as pnp.yamlio reads it (the line of every key): a YAML error is a DesignError at file:line."""
    path = FOLDER / f"{lang}.yaml"
    doc = parse_yaml(path.read_text(encoding="utf-8"), path)
    if not isinstance(doc.data, dict):
        raise DesignError([Problem(doc.name, 1, f"the table of pnp's own words in '{lang}' is {type(doc.data).__name__}; "
                                   "expected a mapping of sections (sheets, kit, rulebook...), as en.yaml")])
    return doc


def _load(lang: str) -> Mapping[str, Any]:
    return _document(lang).data


def table(lang: str) -> Mapping[str, Any]:
    """The words of `lang` (its table; the English one, said, for a language without a table)."""
    if lang in languages():
        return _load(lang)
    _missing(lang)
    return _load(DEFAULT)


def _missing(lang: str) -> None:  # (the build's warnings are kept once each)
    warn(display_path(FOLDER), None, f"no table of pnp's own words in '{lang}': the sheets and the kit print "
                                     f"them in English; expected {lang}.yaml beside en.yaml")


def word(key: str, lang: str) -> Any:
    """The entry at a dotted `key` ("sheets.duplex.long"): a text, a list or a table of them."""
    value: Any = table(lang)
    loc: tuple[str, ...] = ()
    for part in key.split("."):
        if not isinstance(value, Mapping) or part not in value:
            doc = _document(lang if lang in languages() else DEFAULT)
            raise DesignError([Problem(doc.name, doc.line(loc), f"{'.'.join(loc) or 'the table'} has no "
                                       f"'{part}' (pnp asks for {key}); expected the keys of en.yaml")])
        value = value[part]
        loc += (part,)
    return value


def say(key: str, lang: str, **values: Any) -> str:
    """The text at `key` in `lang` with its {placeholders} filled. A range of one (`first` equal to `last`) reads
    `<key>_one` where the table has it ("Cards: front 41", "Cartes : recto 41"), never "41-41"."""
    if "first" in values and values.get("first") == values.get("last"):
        *section, leaf = key.split(".")
        parent: Any = word(".".join(section), lang) if section else table(lang)
        if isinstance(parent, Mapping) and f"{leaf}_one" in parent:
            key = f"{key}_one"
    return str(word(key, lang)).format(**values)


def placeholders(text: str) -> set[str]:
    """The {names} a text asks for."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}
