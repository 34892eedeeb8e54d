"""Which parts of the registry a render reads, recorded while it runs.

``recording()`` collects, for the output being rendered, every registry part (see
``docgen.registry.parts``) the template reaches: an entry when the template reads an
attribute of its object (the environment calls ``note_object``), a whole section when it
iterates or counts one (the template globals are ``Section`` views), and the declared
parts of each helper it calls (``reading``). A derived value a helper computes from
many parts (the models table) is recorded by the digest of its result instead, so an
edit that leaves the table as it was does not count as a read change.

Reads are conservative: reading more than a render used only costs a render later,
never a stale page. Outside ``recording()`` nothing is recorded.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import wraps
from typing import Any

import jinja2

from docgen.errors import did_you_mean, one_line
from docgen.registry.model import (
    Agent,
    Host,
    Image,
    Launcher,
    Model,
    Product,
    Profile,
    Registry,
    Source,
)
from docgen.registry.parts import DERIVED, EVERYTHING, Part
from docgen.render.limits import BoundedEnvironment

#: What one render read: registry parts, and derived values by the digest of their result.
Reads = dict[Part, str]
_stack: list[Reads] = []

_ENTRY_SECTION: dict[type, str] = {
    Profile: "profiles",
    Model: "models",
    Host: "hosts",
    Image: "images",
}
_WHOLE_SECTION: dict[type, str] = {Agent: "agents", Product: "product", Launcher: "launcher"}
#: The registry's attributes that are whole sections; any other reads everything.
_REGISTRY_SECTIONS = frozenset(
    {"product", "agents", "hosts", "images", "models", "profiles", "vllm", "launcher"}
)


@contextmanager
def recording() -> Iterator[Reads]:
    """Record the reads of everything rendered inside the block."""
    reads: Reads = {}
    _stack.append(reads)
    try:
        yield reads
    finally:
        _stack.pop()


def note(*parts: Part) -> None:
    """Record registry parts as read (their digests are looked up later)."""
    if _stack:
        reads = _stack[-1]
        for part in parts:
            reads.setdefault(part, "")


def note_derived(name: str, result: object) -> None:
    """Record a helper's result by its digest: ``("()", name)``."""
    if _stack:
        text = str(result).encode("utf-8", "surrogatepass")
        _stack[-1][(DERIVED, name)] = hashlib.sha256(text).hexdigest()


def replay(reads: Iterable[tuple[Part, str]]) -> None:
    """Record reads made earlier (a derived read with the digest it had)."""
    if _stack:
        top = _stack[-1]
        for part, digest in reads:
            if part[0] == DERIVED:
                top[part] = digest
            else:
                top.setdefault(part, "")


def part_of(obj: object) -> Part | None:
    """The registry part a model object stands for: its entry, or its whole section."""
    kind = type(obj)
    section = _ENTRY_SECTION.get(kind)
    if section is not None:
        return (section, obj.id)  # type: ignore[attr-defined]
    if kind in _WHOLE_SECTION:
        return (_WHOLE_SECTION[kind],)
    return None


def note_object(obj: object, attribute: object = None) -> None:
    """Record the part behind an object a template reads an attribute of."""
    if not _stack:
        return
    part = part_of(obj)
    if part is not None:
        note(part)
    elif type(obj) is Registry:
        note((str(attribute),) if attribute in _REGISTRY_SECTIONS else EVERYTHING)


class Section(Mapping[str, Any]):
    """A keyed section (``hosts``, ``images``, ``models``) as templates see it: an entry
    read by key records that entry, iterating or counting records the section."""

    def __init__(self, name: str, items: Mapping[str, Any]) -> None:
        self._name, self._items = name, items

    def __getitem__(self, key: str) -> Any:
        try:
            value = self._items[key]
        except KeyError:  # whether an entry is there at all is the section's to say
            note((self._name,))
            raise
        note((self._name, key))
        return value

    def __iter__(self) -> Iterator[str]:
        note((self._name,))
        return iter(self._items)

    def __len__(self) -> int:
        note((self._name,))
        return len(self._items)

    def missing(self, key: object) -> str:
        """Why ``key`` finds no entry, with the closest entry's key."""
        return f"{self._name} has no entry '{one_line(str(key))}'" + did_you_mean(
            str(key), self._items
        )


class SectionList(Sequence[Any]):
    """A listed section (``profiles``, ``agents``): any use of it records the section."""

    def __init__(self, name: str, items: Iterable[Any]) -> None:
        self._name, self._items = name, tuple(items)

    def __getitem__(self, index: Any) -> Any:
        note((self._name,))
        return self._items[index]

    def __iter__(self) -> Iterator[Any]:
        note((self._name,))
        return iter(self._items)

    def __len__(self) -> int:
        note((self._name,))
        return len(self._items)

    def missing(self, index: object) -> str:
        """Why ``index`` finds nothing in the list."""
        if isinstance(index, int):
            return f"{self._name} has no element {index}: it holds {len(self._items)}"
        return f"{self._name} is a list: it has no '{one_line(str(index))}'"


