"""Where games plug in. The generic layers look things up here and never import a game.

A game is described by one frozen `GameSpec` (its generators, rules engine, checks,
the model of its `rules:` section, rulebook facts and diagrams, default agent, extra
commands) and registered with one call, `register_game(spec)`. `discover()` finds every
game once: the packages under pnp/games/ (the games pnp ships) and the objects named by
the entry point group `pnp.games` of any installed distribution (a game in its own
package). Both kinds expose the same thing, a module attribute `GAME = GameSpec(...)`
(or the entry point names the spec itself), and go through the same `register_game`.
"""

from __future__ import annotations

import pkgutil
import re
import types
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

import pnp.games as games_pkg
from pnp.errors import PnpError
from pnp.model import Text, text_in
from pnp.render.facespec import FaceSpec

if TYPE_CHECKING:
    from pydantic import BaseModel

    from pnp.engine.api import Game as EngineGame
    from pnp.engine.checks import CheckResult
    from pnp.model import Component, Design
    from pnp.render.svg import Canvas


@dataclass
class GeneratorContext:
    design: "Design"
    component_id: str
    component: "Component"
    params: Any  # the generator's params model instance, or the raw dict
    bleed: float
    key_base: Any = None  # pnp.products.KeyBase: the generator's inputs in the design hashed (set by pnp.render.faces)
    lang: str = "en"  # the language this face is drawn in: its words come from the game's glossary in it

    def text(self, value: Text) -> str:
        """A design text (plain, or {en: ..., fr: ...}) in this face's language."""
        return text_in(value, self.lang)

    def face(self, key: str, width: float, height: float, draw: Callable[[Canvas], None], *,
             count: int = 1, data: dict | None = None, shape: str | None = None, label: str = "",
             bleed: float | None = None) -> FaceSpec:
        """A FaceSpec whose art is drawn by `draw(canvas)` on a Canvas of the given trim size."""
        b = self.bleed if bleed is None else bleed

        def paint() -> str:
            from pnp.render.svg import Canvas  # lazy: 3.7 ms (pnp.render.svg)

            canvas = Canvas(width, height, b)
            draw(canvas)
            return canvas.to_string()

        cache_key = self.key_base.key(face=key, data=data or {}, width=width, height=height, bleed=b) \
            if self.key_base is not None else ""
        return FaceSpec(key=key, width=width, height=height, bleed=b, paint=paint, count=count,
                        data=data or {}, shape=shape or self.component.shape, label=label, cache_key=cache_key)  # type: ignore[arg-type]


GeneratorFn = Callable[[GeneratorContext], list[FaceSpec]]


@dataclass(frozen=True)
class Generator:
    """A face generator: `generate: <name>` in a design calls `fn(ctx)`; `params` validates its `params:`."""

    name: str
    fn: GeneratorFn
    params: type[BaseModel] | None
    doc: str
    wordless: bool = False  # its faces print no words: painted once, shared by every language of the design

    def __call__(self, ctx: GeneratorContext) -> list[FaceSpec]:
        return self.fn(ctx)


def generator(name: str, params: type[BaseModel] | None = None, *,
              wordless: bool = False) -> Callable[[GeneratorFn], Generator]:
    """Decorator: make a function a `Generator` named like 'three_stars.placements' (list it in the GameSpec).
    `wordless=True`: its faces print no words (no text but numbers and signs, which every language writes alike) and
    paint nothing that depends on `ctx.lang`, so one face, keyed on no language, painted once, serves every language
    of a design; `ctx.lang` is still each edition's, for the faces' labels (index.html, the manifest), which are
    not painted (tests/test_wordless.py paints every wordless face of the shipped designs in each language). Else
    each face is drawn in each language (`ctx.lang`) and keyed on it."""

    def wrap(fn: GeneratorFn) -> Generator:
        return Generator(name, fn, params, (fn.__doc__ or "").strip(), wordless)

    return wrap


EngineFactory = Callable[["Design", int], "EngineGame"]
"""(design, players) -> a pnp.engine.api.Game; PnpError/DesignError when the design cannot be played."""
ChecksFn = Callable[..., "Sequence[CheckResult]"]
"""(design, *, games, seed, agent) -> the results of `pnp validate` (pnp.engine.checks.CheckResult)."""
FactsFn = Callable[["Design", str], Any]
"""(design, lang) -> what a rules text reads as `facts`."""
DiagramFn = Callable[..., str]
"""(design, lang, **params from the rules text) -> SVG text drawn on a pnp.render.svg.Canvas."""
CommandFn = Callable[..., str]
"""A game's own command (e.g. `pnp loops`): (design, **options) -> the text to print."""


class Clickable(TypedDict):
    data_actions: str
    data_label: str


