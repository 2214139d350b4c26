"""The build, as one readable pipeline (after mkdocs' build command):

    designs -> load + validate (all problems at once) -> faces -> SVG text
            -> sheet plan -> PDF bytes -> rulebooks -> exports (PNG, Tabletop Simulator)
            -> manifest, index.html -> write (atomically, only what changed)

Nothing is written until every design has loaded and every face has rendered, so bad
input never leaves a partial output. Every product is kept in a content-hash cache
(pnp.cache, under <out>/.cache/): a rebuild makes again only what its inputs changed —
one edited card re-renders that card's SVG, drawing and PNG, and nothing else of it.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from pnp.cache import CACHE_DIR, NO_CACHE, Cache, key_of
from pnp.errors import DesignError, ErrorReport
from pnp.loader import find_designs, load_designs, resolve_design, templates_dir
from pnp.model import Design
from pnp.output import sync_dir, write_atomic
from pnp.parallel import cores, prun, prun_each
from pnp.registry import FaceSpec
from pnp.render.faces import ComponentFaces, design_faces


@dataclass
class BuiltDesign:
    """Everything one design produces, in memory."""

    design: Design
    components: list[ComponentFaces]
    svgs: dict[str, str]  # "svg/<component>-<face>.svg" -> SVG text
    pdf_name: str = ""
    pdf: bytes = b""
    sheets: int = 0
    manifest: dict = field(default_factory=dict)
    sheets_per_paper: dict[str, int] = field(default_factory=dict)
    extra_files: dict[str, bytes | str] = field(default_factory=dict)  # more outputs, by path under the design's folder
    dirs: dict[str, dict[str, bytes | str]] = field(default_factory=dict)  # folders owned whole: svg/, png/, tts/
    seconds: float = 0.0
    faces: int = 0  # distinct faces (fronts and backs)
    copies: int = 0  # components in the box

    def portable(self) -> "BuiltDesign":
        """What a worker process sends back: everything but the face painters (closures)."""
        self.components = []
        return self


@dataclass
class BuildResult:
    slug: str
    out_dir: Path
    files: list[Path]
    sheets: int
    faces: int
    copies: int
    paper: str = ""
    sheets_per_paper: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    rendered: int = 0  # faces painted in this build (the rest came from the cache)

    def summary(self) -> str:
        per = " · ".join(f"{n} on {p.upper() if p != 'letter' else 'Letter'}" for p, n in self.sheets_per_paper.items())
        return (f"{self.slug}: {self.faces} faces, {self.copies} components on {self.sheets} sheets "
                f"({per}) -> {self.out_dir}")


def face_path(component_id: str, face: FaceSpec) -> str:
    return f"svg/{component_id}-{face.key}.svg"


def select_designs(args: tuple[str, ...] | list[str]) -> list[Design]:
    folders = [resolve_design(a) for a in args] if args else find_designs()
    if not folders:
        report = ErrorReport()
        report.add("designs", None, "no design found; expected folders with a design.yaml under ./designs")
        report.raise_if_any()
    return load_designs(folders)


def _succeeded(status: str, value, report: ErrorReport) -> bool:
    """True for a worker's result; a DesignError joins `report`; anything else is a bug and is raised
    with its traceback."""
    if status == "ok":
        return True
    if isinstance(value, DesignError):
        report.extend(value)
        return False
    raise value


def render_svgs(components: list[ComponentFaces], cache: Cache, report: ErrorReport) -> dict[str, str]:
    """Every face's SVG: from the cache, else painted (on all cores when there are many)."""
    svgs: dict[str, str] = {}
    todo: list[tuple[str, FaceSpec]] = []
    for cf in components:
        for face in cf.fronts + ([cf.back] if cf.back else []):
            path = face_path(cf.component_id, face)
            hit = cache.get("svg", face.cache_key) if face.cache_key else None
            if hit is not None:
                svgs[path] = hit
            else:
                todo.append((path, face))
    for (path, face), (status, value) in zip(todo, prun([face.paint for _, face in todo])):
        if _succeeded(status, value, report):
            svgs[path] = value
            if face.cache_key:
                cache.put("svg", face.cache_key, value)
    return dict(sorted(svgs.items()))


