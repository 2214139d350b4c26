"""Hostile templates, rules texts and sheets against pnp's rendering budgets (issue 29): each case is a whole
`pnp build` (or `pnp rules`) process of a copy of tests/fixtures/deck-csv, run alone under a memory limit;
prints its exit status, wall seconds, peak RSS (the process and its workers) and first line.

    python bench/template_budgets.py [--pnp PATH] [--timeout 45] [--memory-mb 2000] [--check] [CASE...]

--pnp runs another pnp (e.g. an older checkout's, to compare); --check fails unless every case ends with
exit 2 and a `file:line` message within 5 s and under 400 MB. Figures of a run are quoted in the commit that
made them true, with the machine's cores.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "deck-csv"

CASES: dict[str, tuple[str, str]] = {  # name: (where, text): where is "template", "rules" or "ods"
    "lipsum": ("template", "{{ lipsum(100000)|length }}"),
    "map-upper": ("template", "{{ (['x' * 1000000] * 1000000)|map('upper')|join|length }}"),
    "map-center": ("template", "{{ ([1] * 1000000)|map('string')|map('center', 1000000)|list|length }}"),
    "map-chain": ("template", "{{ ([1] * 1000000)|map('string')|map('string')|map('string')|list|length }}"),
    "sum-lists": ("template", "{{ ([[0] * 999] * 1000)|sum(start=[])|length }}"),
    "loop-megabytes": ("template", "{% for i in range(10000) %}{% for j in range(99) %}{% set x = 'x' * 1000000 %}"
                                   "{% endfor %}{% endfor %}"),
    "format-nested-width": ("template", "{{ '{0:{1}}'.format('x', 1500000000)|length }}"),
    "format-many-fields": ("template", "{{ ('{:1000000}' * 1000).format(*range(1000))|length }}"),
    "printf-many-fields": ("template", "{{ ('%1000000s' * 1000) % ((1,) * 1000) }}"),
    "translate": ("template", "{{ ('x' * 1000000).translate({120: 'y' * 1000000})|length }}"),
    "list-printed": ("template", "{% set a = ['x' * 1000] * 1000 %}{{ [a, a, a, a, a, a, a, a, a, a] }}"),
    "nested-list": ("template", "{% set a = [0] * 1000 %}{% set b = [a, a, a, a, a, a, a, a, a, a] %}"
                                "{% set c = [b, b, b, b, b, b, b, b, b, b] %}{% set d = [c] * 100 %}{{ d }}"),
    "nested-compare": ("template", "{% set a = (0,) * 1000000 %}{% set b = (0,) * 1000000 %}"
                                   "{% set x = (a, a, a, a, a, a, a, a, a, a) %}{% set y = (b, b, b, b, b, b, b, b, b, b) %}"
                                   "{{ [x] * 100 == [y] * 100 }}"),
    "round-digits": ("template", "{{ 5|round(-1000000000) }}"),
    "bytes-ljust": ("template", "{{ 'x'.encode().ljust(1000000000)|length }}"),
    "lone-surrogate": ("template", "<text>{{ '\\ud800' }}</text>"),
    "nan-folded": ("template", "{% set w = 'nan'|float %}<rect width=\"{{ w }}\" height=\"1\"/>"),
    "doctype": ("template", '<!DOCTYPE svg>\n<rect width="1" height="1"/>'),
    "parens-3000": ("template", "{{ " + "(" * 3000 + "1" + ")" * 3000 + " }}"),
    "filters-3000": ("template", "{{ 'a'" + "|upper" * 3000 + " }}"),
    "rules-lipsum": ("rules", "# Rules\n\n{{ lipsum(100000) }}\n"),
    "rules-surrogate": ("rules", "# Rules\n\nHello {{ '\\ud800' }}\n"),
    "ods-spaces": ("ods", "<text:p>" + '<text:s text:c="1000"/>' * 1_000_000 + "</text:p>"),
    "ods-cell-spaces": ("ods", "<text:p>" + '<text:s text:c="1000"/>' * 150_000 + "</text:p>"),
}


def ods(cell_xml: str) -> bytes:
    def cell(inner: str) -> str:
        return f'<table:table-cell office:value-type="string">{inner}</table:table-cell>'

    rows = f"<table:table-row>{cell('<text:p>label</text:p>')}</table:table-row><table:table-row>{cell(cell_xml)}" \
           "</table:table-row>"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("content.xml", '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
                   'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
                   'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
                   'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>'
                   f'<table:table table:name="Cards">{rows}</table:table></office:spreadsheet></office:body>'
                   '</office:document-content>')
    return buf.getvalue()


def make(folder: Path, where: str, text: str) -> list[str]:
    d = folder / "d"
    shutil.copytree(FIXTURE, d)
    if where == "template":
        (d / "templates" / "token.svg.j2").write_text("<rect width=\"1\" height=\"1\"/>\n" + text + "\n",
                                                      encoding="utf-8")
        return ["build", "d", "--out", "out", "--no-exports"]
    if where == "rules":
        (d / "rules.en.md").write_text(text, encoding="utf-8")
        return ["rules", "d", "--out", "out"]
    (d / "tokens.ods").write_bytes(ods(text))
    yaml = (d / "design.yaml").read_text(encoding="utf-8")
    (d / "design.yaml").write_text(yaml.replace("    data:\n      - {label: A, count: 3}\n      - {label: B}\n",
                                                "    data: tokens.ods\n"), encoding="utf-8")
    return ["build", "d", "--out", "out", "--no-exports"]


def run(pnp: str, name: str, timeout: float, memory_mb: int) -> tuple[int | None, float, float, str]:
    where, text = CASES[name]
    with tempfile.TemporaryDirectory() as tmp:
        args = make(Path(tmp), where, text)

        def limits() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))

        start = time.monotonic()
        proc = subprocess.Popen([pnp, *args], cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                preexec_fn=limits, start_new_session=True)
        code: int | None = None
        maxrss = 0.0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                code = os.waitstatus_to_exitcode(status)
                maxrss = usage.ru_maxrss / 1024
                break
            if time.monotonic() - start > timeout:
                os.killpg(proc.pid, 9)
                _, status, usage = os.wait4(proc.pid, 0)
                maxrss = usage.ru_maxrss / 1024
                break
            time.sleep(0.02)
        seconds = time.monotonic() - start
        out = proc.stdout.read().decode("utf-8", "replace") if proc.stdout else ""
        proc.returncode = code  # already reaped by wait4
        first = next((line for line in out.splitlines() if line.strip()), "")
        return code, seconds, maxrss, first


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pnp", default=shutil.which("pnp") or str(Path(sys.executable).parent / "pnp"))
    ap.add_argument("--timeout", type=float, default=45)
    ap.add_argument("--memory-mb", type=int, default=2000)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("cases", nargs="*", default=list(CASES))
    opts = ap.parse_args()
    bad = 0
    print(f"{'case':22} {'exit':>4} {'s':>6} {'MB':>6}  first line")
    for name in opts.cases:
        code, seconds, mb, first = run(opts.pnp, name, opts.timeout, opts.memory_mb)
        shown = "kill" if code is None else str(code)
        print(f"{name:22} {shown:>4} {seconds:6.2f} {mb:6.0f}  {first[:150]}")
        located = first.startswith("d/") and ": " in first and "internal error" not in first
        if opts.check and not (code == 2 and located and seconds < 5 and mb < 400):
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
