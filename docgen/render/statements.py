"""Where MDX reads an ``import`` or ``export`` statement: from a line that opens with the
word and a space where no paragraph is open, up to a blank line where its JavaScript is
complete.

MDX 3 hands the lines to acorn at each blank line and reads on when acorn's error lies at
the end of the text (more could complete it). ``Statement`` tells that roughly, in one
pass over each line: a bracket, template literal or block comment left open, or an end
that cannot end a statement (``=``, ``=>``, an open bracket, a comma, a binary operator
spelled once, a keyword such as ``from``), reads on. What it cannot tell without a
JavaScript parser (a regular expression, JSX: an element left open or a bracket in its
text, a template literal inside a template's ``${}``) it may misread either way. Lines are a
page's as docgen reads it: line ends are LF only.
"""

from __future__ import annotations

import re

#: An end of a statement's code that leaves it unfinished: an arrow, any operator ending
#: in ``=``, an open bracket, a comma, a binary operator (``a +``, not ``a++``; not ``>``
#: or ``/``, which end JSX), or a keyword that cannot end a statement (not after a ``.``:
#: ``m.default`` is a name).
_GOES_ON = re.compile(
    r"(?:=>?|[(\[{,<*%&|^?]|(?<!\+)\+|(?<!-)-"
    r"|(?<![.\w$])(?:import|export|from|as|default|const|let|var|function|class|extends"
    r"|new|typeof|void|delete|await|yield|in|of|instanceof|return|async))\Z"
)
#: What matters on a line of code: quotes, comment starts, brackets.
_STOPS = re.compile(r"['\"`/()\[\]{}]")
_BRACKETS = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}
#: A heading, a thematic break, or a line of JSX tags alone or of one expression: each
#: ends what it follows, so a statement may start on the next line (after a paragraph's
#: line it may not).
_NO_PARAGRAPH = re.compile(
    r"#{1,6}(?:[ \t]|$)|([-*_])(?:[ \t]*\1){2,}$|(?:<[^<>]*>[ \t]*)+$|\{[^{}]*\}$"
)

#: What opens a statement at a line's very start (a tab after the word does not).
WORDS = ("import ", "export ")


def no_paragraph_open(previous: str | None, previous_at_top: bool) -> bool:
    """Whether a line after ``previous`` (the line before; None for the first) stands
    where no paragraph is open, so a statement may open there: first, after a line not
    at the top level (in a code block, an expression or a tag), or after a blank line (a
    blockquote's markers alone too), a heading, a thematic break, a line of JSX tags or
    an expression."""
    if previous is None or not previous_at_top:
        return True
    blank = not previous.lstrip(" \t>")
    return blank or _NO_PARAGRAPH.match(previous.strip(" \t")) is not None


class Statement:
    """A statement being read, fed one line at a time."""

    def __init__(self, first: str) -> None:
        self.depth = 0  # open brackets
        self.open = ""  # a template literal ("`") or block comment ("/*") left open
        self.tail = ""  # the end of the last code that was not all strings and comments
        self._read(first)

    def reads_on(self, line: str) -> bool:
        """Whether ``line`` belongs to the statement (a blank line does while the
        statement is unfinished); a line that does is read into it."""
        if not line.strip(" \t"):
            return bool(self.open or self.depth > 0 or _GOES_ON.search(self.tail))
        self._read(line)
        return True

    def _read(self, line: str) -> None:
        """Brackets, open literals and comments, and the end of the code, after ``line``:
        one pass (a quote that ends no string on its line, an apostrophe in JSX text, is
        text, and so is every later quote of its kind on the line)."""
        code: list[str] = []
        unclosed: set[str] = set()
        at = 0
        while at < len(line):
            if self.open:
                at = self._close(line, at)
                continue
            found = _STOPS.search(line, at)
            if found is None:
                code.append(line[at:])
                break
            code.append(line[at : found.start()])
            char, at = found[0], found.end()
            if char == "/" and line.startswith("/", at):
                break  # a line comment: the rest of the line
            if char == "/" and line.startswith("*", at):
                self.open, at = "/*", at + 1  # a comment: no code
            elif char == "`":
                self.open = "`"
                code.append('""')
            elif char in "'\"":
                end = -1 if char in unclosed else _string_end(line, at, char)
                if end < 0:
                    unclosed.add(char)
                    code.append(char)
                else:
                    code.append('""')
                    at = end
            else:
                self.depth += _BRACKETS.get(char, 0)
                code.append(char)
        if (text := "".join(code).rstrip()).strip():
            self.tail = text

    def _close(self, line: str, at: int) -> int:
        """Past the end of the open template literal or comment on ``line`` from ``at``, or
        past the line with it still open."""
        if self.open == "/*":
            end = line.find("*/", at)
            found_at = -1 if end < 0 else end + 2
        else:
            found_at = _string_end(line, at, "`")
        if found_at < 0:
            return len(line)
        self.open = ""
        return found_at


def _string_end(line: str, at: int, quote: str) -> int:
    """Past the ``quote`` that closes a string whose text starts at ``at`` (a backslash
    escapes the next character), or -1 when the line ends first."""
    while at < len(line):
        char = line[at]
        if char == "\\":
            at += 2
        elif char == quote:
            return at + 1
        else:
            at += 1
    return -1
