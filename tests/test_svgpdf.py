"""pnp.render.svgpdf: SVG -> ReportLab canvas, checked against cairosvg and svglib pixel by pixel,
and by measuring the PDFs it makes (positions to 0.01 mm, text, images, determinism, warnings).
"""

from __future__ import annotations

import io
import pickle
import re

import pdfplumber
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from pypdf import PdfReader
from svgpdf_pixels import FIXTURES, compare, images, render_cairo, render_ours, render_svglib, side_by_side

from pnp.render.svgpdf import Compiled, compile_svg, form, svg_to_pdf
from pnp.render.svgpdf.geometry import segments

MM = 72 / 25.4
FEATURES = sorted(p.stem for p in FIXTURES.glob("*.svg"))


def svg(body: str, w: float = 100, h: float = 60, extra: str = "") -> str:
    """A face like pnp's: size in mm, a viewBox in mm, body lines starting on line 2."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}"{extra}>\n{body}\n</svg>\n')


def pdf_page(text_or_compiled, resources=None):
    return pdfplumber.open(io.BytesIO(svg_to_pdf(text_or_compiled, resources=resources))).pages[0]


def mm(v: float) -> float:
    return v / MM


# --- pixels: every feature fixture against cairosvg ------------------------------------------

@pytest.fixture(scope="module")
def files():
    return images()


# Thresholds: mean absolute difference per channel (0..255) and share of pixels off by more than
# 64, after the 1-pixel tolerance of `compare`. Text is looser: cairo rounds glyph advances to
# whole pixels (hint metrics) where PDF viewers do not, so glyphs drift by a pixel or two along a
# line; text positions are measured exactly in the PDF by the tests further down instead.
STRICT = (1.0, 0.25)
TEXT = (4.0, 2.5)


def _within(d, limits) -> bool:
    return d.mean < limits[0] and d.share < limits[1]


@pytest.mark.parametrize("name", FEATURES)
def test_feature_matches_cairosvg(name, files, tmp_path):
    text = (FIXTURES / f"{name}.svg").read_text(encoding="utf-8")
    compiled = compile_svg(text, resources=files.get)
    assert compiled.warnings == ()
    ours, ref = render_ours(text, files), render_cairo(text, files)
    d = compare(ours, ref)
    limits = TEXT if "<text" in text else STRICT
    if not _within(d, limits):
        side_by_side(ours, ref, tmp_path / f"{name}.png")
    assert _within(d, limits), f"{name}: {d} (ours | cairosvg in {tmp_path})"


@pytest.mark.parametrize("change", [
    ('<ellipse cx="36"', '<ellipse cx="37"'),  # moved by 1 mm (3.8 px)
    ('<ellipse cx="36" cy="30" rx="10" ry="6" fill="#cb4b16"/>', ""),  # left out
    ('fill="#cb4b16"', 'fill="#cb9b16"'),  # another colour
    ('points="48,46 58,38', 'points="48,46 58,36'),  # one vertex 2 mm off
])
def test_the_pixel_comparison_is_not_blind(change, files):
    text = (FIXTURES / "shapes.svg").read_text(encoding="utf-8")
    wrong = text.replace(*change)
    assert wrong != text
    assert not _within(compare(render_ours(wrong, files), render_cairo(text, files)), STRICT)


# --- pixels: the shipped designs' faces --------------------------------------------------------

@pytest.fixture(scope="module")
def design_faces():
    """One face per component (its first front, and its back) of every shipped design."""
    from pnp import registry
    from pnp.loader import find_designs, load_design
    from pnp.render.faces import design_faces as faces_of

    registry.discover()
    out = []
    for folder in find_designs():
        for cf in faces_of(load_design(folder)):
            for face in cf.fronts[:1] + ([cf.back] if cf.back else []):
                text = face.paint()
                if "@font-face" in text or "data-pnp-art" in text:
                    continue  # names the design's own files (fonts, art): tests/test_art.py and test_fonts.py
                out.append((f"{folder.name}/{cf.component_id}-{face.key}", text))
    return out


def test_design_faces_match_svglib_exactly_and_cairosvg(design_faces, tmp_path):
    """Against svglib + renderPDF (the renderer svgpdf replaced, same rasteriser): the same pixels
    wherever svglib draws the SVG right, so nothing moved. Against cairosvg: within the thresholds
    of the feature fixtures. (svglib gets group opacity wrong: the circle board's faint links and
    numerals are 3x further from cairosvg in svglib than in svgpdf, so there cairosvg decides.)"""
    pytest.importorskip("svglib")
    assert len(design_faces) >= 10
    for name, text in design_faces:
        assert compile_svg(text).warnings == ()
        ours, ref = render_ours(text), render_cairo(text)
        old = render_svglib(text)
        lib = compare(ours, old, shift=0)
        # svglib gets group opacity wrong (there cairosvg decides which is closer), drops the space after an inline
        # <tspan> and misplaces a nested <svg> (text boxes, icons: there only the cairosvg thresholds below hold)
        textbox = "<tspan" in text or text.count("<svg") > 1
        if "opacity=" not in text and not textbox:
            assert lib.mean < 0.1 and lib.share < 0.05, f"{name} vs svglib: {lib}"
        elif not textbox:
            assert compare(ours, ref).mean <= compare(old, ref).mean, f"{name}: svglib closer to cairosvg than svgpdf"
        cairo = compare(ours, ref)
        limits = TEXT if "<text" in text else STRICT
        if not _within(cairo, limits):
            side_by_side(ours, ref, tmp_path / (name.replace("/", "_") + ".png"))
        assert _within(cairo, limits), f"{name} vs cairosvg: {cairo} (images in {tmp_path})"


# --- exact geometry, measured in the PDF ----------------------------------------------------------

def test_rect_position_and_size_to_a_hundredth_of_a_mm():
    page = pdf_page(svg('<rect x="7.25" y="5.5" width="20.125" height="10.75" fill="black"/>'))
    (r,) = page.rects
    assert mm(page.width) == pytest.approx(100, abs=0.01) and mm(page.height) == pytest.approx(60, abs=0.01)
    assert mm(r["x0"]) == pytest.approx(7.25, abs=0.01)
    assert mm(r["top"]) == pytest.approx(5.5, abs=0.01)
    assert mm(r["width"]) == pytest.approx(20.125, abs=0.01)
    assert mm(r["height"]) == pytest.approx(10.75, abs=0.01)


def test_viewbox_with_bleed_like_pnp_faces():
    """pnp's faces: viewBox from -bleed, size = trim + 2 bleed; the trim corner lands at bleed."""
    text = ('<svg xmlns="http://www.w3.org/2000/svg" width="69mm" height="94mm" viewBox="-3 -3 69 94">'
            '<rect x="0" y="0" width="63" height="88" fill="black"/></svg>')
    page = pdf_page(text)
    (r,) = page.rects
    assert (mm(r["x0"]), mm(r["top"]), mm(r["width"]), mm(r["height"])) == pytest.approx((3, 3, 63, 88), abs=0.01)


