"""Faces as pixels: PNG (and JPEG) exports rasterised from the PDF, on every core, cached by content.

A face's image is the rasterisation by **pdfium** (pypdfium2) of a one-face PDF page drawn
by the same renderer as the print sheets: the PNG shows exactly what the PDF prints, with
the fonts embedded in the PDF (the shipped DejaVu faces), never the machine's.

    faces = {"cards-001": Face(svg_text, bleed=3.0), "pieces-red": Face(svg, transparent=True)}
    for name, png in raster_faces(faces, cache=cache):          # streamed, in name order
        ...
    pngs = rasterise_pdf_pages(pdf_bytes, dpi=300)               # any PDF: one image per page
    for sheet in tts_sheets(copies, back, cache=cache): ...      # Tabletop Simulator deck sheets

How it reaches ~120 MP per CPU-second from SVG faces, ~200 from a ready PDF (one core;
bench/raster_bench.py, issue 16):

- pdfium renders straight into the PNG's row buffer: a 24-bit bitmap whose stride is one
  byte longer than a row, starting one byte in, so the byte before every row is PNG's
  filter-type byte (0, "None") and the buffer *is* the PNG image data, with no copy and no
  colour conversion (FPDF_REVERSE_BYTE_ORDER gives RGB rather than BGR).
- That buffer is deflated by **zlib-ng** (level 3) and wrapped in the five PNG chunks here
  (IHDR, sRGB, pHYs with the dpi, one IDAT, IEND). Measured on the 500-card deck (process
  CPU time, one core, `raster_bench.py --steps`): pdfium renders ~190 MP/s; zlib-ng level 3
  deflates the rows at ~640 MP/s into files the size of Pillow's level 6 (19 KiB a poker
  card), where Pillow's PNG encoder, which tries five filters on every row, does 58-74 MP/s
  at level 1 (28 KiB) and 31-38 at level 6; libpng and libspng (imagecodecs) 24-44 MP/s
  with their default filters, 146 with no filter at level 1; libvips (pyvips-binary,
  libspng) 304-371 MP/s with no filter at level 1 (39 KiB). Flat vector art needs no PNG
  filter: its long runs deflate anyway.
- Shaped pieces (`Face.transparent`: triangles, hexagons, tokens) render on a transparent
  background as RGBA (straight alpha), so what lies outside their outline stays clear;
  everything else is RGB on white, as printed on paper. pdfium needs 32-bit rows aligned,
  so RGBA rows are copied once behind their filter bytes.
- JPEG (`fmt="jpeg"`, Pillow's libjpeg-turbo, quality 90, no chroma subsampling so coloured
  text stays sharp) encodes at ~200 MP/s after a copy into Pillow, but on flat art its
  files are larger than these PNGs (48 against 19 KiB a card) and the path slower: PNG is
  the default everywhere, Tabletop Simulator sheets included (TTS reads both).
- Work is spread over forked workers (one per core), each taking a contiguous run of
  faces, making one PDF of them and rasterising its pages; results come back in order
  with at most two runs per worker in flight, so memory stays flat however many faces.

Sizes: an image is the page (trim + 2 x bleed) at `dpi`, each side rounded to the nearest
pixel, `px = floor(points * dpi / 72 + 0.5)` (a 63 x 88 mm poker card with 3 mm bleed at
300 dpi: 69 x 94 mm -> 815 x 1110 px); the page is stretched onto those whole pixels (by
less than half a pixel), so nothing of it is cut and no blank line is added. With
`trim=True` only the TrimBox is kept: its size and offset in the page are rounded the same
way, and the page is drawn at the full page's pixel size shifted by that offset.

Determinism: pdfium draws with its own (AGG) rasteriser, without threads, so the same
page gives the same pixels in every run and process; zlib-ng and libjpeg-turbo give the
same bytes for the same pixels on the same build and CPU family (compressed bytes may
differ across architectures; pixels do not). The cache keys name the library versions.
"""

from __future__ import annotations

