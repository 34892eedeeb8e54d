"""One ``vllm serve`` option as docgen knows it: its type, value list, forms and bounds."""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

TYPES = ("bool", "choice", "float", "int", "json", "list", "str")
#: vLLM's recorded bounds, in the order a message names them: (symbol, test).
BOUNDS: dict[str, tuple[str, Callable[[Any, Any], bool]]] = {
    "gt": (">", operator.gt),
    "ge": (">=", operator.ge),
    "lt": ("<", operator.lt),
    "le": ("<=", operator.le),
}


@dataclass(frozen=True)
class Flag:
    """One ``vllm serve`` option. Names carry no dashes; aliases keep theirs (``-tp``)."""

    name: str
    type: str
    choices: tuple[str, ...] | None = None
    choices_enforced: bool | None = None
    negations: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    value_type: str | None = None  # of a "choice" flag: "str" or "int"
    choices_case_insensitive: bool = False
    choices_partial: bool = False  # the list is completed at runtime: not checked
    none_word: bool = False  # "none" in any case means unset (--reasoning-parser)
    constraints: tuple[tuple[str, int | float], ...] = ()  # ("gt", 0), ("le", 1)
    human_readable_int: bool = False
    accepts_auto: bool = False
    accepts_none: bool = False
    json_keys: tuple[str, ...] | None = None
    json_dotted_keys: bool = False
    json_or_str: bool = False  # a JSON value or a plain string (--pt-load-map-location)
    nargs: str | None = None
    item_type: str | None = None
    list_form: str | None = None  # "nargs" (--x a b), "append" (--x a --x b), "csv" (--x a,b)
    deprecated: bool = False

    @property
    def option(self) -> str:
        return f"--{self.name}"

    @property
    def quoted(self) -> str:
        return f"'--{self.name}'"

    @classmethod
    def from_record(cls, name: str, record: Mapping[str, Any]) -> Flag:
        """A flag from its compact catalog record; absent keys take the field defaults.

        Built without ``__init__``: a frozen dataclass's ``__init__`` sets each of the
        21 fields through ``object.__setattr__``, which made loading the catalog 5x
        slower. ``tests/vllm/test_flag.py`` checks the result equals a normally built flag.
        """
        values = dict(record)
        for key in _TUPLE_FIELDS & values.keys():
            values[key] = tuple(values[key])
        if "constraints" in values:
            bounds = values["constraints"]
            values["constraints"] = tuple((op, bounds[op]) for op in BOUNDS if op in bounds)
        unknown = values.keys() - _FIELDS
        if unknown:
            raise ValueError(f"catalog record of '--{name}' has unknown keys: {sorted(unknown)}")
        flag = object.__new__(cls)
        vars(flag).update(values, name=name)
        return flag


_FIELDS = frozenset(field.name for field in fields(Flag))
_TUPLE_FIELDS = frozenset({"aliases", "choices", "json_keys", "negations"})


def typed_flag(
    name: str,
    kind: str,
    negations: tuple[str, ...] = (),
    choices: tuple[str, ...] | None = None,
) -> Flag:
    """A flag known only by its type: declared by a registry, or one vLLM has since removed."""
    listed = kind == "list"
    return Flag(
        name=name,
        type=kind,
        choices=choices,
        choices_enforced=None if choices is None else kind == "choice",
        negations=negations,
        value_type="str" if kind == "choice" else None,
        json_dotted_keys=kind == "json",
        nargs="+" if listed else None,
        item_type="str" if listed else None,
        list_form="nargs" if listed else None,
    )
