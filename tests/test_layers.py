"""The layers of docs/architecture.md, enforced: which pnp modules may import which.

Every import in pnp/ is read from the source (ast), wherever it stands: at the top, inside a
function (lazy imports count: they still tie the layers together) or under TYPE_CHECKING. The
rules are the "Who may import whom" table of docs/architecture.md; change both together.
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

PNP = Path(__file__).resolve().parent.parent / "pnp"

# the data layer: reading and checking a design; it knows nothing of what is made from it
DATA = {"pnp.errors", "pnp.units", "pnp.limits", "pnp.yamlio", "pnp.confine", "pnp.sandbox", "pnp.tables", "pnp.decks",
        "pnp.model", "pnp.params", "pnp.loader", "pnp.output", "pnp.cache", "pnp.parallel", "pnp.progress", "pnp.data",
        "pnp.products", "pnp.context", "pnp.words", "pnp.spooled"}
# what sits above the drawing layers: commands and the products made from the drawings
ABOVE_DRAWING = {"pnp.rulebook", "pnp.build", "pnp.exports.files", "pnp.index", "pnp.validate", "pnp.simulate",
                 "pnp.sweep", "pnp.distributed", "pnp.watch", "pnp.studio", "pnp.play", "pnp.printed", "pnp.printed_state",
                 "pnp.scaffold", "pnp.cli"}
ENGINE_USERS = {"pnp.validate", "pnp.simulate", "pnp.sweep", "pnp.distributed", "pnp.play", "pnp.cli"}
# the shipped fonts' table: the data layer checks a design's fonts: section against it (a family may not take a
# generic name; a font file must be one the PDF can embed), as it checks colours and lengths
SHARED = {"pnp.render.fonts"}
# the exports' planners (pnp/exports/ but `files`, which makes the export files from a built design with them)
PLANNERS = {"pnp.exports.tts", "pnp.exports.print_service", "pnp.exports.kit"}

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
    ({"pnp.exports", "pnp.index"}, {"pnp.games", "pnp.build", "pnp.rulebook"} | ENGINE_USERS,
     "products of a build are made from its faces and sheets"),
    (PLANNERS, {"pnp.exports.files", "pnp.cache", "pnp.products", "pnp.output", "pnp.confine", "pnp.render.raster"},
     "a planner takes plain data and returns what to make; the cache, pixels and files are pnp.exports.files's"),
    ({"pnp.build"}, {"pnp.validate"}, "validate builds a design; build reads a game's checks from pnp.engine.checks"),
    ({"pnp.printed_state"}, {"pnp.games", "pnp.build", "pnp.rulebook", "pnp.printed"} | ENGINE_USERS,
     "printed states are compared with a design built by others (the commands, the contact sheet)"),
]

# the command modules: what a game, or a designer's package made by `pnp new --engine`, never imports (a game
# gives pnp its parts through pnp.registry and uses the engine, render and rulebook layers)
COMMANDS = {"pnp.build", "pnp.validate", "pnp.cli", "pnp.exports.files", "pnp.simulate", "pnp.watch", "pnp.sweep",
            "pnp.distributed", "pnp.scaffold", "pnp.index", "pnp.studio", "pnp.play", "pnp.printed"}

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
    # a new module in pnp/exports/ is a planner (listed in PLANNERS) or goes beside `files` in these rules
    assert {m for m in sources if under(m, "pnp.exports")} == PLANNERS | {"pnp.exports", "pnp.exports.files"}


def commands_imported(sources: dict[str, tuple[str, bool]]) -> set[tuple[str, str]]:
    """(module, command module) for each command module a module imports."""
    return {(module, command) for module, (source, is_package) in sources.items()
            for name in imported(source, module, is_package) for command in COMMANDS if under(name, command)}


def test_no_game_imports_a_command():
    games = {m: v for m, v in package_sources().items() if game_of(m)}
    assert len({game_of(m) for m in games}) >= 4  # every shipped game is read
    assert commands_imported(games) == set()


def test_a_game_importing_a_command_is_found():
    source = "from pnp.validate import CheckResult\ndef f():\n    import pnp.build\n"
    assert commands_imported({"pnp.games.tubo.checks": (source, False)}) == {
        ("pnp.games.tubo.checks", "pnp.validate"), ("pnp.games.tubo.checks", "pnp.build")}


def test_a_scaffolded_game_imports_no_command(tmp_path):
    """`pnp new NAME --engine` writes a designer's package: its modules import the engine layer, not commands."""
    code = "from pnp.cli import main\nmain(['new', 'my-game', '--engine'])\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    files = sorted((tmp_path / "my-game").rglob("*.py"))
    sources = {".".join(f.relative_to(tmp_path / "my-game").with_suffix("").parts): (f.read_text(encoding="utf-8"),
                                                                                        f.name == "__init__.py")
               for f in files}
    assert "my_game.checks" in sources and "CheckResult" in sources["my_game.checks"][0]
    assert commands_imported(sources) == set()
    assert "pnp.engine.checks" in imported(sources["my_game.checks"][0], "my_game.checks", False)


