"""One rulebook run: what the languages of one design's rulebooks share.

`render_rulebooks` renders every language of a design inside `one_run()`. A game's function of the design
whose result does not depend on the language (a scripted play, a worked example's positions), decorated with
`@shared_by_languages`, is then computed once for all of them, by the design object and the other arguments;
outside a run it is simply called. `shared` does the same for any computation named by a key (a wordless
diagram, pnp.rulebook.text). The results are shared: their users read them and never change them. Nothing
is kept after the run, so an edited design (pnp watch) is never read from an earlier one.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

_RUN: contextvars.ContextVar[dict | None] = contextvars.ContextVar("pnp_rulebook_run", default=None)


@contextmanager
def one_run() -> Iterator[None]:
    """The rulebooks rendered inside share the results of `shared_by_languages` functions (nested: the outer run)."""
    if _RUN.get() is not None:
        yield
        return
    token = _RUN.set({})
    try:
        yield
    finally:
        _RUN.reset(token)


def plain_key(value: Any) -> Any:
    """`value` as a hashable key when it is plain data (numbers, texts, lists, tuples, dicts of them), else None."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return (type(value).__name__, value)
    if isinstance(value, (list, tuple)):
        items = tuple(plain_key(v) for v in value)
        return None if None in items else (type(value).__name__, items)
    if isinstance(value, dict):
        pairs = tuple((plain_key(k), plain_key(v)) for k, v in value.items())
        return None if any(k is None or v is None for k, v in pairs) else ("dict", pairs)
    return None


def shared(design: Any, what: Any, key: Any, make: Callable[[], T]) -> T:
    """make(), whose result is the same in every language of `design`: inside a rulebook run, computed once by
    (what, design, key) and shared (`what`: the computation, any hashable object; `key`: its arguments, plain
    data); called as it is outside a run, or when `key` is not plain data (plain_key). What it raises is not kept
    (raised again at the next call)."""
    memo = _RUN.get()
    plain = plain_key(key) if memo is not None else None
    if memo is None or plain is None:
        return make()
    full = (what, id(design), plain)
    kept = memo.get(full)
    if kept is None:
        # the design is kept with the result: its id cannot be another design's during the run
        kept = memo[full] = (design, make())
    return kept[1]


def shared_by_languages(fn: F) -> F:
    """Decorator for `fn(design, *args)`, whose result is the same in every language: `shared` by the function and
    its other arguments."""

    @functools.wraps(fn)
    def by_args(design: Any, *args: Any, **kwargs: Any) -> Any:
        return shared(design, fn, (args, sorted(kwargs.items())), lambda: fn(design, *args, **kwargs))

    return by_args  # type: ignore[return-value]
