"""Where a project is: the folder that holds docgen's settings or its registry, found
from a folder upward (``docgen`` run in ``docs/`` works on the project above)."""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path

from docgen.config import Config
from docgen.errors import ConfigError, Location, one_line

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


#: The Python project file whose ``[tool.docgen]`` table makes its folder a project.
PYPROJECT = "pyproject.toml"


def holds_project(folder: Path) -> bool:
    """Whether ``folder`` holds a docgen project: ``docgen.toml``, a ``pyproject.toml``
    with a ``[tool.docgen]`` table, or a registry by the default name (a regular file
    each: a FIFO is never opened)."""
    if (folder / "docgen.toml").is_file() or (folder / Config().registry).is_file():
        return True
    pyproject = folder / PYPROJECT
    try:
        if not pyproject.is_file():
            return False
        with pyproject.open("rb") as held:
            text = held.read(_PYPROJECT_BYTES).decode("utf-8", "replace")
    except OSError:
        return False
    return _docgen_table(text)


def _docgen_table(text: str) -> bool:
    """Whether a ``pyproject.toml``'s text has a ``[tool.docgen]`` table, however TOML
    writes it (a header, ``docgen = {...}`` under ``[tool]``, a dotted key); by a header
    alone when the text is no TOML (its settings are then an error the project reports)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return _DOCGEN_TABLE.search(text) is not None
    tool = data.get("tool")
    return isinstance(tool, dict) and "docgen" in tool


_PYPROJECT_BYTES = 1_000_000
_DOCGEN_TABLE = re.compile(r"^[ \t]*\[[ \t]*tool\.docgen[ \t]*[.\]]", re.MULTILINE)


def find_project(start: Path, registry: str | None = None) -> Path:
    """The nearest folder from ``start`` upward that holds a project (see
    ``nearest_project``), or the ``registry`` file named on the command line; raise
    ConfigError at ``start``, saying where the search looked, when none does. ``start``
    itself when the current folder was deleted (its errors say so)."""
    try:
        here = start.absolute()
    except OSError:
        return start
    found, stop = _search(here, registry)
    if found is None:
        raise ConfigError.at(Location(str(here)), _not_found(stop, registry))
    return start if found == here else found


def nearest_project(start: Path) -> Path | None:
    """The nearest folder from ``start`` upward that holds a project, or None. The search,
    as git's for its repository, never leaves the git repository ``start`` lies in, nor
    enters a folder above ``start`` that another user owns or anyone may write to (a
    project planted in a shared ``/tmp`` is none of this user's, root's included)."""
    try:
        here = start.absolute()
    except OSError:  # the current folder was deleted: said where the project is read
        return None
    return _search(here)[0]


def _search(here: Path, registry: str | None = None) -> tuple[Path | None, str]:
    """The project found from ``here`` upward (a folder that holds one, or the file
    ``registry`` names from it), or None and why the search stopped."""
    for folder in (here, *here.parents):
        # The folder docgen runs in is the caller's choice, as --root is: only the folders
        # above it must be this user's alone to be searched.
        if folder != here and not _own(folder):
            return None, f"at {folder}, which another user owns or anyone may write to"
        if holds_project(folder) or (registry and _names_below(registry, folder)):
            return folder, ""
        if os.path.lexists(folder / ".git"):
            return None, f"at {folder}, the top of its git repository"
    return None, f"at {here.anchor or here}, the top of the file system"


def _names_below(registry: str, folder: Path) -> bool:
    """Whether ``registry`` names a file below ``folder`` (a ``..`` leads above the folder,
    which is then no project of it: from ``docs/``, ``../profiles.yaml`` is the project's
    registry above, not one of a project in ``docs/``)."""
    return ".." not in Path(registry).parts and _is_file(folder / registry)


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a regular file (not when its name is too long to look up)."""
    try:
        return path.is_file()
    except OSError:
        return False


def _not_found(stop: str, registry: str | None = None) -> str:
    where = f"; the search stopped {stop}" if stop else ""
    files = (
        f"profiles.yaml, or {one_line(registry)} (--registry)" if registry else "or profiles.yaml"
    )
    holds = f"docgen.toml, a pyproject.toml with a [tool.docgen] table, {files}"
    return (
        f"no docgen project here or in a folder above (a project folder holds {holds})"
        f"{where}; run `docgen init` to make one, or name one with --root"
    )


def _own(folder: Path) -> bool:
    """Whether ``folder`` is this user's alone: owned by this user and not writable by
    everyone (always, where owners are not known)."""
    getuid = getattr(os, "geteuid", None)
    try:
        held = folder.stat()
    except OSError:
        return False
    return getuid is None or (held.st_uid == getuid() and not held.st_mode & stat.S_IWOTH)