def test_transform_chain():
    page = pdf_page(svg('<g transform="translate(20 10) scale(2)"><g transform="rotate(90)">'
                        '<rect x="0" y="0" width="10" height="5" fill="black" transform="translate(1 0)"/>'
                        '</g></g>'))
    # rect (1..11, 0..5) rotated 90° -> x in [-5, 0], y in [1, 11]; scaled 2, moved (20, 10)
    (shape,) = page.rects or page.curves
    assert mm(shape["x0"]) == pytest.approx(10, abs=0.01)
    assert mm(shape["x1"]) == pytest.approx(20, abs=0.01)
    assert mm(shape["top"]) == pytest.approx(12, abs=0.01)
    assert mm(shape["bottom"]) == pytest.approx(32, abs=0.01)


def test_arc_ends_where_it_should_and_stays_on_its_circle():
    # from (10, 20) to (26, 28), radius 10, small arc, sweep 1: the centre is (16, 28), not (20, 20)
    compiled = compile_svg(svg('<path d="M10 20 A10 10 0 0 1 26 28" fill="none" stroke="black"/>'))
    path = next(op for op in compiled.ops if op[0] == "path")
    segs = list(segments((path[1], path[2])))
    assert segs[0] == ("M", 10, 20) and segs[-1][0] == "C" and segs[-1][5:] == (26, 28)
    for seg in segs[1:]:
        for t in (0.25, 0.5, 0.75, 1.0):  # points along each cubic piece stay on the circle
            if seg is segs[1]:
                x0, y0 = 10, 20
            mt = 1 - t
            x = mt ** 3 * x0 + 3 * mt * mt * t * seg[1] + 3 * mt * t * t * seg[3] + t ** 3 * seg[5]
            y = mt ** 3 * y0 + 3 * mt * mt * t * seg[2] + 3 * mt * t * t * seg[4] + t ** 3 * seg[6]
            assert ((x - 16) ** 2 + (y - 28) ** 2) ** 0.5 == pytest.approx(10, abs=0.01)
        x0, y0 = seg[5], seg[6]
    # rotated, relative, large arc: the end point in the PDF, read back by pdfplumber
    page = pdf_page(svg('<path d="M20 40 a15 8 30 1 1 30 -12" fill="none" stroke="black" stroke-width="0.2"/>'))
    (curve,) = page.curves
    end = curve["pts"][-1]
    assert (mm(end[0]), mm(end[1])) == pytest.approx((50, 28), abs=0.01)


