"""Parsers for SVG attribute values: colours, lengths, numbers, transforms, viewBox fitting,
path data, inline styles and the small CSS subset we read.

Pure functions of strings; each returns ``None`` (or raises ``ValueError`` where noted)
for a value it cannot read, and the compiler turns that into a warning with a line.
The hot ones are memoised: the same colour or length string appears hundreds of times
in a deck.
"""

from __future__ import annotations

import colorsys
import functools
import math
import re

from reportlab.lib import colors

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

# ---------------------------------------------------------------------------------------
# numbers

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_NUMBER_RE = re.compile(_NUMBER)
_NUMBER_LIST_RE = re.compile(rf"^\s*(?:{_NUMBER})(?:(?:\s*,\s*|\s+)(?:{_NUMBER}))*\s*,?\s*$|^\s*$")


LIMIT = 1e9  # larger numbers are refused as invalid: nothing on a face is a billion units long
_ONE_NUMBER_RE = re.compile(rf"^\s*{_NUMBER}\s*$")


def number(text: str) -> float:
    """An SVG number (no nan, inf or 1_000 as Python would take), within LIMIT; ValueError if not."""
    if not _ONE_NUMBER_RE.match(text):
        raise ValueError(f"not a number: {text!r}")
    v = float(text)
    if not -LIMIT <= v <= LIMIT:
        raise ValueError(f"out of range: {text!r}")
    return v


def _bounded(values: list[float]) -> list[float] | None:
    return values if all(-LIMIT <= v <= LIMIT for v in values) else None


def numbers(text: str) -> list[float] | None:
    """A list of numbers separated by spaces and/or commas; None if anything else is there."""
    if not _NUMBER_LIST_RE.match(text):
        return None
    return _bounded([float(v) for v in _NUMBER_RE.findall(text)])


_PLAIN = frozenset("0123456789.-+eE ,\t\r\n")


def fast_numbers(text: str) -> list[float] | None:
    """`numbers`, with a quick path for the common "1,2 3,4" (no signs glued to numbers)."""
    if set(text) <= _PLAIN:
        try:
            return _bounded([float(v) for v in text.replace(",", " ").split()])
        except ValueError:
            pass
    return numbers(text)


def mul(m: Matrix, n: Matrix) -> Matrix:
    """The matrix applying n first, then m (SVG's m * n)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2,
            a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def invert(m: Matrix) -> Matrix | None:
    a, b, c, d, e, f = m
    det = a * d - b * c
    if abs(det) < 1e-12:
        return None
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


# ---------------------------------------------------------------------------------------
# colours

def _css_names() -> dict[str, tuple[float, float, float]]:
    """The CSS colour keywords, from ReportLab's table (which also holds a few of its own names)."""
    own = {"fidblue", "fidlightblue", "fidred", "cornflower", "transparent"}
    out = {}
    for name, col in colors.getAllNamedColors().items():
        if name.islower() and name.isalpha() and name not in own:
            out[name] = (float(col.red), float(col.green), float(col.blue))
    out["rebeccapurple"] = (0x66 / 255, 0x33 / 255, 0x99 / 255)  # CSS Color 4, not in ReportLab's table
    return out


_NAMES: dict[str, tuple[float, float, float]] | None = None
_FUNC_RE = re.compile(r"^(rgba?|hsla?)\(\s*([^()]*)\)$")

Colour = tuple[float, float, float, float]  # r, g, b, alpha in 0..1
CURRENT = "currentcolor"
NONE = "none"


def _channel(v: str, scale: float) -> float:
    v = v.strip()
    if v.endswith("%"):
        return min(max(number(v[:-1]) / 100, 0.0), 1.0)
    return min(max(number(v) / scale, 0.0), 1.0)


def _alpha(v: str) -> float:
    v = v.strip()
    if v.endswith("%"):
        return min(max(number(v[:-1]) / 100, 0.0), 1.0)
    return min(max(number(v), 0.0), 1.0)


