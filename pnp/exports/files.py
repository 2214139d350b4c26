"""The export files of a built design: PNG faces, Tabletop Simulator, print services, the print-and-play kit.

Made on demand (`pnp export png|tts|print-service|kit`, or `pnp build --export ... / --kit`),
each from what the build already made (faces' SVG, sheets, rulebooks), through the cache:

- `png/<component>-<face>.png`: every face at 300 dpi, bleed included (as the SVG); shaped
  pieces are transparent outside their outline (pnp.render.raster).
- `tts/<design>.json`: a Tabletop Simulator saved object (copy it with the `tts/` folder into
  TTS's Saved Objects folder) holding the whole game: decks from 10 x 7 sheets
  (`tts/<deck>-<n>.png`, per-type backs), boards, tiles and tokens at their real size and
  shape, pieces in bags with their counts, the rulebooks as PDFs (pnp.exports.tts plans it).
  Images are addressed by file:/// paths into the output folder, or through `--base-url`.
- `print/<service>/...`: one image per distinct face and back at the service's pixel size,
  bleed and dpi (written in the PNG), named as its upload is organised, and `report.txt` /
  `report.json`: the product each component becomes, copies to order, what the service
  cannot make (pnp.exports.print_service plans it from pnp/data/print_services.yaml).
- `<design>-kit-<lang>-<paper>.pdf`: one PDF to share: cover, how to print and cut, the
  rulebook, every component sheet, bookmarked per section (pnp.exports.kit); with
  `ink_saver`, also `<design>-kit-ink-saver-<lang>-<paper>.pdf` whose sheets have their
  large fills lightened (pnp.render.svgpdf.ink), lines and text kept, still vector.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import asdict, replace
from functools import partial

from markupsafe import escape

from pnp import products
from pnp.cache import Cache
from pnp.render import fonts
from pnp.render.faces import ComponentFaces
from pnp.render.facespec import FaceSpec
from pnp.render.svg import wrap_fragment

TTS_DPI = 150


def png_faces(components: list[ComponentFaces], svgs: dict[str, str], face_path, cache: Cache,
              resources=None) -> dict[str, bytes]:
    """{"png/<name>.png": PNG bytes} for every face, rasterised on all cores, cached by content."""
    from pnp.render.raster import DPI, MAX_PIXELS, Face, raster_faces  # lazy: 12 ms (pnp.render.raster)

    faces = {}
    for cf in components:
        for face in cf.sides:
            w, h = ((face.width + 2 * face.bleed) / 25.4 * DPI, (face.height + 2 * face.bleed) / 25.4 * DPI)
            if w * h > MAX_PIXELS:  # (an allowed board of 2 m: 558 MP at 300 dpi)
                raise cf.error(f"a face of {face.width + 2 * face.bleed:g} x {face.height + 2 * face.bleed:g} mm "
                               f"is {w * h / 1e6:.0f} MP as a PNG at {DPI} dpi, more than the "
                               f"{MAX_PIXELS // 1_000_000} MP an image may have; expected a face of at most about "
                               f"{(MAX_PIXELS / (DPI / 25.4) ** 2) ** 0.5:.0f} x "
                               f"{(MAX_PIXELS / (DPI / 25.4) ** 2) ** 0.5:.0f} mm for `pnp export png` (the print "
                               "sheets split a board over pages)")
            path = face_path(cf.component_id, face)
            name = "png/" + path.removeprefix("svg/").removesuffix(".svg") + ".png"
            faces[name] = Face.of(face, svgs[path], resources=resources)
    return dict(raster_faces(faces, cache=cache))


def _faces_by_path(components: list[ComponentFaces], face_path) -> dict:
    """"svg/<component>-<key>.svg" -> its FaceSpec."""
    return {face_path(cf.component_id, f): f for cf in components for f in cf.sides}


# --- Tabletop Simulator --------------------------------------------------------------------------------


def tts_export(manifest: dict, components: list[ComponentFaces], svgs: dict[str, str], face_path,
               rulebooks: list[tuple[str, str]], base: str, cache: Cache,
               resources=None, lang: str = "en") -> tuple[dict[str, bytes], list[str]]:
    """({"tts/...": bytes}, problems): the saved object `tts/<design>.json` and every image it names.

    `manifest` is the build's (pnp.build.manifest); `rulebooks` (language, PDF file name in the
    design's output folder); `base` the folder (file:/// URLs) or http(s) address the images are at; `lang` the
    language of the components' names.
    """
    from pnp.exports.tts import (  # lazy: 23 ms (pnp.exports.tts)
        dumps,
        game_from_manifest,
        plain_back,
        plan_tts,
        saved_object,
    )
    from pnp.render.raster import Face, Sheet, raster_faces, render_sheets  # lazy: 12 ms (pnp.render.raster)

    names = {cf.component_id: cf.component.display_name(lang) or cf.component_id for cf in components}
    labels = {face_path(cf.component_id, f): f.label for cf in components for f in cf.fronts if f.label}
    game = game_from_manifest(manifest, rulebooks=rulebooks, names=names, labels=labels,
                              same_backs=_same_backs(components, svgs, face_path))
    plan = plan_tts(game, dpi=TTS_DPI)
    specs = _faces_by_path(components, face_path)
    by_stem = {p.removeprefix("svg/").removesuffix(".svg"): p for p in specs}
    plain = {plain_back(cf.component_id): cf for cf in components if cf.fronts}

    def face(stem: str, px=None) -> Face:
        if stem not in by_stem and stem in plain:
            return _plain_back_face(plain[stem], manifest.get("title") or manifest["design"], px, resources)
        path = by_stem[stem]
        return Face.of(specs[path], svgs[path], px, resources=resources)

    out: dict[str, bytes] = {}
    sheets = []
    for s in plan.sheets:
        cells = [face(k) for k in s.slots] + [None] * (s.hidden_slot - len(s.slots)) + [face(s.back)]
        sheets.append(Sheet(tuple(cells), s.cols, s.rows, s.cell_px))
    for s, image in zip(plan.sheets, render_sheets(sheets, TTS_DPI, cache=cache)):
        out[s.file] = image
    singles = {img.file: face(img.image, img.px) for img in plan.images}
    out.update(raster_faces(singles, TTS_DPI, trim=True, cache=cache))
    out[f"tts/{manifest['design']}.json"] = dumps(saved_object(plan, base)).encode("utf-8")
    return out, list(plan.problems)


def _same_backs(components: list[ComponentFaces], svgs: dict[str, str], face_path) -> dict[str, str]:
    """Back SVG path -> the first back of its component drawn the same (its SVG equal but for the comment naming
    the row it was filled from), for backs that differ by name only."""
    comment = re.compile(r"<!-- made by pnp from .*? -->")
    out: dict[str, str] = {}
    for cf in components:
        first: dict[str, str] = {}
        for back in cf.backs:
            path = face_path(cf.component_id, back)
            if path in svgs:
                out[path] = first.setdefault(comment.sub("", svgs[path]), path)
    return out


def _plain_back_face(cf: ComponentFaces, title: str, px, resources):
    """A plain back for a deck of cards that has none: dark grey with the game's title, at the cards' size."""
    from pnp.render.raster import Face  # lazy: 12 ms (pnp.render.raster)

    front = cf.fronts[0]
    w, h = front.width, front.height
    size = min(w, h) / 9
    fragment = (f'<rect x="0" y="0" width="{w:g}" height="{h:g}" fill="#3b4048"/>'
                f'<rect x="{w * 0.08:g}" y="{w * 0.08:g}" width="{w * 0.84:g}" height="{h - w * 0.16:g}" rx="2" '
                f'fill="none" stroke="#9aa3ad" stroke-width="0.6"/>'
                f'<text x="{w / 2:g}" y="{h / 2 + size / 3:g}" font-size="{size:g}" text-anchor="middle" '
                f'fill="#d9dee4" font-family="DejaVu Sans">{escape(title[:40])}</text>')
    svg = wrap_fragment(fragment, w, h, 0.0)
    spec = FaceSpec(key="plain-back", width=w, height=h, bleed=0.0, paint=lambda: svg)
    return Face.of(spec, svg, px, resources=resources)


# --- print services ------------------------------------------------------------------------------------


def print_service_export(manifest: dict, components: list[ComponentFaces], svgs: dict[str, str], face_path,
                         service: str, cache: Cache, resources=None) -> tuple[dict[str, bytes], list[str]]:
    """({"print/<service>/...": bytes}, problems): one image per planned file and the reports."""
    from pnp.data.services import load_services  # lazy: 145 ms (pnp.data.services)
    from pnp.exports.print_service import (  # lazy: 110 ms (pnp.exports.print_service)
        components_from_manifest,
        plan_print_service,
    )
    from pnp.render.raster import Face, raster_faces  # lazy: 12 ms (pnp.render.raster)

    plan = plan_print_service(service, components_from_manifest(manifest))
    specs = _faces_by_path(components, face_path)
    folder = f"print/{service}/"
    pages: dict[str, Face] = {}
    placing = {}
    for f in plan.files:
        spec = specs[f.source]
        box_w, box_h = f.trim_box[2] - f.trim_box[0], f.trim_box[3] - f.trim_box[1]
        if f.rotate:  # the face is drawn upright, then turned onto the product
            box_w, box_h = box_h, box_w
        sx, sy = box_w / spec.width, box_h / spec.height  # px per mm: the trim fills the trim box exactly
        page_px = (round((spec.width + 2 * spec.bleed) * sx), round((spec.height + 2 * spec.bleed) * sy))
        pages[f.path] = Face(svgs[f.source], float(spec.bleed), False, page_px, resources)
        placing[f.path] = (f, round(spec.bleed * sx), round(spec.bleed * sy))
    out: dict[str, bytes] = {}
    by_dpi: dict[int, dict[str, Face]] = {}
    for f in plan.files:
        by_dpi.setdefault(f.dpi, {})[f.path] = pages[f.path]
    for dpi, faces in sorted(by_dpi.items()):
        for path, image in raster_faces(faces, dpi, cache=cache):
            f, bx, by = placing[path]
            out[folder + path] = cache.cached("print-service", products.PRINT_SERVICE_IMAGE.key(
                                                  raster=image, px=f.px, trim_box=f.trim_box, rotate=f.rotate,
                                                  dpi=f.dpi, bleed_x=bx, bleed_y=by),
                                              partial(_service_image, image, f, bx, by))
    svc = load_services()[service]
    report = {
        "service": service, "name": svc.name, "url": svc.url, "dpi": svc.dpi,
        "products": plan.products,
        "files": [{"path": f.path, "component": f.component, "product": f.product, "role": f.role, "face": f.face,
                   "px": list(f.px), "trim_box": list(f.trim_box), "dpi": f.dpi, "rotate": f.rotate,
                   "copies": f.copies} for f in plan.files],
        "problems": [{"component": p.component, "severity": p.severity, "message": p.message} for p in plan.problems],
    }
    out[folder + "report.json"] = (json.dumps(report, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    out[folder + "report.txt"] = _service_report_text(report).encode("utf-8")
    return out, [f"{service}: {p}" for p in plan.problems if p.severity == "error"]


def _service_image(page_png: bytes, f, bx: int, by: int) -> bytes:
    """The face's page (trim + its own bleed, at the trim box's scale) placed so its trim lands on the
    trim box; bleed the service wants beyond the art's own is the edge pixels repeated. RGB, dpi set."""
    from PIL import Image  # lazy: 14 ms (PIL)

    page = Image.open(io.BytesIO(page_png)).convert("RGB")
    left, top = f.trim_box[0], f.trim_box[1]
    width, height = f.px
    if f.rotate:  # work upright: the product's box turned back (a quarter turn clockwise takes the
        width, height = height, width  # upright (x, y) to (height - 1 - y, x) on the product)
        left, top = f.trim_box[1], f.px[0] - f.trim_box[2]
    ox, oy = left - bx, top - by
    img = Image.new("RGB", (width, height), "white")
    img.paste(page, (ox, oy))
    right, bottom = ox + page.width, oy + page.height
    if ox > 0:
        img.paste(img.crop((ox, 0, ox + 1, height)).resize((ox, height)), (0, 0))
    if right < width:
        img.paste(img.crop((right - 1, 0, right, height)).resize((width - right, height)), (right, 0))
    if oy > 0:
        img.paste(img.crop((0, oy, width, oy + 1)).resize((width, oy)), (0, 0))
    if bottom < height:
        img.paste(img.crop((0, bottom - 1, width, bottom)).resize((width, height - bottom)), (0, bottom))
    if f.rotate:
        img = img.transpose(Image.Transpose.ROTATE_270)  # a quarter turn clockwise
    from pnp.render.raster import png_bytes  # lazy: 12 ms (pnp.render.raster)

    raw, stride = img.tobytes(), 3 * img.width  # PNG rows: a filter byte (0, none) before each, as raster's
    rows = b"".join(b"\x00" + raw[y * stride:(y + 1) * stride] for y in range(img.height))
    return png_bytes(rows, img.width, img.height, False, f.dpi)


