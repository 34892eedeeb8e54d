"""Dated changelog entries: written once from a registry diff, then checked, never rewritten.

An entry is ``<changelog>/YYYY-MM-DD.mdx``: the exact SPDX header as an MDX comment,
then one ``## vX.Y.Z`` section per release (newest first), each with a summary that
starts with the product name and version, and bullets of one sentence per line.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from docgen.config import Project
from docgen.errors import ConfigError, Location, Problem
from docgen.registry.model import Registry
from docgen.render import mdx

if TYPE_CHECKING:
    from docgen.changelog.diff import Change
    from docgen.render.environment import Renderer

VERSION = re.compile(r"^v(\d+)\.(\d+)\.(\d+)$")
HEADING = re.compile(r"^## (v\d+\.\d+\.\d+)$")
ANY_HEADING = re.compile(r"^#{1,6}\s")
DATED = re.compile(r"^(\d{4}-\d{2}-\d{2})\.mdx$")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
ROOT_LINK = re.compile(r"\]\((/[^)]*)\)")
BULLET_TEMPLATE = "_changelog/bullet.mdx.j2"
SUMMARY_TEMPLATE = "_changelog/summary.mdx.j2"


def header(registry: Registry) -> str:
    """The exact four-line SPDX MDX comment, or ``""`` when the product has no SPDX."""
    spdx = registry.product.spdx
    if spdx is None:
        return ""
    return (
        f"{{/*\n * SPDX-FileCopyrightText: {spdx.copyright}\n"
        f" * SPDX-License-Identifier: {spdx.license}\n */}}\n"
    )


def parse_version(text: str, where: Location) -> tuple[int, int, int]:
    match = VERSION.match(text)
    if match is None:
        raise ConfigError.at(where, f"malformed version '{text}'; expected vX.Y.Z, e.g. v0.0.102")
    return int(match[1]), int(match[2]), int(match[3])


def parse_date(text: str, where: Location) -> _dt.date:
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            raise ValueError
        return _dt.date.fromisoformat(text)
    except ValueError:
        raise ConfigError.at(
            where, f"malformed date '{text}'; expected a real date as YYYY-MM-DD"
        ) from None


# -- reading entries --------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    version: str
    line: int  # 1-based line of the ## heading
    lines: tuple[str, ...]  # the section's lines after the heading


@dataclass(frozen=True)
class Entry:
    path: str  # project-relative
    text: str
    sections: tuple[Section, ...]


def entry_files(project: Project) -> list[Path]:
    """The dated entries, sorted; refuse one that leads outside the project root."""
    folder = project.path(project.config.changelog)
    if not folder.is_dir():
        return []
    files = sorted(p for p in folder.glob("*.mdx") if p.name != "overview.mdx")
    return _inside_root(project, files, "changelog entry")


def _inside_root(project: Project, files: list[Path], what: str) -> list[Path]:
    """``files``, unless one is a symbolic link that leaves the project root."""
    for path in files:
        if not _within_root(project, path):
            raise ConfigError.at(
                Location(path.relative_to(project.root).as_posix()),
                f"the {what} is a symbolic link that leaves "
                "the project root; docgen reads only files inside it",
            )
    return files


def _within_root(project: Project, path: Path) -> bool:
    """Whether ``path``, through any symbolic links, lies inside the project root."""
    return path.resolve().is_relative_to(project.root.resolve())


def read_entry(project: Project, path: Path) -> Entry:
    text = path.read_bytes().decode("utf-8", "replace")
    return parse_entry(path.relative_to(project.root).as_posix(), text)


def parse_entry(path: str, text: str) -> Entry:
    """The entry at project-relative ``path`` whose text is ``text``."""
    return Entry(path, text, tuple(_sections(text)))


def _sections(text: str) -> Iterator[Section]:
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if HEADING.match(line)]
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        match = HEADING.match(lines[start])
        assert match is not None
        yield Section(match[1], start + 1, tuple(lines[start + 1 : end]))


def entries(project: Project) -> list[Entry]:
    return [read_entry(project, p) for p in entry_files(project)]


def known_versions(project: Project) -> dict[str, str]:
    """Version -> the entry file that holds it."""
    return {s.version: e.path for e in entries(project) for s in e.sections}


# -- checking history ----------------------------------------------------------------------


def check_history(project: Project, registry: Registry, routes: set[str]) -> list[Problem]:
    """Every problem in the dated entries; each names file and line."""
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for path in entry_files(project):
        entry = read_entry(project, path)
        problems += check_entry(entry, registry, routes)
        for section in entry.sections:
            where = Location(entry.path, section.line)
            if section.version in seen:
                problems.append(
                    Problem(
                        f"version {section.version} is already released in {seen[section.version]}",
                        where,
                        rule="changelog-version-unique",
                    )
                )
            seen.setdefault(section.version, entry.path)
    return problems


def check_entry(entry: Entry, registry: Registry, routes: set[str]) -> list[Problem]:
    problems = _file_level(entry, registry)
    lines = entry.text.split("\n")
    token = registry.product.cli_token
    for number, line in enumerate(lines, start=1):
        where = Location(entry.path, number)
        problems += _line_problems(line, where, token, routes)
    problems += _order_problems(entry)
    return problems


def _file_level(entry: Entry, registry: Registry) -> list[Problem]:
    problems = []
    name = entry.path.rsplit("/", 1)[-1]
    match = DATED.match(name)
    try:
        if match is None:
            raise ValueError
        _dt.date.fromisoformat(match[1])
    except ValueError:
        problems.append(
            Problem(
                f"changelog file name '{name}' is not a real date as YYYY-MM-DD.mdx",
                Location(entry.path, 1),
            )
        )
    expected = header(registry)
    if expected and not entry.text.startswith(expected):
        problems.append(
            Problem(
                "the entry must start with the exact SPDX header:\n" + expected.rstrip("\n"),
                Location(entry.path, 1),
            )
        )
    if not entry.sections:
        problems.append(Problem("no release heading: add '## vX.Y.Z'", Location(entry.path, 1)))
    return problems


def _line_problems(line: str, where: Location, token: str, routes: set[str]) -> list[Problem]:
    problems = []
    if "<!--" in line:
        problems.append(
            Problem("HTML comments are not allowed in changelog entries; use {/* ... */}", where)
        )
    if token in line:
        problems.append(
            Problem(
                f"the CLI token '{token}' is not replaced in changelog entries; "
                "write the CLI name literally",
                where,
            )
        )
    if "AgentOnly" in line:
        problems.append(Problem("<AgentOnly> is not resolved in changelog entries", where))
    if ANY_HEADING.match(line) and not HEADING.match(line):
        problems.append(
            Problem(f"headings in changelog entries are '## vX.Y.Z', got '{line.strip()}'", where)
        )
    for target in LINK.findall(line):
        problems += _link_problem(target, where, routes)
    return problems


def _link_problem(target: str, where: Location, routes: set[str]) -> list[Problem]:
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "//")):
        return []
    if not target.startswith("/"):
        return [
            Problem(
                f"relative link '{target}': changelog links must be root-absolute "
                "routes such as /user-guide/...",
                where,
            )
        ]
    route = target.split("#", 1)[0].rstrip("/")
    if routes and route not in routes:
        return [Problem(f"link '{target}' does not resolve to a page the project publishes", where)]
    return []


def _order_problems(entry: Entry) -> list[Problem]:
    problems = []
    keys = [(s, parse_version(s.version, Location(entry.path, s.line))) for s in entry.sections]
    for (prev, a), (section, b) in zip(keys, keys[1:], strict=False):
        if b >= a:
            problems.append(
                Problem(
                    f"{section.version} comes after {prev.version}: list releases newest first",
                    Location(entry.path, section.line),
                )
            )
    return problems


# -- routes ------------------------------------------------------------------------------


def agent_base(registry: Registry, agent: str) -> str:
    return registry.product.docs_base.replace("{agent}", agent).rstrip("/")


def published_routes(
    project: Project, pages: Sequence[tuple[str, Sequence[str]]], registry: Registry
) -> set[str]:
    """Every root-absolute route the project publishes: each page for each of its agents."""
    routes = set()
    for page, agents in pages:
        for agent in agents:
            routes.add(f"{agent_base(registry, agent)}/{project.config.route(page)}")
    for entry in entries(project):
        day = entry.path.rsplit("/", 1)[-1][:-4]
        for each in registry.agents:
            routes.add(f"{agent_base(registry, each.id)}/{_release_route(project, day)}")
    return routes


def _release_route(project: Project, day: str) -> str:
    try:
        date = _dt.date.fromisoformat(day)
    except ValueError:
        return day
    return project.config.release_route.format(year=date.year, month=date.month, day=date.day)


# -- writing a new entry ---------------------------------------------------------------


@dataclass(frozen=True)
class Group:
    """The changes one bullet describes: a profile's, a host's or a model's."""

    subject: str
    changes: tuple[Change, ...]

    @property
    def profile(self) -> Any:
        return next((c.extra.get("profile") for c in self.changes if c.extra.get("profile")), None)


