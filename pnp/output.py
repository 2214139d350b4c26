"""Writing into output/ without ever leaving a partial file: write a temporary file, then rename."""

from __future__ import annotations

import os
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def write_atomic(path: Path, data: bytes | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def replace_dir(path: Path, files: dict[str, bytes | str]) -> None:
    """Make `path` hold exactly `files` (name -> content): built aside, then swapped in."""
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{path.name}.", dir=path.parent))

    def put(item: tuple[str, bytes | str]) -> None:
        target = staging / item[0]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(item[1].encode("utf-8") if isinstance(item[1], str) else item[1])

    try:
        # many small files: threads overlap the file-system latency (file I/O releases the GIL)
        with ThreadPoolExecutor(max_workers=8) as pool:
            list(pool.map(put, files.items()))
        old = None
        if path.exists():
            old = path.with_name(f".{path.name}.old.{os.getpid()}")
            os.replace(path, old)
        os.replace(staging, path)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
