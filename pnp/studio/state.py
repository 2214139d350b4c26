"""What the studio page shows, as JSON-able data: read from what a build wrote (manifest.json, each face's SVG file:
the template and data row it was made from, the warnings it carries) and from the build's errors and warnings.

The page never reads the design: everything it shows comes from the output folder (which the server serves) or from
this state. A face is named by its path under the design's output (svg/cards-3.svg) and versioned by a hash of its
SVG file, so a page redraws only the faces whose version changed.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.errors import Problem, read_marks
from pnp.index import PX_PER_MM, THUMB_HEIGHT, THUMB_WIDTH

_HEAD = 4096  # bytes of a face's SVG that hold its source comment and warning marks (they come first)


@dataclass
class Versions:
    """Each file's content hash, kept by (size, mtime): a rebuild that rewrote 3 of 500 faces hashes 3 files."""
    seen: dict[str, tuple[tuple[int, int], str, str]] = field(default_factory=dict)

    def of(self, path: Path) -> tuple[str, str]:
        """(version, the file's first bytes as text), ("", "") when the file is not there."""
        key = os.fspath(path)
        try:
            st = os.stat(key)
        except OSError:
            self.seen.pop(key, None)
            return "", ""
        stamp = (st.st_size, st.st_mtime_ns)
        known = self.seen.get(key)
        if known is not None and known[0] == stamp:
            return known[1], known[2]
        data = Path(key).read_bytes()
        version = hashlib.blake2b(data, digest_size=8).hexdigest()
        head = data[:_HEAD].decode("utf-8", "replace")
        self.seen[key] = (stamp, version, head)
        return version, head


def design_state(out_dir: Path, design_folder: Path, versions: Versions, report: list[dict] | None = None) -> dict:
    """One design's part of the page, from its output folder `out_dir` (<out>/<slug>/): components with their
    faces (path, version, count, size on screen, template, data row and warnings of each), the print sheets with
    their page counts, links to every PDF and export, and the validation `report` (static checks)."""
    manifest_path = out_dir / "manifest.json"
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"slug": out_dir.name, "title": out_dir.name, "built": False, "components": [], "sheets": [],
                "links": [], "report": report}
    langs = manifest.get("languages") or []
    sections: list[tuple[str | None, list[dict]]] = [(langs[0] if langs else None, manifest.get("components", []))]
    sections += [(lang, manifest.get(f"components@{lang}", [])) for lang in langs[1:]]
    shown: set[str] = set()
    components: dict[tuple[str, str | None], dict] = {}
    for lang, entries in sections:
        for entry in entries:
            comp_id = entry["component"]
            own = lang if lang != (langs[0] if langs else None) else None  # a section of another language's own faces
            key = (comp_id, own)
            comp = components.get(key)
            if comp is None:
                group = entry.get("group")
                comp = components[key] = {
                    "id": comp_id + (f".{own}" if own else ""), "component": comp_id, "lang": lang,
                    "kind": entry.get("kind", ""), "group": group.get("value") if isinstance(group, dict) else None,
                    "group_of": group.get("of") if isinstance(group, dict) else None,
                    "faces": [], "copies": 0, "_backs": {}}
            comp["copies"] += int(entry.get("count") or 0)
            back = entry.get("back")
            if back:
                comp["_backs"][back] = comp["_backs"].get(back, 0) + int(entry.get("count") or 0)
            if entry["face"] in shown:
                continue
            shown.add(entry["face"])
            comp["faces"].append(_face(out_dir, design_folder, versions, entry["face"], entry, "front"))
    for comp in components.values():
        for back, copies in comp.pop("_backs").items():
            if back not in shown:
                shown.add(back)
                comp["faces"].append(_face(out_dir, design_folder, versions, back, {"count": copies, "key": "back",
                                           "trim_mm": comp["faces"][0]["trim_mm"] if comp["faces"] else None,
                                           "bleed_mm": comp["faces"][0]["bleed_mm"] if comp["faces"] else 0},
                                           "back"))
    files = manifest.get("files", [])
    sheet_names = list(dict.fromkeys([manifest.get("pdf"), *(manifest.get("sheets_pdf") or {}).values()]))
    sheets = [{"name": n, "pages": _pages(out_dir / n), "v": versions.of(out_dir / n)[0]}
              for n in sheet_names if n and (out_dir / n).is_file()]
    links = [f for f in files if f.endswith(".pdf")] + [f for f in files if f.startswith(("tts/", "print/"))
                                                          and f.endswith((".json", "report.txt"))]
    return {"slug": manifest.get("design", out_dir.name), "title": manifest.get("title", out_dir.name),
            "version": manifest.get("version"), "paper": manifest.get("paper"), "languages": langs, "built": True,
            "components": [c for c in components.values() if c["faces"]], "sheets": sheets, "links": links,
            "report": report}


