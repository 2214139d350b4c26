"""Rulebooks: every design's rules.<lang>.md compiles to a PDF that reads as its language,
follows the design's numbers, renders every Markdown feature, lists its headings, embeds
only DejaVu, is deterministic, and reports template mistakes as file:line (exit 2)."""

from __future__ import annotations

import functools
import re
import shutil
from collections import Counter
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest
from click.testing import CliRunner
from pypdf import PdfReader
from rulebook_checks import text_of

from pnp.build import build_rulebooks
from pnp.cli import main
from pnp.games.three_stars.facts import rulebook_facts
from pnp.loader import load_design
from pnp.render.faces import design_faces
from pnp.render.typography import date_text, typeset
from pnp.rulebook import languages, render_rulebooks
from pnp.rulebook.markdown import parser
from pnp.rulebook.run import one_run
from pnp.rulebook.text import render_text

ROOT = Path(__file__).resolve().parent.parent
DESIGNS = ROOT / "designs"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
RULEBOOK_DESIGNS = sorted(p.name for p in DESIGNS.iterdir() if list(p.glob("rules.*.md")))
PT_PER_MM = 72 / 25.4

FR_WORDS = {"le", "la", "les", "des", "est", "une", "et", "du", "pour", "qui", "sur", "vous", "à"}
EN_WORDS = {"the", "and", "is", "of", "to", "a", "your", "you", "on", "it", "with", "for", "that"}



