"""Writing project files: every change of one command staged first, then renamed into place,
so a killed build leaves every file old or new and a failed one changes nothing.

``apply`` writes each new text to a temporary file in docgen's staging folder
(``.docgen-cache/staging``, which git ignores; beside the target instead when that folder
is not usable or lies on another file system, so that every rename stays atomic) and
keeps a hard link to each file it will replace or delete. Only when everything is staged
does it rename the temporaries into place and delete stale files (a text a build staged
as it rendered it, see ``docgen.prestage``, is renamed from where it already is). A
failure at any step (a read-only folder, a full disk) undoes what was done and is one
located error naming the file and the reason; the next write sweeps what a killed one
left. Nothing is ever written through a symbolic link that leaves the project root.

Every file primitive here goes through this module's ``os`` (the interruption tests wrap
it to kill a build at each write point).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Collection, Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from docgen.config import Project
from docgen.io import files, interrupts, vetting
from docgen.io.staging import (
    OLD_SUFFIX,
    STAGING,
    TMP_SUFFIX,
    beside,
    drop_emptied,
    sweep_temporaries,
    taken,
)
from docgen.io.vetting import Write as Write
from docgen.io.vetting import failed as failed

__all__ = ["OLD_SUFFIX", "STAGING", "TMP_SUFFIX", "Write", "apply", "sweep_temporaries"]

_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


def apply(
    project: Project,
    todo: Sequence[Write],
    near: Iterable[str] = (),
    progress: Callable[[int], None] | None = None,
    tidy: Collection[str] = (),
) -> None:
    """Write or delete each of ``todo``, all or nothing, after sweeping what an
    interrupted write left (in the staging folder, and beside ``todo`` and ``near``).
    A folder that deleting a file of ``tidy`` leaves empty is removed too.

    Every text is checked to encode and every path to stay inside before the first write,
    so one that cannot refuses the whole lot; each is encoded as it is written. ``progress``
    hears how many are done after each rename or deletion.
    """
    staged = {w.staged for w in todo if w.staged is not None}
    sweep_temporaries(project, [*near, *(w.path for w in todo)], keep=staged)
    if not todo:
        return
    vetting.refuse_unencodable(todo)
    vetting.refuse_outside(project, todo)
    files.forget(project)
    Transaction(project, tidy=frozenset(tidy)).run(todo, progress)


def own_folder(project: Project) -> str | None:
    """docgen's own folder (``.docgen-cache``), made if missing with a ``.gitignore`` that
    ignores everything in it; None when it cannot be used: it or its ``.gitignore`` is a
    symbolic link or not what it should be (nothing is written through either)."""
    path = os.path.join(str(project.root), files.OWN_FOLDER)
    ignore = os.path.join(path, ".gitignore")
    made = False
    try:
        with suppress(FileExistsError):
            os.mkdir(path)
            made = True
        if not stat.S_ISDIR(os.lstat(path).st_mode):
            return None
        try:
            return path if stat.S_ISREG(os.lstat(ignore).st_mode) else None
        except FileNotFoundError:
            write_new(ignore, b"*\n", None)  # on failure, nothing is left there
    except OSError:
        if made:
            with suppress(OSError):
                os.rmdir(path)
        return None
    return path


def staging_folder(project: Project) -> tuple[str | None, bool]:
    """The staging folder, made if missing (None when it cannot be used), and whether
    docgen's own folder was made for it."""
    own = os.path.join(str(project.root), files.OWN_FOLDER)
    existed = os.path.lexists(own)
    if own_folder(project) is None:
        return None, False
    path = os.path.join(own, STAGING)
    try:
        with suppress(FileExistsError):
            os.mkdir(path)
        return (path if stat.S_ISDIR(os.lstat(path).st_mode) else None), not existed
    except OSError:
        return None, not existed


def drop_own_folder(project: Project) -> None:
    """Remove docgen's own folder (its ``.gitignore``, then the folder, if it is empty
    then), made by a command that failed."""
    own = os.path.join(str(project.root), files.OWN_FOLDER)
    with suppress(OSError):
        remove(os.path.join(own, ".gitignore"))
        os.rmdir(own)


