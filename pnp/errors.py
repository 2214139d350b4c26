"""Errors a designer can act on: `file:line: what is wrong; what is expected`.

Problems are collected (ErrorReport) and raised once, the way mkdocs validates its
config, so a designer fixes every problem of a design in one pass.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.machinery  # (loaded by Python itself before any module of ours)
import os
import re
import sys
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, unquote


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


class NamedFile:
    """A file the user names on the command line for pnp to write (`--plot sweep.svg`): checked before the work
    that fills it (its folder made, a file there can be created), written whole afterwards; each failure a
    PnpError `--plot PATH: what; expected ...`, never a traceback."""

    def __init__(self, path: Path, option: str):
        import tempfile  # lazy: 6.3 ms (tempfile)

        self.path, self.option = Path(path), option
        try:
            if self.path.is_dir():
                raise IsADirectoryError(21, "it is a folder")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, probe = tempfile.mkstemp(prefix=".pnp-probe-", dir=self.path.parent)
            os.close(fd)
            os.unlink(probe)
        except OSError as exc:
            raise self._error(exc) from None

    def _error(self, exc: OSError) -> PnpError:
        return PnpError(f"{self.option} {self.path}: cannot be written ({exc.strerror or exc}); expected a file path "
                        "in a folder you can write to")

    def write(self, text: str) -> None:
        tmp = self.path.with_name(f".{self.path.name}.pnp-tmp")
        try:
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise self._error(exc) from None


class DesignError(PnpError):
    """One or more problems in a design's input files."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems), key=lambda p: (p.file, p.line or 0, p.message))
        super().__init__("\n".join(str(p) for p in _collapse_rows(self.problems)))

    def __reduce__(self):  # pickles with its problems (faces are painted in worker processes)
        return (DesignError, (self.problems,))


_ROW = re.compile(r" \(filling row ([^()]+)\)")


def _collapse_rows(problems: list[Problem], shown: int = 3) -> list[Problem]:
    """The same template mistake for several rows of a data table is one line: the count of rows it hits and the
    first rows, sorted by number (`cards.csv:2` before `cards.csv:10`)."""
    groups: dict[tuple, list[str]] = {}
    for p in problems:
        m = _ROW.search(p.message)
        key = (p.file, p.line, _ROW.sub(" (filling row *)", p.message)) if m else (p.file, p.line, p.message)
        groups.setdefault(key, []).append(m.group(1) if m else "")
    out = []
    for (file, line, message), rows in groups.items():
        if not all(rows):
            out += [Problem(file, line, message) for _ in rows]
            continue
        rows = sorted(set(rows), key=_row_order)
        if len(rows) == 1:
            listed = f"(filling row {rows[0]})"
        else:
            more = f" and {len(rows) - shown} more" if len(rows) > shown else ""
            listed = f"(filling {len(rows)} rows: {', '.join(rows[:shown])}{more})"
        out.append(Problem(file, line, message.replace("(filling row *)", listed)))
    return out


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


def bug_report(args: list[str], command: str | None, exc: BaseException) -> str:
    """One line for an exception that is not a design problem: the command line, the designs it names, the
    exception, and what to do."""
    words, skip = [], False
    after = args[args.index(command) + 1:] if command in args else []
    for word in after:  # the designs: words after the command that are not options or their values
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = "=" not in word and word not in _FLAGS
        else:
            words.append(word)
    designs = "design " + ", ".join(words) if words else "every design under ./designs"
    text = " ".join(str(exc).split())
    text = text if len(text) <= 200 else text[:197] + "..."
    return (f"pnp: internal error in `pnp {' '.join(args)}` ({designs}): {type(exc).__name__}: {text}; this is a "
            "bug in pnp, please report it with the design (`pnp --debug ...` shows the traceback)")


_FLAGS = {"--proof", "--print-shop", "--pdfx", "--exports", "--no-exports", "--cache", "--no-cache", "--json", "--first-game",
          "--debug", "-h", "--help"}


def display_path(path: str | Path) -> str:
    """A path as the designer typed it: relative to the working directory when below it."""
    return _display(os.fspath(path), os.getcwd())


@functools.lru_cache(maxsize=4096)
def _display(path: str, cwd: str) -> str:
    p = Path(os.path.abspath(path))  # links keep their own name: a design.yaml linked elsewhere is still d/design.yaml
    for base in (Path(os.path.abspath(cwd)), Path(cwd).resolve()):
        try:
            return str(p.relative_to(base))
        except ValueError:
            continue
    return path


