"""Fuzzing: hostile and careless mutations of the shipped designs and of the data-table fixture.

Each example copies a design, applies a few mutations — values, keys, units, counts, file
references (absolute, `..`, links out, a FIFO, /dev/zero), YAML structure (aliases, nesting,
control characters, truncation), CSV cells and shape, template and rules-text snippets —
and runs pnp on it. Every run must end with exit 0 or 2, print no traceback and no
"internal error", touch no file outside its output folder, never copy the secret file
beside the design into its output, and stay within a time and memory bound.

A second generator (issue 29) writes active SVG content — scripts, event handlers, animation setting links,
HTML, `<?xml-stylesheet?>`, CSS imports and fetches, in the forms that hide them (character references, CSS
escapes, mixed case, another namespace prefix) — into a deck's template, a ready `svg:` face, an icon and an SVG
art file: none of it may reach the SVG files pnp writes (svg/, svg/art/) or the contact sheet's faces.

The default suite runs a small fixed-seed set in-process (`pnp list` on the shipped
designs, `pnp build --no-exports` on the data-table deck); `pytest -m slow` runs many more
examples, each `pnp build` in a subprocess under an address-space limit and a timeout.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "tests" / "fixtures" / "deck-csv", *(p for p in sorted((ROOT / "designs").iterdir())
                                                         if (p / "design.yaml").is_file())]
SECRET = "PNP-FUZZ-SECRET-7f3a"  # in a file beside the design: must never reach the output

VALUES = [0, -1, 1, 3, 10_001, 10 ** 9, 2 ** 63, 1.5, -0.0, float("inf"), float("nan"), True, None, "", " ",
          "x" * 3000, "abc", "3mm", "-5mm", "0mm", "0.01mm", "2001mm", "99999mm", "1e9mm", "1/0in", "63", "poker",
          "notacolour", "#12345", "#fff", "2-4", "4-2", "1-1000000", "a" * 70, "é\u202e", "{{ 7 * 7 }}",
          "../secret.csv", "$SECRET", "/dev/zero", "link.csv", "fifo.csv", "zero.csv", "dir.csv", "cards.csv",
          "front.svg.j2", "../x.svg", "art.svg", "link.svg", [], {}, [1, 2, 3], ["a"] * 50, {"a": 1},
          {"width": "1mm", "height": "99999mm"}, [{"label": "A", "count": 10 ** 9}],
          # plausible values, so that mutated designs also get past loading: faces, sheets, rulebooks
          2, 50, "0.1mm", "1mm", "20mm", "500mm", "1999mm", "letter", "a3", "fold", "short", "none", "cut",
          "landscape", "tarot", "square", "mini-usa", "hexagon", "circle", "triangle", "board", "card", "token",
          "fr", ["fr"], ["en", "fr"], {"en": "Name", "fr": "Nom"}, {"width": "300mm", "height": "20mm"},
          [3, 0], [0, 0], [-5, -1], [25, 25]]

YAML_SNIPPETS = [
    "rules_x: &b0 [a, a, a, a, a, a, a, a, a]\n" + "".join(
        f"rules_{i}: &b{i} [" + ", ".join([f"*b{i - 1}"] * 9) + "]\n" for i in range(1, 9)),
    "loop: &r {x: *r}\n", "deep: " + "[" * 500 + "]" * 500 + "\n", "bad: \x01\n", "bad: \x7f\x9b\n",
    "\ttab: 1\n", "key: [\n", "- item\n", "dup: 1\ndup: 2\n", "evil: !!python/object/apply:os.system ['true']\n",
    "alias: *nowhere\n", "big: " + "9" * 5000 + "\n", "date: 2024-13-45\n", "? [complex, key]\n: v\n",
    "merge: {<<: [*nowhere]}\n", "\ufeffbom: 1\n", "str: '" + "q" * 5000 + "'\n", "---\nsecond: doc\n",
]

CSV_SNIPPETS = ["", "title,power,colour,count\n", 'title,power,colour,count\n"open quote,1,#fff,1\n',
                "title,power,colour,count\nA,1,#fff,1\x00\n", "title,title,colour\nA,B,#fff\n",
                ",power,colour\nA,1,#fff\n", "title,power,colour,count\nA,1,#fff,1,extra,cells\n",
                "title,power,colour,count\n" + "A,1,#fff,1\n" * 10_001,
                "title,power,colour,count\n" + "x" * 150_000 + ",1,#fff,1\n",
                "title,power,colour,count\nA,1,#fff,1000000000\n", "title,power,colour,count\nA,1,#fff,-3\n",
                "title,power,colour,count\nA,1,#fff,2.5\n", "\ufefftitle,power,colour\nA,1,#fff\n"]

JINJA_SNIPPETS = [
    "{{ 'x' * 10**9 }}", "{% for i in range(10**9) %}{% endfor %}", "{{ nope }}", "{% if %}", "{{ 1/0 }}",
    "{% for i in range(3000) %}{% for j in range(3000) %}{% endfor %}{% endfor %}", "{{ ''.__class__ }}",
    "{% include '../secret.csv' %}", "{% include 'link.csv' %}", "{% include 'fifo.csv' %}", "{% extends 'x' %}",
    "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}", "{{ 'x'|center(10**9) }}", "{{ '%999999999d' % 1 }}",
    "<image href='../secret.csv'/>", "<rect fill='notacolour' width='1' height='1'/>", "</svg>", "<", "&nope;",
    "{{ diagram('nope') }}", "{{ diagram('three_stars.board', width='abc') }}", "![](pnp:99)", "![](../x.svg)",
    "![](link.svg)", "![](art.svg)", "{{ face_grid('nope') }}", "{{ component_list() }}", "{{ rules.nope }}",
    "| a | b |\n|---|---|\n| " + "w" * 30000 + " | y |\n", "{{ range(10)|join('-') }}", "\x00", "{{",
    # Markdown that is hard to set on a page
    "\n" + "> " * 60 + "deep\n", "\n" + "".join("  " * i + "- item\n" for i in range(40)), "\n# " + "W" * 5000 + "\n",
    "\n| ![](art.svg) | ![](pnp:0) |\n|---|---|\n| x | y |\n", "`" * 1001, "<b>&amp;</b> & <", "*" * 999,
    "[a](javascript:alert(1))", "![t](art.svg \"title\")", "![](%2e%2e/x.svg)", "![](art.svg)" * 40,
    "\n```\n" + "code " * 20000 + "\n```\n", "\n1. " + "\n1. ".join(["x"] * 3000) + "\n",
]


def _paths(data, seen=None):
    """Every (parent, key) of the YAML tree, in a fixed order (a value reached twice, as aliases make, once)."""
    seen = set() if seen is None else seen
    out = []
    if id(data) in seen or len(seen) > 5000:
        return out
    seen.add(id(data))
    if isinstance(data, dict):
        for k in list(data):
            out.append((data, k))
            out += _paths(data[k], seen)
    elif isinstance(data, list):
        for i in range(len(data)):
            out.append((data, i))
            out += _paths(data[i], seen)
    return out


op = st.one_of(
    st.tuples(st.just("set"), st.integers(0, 10 ** 6), st.sampled_from(range(len(VALUES)))),
    st.tuples(st.just("delete"), st.integers(0, 10 ** 6)),
    st.tuples(st.just("add"), st.integers(0, 10 ** 6), st.sampled_from(["count", "size", "data", "svg", "template",
                                                                        "bleed", "zzz", "generate", "params"]),
              st.sampled_from(range(len(VALUES)))),
    st.tuples(st.just("yaml"), st.integers(0, 10 ** 6), st.sampled_from(range(len(YAML_SNIPPETS)))),
    st.tuples(st.just("truncate"), st.integers(0, 10 ** 6)),
    st.tuples(st.just("csv"), st.sampled_from(range(len(CSV_SNIPPETS)))),
    st.tuples(st.just("cell"), st.integers(0, 10 ** 6), st.integers(0, 10), st.sampled_from(range(len(VALUES)))),
    st.tuples(st.just("jinja"), st.integers(0, 10 ** 6), st.integers(0, 10 ** 6),
              st.sampled_from(range(len(JINJA_SNIPPETS)))),
)
case = st.tuples(st.sampled_from(range(len(SOURCES))), st.lists(op, min_size=1, max_size=3))


def make_case(root: Path, source: int, ops: list[tuple]) -> Path:
    """The mutated design at root/d, with bait around it: a secret file, links out, a FIFO."""
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    d = root / "d"
    shutil.copytree(SOURCES[source], d)
    (root / "secret.csv").write_text(f"title,power,colour,count\n{SECRET},1,#ffffff,1\n")
    (root / "x.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="9mm" height="9mm"><text>{SECRET}'
                                '</text></svg>')
    (d / "link.csv").symlink_to(root / "secret.csv")
    (d / "link.svg").symlink_to(root / "x.svg")
    (d / "zero.csv").symlink_to("/dev/zero")
    os.mkfifo(d / "fifo.csv")
    (d / "dir.csv").mkdir()
    (d / "art.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="9mm" height="9mm"/>')
    design = d / "design.yaml"
    for o in ops:
        kind = o[0]
        if kind in ("set", "delete", "add"):
            try:
                data = yaml.safe_load(design.read_text(encoding="utf-8"))
            except Exception:  # an earlier text mutation broke it: leave it broken
                continue
            paths = _paths(data)
            if not paths:
                continue
            parent, key = paths[o[1] % len(paths)]
            if kind == "set":
                parent[key] = _value(VALUES[o[2]], root)
            elif kind == "delete":
                del parent[key]
            elif isinstance(parent[key], dict):
                parent[key][o[2]] = _value(VALUES[o[3]], root)
            try:
                text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
            except (yaml.YAMLError, RecursionError, ValueError):
                continue
            design.write_text(text, encoding="utf-8")
        elif kind == "yaml":
            lines = design.read_text(encoding="utf-8").splitlines(keepends=True)
            at = o[1] % (len(lines) + 1)
            design.write_text("".join(lines[:at]) + YAML_SNIPPETS[o[2]] + "".join(lines[at:]), encoding="utf-8")
        elif kind == "truncate":
            text = design.read_text(encoding="utf-8")
            design.write_text(text[: o[1] % (len(text) + 1)], encoding="utf-8")
        elif kind == "csv":
            (d / "cards.csv").write_text(CSV_SNIPPETS[o[1]], encoding="utf-8")
        elif kind == "cell" and (d / "cards.csv").is_file():
            rows = [r.split(",") for r in (d / "cards.csv").read_text(encoding="utf-8").splitlines()]
            if rows:
                row = rows[o[1] % len(rows)]
                row[o[2] % len(row)] = str(_value(VALUES[o[3]], root)).replace(",", ";").replace("\n", " ")
                (d / "cards.csv").write_text("\n".join(",".join(r) for r in rows) + "\n", encoding="utf-8")
        elif kind == "jinja":
            texts = sorted(p for p in d.rglob("*") if p.suffix in (".j2", ".md") and p.is_file()
                           and not p.is_symlink())
            if texts:
                path = texts[o[1] % len(texts)]
                text = path.read_text(encoding="utf-8")
                at = o[2] % (len(text) + 1)
                path.write_text(text[:at] + JINJA_SNIPPETS[o[3]] + text[at:], encoding="utf-8")
    return d


def _value(value, root: Path):
    return str(root / "secret.csv") if value == "$SECRET" else value


def snapshot(root: Path) -> dict[str, tuple]:
    """Every file and folder under root but the output, with what would show a change."""
    out = {}
    for folder, dirs, names in os.walk(root, followlinks=False):
        dirs[:] = [x for x in dirs if Path(folder, x) != root / "out"]
        for name in dirs + names:
            p = Path(folder) / name
            st_ = os.lstat(p)
            out[str(p.relative_to(root))] = (st_.st_mode, st_.st_size, st_.st_mtime_ns)
    return out


def check_output(root: Path, before: dict) -> None:
    assert snapshot(root) == before, "a file outside the output folder changed"
    out = root / "out"
    if out.exists():
        for p in out.rglob("*"):
            if p.is_file() and p.suffix in (".svg", ".json", ".html", ".csv"):
                assert SECRET.encode() not in p.read_bytes(), f"the secret beside the design reached {p}"
            if p.is_file() and ".cache" not in p.parts and p.suffix in (".svg", ".html"):
                assert active_in(p) == [], f"active content reached {p}"


def active_in(path: Path) -> list[str]:
    """What a browser would run or fetch in an SVG file pnp wrote, or in the faces of a contact sheet."""
    from test_active_content import active

    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".svg":
        return active(text)
    return [f for face in re.findall(r"<template>(<svg.*?</svg>)</template>", text, re.S) for f in active(face)]


def command(source: int, slow: bool) -> list[str]:
    if SOURCES[source].name == "deck-csv" or slow:
        return ["build", "d", "--out", "out", "--no-exports", "--no-cache"]
    return ["list", "d"]


# --- the default suite: fixed seed, in-process ----------------------------------------------------

IN_PROCESS_SECONDS = 120  # generous: the machine may be busy; a hang or an alias bomb takes far longer
MEMORY_KB = 3_000_000


@settings(max_examples=20, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(case)
def test_mutated_designs_end_in_a_message(tmp_path_factory, example):
    from click.testing import CliRunner

    from pnp.cli import main

    source, ops = example
    root = tmp_path_factory.mktemp("fuzz")
    make_case(root, source, ops)
    before = snapshot(root)
    old = os.getcwd()
    os.chdir(root)
    started = time.monotonic()
    try:
        result = CliRunner().invoke(main, command(source, slow=False))
    finally:
        os.chdir(old)
    seconds = time.monotonic() - started
    assert result.exit_code in (0, 2), (ops, result.output, result.exception)
    assert "Traceback" not in result.output and "internal error" not in result.output, (ops, result.output)
    assert seconds < IN_PROCESS_SECONDS, (ops, seconds)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < MEMORY_KB, ops
    check_output(root, before)
    shutil.rmtree(root, ignore_errors=True)


# --- the long run: random seeds, each in a subprocess with resource limits ---------------------------

SUBPROCESS_SECONDS = 180
ADDRESS_SPACE = 4 << 30


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


@pytest.mark.slow
@settings(max_examples=int(os.environ.get("PNP_FUZZ_EXAMPLES", "300")), deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(case)
def test_mutated_designs_end_in_a_message_in_a_subprocess(tmp_path_factory, example):
    source, ops = example
    root = tmp_path_factory.mktemp("fuzz")
    make_case(root, source, ops)
    before = snapshot(root)
    env = dict(os.environ, PNP_CACHE_DIR=str(root / "out" / ".cache"))
    try:
        proc = subprocess.run([sys.executable, "-m", "pnp.cli", *command(source, slow=True)], cwd=root, env=env,
                              capture_output=True, text=True, timeout=SUBPROCESS_SECONDS, preexec_fn=_limits)
    except subprocess.TimeoutExpired:
        pytest.fail(f"pnp ran longer than {SUBPROCESS_SECONDS} s on {ops}")
    output = proc.stdout + proc.stderr
    assert proc.returncode in (0, 2), (ops, output)
    assert "Traceback" not in output and "internal error" not in output, (ops, output)
    check_output(root, before)
    shutil.rmtree(root, ignore_errors=True)


# --- active SVG content (issue 29) ----------------------------------------------------------------------------------

ACTIVE = [  # {p}: an SVG prefix (or none), {on}: a handler's name, {js}: code, {url}: a URL that runs code, {css}: CSS
    "<{p}script>{js}</{p}script>",
    "<{p}script type='text/ecmascript'><![CDATA[ {js} ]]></{p}script>",
    "<{p}rect width='3' height='3' {on}=\"{js}\"/>",
    "<{p}g {on}=\"{js}\"><{p}circle r='2'/></{p}g>",
    "<{p}a href='#x'><{p}set attributeName='href' to='{url}'/><{p}text y='5'>a</{p}text></{p}a>",
    "<{p}a href='#x'><{p}animate attributeName='xlink:href' values='{url}' begin='0s'/></{p}a>",
    "<{p}foreignObject width='9' height='9'><div xmlns='http://www.w3.org/1999/xhtml'><img src='data:image/png,x' "
    "onerror=\"{js}\"/></div></{p}foreignObject>",
    "<h:iframe xmlns:h='http://www.w3.org/1999/xhtml' srcdoc=\"&lt;script&gt;{js}&lt;/script&gt;\"/>",
    "<h:script xmlns:h='http://www.w3.org/1999/xhtml'>{js}</h:script>",
    "<{p}style>{css}</{p}style>",
    "<{p}rect width='3' height='3' style=\"stroke: red; {css}\"/>",
    "<?xml-stylesheet type='text/css' href='data:text/css,rect{{fill:red}}'?>",
    "<{p}handler type='application/ecmascript'>{js}</{p}handler>",
]
PREFIXES = ["", "svg:", "s:"]
HANDLERS = ["onload", "onclick", "ONLOAD", "OnMouseOver", "onbegin", "onfocusin"]
CODE = ["alert(1)", "window.ran=1", "fetch('https://evil.example/')", "top.location='https://evil.example/'"]
URLS = ["javascript:alert(1)", "jav&#x61;script:alert(1)", "&#106;avascript:alert(1)", "JaVaScRiPt:alert(1)",
        "java&#9;script:alert(1)", " javascript:alert(1)", "vbscript:msgbox(1)", "data:text/html,&lt;script&gt;"]
CSS = ["@import 'https://evil.example/x.css';", "@import url(data:text/css,rect{fill:red});", "@IMPORT 'x.css';",
       "@\\69mport 'x.css';", "rect { fill: u\\72l(https://evil.example/x.png) }",
       "fill: url(/**/https://evil.example/a)", "behavior: url(x.htc)", "-moz-binding: url(x.xml#b)",
       "mask: image-set('https://evil.example/t.png' 1x)", "fill: expression(alert(1))",
       "@font-face { font-family: X; src: url(https://evil.example/f.ttf) }", "fill: u\\rl(https://evil.example/)"]
PLACES = ["templates/front.svg.j2", "ready.svg", "art/a.svg", "icons/i.svg"]

snippet = st.tuples(st.sampled_from(range(len(ACTIVE))), st.sampled_from(PREFIXES), st.sampled_from(HANDLERS),
                    st.sampled_from(CODE), st.sampled_from(URLS), st.sampled_from(CSS))
active_case = st.lists(st.tuples(st.sampled_from(PLACES), st.integers(0, 10 ** 6), snippet), min_size=1,
                       max_size=4)


def active_snippet(spec: tuple) -> str:
    element, prefix, on, js, url, css = spec
    text = ACTIVE[element].format(p=prefix, on=on, js=js, url=url, css=css)
    if prefix:  # the prefix bound to SVG's namespace on the element that uses it first
        name = prefix[:-1]
        text = re.sub(rf"<{name}:(\w+)", rf'<{name}:\1 xmlns:{name}="http://www.w3.org/2000/svg"', text, count=1)
    return text


def make_active_case(root: Path, edits: list[tuple]) -> Path:
    """The data-table deck with a ready SVG face, an SVG art file and an icon, active content written into them
    (between the lines after each file's first)."""
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    d = root / "d"
    shutil.copytree(SOURCES[0], d)
    (d / "design.yaml").write_text((d / "design.yaml").read_text(encoding="utf-8")
                                   + "  tile:\n    kind: card\n    size: poker\n    svg: ready.svg\n", encoding="utf-8")
    front = d / "templates" / "front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8")
                     + '<image href="art/a.svg" x="5" y="30" width="20" height="20"/>\n'
                     + '{{ textbox("Take :i: now", x=5, y=70, width=50, height=8, size=4) }}\n', encoding="utf-8")
    (d / "ready.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" '
                                 'viewBox="0 0 63 88">\n<rect width="63" height="88" fill="#336699"/>\n</svg>\n')
    (d / "art").mkdir()
    (d / "art" / "a.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n'
                                     '<circle cx="5" cy="5" r="4" fill="#993333"/>\n</svg>\n')
    (d / "icons").mkdir()
    (d / "icons" / "i.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n'
                                       '<path d="M0 0 L10 10" stroke="#000"/>\n</svg>\n')
    for place, at, spec in edits:
        path = d / place
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        first = 0 if place.endswith(".j2") else 1  # (an SVG file's root element stays first)
        cut = first + at % (len(lines) - first)
        path.write_text("".join(lines[:cut]) + active_snippet(spec) + "\n" + "".join(lines[cut:]), encoding="utf-8")
    return d


