"""Fern's navigation (``docs/index.yml``) as docgen reads it: the variants of the node that
has them, the pages each variant's layout lists, and the route each page is published at.

A route is the slugs from the top down, joined by ``/`` and made root-absolute: the tab's,
the variant's, each enclosing section's (unless ``skip-slug: true``) and the page's own;
a node without a ``slug`` takes its title in lowercase words joined by ``-``. A section
with a ``path`` publishes that page at the section's route. A Fern native changelog node
(``changelog: ./changelog``) publishes each dated entry of its folder at
``<its route>/<year>/<month>/<day>``. Links (``link:``) and API
references publish no page of the project. Paths are relative to the navigation file's
folder, as Fern reads them; docgen keeps them project-relative.

The file is read as every input is (inside the root, bounded, UTF-8); what is not a
navigation docgen understands is an error at its line and column.
"""

from __future__ import annotations

import codecs
import os
import posixpath
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from docgen.config import Project
from docgen.errors import ConfigError, DocgenError, Location, Problem, decode, one_line
from docgen.io.files import PageForm, as_lf_text, form_of
from docgen.io.reads import Inside, read_input_bytes
from docgen.nav_regions import NavRegion as NavRegion
from docgen.nav_regions import outside_regions as outside_regions
from docgen.nav_regions import owned, regions
from docgen.nav_slugs import SLUG as SLUG
from docgen.nav_slugs import SLUG_CHARACTERS, linkable, slug_of
from docgen.registry.yaml_errors import refuse_foreign_breaks

#: Most items a navigation may list, counting what aliases repeat (NemoClaw's: about 300).
MAX_ITEMS = 100_000


@dataclass(frozen=True)
class NavPage:
    """One page a layout lists: its file (project-relative), route and place in the file."""

    path: str
    route: str
    where: Location


@dataclass(frozen=True)
class NavChangelog:
    """A Fern native changelog node: the folder of its entries (project-relative) and the
    route its release pages lie under (``<route>/<year>/<month>/<day>``)."""

    folder: str
    route: str
    where: Location
    variant: str = ""  # the slug of the variant whose layout holds it

    def release(self, year: int, month: int, day: int) -> str:
        return f"{self.route}/{year}/{month}/{day}"


@dataclass(frozen=True)
class NavVariant:
    """One variant of the node with ``variants``: its slug and the pages its layout lists."""

    slug: str
    title: str
    default: bool
    pages: tuple[NavPage, ...]
    where: Location

    @property
    def line(self) -> int:
        return self.where.line


@dataclass(frozen=True)
class Navigation:
    """What a project's Fern navigation publishes."""

    path: str  # project-relative: docs/index.yml
    variants: tuple[NavVariant, ...]
    pages: tuple[NavPage, ...]  # every page listed, in every variant and outside them
    changelogs: tuple[NavChangelog, ...] = ()  # every changelog node, in every variant
    regions: tuple[NavRegion, ...] = ()  # the managed regions, in file order
    text: str = ""  # the file's text, as read, its line ends LF
    form: PageForm = PageForm()  # how the file holds its text (CRLF, a BOM): written back so

    def has_region(self, slug: str, name: str) -> bool:
        """Whether the variant ``slug``'s layout holds the managed region ``name``."""
        return any(r.variant == slug and r.name == name for r in self.regions)

    def routes(self) -> set[str]:
        """Every root-absolute route the navigation publishes."""
        return {page.route for page in self.pages}

    def variant(self, slug: str) -> NavVariant | None:
        return next((v for v in self.variants if v.slug == slug), None)

    def changelogs_of(self, folder: str) -> list[NavChangelog]:
        """The changelog nodes that publish the project-relative ``folder``."""
        return [node for node in self.changelogs if node.folder == folder]

    def lists(self, slug: str, path: str) -> bool:
        """Whether the variant ``slug``'s layout lists the project-relative file ``path``."""
        variant = self.variant(slug)
        return variant is not None and any(page.path == path for page in variant.pages)

    def listed(self, path: str) -> list[NavPage]:
        """The places a project-relative file is listed (none when it is not published)."""
        return [page for page in self.pages if page.path == path]


def load(project: Project) -> Navigation | None:
    """The project's navigation: the file the ``navigation`` setting names, else
    ``<docs>/index.yml`` when it exists; None without one."""
    cfg = project.config
    rel = cfg.navigation or f"{cfg.docs}/index.yml"
    path = project.path(rel)
    if not cfg.navigation and not os.path.lexists(path):
        return None
    raw = read_input_bytes(path, Inside(project.root), "navigation", display=rel)
    text = decode(raw, rel, "navigation", ConfigError)  # without a leading BOM
    refuse_foreign_breaks(as_lf_text(text), rel, ConfigError)
    # A Windows checkout's CRLF line ends hold the same navigation (and its regions); the
    # file is written back in the form it has. What its regions hold is docgen's to write,
    # from the rest: a plan never reads it (nor does the cache key, see docgen.inputs).
    form = form_of(text, raw.startswith(codecs.BOM_UTF8))
    text = as_lf_text(text)
    list(regions(text, rel))  # a marker out of place is an error before the regions go
    return replace(read(outside_regions(text, keep_lines=True), rel), form=form)


