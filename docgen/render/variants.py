"""Per-agent variants of shared pages: ``<AgentOnly>`` blocks and the CLI token resolved.

A block is ``<AgentOnly variant="a,b">`` ... ``</AgentOnly>``, each tag alone on its
line. For every agent a page is published for, the blocks that name it are kept
without their tags, the others dropped, and the product's CLI token becomes the
agent's CLI. Broken blocks, unknown agents, leftover tokens and headings left
without content are located errors.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import chain
from typing import NamedTuple

from docgen.errors import Location, PageError, Problem, known_as
from docgen.registry.model import Agent
from docgen.render import syntax
from docgen.render.relative import rewrite_paths
from docgen.render.structure import INSIDE, Tags, dropped_unbalanced, misplaced, tag_places

OPEN = re.compile(r'^<AgentOnly\s+variant="([^"]*)"\s*>\s*$')
CLOSE = re.compile(r"^</AgentOnly>\s*$")
ANY_TAG = re.compile(r"(?<!\\)</?AgentOnly\b")
HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$")
AGENT_GUIDE_IMPORT = re.compile(r"^import\s*\{[^}]*\}\s*from\s*[\"'][^\"']*AgentGuide[\"'];?\s*$")
BLANK_RUN = re.compile(r"\n\n\n+")  # not \n{3,}: eight times slower on long pages
RUNTIME_COMPONENTS = re.compile(r"<(AgentCli|AgentProductName|GuideLink)\b")


class Line(NamedTuple):
    """One body line with its 1-based number in the source file."""

    number: int
    text: str


@dataclass(frozen=True)
class Block:
    agents: tuple[str, ...]
    start: int  # index into the body lines of the opening tag
    end: int  # index of the closing tag


@dataclass(frozen=True)
class Page:
    """A shared page split into frontmatter and body, with its blocks parsed."""

    path: str
    frontmatter: str  # the lines between the --- markers, or ""
    head: str  # the frontmatter with its --- markers, as written, or ""
    body_text: str
    first_line: int  # the body's first line number in the file
    blocks: tuple[Block, ...]
    #: The JSX tags up to the last block: (body line index, tag as ``structure`` reads
    #: it, the index of the block that holds it, or -1).
    tags: tuple[tuple[int, str, int], ...] = ()

    @cached_property
    def lines(self) -> list[str]:
        """The body's lines (split only when lines are needed); line ``i`` is the file's
        line ``first_line + i``."""
        return self.body_text.split("\n")

    @property
    def body(self) -> tuple[Line, ...]:
        """The body lines with their numbers."""
        return tuple(map(Line._make, enumerate(self.lines, self.first_line)))

    def line_of(self, offset: int) -> int:
        """The file line number of character ``offset`` of the body."""
        return self.first_line + self.body_text.count("\n", 0, offset)


def parse(path: str, text: str, agents: Sequence[Agent]) -> Page:
    """Split and check a page's AgentOnly blocks; raise PageError with every problem."""
    parts = syntax.split(text)
    page = Page(path, parts.frontmatter, parts.closed_head, parts.body, parts.first_line, ())
    if "AgentOnly" not in page.body_text:
        return page  # no tag at all: nothing to parse
    known = [a.id for a in agents]
    problems: list[Problem] = []
    tags: Tags = []
    blocks = tuple(_blocks(path, page.lines, page.first_line, known, problems, tags))
    if problems:
        raise PageError(problems)
    at = {i: n for n, b in enumerate(blocks) for i in range(b.start + 1, b.end)}
    parsed = replace(page, blocks=blocks, tags=tuple((i, t, at.get(i, -1)) for i, t in tags))
    parsed.__dict__["lines"] = page.lines  # already split: keep them
    return parsed


def _blocks(
    path: str,
    lines: list[str],
    first_line: int,
    known: list[str],
    problems: list[Problem],
    tags: Tags,
) -> Iterator[Block]:
    opened: tuple[int, tuple[str, ...]] | None = None
    place = tag_places(lines, tags)
    for index, text in enumerate(lines):
        if "AgentOnly" not in text:
            continue  # every pattern below names the tag
        where = Location(path, first_line + index)
        match, closing = OPEN.match(text), CLOSE.match(text) is not None
        start = None if opened is None else opened[0]
        cut = misplaced(place, index, start, match is not None, closing)
        if cut:  # a block cut across places is located where it opens
            at = start if start is not None and cut != INSIDE else index
            problems.append(Problem(cut, Location(path, first_line + at)))
            opened = opened if cut == INSIDE else None
            continue
        if match:
            if opened is not None:
                problems.append(Problem(_NESTED.format(first_line + opened[0]), where))
                continue
            opened = (index, _agent_list(match[1], where, known, problems))
        elif closing:
            if opened is None:
                problems.append(Problem("stray </AgentOnly> without an opening tag", where))
                continue
            yield Block(opened[1], opened[0], index)
            opened = None
        elif ANY_TAG.search(text):
            problems.append(Problem(_tag_problem(text), where))
    if opened is not None:
        problems.append(Problem(_UNCLOSED, Location(path, first_line + opened[0])))


