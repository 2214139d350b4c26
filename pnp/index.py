"""`output/<design>/index.html`: a contact sheet of every component with counts, the validation
report and links to the PDFs. Plain HTML with relative links: it opens from disk, no server."""

from __future__ import annotations

from pathlib import Path

import jinja2

from pnp.loader import templates_dir


def render_index(design, components, face_path, files: list[str], report) -> str:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())), autoescape=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    links = [{"href": f, "label": _label(f)} for f in sorted(files) if f.endswith(".pdf")]
    links += [{"href": f, "label": _label(f)} for f in sorted(files) if f.startswith(("tts/", "print/"))]
    links += [{"href": "manifest.json", "label": "manifest.json"}]
    comps = []
    for cf in components:
        faces = [{"src": face_path(cf.component_id, f), "count": f.count, "label": f.label or f.key,
                  "alt": f"{cf.component_id} {f.key}"} for f in cf.fronts]
        for back in cf.backs:
            count = cf.copies if len(cf.backs) == 1 else back.count
            faces.append({"src": face_path(cf.component_id, back), "count": count, "label": back.key,
                          "alt": f"{cf.component_id} {back.key}"})
        comps.append({"id": cf.component_id, "name": cf.component.display_name("en") or cf.component_id,
                      "kind": cf.component.kind, "faces": faces, "copies": cf.copies, "fronts": len(cf.fronts),
                      "back": cf.back is not None})
    return env.get_template("index.html.j2").render(
        meta=design.meta, slug=design.slug, links=links, components=comps, report=report,
        total_faces=sum(len(c["faces"]) for c in comps), total_copies=sum(c["copies"] for c in comps))


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
    if stem.endswith("-print-shop"):
        return "Print-shop PDF"
    return "Print sheets " + stem.rsplit("-", 1)[1].upper() if not stem.endswith("-proof") else "Proof sheets"