def _service_report_text(report: dict) -> str:
    lines = [f"Print service: {report['name']} ({report['url']}), {report['dpi']} dpi", ""]
    errors = [p for p in report["problems"] if p["severity"] == "error"]
    warnings = [p for p in report["problems"] if p["severity"] == "warning"]
    lines.append("Products:")
    for cid, product in report["products"].items():
        copies = sum(f["copies"] for f in report["files"] if f["component"] == cid and f["role"] == "face")
        lines.append(f"  {cid}: {product}, {copies} copies")
    lines.append("")
    lines.append(f"Files ({len(report['files'])}), each with the copies to order:")
    for f in report["files"]:
        turn = ", turned 90 degrees" if f["rotate"] else ""
        lines.append(f"  {f['path']}  {f['px'][0]}x{f['px'][1]} px at {f['dpi']} dpi, x{f['copies']}{turn}")
    for title, items in (("Cannot make", errors), ("Warnings", warnings)):
        lines.append("")
        lines.append(f"{title} ({len(items)}):" if items else f"{title}: none")
        lines += [f"  {p['component'] + ': ' if p['component'] else ''}{p['message']}" for p in items]
    return "\n".join(lines) + "\n"


# --- the print-and-play kit ----------------------------------------------------------------------------


def _whole(pdf) -> bytes:
    """A sheets PDF as bytes (one written to a file, pnp.spooled.SpooledFile, read whole: the kit merges it)."""
    return pdf if isinstance(pdf, bytes) else bytes(pdf)


