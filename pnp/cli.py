"""The `pnp` command: parses arguments and calls the library, nothing more.

Problems in the user's input (pnp.errors.PnpError) print as messages and exit 2.
Anything else is a bug in pnp: one line names the command and the design and asks for
a report (exit 3); `pnp --debug ...` shows the traceback. Ctrl-C stops with exit 130.
Warnings (pnp's own and those of the libraries it drives) are printed at the end.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from pnp.errors import PnpError

BUG_EXIT = 3


def _allow_dirs(ctx: click.Context, param: click.Parameter, value: tuple[Path, ...]) -> tuple[Path, ...]:
    from pnp.confine import allow_dirs

    allow_dirs(value)
    return value


_ALLOW_DIR = dict(type=click.Path(exists=True, file_okay=False, path_type=Path), multiple=True, metavar="PATH",
                  callback=_allow_dirs, help="A folder whose files designs may read too (shared art, data, templates); "
                  "repeatable. Designs read nothing outside their own folder otherwise.")


def allow_dir_option(fn):
    """`--allow-dir PATH` on a command (the same as before the command name)."""
    return click.option("--allow-dir", "allow_dir", expose_value=False, **_ALLOW_DIR)(fn)


class _Group(click.Group):
    def make_context(self, info_name, args, parent=None, **extra):
        from pnp.confine import reset_allowed_dirs

        reset_allowed_dirs()  # each command line names its own (tests run many in one process)
        given = list(args)
        ctx = super().make_context(info_name, args, parent, **extra)
        ctx.meta["pnp.args"] = given
        return ctx

    def invoke(self, ctx: click.Context):
        from pnp.errors import bug_report, capture_library_output, drain_warnings, format_warnings

        capture_library_output()
        try:
            return super().invoke(ctx)
        except PnpError as exc:
            click.echo(str(exc), err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("pnp: interrupted", err=True)
            ctx.exit(130)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except Exception as exc:
            if ctx.params.get("debug") or os.environ.get("PNP_DEBUG"):
                raise
            click.echo(bug_report(ctx.meta.get("pnp.args", []), ctx.invoked_subcommand, exc), err=True)
            ctx.exit(BUG_EXIT)
        finally:
            warnings = drain_warnings()
            if warnings:
                click.echo(format_warnings(warnings), err=True)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pnp")
@click.option("--debug", is_flag=True, help="Show the traceback of an internal error (a bug in pnp).")
@click.option("--allow-dir", "allow_dir", expose_value=False, **_ALLOW_DIR)
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
@click.option("--proof", is_flag=True, default=None, help="Draw trim, bleed and safe-zone guides (-proof.pdf).")
@click.option("--print-shop", is_flag=True, help="Also write <design>-print-shop.pdf: one face per page, "
              "trim + bleed, TrimBox/BleedBox, backs after fronts.")
@click.option("--exports/--no-exports", default=True, show_default=True,
              help="PNG faces, Tabletop Simulator decks and index.html (the slowest part of a first build).")
@click.option("--cache/--no-cache", "use_cache", default=True, show_default=True,
              help="Reuse what earlier builds made (<out>/.cache); --no-cache makes everything again.")
@allow_dir_option
def build(designs: tuple[str, ...], out: Path, paper: str | None, orientation: str | None, duplex: str | None,
          back_offset: str | None, marks: str | None, proof: bool | None, print_shop: bool, exports: bool,
          use_cache: bool) -> None:
    """Build SVG faces, PDF print sheets and a manifest for each DESIGN.

    DESIGN is a design folder, its design.yaml, or the name of a folder under designs/;
    with none, every design under ./designs. Options override the designs' print settings.
    """
    from pnp.build import build_designs

    if back_offset is not None:  # plain numbers are mm here
        back_offset = ",".join(p if any(c.isalpha() for c in p) else f"{p.strip()}mm" for p in back_offset.split(","))
    overrides = {"orientation": orientation, "duplex": duplex, "back_offset": back_offset, "marks": marks,
                 "proof": proof}
    from pnp.cache import Cache

    cache = None if use_cache else Cache(None, memory=True)
    for result in build_designs(designs, out=out, paper=paper, overrides=overrides, print_shop=print_shop,
                                exports=exports, cache=cache):
        click.echo(result.summary())


@main.command(name="list")
@click.argument("designs", nargs=-1)
@allow_dir_option
def list_(designs: tuple[str, ...]) -> None:
    """List designs and their components with counts."""
    from pnp.build import describe_designs

    click.echo(describe_designs(designs))


@main.command()
@click.argument("designs", nargs=-1)
@click.option("-n", "--games", type=click.IntRange(min=0), default=200, show_default=True,
              help="Seeded random games per player count (0 skips the simulation check).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game.")
@click.option("--agent", type=click.Choice(["random", "greedy"]), default="random", show_default=True,
              help="Players of the simulation check.")
@allow_dir_option
def validate(designs: tuple[str, ...], games: int, seed: int, agent: str) -> None:
    """Check each DESIGN against its game's rules; exit 0 all pass, 1 a check fails, 2 bad input."""
    from pnp.validate import exit_code, format_report, validate as run_validate

    reports = run_validate(designs, games=games, seed=seed, agent=agent)
    click.echo(format_report(reports))
    sys.exit(exit_code(reports))


