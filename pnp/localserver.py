"""What pnp's local pages (pnp studio, pnp play) share: a socket on the loopback interface, the Host header
values answered (no DNS rebinding), the safety headers, paths confined to a folder, uvicorn in a thread, and the
message naming the extra when the server libraries are missing."""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

from pnp.errors import PnpError

HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}
CSP = ("default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' data:; font-src 'self' data:; "
       "style-src 'self' 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def need_extra(command: str, available: bool = True) -> None:
    """A clear message when the local pages' libraries (the `studio` extra) are not installed: `available` says
    whether the calling module could import Starlette."""
    try:
        import uvicorn  # noqa: F401  # lazy: optional (studio)
    except ImportError:
        available = False
    if not available:
        raise PnpError(f"{command} needs the 'studio' extra (Starlette and uvicorn); expected them installed: "
                       "pip install -e '.[studio]' (or pip install 'pnp[studio]')")


def hosts_for(host: str) -> list[str]:
    """The Host header values a server on `host` answers: the loopback's names, and the address asked for (any
    name at all on a wildcard address, 0.0.0.0 or ::, which the one who asked for it was told)."""
    if host in ("0.0.0.0", "::"):
        return ["*"]
    return list(dict.fromkeys(["127.0.0.1", "localhost", host]))


def listen(host: str, port: int, who: str = "the page") -> socket.socket:
    """A socket listening on `host`:`port` (0: a free port the system picks)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, _, _, _, address = infos[0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        raise PnpError(f"--port {port}: cannot listen on {host}:{port} ({exc.strerror or exc}); expected a free "
                       f"port (or none: {who} picks one)") from None
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def inside(root: Path, name: str) -> Path | None:
    """`root/name` if it is a regular file inside `root` (links resolved), else None."""
    if not name or "\x00" in name or name.startswith("/") or "\\" in name:
        return None
    if any(part in ("", ".", "..") or part.startswith(".") for part in name.split("/")):
        return None  # no dot-files (the cache, a .git) and no way up
    base = os.path.realpath(root)
    path = os.path.realpath(os.path.join(base, name))
    if not path.startswith(base + os.sep) or not os.path.isfile(path):
        return None
    return Path(path)


def warn_host(host: str, what: str) -> str | None:
    """The warning for a server asked to listen beyond the loopback interface, or None."""
    if host in ("127.0.0.1", "localhost", "::1"):
        return None
    return (f"warning: listening on {host}: other machines that reach this address can {what}"
            + (" (and any Host header is answered)" if host in ("0.0.0.0", "::") else ""))


class LocalServer:
    """A local page's server (an ASGI application served by uvicorn on a socket of `listen`) and the work the page
    shows, which runs beside it: a subclass says how it begins and ends (`begin`, `end`). `serve_forever` serves in
    this thread until Ctrl-C; `start` in a thread of its own (the tests, the benches); `close`, or `with`."""

    thread_name = "pnp-server"

    def __init__(self, app, host: str, port: int, who: str = "the page"):
        import uvicorn  # lazy: 269 ms (uvicorn)

        self.host = host
        self.sock = listen(host, port, who)
        self.port = self.sock.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown}:{self.port}/"
        config = uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=2,
                                lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread: threading.Thread | None = None

    def begin(self) -> None:
        """Start the work beside the server."""

    def end(self) -> None:
        """Stop that work (before the server stops answering)."""

    def serve_forever(self) -> None:
        self.begin()
        try:
            self.server.run(sockets=[self.sock])
        finally:
            self.close()

    def start(self):
        self.begin()
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, name=self.thread_name,
                                       daemon=True)
        self.thread.start()
        while not self.server.started and self.thread.is_alive():
            time.sleep(0.01)
        return self

    def close(self) -> None:
        self.end()
        self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(10)
        self.sock.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()
