"""The rules past changelog entries must keep, checked file by file and line by line."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import islice
from typing import TYPE_CHECKING

from docgen import redirects
from docgen.changelog import references
from docgen.changelog.comments import read_as_text, without_comments
from docgen.changelog.entries import (
    HEADING,
    Entry,
    Section,
    agent_base,
    entries,
    entry_date,
    entry_files,
    header,
    parse_version,
    read_entry,
    release_route,
    shown,
    version_problem,
)
from docgen.changelog.links import (
    DEFINED,
    LINK_RULE,
    NEXT_TARGET,
    hidden_link_problems,
    line_links,
    link_problem,
    text_link_problems,
)
from docgen.changelog.markup import MARKUP_RULE, markup_problems
from docgen.config import Project
from docgen.errors import UNSHOWN, Location, Problem, unshown_problem
from docgen.redirects import Routes
from docgen.registry.model import Registry

if TYPE_CHECKING:
    from docgen.navigation import Navigation

#: A heading: one to six ``#`` then a blank or the line's end, at any indentation or after
#: list item or block quote markers (a heading inside a list item; MDX has no indented code).
ANY_HEADING = re.compile(r"^[ \t]*(?:>[ \t]?|(?:[-*+]|[0-9]{1,9}[.)])[ \t]+)*#{1,6}(?:[ \t]|$)")
#: An HTML comment's opening (``\\<!--``, escaped, is text: prose escaping writes it).
HTML_COMMENT = re.compile(r"(?<!\\)<!--")
#: A setext underline: ``=`` or ``-`` alone on a line, which makes the line above a heading.
SETEXT = re.compile(r"^[ \t]*(?:=+|-+)[ \t]*$")
#: A line that starts a list item (a ``---`` right under it is a rule, not an underline).
LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)")
#: A release heading with a version that is not well written (``## v01.0.0``).
LOOSE_HEADING = re.compile(r"^## (v[0-9]+\.[0-9]+\.[0-9]+)$")
#: The rule id of the release headings (each entry has one; each is `## vX.Y.Z`).
HEADING_RULE = "changelog-heading"
#: The rule id of a character reference to a control character (``&#x202e;``).
REFERENCE_RULE = "changelog-control-reference"
#: An HTML comment in an entry's text: a release body would hide what it holds.
COMMENT_RULE = "changelog-no-html-comment"
#: The control characters a reference may name: MDX and GitHub read them as white space.
_WHITESPACE = "\n\r\f"


def check_history(project: Project, registry: Registry, routes: set[str]) -> list[Problem]:
    """Every problem in the dated entries; each names file and line."""
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for path in entry_files(project):
        entry = read_entry(project, path)
        problems += check_entry(entry, registry, routes)
        for section in entry.sections:
            if section.version in seen:
                problems.append(released_again(entry, section, seen[section.version]))
            seen.setdefault(section.version, entry.path)
    return problems


def released_again(entry: Entry, section: Section, first: str) -> Problem:
    """The release ``section`` of ``entry`` repeats one the entry file ``first`` holds."""
    where = Location(entry.path, section.line)
    message = f"version {section.version} is already released in {first}"
    return Problem(message, where, rule="changelog-version-unique")


def check_entry(entry: Entry, registry: Registry, routes: set[str]) -> list[Problem]:
    """The problems of one entry alone: its file, each line, then the release order; at
    most ``MAX_ENTRY_PROBLEMS`` (a hostile entry of a million bad lines is said in a few,
    in bounded time and memory), then one that says more were left out."""
    found = list(islice(_entry_problems(entry, registry, routes), MAX_ENTRY_PROBLEMS + 1))
    if len(found) > MAX_ENTRY_PROBLEMS:
        found[-1] = Problem(
            f"more problems in this entry are not listed (the first {MAX_ENTRY_PROBLEMS} are)",
            Location(entry.path, found[-1].location.line if found[-1].location else 1),
            rule=found[-1].rule,
        )
    return found


#: The most problems said of one changelog entry.
MAX_ENTRY_PROBLEMS = 100
#: The rule id of an entry whose file name is not a real date.
NAME_RULE = "changelog-file-name"


def _entry_problems(entry: Entry, registry: Registry, routes: set[str]) -> Iterator[Problem]:
    yield from _file_level(entry, registry)
    lines = entry.text.split("\n")
    token = registry.product.cli_token
    above = ""  # the prose line above, "" after a blank line or code
    # What MDX reads as text: a fence in a list item also ends where the item does.
    seen = read_as_text(lines)  # its text without code spans and comments
    said: set[int] = set()  # the lines already said to link wrongly (or to hold markup)
    for number, line in enumerate(lines, start=1):
        where = Location(entry.path, number)
        found = _line_problems(line, where, token, routes)
        target = (
            NEXT_TARGET.match(line) if number > 1 and DEFINED.match(lines[number - 2]) else None
        )
        if target is not None:  # a definition's target, on the line after its name
            found += link_problem(target[1], where, routes)
        prose = number - 1 in seen
        if prose:  # code is literal, and a comment no text: a link there is none
            found += line_links(seen[number - 1], where, routes)
            found += _heading_problems(line, above, where)
        above = line if prose and line.strip() else ""
        said.update(number for p in found if p.rule == LINK_RULE)
        yield from found
    for problem in _markup_problems(entry, lines, registry):
        said.add(problem.location.line if problem.location else 0)
        yield problem
    yield from hidden_link_problems(entry.text, entry.path, said, seen)
    referenced = list(reference_problems(seen, entry.path))
    yield from referenced
    yield from _uncommented_problems(
        entry, said, {p.location.line for p in referenced if p.location}
    )
    yield from _order_problems(entry)


def reference_problems(read: Mapping[int, str], path: str) -> Iterator[Problem]:
    """The first character reference on each line of text (``read``: the lines as
    ``comments.read_as_text`` gives them) that stands for a character an entry may not
    hold raw (``&#x202e;``): MDX and GitHub decode it."""
    for index, line in read.items():
        for at, reference, char in references.in_text(line):
            if UNSHOWN.match(char) and char not in _WHITESPACE:
                message = unshown_problem(char, f"the reference '{reference}'", "stands for")
                yield Problem(message, Location(path, index + 1, at + 1), rule=REFERENCE_RULE)
                break


def _uncommented_problems(entry: Entry, said: set[int], before: set[int]) -> Iterator[Problem]:
    """The links and character references a release body (the entry without its MDX
    comments) would hold that the rules refuse, on lines not ``said`` already (links) or
    not refused ``before`` (references): ``[x]{/* c */}(javascript:...)`` is no link to
    MDX, and one once the comment is gone (``&#x2{/* c */}02e;`` the same)."""
    uncommented = without_comments(entry.text, keep_lines=True)
    if uncommented == entry.text:
        return
    for problem in reference_problems(read_as_text(uncommented.split("\n")), entry.path):
        if problem.location is not None and problem.location.line not in before:
            where = Location(problem.location.path, problem.location.line)  # (col: uncommented)
            yield replace(problem, message=f"{problem.message} {_ONCE_UNCOMMENTED}", location=where)
    for problem in text_link_problems(uncommented, entry.path):
        if problem.location is not None and problem.location.line not in said:
            said.add(problem.location.line)  # (its column is in the uncommented line)
            where = Location(problem.location.path, problem.location.line)
            yield replace(problem, message=f"{problem.message} {_ONCE_UNCOMMENTED}", location=where)


_ONCE_UNCOMMENTED = "(once its MDX comments are removed, as in a release body)"


def _markup_problems(entry: Entry, lines: list[str], registry: Registry) -> Iterator[Problem]:
    """Raw MDX markup in the entry's text below its SPDX header (the release sections and
    anything above the first one), one problem a line (see ``changelog.markup``)."""
    expected = header(registry)
    if not expected or entry.text.startswith(expected):
        start = expected.count("\n")
    else:  # a wrong header is its own problem; check the sections
        start = entry.sections[0].line - 1 if entry.sections else len(lines)
    for index, at, message in markup_problems(lines[start:]):
        where = Location(entry.path, start + index + 1, at + 1)
        yield Problem(message, where, rule=MARKUP_RULE)


def _file_level(entry: Entry, registry: Registry) -> list[Problem]:
    problems = []
    name = entry.path.rsplit("/", 1)[-1]
    if entry_date(entry.day) is None:
        problems.append(
            Problem(
                f"changelog file name '{name}' is not a real date as YYYY-MM-DD.mdx",
                Location(entry.path, 1),
                rule=NAME_RULE,
            )
        )
    expected = header(registry)
    if expected and not entry.text.startswith(expected):
        problems.append(
            Problem(
                "the entry must start with the exact SPDX header:\n" + expected.rstrip("\n"),
                Location(entry.path, 1),
                rule="changelog-header",
            )
        )
    if not entry.sections and not any(map(LOOSE_HEADING.match, entry.text.split("\n"))):
        where = Location(entry.path, 1)
        problems.append(Problem("no release heading: add '## vX.Y.Z'", where, rule=HEADING_RULE))
    return problems


def _line_problems(line: str, where: Location, token: str, routes: set[str]) -> list[Problem]:
    problems = []
    if (control := UNSHOWN.search(line)) is not None:
        at = Location(where.path, where.line, control.start() + 1)
        message = unshown_problem(control[0], "the entry")
        problems.append(Problem(message, at, rule="changelog-control-character"))
    if HTML_COMMENT.search(line):
        problems.append(
            Problem(
                "HTML comments are not allowed in changelog entries; use {/* ... */}",
                where,
                rule=COMMENT_RULE,
            )
        )
    if token in line:
        problems.append(
            Problem(
                f"the CLI token '{token}' is not replaced in changelog entries; "
                "write the CLI name literally",
                where,
                rule="changelog-no-cli-token",
            )
        )
    if "AgentOnly" in line:
        problems.append(
            Problem(
                "<AgentOnly> is not resolved in changelog entries",
                where,
                rule="changelog-no-agent-only",
            )
        )
    return problems


def _heading_problems(line: str, above: str, where: Location) -> list[Problem]:
    """A heading that is not a release heading: ``## vX.Y.Z`` at the start of a line, the
    version well written; nothing else (an indented heading, a setext underline) either."""
    message = None
    if ANY_HEADING.match(line) and not HEADING.match(line):
        loose = LOOSE_HEADING.match(line)
        if loose is not None:
            message = f"release heading '{shown(line)}': {version_problem(loose[1])}"
        elif not line.startswith("#"):
            message = (
                "headings in changelog entries are '## vX.Y.Z' at the start of a line, got "
                f"a heading in a list item or indented: '{shown(line.strip())}'"
            )
        else:
            message = f"headings in changelog entries are '## vX.Y.Z', got '{shown(line.strip())}'"
    elif above and SETEXT.match(line) and (line[:1] in (" ", "\t") or not LIST_ITEM.match(above)):
        message = (
            f"'{shown(line.strip())}' under a line of text makes that line a heading; headings "
            "in changelog entries are '## vX.Y.Z' alone"
        )
    return [] if message is None else [Problem(message, where, rule=HEADING_RULE)]


def _order_problems(entry: Entry) -> list[Problem]:
    problems = []
    keys = [(s, parse_version(s.version, Location(entry.path, s.line))) for s in entry.sections]
    for (prev, a), (section, b) in zip(keys, keys[1:], strict=False):
        if b >= a:
            problems.append(
                Problem(
                    f"{section.version} comes after {prev.version}: list releases newest first",
                    Location(entry.path, section.line),
                    rule="changelog-order",
                )
            )
    return problems


def published_routes(
    project: Project,
    pages: Sequence[tuple[str, Sequence[str]]],
    registry: Registry,
    navigation: Navigation | None = None,
) -> set[str]:
    """Every root-absolute route the project publishes: what its navigation lists, or
    without one each page for each of its agents; and the release pages."""
    if navigation is not None:
        routes = navigation.routes()
    else:
        routes = {
            f"{agent_base(registry, agent)}/{project.config.route(page)}"
            for page, agents in pages
            for agent in agents
        }
    for entry in entries(project):
        routes |= release_routes(project, registry, entry.day, navigation)
    return Routes(routes, redirects.load(project))


def release_routes(
    project: Project, registry: Registry, day: str, navigation: Navigation | None = None
) -> set[str]:
    """The routes of the release page of the entry of ``day`` (see ``release_places``)."""
    return {route for _agent, route in release_places(project, registry, day, navigation)}


def release_places(
    project: Project, registry: Registry, day: str, navigation: Navigation | None = None
) -> list[tuple[str, str]]:
    """Who reads each release page of the entry of ``day``, and its route: with a
    navigation, one under each of its Fern changelog nodes of the changelog folder (none
    without one: it does not publish the entries), read by the variant whose layout holds
    it ("" for a node outside every variant: every agent's readers); else one for each
    agent."""
    if navigation is not None:
        nodes = navigation.changelogs_of(project.config.changelog)
        date = entry_date(day)
        if date is None:
            return []
        return [(node.variant, node.release(date.year, date.month, date.day)) for node in nodes]
    route = release_route(project, day)
    return [(each.id, f"{agent_base(registry, each.id)}/{route}") for each in registry.agents]
