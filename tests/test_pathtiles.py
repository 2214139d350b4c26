"""The generic path-tile renderer: lines meet edge midpoints exactly and perpendicularly, so
lines on neighbouring tiles join, on squares, hexagons (both orientations) and triangles."""

from __future__ import annotations

import math
import re

import pytest

from pnp.render.pathtiles import (
    Arc,
    Hub,
    Line,
    Link,
    PathStyle,
    Spoke,
    Stub,
    draw_tile,
    geometry,
    hexagon,
    link_geometry,
    neighbour,
    path_d,
    square,
    tile_shape,
    triangle,
)
from pnp.render.svg import Canvas

SHAPES = [square(25), hexagon(12), hexagon(12, "pointy"), triangle(30), triangle(30, "down")]
IDS = ["square", "hex-flat", "hex-pointy", "tri-up", "tri-down"]


def close(p, q, tol=1e-6):
    return math.dist(p, q) < tol


def inside(shape, p) -> bool:
    """Point strictly inside a convex polygon whose vertices run clockwise on the page."""
    vs = shape.vertices
    for i in range(len(vs)):
        (x0, y0), (x1, y1) = vs[i], vs[(i + 1) % len(vs)]
        if (x1 - x0) * (p[1] - y0) - (y1 - y0) * (p[0] - x0) <= 0:
            return False
    return True


def tangent(g, t):
    if isinstance(g, Line):
        d = (g.end[0] - g.start[0], g.end[1] - g.start[1])
        n = math.hypot(*d)
        return (d[0] / n, d[1] / n)
    return g.tangent_at(t)


@pytest.mark.parametrize("shape", SHAPES, ids=IDS)
def test_every_link_meets_both_edge_midpoints_perpendicularly_and_stays_inside(shape):
    for a in range(shape.ports):
        for b in range(shape.ports):
            if a == b:
                continue
            g = link_geometry(shape, a, b)
            assert close(g.start, shape.port(a)) and close(g.end, shape.port(b))
            # leaving port a the line heads straight into the tile; arriving at b straight out of it
            na, nb = shape.outward(a), shape.outward(b)
            ta, tb = tangent(g, 0.0), tangent(g, 1.0)
            assert close(ta, (-na[0], -na[1]), 1e-9), (a, b, ta, na)
            assert close(tb, nb, 1e-9), (a, b, tb, nb)
            mid = g.point_at(0.5) if isinstance(g, Arc) else ((g.start[0] + g.end[0]) / 2, (g.start[1] + g.end[1]) / 2)
            assert inside(shape, mid), (shape.kind, a, b, mid)


def test_square_links_are_quarter_circles_or_straights():
    s = square(25)
    assert isinstance(link_geometry(s, 0, 2), Line) and isinstance(link_geometry(s, 1, 3), Line)
    ne = link_geometry(s, 0, 1)
    assert isinstance(ne, Arc) and ne.centre == (25.0, 0.0) and ne.radius == 12.5
    assert math.isclose(ne.angle, math.pi / 2)


def test_hexagon_arcs_two_apart_and_straights_three_apart():
    h = hexagon(10)
    for a in range(6):
        assert isinstance(link_geometry(h, a, (a + 3) % 6), Line)
        arc = link_geometry(h, a, (a + 2) % 6)
        assert isinstance(arc, Arc) and math.isclose(arc.radius, 15) and math.isclose(arc.angle, math.pi / 3)
        tight = link_geometry(h, a, (a + 1) % 6)
        assert math.isclose(tight.radius, 5) and math.isclose(tight.angle, 2 * math.pi / 3)


def _ends_from_d(d: str) -> tuple[tuple[float, float], tuple[float, float]]:
    nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return (nums[0], nums[1]), (nums[-2], nums[-1])


def test_lines_on_adjacent_squares_meet_at_identical_points():
    s = square(25)
    # a straight E-W on one tile, then on its east neighbour an arc W-S: the SVG paths share the point
    nb, offset, port = neighbour(s, 1)
    assert offset == (25.0, 0.0) and port == 3 and nb == s
    d1 = path_d(s, Link(3, 1), origin=(10.0, 20.0))
    d2 = path_d(s, Link(3, 2), origin=(10.0 + offset[0], 20.0 + offset[1]))
    assert _ends_from_d(d1)[1] == _ends_from_d(d2)[0] == (35.0, 32.5)
    # across every edge, the two tiles' ports are the same point
    for p in range(4):
        nb, (ox, oy), q = neighbour(s, p)
        px, py = nb.port(q)
        assert close(s.port(p), (px + ox, py + oy))


@pytest.mark.parametrize("shape", SHAPES, ids=IDS)
def test_neighbours_share_the_edge_and_its_midpoint(shape):
    for p in range(shape.ports):
        nb, (ox, oy), q = neighbour(shape, p)
        a0, a1 = shape.edge(p)
        b0, b1 = nb.edge(q)
        b0, b1 = (b0[0] + ox, b0[1] + oy), (b1[0] + ox, b1[1] + oy)
        assert (close(a0, b1) and close(a1, b0)), (p, q)  # the same edge, walked the other way
        n1, n2 = shape.outward(p), nb.outward(q)
        assert close(n1, (-n2[0], -n2[1]))


