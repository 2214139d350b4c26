"""Small marks that tell colours apart in black-and-white print (pieces, stocks, tiles, diagrams).

One drawing per kind for every game: the mark is centred at (x, y) and about `r` in
radius, white (or `fill`) with a dark outline so it reads on any colour.
"""

from __future__ import annotations

import math
from typing import Literal

from pnp.render.svg import Canvas

INK = "#1a1a1a"
Symbol = Literal["circle", "ring", "square", "diamond", "triangle", "cross", "star", "hexagon", "none"]
KINDS = ("circle", "ring", "square", "diamond", "triangle", "cross", "star", "hexagon", "none")


def symbol(c: Canvas, kind: str, x: float, y: float, r: float, fill: str = "#ffffff", line: float = 0.35,
           ink: str = INK) -> None:
    """Draw the mark `kind` ("none" draws nothing)."""
    style = dict(fill=fill, stroke=ink, stroke_width=line)
    if kind == "circle":
        c.circle((x, y), r, **style)
    elif kind == "ring":
        c.circle((x, y), r, fill=ink)
        c.circle((x, y), r * 0.5, fill=fill)
    elif kind == "square":
        c.rect(x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7, **style)  # type: ignore[arg-type]
    elif kind == "diamond":
        c.polygon([(x, y - r * 1.15), (x + r * 1.15, y), (x, y + r * 1.15), (x - r * 1.15, y)], **style)
    elif kind == "triangle":
        c.polygon([(x, y - r * 1.1), (x + r * 1.05, y + r * 0.75), (x - r * 1.05, y + r * 0.75)], **style)
    elif kind == "cross":
        a, t = r * 1.05, r * 0.38
        c.polygon([(x - t, y - a), (x + t, y - a), (x + t, y - t), (x + a, y - t), (x + a, y + t), (x + t, y + t),
                   (x + t, y + a), (x - t, y + a), (x - t, y + t), (x - a, y + t), (x - a, y - t), (x - t, y - t)],
                  **style)
    elif kind == "star":
        pts = []
        for k in range(10):
            rad = r * 1.15 if k % 2 == 0 else r * 0.5
            ang = -math.pi / 2 + k * math.pi / 5
            pts.append((x + rad * math.cos(ang), y + rad * math.sin(ang)))
        c.polygon(pts, **style)
    elif kind == "hexagon":
        c.polygon([(x + r * math.cos(math.pi / 3 * k), y + r * math.sin(math.pi / 3 * k)) for k in range(6)],
                  **style)
