"""Big byte strings kept on disk while a build runs, not in memory: the pixel data of card art on its way into a
PDF (`StreamSpool`, held once, in a temporary file, once it passes SPOOL_FROM bytes) and the PDF made with it
(a pnp.spooled.SpooledFile: a finished file read back in chunks when it is published and cached). A deck of
500 illustrations (600 MB) then costs its build a few tens of MB instead of three copies of the art."""

from __future__ import annotations

import os
import tempfile
from typing import BinaryIO

SPOOL_FROM = 32 << 20  # bytes of image data past which a PDF's images wait on disk and the PDF is written to a file


class StreamSpool:
    """placeholder -> stream data, in memory up to SPOOL_FROM bytes in all, then in a temporary file."""

    def __init__(self, spill_at: int | None = None):
        self.spill_at = SPOOL_FROM if spill_at is None else spill_at
        self.held: dict[bytes, bytes] = {}
        self.index: dict[bytes, tuple[int, int]] = {}  # on disk: placeholder -> (offset, length)
        self.size = 0
        self.file: BinaryIO | None = None

    def __setitem__(self, key: bytes, data: bytes) -> None:
        self.size += len(data)
        if self.file is None and self.size <= self.spill_at:
            self.held[key] = data
            return
        if self.file is None:
            self.file = tempfile.TemporaryFile(prefix="pnp-art-")  # (gone when closed, or when the process ends)
            for k, v in self.held.items():
                self._append(k, v)
            self.held = {}
        self._append(key, data)

    def _append(self, key: bytes, data: bytes) -> None:
        assert self.file is not None
        self.file.seek(0, os.SEEK_END)
        self.index[key] = (self.file.tell(), len(data))
        self.file.write(data)

    def __len__(self) -> int:
        return len(self.held) + len(self.index)

    @property
    def spilled(self) -> bool:
        return self.file is not None

    def lengths(self) -> dict[bytes, int]:
        return {**{k: len(v) for k, v in self.held.items()}, **{k: n for k, (_, n) in self.index.items()}}

    def read(self, key: bytes) -> bytes:
        if key in self.held:
            return self.held[key]
        assert self.file is not None
        offset, length = self.index[key]
        self.file.seek(offset)
        return self.file.read(length)

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None
        self.held, self.index = {}, {}

