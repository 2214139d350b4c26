"""Ishi-Hama in `pnp play` (pnp.games.ishi_hama.play): a whole game played by clicks on the drawn SVG alone, every
legal decision reachable by a click, the same view for every seat (nothing is hidden), an illegal click refused
by the engine with its reason, and the position exported for a rulebook diagram and drawn again."""

from __future__ import annotations

import json
import random
import time
import xml.etree.ElementTree as ET

import pytest
from pages import clickables

from pnp.engine.agents import parse_agent
from pnp.games.ishi_hama.engine import (
    ACT,
    C_ROT,
    MARKER,
    ORIENT_OTHER,
    ORIENT_SELF,
    P_CELL,
    P_KIND,
    P_ROT,
    PASS_STEP,
    PHASE1,
    PICK,
    SELECT,
    TAKE,
    IshiHamaGame,
)
from pnp.games.ishi_hama.play import PLAY, draw, position
from pnp.loader import load_design
from pnp.play.session import Session, replay_state
from pnp.registry import get_diagram, get_game
from tests.conftest import DESIGNS

ALL_STEPS = {P_KIND, P_CELL, P_ROT, TAKE, SELECT, C_ROT, ACT, ORIENT_OTHER, ORIENT_SELF, PICK, MARKER}
LIST_ONLY: dict[int, str] = {}
"""Decisions reachable only through the page's list, by step, with the reason: none (every decision of every
step has a place: a reserve slot, a cell, an orientation in the tray, the stop or pass button)."""


@pytest.fixture(scope="module")
def design():
    return load_design(DESIGNS / "ishi-hama")


@pytest.fixture(scope="module")
def game(design) -> IshiHamaGame:
    return IshiHamaGame(design, 2)


def click_to(svg: str, target: int, view: dict) -> int:
    """What the page plays when a person clicks, one after the other, the elements whose set holds `target`:
    the selection is the intersection of the sets clicked in a row; one legal action left plays it, several
    are picked from the list (they must be there, `target` among them)."""
    legal = {a["id"]: a["text"] for a in view["actions"]}
    sets = [acts for acts, _ in clickables(svg) if target in acts]
    assert sets, f"no element of the picture means {target} ({legal.get(target)})"
    selection: list[int] | None = None
    for acts in sets:
        nxt = [a for a in selection if a in acts] if selection else list(acts)
        selection = nxt or list(acts)
        left = [a for a in selection if a in legal]
        if len(left) == 1:
            return left[0]
        if not left:
            return selection[0]
    assert selection is not None
    left = [a for a in selection if a in legal]
    assert target in left and len(left) <= 4 and all(legal[a] for a in left), (target, left)
    return target  # picked from the highlighted texts of the list


def test_a_whole_game_played_by_clicks_replays_the_same(design):
    session = Session(design, 2, ["human", "greedy"], 6, "fr")
    chooser = parse_agent("greedy").make(session.game)
    rng = random.Random(2)
    clicks = 0
    slowest = 0.0
    for _ in range(3000):
        if session.state.is_terminal():
            break
        if session.agent_step():
            continue
        t = time.perf_counter()
        v = session.view()
        slowest = max(slowest, time.perf_counter() - t)
        assert v["yours"] and v["viewer"] == 0 and v["svg"]
        ids = [a["id"] for a in v["actions"]]
        target = rng.choice(ids) if rng.random() < 0.15 else chooser.step(session.state.clone(), rng)
        action = click_to(v["svg"], target, v)
        assert action == target
        assert session.play(action) == ""
        clicks += 1
    assert session.state.is_terminal() and clicks > 50
    assert slowest < 1.0  # the view, drawing included (about 10 ms here)
    end = session.view()
    assert end["over"] and end["returns"] == session.state.returns() and max(end["returns"]) == 1.0
    replay = json.loads(json.dumps(session.replay()))
    again = replay_state(design, replay)
    assert again.key() == session.state.key() and again.returns() == session.state.returns()


def test_every_legal_decision_has_a_place_to_click(design, game):
    """Every state of a whole game (both seats: the picture is the same for all), and a player with nothing to
    place or take: each legal action is in the set of some element (or listed in LIST_ONLY)."""
    session = Session(design, 2, ["greedy", "greedy"], 4, "fr")
    states = []
    while True:
        states.append(session.state.clone())
        if not session.agent_step():
            break
    states.append(game.position({}, reserves=[[], []], player=1))  # nothing to place or take: pass
    seen = set()
    for st in states:
        if st.is_terminal():
            continue
        svg = draw(design, st, st.current_player(), "en")
        reachable = {a for acts, _ in clickables(svg) for a in acts}
        missing = [a for a in st.legal_actions() if a not in reachable and st.step not in LIST_ONLY]
        assert not missing, (st.step, [st.action_to_string(a) for a in missing])
        seen.add(st.step)
    assert seen >= ALL_STEPS | {PASS_STEP}, sorted(ALL_STEPS - seen)


