"""Safe YAML loading that remembers where every value came from.

PyYAML's composed nodes carry line marks; we build plain Python data from them and keep
a table `location -> line` so that any later check (pydantic, generators, games) can
cite `file:line`. Only the safe constructor is used: YAML is data, never code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pnp.errors import ErrorReport, display_path

Loc = tuple[str | int, ...]


@dataclass
class Document:
    """Parsed YAML data plus the line of every key and list item (1-based)."""

    path: Path
    data: Any
    lines: dict[Loc, int] = field(default_factory=dict)

    def line(self, loc: Loc) -> int | None:
        """Line of `loc`, or of its nearest ancestor that has one."""
        loc = tuple(loc)
        while loc:
            if loc in self.lines:
                return self.lines[loc]
            loc = loc[:-1]
        return self.lines.get((), None)

    @property
    def name(self) -> str:
        return display_path(self.path)


def read_text_utf8(path: Path, report: ErrorReport) -> str | None:
    """The file's text, or None with a problem reported (missing, or not UTF-8 with the line of the bad byte)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        report.add(path, None, "file not found; expected it to exist")
        return None
    except OSError as exc:
        report.add(path, None, f"cannot read the file ({exc.strerror}); expected a readable file")
        return None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        report.add(
            path,
            line,
            f"byte 0x{raw[exc.start]:02X} at column {col} is not UTF-8; "
            "expected a UTF-8 text file (re-save it as UTF-8)",
        )
        return None


def load_yaml(path: Path) -> Document:
    """Load one YAML file; raises DesignError with file:line for I/O, encoding and syntax problems."""
    report = ErrorReport()
    text = read_text_utf8(path, report)
    report.raise_if_any()
    return parse_yaml(text, path)


def parse_yaml(text: str, path: Path) -> Document:
    report = ErrorReport()
    doc = Document(path=path, data=None)
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is not None:
            doc.data = _build(node, (), doc, loader, report)
        doc.lines.setdefault((), 1)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        report.add(path, mark.line + 1 if mark else None, f"YAML syntax error: {problem}; expected valid YAML")
    except yaml.YAMLError as exc:
        report.add(path, None, f"YAML error: {exc}; expected valid YAML")
    finally:
        loader.dispose()
    report.raise_if_any()
    return doc


def _build(node: yaml.Node, loc: Loc, doc: Document, loader: yaml.SafeLoader, report: ErrorReport) -> Any:
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)  # resolves `<<` merge keys
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            if not isinstance(key, (str, int)):
                report.add(doc.path, line, f"key {key!r} is not a name; expected a text key")
                continue
            if key in result:
                first = doc.lines.get(loc + (key,))
                report.add(doc.path, line, f"duplicate key '{key}' (first at line {first}); expected each key once")
                continue
            doc.lines[loc + (key,)] = line
            result[key] = _build(value_node, loc + (key,), doc, loader, report)
        return result
    if isinstance(node, yaml.SequenceNode):
        items = []
        for i, item in enumerate(node.value):
            doc.lines[loc + (i,)] = item.start_mark.line + 1
            items.append(_build(item, loc + (i,), doc, loader, report))
        return items
    return loader.construct_object(node, deep=True)
