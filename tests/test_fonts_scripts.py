"""Every script (issue 28): Greek, Cyrillic and Vietnamese print in every shipped face, character by character
along the fallback chain (pnp.render.fonts.chain); CJK prints with a font the design ships; a character no font
has is a warning (U+ code, template line, row) and prints as a white square of its own advance.

Each test builds a small design made in a temporary folder with the command a designer runs, then reads the
PDF: the text (pdfplumber), the font of each character, and the pixels where the glyphs are (pypdfium2)."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest
from clirun import run
from fontTools.ttLib import TTFont

from pnp.render import fonts

MM = 72 / 25.4
BLEED = 3.0  # mm: the default bleed, around every print-shop page
WORDS = "Ωmega Привет Tiếng Việt"
STYLES = [("normal", "normal"), ("bold", "normal"), ("normal", "italic"), ("bold", "italic")]
FAMILIES = ["sans-serif", "serif", "monospace"]
FONT_DIR = Path(fonts.__file__).resolve().parent.parent / "fonts"


def design(tmp_path: Path, rows: list[dict], front: str, rules: str | None = None, fonts_yaml: str = "") -> Path:
    d = tmp_path / "d"
    (d / "templates").mkdir(parents=True, exist_ok=True)
    columns = list(rows[0])
    lines = [",".join(columns)] + [",".join(f'"{r[c]}"' for c in columns) for r in rows]
    (d / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (d / "templates" / "front.svg.j2").write_text(front, encoding="utf-8")
    (d / "design.yaml").write_text(
        "meta: {title: Scripts, players: 2, languages: [en]}\n"
        "print: {paper: a4}\n" + fonts_yaml +
        "components:\n"
        "  cards:\n"
        "    kind: card\n"
        "    size: poker\n"
        "    data: cards.csv\n"
        "    template: front.svg.j2\n", encoding="utf-8")
    if rules is not None:
        (d / "rules.en.md").write_text(rules, encoding="utf-8")
    return d


def build(tmp_path: Path, *more: str):
    exports = [] if "--export" in more else ["--no-exports"]
    result = run(["build", "d", "--out", "out", *exports, "--print-shop", *more], tmp_path)
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 0, result.output
    return result


def warnings_of(result) -> list[str]:
    return [line for line in result.output.splitlines() if ": warning: " in line]


def page_lines(pdf: Path, page: int) -> list[dict]:
    """The text lines of a page (pdfplumber), each with its characters."""
    with pdfplumber.open(pdf) as doc:
        return doc.pages[page].extract_text_lines(return_chars=True)


def render(pdf: Path, page: int, dpi: int = 200):
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return doc[page].render(scale=dpi / 72).to_pil().convert("L")
    finally:
        doc.close()


def ink(image, chars: list[dict], dpi: int = 200) -> float:
    """The share of dark pixels in the box of these characters (PDF points, top-down as pdfplumber gives them)."""
    k = dpi / 72
    x0, x1 = min(c["x0"] for c in chars) * k, max(c["x1"] for c in chars) * k
    top, bottom = min(c["top"] for c in chars) * k, max(c["bottom"] for c in chars) * k
    box = image.crop((int(x0), int(top), int(x1) + 1, int(bottom) + 1))
    dark = sum(box.histogram()[:128])
    return dark / max(1, box.width * box.height)


def words_of(line: dict) -> list[list[dict]]:
    """A line's characters grouped into words (split at spaces)."""
    out: list[list[dict]] = [[]]
    for c in line["chars"]:
        if c["text"] == " ":
            out.append([])
        else:
            out[-1].append(c)
    return [w for w in out if w]


# --- the shipped files ----------------------------------------------------------------------------------------

