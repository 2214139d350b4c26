"""What an SVG pnp writes may hold: one whitelist of the elements and attributes pnp draws.

A design is untrusted, and so is every SVG it brings (a template's output, a ready `svg:` face, an icon, an
art file copied to `svg/art/`). An SVG opened in a browser, hosted for Tabletop Simulator or shown by the
contact sheet runs what it carries: `<script>`, `onload=` and the other event handlers, links to
`javascript:` URLs, animation that sets them, HTML in `<foreignObject>` (or anywhere, in the XHTML
namespace), `<?xml-stylesheet?>`, CSS that fetches other files (`@import`, `url(http:...)`). pnp draws none
of it, so it keeps none of it: `clean(root)` removes from a parsed SVG whatever is not on the whitelist,
in place, and says what it removed (`Removed`: the element's line, a message); the caller turns each into a
warning naming its file and line. An SVG with nothing to remove keeps its exact bytes (`clean_text`).

The whitelist (the drawing vocabulary of pnp.render.svgpdf, with what browsers draw beside it, and harmless
metadata):
- elements of SVG (or of no namespace, as the renderer reads them) in `ELEMENTS`; comments; the private data
  of drawing programs (Inkscape, Sodipodi, Illustrator, RDF metadata: `EDITORS`), which browsers ignore;
- attributes in `ATTRIBUTES`, `data-*` and `aria-*`, `xlink:href`, `xlink:title`, `xml:space`, `xml:lang`, and
  the editors' own;
- links (`href`, `xlink:href`): `#id`; on `<image>` and `<feImage>` also a file (a relative path, no scheme)
  or a `data:image/...` URI;
- CSS (`<style>`, `style=""` and presentation attributes): no `@import`, no `url()` but `url(#id)` and
  `data:image/...` (in `@font-face`, also a relative font file or a `data:` font), no function but colours,
  transforms and arithmetic, no `behavior` or `-moz-binding`; CSS escapes are decoded before it is read.

The walk reads the parsed tree, where character references are already decoded (`jav&#x61;script:` is
`javascript:`) and names are exact (`ONLOAD` and `SCRIPT` are not on the whitelist, so they go too).
`page=True` is the contact sheet's stricter use (pnp.index): only what draws, no editors' data.

Every face is checked, so the check is cheap where there is nothing to find: a template's face is looked at in
the walk pnp.confine.check_parsed makes anyway (`VOCABULARY`, with `attribute_ok` remembering the verdict on each
attribute a deck repeats), and `clean` first looks without changing anything, in one pass that a few words of the
text (a bracket, a link, a style, a character reference) spare most of. (A pre-scan of the text for dangerous
words instead, case folded and with character references decoded, measured slower than these: 8 us a card
against 2.)
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
XML_NS = "http://www.w3.org/XML/1998/namespace"
XLINK_HREF = f"{{{XLINK_NS}}}href"
SEE = 'docs/design-format.md, "Limits and safety"'
EXPECTED = f"expected only what pnp draws ({SEE})"
CSS_WHY = f"CSS that fetches a file or runs code; expected CSS that refers to nothing but #ids and data: images ({SEE})"

# The SVG elements kept: shapes, text, images, structure, paint servers, clips, masks, markers, filters, and
# title, desc, metadata and style. Not kept: script, foreignObject (HTML), animation (it can set an attribute to
# a javascript: URL), cursor and SVG fonts (they fetch files), and anything else.
ELEMENTS = frozenset("""
svg g defs use symbol a switch title desc metadata style rect circle ellipse line polyline polygon path text tspan
textPath image clipPath mask marker pattern linearGradient radialGradient stop filter feBlend feColorMatrix
feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting feDisplacementMap feDistantLight feDropShadow
feFlood feFuncA feFuncB feFuncG feFuncR feGaussianBlur feImage feMerge feMergeNode feMorphology feOffset
fePointLight feSpecularLighting feSpotLight feTile feTurbulence view
""".split())
# removed elements a browser would run, or that bring in what it would run (the warning says so)
ACTIVE = frozenset("""
script foreignObject animate animateColor animateMotion animateTransform set discard handler listener iframe
embed object frame frameset applet base link meta
""".split())
_ACTIVE_LOWER = frozenset(a.lower() for a in ACTIVE)
TEXT_ONLY = frozenset({"title", "desc", "style"})  # in the page, their text only

# CSS properties an SVG element may carry as attributes (SVG 1.1 and 2, CSS Masking, Compositing)
PROPERTIES = frozenset("""
alignment-baseline baseline-shift clip clip-path clip-rule color color-interpolation color-interpolation-filters
color-profile color-rendering cursor direction display dominant-baseline enable-background fill fill-opacity
fill-rule filter flood-color flood-opacity font font-family font-size font-size-adjust font-stretch font-style
font-variant font-weight glyph-orientation-horizontal glyph-orientation-vertical image-rendering isolation kerning
letter-spacing lighting-color marker marker-end marker-mid marker-start mask mask-type mix-blend-mode opacity
overflow paint-order pointer-events shape-rendering stop-color stop-opacity stroke stroke-dasharray
stroke-dashoffset stroke-linecap stroke-linejoin stroke-miterlimit stroke-opacity stroke-width text-anchor
text-decoration text-overflow text-rendering transform-origin transform-box unicode-bidi vector-effect visibility
white-space word-spacing writing-mode line-height
""".split())
# the other attributes of the kept elements (geometry, units, references, filters, text, conditions, ARIA)
ATTRIBUTES = PROPERTIES | frozenset("""
id class style lang tabindex role focusable version baseProfile x y width height rx ry r cx cy fx fy fr x1 y1 x2
y2 d points pathLength transform viewBox preserveAspectRatio zoomAndPan href type media title offset
gradientUnits gradientTransform spreadMethod patternUnits patternContentUnits patternTransform clipPathUnits
maskUnits maskContentUnits filterUnits primitiveUnits markerWidth markerHeight markerUnits refX refY orient dx dy
rotate textLength lengthAdjust startOffset method spacing side path in in2 result stdDeviation mode values
operator k1 k2 k3 k4 scale xChannelSelector yChannelSelector surfaceScale diffuseConstant specularConstant
specularExponent kernelMatrix kernelUnitLength order divisor bias targetX targetY edgeMode preserveAlpha
baseFrequency numOctaves seed stitchTiles radius tableValues slope intercept amplitude exponent azimuth elevation
z pointsAtX pointsAtY pointsAtZ limitingConeAngle requiredExtensions requiredFeatures systemLanguage viewTarget
target enable-background
""".split())
_KEPT_NS_ATTRS = frozenset({XLINK_HREF, f"{{{XLINK_NS}}}title", f"{{{XML_NS}}}space", f"{{{XML_NS}}}lang",
                            f"{{{XML_NS}}}id"})
_LINKS = frozenset({"href", XLINK_HREF})
_IMAGES = frozenset({"image", "feImage"})

# Drawing programs' own vocabularies: metadata that browsers and pnp ignore, kept in the SVG files
EDITORS = frozenset({
    "http://www.inkscape.org/namespaces/inkscape", "http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd",
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "http://creativecommons.org/ns#", "http://web.resource.org/cc/",
    "http://purl.org/dc/elements/1.1/", "http://purl.org/dc/terms/", "http://www.bohemiancoding.com/sketch/ns",
    "http://www.serif.com/", "http://www.figma.com/figma/ns",
})
_EDITOR_PREFIXES = ("http://ns.adobe.com/",)

_STYLE_TAGS = frozenset({f"{{{SVG_NS}}}style", "style"})
_KEPT_TAGS = frozenset({*(f"{{{SVG_NS}}}{n}" for n in ELEMENTS), *ELEMENTS})
_PLAIN_OK = frozenset(ATTRIBUTES - _LINKS - {"style"})

_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_URL_NOISE = re.compile(r"[\t\n\r]")
_C0_AND_SPACE = "".join(map(chr, range(0x21)))
_XML_DECLARATION = re.compile(r"<\?xml\s")


def is_editor(namespace: str | None) -> bool:
    return namespace is not None and (namespace in EDITORS or namespace.startswith(_EDITOR_PREFIXES))


@dataclass(frozen=True)
class Removed:
    """One thing `clean` removed: the line of its element in the SVG parsed, what it was, and words to find it by
    in a template (its tag, attribute name, a CSS at-rule...)."""

    line: int | None
    message: str
    needles: tuple[str, ...] = ()


# --- links ---------------------------------------------------------------------------------------------------------

def link_text(value: str) -> str:
    """A URL as a browser reads it: without surrounding spaces and control characters, tabs and line breaks
    anywhere (`java\\tscript:` is `javascript:`)."""
    return _URL_NOISE.sub("", value).strip(_C0_AND_SPACE)


def link_ok(element: str, value: str) -> bool:
    """Whether `href` may say `value` on `element` (a local name): an #id (or nothing); on an image also an
    image file (a relative path) or a data:image/ URI."""
    ref = link_text(value)
    if not ref or ref[0] == "#":
        return True
    if element not in _IMAGES:
        return False
    if ref[:5].lower() == "data:":
        return ref[5:].lstrip().lower().startswith("image/")
    return not _SCHEME.match(ref) and not ref.startswith(("/", "\\"))


# --- CSS -----------------------------------------------------------------------------------------------------------

_CSS_ESCAPE = re.compile(r"\\(?:([0-9a-fA-F]{1,6})[ \t\r\n\f]?|(\r\n|[\s\S]))")
_CSS_COMMENT = re.compile(r"/\*[\s\S]*?(?:\*/|$)")
_CSS_STRING = re.compile(r""""(?:[^"\\\n]|\\[\s\S])*"?|'(?:[^'\\\n]|\\[\s\S])*'?""")
_CSS_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))""")
_CSS_FUNCTION = re.compile(r"([a-z0-9_-]*)\(")
_SAFE_FUNCTIONS = frozenset("""
url rgb rgba hsl hsla hwb lab lch oklab oklch color device-cmyk calc min max clamp var env translate translatex
translatey translatez translate3d rotate rotatex rotatey rotatez rotate3d scale scalex scaley scalez scale3d matrix
matrix3d skew skewx skewy perspective local format tech
""".split()) | {""}
_BAD_PROPERTIES = frozenset({"behavior", "behaviour", "-moz-binding", "binding"})
_FONT_DATA = ("font/", "application/font", "application/x-font", "application/vnd.ms-fontobject",
              "application/octet-stream")


def _unescape(css: str) -> str:
    def one(m: re.Match) -> str:
        if m.group(1):
            code = int(m.group(1), 16)
            return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"
        return "" if m.group(2) in ("\n", "\r\n", "\r", "\f") else m.group(2)

    return _CSS_ESCAPE.sub(one, css) if "\\" in css else css


def _url_ok(target: str, font: bool) -> bool:
    ref = link_text(target)
    if not ref or ref[0] == "#":
        return True
    if ref[:5].lower() == "data:":
        kind = ref[5:].lstrip().lower()
        return kind.startswith("image/") or (font and kind.startswith(_FONT_DATA))
    return font and not _SCHEME.match(ref) and not ref.startswith(("/", "\\"))


def css_value_ok(value: str, font: bool = False) -> bool:
    """Whether a CSS value (a declaration's, an attribute's) fetches nothing and runs nothing: every url() an
    #id or an image's data: URI (`font`: in @font-face, also a font file or a font's data: URI), every function a
    colour, a transform or arithmetic. Read with its escapes decoded, its comments both kept and left out."""
    if "(" not in value:
        return True
    return _decoded_css_ok(_unescape(value).lower(), font, _SAFE_FUNCTIONS)


def _decoded_css_ok(decoded: str, font: bool, functions: frozenset[str] | set[str], bad: re.Pattern[str] | None = None
                    ) -> bool:
    """CSS with its escapes decoded, read with its comments both kept and left out: nothing `bad` matches, every
    url() one `_url_ok` allows, every function among `functions`."""
    for text in (decoded, _CSS_COMMENT.sub("", decoded)):
        if bad is not None and bad.search(text):
            return False
        for m in _CSS_URL.finditer(text):
            if not _url_ok(m.group(1) or m.group(2) or m.group(3) or "", font):
                return False
        bare = _CSS_URL.sub("url(", _CSS_STRING.sub('""', text))
        if any(f not in functions for f in _CSS_FUNCTION.findall(bare)):
            return False
    return True


_CSS_URL_TOKEN = re.compile(r"""url\((?!\s*["'])[^)]*\)?""", re.IGNORECASE)


def _skip(css: str, i: int) -> int:
    """Where what starts at css[i] ends when it is a string, a comment, an escape or an unquoted url(...) (a
    browser reads each as one token, whatever brackets or semicolons it holds); i when it is none of them."""
    c = css[i]
    if c == '"' or c == "'":
        m = _CSS_STRING.match(css, i)
        return m.end() if m else i + 1
    if c == "/" and css.startswith("/*", i):
        m = _CSS_COMMENT.match(css, i)
        return m.end() if m else len(css)
    if c == "\\":
        return i + 2
    if (c == "u" or c == "U") and css[i + 1:i + 4].lower() == "rl(" and (i == 0 or not (css[i - 1].isalnum()
                                                                                      or css[i - 1] in "-_")):
        m = _CSS_URL_TOKEN.match(css, i)
        return m.end() if m else i
    return i


def _declarations(block: str) -> list[tuple[int, int]]:
    """(start, end) of each declaration of a declaration block, split at the `;` outside strings, comments and
    brackets (the `;` included in its span)."""
    out, start, depth, i, n = [], 0, 0, 0, len(block)
    while i < n:
        skip = _skip(block, i)
        if skip != i:
            i = skip
            continue
        c = block[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth = max(depth - 1, 0)
        elif c == ";" and depth == 0:
            out.append((start, i + 1))
            start = i + 1
        i += 1
    if block[start:].strip():
        out.append((start, n))
    return out


def _declaration_problem(decl: str, font: bool) -> str | None:
    """What is wrong with one `name: value` declaration (its text as shown), None when it may stay."""
    name, colon, value = decl.partition(":")
    prop = _CSS_COMMENT.sub("", _unescape(name)).strip().lower()
    if not colon and not prop:
        return None
    if prop in _BAD_PROPERTIES or prop.startswith("@"):
        return _shown(decl)
    if not css_value_ok(value, font):
        return _shown(decl)
    return None


def clean_declarations(text: str, font: bool = False) -> tuple[str, list[str]]:
    """A `style=""` value (or a rule's declaration block) without the declarations that fetch or run something:
    (the text, unchanged when nothing goes; what went)."""
    if "(" not in text and "\\" not in text and "@" not in text:
        return text, []
    kept, gone = [], []
    for start, end in _declarations(text):
        decl = text[start:end]
        problem = _declaration_problem(decl.rstrip(";"), font)
        if problem is None:
            kept.append(decl)
        else:
            gone.append(problem)
    return (text if not gone else "".join(kept)), gone


_AT_KEEP = ("@charset", "@namespace", "@layer")


def clean_stylesheet(css: str) -> tuple[str, list[str]]:
    """A <style>'s CSS without what fetches or runs something: `@import`, declarations whose values do (see
    css_value_ok). (The text, unchanged when nothing goes; what went.) A sheet that does not read back clean
    after that (CSS this reader splits otherwise than a browser would) goes whole."""
    if "(" not in css and "\\" not in css and "@" not in css:
        return css, []
    out, gone = _clean_rules(css, 0, len(css), font=False)
    text = "".join(out) if gone else css
    if not _sheet_clean(text):
        return "", [_shown(css)]
    return text, gone


def _clean_rules(css: str, start: int, end: int, font: bool) -> tuple[list[str], list[str]]:
    """The pieces of css[start:end] (a list of rules) kept, and what went."""
    out: list[str] = []
    gone: list[str] = []
    i = seg = start
    while i < end:
        skip = _skip(css, i)
        if skip != i:
            i = min(skip, end)
            continue
        c = css[i]
        if c == ";":  # a statement: @import, @charset...
            statement = css[seg:i + 1]
            head = _CSS_COMMENT.sub("", _unescape(statement)).strip().lower()
            if head.startswith(_AT_KEEP) or not head.strip(";").strip():
                out.append(statement)
            elif head.startswith("@") or not css_value_ok(statement):
                gone.append(_shown(statement.rstrip(";")))
            else:
                out.append(statement)
            i = seg = i + 1
            continue
        if c == "{":
            close = _matching(css, i, end)
            prelude = css[seg:i]
            head = _CSS_COMMENT.sub("", _unescape(prelude)).strip().lower()
            inner = css[i + 1:close]
            closer = css[close] if close < end else ""
            if head.startswith("@import"):
                gone.append(_shown(prelude))
            elif head.startswith("@") and _has_rules(inner):  # @media, @supports...: rules inside
                pieces, lost = _clean_rules(css, i + 1, close, font)
                out.append(prelude + "{" + "".join(pieces) + closer)
                gone += lost
            else:  # a rule, @font-face, @page, @keyframes' steps: declarations
                text, lost = clean_declarations(inner, font=head.startswith("@font-face"))
                out.append(prelude + "{" + text + closer)
                gone += lost
            i = seg = close + 1
            continue
        i += 1
    out.append(css[seg:end])
    return out, gone


def _matching(css: str, i: int, end: int) -> int:
    """The `}` closing the `{` at i (strings and comments skipped), or `end` when the sheet ends first."""
    depth = 0
    while i < end:
        skip = _skip(css, i)
        if skip != i:
            i = skip
            continue
        c = css[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return end


def _has_rules(block: str) -> bool:
    return "{" in _CSS_STRING.sub("", _CSS_COMMENT.sub("", block))


_SHEET_FUNCTIONS = _SAFE_FUNCTIONS | frozenset("""
not is where has nth-child nth-last-child nth-of-type nth-last-of-type lang dir host host-context part slotted
selector supports layer media
""".split())
_SHEET_BAD = re.compile(r"@import|(?:behaviou?r|binding)\s*:")


def _sheet_clean(css: str) -> bool:
    """A check of a whole sheet, by a coarser reading than a browser's (every escape decoded, with and without
    comments): no @import, no behaviour, no url() but #id and images' data: URIs (files allowed where
    @font-face stands), no function but the safe ones and selectors'."""
    if "(" not in css and "\\" not in css and "@" not in css:
        return True
    decoded = _unescape(css).lower()
    return _decoded_css_ok(decoded, "@font-face" in decoded, _SHEET_FUNCTIONS, _SHEET_BAD)


def _shown(text: str, most: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= most else text[:most - 3] + "..."


# --- the walk ------------------------------------------------------------------------------------------------------

def _name(el, attribute: str | None = None) -> str:
    """An element's (or, given, one of its attributes') name as written, its prefix kept: svg:script, onload."""
    tag = attribute if attribute is not None else el.tag
    if not isinstance(tag, str):
        return "?"
    if tag[0] != "{":
        return tag
    namespace, _, local = tag[1:].partition("}")
    if attribute is None:
        prefix = el.prefix
    elif namespace == XLINK_NS:
        prefix = "xlink"
    elif namespace == XML_NS:
        prefix = "xml"
    else:
        prefix = next((p for p, u in el.nsmap.items() if u == namespace and p), None)
    return f"{prefix}:{local}" if prefix else local


def _all_fine(root, page: bool, values: bool) -> bool:
    """Whether nothing in the tree needs removing (the quick look before the walk that removes): every element and
    attribute on the whitelist. `values`: the text may hold a value to check (a CSS function, a link, a style, a
    character reference); False only when the caller's text says otherwise, so values need no look."""
    kept, plain, styles = _KEPT_TAGS, _PLAIN_OK, _STYLE_TAGS
    for el in root.iter():
        tag = el.tag
        if tag not in kept:
            if tag is etree.Comment and not page:
                continue
            return False
        if values or not plain.issuperset(el.keys()):
            if not _attributes_fine(el, tag, page):
                return False
        if tag in styles:
            css = el.text or ""
            if "(" in css or "\\" in css or "@" in css or len(el):  # (a child's tail text is CSS too)
                return False
        if page and len(el) and tag.rpartition("}")[2] in TEXT_ONLY:
            return False
    return True


def _attributes_fine(el, tag: str, page: bool) -> bool:
    for name, value in el.items():
        if page and name[0] == "{" and name not in _KEPT_NS_ATTRS:
            return False
        if not attribute_ok(tag, name, value):
            return False
    return True


# memo of a pure check (the verdict depends on (tag, name, value) only): safe across builds
_ATTRIBUTE_OK: dict[tuple[str, str, str], bool] = {}  # (tag, name, value) -> verdict: a deck's faces repeat theirs
_ATTRIBUTE_OK_MOST = 65_536


def attribute_ok(tag: str, name: str, value: str) -> bool:
    """Whether `name="value"` may stay as it is on an element of the whitelist (`tag`, as lxml names it)."""
    key = (tag, name, value)
    found = _ATTRIBUTE_OK.get(key)
    if found is None:
        if len(_ATTRIBUTE_OK) > _ATTRIBUTE_OK_MOST:
            _ATTRIBUTE_OK.clear()
        found = _ATTRIBUTE_OK[key] = _attribute_ok(tag.rpartition("}")[2], name, value)
    return found


def _attribute_ok(local: str, name: str, value: str) -> bool:
    if name in _PLAIN_OK:
        return "(" not in value or name not in PROPERTIES or css_value_ok(value)
    if name in _LINKS:
        return link_ok(local, value)
    if name == "style":
        return not clean_declarations(value)[1]
    return name in _KEPT_NS_ATTRS or _free_attribute(name, False)


def _free_attribute(name: str, page: bool) -> bool:
    """An attribute outside the lists that is harmless: data-*, aria-*, and (but in the page) the editors'."""
    if name[0] == "{":
        namespace, _, local = name[1:].partition("}")
        return not page and is_editor(namespace) and local[:2].lower() != "on"
    return name.startswith(("data-", "aria-"))


VOCABULARY = (_KEPT_TAGS - _STYLE_TAGS, _PLAIN_OK, attribute_ok)
"""What pnp.confine.check_parsed needs to tell, in the walk that checks a face's values, that its root element has
nothing for `clean` to remove: the element tags kept (but <style>, whose text needs a look), the attribute names
that need no look at their value when it holds no bracket (no CSS function), and `attribute_ok` for the others."""


def clean(root, page: bool = False, text: str | None = None) -> list[Removed]:
    """Remove from the parsed SVG `root` (its tree, processing instructions before it included) whatever is not
    on the whitelist, in place; what went, in document order, each once per line. `page`: the contact sheet's
    use: only what draws (no editors' data, no comments, title, desc and style reduced to their text). `text`:
    the SVG text `root` was parsed from, if at hand: what it cannot hold is not looked for (a value to check
    needs a bracket, a link, a style or a character reference in the text; an instruction, `<?`)."""
    removed: list[Removed] = []
    if text is None or text.find("<?", 1) >= 0 or (text[:2] == "<?" and not _XML_DECLARATION.match(text)):
        pis = [*reversed(list(root.itersiblings(preceding=True))), *root.itersiblings(), *root.iter(etree.PI)]
        if any(p.tag is etree.PI for p in pis):
            if not page:
                removed += [_pi(p) for p in pis if p.tag is etree.PI]
            etree.strip_elements(root.getroottree(), etree.PI, with_tail=False)
    # (a CSS escape matters in CSS only: a function's bracket or a style stands in the text beside it)
    values = text is None or "(" in text or "&#" in text or "href" in text or "style" in text
    if _all_fine(root, page, values):
        return removed
    doomed = []
    stack = [root]
    while stack:
        el = stack.pop()
        if el is not root and not _keep_element(el, page, removed):
            doomed.append(el)
            continue
        if isinstance(el.tag, str):
            _clean_attributes(el, page, removed)
        stack.extend(reversed(el))
    for el in doomed:
        drop(el)
    seen: set[tuple[int | None, str]] = set()
    out = []
    for r in removed:
        if (r.line, r.message) not in seen:
            seen.add((r.line, r.message))
            out.append(r)
    return out


def _pi(el) -> Removed:
    return Removed(el.sourceline, f"<?{el.target}?> removed from the SVG: a browser would apply it (it loads another "
                   f"file); {EXPECTED}", (f"<?{el.target}",))


def _keep_element(el, page: bool, removed: list[Removed]) -> bool:
    tag = el.tag
    parent = el.getparent()
    if page and parent is not None and parent.tag in _KEPT_TAGS and parent.tag.rpartition("}")[2] in TEXT_ONLY:
        return False  # (the page keeps only their text: a child there would be HTML)
    if not isinstance(tag, str):
        if tag is etree.Comment:
            return not page
        if tag is etree.PI:
            if not page:
                removed.append(_pi(el))
            return False
        return False  # an entity reference (there is no DTD to define one)
    ns = etree.QName(tag).namespace
    if tag in _KEPT_TAGS:
        return True
    if not page and is_editor(ns):
        return True
    if page:
        return False
    shown = _name(el)
    local = etree.QName(tag).localname
    if local.lower() in _ACTIVE_LOWER:
        why = "a browser would run it"
    elif ns not in (None, SVG_NS):
        why = "an element of another vocabulary than SVG (a browser may run it)"
    else:
        why = "pnp does not draw it"
    removed.append(Removed(el.sourceline, f"<{shown}> removed from the SVG: {why}; {EXPECTED}",
                           (f"<{shown}", f":{local}", f"<{local}")))
    return False


def _clean_attributes(el, page: bool, removed: list[Removed]) -> None:
    tag = el.tag
    local = etree.QName(tag).localname
    attrib = el.attrib
    kept_element = tag in _KEPT_TAGS
    shown_el = _name(el)
    for name in list(attrib.keys()):
        value = attrib[name]
        why = None
        if name[:2].lower() == "on" or (name[0] == "{" and name.rpartition("}")[2][:2].lower() == "on"):
            why = "an event handler, which a browser would run"
        elif not kept_element:  # an editor's element: its other attributes are its own business
            continue
        elif name in _PLAIN_OK:
            if "(" in value and name in PROPERTIES and not css_value_ok(value):
                why = CSS_WHY
        elif name in _LINKS:
            if not link_ok(local, value):
                why = ("a link out of the SVG, which a browser would follow; expected #id (on <image>: an image "
                       f"file of the design or a data:image/ URI) ({SEE})")
        elif name == "style":
            text, gone = clean_declarations(value)
            for decl in gone:
                removed.append(Removed(el.sourceline, f"{decl} removed from the style of <{shown_el}>: {CSS_WHY}",
                                       (decl[:30], decl.partition(":")[2].strip()[:30], "style=")))
            if gone:
                if text.strip():
                    attrib[name] = text
                else:
                    del attrib[name]
            continue
        elif name in _KEPT_NS_ATTRS or _free_attribute(name, page):
            continue
        elif name == f"{{{XML_NS}}}base":
            why = "it would make the SVG's links point elsewhere"
        else:
            why = "pnp does not read it"
        if why is None:
            continue
        del attrib[name]
        if page:
            continue
        attr = _name(el, name)
        message = f'{attr}="{_shown(value)}" removed from <{shown_el}>: {why}'
        if "; expected" not in why:
            message += f"; {EXPECTED}"
        removed.append(Removed(el.sourceline, message, (f"{attr}=", f"{attr} =", attr.rpartition(":")[2] + "=")))
    if local == "style" and kept_element and len(el):
        _text_only(el, page, removed)
    if local == "style" and kept_element and el.text:
        text, gone = clean_stylesheet(el.text)
        for rule in gone:
            removed.append(Removed(el.sourceline, f"{rule} removed from <{shown_el}>: {CSS_WHY}", _css_needles(rule)))
        if gone:
            el.text = text


def _text_only(el, page: bool, removed: list[Removed]) -> None:
    """A <style> as a browser reads it: its sheet is the text of all its children, elements and comments taken
    out (a comment or an element there does not hide the text after it); what is not a comment, a warning."""
    for child in list(el):
        if isinstance(child.tag, str) and not page:
            removed.append(Removed(child.sourceline, f"<{_name(child)}> removed from <{_name(el)}>: a style holds CSS "
                                   f"text only; {EXPECTED}", (f"<{_name(child)}", "<style")))
        drop(child)


def _css_needles(rule: str) -> tuple[str, ...]:
    head = rule.split(None, 1)[0] if rule.split() else rule
    return (head, "<style")


def drop(el) -> None:
    """Remove `el` and what it holds, keeping the text that follows it (a word after a dropped tspan)."""
    parent = el.getparent()
    if parent is None:
        return
    if el.tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


# --- on text and files ---------------------------------------------------------------------------------------------

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


def clean_text(svg: str, root=None) -> tuple[str, object, list[Removed]]:
    """`clean` on an SVG text (`root`: it parsed, if the caller has it): (the text, its tree, what went). The
    text is `svg` itself when nothing went, else its prolog as it was (XML declaration, comments: pnp's marks)
    without instructions, then the cleaned root element written out, then the comments after it."""
    if root is None:
        root = etree.fromstring(svg.encode("utf-8"), _PARSER)
    removed = clean(root, text=svg)
    if not removed:
        return svg, root, []
    after = "".join(etree.tostring(c, encoding="unicode", with_tail=False) for c in root.itersiblings()
                    if c.tag is etree.Comment)
    return _prolog(svg) + etree.tostring(root, encoding="unicode", with_tail=False) + after + "\n", root, removed


_PROLOG_PART = re.compile(r"\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->")


def _prolog(svg: str) -> str:
    """What stands before an SVG text's root element, without its processing instructions (but the XML
    declaration)."""
    out: list[str] = []
    i = 0
    while True:
        m = _PROLOG_PART.match(svg, i)
        if not m:
            return "".join(out)
        part = m.group(0)
        if not part.startswith("<?") or (i == 0 and _XML_DECLARATION.match(part)):
            out.append(part)
        i = m.end()


# memo of a pure function of a file's content (keyed by its hash): safe across builds
_FILES: dict[str, tuple[bytes | None, tuple[Removed, ...]]] = {}  # content hash -> (cleaned bytes, what went)
_FILES_MOST = 256
_KEPT_BYTES = 1 << 20  # cleaned copies above this are made again when asked for, not held


def clean_file(data: bytes) -> tuple[bytes, tuple[Removed, ...]]:
    """An SVG file's bytes as pnp copies it into svg/art/, and what went: the same bytes when nothing goes;
    ValueError when it is not SVG that parses. Remembered by content (a deck shows the same art on every card)."""
    key = hashlib.sha256(data).hexdigest()
    hit = _FILES.get(key)
    if hit is not None:
        cleaned, removed = hit
        if not removed:
            return data, removed
        if cleaned is not None:
            return cleaned, removed
    try:
        root = etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as exc:
        raise ValueError(f"not well-formed XML ({exc.msg})") from None
    removed = tuple(clean(root))
    out = data
    if removed:
        xml = data.lstrip()[:5] == b"<?xml"
        out = etree.tostring(root.getroottree(), encoding="utf-8", xml_declaration=xml) + b"\n"
    if len(_FILES) >= _FILES_MOST:
        _FILES.clear()
    _FILES[key] = (out if removed and len(out) <= _KEPT_BYTES else None, removed)
    return out, removed


def template_line(text: str, needles: tuple[str, ...]) -> int | None:
    """The line of `text` (a template) where the first of `needles` that it holds first stands."""
    for needle in needles:
        at = text.find(needle)
        if at >= 0:
            return text.count("\n", 0, at) + 1
    low = text.lower()
    for needle in needles:
        at = low.find(needle.lower())
        if at >= 0:
            return text.count("\n", 0, at) + 1
    return None


def warnings_of(removed: list[Removed] | tuple[Removed, ...], source: Path, row: str | None = None,
                template: bool = False) -> list[tuple[str, int | None, str]]:
    """What `clean` removed as warnings (file, line, message) about `source`: an SVG file (the lines are its own),
    or, `template`, the template a face was filled from (each line found in its text; `row`: "cards.csv:3", the
    data row, named after the file as pnp's template warnings are)."""
    from pnp.errors import display_path  # lazy: 13 ms (pnp.errors)

    shown = display_path(source) + (f" (row {row})" if row else "")
    text = None
    if template:
        from pnp.confine import DesignFiles, FileRefused  # lazy: 15 ms (pnp.confine)

        try:
            text = DesignFiles(source.parent).read_bytes(source, "template_bytes", shared=True).decode(
                "utf-8", "replace")
        except FileRefused:
            text = ""
    out: list[tuple[str, int | None, str]] = []
    for r in removed:
        line = template_line(text, r.needles) if text is not None else r.line
        if (shown, line, r.message) not in out:
            out.append((shown, line, r.message))
    return out
