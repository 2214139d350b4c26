"""Printed states, reprints and changes (issue 34): after `pnp printed`, an edited row, template or count gives a
reprint PDF of exactly the faces that changed, with the copies to print and their backs behind them, and a
replacement list that names them; `pnp changes` says what changed by field; `--since` takes a git revision."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
from click.testing import CliRunner

from pnp.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"


def pnp(*args: str) -> str:
    """The command's output, its no-break spaces (French typography) read as spaces."""
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return plain(result.output)


def plain(text: str) -> str:
    return text.replace("\u00a0", " ").replace("\u202f", " ")


@pytest.fixture
def deck(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "deck-csv"
    shutil.copytree(FIXTURES / "deck-csv", folder)
    return folder


def forms(page) -> list[tuple[float, float, float, float]]:
    """The faces placed on a sheet page: its form XObjects' boxes (pt), larger than 1 cm."""
    boxes = [tuple(round(v, 1) for v in obj.get_bounds()) for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_FORM],
                                                                                   max_depth=1)]
    return sorted(b for b in boxes if b[2] - b[0] > 28 and b[3] - b[1] > 28)


def pages(pdf: Path) -> list[dict]:
    doc = pypdfium2.PdfDocument(str(pdf))
    out = []
    for page in doc:
        out.append({"text": plain(page.get_textpage().get_text_bounded()), "forms": forms(page), "width": page.get_width()})
    doc.close()
    return out


def reprint_pdf(out: Path, design: str = "deck-csv", since: str = "v1") -> Path:
    return out / design / f"{design}-reprint-{since}-a4.pdf"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_an_edited_row_reprints_that_card_alone_with_its_back(deck, tmp_path):
    assert "printed state v1" in pnp("printed", "deck-csv", "--note", "first playtest")
    edit(deck / "cards.csv", "Water,5", "Rain,5")
    said = pnp("reprint", "deck-csv")
    assert "discard 1 x ‘Water’ (v1), print 1 x ‘Rain’ (v2)" in said
    listed = pages(reprint_pdf(tmp_path / "output"))
    assert len(listed) == 4  # the list, its blank back, one sheet of fronts, its backs
    assert "reprint since v1" in listed[0]["text"] and "‘Rain’" in listed[0]["text"]
    assert listed[1]["text"].strip() == "" and listed[1]["forms"] == []
    fronts, backs = listed[2], listed[3]
    assert "Rain" in fronts["text"] and "Fire" not in fronts["text"] and "Wind" not in fronts["text"]
    assert len(fronts["forms"]) == 1 and len(backs["forms"]) == 1
    # duplex on the long edge: the back is where the front is, mirrored left to right
    (x0, y0, x1, y1), (bx0, by0, bx1, by1) = fronts["forms"][0], backs["forms"][0]
    width = fronts["width"]
    assert (round(width - x1, 1), y0) == pytest.approx((bx0, by0), abs=0.2)
    assert (x1 - x0, y1 - y0) == pytest.approx((bx1 - bx0, by1 - by0), abs=0.2)
    report = json.loads((tmp_path / "output" / "deck-csv" / "deck-csv-reprint-v1-a4.json").read_text())
    assert report["print"] == {"cards-2": 1}
    assert report["changed"] == [{"name": "Rain", "was": "Water", "discard": 1, "print": 1, "since": "v1"}]


def test_a_count_that_grew_prints_the_difference_and_a_new_row_all_its_copies(deck, tmp_path):
    pnp("printed", "deck-csv")
    edit(deck / "cards.csv", "Wind,2,#009e73,3", "Wind,2,#009e73,5")
    (deck / "cards.csv").write_text((deck / "cards.csv").read_text() + "Fog,4,#444444,2\n")
    said = pnp("reprint", "deck-csv")
    assert "print 2 more x ‘Wind’ (unchanged)" in said and "new: 2 x ‘Fog’" in said
    report = json.loads((tmp_path / "output" / "deck-csv" / "deck-csv-reprint-v1-a4.json").read_text())
    assert report["print"] == {"cards-4": 2, "cards-5": 2}
    listed = pages(reprint_pdf(tmp_path / "output"))
    assert len(listed[2]["forms"]) == 4 == len(listed[3]["forms"])
    assert listed[2]["text"].count("Wind") == 2 and listed[2]["text"].count("Fog") == 2


