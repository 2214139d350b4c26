"""SVG text -> `Compiled`: one walk of the lxml tree into a flat list of plain drawing operations.

The operations are tuples of strings and numbers in the SVG's own user space (y down); the
first ones set the matrix that maps it onto the face's box in points (y up), so `draw`
only plays them. The graphics state (colours, alphas, line style, text state) is tracked
while compiling, with a stack for q/Q, so each value is emitted only when it changes.

Operations (numbers computed here are rounded to 4 decimals of a user unit, matrices to 6; numbers
read from the SVG stay as written; ReportLab's fp_str writes at most 6 decimals):
    ("q",) ("Q",)                       save / restore the graphics state
    ("cm", a, b, c, d, e, f)            concatenate a matrix
    ("rg", r, g, b) ("RG", r, g, b)     fill / stroke colour, 0..1
    ("ca", a) ("CA", a)                 fill / stroke alpha
    ("w", width) ("J", cap) ("j", join) ("M", miter limit) ("d", dashes, phase)
    ("Tc", spacing) ("Tr", mode)        text character spacing, text render mode
    ("path", letters, numbers, op)      op: f f* S B B* (fill, even-odd, stroke, both)
    ("clip", letters, numbers, evenodd) intersect the clip with the path
    ("shade", kind, coords, stops, extend)   kind axial (x0 y0 x1 y1) or radial (fx fy fr cx cy r);
                                        stops ((offset, r, g, b), ...); paints the current clip
    ("text", font, size, x, y, string)  a run of text with its baseline start at (x, y)
    ("image", key, x, y, w, h)          the raster `images[key]` upright in that box
    ("svg", key, x, y, w, h)            the compiled SVG image `svgs[key]` in that box
A path is flat: a string of letters and a tuple of the numbers they take, in order (geometry.py):
M x y, L x y, C x1 y1 x2 y2 x y, Z, and R x y w h (a rectangle).
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import threading
import urllib.parse
import warnings
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

from lxml import etree

from pnp.render import fonts
from pnp.render.svgpdf import geometry as geo, values as V

SVG_NS = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"

PT_PER_PX = 0.75  # CSS: 96 px to the inch, 72 pt to the inch
MAX_ELEMENTS = 200_000  # drawn elements per SVG, counting every <use> copy (a bound on hostile input)
MAX_USE_DEPTH = 32
MAX_IMAGE_DEPTH = 4  # SVG images inside SVG images
MAX_WARNINGS = 200

Resources = Callable[[str], "bytes | None"]


@dataclass(frozen=True)
class SvgWarning:
    """Something in the SVG that is not drawn as written. `error`: the SVG is wrong (a colour or a
    length that is not one), so the output differs from what the author meant; the caller reports
    it as `file:line` error. Otherwise a feature we skip (filter, mask...), reported as a warning."""

    line: int | None
    message: str
    error: bool = False
    source: str | None = None  # the SVG's name, when the caller gave one

    def __str__(self) -> str:
        where = ":".join(str(p) for p in (self.source, self.line) if p is not None)
        return f"{where}: {self.message}" if where else self.message


@dataclass(frozen=True)
class Compiled:
    """A compiled SVG: plain data only (no ReportLab objects), so it pickles cheaply."""

    width: float  # pt
    height: float  # pt
    ops: tuple
    fonts: tuple[str, ...]  # ReportLab names of the fonts the text uses (shipped faces)
    images: dict[str, "bytes | FileImage"] = field(default_factory=dict)  # raster files by content key (big: read when drawn)
    svgs: dict[str, "Compiled"] = field(default_factory=dict)  # SVG images by content key
    warnings: tuple[SvgWarning, ...] = ()
    missing: tuple[tuple[int | None, str], ...] = ()  # (line, character) of text no font has, once a line


# ---------------------------------------------------------------------------------------
# properties

INHERITED = {"fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity",
             "stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray",
             "stroke-dashoffset", "font-family", "font-size", "font-weight", "font-style", "text-anchor",
             "letter-spacing", "word-spacing", "visibility", "color", "clip-rule", "dominant-baseline",
             "xml:space", "marker-start", "marker-mid", "marker-end", "marker"}
LOCAL = {"opacity", "clip-path", "mask", "filter", "display", "stop-color", "stop-opacity", "overflow",
         "alignment-baseline", "baseline-shift", "text-decoration", "font", "writing-mode"}
PROPS = INHERITED | LOCAL

BLACK = (0.0, 0.0, 0.0, 1.0)
ROOT_STYLE = {
    "fill": ("colour", BLACK), "stroke": ("none", None), "fill-opacity": 1.0, "stroke-opacity": 1.0,
    "fill-rule": False, "clip-rule": False, "stroke-width": (1.0, ""), "stroke-linecap": 0,
    "stroke-linejoin": 0, "stroke-miterlimit": 4.0, "stroke-dasharray": None, "stroke-dashoffset": (0.0, ""),
    "font-family": "sans-serif", "font-size": 16.0, "font-weight": "normal", "font-style": "normal",
    "text-anchor": "start", "letter-spacing": None, "word-spacing": None, "visibility": True,
    "color": BLACK, "dominant-baseline": "auto", "xml:space": "default",
}

_EMPTY: dict = {}
_MISSING = object()
# memo of a pure parse ((property, text) -> value, the same in any build): safe across builds
_PARSED: dict = {}  # (property, text) -> parsed value, shared by all compiles in the process
_FONT_SIZES = {"xx-small": 9.0, "x-small": 10.0, "small": 13.0, "medium": 16.0, "large": 18.0,
               "x-large": 24.0, "xx-large": 32.0}
_BAD = object()


def _p_paint(raw, parent):
    p = V.paint(raw)
    if p is None:
        return _BAD
    if p[0] == "colour":  # with its fill and stroke colour operations, made once
        return ("colour", p[1], _colour_op("rg", p[1]), _colour_op("RG", p[1]))  # type: ignore[arg-type]
    return p


def _p_colour(raw, parent):
    c = V.colour(raw)
    if c is None or c == V.NONE:
        return _BAD
    return c


def _p_unit_number(raw, parent):
    s = raw.strip()
    try:
        v = V.number(s[:-1]) / 100 if s.endswith("%") else V.number(s)
    except ValueError:
        return _BAD
    return min(max(v, 0.0), 1.0)


def _p_length(raw, parent):
    return V.length_parts(raw) or _BAD


def _p_nonneg_length(raw, parent):
    v = V.length_parts(raw)
    return v if v is not None and v[0] >= 0 else _BAD


def _p_spacing(raw, parent):
    if raw.strip() == "normal":
        return None
    return V.length_parts(raw) or _BAD


def _p_miter(raw, parent):
    try:
        v = V.number(raw)
    except ValueError:
        return _BAD
    return v if v >= 1 else _BAD


def _p_dasharray(raw, parent):
    s = raw.strip()
    if s == "none":
        return None
    parts = [p for p in re.split(r"[\s,]+", s) if p]
    out = tuple(V.length_parts(p) for p in parts)
    if not out or any(p is None or p[0] < 0 for p in out):
        return _BAD
    return out


def _p_rule(raw, parent):
    s = raw.strip()
    return s == "evenodd" if s in ("nonzero", "evenodd") else _BAD


def _keywords(mapping):
    def parse(raw, parent):
        return mapping.get(raw.strip(), _BAD)
    return parse


def _p_font_size(raw, parent):
    s = raw.strip()
    base = parent["font-size"]
    if s in _FONT_SIZES:
        return _FONT_SIZES[s]
    if s == "larger":
        return base * 1.2
    if s == "smaller":
        return base / 1.2
    v = V.length_parts(s)
    if v is None or v[0] < 0:
        return _BAD
    return V.to_user(v[0], v[1], base, base)


def _p_weight(raw, parent):
    s = raw.strip()
    if s in ("normal", "bold", "bolder", "lighter") or (s.isdigit() and 1 <= int(s) <= 1000):
        return s
    return _BAD


def _p_text(raw, parent):
    return raw.strip()


def _p_url_or_none(raw, parent):
    s = raw.strip()
    if s == "none":
        return None
    return V.url_id(s) or _BAD


PARSERS: dict[str, Callable] = {
    "fill": _p_paint, "stroke": _p_paint, "color": _p_colour, "stop-color": _p_colour,
    "fill-opacity": _p_unit_number, "stroke-opacity": _p_unit_number, "opacity": _p_unit_number,
    "stop-opacity": _p_unit_number,
    "stroke-width": _p_nonneg_length, "stroke-dashoffset": _p_length, "stroke-dasharray": _p_dasharray,
    "stroke-miterlimit": _p_miter, "letter-spacing": _p_spacing, "word-spacing": _p_spacing,
    "fill-rule": _p_rule, "clip-rule": _p_rule,
    "stroke-linecap": _keywords({"butt": 0, "round": 1, "square": 2}),
    "stroke-linejoin": _keywords({"miter": 0, "miter-clip": 0, "arcs": 0, "round": 1, "bevel": 2}),
    "font-family": _p_text, "font-size": _p_font_size, "font-weight": _p_weight,
    "font-style": _keywords({"normal": "normal", "italic": "italic", "oblique": "oblique"}),
    "text-anchor": _keywords({"start": "start", "middle": "middle", "end": "end"}),
    "dominant-baseline": _p_text, "alignment-baseline": _p_text, "baseline-shift": _p_text,
    "visibility": _keywords({"visible": True, "hidden": False, "collapse": False}),
    "display": _p_text, "overflow": _p_text, "text-decoration": _p_text, "font": _p_text,
    "writing-mode": _p_text, "xml:space": _keywords({"default": "default", "preserve": "preserve"}),
    "clip-path": _p_url_or_none, "mask": _p_url_or_none, "filter": _p_url_or_none,
    "marker-start": _p_url_or_none, "marker-mid": _p_url_or_none, "marker-end": _p_url_or_none,
    "marker": _p_url_or_none,
}
# attribute -> 1 inherited property, 2 own property (both parsed once per text, see _PARSED), 3 style,
# 4 class, 5 id, 6 a property that needs more than its text (relative font sizes, markers, xml:space)
_KIND = {k: (1 if k in INHERITED else 2) for k in PARSERS}
_KIND.update({"font-size": 6, "xml:space": 6, XML_SPACE: 6, "marker": 6, "marker-start": 6, "marker-mid": 6,
              "marker-end": 6, "style": 3, "class": 4, "id": 5})
EXPECTED = {
    "fill": "a colour (#rrggbb, a name, rgb(...)), none or url(#id)", "stroke": "a colour, none or url(#id)",
    "color": "a colour", "stop-color": "a colour", "stroke-width": "a length >= 0 (e.g. 0.5 or 0.5mm)",
    "stroke-dasharray": "none or lengths >= 0", "stroke-miterlimit": "a number >= 1",
    "font-size": "a length >= 0 or a size keyword", "text-anchor": "start, middle or end",
    "fill-rule": "nonzero or evenodd", "clip-rule": "nonzero or evenodd",
    "stroke-linecap": "butt, round or square", "stroke-linejoin": "miter, round or bevel",
    "visibility": "visible or hidden", "font-weight": "normal, bold or 100..900",
    "font-style": "normal, italic or oblique",
}

_TEXT_BASELINES = {"auto", "alphabetic", "baseline", "central", "middle", "hanging", "text-before-edge",
                   "text-top", "before-edge", "text-after-edge", "text-bottom", "after-edge", "ideographic",
                   "mathematical", "use-script", "no-change", "reset-size", "inherit"}

# elements never drawn where they stand (referenced, or not graphics)
_SILENT = {"defs", "title", "desc", "metadata", "style", "linearGradient", "radialGradient", "clipPath",
           "symbol", "marker", "pattern", "mask", "filter", "font", "font-face", "cursor", "view"}
_UNSUPPORTED = {"foreignObject": "foreign content (HTML) is not drawn", "switch": "<switch> is not evaluated",
                "script": "scripts are ignored", "video": "video is not drawn", "audio": "audio is ignored",
                "iframe": "frames are not drawn", "canvas": "canvas is not drawn",
                "animate": "animation is ignored", "animateTransform": "animation is ignored",
                "animateMotion": "animation is ignored", "animateColor": "animation is ignored",
                "set": "animation is ignored", "textPath": "text on a path is not drawn",
                "tref": "<tref> is not drawn", "altGlyph": "<altGlyph> is not drawn"}
_SHAPES = {"rect", "circle", "ellipse", "line", "polyline", "polygon", "path"}
_DRAWN = _SHAPES | {"g", "a", "svg", "use", "text", "image"}


# ---------------------------------------------------------------------------------------

_tls = threading.local()


def _parser() -> etree.XMLParser:
    """One safe parser per thread: no entities, no network, no DTD, bounded tree (huge_tree off)."""
    p = getattr(_tls, "parser", None)
    if p is None:
        p = _tls.parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                                          huge_tree=False, remove_comments=True, remove_pis=True)
    return p


_NO_PAINT = ("none", None)
_CA_ONE, _CAS_ONE = ("ca", 1.0), ("CA", 1.0)
# memos of pure functions of their keys (a drawing's operations): safe across builds
_LINE_MEMO: dict = {}
_OPS_MEMO: dict = {}


def _colour_op(key: str, c: tuple) -> tuple:
    k = (key, c)
    op = _OPS_MEMO.get(k)
    if op is None:
        if len(_OPS_MEMO) > 10000:
            _OPS_MEMO.clear()
        op = _OPS_MEMO[k] = (key, _r(c[0]), _r(c[1]), _r(c[2]))
    return op


def _alpha_op(key: str, a: float) -> tuple:
    k = (key, a)
    op = _OPS_MEMO.get(k)
    if op is None:
        if len(_OPS_MEMO) > 10000:
            _OPS_MEMO.clear()
        op = _OPS_MEMO[k] = (key, _r(a))
    return op


def _sane(values) -> bool:
    """Finite and below 1e12: what a PDF number can hold (fp_str refuses more)."""
    return all(-1e12 < v < 1e12 for v in values)


def _r(v: float) -> float:
    return round(v, 4) + 0.0


ROOT_STYLE["fill"] = _p_paint("black", ROOT_STYLE)  # with its precomputed colour operations


def _r6(v: float) -> float:
    return round(v, 6) + 0.0




class _Ctx:
    """What the walk carries down: inherited style, the viewport size for %, the opacity of the
    groups above (applied to each shape), and the <use> references being expanded."""

    __slots__ = ("st", "vw", "vh", "alpha", "uses")

    def __init__(self, st, vw, vh, alpha, uses):
        self.st, self.vw, self.vh, self.alpha, self.uses = st, vw, vh, alpha, uses

    def child(self, st=None, alpha=None, vw=None, vh=None, uses=None) -> "_Ctx":
        return _Ctx(self.st if st is None else st, self.vw if vw is None else vw,
                    self.vh if vh is None else vh, self.alpha if alpha is None else alpha,
                    self.uses if uses is None else uses)


class _TextPos:
    """x/y/dx/dy lists of a <text> or <tspan>, consumed one addressable character at a time."""

    __slots__ = ("xs", "ys", "dxs", "dys", "i")

    def __init__(self, xs, ys, dxs, dys):
        self.xs, self.ys, self.dxs, self.dys, self.i = xs, ys, dxs, dys, 0

    def left(self) -> int:
        return max(len(self.xs), len(self.ys), len(self.dxs), len(self.dys)) - self.i


_image_cache: dict[str, tuple] = {}  # content key -> ("raster", w, h) / ("svg", Compiled) / ("bad", message)
_IMAGE_CACHE_MAX = 512


def _content_key(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:24]


LAZY_IMAGE_BYTES = 256 << 10  # a raster file at least this big is read again when drawn, not held by the drawing


class FileImage:
    """A raster file a face draws, held as where to read it (its href through the face's resources), its content
    key and its pixel size, not as its bytes: a deck of 500 illustrations compiled ahead of the sheets holds none
    of them. `load()` reads the file again when the PDF takes it (once per document) and checks it is the same
    file. Picklable (the resources are pnp.render.art.ArtFiles)."""

    __slots__ = ("resources", "href", "key", "nbytes", "pixels")

    def __init__(self, resources: Resources, href: str, key: str, nbytes: int, pixels: tuple[int, int]):
        self.resources, self.href, self.key, self.nbytes, self.pixels = resources, href, key, nbytes, pixels

    def __len__(self) -> int:
        return self.nbytes

    def load(self) -> bytes:
        data = self.resources(self.href)
        if data is None or _content_key(data) != self.key:
            raise ValueError(f"image {self.href} changed while the build drew it; expected the file as it was "
                             "when its face was painted (build again)")
        return data


def image_bytes(image: bytes | FileImage) -> bytes:
    """The bytes of a drawing's raster image (read again for a FileImage)."""
    return image.load() if isinstance(image, FileImage) else image


class _Compiler:
    def __init__(self, text: str | bytes, resources: Resources | None, depth: int = 0):
        self.text = text
        self.resources = resources
        self.depth = depth
        self.ops: list[tuple] = []
        self.warnings: list[SvgWarning] = []
        self._seen_warnings: set = set()
        self.fonts: set[str] = set()
        self.images: dict[str, bytes | FileImage] = {}
        self.svgs: dict[str, Compiled] = {}
        self.gs: dict = {}
        self.gs_stack: list[dict] = []
        self.ids: dict[str, object] | None = None
        self.rules: list = []
        self.count = 0
        self.stopped = False
        self.shared_style = None
        self.fetched = False  # asked `resources` for a file
        self.font_faces: dict[str, dict[str, str]] = {}  # @font-face: family (lower case) -> slot -> font name
        self._chains: dict[tuple, tuple[str, ...]] = {}
        self.missing: dict[tuple[int | None, str], None] = {}  # (line, character) of text no font can draw
        self._lines: list[str] | None = None

    # --- warnings ----------------------------------------------------------------------
    def warn(self, el, message: str, error: bool = False, attr: str | None = None) -> None:
        line = self._line(el, attr) if el is not None else None
        key = (line, message)
        if key in self._seen_warnings or len(self.warnings) >= MAX_WARNINGS:
            return
        self._seen_warnings.add(key)
        self.warnings.append(SvgWarning(line, message, error))

    def _line(self, el, attr: str | None) -> int | None:
        """The line of the element's start tag (lxml gives the line where the tag ends), or of the
        attribute / style declaration `attr` inside it when it can be found."""
        end = getattr(el, "sourceline", None)
        if end is None:
            return None
        if self._lines is None:
            text = self.text.decode("utf-8", "replace") if isinstance(self.text, bytes) else self.text
            self._lines = text.splitlines()
        lines = self._lines
        name = _local(el.tag) or ""
        start = end
        for i in range(end - 1, max(end - 60, 0) - 1, -1):
            if i < len(lines) and re.search(rf"<(?:\w+:)?{re.escape(name)}(?=[\s/>]|$)", lines[i]):
                start = i + 1
                break
        if attr:
            pat = re.compile(rf"(?<![\w-]){re.escape(attr)}\s*[=:]")
            for i in range(start - 1, min(end, len(lines))):
                if pat.search(lines[i]):
                    return i + 1
        return start

    # --- emitting ----------------------------------------------------------------------
    def q(self) -> None:
        self.ops.append(("q",))
        self.gs_stack.append(dict(self.gs))

    def Q(self) -> None:
        if self.ops and self.ops[-1] == ("q",):  # nothing drawn in between
            self.ops.pop()
        else:
            self.ops.append(("Q",))
        self.gs = self.gs_stack.pop()

    def cm(self, m: V.Matrix) -> None:
        if m != V.IDENTITY:
            a, b, c, d, e, f = m
            self.ops.append(("cm", _r6(a), _r6(b), _r6(c), _r6(d), _r(e), _r(f)))

    def set(self, key: str, *value) -> None:
        op = (key, *value)
        if self.gs.get(key) != op:
            self.gs[key] = op
            self.ops.append(op)

    # --- ids, styles -------------------------------------------------------------------
    def by_id(self, ident: str):
        if self.ids is None:
            self.ids = {}
            for el in self.root.iter():
                i = el.get("id") if isinstance(el.tag, str) else None
                if i and i not in self.ids:
                    self.ids[i] = el
        return self.ids.get(ident)

    def style(self, el, tag: str, parent: dict) -> tuple[dict, dict]:
        """(inherited style for el and its children, el's own non-inherited properties).
        Presentation attributes, then <style> rules (by specificity), then style="": each later
        one wins. Parsed values are memoised by (property, text)."""
        st, local = parent, _EMPTY
        style_attr = cls = ident = None
        parsed = _PARSED
        for k, raw in el.items():
            kind = _KIND.get(k)
            if kind is None:
                continue
            if kind <= 2:  # the common case, inlined: a presentation attribute parsed before
                val = parsed.get((k, raw), _MISSING)
                if val is not _MISSING and val is not _BAD:
                    if kind == 1:
                        if st is parent:
                            st = dict(parent)
                        st[k] = val
                    else:
                        if local is _EMPTY:
                            local = {}
                        local[k] = val
                    continue
            elif kind == 3:
                style_attr = raw
                continue
            elif kind == 4:
                cls = raw
                continue
            elif kind == 5:
                ident = raw
                continue
            if k == XML_SPACE:
                k = "xml:space"
            st, local = self._apply(el, k, raw, parent, st, local)
        if self.rules:
            classes = cls.split() if cls else ()
            for (rtag, rclasses, rid), _spec, _order, decls in self.rules:
                if (rtag is None or rtag == tag) and (rid is None or rid == ident) and \
                        all(c in classes for c in rclasses):
                    for k, raw in decls:
                        if k in PARSERS:
                            st, local = self._apply(el, k, raw, parent, st, local)
        if style_attr:
            for k, raw in V.declarations(style_attr):
                if k in PARSERS:
                    st, local = self._apply(el, k, raw, parent, st, local)
        return st, local

    def _apply(self, el, k: str, raw: str, parent: dict, st: dict, local: dict) -> tuple[dict, dict]:
        key = (k, raw) if k != "font-size" else (k, raw, parent["font-size"])  # em, % depend on the parent
        val = _PARSED.get(key, _MISSING)
        if val is _MISSING:
            if raw.strip() == "inherit":
                return st, local
            val = PARSERS[k](raw, parent)
            if len(_PARSED) > 20000:
                _PARSED.clear()
            _PARSED[key] = val
        if val is _BAD:
            self.warn(el, f'{k}="{raw.strip()}" is not valid; expected {EXPECTED.get(k, "a valid value")}',
                      error=True, attr=k)
            return st, local
        if k in INHERITED:
            if st is parent:
                st = dict(parent)
            st[k] = val
            if k[0] == "m" and val and k.startswith("marker"):
                self.warn(el, f"{k}: markers are not drawn", attr=k)
        else:
            if local is _EMPTY:
                local = {}
            local[k] = val
        return st, local

    def length(self, el, name: str, ctx: _Ctx, axis: str = "x", default: float = 0.0,
               nonneg: bool = False) -> float:
        raw = el.get(name)
        if raw is None:
            return default
        v = V.length_parts(raw)
        if v is None or (nonneg and v[0] < 0):
            what = "a length >= 0" if nonneg else "a length"
            self.warn(el, f'{name}="{raw}" is not valid; expected {what} (e.g. 12, 12.5, 3mm, 50%)',
                      error=True, attr=name)
            return default
        if not v[1]:
            return v[0]
        return self.user(v, ctx, axis)

    def user(self, v: tuple[float, str], ctx: _Ctx, axis: str = "x") -> float:
        value, unit = v
        if not unit:
            return value
        ref = ctx.vw if axis == "x" else ctx.vh if axis == "y" else ((ctx.vw ** 2 + ctx.vh ** 2) / 2) ** 0.5
        return V.to_user(value, unit, ctx.st["font-size"], ref)

    # --- the walk ----------------------------------------------------------------------
    def run(self) -> Compiled:
        text = self.text
        data = text.encode("utf-8") if isinstance(text, str) else text
        try:
            root = etree.fromstring(data, _parser())
        except etree.XMLSyntaxError as exc:
            line = exc.lineno if getattr(exc, "lineno", None) else None
            self.warnings.append(SvgWarning(line, f"not well-formed XML: {exc.msg}", True))
            return self._result(0.0, 0.0)
        except ValueError as exc:  # e.g. an encoding declaration in a str
            self.warnings.append(SvgWarning(None, f"cannot read the SVG: {exc}", True))
            return self._result(0.0, 0.0)
        self.root = root
        if _local(root.tag) != "svg":
            self.warn(root, f"the root element is <{_local(root.tag) or root.tag}>, not <svg>", error=True)
            return self._result(0.0, 0.0)
        self._read_stylesheets(root)
        key = None if self.rules or self.font_faces else tuple(root.items())
        head = _ROOTS.get(key) if key is not None else None
        if head is None:
            head = self._root(root)
            if key is not None and not self.warnings:  # faces of one size share their root: made once
                if len(_ROOTS) > 256:
                    _ROOTS.clear()
                    _MEMO.clear()
                _ROOTS[key] = head
        width, height, st, local, vw, vh, cm = head
        if _ROOTS.get(key) is head:
            self.shared_style = st  # the children of a shared root may reuse each other's operations
        if cm is None:
            return self._result(width, height)
        ctx = _Ctx(st, vw, vh, 1.0, ())
        self.q()
        self.ops.append(cm)
        if local.get("display") != "none":
            self._container(root, ctx, local)
        self.Q()
        return self._result(width, height)

    def _root(self, root) -> tuple:
        """(width, height in pt, style, own properties, viewport size, the cm operation) of the root."""
        st, local = self.style(root, "svg", ROOT_STYLE)
        vb = self._viewbox(root)
        ctx0 = _Ctx(st, 100.0, 100.0, 1.0, ())
        w_px = self._root_size(root, "width", vb[2] if vb else None, ctx0)
        h_px = self._root_size(root, "height", vb[3] if vb else None, ctx0)
        if vb and w_px is None and h_px is not None:
            w_px = h_px * vb[2] / vb[3]
        if vb and h_px is None and w_px is not None:
            h_px = w_px * vb[3] / vb[2]
        w_px = 300.0 if w_px is None else w_px
        h_px = 150.0 if h_px is None else h_px
        width, height = w_px * PT_PER_PX, h_px * PT_PER_PX
        if width <= 0 or height <= 0:
            return max(width, 0.0), max(height, 0.0), st, local, 0.0, 0.0, None
        m = (PT_PER_PX, 0.0, 0.0, -PT_PER_PX, 0.0, height)  # px, y down -> pt, y up
        vw, vh = w_px, h_px
        if vb:
            m = V.mul(m, V.fit(vb, 0.0, 0.0, w_px, h_px, *self._aspect(root)))
            vw, vh = vb[2], vb[3]
        if not _sane(m) or abs(m[0] * m[3] - m[1] * m[2]) < 1e-12:
            self.warn(root, "the viewBox and size give no usable scale", error=True, attr="viewBox")
            return width, height, st, local, 0.0, 0.0, None
        a, b, c, d, e, f = m
        return width, height, st, local, vw, vh, ("cm", _r6(a), _r6(b), _r6(c), _r6(d), _r(e), _r(f))

    def _result(self, width: float, height: float) -> Compiled:
        return Compiled(_r(width), _r(height), tuple(self.ops), tuple(sorted(self.fonts)), self.images,
                        self.svgs, tuple(self.warnings), tuple(self.missing))

    def _root_size(self, el, name, vb_size, ctx) -> float | None:
        raw = el.get(name)
        if raw is None or raw.strip() in ("", "auto"):
            return vb_size
        v = V.length_parts(raw)
        if v is None or v[0] < 0:
            self.warn(el, f'{name}="{raw}" is not valid; expected a length such as 63mm', error=True, attr=name)
            return vb_size
        if v[1] == "%":
            return vb_size * v[0] / 100 if vb_size is not None else None
        return V.to_user(v[0], v[1], 16.0, 100.0)

    def _viewbox(self, el) -> tuple[float, float, float, float] | None:
        raw = el.get("viewBox")
        if raw is None:
            return None
        nums = V.numbers(raw)
        if nums is None or len(nums) != 4 or nums[2] < 0 or nums[3] < 0:
            self.warn(el, f'viewBox="{raw}" is not valid; expected four numbers "x y width height"',
                      error=True, attr="viewBox")
            return None
        if nums[2] == 0 or nums[3] == 0:
            return None
        return tuple(nums)  # type: ignore[return-value]

    def _aspect(self, el) -> tuple[str, bool]:
        raw = el.get("preserveAspectRatio")
        a = V.aspect(raw)
        if a is None:
            self.warn(el, f'preserveAspectRatio="{raw}" is not valid; expected e.g. "xMidYMid meet"',
                      error=True, attr="preserveAspectRatio")
            return "xmidymid", False
        return a

    def _read_stylesheets(self, root) -> None:
        sheets = []
        for el in root.iter(SVG_NS + "style", "style"):
            t = el.get("type")
            if t and t.strip().lower() not in ("text/css", ""):
                self.warn(el, f'<style type="{t}"> is not CSS: ignored')
                continue
            css = self._font_faces(el, V._COMMENT_RE.sub("", "".join(el.itertext())))
            rules, skipped = V.stylesheet(css)
            for s in skipped:
                self.warn(el, f'CSS "{s}" is not supported (type, class and id selectors only): ignored')
            sheets += rules
        if sheets:
            self.rules = sorted(sheets, key=lambda r: (r[1], r[2]))

    def _font_faces(self, el, css: str) -> str:
        """Read the @font-face rules of a <style> (font-family, font-weight, font-style, src: url(file or data:))
        into `font_faces`, registering each file with pnp.render.fonts; the rest of the sheet is returned."""
        def rule(m: re.Match) -> str:
            decls = dict(V.declarations(m.group(1)))
            family = decls.get("font-family", "").strip().strip("'\"").strip()
            src = re.search(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)", decls.get("src", ""))
            if not family or not src:
                self.warn(el, "@font-face without font-family or src: url(...): ignored", error=True)
                return ""
            href = src.group(1).strip()
            data = self._fetch(el, href, what="@font-face")
            if data is None:
                return ""
            try:
                name = fonts.register_data(data)
            except ValueError as exc:
                self.warn(el, f"@font-face {href if not href.startswith('data:') else 'data: URI'}: {exc}",
                          error=True)
                return ""
            slot = fonts.face_slot(decls.get("font-weight"), decls.get("font-style"))
            self.font_faces.setdefault(family.lower(), {})[slot] = name
            return ""

        return re.sub(r"@font-face\s*\{([^}]*)\}", rule, css)

    def font(self, family: str | None, weight, style) -> str:
        """The ReportLab font of a text in a CSS font-family list: the first of its chain."""
        return self.chain(family, weight, style)[0]

    def chain(self, family: str | None, weight, style) -> tuple[str, ...]:
        """The fonts a text in a CSS font-family list draws each character with, the first that has it
        (pnp.render.fonts.chain): its families that an @font-face of this SVG names or pnp ships, in order, the
        shipped family it maps to and the other shipped faces, then every @font-face family."""
        key = (family, weight, style)
        found = self._chains.get(key)
        if found is None:
            found = self._chains[key] = fonts.chain(family, weight, style, fonts.own_key(self.font_faces))
        return found

    def _container(self, el, ctx: _Ctx, local: dict | None = None) -> None:
        names = _TAG_NAMES
        for child in el:
            if self.stopped:
                return
            full = child.tag  # (lxml makes this string on each access: once per element here)
            tag = names.get(full)
            if tag is None:
                tag = _tag_name(full)
            if tag:
                self._element(child, ctx, tag)

    def _element(self, el, ctx: _Ctx, tag: str | None = None) -> None:
        if tag is None:
            tag = _TAG_NAMES.get(el.tag)
            if tag is None:
                tag = _tag_name(el.tag)
        if not tag or tag in _SILENT:
            return  # other vocabularies (Inkscape's sodipodi:namedview, RDF metadata), or defs-like
        self.count += 1
        if self.count > MAX_ELEMENTS:
            self.warn(el, f"more than {MAX_ELEMENTS} elements to draw (counting <use> copies): the rest is left out",
                      error=True)
            self.stopped = True
            return
        if tag in _DRAWN:
            key = None
            if (ctx.st is self.shared_style and tag in _MEMO_TAGS and not self.rules and not self.font_faces
                    and not len(el)):
                key = (tag, tuple(el.items()), el.text if tag == "text" else None, id(ctx.st), ctx.alpha, ctx.vw,
                       ctx.vh)
                hit = _MEMO.get(key)
                if hit is not None and hit[0] is ctx.st:
                    self._replay(hit[1])
                    return
                # only what refers to nothing else is kept (checked once, when it is first seen)
                if "url(" in "".join(el.values()) or el.get("href") is not None or el.get(XLINK_HREF) is not None:
                    key = None
            if key is None:
                st, local = self.style(el, tag, ctx.st)
                if local and local.get("display") == "none":
                    return
                self._graphic(el, tag, ctx, st, local)
                return
            # compiled once against an unknown graphics state (so every state operation is in the
            # fragment), then replayed through the state tracker like any later copy
            gs, ops, stack, warned, missed = self.gs, self.ops, self.gs_stack, len(self.warnings), len(self.missing)
            self.gs, self.ops, self.gs_stack = {}, [], []
            try:
                st, local = self.style(el, tag, ctx.st)
                if not (local and local.get("display") == "none"):
                    self._graphic(el, tag, ctx, st, local)
            finally:
                fragment = tuple(self.ops)
                self.gs, self.ops, self.gs_stack = gs, ops, stack
            if len(self.warnings) == warned and len(self.missing) == missed:
                if len(_MEMO) > 20000:
                    _MEMO.clear()
                _MEMO[key] = (ctx.st, fragment)  # a shared root style: kept alive, so its id stays its own
            self._replay(fragment)
        elif tag in _UNSUPPORTED:
            self.warn(el, f"<{tag}>: {_UNSUPPORTED[tag]}")
        elif tag == "tspan":
            self.warn(el, "<tspan> outside <text> is not drawn")
        else:
            self.warn(el, f"<{tag}> is not an SVG element we draw: skipped")

    def _replay(self, fragment: tuple) -> None:
        gs, ops = self.gs, self.ops
        for op in fragment:
            k = op[0]
            if k in _TRACKED:
                if gs.get(k) != op:
                    gs[k] = op
                    ops.append(op)
            elif k == "q":
                self.q()
                gs = self.gs
            elif k == "Q":
                self.Q()
                gs = self.gs
            else:
                if k == "text":
                    self.fonts.add(op[1])
                ops.append(op)

    def _graphic(self, el, tag: str, ctx: _Ctx, st: dict, local: dict) -> None:
        """Transform, clip and opacity around one element, then its content."""
        m = None
        raw_t = el.get("transform")
        if raw_t is not None:
            m = V.transform(raw_t)
            if m is None:
                self.warn(el, f'transform="{raw_t}" is not valid; expected e.g. translate(10, 5) rotate(30)',
                          error=True, attr="transform")
        if tag == "use":
            x, y = self.length(el, "x", ctx, "x"), self.length(el, "y", ctx, "y")
            if x or y:
                m = V.mul(m or V.IDENTITY, (1.0, 0.0, 0.0, 1.0, x, y))
        if m is not None and (abs(m[0] * m[3] - m[1] * m[2]) < 1e-12 or not _sane(m)):
            return  # a singular matrix (e.g. scale(0)) draws nothing; nor does an absurd one
        alpha = ctx.alpha
        if local:
            if "opacity" in local:
                alpha *= local["opacity"]
            for prop in ("filter", "mask"):
                if local.get(prop):
                    self.warn(el, f"{prop}: not supported, <{tag}> is drawn without its {prop}", attr=prop)
            for prop in ("text-decoration", "baseline-shift", "writing-mode", "font"):
                v = local.get(prop)
                if v and v not in ("none", "baseline", "0", "horizontal-tb", "lr-tb", "lr"):
                    self.warn(el, f'{prop}="{v}" is not supported: ignored', attr=prop)
        if alpha <= 0:
            return
        clip = local.get("clip-path") if local else None
        wrap = m is not None or clip is not None
        c = ctx if (st is ctx.st and alpha == ctx.alpha) else _Ctx(st, ctx.vw, ctx.vh, alpha, ctx.uses)
        if wrap:
            self.q()
            if m is not None:
                self.cm(m)
            if clip is not None and not self._clip(el, clip, c, tag):
                self.Q()
                return
        if tag in _SHAPES:
            self._shape(el, tag, c)
        elif tag in ("g", "a"):
            self._container(el, c)
        elif tag == "text":
            self._text(el, c)
        elif tag == "use":
            self._use(el, c)
        elif tag == "svg":
            self._nested_svg(el, c, local)
        elif tag == "image":
            self._image(el, c)
        if wrap:
            self.Q()

    # --- geometry of shapes ------------------------------------------------------------
    def _segments(self, el, tag: str, ctx: _Ctx) -> list[tuple] | None:
        if tag == "rect":
            x, y = self.length(el, "x", ctx, "x"), self.length(el, "y", ctx, "y")
            w = self.length(el, "width", ctx, "x", nonneg=True)
            h = self.length(el, "height", ctx, "y", nonneg=True)
            if w <= 0 or h <= 0:
                return None
            rx_raw, ry_raw = el.get("rx"), el.get("ry")
            rx = self.length(el, "rx", ctx, "x", nonneg=True) if rx_raw not in (None, "auto") else None
            ry = self.length(el, "ry", ctx, "y", nonneg=True) if ry_raw not in (None, "auto") else None
            if rx is None and ry is None:
                return "R", [x, y, w, h]  # type: ignore[return-value]
            rx = ry if rx is None else rx
            ry = rx if ry is None else ry
            rx, ry = min(rx, w / 2), min(ry, h / 2)  # type: ignore[type-var]
            if rx <= 0 or ry <= 0:  # type: ignore[operator]
                return "R", [x, y, w, h]  # type: ignore[return-value]
            return geo.round_rect(x, y, w, h, rx, ry)  # type: ignore[arg-type, return-value]
        if tag == "circle":
            r = self.length(el, "r", ctx, "xy", nonneg=True)
            if r <= 0:
                return None
            return geo.ellipse(self.length(el, "cx", ctx, "x"), self.length(el, "cy", ctx, "y"), r, r)  # type: ignore[return-value]
        if tag == "ellipse":
            rx_raw, ry_raw = el.get("rx"), el.get("ry")
            rx = self.length(el, "rx", ctx, "x", nonneg=True) if rx_raw not in (None, "auto") else None
            ry = self.length(el, "ry", ctx, "y", nonneg=True) if ry_raw not in (None, "auto") else None
            rx = ry if rx is None else rx
            ry = rx if ry is None else ry
            if not rx or not ry or rx <= 0 or ry <= 0:
                return None
            return geo.ellipse(self.length(el, "cx", ctx, "x"), self.length(el, "cy", ctx, "y"), rx, ry)  # type: ignore[return-value]
        if tag == "line":
            return "ML", [self.length(el, "x1", ctx, "x"), self.length(el, "y1", ctx, "y"),  # type: ignore[return-value]
                          self.length(el, "x2", ctx, "x"), self.length(el, "y2", ctx, "y")]
        if tag in ("polyline", "polygon"):
            raw = el.get("points") or ""
            nums = V.fast_numbers(raw)
            if nums is None:
                nums = [v for v in map(float, V._NUMBER_RE.findall(raw)) if -V.LIMIT <= v <= V.LIMIT]
                self.warn(el, "points: not a list of numbers; drawn up to the first error", error=True,
                          attr="points")
            if len(nums) % 2:
                self.warn(el, "points: an odd count of numbers; the last one is ignored", error=True,
                          attr="points")
                nums = nums[:-1]
            if len(nums) < 4:
                return None
            return geo.polyline(nums, tag == "polygon")  # type: ignore[return-value]
        # path
        d = el.get("d")
        if not d:
            return None
        cmds, ok = V.path_commands(d)
        if not ok:
            self.warn(el, "d: path data has an error; drawn up to it", error=True, attr="d")
        if not cmds:
            return None
        if cmds[0][0] not in "Mm":
            self.warn(el, "d: path data must start with M or m; not drawn", error=True, attr="d")
            return None
        return geo.path(cmds)  # type: ignore[return-value]

    def _shape(self, el, tag: str, ctx: _Ctx) -> None:
        path = self._segments(el, tag, ctx)
        if not path or not ctx.st["visibility"]:
            return
        self._paint(el, path, ctx, fillable=tag != "line")  # type: ignore[arg-type]

    def _paint(self, el, path: geo.Path, ctx: _Ctx, fillable: bool = True) -> None:
        st = ctx.st
        fp, sp = st["fill"] if fillable else _NO_PAINT, st["stroke"]
        fill = fp[1] if fp[0] == "colour" else None if fp[0] == "none" else self._paint_colour(el, fp, st, "fill")
        stroke = sp[1] if sp[0] == "colour" else None if sp[0] == "none" else \
            self._paint_colour(el, sp, st, "stroke")
        fill_op = fp[2] if fp[0] == "colour" else None  # type: ignore[misc]
        stroke_op = sp[3] if sp[0] == "colour" else None
        if stroke is not None and stroke[0] == "grad":
            stroke = self.first_stop(el, stroke[1], "stroke", "strokes")
        sw = 0.0
        if stroke is not None:
            w = st["stroke-width"]
            sw = w[0] if not w[1] else self.user(w, ctx, "xy")
            if sw <= 0:
                stroke = None
        letters, nums = path[0], tuple(path[1])
        alpha = ctx.alpha
        if fill is not None and fill[0] == "grad":
            self._gradient_fill(el, fill[1], (letters, nums), st["fill-rule"], st["fill-opacity"] * alpha, ctx)
            fill = None
        gs, ops = self.gs, self.ops
        if fill is not None:
            a = fill[3] * st["fill-opacity"] * alpha
            if a <= 0:
                fill = None
            else:
                op = fill_op or _colour_op("rg", fill)
                if gs.get("rg") != op:
                    gs["rg"] = op
                    ops.append(op)
                op = _CA_ONE if a == 1.0 else _alpha_op("ca", a)
                if gs.get("ca") != op:
                    gs["ca"] = op
                    ops.append(op)
        if stroke is not None:
            a = stroke[3] * st["stroke-opacity"] * alpha
            if a <= 0:
                stroke = None
            else:
                op = stroke_op or _colour_op("RG", stroke)
                if gs.get("RG") != op:
                    gs["RG"] = op
                    ops.append(op)
                op = _CAS_ONE if a == 1.0 else _alpha_op("CA", a)
                if gs.get("CA") != op:
                    gs["CA"] = op
                    ops.append(op)
                self._line_style(st, ctx, sw)
        if fill is not None:
            ops.append(("path", letters, nums, ("B*" if stroke is not None else "f*") if st["fill-rule"]
                        else ("B" if stroke is not None else "f")))
        elif stroke is not None:
            ops.append(("path", letters, nums, "S"))

    def _line_style(self, st: dict, ctx: _Ctx, sw: float) -> None:
        dashes = st["stroke-dasharray"]
        key = (sw, st["stroke-linecap"], st["stroke-linejoin"], st["stroke-miterlimit"], dashes,
               st["stroke-dashoffset"] if dashes else None, ctx.vw, ctx.vh, st["font-size"] if dashes else 0)
        line_ops = _LINE_MEMO.get(key)
        if line_ops is None:
            line_ops = [("w", _r(sw)), ("J", st["stroke-linecap"]), ("j", st["stroke-linejoin"])]
            if st["stroke-linejoin"] == 0:
                line_ops.append(("M", st["stroke-miterlimit"]))
            dash = ("d", (), 0.0)
            if dashes:
                arr = [self.user(d, ctx, "xy") for d in dashes]
                if len(arr) % 2:
                    arr = arr * 2
                total = sum(arr)
                if total > 0:
                    off = self.user(st["stroke-dashoffset"], ctx, "xy")
                    dash = ("d", tuple(_r(v) for v in arr), _r(off % total))  # type: ignore[assignment]
            line_ops.append(dash)
            if len(_LINE_MEMO) > 4096:
                _LINE_MEMO.clear()
            line_ops = _LINE_MEMO[key] = tuple(line_ops)
        gs, ops = self.gs, self.ops
        for op in line_ops:
            if gs.get(op[0]) != op:
                gs[op[0]] = op
                ops.append(op)

    def _paint_colour(self, el, p, st, prop):
        """A paint value as (r, g, b, a), ("grad", element), or None for nothing."""
        kind = p[0]
        if kind == "colour":
            return p[1]
        if kind == "none":
            return None
        if kind == "current":
            return st["color"]
        ident, fallback = p[1]
        target = self.by_id(ident) if ident else None
        ttag = _local(target.tag) if target is not None else None
        if ttag in ("linearGradient", "radialGradient"):
            return ("grad", target)
        if fallback:
            fb = V.paint(fallback)
            if fb is not None and fb[0] != "url":
                if target is not None:
                    self.warn(el, f"{prop}: <{ttag}> paint is not supported; drawn with the fallback {fallback}",
                              attr=prop)
                return self._paint_colour(el, fb, st, prop)
        if target is None:
            self.warn(el, f"{prop}: url(#{ident}) names no element; nothing painted" if ident
                      else f"{prop}: only url(#id) references inside the SVG are supported; nothing painted",
                      error=True, attr=prop)
        else:
            self.warn(el, f"{prop}: <{ttag}> paint is not supported; nothing painted", attr=prop)
        return None

    # --- gradients ---------------------------------------------------------------------
    def first_stop(self, el, grad, prop: str, what: str):
        """The colour of a gradient's first stop, for what cannot take a gradient here."""
        stops = self._gradient(el, grad)["stops"]  # type: ignore[index]
        if not stops:
            return None
        self.warn(el, f"{prop}: gradients on {what} are not supported; drawn with the first stop's colour",
                  attr=prop)
        s = stops[0]
        return (s[1], s[2], s[3], s[4])

    def _gradient(self, el, grad) -> dict | None:
        """Attributes and stops of a gradient, following href to the gradients it extends."""
        attrs: dict = {}
        stops_from = None
        seen = set()
        node = grad
        kind = _local(grad.tag)
        while node is not None and id(node) not in seen:
            seen.add(id(node))
            for k in ("x1", "y1", "x2", "y2", "cx", "cy", "r", "fx", "fy", "fr", "gradientUnits",
                      "gradientTransform", "spreadMethod"):
                v = node.get(k)
                if v is not None and k not in attrs:
                    attrs[k] = (v, node)
            if stops_from is None and any(_local(c.tag) == "stop" for c in node if isinstance(c.tag, str)):
                stops_from = node
            href = node.get("href") or node.get(XLINK_HREF)
            if not href or not href.startswith("#"):
                break
            node = self.by_id(href[1:])
            if node is not None and _local(node.tag) not in ("linearGradient", "radialGradient"):
                break
        stops = []
        if stops_from is not None:
            last = 0.0
            for s in stops_from:
                if not isinstance(s.tag, str) or _local(s.tag) != "stop":
                    continue
                st, local = self.style(s, "stop", ROOT_STYLE)
                raw = s.get("offset", "0").strip()
                try:
                    off = V.number(raw[:-1]) / 100 if raw.endswith("%") else V.number(raw)
                except ValueError:
                    self.warn(s, f'offset="{raw}" is not valid; expected a number 0..1 or a percentage',
                              error=True, attr="offset")
                    off = last
                off = max(min(off, 1.0), last)
                last = off
                col = local.get("stop-color", BLACK)
                if col == V.CURRENT:
                    col = st["color"]
                stops.append((off, col[0], col[1], col[2], col[3] * local.get("stop-opacity", 1.0)))
        return {"kind": kind, "attrs": attrs, "stops": stops}

    def _gradient_fill(self, el, grad, path: tuple, evenodd: bool, alpha: float, ctx: _Ctx) -> None:
        g = self._gradient(el, grad)
        stops = g["stops"]  # type: ignore[index]
        if not stops:
            return  # no stops: paints nothing (SVG)
        alphas = {s[4] for s in stops}
        if len(alphas) > 1:
            self.warn(grad, "stop-opacity differs between stops: drawn with their mean opacity "
                            "(PDF gradients here have one alpha)", attr="stop-opacity")
        stop_alpha = sum(s[4] for s in stops) / len(stops)
        a = alpha * stop_alpha
        if a <= 0:
            return
        attrs = g["attrs"]  # type: ignore[index]

        def num(k, default, axis="x"):
            if k not in attrs:
                return default
            raw, node = attrs[k]
            v = V.length_parts(raw)
            if v is None:
                self.warn(node, f'{k}="{raw}" is not valid; expected a number or a percentage', error=True, attr=k)
                return default
            if v[1] == "%":
                if bbox_units:
                    return v[0] / 100
                return self.user(v, ctx, axis)
            return v[0] * V.PX_PER.get(v[1], 1.0)

        units = attrs.get("gradientUnits", ("objectBoundingBox", None))[0].strip()
        bbox_units = units != "userSpaceOnUse"
        m = V.IDENTITY
        if bbox_units:
            bb = geo.bbox(path)
            if bb is None or bb[2] - bb[0] <= 0 or bb[3] - bb[1] <= 0:
                return  # objectBoundingBox on a shape without area: not painted (SVG)
            m = (bb[2] - bb[0], 0.0, 0.0, bb[3] - bb[1], bb[0], bb[1])
        if "gradientTransform" in attrs:
            raw, node = attrs["gradientTransform"]
            gt = V.transform(raw)
            if gt is None:
                self.warn(node, f'gradientTransform="{raw}" is not valid', error=True, attr="gradientTransform")
            else:
                m = V.mul(m, gt)
        spread = attrs.get("spreadMethod", ("pad", None))
        if spread[0].strip() != "pad":
            self.warn(spread[1], f'spreadMethod="{spread[0]}" is not supported: drawn as pad', attr="spreadMethod")
        if g["kind"] == "linearGradient":  # type: ignore[index]
            coords = (num("x1", 0.0), num("y1", 0.0, "y"), num("x2", 1.0 if bbox_units else 100.0), num("y2", 0.0, "y"))
            kind = "axial"
            if coords[0] == coords[2] and coords[1] == coords[3]:
                stops = [stops[-1]]
        else:
            cx, cy = num("cx", 0.5 if bbox_units else 50.0), num("cy", 0.5 if bbox_units else 50.0, "y")
            r = num("r", 0.5 if bbox_units else 50.0, "xy")
            fx, fy = num("fx", cx), num("fy", cy, "y")
            fr = num("fr", 0.0, "xy")
            if r <= 0:
                stops = [stops[-1]]
            coords = (fx, fy, fr, cx, cy, r)  # type: ignore[assignment]
            kind = "radial"
        self.q()
        self.ops.append(("clip", path[0], path[1], evenodd))
        if len(stops) == 1:
            s = stops[0]
            self.set("rg", _r(s[1]), _r(s[2]), _r(s[3]))
            self.set("ca", _r(a))
            self.ops.append(("path", path[0], path[1], "f*" if evenodd else "f"))
        else:
            self.set("ca", _r(a))
            self.cm(m)
            self.ops.append(("shade", kind, tuple(_r(v) for v in coords),
                             tuple((_r(s[0]), _r(s[1]), _r(s[2]), _r(s[3])) for s in stops), True))
        self.Q()

    # --- clipping ----------------------------------------------------------------------
    def _clip(self, el, ident: str, ctx: _Ctx, tag: str) -> bool:
        """Emit the clip of url(#ident); False if nothing can show (empty clip)."""
        cp = self.by_id(ident)
        if cp is None or _local(cp.tag) != "clipPath":
            self.warn(el, f"clip-path: url(#{ident}) names no <clipPath>; drawn unclipped", error=True,
                      attr="clip-path")
            return True
        m = V.IDENTITY
        raw_t = cp.get("transform")
        if raw_t:
            m = V.transform(raw_t) or V.IDENTITY
        if (cp.get("clipPathUnits") or "").strip() == "objectBoundingBox":
            shape = self._segments(el, tag, ctx) if tag in _SHAPES else None
            bb = geo.bbox(shape) if shape else None  # type: ignore[arg-type]
            if bb is None:
                self.warn(cp, "clipPathUnits=objectBoundingBox is supported on shapes only; drawn unclipped")
                return True
            m = V.mul((bb[2] - bb[0], 0.0, 0.0, bb[3] - bb[1], bb[0], bb[1]), m)
        if cp.get("clip-path"):
            self.warn(cp, "a clip-path on a <clipPath> is not supported: ignored", attr="clip-path")
        cst, _ = self.style(cp, "clipPath", ctx.st)
        out_ops: list[str] = []
        out: list[float] = []
        evenodd = False
        for child in cp:
            if not isinstance(child.tag, str):
                continue
            ctag = _local(child.tag)
            node, nm = child, m
            cst2, clocal = self.style(child, ctag, cst)  # type: ignore[arg-type]
            if clocal.get("display") == "none" or not cst2["visibility"]:
                continue
            if ctag == "use":
                href = child.get("href") or child.get(XLINK_HREF) or ""
                node = self.by_id(href[1:]) if href.startswith("#") else None
                if node is None or _local(node.tag) not in _SHAPES:
                    self.warn(child, "<use> in <clipPath> must name a shape; ignored")
                    continue
                ut = V.transform(child.get("transform") or "") or V.IDENTITY
                ux, uy = self.length(child, "x", ctx), self.length(child, "y", ctx, "y")
                nm = V.mul(V.mul(m, ut), (1.0, 0.0, 0.0, 1.0, ux, uy))
                ctag = _local(node.tag)
                cst2, _ = self.style(node, ctag, cst2)  # type: ignore[arg-type]
            if ctag not in _SHAPES:
                if ctag not in _SILENT:
                    self.warn(child, f"<{ctag}> in <clipPath> is not supported (shapes only); ignored")
                continue
            shape = self._segments(node, ctag, ctx.child(st=cst2))
            if not shape:
                continue
            t = node.get("transform")
            if t:
                nm = V.mul(nm, V.transform(t) or V.IDENTITY)
            shape = geo.transformed(shape, nm) if nm != V.IDENTITY else shape  # type: ignore[arg-type, assignment]
            out_ops.append(shape[0])  # type: ignore[arg-type]
            out += shape[1]
            evenodd = evenodd or cst2["clip-rule"]
        if not out:
            return False
        self.ops.append(("clip", "".join(out_ops), tuple(out), evenodd))
        return True

    # --- use, nested svg ---------------------------------------------------------------
    def _use(self, el, ctx: _Ctx) -> None:
        href = el.get("href") or el.get(XLINK_HREF)
        if not href:
            self.warn(el, "<use> without href: nothing drawn", error=True)
            return
        if not href.startswith("#"):
            self.warn(el, f'<use href="{href}">: only references inside the SVG (#id) are supported', attr="href")
            return
        ident = href[1:]
        target = self.by_id(ident)
        if target is None:
            self.warn(el, f"<use>: no element has id {ident!r}", error=True, attr="href")
            return
        if ident in ctx.uses or len(ctx.uses) >= MAX_USE_DEPTH:
            self.warn(el, f"<use>: {ident!r} refers to itself (or nests too deep); not drawn", error=True)
            return
        uctx = ctx.child(uses=ctx.uses + (ident,))
        ttag = _local(target.tag)
        if ttag in ("symbol", "svg"):
            st, local = self.style(target, ttag, uctx.st)
            if local.get("display") == "none":
                return
            self._viewport(target, uctx.child(st=st), local, width_from=el)
        elif ttag in _SILENT or ttag is None:
            self.warn(el, f"<use>: <{ttag}> cannot be drawn by reference", attr="href")
        else:
            self._element(target, uctx)

    def _nested_svg(self, el, ctx: _Ctx, local: dict) -> None:
        self._viewport(el, ctx, local, width_from=None)

    def _viewport(self, el, ctx: _Ctx, local: dict, width_from) -> None:
        """A nested <svg> or a <symbol> via <use>: new viewport, viewBox, clip (unless overflow visible)."""
        is_svg = _local(el.tag) == "svg"
        x = self.length(el, "x", ctx, "x") if is_svg else 0.0
        y = self.length(el, "y", ctx, "y") if is_svg else 0.0
        src_w = width_from if width_from is not None and width_from.get("width") is not None else el
        src_h = width_from if width_from is not None and width_from.get("height") is not None else el
        w = self.length(src_w, "width", ctx, "x", default=ctx.vw, nonneg=True) if src_w.get("width") else ctx.vw
        h = self.length(src_h, "height", ctx, "y", default=ctx.vh, nonneg=True) if src_h.get("height") else ctx.vh
        if src_w.get("width") is not None and V.length_parts(src_w.get("width")) == (100.0, "%"):
            w = ctx.vw
        if w <= 0 or h <= 0:
            return
        vb = self._viewbox(el)
        self.q()
        if local.get("overflow", "hidden") not in ("visible", "auto"):
            self.ops.append(("clip", "R", (x, y, w, h), False))
        if vb:
            m = V.fit(vb, x, y, w, h, *self._aspect(el))
            if not _sane(m):
                self.Q()
                return
            self.cm(m)
            inner = ctx.child(vw=vb[2], vh=vb[3])
        else:
            self.cm((1.0, 0.0, 0.0, 1.0, x, y))
            inner = ctx.child(vw=w, vh=h)
        self._container(el, inner)
        self.Q()

    # --- images ------------------------------------------------------------------------
    def _image(self, el, ctx: _Ctx) -> None:
        if not ctx.st["visibility"]:
            return
        href = (el.get("href") or el.get(XLINK_HREF) or "").strip()
        if not href:
            self.warn(el, "<image> without href: nothing drawn", error=True)
            return
        label = href if not href.startswith("data:") else "data: URI"
        data = self._fetch(el, href)
        if data is None:
            return
        key = _content_key(data)
        info = _image_cache.get(key)
        if info is None:
            info = self._probe(data, href)
            # an SVG image that reads files of its own means what the resolver says: not kept
            if info[0] != "svg" or not info[2]:
                if len(_image_cache) >= _IMAGE_CACHE_MAX:
                    _image_cache.pop(next(iter(_image_cache)))
                _image_cache[key] = info
        if info[0] == "bad":
            self.warn(el, f"<image> {label}: {info[1]}", error=True, attr="href")
            return
        if info[0] == "svg":
            nested = info[1]
            if info[2]:  # what it drew from files is part of what it is (one form per distinct result)
                key = _content_key(data + "".join(sorted(nested.images) + sorted(nested.svgs)).encode())
            for w in nested.warnings:
                self.warn(el, f"in SVG image {label}: {w}", error=w.error)
            iw, ih = nested.width / PT_PER_PX, nested.height / PT_PER_PX
        else:
            iw, ih = float(info[1]), float(info[2])
        if iw <= 0 or ih <= 0:
            return
        x, y = self.length(el, "x", ctx, "x"), self.length(el, "y", ctx, "y")
        w_raw, h_raw = el.get("width"), el.get("height")
        w = self.length(el, "width", ctx, "x", nonneg=True) if w_raw not in (None, "auto") else None
        h = self.length(el, "height", ctx, "y", nonneg=True) if h_raw not in (None, "auto") else None
        if w is None and h is None:
            w, h = iw, ih
        elif w is None:
            w = h * iw / ih
        elif h is None:
            h = w * ih / iw
        if w <= 0 or h <= 0:  # type: ignore[operator]
            return
        align, slice_ = self._aspect(el)
        m = V.fit((0.0, 0.0, iw, ih), x, y, w, h, align, slice_)  # type: ignore[arg-type]
        box = (m[4], m[5], iw * m[0], ih * m[3])
        alpha = ctx.alpha
        wrap = slice_ or alpha < 1
        if wrap:
            self.q()
            if slice_:
                self.ops.append(("clip", "R", (x, y, w, h), False))
            if alpha < 1:
                self.set("ca", _r(alpha))
        if info[0] == "svg":
            self.svgs[key] = info[1]
            self.ops.append(("svg", key, *[_r(v) for v in box]))
        else:
            lazy = len(data) >= LAZY_IMAGE_BYTES and self.resources is not None and not href.startswith("data:")
            self.images[key] = (FileImage(self.resources, href, key, len(data), (int(info[1]), int(info[2])))  # type: ignore[arg-type]
                                if lazy else data)
            self.ops.append(("image", key, *[_r(v) for v in box]))
        if wrap:
            self.Q()

    def _fetch(self, el, href: str, what: str = "<image>") -> bytes | None:
        if href.startswith("data:"):
            head, comma, payload = href[5:].partition(",")
            if not comma:
                self.warn(el, f"{what}: malformed data: URI (no comma)", error=True, attr="href")
                return None
            try:
                if head.lower().endswith(";base64"):
                    return base64.b64decode(re.sub(r"\s+", "", urllib.parse.unquote(payload)), validate=True)
                return urllib.parse.unquote_to_bytes(payload)
            except ValueError as exc:
                self.warn(el, f"{what}: data: URI is not valid base64 ({exc})", error=True, attr="href")
                return None
        if self.resources is None:
            self.warn(el, f"{what} {href}: not drawn (no image files can be read here)", error=True, attr="href")
            return None
        self.fetched = True
        try:
            data = self.resources(href)
        except Exception as exc:  # the caller's resolver refused it (outside the design, unreadable...)
            self.warn(el, f"{what} {href}: {exc}", error=True, attr="href")
            return None
        if data is None:
            self.warn(el, f"{what} {href}: file not found", error=True, attr="href")
        return data

    def _probe(self, data: bytes, href: str) -> tuple:
        head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
        if head.startswith(b"<"):
            if self.depth >= MAX_IMAGE_DEPTH:
                return ("bad", f"SVG images nest deeper than {MAX_IMAGE_DEPTH} levels")
            sub = _Compiler(data, self.resources, self.depth + 1)
            nested = sub.run()
            if nested.width <= 0 or nested.height <= 0:
                msgs = "; ".join(str(w) for w in nested.warnings[:3])
                return ("bad", f"not a drawable SVG ({msgs or 'no size'})")
            return ("svg", nested, sub.fetched)
        if head.startswith(b"\x1f\x8b"):
            return ("bad", "compressed SVG (.svgz) is not supported; save it as plain .svg")

        from PIL import Image, UnidentifiedImageError  # lazy: 15 ms (PIL, logging): only a face with raster art

        try:
            with warnings.catch_warnings():  # nothing goes to stderr: a huge image is refused below
                warnings.simplefilter("error", Image.DecompressionBombWarning)
                with Image.open(io.BytesIO(data)) as im:
                    if im.format not in ("PNG", "JPEG", "WEBP", "GIF"):
                        return ("bad", f"{im.format} images are not supported; use PNG, JPEG, WebP or SVG")
                    if im.format == "PNG" and _png_whole(data, im.width, im.height):
                        return ("raster", im.width, im.height)  # drawn from its own compressed pixels
                    im.load()  # a truncated or corrupt file fails here, once per distinct file
                    return ("raster", im.width, im.height)
        except (Image.DecompressionBombWarning, Image.DecompressionBombError):
            return ("bad", f"more than {Image.MAX_IMAGE_PIXELS // 1_000_000} million pixels; scale it down")  # type: ignore[operator]
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError) as exc:
            return ("bad", f"not a readable PNG, JPEG, WebP or SVG file ({exc.__class__.__name__})")

    # --- text --------------------------------------------------------------------------
    def _text(self, el, ctx: _Ctx) -> None:
        global _layout
        if _layout is None:
            from pnp.render.svgpdf.text import layout as _layout  # lazy: cycle compiler -> text -> compiler
        _layout(self, el, ctx)  # type: ignore[misc]


