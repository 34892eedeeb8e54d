"""A write that fails changes nothing: ``writes.apply`` stages every new text (in docgen's
staging folder, which git ignores), renames only when all is staged, and undoes what it
did when an OS call fails, with one located error naming the file and the reason.

Running as root, permissions cannot make a write fail: the OS calls of ``docgen.io.writes``
and of its sweep (``docgen.io.staging``) are made to fail instead, at a chosen call. A
Ctrl-C or SIGTERM while the files are renamed into place is held until the rename at hand
is noted, so the rollback undoes it too (the file renamed as the signal came was kept).
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import os_with, staging_on_another_device

from docgen import config
from docgen.errors import WriteError
from docgen.io import interrupts, staging, writes
from docgen.io.writes import OLD_SUFFIX, STAGING, TMP_SUFFIX, Write

OWN = ".docgen-cache"


@pytest.fixture(autouse=True)
def python_handles_ctrl_c() -> Any:
    """Ctrl-C as an interactive run has it: a job a shell starts in the background ignores
    SIGINT, and these tests send it (they failed in a CI run started so)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.fixture
def project(tmp_path: Path) -> config.Project:
    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    (root / "docs/changed.mdx").write_text("old changed\n", "utf-8")
    (root / "docs/stale.mdx").write_text("old stale\n", "utf-8")
    return config.Project(root.resolve(), config.Config())


TODO = [
    Write("docs/new/a.mdx", "new a\n", new=True),
    Write("docs/changed.mdx", "new changed\n"),
    Write("docs/stale.mdx", None),
    Write("docs/new/deeper/b.mdx", "new b\n", new=True),
]


