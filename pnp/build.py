"""The build, as one readable pipeline (after mkdocs' build command):

    designs -> load + validate (all problems at once) -> faces -> SVG text
            -> sheet plan -> PDF bytes -> rulebooks -> exports (PNG, Tabletop Simulator)
            -> manifest, index.html -> publish (one unit per design, only what changed)

Nothing is written until every design has loaded and every face has rendered, so bad
input never leaves a partial output; each design's output is then published as one unit
(pnp.output). Every product is kept in a content-hash cache (pnp.cache, under
<out>/.cache/): a rebuild makes again only what its inputs changed — one edited card
re-renders that card's SVG and PNG, and nothing else of it.
"""

from __future__ import annotations

import contextlib
import fnmatch
import gc
import json
import os
import pickle
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from pydantic_core import ValidationError

from pnp import products
from pnp.cache import NO_CACHE, Cache, default_cache
from pnp.errors import (
    DesignError,
    ErrorReport,
    PnpError,
    display_path,
    portable_warnings,
    replay_portable,
    replay_warnings,
    warn,
    warnings_mark,
    warnings_since,
)
from pnp.loader import describe_error, package_root, select_designs, templates_dir
from pnp.model import LANGUAGES, Design, PrintSettings
from pnp.output import OutputLock, Stage, check_out, previous_files, previous_manifest, publish, publish_more
from pnp.parallel import cores, in_worker, pooled, prun, prun_each, succeeded
from pnp.progress import _Quiet, progress
from pnp.render import fonts
from pnp.render.art import ArtFiles, output_svg
from pnp.render.faces import (
    ComponentFaces,
    FaceStream,
    all_faces,
    design_faces,
    face_path,
    language_faces,
    languages_of,
    paint_compiled,
    prepare_compile,
)
from pnp.render.facespec import FaceSpec

PAPER_NAMES = {"a4": "A4", "letter": "Letter", "a3": "A3"}


@dataclass(frozen=True)
class BuildOptions:
    """What the command line asks of a build, as one value (`pnp build`, `pnp export`, `pnp watch`, validate)."""

    paper: str | None = None  # a4 | letter | a3; None: each design's print.paper
    overrides: Mapping[str, Any] = field(default_factory=dict)  # print settings replacing the designs' own
    print_shop: bool | str = False  # also the print-shop PDF; "x-1a" | "x-4": as PDF/X
    exports: bool | frozenset[str] | None = None  # names of EXPORTS (True: all); None: those made before; False: none
    rulebooks: bool = True  # False: the rulebooks are left for a second pass (pnp watch writes the sheets first)
    tts_base_url: str | None = None  # where the Tabletop Simulator export's images will be hosted
    show_progress: bool | None = None  # None: when the output is a terminal
    scheduler: str = "auto"  # how the products are made: a name of SCHEDULERS, or "auto"

    def __post_init__(self) -> None:
        if isinstance(self.exports, (set, list, tuple)):
            object.__setattr__(self, "exports", frozenset(self.exports))
        if self.scheduler != "auto" and self.scheduler not in SCHEDULERS:
            raise ValueError(f"scheduler {self.scheduler!r}: expected auto or one of {', '.join(SCHEDULERS)}")


@dataclass(frozen=True)
class DesignJob:
    """One design of a build, with what its folder adds to the options: the exports to make (those asked for and
    those an earlier build made into the folder) and their options."""

    design: Design
    exports: frozenset[str] = frozenset()
    export_options: Mapping[str, str] = field(default_factory=dict)


@dataclass
class BuiltDesign:
    """Everything one design produces, in memory."""

    design: Design
    components: list[ComponentFaces]  # in the design's first language
    svgs: dict[str, str]  # "svg/<component>-<face>[.<lang>].svg" -> SVG text (every language's faces)
    by_lang: dict[str, list[ComponentFaces]] = field(default_factory=dict)  # each language's components (a face
    # shared by the languages is in each, under one path); empty: `components` alone
    paper: str = ""
    pdf_name: str = ""
    pdf: bytes = b""
    sheets: int = 0
    manifest: dict = field(default_factory=dict)
    sheets_per_paper: dict[str, int] = field(default_factory=dict)
    extra_files: dict[str, bytes | str] = field(default_factory=dict)  # more outputs, by path under the design's folder
    dirs: dict[str, dict[str, bytes | str]] = field(default_factory=dict)  # svg/, png/, tts/: name -> content
    seconds: float = 0.0
    faces: int = 0  # distinct faces (fronts and backs)
    copies: int = 0  # components in the box
    deferred: list[str] = field(default_factory=list)  # patterns of the files of a stage left for a second pass
    # (pnp watch: the rulebooks), which publishing keeps as they are
    exports: list[str] = field(default_factory=list)  # the exports made (kept up to date by later builds)
    export_options: dict = field(default_factory=dict)  # their options given once (tts_base_url), kept too
    sheet_plan: list = field(default_factory=list)  # the print sheets' layout (the kit redraws it)
    notes: list[str] = field(default_factory=list)  # what an export could not do (printed with the summary)
    printed: list[str] = field(default_factory=list)  # copies printed per component ("cards 116 (copies: qty)")
    stage: Any = None  # svg/ files written ahead into the output folder (pnp.output.Stage), moved in when published
    sheets_of: dict[str, tuple[str, list]] = field(default_factory=dict)  # lang -> (its sheets PDF, its plan)

    def portable(self) -> "BuiltDesign":
        """A copy for a worker process to send back: everything but the face painters (closures) and the plans."""
        return replace(self, components=[], sheet_plan=[], by_lang={},
                       sheets_of={lang: (name, []) for lang, (name, _) in self.sheets_of.items()})

    def languages(self) -> dict[str, list[ComponentFaces]]:
        """Each language's components: by_lang, else the first language's alone."""
        return self.by_lang or {languages_of(self.design)[0]: self.components}

    def multilingual(self) -> bool:
        return len(self.languages()) > 1

    def differs_by_language(self) -> bool:
        """Whether some face is drawn otherwise in another language (then exports are made per language)."""
        return self.multilingual() and any(f.lang for cf in self.components for f in cf.sides)

    def files(self) -> dict[str, bytes | str]:
        """Every output file but the manifest, by path under the design's folder."""
        out: dict[str, bytes | str] = {self.pdf_name: self.pdf, **self.extra_files}
        for folder, files in self.dirs.items():
            out.update({f"{folder}/{name}": data for name, data in files.items()})
        return out

    def paper_files(self) -> list[str]:
        """The files that belong to this build's paper (they sit beside other papers' own)."""
        return sorted(n for n in self.files() if n.endswith(f"-{self.paper}.pdf") or n.endswith(f"-{self.paper}-proof.pdf"))


@dataclass
class BuildResult:
    slug: str
    out_dir: Path
    files: list[Path]  # every file of this build (written or already up to date)
    sheets: int
    faces: int
    copies: int
    paper: str = ""
    sheets_per_paper: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    rendered: int = 0  # faces painted in this build (the rest came from the cache)
    written: list[str] = field(default_factory=list)  # files whose content changed
    removed: list[str] = field(default_factory=list)  # files of an earlier build this one no longer makes
    pdf_name: str = ""
    notes: list[str] = field(default_factory=list)  # what an export could not do
    printed: list[str] = field(default_factory=list)  # copies printed per component
    kept: list[str] = field(default_factory=list)  # files of other papers or options an earlier build made, kept

    def summary(self) -> str:
        """Which files this build made (sheets with their count; the other papers' counts where they differ)."""
        base = os.path.join(os.fspath(self.out_dir), "")
        names = sorted(os.fspath(p)[len(base):].replace(os.sep, "/") if os.fspath(p).startswith(base) else
                       p.relative_to(self.out_dir).as_posix() for p in self.files)  # (10,000 faces: no Path work)
        top = [n for n in names if "/" not in n and n != self.pdf_name]
        folders: dict[str, int] = {}
        for n in names:
            if "/" in n:
                folders[n.split("/")[0]] = folders.get(n.split("/")[0], 0) + 1
        others = [f"{n} on {PAPER_NAMES.get(p, p)}" for p, n in self.sheets_per_paper.items()
                  if p != self.paper and n != self.sheets]
        sheets = f"{self.sheets} {PAPER_NAMES.get(self.paper, self.paper)} sheet{'s' * (self.sheets != 1)}"
        parts = [f"{self.pdf_name} ({sheets}{'; ' + ', '.join(others) if others else ''})"]
        parts += top + [f"{folder}/ ({n} files)" for folder, n in sorted(folders.items())]
        change = f"{len(self.written)} written, {len(self.files) - len(self.written)} unchanged"
        if self.removed:
            change += f", {len(self.removed)} removed ({', '.join(self.removed[:3])}{', ...' if len(self.removed) > 3 else ''})"
        if self.kept:
            change += (f", {len(self.kept)} kept from builds with other options or papers "
                       f"({', '.join(self.kept[:3])}{', ...' if len(self.kept) > 3 else ''}; `pnp clean` removes them)")
        notes = "".join(f"\n  note: {n}" for n in self.notes[:10])
        if len(self.notes) > 10:
            notes += f"\n  ... and {len(self.notes) - 10} more (see the reports)"
        printed = f"\n  printed: {', '.join(self.printed)}" if self.printed else ""
        return (f"{self.slug}: {self.faces} faces, {self.copies} components -> {display_path(self.out_dir)}/\n"
                f"  {', '.join(parts)}{printed}\n  {change}{notes}")


