"""The planner's output: sheets holding placed faces, marks, cut and fold lines (mm, origin bottom-left)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

Point = tuple[float, float]
Segment = tuple[Point, Point]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass
class Placed:
    """One copy of a face on a sheet. (x, y) is the trim's bottom-left corner before rotation."""

    face: str  # key of the face's SVG (its path under svg/)
    x: float
    y: float
    w: float
    h: float
    bleed: float
    rotate: int = 0  # 0 or 180 degrees about the trim centre; 90 or 270: the face turned a quarter (counter-
    # clockwise, or clockwise) lying in the w x h box (w and h are the box's: the face's own size swapped)
    clip: Box | None = None  # what of the art shows (page coordinates)
    clip_poly: list[Point] | None = None  # or a polygon (hexagons, triangles)
    label: str = ""
    component: str = ""
    scale: float = 1.0  # 1 = true size (the overview of a split board is drawn smaller)
    clip_path: tuple | None = None  # or a path of lines and curves (shaped pieces: the outline grown by the bleed)
    outline: tuple | None = None  # the cut outline of a shaped piece, as a path (page coordinates)

    @property
    def trim(self) -> Box:
        return (self.x, self.y, self.x + self.w, self.y + self.h)

    @property
    def art(self) -> Box:
        """The box the visible art may cover: the clip, else trim + bleed."""
        if self.clip:
            return self.clip
        if self.clip_poly:
            xs, ys = [p[0] for p in self.clip_poly], [p[1] for p in self.clip_poly]
            return (min(xs), min(ys), max(xs), max(ys))
        if self.clip_path:
            xs = [v for op in self.clip_path for v in op[1::2]]
            ys = [v for op in self.clip_path for v in op[2::2]]
            return (min(xs), min(ys), max(xs), max(ys))
        b = self.bleed
        return (self.x - b, self.y - b, self.x + self.w + b, self.y + self.h + b)

    def shifted(self, dx: float, dy: float) -> "Placed":
        return replace(self, x=self.x + dx, y=self.y + dy,
                       clip=shift_box(self.clip, dx, dy) if self.clip else None,
                       clip_poly=[(x + dx, y + dy) for x, y in self.clip_poly] if self.clip_poly else None,
                       clip_path=shift_path(self.clip_path, dx, dy) if self.clip_path else None,
                       outline=shift_path(self.outline, dx, dy) if self.outline else None)


@dataclass
class Sheet:
    width: float
    height: float
    title: str
    side: str  # front | back | fold | board | overview | pieces | print-shop
    placed: list[Placed] = field(default_factory=list)
    marks: list[Segment] = field(default_factory=list)  # crop marks, outside every face's art
    cuts: list[Segment] = field(default_factory=list)  # full cut lines
    cut_paths: list[tuple] = field(default_factory=list)  # curved cut lines (paths: circles, outlines)
    folds: list[Segment] = field(default_factory=list)  # fold lines (gutter-fold)
    notes: list[tuple[float, float, str]] = field(default_factory=list)  # small labels
    outlines: list[list[Point]] = field(default_factory=list)  # thin drawn shapes (board overview grid)
    number: int = 0
    total: int = 0
    furniture: bool = True  # footer and ruler; off for print-shop pages
    trim_box: Box | None = None
    bleed_box: Box | None = None
    proof: bool = False
    safe_zone: float = 3.0
    margin: float = 0.0  # the printable area's margin (the footer sits on its bottom edge)
    advice: list[tuple[str, str]] = field(default_factory=list)  # (component id, what the build summary says of its layout)
    lang: str = "en"  # the language of its words (pnp.words: title, footer, notes), typeset in it when drawn
    section: str = ""  # the component it holds (its name in `lang`; a pieces sheet's: its first), for the kit's contents


def shift_box(box: Box, dx: float, dy: float) -> Box:
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def shift_path(ops: tuple, dx: float, dy: float) -> tuple:
    """A path (("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",)...) moved by (dx, dy)."""
    out = []
    for op in ops:
        if len(op) == 3:
            out.append((op[0], op[1] + dx, op[2] + dy))
        elif len(op) == 7:
            out.append((op[0], op[1] + dx, op[2] + dy, op[3] + dx, op[4] + dy, op[5] + dx, op[6] + dy))  # type: ignore[arg-type]
        else:
            out.append(op)
    return tuple(out)


def inset_sheet(sheet: Sheet, m: float) -> None:
    """A sheet planned on the printable area (the paper less `m` on every side) moved onto the whole paper."""
    if not m:
        return
    move = lambda seg: ((seg[0][0] + m, seg[0][1] + m), (seg[1][0] + m, seg[1][1] + m))  # noqa: E731
    sheet.width, sheet.height, sheet.margin = sheet.width + 2 * m, sheet.height + 2 * m, m
    sheet.placed = [p.shifted(m, m) for p in sheet.placed]
    sheet.marks = [move(s) for s in sheet.marks]
    sheet.cuts = [move(s) for s in sheet.cuts]
    sheet.folds = [move(s) for s in sheet.folds]
    sheet.cut_paths = [shift_path(ops, m, m) for ops in sheet.cut_paths]
    sheet.notes = [(x + m, y + m, text) for x, y, text in sheet.notes]
    sheet.outlines = [[(x + m, y + m) for x, y in poly] for poly in sheet.outlines]
    sheet.trim_box = shift_box(sheet.trim_box, m, m) if sheet.trim_box else None
    sheet.bleed_box = shift_box(sheet.bleed_box, m, m) if sheet.bleed_box else None


def shift_sheet(sheet: Sheet, dx: float, dy: float) -> None:
    """Move everything printed on a back page (not the footer) by the printer's drift correction."""
    sheet.placed = [p.shifted(dx, dy) for p in sheet.placed]
    move = lambda seg: ((seg[0][0] + dx, seg[0][1] + dy), (seg[1][0] + dx, seg[1][1] + dy))  # noqa: E731
    sheet.marks = [move(s) for s in sheet.marks]
    sheet.cuts = [move(s) for s in sheet.cuts]
    sheet.cut_paths = [shift_path(ops, dx, dy) for ops in sheet.cut_paths]
