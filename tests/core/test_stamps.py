"""A build's stamps (``docgen.stamps``) spare a later comparison the reading of every file
nobody touched since, and never hide a file somebody did touch."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from docgen import stamps, sync
from docgen.config import load_project
from docgen.io import user_cache

EDIT = ("max-num-seqs: 2", "max-num-seqs: 3")


@pytest.fixture
def read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The outputs a comparison reads from disk, by path."""
    paths: list[str] = []
    real = sync._read

    def recording(real_path: str, path: str) -> bytes | None:
        paths.append(path)
        return real(real_path, path)

    monkeypatch.setattr(sync, "_read", recording)
    return paths


def _stamps_file(project) -> Path:  # type: ignore[no-untyped-def]
    return project.root / ".docgen-cache" / stamps.NAME


def _written_at(project, ns: int) -> None:  # type: ignore[no-untyped-def]
    """Date the stamps file: later than every file the build stamped (as once the clock
    has moved on, so that no entry is racy), or earlier."""
    os.utime(_stamps_file(project), ns=(ns, ns))


def _docs(project) -> dict[str, bytes]:  # type: ignore[no-untyped-def]
    return {
        p.relative_to(project.root).as_posix(): p.read_bytes()
        for p in (project.root / "docs").rglob("*")
        if p.is_file()
    }


def _generated(project) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(
        p.relative_to(project.root).as_posix()
        for p in (project.root / "docs").rglob("*.mdx")
        if "generated" in p.read_text("utf-8")
    )


def test_a_check_after_a_build_reads_no_file_nobody_touched(make_project, run, read):
    project = make_project()
    assert run(project, "build").exit_code == 0  # writes them: none stamped yet
    assert run(project, "build").exit_code == 0  # reads them: each stamped
    read.clear()
    _written_at(project, time.time_ns() + 10**9)
    assert run(project, "check").exit_code == 0
    assert read == []
    project.edit("profiles.yaml", *EDIT)
    assert run(project, "check").exit_code == 1
    checked, before = set(read), _docs(project)
    assert run(project, "build").exit_code == 0
    drifted = {path for path, text in _docs(project).items() if before.get(path) != text}
    assert drifted and checked == drifted  # read for their diffs only
    _stamps_file(project).unlink()
    read.clear()
    assert run(project, "check").exit_code == 0
    assert set(_generated(project)) <= set(read)  # without stamps, each is read


