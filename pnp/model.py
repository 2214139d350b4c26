"""The design model: what a design.yaml may say, typed and documented.

Every field has a description; `docs/design-format.md` is the reader's version of
this file. Lengths are stored in mm. The model knows nothing of any game: games add
meaning through registered generators (pnp.registry) and engines, whose own models
are pydantic models built on pnp.params.

The design is validated by pydantic-core, the engine pydantic runs on, against schemas written
here with its `core_schema` functions (each class's `schema()`), the ones pydantic would derive
from type hints. Only pydantic-core is imported: pydantic's Python layer (importing it, then
deriving the schema of every model) took about a third of the start-up of each command (120 to
190 ms here); the validation, its errors (every one, with its location) and their wording are the
same. Field order is the order of the schema (errors and `model_dump` follow it).
"""

from __future__ import annotations

import math
import re
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic_core import PydanticKnownError, SchemaSerializer, SchemaValidator, core_schema as cs

from pnp.limits import limit
from pnp.units import fmt_mm, parse_length


def bounded_length(mm: float) -> float:
    if abs(mm) > limit("length"):
        raise ValueError(f"{fmt_mm(mm)} mm is too long; expected at most {limit('length')} mm")
    return mm


def colour(value: Any) -> str:
    if not isinstance(value, str) or not _COLOUR.match(value.strip()):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise ValueError(f"{shown} is not a colour; expected #rrggbb or #rgb, e.g. #0072B2")
    return value.strip()


_COLOUR = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")

MAX_ITEMS = limit("list_items")
"""Entries of a list in a generator's params (Field(max_length=MAX_ITEMS))."""

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")

CARD_SIZES: dict[str, tuple[float, float]] = {
    # trim sizes (mm) as print services name them; sources in docs/design-format.md ("Named sizes")
    "poker": (63.5, 88.9),  # 2.5 x 3.5 in
    "euro-poker": (63.0, 88.0),  # the metric poker size (pnp's `poker` before issue 30)
    "bridge": (57.15, 88.9),  # 2.25 x 3.5 in
    "us-game": (56.0, 87.0),
    "tarot": (69.85, 120.65),  # 2.75 x 4.75 in
    "mini": (44.45, 63.5),  # 1.75 x 2.5 in
    "micro": (31.75, 44.45),  # 1.25 x 1.75 in
    "domino": (44.45, 88.9),  # 1.75 x 3.5 in
    "jumbo": (88.9, 139.7),  # 3.5 x 5.5 in
    "small-square": (63.5, 63.5),  # 2.5 in
    "euro-square": (69.85, 69.85),  # 2.75 in
    "square": (88.9, 88.9),  # 3.5 in
    "mini-euro": (45.0, 68.0),
    "mini-usa": (41.0, 63.0),
    "small-chit": (12.7, 12.7),  # 0.5 in
    "medium-chit": (19.05, 19.05),  # 0.75 in
    "large-chit": (25.4, 25.4),  # 1 in
    "mini-tile": (31.75, 31.75),  # 1.25 in
    "medium-tile": (63.5, 63.5),  # 2.5 in
    "large-tile": (88.9, 88.9),  # 3.5 in
    "domino-tile": (50.8, 101.6),  # 2 x 4 in
}

LANGUAGES = ("en", "fr")

Text = str | dict[str, str]
"""Plain text, or one text per language: {en: ..., fr: ...}."""


def text_in(value: Text, lang: str) -> str:
    """A Text in `lang`: the plain text itself, or that language's text (else the first one given)."""
    if isinstance(value, dict):
        return value.get(lang) or next(iter(value.values()), "")
    return value


# --- the schema's parts --------------------------------------------------------------------------

_REQUIRED: Any = object()


class Field:
    """One field of a Record: its schema (pydantic-core), default (or `factory`) and description."""

    __slots__ = ("schema", "default", "factory", "description")

    def __init__(self, schema: cs.CoreSchema, default: Any = _REQUIRED, description: str = "",
                 factory: Callable[[], Any] | None = None):
        self.schema, self.default, self.factory, self.description = schema, default, factory, description

    def core(self) -> cs.ModelField:
        if self.factory is not None:
            return cs.model_field(cs.with_default_schema(self.schema, default_factory=self.factory))
        if self.default is not _REQUIRED:
            return cs.model_field(cs.with_default_schema(self.schema, default=self.default))
        return cs.model_field(self.schema)


