"""Hostile or broken changelog inputs: a `--summary`, a note, a version, an entry or note
that is no UTF-8 file, an SPDX field. Each is a located error (exit 2) before anything is
written or any note removed, never an entry that `check` rejects ever after (docgen never
rewrites an entry), a fake release, or a traceback."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from conftest import MINIMAL_REGISTRY, Outcome, Project

Run = Callable[..., Outcome]
TUNED = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")
DAY = "changelog/2026-01-02.mdx"
RELEASE = ["changelog", "--version", "v1.0.0", "--since-file", "old.yaml", "--date", "2026-01-02"]
NOTE = "changelog.d/note.md"


def control_reference(reference: str, code: str) -> str:
    """What is said of a character ``reference`` to U+``code``, a control character."""
    return (
        f"the reference '{reference}' stands for U+{code}, a control character no page "
        "shows as text (an escape, or a bidirectional override that reorders what a reader "
        "sees): remove it"
    )


@pytest.fixture
def project(make_project: Callable[..., Project], run: Run) -> Project:
    """A built project whose registry changed since ``old.yaml``."""
    made = make_project(registry=TUNED, files={"old.yaml": MINIMAL_REGISTRY})
    assert run(made, "build").exit_code == 0
    return made


def refused(project: Project, run: Run, args: list[str], expected: list[str]) -> None:
    """`args` (with and without --dry-run) exit 2 with exactly ``expected`` on stderr and
    change nothing; the tree stays in sync."""
    before = project.snapshot()
    for extra in ([], ["--dry-run"]):
        result = run(project, *args, *extra)
        assert (result.exit_code, result.stdout) == (2, ""), result.output
        assert result.stderr.splitlines() == expected
        assert project.snapshot() == before
    assert run(project, "check").exit_code == 0


# -- the summary -----------------------------------------------------------------------------

SUMMARIES = [
    ("html-comment", "adds <!-- hidden --> things.", "HTML comments are not allowed in "
     "changelog entries; use {/* ... */}"),
    ("cli-token", "runs $$acme now.", "the CLI token '$$acme' is not replaced in changelog "
     "entries; write the CLI name literally"),
    ("agent-only", '<AgentOnly agent="alpha">x</AgentOnly>', "<AgentOnly> is not resolved in "
     "changelog entries"),
    ("relative-link", "adds [things](relative/page).", "relative link 'relative/page': "
     "changelog links must be root-absolute routes such as /user-guide/..."),
    ("unpublished-link", "adds [things](/guide/alpha/nope).", "link '/guide/alpha/nope' does "
     "not resolve to a page the project publishes"),
    ("fake-release", "adds things.\n\n## v0.0.1\n\n- fake release", "the summary is one line "
     "of text, but it holds U+000A, a line break or control character"),
    ("carriage-return", "adds things.\r## v0.0.1", "the summary is one line of text, but it "
     "holds U+000D, a line break or control character"),
    ("blank", "   ", "the summary is empty; give a sentence, or leave --summary out"),
    # An unset variable in CI (--summary "$SUMMARY") is no summary left out.
    ("empty", "", "the summary is empty; give a sentence, or leave --summary out"),
    ("backslash", "ends with \\", "the summary ends in a backslash, which would escape the "
     "full stop that ends its sentence: end it with a word or a punctuation mark"),
    # docgen writes the summary without its trailing blanks: the backslash then ends it.
    ("backslash-then-blank", "ends with \\ ", "the summary ends in a backslash, which would "
     "escape the full stop that ends its sentence: end it with a word or a punctuation mark"),
    # A character reference MDX and GitHub decode to a bidirectional override.
    ("bidi-reference", "adds &#8238; things.", control_reference("&#8238;", "202E")),
    # How Python passes on a command-line byte that is not UTF-8 (it was blamed on the entry).
    ("not-utf8", "caf\udce9 things.", "the summary is no text to write: it holds the byte "
     "0xE9, which is not UTF-8"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("summary", "message"), [c[1:] for c in SUMMARIES], ids=[c[0] for c in SUMMARIES]
)
def test_a_summary_that_breaks_a_rule_is_refused_at_the_flag(project, run, summary, message):
    refused(project, run, [*RELEASE, "--summary", summary], [f"--summary: error: {message}"])


def test_an_empty_date_is_refused_rather_than_taken_for_today(project: Project, run: Run) -> None:
    """``--date "$DATE"`` with the variable unset must not release under today's date."""
    args = [a for a in RELEASE if a != "2026-01-02"]
    at = args.index("--date") + 1
    refused(
        project,
        run,
        [*args[:at], "", *args[at:]],
        ["--date: error: malformed date ''; expected a real date as YYYY-MM-DD"],
    )


