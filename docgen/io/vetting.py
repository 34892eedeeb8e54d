"""What a list of writes must pass before the first one (each text encodable, each path
inside the project root), and the located error of one the system then refuses."""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath

from docgen.config import Project
from docgen.errors import SURROGATE, Location, OwnershipError, Problem, WriteError
from docgen.io.reads import Inside


@dataclass(frozen=True)
class Write:
    """One file to write (``text``) or delete (``text`` is None), project-relative."""

    path: str
    text: str | None
    new: bool = False  # the file is known not to exist yet
    #: Where the text is already staged (see ``docgen.prestage``); ``text`` is then "".
    staged: str | None = None


def refuse_unencodable(todo: Sequence[Write]) -> None:
    """Refuse the lot when a text cannot be written as UTF-8 (it holds a lone surrogate).

    Nothing is kept: each text is encoded when it is written, so a build never holds
    every page twice (as text and as bytes)."""
    for write in todo:
        text = write.text
        if text is None or text.isascii() or not SURROGATE.search(text):
            continue
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            where = Location(write.path, 1, 1)
            problem = Problem(f"cannot write {write.path}: {exc.reason}", where)
            raise OwnershipError(problem) from None


def refuse_outside(project: Project, todo: Sequence[Write]) -> None:
    """Refuse the lot when a path to write leads outside the root through a symbolic link
    (a link there or a folder above it), or a path to delete lies in such a folder."""
    inside = Inside(project.root)
    root = str(project.root)
    problems = []
    for write in todo:
        target = os.path.join(root, write.path)
        if write.text is None:
            fine = inside.real(target, link=False) is not None
        else:
            fine = inside.contains(target)
        if not fine:
            verb = "write" if write.text is not None else "delete"
            message = (
                f"refusing to {verb} {write.path}: it leads outside the project root "
                "(through a symbolic link)"
            )
            problems.append(Problem(message, Location(write.path, 1, 1)))
    if problems:
        raise OwnershipError(problems)


def failed(path: str, verb: str, exc: OSError, kept: bool = False, root: str = "") -> WriteError:
    """The located error for an OS failure while writing ``path`` (relative to ``root``)."""
    reason = exc.strerror or str(exc)
    if exc.errno in (errno.ENOTDIR, errno.EEXIST):
        blocked = _not_a_folder(path, root)
        if blocked is not None:
            reason = f"{blocked} is not a folder, and the path needs one there"
    after = "the files written before it were kept" if kept else "no file was changed"
    return WriteError.at(Location(path), f"cannot {verb} {path}: {reason}; {after}")


def _not_a_folder(path: str, root: str) -> str | None:
    """The first of ``path``'s folders that is something else (a file), if one is."""
    parts = PurePath(path).parts[:-1]
    for end in range(1, len(parts) + 1):
        folder = os.path.join(*parts[:end])
        if os.path.lexists(full := os.path.join(root, folder)) and not os.path.isdir(full):
            return PurePath(folder).as_posix()
    return None
