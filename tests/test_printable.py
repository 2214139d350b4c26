"""Sheets that print right on a home printer (issue 30), measured from the produced PDFs: the printable
margin, split boards that register, the bleed that survives between cards."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pdfmeasure import MM, page_lines, page_text, placements
from pypdf import PdfReader

from pnp.cli import main

ROOT = Path(__file__).resolve().parent.parent
MIX = ROOT / "tests" / "fixtures" / "print-mix"


def build(tmp_path: Path, design: Path, *options: str) -> tuple[Path, str]:
    result = CliRunner().invoke(main, ["build", str(design), "--out", str(tmp_path / "out"), *options])
    assert result.exit_code == 0, result.output
    return tmp_path / "out" / design.name, result.output


def mix_with(tmp_path: Path, old: str, new: str) -> Path:
    """The print-mix fixture with one line of its design.yaml changed."""
    design = tmp_path / "print-mix"
    shutil.copytree(MIX, design)
    text = (design / "design.yaml").read_text(encoding="utf-8")
    assert old in text
    (design / "design.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    return design


def test_split_board_parts_show_their_own_slice_with_bleed_only_on_the_outer_edges(tmp_path):
    design = mix_with(tmp_path, "size: {width: 420mm, height: 300mm}\n    bleed: 0mm",
                      "size: {width: 420mm, height: 300mm}\n    bleed: 3mm")
    out, _ = build(tmp_path, design)
    pdf = out / "print-mix-a4.pdf"
    reader = PdfReader(pdf)
    W, H, B = 420, 300, 3
    parts = {}
    for i in range(len(reader.pages)):
        text = page_text(pdf, i)
        for p in placements(reader, i):
            if abs(p.width - (W + 2 * B) * MM) < 0.01 and abs(p.height - (H + 2 * B) * MM) < 0.01:
                label = text.split("part ")[1].split(":")[0]
                ox, oy = p.x / MM + B, p.y / MM + B  # where the board's (0, 0) lands on the page, mm
                xs, ys = [x / MM - ox for x, _ in p.clip], [y / MM - oy for _, y in p.clip]
                # what of the board shows, in board coordinates, and the part's cut outline there
                cuts = [(x0 / MM - ox, y0 / MM - oy, x1 / MM - ox, y1 / MM - oy) for x0, y0, x1, y1 in page_lines(pdf, i)]
                parts[label] = ((min(xs), min(ys), max(xs), max(ys)), cuts)
    assert sorted(parts) == ["A1", "A2", "B1", "B2"]
    (a1, ca1), (a2, ca2), (b1, cb1), (b2, cb2) = (parts[k] for k in ("A1", "A2", "B1", "B2"))
    approx = lambda v: pytest.approx(v, abs=0.1)  # noqa: E731
    # outer edges: the bleed; A is the top row, 1 the left column
    assert (a1[0], a1[3], a2[2], a2[3]) == approx((-B, H + B, W + B, H + B))
    assert (b1[0], b1[1], b2[2], b2[1]) == approx((-B, -B, W + B, -B))
    # inner edges: no bleed, neighbours overlap by 10 mm of the same drawing
    assert a2[0] == approx(a1[2] - 10) and b2[0] == approx(b1[2] - 10)
    assert a1[1] == approx(b1[3] - 10) and a2[1] == approx(b2[3] - 10)
    # each part's cut outline runs along the board's trim on outer edges, along its window inside
    for (x0, y0, x1, y1), cuts in ((a1, ca1), (a2, ca2), (b1, cb1), (b2, cb2)):
        tx0, ty0, tx1, ty1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
        for edge in ((tx0, ty0, tx1, ty0), (tx0, ty1, tx1, ty1), (tx0, ty0, tx0, ty1), (tx1, ty0, tx1, ty1)):
            assert any(c == approx(edge) or (c[2], c[3], c[0], c[1]) == approx(edge) for c in cuts), edge


STARS = ROOT / "designs" / "three-stars"
SHOWCASE = ROOT / "designs" / "showcase"
PAPERS = {"a4": (210, 297), "letter": (215.9, 279.4)}


DPI = 200


def inked(pdf: Path, i: int) -> tuple[float, float, float, float, float, float]:
    """The box (mm, origin bottom-left) of every pixel the page inks, rendered at 200 dpi, and the page's size."""
    import pypdfium2 as pdfium
    from PIL import ImageOps

    doc = pdfium.PdfDocument(str(pdf))
    try:
        image = doc[i].render(scale=DPI / 72).to_pil().convert("L")
    finally:
        doc.close()
    px = 25.4 / DPI
    w, h = image.width * px, image.height * px
    left, top, right, bottom = ImageOps.invert(image).point(lambda v: 255 if v > 24 else 0).getbbox()
    return left * px, h - bottom * px, right * px, h - top * px, w, h


