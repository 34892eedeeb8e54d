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

from docgen.errors import Problem, text_location


def for_ruamel(text: str, path: str) -> tuple[str, Problem | None]:
    """``text`` with each tab libyaml reads as white space (between tokens, in a comment,
    in a block scalar's header, where an unquoted value folds at a line's end or goes on
    after its indentation) written as a space, which ruamel.yaml reads alike, and the
    first tab inside an unquoted value (``unquoted_tab``), from one scan. ``text`` itself
    when it holds no tab or libyaml cannot scan it (then ruamel.yaml words what is
    wrong)."""
    if "\t" not in text:
        return text, None
    kept = _text_tabs(text)
    if kept is None:
        return text, None
    spaced = "".join(
        " " if char == "\t" and at not in kept else char for at, char in enumerate(text)
    )
    return spaced, _unquoted(text, path, kept)


def unquoted_tab(text: str, path: str) -> Problem | None:
    """A tab inside an unquoted value, between two of its characters on one line
    (``x<TAB>y``), which ruamel.yaml cannot read: a located problem; None when there is
    none (or libyaml cannot scan the text)."""
    if "\t" not in text:
        return None
    return _unquoted(text, path, _text_tabs(text) or {})


def _unquoted(text: str, path: str, kept: dict[int, bool]) -> Problem | None:
    """The problem of the first of the tabs ``kept`` that stands in an unquoted value."""
    at = min((at for at, plain in kept.items() if plain), default=None)
    return None if at is None else Problem(UNQUOTED_TAB, text_location(path, text, at))


#: Said of a tab inside an unquoted value.
UNQUOTED_TAB = (
    "a tab character inside an unquoted value: write a space, or quote the value (a tab "
    "there is text to some YAML readers and an error to others)"
)


def _text_tabs(text: str) -> dict[int, bool] | None:
    """Where ``text`` holds a tab that is part of a value, as libyaml scans it: each
    index, with whether the value is unquoted; None when libyaml cannot scan it."""
    spans = _scalar_spans(text)
    if spans is None:
        return None
    kept: dict[int, bool] = {}
    for start, end, style in spans:
        if style in ("|", ">"):  # the header line is no part of the value
            start = text.find("\n", start, end) + 1 or end
        at = text.find("\t", start, end)
        while at >= 0:
            if style or _between_characters(text, at, start, end):
                kept[at] = not style
            at = text.find("\t", at + 1, end)
    return kept


def _between_characters(text: str, at: int, start: int, end: int) -> bool:
    """Whether the tab at ``at`` of the unquoted value between ``start`` and ``end`` has
    a character of it on each side on its line (else it is white space that folds)."""
    line_start = max(start, text.rfind("\n", 0, at) + 1)
    line_end = text.find("\n", at, end)
    line_end = end if line_end < 0 else line_end
    return bool(text[line_start:at].strip(" \t")) and bool(text[at + 1 : line_end].strip(" \t"))


def _scalar_spans(text: str) -> list[tuple[int, int, str]] | None:
    """Where each scalar token of ``text`` stands (start and end index, in ``text``'s
    characters) and its style ("" unquoted, a quote, ``|`` or ``>``), as libyaml scans
    it; None when it cannot."""
    try:
        import yaml

        loader: Any = yaml.CBaseLoader(text)
    except (ImportError, AttributeError):
        return None
    shift = 1 if text.startswith("\ufeff") else 0  # libyaml counts no leading mark
    spans = []
    try:
        while (token := loader.get_token()) is not None:
            if type(token).__name__ == "ScalarToken":
                start, end = token.start_mark.index + shift, token.end_mark.index + shift
                spans.append((start, end, token.style or ""))
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    return spans