def groups(changes: Sequence[Change]) -> list[Group]:
    order: dict[str, list[Change]] = {}
    for change in changes:
        if change.kind == "expect-changed":
            continue
        order.setdefault(
            f"{change.kind.split('-')[0]}:{change.subject}"
            if change.kind.startswith(("host", "model"))
            else change.subject,
            [],
        ).append(change)
    return [Group(subject, tuple(sorted(items, key=_rank))) for subject, items in order.items()]


RANK = {
    kind: n
    for n, kind in enumerate(
        (
            "profile-added",
            "profile-renamed",
            "profile-removed",
            "arg-removed",
            "arg-changed",
            "arg-added",
            "support-changed",
            "selection-changed",
            "image-changed",
            "override-added",
            "override-changed",
            "override-removed",
            "host-default-changed",
            "model-changed",
        )
    )
}


def _rank(change: Change) -> int:
    return RANK.get(change.kind, 99)


@dataclass(frozen=True)
class Release:
    version: str
    date: str
    summary: str
    bullets: tuple[str, ...]  # each already formatted, continuation lines indented

    def section(self) -> str:
        body = "\n".join(self.bullets)
        return f"## {self.version}\n\n{self.summary}\n\n{body}\n"


def bullet(sentences: Sequence[str]) -> str:
    """``- first`` then two-space continuation lines, one sentence per line."""
    lines = [s.strip() for s in sentences if s.strip()]
    return "\n".join([f"- {lines[0]}", *(f"  {line}" for line in lines[1:])])


