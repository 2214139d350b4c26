"""pnp studio without a browser: what the state says of a built design (faces, rows, templates, warnings, errors
and the faces they hit), and what the server answers: only on the loopback, only for its own Host, GET alone, files
confined to the output, the studio's assets and (as text) the design folder."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.build import build_designs
from pnp.cache import Cache
from pnp.cli import main
from pnp.errors import Problem, drain_warnings
from pnp.studio import server as studio_server
from pnp.studio.state import Versions, design_state, problem_faces

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def deck(tmp_path) -> Path:
    folder = tmp_path / "deck-csv"
    shutil.copytree(FIXTURES / "deck-csv", folder)
    return folder


def built(folder: Path, out: Path) -> dict:
    build_designs([str(folder)], out=out, cache=Cache(None), show_progress=False, rulebooks=False)
    drain_warnings()
    return design_state(out / folder.name, folder, Versions(), None)


def faces_of(state: dict) -> dict[str, dict]:
    return {f["path"]: f for c in state["components"] for f in c["faces"]}


def test_state_names_each_face_its_row_template_count_and_back(deck, tmp_path):
    state = built(deck, tmp_path / "out")
    faces = faces_of(state)
    first = faces["svg/cards-1.svg"]
    assert (first["name"], first["count"], first["back"]) == ("Fire & Ice", 2, "svg/cards-back.svg")
    assert first["row"] == {"file": "cards.csv", "where": "deck-csv/cards.csv:2", "line": 2}
    assert first["template"]["file"] == "templates/front.svg.j2"
    assert [faces[f"svg/cards-{i}.svg"]["row"]["line"] for i in (1, 2, 3, 4)] == [2, 3, 4, 5]
    back = faces["svg/cards-back.svg"]
    assert (back["side"], back["count"]) == ("back", 6)  # behind 2 + 1 + 0 + 3 fronts
    tokens = [f for c in state["components"] if c["id"] == "tokens" for f in c["faces"]]
    assert [t["row"]["where"] for t in tokens] == ["deck-csv/design.yaml:20", "deck-csv/design.yaml:21"]
    assert state["sheets"] == [{"name": "deck-csv-a4.pdf", "pages": 3, "v": state["sheets"][0]["v"]}]
    # a face's version is its SVG's: the same file, the same version; a changed row, only that face's changes
    before = {p: f["v"] for p, f in faces.items()}
    rows = (deck / "cards.csv").read_text().replace("Water,5", "Rain,5")
    (deck / "cards.csv").write_text(rows)
    after = {p: f["v"] for p, f in faces_of(built(deck, tmp_path / "out")).items()}
    assert [p for p in before if before[p] != after[p]] == ["svg/cards-2.svg"]


def test_a_face_carries_its_warnings(tmp_path):
    folder = tmp_path / "art-deck"
    shutil.copytree(FIXTURES / "art-deck", folder)
    state = built(folder, tmp_path / "out")
    warned = {p: f["warnings"] for p, f in faces_of(state).items() if f["warnings"]}
    assert warned, "the art deck has a raster under 300 dpi"
    for warnings in warned.values():
        assert all(w["where"].startswith("art-deck/") and "dpi" in w["message"] for w in warnings)


def test_an_error_names_the_faces_it_hits(deck, tmp_path):
    state = built(deck, tmp_path / "out")
    folders = {"deck-csv": deck}
    template, row = problem_faces([Problem(str(deck / "templates" / "front.svg.j2"), 3, "unexpected end"),
                                   Problem(str(deck / "cards.csv"), 3, "power: not a number")], [state], folders)
    assert template["faces"] == [f"deck-csv/svg/cards-{i}.svg" for i in (1, 2, 3, 4)]
    assert (template["file"], template["line"], template["design"]) == ("templates/front.svg.j2", 3, "deck-csv")
    assert row["faces"] == ["deck-csv/svg/cards-2.svg"]
    outside = problem_faces([Problem("elsewhere.yaml", 1, "x")], [state], folders)[0]
    assert (outside["faces"], outside["design"]) == ([], None)


# --- the server ------------------------------------------------------------------------------------------------

@pytest.fixture
def running(deck, tmp_path):
    studio = studio_server.Studio([deck], tmp_path / "out", echo=lambda s: None)
    with studio_server.Server(studio) as server:
        deadline = time.monotonic() + 30
        while studio.state["status"] != "ok" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert studio.state["status"] == "ok"
        yield server


def get(server, path: str, host: str | None = None, method: str = "GET") -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.putrequest(method, path, skip_host=True)
    conn.putheader("Host", host or f"127.0.0.1:{server.port}")
    conn.endheaders()
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, dict(response.getheaders()), body


def test_the_server_listens_on_the_loopback_only(running):
    assert running.sock.getsockname()[0] == "127.0.0.1"
    assert running.url == f"http://127.0.0.1:{running.port}/"


def test_the_page_and_its_state(running):
    status, headers, body = get(running, "/")
    assert status == 200 and b"/assets/studio.js" in body
    assert "script-src 'self'" in headers["content-security-policy"]
    status, _, body = get(running, "/api/state")
    state = json.loads(body)
    assert status == 200 and state["status"] == "ok" and state["designs"][0]["slug"] == "deck-csv"
    status, _, body = get(running, "/api/face/deck-csv/svg/cards-1.svg")
    face = json.loads(body)
    assert status == 200 and "Fire &amp; Ice" in face["svg"] and "<script" not in face["svg"]
    status, headers, body = get(running, "/sheet/deck-csv/deck-csv-a4.pdf/1.png")
    assert status == 200 and headers["content-type"] == "image/png" and body.startswith(b"\x89PNG")
    assert get(running, "/sheet/deck-csv/deck-csv-a4.pdf/9.png")[0] == 404
    status, _, body = get(running, "/src/deck-csv/cards.csv")
    assert status == 200 and b"<li id='L3'><code>Water,5,#0072b2,1</code></li>" in body


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "192.168.1.2"])
def test_another_host_header_is_refused(running, host):
    """DNS rebinding: a page of another site whose name now points at 127.0.0.1 sends its own Host."""
    assert get(running, "/api/state", host=host)[0] == 400
    assert get(running, "/api/state", host="localhost")[0] == 200


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
def test_nothing_writes(running, method):
    for path in ("/", "/api/state", "/out/deck-csv/manifest.json", "/src/deck-csv/cards.csv"):
        assert get(running, path, method=method)[0] == 405


@pytest.mark.parametrize("path", [
    "/out/deck-csv/../../../etc/passwd", "/out/deck-csv/%2e%2e/%2e%2e/etc/passwd", "/out/deck-csv/.cache",
    "/out/other/manifest.json", "/out/deck-csv/", "/src/deck-csv/../out/deck-csv/manifest.json",
    "/src/deck-csv/%2e%2e/%2e%2e/etc/passwd", "/src/deck-csv/outside.txt", "/api/face/deck-csv/manifest.json",
    "/assets/../server.py", "/assets/%2e%2e/server.py", "/sheet/deck-csv/manifest.json/1.png",
])
def test_paths_stay_inside(running, deck, tmp_path, path):
    (tmp_path / "secret.txt").write_text("secret")
    os.symlink(tmp_path / "secret.txt", deck / "outside.txt")  # a link in the design folder that leads out of it
    status, _, body = get(running, path)
    assert status == 404 and b"secret" not in body and b"root:" not in body


def test_the_output_is_served(running):
    status, _headers, body = get(running, "/out/deck-csv/manifest.json")
    assert status == 200 and json.loads(body)["design"] == "deck-csv"
    assert get(running, "/out/deck-csv/deck-csv-a4.pdf")[2].startswith(b"%PDF")


def test_without_the_extra_the_message_names_it(monkeypatch, deck):
    monkeypatch.setattr(studio_server, "Starlette", None)
    result = CliRunner().invoke(main, ["studio", str(deck)])
    assert result.exit_code == 2
    assert "pip install -e '.[studio]'" in result.output and "Traceback" not in result.output


def test_a_port_in_use_is_a_message(running, deck):
    result = CliRunner().invoke(main, ["studio", str(deck), "--port", str(running.port)])
    assert result.exit_code == 2
    assert f"--port {running.port}: cannot listen on 127.0.0.1:{running.port}" in result.output


def test_a_save_during_the_first_build_is_not_lost(deck, tmp_path):
    """The file-system watch begins after the first build: a save made while that build ran is found once the
    watch runs, and rebuilt (pnp watch and pnp studio alike)."""
    import threading

    from pnp.watch import Watcher, follow

    watcher = Watcher([deck], tmp_path / "out", echo=lambda s: None)
    stop, calls = threading.Event(), []

    def rebuild(designs):
        calls.append(list(designs))
        if len(calls) == 1:  # the designer saves while the first build runs
            (deck / "cards.csv").write_text((deck / "cards.csv").read_text().replace("Water", "Rain"))
        else:
            stop.set()

    worker = threading.Thread(target=follow, args=(watcher, rebuild, stop))
    worker.start()
    worker.join(20)
    stop.set()
    assert calls == [[deck], [deck]]
