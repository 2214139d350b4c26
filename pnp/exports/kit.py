"""The print-and-play kit: the one PDF a designer shares with testers.

    pdf = kit_pdf(KitParts(...))

One PDF per language and paper: a cover (title, credits, a face of each component, contents),
a page telling how to print and cut, the rulebook, then every component sheet, bookmarked per
section (the rulebook's own headings nested under "Rules"). The cover and how-to pages are
drawn here with ReportLab (invariant mode, our fonts), in the words of the kit's language (pnp.words: kit), each
text typeset in it (pnp.render.typography); the rulebook and sheets are the PDFs the
build already made, appended page for page by pypdf (vector, page sizes kept). pypdf writes no
document id, so the same parts give the same bytes.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field

from pnp.render.typography import typeset
from pnp.units import mm_to_pt as pt
from pnp.words import table

PAGE_SIZES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0)}
KINDS = ("card", "tile", "piece", "token", "board", "aid")
"""Components' kinds (pnp.model.Component.kind), in the order the how-to page names them."""
STOCK = ("card", "tile", "piece", "token", "aid")
"""The kinds printed on card stock (a board may be plain paper, taped or glued onto card)."""


@dataclass(frozen=True)
class KitFacts:
    """What the how-to page may say of a design, read from its sheets (kit_facts): nothing here, nothing said."""

    kinds: tuple[str, ...] = ()
    """The components' kinds on the sheets (KINDS' order)."""
    bleed: tuple[str, ...] = ()
    """The kinds printed with a bleed (art beyond the trim)."""
    shared: tuple[str, ...] = ()
    """The kinds whose faces touch on a sheet, sharing full cut lines (no bleed between them)."""
    shapes: tuple[tuple[str, str], ...] = ()
    """(kind, shape) of every component that is not a rectangle: triangle, hexagon, circle or outline."""
    single: tuple[str, ...] = ()
    """The kinds the sheets hold one copy of (a board split over pages counts once)."""
    crop: bool = False
    """Some sheet has crop marks."""
    lines: bool = False
    """Some sheet has full cut lines (or curved cut paths)."""


def kit_facts(sheets: list, components: dict[str, tuple[str, object]]) -> KitFacts:
    """The facts of the sheets (pnp.layout.sheets.Sheet: placed faces, marks, cuts) and the components they hold
    (component id -> its kind and shape, as pnp.model.Component says them: "rect", "circle"..., a {polygon} or
    {path} outline)."""
    def order(kinds: set[str]) -> tuple[str, ...]:
        return tuple(k for k in KINDS if k in kinds) + tuple(sorted(kinds - set(KINDS)))

    kinds: set[str] = set()
    bleed: set[str] = set()
    shared: set[str] = set()
    shapes: set[tuple[str, str]] = set()
    copies: dict[str, set] = {}  # kind -> its copies (a split board's parts: one)
    for n, sheet in enumerate(sheets):
        for pl in sheet.placed:
            if pl.scale != 1.0:  # (a split board's overview: not for cutting)
                continue
            if pl.component in components:
                kind, shape = components[pl.component]
            elif sheet.side == "board":  # (a board's sheet names it by its label)
                kind, shape = "board", "rect"
            else:
                continue
            kinds.add(kind)
            copies.setdefault(kind, set()).add(("part", pl.component, pl.face) if pl.clip and sheet.side == "board"
                                               else (n, id(pl)))
            if pl.bleed > 0:
                bleed.add(kind)
            elif sheet.cuts and len(sheet.placed) > 1 and kind != "board":
                shared.add(kind)
            if shape != "rect":
                shapes.add((kind, shape if isinstance(shape, str) else "outline"))
    return KitFacts(kinds=order(kinds), bleed=order(bleed), shared=order(shared),
                    single=order({k for k, c in copies.items() if len(c) == 1}),
                    shapes=tuple(sorted(shapes, key=lambda ks: (order({ks[0]}), ks[1]))),
                    crop=any(s.marks and not (s.side == "board" and any(pl.clip for pl in s.placed))
                             for s in sheets),  # (a split board's part: its marks are for aligning the parts)
                    lines=any(s.cuts or s.cut_paths for s in sheets))


