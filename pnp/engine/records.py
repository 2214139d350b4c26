"""Seeded games, played in this process or on every core: the records a game's checks, `pnp validate`,
`pnp simulate` and `pnp sweep` read.

Work is cut into `Batch`es of consecutive seeds (a fixed size, never depending on the
number of workers); a batch carries the design's files, so any process — a forked
worker here or a Dask worker on another machine with pnp installed (pnp.distributed) —
loads the same design and plays the same games. Game i of a batch uses seed `first + i`,
its chance and its agents drawing only from that seed (pnp.engine.playout), so the
results, put back in seed order, are identical for 1 core, 16 cores or a cluster.

`game_records(folder, players, agent, seed, games)` is what a game's checks call: the
records of seeded games in seed order, shared inside `shared_games()`.
"""

from __future__ import annotations

import atexit
import hashlib
import multiprocessing
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.engine import load_engine
from pnp.engine.agents import describe, make_agents, parse_agents
from pnp.errors import PnpError
from pnp.parallel import _worker_init, cores, forking, in_worker

BATCH_GAMES = 25
"""Games per batch: small enough to spread over many workers, large enough to pay for a task."""
MAX_DESIGN_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class GameRecord:
    """What one seeded game leaves for the statistics."""

    seed: int
    returns: tuple[float, ...]
    length: int
    """In the game's own turns (its `turns` metric) when it counts them, else player actions."""
    actions: int
    """Player actions (decisions) taken."""
    kinds: dict[str, int]
    metrics: dict[str, int]


@dataclass(frozen=True)
class DesignFiles:
    """Where a worker finds the design: its folder on this machine, and for workers elsewhere (a Dask
    cluster) its files as data (relative path -> bytes), written once per worker process."""

    slug: str
    folder: str
    digest: str
    files: tuple[tuple[str, bytes], ...] = ()

    @classmethod
    def read(cls, folder: Path, ship: bool = False) -> "DesignFiles":
        folder = Path(folder).resolve()
        files, size = [], 0
        h = hashlib.sha256()
        for p in sorted(folder.rglob("*")):
            if p.is_file() and not p.is_symlink():
                data = p.read_bytes()
                size += len(data)
                if size > MAX_DESIGN_BYTES:
                    raise PnpError(f"{folder}: the design folder holds more than {MAX_DESIGN_BYTES >> 20} MB; "
                                   "expected a design small enough to send to the workers")
                name = p.relative_to(folder).as_posix()
                h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
                if ship:
                    files.append((name, data))
        return cls(folder.name, str(folder), h.hexdigest()[:20], tuple(files))

    def shipped(self) -> "DesignFiles":
        """The same design with its files inside (for workers on other machines)."""
        return self if self.files else DesignFiles.read(Path(self.folder), ship=True)


@dataclass(frozen=True)
class Batch:
    design: DesignFiles
    players: int
    agents: str
    first_seed: int
    games: int
    label: Any = None
    """The caller's name for the setting this batch belongs to (a sweep's combination)."""


# --- in a worker ------------------------------------------------------------------------------

_LOADED: dict[tuple[str, int], Any] = {}
_FOLDERS: dict[str, Path] = {}


def _folder(files: DesignFiles) -> Path:
    """The design's folder: the caller's own, or its shipped files written once per process."""
    if not files.files:
        return Path(files.folder)
    found = _FOLDERS.get(files.digest)
    if found is not None and found.is_dir():
        return found
    if not _FOLDERS:
        atexit.register(cleanup)
    root = Path(tempfile.mkdtemp(prefix=f"pnp-{files.digest}-"))
    folder = root / files.slug
    for name, data in files.files:
        path = (folder / name).resolve()
        if not path.is_relative_to(folder.resolve()):
            raise PnpError(f"{files.slug}: file {name!r} lies outside the design; expected paths inside it")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    _FOLDERS[files.digest] = folder
    return folder


def _engine(files: DesignFiles, players: int):
    key = (files.digest, players)
    game = _LOADED.get(key)
    if game is None:
        from pnp.loader import load_design  # lazy: 84 ms (pnp.loader)

        game = load_engine(load_design(_folder(files)), players)
        _LOADED[key] = game
    return game


