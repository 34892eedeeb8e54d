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


def load_text(text: str, path: str) -> Document:
    """Parse YAML text; every syntax problem becomes a located RegistryError."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    check_depth(text, path)
    yaml = YAML(typ="rt")
    yaml.Constructor = _constructor()
    yaml.allow_duplicate_keys = False
    try:
        root = yaml.load(text)
    except MarkedYAMLError as exc:
        raise RegistryError(_marked_problem(exc, path, text)) from None
    except RecursionError:
        raise RegistryError.at(Location(path, 1, 1), _too_deep()) from None
    except YAMLError as exc:
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


def _marked_problem(exc: Any, path: str, text: str = "") -> Problem:
    mark = exc.problem_mark or exc.context_mark
    where = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path, 1, 1)
    problem = (exc.problem or exc.context or "invalid YAML").strip()
    if "found duplicate key" in problem or type(exc).__name__ == "DuplicateKeyError":
        problem = _duplicate_message(exc, text)
    elif "\\t" in problem or "'\\t'" in problem:
        problem = "tab characters are not allowed for indentation; use spaces"
    return Problem(problem, where)


def _duplicate_message(exc: Any, text: str) -> str:
    problem = str(exc.problem or "")
    key = problem.split('"')[1] if '"' in problem else problem.rsplit(" ", 1)[-1]
    first = _first_definition(text, exc.context_mark, key)
    seen = f" (first defined on line {first})" if first else ""
    return f"duplicate key '{key}'{seen}"


def _first_definition(text: str, mapping_mark: Any, key: str) -> int | None:
    """The line of ``key``'s first definition in the mapping that starts at the mark.

    ruamel.yaml marks the mapping, not the first key; its node tree (composed without
    constructing, so duplicates are kept) holds the key's own position.
    """
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.nodes import MappingNode, Node

    if not text or mapping_mark is None:
        return None
    try:
        root: Node | None = YAML(typ="rt").compose(text)
    except (YAMLError, RecursionError):
        return None
    todo = [root] if root is not None else []
    while todo:
        node = todo.pop()
        children = node.value if isinstance(node.value, list) else []
        if isinstance(node, MappingNode):
            start = node.start_mark
            if (start.line, start.column) == (mapping_mark.line, mapping_mark.column):
                for name, _value in children:
                    if str(name.value) == key:
                        return int(name.start_mark.line) + 1
            todo.extend(child for pair in children for child in pair)
        else:
            todo.extend(child for child in children if isinstance(child, Node))
    return None


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
        raise RegistryError.at(_culprit(root, path, _too_deep_below), _too_deep()) from None
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
# libyaml (through PyYAML's C parser) produces the event stream; docgen composes data and
# positions from it in one loop without building a node tree, resolves plain scalars by
# YAML 1.2's core schema itself, and measures nesting as it goes, so no parser ever
# recurses into a deep document. Anything unusual (aliases, anchors, merge keys,
# duplicate keys, explicit tags, directives, several documents, numbers whose 1.2
# reading is not obvious) returns None, and the careful ruamel.yaml path runs instead,
# so messages and semantics stay ruamel's. A syntax error is worded by ruamel.yaml too,
# unless the text is too large for its round-trip parser to read in bounded time.

_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_UNSURE = re.compile(
    r"^[-+]?(?:0[0-9]|0[oxOX]|\.(?:inf|Inf|INF|nan|NaN|NAN)$)|^[-+.0-9][-+.0-9_eE:]*_"
)
_NUMBER_START = frozenset("0123456789+-.")
_WORD_START = frozenset("~nNtTfF")
#: Largest text whose syntax errors ruamel.yaml words; libyaml words them beyond it.
RUAMEL_WORDING_BYTES = 512_000
_NO_KEY = object()


class _Fallback(Exception):
    """The fast path declines this document."""


def load_fast(text: str, path: str) -> Document | None:
    """Parse with libyaml when possible; None means "use ``load_text``".

    Nesting deeper than ``MAX_DEPTH`` is a located RegistryError here, and so is a
    syntax error in text too large for ruamel.yaml to word in bounded time.
    """
    try:
        import yaml

        parser = yaml.CBaseLoader(text)
    except (ImportError, AttributeError):
        return None
    try:
        return _Composer(path).document(parser.get_event)
    except _Fallback:
        return None
    except yaml.MarkedYAMLError as exc:
        refusal = _libyaml_depth_refusal(exc, text, path)
        if refusal is not None:
            raise refusal from None
        if len(text) > RUAMEL_WORDING_BYTES:
            raise RegistryError(_marked_problem(exc, path)) from None
        return None
    except yaml.YAMLError:
        return None
    finally:
        parser.dispose()


def check_depth(text: str, path: str) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH`` before a recursive composer meets it."""
    refusal = _depth_refusal(text, path)
    if refusal is not None:
        raise refusal


