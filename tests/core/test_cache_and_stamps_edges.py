"""What mutation testing found unpinned in the stamps, the plan cache and this user's
cache folder: a stamp racing its file's last write, leftovers, rewrites, and the key."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from test_stamps import _generated, _stamps_file, _written_at, read  # noqa: F401

from docgen.inputs import FORMAT
from docgen.io import user_cache


def _entry(project) -> Path:  # type: ignore[no-untyped-def]
    """The plan cache's one entry: its ``.pickle`` file."""
    [found] = (project.root / ".docgen-cache").glob("*.pickle")
    return found


def test_stamps_of_the_outputs_last_clock_tick_are_racy(make_project, run, read):  # noqa: F811
    """Stamps dated exactly at an output's last status change are racy: every output from
    that tick on is read, as one edited in that tick would keep its times. (Dated at the
    last output's change, the test hung on every output being written in one clock tick,
    which a loaded machine does not keep: the first output's change is the boundary.)"""
    project = make_project()
    assert run(project, "build").exit_code == 0  # writes them: none stamped yet
    assert run(project, "build").exit_code == 0  # reads them: each stamped
    pages = _generated(project)
    _written_at(project, min((project.root / p).stat().st_ctime_ns for p in pages))
    read.clear()
    assert run(project, "check").exit_code == 0
    assert set(pages) <= set(read)


def test_a_build_that_stores_no_new_plan_still_drops_a_killed_stamps_write(make_project, run):
    """A temporary a killed build left while writing the stamps goes with the next build,
    also one that finds the plan already cached."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    left = _stamps_file(project).parent / f".{_stamps_file(project).name}.x1.docgen-tmp"
    left.write_bytes(b"half a stamps file")
    assert run(project, "build").exit_code == 0
    assert not left.exists()
    assert _stamps_file(project).is_file()


def test_a_build_of_an_unchanged_project_does_not_rewrite_its_cache_entry(make_project, run):
    """The plan this machine already holds is not pickled and written again."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    before = _entry(project).stat()
    time.sleep(0.01)
    assert run(project, "build").exit_code == 0
    after = _entry(project).stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_a_key_file_of_another_length_is_no_key(make_project, run, tmp_path, monkeypatch):
    """A key that is not 32 bytes seals nothing; a build replaces it with a key of its
    own and keeps its cache under that."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    user_cache.key_file().parent.mkdir(parents=True)
    user_cache.key_file().write_bytes(b"k" * 16)
    os.chmod(user_cache.key_file(), 0o600)
    assert user_cache.secret() is None
    project = make_project()
    assert run(project, "build").exit_code == 0
    new = user_cache.secret()
    assert new is not None and new != b"k" * 16
    assert list((project.root / ".docgen-cache").glob("*.pickle"))


def test_a_new_key_is_readable_by_this_user_only(tmp_path, monkeypatch):
    """The key is made with mode 0600, whatever the umask lets through."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    old = os.umask(0o022)
    try:
        assert user_cache.secret(create=True) is not None
    finally:
        os.umask(old)
    assert user_cache.key_file().stat().st_mode & 0o777 == 0o600


def test_a_key_another_run_made_meanwhile_is_the_key(tmp_path, monkeypatch):
    """When another run makes the key between the look and the make, its key is used."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    theirs = bytes(range(32))
    real_link = os.link

    def racing(source, target, *args):  # type: ignore[no-untyped-def]
        Path(target).write_bytes(theirs)
        os.chmod(target, 0o600)  # as the other run makes it
        return real_link(source, target, *args)

    monkeypatch.setattr(user_cache.os, "link", racing)
    assert user_cache.secret(create=True) == theirs
    assert [p.name for p in user_cache.key_file().parent.iterdir()] == ["cache-key"]


def test_a_file_sealed_under_another_header_of_the_same_length_is_refused():
    """An older cache format's file (same key, a header as long) is not taken for this one."""
    key = bytes(32)
    older = FORMAT[:-2] + bytes([FORMAT[-2] ^ 1]) + b"\n"
    assert len(older) == len(FORMAT) and older != FORMAT
    with user_cache.sealed_pickle(key, {"a": 1}, older) as sealed:
        raw = bytes(sealed)
    assert user_cache.unsealed(key, raw, older) is not None
    assert user_cache.unsealed(key, raw, FORMAT) is None


