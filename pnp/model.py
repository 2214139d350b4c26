"""The design model: what a design.yaml may say, typed and documented.

Every field has a description; `docs/design-format.md` is the reader's version of
this file. Lengths are stored in mm. The model knows nothing of any game: games add
meaning through registered generators (pnp.registry) and engines.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    field_validator,
    model_validator,
)

from pnp.limits import limit
from pnp.units import fmt_mm, parse_length


def _bounded_length(mm: float) -> float:
    if abs(mm) > limit("length"):
        raise ValueError(f"{fmt_mm(mm)} mm is too long; expected at most {limit('length')} mm")
    return mm


Length = Annotated[float, BeforeValidator(parse_length), AfterValidator(_bounded_length)]
"""A physical length: '63mm', '6.3cm', '2.5in', '12pt' (stored in mm), at most pnp.limits `length`."""

_COLOUR = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")


def _colour(value: Any) -> str:
    if not isinstance(value, str) or not _COLOUR.match(value.strip()):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise ValueError(f"{shown} is not a colour; expected #rrggbb or #rgb, e.g. #0072B2")
    return value.strip()


Colour = Annotated[str, BeforeValidator(_colour)]
"""A colour as generators and templates draw it: #rrggbb or #rgb."""

Count = Annotated[int, Field(ge=0, le=limit("count"))]
"""Copies of something: 0 to pnp.limits `count`."""

GridIndex = Annotated[int, Field(ge=-limit("grid"), le=limit("grid"))]
"""A row, column or radius on a board: at most pnp.limits `grid` either way."""

MAX_ITEMS = limit("list_items")
"""Entries of a list in a generator's params (Field(max_length=MAX_ITEMS))."""

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "tarot": (70.0, 120.0),
    "mini-euro": (45.0, 68.0),
    "mini-usa": (41.0, 63.0),
    "square": (70.0, 70.0),
}

LANGUAGES = ("en", "fr")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False, str_strip_whitespace=True)


class Params(BaseModel):
    """Base of a generator's parameter model: an unknown key is an error (reported with its line)."""

    model_config = ConfigDict(extra="forbid")


class RulesSection(BaseModel):
    """Base of a game's model of the design's `rules:` section (pnp.registry.GameSpec.rules).

    An unknown key is an error; a field's description says what is expected when it is
    missing. Numbers are best typed `pydantic.StrictInt` (never read from text or true/false).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class Players(Strict):
    min: int = Field(ge=1, le=limit("players"), description="Fewest players")
    max: int = Field(ge=1, le=limit("players"), description="Most players")

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, value: Any) -> Any:
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

    @model_validator(mode="after")
    def _ordered(self) -> "Players":
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}; expected min <= max")
        return self

    def __str__(self) -> str:
        return str(self.min) if self.min == self.max else f"{self.min}-{self.max}"


Text = str | dict[str, str]
"""Plain text, or one text per language: {en: ..., fr: ...}."""


class Meta(Strict):
    title: str = Field(description="The game's title")
    author: str = Field("", description="Designer(s)")
    year: int | None = Field(None, description="Year of the design")
    players: Players = Field(description="Player count: a number or a range like 2-4")
    play_time: str = Field("", description="Typical play time, e.g. '20-30 min'")
    age: str = Field("", description="Minimum age, e.g. '8+'")
    version: str = Field("1.0", description="Version of this design")
    date: str = Field("", description="Date of this version (printed in the rulebook)")
    languages: list[Literal["en", "fr"]] = Field(default_factory=lambda: ["en"], description="Rulebook languages")


class PrintSettings(Strict):
    paper: Literal["a4", "letter", "a3"] = Field("a4", description="Sheet size")
    bleed: Length = Field(3.0, ge=0, description="Art extends this far beyond the trim")
    safe_zone: Length = Field(3.0, ge=0, description="Text stays this far inside the trim")
    gutter: Length | None = Field(
        None, ge=0, description="Gap between the trims of neighbouring cards; default: the bleed"
    )
    orientation: Literal["auto", "portrait", "landscape"] = Field(
        "auto", description="Sheet orientation; auto picks, per component, the one that wastes least")
    duplex: Literal["long", "short", "none", "fold"] = Field(
        "long", description="Backs: long-edge or short-edge duplex, none (separate sheets), fold (gutter-fold)")
    back_offset: tuple[Length, Length] = Field(
        (0.0, 0.0), description="Shift of back pages only [x, y], for printers whose duplex drifts")
    marks: Literal["crop", "cut", "none"] = Field("crop", description="Crop marks outside the trim, or full cut lines")
    proof: bool = Field(False, description="Draw trim, bleed and safe-zone guides (never for the final print)")

    @field_validator("back_offset", mode="before")
    @classmethod
    def _offset_text(cls, value: Any) -> Any:
        if isinstance(value, str):
            parts = [p for p in value.replace(";", ",").split(",")]
            if len(parts) != 2:
                raise ValueError(f"'{value}' is not an offset; expected X,Y such as 0.5mm,-0.3mm")
            return tuple(p.strip() for p in parts)
        return value

    @property
    def effective_gutter(self) -> float:
        return self.bleed if self.gutter is None else self.gutter


class Size(Strict):
    width: Length = Field(gt=0)
    height: Length = Field(gt=0)

    @model_validator(mode="before")
    @classmethod
    def _preset(cls, value: Any) -> Any:
        if isinstance(value, str):
            key = value.strip().lower()
            if key in CARD_SIZES:
                w, h = CARD_SIZES[key]
                return {"width": f"{w}mm", "height": f"{h}mm"}
            raise ValueError(
                f"unknown size '{value}'; expected one of {', '.join(CARD_SIZES)} or {{width: 63mm, height: 88mm}}"
            )
        return value


class FaceSource(Strict):
    """Where a face's art comes from: a registered generator, a Jinja2 SVG template, or an SVG file."""

    generate: str | None = Field(None, description="A registered generator, e.g. three_stars.card_back")
    params: dict[str, Any] = Field(default_factory=dict, description="Parameters passed to the generator")
    template: str | None = Field(None, description="Jinja2 SVG template (design folder, then templates/)")
    svg: str | None = Field(None, description="A ready SVG file in the design folder")

    @model_validator(mode="after")
    def _one_source(self) -> "FaceSource":
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


