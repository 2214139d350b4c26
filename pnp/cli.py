"""The `pnp` command: parses arguments and calls the library, nothing more.

Problems in the user's input (pnp.errors.PnpError) print as messages and exit 2;
anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pnp.errors import PnpError


class _Group(click.Group):
    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except PnpError as exc:
            click.echo(str(exc), err=True)
            ctx.exit(exc.exit_code)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pnp")
def main() -> None:
    """pnp: print-and-play components, print sheets and rules checks from YAML designs.

    A design is a folder with a design.yaml (see docs/design-format.md). With no
    DESIGN argument, commands use every design under ./designs (or the four
    embedded games).
    """


@main.command()
@click.argument("designs", nargs=-1)
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="Folder to write into; each design gets a subfolder.")
@click.option("--paper", type=click.Choice(["a4", "letter", "a3"]), default=None,
              help="Sheet size; overrides the design's print.paper.")
def build(designs: tuple[str, ...], out: Path, paper: str | None) -> None:
    """Build SVG faces, PDF print sheets and a manifest for each DESIGN.

    DESIGN is a design folder, its design.yaml, or the name of a folder under designs/.
    """
    from pnp.build import build_designs

    for result in build_designs(designs, out=out, paper=paper):
        click.echo(result.summary())


@main.command(name="list")
@click.argument("designs", nargs=-1)
def list_(designs: tuple[str, ...]) -> None:
    """List designs and their components with counts."""
    from pnp.build import describe_designs

    click.echo(describe_designs(designs))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
