"""The `pnp` command: parses arguments and calls the library, nothing more.

Problems in the user's input (pnp.errors.PnpError) print as messages and exit 2.
Anything else is a bug in pnp: one line names the command and the design and asks for
a report (exit 3); `pnp --debug ...` shows the traceback. Ctrl-C stops with exit 130.
Warnings (pnp's own and those of the libraries it drives) are printed at the end.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
from pathlib import Path


def _stopped_early(signum, frame):  # Ctrl-C while Python is still importing: nothing started, nothing to undo
    os._exit(130)


if (__name__ == "__main__" or os.path.basename(sys.argv[0]) == "pnp") and \
        signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, _stopped_early)  # the command itself installs its own handler (_Group.invoke)

# pydantic looks for plugins in the entry points of every installed distribution when it builds the first model: it
# read 157 of them here, 6-9 ms of every command that loads a game (the games' params and rules models are pydantic's;
# pnp.model needs only pydantic-core). pnp's models use none; a user who wants a plugin in pnp sets the variable
# themselves (empty, or the plugins to leave out).
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

import click  # noqa: E402

from pnp.errors import (  # noqa: E402
    PnpError,
    bug_report,
    capture_library_output,
    display_path,
    drain_warnings,
    format_warnings,
)

BUG_EXIT = 3


def _allow_dirs(ctx: click.Context, param: click.Parameter, value: tuple[Path, ...]) -> tuple[Path, ...]:
    from pnp.confine import with_roots  # lazy: 8.0 ms (pnp.confine)
    from pnp.context import current  # lazy: 25 ms (pnp.context)

    build = current()  # the command line's own build context (made active by _Group.main)
    build.roots = with_roots(build.roots, value)
    return value


_ALLOW_DIR = dict(type=click.Path(exists=True, file_okay=False, path_type=Path), multiple=True, metavar="PATH",
                  callback=_allow_dirs, help="A folder whose files designs may read too (shared art, data, templates); "
                  "repeatable. Designs read nothing outside their own folder otherwise.")


def allow_dir_option(fn):
    """`--allow-dir PATH` on a command (the same as before the command name)."""
    return click.option("--allow-dir", "allow_dir", expose_value=False, **_ALLOW_DIR)(fn)  # type: ignore[arg-type]


class _Group(click.Group):
    def main(self, *args, **kwargs):
        from pnp.context import BuildContext  # lazy: 25 ms (pnp.context)

        with BuildContext().active():  # each command line runs in a build context of its own (roots, warnings...)
            return super().main(*args, **kwargs)

    def make_context(self, info_name, args, parent=None, **extra):
        given = list(args)
        ctx = super().make_context(info_name, args, parent, **extra)
        ctx.meta["pnp.args"] = given
        return ctx

    def invoke(self, ctx: click.Context):
        _STOPS.clear()
        before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
        for sig, handler in before.items():  # Ctrl-C and SIGTERM end a command cleanly, nothing half-written
            if handler in (signal.SIG_DFL, signal.default_int_handler, _stopped_early):
                signal.signal(sig, _stop)
        capture_library_output()
        try:
            return super().invoke(ctx)
        except PnpError as exc:
            if _STOPS:  # a library turned our interrupt into its own error (ReportLab's bare excepts do)
                _interrupted()
            click.echo(str(exc), err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            _interrupted()
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except Exception as exc:
            if _STOPS:
                _interrupted()
            if ctx.params.get("debug") or os.environ.get("PNP_DEBUG"):
                raise
            click.echo(bug_report(ctx.meta.get("pnp.args", []), ctx.invoked_subcommand, exc), err=True)
            ctx.exit(BUG_EXIT)
        finally:
            for sig, handler in before.items():
                signal.signal(sig, handler)
            warnings = drain_warnings()
            if warnings:
                click.echo(format_warnings(warnings), err=True)


_STOPS: list[int] = []  # the signals that asked the running command to stop


def _stop(signum, frame):
    _STOPS.append(signum)
    raise KeyboardInterrupt


def _interrupted() -> None:
    """One line, exit 130. Exits at once: the work is already undone, and an interrupt that hit an
    import would otherwise make Python end by SIGINT."""
    click.echo("interrupted: the output holds the last complete build", err=True)
    sys.stdout.flush()
    sys.stderr.flush()
    _exit(130)


_exit = os._exit  # tests that run the CLI in their own process replace it


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pnp")
@click.option("--debug", is_flag=True, help="Show the traceback of an internal error (a bug in pnp).")
@click.option("--allow-dir", "allow_dir", expose_value=False, **_ALLOW_DIR)  # type: ignore[arg-type]
def main(debug: bool) -> None:
    """pnp: print-and-play components, print sheets and rules checks from YAML designs.

    A design is a folder with a design.yaml (see docs/design-format.md). With no
    DESIGN argument, commands use every design under ./designs (or the four
    embedded games). A design reads only files inside its own folder (and pnp's
    templates), unless --allow-dir names another folder.
    """


@main.command()
@click.argument("designs", nargs=-1)
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="Folder to write into; each design gets a subfolder.")
@click.option("--paper", type=click.Choice(["a4", "letter", "a3"]), default=None,
              help="Sheet size; overrides the design's print.paper.")
@click.option("--orientation", type=click.Choice(["auto", "portrait", "landscape"]), default=None,
              help="Sheet orientation; auto picks what wastes least, per component.")
@click.option("--duplex", type=click.Choice(["long", "short", "none", "fold"]), default=None,
              help="Backs: long-edge or short-edge duplex, none (separate sheets to glue), fold (gutter-fold).")
@click.option("--back-offset", default=None, metavar="X,Y",
              help="Shift back pages by X,Y mm (e.g. 0.5,-0.3) for a printer whose duplex drifts.")
@click.option("--marks", type=click.Choice(["crop", "cut", "none"]), default=None,
              help="Crop marks outside the trim, full cut lines, or nothing.")
@click.option("--margin", default=None, metavar="LENGTH",
              help="Printable area: nothing is printed closer than this to the paper's edges (e.g. 4mm, 0.25in; "
                   "plain numbers are mm); overrides print.margin (default 6.35 mm).")
@click.option("--gutter", default=None, metavar="LENGTH|bleed",
              help="Gap between neighbouring cards (plain numbers are mm), or bleed: both cards' bleeds, "
                   "kept whole; overrides print.gutter.")
@click.option("--proof", is_flag=True, default=None, help="Draw trim, bleed and safe-zone guides (-proof.pdf).")
@click.option("--print-shop", is_flag=True, help="Also write <design>-print-shop.pdf: one face per page, "
              "trim + bleed, TrimBox/BleedBox, backs after fronts.")
@click.option("--pdfx", is_flag=True, help="Write the print-shop PDF as PDF/X in CMYK (implies --print-shop): "
              "PDF/X-1a, what DriveThruCards asks for (transparency flattened), unless --pdfx-version x-4.")
@click.option("--pdfx-version", "pdfx_version", type=click.Choice(["x-1a", "x-4"]), default=None,
              help="With --pdfx (implied): x-1a (the default) or x-4, which keeps transparency.")
@click.option("--export", "export", multiple=True, type=click.Choice(["png", "tts", "kit"]),
              help="Also make these exports (PNG faces at 300 dpi, Tabletop Simulator saved object, print-and-play "
                   "kit); once made, later builds keep them up to date. Same as `pnp export KIND`.")
@click.option("--kit", "kit", is_flag=True, help="Also write the print-and-play kit (same as --export kit).")
@click.option("--ink-saver", "ink_saver", is_flag=True, help="With the kit: also its ink-saving version.")
@click.option("--no-exports", "no_exports", is_flag=True,
              help="Make no exports, and remove those earlier builds made.")
@click.option("--cache/--no-cache", "use_cache", default=True, show_default=True,
              help="Reuse what earlier builds made (<out>/.cache); --no-cache makes everything again.")
@allow_dir_option
def build(designs: tuple[str, ...], out: Path, paper: str | None, orientation: str | None, duplex: str | None,
          back_offset: str | None, marks: str | None, margin: str | None, gutter: str | None, proof: bool | None,
          print_shop: bool, pdfx: bool, pdfx_version: str | None, export: tuple[str, ...],
          kit: bool, ink_saver: bool, no_exports: bool, use_cache: bool) -> None:
    """Build SVG faces, PDF print sheets and a manifest for each DESIGN.

    DESIGN is a design folder, its design.yaml, or the name of a folder under designs/;
    with none, every design under ./designs. Options override the designs' print settings.
    """
    from pnp.build import BuildOptions, build_designs  # lazy: 295 ms (pnp.build)

    if back_offset is not None:  # plain numbers are mm here
        back_offset = ",".join(p if any(c.isalpha() for c in p) else f"{p.strip()}mm" for p in back_offset.split(","))
    margin, gutter = (f"{v.strip()}mm" if v is not None and _plain_number(v) else v for v in (margin, gutter))
    overrides = {"orientation": orientation, "duplex": duplex, "back_offset": back_offset, "marks": marks,
                 "margin": margin, "gutter": gutter, "proof": proof}
    from pnp.cache import Cache  # lazy: 14 ms (pnp.cache)

    cache = None if use_cache else Cache(None, memory=True)
    exports = set(export) | ({"kit"} if kit else set()) | ({"kit", "kit-ink-saver"} if ink_saver else set())
    shop: bool | str = (pdfx_version or "x-1a") if pdfx or pdfx_version else print_shop  # a version: PDF/X
    options = BuildOptions(paper=paper, overrides=overrides, print_shop=shop, exports=False if no_exports else frozenset(exports))
    for result in build_designs(designs, out, options, cache=cache, echo=lambda m: click.echo(m, err=True)):
        click.echo(result.summary())


@main.command(name="clean")
@click.argument("designs", nargs=-1)
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="The folder builds wrote into.")
def clean_(designs: tuple[str, ...], out: Path) -> None:
    """Remove the files earlier builds kept beside the last one's.

    A build keeps the files of other papers and options (another paper's sheets and rulebooks,
    -proof.pdf, -print-shop.pdf) that earlier builds made; this removes them for each DESIGN (a
    design as for build, or its folder's name under OUT; with none, every design in OUT).
    """
    from pnp.build import clean  # lazy: 276 ms (pnp.build)
    from pnp.loader import resolve_design  # lazy: 78 ms (pnp.loader)
    from pnp.output import OutputLock  # lazy: 23 ms (pnp.output)

    if designs:
        names = []
        for arg in designs:
            if (out / Path(arg).name).is_dir() and not Path(arg).is_dir():
                names.append(Path(arg).name)
            else:
                names.append(resolve_design(arg).name)
    else:
        names = sorted(p.name for p in out.iterdir() if (p / "manifest.json").is_file()) if out.is_dir() else []
    with OutputLock(out, echo=lambda m: click.echo(m, err=True)):
        for name in names:
            removed = clean(out / name)
            said = f"{len(removed)} removed ({', '.join(removed)})" if removed else "nothing kept to remove"
            click.echo(f"{name}: {said}")


def _plain_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


@main.group()
def export() -> None:
    """Exports beside the print sheets, for playtesting online or for a print service.

    Each builds the design as `pnp build` does (over the same cache) and adds the export;
    later builds keep it up to date.
    """


def _export_command(kind: str, summary: str, *options):
    """`pnp export KIND`: `options` are click options whose values `_exports(kind, **values)` turns into the
    build's exports and settings."""

    def command(designs: tuple[str, ...], out: Path, paper: str | None, **values) -> None:
        from pnp.build import BuildOptions, build_designs  # lazy: 294 ms (pnp.build)

        exports, settings = _exports(kind, **values)
        options = BuildOptions(paper=paper, exports=frozenset(exports), **settings)
        for result in build_designs(designs, out, options, echo=lambda m: click.echo(m, err=True)):
            click.echo(result.summary())

    command.__name__ = kind.replace("-", "_")
    for option in reversed(options):
        command = option(command)
    command = allow_dir_option(command)
    command = click.option("--paper", type=click.Choice(["a4", "letter", "a3"]), default=None,
                           help="Sheet size of the build; overrides the design's print.paper.")(command)
    command = click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
                           show_default=True, help="Folder to write into; each design gets a subfolder.")(command)
    command = click.argument("designs", nargs=-1)(command)
    return export.command(name=kind, help=summary)(command)


