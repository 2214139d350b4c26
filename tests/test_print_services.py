"""Print-service specs as data and the pure planner: pixel sizes against the published figures, problem reports."""

from __future__ import annotations

import copy

import pytest
import yaml

from pnp.data.services import DATA_FILE, geometry, load_services, parse_services
from pnp.exports.print_service import Component, Face, components_from_manifest, plan_print_service

SERVICES = load_services()


def product(service: str, pid: str):
    svc = SERVICES[service]
    return svc, next(p for p in svc.products if p.id == pid)


# Figures as the services publish them (sources in print_services.yaml), written out, not recomputed.
PUBLISHED = [
    # service, product, upload px, trim in inches, bleed px per side (left, top)
    ("thegamecrafter", "PokerDeck", (825, 1125), (2.5, 3.5), (37, 37)),
    ("thegamecrafter", "BridgeDeck", (750, 1125), (2.25, 3.5), (37, 37)),
    ("thegamecrafter", "TarotDeck", (900, 1500), (2.75, 4.75), (37, 37)),
    ("thegamecrafter", "SquareDeck", (1125, 1125), (3.5, 3.5), (37, 37)),
    ("thegamecrafter", "LargeSquareChit", (375, 375), (1.0, 1.0), (37, 37)),
    ("thegamecrafter", "QuadFoldBoard", (5475, 5475), (18.0, 18.0), (37, 37)),
    ("makeplayingcards", "poker", (822, 1122), (2.5, 3.5), (36, 36)),
    ("makeplayingcards", "tarot", (897, 1497), (2.75, 4.75), (36, 36)),
    ("makeplayingcards", "domino", (597, 1122), (1.75, 3.5), (36, 36)),
]


@pytest.mark.parametrize("service,pid,px,trim_in,bleed_px", PUBLISHED)
def test_product_pixel_sizes_match_the_published_figures(service, pid, px, trim_in, bleed_px):
    svc, p = product(service, pid)
    g = geometry(svc, p)
    assert g.px == px
    assert g.dpi == 300
    assert g.trim_mm == pytest.approx((trim_in[0] * 25.4, trim_in[1] * 25.4), abs=0.01)
    left, top, right, bottom = g.trim_box
    assert (left, top) == bleed_px
    assert (right - left, bottom - top) == (round(trim_in[0] * 300), round(trim_in[1] * 300))


def test_poker_with_eighth_inch_bleed_at_300_dpi_is_825_by_1125_at_tgc():
    plan = plan_print_service("thegamecrafter", [Component(
        "deck", "card", "rect", (63.5, 88.9), 3.175, (Face("a", 2), Face("b", 1)), back="back.svg")])
    assert plan.products == {"deck": "PokerDeck"}
    assert {f.px for f in plan.files} == {(825, 1125)}
    assert {f.dpi for f in plan.files} == {300}
    assert not plan.problems  # exact size, enough bleed, a back, confirmed figures


def test_every_product_is_consistent_and_every_figure_names_a_known_source():
    for svc in SERVICES.values():
        for p in svc.products:
            g = geometry(svc, p)
            assert p.source in svc.sources
            for i in range(2):  # px = (trim + 2 bleed) * dpi, to the pixel
                assert abs(g.px[i] - (g.trim_mm[i] + 2 * g.bleed_mm[i]) / 25.4 * g.dpi) <= 1.0, p.id
                assert g.trim_mm[i] > 0 and g.bleed_mm[i] >= 0
            left, top, right, bottom = g.trim_box
            assert 0 <= left and right <= g.px[0] and 0 <= top and bottom <= g.px[1]


def _raw():
    return yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))


def test_a_product_naming_an_unknown_source_is_refused():
    data = _raw()
    data["services"]["thegamecrafter"]["products"][0]["source"] = "nowhere"
    with pytest.raises(ValueError, match="source 'nowhere' is not in `sources`"):
        parse_services(data)


def test_px_trim_and_bleed_that_disagree_are_refused():
    data = _raw()
    p = data["services"]["makeplayingcards"]["products"][0]  # poker 822 x 1122, 2.5 x 3.5 in
    p["bleed"] = "1/4in"
    with pytest.raises(ValueError, match="px, trim and bleed disagree"):
        parse_services(data)
    data = _raw()
    data["services"]["makeplayingcards"]["products"][0]["trim"] = ["3in", "3.5in"]
    with pytest.raises(ValueError, match="larger than"):
        parse_services(data)


