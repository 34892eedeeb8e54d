"""Reading a regular file gives exactly its bytes, or exactly the first ``size`` of them,
whatever its length relative to the read's block size."""

from __future__ import annotations

import os

import pytest

from docgen.io import files, reads

LENGTHS = [0, 1, 2, 4095, 4096, 65535, 65536, 65537, 3 * 65536 + 7]


def _data(length: int) -> bytes:
    return bytes((i * 7 + length) % 251 for i in range(length))


@pytest.mark.parametrize("length", LENGTHS)
def test_a_whole_file_is_read(tmp_path, length):
    path = tmp_path / "page.mdx"
    path.write_bytes(_data(length))
    assert files.read_bytes(path) == _data(length)


@pytest.mark.parametrize("length", [0, 5, 65537])
@pytest.mark.parametrize("size", [0, 1, 4, 5, 6, 65536, 65538])
def test_a_head_is_the_first_bytes(tmp_path, length, size):
    path = tmp_path / "page.mdx"
    path.write_bytes(_data(length))
    assert files.read_head(path, size) == _data(length)[:size]


def test_a_file_longer_than_its_size_said_is_read_to_its_end(tmp_path, monkeypatch):
    """A file that grows between ``fstat`` and the read is read on to its end."""
    path = tmp_path / "page.mdx"
    path.write_bytes(_data(100_000))
    real_fstat = os.fstat

    def shrunk(fd):
        info = real_fstat(fd)
        return os.stat_result((info.st_mode, *info[1:6], 10, *info[7:]))

    monkeypatch.setattr(reads.os, "fstat", shrunk)
    assert files.read_bytes(path) == _data(100_000)
    assert files.read_head(path, 70_000) == _data(100_000)[:70_000]


def test_the_input_limit_counts_bytes_read_not_the_size_reported(tmp_path, monkeypatch):
    """A file that says it is small but grew past the limit is refused all the same."""
    path = tmp_path / "page.mdx"
    path.write_bytes(b"x" * 101)
    for name in ("fstat", "lstat", "stat"):
        real = getattr(os, name)
        monkeypatch.setattr(
            reads.os,
            name,
            lambda *a, _real=real, **k: os.stat_result(
                (_real(*a, **k).st_mode, *_real(*a, **k)[1:6], 10, *_real(*a, **k)[7:])
            ),
        )
    with pytest.raises(reads.Refused, match="docgen reads pages up to"):
        reads.load(path, None, "page", 100)
    assert reads.load(path, None, "page", 101) == b"x" * 101
