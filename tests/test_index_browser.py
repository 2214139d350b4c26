"""index.html in a real browser: headless Chromium opens it from disk and draws the contact sheet.

Needs Debian's Chromium (`apt-get install chromium`); skipped where it is not installed.
Run it alone with `pytest tests/test_index_browser.py`.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from pnp.build import build_designs
from pnp.cache import Cache

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (apt-get install chromium)")
def test_contact_sheet_renders_from_disk_in_chromium(tmp_path):
    build_designs([str(ROOT / "designs" / "three-stars")], out=tmp_path / "out", cache=Cache(None),
                  show_progress=False)
    page = tmp_path / "out" / "three-stars" / "index.html"
    shot = tmp_path / "shot.png"
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1200,1600",
                    f"--screenshot={shot}", page.as_uri()], check=True, timeout=120, capture_output=True)
    img = Image.open(shot).convert("RGB")
    assert img.size == (1200, 1600)
    # the card thumbnails were loaded and drawn: the page holds the cards' near-black filled triangles
    # and the dark-blue back, not only text on the light background
    dark = sum(1 for r, g, b in _pixels(img) if r < 40 and g < 40 and b < 40)
    assert dark > 20000
    band = img.crop((0, 0, 1200, 120))  # the title and the PDF buttons (#20304a) at the top
    assert any(abs(r - 0x20) < 8 and abs(g - 0x30) < 8 and abs(b - 0x4A) < 8 for r, g, b in _pixels(band))


def _pixels(img):
    raw = img.tobytes()
    return zip(raw[0::3], raw[1::3], raw[2::3])
