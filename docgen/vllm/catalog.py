"""The ``vllm serve`` argument catalog: which flags exist, what values they take, their argv.

The data is ``docgen/data/vllm_catalog.json``, built by ``scripts/build_vllm_catalog.py``
from the reference extract of vLLM 0.34.0. The version history (which release has which
option string, removed flags, value-list history, parser names) is in
``docgen/data/vllm_versions.json`` for version-aware checks.

Values are checked the way vLLM 0.34.0's ``FlexibleArgumentParser`` reads them, only
stricter where the parser is lax: prefix abbreviations are unknown options, and values
outside a known list are errors even where argparse lets them through (they fail later,
at engine start).
"""

from __future__ import annotations

import functools
import json
import operator
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from importlib import resources
from typing import Any

from docgen.errors import did_you_mean

CATALOG_FILE = "vllm_catalog.json"
VERSIONS_FILE = "vllm_versions.json"
TYPES = ("bool", "choice", "float", "int", "json", "list", "str")

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
_BOUNDS: dict[str, tuple[str, Callable[[Any, Any], bool]]] = {
    "gt": (">", operator.gt),
    "ge": (">=", operator.ge),
    "lt": ("<", operator.lt),
    "le": ("<=", operator.le),
}
_HUMAN_INT = re.compile(r"(\d+(?:\.\d+)?)([kKmMgGtT])")
_DECIMAL = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
_BINARY = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")  # argparse's own test
_NONE_TEXT = ("", "None")  # vLLM's optional types read these as "unset"
_O_LEVELS = ("0", "1", "2", "3")
_OPTIMIZATION_LEVEL = "--optimization-level"


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
        slower. ``tests/test_vllm.py`` checks the result equals a normally built flag.
        """
        values = dict(record)
        for key in _TUPLE_FIELDS & values.keys():
            values[key] = tuple(values[key])
        if "constraints" in values:
            bounds = values["constraints"]
            values["constraints"] = tuple((op, bounds[op]) for op in _BOUNDS if op in bounds)
        unknown = values.keys() - _FIELDS
        if unknown:
            raise ValueError(f"catalog record of '--{name}' has unknown keys: {sorted(unknown)}")
        flag = object.__new__(cls)
        vars(flag).update(values, name=name)
        return flag


_FIELDS = frozenset(field.name for field in fields(Flag))
_TUPLE_FIELDS = frozenset({"aliases", "choices", "json_keys", "negations"})


def _tuple_or_none(items: Iterable[Any] | None) -> tuple[str, ...] | None:
    return None if items is None else tuple(str(item) for item in items)


class Catalog:
    """The flags of one vLLM release, optionally extended by registry declarations."""

    def __init__(
        self,
        version: str,
        flags: Mapping[str, Flag],
        commit: str = "",
        history: History | None = None,
    ) -> None:
        self.version = version
        self.commit = commit
        self.history = history  # set on a catalog of one declared release (for_version)
        self._flags = dict(sorted(flags.items()))
        self._names = _name_index(self._flags.values())
        self._options = _option_index(self._flags.values())
        self._releases: dict[int, dict[str, Flag]] = {}  # for_version, by sampled position

    @classmethod
    def load(cls) -> Catalog:
        """The shipped catalog (vLLM 0.34.0), read once per process."""
        return _shipped()

    def extend(
        self,
        extra_flags: Mapping[str, Mapping[str, Any]],
        extra_values: Mapping[str, Sequence[str]],
    ) -> Catalog:
        """A new catalog with registry-declared flags and extra known values.

        A declared flag replaces a same-named one. Values for a name that is unknown or
        has no value list are ignored here; the registry reports unknown names itself.
        """
        flags = dict(self._flags)
        flags.update({name: declared_flag(name, spec) for name, spec in extra_flags.items()})
        names = _name_index(flags.values())
        for name, values in extra_values.items():
            flag = names.get(name)
            if flag is not None and flag.choices is not None:
                flags[flag.name] = replace(flag, choices=_union(flag.choices, values))
        return Catalog(self.version, flags, self.commit, self.history)

    def for_version(self, declared: str, image: str = "") -> Catalog:
        """The flags, negations and value lists of the vLLM release ``declared``.

        A version between two sampled releases is checked as the nearest sampled one
        below it. Raises ``UnknownRelease`` for a malformed or too old version. The
        version history is read here, on first use only.
        """
        index = VersionIndex.load()
        release = index.release(declared, image)
        if release.position not in self._releases:
            self._releases[release.position] = index.flags_at(
                self._flags.values(), release.position
            )
        flags = self._releases[release.position]
        return Catalog(release.sampled, flags, "", History(index, release))

    def missing(self, option: str) -> str | None:
        """Why ``option`` (``--x``) is unknown here when another sampled release has it."""
        if self.history is None or option in self._options:
            return None
        return self.history.option_note(option)

    def lookup(self, name: str) -> Flag | None:
        """The flag named ``name`` or one of its aliases, all without leading dashes."""
        return self._names.get(name)

    def names(self) -> list[str]:
        return list(self._flags)

    def suggest(self, name: str) -> str:
        """``"; did you mean '--max-model-len'?"`` for a misspelt flag name, or ``""``."""
        return did_you_mean(f"--{name.lstrip('-')}", [flag.option for flag in self._flags.values()])

    def check_value(self, name: str, value: object) -> list[str]:
        """Problems with a YAML-loaded registry value for the known flag ``name``."""
        flag = self._require(name)
        problems = check(flag, value)
        note = self.history.value_note(flag, value) if problems and self.history else None
        return [note] if note else problems

    def tokens(self, name: str, value: object) -> list[str]:
        """The argv tokens that give flag ``name`` the registry value ``value``."""
        return flag_tokens(self._require(name), value)

    def check_argv(self, tokens: Sequence[str]) -> list[tuple[int, str]]:
        """Problems in operator-supplied ``vllm serve`` argv tokens, by token index."""
        return _Scan(self._options, tokens).problems

    def effective(self, tokens: Sequence[str]) -> dict[str, object]:
        """Canonical flag name -> the value that wins in ``tokens`` (the last one given).

        Booleans map to True/False, other flags to their string value (a list of strings
        for multi-value flags); dotted JSON keys merge into a dict that, as in vLLM,
        replaces a whole JSON value given for the same flag.
        """
        return _effective(_Scan(self._options, tokens).given)

    def _require(self, name: str) -> Flag:
        flag = self.lookup(name)
        if flag is None:
            raise KeyError(f"unknown vLLM flag '--{name}'")
        return flag


@functools.cache
def _shipped() -> Catalog:
    text = (resources.files("docgen") / "data" / CATALOG_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    flags = {name: Flag.from_record(name, record) for name, record in data["flags"].items()}
    return Catalog(data["source"]["version"], flags, data["source"]["commit"])


def _name_index(flags: Iterable[Flag]) -> dict[str, Flag]:
    """Canonical names and aliases (without dashes); a canonical name wins a clash."""
    flags = list(flags)
    index = {alias.lstrip("-"): flag for flag in flags for alias in flag.aliases}
    index.update({flag.name: flag for flag in flags})
    return index


def _option_index(flags: Iterable[Flag]) -> dict[str, tuple[Flag, bool]]:
    """Every accepted option string -> (flag, whether it is a negation)."""
    flags = list(flags)
    index = {f"--{neg}": (flag, True) for flag in flags for neg in flag.negations}
    index.update({alias: (flag, False) for flag in flags for alias in flag.aliases})
    index.update({flag.option: (flag, False) for flag in flags})
    return index


def _union(choices: tuple[str, ...], values: Iterable[object]) -> tuple[str, ...]:
    added = [str(v) for v in dict.fromkeys(values) if str(v) not in choices]
    return (*choices, *added)


def declared_flag(name: str, spec: Mapping[str, Any]) -> Flag:
    """A flag declared by a registry: ``{"type": ..., "choices": [...], "negatable": bool}``."""
    kind = str(spec.get("type") or ("bool" if "negatable" in spec else "str"))
    if kind not in TYPES:
        raise ValueError(f"extra flag '--{name}' has unknown type '{kind}'")
    choices = _tuple_or_none(spec.get("choices"))
    listed = kind == "list"
    return Flag(
        name=name,
        type=kind,
        choices=choices,
        choices_enforced=None if choices is None else kind == "choice",
        negations=(f"no-{name}",) if kind == "bool" and spec.get("negatable") else (),
        value_type="str" if kind == "choice" else None,
        json_dotted_keys=kind == "json",
        nargs="+" if listed else None,
        item_type="str" if listed else None,
        list_form="nargs" if listed else None,
    )


# --- value checks ---------------------------------------------------------------------


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


def _check_bool(flag: Flag, value: object) -> list[str]:
    if not isinstance(value, bool):
        return [f"{flag.quoted} is an on/off flag: use true or false, got {_show(value)}"]
    if not value and not flag.negations:
        return [_no_negation(flag)]
    return []


def _no_negation(flag: Flag) -> str:
    return (
        f"{flag.quoted} has no --no- form in vLLM; remove the flag instead of setting it to false"
    )


def _check_int(flag: Flag, value: object) -> list[str]:
    number = _to_int(flag, value)
    if number is None:
        return [f"{flag.quoted} expects an integer, got {_show(value)}"]
    return _check_bounds(flag, number)


def _check_float(flag: Flag, value: object) -> list[str]:
    number = _to_float(value)
    if number is None:
        return [f"{flag.quoted} expects a number, got {_show(value)}"]
    return _check_bounds(flag, number)


def _check_choice(flag: Flag, value: object) -> list[str]:
    if flag.value_type != "int":
        return _check_str(flag, value)
    number = _to_int(flag, value)
    if number is None:
        return [f"{flag.quoted} expects an integer, got {_show(value)}"]
    return _check_member(flag, str(number))


def _check_str(flag: Flag, value: object) -> list[str]:
    if isinstance(value, (dict, list)):
        return [f"{flag.quoted} expects a single value, got {_kind(value)}"]
    return _check_member(flag, _text(value))


def _check_json(flag: Flag, value: object) -> list[str]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            return [] if flag.json_or_str else [f"{flag.quoted} expects JSON: {exc}"]
    if isinstance(value, dict):
        return _check_json_keys(flag, value)
    if isinstance(value, list) or (flag.json_or_str and isinstance(value, str)):
        return []
    return [f"{flag.quoted} expects a JSON object"]


def _check_json_keys(flag: Flag, mapping: Mapping[Any, Any]) -> list[str]:
    if not flag.json_keys:
        return []
    return [_unknown_key(flag, str(key)) for key in mapping if key not in flag.json_keys]


def _unknown_key(flag: Flag, key: str) -> str:
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
        return [f"{flag.quoted} expects a list of single values, got {_show(item)}"]
    if isinstance(item, bool):
        return [f"{flag.quoted} takes values, not true/false"]
    if flag.item_type == "int" and _to_int(flag, item) is None:
        return [f"{flag.quoted} expects integers, got {_show(item)}"]
    return _check_member(flag, _text(item))


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
    if all(_BOUNDS[op][1](number, bound) for op, bound in flag.constraints):
        return []
    wanted = " and ".join(f"{_BOUNDS[op][0]} {bound}" for op, bound in flag.constraints)
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
    """vLLM's int parsing: ``32k`` = 32000 and ``32K`` = 32768 when ``human``; None if bad."""
    stripped = text.strip()
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


