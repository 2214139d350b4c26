"""Art a face draws: `<image href="icons/sword.png" x y width height/>` in a template or a ready SVG.

An href is a path relative to the design folder (or a `data:` URI), read only through
pnp.confine.DesignFiles: inside the folder (or an `--allow-dir` folder), a regular file, at most
`image_bytes`, with one of ART_EXTENSIONS; a raster is decoded by Pillow under the `image_pixels`
bound (its decompression-bomb guard set to the same). The face SVG pnp keeps (cache, sheets, PNG)
keeps the href as written and gains `data-pnp-art="<content hash>"` on the element, so every product
made from the SVG text (compiled drawing, PDF, PNG) changes when the file does; the face's own
cache key holds `art_hash(folder)`, a hash of every art file's content.

The PDF and the PNG draw the art through pnp.render.svgpdf with `ArtFiles(folder)` as its resource
reader: each distinct file becomes one image XObject (one form for an SVG file, drawn as vector),
shared by every card that shows it. The SVG files written to `svg/` stand alone: hrefs point to a
copy of each file under `svg/art/` (same path as in the design folder; files from an `--allow-dir`
folder under `svg/art/_shared/<hash>-<name>`), so a browser shows them; an SVG file is copied without what a
browser would run (pnp.render.sanitise.clean_file), which `check_art` warns about at the file's lines.

`check_art` runs when a face is painted: a missing, refused or unreadable image is a `file:line`
DesignError (the template's line that holds the <image>), a raster printed below MIN_DPI at its
placed size a warning naming the template line, the file and its dpi.
"""

from __future__ import annotations

import hashlib
import html
import io
import os
import re
import stat
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote

from lxml import etree
from markupsafe import escape

from pnp.confine import DesignFiles, FileRefused, allowed_dirs
from pnp.errors import DesignError, Problem, display_path, warn, with_warning_marks
from pnp.limits import limit
from pnp.render.fonts import FONT_EXTENSIONS
from pnp.render.sanitise import clean_file, warnings_of

ART_EXTENSIONS = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".svg")
MIN_DPI = 300
ATTR = "data-pnp-art"
_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK = "{http://www.w3.org/1999/xlink}href"
EXPECTED = "expected a PNG, JPEG, WebP, GIF or SVG file inside the design folder (a path relative to it)"


def _pixel_guard() -> None:
    """Pillow's decompression-bomb guard at pnp's bound (it warns at the bound, raises at twice it; svgpdf
    turns the warning into a refusal)."""
    from PIL import Image  # lazy: 19 ms (PIL)

    Image.MAX_IMAGE_PIXELS = limit("image_pixels")


class ArtFiles:
    """The resource reader of pnp.render.svgpdf for one design: href -> bytes, None when there is no such
    file, FileRefused (its message says why) for what the design may not read. Picklable."""

    def __init__(self, folder: Path | str, extra: tuple[Path, ...] | None = None):
        self.folder = Path(folder)
        self.extra = tuple(extra) if extra is not None else allowed_dirs()

    def _files(self) -> DesignFiles:
        return DesignFiles(self.folder, self.extra)

    def locate(self, href: str) -> Path | None:
        name = href.split("#", 1)[0].split("?", 1)[0]
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", name):  # http:, file:, C:... (data: is read by svgpdf itself)
            raise FileRefused(f"image '{href}' is a URL; {EXPECTED}")
        if not name.lower().endswith(ART_EXTENSIONS + FONT_EXTENSIONS):
            raise FileRefused(f"image '{href}' has an unsupported extension; {EXPECTED}")
        if "%" in name:  # a URL's escapes (css_url writes them): the file they name, else one named as written
            found = self._files().locate(unquote_url(name), what="image")
            if found is not None:
                return found
        return self._files().locate(name, what="image")

    def __call__(self, href: str) -> bytes | None:
        _pixel_guard()
        path = self.locate(href)
        if path is None:
            return None
        return self._files().read_bytes(path, "font_bytes" if path.name.lower().endswith(FONT_EXTENSIONS)
                                        else "image_bytes")

    def copy_name(self, href: str) -> str | None:
        """Where the copy of `href` goes under svg/ (posix, relative to svg/); None if there is no such file."""
        path = self.locate(href)
        if path is None:
            return None
        real = Path(os.path.realpath(path)) if path else None
        root = Path(os.path.realpath(self.folder))
        if real is not None:
            try:
                return "art/" + real.relative_to(root).as_posix()
            except ValueError:
                pass
        name = PurePosixPath(href.replace("\\", "/")).name
        return f"art/_shared/{content_hash(str(real).encode())[:12]}-{name}"


