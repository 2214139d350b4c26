"""SVG faces into PDF forms: pnp.render.svgpdf against svglib + renderPDF (a benchmark, not a test).

    python bench/svgpdf_bench.py [--runs 7] [--svg-dir /tmp/svgpdf-out] [--deck 500] [--profile]

For each set of faces, both renderers turn every SVG into a PDF form XObject on one ReportLab
canvas, as pnp/layout/pdf.py does: svglib = `svg2rlg` (with pnp's font map) + `renderPDF.draw`;
svgpdf = `compile_svg` + `draw`. Sets: the faces of every shipped design (the SVG files of a
`pnp build --out DIR`, read from DIR/<design>/svg/ when --svg-dir is given, else made in this
process by the same code), and a data-table poker deck like bench/build_bench.py's (rounded
coloured border, title, a number in a disc, a suit polygon), one distinct face per card.
Timings are the least process CPU time of --runs passes (the two renderers alternate); svgpdf
forgets what earlier passes kept before each pass (clear_caches), so faces reuse only what they
share within one pass, as in one build; the PDF is not saved (that cost is the same for both). --profile prints the
cProfile of svgpdf on the deck. --pixels prints, per design, how every face's rendering differs
from svglib's and from cairosvg's (tests/svgpdf_pixels.py: pdfium vs cairo at 96 dpi, each pixel
against the closest within 1 px; mean absolute difference per channel and share of pixels off by
more than 64), worst face first.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SUITS = [("#1a1a1a", "31.5,60 38.5,69 31.5,78 24.5,69"), ("#c0392b", "31.5,60 39,72 24,72"),
         ("#1f5faa", "24.5,61 38.5,61 38.5,77 24.5,77"), ("#2e8b57", "31.5,59 39,66 36,77 27,77 24,66")]
COLOURS = ["#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00"]
FRONT = """\
<rect x="-3" y="-3" width="69" height="94" fill="{colour}"/>
<rect x="3" y="3" width="57" height="82" rx="3" ry="3" fill="#ffffff" stroke="{colour}" stroke-width="0.8"/>
<text x="31.5" y="14" font-size="6" font-weight="bold" text-anchor="middle">{title}</text>
<circle cx="31.5" cy="40" r="12" fill="{colour}" stroke="#1a1a1a" stroke-width="0.5"/>
<text x="31.5" y="40" font-size="14" text-anchor="middle" dominant-baseline="central" fill="#ffffff">{n}</text>
<polygon points="{points}" fill="{suit}"/>
"""


def deck_faces(n: int) -> dict[str, str]:
    from pnp.render.svg import wrap_fragment

    out = {}
    for i in range(n):
        suit, points = SUITS[i % len(SUITS)]
        frag = FRONT.format(colour=COLOURS[i % len(COLOURS)], title=f"Card {i}", n=i % 10, suit=suit, points=points)
        out[f"card-{i:04d}"] = wrap_fragment(frag, 63, 88, 3)
    return out


def design_faces(svg_dir: Path | None) -> dict[str, dict[str, str]]:
    """{design: {face name: SVG text}} for every shipped design."""
    if svg_dir is not None:
        return {d.name: {f.name: f.read_text(encoding="utf-8") for f in sorted((d / "svg").glob("*.svg"))}
                for d in sorted(svg_dir.iterdir()) if (d / "svg").is_dir()}
    from pnp import registry
    from pnp.loader import find_designs, load_design
    from pnp.render.faces import design_faces as faces_of

    registry.discover()
    out = {}
    for folder in find_designs():
        design = load_design(folder)
        faces = {}
        for cf in faces_of(design):
            for face in cf.fronts + ([cf.back] if cf.back else []):
                faces[f"{cf.component_id}-{face.key}"] = face.paint()
        out[folder.name] = faces
    return out


def run_svglib(svgs: list[str]) -> None:
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas

    from pnp.layout.pdf import _parse
    from pnp.render import fonts

    c = Canvas(io.BytesIO(), invariant=1, initialFontName=fonts.REGULAR)
    for i, svg in enumerate(svgs):
        d = _parse(svg)
        c.beginForm(f"face{i}", 0, 0, d.width, d.height)
        renderPDF.draw(d, c, 0, 0)
        c.endForm()


def run_svgpdf(svgs: list[str]) -> None:
    from reportlab.pdfgen.canvas import Canvas

    from pnp.render import fonts
    from pnp.render.svgpdf import clear_caches, compile_svg, draw

    clear_caches()  # every pass as in a fresh process: faces share only what they share within it
    c = Canvas(io.BytesIO(), invariant=1, initialFontName=fonts.REGULAR)
    for i, svg in enumerate(svgs):
        comp = compile_svg(svg)
        c.beginForm(f"face{i}", 0, 0, comp.width, comp.height)
        draw(comp, c)
        c.endForm()


def best(fn, svgs, runs: int) -> float:
    """Least CPU time of the process over `runs` passes (CPU time, not wall time: on a shared
    machine other processes stretch wall times by whatever they run)."""
    times = []
    for _ in range(runs):
        t = time.process_time()
        fn(svgs)
        times.append(time.process_time() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--svg-dir", type=Path, help="the --out folder of a `pnp build` (faces in <design>/svg/)")
    ap.add_argument("--deck", type=int, default=500, help="cards in the data-table deck")
    ap.add_argument("--profile", action="store_true", help="cProfile svgpdf on the deck")
    ap.add_argument("--pixels", action="store_true", help="pixel differences per design instead of timings")
    args = ap.parse_args()
    if args.pixels:
        pixels(design_faces(args.svg_dir))
        return

    from pnp.render import fonts

    fonts.register()
    sets = {f"design {k}": list(v.values()) for k, v in design_faces(args.svg_dir).items() if v}
    sets["all shipped designs"] = [s for k, v in sets.items() for s in v]
    sets[f"data-table deck ({args.deck} cards)"] = list(deck_faces(args.deck).values())
    for svgs in sets.values():  # warm up: imports, font registration, caches of both
        run_svglib(svgs[:3])
        run_svgpdf(svgs[:3])
    print(f"{'faces':<34} {'n':>5} {'svglib faces/s':>15} {'svgpdf faces/s':>15} {'speed-up':>9}"
          f" {'svglib ms/face':>14} {'svgpdf ms/face':>15}")
    for name, svgs in sets.items():
        t_lib, t_ours = 1e9, 1e9
        for _ in range(args.runs):  # alternate, so a busy machine slows both alike
            t_lib = min(t_lib, best(run_svglib, svgs, 1))
            t_ours = min(t_ours, best(run_svgpdf, svgs, 1))
        n = len(svgs)
        print(f"{name:<34} {n:>5} {n / t_lib:>15.0f} {n / t_ours:>15.0f} {t_lib / t_ours:>8.1f}x"
              f" {t_lib * 1000 / n:>14.3f} {t_ours * 1000 / n:>15.3f}")
    if args.profile:
        deck = sets[f"data-table deck ({args.deck} cards)"]
        prof = cProfile.Profile()
        prof.runcall(run_svgpdf, deck)
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)


def pixels(designs: dict[str, dict[str, str]]) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from svgpdf_pixels import compare, render_cairo, render_ours, render_svglib

    print(f"{'design':<22} {'faces':>5} {'vs svglib: worst mean / share':>30} {'vs cairosvg: worst mean / share':>32}"
          f"  worst face vs cairosvg")
    for design, faces in designs.items():
        if not faces:
            continue
        lib, cairo = [], []
        for name, text in faces.items():
            ours = render_ours(text)
            lib.append(compare(ours, render_svglib(text), shift=0))
            cairo.append((compare(ours, render_cairo(text)), name))
        worst_lib = max(lib, key=lambda d: d.share)
        worst, worst_name = max(cairo, key=lambda t: (t[0].share, t[0].mean))
        print(f"{design:<22} {len(faces):>5} {max(d.mean for d in lib):>17.3f} / {worst_lib.share:>6.3f}%"
              f" {max(d.mean for d, _ in cairo):>19.2f} / {worst.share:>6.2f}%  {worst_name}")


if __name__ == "__main__":
    main()
