"""Navigation behaviour this session added that no test pinned: where a title that
gives a segment no link reaches stands (a tab's, a variant's), every stale file the
navigation lists, and a layout for no agent left to its author."""

from __future__ import annotations

import pytest
from test_navigation_plan import BUILT, SHARED, nav

from docgen import navigation
from docgen.config import load_project
from docgen.errors import ConfigError

#: How a route segment no link reaches is refused (after its route and segment).
NO_LINK = (
    "which no link reaches (docgen links to each release under it): give the node a slug "
    "of letters, digits, '-', '_', '.' and '~', starting with a letter or digit"
)
TAB = "tabs:\n  t:\n    display-name: {name}\nnavigation:\n  - tab: t\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            TAB.format(name="日本語") + "    layout:\n      - changelog: ../changelog\n",
            f"docs/index.yml:3:19: error: the route /日本語/changelog holds '日本語', {NO_LINK}",
        ),
        (
            TAB.format(name="T") + "    variants:\n      - title: 日本語\n        layout:\n"
            "          - changelog: ../changelog\n",
            f"docs/index.yml:7:16: error: the route /t/日本語/changelog holds '日本語', {NO_LINK}",
        ),
        (
            "tabs:\n  u: {}\nnavigation:\n  - tab: u\n    layout:\n"
            '      - section: "!!!"\n        contents:\n          - changelog: ../changelog\n',
            f"docs/index.yml:6:18: error: the route /u//changelog holds '', {NO_LINK}",
        ),
    ],
    ids=["tab-display-name", "variant-title", "section-under-a-tab-without-a-title"],
)
def test_a_segment_no_link_reaches_is_refused_at_the_title_that_gives_it(
    make_project, text, message
):
    """At the tab's display name or the variant's title, not the changelog node; a tab
    with no display name gives its id, so the section's title is the one to blame."""
    project = make_project(files={"docs/index.yml": text})
    with pytest.raises(ConfigError) as caught:
        navigation.load(load_project(project.root))
    assert str(caught.value).startswith(message)


def test_every_listed_variant_of_renamed_pages_is_reported(make_project, run):
    """Two renamed pages whose variants the navigation lists: two errors in one run."""
    files = {"docs/guide.mdx": SHARED, "docs/tour.mdx": SHARED}
    project = make_project(files={**files, "docs/index.yml": nav(["guide", "tour"], [])})
    assert run(project, "build").exit_code == 0
    for name in ("guide", "tour"):
        (project.root / f"docs/{name}.mdx").rename(project.root / f"docs/{name}-new.mdx")
    result = run(project, "check")
    assert result.exit_code == 2
    assert [line.split(": error: ")[0] for line in result.stderr.splitlines()] == [
        "docs/index.yml:8:19",
        "docs/index.yml:10:19",
    ]


def test_a_layout_for_no_agent_may_list_an_agents_variant(make_project, run):
    """Only an agent's own layout is checked for another agent's variant."""
    gamma = (
        "      - title: Gamma\n        slug: gamma\n        layout:\n"
        f"          - page: Guide\n            path: {BUILT[5:]}/guide.alpha.generated.mdx\n"
    )
    text = nav(["guide"], [], gamma)
    project = make_project(files={"docs/guide.mdx": SHARED, "docs/index.yml": text})
    assert run(project, "build").exit_code == 0
    assert run(project, "check").exit_code == 0


def test_a_segment_is_refused_at_the_node_on_the_changelogs_route(make_project):
    """Two sections of one title beyond ASCII: the error named the first, which holds no
    changelog, rather than the one on the changelog's route."""
    text = (
        "navigation:\n  - section: 日本語\n    contents:\n      - page: A\n        path: a.mdx\n"
        "  - section: 日本語\n    contents:\n      - changelog: ../changelog\n"
    )
    project = make_project(files={"docs/index.yml": text})
    with pytest.raises(ConfigError) as caught:
        navigation.load(load_project(project.root))
    assert str(caught.value).startswith("docs/index.yml:6:14: error: the route /日本語/changelog")
