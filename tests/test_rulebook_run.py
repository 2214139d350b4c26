"""One rulebook run (pnp.rulebook.run): what a game computes alike for every language is computed once for all the
languages of a design, and nothing outlives the run."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.loader import load_design
from pnp.rulebook.run import one_run, plain_key, shared_by_languages

DESIGNS = Path(__file__).resolve().parent.parent / "designs"


def test_a_shared_function_runs_once_per_design_and_arguments_inside_a_run():
    calls: list[tuple] = []

    @shared_by_languages
    def play(design, script, seed=0):
        calls.append((design, tuple(script), seed))
        return [len(calls)]

    a, b = object(), object()
    with one_run():
        first = play(a, [("lay", "E-W")])
        assert play(a, [("lay", "E-W")]) is first  # the same result, shared
        assert play(a, [("lay", "N-S")]) is not first and play(b, [("lay", "E-W")]) is not first
        assert play(a, [("lay", "E-W")], seed=1) is not first
        with one_run():  # a nested run is the outer one
            assert play(a, [("lay", "E-W")]) is first
        assert len(calls) == 4
    play(a, [("lay", "E-W")])  # outside a run: called every time, nothing kept from the run
    play(a, [("lay", "E-W")])
    assert len(calls) == 6


def test_what_a_shared_function_raises_is_raised_again():
    calls = []

    @shared_by_languages
    def broken(design):
        calls.append(design)
        raise ValueError("cannot play")

    with one_run():
        for _ in range(2):
            with pytest.raises(ValueError, match="cannot play"):
                broken("d")
    assert len(calls) == 2


def test_arguments_that_are_not_plain_data_are_not_shared():
    calls = []

    @shared_by_languages
    def f(design, thing):
        calls.append(thing)
        return thing

    with one_run():
        f("d", {1, 2})  # a set is not plain data here: called each time
        f("d", {1, 2})
    assert len(calls) == 2
    assert plain_key([1, "a", {"k": (2.0, None)}]) == plain_key([1, "a", {"k": (2.0, None)}])
    assert plain_key([1]) != plain_key((1,)) and plain_key(1) != plain_key(1.0) and plain_key(True) != plain_key(1)


def test_the_rulebooks_of_a_design_play_each_scripted_position_once(monkeypatch):
    """TUBO's rules texts (per language) and diagrams play the same scripted positions (scripts.safe_play): each is
    played once for both languages."""
    import pnp.games.tubo.scripts as scripts
    from pnp.render.faces import language_faces
    from pnp.rulebook import render_rulebooks

    played: list[str] = []
    real = scripts.resolve_close  # what each safe_play does first

    def counting(design, script):
        played.append(repr(script))
        return real(design, script)

    monkeypatch.setattr(scripts, "resolve_close", counting)
    design = load_design(DESIGNS / "tubo")
    books = render_rulebooks(design, language_faces(design))
    assert sorted(books) == ["tubo-rules-en-a4.pdf", "tubo-rules-fr-a4.pdf"]
    assert len(played) >= 5 and len(played) == len(set(played))
