"""How a hand-written note (``changelog.d/*.md``) becomes bullets of a release entry.

An entry's bullets are written one sentence per line: ``- `` before the first line, two
spaces before the rest. A note's prose lines are taken that way, stripped, and blank
lines between them are dropped. A fenced code block keeps its lines as written (each
line's indentation beyond the fence's, and its blank lines), so a YAML or shell example
means what it meant; one that opens a list item of the note (``2. ```bash``) keeps the
item's indentation too, so the code stays in the step. A note that opens with ``- `` is a
list: each line at that indentation that starts with ``- `` opens a bullet of its own; a
line indented further stays in its bullet, a nested item under it.
"""

from __future__ import annotations

import html
import re
import unicodedata

from docgen.changelog.comments import without_comments
from docgen.changelog.fences import LIST_ITEM
from docgen.changelog.references import REFERENCE
from docgen.errors import UNSHOWN, ConfigError, Location, unshown_problem
from docgen.render.syntax import Fence, opening

#: One bullet: each line as the entry shows it, with its line number in the note.
Bullet = list[tuple[int, str]]
_LINE_END = re.compile(r"\r\n|\r|\n")


def placed_bullets(text: str, path: str) -> list[tuple[str, list[tuple[int, int]]]]:
    """Each bullet ``note_bullets`` makes, as text, with each of its lines' number in the
    note and how much longer the note's line is (its own marker and indentation, where
    the bullet has ``- `` or two spaces): a column of the bullet is that much on there."""
    raws = _LINE_END.split(text)
    return [
        (
            "\n".join(line for _number, line in written),
            [(number, len(raws[number - 1].rstrip()) - len(line)) for number, line in written],
        )
        for written in note_bullets(text, path)
    ]


def note_bullets(text: str, path: str = "") -> list[Bullet]:
    """The bullets ``text`` makes (none for a note without text); a code block it never
    closes, or a control character but a tab or line end, is a located error in ``path``."""
    _refuse_controls(text, path)
    bullets: list[Bullet] = []
    fence: Fence | None = None  # the code block the lines are in, if any
    margin, base, listed, opened_at, pending, pad = 0, -1, False, 0, False, ""
    for number, raw in enumerate(_LINE_END.split(text), start=1):
        line = raw.rstrip()
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if fence is not None:
            body = line[min(indent, margin) :]
            bullets[-1].append((number, f"  {pad}{body}" if body else ""))
            fence = None if fence.closed_by(stripped) else fence
            continue
        if not stripped:
            continue
        if base < 0:  # the first line of text: it says whether the note is a list
            base, listed = indent, _item(stripped)
        if not bullets or pending or (listed and indent == base and _item(stripped)):
            item = _item(stripped) and (not pending or indent == base)
            content = stripped[1:].lstrip() if item else stripped
            if pending := not content:  # a lone "-": its bullet starts on the next line
                continue
            bullets.append([(number, f"- {content}")])
            margin = indent + len(stripped) - len(content)
            stripped = content
        else:
            bullets[-1].append((number, f"  {stripped}"))
            margin = indent
        fence, width = _opened(stripped)
        margin, pad, opened_at = margin + width, " " * width, number if fence else opened_at
    if fence is not None:
        raise ConfigError.at(
            Location(path, opened_at),
            f"the note opens a code block ({fence.marker}) that it never closes: "
            f"end it with {fence.marker} on a line of its own",
        )
    return _seen(bullets, path)


def _seen(bullets: list[Bullet], path: str) -> list[Bullet]:
    """``bullets``, unless one shows a reader nothing: a located error at its first line."""
    for bullet in bullets:
        if not _shows_text(bullet):
            raise ConfigError.at(
                Location(path, bullet[0][0]),
                "this bullet shows no text (only comments, character references, code "
                "fences or invisible characters): say what changed, or remove it",
            )
    return bullets


#: What shows nothing on a page: blanks, line and paragraph breaks, format characters
#: (zero-width spaces and joiners), controls.
_UNSEEN = frozenset({"Zs", "Zl", "Zp", "Cf", "Cc"})


def _shows_text(bullet: Bullet) -> bool:
    """Whether a bullet shows a reader anything: its text without its marker, its MDX
    comments and its code fences' own lines, with character references read, holds a
    character that is not blank or invisible."""
    lines = [line[2:] for _number, line in bullet]  # "- " or two spaces
    text = without_comments("\n".join(lines))
    text = "\n".join(line for line in text.split("\n") if not opening(line.strip()))
    text = REFERENCE.sub(lambda found: found[1] + html.unescape(found[0][len(found[1]) :]), text)
    return any(unicodedata.category(char) not in _UNSEEN for char in text)


def _refuse_controls(text: str, path: str) -> None:
    for number, line in enumerate(_LINE_END.split(text), start=1):
        if (found := UNSHOWN.search(line)) is not None:
            where = Location(path, number, found.start() + 1)
            raise ConfigError.at(where, unshown_problem(found[0], "the note"))


def _opened(content: str) -> tuple[Fence | None, int]:
    """The fence a note's line (its ``content``) opens, and how far a list item of the
    note's own moves it (``2. ```bash``: its lines keep the item's indentation, so the
    code stays in the step); (None, 0) when it opens none."""
    marker = LIST_ITEM.match(content)
    width = marker.end() if marker and opening(content[marker.end() :]) else 0
    fence = opening(content[width:])
    return (fence, width) if fence is not None else (None, 0)


def _item(stripped: str) -> bool:
    return stripped == "-" or stripped.startswith("- ")
