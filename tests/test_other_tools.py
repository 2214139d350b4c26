"""Decks made the way other tools' users make them, built with their files as those tools leave them.

- tests/fixtures/squib-deck: a Squib project's data (data/deck.csv with `qty` and `realm`, the card backs in
  data/backs.csv), decks per realm (`group_by`), a starter deck by `range`;
- tests/fixtures/nandeck-deck: a nanDECK LINK file saved by Excel on Windows (semicolons, cp1252, CRLF,
  quotes where needed), `LINKMULTI=Qty`, HTMLTEXT cells, no back;
- tests/fixtures/party-deck: a spreadsheet's "CSV UTF-8" (BOM, CRLF): `#`-headed columns, the text last
  with commas nobody quoted, empty cells, one table split into prompts and responses.

Counts, names, groups and text are checked in what a designer gets: the PDF's text per page, the manifest,
the Tabletop Simulator saved object, the files' names, the build's summary and messages.
"""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from clirun import run

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SQUIB_COUNTS = {"Ember Imp": 3, "Flame Wall": 2, "Phoenix": 1, "Kindle": 4, "Tide Caller": 3, "Whirlpool": 2,
                "Leviathan": 1, "Mist": 4, "Stone Golem": 3, "Quake": 2, "Root": 4}
COST = {"Ember Imp": 1, "Flame Wall": 2, "Phoenix": 5, "Kindle": 0, "Tide Caller": 2, "Whirlpool": 3, "Leviathan": 6,
        "Mist": 0, "Stone Golem": 3, "Quake": 4, "Root": 0}
REALM = {"Ember Imp": "Fire", "Flame Wall": "Fire", "Phoenix": "Fire", "Kindle": "Fire", "Tide Caller": "Water",
         "Whirlpool": "Water", "Leviathan": "Water", "Mist": "Water", "Stone Golem": "Earth", "Quake": "Earth",
         "Root": "Earth"}


def _copy(name: str, tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / name, tmp_path / name)
    return tmp_path / name


def _build(folder: Path, tmp_path: Path, *extra: str):
    result = run(["build", str(folder), "--out", str(tmp_path / "out"), *extra], tmp_path)
    return result, tmp_path / "out" / folder.name


def _pages(pdf: Path) -> list[str]:
    """Each page's text, cards turned a quarter on the sheet read upright too (pypdf reads every orientation)."""
    from pypdf import PdfReader

    return [page.extract_text() or "" for page in PdfReader(pdf).pages]


