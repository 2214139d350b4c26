"""A `Canvas` is one face drawn by a game's code (and a rulebook's diagram): user units are mm, the origin is the
top-left corner of the trim, and the viewBox also covers the bleed, so art that must reach the cut edge is drawn
from -bleed to size+bleed. Output is deterministic: no ids, no dates, fixed number formatting.

The SVG text is written here, as svgwrite wrote it through ElementTree (the same bytes: attributes sorted, those
without a value left out, `_` in names as `-`, ElementTree's escaping and empty elements): svgwrite, no longer
developed, spent 13 % of a build's CPU building and serialising these few primitives (tests/test_svg_canvas.py
keeps it as the reference the text is compared with).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pnp.units import fmt_mm

FONT_FAMILY = "DejaVu Sans"
Point = tuple[float, float]


def _round(points: Iterable[Point]) -> list[Point]:
    """Points rounded to a micrometre: stable text across platforms, far below print precision."""
    return [(_r(x), _r(y)) for x, y in points]


def _r(v: float) -> float | int:
    v = round(v, 3) + 0.0  # + 0.0 turns -0.0 into 0.0
    return int(v) if v.is_integer() else v


def _style(fill: str | None, stroke: str | None, stroke_width: float | None, extra: dict | None = None) -> dict:
    attrs: dict[str, str] = {"fill": fill or "none"}
    if stroke:
        attrs["stroke"] = stroke
        attrs["stroke-width"] = fmt_mm(stroke_width if stroke_width is not None else 0.3)
        attrs["stroke-linejoin"] = "round"
    if extra:
        attrs.update(extra)
    return attrs


_ATTR = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\r": "&#13;", "\n": "&#10;",
                       "\t": "&#09;"})  # (ElementTree's escaping of attribute values)
_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})  # (and of text)
_NAMES: dict[str, str] = {}  # a keyword's name -> its attribute's name (stroke_width -> stroke-width, class_ -> class)


def _name(key: str) -> str:
    name = _NAMES.get(key)
    if name is None:
        name = _NAMES[key] = key.rstrip("_").replace("_", "-")
    return name


def _element(tag: str, attrs: dict, given: dict | None = None, body: str = "") -> str:
    """One element: `given` (keywords, named as attributes) then `attrs` (which win), sorted by name; a value that
    is None or writes as "" is left out."""
    if given:
        attrs = {**{_name(k): v for k, v in given.items()}, **attrs}
    parts = [f"<{tag}"]
    for name, value in sorted(attrs.items()):
        if value is not None:
            text = value if isinstance(value, str) else str(value)
            if text:
                parts.append(f' {name}="{text.translate(_ATTR)}"')
    parts.append(f">{body}</{tag}>" if body else " />")
    return "".join(parts)


class Canvas:
    """An SVG face in mm. Drawing methods mirror the few primitives components need."""

    def __init__(self, width: float, height: float, bleed: float = 0.0):
        self.width, self.height, self.bleed = width, height, bleed
        full_w, full_h = width + 2 * bleed, height + 2 * bleed
        self._root = {"baseProfile": "full", "height": f"{fmt_mm(full_h)}mm", "version": "1.1",
                      "viewBox": ",".join(str(v) for v in (-bleed, -bleed, full_w, full_h)),
                      "width": f"{fmt_mm(full_w)}mm", "xmlns": "http://www.w3.org/2000/svg",
                      "xmlns:ev": "http://www.w3.org/2001/xml-events", "xmlns:xlink": "http://www.w3.org/1999/xlink"}
        self._stack: list[list[str]] = [["<defs />"]]  # the elements written into the root, then each open group

    def _add(self, element: str) -> None:
        self._stack[-1].append(element)

    # --- structure -------------------------------------------------------------------
    def group(self, transform: str | None = None, **attrs: str) -> "_Group":
        return _Group(self, {"transform": transform} if transform else {}, attrs)

    # --- primitives ------------------------------------------------------------------
    def rect(self, x, y, w, h, fill=None, stroke=None, stroke_width=None, rx: float = 0, **extra) -> None:
        attrs = {"x": fmt_mm(x), "y": fmt_mm(y), "width": fmt_mm(w), "height": fmt_mm(h)}
        if rx:
            attrs["rx"] = fmt_mm(rx)
        self._add(_element("rect", attrs, _style(fill, stroke, stroke_width, extra)))

    def polygon(self, points: Sequence[Point], fill=None, stroke=None, stroke_width=None, **extra) -> None:
        self._add(_element("polygon", {"points": _points(points)}, _style(fill, stroke, stroke_width, extra)))

    def polyline(self, points: Sequence[Point], stroke="black", stroke_width=0.3, **extra) -> None:
        self._add(_element("polyline", {"points": _points(points)}, _style(None, stroke, stroke_width, extra)))

    def line(self, a: Point, b: Point, stroke="black", stroke_width=0.3, **extra) -> None:
        given = _style(None, stroke, stroke_width, extra)
        given.pop("fill")
        self._add(_element("line", {"x1": fmt_mm(a[0]), "y1": fmt_mm(a[1]), "x2": fmt_mm(b[0]), "y2": fmt_mm(b[1])},
                           given))

    def circle(self, center: Point, r: float, fill=None, stroke=None, stroke_width=None, **extra) -> None:
        self._add(_element("circle", {"cx": fmt_mm(center[0]), "cy": fmt_mm(center[1]), "r": fmt_mm(r)},
                           _style(fill, stroke, stroke_width, extra)))

    def path(self, d: str, fill=None, stroke=None, stroke_width=None, **extra) -> None:
        self._add(_element("path", {"d": d}, _style(fill, stroke, stroke_width, extra)))

    def text(self, x: float, y: float, text: str, size: float = 4.0, anchor: str = "start",
             weight: str = "normal", fill: str = "black", **extra) -> None:
        """Text with its baseline at y; size is the font size in mm."""
        attrs = {"x": fmt_mm(x), "y": fmt_mm(y)}
        if weight != "normal":
            attrs["font-weight"] = weight
        given = {"fill": fill, "font-family": FONT_FAMILY, "font-size": fmt_mm(size), "text-anchor": anchor, **extra}
        self._add(_element("text", attrs, given, str(text).translate(_TEXT)))

    # --- output ----------------------------------------------------------------------
    def to_string(self) -> str:
        body = "".join(self._stack[0])
        return f'<?xml version="1.0" encoding="utf-8"?>\n{_element("svg", self._root, body=body)}\n'


def _points(points: Sequence[Point]) -> str:
    return " ".join(f"{x},{y}" for x, y in _round(points))


class _Group:
    """`with canvas.group(transform=...):` draws into an SVG group."""

    def __init__(self, canvas: Canvas, attrs: dict, given: dict):
        self._canvas, self._attrs, self._given = canvas, attrs, given

    def __enter__(self) -> Canvas:
        self._canvas._stack.append([])
        return self._canvas

    def __exit__(self, *exc) -> None:
        body = "".join(self._canvas._stack.pop())
        self._canvas._add(_element("g", self._attrs, self._given, body))


def wrap_fragment(fragment: str, width: float, height: float, bleed: float) -> str:
    """A templated SVG fragment (drawn in mm, origin at the trim corner) inside a root <svg> of the face's size."""
    full_w, full_h = width + 2 * bleed, height + 2 * bleed
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{fmt_mm(full_w)}mm" height="{fmt_mm(full_h)}mm" '
        f'viewBox="{fmt_mm(-bleed)} {fmt_mm(-bleed)} {fmt_mm(full_w)} {fmt_mm(full_h)}" '
        f'font-family="{FONT_FAMILY}">\n{fragment.strip()}\n</svg>\n'
    )
