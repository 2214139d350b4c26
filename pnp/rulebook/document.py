"""The rulebook PDF: title page, table of contents, the rules text, page furniture.

ReportLab platypus, invariant mode (byte-identical output for the same design), DejaVu
Sans everywhere (no non-embedded base-14 font). Faces and diagrams are compiled by pnp.render.svgpdf,
each defined once as a PDF form XObject and referenced wherever it appears: vector.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Callable, Mapping
from xml.sax.saxutils import escape

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    PageBreak,
    PageTemplate,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.tableofcontents import TableOfContents, drawPageNumbers

from pnp.cache import NO_CACHE, Cache
from pnp.layout.pdf import compile_face, define_form
from pnp.model import Design
from pnp.render import fonts, reportlab_internals as rl
from pnp.render.faces import ComponentFaces, face_path
from pnp.render.svgpdf import Compiled
from pnp.render.typography import date_text, typeset
from pnp.rulebook.layout import FONT_ALL, Layout, load_layout
from pnp.rulebook.markdown import Heading, Paragraph, size_points, to_flowables
from pnp.rulebook.text import Block, RulesText

PAGE_SIZES = {"a4": A4, "letter": LETTER, "a3": A4}  # an A3 design still gets an A4 rulebook


class SvgFlowable(Flowable):
    """A compiled SVG (pnp.render.svgpdf) at a given width (pt), shrunk to the available width;
    drawn as a shared form."""

    def __init__(self, drawing, key: str, width: float | None = None, height: float | None = None,
                 align: str = "CENTER", max_height: float | None = None):
        super().__init__()
        self.drawing, self.key = drawing, key
        dw, dh = drawing.width, drawing.height
        if height is not None and width is None:
            width = dw * height / dh
        self.want = width if width is not None else dw
        self.hAlign = align
        self.max_height = max_height  # a figure taller than the page is shrunk to fit it

    def wrap(self, aw, ah):
        w = min(self.want, aw)
        if self.max_height is not None and self.drawing.height * w / self.drawing.width > self.max_height:
            w = self.max_height * self.drawing.width / self.drawing.height
        self.scale = w / self.drawing.width
        self.width, self.height = w, self.drawing.height * self.scale
        return self.width, self.height

    def draw(self):
        canv = self.canv
        forms = canv.__dict__.setdefault("_pnp_forms", {})
        name = forms.get(self.key)
        if name is None:
            name = forms[self.key] = define_form(canv, f"rb{len(forms)}", self.drawing)
        canv.saveState()
        canv.scale(self.scale, self.scale)
        canv.doForm(name)
        canv.restoreState()


class _Drawings:
    """Each SVG text compiled once per rulebook run (shared by every language); with the build's cache, once per
    process (the print sheets compile the same faces)."""

    def __init__(self, svgs: dict[str, str], resources=None, cache: Cache | None = None,
                 compiled: Mapping[str, Compiled] | None = None):
        self.svgs = svgs
        self.resources = resources  # reads the art files faces show (pnp.render.art.ArtFiles)
        self.cache = cache if cache is not None else NO_CACHE
        self.compiled = compiled or {}  # face path -> the face compiled where it was painted (the build's)
        self.parsed: dict[str, object] = {}

    def get(self, key: str, svg: str | None = None):
        if key not in self.parsed:
            ready = self.compiled.get(key) if svg is None else None
            self.parsed[key] = compile_face(svg if svg is not None else self.svgs[key], cache=self.cache,
                                            resources=self.resources, ready=ready)
        return self.parsed[key]


class _Contents(TableOfContents):
    """ReportLab's table of contents, drawn alike (dot leaders and page numbers by ReportLab's drawPageNumbers), laid
    out in one pass: its entries are listed before the layout (`addEntries`, their page aside), so it has its final
    height from the start; an entry's page number, drawn after its text without moving it, is drawn when the canvas is
    saved (NumberedCanvas.later), once `pages` holds the page of every heading. ReportLab's multiBuild laid the whole
    rulebook out twice for them. The entries are Paragraphs made at the first wrap (pnp.rulebook.markdown's, which
    break their lines once)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.pages: dict[str, int] = {}  # a heading's key -> the page it is on
        self._data: list | None = None  # the table's rows, made at the first wrap (the entries are listed by then)

    def wrap(self, availWidth, availHeight):
        entries = rl.toc_entries(self) or [(0, "Placeholder for table of contents", 0, None)]
        pages = self.pages

        def drawTOCEntryEnd(canvas, kind, label):  # ReportLab's callback: where the entry's text ends
            level, _, listed, key = entries[int(label)]
            style = self.getLevelStyle(level)
            dot = " . " if self.dotsMinLevel >= 0 and level >= self.dotsMinLevel else ""
            at = rl.text_cursor(canvas)

            def fill(c):
                page = pages.get(key, listed)  # (the placeholder of no entry: its own page, 0)
                rl.set_text_cursor(c, at)
                try:
                    drawPageNumbers(c, style, [(self.formatter(page) if self.formatter else page, key)],
                                    availWidth, availHeight, dot)
                finally:
                    rl.clear_text_cursor(c)

            canvas.later(fill)

        self.canv.setNamedCB("drawTOCEntryEnd", drawTOCEntryEnd)
        if self._data is None:
            self._data = [row for i, (level, text, _, key) in enumerate(entries) for row in self._row(i, level, text, key)]
        table = Table(self._data, colWidths=(availWidth,), style=self.tableStyle)
        rl.set_toc_table(self, table)  # (what TableOfContents draws and splits)
        self.width, self.height = table.wrapOn(self.canv, availWidth, availHeight)
        return self.width, self.height

    def _row(self, i: int, level: int, text: str, key) -> list:
        style = self.getLevelStyle(level)
        if key:
            text = f'<a href="#{key}">{text}</a>'
        rows: list = [[Spacer(1, style.spaceBefore)]] if style.spaceBefore else []
        return rows + [[Paragraph(f'{text}<onDraw name="drawTOCEntryEnd" label="{i}"/>', style)]]


