"""pnp.words: one table of pnp's own words per language, the same keys and placeholders in each; a French sheet
PDF (made through the layout API with SheetOptions(lang="fr")) and a French kit print none of the English ones.

ReportLab writes U+00A0 with the space's code (its TTFont.splitString: "map nbsp into space"), so the text
extracted from a PDF shows a plain space there; the no-break spaces are checked in the strings drawn (recorded
from the canvas), U+202F in the extracted text too."""

from __future__ import annotations

import contextlib
import io
import re

import pdfplumber
import pytest

from pnp import words
from pnp.errors import drain_warnings
from pnp.layout.pdf import render_pdf
from pnp.layout.sheets import SheetOptions, plan
from pnp.model import Component
from pnp.render.faces import ComponentFaces
from pnp.render.facespec import FaceSpec


def _leaves(value, key=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, f"{key}.{k}" if key else k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, f"{key}[{i}]")
    else:
        yield key, str(value)


def test_every_table_has_the_english_keys_and_placeholders():
    assert {"en", "fr"} <= set(words.languages())
    english = dict(_leaves(words.table("en")))
    for lang in words.languages():
        other = dict(_leaves(words.table(lang)))
        assert set(other) == set(english), (lang, set(other) ^ set(english))
        for key, text in english.items():
            assert words.placeholders(other[key]) == words.placeholders(text), (lang, key)


def test_say_fills_placeholders_and_an_unknown_language_is_english_and_said():
    drain_warnings()
    assert words.say("sheets.fronts", "fr", name="Cartes", first=1, last=9) == "Cartes : recto 1-9"
    assert words.say("sheets.fronts", "de", name="Karten", first=1, last=9) == "Karten: fronts 1-9"
    said = [str(w) for w in drain_warnings()]
    assert any("'de'" in w and "de.yaml" in w for w in said), said


def test_a_range_of_one_is_one_number():
    assert words.say("sheets.fronts", "fr", name="Cartes", first=41, last=41) == "Cartes : recto 41"
    assert words.say("sheets.backs", "en", name="Cards", first=41, last=41, duplex="d") == "Cards: back 41 (d)"
    assert words.say("sheets.backs", "fr", name="Cartes", first=40, last=41, duplex="d") == "Cartes : verso 40-41 (d)"
    assert words.say("kit.kit", "fr", first=1, last=1) == "Kit à imprimer"  # (no kit.kit_one: the key as it is)


