"""Components -> distinct faces (FaceSpec), from generators, data tables + templates, or SVG files.

Every file a component names is read through pnp.confine (inside the design folder, bounded);
templates render in pnp.sandbox (sandboxed, bounded). The design's totals (faces, copies, a
face's size) are checked against pnp.limits before anything is painted.
"""

from __future__ import annotations

import html
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import meta, nodes
from lxml import etree

from pnp import decks, products, registry, sandbox
from pnp.confine import DesignFiles, FileRefused, check_parsed
from pnp.errors import (
    DesignError,
    ErrorReport,
    Problem,
    close_match,
    display_path,
    remember_design_folder,
    warn,
    with_source_comment,
    with_warning_marks,
)
from pnp.limits import LIMITS, limit
from pnp.loader import template_bases, templates_dir
from pnp.model import Component, Design, FaceSource
from pnp.parallel import pstream, succeeded
from pnp.registry import GeneratorContext
from pnp.render import fonts, textbox as _textbox
from pnp.render.art import (
    ArtFiles,
    art_hash,
    check_art,
    check_art_names,
    content_hash,
    css_url,
    has_images,
    stands_alone,
)
from pnp.render.facespec import FaceSpec
from pnp.render.fonts import face_warnings
from pnp.render.markup import plain
from pnp.render.sanitise import VOCABULARY, clean_text, warnings_of
from pnp.render.svg import wrap_fragment
from pnp.render.typography import SVG_SKIPPED, SVG_TEXT_RUN, typeset, typeset_svg
from pnp.render.version_mark import with_version_marks
from pnp.tables import CountSpec, column_alias, is_texts, language_warnings, load_table, looks_like_count


@dataclass
class ComponentFaces:
    component_id: str
    component: Component
    fronts: list[FaceSpec]
    back: FaceSpec | None  # the shared back, or the first of the backs per row (None: no back)
    where: tuple[str, int | None] = ("", None)  # design.yaml and the line of this component, for messages
    row_backs: dict[str, FaceSpec] = field(default_factory=dict)  # front key -> its back, when backs differ by row
    group: tuple[str, Any] | None = None  # (column, value) when this is one deck of a component split by group_by
    parent: str = ""  # the id of the component split by group_by ("" when not split)
    table: tuple[Any, str | None] | None = None  # (the data table's file, its count column) of a data component

    @property
    def copies(self) -> int:
        return sum(f.count for f in self.fronts)

    def back_of(self, front: FaceSpec) -> FaceSpec | None:
        """The back printed behind `front`: its row's back, else the shared one."""
        return self.row_backs.get(front.key, self.back)

    @property
    def backs(self) -> list[FaceSpec]:
        """The distinct backs, in the order of the fronts that use them."""
        if not self.row_backs:
            return [self.back] if self.back is not None else []
        seen: dict[int, FaceSpec] = {}
        for f in self.fronts:
            b = self.row_backs.get(f.key, self.back)
            if b is not None:
                seen.setdefault(id(b), b)
        return list(seen.values())

    @property
    def sides(self) -> list[FaceSpec]:
        """Every distinct face: the fronts, then the backs."""
        return self.fronts + self.backs

    @property
    def sides_in_print_order(self) -> list[FaceSpec]:
        """Every distinct face, each back after the first front it is behind (nearly the order in which the
        print sheets place them first)."""
        out, seen = [], set()
        for front in self.fronts:
            out.append(front)
            back = self.back_of(front)
            if back is not None and id(back) not in seen:
                seen.add(id(back))
                out.append(back)
        return out

    def error(self, message: str) -> DesignError:
        """`design.yaml:LINE: components.<id>: message`, for a problem later stages find with this component
        (a face too large for the paper...)."""
        return DesignError([Problem(self.where[0] or "design.yaml", self.where[1],
                                    f"components.{self.component_id}: {message}")])


def face_path(component_id: str, face: FaceSpec) -> str:
    """A face's name in the output (and its key among a design's SVG texts): svg/<component>-<face>.svg, and
    svg/<component>-<face>.<lang>.svg for a face that differs by language."""
    return f"svg/{component_id}-{face.key}.{face.lang}.svg" if face.lang else f"svg/{component_id}-{face.key}.svg"


def languages_of(design: Design) -> list[str]:
    """The design's languages (meta.languages), each once, in order: the first is the one faces fall back to."""
    return list(dict.fromkeys(design.meta.languages)) or ["en"]


def language_faces(design: Design, report: ErrorReport | None = None) -> dict[str, list[ComponentFaces]]:
    """Every component's faces in each language of the design (design_faces per language). A face whose key is
    the same in every language (its inputs resolve the same: no text of its own per language) is shared: the
    same file, painted once; the others carry their language (`FaceSpec.lang`, named <component>-<face>.<lang>).
    A single-language design's faces carry none."""
    own = report is None
    report = ErrorReport() if report is None else report
    langs = languages_of(design)
    out: dict[str, list[ComponentFaces]] = {}
    for n, lang in enumerate(langs):
        mine = report if n == 0 else ErrorReport()
        out[lang] = design_faces(design, mine, lang, first=n == 0)
        if n and mine:
            said = set(report.problems)
            report.problems += [p for p in mine.problems if p not in said]
    if len(langs) > 1 and not report:
        keys: dict[tuple[str, str], set[str]] = {}
        for lang in langs:
            for cf in out[lang]:
                for face in cf.sides:
                    keys.setdefault((cf.component_id, face.key), set()).add(face.cache_key or f"?{lang}")
        for lang in langs:
            for cf in out[lang]:
                for face in cf.sides:
                    seen = keys[(cf.component_id, face.key)]
                    if len(seen) > 1 or not face.cache_key:
                        face.lang = lang
                        face.paint = partial(_typeset_painted, face.paint, lang, lang)  # (its root names its language)
                        if face.cache_key:
                            face.cache_key = products.in_language(face.cache_key, lang)
    if design.print.version_mark != "none" and not report:
        for comps in out.values():
            with_version_marks(comps, design.folder, design.print.version_mark, design.print.safe_zone)
    if own:
        report.raise_if_any()
    return out


def all_faces(by_lang: dict[str, list[ComponentFaces]]) -> list[ComponentFaces]:
    """The components of every language, one after the other (a shared face is in each, under one path)."""
    return [cf for comps in by_lang.values() for cf in comps]


