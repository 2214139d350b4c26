"""A game's glossary: its words in each language, read by its rulebooks, its components and its diagrams.

A game keeps one `glossary.yaml` beside its code (pnp/games/<game>/glossary.yaml):

    terms:        # the seed's own words, as its author wrote them (fr), and the English beside
      close_piece: {fr: Pièce Close, en: Close piece}
    words:        # the edition's own words, where the seed has none (read like terms)
      straight: {fr: droite, en: straight, fr_plural: droites}    # a plural where it differs
    drift:        # spellings the books must never print (a test reads each built book for them)
      fr: [pièce Close]
    labels:       # the words the generators print on the components ({name} and such filled by the game)
      start: {fr: DÉPART, en: START}
    edition:      # "About this edition": what the rulebook settles where the seed is silent or ambiguous,
      choices:    # and what it adds; never told as the author's words
        - {fr: ..., en: ...}
      additions:
        - {fr: ..., en: ...}

`load(path)` reads it once per process; `Glossary.facts(lang)` is what a rules text reads (`facts.term.close_piece`,
`facts.label.start`, `facts.edition.choices`). A word missing in a language is a warning naming the file and line,
and the other language's word is used. Nothing here knows a game.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.errors import DesignError, Problem, display_path, warn
from pnp.rulebook.words import number
from pnp.yamlio import Document, parse_yaml

LANGUAGES = ("fr", "en")
SECTIONS = ("terms", "words", "drift", "labels", "edition")


@dataclass(frozen=True)
class Glossary:
    source: Path
    terms: dict[str, dict[str, str]] = field(default_factory=dict)
    words: dict[str, dict[str, str]] = field(default_factory=dict)  # the edition's own words (not the seed's)
    labels: dict[str, dict[str, str]] = field(default_factory=dict)
    drift: dict[str, list[str]] = field(default_factory=dict)
    choices: list[dict[str, str]] = field(default_factory=list)
    additions: list[dict[str, str]] = field(default_factory=list)
    lines: dict[tuple, int] = field(default_factory=dict)

    def _pick(self, section: str, key: str, entry: dict[str, str], lang: str) -> str:
        text = entry.get(lang)
        if text:
            return text
        other = next((entry[k] for k in LANGUAGES if entry.get(k)), "")
        warn(self.source, self.lines.get((section, key)), f"{section}.{key} has no {lang!r} text; the {other!r} of "
             f"another language is printed instead; expected {lang}: beside the others")
        return other

    def term(self, key: str, lang: str, n: int | float = 1) -> str:
        """The term `key` in `lang`, in the plural for a count `n` that takes one when the glossary gives it
        (`fr_plural: droites`); KeyError naming the glossary's terms when there is none."""
        entry = self.terms.get(key) or self.words.get(key)
        if entry is None:
            raise KeyError(f"{display_path(self.source)}: no term {key!r}; expected one of "
                           f"{', '.join([*self.terms, *self.words])}")
        if number(n, lang) == 2 and entry.get(f"{lang}_plural"):
            return entry[f"{lang}_plural"]
        return self._pick("terms" if key in self.terms else "words", key, entry, lang)

    def label(self, key: str, lang: str, **values: Any) -> str:
        """The component label `key` in `lang`, its `{name}` fields filled from `values`."""
        if key not in self.labels:
            raise KeyError(f"{display_path(self.source)}: no label {key!r}; expected one of {', '.join(self.labels)}")
        text = self._pick("labels", key, self.labels[key], lang)
        return text.format(**values) if values else text

    def edition(self, lang: str, values: dict[str, Any] | None = None) -> dict[str, list[str]]:
        """The "About this edition" lines in `lang` (choices, additions), their `{name}` fields filled from `values`
        (the game's own numbers, so that a line follows the design: "{pieces} pieces of a colour")."""
        out: dict[str, list[str]] = {}
        for name, items in (("choices", self.choices), ("additions", self.additions)):
            lines = []
            for i, e in enumerate(items):
                text = self._pick("edition", f"{name}[{i}]", e, lang)
                try:
                    lines.append(text.format_map(values or {}) if "{" in text else text)
                except (KeyError, IndexError, ValueError) as exc:
                    raise KeyError(f"{display_path(self.source)}:{self.lines.get(('edition', f'{name}[{i}]'))}: "
                                   f"edition.{name}[{i}] names {exc} that the game does not give; expected one of "
                                   f"{', '.join(sorted(values or {})) or 'no field'}") from None
            out[name] = lines
        return out

    def facts(self, lang: str, values: dict[str, Any] | None = None) -> dict[str, Any]:
        """What a rules text reads: term and label (key -> word in `lang`), edition (choices, additions: texts with
        `values` filled in), drift (the spellings the books must not print)."""
        return {
            "term": {k: self.term(k, lang) for k in (*self.terms, *self.words)},
            "label": {k: self._pick("labels", k, v, lang) for k, v in self.labels.items()},
            "edition": self.edition(lang, values),
            "drift": list(self.drift.get(lang, [])),
        }


def _texts(doc: Document, where: tuple, value: Any, problems: list[Problem]) -> dict[str, str]:
    if not isinstance(value, dict) or not value or not all(isinstance(k, str) and isinstance(v, str)
                                                            for k, v in value.items()):
        problems.append(Problem(doc.name, doc.line(where), f"{'.'.join(map(str, where))} is {value!r}; expected "
                                "one text per language, such as {fr: Pièce Close, en: Close piece}"))
        return {}
    return dict(value)


@functools.cache
def load(path: Path) -> Glossary:
    """The glossary file at `path` (a game's own file), checked: DesignError (file:line) on a malformed one."""
    doc = parse_yaml(path.read_text(encoding="utf-8"), path)
    data = doc.data or {}
    problems: list[Problem] = []
    if not isinstance(data, dict):
        raise DesignError([Problem(doc.name, 1, f"a glossary is a mapping; expected the sections {SECTIONS}")])
    for key in data:
        if key not in SECTIONS:
            problems.append(Problem(doc.name, doc.line((key,)), f"unknown section {key!r}; expected one of "
                                    f"{', '.join(SECTIONS)}"))
    terms = {str(k): _texts(doc, ("terms", k), v, problems) for k, v in (data.get("terms") or {}).items()}
    own = {str(k): _texts(doc, ("words", k), v, problems) for k, v in (data.get("words") or {}).items()}
    labels = {str(k): _texts(doc, ("labels", k), v, problems) for k, v in (data.get("labels") or {}).items()}
    drift = {str(k): [str(x) for x in v] for k, v in (data.get("drift") or {}).items() if isinstance(v, list)}
    edition = data.get("edition") or {}
    choices = [_texts(doc, ("edition", "choices", i), v, problems) for i, v in enumerate(edition.get("choices") or [])]
    additions = [_texts(doc, ("edition", "additions", i), v, problems)
                 for i, v in enumerate(edition.get("additions") or [])]
    if problems:
        raise DesignError(problems)
    lines: dict[tuple, int] = {}
    for section in ("terms", "words", "labels"):
        for k in data.get(section) or {}:
            line = doc.line((section, k))
            if line is not None:
                lines[(section, str(k))] = line
    for name, items in (("choices", choices), ("additions", additions)):
        for i in range(len(items)):
            line = doc.line(("edition", name, i))
            if line is not None:
                lines[("edition", f"{name}[{i}]")] = line
    return Glossary(path, terms, own, labels, drift, choices, additions, lines)


def of_package(module_file: str) -> Glossary:
    """The glossary beside a game's module (`of_package(__file__)`)."""
    return load(Path(module_file).resolve().parent / "glossary.yaml")
