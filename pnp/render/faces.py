"""Components -> distinct faces (FaceSpec), from generators, data tables + templates, or SVG files.

Every file a component names is read through pnp.confine (inside the design folder, bounded);
templates render in pnp.sandbox (sandboxed, bounded). The design's totals (faces, copies, a
face's size) are checked against pnp.limits before anything is painted.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from lxml import etree

from pnp import registry, sandbox
from pnp.cache import KeyBase, key_of
from pnp.confine import DesignFiles, FileRefused, check_parsed
from pnp.errors import (
    DesignError,
    ErrorReport,
    Problem,
    display_path,
    remember_design_folder,
    warn,
    with_source_comment,
    with_warning_marks,
)
from pnp.limits import LIMITS, limit
from pnp.loader import template_bases, templates_dir
from pnp.model import Component, Design, FaceSource
from pnp.parallel import succeeded
from pnp.registry import FaceSpec, GeneratorContext
from pnp.render import textbox as _textbox
from pnp.render.art import ArtFiles, art_hash, check_art, check_art_names, has_images
from pnp.render.fonts import face_warnings
from pnp.render.svg import wrap_fragment
from pnp.tables import load_rows


@dataclass
class ComponentFaces:
    component_id: str
    component: Component
    fronts: list[FaceSpec]
    back: FaceSpec | None  # the shared back, or the first of the backs per row (None: no back)
    where: tuple[str, int | None] = ("", None)  # design.yaml and the line of this component, for messages
    row_backs: dict[str, FaceSpec] = field(default_factory=dict)  # front key -> its back, when backs differ by row

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
    """A face's name in the output (and its key among a design's SVG texts): svg/<component>-<face>.svg."""
    return f"svg/{component_id}-{face.key}.svg"


def design_faces(design: Design, report: ErrorReport | None = None) -> list[ComponentFaces]:
    """Every component's faces. Problems go to `report` when given (the caller raises them
    later with its own), else they are raised here, all together."""
    own = report is None
    report = ErrorReport() if report is None else report
    files = DesignFiles(design.folder)
    remember_design_folder(design.folder)
    doc = design.source
    hashes: dict[str, str] = {}
    result = []
    for cid, comp in design.components.items():
        loc = ("components", cid)
        rows: list = []
        fronts = _faces(design, files, hashes, cid, comp, comp, loc, report, rows)
        back = None
        row_backs: dict[str, FaceSpec] = {}
        if comp.back is not None:
            per_row = rows if rows and comp.back.template and _reads_row(design, files, comp.back.template,
                                                                            rows) else None
            backs = _faces(design, files, hashes, cid, comp, comp.back, loc + ("back",), report, per_row)
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
        result.append(ComponentFaces(cid, comp, fronts, back, (display_path(doc.path), doc.line(loc)), row_backs))
    if not report:
        _check_totals(design, result, report)
    if own:
        report.raise_if_any()
    return result


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
           src: FaceSource, loc: tuple, report: ErrorReport, rows_out: list | None = None) -> list[FaceSpec]:
    """The faces of a front (`src is comp`: a data table's rows are loaded and appended to `rows_out`) or of a
    back (`rows_out` given: one face per front row, else one shared face)."""
    bleed = design.bleed_of(comp)
    doc = design.source
    if src.generate:
        gen = registry.get_generator(src.generate)
        # a generator's faces depend on its component, the print settings, the rules and the metadata
        key_base = key_of("generate", src.generate, cid, comp.model_dump(mode="json", exclude={"params", "back"}, warnings=False),
                          src.params.model_dump(mode="json") if hasattr(src.params, "model_dump") else src.params,
                          design.print.model_dump(mode="json"), design.rules, design.meta.model_dump(mode="json"))
        ctx = GeneratorContext(design, cid, comp, src.params, bleed, key_base)
        faces = gen.fn(ctx)
        return _checked_keys(faces, cid, doc, loc, report)
    size = comp.size
    if src.template:
        try:
            path = files.resolve(src.template, (doc.path, doc.line(loc + ("template",))),
                                 bases=template_bases(design.folder), shared=True, what="template")
        except DesignError as exc:
            report.extend(exc)
            return []
        if comp.data is not None and src is comp:
            rows = load_rows(comp.data, design.folder, doc, ("components", cid, "data"), comp.count, report, files,
                             columns=comp.columns, sheet=comp.sheet)
            if rows_out is not None:
                rows_out += rows
        elif src is not comp and rows_out:
            rows = list(rows_out)  # a back filled from each front's row
        else:
            rows = [None]
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
        used = _row_names(design, files, src.template) if is_back else None
        face_keys = KeyBase("template", hashes["templates"], hashes["art"], hashes["fonts"], src.template,
                            size.width, size.height, bleed, design.folder.name)  # (what every face's key begins
        # with, hashed once; the folder's name too: the SVG's source comment names it, so two designs with the same
        # templates and rows, in folders of other names, do not share their faces)
        for i, row in enumerate(rows, start=1):
            values = dict(row.values) if row else {}
            context = {**values, "row": values, "index": i, "component": cid, "design": design.meta,
                       "width": size.width, "height": size.height, "bleed": bleed, "safe": design.print.safe_zone}
            where = (row.file, row.line) if row else (doc.path, doc.line(loc + ("template",)))
            keyed = context
            key = f"{i:0{width}d}" if row else "face"
            if is_back and used is not None:  # a back: the same for every row that agrees on what it reads
                keyed = {k: v for k, v in context.items() if k in used or (k not in values and k not in
                                                                           ("row", "index"))}
                key = "back-" + slug("-".join(str(values[k]) for k in sorted(used) if k in values) or str(i))
            elif is_back:
                key = f"back-{i:0{width}d}"
            cache_key = face_keys.key(_jsonable(keyed, dumped))
            faces.append(FaceSpec(
                key=key, width=size.width, height=size.height, bleed=bleed,
                paint=_template_painter(design.folder, src.template, path, context, size.width, size.height, bleed,
                                        where, row is not None, hashes["fonts"], allowed),
                count=row.count if row else comp.count, data=values, shape=comp.shape, cache_key=cache_key,
            ))
        return faces
    # a ready SVG file
    try:
        path, text = files.read_svg(src.svg, (doc.path, doc.line(loc + ("svg",))), images=True)
    except DesignError as exc:
        report.extend(exc)
        return []
    if has_images(text):
        try:
            check_art_names(text, ArtFiles(design.folder, files.extra), path)
        except DesignError as exc:
            report.extend(exc)
            return []
    text = with_source_comment(text, design.folder, path)
    if has_images(text) and "art" not in hashes:
        hashes["art"] = art_hash(design.folder, files.extra)
    if "fonts" not in hashes:
        hashes["fonts"] = font_css(design, files)
    extra = [v for v in (hashes["art"] if has_images(text) else "", hashes["fonts"]) if v]
    return [FaceSpec(key="face", width=size.width, height=size.height, bleed=bleed,
                     paint=_svg_painter(design.folder, files.extra, path, text, hashes["fonts"]), count=comp.count,
                     shape=comp.shape, cache_key=key_of("svg", text, *extra))]


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
    from pnp.render.svgpdf import compile_svg

    return svg, compile_svg(svg)


def paint_staged(face: FaceSpec, cache: Any, stage: Any, name: str) -> tuple[str, Any, bool]:
    """paint_compiled, and the face written ahead as its svg/ file `name` into `stage` (pnp.output.Stage) when it
    is written as it is (it names no file): (svg, drawing, staged)."""
    from pnp.render.art import stands_alone

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
        from functools import partial

        from pnp.parallel import pstream

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
    from pnp.render import fonts
    from pnp.render.svgpdf import compiler, text  # noqa: F401

    fonts.register_furniture()


def font_css(design: Design, files: DesignFiles) -> str:
    """The design's `fonts:` as a <style> of CSS @font-face rules (one per file, with the file's content hash
    in a comment), put into every face a template paints: browsers load the files (copied under svg/art/ with
    the face), pnp.render.svgpdf draws and embeds the same files. "" for a design without fonts."""
    from pnp.render.art import content_hash

    rules = []
    for family, faces in sorted(design.fonts.items()):
        for slot, name in faces.files().items():
            where = (design.source.path, design.source.line(("fonts", family, slot)))
            data = files.read_bytes(files.resolve(name, where, what="font"), "font_bytes")
            weight = "bold" if slot.startswith("bold") else "normal"
            style = "italic" if slot.endswith("italic") else "normal"
            rules.append(f'@font-face {{font-family: "{family}"; font-weight: {weight}; font-style: {style}; '
                         f'src: url("{name}")}} /* {content_hash(data)} */')
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


def _svg_painter(folder: Path, extra: tuple[Path, ...], path: Path, text: str, fonts_style: str = ""):
    """A ready SVG file's face: as it is, its images checked and their content hashes added (pnp.render.art),
    the design's fonts added."""
    def paint() -> str:
        notes = face_warnings(text, fonts_style, ArtFiles(folder, extra), path)  # characters no font has
        if not has_images(text):
            return with_style(with_warning_marks(text, notes, folder), fonts_style)
        root = etree.fromstring(text.encode("utf-8"), _SVG_PARSER)
        return with_style(with_warning_marks(check_art(text, root, ArtFiles(folder, extra), path), notes, folder),
                          fonts_style)

    return paint


