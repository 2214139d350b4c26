"""The command line and the build as a designer runs them."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main

ROOT = Path(__file__).resolve().parent.parent


def invoke(*args, cwd: Path | None = None):
    old = os.getcwd()
    try:
        if cwd:
            os.chdir(cwd)
        return CliRunner().invoke(main, [str(a) for a in args])
    finally:
        os.chdir(old)


def test_two_builds_are_byte_identical(tmp_path):
    for name in ("one", "two"):
        # --no-cache: both builds make everything, so equal bytes prove the output deterministic
        result = invoke("build", ROOT / "designs" / "three-stars", "--out", tmp_path / name, "--no-cache")
        assert result.exit_code == 0, result.output
    files_one = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*") if p.is_file())
    files_two = sorted(p.relative_to(tmp_path / "two") for p in (tmp_path / "two").rglob("*") if p.is_file())
    assert files_one == files_two and len(files_one) >= 47 + 2  # faces, sheets, manifest (+ rulebooks)
    for rel in files_one:
        assert (tmp_path / "one" / rel).read_bytes() == (tmp_path / "two" / rel).read_bytes(), rel


def test_build_without_argument_builds_every_design_under_designs(tmp_path):
    shutil.copytree(ROOT / "designs" / "three-stars", tmp_path / "designs" / "three-stars")
    shutil.copytree(ROOT / "tests" / "fixtures" / "deck-csv", tmp_path / "designs" / "deck-csv")
    result = invoke("build", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "output" / "three-stars" / "three-stars-fr-a4.pdf").is_file()  # (one per language)
    assert (tmp_path / "output" / "three-stars" / "three-stars-en-a4.pdf").is_file()
    assert (tmp_path / "output" / "deck-csv" / "deck-csv-a4.pdf").is_file()
    assert "three-stars:" in result.output and "deck-csv:" in result.output


def test_paper_option_names_the_pdf(tmp_path):
    result = invoke("build", ROOT / "designs" / "three-stars", "--out", tmp_path, "--paper", "letter")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "three-stars" / "three-stars-fr-letter.pdf").is_file()
    assert (tmp_path / "three-stars" / "three-stars-en-letter.pdf").is_file()
    assert not list((tmp_path / "three-stars").glob("three-stars-*a4.pdf"))
    assert json.loads((tmp_path / "three-stars" / "manifest.json").read_text())["paper"] == "letter"


def _faces(folder, pattern: str) -> set[str]:
    """The distinct faces of svg/ files (a face drawn in each language is one face: <name>.<lang>.svg)."""
    return {p.name.split(".")[0] for p in folder.glob(pattern)}


def test_a_smaller_card_set_leaves_no_stale_svg(tmp_path, design_copy):
    d = design_copy("three-stars")
    out = tmp_path / "out"
    assert invoke("build", d, "--out", out).exit_code == 0
    assert len(_faces(out / "three-stars" / "svg", "placement-cards-*.svg")) == 42
    text = (d / "design.yaml").read_text().replace("params: {min: 1, max: 3}", "params: {min: 1, max: 2}")
    (d / "design.yaml").write_text(text)
    assert invoke("build", d, "--out", out).exit_code == 0
    assert len(_faces(out / "three-stars" / "svg", "placement-cards-*.svg")) == 21 + 1
    assert not [p for p in (out / "three-stars").iterdir() if p.name.startswith(".")]


def test_list_shows_components_with_counts():
    result = invoke("list", ROOT / "designs" / "three-stars")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("three-stars  (3 Stars, Julien Grimard, 2019; 2-4 players)")
    assert any("placement-cards" in line and "41 faces" in line and "41 copies" in line for line in lines)
    from conftest import stars_numbers

    n = stars_numbers()["pieces"]
    assert any("pieces" in line and "4 faces" in line and f"{n} copies" in line for line in lines)


@pytest.mark.parametrize("command", [[], ["build"], ["list"]])
def test_every_command_explains_itself(command):
    result = invoke(*command, "--help")
    assert result.exit_code == 0
    assert "Usage:" in result.output
    assert len(result.output.splitlines()) > 5


def test_data_table_deck_fills_the_template_per_row(tmp_path):
    result = invoke("build", ROOT / "tests" / "fixtures" / "deck-csv", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    out = tmp_path / "deck-csv"
    entries = json.loads((out / "manifest.json").read_text())["components"]
    cards = [e for e in entries if e["component"] == "cards"]
    assert [(c["data"]["title"], c["count"]) for c in cards] == [("Fire & Ice", 2), ("Water", 1), ("Stone", 0),
                                                                   ("Wind", 3)]
    tokens = [e for e in entries if e["component"] == "tokens"]
    assert [(t["data"]["label"], t["count"]) for t in tokens] == [("A", 3), ("B", 2)]
    lines = (out / "manifest.json").read_text().splitlines()  # one line per face: a rebuild's diff names the faces
    assert [json.loads(line.strip().rstrip(",")) for line in lines if line.startswith('    {"component"')] == entries
    svg = (out / cards[0]["face"]).read_text()
    assert "Fire &amp; Ice" in svg  # data is escaped, the SVG stays well-formed
    assert 'width="69mm"' in svg and 'viewBox="-3 -3 69 94"' in svg
    from pdfmeasure import placements
    from pypdf import PdfReader

    reader = PdfReader(out / "deck-csv-a4.pdf")
    card_copies = sum(1 for i in range(len(reader.pages)) for p in placements(reader, i)
                      if abs(min(p.width, p.height) - 69 * 72 / 25.4) < 0.01)  # (upright or turned a quarter)
    assert card_copies == 2 * (2 + 1 + 0 + 3)  # fronts and their backs, Stone has count 0


def test_list_says_where_each_design_comes_from_and_skips_empty_fields(tmp_path, monkeypatch):
    import shutil

    project = tmp_path / "project"
    shutil.copytree(ROOT / "tests" / "fixtures" / "deck-csv", project / "designs" / "my-deck")
    monkeypatch.chdir(project)
    result = CliRunner().invoke(main, ["list"])
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first == "my-deck  (Table Deck; 2 players)  from designs/my-deck/", first
    result = CliRunner().invoke(main, ["list", "tubo"])
    assert "from pnp's built-in designs" in result.output.splitlines()[0]
    assert ", ," not in result.output


def test_the_command_ends_with_the_status_the_output_and_the_cache_of_a_normal_exit(tmp_path):
    """`python -m pnp.cli` (as the `pnp` script) ends the process without Python's teardown (pnp.cli.run): the exit
    status, the printed output and the cache entries the exit handlers write are those of a normal exit."""
    import subprocess
    import sys

    from pnp.cache import stored_keys

    env = {**os.environ, "PNP_CACHE_DIR": str(tmp_path / "cache")}

    def pnp(*args, **kwargs):
        return subprocess.run([sys.executable, "-m", "pnp.cli", *map(str, args)], capture_output=True, text=True,
                              env=env, cwd=tmp_path, **kwargs)

    def cache_entries():
        return sorted(p.relative_to(tmp_path / "cache") for p in (tmp_path / "cache").rglob("*") if p.is_file())

    deck = ROOT / "tests" / "fixtures" / "deck-csv"
    first = pnp("build", deck, "--out", tmp_path / "a")
    assert first.returncode == 0, first.stderr
    assert "deck-csv" in first.stdout and (tmp_path / "a" / "deck-csv" / "manifest.json").is_file()
    entries = cache_entries()
    assert len(stored_keys(tmp_path / "cache", "svg")) == 7, entries  # every face, before the process ended
    again = pnp("build", deck, "--out", tmp_path / "b")  # a new process: everything from that cache, nothing new
    assert again.returncode == 0, again.stderr
    assert cache_entries() == entries
    assert (tmp_path / "a" / "deck-csv" / "deck-csv-a4.pdf").read_bytes() == \
        (tmp_path / "b" / "deck-csv" / "deck-csv-a4.pdf").read_bytes()
    bad = pnp("build", tmp_path / "nowhere")
    assert bad.returncode == 2 and "nowhere" in bad.stderr and "Traceback" not in bad.stderr
    assert pnp("--version").stdout.strip()  # click's own exit (SystemExit 0) prints its output
    profiled = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(tmp_path / "prof"), "-m", "pnp.cli",
                               "--version"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert profiled.returncode == 0 and (tmp_path / "prof").stat().st_size > 0  # a profiler writes at a usual exit
    listing = subprocess.Popen([sys.executable, "-m", "pnp.cli", "list"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env, cwd=tmp_path)
    assert listing.stdout is not None and listing.stdout.read(10)
    listing.stdout.close()  # as `pnp list | head -c 10`: the rest cannot be written
    assert "Traceback" not in listing.stderr.read().decode() and listing.wait() in (0, 1, -13, 120)