def design_faces(design: Design, report: ErrorReport | None = None, lang: str | None = None, *,
                 first: bool = True) -> list[ComponentFaces]:
    """Every component's faces (a component grouped by a column is one ComponentFaces per group, pnp.decks), in
    `lang` (default: the design's first language): table cells and YAML texts resolved in it, generators drawing
    in it (see language_faces for every language). Problems go to `report` when given (the caller raises them
    later with its own), else they are raised here, all together. `first`: the call that says the warnings about
    texts missing in a language (once for all languages)."""
    own = report is None
    report = ErrorReport() if report is None else report
    langs = languages_of(design)
    lang = lang or langs[0]
    files = DesignFiles(design.folder)
    remember_design_folder(design.folder)
    doc = design.source
    hashes: dict[str, str] = {"lang": lang}
    result = []
    if first:
        _warn_missing_texts(design, langs)
    lookups = _lookups(design, files, report, lang, first) if design.tables else None
    for cid, comp in design.components.items():
        loc = ("components", cid)
        where = (display_path(doc.path), doc.line(loc))
        if comp.data is not None and comp.template:
            table = _front_table(design, files, cid, comp, report)
            if table.rows:
                if first:
                    _warn_unread(design, cid, comp, table)
                    language_warnings(table, langs, (doc.path, doc.line(loc + ("data",))))
            rows = decks.select(design, cid, comp, table, report)
            groups = decks.split(design, cid, comp, table, rows, set(design.components), report)
        else:
            table, groups = None, [decks.Deck(cid, comp, [])]
        for deck in groups:
            gid, gcomp = deck.component_id, deck.component
            source = _Source(table, deck.rows, lookups) if table is not None else None
            fronts = _faces(design, files, hashes, gid, gcomp, gcomp, loc, report, source)
            back = None
            row_backs: dict[str, FaceSpec] = {}
            if comp.back is not None:
                per_row = source if source is not None and source.rows and comp.back.template and _reads_row(
                    design, files, comp.back.template, source) else None
                backs = _faces(design, files, hashes, gid, gcomp, comp.back, loc + ("back",), report, per_row,
                               back_of=source)
                if per_row is not None and len(backs) == len(fronts):
                    row_backs = _shared_backs(fronts, backs)
                    back = backs[0] if backs else None
                else:
                    if len(backs) != 1 and not report:
                        report.add(doc.path, doc.line(loc + ("back",)),
                                   f"the back makes {len(backs)} faces; expected exactly one shared back")
                    back = backs[0] if backs else None
                    if back is not None:
                        back.key = "back"
            faces = ComponentFaces(gid, gcomp, fronts, back, where, row_backs)
            faces.group, faces.parent = deck.group, deck.parent
            if table is not None:
                faces.table = (table.file, table.count_column)
            result.append(faces)
    if not report:
        _check_totals(design, result, report)
    if own:
        report.raise_if_any()
    return result


@dataclass
class _Source:
    """The rows a component's faces are filled from, with their table (its names) and the design's lookup
    tables."""

    table: Any  # pnp.tables.Table
    rows: list
    lookups: Any = None  # Lookups of the design's `tables:`, or None

    def __bool__(self) -> bool:
        return bool(self.rows)


def _front_table(design: Design, files: DesignFiles, cid: str, comp: Component, report: ErrorReport) -> Any:
    doc = design.source
    count = CountSpec(comp.count_column, comp.count, doc.path,
                      doc.line(("components", cid, "count")) if comp.count_column is not None else None)
    return load_table(comp.data, design.folder, doc, ("components", cid, "data"), report, files,  # type: ignore[arg-type]
                      columns=comp.columns, sheet=comp.sheet, count=count, encoding=comp.encoding)  # type: ignore[arg-type]


def _check_totals(design: Design, components: list[ComponentFaces], report: ErrorReport) -> None:
    """The bounds on what a design makes, before anything is painted (pnp.limits)."""
    doc = design.source
    longest = limit("length")
    for cf in components:
        line = doc.line(("components", cf.component_id))
        for face in cf.sides:
            side = max(face.width, face.height) + 2 * face.bleed
            if side > longest:
                report.add(doc.path, line, f"components.{cf.component_id}: a {face.width:g} x {face.height:g} mm "
                           f"face with {face.bleed:g} mm bleed; expected at most {longest} mm a side")
                break
        if cf.fronts and cf.copies == 0:
            warn(doc.path, line, f"components.{cf.component_id} makes no copies (every count is 0); it is left out "
                 "of the print sheets")
    for name, total in (("faces", sum(len(cf.sides) for cf in components)),
                        ("copies", sum(cf.copies for cf in components))):
        lim = LIMITS[name]
        if total > lim.value:
            biggest = max(components, key=lambda cf: cf.copies if name == "copies" else len(cf.fronts))
            report.add(doc.path, doc.line(("components", biggest.component_id)),
                       f"the design makes {total} {name} (components.{biggest.component_id}: "
                       f"{biggest.copies if name == 'copies' else len(biggest.fronts)}); expected at most "
                       f"{lim.value} {lim.unit} ({lim.what})")


