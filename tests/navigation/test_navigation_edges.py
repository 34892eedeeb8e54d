"""What mutation testing found unpinned in the navigation: the item limit's edge, which
variant lists a page, a region's path outside the navigation's folder, misplaced markers,
and a redirect source that must match the whole route."""

from __future__ import annotations

import pytest
from test_navigation_plan import BUILT, SHARED, nav
from test_navigation_read import nav_of
from test_redirects import routes

from docgen import navigation
from docgen.errors import ConfigError


def pages(count: int) -> str:
    """A navigation of ``count`` pages, one item each."""
    return "navigation:\n" + "".join(f"  - page: P{i}\n    path: p{i}.mdx\n" for i in range(count))


SAME_FOR_ALL = '---\ntitle: "T"\n---\n\nSame for every agent.\n'
REGION = (
    "navigation:\n  - section: Profiles\n    contents:\n"
    "      # docgen:begin profiles\n      # docgen:end\n"
)


def test_a_navigation_may_list_exactly_as_many_items_as_the_limit(make_project, monkeypatch):
    """The limit is the most items a navigation lists: one more is the located error."""
    monkeypatch.setattr(navigation, "MAX_ITEMS", 3)
    assert len(nav_of(make_project, pages(3)).pages) == 3
    with pytest.raises(ConfigError) as caught:
        navigation.read(pages(4), "docs/index.yml")
    assert str(caught.value).startswith(
        "docs/index.yml:8:5: error: the navigation lists more than 3 items and variants"
    )


def _refused_listing(project, run, path: str, why: str) -> None:  # type: ignore[no-untyped-def]
    """Both commands refuse the navigation entry at line 8 of ``nav()`` and change nothing."""
    before = project.snapshot()
    for command in ("check", "build"):
        result = run(project, command)
        assert (result.exit_code, result.stderr) == (
            2,
            f"docs/index.yml:8:19: error: docs/index.yml lists {BUILT}/{path}{why}\n",
        )
    assert project.snapshot() == before


FOR = ": list the variant of the agent whose layout it is"


def test_a_variant_listed_only_in_another_agents_layout_is_a_located_error(make_project, run):
    """Beta's variant path in alpha's layout published the page for neither agent, and
    listed a file nothing makes (Fern fails on it), while build and check passed."""
    text = nav(["guide"], []).replace("guide.alpha.generated", "guide.beta.generated")
    project = make_project(files={"docs/guide.mdx": SHARED, "docs/index.yml": text})
    why = ", beta's variant of docs/guide.mdx, in the alpha layout"
    _refused_listing(project, run, "guide.beta.generated.mdx", why + FOR)
    assert not (project.root / BUILT).exists()


def test_another_agents_variant_in_a_layout_is_a_located_error(make_project, run):
    """Beta's variant in alpha's layout as well as beta's: alpha's readers got beta's
    text (without alpha's own block), and build and check passed."""
    text = nav(["guide"], ["guide"]).replace("guide.alpha.generated", "guide.beta.generated", 1)
    project = make_project(files={"docs/guide.mdx": SHARED, "docs/index.yml": text})
    why = ", another agent's variant, in the alpha layout"
    _refused_listing(project, run, "guide.beta.generated.mdx", why + FOR)


def test_a_listed_variant_of_a_renamed_page_is_a_located_error_before_build_prunes_it(
    make_project, run
):
    """The page renamed: build pruned its variant, and the navigation went on listing
    the file it deleted while check called the tree in sync."""
    project = make_project(files={"docs/guide.mdx": SHARED, "docs/index.yml": nav(["guide"], [])})
    assert run(project, "build").exit_code == 0
    (project.root / "docs/guide.mdx").rename(project.root / "docs/tour.mdx")
    _refused_listing(
        project,
        run,
        "guide.alpha.generated.mdx",
        ", which no page makes any more (its page was renamed or removed) and a build "
        "would delete: list what replaced it, or remove the entry",
    )


def test_one_layouts_variant_of_a_page_that_varies_for_nobody_says_to_list_the_page(
    make_project, run
):
    """No token, no block, one agent listing it: docgen makes no variant, and the entry
    named a file that never came (Fern fails on it) while build and check passed."""
    plain = '---\ntitle: "Guide"\n---\n\nThe same for every agent.\n'
    project = make_project(files={"docs/guide.mdx": plain, "docs/index.yml": nav(["guide"], [])})
    _refused_listing(
        project,
        run,
        "guide.alpha.generated.mdx",
        ", alpha's variant of docs/guide.mdx, which docgen does not make: only the alpha "
        "layout lists it and nothing in the page varies per agent, so list docs/guide.mdx "
        "itself there",
    )


def test_every_layouts_variant_of_a_page_that_varies_for_nobody_says_to_list_the_page(
    make_project, run
):
    """Each of the errors said "only the alpha layout lists it" (or beta), though both
    do: the page holds nothing agent-specific, so no variant of it is made (a hostile
    round's finding)."""
    plain = '---\ntitle: "Guide"\n---\n\nThe same for every agent.\n'
    project = make_project(
        files={"docs/guide.mdx": plain, "docs/index.yml": nav(["guide"], ["guide"])}
    )
    result = run(project, "build")
    assert result.exit_code == 2
    assert [line.split(": error: ")[1] for line in result.stderr.splitlines()] == [
        f"docs/index.yml lists {BUILT}/guide.{agent}.generated.mdx, {agent}'s variant of "
        "docs/guide.mdx, which docgen does not make: nothing in the page varies per agent (no "
        "CLI token or <AgentOnly> block), so list docs/guide.mdx itself in each layout"
        for agent in ("alpha", "beta")
    ]


