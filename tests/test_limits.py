"""The bounds table, the bounded template sandbox and the warnings collector, as units."""

from __future__ import annotations

import logging
import warnings
from pathlib import Path

import jinja2
import pytest

from pnp import errors, sandbox
from pnp.confine import DesignFiles
from pnp.limits import LIMITS, LimitExceeded, docs_table
from pnp.parallel import pmap

ROOT = Path(__file__).resolve().parent.parent


def test_every_limit_is_documented_with_its_value():
    docs = (ROOT / "docs" / "design-format.md").read_text(encoding="utf-8")
    assert "## Limits and safety" in docs
    assert docs_table() in docs, "docs/design-format.md's table must be pnp.limits.docs_table()"
    assert len(LIMITS) >= 20


def render(tmp_path: Path, text: str, **context) -> str:
    (tmp_path / "t.j2").write_text(text, encoding="utf-8")
    env = sandbox.environment(DesignFiles(tmp_path), [tmp_path], "template_bytes")
    return sandbox.render(env.get_template("t.j2"), context)


@pytest.mark.parametrize("text,fine", [
    ("{{ 'ab' * 3 }}", "ababab"),
    ("{% for i in range(3) %}{{ i }}{% endfor %}", "012"),
    ("{{ ['a', 'b']|join('-') }}|{{ 'x'|center(5) }}|{{ '%03d' % 7 }}|{{ '{:>4}'.format(1) }}", "a-b|  x  |007|   1"),
    ("{% macro m(n) %}{% if n %}{{ n }}{{ m(n - 1) }}{% endif %}{% endmacro %}{{ m(3) }}", "321"),
    ("{{ 2 ** 10 }} {{ ('a' ~ 'b') * 2 }} {{ [1, 2] + [3] }}", "1024 abab [1, 2, 3]"),
])
def test_ordinary_templates_render_as_before(tmp_path, text, fine):
    assert render(tmp_path, text) == fine


@pytest.mark.parametrize("text,name", [
    ("{{ 'x' * 10**9 }}", "render_value"),
    ("{{ [0] * 10**9 }}", "render_value"),
    ("{{ (('x' * 900000) ~ ('y' * 900000))|length }}", "render_value"),
    ("{{ ('x' * 900000) + ('y' * 900000) }}", "render_value"),
    ("{{ 10 ** (10 ** 7) }}", "render_value"),
    ("{{ 'x'.ljust(10**9) }}", "render_value"),
    ("{{ 'x\tx'.expandtabs(10**8) }}", "render_value"),
    ("{{ ('x' * 1000).replace('x', 'y' * 10000) }}", "render_value"),
    ("{{ ('y' * 100000).join(range(10000)|map('string')) }}", "render_value"),
    ("{{ range(10000)|join('y' * 1000) }}", "render_value"),
    ("{{ 'x'|indent(10**9) }}", "render_value"),
    ("{{ ('x' * 100000)|wordwrap(1, wrapstring='y' * 100) }}", "render_value"),
    ("{{ [1]|batch(10**9, 0)|list }}", "render_value"),
    ("{{ [1]|slice(10**9)|list }}", "render_value"),
    ("{{ '%*d'|format(10**9, 1) }}", "render_value"),
    ("{{ range(10**9)|list }}", "range"),
    ("{% for i in range(10000) %}{% for j in range(10000) %}{% endfor %}{% endfor %}", "render_steps"),
    ("{% for i in range(10000) %}{{ 'x' * 1000 }}{% endfor %}", "render_output"),
])
def test_hostile_templates_stop_at_a_bound(tmp_path, text, name):
    with pytest.raises(LimitExceeded) as info:
        render(tmp_path, text)
    assert info.value.name == name
    assert info.value.message.endswith(f"expected at most {LIMITS[name].value} {LIMITS[name].unit}")


def test_the_design_lists_cannot_be_changed_from_a_template(tmp_path):
    with pytest.raises(jinja2.exceptions.SecurityError):
        render(tmp_path, "{{ rows.append(1) }}", rows=[])


def test_library_log_messages_become_warnings_about_the_face_they_read():
    errors.capture_library_output()
    errors.drain_warnings()
    folder = Path("designs/x")
    svg = errors.with_source_comment('<?xml version="1.0"?>\n<svg/>', folder, folder / "templates/front.svg.j2",
                                     (folder / "cards.csv", 3))
    assert svg == ('<?xml version="1.0"?>\n<!-- made by pnp from x/templates/front.svg.j2 (row x/cards.csv:3) -->'
                   '\n<svg/>')

    def parse(svg_text: str) -> None:  # as a library reading this SVG would
        logging.getLogger("svglib.svglib").warning("Can't handle color: %s", "notacolour")

    parse(svg)
    del svg  # no face is being read any more
    warnings.warn("a library's own warning")
    assert errors.format_warnings(errors.drain_warnings()) == (
        "designs/x/templates/front.svg.j2: warning: svglib: Can't handle color: notacolour (row designs/x/cards.csv:3)"
        "\npnp: warning: UserWarning: a library's own warning")


def test_the_same_warning_for_many_rows_is_one_line():
    problems = [errors.Problem(f"t.j2 (row c.csv:{n})", None, "svglib: bad") for n in (5, 2, 10, 3)]
    assert errors.format_warnings(problems) == "t.j2: warning: svglib: bad (4 rows: c.csv:2, c.csv:3, c.csv:5 and 1 more)"


def _warn_in_worker(n: int) -> int:
    errors.warn("designs/x/design.yaml", n, "made in a worker")
    return n


def test_warnings_made_in_worker_processes_come_back():
    errors.drain_warnings()
    assert pmap(_warn_in_worker, list(range(100)), min_items=2) == list(range(100))
    assert sorted(p.line for p in errors.drain_warnings()) == list(range(100))