def test_coverage_json_is_what_the_font_files_hold():
    coverage = json.loads((FONT_DIR / "coverage.json").read_text(encoding="utf-8"))
    assert len(coverage["files"]) == 24 and set(coverage["files"]) == set(fonts.FILES)
    cmaps = {name: set(TTFont(str(path)).getBestCmap()) for name, path in fonts.FILES.items()}
    for name, cmap in cmaps.items():
        assert {c for lo, hi in coverage["files"][name] for c in range(lo, hi + 1)} == cmap, name
    for base, ext in fonts.EXT.items():  # an extended face adds characters, never the Latin face's own
        assert not cmaps[base] & cmaps[ext], base
    every = {c for lo, hi in coverage["every_chain"] for c in range(lo, hi + 1)}
    for slot in range(4):  # what every chain has: in each style, one of the families' two files has it
        assert every <= set().union(*(cmaps[f[slot]] | cmaps[fonts.EXT[f[slot]]] for f in fonts.FAMILIES.values()))
    assert set(LETTERS["Greek"] + LETTERS["Cyrillic"] + LETTERS["Vietnamese"]) <= {chr(c) for c in every}


LETTERS = {
    "Greek": "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩαβγδεζηθικλμνξοπρςστυφχψωάέήίόύώΐΰϊϋ",
    "Cyrillic": "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюяІіЇїЄєҐґЎў",
    "Vietnamese": "ĂăÂâĐđÊêÔôƠơƯưẠạẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợỤụỦủỨứỪừỬửỮữỰựỲỳỴỵỶỷỸỹ",
}


@pytest.mark.parametrize("script", list(LETTERS))
@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("weight, style", STYLES)
def test_every_face_chain_draws_greek_cyrillic_and_vietnamese(family, weight, style, script):
    chain = fonts.chain(family, weight, style)
    runs, missing = fonts.split(LETTERS[script], chain)
    assert missing == ()
    own = fonts.FAMILIES[fonts.family_of(family)][fonts._slot(weight, style)]
    used = {name for name, _ in runs}
    assert used <= {own, fonts.EXT[own]} | ({fonts.EXT[fonts.FAMILIES["DejaVu Sans"][fonts._slot(weight, style)]]}
                                            if family == "monospace" and script == "Vietnamese" else set())


# --- template text and text boxes ---------------------------------------------------------------------------------

