"""Data tables: one row per face, from a CSV file, a spreadsheet (.xlsx, .ods), a YAML list
file or an inline YAML list.

A count column gives the copies of each row (default: the component's count), the way Squib's
`qty` column does: the one the component names (`count: qty`), else the first of the usual
names (count, qty, quantity, copies...; `COUNT_NAMES`); a column that looks like a count but is
not read is a warning. Every column is reachable by its own name and by a normalised one
(`#Background` -> `background`, `Coût` -> `cout`: `column_alias`). Every row keeps the file
and line it came from (a spreadsheet's row number). Tables are read through pnp.confine (inside the design folder,
bounded) and bounded in rows, columns, cell size, copies and, for spreadsheets (zip
files), in what they unpack to (pnp.limits).

- CSV: the separator is sniffed from the header line (comma, semicolon or tab: what
  spreadsheets export); a column whose every non-empty cell is a plain number is read
  as numbers (int, or float for a cell with a decimal point; a decimal comma in a
  semicolon file).
- .xlsx (openpyxl) and .ods (read here with lxml, so that repeated rows and cells
  expand only within the bounds): cells keep the types of the sheet (numbers are
  numbers, whole numbers int; dates as ISO text; formulas their last computed value).
- Everywhere: an empty cell is "" (prints nothing, is false in `{% if %}`); a
  component's `columns: {name: text|int|number}` declares a column's type, checked per
  cell (`file:line` for a cell that is not a number).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.confine import DesignFiles, FileRefused, decode_utf8
from pnp.errors import DesignError, ErrorReport, Problem, close_match, display_path, warn
from pnp.limits import LIMITS, limit
from pnp.model import ENCODINGS as _ENCODINGS, LANGUAGES, text_in
from pnp.yamlio import Document, parse_yaml


@dataclass
class Row:
    values: dict[str, Any]  # column -> value (the count column's value is `count`, not here)
    count: int
    file: Path
    line: int | None
    counted: Any = None  # the count column's own cell as read (None: no count column, or an empty cell)


@dataclass
class Table:
    """A data table as read: its rows, its columns (as spelled in the file, in order), the column read as the
    copies of each row, and the normalised names of the columns."""

    rows: list[Row]
    columns: list[str] = field(default_factory=list)
    file: Path | None = None  # the table's file (None: an inline list of design.yaml)
    count_column: str | None = None
    aliases: dict[str, str] = field(default_factory=dict)  # normalised name -> column, when they differ
    translations: dict[str, dict[str, str]] = field(default_factory=dict)  # column -> {lang: its `column@lang`}
    header_line: int | None = None  # the line of the column names (messages about a column)

    def cells_in(self, values: dict[str, Any], lang: str) -> dict[str, Any]:
        """A row's cells as a template in `lang` sees them: `title@fr` read as `title` in French (`title` alone is
        the text of every language, and of those whose cell is empty), a YAML cell `{en: ..., fr: ...}` as its
        text in `lang`; the `column@lang` columns themselves left out."""
        if not self.translations and not any(isinstance(v, dict) for v in values.values()):
            return values
        out = {k: text_in(v, lang) if is_texts(v) else v for k, v in values.items() if k not in self._by_lang()}
        for base, by in self.translations.items():
            column = by.get(lang)
            cell = values.get(column) if column is not None else None
            if cell not in (None, ""):
                out[base] = text_in(cell, lang) if is_texts(cell) else cell
            elif base not in out:  # no `title` column: the first language's text given
                out[base] = next((values[c] for c in by.values() if values.get(c) not in (None, "")), "")
        return out

    def _by_lang(self) -> set[str]:
        return {c for by in self.translations.values() for c in by.values()}

    def find(self, name: str) -> str | None:
        """The column `name` means: its own spelling, its normalised name, or the same letters in another case."""
        if name in self.columns or name == self.count_column:
            return name
        if name in self.aliases:
            return self.aliases[name]
        alias = column_alias(name)
        return self.aliases.get(alias) if alias else None

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __bool__(self) -> bool:
        return bool(self.rows)


# The names a count column goes by in Squib, nanDECK and spreadsheets (normalised: column_alias), in the order one
# is chosen when a table has several; a column whose name holds one of COUNT_WORDS looks like a count.
COUNT_NAMES = ("count", "qty", "quantity", "copies", "counts", "quantities", "num_copies", "number_of_copies",
               "nb_copies", "copy_count", "card_count", "multi", "linkmulti", "nb", "quantite", "qte", "exemplaires",
               "nb_exemplaires", "anzahl", "cantidad")
COUNT_WORDS = frozenset({"count", "counts", "qty", "quantity", "quantities", "copies", "multi", "linkmulti",
                         "quantite", "qte", "exemplaires", "anzahl", "cantidad"})


def column_alias(name: str) -> str | None:
    """The normalised name of a column: accents dropped, lower case, every run of other characters one `_`, a
    leading digit after `col_` (`#Background` -> `background`, `Card Name` -> `card_name`, `Coût` -> `cout`,
    `2nd Player` -> `col_2nd_player`); None when nothing is left (`#`)."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", str(name)) if not unicodedata.combining(c))
    alias = re.sub(r"[^a-z0-9]+", "_", plain.lower()).strip("_")
    if not alias:
        return None
    return "col_" + alias if alias[0].isdigit() else alias


