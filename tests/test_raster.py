"""Raster exports from the PDF (pnp.render.raster): sizes, dpi, pixels against the art, the shipped
font, transparency of shaped pieces, Tabletop Simulator sheets, determinism and the cache."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont, ImageStat

from pnp.cache import Cache
from pnp.render import raster
from pnp.render.raster import Face, faces_pdf, raster_faces, rasterise_pdf_pages, tts_grid, tts_sheets
from pnp.render.svg import wrap_fragment

FONTS = Path(raster.__file__).resolve().parent.parent / "fonts"
POKER = (63.0, 88.0)
ORANGE = (0xd5, 0x5e, 0x00)
BLUE = (0x00, 0x72, 0xb2)


def card(fragment: str = "", colour: str = "#d55e00", size=POKER, bleed: float = 3.0) -> Face:
    """A card: the bleed area and background in `colour`, then `fragment` (mm, origin at the trim corner)."""
    w, h = size
    art = (f'<rect x="{-bleed}" y="{-bleed}" width="{w + 2 * bleed}" height="{h + 2 * bleed}" fill="{colour}"/>'
           + fragment)
    return Face(wrap_fragment(art, w, h, bleed), bleed)


def triangle() -> Face:
    """A triangle piece 30 mm wide, no bleed: transparent outside its outline."""
    h = 25.981
    art = f'<polygon points="0,{h} 30,{h} 15,0" fill="#0072b2"/>'
    return Face(wrap_fragment(art, 30, h, 0), 0.0, transparent=True)


def one(face: Face, **kw) -> Image.Image:
    [(_, data)] = list(raster_faces({"f": face}, **kw))
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def chunks(png: bytes) -> dict[bytes, bytes]:
    """{chunk type: data} of a PNG file, checking every CRC."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    out, pos = {}, 8
    while pos < len(png):
        (n,) = struct.unpack(">I", png[pos:pos + 4])
        kind, data = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + n]
        assert struct.unpack(">I", png[pos + 8 + n:pos + 12 + n])[0] == zlib.crc32(kind + data)
        out[kind] = data
        pos += 12 + n
    return out


# --- size and metadata ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dpi, trim, size", [
    (300, False, (815, 1110)),  # 69 x 94 mm: 814.96 x 1110.24 px
    (300, True, (744, 1039)),   # 63 x 88 mm: 744.09 x 1039.37 px
    (150, True, (372, 520)),    # 372.05 x 519.69 px
    (72, False, (196, 266)),    # 195.59 x 266.46 pt
])
def test_pixel_size_is_the_page_at_the_dpi_rounded_to_the_nearest_pixel(dpi, trim, size):
    assert one(card(), dpi=dpi, trim=trim).size == size


def test_half_pixels_round_up():
    assert raster.px(10.5, 72) == 11 and raster.px(10.49, 72) == 10 and raster.px(36, 300) == 150


def test_png_is_rgb_with_dpi_srgb_and_valid_crcs():
    [(_, data)] = list(raster_faces({"f": card()}))
    c = chunks(data)
    width, height, depth, colour = struct.unpack(">IIBB", c[b"IHDR"][:10])
    assert (width, height, depth, colour) == (815, 1110, 8, 2)  # 8-bit RGB
    assert struct.unpack(">IIB", c[b"pHYs"]) == (11811, 11811, 1)  # 300 dpi in pixels per metre
    assert c[b"sRGB"] == b"\x00"
    img = Image.open(io.BytesIO(data))
    assert img.mode == "RGB" and round(img.info["dpi"][0]) == 300


def test_jpeg_carries_its_dpi():
    img = one(card(), fmt="jpeg", dpi=150)
    assert img.format == "JPEG" and img.mode == "RGB" and img.info["dpi"] == (150, 150)


def test_bad_format_and_huge_pages_are_refused():
    with pytest.raises(ValueError, match="unknown image format"):
        list(raster_faces({"f": card()}, fmt="gif"))
    huge = Face(wrap_fragment('<rect width="10" height="10"/>', 3000, 3000, 0))  # 3 x 3 m at 300 dpi: 1,254 MP
    with pytest.raises(ValueError, match="over the 120 MP"):
        list(raster_faces({"f": huge}))


# --- pixels against the art -------------------------------------------------------------------------


