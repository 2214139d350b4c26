"""Cards (and anything with a back): a grid per sheet, backs on their own sheets for duplex printing."""

from __future__ import annotations

import math

from pnp.layout.sheets.block import (
    check_uniform,
    choose_grid,
    copies,
    duplex_mirror,
    place_block,
)
from pnp.layout.sheets.config import LayoutConfig, Paper, SheetOptions
from pnp.layout.sheets.marks import add_marks
from pnp.layout.sheets.sheet import Sheet
from pnp.render.faces import ComponentFaces
from pnp.words import say, word


def grid_sheets(cf: ComponentFaces, face_path, name: str, base: Paper, gutter: float, opts: SheetOptions,
                cfg: LayoutConfig) -> tuple[list[Sheet], list[Sheet]]:
    """Front sheets, and back sheets (empty without a back) with each back behind its front after the flip."""
    check_uniform(cf)
    # A short-edge flip mirrors the rows about the sheet's middle: keep the block centred on the
    # whole sheet, with the footer's height kept free at the top too.
    short = opts.duplex == "short" and cf.back is not None
    grid = choose_grid(cf, base, gutter, opts, cfg, reserve_top=short)
    p, per = grid.paper, grid.per_sheet
    mirror = duplex_mirror(p, opts.duplex)
    all_copies = copies(cf)
    fronts, backs = [], []
    marked: dict[tuple, tuple[list, list]] = {}  # the boxes of a sheet's faces -> its marks and cuts
    for s in range(math.ceil(len(all_copies) / per)):
        chunk = all_copies[s * per:(s + 1) * per]
        first, last = s * per + 1, s * per + len(chunk)
        front = Sheet(p.width, p.height, faces_title("fronts", opts.lang, name, first, last), "front", section=name)
        back = Sheet(p.width, p.height, faces_title("backs", opts.lang, name, first, last,
                                                    duplex=duplex_words(opts.duplex, opts.lang)), "back", section=name)
        fronts.append(front)
        if cf.back is not None:
            backs.append(back)
        if opts.counting:  # (sheets_needed: the number of sheets is all it asks for)
            continue
        for f, b in place_block(grid, chunk, cf.component_id, face_path, cf.back_of, mirror):
            front.placed.append(f)
            if b is not None:
                back.placed.append(b)
        for sheet in ([front, back] if cf.back is not None else [front]):
            # the marks depend only on where the faces are: most sheets of a block repeat the first one's
            key = tuple((pl.x, pl.y, pl.w, pl.h, pl.bleed) for pl in sheet.placed)
            if key not in marked:
                add_marks(sheet, grid.marks, p, cfg)
                marked[key] = (sheet.marks, sheet.cuts)
            sheet.marks, sheet.cuts = list(marked[key][0]), list(marked[key][1])
    if grid.advice and fronts:
        fronts[0].advice.append((cf.component_id, grid.advice))  # (the summary names it as design.yaml does)
    return fronts, backs


def faces_title(side: str, lang: str, name: str, first: int, last: int, **values) -> str:
    """A sheet's title in `lang`: "Cartes : recto 1-9", or a single face's "Aide de jeu : recto 1" (pnp.words:
    sheets.fronts, and sheets.fronts_one which `say` takes for a range of one; `side` "fronts" or "backs")."""
    return say(f"sheets.{side}", lang, name=name, first=first, last=last, **values)


def duplex_words(duplex: str, lang: str = "en") -> str:
    """How a back sheet is printed, in `lang` (pnp.words: sheets.duplex)."""
    return word("sheets.duplex", lang).get(duplex, duplex)
