"""A whole game as a Tabletop Simulator saved object (the JSON TTS's Saved Objects folder reads).

Pure: `plan_tts(game)` decides the deck sheets and single images the build must render
(file names, grids, which face goes in which slot, pixel sizes); `saved_object(plan, base)`
writes the JSON that points at them through `base` (a folder -> file:/// URLs, or an
http(s) address where the designer hosts them). Same input, same bytes (`dumps`).

The format (sources):
- Save file: `ObjectStates` list of objects with Name, Transform (posX/Y/Z, rotX/Y/Z,
  scaleX/Y/Z), Nickname, Description, GUID...; a saved object is a save with the outer
  fields empty (TTS knowledge base, Berserk-Games/Tabletop-Simulator-Knowledge-Base
  docs/custom-content/save-file-format.md; argonui/TTSModManager saved-object-feature.md).
- Decks: `DeckCustom` with `DeckIDs`, `CustomDeck` {id: FaceURL, BackURL, NumWidth,
  NumHeight, BackIsHidden, UniqueBack, Type} and `ContainedObjects` of `Card`s whose
  `CardID` = deck id * 100 + slot ("Key matches the hundreth place of the id",
  save-file-format.md); card Type 0 rounded rectangle, 1 rectangle, 2 rounded hex, 3 hex,
  4 circle (api.tabletopsimulator.com custom-game-objects; Benjamin-Dobell/tts-types
  ObjectState.def.lua). A sheet is at most 10 x 7 and its last slot is the hidden-card
  image unless BackIsHidden (KB custom-deck.md), so 69 faces per sheet.
- `Custom_Tile`: CustomImage {ImageURL, ImageSecondaryURL, CustomTile {Type 0 box, 1 hex,
  2 circle, 3 rounded; Thickness; Stackable; Stretch}}; `Custom_Token`: CustomImage
  {ImageURL, CustomToken {Thickness, MergeDistancePixels, Stackable}}, cut out along the
  image's transparency (KB custom-tile.md, custom-token.md; tts-types); `Bag` with
  `ContainedObjects`; `Custom_PDF` with CustomPDF {PDFUrl, PDFPassword, PDFPage,
  PDFPageOffset} (public saves and generators, e.g. Sebaestschjin/typed-tabletop-simulator).
- Images: PNG or JPG, RGB; keep under 4096 x 4096, a deck sheet "4096 x (whatever height
  fits)" (KB asset-creation.md).

Scale: a TTS unit is an inch (the line tool measures in inches; tile and token thickness is
"in in-game units (about an inch)", KB line-tool.md, custom-tile.md). How big an object is
at scale 1 is not documented; the constants below come from a public TTS emulator's
calibration against a real mod (cards 2.2 x 3.1 units, a Custom_Tile's short side 2 units,
a Custom_Token's long side 3.7 units) and should be checked in TTS with the line tool.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, cast
from urllib.parse import quote

MM_PER_UNIT = 25.4
CARD_HEIGHT_UNITS = 3.1
"""A portrait card at scale 1 is 3.1 units tall (2.2 wide at poker proportions; width follows the sheet cell)."""
TILE_SHORT_UNITS = 2.0
"""A Custom_Tile at scale 1: its image's short side is 2 units (the long side follows the image)."""
TOKEN_LONG_UNITS = 3.7
"""A Custom_Token at scale 1: its image's long side is 3.7 units."""

SHEET_COLS, SHEET_ROWS = 10, 7
FACES_PER_SHEET = SHEET_COLS * SHEET_ROWS - 1
MAX_IMAGE_PX = 4096
DEFAULT_DPI = 150

BAG_FOOTPRINT = (3.0, 3.0)
"""Table space kept for a bag (units); its real size at scale 1 is about this, not measured."""
PDF_FOOTPRINT = (9.0, 12.0)
"""Table space kept for a rulebook (units), not measured."""
GAP = 1.0
ROW_WIDTH = 40.0
TABLE_Y = 1.5
"""Height objects are placed at (they fall onto the table; a default table's top is near y = 1)."""

