"""Data tables: one row per face, from a CSV file, a YAML list file or an inline YAML list.

A `count` column gives the copies of each row (default: the component's count), the
way Squib's `qty` column does. Every row keeps the file and line it came from.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.errors import ErrorReport
from pnp.yamlio import Document, parse_yaml, read_text_utf8


@dataclass
class Row:
    values: dict[str, Any]
    count: int
    file: Path
    line: int | None


def load_rows(source: str | list, design_folder: Path, doc: Document, loc: tuple,
              default_count: int, report: ErrorReport) -> list[Row]:
    """Rows of a component's `data:`; problems go to `report`."""
    if isinstance(source, list):
        raw = [(item, doc.line(loc + (i,))) for i, item in enumerate(source)]
        return _rows(raw, doc.path, default_count, report)
    path = design_folder / source
    text = read_text_utf8(path, report)
    if text is None:
        return []
    if path.suffix.lower() == ".csv":
        reader = csv.DictReader(io.StringIO(text))
        raw = []
        for record in reader:
            if None in record:
                report.add(path, reader.line_num, "more cells than column names; expected one cell per column")
                continue
            raw.append(({k.strip(): (v or "").strip() for k, v in record.items()}, reader.line_num))
        return _rows(raw, path, default_count, report)
    if path.suffix.lower() in (".yaml", ".yml"):
        try:
            tdoc = parse_yaml(text, path)
        except Exception as exc:  # DesignError: carry its problems over
            report.extend(exc)  # type: ignore[arg-type]
            return []
        if not isinstance(tdoc.data, list):
            report.add(path, 1, "the file does not hold a list; expected one '- key: value' item per face")
            return []
        return _rows([(item, tdoc.line((i,))) for i, item in enumerate(tdoc.data)], path, default_count, report)
    report.add(path, None, f"unknown table format '{path.suffix}'; expected a .csv, .yaml or .yml file")
    return []


def _rows(raw: list[tuple[Any, int | None]], path: Path, default_count: int, report: ErrorReport) -> list[Row]:
    rows = []
    for values, line in raw:
        if not isinstance(values, dict):
            report.add(path, line, f"row {values!r} is not a mapping; expected 'column: value' pairs")
            continue
        values = dict(values)
        count = default_count
        if "count" in values:
            text = values.pop("count")
            try:
                count = int(text) if not isinstance(text, bool) else -1
            except (TypeError, ValueError):
                report.add(path, line, f"count {text!r} is not a whole number; expected 0 or more copies")
                continue
            if count < 0:
                report.add(path, line, f"count {count} is negative; expected 0 or more copies")
                continue
        rows.append(Row(values, count, path, line))
    return rows
