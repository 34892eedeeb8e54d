"""With a Fern navigation, it decides what docgen publishes: a shared page gets a variant
exactly for the agents whose layout lists its generated path (others are pruned), an
``agent-variants`` list must agree with it, changelog links are checked against the
routes it lists, and an edit to it reaches a warm cache as it reaches a cold one."""

from __future__ import annotations

import shutil

SHARED = """\
---
title: "Guide"
---

Set it up.

<AgentOnly variant="alpha">
Alpha agents also read this.
</AgentOnly>
"""
BUILT = "docs/_build/agent-variants"


def nav(alpha: list[str], beta: list[str], extra: str = "") -> str:
    """A navigation whose alpha and beta variants list the given generated pages."""

    def layout(agent: str, pages: list[str]) -> str:
        items = "".join(
            f"          - page: {page.title()}\n"
            f"            path: _build/agent-variants/{page}.{agent}.generated.mdx\n"
            for page in pages
        )
        return items or "          - page: Models\n            path: models.mdx\n"

    return (
        "navigation:\n  - tab: guide\n    variants:\n"
        f"      - title: Alpha\n        slug: alpha\n        layout:\n{layout('alpha', alpha)}"
        f"      - title: Beta\n        slug: beta\n        layout:\n{layout('beta', beta)}"
        f"{extra}"
    )


def test_a_shared_page_gets_a_variant_only_where_the_navigation_lists_it(make_project, run):
    project = make_project(files={"docs/guide.mdx": SHARED, "docs/index.yml": nav(["guide"], [])})
    built = run(project, "build")
    assert built.exit_code == 0, built.output
    assert (project.root / f"{BUILT}/guide.alpha.generated.mdx").is_file()
    assert not (project.root / f"{BUILT}/guide.beta.generated.mdx").exists()
    assert run(project, "check").exit_code == 0


def test_a_profiles_region_does_not_publish_a_shared_page_its_variant_does_not_list(
    make_project, run
):
    """A ``profiles`` region lists per-profile pages only: beta's layout holds one but not
    the shared guide, so the guide gets no beta variant."""
    beta_models = "          - page: Models\n            path: models.mdx\n"
    region = "          # docgen:begin profiles\n          # docgen:end\n"
    layout = nav(["guide"], [])
    assert layout.endswith(beta_models)
    project = make_project(
        templates={"profiles/[profile].mdx.j2": '---\ntitle: "T"\n---\n\nThe same for all.\n'},
        files={"docs/guide.mdx": SHARED, "docs/index.yml": layout + region},
    )
    built = run(project, "build")
    assert built.exit_code == 0, built.output
    assert "Alpha agents also read this." in project.read(f"{BUILT}/guide.alpha.generated.mdx")
    assert not (project.root / f"{BUILT}/guide.beta.generated.mdx").exists()
    assert "path: profiles/vllm.box.tiny.mdx\n" in project.read("docs/index.yml")
    assert run(project, "check").exit_code == 0


def test_a_variant_the_navigation_drops_is_pruned(make_project, run):
    project = make_project(
        files={"docs/guide.mdx": SHARED, "docs/index.yml": nav(["guide"], ["guide"])}
    )
    assert run(project, "build").exit_code == 0
    assert (project.root / f"{BUILT}/guide.beta.generated.mdx").is_file()
    project.write("docs/index.yml", nav(["guide"], []))
    checked = run(project, "check")
    assert checked.exit_code == 1
    assert f"{BUILT}/guide.beta.generated.mdx:1:1: error: stale" in checked.stdout
    built = run(project, "build")
    assert f"delete {BUILT}/guide.beta.generated.mdx" in built.stdout
    assert not (project.root / f"{BUILT}/guide.beta.generated.mdx").exists()
    assert run(project, "check").exit_code == 0


