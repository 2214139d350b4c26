"""The Tabletop Simulator saved object: parse the JSON and check every object against the input."""

from __future__ import annotations

import json
import re

import pytest

from pnp.exports import tts
from pnp.exports.tts import (
    TtsBoard,
    TtsCard,
    TtsDeck,
    TtsGame,
    TtsPiece,
    TtsRulebook,
    dumps,
    game_from_manifest,
    plan_tts,
    saved_object,
)

BASE = "https://example.org/proto"
INCH = 25.4


def big_game(name: str = "Test game") -> TtsGame:
    # 75 distinct faces with the deck's back (two sheets: 69 + 6), 3 with a second back, copies of some
    cards = [TtsCard(f"f{i:02d}", name=f"Card {i}", description=f"text {i}", count=1 + (i % 3 == 0))
             for i in range(75)]
    cards += [TtsCard(f"g{i}", name=f"Other {i}", count=2, back="back-b") for i in range(3)]
    return TtsGame(
        name=name,
        decks=(TtsDeck("deck", "The deck", (63.0, 88.0), "back-a", tuple(cards)),
               TtsDeck("solo", "One card", (70.0, 120.0), "solo-back", (TtsCard("s0", name="Alone"),))),
        boards=(TtsBoard("board", "Board", "board-img", (245.0, 161.9), description="the board"),),
        pieces=(TtsPiece("red", "Red piece", "red-img", (30.0, 25.98), "triangle", count=34, bag="red"),
                TtsPiece("hex-a", "Hex A", "hex-a", (40.0, 34.64), "hexagon", count=5, bag="tiles"),
                TtsPiece("hex-b", "Hex B", "hex-b", (40.0, 34.64), "hexagon", count=4, bag="tiles"),
                TtsPiece("coin", "Coin", "coin-img", (20.0, 20.0), "circle", count=1, back="coin-back"),
                TtsPiece("cube", "Marker", "cube-img", (25.0, 15.0), "rect", count=3)),
        rulebooks=(TtsRulebook("rules-en", "Rules (en)", "rules-en.pdf"),),
    )


@pytest.fixture(scope="module")
def made():
    game = big_game()
    plan = plan_tts(game)
    data = json.loads(dumps(saved_object(plan, BASE)))
    return game, plan, data


def objects(data, name):
    return [o for o in data["ObjectStates"] if o["Name"] == name]


def test_the_file_is_a_saved_object(made):
    _, _, data = made
    assert data["SaveName"] == "" and isinstance(data["ObjectStates"], list)
    names = sorted(o["Name"] for o in data["ObjectStates"])
    assert names == sorted(["DeckCustom", "Card", "Custom_Tile", "Custom_Tile", "Bag", "Bag", "Bag",
                            "Custom_PDF"])


def test_deck_sheets_respect_tts_limits_and_split_by_back(made):
    _, plan, _ = made
    sheets = [s for s in plan.sheets if s.deck == "deck"]
    assert [(s.back, len(s.slots), s.cols, s.rows) for s in sheets] == [
        ("back-a", 69, 10, 7), ("back-a", 6, 7, 1), ("back-b", 3, 4, 1)]
    assert [s.file for s in sheets] == ["tts/deck-1.png", "tts/deck-2.png", "tts/deck-3.png"]
    for s in plan.sheets:
        assert s.cols <= 10 and s.rows <= 7 and len(s.slots) <= s.hidden_slot
        assert max(s.sheet_px) <= 4096
    assert len({s.deck_id for s in plan.sheets}) == len(plan.sheets)
    # a full 10 x 7 poker sheet at 150 dpi: 372 x 519 px cells, 3720 x 3633 px
    assert sheets[0].cell_px == (372, 519) and sheets[0].sheet_px == (3720, 3633)
    # tarot cards are shrunk so a full 10 x 7 sheet would still fit 4096 px
    (solo,) = [s for s in plan.sheets if s.deck == "solo"]
    assert solo.cell_px[1] * 7 <= 4096 and solo.cell_px[1] >= 585


