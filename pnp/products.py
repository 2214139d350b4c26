"""What a build makes, declared once: every product with the inputs it is made from, and its cache key.

Reading this table answers "what does a change rebuild?": `rebuilt_by("row")` walks it from an input a designer
edits (a CSV row, a template, the paper...) to every product made from it, directly or through another product.
This module is also the one place where cache keys are made: `PRODUCT.key(input=value, ...)` takes exactly the
inputs declared for that product, in any order, and hashes them in the declared order, after pnp's own code
(`pnp.cache.code_fingerprint`). A value that is not data (bytes, str, int, float, bool, None, and lists, tuples
and str-keyed dicts of them) is an error (`KeyInputError`), never keyed by its `str()`.

Products of `kind` None are made by every build from products that are cached (cheap: svg/ files, index.html,
the manifest); the others are kept by pnp.cache under <kind>/<key>. `memory` products (compiled drawings, not
data) are kept in the process only. `files` says which output files a product becomes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pnp.cache import code_fingerprint


class KeyInputError(TypeError):
    """A cache key was asked for with inputs other than those declared, or with a value that is not data."""


@dataclass(frozen=True)
class Source:
    """What a designer (or the command line) gives a build: an input no product makes."""

    name: str
    about: str


@dataclass(frozen=True)
class Product:
    """One product of a build: its inputs (names of sources and of other products), in the order they are hashed."""

    name: str
    inputs: tuple[str, ...]
    files: str
    kind: str | None = None  # the cache's folder; None: made by every build, not cached
    memory: bool = False  # kept in the process only (not data: a compiled drawing)
    about: str = ""

    def key(self, **values: Any) -> str:
        """The cache key of this product made from these inputs (each declared input, nothing else)."""
        return KeyBase(self, **values).key()

    def key_base(self, **first: Any) -> KeyBase:
        """The hash of the first declared inputs, made once for many keys that differ only in the others (a deck's
        faces): `P.key_base(a=1).key(b=2) == P.key(a=1, b=2)`."""
        return KeyBase(self, **first)


class KeyBase:
    """A product's key hashed up to some of its inputs (the first ones in its declaration)."""

    __slots__ = ("_product", "_hash", "_given")

    def __init__(self, product: Product, **first: Any):
        self._product = product
        self._hash = hashlib.sha256(code_fingerprint())
        self._hash.update(b"p" + product.name.encode("utf-8") + b"\0")
        self._given = _add(self._hash, product, 0, first)

    def key(self, **rest: Any) -> str:
        h = self._hash.copy()
        given = _add(h, self._product, self._given, rest)
        if given != len(self._product.inputs):
            raise KeyInputError(f"the key of product '{self._product.name}' needs "
                                f"{', '.join(self._product.inputs[given:])} too")
        return h.hexdigest()


def _add(h: Any, product: Product, given: int, values: dict[str, Any]) -> int:
    """Hash `values`, the next inputs of `product` after the `given` first: how many are given then."""
    names = product.inputs[given:given + len(values)]
    if len(names) != len(values) or set(names) != set(values):
        raise KeyInputError(f"the key of product '{product.name}' was given {', '.join(sorted(values))}; expected "
                            f"its inputs in their declared order: {', '.join(product.inputs)} (after {given} given)")
    for name in names:
        _hash_value(h, values[name], product.name, name)
    return given + len(names)


def _hash_value(h: Any, value: Any, product: str, name: str) -> None:
    if isinstance(value, bytes):
        h.update(b"b" + hashlib.sha256(value).digest())
    elif isinstance(value, str):
        h.update(b"s" + hashlib.sha256(value.encode("utf-8")).digest())
    else:
        try:
            text = json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=True)
        except (TypeError, ValueError) as exc:  # (a type JSON does not know, a dict with mixed key types)
            raise KeyInputError(f"input '{name}' of product '{product}': {exc}; expected data (str, bytes, numbers, "
                                "None, and lists and str-keyed dicts of them), never an object keyed by its str()") \
                from None
        h.update(b"j" + text.encode("utf-8"))


def digest(*parts: Any) -> str:
    """A hash of data parts, for the digests products take as inputs (a design's template files, its lookup tables):
    not a product's key (no code fingerprint), strict about types like one."""
    h = hashlib.sha256()
    for i, part in enumerate(parts):
        _hash_value(h, part, "digest", str(i))
    return h.hexdigest()


def in_language(key: str, lang: str) -> str:
    """The key of a face drawn in `lang` (its root says so: xml:lang) from the key of what it resolved to (its texts
    in `lang`, which differ from the other languages'): a face of the same inputs that every language shares has
    no language, so the two never share an entry."""
    return digest("in-language", key, lang)


