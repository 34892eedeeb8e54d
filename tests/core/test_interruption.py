"""Nothing half written: a build killed with SIGKILL at any write point leaves old or new files.

The worked example is built once ("old"), then its inputs are edited so that a build
creates, rewrites and deletes files and makes folders ("new"). A driver runs ``docgen
build`` in a child process with the primitives ``docgen.io.writes`` writes through
wrapped: creating a temporary file (``os.open``), writing it (``os.write``), keeping a
hard link to a file about to be replaced or deleted (``os.link``), renaming a temporary
into place (``os.replace``), deleting a file (``os.unlink``) and making a folder
(``os.makedirs``). Each call is a numbered write point; the child logs it and, at the
point it was told, SIGKILLs itself: before the call, or, for a write, after writing half
of the bytes (a torn temporary file). No clock is involved: the kill lands exactly where
it was aimed, so the outcome is the same on every run and on any machine.

One uninterrupted build counts the points, and shows the staging discipline: each page's
text staged in docgen's staging folder (which git ignores, never beside an output) as
soon as it is rendered, then the folders, the texts made once every page is rendered (the
export) and a hard link to each file to replace or delete, then the renames and
deletions, then the kept old files dropped, and last the plan cache. Then the build is
killed at every point in turn, and each time the tree (with the staging folder's files)
must be exactly what the points before the kill made of it: every output old or new in
full, the only other files the staged temporaries, each holding what was written to it,
and the kept old files. The next build must finish the job: the new tree, nothing left in
the staging folder or beside an output, ``check`` in sync. The old outputs and the old
plan cache are then put back for the next kill.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import REPO, Outcome, Project
from scale import CACHE, Tree, docgen, snapshot

from docgen.io.writes import OLD_SUFFIX, STAGING, TMP_SUFFIX

#: Runs the docgen command line with ``docgen.io.writes``' file primitives wrapped: each call
#: is logged as ``KIND<TAB>PATH<TAB>SOURCE`` and the one numbered ``kill_at`` (from 1; 0:
#: none) SIGKILLs the process, before the call or, for a write, after half of its bytes.
DRIVER = """\
import os
import signal
import sys

import docgen.io.writes

kill_at, log_path = int(sys.argv.pop(1)), sys.argv.pop(1)
# What this follows is the project's writes: not the templates' code kept in the user's
# cache folder (written the same way, sealed, and tested in tests/render/test_compiled.py).
os.environ["DOCGEN_NO_TEMPLATE_CACHE"] = "1"
log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
count = 0
temporaries = {}  # fd -> path of the temporary file open on it


def point(kind, path, source=""):
    global count
    count += 1
    os.write(log, f"{kind}\\t{os.fspath(path)}\\t{os.fspath(source)}\\n".encode())
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

    def link(self, src, dst, **kwargs):
        if point("link", dst, src):
            die()
        return os.link(src, dst, **kwargs)

    def replace(self, src, dst, **kwargs):
        if point("replace", dst, src):
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
KINDS = ("create", "write", "link", "replace", "unlink", "makedirs")
#: Where new texts and kept old files are staged: ``PID-N.docgen-tmp`` / ``PID-N.docgen-old``.
STAGED = f"{CACHE}/{STAGING}/"
#: A staged file, or a temporary beside its target (``.NAME.PID.docgen-tmp``, the plan
#: cache's); PID is digits, or ``PID`` where the process id is left out so that two
#: builds' files compare equal.
TEMPORARY = re.compile(
    rf"(?P<folder>(?:.*/)?)(?:(?P<pid>\d+|PID)-(?P<n>\d+)|\.(?P<name>.+)\.(?:\d+|PID))"
    rf"(?P<suffix>{re.escape(TMP_SUFFIX)}|{re.escape(OLD_SUFFIX)})"
)
#: A page that exists only in the old tree (its outputs go stale) and one only in the new,
#: in a folder of its own (its outputs' folders are made).
GONE_TEMPLATE = ("templates/gone.mdx.j2", '---\ntitle: "Gone"\n---\n\n{{ models_table() }}\n')
NEW_TEMPLATE = (
    "templates/fleet/hosts.mdx.j2",
    '---\ntitle: "Hosts"\n---\n\n{{ host_defaults_table() }}\n',
)


@dataclass(frozen=True)
class Point:
    kind: str
    path: str  # project-relative: the file created, written, linked to, renamed to or deleted
    source: str = ""  # what was linked or renamed

    @property
    def cache(self) -> bool:
        """A write of the plan cache (docgen's own folder, outside the staging folder)."""
        return self.path.startswith(f"{CACHE}/") and not self.path.startswith(STAGED)

    @property
    def staged(self) -> bool:
        return self.path.startswith(STAGED)


