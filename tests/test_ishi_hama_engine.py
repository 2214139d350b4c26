"""Ishi-Hama rules on hand-made positions: phase 1 (no contact, both ways it ends), phase 2
(place or take, the colour of the turn), the combination in every order, connection, scoring
groups of 5 and of more, and the end at the 7th point."""

from __future__ import annotations

import pytest

from pnp.engine import TERMINAL, IllegalActionError
from pnp.games.ishi_hama.engine import (
    ACT,
    MARKER,
    ORIENT_OTHER,
    ORIENT_SELF,
    P_KIND,
    PASS_STEP,
    PHASE1,
    PHASE2,
    PICK,
    SELECT,
    TAKE,
    IshiHamaGame,
)
from pnp.games.ishi_hama.geometry import mask_of, side_of
from pnp.loader import load_design
from tests.conftest import DESIGNS

ORANGE, BLUE = 0, 1  # seats: orange starts


@pytest.fixture(scope="module")
def game() -> IshiHamaGame:
    return IshiHamaGame(load_design(DESIGNS / "ishi-hama"), 2)


def mask(paths: str) -> int:
    return mask_of(side_of(s) for s in paths.split("+"))


def orient(g: IshiHamaGame, colour: str, shape: str, paths: str) -> int:
    """The rotate action that makes a tile of that kind show `paths`."""
    k = g.kind_index(colour, shape)
    return g.rotate_action(g.rot_mask[k].index(mask(paths)))


def act(st, *actions) -> None:
    for a in actions:
        st.apply_action(a)


def tile(st, cell: str) -> tuple[str, str, int] | None:
    g = st.game
    c = g.grid.parse(cell)
    if st.kind[c] < 0:
        return None
    k = g.kinds[st.kind[c]]
    return k.colour_name, k.shape, st.mask[c]


def place(st, colour, shape, cell, paths) -> None:
    g = st.game
    act(st, g.kind_action(colour, shape), g.cell_action(cell), orient(g, colour, shape, paths))


def cells(g, *names) -> list[int]:
    return sorted(g.grid.parse(n) for n in names)


# --- setup and phase 1 ------------------------------------------------------------------------


def test_setup_orange_starts_phase_one_with_its_own_fourteen_tiles(game):
    st = game.new_initial_state()
    assert st.phase == PHASE1 and st.step == P_KIND and st.current_player() == ORANGE
    assert game.player_name(ORANGE) == "orange" and game.player_name(BLUE) == "blue"
    assert [sum(r) for r in st.reserve] == [14, 14]
    assert st.legal_actions() == [game.kind_action("orange", s) for s in ("corner", "straight", "tee")]


def test_phase_one_tiles_never_touch_but_corners_may(game):
    st = game.new_initial_state()
    place(st, "orange", "corner", "E5", "E+S")
    assert tile(st, "E5") == ("orange", "corner", mask("E+S"))
    assert st.current_player() == BLUE
    act(st, game.kind_action("blue", "tee"))
    legal = set(st.legal_actions())
    for n in ("E4", "E6", "D5", "F5", "E5"):
        assert game.grid.parse(n) not in legal
    assert {game.grid.parse(n) for n in ("D4", "F6", "E3", "A1")} <= legal  # diagonal and apart cells
    with pytest.raises(IllegalActionError, match="touches no other tile"):
        st.apply_action(game.grid.parse("E4"))


def test_phase_one_ends_when_the_tiles_run_out(game):
    st = game.new_initial_state()
    board = game.grid.chessboard_cells()  # 41 cells none of which touch
    for n in range(28):
        assert st.phase == PHASE1 and st.current_player() == n % 2
        act(st, st.legal_actions()[0])
        act(st, board[n])
        act(st, st.legal_actions()[0])
    # orange's 15th turn: no tile left -> phase 2 at once, and orange (reserve empty) takes a tile
    assert st.phase == PHASE2 and st.phase1_end == "exhausted" and st.phase1_tiles == 28
    assert st.current_player() == ORANGE and st.step == TAKE
    assert st.legal_actions() == board[:28]


