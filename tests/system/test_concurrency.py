"""Two builds at once never interleave their writes: the second waits, then plans afresh.

``docgen build`` holds an exclusive lock on the project root (``docgen.io.lock``)
from before it plans until its last write. A second build says once on stderr that
it is waiting, writes nothing meanwhile, and then plans against the first one's
result, so the tree always ends as one whole build of one registry.
"""

from __future__ import annotations

import re
import select
import subprocess
from pathlib import Path
from typing import IO

import pytest
from scale import docgen, docgen_process, snapshot, write_corpus

from docgen.config import load_project
from docgen.errors import ConfigError
from docgen.io.lock import build_lock
from docgen.io.writes import TMP_SUFFIX

WAITING = "docgen: another docgen build, changelog or check is running in this project; waiting"
SUMMARY = re.compile(r"^(\d+) written, (\d+) updated, (\d+) pruned, (\d+) unchanged$", re.M)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A built corpus project (8 profiles, 16 shared pages: about 90 generated files)."""
    root = tmp_path / "corpus"
    write_corpus(root, 8, 16)
    assert docgen(root, "build").exit_code == 0
    return root


def registry_variant(root: Path, name: str, old: str, new: str) -> str:
    """Write ``name`` beside profiles.yaml: the same registry with every ``old`` -> ``new``."""
    text = (root / "profiles.yaml").read_text("utf-8")
    assert old in text
    (root / name).write_text(text.replace(old, new), "utf-8")
    return name


def first_line(stream: IO[bytes] | None, timeout: float) -> str:
    assert stream is not None
    ready, _, _ = select.select([stream], [], [], timeout)
    assert ready, f"nothing on the stream within {timeout} s"
    return stream.readline().decode().rstrip("\n")


def test_a_build_waits_for_the_lock_and_writes_nothing_meanwhile(root: Path) -> None:
    registry = root / "profiles.yaml"
    registry.write_text(registry.read_text("utf-8").replace("name: NemoClaw", "name: Nemo"))
    before = snapshot(root)
    with build_lock(load_project(root)):
        proc = docgen_process(root, "build")
        assert first_line(proc.stderr, timeout=60) == WAITING
        with pytest.raises(subprocess.TimeoutExpired):
            proc.wait(timeout=1)  # still blocked on the lock
        assert snapshot(root) == before
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()
    assert err == b""  # the waiting line was said once
    summary = SUMMARY.search(out.decode())
    assert summary is not None and int(summary[2]) > 0
    assert docgen(root, "check", "-q").exit_code == 0


def test_a_build_gives_up_on_a_lock_held_too_long(root: Path) -> None:
    said: list[str] = []
    project = load_project(root)
    with (
        build_lock(project),
        pytest.raises(ConfigError) as info,
        build_lock(project, wait=1.0, notify=said.append),
    ):
        pytest.fail("the lock was taken twice")
    assert said == [WAITING]
    assert [str(p) for p in info.value.problems] == [
        "docgen: error: another docgen build, changelog or check kept this project locked "
        "for 1 s; try again"
    ]


def race(root: Path, registries: tuple[str, str]) -> list[tuple[str, bool, str]]:
    """Start two builds at once; (registry, whether it waited, stdout) of each."""
    procs = [docgen_process(root, "--registry", name, "build") for name in registries]
    done = []
    for name, proc in zip(registries, procs, strict=True):
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()
        assert err.decode() in ("", WAITING + "\n")
        done.append((name, bool(err), out.decode()))
    assert sum(waited for _, waited, _ in done) <= 1
    assert sorted(root.rglob(f"*{TMP_SUFFIX}")) == []
    return done


def in_sync(root: Path, registry: str) -> bool:
    return docgen(root, "--registry", registry, "check", "-q").exit_code == 0


def test_two_builds_of_different_registries_end_as_one_whole_build(root: Path) -> None:
    a = registry_variant(
        root, "a.yaml", "gpu-memory-utilization: 0.", "gpu-memory-utilization: 0.0"
    )
    b = registry_variant(root, "b.yaml", "name: NemoClaw", "name: NemoClaw B")
    for order in ((a, b), (b, a)):
        done = race(root, order)
        synced = [name for name in (a, b) if in_sync(root, name)]
        assert len(synced) == 1, "the tree mixes the outputs of both builds"
        waiter = [name for name, waited, _ in done if waited]
        if waiter:  # the build that waited went second, so its registry wins
            assert synced == waiter


def test_two_builds_of_the_same_registry_do_the_work_once(root: Path) -> None:
    same = registry_variant(root, "a.yaml", "name: NemoClaw", "name: NemoClaw A")
    done = race(root, (same, same))
    assert in_sync(root, same)
    for _, waited, out in done:
        summary = SUMMARY.search(out)
        assert summary is not None
        if waited:  # it planned against the first build's result: nothing left to do
            assert summary.groups()[:3] == ("0", "0", "0")
