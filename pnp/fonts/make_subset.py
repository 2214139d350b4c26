"""How the shipped fonts were made (run once by a maintainer, not at build time).

    pip install fonttools && python pnp/fonts/make_subset.py /usr/share/fonts/truetype/dejavu

(Debian's fonts-dejavu-core, DejaVu 2.37; fontTools 4.x gives these very bytes.)

Each of the twelve DejaVu faces (Sans, Serif, Sans Mono; regular, bold, italic/oblique, bold italic) ships
as two files:

- `DejaVuSans.ttf`...: Latin (English, French and the rest of Western Europe: Basic Latin, Latin-1,
  Latin Extended-A), punctuation, arrows, maths, geometric shapes, symbols and dingbats: every character
  the shipped designs and rulebooks use. Full DejaVu Sans is 750 KB a face and ReportLab parses a font
  twice per build (registration, then subsetting for embedding): about 0.1 s of every build. These
  files are registered by every build.
- `DejaVuSansExt.ttf`... ("DejaVu Sans Ext"): the other scripts DejaVu draws without shaping or
  right-to-left ordering (EXT_RANGES: Latin Extended-B and Additional with Vietnamese, IPA, combining
  marks, Greek, Cyrillic, Armenian, Georgian, superscripts). pnp.render.fonts registers one only when a
  text has a character the first file lacks (a fallback, character by character), so a Latin-only build
  reads and embeds exactly what it did before these files existed.

`coverage.json` lists the characters of every file (ranges of code points), so pnp knows which face draws a
character without reading the files, and those every chain has (`every_chain`: in each style, some family's
file has it), which no text can lack; tests/test_fonts_scripts.py checks both against the files.

DejaVu's licence (LICENSE-DejaVu.txt) allows modified copies; the names stay "DejaVu", which the licence
permits (no "Bitstream"/"Vera"). What the faces themselves lack (`make_subset.py --report` lists it by
range): DejaVu Sans has every Latin, Greek and Cyrillic letter of current use in its four faces. DejaVu
Serif lacks the Coptic letters of the Greek block (Ϣ..ϯ), historic Cyrillic (Ѥ, Ѫ, Ѱ...), 43 combining
marks and most symbols and dingbats. DejaVu Sans Mono lacks the 32 Vietnamese letters with a hook above
(ả, ẩ, ở, ủ...), 28 Latin Extended-B letters (Ǆ, Ǳ, Ǻ...), historic Cyrillic and half of Georgian; its
obliques have no dingbats. None has Cyrillic Extended-A. pnp draws what a face lacks from the next face of
its chain that has it (DejaVu Sans of the same style, for these).
"""

import json
import sys
import unicodedata
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

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
EXT_RANGES = [  # less what RANGES has
    (0x0180, 0x024F), (0x0250, 0x02AF),  # Latin Extended-B (Vietnamese ơ ư, Romanian ș ț...), IPA
    (0x02B0, 0x02FF), (0x0300, 0x036F),  # spacing modifier letters, combining diacritical marks
    (0x0370, 0x03FF), (0x0400, 0x052F),  # Greek and Coptic; Cyrillic and Cyrillic Supplement
    (0x0530, 0x058F), (0x10A0, 0x10FF),  # Armenian, Georgian
    (0x1D00, 0x1DFF), (0x1E00, 0x1EFF),  # phonetic extensions, combining supplement; Latin Extended Additional
    (0x1F00, 0x1FFF), (0x2070, 0x209F),  # Greek Extended (polytonic); superscripts and subscripts
    (0x2C60, 0x2C7F), (0xA640, 0xA69F),  # Latin Extended-C, Cyrillic Extended-B
    (0xA720, 0xA7FF),                    # Latin Extended-D
]
FACES = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSans-BoldOblique.ttf",
         "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSerif-Italic.ttf", "DejaVuSerif-BoldItalic.ttf",
         "DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf", "DejaVuSansMono-Oblique.ttf", "DejaVuSansMono-BoldOblique.ttf"]


def ext_name(face: str) -> str:
    """DejaVuSans-Bold.ttf -> DejaVuSansExt-Bold.ttf (pnp.render.fonts names them the same way)."""
    stem, dash, rest = face.removesuffix(".ttf").partition("-")
    return f"{stem}Ext{dash}{rest}.ttf"


def _subset(source: Path, target: Path, unicodes: list[int], rename: bool) -> None:
    options = subset.Options()
    options.layout_features = ["kern", "liga"]
    options.name_IDs = ["*"]
    options.hinting = True
    font = subset.load_font(str(source), options)
    sub = subset.Subsetter(options)
    sub.populate(unicodes=unicodes)
    sub.subset(font)
    if rename:  # a family of its own ("DejaVu Sans Ext"): fontconfig and PDF readers never take it for the first
        family = font["name"].getDebugName(1)
        for record in font["name"].names:
            text = record.toUnicode()
            if record.nameID in (1, 3, 4, 16) and text.startswith(family):
                record.string = family + " Ext" + text[len(family):]
            elif record.nameID == 6:
                record.string = target.name.removesuffix(".ttf")
    subset.save_font(font, str(target), options)
    print(target.name, target.stat().st_size, "bytes")


def _ranges(codes: set[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for c in sorted(codes):
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


def main(source: Path) -> None:
    here = Path(__file__).resolve().parent
    base = {u for lo, hi in RANGES for u in range(lo, hi + 1)}
    ext = sorted({u for lo, hi in EXT_RANGES for u in range(lo, hi + 1)} - base)
    for face in FACES:
        _subset(source / face, here / face, sorted(base), rename=False)
        _subset(source / face, here / ext_name(face), ext, rename=True)
    files: dict[str, set[int]] = {}
    for face in FACES:
        for name in (face, ext_name(face)):
            files[name.removesuffix(".ttf")] = set(TTFont(str(here / name)).getBestCmap())
    every: set[int] | None = None  # what every chain has: in each style, some family's Latin or extended file
    for slot in range(4):
        style = set().union(*(files[f.removesuffix(".ttf")] | files[ext_name(f).removesuffix(".ttf")]
                              for f in FACES[slot::4]))
        every = style if every is None else every & style
    coverage = {"files": {name: _ranges(codes) for name, codes in files.items()}, "every_chain": _ranges(every or set())}
    (here / "coverage.json").write_text(json.dumps(coverage, separators=(",", ":")) + "\n", encoding="utf-8")


def report(source: Path) -> None:
    """What each DejaVu face has of each range of RANGES and EXT_RANGES (characters Unicode assigns there)."""
    for face in FACES:
        cmap = set(TTFont(str(source / face)).getBestCmap())
        parts = []
        for lo, hi in RANGES + EXT_RANGES:
            wanted = [u for u in range(lo, hi + 1) if unicodedata.category(chr(u)) != "Cn"]
            have = sum(u in cmap for u in wanted)
            if have < len(wanted):
                parts.append(f"{lo:04X}-{hi:04X} {have}/{len(wanted)}")
        print(f"{face}: {', '.join(parts)}")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--report"]
    folder = Path(args[0] if args else "/usr/share/fonts/truetype/dejavu")
    (report if "--report" in sys.argv else main)(folder)
