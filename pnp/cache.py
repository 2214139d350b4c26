"""A content-addressed cache: what was made from the same inputs is not made again.

Every expensive product of the build — a face's SVG, its PNG, a sheets PDF, a rulebook —
is stored under the SHA-256 of everything it is made from. The cache lives in memory (for
`pnp watch`, which keeps one across rebuilds) and on disk under `<out>/.cache/` or
`$PNP_CACHE_DIR` (for the next `pnp build`, in another process). Counters record hits and
misses per kind, so tests can prove by counting, not by timing, what was rebuilt.

The disk cache holds **data, never code**: an entry is a one-line header followed by the
payload bytes, and only bytes, text, JSON values and {name: bytes or text} maps can be
stored. Nothing read back is unpickled or evaluated. The header names the entry's format
version, kind, key, payload type, length and SHA-256, and is signed: an HMAC-SHA256 under a
secret of the user's that the cache does not hold (`secret()`: `$PNP_CACHE_KEY`, else a
random key made on first use in `$XDG_CONFIG_HOME/pnp/cache-key` or `~/.config/pnp/cache-key`,
mode 0600). So whoever can write the cache (a shared `$PNP_CACHE_DIR`, a zipped project with
its `output/.cache`) cannot make an entry pnp serves: an entry whose signature, header or
payload does not match what was asked for (corrupted, truncated, swapped with another,
written by another version, edited and its checksum recomputed) is a miss: it is deleted and
made again, never served.

Kinds of many small entries (PACKED: a face's SVG, its PNG) are kept in a few pack files of such
entries, one after the other, not a file each (making a file can cost more than painting a card).

The cache's folder and its kind folders are never links (a link there is refused when the
cache is opened, `CacheError`); every entry is opened from its kind folder's descriptor with
`O_NOFOLLOW`, so nothing is read or written through a link even if one appears later.

Objects that are not data (a parsed drawing) live only in memory, per process
(`Cache.memo`).

Keys include a hash of pnp's own source code: after any change to a generator, a renderer
or pnp itself, nothing made by the old code is reused.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import functools
import hashlib
import hmac
import json
import os
import re
import stat
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp import __version__
from pnp.errors import PnpError, display_path, warn
from pnp.spooled import CHUNK, SpooledFile

CACHE_DIR = ".cache"
# 1 was pickle (pnp <= 0.1.0 before issue 12); 2 had a checksum anyone could recompute (before issue 29): such
# entries are misses
FORMAT = 3
_MAGIC = b"pnp-cache "
_MAC = 64  # the header's HMAC-SHA256, in hex, after the magic
_MAX_HEADER = 1 << 16
KEY_ENV = "PNP_CACHE_KEY"
_KEY_MIN = 32  # characters of a key


class CacheError(PnpError):
    """The cache's folder cannot be used as it is (a link where a folder of pnp's should be)."""


# the libraries whose output lands in ours: a new release of one may change the bytes, so it
# invalidates the cache (and tests/test_golden_output.py notices the change)
OUTPUT_LIBRARIES = ("reportlab", "pillow", "lxml", "jinja2", "pypdfium2", "zlib-ng", "markdown-it-py", "mdit-py-plugins")


def library_versions() -> dict[str, str]:
    """{library: version} from the installed distributions' folder names (importlib.metadata is 10x slower)."""
    wanted = set(OUTPUT_LIBRARIES)
    out = dict.fromkeys(OUTPUT_LIBRARIES, "-")
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            m = re.match(r"^([A-Za-z0-9_.]+)-([^-]+)\.dist-info$", name)
            if m:
                key = m.group(1).lower().replace("_", "-").replace(".", "-")
                if key in wanted and out[key] == "-":
                    out[key] = m.group(2)
    return out


@functools.cache
def code_fingerprint() -> bytes:
    """A hash of pnp's own source and of the versions of the libraries that draw our output: after a
    change to any generator or renderer, or an upgrade of ReportLab, nothing stale is reused."""
    root = Path(__file__).resolve().parent
    h = hashlib.sha256(__version__.encode())
    h.update(json.dumps(library_versions(), sort_keys=True).encode())
    # the code, then the data it reads as code: the games' words (pnp.rulebook.glossary), pnp's own (pnp.words)
    for path in [*sorted(root.rglob("*.py")), *sorted(root.rglob("glossary.yaml")),
                 *sorted((root / "words").glob("*.yaml"))]:
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    fonts = root / "fonts"  # the shipped fonts (made with their coverage.json by make_subset.py): names, sizes
    for path in sorted(fonts.glob("*.ttf")):
        h.update(f"{path.name}\0{path.stat().st_size}".encode())
    if (fonts / "coverage.json").is_file():
        h.update((fonts / "coverage.json").read_bytes())
    return h.digest()


