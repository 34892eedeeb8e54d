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

The reading follows MDX 3's: with indented code off, a fence opens after any blanks (and
after a blockquote's or list item's marker); an expression ends where its braces balance
outside JavaScript's comments and strings; in prose a backslash escapes the next
character and a code span, on its line or over the next ones of its paragraph, hides
what it holds.
"""

from __future__ import annotations

import re
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
    "block or a JSX element such as <Note>, the other outside it or in another): dropping "
    "it would cut that block or element in two; open and close it at the top level, or "
    "both inside the same one"
)


class _State(NamedTuple):
    depth: int = 0  # open braces
    tag: bool = False  # inside a JSX tag, before its '>'
    quote: str = ""  # the quote of an attribute string in that tag
    script: str = ""  # in an expression: the open comment ("/*") or string quote
    code: str = ""  # in prose: the backtick run of a code span open since an earlier line


#: What opens a line inside containers: blockquote markers, then a list item's marker.
_CONTAINERS = re.compile(r"(?:[ \t]*>[ \t]?)*(?:[ \t]*(?:[-+*]|[0-9]{1,9}[.)])[ \t]+)?")
_QUOTES = re.compile(r"(?:[ \t]*>[ \t]?)*")
#: The state of a line read at the top level.
_TOP_STATE = _State()


def places(lines: Sequence[str]) -> list[int | None]:
    """For each line, where MDX starts reading it: ``TOP``, the index of the line that
    opened the fenced code block it is in, ``_IN_ELEMENT`` less the index of the line that
    opened the JSX element it is in (``<Note>`` alone on its line), or None (inside an
    expression, a JSX tag or a code span)."""
    out: list[int | None] = []
    fence: Fence | None = None
    opened_at, container = TOP, ""
    state = _TOP_STATE
    elements: list[tuple[str, int]] = []  # the JSX elements open at the top level
    for index, line in enumerate(lines):
        if fence is not None and _within(container, line):
            out.append(opened_at)
            fence = None if fence.closed_by(_after(_QUOTES, line)) else fence
            continue
        fence = None  # its list item or blockquote ended, and the block with it
        if not line.strip() and state.code:
            state = state._replace(code="")  # a code span never crosses a blank line
        top = state == _TOP_STATE
        out.append((TOP if not elements else _IN_ELEMENT - elements[-1][1]) if top else None)
        found = _CONTAINERS.match(line)
        container = found[0] if found else ""
        if top and (opened := opening(line[len(container) :])) is not None:
            fence, opened_at = opened, index
        else:
            if top:
                _nest(elements, line[len(container) :].strip(), index)
            state = _scan(line, state)
    return out


#: A JSX element's opening or closing tag alone on its line (``<Note title="x">``,
#: ``</Note>``), which opens or closes a block of MDX inside the element.
_ELEMENT = re.compile(r"<(/?)([A-Za-z][\w.:-]*)(?:\s[^<>]*)?>")
#: The place of a line inside the element opened on line ``i``: ``_IN_ELEMENT - i``.
_IN_ELEMENT = -2


def _nest(elements: list[tuple[str, int]], text: str, index: int) -> None:
    """Follow the JSX elements open at the top level (name, line) past the line ``index``
    (its ``text`` without containers): one alone on its line opens, its closing tag
    closes it; a self-closing one, and an <AgentOnly> tag, neither."""
    found = _ELEMENT.fullmatch(text)
    if found is None or text.endswith("/>") or found[2] == "AgentOnly":
        return
    if not found[1]:
        elements.append((found[2], index))
    elif elements and elements[-1][0] == found[2]:
        elements.pop()


def tag_places(lines: list[str]) -> list[int | None]:
    """``places`` of the lines up to the last that names the <AgentOnly> tag: a line's
    place depends only on the lines before it, and only tag lines are asked."""
    last = next((i for i in range(len(lines) - 1, -1, -1) if "AgentOnly" in lines[i]), 0)
    return places(lines[: last + 1])


def _within(container: str, line: str) -> bool:
    """Whether ``line`` goes on in the list item or blockquote (``container``: the markers
    its block's fence stood after) that holds a fenced code block: a blank line does, a
    line without as many '>' does not, nor one indented less than the item's text."""
    if not line.strip() or not container:
        return True
    inner = _after(_QUOTES, line)
    if line[: len(line) - len(inner)].count(">") < container.count(">"):
        return False
    item = _after(_QUOTES, container)  # the list item's marker, if any
    return not item or len(inner) - len(inner.lstrip(" \t")) >= len(item)


def _after(prefix: re.Pattern[str], line: str) -> str:
    """``line`` past what ``prefix`` (which may match nothing) matches at its start."""
    found = prefix.match(line)
    return line[found.end() :] if found else line


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


#: What can change the state, by where a character stands: in prose (an escape, a code
#: span, an expression, a tag), in a JSX tag before its '>' (an attribute string, its
#: end, an expression), and in an expression (comments, strings, braces).
_PROSE_STOPS = re.compile(r"[\\`{<]")
_TAG_STOPS = re.compile(r"[{\"'>]")
_EXPRESSION_STOPS = re.compile(r"[{}/'\"`]")


def _scan(line: str, state: _State) -> _State:
    depth, tag, quote, script, code = state
    i = 0
    while i < len(line):
        if code or script or quote:
            i, code, script, quote = _open_end(line, i, code, script, quote)
            continue
        stops = _EXPRESSION_STOPS if depth else _TAG_STOPS if tag else _PROSE_STOPS
        found = stops.search(line, i)
        if found is None:
            break  # nothing further on the line changes where it stands
        i, char = found.start(), found[0]
        prose = depth == 0 and not tag
        if prose and char == "\\":
            i += 1  # what it escapes is text
        elif prose and char == "`":
            i, code = _code_start(line, i)
            continue
        elif depth and line.startswith(("/*", "'", '"', "`"), i):
            script = "/*" if char == "/" else char
            i += len(script)
            continue
        elif depth and line.startswith("//", i):
            break  # a line comment runs to the line's end
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
    return _State(depth, tag, quote, script, code)


def _open_end(line: str, i: int, code: str, script: str, quote: str) -> tuple[int, str, str, str]:
    """Past what is open at ``i``, or past the line with it still open: a code span, a
    comment or string inside an expression (no brace counts there), or a JSX tag's
    attribute string (which ends at its quote)."""
    if code:
        i, code = _code_end(line, i, code)
    elif script:
        i, script = _script_end(line, i, script)
    else:
        end = line.find(quote, i)
        i, quote = (len(line), quote) if end < 0 else (end + 1, "")
    return i, code, script, quote


def _script_end(line: str, i: int, script: str) -> tuple[int, str]:
    """Past the end of the comment or string ``script`` opened (a backslash escapes a
    string's next character), or past the line with it still open."""
    if script == "/*":
        end = line.find("*/", i)
        return (len(line), script) if end < 0 else (end + 2, "")
    while i < len(line):
        if line[i] == "\\":
            i += 2
        elif line[i] == script:
            return i + 1, ""
        else:
            i += 1
    return len(line), script


def _opens_tag(following: str) -> bool:
    """Whether a '<' before ``following`` opens a JSX tag (a name, a closing '/', or '>'
    for a fragment); before a blank or the line's end it is text."""
    return following.isalpha() or following in ("/", ">")


def _code_start(line: str, start: int) -> tuple[int, str]:
    """Past the backtick run at ``start`` and the code span it opens: on this line, or
    still open (the run returned) until a later line closes it."""
    end = start
    while end < len(line) and line[end] == "`":
        end += 1
    return _code_end(line, end, line[start:end])


def _code_end(line: str, at: int, run: str) -> tuple[int, str]:
    """Past the run of exactly ``run``'s length that closes an open code span, from
    ``at`` on, or past the line with the span still open."""
    while (found := line.find(run, at)) >= 0:
        after = found + len(run)
        if line[after : after + 1] != "`" and (found == 0 or line[found - 1] != "`"):
            return after, ""
        while after < len(line) and line[after] == "`":
            after += 1
        at = after
    return len(line), run