def _depth_refusal(text: str, path: str) -> RegistryError | None:
    """The located error for the first node nested deeper than ``MAX_DEPTH``, if any."""
    try:
        import yaml

        parser = yaml.CBaseLoader(text)
    except (ImportError, AttributeError):
        return None
    starts = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
    ends = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    depth = -1  # levels below the root, as the composers count them: the root is level 0
    try:
        while (event := parser.get_event()) is not None:
            if isinstance(event, starts):
                depth += 1
                if depth > MAX_DEPTH:
                    mark: Any = event.start_mark
                    return RegistryError.at(
                        Location(path, mark.line + 1, mark.column + 1), _too_deep()
                    )
            elif isinstance(event, ends):
                depth -= 1
    except yaml.MarkedYAMLError as exc:
        return _libyaml_depth_refusal(exc, text, path)
    except yaml.YAMLError:
        pass  # the composer words it
    finally:
        parser.dispose()
    return None


#: How libyaml words its own nesting limit (1,000 levels since the libyaml bundled with
#: PyYAML 6.0.2); older releases have no limit and never say it.
_LIBYAML_DEPTH = "maximum nesting depth"


def _libyaml_depth_refusal(exc: Any, text: str, path: str) -> RegistryError | None:
    """Map libyaml's own nesting refusal to docgen's, at the node docgen would name.

    libyaml scans ahead of the events it hands out, so a document past its limit is
    refused before a single event shows how deep it is. Its limit lies far beyond
    ``MAX_DEPTH``, so the text before the refusal holds the node docgen names: measure
    that prefix, which libyaml can read.
    """
    if _LIBYAML_DEPTH not in str(exc.problem or ""):
        return None
    mark = exc.problem_mark
    prefix = text[: mark.index] if mark is not None and 0 < mark.index < len(text) else ""
    refusal = _depth_refusal(prefix, path) if prefix else None
    if refusal is not None:
        return refusal
    where = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path, 1, 1)
    return RegistryError.at(where, _too_deep())


def _too_deep() -> str:
    return f"YAML nesting deeper than {MAX_DEPTH} levels"


class _Frame:
    __slots__ = ("container", "keypath", "key")

    def __init__(self, container: Any, keypath: KeyPath) -> None:
        self.container = container
        self.keypath = keypath
        self.key: Any = _NO_KEY


class _Composer:
    """Builds data and positions from libyaml's events with an explicit stack."""

    def __init__(self, path: str) -> None:
        self.positions = Positions(path)

    def document(self, next_event: Any) -> Document | None:
        import yaml

        next_event()  # the stream start
        start = next_event()
        if not isinstance(start, yaml.DocumentStartEvent):
            return None  # an empty stream: ruamel words it
        if start.version or start.tags:
            raise _Fallback
        root = self._compose(next_event, yaml)
        if not isinstance(next_event(), yaml.StreamEndEvent):
            raise _Fallback  # a second document
        return Document(root, self.positions)

    def _compose(self, next_event: Any, yaml: Any) -> Any:
        scalar, mapping, sequence = (
            yaml.ScalarEvent,
            yaml.MappingStartEvent,
            yaml.SequenceStartEvent,
        )
        end_mapping, end_sequence = yaml.MappingEndEvent, yaml.SequenceEndEvent
        keys, values = self.positions.keys, self.positions.values
        stack: list[_Frame] = []
        root: Any = None
        while True:
            event = next_event()
            kind = type(event)
            if kind is end_mapping or kind is end_sequence:
                value = stack.pop().container
            elif kind is scalar or kind is mapping or kind is sequence:
                if event.anchor is not None or event.tag is not None:
                    raise _Fallback
                mark = event.start_mark
                where = (mark.line + 1, mark.column + 1)
                if not stack:
                    keypath: KeyPath = ()
                else:
                    frame = stack[-1]
                    if frame.key is _NO_KEY and type(frame.container) is dict:
                        frame.key = self._key(event, frame, kind is scalar)
                        keys[(*frame.keypath, frame.key)] = where
                        continue
                    index = frame.key if frame.key is not _NO_KEY else len(frame.container)
                    keypath = (*frame.keypath, index)
                    if len(keypath) > MAX_DEPTH:
                        raise RegistryError.at(Location(self.positions.path, *where), _too_deep())
                values[keypath] = where
                if kind is scalar:
                    value = _resolve(event)
                else:
                    stack.append(_Frame({} if kind is mapping else [], keypath))
                    continue
            elif kind is yaml.DocumentEndEvent:
                return root
            else:
                raise _Fallback  # an alias
            if not stack:
                root = value
                continue
            frame = stack[-1]
            if frame.key is _NO_KEY:
                frame.container.append(value)
            else:
                frame.container[frame.key] = value
                frame.key = _NO_KEY

    def _key(self, event: Any, frame: _Frame, is_scalar: bool) -> Any:
        if not is_scalar or (event.value == "<<" and not event.style):
            raise _Fallback  # a complex key or a merge key
        key = _resolve(event)
        if key in frame.container:
            raise _Fallback  # ruamel words the duplicate
        return key


def _resolve(event: Any) -> Any:
    """A scalar by YAML 1.2's core schema (quoted scalars are strings)."""
    value: str = event.value
    if event.style:  # quoted, literal or folded: a string
        return value
    if not value:
        return None
    first = value[0]
    if first in _NUMBER_START:
        if _UNSURE.search(value):
            raise _Fallback
        if _INT.match(value):
            return int(value)
        if _FLOAT.match(value):
            return float(value)
    elif first in _WORD_START:
        if _NULL.match(value):
            return None
        if value in _BOOL:
            return _BOOL[value]
    return value