def length(ge: float | None = None, gt: float | None = None) -> cs.CoreSchema:
    """A physical length: '63mm', '6.3cm', '2.5in', '12pt' (stored in mm), at most pnp.limits `length`."""
    return cs.no_info_after_validator_function(
        bounded_length, cs.no_info_before_validator_function(parse_length, cs.float_schema(ge=ge, gt=gt)))


MAX_MARGIN = 40.0  # mm: print.margin (a printer's unprintable edge is a few mm; more leaves no sheet to use)


def _at_most(bound: float) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if value > bound:
            raise PydanticKnownError("less_than_equal", {"le": f"{bound:g}mm"})
        return value

    return check


def _at_least(bound: int) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if value < bound:
            raise PydanticKnownError("greater_than_equal", {"ge": bound})
        return value

    return check


def optional_length(ge: int) -> cs.CoreSchema:
    """`Length | None` with a lower bound, checked after the length is read (as pydantic checks it)."""
    return cs.nullable_schema(cs.no_info_after_validator_function(_at_least(ge), length()))


def text() -> cs.CoreSchema:
    return cs.str_schema()


def optional_text() -> cs.CoreSchema:
    return cs.nullable_schema(cs.str_schema())


def choice(*values: str) -> cs.CoreSchema:
    return cs.literal_schema(list(values))


def any_dict() -> cs.CoreSchema:
    return cs.dict_schema(cs.str_schema(), cs.any_schema())


class _Fields:
    """`Record.model_fields`: name -> (`annotation`, the class's type hint; `description`), made when first asked
    (the loader's messages walk them, to list the keys a mapping allows)."""

    def __get__(self, obj: Any, owner: type[Record]) -> dict[str, Any]:
        found = owner.__dict__.get("_model_fields")
        if found is None:
            hints = typing.get_type_hints(owner)
            found = owner._model_fields = {name: _FieldInfo(hints.get(name, Any), f.description)
                                           for name, f in owner.fields().items()}
        return found


class _FieldInfo:
    __slots__ = ("annotation", "description")

    def __init__(self, annotation: Any, description: str):
        self.annotation, self.description = annotation, description