def _shape(value: Any) -> Any:
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


Shape = Annotated[str | dict, BeforeValidator(_shape)]
"""`rect`, `triangle`, `hexagon`, `circle`, or a cut outline {polygon: ...} / {path: ...} (mm, trim coordinates)."""


class Component(FaceSource):
    kind: Literal["card", "board", "tile", "piece", "token", "aid"] = Field(description="What it is")
    name: Text = Field("", description="Display name (per language allowed)")
    shape: Shape = Field("rect", description="Cut shape: rect, triangle, hexagon, circle, {polygon} or {path}")
    size: Size | None = Field(None, description="Trim size; a preset (poker...) or {width, height}")
    count: int = Field(1, ge=0, le=limit("count"),
                       description="Copies of each face (a data table's count column overrides)")
    bleed: Length | None = Field(None, ge=0, description="Overrides print.bleed for this component")
    data: str | list[dict[str, Any]] | None = Field(
        None, description="Data table: a CSV/YAML file or an inline list, one row per face"
    )
    back: FaceSource | None = Field(None, description="The back face: shared, or filled from each front's row")
    columns: dict[str, Literal["text", "int", "number"]] | None = Field(
        None, description="Types of data-table columns: text, int or number (default: sniffed for CSV, the "
                          "sheet's own types for .xlsx/.ods)")
    sheet: str | None = Field(None, description="The sheet of an .xlsx/.ods data table (default: the first)")

    @model_validator(mode="after")
    def _table_needs_template(self) -> "Component":
        if self.data is not None and not self.template:
            raise ValueError("a data table is filled into a template; expected 'template:' beside 'data:'")
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
        if isinstance(self.name, dict):
            return self.name.get(lang) or next(iter(self.name.values()), "")
        return self.name


class FontFiles(Strict):
    """One font family of the design: TTF/OTF files (TrueType outlines) in the design folder."""

    regular: str = Field(description="The upright, normal-weight face, e.g. fonts/Caveat-Regular.ttf")
    bold: str | None = Field(None, description="The bold face (font-weight 600 and above)")
    italic: str | None = Field(None, description="The italic face (font-style italic or oblique)")
    bold_italic: str | None = Field(None, description="The bold italic face")

    def files(self) -> dict[str, str]:
        """slot -> file, for the faces given; a missing face is drawn with the nearest given one."""
        return {k: v for k, v in (("regular", self.regular), ("bold", self.bold), ("italic", self.italic),
                                  ("bold_italic", self.bold_italic)) if v}


_FAMILY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$")


class Design(Strict):
    game: str | None = Field(None, description="Registered game (rules engine, generators), e.g. three_stars")
    meta: Meta
    print: PrintSettings = Field(default_factory=PrintSettings)
    rules: dict[str, Any] = Field(default_factory=dict, description="The rules' own numbers, stated once")
    components: dict[str, Component] = Field(description="Components by id (lower-case, digits, '-')")
    fonts: dict[str, FontFiles] = Field(default_factory=dict, description="The design's own font families: the "
                                        "name templates use in font-family -> its TTF/OTF files")

    _folder: Path = PrivateAttr(default=Path("."))
    _source: Any = PrivateAttr(default=None)
    _game_rules: Any = PrivateAttr(default=None)

    @field_validator("components")
    @classmethod
    def _ids(cls, value: dict[str, Component]) -> dict[str, Component]:
        bad = [k for k in value if not ID_PATTERN.match(str(k))]
        if bad:
            raise ValueError(f"component id '{bad[0]}' is not a slug; expected lower-case letters, digits and '-'")
        if not value:
            raise ValueError("no components; expected at least one")
        return value

    @field_validator("fonts")
    @classmethod
    def _families(cls, value: dict[str, FontFiles]) -> dict[str, FontFiles]:
        from pnp.render.fonts import generic_names

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

    @property
    def folder(self) -> Path:
        return self._folder

    def fingerprint(self) -> dict:
        """Everything the design says, as JSON-able data (for cache keys)."""
        return self.model_dump(mode="json", warnings=False)

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
