"""The play page's server: a Starlette application on the loopback interface (pnp.localserver, as the studio),
and the thread where the agents think.

Safe by default: it listens on 127.0.0.1 unless told otherwise and answers only requests whose Host header names
that address (no DNS rebinding). Its only writes are the game's moves: POST requests that carry the page's token
in a header of their own (a page of another site can neither send that header without being refused, nor read
the token), with a small JSON body; nothing it receives names a file. Replays are written inside the design's
output folder (`games/`), nowhere else. The page runs its own script only (a Content Security Policy).

Routes: / (the page), /assets/<file>, /api/view (what the page may show now, pnp.play.session.Session.view),
/api/events (Server-Sent Events: the view after each change), /api/replay (the game as JSON, to download),
/api/position (the position as rulebook data); POST /api/play {action}, /api/undo, /api/ready {seat},
/api/new {players, seats, seed}.
"""

from __future__ import annotations

import asyncio
import contextvars
import datetime
import json
import secrets
import threading
from collections.abc import Callable
from pathlib import Path

from pnp.errors import PnpError
from pnp.localserver import CSP, HEADERS, LocalServer, hosts_for, inside, need_extra as _need_extra
from pnp.output import write_own
from pnp.play.session import HUMAN, Session, parse_seats

try:
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
    from starlette.routing import Route
except ImportError:  # pragma: no cover (need_extra says what to install)
    Starlette = None  # type: ignore[assignment,misc]

ASSETS = Path(__file__).resolve().parent / "assets"
ASSET_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
               ".css": "text/css; charset=utf-8"}
MAX_BODY = 4096
TOKEN_HEADER = "x-pnp-token"


def need_extra() -> None:
    _need_extra("pnp play", Starlette is not None)


class Table:
    """The session, the agents' thread, and the replays written when a game ends or is left."""

    def __init__(self, session: Session, out: Path | None, echo: Callable[[str], None] = print):
        self.session = session
        self.out = out
        self.echo = echo
        self.token = secrets.token_urlsafe(24)
        self.wake = threading.Condition()
        self.stop = threading.Event()
        self.saved: dict[tuple[int, int], Path] = {}
        self.agents = threading.Thread(target=contextvars.copy_context().run, args=(self._agents,),
                                       name="pnp-play-agents", daemon=True)

    def start(self) -> None:
        self.agents.start()
        self.nudge()

    def nudge(self) -> None:
        with self.wake:
            self.wake.notify_all()

    def _agents(self) -> None:
        """Play the agents' moves whenever one is to act; the page stays live (the agent thinks outside the
        session's lock)."""
        s = self.session
        while not self.stop.is_set():
            with self.wake:
                if not s.agent_to_act():
                    self.wake.wait(0.5)
                    continue
            s.set_thinking(True)
            try:
                s.agent_step()
            except Exception as exc:  # an engine's or an agent's bug: said on the page and the terminal
                s.error = f"the agent failed: {exc}"
                self.echo(f"pnp play: {s.error}")
                self.stop.wait(1.0)
            finally:
                s.set_thinking(False)
            if s.state.is_terminal():
                self.save()

    def save(self) -> Path | None:
        """The game so far as a replay in the output's games/ (once per game and length); its path."""
        if self.out is None or not self.session.log:
            return None
        replay = self.session.replay()
        key = (self.session.seed, len(replay["actions"]))
        if key in self.saved:
            return self.saved[key]
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        name = f"games/{self.session.design.slug}-seed{self.session.seed}-{stamp}-{len(replay['actions'])}.json"
        try:
            path = write_own(self.out, name, (json.dumps(replay, indent=1) + "\n").encode("utf-8"))
        except PnpError as exc:  # (a link planted in the output: never written through)
            self.echo(f"pnp play: the game is not saved: {exc}")
            return None
        self.saved[key] = path
        self.echo(f"pnp play: game saved in {path}")
        return path

    def close(self) -> None:
        self.stop.set()
        self.nudge()
        if self.agents.is_alive():
            self.agents.join(10)
        if not self.session.state.is_terminal():
            self.save()  # an abandoned game is kept too


