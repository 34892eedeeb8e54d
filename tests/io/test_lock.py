"""The build lock: a second holder waits, says so once, and gives up with a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen import config
from docgen.errors import ConfigError
from docgen.io.lock import build_lock

WAITING = "docgen: another docgen build, changelog or check is running in this project; waiting"


def test_a_second_holder_waits_then_stops_with_a_located_error(tmp_path: Path) -> None:
    project = config.Project(tmp_path, config.Config())
    heard: list[str] = []
    with build_lock(project), pytest.raises(ConfigError) as info:
        second = build_lock(project, 0.2, heard.append)
        second.__enter__()  # waits, then raises: the lock is held
    assert heard == [WAITING]
    assert str(info.value) == (
        "docgen: error: another docgen build, changelog or check kept this project locked "
        "for 0 s; try again"
    )
    with build_lock(project, 0.2, heard.append):  # released: taken at once
        pass
    assert heard == [WAITING]


def test_a_holder_gives_up_when_its_wait_is_over(tmp_path: Path, monkeypatch) -> None:
    """Not seconds later (a mutation sample's finding: nothing bounded the wait). The
    clock is the lock's own, which its waits move on."""
    from types import SimpleNamespace

    from docgen.io import lock

    now = [100.0]
    sleep = lambda seconds: now.__setitem__(0, now[0] + seconds)  # noqa: E731
    monkeypatch.setattr(lock, "time", SimpleNamespace(monotonic=lambda: now[0], sleep=sleep))
    project = config.Project(tmp_path, config.Config())
    with build_lock(project), pytest.raises(ConfigError):
        build_lock(project, 2.0).__enter__()
    assert 102.0 < now[0] <= 102.1  # one step of 0.05 s past the deadline, at most


def test_checks_share_the_lock_and_a_build_keeps_them_out(tmp_path: Path) -> None:
    project = config.Project(tmp_path, config.Config())
    heard: list[str] = []
    with build_lock(project, shared=True), build_lock(project, 0.2, heard.append, shared=True):
        assert heard == []  # two checks at once
        with pytest.raises(ConfigError):
            build_lock(project, 0.2, heard.append).__enter__()  # a build waits for them
    assert heard == [WAITING]


def test_a_check_waits_for_a_running_build(example, tmp_path: Path) -> None:
    """A check beside a build that pruned a page called the page it found gone an input
    to fix (exit 2): it now waits for the build, and checks what the build left."""
    import select
    import subprocess
    import sys

    command = [sys.executable, "-m", "docgen", "--root", str(example.root), "check", "-q"]
    said = b"docgen: another docgen build or changelog is running in this project; waiting\n"
    with build_lock(config.Project(example.root, config.Config())):
        checking = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert checking.stderr is not None
        ready, _, _ = select.select([checking.stderr], [], [], 120)
        assert ready and checking.stderr.readline() == said  # it reached the lock
        assert checking.poll() is None  # and waits
    out, err = checking.communicate(timeout=120)
    assert (checking.returncode, out, err) == (0, b"", b"")