@dataclass
class KitParts:
    """Everything a kit is made of: plain data and the PDFs the build made."""

    title: str
    lang: str
    paper: str
    sheets_pdf: bytes
    sheet_titles: list[str]
    """Each sheet page's title, in order (their sections become bookmarks)."""
    rules_pdf: bytes | None = None
    rules_paper: str = "a4"
    author: str = ""
    players: str = ""
    version: str = ""
    duplex: str = "long"
    marks: str = "crop"
    thumbs: list = field(default_factory=list)
    """Compiled faces (pnp.render.svgpdf) for the cover: one of each component."""
    ink_saver: bool = False
    names: dict[str, str] = field(default_factory=dict)
    """A section's name in the sheets' titles -> its name in the kit's language."""
    sheet_sections: list[str] = field(default_factory=list)
    """Each sheet page's component (pnp.layout.sheets.Sheet.section, in the kit's language): the contents' and
    bookmarks' sections; without them, read from the titles (what comes before ":" or " (")."""
    sheet_sides: list[str] = field(default_factory=list)
    """Each sheet page's side (pnp.layout.sheets.Sheet.side): a "front" followed by its "back" is a pair
    that must share a leaf when the kit is printed double-sided."""
    facts: KitFacts = field(default_factory=KitFacts)
    """What the how-to page says of the components (kit_facts): bleed, sleeves, shapes only where they are true."""


def leaf_plan(first: int, sides: list[str], duplex: str) -> list[int | None]:
    """Where the sheets go in the kit: the sheet index of each page from the kit's page `first` (0-based)
    on, None for a blank page. With duplex long or short, each front sheet followed by its back sheet
    starts on an even page (a leaf's front, counting from 0) and its back is the next page (that leaf's
    back): a blank page goes before a front that would start on an odd page. Other sheets (boards,
    pieces, gutter-fold, backs to glue with duplex none) are single pages and go where they fall."""
    out: list[int | None] = []
    for i, side in enumerate(sides):
        paired = (duplex in ("long", "short") and side == "front" and i + 1 < len(sides)
                  and sides[i + 1] == "back")
        if paired and (first + len(out)) % 2:
            out.append(None)
        out.append(i)
    return out


def sections(titles: list[str], names: dict[str, str] | None = None,
             given: list[str] | None = None) -> list[tuple[str, int, int]]:
    """(section, first page index, last page index) of consecutive sheets of one component; `names`
    translates the sections' names; `given`: each sheet's section (else read from its title)."""
    out: list[list] = []
    names = names or {}
    known = sorted(names, key=len, reverse=True)  # the longest first: "cards: Fire" (a group_by deck) before "cards"
    for i, title in enumerate(titles):
        name: str | None = given[i] if given and i < len(given) and given[i] else None
        if name is None:  # a sheet of several components' pieces: "A (56), B (1)" -> "A, B"
            pieces = _PIECES.findall(title)
            if len(pieces) > 1 and ", ".join(f"{p} ({c})" for p, c in pieces) == title:
                name = ", ".join(names.get(short, short) for short in (p.split(" (")[0].strip() for p, _ in pieces))
        if name is None:
            name = next((k for k in known if title == k or title.startswith(tuple(k + end for end in _ENDS))), None)
        if name is None:
            name = title.split(":")[0].split(" (")[0].strip() or title
        name = names.get(name, name)
        if out and out[-1][0] == name:
            out[-1][2] = i
        else:
            out.append([name, i, i])
    return [tuple(s) for s in out]


_PIECES = re.compile(r"(.+?) \((\d+)\)(?:, |$)")
"""A sheet of pieces' title: each component's name and count (pnp.words: sheets.pieces)."""

_ENDS = (":", " :", "\u00a0:", " (")
"""What follows a section's name in a sheet's title (English, French, typeset French)."""


def texts(lang: str) -> dict:
    """The kit's words in `lang` (pnp.words), plain: each is typeset where it is drawn, its values filled in."""
    return dict(table(lang)["kit"])