def test_pixels_show_the_art_where_the_pdf_draws_it():
    # a 10 x 20 mm blue rectangle 10 mm right and 30 mm down from the trim corner, on orange
    img = one(card('<rect x="10" y="30" width="10" height="20" fill="#0072b2"/>'))
    per_mm = 300 / 25.4
    x0, y0 = (3 + 10) * per_mm, (3 + 30) * per_mm  # + the bleed
    x1, y1 = x0 + 10 * per_mm, y0 + 20 * per_mm
    assert img.getpixel((int(x0) + 2, int(y0) + 2)) == BLUE
    assert img.getpixel((int(x1) - 2, int(y1) - 2)) == BLUE
    assert img.getpixel((int(x0) - 2, int(y0) + 50)) == ORANGE
    assert img.getpixel((int(x1) + 2, int(y0) + 50)) == ORANGE
    assert img.getpixel((int(x0) + 50, int(y1) + 2)) == ORANGE
    assert img.getpixel((0, 0)) == ORANGE and img.getpixel((814, 1109)) == ORANGE  # the bleed, to the edge
    # the rectangle's edges are where the PDF puts them, within a pixel
    row = [img.getpixel((x, int(y0) + 100)) for x in range(img.width)]
    blue = [x for x, p in enumerate(row) if p == BLUE]
    assert abs(blue[0] - x0) <= 1 and abs(blue[-1] + 1 - x1) <= 1


