"""The `pnp` command run in-process from a given folder, as a designer runs it from theirs (relative paths in
arguments and messages are read from there)."""

from __future__ import annotations

import contextlib
from pathlib import Path

from click.testing import CliRunner, Result

from pnp.cli import main


def run(args: list[str], cwd: Path) -> Result:
    with contextlib.chdir(cwd):
        return CliRunner().invoke(main, args)