@functools.lru_cache(maxsize=4096)
def colour(text: str) -> Colour | str | None:
    """An SVG/CSS colour as (r, g, b, a) in 0..1, or "none" / "currentcolor"; None if not a colour."""
    global _NAMES
    s = text.strip().lower()
    if not s:
        return None
    if s[0] == "#":
        h = s[1:]
        if not all(ch in "0123456789abcdef" for ch in h):
            return None
        if len(h) in (3, 4):
            vals = [int(ch, 16) * 17 for ch in h]
        elif len(h) in (6, 8):
            vals = [int(h[i:i + 2], 16) for i in range(0, len(h), 2)]
        else:
            return None
        a = vals[3] / 255 if len(vals) == 4 else 1.0
        return (vals[0] / 255, vals[1] / 255, vals[2] / 255, a)
    if s == "none":
        return NONE
    if s == "currentcolor":
        return CURRENT
    if s == "transparent":
        return (0.0, 0.0, 0.0, 0.0)
    m = _FUNC_RE.match(s)
    if m:
        kind, body = m.groups()
        parts = [p for p in re.split(r"\s*,\s*|\s*/\s*|\s+", body.strip()) if p]
        if len(parts) not in (3, 4):
            return None
        try:
            a = _alpha(parts[3]) if len(parts) == 4 else 1.0
            if kind.startswith("rgb"):
                return (_channel(parts[0], 255), _channel(parts[1], 255), _channel(parts[2], 255), a)
            hue = parts[0]
            for unit, factor in (("deg", 1.0), ("turn", 360.0), ("rad", 180 / math.pi)):
                if hue.endswith(unit):
                    hue_deg = number(hue[:-len(unit)]) * factor
                    break
            else:
                hue_deg = number(hue)
            if not (parts[1].endswith("%") and parts[2].endswith("%")):
                return None
            r, g, b = colorsys.hls_to_rgb((hue_deg / 360) % 1.0, _channel(parts[2], 1), _channel(parts[1], 1))
            return (r, g, b, a)
        except ValueError:
            return None
    if _NAMES is None:
        _NAMES = _css_names()
    rgb = _NAMES.get(s)
    return (*rgb, 1.0) if rgb else None


_URL_RE = re.compile(r"^url\(\s*['\"]?#([^'\")\s]+)['\"]?\s*\)\s*(.*)$")


def paint(text: str) -> tuple[str, object] | None:
    """A fill/stroke value: ("none",), ("colour", rgba), ("current",), ("url", (id, fallback text))."""
    s = text.strip()
    if s.startswith("url("):
        m = _URL_RE.match(s)
        if not m:
            return ("url", (None, ""))  # a url we cannot follow (external file, bad syntax)
        return ("url", (m.group(1), m.group(2).strip()))
    c = colour(s)
    if c is None:
        return None
    if c == NONE:
        return ("none", None)
    if c == CURRENT:
        return ("current", None)
    return ("colour", c)


def url_id(text: str | None) -> str | None:
    """The id in "url(#id)", else None."""
    if not text:
        return None
    m = _URL_RE.match(text.strip())
    return m.group(1) if m else None


# ---------------------------------------------------------------------------------------
# lengths

PX_PER = {"": 1.0, "px": 1.0, "pt": 96 / 72, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0,
          "q": 96 / 101.6}
_LENGTH_RE = re.compile(rf"^\s*({_NUMBER})\s*(px|pt|pc|mm|cm|in|q|em|ex|%)?\s*$", re.I)


@functools.lru_cache(maxsize=4096)
def length_parts(text: str) -> tuple[float, str] | None:
    """(number, unit in lower case) or None."""
    m = _LENGTH_RE.match(text)
    if not m:
        return None
    v = float(m.group(1))
    if not -LIMIT <= v <= LIMIT:
        return None
    return v, (m.group(2) or "").lower()


def to_user(value: float, unit: str, font_size: float, percent_of: float) -> float:
    """A length in user units (CSS px); em/ex from the font size, % of `percent_of`."""
    if unit in PX_PER:
        return value * PX_PER[unit]
    if unit == "%":
        return value * percent_of / 100
    if unit == "em":
        return value * font_size
    return value * font_size / 2  # ex


# ---------------------------------------------------------------------------------------
# transforms

