"""Shared fixtures: projects built from data in tmp_path, a CLI runner, tree snapshots."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from docgen.cli import cli

REPO = Path(__file__).resolve().parent.parent

# The bad-input corpus's shared runner asserts: rewrite it so a failure shows both sides.
pytest.register_assert_rewrite("bad_input_cases")

MINIMAL_REGISTRY = """\
schema: 1
product:
  name: Acme
  cli_token: $$acme
  model_env: ACME_MODEL
  extra_args_env: ACME_EXTRA_ARGS_JSON
  docs_base: /guide/{agent}
  spdx:
    copyright: Copyright (c) 2026 Acme Inc.
    license: Apache-2.0
agents:
  - id: alpha
    title: Acme for Alpha
    cli: acme
    default: true
  - id: beta
    title: Acme for Beta
    cli: acme-beta
hosts:
  box: {name: Big Box, arch: amd64}
images:
  img:
    ref: example.org/vllm:1.0
    digest: sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
    compressed_bytes: 1234567890
    platform: linux/amd64
models:
  tiny:
    hf: acme/Tiny-1B
    label: Tiny 1B
    notes: Box default.
profiles:
  vllm.box.tiny:
    model: tiny
    host: box
    default: true
    image: img
    args:
      max-model-len: 32768
      gpu-memory-utilization: 0.5
      max-num-seqs: 2
      enable-prefix-caching: true
    overrides:
      small:
        summary: Use less memory.
        args:
          gpu-memory-utilization: 0.3
        tradeoffs:
          - It lowers throughput.
"""

MINIMAL_TEMPLATE = """\
---
title: "Models"
---

{{ models_table() }}

{% for p in profiles %}
{{ serve_command(p) | code_block("bash") }}
{% endfor %}
"""


#: ``docgen changelog`` for v0.1.0 on 2026-12-01 from ``old.yaml``, printed, not written.
CHANGELOG_DRY_RUN = (
    "changelog",
    "--since-file",
    "old.yaml",
    "--version",
    "v0.1.0",
    "--date",
    "2026-12-01",
    "--dry-run",
)


@dataclass
class Project:
    root: Path

    def write(self, relative: str, text: str) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text) if text.startswith("\n") else text, "utf-8")
        return path

    def read(self, relative: str) -> str:
        return (self.root / relative).read_text("utf-8")

    def edit(self, relative: str, old: str, new: str) -> None:
        text = self.read(relative)
        assert old in text, f"{old!r} not in {relative}"
        self.write(relative, text.replace(old, new, 1))

    def snapshot(self) -> dict[str, str]:
        """Path -> sha256 of every file under the root (to prove nothing changed)."""
        return {
            p.relative_to(self.root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(self.root.rglob("*"))
            if p.is_file()
        }


@pytest.fixture(autouse=True, scope="session")
def _own_cache_key(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Keep the plan cache's key (docgen/cache-key) out of the real ~/.cache."""
    import os

    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    # In GitHub Actions the text reports add stop-commands markers; tests that want them
    # set GITHUB_ACTIONS themselves (tests/test_report_actions_stop_commands.py).
    os.environ.pop("GITHUB_ACTIONS", None)


@pytest.fixture
def make_project(tmp_path: Path) -> Callable[..., Project]:
    """Factory: a project with a registry and templates (defaults: a minimal one)."""

    def make(
        registry: str | None = MINIMAL_REGISTRY,
        templates: dict[str, str] | None = None,
        files: dict[str, str] | None = None,
    ) -> Project:
        project = Project(tmp_path / "proj")
        project.root.mkdir()
        if registry is not None:
            project.write("profiles.yaml", registry)
        for name, text in (
            templates if templates is not None else {"models.mdx.j2": MINIMAL_TEMPLATE}
        ).items():
            project.write(f"templates/{name}", text)
        for name, text in (files or {}).items():
            project.write(name, text)
        return project

    return make


@pytest.fixture
def example(tmp_path: Path) -> Project:
    """A copy of this repository's worked example (registry, templates, docs)."""
    root = tmp_path / "example"
    root.mkdir()
    for name in ("profiles.yaml", "pyproject.toml"):
        shutil.copy(REPO / name, root / name)
    for folder in ("templates", "docs", "changelog"):
        if (REPO / folder).is_dir():
            shutil.copytree(REPO / folder, root / folder)
    return Project(root)


@dataclass(frozen=True)
class Outcome:
    """What one in-process docgen run printed, the same on every click release allowed."""

    exit_code: int
    stdout: str
    stderr: str
    output: str  # stdout and stderr together
    exception: BaseException | None


def invoke_cli(args: list[str]) -> Outcome:
    """Run the docgen CLI in-process with stdout and stderr kept apart.

    click 8.2 always keeps them apart (``output`` holds both, interleaved) and has no
    ``mix_stderr``; click 8.1 mixes them unless told not to, and its ``output`` is then
    stdout alone, so both are joined here.
    """
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:  # click 8.2 and later
        runner = CliRunner()
    result = runner.invoke(cli, args, catch_exceptions=False, prog_name="docgen")
    both = result.output if runner_mixes_output(result) else result.stdout + result.stderr
    return Outcome(result.exit_code, result.stdout, result.stderr, both, result.exception)


def runner_mixes_output(result: object) -> bool:
    """Whether this click's ``Result.output`` already holds stderr too (8.2 and later)."""
    return hasattr(result, "output_bytes")


@pytest.fixture
def run() -> Callable[..., Outcome]:
    """Run the docgen CLI in-process: ``run(project, "check")``."""

    def invoke(project: Project, *args: str) -> Outcome:
        return invoke_cli(["--root", str(project.root), *args])

    return invoke


def git(root: Path | str, *args: str) -> None:
    """Run git in ``root`` as a fixed author, failing the test on an error."""
    who = ["-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run(["git", *who, *args], cwd=root, check=True, capture_output=True)


def staging_on_another_device(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``docgen.io.writes`` (its ``os`` as it is now) see the staging folder on another
    file system than every other folder: its device number one higher."""
    import os

    from docgen.io import writes
    from docgen.io.staging import STAGING

    real_stat = os.stat

    def stat(path: Any, *args: Any, **kwargs: Any) -> Any:
        found = real_stat(path, *args, **kwargs)
        if os.fspath(path).endswith(STAGING):
            return os.stat_result((*found[:2], found.st_dev + 1, *found[3:]))
        return found

    monkeypatch.setattr(writes.os, "stat", stat)


def as_any_drift(output: str) -> str:
    """A check's output with a hand edit worded as any drift is (as without the cache)."""
    output = re.sub(
        r"edited since docgen wrote it, though nothing it is made of changed: `docgen build` "
        r"would undo the edit; make it in .*? instead",
        "out of date with the registry",
        output,
    )
    output = re.sub(
        r"(generated files? (?:is|are)) edited by hand: `docgen build` would undo the edits",
        r"\1 out of sync with the registry: run `docgen build`",
        output,
    )
    return output.replace(" (it undoes the hand edits)", "")


def os_with(**calls: Callable[..., Any]) -> Any:
    """The ``os`` module as a module under test is given it to fail on cue or record its
    calls (``monkeypatch.setattr(writes, "os", os_with(replace=...))``): every name as
    ``os`` has it, but ``calls``."""
    import os

    class _Os:
        def __getattr__(self, name: str) -> Any:
            return getattr(os, name)

    patched = _Os()
    for name, call in calls.items():
        setattr(patched, name, call)
    return patched
