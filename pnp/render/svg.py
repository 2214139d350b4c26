"""The one module that imports svgwrite (it is no longer developed; keep it replaceable).

A `Canvas` is one face: user units are mm, the origin is the top-left corner of the
trim, and the viewBox also covers the bleed, so art that must reach the cut edge is
drawn from -bleed to size+bleed. Output is deterministic: no ids, no dates, fixed
number formatting.
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


class Canvas:
    """An SVG face in mm. Drawing methods mirror the few primitives components need."""

    def __init__(self, width: float, height: float, bleed: float = 0.0):
        self.width, self.height, self.bleed = width, height, bleed
        full_w, full_h = width + 2 * bleed, height + 2 * bleed
        import svgwrite  # here, not at import: a data-table deck never draws on a Canvas (35 ms of parsing grammar)

        self._dwg = svgwrite.Drawing(
            size=(f"{fmt_mm(full_w)}mm", f"{fmt_mm(full_h)}mm"), profile="full", debug=False
        )
        self._dwg.viewbox(-bleed, -bleed, full_w, full_h)
        self._stack = [self._dwg]

    # --- structure -------------------------------------------------------------------
    @property
    def _target(self):
        return self._stack[-1]

    def group(self, transform: str | None = None, **attrs: str) -> "_Group":
        g = self._dwg.g(**({"transform": transform} if transform else {}), **attrs)
        return _Group(self, g)

    # --- primitives ------------------------------------------------------------------
    def rect(self, x, y, w, h, fill=None, stroke=None, stroke_width=None, rx: float = 0, **extra) -> None:
        attrs = _style(fill, stroke, stroke_width, extra)
        el = self._dwg.rect(insert=(fmt_mm(x), fmt_mm(y)), size=(fmt_mm(w), fmt_mm(h)), **attrs)
        if rx:
            el["rx"] = fmt_mm(rx)
        self._target.add(el)

    def polygon(self, points: Sequence[Point], fill=None, stroke=None, stroke_width=None, **extra) -> None:
        self._target.add(self._dwg.polygon(points=_round(points), **_style(fill, stroke, stroke_width, extra)))

    def polyline(self, points: Sequence[Point], stroke="black", stroke_width=0.3, **extra) -> None:
        self._target.add(self._dwg.polyline(points=_round(points), **_style(None, stroke, stroke_width, extra)))

    def line(self, a: Point, b: Point, stroke="black", stroke_width=0.3, **extra) -> None:
        attrs = _style(None, stroke, stroke_width, extra)
        attrs.pop("fill")
        self._target.add(
            self._dwg.line(start=(fmt_mm(a[0]), fmt_mm(a[1])), end=(fmt_mm(b[0]), fmt_mm(b[1])), **attrs)
        )

    def circle(self, center: Point, r: float, fill=None, stroke=None, stroke_width=None, **extra) -> None:
        self._target.add(
            self._dwg.circle(center=(fmt_mm(center[0]), fmt_mm(center[1])), r=fmt_mm(r),
                             **_style(fill, stroke, stroke_width, extra))
        )

    def path(self, d: str, fill=None, stroke=None, stroke_width=None, **extra) -> None:
        self._target.add(self._dwg.path(d=d, **_style(fill, stroke, stroke_width, extra)))

    def text(self, x: float, y: float, text: str, size: float = 4.0, anchor: str = "start",
             weight: str = "normal", fill: str = "black", **extra) -> None:
        """Text with its baseline at y; size is the font size in mm."""
        el = self._dwg.text(
            text, insert=(fmt_mm(x), fmt_mm(y)), fill=fill, font_family=FONT_FAMILY,
            font_size=fmt_mm(size), text_anchor=anchor, **extra,
        )
        if weight != "normal":
            el["font-weight"] = weight
        self._target.add(el)

    # --- output ----------------------------------------------------------------------
    def to_string(self) -> str:
        return '<?xml version="1.0" encoding="utf-8"?>\n' + self._dwg.tostring() + "\n"


class _Group:
    """`with canvas.group(transform=...):` draws into an SVG group."""

    def __init__(self, canvas: Canvas, element):
        self._canvas, self._el = canvas, element

    def __enter__(self) -> Canvas:
        self._canvas._target.add(self._el)
        self._canvas._stack.append(self._el)
        return self._canvas

    def __exit__(self, *exc) -> None:
        self._canvas._stack.pop()


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
