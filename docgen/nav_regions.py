"""The managed regions of a navigation's text, ``# docgen:begin NAME`` to ``# docgen:end``,
and how to ask YAML where the items docgen writes in each would stand.

Which variant's layout holds a region is what YAML makes of the items docgen writes
there, whatever the layout's style: ``probed`` puts one probe page first in every region,
and the navigation read from that text lists each probe under the variant that holds its
region, outside every variant, or nowhere (inside a block scalar, say).
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

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


def outside_regions(text: str, keep_lines: bool = False) -> str:
    """``text`` without what its managed regions hold (what docgen writes there): what of
    the navigation is the author's; with ``keep_lines``, each line a region holds is left
    empty, so every other line keeps its number."""
    kept, inside = [], False
    for line in text.split("\n"):
        if _END.fullmatch(line):
            inside = False
        if not inside:
            kept.append(line)
        elif keep_lines:
            kept.append("")
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
        if opened and begin:
            message = (
                f"region '{begin[2]}' is not closed with '# docgen:end' before the next "
                f"begin (line {number}): regions do not nest; close each region once"
            )
            raise ConfigError.at(Location(path, start, 1), message)
        if closed and not begin:
            message = "'# docgen:end' without a begin: close each region once"
            raise ConfigError.at(Location(path, number, 1), message)
        if opened:
            begin, start = opened, number
        elif closed and begin is not None:
            yield NavRegion(begin[2], "", start, number, begin[1])
            begin = None
    if begin is not None:
        message = f"region '{begin[2]}' is not closed with '# docgen:end'"
        raise ConfigError.at(Location(path, start, 1), message)


def probe(index: int, tag: str) -> str:
    """The file name of the probe page of the region at ``index`` (``tag``: made of the
    navigation's text, so no page it lists can be taken for a probe)."""
    return f"docgen-probe-{tag}-{index}.mdx"


def probed(text: str, found: Sequence[NavRegion], tag: str) -> str:
    """``text`` with a probe page (see ``probe``) in place of what each region ``found``
    holds, written as docgen writes the region's pages."""
    lines = text.split("\n")
    for index, region in reversed(list(enumerate(found))):
        pad = region.indent
        entry = [f'{pad}- page: "docgen probe {index}"', f"{pad}  path: {probe(index, tag)}"]
        lines[region.begin : region.end - 1] = entry
    return "\n".join(lines)


def owned(
    text: str, path: str, found: list[NavRegion], parsed: Callable[[str], Any]
) -> tuple[NavRegion, ...]:
    """Each region ``found`` in ``text`` with the slug of the variant whose layout YAML
    reads its items in ("" outside every variant), asked of ``parsed`` (the navigation
    read from a text, or a ConfigError) with a probe page in each region; a region whose
    items YAML would not read as pages, or would read under several variants, is an
    error."""
    if not found:
        return ()
    tag = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    try:
        probing = parsed(probed(text, found, tag))
    except ConfigError:
        probing = None  # some region's items break the file: each is asked alone below
    held = []
    for index, region in enumerate(found):
        asked, which = (probing, index) if probing else (_alone(text, region, tag, parsed), 0)
        name = probe(which, tag)
        listed = asked is not None and any(_is(page, name) for page in asked.pages)
        slugs = (
            [v.slug for v in asked.variants if any(_is(p, name) for p in v.pages)] if listed else []
        )
        if not listed or len(slugs) > 1:
            raise ConfigError.at(Location(path, region.begin, 1), _unowned(slugs))
        held.append(replace(region, variant=slugs[0] if slugs else ""))
    return tuple(held)


def _unowned(slugs: list[str]) -> str:
    """Why docgen cannot write a region: YAML would read its pages in several variants
    (``slugs``), or as no pages at all."""
    if slugs:
        named = " and ".join(f"'{slug}'" for slug in slugs)
        return (
            f"the pages docgen writes in this region would be read under the variants {named} "
            "(an alias repeats it): give each variant a region of its own"
        )
    return (
        "the pages docgen writes in this region, indented as its '# docgen:begin' line, "
        "would not be read as navigation pages: put the markers in a list of a layout's or "
        "a section's contents, indented as its items"
    )


def _alone(text: str, region: NavRegion, tag: str, parsed: Callable[[str], Any]) -> Any:
    """The navigation with a probe in ``region`` alone (as probe 0), or None when YAML
    cannot read it then."""
    try:
        return parsed(probed(text, [region], tag))
    except ConfigError:
        return None


def _is(page: Any, name: str) -> bool:
    """Whether a listed page is the probe page of file name ``name``."""
    return bool(posixpath.basename(page.path) == name)
