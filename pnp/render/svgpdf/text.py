"""<text> and <tspan>: XML white space, per-character x/y/dx/dy, text chunks, anchors, baselines.

Each text element becomes runs of characters that share a style and continue one another;
the runs of one text chunk (a stretch that starts at an absolute x or y) are shifted together
for text-anchor, measured with the font's own advance widths (the embedded font, via
ReportLab's stringWidth). Each run is drawn character by character with the first font of its chain
that has the character (pnp.render.fonts.chain and split: a run becomes one text operation per font);
a character no font has is drawn as a white square and warned about, once per line of the SVG.
"""

from __future__ import annotations

import functools
import re
import struct

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth

from pnp.render import fonts
from pnp.render.svgpdf import values as V
from pnp.render.svgpdf.compiler import (
    _CA_ONE,
    _CAS_ONE,
    _UNSUPPORTED,
    _alpha_op,
    _colour_op,
    _Ctx,
    _local,
    _r,
    _TextPos,
)

_WS_RE = re.compile(r"[\n\r\t]")
_SPACES_RE = re.compile(r"  +")


@functools.lru_cache(maxsize=64)
def metrics(font: str) -> tuple[float, float, float]:
    """(ascent, descent, x-height) of a registered TrueType font, in em: hhea ascender and
    descender (what cairo and browsers use for baselines), x-height from the glyph 'x'."""
    face = pdfmetrics.getFont(font).face
    try:
        upm = face.unitsPerEm
        hhea = face.get_table("hhea")
        asc, desc = struct.unpack(">hh", hhea[4:8])
        xh = _glyph_top(face, "x") or 0.53 * asc
        return asc / upm, -desc / upm, xh / upm
    except Exception:  # not a TrueType face we can read: ReportLab's own numbers
        return face.ascent / 1000, -face.descent / 1000, 0.5 * face.ascent / 1000


def _glyph_top(face, char: str) -> int | None:
    gid = face.charToGlyph.get(ord(char))
    if gid is None:
        return None
    long_loca = struct.unpack(">h", face.get_table("head")[50:52])[0] == 1
    loca = face.get_table("loca")
    if long_loca:
        start = struct.unpack(">L", loca[gid * 4:gid * 4 + 4])[0]
    else:
        start = struct.unpack(">H", loca[gid * 2:gid * 2 + 2])[0] * 2
    glyf = face.get_table("glyf")
    return struct.unpack(">h", glyf[start + 8:start + 10])[0]


def _baseline_shift(baseline: str, font: str, size: float) -> float:
    """How far down (user units) the alphabetic baseline moves for a dominant-/alignment-baseline."""
    if baseline in ("auto", "alphabetic", "baseline", "use-script", "no-change", "reset-size", "inherit", ""):
        return 0.0
    asc, desc, xh = metrics(font)
    if baseline == "central":
        return (asc - desc) / 2 * size
    if baseline == "middle":
        return xh / 2 * size
    if baseline == "mathematical":
        return asc / 2 * size
    if baseline in ("hanging", "text-before-edge", "before-edge", "text-top"):
        return asc * size
    if baseline in ("text-after-edge", "after-edge", "text-bottom", "ideographic"):
        return -desc * size
    return 0.0


@functools.lru_cache(maxsize=2048)
def _length_list(raw: str) -> tuple | None:
    out = []
    for part in re.split(r"[\s,]+", raw.strip()):
        v = V.length_parts(part)
        if v is None:
            return None
        out.append(v)
    return tuple(out)


def _list(comp, el, name: str, ctx: _Ctx, st: dict, axis: str) -> list[float]:
    raw = el.get(name)
    if raw is None or not raw.strip():
        return []
    parts = _length_list(raw)
    if parts is None:
        comp.warn(el, f'{name}="{raw}" is not valid; expected lengths separated by spaces', error=True, attr=name)
        return []
    if all(not u for _, u in parts):
        return [v for v, _ in parts]
    c = ctx.child(st=st)
    return [comp.user(p, c, axis) for p in parts]


