"""A 500-card deck with one distinct 750 x 1050 PNG illustration per card (issue 15), built cold.

    python bench/art_bench.py [--cards 500] [--keep DIR] [--check]

Makes two designs in a temporary folder: `art-deck`, 500 rows of a CSV, each card drawing its own
PNG over the trim (63 x 88 mm: 302 dpi) and a line of text; `plain-deck`, the same deck without the
images. Each is built by the command a user runs, `pnp build DESIGN --no-cache --no-exports`, in its
own process; prints the wall time, the peak resident memory of the largest process (the build or one
of its workers: `ru_maxrss` of the waited-for children), the PDF's size and how many image objects it
holds (one per distinct file is expected). The PNGs are photo-like (gradients, shapes, noise) so they
compress like illustrations, made with Pillow only. Then bench/bare_art_reportlab.py places the same PNGs 9-up
with ReportLab alone, the baseline (issue 36: pnp's art deck within 1.5x of its time, under 500 MB).
`--check` exits 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TEMPLATE = """<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ width + 2 * bleed }}" height="{{ height + 2 * bleed }}" fill="#f4efe4"/>
{% if art %}<image href="{{ art }}" x="0" y="0" width="{{ width }}" height="{{ height }}"/>{% endif %}
<rect x="4" y="74" width="55" height="10" fill="#ffffff" opacity="0.85"/>
<text x="{{ width / 2 }}" y="81" font-size="5" text-anchor="middle">{{ name }}: strike for {{ power }}</text>
"""

DESIGN = """meta:
  title: {title}
  players: 2
components:
  cards:
    kind: card
    size: poker
    data: cards.csv
    template: front.svg.j2
"""


def make_png(path: Path, n: int) -> None:
    from PIL import Image, ImageChops, ImageDraw

    w, h = 750, 1050
    r = Image.linear_gradient("L").resize((w, h)).point(lambda v: (v + n * 37) % 256)
    g = Image.linear_gradient("L").rotate(90).resize((w, h)).point(lambda v: (v * 3 + n * 11) % 256)
    b = Image.radial_gradient("L").resize((w, h)).point(lambda v: (255 - v + n * 5) % 256)
    im = Image.merge("RGB", (r, g, b))
    d = ImageDraw.Draw(im)
    for i in range(6):
        x, y = (n * 97 + i * 131) % w, (n * 53 + i * 211) % h
        d.ellipse((x - 80, y - 80, x + 80, y + 80), fill=((n * 40 + i * 60) % 256, (i * 90) % 256, (n * 7) % 256))
    noise = Image.effect_noise((w, h), 8).convert("RGB")
    im = ImageChops.add(im, noise, scale=1.0, offset=-128)  # noise (centred on 128) around the art
    im.save(path, compress_level=6)


def write_deck(folder: Path, cards: int, art: bool) -> None:
    folder.mkdir(parents=True)
    (folder / "design.yaml").write_text(DESIGN.format(title="Art deck" if art else "Plain deck"))
    (folder / "front.svg.j2").write_text(TEMPLATE)
    rows = ["name,power,art"]
    if art:
        (folder / "art").mkdir()
    for n in range(1, cards + 1):
        href = ""
        if art:
            href = f"art/card-{n:03d}.png"
            make_png(folder / href, n)
        rows.append(f"Card {n},{n % 9 + 1},{href}")
    (folder / "cards.csv").write_text("\n".join(rows) + "\n")


WRAPPER = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
           "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(r.returncode)")


def timed(args: list[str], what: str) -> tuple[float, int]:
    """(seconds, peak RSS in MB of the largest process) of one whole process running `args` (after python)."""
    cmd = [sys.executable, "-c", WRAPPER, sys.executable, *args]
    t = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - t
    if done.returncode != 0:
        sys.exit(f"{what} failed:\n{done.stderr}{done.stdout}")
    return seconds, int(done.stdout.strip().splitlines()[-1]) // 1024


def bare(art: Path, out: Path) -> tuple[float, int]:
    """The bare ReportLab script placing the same PNGs."""
    return timed([str(ROOT / "bench" / "bare_art_reportlab.py"), str(art), str(out)], "the bare script")


TIME_GOAL, MEMORY_GOAL_MB = 1.5, 500


def build(design: Path, out: Path) -> tuple[float, int]:
    """A cold `pnp build`."""
    return timed(["-m", "pnp.cli", "build", str(design), "--out", str(out), "--no-cache", "--no-exports"], "build")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", type=int, default=500)
    ap.add_argument("--keep", type=Path, help="make the decks and outputs here (kept) instead of a temp folder")
    ap.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    args = ap.parse_args()
    figures = {}
    tmp_ctx = tempfile.TemporaryDirectory() if args.keep is None else None
    tmp = Path(tmp_ctx.name) if tmp_ctx else args.keep
    try:
        t = time.perf_counter()
        for name, art in (("art-deck", True), ("plain-deck", False)):
            if not (tmp / name / "cards.csv").is_file():  # --keep DIR made before: its decks are reused
                write_deck(tmp / name, args.cards, art=art)
        art_bytes = sum(p.stat().st_size for p in (tmp / "art-deck" / "art").iterdir())
        print(f"{args.cards} cards, {args.cards} distinct 750 x 1050 PNGs ({art_bytes / 1e6:.0f} MB), made in "
              f"{time.perf_counter() - t:.0f} s; {os.cpu_count()} cores")
        print("cold `pnp build DESIGN --no-cache --no-exports`:")
        for name in ("plain-deck", "art-deck"):
            seconds, rss = build(tmp / name, tmp / "out")
            pdf = tmp / "out" / name / f"{name}-a4.pdf"
            images = len(re.findall(rb"/Subtype /Image", pdf.read_bytes()))
            print(f"  {name:<11} {seconds:6.1f} s   peak RSS {rss:5d} MB   PDF {pdf.stat().st_size / 1e6:6.1f} MB, "
                  f"{images} image objects")
            figures[name] = (seconds, rss)
        seconds, rss = bare(tmp / "art-deck" / "art", tmp / "out" / "bare-art.pdf")
        size = (tmp / "out" / "bare-art.pdf").stat().st_size
        print(f"bare ReportLab placing the same PNGs 9-up: {seconds:6.1f} s   peak RSS {rss:5d} MB   PDF "
              f"{size / 1e6:6.1f} MB")
        art_s, art_mb = figures["art-deck"]
        ratio = art_s / seconds
        ok = ratio <= TIME_GOAL and art_mb < MEMORY_GOAL_MB
        print(f"art deck: {ratio:.2f}x the bare script's time (goal at most {TIME_GOAL}x), peak {art_mb} MB (goal "
              f"under {MEMORY_GOAL_MB} MB): " + ("met" if ok else "MISSED"))
        if args.check and not ok:
            sys.exit(1)
    finally:
        if tmp_ctx:
            tmp_ctx.cleanup()


if __name__ == "__main__":
    main()
