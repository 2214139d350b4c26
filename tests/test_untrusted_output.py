"""What a build finds in its output folder and its cache is untrusted too (issue 29): a zipped project, a shared
`$PNP_CACHE_DIR` or a co-designer may have planted links, a journal or cache entries there. pnp writes and moves
nothing through a link (a link where it writes is refused: `file: what is wrong; what is expected`, exit 2; a
journal's rename through one is not followed), serves no cache entry it did not sign itself, and builds started
together into a folder that does not exist yet take turns. Each test runs a real build and checks that nothing
outside the output changed."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import packs
import pytest
from clirun import run

from pnp import cache as cache_mod, output, parallel
from pnp.build import build_designs
from pnp.cache import PACKED, Cache

FIXTURES = Path(__file__).resolve().parent / "fixtures"
BUILD = ("build", "d", "--out", "out", "--no-exports")
LINKED = "is a symbolic link; pnp never writes or deletes through a link; expected a plain folder"


def deck(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "deck-csv", tmp_path / "d")
    return tmp_path / "d"


def tree(folder: Path) -> dict[str, bytes | str]:
    """Every entry below `folder`: a file's bytes, a link's target."""
    return {p.relative_to(folder).as_posix(): (os.readlink(p) if p.is_symlink() else p.read_bytes())
            for p in sorted(folder.rglob("*")) if p.is_symlink() or p.is_file()}


def built(tmp_path: Path, *more: str) -> Path:
    """The deck built into tmp_path/out (the session's cache): its output folder."""
    deck(tmp_path)
    result = run([*BUILD, *more], tmp_path)
    assert result.exit_code == 0, result.output
    return tmp_path / "out" / "d"


def victim(tmp_path: Path) -> tuple[Path, dict]:
    """A folder outside the output with a file in it, and what it holds."""
    folder = tmp_path / "victim"
    folder.mkdir()
    (folder / "keep.txt").write_text("the designer's own file")
    return folder, tree(folder)


def edit_every_face(d: Path) -> None:
    front = d / "templates" / "front.svg.j2"
    front.write_text(front.read_text().replace("</text>", " v2</text>"))


# --- the journal of an interrupted build ----------------------------------------------------------------------


def test_a_planted_journal_moves_nothing_in_from_outside_or_out_to_it(tmp_path):
    """The issue's case: a journal naming files through a link in the design's output folder. Renames pnp never
    makes (a file from another folder, any file but its own temporary ones) and renames through a link are not
    followed, and said."""
    target = built(tmp_path)
    outside, before = victim(tmp_path)
    (outside / ".keep.txt.pnp-1-2.tmp").write_text("would replace keep.txt")
    before = tree(outside)
    (target / "lnk").symlink_to(outside)
    (target / ".x.tmp").write_text("<script>alert(1)</script>")
    (target / output.JOURNAL).write_text(json.dumps({"renames": [
        ["lnk/keep.txt", "stolen.txt"],  # from outside in
        [".x.tmp", "lnk/planted.html"],  # from inside out
        ["lnk/.keep.txt.pnp-1-2.tmp", "lnk/keep.txt"],  # shaped as pnp's own, but through the link
    ], "remove": ["lnk/keep.txt"]}))
    result = run(list(BUILD), tmp_path)
    assert result.exit_code == 0, result.output
    assert tree(outside) == before
    assert not (target / "stolen.txt").exists() and not (target / output.JOURNAL).exists()
    assert ("out/d/.pnp-commit.json: warning: not followed: 3 renames pnp never makes ('lnk/keep.txt' -> "
            "'stolen.txt', '.x.tmp' -> 'lnk/planted.html', 'lnk/.keep.txt.pnp-1-2.tmp' -> 'lnk/keep.txt'); expected "
            "only an interrupted build's own renames (its temporary files beside their files, no link on the way)"
            ) in result.output.splitlines()
    assert (target / "lnk").is_symlink()  # a link pnp does not write through is the designer's own: left alone


def test_a_journal_planted_as_a_link_overwrites_nothing_outside(tmp_path):
    """A link named .pnp-commit.json: publishing writes its journal there; it must not write through the link."""
    target = built(tmp_path)
    outside, before = victim(tmp_path)
    (target / output.JOURNAL).symlink_to(outside / "keep.txt")
    edit_every_face(tmp_path / "d")
    result = run(list(BUILD), tmp_path)
    assert result.exit_code == 0, result.output
    assert tree(outside) == before
    assert not os.path.lexists(target / output.JOURNAL)


def test_a_real_journal_is_still_finished_through_real_folders(tmp_path, monkeypatch):
    """What the journal is for still works: a publish killed halfway is finished by the next build."""
    target = built(tmp_path)
    edit_every_face(tmp_path / "d")
    real = output.os.replace
    done = []

    def dies(src, dst, **folders):
        done.append(dst)
        if len(done) == 3:
            raise SystemExit("killed")
        return real(src, dst, **folders)

    monkeypatch.setattr(output.os, "replace", dies)
    with pytest.raises(SystemExit):
        build_designs([str(tmp_path / "d")], out=tmp_path / "out", cache=Cache(None), exports=False,
                      show_progress=False)
    monkeypatch.setattr(output.os, "replace", real)
    assert (target / output.JOURNAL).is_file()
    output.recover(target)
    assert not (target / output.JOURNAL).exists()
    assert all(" v2<" in p.read_text() for p in (target / "svg").glob("cards-[0-9].svg"))
    assert not [p for p in target.rglob("*") if p.name.endswith(".tmp")]


# --- links where pnp writes ------------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["svg", "png", "d"])
def test_a_link_on_the_way_to_what_pnp_writes_is_refused(tmp_path, where):
    """svg/ (the faces), png/ (an export), the design's folder itself."""
    png = ["--export", "png"] if where == "png" else []
    deck(tmp_path)
    assert run([*BUILD[:-1], *png], tmp_path).exit_code == 0
    target = tmp_path / "out" / "d"
    outside, before = victim(tmp_path)
    if where == "d":
        shutil.rmtree(target)
        target.symlink_to(outside)
    else:
        shutil.rmtree(target / where)
        (target / where).symlink_to(outside)
    edit_every_face(tmp_path / "d")
    result = run([*BUILD[:-1], *png], tmp_path)
    assert result.exit_code == 2, result.output
    shown = "out/d" if where == "d" else f"out/d/{where}"
    assert result.output == f"{shown}: {LINKED} (remove the link, or build with another --out)\n"
    assert tree(outside) == before


def test_a_link_where_pnp_writes_a_file_is_refused(tmp_path):
    target = built(tmp_path)
    outside, before = victim(tmp_path)
    (target / "index.html").unlink()
    (target / "index.html").symlink_to(outside / "keep.txt")
    result = run(list(BUILD), tmp_path)
    assert result.exit_code == 2
    assert result.output == ("out/d/index.html: is a link or a folder where pnp writes a file; expected nothing there, "
                             "or pnp's own file\n")
    assert tree(outside) == before


def test_staged_faces_go_through_no_link(tmp_path, monkeypatch):
    """The workers that paint a big deck write its svg/ files ahead, into a stage of the output folder: with a
    link at svg/ nothing is written or read through it, and the stage goes with the refused build."""
    monkeypatch.setattr(parallel, "EAGER", 2)
    target = built(tmp_path)
    outside, before = victim(tmp_path)
    shutil.rmtree(target / "svg")
    (target / "svg").symlink_to(outside)
    edit_every_face(tmp_path / "d")
    result = run([*BUILD, "--no-cache"], tmp_path)
    assert result.exit_code == 2
    assert result.output == f"out/d/svg: {LINKED} (remove the link, or build with another --out)\n"
    assert tree(outside) == before
    assert not [p for p in target.iterdir() if p.name.startswith(output.STAGE)]


def test_old_files_are_not_removed_through_a_link(tmp_path):
    target = built(tmp_path)
    outside, before = victim(tmp_path)
    (target / "lnk").symlink_to(outside)
    manifest = json.loads((target / "manifest.json").read_text())
    manifest["files"].append("lnk/keep.txt")  # as if an earlier build had written it
    (target / "manifest.json").write_text(json.dumps(manifest))
    result = run(list(BUILD), tmp_path)
    assert result.exit_code == 0, result.output
    assert tree(outside) == before


def test_a_link_at_the_lock_is_refused(tmp_path):
    outside, before = victim(tmp_path)
    deck(tmp_path)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / output.LOCK).symlink_to(outside / "keep.txt")
    result = run(list(BUILD), tmp_path)
    assert result.exit_code == 2
    assert result.output == ("out/.pnp.lock: is a symbolic link; pnp never writes through a link; expected pnp's lock "
                             "file, or nothing there (remove the link)\n")
    assert tree(outside) == before


