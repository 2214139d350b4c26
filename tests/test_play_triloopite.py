"""TriLOOPite on the `pnp play` page (pnp.games.triloopite.play): a whole game whose person's moves are made only
by clicking what the SVG offers (the page's narrowing of data-actions sets), every legal move reachable by
clicks, nothing of another hand drawn, told or logged, illegal clicks refused by the engine, and the position
exported and drawn again as a rulebook diagram."""

from __future__ import annotations

import json
import random

import pytest
from lxml import etree
from pages import clickables

from pnp.engine.api import CHANCE
from pnp.errors import PnpError
from pnp.games.triloopite.engine import KEEP, TriloopiteGame
from pnp.games.triloopite.play import PLAY, draw, position, position_kwargs, text
from pnp.loader import load_design, package_root
from pnp.play.session import Session, replay_state
from pnp.registry import DIAGRAMS, WORDLESS, get_game

DESIGN = package_root() / "designs" / "triloopite"
LIST_ONLY: dict[int, str] = {}  # no action is reachable only through the list (keep has its button)


@pytest.fixture(scope="module")
def design():
    return load_design(DESIGN)


def page_clicks(svg: str, action: int, legal: set[int]) -> list[int]:
    """What the page does to play `action`: click the elements whose set holds it, one after the other (each
    click narrowing the selection as play.js does), until the legal part of the selection is that action alone
    (the page plays it) or cannot narrow further. Returns the legal part left (the list's candidates)."""
    holders = [acts for acts, _ in clickables(svg) if action in acts]
    assert holders, f"no element of the picture means action {action}"
    selection: list[int] | None = None
    for acts in sorted(holders, key=len):  # the most specific first: a turned tile, then a cell
        nxt = [a for a in selection if a in set(acts)] if selection is not None else list(acts)
        selection = nxt or list(acts)
        left = [a for a in selection if a in legal]
        if left == [action]:
            return left
    return [a for a in selection or [] if a in legal]


def page_send(selection: list[int], acts: list[int], legal: set[int]) -> tuple[list[int], int | None]:
    """One click as play.js handles it: the new selection and the action it sends (None: it waits for more)."""
    nxt = [a for a in selection if a in set(acts)] or list(acts)
    left = [a for a in nxt if a in legal]
    if len(left) == 1:
        return nxt, left[0]
    if not left:
        return nxt, nxt[0]
    return nxt, None


def test_registered(design):
    spec = get_game("triloopite")
    assert spec is not None and spec.play is PLAY
    assert "triloopite.position" in DIAGRAMS and "triloopite.position" not in WORDLESS


def test_whole_game_by_clicks(design):
    session = Session(design, 2, ["human", "greedy"], 11, "fr")
    rng = random.Random(3)
    human_moves = keeps = 0
    while not session.state.is_terminal():
        if session.agent_step():
            continue
        view = session.view()
        assert view["yours"] and view["viewer"] == 0
        legal = {a["id"] for a in view["actions"]}
        places = sorted(legal - {KEEP})
        action = rng.choice(places) if places and rng.random() < 0.85 else KEEP
        left = page_clicks(view["svg"], action, legal)
        assert left == [action], f"clicks for {action} leave {left}"
        before = len(session.log)
        assert session.play(left[0]) == ""
        assert session.log[before].action == action
        human_moves += 1
        keeps += action == KEEP
    assert human_moves >= 20 and 0 < keeps < human_moves
    view = session.view()
    assert view["over"] and view["returns"] is not None and view["svg"].startswith("<?xml")
    replay = json.loads(json.dumps(session.replay()))
    again = replay_state(design, replay)
    assert again.returns() == session.state.returns()
    assert again.key() == session.state.key()


def play_to(session: Session, human_moves: int, seed: int = 5) -> None:
    """The person places at random (keeps every 4th move) until they have moved `human_moves` times, the agent
    replying; then the agent moves up to the person's next turn."""
    rng = random.Random(seed)
    done = 0
    while done < human_moves and not session.state.is_terminal():
        if session.agent_step():
            continue
        legal = session.state.legal_actions()
        places = [a for a in legal if a != KEEP]
        assert session.play(rng.choice(places) if places and done % 4 else KEEP) == ""
        done += 1
    while session.agent_step():  # on to the person's turn
        pass


@pytest.mark.parametrize("moves", [0, 6, 14])
def test_every_legal_action_has_clicks(design, moves):
    session = Session(design, 2, ["human", "greedy"], 21, "en")
    play_to(session, moves)
    view = session.view()
    legal = {a["id"] for a in view["actions"]}
    assert KEEP in legal and len(legal) > 1
    sets = [set(acts) for acts, _ in clickables(view["svg"])]
    for action in sorted(legal):
        if action in LIST_ONLY:
            continue
        holders = [s for s in sets if action in s]
        assert holders, f"legal action {action} ({session.state.action_to_string(action)}) has no element"
        narrowed = set.intersection(*holders)
        assert narrowed & legal == {action}
    assert len(view["svg"]) < 300_000