class NotData(TypeError):
    """A value the disk cache cannot hold (only bytes, str, JSON values and {str: bytes | str})."""


def _cache_key_path() -> Path | None:
    """Where the user's cache key lives: $XDG_CONFIG_HOME/pnp/cache-key, else ~/.config/pnp/cache-key."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    if not os.path.isabs(base):  # (unset, or relative: ignored, as the XDG specification says)
        try:
            base = os.fspath(Path.home() / ".config")
        except RuntimeError:  # (no home folder)
            return None
    return Path(base) / "pnp" / "cache-key"


def key_file() -> Path | None:
    """The file that holds the cache key when $PNP_CACHE_KEY is not set (None: no home folder)."""
    return _cache_key_path()


@functools.cache
def secret() -> bytes | None:
    """The key that signs this user's cache entries: $PNP_CACHE_KEY (a secret CI jobs that share a cache share),
    else the key file, made on first use (random, mode 0600, never through a link). None, and a warning, when there
    is none to be had: the disk cache is then not used (a build only makes everything again)."""
    unused = "the disk cache is not used (every build makes everything again)"
    given = os.environ.get(KEY_ENV)
    if given:
        if len(given) < _KEY_MIN:
            warn(f"${KEY_ENV}", None, f"is {len(given)} characters long; {unused}; expected a secret of at least "
                 f"{_KEY_MIN} characters")
            return None
        return given.encode("utf-8")
    path = _cache_key_path()
    if path is None:
        warn("~/.config/pnp/cache-key", None, f"cannot be found or made (no home folder); {unused}; expected a home "
             f"folder, or ${KEY_ENV}")
        return None
    key, problem = _key_from(path)
    if problem:
        wrong, expected = problem
        warn(path, None, f"{wrong}; {unused}; {expected}")
    return key


def _key_from(path: Path) -> tuple[bytes | None, tuple[str, str] | None]:
    """(the key in `path`, made there first if it is missing; or None and (what is wrong, what is expected))."""
    writable = f"expected a folder of yours that can be written, or ${KEY_ENV}"
    try:
        os.makedirs(path.parent, mode=0o700, exist_ok=True)
    except OSError as exc:
        return None, (f"cannot be made ({exc.strerror})", writable)
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    again = "delete it: a new key is made"
    for _ in range(100):
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            try:  # made here, whole, by one write (another process reading it meanwhile waits for it below)
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0),
                             0o600)
            except FileExistsError:
                continue  # (made by another pnp at the same moment: read next time round)
            except OSError as exc:
                return None, (f"cannot be made ({exc.strerror})", writable)
            try:
                os.write(fd, os.urandom(32).hex().encode("ascii") + b"\n")
            finally:
                os.close(fd)
            continue
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return None, ("is a symbolic link", "expected the key file itself (delete the link: a new key is made)")
            return None, (f"cannot be read ({exc.strerror})", "expected a file of yours only you can read")
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                return None, ("is not a regular file", f"expected the key file ({again})")
            if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
                return None, ("belongs to another user", f"expected a file of yours ({again})")
            if st.st_mode & 0o077:
                return None, (f"can be read or written by other users (mode {stat.S_IMODE(st.st_mode):o})",
                              f"expected mode 600 (`chmod 600` it, or {again})")
            raw = os.read(fd, 4096).strip()
        finally:
            os.close(fd)
        if len(raw) >= _KEY_MIN:
            return raw, None
        time.sleep(0.01)  # (being written by another pnp)
    return None, ("holds no key", f"expected at least {_KEY_MIN} characters ({again})")


def _sign(key: bytes, header: bytes) -> bytes:
    return hmac.digest(key, header, "sha256").hex().encode("ascii")


def encode(kind: str, key: str, value: Any, signing: bytes | None = None) -> bytes:
    """One cache entry: a signed header line, then the payload (`signing`: the key; by default `secret()`)."""
    signing = signing or secret()
    if signing is None:
        raise CacheError("no cache key to sign entries with")  # (Cache does not write then)
    parts: list[bytes] = []
    files = None
    if isinstance(value, bytes):
        vtype, payload = "bytes", value
    elif isinstance(value, str):
        vtype, payload = "str", value.encode("utf-8")
    elif isinstance(value, dict) and value and all(isinstance(k, str) and isinstance(v, (bytes, str))
                                                   for k, v in value.items()):
        vtype, files = "files", []
        for name, data in value.items():
            raw = data if isinstance(data, bytes) else data.encode("utf-8")
            files.append([name, "bytes" if isinstance(data, bytes) else "str", len(raw)])
            parts.append(raw)
        payload = b"".join(parts)
    else:
        try:
            payload = json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False).encode("utf-8")
        except (TypeError, ValueError) as exc:
            raise NotData(f"cache kind {kind!r} cannot store {type(value).__name__}: {exc}") from None
        vtype = "json"
    header = {"format": FORMAT, "version": __version__, "kind": kind, "key": key, "type": vtype,
              "size": len(payload), "sha256": hashlib.sha256(payload).hexdigest()}
    if files is not None:
        header["files"] = files
    line = json.dumps(header, sort_keys=True).encode("ascii")
    return _MAGIC + _sign(signing, line) + b" " + line + b"\n" + payload


def file_head(kind: str, key: str, value: Any, signing: bytes) -> bytes:
    """The signed header line of an entry whose payload is a file read in chunks (pnp.spooled.SpooledFile: a
    sheets PDF of card art), its size and hash taken by reading it once; the payload follows it on disk."""
    digest, size = hashlib.sha256(), 0
    for chunk in value.chunks():
        digest.update(chunk)
        size += len(chunk)
    header = {"format": FORMAT, "version": __version__, "kind": kind, "key": key, "type": "file", "size": size,
              "sha256": digest.hexdigest()}
    line = json.dumps(header, sort_keys=True).encode("ascii")
    return _MAGIC + _sign(signing, line) + b" " + line + b"\n"


def _header(kind: str, key: str, raw: bytes, signing: bytes | None) -> tuple[dict, int] | None:
    """(the header of an entry, where its payload starts) if the header is signed by `signing` and names exactly
    (kind, key) in this format and version; else None. `raw` may hold the entry's start only."""
    start = len(_MAGIC) + _MAC + 1
    if signing is None or not raw.startswith(_MAGIC) or raw[start - 1:start] != b" ":
        return None
    end = raw.find(b"\n", start, start + _MAX_HEADER)
    if end < 0:
        return None
    line = raw[start:end]
    if not hmac.compare_digest(raw[len(_MAGIC):start - 1], _sign(signing, line)):
        return None  # not written by this user's pnp: forged, damaged, or signed with another key
    try:
        header = json.loads(line.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("kind") != kind \
            or header.get("key") != key or header.get("version") != __version__ or not isinstance(header.get("size"), int):
        return None
    return header, end + 1


def _value(header: dict, payload: bytes) -> Any | None:
    """The value of a payload that its (signed) header describes exactly, else None."""
    if header["size"] != len(payload) or header.get("sha256") != hashlib.sha256(payload).hexdigest():
        return None
    vtype = header.get("type")
    try:
        if vtype == "bytes":
            return payload
        if vtype == "str":
            return payload.decode("utf-8")
        if vtype == "json":
            return json.loads(payload.decode("utf-8"))
        if vtype == "files":
            out: dict[str, bytes | str] = {}
            pos = 0
            for name, ftype, size in header["files"]:
                chunk = payload[pos:pos + size]
                pos += size
                out[str(name)] = chunk if ftype == "bytes" else chunk.decode("utf-8")
            return out if pos == len(payload) else None
    except (UnicodeDecodeError, ValueError, TypeError, KeyError):
        return None
    return None


def _file_value(header: dict, start: bytes, fh) -> Any | None:
    """A "file" entry's payload (`start`, then the rest of `fh`) copied into a SpooledFile while its hash is
    checked; None when it is not what its signed header says."""
    out = SpooledFile()
    digest, size = hashlib.sha256(start), len(start)
    out.file.write(start)
    while chunk := fh.read(CHUNK):
        digest.update(chunk)
        size += len(chunk)
        out.file.write(chunk)
    out.file.flush()
    if size != header["size"] or digest.hexdigest() != header.get("sha256"):
        out.close()
        return None
    return out


def decode(kind: str, key: str, raw: bytes, signing: bytes | None = None) -> Any | None:
    """The value of an entry if it is exactly what (kind, key) names and signed with `signing` (by default
    `secret()`), else None."""
    found = _header(kind, key, raw, signing or secret())
    return None if found is None else _value(found[0], raw[found[1]:])


_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def _refuse_links(root: Path) -> None:
    """CacheError if the cache's folder, or a folder in it, is a symbolic link (planted in a shared cache or a
    zipped output: pnp would write through it); nothing is made."""
    try:
        st = os.lstat(root)
    except OSError:
        return
    if stat.S_ISLNK(st.st_mode):
        raise CacheError(f"{display_path(root)}: is a symbolic link; pnp never writes or deletes through a link; "
                         "expected a plain folder (remove the link: the cache is made again; or set PNP_CACHE_DIR "
                         "to the folder it names)")
    if not stat.S_ISDIR(st.st_mode):
        return  # (a file there: the cache cannot be written, and a build is only slower)
    with contextlib.suppress(OSError), os.scandir(root) as entries:
        for entry in entries:
            if entry.is_symlink():
                raise CacheError(f"{display_path(root / entry.name)}: is a symbolic link; pnp never writes or "
                                 "deletes through a link; expected a plain folder (remove it: the cache is made "
                                 "again)")


class _Disk:
    """A cache folder on disk: it and its kind folders opened once (by the first process that needs them; forked
    ones inherit them), each from the one above it and never through a link; every entry is read, written and
    removed from its kind folder's descriptor."""

    def __init__(self, root: Path):
        self.root = root
        self._root: int | None = None
        self._kinds: dict[str, int] = {}
        self._packs: dict[str, _Packs] = {}  # packed kind -> its packs as this process knows them

    def _open_root(self, create: bool) -> int | None:
        """The cache's folder: its parent along the path given (made when missing and `create`), then the folder
        itself, never through a link."""
        if self._root is None:
            plain = self.root.name not in ("", ".", "..")  # (else a name that cannot be a link: opened as it is)
            try:
                parent = self.root.parent if plain else self.root
                if create:
                    os.makedirs(parent, exist_ok=True)
                up = os.open(parent, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
                try:
                    fd = _open_dir(up, self.root.name, create) if plain else os.dup(up)
                finally:
                    os.close(up)
            except OSError:
                return None
            if fd is not None and self._root is None:
                self._root = fd
            elif fd is not None:
                os.close(fd)
        return self._root

    def kind(self, kind: str, create: bool) -> int | None:
        """The open folder of `kind` (made when missing and `create`), or None (missing, a link, unwritable)."""
        fd = self._kinds.get(kind)
        if fd is None:  # (no lock: two threads opening it at once keep one; a lock held across a fork would hang)
            root = self._open_root(create)
            if root is None:
                return None
            try:
                fd = _open_dir(root, kind, create)
            except OSError:
                return None
            if fd is None:
                return None
            kept = self._kinds.setdefault(kind, fd)
            if kept != fd:
                os.close(fd)
            fd = kept
        return fd

    def reset(self) -> None:
        """Forget the open folders (removed meanwhile: `rm -rf output` under `pnp watch`); opened again when used."""
        for packs in self._packs.values():
            packs.close()
        self._packs.clear()
        fds = [*self._kinds.values(), *([self._root] if self._root is not None else [])]
        self._kinds.clear()
        self._root = None
        for fd in fds:
            with contextlib.suppress(OSError):
                os.close(fd)

    def packs(self, kind: str, create: bool) -> _Packs | None:
        """The packs of a packed kind (scanned on first use in this process), or None (no folder)."""
        packs = self._packs.get(kind)
        if packs is None:
            folder = self.kind(kind, create)
            if folder is None:
                return None
            packs = self._packs[kind] = _Packs(kind, folder)
        return packs

    def finish_packs(self) -> None:
        """The end of a build: this process's packs are complete (each build writes its own), the packs of a
        kind that has too many are merged into one, and they are read again by the next build."""
        for packs in self._packs.values():
            packs.finish()
            packs.close()
        self._packs.clear()  # (the next build reads the packs as they are then: another may have added or merged)

    def read(self, kind: str, key: str, signing: bytes) -> tuple[Any | None, bool]:
        """(the value of the entry, whether a file was there that is not a valid entry: removed)."""
        if kind in PACKED:
            packs = self.packs(kind, False)
            return (None, False) if packs is None else packs.read(key, signing)
        folder = self.kind(kind, False)
        if folder is None:
            return None, False
        try:
            fd = os.open(key, _READ, dir_fd=folder)
        except FileNotFoundError:
            return None, False
        except OSError:  # a link or a folder where an entry should be
            self._remove(folder, key)
            return None, True
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):  # a FIFO, a device...
                value = None
            else:
                with os.fdopen(os.dup(fd), "rb") as fh:
                    head = fh.read(len(_MAGIC) + _MAC + 1 + _MAX_HEADER)
                    found = _header(kind, key, head, signing)
                    value = None
                    if found is not None and found[1] + found[0]["size"] == st.st_size:  # (read only what it signed)
                        if found[0].get("type") == "file":  # copied out while checked: never all in memory
                            value = _file_value(found[0], head[found[1]:], fh)
                        else:
                            raw = head + fh.read(st.st_size - len(head)) if len(head) < st.st_size else head
                            value = _value(found[0], raw[found[1]:])
        except OSError:
            value = None
        finally:
            os.close(fd)
        if value is None:
            self._remove(folder, key)
            return None, True
        return value, False

    @staticmethod
    def _remove(folder: int, key: str) -> None:
        with contextlib.suppress(OSError):
            if not stat.S_ISDIR(os.stat(key, dir_fd=folder, follow_symlinks=False).st_mode):
                os.unlink(key, dir_fd=folder)

    def write(self, kind: str, key: str, raw: bytes, more=None) -> None:
        """One entry, atomically (a temporary file renamed over it); a cache that cannot be written is only slower.
        `more`: the rest of the entry, in chunks (a file's payload after its header `raw`)."""
        for attempt in range(2):
            folder = self.kind(kind, True)
            if folder is None:
                return
            tmp = f".tmp.{os.getpid()}.{threading.get_ident()}.{key}"
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0),
                             0o644, dir_fd=folder)
            except FileNotFoundError:  # (its folder removed meanwhile: opened again, once)
                if attempt:
                    return
                self.reset()
                continue
            except OSError:
                return
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(raw)
                    for chunk in more or ():
                        fh.write(chunk)
                os.replace(tmp, key, src_dir_fd=folder, dst_dir_fd=folder)
            except OSError:
                with contextlib.suppress(OSError):
                    os.unlink(tmp, dir_fd=folder)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp, dir_fd=folder)
                raise
            return


