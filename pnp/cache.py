"""A content-addressed cache: what was made from the same inputs is not made again.

Every expensive product of the build — a face's SVG, its parsed vector drawing, its
PNG, a sheets PDF, a rulebook — is stored under the SHA-256 of everything it is made
from. The cache lives in memory (for `pnp watch`, which keeps one across rebuilds) and
on disk under `<out>/.cache/` (for the next `pnp build`). Counters record hits and
misses per kind, so tests can prove by counting, not by timing, what was rebuilt.

Keys include a hash of pnp's own source code: after any change to a generator, a renderer
or pnp itself, nothing made by the old code is reused.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import pickle
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from pnp import __version__

CACHE_DIR = ".cache"


@functools.cache
def code_fingerprint() -> bytes:
    """A hash of pnp's own source: after a change to any generator or renderer, nothing stale is reused."""
    root = Path(__file__).resolve().parent
    h = hashlib.sha256(__version__.encode())
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return h.digest()


def key_of(*parts: Any) -> str:
    """A stable hash of JSON-able parts (dicts sorted, bytes and str hashed as they are)."""
    h = hashlib.sha256(code_fingerprint())
    for part in parts:
        if isinstance(part, bytes):
            h.update(b"b" + hashlib.sha256(part).digest())
        elif isinstance(part, str):
            h.update(b"s" + hashlib.sha256(part.encode("utf-8")).digest())
        else:
            h.update(b"j" + json.dumps(part, sort_keys=True, default=str, ensure_ascii=False).encode("utf-8"))
    return h.hexdigest()


class Cache:
    """Memory and (optionally) disk store of bytes or picklable objects, by kind and key."""

    def __init__(self, root: Path | None = None, memory: bool = True):
        self.root = Path(root) if root else None
        self._memory: dict[tuple[str, str], Any] | None = {} if memory else None
        self.stats: Counter[str] = Counter()

    def _path(self, kind: str, key: str) -> Path:
        assert self.root is not None
        return self.root / kind / key[:2] / key

    def get(self, kind: str, key: str) -> Any | None:
        if self._memory is not None and (kind, key) in self._memory:
            self.stats[f"{kind}.hit"] += 1
            return self._memory[(kind, key)]
        if self.root is not None:
            path = self._path(kind, key)
            try:
                value = pickle.loads(path.read_bytes())
            except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
                value = None  # absent, or written by an incompatible version: make it again
            if value is not None:
                if self._memory is not None:
                    self._memory[(kind, key)] = value
                self.stats[f"{kind}.hit"] += 1
                return value
        self.stats[f"{kind}.miss"] += 1
        return None

    def put(self, kind: str, key: str, value: Any) -> None:
        if self._memory is not None:
            self._memory[(kind, key)] = value
        if self.root is not None:
            path = self._path(kind, key)
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp.")
            try:
                with os.fdopen(fd, "wb") as fh:
                    pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise

    def made(self, kind: str) -> int:
        """How many products of this kind were made (cache misses) since the counters were reset."""
        return self.stats[f"{kind}.miss"]

    def reset_stats(self) -> None:
        self.stats.clear()


NO_CACHE = Cache(root=None, memory=False)
