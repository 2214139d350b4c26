"""Shaped components (issue 15): tokens and tiles cut along their shape, measured in the produced PDFs.

`tests/fixtures/shaped-tokens` holds double-sided round coins (25 mm, 3 mm bleed), hexagonal
tiles, shields (a polygon outline) with backs, rounded tabs (an SVG path outline) and
small round markers without bleed. The PDF's content streams are read here the way a
cutter would: where each face is drawn, what its clip lets show, where the cut lines run.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnp.cli import main
from pnp.layout.sheets import SheetOptions, plan
from pnp.model import Component
from pnp.render.faces import ComponentFaces
from pnp.render.facespec import FaceSpec

ROOT = Path(__file__).resolve().parent.parent
SHAPED = ROOT / "tests" / "fixtures" / "shaped-tokens"
MM = 72 / 25.4
COIN = 25.0  # trim diameter, mm
COIN_BOX = COIN + 2 * 3  # the face's form: trim + 2 x bleed


# --- reading the PDF ----------------------------------------------------------------------------


def _bezier(p0, p1, p2, p3, n=24):
    out = []
    for k in range(1, n + 1):
        t = k / n
        s = 1 - t
        out.append(tuple(s ** 3 * a + 3 * s * s * t * b + 3 * s * t * t * c + t ** 3 * d
                         for a, b, c, d in zip(p0, p1, p2, p3)))
    return out


class Page:
    """Faces drawn on a page (form, box, clip) and the paths stroked on it, in mm."""

    def __init__(self, reader: PdfReader, index: int):
        page = reader.pages[index]
        self.width = float(page.mediabox.width) / MM
        self.height = float(page.mediabox.height) / MM
        ops = ContentStream(page.get_contents(), reader).operations
        xobjects = page["/Resources"].get("/XObject", {})
        ctm, stack, clip = (1, 0, 0, 1, 0, 0), [], None
        subpaths: list[list] = []
        self.faces: list[dict] = []
        self.strokes: list[list[list]] = []  # each stroked path: its subpaths as point lists (mm)
        self.curved: list[list[list]] = []  # the stroked paths that hold curves

        def xy(x, y):
            a, b, c, d, e, f = ctm
            return ((a * x + c * y + e) / MM, (b * x + d * y + f) / MM)

        for operands, op in ops:
            vals = [float(v) for v in operands] if op in (b"cm", b"m", b"l", b"c", b"re") else None
            if op == b"q":
                stack.append((ctm, clip))
            elif op == b"Q":
                ctm, clip = stack.pop()
            elif op == b"cm":
                a1, b1, c1, d1, e1, f1 = vals
                a2, b2, c2, d2, e2, f2 = ctm
                ctm = (a1 * a2 + b1 * c2, a1 * b2 + b1 * d2, c1 * a2 + d1 * c2, c1 * b2 + d1 * d2,
                       e1 * a2 + f1 * c2 + e2, e1 * b2 + f1 * d2 + f2)
            elif op == b"m":
                subpaths.append([xy(*vals)])
            elif op == b"l":
                subpaths[-1].append(xy(*vals))
            elif op == b"c":
                subpaths[-1] += _bezier(subpaths[-1][-1], xy(*vals[0:2]), xy(*vals[2:4]), xy(*vals[4:6]))
                self._has_curve = True
            elif op == b"re":
                x, y, w, h = vals
                subpaths.append([xy(x, y), xy(x + w, y), xy(x + w, y + h), xy(x, y + h)])
            elif op in (b"W", b"W*"):
                clip = [list(s) for s in subpaths]
            elif op in (b"S", b"s"):
                self.strokes.append(subpaths)
                if getattr(self, "_has_curve", False):
                    self.curved.append(subpaths)
                subpaths, self._has_curve = [], False
            elif op in (b"n", b"f", b"f*", b"B", b"b"):
                subpaths, self._has_curve = [], False
            elif op == b"Do":
                bbox = [float(v) for v in xobjects[str(operands[0])].get_object()["/BBox"]]
                corners = [xy(bbox[0], bbox[1]), xy(bbox[2], bbox[3])]
                xs, ys = [c[0] for c in corners], [c[1] for c in corners]
                self.faces.append({"form": str(operands[0]), "box": (min(xs), min(ys), max(xs), max(ys)),
                                   "turned": ctm[0] < 0, "clip": clip})

    def faces_of(self, size: float, tol: float = 0.01) -> list[dict]:
        return [f for f in self.faces if abs(f["box"][2] - f["box"][0] - size) < tol
                and abs(f["box"][3] - f["box"][1] - size) < tol]


def centre(box):
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def winding(point, subpaths) -> int:
    x, y = point
    total = 0
    for poly in subpaths:
        for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
            if y1 <= y < y2 and (x2 - x1) * (y - y1) - (x - x1) * (y2 - y1) > 0:
                total += 1
            elif y2 <= y < y1 and (x2 - x1) * (y - y1) - (x - x1) * (y2 - y1) < 0:
                total -= 1
    return total


def seg_distance(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / n))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def deep_inside(point, subpaths, depth=0.02) -> bool:
    """Inside the region (non-zero rule) and more than `depth` mm from its edge."""
    if winding(point, subpaths) == 0:
        return False
    return all(seg_distance(point, a, b) > depth for poly in subpaths for a, b in zip(poly, poly[1:] + poly[:1]))


def build(tmp_path: Path, *options: str) -> PdfReader:
    result = CliRunner().invoke(main, ["build", str(SHAPED), "--out", str(tmp_path), "--no-exports", *options])
    assert result.exit_code == 0, result.output
    return PdfReader(tmp_path / "shaped-tokens" / "shaped-tokens-a4.pdf")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The fixture built once per set of options in this module."""
    done: dict[tuple, PdfReader] = {}

    def get(*options: str) -> PdfReader:
        if options not in done:
            done[options] = build(tmp_path_factory.mktemp("shaped"), *options)
        return done[options]
    return get


