"""Components in every language of the design (issue 32): per-language texts in YAML ({en: ..., fr: ...}) and in
data tables (`title@fr` beside `title`), each face drawn in each language, the faces that come out the same
shared (one key, one render, one file), one print-sheets PDF per language, and a second build fully cached."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pdfplumber
import pytest

from pnp.build import build_designs
from pnp.cache import Cache

DESIGN = """\
meta:
  title: Lang Test
  players: 2
  languages: [en, fr]
print:
  paper: a4
components:
  cards:
    kind: card
    name: {en: Harbour cards, fr: Cartes du port}
    size: poker
    data: cards.csv
    template: card.svg.j2
    back:
      template: back.svg.j2
  aids:
    kind: aid
    name: Aid
    size: poker
    data:
      - label: {en: Turn order, fr: Ordre du tour}
      - label: {en: Scoring}
    template: aid.svg.j2
"""

CARDS = """\
title,title@fr,value
Anchor,Ancre,1
Lantern,Lanterne,2
Seven,,7
"""

CARD = """\
<rect x="0" y="0" width="{{ width }}" height="{{ height }}" fill="#ffffff"/>
<text x="6" y="14" font-size="6" font-family="DejaVu Sans">{{ title }}</text>
<text x="6" y="30" font-size="6" font-family="DejaVu Sans">{{ value }}</text>
"""

BACK = """\
<rect x="0" y="0" width="{{ width }}" height="{{ height }}" fill="#203040"/>
<text x="6" y="14" font-size="6" font-family="DejaVu Sans" fill="#ffffff">PNP</text>
"""

AID = """\
<text x="6" y="14" font-size="6" font-family="DejaVu Sans">{{ label }}</text>
"""


@pytest.fixture
def design(tmp_path: Path) -> Path:
    folder = tmp_path / "langtest"
    folder.mkdir()
    (folder / "design.yaml").write_text(DESIGN, encoding="utf-8")
    (folder / "cards.csv").write_text(CARDS, encoding="utf-8")
    (folder / "card.svg.j2").write_text(CARD, encoding="utf-8")
    (folder / "back.svg.j2").write_text(BACK, encoding="utf-8")
    (folder / "aid.svg.j2").write_text(AID, encoding="utf-8")
    return folder


def pnp(*args: str, cache: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PNP_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, "-m", "pnp.cli", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=600)


def words(pdf: Path) -> set[str]:
    with pdfplumber.open(pdf) as doc:
        text = "\n".join(page.extract_text() or "" for page in doc.pages)
    found = re.findall(r"\w+", text)
    return set(found) | {w[::-1] for w in found}  # (a card turned upside down reads backwards)


def test_each_language_has_its_sheets_with_its_texts(design: Path, tmp_path: Path):
    out = tmp_path / "out"
    run = pnp("build", str(design), "--out", str(out), cache=tmp_path / "cache", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    folder = out / "langtest"
    assert (folder / "langtest-en-a4.pdf").is_file() and (folder / "langtest-fr-a4.pdf").is_file()
    assert not (folder / "langtest-a4.pdf").exists()
    en, fr = words(folder / "langtest-en-a4.pdf"), words(folder / "langtest-fr-a4.pdf")
    assert {"Anchor", "Lantern", "Seven", "Turn", "order", "Scoring"} <= en
    assert not {"Ancre", "Lanterne", "Ordre"} & en
    assert {"Ancre", "Lanterne", "Ordre", "du", "tour", "Seven"} <= fr  # (Seven: no French text, warned below)
    assert not {"Anchor", "Lantern", "Turn"} & fr

    # a missing text in one language is a warning naming the file and line, never English left in silence
    said = run.stderr + run.stdout
    assert re.search(r"cards\.csv:4: warning: column 'title' has no text in fr", said), said
    assert re.search(r"design\.yaml:\d+: warning: components\.aids\.data\.1\.label: no fr text", said), said
    line = next(n for n, t in enumerate(DESIGN.splitlines(), start=1) if "label: {en: Scoring}" in t)
    assert f"design.yaml:{line}: warning: components.aids.data.1.label" in said, said

    # faces that differ by language side by side; the faces every language shares written once
    svg = {p.name for p in (folder / "svg").iterdir()}
    assert {"cards-1.en.svg", "cards-1.fr.svg", "cards-2.en.svg", "cards-2.fr.svg"} <= svg
    assert "cards-3.svg" in svg and not {"cards-3.en.svg", "cards-3.fr.svg"} & svg  # the same in both: one file
    assert "cards-back.svg" in svg and not {"cards-back.en.svg", "cards-back.fr.svg"} & svg
    assert 'xml:lang="fr"' in (folder / "svg" / "cards-1.fr.svg").read_text(encoding="utf-8")
    assert "Lanterne" in (folder / "svg" / "cards-2.fr.svg").read_text(encoding="utf-8")
    assert "xml:lang" not in (folder / "svg" / "cards-back.svg").read_text(encoding="utf-8")

    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["languages"] == ["en", "fr"]
    assert manifest["sheets_pdf"] == {"en": "langtest-en-a4.pdf", "fr": "langtest-fr-a4.pdf"}
    faces = {(e["lang"], e["face"]) for e in manifest["components"] + manifest["components@fr"]}
    assert {e["lang"] for e in manifest["components"]} == {"en"}  # the first language's edition, then the others
    assert ("fr", "svg/cards-2.fr.svg") in faces and ("en", "svg/cards-2.en.svg") in faces
    assert ("fr", "svg/cards-3.svg") in faces and ("en", "svg/cards-3.svg") in faces
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert 'id="cards.fr"' in index and "svg/cards-2.fr.svg" in index


def test_a_shared_face_is_painted_once_and_a_second_build_is_fully_cached(design: Path, tmp_path: Path):
    cache_dir, out = tmp_path / "cache", tmp_path / "out"
    cache = Cache(cache_dir)
    build_designs([str(design)], out=out, cache=cache, show_progress=False)
    # cards 1 and 2 in each language, card 3 shared (no French title), the back shared; aid 1 in each language,
    # aid 2 shared (its label only in English): 4 + 1 + 1 + 2 + 1, each painted once
    assert cache.made("svg") == 9
    assert len(list((out / "langtest" / "svg").glob("*.svg"))) == 9
    cache.flush()
    code = textwrap.dedent(f"""
        import json
        from pathlib import Path
        from pnp.build import build_designs
        from pnp.cache import Cache
        cache = Cache(Path({str(cache_dir)!r}))
        build_designs([{str(design)!r}], out=Path({str(out)!r}), cache=cache, show_progress=False)
        print(json.dumps({{k: n for k, n in cache.stats.items() if k.endswith(".miss") and n}}))
    """)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.strip().splitlines()[-1]) == {}  # nothing made again: no face, no sheet


def test_a_column_of_an_undeclared_language_is_a_warning(design: Path, tmp_path: Path):
    (design / "cards.csv").write_text("title,title@fr,title@de,value\nAnchor,Ancre,Anker,1\n", encoding="utf-8")
    run = pnp("build", str(design), "--out", str(tmp_path / "out"), cache=tmp_path / "cache", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert re.search(r"cards\.csv:1: warning: column 'title@de': 'de' is not a language of the design",
                     run.stderr + run.stdout), run.stderr


def test_a_single_language_design_keeps_its_names(design: Path, tmp_path: Path):
    text = (design / "design.yaml").read_text(encoding="utf-8").replace("languages: [en, fr]", "languages: [fr]")
    (design / "design.yaml").write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    build_designs([str(design)], out=out, cache=Cache(tmp_path / "cache"), show_progress=False)
    folder = out / "langtest"
    assert (folder / "langtest-a4.pdf").is_file()
    assert not list(folder.glob("langtest-fr-*.pdf"))
    assert (folder / "svg" / "cards-1.svg").is_file()
    assert 'xml:lang="fr"' in (folder / "svg" / "cards-1.svg").read_text(encoding="utf-8")
    assert {"Ancre", "Lanterne", "Ordre"} <= words(folder / "langtest-a4.pdf")
