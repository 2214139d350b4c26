"""Printed states: what a design's faces were when the designer printed them, and what changed since.

A **printed state** holds every face (front and back) by its id (its file's name under svg/, `cards-3` or
`cards-3.fr`) with a hash of what prints (its SVG without the comments that name its source, plus the bytes of
every file it links to: art and fonts), its count, its back, its row's cells, its template's hash, and a hash per
section of each rulebook. The states are kept in the design's `printed.json` (v1, v2...; sorted, indented JSON
meant to be committed with the design). This module reads and writes them and compares a built design with one
(`compare`: what to print again; `changes`: what changed, in words): the commands (pnp.printed) and the contact
sheet (pnp.build's index stage, pnp.index) use it. It builds nothing itself: it is given the design built.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp import __version__
from pnp.errors import DesignError, PnpError, Problem, display_path, read_marks
from pnp.render.faces import ComponentFaces, face_path
from pnp.render.typography import typeset
from pnp.render.version_mark import drawing, linked_files, mark_hash
from pnp.words import say

PRINTED_FILE = "printed.json"
FORMAT = 1
_SECTION = re.compile(r"^(#{1,3})\s+(.+?)\s*#*\s*$", re.M)


# --- what a design prints -----------------------------------------------------------------------------------

@dataclass
class Face:
    id: str  # its file's name under svg/ without .svg: cards-3, cards-3.fr, cards-back
    component: str
    key: str
    name: str
    side: str  # "front" | "back"
    count: int  # copies printed (a back: the copies of the fronts it is behind)
    hash: str  # what prints: its SVG without source comments, and the bytes of the files it links to
    back: str | None = None  # a front's back (its id)
    editions: list[str] = field(default_factory=list)  # the languages whose sheets print it
    data: dict[str, Any] = field(default_factory=dict)  # its row's cells
    template: str | None = None  # the template it was made from (a path in the design folder)
    template_hash: str | None = None
    links: dict[str, str] = field(default_factory=dict)  # art and fonts it links to -> their hash
    mark: str = ""  # its drawing as painted (pnp.render.version_mark.mark_hash): the code its version mark prints


@dataclass
class Snapshot:
    faces: dict[str, Face]
    rules: dict[str, dict[str, str]]  # rules.<lang>.md -> section heading -> hash
    paper: str = ""


def snapshot(built, folder: Path) -> Snapshot:
    """The faces of a design built in memory (a pnp.build.BuiltDesign) and its rules texts' sections."""
    svg_files = built.dirs.get("svg", {})
    faces: dict[str, Face] = {}
    for lang, components in built.languages().items():
        for cf in components:
            backs_count: dict[str, int] = {}
            for front in cf.fronts:
                back = cf.back_of(front)
                face = _face(cf, front, "front", built.svgs, svg_files, folder,
                             back=_id(cf, back) if back is not None else None)
                _merge(faces, face, lang)
                if back is not None:
                    backs_count[_id(cf, back)] = backs_count.get(_id(cf, back), 0) + front.count
            for back in cf.backs:
                face = _face(cf, back, "back", built.svgs, svg_files, folder)
                face.count = backs_count.get(face.id, 0)
                _merge(faces, face, lang)
    # a front changes for the printer when its back does
    for face in faces.values():
        if face.back and face.back in faces:
            face.hash = _hash(face.hash + faces[face.back].hash)
    return Snapshot(faces, rules_sections(folder), built.paper)


def _id(cf: ComponentFaces, face) -> str:
    return face_path(cf.component_id, face).removeprefix("svg/").removesuffix(".svg")


def _merge(faces: dict[str, Face], face: Face, lang: str) -> None:
    known = faces.setdefault(face.id, face)
    if lang not in known.editions:
        known.editions.append(lang)


