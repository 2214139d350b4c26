"""The contact sheet (index.html) shows what prints: a real browser opens it from disk and every face must show
its art, icons and fonts.

Debian's Chromium (`apt-get install chromium`), driven by Playwright for Python (the `test` extra; it is given
/usr/bin/chromium and never downloads a browser), opens index.html as file://, draws every face (scrolling to
each: the page draws a face when it nears the screen) and `sheet_problems` lists what does not show: a face not
drawn, a request that failed, an image of a face that does not decode, a font of the design that did not load
or whose text is not drawn at that font's widths. Pixels of a face's screenshot must hold its art's colours.

Without Chromium or Playwright the browser tests are skipped, unless PNP_REQUIRE_BROWSER=1 (.ci/run sets it):
then they fail. The other tests here read the page without a browser.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from lxml import etree, html
from PIL import Image

from pnp.build import build_designs
from pnp.cache import Cache
from pnp.errors import drain_warnings

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
SVG, XLINK = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"


def build(design: Path, out: Path) -> Path:
    build_designs([str(design)], out=out, cache=Cache(None), show_progress=False)
    drain_warnings()  # (the art deck's low-dpi warning: the command prints them, not a test that builds)
    return out / design.name / "index.html"


# --- in the browser ---------------------------------------------------------------------------------------

# every face box: its name, whether it was drawn (its SVG in its shadow root), the URLs of its images; and
# every text run (no element inside) with its computed font and drawn length, for the font check
IMG_FACES = "() => [...document.querySelectorAll('figure img')].map(i => [i.alt, i.getAttribute('src')])"
READ_FACES = """() => [...document.querySelectorAll('.face')].map(box => {
  const root = box.shadowRoot;
  const texts = root ? [...root.querySelectorAll('text, tspan')].filter(t => !t.children.length) : [];
  return {name: box.getAttribute('aria-label'), drawn: !!(root && root.querySelector('svg')),
          images: root ? [...root.querySelectorAll('image')].map(i => new URL(i.href.baseVal, document.baseURI).href) : [],
          texts: texts.map(t => { const s = getComputedStyle(t);
            return {text: t.textContent, family: s.fontFamily, weight: s.fontWeight, style: s.fontStyle,
                    size: parseFloat(s.fontSize), length: t.getComputedTextLength()}; })};
})"""
DECODES = """async urls => Promise.all(urls.map(u => { const i = new Image(); i.src = u;
  return i.decode().then(() => [u, true], () => [u, false]); }))"""
FONTS = "() => [...document.fonts].map(f => ({family: f.family, weight: f.weight, style: f.style, status: f.status}))"


class Sheet:
    """index.html opened in a page, every face drawn; `problems` lists what does not show as it prints."""

    def __init__(self, browser, index: Path, draw_all: bool = True):
        self.index = index
        self.page = browser.new_page(viewport={"width": 1200, "height": 1600}, device_scale_factor=2)
        self.failed: list[str] = []
        self.errors: list[str] = []
        self.page.on("requestfailed", lambda r: self.failed.append(f"{r.url} ({r.failure})"))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(index.as_uri(), wait_until="load")
        if not draw_all:
            return
        for box in self.page.locator(".face").all():
            box.scroll_into_view_if_needed()
        self.page.evaluate("() => window.scrollTo(0, 0)")
        self.page.wait_for_load_state("networkidle")
        self.page.evaluate("() => document.fonts.ready.then(() => true)")
        self.faces = self.page.evaluate(READ_FACES)
        self.imgs = self.page.evaluate(IMG_FACES)

    def close(self) -> None:
        self.page.close()

    def problems(self) -> list[str]:
        out = [f"page error: {e}" for e in self.errors]
        out += [f"request failed: {f}" for f in self.failed]
        out += [f"{f['name']}: not drawn" for f in self.faces if not f["drawn"]]
        for alt, src in self.imgs:  # an <img>'d SVG is drawn without the files it links to
            svg = (self.index.parent / src).read_text(encoding="utf-8") if src.endswith(".svg") else ""
            if 'href="art/' in svg or 'url("art/' in svg:
                out.append(f"{alt}: an <img> of {src}, whose art and fonts a browser does not load there")
        urls = sorted({u for f in self.faces for u in f["images"]})
        decoded = dict(self.page.evaluate(DECODES, urls)) if urls else {}
        out += [f"{f['name']}: image {self._short(u)} does not load" for f in self.faces for u in f["images"]
                if not decoded.get(u)]
        out += self._font_problems()
        return out

    def _short(self, url: str) -> str:
        return url.removeprefix(self.index.parent.as_uri() + "/")

    def _font_problems(self) -> list[str]:
        """Each @font-face of the faces' SVG files (read from svg/, not from the page) loaded in the page when
        a face uses it, and every text run in a design font as long as that font's file makes it."""
        declared = _font_faces(self.index.parent / "svg")
        loaded = {(f["family"].strip('"'), f["weight"], f["style"]): f["status"] for f in self.page.evaluate(FONTS)}
        out = []
        for f in self.faces:
            for t in f["texts"]:
                family = t["family"].split(",")[0].strip().strip('"')
                bold = int(t["weight"]) >= 600
                italic = t["style"] != "normal"
                key = (family, "bold" if bold else "normal", "italic" if italic else "normal")
                if family not in {k[0] for k in declared} or key not in declared or not t["text"].strip():
                    continue
                weight = "700" if bold else "400"
                status = loaded.get((family, weight, key[2])) or loaded.get((family, key[1], key[2]))
                if status != "loaded":
                    out.append(f"{f['name']}: font {family} {key[1]} {key[2]} is {status or 'not in the page'}")
                    continue
                if t["text"] != t["text"].strip():
                    continue  # a run with its space: how much of it is drawn depends on its neighbours
                want = _text_width(declared[key], t["text"], t["size"])
                if abs(t["length"] - want) > 0.03 * want:
                    out.append(f"{f['name']}: '{t['text']}' is {t['length']:.2f} long, not the {want:.2f} of "
                               f"{declared[key].name}")
        return out

    def face_pixels(self, name: str) -> Image.Image:
        """A screenshot of the face box named `name` (its aria-label), 2 pixels a px."""
        box = self.page.locator(f'.face[aria-label="{name}"]').first  # (the first edition's)
        box.scroll_into_view_if_needed(timeout=5000)
        return Image.open(io.BytesIO(box.screenshot(scale="device", timeout=5000))).convert("RGB")


