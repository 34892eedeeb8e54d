"""How deep a line of a changelog entry nests: MDX's compiler recurses into every quote,
list item and emphasis level, and runs out of stack at some hundreds of them (a list
700 items deep on one line, a quote 2,000 markers deep), so an entry that ``check`` passes
would fail the docs build for good. No note needs more than a few levels."""

from __future__ import annotations

import re

#: The most levels one line may nest: a hundred, several times below where MDX fails.
MAX_LEVELS = 100
TOO_DEEP = (
    f"nests more than {MAX_LEVELS} levels deep (quote markers, list items, indentation or a "
    "run of emphasis marks): MDX's compiler runs out of stack on deep nesting; write it flatter"
)
_PREFIX = re.compile(r"[ >]*(?:(?:[-*+]|[0-9]{1,9}[.)])[ \t]+[ >]*)*")
_LIST_MARK = re.compile(r"(?:[-*+]|[0-9]{1,9}[.)])[ \t]")
_LONG_RUN = re.compile(rf"\*{{{MAX_LEVELS + 1},}}|_{{{MAX_LEVELS + 1},}}|~{{{MAX_LEVELS + 1},}}")


def too_deep(line: str) -> int:
    """Where ``line`` nests past ``MAX_LEVELS`` (0 for its container markers and
    indentation, else the start of a run of emphasis marks), or -1."""
    expanded = line.expandtabs(4)
    prefix = expanded[: _PREFIX.match(expanded).end()]  # type: ignore[union-attr]
    indent = len(expanded) - len(expanded.lstrip(" "))
    if prefix.count(">") + len(_LIST_MARK.findall(prefix)) + indent // 2 > MAX_LEVELS:
        return 0
    run = _LONG_RUN.search(line)
    return -1 if run is None else run.start()
