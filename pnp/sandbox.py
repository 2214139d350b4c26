"""The Jinja2 environment that renders designs' templates and rules texts: sandboxed, confined, bounded.

- `ImmutableSandboxedEnvironment`: no attribute starting with `_`, no Python callables but
  the ones given, lists and dicts of the design cannot be changed;
- templates and what they `{% include %}`, `{% import %}` or `{% extends %}` are found
  through pnp.confine.DesignFiles (inside the design folder or pnp's templates/, bounded);
- compiling is bounded: brackets and blocks nest at most `template_nesting` levels, and nothing
  is evaluated at compile time but plain text (Jinja2's optimizer, which would
  fold `'x'|center(n) ~ ...` or `'nan'|float` into the code, is off);
- rendering is bounded (pnp.limits): every loop iteration, call and filter is a step, and so
  is every item a filter goes through (`render_steps`); every piece of output is counted
  (`render_output`); every string or list an operator, literal, method, filter or global
  builds is checked before it is built (`render_value`: `'x' * 10**9`, `'x'|center(10**9)`,
  `'{0:{1}}'.format('x', 10**9)`, `lipsum(10**5)`, a list printed whose items are lists...),
  and what they build is added up (`render_built`: a loop building a megabyte string at each
  step); `range()` is short (`range`); the clock is read every few steps (`render_seconds`);
- what is rendered is Unicode text: a lone surrogate (`'\\ud800'`) is refused where it is written.

So a template can loop, nest and recurse, but a hostile one stops in well under a
second with `LimitExceeded`, which the caller reports at the template's file:line.
"""

from __future__ import annotations

import contextvars
import functools
import math
import os
import re
import sys
import time
import types
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from string import Formatter
from typing import Any, cast

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.filters import FILTERS, make_attrgetter
from jinja2.parser import Parser
from jinja2.runtime import markup_join, str_join
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedEscapeFormatter, SandboxedFormatter
from jinja2.utils import Namespace, generate_lorem_ipsum
from markupsafe import Markup, soft_str

from pnp.confine import DesignFiles, FileRefused
from pnp.errors import display_path
from pnp.limits import LimitExceeded, limit

_CLOCK = 16
"""The clock is read every this many steps: one step (an operation on values of at most `render_value`) takes
milliseconds at worst, so a rendering stops soon after `render_seconds`."""


class _Budget:
    __slots__ = ("steps", "output", "output_limit", "built", "deadline", "clock", "nodes")

    def __init__(self, output_limit: str = "render_output") -> None:
        self.steps = limit("render_steps")
        self.output = limit(output_limit)
        self.output_limit = output_limit
        self.built = limit("render_built")
        self.deadline = time.monotonic() + limit("render_seconds")
        self.clock = _CLOCK
        self.nodes: dict[int, tuple[Any, int]] = {}  # large lists measured by _nodes in this rendering (kept alive)


_BUDGET: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar("pnp_render_budget", default=None)


def _budget() -> _Budget:
    budget = _BUDGET.get()
    if budget is None:  # rendering outside render(): a fresh budget for this thread of work
        budget = _Budget()
        _BUDGET.set(budget)
    return budget


def _step(n: int = 1) -> None:
    budget = _budget()
    budget.steps -= n
    if budget.steps < 0:
        raise LimitExceeded("render_steps", f"more than {limit('render_steps')} steps (loop iterations, calls, "
                            "filters and their items) in one rendering, as an endless recursion or deeply nested "
                            "loops make")
    budget.clock -= n
    if budget.clock <= 0:
        budget.clock = _CLOCK
        if time.monotonic() > budget.deadline:
            raise LimitExceeded("render_seconds", f"rendering takes more than {limit('render_seconds')} seconds")


class _AtLeast(int):
    """A size measured only in part (the walk stopped once past the bound): at least this."""


def _value(size: int, what: str = "a value the template builds") -> None:
    if size > limit("render_value"):
        raise LimitExceeded("render_value", f"{what}: {size}{' or more' if isinstance(size, _AtLeast) else ''}")


def _built(size: int) -> None:
    """`size` characters or items more built by this rendering (render_built)."""
    if size:
        budget = _budget()
        budget.built -= size
        if budget.built < 0:
            raise LimitExceeded("render_built", f"the strings and lists this rendering builds add up to more than "
                                f"{limit('render_built')} characters")


def _size(value: Any) -> int:
    return len(value) if isinstance(value, (str, bytes, bytearray, list, tuple, dict, set, frozenset)) else 0


def _fresh(value: Any) -> bool:
    """True when `value` (a call's result, held by the caller's variable and this argument) is held by nothing else:
    just built, not a value that was there before (a table's cell, a list of the design)."""
    return sys.getrefcount(value) <= 3


def _checked(result: Any) -> Any:
    """A call's or filter's result: a new string or list is counted (render_value, render_built), and a new list
    holding lists is measured with their items (every shared one as often as it is held)."""
    size = _size(result)
    if size and _fresh(result):
        _value(size)
        _built(size)
        if isinstance(result, _CONTAINERS) and _holds_containers(result):
            _value(_nodes(result), "a list the template builds, with the items of the lists inside it")
    return result


# --- sizes of lists, without building or walking more than needed ------------------------------------------------

_CONTAINERS = (list, tuple, dict, set, frozenset)
_TEXT_CONTAINERS = (list, tuple, dict, set, frozenset, Namespace)