@pytest.mark.parametrize("design,paper", [(STARS, "a4"), (STARS, "letter"), (MIX, "a4"), (SHOWCASE, "letter")])
def test_nothing_prints_outside_the_printable_margin_and_the_footer_is_whole(tmp_path, design, paper):
    out, _ = build(tmp_path, design, "--paper", paper)
    manifest = json.loads((out / "manifest.json").read_text())
    pdf = out / manifest.get("sheets_pdf", {}).get("en", manifest["pdf"])  # the English edition's footers are read
    reader = PdfReader(pdf)
    m, tol = 6.35, 2 * 25.4 / DPI  # the edge pixel (a bbox is exclusive) and one of antialiasing
    for i in range(len(reader.pages)):
        w, h = (float(v) / MM for v in reader.pages[i].mediabox[2:])
        assert sorted((round(w, 1), round(h, 1))) == sorted(PAPERS[paper])
        x0, y0, x1, y1, _, _ = inked(pdf, i)
        assert x0 >= m - tol and y0 >= m - tol and x1 <= w - m + tol and y1 <= h - m + tol, (i + 1, (x0, y0, x1, y1))
        text = page_text(pdf, i)
        assert "…" not in text and f"sheet {i + 1} of {len(reader.pages)}" in text


def test_margin_option_moves_the_printable_area(tmp_path):
    out, _ = build(tmp_path, STARS, "--margin", "10")
    pdf = out / "three-stars-en-a4.pdf"
    reader = PdfReader(pdf)
    for i in (0, len(reader.pages) - 1):
        x0, y0, x1, y1, w, h = inked(pdf, i)
        assert min(x0, y0, w - x1, h - y1) >= 10 - 2 * 25.4 / DPI  # nothing closer than 10 mm to the edges
        assert min(x0, y0) <= 10.5  # the footer starts on the printable area's edge
    result = CliRunner().invoke(main, ["build", str(STARS), "--out", str(tmp_path / "x"), "--margin", "60"])
    assert result.exit_code == 2 and "--margin: '60mm' is too large; expected at most 40mm" in result.output


def faces_on(reader: PdfReader, i: int, size: tuple[float, float]):
    """The card faces of page i (upright or turned a quarter): their trims, mm."""
    out = []
    for p in placements(reader, i):
        dims = sorted((p.width / MM, p.height / MM))
        if dims == pytest.approx(sorted(size), abs=0.01):
            out.append((p.x / MM + 3, p.y / MM + 3, (p.x + p.width) / MM - 3, (p.y + p.height) / MM - 3))
    return out