def test_hidden_hands(design):
    game = TriloopiteGame(design, 2)
    mine = game.position(hands={0: ["crab", "t1"], 1: ["t3", "t3", "t3"]}, player=0)
    other = game.position(hands={0: ["crab", "t1"], 1: ["t4", "t2", "crab"]}, player=0)
    for viewer in (0, None):
        svg, words = draw(design, mine, viewer, "fr"), text(mine, viewer, "fr")
        assert svg == draw(design, other, viewer, "fr") and words == text(other, viewer, "fr")
        assert "Trilobite 3" not in svg and "t3" not in words
        assert "Siège 2 : 3 tuiles" in words and ">3</text>" in svg  # seat 2's count, face down
    assert "Trilobite 1" in draw(design, mine, 0, "fr") and "t1" in text(mine, 0, "fr")
    assert "Trilobite 1" not in draw(design, mine, None, "fr") and "t1" not in text(mine, None, "fr")


def test_log_masks_the_others_draws(design):
    session = Session(design, 2, ["human", "greedy"], 4, "fr")
    play_to(session, 5)
    log = session.view()["log"]
    game = session.game
    seen = {0: 0, 1: 0}
    for entry, shown in zip(session.log, log):
        if entry.player != CHANCE:
            continue
        tile = game.varieties[game.decode(entry.action)[1]].id
        drawer = entry.before.player
        seen[drawer] += 1
        assert (tile in shown["text"]) == (drawer == 0), shown["text"]
        assert tile not in PLAY.action_text(entry.before, entry.action, None)  # type: ignore[misc]
    assert seen[0] >= 5 and seen[1] >= 5


def test_illegal_clicks_are_refused(design):
    session = Session(design, 2, ["human", "greedy"], 8, "fr")
    play_to(session, 4)
    view = session.view()
    legal = {a["id"] for a in view["actions"]}
    elements = clickables(view["svg"])
    tiles = [acts for acts, label in elements if "tournée" in label]
    cells = {label: acts for acts, label in elements if label.startswith("case")}
    board = session.state.board
    empty = [acts for label, acts in cells.items()
             if board.cell_of(tuple(int(x) for x in label[6:-1].split(","))) not in board.lines]
    misfit = next((tile, cell) for tile in tiles for cell in empty if set(tile) & set(cell) and
                  not set(tile) & set(cell) & legal)  # a turned tile and an empty cell where it does not fit
    for (tile, cell), why in (((tiles[0], cells["case (0,0)"]), "holds a tile"), (misfit, "line")):
        selection, sent = page_send(list(tile), cell, legal)
        assert sent is not None and sent not in legal and selection == [sent]
        key, n = session.state.key(), len(session.log)
        reason = session.play(sent)
        assert why in reason
        assert session.state.key() == key and len(session.log) == n


def test_position_round_trip_and_diagram(design):
    session = Session(design, 2, ["human", "greedy"], 13, "fr")
    play_to(session, 9)
    state = session.state
    data = json.loads(json.dumps(PLAY.position(state)))  # type: ignore[misc]
    assert set(data["hands"]) == {"0", "1"}
    again = session.game.position(**position_kwargs(data))
    # the key but its last part, the turn counter (it counts the keeps; game.position counts the tiles laid)
    assert again.key()[:-1] == state.key()[:-1]
    assert again.board.loops == state.board.loops and again.returns() == state.returns()
    with pytest.raises(PnpError, match="holds every hand"):
        session.position()  # mid-game the export would show the other hand
    session.ended = True  # (as once the game has ended: the hands may be shown)
    exported = session.position()
    assert exported["position"] == PLAY.position(state)  # type: ignore[misc]
    assert exported["diagram"].startswith('{{ diagram("triloopite.position", tiles=')
    svg = DIAGRAMS["triloopite.position"](design, "fr", **data)
    root = etree.fromstring(svg.encode())
    assert root.tag.endswith("svg") and "data-actions" not in svg
    assert svg.count("<polygon") >= len(data["tiles"])
    assert svg == DIAGRAMS["triloopite.position"](design, "fr", **position(again))


def test_finished_game_position(design):
    session = Session(design, 1, ["human"], 2, "en")
    while not session.state.is_terminal():
        legal = session.state.legal_actions()
        assert session.play(legal[-1]) == ""
    data = json.loads(json.dumps(position(session.state)))
    again = session.game.position(**position_kwargs(data))
    assert again.is_terminal() and again.returns() == session.state.returns()
    assert again.key()[:3] == session.state.key()[:3]
    assert "Game over" in draw(design, session.state, 0, "en")