def test_naming_templates_may_only_use_known_fields_and_stay_inside_the_export():
    data = _raw()
    data["services"]["thegamecrafter"]["naming"]["face"] = "{component}/{colour}.png"
    with pytest.raises(ValueError, match="unknown field 'colour'"):
        parse_services(data)
    data = _raw()
    data["services"]["thegamecrafter"]["naming"]["back"] = "../{component}.png"
    with pytest.raises(ValueError, match="leaves the export folder"):
        parse_services(data)


def poker_deck(copies: list[int], bleed=3.0, back="svg/d-back.svg", size=(63.0, 88.0)) -> Component:
    return Component("d", "card", "rect", size, bleed,
                     tuple(Face(f"{i + 1:02d}", n, f"svg/d-{i + 1:02d}.svg") for i, n in enumerate(copies)), back)


def test_a_63_by_88_deck_at_tgc_files_names_copies_and_warnings():
    plan = plan_print_service("thegamecrafter", [poker_deck([2, 1, 3])])
    assert plan.products == {"d": "PokerDeck"}
    faces = [f for f in plan.files if f.role == "face"]
    assert [f.path for f in faces] == ["d/001-01.png", "d/002-02.png", "d/003-03.png"]
    assert [f.copies for f in faces] == [2, 1, 3]
    assert [f.source for f in faces] == ["svg/d-01.svg", "svg/d-02.svg", "svg/d-03.svg"]
    (back,) = [f for f in plan.files if f.role == "back"]
    assert (back.path, back.copies, back.source) == ("d/back.png", 6, "svg/d-back.svg")
    assert all(f.px == (825, 1125) and f.trim_box == (37, 37, 787, 1087) and f.rotate == 0 for f in plan.files)
    assert all(f.format == "png" and f.colour == "RGB" for f in plan.files)
    messages = [p.message for p in plan.problems]
    assert all(p.severity == "warning" for p in plan.problems)
    assert any("scaled 100.8% x 101.0%" in m for m in messages)
    assert any("3 mm of bleed, The Game Crafter asks 3.17 mm" in m for m in messages)


def test_the_same_deck_at_mpc_is_822_by_1122_with_its_36_pixel_bleed():
    plan = plan_print_service("makeplayingcards", [poker_deck([1] * 5)])
    assert plan.products == {"d": "poker"}
    assert {f.px for f in plan.files} == {(822, 1122)}
    assert {f.trim_box for f in plan.files} == {(36, 36, 786, 1086)}
    assert not any("bleed" in p.message for p in plan.problems)  # 3 mm covers MPC's 3.05 mm within tolerance


def test_sizes_the_service_does_not_make_are_errors_naming_the_nearest_product():
    comps = [Component("pieces", "piece", "triangle", (30.0, 25.981), 0.0, (Face("blue", 34),)),
             Component("board", "board", "rect", (245.0, 161.904), 0.0, (Face("board", 1),)),
             Component("tiles", "tile", "hexagon", (40.0, 34.641), 0.0, (Face("a", 10),))]
    plan = plan_print_service("thegamecrafter", comps)
    assert plan.products == {} and plan.files == ()
    errors = {p.component: p.message for p in plan.errors}
    assert "30 x 25.98 mm triangle chit is not a size The Game Crafter makes" in errors["pieces"]
    assert "nearest: Medium triangle chit (MediumTriangleChit)" in errors["pieces"]
    assert "smallest that holds it: Large square board (LargeSquareBoard) 254 x 254 mm" in errors["board"]
    mpc = plan_print_service("makeplayingcards", comps[:1])
    assert "MakePlayingCards lists no triangle chit product" in mpc.errors[0].message


def test_a_deck_over_the_service_limit_is_an_error_and_at_the_limit_is_not():
    limit = SERVICES["makeplayingcards"].max_cards
    assert limit == 612
    ok = plan_print_service("makeplayingcards", [poker_deck([limit])])
    assert not ok.errors
    over = plan_print_service("makeplayingcards", [poker_deck([limit - 1, 2])])
    (err,) = over.errors
    assert err.component == "d"
    assert f"{limit + 1} copies, more than the {limit} MakePlayingCards makes" in err.message
    assert "split it into 2" in err.message


