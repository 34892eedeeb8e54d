"""The bad-input corpus's shared parts: the Case row, its builders and the one runner.

Every ``test_bad_*.py`` file here holds one table per input kind. Each case builds a
small project, runs one docgen command, and asserts the exit code (2 for an input to
fix, 1 for drift or a broken changelog history), the exact message lines (gcc style,
``path:line:col: error: ...``), that no traceback escaped, and that the project tree is
byte-for-byte unchanged. (tests/conftest.py registers this module for pytest's
assertion rewriting, so a failed assertion here shows both sides.)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from conftest import MINIMAL_REGISTRY, Outcome, Project

from docgen.render import environment as render

ID_RULE = (
    "ids use lowercase letters, digits, '.', '_' and '-', start with a letter or digit, "
    "and contain no '..'"
)
DIRECTIVE = (
    "registry text may not contain an <AgentOnly> tag or a docgen region marker: "
    "generated pages would read it as a directive"
)
OLD = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.4")
ENTRY = """\
{/*
 * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.
 * SPDX-License-Identifier: Apache-2.0
 */}

## v1.0.0

Acme v1.0.0 updates the managed vLLM serving profiles for Big Box.

- The single-node Big Box `acme/Tiny-1B` profile now uses `--gpu-memory-utilization 0.5` \
instead of `--gpu-memory-utilization 0.4`.
  For more information, refer to [models](/guide/alpha/models).
"""
CHANGELOG = ("changelog", "--since-file", "old.yaml", "--date", "2026-01-03")


def reg(old: str, new: str) -> str:
    """The minimal registry with one edit."""
    assert old in MINIMAL_REGISTRY, old
    return MINIMAL_REGISTRY.replace(old, new, 1)


def arg(line: str) -> str:
    """The minimal registry with ``max-num-seqs: 2`` (line 41) replaced by ``line``."""
    return reg("      max-num-seqs: 2\n", f"      {line}\n")


def entry(old: str = "", new: str = "", tail: str = "") -> dict[str, str]:
    """Files for a released project whose entry ``changelog/2026-01-02.mdx`` is edited."""
    assert old in ENTRY, old
    return {"old.yaml": OLD, "changelog/2026-01-02.mdx": ENTRY.replace(old, new, 1) + tail}


def page(body: str, frontmatter: str = "") -> dict[str, str]:
    """A hand-written shared page ``docs/guide.mdx`` (it uses the CLI token)."""
    head = f"---\ntitle: Guide\n{frontmatter}---\n\n"
    return {"docs/guide.mdx": f"{head}Run `$$acme onboard`.\n\n{body}"}


def template(text: str) -> dict[str, str]:
    return {"models.mdx.j2": text}


@dataclass(frozen=True)
class Case:
    """One bad input: what to run, and exactly what docgen must say."""

    id: str
    args: tuple[str, ...]
    expected: tuple[str, ...]
    registry: str | bytes = MINIMAL_REGISTRY
    templates: dict[str, str] | None = None
    files: dict[str, str | bytes] = field(default_factory=dict)
    code: int = 2
    #: Run ``docgen build`` before the snapshot (the case is about a built project).
    built: bool = False
    #: Template render deadline for this case, in seconds.
    deadline: float | None = None
    #: A usage error (click's words): ``expected``, then where the command's help is.
    usage: bool = False
    #: A known bug in docgen: the case is expected to fail until it is fixed.
    bug: str = ""

    def make(self, make_project: Callable[..., Project]) -> Project:
        text = {k: v for k, v in self.files.items() if isinstance(v, str)}
        raw = {k: v for k, v in self.files.items() if isinstance(v, bytes)}
        if isinstance(self.registry, bytes):
            raw["profiles.yaml"] = self.registry
        registry = self.registry if isinstance(self.registry, str) else None
        project = make_project(registry=registry, templates=self.templates, files=text)
        for name, data in raw.items():
            (project.root / name).parent.mkdir(parents=True, exist_ok=True)
            (project.root / name).write_bytes(data)
        return project


BUILD = ("build",)
CHECK = ("check",)


def param(case: Case) -> object:
    marks = [pytest.mark.xfail(strict=True, reason=case.bug)] if case.bug else []
    return pytest.param(case, id=case.id, marks=marks)


def check(
    case: Case,
    make_project: Callable[..., Project],
    run: Callable[..., Outcome],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Run one case and assert docgen's exact located error and an unchanged tree."""
    project = case.make(make_project)
    if case.built:  # a build reports a broken changelog history as check does (exit 1)
        assert run(project, "build").exit_code == (1 if case.code == 1 else 0)
    if case.deadline is not None:
        monkeypatch.setattr(render, "RENDER_SECONDS", case.deadline)
    before = project.snapshot()
    result = run(project, *case.args)
    assert result.exit_code == case.code, result.output
    shown = (result.stderr if case.code == 2 else result.stdout).splitlines()
    other = result.stdout if case.code == 2 else result.stderr
    if case.code == 1:  # every file in sync: the verdict says the rules fail the check
        verdict = r"\d+ generated files? match(es)? the registry, but \d+ problems? above fails? "
        assert re.fullmatch(f"{verdict}the check\n", other), other
    else:
        assert other == ""
    if case.usage:
        command = " ".join(["docgen", *case.args[:1]])
        assert shown[-1] == f"Try '{command} --help' for help."
        shown = shown[:-1]
    expected = tuple(line.replace("{root}", str(project.root)) for line in case.expected)
    assert tuple(shown) == expected
    assert "Traceback" not in result.output
    assert project.snapshot() == before