def render_svgs(components: list[ComponentFaces], cache: Cache, report: ErrorReport,
                folder: Path | None = None, compiled: dict | None = None) -> dict[str, str]:
    """Every face's SVG: from the cache, else painted (on all cores when there are many). With `compiled`
    (a dict), each face painted now is also compiled for the sheets where it was painted, into compiled[path]
    (pnp.render.faces.paint_compiled)."""
    svgs, todo = _cached_faces(components, cache, folder)
    _paint([(0, path, face) for path, face in todo], [svgs], [report], cache,
           None if compiled is None else [compiled])
    return dict(sorted(svgs.items()))


def stream_svgs(components: list[ComponentFaces], cache: Cache, report: ErrorReport, folder: Path | None,
                compiled: dict, stage_to: Path | None = None) -> dict[str, str] | FaceStream:
    """render_svgs, streamed: with faces to paint (each with a cache key), a pnp.render.faces.FaceStream, the faces
    while they are being painted and compiled (its finish() gives the dict); when its workers paint them from the
    start, they also write the faces' svg/ files as they go, into a stage (pnp.output.Stage, the FaceStream's
    `stage`) of the design's output folder `stage_to`. Else, or with problems found already (every face is then
    painted now: the build reports all of them at once), the dict of render_svgs."""
    svgs, todo = _cached_faces(components, cache, folder)
    if todo and not report and all(face.cache_key for _, face in todo):
        stage = Stage(stage_to) if stage_to is not None and pooled(len(todo)) else None
        try:
            return FaceStream(svgs, todo, cache, report, compiled, stage)
        except BaseException:
            if stage is not None:
                stage.discard()
            raise
    _paint([(0, path, face) for path, face in todo], [svgs], [report], cache, [compiled])
    return dict(sorted(svgs.items()))


def render_svgs_of(jobs: list[tuple[list[ComponentFaces], Path | None, ErrorReport]], cache: Cache,
                   compiled: list[dict] | None = None) -> list[dict]:
    """render_svgs for several designs at once (components, folder, report each): the faces none of them has in
    the cache are painted together, on all cores when there are many. With `compiled` (a dict per design), each
    face painted now is also compiled for the sheets where it was painted (pnp.render.faces.paint_compiled).

    Each design's first face is painted here first: what it fills (the design's templates compiled, its game's
    painters imported, their caches) the workers inherit, instead of each filling it again (that
    made the shipped designs' 232 faces take longer on two cores than here alone)."""
    out: list[dict[str, str]] = []
    todo: list[tuple[int, str, FaceSpec]] = []
    for i, (components, folder, _) in enumerate(jobs):
        svgs, missing = _cached_faces(components, cache, folder)
        out.append(svgs)
        todo += [(i, path, face) for path, face in missing]
    reports = [report for _, _, report in jobs]
    firsts: dict[int, tuple[int, str, FaceSpec]] = {}
    for job in todo:
        firsts.setdefault(job[0], job)
    _paint(list(firsts.values()), out, reports, cache, compiled)  # (a few: here)
    warm = {id(job) for job in firsts.values()}
    todo = [job for job in todo if id(job) not in warm]
    n = cores()
    todo = [job for k in range(n) for job in todo[k::n]]  # prun gives each core a slice: every n-th face each, as
    # neighbours cost alike (a board's faces, a deck's cards)
    _paint(todo, out, reports, cache, compiled)
    return [dict(sorted(svgs.items())) for svgs in out]


def _cached_faces(components: list[ComponentFaces], cache: Cache,
                  folder: Path | None) -> tuple[dict[str, str], list[tuple[str, FaceSpec]]]:
    """The faces' SVG texts found in the cache (their warnings replayed), and the faces to paint, in print order."""
    svgs: dict[str, str] = {}
    todo: list[tuple[str, FaceSpec]] = []
    seen: set[str] = set()
    for cf in components:
        for face in cf.sides_in_print_order:
            path = face_path(cf.component_id, face)
            if path in seen:  # (a face every language shares: once)
                continue
            seen.add(path)
            hit = cache.get("svg", face.cache_key) if face.cache_key else None
            if hit is not None:
                svgs[path] = hit
                if folder is not None:
                    replay_warnings(hit, folder)
            else:
                todo.append((path, face))
    return svgs, todo


def _paint(todo: list[tuple[int, str, FaceSpec]], out: list[dict[str, str]], reports: list[ErrorReport],
           cache: Cache, compiled: list[dict] | None) -> None:
    """Paint (design, face path, face) each on all cores into out[design], its problems into reports[design];
    with `compiled`, each also compiled where it was painted, into compiled[design]."""
    if compiled is not None and todo:
        prepare_compile()
        tasks: list = [partial(paint_compiled, face) for _, _, face in todo]
    else:
        tasks = [face.paint for _, _, face in todo]
    made = []
    for (i, path, face), (status, result) in zip(todo, prun(tasks)):
        if succeeded(status, result, reports[i]):
            value: Any = result
            if compiled is not None:
                value, drawing = value
                if drawing is not None:
                    compiled[i][path] = drawing
            out[i][path] = value
            if face.cache_key:
                made.append((face.cache_key, value))
    cache.put_many("svg", made)


EXPORTS = ("png", "tts", "kit", "kit-ink-saver")
"""Exports a build makes only when asked (`pnp export png`, `pnp build --export png`); once made for a
design's output folder, later builds keep them up to date. Besides these, `print-service:<service>`
(a service of pnp/data/print_services.yaml)."""
PRINT_SERVICE = "print-service:"


def known_export(name: str) -> bool:
    if name.startswith(PRINT_SERVICE):
        from pnp.data.services import load_services  # lazy: 89 ms (pnp.data.services)

        return name.removeprefix(PRINT_SERVICE) in load_services()
    return name in EXPORTS


def render_design(job: DesignJob | Design, options: BuildOptions = BuildOptions(), cache: Cache = NO_CACHE, *,
                  bar=None, painted: tuple[dict[str, list[ComponentFaces]], dict[str, str]] | None = None,
                  compiled: dict | None = None, out: Path | None = None, stage=None, stream: bool = True) -> BuiltDesign:
    """Everything one design makes, in memory, product by product (each through the cache, pnp.products):

    faces -> SVG texts -> print sheets (+ print-shop PDF) -> rulebooks -> contact sheet -> exports
    (those of EXPORTS the job asks for) -> manifest. `options.rulebooks=False` leaves the rulebooks out (pnp watch
    writes the sheets first, then them). `painted`: the faces and their SVG texts, when made already (and
    `compiled`: those compiled where they were painted, face path -> drawing); else they are painted here, streamed
    to the sheets as they come (`stream`) or all before them. `out`: where write_design will publish it (the faces'
    workers may write svg/ files ahead into its folder: `built.stage`); or `stage`: a stage (pnp.output.Stage) to
    write the svg/ files into, here (a worker of several designs' build).
    """
    job = job if isinstance(job, DesignJob) else DesignJob(job)
    design = job.design
    bar = bar or _Quiet()
    started = time.perf_counter()
    built = _faces_and_sheets(design, options, cache, bar, painted, compiled,
                              None if out is None else Path(out) / design.slug, stream)
    if stage is not None and built.stage is None:
        _write_ahead(built, stage)
    from pnp.rulebook import languages  # lazy: 1.9 ms (pnp.rulebook)

    try:
        if not options.rulebooks:
            built.deferred.append(f"{design.slug}-rules-*.pdf")
        elif languages(design):  # a design without rules texts has no rulebook (yet)
            bar.step(f"{design.slug}: rulebooks")
            built.extra_files.update(_cached_rulebooks(built, cache))
        _finish(built, cache, job.exports, job.export_options, bar)
    except BaseException:
        discard_stages([built])
        raise
    built.seconds = time.perf_counter() - started
    return built


