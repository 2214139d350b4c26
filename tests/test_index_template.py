"""The contact sheet's template is compiled ahead (pnp/compiled_templates): it must be the template as it is."""

from __future__ import annotations

import json
from pathlib import Path

import jinja2

from pnp import index
from pnp.build import build_designs
from pnp.cache import Cache

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "tests" / "fixtures" / "deck-csv"
AGAIN = 'python -c "import pnp.index as i; i.compile_page_template()"'


def test_the_template_compiled_ahead_is_the_template_as_this_jinja2_compiles_it(tmp_path):
    stamp = json.loads((index.COMPILED / "stamp.json").read_text(encoding="utf-8"))
    if stamp["jinja2"] != jinja2.__version__:  # another release compiles otherwise: the page compiles it then
        assert not index.compiled_current()
        return
    assert index.compiled_current(), f"templates/{index.PAGE} changed since it was compiled ahead: run {AGAIN}"
    index.compile_page_template(tmp_path)
    made = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.iterdir()}
    kept = {p.name: p.read_text(encoding="utf-8") for p in index.COMPILED.iterdir() if p.is_file()}
    assert made == kept, f"pnp/compiled_templates is not what Jinja2 makes of the template: run {AGAIN}"


def test_the_page_is_the_same_whether_its_template_was_compiled_ahead_or_now(tmp_path, monkeypatch):
    build_designs([str(DECK)], out=tmp_path / "ahead", cache=Cache(None), show_progress=False)
    monkeypatch.setattr(index, "compiled_current", lambda: False)
    build_designs([str(DECK)], out=tmp_path / "now", cache=Cache(None), show_progress=False)
    page = (tmp_path / "ahead" / "deck-csv" / "index.html").read_bytes()
    assert b"deck-csv" in page and page == (tmp_path / "now" / "deck-csv" / "index.html").read_bytes()


def test_a_template_edited_since_is_compiled_from_its_source(tmp_path, monkeypatch):
    templates = tmp_path / "templates"
    templates.mkdir()
    text = (ROOT / "templates" / index.PAGE).read_text(encoding="utf-8")
    (templates / index.PAGE).write_text(text.replace("</body>", "<p>edited</p></body>"), encoding="utf-8")
    monkeypatch.setattr(index, "templates_dir", lambda: templates)
    assert not index.compiled_current()
    build_designs([str(DECK)], out=tmp_path / "out", cache=Cache(None), show_progress=False)
    assert b"<p>edited</p>" in (tmp_path / "out" / "deck-csv" / "index.html").read_bytes()