def _row_names(design: Design, files: DesignFiles, name: str) -> set[str] | None:
    """The names a back template reads (jinja2.meta), None when it cannot tell (it includes, imports or extends
    another template, or does not parse: then every row is its own back)."""
    from jinja2 import meta

    env = _environment(Path(os.path.abspath(design.folder)), DesignFiles(design.folder).extra)
    try:
        source = env.loader.get_source(env, name)[0]
        ast = env.parse(source)
    except Exception:  # not found, refused or a syntax error: painting reports it with its file:line
        return None
    if list(meta.find_referenced_templates(ast)):
        return None
    return set(meta.find_undeclared_variables(ast))


def _reads_row(design: Design, files: DesignFiles, name: str, rows: list) -> bool:
    """Whether a back template reads its front's row (a column, `row` or `index`): then each row gets its back."""
    used = _row_names(design, files, name)
    if used is None:
        return True
    columns = {k for r in rows for k in r.values}
    return bool(used & (columns | {"row", "index"}))


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
                return key_of(*parts, "too many files")
            try:
                data = files.read_bytes(path, "template_bytes", shared=True)
            except FileRefused as exc:
                data = exc.message.encode("utf-8")
            parts += [n, str(path.relative_to(base)), data]
    return key_of(*parts)


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
    )
    env.globals["textbox"] = _textbox.textbox
    return env