def scripts_front() -> str:
    """Row `text`: the words in a <text> of each family and style; row `box`: in a text box of each."""
    lines = ['{% if kind == "text" %}']
    n = 0
    for family in FAMILIES:
        for weight, style in STYLES:
            lines.append(f'<text x="2" y="{5 + n * 6.5}" font-family="{family}" font-weight="{weight}" '
                         f'font-style="{style}" font-size="3.5">T{n} {{{{ word }}}}</text>')
            n += 1
    lines.append("{% else %}")
    n = 0
    for family in FAMILIES:
        for weight, style in STYLES:
            lines.append(f'{{{{ textbox("B{n} " ~ word, x=2, y={2 + n * 6.5}, width=60, size=3, '
                         f'family="{family}", weight="{weight}", style="{style}") }}}}')
            n += 1
    lines.append("{% endif %}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def scripts_build(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("scripts")
    rules = ("# Scripts\n\nGreek: **Ωmega** and *Ελληνικά*, ξεσκεπάζω την ψυχοφθόρα βδελυγμία.\n\n"
             "Cyrillic: **Привет**, *Съешь же ещё этих мягких булок*, да выпей чаю.\n\n"
             "Vietnamese: ***Tiếng Việt*** có dấu: ế ệ ở ữ ặ đ.\n")
    design(tmp, [{"kind": "text", "word": WORDS}, {"kind": "box", "word": WORDS}], scripts_front(), rules)
    result = build(tmp)
    return tmp, result


@pytest.mark.parametrize("page, tag", [(0, "T"), (1, "B")])
def test_greek_cyrillic_vietnamese_print_in_every_family_and_style(scripts_build, page, tag):
    tmp, result = scripts_build
    assert warnings_of(result) == []
    pdf = tmp / "out" / "d" / "d-print-shop.pdf"
    lines = [ln for ln in page_lines(pdf, page) if ln["text"].startswith(tag)]
    assert [ln["text"] for ln in lines] == [f"{tag}{n} {WORDS}" for n in range(12)]
    image = render(pdf, page)
    for n, line in enumerate(lines):
        family = FAMILIES[n // 4]
        weight, style = STYLES[n % 4]
        own = fonts.FAMILIES[fonts.family_of(family)][fonts._slot(weight, style)]
        for word in words_of(line)[1:]:  # Ωmega, Привет, Tiếng, Việt: each visibly drawn
            assert ink(image, word) > 0.08, (line["text"], "".join(c["text"] for c in word))
        greek = next(c for c in line["chars"] if c["text"] == "Ω")
        assert greek["fontname"].split("+")[-1] == fonts.EXT[own]  # the face's own extended file, same style
        assert ink(image, [greek]) > 0.08
        latin = next(c for c in line["chars"] if c["text"] == "m")
        assert latin["fontname"].split("+")[-1] == own


def test_vietnamese_diacritics_are_drawn_above_and_below_their_letters(scripts_build):
    """ế and ệ: precomposed letters of the extended face, their marks inside the letter's own box."""
    tmp, _ = scripts_build
    pdf = tmp / "out" / "d" / "d-print-shop.pdf"
    line = next(ln for ln in page_lines(pdf, 0) if ln["text"].startswith("T0 "))
    image = render(pdf, 0)
    k = 200 / 72
    e_plain = next(c for c in line["chars"] if c["text"] == "e")  # "mega"
    for letter, where in (("ế", "above"), ("ệ", "below")):
        c = next(c for c in line["chars"] if c["text"] == letter)
        x0, x1 = int(c["x0"] * k), int(c["x1"] * k) + 1
        col = [y for y in range(int(c["top"] * k) - 20, int(c["bottom"] * k) + 20)
               if any(image.getpixel((x, y)) < 128 for x in range(x0, x1))]
        plain = [y for y in range(int(e_plain["top"] * k) - 20, int(e_plain["bottom"] * k) + 20)
                 if any(image.getpixel((x, y)) < 128 for x in range(int(e_plain["x0"] * k), int(e_plain["x1"] * k)))]
        if where == "above":
            assert min(col) < min(plain) - 5  # the circumflex and acute stand over the e
        else:
            assert max(col) > max(plain) + 3  # the dot under it


def test_a_text_box_measures_a_mixed_latin_greek_line_with_each_fonts_widths(scripts_build):
    """Right-aligned, a line ends at the box's edge only if its Greek letters were measured with the widths of
    the extended face that draws them."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from pnp.render.textbox import textbox

    text = "Alpha ΩΨΦλ beta"
    svg = str(textbox(text, x=0, y=0, width=60, size=4, align="right"))
    fonts.ensure("DejaVuSansExt")
    want = (stringWidth("Alpha ", "DejaVuSans", 4) + stringWidth("ΩΨΦλ", "DejaVuSansExt", 4)
            + stringWidth(" beta", "DejaVuSans", 4))
    from reportlab.pdfbase.pdfmetrics import getFont
    from reportlab.pdfbase.ttfonts import TTFont

    notdef = TTFont.stringWidth(getFont("DejaVuSans"), text, 4)  # what the Latin file alone measures
    assert abs(want - notdef) > 0.5
    x = float(svg.split(' x="', 1)[1].split('"', 1)[0])
    assert abs(x - (60 - want)) < 0.002, (x, 60 - want, 60 - notdef)
    # and in a build's PDF the characters sit where those widths put them
    tmp, _ = scripts_build
    pdf = tmp / "out" / "d" / "d-print-shop.pdf"
    line = next(ln for ln in page_lines(pdf, 1) if ln["text"].startswith("B0 "))
    chars = line["chars"]
    start = chars[0]["x0"] / MM - BLEED
    end = chars[-1]["x1"] / MM - BLEED
    full = TTFont.stringWidth(getFont("DejaVuSans"), "B0 mega  Ti ng Vi t", 3)
    assert end - start > full  # the Greek and Cyrillic are there, with widths
    assert abs((end - start) - _width("B0 " + WORDS, "DejaVu Sans", 3)) < 0.05


def _width(text: str, family: str, size: float) -> float:
    runs, _ = fonts.split(text, fonts.chain(family))
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return sum(stringWidth(piece, font, size) for font, piece in runs)


def test_a_rulebook_prints_greek_cyrillic_and_vietnamese_in_its_bold_and_italic(scripts_build):
    tmp, _ = scripts_build
    pdf = tmp / "out" / "d" / "d-rules-en-a4.pdf"
    with pdfplumber.open(pdf) as doc:
        page = next(i for i, p in enumerate(doc.pages) if "Greek:" in (p.extract_text() or ""))
        text = doc.pages[page].extract_text()
    assert "Greek: Ωmega and Ελληνικά, ξεσκεπάζω την ψυχοφθόρα βδελυγμία." in text
    assert "Cyrillic: Привет, Съешь же ещё этих мягких булок, да выпей чаю." in text
    assert "Vietnamese: Tiếng Việt có dấu: ế ệ ở ữ ặ đ." in text
    lines = page_lines(pdf, page)
    image = render(pdf, page)
    for prefix, want in (("Greek:", {"Ωmega": "DejaVuSansExt-Bold", "Ελληνικά,": "DejaVuSansExt-Oblique"}),
                         ("Cyrillic:", {"Привет,": "DejaVuSansExt-Bold", "Съешь": "DejaVuSansExt-Oblique",
                                        "чаю.": "DejaVuSansExt"}),
                         ("Vietnamese:", {"Tiếng": "DejaVuSansExt-BoldOblique", "dấu:": "DejaVuSansExt"})):
        line = next(ln for ln in lines if ln["text"].startswith(prefix))
        for word in words_of(line)[1:]:
            assert ink(image, word) > 0.08, "".join(c["text"] for c in word)
        for word in words_of(line):
            spelt = "".join(c["text"] for c in word)
            if spelt in want:
                assert want[spelt] in {c["fontname"].split("+")[-1] for c in word}, spelt


# --- what no font has ---------------------------------------------------------------------------------------------

MISSING_FRONT = """<text x="3" y="10" font-size="4">{{ word }} end</text>
<text x="3" y="20" font-size="4" font-family="serif">Lit 中 here</text>
{{ textbox(word, x=3, y=30, width=50, size=4) }}
"""


def test_a_character_no_font_has_is_a_warning_and_prints_as_a_box(tmp_path):
    design(tmp_path, [{"word": "Ab中cd"}, {"word": "No gap"}, {"word": "Ef中中"}], MISSING_FRONT,
           rules="# Rules\n\nPlain.\n\nCJK 日 here.\n")
    result = build(tmp_path)
    said = ('no font has U+4E2D "中": printed as a white square (□); expected a font that has it in the '
            "design's fonts: section (docs/design-format.md, \"Fonts and scripts\")")
    assert warnings_of(result) == [  # the text box's (while it measures), then the face's other <text>s
        f"d/templates/front.svg.j2:3: warning: {said} (2 rows: d/cards.csv:2, d/cards.csv:4)",
        f"d/templates/front.svg.j2:1: warning: {said} (2 rows: d/cards.csv:2, d/cards.csv:4)",
        f"d/templates/front.svg.j2:2: warning: {said} (3 rows: d/cards.csv:2, d/cards.csv:3, d/cards.csv:4)",
        "d/rules.en.md:5: warning: " + said.replace("U+4E2D \"中\"", "U+65E5 \"日\""),
    ]
    pdf = tmp_path / "out" / "d" / "d-print-shop.pdf"
    image = render(pdf, 0)
    from reportlab.pdfbase.pdfmetrics import stringWidth

    lines = page_lines(pdf, 0)
    assert [ln["text"] for ln in lines] == ["Ab□cd end", "Lit □ here", "Ab□cd"]
    for line in lines:
        box = next(c for c in line["chars"] if c["text"] == "□")
        assert ink(image, [box]) > 0.05  # visible
        width = stringWidth("□", box["fontname"].split("+")[-1], 4)
        assert abs((box["x1"] - box["x0"]) / MM - width) < 0.01  # its own advance
        if line["text"].startswith("Ab"):
            after = line["chars"][line["chars"].index(box) + 1]  # "c" follows the box at that advance
            assert after["text"] == "c" and abs((after["x0"] - box["x0"]) / MM - width) < 0.01
    # a rebuild from the cache warns again
    again = build(tmp_path)
    assert warnings_of(again)[:3] == warnings_of(result)[:3]


# --- CJK from a font the design ships -----------------------------------------------------------------------------

CJK = "日本語中文"


def make_cjk_font(path: Path) -> None:
    """A TrueType font of five CJK glyphs, each a full-width (1 em) square with a bar, and a space."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    names = [".notdef", "space"] + [f"uni{ord(c):04X}" for c in CJK]
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({32: "space", **{ord(c): f"uni{ord(c):04X}" for c in CJK}})

    def ring(bar: int):  # a black square with a white bar (its contour wound the other way) at a height of its own
        pen = TTGlyphPen(None)
        for (x0, y0, x1, y1), hole in (((80, -40, 920, 800), False), ((200, 80 + bar, 800, 200 + bar), True)):
            corners = [(x0, y0), (x0, y1), (x1, y1), (x1, y0)]
            for i, point in enumerate(corners[::-1] if hole else corners):
                (pen.lineTo if i else pen.moveTo)(point)
            pen.closePath()
        return pen.glyph()

    empty = TTGlyphPen(None).glyph()
    fb.setupGlyf({".notdef": empty, "space": empty, **{f"uni{ord(c):04X}": ring(i * 100) for i, c in enumerate(CJK)}})
    fb.setupHorizontalMetrics({".notdef": (500, 0), "space": (500, 0), **{f"uni{ord(c):04X}": (1000, 80)
                                                                          for c in CJK}})
    fb.setupHorizontalHeader(ascent=880, descent=-120)
    fb.setupNameTable({"familyName": "Pnp Test CJK", "styleName": "Regular", "psName": "PnpTestCJK-Regular"})
    fb.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120, fsType=0)
    fb.setupPost()
    fb.save(str(path))


def test_cjk_prints_with_a_font_the_design_ships_even_in_the_default_family(tmp_path):
    front = ('<text x="3" y="10" font-size="5">Title {{ word }}</text>\n'
             '{{ textbox(word ~ word, x=3, y=20, width=21, size=5) }}\n')
    d = design(tmp_path, [{"word": CJK}], front, rules=f"# Rules\n\nIn CJK: {CJK}.\n",
               fonts_yaml="fonts:\n  Test CJK:\n    regular: fonts/cjk.ttf\n")
    (d / "fonts").mkdir()
    make_cjk_font(d / "fonts" / "cjk.ttf")
    result = build(tmp_path, "--export", "png")
    assert warnings_of(result) == []
    pdf = tmp_path / "out" / "d" / "d-print-shop.pdf"
    lines = page_lines(pdf, 0)
    image = render(pdf, 0)
    from PIL import Image

    png = Image.open(tmp_path / "out" / "d" / "png" / "cards-1.png").convert("L")  # the face at 300 dpi, bleed in
    assert png.size == (round(69.5 / 25.4 * 300), round(94.9 / 25.4 * 300))  # poker 63.5 x 88.9 mm, 3 mm of bleed
    # the text box broke the ten full-width characters by the font's widths: 4 of 5 mm in 21 mm a line
    assert [ln["text"] for ln in lines] == [f"Title {CJK}", CJK[:4], CJK[4:] + CJK[:3], CJK[3:]]
    for line in lines:
        cjk = [c for c in line["chars"] if c["text"] in CJK]
        assert {c["fontname"].split("+")[-1] for c in cjk} == {"PnpTestCJK-Regular"}
        for c in cjk:
            assert abs((c["x1"] - c["x0"]) / MM - 5) < 0.01  # 1 em at 5 mm
            assert ink(image, [c]) > 0.2  # the glyph is drawn, in the PDF and in the PNG made from it
            assert ink(png, [c], dpi=300) > 0.2
    # the rulebook, set in DejaVu Sans, takes the CJK from the design's font too
    with pdfplumber.open(tmp_path / "out" / "d" / "d-rules-en-a4.pdf") as doc:
        text = "\n".join(p.extract_text() or "" for p in doc.pages)
        names = {c["fontname"].split("+")[-1] for p in doc.pages for c in p.chars if c["text"] in CJK}
    assert f"In CJK: {CJK}." in text and names == {"PnpTestCJK-Regular"}


def test_a_ready_svg_face_warns_at_its_own_line(tmp_path):
    d = tmp_path / "d"
    d.mkdir()
    (d / "face.svg").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">\n'
        '<rect width="63" height="88" fill="#ffffff"/>\n'
        '<text x="5" y="10" font-size="5">Ωmega Привет</text>\n'
        '<text x="5" y="20" font-size="5">Emoji 😀 here</text>\n'
        "</svg>\n", encoding="utf-8")
    (d / "fonts").mkdir()
    make_cjk_font(d / "fonts" / "cjk.ttf")  # the design's fonts: add their <style> at the top of the face
    (d / "design.yaml").write_text(
        "meta: {title: Ready, players: 2}\nprint: {paper: a4}\n"
        "fonts:\n  Test CJK:\n    regular: fonts/cjk.ttf\n"
        "components:\n  card:\n    kind: card\n    size: poker\n    svg: face.svg\n", encoding="utf-8")
    result = build(tmp_path)
    assert warnings_of(result) == [
        'd/face.svg:5: warning: no font has U+1F600 "😀": printed as a white square (□); expected a font that has '
        "it in the design's fonts: section (docs/design-format.md, \"Fonts and scripts\")"]
    lines = page_lines(tmp_path / "out" / "d" / "d-print-shop.pdf", 0)
    assert [ln["text"] for ln in lines] == ["Ωmega Привет", "Emoji □ here"]
    assert warnings_of(build(tmp_path)) == warnings_of(result)  # from the cache too