@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(active_case)
def test_active_svg_content_never_reaches_the_output(tmp_path_factory, edits):
    from click.testing import CliRunner

    from pnp.cli import main

    root = tmp_path_factory.mktemp("active")
    make_active_case(root, edits)
    before = snapshot(root)
    old = os.getcwd()
    os.chdir(root)
    try:
        result = CliRunner().invoke(main, ["build", "d", "--out", "out", "--no-exports", "--no-cache"])
    finally:
        os.chdir(old)
    assert result.exit_code in (0, 2), (edits, result.output, result.exception)
    assert "Traceback" not in result.output and "internal error" not in result.output, (edits, result.output)
    if result.exit_code == 0:
        assert (root / "out" / "d" / "svg" / "tile-face.svg").is_file()
        assert "removed" in result.output, (edits, result.output)  # each removal is a warning
    check_output(root, before)
    shutil.rmtree(root, ignore_errors=True)


# --- costly template expressions (issue 29): what a template builds, however it builds it ------------------------
#
# Expressions grown from small parts (sizes, strings, lists, lipsum, format strings with nested widths, translate,
# map/sum/join chains, lists of lists, comparisons, loops around them). Each must end, rendered in pnp.sandbox, with
# its text or one message (a bound, a Jinja2 error, a type or value error) in well under the time bound, under an
# address-space limit a little above what the process holds: a bound that does not hold is a MemoryError.