def test_text_anchors_measured():
    page = pdf_page(svg('<text x="50" y="10" font-size="5">Start</text>\n'
                        '<text x="50" y="20" font-size="5" text-anchor="middle">Middle</text>\n'
                        '<text x="50" y="30" font-size="5" text-anchor="end">End here</text>'))
    lines = {}
    for ch in page.chars:
        lines.setdefault(round(mm(ch["top"])), []).append(ch)
    starts = [min(c["x0"] for c in cs) for _, cs in sorted(lines.items())]
    ends = [max(c["x1"] for c in cs) for _, cs in sorted(lines.items())]
    assert mm(starts[0]) == pytest.approx(50, abs=0.01)
    assert mm((starts[1] + ends[1]) / 2) == pytest.approx(50, abs=0.01)
    assert mm(ends[2]) == pytest.approx(50, abs=0.01)


def test_space_after_an_inline_tspan_is_kept():
    """svglib drops it ("**Bold**then"); XML white space rules keep one space between the runs."""
    page = pdf_page(svg('<text x="5" y="10" font-size="5"><tspan font-weight="bold">Bold</tspan> then</text>'))
    assert page.extract_text() == "Bold then"
    chars = page.chars
    d_end = next(c for c in chars if c["text"] == "d")["x1"]
    t_start = next(c for c in chars if c["text"] == "t")["x0"]
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from pnp.render import fonts
    space = stringWidth(" ", fonts.resolve("sans-serif"), 5)  # in user units = mm here
    assert mm(t_start - d_end) == pytest.approx(space, abs=0.01)
    assert any("Bold" in c["fontname"] for c in chars if c["text"] == "B")
    assert not any("Bold" in c["fontname"] for c in chars if c["text"] == "t")


def test_white_space_collapses_and_preserve_keeps_it():
    page = pdf_page(svg('<text x="5" y="10" font-size="4">\n   Hello\n      wide   world  </text>\n'
                        '<text x="5" y="30" font-size="4" xml:space="preserve">a  b</text>'))
    text = page.extract_text(keep_blank_chars=True).splitlines()
    assert text[0] == "Hello wide world"
    assert text[1] == "a  b"


def test_text_positions_lists_and_baselines():
    compiled = compile_svg(svg('<text x="10 20 30" y="40" font-size="4">ABCD</text>\n'
                               '<text x="5" y="50" dy="0 -2" font-size="4">xy</text>\n'
                               '<text x="5" y="55" font-size="4" dominant-baseline="central">c</text>'))
    runs = [(op[5], op[3], op[4]) for op in compiled.ops if op[0] == "text"]
    assert runs[:3] == [("A", 10, 40), ("B", 20, 40), ("CD", 30, 40)]
    assert runs[3][0] == "x" and runs[4][0] == "y" and runs[4][2] == pytest.approx(48)
    from pnp.render.svgpdf.text import metrics

    asc, desc, _ = metrics("DejaVuSans")
    assert runs[5][2] == pytest.approx(55 + (asc - desc) / 2 * 4, abs=1e-3)


def test_fonts_come_from_pnp_fonts_and_are_embedded():
    compiled = compile_svg(svg('<text x="5" y="10" font-family="Arial">a</text>'
                               '<text x="5" y="20" font-family="Times New Roman, serif" font-weight="700">b</text>'
                               '<text x="5" y="30" font-family="\'Courier New\'" font-style="italic">c</text>'
                               '<text x="5" y="40" font-family="NoSuchFont">d</text>'))
    assert compiled.fonts == ("DejaVuSans", "DejaVuSansMono-Oblique", "DejaVuSerif-Bold")
    reader = PdfReader(io.BytesIO(svg_to_pdf(compiled)))
    fonts = reader.pages[0]["/Resources"]["/Font"]
    for ref in fonts.values():
        desc = ref.get_object()["/FontDescriptor"].get_object() if "/FontDescriptor" in ref.get_object() else None
        assert desc is not None and "/FontFile2" in desc, ref.get_object()["/BaseFont"]
        assert "DejaVu" in ref.get_object()["/BaseFont"]


