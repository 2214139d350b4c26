"""The print-on-demand services' specifications (print_services.yaml), typed and checked.

A product's upload size, trim and bleed are tied by `px = (trim + 2 * bleed) * dpi`; the file
may state any two of them and the model works out the third (and refuses a file where they
disagree by more than a pixel, or where a figure names a source the service does not list).
All lengths are in mm, as everywhere in pnp.
"""

from __future__ import annotations

import string
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator, model_validator

from pnp.units import parse_length

Length = Annotated[float, BeforeValidator(parse_length)]

DATA_FILE = Path(__file__).with_name("print_services.yaml")
MM_PER_INCH = 25.4
PX_TOLERANCE = 1.0
"""Stated pixel sizes and the ones computed from trim + bleed may differ by rounding, never by more."""

ProductKind = Literal["card", "chit", "board"]
Shape = Literal["rect", "circle", "hexagon", "triangle"]
NAMING_FIELDS = {"component", "index", "face", "product"}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Naming(_Strict):
    face: str = Field(description="File name of a face: {component}, {index} (1-based), {face}, {product}")
    back: str = Field(description="File name of a component's shared back")
    note: str = ""

    @field_validator("face", "back")
    @classmethod
    def _fields(cls, value: str) -> str:
        used = {name for _, name, _, _ in string.Formatter().parse(value) if name}
        unknown = used - NAMING_FIELDS
        if unknown:
            raise ValueError(f"unknown field {sorted(unknown)[0]!r} in {value!r}; expected {sorted(NAMING_FIELDS)}")
        if value.startswith("/") or ".." in value.split("/"):
            raise ValueError(f"{value!r} leaves the export folder; expected a relative name")
        return value


def _pair(value: Any) -> Any:
    """One length for both axes, or [x, y]."""
    if isinstance(value, (list, tuple)):
        return value
    return (value, value)


class Product(_Strict):
    id: str = Field(description="The service's own name for the product")
    name: str
    kind: ProductKind
    shape: Shape = "rect"
    px: tuple[int, int] | None = Field(None, description="Upload image size in pixels, width x height")
    trim: tuple[Length, Length] | None = Field(None, description="Finished size, width x height (mm)")
    bleed: Annotated[tuple[Length, Length], BeforeValidator(_pair)] | None = Field(
        None, description="Bleed per side [x, y] (mm); the service's when absent")
    safe: Length | None = Field(None, description="Safe margin inside the trim (mm); the service's when absent")
    max_count: int | None = Field(None, ge=1, description="Most copies in one product (a deck's card limit)")
    source: str = Field(description="Key of the service's `sources` these figures come from")
    confirmed: bool = Field(True, description="False when a figure could not be read at the service itself")
    note: str = ""


class Service(_Strict):
    name: str
    url: str
    dpi: int = Field(gt=0)
    bleed: Length = Field(ge=0, description="Bleed per side (mm)")
    safe: Length | None = Field(None, ge=0, description="Safe margin inside the trim (mm)")
    formats: tuple[Literal["png", "jpg"], ...] = Field(min_length=1, description="First = the one we write")
    colour: Literal["RGB", "CMYK"]
    max_cards: int | None = Field(None, ge=1, description="Most cards in one deck or order")
    max_cards_source: str | None = None
    naming: Naming
    unconfirmed: str = Field("", description="Why the service's figures as a whole are unconfirmed, if they are")
    sources: dict[str, str]
    products: tuple[Product, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> "Service":
        ids = [p.id for p in self.products]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"product {dup[0]!r} listed twice; expected unique ids")
        for p in self.products:
            if p.source not in self.sources:
                raise ValueError(f"product {p.id}: source {p.source!r} is not in `sources`; "
                                 f"expected one of {sorted(self.sources)}")
            geometry(self, p)  # raises ValueError when px, trim and bleed disagree
        if self.max_cards_source is not None and self.max_cards_source not in self.sources:
            raise ValueError(f"max_cards_source {self.max_cards_source!r} is not in `sources`")
        return self


class Geometry(_Strict):
    """A product's numbers, all worked out: what a file for it must be."""

    px: tuple[int, int]
    trim_mm: tuple[float, float]
    bleed_mm: tuple[float, float]
    safe_mm: float | None
    dpi: int

    @property
    def trim_px(self) -> tuple[int, int]:
        return (round(self.trim_mm[0] / MM_PER_INCH * self.dpi), round(self.trim_mm[1] / MM_PER_INCH * self.dpi))

    @property
    def trim_box(self) -> tuple[int, int, int, int]:
        """Trim rectangle inside the image in pixels (left, top, right, bottom); odd leftovers go right/down."""
        tw, th = self.trim_px
        left, top = (self.px[0] - tw) // 2, (self.px[1] - th) // 2
        return (left, top, left + tw, top + th)


def geometry(service: Service, product: Product) -> Geometry:
    """Upload size, trim and bleed of `product`, from the two of them the data states."""
    dpi = service.dpi

    def to_px(mm: float) -> float:
        return mm / MM_PER_INCH * dpi

    safe = product.safe if product.safe is not None else service.safe
    if product.px is not None and product.trim is not None:
        bleed = tuple((product.px[i] / dpi * MM_PER_INCH - product.trim[i]) / 2 for i in range(2))
        if min(bleed) < -0.5 / dpi * MM_PER_INCH:
            raise ValueError(f"product {product.id}: trim {product.trim} is larger than the {product.px} px image")
        if product.bleed is not None:
            for i in range(2):
                if abs(to_px(product.bleed[i] - bleed[i]) * 2) > PX_TOLERANCE:
                    raise ValueError(f"product {product.id}: px, trim and bleed disagree; expected any two of them")
        return Geometry(px=product.px, trim_mm=tuple(product.trim), bleed_mm=tuple(max(0.0, b) for b in bleed),
                        safe_mm=safe, dpi=dpi)
    bleed = product.bleed if product.bleed is not None else (service.bleed, service.bleed)
    if product.px is not None:
        trim = tuple(product.px[i] / dpi * MM_PER_INCH - 2 * bleed[i] for i in range(2))
        if min(trim) <= 0:
            raise ValueError(f"product {product.id}: the bleed leaves no trim inside {product.px} px")
        return Geometry(px=product.px, trim_mm=trim, bleed_mm=tuple(bleed), safe_mm=safe, dpi=dpi)
    if product.trim is not None:
        px = tuple(round(to_px(product.trim[i] + 2 * bleed[i])) for i in range(2))
        return Geometry(px=px, trim_mm=tuple(product.trim), bleed_mm=tuple(bleed), safe_mm=safe, dpi=dpi)
    raise ValueError(f"product {product.id}: neither px nor trim; expected at least one of them")


class ServiceFile(_Strict):
    services: dict[str, Service] = Field(min_length=1)


def parse_services(data: Any, source: str = "print_services.yaml") -> dict[str, Service]:
    """Validate already-loaded data; a bad file raises ValueError naming every problem."""
    try:
        return dict(ServiceFile.model_validate(data).services)
    except ValidationError as exc:
        lines = [f"{source}: {'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors()]
        raise ValueError("\n".join(lines)) from None


@lru_cache(maxsize=1)
def load_services(path: Path = DATA_FILE) -> dict[str, Service]:
    """The shipped services, by id (thegamecrafter, makeplayingcards, printplaygames)."""
    return parse_services(yaml.safe_load(path.read_text(encoding="utf-8")), path.name)