def _text(value: object) -> str:
    """A scalar as one argv token: floats in their shortest form (0.4 -> "0.4")."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def _show(value: object) -> str:
    """A value inside a message: strings quoted, YAML spellings for null and booleans."""
    if isinstance(value, str):
        return f"'{value}'"
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _kind(value: object) -> str:
    return "a mapping" if isinstance(value, dict) else "a list"


# --- argv tokens --------------------------------------------------------------------


def flag_tokens(flag: Flag, value: object) -> list[str]:
    """The argv tokens for one registry arg (see ``Catalog.tokens``)."""
    if isinstance(value, bool):
        return [flag.option] if value else [_negation(flag)]
    if value is None:
        return [flag.option, "None"]
    if flag.type == "json" and isinstance(value, (dict, list)):
        return [flag.option, json.dumps(value, separators=(",", ":"), ensure_ascii=False)]
    if flag.type == "list" and isinstance(value, list):
        return _list_tokens(flag, [_text(item) for item in value])
    return [flag.option, _text(value)]


def _negation(flag: Flag) -> str:
    if not flag.negations:
        raise ValueError(_no_negation(flag))
    return f"--{flag.negations[0]}"


def _list_tokens(flag: Flag, items: list[str]) -> list[str]:
    if flag.list_form == "append":
        return [token for item in items for token in (flag.option, item)]
    if flag.list_form == "csv":
        return [flag.option, ",".join(items)]
    return [flag.option, *items]


# --- operator argv ------------------------------------------------------------------


@dataclass(frozen=True)
class _Given:
    """One option found in an argv with its value (True/False, a string, or strings)."""

    flag: Flag
    value: object
    keys: tuple[str, ...] = ()
    append: bool = False


def _is_option(token: str) -> bool:
    """argparse's test: a dash, not a negative number, no space inside."""
    return (
        len(token) > 1
        and token[0] == "-"
        and not _NEGATIVE_NUMBER.match(token)
        and " " not in token
    )