def tree(root: Path) -> dict[str, bytes | None]:
    """Every file (by content) and folder (None) under ``root``."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes() if p.is_file() else None
        for p in sorted(root.rglob("*"))
    }


def failing(monkeypatch: pytest.MonkeyPatch, name: str, at: int, code: int) -> list[str]:
    """Make the ``at``-th call (from 1) of ``os.<name>`` in ``docgen.io.writes`` fail with
    ``code``; the list holds the first argument of each call."""
    real = getattr(os, name)
    calls: list[str] = []

    def call(*args: Any, **kwargs: Any) -> Any:
        calls.append(os.fspath(args[0]) if not isinstance(args[0], int) else str(args[0]))
        if len(calls) == at:
            raise OSError(code, os.strerror(code))
        return real(*args, **kwargs)

    _hook(monkeypatch, os_with(**{name: call}))
    return calls


def _hook(monkeypatch: pytest.MonkeyPatch, hooked: object) -> None:
    """Make the OS calls of ``writes`` and of ``staging`` (its sweep) go through ``hooked``."""
    for module in (writes, staging):
        monkeypatch.setattr(module, "os", hooked)


@pytest.mark.parametrize(
    ("name", "at", "code", "path"),
    [
        ("makedirs", 2, errno.EROFS, "docs/new/deeper/b.mdx"),  # a folder cannot be made
        ("write", 3, errno.ENOSPC, "docs/changed.mdx"),  # the disk fills while staging
        ("replace", 3, errno.EPERM, "docs/new/deeper/b.mdx"),  # a rename is refused
        ("unlink", 1, errno.EPERM, "docs/stale.mdx"),  # a stale file cannot be deleted
        ("lstat", 6, errno.EIO, "docs/stale.mdx"),  # a stale file cannot be looked at
    ],
)
def test_a_failed_write_changes_nothing_and_says_which_file_and_why(
    project, monkeypatch, name: str, at: int, code: int, path: str
) -> None:
    before = tree(project.root)
    calls = failing(monkeypatch, name, at, code)
    with pytest.raises(WriteError) as info:
        writes.apply(project, TODO)
    assert len(calls) >= at
    verb = "delete" if path == "docs/stale.mdx" else "write"
    assert str(info.value) == (
        f"{path}: error: cannot {verb} {path}: {os.strerror(code)}; no file was changed"
    )
    assert tree(project.root) == before  # no file, folder, temporary or kept file left


def test_without_hard_links_a_late_failure_says_what_was_kept(project, monkeypatch):
    def no_link(*_args: Any, **_kwargs: Any) -> None:
        raise OSError(errno.EPERM, "no hard links here")

    calls = failing(monkeypatch, "replace", 3, errno.EIO)
    monkeypatch.setattr(writes.os, "link", no_link)
    with pytest.raises(WriteError) as info:
        writes.apply(project, TODO)
    assert len(calls) == 3
    assert str(info.value).endswith("the files written before it were kept")
    left = tree(project.root)
    assert left["docs/changed.mdx"] == b"new changed\n"  # could not be undone
    assert "docs/new/a.mdx" not in left  # a new file can always be undone
    assert not [p for p in left if p.endswith((TMP_SUFFIX, OLD_SUFFIX))]


def test_new_texts_are_staged_where_git_does_not_see_them(project, monkeypatch):
    created = failing(monkeypatch, "open", 0, 0)  # never fails: records each file opened
    writes.apply(project, TODO)
    staged = [p for p in created if f"/{OWN}/{STAGING}/" in p]
    assert len(staged) == 3 and all(p.endswith(TMP_SUFFIX) for p in staged)
    assert set(created) - set(staged) == {str(project.root / OWN / ".gitignore")}
    assert tree(project.root) == {
        ".docgen-cache": None,
        ".docgen-cache/.gitignore": b"*\n",
        "docs": None,
        "docs/changed.mdx": b"new changed\n",
        "docs/new": None,
        "docs/new/a.mdx": b"new a\n",
        "docs/new/deeper": None,
        "docs/new/deeper/b.mdx": b"new b\n",
    }


def test_a_killed_writes_leftovers_are_ignored_by_git_and_swept_by_the_next(project):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q"], cwd=project.root, check=True)
    writes.apply(project, [Write("docs/a.mdx", "a\n")])
    staging = project.root / OWN / STAGING
    staging.mkdir()
    (staging / f"123-1{TMP_SUFFIX}").write_text("half", "utf-8")  # as a SIGKILL leaves them
    (staging / f"123-2{OLD_SUFFIX}").write_text("old", "utf-8")
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=project.root,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "?? docs/a.mdx" in status.stdout.splitlines()
    assert OWN not in status.stdout  # docgen's own folder ignores itself
    writes.apply(project, [Write("docs/b.mdx", "b\n")])
    assert not staging.exists()


def test_staging_falls_back_beside_the_target_on_another_file_system(project, monkeypatch):
    created = failing(monkeypatch, "open", 0, 0)
    staging_on_another_device(monkeypatch)
    writes.apply(project, TODO)
    staged = [Path(p) for p in created if p.endswith(TMP_SUFFIX)]
    assert [(p.parent.name, p.name[: -len(TMP_SUFFIX)].rsplit(".", 1)[0]) for p in staged] == [
        ("new", ".a.mdx"),
        ("docs", ".changed.mdx"),
        ("deeper", ".b.mdx"),
    ]
    assert (project.root / "docs/new/deeper/b.mdx").read_text("utf-8") == "new b\n"
    assert not [p for p in tree(project.root) if p.endswith((TMP_SUFFIX, OLD_SUFFIX))]


def test_a_name_too_long_for_the_affixes_is_staged_beside_under_its_digest(project, monkeypatch):
    """A file name of 244 bytes is legal, but with ``.`` and ``.PID.docgen-tmp`` around it
    no longer: staged beside the target, it gets a short name the sweep still finds."""
    created = failing(monkeypatch, "open", 0, 0)
    staging_on_another_device(monkeypatch)
    name = "é" * 120 + ".mdx"  # 244 bytes in UTF-8
    (project.root / "docs" / name).write_text("old\n", "utf-8")
    writes.apply(project, [Write(f"docs/{name}", "new\n"), Write(f"docs/new-{name}", "b\n")])
    assert (project.root / "docs" / name).read_text("utf-8") == "new\n"
    assert (project.root / "docs" / f"new-{name}").read_text("utf-8") == "b\n"
    staged = {Path(p).name for p in created if p.endswith(TMP_SUFFIX)}
    assert len(staged) == 2 and all(len(os.fsencode(n)) <= 255 for n in staged)
    assert all(n.startswith(".") for n in staged)
    assert not [p for p in tree(project.root) if p.endswith((TMP_SUFFIX, OLD_SUFFIX))]
    left = staging.beside(str(project.root / "docs" / name), "99", OLD_SUFFIX)
    Path(left).write_text("killed\n", "utf-8")
    writes.apply(project, [Write(f"docs/{name}", "newer\n")])
    assert not os.path.lexists(left)


def test_a_build_that_cannot_write_exits_2_with_one_located_line(
    make_project: Callable[..., Any], run: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = make_project()
    assert run(project, "build").exit_code == 0
    project.edit("profiles.yaml", "max-num-seqs: 2", "max-num-seqs: 3")
    before = project.snapshot()
    failing(monkeypatch, "replace", 2, errno.ENOSPC)
    result = run(project, "build")
    assert result.exit_code == 2
    assert result.stderr.endswith(": No space left on device; no file was changed\n")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert result.stderr.split(": error: cannot write ")[0].startswith("docs/")
    assert project.snapshot() == before


def test_a_roll_back_that_fails_too_says_what_was_kept(project, monkeypatch):
    """The 3rd rename fails, and so does the 4th: putting the stale page back."""
    real = os.replace
    calls: list[str] = []

    def replace(source: Any, target: Any) -> None:
        calls.append(os.fspath(target))
        if len(calls) in (3, 4):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real(source, target)

    before = tree(project.root)
    monkeypatch.setattr(writes, "os", os_with(replace=replace))
    with pytest.raises(WriteError) as info:
        writes.apply(project, TODO)
    assert [Path(c).relative_to(project.root).as_posix() for c in calls[2:]] == [
        "docs/new/deeper/b.mdx",
        "docs/stale.mdx",
        "docs/changed.mdx",
    ]
    assert str(info.value) == (
        f"docs/new/deeper/b.mdx: error: cannot write docs/new/deeper/b.mdx: "
        f"{os.strerror(errno.EIO)}; the files written before it were kept"
    )
    left = tree(project.root)
    assert "docs/stale.mdx" not in left  # could not be put back
    assert left["docs/changed.mdx"] == before["docs/changed.mdx"]  # was put back


def test_an_os_error_without_a_reason_is_shown_as_python_words_it():
    error = writes.failed("docs/a.mdx", "write", OSError("the disk is on fire"))
    assert str(error) == (
        "docs/a.mdx: error: cannot write docs/a.mdx: the disk is on fire; no file was changed"
    )


@pytest.mark.parametrize("mode", [0o640, 0o755], ids=["0o640", "0o755"])
def test_a_rewritten_generated_file_keeps_its_permission_bits(
    make_project: Callable[..., Any], run: Callable[..., Any], mode: int
) -> None:
    project = make_project()
    assert run(project, "build").exit_code == 0
    page = project.root / "docs/models.mdx"
    page.chmod(mode)
    project.edit("profiles.yaml", "max-num-seqs: 2", "max-num-seqs: 3")
    assert run(project, "build").exit_code == 0
    assert "--max-num-seqs 3" in page.read_text("utf-8")
    assert page.stat().st_mode & 0o7777 == mode


def test_a_page_written_where_a_fifo_stood_gets_a_new_files_mode_not_the_fifos(
    make_project: Callable[..., Any], run: Callable[..., Any]
) -> None:
    umask = os.umask(0o022)
    try:
        project = make_project()
        assert run(project, "build").exit_code == 0
        page = project.root / "docs/models.mdx"
        text = page.read_text("utf-8")
        page.unlink()
        os.mkfifo(page, 0o600)
        result = run(project, "build")
    finally:
        os.umask(umask)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.startswith("write docs/models.mdx\n1 written, 0 updated")
    assert page.read_text("utf-8") == text
    assert page.stat().st_mode & 0o7777 == 0o644


def test_an_atomic_write_onto_a_folder_fails_with_the_os_reason_and_leaves_nothing(tmp_path):
    target = tmp_path / "docs" / "page.mdx"
    target.mkdir(parents=True)
    with pytest.raises(WriteError) as info:
        writes.write_atomic(target, "new\n")
    assert str(info.value) == (
        f"{target}: error: cannot write {target}: {os.strerror(errno.EISDIR)}; no file was changed"
    )
    assert [p.name for p in target.parent.iterdir()] == ["page.mdx"]
    assert list(target.iterdir()) == []


def test_an_own_folder_that_cannot_be_searched_is_not_swept_and_staging_moves_beside(
    project, monkeypatch
):
    """As for a user who may not search ``.docgen-cache`` (mode 0o600): every look below it
    fails with EACCES (the hook plays the kernel's part, which would not stop root)."""
    own = project.root / OWN
    (own / STAGING).mkdir(parents=True)
    (own / ".gitignore").write_text("*\n", "utf-8")
    left = own / STAGING / f"1-1{TMP_SUFFIX}"
    left.write_text("left by a killed build", "utf-8")
    below = f"{own}{os.sep}"

    class Unsearchable:
        def __getattr__(self, attribute: str) -> Any:
            real = getattr(os, attribute)
            if attribute not in ("lstat", "stat", "scandir", "mkdir", "open", "unlink"):
                return real

            def call(*args: Any, **kwargs: Any) -> Any:
                if isinstance(args[0], (str, Path)) and os.fspath(args[0]).startswith(below):
                    raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), args[0])
                return real(*args, **kwargs)

            return call

    _hook(monkeypatch, Unsearchable())
    writes.apply(project, TODO)
    monkeypatch.undo()
    assert tree(project.root) == {
        OWN: None,
        f"{OWN}/.gitignore": b"*\n",
        f"{OWN}/{STAGING}": None,
        f"{OWN}/{STAGING}/1-1{TMP_SUFFIX}": b"left by a killed build",
        "docs": None,
        "docs/changed.mdx": b"new changed\n",
        "docs/new": None,
        "docs/new/a.mdx": b"new a\n",
        "docs/new/deeper": None,
        "docs/new/deeper/b.mdx": b"new b\n",
    }


