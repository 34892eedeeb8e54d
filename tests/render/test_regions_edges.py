"""Managed regions at their edges: names and arguments a marker may hold, the compact
form, a region whose old content is broken, and what an error suggests."""

from __future__ import annotations

import pytest

PAGE = "docs/ref.mdx"
MALFORMED = (
    "malformed docgen marker: write {/* docgen:begin NAME */} or {/* docgen:end */} alone on a line"
)


def test_a_custom_region_may_have_a_dotted_name(make_project, run) -> None:
    page = "# Ref\n\n{/* docgen:begin my.table */}\n{/* docgen:end */}\n"
    project = make_project(
        files={PAGE: page}, templates={"_regions/my.table.mdx.j2": "Made by my.table.\n"}
    )
    result = run(project, "build")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    assert (
        "{/* docgen:begin my.table */}\n\nMade by my.table.\n\n{/* docgen:end */}"
        in project.read(PAGE)
    )


def test_an_argument_holding_a_star_makes_a_malformed_marker(make_project, run) -> None:
    """A ``*`` beside the marker's ``*/`` could close the comment early: refused."""
    page = "{/* docgen:begin models-table a*b */}\n{/* docgen:end */}\n"
    project = make_project(files={PAGE: page})
    result = run(project, "build")
    assert (result.exit_code, result.stderr.splitlines()) == (
        2,
        [
            f"{PAGE}:1:5: error: {MALFORMED}",
            f"{PAGE}:2:1: error: docgen:end without a docgen:begin",
        ],
    )


def test_markers_may_be_written_without_blanks(make_project, run) -> None:
    page = "# Ref\n\n{/*docgen:begin host-defaults*/}\n{/*docgen:end*/}\n"
    project = make_project(files={PAGE: page})
    result = run(project, "build")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    text = project.read(PAGE)
    assert text.startswith("# Ref\n\n{/*docgen:begin host-defaults*/}\n\n| ")
    assert text.endswith("\n{/*docgen:end*/}\n")


def test_a_regions_old_content_may_hold_an_unclosed_fence(make_project, run) -> None:
    """What a region holds is replaced whole: a fence left open inside it (a hand edit, a
    paste) does not hide its end marker."""
    page = "# Ref\n\n{/* docgen:begin host-defaults */}\n```bash\nold\n{/* docgen:end */}\n"
    project = make_project(files={PAGE: page})
    result = run(project, "build")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    assert "old" not in project.read(PAGE) and "```" not in project.read(PAGE)


def test_a_templates_serve_command_region_without_one_id_is_told_a_placeholder(
    make_project, run
) -> None:
    head = '---\ntitle: "Models"\n---\n\n'
    region = "{/* docgen:begin serve-command a b */}\n| old |\n{/* docgen:end */}\n"
    project = make_project(templates={"models.mdx.j2": head + region})
    result = run(project, "build")
    assert result.exit_code == 2
    assert 'registry.profiles["PROFILE-ID"]' in result.stderr, result.stderr


def test_an_unknown_region_is_told_the_closest_custom_one(make_project, run) -> None:
    page = "# Ref\n\n{/* docgen:begin fqa */}\n{/* docgen:end */}\n"
    project = make_project(files={PAGE: page}, templates={"_regions/faq.mdx.j2": "FAQ.\n"})
    result = run(project, "build")
    assert (result.exit_code, result.stderr) == (
        2,
        f"{PAGE}:3:18: error: unknown region 'fqa'; did you mean 'faq'?\n",
    )


MARKED = (
    "a docgen:begin or docgen:end marker, which the next run would read as this page's own "
    "and cut the region there (a fenced block inside a region is the region's own): leave "
    "it out of the region's content"
)
ONE_REGION = "# Ref\n\n{/* docgen:begin my */}\n{/* docgen:end */}\n"


@pytest.mark.parametrize(
    ("page", "content", "why"),
    [
        (ONE_REGION, "a\n\n{/* docgen:end */}\n\nb\n", MARKED),
        # a fence inside a region is the region's own
        (ONE_REGION, "a\n\n```\n{/* docgen:end */}\n```\n", MARKED),
        (ONE_REGION, "Write docgen:begin markers alone on their lines.\n", MARKED),
        # an end and a begin the next run would read as two whole regions (a mutation sample)
        (ONE_REGION, "a\n{/* docgen:end */}\n{/* docgen:begin other */}\nb\n", MARKED),
        # the fence ran on over the page's later regions: their markers read as code, and
        # no build refreshed them again, while check called the page in sync (a fresh-eyes
        # review's finding)
        (
            ONE_REGION + "\nBetween.\n\n{/* docgen:begin models-table */}\n{/* docgen:end */}\n",
            "```sh\necho {{ profiles | length }}\n",
            "a code fence it never closes, which would run on over the rest of the page: close it",
        ),
    ],
    ids=["end-marker", "end-marker-in-a-fence", "named-in-prose", "end-then-begin", "open-fence"],
)
def test_a_region_that_would_break_the_next_read_is_refused_before_it_is_written(
    make_project, run, page, content, why
) -> None:
    """The build wrote it, and every later run refused the page (``docgen:end without a
    docgen:begin``), with the region's rest stranded below it (a hostile round's finding)."""
    project = make_project(files={PAGE: page}, templates={"_regions/my.mdx.j2": content})
    before = project.snapshot()
    result = run(project, "build")
    assert (result.exit_code, result.stderr) == (
        2,
        f"{PAGE}:3: error: region 'my' rendered {why}\n",
    )
    assert project.snapshot() == before


def test_a_region_may_render_code_that_names_no_marker(make_project, run) -> None:
    page = "# Ref\n\n{/* docgen:begin my */}\n{/* docgen:end */}\n"
    content = "```mdx\n{/* a comment */}\n```\n"
    project = make_project(files={PAGE: page}, templates={"_regions/my.mdx.j2": content})
    assert run(project, "build").exit_code == 0
    assert run(project, "check").exit_code == 0
