"""pnp play in a real browser (Debian's Chromium through Playwright, as the studio's tests): a whole game of each
shipped game against `greedy`, the person's moves made with clicks on the page (on the board where the game maps
them, else in the list of the engine's actions); the final position and score are the engine's own, replaying the
same moves. Along the way: a click where the move is illegal shows the engine's reason, undo and the hand-over of
hot-seat work, and the page logs no error.

The person plays what the greedy agent would (a game of sensible length); the test finds, for that action, the
places of the board whose `data-actions` hold it and clicks them in turn, as a person would (a card, then a star),
and picks it in the list when the page asks."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pages
import pytest
from pages import engine_reason

from pnp.engine.agents import GreedyAgent
from pnp.engine.replays import replay_state
from pnp.loader import load_design, resolve_design
from pnp.play.server import Server, Table
from pnp.play.session import Session

ROOT = Path(__file__).resolve().parent.parent


def until(page, js: str, timeout: float = 20.0, arg=None):
    """pages.until, telling the play page's status and message when it times out."""
    return pages.until(page, js, timeout, arg, step=0.01, explain=lambda: (
        f"status {page.locator('#status').text_content()!r}, message {page.locator('#message').text_content()!r}"))


STATE = """() => { const s = document.getElementById('status').textContent;
  return (s === 'your move' || s === 'game over' || s.startsWith('hand over')) ? s : null; }"""
PLACES = """action => [...document.querySelectorAll('#board [data-actions]')].map(el => {
    const set = el.getAttribute('data-actions').split(/\\s+/).map(Number);
    const r = el.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    const top = document.elementFromPoint(x, y);
    const hit = top && top.closest('[data-actions]') === el;  // what a click at its centre reaches
    return [x, y, set, hit];
  }).filter(([x, y, set, hit]) => hit && set.includes(action)).map(([x, y, set]) => [x, y, set])"""
PLACES_ALL = """() => [...document.querySelectorAll('#board [data-actions]')].map(el => {
    const r = el.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    const top = document.elementFromPoint(x, y);
    return [x, y, el.getAttribute('data-actions').split(/\\s+/).map(Number), top && top.closest('[data-actions]') === el];
  }).filter(p => p[3]).map(p => p.slice(0, 3))"""
LOG_LENGTH = "() => document.getElementById('log').children.length"


@pytest.fixture
def table_page(browser, tmp_path):
    opened = []

    def open_game(name: str, seats: list[str], seed: int):
        design = load_design(resolve_design(str(ROOT / "designs" / name)))
        table = Table(Session(design, len(seats), seats, seed, "fr"), tmp_path / "out" / design.slug, echo=lambda t: None)
        server = Server(table).start()
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "409" not in m.text else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url)
        opened.append((server, page))
        return table, page, errors

    yield open_game
    for server, page in opened:
        page.close()
        server.close()


