"""Property: any Markdown a designer writes builds a rulebook, or is told as `rules.en.md:LINE` messages; never an
internal error (exit 3).

Hypothesis writes whole rules texts: headings of random levels in any order, paragraphs with inline markup, raw
HTML (understood or not), footnote references with and without their text, lists nested at random depths, tables
with uneven rows, block quotes, code, front matter (valid YAML or not), images of the design folder, entities, and
text in other scripts with control characters. Each text is rendered by pnp.rulebook (what `pnp build` and `pnp
rules` call); a DesignError is exit 2 and must name the rules text and a line for every problem; anything else that
escapes would be exit 3. No test here asserts that a character prints (fonts are another matter): only that the
build ends well. The default suite runs a fixed set of examples; `pytest -m slow` many more.
"""

from __future__ import annotations

import io
import os
import shutil
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from pypdf import PdfReader

from pnp.errors import DesignError, drain_warnings
from pnp.loader import load_design
from pnp.render.faces import design_faces
from pnp.rulebook import render_rulebooks

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ART = ('<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="20mm" viewBox="0 0 40 20">'
       '<rect width="40" height="20" fill="#0072B2"/></svg>')

# --- Markdown, as designers (and other tools) write it ---------------------------------------------------------------
SCRIPTS = ["Ωmega λόγος", "Привет мир", "Tiếng Việt", "日本語の規則", "한국어", "עברית", "العربية", "e\u0301", "🎲🃏",
           "\u200b\u200d\ufeff", "\ufffd", "\x01\x07\x1b", "\x7f\x9f", "\t", "\u202e", "\u00a0", "ﬁ", "𝔸"]
WORDS = st.sampled_from(["card", "draw", "Setup", "the", "player", "2", "10%", "R&D", "a<b", "x>y", "\\*", "\\",
                         "'quote'", '"dq"', "—", "…", "https://example.com/" + "a/" * 40, "w" * 120, *SCRIPTS])
HTML = st.sampled_from(["<br>", "<br/>", "<br />", "</br>", "<b>", "</b>", "<i>", "</i>", "<u>", "</u>", "<em>",
                        "</strong>", "<sup>", "</sup>", "<sub>", "<code>", "</code>", "<s>", "<del>", "</del>",
                        "<!-- note -->", "<!--", "-->", "<span style=\"color:red\">", "</span>", "<font color=red>",
                        "<img src=\"art.png\">", "<div>", "</div>", "<p>", "<li>", "<table>", "<script>", "<?php ?>",
                        "<!DOCTYPE html>", "<![CDATA[x]]>", "<b class=x>", "<a href=\"#x\">", "</a>"])
ENTITIES = st.sampled_from(["&amp;", "&lt;", "&gt;", "&quot;", "&nbsp;", "&copy;", "&eacute;", "&#x263A;", "&#0;",
                            "&#x110000;", "&nope;", "&", "&#65;"])
JINJA = st.sampled_from(["{{ players.min }} players", "{{ nope }}", "{% if %}", "{# open", "{% for c in components %}"
                         "- {{ c }}\n{% endfor %}", "{{ '<b>' ~ meta.title ~ '</b>' }}", "{% raw %}{{ x }}{% endraw %}"])
MISTAKES = st.sampled_from(["![](missing.svg)", "![p](photo.png)", "![a](art.svg){width=0mm}", "![](pnp:9)",
                            "|" + "c|" * 30 + "\n|" + "---|" * 30, "".join("  " * i + "- x\n" for i in range(24))])
NOTE_LABELS = st.sampled_from(["1", "2", "note", "x y", "Ω", "^"])


@st.composite
def inline(draw, most: int = 8) -> str:
    parts = []
    for _ in range(draw(st.integers(1, most))):
        kind = draw(st.integers(0, 13))
        word = draw(WORDS)
        parts.append([word, word, f"**{word}**", f"*{word}*", f"_{word}_", f"`{word}`", f"~~{word}~~",
                      f"[{word}](https://example.com/{draw(st.integers(0, 9))})", draw(HTML), draw(ENTITIES),
                      f"[^{draw(NOTE_LABELS)}]", f"^[{word}]", "  \n" if draw(st.booleans()) else "\n",
                      draw(st.sampled_from(["![art](art.svg)", "![](art.svg)", "![art](art.svg){width=50%}", "**",
                                            "*", "[", "]("]))][kind])
    return " ".join(parts)


