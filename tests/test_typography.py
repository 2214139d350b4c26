"""pnp.render.typography: French and English typography on hand-made sentences, idempotence, the fonts' glyphs,
and line breaking that never separates what a no-break space joins (ReportLab's paragraphs, textbox())."""

from __future__ import annotations

import io

import pytest
from fontTools.ttLib import TTFont

from pnp.render import fonts
from pnp.render.typography import NBSP, NNBSP, date_text, typeset, typeset_runs

N, NN = NBSP, NNBSP

FRENCH = [
    # the examples
    ("Le joueur joue son trait : il pose une tuile.", f"Le joueur joue son trait{N}: il pose une tuile."),
    ("Vous devez revenir à 3 cartes.", f"Vous devez revenir à 3{N}cartes."),
    ("Durée : 15-20 min", f"Durée{N}: 15{N}à{N}20{N}min"),
    ("l'étoile est entièrement bleue", "l’étoile est entièrement bleue"),
    # colon, semicolon, exclamation and question marks
    ("But du jeu: former une boucle.", f"But du jeu{N}: former une boucle."),
    ("Attention !", f"Attention{NN}!"),
    ("Attention!", f"Attention{NN}!"),
    ("Qui commence ? Le plus jeune.", f"Qui commence{NN}? Le plus jeune."),
    ("Vraiment ?!", f"Vraiment{NN}?!"),
    ("une tuile ; puis une autre", f"une tuile{NN}; puis une autre"),
    ("Fin de partie\u00a0!", f"Fin de partie{NN}!"),
    # not inside words and numbers
    ("rendez-vous à 10:30", "rendez-vous à 10:30"),
    ("voir https://exemple.fr/regles?page=2", "voir https://exemple.fr/regles?page=2"),
    ("le rapport 2:1", "le rapport 2:1"),
    # quotes
    ('On crie "Boucle !" et on marque.', f"On crie «{NN}Boucle{NN}!{NN}» et on marque."),
    ("« Pioche »", f"«{NN}Pioche{NN}»"),
    ("«Pioche»", f"«{NN}Pioche{NN}»"),
    ("“Pioche”", f"«{NN}Pioche{NN}»"),
    ("pas 'ajuster à la page' : non", f"pas «{NN}ajuster à la page{NN}»{N}: non"),
    ("aujourd'hui, c'est l'heure", "aujourd’hui, c’est l’heure"),
    # numbers and units
    ("imprimer à 100%", f"imprimer à 100{N}%"),
    ("imprimer à 100 %", f"imprimer à 100{N}%"),
    ("50 mm : mesurez-moi", f"50{N}mm{N}: mesurez-moi"),
    ("une règle de 50mm", f"une règle de 50{N}mm"),
    ("papier de 160-250 g/m²", f"papier de 160{N}à{N}250{N}g/m²"),
    ("des cartes de 63 x 88 mm", f"des cartes de 63{N}×{N}88{N}mm"),
    ("10 000 points", f"10{NN}000{N}points"),
    ("de 2-4 joueurs", f"de 2{N}à{N}4{N}joueurs"),
    ("Cartes de placement : recto 1-9", f"Cartes de placement{N}: recto 1{N}à{N}9"),
    # ordinals
    ("le 1er joueur", f"le 1ᵉʳ{N}joueur"),
    ("la 1re manche, la 1ère manche", f"la 1ʳᵉ{N}manche, la 1ʳᵉ{N}manche"),
    ("au 7e tour, au 7ème tour", f"au 7ᵉ{N}tour, au 7ᵉ{N}tour"),
    ("les 2es places", f"les 2ᵉˢ{N}places"),
    ("le 2nd, la 2nde", "le 2ᵈ, la 2ᵈᵉ"),
    # left alone
    ("publié le 2026-11-30", "publié le 2026-11-30"),
    ("composez le 06-12-34", "composez le 06-12-34"),
    ("la tuile A1-B2", "la tuile A1-B2"),
    ("de 1,5-2 cm", f"de 1,5-2{N}cm"),
    ("Attendez...", "Attendez…"),
    ("", ""),
]

