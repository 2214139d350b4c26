"""Writing into output/ without ever leaving a partial file: write a temporary file, then rename.

Files whose content is unchanged are not rewritten (their modification time stays), so a
rebuild touches only what changed.
"""

from __future__ import annotations

import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def _bytes(data: bytes | str) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def write_atomic(path: Path, data: bytes | str, only_if_changed: bool = False) -> bool:
    """Write `data` to `path` through a temporary file and a rename; False if it was already there."""
    raw = _bytes(data)
    if only_if_changed:
        try:
            if path.stat().st_size == len(raw) and path.read_bytes() == raw:
                return False
        except OSError:
            pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True


def sync_dir(path: Path, files: dict[str, bytes | str]) -> int:
    """Make folder `path` hold exactly `files` (name -> content); returns how many files were written.

    Each file is written atomically and only if it changed; files not in `files` are removed.
    """
    path.mkdir(parents=True, exist_ok=True)
    # many small files: threads overlap the file-system latency (file I/O releases the GIL)
    with ThreadPoolExecutor(max_workers=8) as pool:
        written = sum(pool.map(lambda item: write_atomic(path / item[0], item[1], only_if_changed=True),
                               files.items()))
    wanted = {(path / name).resolve() for name in files}
    for old in path.rglob("*"):
        if old.is_file() and old.resolve() not in wanted:
            old.unlink()
    return written
