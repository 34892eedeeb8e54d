"""The rules `check` applies to past changelog entries (changelog/YYYY-MM-DD.mdx): one
case per rule with its exact message, and the cases where one rule could hide another."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import MINIMAL_REGISTRY, Outcome, Project

from docgen import config
from docgen.changelog import history
from docgen.changelog.entries import parse_entry
from docgen.changelog.history import MAX_ENTRY_PROBLEMS
from docgen.errors import Location, Problem
from docgen.registry.load import load_bytes

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
    built = run(project, "build")
    checked = run(project, "check")
    # build reports a broken history as check does: the same lines (on stderr), exit 1
    assert (built.exit_code, built.stderr) == (
        checked.exit_code,
        checked.stdout if checked.exit_code else "",
    )
    return checked


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
    # An underline below a list item is a thematic break at the start of a line, but a
    # setext underline when indented (by a space or a tab) into the item.
    (
        "setext-space-indented-under-a-list-item",
        {DAY: VALID + "- Also fixed.\n ---\n"},
        [
            f"{DAY}:13: error: '---' under a line of text makes that line a heading; headings "
            "in changelog entries are '## vX.Y.Z' alone"
        ],
    ),
    (
        "setext-tab-indented-under-a-list-item",
        {DAY: VALID + "- Also fixed.\n\t---\n"},
        [
            f"{DAY}:13: error: '---' under a line of text makes that line a heading; headings "
            "in changelog entries are '## vX.Y.Z' alone"
        ],
    ),
    (
        "setext-tab-indented-equals-under-a-list-item",
        {DAY: VALID + "- Also fixed.\n\t===\n"},
        [
            f"{DAY}:13: error: '===' under a line of text makes that line a heading; headings "
            "in changelog entries are '## vX.Y.Z' alone"
        ],
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
            f"{DAY}:11:43: error: relative link 'models': changelog links must be root-absolute "
            "routes such as /user-guide/..."
        ],
    ),
    (
        "unresolved-link",
        {DAY: entry(section("v1.0.0", "/guide/alpha/nope"))},
        [
            f"{DAY}:11:43: error: link '/guide/alpha/nope' does not resolve to a page the project "
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
    (  # each repeat is blamed on the first file to release it, not on the one before
        "version-repeated-in-three-files",
        {DAY: VALID, "changelog/2026-01-03.mdx": VALID, "changelog/2026-01-04.mdx": VALID},
        [
            f"changelog/2026-01-03.mdx:6: error: version v1.0.0 is already released in {DAY}",
            f"changelog/2026-01-04.mdx:6: error: version v1.0.0 is already released in {DAY}",
        ],
    ),
    (  # hand-written into the entry (a note holding one is refused before it is written)
        "control-character",
        {DAY: VALID + "- A \u202eflip.\n\n```\nraw\x1b[2J\tcode\n```\n"},
        [
            f"{DAY}:12:5: error: the entry holds U+202E, a control character no page shows as "
            "text (an escape, or a bidirectional override that reorders what a reader sees): "
            "remove it",
            f"{DAY}:15:4: error: the entry holds U+001B, a control character no page shows as "
            "text (an escape, or a bidirectional override that reorders what a reader sees): "
            "remove it",
        ],
    ),
    (  # the sixth level is a heading too
        "h6-heading",
        {DAY: VALID + "\n###### Notes\n"},
        [f"{DAY}:13: error: headings in changelog entries are '## vX.Y.Z', got '###### Notes'"],
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
    assert (result.exit_code, result.stdout) == (1, "".join(f"{line}\n" for line in expected))
    errors = sum(": error: " in line for line in expected)  # each in sync: the rules fail it
    fail = f"{errors} problem{'s' if errors != 1 else ''} above fail{'s' if errors == 1 else ''}"
    assert re.fullmatch(
        rf"\d+ generated files? match(es)? the registry, but {fail} the check\n", result.stderr
    )


# The worked example's entry, damaged one way at a time: (id, edit, line, message).
EXAMPLE_ENTRY = "changelog/2026-08-04.mdx"
DAMAGED = [
    (
        "header",
        lambda t: t.replace("Apache-2.0", "MIT", 1),
        1,
        "the entry must start with the exact SPDX header",
    ),
    (
        "html-comment",
        lambda t: t + "<!-- note -->\n",
        16,
        "HTML comments are not allowed in changelog entries; use {/* ... */}",
    ),
    (
        "token",
        lambda t: t + "Run `$$nemoclaw onboard`.\n",
        16,
        "the CLI token '$$nemoclaw' is not replaced in changelog entries; write the CLI name "
        "literally",
    ),
    (
        "agentonly",
        lambda t: t + '<AgentOnly variant="hermes">\n',
        16,
        "<AgentOnly> is not resolved in changelog entries",
    ),
    (
        "relative-link",
        lambda t: t.replace("(/user-guide/openclaw/inference/local-inference/", "(../inference/"),
        "15:48",  # the link's target
        "relative link '../inference/set-up-vllm': changelog links must be root-absolute routes "
        "such as /user-guide/...",
    ),
    (
        "dead-link",
        lambda t: t.replace("local-inference/set-up-vllm", "local-inference/nope"),
        "15:48",
        "link '/user-guide/openclaw/inference/local-inference/nope' does not resolve to a page the "
        "project publishes",
    ),
    (
        "bad-heading",
        lambda t: t.replace("## v0.0.102", "## Version 0.0.102"),
        1,
        "no release heading: add '## vX.Y.Z'",
    ),
    (
        "order",
        lambda t: t + "\n## v0.0.103\n\nNemoClaw v0.0.103 adds things.\n",
        17,
        "v0.0.103 comes after v0.0.102: list releases newest first",
    ),
]


@pytest.mark.parametrize(
    ("edit", "line", "message"), [c[1:] for c in DAMAGED], ids=[c[0] for c in DAMAGED]
)
def test_damaged_past_entry_fails_check_with_file_and_line(example, run, edit, line, message):
    example.write(EXAMPLE_ENTRY, edit(example.read(EXAMPLE_ENTRY)))
    result = run(example, "check")
    assert result.exit_code == 1
    assert f"{EXAMPLE_ENTRY}:{line}: error: {message}" in result.output


def test_duplicate_version_across_files_and_bad_file_name(example, run):
    example.write("changelog/2026-08-05.mdx", example.read(EXAMPLE_ENTRY))
    example.write(
        "changelog/2026-13-01.mdx", example.read(EXAMPLE_ENTRY).replace("v0.0.102", "v0.0.1")
    )
    result = run(example, "check")
    assert result.exit_code == 1
    assert (
        "changelog/2026-08-05.mdx:6: error: version v0.0.102 is already released in "
        f"{EXAMPLE_ENTRY}"
    ) in result.output
    assert (
        "changelog/2026-13-01.mdx:1: error: changelog file name '2026-13-01.mdx' is not a "
        "real date as YYYY-MM-DD.mdx"
    ) in result.output


def minimal_registry():
    return load_bytes(MINIMAL_REGISTRY.encode(), "profiles.yaml")


def test_without_known_routes_a_root_absolute_link_is_not_looked_up():
    """Only a project that publishes pages can tell a dead link; a relative one is wrong
    either way."""
    registry = minimal_registry()
    anywhere = parse_entry(DAY, entry(section("v1.0.0", "/guide/alpha/anywhere")))
    assert history.check_entry(anywhere, registry, set()) == []
    assert history.check_entry(anywhere, registry, {LINK}) == [
        Problem(
            "link '/guide/alpha/anywhere' does not resolve to a page the project publishes",
            Location(DAY, 11, 43),
            rule="changelog-link-published",
        )
    ]
    relative = parse_entry(DAY, entry(section("v1.0.0", "models")))
    assert [p.message for p in history.check_entry(relative, registry, set())] == [
        "relative link 'models': changelog links must be root-absolute routes such as "
        "/user-guide/..."
    ]


def test_published_routes_are_each_page_for_its_agents_and_each_release_for_all(
    tmp_path: Path,
):
    project = config.Project(tmp_path, config.Config())
    for name in ("2026-01-02.mdx", "draft.mdx", "overview.mdx"):
        (tmp_path / "changelog").mkdir(exist_ok=True)
        (tmp_path / "changelog" / name).write_text(VALID, "utf-8")
    pages = [("docs/models.mdx", ("alpha", "beta")), ("docs/beta/only.mdx", ("beta",))]
    assert history.published_routes(project, pages, minimal_registry()) == {
        "/guide/alpha/models",
        "/guide/beta/models",
        "/guide/beta/beta/only",
        "/guide/alpha/release-notes/2026/1/2",
        "/guide/beta/release-notes/2026/1/2",
        "/guide/alpha/draft",
        "/guide/beta/draft",
    }


def test_a_heading_after_a_fence_that_its_list_item_ended_is_a_heading():
    """MDX ends a fence opened in a list item where the item ends: the line is text."""
    registry = minimal_registry()
    tail = "- An unclosed fence in a list item:\n  ```\n  code\n# Installation guide\n"
    text = entry(section("v1.0.0", "/guide/alpha/models")) + tail
    found = history.check_entry(parse_entry(DAY, text), registry, set())
    line = text.split("\n").index("# Installation guide") + 1
    assert [(p.message, p.location) for p in found] == [
        (
            "headings in changelog entries are '## vX.Y.Z', got '# Installation guide'",
            Location(DAY, line),
        )
    ]


def test_a_bracketed_label_and_a_colon_then_words_is_no_definition():
    """``- [Breaking]:`` with text on the next line is a paragraph to CommonMark: its next
    line is no link target."""
    registry = minimal_registry()
    text = (
        entry(section("v1.0.0", "/guide/alpha/models")) + "- [Breaking]:\n  The profile changed.\n"
    )
    assert history.check_entry(parse_entry(DAY, text), registry, set()) == []


@pytest.mark.parametrize("count", [100, 101])
def test_an_entry_says_at_most_a_hundred_problems(make_project, run, count):
    """Exactly the bound is said in full; past it, the first hundred and a line that says
    more were left out."""
    assert MAX_ENTRY_PROBLEMS == 100
    lines = history_check(make_project, run, {DAY: VALID + "\n{\n" * count}).stdout.splitlines()
    more = "more problems in this entry are not listed (the first 100 are)"
    assert [line.endswith(more) for line in lines] == [False] * 100 + [True] * (count - 100)


def test_the_spdx_header_is_not_held_to_the_markup_rules(make_project, run):
    """The header is the registry's own text in an MDX comment: a copyright naming a mail
    address in angle brackets is no raw markup there."""
    holder = "Copyright (c) 2026 Acme Inc. <legal@acme.example>"
    registry = MINIMAL_REGISTRY.replace("Copyright (c) 2026 Acme Inc.", holder)
    head = HEADER.replace("Copyright (c) 2026 Acme Inc.", holder)
    project = make_project(registry=registry, files={DAY: entry(head=head)})
    assert run(project, "build").exit_code == 0
    checked = run(project, "check")
    assert checked.exit_code == 0, checked.output