def test_a_hand_edit_that_keeps_the_size_and_the_times_is_drift(make_project, run, read):
    """Only the status-change time, which no program sets back, tells this edit: the
    page keeps its size and is given back its modification time."""
    project = make_project()
    assert run(project, "build").exit_code == 0  # writes them: none stamped yet
    assert run(project, "build").exit_code == 0  # reads them: each stamped
    _written_at(project, time.time_ns() + 10**9)
    read.clear()
    assert run(project, "check").exit_code == 0 and read == []  # the stamps hold
    page = _generated(project)[0]
    path = project.root / page
    before = path.stat()
    text = path.read_text("utf-8")
    path.write_text(text.replace("e", "E", 1), "utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size
    outcome = run(project, "check")
    assert outcome.exit_code == 1
    assert page in outcome.output
    assert page in read


def test_an_entry_not_older_than_the_stamps_file_is_read_again(make_project, run, read):
    """A file changed in the clock tick in which it was stamped keeps its times: every
    entry of a stamps file dated before its entries is racy, and read."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    _written_at(project, 0)
    assert run(project, "check").exit_code == 0
    assert set(_generated(project)) <= set(read)


def test_stamps_this_user_did_not_seal_are_never_trusted(make_project, run, read):
    project = make_project()
    assert run(project, "build").exit_code == 0
    loaded = load_project(project.root)
    assert stamps.load(loaded) is not None
    path = _stamps_file(project)
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 1
    path.write_bytes(bytes(raw))
    _written_at(project, time.time_ns() + 10**9)
    assert stamps.load(loaded) is None
    assert run(project, "check").exit_code == 0
    assert set(_generated(project)) <= set(read)


def test_a_check_and_a_dry_run_record_no_stamps(make_project, run):
    project = make_project()
    assert run(project, "build").exit_code == 0
    _stamps_file(project).unlink()
    assert run(project, "check").exit_code == 0
    assert run(project, "build", "--dry-run").exit_code == 0
    assert not _stamps_file(project).exists()
    assert run(project, "build").exit_code == 0
    assert _stamps_file(project).is_file()


def test_an_entry_holds_only_for_its_digest_and_its_file_unchanged(tmp_path):
    path = tmp_path / "page.mdx"
    path.write_text("text\n", "utf-8")
    info = path.stat()
    stat = stamps.of(info)
    later = max(info.st_mtime_ns, info.st_ctime_ns) + 1
    known = stamps.Stamps({"page.mdx": ("d", stat)}, since=later)
    assert known.hold("page.mdx", "d", info)
    assert not known.hold("page.mdx", "other digest", info)
    assert not known.hold("other.mdx", "d", info)
    assert not stamps.Stamps({"page.mdx": ("d", stat)}, since=later - 1).hold("page.mdx", "d", info)
    path.write_text("TEXT\n", "utf-8")
    assert not known.hold("page.mdx", "d", path.stat())
    assert not known.hold("page.mdx", "d", tmp_path.stat())  # a folder is no file


def test_an_entry_whose_status_change_is_not_older_than_the_stamps_is_racy(tmp_path):
    """A file edited and given back an old modification time (``touch -d``, a copy that
    keeps times) still moved its status-change time: an entry whose ctime is not older
    than the stamps is read again, however old its mtime."""
    import os

    path = tmp_path / "page.mdx"
    path.write_text("text\n", "utf-8")
    os.utime(path, ns=(10**18, 10**18))  # an mtime long before the ctime the write set
    info = path.stat()
    assert info.st_mtime_ns < info.st_ctime_ns
    entries = {"page.mdx": ("d", stamps.of(info))}
    assert not stamps.Stamps(entries, since=info.st_ctime_ns).hold("page.mdx", "d", info)
    assert stamps.Stamps(entries, since=info.st_ctime_ns + 1).hold("page.mdx", "d", info)


def test_an_entry_whose_modification_is_not_older_than_the_stamps_is_racy(tmp_path):
    """The same for the modification time: a file whose mtime (set ahead, say) is not
    older than the stamps is read again, however old its ctime."""
    import os

    path = tmp_path / "page.mdx"
    path.write_text("text\n", "utf-8")
    ahead = path.stat().st_ctime_ns + 10**12
    os.utime(path, ns=(ahead, ahead))
    info = path.stat()
    assert info.st_ctime_ns < info.st_mtime_ns == ahead
    entries = {"page.mdx": ("d", stamps.of(info))}
    assert not stamps.Stamps(entries, since=ahead).hold("page.mdx", "d", info)
    assert stamps.Stamps(entries, since=ahead + 1).hold("page.mdx", "d", info)


def test_a_key_renewed_since_leaves_no_stamps(make_project, run, monkeypatch, tmp_path):
    project = make_project()
    assert run(project, "build").exit_code == 0
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another-user"))
    assert user_cache.secret(create=True) is not None
    assert stamps.load(load_project(project.root)) is None


def test_a_build_that_finds_everything_as_stamped_writes_nothing(make_project, run):
    """Also when it reads the racy entries (right after the build that stamped them)."""
    project = make_project()
    assert run(project, "build").exit_code == 0  # writes the files
    assert run(project, "build").exit_code == 0  # reads them, and stamps them
    before = _stamps_file(project).stat()
    assert run(project, "build").exit_code == 0
    after = _stamps_file(project).stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_an_edit_while_a_build_finishes_is_never_taken_for_its_text(make_project, run, monkeypatch):
    """A file a build writes is stamped by a later build, once read: an edit between the
    write and the stamps (an editor saving while the build ends) stays drift."""
    from docgen import cache

    project = make_project()
    assert run(project, "build").exit_code == 0
    project.edit("profiles.yaml", *EDIT)
    real = cache.remember
    page = project.root / "docs/models.mdx"

    def late_edit(*args):  # type: ignore[no-untyped-def]
        real(*args)
        page.write_text(page.read_text("utf-8") + "\nA hand edit.\n", "utf-8")

    monkeypatch.setattr(cache, "remember", late_edit)
    assert run(project, "build").exit_code == 0
    monkeypatch.setattr(cache, "remember", real)
    _written_at(project, time.time_ns() + 10**9)
    checked = run(project, "check")
    assert checked.exit_code == 1
    assert "docs/models.mdx" in checked.output


def test_recording_the_stamps_removes_what_a_killed_write_left_and_nothing_else(make_project, run):
    """A build killed while it wrote the stamps leaves ``.stamps.<x>.docgen-tmp``; the next
    record removes such files and no other file of docgen's folder (a mutation round:
    nothing tested which it removes)."""
    from docgen.io.staging import TMP_SUFFIX

    project = make_project()
    assert run(project, "build").exit_code == 0
    folder = _stamps_file(project).parent
    left = folder / f".{stamps.NAME}.a1b2{TMP_SUFFIX}"
    kept = folder / f".{stamps.NAME}.keep"
    for path in (left, kept):
        path.write_bytes(b"x")
    assert run(project, "build").exit_code == 0  # reads every output: records the stamps
    assert _stamps_file(project).is_file()
    assert (left.exists(), kept.exists()) == (False, True)


def test_a_build_that_renders_stamps_the_outputs_it_found_holding_their_text(
    make_project, run, read
):
    """A rendering build finds each output on disk as it renders it (verified, never read
    again): those are stamped too, so the next check reads none of them (a mutation
    round: nothing tested that verified outputs are stamped)."""
    import shutil

    project = make_project()
    assert run(project, "build").exit_code == 0
    shutil.rmtree(project.root / ".docgen-cache")  # no plan: the next build renders
    assert run(project, "build").exit_code == 0
    assert _stamps_file(project).is_file()
    _written_at(project, time.time_ns() + 10**9)
    read.clear()
    assert run(project, "check").exit_code == 0
    assert read == []
