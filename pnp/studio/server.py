"""The studio's server: a Starlette application on the loopback interface, and the thread that builds.

Safe by default: it listens on 127.0.0.1 unless told otherwise, answers only requests whose Host header names the
address it listens on (no DNS rebinding), answers GET and HEAD alone (no endpoint writes anything), and serves
only the studio's own assets, the designs' output folders and (read-only, as text) the files inside the design
folders, each path confined like the design's own reads. The page it serves runs its own script only (a Content
Security Policy: no inline script, no other origin); the faces it draws are sanitised by pnp.index.page_face.

Routes: / (the page), /assets/<file>, /api/state (JSON), /api/events (Server-Sent Events: the state after every
build), /api/face/<design>/<svg path> (a face as the page draws it), /out/<design>/<file> (the output: art, fonts,
PDFs), /sheet/<design>/<pdf>/<page>.png (a print sheet's page, by pdfium), /src/<design>/<file> (a design file,
lines numbered: the links from each face to its template and data row).
"""

from __future__ import annotations

import asyncio
import contextvars
import html
import io
import json
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from pnp.build import static_report
from pnp.errors import PnpError, drain_warnings
from pnp.index import page_face
from pnp.loader import load_design
from pnp.localserver import CSP, HEADERS, LocalServer, hosts_for, inside as _inside, need_extra as _need_extra
from pnp.studio.state import Versions, design_state, problem_faces, studio_state
from pnp.watch import Watcher, follow

try:
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
    from starlette.routing import Route
except ImportError:  # pragma: no cover (the message says what to install)
    Starlette = None  # type: ignore[assignment,misc]

ASSETS = Path(__file__).resolve().parent / "assets"
ASSET_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
               ".css": "text/css; charset=utf-8", ".png": "image/png"}
MAX_SOURCE = 2 * 1024 * 1024  # bytes of a design file /src/ shows
SHEET_SCALE = 96 / 72  # a print sheet's page at 96 px an inch, the size a screen shows 100 %


class Studio:
    """The builds and what the page shows: one Watcher (pnp.watch) builds in a thread of its own; each result is
    read into the state (pnp.studio.state) and pushed to every open page."""

    def __init__(self, designs: list[Path], out: Path, paper: str | None = None,
                 echo: Callable[[str], None] = print):
        self.designs = designs
        self.out = Path(out)
        self.echo = echo
        self.watcher = Watcher(designs, self.out, paper, echo)
        self.watcher.after_sheets = self._sheets_written
        self.folders = {d.name: Path(os.path.abspath(d)) for d in designs}
        self.versions = Versions()
        self.reports: dict[str, list[dict] | None] = {}
        self.generation = 0
        self.state = studio_state(0, "building", [self._design(d) for d in designs], [], [], 0.0, 0.0)
        self.lock = threading.Lock()
        self.listeners: set[tuple[asyncio.AbstractEventLoop, asyncio.Queue]] = set()
        self.stop = threading.Event()
        self.faces: OrderedDict[tuple[str, str, str], dict] = OrderedDict()  # page faces by (design, path, version)
        self.sheets: OrderedDict[tuple[str, int, int, int], bytes] = OrderedDict()  # sheet pages as PNG
        self._started = 0.0
        self._building: list[Path] = []

    # --- building (the build thread) -------------------------------------------------------------------------

    def run_builds(self) -> None:
        """Build every design, then rebuild on each change until `stop` is set (pnp.watch.follow)."""
        follow(self.watcher, self.rebuild, self.stop,
               lambda: self.echo(f"watching {', '.join(d.name for d in self.designs)}"), debounce=150, step=30)

    def rebuild(self, designs: list[Path]) -> None:
        if not designs:
            return
        self._started, self._building = time.perf_counter(), designs
        self._publish("building")
        ok = self.watcher.rebuild(designs)
        if ok:
            self._reports(designs)
        self._publish("ok" if ok else "failed")

    def _sheets_written(self) -> None:
        """The faces and sheets are on disk (the rulebooks come next): the page can show them now."""
        self._publish("ok", partial=True)

    def _reports(self, designs: list[Path]) -> None:
        for folder in designs:
            try:
                self.reports[folder.name] = static_report(load_design(folder), self.watcher.cache)
            except PnpError:
                self.reports[folder.name] = None

    def _design(self, folder: Path) -> dict:
        return design_state(self.out / folder.name, self.folders[folder.name], self.versions,
                            self.reports.get(folder.name))

    def _publish(self, status: str, partial: bool = False) -> None:
        seconds = time.perf_counter() - self._started
        designs = [self._design(d) for d in self.designs] if status != "building" else self.state["designs"]
        problems = self.watcher.problems if status == "failed" else []
        warnings = [] if partial or status == "building" else drain_warnings()
        errors = problem_faces(problems, designs, self.folders)
        shown_warnings = problem_faces(warnings, designs, self.folders)
        if status == "building":
            errors, shown_warnings = self.state["errors"], self.state["warnings"]
        elif partial:
            shown_warnings = self.state["warnings"]
        with self.lock:
            self.generation += 1
            self.state = studio_state(self.generation, status, designs, errors, shown_warnings, time.time(), seconds)
            self.state["building"] = [d.name for d in self._building] if status == "building" else []
            text = json.dumps(self.state, ensure_ascii=False, separators=(",", ":"))
            listeners = list(self.listeners)
        for loop, queue in listeners:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, text)
            except RuntimeError:  # that page's loop is closed
                self.listeners.discard((loop, queue))

    # --- what the routes read --------------------------------------------------------------------------------

    def output_file(self, slug: str, name: str) -> Path | None:
        """A file of a design's output, or None if `name` leaves it (.., a link out) or names no file."""
        if slug not in self.folders:
            return None
        return _inside(self.out / slug, name)

    def source_file(self, slug: str, name: str) -> Path | None:
        folder = self.folders.get(slug)
        return _inside(folder, name) if folder is not None else None

    def page_face(self, slug: str, name: str) -> dict | None:
        if not name.startswith("svg/") or not name.endswith(".svg"):
            return None
        path = self.output_file(slug, name)
        if path is None:
            return None
        version = self.versions.of(path)[0]
        key = (slug, name, version)
        with self.lock:
            known = self.faces.get(key)
        if known is not None:
            return known
        try:
            svg, fonts = page_face(path.read_text(encoding="utf-8"), f"/out/{slug}/{name.rsplit('/', 1)[0]}/")
        except (OSError, ValueError):
            return None
        face = {"svg": svg, "fonts": fonts, "v": version}
        with self.lock:
            self.faces[key] = face
            while len(self.faces) > 20_000:
                self.faces.popitem(last=False)
        return face