def _dangling_link(path: Path) -> Callable[[], bool]:
    os.symlink("nowhere.mdx", path)
    return lambda: path.is_symlink() and os.readlink(path) == "nowhere.mdx"


def _fifo(path: Path) -> Callable[[], bool]:
    os.mkfifo(path, 0o600)
    return lambda: path.is_fifo() and path.stat().st_mode & 0o7777 == 0o600


@pytest.mark.parametrize("place", [_dangling_link, _fifo], ids=["dangling-link", "fifo"])
def test_a_failed_build_puts_back_what_stood_where_a_new_page_goes(
    make_project: Callable[..., Any],
    run: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    place: Callable[[Path], Callable[[], bool]],
) -> None:
    """A page whose path holds a dangling link or a FIFO reads as missing, yet something
    is there: when a later write of the same build fails, it comes back, as every other
    file does ("no file was changed")."""
    project = make_project(templates={"a.mdx.j2": "# A\n", "b.mdx.j2": "# B\n"})
    assert run(project, "build").exit_code == 0
    stood, other = project.root / "docs/a.mdx", project.root / "docs/b.mdx"
    stood.unlink()
    is_back = place(stood)
    other.unlink()
    failing(monkeypatch, "replace", 2, errno.EIO)
    result = run(project, "build")
    assert result.exit_code == 2
    assert "cannot write docs/b.mdx: Input/output error; no file was changed" in result.stderr
    assert is_back()
    assert not other.exists()