# --- warnings --------------------------------------------------------------------------
#
# A warning does not stop the build: a component with no copies, a library's complaint
# about an SVG (svglib, cairosvg, reportlab log them; Python `warnings`). They are
# collected here — never printed raw — with the file (and line) of the template, SVG or
# design they came from, and the command reports them at its end as
# `file:line: warning: what`. Work done in forked workers sends its warnings back
# with its results (pnp.parallel).

class WarningLog:
    """The warnings of one build context, and what library messages are about while it runs."""

    def __init__(self) -> None:
        self.warnings: dict[Problem, None] = {}  # insertion-ordered set
        self.sources: list[tuple[str, int | None]] = []  # stack of what is being worked on, for library messages
        self.design_folders: dict[str, Path] = {}  # design folder name -> folder, to read source comments back


def _log() -> WarningLog:
    from pnp.context import current  # lazy: cycle pnp.errors -> pnp.context -> pnp.errors

    return current().warnings

LIBRARY_LOGGERS = ("svglib", "cairosvg", "cssselect2", "tinycss2", "reportlab", "PIL", "fontTools")


def close_match(word: str, names) -> str | None:
    """The closest of `names` to `word`, for a message's "did you mean" (difflib, imported only then)."""
    import difflib  # lazy: 2.3 ms (difflib)

    found = difflib.get_close_matches(word, [str(n) for n in names], n=1)
    return found[0] if found else None


def warn(file: str | Path, line: int | None, message: str) -> None:
    """Record a warning about `file:line`."""
    _log().warnings.setdefault(Problem(display_path(file), line, message), None)


def add_warnings(problems: list[Problem]) -> None:
    log = _log().warnings
    for p in problems:
        log.setdefault(p, None)


def drain_warnings() -> list[Problem]:
    """Every warning recorded so far, in order, and forget them."""
    log = _log().warnings
    out = list(log)
    log.clear()
    return out


def format_warnings(problems: list[Problem], most: int = 50) -> str:
    """One line per warning, `file:line: warning: what`; the same warning about many rows of a data table is one
    line listing the rows."""
    groups: dict[tuple[str, int | None, str], list[str]] = {}
    for p in problems:
        file, _, row = p.file.partition(" (row ")
        groups.setdefault((file, p.line, p.message), []).append(row.rstrip(")"))
    lines = []
    for (file, line, message), rows in groups.items():
        rows = sorted({r for r in rows if r}, key=_row_order)
        where = f"{file}:{line}" if line else file
        if rows:
            shown = ", ".join(rows[:3]) + (f" and {len(rows) - 3} more" if len(rows) > 3 else "")
            message += f" (row {shown})" if len(rows) == 1 else f" ({len(rows)} rows: {shown})"
        lines.append(f"{where}: warning: {message}")
    if len(lines) > most:
        lines = lines[:most] + [f"... and {len(lines) - most} more warnings"]
    return "\n".join(lines)


def _row_order(row: str) -> tuple[str, int]:
    file, _, line = row.rpartition(":")
    return (file, int(line)) if line.isdigit() else (row, 0)


class warnings_from:
    """`with warnings_from(path, line):` library messages while this runs are warnings about `path:line`."""

    def __init__(self, file: str | Path, line: int | None = None):
        self.where = (display_path(file), line)

    def __enter__(self):
        _log().sources.append(self.where)
        return self

    def __exit__(self, *exc) -> None:
        _log().sources.pop()


def remember_design_folder(folder: Path) -> None:
    """So that warnings about this design's faces show its paths as messages do (call before forking workers)."""
    _log().design_folders[Path(folder).name] = Path(folder)


def source_comment(folder: Path, file: str | Path, row: tuple[str | Path, int | None] | None = None) -> str:
    """The XML comment a face's SVG carries to name what it was made from, e.g.
    `<!-- made by pnp from x/templates/front.svg.j2 (row x/cards.csv:3) -->`, paths from the design folder's
    parent (the same wherever pnp runs): a designer opening the SVG sees it, and a library warning about this SVG
    is reported against it."""
    base = os.fspath(folder)
    known = _log().design_folders.get(os.path.basename(base))
    if known is None or os.fspath(known) != base:  # (a deck's faces share it: no Path made for each)
        remember_design_folder(Path(base))
    text = _from_folder(base, os.fspath(file)) + (f" (row {_from_folder(base, os.fspath(row[0]))}:{row[1]})"
                                                  if row else "")
    return f"<!-- made by pnp from {text.replace('--', '%2D%2D')} -->"


