"""PDF/X print-shop files: the print-shop PDF (ReportLab's, in sRGB) rewritten with pikepdf into CMYK through an
ICC output profile, with its OutputIntent and the identification of PDF/X-1a:2003 or PDF/X-4.

- Colours: every `rg`/`RG` (and DeviceRGB `sc`/`scn`) becomes `k`/`K` through the profile (sRGB to CMYK,
  relative colorimetric with black-point compensation); neutral greys become black ink alone (text and lines
  stay sharp, with no four-colour registration); images become DeviceCMYK; shadings' colours too.
- Transparency: PDF/X-4 keeps it (soft masks, opacity). PDF/X-1a forbids it, so a page that uses any (an
  image's soft mask, an opacity below 1, a blend mode, a transparency group) is flattened: drawn by pdfium over
  white and placed as one CMYK image (600 dpi, fewer for large pages); `to_pdfx` returns which pages were.
- Boxes: the pages keep the TrimBox and BleedBox the print-shop layout set.
- Fonts: ReportLab embeds every TrueType font it draws with (subsets); nothing here adds one.
The output is deterministic: the same input gives the same bytes (fixed ids and dates).
"""

from __future__ import annotations

import hashlib
import io
import uuid
import warnings
import zlib
from pathlib import Path

import pikepdf
from pikepdf import Array, Dictionary, Name, Operator, String

PROFILE = Path(__file__).resolve().parent.parent / "icc" / "artifex-cmyk-swop.icc"
CONDITION = "Artifex CMYK SWOP Profile"  # the profile's own description (an unregistered condition: embedded)
VERSIONS = ("x-1a", "x-4")
MAX_DPI = 600
MAX_PIXELS = 25_000_000  # a flattened page (X-1a): fewer dpi for a large board than for a card

_RGB_OPS = {"rg": "k", "RG": "K"}


class _Cmyk:
    """sRGB to CMYK through the output profile (littleCMS, via Pillow), each colour converted once."""

    def __init__(self) -> None:
        from PIL import ImageCms  # lazy: 22 ms (PIL)

        self.transform = ImageCms.buildTransform(
            ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(PROFILE)), "RGB", "CMYK",
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
        self.memo: dict[tuple[int, int, int], tuple[float, float, float, float]] = {}

    def colour(self, rgb) -> list[float]:
        from PIL import Image  # lazy: 17 ms (PIL)

        r, g, b = (max(0, min(255, round(float(v) * 255))) for v in rgb)
        key = (r, g, b)
        if key not in self.memo:
            if r == g == b:  # a neutral grey: black ink alone
                self.memo[key] = (0.0, 0.0, 0.0, round(1 - r / 255, 4))
            else:
                px = self.transform.apply(Image.new("RGB", (1, 1), key)).getpixel((0, 0))
                c, m, y, k = px if isinstance(px, tuple) else (0, 0, 0, 0)
                self.memo[key] = (round(c / 255, 4), round(m / 255, 4), round(y / 255, 4), round(k / 255, 4))
        return list(self.memo[key])

    def image(self, img):
        return self.transform.apply(img.convert("RGB"))


def _transparent(obj, seen: set) -> bool:
    """Whether a page or form (or anything it draws) uses transparency, which PDF/X-1a forbids."""
    if obj.objgen != (0, 0):
        if obj.objgen in seen:
            return False
        seen.add(obj.objgen)
    group = obj.get("/Group")
    if group is not None and group.get("/S") == Name.Transparency:
        return True
    res = obj.get("/Resources") or Dictionary()
    for gs in (res.get("/ExtGState") or Dictionary()).values():
        if float(gs.get("/ca", 1)) < 1 or float(gs.get("/CA", 1)) < 1:
            return True
        if gs.get("/SMask", Name("/None")) != Name("/None") or gs.get("/BM", Name.Normal) not in (Name.Normal,
                                                                                               Name.Compatible):
            return True
    for x in (res.get("/XObject") or Dictionary()).values():
        if x.get("/Subtype") == Name.Image and ("/SMask" in x or ("/Mask" in x and isinstance(x.Mask, pikepdf.Stream))):
            return True
        if x.get("/Subtype") == Name.Form and _transparent(x, seen):
            return True
    return False


class _Unsupported(Exception):
    """Content this converter does not rewrite (an inline image, a colour space it does not know): the page is
    flattened instead."""


