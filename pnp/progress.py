"""Progress bars on a terminal (rich), nothing when the output is piped or in CI."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager


class _Quiet:
    def step(self, description: str, total: int = 1) -> "_Quiet":
        return self

    def advance(self, n: int = 1) -> None:
        pass


class _Bar:
    def __init__(self, progress):
        self._progress = progress
        self._task = None

    def step(self, description: str, total: int = 1) -> "_Bar":
        if self._task is not None:
            self._progress.update(self._task, completed=self._progress.tasks[-1].total)
        self._task = self._progress.add_task(description, total=max(total, 1))
        return self

    def advance(self, n: int = 1) -> None:
        if self._task is not None:
            self._progress.advance(self._task, n)


def enabled() -> bool:
    return sys.stderr.isatty() and not os.environ.get("CI")


@contextmanager
def progress(show: bool | None = None):
    """`with progress() as bar: bar.step("faces", 47); bar.advance()`; a no-op unless on a terminal."""
    if not (enabled() if show is None else show):
        yield _Quiet()
        return
    from rich.console import Console  # lazy: 54 ms (rich.console)
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn  # lazy: 64 ms (rich.progress)

    with Progress(TextColumn("{task.description:<28}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as prog:
        yield _Bar(prog)