def _spaced(text: str) -> str:
    """No-break spaces as the extracted text shows them (ReportLab writes U+00A0 with the space's code)."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")

@pytest.fixture(scope="session")
def rulebooks(tmp_path_factory) -> dict[tuple[str, str], Path]:
    """Every rulebook of every design that has a rules text, built once: (design, lang) -> PDF."""
    out = tmp_path_factory.mktemp("rules")
    paths = build_rulebooks([str(DESIGNS / d) for d in RULEBOOK_DESIGNS], out=out)
    return {(p.parent.name, re.search(r"-rules-(\w+)-a4\.pdf$", p.name).group(1)): p for p in paths}


def test_every_declared_language_of_every_design_builds(rulebooks):
    assert {"three-stars", "three-stars-lozenge"} <= set(RULEBOOK_DESIGNS)
    expected = {(d, lang) for d in RULEBOOK_DESIGNS for lang in load_design(DESIGNS / d).meta.languages}
    assert set(rulebooks) == expected
    for (design, lang), path in rulebooks.items():
        assert path.name == f"{design}-rules-{lang}-a4.pdf"
        assert len(PdfReader(path).pages) >= 3  # title page, contents, the rules


def test_text_reads_as_its_language(rulebooks):
    for (design, lang), path in rulebooks.items():
        words = Counter(re.findall(r"[a-zàâçéèêëîïôûùüÿœ]+", text_of(path).lower()))
        fr = sum(words[w] for w in FR_WORDS)
        en = sum(words[w] for w in EN_WORDS)
        if lang == "fr":
            assert fr > 3 * en, (design, fr, en)
        else:
            assert en > 3 * fr, (design, fr, en)


def test_numbers_come_from_the_design(rulebooks):
    text = text_of(rulebooks[("three-stars", "en")])
    design = load_design(DESIGNS / "three-stars")
    cards = next(cf for cf in design_faces(design) if cf.component_id == "placement-cards")
    assert f"Shuffle the {cards.copies} placement cards" in text
    assert f"takes the {design.rules['pieces_per_player']} pieces" in text
    for players, stars in design.rules["star_positions"].items():  # the setup table: players, regions, stars
        assert re.search(rf"\b{players}\s+2[2-4 +]*\s+{stars}\s+\d+", text), (players, stars)
    lozenge = text_of(rulebooks[("three-stars-lozenge", "fr")])
    stars = load_design(DESIGNS / "three-stars-lozenge").rules["star_positions"][2]
    lozenge = " ".join(lozenge.split())  # (line breaks as \r\n, no-break spaces: one space each)
    assert f"offre {stars} positions d’étoiles" in lozenge
    [setup] = rulebook_facts(load_design(DESIGNS / "three-stars-lozenge"), "fr")["setups"]
    cells = setup["cells"]
    assert (setup["stars"], cells) == (stars, 72)  # (the geometry's counts, as the book prints them)
    assert f"On joue sur tout le plateau : {stars} positions d’étoiles sur {cells} losanges." in lozenge
    assert "Régions en jeu" not in lozenge  # (a board played whole has no regions' table)


@pytest.fixture(scope="module")
def changed_copy(tmp_path_factory) -> tuple[Path, bytes]:
    """A copy of 3 Stars with cards of 1-2 positions (21), 17 pieces, on US Letter: its English rulebook."""
    folder = tmp_path_factory.mktemp("changed") / "three-stars"
    shutil.copytree(DESIGNS / "three-stars", folder)
    y = folder / "design.yaml"
    text = y.read_text(encoding="utf-8")
    text = re.sub(r"params: \{min: 1, max: 3\}", "params: {min: 1, max: 2}", text)
    text = re.sub(r"pieces_per_player: \d+", "pieces_per_player: 17", text)
    text = re.sub(r"paper: a4", "paper: letter", text)
    y.write_text(text, encoding="utf-8")
    design = load_design(folder)
    pdf = render_rulebooks(design, design_faces(design, lang="en"), langs=["en"])["three-stars-rules-en-letter.pdf"]
    return folder, pdf


def test_changed_counts_appear_in_the_rulebook(changed_copy):
    text = text_of(changed_copy[1])
    assert "Shuffle the 21 placement cards" in text
    assert "takes the 17 pieces" in text
    assert "Each player has only 17 pieces" in text
    assert "21, no two alike" in text  # the generated component list
    assert "41" not in text


def test_page_size_follows_the_design(rulebooks, changed_copy):
    import io

    for path in rulebooks.values():  # both designs say a4
        for page in PdfReader(path).pages:
            assert (round(float(page.mediabox.width) / PT_PER_MM), round(float(page.mediabox.height) / PT_PER_MM)) \
                == (210, 297)
    for page in PdfReader(io.BytesIO(changed_copy[1])).pages:
        assert (round(float(page.mediabox.width), 1), round(float(page.mediabox.height), 1)) == (612.0, 792.0)


def _fonts(reader: PdfReader) -> dict[str, bool]:
    found: dict[str, bool] = {}

    def walk(resources) -> None:
        if not resources:
            return
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            desc = font.get("/FontDescriptor")
            desc = desc.get_object() if desc else {}
            found[font["/BaseFont"]] = any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
        for xobj in (resources.get("/XObject") or {}).values():
            xobj = xobj.get_object()
            if "/Resources" in xobj:
                walk(xobj["/Resources"])

    for page in reader.pages:
        walk(page.get("/Resources"))
    return found


def test_fonts_all_embedded_dejavu(rulebooks):
    for (design, _), path in rulebooks.items():
        fonts = _fonts(PdfReader(path))
        assert fonts and all(fonts.values()), fonts
        if not load_design(DESIGNS / design).fonts:  # a design's own fonts show in its faces (component list)
            assert all("DejaVuSans" in name for name in fonts), fonts


@functools.cache
def _headings(design: str, lang: str) -> tuple[str, ...]:
    """The typeset h1 and h2 headings of a shipped design's rules text in `lang`, as its book prints them."""
    d = load_design(DESIGNS / design)
    tokens = parser().parse(render_text(d, lang, design_faces(d)).markdown)
    return tuple(typeset(tokens[i + 1].content, lang) for i, t in enumerate(tokens)
                 if t.type == "heading_open" and t.tag in ("h1", "h2"))


def test_table_of_contents_lists_the_headings(rulebooks):
    for (design, lang), path in rulebooks.items():
        headings = list(_headings(design, lang))
        assert len(headings) >= 5
        reader = PdfReader(path)
        toc = _spaced(reader.pages[1].extract_text())
        assert ("Sommaire" if lang == "fr" else "Contents") in toc
        # the body starts right after the contents, on this page or (a full contents page) the next
        first = _spaced(headings[0])
        entries = toc[:toc.rindex(first)] if toc.count(first) > 1 else toc
        for h in headings:
            assert _spaced(h) in _spaced(entries), (design, lang, h)
        pages = [int(n) for n in re.findall(r"(?:\.\s+){5,}(\d+)", entries)]  # dot leaders, page number
        assert len(pages) == len(headings) and pages == sorted(pages), pages
        outline = [o.title for o in reader.outline if not isinstance(o, list)]
        assert outline == [t for t in headings if t in outline] and len(outline) >= 5