def test_a_product_limit_applies_to_chits_as_well():
    data = _raw()
    svc = data["services"]["thegamecrafter"]
    chit = next(p for p in svc["products"] if p["id"] == "LargeSquareChit")
    chit["max_count"] = 20
    service = parse_services(data)["thegamecrafter"]
    comp = Component("stocks", "piece", "rect", (25.0, 25.0), 0.0, (Face("a", 15), Face("b", 6)), back="b.svg")
    plan = plan_print_service(service, [comp])
    assert [e.message for e in plan.errors] == [
        "21 copies, more than the 20 The Game Crafter makes in one Large square chit; "
        "expected at most 20 (split it into 2)"]


def test_landscape_components_are_turned_onto_portrait_products():
    plan = plan_print_service("thegamecrafter", [poker_deck([1], bleed=3.2, size=(88.9, 63.5))])
    assert plan.products == {"d": "PokerDeck"}
    assert {f.rotate for f in plan.files} == {90}
    assert {f.px for f in plan.files} == {(825, 1125)}
    assert any("turned 90 degrees" in p.message for p in plan.problems)


def test_unconfirmed_figures_are_reported_as_warnings():
    ppg = plan_print_service("printplaygames", [poker_deck([1], bleed=3.2)])
    assert ppg.problems[0].component == "" and "unconfirmed" in ppg.problems[0].message
    assert any("not confirmed at PrintPlayGames" in p.message for p in ppg.problems)
    # within 1 mm of TGC's Euro poker trim 62.99 x 87.88 mm (a template's figure), not of its poker deck
    euro = plan_print_service("thegamecrafter", [poker_deck([1], bleed=3.7, size=(62.2, 87.88))])
    assert euro.products == {"d": "EuroPokerDeck"}
    assert any("Euro poker deck (EuroPokerDeck) figures are not confirmed" in p.message for p in euro.problems)


def test_confirmed_products_win_over_closer_unconfirmed_ones():
    plan = plan_print_service("thegamecrafter", [poker_deck([1])])  # 63 x 88: Euro is closer, Poker confirmed
    assert plan.products == {"d": "PokerDeck"}


def test_kinds_no_service_makes_and_one_sided_components():
    plan = plan_print_service("thegamecrafter", [
        Component("x", "dice", "rect", (16, 16), 0, (Face("a", 1),)),
        poker_deck([1], back=None)])
    assert [(p.component, p.severity) for p in plan.problems if "kind" in p.message] == [("x", "error")]
    assert any(p.component == "d" and "no back image" in p.message for p in plan.problems)
    assert not any(f.role == "back" for f in plan.files)


def test_the_planner_does_not_touch_its_input():
    comps = [poker_deck([2, 3])]
    before = copy.deepcopy(comps)
    plan_print_service("thegamecrafter", comps)
    assert comps == before


def test_three_stars_from_its_manifest(three_stars_a4):
    import json

    manifest = json.loads((three_stars_a4 / "manifest.json").read_text(encoding="utf-8"))
    comps = {c.id: c for c in components_from_manifest(manifest)}
    cards = comps["placement-cards"]
    assert (cards.kind, cards.trim_mm, cards.bleed_mm, len(cards.faces), cards.copies) == (
        "card", (63.0, 88.0), 3.0, 41, 41)
    plan = plan_print_service("thegamecrafter", comps.values())
    card_files = [f for f in plan.files if f.component == "placement-cards"]
    assert len(card_files) == 42 and len({f.path for f in card_files}) == 42
    assert sum(f.copies for f in card_files if f.role == "face") == 41
    assert {e.component for e in plan.errors} == {"board", "pieces"}
    for f in card_files:  # every source is a face the build wrote
        assert (three_stars_a4 / f.source).is_file()


