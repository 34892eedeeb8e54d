"""Where a value left empty (``key:``) stands, as libyaml places it: right after its key's
``:``. ruamel.yaml places it where the next token starts, the next key's line; both
readers must locate an error in it alike."""

from __future__ import annotations

import re


def empty_value_place(
    lines: list[str], key_at: tuple[int, int], key: object, found: tuple[int, int]
) -> tuple[int, int]:
    """The place (0-based line and column) of the empty value of ``key`` (at ``key_at``)
    that ruamel.yaml placed at ``found``: right after the key's ``:``; ``found`` itself
    for a null spelled out below the key (``null``, ``~``), or a ``:`` not found."""
    line, col = found
    if line < len(lines) and _NULL.match(lines[line], col):
        return found
    return _after_colon(lines, *key_at, key, found)


#: A null spelled out (``key:`` then ``null`` below it stands where it is written).
_NULL = re.compile(r"(?:~|null|Null|NULL)(?=[ \t]*(?:#|$))")


def _after_colon(
    lines: list[str], line: int, col: int, key: object, otherwise: tuple[int, int]
) -> tuple[int, int]:
    """Where the ':' after the key at ``line``, ``col`` (0-based) ends: past a quoted key's
    closing quote or a plain key's text, on its line or a later one (``? key`` then
    ``:``); ``otherwise`` when it cannot be found."""
    text = lines[line] if line < len(lines) else ""
    quote = text[col : col + 1]
    start = col + len(str(key))
    if quote in ("'", '"'):
        start = _closing_quote(text, col + 1, quote) + 1
    for number in range(line, min(line + 2, len(lines))):
        rest = lines[number][start if number == line else 0 :]
        if rest.lstrip(" \t").startswith(":"):
            at = len(lines[number]) - len(rest) + (len(rest) - len(rest.lstrip(" \t"))) + 1
            return number, at
    return otherwise


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