def _split(token: str) -> tuple[str, str, str | None]:
    """(option with ``_`` -> ``-`` before the first ``.``, dotted keys, value after ``=``)."""
    if token.startswith("-O") and token != "-O":  # -O3, -O=3: vLLM's shorthand
        return _OPTIMIZATION_LEVEL, "", token[3:] if token[2] == "=" else token[2:]
    head, equals, inline = token.partition("=")
    name, _, keys = head.partition(".")
    if name.startswith("--"):
        name = "--" + name[2:].replace("_", "-")
    return name, keys, inline if equals else None


class _Scan:
    """One pass over argv tokens, collecting the options given and the problems found."""

    def __init__(self, options: Mapping[str, tuple[Flag, bool]], tokens: Sequence[str]) -> None:
        self.options = options
        self.tokens = list(tokens)
        self.at = 0
        self.given: list[_Given] = []
        self.problems: list[tuple[int, str]] = []
        while self.at < len(self.tokens):
            self._step()

    def _step(self) -> None:
        token = self.tokens[self.at]
        self.at += 1
        if not _is_option(token):
            self.problems.append((self.at - 1, f"unexpected argument '{token}'"))
        elif token == "-O" and self._following() in _O_LEVELS:
            self._option(self.at - 1, _OPTIMIZATION_LEVEL, "", None)
        else:
            self._option(self.at - 1, *_split(token))

    def _following(self) -> str | None:
        """The next token if it is a value rather than an option."""
        if self.at < len(self.tokens) and not _is_option(self.tokens[self.at]):
            return self.tokens[self.at]
        return None

    def _option(self, index: int, name: str, keys: str, inline: str | None) -> None:
        found = self.options.get(name)
        if found is None:
            self._unknown(index, name, inline)
        elif keys:
            self._dotted(index, found[0], f"{name}.{keys}", inline)
        elif found[0].type == "bool":
            self._switch(index, name, found, inline)
        else:
            self._valued(index, name, found[0], inline)

    def _unknown(self, index: int, name: str, inline: str | None) -> None:
        hint = did_you_mean(name, self.options)
        self.problems.append((index, f"unknown option '{name}'{hint}"))
        if inline is None and self._following() is not None:
            self.at += 1  # most likely its value: do not report it again

    def _switch(self, index: int, name: str, found: tuple[Flag, bool], inline: str | None) -> None:
        if inline is not None:
            message = f"'{name}' is an on/off flag and takes no value, got '{inline}'"
            self.problems.append((index, message))
            return
        self.given.append(_Given(found[0], not found[1]))
        stray = self._following()
        if stray is not None:
            message = (
                f"unexpected argument '{stray}'; '{name}' is an on/off flag and takes no value"
            )
            self.problems.append((self.at, message))
            self.at += 1

    def _valued(self, index: int, name: str, flag: Flag, inline: str | None) -> None:
        values = [(index, inline)] if inline is not None else self._take(flag)
        if not values:
            self._missing(index, name)
            return
        for value_index, text in values:
            self.problems += [(value_index, m) for m in _check_text(flag, text)]
        texts = [text for _, text in values]
        value = texts if flag.list_form == "nargs" else texts[0]
        self.given.append(_Given(flag, value))

    def _take(self, flag: Flag) -> list[tuple[int, str]]:
        taken: list[tuple[int, str]] = []
        while (text := self._following()) is not None:
            taken.append((self.at, text))
            self.at += 1
            if flag.list_form != "nargs":
                break
        return taken

    def _missing(self, index: int, name: str) -> None:
        if self.at < len(self.tokens):
            message = f"'{name}' expects a value, got the option '{self.tokens[self.at]}'"
        else:
            message = f"'{name}' expects a value"
        self.problems.append((index, message))

    def _dotted(self, index: int, flag: Flag, spelled: str, inline: str | None) -> None:
        path = spelled.split(".")[1:]
        append = path[-1].endswith("+")
        path[-1] = path[-1].removesuffix("+")
        value = inline if inline is not None else self._following()
        if value is None:
            self._missing(index, spelled)
            return
        if inline is None:
            self.at += 1
        if not flag.json_dotted_keys:
            message = f"'{spelled}' is not accepted: only JSON options take dotted keys"
            self.problems.append((index, message))
            return
        if flag.json_keys and path[0] not in flag.json_keys:
            self.problems.append((index, _unknown_key(flag, path[0])))
        self.given.append(_Given(flag, value, tuple(path), append))