SOURCES: dict[str, Source] = {s.name: s for s in (
    Source("row", "a row of a component's data table (CSV, TSV, XLSX, ODS, YAML): the values a template reads"),
    Source("component", "a component's entry in design.yaml: size, count, shape, generate/template/svg, params"),
    Source("print", "design.yaml's print settings (bleed, safe zone, duplex, marks...), with the command line's"),
    Source("meta", "design.yaml's meta: title, author, version, players"),
    Source("rules", "design.yaml's rules: the game's numbers"),
    Source("templates", "the *.j2 templates a face can reach: the design's and pnp's templates/"),
    Source("art", "the images and SVG art in the design's folder"),
    Source("fonts", "the design's fonts (fonts:), as the @font-face CSS its faces carry"),
    Source("lookups", "design.yaml's tables: (lookup tables the templates read)"),
    Source("svg_file", "a ready SVG face (svg:)"),
    Source("folder", "the design folder's name (the faces' source comments name it)"),
    Source("rules_text", "rules.<lang>.md"),
    Source("rulebook_templates", "pnp's templates/rulebook/ (layout, styles)"),
    Source("sheet_layout", "pnp's templates/sheets/layout.yaml (footers, marks)"),
    Source("paper", "--paper (else print.paper)"),
    Source("pdfx", "--print-shop x-1a | x-4"),
    Source("exports", "the exports asked for (pnp export, --export, --kit) and what each fixes: dpi, format, trim"),
    Source("export_options", "the exports' options: --base-url, the tts/ folder"),
    Source("code", "pnp's own source and the versions of the libraries that draw (every key has it)"),
)}


PRODUCTS: dict[str, Product] = {p.name: p for p in (
    # faces: one product per way a face is made; each is an svg/ file and the source of every other product
    Product("generated_face", ("generator", "component", "params", "print", "rules", "meta", "language", "face",
                               "data", "width", "height", "bleed"),
            "svg/<component>-<face>[.<lang>].svg", kind="svg", about="a face a game's generator draws"),
    Product("template_face", ("templates", "art", "fonts", "template", "width", "height", "bleed", "folder",
                              "lookups", "context"),
            "svg/<component>-<face>[.<lang>].svg", kind="svg",
            about="a template filled with a table row (or none), in a language when its texts differ by language"),
    Product("svg_face", ("svg_file", "art", "fonts"), "svg/<component>-face.svg", kind="svg",
            about="a ready SVG file, cleaned"),
    Product("compiled_face", ("face_svg",), "(none: drawn into every PDF)", kind="compiled", memory=True,
            about="a face's SVG compiled to drawing operations"),
    # print sheets
    Product("sheets", ("plan", "face_keys", "title", "author", "paper", "language", "sheet_layout"),
            "<design>[-<lang>]-<paper>[-proof].pdf", kind="sheets",
            about="the print sheets of one language: plan (from component, print, paper) and its faces"),
    Product("print_shop", ("shop_plan", "face_keys", "title", "author", "pdfx", "language"),
            "<design>[-<lang>]-print-shop.pdf", kind="sheets",
            about="one face per page, for a print shop (--print-shop), per language when a face differs"),
    Product("svg_files", ("face_svgs", "art"), "svg/*.svg, svg/art/*", about="every face standing alone"),
    # rulebooks, index, manifest
    Product("rulebooks", ("rules_text", "rulebook_templates", "design", "face_svgs", "paper", "folder"),
            "<design>-rules-<lang>-<paper>.pdf", kind="rulebooks", about="every language's rulebook"),
    Product("checks", ("design", "folder"), "(in index.html)", kind="checks",
            about="the game's static checks, shown by the contact sheet"),
    Product("index_faces", ("face_svgs",), "(in index.html)", kind="index-faces",
            about="the faces as the contact sheet shows them"),
    Product("index", ("index_faces", "checks", "files"), "index.html", about="the contact sheet"),
    Product("manifest", ("component", "row", "sheets", "files"), "manifest.json", about="what the build made"),
    # exports (pnp export ..., pnp build --export ...)
    Product("raster", ("face_svg", "bleed", "transparent", "px", "dpi", "format", "trim"), "png/<component>-<face>.png",
            kind="raster", about="a face as pixels (PNG export, TTS, print services)"),
    Product("deck_sheet", ("cells", "cols", "rows", "cell_px", "dpi", "format"), "tts/<deck>-<n>.png", kind="sheet",
            about="a grid of faces in one image (a Tabletop Simulator deck)"),
    Product("tts", ("manifest", "deck_sheet", "raster", "rulebooks", "export_options"), "tts/<design>.json",
            about="the Tabletop Simulator saved object"),
    Product("print_service_image", ("raster", "px", "trim_box", "rotate", "dpi", "bleed_x", "bleed_y"),
            "print/<service>/...", kind="print-service", about="a face at a print service's size and dpi"),
    Product("ink_saver_sheets", ("plan", "face_svgs", "title", "author"), "(in the ink-saver kit)", kind="sheets",
            about="the print sheets with their large fills lightened"),
    Product("kit", ("sheets_pdf", "rulebook", "titles", "sides", "title", "author", "players", "version", "duplex",
                    "marks", "lang", "names", "facts", "ink_saver", "thumbnails"),
            "<design>-kit-[ink-saver-]<lang>-<paper>.pdf", kind="kit", about="one PDF to share: cover, rules, sheets"),
)}