@main.command()
@click.argument("game")
@click.option("-n", "--games", type=click.IntRange(min=1), default=200, show_default=True, help="Games to play.")
@click.option("--players", type=int, default=None, help="Player count; default the design's fewest.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game (game i: seed+i).")
@click.option("--agent", type=click.Choice(["random", "greedy"]), default=None,
              help="Players' policy; default: the game's own choice (random for most games).")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable results.")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the game-length histogram and seat win rates as SVG.")
def simulate(game: str, games: int, players: int | None, seed: int, agent: str | None, as_json: bool,
             plot: Path | None) -> None:
    """Play seeded games of GAME (a design folder or its name) and report the statistics."""
    from pnp.simulate import run

    click.echo(run(game, games, players, seed, agent, as_json, plot))


@main.command()
@click.argument("designs", nargs=-1)
@click.option("--lang", type=click.Choice(["fr", "en"]), default=None,
              help="Only this language; default every language in the design's meta.languages.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="Folder to write into; each design gets a subfolder.")
@allow_dir_option
def rules(designs: tuple[str, ...], lang: str | None, out: Path) -> None:
    """Compile the rulebook PDFs of each DESIGN from its rules.<lang>.md.

    Writes OUT/<design>/<design>-rules-<lang>.pdf (pnp build writes them too).
    """
    from pnp.rulebook import build_rulebooks

    for path in build_rulebooks(designs, out=out, lang=lang):
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
    from pnp.watch import watch as run_watch

    run_watch(designs, out, paper, echo=click.echo)


@main.command()
@click.argument("name")
@click.option("--from", "source", default=None, metavar="DESIGN",
              help="Copy an existing design (a folder or a name under designs/) instead of the starter deck.")
def new(name: str, source: str | None) -> None:
    """Create designs/NAME: a design file, rules texts (en, fr) and a data-table deck that builds as is."""
    from pnp.errors import display_path
    from pnp.scaffold import new_design

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
    from pnp import registry
    from pnp.loader import load_design, resolve_design

    design = load_design(resolve_design(game))
    entry = registry.get_game(design.game) if design.game else None
    fn = entry.extras.get("loops") if entry else None
    if fn is None:
        raise PnpError(f"{design.slug}: game '{design.game}' has no loop analysis")
    if out is None:
        out = Path("output") / design.slug / f"{design.slug}-loops-{'layout' if layout else seed}.svg"
    click.echo(fn(design, out=out, layout_file=layout, seed=seed, players=players, agent=agent,
                  mode="first" if first_game else None))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