def _check_text(flag: Flag, text: str) -> list[str]:
    """Problems with one value token of ``flag`` (one item of a list flag)."""
    if flag.accepts_none and text in _NONE_TEXT:
        return []
    return _check_item(flag, text) if flag.type == "list" else check(flag, text)


def _effective(given: Iterable[_Given]) -> dict[str, object]:
    result: dict[str, object] = {}
    dotted: dict[str, dict[str, Any]] = {}
    for item in given:
        name = item.flag.name
        if item.keys:
            _merge(dotted.setdefault(name, {}), item)
        elif item.flag.list_form == "append":
            result[name] = [*_as_list(result.pop(name, [])), item.value]
        else:
            result.pop(name, None)
            result[name] = item.value
    for name, mapping in dotted.items():
        result.pop(name, None)
        result[name] = mapping
    return result


def _as_list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else [value]


def _merge(target: dict[str, Any], item: _Given) -> None:
    """Merge ``--x.a.b value`` into ``target`` as vLLM does (``+`` appends a,b,c)."""
    text = str(item.value)
    value: Any = text.split(",") if item.append else _json_or_text(text)
    for key in item.keys[:-1]:
        if not isinstance(target.get(key), dict):
            target[key] = {}
        target = target[key]
    last = item.keys[-1]
    old = target.get(last)
    target[last] = old + value if isinstance(old, list) and isinstance(value, list) else value


