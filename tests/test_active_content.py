"""Active content (issue 29): nothing a browser would run reaches the SVG files pnp writes.

A template, a ready `svg:` face, an icon and an SVG art file each carry a script, event handlers, animation that
sets a link, HTML, CSS imports and fetches, in the forms that hide them (character references, CSS escapes, upper
case, another namespace prefix). The written files (svg/, svg/art/) are read back here by `active()`, a reader of
its own (not pnp's whitelist): it lists what a browser would run or fetch. Each removal is a warning with its file
and line (the template's line and the row; the SVG file's own line), given again when the face comes from the
cache; a face without any keeps its bytes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clirun import run
from lxml import etree

SVG_NS, XLINK_NS = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"
EXPECTED = 'expected only what pnp draws (docs/design-format.md, "Limits and safety")'
CSS = ('CSS that fetches a file or runs code; expected CSS that refers to nothing but #ids and data: images '
       '(docs/design-format.md, "Limits and safety")')
RUNS = f"a browser would run it; {EXPECTED}"
HANDLER = f"an event handler, which a browser would run; {EXPECTED}"

_RUNNING = {"script", "foreignobject", "set", "animate", "animatetransform", "animatemotion", "animatecolor",
            "iframe", "embed", "object", "handler", "listener"}
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6}\s?|.)")


def _css(text: str) -> str:
    return _CSS_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)) if re.fullmatch(r"[0-9a-fA-F]{1,6}\s?", m.group(1))
                           else m.group(1), text).lower()


def active(data: bytes | str) -> list[str]:
    """What in an SVG file a browser would run, follow out of it or fetch (empty: nothing)."""
    raw = data.encode() if isinstance(data, str) else data
    root = etree.fromstring(raw, etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))
    found = []
    nodes = [*root.itersiblings(preceding=True), *root.itersiblings(), *root.iter()]
    for el in nodes:
        if el.tag is etree.PI:
            found.append(f"<?{el.target}?>")
            continue
        if not isinstance(el.tag, str):
            continue
        q = etree.QName(el)
        if q.localname.lower() in _RUNNING or q.namespace not in (None, SVG_NS):
            if not (q.namespace or "").startswith(("http://www.inkscape.org/", "http://sodipodi.")):
                found.append(f"<{q.localname}> ({q.namespace})")
        for name, value in el.attrib.items():
            local = etree.QName(name).localname
            if local.lower().startswith("on"):
                found.append(f"{local}=")
            if local in ("href", "base") or name.endswith("}base"):
                ref = re.sub(r"[\t\n\r]", "", value).strip().lower()
                if not (ref.startswith("#") or ref.startswith("data:image/")
                        or (q.localname == "image" and not re.match(r"^[a-z][a-z0-9+.-]*:", ref))):
                    found.append(f"{local}={value!r}")
            if name == "style" or "(" in value:
                css = _css(value)
                if ("url(" in css and not re.fullmatch(r"[^(]*url\(\s*['\"]?#[^)]*\)[^(]*", css)) or re.search(
                        r"(image-set|image|cross-fade|element|expression)\(", css):
                    found.append(f"{local}: {value!r}")
        if q.localname == "style" and el.text:
            css = _css(el.text)
            if "@import" in css or re.search(r"url\(\s*(?!['\"]?\s*(?:#|data:image|art/fonts/))", css):
                found.append(f"<style> {el.text!r}")
    return found


def _design(tmp_path: Path, template: str, rows: int = 2, extra: str = "") -> Path:
    d = tmp_path / "d"
    (d / "templates").mkdir(parents=True)
    (d / "design.yaml").write_text("meta: {title: Active, players: 2}\ncomponents:\n  cards:\n    kind: card\n"
                                   "    size: poker\n    data: cards.csv\n    template: front.svg.j2\n" + extra,
                                   encoding="utf-8")
    (d / "cards.csv").write_text("title,count\n" + "".join(f"Card {i},1\n" for i in range(1, rows + 1)),
                                 encoding="utf-8")
    (d / "templates" / "front.svg.j2").write_text(template, encoding="utf-8")
    return d


def _warnings(output: str) -> list[str]:
    return [line for line in output.splitlines() if ": warning: " in line]


BODY = '<rect x="0" y="0" width="63" height="88" fill="#204080"/>\n<text x="5" y="10" font-size="5">{{ title }}</text>\n'

# (the template line that carries it, the warning pnp gives at that line)
TEMPLATE_CASES = [
    ('<script>document.title = "ran"</script>', f"<script> removed from the SVG: {RUNS}"),
    ('<SCRIPT>alert(1)</SCRIPT>', f"<SCRIPT> removed from the SVG: {RUNS}"),
    ('<s:script xmlns:s="http://www.w3.org/2000/svg">alert(1)</s:script>', f"<s:script> removed from the SVG: {RUNS}"),
    ('<rect width="5" height="5" onload="alert(1)"/>', f'onload="alert(1)" removed from <rect>: {HANDLER}'),
    ('<rect width="5" height="5" ONMOUSEOVER="alert(1)"/>', f'ONMOUSEOVER="alert(1)" removed from <rect>: {HANDLER}'),
    ('<a href="#x"><set attributeName="href" to="jav&#x61;script:alert(1)"/><text y="30">go</text></a>',
     f"<set> removed from the SVG: {RUNS}"),
    ('<animate attributeName="href" values="javascript:alert(1)"/>', f"<animate> removed from the SVG: {RUNS}"),
    ('<foreignObject width="9" height="9"><div xmlns="http://www.w3.org/1999/xhtml"><img src="data:image/png,x" '
     'onerror="alert(1)"/></div></foreignObject>', f"<foreignObject> removed from the SVG: {RUNS}"),
    ('<h:iframe xmlns:h="http://www.w3.org/1999/xhtml" srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"/>',
     f"<h:iframe> removed from the SVG: {RUNS}"),
    ('<h:p xmlns:h="http://www.w3.org/1999/xhtml">hi</h:p>',
     f"<h:p> removed from the SVG: an element of another vocabulary than SVG (a browser may run it); {EXPECTED}"),
    ('<style>@\\69mport "../secret/secret.css"; .a {fill: red}</style>',
     f'@\\69mport "../secret/secret.css" removed from <style>: {CSS}'),
    ('<style>@import url(data:text/css,rect{fill:red});</style>',
     f"@import url(data:text/css,rect{{fill:red}}) removed from <style>: {CSS}"),
    ('<rect width="5" height="5" style="fill: u\\72l(http://evil.example/x.svg#a); stroke: red"/>',
     f"fill: u\\72l(http://evil.example/x.svg#a) removed from the style of <rect>: {CSS}"),
    ('<rect width="5" height="5" mask="image-set(&apos;http://evil.example/t.png&apos; 1x)"/>',
     f"mask=\"image-set('http://evil.example/t.png' 1x)\" removed from <rect>: {CSS}"),
    ('<?xml-stylesheet type="text/css" href="data:text/css,rect{fill:red}"?>',
     f"<?xml-stylesheet?> removed from the SVG: a browser would apply it (it loads another file); {EXPECTED}"),
]


@pytest.mark.parametrize("payload, message", TEMPLATE_CASES, ids=[str(i) for i in range(len(TEMPLATE_CASES))])
def test_active_content_of_a_template_is_removed_with_a_warning_at_its_line_and_rows(tmp_path, payload, message):
    _design(tmp_path, BODY + payload + "\n")
    result = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    assert result.exit_code == 0, result.output
    assert _warnings(result.output) == [f"d/templates/front.svg.j2:3: warning: {message} (2 rows: d/cards.csv:2, "
                                        "d/cards.csv:3)"]
    svg = tmp_path / "out" / "d" / "svg"
    for name in ("cards-1.svg", "cards-2.svg"):
        text = (svg / name).read_text(encoding="utf-8")
        assert active(text) == [], name
        assert "Card" in text and 'fill="#204080"' in text  # what draws stays
    # the PDF is made from the same clean SVG: it still draws the card
    assert (tmp_path / "out" / "d" / "d-a4.pdf").stat().st_size > 1000


def test_the_reader_of_this_test_sees_each_payload(tmp_path):
    """(So that the test above can fail: each payload, written as it is, is active content to `active`.)"""
    for payload, _ in TEMPLATE_CASES:
        svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9">{BODY}{payload}</svg>'.replace(
            "{{ title }}", "x")
        if payload.startswith("<?"):
            svg = payload + "\n" + svg
        assert active(svg), payload


def test_warnings_are_given_again_when_the_faces_come_from_the_cache(tmp_path):
    d = _design(tmp_path, BODY + '<rect width="5" height="5" onclick="alert(1)"/>\n<script>alert(2)</script>\n'
                '<image href="art/a.svg" width="9" height="9"/>\n',
                extra="  tile:\n    kind: card\n    size: poker\n    svg: ready.svg\n")
    (d / "ready.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm">\n'
                                 '<rect width="9" height="9" onload="alert(3)"/>\n</svg>\n', encoding="utf-8")
    (d / "art").mkdir()
    (d / "art" / "a.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9">\n'
                                     '<script>alert(4)</script>\n<rect width="9" height="9"/>\n</svg>\n')
    first = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    second = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    assert first.exit_code == second.exit_code == 0
    expected = [f"d/art/a.svg:2: warning: <script> removed from the SVG: {RUNS}",
                f'd/templates/front.svg.j2:3: warning: onclick="alert(1)" removed from <rect>: {HANDLER} '
                "(2 rows: d/cards.csv:2, d/cards.csv:3)",
                f"d/templates/front.svg.j2:4: warning: <script> removed from the SVG: {RUNS} (2 rows: d/cards.csv:2, "
                "d/cards.csv:3)",
                f'd/ready.svg:2: warning: onload="alert(3)" removed from <rect>: {HANDLER}']
    assert sorted(_warnings(first.output)) == sorted(expected)
    assert "0 written" in second.output and sorted(_warnings(second.output)) == sorted(expected)


def test_a_face_without_active_content_keeps_its_bytes(tmp_path):
    """Row 1 carries a script, row 2 nothing: row 2's face is the one the same template without the script makes,
    byte for byte; and nothing pnp writes itself is touched (its source comment, the xlink namespace)."""
    line = '{% if index == 1 %}<script>alert(1)</script><rect width="1" height="1" onload="x()"/>{% endif %}\n'
    _design(tmp_path / "a", BODY + line)
    _design(tmp_path / "b", BODY + "{% if index == 1 %}{% endif %}\n")
    for folder in ("a", "b"):
        assert run(["build", "d", "--out", "out", "--no-exports"], tmp_path / folder).exit_code == 0
    a, b = (tmp_path / f / "out" / "d" / "svg" for f in ("a", "b"))
    assert (a / "cards-2.svg").read_bytes() == (b / "cards-2.svg").read_bytes()
    assert (a / "cards-1.svg").read_bytes() != (b / "cards-1.svg").read_bytes()
    assert active((a / "cards-1.svg").read_bytes()) == []


READY = """<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="63mm" height="88mm"
     viewBox="0 0 63 88" onload="alert(1)">
