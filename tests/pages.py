"""What the tests of pnp's local pages share: waiting on a page in a real browser (`until`), and, for pnp play,
reading a drawing's click targets as the page reads them (`clickables`) and the engine's reason for an action
(`engine_reason`)."""

from __future__ import annotations

import time
from collections.abc import Callable

from lxml import etree


def until(page, js: str, timeout: float = 20.0, arg=None, step: float = 0.02,
          explain: Callable[[], str] | None = None):
    """Poll `js` (a function of `arg`) in the page until it returns something true; that value. (The pages'
    Content Security Policy forbids the eval that Playwright's wait_for_function uses.) `explain`: more to say
    when it never does (the page's status)."""
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(js, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not true after {timeout} s: {js}" + (f" ({explain()})" if explain else ""))
        time.sleep(step)


def clickables(svg: str) -> list[tuple[list[int], str]]:
    """(data-actions, data-label) of every element of a play view's SVG a click may play, in document order."""
    root = etree.fromstring(svg.encode("utf-8"))
    return [([int(a) for a in el.get("data-actions").split()], el.get("data-label") or "")
            for el in root.iter() if el.get("data-actions") is not None]


def engine_reason(state, action: int) -> str:
    """Why the engine refuses `action` in `state` (its IllegalActionError's message), "" when it takes it."""
    try:
        state.clone().apply_action(action)
    except ValueError as exc:
        return str(exc)
    return ""
