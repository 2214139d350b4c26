"""Print-shop files as print shops want them (issue 30): one page per distinct face with its count, and PDF/X
(--pdfx, --pdfx-version x-1a | x-4) in CMYK with an OutputIntent, measured in the produced PDFs with pikepdf."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner
from pdfmeasure import MM
from pikepdf import Name

from pnp.cli import main

ROOT = Path(__file__).resolve().parent.parent
STARS = ROOT / "designs" / "three-stars"
SHOWCASE = ROOT / "designs" / "showcase"
PROFILE = ROOT / "pnp" / "icc" / "artifex-cmyk-swop.icc"  # Ghostscript's, shipped (pnp/icc/LICENSE-artifex-cmyk-swop.txt)


def build(out: Path, design: Path, *options: str):
    result = CliRunner().invoke(main, ["build", str(design), "--out", str(out), *options])
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def pdfx(tmp_path_factory):
    """The showcase's print-shop PDF as PDF/X-1a and as PDF/X-4 (its board uses opacity and a translucent
    image; its cards do not), with the build's output."""
    made = {}
    for version, options in (("x-1a", ["--pdfx"]), ("x-4", ["--pdfx-version", "x-4"])):  # the version implies --pdfx
        out = tmp_path_factory.mktemp(version)
        result = build(out, SHOWCASE, *options, "--no-cache")
        made[version] = (out / "showcase" / "showcase-en-print-shop.pdf", result.output)  # (its first edition)
    return made


