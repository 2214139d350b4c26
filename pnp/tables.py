"""Data tables: one row per face, from a CSV file, a YAML list file or an inline YAML list.

A `count` column gives the copies of each row (default: the component's count), the
way Squib's `qty` column does. Every row keeps the file and line it came from. Tables
are read through pnp.confine (inside the design folder, bounded) and bounded in rows,
cell size and copies (pnp.limits).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.confine import DesignFiles
from pnp.errors import DesignError, ErrorReport
from pnp.limits import LIMITS, limit
from pnp.yamlio import Document, parse_yaml


@dataclass
class Row:
    values: dict[str, Any]
    count: int
    file: Path
    line: int | None


def load_rows(source: str | list, design_folder: Path, doc: Document, loc: tuple,
              default_count: int, report: ErrorReport, files: DesignFiles | None = None) -> list[Row]:
    """Rows of a component's `data:`; problems go to `report`."""
    if isinstance(source, list):
        if len(source) > limit("table_rows"):
            report.add(doc.path, doc.line(loc), _too_many(len(source)))
            return []
        raw = [(item, doc.line(loc + (i,))) for i, item in enumerate(source)]
        return _rows(raw, doc.path, doc.line(loc), default_count, report)
    files = files or DesignFiles(design_folder)
    try:
        path = files.resolve(source, (doc.path, doc.line(loc)))
        suffix = path.suffix.lower()
        if suffix not in (".csv", ".yaml", ".yml"):
            report.add(doc.path, doc.line(loc), f"unknown table format '{path.suffix}' of '{source}'; expected a "
                       ".csv, .yaml or .yml file")
            return []
        text = files.read_text(path, "csv_bytes" if suffix == ".csv" else "yaml_bytes")
    except DesignError as exc:
        report.extend(exc)
        return []
    if suffix == ".csv":
        return _csv_rows(text, path, default_count, report)
    try:
        tdoc = parse_yaml(text, path)
    except DesignError as exc:
        report.extend(exc)
        return []
    if not isinstance(tdoc.data, list):
        report.add(path, 1, "the file does not hold a list; expected one '- key: value' item per face")
        return []
    if len(tdoc.data) > limit("table_rows"):
        report.add(path, tdoc.line((limit("table_rows"),)), _too_many(len(tdoc.data)))
        return []
    return _rows([(item, tdoc.line((i,))) for i, item in enumerate(tdoc.data)], path, 1, default_count, report)


def _too_many(n: int) -> str:
    lim = LIMITS["table_rows"]
    return f"{n} rows; expected at most {lim.value} rows in one data table"


def _csv_rows(text: str, path: Path, default_count: int, report: ErrorReport) -> list[Row]:
    most_rows, most_field = limit("table_rows"), limit("csv_field")
    csv.field_size_limit(most_field)  # the csv module's own check, at our bound (its default is 128 KiB)
    reader = csv.reader(io.StringIO(text, newline=""))
    raw: list[tuple[dict, int]] = []
    header: list[str] | None = None
    try:
        for cells in reader:
            line = reader.line_num
            if header is None:
                if not any(c.strip() for c in cells):
                    continue  # blank lines before the header
                header = [c.strip() for c in cells]
                header_line = line
                if not _good_header(header, path, line, report):
                    return []
                continue
            if not any(c.strip() for c in cells):
                continue  # blank line
            if len(raw) >= most_rows:
                report.add(path, line, f"more than {most_rows} rows; expected at most {most_rows} rows in one data "
                           "table")
                return []
            if len(cells) > len(header):
                report.add(path, line, f"{len(cells)} cells for {len(header)} column names; expected one cell per "
                           "column")
                continue
            cells = cells + [""] * (len(header) - len(cells))
            raw.append(({k: v.strip() for k, v in zip(header, cells)}, line))
    except csv.Error as exc:
        line = reader.line_num
        if "field larger than field limit" in str(exc):
            lim = LIMITS["csv_field"]
            report.add(path, line, f"a cell is longer than {lim.value} characters; expected at most {lim.value} "
                       f"{lim.unit} in one cell (is a quote \" left open above?)")
        else:
            report.add(path, line, f"CSV error: {exc}; expected comma-separated cells, \"quoted\" when they hold "
                       "commas or line breaks")
        return []
    if header is None:
        report.add(path, 1, "the table is empty; expected a header line of column names, then one row per face")
        return []
    if not raw:
        report.add(path, header_line, "the table has column names but no rows; expected one row per face under "
                   "the header line")
        return []
    return _rows(raw, path, header_line, default_count, report)


def _good_header(header: list[str], path: Path, line: int, report: ErrorReport) -> bool:
    seen: set[str] = set()
    ok = True
    for i, name in enumerate(header, start=1):
        if not name:
            report.add(path, line, f"column {i} has no name; expected a name for every column of the header line")
            ok = False
        elif not name.isprintable():
            report.add(path, line, f"column name {name!r} holds a control character; expected printable text")
            ok = False
        elif name in seen:
            report.add(path, line, f"column '{name}' is named twice; expected each column name once")
            ok = False
        seen.add(name)
    return ok


def _rows(raw: list[tuple[Any, int | None]], path: Path, line: int | None, default_count: int,
          report: ErrorReport) -> list[Row]:
    most = limit("count")
    if not raw:
        report.add(path, line, "the data table has no rows; expected one row per face")
        return []
    rows = []
    for values, line in raw:
        if not isinstance(values, dict):
            text = repr(values)
            report.add(path, line, f"row {text if len(text) <= 40 else text[:37] + '...'} is not a mapping; "
                       "expected 'column: value' pairs")
            continue
        values = dict(values)
        count = default_count
        if "count" in values:
            text = values.pop("count")
            try:
                if isinstance(text, bool) or isinstance(text, float) and not text.is_integer():
                    raise ValueError
                count = int(text)
            except (TypeError, ValueError, OverflowError):
                shown = repr(text) if len(repr(text)) <= 40 else repr(text)[:37] + "..."
                report.add(path, line, f"count {shown} is not a whole number; expected 0 or more copies")
                continue
            if count < 0:
                report.add(path, line, f"count {count} is negative; expected 0 or more copies")
                continue
            if count > most:
                report.add(path, line, f"count {count} is too large; expected at most {most} copies of one face")
                continue
        rows.append(Row(values, count, path, line))
    return rows