CARD_TYPES = {"rounded": 0, "rect": 1, "rounded-hex": 2, "hexagon": 3, "circle": 4}
TILE_TYPES = {"rect": 0, "hexagon": 1, "circle": 2, "rounded": 3}
PieceShape = Literal["rect", "rounded", "circle", "hexagon", "triangle"]


# ---- input: plain data ---------------------------------------------------------------------------

@dataclass(frozen=True)
class TtsCard:
    image: str
    """Key of the face image (the build maps it to a face; e.g. 'placement-cards-01')."""
    name: str = ""
    description: str = ""
    count: int = 1
    back: str | None = None
    """This card's back when it differs from the deck's (per-type backs)."""


@dataclass(frozen=True)
class TtsDeck:
    id: str
    name: str
    trim_mm: tuple[float, float]
    back: str
    cards: tuple[TtsCard, ...]
    shape: Literal["rounded", "rect", "rounded-hex", "hexagon", "circle"] = "rounded"
    description: str = ""


@dataclass(frozen=True)
class TtsBoard:
    id: str
    name: str
    image: str
    size_mm: tuple[float, float]
    back: str | None = None
    description: str = ""
    thickness_mm: float = 2.0


@dataclass(frozen=True)
class TtsPiece:
    id: str
    name: str
    image: str
    size_mm: tuple[float, float]
    shape: PieceShape = "rect"
    count: int = 1
    back: str | None = None
    description: str = ""
    thickness_mm: float = 2.0
    bag: str | None = None
    """Pieces with the same bag name go in one bag; None: on the table (several copies: their own bag)."""


@dataclass(frozen=True)
class TtsRulebook:
    id: str
    name: str
    pdf: str
    """Path of the PDF inside the export folder, e.g. 'three-stars-rules-en.pdf'."""


@dataclass(frozen=True)
class TtsGame:
    name: str
    decks: tuple[TtsDeck, ...] = ()
    boards: tuple[TtsBoard, ...] = ()
    pieces: tuple[TtsPiece, ...] = ()
    rulebooks: tuple[TtsRulebook, ...] = ()


# ---- plan: what the build renders ----------------------------------------------------------------

@dataclass(frozen=True)
class DeckSheet:
    deck: str
    deck_id: int
    """The TTS CustomDeck key; a card on this sheet has CardID = deck_id * 100 + slot."""
    file: str
    back: str
    back_file: str
    cols: int
    rows: int
    slots: tuple[str, ...]
    """Face image key in each slot, row by row from the top left; the last slot (cols*rows-1) holds the back."""
    cell_px: tuple[int, int]

    @property
    def hidden_slot(self) -> int:
        return self.cols * self.rows - 1

    @property
    def sheet_px(self) -> tuple[int, int]:
        return (self.cols * self.cell_px[0], self.rows * self.cell_px[1])


@dataclass(frozen=True)
class TtsImage:
    image: str
    file: str
    px: tuple[int, int]
    cut_out: bool
    """True for tokens: outside the shape must be transparent (TTS cuts the token along it)."""


@dataclass(frozen=True)
class TtsPlan:
    game: TtsGame
    sheets: tuple[DeckSheet, ...]
    images: tuple[TtsImage, ...]
    problems: tuple[str, ...] = field(default=())


