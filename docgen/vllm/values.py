"""Checking one value against a flag the way vLLM 0.34.0's parser reads it, only stricter.

Stricter where the parser is lax: values outside a known list are errors even where
argparse lets them through (they fail later, at engine start). Bounded where Python is
not: integers have at most ``MAX_INT_DIGITS`` digits and JSON nests at most
``MAX_JSON_DEPTH`` levels (``load_json``), so no value can overflow, recurse or stall.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from docgen.errors import did_you_mean, one_line
from docgen.vllm.flag import BOUNDS, Flag

# docgen's own rule, stricter than vLLM's recorded bounds: these must be >= 1.
_POSITIVE = frozenset(
    {
        "block-size",
        "data-parallel-size",
        "max-num-batched-tokens",
        "max-num-seqs",
        "pipeline-parallel-size",
        "tensor-parallel-size",
    }
)
_HUMAN_INT = re.compile(r"(\d+(?:\.\d+)?)([kKmMgGtT])")
_DECIMAL = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
_BINARY = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
_NONE_TEXT = ("", "None")  # vLLM's optional types read these as "unset"
#: Most digits an integer may have, in the registry or a value (far beyond any real
#: setting, well inside what floats, JSON and messages hold).
MAX_INT_DIGITS = 100
_INT_LIMIT = 10**MAX_INT_DIGITS
#: Deepest nesting of a JSON value (as for YAML in the registry).
MAX_JSON_DEPTH = 64
#: Longest value a message quotes in full.
_SHOWN_CHARS = 60
_JSON_SPECIAL = re.compile(r'[\[\]{}"\\]')


class JsonLimit(ValueError):
    """JSON text beyond docgen's limits; the message says which and what is allowed."""


def long_int_problem(number: str | int) -> str | None:
    """The message for an integer, or the text of one, longer than ``MAX_INT_DIGITS``
    digits (checked on the text before ``int()`` could refuse or stall), or None."""
    if isinstance(number, str):
        too_long = digit_count(number) > MAX_INT_DIGITS
    else:
        too_long = abs(number) >= _INT_LIMIT
    return (
        f"integer longer than docgen's limit of {MAX_INT_DIGITS} digits (written in decimal)"
        if too_long
        else None
    )


def digit_count(text: str) -> int:
    return sum(c.isdigit() for c in text)


def load_json(text: str) -> Any:
    """``json.loads`` within docgen's limits: raises ``json.JSONDecodeError`` for text that
    is not JSON and ``JsonLimit`` for nesting deeper than ``MAX_JSON_DEPTH`` or a longer
    integer than ``MAX_INT_DIGITS`` digits, before anything could recurse or overflow."""
    if _too_deep(text):
        raise JsonLimit(f"JSON nested deeper than docgen's limit of {MAX_JSON_DEPTH} levels")
    return json.loads(text, parse_int=_json_int)


def _too_deep(text: str) -> bool:
    """Whether brackets outside JSON strings nest deeper than ``MAX_JSON_DEPTH`` (one pass
    over the brackets, quotes and backslashes only)."""
    depth, in_string, escaped = 0, False, -1
    for match in _JSON_SPECIAL.finditer(text):
        at, char = match.start(), match.group()
        if at == escaped:
            continue
        if in_string:
            escaped = at + 1 if char == "\\" else escaped
            in_string = char != '"'
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _json_int(text: str) -> int:
    problem = long_int_problem(text)
    if problem is not None:
        raise JsonLimit(f"JSON holds an {problem}")
    return int(text)


def check(flag: Flag, value: object) -> list[str]:
    """Problems with ``value`` (YAML-loaded, or a string as on the command line)."""
    if value is None:
        return [] if flag.accepts_none else [f"{flag.quoted} cannot be null; remove the flag"]
    if flag.type == "bool":
        return _check_bool(flag, value)
    if isinstance(value, bool):
        return [f"{flag.quoted} takes a value, not true/false"]
    if isinstance(value, str) and flag.accepts_none and value in _NONE_TEXT:
        return []
    return _CHECKS[flag.type](flag, value)