<rect width="63" height="88" fill="#208040"/>
<script type="text/ecmascript"><![CDATA[ alert(2) ]]></script>
<a xlink:href="#top"><text x="5" y="10" font-size="5" onclick="alert(3)">Ready</text></a>
<style>rect { fill: u\\72l( 'javascript:alert(4)' ) }</style>
</svg>
"""


def test_a_ready_svg_face_is_written_without_its_active_content(tmp_path):
    d = _design(tmp_path, BODY, rows=1, extra="  tile:\n    kind: card\n    size: poker\n    svg: ready.svg\n")
    (d / "ready.svg").write_text(READY, encoding="utf-8")
    result = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    assert result.exit_code == 0, result.output
    assert _warnings(result.output) == [
        f'd/ready.svg:2: warning: onload="alert(1)" removed from <svg>: {HANDLER}',  # (the line of the handler)
        f"d/ready.svg:4: warning: <script> removed from the SVG: {RUNS}",
        f'd/ready.svg:5: warning: onclick="alert(3)" removed from <text>: {HANDLER}',
        f"d/ready.svg:6: warning: fill: u\\72l( 'javascript:alert(4)' ) removed from <style>: {CSS}",
    ]
    text = (tmp_path / "out" / "d" / "svg" / "tile-face.svg").read_text(encoding="utf-8")
    assert active(text) == []
    assert 'fill="#208040"' in text and ">Ready</text>" in text and 'xlink:href="#top"' in text


ART = """<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/css" href="https://evil.example/x.css"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" width="20"
     height="20" viewBox="0 0 20 20">
  <g inkscape:label="Layer 1" onmouseover="alert(1)">
    <circle cx="10" cy="10" r="8" fill="#c03030"/>
  </g>
  <foreignObject width="20" height="20"><body xmlns="http://www.w3.org/1999/xhtml"><script>alert(2)</script></body>
  </foreignObject>
  <a href="https://evil.example/"><rect width="1" height="1"/></a>
