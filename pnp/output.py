"""Writing a design's output as one unit, only inside `<out>/<design>/`, never through a link.

A build publishes everything it made for a design at once (`publish`):

1. every file whose content changed is written beside its target under a temporary name
   (`.<name>.pnp-<pid>.tmp`); a full disk or an unwritable folder fails here, the temporary
   files are removed and the previous output is untouched;
2. a journal (`.pnp-commit.json`) lists the renames and removals, then the temporary files
   are renamed over their targets and the files an earlier build wrote that this one no
   longer makes are removed. Ctrl-C and SIGTERM are held back during this step. If the
   process dies anyway (kill -9, power), the next build finishes the journal first.

So the folder always holds one build's complete output: never the SVGs of one version
beside the PDF and manifest of another, and no temporary files. Files whose content is
unchanged are not rewritten (their dates stay), so a viewer or a file watcher only sees
what really changed. Files a designer put there themselves are never touched: only what
the previous manifest lists as written by pnp may be removed.

Writes go only below `<out>/<design>/`; a symbolic link anywhere on the way (the design's
folder or a subfolder such as `png/`) is refused, not followed. `OutputLock` keeps two
builds into the same output from interleaving: the second waits, saying so.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import stat
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from pnp.errors import PnpError, display_path

JOURNAL = ".pnp-commit.json"
LOCK = ".pnp.lock"
MANIFEST = "manifest.json"
_TMP_TAG = ".pnp-"


class OutputError(PnpError):
    """The output folder cannot be written as asked (a link, no room, no permission...)."""


def _bytes(data: bytes | str) -> bytes:
    if hasattr(data, "read_bytes"):  # a file copied in when published (pnp.render.art.ArtCopy)
        return data.read_bytes()
    return data.encode("utf-8") if isinstance(data, str) else data


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_MODE = 0o666 & ~_umask()  # what open() gives a new file: 0644 under the usual umask


def _fail(path: Path, exc: OSError, doing: str) -> OutputError:
    reason = exc.strerror or str(exc)
    return OutputError(f"{display_path(path)}: cannot {doing} ({reason}); expected a writable folder with free "
                       "space; the previous output is unchanged")


def _write_tmp(final: Path, raw: bytes) -> Path:
    """`raw` in a new temporary file beside `final` (mode as for any new file), flushed."""
    tmp = final.with_name(f".{final.name}{_TMP_TAG}{os.getpid()}-{threading.get_ident()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)  # umask applies
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def write_atomic(path: Path, data: bytes | str, only_if_changed: bool = False) -> bool:
    """Write one file through a temporary file and a rename (a file outside any design's output,
    such as a plot the user named); False if it already held `data`."""
    raw = _bytes(data)
    if only_if_changed and _same(path, raw):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        tmp = _write_tmp(path, raw)
    except OSError as exc:
        raise _fail(path, exc, "write") from None
    try:
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise _fail(path, exc, "write") from None
    return True


def _same(path: Path | str, raw: bytes, st: os.stat_result | None = None) -> bool:
    """Whether `path` is a file holding `raw` (`st`: its lstat, when known)."""
    try:
        st = st or os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size != len(raw):
            return False
        with open(path, "rb") as fh:
            return fh.read() == raw
    except OSError:
        return False


def _plain(name: str) -> bool:
    """A name pnp writes: relative, in plain parts (no '', '.', '..'), no backslash or NUL; as _relative, on the
    text alone (10,000 faces)."""
    return (bool(name) and name[0] != "/" and "\\" not in name and "\0" not in name
            and not any(part in ("", ".", "..") for part in name.split("/")))


def _relative(name: str) -> PurePosixPath | None:
    """A safe relative path below a design's output folder, or None (absolute, '..', empty parts)."""
    p = PurePosixPath(name)
    if p.is_absolute() or not p.parts or any(part in ("", ".", "..") or "\\" in part or "\0" in part
                                              for part in p.parts):
        return None
    return p


def _real_dir(path: Path, root: Path) -> None:
    """Make `path` (at or below `root`) a real folder, refusing any symbolic link on the way."""
    rel = path.relative_to(root)
    cur = root
    for part in ("",) + rel.parts:
        cur = cur / part if part else cur
        try:
            st = cur.lstat()
        except FileNotFoundError:
            try:
                cur.mkdir()
            except OSError as exc:
                raise _fail(cur, exc, "create the folder") from None
            continue
        except OSError as exc:
            raise _fail(cur, exc, "read the folder") from None
        if stat.S_ISLNK(st.st_mode):
            raise OutputError(f"{display_path(cur)}: is a symbolic link; pnp never writes or deletes through a "
                              "link; expected a plain folder (remove the link, or build with another --out)")
        if not stat.S_ISDIR(st.st_mode):
            raise OutputError(f"{display_path(cur)}: is a file, not a folder; expected pnp's output folder here")


