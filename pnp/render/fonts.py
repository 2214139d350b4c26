"""The fonts every output uses: shipped in pnp/fonts/, so output never depends on the machine.

Three DejaVu families ship (Bitstream Vera licence, pnp/fonts/LICENSE-DejaVu.txt), each
in four faces: DejaVu Sans, DejaVu Serif and DejaVu Sans Mono. Each face is two files
(pnp/fonts/make_subset.py): the Latin one (Western European Latin and the symbols the components
use), which every build registers, and its extended face ("DejaVuSansExt-Bold"...: Latin
Extended-B and Additional with Vietnamese, combining marks, Greek, Cyrillic, Armenian, Georgian),
registered only when a text needs it. `coverage.json` says which characters each file has, so
choosing a face for a character reads no font file.

`resolve(family, weight, style)` turns what an SVG says (a CSS font-family list, a weight,
a style) into the ReportLab name of one of those faces, and registers it. It never asks
the machine: generic families (sans-serif, serif, monospace) and the usual system names
(Arial, Helvetica, Times New Roman, Courier...) map to the shipped families, and an
unknown family falls back to DejaVu Sans. Names are fixed, so a drawing or a cached
product made in one process means the same fonts in every other: `ensure(name)`
registers a face by its name wherever it is needed.

Every character is drawn with the first font of its text's chain that has it (`chain`, `split`): the
families of the font-family list in order (a design's own, or shipped), the shipped family the list maps
to, the shipped extended faces (then the other shipped families, same style), then every family of the
design's `fonts:`. A character none of them has is drawn as PLACEHOLDER (a white square) and reported
by the caller, which knows where the text came from. pnp.render.svgpdf and textbox() place and measure
with `split`; text ReportLab sets itself (rulebooks, the sheets' footers, the kit's cover) goes through
the same chain because the shipped Latin faces are registered as `_ShippedFont`s.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import io
import re
import threading
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from struct import error as struct_error
from typing import Any

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



def _ext(name: str) -> str:
    stem, dash, rest = name.partition("-")
    return f"{stem}Ext{dash}{rest}"


EXT: dict[str, str] = {name: _ext(name) for faces in FAMILIES.values() for name in faces}
"""Each shipped Latin face -> its extended face (the same style, the scripts the Latin file leaves out)."""
FILES: dict[str, Path] = {name: FONT_DIR / f"{name}.ttf" for faces in FAMILIES.values() for base in faces
                          for name in (base, EXT[base])}
PLACEHOLDER = "\u25a1"
"""What a character no font of its chain has is drawn as: U+25A1 WHITE SQUARE, which every Latin face has."""

_lock = threading.Lock()
# the fonts registered with ReportLab, whose registry is process-wide: filled once per font
_registered: set[str] = set()


def ensure(name: str) -> bool:
    """Register the shipped face `name` with ReportLab (once per process); False if it is not ours."""
    if name in _registered:
        return True
    path = FILES.get(name)
    if path is None:
        return False
    from reportlab.pdfbase import pdfmetrics  # lazy: 51 ms (reportlab.pdfbase)

    with _lock:
        if name not in _registered:
            pdfmetrics.registerFont(_shipped_class()(name, str(path)) if name in EXT else _font_class()(name, str(path)))
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
        family = shipped_family(raw)
        if family:
            return family
    return DEFAULT_FAMILY


def shipped_family(name: str) -> str | None:
    """The shipped family one CSS family name means (itself, an alias, any case), else None."""
    name = name.strip().strip("'\"").strip()
    if not name:
        return None
    if name in FAMILIES:
        return name
    alias = ALIASES.get(name.lower())
    if alias:
        return alias
    for family in FAMILIES:
        if family.lower() == name.lower():
            return family
    return None


def _slot(weight: str | int | None, style: str | None) -> int:
    """The index of a weight and style in a family's faces (regular, bold, italic, bold italic)."""
    return (2 if is_italic(style) else 0) + (1 if is_bold(weight) else 0)