_PDFIUM = threading.Lock()  # pdfium is not thread-safe: one page rendered at a time


def sheet_png(pdf: Path, page: int, kept: OrderedDict) -> bytes | None:
    """Page `page` (from 1) of `pdf` as a PNG, `kept` by the file's size and time."""
    import pypdfium2  # lazy: 25 ms (pypdfium2)

    st = pdf.stat()
    key = (os.fspath(pdf), st.st_size, st.st_mtime_ns, page)
    with _PDFIUM:
        if key in kept:
            return kept[key]
        doc = pypdfium2.PdfDocument(os.fspath(pdf))
        try:
            if not 1 <= page <= len(doc):
                return None
            image = doc[page - 1].render(scale=SHEET_SCALE).to_pil()
        finally:
            doc.close()
        buf = io.BytesIO()
        image.save(buf, "PNG", compress_level=1)
        data = buf.getvalue()
        kept[key] = data
        while len(kept) > 200:
            kept.popitem(last=False)
    return data


def source_page(slug: str, name: str, path: Path) -> str:
    """A design file as a page of numbered lines, each line its own anchor (#L12), the one linked shown."""
    data = path.read_bytes()[:MAX_SOURCE]
    if b"\x00" in data[:8192]:
        body = "<p>This is not a text file (a spreadsheet or an image): open it in the program that made it.</p>"
    else:
        lines = data.decode("utf-8", "replace").splitlines()
        body = "<ol class='src'>" + "".join(f"<li id='L{i}'><code>{html.escape(line) or ' '}</code></li>"
                                           for i, line in enumerate(lines, 1)) + "</ol>"
    title = html.escape(f"{slug}/{name}")
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>"
            f"<link rel='icon' href='data:,'><link rel='stylesheet' href='/assets/studio.css'></head>"
            f"<body class='source'><h1>{title}</h1>"
            f"<p class='meta'>Read-only. Edit the file in your editor: the studio rebuilds when you save it.</p>"
            f"{body}</body></html>")


