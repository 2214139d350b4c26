"""The Jinja2 environment that renders designs' templates and rules texts: sandboxed, confined, bounded.

- `ImmutableSandboxedEnvironment`: no attribute starting with `_`, no Python callables but
  the ones given, lists and dicts of the design cannot be changed;
- templates and what they `{% include %}`, `{% import %}` or `{% extends %}` are found
  through pnp.confine.DesignFiles (inside the design folder or pnp's templates/, bounded);
- rendering is bounded (pnp.limits): every loop iteration and call is a step
  (`render_steps`), every piece of output is counted (`render_output`), every string or
  list an operator, method or filter builds is checked before it is built
  (`render_value`: `'x' * 10**9`, `'x'|center(10**9)`...), `range()` is short (`range`).

So a template can loop, nest and recurse, but a hostile one stops in well under a
second with `LimitExceeded`, which the caller reports at the template's file:line.
"""

from __future__ import annotations

import contextvars
import math
import os
import re
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.filters import FILTERS
from jinja2.runtime import markup_join, str_join
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import soft_str

from pnp.confine import DesignFiles, FileRefused
from pnp.errors import display_path
from pnp.limits import LimitExceeded, limit


class _Budget:
    __slots__ = ("steps", "output", "output_limit", "deadline")

    def __init__(self, output_limit: str = "render_output") -> None:
        self.steps = limit("render_steps")
        self.output = limit(output_limit)
        self.output_limit = output_limit
        self.deadline = time.monotonic() + limit("render_seconds")


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
        raise LimitExceeded("render_steps", f"more than {limit('render_steps')} steps (loop iterations, calls) "
                            "in one rendering, as an endless recursion or deeply nested loops make")
    if (budget.steps + n) // 4096 != budget.steps // 4096 and time.monotonic() > budget.deadline:  # now and then
        raise LimitExceeded("render_seconds", f"rendering takes more than {limit('render_seconds')} seconds")


def _value(size: int, what: str = "a value the template builds") -> None:
    if size > limit("render_value"):
        raise LimitExceeded("render_value", f"{what}: {size}")


def _size(value: Any) -> int:
    return len(value) if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset)) else 0


_SPEC_DIGITS = re.compile(r"%[-#0 +]*(\d+)?(?:\.(\d+))?|\{[^{}]*?:[^{}\d]*(\d+)?(?:\.(\d+))?")


def _check_format(fmt: str, args: Any) -> None:
    """'%1000000000d' % 1, '{:>1000000000}'.format(1), '%*d' % (10**9, 1): widths bounded before formatting."""
    for m in _SPEC_DIGITS.finditer(fmt):
        for group in m.groups():
            if group and (len(group) > 9 or int(group) > limit("render_value")):
                _value(int(group) if len(group) <= 12 else 10 ** 12, "a width in a format string")
    items = args if isinstance(args, tuple) else (args,)
    if "*" in fmt:
        for a in items:
            if isinstance(a, int) and not isinstance(a, bool):
                _value(abs(a), "a width given to a format string")


def _estimate_join(sep: str, items: list) -> int:
    return sum(len(soft_str(x)) for x in items) + len(sep) * max(len(items) - 1, 0)


def _check_int_power(left: Any, right: Any) -> None:
    if isinstance(left, int) and isinstance(right, int) and not isinstance(left, bool) and right > 0 and abs(left) > 1:
        bits = right * math.log2(abs(left))
        if bits > 8 * limit("render_value"):
            raise LimitExceeded("render_value", f"a number of about {int(bits)} bits would be computed")


class _BoundedCodeGenerator(CodeGenerator):
    """Counts loop iterations and output, and bounds `~` joins, in the compiled template code."""

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

    def _output_const_repr(self, group) -> str:
        return f"environment.pnp_output({super()._output_const_repr(group)})"

    def _output_child_pre(self, node, frame, finalize) -> None:
        self.write("environment.pnp_output(")
        super()._output_child_pre(node, frame, finalize)

    def _output_child_post(self, node, frame, finalize) -> None:
        super()._output_child_post(node, frame, finalize)
        self.write(")")


