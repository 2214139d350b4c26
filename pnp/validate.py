"""`pnp validate`: load designs, check they build, run their game's checks, report what each proves.

For each design, in order:
1. **build** (`pnp validate` does it unless `--no-build`): every face, the print sheets and the rulebooks are
   made in memory (nothing is written; the build's cache is used). A design that does
   not build is bad input: DesignError, exit 2, with its file:line problems.
2. the game's own checks: a game registers `checks=f` with pnp.registry,
   `f(design, games=N, seed=S, agent=A) -> list[CheckResult]`, A the agent of its
   simulation checks (the game's default agent unless one is asked for; the report says
   which).
3. **playability** (when the game has a rules engine and games > 0): seeded games at
   every player count end by the rules. Games stopped by the engine's safety cap are
   counted: when the cap decides most of them the check fails (a check that passes only
   because games were cut off proves nothing); when it decides some, the check warns.

Nothing here knows any game. Exit codes (pnp.cli): 0 every check passes (warnings
allowed), 1 a check fails, 2 bad input (a design that does not load or build).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pnp.engine import load_engine, player_counts
from pnp.engine.checks import CheckResult
from pnp.errors import DesignError, ErrorReport, PnpError
from pnp.loader import find_designs, load_designs, resolve_design
from pnp.model import Design
from pnp.registry import get_game

PLAYABILITY_GAMES = 50
"""At most this many of the requested seeds per player count for the playability check."""


@dataclass
class DesignReport:
    design: Design
    results: list[CheckResult]
    note: str = ""
    agent: str = ""
    agent_source: str = ""

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)


def validate(designs: Sequence[str] = (), games: int = 200, seed: int = 1, agent: str | None = None,
             build: bool = False) -> list[DesignReport]:
    """Check each design (default: every design under designs/); DesignError when one does not load, or with
    `build` (the command's default) does not build."""
    folders = [resolve_design(d) for d in designs] if designs else find_designs()
    loaded = load_designs(folders)
    built: dict[str, CheckResult] = {}
    if build:
        report = ErrorReport()
        for design in loaded:
            try:
                built[design.slug] = build_check(design)
            except DesignError as exc:
                report.extend(exc)
        report.raise_if_any()
    reports = []
    for design in loaded:
        rep = check_design(design, games=games, seed=seed, agent=agent)
        if design.slug in built:
            rep.results.insert(0, built[design.slug])
        reports.append(rep)
    return reports


def build_check(design: Design) -> CheckResult:
    """Make every face, the sheets and the rulebooks in memory; DesignError (file:line) if the design does not build."""
    from pnp.build import BuildOptions, make_designs  # lazy: 226 ms (pnp.build)
    from pnp.cache import CACHE_DIR, Cache  # lazy: 15 ms (pnp.cache)
    from pnp.rulebook import languages  # lazy: 174 ms (pnp.rulebook)

    cache = Cache(Path(os.environ.get("PNP_CACHE_DIR") or Path("output") / CACHE_DIR))
    try:
        [built] = make_designs([design], BuildOptions(exports=False), cache)
    except DesignError:
        raise
    except Exception as exc:  # whatever stops the build stops validate too: bad input, exit 2, never "pass"
        source = design.source
        report = ErrorReport()
        report.add(source.path if source is not None else design.folder / "design.yaml", None,
                   f"the design does not build ({type(exc).__name__}: {exc}); expected `pnp build` to succeed "
                   "(run it for details)")
        report.raise_if_any()
        raise
    langs = languages(design)
    books = f", rulebooks {', '.join(langs)}" if langs else ", no rulebook text"
    return CheckResult("build", True, f"{built.faces} faces, {built.sheets} print sheets{books} render "
                       "(nothing written)", proves="`pnp build` makes every file of this design without an error")


def check_design(design: Design, games: int = 200, seed: int = 1, agent: str | None = None) -> DesignReport:
    """The checks of one loaded design (games=0: the static checks only, no simulation)."""
    if not design.game:
        return DesignReport(design, [], note="no rules checks: this design names no game (add 'game:' to check "
                                             "its rules)")
    from pnp.engine.records import shared_games  # lazy: 41 ms (pnp.engine.records)
    from pnp.simulate import resolve_agent  # lazy: 38 ms (pnp.simulate)

    entry = get_game(design.game)
    if entry is None or entry.checks is None:
        return DesignReport(design, [], note=f"no rules checks: game '{design.game}' registers none")
    agent, source = resolve_agent(design.game, agent)
    with shared_games():  # the game's own simulation check and playability share their seeded games
        results = list(entry.checks(design, games=games, seed=seed, agent=agent))
        if games > 0 and entry.engine is not None:
            results.append(playability(design, min(games, PLAYABILITY_GAMES), seed, agent))
    return DesignReport(design, results, agent=agent, agent_source=source)


def playability(design: Design, games: int, seed: int, agent: str) -> CheckResult:
    """Seeded games at every player count end by the rules, not by the engine's safety cap."""
    from pnp.engine.records import game_records  # lazy: 27 ms (pnp.engine.records)
    from pnp.simulate import CAP_MOST  # lazy: 60 ms (pnp.simulate)

    details, failed, warned = [], False, False
    for n in player_counts(design):
        try:
            load_engine(design, n)  # a player count the engine refuses is a message, not a worker's traceback
            records = game_records(design.folder, n, agent, seed, games)
        except PnpError as exc:
            return CheckResult("playability", False, f"the rules engine cannot play {n} players", [str(exc)])
        capped = sum(1 for r in records if r.metrics.get("capped"))
        line = f"{n} players: {games - capped} of {games} {agent} games ended by the rules"
        if capped:
            line += f", {capped} stopped at the safety cap (counted as draws)"
            if capped > CAP_MOST * games:
                failed = True
            else:
                warned = True
        details.append(line)
    proves = (f"the rules engine plays this design to an end its rules define, at every player count, with {agent} "
              "players")
    seeds = f"seeds {seed}..{seed + games - 1}"
    if failed:
        return CheckResult("playability", False, f"the safety cap, not the rules, ended most {agent} games ({seeds}); "
                           "nothing about how the game ends is shown: try the game's default agent or mcts:N",
                           details, proves=proves)
    if warned:
        return CheckResult("playability", True, f"{agent} games ({seeds}) end, some only at the safety cap",
                           details, proves=proves, warning=True)
    return CheckResult("playability", True, f"every {agent} game ({seeds}) ended by the rules", details, proves=proves)


def format_report(reports: Sequence[DesignReport]) -> str:
    lines = []
    for rep in reports:
        d = rep.design
        ran = bool(rep.results)
        head = ("all checks pass" if rep.ok else "FAILED") if ran else "no checks"
        lines.append(f"{d.slug} ({d.meta.title}): {head}")
        if rep.agent:
            how = "the game's default" if rep.agent_source == "default" else "asked with --agent"
            lines.append(f"  agent  simulation checks played by {rep.agent} agents ({how})")
        if rep.note:
            lines.append(f"  note  {rep.note}")
        for r in rep.results:
            tag = "FAIL" if not r.ok else ("warn" if r.warning else "ok  ")
            lines.append(f"  {tag}  {r.name}: {r.message}")
            lines.extend(f"          {line}" for line in r.details)
            if r.proves:
                lines.append(f"          proves: {r.proves}")
    failed = sum(not r.ok for rep in reports for r in rep.results)
    warned = sum(r.ok and r.warning for rep in reports for r in rep.results)
    total = sum(len(rep.results) for rep in reports)
    without = [rep.design.slug for rep in reports if not rep.results]
    if total:
        lines.append(f"{total - failed} of {total} checks pass" + (f", {failed} fail" if failed else "")
                     + (f", {warned} with a warning" if warned else "")
                     + (f"; no checks for {', '.join(without)}" if without else ""))
    else:
        lines.append("no checks ran: " + "; ".join(rep.note or f"{rep.design.slug}: no checks" for rep in reports))
    return "\n".join(lines)


def exit_code(reports: Sequence[DesignReport]) -> int:
    return 0 if all(rep.ok for rep in reports) else 1