_TRANSFORM_RE = re.compile(r"\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^()]*)\)\s*,?")


@functools.lru_cache(maxsize=4096)
def transform(text: str) -> Matrix | None:
    """The matrix of a transform list; None if it does not parse."""
    m = IDENTITY
    pos = 0
    text = text.strip()
    while pos < len(text):
        t = _TRANSFORM_RE.match(text, pos)
        if not t:
            return None
        pos = t.end()
        name, args = t.group(1), numbers(t.group(2))
        if args is None:
            return None
        n = len(args)
        if name == "matrix" and n == 6:
            step = tuple(args)
        elif name == "translate" and n in (1, 2):
            step = (1.0, 0.0, 0.0, 1.0, args[0], args[1] if n == 2 else 0.0)
        elif name == "scale" and n in (1, 2):
            step = (args[0], 0.0, 0.0, args[1] if n == 2 else args[0], 0.0, 0.0)
        elif name == "rotate" and n in (1, 3):
            a = math.radians(args[0])
            cos, sin = math.cos(a), math.sin(a)
            step = (cos, sin, -sin, cos, 0.0, 0.0)
            if n == 3:
                cx, cy = args[1], args[2]
                step = mul(mul((1.0, 0.0, 0.0, 1.0, cx, cy), step), (1.0, 0.0, 0.0, 1.0, -cx, -cy))
        elif name == "skewX" and n == 1:
            step = (1.0, 0.0, math.tan(math.radians(args[0])), 1.0, 0.0, 0.0)
        elif name == "skewY" and n == 1:
            step = (1.0, math.tan(math.radians(args[0])), 0.0, 1.0, 0.0, 0.0)
        else:
            return None
        m = mul(m, step)  # type: ignore[arg-type]
    return m


_ALIGNS = {"none", "xminymin", "xmidymin", "xmaxymin", "xminymid", "xmidymid", "xmaxymid",
           "xminymax", "xmidymax", "xmaxymax"}


def aspect(text: str | None) -> tuple[str, bool] | None:
    """preserveAspectRatio as (align in lower case, slice?); None if it does not parse."""
    parts = (text or "xMidYMid meet").split()
    if parts and parts[0] == "defer":
        parts = parts[1:]
    if not parts or len(parts) > 2 or parts[0].lower() not in _ALIGNS:
        return None
    if len(parts) == 2 and parts[1] not in ("meet", "slice"):
        return None
    return parts[0].lower(), len(parts) == 2 and parts[1] == "slice"


def fit(vb: tuple[float, float, float, float], x: float, y: float, w: float, h: float,
        align: str, slice_: bool) -> Matrix:
    """The matrix mapping viewBox `vb` onto the viewport (x, y, w, h), per preserveAspectRatio."""
    vx, vy, vw, vh = vb
    sx, sy = w / vw, h / vh
    if align == "none":
        return (sx, 0.0, 0.0, sy, x - vx * sx, y - vy * sy)
    s = max(sx, sy) if slice_ else min(sx, sy)
    fx = 0.0 if "xmin" in align else 1.0 if "xmax" in align else 0.5
    fy = 0.0 if "ymin" in align else 1.0 if "ymax" in align else 0.5
    return (s, 0.0, 0.0, s, x + (w - vw * s) * fx - vx * s, y + (h - vh * s) * fy - vy * s)


# ---------------------------------------------------------------------------------------
# path data

_PATH_TOKEN_RE = re.compile(rf"([MmZzLlHhVvCcSsQqTtAa])|({_NUMBER})|([\s,]+)|(.)")
_ARGS = {"m": 2, "l": 2, "h": 1, "v": 1, "c": 6, "s": 4, "q": 4, "t": 2, "a": 7, "z": 0}
_FLAG_RE = re.compile(r"[\s,]*([01])")
_ARC_NUM_RE = re.compile(rf"[\s,]*({_NUMBER})")