class _Doc(BaseDocTemplate):
    contents: _Contents
    _outline_level = -1  # the outline level of the last heading (ReportLab refuses a jump of more than one)

    def afterFlowable(self, flowable):
        if isinstance(flowable, Heading):
            self.canv.bookmarkPage(flowable.key)
            level = self._outline_level = min(flowable.toc_level - 1, self._outline_level + 1)
            self.canv.addOutlineEntry(flowable.plain, flowable.key, level=level, closed=False)
            self.contents.pages[flowable.key] = self.page


def _numbered_canvas(footer: Callable[[Canvas, int, int], None]):
    class NumberedCanvas(Canvas):
        """Keeps every page until the end, then draws "page N of M" on each, and what was left to draw `later`."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._pages: list[dict] = []
            self._marks: dict[int, list] = {}
            self._later: dict[int, list] = {}

        def later(self, fill: Callable[[Canvas], None]) -> None:
            """Keeps a place here in the page's drawing, where `fill(canvas)` draws once every page is laid out
            (when the canvas is saved), in the coordinates in force now: what it draws can depend on a later
            page (the page numbers of the contents). `fill` draws its own state (a text object, say)."""
            code = rl.page_code(self)
            self._later.setdefault(len(self._pages), []).append((code, len(code), rl.current_matrix(self), fill))
            code.append("")

        def showPage(self):
            self._pages.append(rl.page_state(self))
            rl.start_page(self)

        def bookmarkPage(self, key, **kw):
            # kept until the page is really written: a bookmark made now would point at page 1
            self._marks.setdefault(len(self._pages), []).append((key, kw))

        def save(self):
            total = len(self._pages)
            marks, later = self._marks, self._later
            # links are numbered by one counter (Annot.NUMBER<n>): every page's state has its own, and a link drawn
            # later on an early page (a contents entry's page number) takes the next number of all, not of its page
            annotations = rl.annotation_count(self)
            for n, state in enumerate(self._pages):
                rl.restore_page_state(self, state)
                rl.set_annotation_count(self, annotations)
                footer(self, rl.page_number(self), total)
                for key, kw in marks.get(n, []):
                    Canvas.bookmarkPage(self, key, **kw)
                for code, at, matrix, fill in later.get(n, []):
                    page_code, page_matrix = rl.page_code(self), rl.current_matrix(self)
                    rl.set_page_code(self, [])
                    rl.set_current_matrix(self, matrix)  # (relative link rectangles use the matrix)
                    try:
                        fill(self)
                        code[at] = "\n".join(rl.page_code(self))
                    finally:
                        rl.set_page_code(self, page_code)
                        rl.set_current_matrix(self, page_matrix)
                annotations = rl.annotation_count(self)
                super().showPage()
            super().save()

    return NumberedCanvas


def age_text(age: str, lang: str) -> str:
    """A minimum age as a box in `lang` prints it (pnp.words: rulebook.age_value): "8+" -> "8+", "8 ans et +";
    any other text as the design writes it."""
    m = re.fullmatch(r"\s*(\d+)\s*\+\s*", age or "")
    return load_layout().labels(lang)["age_value"].format(age=m.group(1)) if m else age


def _labels(layout: Layout, lang: str) -> dict[str, str]:
    """The book's own words in its language, typeset in it (pnp.render.typography)."""
    return {k: typeset(v, lang) for k, v in layout.labels(lang).items()}


