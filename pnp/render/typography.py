"""Each language's typography, applied by the renderer to every text it prints (rulebooks, components, the kit,
the sheets' own words), so no text has to be typed with it.

`typeset(text, lang)` returns `text` as that language prints it. `typeset_runs(runs, lang)` does the same for
the consecutive runs of one paragraph (a bold word, then the text after it), reading across their boundaries
("**Pion** : ..." keeps its no-break space, a quote opened in one run closes in another) and returning as many
runs. `date_text(iso, lang)` writes an ISO date (2026-11-30) as that language reads it (30 novembre 2026).

French (the rules of the Imprimerie nationale's Lexique, as French publishers apply them):

- typographic apostrophe (l'étoile -> l’étoile); "..." and 'a pair' become « ... » with a narrow no-break space
  (U+202F) inside; “curly” quotes too;
- a narrow no-break space (U+202F) before ; ! ? and a no-break space (U+00A0) before : (replacing a space typed
  there, or added). Not where the sign sits inside a word or a number (10:30, a URL's ?q=, key:value): only a
  sign followed by a space, the end, a closing quote or bracket, another sign;
- a no-break space between a number and what it counts or measures (3 cartes, 50 mm, 30 novembre, 63 × 88):
  "revenir à 3 / cartes" never breaks there. "100%" -> "100 %" (U+00A0). Thousands are grouped with U+202F
  (10 000);
- a multiplication sign between two numbers: 63 x 88 -> 63 × 88 (no-break spaces; in English too);
- ranges: "15-20 min" -> "15 à 20 min", everywhere (tables included: "15 à 20" reads in a cell as well as in a
  sentence, and a French reader reads "15-20" as a subtraction or a score). ISO dates and longer runs of
  numbers (06-12-34) are left as they are;
- ordinals in superscript letters: 1er -> 1ᵉʳ, 1re/1ère -> 1ʳᵉ, 2e/2ème -> 2ᵉ, 7es -> 7ᵉˢ, 2nd -> 2ᵈ, 2nde -> 2ᵈᵉ.
  The shipped Latin fonts lack the modifier letters; their extended faces (pnp/fonts/DejaVu*Ext) have them and
  pnp.render.fonts's chain draws them from there (tests/test_typography.py checks both);
- "..." (three dots) -> "…".

English: curly quotes and apostrophes (“ ” ‘ ’), an en dash in number ranges (cards 1-9 -> 1–9), a no-break space
between a number and its unit where a space is typed (50 mm), "..." -> "…".

Line breaking never separates what a no-break space joins (ReportLab's paragraphs, pnp.render.textbox and the
sheets' footers break only at U+0020). The functions are idempotent (typesetting typeset text changes nothing)
and keep markup out of their way: callers pass text runs, never markup, URLs or code. Unknown languages are
returned unchanged.
"""

from __future__ import annotations

import functools
import html
import re

NBSP = "\u00a0"
"""No-break space: before a French colon, between a number and its unit."""
NNBSP = "\u202f"
"""Narrow no-break space: before a French ; ! ? and inside « »."""

LANGUAGES = ("en", "fr")
"""The languages with their own typography here."""

_SEP = "\x00"  # between runs (control characters never reach a printed run: the renderers drop them first)
_SPACES = " \t" + NBSP + NNBSP + "\u2009"
_OPENERS = "([{«“‘—–-/" + _SPACES
_LETTER = re.compile(r"[^\W\d_]")
_WORD = re.compile(r"\w")

# --- numbers ----------------------------------------------------------------------------------------------------

_ORDINALS = {
    "er": "ᵉʳ", "ers": "ᵉʳˢ", "re": "ʳᵉ", "res": "ʳᵉˢ", "ère": "ʳᵉ", "ères": "ʳᵉˢ",
    "e": "ᵉ", "es": "ᵉˢ", "ème": "ᵉ", "èmes": "ᵉˢ", "nd": "ᵈ", "nds": "ᵈˢ", "nde": "ᵈᵉ", "ndes": "ᵈᵉˢ",
}
_ORDINAL = re.compile(r"(?<![\w.,])(\d+)(" + "|".join(sorted(_ORDINALS, key=len, reverse=True)) + r")(?!\w)")
_RANGE = re.compile(r"(?<![\w\-–/.,:])(\d+)[-–](\d+)(?![\w\-–/.,]|[.,]\d|:\d)")
_THOUSANDS = re.compile(r"(?<![\d.,\w])([1-9]\d{0,2})((?: \d{3})+)(?![\d\w]|[.,]\d)")
_PERCENT = re.compile(r"(\d)[ \u202f\u00a0]?%")
_UNITS = ("mm", "cm", "dm", "km", "m", "mg", "kg", "g", "min", "ms", "s", "h", "pt", "px", "in", "g/m²", "m²",
          "cm²", "mm²", "°C", "€", "kB", "MB", "Mo", "Ko", "dpi")
