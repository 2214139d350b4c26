"""Helpers for tests/test_svgpdf.py: render an SVG through pnp.render.svgpdf (PDF, rasterised
by pdfium) and through cairosvg (pnp.render.raster's pinned fonts), and compare the pixels.

pdfium stretches a page to whole pixels (ceil of its size at the scale) while cairo cuts it, so
our PDF page is padded to whole pixels with the face at its top-left: both images are then at
exactly the same scale and are compared on their common area.
"""

from __future__ import annotations

import io
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageStat

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "svgpdf"
DPI = 96  # one CSS px per pixel: cairosvg's absolute units (mm, in...) use its dpi, CSS uses 96


def images() -> dict[str, bytes]:
    """The raster files the image fixtures name, drawn here (flat areas: both rasterisers agree)."""
    def draw(size, mode="RGB", bg="#268bd2"):
        im = Image.new(mode, size, bg)
        d = ImageDraw.Draw(im)
        w, h = size
        d.rectangle((0, 0, w // 2 - 1, h // 2 - 1), fill="#dc322f")
        d.rectangle((w // 2, h // 2, w - 1, h - 1), fill="#859900")
        d.ellipse((w // 4, h // 4, 3 * w // 4 - 1, 3 * h // 4 - 1), fill="#fdf6e3")
        return im

    out = {}
    buf = io.BytesIO()
    draw((40, 30)).save(buf, "PNG")
    out["icon.png"] = buf.getvalue()
    buf = io.BytesIO()
    draw((48, 32)).save(buf, "JPEG", quality=95)
    out["photo.jpg"] = buf.getvalue()
    buf = io.BytesIO()
    draw((32, 32), "RGBA", (0, 0, 0, 0)).save(buf, "WEBP", lossless=True)
    out["art.webp"] = buf.getvalue()
    out["emblem.svg"] = (FIXTURES / "emblem.svg").read_bytes()
    return out


def resources(files: dict[str, bytes]):
    return files.get


def with_data_uris(svg: str, files: dict[str, bytes]) -> str:
    """The SVG with each file href replaced by a data: URI (cairosvg would read files itself)."""
    import base64

    kinds = {"png": "image/png", "jpg": "image/jpeg", "webp": "image/webp", "svg": "image/svg+xml"}

    def repl(m):
        name = m.group(2)
        if name not in files:
            return m.group(0)
        mime = kinds[name.rsplit(".", 1)[1]]
        return f'{m.group(1)}="data:{mime};base64,{base64.b64encode(files[name]).decode()}"'

    return re.sub(r'((?:xlink:)?href)="([^"#:]+)"', repl, svg)


def render_ours(svg: str, files: dict[str, bytes] | None = None, dpi: int = DPI) -> Image.Image:
    import pypdfium2 as pdfium
    from reportlab.pdfgen.canvas import Canvas

    from pnp.render import fonts
    from pnp.render.svgpdf import compile_svg, draw

    comp = compile_svg(svg, resources=resources(files or {}))
    fonts.ensure(fonts.REGULAR)
    s = dpi / 72
    w, h = math.ceil(comp.width * s) / s, math.ceil(comp.height * s) / s
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w, h), invariant=1, initialFontName=fonts.REGULAR)
    c.translate(0, h - comp.height)
    draw(comp, c)
    c.showPage()
    c.save()
    page = pdfium.PdfDocument(buf.getvalue())[0]
    return page.render(scale=s).to_pil().convert("RGB")


def svg_to_png(svg: str, dpi: int = DPI) -> bytes:
    """cairosvg's PNG of an SVG, with the fonts pnp ships (pnp/fonts/fonts.conf): the reference
    renderer svgpdf is compared with (and the PNG exports' renderer before issue 16)."""
    os.environ["FONTCONFIG_FILE"] = str(Path(__file__).resolve().parent.parent / "pnp" / "fonts" / "fonts.conf")
    from cairosvg.parser import Tree
    from cairosvg.surface import PNGSurface

    surface = PNGSurface(Tree(bytestring=svg.encode("utf-8"), unsafe=False), None, dpi)
    image = surface.cairo
    image.flush()
    pixels = Image.frombuffer("RGBA", (image.get_width(), image.get_height()), bytes(image.get_data()),
                              "raw", "BGRa", image.get_stride(), 1)  # cairo: premultiplied BGRA rows
    buf = io.BytesIO()
    pixels.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def render_cairo(svg: str, files: dict[str, bytes] | None = None, dpi: int = DPI) -> Image.Image:
    png = svg_to_png(with_data_uris(svg, files or {}), dpi=dpi)
    im = Image.open(io.BytesIO(png)).convert("RGBA")
    white = Image.new("RGBA", im.size, "white")
    white.alpha_composite(im)
    return white.convert("RGB")


def _svglib_drawing(svg: str):
    """svglib's drawing of an SVG, its fonts routed to the shipped ones (never fontconfig's)."""
    from svglib.fonts import FontMap
    from svglib.svglib import svg2rlg

    from pnp.render import fonts

    class Shipped(FontMap):
        def __init__(self) -> None:  # no base-14 defaults
            self._map, self._family_index = {}, {}

        def find_font(self, font_name, weight="normal", style="normal"):
            return fonts.resolve(font_name, weight, style), True

    fonts.register()
    return svg2rlg(io.BytesIO(svg.encode("utf-8")), font_map=Shipped())


def render_svglib(svg: str, dpi: int = DPI) -> Image.Image:
    """What pnp's sheets show today: svglib + renderPDF into a PDF, rasterised by pdfium."""
    import pypdfium2 as pdfium
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas

    from pnp.render import fonts

    d = _svglib_drawing(svg)
    s = dpi / 72
    w, h = math.ceil(d.width * s) / s, math.ceil(d.height * s) / s
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w, h), invariant=1, initialFontName=fonts.REGULAR)
    c.translate(0, h - d.height)
    renderPDF.draw(d, c, 0, 0)
    c.showPage()
    c.save()
    return pdfium.PdfDocument(buf.getvalue())[0].render(scale=s).to_pil().convert("RGB")


@dataclass
class Diff:
    mean: float  # mean absolute difference per channel, 0..255
    share: float  # share of pixels (%) where some channel differs by more than 64

    def __str__(self) -> str:
        return f"mean {self.mean:.2f}, {self.share:.2f}% of pixels off by > 64"


def compare(a: Image.Image, b: Image.Image, shift: int = 1) -> Diff:
    """Compare on the common area, each pixel of `a` with the closest of the pixels of `b` within
    `shift` pixels: antialiasing and pixel snapping of edges differ between rasterisers by up to
    a pixel and fade; a wrong colour, a missing or a misplaced shape (by a pixel or more beyond
    that) stay."""
    assert abs(a.width - b.width) <= 1 and abs(a.height - b.height) <= 1, (a.size, b.size)
    w, h = min(a.width, b.width), min(a.height, b.height)
    a, b = a.crop((0, 0, w, h)), b.crop((0, 0, w, h))
    d = None
    for dx in range(-shift, shift + 1):
        for dy in range(-shift, shift + 1):
            one = ImageChops.difference(a, ImageChops.offset(b, dx, dy))
            d = one if d is None else ImageChops.darker(d, one)
    d = d.crop((shift, shift, w - shift, h - shift))  # offset wraps around at the borders
    mean = sum(ImageStat.Stat(d).mean) / 3
    r, g, bl = d.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), bl)
    over = worst.point(lambda v: 255 if v > 64 else 0).histogram()[255]
    return Diff(mean, 100 * over / ((w - 2 * shift) * (h - 2 * shift)))


def side_by_side(a: Image.Image, b: Image.Image, path: Path) -> None:
    """Both renderings next to each other (for looking at a failure)."""
    out = Image.new("RGB", (a.width + b.width + 4, max(a.height, b.height)), "red")
    out.paste(a, (0, 0))
    out.paste(b, (a.width + 4, 0))
    out.save(path)
