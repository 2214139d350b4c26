"""The second build matters most: sequences of builds in separate processes over one cache.

Each step is a new `pnp build` process with other options (or an edited design) over one
shared cache; its output must be byte for byte what a `--no-cache` build of the same
options makes. The cache is only ever a shortcut: never another result.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

ROOT = Path(__file__).resolve().parent.parent
DESIGNS = ROOT / "designs"
FIXTURES = Path(__file__).resolve().parent / "fixtures"

STEPS: list[tuple[str, list[str]]] = [
    ("a4", []),
    ("letter", ["--paper", "letter"]),
    ("a3", ["--paper", "a3"]),
    ("marks cut", ["--marks", "cut"]),
    ("marks none", ["--marks", "none"]),
    ("duplex short", ["--duplex", "short"]),
    ("duplex fold", ["--duplex", "fold"]),
    ("print shop", ["--print-shop"]),
    ("proof", ["--proof"]),
    ("count edited", ["@count"]),
    ("template edited", ["@template"]),
    ("face edited back", ["@undo"]),
    ("a4 again", []),
]


def pnp(*args: str, cache: Path | None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("PNP_CACHE_DIR", None)
    if cache is not None:
        env["PNP_CACHE_DIR"] = str(cache)
    return subprocess.run([sys.executable, "-m", "pnp.cli", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=600)


def tree(folder: Path) -> dict[str, bytes]:
    """Every file below `folder` but pnp's hidden bookkeeping (lock, cache), by relative path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)}


class Edits:
    """Edits of a copied design that a designer makes between builds (a count, a template, back again)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.saved: dict[Path, str] = {}

    def _edit(self, path: Path, fn) -> None:
        text = path.read_text(encoding="utf-8")
        self.saved.setdefault(path, text)
        new = fn(text)
        assert new != text, path
        path.write_text(new, encoding="utf-8")

    def count(self) -> None:
        """One row's count (a CSV row of the data-table deck, a component count in a generated design)."""
        csv = self.folder / "cards.csv"
        if csv.is_file():
            self._edit(csv, lambda t: re.sub(r",(\d+)\n", lambda m: f",{int(m.group(1)) + 2}\n", t, count=1))
        else:
            self._edit(self.folder / "design.yaml", lambda t: re.sub(r"(\n\s+count: )(\d+)",
                                                                    lambda m: m.group(1) + str(int(m.group(2)) + 1),
                                                                    t, count=1))

    def template(self) -> None:
        """A template line (data-table deck) or a colour of the design (generated faces)."""
        front = self.folder / "templates" / "front.svg.j2"
        if front.is_file():
            self._edit(front, lambda t: t.replace("</text>", "!</text>", 1))
        else:
            self._edit(self.folder / "design.yaml", lambda t: re.sub(r"#([0-9a-fA-F]{6})", "#123456", t, count=1))

    def undo(self) -> None:
        for path, text in self.saved.items():
            path.write_text(text, encoding="utf-8")
        self.saved.clear()


_FRESH: dict[str, Path] = {}


def fresh_build(copies: list[Path], opts: list[str]) -> Path:
    """The output of a `--no-cache` build of the copies as they are now, with these options, in a new process: made
    once per session for each state of the files and options (sequences meet the same states again and again)."""
    digest = hashlib.sha256(repr(opts).encode())
    for c in copies:
        digest.update(c.name.encode())
        for path, data in tree(c).items():
            digest.update(f"{path}\0{len(data)}\0".encode() + data)
    key = digest.hexdigest()
    if key not in _FRESH:
        out = Path(tempfile.mkdtemp(prefix="pnp-fresh-"))
        atexit.register(shutil.rmtree, out, True)  # (kept for the session, removed with it)
        fresh = pnp("build", *map(str, copies), "--out", str(out), "--no-cache", *opts, cache=None)
        assert fresh.returncode == 0, (opts, fresh.stderr)
        _FRESH[key] = out
    return _FRESH[key]


