"""MDX comments in changelog text (an entry, a note): where they stand outside code, and
the text without them, as a release body or a reader sees it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import groupby

from docgen.changelog.fences import closing
from docgen.changelog.markup import prose_lines

#: An MDX comment: with its line when it stands alone there, else just the comment (and
#: the blanks before it), so the next line is never joined to the text before it.
MDX_COMMENT = re.compile(
    r"^[ \t]*\{/\*.*?\*/\}[ \t]*\n|[ \t]*\{/\*.*?\*/\}", re.DOTALL | re.MULTILINE
)


#: An MDX comment anywhere, over lines too, or one never closed (to the end).
_ANY_COMMENT = re.compile(r"\{/\*.*?(?:\*/\}|\Z)", re.DOTALL)


def read_as_text(lines: Sequence[str]) -> dict[int, str]:
    """Each line of ``lines`` that MDX reads as text (not fenced code), by its index, with
    what it reads as no text blanked, columns kept: code spans and MDX comments, whichever
    opens first (a backtick in a comment opens no code span, and ``{/*`` in a code span is
    code), a comment over lines too."""
    prose = [index for index, _line in prose_lines(lines)]
    read: dict[int, str] = {}
    for _step, run in groupby(enumerate(prose), key=lambda pair: pair[1] - pair[0]):
        indexes = [index for _n, index in run]  # consecutive lines: one paragraph or more
        seen = _code_blanked("\n".join(lines[index] for index in indexes))
        seen = _ANY_COMMENT.sub(lambda found: re.sub(r"[^\n]", " ", found[0]), seen)
        read.update(zip(indexes, seen.split("\n"), strict=True))
    return read


def _code_blanked(text: str) -> str:
    """Prose ``text`` with each code span blanked, its length and line ends kept, read from
    the left as MDX reads it: an MDX comment that opens first holds its backticks."""
    out, at = list(text), 0
    while at < len(text):
        if text.startswith("{/*", at):
            end = text.find("*/}", at + 3)
            at = len(text) if end < 0 else end + 3
        elif text[at] == "\\":
            at += 2
        elif text[at] == "`":
            run = len(text) - at - len(text[at:].lstrip("`"))
            line_end = text.find("\n", at)
            line = text[at : len(text) if line_end < 0 else line_end]  # a span is on a line
            close = closing(line, run, run)
            if close < 0:
                at += run
                continue
            out[at : at + close] = " " * close
            at += close
        else:
            at += 1
    return "".join(out)


def without_comments(text: str, keep_lines: bool = False) -> str:
    """``text`` without its MDX comments, those in code left as they are (in a fenced
    block or a code span, ``{/* ... */}`` is code that the page shows); with
    ``keep_lines``, the line ends a comment held follow the line it ended on (which
    reads as without them), so every later line keeps its number."""
    lines = text.split("\n")
    prose = {index for index, _line in prose_lines(lines)}
    out = []
    # Each run of prose lines at once, since a comment may go on over lines.
    for in_prose, indexes in groupby(range(len(lines)), key=prose.__contains__):
        run = "\n".join(lines[index] for index in indexes)
        out.append(_uncommented(run, keep_lines) if in_prose else run)
    return "\n".join(out)


def _uncommented(text: str, keep_lines: bool) -> str:
    """Prose ``text`` without the MDX comments outside its code spans (see
    ``without_comments`` for ``keep_lines``)."""
    seen = _code_blanked(text)  # same length
    kept, at, held = [], 0, 0  # held: line ends of removed comments not yet put back
    for found in MDX_COMMENT.finditer(seen):
        chunk = text[at : found.start()]
        kept.append(_lines_put_back(chunk, held))
        held = held if "\n" not in chunk else 0
        ends = found[0].count("\n") * keep_lines
        if found[0].endswith("\n"):  # a comment on lines of its own: blank lines in place
            kept.append("\n" * ends)
        else:  # inside a line, which goes on after it: its line ends follow that line
            held += ends
        at = found.end()
    rest = text[at:]
    kept.append(_lines_put_back(rest, held) if "\n" in rest else rest + "\n" * held)
    return "".join(kept)


def _lines_put_back(chunk: str, held: int) -> str:
    """``chunk`` with ``held`` line ends put back at its first line end."""
    end = chunk.find("\n")
    return chunk if not held or end < 0 else chunk[:end] + "\n" * held + chunk[end:]
