"""Properties of the sheet planner for any card size, bleed, gutter and paper (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from pnp.layout.sheets import SheetOptions, load_config, plan
from pnp.model import Component
from pnp.render.faces import ComponentFaces
from pnp.render.facespec import FaceSpec


def deck(w, h, bleed, n, back=True):
    comp = Component.model_validate({"kind": "card", "size": {"width": f"{w}mm", "height": f"{h}mm"},
                                     "template": "x.svg.j2"})
    fronts = [FaceSpec(f"{i}", w, h, bleed, paint=lambda: "", count=1) for i in range(n)]
    backface = FaceSpec("back", w, h, bleed, paint=lambda: "") if back else None
    return ComponentFaces("cards", comp, fronts, backface)


def overlap(a, b, eps=1e-6):
    return a[0] < b[2] - eps and b[0] < a[2] - eps and a[1] < b[3] - eps and b[1] < a[3] - eps


@settings(max_examples=150, deadline=None)
@given(w=st.floats(20, 140), h=st.floats(20, 140), bleed=st.sampled_from([0, 1, 3, 3.175, 5]),
       gutter=st.floats(0, 8), paper=st.sampled_from(["a4", "letter", "a3"]),
       duplex=st.sampled_from(["long", "short"]), n=st.integers(1, 30))
def test_grid_sheets_fit_do_not_overlap_and_backs_line_up(w, h, bleed, gutter, paper, duplex, n):
    cfg = load_config()
    sheets = plan([deck(w, h, bleed, n)], SheetOptions(paper=paper, duplex=duplex, gutter=gutter), lambda c, f: f.key, cfg)
    fronts = [s for s in sheets if s.side == "front"]
    backs = [s for s in sheets if s.side == "back"]
    assert sum(len(s.placed) for s in fronts) == n
    assert len(fronts) == len(backs)
    for front, back in zip(fronts, backs):
        for s in (front, back):
            clips = [p.clip for p in s.placed]
            for p in s.placed:  # every trim on the sheet, above the footer
                assert -1e-6 <= p.x and p.x + p.w <= s.width + 1e-6
                assert cfg.footer - 1e-6 <= p.y and p.y + p.h <= s.height + 1e-6
            for i, a in enumerate(clips):  # no two faces' visible art overlap
                assert all(not overlap(a, b) for b in clips[i + 1:])
            for (x1, y1), (x2, y2) in s.marks:  # crop marks never enter any face's art (trim + bleed)
                for p in s.placed:
                    ax0, ay0, ax1, ay1 = p.x - p.bleed, p.y - p.bleed, p.x + p.w + p.bleed, p.y + p.h + p.bleed
                    if x1 == x2:  # vertical mark
                        assert not (ax0 < x1 < ax1 and min(y1, y2) < ay1 and max(y1, y2) > ay0)
                    else:
                        assert y1 == y2
                        assert not (ay0 < y1 < ay1 and min(x1, x2) < ax1 and max(x1, x2) > ax0)
        for f in front.placed:  # each front has its back behind it after the flip
            if duplex == "long":
                mx, my = front.width - f.x - f.w, f.y
            else:
                mx, my = f.x, front.height - f.y - f.h
            assert any(abs(b.x - mx) < 1e-6 and abs(b.y - my) < 1e-6 for b in back.placed)


@settings(max_examples=60, deadline=None)
@given(side=st.floats(12, 60), count=st.integers(1, 120), paper=st.sampled_from(["a4", "letter"]))
def test_triangles_tessellate_without_overlap(side, count, paper):
    comp = Component.model_validate({"kind": "piece", "shape": "triangle", "size": {"width": "1mm", "height": "1mm"},
                                     "template": "x"})
    h = side * 3 ** 0.5 / 2
    faces = [FaceSpec("a", side, h, 0, paint=lambda: "", count=count, shape="triangle")]
    sheets = plan([ComponentFaces("p", comp, faces, None)], SheetOptions(paper=paper), lambda c, f: f.key)
    placed = [p for s in sheets for p in s.placed]
    assert len(placed) == count
    for s in sheets:
        rows = {}
        for p in s.placed:
            rows.setdefault(round(p.y, 6), []).append(p)
        for row in rows.values():
            row.sort(key=lambda p: p.x)
            for a, b in zip(row, row[1:]):  # neighbours: half a side apart, alternately up and down
                assert abs((b.x - a.x) - side / 2) < 1e-6
                assert a.rotate != b.rotate
            assert row[0].x >= 0 and row[-1].x + side <= s.width


@settings(max_examples=60, deadline=None)
@given(w=st.floats(20, 140), h=st.floats(20, 140), bleed=st.sampled_from([0, 3]), gutter=st.floats(0, 8),
       paper=st.sampled_from(["a4", "letter", "a3"]), marks=st.sampled_from(["crop", "cut", "none"]),
       n=st.integers(1, 40), back=st.booleans())
def test_counting_sheets_gives_the_planned_number(w, h, bleed, gutter, paper, marks, n, back):
    """sheets_needed plans the other papers without drawing their marks: the same number of sheets."""
    from dataclasses import replace

    from pnp.layout.sheets import sheets_needed

    opts = SheetOptions(paper="a4", gutter=gutter, marks=marks)
    cards = [deck(w, h, bleed, n, back)]
    planned = plan(cards, replace(opts, paper=paper), lambda c, f: f.key)
    counted = plan(cards, replace(opts, paper=paper, counting=True), lambda c, f: f.key)
    assert len(counted) == len(planned) and not any(s.marks or s.cuts for s in counted)
    assert sheets_needed(cards, opts, lambda c, f: f.key, papers=(paper,))[paper] == len(planned)
