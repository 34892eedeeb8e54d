"""A Jinja environment whose operators cannot build a huge value in one step.

Templates are code, but a runaway one must still end as a located template error: a
render deadline stops loops, yet no timer can interrupt one C-level operation such as
``7 ** (7 ** 10)`` or ``'x' * 10**10``. Jinja's sandbox lets ``*``, ``**`` and ``%`` be
intercepted, so these refuse a result past ``MAX_ITEMS`` items or ``MAX_INT_BITS`` bits
before computing it; so do the string methods and filters that pad to a width
(``'x'.ljust(n)``, ``'{:>n}'.format(x)``, ``|center(n)``, ``|indent(n)``, ``|format``) or
replace (``'x'.replace``, ``|replace``),
and ``range`` past ``MAX_ITEMS`` items (``range(10**9)|list``).
Nothing else of the sandbox applies: attributes, items, calls and ``range`` work as in a
plain environment.
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any

from jinja2 import Environment
from jinja2.runtime import Context
from jinja2.sandbox import SandboxedEnvironment

#: Most characters or items one ``*`` or ``%`` may build (a page is far smaller).
MAX_ITEMS = 10_000_000
#: Most bits an integer built by one ``*`` or ``**`` may have (about 30,000 digits).
MAX_INT_BITS = 100_000
#: Width and precision of a ``%`` conversion: ``%-10.3f``, ``%*d``.
_PERCENT_SIZES = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\d+|\*)?(?:\.(\d+|\*))?")
#: String methods and filters whose integer arguments are widths to pad to.
_PADDING = frozenset({"center", "ljust", "rjust", "zfill", "expandtabs", "indent"})


class TemplateLimit(ValueError):
    """One operation of a template would build a value past docgen's limits."""


class BoundedEnvironment(SandboxedEnvironment):
    """A plain Jinja environment, except that ``*``, ``**``, ``%``, the padding methods
    and filters and ``replace`` are bounded (see the module)."""

    intercepted_binops = frozenset({"*", "**", "%"})
    # Templates are code: an attribute or an item is looked up as a plain environment
    # does, without the sandbox's checks and wrapping of ``str.format`` on every lookup
    # (``call`` bounds ``format`` and the padding methods).
    getattr = Environment.getattr
    getitem = Environment.getitem

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.globals["range"] = bounded_range  # loops are bounded by the render deadline
        for name in ("center", "indent", "format"):
            self.filters[name] = _bounded_filter(name, self.filters[name])
        self.filters["replace"] = _bounded_replace(self.filters["replace"])

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        return True  # templates are code

    def is_safe_callable(self, obj: Any) -> bool:
        return True

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        check_binop(operator, left, right)
        return super().call_binop(context, operator, left, right)

    def call(self, context: Context, obj: Any, /, *args: Any, **kwargs: Any) -> Any:
        method = getattr(obj, "__wrapped__", obj)  # the sandbox wraps str.format
        if isinstance(getattr(method, "__self__", None), str):
            _check_call(method, (*args, *kwargs.values()))
        return context.call(obj, *args, **kwargs)


def bounded_range(*args: int) -> range:
    """``range(*args)``, refused past ``MAX_ITEMS`` items: ``range(10**9)|list`` is one
    C-level step that no deadline interrupts, and would fill the memory."""
    made = range(*args)
    try:
        items = len(made)
    except OverflowError:  # more items than a C size holds
        items = MAX_ITEMS + 1
    if items > MAX_ITEMS:
        raise TemplateLimit(_too_big("range", f"a range of more than {MAX_ITEMS:,} items"))
    return made


def check_binop(operator: str, left: Any, right: Any) -> None:
    """Raise TemplateLimit when ``left <operator> right`` would be too large to build."""
    if operator == "**":
        _check_power(left, right)
    elif operator == "*":
        _check_product(left, right)
    elif operator == "%" and isinstance(left, str):
        _check_percent(left, right)


def _is_int(value: Any) -> bool:
    return isinstance(value, int)


