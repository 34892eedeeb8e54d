"""ruamel.yaml's constructors, made to refuse at its node what they would crash on.

ruamel.yaml's YAML 1.2 resolver reads a plain scalar of signs, dots, underscores and a
base prefix as a number (``-_``, ``._``, ``0x_``), which its constructors then fail to
convert (an ``IndexError`` or a ``ValueError``, with no place); and a complex key that
holds a mapping (``? [{a: 1}]``) cannot be hashed. Each is a ``ConstructorError`` at the
node here, which every reader words as a located syntax problem. A value ``=`` or ``<<``,
which its resolver tags as YAML 1.1's value and merge keys, is text, as libyaml reads it.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from docgen.errors import one_line

#: Said of a complex key: JSON and the registry's names take a plain value only.
COMPLEX_KEY = (
    "a mapping key is a list or a mapping (written with `?`); a key must be a plain value: "
    "text, a number, true, false or null"
)


def no_number(text: str) -> str:
    """Said of a plain scalar YAML 1.2 reads as a number though it is none."""
    shown = one_line(text)
    return (
        f"'{shown}' reads as a number in YAML 1.2, but no number can be read from it: quote "
        f'it ("{shown}") to make it text'
    )


@cache
def guarded(base: type) -> type:
    """A subclass of the constructor class ``base`` that refuses, at the node, a number it
    cannot convert and a key it cannot hash."""
    from ruamel.yaml.constructor import ConstructorError

    class Guarded(base):  # type: ignore[misc]
        def check_mapping_key(self, node: Any, key_node: Any, *rest: Any) -> Any:
            try:
                hash(rest[1])  # the key, as built
            except TypeError:
                raise ConstructorError(None, None, COMPLEX_KEY, key_node.start_mark) from None
            return super().check_mapping_key(node, key_node, *rest)

        def construct_yaml_int(self, node: Any) -> Any:
            return _converted(super().construct_yaml_int, node)

        def construct_yaml_float(self, node: Any) -> Any:
            return _converted(super().construct_yaml_float, node)

    Guarded.add_constructor("tag:yaml.org,2002:int", Guarded.construct_yaml_int)
    Guarded.add_constructor("tag:yaml.org,2002:float", Guarded.construct_yaml_float)
    for kind in ("value", "merge"):  # a value ``=`` or ``<<``: text, as libyaml reads it
        Guarded.add_constructor(f"tag:yaml.org,2002:{kind}", _text)
    return Guarded


def _text(constructor: Any, node: Any) -> str:
    return str(constructor.construct_scalar(node))


def _converted(construct: Any, node: Any) -> Any:
    from ruamel.yaml.constructor import ConstructorError

    try:
        return construct(node)
    except (IndexError, ValueError):
        text = str(node.value)
        if any(c.isdigit() for c in _BASE.sub("", text)):
            raise  # digits it could not read (over Python's 4,300): the caller words it
        raise ConstructorError(None, None, no_number(text), node.start_mark) from None


#: A sign and a base prefix, which hold no digit of the number.
_BASE = re.compile(r"^[-+]?(?:0[xXoObB])?")
