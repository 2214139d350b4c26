"""TriLOOPite: the loop analysis and scoring on hand-made layouts, the placement rules, both games."""

from __future__ import annotations

import math
from itertools import product

import pytest

from pnp.engine import CHANCE, TERMINAL, IllegalActionError
from pnp.engine.agents import make_agent
from pnp.engine.playout import play
from pnp.games.triloopite import witnesses as W
from pnp.games.triloopite.engine import KEEP, TriloopiteGame
from pnp.games.triloopite.geometry import (
    DIRS,
    SQRT3,
    PlacementError,
    analyse,
    centre,
    lines_cross,
    rotate_lines,
    transform,
    walk,
    walks_layout,
)
from pnp.games.triloopite.scoring import read_rules, score
from pnp.loader import load_design, package_root
from pnp.render.pathtiles import Arc, Link, geometry, hexagon

DESIGN = package_root() / "designs" / "triloopite"


@pytest.fixture(scope="module")
def design():
    return load_design(DESIGN)


@pytest.fixture(scope="module")
def rules(design):
    return read_rules(design)


def hexagon_loop(n: tuple[int, ...], at=(0, 0)) -> dict:
    """A convex loop with n[k] steps heading k (gentle right turns at the corners)."""
    heads = [k for k in range(6) for _ in range(n[k])]
    turns = "".join("S" if heads[i] == heads[i - 1] else "R" for i in range(len(heads)))
    return walks_layout(walk(at, heads[-1], turns))


def loop_of_length(length: int) -> tuple[int, ...] | None:
    """Side lengths of a convex closed loop of `length` tiles (None: there is none, e.g. 7)."""
    for n in product(range(1, 12), repeat=4):
        n0, n1, n2, n4 = n
        n3, n5 = n0 + n1 - n4, n1 + n2 - n4
        if n3 >= 1 and n5 >= 1 and n0 + n1 + n2 + n3 + n4 + n5 == length:
            return (n0, n1, n2, n3, n4, n5)
    return None


def merged(*layouts) -> dict:
    out = {}
    for lay in layouts:
        assert not set(out) & set(lay)
        out.update(lay)
    return out


# --- geometry: a ring of 6 closes, on paper too ---------------------------------------------


def test_a_ring_of_six_crabs_is_a_loop_of_six_that_closes_smoothly_on_paper():
    ring = W.ring6()
    assert len(ring) == 6 and all(len(lines) == 1 for lines in ring.values())
    a = analyse(ring)
    assert a.count == 1 and a.longest == 6 and a.open_curves == 0
    # every tile is a crab (one gentle arc) in some rotation
    assert all(abs(l[0] - l[1]) in (2, 4) for lines in ring.values() for l in lines)
    # draw the arcs as the printed tiles do and follow them: each ends where the next begins,
    # with the same direction, and the six turn exactly once around
    side = 20.0
    shape = hexagon(side, "flat")
    loop = a.loops[0]
    pieces = []
    for cell, i in loop.visits:
        a_, b_ = ring[cell][i]
        g = geometry(shape, Link(a_, b_))
        assert isinstance(g, Arc)
        cx, cy = centre(cell, side)
        ox, oy = cx - side, cy - SQRT3 * side / 2
        pieces.append((g, (ox, oy)))
    turning = 0.0
    for k, (g, o) in enumerate(pieces):
        g2, o2 = pieces[(k + 1) % len(pieces)]
        p_end = {(round(g.end[0] + o[0], 9), round(g.end[1] + o[1], 9)),
                 (round(g.start[0] + o[0], 9), round(g.start[1] + o[1], 9))}
        p_next = {(round(g2.start[0] + o2[0], 9), round(g2.start[1] + o2[1], 9)),
                  (round(g2.end[0] + o2[0], 9), round(g2.end[1] + o2[1], 9))}
        shared = p_end & p_next
        assert len(shared) == 1, "consecutive arcs meet at exactly one edge midpoint"
        # tangents at the shared point are parallel (a smooth curve)
        (sx, sy), = shared
        t1 = g.tangent_at(1.0 if (round(g.end[0] + o[0], 9), round(g.end[1] + o[1], 9)) == (sx, sy) else 0.0)
        t2 = g2.tangent_at(0.0 if (round(g2.start[0] + o2[0], 9), round(g2.start[1] + o2[1], 9)) == (sx, sy) else 1.0)
        assert abs(t1[0] * t2[1] - t1[1] * t2[0]) < 1e-9
        turning += g.angle
    assert math.isclose(turning, 2 * math.pi)