def test_every_card_points_at_its_own_face_and_back(made):
    game, plan, data = made
    (deck,) = objects(data, "DeckCustom")
    deck_in = game.decks[0]
    expected = [c for c in deck_in.cards for _ in range(c.count)]
    contained = deck["ContainedObjects"]
    assert len(contained) == sum(c.count for c in deck_in.cards) == 75 + 25 + 3 * 2
    assert deck["DeckIDs"] == [c["CardID"] for c in contained]
    sheets = {s.deck_id: s for s in plan.sheets}
    for card_in, card in zip(expected, contained):
        assert card["Name"] == "Card"
        assert (card["Nickname"], card["Description"]) == (card_in.name, card_in.description)
        deck_id, slot = divmod(card["CardID"], 100)
        sheet = sheets[deck_id]
        assert sheet.slots[slot] == card_in.image and slot < sheet.hidden_slot
        assert sheet.back == (card_in.back or deck_in.back)
        entry = card["CustomDeck"][str(deck_id)]
        assert entry == deck["CustomDeck"][str(deck_id)]
        assert entry["FaceURL"] == f"{BASE}/{sheet.file}"
        assert entry["BackURL"] == f"{BASE}/tts/{sheet.back}.png"
        assert (entry["NumWidth"], entry["NumHeight"]) == (sheet.cols, sheet.rows)
        assert entry["BackIsHidden"] is True and entry["UniqueBack"] is False
    assert sorted(deck["CustomDeck"]) == sorted(str(s.deck_id) for s in plan.sheets if s.deck == "deck")
    # copies share a card id; distinct faces do not
    by_image = {}
    for card_in, card in zip(expected, contained):
        by_image.setdefault(card_in.image, set()).add(card["CardID"])
    assert all(len(ids) == 1 for ids in by_image.values())
    assert len({next(iter(ids)) for ids in by_image.values()}) == len(by_image)


def test_a_one_card_deck_is_a_single_card(made):
    _, plan, data = made
    (card,) = objects(data, "Card")
    (sheet,) = [s for s in plan.sheets if s.deck == "solo"]
    assert card["Nickname"] == "Alone" and card["CardID"] == sheet.deck_id * 100
    assert (sheet.cols, sheet.rows) == (2, 1)


def test_sizes_in_tts_units_are_the_real_sizes_in_inches(made):
    _game, _, data = made
    (deck,) = objects(data, "DeckCustom")
    t = deck["Transform"]
    assert t["scaleZ"] * tts.CARD_HEIGHT_UNITS == pytest.approx(88.0 / INCH, abs=1e-3)
    assert t["scaleX"] == t["scaleZ"] and t["rotZ"] == 180.0  # face down
    (board,) = [o for o in objects(data, "Custom_Tile") if o["Nickname"] == "Board"]
    assert board["Transform"]["scaleX"] * tts.TILE_SHORT_UNITS == pytest.approx(161.9 / INCH, abs=1e-3)
    assert board["Locked"] is True
    tile = board["CustomImage"]["CustomTile"]
    assert tile == {"Type": 0, "Thickness": round(2.0 / INCH, 4), "Stackable": False, "Stretch": False}
    bags = {o["Nickname"]: o for o in objects(data, "Bag")}
    red = bags["Red piece (34)"]["ContainedObjects"]
    assert len(red) == 34 and {o["Name"] for o in red} == {"Custom_Token"}
    assert red[0]["Transform"]["scaleX"] * tts.TOKEN_LONG_UNITS == pytest.approx(30.0 / INCH, abs=1e-3)
    assert red[0]["CustomImage"]["ImageURL"] == f"{BASE}/tts/red-img.png"
    hexes = bags["Tiles (9)"]["ContainedObjects"]
    assert [o["Nickname"] for o in hexes] == ["Hex A"] * 5 + ["Hex B"] * 4
    (coin,) = [o for o in objects(data, "Custom_Tile") if o["Nickname"] == "Coin"]
    assert coin["CustomImage"]["CustomTile"]["Type"] == 2 and coin["CustomImage"]["CustomTile"]["Stretch"] is True
    assert coin["CustomImage"]["ImageSecondaryURL"] == f"{BASE}/tts/coin-back.png"
    assert coin["Transform"]["scaleX"] * tts.TILE_SHORT_UNITS == pytest.approx(20.0 / INCH, abs=1e-3)
    cubes = bags["Marker (3)"]["ContainedObjects"]
    assert cubes[0]["CustomImage"]["CustomTile"]["Type"] == 0
    assert cubes[0]["Transform"]["scaleX"] * tts.TILE_SHORT_UNITS == pytest.approx(15.0 / INCH, abs=1e-3)
    (pdf,) = objects(data, "Custom_PDF")
    assert pdf["CustomPDF"] == {"PDFUrl": f"{BASE}/rules-en.pdf", "PDFPassword": "", "PDFPage": 0,
                                "PDFPageOffset": 0}