# --- the cache's folders -------------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["root", "kind"])
def test_a_link_in_the_output_folders_cache_is_refused(tmp_path, monkeypatch, where):
    """<out>/.cache (the default cache) or <out>/.cache/svg a link: refused before anything is written."""
    monkeypatch.delenv("PNP_CACHE_DIR")
    deck(tmp_path)
    outside, before = victim(tmp_path)
    (tmp_path / "out").mkdir()
    if where == "root":
        (tmp_path / "out" / ".cache").symlink_to(outside)
        want = (f"out/.cache: {LINKED} (remove the link: the cache is made again; or set PNP_CACHE_DIR to the folder "
                "it names)\n")
    else:
        (tmp_path / "out" / ".cache").mkdir()
        (tmp_path / "out" / ".cache" / "svg").symlink_to(outside)
        want = f"out/.cache/svg: {LINKED} (remove it: the cache is made again)\n"
    result = run(list(BUILD), tmp_path)
    assert result.exit_code == 2
    assert result.output == want
    assert tree(outside) == before
    assert not (tmp_path / "out" / "d").exists()


def test_a_link_in_a_shared_cache_dir_is_refused(tmp_path, monkeypatch):
    deck(tmp_path)
    outside, before = victim(tmp_path)
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "sheets").symlink_to(outside)
    monkeypatch.setenv("PNP_CACHE_DIR", str(shared))
    result = run(list(BUILD), tmp_path)
    assert result.exit_code == 2
    assert result.output == f"shared/sheets: {LINKED} (remove it: the cache is made again)\n"
    assert tree(outside) == before