def test_png_matches_pdfium_rendering_the_pdf_itself():
    """The PNG is exactly the PDF page as pdfium draws it through its public API (pypdfium2)."""
    face = card('<circle cx="31.5" cy="44" r="20" fill="#ffffff" stroke="#000" stroke-width="1"/>'
                '<text x="31.5" y="47" font-size="9" text-anchor="middle">Ace</text>')
    pdf = faces_pdf([face])
    [png] = rasterise_pdf_pages(pdf)
    mine = Image.open(io.BytesIO(png)).convert("RGB")
    page = pdfium.PdfDocument(pdf)[0]
    theirs = page.render(scale=300 / 72, rev_byteorder=True).to_pil().convert("RGB")
    # pypdfium2 sizes the bitmap by ceil() (816 x 1111) and draws at the exact scale; ours rounds to the
    # nearest pixel and stretches the page by < 0.5 px, which moves antialiased edges by a fraction of
    # a pixel: compare 5 x 5 px blocks
    w, h = mine.size
    diff = ImageChops.difference(mine.reduce(5), theirs.crop((0, 0, w, h)).reduce(5)).convert("L")
    assert diff.getextrema()[1] < 48 and ImageStat.Stat(diff).mean[0] < 1.0
    assert mine.getpixel((w // 2, 420)) == (255, 255, 255) == theirs.getpixel((w // 2, 420))  # in the circle
    assert mine.getpixel((5, 5)) == ORANGE == theirs.getpixel((5, 5))


def _ink(img: Image.Image) -> Image.Image:
    return img.convert("L").point(lambda v: 255 if v < 128 else 0)


def _near(a: Image.Image, b: Image.Image) -> float:
    """The share of `a`'s ink that lies within a pixel of `b`'s ink."""
    near = b.filter(ImageFilter.MaxFilter(3))
    return ImageChops.multiply(a, near).histogram()[255] / a.histogram()[255]


def test_text_is_drawn_with_the_shipped_font():
    """The word as pdfium draws it matches, within a pixel, the same word drawn by FreeType (Pillow)
    from the shipped DejaVu Sans at the same size and baseline, and not the same word in DejaVu Serif
    or Bold: the PNG uses the font embedded in the PDF, never one of the machine's."""
    word, size_mm, x_mm, base_mm = "Hamburgefonstiv", 7.0, 4.0, 40.0
    face = card(f'<text x="{x_mm}" y="{base_mm}" font-size="{size_mm}" font-family="DejaVu Sans">{word}</text>',
                colour="#ffffff", size=(100.0, 60.0), bleed=0.0)
    ink = _ink(one(face))
    per_mm = 300 / 25.4

    def reference(font_file: str) -> Image.Image:
        ref = Image.new("L", ink.size, 255)
        font = ImageFont.truetype(str(FONTS / font_file), size=size_mm * per_mm)
        ImageDraw.Draw(ref).text((x_mm * per_mm, base_mm * per_mm), word, font=font, fill=0, anchor="ls")
        return _ink(ref)

    sans = reference("DejaVuSans.ttf")
    assert ink.getbbox() is not None
    assert _near(ink, sans) > 0.98 and _near(sans, ink) > 0.98
    for other in ("DejaVuSerif.ttf", "DejaVuSans-Bold.ttf"):  # the comparison tells faces apart
        assert min(_near(ink, reference(other)), _near(reference(other), ink)) < 0.8, other


def test_the_pdf_embeds_every_font_it_uses():
    pdf = faces_pdf([card('<text x="5" y="20" font-size="6" font-family="Arial">Text</text>')])
    from pypdf import PdfReader

    fonts = [f.get_object() for p in PdfReader(io.BytesIO(pdf)).pages
             for f in (p["/Resources"].get("/Font") or {}).values()]
    assert fonts
    for font in fonts:
        descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        desc = descendant["/FontDescriptor"].get_object()
        assert "DejaVu" in str(font["/BaseFont"]) and any(k in desc for k in ("/FontFile", "/FontFile2"))


# --- shaped pieces --------------------------------------------------------------------------------------


def test_shaped_pieces_are_transparent_outside_their_outline():
    img = one(triangle())
    assert img.mode == "RGBA" and img.size == (354, 307)
    assert img.getpixel((2, 2))[3] == 0 and img.getpixel((351, 2))[3] == 0  # top corners: outside
    assert img.getpixel((177, 250)) == (*BLUE, 255)  # inside
    # antialiased edge: partial alpha, straight (not premultiplied) colour
    edge = [img.getpixel((x, 150)) for x in range(177)]
    partial = [p for p in edge if 0 < p[3] < 255]
    assert partial and all(abs(p[2] - BLUE[2]) <= 2 for p in partial)


def test_rectangular_faces_are_rgb_on_white():
    face = Face(wrap_fragment('<rect x="10" y="10" width="10" height="10" fill="#000"/>', 40, 40, 0), 0.0)
    img = one(face)
    assert img.mode == "RGB" and img.getpixel((5, 5)) == (255, 255, 255)
    assert img.getpixel((177, 177)) == (0, 0, 0)


def test_transparent_faces_as_jpeg_are_on_white():
    img = one(triangle(), fmt="jpeg")
    assert img.mode == "RGB" and min(img.getpixel((2, 2))) > 245


# --- Tabletop Simulator sheets ------------------------------------------------------------------------


def test_tts_grid_follows_tabletop_simulators_custom_deck():
    assert tts_grid(41) == [(41, 10, 5)]
    assert tts_grid(69) == [(69, 10, 7)]
    assert tts_grid(70) == [(69, 10, 7), (1, 2, 1)]
    assert tts_grid(3) == [(3, 4, 1)]
    assert tts_grid(0) == []


def test_tts_sheet_cells_are_the_trimmed_faces_and_the_back_is_last():
    colours = ["#d55e00", "#0072b2", "#009e73", "#cc79a7", "#f0e442"]
    fronts = [card(f'<text x="10" y="20" font-size="8">{i}</text>', colour=c) for i, c in enumerate(colours)]
    copies = [fronts[0], fronts[1], fronts[1], fronts[2], fronts[3], fronts[4], fronts[0]]
    back = card('<circle cx="31.5" cy="44" r="15" fill="#fff"/>', colour="#333333")
    [sheet] = list(tts_sheets(copies, back))  # PNG by default
    assert (sheet.cards, sheet.cols, sheet.rows) == (7, 8, 1)
    img = Image.open(io.BytesIO(sheet.image)).convert("RGB")
    assert img.size == (8 * 372, 520) and round(img.info["dpi"][0]) == 150
    trimmed = {i: Image.open(io.BytesIO(data)).convert("RGB")
               for i, data in raster_faces({i: f for i, f in enumerate(fronts + [back])}, dpi=150, trim=True)}
    for slot, face in enumerate(copies + [back]):
        want = trimmed[(fronts + [back]).index(face)]
        cell = img.crop((slot * 372, 0, (slot + 1) * 372, 520))
        assert ImageChops.difference(cell, want).getbbox() is None, f"slot {slot}"


def test_tts_sheets_split_at_69_cards_and_may_be_jpeg():
    copies = [card(colour="#d55e00")] * 70
    sheets = list(tts_sheets(copies, card(colour="#333333"), fmt="jpeg"))
    assert [(s.cards, s.cols, s.rows) for s in sheets] == [(69, 10, 7), (1, 2, 1)]
    img = Image.open(io.BytesIO(sheets[1].image))
    assert img.format == "JPEG" and img.size == (2 * 372, 520)
    left, right = img.convert("RGB").getpixel((186, 260)), img.convert("RGB").getpixel((372 + 186, 260))
    assert all(abs(a - b) <= 3 for a, b in zip(left, ORANGE)) and all(abs(v - 0x33) <= 3 for v in right)


# --- determinism, parallel work, cache --------------------------------------------------------------------


def _deck(n: int) -> dict[str, Face]:
    return {f"c{i:03d}": card(f'<text x="10" y="20" font-size="8">Card {i}</text>'
                              f'<circle cx="40" cy="60" r="{5 + i % 10}" fill="#0072b2"/>') for i in range(n)}


def test_workers_and_one_process_make_the_same_bytes(monkeypatch):
    faces = _deck(30)  # ~27 MP: over the work that pays for workers
    faces["piece"] = triangle()
    parallel = dict(raster_faces(faces))
    monkeypatch.setattr(raster, "MIN_PARALLEL_MP", 1e12)
    serial = dict(raster_faces(faces))
    assert list(parallel) == sorted(faces) and parallel == serial
    # and from one PDF of all the faces, page by page (another split into runs)
    names = sorted(faces)
    pdf = faces_pdf([faces[n] for n in names])
    monkeypatch.setattr(raster, "MIN_PARALLEL_MP", 0.0)
    pages = rasterise_pdf_pages(pdf, transparent=[names.index("piece")])
    assert pages == [parallel[n] for n in names]


def test_same_faces_same_bytes_in_another_process():
    import hashlib
    import subprocess
    import sys

    code = ("import sys, hashlib; from pnp.render.raster import raster_faces; from tests.test_raster import _deck; "
            "sys.stdout.write(hashlib.sha256(b''.join(b for _, b in raster_faces(_deck(3)))).hexdigest())")
    root = Path(__file__).resolve().parent.parent
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root).stdout
    assert there == hashlib.sha256(b"".join(b for _, b in raster_faces(_deck(3)))).hexdigest()


def test_results_stream_in_order_with_runs_of_uneven_size(monkeypatch):
    monkeypatch.setattr(raster, "MIN_PARALLEL_MP", 0.0)
    faces = {f"{i:02d}": card(colour=f"#{i * 20:02x}0000", size=(20 + i * 5, 20), bleed=0) for i in range(10)}
    out = list(raster_faces(faces))
    assert [n for n, _ in out] == sorted(faces)
    for (name, data), i in zip(out, range(10)):
        img = Image.open(io.BytesIO(data))
        assert img.size == (raster.px((20 + i * 5) * 72 / 25.4, 300), 236)
        assert img.getpixel((5, 5)) == (i * 20, 0, 0)


def test_cache_serves_unchanged_faces_and_remakes_a_changed_one(tmp_path):
    faces = _deck(4)
    first = dict(raster_faces(faces, cache=Cache(tmp_path)))
    cache = Cache(tmp_path)  # another process: from disk
    assert dict(raster_faces(faces, cache=cache)) == first and cache.made("raster") == 0
    faces["c002"] = card(colour="#009e73")
    cache = Cache(tmp_path)
    again = dict(raster_faces(faces, cache=cache))
    assert cache.made("raster") == 1
    assert {k for k in first if first[k] != again[k]} == {"c002"}
    # a format, a dpi or a trim is another product
    assert dict(raster_faces(faces, fmt="jpeg", cache=cache)) != again and cache.made("raster") == 5


def test_a_face_can_be_stretched_to_an_exact_pixel_size():
    face = card('<rect x="0" y="0" width="31.5" height="88" fill="#0072b2"/>')  # the trim's left half blue
    sized = Face(face.svg, face.bleed, px=(100, 140))
    img = one(sized, dpi=150, trim=True)
    assert img.size == (100, 140) and round(img.info["dpi"][0]) == 150
    assert img.getpixel((2, 70)) == BLUE and img.getpixel((97, 70)) == ORANGE
    assert img.getpixel((48, 70)) == BLUE and img.getpixel((52, 70)) == ORANGE  # the half at the half
    assert one(Face(face.svg, face.bleed, px=(69, 94))).size == (69, 94)


def test_render_sheets_draws_each_cell_at_the_cell_size_and_leaves_empty_cells_white():
    a, b = card(colour="#d55e00"), card(colour="#0072b2")
    sheet = raster.Sheet((a, None, b, a, b, None), cols=3, rows=2, cell_px=(50, 70))
    [data] = list(raster.render_sheets([sheet]))
    img = Image.open(io.BytesIO(data))
    assert img.size == (150, 140)
    centres = [img.getpixel((25 + 50 * (i % 3), 35 + 70 * (i // 3))) for i in range(6)]
    assert centres == [ORANGE, (255, 255, 255), BLUE, ORANGE, BLUE, (255, 255, 255)]
    # every pixel of a cell is the face's (its trim fills the cell: no white seam at the edges)
    cell = img.crop((100, 0, 150, 70))
    assert cell.getcolors() == [(50 * 70, BLUE)]
