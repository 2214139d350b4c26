"""3 Stars on the `pnp play` page (pnp.games.three_stars.play): a game played through the session by clicking the
SVG only, every legal move reachable by clicks, nothing of another hand shown, illegal clicks refused by the
engine, the position exported and drawn again."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from lxml import etree
from pages import clickables

from pnp.games.three_stars.play import click_sets, position, position_kwargs
from pnp.loader import load_design
from pnp.play.session import Session, replay_state
from pnp.registry import get_diagram

DESIGN_DIR = Path(__file__).resolve().parent.parent / "designs" / "three-stars"
LIST_ONLY: dict[str, str] = {}
"""Actions reachable only through the list, by kind, with the reason: none. A place or a steal is its card then its
star (or the cells it covers); an exchange is its card alone (when exchanges are legal nothing else is) or its card
then the exchange button."""


@pytest.fixture(scope="module")
def design():
    return load_design(DESIGN_DIR)


def click(selection: list[int] | None, actions: list[int]) -> list[int]:
    """The page's selection after a click: the intersection, or a new selection when they do not meet."""
    if selection is None or not set(selection) & set(actions):
        return list(actions)
    keep = set(actions)
    return [a for a in selection if a in keep]


def outcome(selection: list[int], view: dict) -> tuple[str, list[int]]:
    """What the page does with a selection: ("play", [a]) for one legal action, ("list", legal ones) for several,
    ("refuse", [first]) for none."""
    legal = {a["id"] for a in view["actions"]}
    hits = [a for a in selection if a in legal]
    if len(hits) == 1:
        return "play", hits
    if hits:
        return "list", hits
    return "refuse", selection[:1]


def by_label(view: dict, word: str) -> list[tuple[list[int], str]]:
    return [(acts, label) for acts, label in clickables(view["svg"]) if label.startswith(word)]


def clicks_for(view: dict, target: int) -> list[int]:
    """The selection after clicking the hand card holding `target`, then its star (if any): a person's move."""
    card = [acts for acts, _ in by_label(view, "carte") if target in acts]
    star = [acts for acts, _ in by_label(view, "étoile") if target in acts]
    assert card, f"no card of the hand means action {target}"
    selection = click(None, card[0])
    if star:
        assert len(star) == 1
        selection = click(selection, star[0])
    return selection


def human_move(session: Session, rng: random.Random) -> int:
    """One move of the person at seat 0, chosen among the page's list and made by clicks on the SVG."""
    view = session.view()
    assert view["yours"] and view["actions"]
    target = rng.choice(view["actions"])["id"]
    # every element meaning the target: their intersection narrows to it, or to legal actions the list shows
    meaning = [acts for acts, _ in clickables(view["svg"]) if target in acts]
    assert meaning
    together = meaning[0]
    for acts in meaning[1:]:
        together = click(together, acts)
    what, hits = outcome(together, view)
    assert target in hits and what in ("play", "list")
    texts = {a["id"]: a["text"] for a in view["actions"]}
    assert all(h in texts for h in hits)
    # the two clicks a person makes: card, then star
    what, hits = outcome(clicks_for(view, target), view)
    assert (what, hits) == ("play", [target]), (texts[target], what, [texts.get(h) for h in hits])
    assert session.play(target) == ""
    return target


@pytest.fixture(scope="module")
def played(design):
    """A whole game, seat 0 clicking (random moves), seat 1 the greedy agent; with positions seen on the way."""
    session = Session(design, 2, ["human", "greedy"], 11, "fr")
    rng = random.Random(4)
    states = [session.state.clone()]
    moves = 0
    while not session.state.is_terminal():
        if session.agent_to_act():
            assert session.agent_step()
        else:
            human_move(session, rng)
            moves += 1
            if moves % 5 == 0:
                states.append(session.state.clone())
        assert moves < 400
    states.append(session.state.clone())
    return session, states


def test_a_whole_game_by_clicks_replays(design, played):
    session, _ = played
    view = session.view()
    assert view["over"] and view["returns"] is not None and sum(view["returns"]) <= 1
    replay = json.loads(json.dumps(session.replay()))
    again = replay_state(design, replay)
    assert again.returns() == session.state.returns()
    assert again.key() == session.state.key()


