"""Gutter-fold: fronts on one half of the sheet, backs mirrored on the other; fold, glue, cut."""

from __future__ import annotations

import math
from dataclasses import replace

from pnp.errors import PnpError
from pnp.layout.sheets.block import (
    Mirror,
    check_uniform,
    choose_grid,
    copies,
    place_block,
)
from pnp.layout.sheets.config import LayoutConfig, Paper, SheetOptions, papers
from pnp.layout.sheets.marks import add_marks, crosses_any
from pnp.layout.sheets.sheet import Sheet
from pnp.render.faces import ComponentFaces
from pnp.words import say


def fold_sheets(cf: ComponentFaces, face_path, name: str, base: Paper, gutter: float, opts: SheetOptions,
                cfg: LayoutConfig) -> list[Sheet]:
    """Fronts and backs on the same sheet, either side of a drawn fold line.

    The fold line runs down the middle of the printable area (vertical or horizontal,
    whichever holds more faces); each back is the mirror image of its front's position
    across it, so the pair lines up whatever the printer.
    """
    check_uniform(cf)
    w, h, b = cf.fronts[0].width, cf.fronts[0].height, cf.fronts[0].bleed
    margin_fold = b + cfg.mark_gap + cfg.mark_min  # room between the faces and the fold
    best = None
    for p in papers(base, opts.orientation):
        usable_h = p.height - cfg.footer
        for axis in ("vertical", "horizontal"):
            half = (p.width / 2 - margin_fold, usable_h) if axis == "vertical" else (p.width, usable_h / 2 - margin_fold)
            try:
                grid = choose_grid(cf, p, gutter, replace(opts, orientation="portrait" if p.width <= p.height
                                                          else "landscape"), cfg, avail=half)
            except PnpError:
                continue
            n = grid.per_sheet
            if best is None or n > best[0]:
                best = (n, p, axis, grid)
    if best is None:
        raise cf.error(f"a {w:g} x {h:g} mm face does not fit half a "
                       f"{base.name.upper()} sheet for gutter-fold; expected duplex long, short or none")
    per, p, axis, grid = best
    usable_h = p.height - cfg.footer
    if axis == "vertical":
        fold_at = p.width / 2
        x0 = fold_at - margin_fold - grid.block_w  # fronts on the left half, next to the fold
        y0 = cfg.footer + (usable_h - grid.block_h) / 2
        fold_line = ((fold_at, cfg.footer), (fold_at, p.height))
        mirror = Mirror("x", 2 * fold_at)
    else:
        fold_at = cfg.footer + usable_h / 2
        x0 = (p.width - grid.block_w) / 2
        y0 = fold_at + margin_fold  # fronts on the top half
        fold_line = ((0.0, fold_at), (p.width, fold_at))
        mirror = Mirror("y", 2 * fold_at)
    grid = replace(grid, x0=x0, y0=y0)
    all_copies = copies(cf)
    sheets = []
    for s in range(math.ceil(len(all_copies) / per)):
        chunk = all_copies[s * per:(s + 1) * per]
        sheet = Sheet(p.width, p.height, say("sheets.fold", opts.lang, name=name, first=s * per + 1,
                                             last=s * per + len(chunk)), "fold", section=name)
        for front, back in place_block(grid, chunk, cf.component_id, face_path, cf.back_of, mirror):
            sheet.placed += [front] if back is None else [front, back]
        add_marks(sheet, grid.marks, p, cfg)
        if grid.marks == "crop":  # marks may not cross the fold into the other half's art
            sheet.marks = [m for m in sheet.marks if not crosses_any(m, sheet.placed)]
        sheet.folds.append(fold_line)
        sheets.append(sheet)
    if grid.advice and sheets:
        sheets[0].advice.append((cf.component_id, grid.advice))  # (the summary names it as design.yaml does)
    return sheets