def _tree(root: Path) -> Tree:
    """Every file under ``root`` but the plan cache, the staging folder's files included."""
    tree = snapshot(root)
    staging = root / STAGED
    if staging.is_dir():
        tree.update({f"{STAGED}{p.name}": p.read_bytes() for p in sorted(staging.iterdir())})
    return tree


@dataclass
class Scenario:
    root: Path
    old: Tree
    new: Tree
    outputs: list[str]  # paths whose old and new versions differ (absent counts)
    points: list[Point]  # every write point of one build from old to new, in order
    log: Path
    cache: Tree = field(default_factory=dict)  # the old plan cache, put back before each kill
    folders: set[str] = field(default_factory=set)  # the old tree's folders
    in_sync: str = ""  # what ``check`` prints on the new tree

    def restore_old(self) -> None:
        """Put back the old version of every output, the old folders and the old cache."""
        for path in self.outputs:
            target, data = self.root / path, self.old.get(path)
            if data is None:
                target.unlink(missing_ok=True)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
        for folder in sorted(_folders(self.root) - self.folders, reverse=True):
            (self.root / folder).rmdir()
        shutil.rmtree(self.root / CACHE)
        for name, data in self.cache.items():
            (self.root / CACHE / name).parent.mkdir(parents=True, exist_ok=True)
            (self.root / CACHE / name).write_bytes(data)
        assert _tree(self.root) == self.old_tree()

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
            kind, path, source = line.split("\t")
            points.append(Point(kind, _pid_free(path[cut:]), _pid_free(source[cut:])))
        return points

    def target_of(self, temporary: str) -> str:
        """The output the staged temporary ``temporary`` is renamed to."""
        (target,) = [p.path for p in self.points if p.kind == "replace" and p.source == temporary]
        return target

    def expected_after_kill(self, kill_at: int) -> Tree:
        """The tree a kill at point ``kill_at`` must leave, staged names ``PID-N``."""
        done, killed = self.points[: kill_at - 1], self.points[kill_at - 1]
        tree = self.old_tree()
        for point in done:
            if point.cache:
                continue
            if point.kind == "create":
                tree[point.path] = b""
            elif point.kind == "write":
                tree[point.path] = self.new[self.target_of(point.path)]
            elif point.kind == "link":  # the file about to be replaced or deleted, kept
                tree[point.path] = tree[point.source]
            elif point.kind == "replace":
                tree[point.path] = tree.pop(point.source)
            elif point.kind == "unlink":
                tree.pop(point.path)
        if killed.kind == "write" and not killed.cache:  # half the bytes reached the file
            data = self.new[self.target_of(killed.path)]
            tree[killed.path] = data[: len(data) // 2]
        return tree


def _pid_free(path: str) -> str:
    """``path`` with the process id left out, and the plan cache's key (docgen's own code
    is part of it, so it may change between two runs while docgen is being edited)."""
    path = re.sub(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])", "DIGEST", path)
    match = TEMPORARY.fullmatch(path)
    if match is None:
        return path
    if match["n"] is not None:
        return f"{match['folder']}PID-{match['n']}{match['suffix']}"
    return f"{match['folder']}.{match['name']}.PID{match['suffix']}"


def _folders(root: Path) -> set[str]:
    """The folders under ``root``, docgen's own folder left out."""
    found = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_dir()}
    return {f for f in found if f != CACHE and not f.startswith(f"{CACHE}/")}


