"""Rules text: `designs/<game>/rules.<lang>.md` through Jinja2 (sandboxed) -> Markdown.

The text reaches the design's data through a few names (see `context`), so no number is
typed twice. Things that are not text — diagrams, the component list, a grid of faces —
are Jinja2 calls that leave a placeholder image `![](pnp:N)` in the Markdown and a
`Block` that the PDF stage draws in its place.

Every error is reported as `rules.<lang>.md:LINE: what is wrong; what is expected`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from pnp import registry
from pnp.errors import DesignError, Problem, display_path
from pnp.model import Design
from pnp.render.faces import ComponentFaces

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


def rules_path(design: Design, lang: str) -> Path:
    return design.folder / f"rules.{lang}.md"


def component_views(components: list[ComponentFaces], lang: str) -> dict[str, ComponentView]:
    out = {}
    for cf in components:
        counts = {f.count for f in cf.fronts}
        out[cf.component_id] = ComponentView(
            id=cf.component_id, kind=cf.component.kind, name=cf.component.display_name(lang) or cf.component_id,
            faces=len(cf.fronts), copies=cf.copies, count=counts.pop() if len(counts) == 1 else None,
            back=cf.back is not None, data=[dict(f.data) for f in cf.fronts])
    return out


def _environment(design: Design) -> SandboxedEnvironment:
    from pnp.loader import templates_dir

    search = [str(design.folder), str(design.folder.parent), str(templates_dir() / "rulebook")]
    return SandboxedEnvironment(
        loader=jinja2.FileSystemLoader(search),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # the output is Markdown, not HTML
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render_text(design: Design, lang: str, components: list[ComponentFaces]) -> RulesText:
    """The Markdown of one rulebook, with its blocks; DesignError (file:line) on any mistake."""
    path = rules_path(design, lang)
    blocks: list[Block] = []
    views = component_views(components, lang)

    def placeholder(block: Block) -> str:
        blocks.append(block)
        return f"![]({'pnp:'}{len(blocks) - 1})"

    def diagram(name: str, caption: str = "", width: float | None = None, **params: Any) -> str:
        fn = registry.get_diagram(name)
        if fn is None:
            known = ", ".join(sorted(registry.DIAGRAMS)) or "none registered"
            raise RulesTextError(f"unknown diagram {name!r}; expected one of: {known}")
        try:
            svg = fn(design, lang, **params)
        except (TypeError, ValueError, KeyError, IndexError, LookupError) as exc:
            raise RulesTextError(f"diagram {name!r} with {params}: {exc}; expected parameters it accepts "
                                 f"({(fn.__doc__ or '').strip().splitlines()[0] if fn.__doc__ else name})") from None
        return placeholder(Block("diagram", svg=svg, caption=str(caption), width=width))

    def component_list() -> str:
        return placeholder(Block("components"))

    def face_grid(component: str, columns: int = 8, caption: str = "") -> str:
        if component not in views:
            raise RulesTextError(f"no component {component!r}; expected one of: {', '.join(views)}")
        return placeholder(Block("faces", component=component, columns=int(columns), caption=str(caption)))

    facts: Any = {}
    game = registry.get_game(design.game) if design.game else None
    if game is not None and game.rulebook_facts is not None:
        facts = game.rulebook_facts(design, lang)

    context = {
        "meta": design.meta, "players": design.meta.players, "rules": design.rules, "components": views,
        "print": design.print, "lang": lang, "facts": facts,
        "diagram": diagram, "component_list": component_list, "face_grid": face_grid,
    }
    env = _environment(design)
    try:
        template = env.get_template(path.name)
        text = template.render(**context)
    except jinja2.TemplateSyntaxError as exc:
        where = Path(exc.filename) if exc.filename else path
        raise DesignError([Problem(display_path(where), exc.lineno,
                                   f"Jinja2 syntax error: {exc.message}; expected a valid template "
                                   "({{ expression }}, {% if %}...{% endif %})")]) from None
    except jinja2.TemplateNotFound as exc:
        file, line = _template_line(exc, path)
        raise DesignError([Problem(display_path(file), line, f"template {exc.name!r} not found; expected a file "
                                   f"in {display_path(design.folder)}/ or a design folder beside it")]) from None
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
        raise DesignError([Problem(display_path(file), line, message)]) from None
    except (TypeError, ValueError, ArithmeticError, AttributeError, KeyError, IndexError) as exc:
        file, line = _template_line(exc, path)
        raise DesignError([Problem(display_path(file), line, f"{type(exc).__name__}: {exc}; expected an "
                                   "expression that works on the design's data")]) from None
    return RulesText(text, blocks, path)


def _template_line(exc: BaseException, default: Path) -> tuple[Path, int | None]:
    """The template file and line where `exc` happened: the innermost Jinja2 frame of a .md file."""
    tb = exc.__traceback__
    found: tuple[Path, int | None] = (default, None)
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name.endswith(".md"):
            found = (Path(name), tb.tb_lineno)
        tb = tb.tb_next
    return found
