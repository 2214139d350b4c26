"""The paint phase alone: every face of bench/build_bench.py's 500-card deck painted in one process (no cache,
no workers, no sheets), CPU seconds, the median of runs (issue 29: what checking every face for active content
costs).

    python bench/paint_bench.py [--runs 9] [--cards 500] [--paint-servers]

`--paint-servers` adds a gradient fill (url(#g)) and a transform to every front, the faces whose values the
whitelist of pnp.render.sanitise looks at. To compare two checkouts, run each in turn a few times with
PYTHONPATH=<checkout> (the machine's speed drifts: one pair of runs says little).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import build_bench

SERVERS = ('<defs><linearGradient id="g"><stop offset="0" stop-color="#ffffff"/></linearGradient></defs>\n'
           '<rect x="10" y="50" width="20" height="10" fill="url(#g)" transform="rotate(3)"/>\n')


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--cards", type=int, default=500)
    ap.add_argument("--paint-servers", action="store_true")
    args = ap.parse_args()
    if args.paint_servers:
        build_bench.FRONT += SERVERS
    import pnp
    from pnp.loader import load_design
    from pnp.render.faces import design_faces

    with tempfile.TemporaryDirectory() as tmp:
        deck = build_bench.make_deck(Path(tmp), args.cards)
        faces = [f for cf in design_faces(load_design(deck)) for f in cf.sides]
        for face in faces[:5]:  # (templates compiled, fonts read)
            face.paint()
        times = []
        for _ in range(args.runs):
            gc.collect()
            start = time.process_time()
            for face in faces:
                face.paint()
            times.append(time.process_time() - start)
    print(f"{pnp.__file__}: {len(faces)} faces painted in {statistics.median(times) * 1000:.1f} ms CPU "
          f"(median of {args.runs}; min {min(times) * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