def _copy_example(root: Path) -> None:
    root.mkdir()
    for name in ("profiles.yaml", "pyproject.toml"):
        shutil.copy(REPO / name, root / name)
    for folder in ("templates", "docs", "changelog"):
        shutil.copytree(REPO / folder, root / folder)
    # Without the navigation every page gets a variant per agent: the new and gone pages
    # below then write and prune variants too, without listing them there.
    (root / "docs/index.yml").unlink()


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    root = tmp_path_factory.mktemp("interrupt") / "example"
    _copy_example(root)
    (root / GONE_TEMPLATE[0]).write_text(GONE_TEMPLATE[1], "utf-8")
    assert docgen(root, "build", "-q").exit_code == 0
    old = snapshot(root)
    cache = {p.relative_to(root / CACHE).as_posix(): p.read_bytes() for p in _files(root / CACHE)}
    entry = sorted(n for n in cache if n.endswith((".pickle", ".partials")))
    assert [n.rsplit(".", 1)[1] for n in entry] == ["partials", "pickle"]  # one entry
    assert sorted(cache) == [".gitignore", *entry, "stamps"]  # stamps: docgen.stamps
    (root / GONE_TEMPLATE[0]).unlink()
    (root / NEW_TEMPLATE[0]).parent.mkdir()
    (root / NEW_TEMPLATE[0]).write_text(NEW_TEMPLATE[1], "utf-8")
    registry = root / "profiles.yaml"
    text = registry.read_text("utf-8")
    assert "max-num-seqs: 4\n" in text  # first in the DGX Spark profile
    registry.write_text(text.replace("max-num-seqs: 4\n", "max-num-seqs: 6\n", 1), "utf-8")
    inputs = {"profiles.yaml", GONE_TEMPLATE[0], NEW_TEMPLATE[0]}
    log = root.parent / "points.log"
    scene = Scenario(root, old, {}, [], [], log, cache, _folders(root))
    counted = scene.killed_build(0)  # no kill: count the points
    assert (counted.returncode, counted.stderr) == (0, b"")
    scene.new = _tree(root)
    changed = (set(old) | set(scene.new)) - inputs
    scene.outputs = sorted(p for p in changed if old.get(p) != scene.new.get(p))
    scene.points = scene.logged()
    checked = docgen(root, "check")
    assert checked.exit_code == 0
    assert re.fullmatch(r"\d+ generated files match the registry\n", checked.stdout)
    scene.in_sync = checked.stdout
    scene.restore_old()
    return scene


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def _phase(point: Point) -> int:
    """0: staged (a text, a folder made, a file kept); 1: renamed into place or deleted;
    2: a kept old file dropped once all is done."""
    if point.kind in ("makedirs", "create", "write", "link"):
        return 0
    return 2 if point.staged else 1


def test_the_build_stages_everything_before_it_renames_anything(scenario: Scenario) -> None:
    outputs = scenario.outputs
    new = [p for p in outputs if p not in scenario.old]
    stale = [p for p in outputs if p not in scenario.new]
    changed = [p for p in outputs if p in scenario.old and p in scenario.new]
    assert (len(new), len(changed), len(stale)) == (4, 9, 4)
    assert "docs/fleet/hosts.mdx" in new and "docs/gone.mdx" in stale
    assert "docs/inference/set-up-vllm.mdx" in changed and "docs/_build/registry.json" in changed
    points = [p for p in scenario.points if not p.cache]
    # The plan cache is written last, in docgen's own folder.
    assert scenario.points[len(points) :] == [p for p in scenario.points if p.cache]
    # Everything staged, then the renames and deletions, then the kept old files dropped:
    # nothing is renamed into place before all is staged.
    assert [_phase(p) for p in points] == sorted(_phase(p) for p in points)
    made = [p.path for p in points if p.kind == "makedirs"]
    assert made == sorted({str(Path(p).parent) for p in new if Path(p).parent.name == "fleet"})
    # Each page's text is staged as soon as it is rendered, before the write makes its
    # folder; the export, made once every page is rendered, is staged with the write.
    first_folder = next(n for n, p in enumerate(points) if p.kind == "makedirs")
    early = {scenario.target_of(p.path) for p in points[:first_folder] if p.kind == "create"}
    assert early == {*new, *changed} - {"docs/_build/registry.json"}
    # Each new text is staged in the staging folder (never beside an output), then renamed.
    for path in [*new, *changed]:
        (rename,) = [p for p in points if p.kind == "replace" and p.path == path]
        assert rename.source.startswith(STAGED), path
        assert [p.kind for p in points if p.path == rename.source] == ["create", "write"], path
    # Each file replaced or deleted is kept (a hard link) until the end, to undo a failure.
    for path in [*changed, *stale]:
        (kept,) = [p for p in points if p.kind == "link" and p.source == path]
        assert kept.staged, path
        assert [p.kind for p in points if p.path == kept.path] == ["link", "unlink"], path
    assert not [p for p in points if p.kind == "link" and p.source in new]
    assert sorted(p.path for p in points if p.kind == "unlink" and not p.staged) == stale
    assert all(p.staged or p.path in outputs or p.kind == "makedirs" for p in points)
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
        tree = _tree(scenario.root)
        left = {_pid_free(p): data for p, data in tree.items()}
        assert len(left) == len(tree), "two temporaries of one output"
        expected = scenario.expected_after_kill(kill_at)
        assert sorted(left) == sorted(expected), aimed
        torn = [p for p in expected if left[p] != expected[p]]
        assert torn == [], (aimed, torn)
        finish(scenario)
        scenario.restore_old()


def finish(scenario: Scenario) -> None:
    """The next build completes the job and leaves nothing behind; check agrees."""
    assert docgen(scenario.root, "build", "-q").exit_code == 0
    assert _tree(scenario.root) == scenario.new
    left = [*scenario.root.rglob(f"*{TMP_SUFFIX}"), *scenario.root.rglob(f"*{OLD_SUFFIX}")]
    assert left == []
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