def _whole_design(job: DesignJob, options: BuildOptions, cache: Cache, painted, compiled: dict, stage) -> BuiltDesign:
    """A pool's task: render_design of one design whose faces are painted, as a worker sends it back."""
    return render_design(job, options, cache, painted=painted, compiled=compiled, stage=stage).portable()


def discard_stages(built: list[BuiltDesign]) -> None:
    """The files written ahead for builds that will not be published (a design failed) go."""
    for b in built:
        if b.stage is not None:
            b.stage.discard()
            b.stage = None


def _faces_and_sheets(design: Design, options: BuildOptions, cache: Cache, bar,
                      painted: tuple[dict[str, list[ComponentFaces]], dict[str, str]] | None = None,
                      compiled: dict | None = None, target: Path | None = None, stream: bool = True) -> BuiltDesign:
    """The first products of render_design: faces, their SVG texts, the print sheets, svg/. Without `painted`, the
    faces are painted (and compiled) here, in workers while the sheets are drawn with `stream` (and, given the
    output folder `target`, their svg/ files written ahead into a stage there); with it, `compiled`: the faces
    that were compiled where they were painted (face path -> drawing)."""
    bar = bar or _Quiet()
    svgs: dict[str, str]
    if painted is None:
        report = ErrorReport()
        by_lang = language_faces(design, report)
        bar.step(f"{design.slug}: faces")
        compiled = {}  # face path -> its drawing, compiled where it was painted
        every = all_faces(by_lang)
        svgs = (stream_svgs(every, cache, report, design.folder, compiled, stage_to=target) if stream
                else render_svgs(every, cache, report, design.folder, compiled))
        report.raise_if_any()
    else:
        by_lang, svgs = painted
    components = next(iter(by_lang.values()))
    built = BuiltDesign(design, components, svgs, by_lang if len(by_lang) > 1 else {},
                        stage=svgs.stage if isinstance(svgs, FaceStream) else None)
    try:
        bar.step(f"{design.slug}: print sheets")
        _sheets_stage(built, options.paper, options.print_shop, cache, compiled)  # draws faces as they are painted
        if compiled is not None:
            compiled.clear()
        built.dirs["svg"] = _svg_files(design, built.svgs)
    except BaseException:
        discard_stages([built])
        raise
    return built


def _cached_rulebooks(built: BuiltDesign, cache: Cache) -> dict[str, bytes]:
    """The design's rulebooks, through the cache, on the paper that goes with its print sheets."""
    from pnp.rulebook import rulebook_paper  # lazy: 1.9 ms (pnp.rulebook)

    design, by_lang, svgs = built.design, built.languages(), built.svgs
    book_paper = rulebook_paper(built.paper)
    made = cache.cached("rulebooks", _rulebook_key(design, svgs, book_paper),
                        lambda: _rulebooks(design, by_lang, svgs, book_paper, cache))
    return _replayed(made, design)


WARNINGS_ENTRY = ".pnp-warnings"
"""The entry of a rulebooks product (name -> PDF bytes) that holds the warnings its texts gave when it was made
(raw HTML printed as written, an unknown footnote, a character no font has...): a build that takes the rulebooks
from the cache says them again."""


def _replayed(made: dict, design: Design) -> dict[str, bytes]:
    """A rulebooks product without its warnings entry, the warnings recorded again."""
    if WARNINGS_ENTRY not in made:
        return made
    replay_portable(made[WARNINGS_ENTRY], design.folder)
    return {name: data for name, data in made.items() if name != WARNINGS_ENTRY}


def _finish(built: BuiltDesign, cache: Cache, exports: frozenset[str] | set[str], export_options: Mapping | None,
            bar, index: bool = True) -> None:
    """The last stages of render_design: exports, contact sheet, counts, manifest."""
    bar = bar or _Quiet()
    built.export_options = dict(export_options or {})
    if exports:
        bar.step(f"{built.design.slug}: {', '.join(sorted(exports))} exports")
        _exports_stage(built, cache, exports)
    if index:
        _index_stage(built, cache)
    built.faces = sum(len(cf.sides) for cf in built.components)
    built.copies = sum(cf.copies for cf in built.components)
    built.printed = printed_counts(built.components)
    built.manifest = manifest(built)


def printed_counts(components: list[ComponentFaces]) -> list[str]:
    """The copies each component puts on the print sheets, and which column of its table gave them: "cards 116
    (copies from column 'qty' of data/deck.csv)"; a component split by group_by, per deck."""
    out = []
    for cf in components:
        text = f"{cf.component_id} {cf.copies}"
        if cf.table is not None and (cf.table[1] is not None) and (cf.parent == "" or cf is _first_of(components, cf)):
            file, column = cf.table
            where = f" of {display_path(file)}" if file is not None else ""
            text += f" (copies from column '{column}'{where})"
        out.append(text)
    return out


def _first_of(components: list[ComponentFaces], cf: ComponentFaces) -> ComponentFaces:
    return next(c for c in components if c.parent == cf.parent)


def _svg_files(design: Design, svgs: dict[str, str]) -> dict:
    """svg/: every face, standing alone (the art it shows copied under svg/art/, read when published)."""
    files = ArtFiles(design.folder)
    copies: dict[str, object] = {}
    out: dict = {n.removeprefix("svg/"): output_svg(t, files, copies) for n, t in svgs.items()}
    out.update(copies)
    return out


def _sheets_stage(built: BuiltDesign, paper: str | None, print_shop: bool | str, cache: Cache,
                  compiled: dict | None = None) -> None:
    """The print sheets PDF for `paper` (and the print-shop PDF), and the sheet counts per paper."""
    from pnp.layout.sheets import (  # lazy: 35 ms (pnp.layout.sheets)
        SheetOptions,
        plan,
        plan_advice,
        sheets_needed,
    )

    design, svgs = built.design, built.svgs
    by_lang = built.languages()
    many = len(by_lang) > 1
    meta = design.meta
    art = ArtFiles(design.folder)
    layout_file = (templates_dir() / "sheets" / "layout.yaml").read_bytes()
    for n, (lang, components) in enumerate(by_lang.items()):  # each language's sheets, with its faces and words
        opts = replace(SheetOptions.from_print(design.print, paper), lang=lang)
        try:
            sheets = plan(components, opts, face_path)
        except DesignError:
            if isinstance(svgs, FaceStream):
                svgs.finish()  # a face's problems first, as when every face was painted before the plan
            raise
        name = f"{design.slug}-{lang + '-' if many else ''}{opts.paper}{'-proof' if opts.proof else ''}.pdf"
        pdf = cache.cached(
            "sheets", products.SHEETS.key(plan=plan_bytes(sheets), face_keys=_faces_key(components, svgs),
                                         title=meta.title_in(lang), author=meta.author, paper=opts.paper,
                                         language=lang,
                                         sheet_layout=layout_file),
            partial(_draw_sheets, design, sheets, svgs, cache, art, opts.paper, compiled, lang))
        if isinstance(svgs, FaceStream):  # painted while the sheets were drawn: every face now, or every problem
            built.svgs = svgs = svgs.finish()
        built.sheets_of[lang] = (name, sheets)
        if n == 0:
            built.paper, built.pdf_name, built.pdf = opts.paper, name, pdf
            built.sheets = len(sheets)
            built.sheet_plan = sheets
            built.notes += plan_advice(sheets)
            built.sheets_per_paper = sheets_needed(components, opts, face_path, planned=sheets)
        else:
            built.extra_files[name] = pdf
    if print_shop:
        _print_shop(built, print_shop, cache)


