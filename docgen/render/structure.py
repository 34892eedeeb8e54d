"""Where each line of a page stands in MDX's structure: at the top level, inside one
fenced code block, or inside an expression ``{...}`` (a comment ``{/* */}`` too), a JSX
tag's attributes or an ``import``/``export`` statement.

docgen cuts a page at ``<AgentOnly>`` tags, line by line, also inside fenced code (a
shell command whose lines differ per agent). A block whose two tags stand in the same
place, both at the top level or both in the same code block, leaves the structure
around it as it found it, so a variant that drops the block, or keeps its lines without
the tags, reads the rest of the page as the source does. A tag inside an expression, a
JSX tag or a statement, or a block whose tags stand in different places, would cut a
comment, an expression, a statement or a code block in two. The JSX tags read on the way
(``places``' ``tags``) tell whether a variant keeps one tag of an element but not the
other (``dropped_unbalanced``).

The reading follows MDX 3's: with indented code off, a fence opens after any blanks (and
after a blockquote's or list item's marker); an expression ends where its braces balance
outside JavaScript's comments and strings; in prose a backslash escapes the next
character and a code span, on its line or over the next ones of its paragraph, hides
what it holds; an ``import`` or ``export`` statement is JavaScript (see ``statements``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from docgen.render.statements import WORDS, Statement, no_paragraph_open
from docgen.render.syntax import Fence, opening

#: Where a line stands: the top level, or the index of the line that opens its code block.
TOP = -1
#: Said of an <AgentOnly> tag inside an expression, a comment, a statement or a JSX tag.
INSIDE = (
    "this <AgentOnly> tag stands inside an MDX expression or comment, an import or export "
    "statement, or a JSX tag: cutting the page there would break what holds it; move the "
    "tag out"
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
    name: str = ""  # that tag's name, after a '/' for a closing tag ("" for a fragment)
    quote: str = ""  # the quote of an attribute string in that tag
    script: str = ""  # in an expression: the open comment ("/*") or string quote
    code: str = ""  # in prose: the backtick run of a code span open since an earlier line


#: What opens a line inside containers: blockquote markers, then a list item's marker.
_CONTAINERS = re.compile(r"(?:[ \t]*>[ \t]?)*(?:[ \t]*(?:[-+*]|[0-9]{1,9}[.)])[ \t]+)?")
_QUOTES = re.compile(r"(?:[ \t]*>[ \t]?)*")
#: The state of a line read at the top level.
_TOP_STATE = _State()


def places(lines: Sequence[str], tags: Tags | None = None) -> list[int | None]:
    """For each line, where MDX starts reading it: ``TOP``, the index of the line that
    opened the fenced code block it is in, or None (inside an expression, a JSX tag, a
    code span or an import or export statement); each JSX tag it reads is added to
    ``tags`` (its line's index, and the tag as ``_ended`` gives it)."""
    out: list[int | None] = []
    fence: Fence | None = None
    opened_at, container = TOP, ""
    state = _TOP_STATE
    statement: Statement | None = None  # an import or export statement MDX is reading
    for index, line in enumerate(lines):
        if statement is not None and statement.reads_on(line):
            out.append(None)
            continue
        statement = None
        if state == _TOP_STATE and fence is None and _opens_statement(lines, index, out):
            out.append(None)
            statement = Statement(line)
            continue
        if fence is not None and _within(container, line):
            out.append(opened_at)
            fence = None if fence.closed_by(_after(_QUOTES, line)) else fence
            continue
        fence = None  # its list item or blockquote ended, and the block with it
        if not line.strip() and state.code:
            state = state._replace(code="")  # a code span never crosses a blank line
        top = state == _TOP_STATE
        out.append(TOP if top else None)
        found = _CONTAINERS.match(line)
        container = found[0] if found else ""
        if top and (opened := opening(line[len(container) :])) is not None:
            fence, opened_at = opened, index
        else:
            ended: list[str] = []
            state = _scan(line, state, None if tags is None else ended)
            if tags is not None:
                tags += [(index, tag) for tag in ended]
    return out


def _opens_statement(lines: Sequence[str], index: int, out: list[int | None]) -> bool:
    """Whether line ``index`` (at the top level) opens an import or export statement:
    the word and a space at its very start (not in a list item or blockquote) where no
    paragraph is open (``out``: the places of the lines before it)."""
    if not lines[index].startswith(WORDS):
        return False
    previous = lines[index - 1] if index else None
    return no_paragraph_open(previous, index > 0 and out[index - 1] == TOP)


#: JSX tags as ``places`` reads them: (the index of the line, the tag; see ``_ended``).
Tags = list[tuple[int, str]]


def dropped_unbalanced(marked: Sequence[tuple[int, str, bool]]) -> tuple[int, str] | None:
    """For a variant that keeps the tags marked True (a page's, up to its last block) and
    drops the others: a dropped tag whose element's other tag it keeps (its line's index
    and the tag), or None when the tags it keeps leave the elements open around them as
    the page's do (``</A>`` and ``<A>`` dropped together close one element and open
    another like it, which the variant does not miss)."""
    whole = _effect(tag for _i, tag, _kept in marked)
    if whole is None or _effect(tag for _i, tag, kept in marked if kept) == whole:
        return None  # a page whose own tags cross is no variant's doing
    partner = _partners(marked)
    dropped = [n for n, (_i, _tag, kept) in enumerate(marked) if not kept and n in partner]
    at = next((n for n in dropped if _keeps_other(marked, partner.get(n))), dropped[0])
    return marked[at][0], f"<{marked[at][1]}>"


def _keeps_other(marked: Sequence[tuple[int, str, bool]], other: int | None) -> bool:
    """Whether the variant keeps a tag's other tag (``other``: its index; None for one
    outside the tags read, which no block holds)."""
    return other is None or marked[other][2]


def _partners(marked: Sequence[tuple[int, str, bool]]) -> dict[int, int | None]:
    """Each element tag's other tag as the page pairs them (by index in ``marked``; None
    for one whose other tag lies outside it)."""
    partner: dict[int, int | None] = {}
    opened: list[int] = []
    for n, (_i, tag, _kept) in enumerate(marked):
        if not _element_tag(tag):
            continue
        if not tag.startswith("/"):
            opened.append(n)
            partner[n] = None
        elif opened:
            partner[n], partner[opened[-1]] = opened[-1], n
            opened.pop()
        else:
            partner[n] = None
    return partner


def _effect(tags: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """What ``tags`` (a run of a page's, in order) do to the elements open around them:
    the names they close that opened before them, in order, and those they leave open;
    None when one closes an element other than the innermost open. Two runs with one
    effect can stand in each other's place. An <AgentOnly> tag counts as none."""
    closed: list[str] = []
    opened: list[str] = []
    for tag in tags:
        if not _element_tag(tag):
            continue
        if not tag.startswith("/"):
            opened.append(tag)
        elif not opened:
            closed.append(tag[1:])
        elif opened[-1] == tag[1:]:
            opened.pop()
        else:
            return None
    return tuple(closed), tuple(opened)


def _element_tag(tag: str) -> bool:
    """Whether ``tag`` opens or closes an element (not one that closes itself, nor an
    <AgentOnly> tag, which docgen reads and no variant holds)."""
    return not (tag.endswith("/") and tag != "/") and tag.lstrip("/") != "AgentOnly"


def tag_places(lines: list[str], tags: Tags | None = None) -> list[int | None]:
    """``places`` of the lines up to the last that names the <AgentOnly> tag: a line's
    place depends only on the lines before it, and only tag lines are asked."""
    last = next((i for i in range(len(lines) - 1, -1, -1) if "AgentOnly" in lines[i]), 0)
    return places(lines[: last + 1], tags)


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
#: A JSX tag's name after its '<': ``Note``, ``/Note``, ``/`` or nothing (a fragment).
_TAG_NAME = re.compile(r"/?(?:[A-Za-z][\w.:-]*)?")
_TAG_STOPS = re.compile(r"[{\"'>]")
_EXPRESSION_STOPS = re.compile(r"[{}/'\"`]")


def _scan(line: str, state: _State, tags: list[str] | None = None) -> _State:
    """The state after ``line``, read from ``state``; each JSX tag that ends on the line
    is added to ``tags`` (see ``_ended``)."""
    depth, tag, name, quote, script, code = state
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
            if tags is not None:
                tags.append(_ended(name, line[:i]))
            tag, name = False, ""
        elif prose and char == "<" and _opens_tag(line[i + 1 : i + 2]):
            tag, name = True, _TAG_NAME.match(line, i + 1)[0]  # type: ignore[index]
        i += 1
    return _State(depth, tag, name, quote, script, code)


def _ended(name: str, before: str) -> str:
    """A tag that ends after ``before`` as the balance checks read it: its ``name``
    (``/name`` for a closing tag), with a ``/`` after it when it closes itself (not
    ``</>``'s)."""
    return name + "/" * (name != "/" and before.rstrip().endswith("/"))


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