def _exports(kind: str, base_url: str | None = None, service: tuple[str, ...] = (), ink_saver: bool = False):
    """(exports, build settings) for `pnp export KIND` and its options."""
    if kind == "print-service":
        return {f"print-service:{s}" for s in service}, {}
    if kind == "kit":
        return {"kit", "kit-ink-saver"} if ink_saver else {"kit"}, {}
    if kind == "tts":
        return {"tts"}, {"tts_base_url": base_url}
    return {kind}, {}


_export_command("png", "PNG of every face at 300 dpi, bleed included: OUT/<design>/png/.")
_export_command(
    "tts", "Tabletop Simulator saved object of the whole game: OUT/<design>/tts/<design>.json and the images it "
    "names (deck sheets 10 x 7, backs, boards, tiles, tokens; bags with counts; rulebooks as PDFs). Copy the "
    "tts/ folder's JSON into TTS's Saved Objects folder.",
    click.option("--base-url", default=None, metavar="URL",
                 help="Where you will host the design's output folder (http(s)://...): the saved object names its "
                      "images and PDFs there. Default: file:/// paths into the output folder (this computer)."))
_export_command(
    "print-service", "Images for a print-on-demand service: one per face and back at the service's pixel size, "
    "bleed and dpi, named for its upload, and report.txt/report.json of what it cannot make: "
    "OUT/<design>/print/<service>/.",
    click.option("--service", "service", multiple=True, required=True,
                 type=click.Choice(["thegamecrafter", "makeplayingcards", "printplaygames"]),
                 help="The service (repeatable)."))
