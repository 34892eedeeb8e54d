"""Two changelog rules, exactly: each kind of wrong link with its message and rule id, the
published-route test reading a route up to its first ``#``; and a new release that is not
newer than the top of the entry it joins, refused at ``--version`` with its rule id."""

from __future__ import annotations

import pytest

from docgen.changelog.compose import Release
from docgen.changelog.links import link_problem as _link_problem
from docgen.changelog.release_check import _order
from docgen.errors import Location, Problem

WHERE = Location("changelog/2026-01-02.mdx", 7)
ROUTES = {"/guide/alpha/set-up"}
ROOT = "changelog-link-root-absolute"


@pytest.mark.parametrize(
    ("target", "message", "rule"),
    [
        (
            "///evil.example/x",
            "link '///evil.example/x' is not a route; changelog links are root-absolute routes "
            "such as /user-guide/..., http(s):// or mailto: URLs",
            ROOT,
        ),
        (
            "/\\evil.example/x",
            "link '/\\evil.example/x' is not a route; changelog links are root-absolute "
            "routes such as /user-guide/..., http(s):// or mailto: URLs",
            ROOT,
        ),
        (
            "javascript:alert(1)",
            "link 'javascript:alert(1)' uses the scheme 'javascript:'; changelog links are "
            "root-absolute routes such as /user-guide/..., http(s):// or mailto: URLs",
            ROOT,
        ),
        (
            "guide/alpha/set-up",
            "relative link 'guide/alpha/set-up': changelog links must be root-absolute routes "
            "such as /user-guide/...",
            ROOT,
        ),
        (
            "/guide/alpha/gone",
            "link '/guide/alpha/gone' does not resolve to a page the project publishes",
            "changelog-link-published",
        ),
    ],
    ids=["three-slashes", "slash-backslash", "script", "relative", "unpublished"],
)
def test_each_wrong_link_has_its_message_and_rule(target, message, rule):
    assert _link_problem(target, WHERE, ROUTES) == [Problem(message, WHERE, rule=rule)]


@pytest.mark.parametrize(
    "target",
    ["/guide/alpha/set-up", "/guide/alpha/set-up/#a#b", "#top", "/guide/alpha/set-up?tab=1#a"],
)
def test_a_published_route_is_read_up_to_its_first_anchor(target):
    """A query leads to the page as an anchor does (Fern and the preview take it)."""
    assert _link_problem(target, WHERE, ROUTES) == []


ENTRY = "## v0.1.0\n\nAcme v0.1.0 adds things.\n"
PATH = "changelog/2026-01-02.mdx"


def release(version: str) -> Release:
    return Release(version, "Acme adds things.", ("- a bullet",), ())


@pytest.mark.parametrize("version", ["v0.1.0", "v0.0.9"])
def test_a_release_not_newer_than_the_entrys_top_is_refused_at_the_flag(version):
    [problem] = _order(PATH, release(version), ENTRY)
    assert problem.location == Location("--version")
    assert problem.rule == "changelog-order"
    assert problem.message.startswith(version)


def test_a_newer_release_goes_on_top():
    assert _order(PATH, release("v0.2.0"), ENTRY) == []
    assert _order(PATH, release("v0.2.0"), None) == []


# -- a setext underline is a heading only under a line of prose ------------------------------


def heading_lines(text: str) -> list[int]:
    from conftest import MINIMAL_REGISTRY

    from docgen.changelog.entries import parse_entry
    from docgen.changelog.history import HEADING_RULE, check_entry
    from docgen.registry.load import load_bytes

    registry = load_bytes(MINIMAL_REGISTRY.encode(), "profiles.yaml")
    found = check_entry(parse_entry(PATH, text), registry, set())
    return [p.location.line for p in found if p.rule == HEADING_RULE]


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("===\n\n## v0.1.0\n\nAcme v0.1.0 adds things.\n", []),  # nothing above
        ("## v0.1.0\n\nAcme v0.1.0 adds things.\n\n---\n", []),  # a blank line above
        ("## v0.1.0\n\n```\ncode\n```\n---\n", []),  # code above
        ("## v0.1.0\n\nAcme v0.1.0 adds things.\n---\n", [4]),  # prose above: a heading
    ],
    ids=["first-line", "after-blank", "after-code", "after-prose"],
)
def test_an_underline_makes_a_heading_only_under_prose(text, lines):
    assert heading_lines(text) == lines


