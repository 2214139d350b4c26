"""Design folders -> validated `Design` models, with every problem reported at once.

Stage 1 reads the YAML (encoding, syntax, duplicate keys); stage 2 validates types
and units against pnp.model; stage 3 cross-checks what the model cannot see alone:
registered game and generators, generator parameters, files that must exist. All
problems of all stages that can run are collected and raised together.
"""

from __future__ import annotations

import difflib
import types
import typing
from pathlib import Path
from typing import Any, Union

from pydantic import BaseModel, ValidationError

from pnp import registry
from pnp.errors import DesignError, ErrorReport
from pnp.model import Component, Design
from pnp.yamlio import Document, Loc, load_yaml

DESIGN_FILE = "design.yaml"


def package_root() -> Path:
    """The folder holding designs/ and templates/: the repository in a development install, else the wheel's copy."""
    here = Path(__file__).resolve().parent
    embedded = here / "_embedded"
    return embedded if embedded.is_dir() else here.parent


def templates_dir() -> Path:
    return package_root() / "templates"


def default_designs_dir() -> Path:
    """./designs when the working directory has one (a designer's project), else the embedded games."""
    local = Path.cwd() / "designs"
    return local if local.is_dir() else package_root() / "designs"


def find_designs(root: Path | None = None) -> list[Path]:
    root = root or default_designs_dir()
    return sorted(p.parent for p in root.glob(f"*/{DESIGN_FILE}"))


def resolve_design(arg: str | Path) -> Path:
    """A design given as a folder, a design.yaml path, or the name of a folder under designs/."""
    p = Path(arg)
    if p.is_file() and p.name == DESIGN_FILE:
        return p.parent
    if p.is_dir():
        return p
    for root in (Path.cwd() / "designs", package_root() / "designs"):
        if (root / str(arg)).is_dir():
            return root / str(arg)
    names = [d.name for d in find_designs()]
    hint = difflib.get_close_matches(str(arg), names, n=1)
    more = f"; did you mean '{hint[0]}'?" if hint else ""
    report = ErrorReport()
    report.add(str(arg), None, f"no design folder here{more} expected a folder with a {DESIGN_FILE} "
               f"or one of: {', '.join(names) or '(none)'}")
    raise DesignError(report.problems)


def load_design(folder: Path) -> Design:
    """Load and validate one design folder; raises DesignError listing every problem."""
    folder = Path(folder)
    path = folder / DESIGN_FILE
    doc = load_yaml(path)
    report = ErrorReport()
    if not isinstance(doc.data, dict):
        report.add(path, doc.line(()), "the file does not hold a mapping of keys; expected 'meta:', "
                   "'print:' and 'components:' at the top level")
        report.raise_if_any()
    try:
        design = Design.model_validate(doc.data)
    except ValidationError as exc:
        for err in exc.errors():
            report.add(path, doc.line(err["loc"]), describe_error(err, Design))
        report.raise_if_any()
        raise  # unreachable: a ValidationError always has errors
    design._folder = folder
    design._source = doc
    _cross_check(design, doc, report)
    report.raise_if_any()
    return design


def load_designs(folders: list[Path]) -> list[Design]:
    """Load several designs; problems of all of them are raised together."""
    report = ErrorReport()
    designs = []
    for folder in folders:
        try:
            designs.append(load_design(folder))
        except DesignError as exc:
            report.extend(exc)
    report.raise_if_any()
    return designs


# --- stage 3: cross-checks -------------------------------------------------------------


def _cross_check(design: Design, doc: Document, report: ErrorReport) -> None:
    registry.discover()
    if design.game and registry.get_game(design.game) is None:
        report.add(doc.path, doc.line(("game",)), _unknown("game", design.game, registry.GAMES))
    for cid, comp in design.components.items():
        _check_source(design, doc, report, ("components", cid), comp)
        if comp.back is not None:
            _check_source(design, doc, report, ("components", cid, "back"), comp.back)
        if comp.data is not None and isinstance(comp.data, str):
            _check_file(design, doc, report, ("components", cid, "data"), comp.data, design.folder)


def _unknown(what: str, name: str, known: dict) -> str:
    hint = difflib.get_close_matches(name, list(known), n=1)
    did = f"; did you mean '{hint[0]}'?" if hint else ""
    return f"unknown {what} '{name}'{did} expected one of: {', '.join(sorted(known)) or '(none)'}"


