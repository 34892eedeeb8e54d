"""Every output has a path of its own that a file system can hold: two producers of one
file, or a file name longer than a file system holds, are a located error.

A variant pattern without ``{agent}``, an export path that names a page, a changelog
folder whose overview lands on a page: each would have ``build`` write one file twice
(the last one wins) and every later ``check`` fail. The plan checks its outputs here,
once, before anything is compared or written; the error is at the setting that placed
the second output (or at the template, when two templates render one page). A name
made too long by an id is located at the registry entry whose id makes it so. The page
the ``changelog_link`` setting names must be one the plan publishes: its route is what
every changelog bullet links to.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from docgen.config import NAME_BYTES, Project, setting_location, variant_path
from docgen.errors import ConfigError, Location, Problem, did_you_mean, one_line

if TYPE_CHECKING:
    from docgen.navigation import Navigation, NavPage
    from docgen.plan import Output
    from docgen.registry.model import Agent, Registry

#: The settings that place an output of each kind, in the order they are blamed.
_SETTINGS = {
    "export": ("export",),
    "variant": ("variant_pattern", "variants"),
    "overview": ("changelog",),
}


def refuse_collisions(
    project: Project,
    reg: Registry,
    outputs: Sequence[Output],
    hand_written: Sequence[str],
    variant_path: Callable[[Project, str, str], str],
) -> None:
    """Raise a located error for each path two outputs (or an output and a hand-written
    page docgen publishes as it is) would share."""
    first: dict[str, Output | None] = dict.fromkeys(hand_written)  # None: hand-written

    def described(output: Output | None, path: str) -> tuple[str, str]:
        if output is None:
            return "hand", f"the hand-written page {path}"
        kind = "overview" if output.basis == "changelog" else output.kind
        return kind, _describe(project, reg, output, variant_path)

    problems: dict[str, Problem] = {}
    for output in outputs:
        earlier = first.setdefault(output.path, output)
        if earlier is output or output.path in problems:
            continue
        if output.kind == "variant" and output.origin in problems:
            continue  # the variants of a page written twice: that page's problem says it
        made_by = _agents_of(project, reg, output, variant_path)[:1]
        problems[output.path] = _problem(
            project,
            output,
            described(earlier, output.path),
            described(output, output.path),
            made_by[0] if made_by else None,
        )
    if problems:
        raise ConfigError(list(problems.values()))


def refuse_long_names(
    project: Project,
    reg: Registry,
    outputs: Sequence[Output],
    variant_path: Callable[[Project, str, str], str],
) -> None:
    """Raise a located error for each output whose file name is longer than a file system
    holds: at the profile whose id names its page, else at the agent whose id names its
    variant, else at the page or template it comes from."""
    problems = []
    for output in outputs:
        name = output.path.rpartition("/")[2]
        size = len(name.encode("utf-8", "surrogateescape"))
        if size <= NAME_BYTES:
            continue
        origin = output.origin.rpartition("/")[2]
        ids = [(p.id, p.source.location, "profile") for p in reg.profiles.values()]
        ids += [(a.id, a.source.location, "agent") for a in reg.agents]
        named = [found for found in ids if found[0] in (origin if found[2] == "profile" else name)]
        what = _describe(project, reg, output, variant_path)
        message = f"the file name of {what} would be {size} bytes, longer than {NAME_BYTES}"
        if named:  # the longest id in the name is the one to shorten
            _id, where, kind = max(named, key=lambda found: len(found[0]))
            fix = f"shorten this {kind}'s id"
        else:
            where, fix = Location(output.origin), "shorten its name"
        problems.append(Problem(f"{message}, which no file system holds: {fix}", where))
    if problems:
        raise ConfigError(problems)


def _problem(
    project: Project,
    output: Output,
    earlier: tuple[str, str],
    later: tuple[str, str],
    agent: Agent | None,
) -> Problem:
    """Two producers of ``output``'s path, blamed on the setting that placed the later one,
    or on the template; when no setting is written anywhere and a variant's ``agent`` made
    it, the ids ran together (agent ``q.main`` of page ``x``, agent ``main`` of page
    ``x.q``): the registry is to blame, at that agent."""
    if earlier[1] == later[1]:  # two variants of one page
        message = f"{later[1]} would be written to one file, {output.path}"
    else:
        message = f"two outputs would be written to {output.path}: {earlier[1]} and {later[1]}"
    kinds = (earlier[0], later[0])
    settings = [s for kind in _SETTINGS if kind in kinds for s in _SETTINGS[kind]]
    if not settings:
        where = Location(output.origin)
        return Problem(f"{message}; rename one of them", where, rule="template")
    found = [setting_location(project.root, s) for s in settings]
    at = next((i for i, where in enumerate(found) if where.line), 0)
    if not found[at].line and agent is not None:
        return Problem(
            f"{message}; their ids run together in the file name: rename the agent "
            f"'{agent.id}' or the page, or set 'variant_pattern' so each has a path of its own",
            agent.source.location,
        )
    fix = f"change the setting '{settings[at]}' so each has a path of its own"
    if kinds == ("hand", "overview"):  # a project that keeps its own overview page
        fix += ', or set overview = "none" to keep the hand-written one'
    return Problem(f"{message}; {fix}", found[at])


def _agents_of(
    project: Project,
    reg: Registry,
    output: Output,
    variant_path: Callable[[Project, str, str], str],
) -> list[Agent]:
    """The agents whose variant of ``output``'s page lies at its path (none but for a
    variant)."""
    if output.kind != "variant":
        return []
    return [a for a in reg.agents if variant_path(project, output.origin, a.id) == output.path]


def _describe(
    project: Project,
    reg: Registry,
    output: Output,
    variant_path: Callable[[Project, str, str], str],
) -> str:
    """Which producer writes ``output``, in words."""
    if output.basis == "changelog":
        return "the release overview"
    if output.kind == "export":
        return "the export"
    if output.kind == "region":
        return f"the regions of the hand-written page {output.origin}"
    if output.kind != "variant":
        return output.origin
    agents = _agents_of(project, reg, output, variant_path)
    quoted = " and ".join(f"'{agent.id}'" for agent in agents)
    return f"the {quoted} variant{'s' if len(agents) > 1 else ''} of {output.origin}"


def refuse_unknown_link(project: Project, pages: Sequence[str]) -> None:
    """A located error at the ``changelog_link`` setting when it names no page the plan
    publishes (a missing file, a variant, a page outside the docs folder)."""
    given = project.config.changelog_link
    page = posixpath.normpath(given) if given else ""
    published = [posixpath.normpath(p) for p in pages]  # docs = ".": ./x.mdx is x.mdx
    if not given or page in published:
        return
    raise ConfigError.at(
        setting_location(project.root, "changelog_link"),
        f"setting 'changelog_link' names '{one_line(given)}', which is no page docgen "
        f"publishes{did_you_mean(page, published)}",
    )


def refuse_same_route(
    project: Project, nav: Navigation | None, pages: Sequence[str], outputs: Sequence[Output]
) -> None:
    """Without a navigation (which gives each listed page a route of its own), two
    published ``pages`` share the route their paths give; and two of one stem (``q/a.mdx``
    and ``q/a.md``) that both have variants would give them one name: a located error at
    the second, in the template that renders it."""
    first: dict[str, str] = {}
    shared = [(first.setdefault(project.config.route(p), p), p) for p in pages]
    shared = [(earlier, page) for earlier, page in shared if earlier != page]
    if not shared:
        return  # the common case, without indexing every output
    made = {o.path: o for o in outputs}
    varied = {o.origin for o in outputs if o.kind == "variant"}
    problems = []
    for earlier, page in shared:
        route = project.config.route(page)
        stem = earlier.rpartition(".")[0] == page.rpartition(".")[0]
        both = stem and earlier in varied and page in varied
        if nav is None or both:
            origin = made[page].origin if page in made else page
            why = "their agent variants would have one name" if both else "a page has one route"
            problems.append(
                Problem(
                    f"{one_line(page)} and {one_line(earlier)} would both be published at "
                    f"{one_line(route)} ({why}): rename one",
                    Location(origin if origin.endswith(".j2") else page),  # its template
                )
            )
    if problems:
        raise ConfigError(problems)


def refuse_unmade_variants(
    project: Project,
    nav: Navigation | None,
    outputs: Sequence[Output],
    pages: Sequence[str],
    agents: Sequence[str],
) -> None:
    """A navigation entry for a variant that does not belong where it stands: another
    agent's variant in an agent's layout (its readers would get that agent's text), or
    the variant path of one of the project's ``pages`` that docgen does not make (a page
    only one agent lists, with nothing in it that varies per agent, has none), which Fern
    fails on or publishes for nobody. A variant of a page the project lacks (a tree not
    yet whole) is left to Fern's own check; one a renamed page left behind, to ``sync``."""
    if nav is None:
        return
    folder = project.config.variants.rstrip("/") + "/"
    made = {o.path: o.origin for o in outputs if o.kind == "variant"}
    listed = [(v.slug, p) for v in nav.variants if v.slug in agents for p in v.pages]
    wrong = [(s, p) for s, p in listed if p.path in made]
    problems = [
        _listed_wrong(nav, p, f"another agent's variant, in the {s} layout")
        for s, p in wrong
        if variant_path(project, made[p.path], s) != p.path
    ]
    unmade = [p for p in nav.pages if p.path.startswith(folder) and p.path not in made]
    if unmade:
        known = {variant_path(project, page, a): (page, a) for page in pages for a in agents}
        layouts = {id(p): s for s, p in listed}
        ours = [p for p in unmade if p.path in known]
        alone = {page for page, n in Counter(known[p.path][0] for p in ours).items() if n == 1}
        problems += [_unmade(nav, p, *known[p.path], layouts.get(id(p)), alone) for p in ours]
    if problems:
        raise ConfigError(problems)