@functools.lru_cache(maxsize=512)
def resolve(font_family: str | None, weight: str | int | None = "normal", style: str | None = "normal") -> str:
    """The registered ReportLab name of the shipped face for an SVG font-family, weight and style."""
    name = FAMILIES[family_of(font_family)][_slot(weight, style)]
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
    from reportlab.lib.fonts import addMapping  # lazy: 1.5 ms (reportlab.lib.fonts)

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
# a registry keyed by content (a name made from the file's bytes): the same entry in any build
_DATA: dict[str, bytes] = {}  # registered design fonts: name -> the file's bytes


def data_name(data: bytes) -> str:
    import hashlib  # lazy: 3.7 ms (hashlib)

    return "pnp-" + hashlib.sha256(data).hexdigest()[:20]


def register_data(data: bytes) -> str:
    """Register a TrueType font given by its bytes (once per process); its ReportLab name. ValueError naming
    why a file cannot be used (not a font, PostScript (CFF) outlines, a licence that forbids embedding)."""
    name = data_name(data)
    if name in _registered:
        return name

    from reportlab.pdfbase import pdfmetrics  # lazy: 53 ms (reportlab.pdfbase)
    from reportlab.pdfbase.ttfonts import TTFError  # lazy: 57 ms (reportlab.pdfbase.ttfonts)

    with _lock:
        if name not in _registered:
            try:
                font = _font_class()(name, io.BytesIO(data))
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
            _can_embed(font)
            pdfmetrics.registerFont(font)
            _registered.add(name)
            _DATA[name] = data
    return name


def _can_embed(font) -> None:
    """Every glyph of the font subset as a PDF will (ReportLab's makeSubset, 255 characters at a time), once when
    it is registered: a damaged table (glyf, loca) is a ValueError here, at the design's fonts: line, rather than
    an error while a PDF is saved (about 10 ms for a font of 3,400 characters)."""
    from reportlab.pdfbase.ttfonts import TTFError  # lazy: 55 ms (reportlab.pdfbase.ttfonts)

    codes = sorted(font.face.charToGlyph)
    try:
        for start in range(0, len(codes), 255):
            font.face.makeSubset(codes[start:start + 255])
    except (TTFError, IndexError, KeyError, ValueError, OverflowError, struct_error) as exc:
        raise ValueError(f"its glyphs cannot be embedded: the file is damaged ({exc.__class__.__name__}: "
                         f"{' '.join(str(exc).split())[:80]}); expected an undamaged TrueType font") from None


def face_slot(weight: str | int | None, style: str | None) -> str:
    """The `fonts:` entry of a design family for a weight and a style."""
    bold, italic = is_bold(weight), is_italic(style)
    return {(False, False): "regular", (True, False): "bold", (False, True): "italic",
            (True, True): "bold_italic"}[(bold, italic)]


def generic_names() -> set[str]:
    """Family names that always mean a shipped family (a design may not take them for its own fonts)."""
    return {f.lower() for f in FAMILIES} | set(ALIASES)


def own_face(faces: Mapping[str, str], weight: str | int | None, style: str | None) -> str:
    """A design family's face for a weight and style (its `fonts:` slots): that slot, else the nearest one it has
    (bold italic -> bold, italic -> italic, then regular, then any)."""
    slot = face_slot(weight, style)
    for k in (slot, "bold" if slot == "bold_italic" else slot, "regular"):
        if k in faces:
            return faces[k]
    return next(iter(faces.values()))


# --- the chain: which font draws which character ------------------------------------------------------------

OwnFaces = tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
"""A design's (or an SVG's @font-face) families, hashable: ((family in lower case, ((slot, font name), ...)), ...),
in the order the design lists them."""


def own_key(font_faces: Mapping[str, Mapping[str, str]]) -> OwnFaces:
    """`font_faces` (family in lower case -> slot -> ReportLab name) as `chain` takes it."""
    return tuple((family, tuple(faces.items())) for family, faces in font_faces.items() if faces)


