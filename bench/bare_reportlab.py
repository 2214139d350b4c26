"""The baseline: a bare ReportLab script drawing the same cards directly on the canvas.

    python bench/bare_reportlab.py stars OUT.pdf        # the 41 3 Stars placement cards + backs
    python bench/bare_reportlab.py table N OUT.pdf      # N data-table cards (as bench/build_bench.py makes them)

No parsing, no SVG, no validation: the fastest a PDF of these cards can be made in Python.
"""

from __future__ import annotations

import itertools
import math
import sys

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

FONT = str(__import__("pathlib").Path(__file__).resolve().parent.parent / "pnp" / "fonts" / "DejaVuSans.ttf")
W, H, B, G = 63 * mm, 88 * mm, 3 * mm, 3 * mm
PAGE = (210 * mm, 297 * mm)


def slots():
    x0 = (PAGE[0] - 3 * W - 2 * G) / 2
    y0 = 8 * mm + (PAGE[1] - 8 * mm - 3 * H - 2 * G) / 2
    return [(x0 + c * (W + G), y0 + (2 - r) * (H + G)) for r in range(3) for c in range(3)]


def marks(c, xy):
    c.setLineWidth(0.3)
    for x, y in xy:
        for xx in (x, x + W):
            c.line(xx, PAGE[1], xx, PAGE[1] - 5 * mm)
            c.line(xx, 0, xx, 5 * mm)
        for yy in (y, y + H):
            c.line(0, yy, 3 * mm, yy)
            c.line(PAGE[0], yy, PAGE[0] - 3 * mm, yy)
    c.setFont("DejaVu", 7)
    c.drawString(6 * mm, 3 * mm, "sheet · print at 100%")
    for i in range(5):
        c.rect(150 * mm + i * 10 * mm, 3 * mm, 10 * mm, 2 * mm, fill=i % 2 == 0)


def star_card(c, x, y, index, positions):
    c.setFillColorRGB(0.98, 0.97, 0.94)
    c.rect(x - B, y - B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    cx, cy, s = x + W / 2, y + H * 0.55, 25 * mm
    for k in range(6):
        a, b = math.radians(60 * k), math.radians(60 * k + 60)
        p = c.beginPath()
        p.moveTo(cx, cy)
        p.lineTo(cx + s * math.cos(a), cy + s * math.sin(a))
        p.lineTo(cx + s * math.cos(b), cy + s * math.sin(b))
        p.close()
        c.setFillColorRGB(*((0.1, 0.1, 0.1) if k in positions else (1, 1, 1)))
        c.drawPath(p, stroke=1, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.setFont("DejaVu", 12)
    c.drawString(x + 4 * mm, y + H - 8 * mm, str(index))


def table_card(c, x, y, i):
    c.setFillColorRGB(0.84, 0.37, 0.0)
    c.rect(x - B, y - B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.roundRect(x + 3 * mm, y + 3 * mm, W - 6 * mm, H - 6 * mm, 2 * mm, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.setFont("DejaVu", 17)
    c.drawCentredString(x + W / 2, y + H - 20 * mm, f"Card {i}")
    c.setFont("DejaVu", 57)
    c.drawCentredString(x + W / 2, y + H - 60 * mm, str(i % 10))


def back(c, x, y):
    c.setFillColorRGB(0.2, 0.2, 0.2)
    c.rect(x - B, y - B, W + 2 * B, H + 2 * B, stroke=0, fill=1)


def main() -> None:
    mode = sys.argv[1]
    if mode == "stars":
        cards = [c for k in (1, 2, 3) for c in itertools.combinations(range(6), k)]
        out = sys.argv[2]
    else:
        cards = list(range(int(sys.argv[2])))
        out = sys.argv[3]
    pdfmetrics.registerFont(TTFont("DejaVu", FONT))
    c = Canvas(out, pagesize=PAGE, invariant=1)
    xy = slots()
    for s in range(0, len(cards), 9):
        chunk = cards[s:s + 9]
        for i, card in enumerate(chunk):
            x, y = xy[i]
            if mode == "stars":
                star_card(c, x, y, s + i + 1, card)
            else:
                table_card(c, x, y, card)
        marks(c, xy[:len(chunk)])
        c.showPage()
        for i in range(len(chunk)):
            x, y = xy[i]
            back(c, PAGE[0] - x - W, y)
        marks(c, xy[:len(chunk)])
        c.showPage()
    c.save()


if __name__ == "__main__":
    main()
