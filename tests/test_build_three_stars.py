"""The 3 Stars build, measured from the files it produces."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from conftest import stars_numbers
from lxml import etree
from pdfmeasure import MM, page_lines, page_text, placements
from pypdf import PdfReader

N = stars_numbers()

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


def manifest(out):
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def test_placement_cards_are_exactly_all_one_to_three_subsets(three_stars_a4):
    cards = [c for c in manifest(three_stars_a4)["components"] if c["component"] == "placement-cards"]
    sets = [tuple(c["data"]["positions"]) for c in cards]
    expected = [s for k in (1, 2, 3) for s in itertools.combinations(range(6), k)]
    assert len(cards) == 41
    assert len(set(sets)) == 41
    assert sorted(sets) == sorted(expected)
    assert all(list(s) == sorted(s) for s in sets)
    assert all(c["count"] == 1 and c["trim_mm"] == [63, 88] and c["bleed_mm"] == 3 for c in cards)
    assert {c["back"].split(".")[0] for c in cards} == {"svg/placement-cards-back"}  # (one back: [.<lang>].svg)


def test_manifest_lists_every_component_instance(three_stars_a4):
    entries = manifest(three_stars_a4)["components"]
    by_component = {}
    for e in entries:
        by_component.setdefault(e["component"], 0)
        by_component[e["component"]] += e["count"]
    assert by_component == {"placement-cards": 41, "board": 1, "pieces": N["pieces"]}
    pieces = [e for e in entries if e["component"] == "pieces"]
    assert [p["data"]["colour"] for p in pieces] == ["blue", "red", "yellow", "green"]
    assert all(p["count"] == N["per_colour"] and p["shape"] == "triangle" for p in pieces)
    for e in entries:
        assert (three_stars_a4 / e["face"]).is_file()


def test_one_svg_per_distinct_face_with_declared_mm_size(three_stars_a4):
    data = manifest(three_stars_a4)
    entries = [e for key in data if key.startswith("components") for e in data[key]]  # (every language's edition)
    faces = {e["face"]: e for e in entries}
    backs = {e["back"]: e for e in entries if e["back"]}
    files = sorted(p.relative_to(three_stars_a4).as_posix() for p in (three_stars_a4 / "svg").glob("*.svg"))
    assert files == sorted(set(faces) | set(backs))
    assert len({f.split(".")[0] for f in files}) == 41 + 1 + 1 + 4  # distinct faces (each drawn in each language
    # or shared)
    for rel, entry in {**faces, **backs}.items():
        root = etree.parse(str(three_stars_a4 / rel)).getroot()
        w, h = entry["trim_mm"]
        b = entry["bleed_mm"]
        assert root.get("width") == f"{w + 2 * b:.3f}".rstrip("0").rstrip(".") + "mm"
        assert root.get("height") == f"{h + 2 * b:.3f}".rstrip("0").rstrip(".") + "mm"
        vb = [float(v) for v in re.split(r"[ ,]+", root.get("viewBox"))]
        assert vb == pytest.approx([-b, -b, w + 2 * b, h + 2 * b], abs=1e-3)


@pytest.mark.parametrize("fixture,size", [("three_stars_a4", A4), ("three_stars_letter", LETTER)])
def test_pages_are_exactly_the_paper_size(request, fixture, size):
    out = request.getfixturevalue(fixture)
    pdf = out / f"three-stars-en-{'a4' if size == A4 else 'letter'}.pdf"
    reader = PdfReader(pdf)
    for page in reader.pages:
        w, h = float(page.mediabox.width), float(page.mediabox.height)
        assert sorted((round(w, 2), round(h, 2))) == sorted(size)


def _card_pages(reader):
    """(index, placements) of pages holding 63 x 88 mm cards (69 x 94 mm with bleed), upright or turned a quarter."""
    out = []
    for i in range(len(reader.pages)):
        pl = [p for p in placements(reader, i) if sorted((p.width / MM, p.height / MM)) == pytest.approx([69, 94],
                                                                                                         abs=0.01)]
        if pl:
            out.append((i, pl))
    return out


def test_eight_cards_per_a4_sheet_inside_the_margin_and_fronts_alternate_with_backs(three_stars_a4):
    reader = PdfReader(three_stars_a4 / "three-stars-en-a4.pdf")
    pages = _card_pages(reader)
    assert [len(pl) for _, pl in pages] == [8] * 10 + [1, 1]  # turned a quarter: 2 x 4 inside 6.35 mm margins
    assert [i for i, _ in pages] == list(range(12))  # card sheets come first, front then back
    for (fi, front), (bi, back) in zip(pages[0::2], pages[1::2]):
        assert len({p.form for p in back}) == 1  # one shared back face
        assert not ({p.form for p in front} & {p.form for p in back})


@pytest.mark.parametrize("fixture", ["three_stars_a4", "three_stars_letter"])
def test_card_trims_sit_where_the_crop_marks_say(request, fixture):
    out = request.getfixturevalue(fixture)
    pdf = out / f"three-stars-en-{fixture.rsplit('_', 1)[1]}.pdf"
    reader = PdfReader(pdf)
    for i, cards in _card_pages(reader):
        trims = [(p.x + 3 * MM, p.y + 3 * MM, p.x + p.width - 3 * MM, p.y + p.height - 3 * MM) for p in cards]
        xs = {round(v, 3) for t in trims for v in (t[0], t[2])}
        ys = {round(v, 3) for t in trims for v in (t[1], t[3])}
        lines = page_lines(pdf, i)
        verticals = {round(x0, 3) for x0, y0, x1, y1 in lines if abs(x0 - x1) < 1e-3 and abs(y1 - y0) > 1}
        horizontals = {round(y0, 3) for x0, y0, x1, y1 in lines if abs(y0 - y1) < 1e-3 and abs(x1 - x0) > 1}
        tol = 0.1 * MM
        for x in xs:  # every trim edge has a mark ...
            assert any(abs(x - v) <= tol for v in verticals), (i, x / MM)
        for y in ys:
            assert any(abs(y - h) <= tol for h in horizontals), (i, y / MM)
        for v in verticals:  # ... and every mark is a trim edge
            assert any(abs(x - v) <= tol for x in xs), (i, v / MM)
        for h in horizontals:
            assert any(abs(y - h) <= tol for y in ys), (i, h / MM)


def test_a4_crop_marks_stay_outside_every_trim_and_bleed(three_stars_a4):
    pdf = three_stars_a4 / "three-stars-en-a4.pdf"
    reader = PdfReader(pdf)
    for i, cards in _card_pages(reader):
        for x0, y0, x1, y1 in page_lines(pdf, i):
            for p in cards:  # the art box: trim + bleed
                inside_x = p.x + 0.01 < max(x0, x1) and min(x0, x1) < p.x + p.width - 0.01
                inside_y = p.y + 0.01 < max(y0, y1) and min(y0, y1) < p.y + p.height - 0.01
                assert not (inside_x and inside_y), f"page {i}: mark {x0, y0, x1, y1} crosses a card"


@pytest.mark.parametrize("fixture", ["three_stars_a4", "three_stars_letter"])
def test_back_sheets_mirror_their_fronts_columns(request, fixture):
    out = request.getfixturevalue(fixture)
    reader = PdfReader(out / f"three-stars-en-{fixture.rsplit('_', 1)[1]}.pdf")
    pages = _card_pages(reader)
    tol = 0.1 * MM
    for (fi, front), (bi, back) in zip(pages[0::2], pages[1::2]):
        width = float(reader.pages[fi].mediabox.width)
        assert len(back) == len(front)
        for p in front:  # each front has a back exactly behind it after a long-edge flip
            mx = width - p.x - p.width
            assert any(abs(b.x - mx) <= tol and abs(b.y - p.y) <= tol for b in back), (fi, p.x / MM, p.y / MM)
        # columns A B C on the front are C B A on the back: the leftmost front lands rightmost
        left_front = min(front, key=lambda p: (p.x, -p.y))
        right_back = max((b for b in back if abs(b.y - left_front.y) <= tol), key=lambda b: b.x)
        assert abs(right_back.x - (width - left_front.x - left_front.width)) <= tol


def test_board_is_printed_at_true_size_on_its_own_page(three_stars_a4):
    entry = next(e for e in manifest(three_stars_a4)["components"] if e["component"] == "board")
    w, h = entry["trim_mm"]
    reader = PdfReader(three_stars_a4 / "three-stars-en-a4.pdf")
    hits = [(i, p) for i in range(len(reader.pages)) for p in placements(reader, i)
            if abs(p.width - w * MM) < 0.01 and abs(p.height - h * MM) < 0.01]
    assert len(hits) == 1
    i, _p = hits[0]
    assert len(placements(reader, i)) == 1
    assert 225 < w < 260  # 7.5 triangles of 30 mm plus margins
    assert entry["data"]["star_positions"] == {"2": 12, "3": 18, "4": 24}
    assert entry["data"]["triangles"] == {"2": 38, "3": 54, "4": 68}


def test_pieces_are_tessellated_with_cut_lines(three_stars_a4):
    reader = PdfReader(three_stars_a4 / "three-stars-en-a4.pdf")
    side, height = 30 * MM, 30 * 3 ** 0.5 / 2 * MM
    pages = {i: [p for p in placements(reader, i) if abs(p.width - side) < 0.01 and abs(p.height - height) < 0.01]
             for i in range(len(reader.pages))}
    pages = {i: pl for i, pl in pages.items() if pl}
    assert sum(len(pl) for pl in pages.values()) == N["pieces"]
    for i, pl in pages.items():
        ups = [p for p in pl if not p.rotated]
        downs = [p for p in pl if p.rotated]
        assert abs(len(ups) - len(downs)) <= len({round(p.y) for p in pl})
        lines = page_lines(three_stars_a4 / "three-stars-en-a4.pdf", i)
        assert len(lines) >= 3


def test_every_page_has_footer_with_game_sheet_and_calibration(three_stars_a4):
    pdf = three_stars_a4 / "three-stars-en-a4.pdf"
    n = len(PdfReader(pdf).pages)
    for i in range(n):
        text = page_text(pdf, i)
        assert "3 Stars" in text
        assert f"sheet {i + 1} of {n}" in text
        assert "print at 100%" in text
        assert "50 mm" in text


def test_calibration_bar_is_50_mm(three_stars_a4):
    import pdfplumber

    with pdfplumber.open(three_stars_a4 / "three-stars-en-a4.pdf") as pdf:
        page = pdf.pages[0]
        bar = [r for r in page.rects if r["bottom"] > page.height - 16 * MM and abs(r["height"] - 2 * MM) < 0.2]
        assert len(bar) == 5
        assert (max(r["x1"] for r in bar) - min(r["x0"] for r in bar)) / MM == pytest.approx(50, abs=0.1)


def test_pdf_is_vector_with_embedded_fonts(three_stars_a4):
    reader = PdfReader(three_stars_a4 / "three-stars-en-a4.pdf")
    fonts = {}
    for page in reader.pages:
        res = page["/Resources"]
        for xo in res.get("/XObject", {}).values():
            xo = xo.get_object()
            assert xo["/Subtype"] == "/Form"  # no raster images anywhere
            for f in xo.get("/Resources", {}).get("/Font", {}).values():
                fonts[f.idnum] = f.get_object()
        for f in res.get("/Font", {}).values():
            fonts[f.idnum] = f.get_object()
    assert fonts
    for f in fonts.values():
        desc = f["/DescendantFonts"][0].get_object() if "/DescendantFonts" in f else f
        fd = desc["/FontDescriptor"].get_object()
        assert "/FontFile2" in fd, f"font {f.get('/BaseFont')} is not embedded"
        assert "DejaVu" in str(f["/BaseFont"])


def test_each_distinct_face_is_one_form_reused_for_its_copies(three_stars_a4):
    reader = PdfReader(three_stars_a4 / "three-stars-en-a4.pdf")
    forms = set()
    for page in reader.pages:
        for ref in page["/Resources"].get("/XObject", {}).values():
            forms.add(ref.idnum)
    assert len(forms) == 47  # 41 fronts + 1 back + 1 board + 4 piece colours