_SVG_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)


@lru_cache(maxsize=16)
def _design_files(folder: Path, extra: tuple[Path, ...]) -> DesignFiles:
    """The design's DesignFiles, made once per process rather than once per face (it resolves every folder)."""
    return DesignFiles(folder, extra)


def _template_painter(folder: Path, name: str, path: Path, context: dict[str, Any], w: float, h: float, bleed: float,
                      where: tuple[Path, int | None], is_row: bool, fonts_style: str = "",
                      extra: tuple[Path, ...] | None = None):
    extra = DesignFiles(folder).extra if extra is None else extra

    def paint() -> str:
        env = _environment(Path(os.path.abspath(folder)), extra)  # a relative folder means another one elsewhere
        row = f" (filling row {_disp(where[0])}:{where[1]})" if is_row and where[1] else ""
        painting = _textbox.Painting(_design_files(folder, extra), folder,
                                     f"{_disp(where[0])}:{where[1]}" if is_row and where[1] else None,
                                     fonts_style=fonts_style)
        token = _textbox.PAINTING.set(painting)
        try:
            template = env.get_template(name)
            fragment = sandbox.render(template, context)
        except jinja2.TemplateSyntaxError as exc:
            file = exc.filename or path
            raise DesignError([Problem(_disp(file), exc.lineno, f"template syntax error: {exc.message}; "
                                       "expected valid Jinja2")]) from None
        except jinja2.TemplateNotFound as exc:
            file, line = _template_line(exc, path)
            raise DesignError([Problem(_disp(file), line, f"template '{exc.name}' not found{row}; expected it in "
                                       f"{_disp(folder)}/, {_disp(folder / 'templates')}/ or "
                                       f"{_disp(templates_dir())}/")]) from None
        except jinja2.TemplateError as exc:
            file, line = _template_line(exc, path)
            raise DesignError([Problem(_disp(file), line, f"{exc.message or exc}{row}; expected every name "
                                       f"used to be a column of the data table or one of: index, width, height, "
                                       f"bleed, safe, component, design")]) from None
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
            raise DesignError([Problem(_disp(where[0]), where[1], f"the SVG filled from {path.name} is not "
                                       f"well-formed ({exc.msg}); expected valid SVG markup")]) from None
        try:
            check_parsed(root, svg, _disp(path), images=True)
        except DesignError as exc:
            problem = exc.problems[0]
            raise DesignError([Problem(_disp(path), None, problem.message.replace("the SVG", f"the SVG it makes{row}",
                                                                                  1))]) from None
        svg = check_art(svg, root, ArtFiles(folder, extra), path, row)
        painting.warnings += face_warnings(svg, fonts_style, ArtFiles(folder, extra), path, painting.files,
                                           painting.row, context, painting.warnings)  # characters no font has
        svg = with_style(with_warning_marks(svg, painting.warnings, folder), fonts_style)  # a cached face warns again
        return with_source_comment(svg, folder, path, where if is_row else None)

    return paint


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
