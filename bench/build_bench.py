"""Build speed and memory against a bare ReportLab script drawing the same cards (issue 16).

    python bench/build_bench.py [--runs 3] [--big 10000] [--check]

Whole processes, median of runs, on this machine's cores; the runs of a deck's cases are taken in turn
(bare, default, from scratch, bare...) so that a host whose speed drifts weighs on each alike. The job is
the one peer tools were timed on: a data-table deck of poker cards (CSV + Jinja2 SVG template: a rounded coloured
border, a title, a number in a disc, a suit polygon; a shared back), 9-up on A4 with crop
marks, vector, embedded font. bench/bare_reportlab.py draws the same cards directly.

Rows:
- `pnp build` as a designer runs it by default, cold: a new output folder and an empty cache;
- `pnp build --no-cache --no-exports`: everything made from scratch, nothing kept;
- the bare script.
Then the big deck (default 10,000 cards): time, the peak memory of the whole process tree
(sampled from /proc), and whether the time per card beyond 500 stays within 10 % of the
time per card between 41 and 500 (linear growth).

Goals (issue 36, ratios to the bare script): the default build of 41 and of 500 cards at most 2x (and 2.5x the
bare script's CPU at 500), a build from scratch without exports of 500 cards at most 1.5x; the big deck at most
2x, under 200 MB and linear within 10 %. `--check` exits 1 when a figure misses its goal (a benchmark, not a
test).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
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
<rect x="4" y="4" width="{{ width - 8 }}" height="{{ height - 8 }}" rx="3" fill="#ffffff"/>
<text x="{{ width / 2 }}" y="14" font-size="6" font-weight="bold" text-anchor="middle" fill="#1a1a1a">{{ title }}</text>
<circle cx="{{ width / 2 }}" cy="40" r="12" fill="{{ colour }}"/>
<text x="{{ width / 2 }}" y="45" font-size="14" font-weight="bold" text-anchor="middle" fill="#ffffff">{{ number }}</text>
<polygon points="{{ width / 2 }},62 {{ width / 2 + 6 }},70 {{ width / 2 }},78 {{ width / 2 - 6 }},70" fill="{{ colour }}"/>
"""
BACK = """\
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ width + 2 * bleed }}" height="{{ height + 2 * bleed }}" fill="#333333"/>
<text x="{{ width / 2 }}" y="{{ height / 2 }}" font-size="8" font-weight="bold" text-anchor="middle" fill="#e8c36a">Bench Deck</text>
"""
COLOURS = ["#d55e00", "#0072b2", "#009e73", "#cc79a7"]
GOALS = {"default 41": 2.0, "default 500": 2.0, "scratch 500": 1.5}
CPU_GOALS = {"default 500": 2.5}
BIG_GOAL = 2.0
MEMORY_GOAL_MB = 200
LINEAR_GOAL = 1.10


def make_deck(folder: Path, n: int) -> Path:
    d = folder / f"deck-{n}"
    d.mkdir(parents=True)
    (d / "design.yaml").write_text(DESIGN.format(n=n))
    (d / "front.svg.j2").write_text(FRONT)
    (d / "back.svg.j2").write_text(BACK)
    rows = ["title,number,colour,count"] + [f"Card {i + 1},{i % 10 + 1},{COLOURS[i % 4]},1" for i in range(n)]
    (d / "cards.csv").write_text("\n".join(rows) + "\n")
    return d


def _tree_rss_kb(pid: int) -> int:
    """Resident memory of a process and all its descendants, in kB (from /proc)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo.extend(int(c) for c in fh.read().split())
        except (OSError, ValueError):
            continue
    return total


CPU: list[float] = []  # CPU seconds (user + system) of each run's process tree, in order


def run(cmd: list[str], env: dict | None = None) -> tuple[float, int]:
    """(seconds, peak resident memory of the process tree in MB) of one whole process. Its CPU time (the
    whole tree's, which a loaded machine changes far less than the wall clock) goes to CPU."""
    peak = [0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], _tree_rss_kb(proc.pid))
            done.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = proc.communicate()
    seconds = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    done.set()
    sampler.join()
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{err.decode()}")
    return seconds, peak[0] // 1024


CPU_OF: dict[str, float] = {}


def timed(make_cmd, runs: int, env: dict | None = None, name: str = "") -> tuple[float, int]:
    return interleaved([(make_cmd, env, name)], runs)[0]