def build_pdf(design: Design, lang: str, text: RulesText, components: list[ComponentFaces], drawings: _Drawings,
              paper: str) -> bytes:
    """The rulebook of one language; every text it prints is typeset in that language (pnp.render.typography):
    the rules text's runs (pnp.rulebook.markdown), captions, the title page (its date by date_text), the
    component list, the contents and the footers."""
    layout = load_layout()
    labels = _labels(layout, lang)
    pg = layout.page
    pagesize = PAGE_SIZES.get(paper, A4)
    meta = design.meta
    buf = io.BytesIO()
    doc = _Doc(buf, pagesize=pagesize, invariant=1, pageCompression=1, lang=lang,
               leftMargin=pg["margin_left"] * mm, rightMargin=pg["margin_right"] * mm,
               topMargin=pg["margin_top"] * mm, bottomMargin=pg["margin_bottom"] * mm,
               title=f"{meta.title_in(lang)} — {labels['rulebook']}", author=meta.author, creator="pnp",
               subject=f"{meta.title_in(lang)}: {labels['rulebook']} ({lang})", initialFontName=fonts.REGULAR,
               initialFontSize=10)
    doc.toc_levels = layout.raw.get("toc_levels", 2)
    frame = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, id="body",
                   leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    doc.addPageTemplates([PageTemplate(id="page", frames=[frame])])
    width = doc.width
    figure_most = doc.height - 3 - 2 * layout.styles["caption"].leading  # a figure and a caption line fit a page

    def image(src: str, alt: str, line: int | None, size=None) -> list[Flowable]:
        if src.startswith("pnp:"):
            return _block(text.blocks[int(src[4:])], design, lang, layout, components, drawings, width, figure_most)

        svg = text.images[src]  # read and checked by render_text (pnp.confine): no file is read here
        key = "file:" + hashlib.sha1(svg.encode("utf-8")).hexdigest()
        drawing = drawings.get(key, svg)
        want_w, want_h = size_points(size, width, doc.height) if size else (None, None)
        if want_w is not None and want_h is not None:  # both: the largest size inside both, proportions kept
            want_w, want_h = min(want_w, want_h * drawing.width / drawing.height), None
        return _figure(SvgFlowable(drawing, key, width=want_w, height=want_h, max_height=figure_most),
                       escape(typeset(alt, lang)), layout)

    story: list[Flowable] = _title_page(design, lang, layout, components, drawings, width)
    toc = _Contents(dotsMinLevel=0, tableStyle=TableStyle([
        FONT_ALL, ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("RIGHTPADDING", (0, 0), (-1, -1), 0)]))
    st = layout.styles
    toc.levelStyles = [ParagraphStyle("toc1", parent=st["toc1"]), ParagraphStyle("toc2", parent=st["toc2"])]
    story += [Paragraph(labels["contents"], st["toc_title"]), toc, Spacer(0, 6 * mm)]
    story += to_flowables(text.markdown, layout, width, image, text.tokens, warn=text.warn, height=doc.height,
                          env=text.env, lang=lang)
    # the contents listed from the start, page numbers aside: one pass lays the pages out with the contents at their
    # true height, their page numbers drawn once the pages are known (ReportLab's multiBuild laid them out twice)
    doc.contents = toc
    toc.addEntries([(f.toc_level - 1, escape(f.plain), 0, f.key) for f in story
                    if isinstance(f, Heading) and f.toc_level <= doc.toc_levels])

    title = typeset(meta.title_in(lang), lang)

    def footer(canv: Canvas, page: int, total: int) -> None:
        canv.saveState()
        w, _ = pagesize
        y = pg["footer_y"] * mm
        canv.setStrokeColor(layout.colour("accent"))
        canv.setLineWidth(0.5)
        canv.line(doc.leftMargin, y + 10, w - doc.rightMargin, y + 10)
        size = layout.raw["styles"]["footer"]["size"]
        canv.setFillColor(layout.colour("muted"))
        canv.setFont(fonts.BOLD, size)
        canv.drawString(doc.leftMargin, y, title)
        tw = canv.stringWidth(title, fonts.BOLD, size)
        canv.setFont(fonts.REGULAR, size)
        canv.drawString(doc.leftMargin + tw, y, f" · {labels['rulebook']} · v{meta.version}")  # (a space each side)
        canv.drawRightString(w - doc.rightMargin, y, labels["page"].format(page=page, pages=total))
        canv.restoreState()

    doc.build(story, canvasmaker=_numbered_canvas(footer))
    return buf.getvalue()