def test_a_warm_cache_sees_a_navigation_edit_as_a_cold_one_does(make_project, run):
    project = make_project(
        files={"docs/guide.mdx": SHARED, "docs/index.yml": nav(["guide"], ["guide"])}
    )
    assert run(project, "build").exit_code == 0
    assert run(project, "check").exit_code == 0  # warm
    project.write("docs/index.yml", nav(["guide"], []))
    warm = run(project, "check")
    shutil.rmtree(project.root / ".docgen-cache")
    cold = run(project, "check")
    assert (warm.exit_code, warm.stdout) == (cold.exit_code, cold.stdout) == (1, cold.stdout)


def test_agent_variants_must_agree_with_the_navigation(make_project, run):
    declared = SHARED.replace('title: "Guide"', 'title: "Guide"\nagent-variants: ["alpha", "beta"]')
    project = make_project(files={"docs/guide.mdx": declared, "docs/index.yml": nav(["guide"], [])})
    result = run(project, "build")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "docs/guide.mdx:3:1: error: agent-variants names alpha, beta, but docs/index.yml lists "
        "this page's variant for alpha: make them agree\n"
    )


def test_agent_variants_naming_fewer_agents_than_the_navigation_lists_is_refused_too(
    make_project, run
):
    """The navigation lists the page for both agents, the page names alpha alone: a build
    would publish a beta variant the page says it has none of."""
    declared = SHARED.replace('title: "Guide"', 'title: "Guide"\nagent-variants: ["alpha"]')
    files = {"docs/guide.mdx": declared, "docs/index.yml": nav(["guide"], ["guide"])}
    project = make_project(files=files)
    result = run(project, "build")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "docs/guide.mdx:3:1: error: agent-variants names alpha, but docs/index.yml lists "
        "this page's variant for alpha, beta: make them agree\n"
    )


def test_agent_variants_is_located_at_its_line_when_ruamel_reads_the_frontmatter(make_project, run):
    """An alias makes libyaml's fast path decline the frontmatter; ruamel.yaml keeps no
    positions, so the key's line is found by its text (line 4 here, not the line after)."""
    declared = SHARED.replace(
        'title: "Guide"', 'title: &t "Guide"\nother: *t\nagent-variants: [alpha, alpha]'
    )
    project = make_project(files={"docs/guide.mdx": declared, "docs/index.yml": nav(["guide"], [])})
    result = run(project, "build")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "docs/guide.mdx:4: error: agent-variants names 'alpha' more than once\n"
    )


def test_changelog_links_are_checked_against_the_routes_the_navigation_lists(make_project, run):
    entry = (
        "## v0.1.0\n\nAcme v0.1.0 adds a guide.\n\n"
        "- See [the guide](/guide/alpha/guide) and [the beta guide](/guide/beta/guide).\n"
    )
    project = make_project(
        files={
            "docs/guide.mdx": SHARED,
            "docs/index.yml": nav(["guide"], []),
            "changelog/2026-01-02.mdx": entry,
        }
    )
    run(project, "build")
    checked = run(project, "check")
    problems = [line for line in checked.stdout.splitlines() if "/guide/" in line]
    assert len(problems) == 1 and "'/guide/beta/guide'" in problems[0], checked.stdout


def test_release_pages_are_where_the_fern_changelog_node_publishes_them(make_project, run):
    node = "          - changelog: ./changelog\n            title: Release Notes\n"
    text = nav(["guide"], ["guide"]).replace("        layout:\n", "        layout:\n" + node)
    entry = (
        "## v0.1.0\n\nAcme v0.1.0 adds a guide.\n\n"
        "- See [this release](/guide/beta/release-notes/2026/1/2) and "
        "[no release](/guide/beta/release-notes/2026/1/3).\n"
    )
    project = make_project(
        files={
            "docs/guide.mdx": SHARED,
            "docs/index.yml": text,
            "docgen.toml": 'changelog = "docs/changelog"\noverview = "none"\n',
            "docs/changelog/2026-01-02.mdx": entry,
        }
    )
    run(project, "build")
    checked = run(project, "check")
    problems = [line for line in checked.stdout.splitlines() if "release-notes" in line]
    assert len(problems) == 1 and "'/guide/beta/release-notes/2026/1/3'" in problems[0], (
        checked.stdout
    )


