"""An installed pnp carries its licences: MIT for pnp, the DejaVu licence beside the fonts it ships."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_carries_the_licences(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(tmp_path), str(ROOT)], check=True, capture_output=True)
    [wheel] = tmp_path.glob("pnp-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        metadata = z.read(f"{info}/METADATA").decode()
        assert z.read(f"{info}/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()
        fonts = {n for n in names if n.startswith("pnp/fonts/") and n.endswith(".ttf")}
        assert len(fonts) == 24  # 12 faces, each a Latin file and its extended one (pnp/fonts/make_subset.py)
        assert "pnp/fonts/coverage.json" in names
        font_licence = z.read("pnp/fonts/LICENSE-DejaVu.txt").decode()
    assert "License-Expression: MIT" in metadata
    assert "MIT License" in (ROOT / "LICENSE").read_text() and "the pnp authors" in (ROOT / "LICENSE").read_text()
    assert "Bitstream Vera Fonts Copyright" in font_licence and "Arev Fonts Copyright" in font_licence
    assert "DejaVu changes are in public domain" in font_licence