@pytest.mark.parametrize("anchor", ["start", "middle", "end"])
@pytest.mark.parametrize("tspan", [False, True])
def test_svg_text_anchors_and_runs_use_each_characters_font(anchor, tspan):
    """A <text> mixing Latin and Greek becomes one text operation per font, each starting where the runs before
    it end (their fonts' widths plus the letter spacing), the whole anchored by its width."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from pnp.render.svgpdf import compile_svg

    body = "Ab<tspan>ΩΨ</tspan>cd" if tspan else "AbΩΨcd"
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20"><text x="50" y="10" font-size="10" '
           f'letter-spacing="0.5" text-anchor="{anchor}">{body}</text></svg>')
    compiled = compile_svg(svg)
    runs = [(op[1], float(op[3]), op[5]) for op in compiled.ops if op[0] == "text"]  # font, x, characters
    assert [(font, text) for font, _, text in runs] == [("DejaVuSans", "Ab"), ("DejaVuSansExt", "ΩΨ"),
                                                         ("DejaVuSans", "cd")]
    widths = [stringWidth(text, font, 10) + 0.5 * len(text) for font, _, text in runs]
    for (_, x, _), (_, nxt, _), w in zip(runs, runs[1:], widths):
        assert abs(nxt - (x + w)) < 1e-3
    total = sum(widths) - 0.5  # no spacing after the last character
    start = {"start": 50, "middle": 50 - total / 2, "end": 50 - total}[anchor]
    assert abs(runs[0][1] - start) < 1e-3
    assert compiled.missing == () and compiled.warnings == ()


def test_a_title_in_a_script_only_the_design_font_has_prints_in_the_footer_or_warns(tmp_path):
    d = design(tmp_path, [{"word": "A"}], '<text x="3" y="10" font-size="5">{{ word }}</text>\n')
    text = (d / "design.yaml").read_text(encoding="utf-8").replace("title: Scripts", f"title: {CJK}")
    (d / "design.yaml").write_text(text, encoding="utf-8")
    result = build(tmp_path)  # no font has the title's characters: a warning at its line, squares printed
    shown = ", ".join(f'U+{ord(c):04X} "{c}"' for c in CJK)
    assert warnings_of(result) == [
        f"d/design.yaml:1: warning: meta.title: no font has {shown}, which pnp prints as a white square (the "
        "sheets' footers, the kit, the rulebook's title page); expected a font of the design that has it (fonts:)"]
    footer = page_lines(tmp_path / "out" / "d" / "d-a4.pdf", 0)[-1]["text"]
    assert footer.startswith("□□□□□ sheet 1 of 1")
    (d / "fonts").mkdir()
    make_cjk_font(d / "fonts" / "cjk.ttf")
    (d / "design.yaml").write_text(text.replace("components:", "fonts:\n  Test CJK:\n    regular: fonts/cjk.ttf\n"
                                                "components:"), encoding="utf-8")
    result = build(tmp_path)
    assert warnings_of(result) == []
    lines = page_lines(tmp_path / "out" / "d" / "d-a4.pdf", 0)
    footer = lines[-1]
    assert footer["text"].startswith(f"{CJK} sheet 1 of 1")
    assert {c["fontname"].split("+")[-1] for c in footer["chars"] if c["text"] in CJK} == {"PnpTestCJK-Regular"}
