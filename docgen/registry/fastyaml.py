"""Read the common registry with libyaml in one flat loop: the fast path beside ``source``.

libyaml (through PyYAML's C parser) produces the event stream; docgen composes data and
positions from it in one loop without building a node tree, resolves plain scalars by
YAML 1.2's core schema itself, and measures nesting as it goes, so no parser ever
recurses into a deep document. Anything unusual (aliases, anchors, merge keys, duplicate
keys, explicit tags, directives, several documents, numbers whose 1.2 reading is not
obvious) returns None, and the careful ruamel.yaml path runs instead, so messages and
semantics stay ruamel's. A syntax error is worded by ruamel.yaml too, unless the text is
too large for its round-trip parser to read in bounded time.
"""

from __future__ import annotations

import re
from typing import Any

from docgen.errors import Location, Problem, RegistryError
from docgen.registry.depth import MAX_DEPTH, libyaml_depth_refusal, too_deep
from docgen.registry.source import Document, KeyPath, Positions
from docgen.registry.yaml_errors import marked_problem, unmarked_problem
from docgen.registry.yaml_guard import NUMBER_12
from docgen.registry.yaml_tabs import unquoted_tab
from docgen.vllm.values import long_int_problem

_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_UNSURE = re.compile(
    r"^[-+]?(?:0[0-9]|0[oxbOXB]|\.(?:inf|Inf|INF|nan|NaN|NAN)$)|^[-+.0-9][-+.0-9_eE:]*_"
)
_NUMBER_START = frozenset("0123456789+-.")
_WORD_START = frozenset("~nNtTfF")
#: Largest text ruamel.yaml reads (what the fast path declines, and the wording of
#: syntax errors): beyond it the fast path alone reads, and libyaml words its errors.
RUAMEL_MAX_BYTES = 512_000
_NO_KEY = object()


class _Fallback(Exception):
    """The fast path declines this document, at ``event`` for what ``what`` names (said
    where the text is too large for ruamel.yaml to read in bounded time)."""

    def __init__(self, event: Any = None, what: str = "") -> None:
        super().__init__(what)
        self.event, self.what = event, what

    def problem(self, path: str, limit: int = RUAMEL_MAX_BYTES) -> Problem:
        mark = getattr(self.event, "start_mark", None)
        where = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path)
        if self.what.startswith("duplicate key"):
            return Problem(self.what, where)  # worded as ruamel.yaml words it
        return Problem(
            f"{self.what}: in a file over {limit // 1000} KB docgen reads "
            "only plain YAML (no anchors, aliases, merge keys, tags or directives; numbers "
            "in decimal), since its careful reader would take minutes at this size",
            where,
        )


def load_fast(text: str, path: str, careful_max: int = RUAMEL_MAX_BYTES) -> Document | None:
    """Parse with libyaml when possible; None means "use ``load_text``".

    Nesting deeper than ``MAX_DEPTH`` is a located RegistryError here, and so is a
    syntax error, or what the fast path declines, in text longer than ``careful_max``
    (what ruamel.yaml reads in bounded time).
    """
    if text.find("\ufeff", 1) >= 0 and len(text) <= careful_max:
        return None  # libyaml passes over a later byte-order mark: ruamel.yaml's verdict
    try:
        import yaml

        parser = yaml.CBaseLoader(text)
    except (ImportError, AttributeError):
        return None
    try:
        doc = _Composer(path).document(parser.get_event)
    except _Fallback as declined:
        if len(text) > careful_max:
            raise RegistryError(declined.problem(path, careful_max)) from None
        return None
    except yaml.MarkedYAMLError as exc:
        refusal = libyaml_depth_refusal(exc, text, path)
        if refusal is not None:
            raise refusal from None
        if len(text) > careful_max:
            raise RegistryError(marked_problem(exc, path)) from None
        return None
    except yaml.YAMLError as exc:  # a character YAML refuses, say
        if len(text) > careful_max:
            raise RegistryError(unmarked_problem(exc, path, text)) from None
        return None
    finally:
        parser.dispose()
    if (tab := unquoted_tab(text, path)) is not None:
        raise RegistryError(tab)  # text to libyaml, an error to ruamel.yaml: to both
    return doc


