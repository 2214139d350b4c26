"""Version marks (`print.version_mark`): a small code, and the date of the printed state it comes from, drawn on
every face, so that a tester can tell a reprinted card from the one it replaces.

A face's code is that of the first printed state (the design's printed.json, pnp.printed) that holds the same
drawing (`mark_hash`: the face as painted, without its comments and its mark, and the bytes of the files it links to);
a face no printed state holds gets the next code (v3 after v1 and v2), without a date until it is recorded. So a
reprinted card carries the new code and an unchanged card keeps its own. The mark is 5 pt, at the bottom right, in
the band between the trim and the safe zone (`corner`) or in the bottom bleed (`bleed`: on the sheet, gone once cut),
between two comments that name it, so that the drawing's hash is the same with and without it.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import partial
from html import escape
from pathlib import Path
from typing import Any

from pnp.confine import FileRefused
from pnp.render.art import ArtFiles

PRINTED_FILE = "printed.json"
SIZE_MM = 5 * 25.4 / 72  # 5 pt
_MARK = re.compile(r"<!-- pnp-version-mark -->.*?<!-- /pnp-version-mark -->\n?", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_LINKS = re.compile(r'(?:href="([^"#][^"]*)"|url\("([^"]+)"\))')


def drawing(svg: str) -> str:
    """A face's SVG as it draws: without its version mark (and the line that holds it) and its comments, so that
    a face is the same drawing with and without a mark."""
    return _COMMENT.sub("", _MARK.sub("", svg))


def linked_files(text: str) -> list[str]:
    """The files a drawing links to (hrefs and CSS urls), in order: not data:, http: or https: ones."""
    refs = [m.group(1) or m.group(2) for m in _LINKS.finditer(text)]
    return [ref for ref in refs if not ref.startswith(("data:", "http:", "https:"))]


def mark_hash(svg: str, folder: Path | str) -> str:
    """The drawing of a face as painted (hrefs to the design's files), its mark and comments left out, with the
    bytes of each file it links to (art, fonts)."""
    text = drawing(svg)
    files = ArtFiles(folder)
    parts = [text]
    for ref in linked_files(text):
        try:
            data = files(ref)
        except FileRefused:
            data = None
        parts.append(f"\n{ref}:" + (hashlib.blake2b(data, digest_size=10).hexdigest() if data is not None else "-"))
    return hashlib.blake2b("".join(parts).encode(), digest_size=10).hexdigest()


def printed_codes(folder: Path) -> tuple[dict[str, str], str, bytes]:
    """{mark hash: "v1 · 2026-12-04"} of the design's printed states (the first state that holds a drawing), the
    code a drawing none holds gets, and printed.json's bytes (b"" when there is none)."""
    path = Path(folder) / PRINTED_FILE
    try:
        raw = path.read_bytes()
        states = json.loads(raw).get("states", [])
    except (OSError, ValueError, AttributeError):
        return {}, "v1", b""
    codes: dict[str, str] = {}
    numbers = []
    for state in states if isinstance(states, list) else []:
        if not isinstance(state, dict):
            continue
        version, date = str(state.get("version", "")), str(state.get("date", ""))
        if re.fullmatch(r"v\d+", version):
            numbers.append(int(version[1:]))
        for face in (state.get("faces") or {}).values():
            mark = face.get("mark") if isinstance(face, dict) else None
            if isinstance(mark, str):
                codes.setdefault(mark, f"{version} · {date}" if date else version)
    return codes, f"v{max(numbers, default=0) + 1}", raw


def with_version_marks(components: list, folder: Path, where: str, safe_zone: float) -> None:
    """Each face of `components` (pnp.render.faces.ComponentFaces) painted with its version mark: its paint
    wrapped, its cache key extended by the printed states (recording one paints the faces again)."""
    if where == "none":
        return
    codes, next_code, raw = printed_codes(folder)
    states = hashlib.blake2b(raw + where.encode(), digest_size=10).hexdigest()
    for cf in components:
        for face in cf.sides:
            if getattr(face.paint, "func", None) is _stamped:
                continue  # (a face shared by two languages' components: wrapped once)
            face.paint = partial(_stamped, face.paint, str(folder), codes, next_code, where, face.width, face.height,
                                 face.bleed, safe_zone)
            if face.cache_key:
                face.cache_key = hashlib.sha256(f"{face.cache_key}|version-mark|{states}".encode()).hexdigest()


def _stamped(paint: Any, folder: str, codes: dict[str, str], next_code: str, where: str, width: float,
             height: float, bleed: float, safe_zone: float) -> str:
    svg = paint()
    code = codes.get(mark_hash(svg, folder), next_code)
    return stamp(svg, code, where, width, height, bleed, safe_zone)


def stamp(svg: str, code: str, where: str, width: float, height: float, bleed: float, safe_zone: float) -> str:
    """`svg` with `code` drawn 5 pt high at the bottom right: in the band between the trim and the safe zone, where
    the design draws no text of its own (`corner`: it stays once cut), or in the bottom bleed (`bleed`: on the sheet,
    gone once cut; as `corner` on a face without bleed). Right-aligned on the safe zone's edge."""
    if where == "bleed" and bleed >= SIZE_MM:
        middle = height + bleed / 2
    elif safe_zone >= SIZE_MM:
        middle = height - safe_zone / 2
    else:  # no room in the band: just inside the trim
        middle = height - SIZE_MM
    x, y = width - max(safe_zone, 1.0), middle + SIZE_MM * 0.35
    mark = (f'<!-- pnp-version-mark --><text x="{x:.2f}" y="{y:.2f}" font-family="DejaVu Sans" '
            f'font-size="{SIZE_MM:.3f}" text-anchor="end" fill="#555555">{escape(code)}</text>'
            '<!-- /pnp-version-mark -->')
    end = svg.rfind("</svg>")
    return svg[:end] + mark + "\n" + svg[end:] if end >= 0 else svg
