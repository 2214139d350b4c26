"""Where games plug in. The generic layers look things up here and never import a game.

A game is a package under pnp/games/ whose __init__ registers its generators (and,
later, its rules engine). `discover()` imports every such package once.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from pnp.render.svg import Canvas

if TYPE_CHECKING:
    from pnp.model import Component, Design


@dataclass
class FaceSpec:
    """One distinct face of a component, not yet drawn.

    `paint()` returns the SVG text; it is called once per distinct face and the result
    reused for all `count` copies.
    """

    key: str
    width: float
    height: float
    bleed: float
    paint: Callable[[], str]
    count: int = 1
    data: dict[str, Any] = field(default_factory=dict)
    shape: str = "rect"
    label: str = ""
    cache_key: str = ""  # hash of everything the art is made from; "" = not cacheable


@dataclass
class GeneratorContext:
    design: "Design"
    component_id: str
    component: "Component"
    params: Any  # the generator's params model instance, or the raw dict
    bleed: float
    key_base: str = ""  # hash of the generator's inputs in the design (set by pnp.render.faces)

    def face(self, key: str, width: float, height: float, draw: Callable[[Canvas], None], *,
             count: int = 1, data: dict | None = None, shape: str | None = None, label: str = "",
             bleed: float | None = None) -> FaceSpec:
        """A FaceSpec whose art is drawn by `draw(canvas)` on a Canvas of the given trim size."""
        b = self.bleed if bleed is None else bleed

        def paint() -> str:
            canvas = Canvas(width, height, b)
            draw(canvas)
            return canvas.to_string()

        from pnp.cache import key_of

        cache_key = key_of(self.key_base, key, data or {}, width, height, b) if self.key_base else ""
        return FaceSpec(key=key, width=width, height=height, bleed=b, paint=paint, count=count,
                        data=data or {}, shape=shape or self.component.shape, label=label, cache_key=cache_key)


GeneratorFn = Callable[[GeneratorContext], list[FaceSpec]]


@dataclass(frozen=True)
class Generator:
    name: str
    fn: GeneratorFn
    params: type[BaseModel] | None
    doc: str


@dataclass
class Game:
    """A registered game: its name and whatever its package provides (engine, checks...)."""

    name: str
    title: str = ""
    extras: dict[str, Any] = field(default_factory=dict)


GENERATORS: dict[str, Generator] = {}
GAMES: dict[str, Game] = {}
_discovered = False


def generator(name: str, params: type[BaseModel] | None = None) -> Callable[[GeneratorFn], GeneratorFn]:
    """Decorator: register a face generator under a dotted name like 'three_stars.placements'."""

    def wrap(fn: GeneratorFn) -> GeneratorFn:
        if name in GENERATORS and GENERATORS[name].fn is not fn:
            raise ValueError(f"generator {name!r} registered twice")
        GENERATORS[name] = Generator(name, fn, params, (fn.__doc__ or "").strip())
        return fn

    return wrap


def register_game(name: str, title: str = "", **extras: Any) -> Game:
    game = GAMES.setdefault(name, Game(name, title))
    game.title = title or game.title
    game.extras.update(extras)
    return game


def discover() -> None:
    """Import every game package under pnp/games/ (once)."""
    global _discovered
    if _discovered:
        return
    import pnp.games as games_pkg

    for info in sorted(pkgutil.iter_modules(games_pkg.__path__), key=lambda m: m.name):
        if info.ispkg:
            importlib.import_module(f"{games_pkg.__name__}.{info.name}")
    _discovered = True


def get_generator(name: str) -> Generator | None:
    discover()
    return GENERATORS.get(name)


def get_game(name: str) -> Game | None:
    discover()
    return GAMES.get(name)


# --- rulebook diagrams ---------------------------------------------------------------------

DiagramFn = Callable[..., str]
"""(design, lang, **params from the rules text) -> SVG text drawn on a pnp.render.svg.Canvas."""

DIAGRAMS: dict[str, DiagramFn] = {}


def diagram(name: str) -> Callable[[DiagramFn], DiagramFn]:
    """Decorator: register a rulebook diagram under a dotted name like 'three_stars.board_with_card'."""

    def wrap(fn: DiagramFn) -> DiagramFn:
        if DIAGRAMS.get(name, fn) is not fn:
            raise ValueError(f"diagram {name!r} registered twice")
        DIAGRAMS[name] = fn
        return fn

    return wrap


def get_diagram(name: str) -> DiagramFn | None:
    discover()
    return DIAGRAMS.get(name)