def sheets_of(built: BuiltDesign, components: list[ComponentFaces], lang: str, cache: Cache = NO_CACHE) -> bytes:
    """Print sheets of `components` (some faces of `built`, with the copies to print) laid out and drawn as the
    design's own sheets of edition `lang` are (its paper and print settings, backs behind their fronts): the
    reprint of pnp.printed."""
    from pnp.layout.sheets import SheetOptions, plan  # lazy: 35 ms (pnp.layout.sheets)

    design = built.design
    opts = replace(SheetOptions.from_print(design.print, built.paper or None), lang=lang)
    sheets = plan(components, opts, face_path)
    return _draw_sheets(design, sheets, built.svgs, cache, ArtFiles(design.folder), opts.paper, None, lang)


def _print_shop(built: BuiltDesign, print_shop: bool | str, cache: Cache) -> None:
    """The print-shop PDF (one face per page) and its CSV of copies: one per language, named like the sheets
    (<design>-<lang>-print-shop.pdf), when a face differs by language; else one, <design>-print-shop.pdf."""
    from pnp.layout.sheets.print_shop import (
        bleed_warnings,
        pdfx_warnings,
        print_shop_report,
        print_shop_sheets,
        print_shop_summary,
    )  # lazy: 33 ms (pnp.layout.sheets.print_shop)

    design, svgs, meta = built.design, built.svgs, built.design.meta
    art = ArtFiles(design.folder)
    pdfx = print_shop if isinstance(print_shop, str) else ""  # "x-1a" | "x-4": PDF/X (pnp.layout.pdfx)
    editions = list(built.languages().items()) if built.differs_by_language() else \
        [(next(iter(built.languages())), built.components)]
    each = len(editions) > 1
    names = {lang: f"{design.slug}-{lang + '-' if each else ''}print-shop" for lang, _ in editions}
    for lang, components in editions:
        shop = print_shop_sheets(components, face_path, lang)
        title = meta.title_in(lang)
        pdf_name = names[lang] + ".pdf"
        built.extra_files[pdf_name] = cache.cached(
            "sheets", products.PRINT_SHOP.key(shop_plan=repr(shop), face_keys=_faces_key(components, svgs),
                                             title=title, author=meta.author, pdfx=pdfx, language=lang),
            partial(_draw_print_shop, design, shop, svgs, cache, art, title, pdfx))
        if pdfx:
            pdfx_warnings(design, components, pdfx, pdf_name, bytes(built.extra_files[pdf_name]))  # type: ignore[arg-type]
        built.extra_files[names[lang] + ".csv"] = print_shop_report(components)
        built.notes.append(f"{names[lang]}: {print_shop_summary(components)}; copies per page in {names[lang]}.csv")
    bleed_warnings(design, built.components, " and ".join(n + ".pdf" for n in names.values()))


def _draw_print_shop(design: Design, shop: list, svgs: Mapping[str, str], cache: Cache, art: Any, title: str,
                     pdfx: str) -> bytes:
    """One edition's print-shop PDF bytes, in the design's fonts (as PDF/X when `pdfx` names a version)."""
    from pnp.layout import pdf as pdf_layout  # lazy: 122 ms (pnp.layout)
    from pnp.layout.sheets.print_shop import pdfx_of  # lazy: 33 ms (pnp.layout.sheets.print_shop)

    return pdfx_of(fonts.in_design_fonts(design, lambda: pdf_layout.render_pdf(
        shop, svgs, title=title, author=design.meta.author, cache=cache, resources=art,
        subject=f"{title}: one face per page")), pdfx, title)


def _draw_sheets(design: Design, sheets: list, svgs: Mapping[str, str], cache: Cache, art: Any, paper: str,
                 compiled: dict | None, lang: str = "") -> bytes:
    """The print sheets' PDF bytes (pnp.layout.pdf), in the design's fonts, titled in the edition's language."""
    from pnp.layout import pdf as pdf_layout  # lazy: 122 ms (pnp.layout)

    meta = design.meta
    title = meta.title_in(lang) if lang else meta.title
    return fonts.in_design_fonts(design, lambda: pdf_layout.render_pdf(
        sheets, svgs, title=title, author=meta.author, cache=cache, resources=art,
        subject=f"{title} print-and-play sheets ({paper.upper()})", compiled=compiled))


def check_printed_names(design: Design) -> None:
    """The title, the author and the components' names, which pnp prints itself (the sheets' footers, the
    kit's cover and bookmarks, the rulebooks' title page), in the shipped fonts and the design's: a character
    none has is a warning at its design.yaml line (it prints as a white square)."""
    doc = design.source
    own = None
    titles = design.meta.titles.items() if design.meta.titles else [("", design.meta.title)]
    texts: list[tuple[tuple, str]] = [(("meta", "title") + ((lang,) if lang else ()), title) for lang, title in titles]
    texts.append((("meta", "author"), design.meta.author or ""))
    for cid, comp in design.components.items():
        names = comp.name.items() if isinstance(comp.name, dict) else [("", comp.name)]
        texts += [(("components", cid, "name") + ((lang,) if lang else ()), str(name)) for lang, name in names]
    for loc, text in texts:
        if not text or text.isascii():
            continue
        if own is None:
            own = fonts.design_fonts(design)
        _, missing = fonts.split(text, fonts.chain("DejaVu Sans", own=own))
        if missing:
            shown = ", ".join(fonts.describe(ch) for ch in missing[:5])
            warn(doc.path, doc.line(loc), f"{'.'.join(str(p) for p in loc)}: no font has {shown}, which pnp prints "
                 "as a white square (the sheets' footers, the kit, the rulebook's title page); expected a font "
                 "of the design that has it (fonts:)")


def plan_bytes(sheets: list) -> bytes:
    """The sheets' plan as bytes for a cache key: pickled (never read back, only hashed), three times faster than
    its repr for a 10,000-card deck (6 MB of text). The same plan made the same way gives the same bytes."""
    return pickle.dumps(sheets, protocol=5)


def _faces_key(components: list[ComponentFaces], svgs: dict[str, str]):
    """What the faces put into a key: their cache keys (which fix their SVGs, so the key is known before they
    are painted), or their SVGs when one of them has none."""
    keys = {face_path(cf.component_id, f): f.cache_key for cf in components for f in cf.sides}
    return sorted(keys.items()) if all(keys.values()) else svgs


def _index_stage(built: BuiltDesign, cache: Cache, more: list[str] | None = None) -> None:
    """The contact sheet (index.html): every face with its count, the static checks, links (to `more` files
    too: the rulebooks, when another task makes them)."""
    from pnp.index import render_index  # lazy: 2.5 ms (pnp.index)

    design = built.design
    report = static_report(design, cache)
    files = [built.pdf_name, *built.extra_files, *(more or [])]
    for folder, names in built.dirs.items():  # the exports' entry points: TTS saved object, print reports
        files += [f"{folder}/{n}" for n in names if n.endswith((".json", "report.txt"))]
    built.extra_files["index.html"] = render_index(design, built.components, face_path, files, report,
                                                   built.dirs.get("svg", {}), cache, built.by_lang or None,
                                                   _printed_changes(built))


def _printed_changes(built: BuiltDesign) -> dict | None:
    """What changed since the design's last printed state (its printed.json, `pnp printed`), for the contact
    sheet; a printed.json pnp cannot read is a warning (`pnp changes` says the same as an error)."""
    if not (built.design.folder / "printed.json").is_file():
        return None
    from pnp.printed_state import since_last  # lazy: 7.3 ms (pnp.printed_state), for a design with printed states

    try:
        return since_last(built, built.design.folder)
    except DesignError as exc:
        for problem in exc.problems:
            warn(problem.file, problem.line, problem.message + "; the contact sheet shows no changes")
        return None