def _font_faces(svg_dir: Path) -> dict[tuple[str, str, str], Path]:
    """(family, weight, style) -> the font file, from the @font-face rules of the faces' SVG files."""
    out = {}
    rule = re.compile(r'@font-face \{font-family: "([^"]+)"; font-weight: (\w+); font-style: (\w+); src: url\("([^"]+)"\)')
    for svg in svg_dir.glob("*.svg"):
        for family, weight, style, url in rule.findall(svg.read_text(encoding="utf-8")):
            out[(family, weight, style)] = svg_dir / url
    return out


def _text_width(font: Path, text: str, size: float) -> float:
    """How long `text` is in the font file at `size` (advance widths, as pnp measures it)."""
    from reportlab.pdfbase.pdfmetrics import registerFont, stringWidth
    from reportlab.pdfbase.ttfonts import TTFont

    name = f"check-{font.stem}-{abs(hash(str(font)))}"
    registerFont(TTFont(name, str(font)))
    return stringWidth(text, name, size)


def count_colour(img: Image.Image, rgb: tuple[int, int, int], tol: int = 12) -> int:
    r0, g0, b0 = rgb
    raw = img.tobytes()
    return sum(1 for r, g, b in zip(raw[0::3], raw[1::3], raw[2::3])
               if abs(r - r0) <= tol and abs(g - g0) <= tol and abs(b - b0) <= tol)


@pytest.fixture
def sheet(browser):
    opened = []

    def open_sheet(index: Path, draw_all: bool = True) -> Sheet:
        opened.append(Sheet(browser, index, draw_all))
        return opened[-1]

    yield open_sheet
    for s in opened:
        s.close()


