"""A face not yet drawn: what generators and templates make and the drawing and placing layers consume.

It lives in the render layer (pnp.registry imports it for `GeneratorContext.face`, and games may import it from
either place), so pnp.layout and pnp.render need nothing from the registry to use it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class FaceSpec:
    """One distinct face of a component, not yet drawn.

    `paint()` returns the SVG text; it is called once per distinct face and the result
    reused for all `count` copies.
    """

    key: str
    width: float
    height: float
    bleed: float
    paint: Callable[[], str]
    count: int = 1
    data: dict[str, Any] = field(default_factory=dict)
    shape: str = "rect"
    label: str = ""
    cache_key: str = ""  # hash of everything the art is made from; "" = not cacheable
    lang: str = ""  # the language of a face that differs by language (its file: <component>-<face>.<lang>.svg);
    # "" for a face every language of the design shares