def test_phase_one_ends_when_no_cell_apart_is_left(game):
    """23 tiles, none touching, leave no empty cell free of contact: (column + 2 x row) % 5 == 0, plus the edges."""
    st = game.new_initial_state()
    spots = ["A1", "C1", "F1", "H1", "D2", "I2", "B3", "G3", "A4", "E4", "I4", "C5", "H5", "A6", "F6", "D7", "I7",
             "B8", "G8", "A9", "C9", "E9", "H9"]
    for name in spots:
        assert st.phase == PHASE1
        act(st, st.legal_actions()[0])
        act(st, game.cell_action(name))
        act(st, st.legal_actions()[0])
    assert st.phase == PHASE2 and st.phase1_end == "blocked"
    assert st.apart_cells() == []
    p = st.current_player()
    assert sum(st.reserve[p]) > 0 and st.step == P_KIND  # tiles left: they now place touching
    act(st, st.legal_actions()[0])
    assert game.grid.parse("B1") in st.legal_actions()  # touches A1 and C1: fine in phase 2
    assert st.metrics()["phase1_blocked"] == 1


# --- phase 2: place or take, the colour of the turn -------------------------------------------


def test_phase_two_places_from_the_reserve_any_colour_touching_allowed(game):
    st = game.position({"E5": ("blue", "corner", "N+E"), "C3": ("orange", "tee", "N+E+S")},
                       reserves=[["blue straight", "orange corner"], []], player=ORANGE)
    assert st.step == P_KIND
    assert st.legal_actions() == sorted([game.kind_action("orange", "corner"), game.kind_action("blue", "straight")])
    act(st, game.kind_action("blue", "straight"))
    assert game.grid.parse("E5") not in st.legal_actions() and game.grid.parse("E6") in st.legal_actions()
    act(st, game.cell_action("E6"), orient(game, "blue", "straight", "E+W"))
    assert st.step == SELECT and st.turn_colour == game.colours.index("blue")
    # the combination plays a tile of the turn's colour: both blue tiles, never the orange one
    assert st.legal_actions() == cells(game, "E5", "E6") + [game.stop_action]
    with pytest.raises(IllegalActionError, match="turn's colour"):
        st.apply_action(game.cell_action("C3"))
    act(st, game.stop_action)  # no combination
    assert st.current_player() == BLUE and st.reserve[ORANGE][game.kind_index("orange", "corner")] == 1


def test_phase_two_takes_from_the_board_when_the_reserve_is_empty(game):
    st = game.position({"E5": ("blue", "corner", "N+E"), "C3": ("orange", "tee", "N+E+S"),
                        "G7": ("orange", "straight", "N+S")}, reserves=[[], []], player=BLUE)
    assert st.step == TAKE and st.legal_actions() == cells(game, "C3", "E5", "G7")
    act(st, game.cell_action("C3"))
    assert tile(st, "C3") is None and st.reserve[BLUE][game.kind_index("orange", "tee")] == 1
    assert st.turn_colour == game.colours.index("orange")
    assert st.legal_actions() == cells(game, "G7") + [game.stop_action]
    act(st, game.stop_action)
    assert st.current_player() == ORANGE and st.step == TAKE
    assert st.metrics()["takes"] == 1


def test_a_player_with_nothing_to_place_or_take_passes(game):
    st = game.position({}, reserves=[[], ["blue corner"]], player=ORANGE)
    assert st.step == PASS_STEP and st.legal_actions() == [game.pass_action]
    act(st, game.pass_action)
    assert st.current_player() == BLUE and st.step == P_KIND


# --- the combination ----------------------------------------------------------------------------


def blue_turn(game, board, reserve=("blue straight",), at="A9"):
    """Orange places a blue straight far away: the turn's colour is blue."""
    st = game.position(board, reserves=[list(reserve), []], player=ORANGE)
    place(st, "blue", "straight", at, "N+S")
    assert st.step == SELECT
    return st