</svg>
"""


def test_an_svg_art_file_is_copied_to_svg_art_without_its_active_content(tmp_path):
    d = _design(tmp_path, BODY + '<image href="art/ship.svg" x="5" y="20" width="40" height="40"/>\n')
    (d / "art").mkdir()
    (d / "art" / "ship.svg").write_text(ART, encoding="utf-8")
    (d / "art" / "clean.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><rect '
                                         'width="9" height="9"/></svg>\n', encoding="utf-8")
    (d / "templates" / "back.svg.j2").write_text('<image href="art/clean.svg" width="9" height="9"/>\n')
    text = (d / "design.yaml").read_text(encoding="utf-8") + "    back: {template: back.svg.j2}\n"
    (d / "design.yaml").write_text(text, encoding="utf-8")
    result = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    assert result.exit_code == 0, result.output
    assert _warnings(result.output) == [
        "d/art/ship.svg:2: warning: <?xml-stylesheet?> removed from the SVG: a browser would apply it (it loads another "
        f"file); {EXPECTED}",
        f'd/art/ship.svg:5: warning: onmouseover="alert(1)" removed from <g>: {HANDLER}',
        f"d/art/ship.svg:8: warning: <foreignObject> removed from the SVG: {RUNS}",
        'd/art/ship.svg:10: warning: href="https://evil.example/" removed from <a>: a link out of the SVG, '
        "which a browser would follow; expected #id (on <image>: an image file of the design or a data:image/ URI) "
        '(docs/design-format.md, "Limits and safety")',
    ]
    out = tmp_path / "out" / "d" / "svg"
    copy = (out / "art" / "art" / "ship.svg").read_bytes()
    assert active(copy) == []
    assert b'fill="#c03030"' in copy and b'inkscape:label="Layer 1"' in copy  # the drawing and the editor's layer
    assert (out / "art" / "art" / "clean.svg").read_bytes() == (d / "art" / "clean.svg").read_bytes()
    face = (out / "cards-1.svg").read_text(encoding="utf-8")
    assert 'href="art/art/ship.svg"' in face and active(face) == []


def test_an_icon_is_inlined_without_its_active_content(tmp_path):
    d = _design(tmp_path, BODY + '{{ textbox("A :bolt: here", x=5, y=20, width=50, height=10, size=4) }}\n')
    (d / "icons").mkdir()
    (d / "icons" / "bolt.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n<path d="M0 0 L10 10" stroke="#000"/>\n'
        '<set attributeName="onclick" to="alert(1)"/>\n<path d="M10 0 L0 10" stroke="#000" onclick="alert(2)"/>\n'
        '</svg>\n', encoding="utf-8")
    result = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    assert result.exit_code == 0, result.output
    assert _warnings(result.output) == [
        f"d/icons/bolt.svg:3: warning: <set> removed from the SVG: {RUNS}",
        f'd/icons/bolt.svg:4: warning: onclick="alert(2)" removed from <path>: {HANDLER}',
    ]
    text = (tmp_path / "out" / "d" / "svg" / "cards-1.svg").read_text(encoding="utf-8")
    assert active(text) == [] and text.count('stroke="#000"') == 2


def test_a_link_to_a_url_in_a_template_stays_an_error(tmp_path):
    """What names another file or URL is refused, as before (pnp reads no file an SVG names): removed with a
    warning is what pnp never reads nor follows."""
    _design(tmp_path, BODY + '<a href="javascript:alert(1)"><text y="30">go</text></a>\n')
    result = run(["build", "d", "--out", "out", "--no-exports"], tmp_path)
    assert result.exit_code == 2
    assert ("d/templates/front.svg.j2: the SVG it makes (filling 2 rows: d/cards.csv:2, d/cards.csv:3) refers to "
            "'javascript:alert(1)'; "
            "expected only #ids and data: URIs") in result.output
    _design(tmp_path / "imp", BODY + '<style>@import "../secret/secret.css";</style>\n')
    result = run(["build", "d", "--out", "out", "--no-exports"], tmp_path / "imp")
    assert result.exit_code == 2
    assert "refers to '../secret/secret.css'" in result.output


# --- the whitelist itself -------------------------------------------------------------------------------------

def test_clean_text_keeps_the_very_text_of_an_svg_with_nothing_to_remove():
    from pnp.render import sanitise

    for path in sorted((Path(__file__).parent / "fixtures" / "svgpdf").glob("*.svg")):
        text = path.read_text(encoding="utf-8")
        out, _, removed = sanitise.clean_text(text)
        assert out is text and removed == [], path.name


def test_what_pnp_writes_itself_passes():
    from pnp.render import sanitise

    font = ('@font-face {font-family: "Deck \\"C\\""; font-weight: bold; font-style: normal; '
            'src: url("art/fonts/C-Bold.ttf")} /* 0123abcd */')
    assert sanitise.clean_stylesheet(font) == (font, [])
    assert sanitise.clean_stylesheet("@media print { .a { fill: url(#g) } } :not(.b) { stroke: rgb(1, 2, 3) }")[1] == []
    for href in ("#a", "data:image/png;base64,AAAA", "art/ship.svg", "icons/a b.png"):
        assert sanitise.link_ok("image", href), href
    for href in ("javascript:alert(1)", " JaVa\tScRiPt:x", "vbscript:x", "data:text/html,x", "/etc/passwd",
                 "https://x.example/a.png", "\x01javascript:x"):
        assert not sanitise.link_ok("image", href), href
    assert not sanitise.link_ok("a", "art/ship.svg") and sanitise.link_ok("use", "#s")


@pytest.mark.parametrize("css", [
    "@import 'x.css';", "@IMPORT url(x.css);", "@\\69mport 'x';", "a{behavior:url(x.htc)}", "a{-moz-binding:url(x)}",
    "a{fill:url(http://x)}", "a{fill:URL(http://x)}", "a{fill:u\\rl(http://x)}", "a{fill:url(/*c*/http://x)}",
    "a{fill:image-set('x.png' 1x)}", "a{fill:expression(alert(1))}", "@font-face{src:url(http://x/f.ttf)}",
    "@media all{a{fill:url('//x/y')}}", "a{fill:url(data:text/html,x)}", "a{fill:red}}}@import 'x';",
])
def test_css_that_fetches_or_runs_goes(css):
    from pnp.render import sanitise

    out, gone = sanitise.clean_stylesheet(css)
    assert gone and active(f'<svg xmlns="{SVG_NS}"><style>{out}</style></svg>') == [], (css, out)
    decoded = _css(out)
    assert "@import" not in decoded and "http" not in decoded and "behavior" not in decoded and "binding" not in \
        decoded and "expression" not in decoded and "image-set" not in decoded, (css, out)


@pytest.mark.parametrize("svg, gone", [
    ("<style>a{fill:red}<title/>@import 'x.css';</style>", ["<title> removed from <style>", "@import 'x.css' removed"]),
    ("<style>a{fill:red}<!-- c -->@import 'x.css';</style>", ["@import 'x.css' removed"]),
    ("<style><![CDATA[ @import 'x.css'; ]]></style>", ["@import 'x.css' removed"]),
    ('<rect xmlns:i="http://www.inkscape.org/namespaces/inkscape" i:onload="x()" i:label="kept"/>',
     ['i:onload="x()" removed from <rect>']),
    ('<rect xml:base="https://evil.example/" HREF="javascript:x()" data-note="kept"/>',
     ['xml:base="https://evil.example/" removed from <rect>', 'HREF="javascript:x()" removed from <rect>']),
])
def test_what_hides_beside_a_kept_element_goes_too(svg, gone):
    """Text after a style's child element or comment is CSS to a browser; an editor's namespace does not make an
    event handler harmless; an attribute in another case is not the one on the list."""
    from pnp.render import sanitise

    text, _, removed = sanitise.clean_text(f'<svg xmlns="{SVG_NS}">{svg}</svg>')
    assert [next(m for m in (r.message for r in removed) if m.startswith(g)) for g in gone]
    assert len(removed) == len(gone), [r.message for r in removed]
    assert active(text) == [] and "@import" not in text and "onload" not in text and "HREF" not in text
    assert "kept" in text or "kept" not in svg