def test_each_place_is_named_and_means_the_decisions_of_the_step(design, game):
    st = game.new_initial_state()
    picture = clickables(draw(design, st, 0, "fr"))
    assert sorted(a for acts, _ in picture for a in acts) == sorted(game.kind_ids)  # the reserve's kinds
    assert all(label for _, label in picture) and any("tuile coude orange" in label for _, label in picture)
    st.apply_action(game.kind_action("orange", "corner"))
    picture = clickables(draw(design, st, 0, "fr"))
    assert sorted(a for acts, _ in picture for a in acts) == list(range(game.N))  # every cell
    assert ([0], "case A1") in picture
    st.apply_action(game.cell_action("E5"))
    picture = clickables(draw(design, st, 0, "fr"))
    tray = [acts for acts, label in picture if label.startswith("orientation")]
    assert sorted(a for acts in tray for a in acts) == sorted(st.legal_actions()) and len(tray) == 4
    # a combination: the played tile's neighbours (a move onto an empty one, a swap with a tile) and 2 cells away
    st = game.position({"E5": ("blue", "corner", "N+E"), "E4": ("orange", "tee", "N+E+S")},
                       reserves=[[], ["blue straight"]], player=1)
    for a in (game.kind_action("blue", "straight"), game.cell_action("A1"), game.rotate_action(0),
              game.cell_action("E5"), game.rotate_action(0)):
        st.apply_action(a)
    assert st.step == ACT
    places = {label.split(":")[0]: acts for acts, label in clickables(draw(design, st, 1, "en"))}
    assert places["cell E4"] == [game.swap_action("N"), game.move_action("N", 1)]
    assert places["cell F5"] == [game.move_action("E", 1), game.swap_action("E")]
    assert places["cell G5"] == [game.move_action("E", 2)]
    assert places["End the combination"] == [game.stop_action]


def test_nothing_is_hidden_so_every_seat_sees_the_same(design):
    """Ishi-Hama has no hidden information (open reserves, no chance): the engine has no information_key and
    the picture, the text and the log are the same for each seat and for every seat at once."""
    session = Session(design, 2, ["human", "greedy"], 3, "en")
    for _ in range(40):
        if not session.agent_step():
            session.play(session.state.legal_actions()[0])
    st = session.state
    assert not callable(getattr(st, "information_key", None)) and not session.view()["hidden"]
    assert len({draw(design, st, v, "en") for v in (0, 1, None)}) == 1
    assert len({PLAY.text(st, v, "en") for v in (0, 1, None)}) == 1
    text = PLAY.text(st, 0, "en")
    for seat in range(2):
        assert f"({sum(st.reserve[seat])} tile(s))" in text
    for e in session.log:
        told = {PLAY.action_text(e.before, e.action, v) for v in (0, 1, None)}
        assert told == {e.before.action_to_string(e.action, e.player)}


def test_an_illegal_click_gets_the_engines_reason_and_changes_nothing(design, game):
    session = Session(design, 2, ["human", "greedy"], 5, "fr")
    session.play(game.kind_action("orange", "corner"))
    session.play(game.cell_action("E5"))
    session.play(game.rotate_action(0))
    while session.agent_step():
        pass
    assert session.state.phase == PHASE1 and session.state.step == P_KIND
    before, moves = session.state.key(), len(session.undo_stack)
    picture = clickables(session.view()["svg"])
    blue = [acts for acts, label in picture if "bleu" in label]  # the blue kinds: none in the orange reserve
    assert blue and all(len(acts) == 1 for acts in blue)
    why = session.play(blue[0][0])
    assert "reserve" in why and session.state.key() == before and len(session.undo_stack) == moves
    assert session.play(game.kind_action("orange", "straight")) == ""
    touching = next(c for c in range(game.N) if session.state.kind[c] < 0 and c not in session.state.legal_actions())
    picture = clickables(session.view()["svg"])
    assert ([touching], f"case {game.grid.name(touching)}") in picture
    before = session.state.key()
    why = session.play(touching)
    assert "phase 1" in why and session.state.key() == before


def test_the_position_round_trips_and_draws_as_a_diagram(design, game):
    session = Session(design, 2, ["greedy", "greedy"], 2, "fr")
    checked = phase1 = 0
    while True:
        st = session.state
        if st.step in (P_KIND, TAKE) and st.turns % 3 == 0:
            data = json.loads(json.dumps(position(st)))
            again = game.position(**data)
            # the board, the reserves, the points and the turn as they are; the key also holds what a turn under
            # way leaves (moved, swaps...) and which kind each score tile is: position() knows neither
            assert (again.kind, again.mask, again.reserve, again.points()) == (st.kind, st.mask, st.reserve,
                                                                                st.points())
            assert (again.player, again.phase, again.step, again.turns) == (st.player, st.phase, st.step, st.turns)
            if st.phase == PHASE1:
                assert again.key() == st.key()
                phase1 += 1
            checked += 1
        if not session.agent_step():
            break
    assert checked > 5 and phase1 > 2
    exported = session.position()
    assert exported["game"] == "ishi_hama" and exported["diagram"].startswith('{{ diagram("ishi_hama.position", ')
    assert get_game("ishi_hama").play is PLAY and "position" in get_game("ishi_hama").diagrams
    svg = get_diagram("ishi_hama.position")(design, "fr", **exported["position"])
    root = ET.fromstring(svg.split("\n", 1)[1])
    assert root.tag.endswith("svg") and "data-actions" not in svg
    ends = json.loads(json.dumps(position(session.state)))
    assert sum(ends["points"]) == game.rules.points_in_game and "Bleu" in svg and "Orange" in svg
    assert len(ends["board"]) == session.state.tiles_on_board()