def test_rotate_then_move_then_swap(game):
    st = blue_turn(game, {"C3": ("blue", "corner", "N+E"), "F3": ("orange", "straight", "E+W")})
    act(st, game.cell_action("C3"), orient(game, "blue", "corner", "E+S"))  # a: select and turn
    assert tile(st, "C3") == ("blue", "corner", mask("E+S")) and st.step == ACT
    assert game.stop_action not in st.legal_actions()  # a rotation alone is no combination
    act(st, game.move_action("E", 2))  # b: C3 -> E3 through the empty D3
    assert tile(st, "C3") is None and tile(st, "E3") == ("blue", "corner", mask("E+S"))
    assert st.legal_actions() == [game.swap_action("E"), game.stop_action]  # moved: swaps or stop
    act(st, game.swap_action("E"))  # c: swap with the touching orange straight
    assert st.step == ORIENT_OTHER
    act(st, orient(game, "orange", "straight", "N+S"))
    assert st.step == ORIENT_SELF
    act(st, orient(game, "blue", "corner", "S+W"))
    # no tile left to swap with (the straight was swapped already): the turn ends by itself
    assert st.current_player() == BLUE
    assert tile(st, "F3") == ("blue", "corner", mask("S+W"))
    assert tile(st, "E3") == ("orange", "straight", mask("N+S"))
    m = st.metrics()
    assert (m["combinations"], m["moves"], m["swaps"]) == (1, 1, 1)


def test_swap_then_move_ends_the_swaps(game):
    st = blue_turn(game, {"D4": ("blue", "tee", "N+E+S"), "E4": ("orange", "corner", "N+E"),
                          "H4": ("orange", "corner", "N+E")})
    act(st, game.cell_action("D4"), orient(game, "blue", "tee", "N+E+S"))
    act(st, game.swap_action("E"), orient(game, "orange", "corner", "N+E"), orient(game, "blue", "tee", "N+E+S"))
    assert tile(st, "E4")[:2] == ("blue", "tee") and tile(st, "D4")[:2] == ("orange", "corner")
    legal = st.legal_actions()
    assert game.move_action("E", 2) in legal and game.stop_action in legal  # after swaps: a move is still open
    assert game.swap_action("W") not in legal  # never back with the same tile
    act(st, game.move_action("E", 2))  # E4 -> G4, now touching the orange corner on H4...
    assert tile(st, "G4")[:2] == ("blue", "tee")
    # ...but a move after swaps ends the chain: nothing is left, the turn is over
    assert st.current_player() == BLUE and tile(st, "H4")[:2] == ("orange", "corner")


def test_move_only_and_what_a_move_may_not_do(game):
    st = blue_turn(game, {"E5": ("blue", "corner", "N+E"), "E3": ("orange", "tee", "N+E+S"),
                          "F5": ("orange", "straight", "N+S"), "B5": ("orange", "straight", "N+S")})
    act(st, game.cell_action("E5"), orient(game, "blue", "corner", "N+E"))
    legal = st.legal_actions()
    assert game.move_action("N", 1) in legal
    assert game.move_action("N", 2) not in legal  # E3 is taken
    assert game.move_action("E", 1) not in legal  # F5 is taken
    assert {game.move_action("W", 2), game.move_action("S", 2)} <= set(legal)
    with pytest.raises(IllegalActionError, match="straight line through empty cells"):
        st.apply_action(game.move_action("N", 2))
    act(st, game.move_action("W", 2))  # E5 -> C5
    assert tile(st, "C5")[:2] == ("blue", "corner")
    assert game.move_action("W", 1) not in st.legal_actions()  # one move a turn
    with pytest.raises(IllegalActionError, match="already moved"):
        st.apply_action(game.move_action("W", 1))
    act(st, game.stop_action)
    assert st.current_player() == BLUE and st.metrics()["swaps"] == 0