def check_token(flag: Flag, text: str) -> list[str]:
    """Problems with one value token of ``flag`` (one item of a list flag)."""
    if flag.accepts_none and text in _NONE_TEXT:
        return []
    return _check_item(flag, text) if flag.type == "list" else check(flag, text)


def _check_bool(flag: Flag, value: object) -> list[str]:
    if not isinstance(value, bool):
        return [f"{flag.quoted} is an on/off flag: use true or false, got {show_value(value)}"]
    if not value and not flag.negations:
        return [no_negation(flag)]
    return []


def no_negation(flag: Flag) -> str:
    """The message for ``false`` given to an on/off flag that has no ``--no-`` form."""
    return (
        f"{flag.quoted} has no --no- form in vLLM; remove the flag instead of setting it to false"
    )


def _check_int(flag: Flag, value: object) -> list[str]:
    number = _to_int(flag, value)
    if number is None:
        return [_not_int(flag, value)]
    return _check_bounds(flag, number)


def _not_int(flag: Flag, value: object, wanted: str = "an integer") -> str:
    digits = digit_count(value) if isinstance(value, str) else 0
    if digits > MAX_INT_DIGITS:
        limit = f"of at most {MAX_INT_DIGITS} digits"
        return f"{flag.quoted} expects {wanted} {limit}, got one of {digits:,}"
    return f"{flag.quoted} expects {wanted}, got {show_value(value)}"


def _check_float(flag: Flag, value: object) -> list[str]:
    number = _to_float(value)
    if number is None:
        return [f"{flag.quoted} expects a number, got {show_value(value)}"]
    return _check_bounds(flag, number)


def _check_choice(flag: Flag, value: object) -> list[str]:
    if flag.value_type != "int":
        return _check_str(flag, value)
    number = _to_int(flag, value)
    if number is None:
        return [_not_int(flag, value)]
    return _check_member(flag, str(number))


def _check_str(flag: Flag, value: object) -> list[str]:
    if isinstance(value, (dict, list)):
        return [f"{flag.quoted} expects a single value, got {_kind(value)}"]
    return _check_member(flag, scalar_text(value))


def _check_json(flag: Flag, value: object) -> list[str]:
    if isinstance(value, str):
        try:
            value = load_json(value)
        except JsonLimit as exc:
            return [f"{flag.quoted}: {exc}"]
        except json.JSONDecodeError as exc:
            return [] if flag.json_or_str else [f"{flag.quoted} expects JSON: {exc}"]
    if isinstance(value, (dict, list)) and not _finite(value):
        return [f"{flag.quoted} holds a number JSON cannot write (infinite or NaN)"]
    if isinstance(value, dict):
        return _check_json_keys(flag, value)
    if isinstance(value, list) or (flag.json_or_str and isinstance(value, str)):
        return []
    return [f"{flag.quoted} expects a JSON object"]


def _finite(value: object) -> bool:
    """Whether JSON can write ``value``: Python writes an infinite float (YAML's ``1e400``,
    ``.inf``) or NaN as ``Infinity`` or ``NaN``, which no JSON reader must take."""
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:
        return False
    return True


def _check_json_keys(flag: Flag, mapping: Mapping[Any, Any]) -> list[str]:
    if not flag.json_keys:
        return []
    return [unknown_key(flag, str(key)) for key in mapping if key not in flag.json_keys]


def unknown_key(flag: Flag, key: str) -> str:
    """The message for a key that the JSON option ``flag`` does not have."""
    return f"unknown key '{key}' in {flag.quoted}{did_you_mean(key, flag.json_keys or ())}"


def _check_list(flag: Flag, value: object) -> list[str]:
    if isinstance(value, dict):
        return [f"{flag.quoted} expects a list, got a mapping"]
    items = value if isinstance(value, list) else [value]
    if not items:
        return [f"{flag.quoted} needs at least one value"]
    return [problem for item in items for problem in _check_item(flag, item)]