def _figure(flow: Flowable, caption: str, layout: Layout) -> list[Flowable]:
    parts: list[Flowable] = [Spacer(0, 3), flow]
    if caption:
        parts.append(Paragraph(caption, ParagraphStyle("cap", parent=layout.styles["caption"], alignment=1)))
    else:
        parts.append(Spacer(0, 8))
    return [KeepTogether(parts)]


def _block(block: Block, design: Design, lang: str, layout: Layout, components: list[ComponentFaces],
           drawings: _Drawings, width: float, figure_most: float | None = None) -> list[Flowable]:
    if block.kind == "diagram":
        key = "diagram:" + hashlib.sha1(block.svg.encode("utf-8")).hexdigest()
        drawing = drawings.get(key, block.svg)
        want = block.width * mm if block.width else None
        return _figure(SvgFlowable(drawing, key, width=want, max_height=figure_most),
                       escape(typeset(block.caption, lang)), layout)
    if block.kind == "components":
        return [_component_table(design, lang, layout, components, drawings, width)]
    if block.kind == "faces":
        cf = next(c for c in components if c.component_id == block.component)
        cols = max(1, block.columns)
        gap = 2 * mm
        cell = (width - gap * (cols - 1)) / cols
        cells = [SvgFlowable(drawings.get(face_path(cf.component_id, f)), face_path(cf.component_id, f),
                             width=cell) for f in cf.fronts]
        rows = [cells[i:i + cols] for i in range(0, len(cells), cols)]
        rows[-1] += [""] * (cols - len(rows[-1]))  # type: ignore[list-item]
        t = Table(rows, colWidths=[cell + gap] * cols, hAlign="CENTER")
        t.setStyle(TableStyle([FONT_ALL, ("LEFTPADDING", (0, 0), (-1, -1), gap / 2),
                               ("RIGHTPADDING", (0, 0), (-1, -1), gap / 2),
                               ("TOPPADDING", (0, 0), (-1, -1), gap / 2), ("BOTTOMPADDING", (0, 0), (-1, -1), gap / 2),
                               ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))
        out: list[Flowable] = [t]
        if block.caption:
            out.append(Paragraph(escape(typeset(block.caption, lang)),
                                 ParagraphStyle("cap", parent=layout.styles["caption"], alignment=1)))
        return out
    raise ValueError(block.kind)  # pragma: no cover


def _thumbs(cf: ComponentFaces, drawings: _Drawings, height: float, max_faces: int, width: float) -> list:
    faces = cf.fronts[:max_faces]
    shown = faces + cf.backs[:max_faces]
    ds = [(drawings.get(face_path(cf.component_id, f)), face_path(cf.component_id, f)) for f in shown]
    gap = 1.5 * mm
    natural = sum(d.width * height / d.height for d, _ in ds) + gap * (len(ds) - 1)
    scale = min(1.0, (width - 4) / natural) if natural else 1.0
    cells = [SvgFlowable(d, k, height=height * scale) for d, k in ds]
    t = Table([cells], hAlign="LEFT", colWidths=[c.want + gap for c in cells])
    t.setStyle(TableStyle([FONT_ALL, ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), gap),
                           ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                           ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))
    return [t]


