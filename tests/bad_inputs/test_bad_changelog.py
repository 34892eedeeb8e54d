"""Bad `docgen changelog` requests (exit 2) and broken changelog history (`check` exits 1):
each gives an exact located error and changes nothing.
"""

from __future__ import annotations

import pytest
from bad_input_cases import BUILD, CHANGELOG, CHECK, ENTRY, OLD, Case, check, entry, param

CHANGELOG_ARGS = [
    Case(
        "changelog-malformed-version",
        (*CHANGELOG, "--version", "1.0"),
        ("--version: error: malformed version '1.0'; expected vX.Y.Z, e.g. v0.0.102",),
        files={"old.yaml": OLD},
    ),
    Case(
        "changelog-impossible-date",
        (*CHANGELOG, "--version", "v1.0.1", "--date", "2026-02-30"),
        ("--date: error: malformed date '2026-02-30'; expected a real date as YYYY-MM-DD",),
        files={"old.yaml": OLD},
    ),
    Case(
        "changelog-duplicate-version",
        (*CHANGELOG, "--version", "v1.0.0"),
        (
            "changelog/2026-01-02.mdx:6:1: error: version v1.0.0 is already released here; "
            "entries are history and are never rewritten",
        ),
        files=entry(),
        built=True,
    ),
    Case(
        "changelog-nothing-to-release",
        (
            "changelog",
            "--since-file",
            "profiles.yaml",
            "--date",
            "2026-01-03",
            "--version",
            "v1.0.1",
        ),
        (
            "profiles.yaml: error: nothing to release: the registry has no change a release "
            "describes since that state and changelog.d/ holds no notes",
        ),
    ),
    Case(
        "changelog-no-base",
        ("changelog", "--version", "v1.0.1", "--date", "2026-01-03"),
        ("docgen changelog: error: give exactly one of --since REF and --since-file FILE",),
        usage=True,
    ),
    Case(
        "changelog-missing-base-file",
        ("changelog", "--since-file", "gone.yaml", "--version", "v1.0.1", "--date", "2026-01-03"),
        ("gone.yaml: error: cannot read registry: No such file or directory",),
    ),
    Case(
        "changelog-broken-base-file",
        (*CHANGELOG, "--version", "v1.0.1"),
        (
            "old.yaml:21:1: error: expected ',' or ']', but got '<scalar>' (in a flow sequence "
            "that starts at 19:8)",
        ),  # fmt: skip
        files={"old.yaml": OLD.replace("hosts:\n", "hosts: [\n")},
    ),
]

UNREADABLE_ENTRY = [
    Case(  # without an overview no page reads the entries: the build must still write nothing
        "build-entry-invalid-utf8-without-overview",
        BUILD,
        ("changelog/2026-09-01.mdx:1:1: error: invalid UTF-8 byte 0xff in the changelog entry",),
        files={
            "docgen.toml": 'overview = "none"\n',
            "changelog/2026-09-01.mdx": b"\xff bad\n",
        },
    ),
]

HISTORY = [
    Case(
        "history-spdx-header",
        CHECK,
        (
            "changelog/2026-01-02.mdx:1: error: the entry must start with the exact SPDX header:",
            "{/*",
            " * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.",
            " * SPDX-License-Identifier: Apache-2.0",
            " */}",
        ),
        files=entry("Apache-2.0", "MIT"),
        code=1,
        built=True,
    ),
    Case(
        "history-html-comment",
        CHECK,
        (
            "changelog/2026-01-02.mdx:12: error: HTML comments are not allowed in changelog "
            "entries; use {/* ... */}",
        ),
        files=entry(tail="<!-- note -->\n"),
        code=1,
        built=True,
    ),
    Case(
        "history-cli-token",
        CHECK,
        (
            "changelog/2026-01-02.mdx:12: error: the CLI token '$$acme' is not replaced in "
            "changelog entries; write the CLI name literally",
        ),
        files=entry(tail="Run `$$acme onboard`.\n"),
        code=1,
        built=True,
    ),
    Case(
        "history-agentonly",
        CHECK,
        ("changelog/2026-01-02.mdx:12: error: <AgentOnly> is not resolved in changelog entries",),
        files=entry(tail='<AgentOnly variant="beta">\n'),
        code=1,
        built=True,
    ),
    Case(
        "history-relative-link",
        CHECK,
        (
            "changelog/2026-01-02.mdx:11:43: error: relative link '../models': changelog links "
            "must be root-absolute routes such as /user-guide/...",
        ),
        files=entry("(/guide/alpha/models)", "(../models)"),
        code=1,
        built=True,
    ),
    Case(
        "history-dead-link",
        CHECK,
        (
            "changelog/2026-01-02.mdx:11:43: error: link '/guide/alpha/nope' does not resolve to a "
            "page the project publishes",
        ),
        files=entry("(/guide/alpha/models)", "(/guide/alpha/nope)"),
        code=1,
        built=True,
    ),
    Case(
        "history-version-order",
        CHECK,
        (
            "changelog/2026-01-02.mdx:13: error: v1.0.1 comes after v1.0.0: list releases newest "
            "first",
        ),
        files=entry(tail="\n## v1.0.1\n\nAcme v1.0.1 adds things.\n"),
        code=1,
        built=True,
    ),
    Case(
        "history-duplicate-version",
        CHECK,
        (
            "changelog/2026-01-05.mdx:6: error: version v1.0.0 is already released in "
            "changelog/2026-01-02.mdx",
        ),
        files={**entry(), "changelog/2026-01-05.mdx": ENTRY},
        code=1,
        built=True,
    ),
    Case(
        "history-impossible-file-date",
        CHECK,
        (
            "changelog/2026-13-01.mdx:1: error: changelog file name '2026-13-01.mdx' is not a "
            "real date as YYYY-MM-DD.mdx",
        ),
        files={**entry(), "changelog/2026-13-01.mdx": ENTRY.replace("v1.0.0", "v0.9.0")},
        code=1,
        built=True,
    ),
]

CASES = CHANGELOG_ARGS + UNREADABLE_ENTRY + HISTORY


@pytest.mark.parametrize("case", [param(c) for c in CASES])
def test_bad_input_is_a_located_error_and_changes_nothing(make_project, run, monkeypatch, case):
    check(case, make_project, run, monkeypatch)
