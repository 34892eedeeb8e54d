"""What GFM (tables, footnotes) and link syntax make of a changelog entry's lines that the
no-markup rule would otherwise misread (``docgen.changelog.markup`` uses these).

A table row is split into cells at every ``|`` before anything else is read, even one
inside backticks, so a row's code span that holds a ``|`` is no code span: each cell is
checked on its own. A link's target and title are read before code spans, so a backtick
there opens none: the rule refuses one. A table's delimiter row and a footnote
definition start a block, which ends a paragraph.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from docgen.changelog.fences import BLANKS

#: A table's delimiter row (``| - | :-: |``): pipes, dashes, colons and blanks only.
DELIMITER_ROW = r"(?=[^\n]*\|)(?=[^\n]*-)[ \t|:-]+$"
#: A footnote definition's label (``[^1]:``), which starts a block.
FOOTNOTE = r"\[\^[^\]\n]+\]:"
_DELIMITER = re.compile(rf"[ \t]*{DELIMITER_ROW}")
_FOOTNOTE = re.compile(rf"[ \t]*{FOOTNOTE}")
#: A backtick inside an inline link's or image's target or title.
_TICK_IN_LINK = re.compile(r"\]\([^)\n]*`")
#: A cell border: a pipe not escaped.
_PIPE = re.compile(r"(?<!\\)\|")


def table_rows(lines: Sequence[str]) -> set[int]:
    """The index of each line of a GFM table: the header above a delimiter row, the
    delimiter row, and the lines after it up to a blank one."""
    rows: set[int] = set()
    for index, line in enumerate(lines):
        if index == 0 or not _DELIMITER.match(line) or not lines[index - 1].strip(BLANKS):
            continue
        rows.update((index - 1, index))
        after = index + 1
        while after < len(lines) and lines[after].strip(BLANKS):
            rows.add(after)
            after += 1
    return rows


def cells(line: str) -> list[tuple[int, str]]:
    """A table row's cells, each with where it starts in ``line``."""
    found, start = [], 0
    for border in _PIPE.finditer(line):
        found.append((start, line[start : border.start()]))
        start = border.end()
    return [*found, (start, line[start:])]


def in_footnote(line: str) -> bool:
    """Whether ``line`` opens a footnote definition (a container, as a quote is)."""
    return _FOOTNOTE.match(line) is not None


def tick_in_link(line: str) -> int:
    """Where a backtick stands inside a link's target or title, or -1."""
    found = _TICK_IN_LINK.search(line)
    return -1 if found is None else found.end() - 1