def clickable(actions: Iterable[int], label: str) -> Clickable:
    """The attributes (keyword arguments of pnp.render.svg.Canvas) of a place a click may play, as pnp play's page
    reads them: `data-actions`, the actions it means, and `data-label`, its name for a person (PlayView.draw)."""
    return {"data_actions": " ".join(str(a) for a in actions), "data_label": label}


@dataclass(frozen=True)
class PlayView:
    """How `pnp play` shows a game's positions (pnp.play): every part optional. Without `draw` the page shows
    `text` (or, for a game without hidden information, the state's own text) and the list of legal actions.

    Each function is told who looks (`viewer`: a seat, or None for what every seat may see) and must show
    nothing that seat may not see (another hand, the bag's order): the page never receives more.
    """

    draw: Callable[["Design", Any, "int | None", str], str] | None = None
    """(design, state, viewer, lang) -> SVG of the position drawn from the design's own faces and painters. An
    element a click may play carries `data-action="<action>"`: the action it means here (shown on every place
    that can take one, legal now or not: a click on a place where the action is illegal gets the engine's
    reason); `data-label` may name it for a person."""
    text: Callable[[Any, "int | None", str], str] | None = None
    """(state, viewer, lang) -> a text view of the position as `viewer` may see it."""
    action_text: Callable[[Any, int, "int | None"], str] | None = None
    """(state before the action, action, viewer) -> how `viewer` sees the action in the log (a hidden draw
    masked); default: the engine's action_to_string, and "chance" for chance actions of a game with hidden
    information."""
    position: Callable[[Any], dict] | None = None
    """(state) -> the keyword arguments of the engine's `game.position(...)` that make this position again, as
    JSON values: what a rulebook diagram of the position is drawn from (the page exports them)."""
    position_diagram: str | None = None
    """The game's diagram (short name, among its diagrams) that draws `game.position(**those arguments)`."""

GAME_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class GameSpec:
    """Everything a game gives pnp. Frozen: mappings become read-only, sequences tuples.

    Only `name` and `title` are required: a game may start as generators alone and add
    its rules engine, checks and rulebook pieces later.
    """

    name: str
    """What designs write as `game:`; also the namespace of its generators and diagrams ('name.x')."""
    title: str
    """The game's name for people, e.g. '3 Stars'."""
    engine: EngineFactory | None = None
    """Its rules engine (pnp validate, pnp simulate, the shared engine tests)."""
    checks: ChecksFn | None = None
    """Its completeness checks (pnp validate)."""
    rules: type[BaseModel] | None = None
    """The pydantic model of the design's `rules:` section, checked at load time (file:line errors);
    the validated instance is `design.game_rules`. None: `rules:` is free."""
    generators: Sequence[Generator] = ()
    """Face generators (made with the `generator` decorator), each named '<name>.<something>'."""
    diagrams: Mapping[str, DiagramFn] = field(default_factory=dict)
    """Rulebook diagrams by short name; a rules text calls `diagram('<name>.<short name>')`."""
    wordless_diagrams: Collection[str] = ()
    """The short names of the diagrams that draw no words: the same drawing in every language, whatever the
    parameters. A rulebook draws each of them once for all its languages (the others once per language)."""
    rulebook_facts: FactsFn | None = None
    """What its rules texts read as `facts`."""
    default_agent: str = "random"
    """The players `pnp simulate` uses without --agent (a game random play never ends says 'greedy')."""
    cooperative: bool = False
    """True when the players win or lose together (simulate then reports scores, not seats)."""
    commands: Mapping[str, CommandFn] = field(default_factory=dict)
    """The game's own commands by name, e.g. {'loops': f} for `pnp loops`."""
    play: PlayView | None = None
    """How `pnp play` draws its positions and maps clicks to actions (None: the text view and the action list)."""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not GAME_NAME.match(self.name):
            raise ValueError(f"game name {self.name!r}; expected lower-case letters, digits and '_', e.g. my_game")
        object.__setattr__(self, "generators", tuple(self.generators))
        object.__setattr__(self, "diagrams", types.MappingProxyType(dict(self.diagrams)))
        object.__setattr__(self, "commands", types.MappingProxyType(dict(self.commands)))
        if not isinstance(self.default_agent, str) or not self.default_agent:
            raise TypeError(f"{self.name}: default_agent is {self.default_agent!r}; expected an agent such as "
                            "'random', 'greedy' or 'mcts:200'")
        if not isinstance(self.cooperative, bool):
            raise TypeError(f"{self.name}: cooperative is {self.cooperative!r}; expected True or False")
        if self.play is not None and not isinstance(self.play, PlayView):
            raise TypeError(f"{self.name}: play is {self.play!r}; expected a pnp.registry.PlayView")
        if self.play is not None and self.play.position_diagram and self.play.position_diagram not in self.diagrams:
            raise ValueError(f"{self.name}: play.position_diagram '{self.play.position_diagram}' is not among its "
                             f"diagrams; expected one of: {', '.join(self.diagrams) or 'none'}")
        if isinstance(self.wordless_diagrams, str):
            raise TypeError(f"{self.name}: wordless_diagrams is {self.wordless_diagrams!r}; expected a collection of "
                            "diagram names")
        wordless = frozenset(self.wordless_diagrams)
        object.__setattr__(self, "wordless_diagrams", wordless)
        unknown = sorted(wordless - set(self.diagrams))
        if unknown:
            raise ValueError(f"{self.name}: wordless_diagrams names {', '.join(unknown)}, which are not among its "
                             f"diagrams; expected some of: {', '.join(self.diagrams) or 'none'}")
        for gen in self.generators:
            if not isinstance(gen, Generator):
                raise TypeError(f"{self.name}: generators hold {gen!r}; expected functions decorated with "
                                "pnp.registry.generator(name)")
            if not gen.name.startswith(self.name + "."):
                raise ValueError(f"{self.name}: generator '{gen.name}' is outside the game's namespace; "
                                 f"expected a name like '{self.name}.{gen.name.rsplit('.', 1)[-1]}'")
        from pydantic import BaseModel  # lazy: 74 ms (pydantic)

        if self.rules is not None and not (isinstance(self.rules, type) and issubclass(self.rules, BaseModel)):
            raise TypeError(f"{self.name}: rules is {self.rules!r}; expected a pydantic model class")

    def diagram_names(self) -> list[str]:
        return [f"{self.name}.{short}" for short in self.diagrams]


