"""The build's products as one graph (pnp.products): keys made in one place, strictly, and the graph's answer to
"what does this change rebuild?" checked against what a build makes again."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from pnp import products
from pnp.build import build_designs
from pnp.cache import Cache
from pnp.products import PRODUCTS, KeyInputError

ROOT = Path(__file__).resolve().parent.parent
PNP = ROOT / "pnp"


def test_a_key_takes_exactly_the_declared_inputs():
    assert products.CHECKS.key(design={"a": 1}, folder="f") == products.CHECKS.key(folder="f", design={"a": 1})
    assert products.CHECKS.key(design={"a": 1}, folder="f") != products.CHECKS.key(design={"a": 2}, folder="f")
    with pytest.raises(KeyInputError, match="checks.*needs folder"):
        products.CHECKS.key(design={})
    with pytest.raises(KeyInputError, match="was given design, folder, paper"):
        products.CHECKS.key(design={}, folder="f", paper="a4")
    with pytest.raises(KeyInputError, match="declared order"):
        products.CHECKS.key_base(folder="f")  # the first inputs first


def test_a_key_base_gives_the_key_of_all_its_inputs():
    p = products.TEMPLATE_FACE
    first = dict(templates="t", art="a", fonts="", template="front.svg.j2", width=63.0, height=88.0, bleed=3.0,
                 folder="deck", lookups="")
    assert p.key_base(**first).key(context={"name": "Water"}) == p.key(**first, context={"name": "Water"})
    assert p.key_base(**first).key(context={"name": "Fire"}) != p.key(**first, context={"name": "Water"})
    assert products.SVG_FACE.key(svg_file="<svg/>", art="", fonts="") != p.key(**first, context={})


@pytest.mark.parametrize("value", [Path("x"), object(), {1, 2}, {("a", 1): 2}, [b"bytes in a list"], 1j])
def test_an_input_that_is_not_data_is_an_error_not_its_str(value):
    with pytest.raises(KeyInputError, match="input 'design' of product 'checks'"):
        products.CHECKS.key(design={"where": value}, folder="f")


def test_bytes_and_text_are_not_the_same_input():
    assert products.CHECKS.key(design={}, folder="f") != products.CHECKS.key(design={}, folder=b"f")
    assert products.digest("a", "b") != products.digest("ab") != products.digest(b"ab")


def test_every_input_of_the_graph_is_a_source_a_product_or_declared():
    for p in PRODUCTS.values():
        for name in p.inputs:
            assert products.made_from(name), (p.name, name)
    assert set(products.SOURCES).isdisjoint(PRODUCTS)
    with pytest.raises(KeyError, match="not a source or a product: cvs_row"):
        products.rebuilt_by("cvs_row")


def _calls(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield node


def test_keys_are_made_only_by_the_products_module():
    """No module but pnp.products (and pnp.cache, which signs entries) hashes its own cache keys: every
    cache.get/put/cached/memo takes a kind a product declares."""
    kinds = {p.kind for p in PRODUCTS.values() if p.kind}
    used: set[str] = set()
    for path in sorted(PNP.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        assert ("key_of(" not in text and "KeyBase(" not in text) or rel == "pnp/products.py", rel
        for call in _calls(path):
            f = call.func
            if (isinstance(f, ast.Attribute) and f.attr in {"get", "put", "cached", "memo", "put_many", "remember"}
                    and isinstance(f.value, ast.Name) and f.value.id == "cache" and call.args
                    and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
                assert call.args[0].value in kinds, f"{rel}:{call.lineno}: cache kind {call.args[0].value!r}"
                used.add(call.args[0].value)
    assert used == kinds  # and each declared kind is used


def test_the_architecture_page_shows_the_graph_as_declared():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert products.describe() in text, "docs/architecture.md: paste the table of `python -m pnp.products`"


DECK = ROOT / "tests" / "fixtures" / "deck-csv"


@pytest.fixture
def deck(tmp_path):
    folder = tmp_path / "designs" / "deck-csv"
    shutil.copytree(DECK, folder)
    (folder / "rules.en.md").write_text("# Table Deck\n\nDraw a card.\n")
    return folder


def _made(folder: Path, out: Path, cache: Cache, paper: str | None = None) -> set[str]:
    """The kinds of cached products a build made again (its cache misses)."""
    cache.reset_stats()
    build_designs([str(folder)], out=out, cache=cache, exports=True, paper=paper, show_progress=False)
    return {k.removesuffix(".miss") for k, n in cache.stats.items() if k.endswith(".miss") and n}


def _expected(change: str, built: set[str]) -> set[str]:
    return {p.kind for name in products.rebuilt_by(change) if (p := PRODUCTS[name]).kind in built}  # type: ignore[misc]


def test_what_the_graph_says_a_change_rebuilds_is_what_a_build_makes_again(deck, tmp_path):
    out, cache = tmp_path / "out", Cache(tmp_path / "cache")
    everything = _made(deck, out, cache)
    assert {"svg", "compiled", "sheets", "rulebooks", "checks", "index-faces", "raster", "sheet", "kit"} <= everything
    assert _made(deck, out, cache) == set()  # nothing changed: nothing made

    csv = deck / "cards.csv"
    csv.write_text(csv.read_text().replace("Water,5", "Water,6"))
    assert _made(deck, out, cache) == _expected("row", everything)
    assert cache.made("svg") == 1  # that row's face only

    rules = deck / "rules.en.md"
    rules.write_text(rules.read_text() + "\nShuffle first.\n")
    assert _made(deck, out, cache) == _expected("rules_text", everything) == {"rulebooks", "kit"}

    assert _made(deck, out, cache, paper="letter") == _expected("paper", everything)
    assert cache.made("svg") == 0

    template = deck / "templates" / "front.svg.j2"
    template.write_text(template.read_text() + "<!-- edited -->\n")
    assert _made(deck, out, cache, paper="letter") == _expected("templates", everything)

    yaml = deck / "design.yaml"
    yaml.write_text(yaml.read_text().replace("title: Table Deck", "title: Table Deck II"))
    assert _made(deck, out, cache, paper="letter") == _expected("meta", everything) == everything


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".cache" not in p.parts}


@pytest.mark.parametrize("exports", [frozenset(), frozenset({"kit"})], ids=["sheets-and-rulebooks", "kit"])
def test_every_scheduler_makes_the_same_files(deck, tmp_path, exports):
    """The three ways of running the graph (one design after the other; faces streamed to the sheets; one pool
    of tasks for all designs) make the same bytes, from an empty cache and from a full one."""
    from pnp.build import SCHEDULERS, BuildOptions

    designs = [str(deck), str(ROOT / "designs" / "three-stars-lozenge")]
    trees = {}
    for name in SCHEDULERS:
        out, cache = tmp_path / name, Cache(tmp_path / f"cache-{name}")
        options = BuildOptions(scheduler=name, exports=exports, show_progress=False)
        build_designs(designs, out, options, cache=cache)
        trees[name] = _tree(out)
        build_designs(designs, out, options, cache=cache)  # from the cache
        assert _tree(out) == trees[name], name
    assert len(trees["serial"]) > 40
    assert any(n.endswith("-kit-en-a4.pdf") for n in trees["serial"]) == bool(exports)
    assert trees["serial"] == trees["stream"] == trees["pool"]


def test_a_scheduler_is_one_of_those_declared():
    from pnp.build import BuildOptions

    with pytest.raises(ValueError, match="expected auto or one of serial, stream, pool"):
        BuildOptions(scheduler="threads")
