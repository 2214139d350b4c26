"""TUBO on the pnp play page: whole games played through a Session by clicking only what the SVG offers, every
legal action reachable by clicks, the same picture for every seat (nothing is hidden in TUBO), an illegal click
refused by the engine, and the position exported as data and drawn again by the `tubo.position` diagram."""

from __future__ import annotations

import json
import random
import time

import pages
import pytest
from lxml import etree

from pnp.errors import PnpError
from pnp.games.tubo.engine import CLOSE, CONNECTORS, DRAFT, OPEN, OVER, PLACE, PLACE_OBJECTIVE, TuboGame
from pnp.games.tubo.play import PLAY, draw, laid_pieces, position, position_state, text
from pnp.loader import load_design
from pnp.play.session import Session, replay_state
from pnp.registry import get_diagram, get_game
from tests.conftest import DESIGNS

# Actions no element of the picture carries, with the reason. None in TUBO: the place actions are the stock's
# pieces (and the target cell), "no piece to lay" is a button drawn when it is the one legal action.
LIST_ONLY: dict[str, str] = {}


@pytest.fixture(scope="module")
def design():
    return load_design(DESIGNS / "tubo")


@pytest.fixture(scope="module")
def game(design) -> TuboGame:
    return TuboGame(design, 2)


def clickables(svg: str) -> list[tuple[frozenset[int], str]]:
    """pages.clickables, each set of actions a frozenset (the tests compare and intersect them)."""
    return [(frozenset(actions), label) for actions, label in pages.clickables(svg)]


def clicks_for(svg: str, action: int, legal: set[int]) -> set[int]:
    """What the page does for a person who wants `action`: click the elements that mean it, the most precise
    first, intersecting their sets, until one legal action is left; the legal actions the selection holds."""
    elements = sorted((s for s, _ in clickables(svg) if action in s), key=len)
    assert elements, f"no element of the picture means action {action}"
    selection: frozenset[int] | None = None
    for s in elements:
        selection = s if selection is None or not selection & s else selection & s
        if len(selection & legal) == 1:
            break
    assert selection is not None and action in selection
    return set(selection & legal)


def human_move(session: Session, rng: random.Random) -> int:
    """A legal action chosen, then reached by clicks on session.view()'s SVG alone; played."""
    view = session.view()
    assert view["yours"] and view["svg"]
    legal = {a["id"] for a in view["actions"]}
    connectors = [a for a in legal if session.state.action_kind(a) == "connector"]
    wanted = rng.choice(sorted(connectors) if connectors and rng.random() < 0.85 else sorted(legal))
    picked = clicks_for(view["svg"], wanted, legal)
    if len(picked) > 1:  # the page highlights them in the list of actions, the person picks one there
        texts = {a["id"]: a["text"] for a in view["actions"]}
        assert all(texts.get(a) for a in picked)
    assert session.play(wanted) == ""
    return wanted


@pytest.mark.parametrize("seats, seed", [(["human", "greedy"], 11), (["greedy", "human"], 5)])
def test_a_whole_game_clicked_on_the_picture_replays_to_the_same_state(design, seats, seed):
    session = Session(design, 2, seats, seed, "fr")
    rng = random.Random(seed)
    kinds: set[str] = set()
    for _ in range(400):
        if session.state.is_terminal():
            break
        if session.agent_to_act():
            assert session.agent_step()
        else:
            kinds.add(session.state.action_kind(human_move(session, rng)))
    assert session.state.is_terminal()
    assert {"draft", "connector"} <= kinds and ("objective" in kinds) == (seats[1] == "human")
    view = session.view()
    assert view["over"] and view["returns"] == session.state.returns() and view["actions"] == []
    assert "Partie terminée" in view["text"] and "Partie terminée" in view["svg"]
    replay = json.loads(json.dumps(session.replay()))
    again = replay_state(design, replay)
    assert again.key() == session.state.key() and again.returns() == session.state.returns()


