"""Nothing half written: a build killed with SIGKILL at any write point leaves old or new files.

The worked example is built once ("old"), then its inputs are edited so that a build
creates, rewrites and deletes files ("new"). A driver runs ``docgen build`` in a child
process with the primitives ``docgen.io.writes`` writes through wrapped: creating a
temporary file (``os.open``), writing it (``os.write``), renaming it into place
(``os.replace``), deleting a stale file (``os.unlink``) and making a folder
(``os.makedirs``). Each call is a numbered write point; the child logs it and, at the
point it was told, SIGKILLs itself: before the call, or, for a write, after writing
half of the bytes (a torn temporary file). No clock is involved: the kill lands exactly
where it was aimed, so the outcome is the same on every run and on any machine.

One uninterrupted build counts the points. Then the build is killed at every one of
them in turn, and each time the tree must be exactly what the points before the kill
made of it: every output old or new in full (new once its rename or deletion ran), the
only other files docgen's temporaries, each holding what was written to it. The next
build must finish the job: the new tree, no temporary left, ``check`` in sync. The old
outputs are then put back for the next kill.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import REPO, Outcome, Project
from scale import Tree, docgen, snapshot

from docgen.io.writes import TMP_SUFFIX

#: Runs the docgen command line with ``docgen.io.writes``' file primitives wrapped: each call
#: is logged as ``KIND PATH`` and the one numbered ``kill_at`` (from 1; 0: none) SIGKILLs
#: the process, before the call or, for a write, after half of its bytes.
DRIVER = """\
import os
import signal
import sys

import docgen.io.writes

kill_at, log_path = int(sys.argv.pop(1)), sys.argv.pop(1)
log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
count = 0
temporaries = {}  # fd -> path of the temporary file open on it


def point(kind, path):
    global count
    count += 1
    os.write(log, f"{kind} {os.fspath(path)}\\n".encode())
    return count == kill_at


def die():
    os.kill(os.getpid(), signal.SIGKILL)
    os._exit(99)  # never reached: SIGKILL to oneself is delivered before kill() returns


