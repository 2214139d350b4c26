"""The fonts every output uses, shipped in pnp/fonts/ so output never depends on the machine.

DejaVu Sans (Bitstream Vera licence, see pnp/fonts/LICENSE-DejaVu.txt) covers French and
English and the symbols the components use. `register()` makes it known to ReportLab
and to svglib (SVG font-family "DejaVu Sans" -> the embedded TrueType font).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
REGULAR, BOLD, ITALIC = "DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique"
FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf", ITALIC: "DejaVuSans-Oblique.ttf"}


@cache
def register() -> None:
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from svglib.fonts import get_global_font_map

    for name, file in FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))
    addMapping(REGULAR, 0, 0, REGULAR)
    addMapping(REGULAR, 1, 0, BOLD)
    addMapping(REGULAR, 0, 1, ITALIC)
    addMapping(REGULAR, 1, 1, BOLD)
    from reportlab.graphics import shapes

    shapes.STATE_DEFAULTS["fontName"] = REGULAR  # else every drawing references a non-embedded Helvetica
    fmap = get_global_font_map()
    for family in ("DejaVu Sans", "DejaVuSans", "sans-serif", "Helvetica", "Arial"):
        fmap.register_font(family, rlgFontName=REGULAR)
        fmap.register_font(family, weight="bold", rlgFontName=BOLD)
        fmap.register_font(family, style="italic", rlgFontName=ITALIC)
        fmap.register_font(family, weight="bold", style="italic", rlgFontName=BOLD)