@functools.lru_cache(maxsize=2048)
def chain(font_family: str | None, weight: str | int | None = "normal", style: str | None = "normal",
          own: OwnFaces = ()) -> tuple[str, ...]:
    """The fonts a text in this CSS font-family list, weight and style is drawn with, in the order a character
    takes the first that has it: each family of the list that is the design's (`own`) or shipped, the shipped
    family the list maps to (DejaVu Sans for none), its extended face, the other shipped families (Latin and
    extended faces, same style), then every family of `own`. The first font is the text's own (its metrics set
    the baselines)."""
    slot = _slot(weight, style)
    mine = {family: dict(faces) for family, faces in own}
    out: list[str] = []
    for raw in (font_family or "").split(","):
        faces = mine.get(raw.strip().strip("'\"").strip().lower())
        if faces:
            out.append(own_face(faces, weight, style))
            continue
        family = shipped_family(raw)
        if family:
            out.append(FAMILIES[family][slot])
    mapped = FAMILIES[family_of(font_family)][slot]
    out += [mapped, EXT[mapped]]
    for faces4 in FAMILIES.values():
        out += [faces4[slot], EXT[faces4[slot]]]
    out += [own_face(faces, weight, style) for faces in mine.values()]
    return tuple(dict.fromkeys(out))


@functools.cache
def _coverage_file() -> dict:
    """pnp/fonts/coverage.json: {"files": {face: ranges}, "every_chain": ranges}, ranges as [[first, last], ...]."""
    import json  # lazy: 2.0 ms (json)

    return json.loads((FONT_DIR / "coverage.json").read_text(encoding="utf-8"))


@functools.cache
def _shipped_coverage(name: str) -> frozenset[int]:
    return frozenset(c for lo, hi in _coverage_file()["files"][name] for c in range(lo, hi + 1))


def covers(name: str):
    """The code points font `name` draws (a container): a shipped face's from pnp/fonts/coverage.json (no font
    file read), another's from its cmap (it must be registered)."""
    if name in FILES:
        return _shipped_coverage(name)
    from reportlab.pdfbase import pdfmetrics  # lazy: 48 ms (reportlab.pdfbase)

    return pdfmetrics.getFont(name).face.charToGlyph


Runs = tuple[tuple[str, str], ...]
"""A text as (font, characters) runs, each drawn in its font one after the other."""


def split(text: str, fonts: tuple[str, ...]) -> tuple[Runs, tuple[str, ...]]:
    """`text` cut into runs of the first font of the chain `fonts` that has each character, and the characters
    none has (once each, in order). Those are drawn as PLACEHOLDER; a space none has as a plain space; a format
    or control character none has (a zero-width joiner, a variation selector) is left out, as it has no
    glyph of its own. Every shipped font of a run is registered. A text its first font has whole (the usual
    case) is one run of the text as it is."""
    first = fonts[0]
    if first in EXT and text.isascii() and text.isprintable():  # every Latin face has printable ASCII
        if first not in _registered:
            ensure(first)
        return ((first, text),), ()
    if all(map(_cmap(first).__contains__, map(ord, text))):
        return ((first, text),), ()
    return _split(text, fonts)


# memo of a pure read (a shipped font file's character map): safe across builds
_CMAPS: dict[str, dict[int, int]] = {}


def _cmap(name: str) -> dict[int, int]:
    """The character map of a registered (or shipped, then registered) font."""
    found = _CMAPS.get(name)
    if found is None:
        from reportlab.pdfbase import pdfmetrics  # lazy: 52 ms (reportlab.pdfbase)

        ensure(name)
        found = _CMAPS[name] = pdfmetrics.getFont(name).face.charToGlyph
    return found


_DROPPED = frozenset(("Cf", "Cc"))


@functools.lru_cache(maxsize=8192)
def _split(text: str, fonts: tuple[str, ...]) -> tuple[Runs, tuple[str, ...]]:
    covered = [covers(name) for name in fonts]
    runs: list[tuple[str, str]] = []
    missing: dict[str, None] = {}
    font = fonts[0]
    chars: list[str] = []
    for ch in text:
        cp = ord(ch)
        use = next((name for name, has in zip(fonts, covered) if cp in has), None)
        if use is None:
            kind = unicodedata.category(ch)
            if kind in _DROPPED or 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF:
                continue
            if kind == "Zs":
                ch = " "
            else:
                missing[ch] = None
                ch = PLACEHOLDER
            use = next((name for name, has in zip(fonts, covered) if ord(ch) in has), fonts[0])
        if use != font and chars:
            runs.append((font, "".join(chars)))
            chars = []
        font = use
        chars.append(ch)
    if chars:
        runs.append((font, "".join(chars)))
    for name in dict.fromkeys(name for name, _ in runs):
        if name in FILES:
            ensure(name)
    return tuple(runs), tuple(missing)


