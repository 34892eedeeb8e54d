"""A new release worded from a registry diff and the waiting notes, and the entry that holds it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from markupsafe import Markup

from docgen.changelog.entries import (
    agent_base,
    fragment_files,
    header,
    known_versions,
    parse_date,
    parse_version,
    within_root,
)
from docgen.config import Project
from docgen.errors import ConfigError, Location
from docgen.registry.model import Registry
from docgen.render import mdx
from docgen.render.pages import PROFILE_SLOT, page_path, page_templates

if TYPE_CHECKING:
    from docgen.changelog.diff import Change
    from docgen.render.environment import Renderer

BULLET_TEMPLATE = "_changelog/bullet.mdx.j2"
SUMMARY_TEMPLATE = "_changelog/summary.mdx.j2"


@dataclass(frozen=True)
class Group:
    """The changes one bullet describes: a profile's, a host's or a model's."""

    subject: str
    changes: tuple[Change, ...]

    @property
    def profile(self) -> Any:
        return next((c.extra.get("profile") for c in self.changes if c.extra.get("profile")), None)


class BulletContext(TypedDict):
    """What the bullet template (``_changelog/bullet.mdx.j2``) receives."""

    group: Group
    link: Markup | str


class SummaryContext(TypedDict):
    """What the summary template (``_changelog/summary.mdx.j2``) receives."""

    version: str
    groups: list[Group]


def groups(changes: Sequence[Change]) -> list[Group]:
    """The changes by subject in first-seen order, each group's ranked; expectations left out."""
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
    """A note as a bullet of its own, whether or not it was written as one."""
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
        text = renderer.render(
            BULLET_TEMPLATE, BULLET_TEMPLATE, BulletContext(group=group, link=link)
        )
        bullets.append(bullet(text.split("\n")))
    bullets += [fragment_bullet(n) for n in notes]
    product = registry.product.name
    if summary:
        lead = f"{product} {version}"
        line = summary if summary.startswith(lead) else f"{lead} {summary}"
    else:
        context = SummaryContext(version=version, groups=groups(changes))
        line = renderer.render(SUMMARY_TEMPLATE, SUMMARY_TEMPLATE, context).strip()
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
    """The first page a template renders once (not per profile), or ``""``."""
    names = [n for n in page_templates(project) if PROFILE_SLOT not in n]
    return page_path(project, names[0]) if names else ""


def _page_title(project: Project, page: str) -> str:
    path = project.root / page
    text = path.read_text("utf-8") if within_root(project, path) and path.is_file() else ""
    match = re.search(r'^title:\s*"?(.*?)"?\s*$', text, re.MULTILINE)
    return match[1] if match else project.config.route(page).rsplit("/", 1)[-1]


def entry_text(registry: Registry, release: Release, existing: str | None) -> str:
    """A new file, or the existing one with the new section on top (after the header)."""
    head = header(registry)
    if existing is None:
        return f"{head}\n{release.section()}" if head else release.section()
    rest = existing[len(head) :] if head and existing.startswith(head) else existing
    return f"{head}\n{release.section()}\n{rest.lstrip(chr(10))}"


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