import ctypes
import io
import math
import multiprocessing
import re
import struct
import zlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice

from pnp import products
from pnp.cache import NO_CACHE, Cache

DPI = 300
TTS_DPI = 150
FORMATS = ("png", "jpeg")
PNG_LEVEL = 3  # zlib-ng: level 3 is as small as level 6 on flat art (19 KiB a card) at 2.6x the speed
JPEG_QUALITY = 90
MAX_PIXELS = 120_000_000  # one image: an A0 board at 300 dpi is 140 MP; refuse more, never allocate gigabytes
TTS_COLS, TTS_ROWS = 10, 7  # Tabletop Simulator's largest deck grid; the last slot holds the hidden card
MIN_PARALLEL_MP = 24.0  # below this much work (~0.15 s on one core) forking workers costs more than it saves


@dataclass(frozen=True)
class Face:
    """One face to rasterise: its SVG text (mm units, the page is trim + bleed on each side), its
    bleed in mm, whether it is a shaped piece whose outside stays transparent, and optionally the
    exact pixel size its image must have (the page, or the trim with `trim=True`, stretched to it)."""

    svg: str
    bleed: float = 0.0
    transparent: bool = False
    px: tuple[int, int] | None = None
    # reads the art files the SVG names (pnp.render.art.ArtFiles); not part of the key: the SVG holds
    # each file's content hash
    resources: object = field(default=None, compare=False, hash=False, repr=False)

    @classmethod
    def of(cls, spec, svg: str, px: tuple[int, int] | None = None, resources=None) -> "Face":
        """The face of a pnp.render.facespec.FaceSpec and its SVG text: shaped pieces (shape other than
        "rect": triangle, hexagon, circle...) keep a transparent outside."""
        return cls(svg, float(spec.bleed), spec.shape != "rect", px, resources)

    def key(self, dpi: int, fmt: str, trim: bool) -> str:
        return products.RASTER.key(face_svg=self.svg, bleed=self.bleed, transparent=self.transparent, px=self.px, dpi=dpi,
                                   format=fmt, trim=trim)


@dataclass(frozen=True)
class Sheet:
    """A grid of faces in one image (a Tabletop Simulator deck sheet): `cells` row by row from the
    top left (None: left white), each face's trim stretched to `cell_px`."""

    cells: tuple[Face | None, ...]
    cols: int
    rows: int
    cell_px: tuple[int, int]

    def key(self, dpi: int, fmt: str) -> str:
        return products.DECK_SHEET.key(cells=[c.key(dpi, fmt, True) if c else None for c in self.cells], cols=self.cols,
                                       rows=self.rows, cell_px=self.cell_px, dpi=dpi, format=fmt)


@dataclass(frozen=True)
class TtsSheet:
    """One Tabletop Simulator deck sheet: the image, how many cards it holds and its grid."""

    image: bytes
    cards: int
    cols: int
    rows: int


# --- pixels out of a PDF page -------------------------------------------------------------------------


def px(points: float, dpi: int) -> int:
    """A length in PDF points as whole pixels at `dpi`: the nearest pixel (halves round up)."""
    return int(math.floor(points * dpi / 72 + 0.5))


@dataclass(frozen=True)
class _Frame:
    """Where a page lands in its image: the image size, and the page's own pixel size and offset."""

    width: int
    height: int
    page_w: int
    page_h: int
    left: int = 0
    top: int = 0


