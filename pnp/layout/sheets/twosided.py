"""Double-sided shaped pieces (round tokens, hexagonal tiles, any outline with a back).

The fronts are packed in rows as loose pieces are (`pieces.pack_rows`), one component at a
time; each back is the mirror image of its front's place, across the sheet's middle for
duplex printing (and moved by `--back-offset`) or across the fold for gutter-fold, with its
clip, its outline and the cut lines mirrored too, so the two cut lines are one.

The back is always the piece turned over left to right: where a flip mirrors top and
bottom (short-edge duplex, a horizontal fold), the back is also turned 180 degrees. So a
back template draws the outline mirrored left to right, whatever the print mode.
"""

from __future__ import annotations

from pnp.layout.sheets.block import Mirror, duplex_mirror
from pnp.layout.sheets.config import LayoutConfig, Paper, SheetOptions, papers
from pnp.layout.sheets.grid import duplex_words, faces_title
from pnp.layout.sheets.pieces import pack_rows, page_region
from pnp.layout.sheets.sheet import Placed, Sheet
from pnp.render.faces import ComponentFaces
from pnp.words import say


def twosided_sheets(cf: ComponentFaces, face_path, name: str, base: Paper, opts: SheetOptions,
                    cfg: LayoutConfig) -> tuple[list[Sheet], list[Sheet]]:
    """Front sheets and their back sheets (duplex long, short, or none: backs to glue)."""
    best = None
    for p in papers(base, opts.orientation):
        left, bottom, right, top = page_region(p, cfg)
        if opts.duplex == "short":  # rows mirror about the middle: keep the footer's band free at the top
            top = p.height - bottom
        fronts = pack_rows([cf], face_path, p, opts, cfg, (left, bottom, right, top))
        if fronts is not None and (best is None or len(fronts) < len(best[1])):
            best = (p, fronts)
    if best is None:
        raise cf.error(f"its faces do not fit on {base.name.upper()}; "
                       "expected a smaller size or a larger paper")
    p, fronts = best
    mirror = duplex_mirror(p, opts.duplex)
    back_path = _back_paths(cf, face_path)
    backs, done = [], 0
    for front in fronts:
        first, last = done + 1, done + len(front.placed)
        done = last
        front.side, front.section = "front", name
        front.title = faces_title("fronts", opts.lang, name, first, last)
        back = Sheet(p.width, p.height, faces_title("backs", opts.lang, name, first, last,
                                                    duplex=duplex_words(opts.duplex, opts.lang)), "back", section=name)
        back.placed = [back_of(pl, back_path[pl.face], cf.back.bleed, mirror) for pl in front.placed]  # type: ignore[union-attr]
        back.cuts = [(mirror.point(*a), mirror.point(*b)) for a, b in front.cuts]
        back.cut_paths = [mirror.path(ops) for ops in front.cut_paths]
        backs.append(back)
    return fronts, backs


def twosided_fold_sheets(cf: ComponentFaces, face_path, name: str, base: Paper, opts: SheetOptions,
                         cfg: LayoutConfig) -> list[Sheet]:
    """Gutter-fold: fronts on one half, backs mirrored across the drawn fold line on the other."""
    room = cfg.mark_gap + cfg.mark_min  # between the fold and the nearest art
    best = None
    for p in papers(base, opts.orientation):
        left, bottom, right, top = page_region(p, cfg)
        for axis in ("vertical", "horizontal"):
            if axis == "vertical":
                fold_at = p.width / 2
                region = (left, bottom, fold_at - room, top)
                mirror, line = Mirror("x", 2 * fold_at), ((fold_at, cfg.footer), (fold_at, p.height))
            else:
                fold_at = cfg.footer + (p.height - cfg.footer) / 2
                region = (left, fold_at + room, right, top)
                mirror, line = Mirror("y", 2 * fold_at), ((0.0, fold_at), (p.width, fold_at))
            fronts = pack_rows([cf], face_path, p, opts, cfg, region)
            if fronts is not None and (best is None or len(fronts) < len(best[0])):
                best = (fronts, mirror, line)
    if best is None:
        raise cf.error(f"its faces do not fit half a {base.name.upper()} sheet "
                       "for gutter-fold; expected duplex long, short or none")
    fronts, mirror, line = best
    back_path = _back_paths(cf, face_path)
    done = 0
    for sheet in fronts:
        n = len(sheet.placed)
        sheet.side, sheet.section = "fold", name
        sheet.title = say("sheets.fold", opts.lang, name=name, first=done + 1, last=done + n)
        done += n
        sheet.placed = [q for pl in sheet.placed
                        for q in (pl, back_of(pl, back_path[pl.face], cf.back.bleed, mirror))]  # type: ignore[union-attr]
        sheet.cuts += [(mirror.point(*a), mirror.point(*b)) for a, b in sheet.cuts]
        sheet.cut_paths += [mirror.path(ops) for ops in sheet.cut_paths]
        sheet.folds.append(line)
    return fronts


def _back_paths(cf: ComponentFaces, face_path) -> dict[str, str]:
    """The back's SVG of each front's SVG (backs may differ by row)."""
    return {face_path(cf.component_id, f): face_path(cf.component_id, cf.back_of(f)) for f in cf.fronts}


def back_of(pl: Placed, face: str, bleed: float, mirror: Mirror) -> Placed:
    """The back of a placed piece: at the mirror image of its place, its clip and outline mirrored,
    turned 180 degrees more where the mirror runs across (so it is always turned over left to right)."""
    x, y = mirror.origin(pl.x, pl.y, pl.w, pl.h)
    return Placed(face, x, y, pl.w, pl.h, bleed, rotate=(pl.rotate + (180 if mirror.axis == "y" else 0)) % 360,
                  clip=mirror.box(pl.clip) if pl.clip else None,
                  clip_poly=[mirror.point(*q) for q in pl.clip_poly] if pl.clip_poly else None,
                  clip_path=mirror.path(pl.clip_path) if pl.clip_path else None,
                  outline=mirror.path(pl.outline) if pl.outline else None, label="back", component=pl.component)