def _faces(design: Design, files: DesignFiles, hashes: dict[str, str], cid: str, comp: Component,
           src: FaceSource, loc: tuple, report: ErrorReport, source: _Source | None = None,
           back_of: _Source | None = None) -> list[FaceSpec]:
    """The faces of a front (`src is comp`: one per row of `source`, when it fills a data table) or of a back
    (`source` given: one face per front row, else one shared face; `back_of`: the rows of its fronts)."""
    bleed = design.bleed_of(comp)
    doc = design.source
    lang = hashes["lang"]
    langs = languages_of(design)
    if src.generate:
        gen = registry.get_generator(src.generate)
        # a wordless generator paints the same faces in every language: they key on none (one file, painted once,
        # shared by every edition), though its context keeps the edition's language for the faces' labels
        gen_lang = "" if getattr(gen, "wordless", False) and len(langs) > 1 else lang
        # a generator's faces depend on its component, the print settings, the rules, the metadata, the language
        key_base = products.GENERATED_FACE.key_base(
            generator=src.generate, component=[cid, comp.model_dump(mode="json", exclude={"params", "back"},
                                                                    warnings=False)],
            params=src.params.model_dump(mode="json") if hasattr(src.params, "model_dump") else src.params,
            print=design.print.model_dump(mode="json"), rules=design.rules, meta=design.meta.model_dump(mode="json"),
            language=gen_lang)
        ctx = GeneratorContext(design, cid, comp, src.params, bleed, key_base, lang=lang)
        faces = _checked_keys(gen.fn(ctx), cid, doc, loc, report)  # type: ignore[union-attr]
        for face in faces:
            face.paint = partial(_typeset_painted, face.paint, gen_lang or langs[0], gen_lang)
        return faces
    size = comp.size
    if src.template:
        try:
            path = files.resolve(src.template, (doc.path, doc.line(loc + ("template",))),
                                 bases=template_bases(design.folder), shared=True, what="template")
        except DesignError as exc:
            report.extend(exc)
            return []
        rows: list = source.rows if source is not None else [None]
        if not rows:
            return []
        table = source.table if source is not None else None
        lookups = (source or back_of).lookups if (source or back_of) is not None else None  # type: ignore[union-attr]
        if "templates" not in hashes:
            hashes["templates"] = templates_hash(design.folder, files)
        if "art" not in hashes:
            hashes["art"] = art_hash(design.folder, files.extra)
        if "fonts" not in hashes:
            hashes["fonts"] = font_css(design, files)
        faces = []
        width = len(str(len(rows)))
        allowed = files.extra
        dumped = {"design": design.meta.model_dump(mode="json")}  # what _jsonable makes of it, once for every row
        is_back = src is not comp and rows[0] is not None
        reads = _template_reads(design, src.template)
        # the language is an input of the face when the template reads `lang`, or when its own words or the
        # values it is given are typeset otherwise in another language of the design (else: through its values)
        lang_read = len(langs) == 1 or reads is None or "lang" in reads
        static = _template_text(design, src.template) if not lang_read else ""
        lang_read = lang_read or _typeset_varies([static], langs)
        used = _columns_read(reads, table) if is_back and reads is not None else None
        with_count = table is not None and table.count_column is not None and (
            reads is None or "row" in reads or table.count_column in _columns_read(reads, table))
        face_keys = products.TEMPLATE_FACE.key_base(
            templates=hashes["templates"], art=hashes["art"], fonts=hashes["fonts"], template=src.template,
            width=size.width, height=size.height, bleed=bleed, folder=design.folder.name,  # type: ignore[union-attr]
            lookups=lookups.hash if lookups is not None else "")  # (what every face's key begins
        # with, hashed once; the folder's name too: the SVG's source comment names it, so two designs with the same
        # templates and rows, in folders of other names, do not share their faces)
        fixed = {"component": cid, "design": design.meta, "width": size.width, "height": size.height,  # type: ignore[union-attr]
                 "bleed": bleed, "safe": design.print.safe_zone}
        if table is not None and src is comp:
            _warn_shadowed(table, fixed, doc)
        naming = _name_column(design, cid, comp, table, report) if table is not None and src is comp else None
        for i, row in enumerate(rows, start=1):
            values = dict(table.cells_in(row.values, lang)) if row and table is not None else {}
            named = table.cells_in(row.values, langs[0]) if row and table is not None else values  # (file names:
            # the same in every language)
            if row is not None and table is not None:
                shown = {**values, table.count_column: row.count} if with_count else values
                context = {**decks.names(shown, table.aliases, i), **fixed}
            else:
                context = {**values, "row": values, "index": i, **fixed}
            where = (row.file, row.line) if row else (doc.path, doc.line(loc + ("template",)))
            keyed = context
            key = f"{i:0{width}d}" if row else "face"
            label = ""
            if is_back and used is not None:  # a back: the same for every row that agrees on what it reads
                own = set(context) - set(fixed)
                keyed = {k: v for k, v in context.items() if k in used or k not in own}
                key = "back-" + slug("-".join(str(named[k]) for k in sorted(used) if k in named) or str(i))
            elif is_back:
                key = f"back-{i:0{width}d}"
            elif row is not None and naming is not None:
                label = _plain(values.get(naming[0], ""))
                if naming[1] and decks.slug(_plain(named.get(naming[0], ""))):
                    key += "-" + decks.slug(_plain(named.get(naming[0], "")))
            face_lang = lang if lang_read or _typeset_varies(_strings(keyed), langs) else ""
            cache_key = face_keys.key(context=_jsonable({**keyed, "lang": face_lang} if face_lang else keyed,
                                                        dumped))
            context["lang"] = lang
            if lookups is not None:
                context["tables"] = lookups.tables
            faces.append(FaceSpec(
                key=key, width=size.width, height=size.height, bleed=bleed,  # type: ignore[union-attr]
                paint=_template_painter(design.folder, src.template, path, context, size.width, size.height, bleed,  # type: ignore[union-attr]
                                        where, row is not None, hashes["fonts"], allowed, face_lang),
                count=row.count if row else comp.count, data=values, shape=comp.shape, cache_key=cache_key,  # type: ignore[arg-type]
                label=label,
            ))
        return faces
    # a ready SVG file
    try:
        path, text = files.read_svg(src.svg, (doc.path, doc.line(loc + ("svg",))), images=True)  # type: ignore[arg-type]
    except DesignError as exc:
        report.extend(exc)
        return []
    if has_images(text):
        try:
            check_art_names(text, ArtFiles(design.folder, files.extra), path)
        except DesignError as exc:
            report.extend(exc)
            return []
    text, _root, removed = clean_text(text)  # warned when painted (and again from the cache)
    text = with_source_comment(text, design.folder, path)
    if has_images(text) and "art" not in hashes:
        hashes["art"] = art_hash(design.folder, files.extra)
    if "fonts" not in hashes:
        hashes["fonts"] = font_css(design, files)
    face_lang = lang if len(langs) == 1 or _typeset_varies(_svg_texts(text), langs) else ""
    keyed_text = text if not face_lang else typeset_svg(text, lang, face_lang)  # (its key: the face it makes)
    return [FaceSpec(key="face", width=size.width, height=size.height, bleed=bleed,  # type: ignore[union-attr]
                     paint=partial(_typeset_painted, _svg_painter(design.folder, files.extra, path, text,
                                                                  hashes["fonts"], warnings_of(removed, path)),
                                   lang, face_lang), count=comp.count,
                     shape=comp.shape, cache_key=products.SVG_FACE.key(  # type: ignore[arg-type]
                         svg_file=keyed_text, art=hashes["art"] if has_images(text) else "", fonts=hashes["fonts"]))]


