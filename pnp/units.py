"""Physical lengths: one parser for '63mm', '2.5in', '1/8in', '12pt', '1.2cm'. Everything inside pnp is mm."""

from __future__ import annotations

import re

MM_PER_UNIT = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72.0}
PT_PER_MM = 72.0 / 25.4

_LENGTH = re.compile(r"^\s*([+-]?(?:\d+/\d+|\d+(?:\.\d*)?|\.\d+))\s*([a-zA-Z]*)\s*$")

EXPECTED = "a number with a unit, e.g. 63mm, 6.3cm, 2.5in or 12pt"


class UnitError(ValueError):
    """A length that cannot be read; the message says what was expected."""


def parse_length(value: object) -> float:
    """Return the length in mm. Bare numbers are refused unless they are 0: a unit is never guessed."""
    if isinstance(value, bool):
        raise UnitError(f"{value!r} is not a length; expected {EXPECTED}")
    if isinstance(value, (int, float)):
        if value == 0:
            return 0.0
        raise UnitError(f"{value!r} has no unit; expected {EXPECTED}")
    if not isinstance(value, str):
        raise UnitError(f"{value!r} is not a length; expected {EXPECTED}")
    m = _LENGTH.match(value)
    if not m:
        raise UnitError(f"'{value}' is not a length; expected {EXPECTED}")
    num, unit = m.group(1), m.group(2).lower()
    if "/" in num:  # fractions, as US print specs write them: 1/8in
        top, bottom = num.split("/")
        if int(bottom) == 0:
            raise UnitError(f"'{value}' divides by zero; expected {EXPECTED}")
        number = int(top) / int(bottom)
    else:
        number = float(num)
    if not unit:
        if number == 0:
            return 0.0
        raise UnitError(f"'{value}' has no unit; expected {EXPECTED}")
    if unit not in MM_PER_UNIT:
        raise UnitError(f"unknown unit '{m.group(2)}' in '{value}'; expected {EXPECTED}")
    return number * MM_PER_UNIT[unit]


def mm_to_pt(mm: float) -> float:
    return mm * PT_PER_MM


def pt_to_mm(pt: float) -> float:
    return pt / PT_PER_MM


def fmt_mm(mm: float) -> str:
    """Shortest exact-enough text for a mm value (SVG attributes, messages): 3 decimals, no trailing zeros."""
    text = f"{mm:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
