"""What each generated file held when the last build left it, known by its ``stat``, so a
later ``check`` or ``build`` need not read a file nobody has touched since (git's index
does the same for ``git status``).

A build records, for each output it found holding its text, the SHA-256 of that text
with the file's size, modification and status-change times (in ns), inode and device,
taken before the file was read (a file it writes is stamped by a later build, once read).
A comparison trusts an entry whose file still has that stat. Any write to a file moves its
status-change time, which no program can set back, so a hand edit is always seen, with
one exception that is read again instead: a file changed within the same clock tick as
its recorded times keeps them, so an entry whose times are not older than the stamps
file itself ("racy", as git calls it) is never trusted.

``.docgen-cache/stamps`` is sealed with this user's key like the cache, so a file that
arrives with a pull request is never trusted; docs CI, without the cache, reads every
file.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass

from docgen.config import Project
from docgen.errors import DocgenError
from docgen.io import files, user_cache, writes

#: A file's size, modification and status-change times (ns), inode and device.
Stat = tuple[int, ...]
NAME = "stamps"
HEADER = b"docgen-stamps-1\n"
#: The most entries read or written (a larger project just reads its files).
MAX_ENTRIES = 1_000_000


def of(info: os.stat_result) -> Stat:
    """The stat docgen compares of a file."""
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)


@dataclass(frozen=True)
class Stamps:
    """The recorded digest and stat of each output, and the time they were written."""

    entries: Mapping[str, tuple[str, Stat]]
    #: The stamps file's own modification time: an entry not older than it is racy.
    since: int

    def hold(self, path: str, digest: str, info: os.stat_result) -> bool:
        """Whether the file at ``path`` (now ``info``) still holds the text of ``digest``,
        known without reading it."""
        found = self.entries.get(path)
        if found is None or found[0] != digest or not stat.S_ISREG(info.st_mode):
            return False
        recorded = found[1]
        return recorded == of(info) and recorded[1] < self.since and recorded[2] < self.since


def load(project: Project) -> Stamps | None:
    """The stamps this user's last build recorded, or None (none, damaged or foreign)."""
    secret = user_cache.secret()
    if secret is None:
        return None
    path = project.root / files.OWN_FOLDER / NAME
    inside = files.Inside(project.root)
    try:
        since = os.lstat(path).st_mtime_ns
    except OSError:
        return None
    raw = files.read_quietly(path, inside, 200 * MAX_ENTRIES)
    entries = (
        None if raw is None else user_cache.unpickled(user_cache.unsealed(secret, raw, HEADER))
    )
    return Stamps(entries, since) if type(entries) is dict else None


def record(project: Project, held: Mapping[str, tuple[str, Stat]]) -> None:
    """Keep ``held`` (outputs found holding their text, each with its digest and the stat
    taken before it was read) as the only stamps; any failure just leaves none. A file a
    build writes is not stamped then: an edit between its write and the stamping would be
    taken for docgen's text. The next comparison reads it, and a build stamps it."""
    secret = user_cache.secret(create=True)
    folder = None if secret is None or len(held) > MAX_ENTRIES else writes.own_folder(project)
    if secret is None or folder is None:
        return
    with user_cache.sealed_pickle(secret, dict(held), HEADER) as sealed:
        try:
            writes.write_atomic(os.path.join(folder, NAME), sealed)
        except DocgenError:
            return
    _drop_left(folder)


def _drop_left(folder: str) -> None:
    """Remove what a killed build's write of the stamps left in docgen's own folder."""
    try:
        with os.scandir(folder) as listed:
            left = [e.path for e in listed if e.name.startswith(f".{NAME}.")]
    except OSError:
        return
    for path in left:
        if path.endswith(writes.TMP_SUFFIX):
            with suppress(OSError):
                writes.remove(path)
