"""`pnp play DESIGN`: load the design and its engine, start the page's server, say where it is, stop on Ctrl-C
(the game so far is saved as a replay in the design's output folder, games/)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pnp.errors import PnpError
from pnp.loader import load_design, resolve_design
from pnp.localserver import warn_host


def open_table(design_arg: str, out: Path, players: int | None = None, seats: str | None = None,
               seed: int | None = None, replay: Path | None = None, lang: str | None = None,
               echo: Callable[[str], None] = print):
    """The table (pnp.play.server.Table) of a design: its session, from a replay when one is given."""
    from pnp.play.server import Table, need_extra  # lazy: optional (studio)
    from pnp.play.session import Session, load_replay, new_seed, parse_seats  # lazy: 12 ms (pnp.play.session)

    need_extra()
    design = load_design(resolve_design(design_arg))
    if not design.game:
        raise PnpError(f"{design.slug}: the design names no game; expected 'game:' with a registered rules engine "
                       "to play it")
    data = load_replay(replay) if replay is not None else None
    if data is not None:
        if data.get("design") not in (None, design.slug):
            echo(f"warning: {replay}: a replay of {data.get('design')}, played here on {design.slug}")
        players = int(data["players"])
        seed = int(data["seed"])
        if seats is None and isinstance(data.get("seats"), list):
            seats = ",".join(str(s) for s in data["seats"])
    players = players or design.meta.players.min
    languages = design.meta.languages or ["en"]
    lang = lang or languages[0]
    if lang not in languages:
        raise PnpError(f"--lang {lang}: {design.slug} has no such edition; expected one of {', '.join(languages)}")
    session = Session(design, players, parse_seats(seats, players), new_seed() if seed is None else seed, lang)
    if data is not None:
        session.load(data)
    return Table(session, Path(out) / design.slug, echo)


def run_play(design_arg: str, out: Path, players: int | None, seats: str | None, seed: int | None,
             replay: Path | None, lang: str | None, port: int = 0, host: str = "127.0.0.1",
             open_browser: bool = False, echo: Callable[[str], None] = print) -> None:
    from pnp.play.server import Server  # lazy: optional (studio)

    table = open_table(design_arg, out, players, seats, seed, replay, lang, echo)
    server = Server(table, host, port)
    warning = warn_host(host, "play (and see every hand)")
    if warning:
        echo(warning)
    s = table.session
    echo(f"pnp play: {s.design.meta.title}, {s.players} players ({', '.join(s.seats)}), seed {s.seed}: "
         f"{server.url} (Ctrl-C to stop)")
    if open_browser:
        import webbrowser  # lazy: 23 ms (webbrowser)

        webbrowser.open(server.url)
    server.serve_forever()