def test_moves_stop_at_the_board_edge(game):
    st = blue_turn(game, {"A1": ("blue", "corner", "N+E")}, at="I9")
    act(st, game.cell_action("A1"), orient(game, "blue", "corner", "N+E"))
    assert st.legal_actions() == [game.move_action("E", 1), game.move_action("E", 2),
                                  game.move_action("S", 1), game.move_action("S", 2)]


def test_a_chain_of_two_swaps(game):
    st = blue_turn(game, {"E5": ("blue", "corner", "N+E"), "F5": ("orange", "straight", "N+S"),
                          "G5": ("orange", "tee", "N+E+S")})
    act(st, game.cell_action("E5"), orient(game, "blue", "corner", "N+E"))
    act(st, game.swap_action("E"), orient(game, "orange", "straight", "E+W"), orient(game, "blue", "corner", "S+W"))
    assert tile(st, "F5") == ("blue", "corner", mask("S+W")) and tile(st, "E5") == ("orange", "straight", mask("E+W"))
    with pytest.raises(IllegalActionError, match="not swapped with yet"):
        st.apply_action(game.swap_action("W"))
    act(st, game.swap_action("E"), orient(game, "orange", "tee", "S+W+N"), orient(game, "blue", "corner", "W+N"))
    assert tile(st, "G5") == ("blue", "corner", mask("W+N"))
    assert tile(st, "F5") == ("orange", "tee", mask("S+W+N"))
    assert tile(st, "E5") == ("orange", "straight", mask("E+W"))
    legal = st.legal_actions()
    assert not any(game.decode(a)[0] == "swap" for a in legal)  # both neighbours swapped already
    assert game.move_action("E", 2) in legal and game.stop_action in legal  # a move may still follow
    act(st, game.stop_action)
    assert st.current_player() == BLUE and st.metrics()["swaps"] == 2


def test_the_tile_just_placed_may_be_played(game):
    st = game.position({"E4": ("orange", "corner", "N+E")}, reserves=[["blue tee"], []], player=ORANGE)
    place(st, "blue", "tee", "E5", "N+E+S")
    assert game.grid.parse("E5") in st.legal_actions()
    act(st, game.cell_action("E5"), orient(game, "blue", "tee", "E+S+W"), game.swap_action("N"))
    assert st.step == ORIENT_OTHER


# --- connection and scoring ---------------------------------------------------------------------


def test_connection_needs_same_colour_contact_and_meeting_paths(game):
    st = game.position({
        "C3": ("blue", "straight", "E+W"), "D3": ("blue", "straight", "E+W"),  # connected
        "E3": ("orange", "straight", "E+W"),  # paths meet, colours differ
        "C5": ("blue", "straight", "N+S"), "D5": ("blue", "straight", "E+W"),  # C5's path misses the side
        "C7": ("blue", "straight", "E+W"), "D7": ("blue", "corner", "N+E"),  # D7's path misses the side
        "F8": ("blue", "corner", "E+S"), "G9": ("blue", "corner", "W+N"),  # corners touch: no contact
    }, reserves=[["orange corner"], []])
    assert [g for g in st.groups() if len(g) > 1] == [cells(game, "C3", "D3")]
    assert st.links() == 1


def test_a_group_of_five_scores_four_to_the_opponent_one_to_the_score(game):
    board = {f"{c}2": ("blue", "straight", "E+W") for c in "BCDE"}
    st = game.position(board, reserves=[["blue tee"], ["orange corner"]], player=ORANGE)
    place(st, "blue", "tee", "F2", "S+W+N")  # its W meets E2: 5 connected
    assert st.groups(5) == [cells(game, "B2", "C2", "D2", "E2", "F2")]
    act(st, game.stop_action)  # groups score at the end of the turn
    assert st.step == MARKER and st.current_player() == ORANGE  # straights and a tee: which one scores?
    assert st.legal_actions() == sorted([game.kind_action("blue", "straight"), game.kind_action("blue", "tee")])
    act(st, game.kind_action("blue", "tee"))
    assert st.points() == [1, 0]
    assert st.scored[ORANGE][game.kind_index("blue", "tee")] == 1
    assert st.reserve[BLUE][game.kind_index("blue", "straight")] == 4  # the other 4 to the opponent
    assert st.reserve[BLUE][game.kind_index("orange", "corner")] == 1
    assert st.tiles_on_board() == 0
    assert st.current_player() == BLUE and st.step == P_KIND


