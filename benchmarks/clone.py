"""What docs CI sees: ``docgen check`` in a fresh ``git clone`` of the committed, built
corpus, with no ``.docgen-cache/`` and no cache key for this user.

The built corpus is committed once (docs included, docgen's cache left out); every timed
run gets its own clone, made and flushed to disk before the clock starts, as shallow as
``actions/checkout`` makes it. The run's ``XDG_CACHE_HOME`` is an empty folder, so the
user's cache key (``$XDG_CACHE_HOME/docgen/cache-key``, see ``docgen/cache.py``) is
absent; ``check`` must leave that folder empty and the clone without a cache.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from harness import Bench, Figure, edit_registry, execute, expect, timed

CACHE = ".docgen-cache"
#: Settings for the setup's own git commands: no identity, signing or hook of the user's.
GIT = (
    "git",
    "-c",
    "user.name=docgen benchmark",
    "-c",
    "user.email=benchmark@example.invalid",
    "-c",
    "commit.gpgsign=false",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "init.defaultBranch=main",
)
FRESH = "`check` on a fresh clone (no cache, no key)"
FRESH_RSS = "peak RSS, `check` on a fresh clone"
FRESH_EDIT = "`check` after one registry edit, fresh clone (exit 1)"
FRESH_EDIT_RSS = "peak RSS, `check` after one registry edit, fresh clone"


def git(cwd: Path, *args: str) -> None:
    expect(execute([*GIT, *args], cwd=cwd), 0, f"git {args[0]} in {cwd}")


def commit_corpus(built: Path, origin: Path) -> Path:
    """A git repository holding ``built`` (docs included, its cache not), in one commit."""
    if origin.exists():
        shutil.rmtree(origin)
    shutil.copytree(built, origin, symlinks=True, ignore=shutil.ignore_patterns(CACHE))
    git(origin, "init", "-q")
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "corpus, built")
    return origin


def fresh_clone(origin: Path, dest: Path) -> Path:
    """A shallow clone of ``origin`` at ``dest``, flushed to disk; it holds no cache."""
    git(origin.parent, "clone", "-q", "--depth", "1", origin.resolve().as_uri(), str(dest))
    if (dest / CACHE).exists():
        raise SystemExit(f"{dest / CACHE} came with the clone")
    os.sync()
    return dest


def keyless(folder: Path) -> dict[str, str]:
    """This environment with an empty ``XDG_CACHE_HOME``: no cache key for the user."""
    folder.mkdir(parents=True, exist_ok=True)
    if any(folder.iterdir()):
        raise SystemExit(f"{folder} is not empty")
    return {**os.environ, "XDG_CACHE_HOME": str(folder)}


def still_keyless(folder: Path, clone: Path) -> None:
    """``check`` wrote no key and no cache: the next run starts as this one did."""
    if any(folder.iterdir()) or (clone / CACHE).exists():
        raise SystemExit(f"`check` in {clone} left a cache key or a cache behind")


def fresh_checks(bench: Bench, origin: Path) -> Figure:
    """``check`` in a new clone per run (clone time not counted): must exit 0."""
    figure = timed(FRESH, FRESH_RSS)
    for index in bench.runs(bench.repeat, figure):
        clone = fresh_clone(origin, bench.work / f"clone-{index}")
        home = bench.work / f"no-key-{index}"
        sample = execute(bench.docgen(clone, "check", "-q"), env=keyless(home))
        figure.add(expect(sample, 0, "check on a fresh clone"))
        still_keyless(home, clone)
    return figure


def fresh_edited_checks(bench: Bench, origin: Path) -> Figure:
    """``check`` in a new clone per run with one registry edit, not committed (clone and
    edit not counted): must exit 1 and name the edited profile's page."""
    figure = timed(FRESH_EDIT, FRESH_EDIT_RSS)
    for index in bench.runs(bench.repeat, figure):
        clone = fresh_clone(origin, bench.work / f"clone-edited-{index}")
        profile = edit_registry(clone / "profiles.yaml")
        os.sync()
        home = bench.work / f"no-key-edited-{index}"
        sample = execute(bench.docgen(clone, "check", "-q"), env=keyless(home))
        figure.add(expect(sample, 1, "check after edit on a fresh clone"))
        if profile not in sample.output:
            raise SystemExit(f"check after editing {profile} in {clone} did not report its page")
        still_keyless(home, clone)
    return figure


def clone_figures(bench: Bench, built: Path) -> tuple[Figure, Figure]:
    """Commit ``built``, then time both checks on fresh clones of it."""
    origin = commit_corpus(built, bench.work / "origin")
    return fresh_checks(bench, origin), fresh_edited_checks(bench, origin)