def test_a_listed_variant_of_a_page_the_tree_lacks_is_left_to_ferns_check(make_project, run):
    """A tree not yet whole (NemoClaw's fixture holds some of its pages): no file, no page."""
    project = make_project(files={"docs/index.yml": nav(["missing"], [])})
    assert run(project, "build").exit_code == 0


def test_hand_written_pages_in_a_variants_folder_that_is_the_docs_folder_are_pages(
    make_project, run
):
    """``variants = "docs"``: a page the author wrote there is listed as itself."""
    text = (
        nav(["guide"], ["guide"])
        .replace(
            "          - page: Guide\n            path: _build/agent-variants/guide.beta",
            "          - page: About\n            path: about.mdx\n"
            "          - page: Guide\n            path: guide.beta",
        )
        .replace("_build/agent-variants/guide.alpha", "guide.alpha")
    )
    project = make_project(
        files={
            "docgen.toml": 'variants = "docs"\n',
            "docs/about.mdx": '---\ntitle: "About"\n---\n\nAbout.\n',
            "docs/guide.mdx": SHARED,
            "docs/index.yml": text,
        }
    )
    assert run(project, "build").exit_code == 0, run(project, "build").output
    assert (project.root / "docs/guide.beta.generated.mdx").is_file()
    assert run(project, "check").exit_code == 0


def test_a_page_outside_the_navigations_folder_is_listed_by_a_plain_relative_path(
    make_project, run
):
    """A navigation in ``fern/`` lists ``../docs/...`` unquoted, as an author writes it."""
    project = make_project(
        templates={"profiles/[profile].mdx.j2": SAME_FOR_ALL},
        files={"docgen.toml": 'navigation = "fern/nav.yml"\n', "fern/nav.yml": REGION},
    )
    assert run(project, "build").exit_code == 0
    assert project.read("fern/nav.yml") == REGION.replace(
        "      # docgen:end\n",
        '      - page: "T"\n        path: ../docs/profiles/vllm.box.tiny.mdx\n'
        "        slug: vllm.box.tiny\n      # docgen:end\n",
    )
    assert run(project, "check").exit_code == 0


def _refused(make_project, run, text: str, message: str) -> None:  # type: ignore[no-untyped-def]
    project = make_project(
        templates={"profiles/[profile].mdx.j2": SAME_FOR_ALL}, files={"docs/index.yml": text}
    )
    before = project.snapshot()
    result = run(project, "build")
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", message + "\n")
    assert project.snapshot() == before


def test_an_end_marker_without_a_begin_is_a_located_error(make_project, run):
    """A stray ``# docgen:end`` is refused at its line, not ignored."""
    text = REGION.replace("      # docgen:begin profiles\n", "", 1)
    message = "docs/index.yml:4:1: error: '# docgen:end' without a begin: close each region once"
    _refused(make_project, run, text, message)


def test_a_region_whose_pages_would_break_the_yaml_is_refused_at_its_begin(make_project, run):
    """Markers among a page's keys: the pages written there would make the file no YAML;
    the refusal says where the region is and why, not what the probe broke."""
    text = (
        "navigation:\n  - page: A\n    path: a.mdx\n    # docgen:begin profiles\n    # docgen:end\n"
    )
    message = (
        "docs/index.yml:4:1: error: the pages docgen writes in this region, indented as its "
        "'# docgen:begin' line, would not be read as navigation pages: put the markers in a "
        "list of a layout's or a section's contents, indented as its items"
    )
    _refused(make_project, run, text, message)


def test_a_redirect_source_matches_the_whole_route_not_a_prefix():
    """``/guide/:agent/old`` does not take ``/guide/alpha/old/more`` for its own."""
    redirected = routes(("/guide/:agent/old", "/guide/:agent/new"))
    assert "/guide/alpha/old" in redirected
    assert "/guide/alpha/old/more" not in redirected


def test_a_variant_listed_outside_every_agents_layout_says_to_list_it_in_its_agents(
    make_project, run
):
    """It said "nothing in the page varies, list the page itself", which for a shared page
    led to the error that says to list a variant instead."""
    text = (
        "navigation:\n  - section: Guide\n    contents:\n      - page: Guide\n"
        f"        path: {BUILT[5:]}/guide.beta.generated.mdx\n"
    )
    project = make_project(files={"docs/guide.mdx": SHARED, "docs/index.yml": text})
    result = run(project, "check")
    assert (result.exit_code, result.stderr) == (
        2,
        f"docs/index.yml:5:15: error: docs/index.yml lists {BUILT}/guide.beta.generated.mdx, "
        "beta's variant of docs/guide.mdx, outside the beta layout, and docgen makes an "
        "agent's variant only where that agent's layout lists it: list it in the beta "
        "layout\n",
    )