def run_sequence(tmp_path: Path, designs: list[Path], steps: list[tuple[str, list[str]]]) -> None:
    work = tmp_path / "designs"
    copies = []
    for d in designs:
        shutil.copytree(d, work / d.name)
        copies.append(work / d.name)
    edits = [Edits(c) for c in copies]
    shared_cache, out = tmp_path / "cache", tmp_path / "out"
    for n, (name, args) in enumerate(steps):
        opts = [a for a in args if not a.startswith("@")]
        for action in (a[1:] for a in args if a.startswith("@")):
            for e in edits:
                getattr(e, action)()
        cached = pnp("build", *map(str, copies), "--out", str(out), *opts, cache=shared_cache)
        assert cached.returncode == 0 and "Traceback" not in cached.stderr, (name, cached.stderr)
        fresh_out = fresh_build(copies, opts)
        for c in copies:
            got, want = tree(out / c.name), tree(fresh_out / c.name)
            got_manifest, want_manifest = (json.loads(t.pop("manifest.json")) for t in (got, want))
            assert got_manifest["files"] == sorted([*got, "manifest.json"]), name  # it lists what is there
            kept = got_manifest.get("kept", [])
            for m in (got_manifest, want_manifest):  # the record of what sits beside differs, by design
                del m["files"], m["by_paper"]
                m.pop("kept", None)
            assert got_manifest == want_manifest, f"step '{name}': {c.name}/manifest.json differs"
            for path, data in want.items():
                assert got.get(path) == data, f"step '{name}': {c.name}/{path} differs from a --no-cache build"
            extra = set(got) - set(want)
            # what stays beside: only another paper's or option's sheets and rulebooks of an earlier step
            assert all(re.search(r"-(a4|letter|a3)(-proof)?\.pdf$|-print-shop\.pdf$", p) for p in extra), (name, extra)
            assert sorted(extra) == kept, name  # each named as kept


def test_option_and_edit_sequence_over_one_cache_matches_no_cache_builds(tmp_path):
    """The data-table deck through every step, every step a new process."""
    run_sequence(tmp_path, [FIXTURES / "deck-csv"], STEPS)


def test_generated_design_sequence_over_one_cache(tmp_path):
    """3 Stars (generated faces, rulebooks): another paper, then an edited count, then back."""
    steps = dict(STEPS)
    run_sequence(tmp_path, [DESIGNS / "three-stars"], [(n, steps[n]) for n in ("a4", "letter", "count edited",
                                                                               "face edited back")])


@pytest.mark.slow
def test_every_shipped_design_through_the_sequence(tmp_path):
    run_sequence(tmp_path, sorted(p.parent for p in DESIGNS.glob("*/design.yaml")) + [FIXTURES / "deck-csv"],
                 STEPS)


@settings(max_examples=int(os.environ.get("PNP_SEQUENCE_EXAMPLES", "3")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(STEPS[1:]), min_size=2, max_size=4))
def test_any_sequence_of_options_over_one_cache(tmp_path_factory, steps):
    """Hypothesis picks the order (the data-table deck: fast); PNP_SEQUENCE_EXAMPLES=50 for a long run."""
    run_sequence(tmp_path_factory.mktemp("seq"), [FIXTURES / "deck-csv"], [("a4", [])] + steps)


