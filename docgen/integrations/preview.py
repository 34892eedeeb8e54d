"""The MkDocs preview site as data: every page as each agent sees it, in Markdown, with a nav.

Built from the same ``plan()`` as ``docgen build``: generated pages, pages with
regions and the hand-written pages under the docs folder. A shared page's text for
an agent is its variant output from the plan (relative paths aimed back at the
page's own folder); a page without variants is the same for every agent it is
published for. Each agent gets a section of the site, ``<agent-id>/<page>.md``,
titled with the agent's title.

Links between pages are route-style in Fern (``[Set Up vLLM](set-up-vllm)``, or
``/user-guide/hermes/inference/set-up-vllm`` under ``product.docs_base``). A route
that names a page of the site becomes a relative ``.md`` link MkDocs checks; any
other route is not part of this site: it links to the published page when the
registry has ``product.site_url`` and otherwise shows as plain text, and is listed
in ``Site.unresolved`` so the plugin can report it.

No MkDocs import here: the plugin turns this into ``File`` objects and a nav.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from urllib.parse import quote

from docgen.changelog.entries import agent_base, entries, entry_date
from docgen.changelog.history import release_places
from docgen.config import Project
from docgen.errors import ConfigError, Location, Problem, did_you_mean
from docgen.integrations.mdx_to_markdown import LinkFunction, convert
from docgen.integrations.preview_nav import NavItem, SitePage, home_page, site_nav
from docgen.io import files
from docgen.plan import Plan, variant_path
from docgen.registry.model import Agent, Registry
from docgen.render import relative
from docgen.render.file_kinds import machine_file

ASSET_SUFFIXES = frozenset(
    {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif", ".ico", ".pdf"}
)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//")


@dataclass(frozen=True)
class SourcePage:
    """A page under the docs folder: its project path, route and text for each agent."""

    path: str  # docs/inference/set-up-vllm.mdx
    route: str  # inference/set-up-vllm
    text: str  # the page itself (what its line numbers refer to)
    texts: dict[str, str]  # agent id -> the page as that agent sees it (MDX)
    title: str = ""  # its title when its frontmatter gives none


@dataclass(frozen=True)
class Site:
    pages: tuple[SitePage, ...]
    assets: tuple[tuple[str, Path], ...]  # (site uri, file on disk)
    nav: list[NavItem]
    unresolved: tuple[Problem, ...] = field(default=())
    clashes: tuple[Problem, ...] = field(default=())  # pages left out: another has their address


def select_agents(
    registry: Registry, wanted: Sequence[str], where: Location | None = None
) -> list[Agent]:
    """The agents to publish, in registry order; unknown ids are an error ``where`` the
    plugin's options name them."""
    known = {a.id: a for a in registry.agents}
    problems = [
        Problem(
            f"unknown agent '{a}' in the docgen plugin's agents"
            f"{did_you_mean(a, known) or '; the registry has ' + ', '.join(known)}",
            where,
        )
        for a in wanted
        if a not in known
    ]
    if problems:
        raise ConfigError(problems)
    return [a for a in registry.agents if not wanted or a.id in wanted]


def build_site(
    project: Project, the_plan: Plan, wanted: Sequence[str] = (), where: Location | None = None
) -> Site:
    """Every page of the site for the agents in ``wanted`` (all when empty; named
    ``where``)."""
    registry = the_plan.registry
    agents = select_agents(registry, wanted, where)
    sources, clashes = _one_per_address(
        [s for s in source_pages(project, the_plan, agents) if s.texts]
    )
    releases, released_at = release_pages(project, the_plan, agents, sources)
    routes = {a.id: {s.route for s in (*sources, *releases) if a.id in s.texts} for a in agents}
    links = Links(registry, routes, {**_navigation_routes(project, the_plan), **released_at})
    pages = [_page(s, agent, links) for agent in agents for s in sources if agent.id in s.texts]
    dated = [_page(s, agent, links) for agent in agents for s in releases if agent.id in s.texts]
    home = home_page(registry, agents, pages + dated)
    nav = site_nav(agents, pages, dated)
    made = frozenset(o.path for o in the_plan.outputs if machine_file(o.path, o.origin))
    assets = tuple(_assets(project, agents, made))
    unresolved = tuple(dict.fromkeys(links.unresolved))
    return Site((home, *pages, *dated), assets, nav, unresolved, clashes)


