"""Every write goes through ``docgen.io.writes``, which never writes, creates or deletes
through a symbolic link that leaves the project root: not the outputs, not docgen's own
folder (the plan cache, the staging folder) nor its ``.gitignore``.

Each test has a sibling ``outside/`` folder whose files must come out unchanged.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from docgen import cache, config
from docgen.config import load_project
from docgen.errors import OwnershipError
from docgen.io import files, writes
from docgen.io.writes import TMP_SUFFIX, Write


def everything(folder: Path) -> dict[str, str]:
    """Every file, folder and link under ``folder``."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            out[rel] = f"-> {os.readlink(path)}"
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            out[rel] = "folder"
    return out


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    (folder / "cache").mkdir(parents=True)
    (folder / "cache/victim.pickle").write_text("victim\n", "utf-8")
    (folder / "cache/other.txt").write_text("other\n", "utf-8")
    (folder / "bashrc").write_text("ORIGINAL BASHRC\n", "utf-8")
    return folder


def test_a_cache_folder_linked_outside_is_never_written(make_project, run, outside):
    project = make_project()
    (project.root / cache.FOLDER).symlink_to(outside / "cache", target_is_directory=True)
    before = everything(outside)
    assert run(project, "build").exit_code == 0
    project.edit("profiles.yaml", "max-num-seqs: 2", "max-num-seqs: 3")
    assert run(project, "build").exit_code == 0
    assert run(project, "check").exit_code == 0
    assert everything(outside) == before  # nothing created, written or deleted there
    assert not list(project.root.rglob(f"*{TMP_SUFFIX}"))


def test_a_cache_gitignore_linked_outside_is_never_written(make_project, run, outside):
    project = make_project()
    assert run(project, "build").exit_code == 0
    folder = project.root / cache.FOLDER
    (folder / ".gitignore").unlink()
    (folder / ".gitignore").symlink_to(outside / "bashrc")
    for stored in [*folder.glob("*.pickle"), *folder.glob("*.partials"), folder / "stamps"]:
        stored.unlink()
    before = everything(outside)
    project.edit("profiles.yaml", "max-num-seqs: 2", "max-num-seqs: 3")
    assert run(project, "build").exit_code == 0
    assert everything(outside) == before
    assert sorted(p.name for p in folder.iterdir()) == [".gitignore"]  # no cache there


def test_store_writes_only_inside_a_real_cache_folder(make_project, run, outside):
    project = make_project()
    assert run(project, "build").exit_code == 0
    loaded = load_project(project.root)
    digest = cache.key(loaded)
    stored = cache.load(loaded, digest)
    assert stored is not None
    (project.root / cache.FOLDER / "x.pickle").mkdir()  # a folder: left alone, no crash
    cache.store(loaded, "1" * 64, stored)
    assert cache.load(loaded, "1" * 64) is not None
    assert (project.root / cache.FOLDER / "x.pickle").is_dir()
    real = project.root / cache.FOLDER
    real.rename(project.root / "moved")
    real.symlink_to(outside / "cache", target_is_directory=True)
    before = everything(outside)
    cache.store(loaded, "2" * 64, stored)
    assert cache.load(loaded, "1" * 64) is None  # not read through the link either
    assert everything(outside) == before


@pytest.fixture
def project(tmp_path: Path) -> config.Project:
    root = tmp_path / "proj"
    root.mkdir()
    return config.Project(root.resolve(), config.Config())


def test_apply_refuses_a_folder_linked_outside_before_the_first_write(project, outside):
    (project.root / "docs").mkdir()
    (project.root / "docs/linked").symlink_to(outside / "cache", target_is_directory=True)
    (project.root / "docs/leak.mdx").symlink_to(outside / "bashrc")
    before = everything(outside)
    inside_before = everything(project.root)
    todo = [
        Write("docs/fine.mdx", "fine\n"),
        Write("docs/linked/new.mdx", "new\n"),
        Write("docs/linked/victim.pickle", None),
        Write("docs/leak.mdx", "leak\n"),
    ]
    with pytest.raises(OwnershipError) as info:
        writes.apply(project, todo)
    leads = "it leads outside the project root (through a symbolic link)"
    assert str(info.value).splitlines() == [
        f"docs/linked/new.mdx:1:1: error: refusing to write docs/linked/new.mdx: {leads}",
        "docs/linked/victim.pickle:1:1: error: refusing to delete docs/linked/victim.pickle: "
        + leads,
        f"docs/leak.mdx:1:1: error: refusing to write docs/leak.mdx: {leads}",
    ]
    assert everything(outside) == before
    assert everything(project.root) == inside_before  # not even the fine one


def test_own_folder_is_none_where_it_would_write_through_a_link(project, outside):
    own = project.root / files.OWN_FOLDER
    own.symlink_to(outside / "cache", target_is_directory=True)
    assert writes.own_folder(project) is None
    own.unlink()
    own.mkdir()
    (own / ".gitignore").symlink_to(outside / "nowhere")  # dangling: would create it
    assert writes.own_folder(project) is None
    assert not (outside / "nowhere").exists()
    (own / ".gitignore").unlink()
    assert writes.own_folder(project) == str(own)
    assert (own / ".gitignore").read_text("utf-8") == "*\n"


def test_the_sweep_never_reaches_through_a_link(project, outside):
    (outside / "cache/staging").mkdir()
    (outside / "cache/staging/1-1.docgen-tmp").write_text("theirs\n", "utf-8")
    (outside / f".a.mdx.1{TMP_SUFFIX}").write_text("theirs\n", "utf-8")
    (project.root / files.OWN_FOLDER).symlink_to(outside / "cache", target_is_directory=True)
    (project.root / "docs").mkdir()
    (project.root / "docs/linked").symlink_to(outside, target_is_directory=True)
    before = everything(outside)
    writes.sweep_temporaries(project, ["docs/linked/a.mdx"])
    assert everything(outside) == before
