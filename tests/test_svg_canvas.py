"""pnp.render.svg writes the SVG text of the faces and diagrams drawn on a Canvas itself, byte for byte as svgwrite
(no longer developed, and 13 % of a build's CPU) wrote it: compared here with the Canvas as it was written with
svgwrite, on every primitive and on drawings hypothesis makes up (texts with markup characters, extra
attributes, nested groups)."""

from __future__ import annotations

from collections.abc import Sequence

import svgwrite
from hypothesis import given, settings, strategies as st

from pnp.render.svg import FONT_FAMILY, Canvas, Point, _round, _style
from pnp.units import fmt_mm


class SvgwriteCanvas:
    """pnp.render.svg.Canvas as it was written with svgwrite (until 2026-12): the reference."""

    def __init__(self, width: float, height: float, bleed: float = 0.0):
        self.width, self.height, self.bleed = width, height, bleed
        full_w, full_h = width + 2 * bleed, height + 2 * bleed

        self._dwg = svgwrite.Drawing(
            size=(f"{fmt_mm(full_w)}mm", f"{fmt_mm(full_h)}mm"), profile="full", debug=False
        )
        self._dwg.viewbox(-bleed, -bleed, full_w, full_h)
        self._stack = [self._dwg]

    # --- structure -------------------------------------------------------------------
    @property
    def _target(self):
        return self._stack[-1]

    def group(self, transform: str | None = None, **attrs: str) -> "_SvgwriteGroup":
        g = self._dwg.g(**({"transform": transform} if transform else {}), **attrs)
        return _SvgwriteGroup(self, g)

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


class _SvgwriteGroup:
    """`with canvas.group(transform=...):` draws into an SVG group."""

    def __init__(self, canvas: SvgwriteCanvas, element):
        self._canvas, self._el = canvas, element

    def __enter__(self) -> SvgwriteCanvas:
        self._canvas._target.add(self._el)
        self._canvas._stack.append(self._el)
        return self._canvas

    def __exit__(self, *exc) -> None:
        self._canvas._stack.pop()


def draw(canvas, ops) -> str:
    """Apply `ops` (name, args, kwargs; ("group", kwargs, ops) nests) to `canvas`."""
    for op in ops:
        if op[0] == "group":
            with canvas.group(**op[1]):
                draw(canvas, op[2])
        else:
            getattr(canvas, op[0])(*op[1], **op[2])
    return canvas.to_string()


def both(ops, width=63.0, height=88.0, bleed=3.0) -> tuple[str, str]:
    return draw(Canvas(width, height, bleed), ops), draw(SvgwriteCanvas(width, height, bleed), ops)


def test_every_primitive_writes_what_svgwrite_wrote():
    ops = [
        ("rect", (-3, -3, 69, 94), {"fill": "#d55e00"}),
        ("rect", (4, 4, 55, 80), {"fill": "#fff", "stroke": "#333", "stroke_width": 0.4, "rx": 3}),
        ("polygon", ([(1, 2), (3.14159, 4.0001), (-0.0004, 5)],), {"fill": "red", "opacity": 0.5}),
        ("polyline", ([(0, 0), (10, 10.5)],), {"stroke_dasharray": "1,2", "stroke_linecap": "round"}),
        ("line", ((0, 0), (1.23456, -7)), {"stroke": "blue", "class_": "mark"}),
        ("circle", ((31.5, 40), 12), {"fill": None, "stroke": "#000"}),
        ("path", ("M 0 0 L 10 10 Z",), {"fill": "#abc", "fill_rule": "evenodd"}),
        ("text", (31.5, 14, 'Salt & "Pepper" <b>'), {"size": 6, "anchor": "middle", "weight": "bold"}),
        ("text", (1, 2, ""), {}),
        ("text", (1, 2, "line\none\ttab é ★"), {"font_style": "italic", "letter_spacing": 0}),
        ("group", {"transform": "rotate(30 10 10)", "opacity": "0.5"}, [
            ("rect", (0, 0, 1, 1), {}),
            ("group", {}, []),
        ]),
        ("group", {}, []),
        ("rect", (0, 0, 1, 1), {"stroke_width": None, "data_x": 'a"b\nc\r\t&<>'}),
    ]
    new, old = both(ops)
    assert new == old
    assert new.startswith('<?xml version="1.0" encoding="utf-8"?>\n<svg baseProfile="full" height="94mm"')
    assert Canvas(10, 10).to_string() == SvgwriteCanvas(10, 10).to_string()  # no bleed: viewBox -0.0,-0.0,...
    assert Canvas(10, 10, bleed=0).to_string() == SvgwriteCanvas(10, 10, bleed=0).to_string()


_text = st.text(st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from("&<>\"'\n\t\r"), max_size=12)
_num = st.floats(-500, 500, allow_nan=False, allow_infinity=False) | st.integers(-500, 500)
_colour = st.sampled_from([None, "", "none", "#000", "red", "url(#x)"])
_extra = st.dictionaries(st.sampled_from(["opacity", "stroke_dasharray", "class_", "font_style", "data_v"]),
                         st.one_of(st.none(), _text, _num), max_size=2)
_point = st.tuples(_num, _num)
_leaf = st.one_of(
    st.tuples(st.just("rect"), st.tuples(_num, _num, _num, _num),
              st.fixed_dictionaries({"fill": _colour, "stroke": _colour, "rx": _num}).map(dict)),
    st.tuples(st.just("polygon"), st.tuples(st.lists(_point, min_size=1, max_size=4)),
              st.fixed_dictionaries({"fill": _colour, "stroke": _colour, "stroke_width": st.none() | _num})),
    st.tuples(st.just("polyline"), st.tuples(st.lists(_point, min_size=1, max_size=4)), _extra),
    st.tuples(st.just("line"), st.tuples(_point, _point), _extra),
    st.tuples(st.just("circle"), st.tuples(_point, _num), st.fixed_dictionaries({"fill": _colour})),
    st.tuples(st.just("path"), st.tuples(_text), _extra),
    st.tuples(st.just("text"), st.tuples(_num, _num, _text),
              st.fixed_dictionaries({"size": _num, "anchor": st.sampled_from(["start", "middle", "end"]),
                                     "weight": st.sampled_from(["normal", "bold"]), "fill": _text})),
)
_ops = st.recursive(st.lists(_leaf, max_size=4),
                    lambda inner: st.lists(st.one_of(_leaf, st.tuples(st.just("group"), st.fixed_dictionaries(
                        {"transform": st.none() | _text}), inner)), max_size=4), max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(_ops, _num, _num, st.sampled_from([0, 0.0, 3.0, 2.5]))
def test_any_drawing_writes_what_svgwrite_wrote(ops, width, height, bleed):
    new, old = both(ops, width, height, bleed)
    assert new == old
