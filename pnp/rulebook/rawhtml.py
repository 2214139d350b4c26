"""Raw HTML in a rules text, as Markdown lets a designer write it (`a <b>bold</b> word`, `<br>`, `<!-- note -->`).

A small subset is understood, turned into ReportLab's paragraph markup: `<br>` a line break; `<b>` `<strong>`,
`<i>` `<em>`, `<u>` `<ins>`, `<s>` `<del>` `<strike>`, `<sup>`, `<sub>` and `<code>` runs (without attributes);
comments are dropped. Any other tag, and a closing tag with nothing open to close, is printed as written, and the
caller warns about it (file:line). Runs are always balanced: what is still open is closed at the end of the
Markdown run it opened in (a paragraph, a `**bold**`, a link), as a browser closes it at the end of its element, and
a closing tag closes only what its own run opened (`<b>x **y</b>**`: that `</b>` is printed).
"""

from __future__ import annotations

import re

RUNS = {"b": "b", "strong": "b", "i": "i", "em": "i", "u": "u", "ins": "u", "s": "strike", "del": "strike",
        "strike": "strike", "sup": "super", "sub": "sub", "code": "code"}
"""HTML tag -> ReportLab paragraph tag ("code": the layout's inline-code run)."""

UNDERSTOOD = "<b> <strong> <i> <em> <u> <ins> <s> <del> <sup> <sub> <code> <br> and <!-- comments -->"

_PIECE = re.compile(r"<!--.*?(?:-->|\Z)|<[^<>]*>", re.S)
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)(\s[^<>]*?)?\s*(/?)>", re.S)


def pieces(html: str) -> list[tuple[str, str]]:
    """`html` cut into ("comment" | "tag" | "text", what is written), in order."""
    out: list[tuple[str, str]] = []
    at = 0
    for m in _PIECE.finditer(html):
        if m.start() > at:
            out.append(("text", html[at:m.start()]))
        out.append(("comment" if m.group().startswith("<!--") else "tag", m.group()))
        at = m.end()
    if at < len(html):
        out.append(("text", html[at:]))
    return out


def tag_name(raw: str) -> str:
    """`<span class="x">` -> "<span>": how a warning names a tag (the first 20 characters of anything else)."""
    m = _TAG.fullmatch(raw.strip())
    return f"<{m.group(1)}{m.group(2).lower()}>" if m else raw.strip()[:20]


class Runs:
    """The HTML runs open in each Markdown run (a stack of scopes), turned into ReportLab markup."""

    def __init__(self, code: tuple[str, str]):
        self.code = code  # the opening and closing markup of an inline code run
        self.scopes: list[list[str]] = [[]]

    def _open(self, name: str) -> str:
        rl = RUNS[name]
        return self.code[0] if rl == "code" else f"<{rl}>"

    def _close(self, name: str) -> str:
        rl = RUNS[name]
        return self.code[1] if rl == "code" else f"</{rl}>"

    def tag(self, raw: str) -> str | None:
        """The markup of one tag, or None when it is not understood (then printed as written)."""
        m = _TAG.fullmatch(raw.strip())
        if not m or (m.group(3) or "").strip():
            return None
        closing, name, self_closing = m.group(1) == "/", m.group(2).lower(), m.group(4) == "/"
        if name == "br":
            return "<br/>"
        if name not in RUNS or self_closing:
            return None
        scope = self.scopes[-1]
        if not closing:
            scope.append(name)
            return self._open(name)
        if name not in scope:
            return None
        at = len(scope) - 1 - scope[::-1].index(name)  # the last one open; those opened after it are closed and
        inner = scope[at + 1:]  # opened again around the closing tag (HTML's misnested `<b><i></b></i>`)
        del scope[at:]
        scope.extend(inner)
        return ("".join(self._close(n) for n in reversed(inner)) + self._close(name)
                + "".join(self._open(n) for n in inner))

    def begin(self) -> None:
        """A Markdown run starts (`**`, a link...): the tags opened in it are closed when it ends."""
        self.scopes.append([])

    def end(self) -> str:
        """The Markdown run ends: the markup that closes what is still open in it."""
        scope = self.scopes.pop() if len(self.scopes) > 1 else self.scopes[0]  # (the outermost one stays)
        out = "".join(self._close(n) for n in reversed(scope))
        scope.clear()
        return out

    def closing(self) -> str:
        """What closes every run open now (a paragraph cut by an image), without forgetting them."""
        return "".join(self._close(n) for scope in reversed(self.scopes) for n in reversed(scope))

    def reopening(self) -> str:
        """What opens again every run `closing` closed."""
        return "".join(self._open(n) for scope in self.scopes for n in scope)
