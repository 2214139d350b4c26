"""`pnp new NAME [--from DESIGN]`: a new design folder that builds as it is."""

from __future__ import annotations

import os
import re
import shutil
import stat
from pathlib import Path

from pnp.errors import DesignError, ErrorReport, Problem, display_path
from pnp.limits import LIMITS, limit
from pnp.loader import DESIGN_FILE, resolve_design

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
    """Create designs/NAME (under `root`, default the working directory); returns the folder.

    Every check runs before anything is written: the name (a short slug), the target (new), the source of
    `--from` (a design folder: a readable design.yaml holding a mapping, no link out of it, no special file,
    of bounded size). If writing fails half-way, what was written is removed.
    """
    import datetime

    report = ErrorReport()
    slug = name.strip().lower()
    most = limit("name_chars")
    if len(slug) > most:
        report.add(f"{name[:20]}...", None, f"the name has {len(slug)} characters; expected at most {most}, e.g. "
                   "my-game")
    elif not re.fullmatch(r"[a-z0-9][a-z0-9-]*", slug):
        report.add(name, None, "not a design name; expected lower-case letters, digits and '-', e.g. my-game")
    report.raise_if_any()
    target = (root or Path.cwd()) / "designs" / slug
    if target.exists() or target.is_symlink():
        report.add(str(target), None, "already exists; expected a new name (nothing was changed)")
    report.raise_if_any()
    title = name.replace("-", " ").title()
    if source:
        origin = _check_source(source, target)
        try:
            shutil.copytree(origin, target, ignore=shutil.ignore_patterns("__pycache__"))
            design = target / "design.yaml"
            text = design.read_text(encoding="utf-8")
            text = re.sub(r"(?m)^(  title:).*$", lambda m: f"{m.group(1)} {title}", text, count=1)
            design.write_text(text, encoding="utf-8")
        except OSError as exc:
            _undo(target)
            raise DesignError([Problem(display_path(target), None, f"cannot copy the design ({exc.strerror or exc}); "
                                       "expected a folder pnp may write (nothing was left behind)")]) from None
        return target
    try:
        (target / "templates").mkdir(parents=True)
        (target / "design.yaml").write_text(DESIGN.format(title=title, slug=slug, year=datetime.date.today().year),
                                            encoding="utf-8")
        (target / "cards.csv").write_text(CARDS, encoding="utf-8")
        (target / "templates" / "front.svg.j2").write_text(FRONT, encoding="utf-8")
        (target / "templates" / "back.svg.j2").write_text(BACK, encoding="utf-8")
        for lang, text in RULES.items():
            (target / f"rules.{lang}.md").write_text(text, encoding="utf-8")
    except OSError as exc:
        _undo(target)
        raise DesignError([Problem(display_path(target), None, f"cannot create the design ({exc.strerror or exc}); "
                                   "expected a folder pnp may write (nothing was left behind)")]) from None
    return target


def _undo(target: Path) -> None:
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target, ignore_errors=True)


def _check_source(source: str, target: Path) -> Path:
    """The folder `--from` names, when it is a design that may be copied; DesignError otherwise (nothing copied)."""
    from pnp.confine import DesignFiles, FileRefused
    from pnp.yamlio import load_yaml


    origin = resolve_design(source)
    shown = display_path(origin)
    files = DesignFiles(origin, extra=())
    try:
        path = files.locate(DESIGN_FILE, what="design file")
    except FileRefused as exc:
        raise DesignError([Problem(shown, None, f"{exc.message} (nothing was copied)")]) from None
    if path is None:
        raise DesignError([Problem(shown, None, f"not a design: no {DESIGN_FILE}; expected --from to name a design "
                                   "folder or a design under designs/ (nothing was copied)")])
    doc = load_yaml(path, files)
    if not isinstance(doc.data, dict) or "meta" not in doc.data:
        raise DesignError([Problem(display_path(path), doc.line(()), "not a design file: no 'meta:' mapping; "
                                   "expected --from to name a design folder (nothing was copied)")])
    real_origin, real_target = os.path.realpath(origin), os.path.realpath(target.parent)
    if real_target == real_origin or real_target.startswith(real_origin + os.sep):
        raise DesignError([Problem(shown, None, f"the new design {display_path(target)} would be inside the design "
                                   "it copies; expected a design folder elsewhere (nothing was copied)")])
    count = size = 0
    for folder, dirs, names in os.walk(origin, followlinks=False):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for entry in [*dirs, *names]:
            full = Path(folder) / entry
            real = os.path.realpath(full)
            if real != real_origin and not real.startswith(real_origin + os.sep):
                raise DesignError([Problem(shown, None, f"'{full.relative_to(origin)}' is a link to {real}, outside "
                                           "the design; expected a design whose files are its own (nothing was "
                                           "copied)")])
            st = os.stat(real)
            if not (stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode)):
                raise DesignError([Problem(shown, None, f"'{full.relative_to(origin)}' is not a regular file; "
                                           "expected a design of plain files and folders (nothing was copied)")])
            if stat.S_ISREG(st.st_mode):
                count += 1
                size += st.st_size
        if count > limit("design_files") or size > limit("copy_bytes"):
            lim = LIMITS["design_files" if count > limit("design_files") else "copy_bytes"]
            raise DesignError([Problem(shown, None, f"more than {lim.value} {lim.unit} to copy; expected at most "
                                       f"{lim.value} {lim.unit} (nothing was copied)")])
    return origin
