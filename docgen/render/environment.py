"""The one configured Jinja environment and its template helpers.

Every ``{{ value }}`` is escaped as MDX prose unless a context filter (see
``docgen.render.filters``) already made it safe, so registry text can never become
markup, JSX or an expression.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import Any, TypedDict

import jinja2
from markupsafe import Markup

from docgen.errors import Problem, TemplateError
from docgen.registry.model import Host, Image, Model, Override, Product, Profile, Registry
from docgen.registry.serve import override_command, override_setting, quote, serve_command
from docgen.registry.storage import estimate
from docgen.render import as_text, compiled, file_kinds
from docgen.render.failures import failed_at, file_of, jinja_asserted, reason, syntax_problem
from docgen.render.filters import (
    code_block,
    finalize,
    fm_comment,
    in_code,
    mdx_attr,
    mdx_cell,
    mdx_code,
    mdx_fm,
    mdx_prose,
    storage_parts,
)
from docgen.render.limits import BoundedEnvironment
from docgen.render.partials import KeptSources, Partials, RecordingEnvironment
from docgen.render.prose import describe, enabled_features, feature, settings_sentences
from docgen.render.reads import (
    PLACES,
    Missing,
    Section,
    SectionList,
    note,
    note_derived,
    note_object,
    places,
    reading,
)
from docgen.render.tables import (
    gb,
    host_defaults_table,
    join,
    long_date,
    models_table,
    profiles_table,
    sentence_list,
    table,
)


class TemplateGlobals(TypedDict):
    """What every template sees, besides what its caller passes (see ``Renderer.render``)."""

    registry: Registry
    product: Product
    agents: SectionList
    hosts: Mapping[str, Host]
    images: Mapping[str, Image]
    models: Mapping[str, Model]
    profiles: SectionList
    cli: str
    table: Callable[[Sequence[str], Iterable[Sequence[Any]]], Markup]
    serve_command: Callable[..., str]
    override_command: Callable[[Profile, Override | str], str]
    host_default: Callable[[str], Profile | None]
    host_defaults_table: Callable[[], Markup]
    models_table: Callable[[], Markup]
    profiles_table: Callable[[], Markup]
    describe: Callable[[Profile], Any]
    feature: Callable[..., Any]
    enabled_features: Callable[..., Any]
    settings_sentences: Callable[..., Any]
    storage_estimate: Callable[..., Any]
    override_setting: Callable[..., str]
    code: Callable[[str], Markup]


#: docgen's filters, beside Jinja's own.
FILTERS: dict[str, Callable[..., Any]] = {
    "mdx": mdx_prose,
    "mdx_cell": mdx_cell,
    "mdx_code": mdx_code,
    "mdx_attr": mdx_attr,
    "mdx_fm": mdx_fm,
    "code_block": code_block,
    "in_code": in_code,
    "shell_quote": quote,
    "fm_comment": fm_comment,
    "gb": gb,
    "sentence_list": sentence_list,
    "join": join,
    "long_date": long_date,
    "storage_parts": storage_parts,
}


class Renderer:
    """Loads templates (project folder first, then docgen's own) and renders pages."""

    def __init__(
        self,
        registry: Registry,
        template_dirs: Sequence[Path],
        root: Path | None = None,
        recording: bool = True,
    ) -> None:
        """Without ``recording``, no attribute a template reads is looked up as a read
        (for a plan that records none)."""
        from docgen.render.loader import ConfinedLoader  # reads only inside ``root``

        self.registry = registry
        loaders: list[jinja2.BaseLoader] = [ConfinedLoader(template_dirs, root)]
        loaders.append(jinja2.PackageLoader("docgen", "templates"))
        loader = KeptSources(jinja2.ChoiceLoader(loaders))
        environment = RecordingEnvironment if recording else BoundedEnvironment
        self.env = environment(
            loader=loader,
            undefined=Missing,
            keep_trailing_newline=True,
            auto_reload=False,  # a renderer lives for one plan: no stat per include
            trim_blocks=True,
            lstrip_blocks=True,
            autoescape=False,
            finalize=finalize,
        )
        self.env.filters.update(FILTERS)
        self.env.globals.update(self._globals())
        self.env.bytecode_cache = compiled.kept_for(self.env)
        self.partials = Partials(self.env, loader)
        if isinstance(self.env, RecordingEnvironment):
            self.env.partials = self.partials

    def _globals(self) -> TemplateGlobals:
        """What templates see; each registry value is a view that records what a render
        reads of it (see ``docgen.render.reads``)."""
        reg = self.registry
        return {
            "registry": reg,
            "product": reg.product,
            "agents": SectionList("agents", reg.agents),
            "hosts": Section("hosts", reg.hosts),
            "images": Section("images", reg.images),
            "models": Section("models", reg.models),
            "profiles": SectionList("profiles", reg.profiles.values()),
            "cli": reg.product.cli_token,
            "table": table,
            "serve_command": self.serve_command,
            "override_command": self.override_command,
            "host_default": reading(("profiles",))(reg.host_default),
            "host_defaults_table": self.host_defaults_table,
            "models_table": self.models_table,
            "profiles_table": self.profiles_table,
            "describe": reading()(self._once(describe)),
            "feature": feature,
            "enabled_features": reading()(enabled_features),
            "settings_sentences": reading()(self._once(settings_sentences)),
            "storage_estimate": reading()(self.storage_estimate),
            "override_setting": reading(("product",))(self.override_setting),
            "code": code,
        }

    # The helpers' own names: a call with the wrong arguments is said by them.
    def storage_estimate(self, profile: Profile) -> Any:
        return estimate(profile, self.registry.launcher)

    def override_setting(self, override: Override) -> str:
        return override_setting(self.registry.product, override)

    def _once(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """``function`` (pure, of frozen registry values) computed once per arguments.

        A setup page and each profile's own page ask for the same sentences and commands.
        Arguments are told apart by identity and kept alive with their result, so an
        identity is never reused; a list result is copied, so a template that changes it
        changes only its copy.
        """
        done: dict[tuple[int, ...], tuple[Any, Any]] = {}

        def once(*args: Any, **kwargs: Any) -> Any:
            key = (*map(id, args), *(id(x) for pair in sorted(kwargs.items()) for x in pair))
            if key not in done:
                done[key] = ((args, kwargs), function(*args, **kwargs))
            result = done[key][1]
            return list(result) if isinstance(result, list) else result

        return once

    @cached_property
    def _tables(self) -> dict[str, Markup]:
        return {}

    def _table(self, name: str, make: Callable[[Registry], Markup]) -> Markup:
        """A table computed once per registry, recorded as read by the digest of its text
        (an edit that leaves the table as it was is no change to a page showing it)."""
        if name not in self._tables:
            self._tables[name] = make(self.registry)
        note_derived(name, self._tables[name])
        return self._tables[name]

    def host_defaults_table(self) -> Markup:
        return self._table("host_defaults_table", host_defaults_table)

    def models_table(self) -> Markup:
        return self._table("models_table", models_table)

    def profiles_table(self) -> Markup:
        return self._table("profiles_table", profiles_table)

    def derived(self, name: str) -> str:
        """The derived value ``name`` (a table, or where the registry puts its nodes) of
        this registry, for checking a record."""
        if name == PLACES:
            return places(self.registry)
        return {
            "host_defaults_table": self.host_defaults_table,
            "models_table": self.models_table,
            "profiles_table": self.profiles_table,
        }[name]()

    def serve_command(
        self, profile: Profile, override: Override | str | None = None, multiline: bool = True
    ) -> str:
        note_object(profile)
        override = None if override is None else _its_override(profile, override)
        return self._serve_text(profile, override, multiline)

    @cached_property
    def _serve_text(self) -> Callable[[Profile, Override | None, bool], str]:
        return self._once(lambda p, o, multiline: serve_command(p, o).shell(multiline=multiline))

    def override_command(self, profile: Profile, override: Override | str) -> str:
        note_object(profile)
        note(("product",))
        return self._override_text(profile, _its_override(profile, override))

    @cached_property
    def _override_text(self) -> Callable[[Profile, Override], str]:
        product = self.registry.product
        return self._once(lambda p, o: override_command(product, p, o, product.cli_token))

    def render(self, name: str, display: str, context: Mapping[str, object]) -> str:
        """Render template ``name`` with ``context`` (a TypedDict of its caller, e.g.
        ``PageContext``) on top of the globals; any failure is a TemplateError at its line."""
        template: jinja2.Template | None = None
        try:
            template = self.env.get_template(name)  # docgen's: no memo
            with deadline(RENDER_SECONDS), as_text.rendering(), file_kinds.printing(name):
                return template.render(context)
        except RenderTimeout as exc:
            why = f"template rendering took longer than {RENDER_SECONDS} s (an endless loop?)"
            raise TemplateError(Problem(why, failed_at(exc, display, template))) from None
        except jinja2.TemplateSyntaxError as exc:
            path = file_of(exc.filename, display, template)
            raise TemplateError(syntax_problem(exc, path, self.env.filters)) from None
        except jinja2.TemplateNotFound as exc:
            where = failed_at(exc, display, template)
            missing = exc.name or "''"  # an include of "" (others are shown as written)
            raise TemplateError(Problem(f"template not found: {missing}", where)) from None
        except (
            jinja2.UndefinedError,
            ValueError,
            TypeError,
            KeyError,
            AttributeError,
            ArithmeticError,  # division by zero, overflow, a precision decimal refuses
            NameError,  # a literal past a float's range, which Jinja compiles to ``inf``
            LookupError,
            IndexError,
            RecursionError,
            MemoryError,
            AssertionError,  # how some of Jinja's filters check their arguments (truncate)
            jinja2.TemplateError,
        ) as exc:
            if isinstance(exc, NameError) and exc.name not in ("inf", "nan"):
                raise  # a bug in docgen's own code: an internal error
            if isinstance(exc, AssertionError) and not jinja_asserted(exc):
                raise  # docgen's own assertion: an internal error
            where = failed_at(exc, display, template)
            why = reason(exc, [*self.env.globals, *context], self.env.filters)
            raise TemplateError(Problem(f"template failed: {why}", where)) from None


def code(text: str) -> Markup:
    return mdx_code(text)


#: Longest one template may render before docgen stops it.
RENDER_SECONDS = 20


class RenderTimeout(Exception):
    """Raised inside a template that renders for too long."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Interrupt the block after ``seconds`` (main thread on POSIX only; else no limit)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def expire(_signum: int, _frame: Any) -> None:
        raise RenderTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _its_override(profile: Profile, override: object) -> Override:
    """The override of ``profile`` a template gives, by id or as one of ``profile.overrides``;
    anything else is the template's error, at its line: a misspelt id must not quietly
    give the plain command, nor another profile's override a command of this one."""
    if isinstance(override, str):
        found = profile.override(override)
        if found is None:
            raise ValueError(f"profile '{profile.id}' has no override '{override}'")
        return found
    if not any(own is override for own in profile.overrides):
        raise ValueError(
            f"the override given is not one of profile '{profile.id}''s own: give one of "
            "its overrides (or its id)"
        )
    return override  # type: ignore[return-value]