def _chain_closes(pieces) -> float:
    """pieces: [(primitive in world coordinates as (start, end, tangent_start, tangent_end))]; returns turning."""
    total = 0.0
    for i, (s0, e0, t0s, t0e) in enumerate(pieces):
        s1, _e1, t1s, _t1e = pieces[(i + 1) % len(pieces)]
        assert close(e0, s1, 1e-9), (i, e0, s1)
        assert close(t0e, t1s, 1e-9), (i, t0e, t1s)  # smooth: same direction across the edge
        total += math.atan2(t0s[0] * t0e[1] - t0s[1] * t0e[0], t0s[0] * t0e[0] + t0s[1] * t0e[1])
    return total


def _world_arc(shape, a, b, origin):
    g = link_geometry(shape, a, b)
    ox, oy = origin
    return ((g.start[0] + ox, g.start[1] + oy), (g.end[0] + ox, g.end[1] + oy), tangent(g, 0), tangent(g, 1))


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_a_ring_of_six_hexagon_arcs_closes(orientation):
    """Six hexagons around a centre one, each with an arc between its two ring neighbours (ports 2 apart)."""
    h = hexagon(10, orientation)
    ring = [neighbour(h, k)[1] for k in range(6)]  # origins of the 6 tiles around the centre
    pieces = []
    for k in range(6):
        origin = ring[k]
        nxt = ring[(k + 1) % 6]
        prev = ring[(k - 1) % 6]
        port_to = next(p for p in range(6) if close(_add(origin, neighbour(h, p)[1]), nxt))
        port_from = next(p for p in range(6) if close(_add(origin, neighbour(h, p)[1]), prev))
        assert (port_to - port_from) % 6 in (2, 4)
        pieces.append(_world_arc(h, port_from, port_to, origin))
    turning = _chain_closes(pieces)
    assert math.isclose(abs(turning), 2 * math.pi, abs_tol=1e-9)


def test_six_triangle_arcs_around_a_vertex_close_into_a_circle():
    t = triangle(30)
    # walk around the apex of an up triangle: cross its left edge, then keep turning the same way
    shape, origin = t, (0.0, 0.0)
    apex = t.vertices[0]
    entry = 0  # enter the first tile through its right edge (port 0)
    pieces = []
    for _ in range(6):
        # the other edge of this tile that touches the apex
        ports = [p for p in range(3) if any(close(_add(origin, v), apex) for v in shape.edge(p))]
        exit_ = next(p for p in ports if p != entry)
        pieces.append(_world_arc(shape, entry, exit_, origin))
        g = link_geometry(shape, entry, exit_)
        assert close(_add(origin, g.centre), apex) and math.isclose(g.radius, 15)
        nb, off, port = neighbour(shape, exit_)
        shape, origin, entry = nb, _add(origin, off), port
    assert close(origin, (0.0, 0.0)) and shape == t  # back on the first tile
    assert math.isclose(abs(_chain_closes(pieces)), 2 * math.pi, abs_tol=1e-9)


def _add(a, b):
    return (a[0] + b[0], a[1] + b[1])


def test_spokes_run_from_the_centre_to_the_ports():
    for shape in SHAPES:
        for p in range(shape.ports):
            g = geometry(shape, Spoke(p))
            assert close(g.start, shape.centre) and close(g.end, shape.port(p))
            n = shape.outward(p)
            assert close(tangent(g, 1), n, 1e-9)  # perpendicular to the edge
    stub = geometry(square(20), Stub(2, reach=0.5))
    assert stub.start == (10.0, 20.0) and stub.end == (10.0, 15.0)


def test_extend_runs_straight_on_into_the_bleed():
    d = path_d(square(20), Link(0, 1), extend=3.0)
    assert d.startswith("M10 -3 L10 0 A10 10 0 0 0 20 10") and d.endswith("L23 10")


def test_draw_tile_outlines_under_colour_layers_in_order_and_butt_ends():
    c = Canvas(20, 20, 0)
    style = PathStyle(width=4, colour="#ff0000", outline="#000000", outline_width=0.5)
    draw_tile(c, square(20), [Link(0, 2, layer=1), Link(1, 3, layer=0), Hub(), Stub(1, cap="bar")], style)
    svg = c.to_string()
    strokes = re.findall(r'<path d="([^"]+)"[^>]*stroke="(#[0-9a-f]+)"[^>]*stroke-width="([\d.]+)"', svg)
    # layer 0 (E-W, the stub) outlines then colours, then layer 1 (N-S) on top: N-S crosses over E-W
    assert [(col, w) for _, col, w in strokes] == [("#000000", "5"), ("#000000", "5"), ("#ff0000", "4"),
                                                  ("#ff0000", "4"), ("#000000", "5"), ("#ff0000", "4")]
    assert strokes[-1][0] == "M10 0 L10 20"
    assert 'stroke-linecap="butt"' in svg and "<circle" in svg and "<polygon" in svg


def test_bad_ports_are_refused_with_a_message():
    with pytest.raises(ValueError, match="port 4 is not a port of a square; expected 0..3"):
        link_geometry(square(10), 0, 4)
    with pytest.raises(ValueError, match="two different ports"):
        link_geometry(hexagon(10), 2, 2)
    with pytest.raises(ValueError, match="expected square, hexagon or triangle"):
        tile_shape("circle", 10)
