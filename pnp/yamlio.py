"""Safe, bounded YAML loading that remembers where every value came from.

PyYAML's composed nodes carry line marks; we build plain Python data from them and keep
a table `location -> line` so that any later check (pydantic, generators, games) can
cite `file:line`. Only the safe constructor is used: YAML is data, never code.

A YAML file is untrusted: before anything is constructed, one pass over the parser's
events bounds the nesting (pnp.limits `yaml_depth`), and one pass over the composed node
graph refuses recursive aliases and counts every value as often as aliases repeat it
(`yaml_nodes`), so an alias bomb is refused in milliseconds without being expanded.
Dates stay text (`date: 2024-05-01` is the string the designer wrote).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pnp.errors import DesignError, ErrorReport, Problem, display_path
from pnp.limits import LIMITS, limit

Loc = tuple[str | int, ...]

_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_SURROGATE = re.compile("[\ud800-\udfff]")


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


def read_text_utf8(path: Path, report: ErrorReport, files=None, limit_name: str = "yaml_bytes") -> str | None:
    """The file's text, or None with a problem reported (missing, refused, too large, or not UTF-8 with the
    line of the bad byte). Reads through `files` (pnp.confine.DesignFiles; default: the file's own folder)."""
    from pnp.confine import DesignFiles  # lazy: 11 ms (pnp.confine)

    path = Path(path)
    if not path.exists() and not path.is_symlink():
        report.add(path, None, "file not found; expected it to exist")
        return None
    files = files or DesignFiles(path.parent)
    try:
        return files.read_text(path, limit_name)
    except DesignError as exc:
        report.extend(exc)
        return None


def load_yaml(path: Path, files=None) -> Document:
    """Load one YAML file; raises DesignError with file:line for I/O, encoding, syntax and size problems."""
    report = ErrorReport()
    text = read_text_utf8(path, report, files)
    report.raise_if_any()
    return parse_yaml(text, path)  # type: ignore[arg-type]


_FAST = getattr(yaml, "CSafeLoader", None)  # LibYAML's parser (6x faster), when PyYAML was built with it


def parse_yaml(text: str, path: Path) -> Document:
    if _FAST is not None:
        try:
            return _parse(text, path, _FAST)
        except Exception:  # any problem is told as the pure-Python parser tells it (the same messages wherever
            pass  # pnp runs, LibYAML's differ), by parsing again with it
    return _parse(text, path, yaml.SafeLoader)


def _parse(text: str, path: Path, loader_class: Any) -> Document:
    report = ErrorReport()
    doc = Document(path=path, data=None)
    try:
        _check_events(text, path, loader_class)
        loader = loader_class(text)
        try:
            node = loader.get_single_node()
            if node is not None:
                _check_graph(node, path)
                doc.data = _build(node, (), doc, loader, report)
            doc.lines.setdefault((), 1)
        finally:
            loader.dispose()
    except DesignError as exc:
        report.extend(exc)
    except yaml.reader.ReaderError as exc:
        report.add(path, *_reader_problem(text, exc))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        report.add(path, mark.line + 1 if mark else None, f"YAML syntax error: {problem}; expected valid YAML")
    except yaml.YAMLError as exc:
        report.add(path, None, f"YAML error: {exc}; expected valid YAML")
    report.raise_if_any()
    return doc


def _reader_problem(text: str, exc: yaml.reader.ReaderError) -> tuple[int, str]:
    """A character YAML refuses (control characters, U+FFFE...): its line, column and a fix."""
    pos = exc.position if isinstance(exc.position, int) else 0
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "?")
    return line, (f"control character U+{code:04X} at column {col}; expected printable text (delete it, or write "
                  f"it as \"\\x{code:02x}\" inside double quotes)" if code < 0x100 else
                  f"character U+{code:04X} at column {col} is not allowed in YAML; expected printable text")


def _check_events(text: str, path: Path, loader_class: Any = yaml.SafeLoader) -> None:
    """Bound the nesting and the number of written values before anything is composed (PyYAML's composer
    recurses once per level: 900 levels would end in a RecursionError)."""
    most_depth, most_nodes = limit("yaml_depth"), limit("yaml_nodes")
    depth = nodes = 0
    loader = loader_class(text)
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > most_depth:
                    raise _bound(path, event.start_mark.line + 1, "yaml_depth", "lists and mappings nested more "  # type: ignore[union-attr]
                                 f"than {most_depth} levels deep")
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
            if isinstance(event, (yaml.NodeEvent,)):
                nodes += 1
                if nodes > most_nodes:
                    raise _bound(path, event.start_mark.line + 1, "yaml_nodes", f"more than {most_nodes} values in "  # type: ignore[union-attr]
                                 "the file")
    finally:
        loader.dispose()


