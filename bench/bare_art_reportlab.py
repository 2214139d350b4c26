"""The baseline of the art bench: a bare ReportLab script placing a deck of card illustrations 9-up on A4.

    python bench/bare_art_reportlab.py ART_FOLDER OUT.pdf

Each PNG of ART_FOLDER (sorted by name) over one poker card (63 x 88 mm), nine to an A4 page with 3 mm between
cards, and one line of text under each, as a designer's script would do it: `canvas.drawImage(path, ...)`,
ReportLab reading each file (through Pillow) and compressing its pixels into the PDF. No parsing, no SVG, no
validation, no cache. bench/art_bench.py times it beside `pnp build` of the same deck.
"""

from __future__ import annotations

import sys
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

W, H, G = 63 * mm, 88 * mm, 3 * mm
PAGE = (210 * mm, 297 * mm)


def slots() -> list[tuple[float, float]]:
    x0 = (PAGE[0] - 3 * W - 2 * G) / 2
    y0 = (PAGE[1] - 3 * H - 2 * G) / 2
    return [(x0 + c * (W + G), y0 + (2 - r) * (H + G)) for r in range(3) for c in range(3)]


def main(folder: str, out: str) -> None:
    images = sorted(Path(folder).glob("*.png"))
    c = Canvas(out, pagesize=PAGE, invariant=1, pageCompression=1)
    where = slots()
    for i, path in enumerate(images):
        x, y = where[i % 9]
        c.drawImage(str(path), x, y, W, H)
        c.setFont("Helvetica", 5)
        c.drawCentredString(x + W / 2, y + 5 * mm, f"Card {i + 1}")
        if i % 9 == 8 or i == len(images) - 1:
            c.showPage()
    c.save()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
