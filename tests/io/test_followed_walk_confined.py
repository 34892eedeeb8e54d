"""``files.followed``, the walk the template loader's view of a folder comes from, enters
linked folders only while they stay inside the project root, and never docgen's own
folder (its staging, cache and stamps are no templates)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen import config
from docgen.io import files


@pytest.fixture
def project(tmp_path: Path) -> config.Project:
    root = tmp_path / "proj"
    (root / "templates").mkdir(parents=True)
    (root / "templates/page.mdx.j2").write_text("x\n", "utf-8")
    return config.Project(root.resolve(), config.Config())


def walked(project: config.Project) -> list[tuple[str, str]]:
    return [(found.rel, found.kind) for found in files.followed(project, "templates")]


def test_a_linked_folder_leading_to_docgens_own_folder_is_not_entered(project):
    own = project.root / files.OWN_FOLDER
    (own / "staging").mkdir(parents=True)
    (own / "stamps").write_bytes(b"sealed")
    (own / "staging/1-1.docgen-tmp").write_text("half\n", "utf-8")
    (project.root / "templates/cache").symlink_to(f"../{files.OWN_FOLDER}")
    assert walked(project) == [
        ("templates/cache", files.DIR),
        ("templates/page.mdx.j2", files.FILE),
    ]


def test_a_linked_folder_leading_outside_the_root_is_a_link_not_entered(project, tmp_path):
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    (outside / "secret.mdx.j2").write_text("secret\n", "utf-8")
    (project.root / "templates/ext").symlink_to(outside)
    assert walked(project) == [
        ("templates/ext", files.LINK),
        ("templates/page.mdx.j2", files.FILE),
    ]