def test_an_edited_template_reprints_every_face_made_from_it(deck, tmp_path):
    pnp("printed", "deck-csv")
    edit(deck / "templates" / "front.svg.j2", 'font-size="20"', 'font-size="22"')
    pnp("reprint", "deck-csv")
    report = json.loads((tmp_path / "output" / "deck-csv" / "deck-csv-reprint-v1-a4.json").read_text())
    assert report["print"] == {"cards-1": 2, "cards-2": 1, "cards-4": 3}  # (Stone has no copies)
    assert report["new"] == [] and report["removed"] == []
    said = pnp("changes", "deck-csv")
    assert said.count("template templates/front.svg.j2 changed") == 4  # Stone too: it changed, with no copies


def test_changes_name_the_field_the_count_and_the_rulebook_section(deck):
    (deck / "rules.en.md").write_text("# Table Deck\n\n## Setup\n\nShuffle.\n\n## Play\n\nDraw one.\n")
    pnp("printed", "deck-csv")
    edit(deck / "cards.csv", "Water,5", "Water,6")
    edit(deck / "cards.csv", "Wind,2,#009e73,3", "Wind,2,#009e73,1")
    edit(deck / "rules.en.md", "Draw one.", "Draw two.")
    said = pnp("changes", "deck-csv")
    assert "cards:\n" in said
    assert "Water (cards-2): power: 5 -> 6" in said
    assert "Wind (cards-4): count 3 -> 1" in said
    assert "rules.en.md:\n  section 'Play' changed" in said and "'Setup'" not in said
    assert "Fire" not in said
    # nothing to reprint but fewer copies of Wind; Water with its new power
    reprinted = pnp("reprint", "deck-csv")
    assert "take out 2 x ‘Wind’ (unchanged)" in reprinted and "print 1 x ‘Water’" in reprinted


def test_nothing_changed_writes_no_pdf_and_says_so(deck, tmp_path):
    pnp("printed", "deck-csv")
    said = pnp("reprint", "deck-csv")
    assert "nothing changed since v1: nothing to print" in said
    assert not reprint_pdf(tmp_path / "output").exists()


def test_states_accumulate_and_since_picks_one(deck, tmp_path):
    pnp("printed", "deck-csv")
    edit(deck / "cards.csv", "Water,5", "Rain,5")
    assert "printed state v2" in pnp("printed", "deck-csv", "--note", "second")
    states = json.loads((deck / "printed.json").read_text())["states"]
    assert [(s["version"], s["note"]) for s in states] == [("v1", ""), ("v2", "second")]
    assert "nothing changed since v2" in pnp("reprint", "deck-csv")
    assert "‘Rain’" in pnp("reprint", "deck-csv", "--since", "v1")
    result = CliRunner().invoke(main, ["reprint", "deck-csv", "--since", "v9"])
    assert result.exit_code == 2 and "--since v9: neither a printed state" in result.output and "v1, v2" in result.output


def test_the_reprint_is_the_same_bytes_twice(deck, tmp_path):
    pnp("printed", "deck-csv")
    edit(deck / "cards.csv", "Water,5", "Rain,5")
    pnp("reprint", "deck-csv")
    first = reprint_pdf(tmp_path / "output").read_bytes()
    pnp("reprint", "deck-csv")
    assert reprint_pdf(tmp_path / "output").read_bytes() == first