def settle(page, session: Session, timeout: float = 30) -> str:
    """Wait until the agents have moved and the page shows the session's newest view; the page's status."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with session.lock:
            version = session.version
            busy = session.thinking or session.agent_to_act()
        if not busy and page.evaluate("() => Number(document.body.dataset.version || -1)") == version:
            return until(page, STATE, 5)
        time.sleep(0.01)
    raise AssertionError(f"the page did not settle: status {page.locator('#status').text_content()!r}")


def click_move(page, session: Session, state, action: int) -> str:
    """Make `action` with clicks, as a person would: a place of the board that means it alone (among the legal
    moves), else two places whose actions meet in it (a card, then a star), else one place and then the move in
    the list the page narrows; the list alone when the board has no place for it. Which way it went."""
    legal = set(state.legal_actions())
    places = [(x, y, set(s)) for x, y, s in page.evaluate(PLACES, action)]
    alone = [p for p in places if p[2] & legal == {action}]
    if alone:
        page.mouse.click(alone[0][0], alone[0][1])
        return "board"
    for x1, y1, s1 in places:
        for x2, y2, s2 in places:
            if s1 & s2 & legal == {action} and len(s1 & legal) > 1:
                page.mouse.click(x1, y1)
                until(page, "() => document.querySelectorAll('#board .picked').length > 0", 5)
                page.mouse.click(x2, y2)
                return "board"
    if places:
        page.mouse.click(places[0][0], places[0][1])
        until(page, "a => document.querySelector(`#actions li.candidate[data-id=\"${a}\"]`)", 5, action)
        page.locator(f'#actions li[data-id="{action}"] button').click()
        return "board+list"
    page.locator(f'#actions li[data-id="{action}"] button').click()
    return "list"


@pytest.mark.parametrize("name,seed", [("three-stars", 3), ("tubo", 2), ("ishi-hama", 4), ("triloopite", 1)])
def test_a_whole_game_against_greedy_with_clicks(table_page, name, seed):
    table, page, errors = table_page(name, ["human", "greedy"], seed)
    session = table.session
    chooser, rng = GreedyAgent(), random.Random(seed)
    how: dict[str, int] = {}
    refused = False
    for _ in range(1000):
        status = settle(page, session)
        if status == "game over":
            break
        with session.lock:
            state = session.state.clone()
        if not refused:  # once: a place where no legal move fits gets the engine's reason
            refused = try_illegal(page, session, state)
        action = chooser.step(state, rng)
        way = click_move(page, session, state, action)
        how[way] = how.get(way, 0) + 1
        deadline = time.monotonic() + 10
        while len(session.state.history()) == len(state.history()) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert session.state.history()[len(state.history())] == action, f"{way} did not play {action}"
    else:
        raise AssertionError("the game did not end")
    replay = json.loads(page.evaluate("() => fetch('/api/replay').then(r => r.text())"))
    again = replay_state(session.design, replay)
    assert again.is_terminal() and again.key() == session.state.key()
    shown = page.locator("#result").text_content()
    assert shown == "Game over: " + ", ".join(f"{session.player_name(p)} {r:g}" if float(r).is_integer() is False
                                              else f"{session.player_name(p)} {int(r) if r == int(r) else r}"
                                              for p, r in enumerate(again.returns()))
    page.locator("#export").click()  # the end: the position as a rulebook diagram's call and data
    exported = until(page, "() => document.getElementById('exported').value")
    assert exported.startswith(f'{{{{ diagram("{session.design.game}.position", '), exported
    assert how and "list" not in how, how  # every move made on the board (a few finished in the narrowed list)
    assert refused, "no click was refused with the engine's reason"
    print(f"{name}: moves by {how}")
    assert not errors, errors


def try_illegal(page, session: Session, state) -> bool:
    """Click a place of the board whose actions are all illegal now; True when the page shows the engine's
    refusal (and nothing was played)."""
    legal = set(state.legal_actions())
    sets = page.evaluate(PLACES_ALL)
    for x, y, actions in sets:
        if actions and not legal.intersection(actions):
            version = session.version
            page.mouse.click(x, y)
            message = until(page, "() => document.getElementById('message').textContent", 5)
            assert session.version == version and session.state.history() == state.history()
            reason = engine_reason(state, actions[0])
            assert message == reason, (message, reason)
            return True
    return False


def test_undo_hot_seat_and_a_new_game_on_the_page(table_page):
    table, page, errors = table_page("three-stars", ["human", "human"], 5)
    session = table.session
    until(page, "() => document.getElementById('status').textContent.startsWith('hand over')")
    assert page.locator("#actions li").count() == 0 and page.locator("#handover").is_visible()
    page.locator("#ready").click()
    until(page, "() => document.getElementById('status').textContent === 'your move'")
    first = page.locator("#actions li button").first
    first.click()
    until(page, "() => document.getElementById('status').textContent.startsWith('hand over')")
    assert page.locator("#handover-text").text_content() == f"Pass the page to {session.player_name(1)}."
    page.locator("#ready").click()
    until(page, "() => document.getElementById('status').textContent === 'your move'")
    moves = page.evaluate(LOG_LENGTH)
    page.locator("#undo").click()
    until(page, "n => document.getElementById('log').children.length < n", arg=moves)
    assert session.view()["to_act"] == 0
    page.locator("#new-game summary").click()
    page.locator("#new-seed").fill("77")
    page.locator("#new button[type=submit]").click()
    until(page, "() => document.getElementById('seed').textContent === '77'")
    assert session.seed == 77 and not session.undo_stack
    assert page.locator("#export").is_disabled()  # mid-game, the position's data would show every hand
    assert not errors, errors


def test_the_game_pnp_new_makes_plays_on_the_page_through_its_list(browser, scaffolded_game, tmp_path):
    """A game with an engine and no PlayView (`pnp new NAME --engine`): its text view and the engine's actions,
    clicked in the list, to the end; the result is the engine's."""
    design = load_design(scaffolded_game)
    table = Table(Session(design, 2, ["human", "greedy"], 3), tmp_path / "out" / design.slug, echo=lambda t: None)
    with Server(table) as server:
        page = browser.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(server.url)
        session = table.session
        for _ in range(200):
            if settle(page, session) == "game over":
                break
            assert page.locator("#board").is_hidden() and page.locator("#text").text_content() == str(session.state)
            before = len(session.state.history())
            page.locator("#actions li button").last.click()
            deadline = time.monotonic() + 10
            while len(session.state.history()) == before and time.monotonic() < deadline:
                time.sleep(0.01)
        assert session.state.is_terminal()
        again = replay_state(design, json.loads(page.evaluate("() => fetch('/api/replay').then(r => r.text())")))
        assert again.returns() == session.state.returns() and not errors
        page.close()
