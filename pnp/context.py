"""The state of one build (or one command): the cache writer, the folders designs may read besides their own,
the warnings collected and the tasks handed to forked workers. One `BuildContext` is active at a time in a
thread (a `contextvars.ContextVar`, with a process default); `with BuildContext().active():` makes a fresh one
active for a command, so nothing one command collects is seen by the next. Forked workers inherit the active
one with the rest of the memory (the cache writer knows which process it belongs to)."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.errors import WarningLog

if TYPE_CHECKING:
    from pnp.cache import CacheWriter
    from pnp.parallel import WorkerPool


@dataclass
class BuildContext:
    """The writer and the pool are made when first used: a command that writes no cache entry and forks no worker
    (`pnp --help`, `pnp list`) imports neither pnp.cache nor multiprocessing."""

    roots: tuple[Path, ...] = ()  # folders (besides each design's own) whose files designs may read: --allow-dir
    warnings: WarningLog = field(default_factory=WarningLog)  # warnings collected, library-message sources
    _writer: CacheWriter | None = field(default=None, repr=False)
    _pool: WorkerPool | None = field(default=None, repr=False)

    @property
    def writer(self) -> CacheWriter:
        """Disk writes not yet on disk, their writer processes."""
        if self._writer is None:
            from pnp.cache import CacheWriter  # lazy: 8.3 ms (pnp.cache)

            self._writer = CacheWriter()
        return self._writer

    @property
    def pool(self) -> WorkerPool:
        """The tasks forked workers run, the in-worker flag."""
        if self._pool is None:
            from pnp.parallel import WorkerPool  # lazy: 15 ms (pnp.parallel)

            self._pool = WorkerPool()
        return self._pool

    @contextlib.contextmanager
    def active(self) -> Iterator[BuildContext]:
        """This context is the current one while the block runs; its cache writes are on disk when it ends."""
        token = _CURRENT.set(self)
        try:
            yield self
        finally:
            _CURRENT.reset(token)
            if self._writer is not None:
                self._writer.close()


_CURRENT: contextvars.ContextVar[BuildContext] = contextvars.ContextVar("pnp_build_context")
PROCESS = BuildContext()  # the context of code that runs outside any `active()` block (a library caller, a test)


def current() -> BuildContext:
    """The active build context (the process default when no command made one)."""
    return _CURRENT.get(PROCESS)