def test_since_a_git_revision(deck, tmp_path):
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    git("-c", "user.name=t", "-c", "user.email=t@example.org", "add", "deck-csv")
    git("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "first")
    edit(deck / "cards.csv", "Water,5", "Rain,5")
    said = pnp("reprint", "deck-csv", "--since", "HEAD")
    assert "discard 1 x ‘Water’ (HEAD), print 1 x ‘Rain’" in said
    assert "Rain (cards-2): title: 'Water' -> 'Rain'" in pnp("changes", "deck-csv", "--since", "HEAD")
    assert (deck / "cards.csv").read_text().count("Rain") == 1  # the working copy untouched
    result = CliRunner().invoke(main, ["reprint", "deck-csv", "--since", "no-such-branch"])
    assert result.exit_code == 2 and "--since no-such-branch" in result.output


@pytest.fixture
def stars(tmp_path, monkeypatch) -> tuple[Path, Path, Path]:
    """A copy of 3 Stars printed as v1: (its folder, its design.yaml, the JSON report its reprint writes)."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "three-stars"
    shutil.copytree(ROOT / "designs" / "three-stars", folder)
    pnp("printed", str(folder))
    return folder, folder / "design.yaml", tmp_path / "output" / "three-stars" / "three-stars-reprint-v1-fr-a4.json"


def test_three_stars_count_and_params(stars, tmp_path):
    folder, design, report_file = stars
    # a count: the same 41 cards, one more copy of each
    edit(design, "    params: {min: 1, max: 3}", "    count: 2\n    params: {min: 1, max: 3}")
    said = pnp("reprint", str(folder))
    report = json.loads(report_file.read_text())
    assert len(report["more"]) == 41 and report["changed"] == report["new"] == report["removed"] == []
    assert said.count("imprimez 1 x « carte") == 41 and said.count("de plus (inchangé)") == 41
    listed = pages(tmp_path / "output" / "three-stars" / "three-stars-reprint-v1-fr-a4.pdf")
    placed = [len(p["forms"]) for p in listed[2:]]
    assert sum(placed[0::2]) == 41 == sum(placed[1::2])  # 41 fronts, 41 backs behind them
    assert "réimpression depuis v1" in listed[0]["text"]
    # fewer cards: the 6 of one triangle go, and the 35 others are numbered again (each prints n/35): all changed
    edit(design, "    count: 2\n    params: {min: 1, max: 3}", "    params: {min: 2, max: 3}")
    pnp("reprint", str(folder))
    report = json.loads(report_file.read_text())
    assert len(report["changed"]) == 35 and len(report["removed"]) == 6 and set(report["print"].values()) == {1}
    assert report["changed"][0] == {"name": "carte 1 : positions 0, 1", "was": "carte 1 : positions 0", "discard": 1,
                                    "print": 1, "since": "v1"}


def test_three_stars_drawing_back_and_a_piece_colour(stars, tmp_path):
    """3 Stars' cards have no rows or templates: their drawing is the generator's (its params), their back another
    generator's, a piece's look a colour in the design; each edit reprints exactly the faces it touches."""
    folder, design, report_file = stars
    cards = "    params: {min: 1, max: 3}"
    # the cards' drawing (the circles board's stars): the 41 fronts, same names, nothing new
    edit(design, cards, cards[:-1] + ", cells: circle}")
    said = pnp("changes", str(folder))
    assert said.count("): drawing changed") == 41 and "back" not in said and "pieces" not in said
    pnp("reprint", str(folder))
    report = json.loads(report_file.read_text())
    assert len(report["changed"]) == 41 and report["new"] == report["removed"] == []
    assert all(c["name"] == c["was"] and c["print"] == c["discard"] == 1 for c in report["changed"])
    edit(design, cards[:-1] + ", cells: circle}", cards)
    # the back alone: every front goes out again (it prints on the back of each), with the new back behind it
    edit(design, "generate: three_stars.card_back", "generate: three_stars.card_back\n      params: {cells: circle}")
    said = pnp("changes", str(folder))
    assert said.count("): its back changed") == 41 and "back (placement-cards-back.fr): drawing changed" in said
    pnp("reprint", str(folder))
    assert len(json.loads(report_file.read_text())["changed"]) == 41
    listed = pages(tmp_path / "output" / "three-stars" / "three-stars-reprint-v1-fr-a4.pdf")
    placed = [len(p["forms"]) for p in listed[2:]]
    assert sum(placed[0::2]) == 41 == sum(placed[1::2])
    edit(design, "\n      params: {cells: circle}", "")
    # one colour of pieces: its 34 pieces, and nothing else
    edit(design, '{name: red, colour: "#D55E00"', '{name: red, colour: "#CC0000"')
    said = pnp("changes", str(folder))
    assert "(pieces-red): fill: '#D55E00' -> '#CC0000'" in said and "placement-cards" not in said
    pnp("reprint", str(folder))
    assert json.loads(report_file.read_text())["print"] == {"pieces-red": 34}


def test_the_contact_sheet_lists_the_changes_and_outlines_the_changed_faces(deck, tmp_path):
    index = tmp_path / "output" / "deck-csv" / "index.html"
    pnp("build", "deck-csv", "--no-exports")
    assert 'id="changes"' not in index.read_text()  # no printed state: nothing to compare with
    pnp("printed", "deck-csv")
    pnp("build", "deck-csv", "--no-exports")
    page = index.read_text()
    assert "Changes since v1" in page and "nothing changed since v1" in page and 'class="changed"' not in page
    edit(deck / "cards.csv", "Water,5", "Water,6")
    pnp("build", "deck-csv", "--no-exports")
    page = index.read_text()
    changes = page[page.index('id="changes"'):page.index("</section>", page.index('id="changes"'))]
    assert "<li>Water (cards-2): power: 5 -&gt; 6</li>" in changes and "1 face new or changed" in changes
    outlined = re.findall(r'<figure class="changed"><div class="face" role="img" aria-label="([^"]+)"', page)
    assert outlined == ["cards 2"]
    (deck / "printed.json").write_text("{not json", encoding="utf-8")  # a broken printed.json: a warning, a page
    result = CliRunner().invoke(main, ["build", "deck-csv", "--no-exports"])
    assert result.exit_code == 0 and "printed.json:1: warning: not JSON" in result.output
    assert "the contact sheet shows no changes" in result.output and 'id="changes"' not in index.read_text()


def test_changed_art_reprints_the_cards_that_show_it(tmp_path, monkeypatch):
    from PIL import Image

    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "art-deck"
    shutil.copytree(FIXTURES / "art-deck", folder)
    pnp("printed", "art-deck")
    with Image.open(folder / "icons" / "red.png") as im:
        im.convert("RGB").point(lambda v: 255 - v).save(folder / "icons" / "red.png")  # the same name, other pixels
    said = pnp("changes", "art-deck")
    assert "Sword (cards-1): art icons/red.png changed" in said and "Bow (cards-3): art icons/red.png changed" in said
    assert "Shield" not in said
    pnp("reprint", "art-deck")
    report = json.loads((tmp_path / "output" / "art-deck" / "art-deck-reprint-v1-a4.json").read_text())
    assert report["print"] == {"cards-1": 2, "cards-3": 1}


def marks_on(pdf: Path) -> dict[str, dict]:
    """Each page's card title (its first line) -> its version mark's text, position and size (print-shop PDF: one
    face a page, at trim + bleed)."""
    out = {}
    doc = pypdfium2.PdfDocument(str(pdf))
    for page in doc:
        tp = page.get_textpage()
        text = tp.get_text_range()
        at = text.find("v")
        while at >= 0 and not text[at + 1:at + 2].isdigit():
            at = text.find("v", at + 1)
        if at < 0:
            continue
        end = at
        while end < len(text) and text[end] not in "\r\n":
            end += 1
        boxes = [tp.get_charbox(i) for i in range(at, end)]
        out[plain(text).split()[0]] = {
            "mark": plain(text[at:end]).strip(), "right": max(b[2] for b in boxes), "bottom": min(b[1] for b in boxes),
            "top": max(b[3] for b in boxes),
            # the text's size from its digits' height (DejaVu Sans digits are 0.729 em high)
            "size": max(b[3] - b[1] for b, ch in zip(boxes, text[at:end]) if ch.isdigit()) / 0.729,
            "width": page.get_width(), "height": page.get_height()}
    doc.close()
    return out


def test_version_marks_say_which_printing_a_card_is_from(deck, tmp_path):
    edit(deck / "design.yaml", "  paper: a4\n", "  paper: a4\n  version_mark: corner\n")
    pnp("printed", "deck-csv")
    date = json.loads((deck / "printed.json").read_text())["states"][0]["date"]
    pnp("build", "deck-csv", "--print-shop")
    shop = tmp_path / "output" / "deck-csv" / "deck-csv-print-shop.pdf"
    marks = marks_on(shop)
    assert marks["Fire"]["mark"] == marks["Water"]["mark"] == f"v1 · {date}"
    # 5 pt, right-aligned on the safe zone's edge (3 mm in from the trim, which is 3 mm in from the page: bleed),
    # in the band between the trim and the safe zone at the bottom
    mm = 72 / 25.4
    fire = marks["Fire"]
    assert fire["size"] == pytest.approx(5, abs=0.3)  # (pdfium's boxes take in a little more than the glyph)
    assert fire["right"] == pytest.approx(fire["width"] - 6 * mm, abs=0.6)
    assert 3 * mm <= fire["bottom"] < fire["top"] <= 6 * mm
    # a changed card carries the next code until it is recorded; the others keep theirs
    edit(deck / "cards.csv", "Water,5", "Rain,5")
    pnp("build", "deck-csv", "--print-shop")
    marks = marks_on(shop)
    assert (marks["Fire"]["mark"], marks["Rain"]["mark"]) == (f"v1 · {date}", "v2")
    pnp("printed", "deck-csv")
    pnp("build", "deck-csv", "--print-shop")
    marks = marks_on(shop)
    assert (marks["Fire"]["mark"], marks["Rain"]["mark"]) == (f"v1 · {date}", f"v2 · {date}")


def test_turning_version_marks_on_changes_no_face(deck, tmp_path):
    """A face is the same drawing with and without its mark: marking a deck already printed reprints nothing."""
    pnp("printed", "deck-csv")
    edit(deck / "design.yaml", "  paper: a4\n", "  paper: a4\n  version_mark: corner\n")
    assert pnp("changes", "deck-csv").splitlines()[1:] == ["nothing changed since v1"]
    pnp("reprint", "deck-csv")
    assert not reprint_pdf(tmp_path / "output").exists()
