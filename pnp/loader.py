"""Design folders -> validated `Design` models, with every problem reported at once.

Stage 1 reads the YAML (encoding, syntax, duplicate keys); stage 2 validates types
and units against pnp.model; stage 3 cross-checks what the model cannot see alone:
registered game and generators, generator parameters, the game's `rules:` section
(its GameSpec.rules model), files that must exist. All
problems of all stages that can run are collected and raised together.
"""

from __future__ import annotations

import os
import sys
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from pydantic_core import ValidationError  # (pydantic's own: a game's models raise it too)

from pnp import registry
from pnp.confine import DesignFiles, FileRefused, allowed_dirs
from pnp.errors import DesignError, ErrorReport, display_path
from pnp.model import Design, Record
from pnp.yamlio import Document, Loc, load_yaml

if TYPE_CHECKING:
    from pydantic import BaseModel

    Model = type[BaseModel] | type[Record]

DESIGN_FILE = "design.yaml"


def _close_matches(word: str, names) -> list[str]:
    """The closest of `names` to `word` (difflib's, at most one), for an error's "did you mean"; difflib is imported
    only then."""
    import difflib  # lazy: 1.2 ms (difflib)

    return difflib.get_close_matches(word, names, n=1)


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
    """A design given as a folder, a design.yaml path, or the name of a folder under designs/.

    The folder comes back absolute and without '.' or '..' parts (a symbolic link keeps its
    own name), so the design's name is its folder's name however it was typed: `.`,
    `design.yaml`, `tubo/`, `./designs/../designs/tubo`.
    """
    p = Path(os.path.abspath(arg))
    if p.is_file() and p.name == DESIGN_FILE:
        return p.parent
    if p.is_dir():
        return p
    for root in (Path.cwd() / "designs", package_root() / "designs"):
        if "/" not in str(arg) and str(arg) not in (".", "..") and (root / str(arg)).is_dir():
            return Path(os.path.abspath(root / str(arg)))
    names = [d.name for d in find_designs()]
    hint = _close_matches(str(arg), names)
    more = f"; did you mean '{hint[0]}'?" if hint else ""
    report = ErrorReport()
    report.add(str(arg), None, f"no design folder here{more} expected a folder with a {DESIGN_FILE} "
               f"or one of: {', '.join(names) or '(none)'}")
    raise DesignError(report.problems)


def select_designs(args: tuple[str, ...] | list[str]) -> list[Design]:
    """The designs a command names (folders, design.yaml paths or names), or every design found."""
    folders = [resolve_design(a) for a in args] if args else find_designs()
    if not folders:
        report = ErrorReport()
        report.add("designs", None, "no design found; expected folders with a design.yaml under ./designs")
        report.raise_if_any()
    return load_designs(folders)


def load_design(folder: Path) -> Design:
    """Load and validate one design folder; raises DesignError listing every problem."""
    folder = Path(os.path.abspath(folder))
    path = folder / DESIGN_FILE
    files = DesignFiles(folder)
    doc = load_yaml(path, files)
    report = ErrorReport()
    if not isinstance(doc.data, dict):
        report.add(path, doc.line(()), "the file does not hold a mapping of keys; expected 'meta:', "
                   "'print:' and 'components:' at the top level")
        report.raise_if_any()
    _cross_check(doc, files, report)  # runs on the raw data, so its problems join the model's
    try:
        design = Design.model_validate(doc.data)
    except ValidationError as exc:
        for err in exc.errors():
            report.add(path, doc.line(err["loc"]), describe_error(err, Design))
    report.raise_if_any()
    design._folder = folder
    design._source = doc
    _attach_params(design)
    _attach_rules(design)
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


def _cross_check(doc: Document, files: DesignFiles, report: ErrorReport) -> None:
    """Checks the model cannot make alone: registered game and generators, generator params, files."""
    data = doc.data
    game = data.get("game")
    spec = registry.get_game(game) if isinstance(game, str) else None
    if isinstance(game, str) and spec is None:
        report.add(doc.path, doc.line(("game",)), _unknown("game", game, registry.GAMES))
    if spec is not None and spec.rules is not None and isinstance(data.get("rules", {}), dict):
        _check_rules(doc, report, spec.rules, data.get("rules", {}))
    if isinstance(data.get("fonts"), dict):
        _check_fonts(doc, files, report, data["fonts"])
    components = data.get("components")
    if not isinstance(components, dict):
        return
    for cid, comp in components.items():
        if not isinstance(comp, dict):
            continue
        loc = ("components", cid)
        _check_source(doc, files, report, loc, comp)
        if isinstance(comp.get("back"), dict):
            _check_source(doc, files, report, loc + ("back",), comp["back"])
        if isinstance(comp.get("data"), str):
            _check_file(doc, report, loc + ("data",), comp["data"], files)


