"""One build's state lives in its `pnp.context.BuildContext`, not in module globals: the --allow-dir roots, the
warnings and the cache writes of one build are not seen by the next (issue 31, "state passed, not global")."""

from __future__ import annotations

import ast
import gc
import os
import shutil
import weakref
from pathlib import Path

from clirun import run

from pnp import errors
from pnp.build import build_designs
from pnp.cache import Cache
from pnp.confine import with_roots
from pnp.context import BuildContext, current
from pnp.errors import PnpError

TESTS = Path(__file__).resolve().parent
PNP = TESTS.parent / "pnp"


def shared_deck(tmp_path: Path) -> Path:
    """The deck-csv fixture with its data table moved to tmp/shared (readable only with --allow-dir shared)."""
    d = tmp_path / "d"
    shutil.copytree(TESTS / "fixtures" / "deck-csv", d)
    (tmp_path / "shared").mkdir()
    (d / "cards.csv").rename(tmp_path / "shared" / "cards.csv")
    yaml = d / "design.yaml"
    yaml.write_text(yaml.read_text(encoding="utf-8").replace("data: cards.csv", "data: ../shared/cards.csv", 1),
                    encoding="utf-8")
    return d


def test_allow_dir_roots_of_one_build_do_not_leak_into_the_next(tmp_path):
    d = shared_deck(tmp_path)
    with BuildContext(roots=with_roots((), [tmp_path / "shared"])).active():
        assert len(build_designs([str(d)], tmp_path / "out1", exports=())) == 1
    with BuildContext().active():  # the next build names no folder: the shared one is outside again
        try:
            build_designs([str(d)], tmp_path / "out2", exports=())
        except PnpError as exc:
            assert "outside the design folder" in str(exc)
        else:
            raise AssertionError("the second build read the first one's --allow-dir folder")
    assert current().roots == ()
    result = run(["build", "d", "--out", "out3", "--no-exports", "--allow-dir", "shared"], tmp_path)
    assert result.exit_code == 0, result.output
    assert current().roots == (), "the command's --allow-dir went into the process's context"
    assert run(["build", "d", "--out", "out4", "--no-exports"], tmp_path).exit_code == 2


def test_a_warning_of_one_build_is_not_printed_by_the_next(tmp_path):
    shutil.copytree(TESTS / "fixtures" / "deck-csv", tmp_path / "d")
    with BuildContext().active():
        errors.warn(tmp_path / "earlier.yaml", 3, "left by an earlier build")
    errors.warn(tmp_path / "library.yaml", 4, "left by a library caller")  # (the process's own context)
    try:
        result = run(["list", "d"], tmp_path)
        assert result.exit_code == 0, result.output
        assert "left by" not in result.output
        with BuildContext().active():
            assert errors.drain_warnings() == []
    finally:
        errors.drain_warnings()
    result = run(["list", "d"], tmp_path)
    with BuildContext().active() as ctx:
        errors.warn(tmp_path / "x.yaml", 1, "said once")
        assert [p.message for p in ctx.warnings.warnings] == ["said once"]
    assert "said once" not in run(["list", "d"], tmp_path).output


