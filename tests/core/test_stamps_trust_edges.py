"""What a stamps entry must match before a file goes unread (a regular file, its inode
too), and the stamps files ``docgen.stamps`` refuses to trust or to write."""

from __future__ import annotations

import os
import time
from pathlib import Path

from docgen import stamps
from docgen.config import load_project
from docgen.io import files, user_cache


def _with_inode(info: os.stat_result, inode: int) -> os.stat_result:
    """``info`` with another inode number, every other field (the ns times too) kept."""
    times = ("st_atime", "st_mtime", "st_ctime", "st_atime_ns", "st_mtime_ns", "st_ctime_ns")
    return os.stat_result((info[0], inode, *info[2:]), {k: getattr(info, k) for k in times})


def _known(info: os.stat_result) -> stamps.Stamps:
    """Stamps holding ``info`` for ``page.mdx`` (digest ``d``), written after it: not racy."""
    since = max(info.st_mtime_ns, info.st_ctime_ns) + 1
    return stamps.Stamps({"page.mdx": ("d", stamps.of(info))}, since=since)


def test_an_entry_does_not_hold_for_another_inode_with_the_same_size_and_times(tmp_path):
    """A file replaced by another (a rename over it) with the recorded size and times is
    another file: the inode tells them apart."""
    path = tmp_path / "page.mdx"
    path.write_text("text\n", "utf-8")
    info = path.stat()
    known = _known(info)
    assert known.hold("page.mdx", "d", info)
    assert not known.hold("page.mdx", "d", _with_inode(info, info.st_ino + 1))


def test_an_entry_does_not_hold_for_a_fifo_with_the_recorded_stat(tmp_path):
    """Only a regular file is known without reading it: a FIFO whose stat is the very one
    recorded (size, times, inode, device) is still read (and found to be no page)."""
    fifo = tmp_path / "page.mdx"
    os.mkfifo(fifo)
    info = fifo.stat()
    assert not _known(info).hold("page.mdx", "d", info)


def test_stamps_sealed_by_this_user_but_no_mapping_are_none(make_project, run):
    """A sealed payload of another shape (a list) is damaged stamps: none, and ``check``
    reads every file and still passes."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    path = project.root / files.OWN_FOLDER / stamps.NAME
    secret = user_cache.secret()
    assert secret is not None
    with user_cache.sealed_pickle(secret, [("docs/models.mdx", "d")], stamps.HEADER) as sealed:
        path.write_bytes(bytes(sealed))
    later = time.time_ns() + 10**9
    os.utime(path, ns=(later, later))
    assert stamps.load(load_project(project.root)) is None
    checked = run(project, "check")
    assert checked.exit_code == 0
    assert checked.stdout == "4 generated files match the registry\n"


def test_more_entries_than_the_most_allowed_write_no_stamps(make_project, monkeypatch):
    monkeypatch.setattr(stamps, "MAX_ENTRIES", 1)
    project = load_project(make_project().root)
    path: Path = project.root / files.OWN_FOLDER / stamps.NAME
    entry = ("d", (1, 2, 3, 4, 5))
    stamps.record(project, {"docs/a.mdx": entry, "docs/b.mdx": entry})
    assert not path.exists()
    stamps.record(project, {"docs/a.mdx": entry})  # as many as allowed: written
    assert path.is_file()
