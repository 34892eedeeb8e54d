"""Where MDX reads an ``import`` or ``export`` statement: from a line that opens with the
word and a space, up to a blank line where its JavaScript is complete.

MDX 3 hands the lines to acorn at each blank line and reads on when acorn's error lies at
the end of the text (more could complete it). ``Statement`` tells that roughly, line by
line in one pass: a bracket, template literal or block comment left open, or an
operator, an arrow or a keyword at the end, reads on. A line it wrongly reads on into is
only refused as a place to cut a page, never taken for the top level.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: What a statement's JavaScript may end with when more must follow: an operator, an
#: open bracket, an arrow, or a keyword that cannot end one (not a '>', which ends JSX).
_GOES_ON = re.compile(
    r"(?:=>|[-=+*/%&|^!~?:,.(\[{]|\b(?:import|export|from|as|default|const|let|var"
    r"|function|class|extends|new|typeof|void|delete|await|yield|in|of|instanceof|return"
    r"|async))\Z"
)
#: On a line of code: a string (a quote that ends none on its line, such as an apostrophe
#: in JSX text, is text), the start of a template literal or comment, or a bracket.
_CODE = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`|//|/\*|[()\[\]{}]")
#: Where an open template literal ends (an escaped backtick does not end it).
_TEMPLATE_END = re.compile(r"(?:[^`\\]|\\.)*`")
_BRACKETS = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}


def starts_statement(lines: Sequence[str], index: int) -> bool:
    """Whether line ``index`` (at the top level) opens a statement: the word and a space at
    its very start (not in a list item or blockquote), where it does not go on a paragraph
    (after a blank line, or first)."""
    return lines[index].startswith(("import ", "export ")) and (
        index == 0 or not lines[index - 1].strip(" \t")
    )


class Statement:
    """A statement being read, fed one line at a time."""

    def __init__(self, first: str) -> None:
        self.depth = 0  # open brackets
        self.open = ""  # a template literal ("`") or block comment ("/*") left open
        self.tail = ""  # the last line's code that was not all strings and comments
        self._read(first)

    def reads_on(self, line: str) -> bool:
        """Whether ``line`` belongs to the statement (a blank line does while the
        statement is unfinished); a line that does is read into it."""
        if not line.strip(" \t"):
            return bool(self.open or self.depth > 0 or _GOES_ON.search(self.tail))
        self._read(line)
        return True

    def _read(self, line: str) -> None:
        code: list[str] = []
        at = 0
        while at < len(line):
            if self.open:
                at = self._close(line, at)
                continue
            found = _CODE.search(line, at)
            if found is None:
                code.append(line[at:])
                break
            code.append(line[at : found.start()])
            token, at = found[0], found.end()
            if token == "//":
                break  # the rest of the line is a comment
            if token in ("`", "/*"):
                self.open = token
            elif token in _BRACKETS:
                self.depth += _BRACKETS[token]
            code.append(token if token in _BRACKETS else '""')
        if (text := "".join(code).rstrip()).strip():
            self.tail = text

    def _close(self, line: str, at: int) -> int:
        """Past the end of the open template literal or comment on ``line`` from ``at``, or
        past the line with it still open."""
        if self.open == "/*":
            end = line.find("*/", at)
            found_at = -1 if end < 0 else end + 2
        else:
            found = _TEMPLATE_END.match(line, at)
            found_at = -1 if found is None else found.end()
        if found_at < 0:
            return len(line)
        self.open = ""
        return found_at
