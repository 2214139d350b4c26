"""A designer's own deck (issue 15): text boxes, backs per row, spreadsheet tables, template errors once.

Each test makes a small design in a temporary folder, builds it with the command a user runs,
and measures what was written: the SVG text, the PDF (pdfplumber: words, sizes, rectangles).
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pdfplumber
import pytest
from clirun import run
from lxml import etree

from pnp.limits import LIMITS, Limit

MM = 72 / 25.4
SVG_NS = "{http://www.w3.org/2000/svg}"


def design(tmp_path: Path, table: str | None, front: str, back: str | None = None, extra: str = "",
           data: str = "cards.csv", component: str = "") -> Path:
    d = tmp_path / "d"
    (d / "templates").mkdir(parents=True)
    if table is not None:
        (d / data).write_text(table, encoding="utf-8")
    (d / "templates" / "front.svg.j2").write_text(front, encoding="utf-8")
    back_yaml = ""
    if back is not None:
        (d / "templates" / "back.svg.j2").write_text(back, encoding="utf-8")
        back_yaml = "    back: {template: back.svg.j2}\n"
    (d / "design.yaml").write_text(
        "meta: {title: Deck, players: 2}\n"
        f"print: {{paper: a4{extra}}}\n"
        "components:\n"
        "  cards:\n"
        "    kind: card\n"
        "    size: poker\n"
        f"    data: {data}\n"
        "    template: front.svg.j2\n"
        + back_yaml + component, encoding="utf-8")
    return d


def build(tmp_path: Path, *more: str):
    result = run(["build", "d", "--out", "out", "--no-exports", *more], tmp_path)
    assert "Traceback" not in result.output, result.output
    return result


# --- text boxes -------------------------------------------------------------------------------------------------

BOX = dict(x=6, y=40, w=51, h=30)
BOX_RECT = f'<rect x="{BOX["x"]}" y="{BOX["y"]}" width="{BOX["w"]}" height="{BOX["h"]}" fill="none" stroke="#ff00ff" ' \
           'stroke-width="0.1"/>\n'


def textbox_front(**kw: str) -> str:
    args = ", ".join(f"{k}={v}" for k, v in kw.items())
    box = f"x={BOX['x']}, y={BOX['y']}, width={BOX['w']}, height={BOX['h']}"
    return BOX_RECT + "{{ textbox(text, " + box + (", " + args if args else "") + ") }}\n"


def svg_lines(svg: str) -> tuple[list[str], float]:
    """The lines of the text box in a face's SVG (words joined by one space) and its font size."""
    root = etree.fromstring(svg.encode("utf-8"))
    text = [t for t in root.iter(f"{SVG_NS}text") if t.get("font-family")][-1]
    lines: dict[float, list] = {}
    for ts in text.iter(f"{SVG_NS}tspan"):
        if ts.get("y") is not None:
            current = lines.setdefault(float(ts.get("y")), [])
            current.append(" ")
        current.append(ts.text or "")
    return [" ".join("".join(parts).split()) for _, parts in sorted(lines.items())], float(text.get("font-size"))


def pdf_lines(pdf: Path, page: int = 0) -> tuple[list[str], list[dict]]:
    """The lines of text of a print-shop page (one face at trim + bleed), and its characters."""
    with pdfplumber.open(pdf) as doc:
        p = doc.pages[page]
        words = p.extract_words(x_tolerance=0.8, y_tolerance=1)
        chars = list(p.chars)
    rows: dict[int, list] = {}
    for w in words:
        rows.setdefault(round(w["bottom"] * 4), []).append(w)
    lines = [" ".join(w["text"] for w in sorted(ws, key=lambda w: w["x0"])) for _, ws in sorted(rows.items())]
    return lines, chars


RULES = ("Deal **2** damage to a target and *freeze* it until the end of its next turn. Then draw a card, "
         "or discard one and gain **three** gold if you control a water card. <b>Escaped</b> & kept as text.")