def paint_compiled(face: FaceSpec, cache: Any = None) -> tuple[str, Any]:
    """A face's SVG and, when the SVG stands alone (no image, no @font-face: nothing read from the design's
    files, no font registered in this process), its drawing compiled by pnp.render.svgpdf (`Compiled`, plain
    data) in the process that painted it, so the sheets stage only plays it; else (svg, None) and the sheets
    stage compiles it, with the document's image cache. With `cache`, the SVG is stored there by this process
    (a worker writes the disk entry itself; the caller then only `remember`s it)."""
    svg = face.paint()
    if cache is not None and face.cache_key:
        cache.put("svg", face.cache_key, svg)
    if has_images(svg) or "@font-face" in svg:
        return svg, None
    from pnp.render.svgpdf import compile_svg  # lazy: 95 ms (pnp.render.svgpdf)

    return svg, compile_svg(svg)


def paint_staged(face: FaceSpec, cache: Any, stage: Any, name: str) -> tuple[str, Any, bool]:
    """paint_compiled, and the face written ahead as its svg/ file `name` into `stage` (pnp.output.Stage) when it
    is written as it is (it names no file): (svg, drawing, staged)."""
    svg, drawing = paint_compiled(face, cache)
    return svg, drawing, stage is not None and stands_alone(svg) and stage.write(name, svg)


class FaceStream(dict):
    """Face path -> SVG text, filled while workers paint (pnp.parallel.pstream) and store them in the cache:
    reading a face not painted yet waits for it, so the sheets stage draws the first faces while the last are
    painted. `finish()` waits for all and gives the plain dict; a face that fails to paint makes the next read
    (or `finish`) wait for all the others and raise every problem at once (DesignError), so a PDF missing a
    face is never made, nor cached. With `stage` (pnp.output.Stage), the workers also write each face's svg/
    file into it as they paint it, and its `names` say which ones they wrote."""

    def __init__(self, ready: dict[str, str], todo: list[tuple[str, FaceSpec]], cache: Any, report: ErrorReport,
                 compiled: dict, stage: Any = None):
        super().__init__(ready)

        prepare_compile()
        self._todo, self._next, self._cache, self._report, self._compiled = todo, 0, cache, report, compiled
        self.stage = stage
        self._results = pstream([partial(paint_staged, face, cache, stage, path) for path, face in todo])

    def __missing__(self, path: str) -> str:
        while self._next < len(self._todo):
            got = self._take()
            if got == path:
                return self[path]
        self._report.raise_if_any()
        raise KeyError(path)

    def _take(self) -> str:
        path, face = self._todo[self._next]
        self._next += 1
        status, value = next(self._results)
        try:
            ok = succeeded(status, value, self._report)
        except Exception:  # a bug: raised with its traceback, once the workers are stopped
            self._results.close()
            raise
        if not ok:
            self._drain()
            self._report.raise_if_any()
        made: Any = value
        svg, drawing, staged = made
        if drawing is not None:
            self._compiled[path] = drawing
        if staged:
            self.stage.names.add(path)
        self[path] = svg
        if face.cache_key:
            self._cache.remember("svg", face.cache_key, svg)  # the worker that painted it has stored it
        return path

    def _drain(self) -> None:
        for (_path, _face), (status, value) in zip(self._todo[self._next:], self._results):
            succeeded(status, value, self._report)
        self._next = len(self._todo)
        self._results.close()  # the workers stop

    def finish(self) -> dict[str, str]:
        while self._next < len(self._todo):
            self._take()
        self._results.close()
        return dict(sorted(self.items()))


def prepare_compile() -> None:
    """What compiling a face needs, loaded once before workers are forked (they inherit it): the compiler and
    the shipped default fonts' metrics (others are read where a face names them)."""
    from pnp.render.svgpdf import compiler, text  # noqa: F401  # lazy: 114 ms (pnp.render.svgpdf)

    fonts.register_furniture()


def font_css(design: Design, files: DesignFiles) -> str:
    """The design's `fonts:` as a <style> of CSS @font-face rules (one per file, with the file's content hash
    in a comment), put into every face a template paints: browsers load the files (copied under svg/art/ with
    the face), pnp.render.svgpdf draws and embeds the same files. "" for a design without fonts."""
    rules = []
    for family, faces in sorted(design.fonts.items()):
        for slot, name in faces.files().items():
            where = (design.source.path, design.source.line(("fonts", family, slot)))
            data = files.read_bytes(files.resolve(name, where, what="font"), "font_bytes")
            weight = "bold" if slot.startswith("bold") else "normal"
            style = "italic" if slot.endswith("italic") else "normal"
            rules.append(f'@font-face {{font-family: "{family}"; font-weight: {weight}; font-style: {style}; '
                         f'src: url("{css_url(name)}")}} /* {content_hash(data)} */')
    return "<style>\n" + "\n".join(rules) + "\n</style>" if rules else ""


def with_style(svg: str, style: str) -> str:
    """`svg` with `style` as the first child of its root element."""
    if not style:
        return svg
    start = svg.find("<svg")
    end = svg.find(">", start)
    if start < 0 or end < 0:
        return svg
    return svg[:end + 1] + "\n" + style + svg[end + 1:]


def _svg_painter(folder: Path, extra: tuple[Path, ...], path: Path, text: str, fonts_style: str = "",
                 removed: list[tuple[str, int | None, str]] | None = None):
    """A ready SVG file's face: as it is (without what pnp.render.sanitise removed: `removed`, warned here), its
    images checked and their content hashes added (pnp.render.art), the design's fonts added."""
    def paint() -> str:
        for note in removed or ():
            warn(*note)
        notes = [*(removed or ()), *face_warnings(text, fonts_style, ArtFiles(folder, extra), path)]
        if not has_images(text):
            return with_style(with_warning_marks(text, notes, folder), fonts_style)
        root = etree.fromstring(text.encode("utf-8"), _SVG_PARSER)
        return with_style(with_warning_marks(check_art(text, root, ArtFiles(folder, extra), path), notes, folder),
                          fonts_style)

    return paint