GENERATORS: dict[str, Generator] = {}
GAMES: dict[str, GameSpec] = {}
DIAGRAMS: dict[str, DiagramFn] = {}
WORDLESS: set[str] = set()
"""The full names of the diagrams that draw no words (GameSpec.wordless_diagrams)."""
ENTRY_POINT_GROUP = "pnp.games"
_discovered = False


def register_game(spec: GameSpec) -> GameSpec:
    """Register a game: its name, generators and diagrams. Registering the same spec again changes nothing."""
    if not isinstance(spec, GameSpec):
        raise TypeError(f"register_game({spec!r}); expected a pnp.registry.GameSpec")
    known = GAMES.get(spec.name)
    if known is spec:
        return spec
    if known is not None:
        raise ValueError(f"game '{spec.name}' registered twice (by two different GameSpecs)")
    for gen in spec.generators:
        if GENERATORS.get(gen.name, gen) is not gen:
            raise ValueError(f"generator '{gen.name}' registered twice")
    for full in spec.diagram_names():
        if full in DIAGRAMS:
            raise ValueError(f"diagram '{full}' registered twice")
    GAMES[spec.name] = spec
    for gen in spec.generators:
        GENERATORS[gen.name] = gen
    for short, fn in spec.diagrams.items():
        DIAGRAMS[f"{spec.name}.{short}"] = fn
    WORDLESS.update(f"{spec.name}.{short}" for short in spec.wordless_diagrams)
    return spec


def spec_of(obj: Any, where: str) -> GameSpec:
    """The GameSpec an entry point or a game package gives: the spec itself, or a module's `GAME`."""
    if isinstance(obj, types.ModuleType):
        obj = getattr(obj, "GAME", None)
    if not isinstance(obj, GameSpec):
        raise PnpError(f"{where}: gives {type(obj).__name__}; expected a pnp.registry.GameSpec "
                       "(or a module whose GAME is one)")
    return obj


def discover() -> None:
    """Register every game once: the packages under pnp/games/, then the `pnp.games` entry points."""
    global _discovered
    if _discovered:
        return
    _discovered = True  # set first: a game module importing the registry must not start a second discovery
    import importlib.metadata  # lazy: 35 ms (importlib.metadata)

    for info in sorted(pkgutil.iter_modules(games_pkg.__path__), key=lambda m: m.name):
        if info.ispkg:
            name = f"{games_pkg.__name__}.{info.name}"
            register_game(spec_of(importlib.import_module(name), name))
    for ep in sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: (e.name, e.value)):
        where = f"entry point '{ep.name} = {ep.value}' (group {ENTRY_POINT_GROUP})"
        try:
            obj = ep.load()
        except Exception as exc:  # a broken game package: say which one, whatever it raised
            raise PnpError(f"{where}: cannot be loaded ({type(exc).__name__}: {exc}); expected an importable "
                           "game package (reinstall or uninstall it)") from exc
        register_game(spec_of(obj, where))


def get_generator(name: str) -> Generator | None:
    discover()
    return GENERATORS.get(name)


def get_game(name: str | None) -> GameSpec | None:
    """The spec of the game a design names (`game:`); None for no name or an unknown one."""
    if not name:
        return None
    discover()
    return GAMES.get(name)


def get_diagram(name: str) -> DiagramFn | None:
    discover()
    return DIAGRAMS.get(name)


def diagram_has_words(name: str) -> bool:
    """Whether a registered diagram may draw words (and so differ from one language to another)."""
    discover()
    return name not in WORDLESS