SIZES = st.sampled_from([0, 1, 7, 1000, 99_999, 10 ** 6, 10 ** 9, 1_500_000_000])
COSTLY_ATOMS = st.sampled_from([
    "'x'", "'ab\\tc'", "'\\ud800'", "'\\ud83d\\ude00'", "[0]", "(0,)", "[[0] * 999]", "range(10000)", "lipsum(5)",
    "'nan'|float", "1e999", "{'a': 'b'}", "namespace(x=[1])", "'{0:{1}}'", "'%*s'", "'x' * 1000000",
])
COSTLY_FILTERS = st.sampled_from([
    "upper", "list", "join", "join('y' * 1000)", "sum(start=[])", "sum", "string", "tojson", "tojson(100)", "pprint",
    "sort", "unique|list", "first", "length", "reverse|list", "batch(1000)|list", "slice(3)|list", "wordwrap(1)",
    "indent(1000)", "center(1000000)", "replace('x', 'yyyy')", "urlize", "e", "title", "round(-1000000)",
    "format(1000000)", "map('string')|list", "map('center', 1000000)|list", "select|list", "dictsort", "items|list",
    "xmlattr", "truncate(5)", "wordcount", "int", "float", "abs", "safe", "striptags", "trim", "max", "min",
])


def _costly(inner):
    return st.one_of(
        st.tuples(inner, SIZES).map(lambda t: f"({t[0]}) * {t[1]}"),
        st.tuples(inner, inner).map(lambda t: f"({t[0]}) ~ ({t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"({t[0]}) + ({t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"({t[0]}) == ({t[1]})"),
        st.tuples(inner, COSTLY_FILTERS).map(lambda t: f"({t[0]})|{t[1]}"),
        st.tuples(inner, SIZES).map(lambda t: f"'{{0:{{1}}}}'.format({t[0]}, {t[1]})"),
        st.tuples(inner, SIZES).map(lambda t: f"('{{:>{t[1]}}}' * 3).format({t[0]}, {t[0]}, {t[0]})"),
        st.tuples(inner, SIZES).map(lambda t: f"'%*s' % ({t[1]}, {t[0]})"),
        st.tuples(inner, SIZES).map(lambda t: f"({t[0]}).translate({{120: 'y' * {t[1]}}})"),
        st.tuples(inner, SIZES).map(lambda t: f"({t[0]}).ljust({t[1]})"),
        st.tuples(inner, SIZES).map(lambda t: f"({t[0]})[{t[1] % 5}:]"),
        st.tuples(inner, inner).map(lambda t: f"[{t[0]}, {t[1]}, {t[0]}, {t[1]}, {t[0]}]"),
        st.tuples(inner, inner).map(lambda t: f"({t[0]}, {t[1]}, {t[0]})"),
        SIZES.map(lambda n: f"lipsum({n})"),
        st.tuples(inner, SIZES).map(lambda t: f"range({t[1] % 10001})|map('default', {t[0]})|list"),
    )


costly_expression = st.recursive(COSTLY_ATOMS, _costly, max_leaves=6)
costly_template = st.one_of(
    costly_expression.map(lambda e: "{{ " + e + " }}"),
    st.tuples(SIZES, costly_expression).map(
        lambda t: f"{{% for i in range({t[0] % 10001}) %}}{{% set v = {t[1]} %}}{{% endfor %}}"),
    st.tuples(SIZES, costly_expression).map(
        lambda t: "{% set ns = namespace(v=" + t[1] + ") %}{% for i in range(" + str(t[0] % 41) + ") %}"
                  "{% set ns.v = [ns.v, ns.v] %}{% endfor %}{{ ns.v|length }}"),
    st.tuples(st.integers(0, 3000), costly_expression).map(lambda t: "{{ " + "(" * t[0] + t[1] + ")" * t[0] + " }}"),
    st.tuples(st.integers(0, 3000), costly_expression).map(lambda t: "{{ " + t[1] + "|string" * t[0] + " }}"),
)
COSTLY_SECONDS = 10  # render_seconds is the last bound; each example ends far sooner
COSTLY_MARGIN = 1 << 30  # bytes of address space beyond what the process holds


def _address_space() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))


