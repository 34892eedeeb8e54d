"""Where each line of a page stands in MDX's structure: at the top level, inside one
fenced code block, or inside an expression ``{...}`` (a comment ``{/* */}`` too) or a JSX
tag's attributes.

docgen cuts a page at ``<AgentOnly>`` tags, line by line, also inside fenced code (a
shell command whose lines differ per agent). A block whose two tags stand in the same
place, both at the top level or both in the same code block, leaves the structure
around it as it found it, so a variant that drops the block, or keeps its lines without
the tags, reads the rest of the page as the source does. A tag inside an expression or
a JSX tag, or a block whose tags stand in different places, would cut a comment, an
expression or a code block in two.

The reading follows micromark's: with indented code off (MDX), a fence opens after any
blanks; an expression ends where its braces balance, whatever strings or comments hold
(micromark counts braces, then acorn parses what they enclose); in prose a backslash
escapes the next character and a code span on its line hides what it holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from docgen.render.syntax import Fence, opening

#: Where a line stands: the top level, or the index of the line that opens its code block.
TOP = -1
#: Said of an <AgentOnly> tag inside an expression, a comment or a JSX tag.
INSIDE = (
    "this <AgentOnly> tag stands inside an MDX expression or comment, or inside a JSX tag: "
    "cutting the page there would break what holds it; move the tag out"
)
#: Said of a block whose closing tag stands elsewhere than its opening tag.
ACROSS = (
    "this <AgentOnly> block opens and closes in different places (one in a fenced code "
    "block, the other outside it or in another): dropping it would cut that code block in "
    "two; open and close it at the top level, or both inside the same code block"
)


class _State(NamedTuple):
    depth: int = 0  # open braces
    tag: bool = False  # inside a JSX tag, before its '>'
    quote: str = ""  # the quote of an attribute string in that tag


def places(lines: Sequence[str]) -> list[int | None]:
    """For each line, where MDX starts reading it: ``TOP``, the index of the line that
    opened the fenced code block it is in, or None (inside an expression or a JSX tag)."""
    out: list[int | None] = []
    fence: Fence | None = None
    opened_at = TOP
    state = _State()
    for index, line in enumerate(lines):
        if fence is not None:
            out.append(opened_at)
            fence = None if fence.closed_by(line) else fence
            continue
        out.append(TOP if state == _State() else None)
        if state == _State() and (opened := opening(line)) is not None:
            fence, opened_at = opened, index
        else:
            state = _scan(line, state)
    return out


def misplaced(
    place: list[int | None], index: int, opened: int | None, opening: bool, closing: bool
) -> str:
    """Why the tag on line ``index`` (a block open since line ``opened``) cannot be cut
    at (see ``structure``), or ""."""
    if (opening or closing) and place[index] is None:
        return INSIDE
    if closing and opened is not None and place[index] != place[opened]:
        return ACROSS
    return ""


def _scan(line: str, state: _State) -> _State:  # long: one pass over a line's characters
    depth, tag, quote = state
    i = 0
    while i < len(line):
        char = line[i]
        prose = depth == 0 and not tag
        if quote:
            quote = "" if char == quote else quote
        elif prose and char == "\\":
            i += 1  # what it escapes is text
        elif prose and char == "`":
            i = _past_code_span(line, i)
            continue
        elif char == "{":
            depth += 1
        elif char == "}" and depth:
            depth -= 1
        elif tag and depth == 0 and char in "\"'":
            quote = char
        elif tag and depth == 0 and char == ">":
            tag = False
        elif prose and char == "<" and _opens_tag(line[i + 1 : i + 2]):
            tag = True
        i += 1
    return _State(depth, tag, quote)


def _opens_tag(following: str) -> bool:
    """Whether a '<' before ``following`` opens a JSX tag (a name, a closing '/', or '>'
    for a fragment); before a blank or the line's end it is text."""
    return following.isalpha() or following in ("/", ">")


def _past_code_span(line: str, start: int) -> int:
    """Where the code span a backtick run opens at ``start`` ends on the line (past its
    closing run), or past the run when none closes it there."""
    end = start
    while end < len(line) and line[end] == "`":
        end += 1
    run = line[start:end]
    at = end
    while (found := line.find(run, at)) >= 0:
        after = found + len(run)
        if line[after : after + 1] != "`" and (found == 0 or line[found - 1] != "`"):
            return after
        while after < len(line) and line[after] == "`":
            after += 1
        at = after
    return end
