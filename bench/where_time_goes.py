"""Where a cold `pnp build` of the bench deck spends its time, measured without a profiler (issue 36).

    python bench/where_time_goes.py [--cards 500] [--files 500]

Three measurements, each in a fresh process:
- the floor: importing only the libraries a build needs, against the bare script's whole job (bench/bare_reportlab.py);
- the build with timers around the stages that matter (wall time spent inside each, summed; the calling process
  only: its paint workers are timed by the last line, `--serial`);
- what making a file costs on this file system now (it changes from minute to minute on some machines).

The timers wrap functions by name: they cost a few microseconds a call, far less than a profiler's, so the figures
are close to a plain build's. A figure here is for finding the time, not for goals: bench/build_bench.py holds those.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from build_bench import make_deck  # noqa: E402

LIBRARIES = ("reportlab.pdfgen.canvas", "reportlab.pdfbase.ttfonts", "jinja2.sandbox", "yaml", "pydantic_core",
             "lxml.etree", "click")

# (module, attribute, label): the calling process's stages, then what a worker does for one face
TIMED = [
    ("pnp.render.faces", "FaceStream.__missing__", "waiting for a painted face (workers)"),
    ("pnp.layout.pdf", "define_form", "a face's form"),
    ("pnp.layout.pdf", "_draw_sheet", "a sheet drawn"),
    ("pnp.layout.pdf", "_footer", "  its footer"),
    ("reportlab.pdfgen.canvas", "Canvas.save", "the sheets PDF saved"),
    ("pnp.build", "_index_stage", "index.html"),
    ("pnp.build", "publish", "publishing the output"),
    ("pnp.render.faces", "paint_compiled", "a face painted and compiled"),
    ("pnp.sandbox", "render", "  Jinja render"),
    ("pnp.render.faces", "check_parsed", "  sanitiser check"),
    ("pnp.render.faces", "typeset_svg", "  typesetting"),
    ("pnp.render.svgpdf", "compile_svg", "  compiled to operations"),
    ("pnp.cache", "Cache.put", "  cache entry"),
    ("pnp.output", "Stage.write", "  svg/ file staged"),
]

TIMER = r"""
import importlib, json, os, sys, time, runpy
timed = json.loads(sys.argv[1]); out = sys.argv[2]; sys.argv = ["pnp"] + sys.argv[3:]
acc = {}
def wrap(owner, name, label):
    f = getattr(owner, name)
    def w(*a, **k):
        t = time.perf_counter()
        try:
            return f(*a, **k)
        finally:
            s, n = acc.get(label, (0.0, 0))
            acc[label] = (s + time.perf_counter() - t, n + 1)
    setattr(owner, name, w)
for mod, attr, label in timed:
    owner = importlib.import_module(mod)
    *path, name = attr.split(".")
    for p in path:
        owner = getattr(owner, p)
    wrap(owner, name, label)
import pnp.render.faces as faces, pnp.render.svgpdf as svgpdf
faces.compile_svg = svgpdf.compile_svg  # (imported inside paint_compiled: the wrapped one)
exit_ = os._exit
def report(code):
    with open(out, "w") as fh:
        json.dump(acc, fh)
    exit_(code)
os._exit = report
runpy.run_module("pnp.cli", run_name="__main__", alter_sys=True)
"""


def wall(cmd: list[str], env: dict | None = None) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - t


def file_cost(folder: Path, n: int) -> float:
    """ms to make one new file of 3 kB, over `n` in a new folder."""
    folder.mkdir()
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        t = time.perf_counter()
        for i in range(n):
            f = os.open(f"f{i}", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644, dir_fd=fd)
            os.write(f, b"x" * 3000)
            os.close(f)
        return (time.perf_counter() - t) / n * 1000
    finally:
        os.close(fd)


def timers(deck: Path, out: Path, serial: bool) -> dict:
    result = out.with_suffix(".json")
    cmd = [sys.executable, "-c", TIMER, json.dumps(TIMED), str(result), "build", str(deck), "--out", str(out)]
    if serial:  # one core: the paint workers' work in this process, where the timers see it
        cmd = ["taskset", "-c", "0", *cmd]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return json.loads(result.read_text())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", type=int, default=500)
    ap.add_argument("--files", type=int, default=500, help="files made to time a new file")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        deck = make_deck(tmp, args.cards)
        bare = [sys.executable, str(ROOT / "bench" / "bare_reportlab.py"), "table", str(args.cards), str(tmp / "b.pdf")]
        libs = [sys.executable, "-c", "import " + ", ".join(LIBRARIES)]
        own = [sys.executable, "-c", "import pnp.cli, pnp.build"]
        build = [sys.executable, "-m", "pnp.cli", "build", str(deck), "--out"]
        for cmd in (bare, libs, own):  # (bytecode compiled and cached first)
            wall(cmd)
        t_bare, t_libs, t_own = (min(wall(c) for _ in range(3)) for c in (bare, libs, own))
        t_build = min(wall(build + [str(tmp / f"o{i}")]) for i in range(3))
        print(f"{args.cards} cards; best of 3 runs each")
        print(f"  bare ReportLab script, the whole job     {t_bare:7.3f} s  1.00x")
        print(f"  importing the libraries a build needs    {t_libs:7.3f} s  {t_libs / t_bare:.2f}x")
        print(f"  importing pnp.cli and pnp.build          {t_own:7.3f} s  {t_own / t_bare:.2f}x")
        print(f"  pnp build, cold                          {t_build:7.3f} s  {t_build / t_bare:.2f}x")
        for serial in (False, True):
            acc = timers(deck, tmp / f"timed-{serial}", serial)
            print("one core (every face painted in this process):" if serial else "two cores or more (the calling "
                  "process; faces painted in workers):")
            for _, _, label in TIMED:
                if label in acc:
                    s, n = acc[label]
                    print(f"  {label:42} {s * 1000:8.1f} ms  {n:6d} calls  {s / n * 1e6:8.1f} us a call")
        print(f"a new 3 kB file here: {file_cost(tmp / 'files', args.files):.3f} ms (over {args.files})")


if __name__ == "__main__":
    main()
