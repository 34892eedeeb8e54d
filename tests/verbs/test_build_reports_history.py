"""`build` and a broken changelog history: the build still writes every output it can (an
entry is history docgen never rewrites, so it cannot fix one), but it prints each broken
history rule as a located error on stderr and exits 1, the code `check` uses, so that a
pre-commit `build` hook or a CI `build` step does not hide what `check` reports."""

from __future__ import annotations

from collections.abc import Callable

from conftest import Outcome, Project

Run = Callable[..., Outcome]
DAY = "changelog/2026-01-02.mdx"
FOUND = (
    f"{DAY}:6: error: release heading '## v01.0.0': version 'v01.0.0' has a leading zero; "
    "write v1.0.0\n"
)


ENTRY = """\
{/*
 * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.
 * SPDX-License-Identifier: Apache-2.0
 */}

## v01.0.0

Acme v1.0.0 updates the managed vLLM serving profiles for Big Box.
"""


def broken(make_project: Callable[..., Project]) -> Project:
    return make_project(files={DAY: ENTRY})


def test_build_writes_what_it_can_and_exits_1_on_a_broken_history(make_project, run) -> None:
    project = broken(make_project)
    dry = run(project, "build", "--dry-run")
    assert (dry.exit_code, dry.stderr) == (1, FOUND)
    assert not (project.root / "docs").exists()
    built = run(project, "-q", "build")
    assert (built.exit_code, built.stdout, built.stderr) == (1, "", FOUND)
    assert (project.root / "docs/models.mdx").is_file()
    checked = run(project, "check")
    assert (checked.exit_code, checked.stdout) == (1, FOUND)
    again = run(project, "build")
    assert (again.exit_code, again.stderr) == (1, FOUND)
    assert "0 written, 0 updated, 0 pruned" in again.stdout


def test_build_exits_0_once_the_history_is_fixed(make_project, run) -> None:
    project = broken(make_project)
    assert run(project, "build").exit_code == 1
    text = (project.root / DAY).read_text("utf-8")
    project.write(DAY, text.replace("## v01.0.0", "## v1.0.0"))
    fixed = run(project, "build")
    assert (fixed.exit_code, fixed.stderr) == (0, "")
    assert run(project, "check").exit_code == 0
