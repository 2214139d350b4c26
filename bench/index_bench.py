"""The contact sheet (index.html) of a 500-card deck with art: what it costs the build, and the page in Chromium.

    python bench/index_bench.py [--cards 500] [--runs 5] [--against /work/main] [--distinct] [--keep DIR]

The deck is the 500 poker cards of bench/build_bench.py made the way a designer's deck with art is: each
card draws one of two illustrations (an SVG ship, a 124 KB PNG compass), two SVG icons and its title in the
design's own font (DejaVu Serif Condensed, two faces); its back reads the row's suit, so there are 4 backs
by row. `--distinct` adds bench/art_bench.py's deck: one distinct 750 x 1050 PNG per card (1.2 MB each).

Build: `pnp build DECK` as a designer runs it, whole processes, median of `--runs`: cold (new output and
cache) and warm (again, everything cached; pnp writes index.html on every build), wall and CPU seconds (the
process tree's user + system time, which other work on the machine changes less). `--against CHECKOUT`
times another checkout of pnp (PYTHONPATH) in turn with this one, e.g. main before a change.

Page: Debian's Chromium (/usr/bin/chromium) driven by Playwright opens index.html from disk (file://), a
1200 x 900 window: the page's size, the time to its load event, to its first screen of faces drawn (every
face box in view has its SVG, its images decoded and the fonts loaded), to every face drawn after
scrolling to each in turn, the requests made, and the memory of the browser's processes (PSS, MB) after
the first screen and at the end. Needs `pip install playwright` (the `test` extra) and Chromium.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from build_bench import CPU, run  # noqa: E402 - the bench folder is not a package

SHOWCASE = ROOT / "designs" / "showcase"
DESIGN = """\
meta: {{title: Index Bench {n}, players: 2}}
print: {{paper: a4, bleed: 3mm}}
fonts:
  Bench Serif: {{regular: fonts/DejaVuSerifCondensed.ttf, bold: fonts/DejaVuSerifCondensed-Bold.ttf}}
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
<rect x="4" y="4" width="{{ width - 8 }}" height="{{ height - 8 }}" rx="3" fill="#ffffff"/>
<text x="{{ width / 2 }}" y="11" font-family="Bench Serif" font-size="5" font-weight="bold"
      text-anchor="middle">{{ title }}</text>
<image href="art/{{ art }}" x="6" y="14" width="{{ width - 12 }}" height="36"/>
<image href="icons/coin.svg" x="6" y="54" width="8" height="8"/>
<image href="icons/fish.svg" x="16" y="54" width="8" height="8"/>
<text x="{{ width / 2 }}" y="75" font-family="Bench Serif" font-size="4"
      text-anchor="middle">{{ suit }} {{ number }}</text>
"""
BACK = """\
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ width + 2 * bleed }}" height="{{ height + 2 * bleed }}" fill="#1f3b57"/>
<text x="{{ width / 2 }}" y="{{ height / 2 }}" font-family="Bench Serif" font-size="8" text-anchor="middle"
      fill="#e8c36a">{{ suit }}</text>