class Missing(jinja2.StrictUndefined):
    """Jinja's strict undefined value, whose message names what a registry section lacks
    as that section's (``hosts has no entry 'dgx'``), not as an object of docgen's."""

    __slots__ = ()

    @property
    def _undefined_message(self) -> str:
        found = self._undefined_obj
        if not self._undefined_hint and isinstance(found, (Section, SectionList)):
            return found.missing(self._undefined_name)
        return str(super()._undefined_message)


def reading(
    *parts: Part, of_args: bool = True
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A helper that reads ``parts``, and (``of_args``) the entries its arguments are."""

    def wrap(function: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(function)
        def helper(*args: Any, **kwargs: Any) -> Any:
            note(*parts)
            if of_args:
                for value in (*args, *kwargs.values()):
                    note_object(value)
            return function(*args, **kwargs)

        return helper

    return wrap


def derived(name: str, function: Callable[[], Any]) -> Callable[[], Any]:
    """A helper without arguments whose result is recorded by its digest."""

    @wraps(function)
    def helper() -> Any:
        result = function()
        note_derived(name, result)
        return result

    return helper


#: The derived read of where the registry puts each node (``places``): a template that
#: reads a node's ``source`` reads its line, which an edit elsewhere in the file moves.
PLACES = "registry_places"


def places(registry: Registry) -> str:
    """Where the registry puts each node a template can reach: the location of every
    ``Source`` in its model (a node's ``source``, an override's ``texts``), in order."""
    found: list[str] = []
    stack: list[Any] = [registry]
    while stack:
        value = stack.pop()
        if isinstance(value, Source):
            found.append(f"{value.keypath!r} {value.location}")
        elif isinstance(value, Mapping):
            stack.extend(reversed(list(value.values())))
        elif isinstance(value, (list, tuple)):
            stack.extend(reversed(value))
        elif hasattr(value, "__dataclass_fields__") and not isinstance(value, type):
            fields = [f for f in value.__dataclass_fields__ if f != "_document"]
            stack.extend(reversed([getattr(value, f) for f in fields]))
    return "\n".join(found)


def _places_in(value: Any) -> bool:
    """Whether ``value``, read by a template, tells where the registry puts a node: a
    ``Source``, or a list of them."""
    if isinstance(value, (list, tuple)):
        return bool(value) and isinstance(value[0], Source)
    return isinstance(value, Source)


class _ModulePerImport(jinja2.Template):
    """A template whose module (what ``{% import %}`` gives a page) is made for each
    import: Jinja keeps the first one, so what its top level read would be recorded for
    the first page that imports it only. (Jinja's own names, private ones:
    ``tests/core/test_reads_the_cache_sees.py`` fails if a release renames them.)"""

    def _get_default_module(self, ctx: Any = None) -> Any:
        self._module = None
        return super()._get_default_module(ctx)


#: Most values docgen looks through in what a template hands to a string method.
_HANDED_WALK = 10_000


class ReadingEnvironment(BoundedEnvironment):
    """The bounded environment, recording the registry object behind each attribute or
    item a template reads, where the registry puts a node whose ``source`` it reads, and
    the registry objects it hands to ``str.format`` (which reads their attributes itself)."""

    template_class = _ModulePerImport
    #: The registry whose places were last worked out, and its ``places`` text.
    _kept_places: tuple[Registry, str] | None = None

    def getattr(self, obj: Any, attribute: str) -> Any:
        note_object(obj, attribute)
        value = super().getattr(obj, attribute)
        if _places_in(value):
            self._places()
        return value

    def getitem(self, obj: Any, argument: Any) -> Any:
        note_object(obj, argument)
        value = super().getitem(obj, argument)
        if _places_in(value):
            self._places()
        return value

    def call(self, context: Any, obj: Any, /, *args: Any, **kwargs: Any) -> Any:
        method = getattr(obj, "__wrapped__", obj)
        if _stack and isinstance(getattr(method, "__self__", None), str):
            self._handed_to_format([*args, *kwargs.values()])
        return super().call(context, obj, *args, **kwargs)

    def _handed_to_format(self, values: list[Any]) -> None:
        """What a string method such as ``str.format`` is given, which it reads itself:
        each registry entry in it, in lists and mappings too, is read whole, with where the
        registry puts its nodes; another object of docgen's (an arg, an override, a
        source) stands for the whole registry, and so does more than it is worth walking."""
        for _ in range(_HANDED_WALK):
            if not values:
                return
            each = values.pop()
            if isinstance(each, Mapping):
                values += [*each.keys(), *each.values()]
            elif isinstance(each, (Sequence, set, frozenset)) and not isinstance(each, str):
                values += list(each)
            elif part_of(each) is not None or type(each) is Registry:
                note_object(each)
                self._places()
            elif type(each).__module__.startswith("docgen."):
                note(EVERYTHING)
                self._places()
        if values:
            note(EVERYTHING)
            self._places()

    def _places(self) -> None:
        if _stack:
            registry = self.globals.get("registry")
            if isinstance(registry, Registry):
                note_derived(PLACES, self._place_text(registry))

    def _place_text(self, registry: Registry) -> str:
        if self._kept_places is None or self._kept_places[0] is not registry:
            self._kept_places = (registry, places(registry))
        return self._kept_places[1]