class ArtCopy:
    """A file of the design copied into the output when it is published (read then, not held in memory)."""

    def __init__(self, files: ArtFiles, href: str):
        self.files, self.href = files, href

    def read_bytes(self) -> bytes:
        data = self.files(self.href)
        if data is None:
            raise FileRefused(f"image '{self.href}' disappeared during the build")
        if is_svg_art(self.href):  # without what a browser would run (warned when the face was painted)
            try:
                return clean_file(data)[0]
            except ValueError as exc:
                raise FileRefused(f"image '{self.href}' is not SVG pnp can read ({exc})") from None
        return data


def is_svg_art(href: str) -> bool:
    return href.split("#", 1)[0].split("?", 1)[0].lower().endswith(".svg")


def _svg_art_warnings(files: ArtFiles, href: str, data: bytes) -> list[tuple[str, int | None, str]]:
    """What svg/art/'s copy of the SVG file `href` goes without (pnp.render.sanitise), as warnings at its lines."""
    try:
        removed = clean_file(data)[1]
    except ValueError:  # drawing it says what is wrong with it
        return []
    if not removed:
        return []
    path = files.locate(href)
    return warnings_of(removed, path) if path is not None else []


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:24]


def art_hash(folder: Path | str, extra: tuple[Path, ...] | None = None) -> str:
    """One hash of the content of every art file (ART_EXTENSIONS) in the design folder and the --allow-dir
    folders: part of every face's cache key, so editing a PNG paints again the faces that may show it."""
    h = hashlib.sha256()
    roots = [Path(folder), *(allowed_dirs() if extra is None else extra)]
    seen = 0
    for n, base in enumerate(roots):
        for root, dirs, names in os.walk(base, followlinks=False):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
            for name in sorted(names):
                if not name.lower().endswith(ART_EXTENSIONS + FONT_EXTENSIONS):
                    continue
                seen += 1
                if seen > limit("design_files"):
                    h.update(b"too many files")
                    return h.hexdigest()[:24]
                path = Path(root) / name
                h.update(f"{n}\0{path.relative_to(base).as_posix()}\0".encode())
                _hash_file(h, path, roots)
    return h.hexdigest()[:24]


def _hash_file(h: Any, path: Path, roots: list[Path]) -> None:
    """A file's bytes into `h`, when it is a regular file inside the design's folders (after links) and within
    `image_bytes`; else what it is (a link out, a FIFO, a device, too large), never opened to be read: a FIFO or a
    link to /dev/zero among the design's files is never waited on, a file outside the folders never read."""
    real = os.path.realpath(path)
    if not any(real == str(r) or real.startswith(str(r).rstrip(os.sep) + os.sep)
               for r in (Path(os.path.realpath(r)) for r in roots)):
        h.update(b"outside")
        return
    try:
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        h.update(f"unreadable {exc.errno}".encode())
        return
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            h.update(f"special {stat.S_IFMT(st.st_mode)}".encode())
        elif st.st_size > limit("image_bytes"):
            h.update(f"large {st.st_size} {st.st_mtime_ns}".encode())
        else:
            while chunk := os.read(fd, 1 << 20):
                h.update(chunk)
    except OSError as exc:
        h.update(f"unreadable {exc.errno}".encode())
    finally:
        os.close(fd)


def _images(root) -> list:
    return [el for el in root.iter(f"{{{_SVG_NS}}}image", "image")]


def _href(el) -> str:
    return (el.get("href") or el.get(_XLINK) or "").strip()


def has_images(svg: str) -> bool:
    return "<image" in svg or ":image" in svg


