"""Printed states, reprints and changes: `pnp printed`, `pnp reprint`, `pnp changes`.

A **printed state** is what a design's faces were when the designer printed them: every face (front and back) by
its id (its file's name under svg/, `cards-3` or `cards-3.fr`) with a hash of what prints (its SVG without the
comments that name its source, plus the bytes of every file it links to: art and fonts), its count, its back, its
row's cells, its template's hash, and a hash per section of each rulebook. `pnp printed` adds one to the design's
`printed.json` (a short version code each: v1, v2...; sorted, indented JSON that reads well in a diff and is meant
to be committed with the design). `pnp reprint` compares the design as it is with one of them (the newest by
default, or a git revision of the design folder) and makes sheets of only the faces that are new or changed, all
their copies (the difference when only the count grew), with their backs, laid out as the normal sheets; its first
page lists what to discard and what to print. `pnp changes` says what changed, field by field.

The states are computed from the design built in memory (pnp.build.make_designs): nothing is written but
printed.json and the reprint's files in the design's output folder.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pypdf import PdfReader, PdfWriter
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from pnp import __version__
from pnp.build import BuildOptions, make_designs, sheets_of
from pnp.errors import PnpError, read_marks
from pnp.loader import load_design, resolve_design
from pnp.output import publish_more
from pnp.render import fonts
from pnp.render.faces import ComponentFaces, face_path
from pnp.render.typography import typeset
from pnp.render.version_mark import mark_hash
from pnp.words import say

PRINTED_FILE = "printed.json"
FORMAT = 1
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_VERSION_MARK = re.compile(r"<!-- pnp-version-mark -->.*?<!-- /pnp-version-mark -->", re.S)
_LINKS = re.compile(r'(?:href="([^"#][^"]*)"|url\("([^"]+)"\))')
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
    links = {}
    for m in _LINKS.finditer(_COMMENT.sub("", text)):
        ref = m.group(1) or m.group(2)
        if ref.startswith(("data:", "http:", "https:")):
            continue
        content: Any = svg_files.get(ref)
        if hasattr(content, "read_bytes"):  # a file of the design, copied when published (pnp.render.art.ArtCopy)
            content = content.read_bytes()
        links[ref] = _hash(content if isinstance(content, bytes) else str(content or "").encode())
    printed = _COMMENT.sub("", _VERSION_MARK.sub("", text)) + "".join(f"\n{k}:{v}" for k, v in sorted(links.items()))
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
        raise PnpError(f"{path}:{getattr(exc, 'lineno', 1)}: not JSON ({exc}); expected the file pnp printed "
                       "writes") from None
    states = data.get("states") if isinstance(data, dict) else None
    if not isinstance(states, list) or not all(isinstance(s, dict) and isinstance(s.get("faces"), dict)
                                               for s in states):
        raise PnpError(f"{path}:1: no list of printed states with their faces; expected the file pnp printed "
                       "writes (or delete it to start again)")
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
                what.append("its back changed" if face.side == "front" else "drawing changed")
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


def reprint_components(components: list[ComponentFaces], folder_id: dict[str, int]) -> list[ComponentFaces]:
    """`components` with only the fronts to print again, each with its copies to print (backs follow)."""
    out = []
    for cf in components:
        fronts = []
        for front in cf.fronts:
            fid = face_path(cf.component_id, front).removeprefix("svg/").removesuffix(".svg")
            if fid in folder_id:
                fronts.append(replace(front, count=folder_id[fid]))
        if fronts:
            out.append(replace(cf, fronts=fronts))
    return out


# --- git ------------------------------------------------------------------------------------------------------

def git_revision(folder: Path, revision: str) -> str | None:
    """The commit `revision` names in the git repository holding `folder`, or None (not a repository, no such
    revision, no git)."""
    try:
        done = subprocess.run(["git", "-C", os.fspath(folder), "rev-parse", "--verify", "--quiet",
                               f"{revision}^{{commit}}"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def design_at(folder: Path, commit: str, into: Path) -> Path:
    """The design folder as it was at `commit`, extracted (read-only from the repository: git archive) into
    `into`/<name>; that folder."""
    archive = into / "design.tar"
    with open(archive, "wb") as out:  # (run in the design folder, it holds that folder's files, named from it)
        subprocess.run(["git", "-C", os.fspath(folder), "archive", "--format=tar", commit, "--", "."],
                       stdout=out, stderr=subprocess.DEVNULL, timeout=120, check=True)
    target = into / folder.name
    target.mkdir()
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")  # ("data": no links out, no devices, no absolute paths)
    archive.unlink()
    return target


class TemporaryDesign:
    """A temporary folder removed on exit."""

    def __enter__(self) -> Path:
        self.path = Path(tempfile.mkdtemp(prefix="pnp-since-"))
        return self.path

    def __exit__(self, *exc) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


# --- the commands ---------------------------------------------------------------------------------------------

def _built(folder: Path, paper: str | None):
    """The design in `folder` built in memory (faces and sheets, no rulebooks, nothing written)."""

    design = load_design(folder)
    return make_designs([design], BuildOptions(paper=paper, rulebooks=False, exports=False, show_progress=False))[0]


def _since_state(folder: Path, since: str | None, paper: str | None) -> tuple[dict, str]:
    """The printed state to compare with (a version code of printed.json, else a git revision), and its name."""
    states = load_states(folder)
    if since is None or any(s.get("version") == since for s in states):
        state = find_state(states, since, folder)
        return state, str(state["version"])
    commit = git_revision(folder, since)
    if commit is None:
        known = ", ".join(str(s.get("version")) for s in states) or "none yet (pnp printed records one)"
        raise PnpError(f"--since {since}: neither a printed state of {folder.name} nor a git revision of its folder; "
                       f"expected a printed state ({known}) or a commit, branch or tag of the repository")
    with TemporaryDesign() as tmp:
        old_folder = design_at(folder, commit, tmp)
        snap = snapshot(_built(old_folder, paper), old_folder)
    return state_of(snap, since, "", ""), since


def printed_command(design: str, note: str = "", paper: str | None = None) -> str:

    folder = resolve_design(design)
    built = _built(folder, paper)
    state = record(folder, snapshot(built, folder), note)
    fronts = [f for f in state["faces"].values() if f.get("side") == "front"]
    return (f"{folder.name}: printed state {state['version']} ({state['date']}) recorded in "
            f"{folder / PRINTED_FILE}: {len(fronts)} fronts, {sum(f.get('count', 0) for f in fronts)} copies")


def changes_command(design: str, since: str | None = None, paper: str | None = None) -> str:

    folder = resolve_design(design)
    old, name = _since_state(folder, since, paper)
    lines = changes(old, snapshot(_built(folder, paper), folder), name)
    return f"{folder.name}: changes since {name}\n" + "\n".join(lines)


def reprint_command(design: str, since: str | None, out: Path, paper: str | None = None,
                    lang: str | None = None) -> str:
    """The reprint sheets PDF of `design` since a printed state, with its replacement list (PDF, text, JSON)."""

    folder = resolve_design(design)
    old, name = _since_state(folder, since, paper)
    built = _built(folder, paper)
    snap = snapshot(built, folder)
    editions = built.languages()
    lang = lang or next(iter(editions))
    if lang not in editions:
        raise PnpError(f"--lang {lang}: {folder.name} has no such edition; expected one of {', '.join(editions)}")
    now = next_version(load_states(folder))
    result = compare(old, snap, lang, name, now)
    stem = f"{built.design.slug}-reprint-{_safe(name)}-{lang + '-' if len(editions) > 1 else ''}{built.paper}"
    files: dict[str, bytes | str] = {
        stem + ".txt": "\n".join(result.lines(lang)) + "\n",
        stem + ".json": json.dumps(result.as_json(), indent=1, ensure_ascii=False, sort_keys=True) + "\n"}
    components = reprint_components(editions[lang], result.print)
    if components:
        sheets = sheets_of(built, components, lang)
        files[stem + ".pdf"] = _with_list(sheets, result, built, lang)
    publish_more(Path(out) / built.design.slug, files)
    shown = [f"{folder.name}: reprint since {name} ({lang})", *("  " + line for line in result.lines(lang))]
    made = sorted(files)
    shown.append(f"  wrote {', '.join(str(Path(out) / built.design.slug / n) for n in made)}")
    if components:
        shown.append(f"  then `pnp printed {folder.name}` once printed, so that the next reprint starts from it")
    return "\n".join(shown)


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name)[:40] or "since"


def _with_list(sheets: bytes, result: Reprint, built, lang: str) -> bytes:
    """The reprint sheets with the replacement list first, on a page of its own and a blank back (so that the
    sheets' fronts and backs stay paired when printed duplex)."""


    reader = PdfReader(io.BytesIO(sheets))
    box = reader.pages[0].mediabox
    width, height = float(box.width), float(box.height)
    fonts.register_furniture()
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(width, height), invariant=1, pageCompression=1)
    title = typeset(say("reprint.title", lang, title=built.design.meta.title_in(lang), since=result.since), lang)
    c.setTitle(title)
    y = height - 20 * mm
    c.setFont(fonts.BOLD, 14)
    c.drawString(15 * mm, y, title)
    y -= 9 * mm
    c.setFont(fonts.REGULAR, 9)
    c.drawString(15 * mm, y, typeset(say("reprint.now", lang, version=result.now), lang))
    y -= 5 * mm
    c.drawString(15 * mm, y, typeset(say("reprint.how", lang), lang))
    y -= 8 * mm
    c.setFont(fonts.REGULAR, 10)
    pages = 1
    for line in result.lines(lang):
        for n, part in enumerate(simpleSplit(line, fonts.REGULAR, 10, width - 36 * mm)):
            if y < 20 * mm:
                c.showPage()
                pages += 1
                c.setFont(fonts.REGULAR, 10)
                y = height - 20 * mm
            c.drawString(22 * mm, y, part)
            if n == 0:
                c.drawString(18 * mm, y, "•")
            y -= 5 * mm
        y -= 1.5 * mm
    c.showPage()
    if pages % 2:
        c.showPage()  # a blank back: the sheets' first front starts a new sheet of paper
    c.save()
    writer = PdfWriter()
    for page in PdfReader(io.BytesIO(buf.getvalue())).pages:
        writer.add_page(page)
    for page in reader.pages:
        writer.add_page(page)
    writer.add_metadata({"/Title": title, "/Producer": "pnp"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
