"""`pnp new NAME [--from DESIGN]`: a new design folder that builds as it is."""

from __future__ import annotations

import datetime
import os
import re
import shutil
import stat
from pathlib import Path

from pnp.confine import DesignFiles, FileRefused
from pnp.errors import DesignError, ErrorReport, Problem, display_path
from pnp.limits import LIMITS, limit
from pnp.loader import DESIGN_FILE, resolve_design
from pnp.yamlio import load_yaml

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


# --- `pnp new NAME --engine`: a game in its own package ---------------------------------------
# The package a designer grows into their own game: pyproject.toml declares the entry point
# pnp finds it by; the module holds a GameSpec with a small rules engine (a pile of counters,
# take 1 to 3, taking the last wins), its rules model, checks, a generator and a diagram; a
# design uses it. Placeholders: {title}, {slug} (my-game), {module} (my_game), {year}.

GAME_PYPROJECT = """\
[build-system]
requires = ["hatchling>=1.21"]
build-backend = "hatchling.build"

[project]
name = "{slug}"
version = "0.1.0"
description = "{title}: a pnp game (rules engine, checks, components, rulebook diagrams)"
requires-python = ">=3.11"
dependencies = ["pnp"]

# how pnp finds the game: `game: {module}` in a design then means this package's GameSpec
[project.entry-points."pnp.games"]
{module} = "{module}:GAME"

[tool.hatch.build.targets.wheel]
packages = ["{module}"]
"""

GAME_README = """\
# {title}

A game for [pnp](https://pypi.org/project/pnp/): its rules engine, checks, components and
rulebook diagrams live in `{module}/`, a design that uses them in `designs/{slug}/`.

    pip install -e .              # pnp finds the game through the entry point in pyproject.toml
    pnp build                     # the design's components, print sheets and rulebooks
    pnp validate                  # the game's checks, with seeded simulations
    pnp simulate {slug} -n 500    # balance: win rates per seat
    pytest                        # the shared engine invariants and your own tests

See pnp's docs/adding-a-game.md for what each file does.
"""

GAME_INIT = '''\
"""{title}: what pnp knows of the game, in one GameSpec (found through the `pnp.games` entry point)."""

from pnp.registry import GameSpec

from {module} import checks, components, diagrams, engine

GAME = GameSpec(
    name="{module}", title="{title}",
    generators=(components.counters,),
    engine=engine.make_engine, rules=engine.Rules, checks=checks.run_checks,
    diagrams=diagrams.DIAGRAMS, rulebook_facts=diagrams.rulebook_facts,
    default_agent="random",
)
'''

GAME_ENGINE = '''\
"""The rules engine of {title}: a pile of counters; in turn each player takes 1 to `max_take` of
them; whoever takes the last one wins. Replace it with your game's rules.

pnp's State base keeps the history, refuses moves once the game is over and clones; an
engine writes its legal moves (`_legal_actions`), why a move is illegal (`_why_illegal`) and
applying one (`_apply`). Actions are ints laid out by an ActionCodec: `take` (how many - 1).
"""

from __future__ import annotations

from pydantic import Field, StrictInt

from pnp.engine import TERMINAL, Game, GameInfo, State
from pnp.engine.codec import ActionCodec
from pnp.engine.design import game_rules
from pnp.model import Design
from pnp.params import RulesSection


class Rules(RulesSection):
    """The design's `rules:` section, checked when the design loads (file:line messages)."""

    pile: StrictInt = Field(ge=1, description="the number of counters in the pile at the start, e.g. 15")
    max_take: StrictInt = Field(ge=1, description="the most counters a player takes in a turn, e.g. 3")


class PileGame(Game):
    def __init__(self, design: Design, players: int):
        self.rules = game_rules(design, Rules)
        self.players = players
        self.codec = ActionCodec(f"{module}:{{design.slug}}", take=(self.rules.max_take,))
        self.info = GameInfo(name=self.codec.name, num_players=players, min_utility=0.0, max_utility=1.0,
                             max_game_length=self.rules.pile, max_chance_actions=0,
                             num_distinct_actions=self.codec.size)

    def new_initial_state(self) -> "PileState":
        return PileState(self)

    def position(self, pile: int, player: int = 0) -> "PileState":
        """A position made from data (tests, rulebook diagrams): `pile` counters left, `player` to take."""
        if not 0 <= pile <= self.rules.pile:
            raise ValueError(f"a pile of {{pile}}; expected 0 to {{self.rules.pile}}")
        state = PileState(self)
        state.pile, state.player = pile, player
        return state


class PileState(State):
    __slots__ = ("game", "pile", "player")

    def __init__(self, game: PileGame):
        super().__init__()
        self.game = game
        self.pile = game.rules.pile
        self.player = 0

    def current_player(self) -> int:
        return TERMINAL if self.pile == 0 else self.player

    def _legal_actions(self) -> list[int]:
        most = min(self.game.rules.max_take, self.pile)
        return [self.game.codec.encode("take", n - 1) for n in range(1, most + 1)]

    def _why_illegal(self, action: int) -> str:
        _, (taken,) = self.game.codec.decode(action)
        return "" if taken + 1 <= self.pile else f"only {{self.pile}} counter(s) left; expected at most {{self.pile}}"

    def _apply(self, action: int) -> None:
        _, (taken,) = self.game.codec.decode(action)
        self.pile -= taken + 1
        if self.pile:
            self.player = (self.player + 1) % self.game.players

    def action_to_string(self, action: int, player: int | None = None) -> str:
        _, (taken,) = self.game.codec.decode(action)
        return f"seat {{(self.player if player is None else player) + 1}} takes {{taken + 1}}"

    def returns(self) -> list[float]:
        return [1.0 if self.pile == 0 and p == self.player else 0.0 for p in range(self.game.players)]

    def key(self) -> tuple:
        return self.pile, self.player

    def action_value(self, action: int) -> float:
        """The greedy agent's view: leaving the next player a multiple of max_take + 1 wins (2 players)."""
        _, (taken,) = self.game.codec.decode(action)
        return 1.0 if (self.pile - taken - 1) % (self.game.rules.max_take + 1) == 0 else 0.0

    def metrics(self) -> dict[str, int]:
        return {{"turns_played": len(self.history())}}

    def __str__(self) -> str:
        return f"{{self.pile}} counter(s) left, seat {{self.player + 1}} to take"


def make_engine(design: Design, players: int) -> PileGame:
    return PileGame(design, players)
'''

