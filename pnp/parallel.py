"""Spread CPU-bound work over the machine's cores (forked workers; the calling process takes a share)."""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class WorkerPool:
    """A build context's worker state: the tasks its forked workers run (they inherit the list), and whether this
    process is one of those workers (set by _worker_init)."""

    def __init__(self) -> None:
        self.tasks: list = []
        self.in_worker = False


def _pool() -> WorkerPool:
    from pnp.context import current  # lazy: cycle pnp.parallel -> pnp.context -> pnp.parallel

    return current().pool


def in_worker() -> bool:
    """True inside a worker process: its work runs serially (a worker cannot start workers)."""
    if _pool().in_worker:
        return True
    mp = sys.modules.get("multiprocessing")  # (not imported: no pool was ever made, so not a worker)
    return mp is not None and mp.current_process().daemon


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):  # else forked workers would print the parent's buffered output again
        stream.flush()


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent (which stops them and reports once) and die quietly when stopped. They
    are forked with both signals held back (`forking`): one sent meanwhile is ignored or ends the worker now."""
    _pool().in_worker = True
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


_HELD = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def forking() -> Iterator[None]:
    """Ctrl-C and SIGTERM held back in this thread while it forks workers (initialised by _worker_init): a worker
    that got one before its initializer ran would run the parent's handler there, and print a traceback. The caller
    gets a signal sent meanwhile when the block ends, the workers from _worker_init."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def worker_pool(n: int) -> Any:
    """A multiprocessing pool of `n` forked workers (initialised by _worker_init, forked under `forking`)."""
    import multiprocessing  # lazy: 7 ms (multiprocessing, socket): only a build with enough faces forks

    with forking():
        return multiprocessing.get_context("fork").Pool(n, initializer=_worker_init)


def _run_chunk(fn: Callable[[T], R], chunk: Sequence[T]) -> list[R]:
    return [fn(x) for x in chunk]


def _in_worker(fn: Callable, *args):
    """fn(*args) in a worker, with the warnings it recorded (pnp.errors), for the parent to report."""
    from pnp.errors import drain_warnings  # lazy: 22 ms (pnp.errors)

    drain_warnings()  # the parent's, inherited by the fork: the parent reports them itself
    return fn(*args), drain_warnings()


def _gather(result):
    from pnp.errors import add_warnings  # lazy: 29 ms (pnp.errors)

    value, warnings = result
    add_warnings(warnings)
    return value


