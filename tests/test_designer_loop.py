"""The designer's loop (issue 9): incremental rebuilds proved by counting renders, exports,
the contact sheet, scaffolding, watch."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import html
from PIL import Image

from pnp.build import build_designs
from pnp.cache import Cache
from pnp.cli import main
from pnp.loader import load_design
from pnp.parallel import prun
from pnp.watch import Watcher

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "tests" / "fixtures" / "deck-csv"


@pytest.fixture
def deck(tmp_path):
    folder = tmp_path / "designs" / "deck-csv"
    shutil.copytree(DECK, folder)
    return folder


def build(folder: Path, out: Path, cache: Cache, exports: bool = True):
    cache.reset_stats()
    return build_designs([str(folder)], out=out, cache=cache, exports=exports, show_progress=False)


def test_changing_one_card_re_renders_that_card_only(deck, tmp_path):
    out, cache = tmp_path / "out", Cache(tmp_path / "cache")
    build(deck, out, cache)
    faces = 4 + 1 + 2  # 4 card rows, the card back, 2 token rows
    # + for Tabletop Simulator at 150 dpi, trimmed: the back and the two tokens
    assert cache.made("svg") == faces and cache.made("raster") == faces + 3
    svg_dir = out / "deck-csv" / "svg"
    before = {p.name: p.stat().st_mtime_ns for p in svg_dir.iterdir()}

    build(deck, out, cache)  # nothing changed: nothing is made again
    assert cache.made("svg") == cache.made("compiled") == cache.made("raster") == 0
    assert cache.made("sheets") == 0

    csv = deck / "cards.csv"
    csv.write_text(csv.read_text().replace("Water,5", "Water,6"))
    build(deck, out, cache)
    assert cache.made("svg") == 1  # the Water card alone
    assert cache.made("compiled") == 1 and cache.made("raster") == 1
    assert cache.made("sheets") == 2  # the sheets PDF (and the kit's ink-saving one) assembled again around it
    after = {p.name: p.stat().st_mtime_ns for p in svg_dir.iterdir()}
    changed = sorted(n for n in after if after[n] != before[n])
    assert changed == ["cards-2.svg"]
    assert ">6</text>" in (svg_dir / "cards-2.svg").read_text()


def test_a_fresh_process_reuses_the_disk_cache(deck, tmp_path):
    out = tmp_path / "out"
    build(deck, out, Cache(tmp_path / "cache"))
    cold = Cache(tmp_path / "cache")  # a new process: empty memory, same disk
    build(deck, out, cold)
    assert cold.made("svg") == cold.made("raster") == cold.made("compiled") == 0
    assert cold.stats["svg.hit"] == 7


def test_editing_the_board_of_three_stars_re_renders_one_face(tmp_path):
    design = tmp_path / "designs" / "three-stars"
    shutil.copytree(ROOT / "designs" / "three-stars", design)
    out, cache = tmp_path / "out", Cache(None)
    build(design, out, cache, exports=False)
    text = (design / "design.yaml").read_text()
    (design / "design.yaml").write_text(text.replace('tint: "#f6e8cf"', 'tint: "#f0e0c0"'))
    build(design, out, cache, exports=False)
    # the board (in each of the design's languages); the 41 cards, their back and 4 pieces come from the cache
    langs = len(load_design(design).meta.languages)
    assert cache.made("svg") == langs
    assert cache.stats["svg.hit"] == len(list((out / "three-stars" / "svg").glob("*.svg"))) - langs  # every other


def test_outputs_are_the_same_with_and_without_the_cache(deck, tmp_path):
    build(deck, tmp_path / "a", Cache(None, memory=False))
    cache = Cache(tmp_path / "cache")
    build(deck, tmp_path / "b", cache)
    build(deck, tmp_path / "b", cache)  # second time: everything from the cache
    for rel in ("deck-csv/deck-csv-a4.pdf", "deck-csv/svg/cards-1.svg", "deck-csv/png/cards-1.png",
                "deck-csv/manifest.json", "deck-csv/index.html"):
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel


def test_faces_are_painted_in_parallel_and_in_order():
    pid = os.getpid()
    results = prun([lambda i=i: (i, os.getpid()) for i in range(40)])
    assert [v[0] for _, v in results] == list(range(40))
    if len(os.sched_getaffinity(0)) > 1:
        assert {v[1] for _, v in results} - {pid}, "some faces were painted in a worker process"
    errors = prun([lambda: 1, lambda: 1 / 0] * 15)
    assert [s for s, _ in errors[:2]] == ["ok", "error"] and isinstance(errors[1][1], ZeroDivisionError)


def test_png_exports_are_300_dpi_with_the_bleed(deck, tmp_path):
    out = tmp_path / "out"
    build(deck, out, Cache(None))
    manifest = json.loads((out / "deck-csv" / "manifest.json").read_text())
    for entry in manifest["components"]:
        png = out / "deck-csv" / entry["face"].replace("svg/", "png/").replace(".svg", ".png")
        img = Image.open(png)
        w, h = entry["trim_mm"]
        b = entry["bleed_mm"]
        assert img.size == (pytest.approx((w + 2 * b) / 25.4 * 300, abs=1), pytest.approx((h + 2 * b) / 25.4 * 300, abs=1))
    pngs = sorted(p.name for p in (out / "deck-csv" / "png").iterdir())
    svgs = sorted(p.name.replace(".svg", ".png") for p in (out / "deck-csv" / "svg").iterdir())
    assert pngs == svgs


def test_tabletop_simulator_deck_sheet(deck, tmp_path):
    out = tmp_path / "out"
    build(deck, out, Cache(None))
    tts = out / "deck-csv" / "tts"
    save = json.loads((tts / "deck-csv.json").read_text())
    [cards] = [o for o in save["ObjectStates"] if o["Name"] == "DeckCustom"]
    [(key, sheet)] = cards["CustomDeck"].items()
    assert (sheet["NumWidth"], sheet["NumHeight"]) == (4, 1)  # 3 distinct faces with copies + the hidden back
    assert [c["CardID"] for c in cards["ContainedObjects"]] == [int(key) * 100 + s for s in (0, 0, 1, 2, 2, 2)]
    image = Image.open(tts / "cards-1.png")
    back = Image.open(tts / "cards-back.png")
    assert back.size == (pytest.approx(63 / 25.4 * 150, abs=1), pytest.approx(88 / 25.4 * 150, abs=1))  # trimmed
    assert image.size == (4 * back.width, back.height)
    last = image.crop((3 * back.width, 0, 4 * back.width, back.height))  # the hidden-card slot holds the back
    assert last.convert("RGB").tobytes() == back.convert("RGB").tobytes()
    assert sheet["FaceURL"] == (tts / "cards-1.png").resolve().as_uri()
    assert not any(o["Name"] == "DeckCustom" and o["Nickname"].startswith("Tokens") for o in save["ObjectStates"])


def test_index_html_is_a_contact_sheet_with_report_and_links(tmp_path):
    out = tmp_path / "out"
    build_designs([str(ROOT / "designs" / "three-stars")], out=out, cache=Cache(None), show_progress=False)
    page = out / "three-stars" / "index.html"
    doc = html.fromstring(page.read_bytes())
    links = [a.get("href") for a in doc.iter("a")]
    for href in links:
        assert (page.parent / href).is_file(), href
    assert {"three-stars-fr-a4.pdf", "three-stars-en-a4.pdf", "three-stars-rules-en-a4.pdf",
            "three-stars-rules-fr-a4.pdf", "manifest.json"} <= set(links)
    imgs = [i.get("src") for i in doc.iter("img")]
    # the first language's faces, then those the other draws otherwise (its own section)
    own = len(list((page.parent / "svg").glob("*.en.svg")))
    assert len(imgs) == 41 + 1 + 1 + 4 + own and all((page.parent / s).is_file() for s in imgs)
    text = doc.text_content()
    assert "×34" in text and "×1" in text
    assert re.search(r"ok\s*cards", text) and "41 cards" in text
    # opens from disk: one script, the page's own (it draws the faces as they near the screen), nothing fetched
    scripts = doc.xpath("//script")
    assert len(scripts) == 1 and scripts[0].get("src") is None
    assert not re.search(r'(?:src|href)="(?:https?|ftp|wss?):', page.read_text())


def test_progress_bar_is_quiet_when_piped(tmp_path):
    result = CliRunner().invoke(main, ["build", str(DECK), "--out", str(tmp_path)])
    assert result.exit_code == 0
    summary = [line for line in result.output.splitlines() if not line.startswith("  note: ")]  # (the layout's)
    assert "\x1b[" not in result.output and len(summary) == 4  # the summary, no bar


def test_new_design_builds_as_it_is(tmp_path):
    runner = CliRunner()
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = runner.invoke(main, ["new", "my-game"])
        assert result.exit_code == 0, result.output
        assert sorted(p.name for p in (tmp_path / "designs" / "my-game").rglob("*") if p.is_file()) == [
            "back.svg.j2", "cards.csv", "design.yaml", "front.svg.j2", "rules.en.md", "rules.fr.md"]
        result = runner.invoke(main, ["build", "my-game", "--out", "out"])
        assert result.exit_code == 0, result.output
        out = tmp_path / "out" / "my-game"
        assert {"my-game-en-a4.pdf", "my-game-fr-a4.pdf", "my-game-rules-en-a4.pdf", "my-game-rules-fr-a4.pdf", "index.html"} <= {
            p.name for p in out.iterdir()}
        result = runner.invoke(main, ["new", "stars-copy", "--from", str(ROOT / "designs" / "three-stars")])
        assert result.exit_code == 0, result.output
        assert "title: Stars Copy" in (tmp_path / "designs" / "stars-copy" / "design.yaml").read_text()
        again = runner.invoke(main, ["new", "my-game"])
        assert again.exit_code == 2 and "already exists" in again.output
        bad = runner.invoke(main, ["new", "My Game!"])
        assert bad.exit_code == 2 and "expected lower-case letters" in bad.output
    finally:
        os.chdir(old)


def test_watcher_rebuilds_the_changed_design_and_survives_errors(deck, tmp_path):
    lines: list[str] = []
    w = Watcher([deck], tmp_path / "out", echo=lines.append, cache=Cache(None))
    assert w.rebuild([deck])
    assert w.affected([deck / "cards.csv"]) == [deck]
    assert w.affected([tmp_path / "out" / "deck-csv" / "index.html"]) == []  # our own output is ignored
    (deck / "design.yaml").write_text((deck / "design.yaml").read_text().replace("size: euro-poker", "size: pokr"))
    assert not w.rebuild(w.affected([deck / "design.yaml"]))
    assert any("design.yaml:" in line and "unknown size 'pokr'" in line for line in lines)
    assert "still watching" in lines[-1]
    (deck / "design.yaml").write_text((deck / "design.yaml").read_text().replace("size: pokr", "size: euro-poker"))
    assert w.rebuild(w.affected([deck / "design.yaml"]))
    assert "0 face(s) re-rendered" in lines[-1]  # back to a design the cache has seen


def test_pnp_watch_rebuilds_on_save(deck, tmp_path):
    """The real command in a subprocess: it builds, then rebuilds within seconds of a save."""
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "pnp.cli", "watch", str(deck), "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env={**os.environ, "PNP_CACHE_DIR": str(tmp_path / "cache")})
    try:
        seen = _read_until(proc, "watching", 60)
        assert "rebuilt deck-csv" in seen
        csv = deck / "cards.csv"
        edited = csv.read_text().replace("Wind,2", "Wind,9")
        # the file watcher starts just after "watching" is printed: save again until it has seen a save
        for _ in range(10):
            csv.write_text(edited)
            try:
                seen = _read_until(proc, "re-rendered", 3)
                break
            except AssertionError:
                continue
        assert "face(s) re-rendered" in seen
        assert ">9</text>" in (out / "deck-csv" / "svg" / "cards-4.svg").read_text()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _read_until(proc, needle: str, seconds: float) -> str:
    """Raw reads of the pipe (a buffered readline could hold the line select() no longer sees)."""
    import selectors

    fd = proc.stdout.fileno()
    sel = selectors.DefaultSelector()
    sel.register(fd, selectors.EVENT_READ)
    seen = ""
    deadline = time.monotonic() + seconds
    while needle not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"no {needle!r} within {seconds} s; got:\n{seen}"
        if sel.select(timeout=left):
            chunk = os.read(fd, 65536)
            assert chunk, f"pnp watch exited; got:\n{seen}"
            seen += chunk.decode("utf-8", "replace")
    return seen


def test_designs_build_one_per_core_and_nested_work_stays_correct():
    from pnp.parallel import prun_each

    def design_task(k):
        inner = prun([lambda i=i: i * k for i in range(30)])  # serial inside a worker
        return sum(v for _, v in inner), os.getpid()

    results = prun_each([lambda k=k: design_task(k) for k in range(1, 6)])
    assert [v[0] for _, v in results] == [435 * k for k in range(1, 6)]
    if len(os.sched_getaffinity(0)) > 1:
        assert os.getpid() not in {v[1] for _, v in results}


def test_exports_are_one_command_away_and_then_kept_up_to_date(deck, tmp_path):
    """The default build makes no PNG or TTS files; `pnp export png` does, later builds refresh them,
    `--no-exports` removes them."""
    out = tmp_path / "out"

    def run(*args):
        result = CliRunner().invoke(main, [*args, "--out", str(out)])
        assert result.exit_code == 0, result.output
        return result.output

    run("build", str(deck))
    assert not (out / "deck-csv" / "png").exists() and not (out / "deck-csv" / "tts").exists()
    run("export", "png", str(deck))
    assert len(list((out / "deck-csv" / "png").iterdir())) == 7 and not (out / "deck-csv" / "tts").exists()
    before = (out / "deck-csv" / "png" / "cards-2.png").read_bytes()
    csv = deck / "cards.csv"
    csv.write_text(csv.read_text().replace("Water,5", "Water,6"))
    run("build", str(deck))  # the PNG export asked for before is kept up to date
    assert (out / "deck-csv" / "png" / "cards-2.png").read_bytes() != before
    assert json.loads((out / "deck-csv" / "manifest.json").read_text())["exports"] == ["png"]
    run("build", str(deck), "--no-exports")
    assert not (out / "deck-csv" / "png").exists()
