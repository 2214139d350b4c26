"""`pnp validate`: load designs, run their game's completeness checks, report.

A game registers `checks=f` with pnp.registry, `f(design, games=N, seed=S, agent=A) -> list[CheckResult]`
(A: the agent of the simulation checks, 'random' or 'greedy').
Nothing here knows any game. Exit codes (pnp.cli): 0 every check passes, 1 a check
fails, 2 bad input (a design that does not load raises DesignError).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pnp import registry
from pnp.loader import find_designs, load_designs, resolve_design
from pnp.model import Design


@dataclass
class CheckResult:
    """One check: its name, whether it passed, a one-line message and optional detail lines."""

    name: str
    ok: bool
    message: str
    details: list[str] = field(default_factory=list)


@dataclass
class DesignReport:
    design: Design
    results: list[CheckResult]
    note: str = ""

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)


def validate(designs: Sequence[str] = (), games: int = 200, seed: int = 1,
             agent: str = "random") -> list[DesignReport]:
    """Check each design (default: every design under designs/); DesignError when one does not load."""
    folders = [resolve_design(d) for d in designs] if designs else find_designs()
    return [check_design(design, games=games, seed=seed, agent=agent) for design in load_designs(folders)]


def check_design(design: Design, games: int = 200, seed: int = 1, agent: str = "random") -> DesignReport:
    """The checks of one loaded design (games=0: the static checks only, no simulation)."""
    game = registry.get_game(design.game) if design.game else None
    checks = game.checks if game else None
    if checks is None:
        return DesignReport(design, [], note="no rules checks registered for this design")
    return DesignReport(design, list(checks(design, games=games, seed=seed, agent=agent)))


def format_report(reports: Sequence[DesignReport]) -> str:
    lines = []
    for rep in reports:
        d = rep.design
        lines.append(f"{d.slug} ({d.meta.title}): {'all checks pass' if rep.ok else 'FAILED'}")
        if rep.note:
            lines.append(f"  note  {rep.note}")
        for r in rep.results:
            lines.append(f"  {'ok  ' if r.ok else 'FAIL'}  {r.name}: {r.message}")
            lines.extend(f"          {line}" for line in r.details)
    failed = sum(not r.ok for rep in reports for r in rep.results)
    total = sum(len(rep.results) for rep in reports)
    lines.append(f"{total - failed} of {total} checks pass" + (f", {failed} fail" if failed else ""))
    return "\n".join(lines)


def exit_code(reports: Sequence[DesignReport]) -> int:
    return 0 if all(rep.ok for rep in reports) else 1