def test_a_closing_link_to_a_route_no_link_reaches_is_refused(project: Project, run: Run):
    """The first page a template renders (the link's default) has a space in its path,
    which would end the link there: ``/guide/alpha/a``."""
    project.write("templates/a b/my page.mdx.j2", "---\ntitle: S\n---\n\nx\n")
    assert run(project, "build").exit_code == 0
    message = (
        "docs/a b/my page.mdx: error: the release's closing link leads to this page, at the "
        "route docgen derives from its path (a b/my page), but 'a b' holds what no link "
        "reaches: name the page and its folders with letters, digits, '-', '_', '.' and '~', "
        "starting with a letter or digit, list it in the navigation, or set `changelog_link` "
        "to another page"
    )
    refused(project, run, RELEASE, [message])


def test_a_summary_cannot_make_a_release_that_never_was(project: Project, run: Run) -> None:
    fake = "adds things.\n\n## v0.0.1\n\n- fake release"
    assert run(project, *RELEASE, "--summary", fake).exit_code == 2
    assert run(project, *RELEASE, "--summary", "adds things.").exit_code == 0
    notes = run(project, "release-notes", "v0.0.1")
    assert (notes.exit_code, notes.stdout) == (2, "")
    assert notes.stderr.startswith("release-notes: error: no release v0.0.1 in changelog/")
    assert run(project, "check").exit_code == 0


def test_a_summary_links_to_its_own_release_page(project: Project, run: Run) -> None:
    link = "/guide/beta/release-notes/2026/1/2"
    result = run(project, *RELEASE, "--summary", f"see [the notes]({link}).")
    assert result.exit_code == 0, result.output
    assert run(project, "check").exit_code == 0


# -- the notes -------------------------------------------------------------------------------

NOTES = [
    ("html-comment", "- adds <!-- hidden --> things.\n", 1, "HTML comments are not allowed in "
     "changelog entries; use {/* ... */}"),
    ("cli-token", "- adds things.\n  Run $$acme.\n", 2, "the CLI token '$$acme' is not "
     "replaced in changelog entries; write the CLI name literally"),
    ("agent-only", "Fixed.\n\n<AgentOnly agent=\"alpha\">x</AgentOnly>\n", 3, "<AgentOnly> is "
     "not resolved in changelog entries"),
    ("relative-link", "- adds [things](relative/page).\n", "1:17", "relative link 'relative/page': "
     "changelog links must be root-absolute routes such as /user-guide/..."),
    ("heading-later", "- adds things.\n\n## v0.0.1\n\n- fake release\n", 3, "headings in "
     "changelog entries are '## vX.Y.Z' at the start of a line, got a heading in a list item "
     "or indented: '## v0.0.1'"),
    ("heading-first", "## v0.0.1\n", 1, "headings in changelog entries are '## vX.Y.Z' at the "
     "start of a line, got a heading in a list item or indented: '- ## v0.0.1'"),
    ("heading-after-a-lone-cr", "- adds things.\r## v0.0.1\n", 2, "headings in changelog "
     "entries are '## vX.Y.Z' at the start of a line, got a heading in a list item or "
     "indented: '## v0.0.1'"),
    ("setext-underline", "- adds things.\n---\n", 2, "'---' under a line of text makes that "
     "line a heading; headings in changelog entries are '## vX.Y.Z' alone"),
    ("bidi-reference", "- adds &#x202E; things.\n", "1:8", control_reference("&#x202E;", "202E")),
    ("named-reference", "- adds `&rlm;` and &rlm; things.\n", "1:20",
     control_reference("&rlm;", "200F")),
    ("reference-once-uncommented", "- adds &#x2{/* c */}02e; things.\n", 1, control_reference(
        "&#x202e;", "202E") + " (once its MDX comments are removed, as in a release body)"),
    # MDX reads from the left: the comment opens first and holds the backtick, so no code
    # span hides what follows it (a fresh-eyes review's finding).
    ("reference-after-a-backtick-in-a-comment", "- Adds {/* ` */} &#x202e;txet `b` things.\n",
     "1:18", control_reference("&#x202e;", "202E")),
    ("link-between-backticks-in-comments",
     "- Adds {/* `x */} [y](javascript:alert(1)) {/* ` */} things.\n", "1:23", "link "
     "'javascript:alert(1)' uses the scheme 'javascript:'; changelog links are root-absolute "
     "routes such as /user-guide/..., http(s):// or mailto: URLs"),
    ("hidden-link-between-backticks-in-comments",
     "- See [a \\] {/* ` */} b](javascript:alert(1)) {/* ` */} now.\n", 1, "link "
     "'javascript:alert(1)' uses the scheme 'javascript:'; changelog links are root-absolute "
     "routes such as /user-guide/..., http(s):// or mailto: URLs"),
    # The longest numbers CommonMark reads as a reference, an upper-case X, one error a
    # line, and an escaped backtick that opens no code span (a mutation sample's gaps).
    ("six-hex-digits", "- adds &#x00202e; things.\n", "1:8",
     control_reference("&#x00202e;", "202E")),
    ("seven-decimal-digits", "- adds &#0008238; things.\n", "1:8",
     control_reference("&#0008238;", "202E")),
    ("upper-case-x", "- adds &#X202E; and &#x202d; things.\n", "1:8",
     control_reference("&#X202E;", "202E")),
    ("after-an-escaped-backtick", "- adds \\`&#x202e; `x` and `y` things.\n", "1:10",
     control_reference("&#x202e;", "202E")),
    # An escaped backslash leaves the reference a reference.
    ("escaped-backslash", "- adds \\\\&#27; things.\n", "1:10", control_reference("&#27;", "001B")),
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "line", "message"), [c[1:] for c in NOTES], ids=[c[0] for c in NOTES]
)
def test_a_note_that_breaks_a_rule_is_refused_at_its_line(project, run, text, line, message):
    project.write(NOTE, text)
    refused(project, run, RELEASE, [f"{NOTE}:{line}: error: {message}"])
    assert (project.root / NOTE).exists()


