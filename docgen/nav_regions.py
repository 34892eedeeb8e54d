"""The managed regions of a navigation's text, ``# docgen:begin NAME`` to ``# docgen:end``,
and how to ask YAML where the items docgen writes in each would stand.

Which variant's layout holds a region is what YAML makes of the items docgen writes
there, whatever the layout's style: ``probed`` puts one probe page first in every region,
and the navigation read from that text lists each probe under the variant that holds its
region, outside every variant, or nowhere (inside a block scalar, say).
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


def regions(text: str, path: str) -> Iterator[NavRegion]:
    """The managed regions of ``text`` (each variant's still unknown: ""); a marker out of
    place is an error."""
    begin: re.Match[str] | None = None
    start = 0
    for number, line in enumerate(text.split("\n"), start=1):
        opened, closed = _BEGIN.fullmatch(line), _END.fullmatch(line)
        if (opened and begin) or (closed and not begin):
            word = "a region inside another" if opened else "'# docgen:end' without a begin"
            raise ConfigError.at(Location(path, number, 1), f"{word}: close each region once")
        if opened:
            begin, start = opened, number
        elif closed and begin is not None:
            yield NavRegion(begin[2], "", start, number, begin[1])
            begin = None
    if begin is not None:
        message = f"region '{begin[2]}' is not closed with '# docgen:end'"
        raise ConfigError.at(Location(path, start, 1), message)


def probe(index: int) -> str:
    """The file name of the probe page of the region at ``index``."""
    return f"docgen-probe-{index}.mdx"


def probed(text: str, found: Sequence[NavRegion]) -> str:
    """``text`` with a probe page (see ``probe``) first in each region ``found``, written
    as docgen writes the region's pages."""
    lines = text.split("\n")
    for index, region in reversed(list(enumerate(found))):
        pad = region.indent
        entry = [f'{pad}- page: "docgen probe {index}"', f"{pad}  path: {probe(index)}"]
        lines[region.begin : region.begin] = entry
    return "\n".join(lines)