@lru_cache(maxsize=4)
def read(text: str, path: str) -> Navigation:
    """The navigation in ``text``, the file at the project-relative ``path`` (read once
    per text: a command reads its navigation in several places, and the result is
    immutable)."""
    nav = parse(located_yaml(text, path), path)
    found = owned(
        text, path, list(regions(text, path)), lambda t: parse(located_yaml(t, path), path)
    )
    return replace(nav, regions=found, text=text)


def located_yaml(text: str, path: str) -> Any:
    """``text`` loaded with every node's line (libyaml's fast path, else ruamel.yaml's
    round-trip loader, which also words syntax errors), or a located error."""
    from docgen.registry.fastyaml import load_located

    try:
        data = load_located(text, path)
    except DocgenError as exc:  # nested too deep
        raise ConfigError(exc.problems) from None
    return _round_trip(text, path) if data is None else data


def _round_trip(text: str, path: str) -> Any:
    from ruamel.yaml import YAML
    from ruamel.yaml.constructor import RoundTripConstructor
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    from docgen.registry.depth import check_depth, too_deep
    from docgen.registry.yaml_errors import escape_problem, marked_problem, unmarked_problem
    from docgen.registry.yaml_guard import json_only
    from docgen.registry.yaml_tabs import for_ruamel

    try:
        check_depth(text, path)
    except DocgenError as exc:
        raise ConfigError(exc.problems) from None
    spaced, tab = for_ruamel(text, path)
    if tab is not None:
        raise ConfigError([tab])  # said as the fast path says it
    yaml = YAML(typ="rt")
    yaml.Constructor = json_only(RoundTripConstructor, "the navigation")
    try:
        return yaml.load(spaced)
    except MarkedYAMLError as exc:
        raise ConfigError([marked_problem(exc, path, text)]) from None
    except RecursionError:
        raise ConfigError.at(Location(path, 1, 1), too_deep()) from None
    except YAMLError as exc:
        raise ConfigError([unmarked_problem(exc, path, text)]) from None
    except (ValueError, OverflowError):  # ``chr()`` of an escape past the last character
        if (problem := escape_problem(path, text)) is None:
            raise
        raise ConfigError([problem]) from None


def parse(data: Any, path: str) -> Navigation:
    """The navigation in ``data`` (the file at the project-relative ``path``, loaded with
    ruamel.yaml's ``lc`` line lookups on each mapping and list)."""
    if not isinstance(data, Mapping):
        raise ConfigError.at(Location(path, 1, 1), "the navigation is not a YAML mapping")
    reader = _Reader(path, posixpath.dirname(path), data.get("tabs") or {})
    items = data.get("navigation")
    if not isinstance(items, Sequence) or isinstance(items, str):
        raise ConfigError.at(
            located(data, "navigation", path), "the navigation has no 'navigation' list"
        )
    pages = list(reader.items(items, []))
    if reader.problems:
        raise ConfigError(reader.problems)
    return Navigation(path, tuple(reader.variants), tuple(pages), tuple(reader.changelogs))


