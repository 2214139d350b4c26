"""The layers of docs/architecture.md, enforced: which pnp modules may import which.

Every import in pnp/ is read from the source (ast), wherever it stands: at the top, inside a
function (lazy imports count: they still tie the layers together) or under TYPE_CHECKING. The
rules are the "Who may import whom" table of docs/architecture.md; change both together.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PNP = Path(__file__).resolve().parent.parent / "pnp"

# the data layer: reading and checking a design; it knows nothing of what is made from it
DATA = {"pnp.errors", "pnp.units", "pnp.limits", "pnp.yamlio", "pnp.confine", "pnp.sandbox", "pnp.tables", "pnp.decks",
        "pnp.model", "pnp.params", "pnp.loader", "pnp.output", "pnp.cache", "pnp.parallel", "pnp.progress", "pnp.data"}
# what sits above the drawing layers: commands and the products made from the drawings
ABOVE_DRAWING = {"pnp.rulebook", "pnp.build", "pnp.export", "pnp.index", "pnp.validate", "pnp.simulate",
                 "pnp.sweep", "pnp.distributed", "pnp.watch", "pnp.scaffold", "pnp.cli"}
ENGINE_USERS = {"pnp.validate", "pnp.simulate", "pnp.sweep", "pnp.distributed", "pnp.cli"}
# the shipped fonts' table: the data layer checks a design's fonts: section against it (a family may not take a
# generic name; a font file must be one the PDF can embed), as it checks colours and lengths
SHARED = {"pnp.render.fonts"}

# (importing modules, the prefixes they must not import, why)
RULES = [
    (DATA, {"pnp.render", "pnp.layout", "pnp.engine", "pnp.games"} | ABOVE_DRAWING,
     "the data layer feeds the others and imports none of them"),
    ({"pnp.render", "pnp.layout"}, {"pnp.engine", "pnp.games"} | ABOVE_DRAWING,
     "drawing and placing know faces and sheets, not rulebooks, commands or rules engines"),
    ({"pnp.rulebook"}, {"pnp.games"} | ABOVE_DRAWING - {"pnp.rulebook"},
     "the rulebook layer is called by build and never calls it back"),
    ({"pnp.engine"}, {"pnp.render", "pnp.layout", "pnp.games"} | ABOVE_DRAWING,
     "an engine plays a design's rules; what prints them is not its business"),
    ({"pnp.export", "pnp.exports", "pnp.index"}, {"pnp.games", "pnp.build", "pnp.rulebook"} | ENGINE_USERS,
     "products of a build are made from its faces and sheets"),
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PNP.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(source: str, module: str, is_package: bool) -> set[str]:
    """Every pnp module (or name under one) that `source` imports, relative imports resolved."""
    package = module if is_package else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found |= {f"{target}.{a.name}" for a in node.names}  # `from pnp.games import tubo` names a module
    return {name for name in found if name == "pnp" or name.startswith("pnp.")}


def under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def game_of(module: str) -> str | None:
    """`pnp.games.tubo.engine` -> 'pnp.games.tubo'; None outside a game package."""
    parts = module.split(".")
    return ".".join(parts[:3]) if len(parts) >= 3 and parts[:2] == ["pnp", "games"] else None


def violations(sources: dict[str, tuple[str, bool]]) -> list[str]:
    """Each import that breaks a rule, once per importer and forbidden part: 'importer imports part
    (the name imported): why'."""
    found: dict[tuple[str, str], str] = {}
    for module, (source, is_package) in sorted(sources.items()):
        mine = game_of(module)
        for name in sorted(imported(source, module, is_package)):
            theirs = game_of(name)
            if theirs and theirs != mine:
                # registry.discover imports the namespace package pnp.games, never a game by name
                found.setdefault((module, theirs), f"{name}): only a game's own package imports it "
                                                   "(the core finds games through the registry)")
            if under(name, "pnp.cli") and module != "pnp.cli":
                found.setdefault((module, "pnp.cli"), f"{name}): the CLI only parses arguments; nothing imports it")
            for importers, banned, why in RULES:
                if not any(under(module, p) for p in importers):
                    continue
                for prefix in banned:
                    if under(name, prefix) and not under(module, prefix) and not any(under(name, m) for m in SHARED):
                        found.setdefault((module, prefix), f"{name}): {why}")
    return [f"{module} imports {part} ({rest}" for (module, part), rest in sorted(found.items())]