def _collect(comp, el, ctx: _Ctx, st: dict, alpha: float, baseline: str, chain: tuple, out: list) -> None:
    pos = _TextPos(_list(comp, el, "x", ctx, st, "x"), _list(comp, el, "y", ctx, st, "y"),
                   _list(comp, el, "dx", ctx, st, "x"), _list(comp, el, "dy", ctx, st, "y"))
    for attr in ("rotate", "textLength"):
        if el.get(attr) is not None:
            comp.warn(el, f"{attr} on text is not supported: ignored", attr=attr)
    chain = chain + (pos,)
    if el.text:
        out.append((chain, el.text, st, alpha, baseline))
    for child in el:
        tag = _local(child.tag)
        if tag in ("tspan", "a"):
            cst, local = comp.style(child, tag, st)
            if local.get("display") != "none":
                calpha = alpha * local.get("opacity", 1.0)
                cbase = local.get("alignment-baseline") or cst["dominant-baseline"]
                _collect(comp, child, ctx, cst, calpha, cbase, chain, out)
        elif tag is not None:
            comp.warn(child, f"<{tag}> inside <text>: {_UNSUPPORTED.get(tag, 'not drawn')}")
        if child.tail:
            out.append((chain, child.tail, st, alpha, baseline))


def layout(comp, el, ctx: _Ctx) -> None:
    if not len(el) and el.get("dx") is None and el.get("dy") is None and el.get("rotate") is None \
            and el.get("textLength") is None:
        return _simple(comp, el, ctx)
    return _general(comp, el, ctx)


def _general(comp, el, ctx: _Ctx) -> None:
    segments: list = []
    base = ctx.st["dominant-baseline"]
    _collect(comp, el, ctx, ctx.st, ctx.alpha, base, (), segments)
    if not segments:
        return
    # XML white space: newlines and tabs become spaces, runs of spaces collapse to one (also
    # across element boundaries), leading and trailing spaces of the whole text go;
    # xml:space="preserve" keeps every space.
    texts = []
    prev_space = True
    for chain, raw, st, alpha, baseline in segments:
        if st["xml:space"] == "preserve":
            t = _WS_RE.sub(" ", raw)
            prev_space = t.endswith(" ") if t else prev_space
        else:
            t = _SPACES_RE.sub(" ", _WS_RE.sub(" ", raw))
            if prev_space and t.startswith(" "):
                t = t[1:]
            if t:
                prev_space = t.endswith(" ")
        texts.append(t)
    for i in range(len(texts) - 1, -1, -1):
        if segments[i][2]["xml:space"] == "preserve":
            break
        if texts[i]:
            texts[i] = texts[i].rstrip(" ")
            if texts[i]:
                break
    # runs: characters that take a new position (x, y, dx, dy) start a run of their own
    runs: list[list] = []
    for (chain, _raw, st, alpha, baseline), t in zip(segments, texts):
        j, n = 0, len(t)
        while j < n:
            k = max(p.left() for p in chain)
            if k > 0:
                x = y = None
                dx = dy = 0.0
                have_dx = have_dy = False
                for p in reversed(chain):
                    i = p.i
                    if x is None and i < len(p.xs):
                        x = p.xs[i]
                    if y is None and i < len(p.ys):
                        y = p.ys[i]
                    if not have_dx and i < len(p.dxs):
                        dx, have_dx = p.dxs[i], True
                    if not have_dy and i < len(p.dys):
                        dy, have_dy = p.dys[i], True
                for p in chain:
                    p.i += 1
                piece = t[j]
                j += 1
            else:
                x = y = None
                dx = dy = 0.0
                piece = t[j:]
                for p in chain:
                    p.i += n - j
                j = n
            if (runs and x is None and y is None and dx == 0 and dy == 0 and runs[-1][0] is st
                    and runs[-1][6] == alpha and runs[-1][7] == baseline):
                runs[-1][1] += piece
            else:
                runs.append([st, piece, x, y, dx, dy, alpha, baseline])
    if not runs:
        return
    chunks: list[list] = []
    cx = cy = 0.0
    for st, piece, x, y, dx, dy, alpha, baseline in runs:
        if x is not None or y is not None or not chunks:
            if x is not None:
                cx = x
            if y is not None:
                cy = y
            chunks.append([])
        cx += dx
        cy += dy
        fonts = comp.chain(st["font-family"], st["font-weight"], st["font-style"])
        size = st["font-size"]
        ls = comp.user(st["letter-spacing"], ctx.child(st=st)) if st["letter-spacing"] else 0.0
        if st["word-spacing"] and st["word-spacing"][0]:
            comp.warn(el, "word-spacing is not supported: ignored", attr="word-spacing")
        pieces = _runs(comp, el, piece, fonts, st["visibility"]) if size > 0 else ((fonts[0], piece),)
        adv = _runs_width(pieces, size, ls) if size > 0 else 0.0
        chunks[-1].append((st, piece, cx, cy, fonts[0], size, ls, adv, alpha, baseline, pieces))
        cx += adv
    for chunk in chunks:
        anchor = chunk[0][0]["text-anchor"]
        shift = 0.0
        if anchor != "start":
            last = chunk[-1]
            width = last[2] + last[7] - last[6] - chunk[0][2]
            shift = -width if anchor == "end" else -width / 2
        for st, piece, x, y, font, size, ls, adv, alpha, baseline, pieces in chunk:
            if size <= 0 or not st["visibility"] or not piece.strip(" "):
                continue
            _emit(comp, el, st, ctx, pieces, x + shift, y + _baseline_shift(baseline, font, size), size, ls, alpha)