def _template_reads(design: Design, name: str) -> set[str] | None:
    """The names a template reads (jinja2.meta), with what it includes, imports or extends, where `row['x']`,
    `row.x` and `row.get('x')` count as reading the column `x` and `row` stands for the whole row only when used
    otherwise; None when it cannot tell (a template named by an expression, one that does not parse)."""
    env = _environment(Path(os.path.abspath(design.folder)), DesignFiles(design.folder).extra)
    found: set[str] = set()
    todo, seen = [name], set()
    while todo:  # the template and every template it includes, imports or extends (by a name it spells out)
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        if len(seen) > 50:
            return None
        try:
            source = env.loader.get_source(env, current)[0]  # type: ignore[union-attr]
            ast = env.parse(source)
        except Exception:  # not found, refused or a syntax error: painting reports it with its file:line
            return None
        try:
            referenced = list(meta.find_referenced_templates(ast))
            names = _names_read(ast)
        except RecursionError:  # a chain of thousands of filters: painting reports it (it cannot compile)
            return None
        if None in referenced:
            return None  # a name computed while rendering: pnp cannot tell what it reads
        todo += [str(r) for r in referenced]
        found |= names
    return found


def _names_read(ast: Any) -> set[str]:
    """The names one parsed template reads, `row`'s lookups by a spelled-out key as the columns they name."""
    found = set(meta.find_undeclared_variables(ast))
    if "row" not in found:
        return found
    found.discard("row")
    parts: set[int] = set()  # the Name nodes of `row` that are a column's lookup
    for node in ast.find_all((nodes.Getitem, nodes.Getattr, nodes.Call)):
        target: Any = None
        if isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
            target, column = node.node, node.arg.value
        elif isinstance(node, nodes.Getattr) and node.attr != "get":
            target, column = node.node, node.attr
        elif (isinstance(node, nodes.Call) and isinstance(node.node, nodes.Getattr) and node.node.attr == "get"
              and node.args and isinstance(node.args[0], nodes.Const) and isinstance(node.args[0].value, str)):
            target, column = node.node.node, node.args[0].value
        if isinstance(target, nodes.Name) and target.name == "row" and target.ctx == "load":
            found.add(column)
            parts.add(id(target))
            if isinstance(node, nodes.Call):
                parts.add(id(node.node))
    for node in ast.find_all(nodes.Name):
        if node.name == "row" and node.ctx == "load" and id(node) not in parts:
            found.add("row")  # the whole row: `{% for k, v in row.items() %}`, `row[name]`, a macro's argument
            break
    return found


def _columns_read(reads: set[str], table: Any) -> set[str]:
    """The columns (as the table spells them), `row` and `index` among the names a template reads."""
    out = set()
    for name in reads:
        if name in ("row", "index"):
            out.add(name)
            if name == "row":
                out.update(table.columns)
                if table.count_column:
                    out.add(table.count_column)
            continue
        column = table.find(name)
        if column is not None:
            out.add(column)
    return out


def _reads_row(design: Design, files: DesignFiles, name: str, source: _Source) -> bool:
    """Whether a back template reads its front's row (a column, `row` or `index`): then each row gets its back."""
    reads = _template_reads(design, name)
    if reads is None:
        return True
    return bool(_columns_read(reads, source.table))


def _warn_unread(design: Design, cid: str, comp: Component, table: Any) -> None:
    """A column that nothing reads (neither template, nor count:, name_column, group_by, where:) is a warning: a
    misspelt or forgotten column is never lost in silence. `columns: {notes: skip}` says a column is only notes.
    Nothing is said when a template's reads cannot be known (it includes or imports another)."""
    read: set[str] = set()
    for name in (comp.template, comp.back.template if comp.back is not None else None):
        if not name:
            continue
        reads = _template_reads(design, name)
        if reads is None:
            return
        read |= _columns_read(reads, table)
    said = [comp.name_column, comp.group_by, *((comp.where or {}) if isinstance(comp.where, dict) else ())]
    if isinstance(comp.where, str):
        try:
            said += meta.find_undeclared_variables(decks._env(design.folder).parse("{% if " + comp.where +
                                                                                   " %}{% endif %}"))
        except Exception:  # a bad expression: select() reports it
            return
    read |= {table.find(str(n)) for n in said if n} - {None}
    skipped = {table.find(n) for n, kind in (comp.columns or {}).items() if kind == "skip"}
    if comp.count_column is False:  # `count: {column: none}`: the count-like columns are left on purpose

        skipped |= {c for c in table.columns if looks_like_count(c)}
    where = table.file if table.file is not None else design.source.path
    line = 1 if table.file is not None else design.source.line(("components", cid, "data"))
    templates = ", ".join(n for n in (comp.template, comp.back.template if comp.back else None) if n)
    for column in table.columns:
        if column not in read and column not in skipped:
            warn(where, line, f"column '{column}' is read by no template of components.{cid} ({templates}) nor by "
                 f"its settings; expected it used, or columns: {{{column}: skip}} if it only holds notes")


def _warn_shadowed(table: Any, fixed: dict[str, Any], doc: Any) -> None:
    """A column whose name (or normalised name) is one a template is given by pnp (width, index...) would be hidden
    by it: a warning naming how to read it."""
    given = set(fixed) | {"row", "index", "tables", "textbox", "lang"}
    names = {c: c for c in table.columns} | {a: c for a, c in table.aliases.items()}
    for name, column in names.items():
        if name in given and table.file is not None:
            warn(table.file, None, f"column '{column}': the name '{name}' is the template's own ({_GIVEN.get(name, name)}"
                 f"), which hides the column; expected another column name, or row['{column}'] in the template")


_GIVEN = {"lang": "the face's language",
          "width": "the face's width", "height": "the face's height", "bleed": "the bleed", "safe": "the safe zone",
          "component": "the component's id", "design": "the design's meta", "index": "the row's number",
          "row": "the whole row", "tables": "the design's tables", "textbox": "the text box helper"}

NAME_COLUMNS = ("name", "title", "card_name", "card_title", "nom", "titre", "nombre", "titulo", "nome")
"""The columns that name a data table's faces when the component names none (normalised, in this order)."""


def _name_column(design: Design, cid: str, comp: Component, table: Any, report: ErrorReport) -> tuple[str, bool] | None:
    """(the column naming each face, whether the component said so: then file names carry the name too), or None."""
    if comp.name_column:
        column = table.find(comp.name_column)
        if column is None:
            hint = close_match(comp.name_column, table.columns)
            did = f"; did you mean '{hint}'?" if hint else ";"
            report.add(design.source.path, design.source.line(("components", cid, "name_column")),
                       f"components.{cid}.name_column: '{comp.name_column}' is not a column of the table{did} "
                       f"expected one of: {', '.join(table.columns[:30])}")
            return None
        return column, True

    by_alias = {column_alias(c): c for c in reversed(table.columns)}
    found = next((by_alias[n] for n in NAME_COLUMNS if n in by_alias), None)
    return (found, False) if found else None