def load_located(text: str, path: str) -> Any:
    """The data of ``text`` on the fast path, each mapping and list with ruamel.yaml's
    ``lc`` lookups (for a reader written against the round-trip loader), or None where
    ``load_fast`` declines; its errors are ``load_fast``'s."""
    doc = load_fast(text, path)
    return None if doc is None else _located(doc.data, doc.positions, ())


class _Lines:
    """Where the items of a loaded mapping or list stand, 0-based, as ruamel.yaml's
    ``lc`` tells them (``value(key)``, ``item(index)``); a KeyError where none is known."""

    __slots__ = ("positions", "keypath")

    def __init__(self, positions: Positions, keypath: tuple[Any, ...]) -> None:
        self.positions, self.keypath = positions, keypath

    def value(self, key: Any) -> tuple[int, int]:
        line, col = self.positions.values[(*self.keypath, key)]
        return line - 1, col - 1

    item = value


class _Mapping(dict[Any, Any]):
    __slots__ = ("lc",)
    lc: _Lines


class _List(list[Any]):
    __slots__ = ("lc",)
    lc: _Lines


def _located(value: Any, positions: Positions, keypath: tuple[Any, ...]) -> Any:
    """``value`` (loaded on the fast path) with ``lc`` on every mapping and list."""
    if type(value) is dict:
        mapping = _Mapping((k, _located(v, positions, (*keypath, k))) for k, v in value.items())
        mapping.lc = _Lines(positions, keypath)
        return mapping
    if type(value) is list:
        items = _List(_located(v, positions, (*keypath, n)) for n, v in enumerate(value))
        items.lc = _Lines(positions, keypath)
        return items
    return value


class _Frame:
    """An open mapping or sequence: its container, key path and the key awaiting a value."""

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
            raise _Fallback(start, "a YAML directive (%YAML, %TAG)")
        root = self._compose(next_event, yaml)
        if not isinstance(ended := next_event(), yaml.StreamEndEvent):
            raise _Fallback(ended, "a second YAML document")
        return Document(root, self.positions)

    def _compose(self, next_event: Any, yaml: Any) -> Any:
        # long: one loop over every event of the document; splitting it would add a call
        # per event on the path that makes loading fast.
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
                    what = f"the anchor '&{event.anchor}'" if event.anchor else "a YAML tag"
                    raise _Fallback(event, what)
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
                        raise RegistryError.at(Location(self.positions.path, *where), too_deep())
                values[keypath] = where
                if kind is scalar:
                    value = _resolve(event, self.positions.path)
                else:
                    stack.append(_Frame({} if kind is mapping else [], keypath))
                    continue
            elif kind is yaml.DocumentEndEvent:
                return root
            else:
                raise _Fallback(event, "an alias")
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
            raise _Fallback(event, "a merge key" if is_scalar else "a key that is not a value")
        key = _resolve(event, self.positions.path)
        if key in frame.container:
            first = self.positions.keys[(*frame.keypath, key)][0]
            raise _Fallback(event, f"duplicate key '{key}' (first defined on line {first})")
        return key


def _resolve(event: Any, path: str) -> Any:
    """A scalar by YAML 1.2's core schema (quoted scalars are strings); an integer longer
    than ``MAX_INT_DIGITS`` digits is a located error."""
    value: str = event.value
    if event.style:  # quoted, literal or folded: a string
        return value
    if not value:
        return None
    first = value[0]
    if first in _NUMBER_START:
        if _UNSURE.search(value) and NUMBER_12.match(value):
            raise _Fallback(event, f"the number '{value}'")
        if _INT.match(value):
            return _integer(value, event, path)
        if _FLOAT.match(value) and NUMBER_12.match(value):  # ``.5e3`` is text to ruamel
            return float(value)
    elif first in _WORD_START:
        if _NULL.match(value):
            return None
        if value in _BOOL:
            return _BOOL[value]
    return value


def _integer(value: str, event: Any, path: str) -> int:
    problem = long_int_problem(value)
    if problem is not None:
        mark = event.start_mark
        raise RegistryError.at(Location(path, mark.line + 1, mark.column + 1), problem)
    return int(value)
