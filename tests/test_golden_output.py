"""Byte-exact output, pinned: a change of pnp or of a library that moves one byte of a PDF or SVG shows here.

The cache keys hold the libraries' versions, so an upgrade never serves stale products; this
test makes the upgrade visible. After an intended change, run
`pytest tests/test_golden_output.py --update-golden`, look at the pages, and commit the new hashes.
Raster exports (PNG, TTS) are left out: their pixels come from the system's cairo library.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from pnp.build import build_designs
from pnp.cache import Cache

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden" / "output-hashes"
CASES = {"deck-csv": ROOT / "tests" / "fixtures" / "deck-csv", "three-stars": ROOT / "designs" / "three-stars"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_output_bytes_are_pinned(name, tmp_path, update_golden):
    [res] = build_designs([str(CASES[name])], out=tmp_path, cache=Cache(None), show_progress=False)
    hashes = {p.relative_to(res.out_dir).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
              for p in sorted(res.out_dir.rglob("*")) if p.is_file()
              and p.relative_to(res.out_dir).parts[0] not in ("png", "tts")}
    golden = GOLDEN / f"{name}.json"
    if update_golden:
        golden.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n")
    want = json.loads(golden.read_text())
    changed = sorted(k for k in set(want) | set(hashes) if want.get(k) != hashes.get(k))
    assert not changed, f"output changed: {changed[:10]} (if intended: pytest {__file__} --update-golden)"