def _component_table(design: Design, lang: str, layout: Layout, components: list[ComponentFaces],
                     drawings: _Drawings, width: float) -> Table:
    labels = _labels(layout, lang)
    st = layout.styles
    cfg = layout.raw["components"]
    head = ParagraphStyle("th", parent=st["table"], fontName=fonts.BOLD)
    name_w, count_w = 42 * mm, 38 * mm
    thumb_w = width - name_w - count_w
    rows: list[list] = [[Paragraph(labels["preview"], head), Paragraph(labels["component"], head),
                         Paragraph(labels["count"], head)]]
    for cf in components:
        counts = {f.count for f in cf.fronts}
        n = len(cf.fronts)
        if n == 1:
            copies = str(cf.copies)
        elif counts == {1}:
            copies = typeset(layout.labels(lang)["copies_distinct"].format(copies=cf.copies), lang)
        elif len(counts) == 1:
            copies = typeset(layout.labels(lang)["copies_faces"].format(copies=cf.copies, faces=n, count=counts.pop()),
                             lang)
        else:
            copies = str(cf.copies)
        name = escape(typeset(cf.component.display_name(lang) or cf.component_id, lang))
        hidden = n - cfg["max_faces"]  # faces the preview leaves out: "(et 1 autre)", "(et 3 autres)"
        # on a line of its own under the name, never split as "Placement cards (and / 36 more)"
        extra = ("<br/>" + escape(typeset(layout.labels(lang)["more_face" if hidden == 1 else "more_faces"]
                                          .format(n=hidden), lang)) if hidden > 0 else "")
        rows.append([_thumbs(cf, drawings, cfg["thumb_height"] * mm, cfg["max_faces"], thumb_w - 8),
                     Paragraph(f"<b>{name}</b>{extra}", st["table"]), Paragraph(escape(copies), st["table"])])
    t = Table(rows, colWidths=[thumb_w, name_w, count_w], repeatRows=1, hAlign="LEFT")
    t.setStyle(TableStyle([FONT_ALL,
        ("BACKGROUND", (0, 0), (-1, 0), layout.colour("accent_light")),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, layout.colour("accent")),
        ("LINEBELOW", (0, 1), (-1, -1), 0.3, layout.colour("muted")),
        ("VALIGN", (0, 1), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 4), ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
        ("LEFTPADDING", (0, 0), (-1, -1), 4), ("RIGHTPADDING", (0, 0), (-1, -1), 4),
    ]))
    t.spaceBefore, t.spaceAfter = 4, 10
    return t


def _title_page(design: Design, lang: str, layout: Layout, components: list[ComponentFaces], drawings: _Drawings,
                width: float) -> list[Flowable]:
    st = layout.styles
    labels = _labels(layout, lang)
    meta = design.meta
    center = {"alignment": 1}
    out: list[Flowable] = [Spacer(0, 30 * mm),
                           Paragraph(escape(typeset(meta.title_in(lang), lang)),
                                     ParagraphStyle("t", parent=st["title"], **center)),
                           Spacer(0, 4 * mm),
                           Paragraph(escape(labels["rulebook"]), ParagraphStyle("s", parent=st["subtitle"], **center)),
                           Spacer(0, 14 * mm)]
    # cover: one face of each component, side by side
    h = layout.raw["title_page"]["cover_height"] * mm
    shown = [(cf.component_id, next((f for f in cf.fronts if f.data.get("lang") == lang), cf.fronts[0]))
             for cf in components if cf.fronts]  # a face per language (data lang): the rulebook's own
    ds = [(drawings.get(face_path(cid, f)), face_path(cid, f)) for cid, f in shown]
    gap = 6 * mm
    if ds:  # at their true relative sizes: the board large, a card and a piece beside it
        scale = min((width - gap * len(ds)) / sum(d.width for d, _ in ds), h / max(d.height for d, _ in ds))
        cells = [SvgFlowable(d, k, width=d.width * scale) for d, k in ds]
        t = Table([cells], colWidths=[c.want + gap for c in cells], hAlign="CENTER")
        t.setStyle(TableStyle([FONT_ALL, ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                               ("LEFTPADDING", (0, 0), (-1, -1), gap / 2),
                               ("RIGHTPADDING", (0, 0), (-1, -1), gap / 2)]))
        out += [t, Spacer(0, 14 * mm)]
    values = {"author": meta.author, "players": str(meta.players), "play_time": meta.play_time,
              "age": age_text(meta.age, lang), "version": meta.version}
    if meta.author and meta.year:
        values["author"] = f"{meta.author} ({meta.year})"
    values = {k: typeset(str(v), lang) if v else v for k, v in values.items()}
    values["date"] = date_text(meta.date, lang) if meta.date else meta.date
    rows = [[Paragraph(escape(labels[k]), ParagraphStyle("fl", parent=st["facts"], fontName=fonts.BOLD,
                                                         alignment=2)),
             Paragraph(escape(values[k]), st["facts"])]
            for k in layout.raw["title_page"]["facts"] if values.get(k)]
    if rows:
        t = Table(rows, colWidths=[width / 2 - 4 * mm, width / 2 - 4 * mm], hAlign="CENTER")
        t.setStyle(TableStyle([FONT_ALL, ("LEFTPADDING", (0, 0), (-1, -1), 4 * mm),
                               ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                               ("LINEBEFORE", (1, 0), (1, -1), 0.8, layout.colour("accent"))]))
        out.append(t)
    out.append(PageBreak())
    return out

