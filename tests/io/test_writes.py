"""Atomic writes, the sweep of a killed build's temporaries, and applying a list of writes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from docgen import config
from docgen.errors import OwnershipError
from docgen.io import files, writes
from docgen.io.writes import TMP_SUFFIX, Write


@pytest.fixture
def project(tmp_path: Path) -> config.Project:
    root = tmp_path / "proj"
    root.mkdir()
    return config.Project(root.resolve(), config.Config())


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_an_atomic_write_replaces_the_file_and_keeps_its_mode(tmp_path):
    target = tmp_path / "a" / "page.mdx"
    writes.write_atomic(target, "new\n")  # the folder is made as needed
    assert target.read_text("utf-8") == "new\n"
    target.chmod(0o600)
    writes.write_atomic(target, b"newer\n")
    assert target.read_bytes() == b"newer\n"
    assert target.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in target.parent.iterdir()) == ["page.mdx"]


def test_a_temporary_left_by_a_killed_build_with_this_process_id_is_replaced(tmp_path):
    target = tmp_path / "page.mdx"
    left = tmp_path / f".page.mdx.{os.getpid()}{TMP_SUFFIX}"
    left.write_text("half", "utf-8")
    writes.write_atomic(target, "whole\n", new=True)
    assert tree(tmp_path) == {"page.mdx": b"whole\n"}


def test_the_sweep_removes_only_temporaries_beside_the_paths_named(project):
    folder = project.root / "docs"
    folder.mkdir()
    for name in (f".a.mdx.12{TMP_SUFFIX}", f"b{TMP_SUFFIX}", ".c.mdx", "d.mdx"):
        (folder / name).write_text("x", "utf-8")
    other = project.root / "other"
    other.mkdir()
    (other / f".e.mdx.1{TMP_SUFFIX}").write_text("x", "utf-8")
    writes.sweep_temporaries(project, ["docs/d.mdx", "gone/x.mdx", "docs/d.mdx/x"])
    assert sorted(p.name for p in folder.iterdir()) == [".c.mdx", "b.docgen-tmp", "d.mdx"]
    assert [p.name for p in other.iterdir()] == [f".e.mdx.1{TMP_SUFFIX}"]


def test_apply_writes_and_deletes_in_order_and_counts(project):
    (project.root / "docs").mkdir()
    (project.root / "docs/stale.mdx").write_text("old\n", "utf-8")
    (project.root / "docs" / f".x.mdx.9{TMP_SUFFIX}").write_text("half", "utf-8")
    files.listing(project, "docs")
    done: list[int] = []
    todo = [
        Write("docs/deep/new.mdx", "new\n", new=True),
        Write("docs/stale.mdx", None),
        Write("docs/missing.mdx", None),
    ]
    writes.apply(project, todo, near=["docs/x.mdx"], progress=done.append)
    # New texts are staged in docgen's own folder, which git ignores.
    assert tree(project.root) == {"docs/deep/new.mdx": b"new\n", ".docgen-cache/.gitignore": b"*\n"}
    assert done == [1, 2, 3]
    assert [f.rel for f in files.listing(project, "docs").files] == ["docs/deep/new.mdx"]


def test_a_text_that_cannot_be_encoded_refuses_every_write(project):
    todo = [Write("docs/a.mdx", "fine\n"), Write("docs/b.mdx", "lone \ud800 surrogate\n")]
    with pytest.raises(OwnershipError) as info:
        writes.apply(project, todo)
    assert str(info.value) == (
        "docs/b.mdx:1:1: error: cannot write docs/b.mdx: surrogates not allowed"
    )
    assert tree(project.root) == {}