def kit_files(design, paper: str, sheets: list, sheets_pdf: bytes, rulebooks: dict[str, bytes],
              components: list[ComponentFaces], svgs: dict[str, str], face_path, cache: Cache, *,
              rules_paper: str = "a4", ink_saver: bool = False, resources=None) -> dict[str, bytes]:
    """{"<design>-kit-<lang>-<paper>.pdf": bytes} for every rulebook language (one kit, without rules, for a
    design that has none); with `ink_saver`, the `-kit-ink-saver-` versions too. `sheets` is the sheet
    plan `sheets_pdf` was drawn from; `rulebooks` language -> that rulebook's PDF, on `rules_paper`."""
    from pnp.exports.kit import KitParts, kit_facts  # lazy: 5.6 ms (pnp.exports.kit)
    from pnp.layout import pdf as pdf_layout  # lazy: 138 ms (pnp.layout)
    from pnp.render.svgpdf.ink import ink_saver as saver  # lazy: 80 ms (pnp.render.svgpdf.ink)

    meta, p = design.meta, design.print
    pl = meta.players
    players = str(pl.min) if pl.min == pl.max else f"{pl.min}-{pl.max}"
    variants = [False, True] if ink_saver else [False]

    def thumbs(ink: bool) -> list:  # one face of each component for the cover (compiled only when drawn)
        faces = [pdf_layout.compile_face(svgs[face_path(cf.component_id, cf.fronts[0])], cache, resources)
                 for cf in components if cf.fronts]
        return [saver(f) for f in faces] if ink else faces
    pdfs = {False: _whole(sheets_pdf)}
    title = meta.title_in(sheets[0].lang) if sheets else meta.title  # (the edition these sheets are)
    if ink_saver:
        pdfs[True] = cache.cached("sheets", products.INK_SAVER_SHEETS.key(
                                      plan=repr(sheets), face_svgs=svgs, title=title, author=meta.author),
                                  lambda: fonts.in_design_fonts(design, lambda: pdf_layout.render_pdf(
                                      sheets, svgs, title=title, author=meta.author, cache=cache,
                                      subject=f"{title} print-and-play sheets, ink saver ({paper.upper()})",
                                      transform=saver, resources=resources)))
        pdfs[True] = _whole(pdfs[True])
    out: dict[str, bytes] = {}
    titles = [s.title for s in sheets]
    facts = kit_facts(sheets, {i: (cf.component.kind, cf.component.shape) for cf in components
                               for i in (cf.component_id, cf.parent) if i})
    books: list[tuple[str, bytes | None]] = [(lang, pdf) for lang, pdf in sorted(rulebooks.items())] or [("en", None)]
    for lang, rules in books:
        for ink in variants:
            parts = KitParts(title=meta.title_in(lang), lang=lang, paper=paper, sheets_pdf=pdfs[ink], sheet_titles=titles,
                             rules_pdf=rules, rules_paper=rules_paper, author=meta.author or "",
                             players=players, version=str(meta.version or ""),
                             duplex=str(p.duplex), marks=str(p.marks), ink_saver=ink,
                             sheet_sides=[s.side for s in sheets], facts=facts,
                             names={_short(cf.component.display_name("en")): _short(cf.component.display_name(lang))
                                    for cf in components if cf.component.display_name(lang)})
            name = f"{design.slug}-kit-{'ink-saver-' if ink else ''}{lang}-{paper}.pdf"
            out[name] = cache.cached("kit", products.KIT.key(
                sheets_pdf=pdfs[ink], rulebook=rules, titles=titles, sides=parts.sheet_sides, title=parts.title,
                author=parts.author, players=parts.players, version=parts.version, duplex=parts.duplex,
                marks=parts.marks, lang=lang, names=sorted(parts.names.items()), facts=asdict(facts), ink_saver=ink,
                thumbnails=[svgs[face_path(cf.component_id, cf.fronts[0])] for cf in components if cf.fronts]),
                                     partial(_kit, parts, thumbs, ink, design))
    return out


def _kit(parts, thumbs, ink: bool, design=None) -> bytes:
    from pnp.exports.kit import kit_pdf  # lazy: 9.9 ms (pnp.exports.kit)

    with fonts.design_fallbacks(design) if design is not None else fonts.fallbacks():
        return kit_pdf(replace(parts, thumbs=thumbs(ink)))  # (the cover's title in the design's fonts, if need be)


def _short(name: str) -> str:
    """A component's name as a sheet's title starts with it (what comes before " (")."""
    return name.split(" (")[0].strip()