def _frame(page, dpi: int, trim: bool, size: tuple[int, int] | None = None) -> _Frame:
    """The page (or its TrimBox) at `dpi`, each side rounded to the nearest pixel, or stretched to `size`."""
    pw, ph = page.get_size()
    if trim:
        cl, _cb, _cr, ct = page.get_cropbox()
        l, b, r, t = page.get_trimbox()  # falls back to the crop box when a page has none
        l, t, bw, bh = max(0.0, l - cl), max(0.0, ct - t), r - l, t - b
    else:
        l, t, bw, bh = 0.0, 0.0, pw, ph
    if bw <= 0 or bh <= 0:
        raise ValueError("a page with an empty trim box")
    if size is not None and min(size) < 1:
        raise ValueError(f"an image of {size[0]} x {size[1]} px; expected at least 1 x 1")
    w, h = size or (max(1, px(bw, dpi)), max(1, px(bh, dpi)))
    sx, sy = w / bw, h / bh
    fw, fh = (w, h) if not trim else (max(1, px(pw, 72 * sx)), max(1, px(ph, 72 * sy)))
    return _Frame(w, h, fw, fh, px(l, 72 * sx), px(t, 72 * sy))


def _check_size(frame: _Frame) -> None:
    if frame.width * frame.height > MAX_PIXELS:
        raise ValueError(f"a page of {frame.width} x {frame.height} px is over the {MAX_PIXELS // 1_000_000} MP "
                         "an image may have; lower the dpi")


def _render(page, frame: _Frame, buf: bytearray, offset: int, stride: int, alpha: bool) -> None:
    """Draw `page` into `buf` (already cleared to the background) at byte `offset`, rows `stride` apart."""
    import pypdfium2.raw as pdfium_c  # lazy: 35 ms (pypdfium2.raw)

    arr = (ctypes.c_ubyte * len(buf)).from_buffer(buf)
    try:
        fmt = pdfium_c.FPDFBitmap_BGRA if alpha else pdfium_c.FPDFBitmap_BGR
        bitmap = pdfium_c.FPDFBitmap_CreateEx(frame.width, frame.height, fmt, ctypes.byref(arr, offset), stride)
        if not bitmap:
            raise MemoryError(f"pdfium could not make a {frame.width} x {frame.height} bitmap")
        try:  # no FPDFBitmap_FillRect: the buffer is the background already; pdfium draws over it
            pdfium_c.FPDF_RenderPageBitmap(bitmap, page.raw, -frame.left, -frame.top, frame.page_w, frame.page_h,
                                           0, pdfium_c.FPDF_REVERSE_BYTE_ORDER)
        finally:
            pdfium_c.FPDFBitmap_Destroy(bitmap)
    finally:
        del arr  # release the export, or the bytearray can never be resized or freed early


def _png_rows(page, frame: _Frame, alpha: bool) -> tuple[bytearray, int]:
    """The page as PNG image data (each row behind its filter byte 0), and the row length in bytes."""
    w, h = frame.width, frame.height
    if not alpha:
        stride = 3 * w + 1
        # one spare byte at the end: pdfium may reach `stride` bytes past the last row's start
        buf = bytearray(b"\xff") * (h * stride + 1)
        _render(page, frame, buf, 1, stride, False)
        buf[0:h * stride:stride] = bytes(h)  # the filter bytes: 0 = None
        return buf, stride
    packed = bytearray(4 * w * h)  # transparent black
    _render(page, frame, packed, 0, 4 * w, True)
    stride = 4 * w + 1
    buf = bytearray(h * stride + 1)
    src = memoryview(packed)
    for row in range(h):
        buf[row * stride + 1:(row + 1) * stride] = src[row * 4 * w:(row + 1) * 4 * w]
    return buf, stride


def png_bytes(rows, width: int, height: int, alpha: bool, dpi: int) -> bytes:
    """A PNG file from ready image data (`height` rows of filter byte + RGB or RGBA), with its dpi."""
    from zlib_ng import zlib_ng  # lazy: 2.5 ms (zlib_ng)

    ppm = int(dpi / 0.0254 + 0.5)
    return b"".join((
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)),
        _chunk(b"sRGB", b"\x00"),  # the colours are sRGB (as SVG's), perceptual intent
        _chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)),  # pixels per metre
        _chunk(b"IDAT", zlib_ng.compress(rows, PNG_LEVEL)),
        _chunk(b"IEND", b""),
    ))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def jpeg_bytes(image, dpi: int) -> bytes:
    """A Pillow RGB image as JPEG (quality 90, 4:4:4), with its dpi."""
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=JPEG_QUALITY, subsampling=0, dpi=(dpi, dpi))
    return out.getvalue()


