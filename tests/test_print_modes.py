"""Print sheets for real printers (issue 8), measured from the produced PDFs."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest
from click.testing import CliRunner
from pdfmeasure import MM, page_lines, page_text, placements
from pypdf import PdfReader

from pnp.cli import main

ROOT = Path(__file__).resolve().parent.parent
STARS = ROOT / "designs" / "three-stars"
MIX = ROOT / "tests" / "fixtures" / "print-mix"
TOL = 0.1 * MM
CARD = (69 * MM, 94 * MM)  # poker card + 3 mm bleed each side


def build(tmp_path: Path, design: Path, *options: str) -> Path:
    result = CliRunner().invoke(main, ["build", str(design), "--out", str(tmp_path), *options])
    assert result.exit_code == 0, result.output
    return tmp_path / design.name


def is_card(p, size=CARD):
    """A card's box, upright or turned a quarter (as the grid lays them out where that fits more)."""
    return sorted((p.width, p.height)) == pytest.approx(sorted(size), abs=0.01)


def card_pages(reader):
    pages = []
    for i in range(len(reader.pages)):
        cards = [p for p in placements(reader, i) if is_card(p)]
        if cards:
            pages.append((i, cards))
    return pages


def back_form(pages) -> str:
    """The shared back: the form placed most often on card pages."""
    counts: dict[str, int] = {}
    for _, cards in pages:
        for c in cards:
            counts[c.form] = counts.get(c.form, 0) + 1
    return max(counts, key=counts.get)


@pytest.mark.parametrize("duplex,offset", [("long", None), ("long", "0.5,-0.3"), ("short", None),
                                           ("short", "-1,2"), ("none", "0.4,0.4")])
def test_backs_land_behind_their_fronts(tmp_path, duplex, offset):
    opts = ["--duplex", duplex] + (["--back-offset", offset] if offset else [])
    out = build(tmp_path, STARS, *opts)
    reader = PdfReader(out / "three-stars-en-a4.pdf")
    dx, dy = (float(v) * MM for v in offset.split(",")) if offset else (0.0, 0.0)
    pages = card_pages(reader)
    back = back_form(pages)
    fronts = [(i, cards) for i, cards in pages if all(c.form != back for c in cards)]
    backs = [(i, cards) for i, cards in pages if all(c.form == back for c in cards)]
    per = len(fronts[0][1])  # 8 per A4 sheet (turned a quarter) inside the margin, 6 with short-edge duplex
    assert per == (6 if duplex == "short" else 8) and len(fronts) == len(backs) == -(-41 // per)
    if duplex == "none":  # every back sheet after every front sheet, together at the end
        first_back = backs[0][0]
        assert first_back > fronts[-1][0]
        assert [i for i, _ in backs] == list(range(first_back, first_back + len(backs))) and backs[-1][0] == len(reader.pages) - 1
    else:  # each back sheet right after its front sheet
        assert [i for i, _ in backs] == [i + 1 for i, _ in fronts]
    for (fi, front), (bi, back) in zip(fronts, backs):
        page = reader.pages[fi]
        W, H = float(page.mediabox.width), float(page.mediabox.height)
        assert len(front) == len(back)
        for f in front:
            if duplex == "short":
                ex, ey = f.x + dx, H - f.y - f.height + dy
            else:
                ex, ey = W - f.x - f.width + dx, f.y + dy
            assert any(abs(b.x - ex) <= TOL and abs(b.y - ey) <= TOL for b in back), (duplex, fi, f.x / MM)


def test_gutter_fold_mirrors_backs_across_the_drawn_fold_line(tmp_path):
    out = build(tmp_path, STARS, "--duplex", "fold")
    pdf = out / "three-stars-en-a4.pdf"
    reader = PdfReader(pdf)
    pages = card_pages(reader)
    assert sum(len(c) for _, c in pages) == 2 * 41
    with pdfplumber.open(pdf) as doc:
        back = back_form(pages)
        for i, cards in pages:
            fronts = [c for c in cards if c.form != back]
            backs = [c for c in cards if c.form == back]
            assert len(fronts) == len(backs)
            page = doc.pages[i]
            dashed = [ln for ln in page.lines if ln.get("dash") and ln["dash"][0]]
            assert len(dashed) == 1, "one fold line per sheet"
            fold = dashed[0]
            vertical = abs(fold["x0"] - fold["x1"]) < 0.01
            for f in fronts:
                if vertical:
                    ex, ey = 2 * fold["x0"] - f.x - f.width, f.y
                else:
                    ex, ey = f.x, 2 * fold["y0"] - f.y - f.height
                assert any(abs(b.x - ex) <= TOL and abs(b.y - ey) <= TOL for b in backs)
                # front and back lie on opposite sides of the fold
                if vertical:
                    assert (f.x + f.width <= fold["x0"]) != (ex + f.width <= fold["x0"])


def _overlap_area_convex(a, b) -> bool:
    """Separating axis test for two convex polygons (page points): True if their interiors meet."""
    for poly in (a, b):
        for i in range(len(poly)):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % len(poly)]
            length = ((y2 - y1) ** 2 + (x1 - x2) ** 2) ** 0.5
            nx, ny = (y2 - y1) / length, (x1 - x2) / length
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if max(pa) <= min(pb) + 0.01 or max(pb) <= min(pa) + 0.01:  # 0.01 pt: touching is fine
                return False
    return True