PACKED = frozenset({"svg", "raster"})
"""Kinds of many small entries (a face's SVG, its PNG): kept in a few pack files, not a file each, since making a
file costs far more than writing its bytes on some file systems (up to 0.7 ms a file here, against 0.1 ms to paint a
card's SVG): a build writes the entries it makes to one pack of its own, appended as they come."""
_PACK = "pack."  # <kind>/pack.<pid>.<ns>.<random>: a pack's name
_PACKS_MAX = 8  # packs of a kind from which the end of a build merges them into one
_PACK_HEAD = 1024  # bytes read at an entry's start to find its header line (longer headers are read whole)


class _Packs:
    """The pack files of one packed kind: entries in the usual format (signed header line, payload), one after the
    other. Which key is where is found by reading each pack's headers once (not checked then: only key and size);
    an entry is checked when it is read, as a file entry is. A pack cut short (a build stopped while writing it)
    ends at its last whole entry. Nothing is removed from a pack: an entry that does not verify is a miss, made
    again into this build's pack, and a merge leaves it out."""

    _KEY = re.compile(rb'"key": "([^"]{1,200})"')
    _SIZE = re.compile(rb'"size": (\d{1,15})[,}]')

    def __init__(self, kind: str, folder: int):
        self.kind, self.folder = kind, folder
        self.where: dict[str, tuple[str, int, int]] = {}  # key -> (pack, offset, length), the latest one
        self.fds: dict[str, int] = {}  # pack -> its open descriptor (this process's own pack's too)
        self.names: list[str] = []  # the packs found (and this process's own)
        self.own: tuple[int, str, int] | None = None  # (pid, pack, size) of the pack the process `pid` appends to
        self.bad = False  # whether an entry read did not verify (the end of the build then merges the packs)
        found: list[str] = []
        with contextlib.suppress(OSError), os.scandir(folder) as entries:
            for e in entries:
                if not e.name.startswith(_PACK):
                    continue
                if e.is_file(follow_symlinks=False):
                    found.append(e.name)
                elif not e.is_dir(follow_symlinks=False):  # a link or a FIFO planted as a pack: never read, removed
                    with contextlib.suppress(OSError):
                        os.unlink(e.name, dir_fd=folder)
        for name in sorted(found):
            self._scan(name)

    def _open(self, name: str) -> int | None:
        fd = self.fds.get(name)
        if fd is None:
            try:
                fd = os.open(name, _READ, dir_fd=self.folder)
            except OSError:
                return None
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                return None
            self.fds[name] = fd
        return fd

    def _scan(self, name: str) -> None:
        fd = self._open(name)
        if fd is None:
            return
        self.names.append(name)
        try:
            end = os.fstat(fd).st_size
            pos = 0
            while pos < end:
                head = os.pread(fd, _PACK_HEAD, pos)
                nl = head.find(b"\n")
                if nl < 0 and len(head) == _PACK_HEAD:
                    head = os.pread(fd, len(_MAGIC) + _MAC + 1 + _MAX_HEADER, pos)
                    nl = head.find(b"\n")
                key, size = self._KEY.search(head, 0, nl), self._SIZE.search(head, 0, nl)
                if nl < 0 or not head.startswith(_MAGIC) or key is None or size is None:
                    return  # (the end of what was written whole)
                length = nl + 1 + int(size.group(1))
                if pos + length > end:
                    return
                self.where[key.group(1).decode("ascii", "replace")] = (name, pos, length)
                pos += length
        except OSError:
            return

    def read(self, key: str, signing: bytes) -> tuple[Any | None, bool]:
        found = self.where.get(key)
        if found is None:
            return None, False
        name, offset, length = found
        fd = self._open(name)
        try:
            raw = os.pread(fd, length, offset) if fd is not None else b""
        except OSError:
            raw = b""
        value = decode(self.kind, key, raw, signing) if len(raw) == length else None
        if value is None:
            del self.where[key]
            self.bad = True
            return None, True
        return value, False

    def append(self, key: str, raw: bytes) -> None:
        """Add an entry to this process's pack (made on its first entry; a forked process makes its own)."""
        pid = os.getpid()
        if self.own is None or self.own[0] != pid:  # (another's: inherited from the process that forked this one)
            name = f"{_PACK}{pid}.{time.time_ns()}.{os.urandom(4).hex()}"
            try:
                self.fds[name] = os.open(name, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_NOFOLLOW
                                         | getattr(os, "O_CLOEXEC", 0), 0o644, dir_fd=self.folder)
            except OSError:
                return  # (a cache that cannot be written is only slower)
            self.own = (pid, name, 0)
            self.names.append(name)
        _, name, size = self.own
        try:
            view = memoryview(raw)
            while view:
                view = view[os.write(self.fds[name], view):]
        except OSError:
            return
        self.where[key] = (name, size, len(raw))
        self.own = (pid, name, size + len(raw))

    def finish(self) -> None:
        """This process's pack is complete (the next build writes another); too many packs are merged."""
        wrote = self.own is not None and self.own[0] == os.getpid()
        self.own = None
        if (len(self.names) >= _PACKS_MAX and wrote) or self.bad:  # (a bad entry: left out of the merged pack)
            self._merge()

    def _merge(self) -> None:
        """Every entry of the packs known here (the latest of each key that verifies) into one new pack; the
        others removed. An entry another build appends meanwhile to one of them is lost: a miss, made again."""
        signing = secret()
        if signing is None:
            return
        old, where = list(self.names), dict(self.where)
        self.names, self.where = [], {}
        for key, (name, offset, length) in sorted(where.items(), key=lambda kv: (kv[1][0], kv[1][1])):
            fd = self._open(name)
            try:
                raw = os.pread(fd, length, offset) if fd is not None else b""
            except OSError:
                continue
            if len(raw) == length and decode(self.kind, key, raw, signing) is not None:  # (as `read` checks it)
                self.append(key, raw)
        self.own = None  # (the merged pack, complete)
        for name in old:
            with contextlib.suppress(OSError):
                os.unlink(name, dir_fd=self.folder)

    def close(self) -> None:
        self.own = None
        for fd in self.fds.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self.fds.clear()


