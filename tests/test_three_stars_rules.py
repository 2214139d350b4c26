"""3 Stars rules on hand-made positions: place, steal, exchange, scoring, winning, pieces, deck."""

from __future__ import annotations

import pytest

from pnp.engine import CHANCE, TERMINAL, IllegalActionError
from pnp.games.three_stars.engine import ThreeStarsGame, ThreeStarsState
from pnp.games.three_stars.geometry import star_triangles
from pnp.loader import load_design, package_root

DESIGN = package_root() / "designs" / "three-stars"
BLUE, RED, YELLOW = 0, 1, 2


@pytest.fixture(scope="module")
def design():
    return load_design(DESIGN)


@pytest.fixture(scope="module")
def g2(design):
    return ThreeStarsGame(design, 2)


@pytest.fixture(scope="module")
def g3(design):
    return ThreeStarsGame(design, 3)


def owner(game: ThreeStarsGame, s: ThreeStarsState, cell) -> int | None:
    i = game.cells.index(cell)
    for p in range(game.players):
        if s.own[p] >> i & 1:
            return p
    return None


def star(centre):
    return star_triangles(centre)


# --- place ---------------------------------------------------------------------------------


def test_place_puts_pieces_on_the_marked_cells_then_draws_back_to_hand_size(g2):
    s = g2.position(hands={BLUE: [(0, 2), (1,), (3, 4, 5)], RED: [(0,), (2,), (4,)]})
    a = g2.place_action(g2.card_index((0, 2)), g2.star_index((1, 0)))
    assert a in s.legal_actions()
    assert s.action_to_string(a) == "blue places card 8 [0,2] on star (1,0)"
    s.apply_action(a)
    assert owner(g2, s, ("U", 1, 0)) == BLUE and owner(g2, s, ("U", 0, 0)) == BLUE
    assert s.occupied.bit_count() == 2
    assert len(s.hands[BLUE]) == 2 and s.discard[g2.card_index((0, 2))] == 1
    assert s.current_player() == CHANCE  # blue draws back to 3
    s.apply_action(s.chance_outcomes()[0][0])
    assert len(s.hands[BLUE]) == 3
    assert s.current_player() == RED


def test_place_needs_every_marked_cell_empty(g2):
    s = g2.position(owners={("U", 0, 0): RED}, hands={BLUE: [(0, 2)]})
    card, centre = g2.card_index((0, 2)), g2.star_index((1, 0))
    a = g2.place_action(card, centre)
    assert a not in s.legal_actions()
    with pytest.raises(IllegalActionError, match=r"blue places card 8 \[0,2\] on star \(1,0\).*not empty"):
        s.apply_action(a)
    # a cell held by the player itself blocks a placement just the same
    s = g2.position(owners={("U", 0, 0): BLUE}, hands={BLUE: [(0, 2)]})
    assert a not in s.legal_actions()


def test_a_card_fits_only_stars_wholly_on_the_active_board(g2, g3):
    s = g2.position(hands={BLUE: [(0,)]})
    assert len(s.legal_actions()) == 12  # one per star position of region 2
    assert (4, 0) not in g2.positions and (4, 0) in g3.positions  # region B's stars come with 3 players
    s3 = g3.position(hands={BLUE: [(0,)]})
    assert len(s3.legal_actions()) == 18


def test_playing_a_card_not_in_hand_is_refused(g2):
    s = g2.position(hands={BLUE: [(0,)]})
    with pytest.raises(IllegalActionError, match="does not hold card 2"):
        s.apply_action(g2.place_action(g2.card_index((1,)), 0))


# --- steal ---------------------------------------------------------------------------------


def test_steal_replaces_opponent_pieces(g2):
    cells = star((1, 1))
    s = g2.position(owners={cells[0]: RED, cells[3]: RED}, hands={BLUE: [(0, 3)]})
    a = g2.steal_action(g2.card_index((0, 3)), g2.star_index((1, 1)))
    assert a in s.legal_actions()
    assert g2.place_action(g2.card_index((0, 3)), g2.star_index((1, 1))) not in s.legal_actions()
    s.apply_action(a)
    assert owner(g2, s, cells[0]) == BLUE and owner(g2, s, cells[3]) == BLUE
    assert s.own[RED] == 0  # red takes its pieces back
    assert s.action_kind(a) == "steal"


def test_steal_from_mixed_opponents(g3):
    cells = star((1, 1))
    s = g3.position(owners={cells[1]: RED, cells[4]: YELLOW}, hands={BLUE: [(1, 4)]})
    a = g3.steal_action(g3.card_index((1, 4)), g3.star_index((1, 1)))
    assert a in s.legal_actions()
    s.apply_action(a)
    assert owner(g3, s, cells[1]) == BLUE and owner(g3, s, cells[4]) == BLUE
    assert s.own[RED] == 0 and s.own[YELLOW] == 0