@pytest.mark.parametrize("design", [STARS, MIX])
def test_no_component_overlaps_another_on_a_sheet(tmp_path, design):
    out = build(tmp_path, design)
    reader = PdfReader(out / json.loads((out / "manifest.json").read_text())["pdf"])  # (<design>[-<lang>]-a4.pdf)
    for i in range(len(reader.pages)):
        shown = [p.clip or [(p.x, p.y), (p.x + p.width, p.y), (p.x + p.width, p.y + p.height), (p.x, p.y + p.height)]
                 for p in placements(reader, i)]
        for j, a in enumerate(shown):
            for b in shown[j + 1:]:
                assert not _overlap_area_convex(a, b), f"page {i + 1}: two faces overlap"


def test_mixed_shapes_share_sheets(tmp_path):
    out = build(tmp_path, MIX)
    reader = PdfReader(out / "print-mix-a4.pdf")
    manifest = json.loads((out / "manifest.json").read_text())
    sizes = {e["component"]: tuple(v * MM for v in e["trim_mm"]) for e in manifest["components"]}
    loose = {"squares": 13, "discs": 9, "hexes": 14, "triangles": 12}
    found = dict.fromkeys(loose, 0)
    sheets_with = {k: set() for k in loose}
    for i in range(len(reader.pages)):
        for p in placements(reader, i):
            for name in loose:
                if abs(p.width - sizes[name][0]) < 0.01 and abs(p.height - sizes[name][1]) < 0.01:
                    found[name] += 1
                    sheets_with[name].add(i)
    assert found == loose
    assert len(set.union(*sheets_with.values())) == 1  # 48 loose pieces of 4 shapes on one A4 sheet


def test_board_larger_than_the_sheet_is_split_with_10mm_overlap_and_an_overview(tmp_path):
    out = build(tmp_path, MIX)
    pdf = out / "print-mix-a4.pdf"
    reader = PdfReader(pdf)
    W, H = 420 * MM, 300 * MM
    parts = {}
    overview = None
    for i in range(len(reader.pages)):
        text = page_text(pdf, i)
        for p in placements(reader, i):
            if abs(p.width - W) < 0.01 and abs(p.height - H) < 0.01:
                label = text.split("part ")[1].split(":")[0]
                xs = [x for x, _ in p.clip]
                ys = [y for _, y in p.clip]
                # the visible window in board coordinates (mm, origin at the board's bottom-left)
                parts[label] = ((min(xs) - p.x) / MM, (min(ys) - p.y) / MM, (max(xs) - p.x) / MM, (max(ys) - p.y) / MM)
            elif "assembly map" in text and p.width < W:
                overview = i
    assert overview is not None and overview < min(
        i for i in range(len(reader.pages)) if "part A1" in page_text(pdf, i))
    assert sorted(parts) == ["A1", "A2", "B1", "B2"]
    a1, a2, b1, b2 = (parts[k] for k in ("A1", "A2", "B1", "B2"))
    assert a2[0] == pytest.approx(a1[2] - 10, abs=0.1)  # columns overlap by 10 mm
    assert b2[0] == pytest.approx(b1[2] - 10, abs=0.1)
    assert a1[1] == pytest.approx(b1[3] - 10, abs=0.1)  # rows overlap by 10 mm (row A is the top)
    union_x = (min(a1[0], b1[0]), max(a2[2], b2[2]))
    union_y = (min(b1[1], b2[1]), max(a1[3], a2[3]))
    assert union_x == pytest.approx((0, 420), abs=0.1) and union_y == pytest.approx((0, 300), abs=0.1)
    for i in range(len(reader.pages)):
        if "part B2" in page_text(pdf, i):
            assert len(page_lines(pdf, i)) >= 4 + 4  # outline to cut along + alignment marks


