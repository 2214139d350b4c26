"""Text as designers write it (issue 28, item 4): nanDECK's HTMLTEXT, Squib's Pango markup, spreadsheets with HTML.

The markup is read into runs (pnp.render.markup, tested on its own below), then set by textbox() and in a
template's own <text>; each build is measured in its PDF (pdfplumber: the characters' text, font, colour and
size, the underline rectangles) and its messages are read as a designer sees them.
"""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from clirun import run
from lxml import etree

from pnp.render import markup
from pnp.render.markup import Style
from pnp.render.typography import typeset

MM = 72 / 25.4
BLEED = 3.0
SVG_NS = "{http://www.w3.org/2000/svg}"

# a cell as nanDECK's HTMLTEXT is written (and a size run), in a CSV as a spreadsheet exports it
CELL = ('<b>Attack</b> 3<br><li>one</li><li>two</li> &quot;quoted&quot; <font color="#cc0000">red</font> '
        '<u>under</u> <span style="font-size:150%">huge</span>')
BOX = dict(x=6, y=40, w=51, h=40, size=4)


def textbox(extra: str = "") -> str:
    return ("{{ textbox(text, " + f"x={BOX['x']}, y={BOX['y']}, width={BOX['w']}, height={BOX['h']}, size={BOX['size']}"
            + extra + ") }}\n")