def test_a_cache_entry_that_is_a_link_or_a_fifo_is_a_miss_and_goes(tmp_path):
    cache_dir = tmp_path / "cache"
    first = Cache(cache_dir, memory=False)
    first.put_many("sheets", [("a" * 64, "%PDF"), ("b" * 64, "%PDF")])
    first.flush()
    outside, before = victim(tmp_path)
    (cache_dir / "sheets" / ("a" * 64)).unlink()
    (cache_dir / "sheets" / ("a" * 64)).symlink_to(outside / "keep.txt")
    (cache_dir / "sheets" / ("b" * 64)).unlink()
    os.mkfifo(cache_dir / "sheets" / ("b" * 64))
    again = Cache(cache_dir, memory=False)
    assert again.get("sheets", "a" * 64) is None and again.get("sheets", "b" * 64) is None  # (the FIFO: no hang)
    assert again.stats["sheets.bad"] == 2 and list((cache_dir / "sheets").iterdir()) == []
    assert tree(outside) == before


def test_a_pack_that_is_a_link_or_a_fifo_is_never_read_and_goes(tmp_path):
    cache_dir = tmp_path / "cache"
    first = Cache(cache_dir, memory=False)
    first.put_many("svg", [("a" * 64, "<svg/>"), ("b" * 64, "<svg/>")])
    first.flush()
    outside, before = victim(tmp_path)
    [pack] = (cache_dir / "svg").iterdir()
    (outside / "pack").write_bytes(pack.read_bytes())  # a pack of the user's, outside the cache
    before = tree(outside)
    pack.unlink()
    (cache_dir / "svg" / "pack.1.1.link").symlink_to(outside / "pack")
    os.mkfifo(cache_dir / "svg" / "pack.1.2.fifo")
    again = Cache(cache_dir, memory=False)
    assert again.get("svg", "a" * 64) is None and again.get("svg", "b" * 64) is None  # (the FIFO: no hang)
    assert list((cache_dir / "svg").iterdir()) == []
    assert tree(outside) == before