def test_crossing_is_interleaving_ports():
    assert lines_cross((0, 3), (1, 4))  # T3 cross
    assert lines_cross((0, 3), (1, 5))  # T4 arc over straight
    assert not lines_cross((0, 2), (3, 5))  # T2 double arc: the arcs bend apart
    assert not lines_cross((0, 3), (0, 2))  # sharing a port is not a crossing


# --- scoring rows ---------------------------------------------------------------------------


def test_every_row_of_the_loop_count_table(rules):
    assert [r.value for r in rules.loop_points.rows] == [0, 1, 2, 3, 5, 8, 13]
    for row in rules.loop_points.rows:
        for n in {row.lo, row.hi if row.hi is not None else row.lo + 2}:
            layout = merged(*(transform(W.ring6(), 0, (7 * i, 0)) for i in range(n)))
            a = analyse(layout, start=None)
            assert a.count == n and a.longest == (6 if n else 0)
            s = score(a, [0], rules)
            assert s.loop_points == row.value, (row.key, n)
            assert s.longest_points == 0 and s.total == row.value


def test_every_row_of_the_longest_loop_table(rules):
    assert [r.value for r in rules.longest_loop_points.rows] == [0, 1, 2, 3, 5, 7, 12, 20, 33, 54]
    assert loop_of_length(7) is None  # 6 net right turns in 7 tiles cannot close: no loop of 7 exists
    for row in rules.longest_loop_points.rows:
        lengths = [n for n in (row.lo, row.hi if row.hi is not None else 31) if loop_of_length(n)]
        assert lengths, row.key
        for length in lengths:
            layout = hexagon_loop(loop_of_length(length))
            a = analyse(layout, start=None)
            assert a.count == 1 and a.longest == length == len(layout)
            s = score(a, [], rules)
            assert s.longest_points == row.value and s.total == row.value + 1, (row.key, length)


def test_the_hand_penalty_is_the_sum_of_squares(rules):
    a = analyse(W.ring6(), start=None)
    s = score(a, [2, 3, 0], rules)  # the seed's example: Alice 2, Bob 3, Carole 0 -> 13
    assert s.penalty == 13 and s.total == 1 + 0 - 13


def test_first_game_verdicts(rules):
    assert rules.verdict(0) == rules.verdict(1) == "Excellent!"
    assert rules.verdict(4, "fr") == "Pas mal du tout."
    assert rules.verdict(8) == "That was not an easy game."  # the seed's overlapping "8 ou plus" starts at 9
    assert rules.verdict(9, "fr") == "On retente une partie ?" == rules.verdict(40, "fr")


# --- bonuses --------------------------------------------------------------------------------


def test_figure_eight_through_a_cross_and_through_an_arc_over_straight(rules):
    for make in (W.figure8_cross, W.figure8_arc):
        layout = make()
        a = analyse(layout, start=None)
        assert a.count == 1 and a.self_crossing == [0]
        lp = a.loops[0]
        assert len(lp.visits) == lp.length + 1  # the crossing tile is used twice, counted once
        assert not a.crossing_pairs and not a.nested_pairs
        s = score(a, [], rules)
        assert s.bonuses == {"figure_eight": 5}


def test_two_loops_crossing_share_two_crossing_tiles(rules):
    for make in (W.crossing_arcs, W.crossing_crosses):
        a = analyse(make(), start=None)
        assert a.count == 2 and a.crossing_pairs == [(0, 1)]
        assert not a.self_crossing and not a.nested_pairs  # crossing loops are not inside one another
        shared = a.loops[0].tiles & a.loops[1].tiles
        assert len(shared) == 2  # closed curves cross an even number of times
        assert score(a, [], rules).bonuses == {"crossing_loops": 5}


def test_loops_touching_on_a_double_arc_do_not_cross():
    # rings round (0,0) and (0,-2) share the cell (0,-1): a T2, one arc each
    a_ring = walks_layout(walk(DIRS[5], 0, "RRRRRR"))
    b_ring = transform(a_ring, 0, (0, -2))
    layout = walks_layout(*[[(c, ln) for c, lns in lay.items() for ln in lns] for lay in (a_ring, b_ring)])
    assert len(layout[(0, -1)]) == 2  # a double arc: the T2
    assert not lines_cross(*layout[(0, -1)])
    a = analyse(layout, start=None)
    assert a.count == 2 and not a.crossing_pairs and not a.self_crossing and not a.nested_pairs


