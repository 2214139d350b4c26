"""Text boxes for face templates: `{{ textbox(text, x=, y=, width=, height=, ...) }}`.

The text is wrapped by the real advance widths of the font files pnp embeds (ReportLab's
stringWidth, each character in the first font of its chain that has it, pnp.render.fonts.chain:
the same fonts and numbers pnp.render.svgpdf places glyphs with), into explicit lines: one
`<tspan x y>` per line, so the SVG, the PDF and the PNG (rasterised from the PDF) break at the
same words. Alignment
(left, center, right, justify; top, middle, bottom) is computed here and written as absolute
positions, never left to a renderer.

The text's markup, whatever it comes from (a CSV cell, a YAML value), is read by pnp.render.markup:
`**bold**`, `*italic*`, line breaks (a real one, `\\n`, `<br>`, `<p>`), the HTML subset nanDECK, Squib and
spreadsheets write (`<b> <i> <u> <span style="color:..; font-size:.."> <font color size> <big> <small>`, lists
`<ul> <ol> <li>` or lines starting `- `), entities, and `:name:` an icon of the design, `<icons>/name.svg` or `.png`
(`icons=` names the folder, default `icons`), drawn at the text's size and flowing with the words. Runs of
several sizes are measured at their sizes and a line takes its height from its largest size; an underline is a
<rect> measured here (pnp.render.svgpdf draws no text-decoration), so every output shows it. Markup pnp does not
know is a warning naming the template line and the row, and is never printed as tags; `markup=False` sets the
characters exactly as written. The text is XML-escaped: a cell cannot inject SVG.

Cells printed straight into a template's <text> (`<text>{{ title }}</text>`) get the same inline markup:
mark_cell (the templates' Jinja2 `finalize`) marks each value that holds markup, and convert_cells, once the face
is parsed, turns the marked text of <text> and <tspan> elements into <tspan>s, leaving attributes as they were.
Filters: `| plain` (the words, no markup) and `| literal` (exactly as written).

If the text does not fit at `size`, the size shrinks (down to `min_size`); if it does not
fit even then, the text is drawn at `min_size` and a warning names the template line and
the data-table row. `lang=` (a language code) typesets the text in that language first (pnp.render.typography:
typographic apostrophes and quotes, French no-break spaces before : ; ! ? and after numbers); lines break only
at U+0020, never at the no-break spaces it writes. The work is bounded: `textbox_chars` characters of text, `textbox_lines`
lines (pnp.limits).
"""

from __future__ import annotations

import base64
import contextvars
import functools
import io
import re
import struct
import sys
import types
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from pnp.limits import LimitExceeded, limit
from pnp.render import markup
from pnp.render.typography import typeset_runs

ALIGNS = ("left", "center", "right", "justify")
VALIGNS = ("top", "middle", "bottom")
ICON_SUFFIXES = (".svg", ".png", ".jpg", ".jpeg", ".webp")

ICON_HREFS = False
"""True once the image pipeline draws `<image href="icons/x.svg">` files of the design in every output (the art
work of issue 15); until then an SVG icon is inlined as a nested <svg> and a raster icon as a data: URI."""


# --- what the face being painted is (set by pnp.render.faces around a template's rendering) -------------------

@dataclass
class Painting:
    files: Any  # pnp.confine.DesignFiles of the design
    folder: Path
    row: str | None  # "cards.csv:3" as messages show it, or None outside a data table
    warnings: list[tuple[str, int | None, str]] = field(default_factory=list)  # (file, line, message)
    icons: dict[str, Any] = field(default_factory=dict)  # icon path -> parsed icon (or None when unreadable)
    fonts_style: str = ""  # the design's fonts: as the @font-face <style> pnp.render.faces puts in the face
    font_faces: dict[str, dict[str, str]] | None = None  # family (lower case) -> slot -> ReportLab name, read once
    cells: list[tuple[str, str | None, int | None]] = field(default_factory=list)  # marked values: text, file, line
    lang: str = ""  # the face's language: a box's text is typeset in it before its lines are broken ("": as given)


_FONT_FACE = re.compile(r'@font-face \{font-family: "([^"]+)"; font-weight: (\w+); font-style: (\w+); '
                        r'src: url\("([^"]+)"\)\}')


def _design_fonts() -> dict[str, dict[str, str]]:
    """The design's own font files (its `fonts:`), registered as pnp.render.svgpdf registers them: a text box
    measures with the very file the PDF embeds."""
    painting = PAINTING.get()
    if painting is None or not painting.fonts_style:
        return {}
    if painting.font_faces is None:
        from pnp.render import fonts  # lazy: 13 ms (pnp.render)

        faces: dict[str, dict[str, str]] = {}
        for family, weight, style, name in _FONT_FACE.findall(painting.fonts_style):
            try:
                from pnp.render.art import unquote_url  # lazy: 75 ms (pnp.render.art)

                path = painting.files.locate(unquote_url(name), what="font")
                if path is not None:
                    data = painting.files.read_bytes(path, "font_bytes")
                    faces.setdefault(family.lower(), {})[fonts.face_slot(weight, style)] = fonts.register_data(data)
            except Exception:  # the build reports a bad font file where it reads it; here the shipped fonts measure
                continue
        painting.font_faces = faces
    return painting.font_faces


PAINTING: contextvars.ContextVar[Painting | None] = contextvars.ContextVar("pnp_textbox_painting", default=None)