def test_cards_with_backs_chosen_per_row_become_one_deck_per_back():
    """A service prints one back per deck: ship and market cards (backs per row) are ordered as two decks,
    each card with its own back, every card ordered once."""
    def entry(key, back, count):
        return {"component": "cards", "kind": "card", "shape": "rect", "key": key, "count": count,
                "trim_mm": [63.0, 88.0], "bleed_mm": 3.0, "face": f"svg/cards-{key}.svg", "back": back}

    manifest = {"components": [entry("01", "svg/cards-back-ship.svg", 1), entry("02", "svg/cards-back-market.svg", 6),
                               entry("03", "svg/cards-back-ship.svg", 2)]}
    decks = components_from_manifest(manifest)
    assert [(d.id, d.back, [f.name for f in d.faces]) for d in decks] == [
        ("cards-back-ship", "svg/cards-back-ship.svg", ["01", "03"]),
        ("cards-back-market", "svg/cards-back-market.svg", ["02"])]
    plan = plan_print_service("thegamecrafter", decks)
    backs = {f.path: (f.source, f.copies) for f in plan.files if f.role == "back"}
    assert backs == {"cards-back-ship/back.png": ("svg/cards-back-ship.svg", 3),
                     "cards-back-market/back.png": ("svg/cards-back-market.svg", 6)}
    one = components_from_manifest({"components": [entry("01", "svg/cards-back.svg", 1)]})
    assert [d.id for d in one] == ["cards"]  # one shared back: the component as it is


# --- named sizes as the trade names them (issue 30) -----------------------------------------------------


def _deck_of_size(tmp_path, size: str):
    import shutil
    from pathlib import Path

    src = Path(__file__).resolve().parent / "fixtures" / "deck-csv"
    folder = tmp_path / f"deck-{size}"
    shutil.copytree(src, folder)
    text = (folder / "design.yaml").read_text(encoding="utf-8")
    (folder / "design.yaml").write_text(text.replace("size: euro-poker", f"size: {size}").replace(
        "print:\n", "print:\n  bleed: 1/8in\n"), encoding="utf-8")
    return folder


@pytest.mark.parametrize("size,trim", [("poker", (63.5, 88.9)), ("euro-poker", (63.0, 88.0)),
                                       ("bridge", (57.15, 88.9)), ("tarot", (69.85, 120.65))])
def test_named_sizes_measure_their_trade_size_in_the_pdf(tmp_path, size, trim):
    """`size: poker` is the 2.5 x 3.5 in card print services make: the faces placed on the sheets measure
    63.5 x 88.9 mm plus the bleed on each side; `euro-poker` keeps the 63 x 88 mm of pnp's old `poker`."""
    import json

    from pdfmeasure import MM, placements
    from pypdf import PdfReader

    from pnp.build import build_designs
    from pnp.cache import Cache

    [res] = build_designs([str(_deck_of_size(tmp_path, size))], out=tmp_path / "out", cache=Cache(None),
                          exports={"print-service:thegamecrafter"}, show_progress=False)
    reader = PdfReader(res.out_dir / res.pdf_name)
    bleed = 3.175
    cards = [p for p in placements(reader, 0)]
    assert cards
    for p in cards:
        w, h = sorted((p.width / MM - 2 * bleed, p.height / MM - 2 * bleed))
        assert (w, h) == pytest.approx(trim, abs=0.01)
    manifest = json.loads((res.out_dir / "manifest.json").read_text(encoding="utf-8"))
    assert {tuple(e["trim_mm"]) for e in manifest["components"] if e["component"] == "cards"} == {trim}
    report = (res.out_dir / "print" / "thegamecrafter" / "report.txt").read_text(encoding="utf-8")
    cards_lines = [line for line in report.splitlines() if line.strip().startswith("cards:")]
    if size == "poker":  # exactly TGC's PokerDeck: no scaling, no bleed warning
        assert not any("scaled" in line or "bleed" in line for line in cards_lines), report
        assert "PokerDeck" in report
    if size == "euro-poker":
        assert any("scaled" in line for line in cards_lines), report  # 63 x 88 mm is not 2.5 x 3.5 in


def test_the_poker_preset_is_tgc_and_mpc_poker_exactly():
    plan = plan_print_service("thegamecrafter", [poker_deck([1, 1], bleed=3.175, size=(63.5, 88.9))])
    assert plan.products == {"d": "PokerDeck"} and not plan.problems
    assert all(f.trim_box == (37, 37, 787, 1087) for f in plan.files)
    plan = plan_print_service("makeplayingcards", [poker_deck([1, 1], bleed=3.175, size=(63.5, 88.9))])
    assert plan.products == {"d": "poker"} and not [p for p in plan.problems if "scaled" in p.message]
