"""Exports for trying a prototype before printing it: PNG faces and Tabletop Simulator decks.

Made on demand (`pnp export png|tts`, or `pnp build --export ...`), by pnp.render.raster:
pdfium rasterises each face's PDF page drawn by the same renderer as the print sheets.

- `png/<component>-<face>.png`: every face at 300 dpi, bleed included (as the SVG); shaped
  pieces are transparent outside their outline.
- `tts/<component>-<n>.png`: deck sheets for Tabletop Simulator, up to 10 x 7 card
  fronts each (one slot per copy, trimmed), the 70th slot holding the back (TTS shows it
  for hidden cards); `tts/<component>-back.png`; `tts/<component>.json` says how many
  cards each sheet holds and its grid, as TTS's Custom Deck dialog asks.
"""

from __future__ import annotations

import json

from pnp.cache import Cache
from pnp.render.faces import ComponentFaces

TTS_DPI = 150


def png_faces(components: list[ComponentFaces], svgs: dict[str, str], face_path, cache: Cache) -> dict[str, bytes]:
    """{"png/<name>.png": PNG bytes} for every face, rasterised on all cores, cached by content."""
    from pnp.render.raster import Face, raster_faces

    faces = {}
    for cf in components:
        for face in cf.sides:
            path = face_path(cf.component_id, face)
            faces["png/" + path.removeprefix("svg/").removesuffix(".svg") + ".png"] = Face.of(face, svgs[path])
    return dict(raster_faces(faces, cache=cache))


def tts_decks(components: list[ComponentFaces], svgs: dict[str, str], face_path, cache: Cache) -> dict[str, bytes]:
    """Tabletop Simulator deck sheets for every card component with a back."""
    from pnp.render.raster import Face, raster_faces, tts_sheets

    out: dict[str, bytes] = {}
    for cf in components:
        if cf.component.kind != "card" or cf.back is None or not cf.copies:
            continue
        face = {f.key: Face.of(f, svgs[face_path(cf.component_id, f)]) for f in cf.fronts}
        several = len(cf.backs) > 1
        for back_face in cf.backs:  # backs per row: one deck per back (a deck in TTS has one back image)
            deck = f"{cf.component_id}-{back_face.key}" if several else cf.component_id
            back = Face.of(back_face, svgs[face_path(cf.component_id, back_face)])
            copies = [face[f.key] for f in cf.fronts if cf.back_of(f) is back_face for _ in range(f.count)]
            if not copies:
                continue
            sheets = []
            for n, sheet in enumerate(tts_sheets(copies, back, TTS_DPI, cache=cache), start=1):
                name = f"tts/{deck}-{n}.png"
                out[name] = sheet.image
                sheets.append({"file": name.removeprefix("tts/"), "cards": sheet.cards, "width": sheet.cols,
                               "height": sheet.rows})
            [(_, back_png)] = raster_faces({"back": back}, TTS_DPI, trim=True, cache=cache)
            back_name = f"{deck}.png" if several else f"{deck}-back.png"
            out[f"tts/{back_name}"] = back_png
            out[f"tts/{deck}.json"] = (json.dumps({
                "component": cf.component_id, "back": back_name, "sheets": sheets,
                "note": "Tabletop Simulator: Objects > Components > Custom > Deck; face = a sheet, back = the back "
                        "image, width/height = the sheet's grid, number = cards. The last slot of each sheet is the "
                        "hidden card.",
            }, indent=2) + "\n").encode("utf-8")
    return out