def _lines_of(path: Path) -> tuple[list[list[str]], list[tuple[str, float, float]]]:
    """Every page's lines of text, and the contents page's lines with their bottom and top (PDF points, from the
    page's foot), read by pdfium (pdfplumber took 30 s for the 14 books)."""
    doc = pypdfium2.PdfDocument(path)
    try:
        lines = [doc[i].get_textpage().get_text_range().splitlines() for i in range(len(doc))]
        page = doc[1].get_textpage()
        text, at, contents = page.get_text_range(), 0, []
        for line in text.split("\r\n"):
            boxes = [page.get_charbox(i) for i in range(at, at + len(line)) if not line[i - at].isspace()]
            if boxes:
                contents.append((line, min(b[1] for b in boxes), max(b[3] for b in boxes)))
            at += len(line) + 2
        return lines, contents
    finally:
        doc.close()


def test_contents_give_the_page_each_heading_is_on(rulebooks):
    """Each entry of the contents shows the page its heading is really on (the heading's own line, found in the
    pages' text in order, after the contents), 10 and more included (tubo's), and both of its links (its text, its
    page number) lead to that page."""
    entry = re.compile(r"^(.*?)\s*(?:\.\s*){3,}(\d+)$")  # the title, the dot leader, the page number
    tens = False
    for (design, lang), path in rulebooks.items():
        headings = [_spaced(h) for h in _headings(design, lang)]
        lines, contents = _lines_of(path)
        reader = PdfReader(path)
        page_of = {page.indirect_reference.idnum: n for n, page in enumerate(reader.pages, start=1)}
        annots = [(a.get_object()["/Rect"], a.get_object()["/Dest"]) for a in reader.pages[1].get("/Annots", [])]
        entries = []  # (title, page shown, pages its links lead to)
        for text, bottom, top in contents:
            m = entry.match(text)
            if m:
                links = [page_of[dest[0].idnum] for rect, dest in annots
                         if min(rect[1], rect[3]) < top and max(rect[1], rect[3]) > bottom]
                entries.append((_spaced(m.group(1)), int(m.group(2)), links))
        assert [title for title, _, _ in entries] == headings, (design, lang)
        at = 1  # the page index where the previous heading is (the first is on the contents' page)
        for title, shown, links in entries:
            at = next(i for i in range(at, len(lines)) if title in [_spaced(t) for t in lines[i]])
            assert shown == at + 1 and links == [shown, shown], (design, lang, title, shown, at + 1, links)
            tens = tens or shown >= 10
    assert tens  # a page number of two digits was checked


def test_title_page_and_page_numbers(rulebooks):
    path = rulebooks[("three-stars", "en")]
    reader = PdfReader(path)
    meta = load_design(DESIGNS / "three-stars").meta
    first = reader.pages[0].extract_text()
    for value in (meta.title, meta.author, typeset(str(meta.players), "en"), typeset(meta.play_time, "en"), meta.age,
                  meta.version, date_text(meta.date, "en")):
        assert _spaced(value) in _spaced(first), value
    n = len(reader.pages)
    for i, page in enumerate(reader.pages, start=1):
        assert f"Page {i} of {n}" in page.extract_text()


def test_rulebook_is_deterministic():
    design = load_design(DESIGNS / "three-stars")
    faces = design_faces(design)
    a = render_rulebooks(design, faces, langs=["fr"])
    b = render_rulebooks(design, faces, langs=["fr"])
    assert a == b


FEATURES = """\
# Heading one

Plain text with **bold words** and *slanted words*, `code` and a [link](https://example.org).

## Heading two

- bullet alpha
- bullet beta
  1. nested one
  2. nested two

3. ordered three
4. ordered four

| Name | Value |
|:---|---:|
| {{ components.cards.name }} | {{ components.cards.copies }} |
| tokens | {{ components.tokens.copies }} |

> A note in a box.

---

![A drawing](art.svg)

{{ component_list() }}

{{ face_grid("cards", columns=4, caption="Every card face") }}

### Heading three
"""

