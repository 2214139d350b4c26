"""`pnp new NAME [--from DESIGN]`: a new design folder that builds as it is."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from pnp.errors import ErrorReport
from pnp.loader import resolve_design

DESIGN = """\
# {title}: a new pnp design. Build it with `pnp build {slug}`; the format is in docs/design-format.md.
meta:
  title: {title}
  author: ""
  year: {year}
  players: 2-4
  play_time: 30 min
  age: 10+
  version: "0.1"
  languages: [en, fr]

print:
  paper: a4
  bleed: 3mm
  safe_zone: 3mm
  duplex: long

rules:                       # the rules' own numbers, stated once (the rulebook reads them)
  hand_size: 3

components:
  cards:
    kind: card
    name: {{en: Cards, fr: Cartes}}
    size: poker
    data: cards.csv            # one row per card; the count column gives copies
    template: front.svg.j2
    back:
      template: back.svg.j2
"""

CARDS = """\
title,text,value,colour,count
Scout,Look at the top card of the deck.,1,#0072B2,3
Trader,Swap a card with another player.,2,#E69F00,2
Guard,Nobody may take cards from you this round.,3,#009E73,2
Captain,Score 2 extra points at the end.,5,#D55E00,1
"""

FRONT = """\
{# A card face, drawn in mm with the origin at the trim's top-left corner; the bleed is negative. #}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ width + 2 * bleed }}" height="{{ height + 2 * bleed }}" fill="{{ colour }}"/>
<rect x="{{ safe }}" y="{{ safe }}" width="{{ width - 2 * safe }}" height="{{ height - 2 * safe }}" rx="2" fill="#ffffff"/>
<text x="{{ width / 2 }}" y="{{ safe + 10 }}" font-size="6" font-weight="bold" text-anchor="middle">{{ title }}</text>
<circle cx="{{ width / 2 }}" cy="{{ height / 2 - 4 }}" r="12" fill="{{ colour }}"/>
<text x="{{ width / 2 }}" y="{{ height / 2 + 1 }}" font-size="14" font-weight="bold" fill="#ffffff" text-anchor="middle">{{ value }}</text>
<text x="{{ width / 2 }}" y="{{ height - safe - 14 }}" font-size="3.2" text-anchor="middle">{{ text }}</text>
<text x="{{ safe + 2 }}" y="{{ height - safe - 2 }}" font-size="2.5" fill="#666666">{{ design.title }} · {{ index }}</text>
"""

BACK = """\
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ width + 2 * bleed }}" height="{{ height + 2 * bleed }}" fill="#20304a"/>
<rect x="{{ safe }}" y="{{ safe }}" width="{{ width - 2 * safe }}" height="{{ height - 2 * safe }}" rx="3" fill="none" stroke="#e8c36a" stroke-width="0.6"/>
<text x="{{ width / 2 }}" y="{{ height / 2 + 3 }}" font-size="8" font-weight="bold" fill="#e8c36a" text-anchor="middle">{{ design.title }}</text>
"""

RULES = {
    "en": """\
# Overview

{{ meta.title }} is a game for {{ meta.players }} players. Write here what the players try to do.

# Components

{{ component_list() }}

# Setup

Shuffle the cards and deal {{ rules.hand_size }} to each player.

# Playing a turn

Describe a turn here.

# End of the game

Describe how the game ends and who wins.
""",
    "fr": """\
# Aperçu

{{ meta.title }} est un jeu pour {{ meta.players }} joueurs. Décrivez ici le but du jeu.

# Matériel

{{ component_list() }}

# Mise en place

Mélangez les cartes et distribuez-en {{ rules.hand_size }} à chaque joueur.

# Tour de jeu

Décrivez ici un tour de jeu.

# Fin de la partie

Décrivez ici la fin de la partie et le vainqueur.
""",
}


def new_design(name: str, source: str | None = None, root: Path | None = None) -> Path:
    """Create designs/NAME (under `root`, default the working directory); returns the folder."""
    import datetime

    report = ErrorReport()
    slug = name.strip().lower()
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", slug):
        report.add(name, None, "not a design name; expected lower-case letters, digits and '-', e.g. my-game")
    target = (root or Path.cwd()) / "designs" / slug
    if target.exists():
        report.add(str(target), None, "already exists; expected a new name (nothing was changed)")
    report.raise_if_any()
    if source:
        shutil.copytree(resolve_design(source), target, ignore=shutil.ignore_patterns("__pycache__"))
        design = target / "design.yaml"
        text = design.read_text(encoding="utf-8")
        title = name.replace("-", " ").title()
        text = re.sub(r"(?m)^(  title:).*$", rf"\1 {title}", text, count=1)
        design.write_text(text, encoding="utf-8")
        return target
    title = name.replace("-", " ").title()
    (target / "templates").mkdir(parents=True)
    (target / "design.yaml").write_text(DESIGN.format(title=title, slug=slug, year=datetime.date.today().year),
                                        encoding="utf-8")
    (target / "cards.csv").write_text(CARDS, encoding="utf-8")
    (target / "templates" / "front.svg.j2").write_text(FRONT, encoding="utf-8")
    (target / "templates" / "back.svg.j2").write_text(BACK, encoding="utf-8")
    for lang, text in RULES.items():
        (target / f"rules.{lang}.md").write_text(text, encoding="utf-8")
    return target