def _template_line() -> tuple[str | None, int | None]:
    """The template file and line calling the helper: the innermost frame of compiled template code."""
    frame: types.FrameType | None = sys._getframe(1)
    while frame is not None:
        tmpl = frame.f_globals.get("__jinja_template__")
        if tmpl is not None and tmpl.filename:
            try:
                return tmpl.filename, tmpl.get_corresponding_lineno(frame.f_lineno)
            except Exception:  # a template without debug info: its file is still worth naming
                return tmpl.filename, None
        frame = frame.f_back
    return None, None


def _warn(message: str) -> None:
    from pnp.errors import display_path, warn  # lazy: 11 ms (pnp.errors)

    file, line = _template_line()
    painting = PAINTING.get()
    shown = display_path(file) if file else "template"
    if painting is not None and painting.row:
        shown += f" (row {painting.row})"
    if painting is not None:
        painting.warnings.append((shown, line, message))
    warn(shown, line, message)


# --- parsing the text (pnp.render.markup reads it; here runs become words of parts) ---------------------------------

@dataclass(frozen=True)
class Part:
    text: str  # the characters, or the icon's name
    bold: bool = False
    italic: bool = False
    icon: Any = None  # an Icon for an inline icon
    underline: bool = False
    colour: str | None = None  # a colour run's fill, "#rrggbb"
    scale: float = 1.0  # a size run: times the box's size

    @property
    def look(self) -> tuple:
        return (self.bold, self.italic, self.underline, self.colour, self.scale)


@dataclass(frozen=True)
class Icon:
    name: str
    rel: str  # path from the design folder, as written in href
    aspect: float  # width / height
    view_box: str = ""  # an SVG icon: its viewBox and its content, inlined when not drawn by href
    inner: str = ""
    uri: str = ""  # a raster icon: a data: URI, when not drawn by href


class Literal(Markup):
    """Text a template marked to be set exactly as written (`| literal`, `| plain`): never read as markup again."""

    __slots__ = ()


@dataclass
class _Para:
    words: list[list[Part]]
    level: int = 0  # list depth (0: not in a list)
    marker: str = ""  # the list item's marker, drawn hanging before its first line


def _parse(text: str, resolve_icon, use_markup: bool = True, size: float = 1.0,
           lang: str | None = None) -> tuple[list[_Para], list[str]]:
    """Paragraphs -> words -> parts (runs of one look, icons), and the markup's warnings; `size` is the box's size
    (an absolute size run becomes a scale of it); `lang`: each paragraph's runs typeset in that language first
    (pnp.render.typography: its no-break spaces join what they join, words are split at U+0020 only); None: the
    language of the face being painted, "": as given."""
    parsed = markup.parse(text, use_markup)
    if lang is None:
        painting = PAINTING.get()
        lang = painting.lang if painting is not None else ""
    paras: list[_Para] = []
    for p in parsed.paragraphs:
        runs = p.runs
        if lang:
            typeset = iter(typeset_runs([r.text for r in runs if not r.icon], lang))
            runs = [r if r.icon else replace(r, text=next(typeset)) for r in runs]
        words: list[list[Part]] = []
        word: list[Part] = []
        for run in runs:
            st = run.style
            look = (st.bold, st.italic, st.underline, st.colour,
                    st.scale if st.size is None else st.size * st.scale / size)
            if run.icon:
                icon = resolve_icon(run.text)
                if icon is None:
                    _add(word, f":{run.text}:", look)
                else:
                    word.append(Part(run.text, st.bold, st.italic, icon, *look[2:]))
                continue
            # typeset above (a no-break space joins what it joins: the words are split at plain spaces only)
            for k, piece in enumerate(run.text.split(" ")):
                if k and word:
                    words.append(word)
                    word = []
                if piece:
                    _add(word, piece, look)
        if word:
            words.append(word)
        paras.append(_Para(words, p.level, p.marker))
    return paras, parsed.warnings


def _add(word: list[Part], chars: str, look: tuple) -> None:
    if word and word[-1].icon is None and word[-1].look == look:
        word[-1] = replace(word[-1], text=word[-1].text + chars)
    else:
        word.append(Part(chars, look[0], look[1], None, *look[2:]))


def _paragraphs(text: str, resolve_icon) -> list[list[list[Part]]]:
    """Paragraphs -> words -> parts, the markup read (its warnings left out)."""
    return [p.words for p in _parse(text, resolve_icon)[0]]


# --- measuring and breaking -----------------------------------------------------------------------------------------