def _bench_lazy():
    """bench/lazy_imports.py, which finds the imports inside functions and reads their `# lazy:` comments."""
    spec = importlib.util.spec_from_file_location("lazy_imports", PNP.parent / "bench" / "lazy_imports.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("lazy_imports", module)
    spec.loader.exec_module(module)
    return module


LAZY = _bench_lazy()
EXTRAS = set(tomllib.loads((PNP.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"]
             ["optional-dependencies"])


def top_level_imports(source: str, module: str, is_package: bool) -> set[str]:
    """The modules an import at import time names: outside every function body (class bodies, if and try count)."""
    tree = ast.parse(source)
    outside = ast.Module(body=[], type_ignores=[])

    def keep(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                outside.body.append(child)
            keep(child)

    keep(tree)
    return imported(ast.unparse(outside), module, is_package)


def lazy_problems(source: str, module: str, is_package: bool, modules: dict[str, tuple[str, bool]]) -> list[str]:
    """What is wrong with the imports inside functions of one module: each needs a `# lazy:` comment stating its
    measured cost (1 ms or more: under that it belongs at the top), the import cycle it avoids (each step an
    import at the top of the module before it) or the optional extra it needs."""
    problems = []
    for lazy in LAZY.lazy_imports(source, module, is_package):
        where = f"{module}:{lazy.line}: {lazy.statement}"
        m = LAZY.LAZY.search("# " + lazy.comment) if lazy.comment else None
        if not m:
            problems.append(f"{where}: no '# lazy:' comment (measure it: python bench/lazy_imports.py --all)")
        elif m["ms"] and float(m["ms"]) < 1:
            problems.append(f"{where}: {m['ms']} ms belongs at the top of the module")
        elif m["optional"] and m["optional"] not in EXTRAS:
            problems.append(f"{where}: {m['optional']} is not an optional extra of pyproject.toml")
        elif m["cycle"]:
            steps = [_module_named(s, module, modules) for s in m["cycle"].split(" -> ")]
            if steps[0] != module or steps[-1] != module:
                problems.append(f"{where}: the cycle must start and end at {module}")
            for a, b in zip(steps[1:], steps[2:]):
                if a not in modules or not any(under(n, b) for n in top_level_imports(modules[a][0], a, modules[a][1])):
                    problems.append(f"{where}: {a} does not import {b} at its top")
    return problems


def _module_named(name: str, importer: str, modules: dict[str, tuple[str, bool]]) -> str:
    """`name` as written in a cycle: a module's full name, or its name below the package it shares with the
    importer (`components -> circles -> components` in pnp.games.three_stars)."""
    if name in modules:
        return name
    parts = importer.split(".")
    for i in range(len(parts) - 1, 0, -1):
        if (full := ".".join(parts[:i] + [name])) in modules:
            return full
    return name


def test_every_import_inside_a_function_states_why():
    sources = package_sources()
    problems = [p for m, (src, pkg) in sorted(sources.items()) for p in lazy_problems(src, m, pkg, sources)]
    assert problems == []


@pytest.mark.parametrize("source, expected", [
    ("def f():\n    import json\n", "no '# lazy:' comment"),
    ("def f():\n    import json  # lazy: 0.4 ms (json)\n", "belongs at the top"),
    ("def f():\n    import dask  # lazy: optional (dask)\n", "not an optional extra"),
    ("def f():\n    from pnp import cli  # lazy: cycle pnp.x -> pnp.cli -> pnp.x\n", "pnp.cli does not import pnp.x"),
    ("def f():\n    from pnp import cli  # lazy: cycle pnp.cli -> pnp.x\n", "must start and end at pnp.x"),
])
def test_an_unexplained_lazy_import_is_named(source, expected):
    modules = package_sources()
    problems = lazy_problems(source, "pnp.x", False, {**modules, "pnp.x": (source, False)})
    assert len(problems) == 1 and expected in problems[0]
    assert problems[0].startswith("pnp.x:2: ")


def test_explained_lazy_imports_pass():
    source = ("def f():\n    import json  # lazy: 2.5 ms (json)\n    import dask  # lazy: optional (cluster)\n"
              "    from pnp.context import current  # lazy: cycle pnp.cache -> pnp.context -> pnp.cache\n")
    modules = package_sources()
    assert lazy_problems(source, "pnp.cache", False, modules) == []
    short = ("def f():\n    from pnp.games.three_stars.circles import round_pieces"
             "  # lazy: cycle components -> circles -> components\n")
    assert lazy_problems(short, "pnp.games.three_stars.components", False, modules) == []


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
    ("pnp.build", "def f():\n    from pnp.validate import check_design\n",
     "pnp.build imports pnp.validate (pnp.validate): validate builds"),
    ("pnp.exports.tts", "from pnp.cache import Cache\n", "pnp.exports.tts imports pnp.cache (pnp.cache): a planner"),
    ("pnp.exports.kit", "def f():\n    from pnp.exports.files import kit_files\n",
     "pnp.exports.kit imports pnp.exports.files (pnp.exports.files): a planner"),
    ("pnp.exports.files", "from pnp.build import BuiltDesign\n",
     "pnp.exports.files imports pnp.build (pnp.build): products of a build"),
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
        "pnp.exports.files": ("from pnp.cache import Cache\nfrom pnp.exports.tts import plan_tts\n", False),
        "pnp.exports.kit": ("from pnp.render import fonts\nfrom pnp.units import mm_to_pt\n", False),
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