_export_command(
    "kit", "The print-and-play kit: one PDF per language (cover, how to print and cut, rules, every component "
    "sheet, bookmarked): OUT/<design>/<design>-kit-<lang>-<paper>.pdf.",
    click.option("--ink-saver", "ink_saver", is_flag=True,
                 help="Also the ink-saving version (large fills lightened, lines and text kept): "
                      "<design>-kit-ink-saver-<lang>-<paper>.pdf."))


@main.command(name="list")
@click.argument("designs", nargs=-1)
@allow_dir_option
def list_(designs: tuple[str, ...]) -> None:
    """List designs and their components with counts."""
    from pnp.build import describe_designs  # lazy: 272 ms (pnp.build)

    click.echo(describe_designs(designs))


AGENT_HELP = ("Players: random, greedy or mcts:N (OpenSpiel's tree search, N simulations a move; needs the [ai] "
              "extra), for every seat or one per seat (mcts:200,random).")


def _run_options(fn):
    """--workers and --scheduler, shared by simulate and sweep."""
    fn = click.option("--scheduler", default=None, is_flag=False, flag_value="local", metavar="[ADDRESS]",
                      help="Run on Dask (the [cluster] extra): a scheduler address such as tcp://host:8786, "
                           "or alone for a local cluster of --workers processes.")(fn)
    fn = click.option("--workers", type=click.IntRange(min=1), default=None,
                      help="Processes to play on; default every core. Results do not depend on it.")(fn)
    return fn


