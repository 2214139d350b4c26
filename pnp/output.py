"""Writing a design's output as one unit, only inside `<out>/<design>/`, never through a link.

A build publishes everything it made for a design at once (`publish`):

1. every file whose content changed is written beside its target under a temporary name
   (`.<name>.pnp-<pid>-<thread>.tmp`); a full disk or an unwritable folder fails here, the temporary
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

Writes go only below `<out>/<design>/`, and never through a symbolic link: every folder is
opened from the one above it (a directory descriptor, `O_NOFOLLOW`), so a link anywhere on
the way (the output folder, the design's folder, a subfolder such as `png/`) is refused, not
followed, and nothing can swap one in between the check and the write. What pnp only reads
or removes through a link (a journal's renames, an old file a manifest lists) is not
followed: it is skipped. A journal is followed only where it names what pnp itself writes:
its temporary files beside their files, or its staged files. `OutputLock` keeps two builds
into the same output from interleaving: the second waits, saying so.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import re
import shutil
import signal
import stat
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from pnp.errors import PnpError, display_path, warn

JOURNAL = ".pnp-commit.json"
LOCK = ".pnp.lock"
MANIFEST = "manifest.json"
_TMP_TAG = ".pnp-"

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | _CLOEXEC  # a folder, never a link to one
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | _CLOEXEC  # (a FIFO opens at once: its type is then checked)
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _CLOEXEC


class OutputError(PnpError):
    """The output folder cannot be written as asked (a link, no room, no permission...)."""


def _bytes(data: bytes | str) -> bytes:
    if hasattr(data, "read_bytes"):  # a file copied in when published (pnp.render.art.ArtCopy)
        return data.read_bytes()
    return data.encode("utf-8") if isinstance(data, str) else data


def _comparable(data):
    """What publishing compares and writes: the bytes, or a file read in chunks as it is (`chunks()`)."""
    return data if hasattr(data, "chunks") else _bytes(data)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_MODE = 0o666 & ~_umask()  # what open() gives a new file: 0644 under the usual umask


def _fail(path: Path, exc: OSError, doing: str) -> OutputError:
    reason = exc.strerror or str(exc)
    return OutputError(f"{display_path(path)}: cannot {doing} ({reason}); expected a writable folder with free "
                       "space; the previous output is unchanged")


def _linked(path: Path) -> OutputError:
    return OutputError(f"{display_path(path)}: is a symbolic link; pnp never writes or deletes through a link; "
                       "expected a plain folder (remove the link, or build with another --out)")


# --- folders opened one from the other, never through a link ------------------------------------------------


class _Refused(Exception):
    """A link or a file where a folder was to be opened (`kind`: 'link' or 'file')."""

    def __init__(self, kind: str):
        self.kind = kind


def _open_dir(parent: int, name: str, create: bool) -> int | None:
    """The folder `name` of the open folder `parent`, opened without following a link; made first when missing and
    `create` (another process making it at the same moment is fine); None when missing. _Refused for a link or a
    file there; OSError when it cannot be read or made."""
    for _ in range(8):  # (made, then removed by another build before it could be opened: again)
        try:
            return os.open(name, _DIR, dir_fd=parent)
        except FileNotFoundError:
            if not create:
                return None
        except (NotADirectoryError, OSError) as exc:
            if exc.errno not in (errno.ENOTDIR, errno.ELOOP):
                raise
            try:
                st = os.stat(name, dir_fd=parent, follow_symlinks=False)
            except FileNotFoundError:
                continue  # (removed meanwhile)
            raise _Refused("link" if stat.S_ISLNK(st.st_mode) else "file") from None
        with contextlib.suppress(FileExistsError):  # (made by another build meanwhile: opened next time round)
            os.mkdir(name, 0o777, dir_fd=parent)
    raise OSError(errno.ENOENT, os.strerror(errno.ENOENT))


def _open_out(target: Path, create: bool) -> tuple[int | None, bool]:
    """(the folder `target` opened, whether it was made now): its parent, the output folder, is opened along its
    path as the user gave it (made with its parents when missing and `create`), then both it and `target` without
    following a link. (None, False) when missing and not `create`. OutputError for a link or a file there."""
    out = target.parent
    if out.name in ("", ".", ".."):  # (a name that cannot be a link: `--out .`)
        chain: list[tuple[Path, str]] = []
        start = out
    else:
        chain = [(out, out.name)]
        start = out.parent
    chain.append((target, target.name))
    try:
        if create:
            os.makedirs(start, exist_ok=True)
        fd = os.open(start, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)
    except FileNotFoundError:
        if not create:
            return None, False
        raise _fail(start, OSError(errno.ENOENT, os.strerror(errno.ENOENT)), "create the folder") from None
    except OSError as exc:
        raise _fail(out, exc, "use the output folder") from None
    made = False
    for path, name in chain:
        try:
            made = create and not _exists(fd, name)
            child = _open_dir(fd, name, create)
        except _Refused as exc:
            raise (_linked(path) if exc.kind == "link" else OutputError(
                f"{display_path(path)}: is a file, not a folder; expected pnp's output folder here")) from None
        except OSError as exc:
            raise _fail(path, exc, "create the folder" if create else "read the folder") from None
        finally:
            os.close(fd)
        if child is None:
            return None, False
        fd = child
    return fd, made


def _exists(folder: int, name: str) -> bool:
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except OSError:
        return False
    return True


class _Tree:
    """A design's output folder and the folders below it, each opened once from the one above it (and kept open),
    never through a link; every name is relative to it ("svg/a.svg"). `root` is None if the folder is missing."""

    def __init__(self, target: Path, create: bool):
        self.target = Path(target)
        self.root, self.made = _open_out(self.target, create)
        self._fds: dict[str, int] = {} if self.root is None else {"": self.root}

    def folder(self, rel: str) -> int:
        """The folder `rel` ('' is the design's folder), made when missing; OutputError for a link on the way."""
        fd = self._fds.get(rel)
        if fd is not None:
            return fd
        if self.root is None:
            raise OutputError(f"{display_path(self.target)}: is missing; expected pnp's output folder")
        parent, _, name = rel.rpartition("/")
        up = self.folder(parent)
        try:
            fd = _open_dir(up, name, True)
        except _Refused as exc:
            path = self.target / rel
            raise (_linked(path) if exc.kind == "link" else OutputError(
                f"{display_path(path)}: is a file where pnp makes a folder; expected a folder, or nothing there")) \
                from None
        except OSError as exc:
            raise _fail(self.target / rel, exc, "create the folder") from None
        assert fd is not None
        self._fds[rel] = fd
        return fd

    def find(self, rel: str) -> int | None:
        """The folder `rel` if it is there, reached without a link (else None: missing, a link or a file)."""
        fd = self._fds.get(rel)
        if fd is not None or self.root is None:
            return fd
        parent, _, name = rel.rpartition("/")
        up = self.find(parent)
        if up is None:
            return None
        try:
            fd = _open_dir(up, name, False)
        except (_Refused, OSError):
            return None
        if fd is not None:
            self._fds[rel] = fd
        return fd

    def blocked(self, rel: str) -> bool:
        """Whether a link or a file stands on the way to the folder `rel` (a folder merely missing is not)."""
        parent, _, name = rel.rpartition("/")
        if not rel:
            return False
        if self.blocked(parent):
            return True
        up = self.find(parent)
        if up is None:
            return False
        try:
            st = os.stat(name, dir_fd=up, follow_symlinks=False)
        except OSError:
            return False
        return not stat.S_ISDIR(st.st_mode)

    def parent(self, name: str) -> tuple[int | None, str]:
        """(the folder holding the file `name` if reached without a link, else None; the file's own name)."""
        folder, _, base = name.rpartition("/")
        return self.find(folder), base

    def lstat(self, name: str) -> os.stat_result | None:
        fd, base = self.parent(name)
        if fd is None:
            return None
        try:
            return os.stat(base, dir_fd=fd, follow_symlinks=False)
        except OSError:
            return None

    def forget(self, rel: str) -> None:
        """A folder removed: its descriptor (and those below it) closed."""
        for key in [k for k in self._fds if k == rel or k.startswith(rel + "/")]:
            os.close(self._fds.pop(key))

    def close(self) -> None:
        for fd in self._fds.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds.clear()
        self.root = None

    def __enter__(self) -> _Tree:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _read_at(folder: int, name: str, limit: int) -> bytes | None:
    """The bytes of the regular file `name` of `folder` (not a link, a FIFO or a device; at most `limit` bytes)."""
    try:
        fd = os.open(name, _READ, dir_fd=folder)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        return fh.read(limit + 1)


def _same_at(folder: int | None, name: str, raw, st: os.stat_result | None = None) -> bool:
    """Whether `name` in `folder` is a regular file holding `raw` (`st`: its lstat, when known). `raw`: bytes, or
    a file read in chunks (pnp.render.spool.SpooledFile: `chunks()`, `len()`), compared chunk by chunk."""
    if folder is None:
        return False
    try:
        st = st or os.stat(name, dir_fd=folder, follow_symlinks=False)
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode) or st.st_size != len(raw):
        return False
    if hasattr(raw, "chunks"):
        return _same_chunks(folder, name, raw)
    return _read_at(folder, name, len(raw)) == raw


