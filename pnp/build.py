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
    sheets_per_paper: dict[str, int] = field(default_factory=dict)
    extra_files: dict[str, bytes | str] = field(default_factory=dict)  # more outputs, by path under the design's folder


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


def render_design(design: Design, paper: str | None = None, print_shop: bool = False) -> BuiltDesign:
    """Faces, SVG texts, sheets and PDF of one design, in memory."""
    from pnp.layout.pdf import render_pdf
    from pnp.layout.sheets import SheetOptions, plan, print_shop_sheets, sheets_needed

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
    opts = SheetOptions.from_print(design.print, paper)
    paper = opts.paper
    sheets = plan(components, opts, face_path)
    meta = design.meta
    pdf = render_pdf(sheets, svgs, title=meta.title, author=meta.author,
                     subject=f"{meta.title} print-and-play sheets ({paper.upper()})")
    name = f"{design.slug}-{paper}{'-proof' if opts.proof else ''}.pdf"
    built = BuiltDesign(design, components, svgs, name, pdf, len(sheets))
    built.sheets_per_paper = sheets_needed(components, opts, face_path)
    if print_shop:
        shop = print_shop_sheets(components, face_path)
        built.extra_files[f"{design.slug}-print-shop.pdf"] = render_pdf(
            shop, svgs, title=meta.title, author=meta.author, subject=f"{meta.title}: one face per page")
    built.manifest = manifest(built, paper)
    from pnp.rulebook import render_rulebooks  # rules.<lang>.md -> <slug>-rules-<lang>.pdf
    built.extra_files.update(render_rulebooks(design, components, svgs, paper))
    return built


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
    return BuildResult(built.design.slug, target, files, built.sheets, faces, copies, built.manifest["paper"],
                       built.sheets_per_paper)


def build_designs(args: tuple[str, ...] | list[str], out: Path = Path("output"), paper: str | None = None,
                  overrides: dict | None = None, print_shop: bool = False) -> list[BuildResult]:
    """Build every selected design; nothing is written unless all of them render.

    `overrides` are print settings from the command line (orientation, duplex, back_offset,
    marks, proof) that replace the designs' own.
    """
    designs = select_designs(args)
    apply_overrides(designs, overrides or {})
    report = ErrorReport()
    built = []
    for design in designs:
        try:
            built.append(render_design(design, paper, print_shop))
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