def test_a_leftover_that_cannot_be_removed_is_left_and_the_sweep_goes_on(project, monkeypatch):
    """Sweeping what an interrupted write left is tidying: a leftover this user may not
    remove stays where it is, the next one is still removed, and nothing is raised."""
    docs = project.root / "docs"
    first, second = docs / f".a.mdx.1{TMP_SUFFIX}", docs / f".b.mdx.1{OLD_SUFFIX}"
    first.write_text("left\n", "utf-8")
    second.write_text("left\n", "utf-8")
    calls = failing(monkeypatch, "unlink", 1, errno.EACCES)
    writes.sweep_temporaries(project, ["docs/changed.mdx"])
    assert sorted(calls) == sorted([str(first), str(second)])
    refused, removed = Path(calls[0]), Path(calls[1])
    assert refused.read_text("utf-8") == "left\n"
    assert not removed.exists()


def test_an_own_folder_linked_to_a_folder_of_the_project_is_not_swept(project):
    """``.docgen-cache`` linked to ``notes`` (inside the root, so not refused as leaving
    it): ``notes/staging`` is a person's folder, not docgen's staging folder, and a write
    deletes nothing there; its texts are staged beside their targets instead."""
    (project.root / "notes/staging").mkdir(parents=True)
    (project.root / "notes/staging/mine.txt").write_text("my notes\n", "utf-8")
    (project.root / OWN).symlink_to("notes", target_is_directory=True)
    writes.apply(project, [Write("docs/changed.mdx", "new changed\n")])
    assert (project.root / "docs/changed.mdx").read_text("utf-8") == "new changed\n"
    assert tree(project.root / "notes") == {
        "staging": None,
        "staging/mine.txt": b"my notes\n",
    }


