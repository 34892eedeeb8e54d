"""Writing project files: each through a temporary file renamed into place, so a killed build
leaves every file old or new, never half written.

Every file primitive here goes through this module's ``os`` (the interruption tests wrap
it to kill a build at each write point).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from docgen.config import Project
from docgen.errors import Location, OwnershipError, Problem
from docgen.io import files

TMP_SUFFIX = ".docgen-tmp"
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


@dataclass(frozen=True)
class Write:
    """One file to write (``text``) or delete (``text`` is None), project-relative."""

    path: str
    text: str | None
    new: bool = False  # the file is known not to exist yet


def apply(
    project: Project,
    todo: Sequence[Write],
    near: Iterable[str] = (),
    progress: Callable[[int], None] | None = None,
) -> None:
    """Write or delete each of ``todo`` in order, after sweeping the temporaries an
    interrupted build left beside them and beside ``near``.

    Every text is encoded before the first write, so one that cannot be refuses the
    whole lot. ``progress`` hears how many are done after each one.
    """
    sweep_temporaries(project, [*near, *(w.path for w in todo)])
    data: dict[str, bytes] = {}
    for write in todo:
        if write.text is not None:
            try:
                data[write.path] = write.text.encode("utf-8")
            except UnicodeEncodeError as exc:
                where = Location(write.path, 1, 1)
                problem = Problem(f"cannot write {write.path}: {exc.reason}", where)
                raise OwnershipError(problem) from None
    root = str(project.root)  # strings, not Paths: this loop runs once per file
    folders = {os.path.dirname(os.path.join(root, w.path)) for w in todo if w.text is not None}
    for folder in sorted(folders):
        os.makedirs(folder, exist_ok=True)
    files.forget(project)
    for done, write in enumerate(todo, start=1):  # one thread: on thousands of small
        target = os.path.join(root, write.path)  # files it beats a pool
        if write.text is not None:
            write_atomic(target, data[write.path], write.new)
        else:
            with suppress(FileNotFoundError):
                os.unlink(target)
        if progress is not None:
            progress(done)


def sweep_temporaries(project: Project, paths: Iterable[str]) -> None:
    """Remove temporary files an interrupted build left in the folders of ``paths``."""
    root = str(project.root)
    for folder in {os.path.dirname(os.path.join(root, p)) for p in paths}:
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


def _mode_of(path: str) -> int | None:
    """The permission bits ``path`` has now, or None when it does not exist."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return None
