"""Rules text: `designs/<game>/rules.<lang>.md` through Jinja2 (sandboxed) -> Markdown.

The text reaches the design's data through a few names (see `context`), so no number is
typed twice. Things that are not text — diagrams, the component list, a grid of faces —
are Jinja2 calls that leave a placeholder image `![](pnp:N)` in the Markdown and a
`Block` that the PDF stage draws in its place.

Images `![caption](art.svg)` are SVG files of the design folder, read here through
pnp.confine (confined, bounded, checked) so the PDF stage reads no file itself. The text
renders in pnp.sandbox (sandboxed, bounded; includes only from the design folder and
pnp's templates/rulebook/).

Every error is reported as `rules.<lang>.md:LINE: what is wrong; what is expected`.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType
from typing import Any
from urllib.parse import unquote

import jinja2
import jinja2.bccache

from pnp import registry, sandbox
from pnp.confine import DesignFiles
from pnp.errors import DesignError, Problem, display_path, warn
from pnp.limits import limit
from pnp.loader import package_root, templates_dir
from pnp.model import Design
from pnp.render.faces import ComponentFaces
from pnp.render.typography import typeset_svg
from pnp.rulebook.markdown import MAX_DEPTH, SIZE_EXPECTED, image_size, parser, size_block, too_deep
from pnp.rulebook.run import shared
from pnp.yamlio import parse_yaml

NAMES = ("meta", "players", "rules", "components", "print", "lang", "facts",
         "diagram", "component_list", "face_grid")


class RulesTextError(Exception):
    """A mistake in a rules text found by one of our functions (bad diagram name, unknown component...)."""


@dataclass
class Block:
    """A non-text element of the rulebook, drawn by the PDF stage where its placeholder stands."""

    kind: str  # "diagram" | "components" | "faces"
    svg: str = ""  # diagram: the SVG text
    caption: str = ""
    width: float | None = None  # mm; None: the diagram's own size, shrunk to the text width
    component: str = ""  # faces: the component id
    columns: int = 8


@dataclass
class ComponentView:
    """What a rules text sees of a component: `components['placement-cards'].copies`..."""

    id: str
    kind: str
    name: str
    faces: int  # distinct faces
    copies: int  # physical copies in the game
    count: int | None  # copies of each face when they all agree, else None
    back: bool
    data: list[dict] = field(default_factory=list)  # each face's data (generator data or table row)


@dataclass
class RulesText:
    markdown: str
    blocks: list[Block]
    source: Path
    images: dict[str, str] = field(default_factory=dict)  # image src as written -> the SVG file's text
    tokens: list | None = None  # the Markdown parsed (markdown-it tokens), once for the images and the PDF
    front_matter: dict[str, Any] = field(default_factory=dict)  # the YAML at its top (metadata, never printed)
    env: dict[str, Any] = field(default_factory=dict)  # what markdown-it noted while parsing (the footnotes)

    def line(self, line: int | None) -> int | None:
        """The rules-text line of a line of the Markdown (they differ when Jinja2 moved lines)."""
        return source_line(self.markdown, self.source, line)

    def warn(self, line: int | None, message: str) -> None:
        """A warning about a line of the Markdown, told at its line in the rules text."""
        warn(self.source, self.line(line), message)


def source_line(markdown: str, source: Path, line: int | None) -> int | None:
    """The rules-text line of a line of the rendered `markdown`: the same when Jinja moved nothing, else the first
    source line with the same text."""
    if line is None:
        return None
    rendered = markdown.splitlines()
    if not 0 < line <= len(rendered):
        return line
    want = rendered[line - 1].strip()
    try:
        text = source.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeError):
        return line
    if line <= len(text) and text[line - 1].strip() == want:
        return line
    return next((i for i, s in enumerate(text, start=1) if s.strip() == want), line)


def rules_path(design: Design, lang: str) -> Path:
    return design.folder / f"rules.{lang}.md"


def component_views(components: list[ComponentFaces], lang: str) -> dict[str, ComponentView]:
    """By id, every component (each deck of one split by `group_by`, `cards-fire`...), and a component split by
    `group_by` also as the whole (`cards`: its decks' faces, copies and data together), so a text counts either."""
    out = {}
    groups: dict[str, list[ComponentFaces]] = {}
    for cf in components:
        out[cf.component_id] = _view(cf.component_id, [cf], cf.component.display_name(lang) or cf.component_id)
        if cf.parent:
            groups.setdefault(cf.parent, []).append(cf)
    for parent, decks in groups.items():
        if parent not in out:
            name = decks[0].component.display_name(lang).rsplit(": ", 1)[0] or parent
            out[parent] = _view(parent, decks, name)
    return out


def _view(cid: str, parts: list[ComponentFaces], name: str) -> ComponentView:
    fronts = [f for cf in parts for f in cf.fronts]
    counts = {f.count for f in fronts}
    return ComponentView(id=cid, kind=parts[0].component.kind, name=name, faces=len(fronts),
                         copies=sum(cf.copies for cf in parts), count=counts.pop() if len(counts) == 1 else None,
                         back=all(cf.back is not None for cf in parts),
                         data=[{"count": f.count, **f.data} for f in fronts])  # a row's copies too


class _CompiledTexts(jinja2.BytecodeCache):
    """The rules texts compiled in this process, by template name and file, each with its source's checksum: a
    text read again unchanged (by the variants that extend it, by the next build of pnp watch) is not compiled
    again. One entry a template file (an edited text replaces its entry); nothing is written anywhere."""

    def __init__(self) -> None:
        self.codes: dict[str, tuple[str, CodeType]] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        kept = self.codes.get(bucket.key)
        if kept is not None and kept[0] == bucket.checksum:
            bucket.code = kept[1]

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.code is not None:
            self.codes[bucket.key] = (bucket.checksum, bucket.code)


_COMPILED = _CompiledTexts()


def _environment(design: Design, files: DesignFiles) -> jinja2.Environment:
    """Texts are found in the design folder, the folders given with --allow-dir, the designs shipped with pnp
    (`{% extends "three-stars/rules.en.md" %}`) and pnp's templates/rulebook/.

    Compiled without Jinja2's optimizer: its constant folding saves nothing on a text rendered once (it would
    fold at compile time what rendering computes anyway) and is a fifth of the compile time; the compiled texts
    are kept for this process (`_COMPILED`)."""
    bases = [design.folder, *files.extra, package_root() / "designs", templates_dir() / "rulebook"]
    return sandbox.environment(
        files, bases, "rules_bytes",
        autoescape=False,  # the output is Markdown, not HTML
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        optimized=False,
        bytecode_cache=_COMPILED,
    )


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _check_params(name: str, params: dict[str, Any]) -> None:
    """Diagram parameters are small: numbers of at most `range` (a step, a size...), short texts and lists."""
    most = limit("range")
    for key, value in params.items():
        if _number(value) and abs(value) > most:
            raise RulesTextError(f"diagram {name!r}: {key}={value!r} is too large; expected at most {most}")
        if isinstance(value, (str, list, tuple, dict)) and len(value) > most:
            raise RulesTextError(f"diagram {name!r}: {key} has {len(value)} items; expected at most {most}")


def render_text(design: Design, lang: str, components: list[ComponentFaces]) -> RulesText:
    """The Markdown of one rulebook, with its blocks; DesignError (file:line) on any mistake.

    Inside a rulebook run (pnp.rulebook.run.one_run), the design's wordless diagrams
    (pnp.registry.GameSpec.wordless_diagrams) are drawn once for all its languages.
    """
    path = rules_path(design, lang)
    blocks: list[Block] = []
    views = component_views(components, lang)

    def placeholder(block: Block) -> str:
        blocks.append(block)
        return f"![]({'pnp:'}{len(blocks) - 1})"

    def diagram(name: str, caption: str = "", width: float | None = None, **params: Any) -> str:
        fn = registry.get_diagram(name) if isinstance(name, str) else None
        if fn is None:
            known = ", ".join(sorted(registry.DIAGRAMS)) or "none registered"
            raise RulesTextError(f"unknown diagram {name!r}; expected one of: {known}")
        if width is not None and not (_number(width) and 0 < width <= limit("length")):
            raise RulesTextError(f"diagram {name!r}: width={width!r} is not a width in mm; expected a number "
                                 f"above 0 and at most {limit('length')}, such as width=60")
        _check_params(name, params)
        def draw() -> str:
            try:
                return fn(design, lang, **params)
            except (TypeError, ValueError, ArithmeticError, AttributeError, LookupError) as exc:
                raise RulesTextError(f"diagram {name!r} with {params}: {exc}; expected parameters it accepts "
                                     f"({(fn.__doc__ or '').strip().splitlines()[0] if fn.__doc__ else name})") from None

        # a wordless diagram is the same drawing in every language: drawn once in a rulebook run (pnp.rulebook.run)
        # the words of a diagram as the book's language prints them (pnp.render.typography, as every face)
        svg = typeset_svg(draw(), lang) if registry.diagram_has_words(name) else shared(design, "diagram",
                                                                                        (name, params), draw)
        return placeholder(Block("diagram", svg=svg, caption=str(caption), width=float(width) if width else None))

    def component_list() -> str:
        return placeholder(Block("components"))

    def face_grid(component: str, columns: int = 8, caption: str = "") -> str:
        if not isinstance(component, str) or component not in views:
            raise RulesTextError(f"no component {component!r}; expected one of: {', '.join(views)}")
        most = limit("face_grid_columns")
        if not (isinstance(columns, int) and not isinstance(columns, bool) and 1 <= columns <= most):
            raise RulesTextError(f"face_grid: columns={columns!r}; expected a whole number from 1 to {most}")
        if not views[component].faces:
            raise RulesTextError(f"face_grid: component {component!r} has no faces; expected a component with "
                                 "faces")
        return placeholder(Block("faces", component=component, columns=columns, caption=str(caption)))

    facts: Any = {}
    game = registry.get_game(design.game) if design.game else None
    if game is not None and game.rulebook_facts is not None:
        try:
            facts = game.rulebook_facts(design, lang)
        except (ValueError, LookupError, TypeError, ArithmeticError) as exc:  # the design is not one the game reads
            raise DesignError([_facts_problem(design, exc)]) from None

    context = {
        "meta": design.meta.model_copy(update={"title": design.meta.title_in(lang)}),  # (the edition's title)
        "players": design.meta.players, "rules": design.rules, "components": views,
        "print": design.print, "lang": lang, "facts": facts,
        "diagram": diagram, "component_list": component_list, "face_grid": face_grid,
    }
    files = DesignFiles(design.folder)
    env = _environment(design, files)
    try:
        template = env.get_template(path.name)
        text = sandbox.render(template, context, "rules_output")
    except jinja2.TemplateSyntaxError as exc:
        where = Path(exc.filename) if exc.filename else path
        expected = "" if "; expected" in (exc.message or "") else \
            "; expected a valid template ({{ expression }}, {% if %}...{% endif %})"
        raise DesignError([Problem(display_path(where), exc.lineno, f"Jinja2 syntax error: {exc.message}{expected}")]) \
            from None
    except jinja2.TemplateNotFound as exc:
        file, line = _template_line(exc, path)
        raise DesignError([Problem(display_path(file), line, f"template {exc.name!r} not found; expected a file "
                                   f"in {display_path(design.folder)}/ or a design shipped with pnp (another "
                                   "folder needs --allow-dir)")]) from None
    except jinja2.UndefinedError as exc:
        file, line = _template_line(exc, path)
        raise DesignError([Problem(display_path(file), line, f"{exc.message}; expected one of the names "
                                   f"{', '.join(NAMES)} or a field of them (see docs/design-format.md, "
                                   "Rulebooks)")]) from None
    except (jinja2.TemplateError, RulesTextError) as exc:
        file, line = _template_line(exc, path)
        message = exc.message if isinstance(exc, jinja2.TemplateError) else str(exc)
        if isinstance(exc, jinja2.TemplateError):
            message = f"{message}; expected a valid Jinja2 expression"
        raise DesignError([Problem(display_path(file), line, message)]) from None  # type: ignore[arg-type]
    except sandbox.RENDER_ERRORS as exc:
        file, line = _template_line(exc, path)
        raise DesignError([Problem(display_path(file), line, sandbox.describe(exc))]) from None
    except (TypeError, ValueError, ArithmeticError, AttributeError, LookupError) as exc:
        file, line = _template_line(exc, path)
        raise DesignError([Problem(display_path(file), line, f"{type(exc).__name__}: {exc}; expected an "
                                   "expression that works on the design's data")]) from None
    return _parsed(text.removeprefix("\ufeff"), blocks, path, files)


_FRONT_KEY = re.compile(r"^[\w\"'-][^:\n]*:(\s|$)")


def _parsed(text: str, blocks: list[Block], path: Path, files: DesignFiles) -> RulesText:
    """The rendered Markdown parsed: its front matter read, its nesting and footnotes checked, its images read."""
    env: dict[str, Any] = {}
    tokens = parser().parse(text, env)
    rules = RulesText(text, blocks, path, tokens=tokens, env=env)
    if tokens and tokens[0].type == "front_matter":
        meta = _front_matter(rules, tokens[0])
        if meta is None:  # `---`, text that is not `key: value` lines, `---`: Markdown (a rule, a setext heading)
            env = rules.env = {}
            tokens = rules.tokens = parser(front_matter=False).parse(text, env)
        else:
            rules.front_matter = meta
    elif text.startswith("---") and len(lines := text.splitlines()) > 1 and _FRONT_KEY.match(lines[1]):
        rules.warn(1, "'---' on the first line opens front matter that no '---' line closes: printed as text; "
                      "expected a '---' line after the front matter's last 'key: value' line")
    deep = too_deep(tokens)
    if deep is not None:
        raise DesignError([Problem(display_path(path), rules.line(deep + 1), f"lists and block quotes nested more "
                                   f"than {MAX_DEPTH} levels deep; expected at most {MAX_DEPTH} levels")])
    refs = (env.get("footnotes") or {}).get("refs") or {}
    for label, used in refs.items():
        if used < 0:
            label = label.removeprefix(":")
            at = next((i for i, s in enumerate(text.splitlines(), start=1) if f"[^{label}]:" in s), 1)
            rules.warn(at, f"footnote [^{label}] is never referred to, so its text is not printed; expected "
                           f"[^{label}] in the text where the note belongs")
    rules.images = _images(tokens, blocks, path, files)
    return rules


def _front_matter(rules: RulesText, token) -> dict[str, Any] | None:
    """The YAML between the `---` lines at the top of the text: a mapping (metadata, not printed); None when it is
    not YAML mappings (then the lines are Markdown); invalid YAML is a rules.<lang>.md:LINE message."""
    try:
        data = parse_yaml(token.content, rules.source).data
    except DesignError as exc:
        raise DesignError([Problem(display_path(rules.source), rules.line(p.line + 1) if p.line else 1,
                                   f"front matter: {p.message} (between the '---' lines at the top of the text, or "
                                   "no front matter)") for p in exc.problems]) from None
    if data is None:
        return {}
    return data if isinstance(data, dict) else None


_WHERE = re.compile(r"^(\S+?):(\d+): (.+)$", re.S)


def _facts_problem(design: Design, exc: Exception) -> Problem:
    """A game's rulebook facts could not be read from the design: its message, at the file:line it names, else at
    design.yaml."""
    text = " ".join(str(exc).split())
    m = _WHERE.match(text)
    if m:
        return Problem(m.group(1), int(m.group(2)), m.group(3))
    doc = design.source
    return Problem(display_path(doc.path) if doc is not None else "design.yaml", None,
                   f"the rulebook's facts cannot be read from this design ({text}); expected a design its game can "
                   "play")


_PNP_SRC = re.compile(r"^pnp:(\d+)$")


def _images(tokens: list, blocks: list[Block], path: Path, files: DesignFiles) -> dict[str, str]:
    """Every image of the Markdown (its markdown-it tokens): `pnp:N` must be a block this text made; any other is an
    SVG file of the design folder, read and checked here (pnp.confine). Returns {src: SVG text}."""
    found: dict[str, str] = {}
    source: list[str] | None = None
    for token in tokens:
        children = token.children or []
        for i, child in enumerate(children):
            if child.type != "image":
                continue
            src = str(child.attrs.get("src", ""))
            after = children[i + 1] if i + 1 < len(children) and children[i + 1].type == "text" else None
            sized = size_block(after.content) if after is not None else None
            if sized is not None:
                _check_size(src, sized[0], path, files, token)
            if src in found:
                continue
            if source is None:
                try:
                    source = files.read_text(path, "rules_bytes").splitlines()
                except DesignError:
                    source = []
            # the line in the rules text (Jinja may shift lines), else the line in the rendered Markdown
            line = next((i for i, s in enumerate(source, start=1) if f"]({src}" in s),
                        token.map[0] + 1 if token.map else None)
            m = _PNP_SRC.match(src)
            if src.startswith("pnp:"):
                if not m or int(m.group(1)) >= len(blocks):
                    raise DesignError([Problem(display_path(path), line, f"image {src!r} is not one of this text's "
                                               "diagrams; expected {{ diagram(...) }}, {{ component_list() }} or "
                                               "{{ face_grid(...) }} (they make the pnp:N images)")])
                continue
            if not src.lower().endswith(".svg"):
                raise DesignError([Problem(display_path(path), line, f"image {src!r} is not an SVG file; expected an "
                                           "SVG file in the design folder (images stay vector) or a "
                                           "{{ diagram(...) }}")])
            _, found[src] = files.read_svg(unquote(src), (path, line), what="image", expected="expected an SVG "
                                           "file in the design folder (images stay vector) or a {{ diagram(...) }}")
    return found


def _check_size(src: str, spec: str, path: Path, files: DesignFiles, token) -> None:
    """`{width=60mm}` after an image: a size pnp can set (file:line otherwise)."""
    try:
        source = files.read_text(path, "rules_bytes").splitlines()
    except DesignError:
        source = []
    line = next((i for i, s in enumerate(source, start=1) if f"]({src})" in s and "{" + spec + "}" in s),
                token.map[0] + 1 if token.map else None)
    if src.startswith("pnp:"):
        raise DesignError([Problem(display_path(path), line, f"{{{spec}}} after a diagram; expected a size only after "
                                   "an image file (a diagram takes its own width: diagram(..., width=60))")])
    try:
        image_size(spec)
    except ValueError as exc:
        raise DesignError([Problem(display_path(path), line, f"image {src!r}: {{{spec}}}: {exc}; "
                                   f"{SIZE_EXPECTED}")]) from None


def _template_line(exc: BaseException, default: Path) -> tuple[Path, int | None]:
    """The template file and line where `exc` happened: the innermost frame of a template (Jinja2 rewrites the
    traceback so that template code shows with its own file and line)."""
    tb = exc.__traceback__
    found: tuple[Path, int | None] = (default, None)
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if not name.endswith(".py") and not name.startswith("<") and os.path.isfile(name):
            found = (Path(name), tb.tb_lineno)
        tb = tb.tb_next
    return found
