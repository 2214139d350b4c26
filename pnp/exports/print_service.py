"""Plan an order at a print-on-demand service: which product each component is, the files to upload.

`plan_print_service(service, components)` is pure: it reads the service's specification
(pnp/data/print_services.yaml, see pnp.data.services) and plain component data, and returns

- the image files to make, each with its product, pixel size, trim box inside the image, dpi,
  turn (a landscape component on a portrait product), copies and the file name the service's
  upload is organised by;
- the problems: a size the service does not make (with the nearest product), more cards than
  it puts in one deck, less bleed than it asks, figures not confirmed at the service.

The build renders the files (a face scaled so its trim fills the trim box, bleed beyond it,
dpi written into the PNG) and writes the problems into its report.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from pnp.data.services import Geometry, Product, Service, geometry, load_services

KIND_TO_PRODUCT = {"card": "card", "aid": "card", "board": "board", "tile": "chit", "token": "chit", "piece": "chit"}
"""pnp component kinds -> the product family a service makes them as."""

SIZE_TOLERANCE_MM = 1.0
"""A component is a product when each side differs by at most this (63 x 88 mm cards are 2.5 x 3.5 in)."""

BLEED_TOLERANCE_MM = 0.05


@dataclass(frozen=True)
class Face:
    name: str
    count: int
    image: str = ""
    """What the build renders this face from (e.g. its SVG path); passed through untouched."""


@dataclass(frozen=True)
class Component:
    id: str
    kind: str
    shape: str
    trim_mm: tuple[float, float]
    bleed_mm: float
    faces: tuple[Face, ...]
    back: str | None = None
    """The shared back's image source, None for a one-sided component."""

    @property
    def copies(self) -> int:
        return sum(f.count for f in self.faces)


@dataclass(frozen=True)
class PlannedFile:
    component: str
    product: str
    role: Literal["face", "back"]
    face: str
    source: str
    path: str
    px: tuple[int, int]
    trim_box: tuple[int, int, int, int]
    """Where the component's trim goes inside the image, in pixels: left, top, right, bottom."""
    dpi: int
    rotate: int
    """0, or 90 when the component is turned to lie on the product (landscape art on a portrait card)."""
    copies: int
    format: str
    colour: str


@dataclass(frozen=True)
class PlanProblem:
    component: str
    severity: Literal["error", "warning"]
    message: str

    def __str__(self) -> str:
        where = f"{self.component}: " if self.component else ""
        return f"{self.severity}: {where}{self.message}"


@dataclass(frozen=True)
class ServicePlan:
    service: str
    files: tuple[PlannedFile, ...]
    problems: tuple[PlanProblem, ...]
    products: dict[str, str]
    """Component id -> product id, for the components the service makes."""

    @property
    def errors(self) -> tuple[PlanProblem, ...]:
        return tuple(p for p in self.problems if p.severity == "error")


@dataclass(frozen=True)
class _Match:
    product: Product
    geo: Geometry
    rotate: int
    diff: float


def plan_print_service(service: Service | str, components: Iterable[Component], *,
                       tolerance_mm: float = SIZE_TOLERANCE_MM) -> ServicePlan:
    """Files to make and problems for `components` at `service` (a Service, or a shipped service's id)."""
    svc_id = service if isinstance(service, str) else service.name
    svc = load_services()[service] if isinstance(service, str) else service
    files: list[PlannedFile] = []
    problems: list[PlanProblem] = []
    products: dict[str, str] = {}
    if svc.unconfirmed:
        problems.append(PlanProblem("", "warning", svc.unconfirmed))
    for comp in components:
        family = KIND_TO_PRODUCT.get(comp.kind)
        if family is None:
            problems.append(PlanProblem(comp.id, "error", f"kind {comp.kind!r} is not something a print service makes; "
                                                          f"expected one of {sorted(KIND_TO_PRODUCT)}"))
            continue
        match, nearest = _find(svc, comp, family, tolerance_mm)
        if match is None:
            problems.append(PlanProblem(comp.id, "error", _not_offered(svc, comp, family, nearest, tolerance_mm)))
            continue
        p = match.product
        products[comp.id] = p.id
        problems.extend(_checks(svc, comp, match))
        for index, face in enumerate(comp.faces, start=1):
            files.append(_file(svc, comp, match, "face", face.name, face.image, face.count,
                               svc.naming.face.format(component=comp.id, index=index, face=_slug(face.name), product=p.id)))
        if comp.back is not None:
            files.append(_file(svc, comp, match, "back", "back", comp.back, comp.copies,
                               svc.naming.back.format(component=comp.id, index=0, face="back", product=p.id)))
        names = [f.path for f in files]
        if len(names) != len(set(names)):
            raise ValueError(f"service {svc_id}: naming gives two files the same name for {comp.id}")
    return ServicePlan(service=svc_id, files=tuple(files), problems=tuple(problems), products=products)


def _find(svc: Service, comp: Component, family: str, tol: float) -> tuple[_Match | None, _Match | None]:
    """(best product within tolerance, nearest product of the same family and shape)."""
    w, h = comp.trim_mm
    candidates: list[_Match] = []
    for order, p in enumerate(svc.products):
        if p.kind != family or p.shape != comp.shape:
            continue
        g = geometry(svc, p)
        pw, ph = g.trim_mm
        for rotate, (cw, ch) in ((0, (w, h)), (90, (h, w))):
            if rotate and abs(w - h) < 1e-9:
                continue
            candidates.append(_Match(p, g, rotate, max(abs(cw - pw), abs(ch - ph))))
    if not candidates:
        return None, None
    def rank(m: _Match) -> tuple:  # confirmed figures first, then the closest, upright, the file's order
        return (not m.product.confirmed, round(m.diff, 6), m.rotate, svc.products.index(m.product))

    within = [m for m in candidates if m.diff <= tol]
    nearest = min(candidates, key=lambda m: (round(m.diff, 6), not m.product.confirmed, m.rotate))
    return (min(within, key=rank) if within else None), nearest