@main.command()
@click.argument("designs", nargs=-1)
@click.option("-n", "--games", type=click.IntRange(min=0), default=200, show_default=True,
              help="Seeded games per player count (0 skips the simulation checks).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game.")
@click.option("--agent", default=None, help="Players of the simulation checks; default the game's own agent. "
              + AGENT_HELP)
@click.option("--build/--no-build", "build_check", default=True, show_default=True,
              help="First check that the design builds (faces, sheets, rulebooks; nothing is written).")
@allow_dir_option
def validate(designs: tuple[str, ...], games: int, seed: int, agent: str | None, build_check: bool) -> None:
    """Check each DESIGN against its game's rules; exit 0 all pass, 1 a check fails, 2 bad input or no build."""
    from pnp.validate import exit_code, format_report, validate as run_validate  # lazy: 93 ms (pnp.validate)

    reports = run_validate(designs, games=games, seed=seed, agent=agent, build=build_check)
    click.echo(format_report(reports))
    sys.exit(exit_code(reports))


@main.command()
@click.argument("game")
@click.option("-n", "--games", type=click.IntRange(min=1), default=200, show_default=True, help="Games to play.")
@click.option("--players", type=int, default=None, help="Player count; default the design's fewest.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game (game i: seed+i).")
@click.option("--agent", default=None, help="Default: the game's own choice (random for most games). " + AGENT_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable results.")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the game-length histogram and seat win rates as SVG.")
@click.option("--replay", type=click.Path(dir_okay=False, exists=True, path_type=Path), default=None,
              help="A game saved by pnp play: its result replayed by the engine, or, if it stopped before the end, "
              "-n games played on from there.")
