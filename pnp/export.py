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
        for face in cf.fronts + ([cf.back] if cf.back else []):
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
        back = Face.of(cf.back, svgs[face_path(cf.component_id, cf.back)])
        copies = [face[f.key] for f in cf.fronts for _ in range(f.count)]
        sheets = []
        for n, sheet in enumerate(tts_sheets(copies, back, TTS_DPI, cache=cache), start=1):
            name = f"tts/{cf.component_id}-{n}.png"
            out[name] = sheet.image
            sheets.append({"file": name.removeprefix("tts/"), "cards": sheet.cards, "width": sheet.cols,
                           "height": sheet.rows})
        [(_, back_png)] = raster_faces({"back": back}, TTS_DPI, trim=True, cache=cache)
        out[f"tts/{cf.component_id}-back.png"] = back_png
        out[f"tts/{cf.component_id}.json"] = (json.dumps({
            "component": cf.component_id, "back": f"{cf.component_id}-back.png", "sheets": sheets,
            "note": "Tabletop Simulator: Objects > Components > Custom > Deck; face = a sheet, back = the back image, "
                    "width/height = the sheet's grid, number = cards. The last slot of each sheet is the hidden card.",
        }, indent=2) + "\n").encode("utf-8")
    return out
