"""`pnp watch`: rebuild on every save, report errors without dying, rebuild only what changed.

One process keeps its content-hash cache (pnp.cache) in memory across rebuilds, on top
of the disk cache, so a rebuild after editing one card paints, parses and rasterises
that card alone; sheets and rulebooks are remade only if something they show changed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from pnp.build import BuildOptions, build_designs
from pnp.cache import Cache, default_cache
from pnp.errors import PnpError
from pnp.loader import find_designs, resolve_design, templates_dir


@dataclass
class Watcher:
    designs: list[Path]  # design folders
    out: Path
    paper: str | None = None
    echo: Callable[[str], None] = print
    cache: Cache = field(default=None)  # type: ignore[assignment]
    last_sheets_seconds: float = 0.0  # the last rebuild, to the faces and print sheets written

    def __post_init__(self) -> None:
        if self.cache is None:
            self.cache = default_cache(self.out)

    def paths(self) -> list[Path]:
        """What to watch: each design folder and the shared templates."""
        return [*self.designs, templates_dir()]

    def affected(self, changed: Iterable[Path]) -> list[Path]:
        """The designs a set of changed files touches (a shared template touches them all)."""
        hit = set()
        for path in changed:
            path = Path(path).resolve()
            if self.out.resolve() in path.parents:
                continue  # our own output
            owners = [d for d in self.designs if d.resolve() in path.parents or path == d.resolve()]
            hit.update(owners or self.designs)
        return [d for d in self.designs if d in hit]

    def rebuild(self, designs: list[Path]) -> bool:
        """Build `designs`: faces, sheets and exports first (written at once), then the rulebooks.

        Prints one line each (or the problems); True if it worked.
        """
        if not designs:
            return True
        self.cache.reset_stats()
        started = time.perf_counter()
        args = [str(d) for d in designs]
        try:
            sheets_first = BuildOptions(paper=self.paper, show_progress=False, rulebooks=False)
            results = build_designs(args, self.out, sheets_first, cache=self.cache)
            sheets_done = self.last_sheets_seconds = time.perf_counter() - started
            made, hits, sheets = self.cache.made("svg"), self.cache.stats["svg.hit"], self.cache.made("sheets")
            build_designs(args, self.out, replace(sheets_first, rulebooks=True), cache=self.cache)
        except PnpError as exc:
            self.echo(str(exc))
            self.echo(f"[{time.strftime('%H:%M:%S')}] build failed; fix and save again (still watching)")
            return False
        except Exception as exc:  # a bug must not end the watch: say so, keep watching
            self.echo(f"[{time.strftime('%H:%M:%S')}] pnp failed unexpectedly ({type(exc).__name__}: {exc}); "
                      "please report it with the design attached (still watching)")
            return False
        took = time.perf_counter() - started
        for r in results:
            self.echo(f"[{time.strftime('%H:%M:%S')}] rebuilt {r.slug}: faces and sheets in {sheets_done:.2f} s, "
                      f"everything in {took:.2f} s")
        remade = [what for what, n in (("print sheets", sheets), ("rulebooks", self.cache.made("rulebooks"))) if n]
        self.echo(f"    {made} face(s) re-rendered, {hits} from the cache"
                  + (f"; {' and '.join(remade)} made again" if remade else ""))
        return True


def watch(args: tuple[str, ...], out: Path, paper: str | None = None, echo: Callable[[str], None] = print,
          stop_event=None) -> None:
    """Build once, then rebuild on every change until interrupted (or `stop_event` is set)."""
    import watchfiles  # lazy: 8.0 ms (watchfiles)

    designs = [resolve_design(a) for a in args] if args else find_designs()
    watcher = Watcher(designs, Path(out), paper, echo)
    watcher.rebuild(designs)
    echo(f"watching {', '.join(d.name for d in designs)} (Ctrl-C to stop)")
    for changes in watchfiles.watch(*watcher.paths(), stop_event=stop_event, debounce=200, step=50,
                                    raise_interrupt=False):
        watcher.rebuild(watcher.affected(Path(p) for _, p in changes))