@functools.lru_cache(maxsize=1024)
def _from_folder(folder: str, path: str) -> str:
    """`path` as named from the design folder's parent (x/templates/front.svg.j2), else its file name."""
    try:
        return str(Path(Path(folder).name) / Path(path).relative_to(folder))
    except ValueError:
        return Path(path).name


def with_source_comment(svg: str, folder: Path, file: str | Path,
                        row: tuple[str | Path, int | None] | None = None) -> str:
    """`svg` with its source comment after the XML declaration (or first)."""
    comment = source_comment(folder, file, row)
    if svg.startswith("<?xml"):
        end = svg.find("?>") + 2
        return svg[:end] + "\n" + comment + svg[end:]
    return comment + "\n" + svg


_MARK = re.compile(r"<!-- made by pnp from (.+?)(?: \(row (.+?)\))? -->")
_WARNED = re.compile(r"<!-- pnp-warning (\S+) (\d+) (\S+) -->")


def with_warning_marks(svg: str, warnings: Iterable[tuple[str, int | None, str]], folder: str | Path) -> str:
    """`svg` carrying `warnings` (file, line, message: a text box that overflows, a raster under 300 dpi...)
    as comments after its XML declaration (or first), so that a rebuild that takes the face from the cache
    reports them again (`replay_warnings`). Paths are kept relative to the design folder: a cached face may
    be shown for a copy of the design elsewhere."""
    here = display_path(folder)

    def mark(text: str) -> str:  # no "--" may stand in an XML comment
        return quote(text, safe="/{}").replace("-", "%2D")

    marks = "".join(f"<!-- pnp-warning {mark(_in_design(str(file), here))} {line or 0} "
                    f"{mark(message.replace(here + '/', '{design}/'))} -->\n" for file, line, message in warnings)
    if not marks:
        return svg
    if svg.startswith("<?xml"):
        end = svg.find("?>") + 2
        return svg[:end] + "\n" + marks.rstrip("\n") + svg[end:]
    return marks + svg


def read_marks(svg: str) -> tuple[str | None, tuple[str, int] | None, list[tuple[str, int | None, str]]]:
    """What a face's SVG says of itself: the template it was made from and its data row (`source_comment`), paths
    from the design folder's parent (x/templates/front.svg.j2, (x/cards.csv, 3)), and the warnings it carries
    (`with_warning_marks`: file, line, message, paths in the design folder as {design}/...)."""
    m = _MARK.search(svg[:2000])
    template = row = None
    if m:
        template = m.group(1).replace("%2D%2D", "--")
        if m.group(2):
            file, _, line = m.group(2).rpartition(":")
            row = (file.replace("%2D%2D", "--"), int(line)) if line.isdigit() else None
    warnings = [(unquote(w.group(1)), int(w.group(2)) or None, unquote(w.group(3)))
                for w in _WARNED.finditer(svg)] if "<!-- pnp-warning" in svg else []
    return template, row, warnings


def _in_design(file: str, here: str) -> str:
    return "{design}/" + file[len(here) + 1:] if file.startswith(here + "/") else file


def warnings_mark() -> int:
    """Where the warnings recorded so far end: `warnings_since(mark)` gives those recorded after."""
    return len(_log().warnings)


def warnings_since(mark: int) -> list[Problem]:
    return list(_log().warnings)[mark:]


def portable_warnings(problems: Iterable[Problem], folder: str | Path) -> str:
    """`problems` as text a cached product can carry (paths inside the design folder kept relative to it, as
    `with_warning_marks` keeps them): `replay_portable` records them again."""
    import json  # lazy: 2.2 ms (json)

    here = display_path(folder)
    return json.dumps([[_in_design(p.file, here), p.line, p.message.replace(here + "/", "{design}/")]
                       for p in problems], ensure_ascii=False)