def looks_like_count(name: str) -> bool:
    alias = column_alias(name) or ""
    return alias in COUNT_NAMES or bool(COUNT_WORDS & set(alias.split("_")))


TABLE_SUFFIXES = (".csv", ".tsv", ".xlsx", ".ods", ".yaml", ".yml")
COLUMN_TYPES = ("text", "int", "number", "skip")


ENCODINGS = _ENCODINGS
"""What a CSV table may say it is written in (`encoding:`): UTF-8 (the default; a BOM is dropped), Windows' "ANSI"
(cp1252, what Excel and nanDECK save on a Western Windows), ISO Latin-1, old Mac OS Roman, UTF-16 (Excel's "Unicode
text"; with a BOM it is read as such whatever `encoding:` says)."""


@dataclass(frozen=True)
class CountSpec:
    """Where the copies of each row come from: `column` (a column's name; None: the usual names; False: no
    column), `default` (the copies when no column gives them), and design.yaml's line saying so."""

    column: str | bool | None = None
    default: int = 1
    file: Path | str = "design.yaml"
    line: int | None = None


def load_table(source: str | list, design_folder: Path, doc: Document, loc: tuple, report: ErrorReport,
               files: DesignFiles | None = None, columns: dict[str, str] | None = None, sheet: str | None = None,
               count: CountSpec | None = None, encoding: str | None = None) -> Table:
    """A component's `data:`; problems go to `report` (an unreadable table gives no rows). `columns` declares
    column types (text, int, number); `sheet` names the sheet of a spreadsheet (default: the first); `count`
    says which column gives the copies (CountSpec); `encoding` is a CSV file's (ENCODINGS)."""
    count = count or CountSpec()
    if isinstance(source, list):
        if len(source) > limit("table_rows"):
            report.add(doc.path, doc.line(loc), _too_many(len(source)))
            return Table([])
        raw = [(item, doc.line(loc + (i,))) for i, item in enumerate(source)]
        return _finish(raw, _keys(raw), doc.path, doc.line(loc), count, report, columns, inline=True)
    files = files or DesignFiles(design_folder)
    try:
        path = files.resolve(source, (doc.path, doc.line(loc)))
        suffix = path.suffix.lower()
        if suffix not in TABLE_SUFFIXES:
            report.add(doc.path, doc.line(loc), f"unknown table format '{path.suffix}' of '{source}'; expected a "
                       ".csv, .tsv, .xlsx, .ods, .yaml or .yml file")
            return Table([])
        if suffix in (".xlsx", ".ods"):
            try:
                data = files.read_bytes(path, "sheet_bytes")
            except FileRefused as exc:
                report.add(path, None, exc.message)
                return Table([])
            raw_rows = _sheet_rows(data, path, suffix, sheet, report)
            if raw_rows is None:
                return Table([])
            return _table(raw_rows, path, count, report, columns, sniff=False)
        if suffix in (".csv", ".tsv"):
            text = _csv_text(files, path, encoding, doc.line(loc[:-1] + ("encoding",)) or doc.line(loc))
        else:
            text = files.read_text(path, "yaml_bytes")
    except DesignError as exc:
        report.extend(exc)
        return Table([])
    if suffix in (".csv", ".tsv"):
        return _csv_rows(text, path, count, report, columns)
    try:
        tdoc = parse_yaml(text, path)
    except DesignError as exc:
        report.extend(exc)
        return Table([])
    if not isinstance(tdoc.data, list):
        report.add(path, 1, "the file does not hold a list; expected one '- key: value' item per face")
        return Table([])
    if len(tdoc.data) > limit("table_rows"):
        report.add(path, tdoc.line((limit("table_rows"),)), _too_many(len(tdoc.data)))
        return Table([])
    raw = [(item, tdoc.line((i,))) for i, item in enumerate(tdoc.data)]
    return _finish(raw, _keys(raw), path, 1, count, report, columns)


def _csv_text(files: DesignFiles, path: Path, encoding: str | None, line: int | None) -> str:
    """A CSV file's text: UTF-8 (BOM dropped) or UTF-16 with its BOM, else the component's `encoding:`; a file
    that is not UTF-8 and says no encoding is an error naming the first bad byte and how to say it."""
    try:
        raw = files.read_bytes(path, "csv_bytes")
    except FileRefused as exc:
        raise DesignError([Problem(display_path(path), None, exc.message)]) from None
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            raise DesignError([Problem(display_path(path), None, "the file starts as UTF-16 but does not decode; "
                                       "expected a UTF-8 text file (re-save it as CSV UTF-8)")]) from None
    if encoding in (None, "utf-8"):
        try:
            return decode_utf8(raw, path)
        except DesignError as exc:
            problem = exc.problems[0]
            hint = "" if encoding else " or say its encoding beside data: (encoding: cp1252 for Windows' ANSI)"
            raise DesignError([Problem(problem.file, problem.line, problem.message.rstrip(")") + hint
                                       + ")")]) from None
    codec = {"mac-roman": "mac_roman"}.get(encoding, encoding)
    try:
        return raw.decode(codec)
    except UnicodeDecodeError as exc:
        bad = raw[: exc.start].count(b"\n") + 1
        raise DesignError([Problem(display_path(path), bad, f"byte 0x{raw[exc.start]:02X} is not {encoding}; "
                                   f"expected a file written in {encoding} (encoding: at design.yaml:{line})")]) \
            from None


