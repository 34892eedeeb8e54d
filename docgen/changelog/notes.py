"""What is read out of the entries: one release as plain Markdown, and the overview page."""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from docgen.changelog.comments import read_as_text, without_comments
from docgen.changelog.entries import (
    VERSION,
    Entry,
    Section,
    agent_base,
    entries,
    known_versions,
    parse_version,
    release_route,
    version_problem,
)
from docgen.changelog.fences import text_lines, without_code
from docgen.changelog.history import (
    COMMENT_RULE,
    NAME_RULE,
    REFERENCE_RULE,
    check_entry,
    reference_problems,
    released_again,
)
from docgen.changelog.links import (
    DEFINED,
    DEFINITION,
    LINK_RULE,
    NEXT_TARGET,
    text_link_problems,
)
from docgen.changelog.markup import MARKUP_RULE, markup_problems
from docgen.config import Project
from docgen.errors import ConfigError, Location, Problem, one_line
from docgen.registry.model import Registry
from docgen.render import mdx

if TYPE_CHECKING:
    from docgen.navigation import NavChangelog, Navigation

#: A root-absolute link's target (``](/route)``; not ``](//host/...)``, which is a host's).
ROOT_LINK = re.compile(r"\]\([ \t]*(/(?!/)[^)]*)\)")


def release_notes(project: Project, registry: Registry, version: str, site_url: str) -> str:
    """One release's section as plain Markdown for a release body (``0.2.0`` names
    release ``v0.2.0`` too, as a tag is often written either way)."""
    wanted = {version, f"v{version}"} if not version.startswith("v") else {version}
    found = [(e, s) for e in entries(project) for s in e.sections if s.version in wanted]
    if len(found) > 1:  # which one is the release? `check` refuses the history too
        (first, _), (entry, section) = found[:2]
        raise ConfigError([released_again(entry, section, first.path)])
    if found:
        entry, section = found[0]
        plain = _plain(f"## {section.version}\n" + "\n".join(section.lines), site_url)
        _refuse_unsafe(entry, section, plain, registry)
        return plain
    named = version if version.startswith("v") or not version[:1].isdigit() else f"v{version}"
    if VERSION.fullmatch(named) is None:  # malformed as typed; a leading zero as a version
        problem = version_problem(named)
        malformed = problem.startswith("malformed")
        raise ConfigError.at(
            Location("release-notes"), version_problem(version) if malformed else problem
        )
    known = sorted(known_versions(project), key=_release_order)
    raise ConfigError.at(
        Location("release-notes"),
        f"no release {one_line(version)} in "
        f"{project.config.changelog}/ (known: {', '.join(known) or 'none'})",
    )


def _refuse_unsafe(entry: Entry, section: Section, plain: str, registry: Registry) -> None:
    """Refuse to print a release of an entry whose file name is no date, or whose text
    holds raw markup, an HTML comment (a body hides what it holds) or a link the changelog
    rules refuse (what ``check`` reports; an unshown character is printed as its escape), or
    whose plain Markdown does once its MDX comments are gone (``[x]{/**/}(javascript:...)``
    becomes a link)."""
    end = section.line + len(section.lines)
    problems = [
        p
        for p in check_entry(entry, registry, set())
        if p.rule == NAME_RULE
        or (
            p.rule in (MARKUP_RULE, LINK_RULE, REFERENCE_RULE, COMMENT_RULE)
            and p.location is not None
            and section.line <= p.location.line <= end
        )
    ]
    if not problems:  # the comments gone, what the release body would hold or link to
        lines = plain.split("\n")
        found = [p.message for p in text_link_problems(plain, entry.path)]
        found += [message for _index, _at, message in markup_problems(lines)]
        found += [p.message for p in reference_problems(read_as_text(lines), entry.path)]
        problems = [
            Problem(
                f"{message} (in the release body, once its MDX comments are removed)",
                Location(entry.path, section.line),
            )
            for message in found
        ]
    if problems:
        raise ConfigError(problems)


def relative_links_warning(notes: str, site_url: str) -> Problem | None:
    """A warning when ``notes`` keep root-absolute links relative for want of a site URL
    (a release body on another site would link nowhere)."""
    links = [target for _index, _at, target in root_targets(notes)]
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
        rule="release-notes-site-url",
    )


def _plain(text: str, site_url: str) -> str:
    """A section as plain Markdown: MDX comments gone, root-absolute links on the site."""
    text = without_comments(text)
    base = site_url.rstrip("/")
    if base:
        lines = text.split("\n")
        for index, at, _target in reversed(root_targets(text)):  # from the end: ``at`` holds
            lines[index] = lines[index][:at] + base + lines[index][at:]
        text = "\n".join(lines)
    return text.strip("\n") + "\n"


def root_targets(text: str) -> list[tuple[int, int, str]]:
    """Each root-absolute link target in ``text`` outside code, in order: the index of its
    line, where it starts there, and the target. An inline link's, and a reference
    definition's (``[name]: /route``, its target on its line or the next); what a code
    span or a fenced block shows is code, not a link."""
    lines = text.split("\n")
    found: list[tuple[int, int, str]] = []
    defined = -1  # the line of a definition whose target is on the next line
    for index, line in text_lines(lines):
        seen = without_code(line)
        matches = [*ROOT_LINK.finditer(seen), *DEFINITION.finditer(seen)]
        if defined == index - 1 and (target := NEXT_TARGET.match(seen)) is not None:
            matches.append(target)
        defined = index if DEFINED.match(seen) else -1
        at_root = (m for m in matches if m[1].startswith("/") and not m[1].startswith("//"))
        found += sorted((index, m.start(1), line[m.start(1) : m.end(1)]) for m in at_root)
    return found


def _release_order(version: str) -> tuple[int, ...]:
    """A known version's place among releases (v0.0.40 before v0.0.101; one no release
    heading could hold, last)."""
    found = VERSION.fullmatch(version)
    return (0, *(int(n) for n in found.groups())) if found else (1,)


def overview_text(
    project: Project, registry: Registry, releases: Sequence[tuple[str, str, str]]
) -> str:
    """The release overview page: frontmatter, then one line per release, newest first."""

    def key(item: tuple[str, str, str]) -> tuple[int, int, int]:
        return parse_version(item[0], Location("overview"))

    from docgen import navigation

    nav = navigation.load(project)
    node = _changelog_node(project, registry, nav)
    lines = []
    for version, day, summary in sorted(releases, key=key, reverse=True):
        # A navigation without a changelog node publishes no release page to link to.
        shown = (
            version
            if nav is not None and node is None
            else f"[{version}]({_release_page(project, registry, node, day)})"
        )
        lead = summary.strip()
        # A lead that opens the entry's list ends in ':'; standing alone, it ends a sentence.
        lead = f"{lead[:-1]}." if lead.endswith(":") and not lead.endswith("\\:") else lead
        lines.append(f"- {shown} ({day}): {_inert(lead)}")
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


def _inert(summary: str) -> str:
    """A release's summary line as the overview shows it: as written, or, when it holds
    raw markup (the entry's own error, which ``check`` reports), as plain text, so the
    generated page never runs or renders what the entry should not hold."""

    # Raw markup (a '<' that ends the line ends the list item too), or what other rules
    # report: an HTML comment, an <AgentOnly> tag, a link neither a route nor a web address.
    raw = any(markup_problems([summary])) or "<!--" in summary or "AgentOnly" in summary
    unsafe = raw or bool(text_link_problems(summary, "overview"))
    return mdx.escape_prose(summary) if unsafe else summary


def _changelog_node(
    project: Project, registry: Registry, nav: Navigation | None
) -> NavChangelog | None:
    """The navigation's changelog node of the changelog folder in the default agent's
    variant (else the first one), or None: read once for the whole overview."""
    nodes = [] if nav is None else nav.changelogs_of(project.config.changelog)
    agent = registry.default_agent.id
    return next((n for n in nodes if n.variant == agent), nodes[0] if nodes else None)


def _release_page(project: Project, registry: Registry, node: NavChangelog | None, day: str) -> str:
    """The route of the default agent's release page for the entry of ``day``: where the
    changelog ``node`` publishes it, or the ``release_route`` setting's."""
    try:
        date = _dt.date.fromisoformat(day)
    except ValueError:  # not a dated entry: history reports it
        node = None
    if node is not None:
        return node.release(date.year, date.month, date.day)
    return f"{agent_base(registry, registry.default_agent.id)}/{release_route(project, day)}"
