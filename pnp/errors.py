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


# --- warnings --------------------------------------------------------------------------
#
# A warning does not stop the build: a component with no copies, a library's complaint
# about an SVG (svglib, cairosvg, reportlab log them; Python `warnings`). They are
# collected here — never printed raw — with the file (and line) of the template, SVG or
# design they came from, and the command reports them at its end as
# `file:line: warning: what`. Work done in forked workers sends its warnings back
# with its results (pnp.parallel).

_WARNINGS: dict[Problem, None] = {}  # insertion-ordered set
_SOURCE: list[tuple[str, int | None]] = []  # stack of what is being worked on, for library messages

LIBRARY_LOGGERS = ("svglib", "cairosvg", "cssselect2", "tinycss2", "reportlab", "PIL", "fontTools")


def warn(file: str | Path, line: int | None, message: str) -> None:
    """Record a warning about `file:line`."""
    _WARNINGS.setdefault(Problem(display_path(file), line, message), None)


def add_warnings(problems: list[Problem]) -> None:
    for p in problems:
        _WARNINGS.setdefault(p, None)


def drain_warnings() -> list[Problem]:
    """Every warning recorded so far, in order, and forget them."""
    out = list(_WARNINGS)
    _WARNINGS.clear()
    return out


def format_warnings(problems: list[Problem], most: int = 50) -> str:
    lines = [f"{p.file}:{p.line}: warning: {p.message}" if p.line else f"{p.file}: warning: {p.message}"
             for p in problems[:most]]
    if len(problems) > most:
        lines.append(f"... and {len(problems) - most} more warnings")
    return "\n".join(lines)


class warnings_from:
    """`with warnings_from(path, line):` library messages while this runs are warnings about `path:line`."""

    def __init__(self, file: str | Path, line: int | None = None):
        self.where = (display_path(file), line)

    def __enter__(self):
        _SOURCE.append(self.where)
        return self

    def __exit__(self, *exc) -> None:
        _SOURCE.pop()


def _current_source() -> tuple[str, int | None]:
    return _SOURCE[-1] if _SOURCE else ("pnp", None)


class _Collector:
    """A logging handler and a `warnings.showwarning` that turn library output into pnp warnings."""

    installed = False

    def __init__(self) -> None:
        import logging

        class Handler(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                try:
                    text = record.getMessage()
                except Exception:  # a library's malformed log call must not stop the build
                    text = str(record.msg)
                name = record.name.split(".")[0]
                warn(*_current_source(), f"{name}: {' '.join(text.split())}")

        self.handler = Handler(level=logging.WARNING)


def capture_library_output() -> None:
    """From now on, library log messages and Python warnings become pnp warnings (idempotent)."""
    import logging
    import warnings

    if _Collector.installed:
        return
    collector = _Collector()
    for name in LIBRARY_LOGGERS:
        logger = logging.getLogger(name)
        logger.addHandler(collector.handler)
        logger.propagate = False

    def showwarning(message, category, filename, lineno, file=None, line=None):
        warn(*_current_source(), f"{category.__name__}: {' '.join(str(message).split())}")

    warnings.showwarning = showwarning
    _Collector.installed = True
