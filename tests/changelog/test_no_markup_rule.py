"""The ``changelog-no-markup`` rule and the link schemes: a summary, a note or an entry on
disk may not hold raw MDX markup (a tag, an expression, an unclosed comment) outside code,
nor link to a script (``javascript:``, ``data:``, ...). `docgen changelog` refuses such a
release at the flag or note line (exit 2, nothing written); `check` reports such an entry
(exit 1), and so does `build`. Inline code, fenced code and escapes stay literal text."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from conftest import MINIMAL_REGISTRY, Outcome, Project

from docgen.changelog import markup
from docgen.changelog.fences import text_lines
from docgen.changelog.markup import markup_problems

Run = Callable[..., Outcome]
TUNED = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")
DAY = "changelog/2026-01-02.mdx"
RELEASE = ["changelog", "--version", "v1.0.0", "--since-file", "old.yaml", "--date", "2026-01-02"]
NOTE = "changelog.d/note.md"

TAG = "starts an HTML or JSX tag that the site would render or fail on; write '<' as &lt; or \\<, or put it in backticks"  # noqa: E501
OPEN = (
    "'{' starts an MDX expression that the site would run; write it as \\{ or put it in backticks"  # noqa: E501
)
CLOSE = "'}' is MDX syntax; write it as \\} or put it in backticks"
SCHEMES = (
    "changelog links are root-absolute routes such as /user-guide/..., http(s):// or mailto: URLs"  # noqa: E501
)


@pytest.fixture
def project(make_project: Callable[..., Project], run: Run) -> Project:
    made = make_project(registry=TUNED, files={"old.yaml": MINIMAL_REGISTRY})
    assert run(made, "build").exit_code == 0
    return made


def refused(project: Project, run: Run, args: list[str], expected: list[str]) -> None:
    before = project.snapshot()
    result = run(project, *args)
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert result.stderr.splitlines() == expected
    assert project.snapshot() == before
    assert run(project, "check").exit_code == 0


SUMMARIES = [
    ("script", "<script>alert(1)</script>", f"'<s' {TAG}"),
    ("expression", "{alert(1)}", OPEN),
    ("unclosed-comment", "adds {/* x", "an MDX comment opened with {/* does not close with "
     "*/} before a blank line or the end; close it, or write '{' as \\{"),
    ("comment-then-code", "adds {/* x */ alert(1)}", OPEN),
    ("closing-comment", "adds x */}", CLOSE),
    ("fragment", "adds <>x</>", f"'<>' {TAG}"),
    ("bang", "adds <!doctype html>", f"'<!' {TAG}"),
    ("digit", "is <3 fast", f"'<3' {TAG}"),
    ("unclosed-code", "adds `x {y}", "a code span opened with ` does not close on this line; "
     "close it on the same line, or write a lone backtick as \\`"),
    ("javascript", "adds [x](javascript:alert(1)).", f"link 'javascript:alert(1)' uses the "
     f"scheme 'javascript:'; {SCHEMES}"),
    ("javascript-spaced", "adds [x]( JavaScript:alert(1)).", f"link 'JavaScript:alert(1)' uses "
     f"the scheme 'JavaScript:'; {SCHEMES}"),
    ("data", "adds [x](data:text/html,hi).", f"link 'data:text/html,hi' uses the scheme "
     f"'data:'; {SCHEMES}"),
    ("backslash-host", "adds [x](/\\evil.example).", f"link '/\\evil.example' is not a route; "
     f"{SCHEMES}"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("summary", "message"), [c[1:] for c in SUMMARIES], ids=[c[0] for c in SUMMARIES]
)
def test_a_summary_with_markup_is_refused_at_the_flag(project, run, summary, message):
    refused(project, run, [*RELEASE, "--summary", summary], [f"--summary: error: {message}"])


NOTES = [
    ("script", "- adds things.\n  <script>alert(1)</script>\n", "2:3", f"'<s' {TAG}"),
    ("expression", "- adds {alert(1)} things.\n", "1:8", OPEN),
    ("reference-definition", "- adds [x][y].\n\n[y]: vbscript:msgbox\n", "3:6", "link "
     f"'vbscript:msgbox' uses the scheme 'vbscript:'; {SCHEMES}"),
    ("link-on-next-line", "- adds [x](\n  javascript:alert(1)).\n", "1:10", "a link's target must "
     "be on the same line as its text: [text](/route)"),
    ("brackets-in-link-text", "- adds [the [beta] guide](javascript:alert(1)).\n", "1:27",
     f"link 'javascript:alert(1)' uses the scheme 'javascript:'; {SCHEMES}"),
    ("link-around-an-image", "- adds [![badge](https://example.org/b.svg)](javascript:x).\n",
     "1:46", f"link 'javascript:x' uses the scheme 'javascript:'; {SCHEMES}"),
    ("lt-ends-a-paragraph", "- keeps latency <\n", "1:17", "a '<' at the end of a paragraph fails "
     "to compile on the site; write it as &lt; or \\<"),
    ("lt-ends-a-list-item", "- keeps latency <\n- adds things.\n", "1:17", "a '<' at the end of a "
     "paragraph fails to compile on the site; write it as &lt; or \\<"),
    ("image-script", "- adds ![x](javascript:alert(1)).\n", "1:13",
     f"link 'javascript:alert(1)' uses the scheme 'javascript:'; {SCHEMES}"),
    ("image-data", "- adds ![y](data:image/svg+xml,x).\n", "1:13", "link 'data:image/svg+xml,x' "
     f"uses the scheme 'data:'; {SCHEMES}"),
    ("image-character-reference", "- adds ![x](java&#x73;cript&#58;alert(1)).\n", "1:13",
     f"link 'javascript:alert(1)' uses the scheme 'javascript:'; {SCHEMES}"),
    ("image-entity-tab", "- adds ![x](java&#9;script:alert(1)).\n", "1:13",
     f"link 'javascript:alert(1)' uses the scheme 'javascript:'; {SCHEMES}"),
    ("definition-with-a-title-over-two-lines",
     "- adds [x][g].\n\n[g]:\n  javascript:x \"a\n  b\"\n", 4,
     f"link 'javascript:x' uses the scheme 'javascript:'; {SCHEMES}"),
    ("definition-target-on-next-line", "- adds [x][g].\n\n[g]:\n  javascript:alert(3)\n", 4,
     f"link 'javascript:alert(3)' uses the scheme 'javascript:'; {SCHEMES}"),
    # Link text the patterns cannot follow: the target is still found after its ``](``.
    ("escaped-bracket-in-link-text", "- fixes [a \\] b](javascript:alert(1)).\n", 1,
     f"link 'javascript:alert(1)' uses the scheme 'javascript:'; {SCHEMES}"),
    ("bracket-in-code-span", "- fixes [c `]` d](javascript:alert(1)).\n", "1:19",
     f"link 'javascript:alert(1)' uses the scheme 'javascript:'; {SCHEMES}"),
    ("link-text-over-two-lines", "- fixes [click\n  me](javascript:alert(2)).\n", 2,
     f"link 'javascript:alert(2)' uses the scheme 'javascript:'; {SCHEMES}"),
    ("escaped-colon", "- fixes [a \\] b](javascript\\:alert(1)).\n", 1,
     f"link 'javascript:alert(1)' uses the scheme 'javascript:'; {SCHEMES}"),
    ("image-with-escaped-bracket", "- shows ![e \\] f](data:image/svg+xml,x).\n", 1,
     f"link 'data:image/svg+xml,x' uses the scheme 'data:'; {SCHEMES}"),
    ("label-over-two-lines", "- adds [x][a b].\n\n[a\nb]: javascript:alert(4)\n", 4,
     f"link 'javascript:alert(4)' uses the scheme 'javascript:'; {SCHEMES}"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "line", "message"), [c[1:] for c in NOTES], ids=[c[0] for c in NOTES]
)
def test_a_note_with_markup_is_refused_at_its_line(project, run, text, line, message):
    project.write(NOTE, text)
    refused(project, run, RELEASE, [f"{NOTE}:{line}: error: {message}"])
    assert (project.root / NOTE).exists()


def released(project: Project, run: Run, summary: str) -> None:
    """The release of the note waiting in ``project`` passes, and so does the tree."""
    result = run(project, *RELEASE, "--summary", summary)
    assert result.exit_code == 0, result.output
    assert run(project, "build").exit_code == 0
    assert run(project, "check").exit_code == 0


def test_code_and_escapes_stay_text(project: Project, run: Run) -> None:
    """Braces and angle brackets in backticks, in a fence, escaped or as `&lt;`, a lone `<`
    before a blank and a whole MDX comment are accepted, and the entry passes `check`."""
    project.write(
        NOTE,
        "- sets `--hf-overrides '{\"a\": 1}'` and ``a`b<c>`` for x < y, and for x <\n"
        "  y on the next line.\n"
        "  Writes \\{x\\}, \\<br>, &lt;b&gt; and \\\\\\` alone. {/* reviewed */}\n"
        "  ```json\n"
        '  {"max_model_len": "<auto>"}\n'
        "  ```\n"
        "  See [site](https://example.org/x), [mail](mailto:docs@example.org).\n",
    )
    released(project, run, "adds `{x}` and `<T>` for a < b.")


def test_log_lines_and_code_that_hold_brackets_are_not_links(project: Project, run: Run) -> None:
    """The search for hidden link targets reads neither code nor text that no link or
    definition can be: vLLM's log lines quoted in a note pass."""
    project.write(
        NOTE,
        "- No longer fails with `[rank0]: torch.OutOfMemoryError: CUDA out of memory`.\n"
        "- [rank0]: torch.OutOfMemoryError: CUDA out of memory no longer appears.\n"
        "  See [RFC]: the note. Fixed the crash in [v1 parser]: fix: flags now parse.\n"
        "  Write `[x]: mailto:a@b.c` or `[y](javascript:void(0))` in code.\n"
        "  ```md\n"
        "  [x](data:text/plain,hi)\n"
        "  ```\n"
        "  ```text\n"
        "  ERROR [core.py:708]: ValueError: boom\n"
        "  ```\n"
        "  ```python\n"
        "  for arg in argv[1:]:\n"
        "      try: run(arg)\n"
        "  ```\n",
    )
    released(project, run, "quotes logs.")


