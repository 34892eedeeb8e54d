"""`docgen changelog` takes the build lock: while another build holds it, the release waits,
says so once, and writes only after the lock is released."""

from __future__ import annotations

import threading
import time

from conftest import MINIMAL_REGISTRY

from docgen.config import load_project
from docgen.io.lock import build_lock
from docgen.verbs.releases import write_changelog

WAITING = "docgen: another docgen build, changelog or check is running in this project; waiting"
TUNED = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")


def test_a_release_waits_for_the_build_lock_and_says_so_once(make_project):
    project = load_project(make_project(registry=TUNED, files={"old.yaml": MINIMAL_REGISTRY}).root)
    heard: list[str] = []
    failed: list[BaseException] = []

    def release() -> None:
        try:
            write_changelog(
                project, "v0.1.0", None, "old.yaml", "2026-12-01", None, False, heard.append
            )
        except BaseException as exc:  # pragma: no cover - shown by the assert below
            failed.append(exc)

    entry = project.root / "changelog/2026-12-01.mdx"
    with build_lock(project):
        worker = threading.Thread(target=release)
        worker.start()
        deadline = time.monotonic() + 10
        while not heard and worker.is_alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert heard == [WAITING]
        assert not entry.exists()
    worker.join(timeout=60)
    assert not worker.is_alive()
    assert failed == []
    assert heard == [WAITING]
    assert entry.is_file()
