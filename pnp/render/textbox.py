"""Text boxes for face templates: `{{ textbox(text, x=, y=, width=, height=, ...) }}`.

The text is wrapped by the real advance widths of the font files pnp embeds (ReportLab's
stringWidth, each character in the first font of its chain that has it, pnp.render.fonts.chain:
the same fonts and numbers pnp.render.svgpdf places glyphs with), into explicit lines: one
`<tspan x y>` per line, so the SVG, the PDF and the PNG (rasterised from the PDF) break at the
same words. Alignment
(left, center, right, justify; top, middle, bottom) is computed here and written as absolute
positions, never left to a renderer.

Inline markup in the text, whatever it comes from (a CSV cell, a YAML value):

- `**bold**`, `*italic*` (`\\*` is a literal star);
- a line break: a real line break in the cell, or the two characters `\\n`;
- `:name:` an icon of the design, `<icons>/name.svg` or `.png` (`icons=` names the folder,
  default `icons`), drawn at the text's size and flowing with the words.

Everything else is text: it is XML-escaped, so a cell cannot inject markup.

If the text does not fit at `size`, the size shrinks (down to `min_size`); if it does not
fit even then, the text is drawn at `min_size` and a warning names the template line and
the data-table row. The work is bounded: `textbox_chars` characters of text, `textbox_lines`
lines (pnp.limits).
"""

from __future__ import annotations

import base64
import contextvars
import re
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from pnp.limits import LimitExceeded, limit

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


_FONT_FACE = re.compile(r'@font-face \{font-family: "([^"]+)"; font-weight: (\w+); font-style: (\w+); '
                        r'src: url\("([^"]+)"\)\}')


def _design_fonts() -> dict[str, dict[str, str]]:
    """The design's own font files (its `fonts:`), registered as pnp.render.svgpdf registers them: a text box
    measures with the very file the PDF embeds."""
    painting = PAINTING.get()
    if painting is None or not painting.fonts_style:
        return {}
    if painting.font_faces is None:
        from pnp.render import fonts

        faces: dict[str, dict[str, str]] = {}
        for family, weight, style, name in _FONT_FACE.findall(painting.fonts_style):
            try:
                path = painting.files.locate(name, what="font")
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
    from pnp.errors import display_path, warn

    file, line = _template_line()
    painting = PAINTING.get()
    shown = display_path(file) if file else "template"
    if painting is not None and painting.row:
        shown += f" (row {painting.row})"
    if painting is not None:
        painting.warnings.append((shown, line, message))
    warn(shown, line, message)


# --- parsing the text ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Part:
    text: str  # the characters, or the icon's name
    bold: bool = False
    italic: bool = False
    icon: Any = None  # an Icon for an inline icon


@dataclass(frozen=True)
class Icon:
    name: str
    rel: str  # path from the design folder, as written in href
    aspect: float  # width / height
    view_box: str = ""  # an SVG icon: its viewBox and its content, inlined when not drawn by href
    inner: str = ""
    uri: str = ""  # a raster icon: a data: URI, when not drawn by href


_TOKEN = re.compile(r"\\\*|\*\*|\*|:([A-Za-z][A-Za-z0-9_-]{0,63}):| +|\n")