class Record:
    """A validated part of the design: `model_validate(data)` checks `data` against the class's `schema()`
    and gives an instance whose attributes are the fields; `model_dump`, `model_copy` and `model_fields` as
    pydantic's models have them. Assigning an attribute is not validated (as in pydantic)."""

    __slots__ = ("__dict__", "__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__")

    model_fields: ClassVar[Any] = _Fields()
    _model_fields: ClassVar[dict[str, Any] | None]
    _schema: ClassVar[cs.CoreSchema]
    _validator: ClassVar[SchemaValidator]
    _serializer: ClassVar[SchemaSerializer]

    @classmethod
    def fields(cls) -> dict[str, Field]:
        raise NotImplementedError

    @classmethod
    def before(cls, value: Any) -> Any:
        """The raw value turned into a mapping of fields (before they are checked): as it is by default."""
        return value

    def after(self) -> Any:
        """Checks across fields, once they are valid (raise ValueError): none by default."""
        return self

    @classmethod
    def schema(cls) -> cs.CoreSchema:
        """The class's core schema, made once (its validator, its serializer and the classes that hold it share it)."""
        made = cls.__dict__.get("_schema")
        if made is None:
            made = cls._schema = cls._make_schema()
        return made

    @classmethod
    def _make_schema(cls) -> cs.CoreSchema:
        fields = cs.model_fields_schema({k: f.core() for k, f in cls.fields().items()}, model_name=cls.__name__)
        inner: cs.CoreSchema = fields
        if cls.before.__func__ is not Record.before.__func__:  # type: ignore[attr-defined]
            inner = cs.no_info_before_validator_function(cls.before, fields)
        model: cs.CoreSchema = cs.model_schema(cls, inner, config=cs.CoreConfig(
            title=cls.__name__, extra_fields_behavior="forbid", str_strip_whitespace=True))
        for check in cls._checks():
            model = cs.no_info_after_validator_function(check, model)
        return model

    @classmethod
    def _checks(cls) -> list[Callable[[Any], Any]]:
        """Every class's own `after`, base class first (as pydantic runs inherited model validators)."""
        found = []
        for klass in reversed(cls.__mro__):
            own = klass.__dict__.get("after")
            if own is not None and klass is not Record:
                found.append(own)
        return found

    @classmethod
    def model_validate(cls, data: Any) -> typing.Self:
        validator = cls.__dict__.get("_validator")
        if validator is None:
            validator = cls._validator = SchemaValidator(cls.schema())
        return validator.validate_python(data)

    def model_dump(self, *, mode: Literal["python", "json"] = "python", exclude: set[str] | None = None,
                   warnings: bool = True) -> dict[str, Any]:
        cls = type(self)
        serializer = cls.__dict__.get("_serializer")
        if serializer is None:
            serializer = cls._serializer = SchemaSerializer(cls.schema())
        return serializer.to_python(self, mode=mode, exclude=exclude, warnings=warnings)

    def model_copy(self, *, update: dict[str, Any] | None = None) -> typing.Self:
        """A shallow copy, with the fields in `update` replaced (not validated, as in pydantic)."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(update or {})
        object.__setattr__(copy, "__pydantic_fields_set__", set(getattr(self, "__pydantic_fields_set__", ())) |
                           set(update or {}))
        for slot in ("__pydantic_extra__", "__pydantic_private__"):
            object.__setattr__(copy, slot, getattr(self, slot, None))
        return copy

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]  # mutable, as pydantic's models

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items() if not k.startswith("_"))
        return f"{type(self).__name__}({shown})"


# --- the design ------------------------------------------------------------------------------------


class Players(Record):
    min: int
    max: int

    @classmethod
    def fields(cls) -> dict[str, Field]:
        count = cs.int_schema(ge=1, le=limit("players"))
        return {"min": Field(count, description="Fewest players"), "max": Field(count, description="Most players")}

    @classmethod
    def before(cls, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return {"min": value, "max": value}
        if isinstance(value, str):
            m = re.fullmatch(r"\s*(\d+)\s*(?:-|–|to)\s*(\d+)\s*", value)
            if m:
                return {"min": int(m.group(1)), "max": int(m.group(2))}
            if value.strip().isdigit():
                return {"min": int(value), "max": int(value)}
            raise ValueError(f"'{value}' is not a player count; expected a number or a range like 2-4")
        return value

    def after(self) -> Players:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}; expected min <= max")
        return self

    def __str__(self) -> str:
        return str(self.min) if self.min == self.max else f"{self.min}-{self.max}"


class Meta(Record):
    title: str  # in the design's first language; title_in(lang) in each (meta.title may be {en: ..., fr: ...})
    author: str
    year: int | None
    players: Players
    play_time: str
    age: str
    version: str
    date: str
    languages: list[Literal["en", "fr"]]

    @classmethod
    def fields(cls) -> dict[str, Field]:
        return {
            "title": Field(cs.union_schema([cs.str_schema(), cs.dict_schema(cs.str_schema(), cs.str_schema())]),
                           description="The game's title (per language allowed)"),
            "author": Field(text(), "", "Designer(s)"),
            "year": Field(cs.nullable_schema(cs.int_schema()), None, "Year of the design"),
            "players": Field(Players.schema(), description="Player count: a number or a range like 2-4"),
            "play_time": Field(text(), "", "Typical play time, e.g. '20-30 min'"),
            "age": Field(text(), "", "Minimum age, e.g. '8+'"),
            "version": Field(text(), "1.0", "Version of this design"),
            "date": Field(text(), "", "Date of this version (printed in the rulebook)"),
            "languages": Field(cs.list_schema(choice(*LANGUAGES)), factory=lambda: ["en"],
                               description="Rulebook languages"),
        }

    def after(self) -> "Meta":
        given: Text = self.title
        self.__dict__["_titles"] = dict(given) if isinstance(given, dict) else {}
        self.title = text_in(given, self.languages[0] if self.languages else "en")
        return self

    @property
    def titles(self) -> dict[str, str]:
        """The title per language, when design.yaml gives one per language (else empty)."""
        return self.__dict__.get("_titles", {})

    def title_in(self, lang: str) -> str:
        """The title as the edition in `lang` prints it (its sheets, rulebook and kit)."""
        return self.titles.get(lang) or self.title


class PrintSettings(Record):
    paper: Literal["a4", "letter", "a3"]
    bleed: float
    safe_zone: float
    gutter: float | str | None
    margin: float
    orientation: Literal["auto", "portrait", "landscape"]
    duplex: Literal["long", "short", "none", "fold"]
    back_offset: tuple[float, float]
    marks: Literal["crop", "cut", "none"]
    proof: bool
    version_mark: Literal["none", "corner", "bleed"]

    @classmethod
    def fields(cls) -> dict[str, Field]:
        return {
            "paper": Field(choice("a4", "letter", "a3"), "a4", "Sheet size"),
            "bleed": Field(length(ge=0), 3.0, "Art extends this far beyond the trim"),
            "safe_zone": Field(length(ge=0), 3.0, "Text stays this far inside the trim"),
            "gutter": Field(cs.union_schema(
                [cs.literal_schema(["bleed"]), optional_length(ge=0)], custom_error_type="gutter",
                custom_error_message="expected a length such as 3mm, or bleed (both cards' bleeds)"), None,
                            "Gap between the trims of neighbouring cards; default: the bleed; "
                            "`bleed`: both cards' bleeds, kept whole"),
            "margin": Field(cs.no_info_after_validator_function(_at_most(MAX_MARGIN), length(ge=0)), 6.35,
                            "Printable area: nothing is printed closer than this to the paper's edges"),
            "orientation": Field(choice("auto", "portrait", "landscape"), "auto",
                                 "Sheet orientation; auto picks, per component, the one that wastes least"),
            "duplex": Field(choice("long", "short", "none", "fold"), "long",
                            "Backs: long-edge or short-edge duplex, none (separate sheets), fold (gutter-fold)"),
            "back_offset": Field(cs.no_info_before_validator_function(
                cls._offset_text, cs.tuple_schema([length(), length()])), (0.0, 0.0),
                "Shift of back pages only [x, y], for printers whose duplex drifts"),
            "marks": Field(choice("crop", "cut", "none"), "crop", "Crop marks outside the trim, or full cut lines"),
            "proof": Field(cs.bool_schema(), False, "Draw trim, bleed and safe-zone guides (never for the final print)"),
            "version_mark": Field(cs.no_info_before_validator_function(
                cls._mark_flag, choice("none", "corner", "bleed")), "none",
                "A 5 pt version code and date on every face (pnp printed), bottom right: corner (between the trim "
                "and the safe zone), bleed (in the bottom bleed: gone once cut), none; true is corner"),
        }

    @staticmethod
    def _mark_flag(value: Any) -> Any:
        return {True: "corner", False: "none"}.get(value, value) if isinstance(value, bool) else value

    @staticmethod
    def _offset_text(value: Any) -> Any:
        if isinstance(value, str):
            parts = [p for p in value.replace(";", ",").split(",")]
            if len(parts) != 2:
                raise ValueError(f"'{value}' is not an offset; expected X,Y such as 0.5mm,-0.3mm")
            return tuple(p.strip() for p in parts)
        return value

    @property
    def effective_gutter(self) -> float:
        if self.gutter == "bleed":
            return 2 * self.bleed
        return self.bleed if self.gutter is None else float(self.gutter)


class Size(Record):
    width: float
    height: float

    @classmethod
    def fields(cls) -> dict[str, Field]:
        return {"width": Field(length(gt=0)), "height": Field(length(gt=0))}

    @classmethod
    def before(cls, value: Any) -> Any:
        if isinstance(value, str):
            key = value.strip().lower()
            if key in CARD_SIZES:
                w, h = CARD_SIZES[key]
                return {"width": f"{w}mm", "height": f"{h}mm"}
            raise ValueError(
                f"unknown size '{value}'; expected one of {', '.join(CARD_SIZES)} or {{width: 63mm, height: 88mm}}"
            )
        return value


class FaceSource(Record):
    """Where a face's art comes from: a registered generator, a Jinja2 SVG template, or an SVG file."""

    generate: str | None
    params: Any  # the raw mapping; the generator's params model once the loader has checked it
    template: str | None
    svg: str | None

    @classmethod
    def fields(cls) -> dict[str, Field]:
        return {
            "generate": Field(optional_text(), None, "A registered generator, e.g. three_stars.card_back"),
            "params": Field(any_dict(), factory=dict, description="Parameters passed to the generator"),
            "template": Field(optional_text(), None, "Jinja2 SVG template (design folder, then templates/)"),
            "svg": Field(optional_text(), None, "A ready SVG file in the design folder"),
        }

    def after(self) -> FaceSource:
        given = [k for k in ("generate", "template", "svg") if getattr(self, k)]
        if len(given) != 1:
            found = ", ".join(given) if given else "none"
            raise ValueError(f"found {found}; expected exactly one of generate, template or svg")
        return self