def _json_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


# --- versions -----------------------------------------------------------------------

_RELEASE = re.compile(r"v?(\d+(?:\.\d+){1,3})(?:\.?post(\d+))?")
_PARSER_WORDS = {"tool-call-parser": "tool-call parser", "reasoning-parser": "reasoning parser"}


class UnknownRelease(ValueError):
    """A declared vLLM version that docgen has no argument data for."""


def release_key(version: str) -> tuple[int, ...] | None:
    """A sortable key: ``0.8.5`` < ``0.8.5.post1`` < ``0.10.1.1``; None if malformed."""
    match = _RELEASE.fullmatch(version.strip())
    if match is None:
        return None
    numbers = [int(part) for part in match[1].split(".")]
    return (*numbers, *[0] * (4 - len(numbers)), int(match[2] or 0))


@dataclass(frozen=True)
class Release:
    """The release an image declares and the sampled release that stands for it."""

    declared: str
    sampled: str
    position: int  # of ``sampled`` in VersionIndex.versions
    image: str = ""

    @property
    def label(self) -> str:
        """``vLLM 0.9.2 (image 'old')``, saying which sampled release stands for it."""
        notes = [f"image '{self.image}'"] if self.image else []
        if self.sampled != self.declared:
            notes.append(f"checked as {self.sampled}, the nearest sampled release below it")
        return f"vLLM {self.declared}" + (f" ({'; '.join(notes)})" if notes else "")