class _Fonts:
    """The fonts of a text box and their widths. Each style (bold, italic) draws every character with the first
    font of its chain that has it (pnp.render.fonts.chain: the box's family list, the shipped faces, then the
    design's fonts), as pnp.render.svgpdf draws the box's SVG, so a text is measured with the very fonts and
    widths that print it; a character no font has is measured as the placeholder it prints as, and warned
    about (template line and row) once per text box."""

    def __init__(self, family: str, weight: str, style: str):
        from pnp.render import fonts  # lazy: 13 ms (pnp.render)

        self.base_bold = fonts.is_bold(weight)
        self.base_italic = fonts.is_italic(style)
        self.chains: dict[tuple[bool, bool], tuple[str, ...]] = {}
        own = fonts.own_key(_design_fonts())
        for b in (False, True):
            for i in (False, True):
                weight_, style_ = ("bold" if (b or self.base_bold) else "normal",
                                   "italic" if (i or self.base_italic) else "normal")
                self.chains[b, i] = fonts.chain(family, weight_, style_, own)
        self.names = {k: c[0] for k, c in self.chains.items()}  # each style's own font (its metrics)
        from pnp.render.svgpdf.text import metrics  # lazy: 166 ms (pnp.render.svgpdf.text)

        fonts.ensure(self.names[False, False])
        self.ascent, self.descent, _ = metrics(self.names[False, False])
        self._unit: dict[tuple[str, bool, bool], float] = {}  # widths at size 1: a width scales with the size
        self._warned: set[str] = set()

    def _measure(self, text: str, bold: bool, italic: bool) -> float:
        key = (text, bold, italic)
        w = self._unit.get(key)
        if w is None:
            from reportlab.pdfbase.pdfmetrics import stringWidth  # lazy: 63 ms (reportlab.pdfbase.pdfmetrics)

            from pnp.render import fonts  # lazy: 13 ms (pnp.render)

            runs, missing = fonts.split(text, self.chains[bold, italic])
            if missing:
                self._missing(missing)
            if len(runs) == 1:
                w = stringWidth(runs[0][1], runs[0][0], 1000) / 1000
            else:
                w = sum(stringWidth(piece, font, 1000) for font, piece in runs) / 1000
            self._unit[key] = w
        return w

    def _missing(self, chars: tuple[str, ...]) -> None:
        from pnp.render.svgpdf.text import missing_message  # lazy: 120 ms (pnp.render.svgpdf.text)

        for ch in chars:
            if ch not in self._warned:
                self._warned.add(ch)
                _warn(missing_message(ch))

    def width(self, part: Part, size: float) -> float:
        if part.icon is not None:
            return size * part.icon.aspect
        return self._measure(part.text, part.bold, part.italic) * size

    def space(self, part: Part, size: float) -> float:
        b, i = (part.bold, part.italic) if part.icon is None else (False, False)
        return self._measure(" ", b, i) * size


@dataclass
class _Line:
    words: list[list[Part]]
    widths: list[float]  # each word's width
    spaces: list[float]  # the space before each word (0 for the first)
    last: bool  # the last line of its paragraph (not justified)
    indent: float = 0.0  # where the text starts, from the box's left edge (a list item's hanging indent), mm
    marker: str = ""  # a list item's marker, on its first line
    hang: float = 0.0  # how far left of the text the marker starts, mm
    scale: float = 1.0  # the largest size on the line, times the box's size: its line height

    @property
    def width(self) -> float:
        return sum(self.widths) + sum(self.spaces)


def _split_word(word: list[Part], room: float, f: _Fonts, size: float) -> list[list[Part]]:
    """A word wider than the box, cut between characters (an icon stays whole)."""
    pieces: list[list[Part]] = [[]]
    used = 0.0
    for part in word:
        units = [part] if part.icon is not None else [replace(part, text=c) for c in part.text]
        for u in units:
            w = f.width(u, size * u.scale)
            if pieces[-1] and used + w > room + 1e-9:
                pieces.append([])
                used = 0.0
            last = pieces[-1]
            if last and u.icon is None and last[-1].icon is None and last[-1].look == u.look:
                last[-1] = replace(last[-1], text=last[-1].text + u.text)
            else:
                last.append(u)
            used += w
    return pieces


def _hangs(paras: list[_Para], f: _Fonts) -> dict[int, float]:
    """List level -> the hanging indent of its items, in sizes: the widest marker of that level and half a size,
    at least 1.2 sizes (so the items of one level line up, bullets or numbers)."""
    hangs: dict[int, float] = {}
    for p in paras:
        if p.level:
            w = f.width(Part(p.marker), 1.0) + 0.5 if p.marker else 0.0
            hangs[p.level] = max(hangs.get(p.level, 1.2), w)
    return hangs


def _indent(level: int, hangs: dict[int, float]) -> float:
    return sum(hangs.get(n, 1.2) for n in range(1, level + 1))


def _break(paragraphs: list[_Para], width: float, f: _Fonts, size: float,
           hangs: dict[int, float] | None = None) -> list[_Line]:
    """Greedy lines: as many words as fit the width at `size` (word widths are measured once, at size 1)."""
    most = limit("textbox_lines")
    hangs = hangs or {}
    lines: list[_Line] = []
    for para in paragraphs:
        indent = min(_indent(para.level, hangs), max(0.0, width / size - 1)) if para.level else 0.0
        room = width / size - indent + 1e-9 if indent else width / size + 1e-9  # in sizes: widths are at size 1
        words: list[tuple[list[Part], float]] = []
        for word in para.words:
            ww = sum(f.width(p, p.scale) for p in word)
            if ww <= room:
                words.append((word, ww))
            else:
                words += [(w, sum(f.width(p, p.scale) for p in w)) for w in _split_word(word, room, f, 1.0)]
        hang = hangs.get(para.level, 1.2) * size if para.marker else 0.0
        cur = _Line([], [], [], False, indent * size, para.marker, hang)
        used = 0.0
        for word, ww in words:
            sp = f.space(word[0], word[0].scale) if cur.words else 0.0
            if cur.words and used + sp + ww > room:
                lines.append(cur)
                cur = _Line([], [], [], False, indent * size)
                sp = used = 0.0
            cur.words.append(word)
            cur.widths.append(ww * size)
            cur.spaces.append(sp * size)
            used += sp + ww
        cur.last = True
        lines.append(cur)  # an empty paragraph is an empty line
        if len(lines) > most:
            raise LimitExceeded("textbox_lines", f"a text box of more than {most} lines")
    for ln in lines:
        scales = [p.scale for w in ln.words for p in w] + ([1.0] if ln.marker else [])
        ln.scale = max(scales) if scales else 1.0
    return lines