def report(path: Path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def test_print_shop_has_one_page_per_distinct_face_with_its_count(tmp_path):
    result = build(tmp_path, STARS, "--print-shop")
    out = tmp_path / "three-stars"
    from conftest import stars_numbers

    rows = report(out / "three-stars-fr-print-shop.csv")
    with pikepdf.open(out / "three-stars-fr-print-shop.pdf") as pdf:
        assert len(pdf.pages) == len(rows) == 41 + 1 + 1 + 4  # 41 card fronts, their back, the board, 4 piece colours
        forms = [next(iter(p.Resources.XObject.values())).objgen for p in pdf.pages]
        assert len(set(forms)) == len(forms)  # every page a different face
    cards = [r for r in rows if r["component"] == "placement-cards"]
    assert [r["side"] for r in cards[:3]] == ["front", "back", "front"]  # the back right after the first front
    assert {r["count"] for r in cards if r["side"] == "front"} == {"1"}
    back = next(r for r in cards if r["side"] == "back")
    assert back == {"page": "2", "component": "placement-cards", "face": "back", "side": "back", "count": "41",
                    "back_page": "", "trim_mm": "63x88", "bleed_mm": "3"}
    assert all(r["back_page"] == "2" for r in cards if r["side"] == "front")
    pieces = [r for r in rows if r["component"] == "pieces"]
    assert sum(int(r["count"]) for r in pieces) == stars_numbers()["pieces"] == 136
    for lang in ("fr", "en"):  # one per edition, named like the sheets
        assert (f"note: three-stars-{lang}-print-shop: 47 pages for 178 copies; copies per page in "
                f"three-stars-{lang}-print-shop.csv") in result.output
    assert report(out / "three-stars-en-print-shop.csv") == rows


def test_print_shop_with_no_bleed_warns_at_the_components_bleed_line(tmp_path):
    result = build(tmp_path, STARS, "--print-shop")
    lines = (STARS / "design.yaml").read_text(encoding="utf-8").splitlines()
    for cid in ("board", "pieces"):
        warning = next(w for w in result.output.splitlines() if f"warning: components.{cid}: bleed is 0" in w)
        line = int(warning.split("design.yaml:")[1].split(":")[0])
        assert lines[line - 1].strip().startswith("bleed: 0mm")
        assert warning.endswith(f"components.{cid}: bleed is 0, so the TrimBox of its pages in "
                                "three-stars-fr-print-shop.pdf and three-stars-en-print-shop.pdf is their MediaBox and a "
                                "cut a little off shows white at "
                                "the edge; expected a bleed (print shops ask for 3mm or 1/8 in: `bleed: 3mm`)")
    with pikepdf.open(tmp_path / "three-stars" / "three-stars-fr-print-shop.pdf") as pdf:
        board = pdf.pages[42]
        assert [float(v) for v in board.trimbox] == [float(v) for v in board.mediabox]
    assert "placement-cards: bleed" not in result.output


def test_print_shop_is_made_in_each_language_of_the_design(tmp_path):
    """The showcase's faces differ by language: one print-shop PDF per edition, named like its sheets, its faces
    in its language (the text read back from the PDFs), its title the edition's; the same pages and counts."""
    import pdfplumber

    build(tmp_path, SHOWCASE, "--print-shop")
    out = tmp_path / "showcase"
    assert not (out / "showcase-print-shop.pdf").exists()
    texts, titles = {}, {}
    for lang in ("en", "fr"):
        with pdfplumber.open(out / f"showcase-{lang}-print-shop.pdf") as pdf:
            texts[lang] = [page.extract_text() or "" for page in pdf.pages]
            titles[lang] = pdf.metadata.get("Title")
    assert titles == {"en": "Lantern Harbour", "fr": "Le Port aux Lanternes"}
    assert len(texts["fr"]) == len(texts["en"]) == len(report(out / "showcase-fr-print-shop.csv")) == 20
    fr, en = "\n".join(texts["fr"]), "\n".join(texts["en"])
    assert texts["fr"][0].startswith("Le Héron") and texts["en"][0].startswith("The Heron")
    assert "À votre tour" in fr and "prend la mer" in fr and "Le Port aux Lanternes" in texts["fr"][-1]
    assert "Your turn" not in fr and "The Heron" not in fr and "Swift." not in fr and "'" not in fr
    assert "Your turn" in en and "À votre tour" not in en
    assert report(out / "showcase-fr-print-shop.csv") == report(out / "showcase-en-print-shop.csv")
    from pnp.build import variant_of  # (a later build without --print-shop keeps them, as `pnp clean` removes them)

    assert variant_of("showcase-fr-print-shop.pdf", "showcase") == ("print-shop", "") == variant_of(
        "showcase-print-shop.pdf", "showcase")
    assert variant_of("showcase-fr-a4.pdf", "showcase") == ("sheets", "a4")


def test_a_single_language_design_keeps_its_print_shop_name(tmp_path):
    design = tmp_path / "d"
    design.mkdir()
    (design / "design.yaml").write_text(
        "meta: {title: Solo, players: 1, languages: [fr]}\ncomponents:\n  cards:\n    kind: card\n    size: poker\n"
        "    template: card.svg.j2\n", encoding="utf-8")
    (design / "card.svg.j2").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">'
        '<text x="5" y="20">Bonjour l\'ami</text></svg>', encoding="utf-8")
    build(tmp_path / "out", design, "--print-shop")
    files = sorted(p.name for p in (tmp_path / "out" / "d").glob("*print-shop*"))
    assert files == ["d-print-shop.csv", "d-print-shop.pdf"]


def _walk(obj, seen=None):
    """A page or form and every form it draws, each once."""
    seen = set() if seen is None else seen
    if obj.objgen in seen:
        return
    seen.add(obj.objgen)
    yield obj
    for x in (obj.get("/Resources", {}).get("/XObject") or {}).values():
        if x.get("/Subtype") == Name.Form:
            yield from _walk(x, seen)


def _resources(pdf):
    for page in pdf.pages:
        for obj in _walk(page.obj):
            yield obj, obj.get("/Resources") or pikepdf.Dictionary()


