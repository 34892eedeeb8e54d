"""A bad project root or docgen.toml setting: each gives an exact located error and changes
nothing.
"""

from __future__ import annotations

import pytest
from bad_input_cases import BUILD, Case, check, param

SETTINGS = [
    Case(
        "root-missing",
        ("--root", "/nonexistent/docgen-root", "build"),
        ("/nonexistent/docgen-root: error: project root does not exist",),
    ),
    Case(
        "init-over-a-project",
        ("init",),
        (
            "{root}/profiles.yaml: error: a project is already here; docgen init never overwrites "
            "files",
        ),
    ),
    Case(
        "config-invalid-toml",
        BUILD,
        ("docgen.toml:1:8: error: invalid TOML: Invalid value (at line 1, column 8)",),
        files={"docgen.toml": "docs = \n"},
    ),
    Case(
        "config-unknown-setting",
        BUILD,
        ("docgen.toml:1:1: error: unknown setting 'template'; did you mean 'templates'?",),
        files={"docgen.toml": 'template = "tpl"\n'},
    ),
    # The export written into the changelog folder was read back as an entry: build passed,
    # then check and every later build failed.
    Case(
        "config-export-in-the-changelog-folder",
        BUILD,
        (
            "docgen.toml:2:1: error: setting 'export' puts the export at "
            "changelog/2026-01-01.mdx, an entry in the changelog folder (setting 'changelog'), "
            "which docgen reads: write it elsewhere",
        ),
        files={"docgen.toml": 'docs = "docs"\nexport = "changelog/2026-01-01.mdx"\n'},
    ),
    Case(
        "config-export-is-the-navigation",
        BUILD,
        (
            "docgen.toml:1:1: error: setting 'export' puts the export at docs/index.yml, the "
            "navigation (setting 'navigation'), which docgen reads: write it elsewhere",
        ),
        files={"docgen.toml": 'export = "docs/index.yml"\n'},
    ),
    Case(  # a build wrote its pages into git's own folder
        "config-docs-in-git-folder",
        BUILD,
        ("docgen.toml:1:1: error: path '.git' lies in git's own folder, .git",),
        files={"docgen.toml": 'docs = ".git"\n'},
    ),
    Case(
        "config-variants-in-git-folder-any-case",
        BUILD,
        ("docgen.toml:1:1: error: path 'docs/.GIT/v' lies in git's own folder, .git",),
        files={"docgen.toml": 'variants = "docs/.GIT/v"\n'},
    ),
    Case(
        "config-setting-not-string",
        BUILD,
        ("docgen.toml:1:1: error: setting 'docs' must be a string",),
        files={"docgen.toml": "docs = 1\n"},
    ),
    Case(
        "config-invalid-utf8",
        BUILD,
        ("docgen.toml:1:12: error: invalid UTF-8 byte 0xe9",),
        files={"docgen.toml": b'docs = "caf\xe9"\n'},
    ),
]

CASES = SETTINGS


@pytest.mark.parametrize("case", [param(c) for c in CASES])
def test_bad_input_is_a_located_error_and_changes_nothing(make_project, run, monkeypatch, case):
    check(case, make_project, run, monkeypatch)