def footprint(obj) -> tuple[float, float]:
    """Table space of a top-level object in units, from its input sizes (not from the layout code)."""
    s = obj["Transform"]["scaleX"]
    if obj["Name"] in ("DeckCustom", "Card"):
        h = s * tts.CARD_HEIGHT_UNITS
        return (h * 63.0 / 88.0, h) if obj["Name"] == "DeckCustom" else (h * 70 / 120, h)
    if obj["Name"] == "Bag":
        return tts.BAG_FOOTPRINT
    if obj["Name"] == "Custom_PDF":
        return tts.PDF_FOOTPRINT
    if obj["Nickname"] == "Board":
        return (245.0 / INCH, 161.9 / INCH)
    return (20.0 / INCH, 20.0 / INCH)  # the coin


def test_objects_lie_on_the_table_without_overlapping(made):
    _, _, data = made
    boxes = []
    for o in data["ObjectStates"]:
        w, d = footprint(o)
        x, z = o["Transform"]["posX"], o["Transform"]["posZ"]
        boxes.append((x - w / 2, x + w / 2, z - d / 2, z + d / 2))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[1] <= b[0] + 1e-6 or b[1] <= a[0] + 1e-6 or a[3] <= b[2] + 1e-6 or b[3] <= a[2] + 1e-6
    xs = [v for b in boxes for v in b[:2]]
    assert abs(min(xs) + max(xs)) < 1e-3  # centred


def all_objects(data):
    for o in data["ObjectStates"]:
        yield o
        yield from o.get("ContainedObjects", [])


def test_guids_are_unique_hex_and_stable(made):
    _game, _, data = made
    guids = [o["GUID"] for o in all_objects(data)]
    assert len(guids) == len(set(guids))
    assert all(re.fullmatch(r"[0-9a-f]{6}", g) for g in guids)
    assert dumps(saved_object(plan_tts(big_game()), BASE)) == dumps(data)
    other = json.loads(dumps(saved_object(plan_tts(big_game("Another game")), BASE)))
    assert not set(guids) & {o["GUID"] for o in all_objects(other)}


def test_plan_lists_every_image_the_json_points_at(made):
    _, plan, data = made
    files = {s.file for s in plan.sheets} | {i.file for i in plan.images}
    urls = set(re.findall(r'"(?:FaceURL|BackURL|ImageURL|ImageSecondaryURL)": "([^"]+)"', dumps(data)))
    assert {u.removeprefix(BASE + "/") for u in urls} == files
    tokens = {i.image for i in plan.images if i.cut_out}
    assert tokens == {"red-img", "hex-a", "hex-b"}


def test_local_folders_become_file_urls_and_relative_ones_are_refused(tmp_path):
    game = TtsGame("g", boards=(TtsBoard("b", "B", "my board", (100, 100)),))
    data = saved_object(game, str(tmp_path))
    url = data["ObjectStates"][0]["CustomImage"]["ImageURL"]
    assert url == (tmp_path / "tts" / "my-board.png").as_uri() and url.startswith("file:///")
    with pytest.raises(ValueError, match="relative"):
        saved_object(game, "out/game")
    with pytest.raises(ValueError, match="web address"):
        saved_object(game, "ftp://host/x")


def test_bad_input_is_refused_with_a_message():
    with pytest.raises(ValueError, match="'x' used twice"):
        plan_tts(TtsGame("g", boards=(TtsBoard("x", "B", "i", (10, 10)),),
                         pieces=(TtsPiece("x", "P", "j", (10, 10)),)))
    with pytest.raises(ValueError, match="at least one card"):
        plan_tts(TtsGame("g", decks=(TtsDeck("d", "D", (63, 88), "b", ()),)))


