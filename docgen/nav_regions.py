"""The managed regions of a navigation's text, ``# docgen:begin NAME`` to ``# docgen:end``,
and the variant whose layout holds each.

A region stands in a variant's layout when YAML would read the items docgen writes there
as that variant's: its markers (whose indentation the items take) lie within the
variant's block, and are indented at least as deep as the variant's keys. A region after
the last variant's block, at the level of the nodes around the variants, stands in none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from docgen.errors import ConfigError, Location


@dataclass(frozen=True)
class NavRegion:
    """A managed region of the navigation file: the lines between ``# docgen:begin NAME``
    and ``# docgen:end`` (1-based, exclusive), which docgen writes, in a variant's layout."""

    name: str
    variant: str  # the slug of the variant whose layout holds it ("" outside variants)
    begin: int
    end: int
    indent: str


_BEGIN = re.compile(r"([ \t]*)# docgen:begin ([a-z][a-z0-9-]*)[ \t]*")
_END = re.compile(r"[ \t]*# docgen:end[ \t]*")
#: What opens a line before a key: its indentation and the dashes of the list items.
_KEY_START = re.compile(r"[ \t]*(?:-[ \t]+)*")


def outside_regions(text: str) -> str:
    """``text`` without what its managed regions hold (what docgen writes there): what of
    the navigation is the author's."""
    kept, inside = [], False
    for line in text.split("\n"):
        if _END.fullmatch(line):
            inside = False
        if not inside:
            kept.append(line)
        if _BEGIN.fullmatch(line):
            inside = True
    return "\n".join(kept)


def regions(text: str, path: str, variants: Sequence[tuple[int, str]]) -> Iterator[NavRegion]:
    """The managed regions of ``text``, each with the variant whose layout holds it
    (``variants``: each variant's first line and slug); a marker out of place is an
    error."""
    lines = text.split("\n")
    blocks = [(*_block(lines, line), slug) for line, slug in variants]
    begin: re.Match[str] | None = None
    start = 0
    for number, line in enumerate(lines, start=1):
        opened, closed = _BEGIN.fullmatch(line), _END.fullmatch(line)
        if (opened and begin) or (closed and not begin):
            word = "a region inside another" if opened else "'# docgen:end' without a begin"
            raise ConfigError.at(Location(path, number, 1), f"{word}: close each region once")
        if opened:
            begin, start = opened, number
        elif closed and begin is not None:
            owner = _owner(blocks, start, len(begin[1]))
            yield NavRegion(begin[2], owner, start, number, begin[1])
            begin = None
    if begin is not None:
        message = f"region '{begin[2]}' is not closed with '# docgen:end'"
        raise ConfigError.at(Location(path, start, 1), message)


def _block(lines: list[str], first: int) -> tuple[int, int, int]:
    """The block of the variant that starts on line ``first``: that line, the line that
    ends it (the first line after it, not blank nor a comment, indented less than the
    variant's keys; past the last line when none) and the column of its keys."""
    keys = len(_KEY_START.match(lines[first - 1])[0])  # type: ignore[index]
    for number in range(first + 1, len(lines) + 1):
        text = lines[number - 1]
        content = text.lstrip(" \t")
        if content and not content.startswith("#") and len(text) - len(content) < keys:
            return first, number, keys
    return first, len(lines) + 1, keys


def _owner(blocks: list[tuple[int, int, int, str]], start: int, indent: int) -> str:
    """The slug of the variant whose block holds a region opened on line ``start`` by a
    marker indented ``indent`` deep (as deep as its keys at least), or ""."""
    held = [
        (first, slug)
        for first, end, keys, slug in blocks
        if first <= start < end and indent >= keys
    ]
    return max(held)[1] if held else ""
