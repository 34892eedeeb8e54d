"""docgen's staging folder (``.docgen-cache/staging``): the names of the files staged there,
the sweep of what an interrupted write left, there and beside its targets, and of the
folders a write's pruning left empty.

A write stages each new text there before it renames any into place (see ``writes``); a
build stages each page's text there as soon as it is rendered (see ``docgen.prestage``).
The sweep only deletes, through this module's ``os``.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import stat
from collections.abc import Collection, Iterable
from contextlib import suppress

from docgen.config import FOLDER_FIELDS, Project
from docgen.io import files

TMP_SUFFIX = ".docgen-tmp"
#: A hard link to a file being replaced or deleted, kept until the whole write is done.
OLD_SUFFIX = ".docgen-old"
#: The folder under docgen's own folder where new files are staged.
STAGING = "staging"
#: The longest file name, in bytes, the common file systems allow.
_NAME_MAX = 255
#: Numbers the files this process stages (``PID-N``), so no two of them share a name.
_NUMBERS = itertools.count(1)


def taken() -> int:
    """A number no other file this process staged has."""
    return next(_NUMBERS)


def beside(target: str, tag: str, suffix: str) -> str:
    """A hidden temporary's path in ``target``'s folder (``.NAME.TAG.docgen-tmp``) that
    the sweep finds; for a name too long to take the affixes within the 255 bytes a file
    name may have, the name's digest stands in for it."""
    folder, name = os.path.split(target)
    hidden = f".{name}.{tag}{suffix}"
    if len(os.fsencode(hidden)) > _NAME_MAX:
        digest = hashlib.sha256(os.fsencode(name)).hexdigest()
        hidden = f".{digest}.{tag}{suffix}"
    return os.path.join(folder, hidden)


def sweep_temporaries(project: Project, paths: Iterable[str], keep: Collection[str] = ()) -> None:
    """Remove what an interrupted write left: the staging folder's files (but ``keep``,
    staged by this build), and the temporaries and kept old files beside ``paths``; never
    in a folder that leads outside the root, nor through a linked own or staging folder."""
    root = str(project.root)
    inside = files.Inside(root)
    own = os.path.join(root, files.OWN_FOLDER)
    staging = os.path.join(own, STAGING)
    folders = {os.path.dirname(os.path.join(root, p)) for p in paths}
    for folder in sorted(folders | {staging}):
        try:
            if folder == staging and not (_plain_folder(own) and _plain_folder(staging)):
                continue
            if inside.real(folder, os.path.islink(folder)) is None:
                continue
            entries = list(os.scandir(folder))
        except (FileNotFoundError, NotADirectoryError):
            continue
        for entry in entries:
            if (folder == staging and entry.path not in keep) or leftover(entry.name):
                with suppress(FileNotFoundError, IsADirectoryError, PermissionError):
                    os.unlink(entry.path)


def leftover(name: str) -> bool:
    """Whether a file ``name`` is what an interrupted write left beside its target: a
    temporary or a kept old file, named as ``beside`` names them (``.NAME.PID`` and
    docgen's suffix; ``.draft.docgen-tmp``, a person's, is theirs)."""
    return _LEFTOVER.fullmatch(name) is not None


#: The names ``beside`` gives (a process id, or one with a number, as older docgens did)
#: to a file docgen writes: a name with a suffix, or the digest standing in for a long one
#: (``.notes.2024.docgen-old`` is a person's).
_LEFTOVER = re.compile(
    r"\.(?:.+\.[A-Za-z0-9]+|[0-9a-f]{64})\.[0-9]+(?:-[0-9]+)?\.docgen-(?:tmp|old)", re.DOTALL
)


def _plain_folder(path: str) -> bool:
    """Whether ``path`` is a folder itself, not a symbolic link to one."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def drop_emptied(project: Project, folders: Iterable[str]) -> None:
    """Remove each of ``folders`` (where a write deleted a stale file) that is now empty,
    and its parents that are then empty, deepest first. Never the root, a folder a setting
    names (docs, templates, changelog, variants, notes, the export's) or one above such a
    folder; a folder that still holds anything, or that is a link, stays."""
    root = str(project.root)
    cfg = project.config
    keep = {root}
    for folder in [*(getattr(cfg, key) for key in FOLDER_FIELDS), os.path.dirname(cfg.export)]:
        path = os.path.normpath(os.path.join(root, folder))
        while path.startswith(root + os.sep) and path not in keep:
            keep.add(path)
            path = os.path.dirname(path)
    for folder in sorted(set(folders), key=len, reverse=True):
        while folder not in keep and folder.startswith(root + os.sep):
            try:
                os.rmdir(folder)
            except OSError:  # not empty, a link, or not ours to remove
                break
            folder = os.path.dirname(folder)
