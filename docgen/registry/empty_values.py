"""Where a value left empty (``key:``) stands, as libyaml places it: right after its key's
``:``. ruamel.yaml places it where the next token starts, the next key's line; both
readers must locate an error in it alike."""

from __future__ import annotations

import re


def empty_value_place(
    lines: list[str], key_at: tuple[int, int], found: tuple[int, int]
) -> tuple[int, int]:
    """The place (0-based line and column) of the empty value of the key at ``key_at``
    that ruamel.yaml placed at ``found``: right after the key's ``:``; ``found`` itself
    for a null spelled out below the key (``null``, ``~``), or a ``:`` not found."""
    line, col = found
    if line < len(lines) and _NULL.match(lines[line], col):
        return found
    return _after_colon(lines, *key_at, found)


#: A null spelled out (``key:`` then ``null`` below it stands where it is written).
_NULL = re.compile(r"(?:~|null|Null|NULL)(?=[ \t]*(?:#|$))")


def _after_colon(
    lines: list[str], line: int, col: int, otherwise: tuple[int, int]
) -> tuple[int, int]:
    """Where the ':' after the key at ``line``, ``col`` (0-based) ends: the first one
    followed by white space past a quoted key's closing quote or in a plain key's line,
    or one that opens a later line (``? key``, then blank or comment lines, then ``:``);
    ``otherwise`` when there is none."""
    text = lines[line] if line < len(lines) else ""
    quote = text[col : col + 1]
    start = _closing_quote(text, col + 1, quote) + 1 if quote in ("'", '"') else col
    found = _INDICATOR.search(text, start)
    if found is not None:
        return line, found.end()
    for number in range(line + 1, len(lines)):
        rest = lines[number].lstrip(" \t")
        if rest.startswith(":"):
            return number, len(lines[number]) - len(rest) + 1
        if rest and not rest.startswith("#"):
            break
    return otherwise


#: A mapping's ':' between a key and its value.
_INDICATOR = re.compile(r":(?=[ \t]|$)")


def _closing_quote(text: str, at: int, quote: str) -> int:
    """Where the quote that closes a quoted scalar opened before ``at`` stands (``\\"``
    escapes one in double quotes, ``''`` in single ones); the line's end without one."""
    escape = "\\" if quote == '"' else quote * 2
    while at < len(text):
        if text.startswith(escape, at) if quote == "'" else text[at] == escape:
            at += 2
        elif text[at] == quote:
            return at
        else:
            at += 1
    return len(text)
