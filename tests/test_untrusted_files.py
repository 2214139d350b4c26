"""Hostile files in a design folder and odd command lines (issue 29): special files never opened, names that
need escaping, damaged fonts, unclosed quotes, sizes past a bound, paths that cannot be written. Each ends in
a build that works or in `file:line` messages with exit 2: never a hang, a traceback or exit 3.

The hangs are caught by running pnp as its own process with a timeout (a FIFO opened for reading waits for a
writer forever)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest
from clirun import run
from lxml import etree

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def pnp(args: list[str], cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "PNP_CACHE_DIR": str(cwd / "cache")}
    return subprocess.run([sys.executable, "-m", "pnp.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env)


def deck(tmp_path: Path, name: str = "deck-csv") -> Path:
    shutil.copytree(FIXTURES / name, tmp_path / "d")
    return tmp_path / "d"


def with_languages(d: Path, langs: str = "[en]") -> None:
    text = (d / "design.yaml").read_text(encoding="utf-8")
    (d / "design.yaml").write_text(text.replace("  players: 2\n", f"  players: 2\n  languages: {langs}\n", 1),
                                   encoding="utf-8")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX thing")
def test_special_files_nothing_uses_are_never_opened(tmp_path):
    d = deck(tmp_path)
    (d / "art").mkdir()
    os.mkfifo(d / "art" / "pipe.png")
    os.symlink("/dev/zero", d / "art" / "zero.svg")
    os.mkfifo(d / "fonts.ttf")
    for args in (["build", "d", "--out", "out"], ["list", "d"]):
        done = pnp(args, tmp_path)  # (before: no answer in 60 s: the art's hash opened every such file)
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX thing")
@pytest.mark.parametrize("where", ["template", "rulebook"])
def test_a_special_file_a_design_names_is_refused_before_it_is_opened(tmp_path, where):
    d = deck(tmp_path)
    (d / "art").mkdir()
    os.mkfifo(d / "art" / "pipe.svg")
    if where == "template":
        (d / "templates" / "front.svg.j2").write_text('<image href="art/pipe.svg" x="0" y="0" width="9" '
                                                      'height="9"/>\n', encoding="utf-8")
        want = "d/templates/front.svg.j2:1: <image>: image 'art/pipe.svg' is not a regular file (a FIFO); expected a file"
    else:
        with_languages(d)
        (d / "rules.en.md").write_text("# Rules\n\n![a picture](art/pipe.svg)\n", encoding="utf-8")
        want = "d/rules.en.md:3: image 'art/pipe.svg' is not a regular file (a FIFO); expected a file"
    done = pnp(["build", "d", "--out", "out"], tmp_path)
    assert done.returncode == 2, done.stderr
    assert want in done.stderr
    assert not (tmp_path / "out" / "d").exists()


def test_a_font_file_name_that_needs_escaping_keeps_every_face_well_formed(tmp_path):
    d = deck(tmp_path, "font-deck")
    odd = 'a<b&c"d\'e%41.ttf'
    (d / "fonts" / "Condensed.ttf").rename(d / "fonts" / odd)
    quoted = odd.replace("'", "''")  # (YAML's single-quoted scalar)
    text = (d / "design.yaml").read_text(encoding="utf-8")
    (d / "design.yaml").write_text(text.replace("regular: fonts/Condensed.ttf", f"regular: 'fonts/{quoted}'"),
                                   encoding="utf-8")
    result = run(["build", "d", "--out", "out"], tmp_path)
    assert result.exit_code == 0, result.output
    out = tmp_path / "out" / "d"
    for face in (out / "svg").glob("*.svg"):
        etree.parse(str(face))  # (before: '<' and '&' raw in the <style>: not XML)
    assert (out / "svg" / "art" / "fonts" / odd).is_file()
    assert 'url("art/fonts/a%3Cb%26c%22d%27e%2541.ttf")' in (out / "svg" / "cards-1.svg").read_text(encoding="utf-8")
    with pdfplumber.open(out / "d-a4.pdf") as pdf:
        assert "DejaVuSansCondensed" in {c["fontname"].split("+")[-1] for c in pdf.pages[0].chars}


def test_a_quote_left_open_in_the_last_row_is_an_error_naming_the_row(tmp_path):
    d = deck(tmp_path)
    (d / "cards.csv").write_text('title,power,colour,count\nFire & Ice,3,#d55e00,2\n"Water,5,#0072b2,1\n',
                                 encoding="utf-8")
    result = run(["build", "d", "--out", "out"], tmp_path)
    assert result.exit_code == 2  # (before: one card titled 'Water,5,#0072b2,1')
    assert result.output.startswith('d/cards.csv:3: a quote (") opens a cell of this row and is never closed, so the '
                                    "rest of the file would be that one cell; expected a closing quote, or no quote "
                                    "at the start of a cell\n")


def test_a_quote_that_swallows_rows_is_a_warning(tmp_path):
    d = deck(tmp_path)
    (d / "cards.csv").write_text('title,power,colour,count\n"Fire & Ice,3,#d55e00,2\nWater,5,#0072b2,1\n'
                                 'Wind",2,#009e73,3\nStone,1,#777777,0\n', encoding="utf-8")
    result = run(["build", "d", "--out", "out"], tmp_path)
    assert result.exit_code == 0, result.output
    assert ("d/cards.csv:2: warning: a quoted cell runs from line 2 to line 4 and holds lines that look like rows of "
            "the table; expected a quote closed on the line it opens (is one left open?)") in result.output


def test_a_damaged_font_is_a_message_at_its_line(tmp_path):
    import struct

    d = deck(tmp_path, "font-deck")
    path = d / "fonts" / "Condensed.ttf"
    data = bytearray(path.read_bytes())
    for i in range(struct.unpack(">H", data[4:6])[0]):
        tag, _, off, length = struct.unpack(">4sIII", data[12 + 16 * i: 28 + 16 * i])
        if tag in (b"glyf", b"loca"):
            data[off:off + length] = bytes((k * 151 + 7) % 256 for k in range(length))  # garbled, deterministic
    path.write_bytes(bytes(data))
    result = run(["build", "d", "--out", "out"], tmp_path)
    assert result.exit_code == 2, result.output  # (before: exit 3, an error of ReportLab's while saving the PDF)
    assert result.output.startswith("d/design.yaml:")
    assert ("fonts.Deck Condensed.regular: 'fonts/Condensed.ttf' cannot be used: its glyphs cannot be embedded: the "
            "file is damaged (") in result.output
    assert "expected an undamaged TrueType font" in result.output


def test_a_png_export_of_a_board_too_large_for_an_image_is_a_message(tmp_path):
    d = deck(tmp_path)
    with (d / "design.yaml").open("a", encoding="utf-8") as fh:
        fh.write("  board:\n    kind: board\n    size: {width: 2000mm, height: 2000mm}\n    bleed: 0mm\n"
                 "    template: token.svg.j2\n    data:\n      - {label: X}\n")
    result = run(["export", "png", "d", "--out", "out"], tmp_path)
    assert result.exit_code == 2, result.output  # (before: exit 3, the 120 MP bound raised inside the export)
    assert result.output == (
        "d/design.yaml:24: components.board: a face of 2000 x 2000 mm is 558 MP as a PNG at 300 dpi, more than the "
        "120 MP an image may have; expected a face of at most about 927 x 927 mm for `pnp export png` (the print "
        "sheets split a board over pages)\n")


def test_a_plot_that_cannot_be_written_is_said_before_the_games(tmp_path):
    result = run(["simulate", "three-stars", "-n", "2", "--plot", "/proc/x.svg"], tmp_path)
    assert result.exit_code == 2  # (before: exit 3, FileNotFoundError after playing)
    assert result.output == ("--plot /proc/x.svg: cannot be written (No such file or directory); expected a file "
                             "path in a folder you can write to\n")
    result = run(["simulate", "three-stars", "-n", "2", "--plot", str(tmp_path / "new" / "p.svg")], tmp_path)
    assert result.exit_code == 0 and (tmp_path / "new" / "p.svg").read_text(encoding="utf-8").startswith("<")


@pytest.mark.parametrize("setup,want", [
    ("none", "d/design.yaml:2: --lang fr: the design has no French edition (meta.languages: en; it has no rules "
             "text yet); expected fr in meta.languages and a rules.fr.md\n"),
    ("en", "d/design.yaml:2: --lang fr: the design has no French edition (meta.languages: en; its rulebooks are "
           "in en); expected fr in meta.languages and a rules.fr.md, or --lang en\n"),
])
def test_rules_for_a_language_the_design_lacks_names_that_language(tmp_path, setup, want):
    d = deck(tmp_path)
    if setup == "en":
        (d / "rules.en.md").write_text("# Rules\n", encoding="utf-8")
    result = run(["rules", "d", "--lang", "fr", "--out", "out"], tmp_path)
    assert result.exit_code == 2
    assert result.output == want  # (before: "d/rules.en.md: no rules text for this design...")


def test_a_rulebook_with_many_top_headings_builds(tmp_path):
    d = deck(tmp_path)
    with_languages(d)
    (d / "rules.en.md").write_text("".join(f"# Part {i}\n\nText {i}.\n\n" for i in range(1, 41)), encoding="utf-8")
    result = run(["build", "d", "--out", "out"], tmp_path)
    assert result.exit_code == 0, result.output  # (before: exit 3, "redefining named object: 'Annot.NUMBER23'")
    with pdfplumber.open(tmp_path / "out" / "d" / "d-rules-en-a4.pdf") as pdf:
        text = "\n".join(p.extract_text() or "" for p in pdf.pages)
    assert all(f"Part {i}" in text for i in range(1, 41))
