"""Sheets that print right on a home printer (issue 30), measured from the produced PDFs: the printable
margin, split boards that register, the bleed that survives between cards."""

from __future__ import annotations

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