def test_a_loop_inside_another(rules):
    layout = W.nested()
    a = analyse(layout, start=None)
    assert a.count == 2
    small = min(range(2), key=lambda k: a.loops[k].length)
    big = 1 - small
    assert (a.loops[small].length, a.loops[big].length) == (6, 12)
    assert a.nested_pairs == [(small, big)] and not a.crossing_pairs
    assert a.open_curves == 1  # the straight line joining them, open at both ends
    assert score(a, [], rules).bonuses == {"nested_loops": 5}
    # side by side: neither inside the other
    apart = merged(W.ring6(), transform(W.ring6(), 0, (8, 0)))
    assert analyse(apart, start=None).nested_pairs == []


def test_a_loop_through_the_start_tile(rules):
    ring = W.ring6()
    a = analyse(ring, start=(0, 0))
    assert a.through_start == [0] and score(a, [], rules).bonuses == {"start_loop": 5}
    elsewhere = transform(ring, 0, (5, 0))
    elsewhere[(0, 0)] = ((0, 3),)
    assert analyse(elsewhere, start=(0, 0)).through_start == []


def test_all_four_bonuses_together(rules):
    layout = merged(W.figure8_cross(), transform(W.crossing_crosses(), 0, (30, 0)),
                    transform(W.nested(), 0, (0, 30)), transform(W.ring6(), 0, (-30, 0)))
    a = analyse(layout, start=(-30, 0))
    s = score(a, [1, 2], rules)
    assert set(s.bonuses) == {"figure_eight", "crossing_loops", "nested_loops", "start_loop"}
    assert a.count == 6 and a.longest == 13  # the figure 8
    assert s.total == 3 + 3 + 20 - 5


# --- placement rules ------------------------------------------------------------------------


@pytest.fixture
def game(design):
    return TriloopiteGame(design, 2)


def test_placement_rules(game):
    b = game.new_board()  # the start tile at (0, 0): an arc from port 0 (N) to port 2 (SE)
    crab = game.varieties[game.variety_index("crab")].lines
    t1 = game.varieties[game.variety_index("t1")].lines
    north = b.cell_of((0, -1))
    # line meets line: a crab north of the start must take the start's line on its port 3
    with pytest.raises(PlacementError, match="meets a blank edge"):
        b.place(north, rotate_lines(crab, 0))
    # blank meets blank: NE of the start faces its blank port 1
    with pytest.raises(PlacementError, match="facing the neighbour's blank edge"):
        b.place(b.cell_of((1, -1)), rotate_lines(crab, 2))  # {2, 4}: a line onto the start's blank edge
    # extend a line: touching only blanks is not enough
    with pytest.raises(PlacementError, match="extends no line"):
        b.place(b.cell_of((1, -1)), rotate_lines(t1, 0))  # {0, 3}: its port 4 is blank like the start's 1
    # touch: far away
    with pytest.raises(PlacementError, match="touches no tile"):
        b.place(b.cell_of((3, 3)), rotate_lines(crab, 1))
    # no overlap
    with pytest.raises(PlacementError, match="already holds a tile"):
        b.place(b.cell_of((0, 0)), rotate_lines(crab, 3))
    assert b.place(north, rotate_lines(crab, 1)) == 0  # {1, 3}: continues the start's line
    assert b.layout()[(0, -1)] == ((1, 3),)


def test_legal_actions_are_exactly_the_legal_placements(game):
    state = game.new_initial_state()
    rng = __import__("random").Random(4)
    for _ in range(30):  # play a while, then compare with a brute force over every cell nearby
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(rng))
            continue
        legal = set(state.legal_actions())
        brute = {KEEP}
        for v, n in enumerate(state.hands[state.player]):
            if not n:
                continue
            for rot, lines, _ in game.rots[v]:
                for q in range(-12, 13):
                    for r in range(-12, 13):
                        cell = state.board.cell_of((q, r))
                        if not state.board.why_not(cell, lines):
                            brute.add(game.place_action(v, rot, cell))
        assert legal == brute
        state.apply_action(sorted(legal)[-1] if len(legal) > 1 else KEEP)