def kit_pdf(parts: KitParts) -> bytes:
    """The kit as PDF bytes (see the module's text)."""
    from pypdf import PdfReader, PdfWriter  # lazy: 151 ms (pypdf)

    t = texts(parts.lang)
    rules = PdfReader(io.BytesIO(parts.rules_pdf)) if parts.rules_pdf else None
    sheets = PdfReader(io.BytesIO(parts.sheets_pdf))
    n_rules = len(rules.pages) if rules else 0
    sides = parts.sheet_sides or ["front"] * len(sheets.pages)
    plan = leaf_plan(2 + n_rules, sides[:len(sheets.pages)], parts.duplex)
    at = {sheet: 2 + n_rules + k for k, sheet in enumerate(plan) if sheet is not None}  # sheet -> kit page
    blank_sizes = []
    for k, sheet in enumerate(plan):
        if sheet is None:  # the back of the page before it: that page's size
            before = plan[k - 1] if k else None
            prev = sheets.pages[before] if before is not None else (rules.pages[-1] if rules else None)
            blank_sizes.append((float(prev.mediabox.width), float(prev.mediabox.height)) if prev is not None
                               else (pt(PAGE_SIZES["a4"][0]), pt(PAGE_SIZES["a4"][1])))
    front = _front_matter(parts, t, n_rules, len(plan), at, bool(blank_sizes))
    writer = PdfWriter()
    writer.append(PdfReader(io.BytesIO(front)), import_outline=False)
    writer.add_outline_item(title=typeset(t["cover"], parts.lang), page_number=0)
    writer.add_outline_item(title=typeset(t["howto"], parts.lang), page_number=1)
    if rules:
        start = len(writer.pages)
        writer.append(rules, import_outline=False)
        top = writer.add_outline_item(title=typeset(f"{t['rules']} ({parts.lang.upper()})", parts.lang),
                                      page_number=start)
        _copy_outline(writer, rules, rules.outline, top, start)
    if blank_sizes:
        blanks = PdfReader(io.BytesIO(_blank_pages(blank_sizes, typeset(t["blank"], parts.lang))))
        run: list[int] = []
        n_blank = 0
        for sheet in plan + [None]:
            if sheet is not None:
                run.append(sheet)
                continue
            if run:
                writer.append(sheets, pages=run, import_outline=False)
                run = []
            if n_blank < len(blank_sizes):
                writer.append(blanks, pages=[n_blank], import_outline=False)
                n_blank += 1
    else:
        writer.append(sheets, import_outline=False)
    parent = writer.add_outline_item(title=typeset(t["sheets"], parts.lang), page_number=at.get(0, 2 + n_rules))
    for name, first, _ in _sections(parts):
        writer.add_outline_item(title=name, page_number=at[first], parent=parent)
    writer.add_metadata({"/Title": typeset(f"{parts.title}: {t['kit']}" + (f" ({t['ink_title']})" if parts.ink_saver
                                                                            else ""), parts.lang),
                         "/Author": parts.author, "/Creator": "pnp", "/Producer": "pnp (ReportLab, pypdf)"})
    writer.page_mode = "/UseOutlines"
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def _sections(parts: KitParts) -> list[tuple[str, int, int]]:
    """The kit's sections, their names typeset in its language."""
    return [(typeset(name, parts.lang), a, b)
            for name, a, b in sections(parts.sheet_titles, parts.names, parts.sheet_sections)]


def _copy_outline(writer, reader, items, parent, offset: int) -> None:
    """The rulebook's own bookmarks under `parent`, their pages moved by `offset` (pypdf's own import,
    when nested under an item, points them all at the first page)."""
    last = None
    for item in items:
        if isinstance(item, list):
            if last is not None:
                _copy_outline(writer, reader, item, last, offset)
            continue
        page = reader.get_destination_page_number(item)
        last = writer.add_outline_item(title=str(item.title), page_number=offset + page, parent=parent)


def _blank_pages(sizes: list[tuple[float, float]], note: str) -> bytes:
    """One page per size (points), each with a small grey note at its foot, so a printer set to skip
    blank pages does not skip it (which would move every later back onto the wrong leaf)."""
    from reportlab.lib.colors import Color  # lazy: 51 ms (reportlab.lib.colors)
    from reportlab.pdfgen.canvas import Canvas  # lazy: 64 ms (reportlab.pdfgen.canvas)

    from pnp.render import fonts  # lazy: 29 ms (pnp.render)

    fonts.register()
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=sizes[0], invariant=1, pageCompression=1, initialFontName=fonts.REGULAR)
    c.setCreator("pnp")
    for w, h in sizes:
        c.setPageSize((w, h))
        c.setFont(fonts.ITALIC, 8)
        c.setFillColor(Color(0.5, 0.5, 0.5))
        c.drawCentredString(w / 2, h / 2, note)
        c.showPage()
    c.save()
    return buf.getvalue()