def test_five_of_one_kind_score_without_a_question(game):
    """A staircase of corners: A1 E -> B1 W, B1 S -> B2 N, B2 E -> C2 W, C2 S -> C3 N."""
    board = {"A1": ("orange", "corner", "E+S"), "B1": ("orange", "corner", "S+W"),
             "B2": ("orange", "corner", "N+E"), "C2": ("orange", "corner", "S+W")}
    st = game.position(board, reserves=[[], ["orange corner", "blue tee"]], player=BLUE)
    assert st.groups(2) == [cells(game, "A1", "B1", "B2", "C2")]
    place(st, "orange", "corner", "C3", "N+E")
    act(st, game.stop_action)
    assert st.points() == [0, 1] and st.tiles_on_board() == 0  # no question: all five are corners
    assert st.reserve[ORANGE][game.kind_index("orange", "corner")] == 4
    assert st.current_player() == ORANGE


def test_a_group_of_six_scores_once_and_the_player_chooses_five_connected(game):
    board = {f"{c}2": ("blue", "straight", "E+W") for c in "BCDE"}
    board["F2"] = ("blue", "tee", "E+S+W")
    st = game.position(board, reserves=[["blue tee"], []], player=ORANGE)
    place(st, "blue", "tee", "G2", "S+W+N")
    act(st, game.stop_action)
    assert st.step == PICK
    group = cells(game, "B2", "C2", "D2", "E2", "F2", "G2")
    assert st.legal_actions() == group
    act(st, game.cell_action("G2"))
    assert st.legal_actions() == cells(game, "F2")  # each next tile connected to one chosen
    with pytest.raises(IllegalActionError, match="connected to one already chosen"):
        st.apply_action(game.cell_action("B2"))
    act(st, game.cell_action("F2"), game.cell_action("E2"), game.cell_action("D2"), game.cell_action("C2"))
    assert st.step == MARKER
    act(st, game.kind_action("blue", "straight"))
    assert st.points() == [1, 0] and st.metrics()["groups_over_size"] == 1
    assert tile(st, "B2") == ("blue", "straight", mask("E+W"))  # the sixth stays
    assert st.tiles_on_board() == 1
    assert st.reserve[BLUE][game.kind_index("blue", "tee")] == 2
    assert st.reserve[BLUE][game.kind_index("blue", "straight")] == 2
    assert st.current_player() == BLUE


def test_a_group_of_ten_scores_twice(game):
    board = {"A2": ("blue", "corner", "E+S")}
    board.update({f"{c}2": ("blue", "straight", "E+W") for c in "BCDE"})
    board.update({f"{c}2": ("blue", "tee", "E+S+W") for c in "FGH"})
    board["I1"] = ("blue", "tee", "S+W+N")
    st = game.position(board, reserves=[["blue corner"], []], player=ORANGE)
    place(st, "blue", "corner", "I2", "W+N")
    assert len(st.groups(5)[0]) == 10
    act(st, game.stop_action)
    act(st, *(game.cell_action(c) for c in ("A2", "B2", "C2", "D2", "E2")))
    act(st, game.kind_action("blue", "corner"))
    assert st.points() == [1, 0]
    # the other five still form a group: it scores at once, for the same player
    assert st.current_player() == ORANGE and st.step == MARKER
    assert st.picks == cells(game, "F2", "G2", "H2", "I1", "I2")
    act(st, game.kind_action("blue", "tee"))
    assert st.points() == [2, 0] and st.tiles_on_board() == 0
    assert sum(st.reserve[BLUE]) == 8