def _one_per_address(sources: list[SourcePage]) -> tuple[list[SourcePage], tuple[Problem, ...]]:
    """MkDocs serves ``a.md`` and ``a/index.md`` both at ``a/`` and shows one of them: the
    preview keeps ``a/index`` in each agent's section, and says which page it leaves out."""
    holder: dict[tuple[str, str], SourcePage] = {}
    left: dict[str, set[str]] = {}  # page -> the agents whose section leaves it out
    problems = []
    for source in sorted(sources, key=lambda s: _served(s.route) == s.route):  # index first
        for agent in source.texts:
            address = (agent, _served(source.route))
            if address not in holder:
                holder[address] = source
                continue
            left.setdefault(source.path, set()).add(agent)
            problems.append(
                Problem(
                    f"MkDocs serves this page and {holder[address].path} at the same address "
                    f"({address[1]}/), so the preview leaves this one out: rename one of them",
                    Location(source.path),
                    severity="warning",
                )
            )
    kept = [
        replace(s, texts={a: t for a, t in s.texts.items() if a not in left.get(s.path, ())})
        for s in sources
    ]
    return [s for s in kept if s.texts], tuple(dict.fromkeys(problems))


def release_pages(
    project: Project, the_plan: Plan, agents: Sequence[Agent], pages: Sequence[SourcePage]
) -> tuple[list[SourcePage], dict[str, tuple[str, str]]]:
    """Each dated changelog entry, newest first, where its release pages are published
    (``changelog.history.release_places``), and each such root-absolute route ->
    (agent, its route in the preview; no agent for a page every agent's readers share,
    which each agent's own copy stands for). A release page lies in each agent's section
    at its route below the agent's base, or at the route itself; a page of the docs
    folder that MkDocs serves at the same address keeps it."""
    taken = {(agent, _served(page.route)) for page in pages for agent in page.texts}
    wanted, found, published = [agent.id for agent in agents], [], {}
    for entry in reversed(entries(project)):
        date = entry_date(entry.day)
        if date is None:  # no release page (``docgen check`` says why)
            continue
        readers: dict[str, list[str]] = {}  # route in the preview -> its agents
        places = release_places(project, the_plan.registry, entry.day, the_plan.navigation)
        for owner, route, agent in ((o, r, a) for o, r in places for a in wanted if o in ("", a)):
            base = agent_base(the_plan.registry, agent) + "/"
            here = route.removeprefix(base) if route.startswith(base) else route.strip("/")
            if (agent, _served(here)) not in taken:
                taken.add((agent, _served(here)))  # one page an address, when two nodes meet
                readers.setdefault(here, []).append(agent)
                published[route] = (owner, here)  # "": every section's own copy
        title = f"{date:%B} {date.day}, {date.year}"
        for here, each in readers.items():
            texts = {agent: entry.text for agent in each}
            found.append(SourcePage(entry.path, here, entry.text, texts, title))
    return found, published


def _served(route: str) -> str:
    """Where MkDocs serves the page of ``route`` (``a/index`` and ``a`` are both ``a/``)."""
    return "" if route == "index" else route.removesuffix("/index")


def _navigation_routes(project: Project, the_plan: Plan) -> dict[str, tuple[str, str]]:
    """Each route the project's navigation publishes -> (agent, the page's route in the
    preview): a generated variant stands for the page it was made from."""
    nav = the_plan.navigation
    if nav is None:
        return {}
    docs = PurePosixPath(project.config.docs)
    origin = {o.path: o.origin for o in the_plan.outputs if o.kind == "variant"}
    found = {}
    for variant in nav.variants:
        for page in variant.pages:
            source = PurePosixPath(origin.get(page.path, page.path))
            if source.is_relative_to(docs):
                found[page.route] = (variant.slug, str(source.relative_to(docs).with_suffix("")))
    return found


def source_pages(project: Project, the_plan: Plan, agents: Sequence[Agent]) -> Iterator[SourcePage]:
    """The docs folder's MDX pages, each with its text for every agent it is published for.

    All of it comes from the plan: the page's own output or the hand-written text it
    kept, each agent's variant, and the agents the page is published for.
    """
    docs = project.config.docs
    outputs = the_plan.by_path()
    kept = dict(the_plan.texts)
    for path, audience in sorted(the_plan.pages):
        text = outputs[path].text if path in outputs else kept[path]
        route = str(PurePosixPath(path).relative_to(docs).with_suffix(""))
        own = {a.id: outputs.get(variant_path(project, path, a.id)) for a in agents}
        if any(own.values()):
            texts = {
                agent: relative.rewrite_paths(out.text, out.path, path)
                for agent, out in own.items()
                if out is not None
            }
        else:
            texts = {a.id: text for a in agents if a.id in audience}
        yield SourcePage(path, route, text, texts)


def _page(source: SourcePage, agent: Agent, links: Links) -> SitePage:
    text = source.texts[agent.id]
    result = convert(text, source.path, links.resolver(agent.id, source))
    title = result.title or source.title or _title_from_route(source.route)
    return SitePage(f"{agent.id}/{source.route}.md", title, result.markdown, source.path)