def stored_keys(root: Path, kind: str) -> list[str]:
    """The keys of the entries of `kind` in the cache folder `root` as a new process finds them (not checked):
    the packs' entries for a packed kind, else the kind folder's files."""
    folder = Path(root) / kind
    if kind not in PACKED:
        return sorted(p.name for p in folder.iterdir() if p.is_file() and not p.name.startswith(".tmp")) \
            if folder.is_dir() else []
    try:
        fd = os.open(folder, _DIR)
    except OSError:
        return []
    packs = _Packs(kind, fd)
    try:
        return sorted(packs.where)
    finally:
        packs.close()
        os.close(fd)


def _open_dir(parent: int, name: str, create: bool) -> int | None:
    """The folder `name` of the open folder `parent`, never through a link (made when missing and `create`; another
    process making it at the same moment is fine); None when missing. OSError for a link or a file there."""
    for _ in range(8):
        try:
            return os.open(name, _DIR, dir_fd=parent)
        except FileNotFoundError:
            if not create:
                return None
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, 0o777, dir_fd=parent)
    return None


_DISKS: dict[str, _Disk] = {}  # cache folder -> its open folders, shared by every Cache of the process on it
_OPEN_DISKS = 16  # folders kept open at most (a test session makes thousands of caches): the oldest is closed