# --- images ---------------------------------------------------------------------------------------

def _xobjects(pdf: bytes) -> dict[str, set[int]]:
    """The image and form XObjects the first page reaches (through forms in forms), by object number."""
    reader = PdfReader(io.BytesIO(pdf))
    found: dict[str, set[int]] = {"/Image": set(), "/Form": set()}

    def walk(resources):
        xobjects = resources.get_object().get("/XObject", {}) if resources is not None else {}
        for ref in xobjects.values():
            obj = ref.get_object()
            kind = obj["/Subtype"]
            if ref.idnum in found[kind]:
                continue
            found[kind].add(ref.idnum)
            if kind == "/Form":
                walk(obj.get("/Resources"))

    walk(reader.pages[0].get("/Resources"))
    return found


def test_images_at_their_placed_position_and_size(files):
    text = (FIXTURES / "image.svg").read_text(encoding="utf-8")
    page = pdf_page(text, resources=files.get)
    boxes = sorted((round(mm(i["x0"]), 2), round(mm(i["top"]), 2), round(mm(i["x1"] - i["x0"]), 2),
                    round(mm(i["bottom"] - i["top"]), 2)) for i in page.images)
    assert (4, 4, 20, 15) in boxes  # icon.png, 4:3 in a 4:3 box
    assert (28, 4, 20, 15) in boxes  # photo.jpg stretched (preserveAspectRatio none)
    assert (56.5, 4, 15, 15) in boxes  # art.webp, square, meet: centred in 24 x 15
    assert (28, 22, 20, 15) in boxes  # data: URI
    assert (52, 20.5, 24, 18) in boxes  # icon.png sliced: 4:3 covering 24 x 15 (centred), clipped to it
    assert len(boxes) == 5  # emblem.svg is vector, not an image


def test_one_image_xobject_however_often_a_file_is_used(files):
    body = "\n".join(f'<image x="{(i % 3) * 30 + 2}" y="{(i // 3) * 18 + 2}" width="20" height="15" href="icon.png"/>'
                     for i in range(9))
    text = svg(body)
    page = pdf_page(text, resources=files.get)
    assert len(page.images) == 9
    # and across faces: two forms on one canvas share the image too
    from reportlab.pdfgen.canvas import Canvas

    from pnp.render import fonts
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1, initialFontName=fonts.ensure(fonts.REGULAR) and fonts.REGULAR)
    a = compile_svg(text, resources=files.get)
    b = compile_svg(svg('<image x="0" y="0" width="40" height="30" href="icon.png"/>'), resources=files.get)
    form(c, a, "faceA")
    form(c, b, "faceB")
    c.doForm("faceA")
    c.doForm("faceB")
    c.showPage()
    c.save()
    assert len(_xobjects(buf.getvalue())["/Image"]) == 1
    assert len(pdfplumber.open(io.BytesIO(buf.getvalue())).pages[0].images) == 10


def test_svg_image_is_drawn_as_vector_once(files):
    text = svg('<image x="5" y="5" width="40" height="30" href="emblem.svg"/>'
               '<image x="50" y="5" width="20" height="15" href="emblem.svg"/>')
    pdf = svg_to_pdf(text, resources=files.get)
    found = _xobjects(pdf)
    assert found["/Image"] == set() and len(found["/Form"]) == 1  # one form for the emblem, used twice
    page = pdfplumber.open(io.BytesIO(pdf)).pages[0]
    assert page.images == []
    frames = sorted((round(mm(r["x0"]), 2), round(mm(r["top"]), 2), round(mm(r["width"]), 2))
                    for r in page.rects + page.curves if mm(r["width"]) > 19)
    # the emblem's rounded frame (40 x 30 user units) at both places, scaled to its box
    assert (5, 5, 40) in frames and (50, 5, 20) in frames