def make_app(studio: Studio, hosts: list[str]):
    """The Starlette application of `studio`, answering requests for `hosts` (Host header) alone."""
    need_extra()

    def respond(response: Response) -> Response:
        response.headers.update(HEADERS)
        return response

    async def page(request: Request) -> Response:
        response = FileResponse(ASSETS / "studio.html", media_type=ASSET_TYPES[".html"])
        response.headers["Content-Security-Policy"] = CSP
        return respond(response)

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        path = _inside(ASSETS, name)
        if path is None or path.suffix not in ASSET_TYPES:
            return respond(Response("no such asset", 404))
        return respond(FileResponse(path, media_type=ASSET_TYPES[path.suffix]))

    async def state(request: Request) -> Response:
        with studio.lock:
            return respond(JSONResponse(studio.state))

    async def events(request: Request) -> Response:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[str] = asyncio.Queue()
        entry = (loop, queue)
        with studio.lock:
            studio.listeners.add(entry)
            first = json.dumps(studio.state, ensure_ascii=False, separators=(",", ":"))

        async def stream():
            try:
                yield f"retry: 1000\nevent: state\ndata: {first}\n\n"
                while not studio.stop.is_set():
                    try:
                        text = await asyncio.wait_for(queue.get(), 1.0)
                    except TimeoutError:
                        yield ": still here\n\n"
                        continue
                    while not queue.empty():  # only the newest state matters
                        text = queue.get_nowait()
                    yield f"event: state\ndata: {text}\n\n"
            finally:
                studio.listeners.discard(entry)

        return respond(StreamingResponse(stream(), media_type="text/event-stream"))

    def face(request: Request) -> Response:  # (sync: Starlette runs it in a thread, off the event loop)
        found = studio.page_face(request.path_params["slug"], request.path_params["name"])
        if found is None:
            return respond(Response("no such face", 404))
        return respond(JSONResponse(found))

    async def output(request: Request) -> Response:
        path = studio.output_file(request.path_params["slug"], request.path_params["name"])
        if path is None:
            return respond(Response("not in the output", 404))
        return respond(FileResponse(path))

    def sheet(request: Request) -> Response:
        pdf = studio.output_file(request.path_params["slug"], request.path_params["name"])
        if pdf is None or pdf.suffix != ".pdf":
            return respond(Response("no such sheets", 404))
        data = sheet_png(pdf, request.path_params["page"], studio.sheets)
        if data is None:
            return respond(Response("no such page", 404))
        return respond(Response(data, media_type="image/png"))

    def source(request: Request) -> Response:
        slug, name = request.path_params["slug"], request.path_params["name"]
        path = studio.source_file(slug, name)
        if path is None:
            return respond(Response("not in the design folder", 404))
        response = Response(source_page(slug, name, path), media_type="text/html; charset=utf-8")
        response.headers["Content-Security-Policy"] = CSP
        return respond(response)

    async def no_icon(request: Request) -> Response:  # (a browser asks for it whatever the page says)
        return respond(Response(status_code=204))

    routes = [
        Route("/", page, methods=["GET"]),
        Route("/favicon.ico", no_icon, methods=["GET"]),
        Route("/assets/{name:path}", asset, methods=["GET"]),
        Route("/api/state", state, methods=["GET"]),
        Route("/api/events", events, methods=["GET"]),
        Route("/api/face/{slug}/{name:path}", face, methods=["GET"]),
        Route("/out/{slug}/{name:path}", output, methods=["GET"]),
        Route("/sheet/{slug}/{name}/{page:int}.png", sheet, methods=["GET"]),
        Route("/src/{slug}/{name:path}", source, methods=["GET"]),
    ]
    return Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)])


def need_extra() -> None:
    _need_extra("pnp studio", Starlette is not None)


class Server(LocalServer):
    """The studio running: its socket, the uvicorn server and the build thread (start/close, or `with`)."""

    thread_name = "pnp-studio-server"

    def __init__(self, studio: Studio, host: str = "127.0.0.1", port: int = 0):
        need_extra()
        super().__init__(make_app(studio, hosts_for(host)), host, port, "the studio")
        self.studio = studio
        # the builds run in this command's build context (its --allow-dir roots, its warnings)
        self.builds = threading.Thread(target=contextvars.copy_context().run, args=(studio.run_builds,),
                                       name="pnp-studio-builds", daemon=True)

    def begin(self) -> None:
        self.builds.start()

    def end(self) -> None:
        self.studio.stop.set()
        self.builds.join(30)
