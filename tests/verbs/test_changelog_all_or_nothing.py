"""`docgen changelog` writes the entry, what is generated from the entries and the merged
notes' removal as one lot: a write that fails part way leaves the tree as it was."""

from __future__ import annotations

import errno
import os
from typing import Any

import pytest
from conftest import MINIMAL_REGISTRY

from docgen.io import writes

OLD = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.4")
RELEASE = ("changelog", "--since-file", "old.yaml", "--version", "v1.0.0", "--date", "2026-01-03")
NOTE = "changelog.d/tuned.md"


def tree(root) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".docgen-cache" not in p.parts
    }


def released_project(make_project, run):
    project = make_project(files={"old.yaml": OLD, NOTE: "- Tuned the memory share.\n"})
    assert run(project, "build").exit_code == 0
    return project


def test_a_release_writes_the_entry_and_the_overview_and_removes_the_note(make_project, run):
    project = released_project(make_project, run)
    before = tree(project.root)
    result = run(project, *RELEASE)
    assert result.exit_code == 0, result.output
    after = tree(project.root)
    assert NOTE in before and NOTE not in after
    assert "changelog/2026-01-03.mdx" in after and "changelog/2026-01-03.mdx" not in before
    assert b"Tuned the memory share." in after["changelog/2026-01-03.mdx"]
    assert run(project, "check").exit_code == 0


@pytest.mark.parametrize(("name", "at"), [("replace", 1), ("replace", 2), ("unlink", 1)])
def test_a_release_whose_write_fails_changes_nothing(make_project, run, monkeypatch, name, at):
    """The entry's rename, the overview's, or the note's removal fails: the entry is not
    left behind and the note is still there."""
    project = released_project(make_project, run)
    before = tree(project.root)
    calls: list[str] = []

    real = getattr(os, name)

    def failing(*args: Any, **kwargs: Any) -> Any:
        calls.append(os.fspath(args[-1]))
        if len(calls) == at:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(*args, **kwargs)

    class Failing:
        def __getattr__(self, attribute: str) -> Any:
            return failing if attribute == name else getattr(os, attribute)

    monkeypatch.setattr(writes, "os", Failing())
    result = run(project, *RELEASE)
    assert result.exit_code == 2, result.output
    assert "No space left on device" in result.stderr
    assert tree(project.root) == before
