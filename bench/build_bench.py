"""Build speed against a bare ReportLab script drawing the same cards (whole processes, median of runs).

    python bench/build_bench.py [--runs 5]

Times `pnp build --no-cache --no-exports` (SVG faces, print sheets, rulebooks, manifest:
everything made from scratch) for the 3 Stars design and for data-table decks of 41 and 500 cards
(CSV + Jinja2 SVG template, made here in a temporary folder), and the bare script of
bench/bare_reportlab.py for the same cards, then prints the ratios. Targets (issue 2):
at most 1.5x for 41 cards and 2x for 500.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DESIGN = """\
meta:
  title: Bench Deck {n}
  players: 2
print: {{paper: a4, bleed: 3mm}}
components:
  cards:
    kind: card
    size: poker
    data: cards.csv
    template: front.svg.j2
    back: {{template: back.svg.j2}}
"""
FRONT = """\
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ width + 2 * bleed }}" height="{{ height + 2 * bleed }}" fill="{{ colour }}"/>
<rect x="3" y="3" width="{{ width - 6 }}" height="{{ height - 6 }}" rx="2" fill="#ffffff"/>
<text x="{{ width / 2 }}" y="20" font-size="6" text-anchor="middle">{{ title }}</text>
<text x="{{ width / 2 }}" y="60" font-size="20" text-anchor="middle">{{ power }}</text>
"""
BACK = '<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ width + 2 * bleed }}" height="{{ height + 2 * bleed }}" fill="#333333"/>\n'


def make_deck(folder: Path, n: int) -> Path:
    d = folder / f"deck-{n}"
    d.mkdir(parents=True)
    (d / "design.yaml").write_text(DESIGN.format(n=n))
    (d / "front.svg.j2").write_text(FRONT)
    (d / "back.svg.j2").write_text(BACK)
    rows = ["title,power,colour,count"] + [f"Card {i},{i % 10},#d55e00,1" for i in range(n)]
    (d / "cards.csv").write_text("\n".join(rows) + "\n")
    return d


def timed(cmd: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    pnp = [sys.executable, "-m", "pnp.cli"]
    flags = ["--no-cache", "--no-exports"]  # every run makes the sheets from scratch, as the bare script does
    bare = [sys.executable, str(ROOT / "bench" / "bare_reportlab.py")]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        cases = [
            ("3 Stars (41 cards, board, pieces, 2 rulebooks)", pnp + ["build", str(ROOT / "designs" / "three-stars"),
                                                            "--out", str(tmp / "o"), *flags],
             bare + ["stars", str(tmp / "bare-stars.pdf")], None),
            ("data-table deck, 41 cards", pnp + ["build", str(make_deck(tmp, 41)), "--out", str(tmp / "o"), *flags],
             bare + ["table", "41", str(tmp / "bare-41.pdf")], 1.5),
            ("data-table deck, 500 cards", pnp + ["build", str(make_deck(tmp, 500)), "--out", str(tmp / "o"), *flags],
             bare + ["table", "500", str(tmp / "bare-500.pdf")], 2.0),
        ]
        print(f"{'case':<40} {'pnp s':>8} {'bare s':>8} {'ratio':>7} {'target':>7}")
        for name, ours, base, target in cases:
            t_ours, t_bare = timed(ours, args.runs), timed(base, args.runs)
            ratio = t_ours / t_bare
            tgt = f"{target:.1f}x" if target else "-"
            flag = "" if not target or ratio <= target else "  (over target)"
            print(f"{name:<40} {t_ours:>8.3f} {t_bare:>8.3f} {ratio:>6.2f}x {tgt:>7}{flag}")


if __name__ == "__main__":
    main()
