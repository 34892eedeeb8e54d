"""Compare a plan with the files on disk; write it atomically (build) or report (check).

Nothing is written until every output has rendered and every ownership check
has passed, so a failed build leaves the tree exactly as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from docgen.config import Project
from docgen.errors import ConfigError, Location, OwnershipError, Problem
from docgen.plan import Output, Plan, owned
from docgen.registry.model import Source

NEW, CHANGED, UNCHANGED, STALE = "new", "changed", "unchanged", "stale"
#: The statuses of a file that is not as docgen would write it.
DRIFTED = (NEW, CHANGED, STALE)
#: Why a file that is not unchanged fails ``check``, in the words every report uses
#: (``Change.why`` names the changelog entries instead where they are the cause).
WHY = {
    NEW: "missing: docgen would create it",
    CHANGED: "out of date with the registry",
    STALE: "stale: no template or registry entry produces it any more",
}
REGISTRY, CHANGELOG = "the registry", "the changelog entries"


@dataclass(frozen=True)
class Change:
    """What would happen to one path: new, changed, unchanged or stale."""

    path: str
    status: str
    output: Output | None = None
    old: str | None = None

    def diff(self) -> str:
        """A unified diff from the file on disk to the planned text.

        Patience diff, not difflib's matcher: generated pages repeat many lines, on which
        difflib takes seconds and pairs unrelated lines; patience anchors on the lines
        that occur once, in milliseconds, and shows each edit where it was made.
        """
        import patiencediff

        old = (self.old or "").splitlines(keepends=True)
        new = (self.output.text if self.output else "").splitlines(keepends=True)
        lines = patiencediff.unified_diff(
            old,
            new,
            f"a/{self.path}",
            f"b/{self.path}",
            sequencematcher=patiencediff.PatienceSequenceMatcher,
        )
        return "".join(lines)

    def behind(self) -> list[Source]:
        """The registry entries (or changelog entries) whose text appears in the lines
        that differ."""
        if self.output is None or self.old is None:
            return []
        return attribute(self.old, self.output)

    @property
    def cause(self) -> str:
        """What the drift comes from: the registry, or the changelog entries."""
        if self.output is None or self.output.basis != "changelog":
            return REGISTRY
        return CHANGELOG if self.status != CHANGED or self.behind() else REGISTRY

    @property
    def why(self) -> str:
        """Why this file fails ``check``, naming its real cause."""
        if self.status == CHANGED:
            return f"out of date with {self.cause}"
        return WHY[self.status]

    @property
    def behind_label(self) -> str:
        """How a report introduces each of ``behind()``: "registry entry" or "changelog entry"."""
        changelog = self.output is not None and self.output.basis == "changelog"
        return "changelog entry" if changelog else "registry entry"


def causes(changes: list[Change]) -> str:
    """``the registry``, ``the changelog entries`` or both, for a summary line."""
    found = {c.cause for c in changes}
    return " and ".join(c for c in (REGISTRY, CHANGELOG) if c in found) or REGISTRY


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
    report = compare_outputs(project, plan.outputs)
    wanted = {o.path for o in plan.outputs}
    report.changes += [Change(p, STALE) for p in owned_files(project, skip=wanted)]
    return report


def compare_outputs(project: Project, outputs: Iterable[Output]) -> Report:
    """Classify some outputs (no stale files: ``compare`` adds those); refuse foreign files."""
    report = Report()
    foreign: list[Problem] = []
    root = str(project.root.resolve())
    base = str(project.root)
    _real_dir.cache_clear()
    for output in outputs:
        target = os.path.join(base, output.path)
        if not _inside(target, root):
            foreign.append(
                Problem(
                    f"refusing to write {output.path}: it leads outside the "
                    "project root (through a symbolic link)",
                    Location(output.path, 1, 1),
                )
            )
            continue
        raw = _read_bytes(target)
        old = None if raw is None else raw.decode("utf-8", errors="replace")
        if old is not None and output.owned and not owned(old):
            foreign.append(_foreign(output))
        if raw is None:
            status = NEW
        elif output.digest:  # a cached plan: compare digests
            status = UNCHANGED if hashlib.sha256(raw).hexdigest() == output.digest else CHANGED
        else:
            status = UNCHANGED if old == output.text else CHANGED
        report.changes.append(Change(output.path, status, output, old))
    if foreign:
        raise OwnershipError(foreign)
    return report


def _inside(path: str, root: str) -> bool:
    """Whether ``path`` (through any symbolic links) stays inside the resolved ``root``."""
    if os.path.islink(path):
        target = os.path.realpath(path)
    else:
        folder, name = os.path.split(path)
        target = os.path.join(_real_dir(folder), name)
    return target == root or target.startswith(root + os.sep)


@lru_cache(maxsize=4096)
def _real_dir(folder: str) -> str:
    return os.path.realpath(folder)


def _foreign(output: Output) -> Problem:
    return Problem(
        f"refusing to overwrite {output.path}: it has no docgen notice, so it was written by hand "
        f"(move it away or delete it to let docgen generate it from {output.origin})",
        Location(output.path, 1, 1),
    )


def _read(path: Path) -> str | None:
    raw = _read_bytes(path)
    return None if raw is None else raw.decode("utf-8", errors="replace")


def _read_bytes(path: str | Path) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def owned_files(project: Project, skip: set[str] | None = None) -> Iterator[str]:
    """Project-relative paths of files under the docs folder that carry the notice.

    A folder that leads outside the project root (a symbolic link) is not entered: what
    lies there is never docgen's to read or delete. Links below it are not followed.
    """
    folders = [project.path(project.config.docs), project.path(project.config.changelog)]
    root = str(project.root.resolve())
    _real_dir.cache_clear()
    found: set[str] = set()
    for folder in folders:
        if not _inside(str(folder), root):
            continue
        for top, _dirs, names in os.walk(folder):
            found.update(
                os.path.join(top, n) for n in names if n.endswith((".mdx", ".md", ".json"))
            )
    cut = len(str(project.root)) + 1
    for name in sorted(found):
        rel = name[cut:].replace(os.sep, "/")
        if skip is not None and rel in skip:
            continue
        path = Path(name)
        if path.is_file() and not path.is_symlink():
            text = _read(path)
            if text is not None and owned(text):
                yield rel


def apply(
    project: Project, report: Report, progress: Callable[[int], None] | None = None
) -> list[Change]:
    """Write new and changed outputs atomically and delete stale ones; return what changed."""
    sweep_temporaries(project, report)
    data: dict[str, bytes] = {}
    for change in report.of(NEW, CHANGED):  # refuse before the first write, not midway
        assert change.output is not None and not change.output.digest, "a cached plan"
        try:
            data[change.path] = change.output.text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise OwnershipError(
                Problem(f"cannot write {change.path}: {exc.reason}", Location(change.path, 1, 1))
            ) from None
    todo = report.of(NEW, CHANGED, STALE)
    root = str(project.root)  # strings, not Paths: this loop runs once per file
    for folder in sorted({os.path.dirname(os.path.join(root, c.path)) for c in todo if c.output}):
        os.makedirs(folder, exist_ok=True)
    done: list[Change] = []
    for change in todo:  # one thread: on thousands of small files it beats a pool
        target = os.path.join(root, change.path)
        if change.output is not None:
            write_atomic(target, data[change.path], change.status == NEW)
        else:
            with suppress(FileNotFoundError):
                os.unlink(target)
        done.append(change)
        if progress is not None:
            progress(len(done))
    return done


TMP_SUFFIX = ".docgen-tmp"


def sweep_temporaries(project: Project, report: Report) -> None:
    """Remove temporary files an interrupted build left beside its outputs."""
    root = str(project.root)
    for folder in {os.path.dirname(os.path.join(root, c.path)) for c in report.changes}:
        try:
            entries = list(os.scandir(folder))
        except (FileNotFoundError, NotADirectoryError):
            continue
        for entry in entries:
            if entry.name.startswith(".") and entry.name.endswith(TMP_SUFFIX):
                with suppress(FileNotFoundError):
                    os.unlink(entry.path)


def write_atomic(path: str | Path, text: str | bytes, new: bool = False) -> None:
    """Write through a temporary file in the same folder, then rename over ``path``.

    A killed build leaves every file old or new, never half written. A new file gets the
    mode a plain write would give it (the kernel applies the umask), a rewritten one keeps
    its own; ``new`` says the caller knows ``path`` does not exist yet. Files are not
    fsynced one by one (that costs seconds on thousands of files); a power cut can still
    lose the newest writes, as with most build tools.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    path = os.fspath(path)
    mode = None if new else _mode_of(path)
    folder, name = os.path.split(path)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}{TMP_SUFFIX}")
    try:
        fd = os.open(tmp, _CREATE, 0o666)
    except FileExistsError:  # left by a killed build that had this process id
        os.unlink(tmp)
        fd = os.open(tmp, _CREATE, 0o666)
    except FileNotFoundError:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(tmp, _CREATE, 0o666)
    try:
        try:
            if mode is not None:
                os.fchmod(fd, mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


def _mode_of(path: str) -> int | None:
    """The permission bits ``path`` has now, or None when it does not exist."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return None


def attribute(old: str, output: Output) -> list[Source]:
    """Registry entries whose current value shows more often in the new text than the old.

    A value that merely shares a rewritten line (a prose sentence listing several
    settings) appears on both sides and is not blamed. The export is compared as one
    line per value (see ``_export_view``), so an argument's tokens, one per JSON line,
    read as the words its source holds. A page made from changelog entries has one line
    per release: every release whose line differs is behind it.
    """
    new = output.text
    if output.kind == "export":
        old, new = _export_view(old, new)
    old_lines = old.splitlines()
    new_lines = new.splitlines()
    added = "\n".join(sorted(set(new_lines) - set(old_lines)))
    removed = "\n".join(sorted(set(old_lines) - set(new_lines)))
    if output.basis == "changelog":
        both = f"{added}\n{removed}"
        return [s for s in output.sources if s.text and _count(s.text, both)]
    return [
        s
        for s in output.sources
        if s.text and s.text in added and _count(s.text, added) > _count(s.text, removed)
    ]


def _export_view(old: str, new: str) -> tuple[str, str]:
    """Both export texts as one ``path: value`` line per value, each list of strings (an
    argv) on one line as its words; the texts as they are when either is not JSON."""
    try:
        return _flat_lines(json.loads(old)), _flat_lines(json.loads(new))
    except ValueError:
        return old, new


def _flat_lines(data: Any) -> str:
    return "\n".join(_flat(data, ""))


def _flat(value: Any, path: str) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _flat(item, f"{path}.{key}")
    elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        yield f"{path}: {' '.join(value)}"
    elif isinstance(value, list):
        for n, item in enumerate(value):
            name = item.get("id", n) if isinstance(item, dict) else n
            yield from _flat(item, f"{path}[{name}]")
    else:
        yield f"{path}: {value if isinstance(value, str) else json.dumps(value)}"


def _count(text: str, haystack: str) -> int:
    """Occurrences of ``text`` not followed by a word character (``1`` is not in ``12``)."""
    return len(re.findall(re.escape(text) + r"(?![\w.])", haystack))


@contextmanager
def build_lock(
    project: Project, wait: float = 120.0, notify: Callable[[str], None] | None = None
) -> Iterator[None]:
    """Hold an exclusive lock on the project root so two builds never interleave writes.

    A second build waits (saying so once) and then plans against the first one's
    result; after ``wait`` seconds it stops with a clear error instead.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        yield
        return
    fd = os.open(project.root, os.O_RDONLY)
    try:
        _acquire(fd, fcntl, wait, notify)
        yield
    finally:
        os.close(fd)


def _acquire(fd: int, fcntl: Any, wait: float, notify: Callable[[str], None] | None) -> None:
    deadline = time.monotonic() + wait
    told = False
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if not told and notify is not None:
                notify("docgen: another docgen build is running in this project; waiting")
                told = True
            if time.monotonic() > deadline:
                raise ConfigError.at(
                    Location("docgen"),
                    f"another docgen build kept this project locked for {wait:.0f} s; try again",
                ) from None
            time.sleep(0.05)
