"""The build lock: one exclusive lock on the project root, so two builds never interleave
writes, and a shared one that keeps builds out while a check reads the tree."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from docgen.config import Project
from docgen.errors import ConfigError, Location


@contextmanager
def build_lock(
    project: Project,
    wait: float = 120.0,
    notify: Callable[[str], None] | None = None,
    shared: bool = False,
) -> Iterator[None]:
    """Hold an exclusive lock on the project root so two builds never interleave writes,
    or, ``shared``, one that only keeps builds out (a check: it found a page a running
    build was pruning gone, and called it an input to fix).

    A second build (or a check) waits (saying so once) and then plans against the first
    one's result; after ``wait`` seconds it stops with a clear error instead.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        yield
        return
    fd = os.open(project.root, os.O_RDONLY)
    try:
        _acquire(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX, fcntl, wait, notify)
        yield
    finally:
        os.close(fd)


def _acquire(
    fd: int, kind: int, fcntl: Any, wait: float, notify: Callable[[str], None] | None
) -> None:
    """Take the lock of ``kind``, waiting up to ``wait`` seconds; a file system that keeps
    no locks (ENOLCK on some network mounts) gives none, as a system without them does."""
    deadline = time.monotonic() + wait
    # A check (shared) waits only for what writes (a build, a changelog); those wait for any.
    holder = "build or changelog" if kind == fcntl.LOCK_SH else "build, changelog or check"
    told = False
    while True:
        try:
            fcntl.flock(fd, kind | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if not told and notify is not None:
                notify(f"docgen: another docgen {holder} is running in this project; waiting")
                told = True
            if time.monotonic() > deadline:
                raise ConfigError.at(
                    Location("docgen"),
                    f"another docgen {holder} kept this project locked for {wait:.0f} s; try again",
                ) from None
            time.sleep(0.05)
        except OSError:
            return
