"""The registry's JSON Schema: shipped as package data, mapped back to YAML lines.

Two engines read it: the compiled check (``_schema_check``, fastjsonschema) answers yes or
no quickly, and jsonschema explains each violation. Both read a pattern as the schema
means it, an ECMA-262 regular expression, where ``$`` matches only at the very end:
Python's ``$`` also matches before a final newline, which would let ``"reboot\n"`` pass
as a name and reach a printed shell command.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any

from docgen.errors import CONTROL, Problem, did_you_mean, one_line
from docgen.registry.source import Positions, dotted

_TYPE_NAMES = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "object": "a mapping",
    "array": "a list",
}


def schema_text() -> str:
    """The schema exactly as shipped, for ``docgen schema``."""
    return resources.files("docgen").joinpath("data/registry.schema.json").read_text("utf-8")


@cache
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(schema_text())
    return loaded


#: An unescaped ``$``: rewritten to ``\Z``, as fastjsonschema does in the compiled check.
_DOLLAR = re.compile(r"(?<!\\)\$")


@cache
def pattern(source: str) -> re.Pattern[str]:
    """A schema pattern compiled for Python with ECMA-262's meaning of ``$`` (the end)."""
    return re.compile(_DOLLAR.sub(r"\\Z", source))


def _ecma_pattern(validator: Any, source: str, instance: Any, _schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not pattern(source).search(instance):
        yield ValidationError(f"{instance!r} does not match {source!r}")


@cache
def _validator() -> Any:
    from jsonschema import Draft202012Validator, validators

    ecma = validators.extend(  # type: ignore[no-untyped-call]
        Draft202012Validator, {"pattern": _ecma_pattern}
    )
    return ecma(schema())


def is_valid(data: Any) -> bool:
    """A fast yes/no answer from the compiled validator (no explanations)."""
    from fastjsonschema import JsonSchemaException

    from docgen.registry import _schema_check

    try:
        _schema_check.validate(data)
    except JsonSchemaException:
        return False
    return True


#: Sections that map ids to entries of one ``$defs`` shape.
_SECTIONS = {"hosts": "host", "images": "image", "models": "model", "profiles": "profile"}


def validate(data: Any, positions: Positions) -> list[Problem]:
    """Every schema violation in ``data``, each located and worded for a person."""
    problems: list[Problem] = []
    suspects = _suspects(data)
    for error in _validator().iter_errors(suspects):
        problems.extend(_explain(error, positions))
    if not problems and not is_valid(data):  # the engines disagree: refuse, never build
        problems.append(_unexplained(suspects, positions))
    return problems


def _unexplained(suspects: Any, positions: Positions) -> Problem:
    """The first entry only the compiled check rejects (the document when none is)."""
    for section in _SECTIONS:
        entries = suspects.get(section) if isinstance(suspects, dict) else None
        for key in entries if isinstance(entries, dict) else ():
            return Problem(
                f"{dotted((section, key))} does not match the registry schema "
                "(docgen cannot say why; please report it)",
                positions.of_key((section, key)),
            )
    return Problem(
        "the registry does not match its schema (docgen cannot say why; please report it)",
        positions.of_value(()),
    )


def _suspects(data: Any) -> Any:
    """``data`` with only the section entries the compiled check rejects.

    jsonschema explains every error but walks every entry slowly; the compiled check
    clears the valid entries first, so explaining costs what the broken entries cost.
    Keys keep their paths, so every error keeps its location.
    """
    from fastjsonschema import JsonSchemaException

    from docgen.registry import _schema_check

    if not isinstance(data, dict):
        return data

    def check(shape: str, value: Any) -> bool:
        try:
            getattr(_schema_check, f"{_COMPILED}{shape}")(value)
        except JsonSchemaException:
            return False
        return True

    pruned = dict(data)
    for section, shape in _SECTIONS.items():
        entries = data.get(section)
        if isinstance(entries, dict):
            pruned[section] = {
                key: value
                for key, value in entries.items()
                if not (check("id", key) and check(shape, value))
            }
    return pruned


_COMPILED = "validate_https___docgen_invalid_schemas_registry_1_json___defs_"


def _explain(error: Any, positions: Positions) -> Iterator[Problem]:
    keypath = tuple(error.absolute_path)
    where = _where(keypath)
    kind = error.validator
    if kind == "additionalProperties":
        for key in _extra_keys(error):
            allowed = list(error.schema.get("properties", {}))
            yield Problem(
                f"unknown key {_key(key)}{where}{did_you_mean(str(key), allowed)}",
                positions.of_key((*keypath, key)),
            )
    elif kind == "propertyNames" or (kind == "pattern" and _is_key_error(error)):
        yield from _bad_name(error, keypath, positions)
    elif kind == "required":
        missing = error.message.split("'")[1]
        yield Problem(f"missing required key '{missing}'{where}", positions.of_key(keypath))
    else:
        yield Problem(_value_message(error, keypath), positions.of_value(keypath))


def _where(keypath: tuple[Any, ...]) -> str:
    return f" in {dotted(keypath)}" if keypath else " at the top level"


def _extra_keys(error: Any) -> list[Any]:
    allowed = set(error.schema.get("properties", {}))
    return [k for k in error.instance if k not in allowed]


def _is_key_error(error: Any) -> bool:
    return "propertyNames" in list(error.schema_path)


def _bad_name(error: Any, keypath: tuple[Any, ...], positions: Positions) -> Iterator[Problem]:
    context = error.context or [error]
    for sub in context:
        name = sub.instance
        where = positions.of_key((*keypath, name))
        bare = dashed_flag(name) if _flags(keypath) else None
        if bare is not None:
            yield Problem(f"write the flag {_key(name)} without its dashes, as '{bare}'", where)
            continue
        rule = sub.schema.get("description") or f"names must match {sub.schema.get('pattern')}"
        yield Problem(f"invalid id {_key(name)}{_where(keypath)}: {_why(name, rule)}", where)


def _flags(keypath: tuple[Any, ...]) -> bool:
    """Whether the mapping at ``keypath`` is keyed by vLLM flag names: a profile's or an
    override's ``args``, a profile's ``expect: present``, the launcher's ``shared_args``
    and a step's ``when``."""
    if keypath[-2:] == ("expect", "present"):
        return True
    return keypath[-1:] in (("args",), ("shared_args",), ("when",))


#: What a flag's name is written as.
_FLAG_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]*")