def render_design(design: Design, paper: str | None = None, print_shop: bool = False, cache: Cache = NO_CACHE,
                  exports: bool = True, bar=None, rulebooks: bool = True) -> BuiltDesign:
    """Faces, SVG texts, sheets, PDFs, rulebooks and exports of one design, in memory.

    `rulebooks=False` leaves the rulebooks out (pnp watch writes the sheets first, then them).
    """
    from pnp.layout import pdf as pdf_layout
    from pnp.layout.sheets import SheetOptions, plan, print_shop_sheets, sheets_needed
    from pnp.progress import _Quiet

    bar = bar or _Quiet()
    started = time.perf_counter()
    pdf_layout.use_cache(cache)
    report = ErrorReport()
    components = design_faces(design, report)
    bar.step(f"{design.slug}: faces")
    svgs = render_svgs(components, cache, report)
    report.raise_if_any()
    opts = SheetOptions.from_print(design.print, paper)
    paper = opts.paper
    sheets = plan(components, opts, face_path)
    meta = design.meta
    layout_file = (templates_dir() / "sheets" / "layout.yaml").read_bytes()

    def cached(kind: str, key: str, make):
        value = cache.get(kind, key)
        if value is None:
            value = make()
            cache.put(kind, key, value)
        return value

    bar.step(f"{design.slug}: print sheets")
    pdf = cached("sheets", key_of("sheets", repr(sheets), svgs, meta.title, meta.author, paper, layout_file),
                 lambda: pdf_layout.render_pdf(sheets, svgs, title=meta.title, author=meta.author,
                                               subject=f"{meta.title} print-and-play sheets ({paper.upper()})"))
    name = f"{design.slug}-{paper}{'-proof' if opts.proof else ''}.pdf"
    built = BuiltDesign(design, components, svgs, name, pdf, len(sheets))
    built.sheets_per_paper = sheets_needed(components, opts, face_path)
    if print_shop:
        shop = print_shop_sheets(components, face_path)
        built.extra_files[f"{design.slug}-print-shop.pdf"] = cached(
            "sheets", key_of("print-shop", repr(shop), svgs, meta.title, meta.author),
            lambda: pdf_layout.render_pdf(shop, svgs, title=meta.title, author=meta.author,
                                          subject=f"{meta.title}: one face per page"))
    built.manifest = manifest(built, paper)
    from pnp.rulebook import languages

    if rulebooks and languages(design):  # a design without rules texts has no rulebook (yet)
        bar.step(f"{design.slug}: rulebooks")
        built.extra_files.update(cached("rulebooks", _rulebook_key(design, svgs, paper),
                                        lambda: _rulebooks(design, components, svgs, paper)))
    built.dirs["svg"] = {n.removeprefix("svg/"): t for n, t in svgs.items()}
    if exports:
        from pnp.export import png_faces, tts_decks
        from pnp.index import render_index

        bar.step(f"{design.slug}: PNG and TTS exports")
        pngs = png_faces(svgs, cache)
        built.dirs["png"] = {n.removeprefix("png/"): b for n, b in pngs.items()}
        decks = [cf for cf in components if cf.component.kind == "card" and cf.back is not None]
        deck_svgs = {p: svgs[p] for cf in decks for p in (face_path(cf.component_id, f) for f in cf.fronts + [cf.back])}
        deck_key = key_of("tts", deck_svgs, [(cf.component_id, [(f.key, f.count) for f in cf.fronts]) for cf in decks])
        built.dirs["tts"] = {n.removeprefix("tts/"): b for n, b in
                             cached("tts", deck_key, lambda: tts_decks(components, pngs, face_path)).items()}
        checks = cached("checks", key_of("checks", design.fingerprint(), str(design.folder)),
                        lambda: _static_checks(design))
        files = [built.pdf_name, *built.extra_files]
        built.extra_files["index.html"] = render_index(design, components, face_path, files, checks)
    built.faces = sum(len(cf.fronts) + (1 if cf.back else 0) for cf in components)
    built.copies = sum(cf.copies for cf in components)
    built.seconds = time.perf_counter() - started
    return built


def _rulebooks(design: Design, components: list[ComponentFaces], svgs: dict[str, str], paper: str) -> dict:
    """Every rulebook of the design, one language per core."""
    from pnp.rulebook import languages, render_rulebooks

    langs = languages(design)
    out: dict[str, bytes] = {}
    report = ErrorReport()
    tasks = [lambda lang=lang: render_rulebooks(design, components, svgs, paper, langs=[lang]) for lang in langs]
    for status, value in prun(tasks, min_items=2):
        if _succeeded(status, value, report):
            out.update(value)
    report.raise_if_any()
    return out


def _rulebook_key(design: Design, svgs: dict[str, str], paper: str) -> str:
    texts = sorted((p.name, p.read_bytes()) for p in design.folder.glob("rules.*.md"))
    shared = sorted((str(p), p.read_bytes()) for p in (templates_dir() / "rulebook").glob("**/*") if p.is_file())
    return key_of("rulebooks", texts, [t for _, t in shared], design.fingerprint(), svgs, paper,
                  str(design.folder))


def _static_checks(design: Design):
    """The validator's static checks (no simulation) for index.html, or None if the game has none."""
    from pnp.validate import check_design

    rep = check_design(design, games=0)
    return None if rep.note else [{"name": r.name, "ok": r.ok, "message": r.message, "details": r.details}
                                   for r in rep.results]


def apply_overrides(designs: list[Design], overrides: dict) -> None:
    """Command-line print options replace the designs' own (validated like the design file)."""
    from pydantic import ValidationError

    from pnp.loader import describe_error
    from pnp.model import PrintSettings

    given = {k: v for k, v in overrides.items() if v is not None}
    if not given:
        return
    try:
        parsed = PrintSettings.model_validate(given)
    except ValidationError as exc:
        report = ErrorReport()
        for err in exc.errors():
            report.add("command line", None, "--" + describe_error(err, PrintSettings).replace("_", "-", 1))
        report.raise_if_any()
    for design in designs:
        design.print = design.print.model_copy(update={k: getattr(parsed, k) for k in given})