_NESTED = "nested <AgentOnly> block (the block opened on line {} is still open)"
_UNCLOSED = "unclosed <AgentOnly> block: add </AgentOnly> on its own line"


def _tag_problem(text: str) -> str:
    """What is wrong with a line that holds an <AgentOnly> tag docgen cannot read."""
    alone = text.strip()
    if OPEN.match(alone) or CLOSE.match(alone):  # alone on the line, but indented
        return (
            "indented <AgentOnly> tag: write it at the start of its line, not inside a list "
            "item or other block (the whole block goes to the agents it names)"
        )
    if re.match(r"^<AgentOnly\s+variant='[^']*'\s*>$", alone):
        return '<AgentOnly> takes its variant in double quotes: variant="name"'
    if re.fullmatch(r"</?AgentOnly\b[^<>]*>", alone):  # alone, but not as docgen reads it
        return 'malformed <AgentOnly> tag: write <AgentOnly variant="a,b"> or </AgentOnly>'
    return "inline <AgentOnly> tag: put each opening and closing tag alone on its own line"


def _agent_list(
    value: str, where: Location, known: list[str], problems: list[Problem]
) -> tuple[str, ...]:
    ids = tuple(part.strip() for part in value.split(",") if part.strip())
    if not ids:
        problems.append(Problem("<AgentOnly> names no agent", where))
    for agent in ids:
        if agent not in known:
            problems.append(
                Problem(
                    f"unknown agent '{agent}' in <AgentOnly>{known_as(agent, known, 'the agents')}",
                    where,
                )
            )
    return ids


def select(page: Page, agent: str) -> list[Line]:
    """The body lines the agent sees: its blocks without their tags, others dropped."""
    return [Line(page.first_line + i, page.lines[i]) for run in _kept(page, agent) for i in run]


def _kept(page: Page, agent: str) -> Iterator[range]:
    """The runs of body lines the agent sees, in order: what lies between the tags."""
    start = 0
    for block in page.blocks:
        yield range(start, block.start)
        if agent in block.agents:
            yield range(block.start + 1, block.end)
        start = block.end + 1
    yield range(start, len(page.lines))


def empty_sections(page: Page, agents: Sequence[str]) -> list[Problem]:
    """Headings whose section has content in the source but none in some agent's variant.

    One pass over the source reduces it to headings and runs of content, each tagged
    with the block it stands in; each variant's sections are then found from the events
    it keeps, without rescanning the text.
    """
    events = _events(page)
    source = _sections(events)
    problems = []
    for agent in agents:
        kept = {i for i, block in enumerate(page.blocks) if agent in block.agents}
        variant = _sections([e for e in events if e.block is None or e.block in kept])
        for number, (title, has_content) in source.items():
            if has_content and number in variant and not variant[number][1]:
                problems.append(
                    Problem(
                        f"heading '{title}' has no content in the {agent} variant: move the "
                        "heading into the <AgentOnly> block that holds its body",
                        Location(page.path, number),
                    )
                )
    return problems


class _Event(NamedTuple):
    block: int | None  # the block the event stands in, if any
    level: int  # a heading's level; 0 for a run of content
    number: int = 0
    title: str = ""


def _events(page: Page) -> list[_Event]:
    """The page body as headings and runs of content (consecutive runs merged), read up to
    the first heading or content after the last block: that line closes, or gives content
    to, every section holding a block, and no later section holds one, so every variant
    keeps the rest as the source has it (a long generated page is not read to its end)."""
    out: list[_Event] = []
    blocks, k = page.blocks, 0
    last = blocks[-1].end if blocks else len(page.lines)
    roles = syntax.roles(page.lines)
    for (index, text), (role, _fence) in zip(enumerate(page.lines), roles, strict=True):
        while k < len(blocks) and index > blocks[k].end:
            k += 1
        where = None
        if k < len(blocks) and blocks[k].start <= index:
            if index in (blocks[k].start, blocks[k].end):
                continue  # a tag line
            where = k
        if role == syntax.PROSE and "#" in text[:4] and (heading := HEADING.match(text)):
            title = (heading[2] or "").strip()
            out.append(_Event(where, len(heading[1]), page.first_line + index, title))
        elif not text.strip() or _tag_or_comment(text):
            continue  # neither content nor a heading
        elif not out or out[-1] != (where, 0, 0, ""):
            out.append(_Event(where, 0))  # else a run of content goes on
        if index > last:
            break
    return out