def path_commands(d: str) -> tuple[list[tuple[str, list[float]]], bool]:
    """SVG path data as [(command letter, arguments)], one entry per command with its own
    argument group (implicit repeats made explicit, implicit lineto after moveto included),
    and whether all of `d` was read (SVG draws up to the first error)."""
    out: list[tuple[str, list[float]]] = []
    pos, n = 0, len(d)
    cmd = None
    ok = True
    while pos < n:
        ch = d[pos]
        if ch in " \t\r\n,":
            pos += 1
            continue
        if ch.isalpha():
            if ch.lower() not in _ARGS:
                return out, False
            cmd = ch
            pos += 1
            if cmd in "zZ":
                out.append((cmd, []))
                continue
        elif cmd is None or cmd in "zZ":
            return out, False
        # one argument group of `cmd`
        k = _ARGS[cmd.lower()]
        args: list[float] = []
        if cmd in "aA":
            for i in range(7):
                m = (_FLAG_RE if i in (3, 4) else _ARC_NUM_RE).match(d, pos)
                if not m:
                    return out, False
                args.append(float(m.group(1)))
                pos = m.end()
        else:
            for _ in range(k):
                m = _ARC_NUM_RE.match(d, pos)
                if not m:
                    return out, False
                args.append(float(m.group(1)))
                pos = m.end()
        if not all(-LIMIT <= v <= LIMIT for v in args):
            return out, False
        out.append((cmd, args))
        if cmd == "M":
            cmd = "L"
        elif cmd == "m":
            cmd = "l"
    return out, ok


# ---------------------------------------------------------------------------------------
# styles

def declarations(text: str) -> list[tuple[str, str]]:
    """`style="a: b; c: d"` (or a CSS rule body) as [(property, value)], !important dropped."""
    out = []
    for item in text.split(";"):
        name, sep, value = item.partition(":")
        if not sep:
            continue
        name, value = name.strip().lower(), value.strip()
        if value.endswith("!important"):
            value = value[: -len("!important")].strip()
        if name and value:
            out.append((name, value))
    return out


_COMMENT_RE = re.compile(r"/\*.*?\*/", re.S)
_SIMPLE_SELECTOR_RE = re.compile(r"^(\*|[A-Za-z][\w-]*)?((?:[.#][\w-]+)*)$")


def stylesheet(text: str) -> tuple[list[tuple[tuple, tuple[int, int, int], int, list]], list[str]]:
    """A `<style>` sheet as rules [(selector, specificity, order, declarations)] and the parts it
    could not read. A selector is (type or None, (classes...), id or None): type, class and id
    selectors, compound ones (`rect.a#b`), `*`, and comma lists; nothing else."""
    text = _COMMENT_RE.sub("", text.replace("<![CDATA[", "").replace("]]>", ""))
    rules, skipped = [], []
    order = 0
    pos = 0
    while True:
        open_ = text.find("{", pos)
        if open_ < 0:
            if text[pos:].strip():
                skipped.append(text[pos:].strip()[:40])
            break
        close = text.find("}", open_)
        if close < 0:
            skipped.append(text[pos:].strip()[:40])
            break
        head, body = text[pos:open_].strip(), text[open_ + 1:close]
        pos = close + 1
        if head.startswith("@"):
            if "{" in body or text.find("{", open_ + 1) < close:  # @media { rule { } }: skip the block
                depth, i = 1, open_ + 1
                while i < len(text) and depth:
                    depth += {"{": 1, "}": -1}.get(text[i], 0)
                    i += 1
                pos = i
            skipped.append(head[:40])
            continue
        decls = declarations(body)
        for sel in head.split(","):
            sel = sel.strip()
            m = _SIMPLE_SELECTOR_RE.match(sel)
            if not sel or not m:
                skipped.append(sel[:40] or "(empty selector)")
                continue
            tag = m.group(1) if m.group(1) and m.group(1) != "*" else None
            classes, ident = [], None
            for part in re.findall(r"[.#][\w-]+", m.group(2)):
                if part[0] == ".":
                    classes.append(part[1:])
                else:
                    ident = part[1:]
            spec = (1 if ident else 0, len(classes), 1 if tag else 0)
            rules.append(((tag, tuple(classes), ident), spec, order, decls))
            order += 1
    return rules, skipped