@pytest.mark.parametrize("align", ["left", "center", "right", "justify"])
def test_text_box_lines_are_the_same_in_svg_and_pdf_and_inside_the_box(tmp_path, align):
    table = f'text\n"{RULES}"\n'
    design(tmp_path, table, textbox_front(size=3, align=f"'{align}'", valign="'middle'"))
    result = build(tmp_path, "--print-shop")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    svg = (tmp_path / "out" / "d" / "svg" / "cards-1.svg").read_text()
    lines, size = svg_lines(svg)
    assert size == 3 and len(lines) >= 4
    assert "Escaped & kept as text." in " ".join(lines)  # the cell's <b> is markup (bold), its & a character
    plines, chars = pdf_lines(tmp_path / "out" / "d" / "d-print-shop.pdf")
    assert plines == lines
    bleed = 3.0
    inside = [c for c in chars if c["text"].strip()]
    left = min(c["x0"] for c in inside) / MM - bleed
    right = max(c["x1"] for c in inside) / MM - bleed
    assert left >= BOX["x"] - 0.01 and right <= BOX["x"] + BOX["w"] + 0.01
    assert min(c["top"] for c in inside) / MM - bleed >= BOX["y"] - 0.01
    assert max(c["bottom"] for c in inside) / MM - bleed <= BOX["y"] + BOX["h"] + 0.01
    sizes = {round(c["size"] / MM, 3) for c in inside}
    assert sizes == {3}
    if align == "left":
        assert abs(left - BOX["x"]) < 0.05
    if align in ("right", "justify"):
        assert abs(right - (BOX["x"] + BOX["w"])) < 0.2
    if align == "center":
        assert abs((left + right) / 2 - (BOX["x"] + BOX["w"] / 2)) < 1.0
    bold = {c["text"] for c in inside if "Bold" in c["fontname"]}
    assert bold == set("2three") | set("Escaped")


def test_a_long_text_shrinks_to_fit_and_a_longer_one_overflows_with_a_warning(tmp_path):
    long = " ".join(["Shrink"] * 60)
    longer = " ".join(["Overflow"] * 400)
    table = f'text,count\n"{long}",1\nshort,1\n"{longer}",1\n'
    design(tmp_path, table, "\n\n" + textbox_front(size=5, min_size=2))
    result = build(tmp_path, "--print-shop")
    assert result.exit_code == 0, result.output
    svgs = tmp_path / "out" / "d" / "svg"
    lines, size = svg_lines((svgs / "cards-1.svg").read_text())
    assert 2 <= size < 5  # shrunk, and as large as fits: a little larger overflows
    assert svg_lines((svgs / "cards-2.svg").read_text())[1] == 5
    assert svg_lines((svgs / "cards-3.svg").read_text())[1] == 2
    plines, chars = pdf_lines(tmp_path / "out" / "d" / "d-print-shop.pdf")
    assert plines == lines
    assert max(c["bottom"] for c in chars if c["text"].strip()) / MM - 3 <= BOX["y"] + BOX["h"] + 0.01
    warnings = [ln for ln in result.output.splitlines() if "warning" in ln]
    assert len(warnings) == 1, result.output
    assert warnings[0].startswith("d/templates/front.svg.j2:4: warning: text box overflows: \"Overflow Overflow")
    assert "at size 2 need" in warnings[0] and "the box is 30 mm high" in warnings[0]
    assert warnings[0].endswith("(row d/cards.csv:4)")
    again = build(tmp_path, "--print-shop")  # every face from the cache: the warning is still reported
    assert [ln for ln in again.output.splitlines() if "warning" in ln] == warnings


