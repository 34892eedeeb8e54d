"""The agent variants of a shared page as outputs, and the agents it is published for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docgen.config import Project, variant_path
from docgen.errors import Location, PageError, Problem
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
        _refuse_listed_as_is(nav, page, token)
        audience = listed
    variants.check(page, audience, token)
    ids = tuple(a.id for a in audience)
    if len(audience) < 2 and token not in text and "<AgentOnly" not in text:
        return (), ids
    return tuple(_variant(project, reg, page, agent, source, edited) for agent in audience), ids


def _refuse_listed_as_is(nav: Navigation, page: Page, token: str) -> None:
    """A page the navigation lists as it is must not hold what only its variants resolve:
    the CLI token or an ``<AgentOnly>`` block would be published literally."""
    listed = nav.listed(page.path)
    body = page.body_text
    offset = min((i for i in (body.find(token), body.find("<AgentOnly")) if i != -1), default=-1)
    if not listed or offset == -1:
        return
    what = "an <AgentOnly> block" if body.startswith("<AgentOnly", offset) else f"'{token}'"
    raise PageError(
        Problem(
            f"{nav.path} lists this page as it is (line {listed[0].where.line}), but it holds "
            f"{what}, which only its agent variants resolve: list a variant's path "
            "instead, or write the text literally",
            Location(page.path, page.line_of(offset)),
        )
    )


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