def make_app(table: Table, hosts: list[str]):
    """The Starlette application of `table`, answering requests for `hosts` (Host header) alone."""
    need_extra()
    session = table.session

    def respond(response: Response) -> Response:
        response.headers.update(HEADERS)
        return response

    def view() -> dict:
        data = session.view()
        data["token"] = table.token  # (readable by this origin only)
        data["error"] = getattr(session, "error", "")
        return data

    async def page(request: Request) -> Response:
        response = FileResponse(ASSETS / "play.html", media_type=ASSET_TYPES[".html"])
        response.headers["Content-Security-Policy"] = CSP
        return respond(response)

    async def asset(request: Request) -> Response:
        path = inside(ASSETS, request.path_params["name"])
        if path is None or path.suffix not in ASSET_TYPES:
            return respond(Response("no such asset", 404))
        return respond(FileResponse(path, media_type=ASSET_TYPES[path.suffix]))

    def get_view(request: Request) -> Response:
        return respond(JSONResponse(view()))

    async def events(request: Request) -> Response:
        async def stream():
            seen = -1
            quiet = 0.0
            while not table.stop.is_set():
                if await request.is_disconnected():
                    break
                if session.version != seen:
                    data = await asyncio.to_thread(view)
                    seen = data["version"]
                    yield f"event: view\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n"
                    quiet = 0.0
                await asyncio.sleep(0.03)
                quiet += 0.03
                if quiet > 10:
                    yield ": still here\n\n"
                    quiet = 0.0

        return respond(StreamingResponse(stream(), media_type="text/event-stream"))

    async def body_of(request: Request) -> dict | Response:
        if request.headers.get(TOKEN_HEADER) != table.token:
            return respond(JSONResponse({"error": "no token: only the page pnp play served may play"}, 403))
        raw = await request.body()
        if len(raw) > MAX_BODY:
            return respond(JSONResponse({"error": "request too large"}, 413))
        try:
            data = json.loads(raw or b"{}")
        except ValueError:
            return respond(JSONResponse({"error": "not JSON"}, 400))
        return data if isinstance(data, dict) else respond(JSONResponse({"error": "expected a JSON object"}, 400))

    def done(why: str) -> Response:
        table.nudge()
        if session.state.is_terminal():
            table.save()
        return respond(JSONResponse({"ok": not why, "error": why, "view": view()}, 200 if not why else 409))

    async def play(request: Request) -> Response:
        data = await body_of(request)
        if isinstance(data, Response):
            return data
        action = data.get("action")
        if not isinstance(action, int) or isinstance(action, bool):
            return respond(JSONResponse({"error": "expected {\"action\": <whole number>}"}, 400))
        return done(await asyncio.to_thread(session.play, action))

    async def undo(request: Request) -> Response:
        data = await body_of(request)
        if isinstance(data, Response):
            return data
        return done("" if await asyncio.to_thread(session.undo) else "nothing to undo")

    async def ready(request: Request) -> Response:
        data = await body_of(request)
        if isinstance(data, Response):
            return data
        seat = data.get("seat")
        return done(session.ready(seat) if isinstance(seat, int) else "expected {\"seat\": <seat>}")

    async def new(request: Request) -> Response:
        data = await body_of(request)
        if isinstance(data, Response):
            return data
        try:
            players = int(data.get("players", session.players))
            seats = parse_seats(data.get("seats") or None, players)
            seed = int(data.get("seed", session.seed))
            if not session.state.is_terminal():
                table.save()
            await asyncio.to_thread(session.new_game, players, seats, seed)
        except (PnpError, TypeError, ValueError) as exc:
            return done(str(exc))
        return done("")

    def replay(request: Request) -> Response:
        response = JSONResponse(session.replay())
        response.headers["Content-Disposition"] = (f'attachment; filename="{session.design.slug}-seed'
                                                   f'{session.seed}.json"')
        return respond(response)

    def position(request: Request) -> Response:
        try:
            return respond(JSONResponse(session.position()))
        except PnpError as exc:
            return respond(JSONResponse({"error": str(exc)}, 409))

    async def no_icon(request: Request) -> Response:
        return respond(Response(status_code=204))

    routes = [
        Route("/", page, methods=["GET"]),
        Route("/favicon.ico", no_icon, methods=["GET"]),
        Route("/assets/{name:path}", asset, methods=["GET"]),
        Route("/api/view", get_view, methods=["GET"]),
        Route("/api/events", events, methods=["GET"]),
        Route("/api/replay", replay, methods=["GET"]),
        Route("/api/position", position, methods=["GET"]),
        Route("/api/play", play, methods=["POST"]),
        Route("/api/undo", undo, methods=["POST"]),
        Route("/api/ready", ready, methods=["POST"]),
        Route("/api/new", new, methods=["POST"]),
    ]
    return Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)])


class Server(LocalServer):
    """The page's server and the agents' thread (start/close, or `with`)."""

    thread_name = "pnp-play-server"

    def __init__(self, table: Table, host: str = "127.0.0.1", port: int = 0):
        need_extra()
        super().__init__(make_app(table, hosts_for(host)), host, port, "pnp play")
        self.table = table

    def begin(self) -> None:
        self.table.start()

    def end(self) -> None:
        self.table.close()


__all__ = ["HUMAN", "Server", "Table", "make_app"]