def _disk(root: str) -> _Disk:
    disk = _DISKS.get(root)
    if disk is None:
        while len(_DISKS) >= _OPEN_DISKS:  # (a Cache names its folder, not a _Disk: it opens it again if it must)
            _DISKS.pop(next(iter(_DISKS))).reset()
        disk = _DISKS[root] = _Disk(Path(root))
    return disk


# Disk writes are handed, in batches, to short-lived forked writer processes: creating 500 small files costs as
# much as drawing the faces on some file systems (overlay, network), and the build need not wait for them. A
# process (not a thread) runs beside the build on another core without taking the interpreter lock from it: a
# writer thread slowed the sheets stage it overlapped. A batch starts when `Cache.put_many` has stored a stage's
# products, or when enough is queued; until its writer has finished, a read of one of its entries is served from
# the bytes kept here, so every Cache of the process sees what any of them put, as with direct writes.
# `Cache.flush()` and the end of the process wait for all of them. A pnp worker process, or a system without
# fork, writes in place.
_Entry = tuple[str, str, str]  # (cache folder, kind, key)
_BATCH = 512  # entries queued before a writer starts without being asked
_HELD = 64 << 20  # bytes of pending entries before the build waits for the oldest writer (memory stays bounded)
_IN_PLACE = 16  # fewer queued entries are written in place (cheaper than a fork)


