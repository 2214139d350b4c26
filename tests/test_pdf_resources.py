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