@pytest.mark.parametrize("paper,per_sheet,sheets", [("letter", 6, 7), ("a4", 8, 6)])
def test_cards_keep_crop_marks_inside_the_margin_and_no_cut_line_crosses_a_face(tmp_path, paper, per_sheet, sheets):
    out, summary = build(tmp_path, STARS, "--paper", paper)
    pdf = out / f"three-stars-en-{paper}.pdf"
    reader = PdfReader(pdf)
    card_pages = [i for i in range(len(reader.pages)) if faces_on(reader, i, (69, 94))]
    assert len(card_pages) == 2 * sheets  # 41 cards, fronts and backs
    for i in card_pages:
        trims = faces_on(reader, i, (69, 94))
        assert len(trims) == (per_sheet if i < card_pages[-2] else 41 - (sheets - 1) * per_sheet)
        for x0, y0, x1, y1 in page_lines(pdf, i):
            lx0, ly0, lx1, ly1 = (v / MM for v in (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
            for tx0, ty0, tx1, ty1 in trims:  # no line enters a face's trim + bleed
                assert not (lx0 < tx1 + 3 - 0.01 and lx1 > tx0 - 3 + 0.01 and ly0 < ty1 + 3 - 0.01
                            and ly1 > ty0 - 3 + 0.01), (i + 1, (lx0, ly0, lx1, ly1))
    # (the summary names a component as design.yaml does, in no edition's language)
    assert f"note: placement-cards: {per_sheet} per sheet" in summary and "with crop marks inside the 6.35 mm " \
        "printable margin" in summary
    assert "Cartes de placement" not in summary and "Placement cards" not in summary


def test_gutter_bleed_keeps_each_cards_whole_bleed_and_the_summary_says_what_survives(tmp_path):
    out, summary = build(tmp_path, STARS)
    assert "1.5 mm of the 3 mm bleed survive between neighbours (gutter 3 mm; print.gutter: bleed keeps all" \
        in summary
    reader = PdfReader(out / "three-stars-en-a4.pdf")
    narrow = [p for p in placements(reader, 0) if sorted((p.width / MM, p.height / MM)) == pytest.approx([69, 94])]
    kept = {round(min(x for x, _ in p.clip) / MM - p.x / MM, 2) for p in narrow}  # bleed shown on the left
    assert kept == {0.0, 1.5}  # outer column: the whole bleed; others clipped at mid-gutter
    out, summary = build(tmp_path, STARS, "--gutter", "bleed")
    assert "bleed survive" not in summary
    reader = PdfReader(out / "three-stars-en-a4.pdf")
    for i in range(2):
        cards = [p for p in placements(reader, i) if sorted((p.width / MM, p.height / MM)) == pytest.approx([69, 94])]
        assert len(cards) >= 4
        for p in cards:  # every card shows its whole 3 mm bleed on every side
            xs, ys = [x / MM for x, _ in p.clip], [y / MM for _, y in p.clip]
            assert (min(xs), min(ys), max(xs), max(ys)) == pytest.approx(
                (p.x / MM, p.y / MM, (p.x + p.width) / MM, (p.y + p.height) / MM), abs=0.01)
        trims_x = sorted({round(p.x / MM + 3, 2) for p in cards})
        assert all(b - a >= min(69, 94) - 6 + 6 - 0.01 for a, b in zip(trims_x, trims_x[1:]))


def test_a_long_sheet_title_goes_on_two_footer_lines_never_cut(tmp_path):
    name = "Ship, market and harbour master cards of the western quays and the lighthouse"
    design = mix_with(tmp_path, "    kind: card\n    size: mini-euro", f"    kind: card\n    name: {name}\n    size: mini-euro")
    out, _ = build(tmp_path, design, "--paper", "letter")
    pdf = out / "print-mix-letter.pdf"
    import pdfplumber

    with pdfplumber.open(pdf) as doc:
        page = doc.pages[1]  # the backs: "... backs 1–8 (duplex, flip on long edge)"
        footer = [w for w in page.extract_words() if w["bottom"] > page.height - 16 * MM]
    lines: dict[float, list[str]] = {}
    for w in footer:
        lines.setdefault(round(w["bottom"], 1), []).append(w["text"])
    text = " ".join(" ".join(ws) for _, ws in sorted(lines.items()))
    assert "…" not in text and f"{name}: backs 1–12 (duplex," in text and "flip on long edge)" in text, text
    bottom = {w["text"]: w["bottom"] for w in footer}
    assert bottom["sheet"] < bottom["edge)"] - 5  # the sheet's title on two lines, its end on the baseline
    assert min(w["x0"] for w in footer) >= 6.35 * MM - 0.01
