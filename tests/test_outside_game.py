"""A game in its own package, as `pnp new NAME --engine` makes it, installed into a fresh virtual
environment outside the pnp source tree: pnp finds it through the `pnp.games` entry point alone.

The new environment sees the running one's packages (pnp and its dependencies: a .pth file,
like --system-site-packages) so nothing is downloaded; the game package itself is built (by
hatchling, a test dependency, without build isolation) and installed by pip, which writes the
entry point pnp reads. About 25 s on a busy 2-core machine, 8 s of it CPU.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest


def run(args: list, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the scaffolded package folder, the new environment's python, environment variables)."""
    root = tmp_path_factory.mktemp("outside")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PNP_CACHE_DIR"] = str(root / "cache")
    made = run([sys.executable, "-m", "pnp.cli", "new", "my-game", "--engine"], root, env)
    assert made.returncode == 0, made.stderr
    package = root / "my-game"
    venv = root / "venv"
    assert run([sys.executable, "-m", "venv", "--without-pip", venv], root, env).returncode == 0
    site = Path(sysconfig.get_path("purelib", vars={"base": str(venv), "platbase": str(venv)}))
    parent = sysconfig.get_paths()["purelib"]
    (site / "_pnp_parent.pth").write_text(f"import site; site.addsitedir({parent!r})\n", encoding="utf-8")
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    isolation = [] if importlib.util.find_spec("hatchling") is None else ["--no-build-isolation"]
    pip = run([python, "-m", "pip", "install", "--quiet", "--no-deps", *isolation, package], root, env)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    return package, python, env


def test_the_scaffold_is_a_package_with_its_entry_point(installed):
    package, _, _ = installed
    assert sorted(p.relative_to(package).as_posix() for p in package.rglob("*") if p.is_file()) == [
        "README.md", "designs/my-game/design.yaml", "designs/my-game/rules.en.md", "designs/my-game/rules.fr.md",
        "my_game/__init__.py", "my_game/checks.py", "my_game/components.py", "my_game/diagrams.py",
        "my_game/engine.py", "pyproject.toml", "tests/test_my_game.py"]
    assert '[project.entry-points."pnp.games"]\nmy_game = "my_game:GAME"' in (package / "pyproject.toml").read_text()


def test_pnp_validates_and_simulates_the_installed_game(installed):
    package, python, env = installed
    validate = run([python, "-m", "pnp.cli", "validate", "-n", "10"], package, env)
    assert validate.returncode == 0, validate.stdout + validate.stderr
    assert "my-game (My Game): all checks pass" in validate.stdout and "4 of 4 checks pass" in validate.stdout
    simulate = run([python, "-m", "pnp.cli", "simulate", "my-game", "-n", "40", "--json"], package, env)
    assert simulate.returncode == 0, simulate.stdout + simulate.stderr
    result = json.loads(simulate.stdout)
    assert result["games"] == 40 and result["draws"] == 0  # someone takes the last counter in every game
    # the same design without the package installed: pnp does not know the game
    outside = run([sys.executable, "-m", "pnp.cli", "validate", "-n", "0"], package, env)
    assert outside.returncode == 2 and "unknown game 'my_game'" in outside.stderr


def test_the_packages_own_tests_pass_with_the_shared_invariants(installed):
    package, python, env = installed
    tests = run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], package, env)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "2 passed" in tests.stdout
