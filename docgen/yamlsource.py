"""Read a YAML file into plain Python data plus the position of every node.

ruamel.yaml parses (YAML 1.2, duplicate keys rejected); this module turns its
tree into dicts, lists and scalars and records where each key and value stands,
so that later stages can say ``profiles.yaml:12:5`` without holding YAML objects.
Alias expansion is bounded, so an alias bomb fails fast in bounded memory.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from docgen.errors import Location, Problem, RegistryError

KeyPath = tuple[Any, ...]

#: Most nodes a document may expand to once aliases are followed.
MAX_NODES = 1_000_000
#: Deepest nesting accepted (mappings and sequences inside each other).
MAX_DEPTH = 64


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
    data: Any
    positions: Positions


def decode(raw: bytes, path: str) -> str:
    """UTF-8 text of ``raw``, or a located error at the first bad byte."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        raise RegistryError.at(
            Location(path, line, col), f"invalid UTF-8 byte 0x{raw[exc.start]:02x}"
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def load_text(text: str, path: str) -> Document:
    """Parse YAML text; every syntax problem becomes a located RegistryError."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    yaml = YAML(typ="rt")
    yaml.Constructor = _constructor()
    yaml.allow_duplicate_keys = False
    try:
        root = yaml.load(text)
    except MarkedYAMLError as exc:
        raise RegistryError(_marked_problem(exc, path)) from None
    except (YAMLError, RecursionError) as exc:
        raise RegistryError.at(Location(path, 1, 1), f"cannot parse YAML: {exc}") from None
    if root is None:
        raise RegistryError.at(Location(path, 1, 1), "the file is empty; expected a mapping")
    return _convert(root, path)


@cache
def _constructor() -> Any:
    """The round-trip constructor, with timestamps left as strings (checked later)."""
    from ruamel.yaml.constructor import RoundTripConstructor

    class Constructor(RoundTripConstructor):
        pass

    Constructor.add_constructor("tag:yaml.org,2002:timestamp", _timestamp_as_text)
    return Constructor


def _timestamp_as_text(constructor: Any, node: Any) -> str:
    return str(node.value)


def _marked_problem(exc: Any, path: str) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    where = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path, 1, 1)
    problem = (exc.problem or exc.context or "invalid YAML").strip()
    if "found duplicate key" in problem or type(exc).__name__ == "DuplicateKeyError":
        problem = _duplicate_message(exc)
    elif "\\t" in problem or "'\\t'" in problem:
        problem = "tab characters are not allowed for indentation; use spaces"
    return Problem(problem, where)


def _duplicate_message(exc: Any) -> str:
    text = str(exc.problem or "")
    key = text.split('"')[1] if '"' in text else text.rsplit(" ", 1)[-1]
    first = exc.context_mark
    seen = f" (first defined on line {first.line + 1})" if first else ""
    return f"duplicate key '{key}'{seen}"


class _Converter:
    """Walks a ruamel tree once, copying data and recording positions."""

    def __init__(self, path: str) -> None:
        self.positions = Positions(path)
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
            raise RegistryError.at(
                self.positions.of_value(keypath), "recursive YAML alias: a node contains itself"
            )
        self.stack.append(id(node))
        try:
            return walk(node, keypath)
        finally:
            self.stack.pop()

    def _mapping(self, node: Any, keypath: KeyPath) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        lc = getattr(node, "lc", None)
        for key, value in node.items():
            key = _scalar(key)
            child = (*keypath, key)
            if lc is not None and lc.data and key in lc.data:
                kl, kc, vl, vc = lc.data[key]
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
            return RegistryError.at(where, f"YAML nesting deeper than {MAX_DEPTH} levels")
        return RegistryError.at(
            where, f"YAML aliases expand to more than {MAX_NODES:,} nodes (an alias bomb?)"
        )


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
        return MAX_NODES + 1
    memo[id(node)] = MAX_NODES + 1  # a cycle counts as too big until proven otherwise
    children = node.values() if isinstance(node, dict) else node
    size = 1 + sum(expanded_size(child, memo, depth + 1) for child in children)
    memo[id(node)] = min(size, MAX_NODES + 1)
    return memo[id(node)]


def _guard_size(root: Any, path: str) -> None:
    memo: dict[int, int] = {}
    if expanded_size(root, memo) <= MAX_NODES:
        return
    line, col = 1, 1
    lc = getattr(root, "lc", None)
    if isinstance(root, dict) and lc is not None:
        worst = max(root, key=lambda k: expanded_size(root[k], memo))
        if worst in lc.data:
            line, col = lc.data[worst][0] + 1, lc.data[worst][1] + 1
    raise RegistryError.at(
        Location(path, line, col),
        f"YAML aliases expand to more than {MAX_NODES:,} nodes (an alias bomb?)",
    )


def _convert(root: Any, path: str) -> Document:
    _guard_size(root, path)
    converter = _Converter(path)
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


# -- the fast path -----------------------------------------------------------------------
#
# libyaml (through PyYAML's C parser) composes the node tree; docgen resolves plain
# scalars by YAML 1.2's core schema itself and records positions from the node marks.
# Anything unusual (aliases, merge keys, duplicate keys, explicit tags, numbers whose
# 1.2 reading is not obvious, any parse error) returns None, and the careful ruamel.yaml
# path runs instead, so messages and semantics stay ruamel's.

_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_UNSURE = re.compile(
    r"^[-+]?(?:0[0-9]|0[oxOX]|\.(?:inf|Inf|INF|nan|NaN|NAN)$)|^[-+.0-9][-+.0-9_eE:]*_"
)
_PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{t}"
    for t in ("str", "int", "float", "bool", "null", "timestamp", "map", "seq")
)


class _Fallback(Exception):
    """The fast path declines this document."""


def load_fast(text: str, path: str) -> Document | None:
    """Parse with libyaml when possible; None means "use ``load_text``"."""
    try:
        import yaml

        loader = yaml.CSafeLoader(text)
    except (ImportError, AttributeError):
        return None
    try:
        root = loader.get_single_node()
        if root is None:
            return None
        resolve = loader.resolve if "!" in text else None  # no "!": no explicit tag
        return _FastConverter(path, resolve).document(root)
    except (_Fallback, RecursionError):
        return None
    except Exception:  # any libyaml complaint: let ruamel word it
        return None
    finally:
        loader.dispose()


class _FastConverter:
    def __init__(self, path: str, resolve: Any) -> None:
        self.positions = Positions(path)
        self.seen: set[int] = set()
        self.resolve = resolve

    def document(self, root: Any) -> Document:
        self.positions.values[()] = (root.start_mark.line + 1, root.start_mark.column + 1)
        return Document(self.node(root, ()), self.positions)

    def node(self, node: Any, keypath: KeyPath) -> Any:
        if id(node) in self.seen or node.tag not in _PLAIN_TAGS or len(keypath) > MAX_DEPTH:
            raise _Fallback
        self.seen.add(id(node))
        kind = node.id
        if kind == "scalar":
            if self.resolve is not None and node.tag != self.resolve(
                type(node), node.value, (not node.style, True)
            ):
                raise _Fallback  # an explicit tag: ruamel keeps it
            return _resolve(node)
        if kind == "sequence":
            return [self._item(child, (*keypath, i)) for i, child in enumerate(node.value)]
        return self._mapping(node, keypath)

    def _item(self, child: Any, keypath: KeyPath) -> Any:
        self.positions.values[keypath] = (child.start_mark.line + 1, child.start_mark.column + 1)
        return self.node(child, keypath)

    def _mapping(self, node: Any, keypath: KeyPath) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if key_node.id != "scalar" or key_node.tag == "tag:yaml.org,2002:merge":
                raise _Fallback
            key = self.node(key_node, keypath)
            if key in out or isinstance(key, (dict, list)):
                raise _Fallback
            child = (*keypath, key)
            mark = key_node.start_mark
            self.positions.keys[child] = (mark.line + 1, mark.column + 1)
            vmark = value_node.start_mark
            self.positions.values[child] = (vmark.line + 1, vmark.column + 1)
            out[key] = self.node(value_node, child)
        return out


def _resolve(node: Any) -> Any:
    """A scalar by YAML 1.2's core schema (quoted scalars are strings)."""
    value: str = node.value
    if node.style:  # quoted, literal or folded: a string
        return value
    if _NULL.match(value):
        return None
    if value in _BOOL:
        return _BOOL[value]
    if _UNSURE.search(value):
        raise _Fallback
    if _INT.match(value):
        return int(value)
    if _FLOAT.match(value):
        return float(value)
    return value