@pytest.fixture(scope="module")
def long_pdf(built) -> PdfReader:
    return built()


def coin_pages(reader: PdfReader) -> list[Page]:
    return [p for p in (Page(reader, i) for i in range(len(reader.pages))) if p.faces_of(COIN_BOX)]


# --- cut lines --------------------------------------------------------------------------------------


def test_circle_cut_lines_are_circles_of_the_trim_diameter_centred_on_each_token(long_pdf):
    pages = coin_pages(long_pdf)
    assert len(pages) == 2  # 50 coins on one front sheet and its back sheet
    for page in pages:
        coins = page.faces_of(COIN_BOX)
        assert len(coins) == 50
        circles = [s[0] for s in page.curved if len(s) == 1]
        for coin in coins:
            cx, cy = centre(coin["box"])
            mine = [c for c in circles if math.hypot(sum(p[0] for p in c) / len(c) - cx,
                                                     sum(p[1] for p in c) / len(c) - cy) < 1]
            assert len(mine) == 1, "one cut line per token"
            radii = [math.hypot(x - cx, y - cy) for x, y in mine[0]]
            assert max(abs(r - COIN / 2) for r in radii) <= 0.1


def test_markers_without_bleed_are_cut_as_circles_too(long_pdf):
    page = Page(long_pdf, len(long_pdf.pages) - 1)
    markers = page.faces_of(16)
    assert len(markers) == 12
    for m in markers:
        cx, cy = centre(m["box"])
        ring = [c[0] for c in page.curved if len(c) == 1 and abs(min(p[0] for p in c[0]) - (cx - 8)) < 0.1
                and abs(min(p[1] for p in c[0]) - (cy - 8)) < 0.1]
        assert ring and max(abs(math.hypot(x - cx, y - cy) - 8) for x, y in ring[0]) <= 0.1


