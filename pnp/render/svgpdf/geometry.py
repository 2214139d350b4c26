"""Path geometry in SVG user space: shapes and path data to paths, arcs to Béziers, paths under
a matrix, bounding boxes.

A path is flat, as it goes to PDF: (ops, nums), `ops` a string of operator letters and `nums`
the numbers they take, in order: "M" x y, "L" x y, "C" x1 y1 x2 y2 x y, "Z" (none) and
"R" x y w h (a plain rectangle, PDF's `re`). Flat because a face has thousands of numbers and
building a tuple per segment costs more than the drawing.
"""

from __future__ import annotations

import math

from pnp.render.svgpdf.values import Matrix

KAPPA = 4 * (math.sqrt(2) - 1) / 3  # control-point distance of a quarter circle of radius 1
ARGS = {"M": 2, "L": 2, "C": 6, "R": 4, "Z": 0}

Path = tuple[str, list]


def _round(nums: list[float]) -> list[float]:
    """Computed coordinates to 4 decimals (a ten-thousandth of a user unit): the same digits on
    every machine whatever the last bits of sin and cos (numbers read from the SVG stay as written)."""
    return [round(v, 4) + 0.0 for v in nums]


def rect(x: float, y: float, w: float, h: float) -> Path:
    return "R", [x, y, w, h]


def ellipse(cx: float, cy: float, rx: float, ry: float) -> Path:
    """Four cubic quarter arcs, clockwise on screen (y down) from the rightmost point, like `rect`."""
    kx, ky = rx * KAPPA, ry * KAPPA
    return "MCCCCZ", _round([cx + rx, cy,
                      cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry,
                      cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy,
                      cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry,
                      cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy])


def round_rect(x: float, y: float, w: float, h: float, rx: float, ry: float) -> Path:
    kx, ky = rx * KAPPA, ry * KAPPA
    r, b = x + w, y + h
    return "MLCLCLCLCZ", _round([x + rx, y, r - rx, y,
                          r - rx + kx, y, r, y + ry - ky, r, y + ry, r, b - ry,
                          r, b - ry + ky, r - rx + kx, b, r - rx, b, x + rx, b,
                          x + rx - kx, b, x, b - ry + ky, x, b - ry, x, y + ry,
                          x, y + ry - ky, x + rx - kx, y, x + rx, y])


def polyline(nums: list[float], closed: bool) -> Path:
    n = len(nums) // 2
    return "M" + "L" * (n - 1) + ("Z" if closed else ""), nums[:2 * n]


def arc(x1: float, y1: float, rx: float, ry: float, phi_deg: float, large: bool, sweep: bool,
        x2: float, y2: float, ops: list, nums: list) -> None:
    """Append an SVG elliptical arc as cubic pieces of at most 90° to (ops, nums), by the
    endpoint-to-centre conversion of the SVG implementation notes (radii scaled up when too small)."""
    if x1 == x2 and y1 == y2:
        return
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        ops.append("L")
        nums += (x2, y2)
        return
    phi = math.radians(phi_deg % 360)
    cos_p, sin_p = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    xp = cos_p * dx + sin_p * dy
    yp = -sin_p * dx + cos_p * dy
    lam = (xp * xp) / (rx * rx) + (yp * yp) / (ry * ry)
    if lam > 1:
        s = math.sqrt(lam)
        rx, ry = rx * s, ry * s
    num = rx * rx * ry * ry - rx * rx * yp * yp - ry * ry * xp * xp
    den = rx * rx * yp * yp + ry * ry * xp * xp
    coef = math.sqrt(max(num / den, 0.0)) if den else 0.0
    if large == sweep:
        coef = -coef
    cxp, cyp = coef * rx * yp / ry, -coef * ry * xp / rx
    cx = cos_p * cxp - sin_p * cyp + (x1 + x2) / 2
    cy = sin_p * cxp + cos_p * cyp + (y1 + y2) / 2
    ux, uy = (xp - cxp) / rx, (yp - cyp) / ry
    vx, vy = (-xp - cxp) / rx, (-yp - cyp) / ry
    theta = math.atan2(uy, ux)
    delta = math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)
    if sweep and delta < 0:
        delta += 2 * math.pi
    elif not sweep and delta > 0:
        delta -= 2 * math.pi
    pieces = max(1, math.ceil(abs(delta) / (math.pi / 2) - 1e-9))
    step = delta / pieces
    k = 4 / 3 * math.tan(step / 4)
    t = theta
    for _ in range(pieces):
        c0, s0 = math.cos(t), math.sin(t)
        t += step
        c1, s1 = math.cos(t), math.sin(t)
        # the piece on the unit circle, then scaled, rotated and moved onto the ellipse
        for ux_, uy_ in ((c0 - k * s0, s0 + k * c0), (c1 + k * s1, s1 - k * c1), (c1, s1)):
            ex, ey = ux_ * rx, uy_ * ry
            nums += (cos_p * ex - sin_p * ey + cx, sin_p * ex + cos_p * ey + cy)
        ops.append("C")
    nums[-2], nums[-1] = x2, y2  # land exactly on the end point


