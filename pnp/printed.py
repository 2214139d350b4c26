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

import io
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import replace
from pathlib import Path

from pypdf import PdfReader, PdfWriter
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from pnp.build import BuildOptions, make_designs, sheets_of
from pnp.errors import PnpError
from pnp.loader import load_design, resolve_design
from pnp.output import publish_more
from pnp.printed_state import (
    PRINTED_FILE,
    Reprint,
    changes,
    compare,
    find_state,
    load_states,
    next_version,
    record,
    snapshot,
    state_of,
)
from pnp.render import fonts
from pnp.render.faces import ComponentFaces, face_path
from pnp.render.typography import typeset
from pnp.words import say


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


    reader = PdfReader(io.BytesIO(sheets if isinstance(sheets, bytes) else bytes(sheets)))  # (art: a SpooledFile)
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
