"""TUBO rules on hand-made positions: wrapping, loops (also across the wrap), the duty to
play, Close pieces forced and chosen, continuing from a Close piece, passing over earlier
paths, reaching the Objective, and the final score."""

from __future__ import annotations

import pytest

from pnp.engine import TERMINAL, IllegalActionError
from pnp.engine.agents import GreedyAgent, RandomAgent
from pnp.engine.playout import play
from pnp.games.tubo.engine import (
    CLOSED,
    CONNECTORS,
    OPEN,
    PATH,
    PLACE,
    TuboGame,
)
from pnp.games.tubo.geometry import E, N, S, W
from pnp.loader import load_design
from tests.conftest import DESIGNS


@pytest.fixture(scope="module")
def game() -> TuboGame:
    return TuboGame(load_design(DESIGNS / "tubo"), 2)


def started(game: TuboGame, objective=(6, 0)):
    """Stocks drafted (seat 1 takes stocks 0, 2, 4, 6; seat 2 takes 1, 3, 5, 7), the Objective placed by seat 2."""
    st = game.new_initial_state()
    for k in range(8):
        assert st.current_player() == k % 2
        st.apply_action(game.draft_action(k))
    assert st.current_player() == 1  # seat 2 places the Objective
    st.apply_action(game.objective_action(objective))
    assert st.current_player() == 0 and st.phase == OPEN and st.round == 1
    return st


def lay(st, piece: str):
    st.apply_action(st.game.place_action(piece))


def cell(game, x, y):
    return game.board.index((x, y))


def test_draft_and_objective_setup(game):
    st = game.new_initial_state()
    st.apply_action(game.draft_action(3))
    with pytest.raises(IllegalActionError, match="already chosen"):
        st.apply_action(game.draft_action(3))
    st = started(game)
    assert [len(d) for d in st.drafted] == [4, 4] and sorted(st.drafted[0] + st.drafted[1]) == list(range(8))
    # the Objective only on the black ring, never grey: 24 choices
    st2 = game.new_initial_state()
    for k in range(8):
        st2.apply_action(k)
    assert len(st2.legal_actions()) == 24
    with pytest.raises(IllegalActionError, match="black zone"):
        st2.apply_action(game.objective_action((2, 2)))
    # round 1 starts from any of Start's 4 branches
    assert st.legal_actions() == sorted(game.open_action((3, 3), b) for b in (N, E, S, W))


def test_a_path_leaving_the_bottom_edge_re_enters_at_the_top(game):
    st = started(game)
    st.apply_action(game.open_action((3, 3), S))  # seat 1 opens the S branch...
    lay(st, "N-S")                                  # ...and lays (3,4)
    assert st.current_player() == 1
    lay(st, "N-S")                                  # seat 2: (3,5)
    lay(st, "N-W")                                  # seat 1: (3,6), heading W
    lay(st, "E-S")                                  # seat 2: (2,6), heading S off the bottom edge
    t, entry = st.target()
    assert game.board.cell(t) == (2, 0) and entry == N  # ...into the top row, from the north
    assert st.phase == PLACE and st.loops == [0, 0]
    lay(st, "N-E")
    i = cell(game, 2, 0)
    assert st.kind[i] == PATH and st.ports[i] == (1 << N) | (1 << E)


def test_a_path_leaving_the_right_edge_re_enters_on_the_left(game):
    st = game.position(objective=(0, 0), pieces={(6, 3): ("E-W", 1)}, end=((6, 3), E))
    t, entry = st.target()
    assert game.board.cell(t) == (0, 3) and entry == W
    # only pieces with a line on the W side fit (pieces are never turned), plus the Close piece
    fitting = [game.place_action(p) for p in ("N-W", "E-W", "S-W")] + [game.place_action("close")]
    assert st.legal_actions() == sorted(fitting)
    with pytest.raises(IllegalActionError, match="does not meet the path entering from W"):
        lay(st, "N-S")
    lay(st, "N-W")  # heading N from (0,3) towards (0,2)
    assert game.board.cell(st.target()[0]) == (0, 2)


def test_a_loop_closed_across_the_wrap(game):
    """N from Start, up through the top edge, back in at the bottom, and into Start's S branch."""
    st = game.position(objective=(6, 0), branches=[N], pieces={(3, y): ("N-S", 1) for y in (2, 1, 0, 6, 5)},
                       end=((3, 5), N), player=0)
    lay(st, "N-S")  # (3,4): its line now runs into Start
    assert st.loops == [1, 0]
    # no Close piece in play: the other player starts round 2 from a free branch
    assert st.round == 2 and st.phase == OPEN and st.current_player() == 1
    assert st.legal_actions() == sorted(game.open_action((3, 3), b) for b in (E, S, W))
    with pytest.raises(IllegalActionError, match="not free"):
        st.apply_action(game.open_action((3, 3), N))


