"""The agent variants of a shared page as outputs, and the agents it is published for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docgen.config import Project, variant_path
from docgen.errors import Location
from docgen.outputs import Output
from docgen.registry.model import Agent, Registry
from docgen.render.syntax import notice, with_notice

if TYPE_CHECKING:
    from docgen.navigation import Navigation
    from docgen.render.variants import Page


def page_variants(
    project: Project,
    reg: Registry,
    nav: Navigation | None,
    source: str,
    text: str,
    edited: str,
    profile: str | None = None,
) -> tuple[tuple[Output, ...], tuple[str, ...]]:
    """The agent variants of one shared page (none for a page that cannot vary) and the
    agents it is published for: with a navigation, the agents whose variant lists the
    page's generated path (or, for a per-profile page, holds the ``profiles`` region).
    Their notice names the file a person ``edited``; ``profile``: a per-profile page's."""
    from docgen.render import variants
    from docgen.render.audience import check_listed, published_for

    token = reg.product.cli_token
    per_profile = profile is not None
    page = variants.parse(source, text, reg.agents)
    audience = published_for(page, reg.agents)
    if nav is not None:
        listed = [
            a
            for a in reg.agents
            if nav.lists(a.id, variant_path(project, source, a.id))
            or (per_profile and nav.has_region(a.id, "profiles"))
        ]
        check_listed(page, audience, listed, nav.path)
        audience = listed
    variants.check(page, audience, token)
    ids = tuple(a.id for a in audience)
    if len(audience) < 2 and token not in text and "<AgentOnly" not in text:
        return (), ids
    return tuple(_variant(project, reg, page, agent, source, edited) for agent in audience), ids


def _variant(
    project: Project, reg: Registry, page: Page, agent: Agent, source: str, edited: str
) -> Output:
    """``agent``'s variant of ``page``, its notice naming the file a person ``edited``."""
    from docgen.render import variants

    target = variant_path(project, source, agent.id)
    body = variants.render(page, agent, reg.product.cli_token, target)
    note = notice(f"{edited} (the {agent.id} variant)", reg.path)
    noticed = with_notice(body, note, Location(edited, 1), target)
    return Output(target, noticed, source, (), "variant")