def _same_chunks(folder: int, name: str, raw) -> bool:
    try:
        fd = os.open(name, _READ, dir_fd=folder)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as fh:
        for chunk in raw.chunks():
            if fh.read(len(chunk)) != chunk:
                return False
        return fh.read(1) == b""


def _write_tmp(final: Path, raw: bytes, folder: int | None = None) -> Path:
    """`raw` in a new temporary file beside `final` (mode as for any new file), flushed; `folder`: the open folder
    that holds `final` (else `final` is reached by its path)."""
    tmp = final.with_name(f".{final.name}{_TMP_TAG}{os.getpid()}-{threading.get_ident()}.tmp")
    fd = os.open(tmp.name if folder is not None else tmp, _NEW, 0o666, dir_fd=folder)  # umask applies
    try:
        with os.fdopen(fd, "wb") as fh:
            if hasattr(raw, "chunks"):  # a file too big to hold (pnp.render.spool.SpooledFile), copied in chunks
                for chunk in raw.chunks():
                    fh.write(chunk)
            else:
                fh.write(raw)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp.name if folder is not None else tmp, dir_fd=folder)
        raise
    return tmp


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


def previous_manifest(target: Path) -> dict:
    """The manifest the last build wrote into `target` ({} if there is none, it is not pnp's, or it is reached
    through a link)."""
    try:
        folder = os.open(target, _DIR)
    except OSError:
        return {}
    try:
        raw = _read_at(folder, MANIFEST, 64 << 20)
    finally:
        os.close(folder)
    try:
        data = json.loads(raw.decode("utf-8")) if raw is not None else {}
    except (ValueError, UnicodeDecodeError):
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
    and `recover` removes those of processes that are gone. Usable in forked workers (`write`); each process opens
    the folders it writes into for itself, never through a link."""

    def __init__(self, target: Path):
        self.target = Path(target)
        self.name = f"{STAGE}{os.getpid()}-{os.urandom(4).hex()}"
        self.root = self.target / self.name
        for _ in range(8):  # (the design's folder removed by a build that failed, just as this one made it: again)
            tree = _Tree(self.target, create=True)
            try:
                os.mkdir(self.name, 0o777, dir_fd=tree.folder(""))
                break
            except FileNotFoundError:
                tree.close()
            except OSError as exc:
                tree.close()
                raise _fail(self.root, exc, "create the folder") from None
        else:
            raise _fail(self.root, OSError(errno.ENOENT, os.strerror(errno.ENOENT)), "create the folder")
        self.made_target = tree.made
        self._tree: _Tree | None = tree
        self._pid = os.getpid()
        _ACTIVE.add(self.name)
        self.names: set[str] = set()  # the files written, as reported back by the workers that wrote them

    def __getstate__(self) -> dict:  # (sent back from a worker: its open folders are its own)
        return {**self.__dict__, "_tree": None}

    def _folders(self) -> _Tree | None:
        """This process's open folders of the design's output (None if it is gone)."""
        if self._tree is None or self._pid != os.getpid():
            try:
                self._tree = _Tree(self.target, create=False)
            except OutputError:
                return None
            self._pid = os.getpid()
        return self._tree if self._tree.root is not None else None

    def write(self, name: str, data: bytes | str) -> bool:
        """`data` as the staged file `name` (a path under the design's output); False if the output holds it
        already, or if it could not be written (publish writes it then, and reports what is wrong)."""
        if not _plain(name):
            return False
        raw = _bytes(data)
        tree = self._folders()
        if tree is None:
            return False
        if _same_at(*tree.parent(name), raw):  # (unchanged: publish leaves it as it is)
            return False
        folder, _, base = f"{self.name}/{name}".rpartition("/")
        try:
            if tree.find(self.name) is None:
                return False  # (discarded: the build failed)
            fd = os.open(base, _NEW, 0o666, dir_fd=tree.folder(folder))  # umask applies
            with os.fdopen(fd, "wb") as fh:
                fh.write(raw)
        except (OSError, OutputError):
            with contextlib.suppress(OSError, OutputError):
                os.unlink(base, dir_fd=tree.folder(folder))
            return False
        return True

    def staged(self, name: str, raw: bytes, tree: _Tree) -> str | None:
        """The staged file of `name` (relative to the design's output), when it holds `raw` (by size: a worker
        wrote exactly the face's text)."""
        if name not in self.names:
            return None
        rel = f"{self.name}/{name}"
        st = tree.lstat(rel)
        return rel if st is not None and stat.S_ISREG(st.st_mode) and st.st_size == len(raw) else None

    def discard(self) -> None:
        """Remove the staging folder and what is left in it (and the design's output folder, if it made it and
        nothing else is there). Not while a publish that was cut short (its journal there) still needs its files:
        `recover` finishes that publish, then removes the folder."""
        _ACTIVE.discard(self.name)
        tree = self._folders()
        if tree is None:
            return
        try:
            if _exists(tree.folder(""), JOURNAL):
                return
            tree.forget(self.name)
            shutil.rmtree(self.name, ignore_errors=True, dir_fd=tree.folder(""))
        finally:
            tree.close()
            self._tree = None
        if self.made_target:
            with contextlib.suppress(OSError):
                os.rmdir(self.target)  # (only if empty; never a link)


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


_TEMP_NAME = re.compile(r"\.(.+)\.pnp-\d+-\d+\.tmp")  # _write_tmp's names: .<name>.pnp-<pid>-<thread>.tmp
_STAGE_NAME = re.compile(re.escape(STAGE) + r"\d+-[0-9a-f]{8}")


def _pnp_rename(tmp: str, final: str) -> bool:
    """Whether a journal's rename is one pnp makes: its temporary file beside the file, or its staged file."""
    if not (_plain(tmp) and _plain(final)) or final.split("/")[0] in (JOURNAL, LOCK) \
            or final.startswith(STAGE) or _TEMP_NAME.fullmatch(final.rpartition("/")[2]):
        return False
    stage, _, rest = tmp.partition("/")
    if _STAGE_NAME.fullmatch(stage) and rest == final:
        return True
    folder, _, base = final.rpartition("/")
    tmp_folder, _, tmp_base = tmp.rpartition("/")
    m = _TEMP_NAME.fullmatch(tmp_base)
    return m is not None and tmp_folder == folder and m.group(1) == base


def recover(target: Path, tree: _Tree | None = None) -> None:
    """Finish what an interrupted publish left: its journal's renames, and no temporary files. Only what pnp
    writes is followed (see `_pnp_rename`), never through a link; anything else the journal names is a warning."""
    if tree is None:
        with _Tree(target, create=False) as own:
            if own.root is not None:
                recover(target, own)
        return
    root = tree.folder("")
    st = tree.lstat(JOURNAL)
    if st is not None and stat.S_ISREG(st.st_mode):
        raw = _read_at(root, JOURNAL, 256 << 20)
        try:
            plan = json.loads(raw.decode("utf-8")) if raw is not None else {}
        except (ValueError, UnicodeDecodeError):
            plan = {}
        plan = plan if isinstance(plan, dict) else {}
        refused = []
        renames = plan.get("renames")
        for entry in renames if isinstance(renames, list) else []:
            if not (isinstance(entry, list) and len(entry) == 2 and all(isinstance(e, str) for e in entry)) \
                    or not _pnp_rename(*entry):
                refused.append(entry)
                continue
            tmp, final = entry
            src, src_name = tree.parent(tmp)
            dst, dst_name = tree.parent(final)
            if src is None or dst is None:
                if tree.blocked(tmp.rpartition("/")[0]) or tree.blocked(final.rpartition("/")[0]):
                    refused.append(entry)
                continue
            try:
                if stat.S_ISREG(os.stat(src_name, dir_fd=src, follow_symlinks=False).st_mode):
                    os.replace(src_name, dst_name, src_dir_fd=src, dst_dir_fd=dst)
            except OSError:
                continue  # (done before the build died)
        removals = plan.get("remove")
        for name in removals if isinstance(removals, list) else []:
            r = _relative(name) if isinstance(name, str) else None
            if r is not None:
                _remove(tree, str(r))
        if refused:
            shown = ", ".join(" -> ".join(map(repr, e)) if isinstance(e, list) else repr(e) for e in refused[:3])
            more = f" and {len(refused) - 3} more" if len(refused) > 3 else ""
            warn(tree.target / JOURNAL, None,
                 f"not followed: {len(refused)} rename{'s' if len(refused) > 1 else ''} pnp never makes ({shown}{more}); "
                 "expected only an interrupted build's own renames (its temporary files beside their files, no link "
                 "on the way)")
    if st is not None and not stat.S_ISDIR(st.st_mode):  # (also a link or a FIFO planted under its name)
        with contextlib.suppress(OSError):
            os.unlink(JOURNAL, dir_fd=root)
    for entry in os.scandir(root):
        if entry.name.startswith(STAGE) and entry.is_dir(follow_symlinks=False) and _stale_stage(entry.name):
            tree.forget(entry.name)
            shutil.rmtree(entry.name, ignore_errors=True, dir_fd=root)
    for top, dirs, files, folder in os.fwalk(".", dir_fd=root):  # (follows no link; the folders opened as it goes)
        if top == ".":
            dirs[:] = [d for d in dirs if not d.startswith(STAGE)]  # (their files are not temporary files)
        for name in files:
            if name.startswith(".") and _TMP_TAG in name and name.endswith(".tmp"):
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=folder)


def _remove(tree: _Tree, name: str) -> bool:
    """Remove one file pnp wrote below the design's folder, never through a link on the way; True if removed."""
    folder, base = tree.parent(name)
    if folder is None:
        return False
    try:
        if stat.S_ISDIR(os.stat(base, dir_fd=folder, follow_symlinks=False).st_mode):
            return False
        os.unlink(base, dir_fd=folder)
    except OSError:
        return False
    # an owned folder (svg/, png/, tts/) left empty goes too
    rel = name.rpartition("/")[0]
    while rel:
        up, _, last = rel.rpartition("/")
        up_fd = tree.find(up)
        if up_fd is None:
            break
        try:
            os.rmdir(last, dir_fd=up_fd)
        except OSError:
            break
        tree.forget(rel)
        rel = up
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
        with _Tree(Path(target), create=True) as tree:
            return _publish(tree, files, keep, manifest, stage)
    finally:
        if stage is not None:
            stage.discard()


_THREADED = 64  # files from which publishing writes them on threads (fewer: one after the other, no thread started)


def _publish(tree: _Tree, files: Mapping[str, bytes | str], keep: set[str] | frozenset[str],
             manifest: Callable[[list[str]], bytes | str] | None, stage: Stage | None) -> Published:
    target = tree.target
    root = tree.folder("")
    recover(target, tree)
    before = previous_files(target)
    names = sorted(files)
    for name in names:
        if not _plain(name) or name == MANIFEST:
            raise ValueError(f"not a file name pnp writes: {name!r}")  # a bug, not bad input
    kept = {k for k in keep if _plain(k) and k not in files and (st := tree.lstat(k)) is not None
            and stat.S_ISREG(st.st_mode)}
    listed = sorted(set(names) | kept | ({MANIFEST} if manifest else set()))
    # files copied in when published (pnp.render.art.ArtCopy) are read when compared and again when written,
    # never all held at once
    contents = {n: (files[n] if hasattr(files[n], "read_bytes") else _bytes(files[n])) for n in names}
    if manifest is not None:
        contents[MANIFEST] = _bytes(manifest(listed))
    result = Published()
    todo = []
    occupied = []  # names where a link or a folder is
    for name, raw in contents.items():
        folder, base = tree.parent(name)  # (one stat a file, from its open folder: 10,000 faces)
        st = None
        if folder is not None:
            with contextlib.suppress(OSError):
                st = os.stat(base, dir_fd=folder, follow_symlinks=False)
        if st is not None and stat.S_ISREG(st.st_mode) and _same_at(folder, base, _comparable(raw), st):
            result.unchanged.append(name)
        else:  # (a list's `in` here made publishing 10,000 faces quadratic: 1.4 s)
            result.written.append(name)
            todo.append(name)
            if st is not None and (stat.S_ISLNK(st.st_mode) or stat.S_ISDIR(st.st_mode)):
                occupied.append(name)
    for folder_name in sorted({n.rpartition("/")[0] for n in todo} - {""}):  # (plain names)
        tree.folder(folder_name)  # made, or OutputError for a link on the way
    if occupied:
        raise OutputError(f"{display_path(target / occupied[0])}: is a link or a folder where pnp writes a file; "
                          "expected nothing there, or pnp's own file")
    temps: dict[str, str] = {}  # name -> its temporary or staged file, relative to the design's folder
    if stage is not None:  # written already (renamed from the stage like any temporary file)
        for name in todo:
            raw = contents[name]
            staged = stage.staged(name, raw, tree) if isinstance(raw, bytes) else None
            if staged is not None:
                temps[name] = staged
    to_write = [n for n in todo if n not in temps]
    stale = sorted(before - set(listed))
    order = [n for n in todo if n != MANIFEST] + ([MANIFEST] if MANIFEST in todo else [])

    def write(name: str) -> str:
        folder = name.rpartition("/")[0]
        tmp = _write_tmp(target / name, _comparable(contents[name]), tree.folder(folder))
        return f"{folder}/{tmp.name}" if folder else tmp.name

    def unlink(rel: str) -> None:
        folder, base = tree.parent(rel)
        if folder is not None:
            with contextlib.suppress(OSError):
                os.unlink(base, dir_fd=folder)

    with contextlib.ExitStack() as held:
        try:
            if len(to_write) < _THREADED:
                for name in to_write:
                    temps[name] = write(name)
            else:  # many small files: threads overlap the file-system latency (file I/O releases the GIL)
                from concurrent.futures import ThreadPoolExecutor  # lazy: 8 ms (concurrent.futures, logging)

                with ThreadPoolExecutor(max_workers=8) as pool:
                    with _signals_held():  # (an interrupt while a thread starts left it unjoined: a file after the clean-up)
                        made = pool.map(write, to_write)
                    for name, tmp in zip(to_write, made):
                        temps[name] = tmp
            held.enter_context(_signals_held())  # from here to the last rename: an interrupt waits, then acts
        except BaseException as exc:
            for left in temps.values():
                unlink(left)
            recover(target, tree)  # temporary files of the threads that failed
            if isinstance(exc, OSError):
                raise _fail(target, exc, "write the new output") from None
            raise
        # every temporary file is below the target: beside its file, or staged
        journal = json.dumps({"renames": [[temps[n], n] for n in order], "remove": stale}).encode("utf-8")
        try:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(JOURNAL, dir_fd=root)  # (never written through: a link planted there goes)
            fd = os.open(JOURNAL, _NEW, 0o666, dir_fd=root)
            with os.fdopen(fd, "wb") as fh:
                fh.write(journal)
        except OSError as exc:
            for left in temps.values():
                unlink(left)
            with contextlib.suppress(OSError):
                os.unlink(JOURNAL, dir_fd=root)
            raise _fail(target, exc, "write the new output") from None
        for name in order:
            src_folder, _, src_name = temps[name].rpartition("/")
            dst_folder, _, base = name.rpartition("/")
            os.replace(src_name, base, src_dir_fd=tree.folder(src_folder), dst_dir_fd=tree.folder(dst_folder))
        for name in stale:
            if _remove(tree, name):
                result.removed.append(name)
        os.unlink(JOURNAL, dir_fd=root)
    return result


_PAPER_FILE = re.compile(r"-(a4|letter|a3)(?:-proof)?\.pdf$")


def write_own(target: Path, name: str, data: bytes) -> Path:
    """A file of the user's that pnp writes into a design's output, which no build owns (a game saved by `pnp
    play`: games/...): written whole (a temporary file renamed), never through a link, and left out of the
    manifest, so that no build removes it. OutputError for a link or a file on the way."""
    if not _plain(name) or name == MANIFEST:
        raise ValueError(f"not a file name pnp writes: {name!r}")  # a bug, not bad input
    with _Tree(target, create=True) as tree:
        folder_name, _, base = name.rpartition("/")
        folder = tree.folder(folder_name)
        tmp = _write_tmp(target / name, data, folder)
        try:
            os.replace(tmp.name, base, src_dir_fd=folder, dst_dir_fd=folder)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp.name, dir_fd=folder)
            raise _fail(target / name, exc, "write") from None
    return target / name


def publish_more(target: Path, files: Mapping[str, bytes | str]) -> Published:
    """Add or replace some files of a design's output (e.g. `pnp rules`), keeping the rest and the
    manifest's record of it."""
    before = previous_manifest(target)
    by_paper = before.get("by_paper") if isinstance(before.get("by_paper"), dict) else {}
    by_paper = {str(p): [f for f in v if isinstance(f, str)] for p, v in by_paper.items() if isinstance(v, list)}  # type: ignore[union-attr]
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
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(self.out / LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | _CLOEXEC,
                               0o666)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise OutputError(f"{display_path(self.out / LOCK)}: is a symbolic link; pnp never writes through a "
                                  "link; expected pnp's lock file, or nothing there (remove the link)") from None
            raise _fail(self.out, exc, "use the output folder") from None
        if not stat.S_ISREG(os.fstat(self._fd).st_mode):
            os.close(self._fd)
            self._fd = None
            raise OutputError(f"{display_path(self.out / LOCK)}: is not a regular file; expected pnp's lock file, or "
                              "nothing there (remove it)")
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
