"""Region behaviour this session added that no test pinned: what a template writes
instead of each kind of region it prints, every such region reported, and the column
of an argument set off by more than one space."""

from __future__ import annotations

import pytest

HEAD = '---\ntitle: "Models"\n---\n\n'


@pytest.mark.parametrize(
    ("marker", "instead", "shown"),
    [
        ("host-defaults", "{{ host_defaults_table() }}", "Big Box"),
        (
            "override-examples vllm.box.tiny",
            '{% with p = registry.profiles["vllm.box.tiny"] %}'
            '{% include "_builtin/override-examples.mdx.j2" %}{% endwith %}',
            "ACME_EXTRA_ARGS_JSON",
        ),
        (
            'note "a" b',
            '{% with args = ["\\"a\\"", "b"] %}{% include "_regions/note.mdx.j2" %}{% endwith %}',
            'Note: "a" and b.',
        ),
    ],
    ids=["host-defaults", "override-examples", "custom"],
)
def test_a_region_a_template_prints_names_what_to_write_instead(
    make_project, run, marker, instead, shown
) -> None:
    """The error names the call or include that renders the same content, and it works."""
    note = "Note: {{ args | join(' and ') }}.\n"
    region = f"{{/* docgen:begin {marker} */}}\n| old |\n{{/* docgen:end */}}\n"
    templates = {"models.mdx.j2": HEAD + region, "_regions/note.mdx.j2": note}
    project = make_project(templates=templates)
    result = run(project, "build")
    assert (result.exit_code, result.stderr.splitlines()) == (
        2,
        [
            f"templates/models.mdx.j2:5: error: region '{marker.split()[0]}' in a page a "
            "template writes: docgen fills regions only in hand-written pages; write "
            f"{instead} in the template instead (line 5 of the text it renders for "
            "docs/models.mdx)"
        ],
    )
    project.write("templates/models.mdx.j2", HEAD + instead + "\n")
    assert run(project, "build").exit_code == 0
    assert shown in project.read("docs/models.mdx")


def test_every_region_a_template_prints_is_reported(make_project, run) -> None:
    """Two regions in one template are two errors, each at its own line."""
    regions = "".join(
        f"{{/* docgen:begin {name} */}}\n{{/* docgen:end */}}\n\n"
        for name in ("models-table", "host-defaults")
    )
    project = make_project(templates={"models.mdx.j2": HEAD + regions})
    result = run(project, "build")
    assert result.exit_code == 2
    assert [line.split(" in a page")[0] for line in result.stderr.splitlines()] == [
        "templates/models.mdx.j2:5: error: region 'models-table'",
        "templates/models.mdx.j2:8: error: region 'host-defaults'",
    ]


def test_an_argument_after_several_spaces_is_located_at_its_own_column(make_project, run):
    """The column is where the argument starts, however much space comes before it."""
    page = "# Ref\n\n{/* docgen:begin models-table    extra */}\n{/* docgen:end */}\n"
    project = make_project(files={"docs/ref.mdx": page})
    result = run(project, "build")
    assert (result.exit_code, result.stderr.splitlines()) == (
        2,
        ["docs/ref.mdx:3:34: error: region 'models-table' takes no arguments"],
    )


def test_a_builtin_region_without_its_profile_in_a_template_says_to_name_one(make_project, run):
    """It advised including ``_regions/serve-command.mdx.j2``, which does not exist."""
    region = "{/* docgen:begin serve-command */}\n{/* docgen:end */}\n"
    project = make_project(templates={"models.mdx.j2": '---\ntitle: "M"\n---\n\n' + region})
    result = run(project, "build")
    assert result.exit_code == 2
    assert (
        '{% with p = registry.profiles["PROFILE-ID"] %}'
        '{% include "_builtin/serve-command.mdx.j2" %}{% endwith %}'
    ) in result.stderr


def test_a_region_the_project_overrides_suggests_its_own_template(make_project, run):
    """``templates/_regions/models-table.mdx.j2`` fills that region in hand-written pages:
    the advice named ``models_table()``, which a template would show otherwise."""
    region = "{/* docgen:begin models-table */}\n{/* docgen:end */}\n"
    project = make_project(
        templates={
            "models.mdx.j2": '---\ntitle: "M"\n---\n\n' + region,
            "_regions/models-table.mdx.j2": "Our own table.\n",
        }
    )
    result = run(project, "build")
    assert result.exit_code == 2
    assert (
        '{% with args = [] %}{% include "_regions/models-table.mdx.j2" %}{% endwith %}'
        in result.stderr
    )
