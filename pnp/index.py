"""`output/<design>/index.html`: a contact sheet of every component with counts, the validation
report and links to the PDFs. Plain HTML with relative links: it opens from disk, no server.

The faces are in the page itself, not behind `<img src="svg/...">`: a browser draws an <img>'d SVG
without the files it links to (art, icons, the design's fonts), so the sheet would not show what prints.
Each face's SVG, as written to svg/, is put in the page (`page_face`): its links to svg/art/ made relative
to the page, its @font-face rules moved to the page's own style (shadow roots ignore them), and only
what draws kept (no script, no event attribute, no foreign content, no animation: the page runs no code
a design brings). It waits in an inert <template> until its box nears the screen; the page's one script
then draws it into the box's shadow root, so each face keeps its own ids and styles and a big deck
loads only what is seen. Without scripts the page shows the <img> of each face (no art), as it did.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.machinery
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jinja2
from lxml import etree
from markupsafe import Markup

from pnp import products
from pnp.loader import templates_dir
from pnp.render.sanitise import SVG_NS, XLINK_HREF, clean, drop
from pnp.units import parse_length

THUMB_HEIGHT, THUMB_WIDTH = 150, 220  # px: the largest box a face is shown in (its shape kept)
PX_PER_MM = 96 / 25.4  # and no larger than its own size: a coin stays smaller than a card

_HREFS = ("href", XLINK_HREF)
_STYLE = f"{{{SVG_NS}}}style"
_IMAGES = frozenset({f"{{{SVG_NS}}}image", f"{{{SVG_NS}}}feImage", "image", "feImage"})
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_FONT_FACE = re.compile(r"@font-face\s*\{[^{}]*\}(?:\s*/\*[^*]*\*/)?")
_CSS_URL = re.compile(r'url\("([^"]*)"\)')
PAGE = "index.html.j2"
COMPILED = Path(__file__).resolve().parent / "compiled_templates"
"""The page's template as Jinja2 compiles it (Python code), compiled ahead: imported like any module, its bytecode
cached, where compiling templates/index.html.j2 costs 15-20 ms a build. Used only when its stamp.json names this
very template (its SHA-256) and the installed Jinja2 release; else the template is compiled from templates/ now."""


def _with(loader: jinja2.BaseLoader) -> jinja2.Environment:
    """The page's environment (the settings its template is compiled ahead with)."""
    return jinja2.Environment(loader=loader, autoescape=True, undefined=jinja2.StrictUndefined,
                              keep_trailing_newline=True)


def _stamp() -> dict[str, str]:
    return {"jinja2": jinja2.__version__,
            "template": hashlib.sha256((templates_dir() / PAGE).read_bytes()).hexdigest()}


def compiled_current() -> bool:
    """Whether pnp/compiled_templates holds the page's template as this Jinja2 compiles it today."""
    try:
        return json.loads((COMPILED / "stamp.json").read_text(encoding="utf-8")) == _stamp()
    except (OSError, ValueError):
        return False


class _CompiledPage(jinja2.BaseLoader):
    """The page's template from its module compiled ahead, as jinja2.ModuleLoader loads one but without its
    throwaway package per loader, whose clean-up ran at any garbage collection (a Ctrl-C landing in it was lost,
    with a traceback): the module's code object (its bytecode cached by Python), run for each environment."""

    def load(self, environment: jinja2.Environment, name: str, globals=None) -> jinja2.Template:
        if name != PAGE:
            raise jinja2.TemplateNotFound(name)
        return environment.template_class.from_code(environment, _page_code(), environment.make_globals(globals))


@functools.cache
def _page_code():
    [path] = COMPILED.glob("tmpl_*.py")
    return importlib.machinery.SourceFileLoader("pnp_compiled_page", str(path)).get_code("pnp_compiled_page")


def _environment() -> jinja2.Environment:
    if compiled_current():
        return _with(_CompiledPage())
    return _with(jinja2.FileSystemLoader(str(templates_dir())))


def compile_page_template(folder: Path = COMPILED) -> None:
    """Compile the page's template into `folder`, with its stamp: after a change to templates/index.html.j2 or to
    Jinja2 (tests/test_index_template.py says when), `python -c "import pnp.index as i; i.compile_page_template()"`."""
    folder.mkdir(exist_ok=True)
    for old in folder.glob("tmpl_*.py"):
        old.unlink()
    env = _with(jinja2.FileSystemLoader(str(templates_dir())))
    env.compile_templates(str(folder), zip=None, filter_func=lambda name: name == PAGE, ignore_errors=False,
                          log_function=lambda _: None)
    (folder / "stamp.json").write_text(json.dumps(_stamp(), indent=1) + "\n", encoding="utf-8")


