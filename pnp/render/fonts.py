"""The fonts every output uses: shipped in pnp/fonts/, so output never depends on the machine.

Three DejaVu families ship (Bitstream Vera licence, pnp/fonts/LICENSE-DejaVu.txt), each
in four faces: DejaVu Sans, DejaVu Serif and DejaVu Sans Mono. They cover French and
English and the symbols the components use.

`resolve(family, weight, style)` turns what an SVG says (a CSS font-family list, a weight,
a style) into the ReportLab name of one of those faces, and registers it. It never asks
the machine: generic families (sans-serif, serif, monospace) and the usual system names
(Arial, Helvetica, Times New Roman, Courier...) map to the shipped families, and an
unknown family falls back to DejaVu Sans. Names are fixed, so a drawing or a cached
product made in one process means the same fonts in every other: `ensure(name)`
registers a face by its name wherever it is needed.
"""

from __future__ import annotations

import functools
import threading
from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"

REGULAR, BOLD, ITALIC, BOLD_ITALIC = "DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique", "DejaVuSans-BoldOblique"

# family -> (regular, bold, italic, bold italic) ReportLab names; each name is also its file's stem
FAMILIES: dict[str, tuple[str, str, str, str]] = {
    "DejaVu Sans": (REGULAR, BOLD, ITALIC, BOLD_ITALIC),
    "DejaVu Serif": ("DejaVuSerif", "DejaVuSerif-Bold", "DejaVuSerif-Italic", "DejaVuSerif-BoldItalic"),
    "DejaVu Sans Mono": ("DejaVuSansMono", "DejaVuSansMono-Bold", "DejaVuSansMono-Oblique",
                         "DejaVuSansMono-BoldOblique"),
}
DEFAULT_FAMILY = "DejaVu Sans"

# what designers and SVG editors write -> a shipped family (lower-case keys)
ALIASES: dict[str, str] = {
    "sans-serif": "DejaVu Sans", "sans": "DejaVu Sans", "system-ui": "DejaVu Sans", "arial": "DejaVu Sans",
    "helvetica": "DejaVu Sans", "helvetica neue": "DejaVu Sans", "verdana": "DejaVu Sans",
    "bitstream vera sans": "DejaVu Sans", "dejavusans": "DejaVu Sans", "liberation sans": "DejaVu Sans",
    "serif": "DejaVu Serif", "times": "DejaVu Serif", "times new roman": "DejaVu Serif", "georgia": "DejaVu Serif",
    "liberation serif": "DejaVu Serif", "dejavuserif": "DejaVu Serif",
    "monospace": "DejaVu Sans Mono", "courier": "DejaVu Sans Mono", "courier new": "DejaVu Sans Mono",
    "consolas": "DejaVu Sans Mono", "menlo": "DejaVu Sans Mono", "liberation mono": "DejaVu Sans Mono",
    "dejavusansmono": "DejaVu Sans Mono",
}

FILES: dict[str, Path] = {name: FONT_DIR / f"{name}.ttf" for faces in FAMILIES.values() for name in faces}

_lock = threading.Lock()
_registered: set[str] = set()


def ensure(name: str) -> bool:
    """Register the shipped face `name` with ReportLab (once per process); False if it is not ours."""
    if name in _registered:
        return True
    path = FILES.get(name)
    if path is None:
        return False
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    with _lock:
        if name not in _registered:
            pdfmetrics.registerFont(TTFont(name, str(path)))
            _registered.add(name)
    return True


def is_bold(weight: str | int | None) -> bool:
    text = str(weight or "normal").strip().lower()
    if text.isdigit():
        return int(text) >= 600
    return text in ("bold", "bolder")


def is_italic(style: str | None) -> bool:
    return str(style or "normal").strip().lower() in ("italic", "oblique")