def _holds_containers(value: Any) -> bool:
    kids: Iterable[Any] = value
    if isinstance(value, dict):
        return _holds_containers(list(value.keys())) or _holds_containers(list(value.values()))
    if isinstance(value, Namespace):
        return True
    return any(issubclass(t, _TEXT_CONTAINERS) for t in set(map(type, kids)))  # at C speed over long lists


def _kids(value: Any) -> list[Any] | None:
    if isinstance(value, dict):
        return [*value.keys(), *value.values()]
    if isinstance(value, (list, tuple, set, frozenset)):
        return list(value)
    if isinstance(value, Namespace):
        attrs = object.__getattribute__(value, "_Namespace__attrs")
        return [*attrs.keys(), *attrs.values()]
    return None


def _own_items(value: Any) -> int:
    if isinstance(value, Namespace):
        return len(object.__getattribute__(value, "_Namespace__attrs"))
    return len(value) if isinstance(value, _CONTAINERS) else 0


def _nodes(value: Any, cap: int | None = None) -> int:
    """The items of a list (tuple, dict, set) and of every list inside it, each shared one counted as often as it is
    held: what comparing, hashing or copying it deeply goes through. Each distinct list is walked once; once its
    distinct lists' items add up to more than 4 x `cap` (render_value) the walk stops (_AtLeast)."""
    cap = limit("render_value") if cap is None else cap
    budget = _budget()
    memo: dict[int, int] = {}
    walked = 0  # a lower bound of the result: every distinct list's own items once
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        obj, post = stack.pop()
        key = id(obj)
        if post:
            memo[key] = total = _own_items(obj) + sum(memo.get(id(k), 0) for k in _kids(obj) or ())
            if isinstance(obj, _CONTAINERS) and len(obj) >= 256:
                budget.nodes[key] = (obj, total)
            continue
        if key in memo:
            continue
        if key in budget.nodes and budget.nodes[key][0] is obj:
            memo[key] = budget.nodes[key][1]
            continue
        if not _holds_containers(obj):
            memo[key] = _own_items(obj)
            if isinstance(obj, _CONTAINERS) and len(obj) >= 256:
                budget.nodes[key] = (obj, memo[key])
            walked += memo[key]
        else:
            memo[key] = 0  # a list met again inside itself (a namespace can hold itself)
            stack.append((obj, True))
            kids = _kids(obj) or []
            walked += len(kids)
            stack.extend((k, False) for k in kids if isinstance(k, _TEXT_CONTAINERS) and id(k) not in memo)
        if walked > 4 * cap:
            return _AtLeast(walked)
    return memo[id(value)]


def _text_size(value: Any, cap: int | None = None) -> int:
    """About len(str(value)) for a list, tuple, dict, set or namespace (its items as their repr), without building
    it; each shared item is measured once. Once its distinct items add up to more than 4 x `cap` (render_value)
    the walk stops (_AtLeast)."""
    cap = limit("render_value") if cap is None else cap
    memo: dict[int, int] = {}
    walked = 0  # a lower bound: each distinct item once, with a separator each time it is held
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        obj, post = stack.pop()
        key = id(obj)
        if post:
            memo[key] = _joined(obj, memo)
            continue
        if key in memo:
            continue
        kids = _kids(obj)
        if kids is None:
            memo[key] = size = _leaf_size(obj, 4 * cap)
            walked += size
        else:
            memo[key] = 5  # "[...]": a namespace met again inside itself
            stack.append((obj, True))
            walked += 2 * len(kids) + 2
            stack.extend((k, False) for k in kids if id(k) not in memo)
        if walked > 4 * cap:
            return _AtLeast(walked)
    return memo[id(value)]


def _leaf_size(obj: Any, cap: int) -> int:
    if isinstance(obj, (str, bytes)):
        return len(repr(obj)) if len(obj) <= cap else len(obj)
    if isinstance(obj, int) and not isinstance(obj, bool) and abs(obj) >= 10 ** 15:
        return int(obj.bit_length() * 0.30103) + 2
    return len(repr(obj))


def _joined(obj: Any, memo: dict[int, int]) -> int:
    if isinstance(obj, Namespace):
        attrs = object.__getattribute__(obj, "_Namespace__attrs")
        return 12 + _joined(attrs, memo)
    if isinstance(obj, dict):
        n = len(obj)
        return 2 + sum(memo[id(k)] + memo[id(v)] + 2 for k, v in obj.items()) + 2 * max(n - 1, 0)
    n = len(obj)
    inside = sum(memo[id(k)] for k in obj) + 2 * max(n - 1, 0)
    if isinstance(obj, (set, frozenset)):  # {1, 2}, set(), frozenset({1}), frozenset()
        named = 0 if isinstance(obj, set) else 11
        return named + (2 + inside if n else 5 if isinstance(obj, set) else 0)
    return 2 + inside + (1 if isinstance(obj, tuple) and n == 1 else 0)


def _text_of(value: Any, what: str) -> None:
    """A list (tuple, dict, set, namespace) about to become text: its text's size checked first."""
    if isinstance(value, _TEXT_CONTAINERS):
        _value(_text_size(value), what)


# --- format strings: widths, precisions and what fills the fields, bounded before formatting --------------------


def _count(raw: Any) -> int:
    if isinstance(raw, bool):
        return int(raw)
    if isinstance(raw, int):
        return abs(raw)
    if isinstance(raw, str) and raw.isdigit():
        return int(raw) if len(raw) <= 12 else 10 ** 12
    return 0


def _digits(value: int) -> int:
    return len(str(value)) if abs(value) < 10 ** 15 else int(value.bit_length() * 0.30103) + 2


