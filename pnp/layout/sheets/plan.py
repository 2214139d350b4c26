"""The plan: every component of a design to its strategy, in component order, then numbered."""

from __future__ import annotations

from dataclasses import replace

from pnp.layout.sheets.boards import board_sheets
from pnp.layout.sheets.config import LayoutConfig, Paper, SheetOptions, load_config, paper
from pnp.layout.sheets.fold import fold_sheets
from pnp.layout.sheets.grid import grid_sheets
from pnp.layout.sheets.outline import shape_key
from pnp.layout.sheets.pieces import pack_sheets
from pnp.layout.sheets.sheet import Sheet, inset_sheet, shift_sheet
from pnp.layout.sheets.twosided import twosided_fold_sheets, twosided_sheets
from pnp.render.faces import ComponentFaces


def plan(components: list[ComponentFaces], opts: SheetOptions, face_path,
         cfg: LayoutConfig | None = None) -> list[Sheet]:
    """All sheets of a design, in component order; `face_path(cid, face)` names a face's SVG.

    Every strategy lays out its sheets on the printable area (the paper less `opts.margin` on each
    side, the footer on its bottom edge), which then moves onto the paper: nothing lands outside it.
    """
    cfg = cfg or load_config()
    m = opts.margin
    whole = paper(opts.paper, cfg)
    base = Paper(whole.name, whole.width - 2 * m, whole.height - 2 * m)
    # boards and piece strips keep cfg.margin from the paper's edges, of which the printable margin is part
    cfg = replace(cfg, margin=max(cfg.margin - m, 0.0)) if m else cfg
    sheets: list[Sheet] = []
    deferred_backs: list[Sheet] = []
    loose: list[ComponentFaces] = []

    def flush_loose() -> None:
        if loose:
            sheets.extend(pack_sheets(loose, face_path, base, opts, cfg))
            loose.clear()

    for cf in components:
        if not cf.fronts or cf.copies == 0:
            continue
        kind = cf.component.kind
        name = cf.component.display_name(opts.lang) or cf.component_id
        if kind == "board":
            flush_loose()
            for face in cf.fronts:
                for _ in range(face.count):
                    sheets += board_sheets(face, face_path(cf.component_id, face), name, base, opts, cfg)
        elif cf.back is None and (kind in ("piece", "token", "tile") or _shaped(cf)):
            loose.append(cf)
        elif _shaped(cf):  # double-sided shaped pieces: packed in rows, backs mirrored
            flush_loose()
            if opts.duplex == "fold":
                sheets += twosided_fold_sheets(cf, face_path, name, base, opts, cfg)
                continue
            fronts, backs = twosided_sheets(cf, face_path, name, base, opts, cfg)
            if opts.duplex == "none":
                sheets += fronts
                deferred_backs += backs
            else:
                for front, back in zip(fronts, backs):
                    sheets += [front, back]
        else:
            flush_loose()
            g = (2 * cf.fronts[0].bleed if opts.keep_bleed else opts.gutter) if kind in ("card", "aid") else 0.0
            if opts.duplex == "fold" and cf.back is not None:
                sheets += fold_sheets(cf, face_path, name, base, g, opts, cfg)
                continue
            fronts, backs = grid_sheets(cf, face_path, name, base, g, opts, cfg)
            if opts.duplex == "none":
                sheets += fronts
                deferred_backs += backs
            else:
                for i, front in enumerate(fronts):
                    sheets.append(front)
                    if backs:
                        sheets.append(backs[i])
    flush_loose()
    sheets += deferred_backs
    dx, dy = opts.back_offset
    for s in sheets:
        inset_sheet(s, m)
        if s.side == "back" and (dx or dy):
            shift_sheet(s, dx, dy)
        s.proof, s.safe_zone, s.lang = opts.proof, opts.safe_zone, opts.lang
    for i, s in enumerate(sheets, start=1):
        s.number, s.total = i, len(sheets)
    return sheets


def plan_advice(sheets: list[Sheet]) -> list[str]:
    """What the build summary says of the layout (a layout chosen for the printable area, the bleed clipped)."""
    said: dict[str, list[str]] = {}  # the same advice for several components is said once, naming them all
    for s in sheets:
        for name, text in s.advice:
            said.setdefault(text, []).append(name)
    return [f"{', '.join(names)}: {text}" for text, names in said.items()]


def _shaped(cf: ComponentFaces) -> bool:
    """Cut along a shape other than the rectangle (circle, hexagon, triangle, an outline)."""
    return any(shape_key(f.shape) != "rect" for f in cf.fronts)


def sheets_needed(components: list[ComponentFaces], opts: SheetOptions, face_path,
                  papers: tuple[str, ...] = ("a4", "letter"), planned: list[Sheet] | None = None) -> dict[str, int]:
    """How many sheets the design takes on each paper (for the build summary); `planned`: the plan for
    opts.paper, already made."""
    return {name: len(planned) if planned is not None and name == opts.paper else
            len(plan(components, replace(opts, paper=name, counting=True), face_path)) for name in papers}