@pytest.mark.parametrize("duplex", ["long", "none", "fold"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_sheet_of_one_card_names_it_by_its_number(lang, duplex):
    """The last sheet of 3 Stars' 41 cards holds card 41 alone: "recto 41", never "recto 41 à 41"."""
    def titles(n):
        cards = _component("cards", "card", 63, 88, n, True, {"en": "Cards", "fr": "Cartes"})
        sheets = plan([cards], SheetOptions(lang=lang, duplex=duplex), lambda c, f: f.key)
        return ([s.title for s in sheets if s.side in ("front", "fold")], [s.title for s in sheets if s.side == "back"])

    per = len(plan([_component("cards", "card", 63, 88, 30, True, {"en": "Cards", "fr": "Cartes"})],
                   SheetOptions(lang=lang, duplex=duplex), lambda c, f: f.key)[0].placed)
    per //= 2 if duplex == "fold" else 1  # (a folded sheet holds each front and its back)
    side = {("en", False): "Cards: front ", ("fr", False): "Cartes : recto ", ("en", True): "Cards: ",
            ("fr", True): "Cartes : "}[lang, duplex == "fold"]
    for n in (1, per + 1):  # one card alone; a full sheet, then the last card alone on the next
        fronts, backs = titles(n)
        assert fronts[-1].startswith(f"{side}{n}") and f"{n}-{n}" not in fronts[-1], fronts
        assert not fronts[-1][len(f"{side}{n}"):][:1].isdigit(), fronts
        if n > 1:
            assert f"1-{per}" in fronts[0], fronts  # (the test can fail: a range of several stays a range)
        if backs:
            assert backs[-1].startswith(side.replace("front", "back").replace("recto", "verso") + f"{n} ("), backs


def test_the_tables_ship_in_the_package():
    from pathlib import Path

    folder = Path(words.__file__).parent
    assert (folder / "en.yaml").is_file() and (folder / "fr.yaml").is_file()
    # hatch ships every file under pnp/ in the wheel (pyproject: packages = ["pnp"]); none is excluded
    import tomllib

    project = tomllib.loads((folder.parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    wheel = project["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert wheel["packages"] == ["pnp"] and "exclude" not in wheel


SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">'
       '<rect width="{w}" height="{h}" fill="#ddeeff"/></svg>')


def _component(cid: str, kind: str, w: float, h: float, n: int, back: bool, name: dict) -> ComponentFaces:
    comp = Component.model_validate({"kind": kind, "size": {"width": f"{w}mm", "height": f"{h}mm"},
                                     "template": "x.svg.j2", "name": name})
    fronts = [FaceSpec(f"{cid}{i}", w, h, 0, paint=lambda: "", count=1) for i in range(n)]
    return ComponentFaces(cid, comp, fronts, FaceSpec(f"{cid}-back", w, h, 0, paint=lambda: "") if back else None)


def _sheets_text(lang: str, duplex: str = "long") -> tuple[str, list]:
    components = [
        _component("cards", "card", 63, 88, 12, True, {"en": "Placement cards", "fr": "Cartes de placement"}),
        _component("board", "board", 180, 180, 1, False, {"en": "Board", "fr": "Plateau"}),
        _component("big", "board", 420, 420, 1, False, {"en": "Big board", "fr": "Grand plateau"}),
        _component("tokens", "token", 20, 20, 6, False, {"en": "Tokens", "fr": "Jetons"}),
    ]
    sheets = plan(components, SheetOptions(lang=lang, duplex=duplex, proof=True), lambda c, f: f.key)
    svgs = {f.key: SVG.format(w=f.width, h=f.height) for cf in components for f in cf.sides}
    with drawn() as strings:
        pdf = render_pdf(sheets, svgs, title="L'étoile du jeu" if lang == "fr" else "The game's star")
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return "\n".join(page.extract_text() or "" for page in doc.pages), sheets, "\n".join(strings)


@contextlib.contextmanager
def drawn():
    """Every string drawn on a ReportLab canvas meanwhile (drawString, drawCentredString, drawRightString)."""
    from reportlab.pdfgen.canvas import Canvas

    strings: list[str] = []
    saved = {name: getattr(Canvas, name) for name in ("drawString", "drawCentredString", "drawRightString")}

    def recording(method):
        def draw(self, x, y, text, *args, **kwargs):
            strings.append(text)
            return method(self, x, y, text, *args, **kwargs)
        return draw

    for name, method in saved.items():
        setattr(Canvas, name, recording(method))
    try:
        yield strings
    finally:
        for name, method in saved.items():
            setattr(Canvas, name, method)


def _english_only_words() -> set[str]:
    def vocabulary(lang):
        return {w.lower() for _, text in _leaves(words.table(lang)["sheets"])
                for w in re.findall(r"[^\W\d_]{3,}", re.sub(r"\{[^}]*\}", "", text))}
    return vocabulary("en") - vocabulary("fr")


@pytest.mark.parametrize("duplex", ["long", "none", "fold"])
def test_a_french_sheet_has_no_english_word(duplex):
    text, sheets, said = _sheets_text("fr", duplex)
    found = {w.lower() for w in re.findall(r"[^\W\d_]{3,}", text)}
    english = _english_only_words()
    assert len(english) > 30  # (the test can fail: the English sheets have them)
    assert not found & english, sorted(found & english)
    assert "'" not in text and "'" not in said
    for line in said.splitlines():  # no breakable space before : ; ! ?
        assert not re.search(r"[ \t][:;!?]", line), line
    assert all(s.lang == "fr" for s in sheets)
    assert re.search(r"feuille 1 sur \d+", text)
    assert "imprimer à 100 %" in text and "imprimer à 100\u00a0%" in said
    assert "50 mm : vérifiez à la règle" in text and "50\u00a0mm\u00a0: vérifiez à la règle" in said
    assert "L’étoile du jeu" in text
    assert "ÉPREUVE\u00a0:" in said
    if duplex != "fold":
        assert "Plateau (taille réelle)" in text
        assert "partie A1\u00a0: rangée A" in said
        assert "Cartes de placement\u00a0: recto 1\u00a0à\u00a0" in said
    else:
        assert "(pliez sur les pointillés)" in text


def test_the_english_sheet_says_it_in_english():
    text, _, said = _sheets_text("en")
    found = {w.lower() for w in re.findall(r"[^\W\d_]{3,}", text)}
    assert len(found & _english_only_words()) > 15
    assert "print at 100%" in text and "50\u00a0mm: measure me" in said
    assert "The game’s star" in text
    assert re.search(r"Placement cards: fronts 1–\d", text)
    assert "(duplex, flip on long edge)" in text


def _kit_text(lang: str) -> str:
    from pnp.exports.kit import KitParts, kit_pdf

    _, sheets, _ = _sheets_text(lang)
    svgs = {p.face: SVG.format(w=p.w, h=p.h) for s in sheets for p in s.placed}
    pdf = render_pdf(sheets, svgs, title="Jeu")
    with drawn() as strings:
        kit = kit_pdf(KitParts(title="L'étoile" if lang == "fr" else "The star", lang=lang, paper="a4",
                           sheets_pdf=pdf, sheet_titles=[s.title for s in sheets],
                           sheet_sections=[s.section for s in sheets], sheet_sides=[s.side for s in sheets],
                           players="2-4", author="A. Auteur", version="1.0"))
    with pdfplumber.open(io.BytesIO(kit)) as doc:
        return "\n".join(doc.pages[i].extract_text() or "" for i in (0, 1)), "\n".join(strings)


def test_the_french_kit_pages_are_french():
    text, said = _kit_text("fr")
    english = {w.lower() for _, t in _leaves(words.table("en")["kit"])
               for w in re.findall(r"[^\W\d_]{4,}", re.sub(r"\{[^}]*\}", "", t))}
    french = {w.lower() for _, t in _leaves(words.table("fr")["kit"]) for w in re.findall(r"[^\W\d_]{4,}", t)}
    found = {w.lower() for w in re.findall(r"[^\W\d_]{4,}", text)}
    assert not found & (english - french), sorted(found & (english - french))
    assert "Kit à imprimer" in text and "print-and-play" not in text.lower()
    assert "2 à 4 joueurs" in text and "2\u00a0à\u00a04\u00a0joueurs" in said
    assert "'" not in text and '"' not in text
    assert "Cartes de placement\u00a0: pages" in said
    assert "Plateau" in text and "Jetons" in text and "L’étoile" in text
    assert "«\u202fajuster à la page\u202f»" in said
    for line in said.splitlines():
        assert not re.search(r"[ \t][:;!?»]", line), line


def test_the_english_kit_pages():
    text, _ = _kit_text("en")
    assert "Print-and-play kit" in text and "2–4 players" in text
    assert "'" not in text


@pytest.fixture
def word_tables(tmp_path, monkeypatch):
    """pnp's word tables read from a folder of the test's (and read afresh before and after)."""
    for name in ("en.yaml", "fr.yaml"):
        (tmp_path / name).write_text((words.FOLDER / name).read_text(encoding="utf-8"), encoding="utf-8")
    words._document.cache_clear()
    monkeypatch.setattr(words, "FOLDER", tmp_path)
    yield tmp_path
    words._document.cache_clear()


def test_a_word_table_with_a_yaml_error_names_its_file_and_line(word_tables):
    from pnp.errors import DesignError

    lines = (word_tables / "fr.yaml").read_text(encoding="utf-8").splitlines()
    lines.insert(5, "  broken: [unclosed")
    (word_tables / "fr.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DesignError) as err:
        words.say("sheets.fronts", "fr", name="Cartes", first=1, last=9)
    assert re.match(rf"{re.escape(str(word_tables / 'fr.yaml'))}:\d+: YAML syntax error", str(err.value)), str(err.value)
    assert words.say("sheets.fronts", "en", name="Cards", first=1, last=9) == "Cards: fronts 1-9"


def test_a_key_missing_from_a_word_table_names_the_line_of_its_section(word_tables):
    from pnp.errors import DesignError

    text = (word_tables / "fr.yaml").read_text(encoding="utf-8")
    (word_tables / "fr.yaml").write_text(re.sub(r"(?m)^  fronts: .*\n", "", text), encoding="utf-8")
    line = next(i for i, ln in enumerate(text.splitlines(), start=1) if ln.startswith("sheets:"))
    with pytest.raises(DesignError, match=rf"fr\.yaml:{line}: sheets has no 'fronts' \(pnp asks for sheets\.fronts\); "
                                          "expected the keys of en.yaml"):
        words.say("sheets.fronts", "fr", name="Cartes", first=1, last=9)


def test_a_sheet_of_one_face_is_not_a_range():
    """"Aide de jeu : recto 1", not "recto 1 à 1"; several faces keep their range; the rulebook's component list
    says "(et 1 autre)" for one face it leaves out."""
    from pnp.layout.sheets.grid import faces_title
    from pnp.words import say

    assert faces_title("fronts", "fr", "Aide de jeu", 1, 1) == "Aide de jeu : recto 1"
    assert faces_title("fronts", "en", "Player aid", 1, 1) == "Player aid: front 1"
    assert faces_title("fronts", "fr", "Cartes", 1, 9) == "Cartes : recto 1-9"
    assert faces_title("backs", "en", "Cards", 3, 3, duplex="duplex") == "Cards: back 3 (duplex)"
    assert say("rulebook.more_face", "fr") == "(et 1 autre)" and say("rulebook.more_faces", "fr", n=3) == "(et 3 autres)"
