"""Character references (``&#x202e;``, ``&#8238;``, ``&rlm;``) as MDX and GitHub read them:
outside code, each stands for the character it names."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

#: A reference, after the run of backslashes before it (an odd run escapes its ``&``).
REFERENCE = re.compile(r"(\\*)&(#[xX][0-9A-Fa-f]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});")


def character(name: str) -> str:
    """What the reference ``&name;`` stands for: a numbered one its character (also one no
    page shows, which is what the rules look for), a named one what HTML names so, or ""
    for a name HTML does not know or a number past U+10FFFF."""
    if name.startswith("#"):
        code = int(name[2:], 16) if name[1] in "xX" else int(name[1:])
        return chr(code) if code < 0x110000 else ""
    decoded = html.unescape(f"&{name};")
    return "" if decoded == f"&{name};" else decoded


def in_text(line: str) -> Iterator[tuple[int, str, str]]:
    """Each reference a line of text holds outside its escapes (the line as
    ``comments.read_as_text`` gives it, with no code spans or comments): where its ``&``
    stands, the reference, and what it stands for."""
    for found in REFERENCE.finditer(line):
        if len(found[1]) % 2 == 0 and (char := character(found[2])):
            yield found.start(2) - 1, f"&{found[2]};", char
