"""Template budgets that hold (issue 29): what a template or rules text builds is bounded before it is built,
however it is built (lipsum, map/sum chains, loops, nested format widths, translate, lists of lists, compile-time
folding), deep nesting is a message at its line, and what is rendered is Unicode text. Units, through
pnp.sandbox; tests/test_untrusted.py runs the same cases through `pnp build` and `pnp rules`.

Each case runs under an address-space limit a little above what the process holds, so that a bound that does
not hold fails the test with a MemoryError instead of filling the machine."""

from __future__ import annotations

import resource
from pathlib import Path

import jinja2
import pytest

from pnp import sandbox
from pnp.confine import DesignFiles
from pnp.limits import LIMITS, Limit, LimitExceeded

MARGIN = 1 << 30  # bytes of address space a case may take beyond what the process holds


def _address_space() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmSize")


@pytest.fixture
def bounded_memory():
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (_address_space() + MARGIN, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def render(tmp_path: Path, text: str, **context) -> str:
    (tmp_path / "t.j2").write_text(text, encoding="utf-8")
    env = sandbox.environment(DesignFiles(tmp_path), [tmp_path], "template_bytes", autoescape=True)
    return sandbox.render(env.get_template("t.j2"), context)


BIG_LIST = "{% set a = ['x' * 1000] * 1000 %}"
HUGE_TEXT = "{% set a = ['x' * 1000000] * 1000 %}"  # 1000 items: its text is a billion characters


@pytest.mark.parametrize("text,name,wrong", [
    ("{{ lipsum(100000)|length }}", "render_value", "the text lipsum would make: 161600000"),
    ("{{ (['x' * 1000000] * 1000000)|map('upper')|join|length }}", "render_built", "the strings and lists"),
    ("{{ ([1] * 1000000)|map('string')|map('center', 1000000)|list|length }}", "render_built", "the strings"),
    ("{{ ([[0] * 999] * 1000)|sum(start=[])|length }}", "render_built", "the strings and lists"),
    ("{% for i in range(10000) %}{% for j in range(99) %}{% set x = 'x' * 1000000 %}{% endfor %}{% endfor %}",
     "render_built", "the strings and lists this rendering builds add up to more than 20000000 characters"),
    ("{% set s = 'x' * 1000000 %}{% for i in range(100) %}{% set t = s[1:] %}{% endfor %}", "render_built",
     "the strings"),
    ("{{ '{0:{1}}'.format('x', 1500000000)|length }}", "render_value",
     "a width in a format string: 1500000000"),
    ("{{ '{a:>{w}}'.format_map({'a': 'x', 'w': 10 ** 9})|length }}", "render_value",
     "a width in a format string: 1000000000"),
    ("{{ ('{:1000000}' * 1000).format(*range(1000))|length }}", "render_value", "the result of format: 1010000"),
    ("{{ ('%1000000s' * 1000) % ((1,) * 1000) }}", "render_value", "the result of %: 1009000"),
    ("{{ ('%s' * 2) % (['x' * 1000] * 1000, 1) }}", "render_value", "the result of %"),
    ("{{ ('x' * 1000000).translate({120: 'y' * 1000000})|length }}", "render_value",
     "the result of translate: 1000000000000"),
    (BIG_LIST + "{{ [a, a] }}", "render_value", "the text of the value printed: 2008004"),
    (HUGE_TEXT + "{{ a ~ a }}", "render_value", "the result of ~: 2000008000"),
    (HUGE_TEXT + "{{ [a, a]|join }}", "render_value", "the result of join: 2000008000"),
    (BIG_LIST + "{{ [a, a]|string }}", "render_value", "the text of the value given to string: 2008004"),
    (BIG_LIST + "{{ [a, a]|tojson }}", "render_value", "the result of tojson"),
    (BIG_LIST + "{{ '{}'.format([a, a]) }}", "render_value", "the result of format"),
    ("{% set a = [0] * 1000 %}{{ ([a] * 1000)|length }}", "render_value", "the result of *: 1001000"),
    ("{% set a = (0,) * 1000000 %}{% set b = (a, a) %}", "render_value",
     "a list the template writes, with the items of the lists inside it: 2000002"),
    ("{{ range(1000)|map(attribute='x', default=[0] * 1000000)|list|length }}", "render_value",
     "a list the template builds, with the items of the lists inside it"),
    ("{{ 5|round(-1000000000) }}", "render_value", "the digits of the power of ten round computes: 1000000000"),
    ("{{ 'x'.encode().ljust(1000000000)|length }}", "render_value", "the width given to ljust: 1000000000"),
    ("{{ (1).to_bytes(1000000000, 'big')|length }}", "render_value", "the length given to to_bytes: 1000000000"),
    # folded at compile time by Jinja2's optimizer before: built outside the budget, written into the code
    ("{{ " + " ~ ".join(["('x'|center(1000000))"] * 100) + " }}", "render_built", "the strings and lists"),
])
def test_costly_expressions_stop_at_a_bound_before_they_are_built(tmp_path, bounded_memory, text, name, wrong):
    with pytest.raises(LimitExceeded) as info:
        render(tmp_path, text)
    assert info.value.name == name
    assert info.value.message.startswith(wrong)
    assert info.value.message.endswith(f"expected at most {LIMITS[name].value} {LIMITS[name].unit}")


def test_items_going_through_filters_are_steps(tmp_path, bounded_memory, monkeypatch):
    monkeypatch.setitem(LIMITS, "render_steps", Limit(20_000, "steps", "test"))
    for text in ("{{ ([1] * 100000)|map('string')|map('string')|list|length }}",
                 "{{ ([1] * 100000)|select|list|length }}", "{{ ([1] * 100000)|sort|length }}",
                 "{{ ([[1]] * 100000)|sum(start=[])|length }}", "{{ ([1] * 100000)|join|length }}",
                 "{{ ([1] * 100000)|unique|list|length }}", "{{ ''.join(([1] * 100000)|map('string')) }}"):
        with pytest.raises(LimitExceeded) as info:
            render(tmp_path, text)
        assert info.value.name == "render_steps", text


def test_values_a_call_or_filter_returns_unchanged_are_not_counted_as_built(tmp_path, bounded_memory):
    """row.get('text') and |first return what is there: 5000 calls on a 100 000-character cell build nothing."""
    row = {"text": "x" * 100_000, "rows": [["y" * 100_000]]}
    text = "{% for i in range(5000) %}{% set t = row.get('text') %}{% set f = row.rows|first %}{% endfor %}{{ i }}ok"
    assert render(tmp_path, text, row=row, i=1) == "1ok"


def test_ordinary_uses_of_the_filters_and_methods_checked_render_as_before(tmp_path):
    assert render(tmp_path, "{{ '{0:>{1}}|{a:^5}|{2:.2f}'.format('x', 3, 2.5, a='b') }}") == "  x|  b  |2.50"
    assert render(tmp_path, "{{ '%-4s|%03d|%.1f|%5.1f' % ('a', 7, 1.25, 2) }}|{{ '%(x)s'|format(x='n') }}") == \
        "a   |007|1.2|  2.0|n"
    assert render(tmp_path, "{{ 'abc'.translate({97: 'AA', 98: None}) }}|{{ [1, [2, 3]] }}|{{ (1,) ~ 'x' }}") == \
        "AAc|[1, [2, 3]]|(1,)x"
    assert render(tmp_path, "{{ [[1], [2]]|sum(start=[]) }}|{{ [1, 2.5]|sum }}|{{ range(4)|map('string')|join(',') }}"
                  ) == "[1, 2]|3.5|0,1,2,3"
    assert render(tmp_path, "{{ {'a': [1, (2,)]}|tojson }}|{{ 12.345|round(1) }}|{{ 'abc'[1:] }}") == \
        '{"a": [1, [2]]}|12.3|bc'
    assert len(render(tmp_path, "{{ lipsum(2, false, 5, 6) }}").split()) in (10, 11, 12)


def test_constants_are_not_folded_when_compiling(tmp_path):
    """'nan'|float and 1e999 were folded into the compiled code as the names nan and inf (a NameError)."""
    assert render(tmp_path, "{% set w = 'nan'|float %}{{ w }} {{ 1e999 }} {{ -1e999 }}") == "nan inf -inf"
    assert render(tmp_path, "{% macro m(width='nan'|float) %}{{ width }}{% endmacro %}{{ m() }}") == "nan"


def test_lone_surrogates_are_refused_where_they_are_written(tmp_path):
    with pytest.raises(sandbox.TextRefused) as info:
        render(tmp_path, "x\n{{ 'a\\ud800' }}")
    assert info.value.message.startswith("the text holds U+D800, half of a UTF-16 surrogate pair without its other "
                                         "half, which is not a character; expected Unicode text")
    with pytest.raises(sandbox.TextRefused):
        render(tmp_path, "{{ f('\\udfff') }}", f=lambda s: "ok")  # a function of pnp's (textbox, diagram...)
    assert render(tmp_path, "{{ '\\ud83d\\ude00' }}") == "\U0001F600"  # a pair, as JSON writes it: its character


@pytest.mark.parametrize("text,line,message", [
    ("x\n{{ " + "(" * 3000 + "1" + ")" * 3000 + " }}", 2, "brackets nested more than 20 levels deep; expected at "
     "most 20 levels of ( [ { in an expression"),
    ("x\n" + "{% for i in [1] %}\n" * 21 + "{% endfor %}" * 21, 22, "{% %} blocks nested more than 20 levels deep "
     "({% for %} here); expected at most 20 levels"),
    ("x\n{{ 'a'" + "|upper" * 3000 + " }}", 2, "an expression nested too deeply to compile (a chain of hundreds of "
     "operators or filters?); expected simpler expressions (parts set apart with {% set %})"),
    ("x\n{{ " + "not " * 3000 + "1 }}", 2, "an expression nested too deeply to read; expected simpler expressions "
     "(fewer operators in a row, or parts set apart with {% set %})"),
])
def test_deep_nesting_is_a_syntax_error_at_its_line(tmp_path, text, line, message):
    with pytest.raises(jinja2.TemplateSyntaxError) as info:
        render(tmp_path, text)
    assert (info.value.lineno, info.value.message) == (line, message)


def test_twenty_levels_of_nesting_compile(tmp_path):
    assert render(tmp_path, "{{ " + "(" * 20 + "1" + ")" * 20 + " }}") == "1"
    assert render(tmp_path, "{% for i in [1] %}" * 20 + "x" + "{% endfor %}" * 20) == "x"