def test_bold_italic_line_breaks_and_icons_flow_with_the_words(tmp_path):
    table = 'text\n"Gain :coin: now.\\nThen **bold** *it*:coin:"\n'
    d = design(tmp_path, table, textbox_front(size=4))
    (d / "icons").mkdir()
    (d / "icons" / "coin.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                          '<rect x="0" y="0" width="10" height="10" fill="#00ff00"/></svg>')
    result = build(tmp_path, "--print-shop")
    assert result.exit_code == 0, result.output
    svg = (tmp_path / "out" / "d" / "svg" / "cards-1.svg").read_text()
    lines, _ = svg_lines(svg)
    assert lines == ["Gain now.", "Then bold it"]  # a line break where the cell says \n
    root = etree.fromstring(svg.encode())
    icons = [e for e in root.iter(f"{SVG_NS}svg") if e.get("viewBox") == "0 0 10 10"]
    assert len(icons) == 2 and all(float(e.get("width")) == float(e.get("height")) == 4 for e in icons)
    with pdfplumber.open(tmp_path / "out" / "d" / "d-print-shop.pdf") as doc:
        page = doc.pages[0]
        green = [r for r in page.rects if r["non_stroking_color"] in ((0, 1, 0), [0, 1, 0], (0.0, 1.0, 0.0))]
        words = page.extract_words(x_tolerance=0.8)
    assert len(green) == 2
    gain = next(w for w in words if w["text"] == "Gain")
    now = next(w for w in words if w["text"] == "now.")
    first = min(green, key=lambda r: r["top"])
    assert gain["x1"] < first["x0"] < first["x1"] < now["x0"]  # the icon stands between the words
    assert abs(first["width"] / MM - 4) < 0.01
    assert {w["text"] for w in words} >= {"Gain", "now.", "Then", "bold", "it"}
    with pdfplumber.open(tmp_path / "out" / "d" / "d-print-shop.pdf") as doc:
        fonts = {c["text"]: c["fontname"] for c in doc.pages[0].chars}
    assert "Bold" in fonts["b"] and "Oblique" in fonts["t"] and "Bold" not in fonts["G"]


def test_a_missing_icon_is_a_warning_and_stays_text(tmp_path):
    design(tmp_path, 'text\n"Take :sword:"\n', textbox_front())
    result = build(tmp_path)
    assert result.exit_code == 0
    assert ("d/templates/front.svg.j2:2: warning: icon :sword: not found: no icons/sword.svg or .png in the "
            "design folder") in result.output
    assert "<tspan> :sword:</tspan>" in (tmp_path / "out" / "d" / "svg" / "cards-1.svg").read_text()


def test_wrong_text_box_arguments_are_file_line_messages(tmp_path):
    design(tmp_path, "text\nx\ny\n", "\n" + textbox_front(align="'middle'"))
    result = build(tmp_path)
    assert result.exit_code == 2
    assert result.output == ("d/templates/front.svg.j2:3: textbox align='middle' (filling 2 rows: d/cards.csv:2, "
                             "d/cards.csv:3); expected one of left, center, right, justify\n")


def test_text_box_work_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setitem(LIMITS, "textbox_chars", Limit(100, "characters", "test"))
    design(tmp_path, "text\n" + "x" * 101 + "\n", textbox_front())
    result = build(tmp_path)
    assert result.exit_code == 2
    assert result.output.startswith("d/templates/front.svg.j2:2: a text box of 101 characters; expected at most 100 "
                                    "characters")


# --- backs per row -------------------------------------------------------------------------------------------------

TYPES = {"hero": ((1, 0, 0), (0, 0, 1)), "villain": ((1, 1, 0), (0, 1, 0)), "item": ((1, 0, 1), (0, 1, 1))}


def _hex(c) -> str:
    return "#" + "".join(f"{int(v * 255):02x}" for v in c)


def per_row_backs(tmp_path: Path, extra: str = "", kind: str = "card", shape: str = "") -> Path:
    rows = ["title,type,count"] + [f"c{i},{t},{1 + i % 2}" for i, t in enumerate(
        ["hero", "villain", "hero", "item", "villain", "item", "hero", "hero", "villain", "item", "hero"])]
    fronts = "{{ {" + ", ".join(f"'{t}': '{_hex(f)}'" for t, (f, _) in TYPES.items()) + "}[type] }}"
    backs = "{{ {" + ", ".join(f"'{t}': '{_hex(b)}'" for t, (_, b) in TYPES.items()) + "}[type] }}"
    d = design(tmp_path, "\n".join(rows) + "\n",
               f'<rect x="0" y="0" width="{{{{ width }}}}" height="{{{{ height }}}}" fill="{fronts}"/>\n',
               f'<rect x="0" y="0" width="{{{{ width }}}}" height="{{{{ height }}}}" fill="{backs}"/>\n', extra=extra,
               component="    bleed: 0mm\n" + shape)
    if kind != "card":
        text = (d / "design.yaml").read_text().replace("kind: card", f"kind: {kind}").replace(
            "size: poker", "size: {width: 20mm, height: 20mm}")
        (d / "design.yaml").write_text(text)
    return d


def _rects(page) -> list[tuple[str, tuple[float, float, float, float]]]:
    """(type side, box in pt) of every coloured rectangle or circle of a page."""
    out = []
    for obj in page.rects + page.curves:
        colour = tuple(float(v) for v in (obj.get("non_stroking_color") or ()))
        if not obj.get("fill"):
            continue
        for t, (f, b) in TYPES.items():
            for side, c in (("front", f), ("back", b)):
                if colour == tuple(float(v) for v in c):
                    out.append((f"{t} {side}", (obj["x0"], obj["top"], obj["x1"], obj["bottom"])))
    return out


def _pairs(fronts, backs, mirror) -> None:
    """Each front's box, mirrored, holds the back of the same type (to 0.01 mm)."""
    assert len(fronts) == len(backs) > 0
    for name, box in fronts:
        want = mirror(box)
        match = [n for n, b in backs if all(abs(p - q) < 0.01 * MM for p, q in zip(b, want))]
        assert match == [name.replace("front", "back")], (name, box, want)


@pytest.mark.parametrize("duplex", ["long", "short", "none"])
def test_backs_per_row_line_up_with_their_fronts(tmp_path, duplex):
    per_row_backs(tmp_path, extra=f", duplex: {duplex}")
    result = build(tmp_path)
    assert result.exit_code == 0, result.output
    svgs = sorted(p.name for p in (tmp_path / "out" / "d" / "svg").iterdir())
    assert [s for s in svgs if "back" in s] == ["cards-back-hero.svg", "cards-back-item.svg", "cards-back-villain.svg"]
    with pdfplumber.open(tmp_path / "out" / "d" / "d-a4.pdf") as doc:
        pages = [(p.width, p.height, _rects(p)) for p in doc.pages]
    fronts = [pg for pg in pages if pg[2] and all(n.endswith("front") for n, _ in pg[2])]
    backs = [pg for pg in pages if pg[2] and all(n.endswith("back") for n, _ in pg[2])]
    # 16 copies: 8 a sheet (trade poker, crop marks inside the 6.35 mm margin); 6 with a short-edge flip, whose
    # block stays centred on the whole sheet, so the footer's band is kept at the top too
    assert len(fronts) == len(backs) == (3 if duplex == "short" else 2)
    for (w, h, f), (_, _, b) in zip(fronts, backs):
        if duplex == "short":
            _pairs(f, b, lambda r: (r[0], h - r[3], r[2], h - r[1]))
        else:
            _pairs(f, b, lambda r: (w - r[2], r[1], w - r[0], r[3]))
    assert sum(1 for pg in fronts for n, _ in pg[2] if n.startswith("hero")) == 6  # every copy printed


def _fold_pairs(f, b) -> None:
    """Fronts and backs on one sheet: some one fold line (vertical or horizontal) mirrors every front onto the
    back of its own type."""
    first = f[0][1]
    candidates = []
    for _, box in b:
        if abs(box[1] - first[1]) < 0.01 and abs(box[3] - first[3]) < 0.01:
            axis = first[0] + box[2]
            candidates.append(lambda r, a=axis: (a - r[2], r[1], a - r[0], r[3]))
        if abs(box[0] - first[0]) < 0.01 and abs(box[2] - first[2]) < 0.01:
            axis = first[1] + box[3]
            candidates.append(lambda r, a=axis: (r[0], a - r[3], r[2], a - r[1]))
    for mirror in candidates:
        try:
            _pairs(f, b, mirror)
            return
        except AssertionError:
            continue
    raise AssertionError("no fold line mirrors every front onto its back")


def test_backs_per_row_line_up_in_gutter_fold(tmp_path):
    per_row_backs(tmp_path, extra=", duplex: fold")
    assert build(tmp_path).exit_code == 0
    with pdfplumber.open(tmp_path / "out" / "d" / "d-a4.pdf") as doc:
        pages = [_rects(p) for p in doc.pages]
    total = 0
    for rects in pages:
        f = [r for r in rects if r[0].endswith("front")]
        b = [r for r in rects if r[0].endswith("back")]
        if f:
            _fold_pairs(f, b)
            total += len(f)
    assert total == 16


@pytest.mark.parametrize("duplex", ["long", "fold"])
def test_round_tokens_are_double_sided_with_backs_per_row(tmp_path, duplex):
    per_row_backs(tmp_path, extra=f", duplex: {duplex}", kind="token", shape="    shape: circle\n")
    d = tmp_path / "d"
    for name in ("front", "back"):
        path = d / "templates" / f"{name}.svg.j2"
        path.write_text(path.read_text().replace('<rect x="0" y="0" width="{{ width }}" height="{{ height }}"',
                                                 '<circle cx="10" cy="10" r="10"'))
    result = build(tmp_path)
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "d" / "d-a4.pdf") as doc:
        pages = [(p.width, p.height, _rects(p)) for p in doc.pages]
    if duplex == "long":
        w, _, f = pages[0]
        _pairs(f, pages[1][2], lambda r: (w - r[2], r[1], w - r[0], r[3]))
    else:
        total = 0
        for _, _, rects in pages:
            f = [r for r in rects if r[0].endswith("front")]
            b = [r for r in rects if r[0].endswith("back")]
            if f:
                _fold_pairs(f, b)
                total += len(f)
        assert total == 16