def test_an_entry_with_markup_fails_check_and_build(project: Project, run: Run) -> None:
    assert run(project, *RELEASE, "--summary", "adds things.").exit_code == 0
    text = (project.root / DAY).read_text("utf-8")
    project.write(DAY, text.replace("adds things.", "adds {alert(1)} <img src=x> things."))
    lines = text.split("\n").index("Acme v1.0.0 adds things.") + 1
    column = len("Acme v1.0.0 adds {") - 1 + 1  # at the brace that opens the expression
    expected = f"{DAY}:{lines}:{column}: error: {OPEN}\n"
    built = run(project, "build")  # writes the overview, and reports the entry
    assert (built.exit_code, built.stderr) == (1, expected)
    assert "write changelog/overview.mdx" not in built.stdout
    assert "update changelog/overview.mdx" in built.stdout
    checked = run(project, "check")
    assert (checked.exit_code, checked.stdout) == (1, expected)
    # The overview shows the summary as plain text: it never runs what the entry holds.
    overview = (project.root / "changelog/overview.mdx").read_text("utf-8")
    assert "adds \\{alert(1)} \\<img src=x> things." in overview
    assert "{alert(1)}" not in overview.replace("\\{alert(1)}", "")


def test_an_entry_line_that_mdx_reads_as_javascript_fails_check(project: Project, run: Run):
    assert run(project, *RELEASE, "--summary", "adds things.").exit_code == 0
    text = (project.root / DAY).read_text("utf-8")
    esm = "import Tracker from 'https://evil.example/t.js'"
    project.write(DAY, text.replace("adds things.\n", f"adds things.\n\n{esm}\n", 1))
    line = (project.root / DAY).read_text("utf-8").split("\n").index(esm) + 1
    checked = run(project, "check")
    assert (checked.exit_code, checked.stdout) == (
        1,
        f"{DAY}:{line}:1: error: a line that starts with 'import' or 'export' is JavaScript to "
        "MDX where a block starts (it would run on the site); start the line with other words\n",
    )