def _not_offered(svc: Service, comp: Component, family: str, nearest: _Match | None, tol: float) -> str:
    w, h = comp.trim_mm
    text = (f"{_mm(w)} x {_mm(h)} mm {comp.shape} {family} is not a size {svc.name} makes "
            f"(each side within {_mm(tol)} mm)")
    if nearest is None:
        return text + f"; {svc.name} lists no {comp.shape} {family} product"
    g = nearest.geo
    text += f"; nearest: {nearest.product.name} ({nearest.product.id}) {_mm(g.trim_mm[0])} x {_mm(g.trim_mm[1])} mm"
    if family == "board":
        holding = []
        for p in svc.products:
            if p.kind != "board" or p.shape != comp.shape:
                continue
            pw, ph = geometry(svc, p).trim_mm
            if (pw >= w and ph >= h) or (pw >= h and ph >= w):
                holding.append((pw * ph, svc.products.index(p), p, pw, ph))
        if holding:
            _, _, p, pw, ph = min(holding)
            text += f"; smallest that holds it: {p.name} ({p.id}) {_mm(pw)} x {_mm(ph)} mm"
    return text


def _checks(svc: Service, comp: Component, m: _Match) -> list[PlanProblem]:
    out: list[PlanProblem] = []
    p, g = m.product, m.geo
    pw, ph = g.trim_mm if not m.rotate else (g.trim_mm[1], g.trim_mm[0])
    w, h = comp.trim_mm
    if m.diff > 0.05:
        out.append(PlanProblem(comp.id, "warning",
                               f"{_mm(w)} x {_mm(h)} mm printed as {p.name} ({p.id}) {_mm(pw)} x {_mm(ph)} mm: "
                               f"the face is scaled {_pct(pw / w)} x {_pct(ph / h)}"))
    if m.rotate:
        out.append(PlanProblem(comp.id, "warning", f"landscape {_mm(w)} x {_mm(h)} mm turned 90 degrees onto "
                                                   f"{p.name} ({p.id})"))
    need = max(g.bleed_mm)
    if comp.bleed_mm + BLEED_TOLERANCE_MM < need:
        out.append(PlanProblem(comp.id, "warning",
                               f"{_mm(comp.bleed_mm)} mm of bleed, {svc.name} asks {_mm(need)} mm: the outer "
                               f"{_mm(need - comp.bleed_mm)} mm of each file must be filled (extend the art, or "
                               f"give the component {_mm(math.ceil(need * 10) / 10)} mm of bleed)"))
    limit = p.max_count or (svc.max_cards if p.kind == "card" else None)
    if limit is not None and comp.copies > limit:
        out.append(PlanProblem(comp.id, "error",
                               f"{comp.copies} copies, more than the {limit} {svc.name} makes in one {p.name}; "
                               f"expected at most {limit} (split it into {math.ceil(comp.copies / limit)})"))
    if not p.confirmed:
        note = f" ({p.note})" if p.note else ""
        out.append(PlanProblem(comp.id, "warning",
                               f"{p.name} ({p.id}) figures are not confirmed at {svc.name}{note}; "
                               f"check the file against its template"))
    if comp.back is None:
        out.append(PlanProblem(comp.id, "warning", f"no back image: {svc.name} prints {p.name} two-sided; "
                                                   f"upload a back (or the face again)"))
    return out


def _file(svc: Service, comp: Component, m: _Match, role: Literal["face", "back"], face: str, source: str, copies: int,
          path: str) -> PlannedFile:
    return PlannedFile(component=comp.id, product=m.product.id, role=role, face=face, source=source, path=path,
                       px=m.geo.px, trim_box=m.geo.trim_box, dpi=m.geo.dpi, rotate=m.rotate, copies=copies,
                       format=svc.formats[0], colour=svc.colour)


def components_from_manifest(manifest: dict) -> list[Component]:
    """Plan input from today's manifest.json (one entry per distinct face, grouped by component).

    A component whose cards have different backs (backs chosen per row) becomes one deck per back,
    `<component>-<back>`: a service prints one back per deck, and each card must get its own."""
    groups: dict[str, list[dict]] = {}
    for entry in manifest["components"]:
        groups.setdefault(entry["component"], []).append(entry)
    out = []
    for cid, entries in groups.items():
        first = entries[0]
        sizes = {(tuple(e["trim_mm"]), e["bleed_mm"], e["shape"]) for e in entries}
        if len(sizes) > 1:
            raise ValueError(f"component {cid}: faces of different sizes or shapes; expected one size per component")
        backs = list(dict.fromkeys(e.get("back") for e in entries))  # in the order of the faces
        for back in backs:
            part = [e for e in entries if e.get("back") == back]
            deck = cid
            if len(backs) > 1:
                stem = str(back or "no-back").rpartition("/")[2].removesuffix(".svg")
                deck = f"{cid}-{_slug(stem.removeprefix(cid + '-'))}"
            out.append(Component(
                id=deck, kind=first["kind"], shape=first["shape"], trim_mm=tuple(first["trim_mm"]),
                bleed_mm=first["bleed_mm"], back=back,
                faces=tuple(Face(name=str(e["key"]), count=e["count"], image=e["face"]) for e in part)))
    return out


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-") or "face"


def _mm(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _pct(ratio: float) -> str:
    return f"{ratio * 100:.1f}%"