class VersionIndex:
    """Which sampled vLLM releases (0.8.5.post1 to 0.34.0) have which options and values.

    Built from ``vllm_versions.json``. Only sampled releases are known: a flag added or
    removed between two of them is reported against the sampled ones.
    """

    def __init__(self, data: Mapping[str, Any]) -> None:
        matrix = data["flag_version_matrix"]
        self.versions: tuple[str, ...] = tuple(matrix["versions"])
        self._position = {version: index for index, version in enumerate(self.versions)}
        self._present = {option: frozenset(seen) for option, seen in matrix["present_in"].items()}
        self._removed = [record for record in data["removed_flags"] if _removed_kept(record)]
        self._values: Mapping[str, list[dict[str, Any]]] = data["value_history"]
        parsers = data["parsers"]
        self._parsers = {
            "tool-call-parser": self._spans(parsers["tool_call_parser_history"]),
            "reasoning-parser": self._spans(parsers["reasoning_parser_history"]),
        }

    @classmethod
    def load(cls) -> VersionIndex:
        """The shipped version history, read once per process and only when asked for."""
        return _version_index()

    def _spans(self, history: Mapping[str, Mapping[str, str]]) -> dict[str, range]:
        return {
            name: range(self._position[seen["first_seen"]], self._position[seen["last_seen"]] + 1)
            for name, seen in history.items()
        }

    def release(self, declared: str, image: str = "") -> Release:
        """The sampled release at or below ``declared``; UnknownRelease if there is none."""
        key = release_key(declared)
        if key is None:
            raise UnknownRelease(f"'{declared}' is not a vLLM release number such as 0.10.2")
        below = [i for i, v in enumerate(self.versions) if (release_key(v) or ()) <= key]
        if not below:
            raise UnknownRelease(
                f"vLLM {declared} is older than {self.versions[0]}, the oldest release "
                "docgen has argument data for"
            )
        return Release(declared, self.versions[below[-1]], below[-1], image)

    def has(self, option: str, position: int) -> bool | None:
        """Whether the release at ``position`` has ``option``; None if never recorded."""
        seen = self._present.get(option)
        return None if seen is None else position in seen

    def positions(self, option: str) -> frozenset[int]:
        return self._present.get(option, frozenset())

    def describe(self, positions: Iterable[int]) -> str:
        """``0.10.0 through 0.34.0``, ``0.9.2 and 0.12.0 through 0.13.0``."""
        runs: list[list[int]] = []
        for position in sorted(positions):
            if runs and runs[-1][-1] == position - 1:
                runs[-1].append(position)
            else:
                runs.append([position])
        parts = [
            self.versions[run[0]]
            if len(run) == 1
            else f"{self.versions[run[0]]} through {self.versions[run[-1]]}"
            for run in runs
        ]
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

    # -- the flags of one release --

    def flags_at(self, flags: Iterable[Flag], position: int) -> dict[str, Flag]:
        """``flags`` (of the shipped release) as the release at ``position`` has them."""
        result: dict[str, Flag] = {}
        for flag in flags:
            kept = self._flag_at(flag, position)
            if kept is not None:
                result[flag.name] = kept
            else:
                result.update(self._orphans(flag, position))
        for record in self._removed:
            name = record["flag"].removeprefix("--")
            if self.has(record["flag"], position) and name not in result:
                result[name] = self._removed_flag(name, record, position)
        return result

    def _flag_at(self, flag: Flag, position: int) -> Flag | None:
        if self.has(flag.option, position) is False:
            return None
        changes: dict[str, Any] = self.values_at(flag, position)
        aliases = tuple(a for a in flag.aliases if self.has(a, position) is not False)
        negations = self._negations(flag.name, flag.negations, position)
        if aliases != flag.aliases:
            changes["aliases"] = aliases
        if negations != flag.negations:
            changes["negations"] = negations
        return replace(flag, **changes) if changes else flag

    def _negations(self, name: str, negations: Iterable[str], position: int) -> tuple[str, ...]:
        """The negations the release has, plus an older ``--no-`` form it had then."""
        kept = [n for n in negations if self.has(f"--{n}", position) is not False]
        if f"no-{name}" not in kept and self.has(f"--no-{name}", position):
            kept.insert(0, f"no-{name}")
        return tuple(kept)

    def _orphans(self, flag: Flag, position: int) -> dict[str, Flag]:
        """Negations of a flag the release lacks that were flags of their own then.

        ``--disable-log-requests`` negates ``--enable-log-requests`` in 0.34.0, but up to
        0.16.0 it was an on/off flag by itself.
        """
        names = [n for n in flag.negations if self.has(f"--{n}", position)]
        return {n: Flag(n, "bool", negations=self._negations(n, (), position)) for n in names}

    def _removed_flag(self, name: str, record: Mapping[str, Any], position: int) -> Flag:
        kind = record.get("type") if record.get("type") in TYPES else "str"
        flag = Flag(
            name=name,
            type=str(kind),
            negations=self._negations(name, (), position),
            value_type="str" if kind == "choice" else None,
            json_dotted_keys=kind == "json",
            nargs="+" if kind == "list" else None,
            list_form="nargs" if kind == "list" else None,
        )
        changes = self.values_at(flag, position)
        return replace(flag, **changes) if changes else flag

    # -- value lists --

    def values_at(self, flag: Flag, position: int) -> dict[str, Any]:
        """Field changes that give ``flag`` the value list of the release at ``position``."""
        spans = self._parsers.get(flag.name)
        if spans is not None:
            return {"choices": tuple(sorted(n for n, span in spans.items() if position in span))}
        entry = self._entry(flag.name, position)
        if entry is None or not entry.get("present", True):
            return {}
        values = tuple(str(v) for v in entry.get("values") or ())
        if not values:
            return {"choices": None, "choices_enforced": None} if flag.choices else {}
        changes: dict[str, Any] = {"choices": values}
        changes["choices_enforced"] = entry.get("enforced_by_argparse")
        if flag.type == "int":
            changes.update(type="choice", value_type="int")
        return changes

    def _entry(self, name: str, position: int) -> dict[str, Any] | None:
        """The value-history entry in force at ``position``: the last one from before it."""
        found = None
        for entry in self._values.get(f"--{name}", ()):
            if self._position.get(entry["from_version"], len(self.versions)) <= position:
                found = entry
        return found

    def value_positions(self, name: str, value: str) -> list[int]:
        """The sampled releases whose value list for ``--name`` holds ``value``."""
        spans = self._parsers.get(name)
        if spans is not None:
            return list(spans.get(value, ()))
        return [
            position
            for position in range(len(self.versions))
            if value in [str(v) for v in (self._entry(name, position) or {}).get("values") or ()]
        ]


