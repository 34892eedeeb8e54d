"""Nesting for Python-Markdown: list items, callouts and the fenced code inside them.

Python-Markdown nests by four spaces where CommonMark nests under the list marker, and
it has no ``<Note>``: its ``!!! note`` admonitions hold their content four spaces
deeper. Fenced code that ends up nested, where ``fenced_code`` cannot see it, becomes an
indented code block.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

CALLOUTS = {
    "Note": "note",
    "Info": "info",
    "Tip": "tip",
    "Warning": "warning",
    "Error": "danger",
    "Success": "success",
    "Check": "success",
    "Launch": "note",
}
_NAMES = "|".join(CALLOUTS)
_ATTR = r"""(?:\s+title=(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'))?"""
CALLOUT_OPEN = re.compile(rf"^(?P<indent> *)<(?P<name>{_NAMES}){_ATTR}\s*>(?P<rest>.*)$")
CALLOUT_CLOSE = re.compile(rf"^(?P<before>.*?)</(?:{_NAMES})>\s*$")
LIST_ITEM = re.compile(r"^(?P<indent> *)(?P<marker>[-*+]|\d{1,9}[.)])(?P<gap> +|$)")


@dataclass(frozen=True)
class Code:
    """A fenced code block as Python-Markdown gets it; ``body`` lines have the fence's
    indentation removed."""

    indent: int
    marker: str
    lang: str
    body: tuple[str, ...]


Block = str | Code  # a prose line, or a whole fenced code block


def _indent(block: Block) -> int:
    if isinstance(block, Code):
        return block.indent
    return len(block) - len(block.lstrip(" "))


def _shift(block: Block, indent: int) -> Block:
    """The block moved to ``indent`` spaces."""
    if isinstance(block, Code):
        return replace(block, indent=indent)
    return " " * indent + block.lstrip(" ")


@dataclass
class _ListLevel:
    marker: int  # column of the item's marker in the MDX
    source: int  # column where this item's content starts in the MDX
    target: int  # column where it must start for Python-Markdown (a multiple of four)
    loose: bool = False  # a blank line occurred inside the item


def reindent_lists(blocks: list[Block]) -> Iterator[Block]:
    """CommonMark list nesting (content under the marker) as Python-Markdown's four spaces."""
    levels: list[_ListLevel] = []
    previous = ""  # the last prose line ("" after a blank line or a fence)
    for block in blocks:
        if isinstance(block, str) and not block.strip():
            previous = ""
            if levels:
                levels[-1].loose = True
            yield block
            continue
        item = LIST_ITEM.match(block) if isinstance(block, str) else None
        if isinstance(block, str) and item is not None:
            yield from _list_item(block, item, levels, previous)
        else:
            yield _continuation(block, levels, after_blank=not previous)
        previous = block if isinstance(block, str) else ""


def _list_item(
    line: str, item: re.Match[str], levels: list[_ListLevel], previous: str
) -> Iterator[str]:
    column = len(item["indent"])
    while levels and levels[-1].marker > column:
        levels.pop()
    sibling = bool(levels) and levels[-1].source > column  # another item of the same list
    if previous and (levels[-1].loose if sibling else not LIST_ITEM.match(previous)):
        yield ""  # Python-Markdown needs a blank line before a list that follows a paragraph,
        # and between items once an item holds more than one block
    if sibling:
        levels.pop()
    target = levels[-1].target if levels else 0
    content = column + len(item["marker"]) + max(len(item["gap"]), 1)
    levels.append(_ListLevel(column, content, target + 4))
    yield " " * target + line.lstrip(" ")


def _continuation(block: Block, levels: list[_ListLevel], after_blank: bool) -> Block:
    column = _indent(block)
    if after_blank:
        while levels and levels[-1].source > column:
            levels.pop()
    for level in reversed(levels):
        if column >= level.source:
            return _shift(block, level.target + column - level.source)
    return block


def callouts(blocks: list[Block]) -> Iterator[Block]:
    """``<Note>`` ... ``</Note>`` as ``!!! note`` with its content four spaces deeper."""
    depth = 0
    for block in blocks:
        if isinstance(block, Code):
            yield _shift(block, block.indent + 4 * depth)
            continue
        opened = CALLOUT_OPEN.match(block)
        closed = CALLOUT_CLOSE.match(block)
        if opened is not None:
            lines, depth = _open_callout(opened, depth)
            yield from lines
        elif closed is not None and depth:
            if closed["before"].strip():
                yield " " * (4 * depth) + closed["before"]
            depth -= 1
            yield ""
        else:
            yield " " * (4 * depth) + block if block.strip() else block


def _open_callout(opened: re.Match[str], depth: int) -> tuple[list[str], int]:
    """The admonition line, any content on the tag's line, and the new depth."""
    column = len(opened["indent"]) + 4 * depth
    kind = CALLOUTS[opened["name"]]
    raw = opened["dq"] if opened["dq"] is not None else opened["sq"]
    title = f' "{html.escape(html.unescape(raw))}"' if raw else ""
    lines = ["", " " * column + f"!!! {kind}{title}"]
    rest = opened["rest"]
    closed = CALLOUT_CLOSE.match(rest)
    if closed is not None:
        rest = closed["before"]
    if rest.strip():
        lines.append(" " * (column + 4) + rest.strip())
    if closed is not None:
        return [*lines, ""], depth
    return lines, depth + 1


def render_blocks(blocks: list[Block]) -> Iterator[tuple[bool, str]]:
    """Lines tagged with whether they are code; nested fences become indented code."""
    for block in blocks:
        if isinstance(block, str):
            yield False, block
        elif block.indent == 0:
            yield True, f"{block.marker}{block.lang}"
            yield from ((True, line) for line in block.body)
            yield True, block.marker
        else:
            yield False, ""
            pad = " " * (block.indent + 4)
            yield from ((True, pad + line if line.strip() else "") for line in block.body)
            yield False, ""