class Hooked:
    def __getattr__(self, name):
        return getattr(os, name)

    def open(self, path, flags, mode=0o777, **kwargs):
        if not flags & os.O_CREAT:  # not a file being written
            return os.open(path, flags, mode, **kwargs)
        if point("create", path):
            die()
        fd = os.open(path, flags, mode, **kwargs)
        temporaries[fd] = path
        return fd

    def write(self, fd, data):
        if fd not in temporaries:
            return os.write(fd, data)
        if point("write", temporaries[fd]):
            os.write(fd, bytes(data)[: len(data) // 2])
            die()
        return os.write(fd, data)

    def close(self, fd):
        temporaries.pop(fd, None)
        return os.close(fd)

    def replace(self, src, dst, **kwargs):
        if point("replace", dst):
            die()
        return os.replace(src, dst, **kwargs)

    def unlink(self, path, **kwargs):
        if point("unlink", path):
            die()
        return os.unlink(path, **kwargs)

    def makedirs(self, path, *args, **kwargs):
        if point("makedirs", path):
            die()
        return os.makedirs(path, *args, **kwargs)


docgen.io.writes.os = Hooked()
from docgen.cli import main

sys.argv[0] = "docgen"
main()
"""
KINDS = ("create", "write", "replace", "unlink", "makedirs")
#: A temporary file beside its target: ``.NAME.PID.docgen-tmp`` (PID: digits, or ``PID``
#: where the process id is left out so that two builds' temporaries compare equal).
TEMPORARY = re.compile(rf"(?P<folder>(?:.*/)?)\.(?P<name>.+)\.(?:\d+|PID){re.escape(TMP_SUFFIX)}")
#: A page that exists only in the old tree (its outputs go stale) and one only in the new.
GONE_TEMPLATE = ("templates/gone.mdx.j2", '---\ntitle: "Gone"\n---\n\n{{ models_table() }}\n')
NEW_TEMPLATE = (
    "templates/hosts.mdx.j2",
    '---\ntitle: "Hosts"\n---\n\n{{ host_defaults_table() }}\n',
)


@dataclass(frozen=True)
class Point:
    kind: str
    path: str  # project-relative: the file created or written (a temporary), else the target

    @property
    def target(self) -> str:
        """The output this point writes or deletes."""
        match = TEMPORARY.fullmatch(self.path)
        return f"{match['folder']}{match['name']}" if match else self.path


@dataclass
class Scenario:
    root: Path
    old: Tree
    new: Tree
    outputs: list[str]  # paths whose old and new versions differ (absent counts)
    points: list[Point]  # every write point of one build from old to new, in order
    log: Path
    in_sync: str = ""  # what ``check`` prints on the new tree

    def restore_old(self) -> None:
        """Put back the old version of every output."""
        for path in self.outputs:
            target, data = self.root / path, self.old.get(path)
            if data is None:
                target.unlink(missing_ok=True)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
        assert snapshot(self.root) == self.old_tree()

    def old_tree(self) -> Tree:
        """The new inputs with the old outputs: what every killed build starts from."""
        tree = {p: data for p, data in self.new.items() if p not in self.outputs}
        tree.update({p: self.old[p] for p in self.outputs if p in self.old})
        return tree

    def killed_build(self, kill_at: int) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-c", DRIVER, str(kill_at), str(self.log)]
            + ["--root", str(self.root), "build", "-q"],
            capture_output=True,
            check=False,
        )

    def logged(self) -> list[Point]:
        cut = len(str(self.root)) + 1
        points = []
        for line in self.log.read_text("utf-8").splitlines():
            kind, path = line.split(" ", 1)
            points.append(Point(kind, _pid_free(path[cut:])))
        return points

    def expected_after_kill(self, kill_at: int) -> Tree:
        """The tree a kill at point ``kill_at`` must leave, temporaries named ``.NAME.PID``."""
        done, killed = self.points[: kill_at - 1], self.points[kill_at - 1]
        tree = self.old_tree()
        temporaries: dict[str, bytes] = {}
        for point in done:
            if point.kind == "create":
                temporaries[point.path] = b""
            elif point.kind == "write":
                temporaries[point.path] = self.new[point.target]
            elif point.kind == "replace":
                temporaries.pop(_temporary_of(point.path, temporaries))
                tree[point.path] = self.new[point.path]
            elif point.kind == "unlink":
                tree.pop(point.path, None)
        if killed.kind == "write":  # half of the bytes reached the temporary file
            data = self.new[killed.target]
            temporaries[killed.path] = data[: len(data) // 2]
        tree.update(temporaries)
        return tree


def _temporary_of(target: str, temporaries: dict[str, bytes]) -> str:
    (found,) = [p for p in temporaries if Point("create", p).target == target]
    return found


def _pid_free(path: str) -> str:
    match = TEMPORARY.fullmatch(path)
    return f"{match['folder']}.{match['name']}.PID{TMP_SUFFIX}" if match else path


def _copy_example(root: Path) -> None:
    root.mkdir()
    for name in ("profiles.yaml", "pyproject.toml"):
        shutil.copy(REPO / name, root / name)
    for folder in ("templates", "docs", "changelog"):
        shutil.copytree(REPO / folder, root / folder)


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    root = tmp_path_factory.mktemp("interrupt") / "example"
    _copy_example(root)
    (root / GONE_TEMPLATE[0]).write_text(GONE_TEMPLATE[1], "utf-8")
    assert docgen(root, "build", "-q").exit_code == 0
    old = snapshot(root)
    (root / GONE_TEMPLATE[0]).unlink()
    (root / NEW_TEMPLATE[0]).write_text(NEW_TEMPLATE[1], "utf-8")
    registry = root / "profiles.yaml"
    text = registry.read_text("utf-8")
    assert "max-num-seqs: 4\n" in text  # first in the DGX Spark profile
    registry.write_text(text.replace("max-num-seqs: 4\n", "max-num-seqs: 6\n", 1), "utf-8")
    inputs = {"profiles.yaml", GONE_TEMPLATE[0], NEW_TEMPLATE[0]}
    log = root.parent / "points.log"
    scene = Scenario(root, old, {}, [], [], log)
    counted = scene.killed_build(0)  # no kill: count the points
    assert (counted.returncode, counted.stderr) == (0, b"")
    scene.new = snapshot(root)
    changed = (set(old) | set(scene.new)) - inputs
    scene.outputs = sorted(p for p in changed if old.get(p) != scene.new.get(p))
    scene.points = scene.logged()
    checked = docgen(root, "check")
    assert checked.exit_code == 0
    assert re.fullmatch(r"\d+ generated files match the registry\n", checked.stdout)
    scene.in_sync = checked.stdout
    scene.restore_old()
    return scene


def test_the_build_passes_every_kind_of_write_point(scenario: Scenario) -> None:
    points, outputs = scenario.points, scenario.outputs
    new = [p for p in outputs if p not in scenario.old]
    stale = [p for p in outputs if p not in scenario.new]
    changed = [p for p in outputs if p in scenario.old and p in scenario.new]
    assert (len(new), len(changed), len(stale)) == (4, 9, 4)
    assert "docs/hosts.mdx" in new and "docs/gone.mdx" in stale
    assert "docs/inference/set-up-vllm.mdx" in changed and "docs/_build/registry.json" in changed
    # Each output is created, written and renamed into place, in that order; each stale
    # file is deleted; the folders come first.
    written = [p for p in points if p.kind != "makedirs"]
    assert points[: len(points) - len(written)] == [p for p in points if p.kind == "makedirs"]
    for path in [*new, *changed]:
        mine = [p.kind for p in written if p.target == path]
        assert mine == ["create", "write", "replace"], path
    assert [p.path for p in written if p.kind == "unlink"] == stale
    assert len(points) == len(written) + len({p.path for p in points if p.kind == "makedirs"})
    assert {p.kind for p in points} == set(KINDS)


@pytest.mark.parametrize("kind", KINDS)
def test_a_build_killed_at_any_write_point_leaves_every_file_old_or_new(
    scenario: Scenario, kind: str
) -> None:
    chosen = [n for n, p in enumerate(scenario.points, start=1) if p.kind == kind]
    assert chosen
    for kill_at in chosen:
        aimed = scenario.points[kill_at - 1]
        done = scenario.killed_build(kill_at)
        assert done.returncode == -signal.SIGKILL, (aimed, done.stderr.decode())
        assert scenario.logged() == scenario.points[:kill_at], aimed
        left = {_pid_free(p): data for p, data in snapshot(scenario.root).items()}
        assert len(left) == len(snapshot(scenario.root)), "two temporaries of one output"
        expected = scenario.expected_after_kill(kill_at)
        assert sorted(left) == sorted(expected), aimed
        torn = [p for p in expected if left[p] != expected[p]]
        assert torn == [], (aimed, torn)
        finish(scenario)
        scenario.restore_old()


def finish(scenario: Scenario) -> None:
    """The next build completes the job and leaves nothing behind; check agrees."""
    assert docgen(scenario.root, "build", "-q").exit_code == 0
    assert snapshot(scenario.root) == scenario.new
    assert sorted(scenario.root.rglob(f"*{TMP_SUFFIX}")) == []
    result = docgen(scenario.root, "check")
    assert (result.exit_code, result.stdout) == (0, scenario.in_sync)


def test_atomic_writes_keep_the_usual_file_mode(
    make_project: Callable[..., Project], run: Callable[..., Outcome]
) -> None:
    umask = os.umask(0o022)
    os.umask(umask)
    usual = 0o666 & ~umask
    project = make_project()
    assert run(project, "build").exit_code == 0
    page = project.root / "docs" / "models.mdx"
    assert page.stat().st_mode & 0o777 == usual
    page.chmod(0o644)
    project.edit("profiles.yaml", "max-num-seqs: 2", "max-num-seqs: 3")
    assert run(project, "build").exit_code == 0
    assert page.stat().st_mode & 0o777 == 0o644
