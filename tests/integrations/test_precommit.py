"""The README's pre-commit recipe, judged by the real ``pre-commit`` tool.

``pre-commit try-repo`` installs this repository's hooks (``.pre-commit-hooks.yaml``)
the way a docs repository's ``.pre-commit-config.yaml`` would: it clones the repository,
pip-installs it into a hook environment of its own and runs the hook's entry. The hook
environment is cached under ``$PRE_COMMIT_HOME`` (``.ci/run`` keeps it between runs);
the first install fetches docgen's dependencies from the package index.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, Project

GIT_ENV = {
    "GIT_AUTHOR_NAME": "docs",
    "GIT_AUTHOR_EMAIL": "docs@example.invalid",
    "GIT_COMMITTER_NAME": "docs",
    "GIT_COMMITTER_EMAIL": "docs@example.invalid",
}


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> str:
    return os.environ.get("PRE_COMMIT_HOME") or str(tmp_path_factory.mktemp("pre-commit"))


def try_repo(docs: Path, home: str) -> subprocess.CompletedProcess[str]:
    """``pre-commit try-repo <this repository> docgen-check --all-files`` in ``docs``."""
    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": home, "PRE_COMMIT_COLOR": "never"}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "docgen-check", "--all-files"],
        cwd=docs,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def git(docs: Path, *args: str) -> None:
    env = {**os.environ, **GIT_ENV}
    subprocess.run(["git", *args], cwd=docs, env=env, check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")
def test_docgen_check_hook_passes_in_sync_and_fails_after_a_registry_edit(
    example: Project, pre_commit_home: str
) -> None:
    docs = example.root
    git(docs, "init", "-q")
    git(docs, "add", "-A")
    git(docs, "commit", "-q", "-m", "docs")

    in_sync = try_repo(docs, pre_commit_home)
    assert in_sync.returncode == 0, in_sync.stdout + in_sync.stderr
    assert "docgen check" in in_sync.stdout
    assert "Passed" in in_sync.stdout

    registry = docs / "profiles.yaml"
    text = registry.read_text("utf-8")
    assert "max-num-seqs: 4\n" in text
    registry.write_text(text.replace("max-num-seqs: 4\n", "max-num-seqs: 6\n", 1), "utf-8")
    drifted = try_repo(docs, pre_commit_home)
    assert drifted.returncode == 1, drifted.stdout + drifted.stderr
    assert "Failed" in drifted.stdout
    assert "- exit code: 1" in drifted.stdout  # drift, not a crash or an input error
    assert "generated files are out of sync with the registry: run `docgen build`" in drifted.stdout
    assert "-  --max-num-seqs 4 \\\n+  --max-num-seqs 6 \\\n" in drifted.stdout  # the diff itself


@pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")
def test_the_hook_checks_a_project_in_a_subfolder_with_a_registry_of_its_own_name(
    example: Project, pre_commit_home: str, tmp_path: Path
) -> None:
    """A monorepo: the project in ``site/`` (``args: [--root, site]``), its registry
    renamed; a staged edit of that registry alone must run the hook, and fail it."""
    repo = tmp_path / "mono"
    shutil.copytree(example.root, repo / "site")
    (repo / "site/profiles.yaml").rename(repo / "site/serving.yaml")
    settings = repo / "site/pyproject.toml"
    text = settings.read_text("utf-8")
    settings.write_text(text.replace('registry = "profiles.yaml"', 'registry = "serving.yaml"'))
    rev = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.strip()
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {REPO}\n    rev: {rev}\n    hooks:\n"
        "      - id: docgen-check\n        args: [--root, site]\n",
        "utf-8",
    )
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "docs")
    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": pre_commit_home, "PRE_COMMIT_COLOR": "never"}

    def hook() -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "pre_commit", "run", "docgen-check"]
        return subprocess.run(
            command, cwd=repo, env=env, capture_output=True, text=True, timeout=900
        )

    registry = repo / "site/serving.yaml"
    registry.write_text(
        registry.read_text("utf-8").replace("max-num-seqs: 4\n", "max-num-seqs: 6\n", 1)
    )
    git(repo, "add", "site/serving.yaml")
    drifted = hook()
    assert drifted.returncode == 1, drifted.stdout + drifted.stderr
    assert "- exit code: 1" in drifted.stdout
    assert "-  --max-num-seqs 4 \\\n+  --max-num-seqs 6 \\\n" in drifted.stdout
