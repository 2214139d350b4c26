"""Text markup as designers write it: a cell's text -> paragraphs of styled runs (pure: no SVG, no fonts, no files).

One small language for every text a face sets (pnp.render.textbox's boxes, and cells printed straight into a
template's <text>), the union of what pnp's own cells, nanDECK's HTMLTEXT, Squib's Pango markup and spreadsheets
with HTML in their cells write:

- stars: `**bold**`, `*italic*`, only when they pair up (`\\*` is a star); `:name:` an icon (resolved by the caller);
- line breaks: a real line break, the two characters `\\n`, `<br>`, `<p>`, `<div>`;
- tags: `<b> <strong> <i> <em> <u>`, `<span>` (CSS `style="color: ...; font-size: ..."`, or Pango's `color` /
  `foreground`, `size`, `weight`, `style`, `underline`), `<font color size>`, `<big> <small>`, lists `<ul> <ol>
  <li>` (and a line starting with `- ` or `• `);
- entities, named and numeric (`&quot; &amp; &nbsp; &#8212; &eacute;`), with their `;`.

Tags are read by html.parser and entities decoded by it (html.unescape); what is outside the subset (a tag such as
<blink> or <table>, a stray or mis-nested end tag, an unknown entity, a colour or size that does not parse) is a
warning string in `Parsed.warnings` saying what is printed instead, never printed as tags. Sizes are relative to the
text's own size (`120%`, `1.2em`, `<big>`, keywords) or absolute in the face's millimetres (`pt`, `mm`, `px`...),
bounded to MIN_SCALE..MAX_SCALE and MIN_MM..MAX_MM. The work is linear in the text (the callers bound its length).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from html.entities import html5
from html.parser import HTMLParser

MIN_SCALE, MAX_SCALE = 0.25, 4.0  # a relative size: a quarter to four times the text's own size
MIN_MM, MAX_MM = 0.5, 50.0  # an absolute size, mm
MAX_NESTING = 32  # tags open at once: deeper ones are left out (so that reading a text stays linear in its length)
MAX_WARNINGS = 20  # distinct warnings about one text; the rest are counted in one more

TAGS = ("b", "strong", "i", "em", "u", "span", "font", "big", "small", "br", "p", "div", "ul", "ol", "li")
EXPECTED_TAGS = "<b>, <i>, <u>, <br>, <p>, <span>, <font>, <big>, <small>, <ul>, <ol>, <li>"
BULLETS = ("•", "◦", "▪")  # list markers of <ul> items, by depth
LINE_BULLETS = ("- ", "• ")  # a line starting with one of these is a list item (its marker kept)


@dataclass(frozen=True)
class Style:
    bold: bool = False
    italic: bool = False
    underline: bool = False
    colour: str | None = None  # "#rrggbb" (or "#rrggbbaa")
    size: float | None = None  # an absolute size, mm, in place of the text's own
    scale: float = 1.0  # times the size (the text's own, or `size`)

    def size_of(self, base: float) -> float:
        """The size this style sets text at, where the text's own size is `base`."""
        return (self.size if self.size is not None else base) * self.scale


PLAIN = Style()


@dataclass(frozen=True)
class Run:
    text: str  # the characters (spaces included), or an icon's name
    style: Style = PLAIN
    icon: bool = False


@dataclass
class Paragraph:
    runs: list[Run] = field(default_factory=list)
    level: int = 0  # list depth: 0 outside lists, 1 an item of a list, 2 of a list inside it...
    marker: str = ""  # a list item's marker ("•", "3.", "-"), set before its first line; "" on the lines after
    soft: bool = False  # opened by a block tag rather than a line break: dropped when it stays empty at the end

    @property
    def has_content(self) -> bool:
        return any(r.icon or r.text.strip(" ") for r in self.runs)


@dataclass
class Parsed:
    paragraphs: list[Paragraph]
    warnings: list[str]
    breaks: list[str] = field(default_factory=list)  # what broke lines ("<br>", "a line break", "a list (<li>)")