def _sections(events: list[_Event]) -> dict[int, tuple[str, bool]]:
    """Heading line -> (title, whether its section, subsections included, has content)."""
    out: dict[int, tuple[str, bool]] = {}
    open_headings: list[_Event] = []
    marked = 0  # the first ``marked`` open headings already have content
    for event in events:
        if event.level:
            while open_headings and open_headings[-1].level >= event.level:
                open_headings.pop()
            marked = min(marked, len(open_headings))
        if marked < len(open_headings):  # a subheading is content of its parents
            for heading in open_headings[marked:]:
                out[heading.number] = (heading.title, True)
            marked = len(open_headings)
        if event.level:
            open_headings.append(event)
            out[event.number] = (event.title, False)
    return out


def _tag_or_comment(text: str) -> bool:
    stripped = text.strip()
    return bool(OPEN.match(stripped) or CLOSE.match(stripped)) or (
        stripped.startswith("{/*") and stripped.endswith("*/}")
    )


def collapse_blank_runs(text: str) -> str:
    """Runs of three or more newlines become one blank line."""
    return BLANK_RUN.sub("\n\n", text) if "\n\n\n" in text else text


def leftover_token(page: Page, token: str, agents: Sequence[str]) -> list[Problem]:
    """A token on a page published for one agent only would render literally."""
    if len(agents) != 1 or (offset := page.body_text.find(token)) == -1:
        return []
    return [
        Problem(
            f"'{token}' on a page published only for '{agents[0]}': write the "
            "CLI name literally or publish the page for more agents",
            Location(page.path, page.line_of(offset)),
        )
    ]


def render(page: Page, agent: Agent, token: str, target: str) -> str:
    """The page as ``agent`` sees it, relative paths re-aimed at ``target`` (no notice)."""
    if page.blocks or "AgentGuide" in page.body_text:
        lines = page.lines
        kept: Iterable[str] = chain.from_iterable(
            lines[run.start : run.stop] for run in _kept(page, agent.id)
        )
        if "AgentGuide" in page.body_text:
            kept = (text for text in kept if not AGENT_GUIDE_IMPORT.match(text))
        body = "\n".join(kept)
    else:
        body = page.body_text
    body = rewrite_paths(body.replace(token, agent.cli), page.path, target)
    return collapse_blank_runs(page.head.replace(token, agent.cli) + body)


def check(page: Page, agents: Sequence[Agent], token: str) -> None:
    """Every problem that would make some variant wrong, raised at once."""
    problems = leftover_token(page, token, [a.id for a in agents])
    first: dict[int, str] = {}  # one problem a line, for its first component
    for match in RUNTIME_COMPONENTS.finditer(page.body_text):
        first.setdefault(page.line_of(match.start()), match[1])
    problems += [Problem(_UNRESOLVED.format(n), Location(page.path, at)) for at, n in first.items()]
    if page.blocks:  # without blocks every agent sees every section
        problems += empty_sections(page, [a.id for a in agents])
        problems += _dropped_tags(page, [a.id for a in agents])
    if problems:
        raise PageError(problems)


def _dropped_tags(page: Page, agents: list[str]) -> list[Problem]:
    """Each variant that drops one tag of a JSX element and keeps the other."""
    problems = []
    for agent in agents:
        marks = [(i, tag, n < 0 or agent in page.blocks[n].agents) for i, tag, n in page.tags]
        if (found := dropped_unbalanced(marks)) is not None:
            where = Location(page.path, page.first_line + found[0])
            problems.append(Problem(_DROPPED.format(agent, found[1]), where))
    return problems


_DROPPED = (
    "the {} variant drops {} but keeps its element's other tag (MDX would refuse it): an "
    "<AgentOnly> block holds one of a JSX element's tags but not both; put both in it, or neither"
)
_UNRESOLVED = (
    "runtime component <{}> is not resolved in variants: write the CLI token or literal text "
    "instead"
)


def is_shared(text: str, token: str) -> bool:
    """A hand-written page is shared when it uses the token, AgentOnly or agent-variants."""
    return token in text or "AgentOnly" in text or "\nagent-variants:" in text
