"""The cache key reads what the plan reads and nothing more: never a file outside the root,
whatever a link under the docs folder points at."""

from __future__ import annotations

import builtins
import os

from docgen import cache
from docgen.config import load_project


def test_the_cache_key_never_opens_a_page_linked_from_outside_the_root(make_project, run, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.mdx"
    secret.write_text('---\ntitle: "Secret"\n---\n\nNot for the cache.\n', "utf-8")
    project = make_project()
    (project.root / "docs").mkdir()
    os.symlink(secret, project.root / "docs" / "leak.mdx")
    assert run(project, "build").exit_code == 0
    opened: list[str] = []
    real_open = builtins.open

    def recording_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        opened.append(os.path.realpath(file) if isinstance(file, (str, os.PathLike)) else "")
        return real_open(file, *args, **kwargs)

    builtins.open = recording_open
    try:
        first = cache.key(load_project(project.root))
    finally:
        builtins.open = real_open
    assert opened, "the key reads the project's files"
    assert str(secret) not in opened
    assert not [p for p in opened if p.startswith(str(outside))]
    secret.write_text("changed outside the project\n", "utf-8")
    assert cache.key(load_project(project.root)) == first  # what lies outside is no input


def test_the_cache_folder_ignores_itself_in_git(make_project, run):
    project = make_project()
    assert run(project, "build").exit_code == 0
    assert (project.root / cache.FOLDER / ".gitignore").read_text("utf-8") == "*\n"


def test_a_page_with_regions_and_bytes_that_are_not_utf8_is_a_located_error(make_project, run):
    """The cache key reads such a page leniently; the plan then names the bad byte's line."""
    project = make_project()
    page = project.root / "docs" / "guide.mdx"
    page.parent.mkdir(parents=True)
    page.write_bytes(
        b'---\ntitle: "Guide"\n---\n\n{/* docgen:begin models-table */}\n{/* docgen:end */}\n'
        b"caf\xe9\n"
    )
    result = run(project, "check")
    assert result.exit_code == 2
    assert result.stderr == "docs/guide.mdx:7:4: error: invalid UTF-8 byte 0xe9 in the page\n"


def test_a_new_entry_is_written_beside_its_place_and_replaces_the_old(
    make_project, run, monkeypatch
):
    """The temporary file is made in the cache folder (a rename across file systems would
    fail) and renamed into place; then the old entry is gone and nothing else is left."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    loaded = load_project(project.root)
    digest = cache.key(loaded)
    stored = cache.load(loaded, digest)
    assert stored is not None
    folder = project.root / cache.FOLDER
    renamed: list[tuple[str, str]] = []
    real_replace = os.replace

    def recording_replace(src, dst):  # type: ignore[no-untyped-def]
        renamed.append((os.path.dirname(src), os.fspath(dst)))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", recording_replace)
    other = "0" * 64
    cache.store(loaded, other, stored)
    entry = [f"{other}.partials", f"{other}.pickle"]  # the partials' texts, then the plan
    assert renamed == [(str(folder), str(folder / name)) for name in entry]
    # The build's stamps (``docgen.stamps``) are no cache entry: they stay.
    assert sorted(p.name for p in folder.iterdir()) == [".gitignore", *entry, "stamps"]
    assert cache.load(loaded, other) is not None
