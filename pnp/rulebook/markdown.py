"""Markdown -> ReportLab platypus flowables (markdown-it-py, CommonMark + tables).

Supported: headings `#`..`###`, paragraphs, **bold**, *italic*, `code`, links, bullet
and numbered lists (nested), tables (with column alignment), block quotes (drawn as a
note box), horizontal rules and images. An image alone on its line becomes a block
(diagram, component list, SVG file) resolved by the caller's `image` function.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from xml.sax.saxutils import escape

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
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

from pnp.render import fonts
from pnp.rulebook.layout import FONT_ALL, Layout


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

_SIZE_BLOCK = re.compile(r"^\{([^{}\n]*)\}")
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
    from pnp.limits import limit

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
    """A heading: listed in the table of contents and the PDF outline."""

    def __init__(self, text: str, style: ParagraphStyle, level: int, plain: str, key: str):
        super().__init__(text, style)
        self.toc_level, self.plain, self.key = level, plain, key


def parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"typographer": False}).enable(["table", "strikethrough"])


def to_flowables(markdown: str, layout: Layout, width: float, image: ImageFn,
                 tokens: list | None = None) -> list[Flowable]:
    """The flowables of `markdown`; `tokens`: the same Markdown already parsed (`parser().parse`)."""
    if tokens is None:
        tokens = parser().parse(markdown)
    conv = _Converter(layout, width, image)
    return conv.blocks(SyntaxTreeNode(tokens).children, width)


class _Converter:
    def __init__(self, layout: Layout, width: float, image: ImageFn):
        self.layout, self.width, self.image = layout, width, image
        self.st = layout.styles
        self.headings = 0

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
            text = self.inline(node.children[0]) if node.children else ""
            plain = _plain(node.children[0]) if node.children else ""
            self.headings += 1
            st = self.st[f"h{min(level, 3)}"]
            return [Heading(text, st, level, plain, f"h{self.headings}")]
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
            lines = escape(node.content.rstrip("\n")).replace("\n", "<br/>").replace(" ", "&nbsp;")
            return [Paragraph(lines, ParagraphStyle("code", parent=style, backColor=self.layout.colour("accent_light"),
                                                   borderPadding=4, spaceBefore=4, spaceAfter=8))]
        if t in ("html_block",):
            return []  # comments and the like: not printed
        return self.blocks(node.children, width, style)

    def paragraph(self, inline, style: ParagraphStyle, width: float) -> list[Flowable]:
        """Text runs become Paragraphs; images standing together (only spaces or line breaks
        between them) are laid out side by side in one row."""
        if inline is None:
            return []
        out: list[Flowable] = []
        parts: list[str] = []
        images: list = []
        line = inline.map[0] + 1 if inline.map else None
        last_was_image = False

        def flush_text() -> None:
            text = "".join(parts).strip()
            while text.startswith("<br/>") or text.endswith("<br/>"):
                text = text.removeprefix("<br/>").removesuffix("<br/>").strip()
            if text:
                out.append(Paragraph(text, style))
            parts.clear()

        def flush_images() -> None:
            if len(images) == 1:
                out.extend(self.image(images[0].attrs.get("src", ""), _plain(images[0]), line,
                                      images[0].meta.get("size")))
            elif images:
                gap = 4
                cell = (width - gap * (len(images) - 1)) / len(images)
                row = [[part for f in self.image(img.attrs.get("src", ""), _plain(img), line, img.meta.get("size"))
                        for part in (f._content if isinstance(f, KeepTogether) else [f])] for img in images]
                t = Table([row], colWidths=[cell + gap] * len(images), hAlign="CENTER")
                t.setStyle(TableStyle([FONT_ALL, ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                                       ("LEFTPADDING", (0, 0), (-1, -1), gap / 2),
                                       ("RIGHTPADDING", (0, 0), (-1, -1), gap / 2),
                                       ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]))
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
                if "".join(parts).replace("<br/>", "").strip():
                    flush_text()
                parts.clear()
                images.append(child)
            elif child.type in ("softbreak", "hardbreak") or (child.type == "text" and not child.content.strip()):
                parts.append(self._inline_node(child))
            else:
                flush_images()
                parts.append(self._inline_node(child))
        flush_images()
        flush_text()
        return out

    def list(self, node, width: float) -> ListFlowable:
        ordered = node.type == "ordered_list"
        items = []
        indent = 14 if not ordered else 16
        st = self.st["list"]
        for item in node.children:
            flow = []
            for child in item.children:
                if child.type == "paragraph":
                    flow.extend(self.paragraph(child.children[0] if child.children else None, st, width - indent))
                else:
                    flow.extend(self.block(child, width - indent, st))
            items.append(ListItem(flow or [Spacer(0, 0)]))
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
                    row.append(Paragraph(self.inline(inline) if inline else "", style))
                    plain.append(_plain(inline) if inline else "")
                rows.append(row)
                plain_rows.append(plain)
        ncols = max(len(r) for r in rows)
        for r in rows:
            r.extend([""] * (ncols - len(r)))
        try:
            widths = _column_widths(plain_rows, ncols, width, st)
        except ValueError as exc:
            raise MarkdownError(str(exc), node.map[0] + 1 if node.map else None) from None
        t = Table(rows, colWidths=widths, repeatRows=1, hAlign="LEFT")
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
        inner = self.blocks(node.children, width - 20, self.st["note"])
        t = Table([[inner]], colWidths=[width - 6], hAlign="LEFT")
        t.setStyle(TableStyle([FONT_ALL,
            ("BACKGROUND", (0, 0), (-1, -1), self.layout.colour("accent_light")),
            ("LINEBEFORE", (0, 0), (0, -1), 2.5, self.layout.colour("accent")),
            ("LEFTPADDING", (0, 0), (-1, -1), 9), ("RIGHTPADDING", (0, 0), (-1, -1), 8),
            ("TOPPADDING", (0, 0), (-1, -1), 5), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ]))
        t.spaceBefore, t.spaceAfter = 3, 9
        return t

    # --- inline ------------------------------------------------------------------------
    def inline(self, node) -> str:
        return "".join(self._inline_node(c) for c in node.children).strip() if node else ""

    def _inline_node(self, node) -> str:
        t = node.type
        if t == "text":
            return escape(node.content)
        if t == "strong":
            return "<b>" + "".join(self._inline_node(c) for c in node.children) + "</b>"
        if t == "em":
            return "<i>" + "".join(self._inline_node(c) for c in node.children) + "</i>"
        if t == "s":
            return "<strike>" + "".join(self._inline_node(c) for c in node.children) + "</strike>"
        if t == "code_inline":
            return f'<font color="{self.layout.raw["colours"]["accent"]}">{escape(node.content)}</font>'
        if t == "softbreak":
            return " "
        if t == "hardbreak":
            return "<br/>"
        if t == "link":
            inner = "".join(self._inline_node(c) for c in node.children)
            href = escape(node.attrs.get("href", ""), {'"': "&quot;"})
            return f'<a href="{href}" color="{self.layout.raw["colours"]["accent"]}"><u>{inner}</u></a>'
        if t == "image":
            return ""
        if t == "html_inline":
            return ""
        return "".join(self._inline_node(c) for c in node.children)


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
    from reportlab.pdfbase.pdfmetrics import stringWidth

    pad = 8.5
    natural = [0.0] * ncols
    minimum = [0.0] * ncols
    for row in rows:
        font = fonts.BOLD  # cells may be bold: measure as if they were
        for i, text in enumerate(row):
            natural[i] = max(natural[i], stringWidth(text, font, style.fontSize) + pad)
            words = text.split() or [""]
            minimum[i] = max(minimum[i], max(stringWidth(w, font, style.fontSize) for w in words) + pad)
    if sum(natural) <= width:
        return natural
    floor = pad + MIN_COLUMN  # a column never narrower than its padding and a few letters: long words split
    if ncols * floor > width:
        raise ValueError(f"a table of {ncols} columns does not fit the page; expected at most "
                         f"{int(width // floor)} columns")
    minimum = [min(m, width - floor * (ncols - 1)) for m in minimum]
    spare = width - sum(minimum)
    if spare <= 0:
        share = [max(floor, width * m / sum(minimum)) for m in minimum]
        excess = sum(share) - width
        wide = sum(w - floor for w in share) or 1.0
        return [w - excess * (w - floor) / wide for w in share]
    extra = [n - m for n, m in zip(natural, minimum)]
    total = sum(extra) or 1.0
    return [m + spare * e / total for m, e in zip(minimum, extra)]