def fragment_bullet(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if lines and lines[0].startswith("- "):
        lines[0] = lines[0][2:]
    return bullet(lines)


def compose(
    renderer: Renderer,
    project: Project,
    changes: Sequence[Change],
    version: str,
    date: str,
    summary: str | None,
    notes: Sequence[str],
) -> Release:
    """Word the release: summary, one bullet per changed subject, then hand-written notes."""
    registry = renderer.registry
    link = _link_sentence(project, registry)
    bullets = []
    for group in groups(changes):
        text = renderer.render(BULLET_TEMPLATE, BULLET_TEMPLATE, group=group, link=link)
        bullets.append(bullet(text.split("\n")))
    bullets += [fragment_bullet(n) for n in notes]
    product = registry.product.name
    if summary:
        lead = f"{product} {version}"
        line = summary if summary.startswith(lead) else f"{lead} {summary}"
    else:
        line = renderer.render(
            SUMMARY_TEMPLATE, SUMMARY_TEMPLATE, version=version, groups=groups(changes)
        ).strip()
    if not line.endswith((".", ":")):
        line += "."
    return Release(version, date, line, tuple(bullets))


def _link_sentence(project: Project, registry: Registry) -> Markup | str:
    page = project.config.changelog_link or _first_page(project)
    if not page:
        return ""
    title = mdx.escape_prose(_page_title(project, page))
    route = f"{agent_base(registry, registry.default_agent.id)}/{project.config.route(page)}"
    return Markup(f"For more information, refer to [{title}]({route}).")  # noqa: S704


def _first_page(project: Project) -> str:
    from docgen.plan import PROFILE_SLOT, page_templates

    names = [n for n in page_templates(project) if PROFILE_SLOT not in n]
    return f"{project.config.docs}/{names[0][: -len('.j2')]}" if names else ""


def _page_title(project: Project, page: str) -> str:
    path = project.root / page
    text = path.read_text("utf-8") if _within_root(project, path) and path.is_file() else ""
    match = re.search(r'^title:\s*"?(.*?)"?\s*$', text, re.MULTILINE)
    return match[1] if match else project.config.route(page).rsplit("/", 1)[-1]


def entry_text(registry: Registry, release: Release, existing: str | None) -> str:
    """A new file, or the existing one with the new section on top (after the header)."""
    head = header(registry)
    if existing is None:
        return f"{head}\n{release.section()}" if head else release.section()
    rest = existing[len(head) :] if head and existing.startswith(head) else existing
    return f"{head}\n{release.section()}\n{rest.lstrip(chr(10))}"


# -- release notes ---------------------------------------------------------------------


def release_notes(project: Project, registry: Registry, version: str, site_url: str) -> str:
    """One release's section as plain Markdown for a release body."""
    for entry in entries(project):
        for section in entry.sections:
            if section.version == version:
                return _plain(f"## {version}\n" + "\n".join(section.lines), site_url)
    known = sorted(known_versions(project))
    raise ConfigError.at(
        Location("release-notes"),
        f"no release {version} in "
        f"{project.config.changelog}/ (known: {', '.join(known) or 'none'})",
    )


def relative_links_warning(notes: str, site_url: str) -> Problem | None:
    """A warning when ``notes`` keep root-absolute links relative for want of a site URL
    (a release body on another site would link nowhere)."""
    links = ROOT_LINK.findall(notes)
    if site_url.rstrip("/") or not links:
        return None
    if len(links) == 1:
        which = f"the root-absolute link '{links[0]}' stays relative"
    else:
        which = f"{len(links)} root-absolute links, such as '{links[0]}', stay relative"
    return Problem(
        f"neither product.site_url nor --site-url is set, so {which}",
        Location("release-notes"),
        severity="warning",
    )


def _plain(text: str, site_url: str) -> str:
    text = re.sub(r"\{/\*.*?\*/\}\n?", "", text, flags=re.DOTALL)
    base = site_url.rstrip("/")
    if base:
        text = ROOT_LINK.sub(lambda m: f"]({base}{m[1]})", text)
    return text.strip("\n") + "\n"


def overview_text(
    project: Project, registry: Registry, releases: Sequence[tuple[str, str, str]]
) -> str:
    """The release overview page: frontmatter, then one line per release, newest first."""

    def key(item: tuple[str, str, str]) -> tuple[int, int, int]:
        return parse_version(item[0], Location("overview"))

    base = agent_base(registry, registry.default_agent.id)
    lines = []
    for version, day, summary in sorted(releases, key=key, reverse=True):
        route = f"{base}/{_release_route(project, day)}"
        lines.append(f"- [{version}]({route}) ({day}): {summary.strip()}")
    spdx = registry.product.spdx
    head = ["---"]
    if spdx is not None:
        head += [
            f"# SPDX-FileCopyrightText: {spdx.copyright}",
            f"# SPDX-License-Identifier: {spdx.license}",
        ]
    head += ['title: "Release Notes"', "---", ""]
    intro = f"Every {mdx.escape_prose(registry.product.name)} release, newest first."
    return "\n".join([*head, intro, "", *lines]) + "\n"


@dataclass(frozen=True)
class Written:
    """What ``docgen changelog`` produced: the entry path, its full text, the new section,
    the merged fragments, and the generated files it refreshed as ``(status, path)``."""

    path: str
    text: str
    section: str
    fragments: tuple[Path, ...]
    refreshed: tuple[tuple[str, str], ...] = ()


def create_entry(
    project: Project,
    registry: Registry,
    changes: Sequence[Change],
    version: str,
    date: str,
    summary: str | None,
) -> Written:
    """Compose the release and the file that will hold it; writes nothing."""
    parse_version(version, Location("--version"))
    parse_date(date, Location("--date"))
    if version in (known := known_versions(project)):
        raise ConfigError.at(
            Location(known[version]),
            f"version {version} is already released "
            "here; entries are history and are never rewritten",
        )
    fragments = fragment_files(project)
    notes = [p.read_text("utf-8") for p in fragments]
    if not any(c.kind != "expect-changed" for c in changes) and not notes:
        raise ConfigError.at(
            Location(project.config.registry),
            "nothing to release: the "
            "registry has no semantic change since that state and "
            f"{project.config.fragments}/ holds no notes",
        )
    from docgen.render.environment import Renderer

    renderer = Renderer(registry, [project.path(project.config.templates)])
    release = compose(renderer, project, changes, version, date, summary, notes)
    path = f"{project.config.changelog}/{date}.mdx"
    target = project.root / path
    existing = target.read_text("utf-8") if target.is_file() else None
    return Written(
        path, entry_text(registry, release, existing), release.section(), tuple(fragments)
    )


def fragment_files(project: Project) -> list[Path]:
    folder = project.path(project.config.fragments)
    files = sorted(folder.glob("*.md")) if folder.is_dir() else []
    return _inside_root(project, files, "changelog fragment")