# --- cache entries whoever can write the cache cannot forge --------------------------------------------------


def _forged(raw: bytes, sign=None) -> bytes | None:
    """An entry with its payload edited and its header's size and SHA-256 recomputed, as whoever can write the
    cache can (`sign`: and the header signed again with a key of their own). None if there is nothing to edit."""
    end = raw.index(b"\n")
    line = raw[:end]
    start = line.index(b"{")
    header = json.loads(line[start:])
    payload = raw[end + 1:]
    if b"</svg>" in payload:
        payload = payload.replace(b"</svg>", b"<text>FORGED</text></svg>")
    elif header["type"] == "bytes":
        payload += b"\n% FORGED\n"
    else:
        return None
    header["size"], header["sha256"] = len(payload), hashlib.sha256(payload).hexdigest()
    text = json.dumps(header, sort_keys=True).encode("ascii")
    prefix = line[:start] if sign is None else b"pnp-cache " + cache_mod._sign(sign, text) + b" "
    return prefix + text + b"\n" + payload


def _forge(entry: Path, sign=None) -> bool:
    """_forged, of an entry that is a file of its own, written back; False if there is nothing to edit."""
    forged = _forged(entry.read_bytes(), sign)
    if forged is not None:
        entry.write_bytes(forged)
    return forged is not None


def _every_entry(cache_dir: Path) -> list[Path]:
    return sorted(p for p in cache_dir.rglob("*") if p.is_file() and p.parent.name not in PACKED)


def _forge_packed(cache_dir: Path, sign=None) -> int:
    """_forged for each entry of the packs: how many were forged."""
    return packs.rewrite(cache_dir, lambda e: _forged(e.raw, sign))


@pytest.mark.parametrize("how", ["rehashed", "signed with another key"])
def test_a_forged_cache_entry_is_served_nowhere(tmp_path, how):
    """The issue's case: every entry edited, its size and checksum recomputed (a shared $PNP_CACHE_DIR); or
    signed with its writer's own key (a zipped project with its output/.cache). Each is a miss, removed, made
    again: the output is that of a build without any cache."""
    d = deck(tmp_path)
    cache_dir = tmp_path / "cache"
    build_designs([str(d)], out=tmp_path / "want", cache=Cache(None), exports=False, show_progress=False)
    build_designs([str(d)], out=tmp_path / "first", cache=Cache(cache_dir), exports=False, show_progress=False)
    Cache(cache_dir).flush()
    sign = os.urandom(32).hex().encode() if how != "rehashed" else None
    assert _forge_packed(cache_dir, sign) == 7
    forged = [p for p in _every_entry(cache_dir) if _forge(p, sign=sign)]
    assert any(p.parent.name == "sheets" for p in forged)
    cache = Cache(cache_dir)  # a new process: empty memory, the forged disk
    build_designs([str(d)], out=tmp_path / "second", cache=cache, exports=False, show_progress=False)
    assert cache.stats["svg.bad"] == 7 and cache.made("svg") == 7 and cache.made("sheets") == 1
    got = tree(tmp_path / "second" / "d")
    assert not [name for name, data in got.items() if b"FORGED" in data]
    assert got == tree(tmp_path / "want" / "d")
    cache.flush()
    every = [p for p in cache_dir.rglob("*") if p.is_file()]
    assert not [p for p in every if b"FORGED" in p.read_bytes()]  # made again, signed; the forged ones gone