def _keys(raw: list[tuple[Any, int | None]]) -> list[str]:
    """The keys of a YAML table's rows, in the order they first appear."""
    seen: dict[str, None] = {}
    for values, _ in raw:
        if isinstance(values, dict):
            for k in values:
                seen.setdefault(str(k), None)
    return list(seen)


def _finish(raw: list[tuple[Any, int | None]], names: list[str], path: Path, line: int | None, count: CountSpec,
            report: ErrorReport, columns: dict[str, str] | None, inline: bool = False) -> Table:
    """Rows of values -> the Table: its count column chosen, its names normalised, its declared types applied."""
    translations = _translations(names)
    names = [n for n in names if LANG_COLUMN.match(n) is None]
    aliases = _aliases(names, path, line)
    table = Table([], names, None if inline else path, None, aliases, translations, line)
    table.count_column = _count_column(table, count, path, line, report)
    rows = _rows(raw, path, line, count.default, report, table.count_column)
    table.rows = _typed(rows, _declared(columns, table, path, line), report)
    if table.count_column is not None:
        table.columns = [n for n in names if n != table.count_column]
    return table


LANG_COLUMN = re.compile(r"^(.*[^@\s])@([A-Za-z]{2,3}(?:[-_][A-Za-z]{2,4})?)$")
"""A per-language column: `title@fr` is the French text of the column `title`."""


def _translations(names: list[str]) -> dict[str, dict[str, str]]:
    """column -> {lang: the column holding its text in lang}, from the names `column@lang`."""
    out: dict[str, dict[str, str]] = {}
    for name in names:
        m = LANG_COLUMN.match(name)
        if m:
            out.setdefault(m.group(1).strip(), {})[m.group(2).lower()] = name
    return out


def is_texts(value: Any) -> bool:
    """Whether a cell (or any YAML value) is one text per language: {en: ..., fr: ...}."""
    return isinstance(value, dict) and bool(value) and all(isinstance(k, str) and k in LANGUAGES for k in value)


def language_warnings(table: Table, languages: list[str], where: tuple[Any, int | None]) -> None:
    """A text given in some of the design's languages but not all is a warning at its row (the file's line); a
    `column@xx` of a language the design does not declare is a warning at the header. `where`: the table's file
    and line when it is inline in design.yaml."""
    langs = list(dict.fromkeys(languages))
    file = table.file if table.file is not None else where[0]
    for base, by in table.translations.items():
        for lang, column in by.items():
            if lang not in langs:
                warn(file, table.header_line or where[1], f"column '{column}': '{lang}' is not a language of the "
                     f"design (meta.languages: {', '.join(langs)}); expected one of them after the '@', or the "
                     f"language added to meta.languages (the column is never printed)")
    if len(langs) < 2:
        return
    for row in table.rows:
        for base, by in table.translations.items():
            texts = {lang: _given(row.values.get(by[lang])) if lang in by else _given(row.values.get(base))
                     for lang in langs}
            missing = [lang for lang, t in texts.items() if not t]
            if missing and len(missing) < len(langs):
                shown = ", ".join(by.get(lang, base) for lang in missing)
                warn(row.file, row.line, f"column '{base}' has no text in {', '.join(missing)} (cell {shown} "
                     f"empty); expected a text in every language of meta.languages ({', '.join(langs)}); the "
                     f"{next(lang for lang in langs if lang not in missing)} text is printed instead")
        for column, value in row.values.items() if table.file is not None else ():  # (design.yaml's own: the
            # loader's walk of it says them, at their line)
            if is_texts(value):
                missing = [lang for lang in langs if not _given(value.get(lang))]
                if missing:
                    warn(row.file, row.line, f"column '{column}': no {', '.join(missing)} text in "
                         f"{{{', '.join(value)}}}; expected a text in every language of meta.languages "
                         f"({', '.join(langs)}); the {next(iter(value))} text is printed instead")


def _given(value: Any) -> bool:
    return value not in (None, "") and not (isinstance(value, str) and not value.strip())


def _aliases(names: list[str], path: Path, line: int | None) -> dict[str, str]:
    """normalised name -> column, for the columns whose name is not already one; two columns with the same
    normalised name are a warning (neither gets it: both stay reachable by their own names)."""
    found: dict[str, list[str]] = {}
    for name in names:
        alias = column_alias(name)
        if alias and alias != name:
            found.setdefault(alias, []).append(name)
    out = {}
    for alias, owners in found.items():
        if alias in names:
            continue  # a column of that very name: it keeps it
        if len(owners) > 1:
            warn(path, line, f"columns {' and '.join(repr(o) for o in owners)} both normalise to '{alias}', which "
                 f"names neither; expected distinct names (use row['{owners[0]}'] in a template)")
            continue
        out[alias] = owners[0]
    return out