def test_illegal_actions_say_which_rule(game):
    state = game.new_initial_state()
    state.apply_action(game.draw_action(game.variety_index("crab")))
    bad = game.place_action(game.variety_index("crab"), 0, state.board.cell_of((0, -1)))
    with pytest.raises(IllegalActionError, match="meets a blank edge"):
        state.apply_action(bad)
    t1 = game.variety_index("t1")
    with pytest.raises(IllegalActionError, match="holds no t1"):
        state.apply_action(game.place_action(t1, 0, state.board.cell_of((0, -1))))
    state = game.position(hands={0: ["crab", "t1"]})  # a straight line has 3 distinct rotations: 3 is 0
    assert state.current_player() == 0 and state.bag_n == game.bag_size - 2
    with pytest.raises(IllegalActionError, match="rotation 3 of t1 repeats"):
        state.apply_action(game.place_action(t1, 3, state.board.cell_of((0, -1))))


# --- both ways to play ----------------------------------------------------------------------


def test_first_game_ends_at_the_first_closed_loop(design):
    g = TriloopiteGame(design, 2, mode="first")
    state = g.new_initial_state()
    crab = g.variety_index("crab")
    built = W.build_witness(W.ring6(), g.start, g.varieties)
    order = [c for c in built.board.order][1:]  # after the start tile
    layout = built.board.layout()
    for k, cell in enumerate(order):
        assert state.current_player() == CHANCE
        state.apply_action(g.draw_action(crab))
        h = built.board.hex_of(cell)
        rot = g.varieties[crab].fits(layout[h])
        state.apply_action(g.place_action(crab, rot, state.board.cell_of(h)))
        if k < len(order) - 1:
            assert not state.is_terminal()
    assert state.current_player() == TERMINAL and state.closed_by_loop
    assert state.returns() == [0.0, 0.0] and state.verdict() == "Excellent!"
    assert state.metrics()["loops"] == 1 and state.metrics()["bonus_start_loop"] == 1


def test_standard_game_ends_when_the_last_tile_is_drawn_and_scores_from_the_tables(design, rules):
    g = TriloopiteGame(design, 3)
    res = play(g, [make_agent("greedy")] * 3, seed=5, keep_state=True)
    state = res.state
    assert res.length == g.bag_size == 59  # one turn per tile drawn
    assert state.bag_n == 0 and state.is_terminal()
    a = analyse(state.board.layout(), start=(0, 0))
    hands = [sum(h) for h in state.hands]
    assert len(state.board.lines) + sum(hands) == 60
    expect = (rules.loop_points.points(a.count) + rules.longest_loop_points.points(a.longest)
              + 5 * sum(a.bonuses.values()) - sum(h * h for h in hands))
    assert res.returns == [float(expect)] * 3
    assert res.metrics["loops"] == a.count == state.board.loops  # incremental count = exact analysis


def test_keeping_a_tile_costs_its_square(design):
    g = TriloopiteGame(design, 1)
    state = g.new_initial_state()
    for _ in range(3):
        state.apply_action(g.draw_action(g.variety_index("t3")))
        state.apply_action(KEEP)
    assert state.hands[0][g.variety_index("t3")] == 3 and state.metrics()["hand_penalty"] == 9


@pytest.mark.parametrize("players", [1, 4])
def test_greedy_playouts_make_loops(design, players):
    g = TriloopiteGame(design, players)
    agents = [make_agent("greedy")] * players
    results = [play(g, agents, seed) for seed in range(20)]  # their speed is measured in bench/, not here
    assert sum(r.metrics["loops"] for r in results) >= 20  # greedy closes loops in most games


def test_a_position_is_made_from_data_under_the_placement_rules(game):
    st = game.position(tiles=[("crab", 1, (0, -1))], hands={1: ["t3"]}, player=1, drawing=True)
    assert st.current_player() == CHANCE and len(st.board.lines) == 2 and st.bag_n == game.bag_size - 2
    with pytest.raises(PlacementError, match="meets a blank edge"):
        game.position(tiles=[("crab", 0, (0, -1))])
    with pytest.raises(ValueError, match="no tile variety 'nope'"):
        game.position(hands={0: ["nope"]})


# --- the search's judgement of an unfinished table (leaves of mcts) --------------------------