def test_a_text_that_cannot_be_utf8_refuses_the_lot_before_any_write(project):
    """A lone surrogate anywhere in any text: one located error, and no file touched; any
    other text, ASCII or not, is written as UTF-8."""
    from docgen.errors import OwnershipError

    before = tree(project.root)
    todo = [*TODO, Write("docs/late.mdx", "fine \u00e9\u4e2d\U0001f642 then \udc80 here\n")]
    with pytest.raises(OwnershipError) as caught:
        writes.apply(project, todo)
    assert str(caught.value.problems[0]) == (
        "docs/late.mdx:1:1: error: cannot write docs/late.mdx: surrogates not allowed"
    )
    assert tree(project.root) == before
    writes.apply(project, [Write("docs/late.mdx", "fine \u00e9\u4e2d\U0001f642\n")])
    assert (project.root / "docs/late.mdx").read_bytes() == "fine \u00e9\u4e2d\U0001f642\n".encode()


def test_a_file_where_a_folder_is_needed_is_named(project) -> None:
    (project.root / "docs/new").write_text("a file, not a folder\n", "utf-8")
    before = tree(project.root)
    with pytest.raises(WriteError) as info:
        writes.apply(project, TODO)
    assert str(info.value) == (
        "docs/new/a.mdx: error: cannot write docs/new/a.mdx: docs/new is not a folder, and "
        "the path needs one there; no file was changed"
    )
    assert tree(project.root) == before


# -- interrupted while renaming: the tree is left as it was -------------------------------


class _Terminated(KeyboardInterrupt):
    """What the ``docgen`` command's SIGTERM handler raises."""


def _raise_terminated(_number: int, _frame: Any) -> None:
    raise _Terminated


@pytest.mark.parametrize(
    ("number", "raised"), [(signal.SIGINT, KeyboardInterrupt), (signal.SIGTERM, _Terminated)]
)
@pytest.mark.parametrize("at", [1, 2, 3])
def test_a_signal_right_after_a_rename_undoes_every_rename(
    project, monkeypatch, number: int, raised: type[BaseException], at: int
) -> None:
    """The signal arrives as the ``at``-th rename returns, as one that came during the
    system call does: Python runs its handler at once, before the rename is noted."""
    if number == signal.SIGTERM:
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    real = os.replace
    renames: list[str] = []

    def replace(source: Any, target: Any) -> None:
        real(source, target)
        renames.append(os.fspath(target))
        if len(renames) == at:
            os.kill(os.getpid(), number)

    _hook(monkeypatch, os_with(replace=replace))
    before = tree(project.root)
    try:
        with pytest.raises(raised):
            writes.apply(project, TODO)
    finally:
        if number == signal.SIGTERM:
            signal.signal(signal.SIGTERM, previous)
    assert tree(project.root) == before  # the file renamed as the signal came is undone too
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_signal_with_its_default_action_is_not_held():
    """Held, SIGTERM with no handler of Python's would be lost: it is left as it is."""
    previous = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        with interrupts.held():
            assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
            assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_a_signal_after_the_last_step_or_beside_an_error_is_delivered_as_the_block_ends():
    with pytest.raises(KeyboardInterrupt), interrupts.held() as between:
        between()
        os.kill(os.getpid(), signal.SIGINT)  # after the last call: held, not lost
    with pytest.raises(KeyboardInterrupt), interrupts.held():
        os.kill(os.getpid(), signal.SIGINT)
        raise OSError("a rename failed")  # the Ctrl-C still ends the run as Ctrl-C does
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_handler_that_returns_leaves_the_signals_held_for_the_steps_left():
    """A host's handler that only sets a flag (the reviewer's KeyError: the second call
    found the handlers gone)."""
    heard: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, _frame: heard.append(number))
    try:
        with interrupts.held() as between:
            for _ in range(2):
                os.kill(os.getpid(), signal.SIGINT)
                between()
                assert signal.getsignal(signal.SIGINT) is not previous  # still held
        assert heard == [signal.SIGINT, signal.SIGINT]
    finally:
        signal.signal(signal.SIGINT, previous)


