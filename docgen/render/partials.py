"""An included partial rendered once per the values it can see.

A setup page lists every profile with the partial that each profile's own page includes.
A partial's text depends only on its free names (``jinja2.meta``, globals included: a
page may set its own ``cli``) and on what it reads through them, so ``{% include %}`` of
a partial whose free names all hold values that cannot change during a plan (registry
entries, plain values, the environment's own helpers, which are pure functions of their
arguments and of the registry parts they record) is rendered once per those values: a
later include gives the same text and records the same registry reads (see
``docgen.render.reads``). A partial that includes, imports or extends another template
is always rendered: the other template could see names this one does not.

Values are keyed by what they stand for (a profile by its id, a string by its text), so
a key means the same in a forked copy and in a later plan. A later plan starts from the
partials of an earlier one (``start_from``) and keeps those whose reads still hold.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, MutableMapping
from functools import cached_property
from typing import Any, NamedTuple

import jinja2
from jinja2 import meta, nodes
from markupsafe import Markup

from docgen.registry.parts import Part
from docgen.render import file_kinds
from docgen.render.reads import ReadingEnvironment, part_of, recording, replay

#: A partial's name and, for each of its free names, what the value stands for.
PartialKey = tuple[str, tuple[tuple[str, Hashable], ...]]
#: Nodes that let a partial see names its own free names do not list.
_OPENS_OTHERS = (nodes.Include, nodes.Import, nodes.FromImport, nodes.Extends)
_PLAIN = frozenset({str, int, float, bool, type(None)})


class Partial(NamedTuple):
    """One include's text and what it read (in a record, each part with its digest)."""

    text: str
    reads: tuple[tuple[Part, str], ...] = ()


class KeptSources(jinja2.BaseLoader):
    """``loader``, keeping the text of each template it gives, for ``Partials`` to parse:
    the names a partial sees are read from the very text that was compiled."""

    def __init__(self, loader: jinja2.BaseLoader) -> None:
        self.loader = loader
        self.sources: dict[str, str] = {}

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        source, filename, uptodate = self.loader.get_source(environment, template)
        self.sources[template] = source
        return source, filename, uptodate

    def list_templates(self) -> list[str]:
        return self.loader.list_templates()


