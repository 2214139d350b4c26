"""Rulebook images take a size (issue 15): `![caption](art.svg){width=60mm}`, `{height=1cm}`, `{width=50%}`
(of the text width), both (the largest size inside both); measured in the PDF. A bad size is a
rules.<lang>.md:line message."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from clirun import run
from pdfmeasure import placements
from pypdf import PdfReader

from pnp.loader import load_design
from pnp.render.faces import design_faces
from pnp.rulebook import render_rulebooks
from pnp.rulebook.layout import load_layout

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MM = 72 / 25.4
ART = ('<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="20mm" viewBox="0 0 40 20">'
       '<rect width="40" height="20" fill="#0072B2"/></svg>')


def deck(tmp_path: Path, rules: str) -> Path:
    folder = tmp_path / "d"
    shutil.copytree(FIXTURES / "deck-csv", folder)
    (folder / "art.svg").write_text(ART, encoding="utf-8")
    (folder / "rules.en.md").write_text(rules, encoding="utf-8")
    return folder


def test_image_sizes_are_measured_in_the_pdf(tmp_path):
    d = deck(tmp_path, "# Art\n\n![Wide](art.svg){width=60mm}\n\n![Short](art.svg){height=1cm}\n\n"
                       "![Half](art.svg){width=50%}\n\n![Both](art.svg){width=30mm height=30mm}\n\n"
                       "![As drawn](art.svg)\n")
    design = load_design(d)
    pdf = render_rulebooks(design, design_faces(design))["d-rules-en-a4.pdf"]
    reader = PdfReader(io.BytesIO(pdf))
    boxes = [p for i in range(len(reader.pages)) for p in placements(reader, i) if p.form.startswith("/FormXob.rb")
             and abs(p.width / p.height - 2) < 0.01]  # the art (2:1), not the title page's card faces
    pg = load_layout().page
    text_width = (210 - pg["margin_left"] - pg["margin_right"]) * MM
    want = [(60, 30), (20, 10), (text_width / 2 / MM, text_width / 4 / MM), (30, 15), (40, 20)]
    got = [(round(b.width / MM, 2), round(b.height / MM, 2)) for b in boxes]
    assert len(got) == len(want), got
    for (w, h), (gw, gh) in zip(want, got):
        assert abs(w - gw) < 0.1 and abs(h - gh) < 0.1, (want, got)


@pytest.mark.parametrize("size, message", [
    ("{width=60furlongs}", "image 'art.svg': {width=60furlongs}: 'width=60furlongs' is not a size; expected "
                           "{width=60mm} or {height=40%}"),
    ("{width=0mm}", "image 'art.svg': {width=0mm}: width 0mm is not above 0;"),
    ("{height=150%}", "image 'art.svg': {height=150%}: height 150% is more than the page holds;"),
    ("{width=9000mm}", "image 'art.svg': {width=9000mm}: width 9000mm is more than 2000 mm;"),
    ("{width=1in width=2in}", "image 'art.svg': {width=1in width=2in}: width is given twice;"),
])
def test_a_bad_size_is_a_file_line_message(tmp_path, size, message):
    deck(tmp_path, f"# Art\n\nSome text.\n\n![Wide](art.svg){size}\n")
    result = run(["rules", "d", "--lang", "en", "--out", "out"], tmp_path)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.output.startswith(f"d/rules.en.md:5: {message}"), result.output