def _convert_stream(pdf, obj, cmyk: _Cmyk, seen: set) -> None:
    """Rewrite a page's or form's content (and its forms', images', shadings') from RGB to CMYK, in place."""
    if obj.objgen != (0, 0):
        if obj.objgen in seen:
            return
        seen.add(obj.objgen)
    res = obj.get("/Resources") or Dictionary()
    spaces: dict[str, object] = {"fill": Name.DeviceGray, "stroke": Name.DeviceGray}
    out: list = []
    for instruction in pikepdf.parse_content_stream(obj):
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):
            raise _Unsupported("an inline image")
        operands: list = list(instruction.operands)
        op = instruction.operator
        name = str(op)
        if name in _RGB_OPS:
            out.append((cmyk.colour(operands), Operator(_RGB_OPS[name])))
            continue
        if name in ("cs", "CS"):
            space = operands[0]
            if space == Name.DeviceRGB:
                operands = [Name.DeviceCMYK]
            elif space not in (Name.DeviceGray, Name.DeviceCMYK, Name.Pattern):
                raise _Unsupported(f"colour space {space}")
            spaces["fill" if name == "cs" else "stroke"] = operands[0]
        elif name in ("sc", "scn", "SC", "SCN"):
            space = spaces["fill" if name in ("sc", "scn") else "stroke"]
            if space == Name.DeviceCMYK and len(operands) == 3:
                operands = cmyk.colour(operands)
        out.append((operands, op))
    data = zlib.compress(pikepdf.unparse_content_stream(out), 6)
    if isinstance(obj, pikepdf.Stream):
        obj.write(data, filter=Name.FlateDecode)
    else:  # a page: its content streams become one
        obj.Contents = pikepdf.Stream(pdf, data)
        obj.Contents.Filter = Name.FlateDecode
    if "/ColorSpace" in res:
        for space in res.ColorSpace.values():
            if space not in (Name.DeviceGray, Name.DeviceCMYK) and not (isinstance(space, Array)
                                                                         and space[0] == Name.Pattern):
                raise _Unsupported(f"colour space {space}")
    for sh in (res.get("/Shading") or Dictionary()).values():
        _convert_shading(sh, cmyk)
    for pat in (res.get("/Pattern") or Dictionary()).values():
        if pat.get("/PatternType") == 2:
            _convert_shading(pat.Shading, cmyk)
        else:
            _convert_stream(pdf, pat, cmyk, seen)
    for x in (res.get("/XObject") or Dictionary()).values():
        if x.get("/Subtype") == Name.Form:
            _convert_stream(pdf, x, cmyk, seen)
        elif x.get("/Subtype") == Name.Image and x.objgen not in seen:
            seen.add(x.objgen)
            _convert_image(x, cmyk)


def _convert_shading(sh, cmyk: _Cmyk) -> None:
    if sh.get("/ColorSpace") in (Name.DeviceGray, Name.DeviceCMYK):
        return
    if sh.get("/ColorSpace") != Name.DeviceRGB:
        raise _Unsupported(f"shading colour space {sh.get('/ColorSpace')}")

    def function(f) -> None:
        if f.get("/FunctionType") == 2:
            for key in ("/C0", "/C1"):
                f[key] = Array(cmyk.colour(f.get(key, Array([0, 0, 0]) if key == "/C0" else Array([1, 1, 1]))))
        elif f.get("/FunctionType") == 3:
            for g in f.Functions:
                function(g)
        else:
            raise _Unsupported("a sampled or PostScript shading function")

    fn = sh.Function
    for f in (fn if isinstance(fn, Array) else [fn]):
        function(f)
    sh.ColorSpace = Name.DeviceCMYK


def _convert_image(x, cmyk: _Cmyk) -> None:
    space = x.get("/ColorSpace")
    if space in (Name.DeviceGray, Name.DeviceCMYK) or x.get("/ImageMask", False):
        return
    if space != Name.DeviceRGB:
        raise _Unsupported(f"image colour space {space}")
    img = pikepdf.PdfImage(x).as_pil_image()
    converted = cmyk.image(img)
    x.write(zlib.compress(converted.tobytes(), 6), filter=Name.FlateDecode)
    x.ColorSpace, x.BitsPerComponent = Name.DeviceCMYK, 8
    for key in ("/DecodeParms", "/Decode"):
        if key in x:
            del x[key]


