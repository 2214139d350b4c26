"""pnp play without a browser (issue 35): the session (seats, seeds, chance from the engine, undo, hot-seat
hand-over, what each seat may see), replays read by `pnp play --replay` and `pnp simulate --replay`, and the
server's safety (loopback, Host header, the page's token, no file served but its own assets)."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from pages import engine_reason

from pnp.cli import main
from pnp.engine.replays import load_replay, replay_state
from pnp.errors import PnpError
from pnp.loader import load_design, resolve_design
from pnp.play.server import Server, Table
from pnp.play.session import Session, parse_seats

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ["three-stars", "tubo", "ishi-hama", "triloopite"]


def design(name: str):
    return load_design(resolve_design(str(ROOT / "designs" / name)))


def to_end(session: Session, pick=lambda actions: actions[0]) -> None:
    """Play the game out: the people's moves chosen by `pick` among the legal ones, the agents' by them."""
    for _ in range(5000):
        if session.state.is_terminal():
            return
        if session.agent_step():
            continue
        v = session.view()
        if v["handing_over"] is not None:
            assert session.ready(v["handing_over"]) == ""
            continue
        assert v["yours"] and v["actions"], v
        assert session.play(pick([a["id"] for a in v["actions"]])) == ""
    raise AssertionError("the game did not end")


def test_seats_name_a_person_or_an_agent_each():
    assert parse_seats(None, 3) == ["human", "greedy", "greedy"]
    assert parse_seats("random", 3) == ["human", "random", "random"]
    assert parse_seats("human", 2) == ["human", "human"]
    assert parse_seats("greedy,human", 2) == ["greedy", "human"]
    with pytest.raises(PnpError, match="3 seats for 2 players"):
        parse_seats("human,greedy,greedy", 2)
    with pytest.raises(PnpError, match="unknown agent 'clever'"):
        parse_seats("human,clever", 2)


@pytest.mark.parametrize("name", SHIPPED)
def test_a_whole_game_replays_to_the_same_position_and_result(name):
    d = design(name)
    session = Session(d, d.meta.players.min, parse_seats("greedy", d.meta.players.min), 11, "fr")
    to_end(session, pick=random.Random(5).choice)
    replay = session.replay()
    assert replay["over"] and replay["actions"] == session.state.history()
    again = replay_state(d, json.loads(json.dumps(replay)))
    assert again.key() == session.state.key() and again.returns() == session.state.returns()
    assert session.view()["returns"] == session.state.returns()


def test_the_same_seed_and_moves_give_the_same_game_and_another_seed_another():
    d = design("three-stars")
    games = []
    for seed in (4, 4, 5):
        s = Session(d, 2, ["greedy", "greedy"], seed)
        to_end(s)
        games.append(s.state.history())
    assert games[0] == games[1] != games[2]


def test_undo_goes_back_before_the_persons_move_and_the_game_replays_the_same():
    d = design("three-stars")
    s = Session(d, 2, ["human", "greedy"], 3)
    first = s.view()["actions"][0]["id"]
    assert s.play(first) == ""
    while s.agent_step():
        pass
    after = (s.state.key(), len(s.log))
    assert s.undo() and s.view()["yours"] and s.state.history() == s.log[-1].before.history() + [s.log[-1].action]
    assert s.play(first) == ""
    while s.agent_step():
        pass
    assert (s.state.key(), len(s.log)) == after  # the agent's reply and the draws are the same again
    assert s.undo() and not s.undo() and not s.view()["can_undo"]


def test_an_illegal_action_gets_the_engines_reason_and_changes_nothing():
    d = design("three-stars")
    s = Session(d, 2, ["human", "greedy"], 3)
    legal = set(s.state.legal_actions())
    illegal = next(a for a in range(s.game.info.num_distinct_actions) if a not in legal)
    before = s.state.key()
    why = s.play(illegal)
    assert why and why == engine_reason(s.state, illegal) and s.state.key() == before and not s.undo_stack
    assert "not an action of" in s.play(10**9) and s.state.key() == before


@pytest.mark.parametrize("name", ["three-stars", "triloopite"])
def test_a_view_holds_only_what_its_seat_may_know(name):
    """Hidden information: the view of seat 0 is the same in every world seat 0 cannot tell from this one (the
    other hands and the bag dealt again), and the log shows no chance action's text."""
    d = design(name)
    s = Session(d, 2, ["human", "greedy"], 8, "fr")
    for _ in range(3):  # a few moves in
        s.play(s.view()["actions"][-1]["id"])
        while s.agent_step():
            pass
    view = s.view()
    assert view["hidden"] and view["viewer"] == 0
    others = [s.player_name(q) for q in range(1, 2)]
    chance = [(e, shown["text"]) for e, shown in zip(s.log, view["log"]) if e.player < 0]
    told = [(e.before.action_to_string(e.action), text) for e, text in chance]
    assert told and all(text != full for full, text in told if any(n in full for n in others))  # their draws: hidden
    shown = {k: view[k] for k in ("svg", "text", "actions")}
    real = s.state
    for seed in range(4):
        world = real.resample_from_infostate(0, random.Random(seed))
        assert world.information_key(0) == real.information_key(0)
        s.state = world
        other = s.view()
        assert {k: other[k] for k in ("svg", "text", "actions")} == shown
    s.state = real