def _bound(path: Path, line: int | None, name: str, found: str) -> DesignError:
    lim = LIMITS[name]
    return DesignError([Problem(display_path(path), line, f"{found}; expected at most {lim.value} {lim.unit}")])


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _check_graph(root: yaml.Node, path: Path) -> None:
    """Refuse recursive aliases, and values that aliases expand beyond the limits, without expanding them:
    one depth-first walk of the composed graph (each node once), sizes and depths memoised per node."""
    most_nodes, most_depth = limit("yaml_nodes"), limit("yaml_depth")
    grey, done = set(), {}  # type: ignore[var-annotated]  # id -> (expanded values, depth)
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, post = stack.pop()
        key = id(node)
        if post:
            kids = [done[id(c)] for c in _children(node)]
            size = 1 + sum(k[0] for k in kids)
            depth = 1 + max((k[1] for k in kids), default=0)
            grey.discard(key)
            done[key] = (size, depth)
            line = node.start_mark.line + 1
            if size > most_nodes:
                raise _bound(path, line, "yaml_nodes", f"this value expands to {size} values (each alias counted "
                             "as often as it is used)")
            if depth > most_depth:
                raise _bound(path, line, "yaml_depth", f"aliases nest this value {depth} levels deep")
            continue
        if key in done:
            continue
        grey.add(key)
        stack.append((node, True))
        for child in _children(node):
            if id(child) in grey:
                raise DesignError([Problem(display_path(path), child.start_mark.line + 1,
                                           "recursive alias: this value contains an alias of itself; expected "
                                           "aliases (*name) to refer to values that do not contain them")])
            if id(child) not in done:
                stack.append((child, False))


def _construct(node: yaml.Node, loader: yaml.SafeLoader, doc: Document, report: ErrorReport) -> Any:
    if isinstance(node, yaml.ScalarNode) and node.tag == _TIMESTAMP:
        return node.value  # a date is the text the designer wrote
    try:
        value = loader.construct_object(node, deep=True)
        return _whole_text(value, node, doc, report) if isinstance(value, str) and not value.isascii() else value
    except yaml.YAMLError:
        raise
    except (ValueError, TypeError, OverflowError) as exc:
        line = node.start_mark.line + 1
        if "digits" in str(exc) and isinstance(node, yaml.ScalarNode):
            most = sys.get_int_max_str_digits()
            report.add(doc.path, line, f"a number of {len(node.value)} digits; expected at most {most} digits")
        else:
            report.add(doc.path, line, f"value {_short(node)} cannot be read ({exc}); expected a number, text, a list "
                       "or a mapping")
        return None


def _whole_text(value: str, node: yaml.Node, doc: Document, report: ErrorReport) -> str | None:
    """A text written with \\u escapes of UTF-16 surrogates: a pair ("\\ud83d\\ude00", as JSON writes 😀) is its
    character; a lone one is not a character at all (it cannot be saved as UTF-8): a message at its line."""
    if not _SURROGATE.search(value):
        return value
    try:
        return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError as exc:
        lone = int.from_bytes(exc.object[exc.start:exc.start + 2], "little")
        report.add(doc.path, node.start_mark.line + 1, f"the text holds U+{lone:04X}, half of a UTF-16 surrogate pair "
                   "without its other half, which is not a character; expected Unicode text (write \"\\U0001F600\" "
                   "for 😀)")
        return None


def _short(node: yaml.Node) -> str:
    text = repr(node.value) if isinstance(node, yaml.ScalarNode) else f"<{node.tag}>"
    return text if len(text) <= 40 else text[:37] + "..."


def _build(node: yaml.Node, loc: Loc, doc: Document, loader: yaml.SafeLoader, report: ErrorReport) -> Any:
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)  # resolves `<<` merge keys
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _construct(key_node, loader, doc, report)
            line = key_node.start_mark.line + 1
            if not isinstance(key, (str, int)):
                report.add(doc.path, line, f"key {_short(key_node)} is not a name; expected a text key")
                continue
            if key in result:
                first = doc.lines.get(loc + (key,))
                report.add(doc.path, line, f"duplicate key '{key}' (first at line {first}); expected each key once")
                continue
            if result and isinstance(key, int) != isinstance(next(iter(result)), int):
                report.add(doc.path, line, f"key {key!r} is {'a number' if isinstance(key, int) else 'text'} among "
                           f"{'text' if isinstance(key, int) else 'number'} keys; expected the keys of one mapping to "
                           "be all numbers or all text (quote the numbers: \"2\":)")
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
    return _construct(node, loader, doc, report)