def _check_fonts(doc: Document, files: DesignFiles, report: ErrorReport, fonts_section: dict) -> None:
    """Each font file of `fonts:` is in the design folder, bounded, and a TrueType font ReportLab can embed."""
    from pnp.render.fonts import FONT_EXTENSIONS, register_data  # lazy: 7.9 ms (pnp.render.fonts)

    for family, faces in fonts_section.items():
        if not isinstance(faces, dict):
            continue
        for slot, name in faces.items():
            if not isinstance(name, str) or slot not in ("regular", "bold", "italic", "bold_italic"):
                continue  # the model says what is wrong
            where = (doc.path, doc.line(("fonts", family, slot)))
            if not name.lower().endswith(FONT_EXTENSIONS):
                report.add(*where, f"fonts.{family}.{slot}: '{name}' is not a .ttf or .otf file; expected a "
                           "TrueType font file in the design folder")
                continue
            try:
                path = files.resolve(name, where, what="font")
                data = files.read_bytes(path, "font_bytes")
            except DesignError as exc:
                report.extend(exc)
                continue
            except FileRefused as exc:
                report.add(*where, exc.message)
                continue
            try:
                register_data(data)
            except ValueError as exc:
                report.add(*where, f"fonts.{family}.{slot}: '{name}' cannot be used: {exc}")


def _unknown(what: str, name: str, known: dict) -> str:
    """`unknown X 'name'; did you mean 'y'?` when one is close, else the list (same namespace, if any)."""
    hint = _close_matches(name, list(known))
    if hint:
        return f"unknown {what} '{name}'; did you mean '{hint[0]}'? expected a registered {what} name"
    space = name.split(".")[0] + "."
    if "." in name and any(k.startswith(space) for k in known):
        known = {k: v for k, v in known.items() if k.startswith(space)}
    return f"unknown {what} '{name}'; expected one of: {', '.join(sorted(known)) or '(none)'}"


def _check_source(doc: Document, files: DesignFiles, report: ErrorReport, loc: Loc, src: dict) -> None:
    name = src.get("generate")
    if isinstance(name, str):
        gen = registry.get_generator(name)
        params = src.get("params", {})
        if gen is None:
            where = ".".join(str(p) for p in loc + ("generate",))
            report.add(doc.path, doc.line(loc + ("generate",)),
                       f"{where}: " + _unknown("generator", name, registry.GENERATORS))
        elif gen.params is not None and isinstance(params, dict):
            try:
                gen.params.model_validate(params)
            except ValidationError as exc:
                for err in exc.errors():
                    report.add(doc.path, doc.line(loc + ("params",) + tuple(err["loc"])),
                               describe_error(err, gen.params, prefix=loc + ("params",)))
        elif gen.params is None and params:
            report.add(doc.path, doc.line(loc + ("params",)),
                       f"generator '{name}' takes no parameters; expected no 'params:'")
    template = src.get("template")
    if isinstance(template, str):
        folder = files.folder
        try:
            files.resolve(template, (doc.path, doc.line(loc + ("template",))), bases=template_bases(folder),
                          shared=True, what="template",
                          expected=f"expected it in {display_path(folder)}/, {display_path(folder / 'templates')}/ "
                                   f"or {display_path(templates_dir())}/")
        except DesignError as exc:
            report.extend(exc)
    if isinstance(src.get("svg"), str):
        _check_file(doc, report, loc + ("svg",), src["svg"], files)


def _check_file(doc: Document, report: ErrorReport, loc: Loc, name: str, files: DesignFiles) -> None:
    """A file the design names exists, inside the design folder, and is a regular file (read later, bounded)."""
    try:
        files.resolve(name, (doc.path, doc.line(loc)))
    except DesignError as exc:
        report.extend(exc)


def _attach_params(design: Design) -> None:
    """Replace each generator's raw params by its validated params model (already checked above)."""
    for comp in design.components.values():
        for src in (comp, comp.back):
            if src is not None and src.generate:
                gen = registry.get_generator(src.generate)
                if gen is not None and gen.params is not None:
                    src.params = gen.params.model_validate(src.params)


def _check_rules(doc: Document, report: ErrorReport, model: Model, raw: dict) -> None:
    """`rules:` against the game's rules model: one file:line problem per mistake."""
    try:
        model.model_validate(raw)
    except ValidationError as exc:
        for err in exc.errors():
            report.add(doc.path, doc.line(("rules",) + tuple(err["loc"])), describe_rules_error(err, model))


