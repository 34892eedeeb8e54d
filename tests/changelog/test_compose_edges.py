"""`docgen changelog` at its edges, exactly: the closing link's page when it is no UTF-8 or
is listed outside the default agent's variant, where a rule broken by docgen's own words
is placed, the left-out kinds of an empty release, a project's bullet template linked from
elsewhere in the root, a profile named ``launcher``, and a link to the release's own page
under the navigation's changelog node."""

from __future__ import annotations

import os

from conftest import CHANGELOG_DRY_RUN, MINIMAL_REGISTRY

TUNED = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")
DRY_RUN = CHANGELOG_DRY_RUN
HEAD = "## v0.1.0\n\nAcme v0.1.0 updates the managed vLLM serving profiles for Big Box.\n\n"
BULLET = (
    "- The single-node Big Box `acme/Tiny-1B` profile now uses "
    "`--gpu-memory-utilization 0.6` instead of `--gpu-memory-utilization 0.5`.\n"
)
ENTRY = "changelog/2026-12-01.mdx"


def tuned_project(make_project, files: dict[str, str] | None = None, registry: str = TUNED):
    old = files.pop("old.yaml") if files and "old.yaml" in files else MINIMAL_REGISTRY
    return make_project(registry=registry, files={"old.yaml": old, **(files or {})})


# -- the closing link's page -----------------------------------------------------------------


def test_a_link_page_that_is_not_utf8_is_an_error_at_the_path_the_setting_gives(make_project, run):
    """The page is named as ``changelog_link`` writes it, not as the file system does."""
    project = tuned_project(make_project, {"docgen.toml": 'changelog_link = "./docs/faq.mdx"\n'})
    project.write("templates/faq.mdx.j2", "Text.\n")
    (project.root / "docs").mkdir()
    (project.root / "docs/faq.mdx").write_bytes(b'---\ntitle: "F\xffQ"\n---\n')
    result = run(project, *DRY_RUN)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "./docs/faq.mdx:2:10: error: invalid UTF-8 byte 0xff in the page\n"


def test_the_link_goes_to_the_route_of_the_page_however_the_setting_spells_it(make_project, run):
    """``./docs/./faq.mdx`` is the page ``docs/faq.mdx``: its route is that page's, not
    ``/guide/alpha/./docs/./faq``, which no page has."""
    project = tuned_project(make_project, {"docgen.toml": 'changelog_link = "./docs/./faq.mdx"\n'})
    project.write("templates/faq.mdx.j2", "Text.\n")
    assert run(project, "build").exit_code == 0
    result = run(project, *DRY_RUN)
    assert (result.exit_code, result.stderr) == (0, "")
    assert (
        result.stdout
        == f"{HEAD}{BULLET}  For more information, refer to [faq](/guide/alpha/faq).\n"
    )


NAV_WITHOUT_VARIANTS = (
    "navigation:\n  - page: Frequently Asked\n    path: faq.mdx\n    slug: help\n"
)


def test_without_variants_the_link_goes_where_the_navigation_lists_the_page(make_project, run):
    """No variant of the navigation is the default agent's: the page's own listing gives
    the route, not the one docgen would derive (/guide/alpha/faq)."""
    project = tuned_project(
        make_project,
        {
            "docgen.toml": 'changelog_link = "docs/faq.mdx"\n',
            "docs/index.yml": NAV_WITHOUT_VARIANTS,
        },
    )
    project.write("templates/faq.mdx.j2", "Text.\n")
    result = run(project, *DRY_RUN)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == f"{HEAD}{BULLET}  For more information, refer to [faq](/help).\n"


# -- where a rule broken by docgen's own words is placed -------------------------------------


def test_a_rule_the_first_pages_title_breaks_stays_at_the_entrys_line_without_the_setting(
    make_project, run
):
    """No ``changelog_link`` is set: the link line is docgen's choice, not a setting's."""
    project = tuned_project(
        make_project, {"docs/models.mdx": '---\ntitle: "AgentOnly Models"\n---\n'}
    )
    result = run(project, *DRY_RUN)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"{ENTRY}:11: error: <AgentOnly> is not resolved in changelog entries "
        "(in the release docgen would write)\n"
    )


def test_a_rule_a_bullets_first_line_breaks_is_not_blamed_on_the_link_setting(make_project, run):
    """Only the line that holds the chosen link comes from ``changelog_link``; the line
    above it is docgen's wording of the registry."""
    registry = TUNED.replace("acme/Tiny-1B", "acme/AgentOnly-1B")
    project = tuned_project(
        make_project,
        {
            "old.yaml": MINIMAL_REGISTRY.replace("acme/Tiny-1B", "acme/AgentOnly-1B"),
            "docgen.toml": 'changelog_link = "docs/models.mdx"\n',
        },
        registry=registry,
    )
    result = run(project, *DRY_RUN)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"{ENTRY}:10: error: <AgentOnly> is not resolved in changelog entries "
        "(in the release docgen would write)\n"
    )