def test_a_swap_may_score_a_group_of_the_other_colour(game):
    """Swaps move tiles of any colour; whatever group of 5 stands at the end of the turn scores for the mover."""
    board = {f"{c}5": ("orange", "straight", "E+W") for c in "BCDF"}
    board.update({"E5": ("blue", "corner", "S+W"), "E6": ("orange", "tee", "N+E+S")})
    st = blue_turn(game, board)  # orange's turn, colour blue
    act(st, game.cell_action("E5"), orient(game, "blue", "corner", "S+W"), game.swap_action("S"))
    act(st, orient(game, "orange", "tee", "W+N+E"), orient(game, "blue", "corner", "N+E"))
    assert st.step == ACT and st.groups(5) == [cells(game, "B5", "C5", "D5", "E5", "F5")]
    act(st, game.stop_action)
    assert st.step == MARKER
    act(st, game.kind_action("orange", "tee"))
    assert st.points() == [1, 0] and tile(st, "C5") is None and tile(st, "E6")[:2] == ("blue", "corner")


# --- the end ------------------------------------------------------------------------------------


def test_the_seventh_point_ends_the_game_most_points_wins(game):
    board = {f"{c}2": ("blue", "straight", "E+W") for c in "BCDE"}
    st = game.position(board, reserves=[[], ["blue straight"]], points=(4, 2), player=BLUE)
    assert st.step == P_KIND
    place(st, "blue", "straight", "F2", "E+W")
    act(st, game.stop_action)
    assert st.points() == [4, 3]
    assert st.current_player() == TERMINAL and st.is_terminal()
    assert st.returns() == [1.0, 0.0]  # 4-3: orange wins although blue scored the last point
    assert st.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        st.apply_action(game.stop_action)
    assert st.metrics()["final orange 4-3 blue"] == 1 and st.metrics()["unfinished"] == 0


def test_the_seventh_point_stops_further_scoring(game):
    board = {f"{c}2": ("blue", "straight", "E+W") for c in "BCDE"}
    board.update({f"{c}6": ("orange", "straight", "E+W") for c in "BCDE"})
    board["F6"] = ("orange", "tee", "E+S+W")  # an orange group of 5 waits too
    st = game.position(board, reserves=[["blue tee"], []], points=(3, 3), player=ORANGE)
    place(st, "blue", "tee", "F2", "S+W+N")
    act(st, game.stop_action)
    assert st.step == PICK  # two groups: the player chooses which scores first
    act(st, game.cell_action("B2"))
    act(st, game.kind_action("blue", "tee"))
    assert st.is_terminal() and st.points() == [4, 3] and st.returns() == [1.0, 0.0]
    assert tile(st, "B6") is not None  # the 8th group is never scored


def test_the_turn_cap_ends_an_unfinished_game_as_a_draw(game):
    short = IshiHamaGame(game.design, 2, max_turns=3)
    st = short.new_initial_state()
    for _ in range(9):
        act(st, st.legal_actions()[0])
    assert st.is_terminal() and st.returns() == [0.0, 0.0] and st.metrics()["unfinished"] == 1


def test_actions_read_as_text(game):
    st = blue_turn(game, {"C3": ("blue", "corner", "N+E")})
    assert st.action_to_string(game.cell_action("C3")) == "orange plays the tile on C3"
    act(st, game.cell_action("C3"))
    assert st.action_to_string(orient(game, "blue", "corner", "E+S")) == "orange orients the tile with paths E+S"
    act(st, orient(game, "blue", "corner", "E+S"))
    assert st.action_to_string(game.move_action("E", 2)) == "orange moves the tile 2 cell(s) E"
    assert "C3" in str(st).splitlines()[0] or "orange" in str(st)