def replay_portable(text: str, folder: str | Path) -> None:
    """The warnings `portable_warnings` wrote, recorded again for the design in `folder`."""
    import json  # lazy: 2.8 ms (json)

    here = display_path(folder)
    try:
        items = json.loads(text)
    except ValueError:
        return
    for item in items if isinstance(items, list) else []:
        if isinstance(item, list) and len(item) == 3:
            file, line, message = item
            warn(str(file).replace("{design}", here, 1), line if isinstance(line, int) else None,
                 str(message).replace("{design}", here))


def replay_warnings(svg: str, folder: str | Path) -> None:
    """The warnings a cached face's SVG carries (`with_warning_marks`), recorded again, for the design in
    `folder`."""
    if "<!-- pnp-warning" not in svg:
        return
    here = display_path(folder)
    for m in _WARNED.finditer(svg):
        warn(unquote(m.group(1)).replace("{design}", here, 1), int(m.group(2)) or None,
             unquote(m.group(3)).replace("{design}", here))


def _shown(path: str) -> str:
    """A path of a source comment as messages show it (relative to the working directory)."""
    path = path.replace("%2D%2D", "--")
    head, _, rest = path.partition("/")
    folder = _log().design_folders.get(head)
    return display_path(folder / rest) if folder is not None and rest else path


def _marked(value: object) -> tuple[str, int | None] | None:
    head = value[:600] if isinstance(value, (str, bytes, bytearray)) else None
    if head is None:
        return None
    if not isinstance(head, str):
        head = bytes(head).decode("utf-8", "replace")
    m = _MARK.search(head)
    if not m:
        return None
    if m.group(2):
        file, _, line = m.group(2).rpartition(":")
        return f"{_shown(m.group(1))} (row {_shown(file)}:{line})", None
    return _shown(m.group(1)), None


def _current_source() -> tuple[str, int | None]:
    """What the warning is about: the innermost `warnings_from`, else the face whose SVG a library is reading (its
    source comment, found among the callers' arguments), else pnp itself."""
    sources = _log().sources
    if sources:
        return sources[-1]
    frame = sys._getframe(1)
    for _ in range(60):
        if frame is None:
            break
        for value in frame.f_locals.values():
            found = _marked(value)
            if found:
                return found
        frame = frame.f_back  # type: ignore[assignment]
    return ("pnp", None)


class _Collector:
    """A logging handler and a `warnings.showwarning` that turn library output into pnp warnings."""

    installed = False

    def __init__(self) -> None:
        import logging  # lazy: 6.7 ms (logging)

        class Handler(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                try:
                    text = record.getMessage()
                except Exception:  # a library's malformed log call must not stop the build
                    text = str(record.msg)
                name = record.name.split(".")[0]
                warn(*_current_source(), f"{name}: {' '.join(text.split())}")

        self.handler = Handler(level=logging.WARNING)


def _showwarning(message, category, filename, lineno, file=None, line=None) -> None:
    warn(*_current_source(), f"{category.__name__}: {' '.join(str(message).split())}")


class _OnLoggingImport:
    """An import finder that finds nothing itself: the first import of `logging` (by a library that logs: Pillow,
    fontTools) is left to the usual finders, and once it has run, library log messages become pnp warnings. A
    build that loads no such library does not pay for logging (6 ms)."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != "logging":
            return None
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(_OnLoggingImport)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader

        class _Then:
            @staticmethod
            def create_module(spec):
                return loader.create_module(spec)

            @staticmethod
            def exec_module(module):
                loader.exec_module(module)
                if not _Collector.installed:
                    _install_collector()

        spec.loader = _Then  # type: ignore[assignment]
        return spec


def capture_library_output() -> None:
    """From now on, library log messages and Python warnings become pnp warnings (idempotent)."""
    warnings.showwarning = _showwarning  # again each time: a `catch_warnings` block may have put its own back
    if _Collector.installed:
        return
    if "logging" not in sys.modules:  # (no library that logs is loaded yet: installed when one imports logging)
        if _OnLoggingImport not in sys.meta_path:
            sys.meta_path.insert(0, _OnLoggingImport)
        return
    _install_collector()


def _install_collector() -> None:
    import logging  # lazy: 6.7 ms (logging): loaded by then when called from _OnLoggingImport

    collector = _Collector()
    for name in LIBRARY_LOGGERS:
        logger = logging.getLogger(name)
        logger.addHandler(collector.handler)
        logger.propagate = False
    _Collector.installed = True