def test_a_back_that_reads_no_column_is_one_shared_back(tmp_path):
    design(tmp_path, "title,type\na,x\nb,y\n", '<text x="5" y="5">{{ title }}</text>\n',
           '<text x="5" y="5">{{ design.title }} {{ width }}</text>\n')
    assert build(tmp_path).exit_code == 0
    names = sorted(p.name for p in (tmp_path / "out" / "d" / "svg").iterdir())
    assert names == ["cards-1.svg", "cards-2.svg", "cards-back.svg"]


# --- tables ------------------------------------------------------------------------------------------------------

NUMBERS_FRONT = '<text x="5" y="10">{{ title }} {{ cost + 1 }} {{ weight * 2 }}[{{ note }}]</text>\n'


def _texts(tmp_path: Path) -> list[str]:
    out = []
    for p in sorted((tmp_path / "out" / "d" / "svg").glob("cards-*.svg")):
        root = etree.fromstring(p.read_bytes())
        out += ["".join(t.itertext()) for t in root.iter(f"{SVG_NS}text")]
    return out


def test_a_semicolon_csv_is_read_with_numbers_as_numbers(tmp_path):
    design(tmp_path, "title;type;cost;weight;note\nFire, Ice;hero;3;1,5;\nWater;item;10;2;x\n",
           '<text x="5" y="10">{{ type }} {{ title }} {{ cost + 1 }} {{ weight * 2 }}[{{ note }}]</text>\n')
    result = build(tmp_path)
    assert result.exit_code == 0, result.output
    assert _texts(tmp_path) == ["hero Fire, Ice 4 3.0[]", "item Water 11 4[x]"]