def _flatten(pdf, page, index: int, source: bytes, cmyk: _Cmyk) -> None:
    """Replace a page by pdfium's drawing of it over white, as one CMYK image covering its MediaBox."""
    import pypdfium2 as pdfium  # lazy: 27 ms (pypdfium2)

    x0, y0, x1, y1 = (float(v) for v in page.mediabox)
    w_in, h_in = (x1 - x0) / 72, (y1 - y0) / 72
    dpi = min(MAX_DPI, int((MAX_PIXELS / (w_in * h_in)) ** 0.5))
    doc = pdfium.PdfDocument(source)
    try:
        bitmap = doc[index].render(scale=dpi / 72, fill_color=(255, 255, 255, 255))
        img = cmyk.image(bitmap.to_pil())
    finally:
        doc.close()
    image = pikepdf.Stream(pdf, zlib.compress(img.tobytes(), 6))
    image.Type, image.Subtype = Name.XObject, Name.Image
    image.Width, image.Height, image.ColorSpace, image.BitsPerComponent = img.width, img.height, Name.DeviceCMYK, 8
    image.Filter = Name.FlateDecode
    page.obj.Resources = Dictionary(XObject=Dictionary(Im0=image))
    content = f"q {x1 - x0:.4f} 0 0 {y1 - y0:.4f} {x0:.4f} {y0:.4f} cm /Im0 Do Q".encode()
    page.obj.Contents = pikepdf.Stream(pdf, content)
    if "/Group" in page.obj:
        del page.obj["/Group"]


def _output_intent(pdf) -> None:
    profile = pikepdf.Stream(pdf, zlib.compress(PROFILE.read_bytes(), 9))
    profile.N, profile.Filter = 4, Name.FlateDecode
    intent = Dictionary(Type=Name.OutputIntent, S=Name.GTS_PDFX, OutputConditionIdentifier=String(CONDITION),
                        OutputCondition=String(CONDITION), Info=String(CONDITION),
                        RegistryName=String("http://www.color.org"), DestOutputProfile=profile)
    pdf.Root.OutputIntents = Array([pdf.make_indirect(intent)])


def _identify(pdf, version: str, title: str, source: bytes) -> None:
    info = pdf.docinfo
    info.Title = String(title)
    if version == "x-4":  # XMP metadata, from the Info dictionary, before its PDF/X keys
        doc_id = f"uuid:{uuid.UUID(bytes=hashlib.sha256(source).digest()[:16])}"
        with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
            with warnings.catch_warnings():  # Info keys XMP has no field for (Trapped: set below), left out
                warnings.simplefilter("ignore", UserWarning)
                meta.load_from_docinfo(info)  # title, author, subject, creator, producer, dates as the Info says
            meta["xmp:MetadataDate"] = meta["xmp:ModifyDate"]
            meta["pdf:Trapped"] = "False"
            meta["xmpMM:DocumentID"] = doc_id
            meta["xmpMM:InstanceID"] = doc_id
            meta["xmpMM:VersionID"] = "1"
            meta["xmpMM:RenditionClass"] = "default"
            meta["pdfxid:GTS_PDFXVersion"] = "PDF/X-4"
        info.GTS_PDFXVersion = String("PDF/X-4")
    else:
        info.GTS_PDFXVersion = String("PDF/X-1:2003")
        info.GTS_PDFXConformance = String("PDF/X-1a:2003")
    info.Trapped = Name("/False")


def to_pdfx(data: bytes, version: str, title: str) -> tuple[bytes, list[int]]:
    """The PDF `data` as PDF/X (`version` "x-1a" or "x-4"), and the 0-based pages flattened to an image
    (X-1a: those that used transparency or content this converter does not rewrite)."""
    if version not in VERSIONS:
        raise ValueError(f"PDF/X version {version!r}; expected one of {', '.join(VERSIONS)}")
    cmyk = _Cmyk()
    flattened: list[int] = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for i, page in enumerate(pdf.pages):
            if version == "x-1a" and _transparent(page.obj, set()):
                flattened.append(i)
        seen: set = set()
        for i, page in enumerate(pdf.pages):
            if i in flattened:
                continue
            try:
                _convert_stream(pdf, page.obj, cmyk, seen)
            except _Unsupported:
                flattened.append(i)
        for i in sorted(flattened):
            _flatten(pdf, pdf.pages[i], i, data, cmyk)
        _output_intent(pdf)
        _identify(pdf, version, title, data)
        out = io.BytesIO()
        pdf.remove_unreferenced_resources()
        pdf.save(out, force_version="1.4" if version == "x-1a" else "1.6", deterministic_id=True,
                 object_stream_mode=pikepdf.ObjectStreamMode.disable if version == "x-1a"
                 else pikepdf.ObjectStreamMode.preserve, compress_streams=True)
    return out.getvalue(), sorted(flattened)


def flattened_pages(data: bytes) -> list[int]:
    """The 0-based pages of a PDF/X file that `to_pdfx` flattened: those drawing an image directly (a face's page
    otherwise draws the face as a form)."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return [i for i, page in enumerate(pdf.pages)
                if any(x.get("/Subtype") == Name.Image for x in (page.Resources.get("/XObject") or {}).values())]
