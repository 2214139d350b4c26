"""The rulebook layout conventions (templates/rulebook/layout.yaml) as ReportLab styles."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml
from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle

from pnp import words
from pnp.loader import templates_dir
from pnp.render import fonts

FONT_ALL = ("FONT", (0, 0), (-1, -1), fonts.REGULAR, 10)
"""First command of every TableStyle: a table cell's default font would be a non-embedded Helvetica."""


@dataclass
class Layout:
    raw: dict[str, Any]
    styles: dict[str, ParagraphStyle]

    @property
    def page(self) -> dict[str, Any]:
        return self.raw["page"]

    def colour(self, name: str):
        return HexColor(self.raw["colours"][name])

    def labels(self, lang: str) -> dict[str, str]:
        """The book's own words in `lang` (pnp.words: rulebook), plain (typeset where they are drawn)."""
        return dict(words.table(lang)["rulebook"])


@cache
def load_layout() -> Layout:
    raw = yaml.safe_load((templates_dir() / "rulebook" / "layout.yaml").read_text(encoding="utf-8"))
    fonts.register()
    colours = raw["colours"]
    styles = {}
    for name, s in raw["styles"].items():
        font = fonts.BOLD if s.get("bold") else fonts.ITALIC if s.get("italic") else fonts.REGULAR
        colour = colours["accent"] if s.get("accent") else colours["muted"] if s.get("muted") else colours["text"]
        styles[name] = ParagraphStyle(
            name, fontName=font, fontSize=s["size"], leading=s.get("leading", s["size"] * 1.25),
            spaceBefore=s.get("before", 0), spaceAfter=s.get("after", 0), textColor=HexColor(colour),
            leftIndent=s.get("indent", 0), bulletFontName=fonts.REGULAR,
            keepWithNext=1 if name.startswith("h") else 0,
        )
    return Layout(raw, styles)