def test_an_overview_escapes_a_summary_that_ends_in_a_bracket(project: Project, run: Run):
    """The entry's own error (a '<' that ends its paragraph); the overview line that shows
    the summary ends its list item there too, and compiles."""
    from mdxc import compile_mdx, require_mdx

    require_mdx()
    assert run(project, *RELEASE, "--summary", "adds things.").exit_code == 0
    text = (project.root / DAY).read_text("utf-8")
    project.write(DAY, text.replace("adds things.", "adds things <"))
    assert run(project, "build").exit_code == 1
    overview = (project.root / "changelog/overview.mdx").read_text("utf-8")
    assert "adds things \\<\n" in overview
    assert compile_mdx({"overview": overview}) == {"overview": None}


@pytest.mark.parametrize(
    ("markup", "shown"),
    [
        ("<!-- draft -->", "\\<!-- draft -->"),
        ('<AgentOnly variant="a">', '\\<AgentOnly variant="a">'),
        ("</AgentOnly>", "\\</AgentOnly>"),
    ],
)
def test_an_overview_never_copies_a_comment_or_agentonly_from_a_summary(
    project: Project, run: Run, markup: str, shown: str
) -> None:
    """Their own rules report them (not the markup rule), but the overview must not
    carry them either: MDX fails on an HTML comment."""
    assert run(project, *RELEASE, "--summary", "adds things.").exit_code == 0
    text = (project.root / DAY).read_text("utf-8")
    project.write(DAY, text.replace("adds things.", f"adds {markup} things."))
    assert run(project, "build").exit_code == 1
    overview = (project.root / "changelog/overview.mdx").read_text("utf-8")
    assert f"adds {shown} things." in overview
    assert f" {markup}" not in overview


