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
