"""Where every face goes on the paper: pure data, no drawing.

Coordinates are mm with the origin at the sheet's bottom-left corner (as in PDF).
A component's layout follows from its kind and shape, one module per strategy:

- `grid`: cards (and anything with a back) in a grid with crop marks or cut lines, backs
  on their own sheets by duplex mode (long- or short-edge flip, or separate sheets);
- `fold`: gutter-fold, fronts and mirrored backs on the same sheet either side of a fold;
  both use the block placer of `block` (how many fit, where each face and its back go);
- `boards`: at true size on their own page, or split into overlapping parts plus an overview;
- `pieces`: loose rectangular pieces, tokens and tiles shelf-packed together with full
  cut lines, triangles and hexagons tessellated so that neighbours share their cut lines;
  circles and other outlines (`outline`: polygon or SVG path) in nested rows, each cut
  along its shape with its bleed clipped short of its neighbours' cut lines;
- `twosided`: double-sided shaped pieces, backs mirrored in every duplex mode;
- `print_shop`: the other output, one face side per page at trim + bleed.

`plan` (in `plan`) sends each component to its strategy, each laying out on the printable
area (the paper less `print.margin` on every side), then moved onto the paper; `config` reads the conventions
(templates/sheets/layout.yaml) and holds the print options; `sheet` is the output data;
`marks` draws crop marks and cut lines.
"""

from pnp.layout.sheets.block import Grid, Mirror, choose_grid, place_block
from pnp.layout.sheets.boards import board_parts, board_sheets, tiled_board
from pnp.layout.sheets.config import (
    LayoutConfig,
    Paper,
    SheetOptions,
    load_config,
    paper,
    papers,
)
from pnp.layout.sheets.fold import fold_sheets
from pnp.layout.sheets.grid import grid_sheets
from pnp.layout.sheets.marks import crop_marks, merge_collinear
from pnp.layout.sheets.pieces import hexagon_corners, pack_sheets
from pnp.layout.sheets.plan import plan, plan_advice, sheets_needed
from pnp.layout.sheets.print_shop import print_shop_sheets
from pnp.layout.sheets.sheet import Box, Placed, Point, Segment, Sheet

__all__ = [
    "Box", "Grid", "LayoutConfig", "Mirror", "Paper", "Placed", "Point", "Segment", "Sheet", "SheetOptions",
    "board_parts", "board_sheets", "choose_grid", "crop_marks", "fold_sheets", "grid_sheets", "hexagon_corners",
    "load_config", "merge_collinear", "pack_sheets", "paper", "papers", "place_block", "plan", "plan_advice", "print_shop_sheets",
    "sheets_needed", "tiled_board",
]