def _plain(value: Any) -> str:
    """A cell as a name: its words without markup, on one line, at most 100 characters."""
    return " ".join(plain("" if value is None else str(value)).split())[:100]


class Lookups:
    """The design's `tables:`, as templates read them: `tables.NAME[key]` is the row (a mapping of its columns)
    whose key column holds `key`; `tables.NAME.rows` every row in order. `hash`: of every table's content."""

    def __init__(self, tables: dict[str, Any], hash_: str):
        self.tables = tables
        self.hash = hash_


class Lookup(dict):
    """One table of `tables:`: key -> row; `.rows`, the rows in order; a missing key is an error naming it."""

    def __init__(self, name: str, key: str, rows: list[dict[str, Any]]):
        super().__init__()
        self.name, self.key, self.rows = name, key, rows
        for row in rows:
            self.setdefault(_key_text(row.get(key, "")), row)

    def __missing__(self, key: Any) -> Any:
        text = _key_text(key)
        if text in self:
            return dict.__getitem__(self, text)

        hint = close_match(text, list(self))
        did = f"; did you mean '{hint}'?" if hint else ";"
        raise LookupError(f"tables.{self.name} has no row whose '{self.key}' is {text!r}{did} expected one of: "
                          f"{', '.join(list(self)[:20])}")


def _key_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value).strip()


def _lookups(design: Design, files: DesignFiles, report: ErrorReport, lang: str = "en",
             first: bool = True) -> Lookups:
    doc = design.source
    out: dict[str, Any] = {}
    parts: list[Any] = []
    for name, spec in design.tables.items():
        loc = ("tables", name, "data")
        table = load_table(spec.data, design.folder, doc, loc, report, files, columns=spec.columns,  # type: ignore[arg-type]
                           sheet=spec.sheet, count=CountSpec(False), encoding=spec.encoding)
        if not table.rows:
            continue
        key = table.find(spec.key) if spec.key else table.columns[0] if table.columns else None
        if key is None:
            report.add(doc.path, doc.line(("tables", name, "key")), f"tables.{name}.key: '{spec.key}' is not a "
                       f"column of the table; expected one of: {', '.join(table.columns[:30])}")
            continue
        cells = [table.cells_in(r.values, lang) for r in table.rows]  # (its texts in the face's language)
        rows = [decks.RowView(c, table.aliases) for c in cells]
        lookup = Lookup(name, key, rows)  # type: ignore[arg-type]
        seen: dict[str, int | None] = {}
        for r in table.rows if first else ():
            k = _key_text(r.values.get(key, ""))
            if k in seen:
                warn(r.file, r.line, f"tables.{name}: the key '{k}' is also the key of the row at line {seen[k]}; "
                     "expected each key once (the first row is the one found)")
            seen.setdefault(k, r.line)
        if first:
            language_warnings(table, languages_of(design), (doc.path, doc.line(loc)))
        out[name] = lookup
        parts += [name, key, cells]
    return Lookups(out, products.digest("tables", *parts))


def _shared_backs(fronts: list[FaceSpec], backs: list[FaceSpec]) -> dict[str, FaceSpec]:
    """front key -> its back, rows whose backs are made of the same values sharing one back face, named by
    those values (`back-hero`), else numbered (`back-1`); each back's count is the copies of its fronts."""
    groups: dict[str, list[tuple[FaceSpec, FaceSpec]]] = {}
    for front, back in zip(fronts, backs):
        groups.setdefault(back.cache_key or front.key, []).append((front, back))
    firsts = [pairs[0][1] for pairs in groups.values()]
    names = [b.key for b in firsts]
    numbered = len(set(names)) != len(names) or any(len(n) > 60 for n in names)
    out: dict[str, FaceSpec] = {}
    for n, pairs in enumerate(groups.values(), start=1):
        back = pairs[0][1]
        if len(groups) == 1:
            back.key = "back"
        elif numbered:
            back.key = f"back-{n:0{len(str(len(groups)))}d}"
        back.count = sum(front.count for front, _ in pairs)
        for front, _ in pairs:
            out[front.key] = back
    return out


_BAD_KEY = re.compile(r"[/\\\x00-\x1f\x7f]|\.\.")


def _checked_keys(faces: list[FaceSpec], cid: str, doc, loc: tuple, report: ErrorReport) -> list[FaceSpec]:
    """A generator names its faces from the design's params (a colour's name, a tile's id): each name must be a
    plain file name (it becomes svg/<component>-<name>.svg) and name one face only."""
    seen: set[str] = set()
    for face in faces:
        key = str(face.key)
        if _BAD_KEY.search(key) or key.startswith(".") or not key.strip() or len(key) > 100:
            report.add(doc.path, doc.line(loc + ("params",)), f"components.{cid}: a face is named {key[:40]!r} from "
                       "the params; expected a plain name, without '/', '\\' or a leading '.' (it names an SVG "
                       "file)")
            return []
        if key in seen:
            report.add(doc.path, doc.line(loc + ("params",)), f"components.{cid}: two faces are named '{key}'; "
                       "expected each entry of the params to have a name (or id) of its own")
            return []
        seen.add(key)
    return faces


def templates_hash(design_folder: Path, files: DesignFiles | None = None) -> str:
    """One hash of every template a design's faces can reach (includes and macros too): the *.j2 files of the
    design folder and pnp's templates/, read through the design's confinement (a refused file hashes as such)."""
    files = files or DesignFiles(design_folder)
    parts: list[Any] = []
    seen = 0
    for n, base in enumerate((Path(design_folder), templates_dir())):
        for path in _template_files(base):
            seen += 1
            if seen > limit("design_files"):
                return products.digest(*parts, "too many files")
            try:
                data = files.read_bytes(path, "template_bytes", shared=True)
            except FileRefused as exc:
                data = exc.message.encode("utf-8")
            parts += [n, str(path.relative_to(base)), data]
    return products.digest(*parts)