class Partials:
    """The partials of one plan: rendered here, or kept from an earlier plan."""

    def __init__(self, env: jinja2.Environment, sources: KeptSources) -> None:
        self.env, self.sources = env, sources
        self.done: dict[PartialKey, Partial] = {}
        self.made: dict[PartialKey, Partial] = {}  # rendered here, not yet taken
        self.seen: dict[PartialKey, None] = {}  # included here, not yet taken
        self._earlier: Mapping[PartialKey, tuple[str, tuple[tuple[Part, str], ...]]] = {}
        self._holds: Callable[[Partial], bool] = lambda _partial: False
        self._free: dict[str, tuple[str, ...] | None] = {}
        self._proxies: dict[jinja2.Template, _Included] = {}

    def start_from(
        self,
        earlier: Mapping[PartialKey, tuple[str, tuple[tuple[Part, str], ...]]],
        holds: Callable[[Partial], bool],
    ) -> None:
        """Use the partials of an earlier plan (same templates and docgen; each a text and
        its reads) that ``holds``."""
        self._earlier, self._holds = earlier, holds

    def add(self, partials: Mapping[PartialKey, Partial]) -> None:
        """Partials another process rendered in this plan."""
        self.done.update(partials)

    def take(self) -> tuple[dict[PartialKey, Partial], tuple[PartialKey, ...]]:
        """The partials rendered here, and the keys of all included, since the last
        ``take``."""
        made, self.made = self.made, {}
        seen, self.seen = tuple(self.seen), {}
        return made, seen

    def kept(self) -> dict[PartialKey, Partial]:
        """Every partial of this plan, and each earlier one that still holds."""
        out = {}
        for key, found in self._earlier.items():
            if key not in self.done and self._holds(partial := Partial(*found)):
                out[key] = partial
        return {**out, **self.done}

    def included(self, template: jinja2.Template) -> Any:
        """``template`` as ``{% include %}`` sees it: through this memo."""
        if template not in self._proxies:
            self._proxies[template] = _Included(template, self)
        return self._proxies[template]

    def render(self, template: jinja2.Template, context: jinja2.runtime.Context) -> Iterator[str]:
        """The events of ``template`` included with ``context``: its text, once per key.
        A partial the memo does not keep renders as it would without it (no frame more,
        so a recursive include goes as deep)."""
        found = self._key(template, context)
        if found is None:
            return template.root_render_func(context)
        return self._remembered(template, context, *found)

    def _remembered(
        self,
        template: jinja2.Template,
        context: jinja2.runtime.Context,
        key: PartialKey,
        parts: list[Part],
    ) -> Iterator[str]:
        self.seen[key] = None
        partial = self.done.get(key) or self._from_earlier(key)
        if partial is None:
            partial = self._rendered(template, context, parts)
            self.done[key] = self.made[key] = partial
        replay(partial.reads)
        yield partial.text

    def _from_earlier(self, key: PartialKey) -> Partial | None:
        found = self._earlier.get(key)
        partial = None if found is None else Partial(*found)
        if partial is None or not self._holds(partial):
            return None
        self.done[key] = partial
        return partial

    def _rendered(
        self, template: jinja2.Template, context: jinja2.runtime.Context, parts: list[Part]
    ) -> Partial:
        with recording() as reads:
            text = "".join(template.root_render_func(context))
        for part in parts:  # a value the partial shows whole (``{{ p }}``) is read too
            reads.setdefault(part, "")
        return Partial(text, tuple(reads.items()))

    def _key(
        self, template: jinja2.Template, context: jinja2.runtime.Context
    ) -> tuple[PartialKey, list[Part]] | None:
        """What the partial's free names hold and the registry parts they are, or None
        when some value could change during a plan."""
        name = template.name or ""
        if file_kinds.plain():
            return None  # its text holds values as a JSON or `#` file prints them
        if name not in self._free:
            self._free[name] = self._free_names(name)
        free = self._free[name]
        if free is None:
            return None
        key: list[tuple[str, Hashable]] = []
        parts: list[Part] = []
        for variable in free:
            value = context.resolve_or_missing(variable)
            stands_for = self._stands_for(variable, value, parts)
            if stands_for is None:
                return None
            key.append((variable, stands_for))
        return (name, tuple(key)), parts

    def _free_names(self, name: str) -> tuple[str, ...] | None:
        """Every name the partial looks up, globals included (a page may set its own
        ``cli`` or ``profiles``), or None for one that opens other templates."""
        source = self.sources.sources.get(name)
        if source is None:
            return None
        tree = self._parser.parse(source)
        if any(True for _ in tree.find_all(_OPENS_OTHERS)):
            return None
        return tuple(sorted(meta.find_undeclared_variables(tree)))

    @cached_property
    def _parser(self) -> jinja2.Environment:
        """The environment's filters and tests without its globals: ``jinja2.meta`` leaves
        out the names of the parser's globals, and here every name looked up counts."""
        parser = jinja2.Environment()
        parser.filters, parser.tests = self.env.filters, self.env.tests
        parser.globals.clear()
        return parser

    def _stands_for(self, name: str, value: Any, parts: list[Part]) -> Hashable | None:
        """What ``value`` stands for, the same in any process of any plan; None for a
        value that could change (a list, a loop, an object docgen does not know)."""
        kind = type(value)
        if kind in _PLAIN:
            return (kind.__name__, repr(value) if kind is float else value)  # -0.0 is not 0.0
        if kind is Markup:
            return ("Markup", str(value))
        if kind is tuple:
            items = [self._stands_for("", item, parts) for item in value]
            return None if None in items else ("tuple", tuple(items))
        part = part_of(value)
        if part is not None and self._owned(value, part):
            parts.append(part)
            return ("entry", kind.__name__, getattr(value, "id", ""))
        if name and value is self.env.globals.get(name):
            return ("global", name)
        return None

    def _owned(self, value: object, part: Part) -> bool:
        """Whether ``value`` is the plan's own registry object for ``part``: then the
        part's name means this very object."""
        section = getattr(self.env.globals.get("registry"), part[0], None)
        if len(part) == 2:
            return isinstance(section, Mapping) and section.get(part[1]) is value
        return section is value or (isinstance(section, tuple) and any(v is value for v in section))


class _Included:
    """A template as an include reaches it: ``new_context`` then ``root_render_func`` go
    through the memo; everything else (imports, ``extends``) reaches the template."""

    def __init__(self, template: jinja2.Template, memo: Partials) -> None:
        self._template, self._memo = template, memo
        self._context: jinja2.runtime.Context | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._template, name)

    def new_context(self, *args: Any, **kwargs: Any) -> jinja2.runtime.Context:
        context = self._template.new_context(*args, **kwargs)
        self._context = context
        return context

    def root_render_func(self, context: jinja2.runtime.Context) -> Iterator[str]:
        # Jinja's code for an include calls ``new_context`` and passes its result here at
        # once (``tests/render/test_partials.py`` holds extends and imports to it).
        if context is not self._context:  # ``extends``: the child's own context
            return self._template.root_render_func(context)
        self._context = None
        return self._memo.render(self._template, context)


class MemoizedIncludes(jinja2.Environment):
    """An environment whose templates include partials through ``partials``."""

    partials: Partials | None = None

    def get_template(
        self,
        name: str | jinja2.Template,
        parent: str | None = None,
        globals: MutableMapping[str, Any] | None = None,  # noqa: A002 - Jinja's own name
    ) -> Any:
        template = super().get_template(name, parent, globals)
        if parent is None or self.partials is None:
            return template  # asked for by docgen, not by a template
        return self.partials.included(template)


class RecordingEnvironment(MemoizedIncludes, ReadingEnvironment):
    """The reading environment, including partials through the memo: a plan that records
    no reads keeps no partials (it renders each page once, and ``Renderer`` already
    computes each helper once per arguments)."""
