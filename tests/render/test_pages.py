"""Which template files become pages, and where they go."""

from __future__ import annotations

from pathlib import Path

from docgen import config
from docgen.render.pages import PROFILE_SLOT, page_path, page_templates


def test_page_templates_are_every_template_outside_underscore_and_dot_folders(tmp_path: Path):
    project = config.Project(tmp_path, config.Config())
    assert page_templates(project) == []
    for name in (
        "models.mdx.j2",
        "guide/[profile].mdx.j2",
        "guide/setup.md.j2",
        "_partials/table.mdx.j2",
        "guide/_draft.mdx.j2",
        ".hidden/x.mdx.j2",
        "notes.txt",
    ):
        path = tmp_path / "templates" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x", "utf-8")
    assert page_templates(project) == [
        "guide/[profile].mdx.j2",
        "guide/setup.md.j2",
        "models.mdx.j2",
    ]
    assert PROFILE_SLOT == "[profile]"


def test_a_page_template_renders_into_the_docs_folder(tmp_path: Path):
    project = config.Project(tmp_path, config.Config(docs="site/docs"))
    assert page_path(project, "models.mdx.j2") == "site/docs/models.mdx"
    assert page_path(project, "guide/[profile].mdx.j2") == "site/docs/guide/[profile].mdx"
