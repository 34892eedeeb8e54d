"""Per-agent variants of shared pages: ``<AgentOnly>`` blocks and the CLI token resolved.

A block is ``<AgentOnly variant="a,b">`` ... ``</AgentOnly>``, each tag alone on its
line. For every agent a page is published for, the blocks that name it are kept
without their tags, the others dropped, and the product's CLI token becomes the
agent's CLI. Broken blocks, unknown agents, leftover tokens and headings left
without content are located errors.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from docgen.errors import Location, PageError, Problem, did_you_mean
from docgen.model import Agent

OPEN = re.compile(r'^<AgentOnly\s+variant="([^"]*)"\s*>\s*$')
CLOSE = re.compile(r"^</AgentOnly>\s*$")
ANY_TAG = re.compile(r"(?<!\\)</?AgentOnly\b")
HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
AGENT_GUIDE_IMPORT = re.compile(r"^import\s*\{[^}]*\}\s*from\s*[\"'][^\"']*AgentGuide[\"'];?\s*$")
IMPORT_PATH = re.compile(r"""^(import\s[^"']*from\s*["'])(\.{1,2}/[^"']+)(["'];?\s*)$""")
LINK_PATH = re.compile(r"""(!?\[[^\]]*\]\(|\bsrc=["'])(\.{1,2}/[^)"'\s#?]+\.[A-Za-z0-9]+)""")


@dataclass(frozen=True)
class Line:
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
    has_frontmatter: bool
    body: tuple[Line, ...]
    blocks: tuple[Block, ...]


def split_frontmatter(text: str) -> tuple[str, bool, list[Line]]:
    """Frontmatter text, whether there is one, and the body lines with their numbers."""
    lines = text.split("\n")
    if lines and lines[0] == "---":
        for index in range(1, len(lines)):
            if lines[index] == "---":
                body = [Line(n + 1, t) for n, t in enumerate(lines) if n > index]
                return "\n".join(lines[1:index]), True, body
    return "", False, [Line(n + 1, t) for n, t in enumerate(lines)]


def parse(path: str, text: str, agents: Sequence[Agent]) -> Page:
    """Split and check a page's AgentOnly blocks; raise PageError with every problem."""
    frontmatter, has_fm, body = split_frontmatter(text)
    known = [a.id for a in agents]
    problems: list[Problem] = []
    blocks = list(_blocks(path, body, known, problems))
    if problems:
        raise PageError(problems)
    return Page(path, frontmatter, has_fm, tuple(body), tuple(blocks))


def _blocks(
    path: str, body: list[Line], known: list[str], problems: list[Problem]
) -> Iterator[Block]:
    opened: tuple[int, tuple[str, ...]] | None = None
    for index, line in enumerate(body):
        where = Location(path, line.number)
        match = OPEN.match(line.text)
        if match:
            if opened is not None:
                first = body[opened[0]].number
                problems.append(
                    Problem(
                        f"nested <AgentOnly> block (the block opened on line "
                        f"{first} is still open)",
                        where,
                    )
                )
                continue
            opened = (index, _agent_list(match[1], where, known, problems))
        elif CLOSE.match(line.text):
            if opened is None:
                problems.append(Problem("stray </AgentOnly> without an opening tag", where))
                continue
            yield Block(opened[1], opened[0], index)
            opened = None
        elif ANY_TAG.search(line.text):
            problems.append(
                Problem(
                    "inline <AgentOnly> tag: put each opening and closing tag "
                    "alone on its own line",
                    where,
                )
            )
    if opened is not None:
        where = Location(path, body[opened[0]].number)
        problems.append(
            Problem("unclosed <AgentOnly> block: add </AgentOnly> on its own line", where)
        )


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
                    f"unknown agent '{agent}' in <AgentOnly>{did_you_mean(agent, known)}", where
                )
            )
    return ids


def select(page: Page, agent: str) -> list[Line]:
    """The body lines the agent sees: its blocks without their tags, others dropped."""
    dropped: set[int] = set()
    for block in page.blocks:
        dropped.update((block.start, block.end))
        if agent not in block.agents:
            dropped.update(range(block.start + 1, block.end))
    return [line for index, line in enumerate(page.body) if index not in dropped]


def empty_sections(
    page: Page, kept: list[Line], agent: str, source: dict[int, tuple[str, bool]] | None = None
) -> list[Problem]:
    """Headings whose content exists in the source but is dropped entirely for ``agent``."""
    source = _sections(list(page.body)) if source is None else source
    variant = _sections(kept)
    problems = []
    for number, (title, has_content) in source.items():
        if has_content and number in variant and not variant[number][1]:
            problems.append(
                Problem(
                    f"heading '{title}' has no content in the {agent} variant: move the heading "
                    "into the <AgentOnly> block that holds its body",
                    Location(page.path, number),
                )
            )
    return problems