def test_every_legal_action_is_reachable_by_clicks(design, played):
    session, states = played
    game = session.game
    st = game.position(owners=dict.fromkeys(game.cells[:game.rules.pieces_per_player], 0),
                       hands={0: [(0,), (1, 2), (0, 3, 4)], 1: [(5,), (2, 3), (1, 2, 3)]})  # blue has no piece left
    assert all(game.decode(a)[0] == "exchange" for a in st.legal_actions())
    cells = game.geometry.star_cells(game.positions[3])
    steal = game.position(owners={cells[0]: 1, cells[1]: 1, cells[3]: 1},
                          hands={0: [(0, 1), (0, 3), (1, 3, 4)], 1: [(5,), (2, 3), (1, 2, 3)]})  # red's to steal
    assert any(game.decode(a)[0] == "steal" for a in steal.legal_actions())
    checked = set()
    for state in [s for s in states if not s.is_terminal() and s.current_player() == 0] + [st, steal]:
        probe = Session(design, 2, ["human", "greedy"], 1, "fr")
        probe.state = state.clone()
        view = probe.view()
        sets = [acts for acts, _ in clickables(view["svg"])]
        for action in state.legal_actions():
            kind = game.decode(action)[0]
            checked.add(kind)
            if kind in LIST_ONLY:
                continue
            assert any(action in acts for acts in sets), view["actions"]
            what, hits = outcome(clicks_for(view, action), view)
            assert (what, hits) == ("play", [action]), (kind, what, hits)
            if kind == "exchange":  # also: card, then the exchange button
                button = by_label(view, "échanger")[0][0]
                selection = click(clicks_for(view, action), button)
                assert outcome(selection, view) == ("play", [action])
    assert checked == {"place", "steal", "exchange"}


def test_other_hands_stay_hidden(design):
    session = Session(design, 2, ["human", "greedy"], 5, "fr")
    game, st = session.game, session.state
    mine, theirs = set(st.hands[0]), set(st.hands[1]) - set(st.hands[0])
    assert theirs
    view = session.view()
    assert view["viewer"] == 0
    own_actions = {a for c in mine for a in list(game.place_ids[c]) + list(game.steal_ids[c]) + [game.exchange_ids[c]]}
    for acts, _ in clickables(view["svg"]):
        assert set(acts) <= own_actions
    for c in theirs:
        label = f"carte {game.card_numbers[c]} ["
        assert label not in view["svg"] and label not in view["text"]
        assert game.exchange_ids[c] not in {a for acts, _ in clickables(view["svg"]) for a in acts}
    for c in mine:
        assert f"carte {game.card_numbers[c]} [" in view["svg"] and f"carte {game.card_numbers[c]} [" in view["text"]
    # the deal in the log: blue's own draws told, red's masked
    draws = [(e, t["text"]) for e, t in zip(session.log, view["log"]) if e.player < 0]
    assert len(draws) == 2 * game.rules.hand_size
    for entry, told in draws:
        seat = entry.before.queue[0]
        c = game.decode(entry.action)[1]
        if seat == 0:
            assert game.card_text(c) in told
        else:
            assert told == "red draws a card"
    # what every seat sees: no hand, nothing to click
    svg, told = session.picture(None)
    assert svg and told and "carte " not in svg + told and not any(acts for acts, _ in clickables(svg))


def test_an_illegal_click_gets_the_engine_reason(design):
    session = Session(design, 2, ["human", "greedy"], 2, "fr")
    game = session.game
    star = game.positions[0]
    cells = game.geometry.star_cells(star)
    # card [0,1] on star 0: cell 0 is blue's own, cell 1 empty: neither a place nor a steal
    session.state = game.position(owners={cells[0]: 0}, hands={0: [(0, 1), (2,), (3, 4)], 1: [(5,), (2, 3), (0,)]})
    before, log, version = session.state.key(), len(session.log), session.version
    view = session.view()
    card = game.card_index((0, 1))
    target = game.place_action(card, 0)
    selection = clicks_for(view, target)
    what, first = outcome(selection, view)
    assert what == "refuse" and set(selection) == {target, game.steal_action(card, 0)}
    reason = session.play(first[0])
    assert reason and "expected" in reason
    assert (session.state.key(), len(session.log), session.version) == (before, log, version)
    # an exchange while moves are legal: card, then the button
    selection = click(clicks_for(view, game.exchange_action(card)), by_label(view, "échanger")[0][0])
    what, first = outcome(selection, view)
    assert (what, first) == ("refuse", [game.exchange_action(card)])
    assert "exchanging is allowed only" in session.play(first[0])
    assert session.state.key() == before


def test_position_round_trip_and_diagram(design, played):
    session, states = played
    game = session.game
    diagram = get_diagram("three_stars.position")
    assert diagram is not None
    for st in states:
        data = json.loads(json.dumps(position(st)))
        again = game.position(**position_kwargs(data))
        # the key but the turn count and the end (winner, over): history, not position
        assert again.key()[:9] == st.key()[:9]
        svg = diagram(design, "fr", **data)
        root = etree.fromstring(svg.encode("utf-8"))
        assert root.tag.endswith("svg") and len(svg) < 300_000
        assert not any(acts for acts, _ in clickables(svg))  # viewer None: no hand, nothing to click
    exported = session.position()
    assert exported["diagram"].startswith('{{ diagram("three_stars.position", owners=')
    assert exported["position"] == position(session.state)


def test_click_sets_only_name_the_viewers_cards(design):
    session = Session(design, 2, ["human", "greedy"], 9, "fr")
    st = session.state
    sets = click_sets(st, 0)
    assert set(sets["cards"]) == set(st.hands[0])
    assert click_sets(st, None)["exchange"] == [] and not any(click_sets(st, None)["stars"])
