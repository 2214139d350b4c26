"""`pnp studio`: start the server and the builds, say where the page is, stop on Ctrl-C."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pnp.loader import find_designs, resolve_design
from pnp.localserver import warn_host


def run_studio(args: tuple[str, ...], out: Path, paper: str | None, port: int = 0, host: str = "127.0.0.1",
               open_browser: bool = False, echo: Callable[[str], None] = print) -> None:
    from pnp.studio.server import Server, Studio, need_extra  # lazy: optional (studio)

    need_extra()
    designs = [resolve_design(a) for a in args] if args else find_designs()
    server = Server(Studio(designs, Path(out), paper, echo), host, port)
    warning = warn_host(host, "see the design")
    if warning:
        echo(warning)
    echo(f"pnp studio: {server.url} (Ctrl-C to stop)")
    if open_browser:
        import webbrowser  # lazy: 23 ms (webbrowser)

        webbrowser.open(server.url)
    server.serve_forever()