def _single(comp, el, name: str, ctx: _Ctx, st: dict, axis: str) -> float | None:
    """A one-value x or y (the common case) quickly; None when absent or a list."""
    raw = el.get(name)
    if raw is None:
        return 0.0
    v = V.length_parts(raw)
    if v is None:
        return None
    return v[0] if not v[1] else comp.user(v, ctx, axis)


def _simple(comp, el, ctx: _Ctx) -> None:
    """A <text> with no children and at most single x and y: one run, one chunk."""
    st = ctx.st
    raw = el.text
    if not raw:
        return
    if st["xml:space"] == "preserve":
        t = _WS_RE.sub(" ", raw)
    elif "\n" in raw or "\t" in raw or "\r" in raw or "  " in raw or raw[0] == " " or raw[-1] == " ":
        t = _SPACES_RE.sub(" ", _WS_RE.sub(" ", raw)).strip(" ")
    else:
        t = raw
    if not t.strip(" ") or not st["visibility"]:
        return
    x, y = _single(comp, el, "x", ctx, st, "x"), _single(comp, el, "y", ctx, st, "y")
    if x is None or y is None:
        return _general(comp, el, ctx)
    size = st["font-size"]
    if size <= 0:
        return
    fonts = comp.chain(st["font-family"], st["font-weight"], st["font-style"])
    font = fonts[0]
    runs = _runs(comp, el, t, fonts)
    ls = comp.user(st["letter-spacing"], ctx) if st["letter-spacing"] else 0.0
    anchor = st["text-anchor"]
    if anchor != "start":
        if len(runs) == 1:
            width = _string_width(runs[0][1], runs[0][0], size) + ls * (len(runs[0][1]) - 1)
        else:
            width = _runs_width(runs, size, ls) - ls
        x -= width if anchor == "end" else width / 2
    base = st["dominant-baseline"]
    if base != "auto":
        y += _baseline_shift(base, font, size)
    if st["word-spacing"] and st["word-spacing"][0]:
        comp.warn(el, "word-spacing is not supported: ignored", attr="word-spacing")
    _emit(comp, el, st, ctx, runs, x, y, size, ls, ctx.alpha)


