"""`check --format github`: no line of data can start a workflow command.

The runner reads a line as a command when it starts, after blanks, with ``::``, or when it
holds ``##[`` anywhere (the legacy form). Only docgen's own lines (annotations, the group
around each diff) may do so; a diff line is data: a file name or a line of a page.
"""

from __future__ import annotations

import re

from docgen import report
from docgen.changes import CHANGED, NEW, Change, Report
from docgen.errors import Location, Problem
from docgen.plan import Output

FORGED_NAME = "docs/x\n::error file=README.md,line=1::FORGED\n.mdx"
#: What docgen itself prints in github format: an annotation, a group and its end.
OURS = re.compile(r"::(?:error|notice)(?: [^:]*)?::|::group::|::endgroup::$")
#: Where the runner finds a workflow command in a line (see actions/runner ActionCommand).
COMMAND = re.compile(r"^\s*::|##\[")
#: What a terminal acts on: every control character but newline and tab, and bidi controls.
UNPRINTED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def commands(lines: list[report.Line]) -> list[str]:
    """The printed lines the runner would read as a command, but docgen did not mean as one."""
    printed = "\n".join(line.text for line in lines).split("\n")
    return [text for text in printed if COMMAND.search(text) and not OURS.match(text)]


def change(path: str, old: str | None, new: str, status: str = CHANGED) -> Change:
    return Change(path, status, Output(path, new, "templates/x.mdx.j2"), old)


def test_a_file_name_cannot_forge_an_annotation_through_the_diff_headers():
    drift = Report([change(FORGED_NAME, None, "Text.\n", NEW)])
    lines = report.check_github(drift)
    assert commands(lines) == []
    texts = [line.text for line in lines]
    assert "--- a/docs/x%0A::error file=README.md,line=1::FORGED%0A.mdx" in texts
    assert "+++ b/docs/x%0A::error file=README.md,line=1::FORGED%0A.mdx" in texts
    assert "+Text." in texts


def test_a_line_of_a_page_cannot_start_a_command_in_the_diff():
    """A context line starts with a blank, which the runner skips; the legacy ``##[`` form
    works anywhere in a line; a line separator is one more place where a line starts."""
    old = (
        "::error file=README.md,line=1::OLD\n"
        "::warning::kept\n"
        "Say ##[error]legacy here.\n"
        "middle\n"
        "before\u2028::notice::after\n"
        "100% plain line\n"
    )
    new = old.replace("middle", "middle, edited")
    lines = report.check_github(Report([change("docs/p.mdx", old, new)]))
    assert commands(lines) == []
    texts = [line.text for line in lines]
    assert " %3A%3Awarning%3A%3Akept" in texts
    assert " Say ##%5Berror]legacy here." in texts
    assert " 100% plain line" in texts  # a line that starts nothing is printed as it is
    assert "+middle, edited" in texts


def test_the_ordinary_diff_is_printed_as_it_was():
    old, new = "Line one.\nLine two.\n", "Line one.\nLine 2.\n"
    lines = [line.text for line in report.check_github(Report([change("docs/p.mdx", old, new)]))]
    assert lines[-8:] == [
        "::group::docs/p.mdx",
        "--- a/docs/p.mdx",
        "+++ b/docs/p.mdx",
        "@@ -1,2 +1,2 @@",
        " Line one.",
        "-Line two.",
        "+Line 2.",
        "::endgroup::",
    ]


def test_no_report_line_carries_a_raw_control_or_bidirectional_character():
    """Registry text reaches pages, and so their diffs and the messages about them: an
    override, an escape sequence or a backspace is printed as its escape, in the github
    format as in the text format (which a terminal would otherwise act on)."""
    raw = "Q \b\x1bc \x9b31m \a \u202eR \u2066x"
    drift = Report([change("docs/p.mdx", f"Label {raw}.\n", "Label.\n")])
    drift.findings.append(Problem(f"invalid value '{raw}'", Location("profiles.yaml", 3, 5)))
    for lines in (report.check_github(drift), report.check_text(drift, verbose=False)):
        printed = "\n".join(line.text for line in lines)
        assert not re.search(
            "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028-\u202e\u2066-\u2069]", printed
        )
        assert "\\u202eR" in printed and "\\x1bc" in printed
