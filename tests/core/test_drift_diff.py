"""The diff ``check`` prints for a drifted file: applied to the file on disk it gives the
text docgen would write, and its hunks are numbered as in the whole file, however much
of a long page the diff leaves out around an edit."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docgen import drift_diff
from docgen.changes import CHANGED, Change
from docgen.drift_diff import LineDiff
from docgen.plan import Output

HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
#: Lines, some holding what ``str.splitlines`` would cut at but a newline does not end.
LINES = st.lists(
    st.sampled_from(["a\n", "b\n", "c\n", "\n", "d", "e\u2028f\n", "g\rh\n", "\x0c\n"]),
    max_size=40,
)
#: A line is up to and including a newline, as git and editors count it.
_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")


def lines_with_ends(text: str) -> list[str]:
    return _LINE.findall(text)


def bare(text: str) -> set[str]:
    return {line.removesuffix("\n") for line in lines_with_ends(text)}


def apply(diff: str, old: list[str]) -> list[str]:
    """``old`` patched by a unified diff, each hunk checked against the lines it names."""
    out: list[str] = []
    at = 0  # lines of ``old`` consumed
    rows = lines_with_ends(diff)[2:]
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
    before_lines = lines_with_ends("".join(before))
    after_lines = lines_with_ends("".join(after))
    patched = apply(change(before, after).shown().diff, before_lines)
    assert "".join(patched) == "".join(after_lines)


def test_an_edit_deep_in_a_long_page_is_numbered_where_it_stands():
    old = [f"line {n}\n" for n in range(1, 10_001)]
    new = [*old[:7_999], "line 8000 edited\n", *old[8_000:]]
    diff = change(old, new).shown().diff.splitlines()
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


#: Lines ending in a newline (or "\r\n"), holding every other ending ``str.splitlines``
#: knows as text, and a last line with none.
ENDED = st.lists(
    st.sampled_from(["a", "b", ""]).flatmap(
        lambda text: st.sampled_from(["", "\n", "\r\n", "\r", "\v", "\x85", "\u2028"]).map(
            lambda end: text + end
        )
    ),
    max_size=12,
)


@contextmanager
def compared_by(block: int, places: int, looks: int) -> Iterator[None]:
    """``LineDiff`` comparing ``block`` characters at a time, splitting a text once a line
    shows in ``places`` places or looking has read it ``looks`` times: small values reach
    every branch on small texts."""
    was = drift_diff.BLOCK, drift_diff.MANY_PLACES, drift_diff.LOOKS
    drift_diff.BLOCK, drift_diff.MANY_PLACES, drift_diff.LOOKS = block, places, looks
    try:
        yield
    finally:
        drift_diff.BLOCK, drift_diff.MANY_PLACES, drift_diff.LOOKS = was


def split_whole(old: str, new: str) -> tuple[int, int, tuple[set[str], set[str]]]:
    """What ``LineDiff`` finds, from both texts split whole: the lines both start with,
    those both end with (never more than the shorter has left), the set differences."""
    old_lines, new_lines = lines_with_ends(old), lines_with_ends(new)
    pairs = list(zip(old_lines, new_lines, strict=False))
    same = next((n for n, (a, b) in enumerate(pairs) if a != b), len(pairs))
    most = len(pairs) - same
    end = next((n for n in range(most) if old_lines[-1 - n] != new_lines[-1 - n]), most)
    before, after = bare(old), bare(new)
    return same, end, (after - before, before - after)


@pytest.mark.parametrize(
    ("block", "places", "looks"), [(4096, 64, 8), (1, 1, 1), (2, 2, 0), (3, 64, 1), (5, 64, 2)]
)
@given(head=ENDED, old=ENDED, new=ENDED, tail=ENDED)
def test_where_two_texts_differ_is_what_splitting_them_whole_finds(
    block, places, looks, head, old, new, tail
):
    """``LineDiff`` splits only the old text, and compares characters a block at a time,
    yet finds the lines both texts start and end with, and the lines only one of them has
    (without their endings), exactly as splitting both whole does."""
    before, after = "".join([*head, *old, *tail]), "".join([*head, *new, *tail])
    with compared_by(block, places, looks):
        found = LineDiff(before, after)
        assert (found.same, found.end, found.changed()) == split_whole(before, after)


def test_a_line_separator_or_form_feed_is_text_not_a_line_end():
    """A page line holding U+2028, U+0085, a form feed or a lone CR is one line, as git and
    editors count it: drift after it is located and numbered at its line, and the diff
    applies to the file."""
    head = ["A\u2028B \u0085 \x0c \r x\n", "two\n", "three\n", "four\n", "five\n"]
    old = [*head, "Line six.\n", "seven\n"]
    new = [*head, "Line six, edited.\n", "seven\n"]
    shown = change(old, new).shown()
    assert shown.line == 6
    assert shown.diff.split("\n")[2:] == [
        "@@ -3,5 +3,5 @@",
        " three",
        " four",
        " five",
        "-Line six.",
        "+Line six, edited.",
        " seven",
        "",
    ]


def test_a_file_that_differs_only_in_its_line_endings_drifts_from_its_first_line():
    lines = ["a\n", "b\n", "c\n"]
    crlf = [line.replace("\n", "\r\n") for line in lines]
    assert change(crlf, lines).shown().line == 1
    assert change(lines, [*lines[:2], "c"]).shown().line == 3


def test_looking_for_lines_reads_a_text_a_few_times_before_splitting_it():
    """Each line is first looked for where its text occurs; once that has read the text
    about ``LOOKS`` times, it is split once and the rest are looked up in a set: asking
    for every line of a page costs a few readings of it, not one per line."""
    from docgen.drift_diff import LOOKS, _Lines

    text = "".join(f"row {n}\n" for n in range(1000))
    lines = _Lines(text)
    ends = [f"row {999 - n}" for n in range(LOOKS)]  # found near the end: each reads it
    assert all(row in lines for row in ends) and lines.whole is None
    assert "row 0" in lines and lines.whole is None  # at the start: reads almost nothing
    assert "row 991" in lines and lines.whole is None  # the last look it may take
    assert "row 5" in lines and lines.whole == set(text.splitlines())
    fresh = _Lines(text)
    assert all(f"row {1000 + n}" not in fresh for n in range(LOOKS)) and fresh.whole is None
    assert "row 1" in fresh and fresh.whole is not None