def pmap(fn: Callable[[T], R], items: Sequence[T], min_items: int = 64) -> list[R]:
    """[fn(x) for x in items], in order, on every core when there is enough work to pay for the workers.

    `fn` must be a module-level function and its results picklable.
    """
    n = cores()
    if len(items) < min_items or not can_fork():
        return [fn(x) for x in items]
    _flush()
    size = -(-len(items) // n)
    chunks = [items[i:i + size] for i in range(0, len(items), size)]
    with worker_pool(len(chunks) - 1) as pool:
        pending = [pool.apply_async(_in_worker, (_run_chunk, fn, chunk)) for chunk in chunks[1:]]
        results = _run_chunk(fn, chunks[0])
        for p in pending:
            results.extend(_gather(p.get()))
    return results


def _run_task(i: int):
    try:
        return ("ok", _pool().tasks[i]())
    except Exception as exc:  # carried back to the parent, which decides what it means
        return ("error", exc)


def prun(tasks: list, min_items: int = 24) -> list[tuple[str, object]]:
    """Call every zero-argument callable in `tasks` (closures welcome: workers are forked, so they
    inherit them), on all cores when there are enough. Each result is ("ok", value) or ("error", exc)."""
    pool = _pool()
    outer, pool.tasks = pool.tasks, list(tasks)  # a task of prun_each may call prun: restore its list after
    try:
        return pmap(_run_task, list(range(len(pool.tasks))), min_items=min_items)
    finally:
        pool.tasks = outer


ALONE = 0.05  # seconds of tasks (after the first, which warms caches up) pstream's caller runs before starting workers


class Results(Protocol):
    """pstream's results: an iterator of ("ok" | "error", value) that `close()` stops."""

    def __iter__(self) -> Iterator[tuple[str, object]]: ...

    def __next__(self) -> tuple[str, object]: ...

    def close(self) -> None: ...


EAGER = 64  # tasks from which pstream starts the workers at once: a big deck's faces (a few seconds of tasks at most)


def can_fork() -> bool:
    """Whether this process may start workers: two cores or more, not a worker itself, and fork available."""
    if cores() < 2 or in_worker():
        return False
    import multiprocessing  # lazy: 7 ms (multiprocessing, socket)

    return "fork" in multiprocessing.get_all_start_methods()


def pooled(n: int) -> bool:
    """Whether pstream runs `n` tasks in workers from the start."""
    return n >= EAGER and can_fork()


def pstream(tasks: list, chunksize: int = 16, alone: float | None = None) -> Results:
    """Like prun, but the results come one by one, in order, as soon as they are there (the sheets stage
    draws faces while later ones are painted). Closing the iterator early stops the workers.

    With EAGER tasks or more, the caller runs the first (the caches it fills, such as a compiled template, are
    inherited by the workers), then every core's worker starts on the rest now, before the first result is asked
    for (the caller prepares the sheets meanwhile); the caller runs no other: it is free to use each result. With fewer,
    the caller runs the tasks itself, when asked for each result, until they have taken `alone` seconds
    (default ALONE: starting workers costs more than a few small tasks); then the workers take the rest."""
    if pooled(len(tasks)):
        first = _call(tasks[0])  # here: what it fills (a template compiled) the workers inherit, not each make
        return _PoolStream(tasks[1:], chunksize, first)
    return _stream(tasks, chunksize, ALONE if alone is None else alone, functools.cache(can_fork))


def _stream(tasks: list, chunksize: int, alone: float,
            parallel: Callable[[], bool]) -> Generator[tuple[str, object], None, None]:
    """`parallel()`: whether workers may take the rest (asked only once the caller has run `alone` seconds)."""
    spent, i = 0.0, 0
    while i < len(tasks) and (spent < alone or len(tasks) - i < 2 * chunksize or not parallel()):
        start = time.perf_counter()
        result = _call(tasks[i])
        spent += time.perf_counter() - start if i else 0.0  # the first task also fills caches (a template compiled)
        i += 1
        yield result
    if i == len(tasks):
        return
    rest = _PoolStream(tasks[i:], chunksize)
    try:
        yield from rest
    finally:
        rest.close()


class _PoolStream:
    """The results of `tasks` run by a pool of forked workers (one per core) started when this is made, in
    order; `close()` (or the last result) stops the workers."""

    def __init__(self, tasks: list, chunksize: int, first: tuple[str, object] | None = None):
        self._first = first  # a result to give before the workers' (the caller ran its task)
        self._state = _pool()
        self._outer, self._state.tasks = self._state.tasks, list(tasks)  # what the forked workers run (put back by close)
        _flush()
        try:
            self._pool: Any = worker_pool(cores())
        except BaseException:
            self._state.tasks = self._outer
            raise
        self._results = self._pool.imap(_run_task_in_worker, range(len(tasks)), chunksize=chunksize)

    def __iter__(self) -> _PoolStream:
        return self

    def __next__(self) -> tuple[str, object]:
        if self._first is not None:
            first, self._first = self._first, None
            return first
        if self._pool is None:
            raise StopIteration
        try:
            return _gather(next(self._results))
        except BaseException:  # the last one (StopIteration), Ctrl-C, a worker lost
            self.close()
            raise

    def close(self) -> None:
        if getattr(self, "_pool", None) is not None:  # (None too when the pool could not start)
            self._pool.terminate()
            self._pool = None
            self._state.tasks = self._outer

    def __del__(self) -> None:
        self.close()


def prun_each(tasks: list) -> list[tuple[str, object]]:
    """Like prun, for a few large tasks of uneven size (whole designs): each core takes the next
    task as soon as it is free. Inside a task, pmap and prun run serially."""
    n = min(cores(), len(tasks))
    if n < 2 or not can_fork():
        return [_call(t) for t in tasks]
    state = _pool()
    outer, state.tasks = state.tasks, list(tasks)
    _flush()
    try:
        with worker_pool(n) as pool:
            return [_gather(r) for r in pool.imap(_run_task_in_worker, range(len(tasks)), chunksize=1)]
    finally:
        state.tasks = outer


def _run_task_in_worker(i: int):
    return _in_worker(_run_task, i)


def succeeded(status: str, value, report) -> bool:
    """For one ("ok" | "error", value) result of prun or pstream: True when it is a value; a DesignError joins
    `report` (a pnp.errors.ErrorReport, so that every problem is told at once); anything else is a bug and is
    raised with its traceback."""
    if status == "ok":
        return True
    from pnp.errors import DesignError  # lazy: 26 ms (pnp.errors)

    if isinstance(value, DesignError):
        report.extend(value)
        return False
    raise value


def _call(task) -> tuple[str, object]:
    try:
        return ("ok", task())
    except Exception as exc:
        return ("error", exc)