def manifest(built: BuiltDesign, paper: str) -> dict:
    d = built.design
    entries = []
    for cf in built.components:
        for index, face in enumerate(cf.fronts, start=1):
            entries.append({
                "component": cf.component_id,
                "kind": cf.component.kind,
                "shape": face.shape,
                "index": index,
                "key": face.key,
                "count": face.count,
                "trim_mm": [round(face.width, 3), round(face.height, 3)],
                "bleed_mm": round(face.bleed, 3),
                "face": face_path(cf.component_id, face),
                "back": face_path(cf.component_id, cf.back) if cf.back else None,
                "data": face.data,
            })
    return {
        "design": d.slug,
        "title": d.meta.title,
        "version": d.meta.version,
        "paper": paper,
        "pdf": built.pdf_name,
        "sheets": built.sheets,
        "components": entries,
    }


def write_design(built: BuiltDesign, out: Path) -> BuildResult:
    """Write a built design: owned folders made to hold exactly their files, other files replaced.

    Files whose content did not change are left alone (their dates too), so a designer's
    viewer or file watcher only sees what really changed.
    """
    target = out / built.design.slug
    for folder, files in built.dirs.items():
        sync_dir(target / folder, files)
    write_atomic(target / built.pdf_name, built.pdf, only_if_changed=True)
    write_atomic(target / "manifest.json", json.dumps(built.manifest, indent=2, ensure_ascii=False) + "\n",
                 only_if_changed=True)
    for name, data in built.extra_files.items():
        write_atomic(target / name, data, only_if_changed=True)
    files = ([target / built.pdf_name, target / "manifest.json"] + [target / n for n in built.extra_files]
             + [target / folder / n for folder, files in built.dirs.items() for n in files])
    return BuildResult(built.design.slug, target, files, built.sheets, built.faces, built.copies,
                       built.manifest["paper"], built.sheets_per_paper, built.seconds)


def build_designs(args: tuple[str, ...] | list[str], out: Path = Path("output"), paper: str | None = None,
                  overrides: dict | None = None, print_shop: bool = False, exports: bool = True,
                  cache: Cache | None = None, show_progress: bool | None = None,
                  rulebooks: bool = True) -> list[BuildResult]:
    """Build every selected design; nothing is written unless all of them render.

    `overrides` are print settings from the command line (orientation, duplex, back_offset,
    marks, proof) that replace the designs' own. `cache` defaults to <out>/.cache on disk.
    """
    from pnp.progress import progress

    designs = select_designs(args)
    apply_overrides(designs, overrides or {})
    if cache is None:  # on disk beside the output; PNP_CACHE_DIR moves it (a shared cache for CI or tests)
        cache = Cache(Path(os.environ.get("PNP_CACHE_DIR") or Path(out) / CACHE_DIR))
    report = ErrorReport()
    built = []
    with progress(show_progress) as bar:
        if len(designs) > 1 and cores() > 1:
            # several designs: one per core at a time (each made serially in its worker)
            bar.step(f"building {len(designs)} designs", len(designs))
            # longest first (rulebook texts and faces are most of the work), so the cores finish together
            order = sorted(designs, key=_expected_work, reverse=True)
            tasks = [lambda d=d: render_design(d, paper, print_shop, cache, exports, None, rulebooks).portable()
                     for d in order]
            for status, value in prun_each(tasks):
                bar.advance()
                if _succeeded(status, value, report):
                    built.append(value)
        else:
            for design in designs:
                try:
                    built.append(render_design(design, paper, print_shop, cache, exports, bar, rulebooks))
                except DesignError as exc:
                    report.extend(exc)
    report.raise_if_any()
    slugs = [d.slug for d in designs]
    built.sort(key=lambda b: slugs.index(b.design.slug))  # workers finish in any order; report in the designs'
    return [write_design(b, Path(out)) for b in built]


def _expected_work(design: Design) -> float:
    """A rough weight of a design's build, to start the longest first: its rulebooks and its faces."""
    from pnp.rulebook import languages

    try:
        books = len(languages(design))
    except DesignError:
        books = 0
    faces = sum(len(c.data) if isinstance(c.data, list) else 1 for c in design.components.values())
    return books + faces / 20


def describe_designs(args: tuple[str, ...] | list[str]) -> str:
    """`pnp list`: each design and its components with counts."""
    from pnp.render.faces import design_faces

    lines = []
    for design in select_designs(args):
        m = design.meta
        lines.append(f"{design.slug}  ({m.title}, {m.author}, {m.year or '-'}; {m.players} players)")
        for cf in design_faces(design):
            back = ", 1 shared back" if cf.back else ""
            name = cf.component.display_name("en")
            lines.append(f"  {cf.component_id:<20} {cf.component.kind:<6} {len(cf.fronts):>3} faces, "
                         f"{cf.copies:>3} copies{back}   {name}")
    return "\n".join(lines)
