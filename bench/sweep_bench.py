"""A greedy sweep on local processes and on a local Dask cluster: whole-process time and speed-up.

    python bench/sweep_bench.py [--games 1000] [--design three-stars]

Times the command a user runs,
    pnp sweep three-stars --set rules.pieces_per_player+components.pieces.count=20,25,30,34
        --players 2,3,4 -n 1000 --agent greedy --json
with --workers 2 (local processes; the target: under a minute on 2 cores), then with
--scheduler (a local Dask cluster, the [cluster] extra) at --workers 1 and 2, reports each
wall time, the Dask speed-up from 1 to 2 workers, and checks that the three JSON reports
are identical (seeds are per game, not per worker).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

SETTING = "rules.pieces_per_player+components.pieces.count=20,25,30,34"
TARGET = 60.0


def run(args: list[str]) -> tuple[float, str]:
    pnp = str(Path(sys.executable).with_name("pnp"))
    start = time.perf_counter()
    out = subprocess.run([pnp, *args], capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--design", default="three-stars")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--no-dask", action="store_true")
    args = ap.parse_args()
    base = ["sweep", args.design, "--set", SETTING, "--players", "2,3,4", "-n", str(args.games), "--agent", "greedy",
            "--json"]
    print(f"$ pnp {' '.join(base)} ...   ({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f})")
    t_local, ref = run(base + ["--workers", "2"])
    verdict = "meets" if t_local < TARGET else "ABOVE"
    print(f"--workers 2 (local processes): {t_local:.1f} s; {verdict} the {TARGET:.0f} s target")
    if args.no_dask:
        return
    t1, out1 = run(base + ["--scheduler", "--workers", "1"])
    print(f"--scheduler --workers 1 (local Dask cluster): {t1:.1f} s")
    t2, out2 = run(base + ["--scheduler", "--workers", "2"])
    print(f"--scheduler --workers 2 (local Dask cluster): {t2:.1f} s; speed-up from 1 to 2 workers x{t1 / t2:.2f}")
    same = ref == out1 == out2
    print(f"identical JSON reports for 2 processes, 1 and 2 Dask workers: {same}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