def test_print_shop_pages_have_trim_and_bleed_boxes_back_after_first_front(tmp_path):
    out = build(tmp_path, STARS, "--print-shop")
    reader = PdfReader(out / "three-stars-fr-print-shop.pdf")
    assert (out / "three-stars-en-a4.pdf").is_file()
    pages = reader.pages
    assert len(pages) == 41 + 1 + 1 + 4  # each distinct face once: 41 fronts, their back, the board, 4 pieces
    cards = [0, *range(2, 42)]  # the shared back is page 2, right after the first front
    for k in [*cards, 1]:
        page = pages[k]
        w, h = float(page.mediabox.width), float(page.mediabox.height)
        assert (w, h) == pytest.approx(CARD, abs=0.01)
        trim = [float(v) for v in page.trimbox]
        assert trim == pytest.approx([3 * MM, 3 * MM, 66 * MM, 91 * MM], abs=0.01)
        assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, w, h], abs=0.01)
    fronts = {placements(reader, k)[0].form for k in cards}
    assert len(fronts) == 41 and placements(reader, 1)[0].form not in fronts


def test_proof_mode_draws_guides_in_its_own_file(tmp_path):
    out = build(tmp_path, STARS, "--proof")
    pdf = out / "three-stars-en-a4-proof.pdf"
    assert pdf.is_file() and not (out / "three-stars-en-a4.pdf").exists()
    with pdfplumber.open(pdf) as doc:
        rects = doc.pages[0].rects
        coloured = [r for r in rects if r.get("stroking_color") not in (None, (0,), [0], (0, 0, 0), [0, 0, 0])
                    and not r.get("fill")]
        assert len(coloured) >= 8 * 3  # trim, bleed and safe zone of 8 cards
    assert "PROOF" in page_text(pdf, 0)


def test_orientation_can_be_forced(tmp_path):
    out = build(tmp_path, STARS, "--orientation", "landscape")
    for page in PdfReader(out / "three-stars-en-a4.pdf").pages:
        assert float(page.mediabox.width) > float(page.mediabox.height)


def test_summary_names_the_files_written_and_hints_other_papers_only_where_they_differ(tmp_path):
    import re

    from pnp.build import build_designs

    for design, paper in ((STARS, "letter"), (ROOT / "tests" / "fixtures" / "print-mix", "a4")):
        [res] = build_designs([str(design)], out=tmp_path, paper=paper, exports=False, show_progress=False)
        text = res.summary()
        pdf = tmp_path / res.slug / res.pdf_name  # (<design>[-<lang>]-<paper>.pdf)
        pages = len(PdfReader(pdf).pages)
        name = {"a4": "A4", "letter": "Letter"}[paper]
        assert re.search(rf"{pdf.name} \({pages} {name} sheets[;)]", text), text
        assert f"{res.slug}-{'a4' if paper == 'letter' else 'letter'}.pdf" not in text  # not written, not named
        for other, n in res.sheets_per_paper.items():
            other_name = {"a4": "A4", "letter": "Letter", "a3": "A3"}[other]
            assert (f"{n} on {other_name}" in text) == (other != paper and n != pages), (other, text)


def test_cut_marks_mode_draws_full_lines_through_abutting_cards(tmp_path):
    out = build(tmp_path, STARS, "--marks", "cut")
    pdf = out / "three-stars-en-a4.pdf"
    reader = PdfReader(pdf)
    cards = [p for p in placements(reader, 0) if is_card(p)]
    assert len(cards) == 9
    trims_x = sorted({round(p.x + 3 * MM, 2) for p in cards} | {round(p.x + p.width - 3 * MM, 2) for p in cards})
    assert len(trims_x) == 4  # abutting: shared cut lines
    verticals = [ln for ln in page_lines(pdf, 0) if abs(ln[0] - ln[2]) < 0.01]
    span = max(p.y + p.height for p in cards) - min(p.y for p in cards) - 6 * MM
    for x in trims_x:
        assert any(abs(v[0] - x) <= TOL and abs(v[3] - v[1]) >= span for v in verticals)


def test_bad_back_offset_is_a_clear_error(tmp_path):
    result = CliRunner().invoke(main, ["build", str(STARS), "--out", str(tmp_path), "--back-offset", "1"])
    assert result.exit_code == 2
    assert "back-offset" in result.output and "expected X,Y" in result.output
    assert not list(tmp_path.iterdir())