def _write(entry: _Entry, raw: bytes) -> None:
    root, kind, key = entry
    _disk(root).write(kind, key, raw)


class CacheWriter:
    """The disk writes of one build context: the entries put and not yet known to be on disk, those not yet handed
    to a writer process, and the writer processes not yet reaped; they belong to the process that made the first
    write (a forked child's inherited copies are not its own)."""

    def __init__(self) -> None:
        self.pending: dict[_Entry, bytes] = {}  # entries put in this process and not yet known to be on disk
        self.queue: dict[_Entry, None] = {}  # ... of which not yet handed to a writer, in order
        self.held_bytes = 0  # their size
        self.writers: list[tuple[int, list[_Entry]]] = []  # (pid, its entries) of the writers not yet reaped
        self.owner = 0  # the process these belong to
        self._flush_at_exit = False

    def owned_here(self) -> bool:
        """Whether this process's writes go through writer processes (else in place: a pnp worker, no fork);
        forgets the state inherited from the process that forked this one."""
        pid = os.getpid()
        if self.owner != pid:
            from pnp.parallel import in_worker  # lazy: 11 ms (pnp.parallel)

            if in_worker() or not hasattr(os, "fork"):
                return False
            if self.owner:  # inherited from the process that forked this one: not ours to write or wait for
                self.pending.clear()
                self.queue.clear()
                self.writers.clear()
                self.held_bytes = 0
            if not self._flush_at_exit:
                atexit.register(self.flush)
                self._flush_at_exit = True
            self.owner = pid
        return True

    def pending_here(self, entry: _Entry) -> bytes | None:
        return self.pending.get(entry) if self.owner == os.getpid() else None

    def put(self, entry: _Entry, raw: bytes, start: bool) -> None:
        if not self.owned_here():  # a pnp worker process: the parent's writers are not its own
            _write(entry, raw)
            return
        self._hold(entry, raw)
        self._reap(block=False)
        if start or len(self.queue) >= _BATCH or self.held_bytes > _HELD:
            self._start_writer()
        while self.writers and self.held_bytes > _HELD:  # bounded: the bytes waiting to be written stay few
            self._reap_oldest()

    def _hold(self, entry: _Entry, raw: bytes) -> None:
        self._release(entry)
        self.pending[entry] = raw
        self.held_bytes += len(raw)
        self.queue[entry] = None

    def _release(self, entry: _Entry) -> None:
        raw = self.pending.pop(entry, None)
        if raw is not None:
            self.held_bytes -= len(raw)

    def _start_writer(self, in_place: bool = False) -> None:
        """Hand the queued entries to a new writer process, or write them here (`in_place`, or only a few)."""
        if not self.queue:
            return
        batch = list(self.queue)
        self.queue.clear()
        if in_place or len(batch) < _IN_PLACE:
            for entry in batch:
                _write(entry, self.pending[entry])
                self._release(entry)
            return
        items = [(entry, self.pending[entry]) for entry in batch]
        pid = os.fork()
        if pid == 0:  # the writer: writes, then leaves at once (no atexit handlers, no buffered output of the parent)
            try:
                for entry, raw in items:
                    _write(entry, raw)
            finally:
                os._exit(0)
        self.writers.append((pid, batch))

    def _reap(self, block: bool) -> None:
        """Forget the entries of writers that have finished (with `block`: wait for all of them)."""
        while self.writers:
            pid, batch = self.writers[0]
            try:
                done, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
            except ChildProcessError:  # reaped by someone else: it has finished
                done = pid
            if not done:
                return
            self.writers.pop(0)
            for entry in batch:
                if entry not in self.queue:  # not put again since
                    self._release(entry)

    def _reap_oldest(self) -> None:
        try:
            os.waitpid(self.writers[0][0], 0)
        except ChildProcessError:
            pass
        self._reap(block=False)  # the oldest is reaped now (ChildProcessError there), and any other that has finished

    def flush(self) -> None:
        """Wait until every entry put is on disk (what is still queued is written here)."""
        if self.owner == os.getpid():
            self._start_writer(in_place=True)  # (waited for anyway: no writer process to start)
            self._reap(block=True)

    def close(self) -> None:
        """`flush`, and forget the exit handler (the end of its build context: a test session makes thousands)."""
        self.flush()
        if self._flush_at_exit and self.owner == os.getpid():
            atexit.unregister(self.flush)
            self._flush_at_exit = False