ART = ('<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="20mm" viewBox="0 0 40 20">'
       '<rect x="1" y="1" width="38" height="18" fill="#0072B2"/><text x="4" y="12" font-size="5">ART</text></svg>')


@pytest.fixture
def deck(tmp_path) -> Path:
    folder = tmp_path / "deck-csv"
    shutil.copytree(FIXTURES / "deck-csv", folder)
    return folder


def test_every_markdown_feature_renders(deck):
    (deck / "rules.en.md").write_text(FEATURES, encoding="utf-8")
    (deck / "art.svg").write_text(ART, encoding="utf-8")
    design = load_design(deck)
    faces = design_faces(design)
    pdf = render_rulebooks(design, faces)["deck-csv-rules-en-a4.pdf"]
    import io

    text = re.sub(r"\s+", " ", text_of(pdf))
    for expected in ("Heading one", "Heading two", "Heading three", "bullet alpha", "nested two", "ordered four",
                     "A note in a box.", "Every card face", "ART"):
        assert expected in text, expected
    cards = next(cf for cf in faces if cf.component_id == "cards")
    assert re.search(rf"{re.escape(cards.component.display_name('en') or 'cards')} {cards.copies}", text)
    assert "3. ordered three" in text or "3.ordered three" in text
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        chars = [c for page in doc.pages for c in page.chars]
        bold = "".join(c["text"] for c in chars if c["fontname"].endswith("DejaVuSans-Bold"))
        slanted = "".join(c["text"] for c in chars if c["fontname"].endswith("DejaVuSans-Oblique"))
        assert "boldwords" in bold.replace(" ", "") and "slantedwords" in slanted.replace(" ", "")
        # the table: a header ground and rules; the note box: a filled rectangle
        assert any(page.rects for page in doc.pages)
    reader = PdfReader(io.BytesIO(pdf))
    forms = {name for page in reader.pages for name in (page["/Resources"].get("/XObject") or {})}
    # the SVG image, and the thumbnails and grid of the card faces, are vector forms
    distinct = sum(len(cf.fronts) + (1 if cf.back else 0) for cf in faces)
    assert len(forms) >= 1 + distinct
    assert all(not (x.get_object().get("/Subtype") == "/Image") for page in reader.pages
               for x in (page["/Resources"].get("/XObject") or {}).values())
    outline = [o.title for o in reader.outline if not isinstance(o, list)]
    assert "Heading one" in outline


def _run(args: list[str]):
    return CliRunner().invoke(main, args, catch_exceptions=False)


