"""Ink saving, as print-and-play publishers do it: large fills lightened, lines and text kept, still vector.

    saver = ink_saver(compiled)            # a new Compiled, drawn like any other

Works on the compiled operations (see compiler.py), so every face of every design gets it with no
change to its art, and the result is as vector as the original:

1. Every filled path is measured in the face's box (its bounding box after the transforms, as a
   share of the face's area). A colour that fills a *large* shape (>= `large`, 15% of the face:
   a background, a panel) is a background colour of that face.
2. Every fill of a background colour is lightened toward white by `amount` (0.8), whatever the
   shape's size, so shapes drawn in the background colour to look like holes stay holes; other
   fills (small symbols, pips, coloured marks that carry information) are kept as they are.
   Lightening keeps the order of lightness, so zones that differed still differ.
3. Strokes and text keep their colours, except light ones drawn over a lightened background
   (gold or white lettering on a navy back): they take the background's old dark colour, so they
   stay readable on its new light one.

Raster images and gradients are left as they are (gradients are rare on faces; a picture is art).
"""

from __future__ import annotations

from dataclasses import replace

from pnp.render.svgpdf.compiler import Compiled

LARGE = 0.15
AMOUNT = 0.8
LIGHT = 0.6  # luminance above which a text or line colour counts as light
_FILLS = {"f", "f*", "B", "B*"}
_STROKES = {"S", "B", "B*"}
_TAKES = {"M": 2, "L": 2, "C": 6, "Z": 0, "R": 4}


def ink_saver(compiled: Compiled, *, amount: float = AMOUNT, large: float = LARGE) -> Compiled:
    """`compiled` with its background colours lightened (see the module's text); nested SVG images too."""
    ops = compiled.ops
    area = max(compiled.width * compiled.height, 1e-9)
    shapes = list(_filled(ops))
    backgrounds = {colour for colour, box in shapes if _area(box) / area >= large and _luminance(colour) < 0.92}
    svgs = {k: ink_saver(v, amount=amount, large=large) for k, v in compiled.svgs.items()}
    if not backgrounds:
        return replace(compiled, svgs=svgs) if svgs else compiled
    return replace(compiled, ops=tuple(_rewrite(ops, backgrounds, amount)), svgs=svgs)


def lighten(colour: tuple[float, float, float], amount: float = AMOUNT) -> tuple[float, float, float]:
    """`colour` moved toward white by `amount` (0 unchanged, 1 white)."""
    r, g, b = (round(c + (1.0 - c) * amount, 4) for c in colour)
    return (r, g, b)


def _luminance(colour) -> float:
    r, g, b = colour
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _mul(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    # PDF's `cm`: the new matrix n applies first, then the current m
    return (a2 * a + b2 * c, a2 * b + b2 * d, c2 * a + d2 * c, c2 * b + d2 * d,
            e2 * a + f2 * c + e, e2 * b + f2 * d + f)


def _points(letters: str, nums):
    i = 0
    for k in letters:
        n = _TAKES.get(k, 0)
        v = nums[i:i + n]
        i += n
        if k == "R":
            x, y, w, h = v
            yield from ((x, y), (x + w, y), (x, y + h), (x + w, y + h))
        else:
            for j in range(0, n, 2):
                yield v[j], v[j + 1]


def _box(ctm, letters: str, nums):
    a, b, c, d, e, f = ctm
    xs, ys = [], []
    for x, y in _points(letters, nums):
        xs.append(a * x + c * y + e)
        ys.append(b * x + d * y + f)
    if not xs:
        return None
    return (min(xs), min(ys), max(xs), max(ys))


def _area(box) -> float:
    return 0.0 if box is None else (box[2] - box[0]) * (box[3] - box[1])


def _filled(ops):
    """(fill colour, device box) of every filled path, in drawing order."""
    ctm, fill, stack = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), (0.0, 0.0, 0.0), []
    for op in ops:
        k = op[0]
        if k == "q":
            stack.append((ctm, fill))
        elif k == "Q":
            if stack:
                ctm, fill = stack.pop()
        elif k == "cm":
            ctm = _mul(ctm, op[1:7])
        elif k == "rg":
            fill = tuple(op[1:4])
        elif k == "path" and op[3] in _FILLS:
            yield fill, _box(ctm, op[1], op[2])


def _under(regions, x: float, y: float):
    """The last filled region drawn under (x, y): (box, original colour, lightened)."""
    for box, colour, lightened in reversed(regions):
        if box is not None and box[0] <= x <= box[2] and box[1] <= y <= box[3]:
            return colour, lightened
    return None, False


def _rewrite(ops, backgrounds: set, amount: float) -> list:
    out: list = []
    ctm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    fill = stroke = (0.0, 0.0, 0.0)
    shown_fill = shown_stroke = None  # what the PDF's state holds (None: not set by us yet)
    stack: list = []
    regions: list = []

    def readable(colour, x, y):
        if _luminance(colour) <= LIGHT:
            return colour
        under, lightened = _under(regions, x, y)
        return under if lightened else colour

    def at(px, py):
        a, b, c, d, e, f = ctm
        return a * px + c * py + e, b * px + d * py + f

    for op in ops:
        k = op[0]
        if k == "q":
            stack.append((ctm, fill, stroke, shown_fill, shown_stroke))
            out.append(op)
        elif k == "Q":
            if stack:
                ctm, fill, stroke, shown_fill, shown_stroke = stack.pop()
            out.append(op)
        elif k == "cm":
            ctm = _mul(ctm, op[1:7])
            out.append(op)
        elif k == "rg":
            fill = tuple(op[1:4])
        elif k == "RG":
            stroke = tuple(op[1:4])
        elif k == "path":
            paint = op[3]
            box = _box(ctm, op[1], op[2])
            if paint in _FILLS:
                want = lighten(fill, amount) if fill in backgrounds else fill
                if want != shown_fill:
                    out.append(("rg", *want))
                    shown_fill = want
            if paint in _STROKES:
                cx, cy = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2) if box else (0.0, 0.0)
                want = readable(stroke, cx, cy)
                if want != shown_stroke:
                    out.append(("RG", *want))
                    shown_stroke = want
            out.append(op)
            if paint in _FILLS:
                regions.append((box, fill, fill in backgrounds))
        elif k == "text":
            want = readable(fill, *at(op[3], op[4]))
            if want != shown_fill:
                out.append(("rg", *want))
                shown_fill = want
            out.append(op)
        else:
            out.append(op)
    return out
