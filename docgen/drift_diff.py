"""The unified diff ``check`` prints for a drifted file: patience diff, not difflib's
matcher (generated pages repeat many lines, on which difflib takes seconds and pairs
unrelated lines; patience anchors on the lines that occur once, in milliseconds, and
shows each edit where it was made), of only the part of a long page that differs."""

from __future__ import annotations

import io
import re
from bisect import bisect_left, bisect_right
from itertools import accumulate


class LineDiff:
    """Where the file on disk (``old``) and the planned text (``new``) differ, by lines
    as git, editors and every other location docgen gives count them (a line ends at a
    newline, "\r\n" included; a form feed or a LINE SEPARATOR is text): how many lines
    both start and end with, and every view ``check`` gives of the lines between.

    Only ``old`` is split whole, and only while the two are compared (a large page's lines
    take twice its size): a report holds many changes, and each keeps only its texts.
    """

    def __init__(self, old: str, new: str) -> None:
        self.old_text, self.new_text = old, new
        lines = lines_of(old)
        starts = list(accumulate(map(len, lines), initial=0))  # where each line starts
        self.same = _same_start(old, new, lines, starts)
        self.end = _same_end(old, new, lines, starts, self.same)
        skip, cut = max(0, self.same - CONTEXT), max(0, self.end - CONTEXT)
        self._at = (starts[self.same], starts[len(lines) - self.end])  # old's middle
        self._shown = (skip, starts[skip], starts[len(lines) - cut])  # with context

    @property
    def first_line(self) -> int:
        """The number of the first line that differs (its text or its line ending)."""
        return self.same + 1

    def changed(self) -> tuple[set[str], set[str]]:
        """The lines, without their endings, that only the new text has, and those that
        only the old text has: ``set(bare_lines(new)) - set(bare_lines(old))`` and the
        reverse, from the lines that differ (any other line is in both texts)."""
        old_middle = bare_lines(self._old_part(*self._at))
        new_middle = bare_lines(self._new_part(*self._at))
        in_old, in_new = _Lines(self.old_text), _Lines(self.new_text)
        return (
            {line for line in set(new_middle) if line not in in_old},
            {line for line in set(old_middle) if line not in in_new},
        )

    def unified(self, name: str) -> str:
        """A unified diff from ``old`` to ``new``; its headers name the file ``name``."""
        import patiencediff

        skip, head, tail = self._shown
        lines = patiencediff.unified_diff(
            lines_of(self._old_part(head, tail)),
            lines_of(self._new_part(head, tail)),
            f"a/{name}",
            f"b/{name}",
            sequencematcher=patiencediff.PatienceSequenceMatcher,
        )
        return "".join(_moved_hunk(line, skip) for line in lines)

    def _old_part(self, start: int, end: int) -> str:
        return self.old_text[start:end]

    def _new_part(self, start: int, end: int) -> str:
        """The part of ``new`` that lies where ``old[start:end]`` lies: the same offset
        before the common end, the same distance from the end after it."""
        return self.new_text[start : end + len(self.new_text) - len(self.old_text)]


def lines_of(text: str) -> list[str]:
    """The lines of ``text``, each with its newline (a last line may have none).

    ``str.splitlines`` is the fastest split and cuts the common text exactly there; it
    also cuts at a lone CR, a U+2028 and the like, which shows as more lines than the
    newlines make: then the text is split at its newlines alone."""
    lines = text.splitlines(keepends=True)
    if len(lines) == text.count("\n") + (text[-1:] not in ("\n", "")):
        return lines
    return io.StringIO(text, newline="\n").readlines()


def bare_lines(text: str) -> list[str]:
    """The lines of ``text`` without their newlines."""
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines


#: How many places of a line's text are looked at before its text is split instead.
MANY_PLACES = 64
#: How many characters two texts are compared by at a time, looking for where they differ.
BLOCK = 4096


def _same_start(old: str, new: str, lines: list[str], starts: list[int]) -> int:
    """How many of ``old``'s ``lines`` (at ``starts``) ``new`` starts with. A line that
    ends before the first character that differs is the same in both (its characters and
    its ending are); the lines from there are compared."""
    same = bisect_left(starts, _common_start(old, new), 1) - 1  # the first line to compare
    while same < len(lines) and _line_at(new, starts[same], lines[same]):
        same += 1
    return same


