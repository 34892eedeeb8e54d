"""What docgen reads from git: the older registry of ``--since`` and the files the
changelog gate counts, with the exact error for each way git can fail."""

from __future__ import annotations

import subprocess

import pytest
from conftest import MINIMAL_REGISTRY

GIT_USER = ("-c", "user.email=a@b", "-c", "user.name=a")


def git(project, *args: str) -> None:
    subprocess.run(["git", *GIT_USER, *args], cwd=project.root, check=True, capture_output=True)


@pytest.fixture
def committed(make_project, run):
    """A built project whose every file is committed as HEAD."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    git(project, "init", "-q")
    git(project, "add", ".")
    git(project, "commit", "-qm", "base")
    return project


def tuned(project) -> None:
    """A registry change the changelog must mention (gpu-memory-utilization 0.5 -> 0.6)."""
    project.edit("profiles.yaml", "gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")


def test_since_outside_a_git_repository(make_project, run):
    project = make_project()
    result = run(project, "diff", "--since", "HEAD")
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "--since: error: cannot read a git repository: fatal: not a git repository"
    )
    # what to do about it (a new user's first release, before any commit)
    assert result.stderr.endswith(
        " (the project is in no git repository yet: `git init`, then commit the registry)\n"
    )


def test_since_a_revision_without_the_registry(committed, run):
    committed.write("other.yaml", MINIMAL_REGISTRY)
    result = run(committed, "--registry", "other.yaml", "diff", "--since", "HEAD")
    assert result.exit_code == 2
    assert result.stderr == (
        "--since: error: other.yaml at revision 'HEAD' did not exist: there is no older "
        "registry to compare with\n"
    )


def test_since_without_git_installed(committed, run, monkeypatch):
    monkeypatch.setenv("PATH", str(committed.root / "no-such-folder"))
    result = run(committed, "diff", "--since", "HEAD")
    assert result.exit_code == 2
    assert result.stderr == "--since: error: git is not installed\n"


def test_since_reads_the_registry_as_committed_not_as_on_disk(committed, run):
    tuned(committed)
    result = run(committed, "diff", "--since", "HEAD")
    assert result.exit_code == 0
    assert result.stdout == (
        "profiles.yaml:40:7: arg-changed vllm.box.tiny gpu-memory-utilization: 0.5 -> 0.6\n"
        "1 semantic change\n"
    )


def gate(project, run):
    return run(project, "check", "--changelog-since", "HEAD")


GATE_ERROR = (
    "profiles.yaml:40:7: error: the registry changed since HEAD (1 semantic change) but "
    "there is no new changelog entry or note in changelog.d/: run `docgen changelog` or "
    "add a note"
)


def test_gate_fails_when_only_the_generated_pages_changed(committed, run):
    """Rebuilt pages are .mdx files that changed since the revision, but not changelog
    entries: only the changelog folder counts."""
    tuned(committed)
    assert run(committed, "build").exit_code == 0
    result = gate(committed, run)
    assert result.exit_code == 1
    assert GATE_ERROR in result.stdout


def test_gate_fails_with_only_an_old_committed_entry(committed, run):
    """An entry that was already there at the revision is not a new one."""
    committed.write("changelog/2026-01-01.mdx", entry("v0.0.1"))
    git(committed, "add", ".")
    git(committed, "commit", "-qm", "first release")
    tuned(committed)
    assert run(committed, "build").exit_code == 0
    result = gate(committed, run)
    assert result.exit_code == 1
    assert GATE_ERROR in result.stdout


def test_gate_passes_with_an_entry_committed_since_the_revision(committed, run):
    tuned(committed)
    assert run(committed, "build").exit_code == 0
    assert run(committed, "changelog", "--since", "HEAD", "--version", "v0.0.1").exit_code == 0
    git(committed, "add", ".")
    git(committed, "commit", "-qm", "release")
    result = run(committed, "check", "--changelog-since", "HEAD~1")
    assert result.exit_code == 0, result.output


def test_gate_passes_with_a_new_entry_not_yet_committed(committed, run):
    tuned(committed)
    assert run(committed, "build").exit_code == 0
    assert run(committed, "changelog", "--since", "HEAD", "--version", "v0.0.1").exit_code == 0
    assert gate(committed, run).exit_code == 0


def test_gate_ignores_an_entry_git_ignores(committed, run):
    committed.write(".gitignore", "changelog/2099-*.mdx\n")
    committed.write("changelog/2099-01-01.mdx", entry("v9.0.0"))
    tuned(committed)
    assert run(committed, "build").exit_code == 0
    result = gate(committed, run)
    assert result.exit_code == 1
    assert GATE_ERROR in result.stdout


def entry(version: str) -> str:
    """A dated entry that passes every history rule of the minimal project."""
    return (
        "{/*\n * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.\n"
        " * SPDX-License-Identifier: Apache-2.0\n */}\n\n"
        f"## {version}\n\nAcme {version} is a release.\n"
    )


def test_a_since_file_linked_out_of_the_root_is_refused_unread(make_project, run, tmp_path):
    """A link in the tree is untrusted: one that leads out is not read through. A file
    outside the root named on the command line is the user's own choice, and is read."""
    outside = tmp_path / "outside.yaml"
    outside.write_text("aws_secret_access_key: hunter2\n", "utf-8")
    project = make_project()
    (project.root / "old.yaml").symlink_to(outside)
    result = run(project, "diff", "--since-file", "old.yaml")
    assert result.exit_code == 2
    assert result.stderr == (
        "old.yaml: error: the registry is a symbolic link that leaves the project root; "
        "docgen reads only files inside it\n"
    )
    assert "aws_secret_access_key" not in result.output
    outside.write_text(MINIMAL_REGISTRY, "utf-8")
    named = run(project, "diff", "--since-file", str(outside))
    assert (named.exit_code, named.stdout) == (0, "0 semantic changes\n")


def test_a_second_release_of_the_same_changes_is_noted(committed, run):
    """The same command run twice (another version, another day): the second release says
    that the changes since HEAD were already released."""
    tuned(committed)
    assert run(committed, "build").exit_code == 0
    first = run(committed, "changelog", "--version", "v1.0.0", "--since", "HEAD", "--date",
                "2026-01-02")  # fmt: skip
    assert first.exit_code == 0 and "note" not in first.output, first.output
    second = run(committed, "changelog", "--version", "v1.0.1", "--since", "HEAD", "--date",
                 "2026-01-03")  # fmt: skip
    assert second.exit_code == 0, second.output
    assert second.stdout.splitlines()[-1] == (
        "--since: note: v1.0.0 already released changes since HEAD; this release describes "
        "them again (give --since the revision of that release)"
    )