def _writer() -> CacheWriter:
    from pnp.context import current  # lazy: cycle pnp.cache -> pnp.context -> pnp.cache

    return current().writer


class Cache:
    """Memory and (optionally) disk store of data products, by kind and key."""

    def __init__(self, root: Path | None = None, memory: bool = True):
        """`root`: the folder on disk (its entries under <root>/<kind>/<key>: one folder per kind, since a folder
        per key prefix cost a mkdir per entry); CacheError if it, or a folder in it, is a link."""
        self.root = Path(root) if root else None
        self._memory: dict[tuple[str, str], Any] | None = {} if memory else None
        self.stats: Counter[str] = Counter()
        self._disk: str | None = None  # the folder, as _DISKS knows it
        if self.root is not None:
            _refuse_links(self.root)
            self._disk = os.fspath(self.root)

    def get(self, kind: str, key: str) -> Any | None:
        if self._memory is not None and (kind, key) in self._memory:
            self.stats[f"{kind}.hit"] += 1
            return self._memory[(kind, key)]
        if self._disk is not None:
            value = self._read(kind, key)
            if value is not None:
                if self._memory is not None and not hasattr(value, "chunks"):
                    self._memory[(kind, key)] = value
                self.stats[f"{kind}.hit"] += 1
                return value
        self.stats[f"{kind}.miss"] += 1
        return None

    def _read(self, kind: str, key: str) -> Any | None:
        assert self._disk is not None
        signing = secret()
        if signing is None:  # (no key: the disk cache is not used)
            return None
        pending = _writer().pending_here((self._disk, kind, key))
        if pending is not None:  # put by this process (any Cache on this folder), maybe not written yet
            return decode(kind, key, pending, signing)
        value, bad = _disk(self._disk).read(kind, key, signing)
        if bad:  # forged, corrupted, truncated, swapped, foreign or older: never served, removed, made again
            self.stats[f"{kind}.bad"] += 1
        return value

    def put(self, kind: str, key: str, value: Any, start: bool = False) -> None:
        """Store `value` (in memory now; on disk soon, by a writer process). `start`: start writing what is
        queued now (the end of a stage)."""
        streamed = hasattr(value, "chunks")  # a file too big to hold (pnp.spooled.SpooledFile): on disk only, so
        if self._memory is not None and not streamed:  # that a pnp watch of art keeps no temporary file per rebuild
            self._memory[(kind, key)] = value
        if self._disk is None:
            return
        signing = secret()
        if signing is None:  # (no key: the disk cache is not used)
            return
        if streamed:  # a file too big to hold (pnp.spooled.SpooledFile): streamed in, here and now
            _disk(self._disk).write(kind, key, file_head(kind, key, value, signing), value.chunks())
            return
        raw = encode(kind, key, value, signing)
        if kind in PACKED:  # appended to this process's pack now (no file to make, nothing to hand to a writer)
            packs = _disk(self._disk).packs(kind, True)
            if packs is not None:
                packs.append(key, raw)
            return
        _writer().put((self._disk, kind, key), raw, start)

    def remember(self, kind: str, key: str, value: Any) -> None:
        """Keep `value` in memory only: what a worker process has put on disk itself."""
        if self._memory is not None:
            self._memory[(kind, key)] = value

    def put_many(self, kind: str, items: list[tuple[str, Any]]) -> None:
        """`put` each (key, value), then start writing them (one stage's products)."""
        for i, (key, value) in enumerate(items):
            self.put(kind, key, value, start=i == len(items) - 1)

    def flush(self) -> None:
        """Wait until every entry given to `put` is on disk (or given up: a cache that cannot be written is
        only slower)."""
        _writer().flush()
        if self._disk is not None and self._disk in _DISKS:
            _DISKS[self._disk].finish_packs()

    def cached(self, kind: str, key: str, make: Callable[[], Any]) -> Any:
        """The product under (kind, key), made by `make()` and stored if it is not there yet."""
        value = self.get(kind, key)
        if value is None:
            value = make()
            self.put(kind, key, value)
        return value

    def memo(self, kind: str, key: str, make: Callable[[], Any]) -> Any:
        """Like `cached`, for objects that are not data (parsed drawings): kept in this process only."""
        if self._memory is None:
            self.stats[f"{kind}.miss"] += 1
            return make()
        if (kind, key) in self._memory:
            self.stats[f"{kind}.hit"] += 1
            return self._memory[(kind, key)]
        self.stats[f"{kind}.miss"] += 1
        value = self._memory[(kind, key)] = make()
        return value

    @property
    def remembers(self) -> bool:
        """Whether this cache keeps anything in memory (a cache that keeps nothing memoises without a key)."""
        return self._memory is not None

    def made(self, kind: str) -> int:
        """How many products of this kind were made (cache misses) since the counters were reset."""
        return self.stats[f"{kind}.miss"]

    def reset_stats(self) -> None:
        self.stats.clear()


NO_CACHE = Cache(root=None, memory=False)


def default_cache(out: Path) -> Cache:
    """The cache of builds into `out`: <out>/.cache, or $PNP_CACHE_DIR (one cache shared by CI jobs or tests)."""
    return Cache(Path(os.environ.get("PNP_CACHE_DIR") or Path(out) / CACHE_DIR))