def _field_content(value: Any, kind: str, precision: int | None) -> int:
    """An upper bound of the characters `value` takes formatted as `kind` (a format spec's type, '' for none), before
    its width pads it."""
    if isinstance(value, str):
        return min(len(value), precision) if precision is not None and kind in ("", "s") else len(value)
    if isinstance(value, bool) and not kind:
        return 5
    floats = ("e", "E", "f", "F", "g", "G", "%")
    if isinstance(value, int) and kind not in floats:
        bits = abs(value).bit_length()
        body = {"b": bits, "o": bits // 3 + 1, "x": bits // 4 + 1, "X": bits // 4 + 1, "c": 1}.get(kind, _digits(value))
        return max(body, precision or 0) * 4 // 3 + 4  # grouping, sign, 0x
    if isinstance(value, (int, float)):
        if isinstance(value, int):
            whole = _digits(value)
        else:
            whole = len(str(int(abs(value)))) if math.isfinite(value) and abs(value) >= 1 else 1
        if kind in ("f", "F", "%"):
            return (whole + 2) * 4 // 3 + (6 if precision is None else precision) + 4
        return (17 if precision is None else precision) + 10
    if isinstance(value, _TEXT_CONTAINERS):
        return _text_size(value)
    if isinstance(value, complex):
        return 2 * ((17 if precision is None else precision) + 10)
    return len(repr(value)) if value is None or isinstance(value, bool) else 64


_SPEC = re.compile(r"(?:.?[<>=^])?[-+ ]?z?#?0?(\d*)[,_]?(?:\.(\d+))?([a-zA-Z%]?)\Z", re.S)


def _field_size(value: Any, spec: str) -> int:
    """An upper bound of len(format(value, spec)); a width or precision too large is refused as such."""
    m = _SPEC.match(spec)
    if m is None:  # a type's own mini-language (none pnp gives a template): its largest number, as a width
        widths = [_count(d) for d in re.findall(r"\d+", spec)]
        for w in widths:
            _value(w, "a width in a format string")
        return max(widths, default=0) + len(spec) + 64
    width, precision = _count(m.group(1)), _count(m.group(2)) if m.group(2) else None
    _value(width, "a width in a format string")
    _value(precision or 0, "a precision in a format string")
    return max(width, _field_content(value, m.group(3), precision))


class _BoundedFields:
    """str.format / format_map in the sandbox (Jinja2's formatters, which look attributes up safely), each field
    measured before it is formatted, nested fields (`'{0:{1}}'`) once they are filled in, and the whole result."""

    total = 0

    def vformat(self, format_string: Any, args: Any, kwargs: Any) -> str:
        self.total = len(format_string)
        return super().vformat(format_string, args, kwargs)  # type: ignore[misc]

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion in ("r", "a", "s"):
            _text_of(value, "the text of a field of a format string")
        return super().convert_field(value, conversion)  # type: ignore[misc]

    def format_field(self, value: Any, format_spec: str) -> Any:
        self.total += _field_size(value, format_spec)
        _value(self.total, "the result of format")
        return super().format_field(value, format_spec)  # type: ignore[misc]


class _Formatter(_BoundedFields, SandboxedFormatter):
    pass


class _EscapeFormatter(_BoundedFields, SandboxedEscapeFormatter):
    pass


_PRINTF = re.compile(r"%(?:\(([^)]*)\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d*))?[hlL]?(.?)", re.S)
_PRINTF_KIND = {"d": "d", "i": "d", "u": "d", "o": "o", "x": "x", "X": "x", "e": "e", "E": "e", "f": "f", "F": "f",
                "g": "g", "G": "g", "c": "c", "s": "", "r": "", "a": ""}


def _check_format(fmt: str, args: Any) -> None:
    """'%1000000000d' % 1, '%*d' % (10**9, 1), '%s' * 100 % (big,) * 100, '%s' % nested_list: widths, precisions and
    what fills the fields bounded before formatting."""
    if "%" not in fmt:
        return
    mapping = args if isinstance(args, Mapping) else None
    items = list(args) if isinstance(args, tuple) else [args]
    total, i = len(fmt), 0

    def take() -> Any:
        nonlocal i
        i += 1
        return items[i - 1] if i <= len(items) else None

    for m in _PRINTF.finditer(fmt):
        key, width, precision, kind = m.groups()
        if kind == "%" or kind not in _PRINTF_KIND:
            continue
        w = _count(take() if width == "*" else width)
        p = None if precision is None else _count(take() if precision == "*" else precision or "0")
        if key is not None and mapping is not None:
            try:
                value = mapping[key]
            except Exception:  # the formatting itself says what is wrong
                value = None
        else:
            value = take()
        _value(w, "a width in a format string" if width != "*" else "a width given to a format string")
        _value(p or 0, "a precision in a format string")
        if kind in ("r", "a") and isinstance(value, str):
            content = len(value) + 2 if p is None else min(len(value) + 2, p)
        else:
            content = _field_content(value, _PRINTF_KIND[kind], p)
        total += max(w, content)
        _value(total, "the result of %")


def _estimate_join(sep: str, items: list) -> int:
    size = 0
    for x in items:
        if isinstance(x, str):
            size += len(x)
        elif isinstance(x, _TEXT_CONTAINERS):
            size += _text_size(x)
        else:
            size += len(soft_str(x))
    return size + len(sep) * max(len(items) - 1, 0)


def _check_int_power(left: Any, right: Any) -> None:
    if isinstance(left, int) and isinstance(right, int) and not isinstance(left, bool) and right > 0 and abs(left) > 1:
        bits = right * math.log2(abs(left))
        if bits > 8 * limit("render_value"):
            raise LimitExceeded("render_value", f"a number of about {int(bits)} bits would be computed")


def _sequence_size(value: Any) -> int:
    """A list's size with the items of the lists it holds (render_value bounds both), a string's length."""
    if isinstance(value, (list, tuple)) and _holds_containers(value):
        return _nodes(value)
    return _size(value)


# --- text that is not Unicode -------------------------------------------------------------------------------------

_SURROGATE = re.compile("[\ud800-\udfff]")


class TextRefused(Exception):
    """A rendered text holds what is not a character (a lone surrogate); the caller adds file:line."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


def _whole_text(text: Any) -> Any:
    """`text` when it holds no surrogate; its pairs of surrogates (`'\\ud83d\\ude00'`, as JSON writes 😀) joined
    into their character; TextRefused for a lone one."""
    if text.isascii() or not _SURROGATE.search(text):
        return text
    try:
        whole = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError as exc:
        lone = int.from_bytes(exc.object[exc.start:exc.start + 2], "little")
        raise TextRefused(f"the text holds U+{lone:04X}, half of a UTF-16 surrogate pair without its other "
                          "half, which is not a character; expected Unicode text (write \\U0001F600 for 😀, not "
                          "\\ud83d\\ude00)") from None
    return type(text)(whole) if isinstance(text, Markup) else whole


def _check_text_args(args: tuple, kwargs: dict) -> None:
    for a in (*args, *kwargs.values()):
        for s in (a if isinstance(a, (list, tuple)) else (a,)):
            if isinstance(s, str):
                _whole_text(s)


# --- the compiled code ------------------------------------------------------------------------------------------


def _literal_source(value: Any) -> str:
    """Python source of a constant: a float that is not finite has no literal (Jinja2 writes `nan`, a NameError)."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({str(value)!r})"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, complex):
        return f"complex({_literal_source(value.real)}, {_literal_source(value.imag)})"
    if isinstance(value, tuple):
        return "(" + "".join(_literal_source(v) + ", " for v in value) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(_literal_source(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal_source(k)}: {_literal_source(v)}" for k, v in value.items()) + "}"
    return repr(value)