def test_a_tab_separated_table_and_declared_column_types(tmp_path):
    design(tmp_path, "title\tcost\tweight\tnote\nA\t007\t1\t5\n", NUMBERS_FRONT,
           component="    columns: {cost: int, note: text}\n")
    assert build(tmp_path).exit_code == 0
    assert _texts(tmp_path) == ["A 8 2[5]"]  # 007 is text by sniffing, an int by declaration


def test_a_declared_number_column_with_text_is_a_file_line_message(tmp_path):
    design(tmp_path, "title,cost,weight,note\nA,1,1,\nB,x,1,\n", NUMBERS_FRONT, component="    columns: {cost: int}\n")
    result = build(tmp_path)
    assert result.exit_code == 2
    assert result.output == ("d/cards.csv:3: column 'cost': 'x' is not a whole number; expected a whole number "
                             "(columns: {cost: int})\n")


def test_an_xlsx_sheet_is_read_with_its_types(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    d = design(tmp_path, None, NUMBERS_FRONT, data="cards.xlsx", component="    sheet: Deck\n")
    wb = openpyxl.Workbook()
    wb.active.title = "Notes"
    ws = wb.create_sheet("Deck")
    ws.append(["title", "cost", "weight", "note", "count"])
    ws.append(["Fire & Ice", 3, 1.5, None, 2])
    ws.append([])
    ws.append(["Water", 10, 2, "x", None])
    wb.save(d / "cards.xlsx")
    result = build(tmp_path)
    assert result.exit_code == 0, result.output
    assert _texts(tmp_path) == ["Fire & Ice 4 3.0[]", "Water 11 4[x]"]
    import json
    manifest = json.loads((tmp_path / "out" / "d" / "manifest.json").read_text())
    assert [c["count"] for c in manifest["components"]] == [2, 1]  # an empty count cell: the component's count


def _ods(rows_xml: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", '<?xml version="1.0" encoding="UTF-8"?>'
                   '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
                   'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
                   'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>'
                   f'<table:table table:name="Cards">{rows_xml}</table:table>'
                   '</office:spreadsheet></office:body></office:document-content>')
    return buf.getvalue()


def _cell(v) -> str:
    if isinstance(v, (int, float)):
        return f'<table:table-cell office:value-type="float" office:value="{v}"><text:p>{v}</text:p></table:table-cell>'
    return f'<table:table-cell office:value-type="string"><text:p>{v}</text:p></table:table-cell>'


def test_an_ods_sheet_is_read_with_repeats_expanded_within_bounds(tmp_path):
    d = design(tmp_path, None, NUMBERS_FRONT, data="cards.ods")
    header = "<table:table-row>" + "".join(_cell(v) for v in ("title", "cost", "weight", "note")) + \
             '<table:table-cell table:number-columns-repeated="16000"/></table:table-row>'
    row = '<table:table-row table:number-rows-repeated="2">' + _cell("A") + _cell(3) + _cell(0.5) + \
          '<table:table-cell/><table:table-cell table:number-columns-repeated="16000"/></table:table-row>'
    tail = '<table:table-row table:number-rows-repeated="1048000"><table:table-cell ' \
           'table:number-columns-repeated="16000"/></table:table-row>'
    (d / "cards.ods").write_bytes(_ods(header + row + tail))
    result = build(tmp_path)
    assert result.exit_code == 0, result.output
    assert _texts(tmp_path) == ["A 4 1.0[]", "A 4 1.0[]"]


def _ods_deck(tmp_path: Path, rows: str) -> Path:
    d = design(tmp_path, None, NUMBERS_FRONT, data="cards.ods")
    header = "<table:table-row>" + "".join(_cell(v) for v in ("title", "cost", "weight", "note")) + "</table:table-row>"
    (d / "cards.ods").write_bytes(_ods(header + rows))
    return d


def _spaces(n: int) -> str:
    return '<text:s text:c="1000"/>' * n


def test_an_ods_sheet_is_bounded_by_its_text_once_spaces_and_repeats_are_expanded(tmp_path, monkeypatch):
    """Issue 29: a cell of a million <text:s text:c="1000"/> took 1.5 GB from a file well inside the unpacked-size
    limit. The sheet's text counts as the CSV file it would make, repeated rows and cells too."""
    monkeypatch.setitem(LIMITS, "sheet_text", Limit(50_000, "characters", "test"))
    row = f'<table:table-row>{_cell("A" + _spaces(20))}{_cell(3)}{_cell(0.5)}{_cell("n")}</table:table-row>'
    _ods_deck(tmp_path, row * 2)
    result = build(tmp_path)
    assert result.exit_code == 0, result.output
    _ods_deck(tmp_path / "3", row * 3)
    result = build(tmp_path / "3")
    assert result.exit_code == 2
    assert result.output == ("d/cards.ods:4: the sheet's text is longer than 50000 characters once its repeated cells "
                             "and spaces are expanded; expected at most 50000 characters in one sheet (as in the CSV "
                             "file it would make)\n")
    repeated = f'<table:table-row table:number-rows-repeated="10">{_cell("B" + _spaces(1))}</table:table-row>'
    cells = f'<table:table-row><table:table-cell table:number-columns-repeated="4" office:value-type="string">' \
            f'<text:p>{_spaces(13)}</text:p></table:table-cell></table:table-row>'
    for rows, line in ((repeated * 6, 42), (cells, 2)):
        _ods_deck(tmp_path / str(line), rows)
        result = build(tmp_path / str(line))
        assert result.output.startswith(f"d/cards.ods:{line}: the sheet's text is longer than 50000"), result.output


def test_an_ods_row_of_too_many_parts_is_refused_as_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setitem(LIMITS, "sheet_row_parts", Limit(1_000, "elements", "test"))
    _ods_deck(tmp_path, f'<table:table-row>{_cell("A" + "<text:s/>" * 2000)}</table:table-row>')
    result = build(tmp_path)
    assert result.exit_code == 2
    assert result.output == ("d/cards.ods:2: the row holds more than 1000 XML elements; expected at most 1000 in one "
                             "row (a sheet saved by a spreadsheet program)\n")


def test_an_ods_cell_is_built_to_its_bound_whatever_its_spaces_say():
    import tracemalloc
    from xml.etree.ElementTree import fromstring

    from pnp import tables

    ns = ('xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
          'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')
    cell = fromstring(f"<table:table-cell {ns}><text:p>a{_spaces(150_000)}</text:p><text:p>b</text:p>"
                      "</table:table-cell>")
    tracemalloc.start()
    try:
        text = tables._ods_value(cell, 100_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert text == "a" + " " * 100_000  # one more than the bound: the caller reports the cell
    assert peak < 2_000_000, peak  # 150 MB of spaces were built, then cut
    two = fromstring(f"<table:table-cell {ns}><text:p/><text:p>x<text:s text:c='2'/>y<text:tab/></text:p>"
                     "</table:table-cell>")
    assert tables._ods_value(two, 100) == "\nx  y\t"


def test_a_spreadsheet_that_unpacks_too_large_is_refused(tmp_path, monkeypatch):
    monkeypatch.setitem(LIMITS, "sheet_unpacked", Limit(50_000, "bytes", "what a spreadsheet unpacks to"))
    d = design(tmp_path, None, NUMBERS_FRONT, data="cards.ods")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("content.xml", b"<a>" + b" " * 1_000_000 + b"</a>")
    (d / "cards.ods").write_bytes(buf.getvalue())
    result = build(tmp_path)
    assert result.exit_code == 2
    assert result.output == ("d/cards.ods: the file unpacks to 1000007 bytes; expected at most 50000 bytes (what a "
                             "spreadsheet unpacks to)\n")


def test_a_damaged_spreadsheet_or_a_wrong_sheet_name_is_a_message(tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    d = design(tmp_path, None, NUMBERS_FRONT, data="cards.xlsx", component="    sheet: Nope\n")
    wb = openpyxl.Workbook()
    wb.active.append(["title"])
    wb.save(d / "cards.xlsx")
    result = build(tmp_path)
    assert result.exit_code == 2
    assert result.output == "d/cards.xlsx: no sheet named 'Nope'; expected one of: Sheet\n"
    (d / "cards.xlsx").write_bytes(b"PK\x03\x04 not really a zip")
    result = build(tmp_path)
    assert result.exit_code == 2
    assert result.output.startswith("d/cards.xlsx: the file is not a readable .xlsx spreadsheet (")


# --- a template error once -------------------------------------------------------------------------------------------

def test_a_template_error_is_reported_once_with_its_rows_counted_and_sorted_by_number(tmp_path):
    rows = "\n".join(f"r{i}" for i in range(1, 13))
    design(tmp_path, "title\n" + rows + "\n", '<text x="5" y="5">{{ titel }}</text>\n')
    result = build(tmp_path)
    assert result.exit_code == 2
    assert result.output == ("d/templates/front.svg.j2:1: 'titel' is undefined (filling 12 rows: d/cards.csv:2, "
                             "d/cards.csv:3, d/cards.csv:4 and 9 more); did you mean 'title'? expected every name "
                             "used to be a column of the data table or one of: index, width, height, bleed, safe, "
                             "component, design\n"
                             "d/cards.csv:1: warning: column 'title' is read by no template of components.cards "
                             "(front.svg.j2) nor by its settings; expected it used, or columns: {title: skip} if it "
                             "only holds notes\n")
    design_dir = tmp_path / "d"
    (design_dir / "templates" / "front.svg.j2").write_text(
        '<text x="5" y="5">{% if title in ("r1", "r9") %}{{ titel }}{% endif %}</text>\n')
    result = build(tmp_path)
    assert "(filling 2 rows: d/cards.csv:2, d/cards.csv:10)" in result.output


def test_text_box_markup_rules():
    from pnp.render.textbox import _paragraphs

    asked = []

    def words(text):
        paras = _paragraphs(text, lambda name: asked.append(name))
        return [[["".join(("B" if p.bold else "") + ("I" if p.italic else "") + ":" + p.text) for p in w]
                 for w in para] for para in paras]

    assert words("a **b** *c*") == [[[":a"], ["B:b"], ["I:c"]]]
    assert words("5 * 3 = 15") == [[[":5"], [":*"], [":3"], [":="], [":15"]]]  # a lone star is text
    assert words("\\*x\\*") == [[[":*x*"]]]
    assert words("one\\ntwo\nthree") == [[[":one"]], [[":two"]], [[":three"]]]
    assert words("at 10:30:00 :sword:") == [[[":at"], [":10:30:00"], ["::sword:"]]]
    assert asked == ["sword"]  # a time is not an icon name


def test_an_icon_is_an_image_href_once_the_art_pipeline_draws_design_files(monkeypatch):
    from pnp.render import textbox as tb

    icon = tb.Icon("coin", "icons/coin.svg", 1.5, view_box="0 0 15 10", inner="<rect/>")
    monkeypatch.setattr(tb, "ICON_HREFS", True)
    assert tb._icon_markup(icon, 1, 2, 6, 4) == '<image x="1" y="2" width="6" height="4" href="icons/coin.svg"/>'
    monkeypatch.setattr(tb, "ICON_HREFS", False)
    assert tb._icon_markup(icon, 1, 2, 6, 4) == ('<svg x="1" y="2" width="6" height="4" viewBox="0 0 15 10" '
                                                 'preserveAspectRatio="xMidYMid meet"><rect/></svg>')


def test_a_text_box_in_the_design_s_own_font_breaks_as_the_pdf_draws_it(tmp_path):
    from pnp.render.fonts import FONT_DIR

    table = f'text\n"{RULES}"\n'
    d = design(tmp_path, table, textbox_front(size=3, align="'justify'", family="'Deck Serif'"))
    (d / "fonts").mkdir()
    (d / "fonts" / "serif.ttf").write_bytes((FONT_DIR / "DejaVuSerif.ttf").read_bytes())
    (d / "fonts" / "serif-bold.ttf").write_bytes((FONT_DIR / "DejaVuSerif-Bold.ttf").read_bytes())
    text = (d / "design.yaml").read_text()
    (d / "design.yaml").write_text(text.replace("components:\n", "fonts:\n  Deck Serif:\n    regular: "
                                                "fonts/serif.ttf\n    bold: fonts/serif-bold.ttf\ncomponents:\n"))
    result = build(tmp_path, "--print-shop")
    assert result.exit_code == 0, result.output
    lines, _ = svg_lines((tmp_path / "out" / "d" / "svg" / "cards-1.svg").read_text())
    plines, chars = pdf_lines(tmp_path / "out" / "d" / "d-print-shop.pdf")
    assert plines == lines
    inside = [c for c in chars if c["text"].strip()]
    right = max(c["x1"] for c in inside) / MM - 3
    assert abs(right - (BOX["x"] + BOX["w"])) < 0.2  # justified to the edge with the serif's own widths
    assert all("Sans" not in c["fontname"] for c in inside)