def _front_matter(parts: KitParts, t: dict, n_rules: int, n_sheets: int, at: dict[int, int] | None = None,
                  blanks: bool = False) -> bytes:
    """The cover and the how-to page (ReportLab, invariant). `n_sheets` counts the kit's pages from the
    first sheet to the last (blank pages included); `at` is each sheet's kit page (0-based)."""
    from reportlab.lib.colors import Color  # lazy: 67 ms (reportlab.lib.colors)
    from reportlab.pdfbase.pdfmetrics import stringWidth  # lazy: 54 ms (reportlab.pdfbase.pdfmetrics)
    from reportlab.pdfgen.canvas import Canvas  # lazy: 62 ms (reportlab.pdfgen.canvas)

    from pnp.render import fonts  # lazy: 22 ms (pnp.render)
    from pnp.render.svgpdf import form  # lazy: 174 ms (pnp.render.svgpdf)

    fonts.register()
    w_mm, h_mm = PAGE_SIZES.get(parts.rules_paper, PAGE_SIZES["a4"])
    W, H = pt(w_mm), pt(h_mm)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(W, H), invariant=1, pageCompression=1, initialFontName=fonts.REGULAR)
    c.setTitle(f"{parts.title}: {t['kit']}")
    c.setCreator("pnp")

    def T(text: str) -> str:  # every text as the kit's language prints it
        return typeset(text, parts.lang)

    grey = Color(0.35, 0.35, 0.35)
    margin = pt(20)
    rules_first, sheets_first = 3, 3 + n_rules
    at = at or {}

    def span(a: int, n: int) -> str:
        return t["page"].format(a=a) if n == 1 else t["pages_two" if n == 2 else "pages"].format(a=a, b=a + n - 1)

    def sheet_span(first: int, last: int) -> str:  # a section's pages, by its sheets' places in the kit
        a, b = at.get(first, sheets_first - 1 + first) + 1, at.get(last, sheets_first - 1 + last) + 1
        return span(a, b - a + 1)

    # cover
    y = H - pt(45)
    c.setFont(fonts.BOLD, 30)
    c.drawCentredString(W / 2, y, T(parts.title))
    y -= pt(12)
    c.setFont(fonts.REGULAR, 14)
    c.setFillColor(grey)
    c.drawCentredString(W / 2, y, T(t["kit"]))
    y -= pt(9)
    credits = [x for x in (t["by"].format(who=parts.author) if parts.author else "",
                           t["players"].format(n=parts.players) if parts.players else "",
                           t["version"].format(v=parts.version) if parts.version else "") if x]
    c.setFont(fonts.REGULAR, 11)
    c.drawCentredString(W / 2, y, T(" · ".join(credits)))
    if parts.ink_saver:
        y -= pt(7)
        c.setFont(fonts.ITALIC, 10)
        c.drawCentredString(W / 2, y, T(t["ink"]))
    c.setFillColor(Color(0, 0, 0))
    # one face of each component, side by side, at one scale (their true sizes relative to each other)
    thumbs = parts.thumbs[:6]
    if thumbs:
        box_h = pt(45)
        gap = pt(6)
        width = sum(f.width for f in thumbs) + gap * (len(thumbs) - 1)
        s = min(1.0, box_h / max(f.height for f in thumbs), (W - 2 * margin) / max(width, 1e-9))
        x = (W - sum(f.width for f in thumbs) * s - gap * (len(thumbs) - 1)) / 2
        top = y - pt(20)
        for i, f in enumerate(thumbs):
            name = form(c, f, f"kitface{i}")
            c.saveState()
            c.translate(x, top - f.height * s)
            c.scale(s, s)
            c.doForm(name)
            c.restoreState()
            x += f.width * s + gap
        y = top - box_h - pt(15)
    else:
        y -= pt(25)
    c.setFont(fonts.BOLD, 14)
    c.drawString(margin, y, T(t["contents"]))
    y -= pt(8)
    c.setFont(fonts.REGULAR, 11)
    entries = [(t["howto"], span(2, 1))]
    if n_rules:
        entries.append((f"{t['rules']} ({parts.lang.upper()})", span(rules_first, n_rules)))
    first_sheet = at.get(0, sheets_first - 1) + 1  # (after a blank page, if the rules end on a leaf's front)
    entries.append((t["sheets"], span(first_sheet, sheets_first + n_sheets - first_sheet)))
    for name, first, last in _sections(parts):
        entries.append(("    " + name, sheet_span(first, last)))
    for name, where in entries:
        c.drawString(margin, y, T(name))
        c.drawRightString(W - margin, y, T(where))
        y -= pt(6)
    _footer(c, W, parts, t, 1)
    c.showPage()
    # how to print and cut
    y = H - pt(30)
    c.setFont(fonts.BOLD, 20)
    c.drawString(margin, y, T(t["howto"]))
    y -= pt(12)

    def heading(text: str) -> None:
        nonlocal y
        c.setFont(fonts.BOLD, 13)
        c.drawString(margin, y, T(text))
        y -= pt(7)

    def para(text: str) -> None:  # a "• " item hangs: its next lines start under its first word
        nonlocal y
        c.setFont(fonts.REGULAR, 10.5)
        bullet = "• " if text.startswith("• ") else ""
        text = bullet + text[len(bullet):][:1].upper() + text[len(bullet) + 1:]  # (a sentence starting on {what})
        hang = stringWidth(bullet, fonts.REGULAR, 10.5)
        x0 = margin + pt(5)
        for i, line in enumerate(_wrap(T(text[len(bullet):]), fonts.REGULAR, 10.5, W - 2 * margin - pt(5) - hang)):
            if i == 0 and bullet:
                c.drawString(x0, y, bullet)
            c.drawString(x0 + hang, y, line)
            y -= pt(5)
        y -= pt(1.5)

    heading(t["print_title"])
    facts = parts.facts

    def named(kinds) -> str:  # "the cards, tiles and pieces", "les cartes, les tuiles et le plateau"
        kinds = list(kinds)
        if len(kinds) == 1:  # (the subject of a plural verb: "The pieces touch"; bleed_one's singular verb)
            return t["item_first"].format(noun=t["kinds"].get(kinds[0], kinds[0]))
        names = [t["kind_one"][k] if k in facts.single and k in t["kind_one"] else
                 t["item_first" if i == 0 else "item"].format(noun=t["kinds"].get(k, k)) for i, k in enumerate(kinds)]
        return f"{', '.join(names[:-1])} {t['and']} {names[-1]}"

    para("• " + t["print_size"])
    stock = [k for k in facts.kinds if k in STOCK]
    para("• " + t["paper"].format(paper=t["papers"].get(parts.paper, parts.paper))
         + (" " + t["stock"].format(what=named(stock)) if stock else ""))
    if n_rules:
        para("• " + t["print_rules"].format(rules=span(rules_first, n_rules)))
    backs = (any(side in ("back", "fold") for side in parts.sheet_sides) if parts.sheet_sides else
             any(":" in s and ("back" in s.lower() or "fold" in s.lower()) for s in parts.sheet_titles))
    if backs:
        para("• " + t["duplex"].get(parts.duplex, t["duplex"]["long"]))
        if blanks:
            para("• " + t["blanks"])
    para("• " + t["print_test" if backs else "print_test_fronts"])
    y -= pt(3)
    heading(t["cut_title"])
    marks = "crop" if facts.crop else "cut" if facts.lines else parts.marks
    para("• " + t["cut"].get(marks, t["cut"]["crop"]))
    if len(facts.bleed) == 1 and facts.bleed[0] in facts.single and facts.bleed[0] in t["kind_one"]:
        para("• " + t["bleed_one"].format(what=t["kind_one"][facts.bleed[0]]))  # "The board has a coloured edge"
    elif facts.bleed:
        para("• " + t["bleed"].format(what=named(facts.bleed)))
    if facts.shared and marks != "cut":
        para("• " + t["shared"].format(what=named(facts.shared)))
    for round_ in (False, True):  # the straight-sided shapes, then the round ones
        shaped = [(k, s) for k, s in facts.shapes if (s == "circle") == round_]
        if shaped:
            what = named(dict.fromkeys(k for k, _ in shaped))
            shapes = ", ".join(dict.fromkeys(t["shape_names"].get(s, s) for _, s in shaped))
            para("• " + t["shapes_round" if round_ else "shapes"].format(what=what, shapes=shapes))
    if "overview" in parts.sheet_sides:
        para("• " + t["split_one" if "board" in facts.single else "split"])
    if "card" in facts.kinds:
        para("• " + t["sleeves"])
    y -= pt(3)
    heading(t["list_title"])
    for name, first, last in _sections(parts):
        para("• " + t["list_item"].format(name=name, pages=sheet_span(first, last)))
    _footer(c, W, parts, t, 2)
    c.showPage()
    c.save()
    return buf.getvalue()


def _footer(c, W: float, parts: KitParts, t: dict, page: int) -> None:
    from pnp.render import fonts  # lazy: 32 ms (pnp.render)

    c.setFont(fonts.REGULAR, 8)
    c.drawCentredString(W / 2, pt(10), typeset(f"{parts.title} · {t['kit']} · {page}", parts.lang))


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    from reportlab.pdfbase.pdfmetrics import stringWidth  # lazy: 51 ms (reportlab.pdfbase.pdfmetrics)

    lines, line = [], ""
    for word in text.split(" "):  # (at U+0020 only: never at a no-break space)
        if not word:
            continue
        trial = f"{line} {word}" if line else word
        if line and stringWidth(trial, font, size) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines
