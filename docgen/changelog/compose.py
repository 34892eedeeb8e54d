"""A new release worded from a registry diff and the waiting notes, and the entry that holds it."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from markupsafe import Markup

from docgen.changelog.changes import LEFT_OUT, released
from docgen.changelog.entries import (
    agent_base,
    fragment_files,
    header,
    known_versions,
    parse_date,
    parse_version,
    read_changelog_as_written,
    read_changelog_file,
    refuse_oversized,
    within_root,
)
from docgen.changelog.markup import braces_escaped
from docgen.changelog.note_text import note_bullets, placed_bullets
from docgen.changelog.release_check import refuse_broken, summary_problem
from docgen.config import Project, setting_location, variant_path
from docgen.errors import ConfigError, Location, one_line
from docgen.io.files import Inside, all_crlf, as_lf_text, read_input
from docgen.nav_slugs import SLUG, SLUG_CHARACTERS
from docgen.registry.model import Registry
from docgen.render import mdx
from docgen.render.pages import PROFILE_SLOT, page_path, page_templates

if TYPE_CHECKING:
    from docgen.changelog.changes import Change
    from docgen.render.environment import Renderer

BULLET_TEMPLATE = "_changelog/bullet.mdx.j2"
SUMMARY_TEMPLATE = "_changelog/summary.mdx.j2"


@dataclass(frozen=True)
class Group:
    """The changes one bullet describes: a profile's, a host's or a model's."""

    subject: str
    changes: tuple[Change, ...]
    #: Whether another profile runs this one's model on a host of its name: its bullet then
    #: names it by its id, or two bullets could read alike.
    named: bool = False

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


def groups(changes: Sequence[Change], twinned: frozenset[str] = frozenset()) -> list[Group]:
    """The changes by subject in first-seen order, each group's ranked; expectations left
    out. A profile in ``twinned`` is ``named`` (see ``twins``)."""
    order: dict[str, list[Change]] = {}
    for change in changes:
        if change.kind in LEFT_OUT:
            continue
        order.setdefault(
            f"{change.kind.split('-')[0]}:{change.subject}"
            if change.kind.startswith(("host", "model")) or change.subject == "launcher"
            else change.subject,
            [],
        ).append(change)
    return [
        Group(subject, tuple(sorted(items, key=_rank)), subject in twinned)
        for subject, items in order.items()
    ]


def twins(registry: Registry, changes: Sequence[Change]) -> frozenset[str]:
    """The ids of the profiles (the registry's, and those the changes removed) that share
    with another what a bullet names them by: their host's name and their model (the
    topology, which a new profile's bullet leaves out, does not tell them apart)."""
    profiles = {p.id: p for p in registry.profiles.values()}
    for change in changes:
        profile = change.extra.get("profile")
        if profile is not None:
            profiles.setdefault(profile.id, profile)
    by_kind: dict[tuple[str, str], list[str]] = {}
    for p in profiles.values():
        by_kind.setdefault((p.host.name, p.model.hf), []).append(p.id)
    return frozenset(i for ids in by_kind.values() if len(ids) > 1 for i in ids)


#: The order of a group's changes in its bullet, by kind.
RANK = {kind: n for n, kind in enumerate((
    "profile-added", "profile-renamed", "profile-removed",
    "arg-removed", "arg-changed", "arg-added",
    "support-changed", "selection-changed", "image-changed",
    "override-added", "override-changed", "override-removed",
    "profile-changed", "launcher-changed", "env-changed", "host-default-changed", "model-changed",
))}  # fmt: skip


def _rank(change: Change) -> int:
    return RANK.get(change.kind, 99)


@dataclass(frozen=True)
class Note:
    """A note waiting in the fragments folder: its project-relative path and its text."""

    path: str
    text: str


@dataclass(frozen=True)
class Release:
    version: str
    summary: str
    bullets: tuple[str, ...]  # each already formatted, continuation lines indented
    #: Where each line of ``section()`` came from when a person wrote it (a note's line,
    #: the ``--summary`` flag); None for what docgen worded.
    origins: tuple[Location | None, ...] = ()
    shifts: tuple[int | None, ...] = ()  # a note line's, from ``placed_bullets``; else None

    def section(self) -> str:
        body = "\n".join(self.bullets)
        return f"## {self.version}\n\n{self.summary}\n\n{body}\n"


def bullet(sentences: Sequence[str]) -> str:
    """``- first`` then two-space continuation lines, one sentence per line."""
    lines = [s.strip() for s in sentences if s.strip()]
    return "\n".join([f"- {lines[0]}", *(f"  {line}" for line in lines[1:])])


def compose(
    renderer: Renderer,
    project: Project,
    changes: Sequence[Change],
    version: str,
    summary: str | None,
    notes: Sequence[Note],
) -> Release:
    """Word the release: summary, one bullet per changed subject, then hand-written notes."""
    registry = renderer.registry
    link = _link_sentence(project, registry)
    bullets = []
    origins: list[Location | None] = [None, None, Location("--summary") if summary else None, None]
    chosen = project.config.changelog_link
    setting = setting_location(project.root, "changelog_link") if chosen else None
    for group in groups(changes, twins(registry, changes)):
        text = renderer.render(
            BULLET_TEMPLATE, BULLET_TEMPLATE, BulletContext(group=group, link=link)
        )
        bullets.append(bullet(braces_escaped(text).split("\n")))
        # The closing link names the page the changelog_link setting chose.
        lines = bullets[-1].split("\n")
        origins += [setting if link and link in line else None for line in lines]
    shifts: list[int | None] = [None] * len(origins)
    for note in notes:
        for text, places in placed_bullets(note.text, note.path):
            bullets.append(text)
            origins += [Location(note.path, number) for number, _shift in places]
            shifts += [shift for _number, shift in places]
    if summary:  # the user's own words, after the product's name (registry text, escaped)
        name = registry.product.name
        lead = f"{braces_escaped(mdx.escape_prose(name))} {version}"
        given = any(_leads(summary, start) for start in (lead, f"{name} {version}"))
        line = summary if given else f"{lead} {summary}"
    else:
        context = SummaryContext(version=version, groups=groups(changes))
        line = braces_escaped(renderer.render(SUMMARY_TEMPLATE, SUMMARY_TEMPLATE, context).strip())
    if not line.endswith((".", ":", "!", "?")):
        line += "."
    return Release(version, line, tuple(bullets), tuple(origins), tuple(shifts))


def _link_sentence(project: Project, registry: Registry) -> Markup | str:
    page = project.config.changelog_link or _first_page(project)
    if not page:
        return ""
    title = braces_escaped(mdx.escape_prose(_page_title(project, page)))  # where the setting says
    route = _route(project, registry, posixpath.normpath(page))
    return Markup(f"For more information, refer to [{title}]({route}).")  # noqa: S704


def _route(project: Project, registry: Registry, page: str) -> str:
    """Where the default agent's readers find ``page``: where the navigation lists its
    variant (or the page itself), or without one the route docgen derives."""
    from docgen import navigation

    agent = registry.default_agent.id
    nav = navigation.load(project)
    if nav is not None:
        own = nav.variant(agent)
        for path in (variant_path(project, page, agent), page):
            mine = [p for p in (own.pages if own is not None else ()) if p.path == path]
            listed = mine or nav.listed(path)
            if listed:
                return listed[0].route
    derived = project.config.route(page)
    broken = next((s for s in derived.split("/") if s and not SLUG.fullmatch(s)), None)
    if broken is not None:  # a link to it would break off there (a space ends a link)
        raise ConfigError.at(
            Location(page),
            f"the release's closing link leads to this page, at the route docgen derives from "
            f"its path ({one_line(derived)}), but '{one_line(broken)}' holds what no link "
            f"reaches: name the page and its folders with {SLUG_CHARACTERS}, list it in the "
            "navigation, or set `changelog_link` to another page",
        )
    return f"{agent_base(registry, agent)}/{derived}"


def _first_page(project: Project) -> str:
    """The first page a template renders once (not per profile), or ``""``."""
    names = [n for n in page_templates(project) if PROFILE_SLOT not in n]
    return page_path(project, names[0]) if names else ""


def _page_title(project: Project, page: str) -> str:
    path = project.root / page
    found = within_root(project, path) and path.is_file()
    text = read_input(path, Inside(project.root), "page", display=page) if found else ""
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
    #: Suggestions to print after the entry is written (``changes.guard_hints``).
    hints: tuple[str, ...] = ()
    version: str = ""  # the release, as its heading names it (``write_changelog`` sets it)


def create_entry(
    project: Project,
    registry: Registry,
    changes: Sequence[Change],
    version: str,
    date: str,
    summary: str | None,
    routes: Callable[[], set[str]] = set,
) -> Written:
    """Compose the release and the file that will hold it, and check it by the history
    rules (``routes`` gives the routes links may name); writes nothing.

    A broken input is a located error: at ``--version``, ``--date`` or ``--summary``, at
    the line of the note it came from, or (for what docgen worded) at the entry's line.
    """
    _check_request(project, version, date, summary)
    fragments = fragment_files(project)
    notes = _read_notes(project, fragments)
    if not released(changes) and not notes:
        left = sorted({c.kind for c in changes})
        aside = f" ({len(changes)} left out of releases: {', '.join(left)})" if left else ""
        raise ConfigError.at(
            Location(project.config.registry),
            "nothing to release: the "
            f"registry has no change a release describes since that state{aside} and "
            f"{project.config.fragments}/ holds no notes",
        )
    from docgen.render.environment import Renderer

    renderer = Renderer(registry, [project.path(project.config.templates)], project.root)
    release = compose(renderer, project, changes, version, summary, notes)
    path = f"{project.config.changelog}/{date}.mdx"
    target = project.root / path
    written = read_changelog_as_written(project, target, "entry") if _lexists(target) else None
    existing = None if written is None else as_lf_text(written)
    refuse_broken(path, header(registry), release, existing, registry, routes())
    text = entry_text(registry, release, existing)
    if written is not None and all_crlf(written):
        text = text.replace("\n", "\r\n")  # the entry keeps the line ends it has
    return Written(path, refuse_oversized(path, text), release.section(), tuple(fragments))


def _leads(summary: str, start: str) -> bool:
    """Whether ``summary`` starts with the words ``start`` (``Acme v1.0.1`` does not start
    ``Acme v1.0.10 ...``)."""
    return summary.startswith(start) and not summary[len(start) : len(start) + 1].isalnum()


def _read_notes(project: Project, fragments: Sequence[Path]) -> list[Note]:
    """The notes waiting in ``fragments``; an empty one is a located error."""
    notes = [Note(_rel(project, p), read_changelog_file(project, p, "note")) for p in fragments]
    for note in notes:
        if not note_bullets(note.text, note.path):
            raise ConfigError.at(
                Location(note.path),
                "the note is empty: say what changed in a sentence, or delete the file",
            )
    return notes


def _check_request(project: Project, version: str, date: str, summary: str | None) -> None:
    """Refuse a malformed or already released version, a malformed date or summary."""
    parse_version(version, Location("--version"))
    parse_date(date, Location("--date"))
    if summary is not None and (problem := summary_problem(summary)) is not None:
        raise ConfigError.at(Location("--summary"), problem)
    if version in (known := known_versions(project)):
        raise ConfigError.at(
            known[version],
            f"version {version} is already released "
            "here; entries are history and are never rewritten",
        )


def _rel(project: Project, path: Path) -> str:
    return path.relative_to(project.root).as_posix()


def _lexists(path: Path) -> bool:
    """Whether anything (a file, a folder, a dangling link) is at ``path``."""
    return path.is_symlink() or path.exists()
