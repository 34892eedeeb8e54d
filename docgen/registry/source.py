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

from docgen.errors import Location, Problem, RegistryError
from docgen.registry.depth import MAX_DEPTH, check_depth, too_deep
from docgen.vllm.values import long_int_problem

KeyPath = tuple[Any, ...]

#: Most nodes a document may expand to once aliases are followed.
MAX_NODES = 1_000_000


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
    yaml = YAML(typ="rt")
    yaml.Constructor = _constructor()
    yaml.allow_duplicate_keys = False
    try:
        root = yaml.load(text)
    except MarkedYAMLError as exc:
        raise RegistryError(marked_problem(exc, path, text)) from None
    except RecursionError:
        raise RegistryError.at(Location(path, 1, 1), too_deep()) from None
    except YAMLError as exc:
        raise RegistryError.at(Location(path, 1, 1), f"cannot parse YAML: {exc}") from None
    if root is None:
        raise RegistryError.at(Location(path, 1, 1), "the file is empty; expected a mapping")
    return _convert(root, path)


@cache
def _constructor() -> Any:
    """The round-trip constructor, with timestamps left as strings (checked later) and
    integers longer than ``MAX_INT_DIGITS`` digits refused at their place."""
    from ruamel.yaml.constructor import RoundTripConstructor

    class Constructor(RoundTripConstructor):
        pass

    Constructor.add_constructor("tag:yaml.org,2002:timestamp", _timestamp_as_text)
    Constructor.add_constructor("tag:yaml.org,2002:int", _bounded_int)
    return Constructor


def _timestamp_as_text(constructor: Any, node: Any) -> str:
    return str(node.value)


def _bounded_int(constructor: Any, node: Any) -> Any:
    from ruamel.yaml.constructor import ConstructorError, RoundTripConstructor

    problem = long_int_problem(str(node.value))
    if problem is None:
        number = RoundTripConstructor.construct_yaml_int(constructor, node)
        problem = long_int_problem(int(number))
        if problem is None:
            return number
    raise ConstructorError(None, None, problem, node.start_mark)


def marked_problem(exc: Any, path: str, text: str = "") -> Problem:
    """A ruamel.yaml or libyaml syntax error as a located problem, worded for a person:
    the parser's words for the common slips said plainly, with where the block or the
    bracket it was reading began."""
    mark = exc.problem_mark or exc.context_mark
    problem = (exc.problem or exc.context or "invalid YAML").strip()
    if "found duplicate key" in problem or type(exc).__name__ == "DuplicateKeyError":
        problem = _duplicate_message(exc, text)
    elif "\\t" in problem or "'\\t'" in problem or "tab character" in problem:
        problem = "tab characters are not allowed for indentation; use spaces"
    else:
        problem, mark = _plain(exc, problem, mark)
    where = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path, 1, 1)
    return Problem(problem, where)


def _plain(exc: Any, problem: str, mark: Any) -> tuple[str, Any]:
    """A syntax problem and its mark, in plain words where the parser's are its own."""
    opened = exc.context_mark
    if problem.startswith(_NO_COLON) and opened is not None:
        return "this key has no ':' after it", opened  # the parser stops a line later
    if problem.startswith(_MISPLACED_VALUE):
        return _MISPLACED, mark
    if opened is None or not exc.context:
        return problem, mark
    unclosed = _unclosed(problem, exc.context)
    if unclosed:
        return unclosed, opened  # it runs to the end of the file: where it opens is the cause
    if opened.line == getattr(mark, "line", None):
        return problem, mark
    if problem == _BLOCK_END:  # a key indented unlike its block's (not text after a quote)
        problem = "this line is not indented as the block it is in"
    within = exc.context.removeprefix("while parsing ").removeprefix("while scanning ")
    return f"{problem} (in {within} that starts at {opened.line + 1}:{opened.column + 1})", mark


def _unclosed(problem: str, context: str) -> str | None:
    """The plain words for a quoted string, ``[`` list or ``{`` mapping that the file
    ends inside, or None for another problem."""
    if "end of stream" not in problem and "<stream end>" not in problem:
        return None
    for kind, words in _UNCLOSED.items():
        if kind in context:
            return words
    return None


_UNCLOSED = {
    "quoted": "this quoted string is never closed",
    "flow sequence": "this '[' list is never closed: the file ends before its ']'",
    "flow mapping": "this '{' mapping is never closed: the file ends before its '}'",
}

#: How ruamel.yaml and libyaml word a key without its colon, a value where none fits, and
#: a line indented otherwise than its block.
_NO_COLON = "could not find expected ':'"
_MISPLACED_VALUE = "mapping values are not allowed"
_BLOCK_END = "expected <block end>, but found '<block mapping start>'"
_MISPLACED = (
    "a 'key: value' cannot start here: check the line's indentation, "
    "or quote a value that holds ': '"
)


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
            return RegistryError.at(where, too_deep())
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