class _Sliced:
    """`obj[a:b]` in a template (Jinja2 writes it as Python does): the copy it makes is counted (render_built)."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any):
        self.obj = obj

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice) and isinstance(self.obj, (str, bytes, bytearray, list, tuple)):
            _built(len(range(*key.indices(len(self.obj)))))
        return self.obj[key]


class _BoundedCodeGenerator(CodeGenerator):
    """Counts loop iterations and output, bounds `~` joins and literal lists, and evaluates nothing at compile time
    but plain text, in the compiled template code."""

    def visit_For(self, node: nodes.For, frame) -> None:
        it = node.iter
        if not (isinstance(it, nodes.Call) and isinstance(it.node, nodes.EnvironmentAttribute)
                and it.node.name == "pnp_counted"):
            node.iter = nodes.Call(nodes.EnvironmentAttribute("pnp_counted"), [it], [], None, None,
                                   lineno=it.lineno)
        super().visit_For(node, frame)

    def visit_Concat(self, node: nodes.Concat, frame) -> None:
        if frame.eval_ctx.volatile:
            self.write("environment.pnp_concat(context.eval_ctx.autoescape, (")
        else:
            self.write(f"environment.pnp_concat({bool(frame.eval_ctx.autoescape)}, (")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")

    def visit_Getitem(self, node: nodes.Getitem, frame) -> None:
        if not isinstance(node.arg, nodes.Slice):
            super().visit_Getitem(node, frame)
            return
        self.write("environment.pnp_sliced(")
        self.visit(node.node, frame)
        self.write(")[")
        self.visit(node.arg, frame)
        self.write("]")

    def visit_Const(self, node: nodes.Const, frame) -> None:
        self.write(_literal_source(node.as_const(frame.eval_ctx)))

    def visit_List(self, node: nodes.List, frame) -> None:
        self.write("environment.pnp_literal(")
        super().visit_List(node, frame)
        self.write(")")

    def visit_Dict(self, node: nodes.Dict, frame) -> None:
        self.write("environment.pnp_literal(")
        super().visit_Dict(node, frame)
        self.write(")")

    def visit_Tuple(self, node: nodes.Tuple, frame) -> None:
        if node.ctx != "load":  # a target: {% for a, b in ... %}, {% set a, b = ... %}
            super().visit_Tuple(node, frame)
            return
        self.write("environment.pnp_literal(")
        super().visit_Tuple(node, frame)
        self.write(")")

    def _output_child_to_const(self, node, frame, finalize) -> str:
        if not isinstance(node, nodes.TemplateData):
            raise nodes.Impossible()  # evaluated when rendering, within the budget, at its own line
        return super()._output_child_to_const(node, frame, finalize)

    def _output_const_repr(self, group) -> str:
        return f"environment.pnp_output({super()._output_const_repr(group)})"

    def _output_child_pre(self, node, frame, finalize) -> None:
        self.write("environment.pnp_output(")
        super()._output_child_pre(node, frame, finalize)
        self.write("environment.pnp_sized(")

    def _output_child_post(self, node, frame, finalize) -> None:
        self.write(")")
        super()._output_child_post(node, frame, finalize)
        self.write(")")


# --- filters ----------------------------------------------------------------------------------------------------

_STRUCTURAL = frozenset({
    "abs", "attr", "batch", "count", "d", "default", "dictsort", "first", "float", "format", "groupby", "int", "items",
    "join", "last", "length", "list", "map", "max", "min", "pprint", "random", "reject", "rejectattr", "reverse",
    "round", "select", "selectattr", "slice", "sort", "sum", "tojson", "unique", "xmlattr",
})
"""Filters that do not turn their value into text (or that check it themselves); any other filter (pnp's own
too) has a list it is given measured as text first."""

_CONSUMING = frozenset({"batch", "first", "groupby", "list", "map", "max", "min", "reject", "rejectattr", "select",
                        "selectattr", "slice", "sort", "unique"})
"""Filters that go through their value's items: each item is a step, as the filter takes it."""

