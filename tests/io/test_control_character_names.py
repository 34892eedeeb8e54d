"""A file whose name (any part of its path under the project) holds a control character is
refused where docgen finds it: a template, a page, a changelog entry or note, or any file
in a folder docgen walks. The run ends with a located error that names it escaped, exit 2,
nothing written; no name with a line break ever reaches the output (a newline followed by
``::error`` would forge a GitHub workflow command). A name that is not UTF-8 (which no
page or site can carry) is refused the same way."""

from __future__ import annotations

import json
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
CONTROL_WHY = (
    "the file name holds a control character (U+..."
    "docgen reads and writes only files whose names have none: rename it"
)
#: A name holding the byte 0xFF, as Python keeps a name that is not UTF-8 (a lone
#: surrogate), and as docgen shows it.
UNDECODED, UNDECODED_SHOWN = "bad\udcff", "bad\\udcff"
UNDECODED_WHY = (
    "the file name holds the byte 0xFF, which is not UTF-8; ..."
    "docgen reads and writes only files whose names are UTF-8: rename it"
)


def refused(
    project: Project, run: Run, args: list[str], where: str, why: str = CONTROL_WHY
) -> None:
    """``args`` exit 2 with one located line naming ``where`` (escaped) and saying ``why``
    (its start and its end), and write nothing."""
    before = project.snapshot()
    result = run(project, *args)
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    start, end = why.split("...")
    assert lines[0].startswith(f"{where}: error: {start}"), lines[0]
    assert lines[0].endswith(end), lines[0]
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


@pytest.mark.parametrize("verb", [["build"], ["check"]])
def test_a_template_name_that_is_not_utf8_is_refused(make_project, run, verb):
    """Such a name reached a page's text (its notice names the template) and broke the
    run when the text was encoded: exit 3, or a drift no build could mend."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    project.write(f"templates/{UNDECODED}.mdx.j2", MINIMAL_TEMPLATE)
    refused(project, run, verb, f"templates/{UNDECODED_SHOWN}.mdx.j2", UNDECODED_WHY)


def test_a_name_that_is_not_utf8_is_a_finding_of_the_json_report(make_project, run):
    """Named as the text report names it: the JSON held the lone surrogate itself
    (``"bad\\udcff"`` in JSON), which a strict JSON reader refuses."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    project.write(f"templates/{UNDECODED}.mdx.j2", MINIMAL_TEMPLATE)
    result = run(project, "check", "--format", "json")
    assert result.exit_code == 2
    result.stdout.encode("utf-8")  # no lone surrogate left in it
    (finding,) = json.loads(result.stdout)["findings"]
    assert finding["file"] == f"templates/{UNDECODED_SHOWN}.mdx.j2"
    assert finding["message"] == UNDECODED_WHY.replace("...", "")


def test_a_page_or_changelog_entry_name_that_is_not_utf8_is_refused(make_project, run):
    project = make_project()
    assert run(project, "build").exit_code == 0
    project.write(f"docs/{UNDECODED}.mdx", HAND_PAGE)
    for verb in (["build"], ["check"]):
        refused(project, run, verb, f"docs/{UNDECODED_SHOWN}.mdx", UNDECODED_WHY)
    (project.root / f"docs/{UNDECODED}.mdx").unlink()
    project.write(f"changelog/2026-01-01{UNDECODED}.mdx", "## v1.0.0\n")
    refused(project, run, ["check"], f"changelog/2026-01-01{UNDECODED_SHOWN}.mdx", UNDECODED_WHY)


def test_a_location_prints_its_path_on_one_line():
    assert str(Location("a\nb.mdx", 3, 4)) == "a\\nb.mdx:3:4"
    assert str(Location("a\x1b[31m.mdx", 3)) == "a\\x1b[31m.mdx:3"
    assert str(Location("a\u2028b")) == "a\\u2028b"
    assert str(Location("docs/plain.mdx", 1, 1)) == "docs/plain.mdx:1:1"
