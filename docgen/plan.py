"""``plan()``: every output docgen owns, rendered in memory, with the registry nodes behind it.

``build`` writes this list, ``check`` compares it with disk, and the MkDocs and
pytest plugins serve it, so no two verbs can disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docgen import incremental, inputs, outputs_check
from docgen.config import Project
from docgen.config import variant_path as variant_path
from docgen.errors import Location, TemplateError
from docgen.export import export_output, export_text
from docgen.io import files
from docgen.nav_output import navigation_written, refuse_unknown
from docgen.outputs import Output as Output
from docgen.outputs import Plan as Plan
from docgen.outputs import verified_on_disk
from docgen.outputs_check import refuse_collisions, refuse_long_names, refuse_unknown_link
from docgen.overview import overview_output as overview_output
from docgen.page_variants import page_variants
from docgen.parallel import MANY, map_split_with
from docgen.provenance import page_sources, registry_sources
from docgen.registry.model import Registry
from docgen.render.file_kinds import MDX, kind_of, noticed
from docgen.render.pages import PageContext, PageInfo
from docgen.render.regions import custom_regions, refuse_in_generated
from docgen.render.syntax import owned
from docgen.units import Job, every_unit, unit_key

if TYPE_CHECKING:
    from docgen.incremental import Record
    from docgen.navigation import Navigation
    from docgen.render.environment import Renderer


def plan(
    project: Project,
    registry: Registry | None = None,
    record: Record | None = None,
    render: frozenset[str] = frozenset(),
    drift_only: bool = False,
    stage: Callable[[Output], Output] | None = None,
    on_registry: Callable[[Registry], object] | None = None,
) -> Plan:
    """Render every output of ``project`` in memory; raise on the first broken input.

    Each page (a template page, once per profile for a ``[profile]`` template, or a hand-written
    page) is one unit: the page and its variants, shared with a forked process (parallel).
    With the ``record`` of an earlier plan of the same inputs (see ``incremental``), a
    unit whose reads are unchanged keeps its outputs' digests instead of rendering,
    unless one of its outputs is in ``render``; the plan is then not ``complete``. For
    ``drift_only``, see ``_unrecorded``; each output rendered goes through ``stage``.
    ``on_registry`` hears the registry it loads, before it renders.
    """
    from docgen.registry.load import loaded

    # A large registry is still being checked while the plan starts (see load.checked).
    with nullcontext(registry) if registry is not None else loaded(project) as reg:
        if registry is None and on_registry is not None:
            on_registry(reg)
        return _planned(project, reg, record, render, drift_only, stage)


def _planned(
    project: Project,
    reg: Registry,
    record: Record | None,
    render: frozenset[str],
    drift_only: bool,
    stage: Callable[[Output], Output] | None,
) -> Plan:
    nav = _navigation(project)
    units = every_unit(project, reg)
    exported, done, new_record, complete = _rendered(
        project, reg, nav, units, record, render, drift_only, stage
    )
    done = [_with_sources(reg, unit, result) for unit, result in zip(units, done, strict=True)]
    outputs = [r.page for r in done if r.page is not None]
    outputs += [variant for r in done for variant in r.variants]
    if nav is not None and nav.regions:
        varying = {r.path for r in done if r.resolves}
        made = _per_profile_pages(units, done)
        nav = navigation_written(project, nav, made, outputs, varying, registry_sources(reg))
    # Made of the whole registry: the export, and the changelog overview (if the project has one).
    whole = [o for o in (export_output(project, reg, exported), overview_output(project, reg)) if o]
    outputs += whole
    everyone = tuple(a.id for a in reg.agents)
    pages = tuple((r.path, r.audience or everyone) for r in done if r.published)
    pages += tuple((o.path, everyone) for o in whole if _a_docs_page(project, o))
    texts = tuple((r.path, r.text) for r in done if r.published and r.page is None)
    outputs_check.refuse_same_route(project, nav, [path for path, _ in pages], outputs)
    refuse_collisions(project, reg, outputs, [path for path, _ in texts], variant_path)
    refuse_long_names(project, reg, outputs, variant_path)
    refuse_unknown_link(project, [path for path, _ in pages])
    outputs_check.refuse_unmade_variants(project, nav, outputs, [r.path for r in done], everyone)
    return Plan(reg, tuple(outputs), pages, complete, texts, nav, new_record)


def _a_docs_page(project: Project, output: Output) -> bool:
    """Whether a whole-registry output is a page the docs publish (an overview in them)."""
    docs = project.config.docs.rstrip("/") + "/"
    return output.basis == "changelog" and output.path.startswith(docs)


def _rendered(
    project: Project,
    reg: Registry,
    nav: Navigation | None,
    units: list[Job | Path],
    record: Record | None,
    render: frozenset[str],
    drift_only: bool,
    stage: Callable[[Output], Output] | None,
) -> tuple[str, list[_Unit], Record | None, bool]:
    """The export's text, every unit's outputs, the new record, whether all rendered."""
    from docgen.render.environment import Renderer

    templates = [project.path(project.config.templates)]
    renderer = Renderer(reg, templates, project.root, not drift_only)
    pages_of = (custom_regions(project), nav)
    export = partial(export_text, reg)  # pure-Python JSON (indented): made beside the pages
    if drift_only:
        return _unrecorded(project, reg, renderer, pages_of, units, export)
    return _done(project, reg, renderer, pages_of, units, record, render, stage, export)


def _navigation(project: Project) -> Navigation | None:
    from docgen import navigation

    nav = navigation.load(project)
    if nav is not None:
        refuse_unknown(nav)
    return nav


def _per_profile_pages(units: list[Job | Path], done: list[_Unit]) -> list[Output]:
    per_profile = [isinstance(u, Job) and u.profile is not None for u in units]
    return [r.page for r, each in zip(done, per_profile, strict=True) if each and r.page]


def _done(
    project: Project,
    reg: Registry,
    renderer: Renderer,
    pages: tuple[set[str], Navigation | None],
    units: list[Job | Path],
    record: Record | None,
    render: frozenset[str],
    stage: Callable[[Output], Output] | None,
    side: Callable[[], str],
) -> tuple[str, list[_Unit], Record, bool]:
    """``side``'s result; each unit's outputs, rendered or (where ``record`` still holds)
    kept; the new record; whether every unit was rendered."""
    from docgen.heap import settled

    shared = inputs.shared_key(project)
    if record is not None and record.shared != shared:
        record = None  # docgen, the settings, the templates or the navigation changed
    keys = [unit_key(project, unit) for unit in units]
    page_inputs = {
        key: None if isinstance(unit, Job) else incremental.page_digest(project, unit)
        for key, unit in zip(keys, units, strict=True)
    }
    digest_of = incremental.derived_digests(renderer)
    kept = incremental.kept(reg, digest_of, record, page_inputs, render)
    todo = [unit for unit, key in zip(units, keys, strict=True) if key not in kept]
    if record is not None:
        holds = lambda p: incremental.reads_hold(p.reads, reg.parts, digest_of)  # noqa: E731
        renderer.partials.start_from(record.partials, holds)
    with settled():
        work = lambda u: _each(_unit(project, reg, renderer, *pages, u), stage)  # noqa: E731
        made, fresh = map_split_with(side, work, todo, worth=len(units) >= MANY)
    fresh_units = iter(fresh)
    done = [kept[key] if key in kept else next(fresh_units) for key in keys]
    partials, included = incremental.partials_of(
        renderer, record, fresh, dict(zip(keys, done, strict=True)), kept
    )
    new_record = incremental.record_of(shared, reg, page_inputs, done, partials, included)
    return made, done, new_record, not kept


def _unrecorded(
    project: Project,
    reg: Registry,
    renderer: Renderer,
    pages: tuple[set[str], Navigation | None],
    units: list[Job | Path],
    side: Callable[[], str],
) -> tuple[str, list[_Unit], Record | None, bool]:
    """For a check that stores nothing: ``side``'s result and every unit rendered,
    recording no reads, and an output whose file on disk holds its text keeps only its
    digest, so the forked copy sends back little (the plan is then not complete)."""
    from docgen.heap import settled

    custom, nav = pages
    verified = verified_on_disk(files.inside_of(project))

    def work(unit: Job | Path) -> _Unit:
        done = _unit(project, reg, renderer, custom, nav, unit, recorded=False)
        return replace(_each(done, verified), text="")

    with settled():
        made, done = map_split_with(side, work, units, worth=len(units) >= MANY)
    return made, done, None, False


@dataclass(frozen=True)
class _Unit:
    """What one page gives: its own output (if docgen writes it) and its variants."""

    path: str
    page: Output | None
    variants: tuple[Output, ...] = ()
    published: bool = False
    audience: tuple[str, ...] = ()
    text: str = ""  # a published hand-written page's text, when docgen does not write it
    reads: tuple[tuple[tuple[str, ...], str], ...] = ()  # what it read (see incremental)
    partials: tuple[tuple[Any, Any], ...] = ()  # the partials it rendered first (see _unit)
    included: tuple[Any, ...] = ()  # the keys of every partial it included
    resolves: bool = False  # its text holds what only agent variants resolve


def _each(done: _Unit, through: Callable[[Output], Output] | None) -> _Unit:
    """``done`` with each of its outputs passed ``through`` (as it is for None)."""
    if through is None:
        return done
    page = None if done.page is None else through(done.page)
    return replace(done, page=page, variants=tuple(map(through, done.variants)))


def _unit(
    project: Project,
    reg: Registry,
    renderer: Renderer,
    custom: set[str],
    nav: Navigation | None,
    unit: Job | Path,
    recorded: bool = True,
) -> _Unit:
    """Render one page and its variants, without sources (``_with_sources`` adds them),
    recording what it read unless not ``recorded`` (the product and agents always: every
    page's notice and variants depend on them)."""
    from docgen.render.reads import Reads, note, recording

    scope: AbstractContextManager[Reads] = recording() if recorded else nullcontext({})
    with scope as reads:
        note(("product",), ("agents",))
        if isinstance(unit, Job):
            done = _template_unit(project, reg, renderer, nav, unit)
        else:
            done = _page_unit(project, reg, renderer, custom, nav, unit)
    if not recorded:
        return done
    # A forked copy sends back the partials it rendered, for the record.
    made, included = renderer.partials.take()
    return replace(
        done, reads=tuple(reads.items()), partials=tuple(made.items()), included=included
    )


def _template_unit(
    project: Project, reg: Registry, renderer: Renderer, nav: Navigation | None, job: Job
) -> _Unit:
    from docgen.errors import PageError
    from docgen.render import frontmatter
    from docgen.render.failures import in_template, template_texts
    from docgen.render.variants import is_shared

    raw = _rendered_text(renderer, reg, job)
    try:  # what the template rendered, checked as its kind of file and as a page
        text = noticed(raw, job.path, job.display, reg.path, reg.product.cli_token)
        if kind_of(job.path) != MDX:  # a JSON, YAML, ... file: one for every agent
            return _Unit(job.path, Output(job.path, text, job.display))
        refuse_in_generated(job.path, raw, project)
        frontmatter.check(raw, job.path)  # as the preview and Fern read it
        found, audience = page_variants(project, reg, nav, job.path, raw, job.display, job.profile)
    except (PageError, TemplateError) as exc:  # the text is the templates': said where
        loaded, folder = renderer.partials.sources.sources, project.config.templates
        texts = template_texts(project.path(folder), folder, loaded, job.name)
        problems = [in_template(p, job.path, raw, job.display, texts) for p in exc.problems]
        raise type(exc)(problems) from None
    resolves = is_shared(raw, reg.product.cli_token)
    page = Output(job.path, text, job.display)
    return _Unit(job.path, page, found, True, audience, resolves=resolves)


def _page_unit(
    project: Project,
    reg: Registry,
    renderer: Renderer,
    custom: set[str],
    nav: Navigation | None,
    path: Path,
) -> _Unit:
    """A hand-written page: its regions filled, and its variants when it is shared."""
    from docgen.render import frontmatter, regions, variants

    text, form = files.read_page(project, path)
    rel = path.relative_to(project.root).as_posix()
    if owned(text):
        return _Unit(rel, None)
    frontmatter.check(text, rel)  # as the preview and Fern read it
    output = None
    if regions.has_markers(text):
        text = regions.fill(rel, text, renderer, custom)
        # The page is the author's: written back in the form it has (line ends, BOM).
        output = Output(rel, form.written(text), rel, kind="region")
    kept = "" if output is not None else text
    if not variants.is_shared(text, reg.product.cli_token):
        return _Unit(rel, output, published=True, text=kept)
    found, audience = page_variants(project, reg, nav, rel, text, rel)
    return _Unit(rel, output, found, True, audience, kept)


def _with_sources(reg: Registry, unit: Job | Path, done: _Unit) -> _Unit:
    """The unit with the registry nodes behind its outputs that may drift (computed here,
    not sent between processes). A unit with no text (kept, or verified on disk) needs none."""
    if not any(o.text for o in (done.page, *done.variants) if o is not None):
        return done
    if isinstance(unit, Job) and unit.profile is not None:
        sources = page_sources(reg, reg.profiles[unit.profile])
    else:
        sources = registry_sources(reg)

    def sourced(output: Output) -> Output:  # only an output with its text is ever blamed
        return replace(output, sources=sources) if output.text else output

    return _each(done, sourced)


def _rendered_text(renderer: Renderer, reg: Registry, job: Job) -> str:
    context = PageContext(page=PageInfo(path=job.path, template=job.display))
    if job.profile is not None:
        context["profile"] = reg.profiles[job.profile]
    try:
        text = renderer.render(job.name, job.display, context)
    except TemplateError as exc:  # which of many profiles the template failed on is said
        on = f" (rendering it for profile '{job.profile}')" if job.profile else ""
        raise TemplateError([replace(p, message=p.message + on) for p in exc.problems]) from None
    if not text.strip():
        raise TemplateError.at(Location(job.display, 1), "template rendered an empty page")
    return text
