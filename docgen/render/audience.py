"""Which agents a shared page is published for: the agents its ``agent-variants`` list
names (every agent without one), and, with a Fern navigation, the agents whose variant
lists it, which that list must then agree with."""

from __future__ import annotations

from collections.abc import Sequence

from docgen.errors import Location, PageError, Problem, did_you_mean
from docgen.registry.model import Agent
from docgen.render.variants import Page


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
            Location(page.path, found[1]),
        )
    )


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