def render_costly(folder: Path, text: str) -> tuple[str, float]:
    """What rendering `text` ends with ("ok", or the message's kind) and its seconds, under the address-space
    limit."""
    import jinja2

    from pnp import sandbox
    from pnp.confine import DesignFiles
    from pnp.limits import LimitExceeded

    (folder / "t.svg.j2").write_text(text, encoding="utf-8")
    env = sandbox.environment(DesignFiles(folder), [folder], "template_bytes", autoescape=True)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (_address_space() + COSTLY_MARGIN, hard))
    started = time.monotonic()
    try:
        sandbox.render(env.get_template("t.svg.j2"), {})
        outcome = "ok"
    except (LimitExceeded, sandbox.TextRefused, jinja2.TemplateError, TypeError, ValueError, ArithmeticError,
            LookupError, AttributeError, RecursionError) as exc:
        outcome = type(exc).__name__
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    return outcome, time.monotonic() - started


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(costly_template)
def test_costly_template_expressions_end_within_their_budgets(tmp_path_factory, text):
    outcome, seconds = render_costly(tmp_path_factory.mktemp("costly"), text)
    assert seconds < COSTLY_SECONDS, (text, outcome, seconds)


@pytest.mark.slow
@settings(max_examples=int(os.environ.get("PNP_FUZZ_EXAMPLES", "300")), deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(active_case)
def test_active_svg_content_never_reaches_the_output_in_a_subprocess(tmp_path_factory, edits):
    root = tmp_path_factory.mktemp("active")
    make_active_case(root, edits)
    before = snapshot(root)
    env = dict(os.environ, PNP_CACHE_DIR=str(root / "out" / ".cache"))
    try:
        proc = subprocess.run([sys.executable, "-m", "pnp.cli", "build", "d", "--out", "out", "--no-exports"],
                              cwd=root, env=env, capture_output=True, text=True, timeout=SUBPROCESS_SECONDS,
                              preexec_fn=_limits)
    except subprocess.TimeoutExpired:
        pytest.fail(f"pnp ran longer than {SUBPROCESS_SECONDS} s on {edits}")
    output = proc.stdout + proc.stderr
    assert proc.returncode in (0, 2), (edits, output)
    assert "Traceback" not in output and "internal error" not in output, (edits, output)
    check_output(root, before)
    shutil.rmtree(root, ignore_errors=True)


# --- special files in the design, links planted in the output and the cache (issue 29) ------------------------------

SPECIAL_PLACES = ["art/s.png", "art/s.svg", "icons/s.svg", "fonts/s.ttf", "s.csv", "templates/s.svg.j2", "s.jpg"]
SPECIAL_KINDS = ["fifo", "zero", "null", "folder", "outside"]  # a FIFO, links to /dev/zero, /dev/null, the victim
PLANTS = [  # (where under out/, what): links and files a zipped project or a co-designer may leave in the output
    ("d", "link-victim"), ("d/svg", "link-victim"), ("d/svg/art", "link-victim"), (".cache", "link-victim"),
    (".cache/svg", "link-victim"), ("d/manifest.json", "link-keep"), ("d/index.html", "link-keep"),
    ("d/.pnp-commit.json", "journal"), ("d/.pnp-commit.json", "link-keep"), ("d/.pnp.lock", "fifo"),
    ("d/lnk", "link-victim"), ("d/svg/cards-1.svg", "link-keep")]

special_op = st.tuples(st.sampled_from(range(len(SPECIAL_PLACES))), st.sampled_from(SPECIAL_KINDS), st.booleans())
planted_case = st.tuples(st.lists(special_op, max_size=3), st.lists(st.sampled_from(range(len(PLANTS))),
                                                                    max_size=3), st.booleans())


def make_planted_case(root: Path, specials: list[tuple], plants: list[int], built_before: bool) -> Path:
    """The data-table deck with special files in its folder (used by the templates or not) and things planted in
    out/ (after a first build or before any): every planted link points at root/victim, which must not change."""
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    d = root / "d"
    shutil.copytree(SOURCES[0], d)
    victim = root / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text(f"{SECRET} keep\n")
    for place, kind, used in specials:
        path = d / SPECIAL_PLACES[place]
        path.parent.mkdir(parents=True, exist_ok=True)
        if os.path.lexists(path):
            continue
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "folder":
            path.mkdir()
        else:
            path.symlink_to({"zero": "/dev/zero", "null": "/dev/null", "outside": victim / "keep.txt"}[kind])
        if used:
            front = d / "templates" / "front.svg.j2"
            name = SPECIAL_PLACES[place]
            if name.startswith(("art/", "s.")):
                front.write_text(front.read_text() + f'<image href="{name}" x="1" y="1" width="5" height="5"/>\n')
            elif name.startswith("icons/"):
                front.write_text(front.read_text() + '{{ textbox("a :s: b", x=2, y=70, width=40, size=4) }}\n')
            elif name.startswith("fonts/"):
                (d / "design.yaml").write_text((d / "design.yaml").read_text()
                                               + "fonts:\n  Odd:\n    regular: fonts/s.ttf\n")
            else:
                front.write_text(front.read_text() + "{% include 's.svg.j2' %}\n")
    if built_before:
        from click.testing import CliRunner

        from pnp.cli import main

        old = os.getcwd()
        os.chdir(root)
        try:
            CliRunner().invoke(main, ["build", "d", "--out", "out", "--no-exports"])
        finally:
            os.chdir(old)
    for i in plants:
        where, what = PLANTS[i]
        path = root / "out" / where
        path.parent.mkdir(parents=True, exist_ok=True)
        if os.path.lexists(path):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
        if what == "link-victim":
            path.symlink_to(victim)
        elif what == "link-keep":
            path.symlink_to(victim / "keep.txt")
        elif what == "fifo":
            os.mkfifo(path)
        else:  # a journal naming renames in and out through a link
            (path.parent / "lnk").unlink(missing_ok=True) if (path.parent / "lnk").is_symlink() else None
            if not os.path.lexists(path.parent / "lnk"):
                (path.parent / "lnk").symlink_to(victim)
            path.write_text('{"renames": [["lnk/keep.txt", "stolen.txt"], ["index.html", "lnk/planted.html"]], '
                            '"remove": ["lnk/keep.txt"]}')
    return d


@settings(max_examples=6, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(planted_case)
def test_special_files_and_planted_links_end_in_a_build_or_a_message(tmp_path_factory, example):
    planted_run(tmp_path_factory, example)


@pytest.mark.slow
@settings(max_examples=int(os.environ.get("PNP_FUZZ_EXAMPLES", "300")), deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(planted_case)
def test_special_files_and_planted_links_end_in_a_build_or_a_message_random(tmp_path_factory, example):
    planted_run(tmp_path_factory, example)


def planted_run(tmp_path_factory, example) -> None:
    specials, plants, built_before = example
    root = tmp_path_factory.mktemp("planted")
    make_planted_case(root, specials, plants, built_before)
    before = snapshot(root)
    env = dict(os.environ, PNP_CACHE_DIR=str(root / "out" / ".cache"))
    try:  # a process of its own: a FIFO opened for reading would wait for ever
        proc = subprocess.run([sys.executable, "-m", "pnp.cli", "build", "d", "--out", "out", "--no-exports"],
                              cwd=root, env=env, capture_output=True, text=True, timeout=SUBPROCESS_SECONDS,
                              preexec_fn=_limits)
    except subprocess.TimeoutExpired:
        pytest.fail(f"pnp ran longer than {SUBPROCESS_SECONDS} s on {example}")
    output = proc.stdout + proc.stderr
    assert proc.returncode in (0, 2), (example, output)
    assert "Traceback" not in output and "internal error" not in output, (example, output)
    assert snapshot(root) == before, (example, "a file outside the output folder changed")  # root/victim too
    for folder, dirs, names in os.walk(root / "out", followlinks=False):  # what pnp wrote: not the planted links
        for name in names:
            path = Path(folder) / name
            if not path.is_symlink() and path.is_file() and path.suffix in (".svg", ".json", ".html", ".txt"):
                assert SECRET.encode() not in path.read_bytes(), (example, f"the victim's text reached {path}")
    assert not os.path.lexists(root / "out" / "d" / "stolen.txt"), example
    shutil.rmtree(root, ignore_errors=True)


@pytest.mark.slow
@settings(max_examples=int(os.environ.get("PNP_FUZZ_EXAMPLES", "300")), deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(costly_template)
def test_costly_template_expressions_end_in_a_message_in_a_subprocess(tmp_path_factory, text):
    """The same in `pnp build` of the data-table deck: exit 0 or 2, a message naming the template, within a few
    seconds and a few hundred MB."""
    root = tmp_path_factory.mktemp("costly")
    shutil.copytree(SOURCES[0], root / "d")
    (root / "d" / "templates" / "token.svg.j2").write_text('<rect width="1" height="1"/>\n' + text + "\n",
                                                          encoding="utf-8")
    started = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-m", "pnp.cli", "build", "d", "--out", "out", "--no-exports",
                               "--no-cache"], cwd=root, capture_output=True, text=True, timeout=SUBPROCESS_SECONDS,
                              preexec_fn=_limits)
    except subprocess.TimeoutExpired:
        pytest.fail(f"pnp ran longer than {SUBPROCESS_SECONDS} s on {text!r}")
    seconds = time.monotonic() - started
    output = proc.stdout + proc.stderr
    assert proc.returncode in (0, 2), (text, output)
    assert "Traceback" not in output and "internal error" not in output, (text, output)
    if proc.returncode == 2:
        assert output.startswith("d/"), (text, output)
    assert seconds < 3 * COSTLY_SECONDS, (text, seconds)
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss < 800_000, text  # KB, the largest child so far
    shutil.rmtree(root, ignore_errors=True)