_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True,
                          remove_pis=True)


def render_index(design, components, face_path, files: list[str], report,
                 face_svgs: Mapping[str, Any] | None = None, cache=None,
                 by_lang: Mapping[str, list] | None = None, printed: Mapping[str, Any] | None = None) -> str:
    """The page. `face_svgs`: the files of svg/ by name under it (svg/<name>), the SVG text of each face as
    written there; a face without one is shown through its <img> alone. `cache` (pnp.cache.Cache) keeps the
    faces made ready for the page, under the SVG texts they come from. `by_lang`: each language's components, in
    a design of several languages: the first language's every face, then each other language's own faces (those
    that are not shared), in a section of their own (`<component>.<lang>`). `printed`: what changed since the
    design's last printed state (pnp.printed_state.since_last), listed, and each face new or changed marked."""
    env = _environment()
    links = [{"href": f, "label": _label(f)} for f in sorted(files) if f.endswith(".pdf")]
    links += [{"href": f, "label": _label(f)} for f in sorted(files) if f.startswith(("tts/", "print/"))]
    links += [{"href": "manifest.json", "label": "manifest.json"}]
    sections = [(cf, "", "") for cf in components]
    if by_lang and len(by_lang) > 1:
        first, *others = list(by_lang)
        sections = [(cf, first, "") for cf in by_lang[first]]
        sections += [(cf, lang, lang) for lang in others for cf in by_lang[lang]
                     if any(f.lang for f in cf.sides)]
    shown = _page_faces([cf for cf, _, _ in sections], face_path, face_svgs or {}, cache)
    changed = set(printed["faces"]) if printed else set()
    comps = []
    for cf, lang, own in sections:
        backs = [b for b in cf.backs if b.lang] if own else cf.backs
        copies_of = {id(b): 0 for b in backs}  # each back: the copies of the fronts it is behind
        for front in cf.fronts:
            back = cf.back_of(front)
            if back is not None:
                copies_of[id(back)] = copies_of.get(id(back), 0) + front.count
        fronts = [f for f in cf.fronts if f.lang] if own else cf.fronts
        faces = [_face(cf, f, f.count, _tagged(f.label or f.key, f), face_path, shown, changed) for f in fronts]
        faces += [_face(cf, b, copies_of[id(b)], _tagged(b.key, b), face_path, shown, changed) for b in backs]
        name = cf.component.display_name(lang or "en") or cf.component_id
        comps.append({"id": f"{cf.component_id}.{own}" if own else cf.component_id,
                      "name": f"{name} ({own})" if own else name,
                      "kind": cf.component.kind, "faces": faces, "copies": cf.copies, "fronts": len(fronts),
                      "backs": len(backs)})
    return env.get_template(PAGE).render(
        meta=design.meta, slug=design.slug, links=links, components=comps, report=report,
        printed=_printed_lines(printed) if printed else None,
        fonts_css=Markup(shown.get("", "")),
        total_faces=sum(len(c["faces"]) for c in comps), total_copies=sum(c["copies"] for c in comps))


def _tagged(label: str, face) -> str:
    """A face's label, with its language when it is drawn in one (the others are every language's)."""
    return f"{label} · {face.lang}" if face.lang else label


def _printed_lines(printed: Mapping[str, Any]) -> dict:
    """The changes since a printed state as the page lists them: [(heading, [line, ...]), ...]."""
    groups: list[tuple[str, list[str]]] = []
    for line in printed["lines"]:
        if line.startswith("  ") and groups:
            groups[-1][1].append(line.strip())
        else:
            groups.append((line.rstrip(":"), []))
    return {"since": printed["since"], "date": printed["date"], "groups": groups, "faces": len(printed["faces"])}


def _face(cf, face, count: int, label: str, face_path, shown: Mapping[str, str],
          changed: set[str] | frozenset[str] = frozenset()) -> dict:
    src = face_path(cf.component_id, face)
    w, h = face.width + 2 * face.bleed, face.height + 2 * face.bleed
    scale = min(THUMB_HEIGHT / h, THUMB_WIDTH / w, PX_PER_MM) if w > 0 and h > 0 else 0
    return {"src": src, "count": count, "label": label,  # (its name in the page: a face of one edition says which)
            "alt": f"{cf.component_id} {face.key}" + (f" · {face.lang}" if face.lang else ""),
            "width": f"{w * scale:.1f}", "height": f"{h * scale:.1f}", "svg": Markup(shown.get(src, "")),
            "changed": src.removeprefix("svg/").removesuffix(".svg") in changed}