def test_running_into_the_path_under_construction_is_a_loop_joining_or_not(game):
    # this round's path crosses (1,1) E-W
    st = game.position(objective=(6, 0), pieces={(1, 1): ("E-W", 1)}, end=((1, 3), N), player=1)
    lay(st, "N-S")  # (1,2), its end leads into (1,1) from the S: a piece of this round
    assert st.loops == [0, 1]


def test_joining_an_earlier_path_is_a_loop_passing_over_it_is_not(game):
    st = game.position(objective=(6, 0), round=2, branches=[N, E], end=((5, 3), S), player=0,
                       pieces={(5, 5): ("E-W", 1), (1, 5): ("N-S", 1)})  # an earlier round's path
    lay(st, "N-S")  # (5,4): leads into (5,5) from N, where the old line runs E-W: pass over
    assert st.loops == [0, 0] and st.phase == PLACE
    lay(st, "N-S")  # seat 2 lays on top of the old piece
    i = cell(game, 5, 5)
    assert st.depth[i] == 2 and st.ports[i] == (1 << N) | (1 << S) and st.passed_over == 1
    # an end leading into (1,5) from the E, where the old line runs N-S: the E-W piece goes on top
    st = game.position(objective=(6, 0), round=2, branches=[N, E], end=((2, 5), W), player=0,
                       pieces={(5, 5): ("E-W", 1), (1, 5): ("N-S", 1)})
    lay(st, "E-W")
    assert st.loops == [0, 0] and st.depth[cell(game, 1, 5)] == 2
    st = game.position(objective=(6, 0), round=2, branches=[N, E], end=((3, 1), E), player=1,
                       pieces={(5, 1): ("E-W", 1)})
    lay(st, "E-W")  # (4,1): its end leads into (5,1) from W, where the old line ends: the paths join
    assert st.loops == [0, 1]


def test_duty_to_play_and_the_forced_close(game):
    st = started(game)
    st.apply_action(game.open_action((3, 3), N))
    # an end entering from S: N-S, E-S, S-W fit; seat 1 holds all three, and may also close by choice
    assert st.legal_actions() == sorted([game.place_action(p) for p in ("N-S", "E-S", "S-W")]
                                        + [game.place_action("close")])
    with pytest.raises(IllegalActionError, match="does not meet"):
        lay(st, "E-W")
    # with those three used, the Close piece is the only move: forced
    st = game.position(objective="G1", branches=["N"], end=("D4", "N"), hands={0: {"N-S": 0, "E-S": 0, "S-W": 0}})
    assert st.legal_actions() == [game.place_action("close")]
    with pytest.raises(IllegalActionError, match="not in hand"):
        lay(st, "N-S")
    lay(st, "close")
    i = cell(game, 3, 2)
    assert st.kind[i] == CLOSED and st.opening[i] == S and st.closes == [1, 0] and st.forced == 1
    # the round is over; the opponent starts round 2 from a free branch
    assert st.round == 2 and st.phase == OPEN and st.current_player() == 1
    assert game.open_action((3, 3), N) not in st.legal_actions()


def test_a_close_piece_chosen_ends_the_round(game):
    st = started(game)
    st.apply_action(game.open_action((3, 3), E))
    lay(st, "E-W")
    lay(st, "close")  # seat 2 holds fitting pieces but stops the round
    assert st.closes == [0, 1] and st.forced == 0 and st.round == 2 and st.current_player() == 0


def test_after_a_loop_the_path_goes_on_from_a_close_piece_never_backwards(game):
    st = game.position(objective=(6, 0), round=2, branches=[N, E], player=0, end=((2, 4), N),
                       closes={(5, 2): (W, 1)},  # laid at the end of round 1, its opening facing W
                       pieces={(2, 2): ("E-W", 2)})
    lay(st, "N-S")  # (2,3) leads into (2,2): this round's path: a loop by seat 1
    assert st.loops == [1, 0] and st.round == 2  # the round goes on
    assert st.phase == OPEN and st.current_player() == 1
    # 3 ways out of the Close piece, never back through its opening (W)
    assert st.legal_actions() == sorted(game.open_action((5, 2), s) for s in (N, E, S))
    with pytest.raises(IllegalActionError, match="never back through its opening"):
        st.apply_action(game.open_action((5, 2), W))
    st.apply_action(game.open_action((5, 2), E))
    i = cell(game, 5, 2)
    assert st.kind[i] == PATH and st.ports[i] == (1 << W) | (1 << E) and st.opening[i] == -1
    # the same player lays the next piece, east of the Close piece, from this round's stock
    assert st.phase == PLACE and st.current_player() == 1 and game.board.cell(st.target()[0]) == (6, 2)
    lay(st, "E-W")
    assert st.current_player() == 0 and st.exits == 1