def _bounded_filters() -> dict[str, Any]:
    """The built-in filters that can build large text or lists from small arguments, with their sizes checked
    first."""
    f = dict(FILTERS)

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
        items = list(value) if not isinstance(value, (str, list, tuple)) else value
        if attribute is None:
            _value(_estimate_join(soft_str(d), list(items)), "the result of join")
        out = join_filter(eval_ctx, items, d, attribute)
        _value(len(out), "the result of join")
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
        _check_format(soft_str(value), args or kwargs)
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
        if isinstance(indent, int) and indent > 0:
            _value(len(FILTERS["tojson"](eval_ctx_or_env, value)) * (indent + 1), "the result of tojson")
        return FILTERS["tojson"](eval_ctx_or_env, value, indent)

    tojson = jinja2.pass_eval_context(tojson)
    f.update(center=center, indent=indent, join=join, replace=replace, format=format_, wordwrap=wordwrap,
             batch=batch, slice=slice_, tojson=tojson)
    return f


_STR_WIDTH = {"center", "ljust", "rjust", "zfill"}

CALL_STEPS = 10
"""A call (a macro, a method, a filter written as a call) counts as this many steps: it costs about that much more
than a loop iteration."""


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """A sandbox whose rendering is bounded (see the module docstring)."""

    code_generator_class = _BoundedCodeGenerator
    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.filters = _bounded_filters()
        self.globals["range"] = self.pnp_range

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
        return text

    def pnp_concat(self, markup: bool, parts: Iterable) -> str:
        items = [soft_str(p) if not hasattr(p, "__html__") else p for p in parts]
        _value(sum(len(p) for p in items), "the result of ~")
        return markup_join(items) if markup else str_join(items)

    def pnp_range(self, *args: int) -> range:
        rng = range(*args)
        if len(rng) > limit("range"):
            raise LimitExceeded("range", f"range() of {len(rng)} items")
        return rng

    # --- the sandbox's own hooks ----------------------------------------------------------
    def call_binop(self, context, operator: str, left: Any, right: Any) -> Any:
        _step()
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(n, int) and not isinstance(n, bool) and _size(seq) and not isinstance(seq, dict):
                    _value(_size(seq) * max(n, 0), "the result of *")
            if isinstance(left, int) and isinstance(right, int):
                _check_int_power(2, left.bit_length() + right.bit_length())
        elif operator == "+":
            if _size(left) and _size(right):
                _value(_size(left) + _size(right), "the result of +")
        elif operator == "**":
            _check_int_power(left, right)
        elif operator == "%" and isinstance(left, str):
            _check_format(left, right)
        result = super().call_binop(context, operator, left, right)
        _value(_size(result))
        return result

    def call(__self, __context, __obj, *args: Any, **kwargs: Any) -> Any:  # Jinja's own signature
        _step(CALL_STEPS)
        owner = getattr(__obj, "__self__", None)
        name = getattr(__obj, "__name__", "")
        wrapped = getattr(__obj, "__wrapped__", None)
        if isinstance(getattr(wrapped, "__self__", None), str) and name in ("format", "format_map"):
            _check_format(wrapped.__self__, tuple(args) + tuple(kwargs.values()))
        if isinstance(owner, str):
            if name in _STR_WIDTH and args and isinstance(args[0], int):
                _value(args[0], f"the width given to {name}")
            elif name == "expandtabs":
                tab = args[0] if args else kwargs.get("tabsize", 8)
                _value(len(owner) * (tab if isinstance(tab, int) else 8), "the result of expandtabs")
            elif name == "replace" and len(args) >= 2:
                old, new = soft_str(args[0]), soft_str(args[1])
                n = (len(owner) + 1) if not old else owner.count(old)
                _value(len(owner) + n * max(len(new) - len(old), 0), "the result of replace")
            elif name == "join" and args:
                items = list(args[0])
                _value(_estimate_join(owner, items), "the result of join")
                args = (items, *args[1:])
        result = super().call(__context, __obj, *args, **kwargs)
        _value(_size(result))
        return result


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


RENDER_ERRORS = (LimitExceeded, FileRefused, RecursionError, MemoryError, OverflowError)
"""What rendering raises besides Jinja2's own errors, each reported at the template's line."""


def describe(exc: BaseException) -> str:
    """The message of a rendering error that is not Jinja2's: `what is wrong; what is expected`."""
    if isinstance(exc, (LimitExceeded, FileRefused)):
        return exc.message
    if isinstance(exc, RecursionError):
        return "recursion too deep (a macro or include that calls itself without end?); expected a template " \
               "that ends"
    if isinstance(exc, MemoryError):
        return "the template needs more memory than there is; expected a template that builds less text"
    if isinstance(exc, OverflowError):
        return f"{exc}; expected numbers of a reasonable size"
    return str(exc)