_WHOLE = frozenset({"dictsort", "items"})
"""Filters that read a mapping whole: its items are steps, counted before."""


def _bounded(name: str, fn: Any) -> Any:
    """A filter with its steps counted, its value checked before (items, text size) and its result after."""
    pos = 0 if getattr(fn, "jinja_pass_arg", None) is None else 1
    consuming, whole, textual = name in _CONSUMING, name in _WHOLE, name not in _STRUCTURAL

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        _step()
        if len(args) > pos:
            value = args[pos]
            if consuming and isinstance(value, Iterable) and not isinstance(value, jinja2.Undefined):
                args = (*args[:pos], _counted(value), *args[pos + 1:])
            elif whole and hasattr(value, "__len__"):
                _step(len(value))
            elif textual:
                _text_of(value, f"the text of the value given to {name}")
        return _checked(fn(*args, **kwargs))

    return run


def _counted(iterable: Iterable) -> Iterator:
    for item in iterable:
        _step()
        yield item


class _Filters(dict):
    """The environment's filters: each one set (Jinja2's, pnp's `plain`...) is bounded (_bounded)."""

    def __setitem__(self, name: str, fn: Any) -> None:
        super().__setitem__(name, fn if getattr(fn, "pnp_bounded", False) else _bounded(name, fn))


def _own(fn: Any) -> Any:
    fn.pnp_bounded = True
    return fn


def _bounded_filters() -> _Filters:
    """The built-in filters, each counted (_bounded); those that can build large text or lists from small arguments
    have their sizes checked first."""
    f = _Filters()
    for name, fn in FILTERS.items():
        f[name] = fn

    def center(value, width=80):
        _value(int(width) if isinstance(width, int) else 0, "the width given to center")
        return FILTERS["center"](value, width)

    def indent(s, width=4, first=False, blank=False):
        pad = len(width) if isinstance(width, str) else (width if isinstance(width, int) else 0)
        _value(len(soft_str(s)) + (soft_str(s).count("\n") + 1) * max(pad, 0), "the result of indent")
        return FILTERS["indent"](s, width, first, blank)

    join_filter = FILTERS["join"]

    @jinja2.pass_eval_context
    def join(eval_ctx, value, d="", attribute=None):
        _step()
        items = value if isinstance(value, jinja2.Undefined) else list(_counted(value))
        if attribute is None and not isinstance(items, jinja2.Undefined):
            _value(_estimate_join(soft_str(d), items), "the result of join")
        out = join_filter(eval_ctx, items, d, attribute)
        _value(len(out), "the result of join")
        _built(len(out))
        return out

    replace_filter = FILTERS["replace"]

    @jinja2.pass_eval_context
    def replace(eval_ctx, s, old, new, count=None):
        s_, old_, new_ = soft_str(s), soft_str(old), soft_str(new)
        n = (len(s_) + 1) if not old_ else s_.count(old_)
        if count is not None and isinstance(count, int):
            n = min(n, max(count, 0))
        _value(len(s_) + n * max(len(new_) - len(old_), 0), "the result of replace")
        return replace_filter(eval_ctx, s, old, new, count)

    def format_(value, *args, **kwargs):
        _check_format(soft_str(value), kwargs or args)
        return FILTERS["format"](value, *args, **kwargs)

    def wordwrap(env, s, width=79, break_long_words=True, wrapstring=None, break_on_hyphens=True):
        _value(len(soft_str(s)) * (1 + len(soft_str(wrapstring or "\n"))), "the result of wordwrap")
        return FILTERS["wordwrap"](env, s, width, break_long_words, wrapstring, break_on_hyphens)

    wordwrap = jinja2.pass_environment(wordwrap)

    def batch(value, linecount, fill_with=None):
        _value(int(linecount) if isinstance(linecount, int) else 0, "the line count given to batch")
        return FILTERS["batch"](value, linecount, fill_with)

    @jinja2.pass_eval_context
    def slice_(eval_ctx, value, slices, fill_with=None):
        _value(int(slices) if isinstance(slices, int) else 0, "the slice count given to slice")
        return FILTERS["slice"](eval_ctx, value, slices, fill_with)

    def tojson(eval_ctx_or_env, value, indent=None):
        if isinstance(value, _TEXT_CONTAINERS):
            depth = _depth(value) if isinstance(indent, int) and indent > 0 else 0
            _value(_text_size(value) * (1 + depth * max(indent or 0, 0)), "the result of tojson")
        elif isinstance(value, str):  # <, >, &, ' and what is not ASCII are written \u003c
            escaped = len(value) if not value.isascii() else sum(value.count(c) for c in "<>&'\"\\")
            _value(len(value) + 2 + 5 * escaped, "the result of tojson")
        return FILTERS["tojson"](eval_ctx_or_env, value, indent)

    tojson = jinja2.pass_eval_context(tojson)

    def pprint(value):
        if isinstance(value, _TEXT_CONTAINERS):
            _value(_text_size(value) * (1 + _depth(value)), "the result of pprint")
        return FILTERS["pprint"](value)

    @jinja2.pass_eval_context
    def xmlattr(eval_ctx, d, autospace=True):
        _text_of(d, "the attributes given to xmlattr")
        return FILTERS["xmlattr"](eval_ctx, d, autospace)

    def urlize(*args, **kwargs):
        s = soft_str(args[1] if len(args) > 1 else "")
        _value(2 * len(s) + 64 * (s.count(" ") + s.count("\n") + 1), "the result of urlize")
        return FILTERS["urlize"](*args, **kwargs)

    urlize = jinja2.pass_eval_context(urlize)

    def round_(value, precision=0, method="common"):
        if isinstance(precision, int):
            _value(abs(precision), "the digits of the power of ten round computes")
        return FILTERS["round"](value, precision, method)

    def sum_(environment, iterable, attribute=None, start=0):
        if attribute is not None:
            iterable = map(make_attrgetter(environment, attribute), iterable)
        items = list(_counted(iterable))
        if all(isinstance(x, (int, float)) for x in (start, *items)):
            return sum(items, start)  # numbers: exactly Jinja2's (and Python's) sum
        if isinstance(start, str):
            raise TypeError("sum() can't sum strings [use ''.join(seq) instead]")
        total = start
        for item in items:
            if _size(total) and _size(item):
                _value(_size(total) + _size(item), "the result of sum")
                _built(_size(total) + _size(item))
            total = total + item
        return total

    sum_ = jinja2.pass_environment(sum_)
    own = dict(center=center, indent=indent, join=join, replace=replace, format=format_, wordwrap=wordwrap,
               batch=batch, slice=slice_, tojson=tojson, pprint=pprint, xmlattr=xmlattr, urlize=urlize, round=round_,
               sum=sum_)
    for name, fn in own.items():
        f[name] = _own(fn) if name == "join" else fn  # join counts its items and result itself
    return f