def test_entering_a_close_piece_from_any_side_joins_it(game):
    st = game.position(objective=(6, 0), round=2, closes={(4, 1): (S, 1)}, end=((2, 1), E), player=0)
    lay(st, "E-W")  # (3,1) leads into the Close piece's W side
    assert st.loops == [1, 0]
    # the other player must go on from that Close piece (the only one in play)
    assert st.legal_actions() == sorted(game.open_action((4, 1), s) for s in (N, E, W))


def test_reaching_the_objective_wins_at_once(game):
    st = started(game, objective=(6, 3))
    st.apply_action(game.open_action((3, 3), E))
    lay(st, "E-W")  # seat 1: (4,3)
    lay(st, "E-W")  # seat 2: (5,3), whose end leads into the Objective
    assert st.current_player() == TERMINAL and st.reached and st.returns() == [0.0, 1.0]
    assert st.metrics()["objective_reached"] == 1
    with pytest.raises(IllegalActionError, match="game is over"):
        lay(st, "close")


def test_score_after_four_rounds(game):
    """+1 a connector in hand, -1 a loop, -1 a Close piece laid; higher score wins."""
    st = started(game)
    st.apply_action(game.open_action((3, 3), N))
    lay(st, "N-S")        # seat 1 lays one connector
    lay(st, "close")      # seat 2 closes round 1
    assert st.round == 2 and st.current_player() == 0
    st.apply_action(game.open_action((3, 3), E))
    lay(st, "close")      # seat 1 closes round 2
    st.apply_action(game.open_action((3, 3), S))
    lay(st, "close")      # seat 2 closes round 3
    st.apply_action(game.open_action((3, 3), W))
    lay(st, "close")      # seat 1 closes round 4: every stock used, the game ends
    assert st.current_player() == TERMINAL and not st.reached
    assert st.scores() == [23 - 2, 24 - 2]
    assert st.returns() == [0.0, 1.0]
    m = st.metrics()
    assert m["decided_on_points"] == 1 and m["closes"] == 4 and m["rounds"] == 4 and m["draw"] == 0
    # a loop costs a point too
    st2 = game.position(objective=(6, 0), loops=[1, 0], closed=[0, 2])
    assert st2.scores() == [24 - 1, 24 - 2]


def test_equal_scores_are_a_draw(game):
    st = started(game)
    for branch in (N, E, S, W):
        st.apply_action(game.open_action((3, 3), branch))
        lay(st, "close")
    assert st.scores() == [22, 22] and st.returns() == [0.0, 0.0] and st.metrics()["draw"] == 1


def test_action_text_and_clone(game):
    st = started(game, objective=(0, 6))
    a = game.open_action((3, 3), N)
    assert st.action_to_string(a) == "seat 1 goes on from Start towards N"
    st.apply_action(a)
    assert st.action_to_string(game.place_action("N-S")) == "seat 1 lays connector N-S on D3"
    copy = st.clone()
    assert copy == st
    lay(copy, "N-S")
    assert copy != st and st.hand(0)[CONNECTORS.index((0, 2))] == 1


def test_seeded_games_end_and_replay(game):
    for agent in (RandomAgent(), GreedyAgent()):
        for seed in range(30):
            res = play(game, [agent, agent], seed)
            assert res.length <= game.info.max_game_length
            assert play(game, [agent, agent], seed).history == res.history
            m = res.metrics
            assert m["objective_reached"] + m["decided_on_points"] + m["draw"] == 1
            assert m["stuck"] == 0 and m["rounds"] <= 4


def test_a_position_is_made_from_data_and_refuses_what_the_game_cannot_hold(game):
    st = game.position(objective="A1", round=2, branches=["N"], pieces={"D2": ("N-S", 1)}, player=1)
    assert st.current_player() == 1 and st.phase == OPEN and st.round == 2
    assert st.legal_actions() == sorted(game.open_action((3, 3), b) for b in (E, S, W))
    with pytest.raises(ValueError, match="black zone"):
        game.position(objective="C3")  # grey
    with pytest.raises(ValueError, match="off the 7x7 board"):
        game.position(objective="A1", pieces={"H1": ("N-S", 1)})
