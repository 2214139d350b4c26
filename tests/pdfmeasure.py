"""Reading the produced PDFs the way a ruler would: where each face was placed, where the lines are."""

from __future__ import annotations

from dataclasses import dataclass

import pdfplumber
from pypdf import PdfReader
from pypdf.generic import ContentStream

MM = 72 / 25.4


@dataclass
class Placement:
    form: str
    x: float  # pt, lower-left of the form's box after the page transform
    y: float
    width: float  # pt, the form's box size (trim + 2 * bleed)
    height: float
    rotated: bool
    clip: list[tuple[float, float]] | None = None  # the clip path in force, page coordinates (pt)
    turn: int = 0  # degrees counter-clockwise the form is drawn turned: 0, 90, 180 or 270


def _mul(a, b):
    a1, b1, c1, d1, e1, f1 = a
    a2, b2, c2, d2, e2, f2 = b
    return (a1 * a2 + b1 * c2, a1 * b2 + b1 * d2, c1 * a2 + d1 * c2, c1 * b2 + d1 * d2,
            e1 * a2 + f1 * c2 + e2, e1 * b2 + f1 * d2 + f2)


def placements(reader: PdfReader, page_index: int) -> list[Placement]:
    """Every form XObject drawn on the page, with its box in page coordinates."""
    page = reader.pages[page_index]
    xobjects = page["/Resources"].get("/XObject", {})
    ops = ContentStream(page.get_contents(), reader).operations
    ctm = (1, 0, 0, 1, 0, 0)
    clip = None
    stack = []
    out = []
    path: list[tuple[float, float]] = []

    def page_xy(x, y):
        a, b, c, d, e, f = ctm
        return (a * x + c * y + e, b * x + d * y + f)

    for operands, op in ops:
        if op == b"q":
            stack.append((ctm, clip))
        elif op == b"Q":
            ctm, clip = stack.pop()
        elif op == b"cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            path = [page_xy(x, y), page_xy(x + w, y), page_xy(x + w, y + h), page_xy(x, y + h)]
        elif op == b"m":
            path = [page_xy(float(operands[0]), float(operands[1]))]
        elif op == b"l":
            path.append(page_xy(float(operands[0]), float(operands[1])))
        elif op in (b"W", b"W*"):
            clip = list(path)
        elif op == b"Do":
            name = str(operands[0])
            xo = xobjects[name].get_object()
            x0, y0, x1, y1 = (float(v) for v in xo["/BBox"])
            a, b, c, d, e, f = ctm
            corners = [(a * x + c * y + e, b * x + d * y + f) for x, y in ((x0, y0), (x1, y1))]
            xs, ys = [p[0] for p in corners], [p[1] for p in corners]
            turn = 90 if b > 0 else 270 if b < 0 else 180 if a < 0 else 0
            out.append(Placement(name, min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys), a < 0, clip, turn))
    return out


def page_lines(path, page_index: int) -> list[tuple[float, float, float, float]]:
    """Straight lines drawn on the page itself (crop marks, cut lines), in pt, y up."""
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[page_index]
        return [(ln["x0"], ln["y0"], ln["x1"], ln["y1"]) for ln in page.lines]


def page_text(path, page_index: int) -> str:
    with pdfplumber.open(path) as pdf:
        return pdf.pages[page_index].extract_text() or ""


def missing_resources(path) -> list[str]:
    """Names a content stream uses (alpha states, shadings, XObjects, fonts) that its own resource
    dictionary does not define: each page, and each form XObject (recursively) in its own right."""
    import re

    from pypdf import PdfReader
    from pypdf.generic import IndirectObject

    kinds = {"gs": "/ExtGState", "sh": "/Shading", "Do": "/XObject", "Tf": "/Font"}
    pattern = re.compile(rb"/([A-Za-z0-9_.+-]+)\s+(?:[-0-9.]+\s+)?(gs|sh|Do|Tf)\b")
    problems: list[str] = []
    seen: set[int] = set()

    def check(where: str, data: bytes, resources) -> None:
        resources = resources.get_object() if resources is not None else {}
        for name, op in set(pattern.findall(data)):
            kind = kinds[op.decode()]
            table = resources.get(kind)
            table = table.get_object() if table is not None else {}
            if "/" + name.decode() not in table:
                problems.append(f"{where}: {op.decode()} /{name.decode()} not in its own {kind}")
        for name, ref in (resources.get("/XObject") or {}).items():
            key = ref.idnum if isinstance(ref, IndirectObject) else id(ref)
            xo = ref.get_object()
            if key in seen or xo.get("/Subtype") != "/Form":
                continue
            seen.add(key)
            check(f"{where} form {name}", xo.get_data(), xo.get("/Resources"))

    for i, page in enumerate(PdfReader(path).pages):
        check(f"page {i + 1}", page.get_contents().get_data() if page.get_contents() else b"", page.get("/Resources"))
    return problems
