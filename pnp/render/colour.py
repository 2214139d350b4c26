"""Colour arithmetic for faces and diagrams."""

from __future__ import annotations


def tint(colour: str, amount: float) -> str:
    """`colour` (#rgb or #rrggbb) mixed with white: amount 0 = the colour, 1 = white."""
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    r, g, b = (int(c[i:i + 2], 16) for i in (0, 2, 4))
    return "#" + "".join(f"{round(v + (255 - v) * amount):02x}" for v in (r, g, b))
