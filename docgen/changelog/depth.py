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
from docgen.changelog.gfm import table_rows

#: The most levels a line, or a paragraph's emphasis, may nest: several times below where
#: MDX fails.
MAX_LEVELS = 100
TOO_DEEP = (
    f"nests more than {MAX_LEVELS} levels deep (quote markers, list items, indentation, or "
    "emphasis marks in one paragraph): MDX's compiler runs out of stack on deep nesting; "
    "write it flatter"
)
_PREFIX = re.compile(r"[ >]*(?:(?:[-*+]|[0-9]{1,9}[.)]|\[\^[^\]\s]*\]:)[ \t]+[ >]*)*")
#: A level a line's prefix opens: a list item, or a footnote (which holds blocks too).
_LEVEL = re.compile(r"(?:[-*+]|[0-9]{1,9}[.)]|\[\^[^\]\s]*\]:)[ \t]")
#: A mark that may open or close emphasis: ``*`` and ``~`` anywhere, ``_`` beside a
#: character that is no letter or digit (within a word, ``_`` is text).
_MARK = re.compile(r"[*~]|(?<![^\W_])_|_(?![^\W_])")
#: A line that always starts a block of its own (no emphasis crosses into it): a heading,
#: a bullet item, an ordered item numbered 1 (others continue a paragraph they follow).
_STARTS = re.compile(
    r"[ \t]*(?:>[ \t]?)*[ \t]*(?:#{1,6}(?:[ \t]|$)|[-*+][ \t]+\S|1[.)](?:[ \t]|$))"
)


def too_deep(lines: Sequence[str]) -> Iterator[tuple[int, int]]:
    """The index of each line that nests past ``MAX_LEVELS``, and where in it: 0 for its
    containers (a text line's, or a fence's that opens code), else the mark that takes its
    paragraph's emphasis past. A table row's marks are its own."""
    text, rows = dict(text_lines(lines)), table_rows(lines)
    marks, before = 0, -1  # the paragraph's emphasis marks so far; the text line before
    for index, line in enumerate(lines):
        opens_code = index not in text and (index == 0 or index - 1 in text)
        if (index in text or opens_code) and _levels(line) > MAX_LEVELS:
            yield index, 0
            continue
        if index not in text:
            continue
        quote = line.lstrip(" \t").startswith(">")
        if before != index - 1 or not line.strip() or index in rows or _STARTS.match(line):
            marks = 0
        elif quote and not lines[before].lstrip(" \t").startswith(">"):
            marks = 0  # a quote that starts here
        before = index
        prefix = _PREFIX.match(line).end()  # type: ignore[union-attr]
        found = list(_MARK.finditer(without_code(line), prefix))
        if marks <= 2 * MAX_LEVELS < marks + len(found):
            yield index, found[2 * MAX_LEVELS - marks].start()
        marks += len(found)


def _levels(line: str) -> int:
    """How many levels a line's prefix opens: quote markers, list items, footnotes, and
    its indentation (two columns a level, as list items nest)."""
    expanded = line.expandtabs(4)
    prefix = expanded[: _PREFIX.match(expanded).end()]  # type: ignore[union-attr]
    indent = len(expanded) - len(expanded.lstrip(" "))
    return prefix.count(">") + len(_LEVEL.findall(prefix)) + indent // 2