def test_hot_seat_hands_the_page_over_before_it_shows_the_next_seat():
    d = design("three-stars")
    s = Session(d, 2, ["human", "human"], 2)
    v = s.view()
    assert v["handing_over"] == 0 and v["actions"] == [] and v["viewer"] is None  # nothing private before
    assert s.play(s.state.legal_actions()[0]).endswith("the hand-over comes first")
    assert s.ready(1) and s.ready(0) == ""
    v = s.view()
    assert v["yours"] and v["viewer"] == 0 and v["actions"]
    assert s.play(v["actions"][0]["id"]) == ""
    v = s.view()
    assert v["handing_over"] == 1 and v["viewer"] is None and v["actions"] == [] and not v["yours"]
    assert s.ready(1) == "" and s.view()["viewer"] == 1


def test_a_game_without_a_drawing_plays_through_its_text_and_actions(scaffolded_game):
    """The game `pnp new --engine` makes (no PlayView): the text view and the engine's actions."""
    d = load_design(scaffolded_game)
    s = Session(d, 2, ["human", "greedy"], 1)
    v = s.view()
    assert v["svg"] is None and v["text"] == str(s.state) and v["actions"]
    to_end(s)
    assert s.view()["over"] and replay_state(d, s.replay()).returns() == s.state.returns()


# --- replays from files -------------------------------------------------------------------------------------------

def test_replay_files_are_checked_with_file_and_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"seed": 1,\n "players": 2,\n "actions": [1, 2,]}')
    with pytest.raises(PnpError, match=r"bad.json:3: not JSON"):
        load_replay(bad)
    bad.write_text('{"seed": 1, "players": 2, "actions": ["a"]}')
    with pytest.raises(PnpError, match=r"bad.json:1: not a replay"):
        load_replay(bad)
    d = design("three-stars")
    with pytest.raises(PnpError, match=r"action 100000 \(move 1\)"):
        replay_state(d, {"seed": 1, "players": 2, "actions": [100000]}, "bad.json")


def test_simulate_and_play_read_a_saved_game(tmp_path):
    d = design("three-stars")
    s = Session(d, 2, ["human", "greedy"], 6)
    to_end(s)
    done = tmp_path / "done.json"
    done.write_text(json.dumps(s.replay()))
    said = CliRunner().invoke(main, ["simulate", str(ROOT / "designs" / "three-stars"), "--replay", str(done)])
    assert said.exit_code == 0, said.output
    names = [s.game.player_name(p) for p in range(2)]
    assert said.output.strip().endswith(", ".join(f"{n} {r:g}" for n, r in zip(names, s.state.returns())))
    # a game stopped halfway: games played on from there
    half = Session(d, 2, ["human", "greedy"], 6)
    for _ in range(4):
        half.play(half.view()["actions"][0]["id"])
        half.agent_step()
    part = tmp_path / "half.json"
    part.write_text(json.dumps(half.replay()))
    said = CliRunner().invoke(main, ["simulate", str(ROOT / "designs" / "three-stars"), "--replay", str(part),
                                     "-n", "6", "--json"])
    assert said.exit_code == 0, said.output
    report = json.loads(said.output)
    assert report["continuations"] == 6 and sum(report["wins"].values()) + report["draws"] >= 6
    # pnp play opens the replay where it stopped
    from pnp.play.run import open_table

    table = open_table(str(ROOT / "designs" / "three-stars"), tmp_path / "out", replay=part, echo=lambda t: None)
    assert table.session.state.key() == half.state.key() and table.session.view()["can_undo"]
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    said = CliRunner().invoke(main, ["play", str(ROOT / "designs" / "three-stars"), "--replay", str(broken)])
    assert said.exit_code == 2 and "broken.json:1: not JSON" in said.output


# --- the server -----------------------------------------------------------------------------------------------------

@pytest.fixture
def served(tmp_path):
    d = design("three-stars")
    table = Table(Session(d, 2, ["human", "greedy"], 9), tmp_path / "out" / d.slug, echo=lambda t: None)
    with Server(table) as server:
        yield server, table