def test_a_reference_that_shows_as_written_is_text(project: Project, run: Run) -> None:
    """In a code span or a fence, or after a backslash, ``&#x202e;`` is what the page shows,
    and in an MDX comment nothing; a zero-width joiner (an emoji's) is no control character,
    as it is not written raw, and ``&#10;`` a line end, which MDX reads as white space."""
    project.write(
        NOTE,
        "- adds `&#x202e;`, \\&#x202e;, &zwj;, `{/* &#x202e; */}` and{/* &#x202e; */} a&#10;b"
        "&#12;c&#13;d&#x110000;e &#x1234567; f."
        "\n\n  ```text\n  &#x202e;\n  ```\n",
    )
    assert run(project, *RELEASE).exit_code == 0
    assert "`&#x202e;`, \\&#x202e;, &zwj;, `{/* &#x202e; */}` and" in project.read(DAY)
    assert run(project, "check").exit_code == 0


def test_an_entry_edited_to_hold_a_control_reference_fails_check(project, run) -> None:
    assert run(project, *RELEASE, "--summary", "adds things.").exit_code == 0
    text = project.read(DAY)
    project.write(DAY, f"{text}- See &#x2066;this.\n")
    result = run(project, "check")
    assert result.exit_code == 1
    line = len(text.split("\n"))
    assert f"{DAY}:{line}:7: error: the reference '&#x2066;' stands for U+2066" in result.stdout
    release = run(project, "release-notes", "v1.0.0")
    assert (release.exit_code, release.stdout) == (2, "")


def test_every_broken_note_and_the_summary_are_reported_in_one_run(project, run) -> None:
    project.write("changelog.d/a.md", "- adds <!-- x --> things.\n")
    project.write("changelog.d/b.md", "- fine.\n  See [x](rel).\n")
    refused(
        project,
        run,
        [*RELEASE, "--summary", "runs $$acme."],
        [
            "--summary: error: the CLI token '$$acme' is not replaced in changelog entries; "
            "write the CLI name literally",
            "changelog.d/a.md:1: error: HTML comments are not allowed in changelog entries; "
            "use {/* ... */}",
            "changelog.d/b.md:2:11: error: relative link 'rel': changelog links must be "
            "root-absolute routes such as /user-guide/...",
        ],
    )