def _encode_page(page, dpi: int, fmt: str, trim: bool, alpha: bool, size: tuple[int, int] | None = None) -> bytes:
    frame = _frame(page, dpi, trim, size)
    _check_size(frame)
    alpha = alpha and fmt == "png"
    rows, stride = _png_rows(page, frame, alpha)
    if fmt == "png":
        return png_bytes(memoryview(rows)[:frame.height * stride], frame.width, frame.height, alpha, dpi)
    from PIL import Image  # lazy: 19 ms (PIL)

    image = Image.frombuffer("RGB", (frame.width, frame.height), memoryview(rows)[1:1 + frame.height * stride],  # type: ignore[arg-type]
                             "raw", "RGB", stride, 1)
    return jpeg_bytes(image, dpi)


def _check_fmt(fmt: str, dpi: int) -> None:
    if fmt not in FORMATS:
        raise ValueError(f"unknown image format {fmt!r}; expected one of {', '.join(FORMATS)}")
    if not 1 <= dpi <= 2400:
        raise ValueError(f"dpi {dpi} is out of range; expected 1 to 2400")


# --- work on every core ------------------------------------------------------------------------------

_JOBS: dict[int, tuple] = {}  # token -> what the tasks of one call share (inherited by forked workers)
_next_token = 0


def _register(job: tuple) -> int:
    global _next_token
    _next_token += 1
    _JOBS[_next_token] = job
    return _next_token


def _ordered(fn: Callable, tasks: Sequence, work_mp: float) -> Iterator:
    """fn(task) for every task, in order: in forked workers (one per core) when there is enough work,
    with at most two tasks per worker in flight so that results never pile up in memory."""
    from pnp import parallel  # lazy: 4.5 ms (pnp)

    n = min(parallel.cores(), len(tasks))
    if n < 2 or work_mp < MIN_PARALLEL_MP or parallel.in_worker() \
            or "fork" not in multiprocessing.get_all_start_methods():
        for task in tasks:
            yield fn(task)
        return
    _preload()  # imported once here, not in every worker
    parallel._flush()
    with parallel.worker_pool(n) as pool:
        todo = iter(tasks)
        pending = deque(pool.apply_async(fn, (t,)) for t in islice(todo, 2 * n))
        while pending:
            result = pending.popleft().get()
            for t in islice(todo, 1):
                pending.append(pool.apply_async(fn, (t,)))
            yield result


def _preload() -> None:
    import pypdfium2  # noqa: F401  # lazy: 49 ms (pypdfium2)
    from PIL import Image  # noqa: F401  # lazy: 20 ms (PIL)
    from reportlab.graphics import renderPDF  # noqa: F401  # lazy: 171 ms (reportlab.graphics)
    from reportlab.pdfgen import canvas  # noqa: F401  # lazy: 66 ms (reportlab.pdfgen)
    from zlib_ng import zlib_ng  # noqa: F401  # lazy: 2.4 ms (zlib_ng)

    import pnp.layout.pdf  # noqa: F401  # lazy: 394 ms (pnp.layout.pdf)
    from pnp.render import fonts  # lazy: 12 ms (pnp.render)

    fonts.register()


def _runs(count: int, per_core: int = 4, most: int = 64) -> list[range]:
    """Contiguous runs of items: about `per_core` runs a core, at most `most` items each."""
    from pnp import parallel  # lazy: 4.2 ms (pnp)

    size = max(1, min(most, math.ceil(count / (parallel.cores() * per_core))))
    return [range(i, min(i + size, count)) for i in range(0, count, size)]


# --- any PDF's pages -------------------------------------------------------------------------------------

_OPEN: dict[int, object] = {}  # token -> this process's pdfium document of that job