def test_the_spdx_header_is_no_markup(project: Project, run: Run) -> None:
    """The header `{/* ... */}` over four lines is the entry's own; the rule starts below."""
    assert run(project, *RELEASE, "--summary", "adds things.").exit_code == 0
    assert (project.root / DAY).read_text("utf-8").startswith("{/*\n")
    assert run(project, "check").exit_code == 0


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("a < b and a <\tb and a <", None),
        ("`<x>` and ``{`}`` and ` {`", None),
        ("\\\\{x}", OPEN),  # an escaped backslash, then a raw brace
        ("\\`{x}`", OPEN),  # an escaped backtick opens no code span
        ("{/* a */ alert(1) }", OPEN),
        ("{/* a */}{/* b */}", None),
        ("{/* a", "an MDX comment opened with {/* does not close with */} before a blank line "
         "or the end; close it, or write '{' as \\{"),
        ("<_x>", f"'<_' {TAG}"),
    ],
)  # fmt: skip
def test_markup_problems_read_a_line_as_mdx_does(line: str, expected: str | None) -> None:
    """The line opens a paragraph that goes on, then ends at a blank line."""
    found = [message for _index, _at, message in markup_problems([line, "And more.", ""])]
    assert found == ([] if expected is None else [expected])


@pytest.mark.parametrize(
    ("lines", "text"),
    [
        (["- a", "  ```", "  {x}", "  ```", "{y}"], [0, 4]),
        (["- a", "  ```", "  {x}", "{y}", "  z"], [0, 3, 4]),  # a less indented line ends it
        (["- a", "", "      ```", "      {x}"], [0, 1, 2, 3]),  # 4+ spaces: no fence
        (["```", "{x}", "", "{y}"], []),  # a fence left open runs to the end
    ],
)
def test_only_fences_mdx_reads_as_code_are_skipped(lines: list[str], text: list[int]) -> None:
    assert [index for index, _line in text_lines(lines)] == text


