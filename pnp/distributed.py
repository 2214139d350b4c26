"""Seeded games on a Dask cluster, or on every core: the same results whatever runs them.

The batches, the worker side (`play_batch`) and the local runner live in the engine layer
(pnp.engine.records), where a game's checks use them; this module adds Dask.

`run_batches(batches, workers=None, scheduler=None)`:
* no scheduler: local processes, one per core by default (`workers` to choose);
* `scheduler="local"`: a local Dask cluster with `workers` processes;
* `scheduler="tcp://host:8786"`: an existing Dask scheduler (`dask-scheduler`, with
  `dask-worker`s that have pnp installed).
Dask is the optional extra `[cluster]`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pnp.engine.records import (
    BATCH_GAMES,
    Batch,
    DesignFiles,
    GameRecord,
    RunInfo,
    batches,
    cleanup,
    play_batch,
    run_local,
)
from pnp.errors import PnpError
from pnp.parallel import cores

__all__ = ["BATCH_GAMES", "Batch", "DesignFiles", "GameRecord", "RunInfo", "batches", "cleanup", "play_batch",
           "require_dask", "run_batches"]

EXTRA = 'pip install -e ".[cluster]"'


def require_dask(what: str) -> None:
    try:
        import dask  # noqa: F401  # lazy: optional (cluster)
        import distributed  # noqa: F401  # lazy: optional (cluster)
    except ImportError:
        raise PnpError(f"{what} needs Dask, which is not installed; it is the optional extra [cluster]: "
                       f"{EXTRA} (or pip install \"dask[distributed]\")") from None


def run_batches(work: Sequence[Batch], workers: int | None = None, scheduler: str | None = None,
                progress: Callable[[int], None] | None = None) -> tuple[list[list[GameRecord]], RunInfo]:
    """Every batch's records, in the order of `work`, and how they were run."""
    if workers is not None and workers < 1:
        raise PnpError(f"--workers {workers}: expected at least 1")
    if scheduler is not None:
        return _run_dask(work, workers, scheduler, progress)
    return run_local(work, workers, progress)


def _run_dask(work: Sequence[Batch], workers: int | None, scheduler: str,
              progress: Callable[[int], None] | None) -> tuple[list[list[GameRecord]], RunInfo]:
    require_dask(f"--scheduler {scheduler}")
    from distributed import Client, LocalCluster, as_completed  # lazy: optional (cluster)

    cluster = None
    try:
        if scheduler == "local":
            n = workers or cores()
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(cluster)
        else:
            try:
                client = Client(scheduler, timeout="10s")
            except OSError as exc:
                raise PnpError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({exc}); expected the "
                               "address of a running `dask scheduler`, e.g. tcp://host:8786") from None
        try:
            n = len(client.scheduler_info().get("workers", {}))
            if cluster is None:  # workers elsewhere: the design travels with the work
                shipped: dict[str, DesignFiles] = {}
                work = [Batch(shipped.setdefault(b.design.digest, b.design.shipped()), b.players, b.agents,
                              b.first_seed, b.games, b.label) for b in work]
            futures = client.map(play_batch, list(work), pure=False)
            index = {f.key: i for i, f in enumerate(futures)}
            out: list[list[GameRecord] | None] = [None] * len(futures)
            for fut in as_completed(futures):
                i = index[fut.key]
                out[i] = fut.result()
                if progress:
                    progress(work[i].games)
            where = "a local Dask cluster" if cluster else f"the Dask cluster at {scheduler}"
            return [o for o in out if o is not None], RunInfo(n, f"{n} workers of {where}")
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()
