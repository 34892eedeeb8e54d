"""Managed regions, exactly: every marker problem of a page in one run, a custom region's
text kept as its template wrote it, where a failing region template is reported, and the
text outside the regions as the plan cache reads it."""

from __future__ import annotations

import pytest
from conftest import Project

from docgen import cache
from docgen.config import load_project
from docgen.render.regions import strip_regions

PAGE = "docs/ref.mdx"
UNCLOSED = "region 'models-table' is never closed: add {/* docgen:end */}"


def build(make_project, run, page: str, templates: dict[str, str] | None = None):
    """Build a project holding ``page`` (and the minimal template plus ``templates``);
    the project, the exit code and the stderr lines."""
    project = make_project(
        files={PAGE: page},
        templates={"models.mdx.j2": "Models.\n", **(templates or {})},
    )
    result = run(project, "build")
    return project, result.exit_code, result.stderr.splitlines()


@pytest.mark.parametrize(
    ("page", "messages"),
    [
        (
            "{/* docgen:end */}\n\n{/* docgen:begin models-table */}\nText.\n",
            ["1:1: error: docgen:end without a docgen:begin", f"3:1: error: {UNCLOSED}"],
        ),
        (
            "{/* docgen:end */}\n{/* docgen:end */}\n",
            [
                "1:1: error: docgen:end without a docgen:begin",
                "2:1: error: docgen:end without a docgen:begin",
            ],
        ),
    ],
    ids=["then-unclosed", "twice"],
)
def test_a_stray_end_does_not_hide_the_problems_after_it(make_project, run, page, messages):
    project, code, stderr = build(make_project, run, page)
    assert (code, stderr) == (2, [f"{PAGE}:{m}" for m in messages])
    assert project.read(PAGE) == page


def test_a_custom_regions_text_keeps_its_indentation_and_letters_only_newlines_trimmed(
    make_project, run
):
    region = "    X marks the spot X\n\n"
    page = "# Ref\n{/* docgen:begin mark */}\n{/* docgen:end */}\nAfter.\n"
    project, code, stderr = build(make_project, run, page, {"_regions/mark.mdx.j2": region})
    assert (code, stderr) == (0, [])
    assert project.read(PAGE) == (
        "# Ref\n{/* docgen:begin mark */}\n\n    X marks the spot X\n\n{/* docgen:end */}\nAfter.\n"
    )


def test_a_failing_custom_region_template_is_located_at_the_region_of_the_page(make_project, run):
    page = "# Ref\n\n{/* docgen:begin mark one */}\n{/* docgen:end */}\n"
    template = "First line.\n{{ args[1] }}\n"
    project, code, stderr = build(make_project, run, page, {"_regions/mark.mdx.j2": template})
    assert (code, stderr) == (
        2,
        [f"{PAGE}:3:2: error: template failed: list object has no element 1"],
    )
    assert project.read(PAGE) == page


@pytest.mark.parametrize("region", ["serve-command", "override-examples"])
def test_a_failing_project_copy_of_a_builtin_region_template_is_named_after_the_region(
    make_project, run, region
):
    page = f"{{/* docgen:begin {region} vllm.box.tiny */}}\n{{/* docgen:end */}}\n"
    template = "{{ p.id }}\n{{ p.no_such_field }}\n"
    project, code, stderr = build(make_project, run, page, {f"_builtin/{region}.mdx.j2": template})
    assert code == 2 and len(stderr) == 1
    said = f"docgen:{region}:2: error: template failed: 'Profile' object has no attribute "
    # with nothing near it, the fields a profile has are listed
    assert stderr[0].startswith(f"{said}'no_such_field'; a Profile has id, model, host, ")
    assert project.read(PAGE) == page


# --- the text outside the regions ------------------------------------------------------

REGION_PAGE = (
    "Intro.\n"
    "{/* docgen:begin models-table */}\nold table\n{/* docgen:end */}\n"
    "Between.\n"
    "{/* docgen:begin host-defaults */}\n\nold\ndefaults\n{/* docgen:end */}\n"
    "Outro.\n"
)


def test_stripping_the_regions_keeps_every_line_outside_them_and_the_markers():
    assert strip_regions(REGION_PAGE) == (
        "Intro.\n"
        "{/* docgen:begin models-table */}\n{/* docgen:end */}\n"
        "Between.\n"
        "{/* docgen:begin host-defaults */}\n{/* docgen:end */}\n"
        "Outro.\n"
    )


def test_markers_in_a_code_block_are_text_and_what_they_enclose_is_kept():
    """An example of the markers, in fenced code, opens no region: its lines are the
    page's own text, an input of the plan like any other."""
    page = (
        "{/* docgen:begin models-table */}\nold table\n{/* docgen:end */}\n"
        "```mdx\n{/* docgen:begin my-table */}\nOLD TEXT\n{/* docgen:end */}\n```\n"
    )
    assert strip_regions(page) == (
        "{/* docgen:begin models-table */}\n{/* docgen:end */}\n"
        "```mdx\n{/* docgen:begin my-table */}\nOLD TEXT\n{/* docgen:end */}\n```\n"
    )


@pytest.mark.parametrize(
    ("old", "new", "same_key"),
    [
        ("Intro.", "Introduction.", False),
        ("Between.", "In between.", False),
        ("Outro.", "The end.", False),
        ("old table", "new table", True),
        ("old\ndefaults", "new", True),
    ],
    ids=["before-the-first", "between", "after-the-last", "inside", "inside-lines"],
)
def test_only_the_text_outside_the_regions_of_a_page_is_an_input_of_the_plan(
    make_project, old, new, same_key
):
    project: Project = make_project(files={PAGE: REGION_PAGE})
    before = cache.key(load_project(project.root))
    project.edit(PAGE, old, new)
    assert (cache.key(load_project(project.root)) == before) is same_key
