"""Compare a plan with the files on disk; write it atomically (build) or report (check).

Nothing is written until every output has rendered and every ownership check
has passed, so a failed build leaves the tree exactly as it was.
"""

from __future__ import annotations

import difflib
import re
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from docgen.config import Project
from docgen.errors import Location, OwnershipError, Problem
from docgen.model import Source
from docgen.plan import Output, Plan, owned

NEW, CHANGED, UNCHANGED, STALE = "new", "changed", "unchanged", "stale"


@dataclass(frozen=True)
class Change:
    """What would happen to one path: new, changed, unchanged or stale."""

    path: str
    status: str
    output: Output | None = None
    old: str | None = None

    def diff(self) -> str:
        old = (self.old or "").splitlines(keepends=True)
        new = (self.output.text if self.output else "").splitlines(keepends=True)
        return "".join(difflib.unified_diff(old, new, f"a/{self.path}", f"b/{self.path}"))

    def behind(self) -> list[Source]:
        """The registry entries whose text appears in the lines that differ."""
        if self.output is None or self.old is None:
            return []
        return attribute(self.old, self.output)


@dataclass
class Report:
    changes: list[Change] = field(default_factory=list)
    #: Broken rules found by check beyond drift (changelog history, the changelog gate).
    findings: list[Problem] = field(default_factory=list)

    def of(self, *statuses: str) -> list[Change]:
        return [c for c in self.changes if c.status in statuses]

    @property
    def in_sync(self) -> bool:
        return not self.of(NEW, CHANGED, STALE) and not self.findings


def compare(project: Project, plan: Plan) -> Report:
    """Classify every planned output and every stale owned file; refuse foreign files."""
    report = Report()
    foreign: list[Problem] = []
    for output in plan.outputs:
        old = _read(project.root / output.path)
        if old is not None and output.owned and not owned(old):
            foreign.append(_foreign(output))
        status = NEW if old is None else UNCHANGED if old == output.text else CHANGED
        report.changes.append(Change(output.path, status, output, old))
    if foreign:
        raise OwnershipError(foreign)
    wanted = {o.path for o in plan.outputs}
    report.changes += [Change(p, STALE) for p in owned_files(project) if p not in wanted]
    return report


def _foreign(output: Output) -> Problem:
    return Problem(
        f"refusing to overwrite {output.path}: it has no docgen notice, so it was written by hand "
        f"(move it away or delete it to let docgen generate it from {output.origin})",
        Location(output.path, 1, 1),
    )


def _read(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def owned_files(project: Project) -> Iterator[str]:
    """Project-relative paths of files under the docs folder that carry the notice."""
    folders = [project.path(project.config.docs), project.path(project.config.changelog)]
    paths = sorted({p for folder in folders if folder.is_dir() for p in folder.rglob("*")})
    for path in paths:
        if path.suffix in (".mdx", ".md", ".json") and path.is_file() and not path.is_symlink():
            text = _read(path)
            if text is not None and owned(text):
                yield path.relative_to(project.root).as_posix()


def apply(
    project: Project, report: Report, progress: Callable[[int], None] | None = None
) -> list[Change]:
    """Write new and changed outputs atomically and delete stale ones; return what changed."""
    done = []
    for change in report.of(NEW, CHANGED, STALE):
        if change.output is not None:
            write_atomic(project.root / change.path, change.output.text)
        else:
            (project.root / change.path).unlink(missing_ok=True)
        done.append(change)
        if progress is not None:
            progress(len(done))
    return done


def write_atomic(path: Path, text: str) -> None:
    """Write through a temporary file in the same folder, then rename over ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".docgen-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def attribute(old: str, output: Output) -> list[Source]:
    """Registry entries whose current value shows more often in the new text than the old.

    A value that merely shares a rewritten line (a prose sentence listing several
    settings) appears on both sides and is not blamed.
    """
    old_lines = old.splitlines()
    new_lines = output.text.splitlines()
    added = "\n".join(sorted(set(new_lines) - set(old_lines)))
    removed = "\n".join(sorted(set(old_lines) - set(new_lines)))
    return [s for s in output.sources if s.text and _count(s.text, added) > _count(s.text, removed)]


def _count(text: str, haystack: str) -> int:
    """Occurrences of ``text`` not followed by a word character (``1`` is not in ``12``)."""
    return len(re.findall(re.escape(text) + r"(?![\w.])", haystack))