_UNIT = re.compile(r"(\d)( ?)(" + "|".join(re.escape(u) for u in sorted(_UNITS, key=len, reverse=True))
                   + r")(?![\w/²])")
_UNIT_SPACED = re.compile(r"(\d) (" + "|".join(re.escape(u) for u in sorted(_UNITS, key=len, reverse=True))
                          + r")(?![\w/²])")
_COUNTED = re.compile(r"(\d[ᵉʳˢᵈ]*) (?=[^\W\d_]|[×%])")
_TIMES = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?) ?[×x] ?(?=\d)")
_ELLIPSIS = re.compile(r"(?<!\.)\.\.\.(?!\.)")


def _xml_escape(text: str) -> str:
    """&, < and > as XML entities (xml.sax.saxutils.escape's work, without its 14 ms of imports: urllib, ssl)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _fr_numbers(s: str) -> str:
    s = _ORDINAL.sub(lambda m: m.group(1) + _ORDINALS[m.group(2)], s)
    s = _RANGE.sub(lambda m: f"{m.group(1)}{NBSP}à{NBSP}{m.group(2)}", s)
    s = _THOUSANDS.sub(lambda m: m.group(1) + m.group(2).replace(" ", NNBSP), s)
    s = _PERCENT.sub(lambda m: m.group(1) + NBSP + "%", s)
    s = _TIMES.sub(lambda m: f"{m.group(1)}{NBSP}×{NBSP}", s)
    s = _UNIT.sub(lambda m: m.group(1) + NBSP + m.group(3) if m.group(3) != "in" or m.group(2) else m.group(0), s)
    return _COUNTED.sub(lambda m: m.group(1) + NBSP, s)


def _en_numbers(s: str) -> str:
    s = _RANGE.sub(lambda m: f"{m.group(1)}–{m.group(2)}", s)
    s = _TIMES.sub(lambda m: f"{m.group(1)}{NBSP}×{NBSP}", s)
    return _UNIT_SPACED.sub(lambda m: m.group(1) + NBSP + m.group(2), s)


# --- punctuation and quotes -------------------------------------------------------------------------------------


class _Text:
    """The joined runs, read around a position with the runs' separators (and, where asked, spaces) skipped."""

    def __init__(self, s: str):
        self.s = s

    def before(self, i: int, spaces: bool = False) -> str:
        skip = _SEP + (_SPACES if spaces else "")
        while i > 0:
            i -= 1
            if self.s[i] not in skip:
                return self.s[i]
        return ""

    def after(self, i: int, spaces: bool = False) -> str:
        skip = _SEP + (_SPACES if spaces else "")
        while i + 1 < len(self.s):
            i += 1
            if self.s[i] not in skip:
                return self.s[i]
        return ""


def _trim_spaces(out: list[str]) -> None:
    """Remove the spaces at the end of `out`, keeping the runs' separators among them."""
    seps = 0
    while out and out[-1] in _SPACES + _SEP:
        seps += out.pop() == _SEP
    out.extend(_SEP * seps)


def _skip_spaces(s: str, i: int, out: list[str]) -> int:
    """The index after the spaces from `i` (the separators among them kept in `out`)."""
    while i < len(s) and s[i] in _SPACES + _SEP:
        if s[i] == _SEP:
            out.append(_SEP)
        i += 1
    return i


def _closing_single(s: str, i: int) -> int | None:
    """Where the ' opened at `i` closes: the next ' after a non-space and before a non-letter, else None."""
    for j in range(i + 1, len(s)):
        if s[j] == "'" and s[j - 1] not in _SPACES and not _LETTER.match(s[j + 1:j + 2] or " "):
            return j
        if s[j] == "\n":
            return None
    return None


def _punctuation(s: str, lang: str) -> str:
    t = _Text(s)
    fr = lang == "fr"
    out: list[str] = []
    closing_at: set[int] = set()
    i = 0
    while i < len(s):
        ch = s[i]
        if ch in ":;!?" and fr:
            prev, nxt = t.before(i), t.after(i)
            spaced = prev in _SPACES and prev != ""
            word_before = t.before(i, spaces=True)
            inside = nxt != "" and (_WORD.match(nxt) or nxt in "/=&") and not spaced  # 10:30, ?q=, key:value
            if word_before and not inside and word_before not in "([«" and not (ch != ":" and prev in "!?"):
                _trim_spaces(out)
                if not (out and out[-1] in "!?:;" and ch in "!?"):
                    out.append(NBSP if ch == ":" else NNBSP)
            out.append(ch)
            i += 1
            continue
        if ch == '"' or (fr and ch in "“”"):
            prev = t.before(i)
            opening = ch == "“" or (ch == '"' and (prev == "" or prev in _OPENERS))
            if fr and opening:
                out.append("«" + NNBSP)
                i = _skip_spaces(s, i + 1, out)
                continue
            if fr:
                _trim_spaces(out)
                out.append(NNBSP + "»")
            else:
                out.append("“" if opening else "”")
            i += 1
            continue
        if fr and ch == "«":
            out.append("«" + NNBSP)
            i = _skip_spaces(s, i + 1, out)
            continue
        if fr and ch == "»":
            _trim_spaces(out)
            out.append(NNBSP + "»")
            i += 1
            continue
        if ch == "'":
            prev, nxt = t.before(i), t.after(i)
            if i in closing_at:
                out.append(NNBSP + "»" if fr else "’")
            elif (prev == "" or prev in _OPENERS) and nxt and _WORD.match(nxt):
                j = _closing_single(s, i)
                if fr and j is not None:
                    closing_at.add(j)
                    out.append("«" + NNBSP)
                elif not fr:
                    out.append("‘")
                else:
                    out.append("’")
            else:
                out.append("’")
            i += 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