def test_an_mdx_comment_may_go_on_over_lines_but_not_past_a_blank_one() -> None:
    assert list(markup_problems(["- a {/* one", "  two */} b", "  c"])) == []
    # Each problem at its line and offset: an unclosed comment where it opened.
    found = markup_problems(["- a {/* one", "", "  */}"])
    assert [(i, at) for i, at, _m in found] == [(0, 4), (2, 4)]
    # A "*/" without "}" closes nothing: the "{" that opened it started an expression.
    # (A comment's lines are checked too: its "```" would end the paragraph it is in.)
    found = markup_problems(["- a {/* one", "  ```", "*/ alert(1) }"])
    assert [(i, at) for i, at, _m in found] == [(1, 2), (0, 4)]
    # A comment that opens a line is a block: its lines go as far in as it, and no text
    # follows it on its last line.
    assert list(markup_problems(["Para.", "", "{/* a", "- b", "*/}"])) == []
    assert list(markup_problems(["- Fixed X.", "  {/* see PR 12", "  for details */}"])) == []
    lazy = markup._LAZY_COMMENT.format(2)
    assert [m for _i, _at, m in markup_problems(["- {/* a", "b */}"])] == [lazy]
    assert [m for _i, _at, m in markup_problems(["- item", "{/* a", "b */}"])] == [lazy]
    text = ["", "{/* a", "b */} c"]
    assert [m for _i, _at, m in markup_problems(text)] == [markup._TEXT_AFTER]
    # A heading is one line: a comment opened there never closes.
    heading = ["# Notes {/* draft", "for review */}"]
    assert [m for _i, _at, m in markup_problems(heading)] == [markup._COMMENT_IN_HEADING]
    # ESM is refused at the start of any line, also one that opens a comment.
    esm = ["import {/* x", "*/} from 'data:text/javascript,console.log(1)'"]
    assert [(i, at) for i, at, _m in markup_problems(esm)] == [(0, 0)]
    # In a quote, it closes on its line; lazy lines of a paragraph are MDX's too.
    assert [m for _i, _at, m in markup_problems(["> a {/* b", "> c */}"])] == [
        markup._COMMENT_QUOTED
    ]
    assert list(markup_problems(["- Fixed X {/* see PR", "for details */} and Y."])) == []
    # A comment closed on a line that opens another: the unclosed one is the second.
    found = markup_problems(["  It retains {/* one", "  two */} async {/* three", "  more", ""])
    assert [(i, at) for i, at, _m in found] == [(1, 16)]
    found = markup_problems(["ok", "a `b", "x < y, <b>", "x ](", "} here"])
    assert [(i, at) for i, at, _m in found] == [(1, 2), (2, 7), (3, 2), (4, 0)]


def test_registry_text_in_a_bullet_is_escaped_whole(make_project, run: Run) -> None:
    """An override's summary is lower-cased at its first letter and escaped as one text: a
    URL split there escaped apart, and its ``\\<`` then read as part of a GFM autolink,
    which left a raw ``<img>`` tag in the entry (judged by the MDX 3 compiler)."""
    from mdxc import mdx_trees, require_mdx

    require_mdx()
    summary = 'Https://a.b/<img src="x" title="injected" /> more.'
    new = MINIMAL_REGISTRY.replace("summary: Use less memory.", f"summary: '{summary}'")
    old = new.split("    overrides:\n")[0] + "\n"
    project = make_project(registry=new, files={"old.yaml": old})
    assert run(project, "build").exit_code == 0
    result = run(project, *RELEASE)
    assert result.exit_code == 0, result.output
    tree = json.dumps(mdx_trees({"entry": project.read(DAY)})["entry"])
    assert "mdxJsx" not in tree and '"img"' not in tree


@pytest.mark.parametrize("indent", ["", " ", "  ", "   "])
def test_a_fence_indented_up_to_three_blanks_is_code(indent):
    """CommonMark opens a fence after at most three blanks: what it holds is code, whose
    braces and backticks are no markup."""
    from docgen.changelog.markup import markup_problems

    lines = ["Text.", "", f"{indent}```json", f'{indent}{{"a": 1}}', f"{indent}```"]
    assert list(markup_problems(lines)) == []


