"""Edges of ``docgen.io.writes`` a failed or interrupted write must get right: what a
roll-back puts back (a symbolic link as a link), the folders it removes (every level it
made), and a killed write's temporary that is longer than the new text."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import os_with

from docgen import config
from docgen.errors import WriteError
from docgen.io import writes
from docgen.io.writes import TMP_SUFFIX, Write


@pytest.fixture
def project(tmp_path: Path) -> config.Project:
    root = tmp_path / "proj"
    root.mkdir()
    return config.Project(root.resolve(), config.Config())


def refuse_renames_onto(monkeypatch: pytest.MonkeyPatch, target: Path) -> None:
    """Make every ``os.replace`` of ``docgen.io.writes`` onto ``target`` fail (EIO), and its
    ``os.link`` follow a symbolic link when told to, as documented (CPython before 3.14
    calls link(2) there, which on Linux never follows one: the same test on every platform)."""
    real_replace, real_link = os.replace, os.link

    def replace(source: Any, dest: Any) -> None:
        if os.fspath(dest) == str(target):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real_replace(source, dest)

    def link(source: Any, dest: Any, *, follow_symlinks: bool = True) -> None:
        followed = os.path.realpath(source) if follow_symlinks else source
        real_link(followed, dest, follow_symlinks=False)

    monkeypatch.setattr(writes, "os", os_with(replace=replace, link=link))


def test_a_rolled_back_deletion_puts_a_symbolic_link_back_as_a_link(project, monkeypatch):
    """The deletion keeps a hard link to the link itself, not to what it leads to: the
    roll-back after a later rename fails must not leave a copy of the page there."""
    docs = project.root / "docs"
    docs.mkdir()
    (docs / "page.mdx").write_text("page\n", "utf-8")
    (docs / "alias.mdx").symlink_to("page.mdx")
    refuse_renames_onto(monkeypatch, docs / "b.mdx")
    todo = [Write("docs/alias.mdx", None), Write("docs/b.mdx", "b\n", new=True)]
    with pytest.raises(WriteError, match="cannot write docs/b.mdx"):
        writes.apply(project, todo)
    assert os.path.islink(docs / "alias.mdx")
    assert os.readlink(docs / "alias.mdx") == "page.mdx"
    assert sorted(p.name for p in docs.iterdir()) == ["alias.mdx", "page.mdx"]


def test_a_failed_write_removes_every_folder_it_made_deepest_first(project, monkeypatch):
    """``docs/x/y`` is made for ``docs/x/y/z.mdx``: after the rename fails both go, the
    deeper first (``docs/x`` cannot be removed while ``docs/x/y`` is in it)."""
    (project.root / "docs").mkdir()
    refuse_renames_onto(monkeypatch, project.root / "docs/x/y/z.mdx")
    with pytest.raises(WriteError, match="cannot write docs/x/y/z.mdx"):
        writes.apply(project, [Write("docs/x/y/z.mdx", "z\n", new=True)])
    assert not (project.root / "docs/x").exists()
    assert [p.name for p in project.root.iterdir()] == ["docs"]


def test_a_longer_temporary_a_killed_write_left_is_not_written_over_in_place(tmp_path):
    """The temporary is created anew: the text written is the whole file, with no tail of
    what the killed write had put there."""
    target = tmp_path / "page.mdx"
    left = tmp_path / f".page.mdx.{os.getpid()}{TMP_SUFFIX}"
    left.write_text("a much longer text than the new one\n", "utf-8")
    writes.write_atomic(target, "short")
    assert target.read_bytes() == b"short"
    assert [p.name for p in tmp_path.iterdir()] == ["page.mdx"]
