"""The older registry state a diff starts from: as committed at a git revision, in a file
the user names, on standard input or through a pipe (``--since``, ``--since-file``), or
the last commit that differs from the working file (what ``check`` blames drift on).
History need not pass today's rules: it is built as the schema shapes it when they refuse
it."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

from docgen.changelog import git
from docgen.config import Project
from docgen.errors import DocgenError, Location, RegistryError
from docgen.io import files
from docgen.registry.load import load_bytes, unchecked
from docgen.registry.model import Registry


def registry_at(project: Project, ref: str, option: str = git.SINCE) -> Registry:
    """The registry as committed at git revision ``ref`` (named by the command-line
    ``option``, which a git failure is reported against)."""
    raw, name = git.registry_bytes_at(project, ref, option)
    return _history(raw, name)


def registry_file(project: Project, path: str) -> Registry:
    """The registry in the file ``path`` (project-relative, or absolute): a file the user
    named, so it may lie anywhere, but it is read as the registry is (a regular file of at
    most ``MAX_BYTES``; never a FIFO or a device, but for standard input, ``-``, and a pipe
    outside the project, as a process substitution gives). A name inside the project is
    read only inside it: a link there that leads out (untrusted, as the tree is) is
    refused."""
    if path == "-":  # standard input: ``git show REV:profiles.yaml | docgen diff ...``
        if sys.stdin is None:  # started with it closed (``<&-``)
            raise RegistryError.at(Location("--since-file"), "there is no standard input to read")
        return _history(_streamed(sys.stdin.buffer, STDIN), STDIN)
    target = Path(os.path.normpath(project.root / path))  # an absolute path stays itself
    within = target.is_relative_to(project.root)
    beyond = not Path(os.path.realpath(target)).is_relative_to(project.root)
    if beyond and _a_pipe(target):  # a process substitution: <(git show REV:profiles.yaml)
        with _opened_pipe(target) as pipe:
            return _history(_streamed(pipe, path), path)
    inside = files.Inside(project.root) if within else None
    # Named as every file of the project is, from its root (from docs/, ../old.yaml too).
    shown = target.relative_to(project.root).as_posix() if within else path
    raw = files.read_input_bytes(target, inside, "registry", display=shown)
    return _history(raw, shown)


#: How the older registry read from standard input is named in locations.
STDIN = "<stdin>"


def _streamed(stream: BinaryIO, name: str) -> bytes:
    """What a pipe holds, up to ``MAX_BYTES`` (more is a located error)."""
    raw = stream.read(files.MAX_BYTES + 1)
    if len(raw) > files.MAX_BYTES:
        raise RegistryError.at(Location(name), f"the registry is over {files.MAX_BYTES} bytes")
    return raw


def _opened_pipe(path: Path) -> BinaryIO:
    """The pipe at ``path``, opened without waiting for a writer (a FIFO nothing writes
    to reads as empty at once), then read as standard input is: until its writers close
    it (one that never does keeps the command waiting, as a terminal's input would)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def _a_pipe(path: Path) -> bool:
    """Whether ``path`` (outside the project: named on the command line) is a pipe, as a
    shell's process substitution gives (``/dev/fd/63``)."""
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        return False


def _history(raw: bytes, name: str) -> Registry:
    """An older state of the registry: checked, without vLLM's start-time rules; else, as
    history need not pass today's rules (an upgrade's catalog may no longer know a flag it
    set), its model as the schema shapes it; else the checks' located errors."""
    try:
        return load_bytes(raw, name, start_rules=False)
    except RegistryError:
        older = unchecked(raw, name)
        if older is None:
            raise
        return older


def since_commit(
    project: Project, working: Registry | None, revisions: Sequence[str] = ("HEAD",)
) -> tuple[Registry, Registry] | None:
    """The registry as committed at the first of ``revisions`` where it differs from the
    working file (the last commit, then e.g. the base a pull request is checked against,
    whose docs its checkout still holds), and the working one; the committed one is built
    without its checks (it is history: it need not pass today's rules). The working one
    is ``working`` when given, else also built without them: a caller that computes this
    beside the load that checks it (``check``, in a forked copy) is stopped there by a
    registry the rules refuse.

    None outside a git repository, when either registry is missing or cannot be built,
    or when the working file is the same at every revision: nothing changed since."""
    now = files.read_quietly(project.registry_path, files.Inside(project.root), files.MAX_BYTES)
    if now is None:
        return None
    for revision in revisions:
        try:
            raw, name = git.registry_bytes_at(project, revision)
        except DocgenError:
            continue
        if raw != now:
            break
    else:
        return None
    old = unchecked(raw, name)
    new = working if working is not None else unchecked(now, project.config.registry)
    return None if old is None or new is None else (old, new)