GAME_COMPONENTS = '''\
"""{title}'s components drawn by code: the counters (a generator, named in the design as
`generate: {module}.counters`, with its own checked `params:`)."""

from __future__ import annotations

from pydantic import Field

from pnp.params import Length, Params
from pnp.registry import FaceSpec, GeneratorContext, generator
from pnp.render.svg import Canvas


class CounterParams(Params):
    diameter: Length = Field(20.0, gt=0, description="The counter's diameter")
    colour: str = Field("#0072B2", description="Its colour")


@generator("{module}.counters", params=CounterParams)
def counters(ctx: GeneratorContext) -> list[FaceSpec]:
    """Round counters, `count` copies."""
    p: CounterParams = ctx.params
    d = p.diameter

    def draw(c: Canvas) -> None:
        c.circle((d / 2, d / 2), d / 2 + c.bleed, fill=p.colour)
        c.circle((d / 2, d / 2), d * 0.3, fill="none", stroke="#ffffff", stroke_width=0.8)

    return [ctx.face("counter", d, d, draw, count=ctx.component.count, shape="circle", label="counter")]
'''

GAME_CHECKS = '''\
"""{title}'s checks, run by `pnp validate`: the components against the rules, then seeded games."""

from __future__ import annotations

from pnp.engine.agents import make_agent
from pnp.engine.checks import CheckResult
from pnp.engine.design import game_rules
from pnp.engine.playout import play
from pnp.model import Design

from {module}.engine import Rules, make_engine


def run_checks(design: Design, games: int = 200, seed: int = 1, agent: str = "random") -> list[CheckResult]:
    rules = game_rules(design, Rules)
    printed = sum(c.count for c in design.components.values() if c.generate == "{module}.counters")
    results = [CheckResult("counters", printed >= rules.pile,
                           f"{{printed}} counters printed, the pile needs {{rules.pile}}")]
    if games:
        played = []
        for players in range(design.meta.players.min, design.meta.players.max + 1):
            game = make_engine(design, players)
            agents = [make_agent(agent)] * players
            played += [play(game, agents, seed + i) for i in range(games)]
        won = sum(1 for result in played if result.winners)
        results.append(CheckResult("simulation", won == len(played),
                                   f"{{won}} of {{len(played)}} {{agent}} games end with a winner"))
    return results
'''

GAME_DIAGRAMS = '''\
"""{title}'s rulebook diagrams and facts: a rules text writes `{{{{ diagram("{module}.pile", left=7) }}}}`
and reads `{{{{ facts.winning }}}}`."""

from __future__ import annotations

from pnp.engine.design import find_component, game_rules
from pnp.model import Design
from pnp.render.svg import Canvas
from pnp.rulebook.figures import HIGHLIGHT, badge

from {module}.engine import PileGame, Rules


def pile_diagram(design: Design, lang: str, left: int | None = None) -> str:
    """pile(left=None): the counters of a position (made by the engine) in rows of 5, the last one ringed."""
    game = PileGame(design, design.meta.players.min)
    state = game.position(game.rules.pile if left is None else int(left))
    _, comp = find_component(design, "{module}.counters", "counter")
    colour = comp.params.colour
    c = Canvas(5 * 9 + 2, ((max(state.pile, 1) - 1) // 5 + 1) * 9 + 2)
    for i in range(state.pile):
        x, y = 1 + 4.5 + (i % 5) * 9, 1 + 4.5 + (i // 5) * 9
        c.circle((x, y), 4, fill=colour)
        if i == state.pile - 1:
            badge(c, x, y, 2.5, str(state.pile), HIGHLIGHT)
    return c.to_string()


DIAGRAMS = {{"pile": pile_diagram}}


def rulebook_facts(design: Design, lang: str) -> dict:
    rules = game_rules(design, Rules)
    return {{"winning": rules.max_take + 1}}
'''

