"""Which characters of one line of registry text need a backslash in MDX prose or a table cell.

An escape is written only where, in some place the text may land, the MDX compiler's tree
would differ without it. The text may land at the start of a line (a paragraph, a list
item, a heading, a line under a paragraph's first line), in the middle of one, or in a
table cell, and beside a template's own markup (`*{{ x }}*`, `[{{ x }}](url)`, a code
span later on the line, a `.` or `;` after it). So a character whose meaning depends on
what lies outside the text is escaped at the text's edges, and judged by its neighbours
inside it:

- everywhere: `` ` `` (a code span pairs with any later run), `{` (an expression), `[`
  and `]` (links), `<` unless spaces or tabs and then something else follow (JSX: where
  the text ends, a cell or a heading ends before the spaces), `\\` before ASCII punctuation
  or at the end, `&` that starts a character reference (`&amp;`, `&#60;`, or `&amp` before
  a `;`), and in a table cell `|`;
- `*`, `_` and `~` runs that can open or close emphasis or strikethrough by micromark's
  flanking rules (a run at an edge always can, or would join a template's own run; a
  `~` run longer than two inside the text never can);
- at the start of prose, only what starts a block there: a list marker or ordered list
  number before whitespace or the end, an ATX heading, `>`, a `~~~` fence, a thematic
  break, a setext underline or a table delimiter row; a heading's closing `#` run; an
  `import `/`export ` that would start ESM (its first letter becomes a character
  reference). Block syntax does not start inside a table cell;
- the `:` of `https://` or the `.` of `www.` when a URL literal would show an escape raw
  or take a `>` into its address, and the `@` of an address that a `_` before the text
  would start.

Before the text's first space or tab, a `<`, `{`, `[` or `` ` `` is escaped as a character
reference (`&#60;`), not with a backslash: a URL literal that ends just before the text
(another value's, in `{{ a }}{{ b }}` or a `join` without a separator) runs on into it up
to a blank or a `<`, and would take the backslash into its address and leave the
character live, to open JSX, an expression, a link or a code span. A reference it takes
shows as written, inside the link; anywhere else it is the character. (Other escapes
left bare there change no more than emphasis, and the block syntax escaped at the
text's start cannot start after a URL.)
"""

from __future__ import annotations

import re
from functools import lru_cache
from html.entities import html5

from docgen.render.micromark import (
    OTHER,
    PUNCTUATION,
    SPACE,
    autolinks_to_break,
    email_at_start,
    kinds,
)

__all__ = ["escape_line"]

# Escaped wherever they stand; `&` only when a character reference follows (a named one
# is checked against HTML's list), or would once a `;` follows the text.
_ALWAYS = re.compile(
    r"[`{\[\]]|<(?![ \t]+[^ \t])|\\(?=[!-/:-@\[-`{-~]|$)"
    r"|&(?=(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|([0-9A-Za-z]{1,31}))(?:;|$))"
)
_RUN = re.compile(r"\*+|_+|~+")
_PIPE = re.compile(r"\|")
#: A `~` beside a `*` or `_` run lets the run open or close (micromark's attentionMarkers).
_TILDE = 3
_EDGE = frozenset({OTHER, SPACE, PUNCTUATION, _TILDE})
_ORDERED = re.compile(r"[0-9]{1,9}([.)])(?:[ \t]|$)")
#: What starts a block at the start of a line, after its blanks, and what makes a whole
#: line one (its blanks at both ends left out): no pattern runs a quantifier beside
#: another over the same blanks, which on a long run of them takes quadratic time.
_BLOCK_START = re.compile(r"[-+*](?:[ \t]|$)|#{1,6}(?:[ \t]|$)|>|~~~")
_BLOCK_LINE = re.compile(r"#+|([-*_])(?:[ \t]*\1){2,}|=+|-+")
_DELIMITER_CELL = re.compile(r":?-+:?")
_ESM = re.compile(r"(?:import|export)(?: |$)")
_URL_HINT = re.compile(r"://|www\.", re.IGNORECASE)
_BLANK = re.compile(r"[ \t]")
#: What starts markup once its backslash is gone: JSX, an expression, a link, a code span.
_OPENS_MARKUP = frozenset("<{[`")


def _always(text: str, cell: bool) -> set[int]:
    """Characters escaped whatever their run or place in the line."""
    marks = {m.start() for m in _ALWAYS.finditer(text) if not m[1] or f"{m[1]};" in html5}
    if cell and "|" in text:
        marks.update(m.start() for m in _PIPE.finditer(text))
    return marks