def previous_manifest(target: Path) -> dict:
    """The manifest the last build wrote into `target` ({} if there is none or it is not pnp's)."""
    try:
        st = (target / MANIFEST).lstat()
        if not stat.S_ISREG(st.st_mode) or st.st_size > 64 << 20:
            return {}
        data = json.loads((target / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def previous_files(target: Path) -> set[str]:
    """What the last build wrote into `target`, from its manifest (entries that are not safe are ignored)."""
    files = previous_manifest(target).get("files")
    if not isinstance(files, list):
        return set()
    return {str(p) for f in files if isinstance(f, str) and (p := _relative(f)) is not None}


@dataclass
class Published:
    written: list[str] = field(default_factory=list)  # files whose content changed (or are new)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)  # files an earlier build wrote and this one no longer makes


STAGE = ".pnp-stage-"  # a staging folder's name: STAGE<pid>-<random>


class Stage:
    """Files written ahead of `publish`, while the build runs (the workers that paint a deck's faces write its
    svg/ files as they go): a hidden folder of the design's output, `<target>/.pnp-stage-<pid>-<random>/`, whose
    files `publish` renames into place instead of writing them then (creating a file costs far more than
    renaming it). Nothing in it is output until published; `discard()` removes it (a failed build leaves nothing),
    and `recover` removes those of processes that are gone. Usable in forked workers (`write`)."""

    def __init__(self, target: Path):
        self.target = Path(target)
        self.made_target = not self.target.exists()
        _real_dir(self.target, self.target.parent)  # never through a link, as publish
        self.root = self.target / f"{STAGE}{os.getpid()}-{os.urandom(4).hex()}"
        try:
            self.root.mkdir()
        except OSError as exc:
            raise _fail(self.root, exc, "create the folder") from None
        _ACTIVE.add(self.root.name)
        self._root = os.fspath(self.root)
        self.names: set[str] = set()  # the files written, as reported back by the workers that wrote them
        self._dirs: set[str] = set()

    def write(self, name: str, data: bytes | str) -> bool:
        """`data` as the staged file `name` (a path under the design's output); False if the output holds it
        already, or if it could not be written (publish writes it then, and reports what is wrong)."""
        if not _plain(name):
            return False
        raw = _bytes(data)
        if _same(os.path.join(os.fspath(self.target), name), raw):  # (unchanged: publish leaves it as it is)
            return False
        path = os.path.join(self._root, name)
        folder = os.path.dirname(path)
        try:
            if folder not in self._dirs:  # (once per folder and process)
                os.makedirs(folder, exist_ok=True)
                self._dirs.add(folder)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)  # umask applies
            with os.fdopen(fd, "wb") as fh:
                fh.write(raw)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(path)
            return False
        return True

    def staged(self, name: str, raw: bytes) -> str | None:
        """The staged file of `name`, when it holds `raw` (by size: a worker wrote exactly the face's text)."""
        if name not in self.names:
            return None
        path = os.path.join(self._root, name)
        try:
            st = os.lstat(path)
        except OSError:
            return None
        return path if stat.S_ISREG(st.st_mode) and st.st_size == len(raw) else None

    def discard(self) -> None:
        """Remove the staging folder and what is left in it (and the design's output folder, if it made it and
        nothing else is there). Not while a publish that was cut short (its journal there) still needs its files:
        `recover` finishes that publish, then removes the folder."""
        _ACTIVE.discard(self.root.name)
        if (self.target / JOURNAL).exists():
            return
        shutil.rmtree(self.root, ignore_errors=True)
        if self.made_target:
            with contextlib.suppress(OSError):
                self.target.rmdir()


_ACTIVE: set[str] = set()  # this process's staging folders in use


def _stale_stage(name: str) -> bool:
    """A staging folder no build uses: of a process that is gone, or of this one and discarded."""
    pid = name[len(STAGE):].partition("-")[0]
    if not pid.isdigit():
        return False
    if int(pid) == os.getpid():
        return name not in _ACTIVE
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, another user's
        return False
    return False


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block is done, then act (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []
    old = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    for sig in old:
        signal.signal(sig, lambda signum, frame: pending.append(signum))
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        if pending:
            signal.raise_signal(pending[0])


def recover(target: Path) -> None:
    """Finish what an interrupted publish left: its journal's renames, and no temporary files."""
    journal = target / JOURNAL
    try:
        st = journal.lstat()
    except OSError:
        st = None
    if st is not None and stat.S_ISREG(st.st_mode):
        try:
            plan = json.loads(journal.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            plan = {}
        for tmp, final in plan.get("renames", []):
            t, f = _relative(tmp), _relative(final)
            if t is not None and f is not None and (target / str(t)).is_file() and not (target / str(t)).is_symlink():
                os.replace(target / str(t), target / str(f))
        for name in plan.get("remove", []):
            r = _relative(name)
            if r is not None:
                _remove(target, r)
        journal.unlink(missing_ok=True)
    if target.is_dir() and not target.is_symlink():
        for entry in os.scandir(target):
            if entry.name.startswith(STAGE) and entry.is_dir(follow_symlinks=False) and _stale_stage(entry.name):
                shutil.rmtree(entry.path, ignore_errors=True)
        for folder, dirs, files in os.walk(target):  # os.walk does not follow links
            if folder == os.fspath(target):
                dirs[:] = [d for d in dirs if not d.startswith(STAGE)]  # (their files are not temporary files)
            for name in files:
                if name.startswith(".") and _TMP_TAG in name and name.endswith(".tmp"):
                    Path(folder, name).unlink(missing_ok=True)


def _remove(target: Path, rel: PurePosixPath) -> bool:
    """Remove one file pnp wrote below `target`, never through a link on the way; True if removed."""
    cur = target
    for part in rel.parts[:-1]:
        cur = cur / part
        if cur.is_symlink() or not cur.is_dir():
            return False
    path = cur / rel.parts[-1]
    try:
        if stat.S_ISDIR(path.lstat().st_mode):
            return False
        path.unlink()
    except OSError:
        return False
    # an owned folder (svg/, png/, tts/) left empty goes too
    parent = path.parent
    while parent != target:
        try:
            parent.rmdir()
        except OSError:
            break
        parent = parent.parent
    return True


def publish(target: Path, files: Mapping[str, bytes | str], *, keep: set[str] | frozenset[str] = frozenset(),
            manifest: Callable[[list[str]], bytes | str] | None = None, stage: Stage | None = None) -> Published:
    """Make `target` hold `files` (relative name -> content) as one unit; see the module docstring.

    `manifest(names)` gives manifest.json's content from the sorted list of every file pnp
    made that is there now (it is written last). Files an earlier build made stay only if
    they are in `keep` (e.g. another paper's PDFs); the others are removed. The files written
    ahead into `stage` are moved into place rather than written again (the stage is used up).
    """
    try:
        return _publish(target, files, keep, manifest, stage)
    finally:
        if stage is not None:
            stage.discard()


def _publish(target: Path, files: Mapping[str, bytes | str], keep: set[str] | frozenset[str],
             manifest: Callable[[list[str]], bytes | str] | None, stage: Stage | None) -> Published:
    target = Path(target)
    _real_dir(target, target.parent)
    recover(target)
    before = previous_files(target)
    names = sorted(files)
    for name in names:
        if not _plain(name) or name == MANIFEST:
            raise ValueError(f"not a file name pnp writes: {name!r}")  # a bug, not bad input
    kept = {k for k in keep if _plain(k) and k not in files and (target / k).is_file()}
    listed = sorted(set(names) | kept | ({MANIFEST} if manifest else set()))
    # files copied in when published (pnp.render.art.ArtCopy) are read when compared and again when written,
    # never all held at once
    contents = {n: (files[n] if hasattr(files[n], "read_bytes") else _bytes(files[n])) for n in names}
    if manifest is not None:
        contents[MANIFEST] = _bytes(manifest(listed))
    result = Published()
    todo = []
    occupied = []  # names where a link or a folder is
    base = os.path.join(os.fspath(target), "")  # (names and temporary files joined to it as text: 10,000 faces)
    for name, raw in contents.items():
        path = os.path.join(base, name)  # (one lstat a file: 10,000 faces)
        try:
            st = os.lstat(path)
        except OSError:
            st = None
        if st is not None and stat.S_ISREG(st.st_mode) and _same(path, _bytes(raw), st):
            result.unchanged.append(name)
        else:  # (a list's `in` here made publishing 10,000 faces quadratic: 1.4 s)
            result.written.append(name)
            todo.append(name)
            if st is not None and (stat.S_ISLNK(st.st_mode) or stat.S_ISDIR(st.st_mode)):
                occupied.append(name)
    for folder in sorted({n.rpartition("/")[0] for n in todo} - {""}):  # (plain names)
        _real_dir(target / folder, target)
    if occupied:
        raise OutputError(f"{display_path(target / occupied[0])}: is a link or a folder where pnp writes a file; "
                          "expected nothing there, or pnp's own file")
    temps: dict[str, Path | str] = {}  # name -> its temporary or staged file
    if stage is not None:  # written already (renamed from the stage like any temporary file)
        for name in todo:
            raw = contents[name]
            staged = stage.staged(name, raw) if isinstance(raw, bytes) else None
            if staged is not None:
                temps[name] = staged
    to_write = [n for n in todo if n not in temps]
    stale = sorted(before - set(listed))
    order = [n for n in todo if n != MANIFEST] + ([MANIFEST] if MANIFEST in todo else [])
    with contextlib.ExitStack() as held:
        try:
            # many small files: threads overlap the file-system latency (file I/O releases the GIL)
            with ThreadPoolExecutor(max_workers=8) as pool:
                with _signals_held():  # (an interrupt while a thread starts left it unjoined: a file after the clean-up)
                    made = pool.map(lambda n: _write_tmp(target / n, _bytes(contents[n])), to_write)
                for name, tmp in zip(to_write, made):
                    temps[name] = tmp
            held.enter_context(_signals_held())  # from here to the last rename: an interrupt waits, then acts
        except BaseException as exc:
            for left in temps.values():
                Path(left).unlink(missing_ok=True)
            recover(target)  # temporary files of the threads that failed
            if isinstance(exc, OSError):
                raise _fail(target, exc, "write the new output") from None
            raise
        # every temporary file is below the target: beside its file, or staged
        journal = {"renames": [[os.fspath(temps[n])[len(base):].replace(os.sep, "/"), n] for n in order],
                   "remove": stale}
        try:
            (target / JOURNAL).write_text(json.dumps(journal), encoding="utf-8")
        except OSError as exc:
            for left in temps.values():
                Path(left).unlink(missing_ok=True)
            raise _fail(target, exc, "write the new output") from None
        for name in order:
            os.replace(temps[name], os.path.join(base, name))
        for name in stale:
            if _remove(target, PurePosixPath(name)):
                result.removed.append(name)
        (target / JOURNAL).unlink(missing_ok=True)
    return result


_PAPER_FILE = re.compile(r"-(a4|letter|a3)(?:-proof)?\.pdf$")


def publish_more(target: Path, files: Mapping[str, bytes | str]) -> Published:
    """Add or replace some files of a design's output (e.g. `pnp rules`), keeping the rest and the
    manifest's record of it."""
    before = previous_manifest(target)
    by_paper = before.get("by_paper") if isinstance(before.get("by_paper"), dict) else {}
    by_paper = {str(p): [f for f in v if isinstance(f, str)] for p, v in by_paper.items() if isinstance(v, list)}
    for name in files:
        m = _PAPER_FILE.search(name)
        if m and name not in by_paper.setdefault(m.group(1), []):
            by_paper[m.group(1)].append(name)

    def manifest(listed: list[str]) -> str:
        data = {**before, "files": listed, "by_paper": {p: sorted(v) for p, v in sorted(by_paper.items())}}
        data.setdefault("design", target.name)
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

    return publish(target, files, keep=previous_files(target), manifest=manifest)


class OutputLock:
    """One build at a time into an output folder: `<out>/.pnp.lock`, held while publishing."""

    def __init__(self, out: Path, echo: Callable[[str], None] | None = None):
        self.out = Path(out)
        self.echo = echo
        self._fd: int | None = None

    def __enter__(self) -> "OutputLock":
        import fcntl

        try:
            self.out.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(self.out / LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o666)
        except OSError as exc:
            raise _fail(self.out, exc, "use the output folder") from None
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if self.echo:
                self.echo(f"another pnp is writing into {display_path(self.out)}; waiting for it to finish")
            fcntl.flock(self._fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the lock
            self._fd = None


def check_out(out: Path, design_folders: list[Path]) -> None:
    """Refuse an output folder that holds a design or lies inside one: pnp writes only in its own folder."""
    real_out = Path(out).resolve()
    for folder in design_folders:
        real = Path(folder).resolve()
        if real == real_out or real_out in real.parents or real in real_out.parents:
            inside = real_out == real or real in real_out.parents
            raise OutputError(
                f"--out {display_path(out)}: {'is inside' if inside else 'holds'} the design folder "
                f"{display_path(folder)}; pnp writes only into a folder of its own; expected another folder, "
                "such as output/")
