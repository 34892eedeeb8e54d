"""The build lock: a second holder waits, says so once, and gives up with a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen import config
from docgen.errors import ConfigError
from docgen.io.lock import build_lock

WAITING = "docgen: another docgen build is running in this project; waiting"


def test_a_second_holder_waits_then_stops_with_a_located_error(tmp_path: Path) -> None:
    project = config.Project(tmp_path, config.Config())
    heard: list[str] = []
    with build_lock(project), pytest.raises(ConfigError) as info:
        second = build_lock(project, 0.2, heard.append)
        second.__enter__()  # waits, then raises: the lock is held
    assert heard == [WAITING]
    assert str(info.value) == (
        "docgen: error: another docgen build kept this project locked for 0 s; try again"
    )
    with build_lock(project, 0.2, heard.append):  # released: taken at once
        pass
    assert heard == [WAITING]
