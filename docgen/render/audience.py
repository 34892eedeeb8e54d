"""Which agents a shared page is published for: the agents its ``agent-variants`` list
names (every agent without one), and, with a Fern navigation, the agents whose variant
lists it, which that list must then agree with."""

from __future__ import annotations

import re
from collections.abc import Sequence

from docgen.errors import Location, PageError, Problem, known_as
from docgen.registry.model import Agent
from docgen.render import frontmatter
from docgen.render.variants import Page

_KEY = "agent-variants"
#: The line that holds the key (plain, or quoted as YAML allows).
_KEY_LINE = re.compile(r"""(?:agent-variants|"agent-variants"|'agent-variants')[ \t]*:""")


def published_for(page: Page, agents: Sequence[Agent]) -> list[Agent]:
    """The agents a page is published for: its ``agent-variants`` list, or every agent."""
    declared = _declared_agents(page)
    if declared is None:
        return list(agents)
    ids, where = declared
    known = {a.id: a for a in agents}
    problems = [
        Problem(
            f"agent-variants names unknown agent '{a}'{known_as(a, known, 'the agents')}",
            where,
        )
        for a in ids
        if a not in known
    ]
    if not ids:
        problems.append(Problem("agent-variants names no agent", where))
    if problems:
        raise PageError(problems)
    return [known[a] for a in ids]


def check_listed(
    page: Page, declared: Sequence[Agent], listed: Sequence[Agent], navigation: str
) -> None:
    """A page's ``agent-variants`` list, when it has one, names exactly the agents whose
    variant the navigation lists it for."""
    found = _declared_agents(page)
    if found is None or {a.id for a in declared} == {a.id for a in listed}:
        return
    names = ", ".join(a.id for a in listed) or "no agent"
    raise PageError(
        Problem(
            f"agent-variants names {', '.join(a.id for a in declared)}, but {navigation} "
            f"lists this page's variant for {names}: make them agree",
            found[1],
        )
    )


def _declared_agents(page: Page) -> tuple[list[str], Location] | None:
    """The agents a page's ``agent-variants`` list names (any YAML list of agent ids, each
    once), and where that key stands; None for a page without one."""
    if _KEY not in page.frontmatter:  # most pages: no YAML to read
        return None
    meta = frontmatter.read(page.frontmatter, page.path)
    if _KEY not in meta.data:
        return None
    where = meta.key_location(_KEY) or _key_line(page)
    ids = meta.data[_KEY]
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise PageError.at(
            where, 'agent-variants must be a list of agent ids, like ["openclaw", "hermes"]'
        )
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise PageError.at(where, f"agent-variants names '{twice[0]}' more than once")
    return ids, where


def _key_line(page: Page) -> Location:
    """The line that holds the key, found by its text (ruamel.yaml, which read the
    frontmatter, keeps no positions): the first line that starts with it."""
    lines = enumerate(page.frontmatter.split("\n"), frontmatter.FIRST_LINE)
    number = next((n for n, line in lines if _KEY_LINE.match(line)), frontmatter.FIRST_LINE)
    return Location(page.path, number)
