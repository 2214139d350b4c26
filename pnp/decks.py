"""Rows into decks: which rows of a data table a component takes (`range:`, `where:`), and one component per
value of a column (`group_by:`), the way Squib's `range:` and a `realm` column split one table into decks.

A grouped component becomes one component per value, in the order the values first appear: `cards` grouped by
`realm` gives `cards-fire`, `cards-water`..., each a component of its own for every product (its own print
sheets, its own Tabletop Simulator deck, its own print-service folder, its own section of the contact sheet and
of the manifest), named "Cards: Fire". `where:` is a mapping (a column's value, or one of a list) or a Jinja2
expression evaluated in pnp.sandbox with the row's names; nothing it says runs code.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from pnp import sandbox
from pnp.confine import DesignFiles
from pnp.errors import ErrorReport, close_match, display_path, warn
from pnp.model import Component, Design
from pnp.tables import Row, Table


@dataclass
class Deck:
    """The rows one component (or one group of it) is made of."""

    component_id: str
    component: Component
    rows: list[Row]
    group: tuple[str, Any] | None = None  # (column, value) of a group_by deck
    parent: str = ""  # the component id the group comes from ("" when not grouped)


def select(design: Design, cid: str, comp: Component, table: Table, report: ErrorReport) -> list[Row]:
    """The rows `range:` (by number from 1, in the table's order) and then `where:` keep."""
    doc = design.source
    rows = list(table.rows)
    if comp.range:
        n = len(rows)
        wanted: list[int] = []
        seen: set[int] = set()
        for first, last in comp.range:
            if first > n:
                report.add(doc.path, doc.line(("components", cid, "range")), f"components.{cid}.range: row {first} "
                           f"is past the table's {n} rows; expected row numbers from 1 to {n}")
                return []
            for i in range(first, min(last, n) + 1):
                if i not in seen:
                    seen.add(i)
                    wanted.append(i)
        rows = [rows[i - 1] for i in wanted]
    if comp.where is not None:
        rows = _where(design, cid, comp, table, rows, report)
        if not rows and not report:
            warn(doc.path, doc.line(("components", cid, "where")), f"components.{cid}.where keeps no row of the "
                 "table; the component has no faces")
    return rows


def _where(design: Design, cid: str, comp: Component, table: Table, rows: list[Row],
           report: ErrorReport) -> list[Row]:
    doc = design.source
    line = doc.line(("components", cid, "where"))
    if isinstance(comp.where, dict):
        wanted: dict[str, list[str]] = {}
        for name, value in comp.where.items():
            column = table.find(str(name))
            if column is None:
                report.add(doc.path, doc.line(("components", cid, "where", name)),
                           f"components.{cid}.where: '{name}' is not a column of the table{_did(name, table)} "
                           f"expected one of: {', '.join(table.columns[:30])}")
                return []
            values = value if isinstance(value, list) else [value]
            wanted[column] = [_text(v) for v in values]
        return [r for r in rows if all(_text(_value(r, c)) in vs for c, vs in wanted.items())]
    env = _env(design.folder)
    if any(mark in str(comp.where) for mark in ("{%", "%}", "{{", "}}", "{#", "#}")):
        report.add(doc.path, line, f"components.{cid}.where: holds template markup; expected one expression such as "
                   "realm == 'Fire' or cost > 2")
        return []
    try:
        test = env.from_string("{% if " + str(comp.where) + " %}1{% endif %}")
    except jinja2.TemplateSyntaxError as exc:
        report.add(doc.path, line, f"components.{cid}.where: {exc.message}; expected an expression such as "
                   "realm == 'Fire' or cost > 2")
        return []
    kept = []
    for i, row in enumerate(rows, start=1):
        context = names({**row.values, **({table.count_column: row.count} if table.count_column else {})},
                        table.aliases, i)
        try:
            if sandbox.render(test, context):
                kept.append(row)
        except jinja2.UndefinedError as exc:
            missing = _undefined_name(exc)
            hint = _did(missing, table) if missing else ";"
            report.add(doc.path, line, f"components.{cid}.where: {exc.message}{hint} expected the names of the "
                       f"table's columns (row {_row(row)})")
            return []
        except (jinja2.TemplateError, TypeError, ValueError, ArithmeticError, LookupError, AttributeError,
                *sandbox.RENDER_ERRORS) as exc:
            text = sandbox.describe(exc) if isinstance(exc, sandbox.RENDER_ERRORS) else str(exc)
            report.add(doc.path, line, f"components.{cid}.where: {text} (row {_row(row)}); expected an expression "
                       "that works on every row (a text cell needs |int to be compared with a number)")
            return []
    return kept


def split(design: Design, cid: str, comp: Component, table: Table, rows: list[Row], taken: set[str],
          report: ErrorReport) -> list[Deck]:
    """One Deck, or one per value of `group_by:` (ids `<cid>-<value>`, in the order the values first appear; an id
    another component has, `taken`, gets a number)."""
    if not comp.group_by:
        return [Deck(cid, comp, rows)]
    doc = design.source
    column = table.find(comp.group_by)
    if column is None:
        report.add(doc.path, doc.line(("components", cid, "group_by")), f"components.{cid}.group_by: "
                   f"'{comp.group_by}' is not a column of the table{_did(comp.group_by, table)} expected one of: "
                   f"{', '.join(table.columns[:30])}")
        return []
    groups: dict[str, list[Row]] = {}
    shown: dict[str, Any] = {}
    for row in rows:
        value = _value(row, column)
        groups.setdefault(_text(value), []).append(row)
        shown.setdefault(_text(value), value)
    decks = []
    ids: set[str] = set()
    for key, group in groups.items():
        base = f"{cid}-{slug(key) if key != '' else 'none'}"[:60].rstrip("-")
        gid, n = base, 2
        while gid in ids or gid in taken:
            gid, n = f"{base}-{n}", n + 1
        ids.add(gid)
        if key == "":
            warn(doc.path, doc.line(("components", cid, "group_by")), f"components.{cid}: {len(group)} rows with "
                 f"an empty '{column}' make the deck {gid}")
        decks.append(Deck(gid, comp.model_copy(update={"name": _group_name(comp, cid, key), "group_by": None}),
                          group, (column, shown[key]), cid))
    return decks


def _group_name(comp: Component, cid: str, value: str) -> Any:
    label = value if value != "" else "—"
    if isinstance(comp.name, dict) and comp.name:
        return {lang: f"{name or cid}: {label}" for lang, name in comp.name.items()}
    return f"{comp.name or cid}: {label}"


def names(values: dict[str, Any], aliases: dict[str, str], index: int) -> dict[str, Any]:
    """What a row gives a template: its columns by their own names and by their normalised names, `row` and
    `index`."""
    out = dict(values)
    for alias, column in aliases.items():
        if column in values and alias not in out:
            out[alias] = values[column]
    out["row"] = RowView(values, aliases)
    out["index"] = index
    return out


class RowView(dict):
    """A row as templates see it (`row`): its columns, and their normalised names on lookup (row['#Cost'],
    row.cost); iterating gives the columns as spelled in the table."""

    def __init__(self, values: dict[str, Any], aliases: dict[str, str]):
        super().__init__(values)
        self._aliases = aliases

    def __missing__(self, key: str) -> Any:
        column = self._aliases.get(key)
        if column is not None and column in self:
            return dict.__getitem__(self, column)
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default


def _value(row: Row, column: str) -> Any:
    return row.counted if column not in row.values and row.counted is not None else row.values.get(column, "")


def _text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value).strip()


def _did(name: str, table: Table) -> str:
    hint = close_match(name, table.columns + list(table.aliases))
    return f"; did you mean '{hint}'?" if hint else ";"


_UNDEFINED = re.compile(r"'([^']+)' is undefined")


def _undefined_name(exc: BaseException) -> str | None:
    m = _UNDEFINED.search(str(getattr(exc, "message", "") or exc))
    return m.group(1) if m else None


def _row(row: Row) -> str:
    return f"{display_path(row.file)}:{row.line}"


@functools.lru_cache(maxsize=16)
def _env(folder: Path) -> jinja2.Environment:
    """The sandbox `where:` expressions are evaluated in (no template files, no globals of pnp's)."""
    return sandbox.environment(DesignFiles(folder), [folder], "template_bytes")


_SLUG = re.compile(r"[^a-z0-9-]+")


def slug(text: str, most: int = 40) -> str:
    """A file-name part: accents dropped, lower case, other characters '-' ("" when nothing is left)."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", str(text)) if not unicodedata.combining(c))
    return _SLUG.sub("-", plain.lower()).strip("-")[:most].strip("-")
