"""A templates folder that is gone (moved, or the setting left at its default) never
makes ``build`` delete the pages it made."""

from __future__ import annotations


def test_a_build_without_its_templates_folder_deletes_no_page(make_project, run):
    project = make_project()
    assert run(project, "build").exit_code == 0
    (project.root / "templates").rename(project.root / "tpl")
    before = project.snapshot()
    for command in ("build", "check"):
        outcome = run(project, command)
        assert outcome.exit_code == 2
        assert outcome.stderr.startswith("docs/models.mdx: error: a build would delete this")
        assert "the templates folder 'templates' does not exist" in outcome.stderr
        assert project.snapshot() == before
    project.write("docgen.toml", 'templates = "tpl"\n')
    assert run(project, "build").exit_code == 0
    assert (project.root / "docs/models.mdx").is_file()


def test_pages_deleted_by_hand_or_an_emptied_folder_are_pruned(make_project, run):
    project = make_project()
    assert run(project, "build").exit_code == 0
    (project.root / "templates/models.mdx.j2").unlink()  # the folder stays: an intent
    assert run(project, "build").exit_code == 0
    assert not (project.root / "docs/models.mdx").exists()
