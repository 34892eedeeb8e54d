"""``git.ignored``: exactly the given paths git ignores, asked of git in one call."""

from __future__ import annotations

from conftest import git

from docgen.changelog.git import ignored
from docgen.config import load_project


def test_only_the_ignored_paths_among_several_come_back(make_project):
    project = make_project()
    project.write(".gitignore", "docs/_build/\n")
    git(project.root, "init", "-q")
    paths = ["docs/_build/a.mdx", "docs/b.mdx", "docs/_build/c/d.json"]
    assert ignored(load_project(project.root), paths) == {
        "docs/_build/a.mdx",
        "docs/_build/c/d.json",
    }
    assert ignored(load_project(project.root), ["docs/b.mdx"]) == set()


def test_outside_a_repository_nothing_is_ignored(make_project):
    project = make_project()
    project.write(".gitignore", "docs/\n")
    assert ignored(load_project(project.root), ["docs/a.mdx"]) == set()