@_run_options
def simulate(game: str, games: int, players: int | None, seed: int, agent: str | None, as_json: bool,
             plot: Path | None, replay: Path | None, workers: int | None, scheduler: str | None) -> None:
    """Play seeded games of GAME (a design folder or its name) and report the statistics."""
    from pnp.simulate import from_replay, run  # lazy: 129 ms (pnp.simulate)

    if replay is not None:
        click.echo(from_replay(game, replay, games, seed, agent, as_json))
        return
    click.echo(run(game, games, players, seed, agent, as_json, plot, workers, scheduler))


@main.command()
@click.argument("design")
@click.option("--set", "settings", multiple=True, metavar="KEY=V1,V2,...",
              help="A design.yaml value to vary, e.g. rules.pieces_per_player=20,25,30,34; repeat for more keys "
                   "(every combination runs); join keys with + to vary them together "
                   "(rules.pieces_per_player+components.pieces.count=20,25).")
@click.option("--players", default=None, metavar="N,N,...", help="Player counts, e.g. 2,3,4; default the design's "
              "fewest.")
@click.option("-n", "--games", type=click.IntRange(min=1), default=200, show_default=True,
              help="Games per setting and player count.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game of every setting.")
@click.option("--agent", default=None, help="Default: the game's own choice. " + AGENT_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable results.")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write win rate by seat and game length per setting as SVG.")
@_run_options
def sweep(design: str, settings: tuple[str, ...], players: str | None, games: int, seed: int, agent: str | None,
          as_json: bool, plot: Path | None, workers: int | None, scheduler: str | None) -> None:
    """Simulate DESIGN for every combination of --set values and --players counts, each on a checked copy.

    A setting the validator rejects (a file:line problem or a failing check) is reported as
    such and not played. Tables give every figure with its 95% interval.
    """
    from pnp.sweep import run  # lazy: 131 ms (pnp.sweep)

    text, code = run(design, settings, players, games, seed, agent, as_json, plot, workers, scheduler)
    click.echo(text)
    sys.exit(code)


@main.command()
@click.argument("designs", nargs=-1)
@click.option("--lang", type=click.Choice(["fr", "en"]), default=None,
              help="Only this language; default every language in the design's meta.languages.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="Folder to write into; each design gets a subfolder.")
@click.option("--paper", type=click.Choice(["a4", "letter", "a3"]), default=None,
              help="Page size; default the design's print.paper (A3 designs get A4 rulebooks).")
@allow_dir_option
def rules(designs: tuple[str, ...], lang: str | None, out: Path, paper: str | None) -> None:
    """Compile the rulebook PDFs of each DESIGN from its rules.<lang>.md.

    Writes OUT/<design>/<design>-rules-<lang>-<paper>.pdf (pnp build writes them too).
    """
    from pnp.build import build_rulebooks  # lazy: 289 ms (pnp.build)

    for path in build_rulebooks(designs, out=out, lang=lang, paper=paper):
        click.echo(str(path))


@main.command()
@click.argument("designs", nargs=-1)
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="Folder to write into.")
@click.option("--paper", type=click.Choice(["a4", "letter", "a3"]), default=None, help="Sheet size override.")
@allow_dir_option
def watch(designs: tuple[str, ...], out: Path, paper: str | None) -> None:
    """Build DESIGNS, then rebuild on every save of a design, data, rules or template file.

    Only what changed is made again (a content-hash cache); errors are reported and the
    watch goes on. Ctrl-C stops it.
    """
    from pnp.watch import watch as run_watch  # lazy: 286 ms (pnp.watch)

    run_watch(designs, out, paper, echo=click.echo)