def _env(tmp_path: Path, **more: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CONFIG_HOME", "PNP_CACHE_KEY")}
    return {**env, "HOME": str(tmp_path / "home"), "PNP_CACHE_DIR": str(tmp_path / "cache"), **more}


def _cli(tmp_path: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pnp.cli", *args], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)


def test_a_fresh_home_gets_a_key_of_its_own_and_the_next_build_uses_it(tmp_path):
    """A new user (a fresh HOME, no XDG_CONFIG_HOME: CI): the key is made in ~/.config/pnp/cache-key, mode 0600,
    and the cache it signs serves the next build."""
    deck(tmp_path)
    (tmp_path / "home").mkdir()
    env = _env(tmp_path)
    first = _cli(tmp_path, env, *BUILD)
    assert first.returncode == 0 and first.stderr == "", first.stderr
    key = tmp_path / "home" / ".config" / "pnp" / "cache-key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    secret = key.read_bytes().strip()
    assert len(secret) == 64 and int(secret, 16) >= 0
    entries = packs.entries(tmp_path / "cache")
    assert len(entries) == 7
    assert all(cache_mod.decode("svg", e.key, e.raw, secret) is not None for e in entries)
    stamps = {p: p.stat().st_mtime_ns for p in (tmp_path / "cache").rglob("*") if p.is_file()}
    shutil.rmtree(tmp_path / "out")
    second = _cli(tmp_path, env, *BUILD)
    assert second.returncode == 0 and second.stderr == ""
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "cache").rglob("*") if p.is_file()} == stamps  # served
    assert key.read_bytes().strip() == secret


def test_a_cache_shared_by_jobs_with_the_same_key_serves_them_all(tmp_path):
    """$PNP_CACHE_KEY: CI jobs on fresh machines that share a cache share its key (a secret of the CI's)."""
    deck(tmp_path)
    (tmp_path / "home").mkdir()
    shared = "a CI secret of at least thirty-two characters"
    assert _cli(tmp_path, _env(tmp_path, PNP_CACHE_KEY=shared), *BUILD).returncode == 0
    entries = packs.entries(tmp_path / "cache")
    assert entries and all(cache_mod.decode("svg", e.key, e.raw, shared.encode()) is not None for e in entries)
    assert not (tmp_path / "home" / ".config").exists()  # no key file is made then


@pytest.mark.parametrize("problem", ["a link", "mode 644", "a short key in the environment"])
def test_a_key_that_cannot_be_trusted_is_a_warning_and_no_disk_cache(tmp_path, problem):
    deck(tmp_path)
    (tmp_path / "home").mkdir()
    config = tmp_path / "config"
    (config / "pnp").mkdir(parents=True)
    key = config / "pnp" / "cache-key"
    env = _env(tmp_path, XDG_CONFIG_HOME=str(config))
    if problem == "a link":
        elsewhere = tmp_path / "elsewhere"
        elsewhere.write_text("f" * 64)
        key.symlink_to(elsewhere)
        want = ("is a symbolic link; the disk cache is not used (every build makes everything again); expected the "
                "key file itself (delete the link: a new key is made)")
    elif problem == "mode 644":
        key.write_text("f" * 64)
        key.chmod(0o644)
        want = ("can be read or written by other users (mode 644); the disk cache is not used (every build makes "
                "everything again); expected mode 600 (`chmod 600` it, or delete it: a new key is made)")
    else:
        env["PNP_CACHE_KEY"] = "short"
        want = ("is 5 characters long; the disk cache is not used (every build makes everything again); expected a "
                "secret of at least 32 characters")
    done = _cli(tmp_path, env, *BUILD)
    assert done.returncode == 0, done.stderr
    where = "$PNP_CACHE_KEY" if problem.endswith("environment") else "config/pnp/cache-key"
    assert done.stderr == f"{where}: warning: {want}\n"
    assert not (tmp_path / "cache").exists()
    assert (tmp_path / "out" / "d" / "d-a4.pdf").is_file()


