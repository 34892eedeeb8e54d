"""Where a project is: the folder that holds docgen's settings or its registry, found
from a folder upward (``docgen`` run in ``docs/`` works on the project above)."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from docgen.config import Config


def holds_project(folder: Path) -> bool:
    """Whether ``folder`` holds a docgen project: ``docgen.toml``, a ``pyproject.toml``
    with a ``[tool.docgen]`` table, or a registry by the default name (a regular file
    each: a FIFO is never opened)."""
    if (folder / "docgen.toml").is_file() or (folder / Config().registry).is_file():
        return True
    pyproject = folder / "pyproject.toml"
    try:
        if not pyproject.is_file():
            return False
        with pyproject.open("rb") as held:
            text = held.read(_PYPROJECT_BYTES).decode("utf-8", "replace")
    except OSError:
        return False
    return _DOCGEN_TABLE.search(text) is not None


_PYPROJECT_BYTES = 1_000_000
_DOCGEN_TABLE = re.compile(r"^[ \t]*\[[ \t]*tool\.docgen[ \t]*[.\]]", re.MULTILINE)


def find_project(start: Path) -> Path:
    """The nearest folder from ``start`` upward that holds a project (see
    ``nearest_project``); ``start`` when none does (its errors then say what is missing
    there)."""
    found = nearest_project(start)
    return start if found is None or found == start.absolute() else found


def nearest_project(start: Path) -> Path | None:
    """The nearest folder from ``start`` upward that holds a project, or None. The search,
    as git's for its repository, never leaves the git repository ``start`` lies in, nor
    enters a folder another user owns or anyone may write to (a project planted in a
    shared ``/tmp`` is none of this user's, root's included)."""
    try:
        here = start.absolute()
    except OSError:  # the current folder was deleted: said where the project is read
        return None
    for folder in (here, *here.parents):
        if not _own(folder):
            break
        if holds_project(folder):
            return folder
        if os.path.lexists(folder / ".git"):
            break  # the repository's top: a project above it is another's
    return None


def _own(folder: Path) -> bool:
    """Whether ``folder`` is this user's alone: owned by this user and not writable by
    everyone (always, where owners are not known)."""
    getuid = getattr(os, "geteuid", None)
    try:
        held = folder.stat()
    except OSError:
        return False
    return getuid is None or (held.st_uid == getuid() and not held.st_mode & stat.S_IWOTH)