def _exports_stage(built: BuiltDesign, cache: Cache, exports: frozenset[str] | set[str]) -> None:
    """PNG faces, Tabletop Simulator, print services and the print-and-play kit, as asked (pnp.exports.files).
    A design whose faces differ by language has each language's TTS object and print-service files (named with
    `-<lang>`) and kit (from that language's sheets); its PNG hold every face once, named as in svg/."""
    from pnp.exports import files as export  # lazy: 5.3 ms (pnp.exports)
    from pnp.rulebook import rulebook_name  # lazy: 1.9 ms (pnp.rulebook)

    components, svgs, design = built.components, built.svgs, built.design
    by_lang = built.languages()
    each = built.differs_by_language()
    art = ArtFiles(design.folder)  # the images and fonts the faces name, read for every raster and PDF
    if "png" in exports:
        pngs = export.png_faces(all_faces(by_lang), svgs, face_path, cache, resources=art)  # (a face once: by name)
        built.dirs["png"] = {n.removeprefix("png/"): b for n, b in pngs.items()}
    if "tts" in exports:
        base = built.export_options.get("tts_base_url") or built.export_options.get("tts_folder", "")
        for lang, comps in by_lang.items() if each else [(None, components)]:
            edition = manifest(built, lang or next(iter(by_lang)))
            books = [(b, rulebook_name(design, b, built.paper)) for b in ("en", "fr")
                     if rulebook_name(design, b, built.paper) in built.extra_files and lang in (None, b)]
            tts, problems = export.tts_export(edition, comps, svgs, face_path, books, base, cache,
                                              resources=art, lang=lang or next(iter(by_lang)))
            if lang is not None:
                tts = _suffixed(tts, lang)
            built.dirs.setdefault("tts", {}).update({n.removeprefix("tts/"): b for n, b in tts.items()})
            built.notes += [f"tts{'-' + lang if lang else ''}: {p}" for p in problems]
    for name in sorted(e for e in exports if e.startswith(PRINT_SERVICE)):
        service = name.removeprefix(PRINT_SERVICE)
        for lang, comps in by_lang.items() if each else [(None, components)]:
            files, problems = export.print_service_export(manifest(built, lang or next(iter(by_lang))), comps, svgs,
                                                          face_path, service,
                                                          cache, resources=art)
            if lang is not None:  # print/<service>-<lang>/...
                files = {f"print/{service}-{lang}/" + n.removeprefix(f"print/{service}/"): b for n, b in files.items()}
            built.dirs.setdefault("print", {}).update({n.removeprefix("print/"): b for n, b in files.items()})
            built.notes += [p for p in problems if p not in built.notes]  # (each edition's: said once)
    if ("kit" in exports or "kit-ink-saver" in exports) and any("-rules-" in pat for pat in built.deferred):
        built.deferred.append(f"{design.slug}-kit-*.pdf")  # made with the rulebooks, in the second pass
    elif "kit" in exports or "kit-ink-saver" in exports:
        from pnp.rulebook import rulebook_paper  # lazy: 2.9 ms (pnp.rulebook)

        kit_books: dict[str, bytes] = {lang: built.extra_files[rulebook_name(design, lang, built.paper)]  # type: ignore[misc]
                                       for lang in ("en", "fr")
                                       if rulebook_name(design, lang, built.paper) in built.extra_files}
        groups = ([(lang, {lang: kit_books[lang]}) for lang in by_lang if lang in kit_books]
                  if built.multilingual() and kit_books else [(next(iter(by_lang)), kit_books)])
        for lang, its_books in groups:  # each language's kit: its rulebook, its print sheets (a language without a
            # rulebook has no kit; without any, one kit of the first language)
            name, plan = built.sheets_of.get(lang, (built.pdf_name, built.sheet_plan))
            pdf = built.pdf if name == built.pdf_name else built.extra_files[name]
            built.extra_files.update(export.kit_files(design, built.paper, plan or built.sheet_plan, pdf, its_books,  # type: ignore[arg-type]
                                                      by_lang.get(lang, components), svgs, face_path, cache,
                                                      rules_paper=rulebook_paper(built.paper),
                                                      ink_saver="kit-ink-saver" in exports, resources=art))
    built.exports = sorted(exports)


def _suffixed(files: dict[str, bytes], lang: str) -> dict[str, bytes]:
    """One language's Tabletop Simulator files, named with -<lang> (tts/<design>-<lang>.json,
    tts/<deck>-<n>-<lang>.png), the saved object pointing at them."""
    names = {n: f"{n[:-len(Path(n).suffix)]}-{lang}{Path(n).suffix}" for n in files}
    out: dict[str, bytes] = {}
    for old, new in names.items():
        data = files[old]
        if old.endswith(".json"):
            text = data.decode("utf-8")
            for o, n in names.items():
                if not o.endswith(".json"):
                    text = text.replace(o + '"', n + '"')
            data = text.encode("utf-8")
        out[new] = data
    return out


def _rulebooks(design: Design, by_lang: dict[str, list[ComponentFaces]], svgs: dict[str, str], paper: str,
               cache: Cache = NO_CACHE, compiled: dict | None = None) -> dict:
    """Every rulebook of the design, each showing its language's faces (`by_lang`): in one process when it runs
    in a worker already (the languages share the compiled faces and diagrams), else one language per core."""
    from pnp.rulebook import languages, render_rulebooks  # lazy: 2.3 ms (pnp.rulebook)

    langs = languages(design)
    first = next(iter(by_lang.values()))
    mark = warnings_mark()
    same = not any(f.lang for comps in by_lang.values() for cf in comps for f in cf.sides)
    if in_worker() or cores() < 2 or len(langs) < 2:
        out = {}
        for group in [langs] if same else [[lang] for lang in langs]:  # (one call: the wordless diagrams once)
            out.update(render_rulebooks(design, by_lang.get(group[0], first), svgs, paper, langs=group, cache=cache,
                                        compiled=compiled))
    else:
        out = {}
        report = ErrorReport()
        tasks = [lambda lang=lang: render_rulebooks(design, by_lang.get(lang, first), svgs, paper, langs=[lang],
                                                    cache=cache)
                 for lang in langs]
        for status, value in prun(tasks, min_items=2):  # (the workers' warnings are recorded here as they come)
            if succeeded(status, value, report):
                out.update(value)  # type: ignore[call-overload]
        report.raise_if_any()
    said = warnings_since(mark)
    if said:
        out[WARNINGS_ENTRY] = portable_warnings(said, design.folder)  # type: ignore[assignment]
    return out


def _rulebook_key(design: Design, svgs: dict[str, str], paper: str) -> str:
    texts = sorted((p.name, products.digest(p.read_bytes())) for p in design.folder.glob("rules.*.md"))
    shared = sorted((str(p), p.read_bytes()) for p in (templates_dir() / "rulebook").glob("**/*") if p.is_file())
    return products.RULEBOOKS.key(rules_text=texts, rulebook_templates=products.digest(*[t for _, t in shared]),
                                  design=design.fingerprint(), face_svgs=svgs, paper=paper, folder=str(design.folder))


def static_report(design: Design, cache: Cache) -> list[dict] | None:
    """The game's static checks as pages show them (index.html, pnp studio): name, ok, message, details of each;
    None if the game has none. Through the cache (its key: the design's fingerprint)."""
    return cache.cached("checks", products.CHECKS.key(design=design.fingerprint(), folder=str(design.folder)),
                        lambda: _static_checks(design))["checks"]


def _static_checks(design: Design):
    """The game's static checks (no simulation) for index.html: {"checks": None} if the game has none."""
    from pnp.engine.checks import static_checks  # lazy: 4.5 ms (pnp.engine.checks)

    results = static_checks(design)
    return {"checks": None if results is None else [{"name": r.name, "ok": r.ok, "message": r.message,
                                                     "details": r.details} for r in results]}


def apply_overrides(designs: list[Design], overrides: dict) -> None:
    """Command-line print options replace the designs' own (validated like the design file)."""
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


def manifest(built: BuiltDesign, lang: str | None = None) -> dict:
    """What the build made, for people and tools: every component with its faces, sizes and data. In a design of
    several languages, `components` is the first language's edition (each entry with its `lang`) and
    `components@<lang>` each other language's (as `title@fr` is a column's French); `languages` lists them and
    `sheets_pdf` names each one's print sheets. With `lang`: that language's edition alone, as `components`."""
    d = built.design
    by_lang = built.languages()
    many = len(by_lang) > 1
    langs = list(by_lang)
    first = lang if lang is not None else langs[0]
    others = {} if lang is not None else {f"components@{other}": _entries(by_lang[other], other)
                                          for other in langs[1:]}
    return {
        "design": d.slug,
        "title": d.meta.title,
        "version": d.meta.version,
        "paper": built.paper,
        "pdf": built.sheets_of[first][0] if many and first in built.sheets_of else built.pdf_name,
        **({"languages": langs, "sheets_pdf": {k: v[0] for k, v in built.sheets_of.items()}} if many else {}),
        "sheets": built.sheets,
        "components": _entries(by_lang[first], first if many else None),
        **others,
    }