def test_an_svg_image_reads_its_own_images_through_the_callers_resolver(files):
    """The same SVG icon bytes in two designs whose icon.png differ: each gets its own."""
    icon_svg = (b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                b'<image width="10" height="10" href="icon.png"/></svg>')
    text = svg('<image x="0" y="0" width="20" height="20" href="icon.svg"/>')
    first = compile_svg(text, resources={"icon.svg": icon_svg, "icon.png": files["icon.png"]}.get)
    other_png = files["photo.jpg"]
    second = compile_svg(text, resources={"icon.svg": icon_svg, "icon.png": other_png}.get)
    (a,), (b,) = first.svgs.values(), second.svgs.values()
    assert list(a.images.values()) == [files["icon.png"]] and list(b.images.values()) == [other_png]
    assert set(first.svgs) != set(second.svgs)  # so they are two forms when drawn in one PDF


def test_images_never_come_from_paths_the_svg_names():
    compiled = compile_svg(svg('<image x="0" y="0" width="10" height="10" href="/etc/hostname"/>\n'
                               '<image x="0" y="0" width="10" height="10" href="file:///etc/passwd"/>'))
    assert [op for op in compiled.ops if op[0] in ("image", "svg")] == []
    assert [(w.line, w.error) for w in compiled.warnings] == [(2, True), (3, True)]
    asked = []
    compiled = compile_svg(svg('<image x="0" y="0" width="10" height="10" href="missing.png"/>'),
                           resources=lambda href: asked.append(href))
    assert asked == ["missing.png"]
    assert "file not found" in compiled.warnings[0].message and compiled.warnings[0].error

    def refuse(href):
        raise PermissionError(f"{href} is outside the design folder")

    compiled = compile_svg(svg('<image x="0" y="0" width="10" height="10" href="../x.png"/>'), resources=refuse)
    assert "outside the design folder" in compiled.warnings[0].message


def test_bad_images_are_warnings_not_tracebacks():
    compiled = compile_svg(svg('<image width="5" height="5" href="data:image/png;base64,AAAA"/>\n'
                               '<image width="5" height="5" href="data:image/png;base64,%%%"/>\n'
                               '<image width="5" height="5" href="x.txt"/>'),
                           resources=lambda h: b"not an image")
    assert [w.line for w in compiled.warnings] == [2, 3, 4]
    assert all(w.error for w in compiled.warnings)
    svg_to_pdf(compiled)