def _count_column(table: Table, count: CountSpec, path: Path, line: int | None, report: ErrorReport) -> str | None:
    """The column read as the copies of each row (None: none): the one the component names, else the first of
    COUNT_NAMES; every other column that looks like a count is a warning naming it."""
    names = table.columns
    chosen: str | None = None
    if isinstance(count.column, str):
        chosen = table.find(count.column)
        if chosen is None:
            hint = close_match(count.column, [n for n in names if looks_like_count(n)] or names)
            did = f"; did you mean '{hint}'?" if hint else ";"
            where = display_path(path) if table.file else "the data table"
            report.add(count.file, count.line, f"count: column '{count.column}' is not a column of "
                       f"{where}{did} expected one of: {', '.join(names[:30])}")
            return None
    elif count.column is None:
        by_alias = {column_alias(n): n for n in reversed(names)}
        chosen = next((by_alias[c] for c in COUNT_NAMES if c in by_alias), None)
    for name in names:
        if count.column is not False and name != chosen and looks_like_count(name):
            read = f"the copies come from column '{chosen}'" if chosen else "the copies are the component's count"
            warn(path, line, f"column '{name}' looks like a count of copies but is not read ({read}); expected "
                 f"count: {name} in the component to read it, or another name for the column")
    return chosen


def _too_many(n: int) -> str:
    lim = LIMITS["table_rows"]
    return f"{n} rows; expected at most {lim.value} rows in one data table"


SEPARATORS = (",", ";", "\t")


def sniff_separator(text: str) -> str:
    """The separator of a CSV text: of comma, semicolon and tab, the one that splits the header line into the
    most columns with the next lines agreeing (a semicolon file with commas in its cells, a tab file...)."""
    lines = [ln for ln in text[:65536].splitlines() if ln.strip()][:20]
    if not lines:
        return ","
    best, best_score = ",", (0, 0)
    for sep in SEPARATORS:
        try:
            rows = list(csv.reader(io.StringIO("\n".join(lines), newline=""), delimiter=sep))
        except csv.Error:
            continue
        if not rows:
            continue
        n = len(rows[0])
        if n < 2:
            continue
        agree = sum(1 for r in rows[1:] if len(r) == n)
        score = (agree, n)
        if score > best_score:
            best, best_score = sep, score
    return best


def _csv_rows(text: str, path: Path, count: CountSpec, report: ErrorReport,
              columns: dict[str, str] | None) -> Table:
    most_field = limit("csv_field")
    csv.field_size_limit(most_field)  # the csv module's own check, at our bound (its default is 128 KiB)
    sep = "\t" if path.suffix.lower() == ".tsv" else sniff_separator(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True)
    raw: list[tuple[list, int]] = []
    start = 1  # the line the row being read starts on
    try:
        for cells in reader:
            raw.append((cells, reader.line_num))
            start = reader.line_num + 1
            if len(raw) > limit("table_rows") + 1 and any(c.strip() for c in cells):
                break
    except csv.Error as exc:
        line = reader.line_num
        if "unexpected end of data" in str(exc):
            report.add(path, start, "a quote (\") opens a cell of this row and is never closed, so the rest of the "
                       "file would be that one cell; expected a closing quote, or no quote at the start of a cell")
        elif "field larger than field limit" in str(exc):
            lim = LIMITS["csv_field"]
            report.add(path, line, f"a cell is longer than {lim.value} characters; expected at most {lim.value} "
                       f"{lim.unit} in one cell (is a quote \" left open above?)")
        else:
            name = {",": "comma", ";": "semicolon", "\t": "tab"}[sep]
            report.add(path, line, f"CSV error: {exc}; expected {name}-separated cells, \"quoted\" when they hold "
                       f"the separator or line breaks")
        return Table([])
    _swallowed_rows(raw, sep, path)
    return _table(raw, path, count, report, columns, sniff=True, sep=sep)


def _swallowed_rows(raw: list[tuple[list, int]], sep: str, path: Path) -> None:
    """A cell holding line breaks whose lines would be rows of their own (as many cells as the header) is a
    warning: a quote opened and closed rows later swallows the rows between."""
    if not raw:
        return
    width = len(raw[0][0])
    for cells, line in raw[1:]:
        for cell in cells:
            if "\n" in cell and width > 1:
                inner = cell.split("\n")[1:]
                if any(len(next(csv.reader([ln], delimiter=sep), [])) == width for ln in inner):
                    first = line - cell.count("\n")
                    warn(path, first, f"a quoted cell runs from line {first} to line {line} and holds lines that "
                         f"look like rows of the table; expected a quote closed on the line it opens (is one "
                         "left open?)")
                    return


_ENTITY_START = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6})$")
_SEPARATOR_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}