def test_a_build_contexts_cache_writes_are_flushed_and_the_next_starts_empty(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_KEY", "k" * 40)
    cache = Cache(tmp_path / "cache")
    with BuildContext().active() as first:
        cache.put_many("face", [(f"key{i}", f"<svg>{i}</svg>") for i in range(40)])  # enough for a writer process
        assert first.writer.pending or not hasattr(os, "fork")
    assert not first.writer.pending and not first.writer.queue and not first.writer.writers
    assert sorted(os.listdir(tmp_path / "cache" / "face")) == sorted(f"key{i}" for i in range(40))
    with BuildContext().active() as second:
        assert second.writer is not first.writer
        assert not second.writer.pending and not second.writer.queue and not second.writer.writers
        assert Cache(tmp_path / "cache").get("face", "key7") == "<svg>7</svg>"  # read back from disk
    ended = weakref.ref(first.writer)
    del first
    gc.collect()
    assert ended() is None, "an ended context's cache writer is still held (by an exit handler)"


# Module-level mutable containers (a dict, list or set literal or constructor assigned at module level) and
# `global` statements in pnp/, each with why it may be there. A new one fails: per-build state goes into
# pnp.context.BuildContext.
TABLE = "a constant table: written at import, only read after"
NAMES = "__all__: the module's public names"
MEMO = "a memo of a pure function (same input, same value, in any build): safe across builds"
REGISTRY = "a registry filled once (at import or discovery) with what the code ships: the same for every build"
ALLOWED = {
    "pnp.build": {"PAPER_NAMES": TABLE, "SCHEDULERS": TABLE},
    "pnp.cache": {"_DISKS": "open folder handles per cache folder: an OS resource, no build state (bounded)"},
    "pnp.cli": {"_ALLOW_DIR": TABLE, "_STOPS": "the signals that stopped the running command (process signal "
                "handlers), cleared by each command"},
    "pnp.confine": {"_GOOD": MEMO, "_LENGTH_ATTRS": TABLE, "_LENGTH_LISTS": TABLE, "_NUMBERS": TABLE},
    "pnp.data.services": {"NAMING_FIELDS": TABLE},
    "pnp.distributed": {"__all__": NAMES},
    "pnp.engine.records": {"_FOLDERS": REGISTRY, "_LOADED": "a memo of loaded designs by (folder, seed) for the "
                           "forked game workers of one distributed run",
                           "global _SHARED": "the games played within one `shared_games()` block (put back after it)"},
    "pnp.engine": {"__all__": NAMES},
    "pnp.engine.agents": {"AGENTS": REGISTRY},
    "pnp.engine.openspiel_adapter": {"_GAMES": MEMO + " (weak keys)", "_REGISTERED": REGISTRY},
    "pnp.errors": {"_FLAGS": TABLE},
    "pnp.exports.kit": {"PAGE_SIZES": TABLE},
    "pnp.render.typography": {"MONTHS": TABLE, "_ORDINALS": TABLE},
    "pnp.exports.print_service": {"KIND_TO_PRODUCT": TABLE},
    "pnp.exports.tts": {"CARD_TYPES": TABLE, "TILE_TYPES": TABLE},
    "pnp.fonts.make_subset": {"EXT_RANGES": TABLE, "FACES": TABLE, "RANGES": TABLE},
    "pnp.games.ishi_hama.diagrams": {"DIAGRAMS": REGISTRY},
    "pnp.games.ishi_hama.engine": {"STEP_WORDS": TABLE},
    "pnp.games.ishi_hama.facts": {"FORMS": TABLE, "LABELS": TABLE, "NOTHING": TABLE},
    "pnp.games.ishi_hama.painter": {"__all__": NAMES},
    "pnp.games.ishi_hama.scripts": dict.fromkeys(("BIG", "BIG_BOARD", "COMBO", "COMBO_BOARD", "CONNECTION",
                                                       "EXAMPLE", "EXAMPLE_BOARD", "PHASE1", "SCORE",
                                                       "SCORE_BOARD"), TABLE),
    "pnp.games.three_stars.diagrams": {"DIAGRAMS": REGISTRY},
    "pnp.games.three_stars.engine": {"BOARD_GEOMETRIES": TABLE},
    "pnp.games.three_stars.facts": {"CELL_NOUNS": TABLE},
    "pnp.games.three_stars.painter": {"PAINTERS": REGISTRY},
    "pnp.games.triloopite.diagrams": {"DIAGRAMS": REGISTRY},
    "pnp.games.triloopite.facts": {"WORDS": TABLE},
    "pnp.games.triloopite.scoring": {"BONUS_TEXT": TABLE},
    "pnp.games.triloopite.scripts": {"GENDERS": TABLE, "PLACEMENT_CASES": TABLE, "STANDARD_GAME": TABLE},
    "pnp.games.triloopite.witnesses": {"WITNESSES": TABLE},
    "pnp.games.tubo.diagrams": {"DIAGRAMS": REGISTRY},
    "pnp.games.tubo.facts": {"ZONES": TABLE},
    "pnp.games.tubo.geometry": {"DELTA": TABLE},
    "pnp.games.tubo.scripts": dict.fromkeys(("CLOSE_EXIT", "EXAMPLE", "LOOP", "PASS_OVER", "WRAP"), TABLE),
    "pnp.layout.pdfx": {"_RGB_OPS": TABLE},
    "pnp.layout.sheets": {"__all__": NAMES},
    "pnp.limits": {"LIMITS": TABLE + " (tests patch a limit with monkeypatch)"},
    "pnp.model": {"CARD_SIZES": TABLE, "_PATH_ARGS": TABLE},
    "pnp.output": {"_ACTIVE": "this process's staging folders in use: process-wide on purpose, so that no build "
                   "of the process takes another's staging folder for a stale one"},
    "pnp.parallel": {"_HELD": TABLE},
    "pnp.params": {"__all__": NAMES},
    "pnp.products": {"MADE_FROM": TABLE, "PRODUCTS": REGISTRY, "SOURCES": TABLE},
    "pnp.registry": {"DIAGRAMS": REGISTRY, "GAMES": REGISTRY, "GENERATORS": REGISTRY, "WORDLESS": REGISTRY,
                     "global _discovered": REGISTRY + " (whether discovery ran)"},
    "pnp.render.faces": {"_GIVEN": TABLE},
    "pnp.render.fonts": {"ALIASES": TABLE, "EXT": TABLE, "FAMILIES": TABLE, "FILES": TABLE, "_CMAPS": MEMO,
                         "_DATA": "design fonts registered with ReportLab, by a name made from their content "
                         "(the same entry in any build)", "_FACES": TABLE, "_registered": "the fonts registered with ReportLab "
                         "(process-wide in ReportLab)"},
    "pnp.render.markup": {"_HTML_SIZES": TABLE, "_KEYWORDS": TABLE, "_MM_PER": TABLE},
    "pnp.render.raster": {"_JOBS": "the jobs of one rasterising call, by token, for its forked workers; removed "
                          "when the call ends", "_OPEN": "this process's open pdfium documents of those jobs",
                          "global _next_token": "the next job token"},
    "pnp.render.sanitise": {"_ATTRIBUTE_OK": MEMO, "_FILES": MEMO + " (by content hash)"},
    "pnp.render.svg": {"_NAMES": MEMO},
    "pnp.render.svgpdf": {"__all__": NAMES},
    "pnp.render.svgpdf.compiler": {
        "EXPECTED": TABLE, "INHERITED": TABLE, "LOCAL": TABLE, "PARSERS": TABLE, "ROOT_STYLE": TABLE, "_EMPTY": TABLE,
        "_FONT_SIZES": TABLE, "_KIND": TABLE, "_SHAPES": TABLE, "_SILENT": TABLE, "_TEXT_BASELINES": TABLE,
        "_TRACKED": TABLE, "_UNSUPPORTED": TABLE, "_LINE_MEMO": MEMO, "_OPS_MEMO": MEMO, "_MEMO": MEMO,
        "_PARSED": MEMO, "_ROOTS": MEMO, "_TAG_NAMES": MEMO, "_image_cache": MEMO + " (by content key)",
        "global _layout": "the layout module, imported on first use"},
    "pnp.render.svgpdf.geometry": {"ARGS": TABLE},
    "pnp.render.svgpdf.ink": {"_FILLS": TABLE, "_STROKES": TABLE, "_TAKES": TABLE},
    "pnp.render.svgpdf.player": {"_ALPHAS": MEMO, "_LITERALS": MEMO, "_OPERATOR": TABLE, "_PATHS": MEMO,
                                 "_STATE": TABLE, "_TEMPLATES": TABLE},
    "pnp.render.svgpdf.values": {"PX_PER": TABLE, "_ALIGNS": TABLE, "_ARGS": TABLE,
                                 "global _NAMES": "the colour names table, read on first use"},
    "pnp.rulebook": {"_LANGUAGE_NAMES": TABLE, "__all__": NAMES},
    "pnp.rulebook.document": {"PAGE_SIZES": TABLE},
    "pnp.rulebook.figures": {"__all__": NAMES},
    "pnp.rulebook.markdown": {"_TO_PT": TABLE},
    "pnp.rulebook.rawhtml": {"RUNS": TABLE},
    "pnp.rulebook.words": dict.fromkeys(("ADJECTIVES", "COLOURS", "COLOURS_FEMININE", "COLOURS_PLURAL", "COLOUR_FORMS",
                                         "NOUNS", "PRONOUNS", "SIDES", "SIDE_LETTERS", "SYMBOLS", "VERBS"), TABLE),
    "pnp.sandbox": {"_PRINTF_KIND": TABLE, "_STR_WIDTH": TABLE},
    "pnp.scaffold": {"GAME_RULES": TABLE, "RULES": TABLE},
    "pnp.studio.server": {"ASSET_TYPES": TABLE},
    "pnp.localserver": {"HEADERS": TABLE},
    "pnp.play.server": {"ASSET_TYPES": TABLE, "__all__": NAMES},
    "pnp.play.session": {"__all__": NAMES},
    "pnp.sweep": {"SEAT_COLOURS": TABLE},
    "pnp.tables": {"_ODS": TABLE, "_SEPARATOR_NAMES": TABLE},
    "pnp.units": {"MM_PER_UNIT": TABLE},
}
_CONSTRUCTORS = {"dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque", "bytearray",
                 "WeakKeyDictionary", "WeakValueDictionary", "WeakSet"}


def _mutable(value: ast.expr) -> bool:
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    if isinstance(value, ast.Call):
        f = value.func
        return (f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else "") in _CONSTRUCTORS
    return False


def module_state(root: Path = PNP) -> dict[str, set[str]]:
    """Per module of pnp/: the names bound at module level to a mutable container, and `global NAME` statements."""
    found: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        if "compiled_templates" in path.parts:  # (Jinja2's output: a compiled template's own `blocks`, never changed)
            continue
        module = ".".join(path.relative_to(root.parent).with_suffix("").parts).removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = set()
        for node in tree.body:
            if isinstance(node, ast.Assign) and _mutable(node.value):
                targets = node.targets
            elif isinstance(node, ast.AnnAssign) and node.value is not None and _mutable(node.value):
                targets = [node.target]
            else:
                continue
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        names |= {f"global {name}" for n in ast.walk(tree) if isinstance(n, ast.Global) for name in n.names}
        if names:
            found[module] = names
    return found


def test_module_level_mutable_state_is_only_what_is_listed_with_its_reason():
    found = module_state()
    new = {f"{m}.{n}" for m, names in found.items() for n in names if n not in ALLOWED.get(m, {})}
    assert not new, f"module-level mutable state (put it in pnp.context.BuildContext, or list it with why): {new}"
    gone = {f"{m}.{n}" for m, names in ALLOWED.items() for n in names if n not in found.get(m, set())}
    assert not gone, f"listed but no longer there (remove from ALLOWED): {gone}"


def test_the_scan_sees_module_state(tmp_path):
    pkg = tmp_path / "pnp"
    pkg.mkdir()
    (pkg / "m.py").write_text("A: dict = {}\nB = list()\nC = 3\n\ndef f():\n    global D\n    D = 1\n")
    assert module_state(pkg) == {"pnp.m": {"A", "B", "global D"}}