def request(url: str, data: dict | None = None, headers: dict | None = None, raw: bytes | None = None):
    body = raw if raw is not None else (json.dumps(data).encode() if data is not None else None)
    req = urllib.request.Request(url, data=body, headers=headers or {}, method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read(), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read(), dict(e.headers)


def test_the_server_answers_on_the_loopback_for_its_page_alone(served):
    server, table = served
    assert server.url.startswith("http://127.0.0.1:")
    status, body, headers = request(server.url)
    assert status == 200 and b"/assets/play.js" in body and "script-src 'self'" in headers["content-security-policy"]
    assert request(server.url + "api/view", headers={"Host": "evil.example"})[0] == 400  # DNS rebinding
    for path in ("assets/../session.py", "assets/%2e%2e/session.py", "api/../../pyproject.toml", "out/x"):
        assert request(server.url + path)[0] == 404
    view = json.loads(request(server.url + "api/view")[1])
    assert view["yours"] and view["token"] == table.token


def test_moves_need_the_pages_token_and_say_why_a_move_is_refused(served):
    server, table = served
    action = table.session.view()["actions"][0]["id"]
    status, body, _ = request(server.url + "api/play", {"action": action})
    assert status == 403 and table.session.log[-1].player < 0  # nothing played
    token = {"X-Pnp-Token": table.token, "Content-Type": "application/json"}
    assert request(server.url + "api/play", raw=b"x" * 5000, headers=token)[0] == 413
    assert request(server.url + "api/play", {"action": "1"}, token)[0] == 400
    legal = set(table.session.state.legal_actions())
    illegal = next(a for a in range(1000) if a not in legal)
    status, body, _ = request(server.url + "api/play", {"action": illegal}, token)
    assert status == 409 and json.loads(body)["error"] == engine_reason(table.session.state, illegal)
    status, body, _ = request(server.url + "api/play", {"action": action}, token)
    assert status == 200 and json.loads(body)["ok"]
    replay = json.loads(request(server.url + "api/replay")[1])
    assert action in replay["actions"] and replay["seed"] == 9


def test_a_game_left_unfinished_is_saved_in_the_output(tmp_path):
    d = design("three-stars")
    table = Table(Session(d, 2, ["human", "greedy"], 9), tmp_path / "out" / d.slug, echo=lambda t: None)
    with Server(table):
        table.session.play(table.session.view()["actions"][0]["id"])
    saved = sorted((tmp_path / "out" / d.slug / "games").glob("*.json"))
    assert len(saved) == 1 and replay_state(d, load_replay(saved[0])).key() == table.session.state.key()


def test_a_position_exports_as_rulebook_data_once_its_hands_may_be_shown():
    d = design("three-stars")
    s = Session(d, 2, ["human", "greedy"], 12)
    with pytest.raises(PnpError, match="holds every hand"):
        s.position()  # mid-game: the agent's hand is not the table's to see
    to_end(s)
    assert s.undo() and not s.state.is_terminal()  # back to a moment of the game, after its end
    exported = s.position()
    assert exported["diagram"].startswith('{{ diagram("three_stars.position", ')
    import jinja2

    from pnp.registry import DIAGRAMS

    called = {}
    template = jinja2.Environment().from_string(exported["diagram"])  # as a rules text reads it
    template.render(diagram=lambda name, **kw: called.update(name=name, kw=kw) or "")
    assert called == {"name": "three_stars.position", "kw": json.loads(json.dumps(exported["position"]))}
    svg = DIAGRAMS["three_stars.position"](d, "fr", **called["kw"])
    assert "<svg" in svg[:200] and "data-actions" not in svg  # a diagram to print: nothing to click
    open_game = design("ishi-hama")  # nothing hidden: any time
    assert Session(open_game, 2, ["human", "greedy"], 1).position()["game"] == "ishi_hama"


def test_without_the_extra_the_message_names_it(monkeypatch):
    from pnp.play import server as play_server

    monkeypatch.setattr(play_server, "Starlette", None)
    result = CliRunner().invoke(main, ["play", str(ROOT / "designs" / "tubo")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "pnp play needs the 'studio' extra" in result.output and "pip install -e '.[studio]'" in result.output


def test_a_game_is_never_saved_through_a_link_in_the_output(tmp_path):
    d = design("three-stars")
    out = tmp_path / "out" / d.slug
    out.mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (out / "games").symlink_to(elsewhere)  # planted in a shared output folder
    said: list[str] = []
    table = Table(Session(d, 2, ["human", "greedy"], 9), out, echo=said.append)
    table.session.play(table.session.view()["actions"][0]["id"])
    assert table.save() is None and not list(elsewhere.iterdir())
    assert any("the game is not saved" in s and "symbolic link" in s for s in said), said