def _check_item(flag: Flag, item: object) -> list[str]:
    if item is None or isinstance(item, (dict, list)):
        return [f"{flag.quoted} expects a list of single values, got {show_value(item)}"]
    if isinstance(item, bool):
        return [f"{flag.quoted} takes values, not true/false"]
    if flag.item_type == "int" and _to_int(flag, item) is None:
        return [_not_int(flag, item, "integers")]
    return _check_member(flag, scalar_text(item))


_CHECKS: dict[str, Callable[[Flag, object], list[str]]] = {
    "choice": _check_choice,
    "float": _check_float,
    "int": _check_int,
    "json": _check_json,
    "list": _check_list,
    "str": _check_str,
}


def _check_bounds(flag: Flag, number: int | float) -> list[str]:
    if flag.name in _POSITIVE:
        return [] if number >= 1 else [f"{flag.quoted} must be a positive integer, got {number}"]
    if all(BOUNDS[op][1](number, bound) for op, bound in flag.constraints):
        return []
    wanted = " and ".join(f"{BOUNDS[op][0]} {bound}" for op, bound in flag.constraints)
    return [f"{flag.quoted} must be {wanted}, got {number}"]


def _check_member(flag: Flag, text: str) -> list[str]:
    if flag.choices is None or flag.choices_partial or _is_member(flag, text):
        return []
    return [f"invalid value '{text}' for {flag.quoted}{_choice_hint(flag.choices, flag, text)}"]


def _is_member(flag: Flag, text: str) -> bool:
    choices = flag.choices or ()
    if flag.none_word and text.lower() == "none":
        return True
    if flag.choices_case_insensitive:
        return text.lower() in {choice.lower() for choice in choices}
    return text in choices


def _choice_hint(choices: tuple[str, ...], flag: Flag, text: str) -> str:
    if flag.choices_case_insensitive:
        hint = did_you_mean(text.lower(), [choice.lower() for choice in choices])
    else:
        hint = did_you_mean(text, choices)
    if hint or len(choices) > 8:
        return hint
    return "; expected one of: " + ", ".join(choices)


# --- conversions as vLLM does them ----------------------------------------------------


def _to_int(flag: Flag, value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        return parse_int(value, human=flag.human_readable_int, auto=flag.accepts_auto)
    return None


def parse_int(text: str, *, human: bool = False, auto: bool = False) -> int | None:
    """vLLM's int parsing: ``32k`` = 32000 and ``32K`` = 32768 when ``human``; None if bad
    (also for more than ``MAX_INT_DIGITS`` digits)."""
    stripped = text.strip()
    if digit_count(stripped) > MAX_INT_DIGITS:
        return None
    if auto and (stripped == "-1" or stripped.lower() == "auto"):
        return -1
    match = _HUMAN_INT.fullmatch(stripped) if human else None
    if match:
        return _scaled(*match.groups())
    try:
        return int(stripped)
    except ValueError:
        return None


def _scaled(number: str, suffix: str) -> int | None:
    if suffix in _DECIMAL:
        return int(float(number) * _DECIMAL[suffix])
    if "." in number:  # vLLM rejects decimals with binary suffixes: "1.5K"
        return None
    return int(number) * _BINARY[suffix]


def _to_float(value: object) -> int | float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def scalar_text(value: object) -> str:
    """A scalar as one argv token: floats in their shortest form (0.4 -> "0.4")."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def show_value(value: object) -> str:
    """A value inside a message: strings quoted, YAML spellings for null and booleans, and
    control and bidirectional characters written as their escapes (see ``one_line``)."""
    if isinstance(value, str):
        if len(value) > _SHOWN_CHARS:
            cut = f"{value[: _SHOWN_CHARS - 20]}...{value[-10:]}"
            return f"'{one_line(cut)}' ({len(value):,} characters)"
        return f"'{one_line(value)}'"
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, (dict, list)):
        return one_line(json.dumps(value, ensure_ascii=False))
    return str(value)


def _kind(value: object) -> str:
    return "a mapping" if isinstance(value, dict) else "a list"
