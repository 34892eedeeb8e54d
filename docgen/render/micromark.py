"""How micromark (the tokenizer behind MDX 3) reads a line of text: its character classes
and the GFM autolink literals it finds (micromark-extension-gfm-autolink-literal 2).

micromark takes a literal URL raw: a backslash escape inside one shows as a backslash.
``autolinks_to_break`` names the URLs that would show an escape docgen wrote, by the
position of the character whose escape stops the literal from starting there
(``https\\://``, ``www\\.``); remark-gfm's later pass then links the decoded text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection

__all__ = ["OTHER", "PUNCTUATION", "SPACE", "autolinks_to_break", "email_at_start", "kinds"]

#: micromark's classes of the character beside a delimiter run (classifyCharacter).
OTHER, SPACE, PUNCTUATION = 0, 1, 2
#: JavaScript's `\s` (micromark's unicodeWhitespace), which differs from str.isspace().
JS_SPACE = frozenset("\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") | {
    chr(c) for c in range(0x2000, 0x200B)
}
_ASCII_ALPHA = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ALNUM = _ASCII_ALPHA | frozenset("0123456789")
_ATEXT = _ALNUM | frozenset("+-._")
# Characters a URL's path only keeps when more path follows them, and those of a trail.
_PATH_PUNCTUATION = frozenset("!\"&'),.:;<?]_~*")
_TRAIL = frozenset("!\"')*,.:;?_~")
_BEFORE_WWW = frozenset("(*_[]~ \t")


def kinds(char: str) -> frozenset[int]:
    """The classes micromark may give the character. It reads UTF-16 code units, so a
    character beyond the first plane is neither space nor punctuation to it; one this
    Unicode database does not know may be punctuation in the reader's: both."""
    if char in JS_SPACE:
        return frozenset({SPACE})
    category = unicodedata.category(char)
    if category == "Cn" and ord(char) <= 0xFFFF:
        return frozenset({OTHER, PUNCTUATION})
    return frozenset({PUNCTUATION if _punctuation(char) else OTHER})


def _at(text: str, i: int) -> str | None:
    return text[i] if i < len(text) else None


def _blank(char: str | None) -> bool:
    """End of line, space or Unicode whitespace."""
    return char is None or char in JS_SPACE


def _punctuation(char: str) -> bool:
    """Unicode punctuation or symbol, as micromark sees it (one UTF-16 code unit at a time)."""
    return ord(char) <= 0xFFFF and unicodedata.category(char)[0] in "PS"


def _trail(text: str, i: int) -> bool:
    """True when only trailing punctuation lies between i and the URL's end (tokenizeTrail)."""
    while True:
        char = _at(text, i)
        if char is not None and char in _TRAIL:
            i += 1
        elif char == "&":
            j = i + 1
            while _at(text, j) in _ASCII_ALPHA:
                j += 1
            if j == i + 1 or _at(text, j) != ";":
                return False
            i = j + 1
        elif char == "]":
            i += 1
            after = _at(text, i)
            if _blank(after) or after in ("(", "["):
                return True
        else:
            return char == "<" or _blank(char)


def _domain(text: str, i: int) -> int | None:
    """Where a valid domain starting at i ends (tokenizeDomain), or None."""
    seen, underscores = False, [False, False]  # in the last segment, in the one before
    while True:
        char = _at(text, i)
        if char in (".", "_") and not _trail(text, i):
            underscores = [True, underscores[1]] if char == "_" else [False, underscores[0]]
        elif _blank(char) or char in (".", "_") or (char != "-" and _punctuation(str(char))):
            return i if seen and not any(underscores) else None
        else:
            seen = True
        i += 1


def _path(text: str, i: int) -> int:
    """Where the path starting at i ends (tokenizePath): parentheses balance, trail stays out."""
    opened = closed = 0
    while True:
        char = _at(text, i)
        if char == "(":
            opened += 1
        elif char == ")" and closed < opened:
            closed += 1
        elif char is not None and char in _PATH_PUNCTUATION:
            if _trail(text, i):
                return i
            closed += char == ")"
        elif _blank(char):
            return i
        i += 1


def _email(text: str, i: int) -> int | None:
    """Where an e-mail literal starting at i ends (tokenizeEmailAutolink), or None."""
    while _at(text, i) in _ATEXT:
        i += 1
    if _at(text, i) != "@":
        return None
    data = dot = False
    i += 1
    while True:
        char = _at(text, i)
        if char == "." and _at(text, i + 1) in _ALNUM:
            dot = True
        elif char is not None and (char in "-_" or char in _ALNUM):
            data = True
        else:
            return i if data and dot and text[i - 1] in _ASCII_ALPHA else None
        i += 1


def email_at_start(text: str) -> int | None:
    """Where to break an e-mail literal that a `_` before the text (a template's
    `_{{ x }}_`) would start, when the address ends inside the text: before its `@`, or
    before the `.` of a `www.` that would start a link once the address is broken."""
    end = _email(f"_{text}", 0)
    if end is None or end > len(text):
        return None
    at = text.index("@")
    www = [p for p in range(at) if text[p : p + 4].lower() == "www." and text[p - 1 : p] in "_"]
    return www[0] + 3 if www else at


def _url(text: str, i: int, previous: str | None) -> tuple[int, int] | None:
    """(position of the `:` or `.` that starts it, end) of a URL literal at i, or None."""
    if text[i : i + 4].lower() == "www.":
        if previous is not None and previous not in _BEFORE_WWW:
            return None
        end = _domain(text, i) if i + 4 < len(text) else None
        return None if end is None else (i + 3, _path(text, end))
    if previous is not None and previous in _ASCII_ALPHA:
        return None
    scheme = "https" if text[i : i + 5].lower() == "https" else "http"
    start = i + len(scheme) + 3
    after = _at(text, start)
    if text[i:start].lower() != f"{scheme}://" or after is None or _blank(after):
        return None
    if ord(after) < 32 or after == "\x7f" or _punctuation(after):
        return None
    end = _domain(text, start)
    return None if end is None else (i + len(scheme), _path(text, end))


def _literal_at(
    text: str, i: int, consumed: Collection[int]
) -> tuple[int | None, tuple[int, int] | None]:
    """(end of an e-mail literal, (key, end) of a URL literal) micromark may start at i:
    the address first, the URL too where the character before is unknown."""
    previous = text[i - 1] if i else None
    if i in consumed:
        return None, None
    email = None
    if text[i] in _ATEXT and (previous is None or previous not in _ATEXT | {"/"}):
        email = _email(text, i)
    if text[i] in "hHwW" and (email is None or previous is None):
        return email, _url(text, i, previous)
    return email, None


def autolinks_to_break(text: str, escapes: Collection[int], consumed: Collection[int]) -> list[int]:
    """Positions in text (MDX output) of the `:` or `.` whose escape keeps a URL literal from
    taking one of `escapes` (backslashes docgen wrote) raw, or a `>` (``<https://x.com>``
    would link ``https://x.com>``, a host no browser or Fern accepts; remark's own pass
    then links the text without it). Positions in `consumed` belong to an escape or a
    character reference and start nothing. The character before text is unknown: a
    literal there may start or not, so both are followed."""
    found: list[int] = []
    i = 0
    while i < len(text):
        email, link = _literal_at(text, i, consumed)
        if link is not None and (
            any(link[0] < e < link[1] for e in escapes) or ">" in text[link[0] : link[1]]
        ):
            found.append(link[0])  # broken: micromark goes on at the next character
        elif i and email is not None:
            i = email  # the literal consumes its text
            continue
        elif i and link is not None:
            i = link[1]
            continue
        i += 1
    return found
