"""A design's output is one unit, written only inside <out>/<design>/, never through a link."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import output, parallel
from pnp.build import build_designs
from pnp.cache import Cache
from pnp.cli import main
from pnp.errors import PnpError

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "tests" / "fixtures" / "deck-csv"
DESIGNS = ROOT / "designs"


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.is_symlink()}


def tmp_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.endswith(".tmp") or p.name == output.JOURNAL
            or p.name.startswith(output.STAGE)]


def build(design: Path, out: Path, *args: str) -> None:
    result = CliRunner().invoke(main, ["build", str(design), "--out", str(out), "--no-cache", *args])
    assert result.exit_code == 0, result.output


@pytest.fixture
def deck(tmp_path) -> Path:
    shutil.copytree(DECK, tmp_path / "deck")
    return tmp_path / "deck"


def edit(deck: Path) -> None:
    """A change that alters every face: the build after it writes many new files."""
    front = deck / "templates" / "front.svg.j2"
    front.write_text(front.read_text().replace("</text>", " v2</text>"))


def built_then_edited(deck: Path, tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """The deck built into tmp_path/out, then edited: (out, the deck's output as the next build finds it)."""
    out = tmp_path / "out"
    build(deck, out)
    before = tree(out / "deck")
    edit(deck)
    return out, before


# --- interrupted builds leave the previous output or the new one --------------------------


@pytest.mark.parametrize("after", [0, 2, 4])
def test_interrupt_while_writing_leaves_the_previous_output(deck, tmp_path, monkeypatch, after):
    out, before = built_then_edited(deck, tmp_path)
    real = output._write_tmp
    calls = []

    def failing(final, raw, *folder):
        calls.append(final)
        if len(calls) > after:
            raise KeyboardInterrupt
        return real(final, raw, *folder)

    monkeypatch.setattr(output, "_write_tmp", failing)
    with pytest.raises(KeyboardInterrupt):
        build_designs([str(deck)], out=out, cache=Cache(None), show_progress=False)
    assert tree(out / "deck") == before
    assert tmp_files(out) == []


@pytest.mark.parametrize("which, threaded", [(1, True), (2, True), (1, False)])
def test_ctrl_c_just_before_publish_holds_its_signals_leaves_the_previous_output(deck, tmp_path, monkeypatch, which,
                                                                                 threaded):
    """A real Ctrl-C (a signal) landing just before publish holds Ctrl-C (`which`: 1, while its writer threads are
    started; 2, before the journal and the renames; a few files are written without threads, so only the second
    hold is there): the previous output, and no temporary file left behind."""
    import contextlib
    import signal

    out, before = built_then_edited(deck, tmp_path)
    monkeypatch.setattr(output, "_THREADED", 0 if threaded else 10_000)
    real = output._signals_held
    calls = []

    @contextlib.contextmanager
    def late():
        calls.append(1)
        if len(calls) == which:
            signal.raise_signal(signal.SIGINT)  # Python's handler: KeyboardInterrupt, here
        with real():
            yield

    monkeypatch.setattr(output, "_signals_held", late)
    with pytest.raises(KeyboardInterrupt):
        build_designs([str(deck)], out=out, cache=Cache(None), show_progress=False)
    assert tree(out / "deck") == before
    assert tmp_files(out) == []


def test_a_full_disk_is_a_message_and_the_previous_output_stays(deck, tmp_path, monkeypatch):
    out, before = built_then_edited(deck, tmp_path)
    real = output._write_tmp
    calls = []

    def full(final, raw, *folder):
        calls.append(final)
        if len(calls) > 4:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(final, raw, *folder)

    monkeypatch.setattr(output, "_write_tmp", full)
    result = CliRunner().invoke(main, ["build", str(deck), "--out", str(out), "--no-cache"])
    assert result.exit_code == 2
    assert "cannot write the new output (No space left on device)" in result.output
    assert "Traceback" not in result.output
    assert tree(out / "deck") == before and tmp_files(out) == []


@pytest.mark.parametrize("staged", [False, True])
def test_a_commit_cut_short_is_finished_by_the_next_build(deck, tmp_path, monkeypatch, staged):
    """As if the process died (kill -9) halfway through the renames: the next build completes them first.
    staged: the workers that painted the faces wrote the svg/ files ahead (pnp.output.Stage); the renames
    from there are completed the same way, then the staging folder goes."""
    if staged:
        monkeypatch.setattr(parallel, "EAGER", 2)
    out = tmp_path / "out"
    build(deck, out)
    edit(deck)
    want_out = tmp_path / "want"
    build(deck, want_out)
    real = os.replace
    count = []

    def dies(src, dst, **folders):
        count.append(dst)
        if len(count) == 5:
            raise SystemExit("killed")
        return real(src, dst, **folders)

    monkeypatch.setattr(output.os, "replace", dies)
    with pytest.raises(SystemExit):
        build_designs([str(deck)], out=out, cache=Cache(None), show_progress=False)
    monkeypatch.setattr(output.os, "replace", real)
    assert (out / "deck" / output.JOURNAL).is_file()  # half done: journal and temporary files remain
    assert len(list((out / "deck").glob(f"{output.STAGE}*"))) == (1 if staged else 0)
    output.recover(out / "deck")
    assert tmp_files(out) == []
    assert tree(out / "deck") == tree(want_out / "deck")


def test_only_staging_folders_no_build_uses_are_removed(tmp_path):
    target = tmp_path / "out" / "deck"
    live = output.Stage(target)
    live.write("svg/a.svg", "<svg/>")
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = target / f"{output.STAGE}{gone.stdout.strip()}-00000000"  # a build killed while painting
    (dead / "svg").mkdir(parents=True)
    (dead / "svg" / "a.svg").write_text("<svg/>")
    output.recover(target)
    assert not dead.exists() and (live.root / "svg" / "a.svg").read_text() == "<svg/>"
    live.discard()
    assert not target.exists()  # it made the design's folder, which nothing else holds


def _slow_env(tmp_path: Path) -> dict:
    env = {**os.environ, "PNP_CACHE_DIR": str(tmp_path / "cache")}
    return env


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_real_build_stopped_at_any_moment_is_whole(deck, tmp_path, sig):
    """SIGTERM / Ctrl-C at several moments of a real `pnp build`: the output is the old one or the new one."""
    out = tmp_path / "out"
    build(deck, out)
    shutil.copytree(out / "deck", tmp_path / "old-output")
    old = tree(out / "deck")
    edit(deck)
    build(deck, tmp_path / "new")
    new = tree(tmp_path / "new" / "deck")
    cmd = [sys.executable, "-m", "pnp.cli", "build", str(deck), "--out", str(out), "--no-cache"]
    env = _slow_env(tmp_path)

    def restore_old() -> None:
        shutil.rmtree(out / "deck")
        shutil.copytree(tmp_path / "old-output", out / "deck")

    restore_old()
    started = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=True, env=env)
    took = time.perf_counter() - started  # one whole build here and now: some stops must land inside one
    inside = {round(max(0.15, took * f), 3) for f in (0.4, 0.55, 0.7, 0.85, 0.95)}  # (0.15 s: after Python's start)
    seen = []
    for delay in sorted(inside | {0.6, 1.2, 2.2}):
        restore_old()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True, env=env)
        time.sleep(delay)
        try:
            os.killpg(proc.pid, sig)  # the whole process group, as a terminal's Ctrl-C does
        except ProcessLookupError:
            pass
        _, err = proc.communicate(timeout=120)
        assert "Traceback" not in err, err
        assert proc.returncode in (0, 130, -sig), (proc.returncode, err)
        got = tree(out / "deck")
        assert got in (old, new), (delay, sorted(k for k in set(got) | set(old) if got.get(k) != old.get(k)))
        assert tmp_files(out) == []
        seen.append("new" if got == new else "old")
    assert "old" in seen  # at least one build was really cut short


