"""Reading project files without leaving the project root, and one walk of each folder per command.

A path lies inside the root when its real path does, through any symbolic links. A
folder is walked once per ``Project`` (one command's view of the tree): the cache key,
the plan, the stale scan and the preview all read the same listing, and a write through
``docgen.io.writes.apply`` drops it. A walk never enters a linked folder, and a reader
here never opens a FIFO or a device (reading /dev/zero would never end).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from docgen.config import Project
from docgen.errors import Location, PageError

#: What a walked name is: a regular file, a symbolic link, or anything else (FIFO, device).
FILE, LINK, OTHER = "file", "link", "other"


class Inside:
    """Whether a path, through any symbolic links, lies inside the project root (the real
    path of each folder is looked up once)."""

    def __init__(self, root: str | Path) -> None:
        self.root = os.path.realpath(root)
        self.folders: dict[str, str] = {}

    def real(self, path: str, link: bool) -> str | None:
        """The real path of ``path`` (a symbolic link when ``link``) if it lies inside the
        root, else None."""
        if link:
            real = os.path.realpath(path)
        else:
            folder, name = os.path.split(path)
            if folder not in self.folders:
                self.folders[folder] = os.path.realpath(folder)
            real = os.path.join(self.folders[folder], name)
        return real if real == self.root or real.startswith(self.root + os.sep) else None

    def contains(self, path: str) -> bool:
        """Whether ``path`` (a link there followed) stays inside the root."""
        return self.real(path, os.path.islink(path)) is not None


def readable(path: str | Path, inside: Inside | None) -> str | None:
    """Where to read ``path``: a regular file (through links, within the root unless
    ``inside`` is None), or None for anything refused or never read (a device, a FIFO)."""
    text = os.fspath(path)
    try:
        info = os.lstat(text)
        link = stat.S_ISLNK(info.st_mode)
        real = text if inside is None else inside.real(text, link)
        if real is None:
            return None
        if link:
            info = os.stat(real)
    except OSError:
        return None
    return real if stat.S_ISREG(info.st_mode) else None


def read_bytes(path: str | Path) -> bytes | None:
    """A file's bytes, or None when there is no file there."""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


def read_head(path: str | Path, size: int) -> bytes | None:
    """The first ``size`` bytes of a file, or None when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            return handle.read(size)
    except OSError:
        return None


def read_text(project: Project, path: Path) -> str:
    """A page's text; invalid UTF-8 is a located error at its project path."""
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        where = Location(path.relative_to(project.root).as_posix(), line)
        raise PageError.at(where, "invalid UTF-8 in page") from None


# -- one walk of a folder ------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """One name under a walked folder."""

    path: str  # the folder's path joined with the names below it (links not resolved)
    rel: str  # project-relative, POSIX
    kind: str  # FILE, LINK or OTHER (as the name itself is, not what a link leads to)


@dataclass(frozen=True)
class Listing:
    """Every file under one folder, folders and names in sorted order, each folder's own
    files before the folders below it (linked folders are not entered)."""

    folder: Path
    inside: bool  # whether the folder, through links, lies inside the project root
    files: tuple[Found, ...]


_LISTINGS: dict[int, tuple[Project, dict[str, Listing]]] = {}


def listing(project: Project, folder: str) -> Listing:
    """The files under the project folder ``folder`` (``docs``, ``templates``, ...),
    walked the first time this command's ``project`` asks."""
    held = _LISTINGS.get(id(project))
    if held is None or held[0] is not project:
        _LISTINGS.clear()  # one command, one project
        held = _LISTINGS[id(project)] = (project, {})
    found = held[1].get(folder)
    if found is None:
        path = project.path(folder)
        inside = Inside(project.root).contains(str(path))
        found = held[1][folder] = Listing(path, inside, _walk(project, str(path)))
    return found


def forget(project: Project) -> None:
    """Drop the listings of ``project``: files were written, the next reader walks again."""
    _LISTINGS.pop(id(project), None)


def _walk(project: Project, top: str) -> tuple[Found, ...]:
    """What ``os.walk(top)`` finds (sorted, links to folders not entered), with each
    name's kind from the same directory read."""
    cut = len(str(project.root)) + 1
    found: list[Found] = []
    pending = [top]
    while pending:
        try:
            with os.scandir(pending.pop()) as listed:
                entries = sorted(listed, key=lambda entry: entry.name)
        except OSError:
            continue
        below = []
        for entry in entries:
            if _is_dir(entry):
                if not entry.is_symlink():
                    below.append(entry.path)
                continue
            kind = LINK if entry.is_symlink() else _kind(entry)
            found.append(Found(entry.path, entry.path[cut:].replace(os.sep, "/"), kind))
        pending += reversed(below)
    return tuple(found)


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _kind(entry: os.DirEntry[str]) -> str:
    try:
        return FILE if entry.is_file(follow_symlinks=False) else OTHER
    except OSError:
        return OTHER


def pages(project: Project) -> list[Found]:
    """The ``.mdx`` names under the docs folder, outside the variants folder, in walk
    order; none when the docs folder leads outside the project root."""
    docs = listing(project, project.config.docs)
    if not docs.inside:
        return []
    variants = str(project.path(project.config.variants))
    skip = variants + os.sep if variants.startswith(str(docs.folder) + os.sep) else None
    return [
        f
        for f in docs.files
        if f.path.endswith(".mdx") and (skip is None or not f.path.startswith(skip))
    ]