def path(commands: list[tuple[str, list[float]]]) -> Path:
    """Path commands (values.path_commands) as an absolute path: H/V as lines, S/T reflected,
    quadratics raised to cubics, arcs converted."""
    ops: list[str] = []
    nums: list[float] = []
    cx = cy = sx = sy = 0.0
    last_c = last_q = None  # control points to reflect for S and T
    for cmd, a in commands:
        up = cmd.upper()
        rel = cmd != up
        ox, oy = (cx, cy) if rel else (0.0, 0.0)
        nc = nq = None
        if up == "M":
            cx, cy = sx, sy = a[0] + ox, a[1] + oy
            ops.append("M")
            nums += (cx, cy)
        elif up == "L":
            cx, cy = a[0] + ox, a[1] + oy
            ops.append("L")
            nums += (cx, cy)
        elif up == "H":
            cx = a[0] + ox
            ops.append("L")
            nums += (cx, cy)
        elif up == "V":
            cy = a[0] + oy
            ops.append("L")
            nums += (cx, cy)
        elif up == "C":
            x2, y2, x, y = a[2] + ox, a[3] + oy, a[4] + ox, a[5] + oy
            ops.append("C")
            nums += (a[0] + ox, a[1] + oy, x2, y2, x, y)
            nc, cx, cy = (x2, y2), x, y
        elif up == "S":
            x1, y1 = (2 * cx - last_c[0], 2 * cy - last_c[1]) if last_c else (cx, cy)
            x2, y2, x, y = a[0] + ox, a[1] + oy, a[2] + ox, a[3] + oy
            ops.append("C")
            nums += (x1, y1, x2, y2, x, y)
            nc, cx, cy = (x2, y2), x, y
        elif up in ("Q", "T"):
            if up == "Q":
                qx, qy, x, y = a[0] + ox, a[1] + oy, a[2] + ox, a[3] + oy
            else:
                qx, qy = (2 * cx - last_q[0], 2 * cy - last_q[1]) if last_q else (cx, cy)
                x, y = a[0] + ox, a[1] + oy
            ops.append("C")
            nums += (cx + 2 / 3 * (qx - cx), cy + 2 / 3 * (qy - cy), x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), x, y)
            nq, cx, cy = (qx, qy), x, y
        elif up == "A":
            x, y = a[5] + ox, a[6] + oy
            arc(cx, cy, a[0], a[1], a[2], a[3] != 0, a[4] != 0, x, y, ops, nums)
            cx, cy = x, y
        elif up == "Z":
            ops.append("Z")
            cx, cy = sx, sy
        last_c, last_q = nc, nq
    return "".join(ops), _round(nums)


def segments(p: Path):
    """The path as (letter, numbers...) tuples, for reading it."""
    ops, nums = p
    i = 0
    for op in ops:
        n = ARGS[op]
        yield (op, *nums[i:i + n])
        i += n


def transformed(p: Path, m: Matrix) -> Path:
    """The path under matrix m (a rectangle stays one while m keeps the axes)."""
    a, b, c, d, e, f = m
    ops, nums = p
    out_ops: list[str] = []
    out: list[float] = []
    i = 0
    for op in ops:
        if op == "R":
            x, y, w, h = nums[i:i + 4]
            i += 4
            if b == 0 and c == 0:
                out_ops.append("R")
                out += (a * x + e, d * y + f, a * w, d * h)
            else:
                out_ops.append("MLLLZ")
                for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h)):
                    out += (a * px + c * py + e, b * px + d * py + f)
            continue
        out_ops.append(op)
        for _ in range(ARGS[op] // 2):
            px, py = nums[i], nums[i + 1]
            i += 2
            out += (a * px + c * py + e, b * px + d * py + f)
    return "".join(out_ops), _round(out)


def _cubic_extrema(p0: float, p1: float, p2: float, p3: float) -> list[float]:
    """Coordinates where a cubic Bézier's derivative is zero, within the segment."""
    a = -p0 + 3 * p1 - 3 * p2 + p3
    b = 2 * (p0 - 2 * p1 + p2)
    c = p1 - p0
    ts = []
    if abs(a) < 1e-12:
        if abs(b) > 1e-12:
            ts.append(-c / b)
    else:
        disc = b * b - 4 * a * c
        if disc >= 0:
            r = math.sqrt(disc)
            ts += [(-b + r) / (2 * a), (-b - r) / (2 * a)]
    out = []
    for t in ts:
        if 0 < t < 1:
            mt = 1 - t
            out.append(mt ** 3 * p0 + 3 * mt * mt * t * p1 + 3 * mt * t * t * p2 + t ** 3 * p3)
    return out


def bbox(p: Path) -> tuple[float, float, float, float] | None:
    """The exact bounding box (x0, y0, x1, y1) of the geometry (no stroke), None if empty."""
    xs: list[float] = []
    ys: list[float] = []
    px = py = 0.0
    for s in segments(p):
        k = s[0]
        if k == "R":
            xs += [s[1], s[1] + s[3]]
            ys += [s[2], s[2] + s[4]]
        elif k in ("M", "L"):
            px, py = s[1], s[2]
            xs.append(px)
            ys.append(py)
        elif k == "C":
            xs += _cubic_extrema(px, s[1], s[3], s[5]) + [s[5]]
            ys += _cubic_extrema(py, s[2], s[4], s[6]) + [s[6]]
            px, py = s[5], s[6]
    if not xs:
        return None
    return min(xs), min(ys), max(xs), max(ys)
