"""Read a YAML file into plain Python data plus the position of every node.

ruamel.yaml parses (YAML 1.2, duplicate keys rejected); this module turns its
tree into dicts, lists and scalars and records where each key and value stands,
so that later stages can say ``profiles.yaml:12:5`` without holding YAML objects.
Alias expansion is bounded, so an alias bomb fails fast in bounded memory. This is the
careful path; ``fastyaml`` reads the common documents faster with libyaml.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from docgen.errors import Location, RegistryError, one_line
from docgen.registry.depth import MAX_DEPTH, check_depth, too_deep
from docgen.registry.empty_values import empty_value_place
from docgen.registry.yaml_errors import escape_problem, marked_problem, unmarked_problem
from docgen.registry.yaml_guard import COMPLEX_KEY, json_only, text_of
from docgen.registry.yaml_tabs import for_ruamel
from docgen.vllm.values import long_int_problem

KeyPath = tuple[Any, ...]


def dotted(keypath: KeyPath) -> str:
    """``('profiles', 'x', 'args', 'dtype')`` -> ``profiles.x.args.dtype``."""
    return ".".join(f"[{k}]" if isinstance(k, int) else str(k) for k in keypath)


#: Most nodes a document may expand to once aliases are followed.
MAX_NODES = 1_000_000
_RECURSIVE = "recursive YAML alias: a node contains itself"


@dataclass(frozen=True)
class Positions:
    """Where each node of a loaded document stands; paths are key tuples."""

    path: str
    keys: dict[KeyPath, tuple[int, int]] = field(default_factory=dict)
    values: dict[KeyPath, tuple[int, int]] = field(default_factory=dict)

    def of_key(self, keypath: KeyPath) -> Location:
        """The location of the key that names ``keypath`` (or its value)."""
        pos = self.keys.get(keypath) or self.values.get(keypath)
        return self._nearest(keypath) if pos is None else Location(self.path, *pos)

    def of_value(self, keypath: KeyPath) -> Location:
        """The location of the value at ``keypath`` (or its key)."""
        pos = self.values.get(keypath) or self.keys.get(keypath)
        return self._nearest(keypath) if pos is None else Location(self.path, *pos)

    def _nearest(self, keypath: KeyPath) -> Location:
        for n in range(len(keypath) - 1, 0, -1):
            pos = self.keys.get(keypath[:n]) or self.values.get(keypath[:n])
            if pos:
                return Location(self.path, *pos)
        return Location(self.path, 1, 1)


@dataclass(frozen=True)
class Document:
    """A loaded YAML document: plain data and where each of its nodes stands."""

    data: Any
    positions: Positions


def load_text(text: str, path: str) -> Document:
    """Parse YAML text with ruamel.yaml; every syntax problem becomes a located RegistryError."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    check_depth(text, path)
    _refuse_other_version(text, path)
    yaml = YAML(typ="rt")
    yaml.Constructor = _constructor()
    yaml.allow_duplicate_keys = False
    spaced, tab = for_ruamel(text, path)
    if tab is not None:
        raise RegistryError(tab)  # said as the fast path says it
    try:
        root = yaml.load(spaced)
    except MarkedYAMLError as exc:
        raise RegistryError(marked_problem(exc, path, text)) from None
    except RecursionError:
        raise RegistryError.at(Location(path, 1, 1), too_deep()) from None
    except YAMLError as exc:
        raise RegistryError(unmarked_problem(exc, path, text)) from None
    except (ValueError, OverflowError):  # ``chr()`` of an escape past the last character
        if (problem := escape_problem(path, text)) is None:
            raise
        raise RegistryError(problem) from None
    if root is None:
        raise RegistryError.at(Location(path, 1, 1), "the file is empty; expected a mapping")
    return _convert(root, path, text)