def test_showcase_sheet_shows_ship_art_icons_and_its_font(sheet, tmp_path):
    s = sheet(build(ROOT / "designs" / "showcase", tmp_path))
    assert s.problems() == []
    assert len(s.faces) == 40 and all(f["drawn"] for f in s.faces)  # each edition's 20 (English, then French)
    assert sum(len(f["texts"]) for f in s.faces) > 100  # the font check saw the cards' texts
    names = [f["name"] for f in s.faces]
    assert len(set(names)) == len(names)  # a face of one edition is named with its language
    for lang in ("en", "fr"):
        ship = s.face_pixels(f"cards 01 · {lang}")
        for colour in ((0x3B, 0x7E, 0xA1), (0x6B, 0x42, 0x26), (0xCF, 0xE3, 0xEE)):  # ship.svg: sea, hull, sky
            assert count_colour(ship, colour) > 200, colour
        assert count_colour(ship, (0xE8, 0xC1, 0x4A), 20) > 30  # icons/coin.svg's gold disc
        assert count_colour(s.face_pixels(f"cards back-ship · {lang}"), (0xF4, 0xEF, 0xE2), 16) > 300  # its medallion


def test_art_deck_sheet_shows_its_png_svg_and_jpeg_art(sheet, tmp_path):
    s = sheet(build(FIXTURES / "art-deck", tmp_path))
    assert s.problems() == []
    assert count_colour(s.face_pixels("cards 1"), (220, 30, 30)) > 2000  # icons/red.png
    assert count_colour(s.face_pixels("cards 2"), (30, 60, 220)) > 2000  # icons/blue.png
    assert count_colour(s.face_pixels("cards 1"), (0xE0, 0xA0, 0x00)) > 50  # icons/star.svg
    assert count_colour(s.face_pixels("cards back"), (30, 160, 60), 20) > 2000  # icons/back.jpg


def test_font_deck_sheet_draws_text_in_the_design_font(sheet, tmp_path):
    s = sheet(build(FIXTURES / "font-deck", tmp_path))
    assert s.problems() == []
    runs = [t for f in s.faces for t in f["texts"] if t["family"].strip('"').startswith("Deck Condensed")]
    assert len(runs) == 4 and {t["weight"] for t in runs} == {"400", "700"}


def test_a_missing_art_file_or_font_is_noticed(sheet, tmp_path):
    art = build(FIXTURES / "art-deck", tmp_path / "art")
    (art.parent / "svg" / "art" / "icons" / "star.svg").unlink()
    problems = sheet(art).problems()
    assert problems and all("icons/star.svg" in p for p in problems), problems
    assert {p.split(":")[0] for p in problems if "does not load" in p} == {"cards 1", "cards 2", "cards 3"}

    fonts = build(FIXTURES / "font-deck", tmp_path / "fonts")
    (fonts.parent / "svg" / "art" / "fonts" / "Condensed-Bold.ttf").unlink()
    problems = sheet(fonts).problems()
    assert any("Condensed-Bold.ttf" in p for p in problems), problems  # the failed request
    assert "cards 1: font Deck Condensed bold normal is error" in problems, problems


def test_a_font_the_page_lacks_is_noticed(sheet, tmp_path):
    """The check reads the fonts from the faces' own SVG files: a page that drops their @font-face rules (as
    a page holding the faces in shadow roots without moving the rules out would) is caught."""
    index = build(FIXTURES / "font-deck", tmp_path)
    page = index.read_text(encoding="utf-8")
    index.write_text(re.sub(r"<style>\n/\* the design's fonts.*?</style>", "", page, flags=re.S), encoding="utf-8")
    problems = sheet(index).problems()
    assert "cards 1: font Deck Condensed normal normal is not in the page" in problems, problems


