"""A finished file too big to hold in memory (a sheets PDF of card art): a temporary file read back in chunks.
The build makes one (pnp.render.spool), the cache stores and returns one (pnp.cache, streamed), publishing
compares and copies one chunk by chunk (pnp.output): data, no drawing."""

from __future__ import annotations

import os
import tempfile
import weakref
from collections.abc import Iterator
from typing import BinaryIO

CHUNK = 1 << 20


class SpooledFile:
    """A finished file too big to hold (a PDF of card art): a temporary file, removed when this object goes.
    It reads back whole (`read_bytes`, `bytes(...)`) for whoever needs the bytes, or in chunks (`chunks`), which
    publishing uses, so the file is never all in memory."""

    def __init__(self) -> None:
        fd, name = tempfile.mkstemp(prefix="pnp-", suffix=".pdf")
        self.path = name
        self.file = os.fdopen(fd, "w+b")
        self._done = weakref.finalize(self, _remove, self.file, name)

    def __len__(self) -> int:
        return os.fstat(self.file.fileno()).st_size

    def chunks(self, size: int = CHUNK) -> Iterator[bytes]:
        self.file.flush()
        with open(self.path, "rb") as fh:
            while chunk := fh.read(size):
                yield chunk

    def read_bytes(self) -> bytes:
        self.file.flush()
        with open(self.path, "rb") as fh:
            return fh.read()

    def __bytes__(self) -> bytes:
        return self.read_bytes()

    def close(self) -> None:
        self._done()


def _remove(file: BinaryIO, name: str) -> None:
    file.close()
    try:
        os.unlink(name)
    except OSError:
        pass