def check_art_names(svg: str, files: ArtFiles, source: Path) -> None:
    """A ready SVG file's images, before anything is painted: each names a file the design may read
    (DesignError at the <image>'s line otherwise)."""
    root = etree.fromstring(svg.encode("utf-8"), etree.XMLParser(resolve_entities=False, no_network=True,
                                                                  load_dtd=False))
    problems = []
    for el in _images(root):
        href = _href(el)
        if not href or href.startswith(("data:", "#")):
            continue
        try:
            found = files.locate(href)
        except FileRefused as exc:
            problems.append(Problem(display_path(source), el.sourceline, f"<image>: {exc.message}"))
            continue
        if found is None:
            problems.append(Problem(display_path(source), el.sourceline, f"<image> '{href}' not found; {EXPECTED} "
                                    f"{display_path(files.folder)}/"))
    if problems:
        raise DesignError(problems)


def check_art(svg: str, root, files: ArtFiles, source: Path, row: str = "") -> str:
    """The face SVG with each art file's content hash on its <image>, after checking that every image reads
    and draws (DesignError at `source`'s line holding the <image> otherwise) and warning about rasters
    placed below MIN_DPI. `root` is the parsed `svg` (lxml); `row` says which data row filled it."""
    if root is None or not has_images(svg):
        return svg
    images = _images(root)
    if not images:
        return svg
    problems: list[Problem] = []
    removed: list[tuple[str, int | None, str]] = []
    for el in images:
        href = _href(el)
        if not href or href.startswith(("data:", "#")):
            continue
        try:
            data = files(href)
        except FileRefused as exc:
            problems.append(Problem(*_where(source, href), f"<image>: {exc.message}{row}"))
            continue
        if data is None:
            problems.append(Problem(*_where(source, href), f"<image> '{href}' not found{row}; {EXPECTED} "
                                    f"{display_path(files.folder)}/"))
            continue
        el.set(ATTR, content_hash(data))
        if is_svg_art(href):
            removed += [w for w in _svg_art_warnings(files, href, data) if w not in removed]
    if problems:
        raise DesignError(problems)
    out = etree.tostring(root.getroottree(), encoding="unicode")
    text = '<?xml version="1.0" encoding="utf-8"?>\n' + out + "\n" if svg.lstrip().startswith("<?xml") else out
    notes = [*removed, *((p.file, p.line, p.message) for p in _check_drawn(text, files, source, row))]
    for note in notes:
        warn(*note)
    return with_warning_marks(text, notes, files.folder)


def _check_drawn(svg: str, files: ArtFiles, source: Path, row: str) -> list[Problem]:
    """Compile the face as the PDF will: an image that does not decode is an error; a raster under MIN_DPI
    at its placed size (the whole transform applied) a warning."""
    from pnp.render.svgpdf import compile_svg  # lazy: 133 ms (pnp.render.svgpdf)

    _pixel_guard()
    compiled = compile_svg(svg, resources=files)
    problems = []
    for w in compiled.warnings:
        if w.error and ("<image" in w.message or "SVG image" in w.message):
            href = _quoted_href(w.message)
            problems.append(Problem(*_where(source, href), f"{w.message}{row}; {EXPECTED}"))
    if problems:
        raise DesignError(problems)
    notes: list[Problem] = []
    sizes = _pixel_sizes(compiled)
    hrefs = _hrefs_by_key(svg, compiled, files)
    for key, (w_pt, h_pt) in _placed(compiled):
        px = sizes.get(key)
        if not px or w_pt <= 0 or h_pt <= 0:
            continue
        dpi = min(px[0] / (w_pt / 72), px[1] / (h_pt / 72))
        if dpi < MIN_DPI - 0.5:
            href = hrefs.get(key, "an image")
            notes.append(Problem(*_where(source, href), f"{href} prints at {dpi:.0f} dpi ({px[0]} x {px[1]} px over "
                 f"{w_pt / 72 * 25.4:.1f} x {h_pt / 72 * 25.4:.1f} mm){row}; expected at least {MIN_DPI} dpi: "
                 f"a larger image, or place it smaller"))
    return notes


def _pixel_sizes(compiled) -> dict[str, tuple[int, int]]:
    from PIL import Image  # lazy: 15 ms (PIL)

    out = {}
    for key, data in compiled.images.items():
        if hasattr(data, "pixels"):  # (a big file the drawing reads again when drawn: its size is known)
            out[key] = data.pixels
            continue
        try:
            with Image.open(io.BytesIO(data)) as im:
                out[key] = im.size
        except Exception:
            continue
    return out


