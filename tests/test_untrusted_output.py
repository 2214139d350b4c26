"""What a build finds in its output folder and its cache is untrusted too (issue 29): a zipped project, a shared
`$PNP_CACHE_DIR` or a co-designer may have planted links, a journal or cache entries there. pnp writes and moves
nothing through a link (a link where it writes is refused: `file: what is wrong; what is expected`, exit 2; a
journal's rename through one is not followed), serves no cache entry it did not sign itself, and builds started
together into a folder that does not exist yet take turns. Each test runs a real build and checks that nothing
outside the output changed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clirun import run

from pnp import output, parallel
from pnp.build import build_designs
from pnp.cache import Cache

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
