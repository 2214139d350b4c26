"""What every game's rulebook diagrams draw alike: the highlight colours and the marks.

Games draw their boards and pieces themselves (pnp/games/<game>/painter.py); the marks
that point at something, approve or refuse it, or number it are drawn here once, on a
pnp.render.svg.Canvas in mm. Nothing here knows a game.
"""

from __future__ import annotations

import math

from pnp.render.svg import Canvas
from pnp.render.symbols import INK

HIGHLIGHT = "#C2185B"
"""What a diagram is about (frames, rings, arrows): a magenta no game uses for its pieces."""
GOOD = "#009E73"
"""Allowed, fits, connected (a tick)."""
BAD = "#C62828"
"""Refused, does not fit (a cross)."""
WHITE = "#ffffff"

__all__ = ["HIGHLIGHT", "GOOD", "BAD", "INK", "WHITE", "arrow", "badge", "cross", "tick"]


def cross(c: Canvas, x: float, y: float, r: float, colour: str = BAD, width: float = 0.7) -> None:
    """An X of half-size `r` centred on (x, y): refused."""
    c.line((x - r, y - r), (x + r, y + r), stroke=colour, stroke_width=width)
    c.line((x - r, y + r), (x + r, y - r), stroke=colour, stroke_width=width)


def tick(c: Canvas, x: float, y: float, r: float, colour: str = GOOD, width: float = 0.8) -> None:
    """A tick of half-size `r` centred on (x, y): allowed."""
    c.polyline([(x - r, y), (x - r * 0.3, y + r * 0.7), (x + r, y - r * 0.8)], stroke=colour, stroke_width=width)


def arrow(c: Canvas, a: tuple[float, float], b: tuple[float, float], colour: str = HIGHLIGHT, width: float = 0.7,
          head: float = 2.0, spread: float = 0.5, both: bool = False, halo: bool = False) -> None:
    """A straight arrow from `a` to `b` (heads at both ends with `both`).

    head: the head's length; spread: its half-width as a share of the length; halo: a white
    outline under it, so it reads over paths and pieces.
    """
    ax, ay = a
    bx, by = b
    d = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / d, (by - ay) / d
    s = (ax + ux * head * 0.8, ay + uy * head * 0.8) if both else (ax, ay)
    e = (bx - ux * head * 0.8, by - uy * head * 0.8)

    def tip(px: float, py: float, vx: float, vy: float, **style: object) -> None:
        c.polygon([(px, py), (px - vx * head - vy * head * spread, py - vy * head + vx * head * spread),
                   (px - vx * head + vy * head * spread, py - vy * head - vx * head * spread)], **style)

    if halo:
        white = dict(fill=WHITE, stroke=WHITE, stroke_width=0.9)
        c.line(s, e, stroke=WHITE, stroke_width=width + 0.9)
        tip(bx, by, ux, uy, **white)
        if both:
            tip(ax, ay, -ux, -uy, **white)
    c.line(s, e, stroke=colour, stroke_width=width)
    tip(bx, by, ux, uy, fill=colour)
    if both:
        tip(ax, ay, -ux, -uy, fill=colour)


def badge(c: Canvas, x: float, y: float, r: float, text: str, colour: str = INK, line: float = 0.2,
          rise: float = 0.45, size: float = 1.3) -> None:
    """A white disc of radius `r` at (x, y), ringed and lettered in `colour`: a step number, a label.

    line: the ring's width; the text's baseline is `rise` x r below the centre, its size `size` x r.
    """
    c.circle((x, y), r, fill=WHITE, stroke=colour, stroke_width=line)
    c.text(x, y + r * rise, text, size=r * size, anchor="middle", weight="bold", fill=colour)