def _face(out_dir: Path, design_folder: Path, versions: Versions, path: str, entry: dict, side: str) -> dict:
    version, head = versions.of(out_dir / path)
    template, row, warned = read_marks(head)
    trim = entry.get("trim_mm") or [63, 88]
    bleed = float(entry.get("bleed_mm") or 0)
    w, h = trim[0] + 2 * bleed, trim[1] + 2 * bleed
    scale = min(THUMB_HEIGHT / h, THUMB_WIDTH / w, PX_PER_MM) if w > 0 and h > 0 else 0
    parent = design_folder.parent
    return {
        "path": path, "v": version, "side": side, "key": str(entry.get("key", "")), "name": entry.get("name"),
        "count": int(entry.get("count") or 0), "trim_mm": trim, "bleed_mm": bleed,
        "back": entry.get("back"), "width": round(w * scale, 1), "height": round(h * scale, 1),
        "template": _source(parent, design_folder, template, None),
        "row": _source(parent, design_folder, row[0], row[1]) if row else None,
        "data": entry.get("data"),
        "warnings": [{"where": _where(design_folder, f, line), "message": m.replace("{design}", design_folder.name)}
                     for f, line, m in warned],
    }


def _source(parent: Path, design_folder: Path, shown: str | None, line: int | None) -> dict | None:
    """A file a face was made from, named from the design folder's parent (x/templates/front.svg.j2): as the page
    links it (its path inside the design folder, for /src/) and shows it (x/templates/front.svg.j2:3)."""
    if not shown:
        return None
    head, _, rest = shown.partition("/")
    inside = rest if head == design_folder.name else None  # a shared template (pnp's own) is shown, not linked
    return {"file": inside, "where": f"{shown}:{line}" if line else shown, "line": line}


def _where(design_folder: Path, file: str, line: int | None) -> str:
    shown = file.replace("{design}", design_folder.name, 1)
    return f"{shown}:{line}" if line else shown


def _pages(pdf: Path) -> int:
    """The pages of a PDF (pypdf: pdfium, which renders them, is not to be called from two threads at once)."""
    import pypdf  # lazy: 216 ms (pypdf)

    try:
        return len(pypdf.PdfReader(os.fspath(pdf)).pages)
    except Exception:  # a PDF being replaced: shown with no pages until the next state
        return 0


def problem_faces(problems: Iterable[Problem], designs: Iterable[dict], folders: dict[str, Path]) -> list[dict]:
    """The build's errors (or warnings) as the page lists them, each with the faces it hits: the faces made from
    the template it names, or from the data row it names (every face of that table when the line is no row's)."""
    problems = list(problems)
    out = []
    for p in problems:
        absolute = os.path.abspath(p.file)
        hit: list[str] = []
        slug_of = None
        for d in designs:
            folder = folders.get(d["slug"])
            if folder is None:
                continue
            if absolute == os.fspath(folder) or absolute.startswith(os.fspath(folder) + os.sep):
                slug_of = d["slug"]
            rel = os.path.relpath(absolute, folder) if slug_of == d["slug"] else None
            if rel is None:
                continue
            rows = [f for c in d["components"] for f in c["faces"] if f["row"] and f["row"]["file"] == rel]
            same_line = [f for f in rows if f["row"]["line"] == p.line]
            hit += [f"{d['slug']}/{f['path']}" for f in (same_line or rows)]
            hit += [f"{d['slug']}/{f['path']}" for c in d["components"] for f in c["faces"]
                    if f["template"] and f["template"]["file"] == rel]
        out.append({"where": f"{p.file}:{p.line}" if p.line else p.file, "message": p.message, "design": slug_of,
                    "file": os.path.relpath(absolute, folders[slug_of]) if slug_of else None, "line": p.line,
                    "faces": list(dict.fromkeys(hit))})
    return out


def studio_state(generation: int, status: str, designs: list[dict], errors: list[dict], warnings: list[dict],
                 built_at: float, seconds: float) -> dict[str, Any]:
    """The whole page: `status` "ok" (the picture is this build's), "failed" (the last good picture, stale, with
    the errors), or "building"."""
    return {"generation": generation, "status": status, "built_at": built_at, "seconds": round(seconds, 3),
            "errors": errors, "warnings": warnings, "designs": designs}