def remove(path: str | Path) -> None:
    """Delete ``path`` (a link itself, not what it leads to); a missing one is fine."""
    with suppress(FileNotFoundError):
        os.unlink(path)


def write_atomic(path: str | Path, text: str | bytes | memoryview, new: bool = False) -> None:
    """Write through a temporary file in the same folder, then rename over ``path``.

    A killed build leaves every file old or new, never half written. A new file gets the
    mode a plain write would give it (the kernel applies the umask), a rewritten one keeps
    its own; ``new`` says the caller knows ``path`` does not exist yet. Files are not
    fsynced one by one (that costs seconds on thousands of files); a power cut can still
    lose the newest writes, as with most build tools. An OS failure is a WriteError at
    ``path``, with nothing changed.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    path = os.fspath(path)
    folder = os.path.dirname(path)
    tmp = beside(path, str(os.getpid()), TMP_SUFFIX)
    try:
        mode = None if new else mode_of(path)
        if not os.path.isdir(folder):
            os.makedirs(folder, exist_ok=True)
        write_new(tmp, data, mode)
        try:
            os.replace(tmp, path)
        except BaseException:
            remove(tmp)
            raise
    except OSError as exc:
        raise failed(path, "write", exc) from None


def write_new(tmp: str, data: bytes | memoryview, mode: int | None) -> None:
    """Create ``tmp`` (replacing one a killed write left) holding ``data``, with the
    permission bits ``mode`` when given; on failure nothing is left there."""
    try:
        fd = os.open(tmp, _CREATE, 0o666)
    except FileExistsError:  # left by a killed build that had this process id
        os.unlink(tmp)
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
    except BaseException:
        remove(tmp)
        raise


def mode_of(path: str) -> int | None:
    """The permission bits of the regular file at ``path`` (through a link), or None when
    there is none (nothing, a dangling link, a FIFO: the new file gets a new file's mode)."""
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else None


@dataclass
class _Step:
    """One write of a transaction: its target, and what is staged for it."""

    write: Write
    target: str
    existed: bool = False
    temporary: str | None = None  # the new text, staged
    backup: str | None = None  # a hard link to the file it replaces or deletes
    done: bool = False


@dataclass
class Transaction:
    """One all-or-nothing ``apply``: folders made, every text staged, then the renames and
    deletions; an OS failure undoes what was done and is a located WriteError."""

    project: Project
    made: list[str] = field(default_factory=list)  # folders made, parents first
    steps: list[_Step] = field(default_factory=list)
    staging: str | None = None
    own_made: bool = False
    current: tuple[str, str] = ("", "write")  # the path at hand and what is done to it
    devices: dict[str, bool] = field(default_factory=dict)
    tidy: frozenset[str] = frozenset()  # deleted files whose emptied folders go too

    def run(self, todo: Sequence[Write], progress: Callable[[int], None] | None) -> None:
        try:  # a Ctrl-C or SIGTERM stops it between two steps (see ``interrupts``)
            with interrupts.held() as between:
                self.make_folders(todo)
                self.staging, self.own_made = staging_folder(self.project)
                for write in todo:
                    between()
                    self.current = (write.path, "write" if write.text is not None else "delete")
                    self.steps.append(self.stage(taken(), write))
                self.commit(progress, between)
        except BaseException as exc:
            with interrupts.held():  # a second signal waits for the rollback
                whole = self.roll_back()
                self.discard(failed=True)
            if isinstance(exc, OSError):
                raise failed(*self.current, exc, not whole, str(self.project.root)) from None
            raise
        self.discard(failed=False)
        tidied = [
            s.target for s in self.steps if s.write.text is None and s.write.path in self.tidy
        ]
        drop_emptied(self.project, [os.path.dirname(target) for target in tidied])

    def make_folders(self, todo: Sequence[Write]) -> None:
        """Make each missing folder of a file to write, noting every level made."""
        root = str(self.project.root)
        for write in sorted(todo, key=lambda w: w.path):
            folder = os.path.dirname(os.path.join(root, write.path))
            if write.text is None or os.path.isdir(folder):
                continue
            self.current = (write.path, "write")
            missing, up = [], folder
            while not os.path.lexists(up):
                missing.append(up)
                up = os.path.dirname(up)
            os.makedirs(folder)
            self.made += reversed(missing)

    def stage(self, n: int, write: Write) -> _Step:
        """Stage the new text of ``write`` and keep a hard link to the file it replaces."""
        step = _Step(write, os.path.join(str(self.project.root), write.path))
        try:
            step.existed = not write.new and os.lstat(step.target) is not None
        except (FileNotFoundError, NotADirectoryError):
            step.existed = False
        if not step.existed and write.text is None:
            return step  # nothing there to delete
        if write.text is not None:
            mode = mode_of(step.target) if step.existed else None
            temporary = self.place(step.target, n, TMP_SUFFIX)
            if write.staged is not None:
                temporary = self.adopt(write.staged, temporary, mode)
            else:
                write_new(temporary, write.text.encode("utf-8"), mode)  # vetted: it encodes
            step.temporary = temporary
        if step.existed:
            backup = self.place(step.target, n, OLD_SUFFIX)
            with suppress(OSError):  # no hard links here: this one cannot be undone
                os.link(step.target, backup, follow_symlinks=False)
                step.backup = backup
        return step

    def adopt(self, staged: str, place: str, mode: int | None) -> str:
        """A text staged as it was rendered: renamed into place from where it is when
        ``place`` is in the staging folder too (one file system), else copied to ``place``."""
        if os.path.dirname(place) == self.staging:
            if mode is not None:
                os.chmod(staged, mode)
            return staged
        with open(staged, "rb") as handle:
            write_new(place, handle.read(), mode)
        remove(staged)
        return place

    def place(self, target: str, n: int, suffix: str) -> str:
        """Where to stage for ``target``: the staging folder when it shares the target
        folder's file system (a rename must not cross one), else beside the target."""
        folder = os.path.dirname(target)
        if self.staging is not None:
            if folder not in self.devices:
                here = os.stat(folder).st_dev
                self.devices[folder] = here == os.stat(self.staging).st_dev
            if self.devices[folder]:
                return os.path.join(self.staging, f"{os.getpid()}-{n}{suffix}")
        return beside(target, str(os.getpid()), suffix)

    def commit(self, progress: Callable[[int], None] | None, between: Callable[[], None]) -> None:
        """Rename every staged text into place and delete every stale file, in order,
        calling ``between`` before each."""
        for n, step in enumerate(self.steps, start=1):
            between()
            self.current = (step.write.path, "write" if step.temporary else "delete")
            if step.temporary is not None:
                os.replace(step.temporary, step.target)
                step.temporary = None
            elif step.existed:
                remove(step.target)
            step.done = True
            if progress is not None:
                progress(n)

    def roll_back(self) -> bool:
        """Put back what the renames and deletions done so far changed; whether all was."""
        whole = True
        for step in reversed(self.steps):
            try:
                if not step.done:
                    continue
                if step.backup is not None:
                    os.replace(step.backup, step.target)
                    step.backup = None
                elif step.existed:
                    whole = False  # replaced or deleted without a hard link to undo it
                elif step.write.text is not None:
                    remove(step.target)
            except OSError:
                whole = False
        return whole

    def discard(self, failed: bool) -> None:
        """Remove what is staged and the kept old files; after a failure, the folders made
        too (and docgen's own folder when this made it)."""
        for step in self.steps:
            for leftover in (step.temporary, step.backup):
                if leftover is not None:
                    remove(leftover)
        if failed:
            for folder in reversed(self.made):
                with suppress(OSError):
                    os.rmdir(folder)
        if self.staging is not None:
            with suppress(OSError):
                os.rmdir(self.staging)
            if failed and self.own_made:
                drop_own_folder(self.project)