def _entries(components: list[ComponentFaces], lang: str | None) -> list[dict]:
    entries = []
    for cf in components:
        grouped = {"group": {"of": cf.parent, "column": cf.group[0], "value": cf.group[1]}} if cf.group else {}
        for index, face in enumerate(cf.fronts, start=1):
            entries.append({
                "component": cf.component_id,
                **({"lang": lang} if lang else {}),
                **grouped,
                "kind": cf.component.kind,
                "shape": face.shape,
                "index": index,
                "key": face.key,
                **({"name": face.label} if face.label else {}),
                "count": face.count,
                "trim_mm": [round(face.width, 3), round(face.height, 3)],
                "bleed_mm": round(face.bleed, 3),
                "face": face_path(cf.component_id, face),
                "back": face_path(cf.component_id, cf.back_of(face)) if cf.back else None,  # type: ignore[arg-type]
                "data": face.data,
            })
    return entries


def write_design(built: BuiltDesign, out: Path) -> BuildResult:
    """Publish a built design into <out>/<slug>/ as one unit (pnp.output.publish).

    The files of other papers that an earlier build made (e.g. the A4 sheets and rulebooks
    when this build is for Letter) stay, and stay listed in the manifest; every other file
    an earlier build made and this one does not is removed. Unchanged files are left alone.
    """
    target = Path(out) / built.design.slug
    files = built.files()
    previous = previous_manifest(target)
    slug = built.design.slug
    before = previous_files(target)
    if isinstance(previous.get("by_paper"), dict):  # (manifests of older builds listed other papers' files only here)
        before |= {f for names in previous["by_paper"].values() if isinstance(names, list)
                   for f in names if isinstance(f, str) and "/" not in f}
    variants = {variant_of(f, slug) for f in files} | {("paper", built.paper)}
    variants.add(("proof" if built.pdf_name.endswith("-proof.pdf") else "sheets", built.paper))
    # a file of a variant this build does not make (another paper, proof, print-shop) stays until a build of
    # that variant no longer makes it, or `pnp clean`
    keep = {f for f in before if f not in files and (v := variant_of(f, slug)) is not None and v not in variants}
    if built.deferred:  # stages left for a second pass (pnp watch: rulebooks) keep the files they made before
        keep |= {f for f in before if any(fnmatch.fnmatch(f, pat) for pat in built.deferred)}
    keep = {f for f in keep if (target / f).is_file()}
    by_paper: dict[str, list[str]] = {}
    for f in sorted(set(files) | keep):
        if (v := variant_of(f, slug)) is not None and v[0] != "print-shop":
            by_paper.setdefault(v[1], []).append(f)
    by_paper = dict(sorted(by_paper.items()))
    kept = sorted(f for f in keep if not any(fnmatch.fnmatch(f, pat) for pat in built.deferred))

    def manifest_text(listed: list[str]) -> str:
        data = {**built.manifest, "exports": built.exports, "files": listed, "by_paper": by_paper,
                **({"kept": kept} if kept else {})}  # (a manifest with nothing kept stays as it was)
        if built.export_options.get("tts_base_url"):
            data["export_options"] = {"tts_base_url": built.export_options["tts_base_url"]}
        return manifest_json(data)

    stage, built.stage = built.stage, None
    done = publish(target, files, keep=keep, manifest=manifest_text, stage=stage)
    made = sorted(files) + ["manifest.json"]
    return BuildResult(built.design.slug, target, [target / n for n in made], built.sheets, built.faces, built.copies,
                       built.paper, built.sheets_per_paper, built.seconds, written=done.written, removed=done.removed,
                       pdf_name=built.pdf_name, notes=built.notes, printed=built.printed, kept=kept)


_VARIANT_FILE = re.compile(r"-(a4|letter|a3)(-proof)?\.pdf$")


def variant_of(name: str, slug: str) -> tuple[str, str] | None:
    """Which build options make a top-level PDF of the design's folder: ("sheets", paper) for the print
    sheets, ("proof", paper) for the proof sheets (--proof), ("paper", paper) for the rulebooks and kits on
    that paper, ("print-shop", "") for --print-shop's files; None for anything else (faces, exports' folders,
    the index), which each build makes or removes."""
    if "/" in name or not name.startswith(f"{slug}-") or not name.endswith(".pdf"):
        return None
    lang, _, rest = name.removeprefix(f"{slug}-").partition("-")
    if name.startswith(f"{slug}-print-shop") or (lang in LANGUAGES and rest.startswith("print-shop")):
        return ("print-shop", "")  # (<design>-<lang>-print-shop.pdf: one edition's)
    m = _VARIANT_FILE.search(name)
    if m is None:
        return None
    paper = m.group(1)
    stem = name.removeprefix(f"{slug}-")
    lang, _, rest = stem.partition("-")  # <design>-<lang>-<paper>.pdf: one language's print sheets
    if stem == f"{paper}.pdf" or (lang in LANGUAGES and rest == f"{paper}.pdf"):
        return ("sheets", paper)
    if stem == f"{paper}-proof.pdf" or (lang in LANGUAGES and rest == f"{paper}-proof.pdf"):
        return ("proof", paper)
    return ("paper", paper)


def clean(target: Path) -> list[str]:
    """`pnp clean`: remove the files an earlier build kept beside the last build's (another paper's sheets
    and rulebooks, proof sheets, the print-shop PDF: the manifest's "kept") and their entries in the
    manifest; the names removed. Nothing else is touched; a folder without pnp's manifest is left alone."""
    before = previous_manifest(target)
    kept = before.get("kept")
    if not isinstance(kept, list) or not kept:
        return []
    listed = previous_files(target)
    drop = {f for f in kept if isinstance(f, str) and f in listed}
    by_paper = before.get("by_paper") if isinstance(before.get("by_paper"), dict) else {}

    def manifest_text(names: list[str]) -> str:
        data = {k: v for k, v in before.items() if k != "kept"} | {"files": names}
        if by_paper:
            data["by_paper"] = {p: [f for f in v if f not in drop] for p, v in by_paper.items() if isinstance(v, list)}
        return manifest_json(data)

    return publish(target, {}, keep=listed - drop, manifest=manifest_text).removed


def manifest_json(data: dict) -> str:
    """manifest.json's text: indented, each entry of `components` on one line (a rebuild's diff shows one line for
    each face that changed; and JSON's compact writer is four times faster than the indenting one, which took a
    quarter of a second for a 10,000-card deck)."""
    parts = []
    for key, value in data.items():
        if key.startswith("components") and value:
            text = "[\n" + ",\n".join("    " + json.dumps(e, ensure_ascii=False) for e in value) + "\n  ]"
        else:
            text = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
        parts.append(f"  {json.dumps(key, ensure_ascii=False)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def build_designs(args: tuple[str, ...] | list[str], out: Path = Path("output"), options: BuildOptions | None = None,
                  *, cache: Cache | None = None, echo=None, **given: Any) -> list[BuildResult]:
    """Build every selected design; nothing is written unless all of them render.

    `options` (BuildOptions; or its fields given by name) says what to make: `overrides` are print settings from
    the command line (orientation, duplex, back_offset, marks, proof) that replace the designs' own; `exports`:
    exports to make (names of EXPORTS; True for all), besides those an earlier build made into the design's folder,
    which are kept up to date; False: none at all (and those made before are removed). `tts_base_url`: where the
    Tabletop Simulator export's images will be hosted (kept for later builds); by default file:/// paths into the
    output folder. `cache` defaults to <out>/.cache on disk.
    """
    options = replace(options or BuildOptions(), **given)
    with _fewer_collections():
        return _build_designs(args, Path(out), options, cache, echo)