def describe(char: str) -> str:
    """A character as messages name it: U+03A9 "Ω"."""
    return f'U+{ord(char):04X} "{char}"'


# --- text ReportLab sets itself: rulebooks, the sheets' footers, the kit's cover -------------------------------

class _Fallbacks:
    """What `fallbacks` set: the design's families (made on first need) and the characters no font had."""

    def __init__(self, own: Callable[[], OwnFaces] | None):
        self.make = own
        self.own: OwnFaces | None = None if own is not None else ()
        self.missing: list[str] = []

    def families(self) -> OwnFaces:
        if self.own is None:
            self.own = self.make() if self.make is not None else ()
        return self.own


_FALLBACKS: contextvars.ContextVar[_Fallbacks | None] = contextvars.ContextVar("pnp_font_fallbacks", default=None)


@contextlib.contextmanager
def fallbacks(own: Callable[[], OwnFaces] | None = None) -> Iterator[list[str]]:
    """While this runs, text ReportLab sets in a shipped face (platypus paragraphs, drawString) also takes what
    the shipped fonts lack from the families `own()` gives (a design's fonts, `design_fonts`; asked only when a
    text needs them), and every character no font has is appended to the list this yields, once."""
    state = _Fallbacks(own)
    token = _FALLBACKS.set(state)
    try:
        yield state.missing
    finally:
        _FALLBACKS.reset(token)


def design_fallbacks(design):
    """`fallbacks` with the design's own fonts: for the text pnp sets itself (the sheets' footers, the kit's cover),
    so a title in a script only the design's font has prints."""
    return fallbacks(lambda: design_fonts(design))


def in_design_fonts(design, make: Callable[[], Any]) -> Any:
    """`make()` under `design_fallbacks(design)`."""
    with design_fallbacks(design):
        return make()


def design_fonts(design) -> OwnFaces:
    """A design's `fonts:` files registered, as `chain` and `fallbacks` take them (the loader has checked them;
    one that cannot be read now is left out)."""
    if not getattr(design, "fonts", None):
        return ()
    from pnp.confine import DesignFiles  # lazy: 24 ms (pnp.confine)

    files = DesignFiles(design.folder)
    found: dict[str, dict[str, str]] = {}
    for family, faces in sorted(design.fonts.items()):
        for slot, name in faces.files().items():
            try:
                path = files.locate(name, what="font")
                if path is not None:
                    found.setdefault(family.lower(), {})[slot] = register_data(files.read_bytes(path, "font_bytes"))
            except Exception:  # the build reports a bad font file where it reads it
                continue
    return own_key(found)


_FACES: dict[str, tuple[str, int]] = {name: (family, slot) for family, faces in FAMILIES.items()
                                      for slot, name in enumerate(faces)}


@functools.cache
def _font_class():
    """The class of every font pnp registers (shipped, extended, a design's own): ReportLab's TTFont, whose
    U+00A0 has a code of its own in the PDF, so that a reader extracts the no-break space as U+00A0
    (reportlab_internals.split_string; ReportLab writes it as a space)."""
    from reportlab.pdfbase.ttfonts import TTFont  # lazy: 57 ms (reportlab.pdfbase.ttfonts)

    from pnp.render import reportlab_internals as rl  # lazy: 10 ms (pnp.render.reportlab_internals)

    split_string = TTFont.splitString

    class Font(TTFont):
        def splitString(self, text, doc, encoding="utf-8"):
            if isinstance(text, bytes):
                text = text.decode(encoding)
            if "\u00a0" in text:
                return rl.split_string(self, text, doc)
            return split_string(self, text, doc, encoding)

    return Font


