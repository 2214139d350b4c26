"""The three exports a prototype goes to (issue 18), read back from the files the commands write:
the Tabletop Simulator saved object against the manifest, the print-service images against the
services' published sizes, the print-and-play kit's bookmarks, page sizes and ink."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from lxml import html
from PIL import Image

from pnp.build import build_designs
from pnp.cache import Cache
from pnp.cli import main
from pnp.data.services import geometry, load_services
from pnp.exports.tts import CARD_HEIGHT_UNITS, card_scale
from pnp.render.svgpdf import compile_svg
from pnp.render.svgpdf.ink import ink_saver, lighten

ROOT = Path(__file__).resolve().parent.parent
THREE_STARS = ROOT / "designs" / "three-stars"
SERVICES = ("thegamecrafter", "makeplayingcards", "printplaygames")
ALL = {"tts", "kit", "kit-ink-saver", *(f"print-service:{s}" for s in SERVICES)}
A4 = (595.28, 841.89)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    out = tmp_path_factory.mktemp("exports")
    [res] = build_designs([str(THREE_STARS)], out=out, cache=Cache(None), exports=ALL, show_progress=False)
    return res.out_dir


def _manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


# --- Tabletop Simulator ---------------------------------------------------------------------------------


def test_tts_saved_object_matches_the_manifest(made):
    whole = _manifest(made)
    manifest = {**whole, "components": whole.get("components@en", whole["components"])}  # the English edition
    save = json.loads((made / "tts" / "three-stars-en.json").read_text())
    objects = save["ObjectStates"]
    by_name: dict[str, list] = {}
    for o in objects:
        by_name.setdefault(o["Name"], []).append(o)
    # the deck: one card per copy, CardIDs pointing into its sheets' slots, per-card names
    [deck] = by_name["DeckCustom"]
    cards = [e for e in manifest["components"] if e["component"] == "placement-cards"]
    assert len(deck["ContainedObjects"]) == sum(e["count"] for e in cards) == 41
    assert deck["DeckIDs"] == [c["CardID"] for c in deck["ContainedObjects"]]
    for card in deck["ContainedObjects"]:
        sheet = deck["CustomDeck"][str(card["CardID"] // 100)]
        slot = card["CardID"] % 100
        assert slot < sheet["NumWidth"] * sheet["NumHeight"] - 1  # never the hidden-card slot
        assert card["CustomDeck"] == {str(card["CardID"] // 100): sheet}
    for key, sheet in deck["CustomDeck"].items():
        face = Image.open(_local(sheet["FaceURL"]))
        back = Image.open(_local(sheet["BackURL"]))
        assert sheet["NumWidth"] <= 10 and sheet["NumHeight"] <= 7 and max(face.size) <= 4096
        assert face.size == (sheet["NumWidth"] * back.width, sheet["NumHeight"] * back.height)
        hidden = face.crop((face.width - back.width, face.height - back.height, face.width, face.height))
        assert hidden.convert("RGB").tobytes() == back.convert("RGB").tobytes()
    # true size: a 63 x 88 mm card is 88/25.4 inches (units) tall
    assert deck["Transform"]["scaleZ"] == pytest.approx(card_scale((63, 88)), abs=1e-3)
    assert deck["Transform"]["scaleZ"] * CARD_HEIGHT_UNITS == pytest.approx(88 / 25.4, abs=1e-3)
    # the board: one locked tile, its image in the board's proportions
    [board] = [o for o in by_name["Custom_Tile"] if o["Nickname"] == "Board"]
    [b] = [e for e in manifest["components"] if e["component"] == "board"]
    img = Image.open(_local(board["CustomImage"]["ImageURL"]))
    assert board["Locked"] and img.width / img.height == pytest.approx(b["trim_mm"][0] / b["trim_mm"][1], rel=0.01)
    # pieces: a bag per colour holding as many triangle tokens as the manifest counts
    pieces = {e["key"]: e for e in manifest["components"] if e["component"] == "pieces"}
    bags = by_name["Bag"]
    assert len(bags) == len(pieces)
    for bag in bags:
        [key] = [k for k in pieces if re.search(rf"\b{k}\b", bag["Nickname"], re.I)]
        inside = bag["ContainedObjects"]
        assert len(inside) == pieces[key]["count"]
        assert {o["Name"] for o in inside} == {"Custom_Token"}  # triangles cut out along their transparency
        token = Image.open(_local(inside[0]["CustomImage"]["ImageURL"]))
        assert token.mode == "RGBA" and token.getpixel((0, 0))[3] == 0  # outside the triangle: clear
    # the rulebook as a PDF: the English edition's is the English one
    pdfs = sorted(Path(_local(o["CustomPDF"]["PDFUrl"])).name for o in by_name["Custom_PDF"])
    assert pdfs == ["three-stars-rules-en-a4.pdf"]
    guids = [o["GUID"] for o in objects]
    assert len(set(guids)) == len(guids)


def _local(url: str) -> Path:
    assert url.startswith("file:///"), url
    path = Path(url.removeprefix("file://"))
    assert path.is_file(), url
    return path


def test_tts_base_url_and_a_bad_one(tmp_path):
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["export", "tts", str(ROOT / "tests" / "fixtures" / "deck-csv"), "--out", str(out),
                                    "--base-url", "https://example.org/games/deck"])
    assert res.exit_code == 0, res.output
    text = (out / "deck-csv" / "tts" / "deck-csv.json").read_text()
    urls = re.findall(r'"(?:FaceURL|BackURL|ImageURL)": "([^"]+)"', text)
    assert urls and all(u.startswith("https://example.org/games/deck/tts/") for u in urls)
    assert "file://" not in text
    # kept for the next build
    assert _manifest(out / "deck-csv")["export_options"] == {"tts_base_url": "https://example.org/games/deck"}
    bad = CliRunner().invoke(main, ["export", "tts", str(ROOT / "tests" / "fixtures" / "deck-csv"), "--out",
                                    str(tmp_path / "o2"), "--base-url", "ftp://x"])
    assert bad.exit_code == 2 and "--base-url" in bad.output and "Traceback" not in bad.output
    assert not (tmp_path / "o2" / "deck-csv").exists()


# --- print services -------------------------------------------------------------------------------------


@pytest.mark.parametrize("service", SERVICES)
def test_print_service_images_have_the_published_size_and_dpi(made, service):
    folder = made / "print" / f"{service}-fr"  # (each language's files: its faces differ)
    report = json.loads((folder / "report.json").read_text())
    svc = load_services()[service]
    assert report["products"]["placement-cards"]
    product = next(p for p in svc.products if p.id == report["products"]["placement-cards"])
    geo = geometry(svc, product)
    files = [f for f in report["files"] if f["component"] == "placement-cards"]
    assert len(files) == 41 + 1  # every distinct face, and the back
    assert sum(f["copies"] for f in files if f["role"] == "face") == 41
    for f in files:
        img = Image.open(folder / f["path"])
        assert img.size == tuple(geo.px) == tuple(f["px"])
        assert img.mode == "RGB"
        assert tuple(round(d) for d in img.info["dpi"]) == (geo.dpi, geo.dpi) == (svc.dpi, svc.dpi)
    if service == "thegamecrafter":
        assert geo.px == (825, 1125)  # 2.5 x 3.5 in + 1/8 in bleed at 300 dpi
    if service == "makeplayingcards":
        assert geo.px == (822, 1122)  # MPC's own figure
    # what it cannot make is reported, by component
    errors = {p["component"] for p in report["problems"] if p["severity"] == "error"}
    assert "board" in errors and "placement-cards" not in errors
    assert "board" in (folder / "report.txt").read_text()


def test_print_service_trim_lands_on_the_trim_box(made):
    """Inside the trim box is the card's trim, drawn as the PNG export draws it (compared with the back
    rasterised trimmed at the box's size); beyond it, bleed."""
    from pnp.render.raster import Face, raster_faces

    folder = made / "print" / "thegamecrafter-fr"
    report = json.loads((folder / "report.json").read_text())
    back = next(f for f in report["files"] if f["role"] == "back")
    left, top, right, bottom = back["trim_box"]
    assert (right - left, bottom - top) == (750, 1050)  # 2.5 x 3.5 in at 300 dpi
    img = Image.open(folder / back["path"]).convert("L")
    back_svg = next(e["back"] for e in _manifest(made)["components"] if e["component"] == "placement-cards")
    svg = (made / back_svg).read_text()  # (the French edition's back: svg/placement-cards-back[.fr].svg)
    [(_, png)] = raster_faces({"b": Face(svg, 3.0, False, (750, 1050))}, 300, trim=True)
    want = Image.open(io.BytesIO(png)).convert("L")

    def diff(dx: int) -> float:
        got = img.crop((left + dx, top, right + dx, bottom))
        return sum(abs(a - b) for a, b in zip(got.tobytes(), want.tobytes())) / (750 * 1050)

    assert diff(0) < 3 and diff(6) > 2 * diff(0)  # in place, and a 6 px shift is measurably worse
    dark = img.getpixel((img.width // 2, top + 3))
    assert abs(img.getpixel((img.width // 2, 0)) - dark) < 10  # the navy background runs on into the bleed


# --- the kit --------------------------------------------------------------------------------------------


def _outline(reader) -> list[tuple[int, str, int]]:
    out = []

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                out.append((depth, item.title, reader.get_destination_page_number(item)))

    walk(reader.outline, 0)
    return out


def test_kit_bookmarks_pages_and_sizes(made):
    for lang in ("en", "fr"):
        kit = pypdf.PdfReader(made / f"three-stars-kit-{lang}-a4.pdf")
        rules = pypdf.PdfReader(made / f"three-stars-rules-{lang}-a4.pdf")
        sheets = pypdf.PdfReader(made / f"three-stars-{lang}-a4.pdf")  # (the kit of a language: its sheets)
        blank = len(rules.pages) % 2  # (the first sheet is a front with its back: it starts a leaf)
        assert len(kit.pages) == 2 + len(rules.pages) + blank + len(sheets.pages)
        top = [(t, p) for d, t, p in _outline(kit) if d == 0]
        names = {"en": ["Cover", "How to print and cut", "Rules (EN)", "Component sheets"],
                 "fr": ["Couverture", "Imprimer et découper", "Règles (FR)", "Planches"]}[lang]
        assert top == list(zip(names, [0, 1, 2, 2 + len(rules.pages) + blank]))
        nested = [(t, p) for d, t, p in _outline(kit) if d == 1]
        first_sheet = 2 + len(rules.pages) + blank
        cards, board = {"en": ("Placement cards", "Board"), "fr": ("Cartes de placement", "Plateau")}[lang]
        assert (cards, first_sheet) in nested and (board, first_sheet + 12) in nested  # in the kit's language
        # (12 card pages: 8 cards a sheet inside the printable margin)
        rule_marks = [p for d, t, p in _outline(kit) if d >= 1 and p < first_sheet]
        assert len(set(rule_marks)) > 3  # the rulebook's headings point at their own pages
        for i, page in enumerate(kit.pages):
            size = sorted((float(page.mediabox.width), float(page.mediabox.height)))  # the board's page is landscape
            assert size == pytest.approx(A4, abs=0.01), i
        assert "How to print and cut" in kit.pages[1].extract_text() or lang == "fr"
    ink = pypdf.PdfReader(made / "three-stars-kit-ink-saver-en-a4.pdf")
    assert len(ink.pages) == len(pypdf.PdfReader(made / "three-stars-kit-en-a4.pdf").pages)


_SHEET = re.compile(r"(?:sheet|feuille) (\d+) (?:of|sur) (\d+) · (.*?)\s?: (fronts?|backs?|recto|verso) ")
_SIDES = {"recto": "fronts", "verso": "backs", "front": "fronts", "back": "backs"}  # ("front 41": one face)


def _leaves(kit) -> list[tuple[int, str, str]]:
    """(kit page index, 'fronts' | 'backs', the sheet's title) of every sheet page with fronts or backs,
    read from the sheets' footers."""
    out = []
    for i, page in enumerate(kit.pages):
        m = _SHEET.search((page.extract_text() or "").replace("\u00a0", " "))  # (": verso" has U+00A0)
        if m:
            out.append((i, _SIDES.get(m.group(4), m.group(4)), m.group(3)))
    return out


def _blank(page) -> bool:
    """A blank page's note, in either language (pnp.words: kit.blank, as typeset and extracted, U+00A0 read as a
    space)."""
    from pnp import words
    from pnp.render.typography import typeset

    notes = {typeset(words.say("kit.blank", lang), lang).replace("\u00a0", " ") for lang in ("en", "fr")}
    return (page.extract_text() or "").strip().replace("\u00a0", " ") in notes


def _assert_pairs_share_leaves(kit) -> int:
    """Each front sheet on an even page (0-based: a leaf's front side), its back the next page."""
    pages = _leaves(kit)
    backs = [(i, title) for i, side, title in pages if side == "backs"]
    assert backs
    fronts = {i: title for i, side, title in pages if side == "fronts"}
    for i, title in backs:
        assert i % 2 == 1 and fronts.get(i - 1) == title, (i, title)
    return len(backs)


def test_kit_keeps_each_front_and_its_back_on_one_leaf(made):
    """After 3 Stars' rules, a blank page when they take an odd number of pages puts the first card front on a
    leaf's front (none when even); every back is the next page, in both languages and the ink-saving kit."""
    for name in ("three-stars-kit-en-a4.pdf", "three-stars-kit-fr-a4.pdf", "three-stars-kit-ink-saver-en-a4.pdf"):
        kit = pypdf.PdfReader(made / name)
        rules = pypdf.PdfReader(made / f"three-stars-rules-{'fr' if '-fr-' in name else 'en'}-a4.pdf")
        odd = len(rules.pages) % 2 == 1
        assert _assert_pairs_share_leaves(kit) == 6  # 41 cards, 8 a sheet
        first = 2 + len(rules.pages) + odd  # the first sheet's page index: cover and contents, rules, blank
        assert first % 2 == 0  # a leaf's front
        if odd:
            assert _blank(kit.pages[first - 1])
            assert sorted(float(x) for x in kit.pages[first - 1].mediabox[2:]) == pytest.approx(A4, abs=0.01)
        assert not _blank(kit.pages[first])
        contents = kit.pages[0].extract_text().replace("\u00a0", " ")
        assert (f"pages {first + 1}–{len(kit.pages)}" in contents or f"pages {first + 1} à {len(kit.pages)}"
                in contents)  # the contents count the blank page


def _pdf(sizes: list[tuple[float, float]], texts: list[str]) -> bytes:
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=sizes[0], invariant=1)
    for size, text in zip(sizes, texts):
        c.setPageSize(size)
        c.drawString(40, 40, text)
        c.showPage()
    c.save()
    return buf.getvalue()


@pytest.mark.parametrize("n_rules", [0, 1, 2, 3, 4])
def test_kit_pairs_fronts_and_backs_whatever_comes_before(n_rules):
    """Rulebooks of odd and even length, sheets without backs (a board, pieces) between pairs, every
    language and paper: each front/back pair shares a leaf, in order, with nothing lost."""
    from pnp.exports.kit import KitParts, kit_pdf

    sides = ["board", "front", "back", "pieces", "front", "back", "front", "back", "pieces", "front"]
    names = {"board": "Board", "pieces": "Pieces"}
    titles, texts = [], []
    for k, side in enumerate(sides):
        title = names.get(side) or f"Cards {k // 3}"
        title = f"{title}: {side}s {k}" if side in ("front", "back") else title
        titles.append(title)
        texts.append(f"sheet {k + 1} of {len(sides)} · {title} " + ("(duplex)" if side == "back" else ""))
    for lang in ("en", "fr"):
        for paper in ("a4", "letter", "a3"):
            w, h = (x * 72 / 25.4 for x in {"a4": (210, 297), "letter": (215.9, 279.4), "a3": (297, 420)}[paper])
            sizes = [(h, w) if side == "board" else (w, h) for side in sides]  # a landscape board page
            rules = _pdf([(w, h)] * n_rules, [f"rules {i}" for i in range(n_rules)]) if n_rules else None
            kit = pypdf.PdfReader(io.BytesIO(kit_pdf(KitParts(
                title="T", lang=lang, paper=paper, sheets_pdf=_pdf(sizes, texts), sheet_titles=titles,
                rules_pdf=rules, rules_paper=paper, sheet_sides=sides))))
            assert _assert_pairs_share_leaves(kit) == 3
            found = [int(m.group(1)) for p in kit.pages if (m := _SHEET.search((p.extract_text() or "") + " "))]
            order = [int(t.split()[1]) for p in kit.pages if (t := p.extract_text() or "").startswith("sheet ")]
            assert order == list(range(1, len(sides) + 1)) and len(found) == 7  # every sheet, in order
            extra = len(kit.pages) - 2 - n_rules - len(sides)
            assert extra == sum(_blank(p) for p in kit.pages) <= 3
            for p in kit.pages:
                if _blank(p):
                    assert sorted(float(x) for x in p.mediabox[2:]) == pytest.approx(sorted((w, h)), abs=0.01)
            outline = _outline(kit)
            assert [t for d, t, _ in outline if d == 1] == ["Board", "Cards 0", "Pieces", "Cards 1", "Cards 2",
                                                             "Pieces", "Cards 3"]
            for d, t, page in outline:
                if d == 1:
                    assert t.split()[0] in (kit.pages[page].extract_text() or "")  # each bookmark on its sheet


def test_kit_adds_no_blank_pages_for_sheets_printed_single_sided():
    """duplex none (backs on their own pages, glued) and gutter-fold: nothing to pair, no blank page."""
    from pnp.exports.kit import leaf_plan

    assert leaf_plan(9, ["front", "back", "front", "back"], "long") == [None, 0, 1, 2, 3]
    assert leaf_plan(8, ["front", "back", "front", "back"], "short") == [0, 1, 2, 3]
    assert leaf_plan(9, ["front", "front", "back", "back"], "none") == [0, 1, 2, 3]
    assert leaf_plan(9, ["fold", "fold"], "fold") == [0, 1]


def _darkness(pdf: Path, pages: range) -> float:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        total = 0.0
        for i in pages:
            img = doc[i].render(scale=30 / 72).to_pil().convert("L")
            total += 255 - sum(v * n for v, n in enumerate(img.histogram())) / (img.width * img.height)
        return total / len(pages)
    finally:
        doc.close()


def test_ink_saver_uses_less_ink_and_keeps_text_and_vectors(made):
    normal, saver = made / "three-stars-kit-en-a4.pdf", made / "three-stars-kit-ink-saver-en-a4.pdf"
    n = len(pypdf.PdfReader(normal).pages)
    backs = range(11, 12)  # the first page of card backs (navy background), after the blank page 9 and fronts
    sheets = range(10, n)
    assert _darkness(saver, backs) < 0.4 * _darkness(normal, backs)
    assert _darkness(saver, sheets) < 0.75 * _darkness(normal, sheets)
    a, b = pypdf.PdfReader(normal), pypdf.PdfReader(saver)
    for i in sheets:
        assert a.pages[i].extract_text() == b.pages[i].extract_text()  # every word kept
        xobjects = b.pages[i]["/Resources"].get("/XObject", {})
        assert not any(x.get_object().get("/Subtype") == "/Image" for x in xobjects.values())  # still vector


def test_ink_saver_lightens_backgrounds_keeps_small_marks_and_darkens_light_text():
    svg = """<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="90mm" viewBox="0 0 60 90">
      <rect width="60" height="90" fill="#1f2a44"/>
      <rect x="5" y="5" width="4" height="4" fill="#000000"/>
      <rect x="20" y="20" width="3" height="3" fill="#1f2a44"/>
      <text x="10" y="60" font-size="8" fill="#f0c040">STARS</text>
    </svg>"""
    out = ink_saver(compile_svg(svg))
    colours = [op[1:4] for op in out.ops if op[0] == "rg"]
    navy = (0.1216, 0.1647, 0.2667)
    light = lighten(navy)
    assert light == pytest.approx(lighten(navy)) and min(light) > 0.8
    assert any(c == pytest.approx(light, abs=1e-3) for c in colours)  # background lightened
    assert any(c == pytest.approx((0, 0, 0)) for c in colours)  # the small black mark kept
    assert not any(c == pytest.approx((0.9412, 0.7529, 0.251), abs=1e-3) for c in colours)  # gold text...
    texts = [i for i, op in enumerate(out.ops) if op[0] == "text"]
    before = [op for op in out.ops[:texts[0]] if op[0] == "rg"][-1]
    assert before[1:4] == pytest.approx(navy, abs=1e-3)  # ...now in the old background colour
    # a face with no large fill is left as it is
    plain = compile_svg('<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="90mm" viewBox="0 0 60 90">'
                        '<rect x="1" y="1" width="5" height="5" fill="#000"/></svg>')
    assert ink_saver(plain).ops == plain.ops


# --- all of them ----------------------------------------------------------------------------------------


def test_exports_are_deterministic_and_listed_in_index(made, tmp_path):
    again = tmp_path / "again"
    [res] = build_designs([str(THREE_STARS)], out=again, cache=Cache(None), exports=ALL, show_progress=False)
    first = {p.relative_to(made).as_posix(): p.read_bytes() for p in made.rglob("*") if p.is_file()}
    second = {p.relative_to(res.out_dir).as_posix(): p.read_bytes() for p in res.out_dir.rglob("*") if p.is_file()}
    assert set(first) == set(second)
    differ = sorted(k for k in first if first[k] != second[k])
    assert differ == ["tts/three-stars-en.json", "tts/three-stars-fr.json"]  # only their file:/// URLs name the
    # other folder
    for name in differ:
        assert first[name].decode().replace(str(made), "X") == second[name].decode().replace(str(res.out_dir), "X")
    doc = html.fromstring((made / "index.html").read_bytes())
    links = {a.get("href") for a in doc.iter("a")}
    assert {"three-stars-kit-en-a4.pdf", "three-stars-kit-ink-saver-fr-a4.pdf", "tts/three-stars-fr.json",
            "tts/three-stars-en.json", "print/thegamecrafter-fr/report.txt", "print/thegamecrafter-en/report.txt",
            "three-stars-fr-a4.pdf", "three-stars-en-a4.pdf"} <= links
    assert all((made / h).is_file() for h in links)
    assert sorted(_manifest(made)["exports"]) == sorted(ALL)


def test_build_kit_flag_for_a_design_without_rules(tmp_path):
    """`pnp build --kit --ink-saver`: a design with no rules texts still gets its kit (cover, how-to, sheets)."""
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["build", "--kit", "--ink-saver", str(ROOT / "tests" / "fixtures" / "deck-csv"),
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    folder = out / "deck-csv"
    kit = pypdf.PdfReader(folder / "deck-csv-kit-en-a4.pdf")
    sheets = pypdf.PdfReader(folder / "deck-csv-a4.pdf")
    assert len(kit.pages) == 2 + len(sheets.pages)
    assert [(t, p) for d, t, p in _outline(kit) if d == 0] == [("Cover", 0), ("How to print and cut", 1),
                                                              ("Component sheets", 2)]
    assert (folder / "deck-csv-kit-ink-saver-en-a4.pdf").is_file()
    assert sorted(_manifest(folder)["exports"]) == ["kit", "kit-ink-saver"]


def test_the_cli_offers_every_shipped_service():
    from pnp.cli import export

    [option] = [p for p in export.commands["print-service"].params if p.name == "service"]
    assert sorted(option.type.choices) == sorted(load_services())


def test_a_turned_face_lands_on_its_trim_box():
    """Landscape product, portrait face: the face's top-left corner goes to the product's top-right (a quarter
    turn clockwise), its trim exactly on the trim box, and bleed the art lacks repeats its edge."""
    from pnp.exports.files import _service_image
    from pnp.exports.print_service import PlannedFile

    page = Image.new("RGB", (46, 66), "white")  # upright face: 40 x 60 px trim + 3 px of art bleed
    page.paste((255, 0, 0), (0, 0, 13, 13))  # the top-left corner (bleed + 10 px of trim) is red
    buf = io.BytesIO()
    page.save(buf, "PNG")
    f = PlannedFile(component="c", product="p", role="face", face="1", source="s", path="c/1.png", px=(70, 50),
                    trim_box=(5, 5, 65, 45), dpi=300, rotate=90, copies=1, format="png", colour="RGB")
    img = Image.open(io.BytesIO(_service_image(buf.getvalue(), f, 3, 3)))
    assert img.size == (70, 50) and tuple(round(d) for d in img.info["dpi"]) == (300, 300)
    assert img.getpixel((64, 5)) == (255, 0, 0) and img.getpixel((55, 5)) == (255, 0, 0)  # top-right of the trim
    assert img.getpixel((54, 5)) == (255, 255, 255) and img.getpixel((64, 15)) == (255, 255, 255)
    assert img.getpixel((69, 0)) == (255, 0, 0)  # the bleed beyond the art's 3 px repeats the red edge
    assert img.getpixel((5, 44)) == (255, 255, 255)
