"""Shared fixtures: designs are built once per session into temporary folders and measured there."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest


# One content-hash cache for the whole session (PNG exports of the same faces are made once), in each test process:
# a worker of pytest-xdist inherits the folders its parent made and makes its own (its key, below, is its own too);
# a cache the user names in PNP_CACHE_DIR is used as it is. Tests that count what a rebuild makes pass their own
# pnp.cache.Cache.
def _own_folder(prefix: str) -> str:
    """A temporary folder of this test process, removed when the process ends."""
    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, True)
    return folder


if "PNP_CACHE_DIR" not in os.environ or os.environ.get("PNP_TEST_OWN_CACHE"):
    os.environ["PNP_CACHE_DIR"] = _own_folder("pnp-test-cache-")
    os.environ["PNP_TEST_OWN_CACHE"] = "1"
# The key that signs cache entries (pnp.cache.secret) is made in a folder of the process's, never in the user's own
# ~/.config; a key in the environment would be used instead of it.
os.environ["XDG_CONFIG_HOME"] = _own_folder("pnp-test-config-")
os.environ.pop("PNP_CACHE_KEY", None)

from pnp.build import build_designs  # noqa: E402  (after the environment above is set)

ROOT = Path(__file__).resolve().parent.parent
DESIGNS = ROOT / "designs"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
MM = 72 / 25.4  # points per mm


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite the snapshots under tests/golden/ (SVG text, output hashes) from what the code "
                          "makes now (then review them with git diff)")


def stars_numbers() -> dict:
    """Numbers the 3 Stars tests check against, read from the design (stated there once)."""
    import yaml

    d = yaml.safe_load((DESIGNS / "three-stars" / "design.yaml").read_text(encoding="utf-8"))
    pieces = d["components"]["pieces"]
    return {"per_colour": pieces["count"], "colours": len(pieces["params"]["colours"]),
            "pieces": pieces["count"] * len(pieces["params"]["colours"])}


@pytest.fixture(scope="session")
def three_stars_a4(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("a4")
    build_designs([str(DESIGNS / "three-stars")], out=out)
    return out / "three-stars"


@pytest.fixture(scope="session")
def three_stars_letter(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("letter")
    build_designs([str(DESIGNS / "three-stars")], out=out, paper="letter")
    return out / "three-stars"


@pytest.fixture
def design_copy(tmp_path):
    """Copy a design folder (from designs/ or tests/fixtures/) into tmp_path and return the copy."""

    def copy(name: str) -> Path:
        src = DESIGNS / name if (DESIGNS / name).is_dir() else FIXTURES / name
        dst = tmp_path / "designs" / name
        shutil.copytree(src, dst)
        return dst

    return copy


@pytest.fixture
def update_golden(request) -> bool:
    return bool(request.config.getoption("--update-golden"))


# --- a real browser (tests/test_index_browser.py, tests/test_studio_browser.py) ------------------------------------

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing = "Playwright for Python is not installed (pip install -e '.[test]')"
    else:
        missing = "" if CHROMIUM.is_file() else f"{CHROMIUM} is not installed (apt-get install chromium)"
    if missing:
        if os.environ.get("PNP_REQUIRE_BROWSER") == "1":
            pytest.fail(f"PNP_REQUIRE_BROWSER=1 and {missing}")
        pytest.skip(missing)
    with sync_playwright() as p:
        # the browser a designer has: not the FONTCONFIG_FILE that tests/svgpdf_pixels.py points at pnp's fonts for
        # cairosvg in this process (with it Chromium lays text out with other advances than the font files give)
        env = {k: v for k, v in os.environ.items() if k != "FONTCONFIG_FILE"}
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, env=env)
        yield b
        b.close()




# --- the game `pnp new NAME --engine` makes, registered for one test (tests/test_play*.py) ---------------------------

@pytest.fixture
def scaffolded_game(tmp_path, monkeypatch):
    """The design folder of a game made by `pnp new pile-game --engine`, its package imported and registered for
    the test alone (the registry's tables are as they were afterwards)."""
    import importlib
    import sys

    from click.testing import CliRunner

    from pnp import registry
    from pnp.cli import main

    monkeypatch.chdir(tmp_path)
    made = CliRunner().invoke(main, ["new", "pile-game", "--engine"])
    assert made.exit_code == 0, made.output
    tables = (registry.GAMES, registry.GENERATORS, registry.DIAGRAMS)
    kept = [dict(t) for t in tables]
    wordless = set(registry.WORDLESS)
    monkeypatch.syspath_prepend(str(tmp_path / "pile-game"))
    module = importlib.import_module("pile_game")
    registry.register_game(module.GAME)
    yield tmp_path / "pile-game" / "designs" / "pile-game"
    for table, was in zip(tables, kept):
        table.clear()
        table.update(was)
    registry.WORDLESS.clear()
    registry.WORDLESS.update(wordless)
    for name in [m for m in sys.modules if m == "pile_game" or m.startswith("pile_game.")]:
        del sys.modules[name]
