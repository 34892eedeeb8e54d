"""Broken hand-written pages (AgentOnly blocks, agent variants, managed regions): each gives an
exact located error and changes nothing.
"""

from __future__ import annotations

import pytest
from bad_input_cases import BUILD, CHECK, Case, check, page, param

PAGES = [
    Case(
        "agentonly-nested",
        BUILD,
        (
            "docs/guide.mdx:8: error: nested <AgentOnly> block (the block opened on line 7 is "
            "still open)",
            "docs/guide.mdx:11: error: stray </AgentOnly> without an opening tag",
        ),
        files=page(
            '<AgentOnly variant="alpha">\n<AgentOnly variant="beta">\nx\n'
            "</AgentOnly>\n</AgentOnly>\n"
        ),
    ),
    Case(
        "agentonly-unclosed",
        BUILD,
        ("docs/guide.mdx:7: error: unclosed <AgentOnly> block: add </AgentOnly> on its own line",),
        files=page('<AgentOnly variant="alpha">\nx\n'),
    ),
    Case(
        "agentonly-stray-close",
        BUILD,
        ("docs/guide.mdx:8: error: stray </AgentOnly> without an opening tag",),
        files=page("x\n</AgentOnly>\n"),
    ),
    Case(
        "agentonly-inline",
        BUILD,
        (
            "docs/guide.mdx:7: error: inline <AgentOnly> tag: put each opening and closing tag "
            "alone on its own line",
        ),
        files=page('Only <AgentOnly variant="alpha">this</AgentOnly>.\n'),
    ),
    Case(
        "agentonly-indented-in-a-list-item",
        BUILD,
        (
            "docs/guide.mdx:8: error: indented <AgentOnly> tag: write it at the start of its "
            "line, not inside a list item or other block (the whole block goes to the agents "
            "it names)",
            "docs/guide.mdx:10: error: indented <AgentOnly> tag: write it at the start of its "
            "line, not inside a list item or other block (the whole block goes to the agents "
            "it names)",
        ),
        files=page('- Step one\n  <AgentOnly variant="alpha">\n  x\n  </AgentOnly>\n'),
    ),
    Case(
        "agentonly-single-quoted-variant",
        BUILD,
        (
            "docs/guide.mdx:7: error: <AgentOnly> takes its variant in double quotes: "
            'variant="name"',
            "docs/guide.mdx:9: error: stray </AgentOnly> without an opening tag",
        ),
        files=page("<AgentOnly variant='alpha'>\nx\n</AgentOnly>\n"),
    ),
    # Each tag alone on its line, but not as docgen reads one: said so, not "inline".
    Case(
        "agentonly-self-closing",
        BUILD,
        (
            'docs/guide.mdx:7: error: malformed <AgentOnly> tag: write <AgentOnly variant="a,b"> '
            "or </AgentOnly>",
        ),
        files=page('<AgentOnly variant="alpha" />\nx\n'),
    ),
    Case(
        "agentonly-other-attribute",
        BUILD,
        (
            'docs/guide.mdx:7: error: malformed <AgentOnly> tag: write <AgentOnly variant="a,b"> '
            "or </AgentOnly>",
            "docs/guide.mdx:9: error: stray </AgentOnly> without an opening tag",
        ),
        files=page('<AgentOnly variant="alpha" id="x">\nx\n</AgentOnly>\n'),
    ),
    Case(
        "agentonly-unknown-agent",
        BUILD,
        ("docs/guide.mdx:7: error: unknown agent 'alhpa' in <AgentOnly>; did you mean 'alpha'?",),
        files=page('<AgentOnly variant="alhpa">\nx\n</AgentOnly>\n'),
    ),
    Case(
        "agentonly-no-agent",
        BUILD,
        ("docs/guide.mdx:7: error: <AgentOnly> names no agent",),
        files=page('<AgentOnly variant="">\nx\n</AgentOnly>\n'),
    ),
    Case(
        "agentonly-empty-heading",
        BUILD,
        (
            "docs/guide.mdx:7: error: heading 'Beta only' has no content in the alpha variant: "
            "move the heading into the <AgentOnly> block that holds its body",
        ),
        files=page('## Beta only\n\n<AgentOnly variant="beta">\nx\n</AgentOnly>\n'),
    ),
    Case(
        "token-on-single-agent-page",
        BUILD,
        (
            "docs/guide.mdx:6: error: '$$acme' on a page published only for 'alpha': write the "
            "CLI name literally or publish the page for more agents",
        ),
        files=page("x\n", 'agent-variants: ["alpha"]\n'),
    ),
    Case(
        "agent-variants-not-a-list",
        BUILD,
        (
            "docs/guide.mdx:3:1: error: agent-variants must be a list of agent ids, like "
            '["openclaw", "hermes"]',
        ),
        files=page("x\n", "agent-variants: alpha\n"),
    ),
    Case(
        "agent-variants-empty-list",  # the page would be published for no agent, silently
        BUILD,
        ("docs/guide.mdx:3:1: error: agent-variants names no agent",),
        files=page("x\n", "agent-variants: []\n"),
    ),
    Case(
        "agent-variants-block-list-names-unknown-agent",
        BUILD,
        (
            "docs/guide.mdx:3:1: error: agent-variants names unknown agent 'gamma'; the agents "
            "are 'alpha' and 'beta'",
        ),
        files=page("x\n", "agent-variants:\n  - alpha\n  - gamma\n"),
    ),
    Case(
        "frontmatter-invalid-yaml",
        BUILD,
        (
            "docs/guide.mdx:3:9: error: invalid YAML frontmatter: this '[' list is never "
            "closed: the frontmatter ends before its ']'",
        ),
        files=page("x\n", "topics: [unclosed\n"),
    ),
    Case(
        "frontmatter-tab-indentation",
        BUILD,
        (
            "docs/guide.mdx:4:1: error: invalid YAML frontmatter: tab characters are not "
            "allowed for indentation; use spaces",
        ),
        files=page("x\n", "content:\n\ttype: how_to\n"),
    ),
    Case(  # Python's own words leaked: "invalid literal for int() with base 10: ''"
        "frontmatter-no-number",
        BUILD,
        (
            "docs/guide.mdx:3:11: error: invalid YAML frontmatter: '-_' reads as a number in "
            'YAML 1.2, but no number can be read from it: quote it ("-_") to make it text',
        ),
        files=page("x\n", "subtitle: -_\n"),
    ),
    Case(  # TypeError: unhashable type: 'dict' (exit 3)
        "frontmatter-unhashable-key",
        BUILD,
        (
            "docs/guide.mdx:3:3: error: invalid YAML frontmatter: a mapping key is a list or a "
            "mapping (written with `?`); a key must be a plain value: text, a number, true, "
            "false or null",
        ),
        files=page("x\n", "? [{a: 1}]\n: x\n"),
    ),
    Case(
        "frontmatter-duplicate-key",
        BUILD,
        (
            "docs/guide.mdx:3:1: error: invalid YAML frontmatter: duplicate key 'title' "
            "(first defined on line 2)",
        ),
        files=page("x\n", "title: Again\n"),
    ),
    Case(
        "frontmatter-not-a-mapping",
        BUILD,
        ("docs/guide.mdx:2: error: frontmatter must be a mapping of keys to values",),
        files={"docs/guide.mdx": "---\n- a list\n---\n\nRun `$$acme onboard`.\n"},
    ),
    Case(
        "frontmatter-never-closed-after-a-comment-and-a-quoted-key",
        BUILD,
        (
            "docs/guide.mdx:1:1: error: this '---' opens a frontmatter that no '---' line "
            "closes: close it (MDX would show its lines as text)",
        ),
        files={"docs/guide.mdx": '---\n# SPDX\n"a b": Guide\n\nRun `$$acme onboard`.\n'},
    ),
    Case(
        "frontmatter-never-closed",
        BUILD,
        (
            "docs/guide.mdx:1:1: error: this '---' opens a frontmatter that no '---' line "
            "closes: close it (MDX would show its lines as text)",
        ),
        files={"docs/guide.mdx": "---\ntitle: Guide\n\nRun `$$acme onboard`.\n"},
    ),
    Case(
        "frontmatter-long-number-behind-an-anchor",
        BUILD,
        (
            "docs/guide.mdx:3:4: error: invalid YAML frontmatter: '"
            + "1" * 40
            + "..."
            + "1" * 10
            + "' holds a number too long to read (over 4,300 digits)",
        ),
        files=page("x\n", "x: &a 1" + "1" * 5000 + "\ny: *a\n"),
    ),
    Case(
        "frontmatter-line-separator",
        BUILD,
        (
            "docs/guide.mdx:3:11: error: U+2028 (LINE SEPARATOR), which YAML reads as a line "
            "break and editors do not: end lines with a newline, and write such a character "
            "in a double-quoted string as its escape",
        ),
        files=page("x\n", "summary: a\u2028#b\n"),
    ),
    Case(
        "frontmatter-control-character-is-located-at-it",
        BUILD,
        (
            "docs/guide.mdx:3:12: error: invalid YAML frontmatter: YAML allows no character "
            "U+001B here (no control character but tab and line breaks): remove it, or write "
            "it as an escape in a double-quoted string",
        ),
        files=page("x\n", 'summary: "a\x1bb"\n'),
    ),
    Case(  # ruamel.yaml's scanner raised Python's own error, shown without a column
        "frontmatter-escape-past-the-last-character",
        BUILD,
        (
            "docs/guide.mdx:3:12: error: invalid YAML frontmatter: the escape '\\U00110000' "
            "names no character (the last is U+10FFFF): write the character itself, or an "
            "escape up to \\U0010FFFF",
        ),
        files=page("x\n", 'summary: "a\\U00110000"\n'),
    ),
    Case(
        "frontmatter-nul-is-located-at-it",
        BUILD,
        (
            "docs/guide.mdx:4:4: error: invalid YAML frontmatter: YAML allows no character "
            "U+0000 here (no control character but tab and line breaks): remove it, or write "
            "it as an escape in a double-quoted string",
        ),
        files=page("x\n", "a: 1\nb: \x00\n"),
    ),
    Case(
        "frontmatter-lone-surrogate",
        BUILD,
        (
            "docs/guide.mdx:3:11: error: invalid YAML frontmatter: this escape names a "
            "surrogate (U+D800 to U+DFFF), which is no character: write the character itself",
        ),
        files=page("x\n", 'summary: "\\ud800"\n'),
    ),
    Case(
        "frontmatter-large-and-not-plain",
        BUILD,
        (
            "docs/guide.mdx:3:4: error: invalid YAML frontmatter: the anchor '&x': in a "
            "frontmatter over 16 KB docgen reads only plain YAML (no anchors, aliases, merge "
            "keys, tags or directives; numbers in decimal), since its careful reader would "
            "take too long at this size",
        ),
        files=page("x\n", "a: &x 1\nb: *x\n" + "".join(f"k{n}: v\n" for n in range(3000))),
    ),
    Case(
        "frontmatter-large-with-a-syntax-error-is-located-at-it",
        BUILD,
        (
            "docs/guide.mdx:3004:1: error: invalid YAML frontmatter: did not find expected ',' "
            "or ']' (in a flow sequence that starts at 3003:6)",
        ),
        files=page("x\n", "".join(f"k{n}: v\n" for n in range(3000)) + "bad: [unclosed\n"),
    ),
    Case(
        "frontmatter-directive",
        BUILD,
        (
            "docs/guide.mdx:3:1: error: invalid YAML frontmatter: a '%' directive line must be "
            "followed by a '---' line: remove the directive (a YAML file needs none)",
        ),
        files={"docs/guide.mdx": "---\n%YAML 1.2\ntitle: Guide\n---\n\nRun `$$acme`.\n"},
    ),
    Case(
        "agent-variants-in-a-flow-mapping-is-located-at-its-key",
        BUILD,
        (
            "docs/guide.mdx:3:3: error: agent-variants names unknown agent 'nope'; the agents "
            "are 'alpha' and 'beta'",
        ),
        files={
            "docs/guide.mdx": "---\n{title: a,\n  agent-variants: [nope]}\n---\n\nRun `$$acme`.\n"
        },
    ),
    Case(
        "agent-variants-names-an-agent-twice",
        BUILD,
        ("docs/guide.mdx:3:1: error: agent-variants names 'alpha' more than once",),
        files=page("x\n", "agent-variants: [alpha, alpha]\n"),
    ),
    Case(
        "frontmatter-invalid-in-a-page-docgen-does-not-vary",
        CHECK,
        (
            "docs/plain.mdx:2:8: error: invalid YAML frontmatter: this quoted string is never "
            "closed",
        ),
        files={"docs/plain.mdx": '---\ntitle: "Plain\n---\n\nNo token here.\n'},
    ),
    Case(
        "agent-variants-unknown-agent",
        BUILD,
        (
            "docs/guide.mdx:3:1: error: agent-variants names unknown agent 'gamma'; the agents "
            "are 'alpha' and 'beta'",
        ),
        files=page("x\n", 'agent-variants: ["alpha", "gamma"]\n'),
    ),
    Case(
        "runtime-component",
        BUILD,
        (
            "docs/guide.mdx:7: error: runtime component <AgentCli> is not resolved in variants: "
            "write the CLI token or literal text instead",
        ),
        files=page("Run <AgentCli /> now.\n"),
    ),
    Case(
        "region-unknown",
        BUILD,
        ("docs/ref.mdx:3:18: error: unknown region 'model-table'; did you mean 'models-table'?",),
        files={"docs/ref.mdx": "# Ref\n\n{/* docgen:begin model-table */}\n{/* docgen:end */}\n"},
    ),
    Case(
        "region-unclosed",
        BUILD,
        ("docs/ref.mdx:3:1: error: region 'models-table' is never closed: add {/* docgen:end */}",),
        files={"docs/ref.mdx": "# Ref\n\n{/* docgen:begin models-table */}\n"},
    ),
    Case(
        "region-end-without-begin",
        BUILD,
        ("docs/ref.mdx:3:1: error: docgen:end without a docgen:begin",),
        files={"docs/ref.mdx": "# Ref\n\n{/* docgen:end */}\n"},
    ),
    Case(
        "region-malformed-marker",
        BUILD,
        (
            "docs/ref.mdx:3:9: error: malformed docgen marker: write {/* docgen:begin NAME */} or "
            "{/* docgen:end */} alone on a line",
        ),
        files={"docs/ref.mdx": "# Ref\n\nSee {/* docgen:begin models-table */}\n"},
    ),
    Case(
        "region-nested",
        BUILD,
        (
            "docs/ref.mdx:2:1: error: docgen:begin inside region 'models-table' (opened on "
            "line 1); close it first",
        ),
        files={
            "docs/ref.mdx": "{/* docgen:begin models-table */}\n"
            "{/* docgen:begin host-defaults */}\n{/* docgen:end */}\n"
        },
    ),
    Case(
        "region-unknown-profile",
        BUILD,
        (
            "docs/ref.mdx:1:32: error: unknown profile 'vllm.box.tin' in region 'serve-command'; "
            "did you mean 'vllm.box.tiny'?",
        ),
        files={
            "docs/ref.mdx": "{/* docgen:begin serve-command vllm.box.tin */}\n{/* docgen:end */}\n"
        },
    ),
    Case(
        "region-unexpected-argument",
        BUILD,
        ("docs/ref.mdx:1:31: error: region 'models-table' takes no arguments",),
        files={"docs/ref.mdx": "{/* docgen:begin models-table wide */}\n{/* docgen:end */}\n"},
    ),
    Case(
        "hand-written-at-generated-path",
        BUILD,
        (
            "docs/models.mdx:1:1: error: written by hand (it has no docgen notice), but docgen "
            "generates this path from templates/models.mdx.j2 and never overwrites a "
            "hand-written file: move it away or delete it to let docgen generate it",
        ),
        files={"docs/models.mdx": "# Mine\n"},
    ),
    Case(
        "page-invalid-utf8",
        BUILD,
        ("docs/bad.mdx:1:6: error: invalid UTF-8 byte 0xe9 in the page",),
        files={"docs/bad.mdx": b"# Caf\xe9\n\nOK\n"},
    ),
]

CASES = PAGES


@pytest.mark.parametrize("case", [param(c) for c in CASES])
def test_bad_input_is_a_located_error_and_changes_nothing(make_project, run, monkeypatch, case):
    check(case, make_project, run, monkeypatch)
