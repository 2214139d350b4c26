"""Print-shop output: one page per distinct face at trim + bleed, with how many copies each one makes."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from pnp.errors import warn
from pnp.layout.sheets.sheet import Placed, Sheet
from pnp.render.faces import ComponentFaces
from pnp.render.facespec import FaceSpec


@dataclass(frozen=True)
class ShopPage:
    """One page of the print-shop PDF: a distinct face, which side it is and how many copies to print of it
    (a back: the copies of every front it is behind)."""

    component: str
    face: FaceSpec
    side: str  # front | back
    count: int
    back_page: int = 0  # a front: the page of its back (0: none)


def print_shop_pages(components: list[ComponentFaces]) -> list[ShopPage]:
    """Every distinct face once, each back right after the first front it is behind."""
    pages: list[ShopPage] = []
    for cf in components:
        back_count: dict[int, int] = {}
        for f in cf.fronts:
            b = cf.back_of(f)
            if b is not None:
                back_count[id(b)] = back_count.get(id(b), 0) + f.count
        front_ids = {id(f) for f in cf.fronts}
        back_at: dict[int, int] = {}
        fronts_at: list[tuple[int, FaceSpec]] = []
        for face in cf.sides_in_print_order:
            if id(face) in back_count and id(face) not in front_ids:
                back_at[id(face)] = len(pages) + 1
                pages.append(ShopPage(cf.component_id, face, "back", back_count[id(face)]))
            else:
                fronts_at.append((len(pages), face))
                pages.append(ShopPage(cf.component_id, face, "front", face.count))
        for i, front in fronts_at:
            b = cf.back_of(front)
            if b is not None:
                pages[i] = ShopPage(cf.component_id, front, "front", front.count, back_at[id(b)])
    return pages


def print_shop_sheets(components: list[ComponentFaces], face_path, lang: str = "en") -> list[Sheet]:
    """One page per distinct face at trim + bleed, TrimBox and BleedBox set, each back right after the first
    front it is behind. How many copies each page makes is in print_shop_report (a deck of 41 cards with one
    back is 42 pages: what print-on-demand shops take, one file per distinct card and its quantity). `lang`: the
    edition's language (its components' names in the pages' titles)."""
    names = {cf.component_id: cf.component.display_name(lang) or cf.component_id for cf in components}
    sheets = []
    for page in print_shop_pages(components):
        face = page.face
        b = face.bleed
        pw, ph = face.width + 2 * b, face.height + 2 * b
        title = f"{names[page.component]} {face.label or face.key} {page.side} x{page.count}"
        sheet = Sheet(pw, ph, title, "print-shop", furniture=False, lang=lang,
                      trim_box=(b, b, b + face.width, b + face.height), bleed_box=(0.0, 0.0, pw, ph))
        sheet.placed.append(Placed(face_path(page.component, face), b, b, face.width, face.height, b,
                                   label=face.label, component=page.component))
        sheets.append(sheet)
    for i, s in enumerate(sheets, start=1):
        s.number, s.total = i, len(sheets)
    return sheets


REPORT_COLUMNS = ("page", "component", "face", "side", "count", "back_page", "trim_mm", "bleed_mm")


def print_shop_report(components: list[ComponentFaces]) -> str:
    """The print-shop PDF's pages as CSV: page, component, face, side, copies to print, the page of a front's
    back, the trim size and the bleed in mm."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(REPORT_COLUMNS)
    for n, p in enumerate(print_shop_pages(components), start=1):
        f = p.face
        w.writerow([n, p.component, f.key, p.side, p.count, p.back_page or "", f"{f.width:g}x{f.height:g}",
                    f"{f.bleed:g}"])
    return buf.getvalue()


def print_shop_summary(components: list[ComponentFaces]) -> str:
    """`N pages for M copies` for the build summary."""
    pages = print_shop_pages(components)
    copies = sum(p.count for p in pages if p.side == "front")
    return f"{len(pages)} page{'s' * (len(pages) != 1)} for {copies} cop{'ies' if copies != 1 else 'y'}"


def bleed_warnings(design, components: list[ComponentFaces], pdf_name: str) -> None:
    """A component printed with no bleed: its print-shop pages' TrimBox is their MediaBox, and a shop's cut
    that drifts shows white at the edge. One warning per component, at the design.yaml line setting its bleed
    (the component's `bleed:`, else `print.bleed:`, else the component)."""
    doc = design.source
    for cf in components:
        if cf.parent and cf.parent != cf.component_id and any(c.component_id == cf.parent for c in components):
            continue
        if not any(f.bleed <= 0 for f in cf.sides):
            continue
        cid = cf.parent or cf.component_id
        line = (doc.line(("components", cid, "bleed")) if cf.component.bleed is not None else
                doc.line(("print", "bleed")) or doc.line(("components", cid)))
        warn(doc.path, line, f"components.{cid}: bleed is 0, so the TrimBox of its pages in {pdf_name} is their "
             "MediaBox and a cut a little off shows white at the edge; expected a bleed (print shops ask for 3mm "
             "or 1/8 in: `bleed: 3mm`)")


def pdfx_of(data: bytes, version: str, title: str) -> bytes:
    """The print-shop PDF as PDF/X `version` ("x-1a" or "x-4"), or as it is with no version."""
    if not version:
        return data
    from pnp.layout.pdfx import to_pdfx  # lazy: 59 ms (pnp.layout.pdfx)

    return to_pdfx(data if isinstance(data, bytes) else bytes(data), version, title)[0]  # (a SpooledFile: whole)


def pdfx_warnings(design, components: list[ComponentFaces], version: str, pdf_name: str, data: bytes) -> None:
    """A warning for each face whose page of the PDF/X file had to be flattened into an image (X-1a: it uses
    transparency, which X-1a forbids; either: content pnp does not convert), at its component's design.yaml line."""
    from pnp.layout.pdfx import flattened_pages  # lazy: 48 ms (pnp.layout.pdfx)

    pages = print_shop_pages(components)
    where = {cf.component_id: cf.where for cf in components}
    for i in flattened_pages(data):
        p = pages[i]
        file, line = where[p.component]
        why = ("uses transparency (an opacity below 1 or a translucent image), which PDF/X-1a forbids" if
               version == "x-1a" else "draws what pnp does not convert to CMYK (an inline image, an ICC colour space)")
        fix = "expected opaque art, or `--pdfx-version x-4`, which keeps transparency and vectors" if \
            version == "x-1a" else "expected art in plain RGB colours and images"
        warn(file or design.source.path, line, f"components.{p.component}: {p.side} `{p.face.key}` {why}: page "
             f"{i + 1} of {pdf_name} is that face flattened into one CMYK image; {fix}")