@main.command()
@click.argument("designs", nargs=-1)
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="Folder to write into.")
@click.option("--paper", type=click.Choice(["a4", "letter", "a3"]), default=None, help="Sheet size override.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port to listen on; 0: a free one.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Only this machine can reach 127.0.0.1; another address lets the "
              "network see your design.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in your web browser.")
@allow_dir_option
def studio(designs: tuple[str, ...], out: Path, paper: str | None, port: int, host: str, open_browser: bool) -> None:
    """Work on DESIGNS in the browser: a local page that shows every face, sheet, warning and error, and
    follows each save (pnp watch, with the picture).

    Needs the studio extra: pip install -e ".[studio]". Ctrl-C stops it.
    """
    from pnp.studio.run import run_studio  # lazy: optional (studio)

    run_studio(designs, out, paper, port, host, open_browser, echo=click.echo)


@main.command()
@click.argument("design")
@click.option("--players", type=int, default=None, help="Player count; default the design's fewest.")
@click.option("--seats", default=None,
              help="Who plays each seat: human or an agent (random, greedy, mcts:N), comma separated "
              "(human,greedy,greedy; human,human: hot-seat); one agent name: you against it. Default: human,greedy...")
@click.option("--seed", type=click.IntRange(0), default=None, help="Seed of the chance and the agents; default: a new one.")
@click.option("--replay", type=click.Path(dir_okay=False, exists=True, path_type=Path), default=None,
              help="A game saved by pnp play (JSON): open it where it stopped (undo goes back move by move).")