def _check_source(design: Design, doc: Document, report: ErrorReport, loc: Loc, src) -> None:
    if src.generate:
        gen = registry.get_generator(src.generate)
        if gen is None:
            report.add(doc.path, doc.line(loc + ("generate",)),
                       _unknown("generator", src.generate, registry.GENERATORS))
        elif gen.params is not None:
            try:
                src.params = gen.params.model_validate(src.params)
            except ValidationError as exc:
                for err in exc.errors():
                    report.add(doc.path, doc.line(loc + ("params",) + tuple(err["loc"])),
                               describe_error(err, gen.params, prefix=loc + ("params",)))
        elif src.params:
            report.add(doc.path, doc.line(loc + ("params",)),
                       f"generator '{src.generate}' takes no parameters; expected no 'params:'")
    if src.template:
        if find_template(src.template, design.folder) is None:
            report.add(doc.path, doc.line(loc + ("template",)),
                       f"template '{src.template}' not found; expected it in {design.folder}/ or {templates_dir()}/")
    if src.svg:
        _check_file(design, doc, report, loc + ("svg",), src.svg, design.folder)


def _check_file(design: Design, doc: Document, report: ErrorReport, loc: Loc, name: str, folder: Path) -> None:
    if not (folder / name).is_file():
        report.add(doc.path, doc.line(loc), f"file '{name}' not found; expected it in {folder}/")


def find_template(name: str, design_folder: Path) -> Path | None:
    for base in (design_folder, design_folder / "templates", templates_dir()):
        if (base / name).is_file():
            return base / name
    return None


# --- pydantic errors as designer messages ------------------------------------------------


def describe_error(err: dict, root: type[BaseModel], prefix: Loc = ()) -> str:
    """`where: what is wrong; what is expected` for one pydantic error."""
    loc = tuple(err["loc"])
    where = ".".join(str(p) for p in prefix + loc) or "top level"
    kind, value, msg = err["type"], err.get("input"), err["msg"]
    if kind == "extra_forbidden":
        key = str(loc[-1])
        allowed = _allowed_keys(root, loc[:-1])
        hint = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
        did = f"; did you mean '{hint[0]}'?" if hint else ";"
        return f"unknown key '{key}'{did} expected one of: {', '.join(allowed)}"
    if kind == "missing":
        return f"{where}: missing; expected this key to be given"
    if kind in ("value_error", "assertion_error"):
        text = str(err.get("ctx", {}).get("error", msg))
        return f"{where}: {text}"
    if kind in ("greater_than_equal", "greater_than"):
        bound = err["ctx"].get("ge", err["ctx"].get("gt"))
        op = "or more" if kind == "greater_than_equal" else "exclusive"
        what = "negative" if isinstance(value, (int, float)) and value < 0 else "too small"
        return f"{where}: {value!r} is {what}; expected {bound} {op}" if op != "exclusive" \
            else f"{where}: {value!r} is {what}; expected more than {bound}"
    if kind.startswith("int_"):
        return f"{where}: {value!r} is not a whole number; expected an integer such as 3"
    if kind.startswith("float_"):
        return f"{where}: {value!r} is not a number; expected a number such as 2.5"
    if kind.startswith("bool_"):
        return f"{where}: {value!r} is not true/false; expected true or false"
    if kind == "literal_error":
        return f"{where}: {value!r} is not allowed; expected {err['ctx']['expected']}"
    if kind in ("string_type",):
        return f"{where}: {value!r} is not text; expected a text value"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"{where}: {_short(value)} is not a mapping; expected keys and values (key: value)"
    if kind == "list_type":
        return f"{where}: {_short(value)} is not a list; expected a list (- item)"
    return f"{where}: {msg}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _allowed_keys(root: type[BaseModel], loc: Loc) -> list[str]:
    """Field names of the model found at `loc` below `root` (dict keys and list indices skipped)."""
    tp: Any = root
    for part in loc:
        tp = _model_in(tp)
        if tp is None:
            return []
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            field = tp.model_fields.get(str(part))
            if field is None:
                return []
            tp = field.annotation
        else:  # dict[str, X] or list[X]: step into X
            args = typing.get_args(tp)
            tp = args[-1] if args else None
    tp = _model_in(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return list(tp.model_fields)
    return []


def _model_in(tp: Any) -> Any:
    """Unwrap Optional/Union/Annotated down to a BaseModel or a container type."""
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return _model_in(typing.get_args(tp)[0])
    if origin in (Union, types.UnionType):
        for arg in typing.get_args(tp):
            inner = _model_in(arg)
            if isinstance(inner, type) and issubclass(inner, BaseModel):
                return inner
        for arg in typing.get_args(tp):
            if typing.get_origin(arg) in (dict, list):
                return arg
        return None
    return tp