def interleaved(cases: list, runs: int) -> list[tuple[float, int]]:
    """(median seconds, peak MB) of each (make_cmd, env, name) case, their runs taken in turn (a, b, c, a, b, c...):
    a machine whose speed drifts (other work on the host) weighs on every case alike, so their ratios hold."""
    results: list[list] = [[] for _ in cases]
    cpu: list[list] = [[] for _ in cases]
    for i in range(runs):
        for k, (make_cmd, env, _) in enumerate(cases):
            results[k].append(run(make_cmd(i), env))
            cpu[k].append(CPU[-1])
    for (_, _, name), c in zip(cases, cpu):
        CPU_OF[name] = statistics.median(c)
    return [(statistics.median(r[0] for r in rs), max(r[1] for r in rs)) for rs in results]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--big", type=int, default=10000, help="cards in the big deck (0 skips it)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a figure misses its goal")
    args = ap.parse_args()
    pnp = [sys.executable, "-m", "pnp.cli", "build"]
    bare = [sys.executable, str(ROOT / "bench" / "bare_reportlab.py")]
    # like a user's machine: bytecode is cached after the first run (some CI images turn that off)
    env = {k: v for k, v in os.environ.items() if k not in ("PNP_CACHE_DIR", "PYTHONDONTWRITEBYTECODE")}
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    misses = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        decks = {n: make_deck(tmp, n) for n in (41, 500)}
        rows = []
        base = {}
        for n, deck in decks.items():
            # one unmeasured run of each first: Python compiles and caches the bytecode then
            run(bare + ["table", str(n), str(tmp / f"bare-warm-{n}.pdf")], clean)
            run(pnp + [str(deck), "--out", str(tmp / f"warm-{n}")], env)
            (t_bare, _), (t_def, m_def), (t_scr, m_scr) = interleaved([
                (lambda i, n=n: bare + ["table", str(n), str(tmp / f"bare-{n}-{i}.pdf")], clean,
                 f"bare ReportLab, {n} cards"),
                (lambda i, n=n, deck=deck: pnp + [str(deck), "--out", str(tmp / f"cold-{n}-{i}")], env,
                 f"pnp build, {n} cards, cold"),
                (lambda i, n=n, deck=deck: pnp + [str(deck), "--out", str(tmp / f"scr-{n}-{i}"), "--no-cache",
                                                  "--no-exports"], env, f"pnp build --no-cache --no-exports, {n}"),
            ], args.runs)
            base[n] = t_bare
            rows += [(f"default {n}", f"pnp build, {n} cards, cold", t_def, m_def, t_bare),
                     (f"scratch {n}", f"pnp build --no-cache --no-exports, {n}", t_scr, m_scr, t_bare),
                     (None, f"bare ReportLab, {n} cards", t_bare, 0, t_bare)]
        print(f"{'case':<44} {'seconds':>8} {'peak MB':>8} {'ratio':>7} {'goal':>6} {'CPU s':>7} {'CPU ratio':>9}")
        for key, name, t, mem, t_bare in rows:
            goal = GOALS.get(key or "")
            ratio = t / t_bare
            flag = ""
            if goal and ratio > goal:
                flag = "  MISSED"
                misses.append(f"{name}: {ratio:.1f}x > {goal:g}x")
            cpu, cpu_bare = CPU_OF.get(name, 0.0), CPU_OF.get(f"bare ReportLab, {name.split(', ')[1].split()[0]} cards"
                                                               if ", " in name else "", 0.0)
            cpu_ratio = f"{cpu / cpu_bare:>8.1f}x" if cpu_bare else ""
            cpu_goal = CPU_GOALS.get(key or "")
            if cpu_goal and cpu_bare and cpu / cpu_bare > cpu_goal:
                flag += "  CPU MISSED"
                misses.append(f"{name}: CPU {cpu / cpu_bare:.1f}x > {cpu_goal:.1f}x")
            print(f"{name:<44} {t:>8.3f} {mem or '':>8} {ratio:>6.1f}x {f'{goal:g}x' if goal else '':>6} "
                  f"{cpu:>7.3f} {cpu_ratio:>9}{flag}")
        if args.big:
            big = make_deck(tmp, args.big)
            t_big, m_big = timed(lambda i: pnp + [str(big), "--out", str(tmp / f"cold-big-{i}")], 1, env)
            t_41 = next(r[2] for r in rows if r[0] == "default 41")
            t_500 = next(r[2] for r in rows if r[0] == "default 500")
            per_small = (t_500 - t_41) / (500 - 41)
            per_big = (t_big - t_500) / (args.big - 500)
            growth = per_big / per_small if per_small > 0 else float("inf")
            t_bare_big, _ = timed(lambda i: bare + ["table", str(args.big), str(tmp / "bare-big.pdf")], 1, clean)
            print(f"{f'pnp build, {args.big} cards, cold':<44} {t_big:>8.3f} {m_big:>8} {t_big / t_bare_big:>6.1f}x")
            print(f"{f'bare ReportLab, {args.big} cards':<44} {t_bare_big:>8.3f}")
            print(f"time per card: {per_small * 1000:.2f} ms from 41 to 500 cards, {per_big * 1000:.2f} ms beyond "
                  f"500 ({growth:.2f}x; goal at most {LINEAR_GOAL:.2f}x); peak memory {m_big} MB "
                  f"(goal under {MEMORY_GOAL_MB} MB)")
            if t_big / t_bare_big > BIG_GOAL:
                misses.append(f"{args.big} cards: {t_big / t_bare_big:.1f}x > {BIG_GOAL:g}x")
            if growth > LINEAR_GOAL:
                misses.append(f"{args.big} cards: time per card grows {growth:.2f}x")
            if m_big >= MEMORY_GOAL_MB:
                misses.append(f"{args.big} cards: {m_big} MB")
    if misses:
        print("missed: " + "; ".join(misses))
    if args.check and misses:
        sys.exit(1)


if __name__ == "__main__":
    main()