def test_a_note_that_opens_with_a_code_block_is_released_and_checks(project: Project, run: Run):
    """The note's first line is a fence, so its bullet opens with one (``- ```bash``): MDX
    reads the item's lines as code up to the closing fence, as the MDX 3 compiler shows;
    the release was refused ("a code span ... does not close") and `check` failed on it."""
    from mdxc import mdx_trees, require_mdx

    require_mdx()
    project.write(NOTE, "```bash\necho {x} <y>\n```\n")
    result = run(project, *RELEASE, "--summary", "adds things.")
    assert result.exit_code == 0, result.output
    entry = project.read(DAY)
    assert "- ```bash\n  echo {x} <y>\n  ```\n" in entry
    assert run(project, "check").exit_code == 0
    tree = json.dumps(mdx_trees({"entry": entry})["entry"])
    assert '"type": "code", "lang": "bash", "meta": null, "value": "echo {x} <y>"' in tree
    assert "mdxJsx" not in tree and "mdxTextExpression" not in tree


@pytest.mark.parametrize("marker", ["- ", "* ", "1. ", "1) ", "-    "])
def test_a_fence_that_opens_a_list_item_holds_code_only_as_far_as_the_item(marker):
    """Its lines indented as far as the item's content are code; a line indented less
    ends the item, and the code, and is text again."""
    width = len(marker)
    code = " " * width + "{x} <y>"
    assert list(markup_problems([f"{marker}```js", code, " " * width + "```"])) == []
    found = markup_problems([f"{marker}```js", code, "<script>"])
    assert [(i, at) for i, at, _m in found] == [(2, 0)]
    lines = [f"{marker}```js", " " * (width - 1) + "{x}"]  # less indented: the item ended
    assert [i for i, _at, _m in markup_problems(lines)] == [1]


def test_five_blanks_after_a_list_marker_make_no_fence():
    """``-     ```js`` is indented code in the item (content after at most four blanks),
    whose backticks open no fence: the next line is text."""
    assert 1 in [i for i, _at, _m in markup_problems(["-     ```js", "  {x}"])]


@pytest.mark.parametrize("marker", ["2. ", "0. ", "3) ", "10. "])
def test_an_ordered_item_that_starts_past_one_opens_no_fence_after_text(marker):
    """Such an item cannot interrupt a paragraph, so MDX reads its line as text and the
    next line's braces as an expression (checked with the MDX 3 compiler)."""
    from mdxc import mdx_trees, require_mdx

    require_mdx()
    lines = ["Text", f"{marker}```js", "   {alert(1)}", "   ```"]
    tree = json.dumps(mdx_trees({"entry": "\n".join(lines) + "\n"})["entry"])
    assert "mdxFlowExpression" in tree or "mdxTextExpression" in tree
    assert 2 in [i for i, _at, _m in markup_problems(lines)]


def test_a_tab_indents_a_line_of_a_list_item_fence_to_the_next_stop():
    """A tab moves a line to column 4: as far as the item's content (2), so code."""
    lines = ["- ```bash", "\techo <b>x</b>", "  ```"]
    assert list(markup_problems(lines)) == []


@pytest.mark.parametrize(
    "text",
    [
        "1. Stop it.\n2. ```js\n   {x} <y>\n   ```\n",  # the next item of an ordered list
        "Text.\n\n3. ```js\n   {x} <y>\n   ```\n",  # a list that starts at 3, after a blank
    ],
)
def test_an_ordered_item_past_one_opens_a_fence_where_it_starts_an_item(text):
    """Where such an item does start (as a list's next item, or after a blank line), MDX
    reads its fence as code, as the compiler shows, and the rule does too."""
    from mdxc import mdx_trees, require_mdx

    require_mdx()
    tree = json.dumps(mdx_trees({"entry": text})["entry"])
    assert "mdxFlowExpression" not in tree and "mdxTextExpression" not in tree
    assert "mdxJsx" not in tree
    assert list(markup_problems(text.split("\n"))) == []


