"""The rules `check` applies to past changelog entries (changelog/YYYY-MM-DD.mdx): one
case per rule with its exact message, and the cases where one rule could hide another."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import Outcome, Project

HEADER = (
    "{/*\n"
    " * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.\n"
    " * SPDX-License-Identifier: Apache-2.0\n"
    " */}\n"
)
HEADER_RULE = (
    "the entry must start with the exact SPDX header:\n"
    "{/*\n"
    " * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.\n"
    " * SPDX-License-Identifier: Apache-2.0\n"
    " */}"
)
LINK = "/guide/alpha/models"  # the minimal project's page, for its default agent


def section(version: str, link: str = LINK) -> str:
    """Six lines: heading, blank, summary, blank, a two-line bullet."""
    return (
        f"## {version}\n\nAcme {version} tunes the Big Box profile.\n\n"
        f"- The Big Box profile uses less memory.\n"
        f"  For more information, refer to [Models]({link}).\n"
    )


def entry(*sections: str, head: str = HEADER) -> str:
    """The header (lines 1-4), a blank line, then the sections: the first heading is on
    line 6, the second on line 13. A line added at the end is line 12."""
    return head + "\n" + "\n".join(sections or (section("v1.0.0"),))


DAY = "changelog/2026-01-02.mdx"
VALID = entry()


def history_check(
    make_project: Callable[..., Project], run: Callable[..., Outcome], files: dict[str, str]
) -> Outcome:
    """`check` on the minimal project built with ``files`` as its changelog entries."""
    project = make_project(files=files)
    assert run(project, "build").exit_code == 0
    return run(project, "check")


def test_a_valid_history_passes(make_project, run):
    """Numeric version order, links with anchors, trailing slashes, to another agent and
    to a release page, external links, images and MDX comments are all accepted."""
    newest = entry(
        section("v1.10.0", "/guide/alpha/models#flags")
        + "  Also see [Beta](/guide/beta/models/), [site](https://example.org/x), "
        "[mail](mailto:docs@example.org), [here](#top), [cdn](//cdn.example.org/a).\n"
        "  ![diagram](diagram.png) {/* reviewed */}\n",
        section("v1.9.0", "/guide/alpha/release-notes/2026/1/2"),
    )
    result = history_check(make_project, run, {DAY: VALID, "changelog/2026-01-03.mdx": newest})
    assert (result.exit_code, result.output) == (0, "5 generated files match the registry\n")


# (case id, entry files, the exact lines `check` prints)
BROKEN = [
    (
        "file-name-not-a-date",
        {"changelog/2026-13-01.mdx": VALID},
        [
            "changelog/2026-13-01.mdx:1: error: changelog file name '2026-13-01.mdx' is not a "
            "real date as YYYY-MM-DD.mdx"
        ],
    ),
    (
        "header-not-exact",
        {DAY: VALID.replace("Apache-2.0", "MIT")},
        [f"{DAY}:1: error: {HEADER_RULE}"],
    ),
    ("text-above-header", {DAY: "Draft.\n" + VALID}, [f"{DAY}:1: error: {HEADER_RULE}"]),
    (
        "no-release-heading",
        {DAY: VALID.replace("## v1.0.0", "## Version 1.0.0")},
        [
            f"{DAY}:1: error: no release heading: add '## vX.Y.Z'",
            f"{DAY}:6: error: headings in changelog entries are '## vX.Y.Z', got "
            "'## Version 1.0.0'",
        ],
    ),
    (
        "other-heading",
        {DAY: VALID + "### Fixes\n"},
        [f"{DAY}:12: error: headings in changelog entries are '## vX.Y.Z', got '### Fixes'"],
    ),
    (
        "html-comment",
        {DAY: VALID + "<!-- todo -->\n"},
        [f"{DAY}:12: error: HTML comments are not allowed in changelog entries; use {{/* ... */}}"],
    ),
    (
        "cli-token",
        {DAY: VALID + "Run `$$acme onboard`.\n"},
        [
            f"{DAY}:12: error: the CLI token '$$acme' is not replaced in changelog entries; "
            "write the CLI name literally"
        ],
    ),
    (
        "agentonly",
        {DAY: VALID + '<AgentOnly variant="beta">\n'},
        [f"{DAY}:12: error: <AgentOnly> is not resolved in changelog entries"],
    ),
    # `models` would not resolve either; the rule it breaks first is named, alone.
    (
        "relative-link",
        {DAY: entry(section("v1.0.0", "models"))},
        [
            f"{DAY}:11: error: relative link 'models': changelog links must be root-absolute "
            "routes such as /user-guide/..."
        ],
    ),
    (
        "unresolved-link",
        {DAY: entry(section("v1.0.0", "/guide/alpha/nope"))},
        [
            f"{DAY}:11: error: link '/guide/alpha/nope' does not resolve to a page the project "
            "publishes"
        ],
    ),
    (
        "oldest-first",
        {DAY: entry(section("v1.0.0"), section("v1.0.1"))},
        [f"{DAY}:13: error: v1.0.1 comes after v1.0.0: list releases newest first"],
    ),
    (
        "version-repeated-across-files",
        {DAY: VALID, "changelog/2026-01-03.mdx": VALID},
        [f"changelog/2026-01-03.mdx:6: error: version v1.0.0 is already released in {DAY}"],
    ),
    # Equal versions break both the order rule (not newer) and uniqueness.
    (
        "version-repeated-in-one-file",
        {DAY: entry(section("v1.0.0"), section("v1.0.0"))},
        [
            f"{DAY}:13: error: v1.0.0 comes after v1.0.0: list releases newest first",
            f"{DAY}:13: error: version v1.0.0 is already released in {DAY}",
        ],
    ),
    (
        "two-rules-on-one-line",
        {DAY: VALID + "<!-- run $$acme -->\n"},
        [
            f"{DAY}:12: error: HTML comments are not allowed in changelog entries; use "
            "{/* ... */}",
            f"{DAY}:12: error: the CLI token '$$acme' is not replaced in changelog entries; "
            "write the CLI name literally",
        ],
    ),
    (
        "two-rules-of-the-file",
        {"changelog/2026-02-30.mdx": entry(head="")[1:]},
        [
            "changelog/2026-02-30.mdx:1: error: changelog file name '2026-02-30.mdx' is not a "
            "real date as YYYY-MM-DD.mdx",
            f"changelog/2026-02-30.mdx:1: error: {HEADER_RULE}",
        ],
    ),
]


@pytest.mark.parametrize(("files", "expected"), [c[1:] for c in BROKEN], ids=[c[0] for c in BROKEN])
def test_each_broken_rule_is_reported_exactly(make_project, run, files, expected):
    result = history_check(make_project, run, files)
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "".join(f"{line}\n" for line in expected),
        "",
    )


def test_an_entry_linked_from_outside_the_root_is_refused_unread(make_project, run, tmp_path):
    outside = tmp_path / "outside.mdx"
    outside.write_text(VALID.replace("Acme v1.0.0", "secret"), "utf-8")
    project = make_project(files={DAY: VALID})
    (project.root / "changelog/2026-01-03.mdx").symlink_to(outside)
    result = run(project, "check")
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "",
        "changelog/2026-01-03.mdx: error: the changelog entry is a symbolic link that leaves "
        "the project root; docgen reads only files inside it\n",
    )
