"""What a cache is keyed by: docgen's own code, and the libraries that shape its output."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from docgen.io import user_cache


def test_an_upgraded_rendering_library_is_another_docgen(tmp_path: Path, monkeypatch):
    """A new Jinja (its package file rewritten) must not take an old cache for its own:
    the same templates may render differently."""
    fake = tmp_path / "jinja2" / "__init__.py"
    fake.parent.mkdir()
    fake.write_text("# one release\n", "utf-8")
    real_find = importlib.util.find_spec

    def find(name: str, *args: object):
        if name == "jinja2":
            return importlib.util.spec_from_file_location("jinja2", fake)
        return real_find(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", find)
    user_cache.code_digest.cache_clear()
    before = user_cache.code_digest()
    fake.write_text("# another release, longer\n", "utf-8")
    user_cache.code_digest.cache_clear()
    assert user_cache.code_digest() != before
    stat = fake.stat()  # the same size, written again: its time tells
    fake.write_text("# another release, LONGER\n", "utf-8")
    os.utime(fake, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    user_cache.code_digest.cache_clear()
    upgraded = user_cache.code_digest()
    user_cache.code_digest.cache_clear()
    assert user_cache.code_digest() == upgraded  # and it is stable
    monkeypatch.undo()
    user_cache.code_digest.cache_clear()  # later tests see the libraries installed


@pytest.mark.parametrize("name", user_cache.RENDERING_LIBRARIES)
def test_each_rendering_library_is_found_where_it_is_installed(name: str):
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin and Path(spec.origin).is_file()


def test_a_rendering_library_whose_package_is_missing_is_digested_as_none(monkeypatch):
    """``find_spec('ruamel.yaml')`` raises when ``ruamel`` itself is missing: the digest
    names the library as absent instead of failing every command with exit 3."""
    import importlib.util

    from docgen.io import user_cache

    real_find = importlib.util.find_spec

    def find(name: str, *args: object):
        if name == "ruamel.yaml":
            raise ModuleNotFoundError("No module named 'ruamel'", name="ruamel")
        return real_find(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", find)
    user_cache.code_digest.cache_clear()
    try:
        assert len(user_cache.code_digest()) == 32
    finally:
        monkeypatch.undo()
        user_cache.code_digest.cache_clear()