def test_a_releases_closing_link_is_where_the_navigation_lists_the_page(make_project, run):
    from conftest import CHANGELOG_DRY_RUN, MINIMAL_REGISTRY

    tuned = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")
    text = nav(["guide"], ["guide"]).replace(
        "title: Alpha\n        slug: alpha", "title: A\n        slug: alpha"
    )
    text = text.replace(
        "          - page: Guide\n",
        "          - section: Deep\n            contents:\n              - page: Guide\n",
        1,
    )
    text = text.replace(
        "            path: _build/agent-variants/guide.alpha",
        "                path: _build/agent-variants/guide.alpha",
        1,
    )
    project = make_project(
        registry=tuned,
        files={
            "docs/guide.mdx": SHARED,
            "docs/index.yml": text,
            "old.yaml": MINIMAL_REGISTRY,
            "docgen.toml": 'changelog_link = "docs/guide.mdx"\n',
        },
    )
    assert run(project, "build").exit_code == 0
    result = run(project, *CHANGELOG_DRY_RUN)
    assert result.exit_code == 0, result.output
    assert "refer to [Guide](/guide/alpha/deep/guide)." in result.stdout


def test_the_preview_follows_a_link_to_a_route_the_navigation_publishes(make_project):
    from docgen.config import load_project
    from docgen.integrations.preview import build_site
    from docgen.plan import plan

    text = nav(["guide"], ["guide"]).replace(
        "          - page: Guide\n", "          - page: Guide\n            slug: start-here\n"
    )
    other = "---\ntitle: Other\n---\n\nRead [the guide](/guide/alpha/start-here#top).\n"
    text += "  - page: Other\n    path: other.mdx\n"
    project = make_project(
        files={"docs/guide.mdx": SHARED, "docs/index.yml": text, "docs/other.mdx": other}
    )
    loaded = load_project(project.root)
    site = build_site(loaded, plan(loaded))
    [page] = [p for p in site.pages if p.uri == "alpha/other.md"]
    assert "[the guide](guide.md#top)" in page.markdown
    assert list(site.unresolved) == []


def test_the_overview_links_each_release_where_the_changelog_node_publishes_it(make_project, run):
    node = "          - changelog: ./changelog\n            slug: notes\n"
    text = nav(["guide"], ["guide"]).replace("        layout:\n", "        layout:\n" + node)
    project = make_project(
        files={
            "docs/guide.mdx": SHARED,
            "docs/index.yml": text,
            "docgen.toml": 'changelog = "docs/changelog"\n',
            "docs/changelog/2026-01-02.mdx": "## v0.1.0\n\nAcme v0.1.0 adds a guide.\n",
        }
    )
    run(project, "build")
    overview = project.read("docs/changelog/overview.mdx")
    assert "- [v0.1.0](/guide/alpha/notes/2026/1/2) (2026-01-02)" in overview


def test_a_shared_page_the_navigation_lists_as_it_is_is_refused(make_project, run):
    # Published at its own path, the page would show its <AgentOnly> tags (or the CLI
    # token) literally: only its variants resolve them.
    listed = nav(["guide"], []).replace(
        "          - page: Models\n            path: models.mdx\n",
        "          - page: Guide\n            path: guide.mdx\n",
    )
    project = make_project(files={"docs/guide.mdx": SHARED, "docs/index.yml": listed})
    for command in ("build", "check"):
        result = run(project, command)
        assert (result.exit_code, result.stdout) == (2, ""), result.output
        assert result.stderr == (
            "docs/guide.mdx:7: error: docs/index.yml lists this page as it is (line 13), but "
            "it holds an <AgentOnly> block, which only its agent variants resolve: list a "
            "variant's path instead, or write the text literally\n"
        )
    assert not (project.root / BUILT).exists()
    plain = SHARED.replace("<AgentOnly", "<Note").replace("</AgentOnly>", "</Note>")
    project.write("docs/guide.mdx", plain.replace('variant="alpha"', ""))
    variant = "            path: _build/agent-variants/guide.alpha.generated.mdx\n"
    project.write("docs/index.yml", listed.replace(variant, "            path: guide.mdx\n"))
    assert run(project, "build").exit_code == 0