def test_a_note_that_is_no_utf8_file_is_a_located_error(project: Project, run: Run) -> None:
    (project.root / "changelog.d").mkdir()
    (project.root / "changelog.d/bad.md").write_bytes(b"- adds \xff\xfe things.\n")
    refused(
        project,
        run,
        RELEASE,
        ["changelog.d/bad.md:1:8: error: invalid UTF-8 byte 0xff in the changelog note"],
    )
    (project.root / "changelog.d/bad.md").unlink()
    (project.root / "changelog.d/dir.md").mkdir()
    refused(
        project,
        run,
        RELEASE,
        [
            "changelog.d/dir.md: error: the changelog note is a folder, not a file; docgen "
            "reads only regular files"
        ],
    )
    (project.root / "changelog.d/dir.md").rmdir()
    os.mkfifo(project.root / "changelog.d/pipe.md")
    result = run(project, *RELEASE)
    assert (result.exit_code, result.stderr) == (
        2,
        "changelog.d/pipe.md: error: the changelog note is a FIFO, not a file; docgen reads "
        "only regular files\n",
    )


# -- versions --------------------------------------------------------------------------------

VERSIONS = [
    ("leading-zero", "v01.0.0", "version 'v01.0.0' has a leading zero; write v1.0.0"),
    ("leading-zeros", "v0.00.1", "version 'v0.00.1' has a leading zero; write v0.0.1"),
    ("ten-digits", "v1234567890.0.0", "version 'v1234567890.0.0' has a number of more than "
     "9 digits"),
    ("5000-digits", "v" + "9" * 5000 + ".0.0", "version 'v99999999999999999999999999999999999"
     "9...' has a number of more than 9 digits"),
    ("trailing-newline", "v1.0.0\n", "malformed version 'v1.0.0\\n'; expected vX.Y.Z, e.g. "
     "v0.0.102"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("version", "message"), [c[1:] for c in VERSIONS], ids=[c[0] for c in VERSIONS]
)
def test_a_version_has_one_spelling_and_few_digits(project, run, version, message):
    args = [*RELEASE[:2], version, *RELEASE[3:]]
    refused(project, run, args, [f"--version: error: {message}"])


def test_a_release_of_the_same_day_must_be_newer_than_the_one_below(project, run) -> None:
    assert run(project, *RELEASE).exit_code == 0
    project.write(NOTE, "- one more fix.\n")
    older = [*RELEASE[:2], "v0.9.0", *RELEASE[3:]]
    refused(
        project,
        run,
        older,
        [
            f"--version: error: v0.9.0 would go on top of v1.0.0 in {DAY}, but is not newer: "
            "an entry lists its releases newest first"
        ],
    )


ENTRY_HEAD = (
    "{/*\n * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.\n"
    " * SPDX-License-Identifier: Apache-2.0\n */}\n\n"
)


@pytest.mark.parametrize(
    ("heading", "message"),
    [
        (
            "## v01.0.0",
            "release heading '## v01.0.0': version 'v01.0.0' has a leading zero; write v1.0.0",
        ),
        (
            "## v" + "9" * 5000 + ".0.0",
            "release heading '## v9999999999999999999999999999999"
            "99...': version 'v999999999999999999999999999999999999...' has a number of more "
            "than 9 digits",
        ),
    ],  # fmt: skip
    ids=["leading-zero", "5000-digits"],
)
def test_an_entry_heading_with_a_bad_version_is_a_finding(project, run, heading, message):
    project.write(DAY, f"{ENTRY_HEAD}{heading}\n\nAcme v1.0.0 ships.\n")
    result = run(project, "check")
    assert (result.exit_code, result.stdout) == (1, f"{DAY}:6: error: {message}\n")
    built = run(project, "build")  # writes what it can, but does not hide the broken entry
    assert (built.exit_code, built.stderr) == (1, f"{DAY}:6: error: {message}\n")


# -- entries that are no UTF-8 file ----------------------------------------------------------


def test_an_entry_that_is_a_folder_is_a_located_error(project: Project, run: Run) -> None:
    (project.root / DAY).mkdir(parents=True)
    message = (
        f"{DAY}: error: the changelog entry is a folder, not a file; docgen reads only "
        "regular files\n"
    )
    for args in (["check"], ["release-notes", "v1.0.0"], RELEASE):
        result = run(project, *args)
        assert (result.exit_code, result.stderr) == (2, message), args


def test_an_entry_that_is_not_utf8_is_a_located_error(project: Project, run: Run) -> None:
    (project.root / DAY).parent.mkdir(exist_ok=True)
    text = f"{ENTRY_HEAD}## v0.0.5\n\nAcme v0.0.5 ships.\n\nExample "
    (project.root / DAY).write_bytes(text.encode() + b"\xff adds.\n")
    before = project.snapshot()
    message = f"{DAY}:10:9: error: invalid UTF-8 byte 0xff in the changelog entry\n"
    for command in ("check", "build"):
        result = run(project, command)
        assert (result.exit_code, result.stderr) == (2, message), command
    assert project.snapshot() == before


# -- the SPDX fields -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("copyright", '"Acme */}\\n\\n<script>alert(1)</script>\\n\\n{/*"', "'*/'"),
        ("copyright", '"Acme\\nInc."', "U+000A, a line break or control character"),
        ("license", '"MIT\\u2028x"', "U+2028, a line break or control character"),
    ],
    ids=["comment-end", "newline", "line-separator"],
)
def test_an_spdx_field_is_one_line_of_plain_text(make_project, run, field, value, message):
    old = f"{field}: " + ("Copyright (c) 2026 Acme Inc." if field == "copyright" else "Apache-2.0")
    registry = TUNED.replace(old, f"{field}: {value}")
    project = make_project(registry=registry, files={"old.yaml": MINIMAL_REGISTRY})
    line, col = (9, 16) if field == "copyright" else (10, 14)
    expected = (
        f"profiles.yaml:{line}:{col}: error: product.spdx.{field} holds {message}; it is one "
        "line of plain text (no line breaks, control characters or '*/')\n"
    )
    before = project.snapshot()
    for args in (["validate"], ["build"], ["check"], RELEASE):
        result = run(project, *args)
        assert (result.exit_code, result.stderr) == (2, expected), args
    assert project.snapshot() == before