# --- the API ----------------------------------------------------------------------------------------------------


def typeset(text: str, lang: str) -> str:
    """`text` as `lang` prints it (see the module's docstring); unknown languages are returned unchanged."""
    if lang not in LANGUAGES or not text:
        return text
    return _typeset(text, lang)


@functools.lru_cache(maxsize=8192)
def _typeset(text: str, lang: str) -> str:  # (a pure function of its text: each sheet's footer asks again)
    return typeset_runs([text], lang)[0]


def typeset_runs(runs: list[str], lang: str) -> list[str]:
    """The runs of one paragraph typeset together (what one run ends, the next one's punctuation sees), one
    typeset run for each."""
    if lang not in LANGUAGES or not any(runs):
        return list(runs)
    s = _SEP.join(r.replace(_SEP, "") for r in runs)
    s = _ELLIPSIS.sub("…", s)
    s = _fr_numbers(s) if lang == "fr" else _en_numbers(s)
    s = _punctuation(s, lang)
    out = s.split(_SEP)
    assert len(out) == len(runs), (runs, out)
    return out


MONTHS = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"),
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
           "novembre", "décembre"),
}
_ISO = re.compile(r"^\s*(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?\s*$")


def date_text(iso: object, lang: str) -> str:
    """An ISO date (2026-11-30, 2026-11 or 2026; a datetime.date too) as `lang` writes it: "30 novembre 2026",
    "1ᵉʳ mai 2026", "30 November 2026"; anything else (or an unknown language) as it is, typeset."""
    text = iso.isoformat() if hasattr(iso, "isoformat") else str(iso)
    m = _ISO.match(text)
    months = MONTHS.get(lang)
    if not m or months is None:
        return typeset(text, lang)
    year, month, day = m.group(1), m.group(2), m.group(3)
    if month is None:
        return year
    if not 1 <= int(month) <= 12 or (day is not None and not 1 <= int(day) <= 31):
        return typeset(text, lang)
    name = months[int(month) - 1]
    if day is None:
        return f"{name} {year}"
    d = int(day)
    first = "1er" if lang == "fr" and d == 1 else str(d)
    return typeset(f"{first} {name} {year}", lang)


# --- an SVG's texts: each text node typeset, markup untouched ----------------------------------------------------

SVG_SKIPPED = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<style\b.*?</style>|<\?.*?\?>"
                         r"|<text\b[^>]*\bdata-typeset=\"as-written\"[^>]*>.*?</text>", re.S)
"""What typeset_svg leaves as it is: comments, CDATA, CSS, processing instructions, and the texts set as written
(a text box's `| literal` text or markup=false: pnp.render.textbox marks them data-typeset="as-written")."""
SVG_TEXT_RUN = re.compile(r">([^<]*[^\s<][^<]*)<")


def typeset_svg(svg: str, lang: str, face_lang: str = "") -> str:
    """A face's SVG with every text node as `lang` prints it (pnp.render.typography.typeset: one run of text at a
    time; CSS, comments and markup untouched), and, with `face_lang` (a face that is drawn in one language),
    xml:lang and lang on its root. A text typeset already stays as it is (typeset is idempotent): the bytes
    change only where a text does."""
    if ">" in svg:
        parts, last = [], 0
        for m in SVG_SKIPPED.finditer(svg):
            parts.append(_typeset_runs(svg[last:m.start()], lang))
            parts.append(m.group(0))
            last = m.end()
        parts.append(_typeset_runs(svg[last:], lang))
        svg = "".join(parts)
    if face_lang:
        start = svg.find("<svg")
        if start >= 0 and not re.match(r"<svg\b[^>]*\bxml:lang=", svg[start:]):
            at = start + len("<svg")
            svg = f'{svg[:at]} xml:lang="{face_lang}" lang="{face_lang}"{svg[at:]}'
    return svg


def _typeset_runs(part: str, lang: str) -> str:
    def one(m: re.Match) -> str:
        raw = m.group(1)
        text = html.unescape(raw) if "&" in raw else raw
        done = typeset(text, lang)
        return m.group(0) if done == text else ">" + _xml_escape(done) + "<"

    return SVG_TEXT_RUN.sub(one, part)
