"""Raw MDX markup in the hand-written lines of a changelog entry: what MDX would run or fail on.

A changelog entry is MDX, and its summary and notes are Markdown written by people. In
MDX 3 (``micromark-extension-mdx-jsx`` and ``-mdx-expression``) an unescaped ``{`` starts a
JavaScript expression, and an unescaped ``<`` starts a JSX tag unless a space, a tab or
the line's end follows it (``<`` then a letter, ``$``, ``_``, ``/`` or ``>`` is a tag or
fragment; ``<`` then anything else, such as ``!``, a digit or ``=``, fails to compile).
So, outside code, a line may hold ``<`` only before a blank or at its end (not the end of
a paragraph: MDX fails there), and ``{`` or ``}`` only in an MDX comment ``{/* ... */}``
(which may go on over lines, but not past a blank line or the end); ``\\<``, ``\\{``,
``\\}``, ``&lt;`` and the same characters inside backticks are literal text.

Code is literal: an inline code span (a run of backticks closed by a run of the same
length) and a fenced code block (which fences count: ``docgen.changelog.fences``). A
code span must close on the line it opens (a span left open could close on a later line
and make text after it look like code). A comment open over lines has its lines checked
as text too: it may have opened in code MDX reads (a fence in a blockquote) that the rule
takes for text, and then MDX reads those lines as text. Where MDX fails on such a comment
(a line of it that starts a block, ending the paragraph it opened in; one that opens a
line in a list item or a quote, whose next line lacks the container's prefix), the rule
refuses it (see ``_Held``).
A link's text followed by ``](`` must have its target on the same line, where the link
rules see it. A line that starts with ``import`` or ``export`` is ESM (JavaScript) to MDX
wherever a block starts, so the rule refuses it at the start of any line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from docgen.changelog import gfm
from docgen.changelog.depth import TOO_DEEP, too_deep
from docgen.changelog.fences import BLANKS, LIST_ITEM, closing, text_lines

#: The rule id of raw markup in a changelog entry.
MARKUP_RULE = "changelog-no-markup"
#: What a backslash makes literal: ASCII punctuation (CommonMark's escapes).
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: What the rule says of a ``}`` outside code and comments.
CLOSING_BRACE = "'}' is MDX syntax; write it as \\} or put it in backticks"
#: What other rules already report about a ``<`` (an HTML comment, an AgentOnly tag).
_TOLD = re.compile(r"<!--|</?AgentOnly\b")


def braces_escaped(text: str) -> str:
    """``text`` (registry text escaped for a page) with each ``}`` the no-markup rule refuses
    written ``\\}``: MDX reads a lone ``}`` as text, but an entry shows none bare."""
    lines = text.split("\n")
    while found := [(i, at) for i, at, why in markup_problems(lines) if why == CLOSING_BRACE]:
        for index, at in found:  # the rule tells the first of a line
            lines[index] = f"{lines[index][:at]}\\{lines[index][at:]}"
    return "\n".join(lines)


def markup_problems(lines: Sequence[str]) -> Iterator[tuple[int, int, str]]:
    """The index of each line that holds raw markup, the offset in it where the markup
    starts and what it holds, then each line that nests too deep for MDX (``depth``)."""
    yield from _markup_problems(lines)
    yield from ((index, at, TOO_DEEP) for index, at in too_deep(lines))


def _markup_problems(lines: Sequence[str]) -> Iterator[tuple[int, int, str]]:
    """See ``markup_problems`` (one a line); an MDX comment left open at a blank line or
    the end is reported where it opened."""
    held: _Held | None = None  # an MDX comment open since an earlier line
    text: set[int] = set()  # the lines read as text so far
    rows = gfm.table_rows(lines)
    for index, line in text_lines(lines, lambda: held is not None):  # noqa: B023 - as it is now
        text.add(index)
        if (cr := line.rstrip("\r").find("\r")) >= 0:  # not a CRLF's: a line end to MDX
            yield index, cr, _LONE_CR
        if (tick := gfm.tick_in_link(line)) >= 0:
            yield index, tick, _TICK_IN_LINK
        if held is not None and not line.strip(BLANKS):
            yield held.index, held.at, _UNCLOSED_COMMENT
            held = None
            continue
        if held is not None and (inside := held.inside(line)) is not None:
            yield index, *inside
        if held is None and index in rows:  # each cell on its own
            problem, comment, at = _table_row(line)
        else:
            problem, comment, at = _scan(line, held is not None)
        where = at  # where the problem is (``at`` stays where a comment opened)
        if held is None and _ESM.match(line.lstrip("\ufeff")):  # also where a comment opens
            problem, where = _ESM_PROBLEM, 0
        elif problem is None and not comment:
            problem, where = _block_problem(lines, index)
        if problem is not None:  # -1: the comment open since an earlier line is to blame
            blamed = (index, where) if held is None or where >= 0 else (held.index, held.at)
            yield *blamed, problem
        elif held is not None and held.block and (not comment or at > 0) and _text_after(line):
            yield index, 0, _TEXT_AFTER  # the comment it closes was no block of its own
        if not comment:
            held = None
        elif held is None or at > 0:  # (at 0, the earlier comment goes on over the line)
            held = _Held(lines, index, at, text)
            if held.refused is not None:
                yield index, at, held.refused


class _Held:
    """An MDX comment that opens at ``at`` of line ``index`` and goes on over lines.

    First on its line (after any list markers), MDX reads it as a block, whose next lines
    must be indented as far as it (else they are lazy, and MDX fails on them in a list
    item) and whose last line must end with it (text after it makes it a paragraph's).
    After text, it is in a paragraph, whose lines may be lazy but which a line that
    starts a block (a list item, a heading, a quote, a fence, a break, an expression)
    ends, comment and all. In a quote or a heading, it is refused.
    """

    def __init__(self, lines: Sequence[str], index: int, at: int, text: set[int]) -> None:
        self.index, self.at = index, at
        first = index  # the paragraph's first line (its text lines, not code above it)
        while (
            not _OPENS.match(lines[first].expandtabs(4))
            and first - 1 in text
            and lines[first - 1].strip(BLANKS)
        ):
            first -= 1
        head, prefix = lines[first].expandtabs(4), lines[index][:at].expandtabs(4)
        width = 0  # how far the text of the list items the paragraph opens is indented
        while (item := LIST_ITEM.match(head, width)) is not None:
            width = item.end()
        if not width and _OPENS.match(head) and not _QUOTED.match(head):
            width = len(head)  # an item the rule cannot measure (indented four or more)
        self.block = _MARKERS.fullmatch(prefix) is not None
        self.need = len(prefix) if self.block else width or len(head) - len(head.lstrip(" "))
        self.refused: str | None = None
        if _QUOTED.match(head, width) or ">" in prefix or gfm.in_footnote(head):
            self.refused = _COMMENT_QUOTED
        elif _HEADING.match(lines[index].expandtabs(4)):
            self.refused = _COMMENT_IN_HEADING
        elif self.block and first != index and self.need < width:
            self.refused = _LAZY_COMMENT.format(width)  # a lazy line of the item's text

    def inside(self, line: str) -> tuple[int, str] | None:
        """Where a line of the comment holds what MDX would fail on or run: a lazy line,
        in a block; the start of a block, in a paragraph; else raw markup, checked as
        text (it may have opened where MDX reads code, a fence in a blockquote, say, and
        then MDX reads these lines as text)."""
        columns = line.expandtabs(4)
        indent = len(columns) - len(columns.lstrip(" "))
        if self.refused is None and self.block and indent < self.need:
            return 0, _LAZY_COMMENT.format(self.need)
        starts = _STARTS_BLOCK.match(columns, min(indent, self.need))
        if self.refused is None and not self.block and starts:
            return len(line) - len(line.lstrip()), _COMMENT_CUT
        return _in_comment_problem(line)


def _table_row(line: str) -> tuple[str | None, bool, int]:
    """``_scan`` of a table row's cells, each on its own; a comment left open in a cell
    is refused (the row ends the cell, and the next line is another row)."""
    for start, cell in gfm.cells(line):
        problem, comment, at = _scan(cell, False)
        if problem is not None or comment:
            return problem or _COMMENT_IN_TABLE, False, start + at
    return None, False, 0


def _text_after(line: str) -> bool:
    """Whether ``line``, where an MDX comment open since an earlier line closes, holds
    anything after it."""
    end = _comment_end(line, 0)
    return end > 0 and bool(line[end:].strip(BLANKS))


def _in_comment_problem(line: str) -> tuple[int, str] | None:
    """Where in ``line`` the part an MDX comment open since an earlier line holds starts
    raw markup, and what it holds, checked as text: the comment may have opened where MDX
    reads code (a fence in a blockquote, say), and then MDX reads these lines as text."""
    end = line.find("*/")
    problem, _comment, at = _scan(line if end < 0 else line[:end], False)
    return None if problem is None else (at, problem)


def prose_lines(lines: Sequence[str], comments: bool = True) -> Iterator[tuple[int, str]]:
    """``text_lines`` with MDX comments followed as ``markup_problems`` follows them: a
    fence inside a comment opens no code block (so it hides no later line). Without
    ``comments``, a line that starts inside a comment is left out too (it is no heading)."""
    opened = [False]
    for index, line in text_lines(lines, lambda: opened[0]):
        if comments or not opened[0]:
            yield index, line
        opened[0] = _scan(line, opened[0])[1]


#: Indentation, list item and quote markers: what may stand before an MDX comment that
#: MDX reads as a block, or before a heading.
_CONTAINER_MARKERS = r"[ >]*(?:(?:[-*+]|[0-9]{1,9}[.)]) +[ >]*)*"
_MARKERS = re.compile(_CONTAINER_MARKERS)
_QUOTED = re.compile(r" *>")
#: A heading, after any list item or quote markers: one line, whatever it holds.
_HEADING = re.compile(rf"{_CONTAINER_MARKERS}#{{1,6}}(?:[ \t]|$)")
#: A line that opens a list item or a quote (a paragraph in it starts there).
_OPENS = re.compile(r" *(?:(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]|$)|>)")
#: A line that starts a block (however far in from where the text it would end stands:
#: MDX has no indented code): a bullet, ``1.``, a heading, a quote, a fence, an
#: expression, a break or an underline.
_STARTS_BLOCK = re.compile(
    r" *(?:[-*+](?:[ \t]|$)|[0-9]{1,9}[.)](?:[ \t]|$)|#{1,6}(?:[ \t]|$)|>|```|~~~|\{"
    r"|(?:([-*_])[ \t]*(?:\1[ \t]*){2,})$|=+[ \t]*$|-+[ \t]*$"
    rf"|{gfm.DELIMITER_ROW}|{gfm.FOOTNOTE})"  # a table's delimiter row, a footnote
)
_COMMENT_CUT = (
    "this line inside an MDX comment starts a block (a list item, a heading, a quote, a "
    "fence), which ends the paragraph the comment opened in: the site fails to compile "
    "it; start the line with other words, or close the comment on the line it opens"
)
_COMMENT_QUOTED = (
    "an MDX comment in a quote or a footnote must close on the line it opens (the site "
    "fails to compile one that goes on over lines there); close it with */}"
)
_COMMENT_IN_TABLE = (
    "an MDX comment in a table cell must close in it (a row is one line, and each '|' ends "
    "a cell, in backticks too); close it with */} before the next '|'"
)
_TICK_IN_LINK = (
    "a backtick in a link's target or title opens no code span (the link is read first), "
    "so the rule cannot tell what follows it is code; take it out of the link"
)
_TEXT_AFTER = (
    "text after the */} of an MDX comment that opens a line and goes on over lines puts "
    "it in a paragraph, where the site may fail on it or run what follows; end the line "
    "with */}, or close the comment on the line it opens"
)
_LAZY_COMMENT = (
    "this line of an MDX comment that opens a line must be indented at least {} spaces, "
    "as the comment or the list item's text is, or the site fails to compile it; indent "
    "it, or close the comment on the line it opens"
)
_COMMENT_IN_HEADING = (
    "an MDX comment in a heading must close on the line it opens (a heading is one line: "
    "the site fails to compile the rest); close it with */} there"
)
_LONE_CR = (
    "a carriage return without a newline is a line end to MDX, and none to an editor or "
    "to this rule; remove it, or end the line with a newline"
)
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
            close = closing(line, at + run, run)
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
            return CLOSING_BRACE, False, at
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
    """What MDX reads otherwise than as text at a paragraph's edge: a ``<`` that ends a
    paragraph or a heading (a lone ``<`` at a line's end is text only while the
    paragraph goes on). (A line that starts with ``import``/``export`` is ESM wherever
    a block starts, after a blank line, a break, a quote's marker...: ``markup_problems``
    refuses it at the start of any line.)"""
    line = lines[index]
    text = line.rstrip(" \t")
    following = lines[index + 1] if index + 1 < len(lines) else ""
    ends = _HEADING.match(line.expandtabs(4)) or _ENDS_PARAGRAPH.match(following)
    if text.endswith("<") and not text.endswith("\\<") and ends:  # a heading is one line
        return _LAST_LT, len(text) - 1
    return None, 0


#: A line MDX reads as JavaScript (ESM) where a block starts.
_ESM = re.compile(r"(?:import|export)(?=[ \t{*]|$)")
_ESM_PROBLEM = (
    "a line that starts with 'import' or 'export' is JavaScript to MDX where a block starts "
    "(it would run on the site); start the line with other words"
)
#: A line after which a paragraph does not go on: blank, or the start of another block
#: (a list item, empty too, a heading, a quote, a fence, an expression, a break, or an
#: underline that makes the paragraph a heading).
_ENDS_PARAGRAPH = re.compile(
    r"^[ \t]*(?:$|[-*+](?:[ \t]|$)|[0-9]{1,9}[.)](?:[ \t]|$)|#|>|```|~~~|\{"
    r"|(?:[-*_][ \t]*){3,}$|=+[ \t]*$|-+[ \t]*$)"
)
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
