"""What games build their own pydantic models with: the bases of a generator's params and of a game's
`rules:` section, and the field types of the design format (a length with its unit, a colour, a count,
a grid index), checked as pnp.model checks them. Imported by games only: a design without a game never
loads pydantic's Python layer (pnp.model explains why)."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from pnp.limits import limit
from pnp.model import MAX_ITEMS, bounded_length, colour
from pnp.units import parse_length

__all__ = ["MAX_ITEMS", "Colour", "Count", "GridIndex", "Length", "Params", "RulesSection"]

Length = Annotated[float, BeforeValidator(parse_length), AfterValidator(bounded_length)]
"""A physical length: '63mm', '6.3cm', '2.5in', '12pt' (stored in mm), at most pnp.limits `length`."""

Colour = Annotated[str, BeforeValidator(colour)]
"""A colour as generators and templates draw it: #rrggbb or #rgb."""

Count = Annotated[int, Field(ge=0, le=limit("count"))]
"""Copies of something: 0 to pnp.limits `count`."""

GridIndex = Annotated[int, Field(ge=-limit("grid"), le=limit("grid"))]
"""A row, column or radius on a board: at most pnp.limits `grid` either way."""


class Params(BaseModel):
    """Base of a generator's parameter model: an unknown key is an error (reported with its line)."""

    model_config = ConfigDict(extra="forbid")


class RulesSection(BaseModel):
    """Base of a game's model of the design's `rules:` section (pnp.registry.GameSpec.rules).

    An unknown key is an error; a field's description says what is expected when it is
    missing. Numbers are best typed `pydantic.StrictInt` (never read from text or true/false).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)