def _runs(comp, el, text: str, chain: tuple[str, ...], drawn: bool = True):
    """`text` as (font, characters) runs along the chain of fonts `chain`; each character no font has is drawn as the
    placeholder and, in `drawn` text (not hidden), warned about once per <text> line of the SVG."""
    runs, missing = fonts.split(text, chain)
    if missing and drawn:
        line = comp._line(el, None)
        for ch in missing:
            if (line, ch) not in comp.missing:
                comp.missing[line, ch] = None
                comp.warn(el, missing_message(ch))
    return runs


def missing_message(ch: str) -> str:
    """The warning about a character that no font of its text's chain has."""
    return (f"no font has {fonts.describe(ch)}: printed as a white square ({fonts.PLACEHOLDER}); expected a font "
            "that has it in the design's fonts: section (docs/design-format.md, \"Fonts and scripts\")")


def _runs_width(runs, size: float, ls: float) -> float:
    """The advance of the runs: their fonts' widths and the letter spacing after every character."""
    if len(runs) == 1:
        font, piece = runs[0]
        return _string_width(piece, font, size) + ls * len(piece)
    return sum(_string_width(piece, font, size) + ls * len(piece) for font, piece in runs)


def _emit(comp, el, st, ctx, runs, x, y, size, ls, alpha) -> None:
    fp, sp = st["fill"], st["stroke"]
    fill = fp[1] if fp[0] == "colour" else None if fp[0] == "none" else _solid(comp, el, st, "fill")
    stroke = sp[1] if sp[0] == "colour" else None if sp[0] == "none" else _solid(comp, el, st, "stroke")
    sw = 0.0
    if stroke is not None:
        w = st["stroke-width"]
        sw = w[0] if not w[1] else comp.user(w, ctx, "xy")
    fa, sa = st["fill-opacity"] * alpha, st["stroke-opacity"] * alpha
    if fill is not None and fill[3] * fa <= 0:
        fill = None
    if stroke is not None and (sw <= 0 or stroke[3] * sa <= 0):
        stroke = None
    if fill is None and stroke is None:
        return
    gs, ops = comp.gs, comp.ops
    if fill is not None:
        for op in (fp[2] if fp[0] == "colour" else _colour_op("rg", fill),
                   _CA_ONE if fill[3] * fa == 1.0 else _alpha_op("ca", fill[3] * fa)):
            if gs.get(op[0]) != op:
                gs[op[0]] = op
                ops.append(op)
    if stroke is not None:
        for op in (sp[3] if sp[0] == "colour" else _colour_op("RG", stroke),
                   _CAS_ONE if stroke[3] * sa == 1.0 else _alpha_op("CA", stroke[3] * sa)):
            if gs.get(op[0]) != op:
                gs[op[0]] = op
                ops.append(op)
        comp._line_style(st, ctx, sw)
    mode = _TR[2 if fill is not None and stroke is not None else 0 if fill is not None else 1]
    if gs.get("Tr") != mode:
        gs["Tr"] = mode
        ops.append(mode)
    tc = _TC0 if not ls else ("Tc", _r(ls))
    if gs.get("Tc") != tc:
        gs["Tc"] = tc
        ops.append(tc)
    last = len(runs) - 1
    for i, (font, piece) in enumerate(runs):
        comp.fonts.add(font)
        ops.append(("text", font, _r(size), _r(x), _r(y), piece))
        if i < last:
            x += _string_width(piece, font, size) + ls * len(piece)


_TR = (("Tr", 0), ("Tr", 1), ("Tr", 2))
_TC0 = ("Tc", 0.0)


def _string_width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size)


def _solid(comp, el, st, prop):
    p = comp._paint_colour(el, st[prop], st, prop)
    if p is not None and p[0] == "grad":
        return comp.first_stop(el, p[1], prop, "text")
    return p