# -- what docgen words -----------------------------------------------------------------------


def test_a_rule_broken_by_the_words_docgen_chooses_is_placed_where_they_come_from(
    project: Project, run: Run
) -> None:
    project.write("docgen.toml", 'changelog_link = "docs/gone.mdx"\n')
    before = project.snapshot()
    for command in (RELEASE, ["check"], ["build"]):  # a setting to fix, for every command
        result = run(project, *command)
        assert (result.exit_code, result.stderr) == (
            2,
            "docgen.toml:1:1: error: setting 'changelog_link' names 'docs/gone.mdx', which is "
            "no page docgen publishes; did you mean 'docs/models.mdx'?\n",
        )
        assert project.snapshot() == before
    (project.root / "docgen.toml").unlink()
    project.write(
        "templates/_changelog/summary.mdx.j2", "{{ product.name }} {{ version }} <!-- draft -->.\n"
    )
    refused(
        project,
        run,
        RELEASE,
        [
            f"{DAY}:8: error: HTML comments are not allowed in changelog entries; use "
            "{/* ... */} (in the release docgen would write)"
        ],
    )


def test_escaped_registry_text_is_no_html_comment(make_project, run: Run) -> None:
    registry = TUNED.replace("{name: Big Box,", '{name: "Big <!-- Box",')
    project = make_project(registry=registry, files={"old.yaml": MINIMAL_REGISTRY})
    assert run(project, "build").exit_code == 0
    result = run(project, *RELEASE)
    assert result.exit_code == 0, result.output
    assert "The single-node Big \\<!-- Box `acme/Tiny-1B` profile" in project.read(DAY)
    assert run(project, "check").exit_code == 0


@pytest.mark.parametrize("text", ["\n", "   \n\n", "- \n", "-  \r\n"])
def test_an_empty_note_is_a_located_error(project: Project, run: Run, text: str) -> None:
    """Found by the fuzzer: a note with no words crashed the composer."""
    (project.root / "changelog.d").mkdir()
    (project.root / NOTE).write_text(text, "utf-8", newline="")
    refused(
        project,
        run,
        RELEASE,
        [f"{NOTE}: error: the note is empty: say what changed in a sentence, or delete the file"],
    )


def test_notes_that_make_an_entry_larger_than_docgen_reads_are_refused(project, run):
    """A note just under the 4 MB a note may hold grew past the 4 MB an entry may hold as
    its lines became indented bullets: the entry was written, the note removed, and
    `check`, `build` and `release-notes` refused the history ever after."""
    project.write(NOTE, ("y" * 66 + "\n") * 58_900)
    refused(
        project,
        run,
        RELEASE,
        [
            f"{DAY}: error: the changelog entry would be 4.1 MB; docgen reads changelog "
            "entries up to 4 MB: release fewer or shorter notes at once"
        ],
    )


