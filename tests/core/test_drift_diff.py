"""The diff ``check`` prints for a drifted file: applied to the file on disk it gives the
text docgen would write, and its hunks are numbered as in the whole file, however much
of a long page the diff leaves out around an edit."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from docgen.drift_diff import LINE_ENDINGS, LineDiff
from docgen.plan import Output
from docgen.sync import CHANGED, Change

HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
LINES = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "\n", "d"]), max_size=40)


def apply(diff: str, old: list[str]) -> list[str]:
    """``old`` patched by a unified diff, each hunk checked against the lines it names."""
    out: list[str] = []
    at = 0  # lines of ``old`` consumed
    rows = diff.splitlines(keepends=True)[2:]
    n = 0
    while n < len(rows):
        match = HUNK.match(rows[n])
        assert match, rows[n]
        start, count = int(match[1]), int(match[2] or 1)
        first = start - 1 if count else start  # an empty range names the line before
        assert first >= at
        out += old[at:first]
        at = first
        n += 1
        while n < len(rows) and not rows[n].startswith("@@"):
            sign, text = rows[n][0], rows[n][1:]
            ends = n + 1 < len(rows) and rows[n + 1].startswith("\\ No newline")
            text = text.removesuffix("\n") if ends else text
            if sign in " -":
                assert old[at] == text
                at += 1
            if sign in " +":
                out.append(text)
            n += 2 if ends else 1
    return out + old[at:]


def change(old: list[str], new: list[str]) -> Change:
    return Change("p.mdx", CHANGED, Output("p.mdx", "".join(new), "t"), "".join(old))


@given(head=LINES, old=LINES, new=LINES, tail=LINES)
def test_the_diff_applied_to_the_file_gives_the_planned_text(head, old, new, tail):
    before = [*head, *old, *tail]
    after = [*head, *new, *tail]
    if "".join(before) == "".join(after):
        return
    before_lines = "".join(before).splitlines(keepends=True)
    after_lines = "".join(after).splitlines(keepends=True)
    patched = apply(change(before, after).diff(), before_lines)
    assert "".join(patched) == "".join(after_lines)


def test_an_edit_deep_in_a_long_page_is_numbered_where_it_stands():
    old = [f"line {n}\n" for n in range(1, 10_001)]
    new = [*old[:7_999], "line 8000 edited\n", *old[8_000:]]
    diff = change(old, new).diff().splitlines()
    assert diff[2:] == [
        "@@ -7997,7 +7997,7 @@",
        " line 7997",
        " line 7998",
        " line 7999",
        "-line 8000",
        "+line 8000 edited",
        " line 8001",
        " line 8002",
        " line 8003",
    ]


#: Lines with every ending ``str.splitlines`` knows, and a last line with none.
ENDED = st.lists(
    st.sampled_from(["a", "b", ""]).flatmap(
        lambda text: st.sampled_from(LINE_ENDINGS).map(lambda end: text + end)
    ),
    max_size=12,
)


@given(head=ENDED, old=ENDED, new=ENDED, tail=ENDED)
def test_the_lines_only_one_side_has_are_those_of_whole_sets_of_lines(head, old, new, tail):
    """``changed`` looks only at the lines between the equal start and end, yet gives
    exactly the set differences of every line of both texts (without their endings)."""
    before, after = "".join([*head, *old, *tail]), "".join([*head, *new, *tail])
    whole_before, whole_after = set(before.splitlines()), set(after.splitlines())
    assert LineDiff(before, after).changed() == (
        whole_after - whole_before,
        whole_before - whole_after,
    )


@given(old=ENDED, new=ENDED)
def test_the_first_line_is_the_first_that_differs_in_text_or_ending(old, new):
    before, after = "".join(old), "".join(new)
    if before == after:
        return
    first = LineDiff(before, after).first_line
    old_lines, new_lines = before.splitlines(keepends=True), after.splitlines(keepends=True)
    assert old_lines[: first - 1] == new_lines[: first - 1]
    assert old_lines[first - 1 : first] != new_lines[first - 1 : first]


def test_a_file_that_differs_only_in_its_line_endings_drifts_from_its_first_line():
    lines = ["a\n", "b\n", "c\n"]
    crlf = [line.replace("\n", "\r\n") for line in lines]
    assert change(crlf, lines).lines.first_line == 1
    assert change(lines, [*lines[:2], "c"]).lines.first_line == 3