@pytest.mark.parametrize("other, reason", [(None, "is empty"), (BLUE, "already blue's")])
def test_steal_needs_every_marked_cell_held_by_an_opponent(g2, other, reason):
    cells = star((1, 1))
    owners = {cells[0]: RED}
    if other is not None:
        owners[cells[3]] = other
    s = g2.position(owners=owners, hands={BLUE: [(0, 3)]})
    a = g2.steal_action(g2.card_index((0, 3)), g2.star_index((1, 1)))
    assert a not in s.legal_actions()
    with pytest.raises(IllegalActionError, match=reason):
        s.apply_action(a)


def test_reserved_cells_cannot_be_stolen(g2):
    cells = star((1, 1))
    s = g2.position(owners=dict.fromkeys(cells, RED), reserved=list(cells), hands={BLUE: [(0,), (2, 4)]})
    for pos in ((0,), (2, 4)):
        a = g2.steal_action(g2.card_index(pos), g2.star_index((1, 1)))
        assert a not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="reserved"):
        s.apply_action(g2.steal_action(g2.card_index((0,)), g2.star_index((1, 1))))
    # the same cells unreserved could be stolen
    s = g2.position(owners=dict.fromkeys(cells, RED), hands={BLUE: [(0,)]})
    assert g2.steal_action(g2.card_index((0,)), g2.star_index((1, 1))) in s.legal_actions()


# --- exchange ------------------------------------------------------------------------------


def test_exchange_only_when_no_card_can_place_or_steal(g2):
    # every cell is red and reserved except one down triangle (positions 1, 3, 5 of its stars):
    # blue's cards mark only up triangles (positions 0, 2, 4), so blue can neither place nor steal
    hole = ("D", 0, 0)
    everything = {c: RED for c in g2.cells if c != hole}
    hand = [(0,), (0, 2), (0, 2, 4)]
    s = g2.position(owners=everything, reserved=list(everything), hands={BLUE: hand})
    legal = s.legal_actions()
    assert legal == sorted(g2.exchange_action(g2.card_index(p)) for p in hand)
    a = g2.exchange_action(g2.card_index((0, 2)))
    assert s.action_to_string(a) == "blue exchanges card 8 [0,2]"
    s.apply_action(a)
    assert s.discard[g2.card_index((0, 2))] == 1 and len(s.hands[BLUE]) == 2
    assert s.current_player() == CHANCE and s.queue == [BLUE]
    assert s.metrics()["exchanges:blue"] == 1


def test_exchange_is_refused_when_a_card_can_be_played(g2):
    s = g2.position(hands={BLUE: [(0,), (1,)]})
    with pytest.raises(IllegalActionError, match="only when no card can place or steal"):
        s.apply_action(g2.exchange_action(g2.card_index((0,))))
    assert all(s.action_kind(a) != "exchange" for a in s.legal_actions())


# --- scoring and winning -------------------------------------------------------------------


def test_completing_a_star_scores_it_and_reserves_its_cells(g2):
    cells = star((1, 1))
    s = g2.position(owners=dict.fromkeys(cells[1:], BLUE), hands={BLUE: [(0,)], RED: [(1,), (2,), (3,)]})
    s.apply_action(g2.place_action(g2.card_index((0,)), g2.star_index((1, 1))))
    assert s.scores == [1, 0]
    assert s.scored[g2.star_index((1, 1))] == BLUE
    mask = g2.star_masks[g2.star_index((1, 1))]
    assert s.reserved == mask
    assert not s.is_terminal()


def test_completing_two_stars_at_once_scores_both(g2):
    a, b = star((0, 0)), star((1, 0))
    shared = set(a) & set(b)
    assert shared == {("U", 0, 0), ("D", 0, -1)}  # positions 0 and 5 of star (0,0)
    owners = {c: BLUE for c in set(a) | set(b) if c not in shared}
    s = g2.position(owners=owners, hands={BLUE: [(0, 5)]})
    s.apply_action(g2.place_action(g2.card_index((0, 5)), g2.star_index((0, 0))))
    assert s.scores[BLUE] == 2
    assert s.metrics()["double_stars"] == 1