def plan_tts(game: TtsGame, *, dpi: int = DEFAULT_DPI, max_px: int = MAX_IMAGE_PX) -> TtsPlan:
    """Deck sheets (distinct faces only: copies share a slot) and single images, with their files and sizes."""
    _check_ids(game)
    sheets: list[DeckSheet] = []
    images: dict[str, TtsImage] = {}
    problems: list[str] = []
    deck_id = 0
    for deck in game.decks:
        cell = _cell_px(deck.trim_mm, dpi, max_px)
        groups: dict[str, list[str]] = {}
        for card in deck.cards:
            faces = groups.setdefault(card.back or deck.back, [])
            if card.image not in faces:
                faces.append(card.image)
        n = 0
        for back, faces in groups.items():
            _add_image(images, back, cell, cut_out=False)
            for start in range(0, len(faces), FACES_PER_SHEET):
                chunk = faces[start:start + FACES_PER_SHEET]
                deck_id += 1
                n += 1
                cols = min(SHEET_COLS, len(chunk) + 1)
                rows = math.ceil((len(chunk) + 1) / cols)
                sheets.append(DeckSheet(deck=deck.id, deck_id=deck_id, file=f"tts/{deck.id}-{n}.png", back=back,
                                        back_file=_file(back), cols=cols, rows=rows, slots=tuple(chunk),
                                        cell_px=cell))
    for board in game.boards:
        px = _image_px(board.size_mm, dpi, max_px)
        _add_image(images, board.image, px, cut_out=False)
        if board.back:
            _add_image(images, board.back, px, cut_out=False)
    for piece in game.pieces:
        px = _image_px(piece.size_mm, dpi, max_px)
        token = _is_token(piece)
        _add_image(images, piece.image, px, cut_out=token)
        if piece.back and token:
            problems.append(f"{piece.id}: a {piece.shape} piece becomes a Custom_Token, which shows one image on "
                            f"both sides; its back '{piece.back}' is left out")
        elif piece.back:
            _add_image(images, piece.back, px, cut_out=False)
    return TtsPlan(game=game, sheets=tuple(sheets), images=tuple(images.values()), problems=tuple(problems))


def _check_ids(game: TtsGame) -> None:
    ids = ([d.id for d in game.decks] + [b.id for b in game.boards] + [p.id for p in game.pieces]
           + [r.id for r in game.rulebooks])
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"id '{dup[0]}' used twice; expected one id per deck, board, piece and rulebook")
    for deck in game.decks:
        if not deck.cards or any(c.count < 1 for c in deck.cards):
            raise ValueError(f"deck '{deck.id}': expected at least one card, each with a count of 1 or more")
    for piece in game.pieces:
        if piece.count < 1:
            raise ValueError(f"piece '{piece.id}': count {piece.count}; expected 1 or more")


def _cell_px(trim_mm: tuple[float, float], dpi: int, max_px: int) -> tuple[int, int]:
    """One card's cell: the trim at `dpi`, shrunk (same proportions) until a full 10 x 7 sheet fits in max_px."""
    w, h = (trim_mm[0] / MM_PER_UNIT * dpi, trim_mm[1] / MM_PER_UNIT * dpi)
    k = min(1.0, max_px / (SHEET_COLS * w), max_px / (SHEET_ROWS * h))
    return (max(1, math.floor(w * k)), max(1, math.floor(h * k)))


def _image_px(size_mm: tuple[float, float], dpi: int, max_px: int) -> tuple[int, int]:
    w, h = (size_mm[0] / MM_PER_UNIT * dpi, size_mm[1] / MM_PER_UNIT * dpi)
    k = min(1.0, max_px / w, max_px / h)
    return (max(1, round(w * k)), max(1, round(h * k)))


def _add_image(images: dict[str, TtsImage], key: str, px: tuple[int, int], cut_out: bool) -> None:
    old = images.get(key)
    if old is not None:
        if old.px != px and (old.px[0] * old.px[1]) >= px[0] * px[1]:
            return  # one file per key: the larger wins
    images[key] = TtsImage(image=key, file=_file(key), px=px, cut_out=cut_out or bool(old and old.cut_out))


def _file(key: str) -> str:
    return f"tts/{_slug(key)}.png"


def _is_token(piece: TtsPiece) -> bool:
    return piece.shape in ("triangle", "hexagon")


# ---- the saved object ----------------------------------------------------------------------------

@dataclass
class _Item:
    width: float
    depth: float
    build: Callable[[float, float], dict]
    x: float = 0.0
    z: float = 0.0