def test_a_note_with_numbered_steps_and_a_code_block_is_released_and_checks(
    project: Project, run: Run
):
    """``1. ...`` then ``2. ```bash``: the code keeps the step's indentation in the bullet,
    MDX 3 reads it as code in the step, and `check` agrees (the note was refused, its
    closing fence taken for an opening one)."""
    from mdxc import mdx_trees, require_mdx

    require_mdx()
    project.write(NOTE, "1. Stop the server.\n2. ```bash\n   docker pull {x} <y>\n   ```\n3. Go.\n")
    result = run(project, *RELEASE, "--summary", "adds things.")
    assert result.exit_code == 0, result.output
    entry = project.read(DAY)
    steps = "- 1. Stop the server.\n  2. ```bash\n     docker pull {x} <y>\n     ```\n  3. Go.\n"
    assert steps in entry
    assert run(project, "check").exit_code == 0
    tree = json.dumps(mdx_trees({"entry": entry})["entry"])
    assert '"lang": "bash", "meta": null, "value": "docker pull {x} <y>"' in tree
    assert "mdxJsx" not in tree and "mdxTextExpression" not in tree


def test_a_step_past_one_under_a_bullet_is_the_next_item_of_the_steps_in_it():
    """``- 1. a`` opens an ordered list at column 2: ``  2. ```js`` is its next item."""
    lines = ["- 1. a", "  2. ```js", "     {x}", "     ```"]
    assert list(markup_problems(lines)) == []
    assert 2 in [i for i, _at, _m in markup_problems(["- a", "  2. ```js", "     {x}"])]


@pytest.mark.parametrize(
    "text",
    [
        "Para.\n\n> ~~~\n> {/*\n> ~~~\n{alert(1)} */}\n",  # a fence in a blockquote
        "Para.\n\n> ~~~\n> {/*\n> ~~~\n<script>alert(1)</script> */}\n",
        "Para.\n\n    ~~~\n    {/*\n    ~~~\n{alert(1)} */}\n",  # a fence indented four
        "Some text.\n01. ```js\n    {alert(1)}\n",  # 01 cannot interrupt a paragraph
        "Para.\n01. a\n2. ```js\n   {alert(1)}\n",  # nor can its next item follow it
        "Para.\n\n  ```js\nx\n```\n{alert(1)}\n",  # a top-level fence MDX reads on
        "Para.\n***\nimport x from 'y'\n",  # ESM after a thematic break, no blank line
        "Para.\n\n>\nimport x from 'y'\n",  # and after an empty quote
    ],
)
def test_code_the_rule_cannot_place_never_hides_text_mdx_runs(text):
    """Each text makes MDX 3 run code (the compiler's tree holds an expression or JSX);
    the rule finds markup in it: a comment opened in code MDX reads (which the rule takes
    for text) hides none of the lines after it, and no fence is taken for code where
    MDX reads text."""
    from mdxc import mdx_trees, require_mdx

    require_mdx()
    tree = json.dumps(mdx_trees({"entry": text})["entry"])
    assert any(
        kind in tree for kind in ("mdxFlowExpression", "mdxTextExpression", "mdxJsx", "mdxjsEsm")
    )
    assert list(markup_problems(text.split("\n"))) != []


@pytest.mark.parametrize(("one", "two"), [("", ""), ("   ", "  \t")], ids=["bare", "trailing"])
def test_a_problem_in_a_note_is_at_its_column_in_the_note_as_written(project, run, one, two):
    """The note's own lines, not the bullets docgen makes of them: a paragraph gains a
    ``- `` and a deeper line loses its indentation in the entry (no column was said);
    blanks after the text, which the bullet drops, move nothing."""
    project.write(NOTE, f"Fixes the <p thing.{one}\n    and {{x}} here,{two}\n")
    refused(
        project,
        run,
        RELEASE,
        [
            f"{NOTE}:1:11: error: '<p' {TAG}",
            f"{NOTE}:2:9: error: {OPEN}",
        ],
    )