def test_third_star_wins(g2):
    done = [g2.star_index(v) for v in ((0, 0), (3, 0))]
    owners = {c: BLUE for v in ((0, 0), (3, 0)) for c in star(v)}
    target = star((1, 2))
    owners.update(dict.fromkeys(target[1:], BLUE))
    s = g2.position(owners=owners, scored={(0, 0): BLUE, (3, 0): BLUE}, hands={BLUE: [(0,)]})
    assert [s.scored[t] for t in done] == [BLUE, BLUE] and s.scores == [2, 0]
    s.apply_action(g2.place_action(g2.card_index((0,)), g2.star_index((1, 2))))
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.returns() == [1.0, 0.0]
    assert s.legal_actions() == []
    assert s.metrics()["won_by_blocking"] == 0
    with pytest.raises(IllegalActionError, match="game is over"):
        s.apply_action(0)


def test_seed_example_blue_wins_by_blocking_with_two_stars(g2):
    """Seed 003: with two blue stars reserved only 2 star positions remain for red: blue wins."""
    first, second = (0, 0), (2, 1)
    owners = dict.fromkeys(star(first), BLUE)
    owners.update(dict.fromkeys(star(second)[1:], BLUE))
    s = g2.position(owners=owners, scored={first: BLUE}, hands={BLUE: [(0,)]})
    assert s.can_reach(RED)
    s.apply_action(g2.place_action(g2.card_index((0,)), g2.star_index(second)))
    assert s.scores == [2, 0]
    assert len(s.available(RED)) == 2
    assert not s.can_reach(RED)
    assert s.is_terminal() and s.returns() == [1.0, 0.0]
    assert s.metrics()["won_by_blocking"] == 1


def test_two_stars_leaving_three_positions_do_not_win(g2):
    first, second = (0, 0), (3, 0)  # disjoint, but red keeps more than 2 positions
    owners = dict.fromkeys(star(first), BLUE)
    owners.update(dict.fromkeys(star(second)[1:], BLUE))
    s = g2.position(owners=owners, scored={first: BLUE}, hands={BLUE: [(0,)], RED: [(1,), (2,), (3,)]})
    s.apply_action(g2.place_action(g2.card_index((0,)), g2.star_index(second)))
    assert s.scores == [2, 0]
    assert len(s.available(RED)) >= 3
    assert not s.is_terminal()


def test_blocking_needs_every_opponent_out(g3):
    """With 3 players, blue's star putting red out does not win while yellow can still reach 3."""
    keep = [g3.star_index(v) for v in ((0, 0), (5, 0), (2, 2))]  # pairwise disjoint stars
    # every cell outside the three kept stars is yellow's and reserved (as if yellow had scored there)
    yellow = [c for c in g3.cells if not any(c in star(v) for v in ((0, 0), (5, 0), (2, 2)))]
    owners = dict.fromkeys(yellow, YELLOW) | dict.fromkeys(star((0, 0))[1:], BLUE)
    s = g3.position(owners=owners, reserved=yellow, hands={BLUE: [(0,)]})
    assert s.available(RED) == sorted(keep) and s.can_reach(RED)  # 0 + 3 available positions
    s.apply_action(g3.place_action(g3.card_index((0,)), keep[0]))
    assert s.scores[BLUE] == 1
    assert s.available(RED) == sorted(keep[1:]) and not s.can_reach(RED)
    assert s.can_reach(YELLOW)
    assert not s.is_terminal()