def _depth(value: Any) -> int:
    """How deep lists nest in `value` (each distinct list walked once)."""
    depth: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        obj, post = stack.pop()
        kids = _kids(obj)
        if kids is None:
            continue
        if post:
            depth[id(obj)] = 1 + max((depth.get(id(k), 0) for k in kids), default=0)
        elif id(obj) not in depth:
            depth[id(obj)] = 1
            stack.append((obj, True))
            stack.extend((k, False) for k in kids if isinstance(k, _TEXT_CONTAINERS) and id(k) not in depth)
    return depth.get(id(value), 0)


_STR_WIDTH = {"center", "ljust", "rjust", "zfill"}

CALL_STEPS = 10
"""A call (a macro, a method, a filter written as a call) counts as this many steps: it costs about that much more
than a loop iteration."""

_OPENERS = frozenset({"for", "if", "macro", "call", "filter", "block", "with", "autoescape"})
"""The {% %} tags that open a block closed by {% end... %} (and `set` without `=`)."""


class NestingError(jinja2.TemplateSyntaxError):
    """A template nested too deeply to compile; its message says what is expected."""


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """A sandbox whose compiling and rendering are bounded (see the module docstring)."""

    code_generator_class = _BoundedCodeGenerator
    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def __init__(self, **options: Any):
        options["optimized"] = False  # constant folding would compute outside the budget (see the module docstring)
        super().__init__(**options)
        self.filters = _bounded_filters()
        self.globals["range"] = self.pnp_range
        self.globals["lipsum"] = self.pnp_lipsum

    # --- compiling ------------------------------------------------------------------------------------------------
    def compile(self, source: Any, name: str | None = None, filename: str | None = None, raw: bool = False,
                defer_init: bool = False) -> Any:
        token = _BUDGET.set(_Budget())  # what compiling evaluates (an {% autoescape %} argument) is bounded too
        try:
            return super().compile(source, name, filename, raw, defer_init)  # type: ignore[call-overload]
        finally:
            _BUDGET.reset(token)

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        self._check_nesting(source, name, filename)
        parser = Parser(self, source, name, filename)
        try:
            return parser.parse()
        except (RecursionError, MemoryError):
            raise NestingError("an expression nested too deeply to read; expected simpler expressions (fewer "
                               "operators in a row, or parts set apart with {% set %})", parser.stream.current.lineno,
                               name, filename) from None

    def _generate(self, source: nodes.Template, name: str | None, filename: str | None,
                  defer_init: bool = False) -> str:
        try:
            return super()._generate(source, name, filename, defer_init)
        except (RecursionError, MemoryError):
            raise NestingError("an expression nested too deeply to compile (a chain of hundreds of operators or "
                               "filters?); expected simpler expressions (parts set apart with {% set %})",
                               cast(int, _deepest_line(source)), name, filename) from None  # None: no line known

    def _compile(self, source: str, filename: str) -> types.CodeType:
        try:
            return super()._compile(source, filename)
        except (SyntaxError, RecursionError, MemoryError) as exc:
            line = _template_line_of(source, getattr(exc, "lineno", None))
            raise NestingError("an expression nested too deeply to compile (a chain of hundreds of operators or "
                               "filters?); expected simpler expressions (parts set apart with {% set %})",
                               cast(int, line), None, filename) from None  # None: no line known

    def _check_nesting(self, source: str, name: str | None, filename: str | None) -> None:
        """Brackets and {% %} blocks nest at most `template_nesting` levels (Jinja2's parser recurses once a level,
        Python compiles at most 20 nested loops): counted on the tokens, before parsing."""
        most = limit("template_nesting")
        brackets = blocks = 0
        tag: str | None = None
        in_tag = assigns = False
        for lineno, kind, value in self.lexer.tokeniter(source, name, filename):
            if kind == "operator":
                if value in ("(", "[", "{"):
                    brackets += 1
                    if brackets > most:
                        raise NestingError(f"brackets nested more than {most} levels deep; expected at most {most} "
                                           "levels of ( [ { in an expression", lineno, name, filename)
                elif value in (")", "]", "}"):
                    brackets = max(brackets - 1, 0)
                elif value == "=" and tag == "set":
                    assigns = True
            elif kind == "block_begin":
                in_tag, tag, assigns = True, None, False
            elif kind == "name" and in_tag and tag is None:
                tag = value
            elif kind == "block_end":
                if tag in _OPENERS or (tag == "set" and not assigns):
                    blocks += 1
                    if blocks > most:
                        raise NestingError(f"{{% %}} blocks nested more than {most} levels deep ({{% {tag} %}} "
                                           f"here); expected at most {most} levels", lineno, name, filename)
                elif tag and tag.startswith("end"):
                    blocks = max(blocks - 1, 0)
                in_tag, tag = False, None

    # --- hooks the compiled code calls -----------------------------------------------------
    def pnp_counted(self, iterable: Iterable) -> Iterable:
        for item in iterable:
            _step()
            yield item

    def pnp_output(self, text: Any) -> Any:
        budget = _budget()
        budget.output -= len(text)
        if budget.output < 0:
            name = budget.output_limit
            raise LimitExceeded(name, f"the text rendered is longer than {limit(name)} characters")
        return _whole_text(text)

    def pnp_sized(self, value: Any) -> Any:
        _text_of(value, "the text of the value printed")
        return value

    def pnp_concat(self, markup: bool, parts: Iterable) -> str:
        parts = tuple(parts)
        _value(sum(len(p) if isinstance(p, str) else _text_size(p) if isinstance(p, _TEXT_CONTAINERS) else 0
                   for p in parts), "the result of ~")
        items = [soft_str(p) if not hasattr(p, "__html__") else p for p in parts]
        size = sum(len(p) for p in items)
        _value(size, "the result of ~")
        _built(size)
        return markup_join(items) if markup else str_join(items)

    def pnp_literal(self, value: Any) -> Any:
        if _holds_containers(value):
            _value(_nodes(value), "a list the template writes, with the items of the lists inside it")
        return value

    def pnp_range(self, *args: int) -> range:
        rng = range(*args)
        if len(rng) > limit("range"):
            raise LimitExceeded("range", f"range() of {len(rng)} items")
        return rng

    def pnp_lipsum(self, n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:
        """Jinja2's lipsum(), its text's size bounded by its arguments before it is made."""
        paragraphs, words = (v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else 0 for v in (n, max))
        _value(paragraphs * (words * 16 + 16), "the text lipsum would make")
        _step(paragraphs * words)
        return generate_lorem_ipsum(n, html, min, max)

    # --- the sandbox's own hooks ----------------------------------------------------------
    def call_binop(self, context, operator: str, left: Any, right: Any) -> Any:
        _step()
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(n, int) and not isinstance(n, bool) and _size(seq) and not isinstance(seq, dict):
                    _value(_sequence_size(seq) * max(n, 0), "the result of *")
            if isinstance(left, int) and isinstance(right, int):
                _check_int_power(2, left.bit_length() + right.bit_length())
        elif operator == "+":
            if _size(left) and _size(right):
                _value(_sequence_size(left) + _sequence_size(right), "the result of +")
        elif operator == "**":
            _check_int_power(left, right)
        elif operator == "%" and isinstance(left, str):
            _check_format(left, right)
        result = super().call_binop(context, operator, left, right)
        size = _size(result)
        _value(size)
        _built(size)
        return result

    def pnp_sliced(self, obj: Any) -> Any:
        return _Sliced(obj)

    def wrap_str_format(self, value: Any) -> Any:
        """str.format and format_map, as Jinja2's sandbox wraps them, with every field bounded (_BoundedFields)."""
        if not isinstance(value, (types.MethodType, types.BuiltinMethodType)) or value.__name__ not in (
                "format", "format_map") or not isinstance(value.__self__, str):
            return None
        f_self: str = value.__self__
        str_type = type(f_self)
        is_format_map = value.__name__ == "format_map"
        formatter: Formatter = (_EscapeFormatter(self, escape=f_self.escape) if isinstance(f_self, Markup)
                                else _Formatter(self))

        def wrapper(*args: Any, **kwargs: Any) -> str:
            if is_format_map:
                if kwargs:
                    raise TypeError("format_map() takes no keyword arguments")
                if len(args) != 1:
                    raise TypeError(f"format_map() takes exactly one argument ({len(args)} given)")
                kwargs, args = args[0], ()
            return str_type(formatter.vformat(f_self, args, kwargs))

        return functools.update_wrapper(wrapper, value)

    def call(__self, __context, __obj, *args: Any, **kwargs: Any) -> Any:  # Jinja's own signature
        _step(CALL_STEPS)
        owner = getattr(__obj, "__self__", None)
        name = getattr(__obj, "__name__", "")
        if isinstance(owner, (str, bytes, bytearray)):
            args = _check_text_method(owner, name, args, kwargs)
        elif isinstance(owner, int) and not isinstance(owner, bool) and name == "to_bytes":
            length = args[0] if args else kwargs.get("length", 1)
            _value(length if isinstance(length, int) else 0, "the length given to to_bytes")
        elif isinstance(__obj, (types.FunctionType, types.MethodType)):  # pnp's globals (textbox, diagram...)
            _check_text_args(args, kwargs)
        return _checked(super().call(__context, __obj, *args, **kwargs))


def _check_text_method(owner: str | bytes | bytearray, name: str, args: tuple, kwargs: dict) -> tuple:
    """A string's method that can build more than its string, its result's size checked before it is called."""
    if name in _STR_WIDTH:
        width = args[0] if args else kwargs.get("width", 0)
        _value(width if isinstance(width, int) else 0, f"the width given to {name}")
    elif name == "expandtabs":
        tab = args[0] if args else kwargs.get("tabsize", 8)
        _value(len(owner) * (tab if isinstance(tab, int) else 8), "the result of expandtabs")
    elif name == "replace" and len(args) >= 2:
        old, new = args[0], args[1]
        if isinstance(owner, str):
            old, new = soft_str(old), soft_str(new)
        if hasattr(old, "__len__") and hasattr(new, "__len__"):
            n = (len(owner) + 1) if not old else owner.count(old)
            if len(args) >= 3 and isinstance(args[2], int) and args[2] >= 0:
                n = min(n, args[2])
            _value(len(owner) + n * max(len(new) - len(old), 0), "the result of replace")
    elif name == "join" and args:
        items = list(_counted(args[0]))
        _value(sum(len(x) if isinstance(x, (str, bytes, bytearray)) else 0 for x in items)
               + len(owner) * max(len(items) - 1, 0), "the result of join")
        args = (items, *args[1:])
    elif name == "translate" and isinstance(owner, str) and args:
        table, size = args[0], 0
        for ch, times in Counter(owner).items():
            try:
                to = table[ord(ch)]
            except Exception:  # not in the table: kept (a table that is not one: translate says so)
                to = ch
            size += times * (len(to) if isinstance(to, str) else 0 if to is None else 1)
        _value(size, "the result of translate")
    return args


def _deepest_line(tree: nodes.Node) -> int | None:
    """The line of the most deeply nested node of a parsed template (walked without recursion)."""
    deepest, line = -1, None
    stack: list[tuple[nodes.Node, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > deepest and getattr(node, "lineno", None):
            deepest, line = depth, node.lineno
        stack.extend((child, depth + 1) for child in node.iter_child_nodes())
    return line


_DEBUG_INFO = re.compile(r"^debug_info = '([0-9=&]*)'$", re.M)


def _template_line_of(source: str, code_line: int | None) -> int | None:
    """The template line of a line of the Python code Jinja2 made of it (its debug_info: template=code pairs)."""
    m = _DEBUG_INFO.search(source)
    if not m or not code_line or not m.group(1):
        return None
    line = None
    for pair in m.group(1).split("&"):
        template, code = (int(x) for x in pair.split("="))
        if code <= code_line:
            line = template
    return line


class DesignLoader(jinja2.BaseLoader):
    """Finds templates through a DesignFiles: the first of `bases` that holds the name, confined and bounded."""

    def __init__(self, files: DesignFiles, bases: list[Path], limit_name: str, shared: bool = True):
        self.files, self.bases, self.limit_name, self.shared = files, bases, limit_name, shared

    def get_source(self, environment, template: str):
        path = self.files.locate(template, self.bases, shared=self.shared, what="template")
        if path is None:
            raise jinja2.TemplateNotFound(template)
        raw = self.files.read_bytes(path, self.limit_name, shared=self.shared)
        try:
            source = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            raise FileRefused(f"'{display_path(path)}' line {line}: byte 0x{raw[exc.start]:02X} is not UTF-8; "
                              "expected a UTF-8 text file (re-save it as UTF-8)") from None
        try:
            mtime = os.stat(path).st_mtime_ns
        except OSError:
            mtime = None

        def uptodate() -> bool:
            try:
                return os.stat(path).st_mtime_ns == mtime
            except OSError:
                return False

        return source, str(path), uptodate


def environment(files: DesignFiles, bases: list[Path], limit_name: str, **options: Any) -> BoundedSandbox:
    """A bounded sandbox loading templates from `bases` (design folders first, then pnp's templates/)."""
    return BoundedSandbox(loader=DesignLoader(files, bases, limit_name), undefined=jinja2.StrictUndefined,
                          **options)


def render(template: jinja2.Template, context: dict[str, Any], output_limit: str = "render_output") -> str:
    """Render with a fresh budget: pnp.limits `render_steps`, and `output_limit` characters of output."""
    token = _BUDGET.set(_Budget(output_limit))
    try:
        return template.render(**context)
    finally:
        _BUDGET.reset(token)


RENDER_ERRORS = (LimitExceeded, FileRefused, TextRefused, RecursionError, MemoryError, OverflowError)
"""What rendering raises besides Jinja2's own errors, each reported at the template's line."""


def describe(exc: BaseException) -> str:
    """The message of a rendering error that is not Jinja2's: `what is wrong; what is expected`."""
    if isinstance(exc, (LimitExceeded, FileRefused, TextRefused)):
        return exc.message
    if isinstance(exc, RecursionError):
        return "recursion too deep (a macro or include that calls itself without end?); expected a template " \
               "that ends"
    if isinstance(exc, MemoryError):
        return "the template needs more memory than there is; expected a template that builds less text"
    if isinstance(exc, OverflowError):
        return f"{exc}; expected numbers of a reasonable size"
    return str(exc)