def random_states(game: TuboGame, seeds) -> list:
    """Every state of random games (the Close piece chosen seldom, so that rounds run long)."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        st = game.new_initial_state()
        while not st.is_terminal():
            out.append(st.clone())
            legal = st.legal_actions()
            keep = [a for a in legal if st.action_kind(a) != "close"] or legal
            st.apply_action(rng.choice(keep if rng.random() < 0.9 else legal))
        out.append(st)
    return out


def test_every_legal_action_is_reachable_by_clicks(design, game):
    assert not LIST_ONLY
    seen = set()
    for st in random_states(game, range(6)):
        svg = draw(design, st, st.current_player() if not st.is_terminal() else None, "en")
        elements = clickables(svg)
        assert all(label for _, label in elements), "every clickable element has a data-label"
        offered = set().union(*(s for s, _ in elements)) if elements else set()
        legal = set(st.legal_actions()) if not st.is_terminal() else set()
        assert legal <= offered, f"phase {st.phase}: not reachable: {sorted(legal - offered)}"
        for a in legal:
            picked = clicks_for(svg, a, legal)
            assert a in picked and (len(picked) == 1 or st.phase == OPEN)  # several: Start's free branches
        from_close = st.phase == OPEN and st.last_loop and any(o >= 0 for o in st.opening)
        seen.add("open-close" if from_close else st.phase)
        if st.is_terminal():
            assert not elements  # the game is over: nothing to click
    assert {DRAFT, PLACE_OBJECTIVE, OPEN, PLACE, OVER, "open-close"} <= seen


def test_a_branch_of_start_is_one_click_on_its_side_or_on_the_cell_beyond(design, game):
    st = next(s for s in random_states(game, [1]) if s.phase == OPEN and s.round == 1)
    svg = draw(design, st, 0, "en")
    legal = set(st.legal_actions())
    for side in range(4):
        action = game.codec.encode("open", game.start, side)
        ports = [s for s, _ in clickables(svg) if s == {action}]
        assert ports and clicks_for(svg, action, legal) == {action}
        beyond = game.step[game.start][side]
        own = {game.codec.encode("open", beyond, k) for k in range(4)}
        cell = next(s for s, _ in clickables(svg) if own <= s)
        assert action in cell and cell & legal == {action}


def test_nothing_is_hidden_every_seat_sees_the_same(design):
    session = Session(design, 2, ["human", "greedy"], 3, "fr")
    rng = random.Random(3)
    while session.state.round < 2 and not session.state.is_terminal():
        if session.agent_to_act():
            session.agent_step()
        else:
            human_move(session, rng)
    st = session.state
    assert not session.view()["hidden"] and not hasattr(st, "information_key")
    pictures = {draw(design, st, v, "fr") for v in (0, 1, None)}
    texts = {text(st, v, "fr") for v in (0, 1, None)}
    assert len(pictures) == 1 and len(texts) == 1
    # both seats' stocks of the round are shown to seat 1, with their counts (open information)
    body = texts.pop()
    for p in range(2):
        assert f"Joueur {p + 1}" in body
    assert body.count("stock ") == 2
    # no chance in TUBO: every log entry is a seat's, told as the engine tells it
    entries = session.log
    assert entries and all(e.player >= 0 for e in entries)
    assert [e["text"] for e in session.view()["log"]] == [e.before.action_to_string(e.action, e.player)
                                                          for e in entries]


def test_an_illegal_click_gets_the_engines_reason_and_changes_nothing(design, game):
    session = Session(design, 2, ["greedy", "human"], 9, "en")
    checked = set()
    while not session.state.is_terminal() and len(checked) < 4:
        if session.agent_to_act():
            session.agent_step()
            continue
        st = session.state
        view = session.view()
        legal = {a["id"] for a in view["actions"]}
        illegal = [(s, label) for s, label in clickables(view["svg"]) if not s & legal]
        if st.phase not in checked and illegal:
            actions, label = illegal[0]
            key, log, version = st.key(), len(session.log), session.version
            reason = session.play(min(actions))
            assert reason, f"{label}: the engine's reason"
            assert session.state.key() == key and len(session.log) == log and session.version == version
            checked.add(st.phase)
        human_move(session, random.Random(len(session.log)))
    assert {DRAFT, PLACE_OBJECTIVE, PLACE} <= checked


def test_a_piece_that_does_not_fit_is_refused(design, game):
    session = Session(design, 2, ["human", "greedy"], 2, "en")
    rng = random.Random(2)
    while session.state.phase != PLACE:
        if session.agent_to_act():
            session.agent_step()
        else:
            human_move(session, rng)
    if session.state.current_player() != 0:
        session.agent_step()
    st = session.state
    assert st.phase == PLACE and st.current_player() == 0
    _, entry = st.target()
    wrong = next(k for k, con in enumerate(CONNECTORS) if entry not in con)
    action = game.place_ids[wrong]
    svg = session.view()["svg"]
    assert any(s == {action} for s, _ in clickables(svg))  # the piece of the hand carries it
    key = st.key()
    assert "does not meet" in session.play(action) and session.state.key() == key


def test_position_round_trip_and_diagram(design, game):
    states = [s for s in random_states(game, range(4)) if s.round >= 1]
    exact = later = 0
    for st in states:
        data = json.loads(json.dumps(position(st)))
        back = position_state(game, **data)
        for name in ("kind", "ports", "laid_in", "opening", "drafted", "loops", "closes", "objective", "round",
                     "branches_used"):
            assert getattr(back, name) == getattr(st, name), name
        assert back.hand(0) == st.hand(0) and back.hand(1) == st.hand(1)
        if st.phase != OVER:
            assert (back.phase, back.player, back.end_cell, back.end_side) == (st.phase, st.player, st.end_cell,
                                                                               st.end_side)
        # the key holds the stocks of the earlier rounds (game.position knows only the round's) and the end
        if st.round == 1 and st.phase != OVER:
            assert back.key() == st.key()
            exact += 1
        else:
            later += 1
        if not data["hands"]:  # no seat keys to read back: the engine takes the data as it is
            assert game.position(**data).key() == back.key()
    assert exact and later
    # a picture of a position made from data: its visible pieces (no history to colour them by)
    st = next(s for s in states if s.round >= 2 and s.phase == PLACE)
    laid, exits = laid_pieces(position_state(game, **position(st)), ["#000000"] * game.S)
    assert len(laid) == sum(k in (1, 2) for k in st.kind) and not exits
    data = json.loads(json.dumps(position(st)))
    svg = get_diagram("tubo.position")(design, "en", **data)
    root = etree.fromstring(svg.encode())
    assert root.tag.endswith("svg") and not clickables(svg)
    words = " ".join(root.itertext())
    assert "to play" in words and "Seat 2" in words and "points" not in words
    with pytest.raises(PnpError, match="before the first path round"):
        position(game.new_initial_state())


def test_session_exports_the_position_diagram_call(design):
    session = Session(design, 2, ["human", "greedy"], 4, "fr")
    rng = random.Random(4)
    while session.state.round < 1:
        if session.agent_to_act():
            session.agent_step()
        else:
            human_move(session, rng)
    out = session.position()
    assert out["diagram"].startswith('{{ diagram("tubo.position", objective=')
    assert get_game("tubo").play is PLAY and "position" in get_game("tubo").diagrams


def test_the_picture_is_small_and_fast(design, game):
    st = max((s for s in random_states(game, [7]) if s.phase == PLACE), key=lambda s: sum(s.laid))
    times = []
    for _ in range(5):
        t = time.perf_counter()
        svg = draw(design, st, 0, "fr")
        times.append(time.perf_counter() - t)
    assert len(svg) < 300_000 and min(times) < 0.1
    # the round's stock of the seat to act: its pieces, those that fit framed; the target cell carries them all
    _, entry = st.target()
    fits = {game.place_ids[k] for k, con in enumerate(CONNECTORS) if entry in con and st.hand(st.player)[k]}
    assert fits <= set(st.legal_actions())
    target = [s for s, label in clickables(svg) if len(s) == CLOSE + 1]
    assert target == [frozenset(game.place_ids[k] for k in range(CLOSE + 1))]