def _template_files(base: Path) -> list[Path]:
    """*.j2 files under `base`, symlinked folders not followed, in a fixed order."""
    found = []
    for root, dirs, names in os.walk(base, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        found += [Path(root) / n for n in sorted(names) if n.endswith(".j2")]
        if len(found) > limit("design_files"):
            break
    return found


def _jsonable(context: dict, dumped: dict | None = None) -> dict:
    """`context` as JSON values; `dumped`: values already dumped, by name."""
    dumped = dumped or {}
    return {k: (dumped[k] if k in dumped else v.model_dump(mode="json")) if hasattr(v, "model_dump") else v
            for k, v in context.items()}


@lru_cache(maxsize=16)
def _environment(design_folder: Path, extra: tuple[Path, ...]) -> jinja2.Environment:
    files = DesignFiles(design_folder, extra)
    env = sandbox.environment(
        files, template_bases(design_folder), "template_bytes",
        autoescape=True,  # data text such as "Salt & Pepper" must not break the SVG
        keep_trailing_newline=True,
        finalize=_finalize,  # a value holding markup is marked, to be read as markup where it lands in a <text>
    )
    env.globals["textbox"] = _textbox.textbox
    env.filters["plain"] = _textbox.plain_filter
    env.filters["literal"] = _textbox.literal_filter
    return env


@jinja2.pass_context  # (a context makes Jinja2 call it as the face is painted, never once when compiling)
def _finalize(context: Any, value: Any) -> Any:
    return _textbox.mark_cell(value)


def _cells(svg: str, root: Any, painting: _textbox.Painting) -> tuple[str, Any]:
    """The face with the values marked by _finalize read as markup where they are the text of a <text> (runs as
    <tspan>s) and as they are elsewhere; written again only when some text changed, else the same bytes as
    without marks."""
    token = _textbox.PAINTING.set(painting)
    try:
        changed = _textbox.convert_cells(root, painting)
    finally:
        _textbox.PAINTING.reset(token)
    if changed:
        svg = '<?xml version="1.0" encoding="utf-8"?>\n' + etree.tostring(root.getroottree(), encoding="unicode") + "\n"
    else:
        svg = _textbox.strip_marks(svg)
    return svg, etree.fromstring(svg.encode("utf-8"), _SVG_PARSER)


_SVG_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)


@lru_cache(maxsize=16)
def _design_files(folder: Path, extra: tuple[Path, ...]) -> DesignFiles:
    """The design's DesignFiles, made once per process rather than once per face (it resolves every folder)."""
    return DesignFiles(folder, extra)


def _template_painter(folder: Path, name: str, path: Path, context: dict[str, Any], w: float, h: float, bleed: float,
                      where: tuple[Path, int | None], is_row: bool, fonts_style: str = "",
                      extra: tuple[Path, ...] | None = None, face_lang: str = ""):
    extra = DesignFiles(folder).extra if extra is None else extra

    def paint() -> str:
        env = _environment(Path(os.path.abspath(folder)), extra)  # a relative folder means another one elsewhere
        row = f" (filling row {_disp(where[0])}:{where[1]})" if is_row and where[1] else ""
        painting = _textbox.Painting(_design_files(folder, extra), folder,
                                     f"{_disp(where[0])}:{where[1]}" if is_row and where[1] else None,
                                     fonts_style=fonts_style, lang=context.get("lang") or "")
        token = _textbox.PAINTING.set(painting)
        try:
            template = env.get_template(name)
            fragment = sandbox.render(template, context)
        except jinja2.TemplateSyntaxError as exc:
            file = exc.filename or path
            expected = "" if "; expected" in (exc.message or "") else "; expected valid Jinja2"
            raise DesignError([Problem(_disp(file), exc.lineno, f"template syntax error: {exc.message}{expected}")]) \
                from None
        except jinja2.TemplateNotFound as exc:
            file, line = _template_line(exc, path)
            raise DesignError([Problem(_disp(file), line, f"template '{exc.name}' not found{row}; expected it in "
                                       f"{_disp(folder)}/, {_disp(folder / 'templates')}/ or "
                                       f"{_disp(templates_dir())}/")]) from None
        except jinja2.TemplateError as exc:
            file, line = _template_line(exc, path)
            raise DesignError([Problem(_disp(file), line, f"{exc.message or exc}{row}{_did_you_mean(exc, context)} "
                                       f"expected every name used to be a column of the data table or one of: index, "
                                       f"width, height, bleed, safe, component, design")]) from None
        except sandbox.RENDER_ERRORS as exc:
            file, line = _template_line(exc, path)
            raise DesignError([Problem(_disp(file), line, f"{sandbox.describe(exc)}{row}")]) from None
        except _textbox.TextboxError as exc:
            file, line = _template_line(exc, path)
            what, _, expected = exc.message.partition("; expected")
            raise DesignError([Problem(_disp(file), line, f"{what}{row}; expected{expected}")]) from None
        except (TypeError, ValueError, ArithmeticError, AttributeError, LookupError) as exc:
            file, line = _template_line(exc, path)
            raise DesignError([Problem(_disp(file), line, f"{type(exc).__name__}: {exc}{row}; expected an "
                                       "expression that works on the row's values (a text cell needs |int or "
                                       "|float, or the column declared in columns: {name: number})")]) from None
        finally:
            _textbox.PAINTING.reset(token)
        svg = wrap_fragment(fragment, w, h, bleed)
        try:
            root = etree.fromstring(svg.encode("utf-8"), _SVG_PARSER)
        except etree.XMLSyntaxError as exc:
            if _DECLARATION.search(fragment):
                raise DesignError([_declaration_problem(env, name, path, row)]) from None
            raise DesignError([Problem(_disp(where[0]), where[1], f"the SVG filled from {path.name} is not "
                                       f"well-formed ({exc.msg}); expected valid SVG markup")]) from None
        if _textbox.MARK in svg:
            svg, root = _cells(svg, root, painting)
        try:
            fine = check_parsed(root, svg, _disp(path), images=True, vocabulary=VOCABULARY)
        except DesignError as exc:
            problem = exc.problems[0]
            raise DesignError([Problem(_disp(path), None, problem.message.replace("the SVG", f"the SVG it makes{row}",
                                                                                  1))]) from None
        svg = check_art(svg, root, ArtFiles(folder, extra), path, row)
        # no script, handler, link out... (pnp.render.sanitise; `fine`: nothing to remove, and the root has nothing
        # before it but the XML declaration, wrap_fragment's)
        svg, root, removed = clean_text(svg, root) if not fine else (svg, root, [])
        if removed:
            for note in warnings_of(removed, path, painting.row, template=True):
                warn(*note)
                painting.warnings.append(note)
        svg = typeset_svg(svg, context.get("lang") or "en", face_lang)
        painting.warnings += face_warnings(svg, fonts_style, ArtFiles(folder, extra), path, painting.files,
                                           painting.row, context, painting.warnings)  # characters no font has
        svg = with_style(with_warning_marks(svg, painting.warnings, folder), fonts_style)  # a cached face warns again
        return with_source_comment(svg, folder, path, where if is_row else None)

    return paint