def test_workers_stopped_by_ctrl_c_print_no_traceback(tmp_path):
    """Several designs build on several cores: Ctrl-C reaches every worker; one line, no traceback."""
    shutil.copytree(DESIGNS, tmp_path / "designs")
    proc = subprocess.Popen([sys.executable, "-m", "pnp.cli", "build", "--out", str(tmp_path / "out"), "--no-cache"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    # interrupted while several workers run (a fixed delay could land after the build, as it got faster)
    deadline = time.monotonic() + 60
    while len(_children(proc.pid)) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, "the build ended before any pool of workers was seen"
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert proc.returncode in (0, 130)


def _children(pid: int) -> list[int]:
    """The child processes of `pid` (Linux /proc)."""
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                found += [int(c) for c in fh.read().split()]
    except OSError:
        pass
    return found


def test_a_second_build_into_the_same_output_waits_for_the_first(deck, tmp_path):
    import selectors

    out = tmp_path / "out"
    with output.OutputLock(out):
        proc = subprocess.Popen([sys.executable, "-m", "pnp.cli", "build", str(deck), "--out", str(out)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_slow_env(tmp_path))
        sel = selectors.DefaultSelector()
        sel.register(proc.stderr, selectors.EVENT_READ)
        err = b""
        deadline = time.time() + 120
        while b"waiting" not in err and time.time() < deadline and sel.select(timeout=deadline - time.time()):
            chunk = os.read(proc.stderr.fileno(), 4096)
            if not chunk:
                break
            err += chunk
        assert b"another pnp is writing into" in err and b"waiting for it to finish" in err, err
        time.sleep(0.5)
        assert proc.poll() is None and not (out / "deck").exists()  # rendered, waiting to write
    _, rest = proc.communicate(timeout=120)
    assert proc.returncode == 0, rest
    assert (out / "deck" / "deck-a4.pdf").is_file()


# --- never through a link, never outside <out>/<design>/ --------------------------------


def test_a_linked_subfolder_is_refused_and_its_target_untouched(deck, tmp_path):
    out = tmp_path / "out"
    build(deck, out)
    elsewhere = tmp_path / "precious"
    elsewhere.mkdir()
    (elsewhere / "photo.jpg").write_bytes(b"JPEG")
    shutil.rmtree(out / "deck" / "svg")
    (out / "deck" / "svg").symlink_to(elsewhere)
    result = CliRunner().invoke(main, ["build", str(deck), "--out", str(out), "--no-cache"])
    assert result.exit_code == 2
    assert "svg: is a symbolic link; pnp never writes or deletes through a link" in result.output
    assert [p.name for p in elsewhere.iterdir()] == ["photo.jpg"]


def test_a_linked_design_folder_in_the_output_is_refused(deck, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (out / "deck").symlink_to(elsewhere)
    result = CliRunner().invoke(main, ["build", str(deck), "--out", str(out), "--no-cache"])
    assert result.exit_code == 2 and "is a symbolic link" in result.output
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize("where", ["parent", "itself", "inside"])
def test_an_output_folder_holding_or_inside_the_design_is_refused(deck, where):
    out = {"parent": deck.parent, "itself": deck, "inside": deck / "build"}[where]
    before = tree(deck.parent)
    result = CliRunner().invoke(main, ["build", str(deck), "--out", str(out)])
    assert result.exit_code == 2
    assert "pnp writes only into a folder of its own" in result.output
    assert tree(deck.parent) == before


@pytest.mark.parametrize("form", [".", "design.yaml", "./", "link"])
def test_the_design_name_is_its_folder_however_it_is_named(deck, tmp_path, form, monkeypatch):
    (tmp_path / "link-to-deck").symlink_to(deck)
    where, arg = (tmp_path, "link-to-deck") if form == "link" else (deck, form)
    monkeypatch.chdir(where)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", arg, "--out", str(out), "--no-exports"])
    assert result.exit_code == 0, result.output
    name = "link-to-deck" if form == "link" else "deck"
    assert result.output.startswith(f"{name}: ")
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [name]
    assert (out / name / f"{name}-a4.pdf").is_file()


def test_output_files_get_the_usual_mode(deck, tmp_path):
    old = os.umask(0o022)
    try:
        build(deck, tmp_path / "out")
    finally:
        os.umask(old)
    modes = {stat.S_IMODE(p.stat().st_mode) for p in (tmp_path / "out" / "deck").rglob("*") if p.is_file()}
    assert modes == {0o644}


# --- what an earlier build made and this one does not is removed; nothing else ------------------


def test_outputs_no_longer_made_are_removed_and_nothing_else(deck, tmp_path):
    out = tmp_path / "out"
    build(deck, out, "--proof", "--print-shop")
    own = out / "deck" / "notes.txt"
    own.write_text("my printing notes")  # the designer's own file
    (out / "deck" / "svg" / "mine.svg").write_text("<svg/>")
    assert (out / "deck" / "deck-print-shop.pdf").is_file() and (out / "deck" / "deck-a4-proof.pdf").is_file()
    csv = deck / "cards.csv"
    lines = csv.read_text().splitlines()
    csv.write_text("\n".join(lines[:-1]) + "\n")  # one card (one face) fewer
    build(deck, out)
    files = set(tree(out / "deck"))
    assert {"deck-print-shop.pdf", "deck-a4-proof.pdf", "deck-a4.pdf"} <= files  # other options' files stay
    result = CliRunner().invoke(main, ["clean", str(deck), "--out", str(out)])
    assert result.exit_code == 0 and result.output == "deck: 2 removed (deck-a4-proof.pdf, deck-print-shop.pdf)\n"
    files = set(tree(out / "deck"))
    assert "deck-print-shop.pdf" not in files and "deck-a4-proof.pdf" not in files
    assert own.read_text() == "my printing notes" and (out / "deck" / "svg" / "mine.svg").is_file()
    manifest = json.loads((out / "deck" / "manifest.json").read_text())
    faces = {e["face"] for e in manifest["components"]} | {e["back"] for e in manifest["components"] if e["back"]}
    svgs = {f for f in files if f.startswith("svg/")} - {"svg/mine.svg"}
    assert svgs == faces  # the dropped card's SVG (and PNG) went, nothing else
    assert "notes.txt" not in manifest["files"]


def test_another_papers_sheets_and_rulebooks_stay_beside(tmp_path):
    out = tmp_path / "out"
    build(DESIGNS / "tubo", out, "--no-exports")
    build(DESIGNS / "tubo", out, "--no-exports", "--paper", "letter")
    names = set(tree(out / "tubo"))
    assert {"tubo-fr-a4.pdf", "tubo-en-letter.pdf", "tubo-en-a4.pdf", "tubo-fr-letter.pdf",
            "tubo-rules-en-a4.pdf", "tubo-rules-en-letter.pdf",
            "tubo-rules-fr-a4.pdf", "tubo-rules-fr-letter.pdf"} <= names


def test_proof_print_shop_and_sheets_live_side_by_side_until_cleaned(deck, tmp_path):
    """Each build a new process: --print-shop, then --proof, then a plain build; all three PDFs are there
    and listed, the summary says what it kept; the same option again replaces only its own file;
    `pnp clean` removes the kept ones on purpose, and the next build keeps nothing."""
    out = tmp_path / "out"

    def run(*args: str) -> str:
        env = {**os.environ, "PNP_CACHE_DIR": str(tmp_path / "cache")}
        done = subprocess.run([sys.executable, "-m", "pnp.cli", *args, "--out", str(out)], capture_output=True,
                              text=True, env=env, timeout=600)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        return done.stdout

    assert "kept" not in run("build", str(deck), "--print-shop")
    assert "2 kept from builds with other options or papers (deck-a4.pdf, deck-print-shop.pdf;" in run(
        "build", str(deck), "--proof")
    last = run("build", str(deck))
    folder = out / "deck"
    three = {"deck-a4.pdf", "deck-a4-proof.pdf", "deck-print-shop.pdf"}
    assert three <= set(tree(folder))
    assert "removed" not in last and ("2 kept from builds with other options or papers (deck-a4-proof.pdf, "
                                      "deck-print-shop.pdf; `pnp clean` removes them)") in last
    manifest = json.loads((folder / "manifest.json").read_text())
    assert three <= set(manifest["files"]) and manifest["kept"] == ["deck-a4-proof.pdf", "deck-print-shop.pdf"]
    assert manifest["by_paper"]["a4"] == ["deck-a4-proof.pdf", "deck-a4.pdf"]
    shop = (folder / "deck-print-shop.pdf").read_bytes()
    run("build", str(deck), "--proof")  # the proof again: the plain sheets and the print-shop PDF stay
    assert three <= set(tree(folder)) and (folder / "deck-print-shop.pdf").read_bytes() == shop
    assert run("clean", "deck") == "deck: 2 removed (deck-a4.pdf, deck-print-shop.pdf)\n"
    left = set(tree(folder))
    assert "deck-a4-proof.pdf" in left and not {"deck-a4.pdf", "deck-print-shop.pdf"} & left
    manifest = json.loads((folder / "manifest.json").read_text())
    assert "kept" not in manifest and manifest["files"] == sorted(left)
    assert run("clean") == "deck: nothing kept to remove\n"
    assert "kept" not in run("build", str(deck), "--proof")


def test_publish_refuses_names_outside_the_folder(tmp_path):
    for bad in ("../x", "/etc/x", "a/../../x", ""):
        with pytest.raises(ValueError):
            output.publish(tmp_path / "d", {bad: b"x"})


def test_a_manifest_naming_files_outside_is_not_followed(deck, tmp_path):
    """A tampered manifest (a zipped project) cannot make pnp delete anything outside the design's output."""
    out = tmp_path / "out"
    build(deck, out)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    manifest = out / "deck" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["files"] += ["../../victim.txt", str(victim), "../victim.txt"]
    manifest.write_text(json.dumps(data))
    build(deck, out)
    assert victim.read_text() == "keep me"


def test_unwritable_output_is_a_message(tmp_path):
    blocker = tmp_path / "out"
    blocker.write_text("a file, not a folder")
    result = CliRunner().invoke(main, ["build", str(DECK), "--out", str(blocker / "sub"), "--no-cache"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "out/sub: cannot use the output folder (Not a directory); expected a writable folder" in result.output


def test_output_error_is_a_pnp_error():
    assert issubclass(output.OutputError, PnpError)