def _document(token: int):
    import pypdfium2 as pdfium  # lazy: 46 ms (pypdfium2)

    doc = _OPEN.get(token)
    if doc is None:
        for old in list(_OPEN):  # one open document per process
            _OPEN.pop(old).close()  # type: ignore[attr-defined]
        doc = _OPEN[token] = pdfium.PdfDocument(_JOBS[token][0])
    return doc


def _pages_task(task: tuple[int, range]) -> list[bytes]:
    token, run = task
    _pdf, dpi, fmt, trim, transparent = _JOBS[token]
    doc = _document(token)
    out = []
    for i in run:
        page = doc[i]
        try:
            out.append(_encode_page(page, dpi, fmt, trim, i in transparent))
        finally:
            page.close()
    return out


def iter_pdf_pages(pdf: bytes, dpi: int = DPI, fmt: str = "png", *, trim: bool = False,
                   transparent: Iterable[int] = (), pages: Sequence[int] | None = None) -> Iterator[bytes]:
    """Each page of `pdf` (or each of `pages`, by index) as an encoded image, in order, made on every core.

    `trim`: only the TrimBox; `transparent`: indices of pages drawn as RGBA on a transparent background.
    """
    import pypdfium2 as pdfium  # lazy: 32 ms (pypdfium2)

    _check_fmt(fmt, dpi)
    doc = pdfium.PdfDocument(pdf)
    try:
        count = len(doc)
        wanted = list(range(count)) if pages is None else list(pages)
        if any(not 0 <= i < count for i in wanted):
            raise IndexError(f"the PDF has {count} pages")
        work = 0.0
        for i in wanted[:8]:  # the work to share, estimated from the first pages
            w, h = doc[i].get_size()
            work += w * h * (dpi / 72) ** 2 / 1e6
        work *= len(wanted) / max(1, min(8, len(wanted)))
    finally:
        doc.close()
    token = _register((pdf, dpi, fmt, trim, frozenset(transparent)))
    try:
        runs = _contiguous(wanted)
        for images in _ordered(_pages_task, [(token, r) for r in runs], work):
            yield from images
    finally:
        _JOBS.pop(token, None)
        if token in _OPEN:
            _OPEN.pop(token).close()  # type: ignore[attr-defined]


def _contiguous(indices: list[int]) -> list[list[int]]:
    """The indices cut into runs (of neighbouring pages when they are in order), a few per core."""
    return [[indices[i] for i in r] for r in _runs(len(indices))]


def rasterise_pdf_pages(pdf: bytes, dpi: int = DPI, fmt: str = "png", *, trim: bool = False,
                        transparent: Iterable[int] = (), pages: Sequence[int] | None = None) -> list[bytes]:
    """Every page of `pdf` (or `pages`) as an encoded image (PNG or JPEG), on every core: see `iter_pdf_pages`."""
    return list(iter_pdf_pages(pdf, dpi, fmt, trim=trim, transparent=transparent, pages=pages))


# --- faces: one PDF per run of faces, rasterised where it is made ---------------------------------------


def faces_pdf(faces: Sequence[Face]) -> bytes:
    """One PDF page per face, the page being the face's SVG size (trim + bleed), TrimBox and BleedBox
    set; drawn as the print sheets draw faces, fonts embedded once (ReportLab invariant mode)."""
    from reportlab.pdfgen.canvas import Canvas  # lazy: 62 ms (reportlab.pdfgen.canvas)

    from pnp.render import fonts  # lazy: 13 ms (pnp.render)

    fonts.register()
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1, pageCompression=1, initialFontName=fonts.REGULAR)
    for face in faces:
        width, height = _draw_svg(c, face.svg, face.resources)
        b = face.bleed * 72 / 25.4
        c.setPageSize((width, height))
        c.setBleedBox((0, 0, width, height))
        c.setTrimBox((b, b, width - b, height - b) if 0 < 2 * b < min(width, height) else None)  # boxes carry over
        c.showPage()
    c.save()
    return buf.getvalue()