@click.option("--lang", default=None, help="Edition whose names the page uses; default the design's first language.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="Output folder: the games are saved in <out>/<design>/games/.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port to listen on; 0: a free one.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Only this machine can reach 127.0.0.1.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in your web browser.")
@allow_dir_option
def play(design: str, players: int | None, seats: str | None, seed: int | None, replay: Path | None,
         lang: str | None, out: Path, port: int, host: str, open_browser: bool) -> None:
    """Play DESIGN's game on a local page before printing it: you against the agents, or several people at one
    screen; the rules engine decides every move, draw and score.

    Needs the studio extra: pip install -e ".[studio]". Ctrl-C stops it (the game is saved in
    <out>/<design>/games/).
    """
    from pnp.play.run import run_play  # lazy: optional (studio)

    run_play(design, out, players, seats, seed, replay, lang, port, host, open_browser, echo=click.echo)


@main.command()
@click.argument("design")
@click.option("--note", default="", help="What this printing was for (a playtest, a printer).")
@click.option("--paper", type=click.Choice(["a4", "letter", "a3"]), default=None, help="Sheet size override.")
@allow_dir_option
def printed(design: str, note: str, paper: str | None) -> None:
    """Record DESIGN's faces as printed now: a new state (v1, v2...) in its printed.json (commit it with the
    design). `pnp reprint` and `pnp changes` compare with it."""
    from pnp.printed import printed_command  # lazy: 320 ms (pnp.printed)

    click.echo(printed_command(design, note, paper))


@main.command()
@click.argument("design")
@click.option("--since", default=None, metavar="VERSION",
              help="A printed state (v3) or a git revision of the design folder (HEAD~2, a tag); default the last "
              "printed state.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="Folder to write into; the design gets a subfolder.")
@click.option("--paper", type=click.Choice(["a4", "letter", "a3"]), default=None, help="Sheet size override.")
@click.option("--lang", default=None, help="The edition to reprint; default the design's first language.")
@allow_dir_option
def reprint(design: str, since: str | None, out: Path, paper: str | None, lang: str | None) -> None:
    """Sheets of only the faces of DESIGN that are new or changed since a printed state (all their copies, with
    their backs; the extra copies when only the count grew), and the list of what to discard and print:
    OUT/<design>/<design>-reprint-<since>-<paper>.pdf, .txt and .json."""
    from pnp.printed import reprint_command  # lazy: 320 ms (pnp.printed)

    click.echo(reprint_command(design, since, out, paper, lang))


@main.command()
@click.argument("design")
@click.option("--since", default=None, metavar="VERSION",
              help="A printed state (v3) or a git revision of the design folder; default the last printed state.")
@allow_dir_option
def changes(design: str, since: str | None) -> None:
    """What changed in DESIGN since a printed state: by component and card, the row's fields, the template, the
    art and the count; the rulebooks' sections."""
    from pnp.printed import changes_command  # lazy: 320 ms (pnp.printed)

    click.echo(changes_command(design, since))


@main.command()
@click.argument("name")
@click.option("--from", "source", default=None, metavar="DESIGN",
              help="Copy an existing design (a folder or a name under designs/) instead of the starter deck.")
@click.option("--engine", is_flag=True, help="Create NAME/, a game package of your own: rules engine, checks, "
              "components, diagrams, tests and a design (pip install -e NAME to use it).")
def new(name: str, source: str | None, engine: bool) -> None:
    """Create designs/NAME: a design file, rules texts (en, fr) and a data-table deck that builds as is.

    With --engine: NAME/, a game package of your own (see docs/adding-a-game.md).
    """
    from pnp.scaffold import new_design, new_game_package  # lazy: 86 ms (pnp.scaffold)

    if engine:
        folder = new_game_package(name)
        click.echo(f"created {display_path(folder)}: install it with `pip install -e {display_path(folder)}`, "
                   f"then `pnp validate` there")
        return
    folder = new_design(name, source)
    click.echo(f"created {display_path(folder)}: build it with `pnp build {folder.name}`")


@main.command()
@click.argument("game")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="SVG to write; default output/<design>/<design>-loops-<seed>.svg (or -layout.svg).")
@click.option("--layout", "layout", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Analyse this layout (YAML: tiles: [{at: [q, r], lines: [[0, 2]]}...]) instead of playing.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the game to play.")
@click.option("--players", type=int, default=None, help="Player count; default the design's fewest.")
@click.option("--agent", type=click.Choice(["random", "greedy"]), default="greedy", show_default=True)
@click.option("--first-game", is_flag=True, help="Play the first-game variant (ends at the first closed loop).")
def loops(game: str, out: Path | None, layout: Path | None, seed: int, players: int | None, agent: str,
          first_game: bool) -> None:
    """Play a seeded game of GAME (or read --layout), find every closed loop and draw them as SVG.

    For games whose tiles make loops (TriLOOPite): prints each loop's length and bonuses
    (figure 8, crossing, inside another, through the start tile) and the score.
    """
    from pnp import registry  # lazy: 7.7 ms (pnp)
    from pnp.loader import load_design, resolve_design  # lazy: 78 ms (pnp.loader)

    design = load_design(resolve_design(game))
    entry = registry.get_game(design.game) if design.game else None
    fn = entry.commands.get("loops") if entry else None
    if fn is None:
        raise PnpError(f"{design.slug}: game '{design.game}' has no loop analysis")
    if out is None:
        out = Path("output") / design.slug / f"{design.slug}-loops-{'layout' if layout else seed}.svg"
    click.echo(fn(design, out=out, layout_file=layout, seed=seed, players=players, agent=agent,
                  mode="first" if first_game else None))


def run() -> None:
    """The `pnp` command (and `python -m pnp.cli`): main, then the process ends without tearing the interpreter
    down. Every file a command writes is closed and renamed into place before it returns, so what Python would do
    at exit is only freeing the modules' objects: a tenth of a second after every command (reportlab, pydantic).
    What must still run does: the threads still working are waited for, the exit handlers run (the cache's
    writers, multiprocessing's) and the output is flushed. A Ctrl-C meanwhile ends with 130 at once (the command
    is complete). Under a profiler or a tracer (cProfile, coverage), the process exits as usual, so that they
    write what they measured. Tests call `main` in their own process: it returns."""
    try:
        main()
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _stopped_early)
    for thread in threading.enumerate():  # as Python's own exit does: non-daemon threads finish their work
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
    status = 0
    if isinstance(code, int):
        status = code
    elif code is not None:  # sys.exit("message"): printed, status 1
        print(code, file=sys.stderr)
        status = 1
    if sys.getprofile() is not None or sys.gettrace() is not None:  # (`python -m cProfile -m pnp.cli`, coverage:
        sys.exit(status)  # they write what they measured at exit)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # closed early (`pnp list | head`): nothing more can be said
            pass
    _exit(status)


if __name__ == "__main__":  # pragma: no cover
    run()