def _table(raw_rows: list[tuple[list, int]], path: Path, count: CountSpec, report: ErrorReport,
           columns: dict[str, str] | None, sniff: bool, sep: str | None = None) -> Table:
    """A header line then rows of cells -> the Table (blank lines skipped, every bound checked); `sniff`: text cells
    of a column that are all numbers become numbers (CSV). A CSV row with more cells than names, the extra ones
    after a text column, is read with them as part of its last cell (the separator put back), with a warning: a
    comma in a cell that was not quoted."""
    most_rows, most_columns, most_field = limit("table_rows"), limit("table_columns"), limit("csv_field")
    header: list[str] | None = None
    header_line = 1
    body: list[tuple[list, int]] = []
    long_rows: list[tuple[list, int]] = []  # (cells, line) of rows with cells beyond the last name
    for cells, line in raw_rows:
        if not any(_text(c).strip() for c in cells):
            continue  # blank lines (before the header too)
        if header is None:
            while cells and not _text(cells[-1]).strip():
                cells = cells[:-1]  # a spreadsheet's empty cells after the last name
            header = [_text(c).strip() for c in cells]
            header_line = line
            if len(header) > most_columns:
                report.add(path, line, f"{len(header)} columns; expected at most {most_columns} columns in one data "
                           "table")
                return Table([])
            if not _good_header(header, path, line, report):
                return Table([])
            continue
        if len(body) >= most_rows:
            report.add(path, line, f"more than {most_rows} rows; expected at most {most_rows} rows in one data table")
            return Table([])
        if any(isinstance(c, str) and len(c) > most_field for c in cells):
            lim = LIMITS["csv_field"]
            report.add(path, line, f"a cell is longer than {lim.value} characters; expected at most {lim.value} "
                       f"{lim.unit} in one cell")
            continue
        if len(cells) > len(header):
            while len(cells) > len(header) and not _text(cells[-1]).strip():
                cells = cells[:-1]
            if len(cells) > len(header):
                long_rows.append((list(cells), line))
                body.append(([], line))  # its place; filled below
                continue
        cells = list(cells) + [""] * (len(header) - len(cells))
        body.append(([c.strip() if isinstance(c, str) else c for c in cells], line))
    if header is None:
        report.add(path, 1, "the table is empty; expected a header line of column names, then one row per face")
        return Table([])
    if not body:
        report.add(path, header_line, "the table has column names but no rows; expected one row per face under "
                   "the header line")
        return Table([])
    if len(header) == 1 and sep == "," and any(ch in header[0] for ch in ";\t|"):
        report.add(path, header_line, f"the header line is one column named '{header[0][:60]}'; expected column "
                   "names separated by commas, semicolons or tabs")
        return Table([])
    if long_rows:
        body = _joined_long_rows(body, long_rows, header, path, sep, report)
    if sniff:
        for j in range(len(header)):
            column = [cells[j] for cells, _ in body]
            numbers = _numbers(column, decimal_comma=sep == ";")
            if numbers is not None:
                for (cells, _), v in zip(body, numbers):
                    cells[j] = v
    raw = [(dict(zip(header, cells)), line) for cells, line in body]
    return _finish(raw, header, path, header_line, count, report, columns)  # type: ignore[arg-type]


def _joined_long_rows(body: list[tuple[list, int]], long_rows: list[tuple[list, int]], header: list[str], path: Path,
                      sep: str | None, report: ErrorReport) -> list[tuple[list, int]]:
    """Rows with more cells than names: when the last column holds text in the other rows (not numbers), the
    extra cells are part of it, joined with the separator, and each such row is a warning; else each is an
    error saying to quote the cell. (Squib's and spreadsheet users' text columns come last, with commas in them.)"""
    name = _SEPARATOR_NAMES.get(sep or ",", "separator")
    last = len(header) - 1
    others = [cells[last] for cells, _ in body if cells]
    text_last = sep is not None and not (others and _numbers([_text(c).strip() for c in others], sep == ";"))
    long = {line: cells for cells, line in long_rows}
    out = []
    for cells, line in body:
        if line not in long:
            out.append((cells, line))
            continue
        extra = long[line]
        if sep is None:  # a spreadsheet
            report.add(path, line, f"a value in column {len(extra)}, which has no name in the header line; expected "
                       "a name above every column that holds values")
            continue
        if not text_last:
            report.add(path, line, f"{len(extra)} cells for {len(header)} column names; expected one cell per "
                       f"column (a cell that holds a {name} needs \"quotes\" around it)")
            continue
        joined = extra[:last] + [(sep or ",").join(_text(c) for c in extra[last:])]
        if not (sep == ";" and all(_ENTITY_START.search(_text(c)) for c in extra[last:-1])):
            # (a semicolon that ends an HTML entity, &quot; &#39;, split the cell: joined back, nothing to say)
            warn(f"{display_path(path)} (row {display_path(path)}:{line})", None, f"more cells than column names: "
                 f"the cells after column '{header[last]}' are read as part of it, {name}s and all; expected "
                 f"\"quotes\" around a cell that holds a {name} (a spreadsheet's CSV export writes them)")
        out.append(([c.strip() if isinstance(c, str) else c for c in joined], line))
    return out


def _text(cell: Any) -> str:
    return cell if isinstance(cell, str) else "" if cell is None else str(cell)


_INT = re.compile(r"[-+]?(0|[1-9][0-9]{0,17})")
_FLOAT = re.compile(r"[-+]?(0|[1-9][0-9]{0,17})\.[0-9]{1,15}")
_FLOAT_COMMA = re.compile(r"[-+]?(0|[1-9][0-9]{0,17}),[0-9]{1,15}")