def _draw_svg(c, svg: str, resources=None) -> tuple[float, float]:
    """Draw one face on the current page; its size in points. The one place that knows the SVG -> PDF
    renderer: pnp.render.svgpdf, as the print sheets, so a PNG shows what the PDF prints."""
    from pnp.render.svgpdf import compile_svg, draw  # lazy: 147 ms (pnp.render.svgpdf)

    compiled = compile_svg(svg, resources=resources)
    draw(compiled, c)
    return float(compiled.width), float(compiled.height)


def _faces_task(task: tuple[int, range]) -> list[bytes]:
    import pypdfium2 as pdfium  # lazy: 49 ms (pypdfium2)

    token, run = task
    faces, dpi, fmt, trim = _JOBS[token]
    chunk = [faces[i] for i in run]
    doc = pdfium.PdfDocument(faces_pdf(chunk))
    try:
        out = []
        for i, face in enumerate(chunk):
            page = doc[i]
            try:
                out.append(_encode_page(page, dpi, fmt, trim, face.transparent, face.px))
            finally:
                page.close()
        return out
    finally:
        doc.close()


def raster_faces(faces: Mapping[str, Face], dpi: int = DPI, fmt: str = "png", *, trim: bool = False,
                 cache: Cache = NO_CACHE) -> Iterator[tuple[str, bytes]]:
    """(name, image) for every face, in name order: from the cache, else made on every core and stored.

    Streams: a caller that writes each image as it comes holds one run of images per core at a time.
    """
    _check_fmt(fmt, dpi)
    names = sorted(faces)
    todo: list[str] = []
    hits: dict[str, bytes] = {}
    for name in names:
        hit = cache.get("raster", faces[name].key(dpi, fmt, trim))
        if hit is None:
            todo.append(name)
        else:
            hits[name] = hit
    made = _make(faces, todo, dpi, fmt, trim)
    for name in names:
        if name in hits:
            yield name, hits.pop(name)
            continue
        image = next(made)
        cache.put("raster", faces[name].key(dpi, fmt, trim), image)
        yield name, image


def _make(faces: Mapping[str, Face], todo: list[str], dpi: int, fmt: str, trim: bool) -> Iterator[bytes]:
    if not todo:
        return
    chunk = [faces[n] for n in todo]
    token = _register((chunk, dpi, fmt, trim))
    try:
        work = sum(_face_mp(f, dpi) for f in chunk)
        for images in _ordered(_faces_task, [(token, r) for r in _runs(len(chunk))], work):
            yield from images
    finally:
        _JOBS.pop(token, None)


def _face_mp(face: Face, dpi: int) -> float:
    """Megapixels of a face at `dpi`, from its root <svg>'s width and height in mm (else a card's)."""
    start = face.svg.find("<svg")
    root = face.svg[start:face.svg.find(">", start)] if start >= 0 else ""
    w, h = (re.search(rf'\s{a}="([0-9.]+)mm"', root) for a in ("width", "height"))
    if not (w and h):
        return 0.9
    return float(w.group(1)) * float(h.group(1)) * (dpi / 25.4) ** 2 / 1e6


# --- Tabletop Simulator deck sheets ---------------------------------------------------------------------


def tts_grid(cards: int) -> list[tuple[int, int, int]]:
    """(cards, cols, rows) of each deck sheet for `cards` card copies: up to 69 cards a sheet, then one
    slot for the hidden card (the back), the grid as narrow as the cards allow (TTS's Custom Deck)."""
    per = TTS_COLS * TTS_ROWS - 1
    out = []
    for start in range(0, cards, per):
        n = min(per, cards - start)
        cols = min(TTS_COLS, n + 1)
        out.append((n, cols, math.ceil((n + 1) / cols)))
    return out