def saved_object(plan: TtsPlan | TtsGame, base: str) -> dict:
    """The saved-object JSON (as a dict) for `plan`, images and PDFs addressed through `base`."""
    if isinstance(plan, TtsGame):
        plan = plan_tts(plan)
    game = plan.game
    ids = _Guids(game.name)

    def url(path: str) -> str:
        return asset_url(base, path)

    items: list[_Item] = []
    for board in game.boards:
        items.append(_board_item(board, url, ids))
    for deck in game.decks:
        items.append(_deck_item(deck, [s for s in plan.sheets if s.deck == deck.id], url, ids))
    bags: dict[str, list[TtsPiece]] = {}
    for piece in game.pieces:
        bags.setdefault(piece.bag or piece.id, []).append(piece)
    for name, pieces in bags.items():  # a bag that would hold one piece leaves it on the table
        if len(pieces) == 1 and pieces[0].count == 1:
            items.append(_piece_item(pieces[0], url, ids))
    for name, pieces in bags.items():
        if not (len(pieces) == 1 and pieces[0].count == 1):
            items.append(_bag_item(name, pieces, url, ids))
    for book in game.rulebooks:
        items.append(_pdf_item(book, url, ids))
    _lay_out(items)
    return {
        "SaveName": "", "Date": "", "VersionNumber": "", "GameMode": "", "GameType": "", "GameComplexity": "",
        "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "TabStates": {},
        "LuaScript": "", "LuaScriptState": "", "XmlUI": "",
        "ObjectStates": [item.build(item.x, item.z) for item in items],
    }


def dumps(obj: dict) -> str:
    """Deterministic JSON text (the same plan gives the same bytes)."""
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def asset_url(base: str, path: str) -> str:
    """`path` (inside the export folder) as TTS loads it: under an http(s) base, or a file:/// URL of a folder."""
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", base):
        if not base.lower().startswith(("http://", "https://", "file://")):
            raise ValueError(f"base '{base}' is not a web address or folder; expected http(s)://... or a folder")
        return base.rstrip("/") + "/" + quote(path)
    folder = Path(base)
    if not folder.is_absolute():
        raise ValueError(f"base folder '{base}' is relative; expected an absolute folder for file:/// URLs")
    return (folder / path).as_uri()


def card_scale(trim_mm: tuple[float, float]) -> float:
    """Transform scale (x and z) that shows a card at its true size (1 unit = 1 inch)."""
    return trim_mm[1] / MM_PER_UNIT / CARD_HEIGHT_UNITS


def tile_scale(size_mm: tuple[float, float]) -> float:
    return min(size_mm) / MM_PER_UNIT / TILE_SHORT_UNITS


def token_scale(size_mm: tuple[float, float]) -> float:
    return max(size_mm) / MM_PER_UNIT / TOKEN_LONG_UNITS


def units(mm: float) -> float:
    return mm / MM_PER_UNIT