# -- nesting MDX's compiler cannot take --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "at"),
    [
        (">" * 2000 + " x\n", "1:1"),  # the bullet docgen makes of it holds the quote
        ("- " + "- " * 800 + "x\n", "1:1"),
        ("*" * 2600 + "x" + "*" * 2600 + "\n", "1:201"),  # the 201st mark: 101 levels
        ("*a _a " * 1000 + "x" + " a_ a*" * 1000 + "\n", "1:601"),
        ("".join(f"{'*' * 100}a\n" for _ in range(3)), "3:1"),  # one paragraph's marks
    ],
    ids=["quote", "list-on-a-line", "emphasis", "emphasis-between-words", "over-lines"],
)
def test_a_note_nested_deeper_than_mdx_compiles_is_refused(project, run, text, at):
    """MDX's compiler runs out of stack on such a note (``check`` passed the entry, and
    the docs build failed for good); a hundred levels a line is allowed."""
    from docgen.changelog.depth import TOO_DEEP

    project.write(NOTE, text)
    refused(project, run, RELEASE, [f"{NOTE}:{at}: error: {TOO_DEEP}"])


def test_a_hundred_levels_are_allowed_and_compile(project, run):
    from mdxc import compile_mdx, require_mdx

    from docgen.changelog.depth import MAX_LEVELS

    require_mdx()
    deep = ["- " * (MAX_LEVELS - 1) + "x", ">" * (MAX_LEVELS - 1) + " y"]
    project.write(NOTE, "".join(f"{line}\n\n" for line in deep) + "*" * 100 + "z" + "*" * 100)
    assert run(project, *RELEASE).exit_code == 0
    assert run(project, "check").exit_code == 0
    assert compile_mdx({"entry": project.read(DAY)}) == {"entry": None}


def test_an_entry_nested_deeper_than_mdx_compiles_fails_check(project, run):
    """A note's lines are indented as one bullet's; an entry edited by hand may nest list
    items by indentation as deep as it likes."""
    from docgen.changelog.depth import TOO_DEEP

    assert run(project, *RELEASE, "--summary", "adds things.").exit_code == 0
    deep = "".join("  " * i + "- x\n" for i in range(1, 120))
    project.write(DAY, project.read(DAY) + deep)
    result = run(project, "check")
    assert result.exit_code == 1
    line = project.read(DAY).split("\n").index("  " * 100 + "- x") + 1
    assert f"{DAY}:{line}:1: error: {TOO_DEEP}" in result.stdout


# -- links a release body would hold, once its MDX comments are removed ------------------------

SCRIPT = (
    "link 'javascript:alert(1)' uses the scheme 'javascript:'; changelog links are "
    "root-absolute routes such as /user-guide/..., http(s):// or mailto: URLs (once its MDX "
    "comments are removed, as in a release body)"
)


@pytest.mark.parametrize(
    "text",
    [
        "See [x]{/* c */}(javascript:alert(1)) now.\n",
        "- [x]{/* c */}: javascript:alert(1)\n",
        "- See [the guide]{/* c\n  */}(javascript:alert(1)) now.\n",
    ],
    ids=["inline", "definition", "over-lines"],
)
def test_a_note_whose_link_a_comment_hides_is_refused(project, run, text):
    """MDX reads no link there, but ``release-notes`` removes the comments, and then the
    release it could never publish was already written."""
    project.write(NOTE, text)
    refused(project, run, RELEASE, [f"{NOTE}:1: error: {SCRIPT}"])


def test_an_entry_whose_link_a_comment_hides_fails_check(project, run):
    assert run(project, *RELEASE, "--summary", "adds things.").exit_code == 0
    text = project.read(DAY)
    project.write(DAY, f"{text}- See [x]{{/* c */}}(javascript:alert(1)) now.\n")
    result = run(project, "check")
    assert result.exit_code == 1
    line = len(text.split("\n"))
    assert f"{DAY}:{line}: error: {SCRIPT}" in result.stdout


def test_comments_beside_fine_links_are_fine(project, run):
    project.write(NOTE, "See [x]{/* c */}(https://example.org/x) {/* and\nmore */} now.\n")
    assert run(project, *RELEASE).exit_code == 0
    assert run(project, "check").exit_code == 0


def test_a_script_link_defined_in_a_footnote_is_refused(project, run):
    """``[^a]: [x]: javascript:...`` defines ``x`` inside the footnote: MDX links it."""
    project.write(NOTE, "- See [the guide][x].[^a]\n\n[^a]: [x]: javascript:alert(1)\n")
    refused(
        project,
        run,
        RELEASE,
        [
            f"{NOTE}:3:12: error: link 'javascript:alert(1)' uses the scheme 'javascript:'; "
            "changelog links are root-absolute routes such as /user-guide/..., http(s):// or "
            "mailto: URLs"
        ],
    )