"""
SUITS = [("Sun", "#d55e00"), ("Sea", "#0072b2"), ("Leaf", "#009e73"), ("Rose", "#cc79a7")]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
# the faces on screen drawn: each box in view has its SVG in its shadow root and the fonts are loaded (then the
# URLs of its images, which page_run waits for), or, in a page of <img>s, each <img> in view is loaded
SCREEN_DRAWN = """() => {
  const inView = e => { const r = e.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; };
  const boxes = [...document.querySelectorAll('.face')].filter(inView);
  const imgs = [...document.querySelectorAll('figure > img')].filter(inView);
  if (!boxes.length && !imgs.length || document.fonts.status !== 'loaded') return false;
  if (!imgs.every(i => i.complete && i.naturalWidth > 0)) return false;
  if (!boxes.every(b => b.shadowRoot)) return false;
  return boxes.flatMap(b => [...b.shadowRoot.querySelectorAll('image')].map(i =>
    new URL(i.href.baseVal, document.baseURI).href)).concat(['']);
}"""


def make_deck(folder: Path, n: int) -> Path:
    d = folder / f"index-deck-{n}"
    for sub in ("art", "icons", "fonts"):
        (d / sub).mkdir(parents=True)
    shutil.copy(SHOWCASE / "art" / "ship.svg", d / "art")
    shutil.copy(SHOWCASE / "art" / "compass.png", d / "art")
    for icon in ("coin.svg", "fish.svg"):
        shutil.copy(SHOWCASE / "icons" / icon, d / "icons")
    for font in ("DejaVuSerifCondensed.ttf", "DejaVuSerifCondensed-Bold.ttf"):
        shutil.copy(SHOWCASE / "fonts" / font, d / "fonts")
    (d / "design.yaml").write_text(DESIGN.format(n=n))
    (d / "front.svg.j2").write_text(FRONT)
    (d / "back.svg.j2").write_text(BACK)
    rows = ["title,number,suit,colour,art,count"]
    for i in range(n):
        suit, colour = SUITS[i % 4]
        rows.append(f"Card {i + 1},{i % 10 + 1},{suit},{colour},{'ship.svg' if i % 2 else 'compass.png'},1")
    (d / "cards.csv").write_text("\n".join(rows) + "\n")
    return d


def _pss_mb(marker: str) -> int:
    """Proportional memory of every process whose command line holds `marker` (the browser's profile)."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if marker.encode() not in Path(f"/proc/{pid}/cmdline").read_bytes():
                continue
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total // 1024


def page_run(page_path: Path) -> dict:
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="pnp-index-bench-")
    try:
        with sync_playwright() as p:
            ctx = p.chromium.launch_persistent_context(profile, executable_path="/usr/bin/chromium", args=ARGS,
                                                       viewport={"width": 1200, "height": 900})
            page = ctx.new_page()
            page.set_default_timeout(300_000)
            finished: set[str] = {""}
            requests, failed = [0], []
            page.on("requestfinished", lambda r: (requests.__setitem__(0, requests[0] + 1), finished.add(r.url)))
            page.on("requestfailed", lambda r: failed.append(r.url))

            def drawn() -> None:
                urls = page.wait_for_function(SCREEN_DRAWN, polling=20).json_value()
                while not set(urls) <= finished | set(failed):
                    page.wait_for_timeout(10)

            t = time.perf_counter()
            page.goto(page_path.as_uri(), wait_until="load")
            load = time.perf_counter() - t
            drawn()
            screen = time.perf_counter() - t
            pss_screen = _pss_mb(profile)
            t = time.perf_counter()
            boxes = page.locator(".face, figure > img")
            for i in range(0, boxes.count(), 24):  # a screenful at a time, each drawn before the next
                boxes.nth(i).scroll_into_view_if_needed()
                drawn()
            page.wait_for_load_state("networkidle")
            scroll = time.perf_counter() - t - 0.5  # networkidle waits 500 ms with nothing loading
            pss_end = _pss_mb(profile)
            ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return {"load": load, "screen": screen, "scroll": scroll, "pss_screen": pss_screen, "pss_end": pss_end,
            "requests": requests[0], "failed": len(failed)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", type=int, default=500)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--against", type=Path, help="another checkout of pnp to time in turn with this one")
    ap.add_argument("--distinct", action="store_true", help="also the deck with one distinct PNG per card")
    ap.add_argument("--keep", type=Path, help="build into this folder and keep it")
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k not in ("PNP_CACHE_DIR", "PYTHONDONTWRITEBYTECODE")}
    checkouts = [("this", ROOT)] + ([("against", args.against.resolve())] if args.against else [])
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="pnp-index-bench-"))
    tmp.mkdir(parents=True, exist_ok=True)
    decks = [make_deck(tmp, args.cards)]
    if args.distinct:
        import art_bench

        art_bench.write_deck(tmp / f"png-deck-{args.cards}", args.cards, art=True)
        decks.append(tmp / f"png-deck-{args.cards}")
    try:
        for deck in decks:
            print(f"== {deck.name}")
            cold: dict[str, list[float]] = {name: [] for name, _ in checkouts}
            warm: dict[str, list[float]] = {name: [] for name, _ in checkouts}
            cpu: dict[str, list[float]] = {name: [] for name, _ in checkouts}  # warm builds' CPU seconds
            for i in range(args.runs):
                for name, checkout in checkouts:
                    e = dict(env, PYTHONPATH=str(checkout))
                    out = tmp / f"out-{deck.name}-{name}-{i}"
                    cmd = [sys.executable, "-P", "-m", "pnp.cli", "build", str(deck), "--out", str(out)]  # -P: not the cwd's pnp
                    cold[name].append(run(cmd, e)[0])
                    warm[name].append(run(cmd, e)[0])
                    cpu[name].append(CPU[-1])
                    if i < args.runs - 1:
                        shutil.rmtree(out)
            for name, checkout in checkouts:
                print(f"build ({name}: {checkout}): cold {statistics.median(cold[name]):.3f} s, "
                      f"warm {statistics.median(warm[name]):.3f} s, {statistics.median(cpu[name]):.3f} CPU s (median of "
                      f"{args.runs}; warm runs {', '.join(f'{t:.3f}' for t in warm[name])})")
            for name, _ in checkouts:
                page = tmp / f"out-{deck.name}-{name}-{args.runs - 1}" / deck.name / "index.html"
                runs = [page_run(page) for _ in range(3)]
                m = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
                print(f"page ({name}): {page.stat().st_size / 1024:.0f} KB; load {m['load'] * 1000:.0f} ms, first "
                      f"screen drawn {m['screen'] * 1000:.0f} ms, every face drawn by scrolling "
                      f"{m['scroll'] * 1000:.0f} ms; {m['requests']:.0f} requests, {m['failed']:.0f} failed; "
                      f"browser PSS {m['pss_screen']:.0f} MB first screen, {m['pss_end']:.0f} MB at the end")
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
