"""The designer's loop, timed (issue 9 targets: the default build of the four games under 5 s
on 2 cores; one changed card of 3 Stars rebuilt in under 0.5 s).

    python bench/loop_bench.py [--runs 3]

1. `pnp build` of every default design, cold (empty cache) and warm (nothing changed),
   whole processes, median of runs.
2. In one process, as `pnp watch` does: build 3 Stars, then change one face (the card
   back's colour) and rebuild; then a data-table deck with one row changed. Prints the
   seconds and how many faces were painted again (from the cache's counters).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str], env: dict, runs: int, before=None) -> float:
    times = []
    for _ in range(runs):
        if before:
            before()
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env, cwd=ROOT)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


COLD_GOAL = 3.0  # s: every shipped design with its rulebooks, from an empty cache (issue 16)
WATCH_GOAL = 0.3  # s: one changed face of 3 Stars, to the print sheets, in pnp watch (issue 16)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--check", action="store_true", help="exit 1 when a figure misses its goal")
    args = ap.parse_args()
    misses = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        out, cache = tmp / "out", tmp / "cache"
        env = {**os.environ, "PNP_CACHE_DIR": str(cache)}
        cmd = [sys.executable, "-m", "pnp.cli", "build", "--out", str(out)]
        cold = timed(cmd, env, args.runs, before=lambda: shutil.rmtree(cache, ignore_errors=True))
        warm = timed(cmd, env, args.runs)
        designs = sorted(p.parent.name for p in (ROOT / "designs").glob("*/design.yaml"))
        print(f"default build ({len(designs)} designs: {', '.join(designs)}), {os.cpu_count()} cores")
        print(f"  cold (empty cache)       {cold:6.2f} s   goal {COLD_GOAL:g} s")
        print(f"  warm (nothing changed)   {warm:6.2f} s")
        if cold > COLD_GOAL:
            misses.append(f"cold build {cold:.2f} s")

        from pnp.cache import Cache

        cases = (
            ("3 Stars: the board's region B tint (one face)", ROOT / "designs" / "three-stars",
             "design.yaml", 'tint: "#f6e8cf"', 'tint: "#f2e2c4"'),
            ("data-table deck: one row of cards.csv", ROOT / "tests" / "fixtures" / "deck-csv",
             "cards.csv", "Water,5", "Water,6"),
        )
        from pnp.watch import Watcher

        for name, folder, file, old, new in cases:
            design = tmp / "designs" / folder.name
            shutil.copytree(folder, design)
            lines: list[str] = []
            watcher = Watcher([design], tmp / "w", echo=lines.append, cache=Cache(tmp / "watch-cache"))
            watcher.rebuild([design])
            path = design / file
            path.write_text(path.read_text().replace(old, new))
            lines.clear()
            watcher.rebuild(watcher.affected([path]))
            print(f"rebuild after one change in a running process (pnp watch): {name}   goal {WATCH_GOAL:g} s "
                  "to the sheets")
            for line in lines:
                print("  " + line.split("] ", 1)[-1])
            if watcher.last_sheets_seconds > WATCH_GOAL:
                misses.append(f"{name}: {watcher.last_sheets_seconds:.2f} s to the sheets")
    if misses:
        print("missed: " + "; ".join(misses))
        if args.check:
            sys.exit(1)


if __name__ == "__main__":
    main()