def _numbers(column: list[str], decimal_comma: bool) -> list | None:
    """The column as numbers when every non-empty cell is a plain number (no leading zero, no thousands
    separator, no exponent): ints, or floats if any has a decimal point; else None (the column stays text)."""
    filled = [c for c in column if c != ""]
    if not filled:
        return None
    pattern = _FLOAT_COMMA if decimal_comma else _FLOAT
    if all(_INT.fullmatch(c) or pattern.fullmatch(c) for c in filled):
        return ["" if c == "" else int(c) if _INT.fullmatch(c) else float(c.replace(",", ".")) for c in column]
    return None


def _declared(columns: dict[str, str] | None, table: Table, path: Path, line: int | None) -> dict[str, str] | None:
    """`columns:` by the table's own spelling of each column; a name that is no column is a warning."""
    if not columns:
        return columns
    out = {}
    for name, kind in columns.items():
        found = table.find(name)
        if found is None:
            hint = close_match(name, table.columns)
            did = f"; did you mean '{hint}'?" if hint else ";"
            warn(path, line, f"columns: '{name}' is not a column of the table{did} expected one of: "
                 f"{', '.join(table.columns[:30])}")
            continue
        out[found] = kind
    return out


def _typed(rows: list[Row], columns: dict[str, str] | None, report: ErrorReport) -> list[Row]:
    """Declared column types (`columns:` of the component) applied to every row, each bad cell a message."""
    if not columns or not rows:
        return rows
    out = []
    for row in rows:
        ok = True
        for name, kind in columns.items():
            if name not in row.values:
                continue
            v = row.values[name]
            if kind == "skip":
                continue
            if kind == "text":
                row.values[name] = _number_text(v)
                continue
            if v == "" or v is None:
                row.values[name] = ""
                continue
            try:
                if isinstance(v, bool):
                    raise ValueError
                if isinstance(v, str):
                    t = v.strip().replace(",", ".") if v.count(",") == 1 and "." not in v else v.strip()
                    num = float(t)
                else:
                    num = float(v)
                if num != num or num in (float("inf"), float("-inf")):
                    raise ValueError
                if kind == "int":
                    if not num.is_integer():
                        raise ValueError
                    row.values[name] = int(num)
                else:
                    row.values[name] = int(num) if isinstance(v, int) else num
            except (TypeError, ValueError, OverflowError):
                shown = repr(v) if len(repr(v)) <= 40 else repr(v)[:37] + "..."
                what = "a whole number" if kind == "int" else "a number"
                report.add(row.file, row.line, f"column '{name}': {shown} is not {what}; expected {what} "
                           f"(columns: {{{name}: {kind}}})")
                ok = False
        if ok:
            out.append(row)
    return out


def _number_text(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return "" if v is None else str(v)


# --- spreadsheets (.xlsx, .ods): zip files, checked before any library unpacks them ---------------------------------

def _unzipped(data: bytes, path: Path, report: ErrorReport) -> bytes | None:
    """The spreadsheet as a zip whose every member was read here within the bounds (total unpacked size, member
    count, no XML DOCTYPE/ENTITY), stored again uncompressed: what a library then opens cannot unpack to more."""
    most = limit("sheet_unpacked")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zin:
            infos = zin.infolist()
            if len(infos) > 10_000:
                report.add(path, None, f"the file holds {len(infos)} parts; expected a spreadsheet saved by a "
                           "spreadsheet program")
                return None
            declared = sum(i.file_size for i in infos)
            if declared > most:
                report.add(path, None, f"the file unpacks to {declared} bytes; expected at most {most} bytes "
                           f"({LIMITS['sheet_unpacked'].what})")
                return None
            out = io.BytesIO()
            total = 0
            with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as zout:
                for info in infos:
                    if info.is_dir():
                        continue
                    with zin.open(info) as member:
                        content = member.read(most - total + 1)
                    total += len(content)
                    if total > most:
                        report.add(path, None, f"the file unpacks to more than {most} bytes; expected at most "
                                   f"{most} bytes ({LIMITS['sheet_unpacked'].what})")
                        return None
                    if info.filename.endswith((".xml", ".rels")) and (b"<!DOCTYPE" in content[:4096]
                                                                     or b"<!ENTITY" in content):
                        report.add(path, None, f"part {info.filename} declares a DOCTYPE or entities; expected a "
                                   "spreadsheet saved by a spreadsheet program")
                        return None
                    zout.writestr(info.filename, content)
            return out.getvalue()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, NotImplementedError, ValueError) as exc:
        report.add(path, None, f"the file is not a readable {path.suffix} spreadsheet ({exc}); expected a file "
                   f"saved as {path.suffix} by a spreadsheet program")
        return None


def _sheet_rows(data: bytes, path: Path, suffix: str, sheet: str | None,
                report: ErrorReport) -> list[tuple[list, int]] | None:
    packed = _unzipped(data, path, report)
    if packed is None:
        return None
    try:
        return (_xlsx_rows if suffix == ".xlsx" else _ods_rows)(packed, path, sheet, report)
    except DesignError as exc:
        report.extend(exc)
        return None
    except Exception as exc:  # a damaged file: the library's own words, never a traceback
        report.add(path, None, f"the file cannot be read as {suffix} ({type(exc).__name__}: "
                   f"{' '.join(str(exc).split())[:200]}); expected a file saved as {suffix} by a spreadsheet program")
        return None