def _face(cf: ComponentFaces, spec, side: str, svgs: dict[str, str], svg_files: dict, folder: Path,
          back: str | None = None) -> Face:
    path = face_path(cf.component_id, spec)
    text = svg_files.get(path.removeprefix("svg/")) or svgs.get(path, "")  # as written to svg/: art under art/
    template, _row, _warned = read_marks(text)
    drawn = drawing(text)
    links = {}
    for ref in linked_files(drawn):
        content: Any = svg_files.get(ref)
        if hasattr(content, "read_bytes"):  # a file of the design, copied when published (pnp.render.art.ArtCopy)
            content = content.read_bytes()
        links[ref] = _hash(content if isinstance(content, bytes) else str(content or "").encode())
    printed = drawn + "".join(f"\n{k}:{v}" for k, v in sorted(links.items()))
    template_file = template.partition("/")[2] if template and template.startswith(folder.name + "/") else None
    template_hash = None
    if template_file:
        try:
            template_hash = _hash((folder / template_file).read_bytes())
        except OSError:
            template_hash = None
    name = spec.label or (str(spec.data.get("name") or spec.data.get("title") or "") if spec.data else "")
    return Face(id=path.removeprefix("svg/").removesuffix(".svg"), component=cf.component_id, key=spec.key,
                mark=mark_hash(svgs.get(path, ""), folder),
                name=name or ("back" if side == "back" else spec.key), side=side, count=spec.count,
                hash=_hash(printed), back=back, data=_plain(spec.data) if side == "front" else {},
                template=template_file, template_hash=template_hash, links=links)


def _plain(data: dict) -> dict:
    return json.loads(json.dumps(data, default=str, ensure_ascii=False)) if data else {}


def _hash(data: bytes | str) -> str:
    return hashlib.blake2b(data.encode() if isinstance(data, str) else data, digest_size=10).hexdigest()