def test_a_navigation_without_a_changelog_node_publishes_no_release_page(make_project, run):
    # The entries are history nobody can reach at a release route: a link to one is
    # refused, and the overview names each release without a link.
    entry = (
        "{/*\n * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.\n"
        " * SPDX-License-Identifier: Apache-2.0\n */}\n\n"
        "## v0.1.0\n\nAcme v0.1.0 adds a guide.\n\n"
        "- See [this release](/guide/alpha/release-notes/2026/1/2).\n"
    )
    project = make_project(
        files={
            "docs/guide.mdx": SHARED,
            "docs/index.yml": nav(["guide"], []),
            "docgen.toml": 'changelog = "docs/changelog"\n',
            "docs/changelog/2026-01-02.mdx": entry,
        }
    )
    built = run(project, "build")
    assert built.exit_code == 1, built.output
    assert built.stderr == (
        "docs/changelog/2026-01-02.mdx:10:22: error: link '/guide/alpha/release-notes/2026/1/2' "
        "does not resolve to a page the project publishes\n"
    )
    overview = project.read("docs/changelog/overview.mdx")
    assert "- v0.1.0 (2026-01-02): Acme v0.1.0 adds a guide." in overview
    assert "release-notes" not in overview


def _release_site(make_project, navigation: str, link: str):
    """The preview of a project whose navigation is ``navigation`` plus a top-level page
    ``other.mdx`` that links to ``link``, with one entry in docs/changelog/."""
    from docgen.config import load_project
    from docgen.integrations.preview import build_site
    from docgen.plan import plan

    text = navigation + "  - page: Other\n    path: other.mdx\n"
    project = make_project(
        files={
            "docs/guide.mdx": SHARED,
            "docs/other.mdx": f"---\ntitle: Other\n---\n\nRead [the release]({link}).\n",
            "docs/index.yml": text,
            "docgen.toml": 'changelog = "docs/changelog"\noverview = "none"\n',
            "docs/changelog/2026-01-02.mdx": "## v0.1.0\n\nAcme v0.1.0 adds a guide.\n",
        }
    )
    loaded = load_project(project.root)
    return build_site(loaded, plan(loaded))


def test_the_preview_shows_a_release_where_the_changelog_node_publishes_it(make_project):
    """Only the alpha layout holds a changelog node: alpha's section has the release page
    at the node's route, beta's has none, and a link to that route leads to it."""
    node = "          - changelog: ./changelog\n            slug: notes\n"
    text = nav(["guide"], ["guide"]).replace("        layout:\n", "        layout:\n" + node, 1)
    site = _release_site(make_project, text, "/guide/alpha/notes/2026/1/2")
    assert [p.uri for p in site.pages if "/notes/" in p.uri] == ["alpha/notes/2026/1/2.md"]
    [page] = [p for p in site.pages if p.uri == "alpha/other.md"]
    assert "[the release](notes/2026/1/2.md)" in page.markdown
    assert list(site.unresolved) == []


def test_a_changelog_node_outside_the_variants_is_every_sections_at_its_route(make_project):
    """Its release page is every agent's, at the node's route; a link to that route from
    one section's page leads to that section's copy."""
    text = nav(["guide"], ["guide"]) + "  - changelog: ./changelog\n    slug: all-releases\n"
    site = _release_site(make_project, text, "/all-releases/2026/1/2")
    assert sorted(p.uri for p in site.pages if "/all-releases/" in p.uri) == [
        "alpha/all-releases/2026/1/2.md",
        "beta/all-releases/2026/1/2.md",
    ]
    for agent in ("alpha", "beta"):
        [page] = [p for p in site.pages if p.uri == f"{agent}/other.md"]
        assert "[the release](all-releases/2026/1/2.md)" in page.markdown
    assert list(site.unresolved) == []
