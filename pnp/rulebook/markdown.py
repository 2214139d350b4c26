"""Markdown -> ReportLab platypus flowables (markdown-it-py, CommonMark + tables, footnotes, front matter).

Supported: headings of any level in any order (styled `#`, `##`, `###` and deeper; listed in the outline and the
contents at their depth under the heading before, never more than one level below it), paragraphs, **bold**,
*italic*, ~~struck~~, `code`, links, bullet and numbered lists (nested up to MAX_DEPTH levels with block quotes),
tables (with column alignment; a long table repeats its header row on each page, a row taller than a page is
split), block quotes (drawn as a note box), code blocks, horizontal rules, footnotes (`[^1]` and `[^1]: text`,
numbered and listed at the end), HTML entities, a small subset of raw HTML (pnp.rulebook.rawhtml) and images. An
image alone on its line becomes a block (diagram, component list, SVG file) resolved by the caller's `image`
function. Front matter (`---` lines at the top) is not printed: pnp.rulebook.text reads it.

What is written but cannot be printed as meant (an HTML tag outside the subset, a footnote reference without its
text, a control character) is printed as written or left out, and told through the caller's `warn(line, message)`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from xml.sax.saxutils import escape

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    AnchorFlowable,
    Flowable,
    HRFlowable,
    KeepTogether,
    ListFlowable,
    ListItem,
    Paragraph as _Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from pnp.limits import limit
from pnp.render import fonts, reportlab_internals as rl
from pnp.render.typography import typeset, typeset_runs
from pnp.rulebook import rawhtml
from pnp.rulebook.layout import FONT_ALL, Layout

rl.no_break_at_narrow_spaces()  # (the French narrow no-break spaces typography writes: ReportLab broke lines there)


class Paragraph(_Paragraph):
    """ReportLab's Paragraph, breaking its lines once per width: platypus wraps a paragraph many times (a table
    measures its cells, a frame tries it, KeepTogether measures its group, and both passes of the rulebook lay out
    the same text), and breaking the lines is most of the layout's time. The lines depend only on the text
    (its fragments) and the widths, so they are kept while both stay the same."""

    def breakLines(self, width):
        widths = tuple(width) if isinstance(width, (list, tuple)) else (width,)
        kept = self.__dict__.get("_pnp_lines")
        if kept is not None and kept[0] == widths and kept[1] is self.frags:
            return kept[2]
        lines = super().breakLines(width)
        self._pnp_lines = (widths, self.frags, lines)
        return lines


ImageFn = Callable[..., list[Flowable]]  # (src, alt, source line, size) -> flowables; size: see image_size
WarnFn = Callable[[int | None, str], None]  # (line in the Markdown, message)

MAX_DEPTH = 20
"""Lists and block quotes inside one another, at most (markdown-it drops what is nested past its own limit: the
text checks this one first, pnp.rulebook.text)."""

MIN_TEXT = 120.0
"""Points of width a nested list or quote always leaves its text: deeper levels stop indenting further."""

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_UNDEFINED_NOTE = re.compile(r"\[\^([^\]\s]+)\]")

_SIZE_BLOCK = re.compile(r"^\{([^{}\n]*)\}")
SIDE_GAP = 8 * 72 / 25.4
"""The least space between images side by side (points): 8 mm."""
_SIZE_ITEM = re.compile(r"^(width|height)\s*=\s*([0-9]*\.?[0-9]+)\s*(mm|cm|in|pt|%)$")
_TO_PT = {"mm": 72 / 25.4, "cm": 720 / 25.4, "in": 72.0, "pt": 1.0}
SIZE_EXPECTED = ("expected {width=60mm} or {height=40%}, or both separated by a space, in mm, cm, in, pt or % "
                 "(of the text's width or height)")


def size_block(text: str) -> tuple[str, str] | None:
    """The `{...}` that starts `text` (what follows an image) and the rest of the text; None if there is none."""
    m = _SIZE_BLOCK.match(text)
    return (m.group(1), text[m.end():]) if m else None


def image_size(spec: str) -> dict[str, tuple[float, str]]:
    """`width=60mm height=4cm` -> {"width": (60.0, "mm"), ...}; ValueError saying what is wrong (the caller adds
    file:line and SIZE_EXPECTED). Lengths are bounded by pnp.limits ("length"), percentages by 100."""
    out: dict[str, tuple[float, str]] = {}
    for item in re.split(r"[\s,;]+", spec.strip()):
        if not item:
            continue
        m = _SIZE_ITEM.match(item.strip())
        if not m:
            raise ValueError(f"'{item}' is not a size")
        name, value, unit = m.group(1), float(m.group(2)), m.group(3)
        if name in out:
            raise ValueError(f"{name} is given twice")
        if value <= 0:
            raise ValueError(f"{name} {value:g}{unit} is not above 0")
        if unit == "%" and value > 100:
            raise ValueError(f"{name} {value:g}% is more than the page holds")
        if unit != "%" and value * _TO_PT[unit] > limit("length") * _TO_PT["mm"]:
            raise ValueError(f"{name} {value:g}{unit} is more than {limit('length')} mm")
        out[name] = (value, unit)
    if not out:
        raise ValueError("the braces hold no size")
    return out


def size_points(size: dict[str, tuple[float, str]], width: float, height: float) -> tuple[float | None, float | None]:
    """(width, height) in points of a checked size; % of `width` / `height` (the text's, in points)."""
    def one(name: str, whole: float) -> float | None:
        if name not in size:
            return None
        value, unit = size[name]
        return whole * value / 100 if unit == "%" else value * _TO_PT[unit]

    return one("width", width), one("height", height)


class MarkdownError(ValueError):
    """Markdown that cannot be set on the page (a table too wide...); `line` is its line in the Markdown."""

    def __init__(self, message: str, line: int | None):
        super().__init__(message)
        self.message, self.line = message, line


class Heading(Paragraph):
    """A heading: listed in the table of contents and the PDF outline at `toc_level` (1: the top)."""

    def __init__(self, text: str, style: ParagraphStyle, level: int, plain: str, key: str):
        super().__init__(text, style)
        self.toc_level, self.plain, self.key = level, plain, key


def parser(front_matter: bool = True) -> MarkdownIt:
    """CommonMark, tables, ~~strikethrough~~, footnotes and front matter; nesting deep enough for MAX_DEPTH lists
    and quotes (a list takes two of markdown-it's levels, a footnote or a table's cells a few more)."""
    md = MarkdownIt("commonmark", {"typographer": False, "maxNesting": 2 * MAX_DEPTH + 20})
    md.enable(["table", "strikethrough"]).use(footnote_plugin)
    return md.use(front_matter_plugin) if front_matter else md


def too_deep(tokens: list) -> int | None:
    """The 0-based line of the first list or block quote nested more than MAX_DEPTH levels deep, else None."""
    depth = 0
    for token in tokens:
        if token.type in ("bullet_list_open", "ordered_list_open", "blockquote_open"):
            depth += 1
            if depth > MAX_DEPTH:
                return token.map[0] if token.map else 0
        elif token.type in ("bullet_list_close", "ordered_list_close", "blockquote_close"):
            depth -= 1
    return None


def _no_warnings(line: int | None, message: str) -> None:
    pass


def to_flowables(markdown: str, layout: Layout, width: float, image: ImageFn,
                 tokens: list | None = None, warn: WarnFn = _no_warnings,
                 height: float | None = None, env: dict | None = None, lang: str = "") -> list[Flowable]:
    """The flowables of `markdown`; `tokens`: the same Markdown already parsed (`parser().parse`), with its `env`.
    `warn` is told what cannot be printed as written (its line in the Markdown); `height`: the page's text height
    (a table row taller is split across pages); `lang`: the text's language, whose typography every text run is
    set in (pnp.render.typography: headings, paragraphs, lists, tables, notes, footnotes, captions; not code)."""
    if tokens is None:
        env = {}
        tokens = parser().parse(markdown, env)
    if lang:
        typeset_tokens(tokens, lang)
    levels = [int(t.tag[1]) for t in tokens if t.type == "heading_open"]
    conv = _Converter(layout, width, image, warn, min(levels, default=1), height, lang)
    listed = ((env or {}).get("footnotes") or {}).get("list") or {}
    lines = markdown.splitlines()
    for number, note in listed.items():  # an inline note ^[...]: the line it is written on (its text has none)
        if "content" in note:
            first = str(note["content"]).split("\n")[0]
            conv.inline_notes[int(number) + 1] = next((i for i, s in enumerate(lines, start=1) if f"^[{first}" in s),
                                                      None)
    return conv.blocks(SyntaxTreeNode(tokens).children, width)


def typeset_tokens(tokens: list, lang: str) -> None:
    """Every text run of the parsed Markdown typeset in `lang`, in place: the runs of one inline (a paragraph's,
    a heading's, a cell's) together, so that "**Pion** : ..." and a quote around a bold word read across their
    runs. Code, images and footnote references stand between runs as a word would; HTML tags as nothing;
    an image's size ({width=60mm}) is left as written. Idempotent (typeset text is its own typeset text)."""
    for token in tokens:
        if token.type == "inline" and token.children:
            _typeset_children(token.children, lang)


def _typeset_children(children: list, lang: str) -> None:
    runs: list[tuple[object | None, str]] = []  # (token, its text), None for what stands between runs
    after_image = False
    for tok in children:
        t = tok.type
        if t == "text" and not (after_image and tok.content.startswith("{")):
            runs.append((tok, tok.content))
        elif t in ("code_inline", "footnote_ref", "image", "text"):
            runs.append((None, "X"))
            if t == "image" and tok.children:
                _typeset_children(tok.children, lang)  # its caption, apart
        elif t in ("softbreak", "hardbreak"):
            runs.append((None, " "))
        elif t == "html_inline" and rawhtml.tag_name(tok.content) == "<br>":
            runs.append((None, " "))
        after_image = t == "image"
    done = typeset_runs([text for _, text in runs], lang)
    for (tok, _), text in zip(runs, done):
        if tok is not None:
            tok.content = text  # type: ignore[attr-defined]


class _Converter:
    def __init__(self, layout: Layout, width: float, image: ImageFn, warn: WarnFn = _no_warnings, top: int = 1,
                 height: float | None = None, lang: str = ""):
        self.layout, self.width, self.image, self.warn = layout, width, image, warn
        self.lang = lang  # raw HTML's text is typeset in it (the Markdown's runs are, before: typeset_tokens)
        self.height = height
        self.st = layout.styles
        self.headings = 0
        self.top = top  # the level of the text's largest heading: listed at the top of the outline
        self.depth = 0  # the outline depth of the heading before (0: none yet)
        self.nested = 0  # inside a list, a quote, a table or a footnote: headings there are not listed
        self.line: int | None = None  # the Markdown line of the inline text being converted
        accent = layout.raw["colours"]["accent"]
        self.runs = rawhtml.Runs((f'<font color="{accent}">', "</font>"))
        self.unknown: dict[str, int | None] = {}  # HTML tags printed as written in this block -> first line
        self.noted: dict[int, int | None] = {}  # a footnote's number -> the line of its first reference
        self.where: int | None = None  # the line of text parsed without one (an inline footnote's: its reference's)
        self.inline_notes: dict[int, int | None] = {}  # an inline footnote's number -> the line it is written on
        self.anchor: str | None = None  # a destination to name at the start of the next paragraph (a footnote's)

    # --- blocks ------------------------------------------------------------------------
    def blocks(self, nodes, width: float, style: ParagraphStyle | None = None) -> list[Flowable]:
        out: list[Flowable] = []
        for node in nodes:
            out.extend(self.block(node, width, style))
        return out

    def block(self, node, width: float, style: ParagraphStyle | None = None) -> list[Flowable]:
        t = node.type
        style = style or self.st["body"]
        if t == "heading":
            level = int(node.tag[1])
            inline = node.children[0] if node.children else None
            text = self.inline(inline, _line(node))
            plain = _plain(inline)
            st = self.st[f"h{min(level, 3)}"]
            if self.nested:  # a heading in a list or a quote: styled as one, not listed, not kept with what follows
                return [Paragraph(text, ParagraphStyle(f"{st.name}-in", parent=st, keepWithNext=0))]  # (loops there)
            self.headings += 1
            # its depth in the outline: from the text's largest heading, never more than one below the one before
            self.depth = min(max(1, level - self.top + 1), self.depth + 1)
            return [Heading(text, st, self.depth, plain, f"h{self.headings}")]
        if t == "paragraph":
            return self.paragraph(node.children[0] if node.children else None, style, width)
        if t in ("bullet_list", "ordered_list"):
            return [self.list(node, width)]
        if t == "table":
            return [self.table(node, width)]
        if t == "blockquote":
            return [self.note(node, width)]
        if t == "hr":
            return [HRFlowable(width="100%", thickness=0.6, color=self.layout.colour("accent"),
                               spaceBefore=4, spaceAfter=8)]
        if t in ("fence", "code_block"):
            first = _line(node)  # a fence's code starts on the line after its ```
            code = self._printable(node.content.rstrip("\n"), first + 1 if t == "fence" and first else first)
            code = code.expandtabs(4)
            lines = escape(code).replace("\n", "<br/>").replace(" ", "&nbsp;")
            return [Paragraph(lines, ParagraphStyle("code", parent=style, backColor=self.layout.colour("accent_light"),
                                                   borderPadding=4, spaceBefore=4, spaceAfter=8))]
        if t == "html_block":
            return self.html_block(node, style)
        if t == "footnote_block":
            return self.footnotes(node, width)
        if t == "front_matter":
            return []  # read by pnp.rulebook.text (metadata, not text)
        return self.blocks(node.children, width, style)

    def html_block(self, node, style: ParagraphStyle) -> list[Flowable]:
        """Raw HTML on lines of its own: the understood subset, comments dropped, any other tag printed as
        written (and told); a block of only `<br>` is that much space."""
        line = _line(node)
        self.runs.begin()
        parts: list[str] = []
        for kind, raw in rawhtml.pieces(node.content):
            if kind == "text":
                parts.append(escape(typeset(self._printable(html.unescape(raw), line), self.lang)))
            elif kind == "tag":
                parts.append(self._tag(raw, line))
            if line is not None:
                line += raw.count("\n")
        parts.append(self.runs.end())
        self._report_html()
        text = " ".join("".join(parts).split())
        breaks = text.replace("<br/>", "").strip()
        if not breaks:
            count = text.count("<br/>")
            return [Spacer(0, style.leading * count)] if count else []
        while text.startswith("<br/>") or text.endswith("<br/>"):
            text = text.removeprefix("<br/>").removesuffix("<br/>").strip()
        return [Paragraph(text, style)]

    def footnotes(self, node, width: float) -> list[Flowable]:
        """The footnotes, numbered in the order the text first refers to them, after a short rule at the end."""
        st = self.st.get("footnote", self.st["note"])
        indent = 16
        items: list[ListItem] = []
        self.nested += 1
        for fn in node.children:
            number = int(fn.meta.get("id", len(items))) + 1
            self.where = self.noted.get(number) or self.inline_notes.get(number)
            self.anchor = f"fn{number}"  # where its references lead: in its first paragraph (never apart from it)
            flow = self.blocks(fn.children, width - indent, st)
            if self.anchor is not None:  # (it starts with something else: a list, code...)
                flow.insert(0, AnchorFlowable(self.anchor))
            self.where = self.anchor = None
            items.append(ListItem(flow, value=number))
        self.nested -= 1
        if not items:
            return []
        rule = HRFlowable(width="30%", thickness=0.5, color=self.layout.colour("muted"), hAlign="LEFT",
                          spaceBefore=10, spaceAfter=4)
        return [rule, ListFlowable(items, bulletType="1", bulletFormat="%s.", leftIndent=indent,
                                   bulletFontName=fonts.REGULAR, bulletFontSize=st.fontSize,
                                   bulletColor=self.layout.colour("muted"), spaceAfter=2)]

    def paragraph(self, inline, style: ParagraphStyle, width: float) -> list[Flowable]:
        """Text runs become Paragraphs; images standing together (only spaces or line breaks
        between them) are laid out side by side in one row."""
        if inline is None:
            return []
        out: list[Flowable] = []
        parts: list[str] = []
        images: list = []
        line = inline.map[0] + 1 if inline.map else self.where
        self.line = line
        last_was_image = False
        self.runs.begin()

        def flush_text() -> None:
            text = ("".join(parts) + self.runs.closing()).strip()
            while text.startswith("<br/>") or text.endswith("<br/>"):
                text = text.removeprefix("<br/>").removesuffix("<br/>").strip()
            if _visible(text):
                if self.anchor is not None:
                    text, self.anchor = f'<a name="{self.anchor}"/>{text}', None
                out.append(Paragraph(text, style))
            parts[:] = [self.runs.reopening()]

        def flush_images() -> None:
            if len(images) == 1:
                made = self.image(images[0].attrs.get("src", ""), _plain(images[0]), line, images[0].meta.get("size"))
                out.extend(_unkept(made) if self.nested else made)  # (nested, a figure cannot be kept together)
            elif images:
                n = len(images)
                cell = (width - SIDE_GAP * (n - 1)) / n  # (each image at most this wide)
                row = [[part for f in self.image(img.attrs.get("src", ""), _plain(img), line, img.meta.get("size"))
                        for part in (rl.kept_together(f) if isinstance(f, KeepTogether) else [f])] for img in images]
                # each column as wide as its image and a share of the width left over (its caption wraps in it),
                # the image centred: SIDE_GAP at least between two images, so a diagram's labels stay by their own
                # drawing, away from its neighbour's
                drawn = [max((f.wrap(cell, 1e6)[0] for f in parts if not isinstance(f, (_Paragraph, Spacer))),
                             default=cell) for parts in row]
                share = max(0.0, width - sum(drawn) - SIDE_GAP * (n - 1)) / n
                cols = [w + share + SIDE_GAP / 2 * ((i > 0) + (i < n - 1)) for i, w in enumerate(drawn)]
                style: list[tuple] = [FONT_ALL, ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                                      ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                                      ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                                      ("ALIGN", (0, 0), (-1, -1), "CENTER")]
                style += [("LEFTPADDING", (i, 0), (i, 0), SIDE_GAP / 2) for i in range(1, n)]
                style += [("RIGHTPADDING", (i, 0), (i, 0), SIDE_GAP / 2) for i in range(n - 1)]
                t = Table([row], colWidths=cols, hAlign="CENTER")
                t.setStyle(TableStyle(style))
                out.append(t)
            images.clear()

        for child in inline.children:
            if child.type == "text" and images and last_was_image:
                found = size_block(child.content)
                if found is not None:  # checked by pnp.rulebook.text (file:line); a bad one never gets here
                    try:
                        images[-1].meta["size"] = image_size(found[0])
                    except ValueError:
                        pass
                    last_was_image = False
                    if found[1].strip():
                        flush_images()
                        parts.append(escape(found[1]))
                    else:
                        parts.append(found[1])
                    continue
            last_was_image = child.type == "image"
            if child.type == "image":
                if _visible("".join(parts)):
                    flush_text()
                parts[:] = [self.runs.reopening()]  # (the runs still open go on after the image)
                images.append(child)
            elif child.type in ("softbreak", "hardbreak") or (child.type == "text" and not child.content.strip()):
                parts.append(self._inline_node(child))
            else:
                flush_images()
                parts.append(self._inline_node(child))
        flush_images()
        flush_text()
        self.runs.end()
        self._report_html()
        return out

    def list(self, node, width: float) -> ListFlowable:
        ordered = node.type == "ordered_list"
        items = []
        indent = _indent(14 if not ordered else 16, width)
        st = self.st["list"]
        self.nested += 1
        for item in node.children:
            flow = []
            for child in item.children:
                if child.type == "paragraph":
                    flow.extend(self.paragraph(child.children[0] if child.children else None, st, width - indent))
                else:
                    flow.extend(self.block(child, width - indent, st))
            items.append(ListItem(flow or [Spacer(0, 0)]))
        self.nested -= 1
        kw = dict(bulletFontName=fonts.BOLD if ordered else fonts.REGULAR, bulletFontSize=st.fontSize,
                  leftIndent=indent, bulletColor=self.layout.colour("accent"), spaceAfter=4)
        if ordered:
            start = node.attrs.get("start", 1)
            return ListFlowable(items, bulletType="1", start=str(start), bulletFormat="%s.", **kw)
        return ListFlowable(items, bulletType="bullet", start="•", **kw)

    def table(self, node, width: float) -> Table:
        st = self.st["table"]
        head = ParagraphStyle("th", parent=st, fontName=fonts.BOLD)
        rows: list[list] = []
        aligns: list[int] = []
        plain_rows: list[list[str]] = []
        self.nested += 1
        for section in node.children:  # thead, tbody
            for tr in section.children:
                row, plain = [], []
                for i, cell in enumerate(tr.children):
                    align = {"text-align:right": TA_RIGHT, "text-align:center": TA_CENTER}.get(
                        cell.attrs.get("style", ""), TA_LEFT)
                    if len(aligns) <= i:
                        aligns.append(align)
                    style = ParagraphStyle(f"td{i}", parent=head if cell.type == "th" else st, alignment=aligns[i])
                    inline = cell.children[0] if cell.children else None
                    row.append(Paragraph(self.inline(inline, _line(tr)) if inline else "", style))
                    plain.append(_plain(inline) if inline else "")
                rows.append(row)
                plain_rows.append(plain)
        self.nested -= 1
        ncols = max(len(r) for r in rows)
        for r in rows:
            r.extend([""] * (ncols - len(r)))
        try:
            widths = _column_widths(plain_rows, ncols, width, st)
        except ValueError as exc:
            raise MarkdownError(str(exc), node.map[0] + 1 if node.map else None) from None
        t = _Table(rows, colWidths=widths, repeatRows=1, hAlign="LEFT", page_height=self.height)
        accent, light = self.layout.colour("accent"), self.layout.colour("accent_light")
        t.setStyle(TableStyle([FONT_ALL,
            ("BACKGROUND", (0, 0), (-1, 0), light),
            ("LINEBELOW", (0, 0), (-1, 0), 0.8, accent),
            ("LINEBELOW", (0, 1), (-1, -1), 0.3, self.layout.colour("muted")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("TOPPADDING", (0, 0), (-1, -1), 3), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ("LEFTPADDING", (0, 0), (-1, -1), 4), ("RIGHTPADDING", (0, 0), (-1, -1), 4),
        ]))
        t.spaceBefore, t.spaceAfter = 4, 8
        return t

    def note(self, node, width: float) -> Table:
        self.nested += 1
        inner = _unkept(self.blocks(node.children, width - _indent(20, width), self.st["note"]))
        self.nested -= 1
        t = _Table([[inner or ""]], colWidths=[width - _indent(6, width)], hAlign="LEFT", page_height=self.height)
        t.setStyle(TableStyle([FONT_ALL,
            ("BACKGROUND", (0, 0), (-1, -1), self.layout.colour("accent_light")),
            ("LINEBEFORE", (0, 0), (0, -1), 2.5, self.layout.colour("accent")),
            ("LEFTPADDING", (0, 0), (-1, -1), min(9, _indent(20, width) / 2)),
            ("RIGHTPADDING", (0, 0), (-1, -1), min(8, _indent(20, width) / 2)),
            ("TOPPADDING", (0, 0), (-1, -1), 5), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ]))
        t.spaceBefore, t.spaceAfter = 3, 9
        return t

    # --- inline ------------------------------------------------------------------------
    def inline(self, node, line: int | None = None) -> str:
        """The paragraph markup of an inline node (a heading's, a table cell's); `line`: its line."""
        if not node:
            return ""
        self.line = line
        text = self._run(node.children).strip()
        self._report_html()
        return text

    def _run(self, children) -> str:
        """A Markdown run's markup, the HTML runs opened in it closed at its end."""
        self.runs.begin()
        inner = "".join(self._inline_node(c) for c in children)
        return inner + self.runs.end()

    def _inline_node(self, node) -> str:
        t = node.type
        if t == "text":
            for m in _UNDEFINED_NOTE.finditer(node.content):
                self.warn(self.line, f"footnote [^{m.group(1)}] has no text and is printed as written; expected a "
                                     f"line '[^{m.group(1)}]: its text' in the rules text")
            return escape(self._printable(node.content, self.line))
        if t == "strong":
            return "<b>" + self._run(node.children) + "</b>"
        if t == "em":
            return "<i>" + self._run(node.children) + "</i>"
        if t == "s":
            return "<strike>" + self._run(node.children) + "</strike>"
        if t == "code_inline":
            code = escape(self._printable(node.content, self.line))
            return f'<font color="{self.layout.raw["colours"]["accent"]}">{code}</font>'
        if t in ("softbreak", "hardbreak"):
            if self.line is not None:
                self.line += 1
            return " " if t == "softbreak" else "<br/>"
        if t == "link":
            inner = self._run(node.children)
            href = escape(node.attrs.get("href", ""), {'"': "&quot;"})
            return f'<a href="{href}" color="{self.layout.raw["colours"]["accent"]}"><u>{inner}</u></a>'
        if t == "image":  # one not on a line of its own (paragraph): in a heading, a table cell, a link...
            src = str(node.attrs.get("src", ""))
            self.warn(self.line, f"image {src!r} is not drawn inside a heading, a table cell, a link or emphasis "
                                 "(its caption is printed instead); expected the image on a line of its own")
            return escape(self._printable(_plain(node), self.line))
        if t == "html_inline":
            line = self.line
            if self.line is not None:
                self.line += node.content.count("\n")
            if node.content.startswith("<!--"):
                return ""  # a comment: not printed
            return self._tag(node.content, line)
        if t == "footnote_ref":
            number = int(node.meta.get("id", 0)) + 1
            self.noted.setdefault(number, self.line)
            accent = self.layout.raw["colours"]["accent"]
            return f'<super><a href="#fn{number}" color="{accent}">{number}</a></super>'
        if t == "footnote_anchor":
            return ""  # the way back from a footnote to its reference: the number says it
        return self._run(node.children)

    def _tag(self, raw: str, line: int | None) -> str:
        """An HTML tag's markup: understood, or printed as written (told once per block, `_report_html`)."""
        markup = self.runs.tag(raw)
        if markup is not None:
            return markup
        self.unknown.setdefault(rawhtml.tag_name(raw), line)
        return escape(self._printable(raw, line))

    def _report_html(self) -> None:
        """One warning for the HTML tags of a block that were printed as written."""
        if not self.unknown:
            return
        names = " ".join(self.unknown)
        line = next(iter(self.unknown.values()))
        self.unknown.clear()
        hint = " (an image is written ![caption](file.svg))" if "<img>" in names.split() else ""
        self.warn(line, f"HTML {names} is not understood and is printed as written; expected Markdown or "
                        f"{rawhtml.UNDERSTOOD}{hint}")

    def _printable(self, text: str, line: int | None) -> str:
        """`text` without its control characters (told: they have no glyph and would break the line)."""
        if not _CONTROL.search(text):
            return text
        found = sorted(set(_CONTROL.findall(text)))
        if line is not None:
            line += text.count("\n", 0, _CONTROL.search(text).start())  # type: ignore[union-attr]
        self.warn(line, f"control character{'s' if len(found) > 1 else ''} "
                        f"{', '.join(f'U+{ord(c):04X}' for c in found)} not printed; expected printable text")
        return _CONTROL.sub("", text)


def _line(node) -> int | None:
    """The 1-based Markdown line a block node starts on."""
    return node.map[0] + 1 if node is not None and node.map else None


def _visible(markup: str) -> bool:
    """Whether paragraph markup prints anything (not only tags, spaces and line breaks)."""
    return bool(re.sub(r"<[^<>]*>", "", markup).strip())


def _unkept(flowables: list[Flowable]) -> list[Flowable]:
    """`flowables` with what is kept together (a figure and its caption) set loose: ReportLab's KeepTogether cannot
    be laid out in a table's cell (it measures itself as 16 million points high) nor split in a list (it breaks the
    frame from inside the list)."""
    return [part for f in flowables for part in (_unkept(rl.kept_together(f)) if isinstance(f, KeepTogether) else [f])]


def _indent(want: float, width: float) -> float:
    """`want` points of indentation, less when the width left would fall below MIN_TEXT (deeply nested)."""
    return max(0.0, min(want, width - MIN_TEXT))


class _Table(Table):
    """A table whose rows are split across pages when one is taller than a page (`page_height`); others move
    whole to the next page, as ReportLab's Table does."""

    def __init__(self, *args, page_height: float | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.page_height = page_height

    def wrap(self, aw, ah):
        size = super().wrap(aw, ah)
        tallest = max(rl.row_heights(self), default=0)
        if self.page_height is not None and self.page_height < tallest < 200 * self.page_height:
            self.splitInRow = 1  # (beyond 200 pages something is wrong: ReportLab's own error tells it)
        return size


def _plain(node) -> str:
    if node is None:
        return ""
    if node.type in ("text", "code_inline"):
        return node.content
    if node.type in ("softbreak", "hardbreak"):
        return " "
    return "".join(_plain(c) for c in node.children)


MIN_COLUMN = 14.0
"""Points of text a table column always keeps (about two letters): longer words are split to fit."""


def _column_widths(rows: list[list[str]], ncols: int, width: float, style: ParagraphStyle) -> list[float]:
    """Natural widths when they fit; otherwise share the width, never below a column's longest word."""
    pad = 8.5
    natural = [0.0] * ncols
    minimum = [0.0] * ncols
    for row in rows:
        font = fonts.BOLD  # cells may be bold: measure as if they were
        for i, text in enumerate(row):
            natural[i] = max(natural[i], stringWidth(text, font, style.fontSize) + pad)
            words = text.split(" ") or [""]  # (at U+0020 only: no line breaks at a no-break space)
            minimum[i] = max(minimum[i], max(stringWidth(w, font, style.fontSize) for w in words) + pad)
    if sum(natural) <= width:
        return natural
    floor = pad + MIN_COLUMN  # a column never narrower than its padding and a few letters: long words split
    if ncols * floor > width:
        raise ValueError(f"a table of {ncols} columns does not fit the page; expected at most "
                         f"{int(width // floor)} columns")
    if sum(minimum) > width:  # words too long for one line of their column: one longer than a fair share is split,
        minimum = [min(m, max(width / ncols, floor)) for m in minimum]  # it does not take the others' width
    minimum = [min(m, width - floor * (ncols - 1)) for m in minimum]
    spare = width - sum(minimum)
    if spare <= 0:
        share = [max(floor, width * m / sum(minimum)) for m in minimum]
        excess = sum(share) - width
        wide = sum(w - floor for w in share) or 1.0
        return [w - excess * (w - floor) / wide for w in share]
    # a column whose whole text fits its fair share of what is left is given it (a short answer is never wrapped to
    # leave a long one a few more points: "discard a card, draw / one"); the others share the rest beyond their
    # longest word, as much as each needs
    out = list(minimum)
    open_ = set(range(ncols))
    left = width
    while open_:
        fits = [i for i in sorted(open_) if natural[i] <= left / len(open_)]
        fits = [i for i in fits  # never at the cost of another column's longest word
                if left - natural[i] >= sum(minimum[j] for j in open_ if j != i)]
        if not fits:
            break
        i = fits[0]
        out[i] = natural[i]
        left -= natural[i]
        open_.discard(i)
    if open_:
        spare = left - sum(minimum[i] for i in open_)
        total = sum(natural[i] - minimum[i] for i in open_) or 1.0
        for i in open_:
            out[i] = minimum[i] + spare * (natural[i] - minimum[i]) / total
    return out
