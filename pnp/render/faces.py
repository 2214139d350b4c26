"""Components -> distinct faces (FaceSpec), from generators, data tables + templates, or SVG files.

Every file a component names is read through pnp.confine (inside the design folder, bounded);
templates render in pnp.sandbox (sandboxed, bounded). The design's totals (faces, copies, a
face's size) are checked against pnp.limits before anything is painted.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from lxml import etree

from pnp import registry, sandbox
from pnp.cache import key_of
from pnp.confine import DesignFiles, FileRefused, check_parsed
from pnp.errors import (DesignError, ErrorReport, Problem, display_path, remember_design_folder, warn,
                        with_source_comment)
from pnp.limits import LIMITS, limit
from pnp.loader import template_bases, templates_dir
from pnp.model import Component, Design, FaceSource
from pnp.registry import FaceSpec, GeneratorContext
from pnp.render.svg import wrap_fragment
from pnp.tables import load_rows


@dataclass
class ComponentFaces:
    component_id: str
    component: Component
    fronts: list[FaceSpec]
    back: FaceSpec | None
    where: tuple[str, int | None] = ("", None)  # design.yaml and the line of this component, for messages

    @property
    def copies(self) -> int:
        return sum(f.count for f in self.fronts)

    def error(self, message: str) -> DesignError:
        """`design.yaml:LINE: components.<id>: message`, for a problem later stages find with this component
        (a face too large for the paper...)."""
        return DesignError([Problem(self.where[0] or "design.yaml", self.where[1],
                                    f"components.{self.component_id}: {message}")])


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
        fronts = _faces(design, files, hashes, cid, comp, comp, loc, report)
        back = None
        if comp.back is not None:
            backs = _faces(design, files, hashes, cid, comp, comp.back, loc + ("back",), report)
            if len(backs) != 1 and not report:
                report.add(doc.path, doc.line(loc + ("back",)),
                           f"the back makes {len(backs)} faces; expected exactly one shared back")
            back = backs[0] if backs else None
            if back is not None:
                back.key = "back"
        result.append(ComponentFaces(cid, comp, fronts, back, (display_path(doc.path), doc.line(loc))))
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
        for face in cf.fronts + ([cf.back] if cf.back else []):
            side = max(face.width, face.height) + 2 * face.bleed
            if side > longest:
                report.add(doc.path, line, f"components.{cf.component_id}: a {face.width:g} x {face.height:g} mm "
                           f"face with {face.bleed:g} mm bleed; expected at most {longest} mm a side")
                break
        if cf.fronts and cf.copies == 0:
            warn(doc.path, line, f"components.{cf.component_id} makes no copies (every count is 0); it is left out "
                 "of the print sheets")
    for name, total in (("faces", sum(len(cf.fronts) + (1 if cf.back else 0) for cf in components)),
                        ("copies", sum(cf.copies for cf in components))):
        lim = LIMITS[name]
        if total > lim.value:
            biggest = max(components, key=lambda cf: cf.copies if name == "copies" else len(cf.fronts))
            report.add(doc.path, doc.line(("components", biggest.component_id)),
                       f"the design makes {total} {name} (components.{biggest.component_id}: "
                       f"{biggest.copies if name == 'copies' else len(biggest.fronts)}); expected at most "
                       f"{lim.value} {lim.unit} ({lim.what})")


def _faces(design: Design, files: DesignFiles, hashes: dict[str, str], cid: str, comp: Component,
           src: FaceSource, loc: tuple, report: ErrorReport) -> list[FaceSpec]:
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
            rows = load_rows(comp.data, design.folder, doc, ("components", cid, "data"), comp.count, report, files)
        else:
            rows = [None]
        if "templates" not in hashes:
            hashes["templates"] = templates_hash(design.folder, files)
        faces = []
        width = len(str(len(rows)))
        for i, row in enumerate(rows, start=1):
            values = dict(row.values) if row else {}
            context = {**values, "row": values, "index": i, "component": cid, "design": design.meta,
                       "width": size.width, "height": size.height, "bleed": bleed, "safe": design.print.safe_zone}
            where = (row.file, row.line) if row else (doc.path, doc.line(loc + ("template",)))
            cache_key = key_of("template", hashes["templates"], src.template, _jsonable(context),
                               size.width, size.height, bleed)
            faces.append(FaceSpec(
                key=f"{i:0{width}d}" if row else "face", width=size.width, height=size.height, bleed=bleed,
                paint=_template_painter(design.folder, src.template, path, context, size.width, size.height, bleed,
                                        where, row is not None),
                count=row.count if row else comp.count, data=values, shape=comp.shape, cache_key=cache_key,
            ))
        return faces
    # a ready SVG file
    try:
        path, text = files.read_svg(src.svg, (doc.path, doc.line(loc + ("svg",))))
    except DesignError as exc:
        report.extend(exc)
        return []
    text = with_source_comment(text, design.folder, path)
    return [FaceSpec(key="face", width=size.width, height=size.height, bleed=bleed,
                     paint=lambda: text, count=comp.count, shape=comp.shape, cache_key=key_of("svg", text))]


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


def _jsonable(context: dict) -> dict:
    return {k: (v.model_dump(mode="json") if hasattr(v, "model_dump") else v) for k, v in context.items()}


@lru_cache(maxsize=16)
def _environment(design_folder: Path, extra: tuple[Path, ...]) -> jinja2.Environment:
    files = DesignFiles(design_folder, extra)
    return sandbox.environment(
        files, template_bases(design_folder), "template_bytes",
        autoescape=True,  # data text such as "Salt & Pepper" must not break the SVG
        keep_trailing_newline=True,
    )


_SVG_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)


def _template_painter(folder: Path, name: str, path: Path, context: dict[str, Any], w: float, h: float, bleed: float,
                      where: tuple[Path, int | None], is_row: bool):
    extra = DesignFiles(folder).extra

    def paint() -> str:
        env = _environment(Path(os.path.abspath(folder)), extra)  # a relative folder means another one elsewhere
        row = f" (filling row {_disp(where[0])}:{where[1]})" if is_row and where[1] else ""
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
        except (TypeError, ValueError, ArithmeticError, AttributeError, LookupError) as exc:
            file, line = _template_line(exc, path)
            raise DesignError([Problem(_disp(file), line, f"{type(exc).__name__}: {exc}{row}; expected an "
                                       "expression that works on the row's values (CSV cells are text: "
                                       "use |int or |float for numbers)")]) from None
        svg = wrap_fragment(fragment, w, h, bleed)
        try:
            root = etree.fromstring(svg.encode("utf-8"), _SVG_PARSER)
        except etree.XMLSyntaxError as exc:
            raise DesignError([Problem(_disp(where[0]), where[1], f"the SVG filled from {path.name} is not "
                                       f"well-formed ({exc.msg}); expected valid SVG markup")]) from None
        try:
            check_parsed(root, svg, _disp(path))
        except DesignError as exc:
            problem = exc.problems[0]
            raise DesignError([Problem(_disp(path), None, problem.message.replace("the SVG", f"the SVG it makes{row}",
                                                                                  1))]) from None
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