def _check_power(base: Any, exponent: Any) -> None:
    if not (_is_int(base) and _is_int(exponent)) or exponent <= 0 or abs(base) <= 1:
        return
    if exponent > MAX_INT_BITS or exponent * math.log2(abs(base)) > MAX_INT_BITS:
        raise TemplateLimit(_too_big("**", f"an integer of more than {MAX_INT_BITS:,} bits"))


def _check_product(left: Any, right: Any) -> None:
    if _is_int(left) and _is_int(right):
        if abs(left).bit_length() + abs(right).bit_length() > MAX_INT_BITS:
            raise TemplateLimit(_too_big("*", f"an integer of more than {MAX_INT_BITS:,} bits"))
        return
    sequence, count = (left, right) if _is_int(right) else (right, left)
    repeated = _is_int(count) and isinstance(sequence, (str, bytes, list, tuple))
    if repeated and len(sequence) * count > MAX_ITEMS:
        text = isinstance(sequence, (str, bytes))
        kind, unit = ("string", "characters") if text else (type(sequence).__name__, "items")
        what = f"a {kind} of more than {MAX_ITEMS:,} {unit}"
        raise TemplateLimit(_too_big("*", what))


def _check_percent(text: str, values: Any) -> None:
    sizes = [size for match in _PERCENT_SIZES.finditer(text) for size in match.groups() if size]
    given = values if isinstance(values, tuple) else (values,)
    widths = [len(s) > 9 or int(s) > MAX_ITEMS for s in sizes if s != "*"]
    if "*" in sizes:
        widths += [abs(v) > MAX_ITEMS for v in given if _is_int(v)]
    if any(widths):
        raise TemplateLimit(_too_big("%", f"a string of more than {MAX_ITEMS:,} characters"))


def _check_call(method: Any, values: Sequence[Any]) -> None:
    """Bound a string method that pads to a width or replaces, or ``str.format`` with
    wide fields."""
    text, name = method.__self__, getattr(method, "__name__", "")
    if name == "replace" and len(values) >= 2:
        _check_replace(text, *values[:3])
    elif name in _PADDING:
        _check_widths(name, values)
    elif name in ("format", "format_map"):
        specs = [spec or "" for _text, _name, spec, _conv in string.Formatter().parse(text)]
        widths = [
            int(n) if len(n) < 10 else MAX_ITEMS + 1 for s in specs for n in re.findall(r"\d+", s)
        ]
        if any(w > MAX_ITEMS for w in widths) or any("{" in s for s in specs):
            _check_widths(name, [*widths, *values])


def _check_replace(text: str, old: Any, new: Any, count: Any = None) -> None:
    """Refuse a replacement that would build a string past ``MAX_ITEMS`` characters."""
    old, new = str(old), str(new)
    if len(new) <= len(old):
        return
    times = text.count(old) if old else len(text) + 1
    if _is_int(count) and count >= 0:
        times = min(times, count)
    if len(text) + times * (len(new) - len(old)) > MAX_ITEMS:
        raise TemplateLimit(_too_big("replace", f"a string of more than {MAX_ITEMS:,} characters"))


def _check_widths(name: str, values: Sequence[Any]) -> None:
    if any(_is_int(v) and v > MAX_ITEMS for v in values):
        raise TemplateLimit(_too_big(name, f"a string of more than {MAX_ITEMS:,} characters"))


def _bounded_filter(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(original)
    def bounded(value: Any, *args: Any, **kwargs: Any) -> Any:
        if name == "format":
            _check_percent(str(value), kwargs or args)
        else:
            _check_widths(name, (*args, *kwargs.values()))
        return original(value, *args, **kwargs)

    return bounded


def _bounded_replace(original: Callable[..., Any]) -> Callable[..., Any]:
    """Jinja's ``replace`` filter (it takes its evaluation context first), bounded."""

    @wraps(original)
    def bounded(context: Any, value: Any, old: Any, new: Any, count: Any = None) -> Any:
        _check_replace(str(value), old, new, count)
        return original(context, value, old, new, count)

    return bounded


def _too_big(operator: str, what: str) -> str:
    return f"'{operator}' would build {what}, past docgen's limit for one template operation"