def dashed_flag(name: object) -> str | None:
    """The flag ``name`` names without the leading dashes it was written with, when that
    is a flag's name (``--max-num-seqs``: ``max-num-seqs``); else None."""
    if not isinstance(name, str) or not name.startswith("-"):
        return None
    bare = name.lstrip("-")
    return bare if _FLAG_NAME.fullmatch(bare) else None


def _value_message(error: Any, keypath: tuple[Any, ...]) -> str:
    name = dotted(keypath) or "the document"
    got = _show(error.instance)
    kind = error.validator
    if kind == "type":
        wanted = error.validator_value
        wanted = [wanted] if isinstance(wanted, str) else wanted
        return f"{name} must be {' or '.join(_TYPE_NAMES.get(w, w) for w in wanted)}, got {got}"
    if kind == "enum":
        choices = [str(c) for c in error.validator_value]
        hint = did_you_mean(str(error.instance), choices)
        return f"{name} is {got}; expected one of: {', '.join(choices)}{hint}"
    if kind == "const":
        return f"{name} must be {_show(error.validator_value)}, got {got}"
    if kind == "pattern":
        bare = dashed_flag(error.instance) if keypath[-3:-1] == ("expect", "absent") else None
        if bare is not None:
            return f"write the flag {got} without its dashes, as '{bare}'"
        why = _why(error.instance, error.schema.get("description"))
        return f"{name} {got} is malformed" + (f": {why}" if why else "")
    if kind in ("minLength", "minItems"):
        return f"{name} must not be empty"
    if kind == "maxLength":  # the value itself is not shown: it may be thousands of characters
        what = f"a key of {name}" if "propertyNames" in error.schema_path else name
        return f"{what} is {len(error.instance):,} characters long; at most {error.validator_value}"
    if kind in ("exclusiveMinimum", "minimum"):
        return f"{name} must be greater than {error.validator_value}, got {got}"
    if kind == "maximum":  # a byte count: the export's JSON readers in JavaScript, exactly
        return (
            f"{name} must be at most {error.validator_value} (2^53 - 1, the largest integer "
            f"JavaScript reads exactly), got {got}"
        )
    return f"{name}: {error.message}"


def _why(value: Any, rule: str | None) -> str:
    """Why a string is refused: a control character it holds, then the rule. Tab and
    newline come last: command text may hold them, names may not."""
    found = (
        sorted(CONTROL.findall(value), key=lambda c: c in "\t\n")[:1]
        if isinstance(value, str)
        else []
    )
    held = [f"it holds a control character (U+{ord(c):04X})" for c in found]
    return "; ".join([*held, *([rule] if rule else [])])


def _key(name: Any) -> str:
    """A mapping key as written, quoted, its control characters as escapes."""
    return f"'{one_line(name)}'" if isinstance(name, str) else _show(name)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return repr(value) if isinstance(value, str) else str(value)