def csv_cell(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def deck(tmp_path: Path, front: str, *cells: str) -> Path:
    d = tmp_path / "d"
    (d / "templates").mkdir(parents=True)
    (d / "cards.csv").write_text("text\n" + "".join(csv_cell(c) + "\n" for c in cells), encoding="utf-8")
    (d / "templates" / "front.svg.j2").write_text(front, encoding="utf-8")
    (d / "design.yaml").write_text("meta: {title: Deck, players: 2}\nprint: {paper: a4}\ncomponents:\n  cards:\n"
                                   "    kind: card\n    size: poker\n    data: cards.csv\n    template: front.svg.j2\n",
                                   encoding="utf-8")
    return d


def build(tmp_path: Path):
    result = run(["build", "d", "--out", "out", "--no-exports", "--print-shop"], tmp_path)
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 0, result.output
    return result


def warnings(result) -> list[str]:
    return [ln for ln in result.output.splitlines() if ": warning: " in ln]


def page(tmp_path: Path, n: int = 0) -> tuple[list[dict], list[dict]]:
    """(chars, rects) of the print-shop page of card n (one face a page, trim + bleed); each char with its
    baseline ("base", pt from the page's top)."""
    with pdfplumber.open(tmp_path / "out" / "d" / "d-print-shop.pdf") as doc:
        p = doc.pages[n]
        return [{**c, "base": float(p.height) - c["matrix"][5]} for c in p.chars], list(p.rects)


def band(chars: list[dict], top_mm: float, bottom_mm: float) -> list[dict]:
    """The characters whose baseline lies between two heights of the face (mm from the trim's top)."""
    return [c for c in chars if top_mm <= c["base"] / MM - BLEED <= bottom_mm and c["text"].strip()]


def lines_of(chars: list[dict]) -> list[list[dict]]:
    rows: dict[int, list[dict]] = {}
    for c in chars:
        rows.setdefault(round(c["base"] * 4), []).append(c)
    return [sorted(cs, key=lambda c: c["x0"]) for _, cs in sorted(rows.items())]


def word(chars: list[dict], text: str) -> list[dict]:
    """The characters of the first occurrence of `text` in reading order."""
    flat = [c for ln in lines_of(chars) for c in ln]
    s = "".join(c["text"] for c in flat)
    at = s.index(text)
    return flat[at:at + len(text)]


def colour(c: dict) -> tuple[float, ...]:
    return tuple(round(float(v), 3) for v in c["non_stroking_color"])


def underline_under(rects: list[dict], chars: list[dict]) -> dict:
    """The thin filled rectangle under the characters `chars`."""
    x0, x1 = chars[0]["x0"], chars[-1]["x1"]
    found = [r for r in rects if r["height"] < 1.0 and abs(r["x0"] - x0) < 0.3 and abs(r["x1"] - x1) < 0.3
             and chars[0]["top"] < r["top"] < chars[0]["bottom"] + 1]
    assert len(found) == 1, (x0, x1, [(r["x0"], r["x1"], r["top"]) for r in rects if r["height"] < 1.0])
    return found[0]


def check_the_cell_s_runs(chars: list[dict], rects: list[dict], size_mm: float) -> None:
    """What CELL must look like wherever it is set: no tag, no entity, its bold, red, underline and size runs."""
    text = "".join(c["text"] for c in chars)
    assert "<" not in text and ">" not in text and "&" not in text, text
    assert '“quoted”' in text
    attack, three = word(chars, "Attack"), word(chars, "3")
    assert all("Bold" in c["fontname"] for c in attack) and "Bold" not in three[0]["fontname"]
    red = word(chars, "red")
    assert {colour(c) for c in red} == {(0.8, 0.0, 0.0)}  # #cc0000
    assert {colour(c) for c in word(chars, "quoted")} == {(0.0, 0.0, 0.0)}
    under = word(chars, "under")
    rule = underline_under(rects, under)
    baseline = under[0]["base"]
    size = under[0]["size"]
    assert abs(size / MM - size_mm) < 0.01
    assert 0.01 * size < rule["top"] - baseline < 0.12 * size  # just below the baseline, above the descenders
    assert 0.03 * size < rule["height"] < 0.08 * size
    assert colour(rule) in ((0.0, 0.0, 0.0), (0.0,))
    huge = word(chars, "huge")
    assert {round(c["size"] / MM, 3) for c in huge} == {round(1.5 * size_mm, 3)}


# --- in a text box --------------------------------------------------------------------------------------------------

def test_a_nandeck_cell_in_a_text_box_prints_its_markup_not_its_tags(tmp_path):
    deck(tmp_path, textbox(), CELL)
    result = build(tmp_path)
    assert warnings(result) == []
    chars, rects = page(tmp_path)
    box = band(chars, BOX["y"], BOX["y"] + BOX["h"])
    check_the_cell_s_runs(box, rects, BOX["size"])
    lines = lines_of(box)
    texts = ["".join(c["text"] for c in ln) for ln in lines]
    assert texts == ["Attack3", "•one", "•two", '“quoted”redunder', "huge"]
    left = (BOX["x"] + BLEED) * MM
    for ln in lines[1:3]:  # the bullet at the box's edge, the item's text at the hanging indent
        assert abs(ln[0]["x0"] - left) < 0.05
        assert abs(ln[1]["x0"] - (left + 1.2 * BOX["size"] * MM)) < 0.05
    assert abs(lines[3][0]["x0"] - left) < 0.05
    gaps = [b[0]["base"] - a[0]["base"] for a, b in zip(lines, lines[1:])]
    lh = 1.2 * BOX["size"] * MM
    assert all(abs(g - lh) < 0.01 for g in gaps[:3])
    assert gaps[3] > lh + 0.2 * BOX["size"] * MM  # the line of the 150% run is taller


def test_markup_false_sets_the_characters_as_written(tmp_path):
    deck(tmp_path, textbox(", min_size=2, markup=False"), CELL)
    result = build(tmp_path)
    assert warnings(result) == []
    chars, rects = page(tmp_path)
    box = band(chars, BOX["y"], BOX["y"] + BOX["h"])
    text = "".join(c["text"] for c in box)
    assert "<b>Attack</b>" in text and "&quot;quoted&quot;" in text and '<fontcolor="#cc0000">red</font>' in text
    assert not any("Bold" in c["fontname"] for c in box)
    assert {colour(c) for c in box} == {(0.0, 0.0, 0.0)}
    assert not [r for r in rects if r["height"] < 1.0]


@pytest.mark.parametrize("align", ["left", "center", "right", "justify"])
def test_mixed_runs_wrap_by_their_own_widths_and_keep_the_alignment(tmp_path, align):
    text = ("Sail <b>north</b> and <span style='font-size:200%'>take</span> <i>three</i> <big>fish</big>, then "
            "<b><big>trade</big></b> them at the <u>harbour</u> for <font size=5>gold</font> or <small>spice</small> "
            "before the storm comes in.")
    deck(tmp_path, textbox(f", align='{align}'"), text)
    result = build(tmp_path)
    assert warnings(result) == []
    chars, _rects = page(tmp_path)
    lines = lines_of(band(chars, BOX["y"], BOX["y"] + BOX["h"]))
    assert len(lines) >= 4
    left, right = (BOX["x"] + BLEED) * MM, (BOX["x"] + BOX["w"] + BLEED) * MM
    for n, ln in enumerate(lines):
        assert ln[0]["x0"] >= left - 0.05 and ln[-1]["x1"] <= right + 0.05  # measured at their sizes, inside
        if n + 1 < len(lines) and align != "justify":  # and full: the next line's first word did not fit here
            nxt, end = lines[n + 1], 0
            while end + 1 < len(nxt) and nxt[end + 1]["x0"] - nxt[end]["x1"] < 0.1 * nxt[end]["size"]:
                end += 1
            space = 0.318 * nxt[0]["size"]  # DejaVu Sans' space, in sizes
            assert (ln[-1]["x1"] - ln[0]["x0"]) + space + (nxt[end]["x1"] - nxt[0]["x0"]) > right - left
        if align == "left":
            assert abs(ln[0]["x0"] - left) < 0.05
        elif align == "right":
            assert abs(ln[-1]["x1"] - right) < 0.3
        elif align == "center":
            assert abs((ln[0]["x0"] + ln[-1]["x1"]) / 2 - (left + right) / 2) < 0.5
        elif n + 1 < len(lines):
            assert abs(ln[0]["x0"] - left) < 0.05 and abs(ln[-1]["x1"] - right) < 0.3
    sizes = {round(c["size"] / MM, 2) for ln in lines for c in ln}
    assert sizes >= {4.0, 8.0, 4.8, 6.0, 3.33}


# --- straight in a template's <text> -------------------------------------------------------------------------------

def test_the_same_cell_in_a_template_s_own_text_gets_the_same_runs(tmp_path):
    deck(tmp_path, '<text x="4" y="20" font-size="3">{{ text }}</text>\n'
         '<rect x="1" y="80" width="2" height="2" fill="#00ff00" data-cell="{{ text }}"/>\n', CELL)
    result = build(tmp_path)
    assert warnings(result) == [
        "d/templates/front.svg.j2:1: warning: <br> and a list (<li>) cannot be set in a one-line <text>: the lines "
        "are joined with spaces; expected textbox() for text with line breaks or lists (row d/cards.csv:2)"]
    chars, rects = page(tmp_path)
    line = band(chars, 16, 21)
    check_the_cell_s_runs(line, rects, 3)
    assert "".join(c["text"] for c in line) == 'Attack3onetwo“quoted”redunderhuge'
    svg = (tmp_path / "out" / "d" / "svg" / "cards-1.svg").read_text()
    root = etree.fromstring(svg.encode())
    cell_rect = next(r for r in root.iter(f"{SVG_NS}rect") if r.get("data-cell"))
    assert cell_rect.get("data-cell") == CELL  # an attribute keeps the value exactly, as before


def test_an_underline_in_a_text_follows_its_anchor_and_transform_or_is_a_warning(tmp_path):
    deck(tmp_path, '<g transform="translate(10 0)"><text x="21.5" y="20" font-size="4" text-anchor="end">'
         '{{ text }}</text></g>\n<text x="4" y="30" font-size="4" class="title">{{ text }}</text>\n',
         "go <u>north</u>")
    result = build(tmp_path)
    assert warnings(result) == [
        "d/templates/front.svg.j2:2: warning: underline (<u>) in a <text> that pnp cannot measure (a class sets its "
        "style): the text is set without it; expected textbox(), or a <text> with one x and y and its font in "
        "attributes (row d/cards.csv:2)"]
    chars, rects = page(tmp_path)
    north = word(band(chars, 16, 21), "north")
    assert abs(north[-1]["x1"] - (31.5 + BLEED) * MM) < 0.05  # anchored at its end, moved by the group
    underline_under(rects, north)
    assert len([r for r in rects if r["height"] < 1.0]) == 1  # none under the <text> that cannot be measured


def test_a_cell_in_a_link_or_a_tspan_of_a_text_is_read_too(tmp_path):
    deck(tmp_path, '<text x="4" y="20" font-size="4"><a href="#top">{{ text }}</a> and '
         '<tspan fill="#0000ff">{{ text }}</tspan></text>\n', "<b>Go</b> &amp; <i>see</i>")
    assert warnings(build(tmp_path)) == []
    chars, _rects = page(tmp_path)
    line = band(chars, 16, 21)
    assert "".join(c["text"] for c in line) == "Go&seeandGo&see"
    assert [c["text"] for c in line if "Bold" in c["fontname"]] == list("GoGo")
    assert {colour(c) for c in line[-6:]} == {(0.0, 0.0, 1.0)}  # the template's own tspan keeps its fill


def test_a_text_without_markup_keeps_its_exact_bytes(tmp_path):
    deck(tmp_path, '<text x="4" y="20" font-size="3">{{ text }}</text>\n', "Fire & Ice, 5 * 3 <= 20")
    build(tmp_path)
    svg = (tmp_path / "out" / "d" / "svg" / "cards-1.svg").read_text()
    assert '<text x="4" y="20" font-size="3">Fire &amp; Ice, 5 * 3 &lt;= 20</text>\n' in svg


def test_filters_plain_and_literal(tmp_path):
    deck(tmp_path, '<text x="4" y="20" font-size="3">{{ text | plain }}</text>\n'
         '<text x="4" y="30" font-size="3">{{ text | literal }}</text>\n'
         '<title>{{ text | plain }}</title>\n', CELL + " **now**")
    result = build(tmp_path)
    assert warnings(result) == []
    chars, rects = page(tmp_path)
    plain = "".join(c["text"] for c in band(chars, 16, 21))
    assert plain == 'Attack3onetwo“quoted”redunderhugenow'
    assert not any("Bold" in c["fontname"] for c in band(chars, 16, 21))
    literal = "".join(c["text"] for c in band(chars, 26, 31))
    # (its tags printed as characters; in a template's own <text>, typeset as every text the face prints: “”)
    assert literal == typeset(CELL.replace(" ", ""), "en") + "**now**"
    assert not [r for r in rects if r["height"] < 1.0]
    root = etree.fromstring((tmp_path / "out" / "d" / "svg" / "cards-1.svg").read_bytes())
    assert root.find(f"{SVG_NS}title").text == 'Attack 3 one two “quoted” red under huge now'


# --- what is not understood ----------------------------------------------------------------------------------------

def test_unknown_markup_is_a_warning_naming_the_line_and_the_row_and_never_prints_tags(tmp_path):
    deck(tmp_path, "\n" + textbox(), "plain row", "Roll <blink>now</blink> &bogus; <b>go")
    result = build(tmp_path)
    where = "d/templates/front.svg.j2:2: warning: "
    assert warnings(result) == [
        where + "unknown entity &bogus; is printed as written; expected a named HTML entity (&amp; &quot; &nbsp; "
        "&eacute;...) or a number (&#8212;) (row d/cards.csv:3)",
        where + "unknown markup <blink>: the tag is left out, the text inside it printed; expected one of <b>, <i>, "
        "<u>, <br>, <p>, <span>, <font>, <big>, <small>, <ul>, <ol>, <li>, or markup=False to print tags as written "
        "(row d/cards.csv:3)",
        where + "markup <b> is not closed: it runs to the end of the text; expected a </b> (row d/cards.csv:3)"]
    chars, _rects = page(tmp_path, 1)
    box = band(chars, BOX["y"], BOX["y"] + BOX["h"])
    assert "".join(c["text"] for c in box) == "Rollnow&bogus;go"
    assert [c["text"] for c in box if "Bold" in c["fontname"]] == list("go")
    again = build(tmp_path)  # the face comes from the cache: its warnings are given again
    assert warnings(again) == warnings(result)


# --- the markup on its own ------------------------------------------------------------------------------------------

def runs(text: str, **kw) -> list[tuple[int, str, list[tuple[str, Style]]]]:
    return [(p.level, p.marker, [(r.text, r.style) for r in p.runs]) for p in markup.parse(text, **kw).paragraphs]


B, I, U = Style(bold=True), Style(italic=True), Style(underline=True)


def test_tags_stars_and_entities_make_runs():
    assert runs("<b>a</b> <strong>b</strong> <i>c</i><em>d</em> <u>e</u>") == [
        (0, "", [("a", B), (" ", Style()), ("b", B), (" ", Style()), ("cd", I), (" ", Style()), ("e", U)])]
    assert runs("**a** *b* <i>**c**</i>") == [(0, "", [("a", B), (" ", Style()), ("b", I), (" ", Style()),
                                                      ("c", Style(bold=True, italic=True))])]
    assert runs("5 * 3 = 15") == [(0, "", [("5 * 3 = 15", Style())])]  # a lone star is text
    assert runs("&quot;x&quot; &amp; &nbsp;&#8212;&#x2014;&eacute; R&D AT&T") == [
        (0, "", [('"x" & \xa0——é R&D AT&T', Style())])]
    assert runs("one<br>two<br/>three\\nfour\nfive<p>six</p>seven") == [
        (0, "", [(t, Style())]) for t in ("one", "two", "three", "four", "five", "six", "seven")]
    assert runs("a<br>\nb") == [(0, "", [("a", Style())]), (0, "", [("b", Style())])]  # one break, not two


def test_colours_and_sizes_as_css_pango_and_nandeck_write_them():
    red = "#ff0000"
    assert runs('<span style="color:#f00">a</span><span color="red">b</span><span foreground="#FF0000">c</span>'
                '<font color="red">d</font>') == [(0, "", [("abcd", Style(colour=red))])]
    got = runs('<span style="font-size:120%">a</span><span style="font-size:1.5em">b</span><big>c</big>'
               '<small>d</small><font size="5">e</font><font size="+1">f</font><span size="x-large">g</span>'
               '<span style="font-size:3mm">h</span><span style="font-size:12pt">i</span><font size="14">j</font>'
               '<span size="12288">k</span>')[0][2]
    assert [(t, round(s.size_of(4), 3)) for t, s in got] == [
        ("a", 4.8), ("b", 6.0), ("c", 4.8), ("d", 3.333), ("e", 6.0), ("f", 4.5), ("g", 6.0), ("h", 3.0),
        ("i", 4.233), ("j", 4.939), ("k", 4.233)]
    parsed = markup.parse('<span style="font-size:900%">a</span><span style="font-size:90mm">b</span>'
                          '<span style="color:bleu">c</span>')
    assert [round(r.style.size_of(4), 3) for r in parsed.paragraphs[0].runs] == [16.0, 50.0, 4.0]
    assert parsed.warnings == [
        'markup <span style="font-size:900%">: a size of 900% is outside 25%..400% of the text\'s size: set at 400%',
        'markup <span style="font-size:90mm">: a size of 90 mm is outside 0.5..50 mm: set at 50 mm',
        "markup <span style=\"color:bleu\">: 'bleu' is not a colour: the text keeps its colour; expected a CSS "
        "colour name or #rgb / #rrggbb"]
    assert runs('<span weight="bold" style="italic" underline="single">p</span>') == [
        (0, "", [("p", Style(bold=True, italic=True, underline=True))])]


def test_lists_are_items_with_markers():
    assert runs("<ul>\n<li>one</li>\n<li>two<br>more</li>\n</ul>\nafter") == [
        (1, "•", [("one", Style())]), (1, "•", [("two", Style())]), (1, "", [("more", Style())]),
        (0, "", [("after", Style())])]
    assert runs("<ol start=3><li>a<li>b<ul><li>c</ul></ol>") == [
        (1, "3.", [("a", Style())]), (1, "4.", [("b", Style())]), (2, "◦", [("c", Style())])]
    assert runs("- dash\n• dot\n-2 gold") == [(1, "-", [("dash", Style())]), (1, "•", [("dot", Style())]),
                                             (0, "", [("-2 gold", Style())])]


def test_what_is_outside_the_subset_is_warned_and_its_text_kept():
    parsed = markup.parse("<b><i>x</b></i> </u> <table><tr><td>cell</td></tr></table> &copy 2024 &#0;")
    assert [r.text for p in parsed.paragraphs for r in p.runs] == ["x", "  cell &copy 2024 &#0;"]
    assert parsed.warnings == [
        "entity &copy has no ';': printed as written; expected &copy;",
        "entity &#0; is not a character: printed as written; expected &#NNN; or &#xHHHH; with a code point of a "
        "character",
        "markup </b> comes before the end of <i> (mis-nested tags): <i> ends there too; expected tags closed in the "
        "reverse order they are opened",
        "markup </i> closes no <i>: it is left out; expected each </i> after its <i>",
        "markup </u> closes no <u>: it is left out; expected each </u> after its <u>",
        "unknown markup <table>: the tag is left out, the text inside it printed; expected one of <b>, <i>, <u>, "
        "<br>, <p>, <span>, <font>, <big>, <small>, <ul>, <ol>, <li>, or markup=False to print tags as written",
        "unknown markup <tr>: the tag is left out, the text inside it printed; expected one of <b>, <i>, <u>, "
        "<br>, <p>, <span>, <font>, <big>, <small>, <ul>, <ol>, <li>, or markup=False to print tags as written",
        "unknown markup <td>: the tag is left out, the text inside it printed; expected one of <b>, <i>, <u>, "
        "<br>, <p>, <span>, <font>, <big>, <small>, <ul>, <ol>, <li>, or markup=False to print tags as written"]
    assert markup.parse("x <3 y < z a<b c").paragraphs[0].runs[0].text == "x <3 y < z a<b c"  # no tag there
    assert runs("<b>x</b>", markup=False) == [(0, "", [("<b>x</b>", Style())])]


def test_plain_gives_the_words():
    assert markup.plain(CELL) == 'Attack 3 one two "quoted" red under huge'
    assert markup.plain("**Storm** &amp; *Sea*\n:coin: <br> x") == "Storm & Sea :coin: x"
    assert markup.plain("Fire & Ice") == "Fire & Ice"
    assert [markup.has_markup(t) for t in ("Fire & Ice", "5 * 3", "a < b", "R&amp;D", "*a*", "<b>", "a\\nb")] == [
        False, False, False, True, True, True, True]


def test_reading_is_bounded_by_nesting_and_warnings():
    parsed = markup.parse("<i>" * 40 + "deep" + "</i>" * 40)
    assert [r.text for r in parsed.paragraphs[0].runs] == ["deep"]
    assert parsed.warnings[0] == ("markup nested more than 32 tags deep: <i> and the tags inside it are left out, "
                                  "their text printed; expected fewer nested tags")
    parsed = markup.parse(" ".join(f"&x{n};" for n in range(30)))
    assert len(parsed.warnings) == 21
    assert parsed.warnings[-1] == "and 10 more markup problems in this text; expected the ones above fixed first"
