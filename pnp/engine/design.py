"""What every rules engine reads from a loaded design, with file:line problems.

Engines and checks find their components by generator and read the rules' own numbers
(`rules:`, validated by the game's rules model) through these helpers, so every game
reports a bad design the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from pnp.errors import ErrorReport
from pnp.model import Design

RulesModel = TypeVar("RulesModel", bound=BaseModel)


def design_problem(design: Design, loc: tuple, message: str, report: ErrorReport) -> None:
    """Add a problem citing the design.yaml line of `loc` (e.g. ("rules", "hand_size"))."""
    doc = design.source
    path = doc.path if doc is not None else design.folder / "design.yaml"
    report.add(path, doc.line(loc) if doc is not None else None, message)


def find_component(design: Design, generators: str | Sequence[str], what: str) -> tuple[str, Any]:
    """The one component made by one of `generators`, as (id, component); DesignError otherwise."""
    names = [generators] if isinstance(generators, str) else list(generators)
    found = [(cid, c) for cid, c in design.components.items() if c.generate in names]
    if len(found) != 1:
        report = ErrorReport()
        if not found:
            design_problem(design, ("components",),
                           f"no {what} component; expected one with generate: {' or '.join(names)}", report)
        else:
            design_problem(design, ("components", found[1][0]), f"{len(found)} {what} components "
                           f"({', '.join(cid for cid, _ in found)}); expected exactly one", report)
        report.raise_if_any()
    return found[0]


def game_rules(design: Design, model: type[RulesModel]) -> RulesModel:
    """The design's `rules:` as `model`: the instance the loader attached for the design's game, else
    validated now (a design of another game, or of none, drawn with this game's diagrams); DesignError
    with file:line problems when it does not fit."""
    if isinstance(design.game_rules, model):
        return design.game_rules

    from pnp.loader import describe_rules_error  # lazy: 44 ms (pnp.loader)

    try:
        return model.model_validate(design.rules)
    except ValidationError as exc:
        report = ErrorReport()
        for err in exc.errors():
            design_problem(design, ("rules",) + tuple(err["loc"]), describe_rules_error(err, model), report)
        report.raise_if_any()
        raise  # pragma: no cover - a ValidationError has at least one error