@functools.cache
def _shipped_class():
    """The class of the shipped Latin faces: ReportLab's TTFont, whose text falls back along its chain."""
    from reportlab.lib.rl_accel import instanceStringWidthTTF as width  # lazy: 2.2 ms (reportlab.lib.rl_accel)
    from reportlab.pdfbase import pdfmetrics  # lazy: 76 ms (reportlab.pdfbase)
    from reportlab.pdfbase.ttfonts import TTFont  # lazy: 57 ms (reportlab.pdfbase.ttfonts)

    Font: Any = _font_class()  # (a class made at run time: mypy cannot see it as a base)
    split_string, subset_name = Font.splitString, TTFont.getSubsetInternalName

    class ShippedFont(Font):
        """A shipped Latin face. Text that it has whole (all text of a Latin design, and every run
        pnp.render.svgpdf and textbox() cut with `split`) is measured and set by TTFont itself, to the byte;
        other text is cut along the face's chain (then the `fallbacks` fonts), each run measured and set in
        its own font: subsets of other fonts are named (font name, subset) in splitString's result, which
        getSubsetInternalName resolves."""

        def _runs(self, text) -> Runs | None:
            if isinstance(text, bytes):
                text = text.decode("utf-8")
            if all(map(self.face.charToGlyph.__contains__, map(ord, text))):
                return None  # the face has it all (the usual case, and every run svgpdf and textbox cut)
            family, slot = _FACES[self.fontName]
            weight, style = "bold" if slot & 1 else "normal", "italic" if slot & 2 else "normal"
            runs, lacking = split(text, chain(family, weight, style))
            state = _FALLBACKS.get()
            if lacking and state is not None:
                if state.families():
                    runs, lacking = split(text, chain(family, weight, style, state.families()))
                state.missing += [ch for ch in lacking if ch not in state.missing]
            if len(runs) == 1 and runs[0][0] == self.fontName and runs[0][1] == text:
                return None
            return runs

        def stringWidth(self, text, size, encoding="utf8"):  # (ASCII first: 60,000 calls a build, most ASCII)
            if text.isascii() or (runs := self._runs(text)) is None:
                return width(self, text, size, encoding)
            return sum(width(self, piece, size, encoding) if name == self.fontName
                       else pdfmetrics.getFont(name).stringWidth(piece, size) for name, piece in runs)

        def splitString(self, text, doc, encoding="utf-8"):
            if text.isascii() or (runs := self._runs(text)) is None:
                return split_string(self, text, doc, encoding)
            out: list = []
            for name, piece in runs:
                if name == self.fontName:
                    out += super().splitString(piece, doc, encoding)
                else:
                    out += [((name, subset), chunk) for subset, chunk in pdfmetrics.getFont(name).splitString(piece,
                                                                                                            doc)]
            return out

        def getSubsetInternalName(self, subset, doc):
            if subset.__class__ is int:
                return subset_name(self, subset, doc)
            return pdfmetrics.getFont(subset[0]).getSubsetInternalName(subset[1], doc)

    return ShippedFont


# --- a face's text that no font has -------------------------------------------------------------------------------

@functools.cache
def _always_drawn():
    """A pattern finding a character that some text could lack: one outside what every chain has (in each style,
    a shipped face has it: coverage.json's every_chain), or a control character."""
    spans = [re.escape(chr(lo)) + ("-" + re.escape(chr(hi)) if hi > lo else "")
             for lo, hi in _coverage_file()["every_chain"] if lo >= 0x20]
    return re.compile("[^\n\r\t" + "".join(spans) + "]")