_DECLARATION = re.compile(r"<!(DOCTYPE|ENTITY)\b", re.I)


def _declaration_problem(env: jinja2.Environment, name: str, path: Path, row: str) -> Problem:
    """A template that writes a <!DOCTYPE> or <!ENTITY> (the SVG it makes cannot hold one): at its line in the
    template, else the template's file."""
    try:
        source = env.loader.get_source(env, name)[0] if env.loader else ""
    except (jinja2.TemplateError, FileRefused, OSError):
        source = ""
    m = _DECLARATION.search(source)
    line = source.count("\n", 0, m.start()) + 1 if m else None
    what = f"<!{m.group(1).upper()}>" if m else "<!DOCTYPE> or <!ENTITY>"
    return Problem(_disp(path), line, f"the template writes a {what}, refused in SVG{row}; expected SVG markup "
                   "without <!DOCTYPE> or <!ENTITY> (a template draws inside the face's <svg>, and pnp reads no DTD)")


_UNDEFINED = re.compile(r"'([^']+)' is undefined|has no attribute '([^']+)'")


def _did_you_mean(exc: BaseException, context: dict[str, Any]) -> str:
    """"; did you mean 'power'?" for a name or `row` key a template misspelt, from the row's columns (and their
    normalised names) and the names pnp gives; ";" when none is close."""
    m = _UNDEFINED.search(str(getattr(exc, "message", "") or exc))
    if not m:
        return ";"

    row = context.get("row")
    names = [k for k in context if k != "row"] + (list(row) + list(getattr(row, "_aliases", {})) if isinstance(
        row, dict) else [])
    hint = close_match(m.group(1) or m.group(2), names)
    return f"; did you mean '{hint}'?" if hint else ";"


def _template_line(exc: BaseException, default: Path) -> tuple[Path, int | None]:
    """The template file and line where `exc` happened: the innermost frame of a template (Jinja2 rewrites the
    traceback so that template code shows with its own file and line)."""
    tb = exc.__traceback__
    found: tuple[Path, int | None] = (default, None)
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if not name.endswith(".py") and not name.startswith("<") and os.path.isfile(name):
            found = (Path(name), tb.tb_lineno)
        tb = tb.tb_next
    return found


def _disp(path: Path | str) -> str:
    return display_path(path)


_SLUG = re.compile(r"[^a-z0-9-]+")


def slug(text: str) -> str:
    return _SLUG.sub("-", str(text).lower()).strip("-") or "x"


# --- each face in its language: texts resolved, typeset, and the language on its root ----------------------------

def _typeset_painted(paint: Any, lang: str, face_lang: str) -> str:
    """A face as painted (a template's, a generator's, an SVG file's), typeset in `lang`; with `face_lang` (a face
    that differs by language) its root names that language (typeset_svg: idempotent, said once)."""
    return typeset_svg(paint(), lang, face_lang)


def _typeset_varies(texts: list[str], langs: list[str]) -> bool:
    """Whether one of `texts` prints otherwise in another of the design's languages (then a face holding it is one
    face per language, though its words are the same)."""
    if len(langs) < 2:
        return False
    for text in texts:
        if text and len({typeset(text, lang) for lang in langs}) > 1:
            return True
    return False


def _strings(context: dict[str, Any]) -> list[str]:
    """The texts among the values a template is given (its row's cells)."""
    out: list[str] = []
    for v in context.values():
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict) and not hasattr(v, "model_dump"):
            out += [x for x in v.values() if isinstance(x, str)]
    return out


def _svg_texts(svg: str) -> list[str]:
    """The text runs of an SVG file (outside CSS and comments)."""
    rest = SVG_SKIPPED.sub("", svg)
    return [html.unescape(m.group(1)) for m in SVG_TEXT_RUN.finditer(rest)]


@lru_cache(maxsize=256)
def _template_words(folder: Path, extra: tuple[Path, ...], name: str) -> str:
    """The words a template writes itself (its text outside markup and expressions, with what it includes),
    joined; "" when they cannot be read (painting reports why)."""
    env = _environment(folder, extra)
    out: list[str] = []
    todo, seen = [name], set[str]()
    while todo and len(seen) < 50:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            ast = env.parse(env.loader.get_source(env, current)[0])  # type: ignore[union-attr]
            todo += [str(r) for r in meta.find_referenced_templates(ast) if r is not None]
        except Exception:  # not found, refused, a syntax error, too deep: painting reports it
            continue
        # the template's own text, each expression a placeholder, so that markup split by one still reads as markup
        source = "".join(n.data if isinstance(n, nodes.TemplateData) else "\x00"
                         for n in ast.find_all((nodes.TemplateData, nodes.Output, nodes.Expr)))
        out += [m.group(1) for m in SVG_TEXT_RUN.finditer(SVG_SKIPPED.sub("", re.sub(r"<[^>]*>", "><", source)))]
    return "\n".join(t.replace("\x00", "1") for t in out)


def _template_text(design: Design, name: str) -> str:
    return _template_words(Path(os.path.abspath(design.folder)), DesignFiles(design.folder).extra, name)


def _warn_missing_texts(design: Design, langs: list[str]) -> None:
    """A text of design.yaml given per language ({en: ..., fr: ...}: a name, a param, a label, an inline row's
    cell) but not in every language of meta.languages is a warning at its line."""
    if len(langs) < 2 or design.source is None:
        return
    doc = design.source
    todo: list[tuple[tuple, Any]] = [((), doc.data)]
    while todo:
        loc, value = todo.pop()
        if is_texts(value):
            missing = [lang for lang in langs if not isinstance(value.get(lang), str) or not value[lang].strip()]
            if missing:
                where = ".".join(str(p) for p in loc)
                warn(doc.path, doc.line(loc), f"{where}: no {', '.join(missing)} text in {{{', '.join(value)}}}; "
                     f"expected a text in every language of meta.languages ({', '.join(langs)}); the "
                     f"{next(iter(value))} text is printed instead")
            continue
        if isinstance(value, dict):
            todo += [(loc + (k,), v) for k, v in value.items()]
        elif isinstance(value, list):
            todo += [(loc + (i,), v) for i, v in enumerate(value)]
