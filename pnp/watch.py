"""`pnp watch`: rebuild on every save, report errors without dying, rebuild only what changed.

One process keeps its content-hash cache (pnp.cache) in memory across rebuilds, on top
of the disk cache, so a rebuild after editing one card paints, parses and rasterises
that card alone; sheets and rulebooks are remade only if something they show changed.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from pnp.build import BuildOptions, build_designs
from pnp.cache import Cache, default_cache
from pnp.errors import DesignError, PnpError, Problem
from pnp.loader import find_designs, resolve_design, templates_dir


@dataclass
class Watcher:
    designs: list[Path]  # design folders
    out: Path
    paper: str | None = None
    echo: Callable[[str], None] = print
    cache: Cache = field(default=None)  # type: ignore[assignment]
    last_sheets_seconds: float = 0.0  # the last rebuild, to the faces and print sheets written
    problems: list[Problem] = field(default_factory=list)  # why the last rebuild failed (none when it worked)
    after_sheets: Callable[[], None] | None = None  # called once the faces and sheets are written (pnp studio)

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
            self.problems = []
            if self.after_sheets is not None:
                self.after_sheets()
            build_designs(args, self.out, replace(sheets_first, rulebooks=True), cache=self.cache)
        except PnpError as exc:
            self.problems = problems_of(exc)
            self.echo(str(exc))
            self.echo(f"[{time.strftime('%H:%M:%S')}] build failed; fix and save again (still watching)")
            return False
        except Exception as exc:  # a bug must not end the watch: say so, keep watching
            self.problems = [Problem("pnp", None, f"pnp failed unexpectedly ({type(exc).__name__}: {exc}); please "
                                     "report it with the design attached")]
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


_WHERE = re.compile(r"^(?P<file>[^\n:]+?):(?P<line>\d+): (?P<message>.*)$", re.S)


def problems_of(exc: PnpError) -> list[Problem]:
    """An error's problems, each with its file and line: a DesignError's own, else its message read as
    `file:line: what` (or as a message about no file)."""
    if isinstance(exc, DesignError):
        return list(exc.problems)
    text = str(exc)
    m = _WHERE.match(text)
    if m:
        return [Problem(m.group("file"), int(m.group("line")), m.group("message"))]
    file, sep, message = text.partition(": ")
    return [Problem(file, None, message) if sep and "\n" not in file and " " not in file else Problem("", None, text)]


def watch(args: tuple[str, ...], out: Path, paper: str | None = None, echo: Callable[[str], None] = print,
          stop_event=None) -> None:
    """Build once, then rebuild on every change until interrupted (or `stop_event` is set)."""
    designs = [resolve_design(a) for a in args] if args else find_designs()
    watcher = Watcher(designs, Path(out), paper, echo)
    follow(watcher, watcher.rebuild, stop_event,
           lambda: echo(f"watching {', '.join(d.name for d in designs)} (Ctrl-C to stop)"))


def follow(watcher: Watcher, rebuild: Callable[[list[Path]], object], stop_event=None,
           watching: Callable[[], None] | None = None, debounce: int = 200, step: int = 50) -> None:
    """`rebuild` every design, then the designs each change touches, until `stop_event` is set (or Ctrl-C).

    A save made during the first build, before the file-system watch began, is not lost: once the watch runs (its
    first wake-up), the files changed since the first build began are looked for and rebuilt. Saves made during a
    later rebuild wait in the watch for the next one."""
    import watchfiles  # lazy: 8.0 ms (watchfiles)

    began = time.time_ns()
    rebuild(watcher.designs)
    if watching is not None:
        watching()
    first = True
    for changes in watchfiles.watch(*watcher.paths(), stop_event=stop_event, debounce=debounce, step=step,
                                    rust_timeout=500, yield_on_timeout=True, raise_interrupt=False):
        paths = [Path(p) for _, p in changes]
        if first:
            first = False
            paths += changed_since(watcher.paths(), began, watcher.out)
        if paths:
            rebuild(watcher.affected(paths))


def changed_since(folders: Iterable[Path], since_ns: int, out: Path) -> list[Path]:
    """The files under `folders` (not under `out`, nor hidden) modified at or after `since_ns`."""
    skip = os.path.realpath(out)
    found = []
    for folder in folders:
        for root, dirs, files in os.walk(folder):
            dirs[:] = [d for d in dirs if not d.startswith(".") and os.path.realpath(os.path.join(root, d)) != skip]
            for name in files:
                path = os.path.join(root, name)
                try:
                    if os.stat(path).st_mtime_ns >= since_ns:
                        found.append(Path(path))
                except OSError:
                    continue
    return found