@pytest.mark.parametrize("version", ["x-1a", "x-4"])
def test_pdfx_has_the_output_intent_and_identification(pdfx, version):
    path, _ = pdfx[version]
    with pikepdf.open(path) as pdf:
        assert pdf.pdf_version == ("1.4" if version == "x-1a" else "1.6")
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == Name.GTS_PDFX and intent.Type == Name.OutputIntent
        assert str(intent.OutputConditionIdentifier) == "Artifex CMYK SWOP Profile"
        assert intent.DestOutputProfile.read_bytes() == PROFILE.read_bytes() and intent.DestOutputProfile.N == 4
        info = pdf.docinfo
        assert info.Trapped == Name("/False") and str(info.Title) == "Lantern Harbour"
        if version == "x-1a":
            assert (str(info.GTS_PDFXVersion), str(info.GTS_PDFXConformance)) == ("PDF/X-1:2003", "PDF/X-1a:2003")
        else:
            assert str(info.GTS_PDFXVersion) == "PDF/X-4"
            meta = pdf.open_metadata()
            assert meta["pdfxid:GTS_PDFXVersion"] == "PDF/X-4" and meta["dc:title"] == "Lantern Harbour"
            assert meta["xmpMM:DocumentID"].startswith("uuid:") and meta["pdf:Trapped"] == "False"


@pytest.mark.parametrize("version", ["x-1a", "x-4"])
def test_pdfx_colour_is_cmyk_and_fonts_are_embedded(pdfx, version):
    path, _ = pdfx[version]
    with pikepdf.open(path) as pdf:
        ops, images, fonts = set(), [], []
        for obj, res in _resources(pdf):
            ops |= {str(op) for _, op in pikepdf.parse_content_stream(obj)}
            images += [x for x in (res.get("/XObject") or {}).values() if x.get("/Subtype") == Name.Image]
            fonts += list((res.get("/Font") or {}).values())
            for cs in (res.get("/ColorSpace") or {}).values():
                assert cs in (Name.DeviceCMYK, Name.DeviceGray)
        assert {"k", "K"} <= ops and not ops & {"rg", "RG", "sh"}
        assert images and {x.ColorSpace for x in images} == {Name.DeviceCMYK}
        assert fonts
        for font in fonts:
            descriptor = font.get("/FontDescriptor") or font.DescendantFonts[0].FontDescriptor
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), font.BaseFont
        # a neutral grey (the cards' text, #1a1a1a) is black ink alone: no four-colour black to register
        content = b"\n".join(pikepdf.unparse_content_stream(pikepdf.parse_content_stream(o)) for o, _ in _resources(pdf))
        assert b"0 0 0 0.898 k" in content and b"0 0 0 0 k" in content  # and white is no ink
        # a colour (the cards' navy, #1f3b57) goes through the profile: the same CMYK as littleCMS gives
        from PIL import Image, ImageCms

        t = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(PROFILE)), "RGB",
                                    "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                    flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
        cmyk = t.apply(Image.new("RGB", (1, 1), (0x1F, 0x3B, 0x57))).getpixel((0, 0))
        assert cmyk[0] > 150 and cmyk[3] > 50  # mostly cyan, some black: a navy, not an RGB triple reused
        assert " ".join(f"{round(v / 255, 4):g}" for v in cmyk).encode() + b" k" in content


def test_pdfx_1a_has_no_transparency_and_flattens_what_had_some(pdfx):
    path, output = pdfx["x-1a"]
    with pikepdf.open(path) as pdf:
        for obj, res in _resources(pdf):
            assert obj.get("/Group") is None
            for gs in (res.get("/ExtGState") or {}).values():
                assert float(gs.get("/ca", 1)) == 1 and float(gs.get("/CA", 1)) == 1 and "/SMask" not in gs
            for x in (res.get("/XObject") or {}).values():
                assert "/SMask" not in x
        board = pdf.pages[-1]  # the board: an image of the page, in CMYK, over the whole MediaBox
        (image,) = board.Resources.XObject.values()
        assert image.Subtype == Name.Image and image.ColorSpace == Name.DeviceCMYK
        w_in = float(board.mediabox[2]) / 72
        dpi, pixels = image.Width / w_in, image.Width * image.Height
        assert dpi <= 600.5 and pixels <= 25e6 and (dpi > 599 or pixels > 0.98 * 25e6)  # 600 dpi, or 25 MP
        assert image.Height == pytest.approx(float(board.mediabox[3]) / 72 * dpi, abs=1)
    assert ("designs/showcase/design.yaml:58: warning: components.board: front `1` uses transparency (an "
            "opacity below 1 or a translucent image), which PDF/X-1a forbids: page 20 of showcase-en-print-shop.pdf is "
            "that face flattened into one CMYK image; expected opaque art, or `--pdfx-version x-4`, which keeps transparency "
            "and vectors") in output


