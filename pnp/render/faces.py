"""Components -> distinct faces (FaceSpec), from generators, data tables + templates, or SVG files."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment
from lxml import etree

from pnp import registry
from pnp.errors import DesignError, ErrorReport, Problem
from pnp.loader import find_template, templates_dir
from pnp.model import Component, Design, FaceSource
from pnp.cache import key_of
from pnp.registry import FaceSpec, GeneratorContext
from pnp.render.svg import wrap_fragment
from pnp.tables import load_rows


@dataclass
class ComponentFaces:
    component_id: str
    component: Component
    fronts: list[FaceSpec]
    back: FaceSpec | None

    @property
    def copies(self) -> int:
        return sum(f.count for f in self.fronts)


def design_faces(design: Design, report: ErrorReport | None = None) -> list[ComponentFaces]:
    """Every component's faces. Problems go to `report` when given (the caller raises them
    later with its own), else they are raised here, all together."""
    own = report is None
    report = ErrorReport() if report is None else report
    result = []
    for cid, comp in design.components.items():
        loc = ("components", cid)
        fronts = _faces(design, cid, comp, comp, loc, report)
        back = None
        if comp.back is not None:
            backs = _faces(design, cid, comp, comp.back, loc + ("back",), report)
            if len(backs) != 1 and not report:
                report.add(design.source.path, design.source.line(loc + ("back",)),
                           f"the back makes {len(backs)} faces; expected exactly one shared back")
            back = backs[0] if backs else None
            if back is not None:
                back.key = "back"
        result.append(ComponentFaces(cid, comp, fronts, back))
    if own:
        report.raise_if_any()
    return result


def _faces(design: Design, cid: str, comp: Component, src: FaceSource, loc: tuple,
           report: ErrorReport) -> list[FaceSpec]:
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
        keys = [f.key for f in faces]
        if len(set(keys)) != len(keys):
            raise RuntimeError(f"generator {src.generate} made duplicate face keys")  # a bug, not bad input
        return faces
    size = comp.size
    if src.template:
        path = find_template(src.template, design.folder)
        if comp.data is not None and src is comp:
            rows = load_rows(comp.data, design.folder, doc, ("components", cid, "data"), comp.count, report)
        else:
            rows = [None]
        faces = []
        width = len(str(len(rows)))
        for i, row in enumerate(rows, start=1):
            values = dict(row.values) if row else {}
            context = {**values, "row": values, "index": i, "component": cid, "design": design.meta,
                       "width": size.width, "height": size.height, "bleed": bleed, "safe": design.print.safe_zone}
            where = (row.file, row.line) if row else (doc.path, doc.line(loc + ("template",)))
            cache_key = key_of("template", templates_hash(design.folder), path.name, _jsonable(context),
                               size.width, size.height, bleed)
            faces.append(FaceSpec(
                key=f"{i:0{width}d}" if row else "face", width=size.width, height=size.height, bleed=bleed,
                paint=_template_painter(design.folder, path, context, size.width, size.height, bleed, where),
                count=row.count if row else comp.count, data=values, shape=comp.shape, cache_key=cache_key,
            ))
        return faces
    # a static SVG file
    path = design.folder / src.svg
    text = path.read_text(encoding="utf-8")
    return [FaceSpec(key="face", width=size.width, height=size.height, bleed=bleed,
                     paint=lambda: text, count=comp.count, shape=comp.shape, cache_key=key_of("svg", text))]


def templates_hash(design_folder: Path) -> str:
    """One hash of every template a design's faces can reach (includes and macros too)."""
    parts = []
    for base in (design_folder, design_folder / "templates", templates_dir()):
        if base.is_dir():
            for f in sorted(base.glob("*.j2")) + sorted((base / "templates").glob("**/*.j2") if base == design_folder
                                                        else base.glob("**/*.j2")):
                parts.append((str(f.relative_to(base)), f.read_bytes()))
    return key_of(*[p for pair in parts for p in pair])


def _jsonable(context: dict) -> dict:
    return {k: (v.model_dump(mode="json") if hasattr(v, "model_dump") else v) for k, v in context.items()}


@lru_cache(maxsize=16)
def _environment(design_folder: Path) -> SandboxedEnvironment:
    return SandboxedEnvironment(
        loader=jinja2.FileSystemLoader([str(design_folder), str(design_folder / "templates"), str(templates_dir())]),
        undefined=jinja2.StrictUndefined,
        autoescape=True,  # data text such as "Salt & Pepper" must not break the SVG
        keep_trailing_newline=True,
    )


def _template_painter(folder: Path, path: Path, context: dict[str, Any], w: float, h: float, bleed: float,
                      where: tuple[Path, int | None]):
    def paint() -> str:
        env = _environment(folder)
        name = str(path.relative_to(_search_root(folder, path)))
        try:
            template = env.get_template(name)
            fragment = template.render(**context)
        except jinja2.TemplateSyntaxError as exc:
            raise DesignError([Problem(_disp(path), exc.lineno, f"template syntax error: {exc.message}; "
                                       "expected valid Jinja2")]) from None
        except jinja2.TemplateError as exc:
            line = _template_line(exc, path)
            row = f" (filling row {_disp(where[0])}:{where[1]})" if where[1] else ""
            raise DesignError([Problem(_disp(path), line, f"{exc.message or exc}{row}; expected every name "
                                       f"used to be a column of the data table or one of: index, width, height, "
                                       f"bleed, safe, component, design")]) from None
        svg = wrap_fragment(fragment, w, h, bleed)
        try:
            etree.fromstring(svg.encode("utf-8"))
        except etree.XMLSyntaxError as exc:
            raise DesignError([Problem(_disp(where[0]), where[1], f"the SVG filled from {path.name} is not "
                                       f"well-formed ({exc.msg}); expected valid SVG markup")]) from None
        return svg

    return paint


def _search_root(folder: Path, path: Path) -> Path:
    for base in (folder, folder / "templates", templates_dir()):
        try:
            path.relative_to(base)
            return base
        except ValueError:
            continue
    return path.parent


def _template_line(exc: BaseException, path: Path) -> int | None:
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if Path(tb.tb_frame.f_code.co_filename).resolve() == path.resolve():
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _disp(path: Path) -> str:
    from pnp.errors import display_path

    return display_path(path)


_SLUG = re.compile(r"[^a-z0-9-]+")


def slug(text: str) -> str:
    return _SLUG.sub("-", str(text).lower()).strip("-") or "x"