def _pick_sheet(names: list[str], sheet: str | None, path: Path, report: ErrorReport) -> int | None:
    if not names:
        report.add(path, None, "the file holds no sheet; expected a sheet with a header line and rows")
        return None
    if sheet is None:
        return 0
    if sheet in names:
        return names.index(sheet)
    report.add(path, None, f"no sheet named '{sheet}'; expected one of: {', '.join(names)}")
    return None


def _cell_value(v: Any) -> Any:
    if v is None:
        return ""
    if isinstance(v, bool):
        return v
    if isinstance(v, float) and v.is_integer() and abs(v) < 2 ** 53:
        return int(v)
    if isinstance(v, (int, float, str)):
        return v
    if hasattr(v, "isoformat"):
        text = v.isoformat()
        return text[:-9] if text.endswith("T00:00:00") else text
    return str(v)


def _xlsx_rows(packed: bytes, path: Path, sheet: str | None, report: ErrorReport) -> list[tuple[list, int]] | None:
    import openpyxl  # lazy: 129 ms (openpyxl)

    wb = openpyxl.load_workbook(io.BytesIO(packed), read_only=True, data_only=True)
    try:
        i = _pick_sheet(wb.sheetnames, sheet, path, report)
        if i is None:
            return None
        ws = wb.worksheets[i]
        most_rows, most_cols = limit("table_rows"), limit("table_columns")
        out: list[tuple[list, int]] = []
        for n, cells in enumerate(ws.iter_rows(max_col=most_cols + 1, values_only=True), start=1):
            if n > 2 * most_rows + 100:
                report.add(path, n, f"more than {most_rows} rows; expected at most {most_rows} rows in one data "
                           "table (are there stray cells far below the table?)")
                return None
            out.append(([_cell_value(v) for v in cells], n))
        return out
    finally:
        wb.close()


_ODS = {"table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
        "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
        "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0"}


def _q(ns: str, name: str) -> str:
    return f"{{{_ODS[ns]}}}{name}"


def _ods_rows(packed: bytes, path: Path, sheet: str | None, report: ErrorReport) -> list[tuple[list, int]] | None:
    """The rows of an OpenDocument sheet (content.xml), repeated rows and cells expanded only up to the bounds: the
    sheet's text, as the CSV file it would make (repeated cells and <text:s text:c> spaces expanded, one more
    character a cell), is counted as it is read, each cell's text built to at most one character more than
    `csv_field` (the caller reports the cell) and the sheet's to at most `sheet_text`. The XML is read a row at a
    time (_ods_sheet)."""
    with zipfile.ZipFile(io.BytesIO(packed)) as z:
        content = z.read("content.xml")
    names: list[str] = []
    most_rows, most_cols, most_text, most_cell = (limit("table_rows"), limit("table_columns"), limit("sheet_text"),
                                                  limit("csv_field"))
    out: list[tuple[list, int]] = []
    n = 0
    text = 0  # characters of the sheet read so far

    def too_long(line: int) -> None:
        report.add(path, line, f"the sheet's text is longer than {most_text} characters once its repeated cells and "
                   f"spaces are expanded; expected at most {most_text} characters in one sheet (as in the CSV file it "
                   "would make)")

    for row in _ods_sheet(content, sheet, names):
        if row is None:
            most_parts = limit("sheet_row_parts")
            report.add(path, n + 1, f"the row holds more than {most_parts} XML elements; expected at most "
                       f"{most_parts} in one row (a sheet saved by a spreadsheet program)")
            return None
        rep = _repeat(row.get(_q("table", "number-rows-repeated")))
        cells: list[Any] = []
        blank_cells = 0
        row_text = 0
        for cell in row:
            if cell.tag not in (_q("table", "table-cell"), _q("table", "covered-table-cell")):
                continue
            crep = _repeat(cell.get(_q("table", "number-columns-repeated")))
            value = _ods_value(cell, min(most_cell, max(most_text - text - row_text, 0)))
            if value == "":
                blank_cells += crep
                continue
            if len(cells) + blank_cells + crep > most_cols + 1:
                report.add(path, n + 1, f"more than {most_cols} columns; expected at most {most_cols} columns in "
                           "one data table")
                return None
            row_text += blank_cells + (len(value) + 1 if isinstance(value, str) else 8) * crep
            if text + row_text > most_text:
                too_long(n + 1)
                return None
            cells += [""] * blank_cells + [value] * crep
            blank_cells = 0
        if not cells:
            n += rep  # empty rows (a sheet ends with a run of a million of them) cost nothing
            continue
        if len(out) + rep > most_rows + 1 or n + rep > 2 * most_rows + 100:
            report.add(path, min(n + 1, 2 * most_rows + 100), f"more than {most_rows} rows; expected at most "
                       f"{most_rows} rows in one data table (are there stray cells far below the table?)")
            return None
        text += row_text * rep
        if text > most_text:
            too_long(n + 1)
            return None
        for _ in range(rep):
            n += 1
            out.append((list(cells), n))
    if not names or (sheet is not None and sheet not in names):
        _pick_sheet(names, sheet, path, report)
        return None
    return out