def _deck_item(deck: TtsDeck, sheets: list[DeckSheet], url, ids: "_Guids") -> _Item:
    where: dict[tuple[str, str], int] = {}
    entries: dict[str, dict] = {}
    for s in sheets:
        entries[str(s.deck_id)] = {
            "FaceURL": url(s.file), "BackURL": url(s.back_file), "NumWidth": s.cols, "NumHeight": s.rows,
            "BackIsHidden": True, "UniqueBack": False, "Type": CARD_TYPES[deck.shape]}
        for slot, image in enumerate(s.slots):
            where[(s.back, image)] = s.deck_id * 100 + slot
    scale = card_scale(deck.trim_mm)
    w, d = units(deck.trim_mm[0]), units(deck.trim_mm[1])
    sideways = deck.trim_mm[0] > deck.trim_mm[1]

    def card(c: TtsCard, k: int, x: float, z: float) -> dict:
        card_id = where[(c.back or deck.back, c.image)]
        obj = _base("Card", ids.get(f"deck/{deck.id}/{c.image}/{k}"), c.name, c.description, x, z,
                    scale=(scale, 1.0, scale), face_down=True)
        obj.update({"Hands": True, "HideWhenFaceDown": True, "SidewaysCard": sideways, "CardID": card_id,
                    "CustomDeck": {str(card_id // 100): entries[str(card_id // 100)]}})
        return obj

    def build(x: float, z: float) -> dict:
        cards = [card(c, k, x, z) for c in deck.cards for k in range(c.count)]
        if len(cards) == 1:
            return cards[0]
        obj = _base("DeckCustom", ids.get(f"deck/{deck.id}"), deck.name, deck.description, x, z,
                    scale=(scale, 1.0, scale), face_down=True)
        obj.update({"Hands": False, "HideWhenFaceDown": True, "SidewaysCard": sideways,
                    "DeckIDs": [c["CardID"] for c in cards], "CustomDeck": entries, "ContainedObjects": cards})
        return obj

    return _Item(w, d, build)


def _board_item(board: TtsBoard, url, ids: "_Guids") -> _Item:
    def build(x: float, z: float) -> dict:
        obj = _tile_object(board.image, board.back, "rect", board.size_mm, board.thickness_mm, url,
                           ids.get(f"board/{board.id}"), board.name, board.description, x, z, stackable=False)
        obj["Locked"] = True
        return obj

    return _Item(units(board.size_mm[0]), units(board.size_mm[1]), build)


def _piece_item(piece: TtsPiece, url, ids: "_Guids", path: str | None = None) -> _Item:
    def build(x: float, z: float, _path=path or f"piece/{piece.id}") -> dict:
        return _piece_object(piece, url, ids.get(_path), x, z)

    return _Item(units(piece.size_mm[0]), units(piece.size_mm[1]), build)


def _piece_object(piece: TtsPiece, url, guid: str, x: float, z: float) -> dict:
    if _is_token(piece):
        obj = _base("Custom_Token", guid, piece.name, piece.description, x, z,
                    scale=(token_scale(piece.size_mm), 1.0, token_scale(piece.size_mm)))
        obj["CustomImage"] = {"ImageURL": url(_file(piece.image)), "ImageSecondaryURL": "", "ImageScalar": 1.0,
                              "WidthScale": 0.0,
                              "CustomToken": {"Thickness": round(units(piece.thickness_mm), 4),
                                              "MergeDistancePixels": 15.0, "StandUp": False, "Stackable": True}}
        return obj
    return _tile_object(piece.image, piece.back, piece.shape, piece.size_mm, piece.thickness_mm, url, guid,
                        piece.name, piece.description, x, z, stackable=True)


def _tile_object(image: str, back: str | None, shape: str, size_mm, thickness_mm: float, url, guid: str,
                 name: str, description: str, x: float, z: float, stackable: bool) -> dict:
    square = abs(size_mm[0] - size_mm[1]) < 1e-6
    obj = _base("Custom_Tile", guid, name, description, x, z,
                scale=(tile_scale(size_mm), 1.0, tile_scale(size_mm)))
    obj["CustomImage"] = {
        "ImageURL": url(_file(image)), "ImageSecondaryURL": url(_file(back)) if back else "",
        "ImageScalar": 1.0, "WidthScale": 0.0,
        "CustomTile": {"Type": TILE_TYPES[shape], "Thickness": round(units(thickness_mm), 4),
                       "Stackable": stackable, "Stretch": square or shape == "circle"}}
    return obj


def _bag_item(name: str, pieces: list[TtsPiece], url, ids: "_Guids") -> _Item:
    def build(x: float, z: float) -> dict:
        contents = [_piece_object(p, url, ids.get(f"bag/{name}/{p.id}/{k}"), x, z)
                    for p in pieces for k in range(p.count)]
        nickname = pieces[0].name if len(pieces) == 1 else _title_of(name)
        obj = _base("Bag", ids.get(f"bag/{name}"), f"{nickname} ({len(contents)})", "", x, z)
        obj.update({"MaterialIndex": -1, "ContainedObjects": contents})
        return obj

    return _Item(BAG_FOOTPRINT[0], BAG_FOOTPRINT[1], build)


def _pdf_item(book: TtsRulebook, url, ids: "_Guids") -> _Item:
    def build(x: float, z: float) -> dict:
        obj = _base("Custom_PDF", ids.get(f"pdf/{book.id}"), book.name, "", x, z)
        obj["CustomPDF"] = {"PDFUrl": url(book.pdf), "PDFPassword": "", "PDFPage": 0, "PDFPageOffset": 0}
        return obj

    return _Item(PDF_FOOTPRINT[0], PDF_FOOTPRINT[1], build)


def _base(name: str, guid: str, nickname: str, description: str, x: float, z: float,
          scale: tuple[float, float, float] = (1.0, 1.0, 1.0), face_down: bool = False) -> dict:
    return {
        "GUID": guid, "Name": name,
        "Transform": {"posX": _r(x), "posY": TABLE_Y, "posZ": _r(z), "rotX": 0.0, "rotY": 180.0,
                      "rotZ": 180.0 if face_down else 0.0,
                      "scaleX": _r(scale[0]), "scaleY": _r(scale[1]), "scaleZ": _r(scale[2])},
        "Nickname": nickname, "Description": description, "GMNotes": "",
        "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
        "Locked": False, "Grid": True, "Snap": True, "IgnoreFoW": False, "Autoraise": True, "Sticky": True,
        "Tooltip": True, "GridProjection": False, "HideWhenFaceDown": False, "Hands": False,
        "LuaScript": "", "LuaScriptState": "", "XmlUI": "",
    }


def _lay_out(items: list[_Item]) -> None:
    """Rows left to right, GAP apart, no two footprints overlapping; the whole centred on the table's origin."""
    if not items:
        return
    limit = max(ROW_WIDTH, max(i.width for i in items))
    x = z = 0.0
    row_depth = 0.0
    for item in items:
        if x > 0 and x + item.width > limit:
            z += row_depth + GAP
            x, row_depth = 0.0, 0.0
        item.x, item.z = x + item.width / 2, z + item.depth / 2
        x += item.width + GAP
        row_depth = max(row_depth, item.depth)
    x0 = min(i.x - i.width / 2 for i in items)
    x1 = max(i.x + i.width / 2 for i in items)
    z1 = max(i.z + i.depth / 2 for i in items)
    for item in items:  # first row farthest from the player (TTS +z), centred in x
        item.x -= (x0 + x1) / 2
        item.z = z1 / 2 - item.z


class _Guids:
    """Six-hex-digit GUIDs from a hash of the game's name and the object's path: stable and unique."""

    def __init__(self, seed: str):
        self.seed = seed
        self.used: set[str] = set()

    def get(self, path: str) -> str:
        salt = ""
        while True:
            guid = hashlib.sha256(f"{self.seed}\0{path}\0{salt}".encode()).hexdigest()[:6]
            if guid not in self.used:
                self.used.add(guid)
                return guid
            salt += "+"


def _r(value: float) -> float:
    return round(value, 4)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "image"


def _title_of(text: str) -> str:
    return text.replace("-", " ").replace("_", " ").capitalize()


# ---- today's manifest.json -> TtsGame ------------------------------------------------------------

def plain_back(component: str) -> str:
    """The image key of the plain back a deck of cards without a back gets (TTS shows a back on every card)."""
    return f"{component}--plain-back"


def game_from_manifest(manifest: dict, rulebooks: Iterable[tuple[str, str]] = (), names: dict[str, str] | None = None,
                       labels: dict[str, str] | None = None, same_backs: dict[str, str] | None = None) -> TtsGame:
    """A TtsGame from the build's manifest.json: card components become decks (a card without a back gets a
    plain one, `plain_back`), player aids with a back too, boards boards, tiles and tokens a bag per component,
    pieces a bag per face (a colour each), one-sided aids tiles. `rulebooks`: (language, pdf path inside the
    export folder); `names`: component id -> display name; `labels`: face SVG path -> the face's own label (a
    card's title); `same_backs`: back SVG path -> the path of the first back drawn the same (one back image, and
    one deck sheet, for backs that only differ by name)."""
    names, labels, same = names or {}, labels or {}, same_backs or {}

    def _title(cid: str) -> str:
        return names.get(cid) or _title_of(cid)

    def _card(cid: str, e: dict) -> str:
        data: dict = e["data"] if isinstance(e.get("data"), dict) else {}
        named = next((str(data[k]) for k in ("name", "title") if isinstance(data.get(k), (str, int, float))
                      and str(data[k]).strip()), "")  # a data table's own name column
        return labels.get(e["face"]) or named or f"{_title(cid)} {e['key']}"

    groups: dict[str, list[dict]] = {}
    for entry in manifest["components"]:
        groups.setdefault(entry["component"], []).append(entry)
    decks, boards, pieces = [], [], []
    for cid, entries in groups.items():
        entries = [e for e in entries if e["count"] > 0]  # a face with no copies is not on the table
        if not entries:
            continue
        first = entries[0]
        kind, size = first["kind"], tuple(first["trim_mm"])
        if (kind in ("card", "aid") and first.get("back")) or (kind == "card" and first["shape"] == "rect"):
            def back_of(e: dict, cid: str = cid) -> str:
                return _stem(same.get(e["back"], e["back"])) if e.get("back") else plain_back(cid)

            back = back_of(first)  # backs per row: each card names its own (sheets are split by back)
            decks.append(TtsDeck(id=cid, name=_title(cid), trim_mm=size, back=back, cards=tuple(
                TtsCard(image=_stem(e["face"]), name=_card(cid, e), description=_describe(e["data"]),
                        count=e["count"], back=back_of(e) if back_of(e) != back else None) for e in entries)))
        elif kind == "board":
            for e in entries:
                boards.append(TtsBoard(id=f"{cid}-{e['key']}" if len(entries) > 1 else cid, name=_title(cid),
                                       image=_stem(e["face"]), size_mm=size, back=_stem(e["back"]) if e.get("back")
                                       else None, description=_describe(e["data"])))
        else:
            shape = first["shape"] if first["shape"] in ("rect", "circle", "hexagon", "triangle") else "rect"
            per_face = kind == "piece" and any(e["count"] > 1 for e in entries)  # a bag per colour
            for e in entries:
                if not e["count"]:
                    continue
                pieces.append(TtsPiece(
                    id=f"{cid}-{e['key']}", name=_card(cid, e), image=_stem(e["face"]), size_mm=size,
                    shape=cast(PieceShape, shape), count=e["count"], back=_stem(e["back"]) if e.get("back") else None,
                    description=_describe(e["data"]),
                    bag=f"{cid}-{e['key']}" if per_face else (cid if kind in ("piece", "tile", "token") else None)))
    books = tuple(TtsRulebook(id=f"rules-{lang}", name=f"{manifest.get('title') or manifest['design']} ({lang})",
                              pdf=pdf) for lang, pdf in rulebooks)
    return TtsGame(name=manifest["design"], decks=tuple(decks), boards=tuple(boards), pieces=tuple(pieces),
                   rulebooks=books)


def _stem(path: str) -> str:
    return Path(path).stem


def _describe(data) -> str:
    """The scalar fields of a face's data as 'key: value' lines (nested tables are left out)."""
    if not isinstance(data, dict):
        return ""
    lines = []
    for key, value in data.items():
        if isinstance(value, (str, int, float, bool)):
            lines.append(f"{key}: {value}")
        elif isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
            lines.append(f"{key}: {', '.join(str(v) for v in value)}")
    return "\n".join(lines)[:500]