def _sheet_image(sheet: Sheet, dpi: int, fmt: str) -> bytes:
    """Draw every cell's face straight into its place in the sheet's rows (no face image in between)."""
    import pypdfium2 as pdfium  # lazy: 52 ms (pypdfium2)

    cw, ch = sheet.cell_px
    width, height = sheet.cols * cw, sheet.rows * ch
    _check_size(_Frame(width, height, width, height))
    stride = 3 * width + 1
    buf = bytearray(b"\xff") * (height * stride + stride)  # a spare row: see _png_rows
    distinct = list(dict.fromkeys(c for c in sheet.cells if c is not None))
    if distinct:
        doc = pdfium.PdfDocument(faces_pdf(distinct))
        try:
            pages = [doc[i] for i in range(len(distinct))]
            frames = [_frame(p, dpi, True, sheet.cell_px) for p in pages]
            for slot, face in enumerate(sheet.cells[:sheet.cols * sheet.rows]):
                if face is not None:
                    i = distinct.index(face)
                    x, y = (slot % sheet.cols) * cw, (slot // sheet.cols) * ch
                    _render(pages[i], frames[i], buf, 1 + y * stride + 3 * x, stride, False)
        finally:
            doc.close()
    buf[0:height * stride:stride] = bytes(height)
    if fmt == "png":
        return png_bytes(memoryview(buf)[:height * stride], width, height, False, dpi)
    from PIL import Image  # lazy: 20 ms (PIL)

    image = Image.frombuffer("RGB", (width, height), memoryview(buf)[1:1 + height * stride], "raw", "RGB", stride, 1)  # type: ignore[arg-type]
    return jpeg_bytes(image, dpi)


def _sheet_task(task: tuple[int, int]) -> bytes:
    token, n = task
    sheets, dpi, fmt = _JOBS[token]
    return _sheet_image(sheets[n], dpi, fmt)


def render_sheets(sheets: Sequence[Sheet], dpi: int = TTS_DPI, fmt: str = "png", *,
                  cache: Cache = NO_CACHE) -> Iterator[bytes]:
    """Each sheet's image, in order: from the cache, else drawn straight from a PDF of its own faces,
    a sheet per task on every core (memory stays flat for any number of sheets). `dpi` is the
    metadata the image carries; the cells' pixel size is `Sheet.cell_px`."""
    _check_fmt(fmt, dpi)
    keys = [s.key(dpi, fmt) for s in sheets]
    hits = [cache.get("sheet", k) for k in keys]
    todo = [i for i, v in enumerate(hits) if v is None]
    token = _register((list(sheets), dpi, fmt))
    try:
        work = sum(sheets[i].cols * sheets[i].rows * sheets[i].cell_px[0] * sheets[i].cell_px[1] / 1e6 for i in todo)
        made = _ordered(_sheet_task, [(token, i) for i in todo], work)
        for i, key in enumerate(keys):
            image = hits[i]
            if image is None:
                image = next(made)
                cache.put("sheet", key, image)
            hits[i] = None
            yield image
    finally:
        _JOBS.pop(token, None)


def tts_sheets(copies: Sequence[Face], back: Face, dpi: int = TTS_DPI, fmt: str = "png", *,
               cache: Cache = NO_CACHE) -> Iterator[TtsSheet]:
    """Tabletop Simulator deck sheets as pnp.exports.files lays them today: one slot per card copy, up to 69
    a sheet, the back in each sheet's last slot; cells of the back's trim at `dpi`."""
    import pypdfium2 as pdfium  # lazy: 33 ms (pypdfium2)

    _check_fmt(fmt, dpi)
    doc = pdfium.PdfDocument(faces_pdf([back]))
    try:
        frame = _frame(doc[0], dpi, True)
    finally:
        doc.close()
    plan, start = [], 0
    for n, cols, rows in tts_grid(len(copies)):
        cells = list(copies[start:start + n]) + [None] * (cols * rows - 1 - n) + [back]
        plan.append(Sheet(tuple(cells), cols, rows, (frame.width, frame.height)))
        start += n
    for sheet, image in zip(plan, render_sheets(plan, dpi, fmt, cache=cache)):
        yield TtsSheet(image, sum(1 for c in sheet.cells[:-1] if c is not None), sheet.cols, sheet.rows)