def _manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def squib(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("squib")
    folder = _copy("squib-deck", tmp)
    result, out = _build(folder, tmp)
    assert result.exit_code == 0, result.output
    return result, out


# --- counts --------------------------------------------------------------------------------------------------


def test_squib_qty_column_gives_the_copies_printed(squib):
    result, out = squib
    fronts = [t for t in _pages(out / "squib-deck-a4.pdf") if re.search(r": fronts? \d", t)]  # ("front 9": one card)
    printed = Counter()
    for text in fronts:
        for name in SQUIB_COUNTS:
            printed[name] += len(re.findall(rf"\b{name} {COST[name]}\b", text))  # the name, then its cost
    starter = {"Ember Imp": 1, "Flame Wall": 1, "Phoenix": 1, "Kindle": 1}  # the range: 1-4 deck, 1 copy each
    assert dict(printed) == {n: c + starter.get(n, 0) for n, c in SQUIB_COUNTS.items()}
    assert "printed: cards-fire 10 (copies from column 'qty' of " in result.output
    assert "cards-water 10, cards-earth 9, starter 4" in result.output


def test_usual_count_column_names_are_found_and_said(tmp_path):
    folder = _copy("squib-deck", tmp_path)
    text = (folder / "design.yaml").read_text(encoding="utf-8")
    (folder / "design.yaml").write_text(text.replace("    count: qty                 # Squib", "    # Squib"),
                                        encoding="utf-8")
    result, out = _build(folder, tmp_path)
    assert result.exit_code == 0, result.output
    assert "cards-fire 10 (copies from column 'qty' of " in result.output
    counts = {e["name"]: e["count"] for e in _manifest(out)["components"] if e["component"] != "starter"}
    assert counts == SQUIB_COUNTS


@pytest.mark.parametrize("header,named", [("Quantity", None), ("Copies", None), ("#Qty", None), ("Anzahl", None),
                                          ("n", "n")])
def test_count_column_by_any_usual_or_given_name(tmp_path, header, named):
    folder = _copy("deck-csv", tmp_path)
    csv = (folder / "cards.csv").read_text(encoding="utf-8")
    (folder / "cards.csv").write_text(csv.replace("title,power,colour,count", f"title,power,colour,{header}"),
                                      encoding="utf-8")
    if named:
        text = (folder / "design.yaml").read_text(encoding="utf-8")
        (folder / "design.yaml").write_text(text.replace("    data: cards.csv\n", f"    data: cards.csv\n    count: "
                                                         f"{{column: {named}}}\n"), encoding="utf-8")
    result, out = _build(folder, tmp_path)
    assert result.exit_code == 0, result.output
    cards = [e["count"] for e in _manifest(out)["components"] if e["component"] == "cards"]
    assert cards == [2, 1, 0, 3]
    assert f"cards 6 (copies from column '{header}'" in result.output


def test_a_count_like_column_not_read_is_a_warning(tmp_path):
    folder = _copy("deck-csv", tmp_path)
    csv = (folder / "cards.csv").read_text(encoding="utf-8").splitlines()
    rows = [csv[0] + ",qty_2p"] + [line + ",1" for line in csv[1:]]
    (folder / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    result, _ = _build(folder, tmp_path)
    assert result.exit_code == 0, result.output
    assert ("cards.csv:1: warning: column 'qty_2p' looks like a count of copies but is not read (the copies come "
            "from column 'count'); expected count: qty_2p in the component to read it, or another name for the "
            "column") in result.output


def test_a_count_column_that_is_not_there_is_an_error_with_a_hint(tmp_path):
    folder = _copy("squib-deck", tmp_path)
    text = (folder / "design.yaml").read_text(encoding="utf-8")
    (folder / "design.yaml").write_text(text.replace("count: qty  ", "count: qyt  "), encoding="utf-8")
    result, out = _build(folder, tmp_path)
    assert result.exit_code == 2
    assert "squib-deck/design.yaml:17: count: column 'qyt' is not a column of " in result.output
    assert "did you mean 'qty'?" in result.output
    assert not out.exists()


def test_nandeck_linkmulti_counts_and_ansi_file(tmp_path):
    folder = _copy("nandeck-deck", tmp_path)
    result, out = _build(folder, tmp_path)
    assert result.exit_code == 0, result.output
    counts = {e["name"]: e["count"] for e in _manifest(out)["components"]}
    assert counts == {"Épée de feu": 3, "Bouclier": 2, "Potion": 4, "Dragon": 1, "Gobelin": 5, "Trésor": 2}
    assert "printed: cartes 17 (copies from column 'Qty' of " in result.output
    text = "\n".join(_pages(out / "nandeck-deck-a4.pdf"))
    assert text.count("Épée de feu") == 3 and text.count("Trésor") == 2


def test_nandeck_html_cells_print_as_formatting_not_tags(tmp_path):
    folder = _copy("nandeck-deck", tmp_path)
    result, out = _build(folder, tmp_path, "--margin", "0")  # (cards upright: their characters read in order)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    with pdfplumber.open(out / "nandeck-deck-a4.pdf") as doc:
        chars = [c for page in doc.pages for c in page.chars]
        text = "\n".join(page.extract_text() for page in doc.pages)
    assert "<" not in text and "&quot;" not in text and "&nbsp;" not in text and "&#39;" not in text
    # (typeset as French prints it: « brûle », d’or)
    assert re.search("«\\s?brûle\\s?»", text) and "pièces d’or" in text and "pioche 1" in text
    assert "pioche\xa01" in (out / "svg" / "cartes-5-gobelin.svg").read_text(encoding="utf-8")  # &nbsp;: unbroken
    assert "• Bloque 1 dégât" in text and "• Se défausse ensuite" in text

    def run(word: str) -> list[dict]:  # the characters of the first place `word` is printed
        joined = "".join(c["text"] for c in chars).replace("\xa0", " ")  # (a number and its unit: U+00A0)
        start = joined.index(word)
        return chars[start:start + len(word)]

    assert all("Bold" in c["fontname"] for c in run("Attaque"))
    assert all("Oblique" in c["fontname"] for c in run("Parade"))
    assert all(tuple(c["non_stroking_color"]) == (0.8, 0, 0) for c in run("2 PV"))
    assert not any("Bold" in c["fontname"] for c in run("Défausse"))


def test_a_file_in_another_encoding_says_how_to_read_it(tmp_path):
    folder = _copy("nandeck-deck", tmp_path)
    text = (folder / "design.yaml").read_text(encoding="utf-8")
    (folder / "design.yaml").write_text(text.replace("    encoding: cp1252", "    # encoding"), encoding="utf-8")
    result, _ = _build(folder, tmp_path)
    assert result.exit_code == 2
    assert re.search(r"nandeck-deck/cards\.csv:2: byte 0xC9 at column 1 is not UTF-8; .*or say its encoding beside "
                     r"data: \(encoding: cp1252 for Windows' ANSI\)", result.output), result.output


# --- rows into decks -----------------------------------------------------------------------------------------


def test_group_by_makes_one_deck_each_with_its_own_sheets_and_backs(squib):
    _, out = squib
    pages = _pages(out / "squib-deck-a4.pdf")
    for text in pages:
        realms = {REALM[n] for n in SQUIB_COUNTS if re.search(rf"\b{n} {COST[n]}\b", text)}
        if "cards: " in text:
            assert len(realms) <= 1, text  # a realm's cards together, never mixed on a sheet
    footers = [re.search(r"· (.*?): (fronts?|backs?) ", t).group(1) for t in pages]
    assert footers == ["cards: Fire"] * 4 + ["cards: Water"] * 4 + ["cards: Earth"] * 4 + ["starter"] * 2  # 8 a sheet
    backs = [t for t in pages if re.search(r": backs? \d", t)]
    assert [re.search(r"\b(FIRE|WATER|EARTH)\b", t).group(1) for t in backs] == ["FIRE", "FIRE", "WATER",
                                                                                    "WATER", "EARTH", "EARTH", "FIRE"]
    groups = {e["component"]: e.get("group") for e in _manifest(out)["components"]}
    assert groups["cards-water"] == {"of": "cards", "column": "realm", "value": "Water"}
    assert groups["starter"] is None


def test_the_back_colour_comes_from_the_backs_table(squib):
    import pypdfium2

    _, out = squib
    pages = _pages(out / "squib-deck-a4.pdf")
    doc = pypdfium2.PdfDocument(out / "squib-deck-a4.pdf")
    colours = {"FIRE": (0xC0, 0x39, 0x2B), "WATER": (0x24, 0x71, 0xA3), "EARTH": (0x6E, 0x4B, 0x2A)}
    for i, text in enumerate(pages):
        m = re.search(r"\b(FIRE|WATER|EARTH)\b", text)
        if not m or "backs" not in text:
            continue
        img = doc[i].render(scale=0.5).to_pil().convert("RGB")
        pixel = next(c for c, _ in Counter(img.get_flattened_data()).most_common(3) if min(c) < 200)  # the fill, not paper
        assert all(abs(a - b) <= 3 for a, b in zip(pixel, colours[m.group(1)])), (i, pixel)


def test_range_takes_rows_by_number(squib):
    _, out = squib
    starter = [e["name"] for e in _manifest(out)["components"] if e["component"] == "starter"]
    assert starter == ["Ember Imp", "Flame Wall", "Phoenix", "Kindle"]


@pytest.mark.parametrize("where,names", [
    ("{realm: Water}", ["Tide Caller", "Whirlpool", "Leviathan", "Mist"]),
    ("{realm: [Water, Earth], type: Spell}", ["Whirlpool", "Mist", "Quake", "Root"]),
    ("\"cost >= 5\"", ["Phoenix", "Leviathan"]),
    ("\"type == 'Creature' and realm != 'Fire'\"", ["Tide Caller", "Leviathan", "Stone Golem"]),
])
def test_where_keeps_the_rows_it_says(tmp_path, where, names):
    folder = _copy("squib-deck", tmp_path)
    text = (folder / "design.yaml").read_text(encoding="utf-8")
    text = text.replace("    range: 1-4                 # Squib: range: 0..3\n", f"    where: {where}\n")
    (folder / "design.yaml").write_text(text, encoding="utf-8")
    result, out = _build(folder, tmp_path)
    assert result.exit_code == 0, result.output
    assert [e["name"] for e in _manifest(out)["components"] if e["component"] == "starter"] == names


def test_a_misspelt_where_or_group_column_gets_did_you_mean(tmp_path):
    folder = _copy("squib-deck", tmp_path)
    text = (folder / "design.yaml").read_text(encoding="utf-8")
    text = text.replace("group_by: realm ", "group_by: relm ").replace("    range: 1-4 ", "    where: \"cots > 2\"\n#")
    (folder / "design.yaml").write_text(text, encoding="utf-8")
    result, _ = _build(folder, tmp_path)
    assert result.exit_code == 2
    assert ("components.cards.group_by: 'relm' is not a column of the table; did you mean 'realm'? expected one "
            "of: name, realm, cost, type, text, art") in result.output
    assert "components.starter.where: 'cots' is undefined; did you mean 'cost'? expected the names of the table's " \
           "columns (row " in result.output


def test_tts_has_one_deck_per_group_and_per_card_names(tmp_path):
    folder = _copy("squib-deck", tmp_path)
    result = run(["export", "tts", str(folder), "--out", str(tmp_path / "out")], tmp_path)
    assert result.exit_code == 0, result.output
    saved = json.loads((tmp_path / "out" / "squib-deck" / "tts" / "squib-deck.json").read_text(encoding="utf-8"))
    decks = {o["Nickname"]: o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"}
    assert set(decks) == {"cards: Fire", "cards: Water", "cards: Earth", "starter"}
    fire = Counter(c["Nickname"] for c in decks["cards: Fire"]["ContainedObjects"])
    assert fire == {"Ember Imp": 3, "Flame Wall": 2, "Phoenix": 1, "Kindle": 4}
    images = sorted(p.name for p in (tmp_path / "out" / "squib-deck" / "tts").glob("*back*.png"))
    assert images == ["cards-earth-back.png", "cards-fire-back.png", "cards-water-back.png", "starter-back.png"]


# --- names ---------------------------------------------------------------------------------------------------


def test_name_column_names_files_and_print_service_images(tmp_path):
    folder = _copy("squib-deck", tmp_path)
    result = run(["export", "print-service", "--service", "makeplayingcards", str(folder), "--out",
                  str(tmp_path / "out")], tmp_path)
    assert result.exit_code == 0, result.output
    out = tmp_path / "out" / "squib-deck"
    svgs = sorted(p.name for p in (out / "svg").glob("cards-fire-*.svg"))
    assert svgs == ["cards-fire-1-ember-imp.svg", "cards-fire-2-flame-wall.svg", "cards-fire-3-phoenix.svg",
                    "cards-fire-4-kindle.svg", "cards-fire-back.svg"]
    printed = sorted(p.relative_to(out / "print" / "makeplayingcards").as_posix()
                     for p in (out / "print" / "makeplayingcards").rglob("*.png"))
    assert "cards-fire/001-1-ember-imp.png" in printed, printed


def test_names_come_from_a_normalised_or_usual_column(tmp_path):
    folder = _copy("party-deck", tmp_path)
    result, out = _build(folder, tmp_path)
    assert result.exit_code == 0, result.output
    entries = _manifest(out)["components"]
    assert entries[0]["name"] == "Why can't I sleep at night? ___."
    assert entries[0]["face"] == "svg/cards-prompt-1-why-can-t-i-sleep-at-night.svg"
    assert len({e["face"] for e in entries}) == len(entries)  # unique, however alike the texts


# --- any column name ---------------------------------------------------------------------------------------


def test_hash_headed_columns_by_normalised_name_and_backs_by_what_they_read(tmp_path):
    folder = _copy("party-deck", tmp_path)
    text = (folder / "design.yaml").read_text(encoding="utf-8")
    (folder / "design.yaml").write_text(text.replace("    group_by: type ", "    # "), encoding="utf-8")
    result, out = _build(folder, tmp_path)
    assert result.exit_code == 0, result.output
    entries = _manifest(out)["components"]
    assert {e["back"] for e in entries} == {"svg/cards-back-black.svg", "svg/cards-back-white.svg"}
    assert sorted(p.name for p in (out / "svg").glob("*back*")) == ["cards-back-black.svg", "cards-back-white.svg"]
    pages = _pages(out / "party-deck-letter.pdf")
    assert sum(t.count("PICK 1") for t in pages) == 8  # #Pick read as `pick` (2+1+2+1+2 copies); none on responses
    assert sum(t.count("PICK 2") for t in pages) == 1
    assert "Party Deck · Response" in "\n".join(pages)  # row['#Type']


def test_a_column_a_template_name_hides_is_a_warning(tmp_path):
    folder = _copy("deck-csv", tmp_path)
    csv = (folder / "cards.csv").read_text(encoding="utf-8")
    (folder / "cards.csv").write_text(csv.replace("title,power,colour,count", "title,Width,colour,count"),
                                      encoding="utf-8")
    (folder / "templates" / "front.svg.j2").write_text(
        (folder / "templates" / "front.svg.j2").read_text(encoding="utf-8").replace("{{ power }}",
                                                                                    "{{ row['Width'] }}"),
        encoding="utf-8")
    result, _ = _build(folder, tmp_path)
    assert result.exit_code == 0, result.output
    assert ("cards.csv: warning: column 'Width': the name 'width' is the template's own (the face's width), which "
            "hides the column; expected another column name, or row['Width'] in the template") in result.output


def test_a_column_no_template_reads_is_a_warning_unless_skipped(tmp_path):
    folder = _copy("squib-deck", tmp_path)
    text = (folder / "design.yaml").read_text(encoding="utf-8")
    (folder / "design.yaml").write_text(text.replace("    columns: {art: skip}       # the art's names", "    # the art"),
                                        encoding="utf-8")
    result, _ = _build(folder, tmp_path)
    assert result.exit_code == 0, result.output
    assert ("data/deck.csv:1: warning: column 'art' is read by no template of components.cards (card.svg.j2, "
            "back.svg.j2) nor by its settings; expected it used, or columns: {art: skip} if it only holds notes"
            ) in result.output
    assert "components.starter" not in result.output  # skipped there; its qty left on purpose (column: none)


# --- messages for real files ---------------------------------------------------------------------------------


def test_bare_commas_in_a_last_text_column_are_read_with_a_warning(tmp_path):
    folder = _copy("party-deck", tmp_path)
    result, out = _build(folder, tmp_path)
    assert result.exit_code == 0, result.output
    names = [e["name"] for e in _manifest(out)["components"]]
    assert "I got 99 problems, but ___ ain't one." in names and "Glitter, everywhere" in names
    assert re.search(r"party-deck/cards\.csv: warning: more cells than column names: the cells after column '#Text' "
                     r"are read as part of it, commas and all; expected \"quotes\" around a cell that holds a comma "
                     r"\(a spreadsheet's CSV export writes them\) \(7 rows: .*party-deck/cards\.csv:4, ",
                     result.output), result.output


def test_uneven_rows_before_a_number_column_say_to_quote(tmp_path):
    folder = _copy("deck-csv", tmp_path)
    (folder / "cards.csv").write_text("title,power,colour,count\nFire, and Ice,3,#d55e00,2\nWater,5,#0072b2,1\n",
                                      encoding="utf-8")
    result, _ = _build(folder, tmp_path)
    assert result.exit_code == 2
    assert ("cards.csv:2: 5 cells for 4 column names; expected one cell per column (a cell that holds a comma "
            "needs \"quotes\" around it)") in result.output


def test_a_misspelt_column_in_a_template_gets_did_you_mean(tmp_path):
    folder = _copy("party-deck", tmp_path)
    path = folder / "templates" / "front.svg.j2"
    path.write_text(path.read_text(encoding="utf-8").replace("{% if pick %}", "{% if pikc %}"), encoding="utf-8")
    result, _ = _build(folder, tmp_path)
    assert result.exit_code == 2
    assert re.search(r"front\.svg\.j2:4: 'pikc' is undefined \(filling \d+ rows: .*\); did you mean 'pick'\? ",
                     result.output), result.output


# --- Tabletop Simulator --------------------------------------------------------------------------------------


def test_cards_without_a_back_are_still_a_tts_deck(tmp_path):
    folder = _copy("nandeck-deck", tmp_path)
    result = run(["export", "tts", str(folder), "--out", str(tmp_path / "out")], tmp_path)
    assert result.exit_code == 0, result.output
    tts = tmp_path / "out" / "nandeck-deck" / "tts"
    saved = json.loads((tts / "nandeck-deck.json").read_text(encoding="utf-8"))
    [deck] = [o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert len(deck["DeckIDs"]) == 17
    [sheet] = deck["CustomDeck"].values()
    assert sheet["BackURL"].endswith("cartes--plain-back.png")
    assert (tts / "cartes--plain-back.png").is_file()
    assert not [o for o in saved["ObjectStates"] if o["Name"].startswith("Custom_Tile")]


def test_tts_makes_one_back_image_per_distinct_back(tmp_path):
    folder = _copy("party-deck", tmp_path)
    text = (folder / "design.yaml").read_text(encoding="utf-8")
    (folder / "design.yaml").write_text(text.replace("    group_by: type ", "    # "), encoding="utf-8")
    result = run(["export", "tts", str(folder), "--out", str(tmp_path / "out")], tmp_path)
    assert result.exit_code == 0, result.output
    tts = tmp_path / "out" / "party-deck" / "tts"
    assert sorted(p.name for p in tts.glob("*back*.png")) == ["cards-back-black.png", "cards-back-white.png"]
    saved = json.loads((tts / "party-deck.json").read_text(encoding="utf-8"))
    [deck] = [o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert len(deck["CustomDeck"]) == 2 and len(deck["DeckIDs"]) == 28


# --- docs/from-squib-and-nandeck.md ------------------------------------------------------------------------------


def test_the_guide_shows_the_worked_example_the_suite_builds(tmp_path):
    root = Path(__file__).resolve().parent.parent
    result = run(["build", "tests/fixtures/squib-deck", "--out", str(tmp_path / "output")], root)
    assert result.exit_code == 0, result.output
    guide = (root / "docs" / "from-squib-and-nandeck.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```(\w*)\n(.*?)```", guide, re.S)
    design = (FIXTURES / "squib-deck" / "design.yaml").read_text(encoding="utf-8")
    assert ("yaml", design) in blocks
    layout = (FIXTURES / "squib-deck" / "templates" / "layout.j2").read_text(encoding="utf-8")
    [jinja] = [text for kind, text in blocks if kind == "jinja"]
    assert all(line in layout for line in jinja.strip().splitlines())
    [summary] = [text for kind, text in blocks if text.startswith("squib-deck: ")]
    shown = result.output.replace(str(tmp_path / "output"), "output")
    for line in summary.strip().splitlines():
        assert line in shown, (line, shown)


def test_editing_the_backs_table_repaints_what_reads_it_in_the_next_build(tmp_path):
    import os
    import subprocess
    import sys

    env = {**os.environ, "PNP_CACHE_DIR": str(tmp_path / "cache")}
    folder = _copy("squib-deck", tmp_path)
    out = tmp_path / "out" / "squib-deck"

    def build() -> subprocess.CompletedProcess:  # each build a process of its own, as a designer runs them
        return subprocess.run([sys.executable, "-m", "pnp.cli", "build", str(folder), "--out", str(tmp_path / "out")],
                              capture_output=True, text=True, env=env, timeout=300)

    first = build()
    assert first.returncode == 0, first.stderr
    before = {p.name: p.read_text(encoding="utf-8") for p in (out / "svg").glob("*.svg")}
    backs = folder / "data" / "backs.csv"
    backs.write_text(backs.read_text(encoding="utf-8").replace("#2471a3", "#117a65"), encoding="utf-8")
    second = build()
    assert second.returncode == 0, second.stderr
    after = {p.name: p.read_text(encoding="utf-8") for p in (out / "svg").glob("*.svg")}
    changed = sorted(n for n in after if after[n] != before[n])
    assert changed == ["cards-water-1-tide-caller.svg", "cards-water-2-whirlpool.svg", "cards-water-3-leviathan.svg",
                       "cards-water-4-mist.svg", "cards-water-back.svg"]
    assert all("#117a65" in after[n] for n in changed)
    assert "7 written, 15 unchanged" in second.stdout  # those five, the sheets PDF and the contact sheet


def test_the_kit_bookmarks_each_deck_of_a_split_table(tmp_path):
    import pypdf

    folder = _copy("squib-deck", tmp_path)
    result = run(["export", "kit", str(folder), "--out", str(tmp_path / "out")], tmp_path)
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(tmp_path / "out" / "squib-deck" / "squib-deck-kit-en-a4.pdf")
    [sheets] = [item for item in reader.outline if isinstance(item, list)]
    assert [(b.title, reader.get_destination_page_number(b)) for b in sheets] == [
        ("cards: Fire", 2), ("cards: Water", 6), ("cards: Earth", 10), ("starter", 14)]


def test_a_squib_style_xlsx_with_numbers_stored_as_text(tmp_path):
    import openpyxl

    folder = _copy("deck-csv", tmp_path)
    (folder / "cards.csv").unlink()
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Deck"
    ws.append(["Name", "Qty", "Level", "Realm"])
    for name, qty, level, realm in [("Imp", "3", "1", "Fire"), ("Golem", 2, 4, "Earth"), ("Wisp", "1 ", "2", "Fire")]:
        ws.append([name, qty, level, realm])  # "3": a number stored as text, as Excel flags with a green corner
    wb.save(folder / "deck.xlsx")
    text = (folder / "design.yaml").read_text(encoding="utf-8")
    (folder / "design.yaml").write_text(text.replace("    data: cards.csv\n", "    data: deck.xlsx\n    group_by: Realm\n"
                                                     "    name_column: Name\n"), encoding="utf-8")
    (folder / "templates" / "front.svg.j2").write_text(
        '<text x="5" y="20" font-size="6">{{ name }}</text>\n'
        '<text x="5" y="40" font-size="6">level {{ level | int + 1 }}</text>\n', encoding="utf-8")
    result, out = _build(folder, tmp_path)
    assert result.exit_code == 0, result.output
    entries = [e for e in _manifest(out)["components"] if e["component"].startswith("cards")]
    assert [(e["component"], e["name"], e["count"]) for e in entries] == [
        ("cards-fire", "Imp", 3), ("cards-fire", "Wisp", 1), ("cards-earth", "Golem", 2)]
    text = "\n".join(_pages(out / "deck-csv-a4.pdf"))
    assert text.count("level 2") == 3 and text.count("level 5") == 2 and text.count("level 3") == 1
    assert "printed: cards-fire 4 (copies from column 'Qty' of " in result.output


def test_the_contact_sheet_has_a_section_per_deck_with_names_and_backs(squib):
    _, out = squib
    page = (out / "index.html").read_text(encoding="utf-8")
    ids = re.findall(r'<section id="([^"]+)"', page)
    assert [i for i in ids if i != "validate"] == ["cards-fire", "cards-water", "cards-earth", "starter"]
    fire = page[page.index('<section id="cards-fire"'):page.index('<section id="cards-water"')]
    assert "cards: Fire" in fire and "4 faces + a shared back, 10 in the box" in fire
    assert re.findall(r'class="count">×(\d+)</span> ([^<]+)</figcaption>', fire) == [
        ("3", "Ember Imp"), ("2", "Flame Wall"), ("1", "Phoenix"), ("4", "Kindle"), ("10", "back")]


def test_a_rules_text_counts_a_split_component_whole_and_by_deck(tmp_path):
    folder = _copy("squib-deck", tmp_path)
    (folder / "rules.en.md").write_text(
        "# Realms\n\nThe box holds {{ components['cards'].copies }} realm cards of {{ components['cards'].faces }} "
        "kinds; Fire has {{ components['cards-fire'].copies }}, the starter {{ components['starter'].copies }}.\n",
        encoding="utf-8")
    result, out = _build(folder, tmp_path)
    assert result.exit_code == 0, result.output
    text = " ".join(_pages(out / "squib-deck-rules-en-a4.pdf")).replace("\n", " ")
    assert "The box holds 29 realm cards of 11 kinds; Fire has 10, the starter 4." in text