def _paragraphs(text: str, resolve_icon) -> list[list[list[Part]]]:
    """Paragraphs -> words -> parts (runs of one style, icons)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\\n", "\n").replace("\t", " ")
    stars_ok = _balanced(text)
    paragraphs: list[list[list[Part]]] = [[]]
    word: list[Part] = []
    bold = italic = False

    def add(chars: str) -> None:
        if word and word[-1].icon is None and (word[-1].bold, word[-1].italic) == (bold, italic):
            word[-1] = Part(word[-1].text + chars, bold, italic)
        else:
            word.append(Part(chars, bold, italic))

    def end_word() -> None:
        nonlocal word
        if word:
            paragraphs[-1].append(word)
            word = []

    pos = 0
    for m in _TOKEN.finditer(text):
        if m.start() > pos:
            add(text[pos:m.start()])
        pos = m.end()
        tok = m.group(0)
        if tok == "\\*":
            add("*")
        elif tok == "**" and stars_ok:
            bold = not bold
        elif tok == "*" and stars_ok:
            italic = not italic
        elif tok in ("**", "*"):
            add(tok)
        elif m.group(1):
            icon = resolve_icon(m.group(1))
            if icon is None:
                add(tok)
            else:
                word.append(Part(m.group(1), bold, italic, icon))
        elif tok == "\n":
            end_word()
            paragraphs.append([])
        else:
            end_word()
    if pos < len(text):
        add(text[pos:])
    end_word()
    return paragraphs


def _balanced(text: str) -> bool:
    """Stars are markup only when they pair up (each of ** and *), else they are printed as they are."""
    plain = text.replace("\\*", "")
    doubles = plain.count("**")
    singles = plain.replace("**", "").count("*")
    return doubles % 2 == 0 and singles % 2 == 0


# --- measuring and breaking -----------------------------------------------------------------------------------------

class _Fonts:
    """The fonts of a text box and their widths. Each style (bold, italic) draws every character with the first
    font of its chain that has it (pnp.render.fonts.chain: the box's family list, the shipped faces, then the
    design's fonts), as pnp.render.svgpdf draws the box's SVG, so a text is measured with the very fonts and
    widths that print it; a character no font has is measured as the placeholder it prints as, and warned
    about (template line and row) once per text box."""

    def __init__(self, family: str, weight: str, style: str):
        from pnp.render import fonts

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
        from pnp.render.svgpdf.text import metrics

        fonts.ensure(self.names[False, False])
        self.ascent, self.descent, _ = metrics(self.names[False, False])
        self._unit: dict[tuple[str, bool, bool], float] = {}  # widths at size 1: a width scales with the size
        self._warned: set[str] = set()

    def _measure(self, text: str, bold: bool, italic: bool) -> float:
        key = (text, bold, italic)
        w = self._unit.get(key)
        if w is None:
            from reportlab.pdfbase.pdfmetrics import stringWidth

            from pnp.render import fonts

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
        from pnp.render.svgpdf.text import missing_message

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

    @property
    def width(self) -> float:
        return sum(self.widths) + sum(self.spaces)


def _split_word(word: list[Part], room: float, f: _Fonts, size: float) -> list[list[Part]]:
    """A word wider than the box, cut between characters (an icon stays whole)."""
    pieces: list[list[Part]] = [[]]
    used = 0.0
    for part in word:
        units = [part] if part.icon is not None else [Part(c, part.bold, part.italic) for c in part.text]
        for u in units:
            w = f.width(u, size)
            if pieces[-1] and used + w > room + 1e-9:
                pieces.append([])
                used = 0.0
            last = pieces[-1]
            if last and u.icon is None and last[-1].icon is None and (last[-1].bold, last[-1].italic) == (u.bold,
                                                                                                       u.italic):
                last[-1] = Part(last[-1].text + u.text, u.bold, u.italic)
            else:
                last.append(u)
            used += w
    return pieces


def _break(paragraphs: list[list[list[Part]]], width: float, f: _Fonts, size: float) -> list[_Line]:
    """Greedy lines: as many words as fit the width at `size` (word widths are measured once, at size 1)."""
    most = limit("textbox_lines")
    room = width / size + 1e-9  # in sizes: the widths below are at size 1
    lines: list[_Line] = []
    for para in paragraphs:
        words: list[tuple[list[Part], float]] = []
        for word in para:
            ww = sum(f.width(p, 1.0) for p in word)
            if ww <= room:
                words.append((word, ww))
            else:
                words += [(w, sum(f.width(p, 1.0) for p in w)) for w in _split_word(word, room, f, 1.0)]
        cur = _Line([], [], [], False)
        used = 0.0
        for word, ww in words:
            sp = f.space(word[0], 1.0) if cur.words else 0.0
            if cur.words and used + sp + ww > room:
                lines.append(cur)
                cur = _Line([], [], [], False)
                sp = used = 0.0
            cur.words.append(word)
            cur.widths.append(ww * size)
            cur.spaces.append(sp * size)
            used += sp + ww
        cur.last = True
        lines.append(cur)  # an empty paragraph is an empty line
        if len(lines) > most:
            raise LimitExceeded("textbox_lines", f"a text box of more than {most} lines")
    return lines


def _height(n: int, size: float, line_height: float, f: _Fonts) -> float:
    return (n - 1) * line_height * size + (f.ascent + f.descent) * size if n else 0.0


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
            icons: str = "icons") -> Markup:
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
    if isinstance(text, Markup):
        text = text.unescape()
    text = "" if text is None else str(text)
    most = limit("textbox_chars")
    if len(text) > most:
        raise LimitExceeded("textbox_chars", f"a text box of {len(text)} characters")
    f = _Fonts(str(family), str(weight), str(style))
    paragraphs = _paragraphs(text, lambda name: _icon(name, str(icons)))

    def fits(s: float) -> tuple[bool, list[_Line]]:
        lines = _break(paragraphs, width, f, s)
        ok = height is None or _height(len(lines), s, line_height, f) <= height + 1e-6
        return ok and all(ln.width <= width + 1e-6 for ln in lines), lines

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
        need = _height(len(lines), chosen, line_height, f)
        widest = max((ln.width for ln in lines), default=0.0)
        if height is not None and need > height + 1e-6:
            what = (f"{len(lines)} lines at size {chosen:g} need {need:.1f} mm and the box is {height:g} mm high")
        else:
            what = f"a line is {widest:.1f} mm wide and the box is {width:g} mm"
        first = paragraphs[0][:6] if paragraphs and paragraphs[0] else []
        start = " ".join("".join(f":{p.text}:" if p.icon else p.text for p in w) for w in first)
        _warn(f"text box overflows: \"{start[:40]}...\": {what}; expected shorter text, a larger box or a smaller "
              "min_size")
    return Markup(_svg(lines, f, x, y, width, height, chosen, align, valign, line_height, str(family), str(weight),
                       str(style), str(fill)))


def _svg(lines: list[_Line], f: _Fonts, x: float, y: float, width: float, height: float | None, size: float,
         align: str, valign: str, line_height: float, family: str, weight: str, style: str, fill: str) -> str:
    block = _height(len(lines), size, line_height, f)
    top = y
    if height is not None and valign != "top":
        top = y + (height - block) / (2 if valign == "middle" else 1)
    attrs = (f'font-family="{escape(family)}" font-size="{_r(size)}" fill="{escape(fill)}"'
             + (f' font-weight="{escape(weight)}"' if weight != "normal" else "")
             + (f' font-style="{escape(style)}"' if style != "normal" else ""))
    out = [f'<text {attrs} text-anchor="start">']
    icons: list[str] = []
    for n, line in enumerate(lines):
        if not line.words:
            continue
        base = top + f.ascent * size + n * line_height * size
        gaps = len(line.words) - 1
        extra = (width - line.width) / gaps if align == "justify" and gaps and not line.last else 0.0
        cursor = x + {"left": 0.0, "justify": 0.0, "center": (width - line.width) / 2,
                      "right": width - line.width}[align]
        need_x = True
        for i, word in enumerate(line.words):
            if i:
                cursor += line.spaces[i] + extra
                if extra:
                    need_x = True
            for j, part in enumerate(word):
                w = f.width(part, size)
                if part.icon is not None:
                    icons.append(_icon_markup(part.icon, cursor, base - 0.8 * size, w, size))
                    need_x = True
                else:
                    chars = ("" if need_x or i == 0 or j else " ") + part.text
                    pos = f' x="{_r(cursor)}" y="{_r(base)}"' if need_x else ""
                    style_attrs = ((' font-weight="bold"' if part.bold and not f.base_bold else "")
                                   + (' font-style="italic"' if part.italic and not f.base_italic else ""))
                    out.append(f"<tspan{pos}{style_attrs}>{escape(chars)}</tspan>")
                    need_x = False
                cursor += w
    out.append("</text>")
    return "".join(out) + "".join(icons)


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
    from pnp.confine import FileRefused

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
        from lxml import etree

        from pnp.confine import check_svg

        text = painting.files.read_text(path, "svg_bytes")
        check_svg(text, path)
        root = etree.fromstring(text.encode("utf-8"), etree.XMLParser(resolve_entities=False, no_network=True,
                                                                      load_dtd=False, remove_comments=True))
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
    import io

    from PIL import Image

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