def _page_faces(components, face_path, face_svgs: Mapping[str, Any], cache) -> dict[str, str]:
    """{face path: its SVG as the page holds it, "": the @font-face rules of them all}, through the cache."""
    texts = {}
    for cf in components:
        for face in cf.sides:
            path = face_path(cf.component_id, face)
            text = face_svgs.get(path.removeprefix("svg/"))
            if isinstance(text, str):
                texts[path] = text
    if not texts:
        return {}
    if cache is None:
        return page_faces(texts)
    return cache.cached("index-faces", products.INDEX_FACES.key(face_svgs=sorted(texts.items())), lambda: page_faces(texts))


def page_faces(texts: Mapping[str, str]) -> dict[str, str]:
    """{face path: its SVG as the page holds it (page_face), "": the faces' @font-face rules, each once}."""
    out: dict[str, str] = {}
    fonts: dict[str, None] = {}
    for path, text in texts.items():
        base = path.rsplit("/", 1)[0] + "/" if "/" in path else ""
        out[path], rules = page_face(text, base)
        fonts.update(dict.fromkeys(rules))
    # the rules go into the page's <style> (raw text in HTML): no "<" can end it early
    out[""] = "\n".join(fonts).replace("<", "\\3c ")
    return out


def page_face(svg: str, base: str) -> tuple[str, list[str]]:
    """A face's SVG text as the page holds it, and its @font-face rules: only what draws kept (the whitelist of
    pnp.render.sanitise, strictly: no comment, no editor's data, title, desc and style as text alone), the links
    it makes relative to its file made relative to the page (`base`, the folder of the file: "svg/"), the root
    filling its box."""
    root = etree.fromstring(svg.encode("utf-8"), _PARSER)
    clean(root, page=True)
    fonts: list[str] = []
    for el in root.iter(*_IMAGES):
        for attr in _HREFS:
            value = el.get(attr)
            if value is not None:
                el.set(attr, _relative(value.strip(), base))
    for el in root.iter(_STYLE, "style"):
        if el.text and "@font-face" in el.text:
            def hoist(m: re.Match) -> str:
                fonts.append(_CSS_URL.sub(lambda u: f'url("{_relative(u.group(1), base)}")', m.group(0)))
                return ""

            el.text = _FONT_FACE.sub(hoist, el.text)
            if not el.text.strip():
                drop(el)
    _fill_box(root)
    return etree.tostring(root, encoding="unicode"), fonts


def _relative(ref: str, base: str) -> str:
    """A link of a file in `base` as the page names it."""
    if not ref or ref.startswith(("#", "data:")) or _SCHEME.match(ref):
        return ref
    return base + ref


def _fill_box(root) -> None:
    """The root drawn at its box's size (the page sets it), its contents scaled by its viewBox, which a root
    with a size only gets from that size (in px, the user units of such an SVG)."""
    if not root.get("viewBox"):
        try:
            w, h = (parse_length(_with_unit(root.get(k))) * PX_PER_MM for k in ("width", "height"))
        except (ValueError, TypeError):
            w = h = 0
        if w > 0 and h > 0:
            root.set("viewBox", f"0 0 {w:g} {h:g}")
    root.set("width", "100%")
    root.set("height", "100%")


def _with_unit(value: str | None) -> str | None:
    """An SVG length as pnp.units reads it: px (and a bare number, px too) in inches."""
    if value is None:
        return None
    v = value.strip()
    if v.endswith("px"):
        v = v[:-2]
    if v and v[-1].isdigit():
        return f"{float(v) / 96}in"
    if v.endswith("pc"):
        return f"{float(v[:-2]) * 12}pt"
    return v


def _label(name: str) -> str:
    if name.startswith("tts/"):
        return "Tabletop Simulator saved object"
    if name.startswith("print/"):
        return f"Print service report ({name.split('/')[1]})"
    stem = Path(name).stem
    if "-kit-" in stem:
        lang, paper = stem.rsplit("-", 2)[1:]
        ink = ", ink saver" if "-kit-ink-saver-" in stem else ""
        return f"Print-and-play kit ({lang.upper()}, {'Letter' if paper == 'letter' else paper.upper()}{ink})"
    if "-rules-" in stem:
        lang, paper = stem.rsplit("-rules-", 1)[1].split("-", 1)
        return f"Rulebook ({lang.upper()}, {'Letter' if paper == 'letter' else paper.upper()})"
    if stem.endswith("-print-shop"):  # <design>[-<lang>]-print-shop
        lang = stem.removesuffix("-print-shop").rsplit("-", 1)[-1]
        return f"Print-shop PDF ({lang.upper()})" if len(lang) == 2 and lang.isalpha() else "Print-shop PDF"
    return "Print sheets " + stem.rsplit("-", 1)[1].upper() if not stem.endswith("-proof") else "Proof sheets"

