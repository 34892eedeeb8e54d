"""The unified diff ``check`` prints for a drifted file: patience diff, not difflib's
matcher (generated pages repeat many lines, on which difflib takes seconds and pairs
unrelated lines; patience anchors on the lines that occur once, in milliseconds, and
shows each edit where it was made), of only the part of a long page that differs."""

from __future__ import annotations

import re


def unified_diff(old: str, new: str, name: str) -> str:
    """A unified diff from ``old`` (the file on disk) to ``new``; its headers name the
    file ``name``."""
    import patiencediff

    skip, old_lines, new_lines = _differing_middle(
        old.splitlines(keepends=True), new.splitlines(keepends=True)
    )
    lines = patiencediff.unified_diff(
        old_lines,
        new_lines,
        f"a/{name}",
        f"b/{name}",
        sequencematcher=patiencediff.PatienceSequenceMatcher,
    )
    return "".join(_moved_hunk(line, skip) for line in lines)


#: Unchanged lines a diff shows around each change.
CONTEXT = 3
_HUNK = re.compile(r"@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def _differing_middle(old: list[str], new: list[str]) -> tuple[int, list[str], list[str]]:
    """Both sides without the equal lines they start and end with, but for ``CONTEXT``
    of each, and how many lines were left off at the start: a one-line edit of a long
    page is diffed in a few lines, not in every line of the page."""
    shorter = min(len(old), len(new))
    same = next((n for n, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), shorter)
    skip = max(0, same - CONTEXT)
    most = shorter - same  # lines the start did not already take
    end = next((n for n in range(most) if old[-1 - n] != new[-1 - n]), most)
    cut = max(0, end - CONTEXT)
    return skip, old[skip : len(old) - cut], new[skip : len(new) - cut]


def _moved_hunk(line: str, skip: int) -> str:
    """A line of a diff of lines from ``skip`` on, its hunk header numbered as in the whole
    file; a last line without a line ending is marked as such, as git marks it."""
    if not line.endswith("\n"):
        return f"{line}\n\\ No newline at end of file\n"
    match = _HUNK.match(line) if skip and line.startswith("@@") else None
    if match is None:
        return line
    old_start, new_start = int(match[1]) + skip, int(match[3]) + skip
    return f"@@ -{old_start}{match[2] or ''} +{new_start}{match[4] or ''} @@{line[match.end() :]}"