def describe_rules_error(err: Mapping[str, Any], model: Model) -> str:
    """describe_error under `rules.`; a missing key says what it holds (its field description)."""
    loc = tuple(err["loc"])
    if err["type"] == "missing" and loc:
        parent = _model_in(_type_at(model, loc[:-1]))
        field = parent.model_fields.get(str(loc[-1])) if _is_model(parent) else None
        if field is not None and field.description:
            return f"{'.'.join(str(p) for p in ('rules',) + loc)}: missing; expected {field.description}"
    if err["type"] in ("too_long", "too_short"):
        ctx = err.get("ctx", {})
        bound = f"at most {ctx.get('max_length')}" if err["type"] == "too_long" else f"at least {ctx.get('min_length')}"
        return f"{'.'.join(str(p) for p in ('rules',) + loc)}: {ctx.get('actual_length')} items; expected {bound}"
    return describe_error(err, model, prefix=("rules",))


def _attach_rules(design: Design) -> None:
    """Keep the game's validated rules model beside the raw `rules:` (already checked above)."""
    spec = registry.get_game(design.game) if design.game else None
    if spec is not None and spec.rules is not None:
        design._game_rules = spec.rules.model_validate(design.rules)


def template_bases(design_folder: Path) -> list[Path]:
    """Where templates are looked for, in order: the design folder, its templates/, the folders given with
    --allow-dir, pnp's templates/."""
    return [Path(design_folder), Path(design_folder) / "templates", *allowed_dirs(), templates_dir()]


# --- pydantic errors as designer messages ------------------------------------------------


def describe_error(err: Mapping[str, Any], root: Model, prefix: Loc = ()) -> str:
    """`where: what is wrong; what is expected` for one pydantic error."""
    loc = tuple(err["loc"])
    where = ".".join(str(p) for p in prefix + loc) or "top level"
    kind, value, msg = err["type"], err.get("input"), err["msg"]
    if kind == "extra_forbidden":
        key = str(loc[-1])
        allowed = _allowed_keys(root, loc[:-1])
        hint = _close_matches(key, allowed)
        did = f"; did you mean '{hint[0]}'?" if hint else ";"
        parent = ".".join(str(p) for p in prefix + loc[:-1])
        return f"{parent + ': ' if parent else ''}unknown key '{key}'{did} expected one of: {', '.join(allowed)}"
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
    if kind in ("less_than_equal", "less_than"):
        bound = err["ctx"].get("le", err["ctx"].get("lt"))
        return f"{where}: {value!r} is too large; expected at most {bound}" if kind == "less_than_equal" \
            else f"{where}: {value!r} is too large; expected less than {bound}"
    if kind == "too_long":
        most = err["ctx"].get("max_length")
        found = err["ctx"].get("actual_length")
        return f"{where}: {found} items; expected at most {most}"
    if kind == "too_short":
        return f"{where}: {err['ctx'].get('actual_length')} items; expected at least {err['ctx'].get('min_length')}"
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


def _allowed_keys(root: Model, loc: Loc) -> list[str]:
    """Field names of the model found at `loc` below `root` (dict keys and list indices skipped)."""
    tp = _model_in(_type_at(root, loc))
    if _is_model(tp):
        return list(tp.model_fields)
    return []


def _type_at(root: Model, loc: Loc) -> Any:
    """The type found at `loc` below `root` (dict keys and list indices skipped); None if there is none."""
    tp: Any = root
    for part in loc:
        tp = _model_in(tp)
        if tp is None:
            return None
        if _is_model(tp):
            field = tp.model_fields.get(str(part))
            if field is None:
                return None
            tp = field.annotation
        else:  # dict[str, X] or list[X]: step into X
            args = typing.get_args(tp)
            tp = args[-1] if args else None
    return tp


def _model_in(tp: Any) -> Any:
    """Unwrap Optional/Union/Annotated down to a model (_is_model) or a container type."""
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return _model_in(typing.get_args(tp)[0])
    if origin in (Union, types.UnionType):
        for arg in typing.get_args(tp):
            inner = _model_in(arg)
            if _is_model(inner):
                return inner
        for arg in typing.get_args(tp):
            if typing.get_origin(arg) in (dict, list):
                return arg
        return None
    return tp


def _is_model(tp: Any) -> bool:
    """A model class: one of pnp.model's Records, or a game's pydantic model (both list their `model_fields`). There is
    no pydantic model before pydantic is imported, and the loader does not import it for that."""
    if not isinstance(tp, type):
        return False
    pydantic = sys.modules.get("pydantic")
    return issubclass(tp, Record) or (pydantic is not None and issubclass(tp, pydantic.BaseModel))
