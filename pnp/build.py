"""The build, as one readable pipeline (after mkdocs' build command):

    designs -> load + validate (all problems at once) -> faces -> SVG text
            -> sheet plan -> PDF bytes -> manifest -> write (atomically)

Nothing is written until every design has loaded and every face has rendered, so bad
input never leaves a partial output.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from pnp.errors import DesignError, ErrorReport
from pnp.loader import find_designs, load_designs, resolve_design
from pnp.model import Design
from pnp.output import replace_dir, write_atomic
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
    extra_files: dict[str, bytes | str] = field(default_factory=dict)  # more outputs, by path under the design's folder


@dataclass
class BuildResult:
    slug: str
    out_dir: Path
    files: list[Path]
    sheets: int
    faces: int
    copies: int

    def summary(self) -> str:
        return (f"{self.slug}: {self.faces} faces, {self.copies} components on {self.sheets} sheets "
                f"-> {self.out_dir}")


def face_path(component_id: str, face: FaceSpec) -> str:
    return f"svg/{component_id}-{face.key}.svg"


def select_designs(args: tuple[str, ...] | list[str]) -> list[Design]:
    folders = [resolve_design(a) for a in args] if args else find_designs()
    if not folders:
        report = ErrorReport()
        report.add("designs", None, "no design found; expected folders with a design.yaml under ./designs")
        report.raise_if_any()
    return load_designs(folders)


def render_design(design: Design, paper: str | None = None) -> BuiltDesign:
    """Faces, SVG texts, sheets and PDF of one design, in memory."""
    from pnp.layout.pdf import render_pdf
    from pnp.layout.sheets import plan

    report = ErrorReport()
    components = design_faces(design, report)
    svgs: dict[str, str] = {}
    for cf in components:
        for face in cf.fronts + ([cf.back] if cf.back else []):
            try:
                svgs[face_path(cf.component_id, face)] = face.paint()
            except DesignError as exc:
                report.extend(exc)
    report.raise_if_any()
    paper = paper or design.print.paper
    pr = design.print
    sheets = plan(components, paper, pr.duplex, pr.effective_gutter, face_path)
    meta = design.meta
    pdf = render_pdf(sheets, svgs, title=meta.title, author=meta.author,
                     subject=f"{meta.title} print-and-play sheets ({paper.upper()})")
    built = BuiltDesign(design, components, svgs, f"{design.slug}-{paper}.pdf", pdf, len(sheets))
    built.manifest = manifest(built, paper)
    return built


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
    target = out / built.design.slug
    replace_dir(target / "svg", {name.removeprefix("svg/"): text for name, text in built.svgs.items()})
    write_atomic(target / built.pdf_name, built.pdf)
    write_atomic(target / "manifest.json", json.dumps(built.manifest, indent=2, ensure_ascii=False) + "\n")
    for name, data in built.extra_files.items():
        write_atomic(target / name, data)
    files = ([target / built.pdf_name, target / "manifest.json"] + [target / n for n in built.extra_files]
             + [target / n for n in built.svgs])
    faces = sum(len(cf.fronts) + (1 if cf.back else 0) for cf in built.components)
    copies = sum(cf.copies for cf in built.components)
    return BuildResult(built.design.slug, target, files, built.sheets, faces, copies)


def build_designs(args: tuple[str, ...] | list[str], out: Path = Path("output"),
                  paper: str | None = None) -> list[BuildResult]:
    """Build every selected design; nothing is written unless all of them render."""
    designs = select_designs(args)
    report = ErrorReport()
    built = []
    for design in designs:
        try:
            built.append(render_design(design, paper))
        except DesignError as exc:
            report.extend(exc)
    report.raise_if_any()
    return [write_design(b, Path(out)) for b in built]


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