def family_of(font_family: str | None) -> str:
    """The shipped family for a CSS font-family list (its first name we know), else DejaVu Sans."""
    for raw in (font_family or "").split(","):
        name = raw.strip().strip("'\"").strip()
        if not name:
            continue
        if name in FAMILIES:
            return name
        alias = ALIASES.get(name.lower())
        if alias:
            return alias
        for family in FAMILIES:
            if family.lower() == name.lower():
                return family
    return DEFAULT_FAMILY


@functools.lru_cache(maxsize=512)
def resolve(font_family: str | None, weight: str | int | None = "normal", style: str | None = "normal") -> str:
    """The registered ReportLab name of the shipped face for an SVG font-family, weight and style."""
    faces = FAMILIES[family_of(font_family)]
    name = faces[(2 if is_italic(style) else 0) + (1 if is_bold(weight) else 0)]
    ensure(name)
    return name


def register_furniture() -> None:
    """The faces the print sheets' furniture is set in (footer, notes); any other is registered when a face or a
    rulebook names it (`resolve`, `register`): reading a font's file is a few milliseconds each."""
    ensure(REGULAR)
    ensure(BOLD)


@functools.cache
def register() -> None:
    """The default faces for page furniture and the rulebook's bold and italic (platypus <b>, <i>)."""
    from reportlab.lib.fonts import addMapping

    for name in (REGULAR, BOLD, ITALIC, BOLD_ITALIC):
        ensure(name)
    addMapping(REGULAR, 0, 0, REGULAR)
    addMapping(REGULAR, 1, 0, BOLD)
    addMapping(REGULAR, 0, 1, ITALIC)
    addMapping(REGULAR, 1, 1, BOLD_ITALIC)


# --- a design's own fonts ---------------------------------------------------------------------------------
# A design names TTF/OTF files in its `fonts:` section; faces carry them as CSS @font-face rules (pnp.render.faces),
# which pnp.render.svgpdf reads. Each file is registered under a name made from its content, so the same file
# means the same ReportLab font in every process, and ReportLab embeds a subset of it like the shipped ones.

FONT_EXTENSIONS = (".ttf", ".otf")
_DATA: dict[str, bytes] = {}  # registered design fonts: name -> the file's bytes


def data_name(data: bytes) -> str:
    import hashlib

    return "pnp-" + hashlib.sha256(data).hexdigest()[:20]


def register_data(data: bytes) -> str:
    """Register a TrueType font given by its bytes (once per process); its ReportLab name. ValueError naming
    why a file cannot be used (not a font, PostScript (CFF) outlines, a licence that forbids embedding)."""
    name = data_name(data)
    if name in _registered:
        return name
    import io

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    with _lock:
        if name not in _registered:
            try:
                font = TTFont(name, io.BytesIO(data))
            except TTFError as exc:
                text = str(exc)
                if "postscript outlines" in text.lower() or "cff" in text.lower():
                    raise ValueError("it has PostScript (CFF) outlines, which cannot be embedded as TrueType; "
                                     "expected a TrueType-outline .ttf (or .otf)") from None
                if "embed" in text.lower():
                    raise ValueError(f"its licence forbids embedding it ({text}); expected a font that may be "
                                     "embedded in a PDF") from None
                raise ValueError(f"it is not a TrueType font ({text}); expected a .ttf or .otf file") from None
            except Exception as exc:
                raise ValueError(f"it is not a readable TrueType font ({exc.__class__.__name__}); expected a .ttf "
                                 "or .otf file") from None
            pdfmetrics.registerFont(font)
            _registered.add(name)
            _DATA[name] = data
    return name


def face_slot(weight: str | int | None, style: str | None) -> str:
    """The `fonts:` entry of a design family for a weight and a style."""
    bold, italic = is_bold(weight), is_italic(style)
    return {(False, False): "regular", (True, False): "bold", (False, True): "italic",
            (True, True): "bold_italic"}[(bold, italic)]


def generic_names() -> set[str]:
    """Family names that always mean a shipped family (a design may not take them for its own fonts)."""
    return {f.lower() for f in FAMILIES} | set(ALIASES)