def play_batch(batch: Batch) -> list[GameRecord]:
    """Play a batch's games (module level: a Dask or multiprocessing task)."""
    from pnp.engine.playout import play  # lazy: 2.5 ms (pnp.engine.playout)

    game = _engine(batch.design, batch.players)
    out = []
    for seed in range(batch.first_seed, batch.first_seed + batch.games):
        res = play(game, make_agents(batch.agents, game), seed)
        out.append(GameRecord(seed=seed, returns=tuple(res.returns), length=res.metrics.get("turns", res.length),
                              actions=res.length, kinds=dict(res.kinds), metrics=dict(res.metrics)))
    return out


def cleanup() -> None:
    """Remove the folders this process wrote designs into."""
    for folder in _FOLDERS.values():
        shutil.rmtree(folder.parent, ignore_errors=True)
    _FOLDERS.clear()
    _LOADED.clear()


# --- the driver -------------------------------------------------------------------------------


def batches(design: DesignFiles, players: int, agents: str, first_seed: int, games: int,
            label: Any = None, size: int = BATCH_GAMES) -> list[Batch]:
    """`games` seeded games from `first_seed` on, cut into batches of `size` (never by worker count)."""
    return [Batch(design, players, agents, s, min(size, first_seed + games - s), label)
            for s in range(first_seed, first_seed + games, size)]


@dataclass
class RunInfo:
    """How the games were run, for reports."""

    workers: int
    where: str
    extra: dict = field(default_factory=dict)



def run_local(work: Sequence[Batch], workers: int | None = None,
              progress: Callable[[int], None] | None = None) -> tuple[list[list[GameRecord]], RunInfo]:
    """Every batch's records, in the order of `work`, played here: in this process, or in `workers` forked
    processes (default one per core); and how they were run."""
    if workers is not None and workers < 1:
        raise PnpError(f"--workers {workers}: expected at least 1")
    n = min(workers or cores(), len(work)) or 1
    if n < 2 or in_worker() or "fork" not in multiprocessing.get_all_start_methods():
        out = []
        for b in work:
            out.append(play_batch(b))
            if progress:
                progress(b.games)
        return out, RunInfo(1, "this process")

    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    from concurrent.futures import ProcessPoolExecutor  # lazy: 21 ms (concurrent.futures)
    from concurrent.futures.process import BrokenProcessPool  # lazy: 19 ms (concurrent.futures.process)

    out = []
    # an executor, not multiprocessing.Pool: a worker that dies (killed, out of memory) is an error here,
    # where Pool.imap would wait for its results forever
    with ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("fork"), initializer=_worker_init) as pool:
        try:
            with forking():  # (the executor forks its workers when the first batch is submitted)
                results = pool.map(play_batch, work)
            for b, records in zip(work, results):
                out.append(records)
                if progress:
                    progress(b.games)
        except BrokenProcessPool:
            raise PnpError("a worker process stopped before its games were played (killed, or out of memory?); "
                           "expected it to finish: run again, or with --workers 1") from None
        except BaseException:  # Ctrl-C: the workers ignore it (the parent reports once); stop them now
            for proc in list(getattr(pool, "_processes", {}).values()):
                proc.kill()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return out, RunInfo(n, f"{n} local processes")



_SHARED: dict | None = None


@contextmanager
def shared_games():
    """Within this block a seeded game already played (same design folder, player count, agents and seed) is
    not played again: `pnp validate`'s game checks and its playability check ask for the same seeds."""
    global _SHARED
    outer = _SHARED
    if outer is None:
        _SHARED = {}
    try:
        yield
    finally:
        _SHARED = outer


def game_records(folder: Path, players: int, agent: str, seed: int, games: int,
                 workers: int | None = None) -> list[GameRecord]:
    """The records of seeded games `seed`..`seed + games - 1` of a design folder at a player count, played on
    every core (`workers` processes) like `simulate`'s, in seed order; inside `shared_games()`, games already
    played are reused. A broken engine's exception propagates."""
    name = describe(parse_agents(agent, players))
    known = _SHARED.setdefault((str(folder), players, name), {}) if _SHARED is not None else {}
    missing = [s for s in range(seed, seed + games) if s not in known]
    if missing:
        files = DesignFiles.read(folder)
        work, start = [], missing[0]
        for i, s in enumerate(missing):  # contiguous runs of missing seeds, each cut into batches
            if i + 1 == len(missing) or missing[i + 1] != s + 1:
                work += batches(files, players, name, start, s - start + 1)
                if i + 1 < len(missing):
                    start = missing[i + 1]
        per_batch, _ = run_local(work, workers)
        for recs in per_batch:
            for r in recs:
                known[r.seed] = r
    return [known[s] for s in range(seed, seed + games)]