def parse(text: str, markup: bool = True, line_bullets: bool = True) -> Parsed:
    """`text` as paragraphs of runs; `markup=False`: every character as written, a real line break still breaks;
    `line_bullets`: a line starting with `- ` or `• ` is a list item."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    if not markup:
        return Parsed([Paragraph([Run(line)] if line else []) for line in text.split("\n")], [])
    text = text.replace("\\n", "\n")
    b = _Builder(_balanced(text))
    if "<" in text or "&" in text:
        p = _Parser(b)
        p.feed(_guard_entities(text, b.warn))
        p.close()
        p.finish()
    else:
        b.data(text, PLAIN)
    return b.result(line_bullets)


def inline(text: str) -> tuple[list[Run], list[str]]:
    """`text` as the runs of one line (a cell printed in a template's <text>): icons stay as written, and what
    breaks lines is a warning, its lines joined with spaces."""
    parsed = parse(text, line_bullets=False)
    runs: list[Run] = []
    for n, para in enumerate(parsed.paragraphs):
        if n and runs:
            runs.append(Run(" "))
        runs += [Run(f":{r.text}:", r.style) if r.icon else r for r in para.runs]
    warnings = list(parsed.warnings)
    if len(parsed.paragraphs) > 1 or any(p.marker for p in parsed.paragraphs):
        what = " and ".join(dict.fromkeys(parsed.breaks))
        warnings.append(f"{what} cannot be set in a one-line <text>: the lines are joined with spaces; expected "
                        "textbox() for text with line breaks or lists")
    return _merged(runs), warnings


def plain(text: str) -> str:
    """The words of `text` without any markup: tags left out, entities decoded, stars removed, line breaks and
    runs of spaces as one space (for names, titles, alt text); an icon stays `:name:`."""
    parsed = parse(str(text))
    words = " ".join("".join(f":{r.text}:" if r.icon else r.text for r in p.runs) for p in parsed.paragraphs)
    return _SPACES.sub(" ", words).strip(" ")


def has_markup(text: str) -> bool:
    """Whether `text` holds markup that parse() would read (a tag, an entity, paired stars, `\\n`): a quick test
    for text that is otherwise printed as it is."""
    if "<" in text and _TAG_START.search(text):
        return True
    if "&" in text and _ENTITY_LIKE.search(text):
        return True
    if "*" in text and _balanced(text.replace("\\n", "\n")) and _STARS.search(text):
        return True
    return "\\n" in text


# --- the pieces -----------------------------------------------------------------------------------------------------

_SPACES = re.compile(r"[ \n]+")
_TAG_START = re.compile(r"<[A-Za-z/!?]")
_ENTITY_LIKE = re.compile(r"&(?:#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);?")
_STARS = re.compile(r"(?<!\\)\*")
_AMP = re.compile(r"&(#[0-9]{1,10};?|#[xX][0-9A-Fa-f]{1,8};?|[A-Za-z][A-Za-z0-9]{0,31};?)?")
_TOKEN = re.compile(r"\\\*|\*\*|\*|:([A-Za-z][A-Za-z0-9_-]{0,63}):|\n")


def _balanced(text: str) -> bool:
    """Stars are markup only when they pair up (each of ** and *), else they are printed as they are."""
    bare = text.replace("\\*", "")
    doubles = bare.count("**")
    singles = bare.replace("**", "").count("*")
    return doubles % 2 == 0 and singles % 2 == 0


def _guard_entities(text: str, warn) -> str:
    """`text` with every `&` that does not start a known entity written as `&amp;`, so that the parser decodes
    the entities and prints the rest as written; unknown entities and known ones lacking their `;` are warned."""

    def one(m: re.Match) -> str:
        ref = m.group(1)
        if ref is None:
            return "&amp;"
        closed = ref.endswith(";")
        name = ref[:-1] if closed else ref
        if name.startswith("#"):
            digits = name[2:] if name[1:2] in ("x", "X") else name[1:]
            code = int(digits, 16 if name[1:2] in ("x", "X") else 10) if digits else -1
            good = 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF and (code >= 32 or code in (9, 10))
            if closed and good:
                return m.group(0)
            warn(f"entity &{ref} is not a character{'' if closed else ' (no ;)'}: printed as written; expected "
                 "&#NNN; or &#xHHHH; with a code point of a character")
            return "&amp;" + ref
        if closed and ref in html5:
            return m.group(0)
        if closed:
            warn(f"unknown entity &{ref} is printed as written; expected a named HTML entity (&amp; &quot; &nbsp; "
                 "&eacute;...) or a number (&#8212;)")
        elif ref + ";" in html5:
            warn(f"entity &{ref} has no ';': printed as written; expected &{ref};")
        return "&amp;" + ref

    return _AMP.sub(one, text)


def _merged(runs: list[Run]) -> list[Run]:
    out: list[Run] = []
    for r in runs:
        if out and not r.icon and not out[-1].icon and out[-1].style == r.style:
            out[-1] = Run(out[-1].text + r.text, r.style)
        elif r.icon or r.text:
            out.append(r)
    return out


class _Builder:
    """Paragraphs and runs, and the stars' state, as the text is read."""

    def __init__(self, stars: bool):
        self.stars = stars
        self.star_bold = self.star_italic = False
        self.paragraphs = [Paragraph()]
        self.absorb = False  # a line break right after a tag that broke the line is that same break
        self.warnings: list[str] = []
        self.seen: set[str] = set()
        self.dropped = 0  # distinct warnings beyond MAX_WARNINGS
        self.breaks: list[str] = []
        self.pending: list[str] = []
        self.pending_style = PLAIN

    def warn(self, message: str) -> None:
        if message not in self.seen:
            self.seen.add(message)
            if len(self.warnings) < MAX_WARNINGS:
                self.warnings.append(message)
            else:
                self.dropped += 1

    @property
    def cur(self) -> Paragraph:
        return self.paragraphs[-1]

    def _style(self, style: Style) -> Style:
        if (self.star_bold and not style.bold) or (self.star_italic and not style.italic):
            return replace(style, bold=style.bold or self.star_bold, italic=style.italic or self.star_italic)
        return style

    def _add(self, text: str, style: Style) -> None:
        if not text:
            return
        if text.strip(" "):
            self.absorb = False
        style = self._style(style)
        if self.pending and style != self.pending_style:
            self.flush()
        self.pending.append(text)
        self.pending_style = style

    def flush(self) -> None:
        """The characters gathered for the current run, as a run (kept apart so that a long text is joined once)."""
        if self.pending:
            runs, text = self.cur.runs, "".join(self.pending)
            if runs and not runs[-1].icon and runs[-1].style == self.pending_style:
                runs[-1] = Run(runs[-1].text + text, self.pending_style)
            else:
                runs.append(Run(text, self.pending_style))
            self.pending = []

    def data(self, text: str, style: Style, level: int = 0) -> None:
        pos = 0
        for m in _TOKEN.finditer(text):
            self._add(text[pos:m.start()], style)
            pos = m.end()
            tok = m.group(0)
            if tok == "\\*":
                self._add("*", style)
            elif tok == "**" and self.stars:
                self.star_bold = not self.star_bold
            elif tok == "*" and self.stars:
                self.star_italic = not self.star_italic
            elif tok in ("**", "*"):
                self._add(tok, style)
            elif m.group(1):
                self.absorb = False
                self.flush()
                self.cur.runs.append(Run(m.group(1), self._style(style), icon=True))
            elif self.absorb:
                self.absorb = False
            else:
                self.line_break("a line break", level)
        self._add(text[pos:], style)

    def line_break(self, what: str, level: int) -> None:
        """A new line, even after an empty one (a line break, <br>): inside a list item, a line of that item."""
        self.flush()
        self.breaks.append(what)
        self.paragraphs.append(Paragraph(level=level))

    def block(self, what: str, level: int, marker: str = "") -> None:
        """A new line unless the current one is still empty (<p>, <li>, </ul>...); the line after is absorbed."""
        self.flush()
        if marker:
            self.breaks.append(what)
        if self.cur.has_content or (self.cur.marker and not marker):
            if not marker:
                self.breaks.append(what)
            self.paragraphs.append(Paragraph(level=level, marker=marker, soft=True))
        else:
            self.cur.level, self.cur.marker = level, marker
        self.absorb = True

    def result(self, line_bullets: bool = True) -> Parsed:
        self.flush()
        if self.dropped:
            self.warnings.append(f"and {self.dropped} more markup problem{'s' if self.dropped > 1 else ''} in this "
                                 "text; expected the ones above fixed first")
        paras = self.paragraphs
        if len(paras) > 1 and paras[-1].soft and not paras[-1].runs and not paras[-1].marker:
            paras.pop()
        for p in paras if line_bullets else ():
            if p.level == 0 and not p.marker and p.runs and not p.runs[0].icon:
                first = p.runs[0].text.lstrip(" ")
                for bullet in LINE_BULLETS:
                    if first.startswith(bullet) and (first[2:].strip(" ") or len(p.runs) > 1):
                        p.level, p.marker = 1, bullet[0]
                        p.runs[0] = Run(first[2:], p.runs[0].style)
                        break
        return Parsed(paras, self.warnings, self.breaks)


@dataclass
class _Open:
    tag: str
    style: Style  # the style inside it
    kind: str  # "inline", "block", "list", "item"
    raw: str
    counter: int = 0  # an <ol>'s next number
    depth: int = 0  # the lists open inside it (itself included)
    item: int = 0  # the level of a line inside it: that of the innermost list item around it, 0 outside items


class _Parser(HTMLParser):
    def __init__(self, builder: _Builder):
        super().__init__(convert_charrefs=True)
        self.b = builder
        self.stack: list[_Open] = []
        self.unknown: set[str] = set()

    # --- state ---
    @property
    def style(self) -> Style:
        return self.stack[-1].style if self.stack else PLAIN

    def _depth(self) -> int:
        return self.stack[-1].depth if self.stack else 0

    def _item_level(self) -> int:
        """The level of a line inside the innermost list item (0 outside items)."""
        return self.stack[-1].item if self.stack else 0

    def _push(self, tag: str, style: Style, kind: str, raw: str, counter: int = 0, level: int = 0) -> None:
        depth = self._depth() + (kind == "list")
        self.stack.append(_Open(tag, style, kind, raw, counter, depth, level if kind == "item" else
                                self._item_level()))

    def _shown(self) -> str:
        raw = " ".join((self.get_starttag_text() or "").split())
        return raw if len(raw) <= 60 else raw[:57] + "...>"

    # --- html.parser's hooks ---
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        b = self.b
        if tag == "br":
            self._attrs_ignored(tag, attrs, ())
            b.line_break("<br>", self._item_level())
            b.absorb = True
            return
        if tag not in TAGS:
            if tag not in self.unknown:
                self.unknown.add(tag)
                b.warn(f"unknown markup {self._shown()}: the tag is left out, the text inside it printed; expected "
                       f"one of {EXPECTED_TAGS}, or markup=False to print tags as written")
            return
        raw = self._shown()
        if len(self.stack) >= MAX_NESTING and tag != "li":
            b.warn(f"markup nested more than {MAX_NESTING} tags deep: {raw} and the tags inside it are left out, "
                   "their text printed; expected fewer nested tags")
            return
        if tag == "li":
            self._close_item()
            depth = self._depth()
            level = max(1, depth)
            lst = next((o for o in reversed(self.stack) if o.kind == "list"), None)
            if lst is not None and lst.tag == "ol":
                for name, value in attrs:
                    if name == "value" and value and value.strip().lstrip("-").isdigit():
                        lst.counter = int(value)
                marker = f"{lst.counter}."
                lst.counter += 1
            else:
                marker = BULLETS[min(level, len(BULLETS)) - 1]
            style = self._css_attrs(tag, attrs, self.style, ("value",))
            b.block("a list (<li>)", level, marker)
            self._push(tag, style, "item", raw, level=level)
            return
        if tag in ("ul", "ol"):
            counter = 1
            for name, value in attrs:
                if tag == "ol" and name == "start" and value and value.strip().lstrip("-").isdigit():
                    counter = int(value)
            style = self._css_attrs(tag, attrs, self.style, ("start", "type") if tag == "ol" else ("type",))
            b.block("a list (<li>)", self._item_level())
            self._push(tag, style, "list", raw, counter)
            return
        if tag in ("p", "div"):
            style = self._css_attrs(tag, attrs, self.style, ())
            b.block(f"<{tag}>", self._item_level())
            self._push(tag, style, "block", raw)
            return
        style = self.style
        if tag in ("b", "strong"):
            style = replace(style, bold=True)
        elif tag in ("i", "em"):
            style = replace(style, italic=True)
        elif tag == "u":
            style = replace(style, underline=True)
        elif tag in ("big", "small"):
            style = self._scaled(style, 1.2 if tag == "big" else 1 / 1.2, raw)
        if tag == "span":
            style = self._span(attrs, style, raw)
        elif tag == "font":
            style = self._font(attrs, style, raw)
        else:
            style = self._css_attrs(tag, attrs, style, ())
        self._push(tag, style, "inline", raw)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in TAGS and tag != "br":
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        b = self.b
        if tag == "br":  # </br> is read as <br> by browsers
            b.line_break("<br>", self._item_level())
            b.absorb = True
            return
        if tag not in TAGS:
            if tag not in self.unknown:
                self.unknown.add(tag)
                b.warn(f"unknown markup </{tag}>: it is left out; expected one of {EXPECTED_TAGS}, or markup=False "
                       "to print tags as written")
            return
        at = next((n for n in range(len(self.stack) - 1, -1, -1) if self.stack[n].tag == tag), None)
        if at is None:
            if tag in ("p", "li", "div"):  # </p> alone is a line break in HTML, as is a </li> after its list
                b.block(f"<{tag}>" if tag != "li" else "a list (<li>)", self._item_level())
            else:
                b.warn(f"markup </{tag}> closes no <{tag}>: it is left out; expected each </{tag}> after its <{tag}>")
            return
        for o in self.stack[at + 1:]:
            if o.kind == "inline":
                b.warn(f"markup </{tag}> comes before the end of {o.raw} (mis-nested tags): {o.raw} ends there too; "
                       f"expected tags closed in the reverse order they are opened")
        closed = self.stack[at]
        del self.stack[at:]
        if closed.kind != "inline":
            b.block("a list (<li>)" if closed.kind in ("list", "item") else f"<{tag}>", self._item_level())

    def handle_data(self, data: str) -> None:
        self.b.data(data, self.style, self._item_level())

    def handle_comment(self, data: str) -> None:
        pass  # a comment is meant to be unseen

    def handle_decl(self, decl: str) -> None:
        self.b.warn(f"markup <!{decl[:40]}> is left out; expected text and the tags {EXPECTED_TAGS}")

    def unknown_decl(self, data: str) -> None:
        self.handle_decl(data)

    def handle_pi(self, data: str) -> None:
        self.b.warn(f"markup <?{data[:40].rstrip('?')}?> is left out; expected text and the tags {EXPECTED_TAGS}")

    def finish(self) -> None:
        for o in self.stack:
            if o.kind == "inline":
                self.b.warn(f"markup {o.raw} is not closed: it runs to the end of the text; expected a </{o.tag}>")

    def _close_item(self) -> None:
        """A new <li> ends the open item of the same list (HTML lets </li> out)."""
        for n in range(len(self.stack) - 1, -1, -1):
            o = self.stack[n]
            if o.kind == "list":
                return
            if o.kind == "item":
                for inner in self.stack[n + 1:]:
                    if inner.kind == "inline":
                        self.b.warn(f"markup {inner.raw} is not closed before the next <li>: it ends there; "
                                    f"expected a </{inner.tag}>")
                del self.stack[n:]
                return

    # --- attributes ---
    def _attrs_ignored(self, tag: str, attrs: list[tuple[str, str | None]], known: tuple[str, ...]) -> None:
        for name, _value in attrs:
            if name not in known:
                self.b.warn(f"markup {self._shown()}: the attribute {name} is ignored; expected "
                            + (f"one of {', '.join(known)}" if known else f"<{tag}> without attributes"))

    def _css_attrs(self, tag: str, attrs: list[tuple[str, str | None]], style: Style, known: tuple[str, ...]) -> Style:
        """A tag's style="" (CSS), the other attributes in `known` read by the caller, the rest warned."""
        for name, value in attrs:
            if name == "style":
                style = self._css(value or "", style)
            elif name not in known:
                self.b.warn(f"markup {self._shown()}: the attribute {name} is ignored; expected style=\"color: ...; "
                            "font-size: ...\"" + (f" or {', '.join(known)}" if known else ""))
        return style

    def _css(self, text: str, style: Style) -> Style:
        raw = self._shown()
        for item in text.split(";"):
            name, sep, value = item.partition(":")
            name, value = name.strip().lower(), value.strip()
            if value.lower().endswith("!important"):
                value = value[:-10].strip()
            if not sep or not name:
                if item.strip():
                    self.b.warn(f"markup {raw}: '{item.strip()[:30]}' is not a CSS declaration: ignored; expected "
                                "name: value")
                continue
            if name == "color":
                style = self._colour(value, style, raw)
            elif name == "font-size":
                style = self._size(value, "css", style, raw)
            elif name == "font-weight":
                style = self._weight(value, style, raw)
            elif name == "font-style":
                style = self._slant(value, style, raw)
            elif name in ("text-decoration", "text-decoration-line"):
                words = value.lower().split()
                if "underline" in words:
                    style = replace(style, underline=True)
                elif words == ["none"]:
                    style = replace(style, underline=False)
                else:
                    self.b.warn(f"markup {raw}: text-decoration: {value} is not supported: ignored; expected "
                                "underline or none")
            else:
                self.b.warn(f"markup {raw}: the CSS property {name} is not supported: ignored; expected color, "
                            "font-size, font-weight, font-style or text-decoration")
        return style

    def _span(self, attrs: list[tuple[str, str | None]], style: Style, raw: str) -> Style:
        """<span>: CSS in style="", or Pango's attributes (as Squib writes them)."""
        for name, value in attrs:
            value = value or ""
            if name == "style" and ":" in value:
                style = self._css(value, style)
            elif name in ("style", "font_style"):
                style = self._slant(value, style, raw)
            elif name in ("color", "foreground", "fgcolor"):
                style = self._colour(value, style, raw)
            elif name in ("size", "font_size"):
                style = self._size(value, "pango", style, raw)
            elif name in ("weight", "font_weight"):
                style = self._weight(value, style, raw)
            elif name == "underline":
                style = replace(style, underline=value.strip().lower() != "none")
            else:
                self.b.warn(f"markup {raw}: the attribute {name} is ignored; expected style=\"color: ...; "
                            "font-size: ...\", or color (foreground), size, weight, style, underline")
        return style

    def _font(self, attrs: list[tuple[str, str | None]], style: Style, raw: str) -> Style:
        """<font color size> (as nanDECK and old HTML write it)."""
        for name, value in attrs:
            value = value or ""
            if name == "color":
                style = self._colour(value, style, raw)
            elif name == "size":
                style = self._size(value, "font", style, raw)
            elif name == "style":
                style = self._css(value, style)
            else:
                self.b.warn(f"markup {raw}: the attribute {name} is ignored; expected color or size")
        return style

    def _colour(self, value: str, style: Style, raw: str) -> Style:
        from pnp.render.svgpdf.values import colour  # lazy: 106 ms (pnp.render.svgpdf.values)

        c = colour(value) if value.strip() else None
        if not isinstance(c, tuple):
            self.b.warn(f"markup {raw}: '{value[:30]}' is not a colour: the text keeps its colour; expected a CSS "
                        "colour name or #rgb / #rrggbb")
            return style
        hexa = "#" + "".join(f"{round(v * 255):02x}" for v in c[:3]) + (f"{round(c[3] * 255):02x}" if c[3] < 1 else "")
        return replace(style, colour=hexa)

    def _weight(self, value: str, style: Style, raw: str) -> Style:
        v = value.strip().lower()
        if v in ("bold", "bolder", "heavy", "ultrabold", "semibold", "black", "ultraheavy") or (v.isdigit()
                                                                                                 and int(v) >= 600):
            return replace(style, bold=True)
        if v in ("normal", "lighter", "light", "book", "medium", "ultralight", "thin", "semilight") or v.isdigit():
            return replace(style, bold=False)
        self.b.warn(f"markup {raw}: font-weight '{value[:30]}' is not a weight: ignored; expected bold or normal")
        return style

    def _slant(self, value: str, style: Style, raw: str) -> Style:
        v = value.strip().lower()
        if v in ("italic", "oblique"):
            return replace(style, italic=True)
        if v == "normal":
            return replace(style, italic=False)
        self.b.warn(f"markup {raw}: font-style '{value[:30]}' is not a style: ignored; expected italic or normal")
        return style

    def _size(self, value: str, kind: str, style: Style, raw: str) -> Style:
        got = _size_value(value, kind)
        if got is None:
            self.b.warn(f"markup {raw}: '{value[:30]}' is not a size: the text keeps its size; expected a percentage "
                        "(120%), em, pt or mm, or small, large, x-large...")
            return style
        how, v = got
        if how == "rel":
            return self._scaled(style, v, raw)
        if not MIN_MM <= v <= MAX_MM:
            bounded = min(max(v, MIN_MM), MAX_MM)
            self.b.warn(f"markup {raw}: a size of {v:.3g} mm is outside {MIN_MM:g}..{MAX_MM:g} mm: set at "
                        f"{bounded:g} mm")
            v = bounded
        return replace(style, size=round(v, 4), scale=1.0)

    def _scaled(self, style: Style, factor: float, raw: str) -> Style:
        scale = style.scale * factor
        if not MIN_SCALE - 1e-9 <= scale <= MAX_SCALE + 1e-9:
            bounded = min(max(scale, MIN_SCALE), MAX_SCALE)
            self.b.warn(f"markup {raw}: a size of {scale * 100:.0f}% is outside {MIN_SCALE * 100:.0f}%.."
                        f"{MAX_SCALE * 100:.0f}% of the text's size: set at {bounded * 100:.0f}%")
            scale = bounded
        return replace(style, scale=round(scale, 6))


_KEYWORDS = {"xx-small": 3 / 5, "x-small": 3 / 4, "small": 8 / 9, "medium": 1.0, "large": 6 / 5, "x-large": 3 / 2,
             "xx-large": 2.0, "xxx-large": 3.0, "larger": 1.2, "smaller": 1 / 1.2}
_HTML_SIZES = {1: 10 / 16, 2: 13 / 16, 3: 1.0, 4: 18 / 16, 5: 24 / 16, 6: 2.0, 7: 3.0}  # <font size=1..7>, 3 = normal
_MM_PER = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72, "pc": 25.4 / 6, "px": 25.4 / 96, "q": 0.25}
_LENGTH = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+))\s*(%|em|mm|cm|in|pt|pc|px|q)?$", re.I)


def _size_value(value: str, kind: str) -> tuple[str, float] | None:
    """("rel", factor) or ("abs", mm) of a size as CSS (`kind` "css"), Pango ("pango": a bare number is in 1024ths
    of a point) or <font size> ("font": 1-7 and +n/-n on HTML's scale, a larger bare number in points) write it."""
    v = value.strip().lower()
    if v in _KEYWORDS:
        return "rel", _KEYWORDS[v]
    m = _LENGTH.match(v)
    if not m:
        return None
    number, unit = float(m.group(1)), (m.group(2) or "")
    if unit == "%":
        return ("rel", number / 100) if number > 0 else None
    if unit == "em":
        return ("rel", number) if number > 0 else None
    if unit:
        return ("abs", number * _MM_PER[unit]) if number > 0 else None
    if kind == "font":
        if v[0] in "+-" and number == int(number):
            return "rel", _HTML_SIZES[min(max(3 + int(number), 1), 7)]
        if number == int(number) and 1 <= number <= 7:
            return "rel", _HTML_SIZES[int(number)]
        return ("abs", number * _MM_PER["pt"]) if number > 7 else None
    if kind == "pango" and number > 0:
        return "abs", number / 1024 * _MM_PER["pt"]
    return None