@pytest.mark.parametrize("body, message", [
    ("{{ rules.nope }}", "has no attribute 'nope'"),
    ("{{ undefined_name }}", "'undefined_name' is undefined"),
    ("{% if %}", "Jinja2 syntax error"),
    ('{{ diagram("no_such.diagram") }}', "unknown diagram 'no_such.diagram'"),
    ('{{ face_grid("nope") }}', "no component 'nope'"),
    ("{{ 1 / 0 }}", "ZeroDivisionError"),
])
def test_bad_template_reports_file_and_line(deck, tmp_path, body, message):
    (deck / "rules.en.md").write_text(f"# Title\n\nSome text {body} here.\n\nMore text.\n", encoding="utf-8")
    result = _run(["rules", str(deck), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert re.search(rf"rules\.en\.md:3: .*{re.escape(message)}", result.output), result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_a_rules_text_is_compiled_once_until_it_changes(deck, monkeypatch):
    """The compiled text is kept for the process (pnp watch, the variants that extend a text): read again
    unchanged it is not compiled again; edited, it is, and the new words are the ones rendered."""
    import jinja2

    compiled: list[str] = []
    real = jinja2.Environment.compile

    def counting(self, source, name=None, filename=None, *args, **kwargs):
        compiled.append(str(name))
        return real(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    rules = deck / "rules.en.md"
    rules.write_text("# Title\n\nFirst words: {{ meta.title }}.\n", encoding="utf-8")
    design = load_design(deck)
    faces = design_faces(design)
    first = render_text(design, "en", faces).markdown
    again = render_text(design, "en", faces).markdown
    assert compiled == ["rules.en.md"] and again == first and "First words" in first
    rules.write_text("# Title\n\nOther words: {{ meta.title }}.\n", encoding="utf-8")
    edited = render_text(design, "en", faces).markdown
    assert compiled == ["rules.en.md", "rules.en.md"] and "Other words" in edited and "First" not in edited


def test_error_inside_an_extended_text_names_that_file(tmp_path):
    for name in ("three-stars", "three-stars-lozenge"):
        shutil.copytree(DESIGNS / name, tmp_path / name)
    base = tmp_path / "three-stars" / "rules.en.md"
    lines = base.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("# Setup"))
    lines.insert(at + 1, "{{ facts.no_such_fact }}")
    base.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # the lozenge text extends "three-stars/rules.en.md": the copy beside it, once its folder is allowed
    result = _run(["rules", str(tmp_path / "three-stars-lozenge"), "--lang", "en", "--out", str(tmp_path / "o"),
                   "--allow-dir", str(tmp_path)])
    assert result.exit_code == 2
    assert re.search(rf"three-stars/rules\.en\.md:{at + 2}: .*no_such_fact", result.output), result.output


def test_cli_rules_writes_each_language(tmp_path):
    result = _run(["rules", str(DESIGNS / "three-stars"), "--lang", "fr", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "three-stars").iterdir()) == ["manifest.json",
                                                                          "three-stars-rules-fr-a4.pdf"]
    result = _run(["rules", str(DESIGNS / "three-stars"), "--lang", "en", "--paper", "letter", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "three-stars" / "three-stars-rules-en-letter.pdf"
    assert abs(float(PdfReader(pdf).pages[0].mediabox.width) - 612) < 0.5  # US Letter, beside the A4 one
    assert (tmp_path / "three-stars" / "three-stars-rules-fr-a4.pdf").is_file()


def test_cli_rules_design_without_rules_text(deck, tmp_path):
    result = _run(["rules", str(deck), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "rules.en.md: no rules text" in result.output
    assert languages(load_design(deck)) == []  # and pnp build simply makes no rulebook for it


def test_build_includes_the_rulebooks(three_stars_a4):
    for lang in load_design(DESIGNS / "three-stars").meta.languages:
        pdf = three_stars_a4 / f"three-stars-rules-{lang}-a4.pdf"
        assert pdf.is_file() and pdf.read_bytes().startswith(b"%PDF")


# --- the 3 Stars examples are real positions of the engine -------------------------------


def _game(design_name: str):
    from pnp.games.three_stars.engine import ThreeStarsGame

    design = load_design(DESIGNS / design_name)
    return design, ThreeStarsGame(design, 2)


def _recording_diagrams(monkeypatch) -> list[tuple[str, str, str, str]]:
    """Every diagram drawn from now on, as (name, parameters, language, SVG)."""
    from pnp import registry

    registry.discover()
    calls: list[tuple[str, str, str, str]] = []

    def recorder(name, fn):
        def record(design, lang, **params):
            svg = fn(design, lang, **params)
            calls.append((name, repr(sorted(params.items())), lang, svg))
            return svg
        return record

    monkeypatch.setattr(registry, "DIAGRAMS", {name: recorder(name, fn) for name, fn in registry.DIAGRAMS.items()})
    return calls


@pytest.mark.parametrize("design_name", RULEBOOK_DESIGNS)
def test_a_wordless_diagram_is_the_same_in_every_language(design_name, monkeypatch):
    """What a game says of its wordless diagrams (GameSpec.wordless_diagrams) holds for the texts it ships: each
    language, drawn on its own, gets the same drawing."""
    from pnp import registry

    calls = _recording_diagrams(monkeypatch)
    design = load_design(DESIGNS / design_name)
    components = design_faces(design)
    for lang in languages(design):
        render_text(design, lang, components)
    drawn: dict[tuple[str, str], dict[str, str]] = {}
    for name, params, lang, svg in calls:
        drawn.setdefault((name, params), {})[lang] = svg
    for (name, params), by_lang in drawn.items():
        if name in registry.WORDLESS:
            assert len(set(by_lang.values())) == 1, f"{name}({params}) differs between {', '.join(by_lang)}"


def test_languages_draw_a_wordless_diagram_once_and_keep_their_words(monkeypatch):
    """One rulebook run draws each wordless diagram once for both languages (the same SVG in both texts); a
    diagram with words is drawn for each language, in its words (TUBO's sides: N-E-S-W, N-E-S-O)."""
    from pnp import registry

    calls = _recording_diagrams(monkeypatch)
    design = load_design(DESIGNS / "tubo")
    components = design_faces(design)
    alone = {lang: render_text(design, lang, components) for lang in ("en", "fr")}
    calls.clear()
    with one_run():
        shared = {lang: render_text(design, lang, components) for lang in ("en", "fr")}
    per_diagram = Counter((name, params) for name, params, _, _ in calls)
    assert {n for (n, _), k in per_diagram.items() if k == 1} == {n for n, _, _, _ in calls if n in registry.WORDLESS}
    assert {n for (n, _), k in per_diagram.items() if k == 2} == {"tubo.fitting"}
    for lang in ("en", "fr"):  # the same texts and drawings as each language drawn on its own
        assert shared[lang].markdown == alone[lang].markdown
        assert [b.svg for b in shared[lang].blocks] == [b.svg for b in alone[lang].blocks]
    fitting = {lang: svg for name, _, lang, svg in calls if name == "tubo.fitting"}
    assert ">N-W</text>" in fitting["en"] and ">N-O</text>" not in fitting["en"]
    assert ">N-O</text>" in fitting["fr"] and ">N-W</text>" not in fitting["fr"]


@pytest.mark.parametrize("design_name", ["three-stars", "three-stars-lozenge"])
def test_worked_example_is_legal_in_the_engine(design_name):
    from pnp.games.three_stars.scripts import example_facts

    design, game = _game(design_name)
    ex = example_facts(design, "en")
    assert ex is not None
    cards = {n: pos for pos, n in zip(game.card_positions, game.card_numbers)}
    s1, s2, s3 = ex["steps"]
    S, T = game.star_index(ex["_centres"]["star"]), game.star_index(ex["_centres"]["neighbour"])
    c = {n: game.card_index(cards[n]) for n in (s1["card"], s1["blocked"], s2["card"], s3["card"])}
    filler = [pos for pos in game.card_positions if pos not in {cards[n] for n in c}][:2]
    hands = {0: [cards[s1["card"]], cards[s1["blocked"]], cards[s3["card"]]], 1: [cards[s2["card"]], *filler]}
    state = game.position(owners=ex["_positions"][0], hands=hands)
    bit = {cell: 1 << i for i, cell in enumerate(game.cells)}
    legal = state.legal_actions()
    assert game.steal_action(c[s1["card"]], S) in legal
    assert game.place_action(c[s1["blocked"]], S) not in legal
    assert game.steal_action(c[s1["blocked"]], S) not in legal
    state.apply_action(game.steal_action(c[s1["card"]], S))
    state.apply_action(state.legal_actions()[0])  # blue draws
    assert state.current_player() == 1
    state.apply_action(game.place_action(c[s2["card"]], T))
    state.apply_action(state.legal_actions()[0])  # red draws
    assert game.steal_action(c[s3["card"]], S) in state.legal_actions()
    state.apply_action(game.steal_action(c[s3["card"]], S))
    assert state.scores[0] == 1 and state.scored[S] == 0
    owned = {cell for cell, who in ex["_positions"][3].items() if who == 0}
    assert {cell for cell in game.cells if state.own[0] & bit[cell]} == owned


def test_blocking_example_blocks_in_the_engine():
    from pnp.games.three_stars.painter import Board as _Board
    from pnp.games.three_stars.scripts import blocking_facts

    design, game = _game("three-stars")
    bl = blocking_facts(design)
    assert bl is not None and bl["count_left"] == game.rules.stars_to_win - 1
    stars = _Board(design).stars(2)
    state = game.position(scored={stars[label - 1]: 0 for label in bl["reserved"]})
    assert not state.can_reach(1)
    assert sorted(state.available(1)) == sorted(game.star_index(stars[label - 1]) for label in bl["left"])