def _png_whole(data: bytes, width: int, height: int) -> bool:
    """True for a PNG the player copies into the PDF as it is (player.png_stream) whose pixel data inflates to
    exactly its rows: checked without unfiltering the image (cheaper than Pillow's load)."""
    from pnp.render.svgpdf.player import png_stream  # lazy: cycle compiler -> player -> compiler

    found = png_stream(data)
    if found is None or (found[0], found[1]) != (width, height):
        return False
    want = (1 + found[0] * found[2]) * found[1]
    z = zlib.decompressobj()
    got = 0
    try:
        stream = found[3]
        for i in range(0, len(stream), 1 << 20):
            got += len(z.decompress(stream[i:i + (1 << 20)], want + 1 - got))
            if got > want:
                return False
        got += len(z.flush())
    except zlib.error:
        return False
    return got == want and z.eof


_layout = None
_TAG_NAMES: dict = {}
_ROOTS: dict = {}  # root attributes -> what _root makes of them
# Leaf elements (shapes, texts without children) by tag, attributes, text and parent style ->
# their operations: faces of one template repeat most of theirs. Not for anything that refers
# to another element (url(#...), href), whose meaning depends on the rest of its document.
_MEMO: dict = {}
_MEMO_TAGS = _SHAPES | {"text"}
_TRACKED = {"rg", "RG", "ca", "CA", "w", "J", "j", "M", "d", "Tc", "Tr"}