# --- builds started together into a folder that does not exist yet -----------------------------------------


def test_a_folder_another_build_makes_at_the_same_moment_is_used(tmp_path, monkeypatch):
    """Each folder of the output is made as if another build made it between pnp's look and its mkdir (the
    'cannot create the folder (File exists)' of 1 to 5 builds in 20 started together): the build goes on."""
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc to name the folders made")
    d = deck(tmp_path)
    out = tmp_path / "out"
    real = os.mkdir

    def raced(path, mode=0o777, *, dir_fd=None):
        full = os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), path) if dir_fd is not None else os.fspath(path)
        if full.startswith(os.fspath(out)) and output.STAGE not in full:  # (a stage is a build's own)
            real(path, mode, dir_fd=dir_fd)  # the other build, first
        return real(path, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "mkdir", raced)
    monkeypatch.setattr(parallel, "EAGER", 2)  # the faces' workers make out/d/ and its stage too
    [res] = build_designs([str(d)], out=out, cache=Cache(None), exports=False, show_progress=False)
    assert (res.out_dir / "d-a4.pdf").is_file() and len(list((res.out_dir / "svg").iterdir())) == 7


TOGETHER = """
import os, sys
from pathlib import Path
from pnp import output, parallel
parallel.EAGER = 2  # the faces' workers write svg/ files ahead (pnp.output.Stage) before the build takes its turn
barrier, n = Path(sys.argv[1]), int(sys.argv[2])
first_write = output.Stage.__init__
def together(self, target):  # every build reaches its first write into the missing out/ at the same moment
    (barrier / str(os.getpid())).touch()
    while len(os.listdir(barrier)) < n:
        os.sched_yield()
    first_write(self, target)
output.Stage.__init__ = together
sys.argv = ["pnp", *sys.argv[3:]]
from pnp.cli import run
run()
"""


def test_first_builds_started_together_take_turns(tmp_path):
    """Builds started at once into an out/ that does not exist yet all succeed, and leave one whole output."""
    d = deck(tmp_path)
    n = 6
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    env = {**os.environ, "PNP_CACHE_DIR": str(tmp_path / "cache")}
    procs = [subprocess.Popen([sys.executable, "-c", TOGETHER, str(barrier), str(n), "build", str(d), "--out",
                               str(tmp_path / "out"), "--no-exports", "--no-cache"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(n)]
    deadline = time.time() + 180
    results = [p.communicate(timeout=max(1.0, deadline - time.time())) for p in procs]
    assert [p.returncode for p in procs] == [0] * n, [err for _, err in results]
    assert [err for _, err in results if err.strip() and "waiting for it to finish" not in err] == []
    build_designs([str(d)], out=tmp_path / "alone", cache=Cache(None), exports=False, show_progress=False)
    assert tree(tmp_path / "out" / "d") == tree(tmp_path / "alone" / "d")
    assert not [p for p in (tmp_path / "out").rglob("*") if p.name.startswith(output.STAGE)
                or p.name.endswith(".tmp") or p.name == output.JOURNAL]


def test_a_big_deck_builds_into_an_out_whose_parents_do_not_exist(tmp_path, monkeypatch):
    """`--out new/a/b`: the faces' workers write ahead into it before the build takes its turn; its parents are
    made, as for a small deck."""
    monkeypatch.setattr(parallel, "EAGER", 2)
    deck(tmp_path)
    result = run(["build", "d", "--out", "new/a/b", "--no-exports", "--no-cache"], tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "new" / "a" / "b" / "d" / "d-a4.pdf").is_file()
