"""Exports for trying a prototype before printing it: PNG faces and Tabletop Simulator decks.

- `png/<component>-<face>.png`: every face at 300 dpi, bleed included (as the SVG).
- `tts/<component>-<n>.png`: deck sheets for Tabletop Simulator, up to 10 x 7 card
  fronts each (one slot per copy, trimmed), the 70th slot holding the back (TTS shows it
  for hidden cards); `tts/<component>-back.png`; `tts/<component>.json` says how many
  cards each sheet holds and its grid, as TTS's Custom Deck dialog asks.
"""

from __future__ import annotations

import io
import json
import math

from pnp.cache import Cache, key_of
from pnp.parallel import prun
from pnp.render.faces import ComponentFaces

TTS_COLS, TTS_ROWS = 10, 7
TTS_DPI = 150


def png_faces(svgs: dict[str, str], cache: Cache) -> dict[str, bytes]:
    """{"png/<name>.png": PNG bytes} for every SVG face, rasterised on all cores, cached by content."""
    from pnp.render.raster import DPI, svg_to_png

    out: dict[str, bytes] = {}
    todo = []
    for path, svg in sorted(svgs.items()):
        key = key_of("png", svg, DPI)
        hit = cache.get("png", key)
        name = "png/" + path.removeprefix("svg/").removesuffix(".svg") + ".png"
        if hit is not None:
            out[name] = hit
        else:
            todo.append((name, key, svg))
    for (name, key, svg), (status, value) in zip(todo, prun([lambda s=svg: svg_to_png(s) for _, _, svg in todo])):
        if status != "ok":
            raise value  # a bug: the same SVG was drawn in the PDF already
        cache.put("png", key, value)
        out[name] = value
    return out


def tts_decks(components: list[ComponentFaces], pngs: dict[str, bytes], face_path) -> dict[str, bytes]:
    """Tabletop Simulator deck sheets for every card component with a back."""
    from PIL import Image

    from pnp.render.raster import DPI, crop_bleed

    out: dict[str, bytes] = {}
    for cf in components:
        if cf.component.kind != "card" or cf.back is None or not cf.copies:
            continue
        scale = TTS_DPI / DPI

        def card(face) -> Image.Image:
            img = crop_bleed(pngs[_png(face_path(cf.component_id, face))], face.bleed)
            if scale == 0.5:  # 300 -> 150 dpi: average 2x2 blocks, exact and fast
                return img.reduce(2)
            return img.resize((round(img.width * scale), round(img.height * scale)), Image.LANCZOS)

        back = card(cf.back)
        fronts = {f.key: card(f) for f in cf.fronts if f.count}
        copies = [f.key for f in cf.fronts for _ in range(f.count)]
        per = TTS_COLS * TTS_ROWS - 1
        sheets = []
        for n in range(math.ceil(len(copies) / per)):
            chunk = copies[n * per:(n + 1) * per]
            cols = min(TTS_COLS, len(chunk) + 1)
            rows = math.ceil((len(chunk) + 1) / cols)
            sheet = Image.new("RGB", (cols * back.width, rows * back.height), "white")
            for i, key in enumerate(chunk):
                sheet.paste(fronts[key], ((i % cols) * back.width, (i // cols) * back.height))
            sheet.paste(back, (((cols * rows) - 1) % cols * back.width, (rows - 1) * back.height))
            name = f"tts/{cf.component_id}-{n + 1}.png"
            out[name] = _png_bytes(sheet)
            sheets.append({"file": name.removeprefix("tts/"), "cards": len(chunk), "width": cols, "height": rows})
        out[f"tts/{cf.component_id}-back.png"] = _png_bytes(back)
        out[f"tts/{cf.component_id}.json"] = (json.dumps({
            "component": cf.component_id, "back": f"{cf.component_id}-back.png", "sheets": sheets,
            "note": "Tabletop Simulator: Objects > Components > Custom > Deck; face = a sheet, back = the back image, "
                    "width/height = the sheet's grid, number = cards. The last slot of each sheet is the hidden card.",
        }, indent=2) + "\n").encode("utf-8")
    return out


def _png(svg_path: str) -> str:
    return "png/" + svg_path.removeprefix("svg/").removesuffix(".svg") + ".png"


def _png_bytes(img) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()