# What each input of a product stands for in the graph, where its name is not a source's or a product's own:
# (product, input) -> the sources and products it is made from.
MADE_FROM: dict[str, tuple[str, ...]] = {
    "generator": ("component",), "params": ("component",), "face": ("component",), "data": ("component",),
    "width": ("component",), "height": ("component",), "bleed": ("component", "print"),
    "template": ("component",),
    "context": ("row", "meta", "print", "component"),  # what the template sees: the row, the design, the sizes
    "face_svg": ("generated_face", "template_face", "svg_face"),
    "face_svgs": ("generated_face", "template_face", "svg_face"),
    "face_keys": ("generated_face", "template_face", "svg_face"),
    "plan": ("component", "print", "paper", "row"),  # the copies of each face come from the count column
    "shop_plan": ("component", "row"),
    "title": ("meta",), "author": ("meta",), "players": ("meta",), "version": ("meta",),
    "design": ("component", "print", "meta", "rules", "lookups"),  # the design's fingerprint: all it says
    "files": ("sheets", "print_shop", "rulebooks", "svg_files", "kit", "tts"),
    "transparent": ("component",), "px": ("component", "print"), "dpi": ("exports",), "format": ("exports",),
    "trim": ("exports",),
    "cells": ("raster",), "cols": ("component",), "rows": ("component", "row"), "cell_px": ("component",),
    "trim_box": ("component",), "rotate": ("component",), "bleed_x": ("component", "print"),
    "bleed_y": ("component", "print"), "sheets_pdf": ("sheets",), "rulebook": ("rulebooks",), "titles": ("component",),
    "sides": ("print",), "duplex": ("print",), "marks": ("print",), "lang": ("rules_text",),
    "names": ("component",), "facts": ("component", "print"), "ink_saver": ("exports",),
    "thumbnails": ("generated_face", "template_face", "svg_face"),
    "language": ("meta",),  # the language a generator's face is drawn in ("" when wordless); print sheets' own
}


def made_from(name: str) -> tuple[str, ...]:
    """The sources and products one input of a product stands for."""
    if name in SOURCES or name in PRODUCTS:
        return (name,)
    if name in MADE_FROM:
        return MADE_FROM[name]
    raise KeyError(f"input '{name}' is neither a source, a product nor in MADE_FROM")


def rebuilt_by(changed: str | Iterable[str]) -> list[str]:
    """The products a change to these sources (or products) makes again, directly or through other products, in
    the order of PRODUCTS. `rebuilt_by("row")`: what editing a row of a data table rebuilds (of that row's
    component: a face's key holds only its own row, so the other rows' faces stay)."""
    todo = {changed} if isinstance(changed, str) else set(changed)
    unknown = todo - set(SOURCES) - set(PRODUCTS)
    if unknown:
        raise KeyError(f"not a source or a product: {', '.join(sorted(unknown))}")
    hit: set[str] = set()
    grew = True
    while grew:
        grew = False
        for product in PRODUCTS.values():
            if product.name in hit:
                continue
            if any(set(made_from(i)) & (todo | hit) for i in product.inputs):
                hit.add(product.name)
                grew = True
    return [name for name in PRODUCTS if name in hit]


def describe() -> str:
    """The graph as a Markdown table (docs/architecture.md holds it; a test keeps the two the same)."""
    lines = ["| product | made from | cached as | output |", "| --- | --- | --- | --- |"]
    for p in PRODUCTS.values():
        cached = "memory" if p.memory else (f"`{p.kind}/`" if p.kind else "no (every build)")
        lines.append(f"| `{p.name}` | {', '.join(p.inputs)} | {cached} | {p.files} |")
    return "\n".join(lines)


GENERATED_FACE = PRODUCTS["generated_face"]
TEMPLATE_FACE = PRODUCTS["template_face"]
SVG_FACE = PRODUCTS["svg_face"]
COMPILED_FACE = PRODUCTS["compiled_face"]
SHEETS = PRODUCTS["sheets"]
PRINT_SHOP = PRODUCTS["print_shop"]
RULEBOOKS = PRODUCTS["rulebooks"]
CHECKS = PRODUCTS["checks"]
INDEX_FACES = PRODUCTS["index_faces"]
RASTER = PRODUCTS["raster"]
DECK_SHEET = PRODUCTS["deck_sheet"]
PRINT_SERVICE_IMAGE = PRODUCTS["print_service_image"]
INK_SAVER_SHEETS = PRODUCTS["ink_saver_sheets"]
KIT = PRODUCTS["kit"]


if __name__ == "__main__":  # python -m pnp.products: the table docs/architecture.md shows
    print(describe())
