"""The entries of a cache's pack files (pnp.cache.PACKED kinds), read as whoever can write the cache reads them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Entry:
    pack: Path
    offset: int
    raw: bytes  # the whole entry: signed header line, payload

    @property
    def header(self) -> dict:
        line = self.raw[:self.raw.index(b"\n")]
        return json.loads(line[line.index(b"{"):])

    @property
    def key(self) -> str:
        return self.header["key"]


def entries(cache_dir: Path, kind: str = "svg") -> list[Entry]:
    """Every whole entry of the kind's packs, pack by pack (by name), in order."""
    out = []
    for pack in sorted((Path(cache_dir) / kind).glob("pack.*")):
        raw, pos = pack.read_bytes(), 0
        while pos < len(raw):
            nl = raw.find(b"\n", pos)
            if nl < 0:
                break
            line = raw[pos:nl]
            try:
                size = json.loads(line[line.index(b"{"):])["size"]
            except ValueError:
                break
            if nl + 1 + size > len(raw):
                break
            out.append(Entry(pack, pos, raw[pos:nl + 1 + size]))
            pos = nl + 1 + size
    return out


def rewrite(cache_dir: Path, edit, kind: str = "svg") -> int:
    """Replace each entry by edit(entry) (bytes, or None to keep it), pack by pack; how many were replaced."""
    done = 0
    by_pack: dict[Path, list[bytes]] = {}
    for e in entries(cache_dir, kind):
        new = edit(e)
        done += new is not None
        by_pack.setdefault(e.pack, []).append(e.raw if new is None else new)
    for pack, parts in by_pack.items():
        pack.write_bytes(b"".join(parts))
    return done
