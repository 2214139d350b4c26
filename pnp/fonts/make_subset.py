"""How the shipped fonts were made (run once by a maintainer, not at build time).

    pip install fonttools && python pnp/fonts/make_subset.py /usr/share/fonts/truetype/dejavu

Full DejaVu Sans is 750 KB a face and ReportLab parses it twice per build (registration,
then subsetting for embedding): about 0.1 s of every build. The subset keeps Latin
(English, French and the rest of Western Europe), punctuation, arrows, maths, geometric
shapes, symbols and dingbats: every character the designs and rulebooks use, at a
fifth of the size. DejaVu's licence (LICENSE-DejaVu.txt) allows modified copies; the
font names stay "DejaVu Sans", which the licence permits (no "Bitstream"/"Vera").
"""

import sys
from pathlib import Path

from fontTools import subset

RANGES = [
    (0x0020, 0x007E), (0x00A0, 0x017F),  # Basic Latin, Latin-1, Latin Extended-A
    (0x0192, 0x0192), (0x02C6, 0x02DD),  # florin, spacing modifiers
    (0x2000, 0x206F), (0x20A0, 0x20CF),  # punctuation, currency
    (0x2100, 0x218F), (0x2190, 0x21FF),  # letterlike, number forms (fractions), arrows
    (0x2200, 0x22FF), (0x2300, 0x23FF),  # maths, technical
    (0x2460, 0x24FF), (0x2500, 0x257F),  # enclosed numbers, box drawing
    (0x25A0, 0x25FF), (0x2600, 0x26FF),  # geometric shapes, symbols
    (0x2700, 0x27BF), (0xFB01, 0xFB02),  # dingbats, fi/fl ligatures
]
FACES = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSans-BoldOblique.ttf",
         "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSerif-Italic.ttf", "DejaVuSerif-BoldItalic.ttf",
         "DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf", "DejaVuSansMono-Oblique.ttf", "DejaVuSansMono-BoldOblique.ttf"]


def main(source: Path) -> None:
    here = Path(__file__).resolve().parent
    unicodes = [u for lo, hi in RANGES for u in range(lo, hi + 1)]
    for face in FACES:
        options = subset.Options()
        options.layout_features = ["kern", "liga"]
        options.name_IDs = ["*"]
        options.hinting = True
        font = subset.load_font(str(source / face), options)
        sub = subset.Subsetter(options)
        sub.populate(unicodes=unicodes)
        sub.subset(font)
        subset.save_font(font, str(here / face), options)
        print(face, (here / face).stat().st_size, "bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/truetype/dejavu"))