def test_three_stars_sheet_draws_every_card(sheet, three_stars_a4):
    s = sheet(three_stars_a4 / "index.html")
    assert s.problems() == []
    # every face of the first language, then each face the other language draws otherwise (the cards and pieces
    # are wordless: one face for both editions; the back and the board have words)
    assert len(s.faces) == 41 + 1 + 1 + 4 + len(list((three_stars_a4 / "svg").glob("*.en.svg"))) == 47 + 2
    names = [f["name"] for f in s.faces]
    assert len(set(names)) == len(names)  # each edition's faces named apart
    assert {"board board · fr", "board board · en", "placement-cards 01"} <= set(names)
    assert all(f["drawn"] for f in s.faces)
    shot = Image.open(io.BytesIO(s.page.screenshot(scale="css"))).convert("RGB")
    # the cards' near-black filled triangles and the dark-blue back, not only text on the light background
    dark = sum(1 for r, g, b in zip(*(shot.tobytes()[i::3] for i in range(3))) if r < 40 and g < 40 and b < 40)
    assert dark > 20000
    band = shot.crop((0, 0, 1200, 120))  # the title and the PDF buttons (#20304a) at the top
    assert count_colour(band, (0x20, 0x30, 0x4A), 8) > 0


def test_faces_keep_their_own_ids_and_styles_and_run_no_script(sheet, tmp_path):
    """Two faces defining the same gradient id and the same CSS class each draw with their own; a face's
    script and event attributes do not run in the page."""
    d = tmp_path / "ids"
    d.mkdir()
    (d / "design.yaml").write_text("meta: {title: Ids, players: 2}\ncomponents:\n  cards:\n    kind: card\n"
                                   "    size: poker\n    template: front.svg.j2\n    data:\n"
                                   "      - {one: '#ff0000', two: '#00ff00'}\n      - {one: '#0000ff', two: '#ffff00'}\n",
                                   encoding="utf-8")
    (d / "front.svg.j2").write_text(
        '<defs><linearGradient id="g"><stop offset="0" stop-color="{{ one }}"/></linearGradient></defs>\n'
        '<style>.two {fill: {{ two }}}</style>\n'
        '<rect x="-3" y="-3" width="34" height="94" fill="url(#g)" onmouseover="document.title = \'ran\'"/>\n'
        '<rect class="two" x="31" y="-3" width="35" height="94"/>\n'
        '<script>document.title = "ran"</script>\n', encoding="utf-8")
    s = sheet(build(d, tmp_path / "out"))
    assert s.problems() == []
    first, second = s.face_pixels("cards 1"), s.face_pixels("cards 2")
    assert count_colour(first, (255, 0, 0), 4) > 5000 and count_colour(first, (0, 255, 0), 4) > 5000
    assert count_colour(second, (0, 0, 255), 4) > 5000 and count_colour(second, (255, 255, 0), 4) > 5000
    s.page.locator('.face[aria-label="cards 1"]').hover()
    assert s.page.title() == "Ids — pnp contact sheet"


RUN = "window.ran = (window.ran || []).concat(['{}'])"