def _refuse_other_version(text: str, path: str) -> None:
    """A ``%YAML`` directive for another version than 1.2 (in the directives that open
    the file) is a located error: under ``%YAML 1.1`` ruamel.yaml reads ``010`` as 8 and
    ``yes`` as true, unlike the same file without it."""
    for number, line in enumerate(text.lstrip("\ufeff").split("\n"), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith("%"):
            return  # past the directives
        words = line.split()
        if words[0] == "%YAML" and words[1:2] != ["1.2"]:
            raise RegistryError.at(
                Location(path, number, 1),
                f"the registry is YAML 1.2, but the directive '{one_line(line.strip())}' "
                "asks for another version: remove it",
            )


@cache
def _constructor() -> Any:
    """The round-trip constructor, with timestamps left as strings (checked later) and
    integers longer than ``MAX_INT_DIGITS`` digits refused at their place."""
    from ruamel.yaml.constructor import ConstructorError, RoundTripConstructor

    class Constructor(json_only(RoundTripConstructor, "the registry")):  # type: ignore[misc]
        def construct_object(self, node: Any, deep: bool = False) -> Any:
            # ruamel.yaml reads an alias to a node still being built as null (``&r {a: *r}``
            # as ``{a: null}``): a value the file does not hold.
            if node in self.recursive_objects and node not in self.constructed_objects:
                raise ConstructorError(None, None, _RECURSIVE, node.start_mark)
            return super().construct_object(node, deep)

    Constructor.add_constructor("tag:yaml.org,2002:int", _bounded_int)
    Constructor.add_constructor("tag:yaml.org,2002:str", text_of)  # ``!!str 5`` too
    return Constructor


def _bounded_int(constructor: Any, node: Any) -> Any:
    from ruamel.yaml.constructor import ConstructorError

    problem = long_int_problem(str(node.value))
    if problem is None:
        number = constructor.construct_yaml_int(node)
        problem = long_int_problem(int(number))
        if problem is None:
            return number
    raise ConstructorError(None, None, problem, node.start_mark)


class _Converter:
    """Walks a ruamel tree once, copying data and recording positions."""

    def __init__(self, path: str, text: str) -> None:
        self.positions = Positions(path)
        self.lines = text.split("\n")
        self.nodes = 0
        self.stack: list[int] = []

    def convert(self, node: Any, keypath: KeyPath) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES or len(self.stack) > MAX_DEPTH:
            raise self._too_big(keypath)
        if isinstance(node, dict):
            return self._guarded(node, keypath, self._mapping)
        if isinstance(node, list):
            return self._guarded(node, keypath, self._sequence)
        return _scalar(node)

    def _guarded(self, node: Any, keypath: KeyPath, walk: Any) -> Any:
        if id(node) in self.stack:
            raise RegistryError.at(self.positions.of_value(keypath), _RECURSIVE)
        self.stack.append(id(node))
        try:
            return walk(node, keypath)
        finally:
            self.stack.pop()

    def _mapping(self, node: Any, keypath: KeyPath) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        lc = getattr(node, "lc", None)
        placed: dict[Any, Any] = lc.data if lc is not None and lc.data else {}
        for key, value in node.items():
            if not isinstance(key, _KEYS):  # ``? [1]: 1``: no JSON, no flag, no id holds it
                where = self.positions.of_value(keypath)
                if key in placed:
                    where = Location(where.path, placed[key][0] + 1, placed[key][1] + 1)
                raise RegistryError.at(where, COMPLEX_KEY)
            key = _scalar(key)
            child = (*keypath, key)
            if key in placed:
                kl, kc, vl, vc = placed[key]
                if value is None and vl > kl:  # ruamel.yaml's place may be the next key's
                    vl, vc = empty_value_place(self.lines, (kl, kc), (vl, vc))
                self.positions.keys.setdefault(child, (kl + 1, kc + 1))
                self.positions.values.setdefault(child, (vl + 1, vc + 1))
            out[key] = self.convert(value, child)
        return out

    def _sequence(self, node: Any, keypath: KeyPath) -> list[Any]:
        out: list[Any] = []
        lc = getattr(node, "lc", None)
        for index, value in enumerate(node):
            child = (*keypath, index)
            if lc is not None and lc.data and index in lc.data:
                line, col = lc.data[index]
                self.positions.values.setdefault(child, (line + 1, col + 1))
            out.append(self.convert(value, child))
        return out

    def _too_big(self, keypath: KeyPath) -> RegistryError:
        where = self.positions.of_value(keypath)
        if len(self.stack) > MAX_DEPTH:
            return RegistryError.at(where, too_deep())
        return RegistryError.at(
            where, f"YAML aliases expand to more than {MAX_NODES:,} nodes (an alias bomb?)"
        )


#: What a mapping key may be: a scalar, as JSON and the registry's names take it.
_KEYS = (str, int, float, bool, type(None), _dt.date, _dt.datetime)


def _scalar(node: Any) -> Any:
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, (_dt.date, _dt.datetime)):
        return node.isoformat()
    if isinstance(node, str):
        return str(node)
    return node


def expanded_size(node: Any, memo: dict[int, int], depth: int = 0) -> int:
    """Nodes in ``node`` once every alias is followed, counted in time linear in the YAML."""
    if not isinstance(node, (dict, list)):
        return 1
    if id(node) in memo:
        return memo[id(node)]
    if depth > MAX_DEPTH:
        raise _TooDeep
    memo[id(node)] = MAX_NODES + 1  # a cycle counts as too big until proven otherwise
    children = node.values() if isinstance(node, dict) else node
    size = 1 + sum(expanded_size(child, memo, depth + 1) for child in children)
    memo[id(node)] = min(size, MAX_NODES + 1)
    return memo[id(node)]


class _TooDeep(Exception):
    """Aliases nest the document deeper than ``MAX_DEPTH``."""


def _guard_size(root: Any, path: str) -> None:
    memo: dict[int, int] = {}
    try:
        if expanded_size(root, memo) <= MAX_NODES:
            return
    except _TooDeep:
        raise RegistryError.at(_culprit(root, path, _too_deep_below), too_deep()) from None
    raise RegistryError.at(
        _culprit(root, path, lambda value: expanded_size(value, memo) > MAX_NODES),
        f"YAML aliases expand to more than {MAX_NODES:,} nodes (an alias bomb?)",
    )


def _too_deep_below(value: Any) -> bool:
    try:
        expanded_size(value, {}, 1)
    except _TooDeep:
        return True
    return False


def _culprit(root: Any, path: str, guilty: Any) -> Location:
    """Where the first top-level entry for which ``guilty(value)`` holds is written."""
    lc = getattr(root, "lc", None)
    if isinstance(root, dict) and lc is not None:
        for key, value in root.items():
            if guilty(value) and key in lc.data:
                return Location(path, lc.data[key][0] + 1, lc.data[key][1] + 1)
    return Location(path, 1, 1)


def _convert(root: Any, path: str, text: str) -> Document:
    _guard_size(root, path)
    converter = _Converter(path, text)
    lc = getattr(root, "lc", None)
    if lc is not None:
        converter.positions.values[()] = (lc.line + 1, lc.col + 1)
    data = converter.convert(root, ())
    return Document(data, converter.positions)


def walk_leaves(data: Any, keypath: KeyPath = ()) -> Iterator[tuple[KeyPath, Any]]:
    """Every scalar in ``data`` with its key path, in document order."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from walk_leaves(value, (*keypath, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from walk_leaves(value, (*keypath, index))
    else:
        yield keypath, data