def face_warnings(svg: str, style: str, resources, source: Path, files=None, row: str | None = None,
                  context: Mapping | None = None, known: list | None = None) -> list[tuple[str, int | None, str]]:
    """The characters of a face's SVG that no font of their text's chain has (drawn as PLACEHOLDER), each a
    warning recorded with pnp.errors.warn and returned as (file, line, message), for with_warning_marks. `style`:
    the design's @font-face <style> the face is drawn with; `source`: the template (or SVG file) it was made
    from; `row`: the data-table row that filled it. The line is the template line that made the <text> (one that
    writes the character, or whose literal text the <text>'s SVG line holds), else the first that names the
    column of `context` (the row's values) holding it; for an SVG file, the line of the <text>. `known`: warnings
    already given about this face (a text box's, at the line of its call), not repeated. Only a face with a
    character outside what every chain has is compiled to find out (most faces have none)."""
    if svg.isascii() or not _always_drawn().search(svg):
        return []
    from pnp.errors import display_path, warn  # lazy: 16 ms (pnp.errors)
    from pnp.render.svgpdf import compile_svg  # lazy: cycle fonts -> svgpdf -> svgpdf.player -> fonts
    from pnp.render.svgpdf.text import missing_message  # lazy: cycle fonts -> svgpdf -> svgpdf.player -> fonts

    styled = svg
    shift, after = 0, 0
    if style:
        start = svg.find("<svg")
        end = svg.find(">", start)
        if start >= 0 and end >= 0:
            styled = svg[:end + 1] + "\n" + style + svg[end + 1:]
            shift, after = style.count("\n") + 1, svg.count("\n", 0, end) + 1
    comment = svg.find("<!-- made by pnp from ")
    mark = (svg.count("\n", 0, comment) + 1 if comment >= 0 and svg.startswith("-->\n", svg.find("-->", comment))
            else 0)
    compiled = compile_svg(styled, resources=resources)
    if not compiled.missing:
        return []
    said = {(w[1], w[2]) for w in known or ()}
    given = {w[2] for w in known or ()}
    template = None
    if context is not None:
        try:
            template = (files.read_text(source, "template_bytes", shared=True) if files is not None
                        else Path(source).read_text(encoding="utf-8")).splitlines()
        except Exception:  # unreadable now: the warning goes without a line
            template = []
    drawn = styled.splitlines()
    shown = display_path(source) + (f" (row {row})" if row else "")
    out = []
    for line, ch in compiled.missing:
        message = missing_message(ch)
        if template is not None:
            made = drawn[line - 1] if line is not None and 0 < line <= len(drawn) else ""
            line = _template_line(template, made, ch)
            if line is None:
                if message in given:
                    continue  # a text box's (its lines are all template expression): it has said so
                line = _column_line(template, ch, context or {})
        elif line is not None:  # an SVG file: its own line, less the lines pnp put in (the fonts' style, the
            if shift and line > after:  # source comment: pnp.errors.with_source_comment)
                line -= shift
            if mark and line > mark:
                line -= 1
        if (line, message) in said:
            continue
        said.add((line, message))
        warn(shown, line, message)
        out.append((shown, line, message))
    return out


_EXPR = r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}"


def _template_line(lines: list[str], made: str, ch: str) -> int | None:
    """The template line that made the SVG line `made` (whose <text> holds `ch`): the line whose literal text (what
    is outside its {{ }} and {% %}) stands in `made` in its order and writes `ch`, else such a line with {{ }},
    the longest; None when none fits (a text box's line is all expression)."""
    def literal(text: str) -> list[str]:
        return [p.strip() for p in re.split(_EXPR, text) if p.strip()]

    def fits(parts: list[str]) -> bool:
        at = 0
        for part in parts:
            at = made.find(part, at)
            if at < 0:
                return False
            at += len(part)
        return True

    best, most = None, 0
    for n, text in enumerate(lines, start=1):
        if ch in text and fits(literal(text)):
            return n
        if "{{" not in text:
            continue
        parts = literal(text)
        size = sum(len(p) for p in parts)
        if size > most and fits(parts):
            best, most = n, size
    return best


def _column_line(lines: list[str], ch: str, context: Mapping) -> int | None:
    """The first template line whose {{ }} names the column of `context` (the row) whose value holds `ch`."""
    for column, value in context.items():
        if isinstance(value, str) and ch in value:
            name = re.escape(str(column))  # `title`, `row.title`, `row['title']`, not `design.title`
            word = re.compile(rf"(?:(?<![\w.'\"-])|(?<=\brow\.)){name}(?![\w'\"-])|\[['\"]{name}['\"]\]")
            for n, text in enumerate(lines, start=1):
                if any(word.search(expr) for expr in re.findall(r"\{\{(.*?)\}\}", text)):
                    return n
    return None