def _ods_sheet(content: bytes, sheet: str | None, names: list[str]) -> Iterator[Any]:
    """The <table:table-row> elements of the sheet wanted (the first, or the one named `sheet`), read from the XML
    one at a time: each row whole, then dropped (None in its place when it holds more than `sheet_row_parts`
    elements, and no more rows); whatever else the XML holds is dropped as it is read. `names` gets the names of
    the sheets read through. (ElementTree's parser: it drops a row of many namespaced elements at once, where lxml
    takes a time that grows with the square of their number; _unzipped has refused any DOCTYPE or entity.)"""
    from xml.etree.ElementTree import iterparse  # lazy: 2.6 ms (xml.etree.ElementTree)

    table_tag, row_tag = _q("table", "table"), _q("table", "table-row")
    most = limit("sheet_row_parts")
    open_: list[Any] = []  # the elements open around the one read (the document's root first)
    top = row = None
    wanted = False
    parts = 0
    for event, el in iterparse(io.BytesIO(content), events=("start", "end")):
        if event == "start":
            open_.append(el)
            if row is not None:
                parts += 1
                if parts > most:
                    yield None
                    return
            elif el.tag == table_tag and top is None:
                top = el
                names.append(el.get(_q("table", "name")) or f"Sheet{len(names) + 1}")
                wanted = names[-1] == sheet if sheet is not None else len(names) == 1
            elif el.tag == row_tag and wanted:
                row, parts = el, 0
            continue
        open_.pop()
        if el is row:
            yield el
            row = None
        elif row is not None:
            continue  # a part of the row: kept until the row ends
        if el is top:
            top = None
            if wanted:
                return
        if open_:
            open_[-1].remove(el)  # read: dropped (its parent holds only what is still being read)


def _repeat(raw: str | None) -> int:
    try:
        return max(1, int(raw)) if raw else 1
    except ValueError:
        return 1


def _ods_value(cell, most: int) -> Any:
    """A cell's value; its text built to at most `most` + 1 characters (longer: the caller's bounds report it)."""
    office = _q("office", "value-type")
    kind = cell.get(office)
    if kind in ("float", "percentage", "currency"):
        try:
            return _cell_value(float(cell.get(_q("office", "value"))))
        except (TypeError, ValueError):
            pass
    elif kind == "boolean":
        return (cell.get(_q("office", "boolean-value")) or "").lower() == "true"
    elif kind == "date":
        text = cell.get(_q("office", "date-value")) or ""
        return text[:-9] if text.endswith("T00:00:00") else text
    elif kind == "time":
        return cell.get(_q("office", "time-value")) or ""
    text = _OdsText(most)
    paragraphs = (p for p in cell if p.tag == _q("text", "p"))
    for k, p in enumerate(paragraphs):
        if k:
            text.add("\n")
        text.read(p)
        if text.full:
            break
    return "".join(text.parts)


class _OdsText:
    """The text of a cell's paragraphs (<text:s text:c="N"/> is N spaces, <text:span>s and links read inside),
    built to at most `most` + 1 characters whatever the elements say."""

    def __init__(self, most: int):
        self.left = most + 1
        self.parts: list[str] = []

    @property
    def full(self) -> bool:
        return self.left <= 0

    def add(self, piece: str) -> None:
        if piece and self.left > 0:
            piece = piece[:self.left]
            self.parts.append(piece)
            self.left -= len(piece)

    def read(self, el) -> None:
        self.add(el.text or "")
        for child in el:
            if self.full:
                return
            if child.tag == _q("text", "s"):
                self.add(" " * min(_repeat(child.get(_q("text", "c"))), 1000, self.left))
            elif child.tag == _q("text", "tab"):
                self.add("\t")
            elif child.tag == _q("text", "line-break"):
                self.add("\n")
            else:
                self.read(child)
            self.add(child.tail or "")


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
          report: ErrorReport, count_column: str | None) -> list[Row]:
    """Row mappings -> Rows, the copies of each read from `count_column` (its cell leaves the values; an empty
    cell means `default_count`)."""
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
        counted = None
        if count_column is not None and count_column in values:
            text = values.pop(count_column)
            if isinstance(text, str):
                text = text.strip()
            if text not in ("", None):  # an empty count cell: the component's count
                counted = text
                what = "count " if count_column == "count" else f"column '{count_column}' (the copies of each row): "
                try:
                    if isinstance(text, bool) or (isinstance(text, float) and not text.is_integer()):
                        raise ValueError
                    count = int(text)
                except (TypeError, ValueError, OverflowError):
                    shown = repr(text) if len(repr(text)) <= 40 else repr(text)[:37] + "..."
                    report.add(path, line, f"{what}{shown} is not a whole number; expected 0 or more copies")
                    continue
                if count < 0:
                    report.add(path, line, f"{what}{count} is negative; expected 0 or more copies")
                    continue
                if count > most:
                    report.add(path, line, f"{what}{count} is too large; expected at most {most} copies of one "
                               "face")
                    continue
        rows.append(Row(values, count, path, line, counted))
    return rows
