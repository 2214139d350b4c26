"""The one place that decides which files a design may read.

A design is untrusted input. Every file it names — data tables, templates and what they
include, ready SVG files, rulebook images and includes — goes through a `DesignFiles`:

- the name is relative; after following every symlink it lies inside the design folder
  (or, for templates and rules texts, inside what pnp ships: `templates/` and its own
  designs), or inside a folder the user named with `--allow-dir`; an absolute path, a `..`
  that leaves the folder, or a symlink that points out is refused;
- it is a regular file (a FIFO, a device such as /dev/zero, a folder is refused before
  anything is read), of bounded size (pnp.limits);
- text is UTF-8 (the line of a bad byte is given), SVG is well-formed, declares no XML
  entities and refers to no other file.

Every refusal is a `file:line` problem citing where the name was written.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

from pnp.errors import DesignError, PnpError, Problem, display_path
from pnp.limits import LIMITS, limit

Where = tuple[Path | str, int | None]
"""The file and line that name a file (design.yaml:12, rules.en.md:40...)."""



def with_roots(roots: tuple[Path, ...], paths: Iterable[Path | str]) -> tuple[Path, ...]:
    """`roots` and the folders `paths` (resolved, each once): what `--allow-dir PATH` adds to a build context."""
    out = list(roots)
    for p in paths:
        real = Path(os.path.realpath(p))
        if real not in out:
            out.append(real)
    return tuple(out)


def allowed_dirs() -> tuple[Path, ...]:
    """Folders (besides each design's own) whose files designs may read: the active build context's roots."""
    from pnp.context import current  # lazy: 31 ms (pnp.context)

    return current().roots


class FileRefused(PnpError):
    """A file a design names cannot be read (outside, not regular, too large...). `message` has no file:line:
    the caller knows where the name was written (a template's include line...)."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


def _inside(path: str, root: Path) -> bool:
    root_s = str(root)
    return path == root_s or path.startswith(root_s.rstrip(os.sep) + os.sep)


def shared_roots() -> tuple[Path, ...]:
    """What pnp ships, readable by every design: its templates/ and its own designs (a rules text may extend a
    shipped design's text, as the lozenge variant of 3 Stars does)."""
    from pnp.loader import package_root, templates_dir  # lazy: cycle pnp.confine -> pnp.loader -> pnp.confine

    return tuple(Path(os.path.realpath(p)) for p in (templates_dir(), package_root() / "designs"))


class DesignFiles:
    """The files one design may read. `folder` is the design folder as the user gave it."""

    def __init__(self, folder: Path, extra: Iterable[Path] | None = None):
        self.folder = Path(folder)
        self.root = Path(os.path.realpath(self.folder))
        self.extra = tuple(Path(os.path.realpath(p)) for p in extra) if extra is not None else allowed_dirs()

    def roots(self, shared: bool = False) -> tuple[Path, ...]:
        return (self.root, *self.extra, *(shared_roots() if shared else ()))

    @property
    def shown(self) -> str:
        return display_path(self.folder)

    # --- names -> paths ------------------------------------------------------------------

    def locate(self, name: object, bases: Iterable[Path] | None = None, shared: bool = False,
               what: str = "file") -> Path | None:
        """The path of `name` (first of `bases` holding it; default the design folder), None when it is in none
        of them; FileRefused when it is not a name, leaves the allowed folders or is not a regular file."""
        if not isinstance(name, str) or not name.strip() or "\x00" in name:
            raise FileRefused(f"{what} {name!r} is not a file name; expected a path such as art/card.svg")
        bases = list(bases) if bases is not None else [self.folder]
        roots = self.roots(shared)
        refused: str | None = None
        for base in bases:
            candidate = Path(os.path.normpath(Path(base) / name))
            real = os.path.realpath(candidate)
            if not any(_inside(real, r) for r in roots):
                if refused is None:
                    refused = self._outside(name, candidate, real, roots, what)
                continue
            try:
                st = os.stat(real)
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise FileRefused(f"{what} '{name}' cannot be read ({exc.strerror}); expected a readable "
                                  "file") from None
            if stat.S_ISDIR(st.st_mode):
                raise FileRefused(f"{what} '{name}' is a folder; expected a file")
            if not stat.S_ISREG(st.st_mode):
                raise FileRefused(f"{what} '{name}' is not a regular file ({_kind(st.st_mode)}); expected a file")
            return candidate
        if refused:
            raise FileRefused(refused)
        return None

    def _outside(self, name: str, candidate: Path, real: str, roots: tuple[Path, ...], what: str) -> str:
        lexical = os.path.normpath(os.path.abspath(candidate))
        here = f"expected a file inside {self.shown}/ (name a shared folder with --allow-dir)"
        if any(_inside(lexical, r) for r in roots) or _inside(lexical, Path(os.path.abspath(self.folder))):
            return f"{what} '{name}' is a link to {real}, outside the design folder; {here}"
        if os.path.isabs(name):
            return f"{what} '{name}' is an absolute path outside the design folder; {here}"
        return f"{what} '{name}' is outside the design folder; {here}"

    def resolve(self, name: object, where: Where, bases: Iterable[Path] | None = None, shared: bool = False,
                what: str = "file", expected: str | None = None) -> Path:
        """Like `locate`, but every refusal, and a missing file, is a DesignError citing `where`."""
        try:
            path = self.locate(name, bases, shared, what)
        except FileRefused as exc:
            raise DesignError([Problem(display_path(where[0]), where[1], exc.message)]) from None
        if path is None:
            raise DesignError([Problem(display_path(where[0]), where[1],
                                       f"{what} '{name}' not found; {expected or f'expected it in {self.shown}/'}")])
        return path

    # --- reading -----------------------------------------------------------------------

    def read_bytes(self, path: Path, limit_name: str, shared: bool = False) -> bytes:
        """The bytes of a path `locate` returned; FileRefused (naming the file) when it changed into something
        refused, or holds more than the limit."""
        real = os.path.realpath(path)
        if not any(_inside(real, r) for r in self.roots(shared)):
            raise FileRefused(f"'{Path(path).name}' is a link to {real}, outside the design folder; expected a file "
                              f"inside {self.shown}/ (name a shared folder with --allow-dir)")
        most = limit(limit_name)
        try:
            fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        except OSError as exc:
            raise FileRefused(f"'{display_path(path)}' cannot be read ({exc.strerror}); expected a readable file") \
                from None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise FileRefused(f"'{display_path(path)}' is not a regular file ({_kind(st.st_mode)}); "
                                  "expected a file")
            if st.st_size > most:
                raise FileRefused(too_large(path, st.st_size, limit_name))
            chunks, size = [], 0
            while True:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                size += len(chunk)
                if size > most:
                    raise FileRefused(too_large(path, size, limit_name).replace(" is ", " is more than ", 1))
                chunks.append(chunk)
            return b"".join(chunks)
        finally:
            os.close(fd)

    def read_text(self, path: Path, limit_name: str, shared: bool = False) -> str:
        """UTF-8 text (a BOM is dropped); DesignError citing the file (and the line of a bad byte)."""
        try:
            raw = self.read_bytes(path, limit_name, shared)
        except FileRefused as exc:
            raise DesignError([Problem(display_path(path), None, exc.message)]) from None
        return decode_utf8(raw, path)

    def read_svg(self, name: str, where: Where, what: str = "SVG file",
                 expected: str | None = None, images: bool = False) -> tuple[Path, str]:
        """A ready SVG file named at `where`: confined, bounded, UTF-8, well-formed, self-contained."""
        path = self.resolve(name, where, what=what, expected=expected)
        text = self.read_text(path, "svg_bytes")
        check_svg(text, path, images)
        return path, text


def too_large(path: Path | str, size: int, limit_name: str) -> str:
    lim = LIMITS[limit_name]
    return f"'{Path(path).name}' is {size} {lim.unit}; expected at most {lim.value} {lim.unit} ({lim.what})"


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a plain file"


def decode_utf8(raw: bytes, path: Path | str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise DesignError([Problem(display_path(path), line, f"byte 0x{raw[exc.start]:02X} at column {col} is not "
                                   "UTF-8; expected a UTF-8 text file (re-save it as UTF-8)")]) from None


# --- SVG --------------------------------------------------------------------------------

_EXTERNAL = re.compile(r"""(?:href|src)\s*=\s*["']\s*([^"'#\s][^"']*)["']|url\(\s*["']?\s*([^"')#\s][^"')]*)""")
_IMPORT = re.compile(r"""@import\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)  # (@import url(...): _EXTERNAL)


def check_svg(text: str, path: Path | str, images: bool = False) -> None:
    """Raise DesignError (file:line) unless `text` is a well-formed SVG document without a DTD, entities or
    references to other files (those would be read by the renderers, or silently dropped)."""
    from lxml import etree  # lazy: 14 ms (lxml)

    shown = display_path(path)
    for pattern, what in (("<!ENTITY", "declares an XML entity"), ("<!DOCTYPE", "has a DOCTYPE")):
        at = text.find(pattern)
        if at >= 0:
            raise DesignError([Problem(shown, text.count("\n", 0, at) + 1, f"the SVG {what}; expected plain SVG "
                                       "markup without <!DOCTYPE> or <!ENTITY> (pnp reads no DTD)")])
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(text.encode("utf-8"), parser)
    except etree.XMLSyntaxError as exc:
        raise DesignError([Problem(shown, exc.lineno, f"the SVG is not well-formed XML ({exc.msg}); expected "
                                   "valid SVG markup")]) from None
    tag = etree.QName(root).localname if isinstance(root.tag, str) else str(root.tag)
    if tag != "svg":
        raise DesignError([Problem(shown, root.sourceline, f"the root element is <{tag}>; expected an <svg> "
                                   "document")])
    if not _has_size(root):
        raise DesignError([Problem(shown, root.sourceline, "the SVG has no size; expected width and height above 0 "
                                   "(e.g. width=\"63mm\" height=\"88mm\") or a viewBox=\"0 0 63 88\"")])
    check_parsed(root, text, shown, images)


Vocabulary = tuple[frozenset[str], frozenset[str], Callable[[str, str, str], bool]]


def check_parsed(root, text: str, shown: str, images: bool = False, vocabulary: Vocabulary | None = None) -> bool:
    """The checks of `check_svg` on an SVG already parsed (`root`, from `text`): values the renderers cannot draw,
    references to other files. `images`: an <image href="..."> may name a file (a face's art, which
    pnp.render.art reads through DesignFiles and checks). `vocabulary`: pnp.render.sanitise's whitelist (element
    tags, attribute names that need no look at a value without a bracket, a check of the others' values): returns
    whether every element (and comment) and attribute is on it, found in the same walk so that the sanitiser need
    not walk the face again; False without it."""
    fine = _check_values(root, shown, vocabulary)
    art: set[str] = set()
    if images:
        for el in root.iter("{http://www.w3.org/2000/svg}image", "image"):
            for key in ("href", "{http://www.w3.org/1999/xlink}href"):
                if el.get(key):
                    art.add(el.get(key).strip())
    found = [(m.start(), m.group(1), m.group(2)) for m in _EXTERNAL.finditer(text)]
    if "@" in text:
        found = sorted(found + [(m.start(), None, m.group(1) or m.group(2)) for m in _IMPORT.finditer(text)])
    for start, href, other in found:
        ref = (href or other or "").strip()
        if ref and href and ref in art:
            continue
        if ref and not ref.startswith("data:"):
            raise DesignError([Problem(shown, text.count("\n", 0, start) + 1, f"the SVG refers to '{ref[:80]}'; "
                                       "expected only #ids and data: URIs (embed images; pnp reads no file an SVG "
                                       "names)")])
    return fine


_NUMBER = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)")


def _positive(text: str | None) -> bool:
    m = _NUMBER.match(text or "")
    return bool(m) and 0 < float(m.group(1)) < float("inf")  # type: ignore[union-attr]


def _has_size(root) -> bool:
    if _positive(root.get("width")) and _positive(root.get("height")):
        return True
    box = (root.get("viewBox") or "").replace(",", " ").split()
    try:
        return len(box) == 4 and all(0 < float(v) < float("inf") for v in box[2:])
    except ValueError:
        return False


_NUM = r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
_LENGTH_RE = re.compile(rf"^\s*{_NUM}\s*(?:px|mm|cm|in|pt|pc|em|ex|%)?\s*$")
_LENGTHS_RE = re.compile(rf"^\s*(?:{_NUM}\s*(?:px|mm|cm|in|pt|pc|em|ex|%)?\s*,?\s*)*$")
_NUMBER_RE = re.compile(rf"^\s*{_NUM}\s*%?\s*$")
_LENGTH_ATTRS = {"width", "height", "rx", "ry", "r", "cx", "cy", "x1", "y1", "x2", "y2", "font-size",
                 "stroke-width"}
_LENGTH_LISTS = {"x", "y", "dx", "dy", "points"}  # a list of numbers is allowed (<text x="1 2 3">, polygons)
_NUMBERS = {"opacity", "fill-opacity", "stroke-opacity"}


_CHECKED = _LENGTH_ATTRS | _LENGTH_LISTS | _NUMBERS
# memo of a pure check (a (name, value) pair is drawable or not in any build): safe across builds
_GOOD: dict[tuple[str, str], None] = {}  # (name, value) pairs found drawable (a template's faces repeat most)
_GOOD_MOST = 65_536


def _check_values(root, shown: str, vocabulary: Vocabulary | None = None) -> bool:
    """The attribute values the renderers would fail on (svglib, cairosvg raise on them): lengths, numbers,
    `style` declarations. A colour is checked where faces are drawn, not here. A value found good is remembered
    (the faces of a template share most of theirs: this check was a third of painting a data-table card).
    Whether every element and attribute is on `vocabulary`'s whitelist (see check_parsed) is returned: looked at
    while the walk finds them so, then the walk goes on without."""
    good = _GOOD
    if len(good) > _GOOD_MOST:
        good.clear()
    elements = root.iter()
    fine = False
    if vocabulary is not None:
        tags, names, value_ok = vocabulary
        fine = True
        for el in elements:
            tag = el.tag
            if not isinstance(tag, str):
                from lxml.etree import Comment  # lazy: 15 ms (lxml.etree)

                fine = tag is Comment  # (a comment is on the whitelist, an instruction is not)
            else:
                fine = tag in tags
                for name, value in el.attrib.items():
                    if name in _CHECKED and (name, value) not in good:
                        _check_value(el, shown, name, value)
                        good[(name, value)] = None
                    if fine and (name not in names or "(" in value) and not value_ok(tag, name, value):
                        fine = False
                style = el.get("style")
                if style is not None and ("style", style) not in good:
                    _check_style(el, shown, style)
                    good[("style", style)] = None
            if not fine:
                break
    for el in elements:  # (the rest, or all without a vocabulary)
        if not isinstance(el.tag, str):
            continue
        for name, value in el.attrib.items():
            if name in _CHECKED and (name, value) not in good:
                _check_value(el, shown, name, value)
                good[(name, value)] = None
        style = el.get("style")
        if style is not None and ("style", style) not in good:
            _check_style(el, shown, style)
            good[("style", style)] = None
    return fine


def _check_style(el, shown: str, style: str) -> None:
    for decl in style.split(";"):
        if decl.strip() and ":" not in decl:
            _bad_value(el, shown, "style", style, "declarations such as fill: #000; stroke-width: 0.3")
        name, _, value = decl.partition(":")
        _check_value(el, shown, name.strip(), value)


def _check_value(el, shown: str, name: str, value: str) -> None:
    """One value (of an attribute, or of a style declaration): DesignError if it cannot be drawn."""
    if value.strip() in ("", "inherit", "auto", "none", "normal"):
        pass
    elif name in _LENGTH_ATTRS and not _LENGTH_RE.match(value):
        _bad_value(el, shown, name, value, "a length: a number with an optional unit, e.g. 12.5 or 3mm")
    elif name in _LENGTH_LISTS and not _LENGTHS_RE.match(value):
        _bad_value(el, shown, name, value, "numbers (with optional units), e.g. 12.5 or 1,2 3,4")
    elif name in _NUMBERS and not _NUMBER_RE.match(value):
        _bad_value(el, shown, name, value, "a number from 0 to 1, e.g. 0.5")


def _bad_value(el, shown: str, name: str, value: str, expected: str) -> None:
    from lxml import etree  # lazy: 17 ms (lxml)

    tag = etree.QName(el).localname
    text = value if len(value) <= 40 else value[:37] + "..."
    raise DesignError([Problem(shown, el.sourceline, f"the SVG has <{tag} {name}=\"{text.strip()}\">, which cannot "
                               f"be drawn; expected {expected}")])