# -- what a release holds ----------------------------------------------------------------------


def test_nothing_to_release_lists_each_kind_left_out(make_project, run):
    registry = MINIMAL_REGISTRY.replace("name: Big Box", "name: Huge Box").replace(
        "title: Acme for Beta", "title: Acme for Gamma"
    )
    project = tuned_project(make_project, registry=registry)
    result = run(project, *DRY_RUN)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "profiles.yaml: error: nothing to release: the registry has no change a release "
        "describes since that state (2 left out of releases: agent-changed, host-changed) "
        "and changelog.d/ holds no notes\n"
    )


def test_a_bullet_template_linked_from_elsewhere_in_the_root_is_read(make_project, run):
    """The project's own ``_changelog/bullet.mdx.j2`` is a link to a file of the project
    outside the templates folder: inside the root, so it is read."""
    project = tuned_project(make_project, {"shared/bullet.mdx.j2": "Tuned {{ group.subject }}.\n"})
    (project.root / "templates/_changelog").mkdir()
    os.symlink("../../shared/bullet.mdx.j2", project.root / "templates/_changelog/bullet.mdx.j2")
    result = run(project, *DRY_RUN)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == f"{HEAD}- Tuned vllm.box.tiny.\n"


LAUNCHED = MINIMAL_REGISTRY.replace("  vllm.box.tiny:", "  launcher:") + (
    "launcher:\n  shared_args: {port: 8000}\n"
)


def test_a_profile_named_launcher_and_the_launcher_get_a_bullet_each(make_project, run):
    registry = LAUNCHED.replace(
        "gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6"
    ).replace("port: 8000", "port: 8001")
    project = tuned_project(make_project, {"old.yaml": LAUNCHED}, registry=registry)
    result = run(project, *DRY_RUN)
    assert (result.exit_code, result.stderr) == (0, "")
    link = "  For more information, refer to [models](/guide/alpha/models).\n"
    assert result.stdout == (
        f"{HEAD}{BULLET}{link}"
        "- Managed profiles now start vLLM with `--port 8001` instead of `--port 8000`.\n"
        f"{link}"
    )


NAV_WITH_RELEASES = (
    "navigation:\n  - page: Models\n    path: models.mdx\n"
    "  - changelog: ../changelog\n    title: Release Notes\n"
)


def test_a_note_may_link_to_the_releases_own_page_under_the_navigations_changelog(
    make_project, run
):
    """The navigation publishes the entries under /release-notes: the new release's page
    there is a route its links may name, before the entry exists."""
    project = tuned_project(
        make_project,
        {
            "docs/index.yml": NAV_WITH_RELEASES,
            "changelog.d/a.md": "See [the day's notes](/release-notes/2026/12/1).\n",
        },
    )
    result = run(project, *DRY_RUN)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        f"{HEAD}{BULLET}  For more information, refer to [models](/models).\n"
        "- See [the day's notes](/release-notes/2026/12/1).\n"
    )


def test_a_link_the_setting_chose_that_no_route_publishes_is_blamed_on_the_setting(
    make_project, run
):
    """The page exists, but the navigation does not list it: the bullet's closing link
    resolves to no published route, and the error stands at the setting that chose it."""
    nav = "navigation:\n  - page: Models\n    path: models.mdx\n"
    project = tuned_project(
        make_project,
        {"docgen.toml": 'changelog_link = "docs/faq.mdx"\n', "docs/index.yml": nav},
    )
    project.write("docs/faq.mdx", "---\ntitle: FAQ\n---\n\nAnswers.\n")
    result = run(project, *DRY_RUN)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "docgen.toml:1:1: error: link '/guide/alpha/faq' does not resolve to a page the "
        "project publishes\n"
    )


def test_the_overview_links_releases_to_a_changelog_node_outside_every_variant(make_project, run):
    """A navigation without variants publishes the entries where its changelog node says,
    for every agent: the overview links each release there (not to the release_route
    setting's route, which nothing publishes)."""
    entry = (
        "{/*\n * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.\n"
        " * SPDX-License-Identifier: Apache-2.0\n */}\n\n"
        "## v1.0.0\n\nAcme v1.0.0 tunes the Big Box profile.\n\n- It uses less memory.\n"
    )
    project = make_project(
        files={"docs/index.yml": NAV_WITH_RELEASES, "changelog/2026-01-02.mdx": entry}
    )
    assert run(project, "build").exit_code == 0
    assert "[v1.0.0](/release-notes/2026/1/2)" in project.read("changelog/overview.mdx")
    assert run(project, "check").exit_code == 0