# --- pieces, deck ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def g2_20(tmp_path_factory):
    """The 2-player game of a copy of the design with 20 pieces per colour (fits on region 2)."""
    import shutil

    import yaml

    folder = tmp_path_factory.mktemp("pieces") / "three-stars"
    shutil.copytree(DESIGN, folder)
    data = yaml.safe_load((folder / "design.yaml").read_text(encoding="utf-8"))
    data["rules"]["pieces_per_player"] = data["components"]["pieces"]["count"] = 20
    (folder / "design.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return ThreeStarsGame(load_design(folder), 2)


def test_a_move_needing_more_pieces_than_left_is_illegal(g2_20):
    g2 = g2_20
    pieces = g2.rules.pieces_per_player
    assert pieces == 20  # read from the design copy, not a constant of the engine
    blue_cells = [c for c in g2.cells if c[0] == "D"][: pieces - 1]  # all but one on the board
    s = g2.position(owners=dict.fromkeys(blue_cells, BLUE), hands={BLUE: [(0,), (0, 2), (0, 2, 4)]})
    cards = {g2.decode(a)[1] for a in s.legal_actions()}
    assert cards == {g2.card_index((0,))}  # the 2- and 3-cards fit on empty cells but need 2 and 3 pieces
    target = next(t for t in range(g2.S) if not g2.masks[g2.card_index((0, 2))][t] & s.occupied)
    with pytest.raises(IllegalActionError, match="1 pieces left and the card needs 2"):
        s.apply_action(g2.place_action(g2.card_index((0, 2)), target))
    s.apply_action(s.legal_actions()[0])
    m = s.metrics()
    assert m["piece_shortages:blue"] == 1 and m["pieces_needed:blue"] == pieces - 1 + 3


def test_the_discards_are_reshuffled_when_the_deck_runs_out(g2):
    # the whole deck is in the discard pile
    s = g2.position(hands={BLUE: [(0,), (1,), (2,)], RED: [(3,), (4,), (5,)]}, deck={})
    assert s.deck_n == 0 and s.discard_n == 41 - 6
    s.apply_action(g2.place_action(g2.card_index((0,)), 0))
    assert s.current_player() == CHANCE
    assert s.deck_n == 41 - 6 + 1 and s.discard_n == 0  # the played card went back in too
    outcomes = s.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    assert len(outcomes) == 41 - 5


def test_the_deal_gives_every_player_hand_size_cards(g3):
    import random

    s = g3.new_initial_state()
    rng = random.Random(3)
    n = 0
    while s.current_player() == CHANCE:
        s.apply_action(s.sample_chance(rng))
        n += 1
    assert n == 3 * g3.rules.hand_size
    assert [len(h) for h in s.hands] == [3, 3, 3]
    assert s.deck_n == 41 - 9 and s.current_player() == BLUE


def test_drawing_a_card_not_in_the_deck_is_refused(g2):
    c = g2.card_index((0,))
    s = g2.position(deck={p: n for p, n in zip(g2.card_positions, g2.card_copies) if p != (0,)}, draws=[BLUE, RED])
    assert s.current_player() == CHANCE and s.discard[c] == 1
    with pytest.raises(IllegalActionError, match="not in the deck"):
        s.apply_action(g2.draw_action(c))
    with pytest.raises(IllegalActionError, match="must be drawn first"):
        s.apply_action(g2.place_action(c, 0))


def test_when_the_mover_is_out_too_the_last_player_who_can_reach_wins(g3):
    """3 players: after blue's star only yellow can still reach 3 stars (blue and red cannot): yellow wins."""
    keep = [g3.star_index(v) for v in ((0, 0), (5, 0))]
    yellow = [c for c in g3.cells if not any(c in star(v) for v in ((0, 0), (5, 0)))]  # yellow holds and
    owners = dict.fromkeys(yellow, YELLOW) | dict.fromkeys(star((0, 0))[1:], BLUE)  # reserved every other cell
    s = g3.position(owners=owners, reserved=yellow, scores=[0, 0, 2], hands={BLUE: [(0,)]})
    assert s.can_reach(YELLOW) and not s.can_reach(RED) and not s.can_reach(BLUE)
    s.apply_action(g3.place_action(g3.card_index((0,)), keep[0]))
    assert s.scores == [1, 0, 2]
    assert s.is_terminal() and s.returns() == [0.0, 0.0, 1.0]
    assert s.metrics()["won_by_blocking"] == 1


# --- the design decides -------------------------------------------------------------------


def test_the_engine_reads_rules_cards_and_board_from_the_design(tmp_path):
    import shutil

    import yaml

    folder = tmp_path / "variant"
    shutil.copytree(DESIGN, folder)
    path = folder / "design.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["rules"].update(hand_size=5, stars_to_win=1)
    data["components"]["placement-cards"]["params"]["max"] = 2
    data["components"]["board"]["params"]["regions"]["2"]["columns"] = [0, 2]
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    game = ThreeStarsGame(load_design(folder), 2)
    assert game.C == 21 and game.S == 9
    s = game.new_initial_state()
    assert len(s.queue) == 10  # two hands of 5 to deal
    s = game.position(owners=dict.fromkeys(star((1, 1))[1:], BLUE), hands={BLUE: [(0,)]})
    s.apply_action(game.place_action(game.card_index((0,)), game.star_index((1, 1))))
    assert s.is_terminal() and s.returns() == [1.0, 0.0]  # one star wins now


def test_a_position_is_made_from_data_and_refuses_what_the_game_cannot_hold(g2):
    s = g2.position(owners={("U", 0, 0): RED}, scored={(3, 0): BLUE}, hands={BLUE: [(0,)]}, player=RED)
    assert s.current_player() == RED and s.scores == [1, 0] and owner(g2, s, star((3, 0))[2]) == BLUE
    assert s.deck_n == 41 - 1 and s.discard_n == 0 and s.history() == []
    with pytest.raises(ValueError, match="more copies"):
        g2.position(hands={BLUE: [(0,)], RED: [(0,)]})
    with pytest.raises(ValueError, match="no card"):
        g2.position(hands={BLUE: [(0, 0)]})
    with pytest.raises(ValueError, match="not a cell"):
        g2.position(owners={("U", 99, 0): BLUE})
