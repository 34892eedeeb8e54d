"""A write that fails changes nothing: ``writes.apply`` stages every new text (in docgen's
staging folder, which git ignores), renames only when all is staged, and undoes what it
did when an OS call fails, with one located error naming the file and the reason.

Running as root, permissions cannot make a write fail: the OS calls of ``docgen.io.writes``
are made to fail instead, at a chosen call.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from docgen import config
from docgen.errors import WriteError
from docgen.io import writes
from docgen.io.writes import OLD_SUFFIX, STAGING, TMP_SUFFIX, Write

OWN = ".docgen-cache"


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

    class Failing:
        def __getattr__(self, attribute: str) -> Any:
            return getattr(os, attribute)

    def call(*args: Any, **kwargs: Any) -> Any:
        calls.append(os.fspath(args[0]) if not isinstance(args[0], int) else str(args[0]))
        if len(calls) == at:
            raise OSError(code, os.strerror(code))
        return real(*args, **kwargs)

    hooked = Failing()
    setattr(hooked, name, call)
    monkeypatch.setattr(writes, "os", hooked)
    return calls


@pytest.mark.parametrize(
    ("name", "at", "code", "path"),
    [
        ("makedirs", 2, errno.EROFS, "docs/new/deeper/b.mdx"),  # a folder cannot be made
        ("write", 3, errno.ENOSPC, "docs/changed.mdx"),  # the disk fills while staging
        ("replace", 3, errno.EPERM, "docs/new/deeper/b.mdx"),  # a rename is refused
        ("unlink", 1, errno.EPERM, "docs/stale.mdx"),  # a stale file cannot be deleted
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
    real_stat = os.stat

    def stat(path: Any, *args: Any, **kwargs: Any) -> Any:
        found = real_stat(path, *args, **kwargs)
        if os.fspath(path).endswith(STAGING):  # the staging folder: another device
            return os.stat_result((*found[:2], found.st_dev + 1, *found[3:]))
        return found

    created = failing(monkeypatch, "open", 0, 0)
    monkeypatch.setattr(writes.os, "stat", stat)
    writes.apply(project, TODO)
    staged = [Path(p) for p in created if p.endswith(TMP_SUFFIX)]
    assert [(p.parent.name, p.name[: -len(TMP_SUFFIX)].rsplit(".", 1)[0]) for p in staged] == [
        ("new", ".a.mdx"),
        ("docs", ".changed.mdx"),
        ("deeper", ".b.mdx"),
    ]
    assert (project.root / "docs/new/deeper/b.mdx").read_text("utf-8") == "new b\n"
    assert not [p for p in tree(project.root) if p.endswith((TMP_SUFFIX, OLD_SUFFIX))]


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
    hooked = types.SimpleNamespace(**{n: getattr(os, n) for n in dir(os) if not n.startswith("__")})
    hooked.replace = replace
    monkeypatch.setattr(writes, "os", hooked)
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
