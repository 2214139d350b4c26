"""A content-addressed cache: what was made from the same inputs is not made again.

Every expensive product of the build — a face's SVG, its PNG, a sheets PDF, a rulebook —
is stored under the SHA-256 of everything it is made from. The cache lives in memory (for
`pnp watch`, which keeps one across rebuilds) and on disk under `<out>/.cache/` or
`$PNP_CACHE_DIR` (for the next `pnp build`, in another process). Counters record hits and
misses per kind, so tests can prove by counting, not by timing, what was rebuilt.

The disk cache holds **data, never code**: an entry is a one-line JSON header followed by
the payload bytes, and only bytes, text, JSON values and {name: bytes or text} maps can be
stored. Nothing read back is unpickled or evaluated. The header names the entry's format
version, kind, key, payload type, length and SHA-256; an entry whose header or payload does
not match what was asked for (corrupted, truncated, swapped with another, written by another
version or by someone else) is a miss: it is deleted and made again, never served.

Objects that are not data (a parsed drawing) live only in memory, per process
(`Cache.memo`).

Keys include a hash of pnp's own source code: after any change to a generator, a renderer
or pnp itself, nothing made by the old code is reused.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import json
import os
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp import __version__

CACHE_DIR = ".cache"
FORMAT = 2  # 1 was pickle (pnp <= 0.1.0 before issue 12): such entries are misses
_MAGIC = b"pnp-cache "
_MAX_HEADER = 1 << 16


# the libraries whose output lands in ours: a new release of one may change the bytes, so it
# invalidates the cache (and tests/test_golden_output.py notices the change)
OUTPUT_LIBRARIES = ("reportlab", "pillow", "lxml", "jinja2", "pypdfium2", "zlib-ng", "markdown-it-py", "mdit-py-plugins")


def library_versions() -> dict[str, str]:
    """{library: version} from the installed distributions' folder names (importlib.metadata is 10x slower)."""
    import re
    import sys

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
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    fonts = root / "fonts"  # the shipped fonts (made with their coverage.json by make_subset.py): names, sizes
    for path in sorted(fonts.glob("*.ttf")):
        h.update(f"{path.name}\0{path.stat().st_size}".encode())
    if (fonts / "coverage.json").is_file():
        h.update((fonts / "coverage.json").read_bytes())
    return h.digest()


def key_of(*parts: Any) -> str:
    """A stable hash of JSON-able parts (dicts sorted, bytes and str hashed as they are)."""
    return KeyBase(*parts).key()


class KeyBase:
    """The hash of key_of's first parts, made once for many keys that begin with them (a deck's faces):
    `KeyBase(*a).key(*b) == key_of(*a, *b)`."""

    def __init__(self, *parts: Any):
        self._hash = hashlib.sha256(code_fingerprint())
        _hash_parts(self._hash, parts)

    def key(self, *parts: Any) -> str:
        h = self._hash.copy()
        _hash_parts(h, parts)
        return h.hexdigest()


def _hash_parts(h: Any, parts: tuple) -> None:
    for part in parts:
        if isinstance(part, bytes):
            h.update(b"b" + hashlib.sha256(part).digest())
        elif isinstance(part, str):
            h.update(b"s" + hashlib.sha256(part.encode("utf-8")).digest())
        else:
            h.update(b"j" + json.dumps(part, sort_keys=True, default=str, ensure_ascii=False).encode("utf-8"))


class NotData(TypeError):
    """A value the disk cache cannot hold (only bytes, str, JSON values and {str: bytes | str})."""


def encode(kind: str, key: str, value: Any) -> bytes:
    """One cache entry: a JSON header line, then the payload."""
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
    return _MAGIC + json.dumps(header, sort_keys=True).encode("ascii") + b"\n" + payload


