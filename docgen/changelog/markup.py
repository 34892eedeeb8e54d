"""Raw MDX markup in the hand-written lines of a changelog entry: what MDX would run or fail on.

A changelog entry is MDX, and its summary and notes are Markdown written by people. In
MDX 3 (``micromark-extension-mdx-jsx`` and ``-mdx-expression``) an unescaped ``{`` starts a
JavaScript expression, and an unescaped ``<`` starts a JSX tag unless a space, a tab or
the line's end follows it (``<`` then a letter, ``$``, ``_``, ``/`` or ``>`` is a tag or
fragment; ``<`` then anything else, such as ``!``, a digit or ``=``, fails to compile).
So, outside code, a line may hold ``<`` only before a blank or at its end (not the end of
a paragraph: MDX fails there), and ``{`` or
``}`` only in an MDX comment ``{/* ... */}`` (which may go on over lines, but not past a
blank line or the end); ``\\<``, ``\\{``, ``\\}``, ``&lt;`` and the same characters inside
backticks are literal text.

Code is literal: an inline code span (a run of backticks closed by a run of the same
length) and a fenced code block. A code span must close on the line it opens (a span
left open could close on a later line and make text after it look like code), and a
fence counts only when it is indented at most three spaces, or opens a list item
(``- ```bash``; an ordered item past 1 only where it does start one: after a blank line,
or as the next item of an ordered list), and only for the lines indented at least as far
as it (or as the item's content; a less indented line ends a list item, and the fence in
it; outside an item MDX may read on as code, so no later fence is trusted); anything else
is checked as text, so the rule never misses what MDX would run. A comment open over lines
has its lines checked as text too: it may have opened in code MDX reads (a fence in a
blockquote) that the rule takes for text, and then MDX reads those lines as text.
A link's text followed by ``](`` must have its target on the same line, where the link
rules see it. A line that starts with ``import`` or ``export`` is ESM (JavaScript) to MDX
wherever a block starts, so the rule refuses it at the start of any line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from docgen.render.syntax import Fence, opening

#: The rule id of raw markup in a changelog entry.
MARKUP_RULE = "changelog-no-markup"
#: What a backslash makes literal: ASCII punctuation (CommonMark's escapes).
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: What other rules already report about a ``<`` (an HTML comment, an AgentOnly tag).
_TOLD = re.compile(r"<!--|</?AgentOnly\b")
#: A list item's marker (its indent, and an ordered item's number and delimiter) and the
#: blanks before its content (at most four: more make the content indented code), when
#: content follows on the line.
LIST_ITEM = re.compile(r"( {0,3})(?:[-*+]|(\d{1,9})([.)])) {1,4}(?=\S)")


def markup_problems(lines: Sequence[str]) -> Iterator[tuple[int, int, str]]:
    """The index of each line that holds raw markup, the offset in it where the markup
    starts, and what it holds (one a line); an MDX comment left open at a blank line or
    the end is reported where it opened."""
    opened = [-1, 0]  # the line and offset of an MDX comment still open, or -1
    for index, line in text_lines(lines, lambda: opened[0] >= 0):
        if opened[0] >= 0 and not line.strip():
            yield opened[0], opened[1], _UNCLOSED_COMMENT
            opened[0] = -1
            continue
        if opened[0] >= 0 and (inside := _in_comment_problem(line)) is not None:
            yield index, *inside
        problem, comment, at = _scan(line, opened[0] >= 0)
        if problem is None and not comment:
            problem, at = _block_problem(lines, index)
        if problem is not None:  # at -1: the comment open since an earlier line is to blame
            yield (index, at, problem) if at >= 0 else (opened[0], opened[1], problem)
        if not comment:
            opened[0] = -1
        elif opened[0] < 0 or at > 0:  # (at 0, the earlier comment goes on over the line)
            opened[:] = [index, at]
    if opened[0] >= 0:
        yield opened[0], opened[1], _UNCLOSED_COMMENT


def _in_comment_problem(line: str) -> tuple[int, str] | None:
    """Where in ``line`` the part an MDX comment open since an earlier line holds starts
    raw markup, and what it holds, checked as text: the comment may have opened where MDX
    reads code (a fence in a blockquote, say), and then MDX reads these lines as text."""
    end = line.find("*/")
    problem, _comment, at = _scan(line if end < 0 else line[:end], False)
    return None if problem is None else (at, problem)


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
            if not line.strip() or indent >= fence.indent:
                fence = None if fence.closed_by(line) else fence
                continue
            # A less indented line ends a list item, and the fence in it; at the top level
            # MDX reads on as code up to the closing fence, which would then open one
            # here. Not knowing which (outside an item), no later fence is trusted.
            fence, unsure = None, unsure or not in_item
        blank_before = index == 0 or not lines[index - 1].strip()
        width, ordered = _items(line, blank_before, ordered)
        opened = None if commenting() or unsure else _opening(line, width)
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


def _opening(line: str, width: int) -> Fence | None:
    """The fence ``line`` opens: indented at most three spaces, or as the first content of
    the list items that move its content ``width`` (``- ```bash``: MDX reads the item's
    lines indented as far as its content as code, up to the closing fence)."""
    found = opening(line[width:])
    if found is None or (found.indent > 3 if not width else found.indent > 0):
        return None
    return Fence(width, found.marker, found.info) if width else found


def prose_lines(lines: Sequence[str], comments: bool = True) -> Iterator[tuple[int, str]]:
    """``text_lines`` with MDX comments followed as ``markup_problems`` follows them: a
    fence inside a comment opens no code block (so it hides no later line). Without
    ``comments``, a line that starts inside a comment is left out too (it is no heading)."""
    opened = [False]
    for index, line in text_lines(lines, lambda: opened[0]):
        if comments or not opened[0]:
            yield index, line
        opened[0] = _scan(line, opened[0])[1]


def without_code(line: str) -> str:
    """``line`` (text, not fenced code) with each closed code span blanked out, its length
    kept: what in it MDX reads as markdown rather than as literal code."""
    out, at = list(line), 0
    while at < len(line):
        if line[at] == "\\":
            at += 2
        elif line[at] == "`":
            run = len(line[at:]) - len(line[at:].lstrip("`"))
            close = _closing(line, at + run, run)
            if close < 0:
                at += run
                continue
            out[at:close] = " " * (close - at)
            at = close
        else:
            at += 1
    return "".join(out)


def markup_problem(line: str) -> str | None:
    """What raw markup ``line`` (one line of text, not code) holds, worded with how to
    write it instead; None when it holds none."""
    problem, comment, _at = _scan(line, False)
    return _UNCLOSED_COMMENT if problem is None and comment else problem


_UNCLOSED_COMMENT = (
    "an MDX comment opened with {/* does not close with */} before a blank line or the end; "
    "close it, or write '{' as \\{"
)


def _scan(line: str, comment: bool) -> tuple[str | None, bool, int]:  # long: one rule a char
    """The first raw markup in ``line``, whether an MDX comment is open at its end, and
    where the markup starts (or where that comment opened; -1 for the comment open at its
    start, which ``comment`` says); a comment still open from its start gives 0."""
    at = 0
    if comment:
        at = _comment_end(line, 0)
        if at < 0:
            return None, True, 0
        if at == 0:
            return _OPEN, False, -1  # its "*/" closes no comment: its "{" opened an expression
    while at < len(line):
        char = line[at]
        if char == "\\":
            at += 2 if line[at + 1 : at + 2] in _PUNCTUATION else 1
        elif char == "`":
            run = len(line[at:]) - len(line[at:].lstrip("`"))
            close = _closing(line, at + run, run)
            if close < 0:
                return (
                    (
                        f"a code span opened with {'`' * run} does not close on this line; "
                        "close it on the same line, or write a lone backtick as \\`"
                    ),
                    False,
                    at,
                )
            at = close
        elif char == "{":
            if not line.startswith("{/*", at):
                return _OPEN, False, at
            end = _comment_end(line, at + 3)
            if end < 0:
                return None, True, at
            if end == 0:
                return _OPEN, False, at
            at = end
        elif char == "}":
            return "'}' is MDX syntax; write it as \\} or put it in backticks", False, at
        elif char == "<" and line[at + 1 : at + 2] not in ("", " ", "\t"):
            if _TOLD.match(line, at) is None:
                return (
                    (
                        f"'{line[at : at + 2]}' starts an HTML or JSX tag that the site would "
                        "render or fail on; write '<' as &lt; or \\<, or put it in backticks"
                    ),
                    False,
                    at,
                )
            at += 1
        elif line.startswith("](", at) and not line[at + 2 :].strip():
            link = "a link's target must be on the same line as its text: [text](/route)"
            return link, False, at
        else:
            at += 1
    return None, False, 0


def _block_problem(lines: Sequence[str], index: int) -> tuple[str | None, int]:
    """What MDX reads otherwise than as text at a paragraph's edge: a line that starts
    with ``import``/``export`` (ESM wherever a block starts: after a blank line, a
    thematic break, a blockquote's marker...; the rule does not tell those apart), and a
    ``<`` that ends a paragraph (a lone ``<`` at a line's end is text only while the
    paragraph goes on)."""
    line = lines[index]
    if _ESM.match(line):  # not only after a blank line: after a rule or a quote too
        return _ESM_PROBLEM, 0
    text = line.rstrip(" \t")
    following = lines[index + 1] if index + 1 < len(lines) else ""
    if text.endswith("<") and not text.endswith("\\<") and _ENDS_PARAGRAPH.match(following):
        return _LAST_LT, len(text) - 1
    return None, 0


#: A line MDX reads as JavaScript (ESM) where a block starts.
_ESM = re.compile(r"(?:import|export)(?=[ \t{*]|$)")
_ESM_PROBLEM = (
    "a line that starts with 'import' or 'export' is JavaScript to MDX where a block starts "
    "(it would run on the site); start the line with other words"
)
#: A line after which a paragraph does not go on: blank, or the start of another block.
_ENDS_PARAGRAPH = re.compile(r"^[ \t]*(?:$|[-*+][ \t]|[0-9]{1,9}[.)][ \t]|#|>|```|~~~)")
_LAST_LT = "a '<' at the end of a paragraph fails to compile on the site; write it as &lt; or \\<"


_OPEN = (
    "'{' starts an MDX expression that the site would run; write it as \\{ or put it in backticks"
)


def _comment_end(line: str, start: int) -> int:
    """Just past the ``*/}`` that closes an MDX comment open at ``start``; -1 when the
    comment goes on past the line, 0 when its first ``*/`` is not followed by ``}`` (then
    it is an expression that runs code, no comment)."""
    end = line.find("*/", start)
    if end < 0:
        return -1
    return end + 3 if line.startswith("*/}", end) else 0


def _closing(line: str, start: int, run: int) -> int:
    """The index just past the backtick run of exactly ``run`` that closes a code span
    opened before ``start``, or -1 when none does on this line."""
    for found in re.finditer(r"`+", line[start:]):
        if len(found[0]) == run:
            return start + found.end()
    return -1
