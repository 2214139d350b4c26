"""What each import inside a function of pnp/ would cost at the top of its module, re-measured.

    python bench/lazy_imports.py [--runs 5] [--module pnp.render.textbox] [--json] [--all]

An import stays inside a function only where its cost was measured, with the figure in a comment
beside it (tests/test_layers.py fails on one without):

    from reportlab.platypus import Paragraph  # lazy: 38 ms (reportlab.platypus)
    from pnp.build import build_design  # lazy: cycle pnp.validate -> pnp.build -> pnp.validate
    import dask  # lazy: optional (dask)

The figure is what the import statement itself takes in a fresh process that has already imported
the importing module (`import pnp.X`, then the statement timed with perf_counter; median of --runs
processes): what moving it to the top would add to every process that imports pnp.X. An import
under about 1 ms, or of modules the importer has already loaded, belongs at the top.

`cycle` marks an import whose target, through the top-level imports, imports the importer again
(moving it up would tie the two modules into an import cycle); `optional` one of an extra that may
be absent (guarded by `except ImportError`, or naming the extra in its message).

The script prints, for each import inside a function, its module:line, the figure stated and the
figure measured now; with --all the imports without a figure too (those whose comment is a cycle or
an optional extra are not timed).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PNP = ROOT / "pnp"
LAZY = re.compile(r"#.*?\blazy: (?:(?P<ms>\d+(?:\.\d+)?) ms \((?P<what>[\w.]+(?:, [\w.]+)*)\)"
                  r"|cycle (?P<cycle>[\w.]+(?: -> [\w.]+)+)|optional \((?P<optional>[\w.]+)\))")

PROBE = """
import importlib, sys, time
importlib.import_module({module!r})
loaded = all(m in sys.modules for m in {targets!r})
code = compile({statement!r}, "<lazy>", "exec")
scope = {{"__name__": {module!r}, "__package__": {package!r}}}
t = time.perf_counter()
exec(code, scope)
print((time.perf_counter() - t) * 1000, loaded)
"""


@dataclass
class Lazy:
    module: str
    path: str
    line: int
    end: int
    statement: str  # the import as one line, as it would read at the top
    targets: list[str]  # the modules it loads (absolute)
    comment: str  # the `lazy:` comment, '' when it has none
    guarded: bool  # inside a try that catches ImportError


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PNP.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_of(module: str, is_package: bool) -> str:
    return module if is_package else module.rpartition(".")[0]


def statement_text(node: ast.Import | ast.ImportFrom) -> str:
    names = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in node.names)
    if isinstance(node, ast.Import):
        return f"import {names}"
    return f"from {'.' * node.level}{node.module or ''} import {names}"


def targets_of(node: ast.Import | ast.ImportFrom, package: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        base = package.split(".")[: len(package.split(".")) - node.level + 1]
        return [".".join(base + ([node.module] if node.module else []))]
    return [node.module or ""]


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(k, ast.Name) and k.id in {"ImportError", "ModuleNotFoundError"} for k in kinds)


def lazy_imports(source: str, module: str, is_package: bool, path: str = "") -> list[Lazy]:
    """Every import statement inside a function (or lambda) body of `source`, in line order."""
    lines = source.splitlines()
    package = package_of(module, is_package)
    found: list[Lazy] = []

    def visit(node: ast.AST, inside: bool, guarded: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if inside and isinstance(child, (ast.Import, ast.ImportFrom)):
                text = "\n".join(lines[child.lineno - 1: child.end_lineno])
                m = LAZY.search(text)
                found.append(Lazy(module, path, child.lineno, child.end_lineno or child.lineno, statement_text(child),
                                  targets_of(child, package), m.group(0)[m.group(0).index("lazy:"):] if m else "",
                                  guarded))
            now_guarded = guarded or (isinstance(child, ast.Try) and any(map(_catches_import_error, child.handlers)))
            visit(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)),
                  now_guarded)

    visit(ast.parse(source), False, False)
    return sorted(found, key=lambda x: x.line)


def all_lazy_imports() -> list[Lazy]:
    out = []
    for p in sorted(PNP.rglob("*.py")):
        out += lazy_imports(p.read_text(encoding="utf-8"), module_name(p), p.name == "__init__.py",
                            str(p.relative_to(ROOT)))
    return out


def probe(lazy: Lazy, is_package: bool) -> tuple[float, bool] | str:
    """(ms, already loaded) for one fresh process, or the error the statement raised."""
    code = PROBE.format(module=lazy.module, targets=lazy.targets, statement=lazy.statement,
                        package=package_of(lazy.module, is_package))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    if done.returncode:
        return (done.stderr.strip().splitlines() or ["failed"])[-1]
    ms, loaded = done.stdout.split()[-2:]
    return float(ms), loaded == "True"


def measure(lazy: Lazy, runs: int) -> dict:
    """The median of `runs` fresh processes (3 first; the rest only for figures above 0.3 ms)."""
    is_package = lazy.path.endswith("__init__.py")
    figures: list[float] = []
    loaded = True
    for i in range(runs):
        got = probe(lazy, is_package)
        if isinstance(got, str):
            return {"error": got}
        figures.append(got[0])
        loaded = loaded and got[1]
        if i == 2 and statistics.median(figures) < 0.3:
            break
    return {"ms": round(statistics.median(figures), 2), "loaded": loaded, "runs": len(figures)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="fresh processes per import (median)")
    ap.add_argument("--module", action="append", help="only this module (repeatable)")
    ap.add_argument("--all", action="store_true", help="also the imports whose comment states no figure")
    ap.add_argument("--json", action="store_true", help="one JSON object a line")
    ap.add_argument("--jobs", type=int, default=2, help="processes measuring at once")
    args = ap.parse_args(argv)
    found = [x for x in all_lazy_imports() if not args.module or x.module in args.module]
    timed = [x for x in found if args.all or (LAZY.search("# " + x.comment) and "ms" in x.comment)]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda x: measure(x, args.runs), timed))
    for x, r in zip(timed, results):
        if args.json:
            print(json.dumps({**asdict(x), **r}))
            continue
        now = r.get("error") or f"{r['ms']:.2f} ms" + (" (already loaded)" if r["loaded"] else "")
        print(f"{x.path}:{x.line}: {x.statement}\n    stated: {x.comment or '-'}\n    measured: {now}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