@contextlib.contextmanager
def _fewer_collections():
    """The cyclic garbage collector run less often during a build: a big deck keeps tens of thousands of live
    objects (faces, compiled drawings, the PDF's), which every full collection walks again, so the time per card
    grew with the deck (1.6 ms a card beyond 500 cards against 1.15 below; 1.35 with this, bench/build_bench.py).
    Reference counting still frees what is not in a cycle; the thresholds are put back afterwards (pnp watch)."""
    before = gc.get_threshold()
    gc.set_threshold(50_000, 20, 1_000)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _build_designs(args, out: Path, options: BuildOptions, cache: Cache | None, echo) -> list[BuildResult]:
    url = options.tts_base_url
    if url is not None and not url.lower().startswith(("http://", "https://")):
        raise PnpError(f"--base-url {url!r}: not a web address; expected http(s)://... where the tts/ "
                       "folder will be hosted (without it, the saved object points at the output folder)")
    designs = select_designs(args)
    check_out(out, [d.folder for d in designs])
    apply_overrides(designs, dict(options.overrides))
    for design in designs:
        check_printed_names(design)
    if cache is None:
        cache = default_cache(out)
    jobs = [DesignJob(d, _exports_for(d, out, options.exports), _export_options(d, out, url)) for d in designs]
    report = ErrorReport()
    built: list[BuiltDesign] = []
    stages: dict = {}  # svg/ files written ahead for designs not built (yet)
    try:
        with progress(options.show_progress) as bar:
            built = SCHEDULERS[scheduler_for(jobs, options)](jobs, options, cache, bar, report, out, stages)
        report.raise_if_any()
        slugs = [d.slug for d in designs]
        built.sort(key=lambda b: slugs.index(b.design.slug))  # workers finish in any order; report in the designs'
        with OutputLock(out, echo):
            written = [write_design(b, out) for b in built]
    finally:  # (those not published: a design failed, or another's output could not be written)
        discard_stages(built)
        for stage in stages.values():
            stage.discard()
    cache.flush()
    return written


def make_designs(designs: list[Design], options: BuildOptions = BuildOptions(),
                 cache: Cache = NO_CACHE) -> list[BuiltDesign]:
    """Every product of these (loaded) designs but the exports, in memory, nothing written: what a build would
    publish (validate proves a design builds with it). DesignError with every problem of every design."""
    jobs = [DesignJob(d) for d in designs]
    report = ErrorReport()
    built = SCHEDULERS[scheduler_for(jobs, options)](jobs, options, cache, _Quiet(), report, None, None)
    report.raise_if_any()
    return built


# How a build runs the products of its designs (the same products, the same bytes; only where and in which order
# they are made differs). Each takes (jobs, options, cache, progress bar, report, out, stages) and returns the
# designs built; a design's problems go into the report.
def _serial(jobs: list[DesignJob], options: BuildOptions, cache: Cache, bar, report: ErrorReport,
            out: Path | None, stages: dict | None, stream: bool = False) -> list[BuiltDesign]:
    """One design after the other, each product after the one it is made from (a product's own work, such as
    painting many faces, still goes over the cores)."""
    built = []
    for job in jobs:
        try:
            built.append(render_design(job, options, cache, bar=bar, out=out, stream=stream))
        except DesignError as exc:
            report.extend(exc)
    return built


def _streaming(jobs: list[DesignJob], options: BuildOptions, cache: Cache, bar, report: ErrorReport,
               out: Path | None, stages: dict | None) -> list[BuiltDesign]:
    """As _serial, but each design's faces are painted by workers while its print sheets are drawn from them, in
    print order, and their svg/ files written ahead into a stage of the design's folder (the default for one
    design: `pnp build DECK`, `pnp watch`)."""
    return _serial(jobs, options, cache, bar, report, out, stages, stream=True)


def scheduler_for(jobs: list[DesignJob], options: BuildOptions) -> str:
    """The scheduler asked for, else: several designs on several cores as one pool of tasks, one design streamed."""
    if options.scheduler != "auto":
        return options.scheduler
    return "pool" if len(jobs) > 1 and cores() > 1 else "stream"


def _exports_for(design: Design, out: Path, asked) -> frozenset[str]:
    """The exports to make for one design: those asked for and those made into its folder before."""
    if asked is False:
        return frozenset()
    asked = set(EXPORTS) if asked is True else set(asked or ())
    unknown = {e for e in asked if not known_export(e)}
    if unknown:
        raise ValueError(f"unknown exports {sorted(unknown)}")  # the CLI offers only known ones
    before = previous_manifest(out / design.slug).get("exports")
    return frozenset(asked | {e for e in before if isinstance(e, str) and known_export(e)}
                     if isinstance(before, list) else asked)


def _export_options(design: Design, out: Path, tts_base_url: str | None) -> dict:
    """Options of the exports: those given now, else those an earlier build into this folder was given;
    the folder the TTS saved object's file:/// paths point into."""
    before = previous_manifest(out / design.slug).get("export_options")
    given = before.get("tts_base_url") if isinstance(before, dict) else None
    url = tts_base_url or (given if isinstance(given, str) else None)
    opts = {"tts_folder": str((out / design.slug).resolve())}
    if url:
        opts["tts_base_url"] = url
    return opts


def _origin(folder: Path) -> str:
    """Where a design comes from: a folder of the user's (as a path), or pnp's built-in designs."""
    builtin = (package_root() / "designs").resolve()
    if Path(folder).resolve().parent == builtin:
        return "pnp's built-in designs"
    return display_path(folder) + "/"


def _pool(jobs: list[DesignJob], options: BuildOptions, cache: Cache, bar, report: ErrorReport,
          out: Path | None = None, stages: dict | None = None) -> list[BuiltDesign]:
    """Several designs, as one pool of tasks over every core:

    1. (here) every design's faces; then the faces not in the cache, all designs' together, painted on all cores
       (each compiled for the sheets in the worker that painted it);
    2. (workers, largest first) each design's print sheets, svg/ and contact sheet (_sheets_task), and separately
       its rulebooks (_rulebooks: every language in one task, they share the compiled faces and diagrams) - a
       design with exports (TTS and the kit need its rulebooks) is one task, as render_design makes it;
    3. (here) each design's manifest.

    With `out` and `stages` (a dict), the print sheets' task writes the design's svg/ files ahead into a stage of
    its folder in `out` (see stream_svgs), when some of its faces were painted now: stages[design index] until
    the design is built, then its BuiltDesign's `stage`; the caller discards those left.

    The heavy modules are imported before the workers fork, so no worker imports them again.
    """
    from pnp.layout.sheets import SheetOptions  # lazy: 33 ms (pnp.layout.sheets)
    from pnp.rulebook import languages, rulebook_name, rulebook_paper  # lazy: 2.2 ms (pnp.rulebook)

    designs = [job.design for job in jobs]
    reports = [ErrorReport() for _ in designs]
    by_lang = [language_faces(d, r) for d, r in zip(designs, reports)]
    components = [all_faces(b) for b in by_lang]
    compiled: list[dict] = [{} for _ in designs]  # per design: face path -> its drawing, compiled where painted
    svgs = render_svgs_of([(c, d.folder, r) for c, d, r in zip(components, designs, reports)], cache, compiled)
    tasks: list[tuple[float, int, str, Any]] = []  # (weight, design, what, task)
    books: dict[int, tuple[str, dict | None]] = {}  # design -> (cache key, rulebooks if cached)
    book_langs: dict[int, list[str]] = {}
    for i, job in enumerate(jobs):
        design = job.design
        if reports[i]:
            report.extend(reports[i])
            continue
        painted = (by_lang[i], svgs[i])
        try:
            langs = languages(design) if options.rulebooks else []
        except DesignError as exc:
            report.extend(exc)
            continue
        faces_weight = len(svgs[i]) / 200
        stage = None
        if out is not None and stages is not None and compiled[i]:  # (faces painted now: most likely new files)
            stage = stages[i] = Stage(out / design.slug)
        if job.exports or not langs:  # one task, as render_design makes it
            tasks.append((faces_weight + _book_weight(design, langs) + len(job.exports), i, "design",
                          partial(_whole_design, job, options, cache, painted, compiled[i], stage)))
            continue
        book_langs[i] = langs
        tasks.append((faces_weight, i, "sheets", partial(_sheets_task, design, options, cache, painted, langs,
                                                         compiled[i], stage)))
        book_paper = rulebook_paper(SheetOptions.from_print(design.print, options.paper).paper)
        key = _rulebook_key(design, svgs[i], book_paper)
        books[i] = (key, cache.get("rulebooks", key))
        if books[i][1] is None:  # (a copy of compiled[i]: the sheets task empties it when done)
            tasks.append((_book_weight(design, langs), i, "rulebooks",
                          partial(_rulebooks, design, by_lang[i], svgs[i], book_paper, cache, dict(compiled[i]))))
    tasks.sort(key=lambda t: -t[0])  # largest first, so the cores finish together
    _import_for_workers(options.rulebooks and any(what != "sheets" for _, _, what, _ in tasks))
    bar.step(f"building {len(designs)} designs", len(tasks))
    done: dict[tuple[int, str], Any] = {}  # (design, what) -> the task's value
    for (_, i, what, _), (status, value) in zip(tasks, prun_each([t[3] for t in tasks])):
        bar.advance()
        if succeeded(status, value, report):
            done[(i, what)] = value
    built: list[BuiltDesign] = []

    def keep(i: int, b: BuiltDesign) -> None:
        if b.stage is not None and stages is not None:
            stages.pop(i)  # (the task's copy of it, with the names it wrote, is published with the design)
        built.append(b)

    for i, job in enumerate(jobs):
        design = job.design
        whole = done.get((i, "design"))
        if isinstance(whole, BuiltDesign):
            keep(i, whole)
            continue
        if (i, "sheets") not in done:
            continue
        head = done[(i, "sheets")]
        key, made = books.get(i, ("", None))
        if made is None and (i, "rulebooks") in done:
            made = done[(i, "rulebooks")]
            cache.put("rulebooks", key, made)
        if made is None:
            continue  # its rulebooks failed: their problems are in the report
        made = _replayed(made, design)
        head.components, head.svgs = next(iter(by_lang[i].values())), svgs[i]
        head.by_lang = by_lang[i] if len(by_lang[i]) > 1 else {}
        linked = list(made) == [rulebook_name(design, lang, head.paper) for lang in book_langs[i]]
        if not linked:  # the contact sheet names other files than the rulebooks made: made again here
            del head.extra_files["index.html"]
        head.extra_files.update(made)
        _finish(head, cache, frozenset(), job.export_options, bar, index=not linked)
        keep(i, head)
    return built