def _unmade(
    nav: Navigation, entry: NavPage, page: str, agent: str, layout: str | None, alone: set[str]
) -> Problem:
    if layout is not None and layout != agent:
        return _listed_wrong(nav, entry, f"{agent}'s variant of {page}, in the {layout} layout")
    if layout is None:  # docgen makes a variant for the agents whose layout lists it
        return Problem(
            f"{nav.path} lists {one_line(entry.path)}, {agent}'s variant of {page}, outside "
            f"the {agent} layout, and docgen makes an agent's variant only where that "
            f"agent's layout lists it: list it in the {agent} layout",
            entry.where,
        )
    if page in alone:  # ``alone``: the pages whose variant only one layout lists
        why = f"only the {agent} layout lists it and nothing in the page varies per agent"
        instead = f"{page} itself there"
    else:
        why = "nothing in the page varies per agent (no CLI token or <AgentOnly> block)"
        instead = f"{page} itself in each layout"
    return Problem(
        f"{nav.path} lists {one_line(entry.path)}, {agent}'s variant of {page}, which docgen "
        f"does not make: {why}, so list {instead}",
        entry.where,
    )


def _listed_wrong(nav: Navigation, entry: NavPage, what: str) -> Problem:
    return Problem(
        f"{nav.path} lists {one_line(entry.path)}, {what}: list the variant of the agent "
        "whose layout it is",
        entry.where,
    )