@st.composite
def block(draw, depth: int = 0) -> str:
    kind = draw(st.integers(0, 11 if depth < 3 else 6))
    if kind <= 1:
        return draw(inline())
    if kind == 2:
        return "#" * draw(st.integers(1, 6)) + " " + draw(inline(3))
    if kind == 3:
        cols = draw(st.integers(1, 7))
        rows = [" | ".join(draw(inline(2)).replace("\n", " ").replace("|", "/") for _ in range(draw(st.integers(
            1, cols + 1)))) for _ in range(draw(st.integers(0, 40)))]
        return ("| " + " | ".join(f"h{i}" for i in range(cols)) + " |\n|" + "|".join(
            draw(st.sampled_from(["---", ":--", "--:", ":-:"])) for _ in range(cols)) + "|\n"
                + "".join(f"| {r} |\n" for r in rows))
    if kind == 4:
        return "```\n" + draw(inline(4)) + "\n\tcode\x01\n```"
    if kind == 5:
        return draw(st.sampled_from(["---", "***", "<!-- a comment\nover lines -->", "<div>\n<b>html</b> block\n"
                                     "</div>", "<br>", "<table><tr><td>x</td></tr></table>", "&copy; 2024"]))
    if kind == 6:
        return f"[^{draw(NOTE_LABELS)}]: " + draw(inline(3))
    if kind in (7, 8):
        bullet = draw(st.sampled_from(["- ", "* ", "1. ", "3) "]))
        pad = " " * len(bullet)
        items = []
        for _ in range(draw(st.integers(1, 4))):
            inner = draw(block(depth + 1)).replace("\n", "\n" + pad)
            items.append(bullet + inner)
        return "\n".join(items)
    if kind == 9:
        return "> " + draw(block(depth + 1)).replace("\n", "\n> ")
    if kind == 10:
        return draw(inline()) + "\n" + draw(st.sampled_from(["===", "---"]))
    return "\n".join("  " * i + "- " + draw(WORDS) for i in range(draw(st.integers(1, 20 - depth))))


GOOD_FRONT = ["", "", "", "", "---\ntitle: My rules\ntags: [a, b]\ndate: 2024-05-01\n---\n", "---\n\n---\n",
              "---\njust words\n---\n", "---\ntitle: x\n...\n", "---\ntitle: x\n", "---\n- a list\n---\n",
              "\ufeff---\na: 1\n---\n"]
BAD_FRONT = ["---\ntitle: [unclosed\n---\n", "---\n" + "k: " + "[" * 100 + "]" * 100 + "\n---\n", "---\na: \x01\n---\n"]
FRONT = st.sampled_from(GOOD_FRONT * 3 + BAD_FRONT)  # mostly none or one that reads; now and then a message


@st.composite
def document(draw) -> str:
    blocks = [draw(block()) for _ in range(draw(st.integers(0, 12)))]
    if blocks and draw(st.integers(0, 9)) == 0:  # the text is Jinja2 first: now and then an expression, or a mistake
        blocks.insert(draw(st.integers(0, len(blocks))), draw(JINJA))
    if blocks and draw(st.integers(0, 9)) == 0:  # now and then a mistake of another kind (each a message)
        blocks.insert(draw(st.integers(0, len(blocks))), draw(MISTAKES))
    return draw(FRONT) + "\n\n".join(blocks) + "\n"


# --- the rulebook of each ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    """The data-table deck with an SVG and a PNG image beside its rules text, loaded and painted once."""
    folder = tmp_path_factory.mktemp("md") / "d"
    shutil.copytree(FIXTURES / "deck-csv", folder)
    (folder / "art.svg").write_text(ART, encoding="utf-8")
    (folder / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (folder / "rules.en.md").write_text("# Rules\n", encoding="utf-8")
    design = load_design(folder)
    return design, design_faces(design)


def rulebook_ends_well(deck, text: str) -> None:
    """The text renders to a PDF (exit 0) or every problem names rules.en.md and a line (exit 2)."""
    design, faces = deck
    path = design.folder / "rules.en.md"
    path.write_text(text, encoding="utf-8")
    drain_warnings()

    def hung(*_):  # a layout that never ends fails here, with its text, rather than hang the suite
        raise AssertionError(f"the rulebook took more than 30 s: {text!r}")

    before = signal.signal(signal.SIGALRM, hung)
    signal.alarm(30)
    try:
        pdf = render_rulebooks(design, faces)["d-rules-en-a4.pdf"]
    except DesignError as exc:  # exit 2
        for problem in exc.problems:
            assert problem.file.endswith("rules.en.md") and problem.line, (str(problem), text)
        return
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
        warnings = drain_warnings()
    assert len(PdfReader(io.BytesIO(pdf)).pages) >= 2
    for w in warnings:  # each warning about the Markdown names its line (a character no font has, written as an
        if w.file.endswith("rules.en.md") and not w.message.startswith("no font has"):  # entity, may have none)
            assert w.line, (str(w), text)


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(text=document())
def test_any_markdown_builds_or_is_told_with_its_line(deck, text):
    rulebook_ends_well(deck, text)


@pytest.mark.slow
@settings(max_examples=int(os.environ.get("PNP_FUZZ_EXAMPLES", "600")), deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(text=document())
def test_any_markdown_builds_or_is_told_with_its_line_many(deck, text):
    rulebook_ends_well(deck, text)