def rules_sections(folder: Path) -> dict[str, dict[str, str]]:
    """Each rules.<lang>.md of the design: its sections (a heading and the text up to the next) by heading."""
    out = {}
    for path in sorted(folder.glob("rules.*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        heads = list(_SECTION.finditer(text))
        sections = {"(before the first heading)": _hash(text[:heads[0].start()] if heads else text)}
        for i, m in enumerate(heads):
            body = text[m.end():heads[i + 1].start() if i + 1 < len(heads) else len(text)]
            title = m.group(2)
            while title in sections:
                title += " (again)"
            sections[title] = _hash(body)
        out[path.name] = sections
    return out


# --- printed.json ---------------------------------------------------------------------------------------------

def load_states(folder: Path) -> list[dict]:
    path = folder / PRINTED_FILE
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise DesignError([Problem(display_path(path), getattr(exc, "lineno", 1), f"not JSON ({exc}); expected the "
                                   "file pnp printed writes")]) from None
    states = data.get("states") if isinstance(data, dict) else None
    if not isinstance(states, list) or not all(isinstance(s, dict) and isinstance(s.get("faces"), dict)
                                               for s in states):
        raise DesignError([Problem(display_path(path), 1, "no list of printed states with their faces; expected "
                                   "the file pnp printed writes (or delete it to start again)")])
    return states


def state_of(snap: Snapshot, version: str, note: str, date: str) -> dict:
    return {"version": version, "date": date, "note": note, "pnp": __version__, "paper": snap.paper,
            "faces": {fid: {k: v for k, v in vars(f).items() if k != "id" and v not in (None, {}, [])}
                      for fid, f in sorted(snap.faces.items())},
            "rules": snap.rules}


def next_version(states: list[dict]) -> str:
    numbers = [int(s["version"][1:]) for s in states if re.fullmatch(r"v\d+", str(s.get("version", "")))]
    return f"v{max(numbers, default=0) + 1}"


def record(folder: Path, snap: Snapshot, note: str = "", today: str | None = None) -> dict:
    """Add the design's current faces to its printed.json as a new printed state; that state."""
    states = load_states(folder)
    state = state_of(snap, next_version(states), note, today or datetime.date.today().isoformat())
    states.append(state)
    text = json.dumps({"pnp": "printed states of this design (pnp printed); commit it with the design",
                       "format": FORMAT, "states": states}, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    tmp = folder / f".{PRINTED_FILE}.pnp-tmp"
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, folder / PRINTED_FILE)
    return state


def find_state(states: list[dict], version: str | None, folder: Path) -> dict:
    if not states:
        raise PnpError(f"{folder / PRINTED_FILE}: no printed state yet; expected `pnp printed {folder.name}` after "
                       "printing, or --since a git revision of the design")
    if version is None:
        return states[-1]
    for s in states:
        if s.get("version") == version:
            return s
    known = ", ".join(str(s.get("version")) for s in states)
    raise PnpError(f"--since {version}: no such printed state (nor git revision); expected one of {known}")


# --- comparing ------------------------------------------------------------------------------------------------

@dataclass
class Reprint:
    """What to print again: `print` {face id: copies} (fronts), and the lines of the replacement list."""
    print: dict[str, int]
    discard: list[tuple[int, str, str]]  # (copies, name, version)
    new: list[tuple[int, str]]
    changed: list[tuple[int, str, str, int, str]]  # (old copies, old name, old version, new copies, name)
    more: list[tuple[int, str]]  # only the count grew: the extra copies
    fewer: list[tuple[int, str]]  # only the count fell: copies to take out
    removed: list[tuple[int, str]]
    since: str
    now: str

    def lines(self, lang: str = "en") -> list[str]:
        """The replacement list in `lang` (pnp's own words, pnp.words), typeset for that language."""
        def line(key: str, **values: Any) -> str:
            return typeset(say(f"reprint.{key}", lang, **values), lang)

        now = self.now
        out = [line("changed", old=old, was=was, since=version, count=new, name=name, now=now)
               for old, was, version, new, name in self.changed]
        out += [line("new", count=n, name=name, now=now) for n, name in self.new]
        out += [line("more", count=n, name=name) for n, name in self.more]
        out += [line("fewer", count=n, name=name) for n, name in self.fewer]
        out += [line("removed", count=n, name=name, since=self.since) for n, name in self.removed]
        return out or [line("nothing", since=self.since)]

    def as_json(self) -> dict:
        return {"since": self.since, "now": self.now, "print": self.print,
                "changed": [{"name": n, "was": w, "discard": o, "print": c, "since": v}
                            for o, w, v, c, n in self.changed],
                "new": [{"name": n, "print": c} for c, n in self.new],
                "more": [{"name": n, "print": c} for c, n in self.more],
                "fewer": [{"name": n, "take_out": c} for c, n in self.fewer],
                "removed": [{"name": n, "discard": c} for c, n in self.removed]}


def pairs(before: dict[str, dict], faces: dict[str, Face]) -> tuple[dict[str, str], list[str]]:
    """Which printed face each face is: {face id: its printed id} and the printed ids no face is. The same
    drawing in the same component is the same card even when its number moved (rows inserted or removed above it,
    a generator making fewer cards); else the face of the same id, changed; else none (a new face)."""
    matched: dict[str, str] = {}
    taken: set[str] = set()
    for fid, face in faces.items():  # the same id, the same drawing
        was = before.get(fid)
        if was is not None and was.get("hash") == face.hash:
            matched[fid] = fid
            taken.add(fid)
    by_drawing: dict[tuple[str, str, str], list[str]] = {}
    for oid, was in before.items():
        if oid not in taken:
            by_drawing.setdefault((str(was.get("component")), str(was.get("side")), str(was.get("hash"))),
                                  []).append(oid)
    for fid, face in faces.items():  # the same drawing under another number
        if fid in matched:
            continue
        free = by_drawing.get((face.component, face.side, face.hash))
        if free:
            matched[fid] = free.pop(0)
            taken.add(matched[fid])
    for fid in faces:  # the same number, another drawing: changed
        if fid not in matched and fid in before and fid not in taken:
            matched[fid] = fid
            taken.add(fid)
    return matched, [oid for oid in before if oid not in taken]


def compare(old: dict, snap: Snapshot, lang: str, since: str, now: str) -> Reprint:
    """The fronts of edition `lang` to print again since the printed state `old`."""
    before = {fid: f for fid, f in old["faces"].items()
              if lang in f.get("editions", [lang]) and f.get("side") == "front"}
    faces = {fid: f for fid, f in snap.faces.items() if f.side == "front" and lang in f.editions}
    matched, gone = pairs(before, faces)
    result = Reprint({}, [], [], [], [], [], [], since, now)
    for fid, face in faces.items():
        oid = matched.get(fid)
        was = before.get(oid) if oid is not None else None
        had = int(was.get("count", 0)) if was is not None else 0
        if was is None or (had == 0 and face.count > 0 and was.get("hash") != face.hash):
            if face.count > 0:
                result.print[fid] = face.count
                result.new.append((face.count, face.name))
        elif was.get("hash") != face.hash:
            if face.count > 0 or had > 0:
                result.changed.append((had, str(was.get("name", face.name)), since, face.count, face.name))
            if face.count > 0:
                result.print[fid] = face.count
        elif face.count > had:
            result.print[fid] = face.count - had
            result.more.append((face.count - had, face.name))
        elif face.count < had:
            result.fewer.append((had - face.count, face.name))
    for oid in gone:
        was = before[oid]
        if int(was.get("count", 0)):
            result.removed.append((int(was.get("count", 0)), str(was.get("name", oid))))
    return result


def changes(old: dict, snap: Snapshot, since: str) -> list[str]:
    """What changed since `old`, in words: by component and card, the fields of the row, the template, the art
    and the count; the rulebooks' sections."""
    out: list[str] = []
    before = old["faces"]
    matched, gone = pairs(before, snap.faces)
    by_component: dict[str, list[str]] = {}
    for fid, face in sorted(snap.faces.items()):
        oid = matched.get(fid)
        was = before.get(oid) if oid is not None else None
        what = []
        if was is None:
            what.append(f"new ({face.count} x)")
        else:
            if oid != fid:
                what.append(f"was {oid}")
            if face.side == "front" and was.get("data", {}) != face.data and was.get("hash") != face.hash:
                old_data = was.get("data", {})
                for k in sorted(set(old_data) | set(face.data)):
                    if old_data.get(k) != face.data.get(k):
                        what.append(f"{k}: {_short(old_data.get(k))} -> {_short(face.data.get(k))}")
            if was.get("template_hash") != face.template_hash and face.template:
                what.append(f"template {face.template} changed")
            old_links = was.get("links", {})
            for ref in sorted(set(old_links) | set(face.links)):
                if old_links.get(ref) != face.links.get(ref):
                    what.append(f"{'art' if not ref.startswith('fonts/') else 'font'} {ref.removeprefix('art/')} "
                                + ("added" if ref not in old_links else "removed" if ref not in face.links
                                   else "changed"))
            if int(was.get("count", 0)) != face.count and face.side == "front":
                what.append(f"count {was.get('count', 0)} -> {face.count}")
            if was.get("hash") != face.hash and not [w for w in what if not w.startswith(("was ", "count "))]:
                # (a front's hash holds its back's: its own drawing is its mark's hash, the face as painted)
                own = face.side == "back" or not was.get("mark") or was.get("mark") != face.mark
                back = snap.faces.get(face.back) if face.back else None
                back_too = back is not None and before.get(face.back, {}).get("hash") != back.hash
                what.append("drawing and its back changed" if own and back_too
                            else "drawing changed" if own else "its back changed")
        if what and what != [f"was {oid}"]:
            by_component.setdefault(face.component, []).append(f"  {face.name} ({face.id}): " + "; ".join(what))
    for oid in sorted(gone):
        was = before[oid]
        by_component.setdefault(str(was.get("component", "?")), []).append(f"  {was.get('name', oid)} ({oid}): removed")
    for component, lines in sorted(by_component.items()):
        out.append(f"{component}:")
        out += lines
    old_rules = old.get("rules", {})
    for book in sorted(set(old_rules) | set(snap.rules)):
        a, b = old_rules.get(book, {}), snap.rules.get(book, {})
        changed = [t for t in b if t in a and a[t] != b[t]]
        added = [t for t in b if t not in a]
        gone = [t for t in a if t not in b]
        if changed or added or gone:
            out.append(f"{book}:")
            out += [f"  section '{t}' changed" for t in changed]
            out += [f"  section '{t}' added" for t in added]
            out += [f"  section '{t}' removed" for t in gone]
    return out or [f"nothing changed since {since}"]


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def since_last(built, folder: Path) -> dict | None:
    """What changed since the design's last printed state, for the contact sheet: {"since", "date", "lines" (as
    `changes` says them), "faces" (the ids of the faces new or changed)}; None when the design has none."""
    if not (folder / PRINTED_FILE).is_file():
        return None
    states = load_states(folder)
    if not states:
        return None
    last = states[-1]
    snap = snapshot(built, folder)
    since = str(last.get("version", "?"))
    matched, _gone = pairs(last["faces"], snap.faces)
    faces = {fid for fid, face in snap.faces.items()
             if matched.get(fid) is None or last["faces"][matched[fid]].get("hash") != face.hash
             or int(last["faces"][matched[fid]].get("count", 0)) != face.count}
    return {"since": since, "date": str(last.get("date", "")), "lines": changes(last, snap, since),
            "faces": faces}