GAME_TEST = '''\
"""{title}: pnp's shared engine invariants, and the rules on positions made from data."""

from pathlib import Path

import pytest

from pnp.engine import IllegalActionError, load_engine
from pnp.engine.invariants import check_random_playouts
from pnp.loader import load_design

DESIGN = Path(__file__).resolve().parent.parent / "designs" / "{slug}"


@pytest.fixture(scope="module")
def game():
    return load_engine(load_design(DESIGN), 2)


def test_the_shared_invariants(game):
    assert check_random_playouts(game, seeds=range(20)) > 0


def test_taking_the_last_counter_wins(game):
    state = game.position(pile=2, player=1)
    with pytest.raises(IllegalActionError, match="only 2 counter"):
        state.apply_action(game.codec.encode("take", 2))
    state.apply_action(game.codec.encode("take", 1))
    assert state.is_terminal() and state.returns() == [0.0, 1.0]
'''

GAME_DESIGN = """\
# {title}: a design of the game in {module}/. `pnp build {slug}`, `pnp validate {slug}`, `pnp simulate {slug}`.
game: {module}

meta:
  title: {title}
  author: ""
  year: {year}
  players: 2
  play_time: 5 min
  age: 6+
  version: "0.1"
  languages: [en, fr]

print:
  paper: a4
  bleed: 2mm
  duplex: none

rules:                  # checked against {module}.engine.Rules when the design loads
  pile: 15
  max_take: 3

components:
  counters:
    kind: token
    name: {{en: Counters, fr: Jetons}}
    shape: circle
    count: 15
    bleed: 0mm          # round counters share cut lines on the sheet
    generate: {module}.counters
    params:
      diameter: 20mm
      colour: "#0072B2"
"""

GAME_RULES = {
    "en": """\
# Overview

{{{{ meta.title }}}} is a game for {{{{ meta.players }}}} players. Whoever takes the last counter wins.

# Components

{{{{ component_list() }}}}

# Playing a turn

Take 1 to {{{{ rules.max_take }}}} counters from the pile. Leave your opponent a multiple of
{{{{ facts.winning }}}} and you cannot lose.

{{{{ diagram("{module}.pile", caption="The pile at the start") }}}}
""",
    "fr": """\
# Aperçu

{{{{ meta.title }}}} est un jeu pour {{{{ meta.players }}}} joueurs. Qui prend le dernier jeton gagne.

# Matériel

{{{{ component_list() }}}}

# Tour de jeu

Prenez de 1 à {{{{ rules.max_take }}}} jetons de la pile. Laissez à votre adversaire un multiple
de {{{{ facts.winning }}}} et vous ne pouvez pas perdre.

{{{{ diagram("{module}.pile", caption="La pile au départ") }}}}
""",
}


def new_game_package(name: str, root: Path | None = None) -> Path:
    """`pnp new NAME --engine`: the folder NAME/ (under `root`, default the working directory) holding a
    game package (pyproject.toml with the `pnp.games` entry point, NAME_WITH_UNDERSCORES/, tests/) and a
    design of it (designs/NAME/). Returns the folder."""
    report = ErrorReport()
    slug = name.strip().lower()
    if not re.fullmatch(r"[a-z][a-z0-9-]*", slug):
        report.add(name, None, "not a game name; expected lower-case letters, digits and '-' (starting with a "
                   "letter), e.g. my-game")
    target = (root or Path.cwd()) / slug
    if target.exists():
        report.add(str(target), None, "already exists; expected a new name (nothing was changed)")
    report.raise_if_any()
    module = slug.replace("-", "_")
    values = {"title": slug.replace("-", " ").title(), "slug": slug, "module": module,
              "year": datetime.date.today().year}
    files = {
        "pyproject.toml": GAME_PYPROJECT, "README.md": GAME_README,
        f"{module}/__init__.py": GAME_INIT, f"{module}/engine.py": GAME_ENGINE,
        f"{module}/components.py": GAME_COMPONENTS, f"{module}/checks.py": GAME_CHECKS,
        f"{module}/diagrams.py": GAME_DIAGRAMS, f"tests/test_{module}.py": GAME_TEST,
        f"designs/{slug}/design.yaml": GAME_DESIGN,
        **{f"designs/{slug}/rules.{lang}.md": text for lang, text in GAME_RULES.items()},
    }
    for rel, text in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.format(**values), encoding="utf-8")
    return target
