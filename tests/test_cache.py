"""The disk cache holds data, never code, and serves an entry only if it is what its key names."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import packs
import pytest

from pnp.build import build_designs
from pnp.cache import FORMAT, Cache, NotData, decode, encode

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "tests" / "fixtures" / "deck-csv"


@pytest.mark.parametrize("value", [b"\x00\x01PDF", "SVG é", {"a": 1, "b": [1, 2.5, None]}, [1, "x"],
                                   {"x.pdf": b"%PDF", "y.txt": "texte"}, {}])
def test_entries_round_trip(value):
    raw = encode("svg", "k" * 64, value)
    assert decode("svg", "k" * 64, raw) == value


def test_objects_that_are_not_data_are_refused():
    with pytest.raises(NotData):
        encode("drawing", "k", object())


def test_an_entry_is_served_only_under_its_own_kind_and_key():
    raw = encode("svg", "a" * 64, "<svg/>")
    assert decode("svg", "b" * 64, raw) is None  # swapped with another entry
    assert decode("png", "a" * 64, raw) is None  # another kind
    assert decode("svg", "a" * 64, raw[:-1]) is None  # truncated
    assert decode("svg", "a" * 64, raw[:-1] + b"X") is None  # corrupted
    assert decode("svg", "a" * 64, raw.replace(f'"format": {FORMAT}'.encode(), b'"format": 1')) is None  # older
    assert decode("svg", "a" * 64, pickle.dumps("<svg/>")) is None  # foreign (pnp <= 0.1 wrote pickles)


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_faces_are_kept_in_a_few_packs_not_a_file_each(tmp_path):
    cache_dir = tmp_path / "cache"
    build_designs([str(DECK)], out=tmp_path / "first", cache=Cache(cache_dir), show_progress=False)
    entries = packs.entries(cache_dir)
    files = {e.pack for e in entries}
    assert len(entries) >= 5 and len(files) <= 3  # (this process's, and each paint worker's)
    assert set((cache_dir / "svg").iterdir()) == files
    cache = Cache(cache_dir)  # a new process: empty memory, same disk
    build_designs([str(DECK)], out=tmp_path / "second", cache=cache, show_progress=False)
    assert cache.made("svg") == 0 and cache.stats["svg.hit"] == len(entries)
    assert len(list((cache_dir / "svg").iterdir())) == len(files)  # a build with nothing to make writes no pack


def test_packs_are_merged_when_builds_have_left_many(tmp_path, monkeypatch):
    from pnp import cache as cache_mod

    cache_dir = tmp_path / "cache"
    monkeypatch.setattr(cache_mod, "_PACKS_MAX", 3)
    deck = tmp_path / "deck"
    shutil.copytree(DECK, deck)
    for i in range(4):  # each build changes the data: some faces made again, into a pack of its own
        csv = deck / "cards.csv"
        csv.write_text(csv.read_text(encoding="utf-8").replace("Water" if i == 0 else f"Water {i - 1}",
                                                                f"Water {i}"), encoding="utf-8")
        build_designs([str(deck)], out=tmp_path / "out", cache=Cache(cache_dir), show_progress=False)
    assert len(list((cache_dir / "svg").glob("pack.*"))) < 3 + 1
    cache = Cache(cache_dir)
    build_designs([str(deck)], out=tmp_path / "again", cache=cache, show_progress=False)
    assert cache.made("svg") == 0  # nothing lost in the merge


def test_builds_at_once_into_one_cache_each_keep_a_pack_and_the_next_build_makes_nothing(tmp_path):
    """CI jobs sharing a $PNP_CACHE_DIR: two builds at the same moment, each appending to packs of its own."""
    cache_dir = tmp_path / "cache"
    env = {**os.environ, "PNP_CACHE_DIR": str(cache_dir)}
    deck = tmp_path / "deck"
    shutil.copytree(DECK, deck)
    rows = "\n".join(f"Card {i},{i % 9 + 1},#d55e00,1" for i in range(80))  # enough faces for the paint workers
    (deck / "cards.csv").write_text("title,power,colour,count\n" + rows + "\n", encoding="utf-8")
    runs = [subprocess.Popen([sys.executable, "-m", "pnp.cli", "build", str(deck), "--out", str(tmp_path / f"o{i}")],
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for i in (1, 2)]
    for run in runs:
        assert run.wait(timeout=120) == 0, run.stderr.read() if run.stderr else ""
    keys = [e.key for e in packs.entries(cache_dir)]
    assert len(set(keys)) >= 81 and len(keys) <= 2 * len(set(keys))  # every face, once by each build at most
    before = sorted(p.name for p in (cache_dir / "svg").iterdir())
    cache = Cache(cache_dir)
    build_designs([str(deck)], out=tmp_path / "o3", cache=cache, show_progress=False)
    assert cache.made("svg") == 0 and sorted(p.name for p in (cache_dir / "svg").iterdir()) == before
    assert _tree(tmp_path / "o3" / "deck") == _tree(tmp_path / "o1" / "deck") == _tree(tmp_path / "o2" / "deck")


def test_swapped_and_damaged_entries_are_rebuilt_not_served(tmp_path):
    cache_dir = tmp_path / "cache"
    build_designs([str(DECK)], out=tmp_path / "want", cache=Cache(None), show_progress=False)
    build_designs([str(DECK)], out=tmp_path / "first", cache=Cache(cache_dir), show_progress=False)
    entries = packs.entries(cache_dir)
    assert len(entries) >= 5
    flipped, forged_as = entries[0].key, entries[1].key

    def damage(e):
        if e.key == flipped:  # one bit of a face's SVG flipped
            return e.raw[:-2] + bytes([e.raw[-2] ^ 0x20]) + e.raw[-1:]
        if e.key == entries[2].key:  # a face's header made to name an earlier face
            return e.raw.replace(e.key.encode(), forged_as.encode())
        return None

    assert packs.rewrite(cache_dir, damage) == 2
    last = packs.entries(cache_dir)[-1]
    whole = last.pack.read_bytes()
    last.pack.write_bytes(whole[:last.offset + len(last.raw) // 2])  # a pack cut short: its last entry half there
    (cache_dir / "svg" / "pack.1.2.3").write_bytes(os.urandom(300))  # foreign
    cache = Cache(cache_dir, memory=True)  # a new process: empty memory, same disk
    build_designs([str(DECK)], out=tmp_path / "second", cache=cache, show_progress=False)
    assert cache.stats["svg.bad"] == 2  # the two that do not verify: never served
    assert cache.made("svg") == 4  # ... made again, with the face whose entry now names another, and the one cut short
    assert _tree(tmp_path / "second" / "deck-csv") == _tree(tmp_path / "want" / "deck-csv")


class _Payload:
    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_a_pickle_planted_in_the_cache_is_never_run(tmp_path):
    """Whoever can write the cache (a shared CI cache, a zipped project) must not run code in the next build."""
    cache_dir = tmp_path / "cache"
    env = {**os.environ, "PNP_CACHE_DIR": str(cache_dir)}
    cmd = [sys.executable, "-m", "pnp.cli", "build", str(DECK), "--out", str(tmp_path / "out")]
    assert subprocess.run(cmd, env=env, capture_output=True).returncode == 0
    marker = tmp_path / "pwned"
    payload = _Payload()
    payload.marker = marker
    planted = pickle.dumps(payload)
    for kind in ("svg", "sheets", "raster", "sheet", "checks"):
        for entry in (cache_dir / kind).rglob("*"):
            if entry.is_file():
                entry.write_bytes(planted)
    shutil.rmtree(tmp_path / "out" / "deck-csv")
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert not marker.exists()
    build_designs([str(DECK)], out=tmp_path / "want", cache=Cache(None), show_progress=False)
    assert _tree(tmp_path / "out" / "deck-csv") == _tree(tmp_path / "want" / "deck-csv")


def test_an_unwritable_cache_only_makes_the_build_slower(tmp_path):
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache folder should be")
    [res] = build_designs([str(DECK)], out=tmp_path / "out", cache=Cache(blocker), show_progress=False)
    assert (res.out_dir / "deck-csv-a4.pdf").is_file()


def test_library_versions_are_part_of_every_key(monkeypatch):
    from pnp import cache as cache_mod
    from pnp.products import CHECKS

    before = CHECKS.key(design={}, folder="x")
    monkeypatch.setattr(cache_mod, "library_versions", lambda: {"reportlab": "99.0"})
    cache_mod.code_fingerprint.cache_clear()
    try:
        assert CHECKS.key(design={}, folder="x") != before
    finally:
        monkeypatch.undo()
        cache_mod.code_fingerprint.cache_clear()