def test_signals_held_during_a_write_are_delivered_in_the_order_they_arrived():
    """A CI cancel's SIGTERM then a Ctrl-C: their handlers run as the signals came, the
    first first, whether between two steps or as the block ends."""
    heard: list[int] = []
    previous = {
        number: signal.signal(number, lambda number, _frame: heard.append(number))
        for number in (signal.SIGTERM, signal.SIGINT)
    }
    try:
        with interrupts.held() as between:
            os.kill(os.getpid(), signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGINT)
            assert heard == []  # held until the step is done
            between()
            assert heard == [signal.SIGTERM, signal.SIGINT]
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGTERM)
        assert heard == [signal.SIGTERM, signal.SIGINT, signal.SIGINT, signal.SIGTERM]
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def test_a_second_signal_waits_for_the_rollback(project, monkeypatch) -> None:
    """A CI cancel sends SIGINT and then SIGTERM: the second came during the rollback and
    cut it short, leaving a renamed file and the staging folder."""
    calls: list[str] = []
    real_replace, real_unlink = os.replace, os.unlink

    def replace(source: Any, target: Any) -> None:
        real_replace(source, target)
        step(os.fspath(target))

    def unlink(path: Any, **kwargs: Any) -> None:
        real_unlink(path, **kwargs)
        step(os.fspath(path))

    def step(path: str) -> None:
        calls.append(path)
        if len(calls) in (3, 4):  # the third rename, then the rollback's first step
            os.kill(os.getpid(), signal.SIGINT)

    _hook(monkeypatch, os_with(replace=replace, unlink=unlink))
    before = tree(project.root)
    with pytest.raises(KeyboardInterrupt):
        writes.apply(project, TODO)
    assert len(calls) > 4
    assert tree(project.root) == before


def test_sigterm_ends_the_docgen_command_as_ctrl_c_does_with_exit_code_143(tmp_path: Path):
    """``diff --since-file -`` waits for its standard input: SIGTERM ends it with 143
    and no traceback (it ended the process at once, before: a build's staged files and
    renames stayed as they were)."""
    (tmp_path / "profiles.yaml").write_text("schema: 1\n", "utf-8")
    command = [sys.executable, "-m", "docgen", "--root", str(tmp_path), "diff", "--since-file", "-"]
    waiting = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    status = Path(f"/proc/{waiting.pid}/status")
    if not status.exists():
        waiting.kill()
        pytest.skip("no /proc to tell when the handler is set")
    deadline = time.monotonic() + 60
    while not _catches(status, signal.SIGTERM) and time.monotonic() < deadline:
        time.sleep(0.02)  # the handler is set first thing: from then on, 143
    waiting.send_signal(signal.SIGTERM)
    out, err = waiting.communicate(timeout=60)
    assert (waiting.returncode, out, err.strip()) == (143, b"", b"")


def _catches(status: Path, number: int) -> bool:
    """Whether the process of this ``/proc/<pid>/status`` has a handler for ``number``."""
    for line in status.read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) & (1 << (number - 1)))
    return False


@pytest.mark.parametrize(
    ("name", "swept"),
    [
        (".page.mdx.1234.docgen-tmp", True),
        (".page.mdx.1234-5.docgen-tmp", True),  # an older docgen's name: a pid and a number
        (f".{'a' * 64}.77.docgen-old", True),  # a long name's digest
        (".notes.2024.docgen-old", False),  # a person's: no suffix before the number
        (".page.mdx.x1.docgen-tmp", False),
    ],
)
def test_which_names_the_sweep_takes_for_docgens_leftovers(name, swept):
    assert staging.leftover(name) is swept
