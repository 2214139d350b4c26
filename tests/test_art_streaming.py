"""Decks of art stream (issue 36): a raster file the faces draw is read again when the PDF takes it, not held by
the compiled drawings (pnp.render.svgpdf.compiler.FileImage), and past pnp.render.spool.SPOOL_FROM bytes of art the
images wait on disk and the sheets PDF is written to a file, published chunk by chunk. The bytes are the same
either way; a file that changes between painting and drawing is a message, not a wrong card."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import spooled
from pnp.cli import main
from pnp.render import spool
from pnp.render.svgpdf import compiler

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def build(folder: Path, out: Path) -> bytes:
    result = CliRunner().invoke(main, ["build", str(folder), "--out", str(out), "--no-cache", "--no-exports"])
    assert result.exit_code == 0, result.output
    return (out / "art-deck" / "art-deck-a4.pdf").read_bytes()


@pytest.fixture
def deck(tmp_path) -> Path:
    folder = tmp_path / "art-deck"
    shutil.copytree(FIXTURES / "art-deck", folder)
    return folder


def test_spooled_art_gives_the_same_pdf_bytes(deck, tmp_path, monkeypatch):
    held = build(deck, tmp_path / "held")
    files = []
    made = spooled.SpooledFile.__init__

    def counted(self):
        files.append(self)
        made(self)

    monkeypatch.setattr(spool, "SPOOL_FROM", 0)  # every image on disk, the PDF a file
    monkeypatch.setattr(compiler, "LAZY_IMAGE_BYTES", 0)  # every raster read again when drawn
    monkeypatch.setattr(spooled.SpooledFile, "__init__", counted)
    streamed = build(deck, tmp_path / "streamed")
    assert files and streamed == held
    assert build(deck, tmp_path / "streamed") == held  # published again over itself: compared chunk by chunk


def test_a_file_image_is_read_when_drawn_and_checked(deck, tmp_path):
    from pnp.render.art import ArtFiles

    files = ArtFiles(deck)
    href = next(p.relative_to(deck).as_posix() for p in sorted((deck / "icons").glob("*.png")))
    data = files(href)
    image = compiler.FileImage(files, href, compiler._content_key(data), len(data), (1, 1))
    assert compiler.image_bytes(image) == data and len(image) == len(data)
    import pickle  # (a face compiled in a worker process comes back pickled)

    assert compiler.image_bytes(pickle.loads(pickle.dumps(image))) == data
    (deck / href).write_bytes(data + b"\0")  # the designer saved it again meanwhile
    with pytest.raises(ValueError, match=f"image {href} changed while the build drew it"):
        compiler.image_bytes(image)


def test_spool_keeps_little_in_memory_and_reads_back(tmp_path):
    s = spool.StreamSpool(spill_at=10)
    s[b"a"] = b"12345"
    assert not s.spilled and s.read(b"a") == b"12345"
    s[b"b"] = b"6789012"
    assert s.spilled and s.held == {} and s.lengths() == {b"a": 5, b"b": 7}
    assert s.read(b"b") == b"6789012" and s.read(b"a") == b"12345"
    s.close()
    f = spooled.SpooledFile()
    f.file.write(b"x" * (spooled.CHUNK + 3))
    assert len(f) == spooled.CHUNK + 3 and b"".join(f.chunks()) == f.read_bytes() == bytes(f)
    path = Path(f.path)
    del f
    assert not path.exists()  # removed with its object


def test_a_spooled_pdf_is_cached_streamed_and_checked(deck, tmp_path, monkeypatch):
    """Kept in the disk cache as a "file" entry (written from the file, its hash taken reading it), read back
    into a file while its hash is checked; an entry changed on disk is made again."""
    from pnp.cache import Cache, file_head, secret
    from pnp.spooled import SpooledFile

    monkeypatch.setattr(spool, "SPOOL_FROM", 0)
    monkeypatch.setattr(compiler, "LAZY_IMAGE_BYTES", 0)
    cache_dir = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(cache_dir))

    def cached_build(out: str) -> bytes:
        result = CliRunner().invoke(main, ["build", str(deck), "--out", str(tmp_path / out), "--no-exports"])
        assert result.exit_code == 0, result.output
        return (tmp_path / out / "art-deck" / "art-deck-a4.pdf").read_bytes()

    first = cached_build("one")
    entries = [p for p in (cache_dir / "sheets").iterdir() if not p.name.startswith(".")]
    assert len(entries) == 1 and b'"type": "file"' in entries[0].read_bytes()[:400]
    assert cached_build("two") == first  # served from the entry
    raw = bytearray(entries[0].read_bytes())
    raw[-10] ^= 0xFF  # a byte of the payload changed behind pnp's back
    entries[0].write_bytes(bytes(raw))
    assert cached_build("three") == first  # refused, made again
    # the entry a file gives, read back as a file
    f = SpooledFile()
    f.file.write(b"%PDF-1.4 tiny")
    cache = Cache(tmp_path / "c2")
    cache.put("sheets", "k", f)
    assert ("sheets", "k") not in cache._memory  # (pnp watch keeps no temporary file per rebuild)
    again = Cache(tmp_path / "c2").get("sheets", "k")
    assert isinstance(again, SpooledFile) and bytes(again) == b"%PDF-1.4 tiny"
    assert file_head("sheets", "k", f, secret() or b"x" * 32).endswith(b"\n")


def test_pnp_watch_rebuilds_a_spooled_deck_after_its_art_changes(deck, tmp_path, monkeypatch):
    """The second run: under pnp watch (one process, one cache) an art file edited between two rebuilds gives
    the sheets a fresh build gives, with every image spooled and read when drawn."""
    from PIL import Image

    from pnp.cache import Cache
    from pnp.watch import Watcher

    monkeypatch.setattr(spool, "SPOOL_FROM", 0)
    monkeypatch.setattr(compiler, "LAZY_IMAGE_BYTES", 0)
    watcher = Watcher([deck], tmp_path / "out", echo=lambda s: None, cache=Cache(tmp_path / "cache"))
    assert watcher.rebuild([deck])
    pdf = tmp_path / "out" / "art-deck" / "art-deck-a4.pdf"
    first = pdf.read_bytes()
    art = sorted((deck / "icons").glob("*.png"))[0]
    with Image.open(art) as im:
        im.convert("RGB").point(lambda v: 255 - v).save(art)
    assert watcher.rebuild([deck])
    second = pdf.read_bytes()
    assert second != first and second == build(deck, tmp_path / "fresh")
    import gc
    import tempfile

    gc.collect()
    assert not list(Path(tempfile.gettempdir()).glob("pnp-*.pdf"))  # no sheets file left behind by a rebuild


def test_the_kit_print_shop_and_reprint_take_a_spooled_sheets_pdf(deck, tmp_path, monkeypatch):
    monkeypatch.setattr(spool, "SPOOL_FROM", 0)
    monkeypatch.setattr(compiler, "LAZY_IMAGE_BYTES", 0)
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", str(deck), "--out", str(out), "--no-cache", "--kit", "--print-shop"])
    assert result.exit_code == 0, result.output
    made = {p.name for p in (out / "art-deck").iterdir()}
    assert {"art-deck-a4.pdf", "art-deck-print-shop.pdf"} <= made and any(n.startswith("art-deck-kit-") for n in made)
    assert CliRunner().invoke(main, ["printed", str(deck)]).exit_code == 0
    (deck / "cards.csv").write_text((deck / "cards.csv").read_text().replace("Shield,", "Buckler,"))
    result = CliRunner().invoke(main, ["reprint", str(deck), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "art-deck" / "art-deck-reprint-v1-a4.pdf").read_bytes().startswith(b"%PDF")