def test_a_token_with_a_back_loses_it_and_says_so():
    plan = plan_tts(TtsGame("g", pieces=(TtsPiece("t", "T", "t", (30, 26), "triangle", back="t-back"),)))
    assert plan.problems and "left out" in plan.problems[0]
    assert "t-back" not in {i.image for i in plan.images}


def test_three_stars_from_its_manifest(three_stars_a4):
    manifest = json.loads((three_stars_a4 / "manifest.json").read_text(encoding="utf-8"))
    game = game_from_manifest(manifest, [("en", "three-stars-rules-en-a4.pdf"), ("fr", "three-stars-rules-fr-a4.pdf")])
    plan = plan_tts(game)
    data = json.loads(dumps(saved_object(plan, str(three_stars_a4))))
    (deck,) = objects(data, "DeckCustom")
    cards = [e for e in manifest["components"] if e["component"] == "placement-cards"]
    assert len(deck["ContainedObjects"]) == sum(e["count"] for e in cards) == 41
    (sheet,) = plan.sheets
    assert (sheet.cols, sheet.rows, len(sheet.slots)) == (10, 5, 41)
    assert list(sheet.slots) == [e["face"].removeprefix("svg/").removesuffix(".svg") for e in cards]
    assert all(s.startswith(f"placement-cards-{e['key']}") for s, e in zip(sheet.slots, cards))
    bags = objects(data, "Bag")
    pieces = [e for e in manifest["components"] if e["component"] == "pieces"]
    assert sorted(len(b["ContainedObjects"]) for b in bags) == sorted(e["count"] for e in pieces)
    assert {o["Name"] for b in bags for o in b["ContainedObjects"]} == {"Custom_Token"}
    (board,) = objects(data, "Custom_Tile")
    (board_in,) = [e for e in manifest["components"] if e["kind"] == "board"]
    assert board["Transform"]["scaleX"] * tts.TILE_SHORT_UNITS == pytest.approx(
        min(board_in["trim_mm"]) / INCH, abs=1e-3)
    pdfs = objects(data, "Custom_PDF")
    for pdf in pdfs:  # the rulebooks the URLs point at exist
        assert pdf["CustomPDF"]["PDFUrl"].startswith("file:///")
        assert (three_stars_a4 / pdf["CustomPDF"]["PDFUrl"].rsplit("/", 1)[1]).is_file()
    # every face the sheets and images ask for is a face the build made
    svgs = {p.stem for p in (three_stars_a4 / "svg").glob("*.svg")}
    assert {i.image for i in plan.images} | set(sheet.slots) <= svgs


def test_cards_with_backs_chosen_per_row_each_get_their_own_back_and_their_data_name():
    """Backs per row: every card behind its own back (the deck's sheets split by back); a card's name
    comes from its data table's `name` column."""
    def entry(key, back, count, name):
        return {"component": "cards", "kind": "card", "shape": "rect", "key": key, "count": count,
                "trim_mm": [63.0, 88.0], "bleed_mm": 3.0, "face": f"svg/cards-{key}.svg", "back": back,
                "data": {"name": name, "deck": back.rpartition("-")[2].removesuffix(".svg")}}

    manifest = {"design": "d", "components": [entry("01", "svg/cards-back-ship.svg", 1, "The Heron"),
                                              entry("02", "svg/cards-back-market.svg", 6, "Fish crate"),
                                              entry("03", "svg/cards-back-ship.svg", 2, "Old Mabel")]}
    game = tts.game_from_manifest(manifest, names={"cards": "Cards"})
    (deck,) = game.decks
    assert [(c.image, c.name, c.count, c.back or deck.back) for c in deck.cards] == [
        ("cards-01", "The Heron", 1, "cards-back-ship"), ("cards-02", "Fish crate", 6, "cards-back-market"),
        ("cards-03", "Old Mabel", 2, "cards-back-ship")]
    plan = tts.plan_tts(game)
    assert sorted((s.back, tuple(s.slots)) for s in plan.sheets) == [
        ("cards-back-market", ("cards-02",)), ("cards-back-ship", ("cards-01", "cards-03"))]