def _same_end(old: str, new: str, lines: list[str], starts: list[int], same: int) -> int:
    """How many of ``old``'s last ``lines`` ``new`` ends with, after the ``same`` lines
    both start with (in either text). A line that starts after the first character of the
    common end is the same in both; the lines before it are compared."""
    shift = len(new) - len(old)  # where a line of the common end lies in ``new``
    first = max(same, bisect_left(starts, starts[same] - shift, 0, len(lines)))
    common = len(old) - _common_end(old, new)
    index = max(first, bisect_right(starts, common, 0, len(lines))) - 1
    while index >= first:
        at = starts[index] + shift
        if not (_starts_line(new, at) and _line_at(new, at, lines[index])):
            break
        index -= 1
    return len(lines) - 1 - index


def _common_start(a: str, b: str) -> int:
    """How many characters ``a`` and ``b`` start with, compared a block at a time in C."""
    shorter, step, at = min(len(a), len(b)), BLOCK, 0
    while at < shorter and a[at : at + step] == b[at : at + step]:
        at += step
    while at < shorter and a[at] == b[at]:
        at += 1
    return min(at, shorter)


def _common_end(a: str, b: str) -> int:
    """How many characters ``a`` and ``b`` end with, compared a block at a time in C."""
    shorter, step, n = min(len(a), len(b)), BLOCK, 0
    while (
        n < shorter
        and a[max(0, len(a) - n - step) : len(a) - n] == b[max(0, len(b) - n - step) : len(b) - n]
    ):
        n += step
    while n < shorter and a[len(a) - 1 - n] == b[len(b) - 1 - n]:
        n += 1
    return min(n, shorter)


def _line_at(text: str, at: int, line: str) -> bool:
    """Whether the line of ``text`` that starts at ``at`` is ``line`` (with its ending)."""
    if not text.startswith(line, at):
        return False
    return line[-1] == "\n" or at + len(line) == len(text)  # a last line has no ending


def _starts_line(text: str, at: int) -> bool:
    """Whether a line of ``text`` starts at ``at``."""
    return at == 0 or text[at - 1] == "\n"


class _Lines:
    """The lines of a text (without their endings), asked for one at a time. A line is
    found where its text occurs, until looking has read the text about ``LOOKS`` times,
    or a line's text occurs in many places: then the text is split, once, and every later
    line is looked up in the set. However many lines are asked, that costs at most about
    ``LOOKS`` + 1 readings of the text and one split."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.whole: set[str] | None = None
        self.left = LOOKS * len(text)  # what looking may still read before the text is split

    def __contains__(self, bare: str) -> bool:
        if self.whole is None and self.left > 0:
            found = self._looked_up(bare)
            if found is not None:
                return found
        if self.whole is None:
            self.whole = set(bare_lines(self.text))
        return bare in self.whole

    def _looked_up(self, bare: str) -> bool | None:
        """Whether ``bare`` is a line, found where its text occurs (what that reads is
        taken from ``left``); None when its text occurs in many places."""
        text = self.text
        if not bare:  # "" occurs everywhere: a line that is only its ending
            match = _EMPTY_LINE.search(text)
            self.left -= len(text) if match is None else match.end()
            return match is not None
        at = text.find(bare)
        for _ in range(MANY_PLACES):
            if at == -1:
                self.left -= len(text)
                return False
            after = at + len(bare)
            if (after == len(text) or text[after] == "\n") and _starts_line(text, at):
                self.left -= after
                return True
            at = text.find(bare, at + 1)
        return None


#: How many times looking for lines may read a text before it is split: a search reads
#: at memory speed, while splitting a page into a set of its lines costs about as much as
#: reading it 15 to 20 times (3.4 MB: 1.8 ms against 33 ms), so a drift of a few lines
#: in a large page is found without splitting it.
LOOKS = 8
#: An empty line: a line ending at the start of the text or right after another ending.
_EMPTY_LINE = re.compile(r"(?:\A|\n)\n")


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