ENGLISH = [
    ('He said "loop" and scored.', "He said “loop” and scored."),
    ("it's the player's turn", "it’s the player’s turn"),
    ("the 'Start' square", "the ‘Start’ square"),
    ("Placement cards: fronts 1-9", "Placement cards: fronts 1–9"),
    ("2-4 players, 15-20 min", f"2–4 players, 15–20{N}min"),
    ("50 mm: measure me", f"50{N}mm: measure me"),
    ("print at 100%", "print at 100%"),
    ("cards of 63 x 88 mm", f"cards of 63{N}×{N}88{N}mm"),
    ("released 2026-11-30", "released 2026-11-30"),
    ("Wait...", "Wait…"),
    ("Ready? Go!", "Ready? Go!"),
    ("the time is 10:30", "the time is 10:30"),
]


@pytest.mark.parametrize("text, expected", FRENCH)
def test_french(text, expected):
    assert typeset(text, "fr") == expected


@pytest.mark.parametrize("text, expected", ENGLISH)
def test_english(text, expected):
    assert typeset(text, "en") == expected


@pytest.mark.parametrize("text, lang", [(t, "fr") for t, _ in FRENCH] + [(t, "en") for t, _ in ENGLISH]
                         + [(t, "en") for t, _ in FRENCH] + [(t, "fr") for t, _ in ENGLISH])
def test_idempotent(text, lang):
    once = typeset(text, lang)
    assert typeset(once, lang) == once


def test_no_straight_marks_or_breakable_space_before_french_signs():
    for text, _ in FRENCH:
        out = typeset(text, "fr")
        if "http" in text or "10:30" in text or "2:1" in text:
            continue
        assert "'" not in out and '"' not in out
        for sign in ":;!?»":
            at = out.find(sign)
            if at > 0:
                assert out[at - 1] not in " \t", (text, out)


def test_unknown_language_unchanged():
    assert typeset("l'étoile : 15-20 min", "de") == "l'étoile : 15-20 min"
    assert typeset_runs(["a", "b"], "xx") == ["a", "b"]


def test_runs_read_across_their_boundaries():
    # **Pion**: bouge  /  "**Pioche**"  /  *l'*étoile
    assert typeset_runs(["Le ", "pion", ": bouge"], "fr") == ["Le ", "pion", f"{N}: bouge"]
    assert typeset_runs(["Le ", "pion", " : bouge"], "fr") == ["Le ", "pion", f"{N}: bouge"]
    assert typeset_runs(['"', "Pioche", '"'], "fr") == [f"«{NN}", "Pioche", f"{NN}»"]
    assert typeset_runs(['dit "', "oui", '"'], "en") == ["dit “", "oui", "”"]
    assert typeset_runs(["l'", "étoile"], "fr") == ["l’", "étoile"]
    assert typeset_runs(["", ": x"], "fr") == ["", ": x"]  # nothing before the sign: left as it is
    assert typeset_runs([], "fr") == []


def test_dates():
    assert date_text("2026-11-30", "fr") == f"30{N}novembre 2026"
    assert date_text("2026-05-01", "fr") == f"1ᵉʳ{N}mai 2026"
    assert date_text("2026-11-30", "en") == "30 November 2026"
    assert date_text("2026-11", "fr") == "novembre 2026"
    assert date_text("2026", "en") == "2026"
    assert date_text("automne 2026", "fr") == "automne 2026"
    assert date_text("2026-13-01", "fr") == "2026-13-01"
    import datetime
    assert date_text(datetime.date(2026, 8, 2), "fr") == f"2{N}août 2026"
    assert date_text("2026-11-30", "de") == "2026-11-30"


