"""A file whose name (any part of its path under the project) holds a control character is
refused where docgen finds it: a template, a page, a changelog entry or note, or any file
in a folder docgen walks. The run ends with a located error that names it escaped, exit 2,
nothing written; no name with a line break ever reaches the output (a newline followed by
``::error`` would forge a GitHub workflow command)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import MINIMAL_REGISTRY, MINIMAL_TEMPLATE, Outcome, Project

from docgen.errors import Location

Run = Callable[..., Outcome]
FORGED = "x\n::error file=README.md,line=1::FORGED\n"
SHOWN = "x\\n::error file=README.md,line=1::FORGED\\n"
TUNED = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")
RELEASE = ["changelog", "--version", "v1.0.0", "--since-file", "old.yaml", "--date", "2026-01-02"]
HAND_PAGE = "---\ntitle: Mine\n---\n\nHand-written.\n"


def refused(project: Project, run: Run, args: list[str], where: str) -> None:
    """``args`` exit 2 with one located line naming ``where`` (escaped), and write nothing."""
    before = project.snapshot()
    result = run(project, *args)
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"{where}: error: the file name holds a control character (U+")
    assert lines[0].endswith("docgen reads and writes only files whose names have none: rename it")
    assert not any(line.lstrip().startswith("::") for line in result.output.splitlines())
    assert project.snapshot() == before


@pytest.mark.parametrize("verb", [["build"], ["build", "--dry-run"], ["check"]])
def test_a_template_name_with_a_newline_is_refused(make_project, run, verb):
    project = make_project(templates={f"{FORGED}.mdx.j2": MINIMAL_TEMPLATE})
    refused(project, run, verb, f"templates/{SHOWN}.mdx.j2")
    assert sorted(p.name for p in project.root.iterdir()) == ["profiles.yaml", "templates"]


def test_a_template_folder_name_with_a_tab_is_refused(make_project, run):
    project = make_project(templates={"a\tb/page.mdx.j2": MINIMAL_TEMPLATE})
    refused(project, run, ["build"], "templates/a\\tb/page.mdx.j2")


def test_a_partial_template_name_with_an_escape_is_refused(make_project, run):
    project = make_project(templates={"models.mdx.j2": MINIMAL_TEMPLATE, "_part\x1b[31m.j2": "x\n"})
    refused(project, run, ["build"], "templates/_part\\x1b[31m.j2")


def test_a_page_name_with_a_newline_is_refused(make_project, run):
    project = make_project()
    assert run(project, "build").exit_code == 0
    project.write(f"docs/{FORGED}.mdx", HAND_PAGE)
    refused(project, run, ["build"], f"docs/{SHOWN}.mdx")
    refused(project, run, ["check"], f"docs/{SHOWN}.mdx")


def test_a_stale_variant_name_with_a_newline_is_refused(make_project, run):
    project = make_project()
    assert run(project, "build").exit_code == 0
    project.write(f"docs/_build/agent-variants/{FORGED}.alpha.generated.mdx", HAND_PAGE)
    where = f"docs/_build/agent-variants/{SHOWN}.alpha.generated.mdx"
    refused(project, run, ["check"], where)


def test_a_changelog_entry_name_with_a_newline_is_refused(make_project, run):
    project = make_project()
    assert run(project, "build").exit_code == 0
    project.write("changelog/2026-01-01\n.mdx", "## v1.0.0\n")
    for verb in (["check"], ["build"], ["release-notes", "v1.0.0"]):
        refused(project, run, verb, "changelog/2026-01-01\\n.mdx")


def test_a_changelog_note_name_with_a_newline_is_refused(make_project, run):
    project = make_project(registry=TUNED, files={"old.yaml": MINIMAL_REGISTRY})
    assert run(project, "build").exit_code == 0
    project.write(f"changelog.d/{FORGED}.md", "- Acme adds things.\n")
    refused(project, run, RELEASE, f"changelog.d/{SHOWN}.md")
    refused(project, run, [*RELEASE, "--dry-run"], f"changelog.d/{SHOWN}.md")


def test_a_location_prints_its_path_on_one_line():
    assert str(Location("a\nb.mdx", 3, 4)) == "a\\nb.mdx:3:4"
    assert str(Location("a\x1b[31m.mdx", 3)) == "a\\x1b[31m.mdx:3"
    assert str(Location("a\u2028b")) == "a\\u2028b"
    assert str(Location("docs/plain.mdx", 1, 1)) == "docs/plain.mdx:1:1"
