"""In GitHub Actions (``GITHUB_ACTIONS=true``) the runner obeys a workflow command on any
line of a step's output whose trimmed text starts with ``::`` (or that holds the legacy
``##[``). docgen's text reports print page text and file names, which are data: there
they stand between ``::stop-commands::TOKEN`` and ``::TOKEN::`` (a fresh random token),
so no line of data is obeyed; ``--format github`` escapes each line of data instead."""

from __future__ import annotations

import re

import pytest
from conftest import MINIMAL_REGISTRY

FORGED = "::error file=x::forged"
#: The serve command's code block comes right after the forged line, so a change of an
#: argument shows it as a context line of the diff (`` ::error file=x::forged``).
TEMPLATE = """\
---
title: "Models"
---

{% for p in profiles %}
::error file=x::forged
{{ serve_command(p) | code_block("bash") }}
{% endfor %}
"""
TUNED = MINIMAL_REGISTRY.replace("max-model-len: 32768", "max-model-len: 16384")


def obeyed(output: str) -> list[str]:
    """The workflow commands a runner reads in ``output`` (one stream), as it reads them:
    after ``::stop-commands::TOKEN`` none until the line ``::TOKEN::``."""
    stopped = None
    found = []
    for line in output.split("\n"):
        trimmed = line.strip()
        if stopped is not None:
            stopped = None if trimmed == f"::{stopped}::" else stopped
            continue
        if trimmed.startswith("::") or "##[" in line:
            found.append(trimmed)
            start = re.fullmatch(r"::stop-commands::(.+)", trimmed)
            stopped = start[1] if start else None
    return found


def tokens(output: str) -> list[str]:
    return re.findall(r"^::stop-commands::([0-9a-f]{32})$", output, re.M)


@pytest.fixture
def drifted(make_project, run):
    """A built project whose page has the line ``::error file=x::forged``, then drifted."""
    project = make_project(templates={"models.mdx.j2": TEMPLATE})
    assert run(project, "build").exit_code == 0
    project.write("profiles.yaml", TUNED)
    return project


def test_a_diff_line_of_page_text_is_not_a_command_in_actions(drifted, run, monkeypatch):
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    plain = run(drifted, "check")
    assert plain.exit_code == 1
    assert f" {FORGED}" in plain.stdout.splitlines()  # the danger: a context line
    assert "stop-commands" not in plain.output  # nothing changes outside Actions

    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = run(drifted, "check")
    assert result.exit_code == 1
    assert f" {FORGED}" in result.stdout.splitlines()
    (token,) = tokens(result.stdout)
    assert obeyed(result.stdout) == [f"::stop-commands::{token}"]
    assert result.stdout.splitlines()[-1] == f"::{token}::"
    assert result.stdout.count(token) == 2  # the token is nowhere in the data
    assert obeyed(result.stderr) == []
    assert (
        result.stderr == "4 generated files are out of sync with the registry: run `docgen build`\n"
    )
    assert (
        result.stdout.replace(f"::stop-commands::{token}\n", "").replace(f"::{token}::\n", "")
        == plain.stdout
    )


def test_each_run_has_a_fresh_token(drifted, run, monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    first, second = (tokens(run(drifted, "check").stdout) for _ in range(2))
    assert len(first) == len(second) == 1 and first != second


def test_only_true_turns_the_shield_on(drifted, run, monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "false")
    assert "stop-commands" not in run(drifted, "check").output


def test_file_names_in_check_and_build_are_not_commands_in_actions(make_project, run, monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    project = make_project(templates={"##[error]x.mdx.j2": TEMPLATE, "::y.mdx.j2": TEMPLATE})
    missing = run(project, "check")
    assert missing.exit_code == 1
    assert "docs/##[error]x.mdx:1:1: error: missing: docgen would create it" in missing.stdout
    assert [line.split("::")[1] for line in obeyed(missing.stdout)] == ["stop-commands"]
    for args in (["build", "--dry-run"], ["build"], ["build", "-v"]):
        built = run(project, *args)
        assert built.exit_code == 0, built.output
        assert "##[error]x.mdx" in built.stdout
        assert [line.split("::")[1] for line in obeyed(built.stdout)] == ["stop-commands"]
    assert run(project, "build", "-q").output == ""  # nothing to shield: no markers
    verbose = run(project, "check", "-v")
    assert "docs/##[error]x.mdx: in sync" in verbose.stdout
    assert [line.split("::")[1] for line in obeyed(verbose.stdout)] == ["stop-commands"]


def test_located_errors_are_not_commands_in_actions(make_project, run, monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    project = make_project(templates={"##[error]x.mdx.j2": "{{ nope( }}\n"})
    result = run(project, "build")
    assert (result.exit_code, result.stdout) == (2, "")
    lines = result.stderr.splitlines()
    assert lines[1].startswith("templates/##[error]x.mdx.j2:1: error: ")
    assert [line.split("::")[1] for line in obeyed(result.stderr)] == ["stop-commands"]
    assert lines[-1] == f"::{tokens(result.stderr)[0]}::"


def test_github_format_obeys_only_docgens_own_commands(drifted, run, monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = run(drifted, "check", "--format", "github")
    assert result.exit_code == 1
    commands = obeyed(result.stdout)
    assert {c.split(" ", 1)[0].split("::")[1] for c in commands} == {
        "error",
        "notice",
        "group",
        "endgroup",
    }
    assert not any("file=x" in c for c in commands)
    assert " %3A%3Aerror file=x%3A%3Aforged" in result.stdout.splitlines()