def _tag_name(tag) -> str:
    """The SVG local name of an lxml tag ("" for comments and other namespaces), memoised."""
    name = (_local(tag) or "") if isinstance(tag, str) else ""
    if isinstance(tag, str) and len(_TAG_NAMES) < 1000:
        _TAG_NAMES[tag] = name
    return name


def _local(tag) -> str | None:
    if not isinstance(tag, str):
        return None
    if tag[0] == "{":
        ns, _, name = tag[1:].partition("}")
        return name if ns == SVG_NS[1:-1] else None
    return tag


def compile_svg(text: str | bytes, *, resources: Resources | None = None, source: str | None = None) -> Compiled:
    """Compile SVG text into plain drawing operations. Never raises on bad SVG content: problems
    are in `Compiled.warnings` with their line numbers. `resources(href)` returns the bytes of an
    image file the SVG names (or None if there is none); without it, only data: URIs are drawn.
    `source` names the SVG in messages about images nested in it."""
    compiled = _Compiler(text, resources).run()
    if source is not None and compiled.warnings:
        warnings = tuple(SvgWarning(w.line, w.message, w.error, source) for w in compiled.warnings)
        compiled = Compiled(compiled.width, compiled.height, compiled.ops, compiled.fonts, compiled.images,
                            compiled.svgs, warnings, compiled.missing)
    return compiled
