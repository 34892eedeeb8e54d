"""Opening one input without leaving the project root: the one way docgen reads a file.

A path lies inside the root when its real path does, through any symbolic links. Every
input docgen reads (registry, template, page, changelog entry, note) is opened by
``read_input``: within the root, a regular file (never a FIFO or a device: reading
/dev/zero would never end), at most ``MAX_BYTES``, and valid UTF-8; anything else is a
located error naming the input and what is accepted.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from docgen.errors import ConfigError, DocgenError, Location, decode
from docgen.setting_values import in_git_folder

#: The largest input docgen reads (bounded time and memory on hostile input).
MAX_BYTES = 4_000_000


class Inside:
    """Whether a path, through any symbolic links, lies inside the project root (the real
    path of each folder is looked up once). A git folder (``.git``, in any case, the
    root's or a nested checkout's) is not inside: a link into it would publish git's
    config, a CI token included."""

    def __init__(self, root: str | Path) -> None:
        self.root = os.path.realpath(root)
        self.folders: dict[str, str] = {}

    def real(self, path: str, link: bool) -> str | None:
        """The real path of ``path`` (a symbolic link when ``link``) if it lies inside the
        root, else None."""
        folder, name = os.path.split(path)
        if link or name in ("", ".", ".."):
            real = os.path.realpath(path)
        else:
            base = self.folders.get(folder)
            if base is None:  # a real folder path ends in a separator only when it is "/"
                base = self.folders[folder] = os.path.realpath(folder).rstrip(os.sep) + os.sep
            real = base + name
        return real if real == self.root or self._below(real) else None

    def _below(self, real: str) -> bool:
        """Whether the real path ``real`` lies below the root, outside any ``.git`` folder
        (the root's own, or a repository checked out below it)."""
        if not real.startswith(self.root + os.sep):
            return False
        return not in_git_folder(real[len(self.root) + 1 :], os.sep)

    def in_git(self, path: str) -> bool:
        """Whether ``path`` leads into a ``.git`` folder below the root (through links)."""
        real = os.path.realpath(path)
        return real.startswith(self.root + os.sep) and not self._below(real)

    def contains(self, path: str) -> bool:
        """Whether ``path`` (a link there followed) stays inside the root."""
        return self.real(path, os.path.islink(path)) is not None


def readable(path: str | Path, inside: Inside | None) -> str | None:
    """Where to read ``path``: a regular file (through links, within the root unless
    ``inside`` is None), or None for anything refused or never read (a device, a FIFO)."""
    try:
        real, info = lookup(os.fspath(path), inside)
    except OSError:
        return None
    return real if real is not None and stat.S_ISREG(info.st_mode) else None


def lookup(text: str, inside: Inside | None) -> tuple[str | None, os.stat_result]:
    """The real path of ``text`` if it lies inside the root (``text`` itself when
    ``inside`` is None; None when it leaves the root), and what lies there (a link
    followed when it stays inside). Raise OSError when nothing lies at ``text``."""
    real, info, _link = lookup_link(text, inside)
    return real, info


def lookup_link(text: str, inside: Inside | None) -> tuple[str | None, os.stat_result, bool]:
    """``lookup``, and whether ``text`` itself is a symbolic link."""
    info = os.lstat(text)
    link = stat.S_ISLNK(info.st_mode)
    real = text if inside is None else inside.real(text, link)
    if link and real is not None:
        info = os.stat(real)
    return real, info, link


def read_bytes(path: str | Path) -> bytes | None:
    """A regular file's bytes, or None when there is none there (a FIFO or a device is
    opened without blocking and not read)."""
    try:
        return _regular(path, -1)
    except (FileNotFoundError, NotADirectoryError):
        return None


def read_head(path: str | Path, size: int) -> bytes | None:
    """The first ``size`` bytes of a regular file, or None when there is no regular file
    there or it cannot be read."""
    try:
        return _regular(path, size)
    except OSError:
        return None


def _regular(path: str | Path, size: int) -> bytes | None:
    """The first ``size`` bytes (all for -1) of the regular file ``path``; None for
    anything else, which is opened without blocking and never read."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        # Ask for the expected size and a byte more: a short read of a regular file is
        # its end. A file that grew meanwhile is read on in blocks (up to ``size``).
        parts: list[bytes] = []
        total, want = 0, info.st_size + 1
        while size < 0 or total < size:
            ask = want if size < 0 else min(want, size - total)
            chunk = os.read(fd, ask)
            parts.append(chunk)
            total += len(chunk)
            if len(chunk) < ask:
                break
            want = 1 << 16
        return b"".join(parts)
    finally:
        os.close(fd)


_NOT_FILES = {
    stat.S_IFDIR: "a folder",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFSOCK: "a socket",
}


def not_a_file(mode: int) -> str:
    """What stands at a path of ``mode`` that is no regular file, as a message names it
    (``a FIFO``)."""
    return _NOT_FILES.get(stat.S_IFMT(mode), "something else")


class Refused(Exception):
    """Why an input is not read (``message`` names it as ``the <what>``), and where."""

    def __init__(self, message: str, line: int = 0, col: int = 0) -> None:
        super().__init__(message)
        self.message, self.line, self.col = message, line, col


def read_input(
    path: str | Path,
    inside: Inside | None,
    what: str,
    *,
    display: str | None = None,
    error: type[DocgenError] = ConfigError,
    limit: int = MAX_BYTES,
) -> str:
    """The UTF-8 text of the input ``path`` (a leading BOM dropped), read as
    ``read_input_bytes`` reads it; bytes that are not UTF-8 are an ``error`` at their
    line and column. ``what`` names the input in messages: ``changelog note``."""
    raw = read_input_bytes(path, inside, what, display=display, error=error, limit=limit)
    return decode(raw, display or shown(path, inside), what, error)


def read_input_bytes(
    path: str | Path,
    inside: Inside | None,
    what: str,
    *,
    display: str | None = None,
    error: type[DocgenError] = ConfigError,
    limit: int = MAX_BYTES,
    missing: str | None = None,
) -> bytes:
    """The bytes of the input ``path``, or an ``error`` located at ``display`` (default:
    the project-relative path) when it is missing, leads outside the root through a
    symbolic link (unless ``inside`` is None: a file the user named), is not a regular
    file, or is larger than ``limit``. ``missing`` replaces the message for a missing file."""
    try:
        return load(path, inside, what, limit)
    except Refused as refused:
        message = refused.message
        if missing is not None and not os.path.lexists(path):
            message = missing
        where = Location(display or shown(path, inside), refused.line, refused.col)
        raise error.at(where, message) from None


def read_quietly(path: str | Path, inside: Inside | None, limit: int) -> bytes | None:
    """What ``load`` reads, or None where it refuses."""
    try:
        return load(path, inside, "file", limit)
    except Refused:
        return None


def shown(path: str | Path, inside: Inside | None) -> str:
    """``path`` as messages show it: project-relative when it lies under the root."""
    text = os.path.abspath(path)
    if inside is not None and text.startswith(inside.root + os.sep):
        return text[len(inside.root) + 1 :].replace(os.sep, "/")
    return os.fspath(path)


def load(path: str | Path, inside: Inside | None, what: str, limit: int) -> bytes:
    """The bytes of the regular file ``path`` (within the root unless ``inside`` is None),
    at most ``limit`` of them; raise Refused otherwise. A FIFO or device is never opened."""
    real, info = _located(os.fspath(path), inside, what)
    data = None
    if stat.S_ISREG(info.st_mode) and info.st_size <= limit:
        try:
            data = _regular(real, limit + 1)
        except OSError as exc:
            raise Refused(f"cannot read {what}: {exc.strerror}") from None
        if data is None:  # replaced meanwhile by something that is not a file
            raise Refused(f"the {what} changed while docgen read it; run docgen again")
    if not stat.S_ISREG(info.st_mode):
        kind = not_a_file(info.st_mode)
        raise Refused(f"the {what} is {kind}, not a file; docgen reads only regular files")
    if data is None or len(data) > limit:  # (None: over the limit before reading)
        size = max(info.st_size, len(data or b"")) / 1e6
        plural = f"{what[:-1]}ies" if what.endswith("y") else f"{what}s"
        message = f"the {what} is {size:.1f} MB; docgen reads {plural} up to {limit / 1e6:.0f} MB"
        raise Refused(message, 1, 1)
    return data


def _located(text: str, inside: Inside | None, what: str) -> tuple[str, os.stat_result]:
    """Where to read ``text`` (its real path within the root) and what lies there, or
    Refused."""
    try:
        real, info = lookup(text, inside)
    except OSError as exc:
        raise Refused(f"cannot read {what}: {exc.strerror}") from None
    if real is not None:
        return real, info
    if inside is not None and inside.in_git(text):
        raise Refused(f"the {what} leads into git's own folder (.git); docgen never reads it")
    if stat.S_ISLNK(info.st_mode):
        how = "is a symbolic link that leaves"
    elif os.path.abspath(text).startswith(inside.root + os.sep):  # type: ignore[union-attr]
        how = "lies in a linked folder that leaves"
    else:
        how = "lies outside"
    raise Refused(f"the {what} {how} the project root; docgen reads only files inside it")