class _Reader:
    """Walks the navigation tree, collecting variants, pages and problems."""

    def __init__(self, path: str, folder: str, tabs: Any) -> None:
        self.path, self.folder = path, folder
        self.tabs = tabs if isinstance(tabs, Mapping) else {}
        self.variants: list[NavVariant] = []
        self.changelogs: list[NavChangelog] = []
        self.problems: list[Problem] = []
        self.current = ""  # the slug of the variant being read
        self.read = 0  # items read: aliases may repeat a list without bound
        self.unlinkable: dict[str, Location] = {}  # routes a title ends that no link reaches

    def items(self, items: Sequence[Any], slugs: list[str]) -> Iterator[NavPage]:
        for index, item in enumerate(items):
            self.count(items, index)
            if not isinstance(item, Mapping):
                self.problem(items, index, "a navigation item is a mapping such as 'page: ...'")
                continue
            yield from self.item(item, slugs)

    def item(self, item: Mapping[str, Any], slugs: list[str]) -> Iterator[NavPage]:
        if "tab" in item:
            named = item["tab"]
            if isinstance(named, (Mapping, Sequence)) and not isinstance(named, str):
                message = "a tab is named by its id under 'tabs:', not by a list or a mapping"
                self.problems.append(Problem(message, located(item, "tab", self.path)))
                named = ""
            tab = self.tabs.get(named)
            given = self.given(tab) if isinstance(tab, Mapping) else None
            derived = self.derived(tab, "display-name", slugs) if isinstance(tab, Mapping) else ""
            here = [*slugs, str(given or derived or slug_of(str(named)))]
            if "variants" in item:
                yield from self.variant_list(item["variants"], here)
            yield from self.items(self.list_of(item, "layout"), here)
        elif "section" in item:
            here = (
                slugs
                if item.get("skip-slug") is True
                else [*slugs, self.slug(item, "section", slugs)]
            )
            if "path" in item:
                yield self.page(item, here)
            yield from self.items(self.list_of(item, "contents"), here)
        elif "page" in item:
            yield self.page(item, [*slugs, self.slug(item, "page", slugs)])
        elif "changelog" in item:
            folder = posixpath.normpath(posixpath.join(self.folder, str(item["changelog"])))
            route = "/" + "/".join([*slugs, self.slug(item, "title", slugs) or "changelog"])
            where = located(item, "changelog", self.path)
            self.changelogs.append(NavChangelog(folder, route, where, self.current))
            if problem := linkable(route, self.unlinkable, where):
                self.problems.append(problem)
        elif "layout" in item:
            yield from self.items(self.list_of(item, "layout"), slugs)

    def variant_list(self, variants: Any, slugs: list[str]) -> Iterator[NavPage]:
        if not isinstance(variants, Sequence) or isinstance(variants, str):
            return
        for index, variant in enumerate(variants):
            self.count(variants, index)
            if not isinstance(variant, Mapping):
                continue
            slug = self.given(variant) or self.derived(variant, "title", slugs)
            self.current = slug
            pages = tuple(self.items(self.list_of(variant, "layout"), [*slugs, slug]))
            self.current = ""
            where = located(variant, "slug" if "slug" in variant else "title", self.path)
            title = str(variant.get("title", ""))
            self.variants.append(
                NavVariant(slug, title, variant.get("default") is True, pages, where)
            )
            yield from pages

    def list_of(self, item: Mapping[str, Any], key: str) -> Sequence[Any]:
        value = item.get(key)
        if value is None:
            return []
        if not isinstance(value, Sequence) or isinstance(value, str):
            self.problems.append(
                Problem(f"'{key}' is a list of navigation items", located(item, key, self.path))
            )
            return []
        return value

    def slug(self, item: Mapping[str, Any], kind: str, parents: list[str]) -> str:
        return self.given(item) or self.derived(item, kind, parents)

    def given(self, node: Mapping[str, Any]) -> str:
        """The ``slug`` a node gives ("" for none). A route is made of slugs, and a page
        links to it, so one that is not a plain path segment is a problem."""
        text = str(node.get("slug") or "")
        if text and not SLUG.fullmatch(text):
            message = (
                f"slug '{one_line(text)}' is not a path segment of a route: use {SLUG_CHARACTERS}"
            )
            self.problems.append(Problem(message, located(node, "slug", self.path)))
            return slug_of(text)
        return text

    def derived(self, node: Mapping[str, Any], key: str, parents: list[str]) -> str:
        """The slug Fern derives from the node's ``key`` (its title) under the slugs
        ``parents``; one no link reaches is remembered, by the route it ends, where that
        title stands (see ``nav_slugs.linkable``)."""
        slug = slug_of(str(node.get(key, "")))
        if key in node and not SLUG.fullmatch(slug):
            self.unlinkable["/" + "/".join([*parents, slug])] = located(node, key, self.path)
        return slug

    def page(self, item: Mapping[str, Any], slugs: list[str]) -> NavPage:
        given = str(item.get("path", ""))
        path = posixpath.normpath(posixpath.join(self.folder, given))
        return NavPage(path, "/" + "/".join(slugs), located(item, "path", self.path))

    def count(self, items: Sequence[Any], index: int) -> None:
        """One more item or variant read; past ``MAX_ITEMS``, a located error."""
        self.read += 1
        if self.read > MAX_ITEMS:
            raise ConfigError.at(
                located(items, index, self.path),
                f"the navigation lists more than {MAX_ITEMS:,} items and variants (with what "
                "its aliases repeat): write each list once",
            )

    def problem(self, items: Sequence[Any], index: int, message: str) -> None:
        self.problems.append(Problem(message, located(items, index, self.path)))


def located(node: Any, place: str | int, path: str) -> Location:
    """Where a located mapping's value of key ``place``, or a located list's item of index
    ``place``, sits (1-based); else the file."""
    try:
        found = node.lc.item(place) if isinstance(place, int) else node.lc.value(place)
        line, col = found
    except (AttributeError, KeyError, TypeError):
        return Location(path)
    return Location(path, line + 1, col + 1)
