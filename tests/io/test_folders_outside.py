"""A folder setting that leads outside the root is never walked, and a templates folder
the settings name must exist (a typo would otherwise prune every generated page)."""

from __future__ import annotations

import os

from docgen.config import load_project
from docgen.io import files


def test_a_docs_folder_linked_outside_the_root_is_not_walked(make_project, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "bad\n::error::x.mdx").write_text("x\n", "utf-8")
    (outside / "page.mdx").write_text("x\n", "utf-8")
    project = make_project()
    os.symlink(outside, project.root / "docs")
    listed = files.listing(load_project(project.root), "docs")
    assert (listed.inside, listed.files, listed.folders) == (False, (), ())


def test_a_templates_folder_the_settings_name_must_exist(make_project, run):
    project = make_project(files={"pyproject.toml": '[tool.docgen]\ntemplates = "tempaltes"\n'})
    before = project.snapshot()
    result = run(project, "build")
    assert result.exit_code == 2
    assert result.stderr == (
        "pyproject.toml:2:1: error: the templates folder 'tempaltes' does not exist "
        "or is not a folder\n"
    )
    assert project.snapshot() == before


def test_without_the_setting_a_missing_templates_folder_means_no_pages(make_project, run):
    project = make_project(templates={})
    result = run(project, "build")
    assert result.exit_code == 0, result.output
    assert not (project.root / "docs" / "models.mdx").exists()
