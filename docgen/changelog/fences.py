"""What of a changelog entry MDX reads as code: which lines are fenced code (the others
are text), and which parts of a text line are code spans.

A fence counts only when it is indented at most three spaces, or opens a list item
(``- ```bash``; an ordered item past 1 only where it does start one: after a blank line,
or as the next item of an ordered list), and only for the lines indented at least as far
as it (or as the item's content; a less indented line ends a list item, and the fence in
it; outside an item MDX may read on as code, so no later fence is trusted). A line that
starts like a fence but is indented too far to open one still opens one where MDX reads
it as going on a paragraph, so no later fence is trusted after it either. Anything else
is text, which ``docgen.changelog.markup`` checks, so the rule never misses what MDX
would run.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from docgen.render.syntax import Fence, opening

#: A list item's marker (its indent, and an ordered item's number and delimiter) and the
#: blanks before its content (at most four: more make the content indented code), when
#: content follows on the line.
LIST_ITEM = re.compile(r"( {0,3})(?:[-*+]|(\d{1,9})([.)])) {1,4}(?=\S)")


#: What a blank line holds, to MDX: spaces and tabs only (not U+00A0, U+3000 or a form
#: feed, which Python's ``strip`` also takes away).
BLANKS = " \t"
#: A fence after any indentation and list markers (``group 1``: where it starts).
_FENCE_AFTER = re.compile(r" *(?:(?:[-*+]|[0-9]{1,9}[.)]) +)*(```|~~~)")


def text_lines(
    lines: Sequence[str], commenting: Callable[[], bool] = lambda: False
) -> Iterator[tuple[int, str]]:
    """The index and text of each line MDX reads as text, not as fenced code (see the
    module's rules on which fences count; inside a comment, no fence opens)."""
    fence: Fence | None = None
    in_item = unsure = False
    ordered: set[tuple[int, str]] = set()  # the ordered items the line before opened
    for index, line in enumerate(lines):
        if fence is not None:
            columns = line.expandtabs(4)  # a tab moves to the next multiple of four
            indent = len(columns) - len(columns.lstrip(" "))
            if not line.strip(BLANKS) or indent >= fence.indent:
                fence = None if fence.closed_by(line) else fence
                continue
            # A less indented line ends a list item, and the fence in it; at the top level
            # MDX reads on as code up to the closing fence, which would then open one
            # here. Not knowing which (outside an item), no later fence is trusted.
            fence, unsure = None, unsure or not in_item
        blank_before = index == 0 or not lines[index - 1].strip(BLANKS)
        columns = line.expandtabs(4)
        width, ordered = _items(columns, blank_before, ordered)
        opened = None if commenting() or unsure else _opening(columns, width)
        if opened is None and not commenting() and _misplaced(columns):
            # A fence indented too far to open one: MDX still opens one there where the
            # line goes on a paragraph or an item. Not knowing, trust no later fence.
            unsure = True
        if opened is not None:
            fence, in_item, ordered = opened, width > 0, set()
            continue
        yield index, line


def _items(
    line: str, blank_before: bool, ordered_before: set[tuple[int, str]]
) -> tuple[int, set[tuple[int, str]]]:
    """How far the list items ``line`` opens move its content (``- `` is 2, ``- 1. `` 5;
    0 for none), and the column and delimiter of each ordered one. A line's first item,
    when ordered, opens only from ``1`` (the digit alone), after a blank line, or as the
    next item of an ordered list the line before opened (``ordered_before``, at its
    column, with its delimiter): elsewhere it cannot interrupt a paragraph, and MDX reads
    the line as text (so a fence after ``2.`` opens no code block, and the next line is
    checked). An item inside another starts its content, so any number opens it."""
    width, ordered = 0, set()
    while (item := LIST_ITEM.match(line, width)) is not None:
        column = item.start() + len(item[1])
        if item[2] is not None:
            first = width == 0 and item[2] != "1" and not blank_before
            if first and (column, item[3]) not in ordered_before:
                break
            ordered.add((column, item[3]))
        width = item.end()
    return width, ordered


def _misplaced(line: str) -> bool:
    """Whether ``line`` (its tabs expanded) holds a fence, after its indentation and list
    markers, that the rule's fences do not count (an inline code span is none)."""
    found = _FENCE_AFTER.match(line)
    return found is not None and opening(line[found.start(1) :]) is not None


def _opening(line: str, width: int) -> Fence | None:
    """The fence ``line`` opens: indented at most three spaces, or as the first content of
    the list items that move its content ``width`` (``- ```bash``: MDX reads the item's
    lines indented as far as its content as code, up to the closing fence)."""
    found = opening(line[width:])
    if found is None or (found.indent > 3 if not width else found.indent > 0):
        return None
    return Fence(width, found.marker, found.info) if width else found


def without_code(line: str) -> str:
    """``line`` (text, not fenced code) with each closed code span blanked out, its length
    kept: what in it MDX reads as markdown rather than as literal code."""
    out, at = list(line), 0
    while at < len(line):
        if line[at] == "\\":
            at += 2
        elif line[at] == "`":
            run = len(line[at:]) - len(line[at:].lstrip("`"))
            close = closing(line, at + run, run)
            if close < 0:
                at += run
                continue
            out[at:close] = " " * (close - at)
            at = close
        else:
            at += 1
    return "".join(out)


def closing(line: str, start: int, run: int) -> int:
    """The index just past the backtick run of exactly ``run`` that closes a code span
    opened before ``start``, or -1 when none does on this line."""
    for found in re.finditer(r"`+", line[start:]):
        if len(found[0]) == run:
            return start + found.end()
    return -1
