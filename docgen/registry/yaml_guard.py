"""ruamel.yaml's constructors, made to refuse at its node what they would crash on.

ruamel.yaml's YAML 1.2 resolver reads a plain scalar of signs, dots, underscores and a
base prefix as a number (``-_``, ``._``, ``0x_``), which its constructors then fail to
convert; a tag asks for what its value is not (``!!bool foo``, ``!!int 1x``); a complex
key holds a mapping (``? [{a: 1}]``), which no mapping can hold. Each failed with
Python's own error and no place (an ``AttributeError``, ``IndexError``, ``KeyError``,
``TypeError`` or ``ValueError``); here each is a ``ConstructorError`` at its node, which
every reader words as a located syntax problem. A date is its text (YAML 1.2's core schema has no
timestamps, and ``2024-02-30`` is no date Python makes), and a value ``=`` or ``<<``,
which the resolver tags as YAML 1.1's value and merge keys, is text, as libyaml reads it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

from docgen.errors import one_line

#: Said of a complex key: JSON and the registry's names take a plain value only.
COMPLEX_KEY = (
    "a mapping key is a list or a mapping (written with `?`); a key must be a plain value: "
    "text, a number, true, false or null"
)

#: What ruamel.yaml's YAML 1.2 resolver reads as an integer or a float, whole (a plain
#: scalar that is not one, ``05d9e1c`` or ``01-ai/Yi``, is a string).
NUMBER_12 = re.compile(
    r"""^(?:[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?[0-9_]+|[-+]?0x[0-9a-fA-F_]+
    |[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+
    |[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$""",
    re.X,
)


#: A number's sign and base prefix, which hold none of its digits.
_SIGN_AND_BASE = re.compile(r"^[-+]?(?:0[xXoObB])?")


def no_number(text: str) -> str:
    """Said of a plain scalar YAML 1.2 reads as a number though it is none."""
    shown = one_line(text)
    return (
        f"'{shown}' reads as a number in YAML 1.2, but no number can be read from it: quote "
        f'it ("{shown}") to make it text'
    )


#: What ruamel.yaml's constructors raise on a value they cannot make (an ``!!omap`` with
#: a key twice asserts).
_FAILURES = (AssertionError, AttributeError, IndexError, KeyError, TypeError, ValueError)


@cache
def json_only(base: type, what: str) -> type:
    """``guarded(base)``, refusing at its node a tag whose value no JSON holds (``!!set``,
    ``!!omap``, ``!!pairs``, ``!!binary``) or that names no type YAML knows (``!foo``):
    ``what`` (``the registry``) has no meaning for one."""
    from ruamel.yaml.constructor import ConstructorError

    def refused(constructor: Any, node: Any) -> Any:
        tag = str(node.tag).replace("tag:yaml.org,2002:", "!!")
        problem = (
            f"the YAML tag '{one_line(tag)}' has no meaning in {what}; remove it (a value is "
            "a string, a number, a boolean, null, a list or a mapping)"
        )
        raise ConstructorError(None, None, problem, node.start_mark)

    class JsonOnly(guarded(base)):  # type: ignore[misc]
        pass

    JsonOnly.add_constructor(None, refused)
    for kind in ("set", "omap", "pairs", "binary"):
        JsonOnly.add_constructor(f"tag:yaml.org,2002:{kind}", refused)
    return JsonOnly


@cache
def guarded(base: type) -> type:
    """A subclass of the constructor class ``base`` that refuses, at its node, a value it
    cannot make and a key it cannot hash, and reads a date, ``=`` and ``<<`` as text."""
    from ruamel.yaml.constructor import ConstructorError

    class Guarded(base):  # type: ignore[misc]
        def construct_object(self, node: Any, deep: bool = False) -> Any:
            try:
                return super().construct_object(node, deep)
            except _FAILURES as exc:
                raise ConstructorError(None, None, _unmade(node, exc), node.start_mark) from None

        def construct_non_recursive_object(self, node: Any, tag: Any = None) -> Any:
            # A mapping, a list or an ``!!omap`` is filled in later, by a generator the
            # document runs once its other nodes exist: its failures are placed too.
            waiting = len(self.state_generators)
            data = super().construct_non_recursive_object(node, tag)
            if len(self.state_generators) > waiting:
                self.state_generators[-1] = _placed(self.state_generators[-1], node)
            return data

        def check_mapping_key(self, node: Any, key_node: Any, *rest: Any) -> Any:
            try:
                hash(rest[1])  # the key, as built
            except TypeError:
                raise ConstructorError(None, None, COMPLEX_KEY, key_node.start_mark) from None
            return super().check_mapping_key(node, key_node, *rest)

    for kind in ("timestamp", "value", "merge"):
        Guarded.add_constructor(f"tag:yaml.org,2002:{kind}", text_of)
    return Guarded


def _placed(generator: Iterator[Any], node: Any) -> Iterator[Any]:
    """``generator``, its failure a ``ConstructorError`` at ``node``."""
    from ruamel.yaml.constructor import ConstructorError

    try:
        yield from generator
    except _FAILURES as exc:
        raise ConstructorError(None, None, _unmade(node, exc), node.start_mark) from None


def text_of(constructor: Any, node: Any) -> str:
    """A scalar node's value as a string, whatever its tag says."""
    return str(constructor.construct_scalar(node))


def _unmade(node: Any, exc: Exception) -> str:
    """Why ``node`` cannot be made into a value, for a person."""
    tag = str(node.tag).replace("tag:yaml.org,2002:", "!!")
    value = node.value if isinstance(node.value, str) else None
    if isinstance(exc, TypeError) and "unhashable" in str(exc):
        return COMPLEX_KEY
    if value is None:
        return f"this value cannot be read as {one_line(tag)}: fix it, or remove the tag"
    shown = one_line(value if len(value) <= 60 else f"{value[:40]}...{value[-10:]}")
    if sum(c.isdigit() for c in value) > 4000:  # Python reads no longer integer
        return f"'{shown}' holds a number too long to read (over 4,300 digits)"
    digits = any(c.isdigit() for c in _SIGN_AND_BASE.sub("", value))
    if tag in ("!!int", "!!float") and NUMBER_12.match(value) and not digits:
        return no_number(value)  # signs, dots and underscores the resolver took for one
    return f"'{shown}' cannot be read as {one_line(tag)}: fix the value, or remove the tag"