def package_sources() -> dict[str, tuple[str, bool]]:
    return {module_name(p): (p.read_text(encoding="utf-8"), p.name == "__init__.py")
            for p in sorted(PNP.rglob("*.py"))}


def test_the_package_keeps_its_layers():
    sources = package_sources()
    assert len(sources) > 50 and "pnp.games.tubo.engine" in sources  # the scan sees the whole package
    assert violations(sources) == []


def test_no_module_imports_svgwrite():
    """pnp.render.svg writes the SVG text (svgwrite, no longer developed, is the reference of its test only)."""
    users = [m for m, (src, pkg) in package_sources().items()
             if any(under(n, "svgwrite") for n in _all_imports(src))]
    assert users == []


def _all_imports(source: str) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.add(node.module or "")
    return names


@pytest.mark.parametrize(("module", "source", "expected"), [
    ("pnp.render.faces", "def f():\n    from pnp.games.tubo import engine\n",
     "pnp.render.faces imports pnp.games.tubo (pnp.games.tubo): only a game's own package"),
    ("pnp.rulebook.document", "from ..games import tubo\n",
     "pnp.rulebook.document imports pnp.games.tubo (pnp.games.tubo): only a game's own package"),
    ("pnp.games.tubo.facts", "from pnp.games.ishi_hama.facts import label\n",
     "pnp.games.tubo.facts imports pnp.games.ishi_hama (pnp.games.ishi_hama.facts): only a game's own package"),
    ("pnp.rulebook", "import pnp.build\n", "pnp.rulebook imports pnp.build (pnp.build): the rulebook layer"),
    ("pnp.model", "from pnp.render.svg import Canvas\n",
     "pnp.model imports pnp.render (pnp.render.svg): the data layer"),
    ("pnp.loader", "from . import validate\n", "pnp.loader imports pnp.validate (pnp.validate): the data layer"),
    ("pnp.engine.agents", "from pnp.layout import pdf\n",
     "pnp.engine.agents imports pnp.layout (pnp.layout): an engine"),
    ("pnp.build", "from pnp.cli import main\n", "pnp.build imports pnp.cli (pnp.cli): the CLI only parses"),
])
def test_a_crossing_import_is_named(module, source, expected):
    found = violations({module: (source, False)})
    assert any(v.startswith(expected) for v in found), found


def test_allowed_imports_pass():
    allowed = {
        "pnp.games.tubo.engine": ("from pnp.games.tubo.geometry import Board\nfrom pnp.engine.api import State\n",
                                  False),
        "pnp.registry": ("def discover():\n    import pnp.games as games_pkg\n", False),
        "pnp.build": ("from pnp.rulebook import build_rulebooks\nfrom pnp.layout.pdf import x\n", False),
        "pnp.rulebook.figures": ("from pnp.render.svg import Canvas\nfrom pnp.rulebook.words import w\n", False),
    }
    assert violations(allowed) == []


def test_a_design_without_a_game_is_built_without_pydantic(tmp_path):
    """pnp.model validates with pydantic-core alone: importing pydantic and building its models took a third of
    every command's start-up. A design without a game (a designer's own deck) never loads pydantic itself; the
    games' params and rules models (pnp.params) do, for their designs only."""
    deck = Path(__file__).resolve().parent / "fixtures" / "deck-csv"
    code = ("import sys\nfrom pnp.cli import main\n"
            f"try:\n    main(['build', {str(deck)!r}, '--no-exports', '--out', {str(tmp_path)!r}])\n"
            "except SystemExit as exc:\n    assert exc.code == 0, exc.code\n"
            "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith('pydantic')}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "['pydantic_core']"
    assert (tmp_path / "deck-csv" / "index.html").is_file()
