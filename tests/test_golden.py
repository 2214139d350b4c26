"""Golden snapshots: every rulebook diagram the shipped rules texts draw, and a few faces, as SVG text.

The snapshots live under tests/golden/, one element a line so that a change reads as a
diff. A drawing that changes fails here with the first differing lines; when the change is
meant, `pytest tests/test_golden.py --update-golden` rewrites the snapshots (and removes
those no text draws any more), and `git diff tests/golden` shows what moved.

Diagrams are collected by rendering each design's rules texts with every registered
diagram wrapped, so a diagram a text starts to draw is covered without listing it here.
A diagram drawn alike in both languages is kept once.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from pnp import registry
from pnp.loader import find_designs, load_design, package_root
from pnp.render.faces import design_faces
from pnp.rulebook import languages
from pnp.rulebook.text import render_text

GOLDEN = Path(__file__).resolve().parent / "golden"
DESIGNS = [folder.name for folder in find_designs(package_root() / "designs")]
FACES = {  # design: (component, face key), a few faces of every game's generators and a template
    "three-stars": [("placement-cards", "19"), ("board", "board"), ("pieces", "blue")],
    "three-stars-lozenge": [("board", "board")],
    "three-stars-circles": [("placement-cards", "19"), ("board", "board"), ("pieces", "blue")],
    "tubo": [("stocks", "orange-ne"), ("objective", "objective")],
    "ishi-hama": [("tiles", "blue-tee"), ("board", "board")],
    "triloopite": [("tiles", "crab"), ("aid", "aid")],
}


def lines(svg: str) -> str:
    """SVG text one element a line (the snapshot form)."""
    return svg.replace("><", ">\n<").rstrip("\n") + "\n"


def drawn_diagrams(design_name: str) -> dict[str, str]:
    """{snapshot file name: SVG} of every diagram the design's rules texts draw."""
    registry.discover()
    design = load_design(package_root() / "designs" / design_name)
    components = design_faces(design)
    drawn: dict[tuple, dict[str, str]] = {}
    real = dict(registry.DIAGRAMS)

    def recorder(name, fn):
        def record(design, lang, **params):
            svg = fn(design, lang, **params)
            drawn.setdefault((name, tuple(sorted(params.items()))), {})[lang] = svg
            return svg
        return record

    try:
        registry.DIAGRAMS.update({name: recorder(name, fn) for name, fn in real.items()})
        for lang in languages(design):
            render_text(design, lang, components)
    finally:
        registry.DIAGRAMS.update(real)
    out = {}
    for (name, params), by_lang in drawn.items():
        stem = name + (f"[{','.join(f'{k}={v}' for k, v in params)}]" if params else "")
        if len(set(by_lang.values())) == 1:
            out[f"{stem}.svg"] = next(iter(by_lang.values()))
        else:
            out.update({f"{stem}.{lang}.svg": svg for lang, svg in by_lang.items()})
    return out


def drawn_faces(design_name: str) -> dict[str, str]:
    design = load_design(package_root() / "designs" / design_name)
    faces = {(cf.component_id, f.key): f for cf in design_faces(design) for f in cf.fronts + [cf.back] if f}
    return {f"{cid}-{key}.svg": faces[cid, key].paint() for cid, key in FACES[design_name]}


def check(folder: Path, drawn: dict[str, str], update: bool) -> None:
    if update:
        if not drawn and not folder.is_dir():
            return
        folder.mkdir(parents=True, exist_ok=True)
        for stale in set(p.name for p in folder.glob("*.svg")) - set(drawn):
            (folder / stale).unlink()
        for name, svg in drawn.items():
            if not (folder / name).is_file() or (folder / name).read_text(encoding="utf-8") != lines(svg):
                (folder / name).write_text(lines(svg), encoding="utf-8")
        return
    where = folder.relative_to(GOLDEN.parent)
    problems: list[str] = []
    for name, svg in sorted(drawn.items()):
        path = folder / name
        if not path.is_file():
            problems.append(f"{where / name}: no snapshot yet")
            continue
        want, got = path.read_text(encoding="utf-8"), lines(svg)
        if want != got:
            diff = list(difflib.unified_diff(want.splitlines(), got.splitlines(), "snapshot", "drawn now", n=1,
                                             lineterm=""))
            problems.append(f"{where / name}: the drawing changed\n" + "\n".join(diff[:24]))
    stale = sorted(set(p.name for p in folder.glob("*.svg")) - set(drawn)) if folder.is_dir() else []
    problems += [f"{where / name}: no rules text draws it any more" for name in stale]
    assert not problems, ("\n".join(problems) + "\n(if the change is meant: pytest tests/test_golden.py "
                          "--update-golden, then review git diff tests/golden)")


@pytest.mark.parametrize("design_name", DESIGNS)
def test_every_rulebook_diagram_matches_its_snapshot(design_name, request):
    drawn = drawn_diagrams(design_name)  # a design whose texts draw no diagram has no snapshot folder
    check(GOLDEN / "diagrams" / design_name, drawn, request.config.getoption("--update-golden"))


@pytest.mark.parametrize("design_name", sorted(FACES))
def test_faces_match_their_snapshots(design_name, request):
    check(GOLDEN / "faces" / design_name, drawn_faces(design_name), request.config.getoption("--update-golden"))


def test_no_snapshots_of_designs_that_are_gone():
    """A design renamed or removed leaves no orphan snapshots behind."""
    assert {p.name for p in (GOLDEN / "diagrams").iterdir()} <= set(DESIGNS)
    assert sorted(p.name for p in (GOLDEN / "faces").iterdir()) == sorted(FACES)
