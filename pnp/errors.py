"""Errors a designer can act on: `file:line: what is wrong; what is expected`.

Problems are collected (ErrorReport) and raised once, the way mkdocs validates its
config, so a designer fixes every problem of a design in one pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}"


class PnpError(Exception):
    """Base of every error pnp reports to a user as a message, not a traceback."""

    exit_code = 2


class DesignError(PnpError):
    """One or more problems in a design's input files."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems), key=lambda p: (p.file, p.line or 0, p.message))
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self):  # pickles with its problems (faces are painted in worker processes)
        return (DesignError, (self.problems,))


@dataclass
class ErrorReport:
    """Collects problems; `raise_if_any` raises them together as one DesignError."""

    problems: list[Problem] = field(default_factory=list)

    def add(self, file: str | Path, line: int | None, message: str) -> None:
        self.problems.append(Problem(display_path(file), line, message))

    def extend(self, other: "ErrorReport | DesignError") -> None:
        self.problems.extend(other.problems)

    def __bool__(self) -> bool:
        return bool(self.problems)

    def raise_if_any(self) -> None:
        if self.problems:
            raise DesignError(self.problems)


def display_path(path: str | Path) -> str:
    """A path as the designer typed it: relative to the working directory when below it."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)