def test_a_linked_page_that_is_not_utf8_is_named_a_page(make_project, run):
    from conftest import MINIMAL_REGISTRY

    tuned = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")
    project = make_project(
        registry=tuned,
        files={"old.yaml": MINIMAL_REGISTRY, "docgen.toml": 'changelog_link = "docs/faq.mdx"\n'},
    )
    project.write("templates/faq.mdx.j2", "Text.\n")
    (project.root / "docs").mkdir(exist_ok=True)
    (project.root / "docs/faq.mdx").write_bytes(b'---\ntitle: "F\xffAQ"\n---\n')
    args = ["--since-file", "old.yaml", "--version", "v0.1.0", "--date", "2026-12-01"]
    result = run(project, "changelog", *args, "--dry-run")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "docs/faq.mdx:2:10: error: invalid UTF-8 byte 0xff in the page\n"


# -- a release checked before it is written, placed at its inputs ---------------------------

RELEASE_ARGS = [
    "changelog", "--since-file", "old.yaml", "--version", "v0.1.0", "--date", "2026-12-01"
]  # fmt: skip


def released(make_project, run, registry_text: str, files: dict[str, str]):
    from conftest import MINIMAL_REGISTRY

    tuned = registry_text.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")
    project = make_project(registry=tuned, files={"old.yaml": MINIMAL_REGISTRY, **files})
    return project, run(project, *RELEASE_ARGS)


def test_without_an_spdx_header_a_notes_problem_is_still_at_its_line(make_project, run):
    from conftest import MINIMAL_REGISTRY

    bare = MINIMAL_REGISTRY.replace(
        "  spdx:\n    copyright: Copyright (c) 2026 Acme Inc.\n    license: Apache-2.0\n", ""
    )
    note = "- fixes one thing.\n- adds {x} here.\n"
    _project, result = released(make_project, run, bare, {"changelog.d/n.md": note})
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("changelog.d/n.md:2:8: error: '{' starts an MDX expression")


def test_an_existing_entry_of_that_day_that_is_not_utf8_is_named_an_entry(make_project, run):
    from conftest import MINIMAL_REGISTRY

    project, result = released(make_project, run, MINIMAL_REGISTRY, {})
    assert result.exit_code == 0, result.output
    entry = project.root / "changelog/2026-12-01.mdx"
    entry.write_bytes(entry.read_bytes() + b"\n- caf\xff\n")
    (project.root / "old.yaml").write_text(MINIMAL_REGISTRY.replace("0.5", "0.4"), "utf-8")
    again = run(project, *[a if a != "v0.1.0" else "v0.2.0" for a in RELEASE_ARGS])
    assert (again.exit_code, again.stdout) == (2, "")
    assert "invalid UTF-8 byte 0xff in the changelog entry" in again.stderr


@pytest.mark.parametrize(
    ("line", "message", "rule"),
    [
        (
            '<AgentOnly variant="openclaw">',
            "<AgentOnly> is not resolved in changelog entries",
            "changelog-no-agent-only",
        ),
        (
            "Run `$$acme onboard`.",
            "the CLI token '$$acme' is not replaced in changelog entries; write the CLI name "
            "literally",
            "changelog-no-cli-token",
        ),
    ],
    ids=["agent-only", "cli-token"],
)
def test_a_line_rule_has_its_message_and_rule_id(line, message, rule):
    from docgen.changelog.history import _line_problems

    assert _line_problems(line, WHERE, "$$acme", ROUTES) == [Problem(message, WHERE, rule=rule)]


def test_each_refused_link_is_at_its_targets_column():
    """The column is the target's first character, after a good link, a code span holding a
    link-like text (blanked, its length kept), a definition's blanks or an image's ``!``."""
    from docgen.changelog.fences import without_code
    from docgen.changelog.links import line_links

    line = "See [ok](/guide/alpha/set-up), `[x](bad)` and [this](nope) or ![i](javascript:x)."
    found = line_links(without_code(line), WHERE, ROUTES)
    assert [(p.location.col, line[p.location.col - 1 :][:4]) for p in found] == [
        (line.index("(nope") + 2, "nope"),
        (line.index("(javascript") + 2, "java"),
    ]
    assert {(p.location.path, p.location.line) for p in found} == {(WHERE.path, WHERE.line)}
    defined = line_links("[ref]:   /guide/alpha/gone", WHERE, ROUTES)
    assert [p.location.col for p in defined] == [10]
