"""One rulebook run: what the languages of one design's rulebooks share.

`render_rulebooks` renders every language of a design inside `one_run()`. A game's function of the design
whose result does not depend on the language (a scripted play, a worked example's positions), decorated with
`@shared_by_languages`, is then computed once for all of them, by the design object and the other arguments;
outside a run it is simply called. The results are shared: their users read them and never change them. Nothing
is kept after the run, so an edited design (pnp watch) is never read from an earlier one.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

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


def shared_by_languages(fn: F) -> F:
    """Decorator for `fn(design, *args)`, whose result is the same in every language: inside a rulebook run, computed
    once by (design, args) and shared; called as it is outside a run, or with arguments that are not plain data.
    What it raises is not kept (raised again at the next call)."""

    @functools.wraps(fn)
    def shared(design: Any, *args: Any, **kwargs: Any) -> Any:
        memo = _RUN.get()
        key = plain_key((args, sorted(kwargs.items()))) if memo is not None else None
        if memo is None or key is None:
            return fn(design, *args, **kwargs)
        key = (fn, id(design), key)
        kept = memo.get(key)
        if kept is None:
            # the design is kept with the result: its id cannot be another design's during the run
            kept = memo[key] = (design, fn(design, *args, **kwargs))
        return kept[1]

    return shared  # type: ignore[return-value]