def _line_start(text: str) -> set[int]:
    """What would start a block, or close a heading, where the text starts a line."""
    marks = set()
    stripped = text.lstrip(" \t")
    core = stripped.rstrip(" \t")
    ordered = _ORDERED.match(stripped)
    if ordered:
        marks.add(len(text) - len(stripped) + ordered.start(1))
    elif _BLOCK_START.match(stripped) or _BLOCK_LINE.fullmatch(core) or _delimiter_row(core):
        marks.add(len(text) - len(stripped))
    core = text.rstrip(" \t")
    hashes = len(core) - len(core.rstrip("#"))  # a closing run: after a blank, to the end
    if hashes and len(core) > hashes and core[-hashes - 1] in " \t":
        marks.add(len(core) - hashes)
    return marks


def _delimiter_row(core: str) -> bool:
    """Whether a line (without its end blanks) is a table's delimiter row: cells of
    ``:?-+:?`` between pipes, blanks around them, a pipe at either end or not."""
    body = core.removeprefix("|")
    body = body[:-1] if body.endswith("|") and body else body
    return all(_DELIMITER_CELL.fullmatch(cell.strip(" \t")) for cell in body.split("|"))


def _flanking(marker: str, before: int, after: int) -> bool:
    """True when a run of `marker` between these classes can open or close (micromark)."""
    opens = after == OTHER or (after != SPACE and before != OTHER)
    closes = before == OTHER or (before != SPACE and after != OTHER)
    if marker == "~":
        return opens or closes
    opens, closes = opens or after == _TILDE, closes or before == _TILDE
    if marker == "_":
        return (opens and (before != OTHER or not closes)) or (
            closes and (after != OTHER or not opens)
        )
    return opens or closes


def _side(text: str, i: int, marks: set[int], after: bool) -> frozenset[int]:
    """The classes of the character beside a run: any at an edge, punctuation for an escape
    after it (the reader sees the backslash), and `~` kept apart for `*` and `_` runs."""
    if not 0 <= i < len(text):
        return _EDGE
    if after and i in marks:
        return frozenset({PUNCTUATION})
    return frozenset({_TILDE}) if text[i] == "~" else kinds(text[i])


def _runs(text: str, marks: set[int]) -> list[tuple[int, int]]:
    """(start, end) of every `*`, `_` and `~` run, an escaped character ending a run."""
    runs = []
    for match in _RUN.finditer(text):
        start = match.start()
        for i in range(match.start(), match.end() + 1):
            if i == match.end() or i in marks:
                if i > start:
                    runs.append((start, i))
                start = i + 1
    return runs


def _mark_runs(text: str, marks: set[int]) -> None:
    """Escape every run that can open or close, last run first (a run sees whether the
    character after it is escaped). A `~` run longer than two inside the text never can;
    one at an edge would join a template's own `~`."""
    for start, end in reversed(_runs(text, marks)):
        marker = text[start]
        before, after = _side(text, start - 1, marks, False), _side(text, end, marks, True)
        if marker == "~" and end - start > 2 and start > 0 and end < len(text):
            continue
        if any(_flanking(marker, b, a) for b in before for a in after):
            marks.update(range(start, end))


def _write(text: str, marks: set[int], esm: bool) -> tuple[str, list[int], set[int]]:
    """The MDX text, where each character starts in it, and what an escape or the ESM
    character reference consumes."""
    pieces: list[str] = []
    offsets: list[int] = []
    consumed: set[int] = set()
    at = 0
    first_word = _BLANK.search(text)
    reach = len(text) if first_word is None else first_word.start()
    for i, char in enumerate(text):
        if (esm and i == 0) or (i in marks and i < reach and char in _OPENS_MARKUP):
            piece = f"&#{ord(char)};"
        else:
            piece = f"\\{char}" if i in marks else char
        if len(piece) > 1:
            consumed.update(range(at + 1, at + len(piece)))
        offsets.append(at)
        pieces.append(piece)
        at += len(piece)
    return "".join(pieces), offsets, consumed


def _mark_literals(text: str, marks: set[int], esm: bool) -> None:
    """Break the autolink literals that would swallow a template's `_` or show an escape."""
    if "@" in text:
        written, offsets, _ = _write(text, marks, esm)
        email = email_at_start(written)
        if email is not None:
            marks.add(offsets.index(email))
    if (marks or ">" in text) and _URL_HINT.search(text):
        written, offsets, consumed = _write(text, marks, esm)
        escapes = [offsets[i] for i in marks]
        marks.update(offsets.index(p) for p in autolinks_to_break(written, escapes, consumed))


@lru_cache(maxsize=8192)  # registry values repeat on every page that shows them
def escape_line(text: str, cell: bool) -> str:
    """The text escaped for MDX prose (or a table cell) on one line."""
    marks = _always(text, cell)
    esm = not cell and _ESM.match(text) is not None
    if not cell:
        marks |= _line_start(text)
    if _RUN.search(text):
        _mark_runs(text, marks)
    _mark_literals(text, marks, esm)
    return _write(text, marks, esm)[0] if marks or esm else text