def _title_from_route(route: str) -> str:
    return PurePosixPath(route).name.replace("-", " ").replace("_", " ").capitalize()


class Links:
    """Re-aims route-style links at the site's pages; collects the ones that are not."""

    def __init__(
        self,
        registry: Registry,
        routes: dict[str, set[str]],
        published: dict[str, tuple[str, str]] | None = None,
    ) -> None:
        self.registry, self.product = registry, registry.product
        self.agents = [a.id for a in registry.agents]
        self.routes = routes
        #: With a Fern navigation: each route it publishes -> (agent, the page's route here).
        self.published = published or {}
        self.unresolved: list[Problem] = []

    def resolver(self, agent: str, source: SourcePage) -> LinkFunction:
        """The link function for one agent's copy of ``source``."""

        def resolve(target: str) -> str | None:
            return self.resolve(agent, source, target)

        return resolve

    def resolve(self, agent: str, source: SourcePage, target: str) -> str | None:
        """The link's new target, or None to show its text alone."""
        route, anchor = _split_anchor(target)
        if not route or SCHEME.match(route):
            return target
        owner, page = self._route(agent, source.route, route)
        listed = self.published.get(route)
        if listed is not None and listed[0] in self.routes:  # where the navigation has it
            owner, page = listed
        elif listed is not None and not listed[0]:  # a page every section holds: its own
            owner, page = agent, listed[1]
        found = self._find(owner, page)
        if found is not None:
            here = posixpath.dirname(f"{agent}/{source.route}")
            return quote(posixpath.relpath(f"{owner}/{found}.md", here or ".")) + anchor
        if _is_file(route):  # a page's route may hold a dot (a profile id): pages first
            return target
        published = self._published(owner, page, anchor)
        self._report(source, target, published)
        return published

    def _route(self, agent: str, here: str, route: str) -> tuple[str, str]:
        """(agent, docs-relative route); a root-absolute route outside docs_base stays as is."""
        if route.startswith("/"):
            for other in self.agents:
                base = agent_base(self.registry, other)
                if route == base or route.startswith(base + "/"):
                    return other, route[len(base) :].strip("/")
            return agent, route
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(here), route))
        return agent, re.sub(r"\.mdx?$", "", joined)

    def _find(self, agent: str, route: str) -> str | None:
        """The page with this route, or the only page whose slug is the route's last part."""
        known = self.routes.get(agent, set())
        if route in known:
            return route
        if not route or route.startswith("/"):
            return None
        slug = route.rsplit("/", 1)[-1]
        matches = [r for r in known if r.rsplit("/", 1)[-1] == slug]
        return matches[0] if len(matches) == 1 else None

    def _report(self, source: SourcePage, target: str, published: str | None) -> None:
        line = source.text[: max(source.text.find(f"]({target}"), 0)].count("\n") + 1
        shown = f"links to {published}" if published else "shows it as plain text"
        self.unresolved.append(
            Problem(
                f"route '{target}' is not a page of this site; the preview {shown}",
                Location(source.path, line),
                severity="warning",
                rule="preview-route",
            )
        )

    def _published(self, agent: str, route: str, anchor: str) -> str | None:
        site = self.product.site_url.rstrip("/")
        if not site or route.startswith(".."):
            return None
        if route.startswith("/"):
            return f"{site}{route}{anchor}"
        return f"{site}{agent_base(self.registry, agent)}/{route}{anchor}"


def _split_anchor(target: str) -> tuple[str, str]:
    for mark in ("#", "?"):
        if mark in target:
            cut = target.index(mark)
            return target[:cut], target[cut:]
    return target, ""


def _is_file(route: str) -> bool:
    """A link to a file (an image, a download), not to a page route."""
    suffix = PurePosixPath(route).suffix.lower()
    return bool(suffix) and suffix not in (".mdx", ".md") and not suffix[1:].isdigit()


def _assets(
    project: Project, agents: Sequence[Agent], made: frozenset[str] = frozenset()
) -> Iterator[tuple[str, Path]]:
    """Images and downloads under the docs folder (and the files of other kinds templates
    ``made``, as built), copied into every agent's section: each a regular file, or a link
    to one inside the project root (never one that leads out)."""
    docs = files.listing(project, project.config.docs)
    skip, inside = project.path(project.config.variants), files.inside_of(project)
    assets = [f for f in docs.files if PurePosixPath(f.rel).suffix.lower() in ASSET_SUFFIXES]
    found = [Path(f.path) for f in docs.files if f.rel in made] + [Path(f.path) for f in assets]
    for file in sorted(found):
        real = None if skip in file.parents else files.readable(file, inside)
        if real is not None:
            rel = file.relative_to(docs.folder).as_posix()
            for agent in agents:
                yield f"{agent.id}/{rel}", Path(real)
