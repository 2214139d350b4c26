"""Wordless generators (`@generator(..., wordless=True)`): their faces print no words, so each is painted once and
shared by every edition of a design (one file, its usual name, a cache key without the language), while their
labels (index.html, the manifest) stay in each edition's language. Every wordless face of the shipped designs is
painted here in each language: a text node with a letter in it, or bytes that differ between languages, fails."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from pnp import registry
from pnp.loader import find_designs, load_design
from pnp.render.faces import language_faces, languages_of

SVG = "{http://www.w3.org/2000/svg}"


def _generators(design) -> dict[tuple[str, str], str]:
    """(component, side) -> the generator that paints it."""
    out = {}
    for cid, comp in design.components.items():
        for side, src in (("front", comp), ("back", comp.back)):
            if src is not None and src.generate:
                out[(cid, side)] = src.generate
    return out


def _faces_by_generator(design) -> dict[str, dict[tuple[str, str], dict[str, object]]]:
    """generator -> (component, face key) -> language -> that edition's FaceSpec."""
    gens = _generators(design)
    out: dict[str, dict[tuple[str, str], dict[str, object]]] = {}
    for lang, comps in language_faces(design).items():
        for cf in comps:
            sides = [("front", f) for f in cf.fronts] + ([("back", cf.back)] if cf.back is not None else [])
            for side, face in sides:
                gen = gens.get((cf.parent or cf.component_id, side)) or gens.get((cf.component_id, side))
                if gen:
                    out.setdefault(gen, {}).setdefault((cf.component_id, face.key), {})[lang] = face
    return out


def wordless_problems(painted: dict[str, str]) -> list[str]:
    """What makes a face, painted in each language (lang -> SVG text), not wordless: a text node holding a letter
    (a word, which one face shared by every edition would print in one language only), or SVGs that differ."""
    problems = []
    for lang, svg in painted.items():
        root = etree.fromstring(svg.encode())
        for node in root.iter(f"{SVG}text", "text"):
            said = "".join(node.itertext())
            if any(ch.isalpha() for ch in said):
                problems.append(f"{lang}: prints the word(s) {said!r}")
    if len(set(painted.values())) > 1:
        problems.append(f"paints otherwise in {', '.join(sorted(painted))}")
    return problems


def _shipped() -> list:
    registry.discover()
    return [d for d in (load_design(f) for f in find_designs()) if len(languages_of(d)) > 1 and _generators(d)]


DESIGNS = _shipped()


@pytest.mark.parametrize("design", DESIGNS, ids=[d.folder.name for d in DESIGNS])
def test_a_wordless_face_prints_no_word_and_is_one_face_for_every_edition(design):
    langs = languages_of(design)
    worded_seen = 0
    for gen, faces in _faces_by_generator(design).items():
        wordless = registry.get_generator(gen).wordless
        for (cid, key), editions in faces.items():
            assert set(editions) == set(langs), (gen, cid, key)
            if not wordless:
                worded_seen += 1
                continue
            painted = {lang: face.paint() for lang, face in editions.items()}  # type: ignore[attr-defined]
            assert wordless_problems(painted) == [], f"{design.folder.name}: {gen} ({cid}-{key}) is declared wordless"
            # one face: its usual name (no language), one cache key, which is not the language's
            assert {face.lang for face in editions.values()} == {""}, (gen, cid, key)  # type: ignore[attr-defined]
            assert len({face.cache_key for face in editions.values()}) == 1, (gen, cid, key)  # type: ignore[attr-defined]
            # its labels are each edition's own (the words are in the index and the manifest, not on the face)
            labels = {lang: face.label for lang, face in editions.items()}  # type: ignore[attr-defined]
            if all(labels.values()):
                assert len(set(labels.values())) == len(langs), (gen, cid, key, labels)
    assert worded_seen, f"{design.folder.name}: no face with words"


def test_the_shipped_games_declare_their_wordless_generators():
    wordless = {gen for d in DESIGNS for gen in _generators(d).values() if registry.get_generator(gen).wordless}
    assert wordless == {"ishi_hama.tiles", "three_stars.placements", "three_stars.pieces", "tubo.stocks",
                        "tubo.objective"}


@pytest.mark.parametrize("design", DESIGNS, ids=[d.folder.name for d in DESIGNS])
def test_a_face_with_words_is_keyed_on_its_language(design):
    for gen, faces in _faces_by_generator(design).items():
        if registry.get_generator(gen).wordless:
            continue
        for (cid, key), editions in faces.items():
            keys = {face.cache_key for face in editions.values()}  # type: ignore[attr-defined]
            assert len(keys) == len(editions), f"{design.folder.name}: {gen} ({cid}-{key}) shares a key across languages"
            assert {face.lang for face in editions.values()} == set(editions), (gen, cid, key)  # type: ignore[attr-defined]


def test_every_shipped_generator_that_prints_no_word_is_declared_wordless():
    """Else its faces are drawn once per language for nothing (issue 32: the editions' +33 % CPU)."""
    undeclared = set()
    for design in DESIGNS:
        for gen, faces in _faces_by_generator(design).items():
            if registry.get_generator(gen).wordless:
                continue
            for editions in faces.values():
                painted = {lang: face.paint().replace(f' xml:lang="{lang}"', "")  # type: ignore[attr-defined]
                           for lang, face in editions.items()}
                if wordless_problems(painted):
                    break
            else:
                undeclared.add(gen)
    assert undeclared == set()


def test_the_check_fails_on_a_word_and_on_a_face_that_differs():
    face = '<svg xmlns="http://www.w3.org/2000/svg"><text x="1" y="2">{}</text></svg>'
    assert wordless_problems({"en": face.format("12/41"), "fr": face.format("12/41")}) == []
    assert wordless_problems({"en": face.format("START"), "fr": face.format("START")}) == [
        "en: prints the word(s) 'START'", "fr: prints the word(s) 'START'"]
    assert wordless_problems({"en": face.format("1"), "fr": face.format("2")}) == ["paints otherwise in en, fr"]
    nested = '<svg xmlns="http://www.w3.org/2000/svg"><text><tspan>3</tspan><tspan>é</tspan></text></svg>'
    assert wordless_problems({"en": nested}) == ["en: prints the word(s) '3é'"]


def test_a_toy_wordless_generator_that_draws_a_word_is_caught(monkeypatch):
    """The shipped-designs check above reads what a declared-wordless generator paints, not what it says."""
    from pnp.registry import GeneratorContext, generator

    @generator("toy.liar", wordless=True)
    def liar(ctx: GeneratorContext):
        return [ctx.face("one", 10, 10, lambda c: c.text(1, 5, "Départ" if ctx.lang == "fr" else "Start", size=3),
                         shape="rect")]

    painted = {}
    for lang in ("en", "fr"):
        ctx = GeneratorContext(design=None, component_id="x", component=None, params={}, bleed=0, lang=lang)  # type: ignore[arg-type]
        painted[lang] = liar(ctx)[0].paint()
    problems = wordless_problems(painted)
    assert "en: prints the word(s) 'Start'" in problems and "fr: prints the word(s) 'Départ'" in problems
    assert "paints otherwise in en, fr" in problems


def test_find_designs_sees_the_shipped_designs():
    assert {d.folder.name for d in DESIGNS} >= {"tubo", "ishi-hama", "three-stars", "triloopite"}
    assert all(isinstance(d.folder, Path) for d in DESIGNS)