@pytest.mark.parametrize(
    "payload",
    [b"cbuiltins\nno_such_name\n.", b"cno_such_module_here\nx\n.", b"\x80\x05", b"I1\nI2\n\x85R."],
    ids=["gone-attribute", "gone-module", "cut-short", "not-callable"],
)
def test_a_sealed_pickle_this_docgen_cannot_read_back_is_nothing(payload):
    """A plan pickled by an older docgen (a class moved, a module gone) is no plan."""
    assert user_cache.unpickled(memoryview(payload)) is None


def _digest_of(folder: Path, monkeypatch: pytest.MonkeyPatch) -> bytes:
    monkeypatch.setattr(user_cache, "PACKAGE", folder)
    return user_cache.code_digest.__wrapped__()  # type: ignore[attr-defined, no-any-return]


def test_docgens_own_templates_and_their_times_are_part_of_its_code(tmp_path, monkeypatch):
    """An edit to a built-in ``.j2`` template, even one that keeps its size, is another docgen."""
    (tmp_path / "a.py").write_text("x = 1\n", "utf-8")
    template = tmp_path / "page.j2"
    template.write_text("{{ a }}\n", "utf-8")
    first = _digest_of(tmp_path, monkeypatch)
    template.write_text("{{ b }}\n", "utf-8")
    os.utime(template, ns=(0, template.stat().st_mtime_ns + 10**9))
    assert _digest_of(tmp_path, monkeypatch) != first


@pytest.mark.parametrize(
    "shape", ["readable by others", "writable by its group", "a link", "another user's"]
)
def test_a_key_others_could_know_is_no_key(tmp_path, monkeypatch, shape):
    """Whoever reads the key can seal a cache file docgen unpickles: a key in a shared
    cache folder that others may read, a link to one, or a file another user owns,
    seals nothing (a probe ran code through a forged stamps file this way). A build
    replaces this user's own entry with a private key (the link itself, never what it
    leads to); another user's key stays theirs, and this user has none."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    made = user_cache.secret(create=True)
    assert made is not None and user_cache.secret() == made
    key = user_cache.key_file()
    if shape == "readable by others":
        os.chmod(key, 0o644)
    elif shape == "writable by its group":
        os.chmod(key, 0o620)
    elif shape == "a link":
        shared = tmp_path / "shared-key"
        shared.write_bytes(made)
        os.chmod(shared, 0o600)
        key.unlink()
        key.symlink_to(shared)
    else:
        monkeypatch.setattr(user_cache.os, "getuid", lambda: os.stat(key).st_uid + 1)
    assert user_cache.secret() is None
    renewed = user_cache.secret(create=True)
    folder = sorted(p.name for p in key.parent.iterdir())
    assert folder == ["cache-key"]  # no temporary key left behind either way
    if shape == "another user's":
        assert renewed is None and key.read_bytes() == made
        return
    assert renewed is not None and renewed != made
    assert not key.is_symlink() and key.stat().st_mode & 0o777 == 0o600
    if shape == "a link":
        assert (tmp_path / "shared-key").read_bytes() == made  # not written through


def test_a_folder_at_the_keys_place_is_no_key_and_no_crash(
    make_project, run, tmp_path, monkeypatch
):
    """``check`` and ``build`` failed with an internal IsADirectoryError."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    user_cache.key_file().mkdir(parents=True)
    assert user_cache.secret() is None and user_cache.secret(create=True) is None
    project = make_project()
    assert run(project, "build").exit_code == 0
    assert run(project, "check").exit_code == 0
    assert user_cache.key_file().is_dir()
