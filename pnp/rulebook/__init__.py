"""Rulebooks compiled from the designs: `designs/<game>/rules.<lang>.md` -> `<game>-rules-<lang>.pdf`.

    rules.<lang>.md --Jinja2 (sandboxed, the design's data)--> Markdown + blocks
                    --markdown-it--> platypus flowables (+ diagrams, component list: SVG, vector)
                    --ReportLab (invariant)--> PDF bytes

`render_rulebooks(design, components)` is what `pnp build` calls; `build_rulebooks` is
`pnp rules`. Generic: a game only lists diagrams in its pnp.registry.GameSpec and, if it
likes, a `rulebook_facts(design, lang)` function whose result the text reads as `facts`.
"""

from __future__ import annotations

import os

from pnp.cache import Cache
from pnp.confine import DesignFiles, FileRefused, too_large
from pnp.errors import DesignError, ErrorReport, Problem, display_path, warn, warnings_from
from pnp.limits import limit
from pnp.model import Design
from pnp.render import fonts
from pnp.render.art import ArtFiles
from pnp.render.faces import ComponentFaces, face_path

__all__ = ["render_rulebooks", "rulebook_name", "rulebook_paper", "languages"]


def rulebook_paper(paper: str) -> str:
    """The paper a rulebook is set on for print sheets on `paper` (A3 sheets come with an A4 book)."""
    return "letter" if paper == "letter" else "a4"


def rulebook_name(design: Design, lang: str, paper: str) -> str:
    """`<design>-rules-<lang>-<paper>.pdf`: the books of several papers sit side by side."""
    return f"{design.slug}-rules-{lang}-{rulebook_paper(paper)}.pdf"


def languages(design: Design) -> list[str]:
    """The languages a design has a rulebook in: meta.languages that have a rules.<lang>.md.

    A design without any rules file has no rulebook yet (nothing to build); one with
    some but not all of its declared languages is an error.
    """
    _check_rules_files(design)
    declared = list(design.meta.languages)
    present = [lang for lang in declared if (design.folder / f"rules.{lang}.md").is_file()]
    if present and len(present) < len(declared):
        missing = [lang for lang in declared if lang not in present]
        raise DesignError([_meta_problem(design, f"meta.languages: {', '.join(declared)} declared but "
                                                 f"{', '.join(f'rules.{m}.md' for m in missing)} missing; "
                                                 "expected one rules file per declared language")])
    return present  # type: ignore[return-value]


def _check_rules_files(design: Design) -> None:
    """Every rules.*.md of the design folder is a regular file inside it, of bounded size (pnp.confine): the build
    reads them all (for its cache key) before any rules text is rendered."""
    files = DesignFiles(design.folder)
    problems = []
    for path in sorted(design.folder.glob("rules.*.md")):
        try:
            found = files.locate(path.name, what="rules text")
            if found is not None and os.stat(found).st_size > limit("rules_bytes"):
                raise FileRefused(too_large(found, os.stat(found).st_size, "rules_bytes"))
        except FileRefused as exc:
            problems.append(Problem(display_path(path), None, exc.message))
    if problems:
        raise DesignError(problems)


_LANGUAGE_NAMES = {"en": "English", "fr": "French"}


def no_edition(design: Design, lang: str, langs: list[str]) -> Problem:
    """`--lang fr` for a design without a French rulebook: what it lacks, the language named."""
    name = _LANGUAGE_NAMES.get(lang, lang)
    declared = list(design.meta.languages)
    has = f"its rulebooks are in {', '.join(langs)}" if langs else "it has no rules text yet"
    if lang in declared:
        return Problem(display_path(design.folder / f"rules.{lang}.md"), None,
                       f"--lang {lang}: not found ({has}); expected the {name} rules text rules.{lang}.md beside "
                       "design.yaml")
    return _meta_problem(design, f"--lang {lang}: the design has no {name} edition (meta.languages: "
                                 f"{', '.join(declared)}; {has}); expected {lang} in meta.languages and a "
                                 f"rules.{lang}.md" + (f", or --lang {langs[0]}" if langs else ""))


def _meta_problem(design: Design, message: str) -> Problem:
    doc = design.source
    path = doc.path if doc is not None else design.folder / "design.yaml"
    line = doc.line(("meta", "languages")) if doc is not None else None
    if line is None and doc is not None:
        line = doc.line(("meta",))
    return Problem(display_path(path), line, message)


