"""Tabs, which libyaml and ruamel.yaml read apart: one verdict whichever reads a file.

YAML 1.2 takes a tab as white space between tokens (``key:<TAB>value``, before a
comment, at the end of a line) and inside a value; libyaml does, but ruamel.yaml refuses
every tab where a token could start, and one inside an unquoted value. libyaml's own scan
tells the two apart (a tab outside every scalar token separates tokens): such tabs are
spaces to ruamel.yaml (``for_ruamel``), and a tab inside an unquoted value is refused on
both paths (``unquoted_tab``). A tab in indentation is refused by both readers alike.
"""

from __future__ import annotations

from typing import Any

from docgen.errors import Location, Problem


def for_ruamel(text: str) -> str:
    """``text`` with each tab libyaml reads as white space between tokens (or in a
    comment) written as a space, which ruamel.yaml reads alike; ``text`` itself when it
    holds no tab or libyaml cannot scan it (then ruamel.yaml words what is wrong)."""
    if "\t" not in text:
        return text
    scanned = _scalar_spans(text)
    if scanned is None:
        return text
    inside = bytearray(len(text))
    for start, end, _plain in scanned:
        inside[start:end] = b"\1" * (end - start)
    chars = list(text)
    for at, char in enumerate(text):
        if char == "\t" and not inside[at]:
            chars[at] = " "
    return "".join(chars)


def unquoted_tab(text: str, path: str) -> Problem | None:
    """A tab inside an unquoted value (``x<TAB>y``), which ruamel.yaml cannot read: a
    located problem; None when there is none (or libyaml cannot scan the text)."""
    if "\t" not in text:
        return None
    for start, end, plain in _scalar_spans(text) or ():
        at = text.find("\t", start, end)
        if plain and at >= 0:
            line = text.count("\n", 0, at) + 1
            return Problem(UNQUOTED_TAB, Location(path, line, at - text.rfind("\n", 0, at)))
    return None


#: Said of a tab inside an unquoted value.
UNQUOTED_TAB = (
    "a tab character inside an unquoted value: write a space, or quote the value (a tab "
    "there is text to some YAML readers and an error to others)"
)


def _scalar_spans(text: str) -> list[tuple[int, int, bool]] | None:
    """Where each scalar token of ``text`` stands (start and end index) and whether it is
    unquoted, as libyaml scans it; None when it cannot."""
    try:
        import yaml

        loader: Any = yaml.CBaseLoader(text)
    except (ImportError, AttributeError):
        return None
    spans = []
    try:
        while (token := loader.get_token()) is not None:
            if type(token).__name__ == "ScalarToken":
                plain = not token.style
                spans.append((token.start_mark.index, token.end_mark.index, plain))
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    return spans