def test_active_content_of_a_design_runs_neither_in_its_svg_files_nor_in_the_sheet(browser, sheet, tmp_path):
    """Issue 29: a template, a ready face and an SVG art file with a script, handlers and a fetch. Each SVG file
    pnp wrote, opened in the browser on its own, runs nothing and fetches nothing; the contact sheet draws every
    face (its art too) and runs nothing either."""
    d = tmp_path / "act"
    (d / "art").mkdir(parents=True)
    (d / "design.yaml").write_text("meta: {title: Act, players: 2}\ncomponents:\n  cards:\n    kind: card\n"
                                   "    size: poker\n    template: front.svg.j2\n    data:\n      - {n: 1}\n"
                                   "  tile:\n    kind: card\n    size: poker\n    svg: ready.svg\n", encoding="utf-8")
    on = {k: RUN.format(k) for k in ("onload", "script", "ready", "ready script", "art", "html")}
    (d / "front.svg.j2").write_text(
        f'<rect x="-3" y="-3" width="69" height="94" fill="#ff0000" onload="{on["onload"]}"/>\n'
        f'<script>{on["script"]}</script>\n'
        '<style>rect { stroke: u\\72l(https://evil.example/x.png) }</style>\n'
        '<image href="art/a.svg" x="10" y="10" width="40" height="40"/>\n', encoding="utf-8")
    (d / "ready.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88" '
        f'onload="{on["ready"]}"><rect width="63" height="88" fill="#00ff00"/>'
        f'<script>{on["ready script"]}</script></svg>\n', encoding="utf-8")
    (d / "art" / "a.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="{on["art"]}">'
        '<rect width="10" height="10" fill="#0000ff"/><foreignObject width="9" height="9"><img '
        f'xmlns="http://www.w3.org/1999/xhtml" src="data:image/png,x" onerror="{on["html"]}"/>'
        '</foreignObject></svg>\n', encoding="utf-8")
    index = build(d, tmp_path / "out")
    files = sorted((index.parent / "svg").rglob("*.svg"))
    assert [f.relative_to(index.parent).as_posix() for f in files] == [
        "svg/art/art/a.svg", "svg/cards-1.svg", "svg/tile-face.svg"]
    page = browser.new_page()
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if not r.url.startswith("file:") else None)
    for f in files:
        page.goto(f.as_uri(), wait_until="load")
        page.wait_for_timeout(100)
        assert page.evaluate("() => window.ran || []") == [], f.name
    page.close()
    assert fetched == []
    s = sheet(index)
    s.page.on("request", lambda r: fetched.append(r.url) if not r.url.startswith("file:") else None)
    assert s.problems() == []
    assert all(f["drawn"] for f in s.faces) and len(s.faces) == 2
    assert count_colour(s.face_pixels("cards 1"), (255, 0, 0), 4) > 2000
    assert count_colour(s.face_pixels("cards 1"), (0, 0, 255), 4) > 2000  # the art, drawn in the page
    assert count_colour(s.face_pixels("tile face"), (0, 255, 0), 4) > 2000
    assert s.page.evaluate("() => window.ran || []") == [] and fetched == []


def test_a_big_deck_draws_the_faces_near_the_screen_only(sheet, tmp_path):
    d = tmp_path / "big"
    d.mkdir()
    rows = "\n".join(f"    - {{n: {i}}}" for i in range(150))
    (d / "design.yaml").write_text(f"meta: {{title: Big, players: 2}}\ncomponents:\n  cards:\n    kind: card\n"
                                   f"    size: poker\n    template: front.svg.j2\n    data:\n{rows}\n", encoding="utf-8")
    (d / "front.svg.j2").write_text('<text x="5" y="10" font-size="5">{{ n }}</text>\n', encoding="utf-8")
    p = sheet(build(d, tmp_path / "out"), draw_all=False).page
    drawn = "() => [...document.querySelectorAll('.face')].filter(b => b.shadowRoot).length"
    p.wait_for_function(f"() => ({drawn})() > 0")  # (the page draws what it sees when the browser says so)
    p.wait_for_timeout(300)  # and no more, however long it waits
    first = p.evaluate(drawn)
    assert 0 < first < 100  # the first screens only (boxes of 150 px, 10 a row in 1200 px)
    p.locator('.face[aria-label="cards 150"]').scroll_into_view_if_needed()
    p.wait_for_function(f"() => ({drawn})() > {first}")
    assert p.evaluate("() => !!document.querySelector('.face[aria-label=\"cards 150\"]').shadowRoot")


# --- without a browser ------------------------------------------------------------------------------------