def decode(kind: str, key: str, raw: bytes) -> Any | None:
    """The value of an entry if it is exactly what (kind, key) names, else None."""
    if not raw.startswith(_MAGIC):
        return None
    end = raw.find(b"\n", 0, _MAX_HEADER)
    if end < 0:
        return None
    try:
        header = json.loads(raw[len(_MAGIC):end].decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("kind") != kind \
            or header.get("key") != key or header.get("version") != __version__:
        return None
    payload = raw[end + 1:]
    if header.get("size") != len(payload) or header.get("sha256") != hashlib.sha256(payload).hexdigest():
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


# Disk writes are handed, in batches, to short-lived forked writer processes: creating 500 small files costs as
# much as drawing the faces on some file systems (overlay, network), and the build need not wait for them. A
# process (not a thread) runs beside the build on another core without taking the interpreter lock from it: a
# writer thread slowed the sheets stage it overlapped. A batch starts when `Cache.put_many` has stored a stage's
# products, or when enough is queued; until its writer has finished, a read of one of its entries is served from
# the bytes kept here, so every Cache of the process sees what any of them put, as with direct writes.
# `Cache.flush()` and the end of the process wait for all of them. A pnp worker process, or a system without
# fork, writes in place.
_PENDING: dict[Path, bytes] = {}  # entries put in this process and not yet known to be on disk
_QUEUE: dict[Path, None] = {}  # ... of which not yet handed to a writer, in order
_HELD_BYTES = [0]  # their size
_WRITERS: list[tuple[int, list[Path]]] = []  # (pid, its entries) of the writers not yet reaped
_OWNER = [0]  # the process these lists belong to (a forked child's inherited copies are not its own)
_BATCH = 512  # entries queued before a writer starts without being asked
_HELD = 64 << 20  # bytes of pending entries before the build waits for the oldest writer (memory stays bounded)
_IN_PLACE = 16  # fewer queued entries are written in place (cheaper than a fork)


def _mine() -> bool:
    """Whether this process writes through writers (else in place); resets inherited state in a forked child."""
    pid = os.getpid()
    if _OWNER[0] != pid:
        from pnp.parallel import in_worker

        if in_worker() or not hasattr(os, "fork"):
            return False
        if _OWNER[0]:  # inherited from the process that forked this one: not ours to write or wait for
            _PENDING.clear()
            _QUEUE.clear()
            _WRITERS.clear()
            _HELD_BYTES[0] = 0
        else:
            atexit.register(_flush_all)
        _OWNER[0] = pid
    return True


def _write(path: Path, raw: bytes, dirs: set[Path]) -> None:
    """One entry, atomically (a temporary file renamed over it); a cache that cannot be written is only slower."""
    try:
        if path.parent not in dirs:
            path.parent.mkdir(parents=True, exist_ok=True)
            dirs.add(path.parent)
        tmp = path.with_name(f".tmp.{os.getpid()}.{threading.get_ident()}.{path.name}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _hold(path: Path, raw: bytes) -> None:
    _release(path)
    _PENDING[path] = raw
    _HELD_BYTES[0] += len(raw)
    _QUEUE[path] = None


def _release(path: Path) -> None:
    raw = _PENDING.pop(path, None)
    if raw is not None:
        _HELD_BYTES[0] -= len(raw)


def _start_writer(in_place: bool = False) -> None:
    """Hand the queued entries to a new writer process, or write them here (`in_place`, or only a few)."""
    if not _QUEUE:
        return
    batch = list(_QUEUE)
    _QUEUE.clear()
    if in_place or len(batch) < _IN_PLACE:
        dirs: set[Path] = set()
        for path in batch:
            _write(path, _PENDING[path], dirs)
            _release(path)
        return
    items = [(path, _PENDING[path]) for path in batch]
    pid = os.fork()
    if pid == 0:  # the writer: writes, then leaves at once (no atexit handlers, no buffered output of the parent)
        try:
            dirs = set()
            for path, raw in items:
                _write(path, raw, dirs)
        finally:
            os._exit(0)
    _WRITERS.append((pid, batch))


def _reap(block: bool) -> None:
    """Forget the entries of writers that have finished (with `block`: wait for all of them)."""
    while _WRITERS:
        pid, batch = _WRITERS[0]
        try:
            done, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
        except ChildProcessError:  # reaped by someone else: it has finished
            done = pid
        if not done:
            return
        _WRITERS.pop(0)
        for path in batch:
            if path not in _QUEUE:  # not put again since
                _release(path)


def _reap_oldest() -> None:
    try:
        os.waitpid(_WRITERS[0][0], 0)
    except ChildProcessError:
        pass
    _reap(block=False)  # the oldest is reaped now (ChildProcessError there), and any other that has finished


def _flush_all() -> None:
    if _OWNER[0] == os.getpid():
        _start_writer(in_place=True)  # (waited for anyway: no writer process to start)
        _reap(block=True)


class Cache:
    """Memory and (optionally) disk store of data products, by kind and key."""

    def __init__(self, root: Path | None = None, memory: bool = True):
        self.root = Path(root) if root else None
        self._memory: dict[tuple[str, str], Any] | None = {} if memory else None
        self.stats: Counter[str] = Counter()
        self._dirs: set[Path] = set()

    def _path(self, kind: str, key: str) -> Path:
        assert self.root is not None
        return self.root / kind / key  # one folder per kind: a folder per key prefix cost a mkdir per entry

    def get(self, kind: str, key: str) -> Any | None:
        if self._memory is not None and (kind, key) in self._memory:
            self.stats[f"{kind}.hit"] += 1
            return self._memory[(kind, key)]
        if self.root is not None:
            value = self._read(kind, key)
            if value is not None:
                if self._memory is not None:
                    self._memory[(kind, key)] = value
                self.stats[f"{kind}.hit"] += 1
                return value
        self.stats[f"{kind}.miss"] += 1
        return None

    def _read(self, kind: str, key: str) -> Any | None:
        path = self._path(kind, key)
        pending = _PENDING.get(path) if _OWNER[0] == os.getpid() else None
        if pending is not None:  # put by this process (any Cache on this folder), maybe not written yet
            return decode(kind, key, pending)
        try:
            if path.is_symlink() or not path.is_file():
                return None
            raw = path.read_bytes()
        except OSError:
            return None
        value = decode(kind, key, raw)
        if value is None:  # corrupted, truncated, swapped, foreign or older: never served, made again
            self.stats[f"{kind}.bad"] += 1
            try:
                path.unlink()
            except OSError:
                pass
        return value

    def put(self, kind: str, key: str, value: Any, start: bool = False) -> None:
        """Store `value` (in memory now; on disk soon, by a writer process). `start`: start writing what is
        queued now (the end of a stage)."""
        if self._memory is not None:
            self._memory[(kind, key)] = value
        if self.root is None:
            return
        raw = encode(kind, key, value)
        path = self._path(kind, key)
        if not _mine():  # a pnp worker process: the parent's writers are not its own
            _write(path, raw, self._dirs)
            return
        _hold(path, raw)
        _reap(block=False)
        if start or len(_QUEUE) >= _BATCH or _HELD_BYTES[0] > _HELD:
            _start_writer()
        while _WRITERS and _HELD_BYTES[0] > _HELD:  # bounded: the bytes waiting to be written stay few
            _reap_oldest()

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
        _flush_all()

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

    def has_memo(self, kind: str, key: str) -> bool:
        return self._memory is not None and (kind, key) in self._memory

    def made(self, kind: str) -> int:
        """How many products of this kind were made (cache misses) since the counters were reset."""
        return self.stats[f"{kind}.miss"]

    def reset_stats(self) -> None:
        self.stats.clear()


NO_CACHE = Cache(root=None, memory=False)


def default_cache(out: Path) -> Cache:
    """The cache of builds into `out`: <out>/.cache, or $PNP_CACHE_DIR (one cache shared by CI jobs or tests)."""
    return Cache(Path(os.environ.get("PNP_CACHE_DIR") or Path(out) / CACHE_DIR))