def test_no_bleed_crosses_another_pieces_cut_line(long_pdf):
    """Every point of every cut line lies deep inside at most one piece's clip: its own."""
    for i in range(len(long_pdf.pages)):
        page = Page(long_pdf, i)
        clips = [f["clip"] for f in page.faces if f["clip"]]
        assert len(clips) == len(page.faces)
        boxes = [(min(p[0] for s in c for p in s), min(p[1] for s in c for p in s),
                  max(p[0] for s in c for p in s), max(p[1] for s in c for p in s)) for c in clips]
        lines = [poly for stroke in page.strokes for poly in stroke]
        assert lines
        for poly in lines:
            for q in poly[::3]:
                hits = [c for c, b in zip(clips, boxes) if b[0] <= q[0] <= b[2] and b[1] <= q[1] <= b[3]
                        and deep_inside(q, c)]
                assert len(hits) <= 1, f"page {i + 1}: a cut line at {q} runs through two pieces' art"


def test_straight_outlines_are_cut_along_their_edges(long_pdf):
    """The shield (a polygon outline): each shield's five edges are drawn as cut lines."""
    page = next(p for p in (Page(long_pdf, i) for i in range(len(long_pdf.pages))) if p.faces_of(28, 0.01) == []
                and any(abs(f["box"][2] - f["box"][0] - 28) < 0.01 and abs(f["box"][3] - f["box"][1] - 32) < 0.01
                        for f in p.faces))
    shields = [f for f in page.faces if abs(f["box"][2] - f["box"][0] - 28) < 0.01]
    assert len(shields) == 9
    segments = [(a, b) for stroke in page.strokes for poly in stroke for a, b in zip(poly, poly[1:])]
    for s in shields:
        x0, y0 = s["box"][0] + 3, s["box"][1] + 3  # trim's bottom-left corner
        corners = [(x0 + x, y0 + 26 - y) for x, y in [(0, 0), (22, 0), (22, 14), (11, 26), (0, 14)]]
        if s["turned"]:
            corners = [(2 * x0 + 22 - x, 2 * y0 + 26 - y) for x, y in corners]
        for a, b in zip(corners, corners[1:] + corners[:1]):
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            assert any(seg_distance(a, *seg) < 0.05 and seg_distance(b, *seg) < 0.05 and seg_distance(mid, *seg) < 0.05
                       for seg in segments), "a shield edge has no cut line"


# --- fronts and backs -------------------------------------------------------------------------------


@pytest.mark.parametrize("duplex,offset", [("long", "0.5,-0.3"), ("short", "-1,2"), ("none", "0.4,0.4"), ("fold", None)])
def test_backs_line_up_with_their_fronts(built, duplex, offset):
    reader = built("--duplex", duplex, *(["--back-offset", offset] if offset else []))
    dx, dy = (float(v) for v in offset.split(",")) if offset and duplex != "fold" else (0.0, 0.0)
    pages = [Page(reader, i) for i in range(len(reader.pages))]
    checked = 0
    for size in (COIN_BOX, 46.0):  # coins, hexagonal tiles (40 x 34.6 + bleed: the wider side)
        pick = lambda p: [f for f in p.faces if abs(f["box"][2] - f["box"][0] - size) < 0.01]  # noqa: E731
        with_size = [i for i, p in enumerate(pages) if pick(p)]
        if duplex == "fold":
            pairs = [(pages[i], pages[i]) for i in with_size]
        else:
            # each back sheet right after its front, or (duplex none) all backs after all fronts
            half = len(with_size) // 2
            order = with_size[::2] + with_size[1::2] if duplex != "none" else with_size
            assert half >= 1 and len(with_size) == 2 * half
            if duplex != "none":
                assert all(b == f + 1 for f, b in zip(with_size[::2], with_size[1::2]))
            pairs = [(pages[f], pages[b]) for f, b in zip(order[:half], order[half:])]
        for front, back in pairs:
            fold = None
            if duplex == "fold":
                fold = [s[0] for s in front.strokes if len(s[0]) == 2 and (abs(s[0][0][0] - s[0][1][0]) < 1e-6
                                                                            or abs(s[0][0][1] - s[0][1][1]) < 1e-6)
                        and math.dist(*s[0]) > 100]
                assert len(fold) == 1
                (fx, fy), (gx, _gy) = fold[0]
                vertical = abs(fx - gx) < 1e-6
                # fronts on the left of a vertical fold, above a horizontal one
                fr = [f for f in pick(front) if (centre(f["box"])[0] < fx if vertical else centre(f["box"])[1] > fy)]
                bk = [f for f in pick(front) if f not in fr]
            else:
                fr, bk = pick(front), pick(back)
            assert len(fr) == len(bk)
            assert {f["form"] for f in fr}.isdisjoint({b["form"] for b in bk})
            for f in fr:
                cx, cy = centre(f["box"])
                if duplex == "short":
                    ex, ey = cx + dx, front.height - cy + dy
                elif duplex == "fold":  # the mirror image across the drawn fold line
                    ex, ey = (2 * fx - cx, cy) if vertical else (cx, 2 * fy - cy)
                else:
                    ex, ey = front.width - cx + dx, cy + dy
                match = [b for b in bk if math.hypot(centre(b["box"])[0] - ex, centre(b["box"])[1] - ey) <= 0.1]
                assert len(match) == 1, (duplex, size, cx, cy)
                # the back's clip is the mirror image of the front's: same extent about the centre
                fb, bb = f["clip"], match[0]["clip"]
                fw = max(p[0] for s in fb for p in s) - min(p[0] for s in fb for p in s)
                bw = max(p[0] for s in bb for p in s) - min(p[0] for s in bb for p in s)
                assert abs(fw - bw) <= 0.1
                checked += 1
    assert checked == 50 + 8