def _sections(lines: list[Line]) -> dict[int, tuple[str, bool]]:
    """Heading line -> (title, whether its section, subsections included, has content)."""
    out: dict[int, tuple[str, bool]] = {}
    open_headings: list[tuple[int, int]] = []  # (line number, level)
    fence = ""
    for line in lines:
        text = line.text
        heading = None
        if fence:
            fence = "" if text.strip().startswith(fence) else fence
        elif (match := FENCE.match(text)) is not None:
            fence = match[1]
        else:
            heading = HEADING.match(text)
        if heading is not None:
            level = len(heading[1])
            while open_headings and open_headings[-1][1] >= level:
                open_headings.pop()
            _mark(out, open_headings)
            open_headings.append((line.number, level))
            out[line.number] = ((heading[2] or "").strip(), False)
        elif text.strip() and not _tag_or_comment(text):
            _mark(out, open_headings)
    return out


def _mark(out: dict[int, tuple[str, bool]], open_headings: list[tuple[int, int]]) -> None:
    for number, _level in open_headings:
        out[number] = (out[number][0], True)


def _tag_or_comment(text: str) -> bool:
    stripped = text.strip()
    return bool(OPEN.match(stripped) or CLOSE.match(stripped)) or (
        stripped.startswith("{/*") and stripped.endswith("*/}")
    )


def rewrite_paths(text: str, source: str, target: str) -> str:
    """Relative import paths and file links, re-aimed from ``source``'s folder to ``target``'s."""
    if "./" not in text:
        return text  # nothing relative to re-aim
    src_dir, dst_dir = posixpath.dirname(source), posixpath.dirname(target)

    def move(rel: str) -> str:
        moved = posixpath.relpath(posixpath.normpath(posixpath.join(src_dir, rel)), dst_dir)
        return moved if moved.startswith(".") else f"./{moved}"

    lines = []
    for line in text.split("\n"):
        match = IMPORT_PATH.match(line)
        if match:
            line = f"{match[1]}{move(match[2])}{match[3]}"
        else:
            line = LINK_PATH.sub(lambda m: f"{m[1]}{move(m[2])}", line)
        lines.append(line)
    return "\n".join(lines)


def collapse_blank_runs(text: str) -> str:
    """Runs of three or more newlines become one blank line."""
    return re.sub(r"\n{3,}", "\n\n", text)


def leftover_token(page: Page, token: str, agents: Sequence[str]) -> list[Problem]:
    """A token on a page published for one agent only would render literally."""
    if len(agents) != 1:
        return []
    for line in page.body:
        if token in line.text:
            return [
                Problem(
                    f"'{token}' on a page published only for '{agents[0]}': write the "
                    "CLI name literally or publish the page for more agents",
                    Location(page.path, line.number),
                )
            ]
    return []


RUNTIME_COMPONENTS = re.compile(r"<(AgentCli|AgentProductName|GuideLink)\b")


def published_for(page: Page, agents: Sequence[Agent]) -> list[Agent]:
    """The agents a page is published for: its ``agent-variants`` list, or every agent."""
    declared = _declared_agents(page)
    if declared is None:
        return list(agents)
    ids, number = declared
    known = {a.id: a for a in agents}
    problems = [
        Problem(
            f"agent-variants names unknown agent '{a}'{did_you_mean(a, known)}",
            Location(page.path, number),
        )
        for a in ids
        if a not in known
    ]
    if not ids:
        problems.append(Problem("agent-variants names no agent", Location(page.path, number)))
    if problems:
        raise PageError(problems)
    return [known[a] for a in ids]


def _declared_agents(page: Page) -> tuple[list[str], int] | None:
    for offset, line in enumerate(page.frontmatter.split("\n")):
        if line.startswith("agent-variants:"):
            value = line.split(":", 1)[1].strip()
            number = offset + 2
            items = [v.strip().strip("\"'") for v in value.strip("[]").split(",")]
            if not (value.startswith("[") and value.endswith("]")):
                raise PageError(
                    Problem(
                        'agent-variants must be a flow list like ["openclaw", "hermes"]',
                        Location(page.path, number),
                    )
                )
            return [i for i in items if i], number
    return None


def render(page: Page, agent: Agent, token: str, target: str) -> str:
    """The page as ``agent`` sees it, relative paths re-aimed at ``target`` (no notice)."""
    kept = select(page, agent.id)
    body = "\n".join(line.text for line in kept if not AGENT_GUIDE_IMPORT.match(line.text))
    body = rewrite_paths(body.replace(token, agent.cli), page.path, target)
    head = (
        f"---\n{page.frontmatter.replace(token, agent.cli)}\n---\n" if page.has_frontmatter else ""
    )
    return collapse_blank_runs(head + body)


def check(page: Page, agents: Sequence[Agent], token: str) -> None:
    """Every problem that would make some variant wrong, raised at once."""
    problems = leftover_token(page, token, [a.id for a in agents])
    for line in page.body:
        match = RUNTIME_COMPONENTS.search(line.text)
        if match:
            problems.append(
                Problem(
                    f"runtime component <{match[1]}> is not resolved in "
                    "variants: write the CLI token or literal text instead",
                    Location(page.path, line.number),
                )
            )
    if page.blocks:  # without blocks every agent sees every section
        source = _sections(list(page.body))
        for agent in agents:
            problems += empty_sections(page, select(page, agent.id), agent.id, source)
    if problems:
        raise PageError(problems)


def is_shared(text: str, token: str) -> bool:
    """A hand-written page is shared when it uses the token, AgentOnly or agent-variants."""
    return token in text or "AgentOnly" in text or "\nagent-variants:" in text