def test_sheet_counts_each_distinct_back_once(tmp_path):
    page = build(ROOT / "designs" / "showcase", tmp_path)
    doc = html.fromstring(page.read_bytes())
    heads = {s.get("id"): " ".join(s.find("h2").text_content().split()) for s in doc.iter("section")}
    assert heads["cards"] == "Ship and market cards (card, 13 faces + 2 backs by row, 32 in the box)"
    assert heads["coins"] == "Coins (token, 2 faces + 2 backs by row, 24 in the box)"
    assert heads["board"] == "Harbour board (board, 1 face, 1 in the box)"
    captions = [" ".join(f.find("figcaption").text_content().split()) for f in doc.get_element_by_id("cards").iter("figure")]
    # (a face that differs by language says whose it is: the English edition's first, the French one's after)
    assert [c for c in captions if "back" in c] == ["×8 back-ship · en", "×24 back-market · en"]
    coins = [re.sub(r" · (en|fr)$", "", " ".join(f.find("figcaption").text_content().split()))
             for f in doc.get_element_by_id("coins").iter("figure")]
    assert coins == ["×16 1", "×8 2", "×16 back-e8c14a-1", "×8 back-c9c9cf-3"]
    art = build(FIXTURES / "art-deck", tmp_path / "art")
    assert "(card, 3 faces + a shared back, 4 in the box)" in art.read_text(encoding="utf-8")


def test_page_face_keeps_what_draws_and_links_art_from_the_page():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
           'xmlns:x="urn:x" width="69mm" height="94mm" viewBox="-3 -3 69 94">\n'
           '<style>\n@font-face {font-family: "F"; font-weight: normal; font-style: normal; '
           'src: url("art/fonts/F.ttf")} /* 1234 */\n.t {fill: red}\n</style>\n'
           '<image href="art/art/ship.svg" x="0" y="0" width="9" height="9" onload="alert(1)" x:note="n"/>\n'
           '<image xlink:href="data:image/png;base64,AAAA" width="1" height="1"/>\n'
           '<a href="data:text/html,hi"><use href="#s"/></a>\n'
           '<script>alert(2)</script><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>\n'
           '<text class="t">one<set attributeName="x" to="9"/> two</text><x:thing/>\n'
           '</svg>')
    from pnp.index import page_face

    out, fonts = page_face(svg, "svg/")
    assert fonts == ['@font-face {font-family: "F"; font-weight: normal; font-style: normal; '
                     'src: url("svg/art/fonts/F.ttf")} /* 1234 */']
    root = etree.fromstring(out)
    assert [etree.QName(e).localname for e in root.iter()] == ["svg", "style", "image", "image", "a", "use", "text"]
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("100%", "100%", "-3 -3 69 94")
    image, data = root.iter(f"{{{SVG}}}image")
    assert dict(image.attrib) == {"href": "svg/art/art/ship.svg", "x": "0", "y": "0", "width": "9", "height": "9"}
    assert data.get(f"{{{XLINK}}}href") == "data:image/png;base64,AAAA"
    assert root.find(f"{{{SVG}}}a").get("href") is None and root.find(f".//{{{SVG}}}use").get("href") == "#s"
    assert root.find(f"{{{SVG}}}style").text.strip() == ".t {fill: red}"
    assert "".join(root.find(f"{{{SVG}}}text").itertext()) == "one two"
    assert "alert" not in out and "foreignObject" not in out and "<div" not in out


def test_page_face_gives_a_size_only_svg_its_viewbox():
    from pnp.index import page_face

    out, _ = page_face('<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm"><rect/></svg>', "svg/")
    assert [round(float(v), 2) for v in etree.fromstring(out).get("viewBox").split()] == [0, 0, 238.11, 332.6]
    out, _ = page_face('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80px"><rect/></svg>', "svg/")
    assert etree.fromstring(out).get("viewBox") == "0 0 120 80"


def test_sheet_without_a_browser_still_links_every_face(tmp_path):
    """The page's fallback for a browser without scripts: each face's <img> (in <noscript>)."""
    page = build(FIXTURES / "art-deck", tmp_path)
    text = page.read_text(encoding="utf-8")
    doc = html.fromstring(text)
    boxes = doc.find_class("face")
    assert len(boxes) == 4 and all(b.find("template") is not None for b in boxes)
    assert re.findall(r'<noscript><img src="(svg/[^"]+)"', text) == [
        "svg/cards-1.svg", "svg/cards-2.svg", "svg/cards-3.svg", "svg/cards-back.svg"]
    assert all((page.parent / s).is_file() for s in re.findall(r'<noscript><img src="([^"]+)"', text))
