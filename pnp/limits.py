"""Every bound pnp puts on a design, in one table.

A design is untrusted input (a co-designer's zip, a forum download): every size and
count it can state is bounded, each bound generous for any real game and reported as
`file:line: ...; expected at most N` before any work is done. docs/design-format.md
("Limits and safety") lists this table; tests/test_limits.py holds the two together.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limit:
    value: int
    unit: str  # what is counted: "bytes", "copies"...
    what: str  # one line for the docs: what is bounded


LIMITS: dict[str, Limit] = {
    # files a design names (design.yaml, data tables, templates, SVG, rules texts)
    "yaml_bytes": Limit(4_000_000, "bytes", "size of design.yaml or of a YAML data table"),
    "yaml_depth": Limit(64, "levels", "nesting of YAML lists and mappings, aliases expanded"),
    "yaml_nodes": Limit(500_000, "values", "values in one YAML file, every alias counted as often as it is used"),
    "csv_bytes": Limit(8_000_000, "bytes", "size of a CSV data table"),
    "csv_field": Limit(100_000, "characters", "one cell of a data table (CSV or spreadsheet)"),
    "table_rows": Limit(20_000, "rows", "rows of one data table"),
    "table_columns": Limit(1_000, "columns", "columns of one data table"),
    "sheet_bytes": Limit(20_000_000, "bytes", "size of a spreadsheet data table (.xlsx, .ods)"),
    "sheet_unpacked": Limit(100_000_000, "bytes", "what a spreadsheet (a zip file) unpacks to"),
    "sheet_row_parts": Limit(200_000, "elements", "XML elements of one row of a spreadsheet (.ods)"),
    "sheet_text": Limit(8_000_000, "characters", "text of the sheet read, as the CSV file it would make: repeated "
                        "cells and spaces expanded, one more per cell"),
    "template_bytes": Limit(1_000_000, "bytes", "size of a Jinja2 SVG template (and of each file it includes)"),
    "rules_bytes": Limit(1_000_000, "bytes", "size of a rules text rules.<lang>.md (and of each file it includes)"),
    "svg_bytes": Limit(16_000_000, "bytes", "size of a ready SVG file (svg: faces, rulebook images)"),
    "image_bytes": Limit(50_000_000, "bytes", "an image file a face draws (<image href=...>: PNG, JPEG, WebP, GIF, SVG)"),
    "image_pixels": Limit(50_000_000, "pixels",
                          "pixels of one raster image a face draws (width x height; A2 at 300 dpi is 35 million)"),
    "font_bytes": Limit(30_000_000, "bytes", "a font file of the design's fonts: section (TTF/OTF)"),
    "design_files": Limit(10_000, "files", "template files (*.j2) in a design folder; files pnp new --from copies"),
    "copy_bytes": Limit(200_000_000, "bytes", "what pnp new --from copies"),
    # what a design asks pnp to make
    "count": Limit(10_000, "copies", "copies of one face: a component's count:, a data-table count column"),
    "faces": Limit(25_000, "faces", "distinct faces of one design (a 20 000-row deck, its backs, a few more)"),
    "copies": Limit(50_000, "copies", "components in one design's box (every copy of every face)"),
    "length": Limit(2_000, "mm", "any length (sizes, bleed, margins, generator parameters) and a face's side"),
    "list_items": Limit(1_000, "items", "entries of a list in a generator's params (colours, varieties, zones...)"),
    "grid": Limit(100, "cells", "a board's rows, columns or radius in a generator's params"),
    "players": Limit(100, "players", "meta.players"),
    "name_chars": Limit(64, "characters", "a design name (pnp new)"),
    # template and rules-text rendering (Jinja2, sandboxed)
    "render_output": Limit(4_000_000, "characters", "SVG text one face template renders"),
    "rules_output": Limit(500_000, "characters", "Markdown one rules text renders (about 150 pages)"),
    "render_steps": Limit(1_000_000, "steps", "loop iterations, calls, filters and the items filters go through, "
                          "while rendering one template or rules text"),
    "render_value": Limit(1_000_000, "characters", "a string or list a template builds ('x' * n, joins, padding...; "
                          "a list counts the items of the lists inside it too)"),
    "render_built": Limit(20_000_000, "characters", "all the strings and lists one rendering builds, added up (those "
                          "it drops too)"),
    "render_seconds": Limit(10, "seconds", "time one rendering may take (a last resort: the other bounds come first)"),
    "template_nesting": Limit(20, "levels", "brackets nested in an expression, {% %} blocks nested in a template or "
                              "rules text"),
    "range": Limit(10_000, "items", "range(n) in a template or rules text"),
    "face_grid_columns": Limit(20, "columns", "face_grid(columns=N) in a rules text"),
    "textbox_chars": Limit(20_000, "characters", "text set in one textbox() of a template"),
    "textbox_lines": Limit(2_000, "lines", "lines one textbox() of a template sets"),
}


def limit(name: str) -> int:
    return LIMITS[name].value


class LimitExceeded(Exception):
    """Raised inside rendering when a bound is passed; `wrong` says what was found, the caller adds file:line."""

    def __init__(self, name: str, wrong: str):
        self.name = name
        lim = LIMITS[name]
        self.message = f"{wrong}; expected at most {lim.value} {lim.unit}"
        super().__init__(self.message)


def docs_table() -> str:
    """The Markdown table of docs/design-format.md's "Limits and safety" section."""
    rows = ["| limit | at most | what |", "| --- | --- | --- |"]
    for name, lim in LIMITS.items():
        value = f"{lim.value:_}".replace("_", " ")
        rows.append(f"| `{name}` | {value} {lim.unit} | {lim.what} |")
    return "\n".join(rows)
