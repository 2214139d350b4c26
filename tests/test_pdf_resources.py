"""Every content stream pnp writes finds what it uses in its own resources (strict viewers and print
shops' preflight refuse a form that borrows its page's alpha states or gradients)."""

from __future__ import annotations

import shutil
from pathlib import Path

from pdfmeasure import missing_resources

from pnp.build import build_designs
from pnp.cache import Cache

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_sheets_and_rulebooks_of_3_stars(three_stars_a4):
    for pdf in sorted(three_stars_a4.glob("*.pdf")):
        assert missing_resources(pdf) == [], pdf.name


def test_faces_with_gradients_alpha_clips_and_nested_svg(tmp_path):
    """The renderer's feature fixtures as the faces of a deck: their forms on sheets of several pages."""
    deck = tmp_path / "features"
    (deck / "art").mkdir(parents=True)
    names = ["gradients", "opacity", "clip", "nested_svg", "use_symbol", "text"]
    for n in names:
        shutil.copy(FIXTURES / "svgpdf" / f"{n}.svg", deck / "art" / f"{n}.svg")
    comps = "\n".join(f"  {n.replace('_', '-')}:\n    kind: card\n    size: poker\n    count: 10\n    svg: art/{n}.svg"
                      for n in names)
    (deck / "design.yaml").write_text(f"meta: {{title: Features, players: 2}}\ncomponents:\n{comps}\n")
    [res] = build_designs([str(deck)], out=tmp_path / "out", cache=Cache(None), exports=False, show_progress=False)
    assert missing_resources(res.out_dir / "features-a4.pdf") == []


def test_faces_forms_are_written_as_reportlab_writes_them(tmp_path, monkeypatch):
    """pnp writes a face's form XObject itself (reportlab_internals.FontsOnlyForm, the common case: fonts only) for speed; the
    bytes are ReportLab's own (a ReportLab release that writes forms otherwise fails here, not in print)."""
    from reportlab.pdfbase.pdfdoc import PDFFormXObject

    from pnp.render.reportlab_internals import FontsOnlyForm

    deck = tmp_path / "features"
    (deck / "art").mkdir(parents=True)
    for n in ("text", "gradients"):  # fonts only (written by pnp), and a shading (by ReportLab)
        shutil.copy(FIXTURES / "svgpdf" / f"{n}.svg", deck / "art" / f"{n}.svg")
    (deck / "design.yaml").write_text("meta: {title: Forms, players: 2}\ncomponents:\n"
                                      "  words: {kind: card, size: poker, count: 3, svg: art/text.svg}\n"
                                      "  shades: {kind: card, size: poker, count: 2, svg: art/gradients.svg}\n")
    made = []
    real = FontsOnlyForm.format
    monkeypatch.setattr(FontsOnlyForm, "format", lambda self, doc: made.append(1) or real(self, doc))
    [fast] = build_designs([str(deck)], out=tmp_path / "fast", cache=Cache(None), exports=False, show_progress=False)
    assert made, "no face went through pnp's own form writer"
    monkeypatch.setattr(FontsOnlyForm, "format", PDFFormXObject.format)
    [slow] = build_designs([str(deck)], out=tmp_path / "slow", cache=Cache(None), exports=False, show_progress=False)
    assert (fast.out_dir / "features-a4.pdf").read_bytes() == (slow.out_dir / "features-a4.pdf").read_bytes()
