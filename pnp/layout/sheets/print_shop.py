"""Print-shop output: one face side per page at trim + bleed."""

from __future__ import annotations

from pnp.layout.sheets.sheet import Placed, Sheet
from pnp.render.faces import ComponentFaces


def print_shop_sheets(components: list[ComponentFaces], face_path) -> list[Sheet]:
    """One face side per page at trim + bleed, TrimBox and BleedBox set, each back right after its front.

    Every copy gets its pages (a deck of 41 cards with one back is 82 pages), the way
    print-on-demand shops take a deck.
    """
    sheets = []
    for cf in components:
        sides = [(f, cf.back_of(f)) for f in cf.fronts for _ in range(f.count)]
        for i, (front, back) in enumerate(sides, start=1):
            for side, face in (("front", front), ("back", back)):
                if face is None:
                    continue
                b = face.bleed
                pw, ph = face.width + 2 * b, face.height + 2 * b
                name = cf.component.display_name("en") or cf.component_id
                sheet = Sheet(pw, ph, f"{name} {i} {side}", "print-shop", furniture=False,
                              trim_box=(b, b, b + face.width, b + face.height), bleed_box=(0.0, 0.0, pw, ph))
                sheet.placed.append(Placed(face_path(cf.component_id, face), b, b, face.width, face.height, b,
                                           label=face.label, component=cf.component_id))
                sheets.append(sheet)
    for i, s in enumerate(sheets, start=1):
        s.number, s.total = i, len(sheets)
    return sheets

