"""The baseline: a bare ReportLab script drawing the same cards directly on the canvas.

    python bench/bare_reportlab.py stars OUT.pdf        # the 41 3 Stars placement cards + backs
    python bench/bare_reportlab.py table N OUT.pdf      # N data-table cards (as bench/build_bench.py makes them)

No parsing, no SVG, no validation, no cache: the fastest a PDF of these cards can be made in
Python (9-up on A4, crop marks, vector, embedded font, each front sheet followed by its backs).
"""

from __future__ import annotations

import itertools
import math
import sys

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

FONT_DIR = __import__("pathlib").Path(__file__).resolve().parent.parent / "pnp" / "fonts"
W, H, B, G = 63 * mm, 88 * mm, 3 * mm, 3 * mm
PAGE = (210 * mm, 297 * mm)
COLOURS = [(0.84, 0.37, 0.0), (0.0, 0.45, 0.70), (0.0, 0.62, 0.45), (0.80, 0.47, 0.65)]


def slots():
    x0 = (PAGE[0] - 3 * W - 2 * G) / 2
    y0 = 8 * mm + (PAGE[1] - 8 * mm - 3 * H - 2 * G) / 2
    return [(x0 + c * (W + G), y0 + (2 - r) * (H + G)) for r in range(3) for c in range(3)]


def marks(c, xy):
    c.setLineWidth(0.3)
    c.setFillColorRGB(0, 0, 0)
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
    """The bench deck's front: a rounded coloured border, a title, a number in a disc, a suit polygon."""
    colour = COLOURS[i % 4]
    c.setFillColorRGB(*colour)
    c.rect(x - B, y - B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.roundRect(x + 4 * mm, y + 4 * mm, W - 8 * mm, H - 8 * mm, 3 * mm, stroke=0, fill=1)
    c.setFillColorRGB(0.1, 0.1, 0.1)
    c.setFont("DejaVu-Bold", 6 * mm)
    c.drawCentredString(x + W / 2, y + H - 14 * mm, f"Card {i + 1}")
    c.setFillColorRGB(*colour)
    c.circle(x + W / 2, y + H - 40 * mm, 12 * mm, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.setFont("DejaVu-Bold", 14 * mm)
    c.drawCentredString(x + W / 2, y + H - 45 * mm, str(i % 10 + 1))
    c.setFillColorRGB(*colour)
    p = c.beginPath()
    sx, sy = x + W / 2, y + 18 * mm
    p.moveTo(sx, sy + 8 * mm)
    p.lineTo(sx + 6 * mm, sy)
    p.lineTo(sx, sy - 8 * mm)
    p.lineTo(sx - 6 * mm, sy)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def back(c, x, y):
    c.setFillColorRGB(0.2, 0.2, 0.2)
    c.rect(x - B, y - B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    c.setFillColorRGB(0.91, 0.76, 0.42)
    c.setFont("DejaVu-Bold", 8 * mm)
    c.drawCentredString(x + W / 2, y + H / 2, "Bench Deck")


def main() -> None:
    mode = sys.argv[1]
    if mode == "stars":
        cards = [c for k in (1, 2, 3) for c in itertools.combinations(range(6), k)]
        out = sys.argv[2]
    else:
        cards = list(range(int(sys.argv[2])))
        out = sys.argv[3]
    pdfmetrics.registerFont(TTFont("DejaVu", str(FONT_DIR / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont("DejaVu-Bold", str(FONT_DIR / "DejaVuSans-Bold.ttf")))
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