def test_a_short_edge_back_is_turned_so_it_is_always_the_piece_turned_over_left_to_right(built):
    reader = built("--duplex", "short", "--back-offset", "-1,2")
    pages = [Page(reader, i) for i in range(len(reader.pages))]
    shields = [[f for f in p.faces if abs(f["box"][2] - f["box"][0] - 28) < 0.01] for p in pages]
    front, back = [s for s in shields if s][:2]
    assert not any(f["turned"] for f in front) and all(b["turned"] for b in back)


# --- packing -----------------------------------------------------------------------------------------


def coins_plan(n: int, d: float, bleed: float, paper: str = "a4", shape="circle", **opts):
    comp = Component.model_validate({"kind": "token", "shape": shape, "size": {"width": f"{d}mm", "height": f"{d}mm"},
                                     "template": "x"})
    faces = [FaceSpec("c", d, d, bleed, paint=lambda: "", count=n, shape=shape)]
    return plan([ComponentFaces("coins", comp, faces, None)], SheetOptions(paper=paper, **opts), lambda c, f: f.key)


def square_grid(d: float, gap: float, e: float, width: float, height: float) -> int:
    """The obvious layout: a square grid at the same gap, keeping the same bleed inside the margins."""
    return int((width - 2 * e + gap) // (d + gap)) * int((height - 2 * e + gap) // (d + gap))


@pytest.mark.parametrize("d,bleed,expected", [(25, 3, 72), (25, 0, 84), (30, 3, 50), (16, 0, 219)])
def test_circles_in_offset_rows_fit_more_than_a_square_grid(d, bleed, expected):
    """Tokens per A4 sheet against the square grid at the same gap (3 mm with bleed: 1.5 mm shows)."""
    sheets = coins_plan(400, d, bleed)
    first = max(len(s.placed) for s in sheets)
    gap, e = (3.0, 1.5) if bleed else (0.0, 0.0)
    portrait = square_grid(d, gap, e, 210 - 12, 297 - 8 - 12)
    landscape = square_grid(d, gap, e, 297 - 12, 210 - 8 - 12)
    assert first == expected
    assert first > max(portrait, landscape)
    placed = sheets[0].placed
    for i, a in enumerate(placed):  # never closer than the gap, nothing outside the margins
        ca = (a.x + d / 2, a.y + d / 2)
        assert 6 - 1e-6 <= a.x - e and a.x + d + e <= sheets[0].width - 6 + 1e-6
        for b in placed[i + 1:]:
            assert math.dist(ca, (b.x + d / 2, b.y + d / 2)) >= d + gap - 1e-6


def test_a_polygon_outline_packs_tighter_than_its_bounding_boxes():
    """Right triangles (a polygon outline) alternate point up and point down in their rows."""
    tri = {"polygon": [[0, 30], [30, 30], [0, 0]]}
    sheets = coins_plan(200, 30, 0, shape=tri)
    per_sheet = len(sheets[0].placed)
    boxes = (198 // 30) * (277 // 30)
    assert per_sheet >= 2 * boxes * 0.9
    assert {p.rotate for p in sheets[0].placed} == {0, 180}


def test_outline_outside_the_trim_is_refused(tmp_path):
    design = tmp_path / "bad"
    (design / "templates").mkdir(parents=True)
    (design / "templates" / "t.svg.j2").write_text('<rect width="10" height="10"/>')
    (design / "design.yaml").write_text(
        "meta: {title: Bad, players: 2}\n"
        "components:\n"
        "  tokens:\n"
        "    kind: token\n"
        "    shape: {polygon: [[0, 0], [40, 0], [10, 10]]}\n"
        "    size: {width: 20mm, height: 20mm}\n"
        "    template: t.svg.j2\n")
    result = CliRunner().invoke(main, ["build", str(design), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "design.yaml:3" in result.output and "outside the 20 x 20 mm trim" in result.output


def test_bad_path_data_is_a_clear_error(tmp_path):
    design = tmp_path / "bad"
    (design / "templates").mkdir(parents=True)
    (design / "templates" / "t.svg.j2").write_text('<rect width="10" height="10"/>')
    (design / "design.yaml").write_text(
        "meta: {title: Bad, players: 2}\n"
        "components:\n"
        "  tokens:\n"
        "    kind: token\n"
        "    shape: {path: 'M 0 0 L 20 0 L 10 Q Z'}\n"
        "    size: {width: 20mm, height: 20mm}\n"
        "    template: t.svg.j2\n")
    result = CliRunner().invoke(main, ["build", str(design), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "design.yaml:5" in result.output and "path command 'L' has 1 numbers" in result.output


@settings(max_examples=25, deadline=None)
@given(d=st.floats(8, 80), bleed=st.sampled_from([0, 1, 3]), n=st.integers(1, 150),
       duplex=st.sampled_from(["long", "short", "none", "fold"]), paper=st.sampled_from(["a4", "letter"]))
def test_double_sided_circles_keep_their_gap_stay_on_the_sheet_and_have_their_backs_behind(d, bleed, n, duplex, paper):
    comp = Component.model_validate({"kind": "token", "shape": "circle", "size": {"width": "1mm", "height": "1mm"},
                                     "template": "x"})
    fronts = [FaceSpec("c", d, d, bleed, paint=lambda: "", count=n, shape="circle")]
    back = FaceSpec("back", d, d, bleed, paint=lambda: "", shape="circle")
    sheets = plan([ComponentFaces("coins", comp, fronts, back)], SheetOptions(paper=paper, duplex=duplex),
                  lambda c, f: f.key)
    gap = 3.0 if bleed else 0.0
    placed = [(s, p) for s in sheets for p in s.placed]
    assert sum(p.face == "c" for _, p in placed) == n and sum(p.face == "back" for _, p in placed) == n
    for s in sheets:
        for i, a in enumerate(s.placed):
            assert 0 <= a.x and a.x + d <= s.width and 8 <= a.y and a.y + d <= s.height
            for b in s.placed[i + 1:]:
                assert math.dist((a.x, a.y), (b.x, b.y)) >= d + gap - 1e-6
    pages = [s for s in sheets]
    for k, s in enumerate(pages):
        for f in (p for p in s.placed if p.face == "c"):
            if duplex == "fold":
                vertical = s.folds[0][0][0] == s.folds[0][1][0]
                at = s.folds[0][0][0] if vertical else s.folds[0][0][1]
                want = (2 * at - f.x - d, f.y) if vertical else (f.x, 2 * at - f.y - d)
                where = s
            else:
                where = pages[k + 1] if duplex != "none" else pages[k + len(pages) // 2]
                want = (s.width - f.x - d, f.y) if duplex != "short" else (f.x, s.height - f.y - d)
            assert any(abs(b.x - want[0]) < 1e-6 and abs(b.y - want[1]) < 1e-6 and b.face == "back"
                       for b in where.placed)