def render_rulebooks(design: Design, components: list[ComponentFaces] | dict[str, list[ComponentFaces]],
                     svgs: dict[str, str] | None = None,
                     paper: str | None = None, langs: list[str] | None = None,
                     cache: Cache | None = None, compiled: dict | None = None) -> dict[str, bytes]:
    """Every rulebook of a design, in memory: {"<slug>-rules-<lang>-<paper>.pdf": PDF bytes}.

    `svgs` are the faces already painted by the build (painted here otherwise); `paper`
    overrides design.print.paper (a4/letter; a3 designs get an A4 rulebook). The languages share
    the compiled faces and diagrams, and the wordless diagrams are drawn once for all of them (see
    pnp.registry.GameSpec.wordless_diagrams); with the build's `cache`, so do the print sheets made in this
    process (pnp.layout.pdf.compile_face). `compiled`: the faces the build compiled where it painted them (face
    path -> drawing), not compiled again here. `components`: the faces of each language
    (pnp.render.faces.language_faces), or one list for every language asked (the build's groups of languages whose
    faces are the same: a list of one language's faces for another's book would show that language's words).
    """
    paper = rulebook_paper(paper or design.print.paper)
    from pnp.rulebook.document import _Drawings, build_pdf  # lazy: 271 ms (pnp.rulebook.document)
    from pnp.rulebook.run import one_run  # lazy: 1.3 ms (pnp.rulebook.run)
    from pnp.rulebook.text import render_text  # lazy: 172 ms (pnp.rulebook.text)

    langs = languages(design) if langs is None else langs
    if not langs:
        return {}
    by_lang = components if isinstance(components, dict) else dict.fromkeys(langs, components)
    if svgs is None:
        report = ErrorReport()
        svgs = {}
        for cf in (cf for lang in langs for cf in by_lang[lang]):
            for face in cf.sides:
                path = face_path(cf.component_id, face)
                if path in svgs:  # a face every language shares: painted once
                    continue
                try:
                    svgs[path] = face.paint()
                except DesignError as exc:
                    report.extend(exc)
        report.raise_if_any()

    drawings = _Drawings(svgs, ArtFiles(design.folder), cache, compiled)
    out: dict[str, bytes] = {}
    report = ErrorReport()
    with one_run():  # what is alike in every language (wordless diagrams, a game's scripts), made once
        for lang in langs:
            try:
                text = render_text(design, lang, by_lang[lang])
                out[rulebook_name(design, lang, paper)] = _build_pdf(build_pdf, design, lang, text, by_lang[lang],
                                                                     drawings, paper)
            except DesignError as exc:
                report.extend(exc)
    report.raise_if_any()
    return out


def _build_pdf(build_pdf, design: Design, lang: str, text, components, drawings, paper: str) -> bytes:
    """The PDF of one rules text; what ReportLab cannot lay out is a problem of that text (file:line)."""
    from reportlab.platypus.doctemplate import LayoutError  # lazy: 118 ms (reportlab.platypus.doctemplate)

    from pnp.rulebook.markdown import MarkdownError  # lazy: 207 ms (pnp.rulebook.markdown)

    shown = display_path(text.source)
    try:
        with warnings_from(text.source), fonts.fallbacks(lambda: fonts.design_fonts(design)) as missing:
            pdf = build_pdf(design, lang, text, components, drawings, paper)
        _warn_missing(text, missing)
        return pdf
    except MarkdownError as exc:
        raise DesignError([Problem(shown, _source_line(text, exc.line), exc.message)]) from None
    except LayoutError as exc:
        what = " ".join(str(exc).split())
        raise DesignError([Problem(shown, None, f"the rulebook cannot be laid out ({what[:160]}); expected "
                                   "text, tables and images that fit the page")]) from None


def _warn_missing(text, missing: list[str]) -> None:
    """A warning for each character no font has (printed as a white square), at the first rules-text line that
    holds it (pnp.render.fonts.fallbacks: the shipped fonts, then the design's)."""
    if not missing:
        return
    from pnp.render.svgpdf.text import missing_message  # lazy: 136 ms (pnp.render.svgpdf.text)

    lines = text.markdown.splitlines()
    for ch in missing:
        line = next((n for n, s in enumerate(lines, start=1) if ch in s), None)
        warn(text.source, _source_line(text, line), missing_message(ch))


def _source_line(text, line: int | None) -> int | None:
    """The rules-text line of a line of the rendered Markdown: the same when Jinja moved nothing, else the first
    source line with the same text."""
    return text.line(line)  # (pnp.rulebook.text.RulesText.line)