SHAPES = ("rect", "triangle", "hexagon", "circle")
MAX_OUTLINE_POINTS = 1000
MAX_OUTLINE_PATH = 20000  # characters of SVG path data
_PATH_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
_PATH_TOKEN = re.compile(r"\s*,?\s*(?:([MmLlHhVvCcSsQqTtAaZz])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?))")
_SHAPE_EXPECTED = ("expected rect, triangle, hexagon, circle, {polygon: [[x, y], ...]} or {path: 'M ... Z'} "
                   "(mm from the trim's top-left corner, as in templates)")


def shape(value: Any) -> Any:
    """A named shape, or a cut outline: {polygon: [[x, y], ...]} or {path: SVG path data}, in mm."""
    if isinstance(value, str):
        if value.strip() in SHAPES:
            return value.strip()
        raise ValueError(f"unknown shape '{value}'; {_SHAPE_EXPECTED}")
    if not isinstance(value, dict) or len(value) != 1 or next(iter(value)) not in ("polygon", "path"):
        raise ValueError(f"{value!r} is not a shape; {_SHAPE_EXPECTED}")
    if "polygon" in value:
        pts = value["polygon"]
        if not isinstance(pts, list) or not 3 <= len(pts) <= MAX_OUTLINE_POINTS:
            raise ValueError(f"a polygon needs 3 to {MAX_OUTLINE_POINTS} points; expected [[x, y], ...] in mm")
        for i, pt in enumerate(pts, start=1):
            if (not isinstance(pt, list) or len(pt) != 2
                    or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in pt)):
                raise ValueError(f"polygon point {i} is {pt!r}; expected [x, y], two numbers in mm")
        return {"polygon": [[float(x), float(y)] for x, y in pts]}
    d = value["path"]
    if not isinstance(d, str) or not d.strip() or len(d) > MAX_OUTLINE_PATH:
        raise ValueError(f"a path is SVG path data of at most {MAX_OUTLINE_PATH} characters; expected e.g. 'M 0 0 L 20 0 ... Z'")
    pos, command, args, commands = 0, None, 0, []
    d = d.strip()
    while pos < len(d):
        m = _PATH_TOKEN.match(d, pos)
        if not m or m.end() == pos:
            raise ValueError(f"path data '{d[pos:pos + 12]}' at character {pos + 1} is not a path command or number; "
                             "expected SVG path data (M L H V C S Q T A Z and numbers)")
        pos = m.end()
        if m.group(1):
            if command and args % max(_PATH_ARGS[command.upper()], 1):
                raise ValueError(f"path command '{command}' has {args} numbers; expected a multiple of "
                                 f"{_PATH_ARGS[command.upper()]}")
            command, args = m.group(1), 0
            commands.append(command)
        elif command is None or command in "Zz":
            raise ValueError(f"path data starts a number outside a command at character {pos}; expected 'M x y' first")
        else:
            args += 1
    if command and command not in "Zz" and (args == 0 or args % _PATH_ARGS[command.upper()]):
        raise ValueError(f"path command '{command}' has {args} numbers; expected a multiple of {_PATH_ARGS[command.upper()]}")
    if commands[0] not in "Mm" or commands[-1] not in "Zz" or sum(c in "Mm" for c in commands) != 1:
        raise ValueError("a cut outline is one closed path; expected path data with one M at the start and Z at the end")
    return {"path": d}


ENCODINGS = ("utf-8", "cp1252", "latin-1", "mac-roman", "utf-16")  # (pnp.tables.ENCODINGS)
_RANGE_PART = re.compile(r"^\s*(\d{1,6})\s*(?:(?:-|\.\.|–)\s*(\d{1,6})\s*)?$")


def row_range(value: Any) -> list[tuple[int, int]] | None:
    """`range:` as (first, last) row numbers from 1, inclusive: 3, '1-10', '1..10', '1-3, 7', [1, '4-6']."""
    if value is None:
        return None
    parts: list[Any] = value if isinstance(value, list) else str(value).split(",") if isinstance(value, str) \
        else [value]
    if not parts or len(parts) > 1000:
        raise ValueError(f"range {value!r} holds no rows; expected row numbers from 1, e.g. 3, '1-10' or [1, '4-6']")
    out = []
    for part in parts:
        if isinstance(part, bool) or not isinstance(part, (int, str)):
            raise ValueError(f"range part {part!r} is not a row number; expected e.g. 3 or '1-10'")
        m = _RANGE_PART.match(str(part))
        if not m:
            raise ValueError(f"range part {str(part)!r} is not a row number or a range; expected e.g. 3 or '1-10' "
                             "(rows numbered from 1, the first row under the header)")
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        if first < 1 or last < first:
            raise ValueError(f"range part {str(part)!r} is empty or starts below 1; expected rows numbered from 1, "
                             "first to last")
        out.append((first, last))
    return out


class Component(FaceSource):
    kind: Literal["card", "board", "tile", "piece", "token", "aid"]
    name: Text
    shape: str | dict
    size: Size | None
    count: int
    bleed: float | None
    data: str | list[dict[str, Any]] | None
    back: FaceSource | None
    columns: dict[str, Literal["text", "int", "number", "skip"]] | None
    sheet: str | None
    count_column: str | bool | None
    encoding: str | None
    range: Any
    where: str | dict[str, Any] | None
    group_by: str | None
    name_column: str | None

    @classmethod
    def before(cls, value: Any) -> Any:
        """`count: qty` and `count: {column: qty, default: 2}` name the data table's count column: they are
        `count_column` (and `count`, the copies when a row's cell is empty) from here on."""
        if not isinstance(value, dict):
            return value
        count = value.get("count")
        if isinstance(count, str) and not count.strip().isdigit() and value.get("data") is not None:
            value = {**value, "count_column": count.strip()}
            del value["count"]
        elif isinstance(count, dict):
            value = {k: v for k, v in value.items() if k != "count"}
            rest = {k: v for k, v in count.items() if k not in ("column", "default")}
            if rest:
                raise ValueError(f"count: unknown key '{next(iter(rest))}'; expected column (the count column's "
                                 "name, or none) and default (the copies of a row whose cell is empty)")
            if "column" in count:
                column = count["column"]
                value["count_column"] = False if column in (None, False, "none", "") else column
            if "default" in count:
                value["count"] = count["default"]
        return value

    @classmethod
    def fields(cls) -> dict[str, Field]:
        return {
            **FaceSource.fields(),
            "kind": Field(choice("card", "board", "tile", "piece", "token", "aid"), description="What it is"),
            "name": Field(cs.union_schema([cs.str_schema(), cs.dict_schema(cs.str_schema(), cs.str_schema())]), "",
                          "Display name (per language allowed)"),
            "shape": Field(cs.no_info_before_validator_function(shape, cs.union_schema(
                [cs.str_schema(), cs.dict_schema(cs.any_schema(), cs.any_schema())])), "rect",
                "Cut shape: rect, triangle, hexagon, circle, {polygon} or {path}"),
            "size": Field(cs.nullable_schema(Size.schema()), None, "Trim size; a preset (poker...) or {width, height}"),
            "count": Field(cs.int_schema(ge=0, le=limit("count")), 1,
                           "Copies of each face (a data table's count column overrides); or the count column: "
                           "count: qty, count: {column: qty, default: 1}"),
            "bleed": Field(optional_length(ge=0), None, "Overrides print.bleed for this component"),
            "data": Field(cs.nullable_schema(cs.union_schema([cs.str_schema(), cs.list_schema(any_dict())])), None,
                          "Data table: a CSV/YAML file or an inline list, one row per face"),
            "back": Field(cs.nullable_schema(FaceSource.schema()), None,
                          "The back face: shared, or filled from each front's row"),
            "columns": Field(cs.nullable_schema(cs.dict_schema(cs.str_schema(), choice("text", "int", "number",
                                                                                       "skip"))), None,
                             "Types of data-table columns: text, int or number (default: sniffed for CSV, the "
                             "sheet's own types for .xlsx/.ods); skip: a column no template reads (notes)"),
            "sheet": Field(optional_text(), None, "The sheet of an .xlsx/.ods data table (default: the first)"),
            "count_column": Field(cs.nullable_schema(cs.union_schema([cs.str_schema(min_length=1),
                                                                      cs.literal_schema([False])])), None,
                                  "The data-table column giving each row's copies (count: qty); default: the first "
                                  "of count, qty, quantity, copies...; false: none"),
            "encoding": Field(cs.nullable_schema(choice(*ENCODINGS)), None,
                              "The text encoding of a CSV data table (default: UTF-8)"),
            "range": Field(cs.no_info_before_validator_function(row_range, cs.any_schema()), None,
                           "Which rows of the data table to use, by number from 1: 3, '1-10', [1, '4-6']"),
            "where": Field(cs.nullable_schema(cs.union_schema([cs.str_schema(min_length=1), any_dict()])), None,
                           "Keep the rows for which this holds: {column: value or [values]}, or an expression "
                           "such as \"realm == 'Fire'\""),
            "group_by": Field(cs.nullable_schema(cs.str_schema(min_length=1)), None,
                              "One component (a deck) per value of this column: cards-<value>"),
            "name_column": Field(cs.nullable_schema(cs.str_schema(min_length=1)), None,
                                 "The column that names each face (file names, Tabletop Simulator, print services); "
                                 "default: name or title"),
        }

    def after(self) -> Component:
        if self.data is not None and not self.template:
            raise ValueError("a data table is filled into a template; expected 'template:' beside 'data:'")
        if self.data is None:
            said = [k for k in ("count_column", "range", "where", "group_by", "name_column", "encoding")
                    if getattr(self, k) not in (None, False)]
            if said:
                shown = "count: (a column)" if said[0] == "count_column" else said[0]
                raise ValueError(f"{shown} reads a data table's rows; expected 'data:' beside it")
        if (self.template or self.svg) and self.size is None:
            raise ValueError("a template or SVG face needs its trim size; expected 'size:' (e.g. poker)")
        if isinstance(self.shape, dict) and "polygon" in self.shape and self.size is not None:
            w, h = self.size.width, self.size.height
            for i, (x, y) in enumerate(self.shape["polygon"], start=1):
                if not (-0.01 <= x <= w + 0.01 and -0.01 <= y <= h + 0.01):
                    raise ValueError(f"shape polygon point {i} ({x:g}, {y:g}) lies outside the {w:g} x {h:g} mm trim; "
                                     "expected points inside the trim box, in mm from its top-left corner")
        return self

    def display_name(self, lang: str = "en") -> str:
        return text_in(self.name, lang)


class FontFiles(Record):
    """One font family of the design: TTF/OTF files (TrueType outlines) in the design folder."""

    regular: str
    bold: str | None
    italic: str | None
    bold_italic: str | None

    @classmethod
    def fields(cls) -> dict[str, Field]:
        return {
            "regular": Field(text(), description="The upright, normal-weight face, e.g. fonts/Caveat-Regular.ttf"),
            "bold": Field(optional_text(), None, "The bold face (font-weight 600 and above)"),
            "italic": Field(optional_text(), None, "The italic face (font-style italic or oblique)"),
            "bold_italic": Field(optional_text(), None, "The bold italic face"),
        }

    def files(self) -> dict[str, str]:
        """slot -> file, for the faces given; a missing face is drawn with the nearest given one."""
        return {k: v for k, v in (("regular", self.regular), ("bold", self.bold), ("italic", self.italic),
                                  ("bold_italic", self.bold_italic)) if v}


class DataTable(Record):
    """A table of the design that templates look rows up in (`tables:`): Squib's second CSV (card backs by realm,
    a glossary), by the value of its `key` column."""

    data: str | list[dict[str, Any]]
    key: str | None
    sheet: str | None
    columns: dict[str, Literal["text", "int", "number"]] | None
    encoding: str | None

    @classmethod
    def fields(cls) -> dict[str, Field]:
        return {
            "data": Field(cs.union_schema([cs.str_schema(), cs.list_schema(any_dict())]),
                          description="The table: a CSV/TSV/XLSX/ODS/YAML file or an inline list"),
            "key": Field(optional_text(), None, "The column whose value finds a row: tables.NAME[value] (default: "
                         "the first column)"),
            "sheet": Field(optional_text(), None, "The sheet of an .xlsx/.ods table (default: the first)"),
            "columns": Field(cs.nullable_schema(cs.dict_schema(cs.str_schema(), choice("text", "int", "number"))),
                             None, "Types of columns: text, int or number"),
            "encoding": Field(cs.nullable_schema(choice(*ENCODINGS)), None, "A CSV file's text encoding"),
        }


_TABLE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")


def _table_names(value: dict[str, DataTable]) -> dict[str, DataTable]:
    for name in value:
        if not _TABLE_NAME.match(str(name)):
            raise ValueError(f"table name '{name}' is not a plain name; expected letters, digits and '_', starting "
                             "with a letter (templates write tables.NAME)")
    if len(value) > 100:
        raise ValueError(f"{len(value)} tables; expected at most 100")
    return value


_FAMILY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$")


def _component_ids(value: dict[str, Component]) -> dict[str, Component]:
    bad = [k for k in value if not ID_PATTERN.match(str(k))]
    if bad:
        raise ValueError(f"component id '{bad[0]}' is not a slug; expected lower-case letters, digits and '-'")
    if not value:
        raise ValueError("no components; expected at least one")
    return value


def _font_families(value: dict[str, FontFiles]) -> dict[str, FontFiles]:
    from pnp.render.fonts import generic_names  # lazy: 11 ms (pnp.render.fonts)

    for name in value:
        if not _FAMILY.match(str(name)):
            raise ValueError(f"font family '{name}' is not a plain name; expected letters, digits, spaces, "
                             "'-', '_' or '.' (at most 64)")
        if str(name).lower() in generic_names():
            raise ValueError(f"font family '{name}' is a name pnp maps to its shipped fonts; expected a name "
                             "of your own (e.g. the font's real name)")
    if len(value) > 32:
        raise ValueError(f"{len(value)} font families; expected at most 32")
    return value


class Design(Record):
    game: str | None
    meta: Meta
    print: PrintSettings
    rules: dict[str, Any]
    components: dict[str, Component]
    fonts: dict[str, FontFiles]
    tables: dict[str, DataTable]

    # set by the loader once the design is valid
    _folder: Path = Path(".")
    _source: Any = None
    _game_rules: Any = None

    @classmethod
    def fields(cls) -> dict[str, Field]:
        return {
            "game": Field(optional_text(), None, "Registered game (rules engine, generators), e.g. three_stars"),
            "meta": Field(Meta.schema()),
            "print": Field(PrintSettings.schema(), factory=lambda: PrintSettings.model_validate({})),
            "rules": Field(any_dict(), factory=dict, description="The rules' own numbers, stated once"),
            "components": Field(cs.no_info_after_validator_function(
                _component_ids, cs.dict_schema(cs.str_schema(), Component.schema())),
                description="Components by id (lower-case, digits, '-')"),
            "fonts": Field(cs.no_info_after_validator_function(
                _font_families, cs.dict_schema(cs.str_schema(), FontFiles.schema())), factory=dict,
                description="The design's own font families: the name templates use in font-family -> its "
                            "TTF/OTF files"),
            "tables": Field(cs.no_info_after_validator_function(
                _table_names, cs.dict_schema(cs.str_schema(), DataTable.schema())), factory=dict,
                description="Tables templates look rows up in by key: tables.NAME[value]"),
        }

    @property
    def folder(self) -> Path:
        return self._folder

    def fingerprint(self) -> dict:
        """Everything the design says, as JSON-able data (for cache keys): the title of every language too."""
        return {**self.model_dump(mode="json", warnings=False), "meta_titles": self.meta.titles}

    @property
    def source(self):
        """The parsed design.yaml (pnp.yamlio.Document): `.path`, `.line(loc)` for messages citing file:line."""
        return self._source

    @property
    def game_rules(self) -> Any:
        """`rules:` as validated by the game's rules model (pnp.loader), or None when the game has none."""
        return self._game_rules

    @property
    def slug(self) -> str:
        return self._folder.name

    def bleed_of(self, component: Component) -> float:
        return self.print.bleed if component.bleed is None else component.bleed


_PARAMS = ("Length", "Colour", "Count", "GridIndex", "Params", "RulesSection")


def __getattr__(name: str) -> Any:
    """The pydantic types games build their own models with (pnp.params), under their former names here."""
    if name in _PARAMS:
        from pnp import params  # lazy: cycle pnp.model -> pnp.params -> pnp.model

        return getattr(params, name)
    raise AttributeError(f"module 'pnp.model' has no attribute '{name}'")
