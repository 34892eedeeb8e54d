"""How deep the text of a changelog entry nests: MDX's compiler recurses into every quote,
list item and emphasis level, and runs out of stack at some hundreds of them (a list 700
items deep on one line, a quote 2,000 markers deep), so an entry that ``check`` passes
would fail the docs build for good. No note needs more than a few levels.

A line's containers (quote markers, list markers, indentation) are counted on the line;
emphasis may span the lines of a paragraph, so its marks are counted over the paragraph
(outside code spans), however they are spread: two make one level at most."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from docgen.changelog.fences import text_lines, without_code

#: The most levels a line, or a paragraph's emphasis, may nest: several times below where
#: MDX fails.
MAX_LEVELS = 100
TOO_DEEP = (
    f"nests more than {MAX_LEVELS} levels deep (quote markers, list items, indentation, or "
    "emphasis marks in one paragraph): MDX's compiler runs out of stack on deep nesting; "
    "write it flatter"
)
_PREFIX = re.compile(r"[ >]*(?:(?:[-*+]|[0-9]{1,9}[.)])[ \t]+[ >]*)*")
_LIST_MARK = re.compile(r"(?:[-*+]|[0-9]{1,9}[.)])[ \t]")
#: A mark that may open or close emphasis: ``*`` and ``~`` anywhere, ``_`` beside a
#: character that is no letter or digit (within a word, ``_`` is text).
_MARK = re.compile(r"[*~]|(?<![^\W_])_|_(?![^\W_])")
#: What starts a new block, which no emphasis crosses: a blank line, a list item, a quote.
_NEW_BLOCK = re.compile(r"[ \t]*(?:$|(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)|>)")


def too_deep(lines: Sequence[str]) -> Iterator[tuple[int, int]]:
    """The index of each text line (not code) that nests past ``MAX_LEVELS``, and where in
    it: 0 for its containers, else the mark that takes its paragraph's emphasis past."""
    marks = 0  # the emphasis marks of the paragraph so far
    for index, line in text_lines(lines):
        expanded = line.expandtabs(4)
        prefix = expanded[: _PREFIX.match(expanded).end()]  # type: ignore[union-attr]
        indent = len(expanded) - len(expanded.lstrip(" "))
        if prefix.count(">") + len(_LIST_MARK.findall(prefix)) + indent // 2 > MAX_LEVELS:
            yield index, 0
            continue
        if _NEW_BLOCK.match(line):
            marks = 0
        found = list(_MARK.finditer(without_code(line)))
        if marks <= 2 * MAX_LEVELS < marks + len(found):
            yield index, found[2 * MAX_LEVELS - marks].start()
        marks += len(found)