SCHEDULERS = {"serial": _serial, "stream": _streaming, "pool": _pool}
"""The interchangeable ways of running a build's products (BuildOptions.scheduler): each makes the same files."""


def _sheets_task(design: Design, options: BuildOptions, cache: Cache,
                 painted: tuple[dict[str, list[ComponentFaces]], dict[str, str]], langs: list[str],
                 compiled: dict | None = None, stage=None) -> BuiltDesign:
    """A pool's task: a design's print sheets, svg/ and contact sheet (linking the rulebooks another task makes),
    as a worker sends it back: without the faces and their SVG texts, which the parent has. With `stage`
    (pnp.output.Stage), the svg/ files are written ahead into it, and it comes back with their names."""
    from pnp.rulebook import rulebook_name  # lazy: 2.1 ms (pnp.rulebook)

    started = time.perf_counter()
    built = _faces_and_sheets(design, options, cache, None, painted, compiled)
    _write_ahead(built, stage)
    _index_stage(built, cache, [rulebook_name(design, lang, built.paper) for lang in langs])
    built.seconds = time.perf_counter() - started  # the rulebooks' task not counted
    built.svgs = {}
    return built.portable()


def _write_ahead(built: BuiltDesign, stage) -> None:
    """With a stage (pnp.output.Stage), the design's svg/ files written into it, and the stage with their names
    as the design's (a worker's copy of it: publishing moves the files into place)."""
    if stage is None:
        return
    for name, data in built.dirs["svg"].items():
        if isinstance(data, str) and stage.write(f"svg/{name}", data):
            stage.names.add(f"svg/{name}")
    built.stage = stage if stage.names else None


def _import_for_workers(rulebooks: bool) -> None:
    """The modules every worker needs, imported before they fork; with `rulebooks`, those of the rulebooks too (and
    their fonts and styles loaded: not when every rulebook comes from the cache)."""
    import pnp.index  # lazy: 2.5 ms (pnp.index)
    import pnp.layout.pdf  # lazy: 109 ms (pnp.layout.pdf)

    if rulebooks:
        import pnp.rulebook.document  # noqa: F401  # lazy: 246 ms (pnp.rulebook.document)
        from pnp.rulebook.layout import load_layout  # lazy: 26 ms (pnp.rulebook.layout)

        load_layout()


def _book_weight(design: Design, langs: list[str]) -> float:
    """A rough weight of a design's rulebooks, to start the longest first: the size of their texts (checked by
    languages()), a text that extends another (a variant of a game) counting as a whole rulebook."""
    total = 0.0
    for lang in langs:
        text = (design.folder / f"rules.{lang}.md").read_text(encoding="utf-8", errors="replace")
        total += len(text) / 10000 + (1.0 if "{% extends" in text or "{%- extends" in text else 0.0)
    return total


def build_rulebooks(args: tuple[str, ...] | list[str], out: Path = Path("output"),
                    lang: str | None = None, paper: str | None = None, cache: Cache | None = None) -> list[Path]:
    """`pnp rules`: the rulebooks of every selected design, written to <out>/<slug>/: the same products as a
    build's (the faces and the rulebooks through the cache of <out>), without the print sheets.

    Designs named in `args` must have a rules text; with no `args`, the designs under designs/ that have none yet
    are skipped. Nothing is written unless every rulebook renders; the rest of each design's output stays as the
    last build left it.
    """
    from pnp.layout.sheets import SheetOptions  # lazy: 34 ms (pnp.layout.sheets)
    from pnp.rulebook import languages, no_edition, rulebook_name  # lazy: 1.9 ms (pnp.rulebook)

    designs = select_designs(args)
    check_out(Path(out), [d.folder for d in designs])
    cache = default_cache(Path(out)) if cache is None else cache
    report = ErrorReport()
    pending: list[tuple[Design, dict[str, bytes]]] = []
    for design in designs:
        try:
            langs = languages(design)
            if not langs and not args:
                continue  # all designs: those without a rules text yet have no rulebook
            if lang is not None and lang not in langs:
                report.problems.append(no_edition(design, lang, langs))
                continue
            if not langs:
                report.add(design.folder / f"rules.{design.meta.languages[0]}.md", None,
                           "no rules text for this design; expected rules.<lang>.md for each of meta.languages "
                           f"({', '.join(design.meta.languages)})")
                continue
            faces = ErrorReport()
            by_lang = language_faces(design, faces)
            svgs = render_svgs(all_faces(by_lang), cache, faces, design.folder)
            faces.raise_if_any()
            built = BuiltDesign(design, next(iter(by_lang.values())), svgs, by_lang if len(by_lang) > 1 else {},
                                paper=SheetOptions.from_print(design.print, paper).paper)
            books = _cached_rulebooks(built, cache)
            if lang is not None:
                books = {n: b for n, b in books.items() if n == rulebook_name(design, lang, built.paper)}
            pending.append((design, books))
        except DesignError as exc:
            report.extend(exc)
    report.raise_if_any()
    written = []
    with OutputLock(Path(out)):
        for design, books in pending:
            target = Path(out) / design.slug
            publish_more(target, books)
            written += [target / name for name in books]
    cache.flush()
    return written


def describe_designs(args: tuple[str, ...] | list[str]) -> str:
    """`pnp list`: each design, where it comes from, and its components with counts."""
    lines = []
    for design in select_designs(args):
        m = design.meta
        about = ", ".join(str(x) for x in (m.title, m.author, m.year) if x)
        lines.append(f"{design.slug}  ({about}; {m.players} players)  from {_origin(design.folder)}")
        for cf in design_faces(design):
            back = (f", {len(cf.backs)} backs by row" if len(cf.backs) > 1 else ", 1 shared back") if cf.back else ""
            name = cf.component.display_name("en")
            lines.append(f"  {cf.component_id:<20} {cf.component.kind:<6} {len(cf.fronts):>3} faces, "
                         f"{cf.copies:>3} copies{back}   {name}")
    return "\n".join(lines)

