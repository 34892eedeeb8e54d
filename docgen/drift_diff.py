"""The unified diff ``check`` prints for a drifted file: patience diff, not difflib's
matcher (generated pages repeat many lines, on which difflib takes seconds and pairs
unrelated lines; patience anchors on the lines that occur once, in milliseconds, and
shows each edit where it was made), of only the part of a long page that differs."""

from __future__ import annotations

import operator
import re
from itertools import compress, count


class LineDiff:
    """The lines of the file on disk (``old``) and of the planned text (``new``), each with
    its line ending, split once for every view ``check`` gives of their difference; and
    how many lines both start and end with."""

    def __init__(self, old: str, new: str) -> None:
        self.old = old.splitlines(keepends=True)
        self.new = new.splitlines(keepends=True)
        shorter = min(len(self.old), len(self.new))
        # The first index where the lines differ, compared in C (map, compress), not a loop.
        differ = map(operator.ne, self.old, self.new)
        self.same = next(compress(count(), differ), shorter)
        most = shorter - self.same  # lines the start did not already take
        differ = map(operator.ne, reversed(self.old), reversed(self.new))
        self.end = next(compress(range(most), differ), most)

    @property
    def first_line(self) -> int:
        """The number of the first line that differs (its text or its line ending)."""
        return self.same + 1

    def changed(self) -> tuple[set[str], set[str]]:
        """The lines, without their endings, that only the new text has, and those that
        only the old text has: ``set(new.splitlines()) - set(old.splitlines())`` and the
        reverse, from the lines that differ (any other line is in both texts)."""
        old_middle = "".join(self.old[self.same : len(self.old) - self.end]).splitlines()
        new_middle = "".join(self.new[self.same : len(self.new) - self.end]).splitlines()
        old_lines, new_lines = set(self.old), set(self.new)
        return (
            {line for line in new_middle if not _has_line(old_lines, line)},
            {line for line in old_middle if not _has_line(new_lines, line)},
        )

    def unified(self, name: str) -> str:
        """A unified diff from ``old`` to ``new``; its headers name the file ``name``."""
        import patiencediff

        skip = max(0, self.same - CONTEXT)
        cut = max(0, self.end - CONTEXT)
        lines = patiencediff.unified_diff(
            self.old[skip : len(self.old) - cut],
            self.new[skip : len(self.new) - cut],
            f"a/{name}",
            f"b/{name}",
            sequencematcher=patiencediff.PatienceSequenceMatcher,
        )
        return "".join(_moved_hunk(line, skip) for line in lines)


def _has_line(lines: set[str], bare: str) -> bool:
    """Whether ``lines`` (each with its ending) hold the line ``bare`` with any ending
    ``str.splitlines`` knows, or none (a text's last line)."""
    return any(bare + ending in lines for ending in LINE_ENDINGS)


#: Every line ending ``str.splitlines`` splits at, and none.
LINE_ENDINGS = (
    "",
    "\n",
    "\r\n",
    "\r",
    "\v",
    "\f",
    "\x1c",
    "\x1d",
    "\x1e",
    "\x85",
    "\u2028",
    "\u2029",
)
#: Unchanged lines a diff shows around each change.
CONTEXT = 3
_HUNK = re.compile(r"@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


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
