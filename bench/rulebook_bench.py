"""The rulebooks' own CPU time: every shipped design's rulebooks (each language), in one process (issue 16).

    python bench/rulebook_bench.py [--runs 3] [--profile FILE]

Each run is a fresh process (nothing compiled or drawn by an earlier run is kept): the designs are loaded and
their faces painted first, untimed, as the build gives them to pnp.rulebook.render_rulebooks; then the
rulebooks of every design are rendered and timed in CPU seconds (this process only: the figure to compare on a
machine that other work shares), each design and the total, with the time of the main stages (the rules texts'
compilation by Jinja2, the diagrams drawn by the games, the SVG -> PDF compilation of faces and diagrams, the
layout (one pass) and the saving of the PDF). Prints the median and the least of the runs.

--profile FILE: one more run under cProfile, its statistics written to FILE (pstats).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RUN = r"""
import collections, json, sys, time
from pnp import registry
from pnp.loader import select_designs
from pnp.render.faces import design_faces
from pnp.rulebook import languages, render_rulebooks
import jinja2
import pnp.layout.pdf
import pnp.rulebook.document as document
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus.doctemplate import BaseDocTemplate

registry.discover()
stages = collections.Counter()

def timed(owner, name, stage):
    real = getattr(owner, name)
    def wrapper(*args, **kwargs):
        start = time.process_time()
        try:
            return real(*args, **kwargs)
        finally:
            stages[stage] += time.process_time() - start
    setattr(owner, name, wrapper)

timed(jinja2.Environment, "compile", "rules texts compiled (Jinja2)")
timed(document, "compile_face", "SVG -> PDF compiled (faces, diagrams)")
timed(BaseDocTemplate, "build", "layout")
timed(Canvas, "save", "PDF saved")
real_get = registry.get_diagram

def get_diagram(name):
    fn = real_get(name)
    if fn is None:
        return None
    def drawn(*args, **kwargs):
        start = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            stages["diagrams drawn (games)"] += time.process_time() - start
    return drawn

registry.get_diagram = get_diagram
work = []
for design in select_designs(()):
    if languages(design):
        components = design_faces(design)
        svgs = {f"svg/{cf.component_id}-{f.key}.svg": f.paint() for cf in components for f in cf.sides}
        work.append((design, components, svgs))
profile = sys.argv[1] if len(sys.argv) > 1 else ""
if profile:
    import cProfile
    profiler = cProfile.Profile()
    profiler.enable()
per_design = {}
total = time.process_time()
for design, components, svgs in work:
    start = time.process_time()
    render_rulebooks(design, components, svgs)
    per_design[design.slug] = time.process_time() - start
total = time.process_time() - total
if profile:
    profiler.disable()
    profiler.dump_stats(profile)
print(json.dumps({"total": total, "designs": per_design, "stages": stages}))
"""


def one_run(profile: str = "") -> dict:
    out = subprocess.run([sys.executable, "-c", RUN, *([profile] if profile else [])], check=True, cwd=ROOT,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profile", default="", help="write the cProfile statistics of one more run to this file")
    args = ap.parse_args()
    runs = [one_run() for _ in range(args.runs)]

    def show(label: str, values: list[float]) -> None:
        print(f"  {label:40s} {statistics.median(values):6.2f} s   (least {min(values):5.2f})")

    print(f"rulebooks of every shipped design, CPU seconds, {args.runs} runs (median, least)")
    show("all rulebooks", [r["total"] for r in runs])
    for slug in runs[0]["designs"]:
        show(f"  {slug}", [r["designs"][slug] for r in runs])
    for stage in runs[0]["stages"]:
        show(f"  {stage}", [r["stages"].get(stage, 0.0) for r in runs])
    if args.profile:
        one_run(args.profile)
        print(f"profile: {args.profile}")


if __name__ == "__main__":
    main()
