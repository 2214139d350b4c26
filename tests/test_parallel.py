"""pnp.parallel.Ahead: work done ahead by one forked worker, whose finished results the caller takes (issue 16:
the rules texts rendered while the faces are painted)."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest

from pnp import parallel
from pnp.parallel import Ahead

pytestmark = pytest.mark.skipif(not parallel.can_fork(), reason="needs two cores and fork")


def fails() -> None:
    raise ValueError("a task that fails")


def test_the_results_come_by_key_and_a_task_that_raises_is_left_out():
    big = bytes(range(256)) * 20_000  # 5 MB: more than a pipe holds
    ahead = Ahead({"a": lambda: {"n": 1}, ("b", 2): fails, "c": lambda: big, "d": lambda: [3.5, "é"]})
    got = ahead.take(wait=True)
    assert got == {"a": {"n": 1}, "c": big, "d": [3.5, "é"]}
    assert ahead.take() == {}  # (once)
    assert not multiprocessing.active_children()


def test_take_stops_the_worker_and_gives_what_is_finished(tmp_path: Path):
    started = tmp_path / "second task started"

    def slow() -> str:
        started.write_text("")
        time.sleep(60)
        (tmp_path / "second task finished").write_text("")
        return "late"

    ahead = Ahead({0: lambda: "first", 1: slow, 2: lambda: "never"})
    for _ in range(1000):  # (the first result is written before the second task starts)
        if started.exists():
            break
        time.sleep(0.01)
    assert ahead.take() == {0: "first"}
    assert not multiprocessing.active_children()  # stopped, not waited for
    assert not (tmp_path / "second task finished").exists()


def test_a_result_larger_than_the_shared_memory_ends_the_work(monkeypatch):
    monkeypatch.setattr(parallel, "AHEAD_BYTES", 4096)
    ahead = Ahead({0: lambda: "small", 1: lambda: "x" * 10_000, 2: lambda: "small again"})
    assert ahead.take(wait=True) == {0: "small"}


def test_without_a_second_core_nothing_runs(monkeypatch):
    monkeypatch.setattr(parallel, "cores", lambda: 1)
    ran = []
    ahead = Ahead({0: lambda: ran.append(1)})
    assert ahead.take(wait=True) == {} and not ran and not multiprocessing.active_children()


def test_the_tasks_run_within_the_context_given():
    from pnp.rulebook.run import one_run, shared

    design = object()
    calls = iter(range(100))
    ahead = Ahead({k: lambda: shared(design, "count", (), lambda: next(calls)) for k in range(3)}, within=one_run)
    assert ahead.take(wait=True) == {0: 0, 1: 0, 2: 0}  # one run: made once, shared by the three tasks