def test_a_huge_image_is_refused_quietly(capfd):
    """A PNG claiming 10000 x 9000 pixels (only its header: Pillow checks the size first): an error
    to report, nothing decoded, nothing on stderr."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 10000, 9000, 8, 2, 0, 0, 0)) + chunk(b"IEND", b"")
    compiled = compile_svg(svg('<image width="5" height="5" href="big.png"/>'), resources={"big.png": png}.get)
    assert [(w.line, w.error) for w in compiled.warnings] == [(2, True)]
    assert "million pixels" in compiled.warnings[0].message
    assert capfd.readouterr().err == ""


# --- determinism, plain data ------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["text", "gradients", "image"])
def test_same_svg_same_pdf_bytes(name, files):
    text = (FIXTURES / f"{name}.svg").read_text(encoding="utf-8")
    first = svg_to_pdf(text, resources=files.get)
    second = svg_to_pdf(compile_svg(text, resources=files.get))
    assert first == second


def test_the_same_svg_compiles_the_same_whatever_was_compiled_before(design_faces):
    """The compiler keeps what faces repeat (root, leaf elements, parsed values, path text):
    a face compiled after many others gives the same operations as in a fresh process."""
    from pnp.render.svgpdf import clear_caches

    texts = [t for _, t in design_faces] + [(FIXTURES / f"{n}.svg").read_text(encoding="utf-8") for n in FEATURES]
    warm = [compile_svg(t) for t in texts + texts]  # the second round mostly replays
    for i, t in enumerate(texts):
        clear_caches()
        cold = compile_svg(t)
        assert cold.ops == warm[i].ops == warm[len(texts) + i].ops
        assert cold.fonts == warm[i].fonts


def test_compiled_is_plain_data(files):
    text = (FIXTURES / "image.svg").read_text(encoding="utf-8")
    compiled = compile_svg(text, resources=files.get)

    def plain(v):
        if isinstance(v, (tuple, list)):
            return all(plain(x) for x in v)
        return isinstance(v, (str, int, float, bool))

    assert all(plain(op) for op in compiled.ops)
    again = pickle.loads(pickle.dumps(compiled))
    assert isinstance(again, Compiled) and svg_to_pdf(again) == svg_to_pdf(compiled)


# --- values --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("value, rgb, alpha", [
    ("#f80", (1, 0.5333, 0), 1), ("#ff880080", (1, 0.5333, 0), 0.502), ("#f808", (1, 0.5333, 0), 0.5333),
    ("rgb(255, 0, 0)", (1, 0, 0), 1), ("rgba(0, 0, 255, 0.25)", (0, 0, 1), 0.25),
    ("rgb(100%, 50%, 0%)", (1, 0.5, 0), 1), ("rgba(0 0 0 / 50%)", (0, 0, 0), 0.5),
    ("hsl(120, 100%, 25%)", (0, 0.5, 0), 1), ("DarkOliveGreen", (0.3333, 0.4196, 0.1843), 1),
    ("rebeccapurple", (0.4, 0.2, 0.6), 1),
])
def test_colours(value, rgb, alpha):
    compiled = compile_svg(svg(f'<rect width="10" height="10" fill="{value}"/>'))
    rg = next(op for op in compiled.ops if op[0] == "rg")
    assert rg[1:] == pytest.approx(rgb, abs=1e-3)
    ca = next(op for op in compiled.ops if op[0] == "ca")
    assert ca[1] == pytest.approx(alpha, abs=1e-3)


def test_current_colour_and_inheritance():
    compiled = compile_svg(svg('<g color="#00ff00" fill="currentColor"><rect width="5" height="5"/>'
                               '<rect width="5" height="5" color="#0000ff"/></g>'))
    assert [op[1:] for op in compiled.ops if op[0] == "rg"] == [(0, 1, 0), (0, 0, 1)]


# --- warnings --------------------------------------------------------------------------------------------

def test_unsupported_elements_and_bad_values_warn_with_their_lines():
    text = svg('<rect width="10" height="10" fill="notacolour"/>\n'        # line 2
               '<filter id="f"><feGaussianBlur stdDeviation="2"/></filter>\n'  # line 3: defs-like, silent
               '<rect width="10" height="10" filter="url(#f)"/>\n'          # line 4
               '<foreignObject width="10" height="10"><p>hi</p></foreignObject>\n'  # line 5
               '<circle r="5"\n'                                              # line 6
               '   cx="1"\n'
               '   stroke="#12345"/>\n'                                       # line 8
               '<switch><rect width="1" height="1"/></switch>\n'            # line 9
               '<rect width="-4" height="2"/>\n'                              # line 10
               '<g transform="rotate(oops)"><rect width="1" height="1"/></g>\n'  # line 11
               '<text x="1" y="1"><textPath href="#p">t</textPath></text>')   # line 12
    compiled = compile_svg(text, source="front.svg.j2")
    got = [(w.line, w.error, w.message.split(":")[0].split(" ")[0]) for w in compiled.warnings]
    assert got == [(2, True, 'fill="notacolour"'), (4, False, "filter"), (5, False, "<foreignObject>"),
                   (8, True, 'stroke="#12345"'), (9, False, "<switch>"), (10, True, 'width="-4"'),
                   (11, True, 'transform="rotate(oops)"'), (12, False, "<textPath>")]
    assert str(compiled.warnings[0]).startswith("front.svg.j2:2: ")
    # the rect is drawn as if the bad attribute were absent (the inherited black), and the warning is
    # an error for the caller to report as file:line (issue 13: never a silent default)
    assert compiled.warnings[0].error


def test_gradient_strokes_and_text_fall_back_to_the_first_stop_with_a_warning():
    compiled = compile_svg(svg('<defs><linearGradient id="g"><stop offset="0" stop-color="#ff0000"/>'
                               '<stop offset="1" stop-color="#0000ff"/></linearGradient></defs>\n'
                               '<rect width="10" height="10" fill="none" stroke="url(#g)"/>\n'
                               '<text x="1" y="20" fill="url(#g)">t</text>'))
    assert [op[1:] for op in compiled.ops if op[0] in ("RG", "rg")] == [(1, 0, 0), (1, 0, 0)]
    assert [(w.line, w.error) for w in compiled.warnings] == [(3, False), (4, False)]


def test_not_well_formed_and_not_svg():
    bad = compile_svg('<svg xmlns="http://www.w3.org/2000/svg">\n<rect width="1"\n</svg>')
    assert bad.width == 0 and bad.warnings[0].error and bad.warnings[0].line in (2, 3)
    other = compile_svg("<html/>")
    assert other.ops == () and "not <svg>" in other.warnings[0].message


def test_entities_are_not_expanded():
    text = ('<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY secret SYSTEM "file:///etc/passwd">'
            '<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n'
            '<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm">'
            '<text y="5">&secret;&b;</text></svg>')
    compiled = compile_svg(text)
    assert all("root:" not in str(op) and "aaaaaaaaaa" not in str(op) for op in compiled.ops)


def test_use_cycles_and_bombs_are_bounded(monkeypatch):
    from pnp.render.svgpdf import compiler

    monkeypatch.setattr(compiler, "MAX_ELEMENTS", 5000)
    cyc = compile_svg(svg('<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g>'))
    assert any("refers to itself" in w.message for w in cyc.warnings)
    layers = ['<rect id="l0" width="1" height="1"/>'] + [
        f'<g id="l{i}">' + f'<use href="#l{i - 1}"/>' * 10 + "</g>" for i in range(1, 7)]
    bomb = compile_svg(svg("<defs>" + "".join(layers) + '</defs><use href="#l6"/>'))
    assert any("more than" in w.message and w.error for w in bomb.warnings)
    assert len(bomb.ops) < 5 * 5000


ATTRS = ["fill", "stroke", "stroke-width", "x", "y", "width", "height", "r", "d", "points", "transform",
         "opacity", "font-size", "stroke-dasharray", "viewBox", "href", "clip-path", "style", "offset"]


@settings(max_examples=int(__import__("os").environ.get("SVGPDF_FUZZ", 40)), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(FEATURES), st.sampled_from(ATTRS),
                          st.text(alphabet="0123456789.-e,;:#%()url abcdefmzMLCAZ", max_size=12)),
                min_size=1, max_size=4))
def test_never_raises_on_bad_values(files, edits):
    """Any attribute value, however wrong, gives warnings, never an exception, in compile or draw."""
    for name, attr, value in edits:
        text = (FIXTURES / f"{name}.svg").read_text(encoding="utf-8")
        text = re.sub(rf'(?<=\s){re.escape(attr)}="[^"]*"', f'{attr}="{value}"', text)
        compiled = compile_svg(text, resources=files.get)
        svg_to_pdf(compiled)


@pytest.mark.parametrize("body, direct", [
    ('<rect x="2" y="2" width="20" height="10" fill="#0072B2"/><text x="3" y="20" font-size="5">Ab é</text>', True),
    ('<g opacity="1"><circle cx="20" cy="20" r="8" fill="#ffffff" stroke="#000" stroke-width="0.5"/></g>', True),
    ('<rect x="2" y="2" width="20" height="10" fill="#0072B2" fill-opacity="0.5"/>', False),
    ('<rect x="2" y="2" width="20" height="10" fill="#0072B2" opacity="0.4"/><rect x="9" y="9" width="5" height="5"/>',
     False),
])
def test_a_face_drawn_with_operators_alone_is_written_as_the_canvas_writes_it(body, direct):
    """player.form writes the form of a face made of paths, colours, opaque fills and TrueType text directly
    (without the canvas's form bookkeeping): the PDF is byte for byte the one beginForm/draw/end_form make; a face
    with an alpha below 1 goes through the canvas (its ExtGState resource)."""
    from reportlab.pdfgen.canvas import Canvas

    from pnp.render import fonts
    from pnp.render.svgpdf import player

    compiled = compile_svg(svg(body))
    assert (player._operators_only(Canvas(io.BytesIO()), compiled) is not None) is direct

    def made(direct_path: bool) -> bytes:
        buf = io.BytesIO()
        c = Canvas(buf, invariant=1, pageCompression=1, initialFontName=fonts.ensure(fonts.REGULAR) and fonts.REGULAR)
        for name in ("face0", "face1"):
            if direct_path:
                form(c, compiled, name)
            else:
                c.beginForm(name, 0, 0, compiled.width, compiled.height)
                player.draw(compiled, c)
                player.end_form(c, name)
            c.doForm(name)
        c.showPage()
        c.save()
        return buf.getvalue()

    written = made(True)
    assert written == made(False)
    assert (b"/ExtGState" in written) is not direct