def _removed_kept(record: Mapping[str, Any]) -> bool:
    """Removed option strings that were flags (``--no-x`` forms are negations, ``-O`` a
    shorthand the argv scan knows)."""
    flag = str(record["flag"])
    return flag.startswith("--") and not flag.startswith("--no-")


@functools.cache
def _version_index() -> VersionIndex:
    text = (resources.files("docgen") / "data" / VERSIONS_FILE).read_text(encoding="utf-8")
    return VersionIndex(json.loads(text))


@dataclass(frozen=True)
class History:
    """What a catalog of one declared release says about options and values it lacks."""

    index: VersionIndex
    release: Release

    def option_note(self, option: str) -> str | None:
        positions = self.index.positions(option)
        if not positions:
            return None
        return self._note(f"'{option}'", positions)

    def value_note(self, flag: Flag, value: object) -> str | None:
        """A message for ``false`` without a ``--no-`` form or a value of another release."""
        if value is False and flag.type == "bool" and not flag.negations:
            return self.option_note(f"--no-{flag.name}")
        if isinstance(value, (bool, dict, list)) or value is None:
            return None
        text = _text(value)
        positions = self.index.value_positions(flag.name, text)
        if not positions:
            return None
        word = _PARSER_WORDS.get(flag.name)
        subject = f"{word} '{text}'" if word else f"value '{text}' of {flag.quoted}"
        return self._note(subject, positions)

    def _note(self, subject: str, positions: Iterable[int]) -> str:
        return (
            f"{subject} is not in {self.release.label}; among the sampled releases "
            f"it exists in {self.index.describe(positions)}"
        )