def _hrefs_by_key(svg: str, compiled, files: ArtFiles) -> dict[str, str]:
    """content key (svgpdf's) -> an href that gave it, for messages."""
    from pnp.render.svgpdf.compiler import _content_key  # lazy: 105 ms (pnp.render.svgpdf.compiler)

    out: dict[str, str] = {}
    if not compiled.images:
        return out
    for href in dict.fromkeys(re.findall(r'href="([^"]+)"', svg)):
        if href.startswith(("data:", "#")):
            continue
        try:
            data = files(href)
        except FileRefused:
            continue
        if data is not None:
            out.setdefault(_content_key(data), href)
    return out


def _placed(compiled):
    """(image key, (width, height) in points on the page) for every raster drawn, the transforms applied."""
    m = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    stack = []
    for op in compiled.ops:
        k = op[0]
        if k == "q":
            stack.append(m)
        elif k == "Q":
            m = stack.pop() if stack else m
        elif k == "cm":
            a, b, c, d, e, f = op[1:]
            m = (a * m[0] + b * m[2], a * m[1] + b * m[3], c * m[0] + d * m[2], c * m[1] + d * m[3],
                 e * m[0] + f * m[2] + m[4], e * m[1] + f * m[3] + m[5])
        elif k == "image":
            w, h = op[4], op[5]
            yield op[1], (abs(w) * (m[0] ** 2 + m[1] ** 2) ** 0.5, abs(h) * (m[2] ** 2 + m[3] ** 2) ** 0.5)


def _quoted_href(message: str) -> str | None:
    m = re.match(r"<image> (\S+):", message)
    return m.group(1) if m else None


def _where(source: Path, href: str | None) -> tuple[str, int | None]:
    """The template (or SVG file) and the line of the <image> naming `href` (else its first <image>): a guess
    from the text of the file the face was made from (an <image> in an included template has no line)."""
    try:
        text = DesignFiles(Path(source).parent).read_bytes(Path(source), "template_bytes", shared=True).decode(
            "utf-8", "replace")
    except FileRefused:
        return display_path(source), None
    lines = text.splitlines()
    first = None
    for i, line in enumerate(lines, start=1):
        if href and href in line:
            return display_path(source), i
        if first is None and "<image" in line:
            first = i
    return display_path(source), first


def stands_alone(svg: str) -> bool:
    """The face names no file (no art, no font): written to svg/ as it is (output_svg changes nothing)."""
    return ATTR not in svg and "@font-face" not in svg


def output_svg(svg: str, files: ArtFiles, copies: dict[str, object]) -> str:
    """The SVG as written to svg/: each file href pointing to its copy under svg/art/ (added to `copies`:
    name under svg/ -> ArtCopy), the pnp-only attribute kept (it is inert in browsers)."""
    if stands_alone(svg):
        return svg

    def href(m: re.Match) -> str:  # an attribute's text is XML: its file is named by the text unescaped
        attr, raw = m.group(1), m.group(2)
        text = html.unescape(raw)
        try:
            name = files.copy_name(text)
        except FileRefused:
            return m.group(0)
        if name is None:
            return m.group(0)
        copies.setdefault(name, ArtCopy(files, text))
        return f'{attr}="{escape(name)}"'

    def font(m: re.Match) -> str:  # a CSS url() pnp wrote (font_css): escaped as a URL
        try:
            name = files.copy_name(m.group(2))
        except FileRefused:
            return m.group(0)
        if name is None:
            return m.group(0)
        copies.setdefault(name, ArtCopy(files, m.group(2)))
        return f'{m.group(1)}("{css_url(name)}")'

    svg = re.sub(r'((?:xlink:)?href)="(?!data:|#)([^"]+)"', href, svg)
    return re.sub(r'(src: url)\("(?!data:)([^"]+)"\)', font, svg)


_URL_UNSAFE = re.compile(r'[%"\'\\<>&\x00-\x1f\x7f]')


def css_url(name: str) -> str:
    """A file name as it stands in a CSS url("...") of an SVG: the characters that would end the CSS string or
    break the XML around it (quotes, backslash, <, >, &, controls) and % escaped as a URL's %XX; a name without
    them as it is."""
    return _URL_UNSAFE.sub(lambda m: f"%{ord(m.group(0)):02X}", name)


def unquote_url(name: str) -> str:
    return unquote(name)
