"""What every rules engine reads from a loaded design, with file:line problems.

Engines and checks find their components by generator and read the rules' own numbers
from `rules:` through these helpers, so every game reports a bad design the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pnp.errors import ErrorReport
from pnp.model import Design


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


def rule_numbers(design: Design, wanted: Sequence[tuple[str, str, int]], report: ErrorReport) -> dict[str, int]:
    """Whole numbers under `rules:`, each given as (key, what it counts, its minimum).

    Missing or wrong ones are added to `report` (the caller raises); the good ones are returned.
    """
    values: dict[str, int] = {}
    for key, what, minimum in wanted:
        v = design.rules.get(key)
        if v is None:
            design_problem(design, ("rules",), f"rules.{key}: missing; expected the number of {what}", report)
        elif not isinstance(v, int) or isinstance(v, bool) or v < minimum:
            design_problem(design, ("rules", key), f"rules.{key}: {v!r} is not a whole number of at least "
                           f"{minimum}; expected the number of {what}", report)
        else:
            values[key] = v
    return values