def _baselines(lines: list[_Line], size: float, line_height: float, f: _Fonts) -> list[float]:
    """Each line's baseline below the box's top, mm. Lines of one size are `line_height` sizes apart; a line with a
    size run takes its height from its largest size, the leading shared above and below its glyphs as CSS does."""
    if all(ln.scale == 1.0 for ln in lines):
        return [f.ascent * size + n * line_height * size for n in range(len(lines))]
    above = (line_height - f.ascent - f.descent) / 2 + f.ascent  # baseline below a line box's top, in sizes
    below = line_height - above
    out = [f.ascent * lines[0].scale * size] if lines else []
    for prev, ln in zip(lines, lines[1:]):
        out.append(out[-1] + (below * prev.scale + above * ln.scale) * size)
    return out


def _height(lines: list[_Line], size: float, line_height: float, f: _Fonts) -> float:
    if not lines:
        return 0.0
    if all(ln.scale == 1.0 for ln in lines):
        return (len(lines) - 1) * line_height * size + (f.ascent + f.descent) * size
    return _baselines(lines, size, line_height, f)[-1] + f.descent * lines[-1].scale * size


@functools.lru_cache(maxsize=64)
def _underline_metrics(font: str) -> tuple[float, float]:
    """(top below the baseline, thickness) of a font's underline, in sizes, from its `post` table (what browsers
    draw `text-decoration: underline` with); 0.1 and 0.05 when the font does not say."""
    from reportlab.pdfbase import pdfmetrics  # lazy: 46 ms (reportlab.pdfbase)

    try:
        face = pdfmetrics.getFont(font).face
        post = face.get_table("post")
        pos, thick = struct.unpack(">hh", post[8:12])
        upm = face.unitsPerEm
        if thick > 0 and -upm < pos < upm:
            return -pos / upm, thick / upm
    except Exception:  # not a TrueType face we can read
        pass
    return 0.1, 0.05


# --- the helper ---------------------------------------------------------------------------------------------------

