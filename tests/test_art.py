"""Art on faces (issue 15): `<image href="icons/x.png">` files of the design drawn in the SVG, the PDF and
the PNG at the placed position and size, each file stored once in the PDF, vector art kept vector, bad
images as `file:line` messages with exit 2, low resolution warned, edits rebuilding what they change.

The fixture tests/fixtures/art-deck: poker cards (63 x 88 mm, 3 mm bleed), a 600 px PNG per row at
(10, 10) mm, 43 x 43 mm (red on two rows, a 200 px blue one on another), a shared SVG star at
(26.5, 60) mm, 10 x 10 mm, and a back with a 600 x 300 px JPEG fitted (xMidYMid meet) into a 50 x 50 mm
box at (6.5, 19) mm: drawn 50 x 25 mm at (6.5, 31.5) mm."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pdfplumber
import pytest
from clirun import run
from pdfmeasure import placements
from PIL import Image
from pypdf import PdfReader

from pnp.build import build_designs
from pnp.errors import drain_warnings

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "art-deck"
MM = 72 / 25.4
TOL = 0.1 * MM  # 0.1 mm
FACE_W, FACE_H, BLEED = 63.0, 88.0, 3.0


def deck(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "d")
    return tmp_path / "d"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("art")
    d = deck(tmp)
    build_designs([str(d)], out=tmp / "out", exports={"png"}, show_progress=False)
    drain_warnings()  # the low-dpi warning, tested through the command line below
    return tmp / "out" / "d"


def _face_boxes(pdf: Path, page: int) -> list:
    reader = PdfReader(str(pdf))
    return [p for p in placements(reader, page) if p.form.startswith("/FormXob.face")]


def _expected(face, x_mm: float, y_mm: float, w_mm: float, h_mm: float) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) in page points (y up) of a box given in the face's SVG units (mm from the trim
    corner, y down), the face upright or turned a quarter (as the grid lays cards out where that fits more)."""
    assert face.turn in (0, 90, 270)
    fw, fh = (FACE_W + 2 * BLEED), (FACE_H + 2 * BLEED)  # the form's own box, mm
    corners = [(BLEED + x, fh - BLEED - y) for x in (x_mm, x_mm + w_mm) for y in (y_mm, y_mm + h_mm)]
    cx, cy = face.x + face.width / 2, face.y + face.height / 2
    turned = {0: lambda a, b: (a, b), 90: lambda a, b: (-b, a), 270: lambda a, b: (b, -a)}[face.turn]
    pts = [turned(x - fw / 2, y - fh / 2) for x, y in corners]
    xs, ys = [cx + a * MM for a, _ in pts], [cy + b * MM for _, b in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def _images(pdf: Path, page: int) -> list[tuple[float, float, float, float]]:
    with pdfplumber.open(pdf) as doc:
        return sorted((im["x0"], im["y0"], im["x1"], im["y1"]) for im in doc.pages[page].images)


def _close(a, b) -> bool:
    return all(abs(p - q) <= TOL for p, q in zip(a, b))


def test_images_are_drawn_in_the_pdf_at_their_place_and_size(built):
    pdf = built / "d-a4.pdf"
    faces = _face_boxes(pdf, 0)
    assert len(faces) == 4  # Sword x2, Shield, Bow
    found = _images(pdf, 0)
    assert len(found) == 4, found
    for face in faces:
        want = _expected(face, 10, 10, 43, 43)
        assert any(_close(want, got) for got in found), (want, found)
    # the back: a 2:1 JPEG fitted into a square box (xMidYMid meet): full width, centred vertically
    backs = _face_boxes(pdf, 1)
    back_images = _images(pdf, 1)
    assert len(backs) == 4 and len(back_images) == 4
    for face in backs:
        want = _expected(face, 6.5, 31.5, 50, 25)
        assert any(_close(want, got) for got in back_images), (want, back_images)


def test_each_file_is_stored_once_and_svg_art_stays_vector(built):
    raw = (built / "d-a4.pdf").read_bytes()
    # red.png (3 cards), blue.png, back.jpg (4 backs): three image objects
    assert raw.count(b"/Subtype /Image") == 3
    # the SVG star is one form (drawn 4 times), not an image: its polygon is a path in the PDF
    forms = set(re.findall(rb"/FormXob\.(svgpdf_svg_\w+)", raw))
    assert len(forms) == 1
    with pdfplumber.open(built / "d-a4.pdf") as doc:
        star_fills = [c for c in doc.pages[0].curves if c.get("non_stroking_color") and
                      tuple(round(v, 2) for v in c["non_stroking_color"]) == (0.88, 0.63, 0.0)]
    assert len(star_fills) == 4
    turned = _face_boxes(built / "d-a4.pdf", 0)[0].turn in (90, 270)  # (cards turned a quarter on the sheet)
    for c in star_fills:
        span = c["bottom"] - c["top"] if turned else c["x1"] - c["x0"]
        assert abs(span - 9.0 * MM) < 0.2 * MM  # the star spans 90 of the icon's 100 units


def test_svg_output_stands_alone(built):
    svg = (built / "svg" / "cards-1.svg").read_text()
    hrefs = re.findall(r'<image href="([^"]+)" x="([^"]+)" y="([^"]+)" width="([^"]+)" height="([^"]+)"', svg)
    assert hrefs == [("art/icons/red.png", "10", "10", "43", "43"), ("art/icons/star.svg", "26.5", "60", "10", "10")]
    for name in ("red.png", "star.svg", "blue.png", "back.jpg"):
        assert (built / "svg" / "art" / "icons" / name).read_bytes() == (FIXTURE / "icons" / name).read_bytes()
    manifest = (built / "manifest.json").read_text()
    assert '"svg/art/icons/red.png"' in manifest
    # another SVG renderer, given only the file (as a browser opening it), finds the art beside it
    import cairosvg

    png = cairosvg.svg2png(url=str(built / "svg" / "cards-1.svg"), dpi=96, unsafe=True)  # may read files
    im = Image.open(io.BytesIO(png)).convert("RGB")
    scale = im.width / (FACE_W + 2 * BLEED)
    assert im.getpixel((int((BLEED + 31.5) * scale), int((BLEED + 31.5) * scale))) == (220, 30, 30)


def test_png_shows_the_image_at_its_place(built):
    im = Image.open(built / "png" / "cards-1.png").convert("RGB")
    dpi = 300
    px = lambda mm: (BLEED + mm) / 25.4 * dpi  # noqa: E731
    assert im.size == (round((FACE_W + 2 * BLEED) / 25.4 * dpi), round((FACE_H + 2 * BLEED) / 25.4 * dpi))
    row = int(px(31.5))
    red = [x for x in range(im.width) if im.getpixel((x, row)) == (220, 30, 30)]
    assert abs(red[0] - px(10)) <= 1.5 and abs(red[-1] + 1 - px(53)) <= 1.5  # 0.1 mm is 1.2 px
    col = int(px(31.5))
    red = [y for y in range(im.height) if im.getpixel((col, y)) == (220, 30, 30)]
    assert abs(red[0] - px(10)) <= 1.5 and abs(red[-1] + 1 - px(53)) <= 1.5
    assert im.getpixel((int(px(5)), row)) == (255, 248, 224)  # the card's background beside it
    r, g, b = im.getpixel((int(px(31.5)), int(px(65))))  # the star's centre
    assert (r, g, b) == (224, 160, 0)


def test_low_resolution_is_warned_with_template_line_file_and_dpi(tmp_path):
    deck(tmp_path)
    drain_warnings()
    result = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    assert result.exit_code == 0, result.output
    assert ("d/templates/front.svg.j2:2: warning: icons/blue.png prints at 118 dpi (200 x 200 px over 43.0 x 43.0 "
            "mm) (filling row d/cards.csv:3); expected at least 300 dpi") in result.output
    assert result.output.count("prints at") == 1  # red.png: 600 px over 43 mm is 354 dpi


def _png_header(width: int, height: int) -> bytes:
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IEND", b""))


@pytest.mark.parametrize("href, message", [
    ("icons/none.png", "<image> 'icons/none.png' not found (filling row d/cards.csv:2); expected a PNG, JPEG, WebP, "
                       "GIF or SVG file inside the design folder (a path relative to it) d/"),
    ("../secret.png", "<image>: image '../secret.png' is outside the design folder; expected a file inside d/ "
                      "(name a shared folder with --allow-dir) (filling row d/cards.csv:2)"),
    ("icons/notes.bmp", "<image>: image 'icons/notes.bmp' has an unsupported extension; expected a PNG, JPEG, WebP, "
                        "GIF or SVG file inside the design folder (a path relative to it) (filling row d/cards.csv:2)"),
    ("icons/fake.png", "<image> icons/fake.png: not a readable PNG, JPEG, WebP or SVG file (UnidentifiedImageError) "
                       "(filling row d/cards.csv:2); expected a PNG, JPEG, WebP, GIF or SVG file inside the design "
                       "folder (a path relative to it)"),
    ("data:image/png;base64,AAAA", "<image> data: URI: not a readable PNG, JPEG, WebP or SVG file "
                                   "(UnidentifiedImageError) (filling row d/cards.csv:2); expected a PNG, JPEG, WebP, "
                                   "GIF or SVG file inside the design folder (a path relative to it)"),
    ("icons/huge.png", "<image> icons/huge.png: more than 50 million pixels; scale it down (filling row "
                       "d/cards.csv:2); expected a PNG, JPEG, WebP, GIF or SVG file inside the design folder (a path "
                       "relative to it)"),
    ("https://example.com/a.png", "<image>: image 'https://example.com/a.png' is a URL; expected a PNG, JPEG, WebP, "
                                  "GIF or SVG file inside the design folder (a path relative to it) (filling row "
                                  "d/cards.csv:2)"),
])
def test_a_bad_image_is_a_file_line_error_and_nothing_is_written(tmp_path, href, message):
    d = deck(tmp_path)
    (tmp_path / "secret.png").write_bytes((d / "icons" / "red.png").read_bytes())
    (d / "icons" / "fake.png").write_text("not an image")
    (d / "icons" / "notes.bmp").write_bytes(b"BM")
    (d / "icons" / "huge.png").write_bytes(_png_header(8000, 8000))  # 64 million pixels, only the header
    csv = (d / "cards.csv").read_text().replace("Sword,icons/red.png,2", f"Sword,\"{href}\",2")
    (d / "cards.csv").write_text(csv)
    result = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert f"d/templates/front.svg.j2:2: {message}" in result.output.splitlines()
    assert not (tmp_path / "out" / "d").exists()


def test_a_ready_svg_face_with_a_missing_image_names_its_line(tmp_path):
    d = deck(tmp_path)
    (d / "face.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" '
                                'viewBox="0 0 63 88">\n<rect width="63" height="88" fill="#eee"/>\n'
                                '<image href="icons/gone.png" width="10" height="10"/>\n</svg>\n')
    text = (d / "design.yaml").read_text() + "  tile:\n    kind: card\n    size: poker\n    svg: face.svg\n"
    (d / "design.yaml").write_text(text)
    result = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    assert result.exit_code == 2, result.output
    assert "d/face.svg:3: <image> 'icons/gone.png' not found;" in result.output


def test_editing_an_image_rebuilds_what_shows_it(tmp_path):
    d = deck(tmp_path)
    out = tmp_path / "out"
    build_designs([str(d)], out=out, exports={"png"}, show_progress=False)
    before = {p.name: p.read_bytes() for p in (out / "d" / "png").iterdir()}
    pdf_before = (out / "d" / "d-a4.pdf").read_bytes()
    Image.new("RGB", (200, 200), (0, 200, 0)).save(d / "icons" / "blue.png")
    [result] = build_designs([str(d)], out=out, show_progress=False)
    drain_warnings()
    after = {p.name: p.read_bytes() for p in (out / "d" / "png").iterdir()}
    assert sorted(n for n in before if before[n] != after[n]) == ["cards-2.png"]  # Shield's row
    assert Image.open(io.BytesIO(after["cards-2.png"])).convert("RGB").getpixel((400, 400)) == (0, 200, 0)
    assert (out / "d" / "d-a4.pdf").read_bytes() != pdf_before
    assert (out / "d" / "svg" / "art" / "icons" / "blue.png").read_bytes() == (d / "icons" / "blue.png").read_bytes()
    assert "svg/art/icons/blue.png" in result.written


def test_preserve_aspect_ratio_none_and_slice(tmp_path):
    d = deck(tmp_path)
    (d / "templates" / "back.svg.j2").write_text(
        '<rect x="-3" y="-3" width="69" height="94" fill="#333"/>\n'
        '<image href="icons/back.jpg" x="6.5" y="5" width="50" height="20" preserveAspectRatio="none"/>\n'
        '<image href="icons/back.jpg" x="6.5" y="30" width="20" height="20" preserveAspectRatio="xMinYMin slice"/>\n'
        '<image href="icons/back.jpg" x="6.5" y="60" width="20" height="20" preserveAspectRatio="xMaxYMax meet"/>\n')
    build_designs([str(d)], out=tmp_path / "out", show_progress=False)
    drain_warnings()
    pdf = tmp_path / "out" / "d" / "d-a4.pdf"
    face = _face_boxes(pdf, 1)[0]
    found = _images(pdf, 1)
    for want in (_expected(face, 6.5, 5, 50, 20),  # none: stretched to the box
                 _expected(face, 6.5, 30, 40, 20),  # slice: covers the box (clipped to it), from its top left
                 _expected(face, 6.5, 70, 20, 10)):  # meet, bottom aligned
        assert any(_close(want, got) for got in found), (want, found)


def _pdf_images(pdf: bytes) -> list:
    reader = PdfReader(io.BytesIO(pdf))
    out = []
    for num in range(1, int(reader.trailer["/Size"])):
        obj = reader.get_object(num)
        if hasattr(obj, "get") and obj.get("/Subtype") == "/Image":
            out.append(obj)
    return out


@pytest.mark.parametrize("mode", ["RGB", "L", "RGBA", "P"])
def test_pdf_holds_the_png_pixels_exactly(mode):
    """RGB and grey PNGs go into the PDF as their own compressed pixels (no re-encoding: the image object is
    about the file's size); RGBA and palette PNGs are decoded by ReportLab (alpha as a soft mask). Either way the
    PDF's pixels are the file's."""
    from pnp.render.svgpdf import svg_to_pdf

    src = Image.effect_noise((64, 48), 40).convert("RGB")
    if mode == "RGBA":
        src = src.convert("RGBA")
        src.putalpha(Image.linear_gradient("L").resize((64, 48)))
    else:
        src = src.convert(mode)
    buf = io.BytesIO()
    src.save(buf, "PNG")
    data = buf.getvalue()
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
           '<image href="a.png" width="64" height="48"/><image href="a.png" x="10" width="64" height="48"/></svg>')
    pdf = svg_to_pdf(svg, resources=lambda href: data)
    images = [o for o in _pdf_images(pdf) if o.get("/Width") == 64]
    colour = [o for o in images if o.get("/ColorSpace") != "/DeviceGray" or mode == "L"]  # not the soft mask
    assert len(colour) == 1  # stored once, drawn twice
    got = colour[0].decode_as_image()
    want = src.convert("RGB") if mode in ("RGBA", "P") else src
    assert got.convert(want.mode).tobytes() == want.tobytes()
    if mode in ("RGB", "L"):
        assert "/DecodeParms" in colour[0] and len(colour[0]._data) < len(data)
    if mode == "RGBA":
        assert "/SMask" in colour[0]


def test_sheets_pdf_with_spliced_art_is_well_formed(built):
    """The sheets' PNG pixels are put into the file after ReportLab saved it (svgpdf.player.splice): every
    cross-reference entry still points at its object, and the pixels are the files'."""
    raw = (built / "d-a4.pdf").read_bytes()
    xref = int(re.search(rb"startxref\n(\d+)\n%%EOF\n$", raw).group(1))
    assert raw[xref:xref + 5] == b"xref\n"
    count = int(re.match(rb"xref\n0 (\d+)\n", raw[xref:]).group(1))
    table = xref + len(b"xref\n0 %d\n" % count)
    for num in range(1, count):
        offset = int(raw[table + 20 * num:table + 20 * num + 10])
        assert raw[offset:offset + len(b"%d 0 obj" % num)] == b"%d 0 obj" % num
    reader = PdfReader(io.BytesIO(raw), strict=True)
    reds = [o for o in _pdf_images(raw) if o.get("/Width") == 600 and o.get("/Height") == 600]
    assert len(reds) == 1
    assert reds[0].decode_as_image().convert("RGB").tobytes() == \
        Image.open(FIXTURE / "icons" / "red.png").convert("RGB").tobytes()
    assert len(reader.pages) == 2