# five tiles each, no loop yet: a ring of 6 short of one crab (both open ends face the empty
# cell (2, -1)), the same ring begun with a double arc (T2) whose second arc starts another
# curve, and a zigzag of crabs whose ends face cells 6 steps apart ((1, 0) and (-2, -3))
RING_SHORT_OF_ONE = [("crab", 1, (0, -1)), ("crab", 2, (1, -2)), ("crab", 5, (1, 0)), ("crab", 3, (2, -2))]
RING_AND_ARC = [("t2", 1, (0, -1))] + RING_SHORT_OF_ONE[1:]
ZIGZAG = [("crab", 3, (0, -1)), ("crab", 0, (-1, -1)), ("crab", 3, (-1, -2)), ("crab", 0, (-2, -2))]


def test_the_leaf_judgement_values_a_loop_one_tile_from_closing(design, rules):
    g = TriloopiteGame(design, 3)
    ring = g.position(tiles=RING_AND_ARC, hands={0: ["crab"]})
    lone = g.position(tiles=RING_SHORT_OF_ONE, hands={0: ["crab"]})
    zigzag = g.position(tiles=ZIGZAG, hands={0: ["crab"]})
    # the score if the game stopped now cannot tell them apart: no loop, one tile in hand
    assert ring.returns() == lone.returns() == zigzag.returns() == [-1.0] * 3
    cell = ring.board.cell_of((2, -1))
    assert sorted((c.tiles, c.gap, c.live, c.start, c.cell) for c in ring.open_curves()) == [
        (1, 3, True, False, -1), (5, 1, True, True, cell)]
    [z] = zigzag.open_curves()
    assert (z.tiles, z.gap, z.live, z.start, z.cell) == (5, 7, True, True, -1)
    before = ring.key()
    # the ring closes at 3 chances in 4 (the arc's curve, 3 tiles from closing, at (3/4) ** 3) with the
    # start-tile bonus; every tile fits somewhere
    pts, start = rules.loop_points.points, rules.bonuses["start_loop"]
    loops = 0.75 + 0.75 ** 3
    expect = -1 + pts(1) + (loops - 1) * (pts(2) - pts(1)) + 0.75 * start
    assert ring.heuristic_returns() == pytest.approx([expect] * 3)
    assert ring.key() == before  # judging changes nothing
    # the zigzag's one curve closes (into a loop of 12) at (3/4) ** 7, and then only with a two-line
    # tile (18 of the 54 in the bag): a one-line tile would leave no open end
    far = 0.75 ** 7 * 18 / 54 * (pts(1) + start + rules.longest_loop_points.points(12))
    assert zigzag.heuristic_returns() == pytest.approx([-1 + far] * 3)
    assert ring.heuristic_returns()[0] > zigzag.heuristic_returns()[0] + 4
    # the lone ring is a trap: closing its only curve with a crab would end the placing, so only the
    # two-line tiles fit its one open cell: the other 36 of 54 will be kept for a while (6 draws, 2/3 + 1)
    p = 0.75 * 18 / 54
    assert lone.heuristic_returns() == pytest.approx([-1 + p * (pts(1) + start) - 6 * 36 / 54 * (2 / 3 + 1)] * 3)
    assert lone.heuristic_returns()[0] < zigzag.heuristic_returns()[0]
    # the crab that closes the ring: the promise becomes the score
    close = g.place_action(g.variety_index("crab"), 4, cell)
    assert close in ring.legal_actions()
    ring.apply_action(close)
    assert ring.board.loops == 1 and ring.returns() == [float(pts(1) + start)] * 3


def test_the_leaf_judgement_counts_every_tile_to_come_in_hand_when_the_table_is_stuck(design, rules):
    g = TriloopiteGame(design, 3)
    closed = g.position(tiles=RING_SHORT_OF_ONE + [("crab", 4, (2, -1))], player=1, drawing=True)
    assert closed.open_curves() == [] and closed.bag_n == g.bag_size - 5
    points = rules.loop_points.points(1) + rules.bonuses["start_loop"]
    assert closed.returns() == [float(points)] * 3
    # 54 tiles still to draw, 18 for each seat, none can ever be placed
    assert closed.heuristic_returns() == [float(points - 3 * 18 ** 2)] * 3
    closed.apply_action(closed.legal_actions()[0])
    assert closed.legal_actions() == [KEEP]