def test_readme_second_command_after_the_first(tmp_path):
    """The brief's failure: `pnp build` then `pnp build three-stars --paper letter`, in a new process."""
    shutil.copytree(DESIGNS, tmp_path / "designs")
    first = pnp("build", cache=None, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    second = pnp("build", "three-stars", "--paper", "letter", cache=None, cwd=tmp_path)
    assert second.returncode == 0 and "Traceback" not in second.stderr, second.stderr
    assert (tmp_path / "output" / "three-stars" / "three-stars-fr-letter.pdf").is_file()


def _read_until(proc, needles: tuple[str, ...], seconds: float) -> str:
    """Raw reads of the pipe until one of `needles` shows (a buffered readline could hide a line)."""
    import selectors
    import time

    fd = proc.stdout.fileno()
    sel = selectors.DefaultSelector()
    sel.register(fd, selectors.EVENT_READ)
    seen = ""
    deadline = time.monotonic() + seconds
    while not any(n in seen for n in needles):
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(seen)
        if sel.select(timeout=left):
            chunk = os.read(fd, 65536)
            assert chunk, f"pnp watch exited; it printed:\n{seen}"
            seen += chunk.decode("utf-8", "replace")
    return seen


def test_watch_over_a_cache_of_other_options_and_a_run_of_edits_never_exits(tmp_path):
    """`pnp watch` started over a cache another process filled with other options, then a run of saves,
    broken ones among them: it reports each problem and goes on; at the end its output is a clean build's."""
    deck = tmp_path / "deck"
    shutil.copytree(FIXTURES / "deck-csv", deck)
    cache, out = tmp_path / "cache", tmp_path / "out"
    first = pnp("build", str(deck), "--out", str(out), "--marks", "cut", "--paper", "letter", cache=cache)
    assert first.returncode == 0, first.stderr
    env = {**os.environ, "PNP_CACHE_DIR": str(cache)}
    proc = subprocess.Popen([sys.executable, "-m", "pnp.cli", "watch", str(deck), "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    csv, front, yaml = deck / "cards.csv", deck / "templates" / "front.svg.j2", deck / "design.yaml"
    good = {p: p.read_text() for p in (csv, front, yaml)}
    edits = [
        (csv, good[csv].replace("Wind,2", "Wind,7"), "rebuilt deck"),  # a row's value
        (csv, good[csv].replace(",2\n", ",5\n", 1), "rebuilt deck"),  # a row's count
        (front, good[front] + "{% if %}\n", "still watching"),  # template syntax error
        (front, good[front].replace("</text>", "*</text>", 1), "rebuilt deck"),
        (yaml, good[yaml].replace("size: euro-poker", "size: [euro-poker"), "still watching"),  # YAML syntax error
        (yaml, good[yaml].replace("paper: a4", "paper: a4\u0007"), "still watching"),  # a control character
        (yaml, good[yaml], "rebuilt deck"),
        (front, good[front], "rebuilt deck"),
        (csv, good[csv], "rebuilt deck"),  # every face edited back
    ]
    try:
        seen = _read_until(proc, ("watching ",), 120)
        for path, text, expect in edits:
            for _ in range(20):  # save until the watcher has seen this save
                path.write_text(text)
                try:
                    seen = _read_until(proc, ("rebuilt deck", "still watching"), 6)
                    break
                except TimeoutError:
                    continue
            assert expect in seen, (path.name, seen)
            assert "Traceback" not in seen, seen
            assert proc.poll() is None
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    fresh = pnp("build", str(deck), "--out", str(tmp_path / "fresh"), "--no-cache", cache=None)
    assert fresh.returncode == 0
    got, want = tree(out / "deck"), tree(tmp_path / "fresh" / "deck")
    for path, data in want.items():
        if path != "manifest.json":
            assert got.get(path) == data, path


def test_a_rules_text_warns_again_when_its_rulebook_comes_from_the_cache(tmp_path):
    deck = tmp_path / "d"
    shutil.copytree(FIXTURES / "deck-csv", deck)
    text = (deck / "design.yaml").read_text(encoding="utf-8")
    (deck / "design.yaml").write_text(text.replace("  players: 2\n", "  players: 2\n  languages: [en]\n"),
                                      encoding="utf-8")
    (deck / "rules.en.md").write_text("# Rules\n\nA <blink>tag</blink> and a note[^x].\n\n## Setup\n\nDeal.\n",
                                      encoding="utf-8")
    cache = tmp_path / "cache"

    def books() -> dict:  # the rulebooks' cache entries, with when each was written
        return {p.name: p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file() and "rulebooks" in p.parts}

    first = pnp("build", str(deck), "--out", str(tmp_path / "out0"), cache=cache)
    made = books()
    second = pnp("build", str(deck), "--out", str(tmp_path / "out1"), cache=cache)
    assert made and books() == made  # the second build took the rulebook from the cache
    for run in (first, second):
        assert run.returncode == 0, run.stderr
        assert "rules.en.md:3: warning: HTML <blink> </blink> is not understood" in run.stderr
        assert "rules.en.md:3: warning: footnote [^x] has no text" in run.stderr
    assert sorted(p.name for p in (tmp_path / "out1" / "d").iterdir() if p.suffix == ".pdf") == [
        "d-a4.pdf", "d-rules-en-a4.pdf"]