def test_pdfx_4_keeps_transparency_as_vectors(pdfx):
    path, output = pdfx["x-4"]
    with pikepdf.open(path) as pdf:
        smasks = [x for _, res in _resources(pdf) for x in (res.get("/XObject") or {}).values() if "/SMask" in x]
        alphas = [float(gs.ca) for _, res in _resources(pdf) for gs in (res.get("/ExtGState") or {}).values()
                  if "/ca" in gs]
        board = pdf.pages[-1]
        assert any(x.get("/Subtype") == Name.Form for x in board.Resources.XObject.values())
    assert smasks and 0.55 in alphas
    assert "PDF/X-1a forbids" not in output


@pytest.mark.parametrize("version", ["x-1a", "x-4"])
def test_pdfx_boxes_are_the_components_trim_and_bleed(pdfx, version):
    path, _ = pdfx[version]
    rows = report(path.with_suffix(".csv"))
    sizes = {r["component"]: (r["trim_mm"], r["bleed_mm"]) for r in rows}
    assert sizes == {"cards": ("63x88", "3"), "coins": ("22x22", "1.5"), "board": ("330x236", "3")}  # design.yaml
    with pikepdf.open(path) as pdf:
        assert len(pdf.pages) == len(rows) == 20
        for page, row in zip(pdf.pages, rows):
            w, h = (float(v) for v in row["trim_mm"].split("x"))
            b = float(row["bleed_mm"])
            assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, (w + 2 * b) * MM, (h + 2 * b) * MM],
                                                                      abs=0.01)
            assert [float(v) for v in page.trimbox] == pytest.approx([b * MM, b * MM, (w + b) * MM, (h + b) * MM],
                                                                     abs=0.01)
            assert [float(v) for v in page.bleedbox] == pytest.approx([float(v) for v in page.mediabox], abs=0.01)


def test_pdfx_is_deterministic(pdfx, tmp_path):
    result = CliRunner().invoke(main, ["build", "--pdfx", "--pdfx-version", "x-1a", str(SHOWCASE), "--out",
                                       str(tmp_path), "--no-cache"])  # a flag: the design after it stays one
    assert result.exit_code == 0, result.output
    assert (tmp_path / "showcase" / "showcase-en-print-shop.pdf").read_bytes() == pdfx["x-1a"][0].read_bytes()


def _gradient_pdf() -> bytes:
    """A page with an RGB fill and a three-stop linear gradient (a stitching function of three exponential ones),
    as pnp.render.svgpdf draws an SVG gradient through ReportLab."""
    from reportlab.lib.colors import Color
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(100, 100), invariant=1)
    c.setFillColorRGB(0.2, 0.4, 0.6)
    c.rect(0, 0, 50, 50, fill=1, stroke=0)
    c.linearGradient(0, 0, 100, 0, (Color(1, 0, 0), Color(0, 1, 0), Color(0, 0, 1)), (0, 0.5, 1), extend=False)
    c.showPage()
    c.save()
    return buf.getvalue()


@pytest.mark.parametrize("version", ["x-1a", "x-4"])
def test_pdfx_converts_gradients_to_cmyk(version):
    from pnp.layout.pdfx import to_pdfx

    data, flattened = to_pdfx(_gradient_pdf(), version, "gradient")
    assert flattened == []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        res = pdf.pages[0].Resources
        shadings = list(res.Shading.values()) if "/Shading" in res else [p.Shading for p in res.Pattern.values()]
        assert shadings
        for sh in shadings:
            assert sh.ColorSpace == Name.DeviceCMYK
            functions = list(sh.Function.Functions) if sh.Function.FunctionType == 3 else [sh.Function]
            assert len(functions) == 2
            for f in functions:
                assert len(f.C0) == len(f.C1) == 4
            assert [float(v) for v in functions[0].C0][:3] != [0, 0, 0] and float(functions[0].C0[1]) > 0.9  # red: magenta
        ops = {str(op) for _, op in pikepdf.parse_content_stream(pdf.pages[0])}
        assert "k" in ops and not ops & {"rg", "RG"}
