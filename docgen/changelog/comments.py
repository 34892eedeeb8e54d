"""MDX comments in changelog text (an entry, a note): where they stand outside code, and
the text without them, as a release body or a reader sees it."""

from __future__ import annotations

import re
from itertools import groupby

from docgen.changelog.fences import without_code
from docgen.changelog.markup import prose_lines

#: An MDX comment: with its line when it stands alone there, else just the comment (and
#: the blanks before it), so the next line is never joined to the text before it.
MDX_COMMENT = re.compile(
    r"^[ \t]*\{/\*.*?\*/\}[ \t]*\n|[ \t]*\{/\*.*?\*/\}", re.DOTALL | re.MULTILINE
)


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
    seen = "\n".join(without_code(line) for line in text.split("\n"))  # same length
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