class TextboxError(ValueError):
    """A wrong argument of textbox(): `message` is `what is wrong; what is expected`."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


def _number(value: Any, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise TextboxError(f"textbox {name}={value!r} is not a number; expected a number of mm") from None
    if v != v or abs(v) > limit("length"):
        raise TextboxError(f"textbox {name}={value!r} is out of range; expected at most {limit('length')} mm")
    return v


def _r(v: float) -> str:
    v = round(v, 3)
    return f"{v:g}" if abs(v) >= 1e-4 else "0"


def textbox(text: Any, x: Any = 0, y: Any = 0, width: Any = None, height: Any = None, size: Any = 4,
            min_size: Any = None, align: str = "left", valign: str = "top", family: str = "DejaVu Sans",
            weight: str = "normal", style: str = "normal", line_height: Any = 1.2, fill: str = "#000000",
            icons: str = "icons", markup: Any = True, lang: str = "") -> Markup:
    """SVG markup of `text` set in the box (x, y, width, height), mm; see the module docstring."""
    if width is None:
        raise TextboxError("textbox needs width=; expected the box's width in mm")
    x, y, width = _number(x, "x"), _number(y, "y"), _number(width, "width")
    height = None if height is None else _number(height, "height")
    size = round(_number(size, "size"), 3)
    min_size = size if min_size is None else round(_number(min_size, "min_size"), 3)
    line_height = _number(line_height, "line_height")
    if width <= 0 or (height is not None and height <= 0) or size <= 0 or min_size <= 0 or line_height <= 0:
        raise TextboxError("textbox width, height, size, min_size and line_height must be more than 0; expected "
                         "positive numbers")
    min_size = min(min_size, size)
    if align not in ALIGNS:
        raise TextboxError(f"textbox align={align!r}; expected one of {', '.join(ALIGNS)}")
    if valign not in VALIGNS:
        raise TextboxError(f"textbox valign={valign!r}; expected one of {', '.join(VALIGNS)}")
    if markup not in (True, False):
        raise TextboxError(f"textbox markup={markup!r}; expected true or false")
    use_markup = bool(markup) and not isinstance(text, Literal)
    # a literal text (or markup=false) is set exactly as written; without lang=, the face's language
    box_lang = "" if isinstance(text, Literal) or not use_markup else (str(lang) if lang else None)
    if isinstance(text, Markup):
        text = text.unescape()
    text = "" if text is None else strip_marks(str(text))
    most = limit("textbox_chars")
    if len(text) > most:
        raise LimitExceeded("textbox_chars", f"a text box of {len(text)} characters")
    f = _Fonts(str(family), str(weight), str(style))
    paragraphs, problems = _parse(text, lambda name: _icon(name, str(icons)), use_markup, size, box_lang)
    for problem in problems:
        _warn(problem)
    hangs = _hangs(paragraphs, f)

    def fits(s: float) -> tuple[bool, list[_Line]]:
        lines = _break(paragraphs, width, f, s, hangs)
        ok = height is None or _height(lines, s, line_height, f) <= height + 1e-6
        return ok and all(ln.indent + ln.width <= width + 1e-6 for ln in lines), lines

    ok, lines = fits(size)
    chosen = size
    if not ok and min_size < size:
        ok_min, lines_min = fits(min_size)
        if not ok_min:
            chosen, lines = min_size, lines_min
        else:
            lo, hi, best = min_size, size, (min_size, lines_min)
            while hi - lo > 0.01:  # to a hundredth of a mm: at most 18 rounds, 8 for a usual range
                mid = round((lo + hi) / 2, 3)
                if mid in (lo, hi):
                    break
                good, ls = fits(mid)
                if good:
                    lo, best = mid, (mid, ls)
                else:
                    hi = mid
            chosen, lines = best
            ok = True
    if not ok:
        need = _height(lines, chosen, line_height, f)
        widest = max((ln.indent + ln.width for ln in lines), default=0.0)
        if height is not None and need > height + 1e-6:
            what = (f"{len(lines)} lines at size {chosen:g} need {need:.1f} mm and the box is {height:g} mm high")
        else:
            what = f"a line is {widest:.1f} mm wide and the box is {width:g} mm"
        first = paragraphs[0].words[:6] if paragraphs and paragraphs[0].words else []
        start = " ".join("".join(f":{p.text}:" if p.icon else p.text for p in w) for w in first)
        _warn(f"text box overflows: \"{start[:40]}...\": {what}; expected shorter text, a larger box or a smaller "
              "min_size")
    underline = _underline_metrics(f.names[False, False]) if any(
        p.underline for para in paragraphs for w in para.words for p in w) else (0.0, 0.0)
    return Markup(_svg(lines, f, x, y, width, height, chosen, align, valign, line_height, str(family), str(weight),
                       str(style), str(fill), underline, as_written=box_lang == ""))


def _svg(lines: list[_Line], f: _Fonts, x: float, y: float, width: float, height: float | None, size: float,
         align: str, valign: str, line_height: float, family: str, weight: str, style: str, fill: str,
         underline: tuple[float, float] = (0.0, 0.0), as_written: bool = False) -> str:
    block = _height(lines, size, line_height, f)
    top = y
    if height is not None and valign != "top":
        top = y + (height - block) / (2 if valign == "middle" else 1)
    attrs = (f'font-family="{escape(family)}" font-size="{_r(size)}" fill="{escape(fill)}"'
             + (f' font-weight="{escape(weight)}"' if weight != "normal" else "")
             + (f' font-style="{escape(style)}"' if style != "normal" else ""))
    # a text set as written (| literal, markup=false) says so: the face's typography pass leaves it alone
    mark = ' data-typeset="as-written"' if as_written else ""
    out = [f'<text {attrs} text-anchor="start"{mark}>']
    icons: list[str] = []
    rules: list[list] = []  # underlines: [x0, x1, baseline, scale, colour]
    uniform = all(ln.scale == 1.0 for ln in lines)
    baselines = None if uniform else _baselines(lines, size, line_height, f)
    for n, line in enumerate(lines):
        if not line.words and not line.marker:
            continue
        base = top + f.ascent * size + n * line_height * size if baselines is None else top + baselines[n]
        gaps = len(line.words) - 1
        room = width - line.indent
        extra = (room - line.width) / gaps if align == "justify" and gaps and not line.last else 0.0
        cursor = x + line.indent + {"left": 0.0, "justify": 0.0, "center": (room - line.width) / 2,
                                    "right": room - line.width}[align]
        if line.marker:
            out.append(f'<tspan x="{_r(cursor - line.hang)}" y="{_r(base)}">{escape(line.marker)}</tspan>')
        need_x = True
        prev: Part | None = None
        for i, word in enumerate(line.words):
            if i:
                gap_start = cursor
                cursor += line.spaces[i] + extra
                if extra:
                    need_x = True
                if prev is not None and prev.underline and word[0].underline and rules and \
                        rules[-1][1] == gap_start and (prev.scale, prev.colour) == (word[0].scale, word[0].colour):
                    rules[-1][1] = cursor  # the space between two underlined words is underlined
            for j, part in enumerate(word):
                s = size * part.scale
                w = f.width(part, s)
                if part.icon is not None:
                    icons.append(_icon_markup(part.icon, cursor, base - 0.8 * size * part.scale, w, s))
                    need_x = True
                else:
                    chars = ("" if need_x or i == 0 or j else " ") + part.text
                    pos = f' x="{_r(cursor)}" y="{_r(base)}"' if need_x else ""
                    style_attrs = ((' font-weight="bold"' if part.bold and not f.base_bold else "")
                                   + (' font-style="italic"' if part.italic and not f.base_italic else "")
                                   + (f' fill="{part.colour}"' if part.colour else "")
                                   + (f' font-size="{_r(s)}"' if part.scale != 1.0 else ""))
                    out.append(f"<tspan{pos}{style_attrs}>{escape(chars)}</tspan>")
                    need_x = part.scale != 1.0  # the next part starts where pnp measured, not where a rounded size ends
                if part.underline:
                    if rules and rules[-1][1] == cursor and rules[-1][2:] == [base, part.scale, part.colour]:
                        rules[-1][1] = cursor + w
                    else:
                        rules.append([cursor, cursor + w, base, part.scale, part.colour])
                cursor += w
                prev = part
    out.append("</text>")
    below, thick = underline
    lines_drawn = "".join(f'<rect x="{_r(x0)}" y="{_r(b + below * size * sc)}" width="{_r(x1 - x0)}" '
                          f'height="{_r(max(thick * size * sc, 0.05))}" fill="{escape(colour or fill)}"/>'
                          for x0, x1, b, sc, colour in rules)
    return "".join(out) + "".join(icons) + lines_drawn


# --- cells printed straight into a template's <text> ---------------------------------------------------------------

MARK, _MID, _END = "\ufdd0", "\ufdd1", "\ufdd2"  # Unicode noncharacters: around a value that holds markup
_MARKED = re.compile("\ufdd0([0-9]+)\ufdd1(.*?)\ufdd2", re.S)
_MARKS = re.compile("\ufdd0[0-9]*\ufdd1?|\ufdd1|\ufdd2")
_SVG_NS = "{http://www.w3.org/2000/svg}"


def mark_cell(value: Any) -> Any:
    """Jinja2's `finalize` for face templates: a value printed by `{{ ... }}` that holds markup (a cell with `<b>`,
    `&quot;`, `**`) is wrapped in marks, with the template line printing it, so that once the SVG is parsed the
    value is read as markup where it lands in a <text> (convert_cells) and kept as it is everywhere else."""
    if type(value) is not str or not markup.has_markup(value):
        return value
    painting = PAINTING.get()
    if painting is None or len(painting.cells) >= 100_000:
        return value
    if MARK in value or _MID in value or _END in value:
        value = _MARKS.sub("", value)
    painting.cells.append((value, *_template_line()))
    return f"{MARK}{len(painting.cells) - 1}{_MID}{value}{_END}"


def plain_filter(value: Any) -> Literal:
    """`{{ cell | plain }}`: the words without markup (pnp.render.markup.plain), printed as they are."""
    text = strip_marks(str(value.unescape() if isinstance(value, Markup) else "" if value is None else value))
    parsed = markup.parse(text)
    for problem in parsed.warnings:
        _warn(problem)
    return Literal(escape(markup.plain(text)))


def literal_filter(value: Any) -> Literal:
    """`{{ cell | literal }}`: exactly as written, tags printed, never read as markup."""
    if isinstance(value, Markup):
        return Literal(strip_marks(value))
    return Literal(escape("" if value is None else strip_marks(str(value))))


def strip_marks(text: str) -> str:
    return _MARKS.sub("", text) if MARK in text or _END in text else text


def convert_cells(root: Any, painting: Painting) -> bool:
    """The marked values of a parsed face (mark_cell): in the text of a <text> or <tspan>, read as markup (runs as
    <tspan>s, an underline as a <rect> measured under it), elsewhere (attributes, <title>, comments) the value as
    it is. True when some text changed (the SVG must be written again), False when only marks were removed."""
    changed = False
    underlined: dict[Any, list] = {}
    for el in list(root.iter()):
        for k, v in el.attrib.items():
            if MARK in v or _END in v:
                el.set(k, strip_marks(v))
        if el.text and (MARK in el.text or _END in el.text):
            if _in_text(el):
                changed |= _convert_text(el, None, painting, underlined)
            else:
                el.text = strip_marks(el.text)
        if el.tail and (MARK in el.tail or _END in el.tail):
            parent = el.getparent()
            if parent is not None and _in_text(parent):
                changed |= _convert_text(parent, el, painting, underlined)
            else:
                el.tail = strip_marks(el.tail)
    for text_el, made in underlined.items():
        _underline_text(text_el, made, painting)
    return changed


def _in_text(el: Any) -> bool:
    """Whether the text of `el` is set as text: a <text>, a <tspan>, an <a> inside a <text>."""
    if not isinstance(el.tag, str):
        return False
    if el.tag in (_SVG_NS + "text", _SVG_NS + "tspan"):
        return True
    return el.tag == _SVG_NS + "a" and any(a.tag == _SVG_NS + "text" for a in el.iterancestors())


def _convert_text(el: Any, after: Any, painting: Painting, underlined: dict) -> bool:
    """The marked text of `el` (its text, or the tail of its child `after`) as plain text and <tspan>s."""
    from lxml import etree  # lazy: 8.0 ms (lxml)

    source = el.text if after is None else after.tail
    # (text, style, template file, line): no style for text of the template itself and for plain runs
    pieces: list[tuple[str, markup.Style | None, str | None, int | None]] = []
    pos = 0
    for m in _MARKED.finditer(source):
        if m.start() > pos:
            pieces.append((strip_marks(source[pos:m.start()]), None, None, None))
        pos = m.end()
        _value, file, line = painting.cells[int(m.group(1))]
        runs, problems = markup.inline(m.group(2))
        for problem in problems:
            _warn_at(painting, file, line, problem)
        pieces += [(r.text, r.style if r.style != markup.PLAIN else None, file, line) for r in runs]
    if pos < len(source):
        pieces.append((strip_marks(source[pos:]), None, None, None))
    lead = ""
    made: list[tuple[Any, markup.Style, str | None, int | None]] = []
    if painting.lang:  # typeset before the runs are measured (an underline under them), as the face's pass would
        done = typeset_runs([p[0] for p in pieces], painting.lang)
        pieces = [(d, *p[1:]) for d, p in zip(done, pieces)]
    tail_of: Any = None
    for text, st, file, line in pieces:
        if st is None:
            if tail_of is None:
                lead += text
            else:
                tail_of.tail = (tail_of.tail or "") + text
            continue
        span = etree.Element(_SVG_NS + "tspan")
        for k, v in _span_attrs(st):
            span.set(k, v)
        span.text = text
        made.append((span, st, file, line))
        tail_of = span
    rest = "".join(p[0] for p in pieces)
    if not made and rest == _MARKS.sub("", source):
        if after is None:
            el.text = rest
        else:
            after.tail = rest
        return False
    if after is None:
        el.text = lead
        for n, one in enumerate(made):
            el.insert(n, one[0])
    else:
        after.tail = lead
        at = list(el).index(after)
        for n, one in enumerate(made):
            el.insert(at + 1 + n, one[0])
    if any(one[1].underline for one in made):
        owner = el
        while owner is not None and owner.tag != _SVG_NS + "text":
            owner = owner.getparent()
        if owner is not None:
            underlined.setdefault(owner, []).extend(made)
    return True


def _span_attrs(st: markup.Style) -> list[tuple[str, str]]:
    out = []
    if st.bold:
        out.append(("font-weight", "bold"))
    if st.italic:
        out.append(("font-style", "italic"))
    if st.colour:
        out.append(("fill", st.colour))
    if st.size is not None:
        out.append(("font-size", _r(st.size * st.scale)))
    elif st.scale != 1.0:
        out.append(("font-size", f"{_r(st.scale * 100)}%"))
    return out


def _warn_at(painting: Painting, file: str | None, line: int | None, message: str) -> None:
    from pnp.errors import display_path, warn  # lazy: 8.6 ms (pnp.errors)

    shown = display_path(file) if file else "template"
    if painting.row:
        shown += f" (row {painting.row})"
    if (shown, line, message) not in painting.warnings:
        painting.warnings.append((shown, line, message))
    warn(shown, line, message)


_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
_INHERITED = ("font-family", "font-size", "font-weight", "font-style", "text-anchor", "fill", "letter-spacing",
              "word-spacing", "dominant-baseline", "alignment-baseline", _XML_SPACE)


def _underline_text(text_el: Any, made: list, painting: Painting) -> None:
    """Underlines under the runs `made` in `text_el`, as <rect>s after it, measured as pnp.render.svgpdf sets the
    text: when the <text> has one x and y, no other child, and its font in attributes (no class, no <style>)."""
    from lxml import etree  # lazy: 13 ms (lxml)

    from pnp.render.svgpdf import values as V  # lazy: 183 ms (pnp.render.svgpdf)

    spans = {id(m[0]) for m in made}
    why = _unmeasurable(text_el, spans)
    props: dict[str, str] = {}
    sizes: list[float] = []
    colour: Any = None
    if not why:
        chain = []
        node = text_el
        while node is not None:
            chain.append(node)
            node = node.getparent()
        size = 16.0  # what pnp.render.svgpdf and browsers start from
        for node in reversed(chain):
            local = {k: v for k, v in node.attrib.items() if k in _INHERITED or k == "class"}
            local.update((k, v) for k, v in V.declarations(node.get("style", "")) if k in _INHERITED)
            if "class" in local:
                why = "a class sets its style"
                break
            if "font-size" in local:
                parts = V.length_parts(local["font-size"])
                if parts is None:
                    why = f"font-size=\"{local['font-size']}\" is not a length"
                    break
                size = V.to_user(parts[0], parts[1], size, size)
            props.update(local)
            sizes.append(size)
    if not why:
        for k, ok in (("letter-spacing", ("0", "normal")), ("word-spacing", ("0", "normal")),
                      ("dominant-baseline", ("auto", "alphabetic")), ("alignment-baseline", ("auto", "baseline")),
                      (_XML_SPACE, ("default",))):
            if k in props and props[k].strip() not in ok:
                why = f"{k}=\"{props[k]}\" is set"
        colour = V.colour(props.get("fill", "#000000"))
        if not isinstance(colour, tuple):
            why = why or f"its fill=\"{props.get('fill')}\" is not a colour"
    if why:
        for file, line in dict.fromkeys((m[2], m[3]) for m in made if m[1].underline):
            _warn_at(painting, file, line, f"underline (<u>) in a <text> that pnp cannot measure ({why}): the text "
                     "is set without it; expected textbox(), or a <text> with one x and y and its font in attributes")
        return
    fill = "#" + "".join(f"{round(v * 255):02x}" for v in colour[:3])
    family, weight, style = props.get("font-family", "sans-serif"), props.get("font-weight", "normal"), \
        props.get("font-style", "normal")
    f = _Fonts(family, weight, style)
    base_size = sizes[-1]
    looks = {id(m[0]): m[1] for m in made}
    segments: list[tuple[str, markup.Style | None]] = [(text_el.text or "", None)]
    for child in text_el:
        segments.append((child.text or "", looks.get(id(child))))
        segments.append((child.tail or "", None))
    # XML white space as pnp.render.svgpdf reads it: runs of spaces as one, none at the start or the end
    texts, prev_space = [], True
    for raw, _st in segments:
        t = re.sub(r"  +", " ", re.sub(r"[\n\r\t]", " ", raw))
        if prev_space and t.startswith(" "):
            t = t[1:]
        if t:
            prev_space = t.endswith(" ")
        texts.append(t)
    for i in range(len(texts) - 1, -1, -1):
        if texts[i]:
            texts[i] = texts[i].rstrip(" ")
            if texts[i]:
                break
    cursor, spans_at = 0.0, []
    for (raw, st), t in zip(segments, texts):
        s = (st.size_of(base_size) if st is not None else base_size)
        w = f.width(Part(t, bool(st and st.bold), bool(st and st.italic)), s) if t else 0.0
        if st is not None and st.underline and t:
            spans_at.append((cursor, cursor + w, s, st.colour))
        cursor += w
    x0 = float(V.length_parts(text_el.get("x", "0"))[0])  # type: ignore[index]
    y0 = float(V.length_parts(text_el.get("y", "0"))[0])  # type: ignore[index]
    anchor = props.get("text-anchor", "start").strip()
    shift = -cursor if anchor == "end" else -cursor / 2 if anchor == "middle" else 0.0
    below, thick = _underline_metrics(f.names[False, False])
    parent = text_el.getparent()
    at = list(parent).index(text_el)
    for n, (a, b, s, colour_run) in enumerate(spans_at):
        rect = etree.Element(_SVG_NS + "rect")
        for k, v in (("x", _r(x0 + shift + a)), ("y", _r(y0 + below * s)), ("width", _r(b - a)),
                     ("height", _r(max(thick * s, 0.05))), ("fill", colour_run or fill)):
            rect.set(k, v)
        if text_el.get("transform"):
            rect.set("transform", text_el.get("transform"))
        parent.insert(at + 1 + n, rect)
    if spans_at:
        parent[at + len(spans_at)].tail, text_el.tail = text_el.tail, None


def _unmeasurable(text_el: Any, spans: set[int]) -> str:
    for attr in ("dx", "dy", "rotate", "textLength", "lengthAdjust"):
        if text_el.get(attr) is not None:
            return f"it has {attr}"
    for attr in ("x", "y"):
        parts = _single_length(text_el.get(attr, "0"))
        if parts is None:
            return f"its {attr} is not one number"
    for child in text_el.iter():
        if child is not text_el and id(child) not in spans:
            return "it holds other elements"
    root = text_el.getroottree().getroot()
    if any(s.text and _RULE.search(s.text) for s in root.iter(_SVG_NS + "style")):
        return "a <style> sets styles"
    return ""


_RULE = re.compile(r"(^|})\s*[^@\s{}][^{}]*\{")


def _single_length(raw: str) -> tuple[float, str] | None:
    from pnp.render.svgpdf import values as V  # lazy: 119 ms (pnp.render.svgpdf)

    parts = V.length_parts(raw)
    return parts if parts is not None and parts[1] in ("", "px") else None


# --- icons ----------------------------------------------------------------------------------------------------------

def _icon(name: str, folder: str) -> Icon | None:
    """The design's icon `<folder>/<name>.svg` (or .png, .jpg, .jpeg, .webp), read once per face; None (and a
    warning) when there is none."""
    painting = PAINTING.get()
    if painting is None:
        return None
    key = f"{folder}/{name}"
    if key in painting.icons:
        return painting.icons[key]
    from pnp.confine import FileRefused  # lazy: 15 ms (pnp.confine)

    found = None
    for suffix in ICON_SUFFIXES:
        rel = f"{folder}/{name}{suffix}"
        try:
            path = painting.files.locate(rel, what="icon")
        except FileRefused as exc:
            _warn(f"{exc.message}; the icon :{name}: is printed as text")
            painting.icons[key] = None
            return None
        if path is not None:
            found = (rel, path, suffix)
            break
    if found is None:
        _warn(f"icon :{name}: not found: no {folder}/{name}.svg or .png in the design folder; expected an icon file "
              "there (the text is printed as it is)")
        painting.icons[key] = None
        return None
    rel, path, suffix = found
    try:
        icon = _read_icon(painting, name, rel, path, suffix)
    except Exception as exc:  # an unreadable icon is a warning, the text stays
        message = getattr(exc, "message", None) or str(exc)
        _warn(f"icon {rel} cannot be drawn ({' '.join(message.split())[:200]}); expected a valid SVG or PNG file")
        icon = None
    painting.icons[key] = icon
    return icon


def _read_icon(painting: Painting, name: str, rel: str, path: Path, suffix: str) -> Icon:
    if suffix == ".svg":
        from lxml import etree  # lazy: 12 ms (lxml)

        from pnp.confine import check_svg  # lazy: 14 ms (pnp.confine)
        from pnp.errors import warn  # lazy: 7.5 ms (pnp.errors)
        from pnp.render.sanitise import clean, warnings_of  # lazy: 22 ms (pnp.render.sanitise)

        text = painting.files.read_text(path, "svg_bytes")
        check_svg(text, path)
        root = etree.fromstring(text.encode("utf-8"), etree.XMLParser(resolve_entities=False, no_network=True,
                                                                      load_dtd=False, remove_comments=True))
        for note in warnings_of(clean(root), path):  # no script, handler... (at the icon file's lines)
            if note not in painting.warnings:
                painting.warnings.append(note)
            warn(*note)
        vb = root.get("viewBox")
        if vb:
            nums = [float(v) for v in re.split(r"[\s,]+", vb.strip())]
            vb_w, vb_h = nums[2], nums[3]
        else:
            vb_w, vb_h = _plain(root.get("width")), _plain(root.get("height"))
            vb = f"0 0 {vb_w:g} {vb_h:g}"
        inner = "".join(etree.tostring(child, encoding="unicode", with_tail=False) for child in root)
        inner = inner.replace(' xmlns="http://www.w3.org/2000/svg"', "")
        return Icon(name, rel, vb_w / vb_h if vb_w > 0 and vb_h > 0 else 1.0, view_box=vb, inner=inner)
    data = painting.files.read_bytes(path, "svg_bytes")

    from PIL import Image  # lazy: 21 ms (PIL)

    with Image.open(io.BytesIO(data)) as im:
        w, h = im.size
        kind = (im.format or "png").lower()
    uri = f"data:image/{kind};base64,{base64.b64encode(data).decode('ascii')}"
    return Icon(name, rel, w / h if w > 0 and h > 0 else 1.0, uri=uri)


def _plain(value: str | None) -> float:
    m = re.match(r"\s*([0-9.]+)", value or "")
    return float(m.group(1)) if m else 1.0


def _icon_markup(icon: Icon, x: float, y: float, w: float, h: float) -> str:
    box = f'x="{_r(x)}" y="{_r(y)}" width="{_r(w)}" height="{_r(h)}"'
    if ICON_HREFS:
        return f'<image {box} href="{escape(icon.rel)}"/>'
    if icon.uri:
        return f'<image {box} href="{icon.uri}"/>'
    return f'<svg {box} viewBox="{escape(icon.view_box)}" preserveAspectRatio="xMidYMid meet">{icon.inner}</svg>'