def test_the_fonts_draw_what_typography_writes():
    """Every character typeset writes is in a shipped face pnp.render.fonts's chain reaches: the Latin face
    itself, or its extended face (the superscript letters of ordinals)."""
    latin = TTFont(fonts.FONT_DIR / "DejaVuSans.ttf").getBestCmap()
    ext = TTFont(fonts.FONT_DIR / "DejaVuSansExt.ttf").getBestCmap()
    for ch in f"{N}{NN}’‘“”«»–…×²":
        assert ord(ch) in latin, f"U+{ord(ch):04X}"
    for ch in "ᵉʳˢᵈ":
        assert ord(ch) not in latin and ord(ch) in ext, f"U+{ord(ch):04X}"
    text = typeset("le 1er, la 2nde, « 100 % » : 15-20 min !", "fr")
    for weight, style in (("normal", "normal"), ("bold", "normal"), ("normal", "italic")):
        runs, missing = fonts.split(text, fonts.chain("DejaVu Sans", weight, style))
        assert not missing
        assert any(face.endswith(("Ext", "Ext-Bold", "Ext-Oblique")) and "ᵉ" in part for face, part in runs), runs


def _lines(pdf: bytes) -> list[str]:
    import pdfplumber

    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return [line for page in doc.pages for line in (page.extract_text() or "").splitlines()]


def _paragraph_pdf(text: str, width: float) -> bytes:
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    from pnp.render import reportlab_internals as rl

    rl.no_break_at_narrow_spaces()  # (what pnp.rulebook.markdown does on import)
    fonts.register()
    buf = io.BytesIO()
    # (+ 2 x 6: the frame's padding)
    doc = SimpleDocTemplate(buf, pagesize=(width + 32, 400), leftMargin=10, rightMargin=10, invariant=1)
    style = ParagraphStyle("p", fontName=fonts.REGULAR, fontSize=10, leading=12)
    doc.build([Paragraph(text, style)])
    return buf.getvalue()


def _width(text: str) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    fonts.register()
    return stringWidth(text, fonts.REGULAR, 10)


@pytest.mark.parametrize("before, after", [("son trait", ": il pose"), ("revenir à 3", "cartes ensuite"),
                                           ("imprimer à 100", "% toujours"), ("la règle de 50", "mm mesure"),
                                           ("crie attention", "! et rejoue"), ("la pioche", "; puis joue"),
                                           ('dit "Boucle', '" et marque')])
def test_reportlab_never_breaks_at_no_break_spaces(before, after):
    """A paragraph just wide enough for `before` and a word: plain, the line breaks before `after`'s sign; typeset,
    never between the sign (the unit) and what it follows."""
    lead = "Un mot puis " + before
    width = _width(lead) + 2
    plain = _lines(_paragraph_pdf(f"{lead} {after}", width))
    assert plain[0].endswith(before.split()[-1]), plain  # (the test can fail: the plain space breaks)
    text = typeset(f"{lead} {after}", "fr")
    lines = _lines(_paragraph_pdf(text, width))
    joined = typeset(f"{before.split()[-1]} {after.split()[0]}", "fr").replace(N, " ").replace(NN, " ")
    assert any(joined in line.replace(N, " ").replace(NN, " ") for line in lines), lines


def test_textbox_never_breaks_at_no_break_spaces():
    """textbox(lang="fr") typesets its text before breaking it, and breaks at U+0020 only: at every width, no line
    starts with a sign or a unit torn from what it follows (without lang, some width does)."""
    import re

    from pnp.render.textbox import textbox

    text = "Joue son trait : revenir à 3 cartes puis 15-20 min, imprimer à 100 % !"

    def lines(width: float, lang: str) -> list[str]:
        svg = str(textbox(text, width=width, size=3, lang=lang))
        out: list[str] = []
        for m in re.finditer(r'<tspan( x="[^"]*" y="[^"]*")?>([^<]*)</tspan>', svg):
            if m.group(1) or not out:
                out.append("")
            out[-1] += m.group(2)
        return out

    torn = lambda ls: [ln for ln in ls[1:] if ln.lstrip().startswith((":", "!", "cartes", "min", "%", "à 20"))]  # noqa: E731
    widths = range(24, 80, 2)  # (narrower, a word joined by no-break spaces is wider than the box: split as any word)
    assert any(torn(lines(w, "")) for w in widths)  # (the test can fail)
    for width in widths:
        ls = lines(width, "fr")
        assert not torn(ls), (width, ls)
        assert "l'" not in "".join(ls)
    assert f"trait{N}:" in "".join(lines(80, "fr"))
    assert "trait :" in "".join(lines(80, ""))
