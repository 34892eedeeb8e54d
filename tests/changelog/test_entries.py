"""Changelog entries and fragments on disk: finding them (never outside the project root),
parsing sections, versions and dates, the SPDX header and the routes releases live at."""

from __future__ import annotations

import datetime
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import MINIMAL_REGISTRY

from docgen import config
from docgen.changelog import entries
from docgen.errors import ConfigError, Location
from docgen.registry.load import load_bytes

HEADER = (
    "{/*\n"
    " * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.\n"
    " * SPDX-License-Identifier: Apache-2.0\n"
    " */}\n"
)
VALID = (
    f"{HEADER}\n## v1.0.0\n\nAcme v1.0.0 tunes the Big Box profile.\n\n"
    "- The Big Box profile uses less memory.\n"
    "  For more information, refer to [Models](/guide/alpha/models).\n"
)
DAY = "changelog/2026-01-02.mdx"


def registry(text: str = MINIMAL_REGISTRY):
    return load_bytes(text.encode(), "profiles.yaml")


@pytest.fixture
def project(tmp_path: Path) -> config.Project:
    """An empty project with the default settings."""
    return config.Project(tmp_path, config.Config())


def put(project: config.Project, relative: str, text: str) -> Path:
    path = project.root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def test_the_header_is_the_products_spdx_as_an_mdx_comment_or_nothing():
    assert entries.header(registry()) == HEADER
    without = MINIMAL_REGISTRY.replace(
        "  spdx:\n    copyright: Copyright (c) 2026 Acme Inc.\n    license: Apache-2.0\n", ""
    )
    assert entries.header(registry(without)) == ""


@pytest.mark.parametrize(
    ("text", "parsed"),
    [("v0.0.102", (0, 0, 102)), ("v1.10.0", (1, 10, 0)), ("v10.2.3", (10, 2, 3))],
)
def test_a_version_is_three_numbers(text, parsed):
    assert entries.parse_version(text, Location("--version")) == parsed


@pytest.mark.parametrize("text", ["1.0.0", "v1.0", "v1.0.0-rc1", "V1.0.0", "v1.0.0 ", "", "vx.y.z"])
def test_anything_else_is_a_malformed_version(text):
    with pytest.raises(ConfigError) as caught:
        entries.parse_version(text, Location("--version"))
    assert str(caught.value) == (
        f"--version: error: malformed version '{text}'; expected vX.Y.Z, e.g. v0.0.102"
    )


def test_a_date_is_a_real_day_written_yyyy_mm_dd():
    assert entries.parse_date("2024-02-29", Location("--date")) == datetime.date(2024, 2, 29)
    for text in ("2026-02-30", "2026-1-02", "20260102", "yesterday", "2026-01-02T00:00"):
        with pytest.raises(ConfigError) as caught:
            entries.parse_date(text, Location("--date"))
        assert str(caught.value) == (
            f"--date: error: malformed date '{text}'; expected a real date as YYYY-MM-DD"
        )


def test_an_entry_is_split_into_its_release_sections():
    text = VALID + "\n## v0.9.0\n\nAcme v0.9.0 is older.\n### not a release\n"
    entry = entries.parse_entry(DAY, text)
    assert (entry.path, entry.text, entry.day) == (DAY, text, "2026-01-02")
    assert entry.sections == (
        entries.Section(
            "v1.0.0",
            6,
            (
                "",
                "Acme v1.0.0 tunes the Big Box profile.",
                "",
                "- The Big Box profile uses less memory.",
                "  For more information, refer to [Models](/guide/alpha/models).",
                "",
            ),
        ),
        entries.Section("v0.9.0", 13, ("", "Acme v0.9.0 is older.", "### not a release", "")),
    )
    assert entries.parse_entry(DAY, "## Version 1\n## v1.0\n").sections == ()


def test_a_release_heading_in_fenced_code_is_code():
    text = "## v1.0.0\n\n```text\n## v0.0.1\n```\n"
    entry = entries.parse_entry(DAY, text)
    assert entry.sections == (
        entries.Section("v1.0.0", 1, ("", "```text", "## v0.0.1", "```", "")),
    )


def test_entries_are_the_dated_files_in_name_order_without_the_overview(project):
    assert entries.entry_files(project) == []
    put(project, "changelog/2026-01-03.mdx", VALID)
    put(project, "changelog/2026-01-02.mdx", VALID.replace("v1.0.0", "v0.9.0"))
    put(project, "changelog/overview.mdx", "---\n---\n")
    put(project, "changelog/notes.json", "{}")  # no name an entry is given: not one
    put(project, "changelog/.2026-01-04.mdx", "an editor's file")
    put(project, "changelog/README.md", "How the changelog is written.")
    found = entries.entries(project)
    assert [e.path for e in found] == ["changelog/2026-01-02.mdx", "changelog/2026-01-03.mdx"]
    line = VALID.split("\n").index("## v1.0.0") + 1
    assert entries.known_versions(project) == {
        "v0.9.0": Location("changelog/2026-01-02.mdx", line, 1),
        "v1.0.0": Location("changelog/2026-01-03.mdx", line, 1),
    }


@pytest.mark.parametrize(
    ("name", "how"),
    [
        ("2026-09-01.md", "an MDX page: 2026-09-01.mdx"),
        ("2026-09-01.MDX", "in lowercase: 2026-09-01.mdx"),
        ("2026-09-01.markdown", "an MDX page: 2026-09-01.mdx"),
        ("notes.md", "an MDX page: notes.mdx"),
        ("2026-09-01.mdx.orig", "with nothing after it (this name ends '.orig'): 2026-09-01.mdx"),
        ("2026-09-01.mdx ", "with nothing after it (this name ends ' '): 2026-09-01.mdx"),
    ],
)
def test_an_entry_named_in_other_capitals_or_another_suffix_is_refused_not_left_unread(
    project, name, how
):
    """``2026-09-01.md`` was no entry and no error: ``check`` passed without reading it
    (its markup, its links), while Fern may publish it from the changelog folder."""
    put(project, DAY, VALID)
    put(project, f"changelog/{name}", "## v9.9.9\n\n<script>alert(1)</script>\n")
    with pytest.raises(ConfigError) as raised:
        entries.entry_files(project)
    assert str(raised.value) == f"changelog/{name}: error: a changelog entry is named *.mdx, {how}"


def test_a_note_whose_name_starts_with_readme_is_a_note(project):
    """Only a README itself is no note: ``readme-links.md`` was left out of every release
    without a word (a fresh-eyes review)."""
    put(project, "changelog.d/README.md", "About the notes.\n")
    put(project, "changelog.d/readme.txt", "About the notes.\n")
    put(project, "changelog.d/readme-links.md", "Fixed the README's links.\n")
    assert entries.fragment_files(project) == [project.root / "changelog.d/readme-links.md"]


def test_a_note_in_a_folder_below_the_notes_folder_is_refused_not_left_out(project):
    """``changelog.d/sub/a.md`` was left out: ``docgen changelog`` said the folder holds no
    notes. A hidden folder's files and a README are no notes."""
    put(project, "changelog.d/.git-keep/x.md", "an editor's\n")
    put(project, "changelog.d/sub/README.md", "About the notes.\n")
    put(project, "changelog.d/a.md", "A.\n")
    assert entries.fragment_files(project) == [project.root / "changelog.d/a.md"]
    put(project, "changelog.d/sub/deeper/b.md", "B.\n")
    with pytest.raises(ConfigError) as raised:
        entries.fragment_files(replace(project))  # another command: the folder walked again
    assert str(raised.value) == (
        "changelog.d/sub/deeper/b.md: error: a note lies in the notes folder itself, not in "
        "a folder below it, or no release takes it: move it to changelog.d/b.md"
    )


@pytest.mark.parametrize("leads", ["outside", "inside"])
def test_a_linked_folder_in_the_notes_folder_is_refused_not_passed_unseen(
    project, tmp_path_factory, leads
):
    """docgen follows no link below the notes folder: the notes of a linked folder (one
    leading outside the root, above all) were left out without a word (a hostile round's
    finding). A hidden one is an editor's or a tool's, as a hidden folder is."""
    outside = tmp_path_factory.mktemp("elsewhere")
    target = outside if leads == "outside" else project.root / "archive"
    (target / "2025").mkdir(parents=True, exist_ok=True)
    (target / "2025/b.md").write_text("B.\n", "utf-8")  # below it: a walk finds it too
    put(project, "changelog.d/a.md", "A.\n")
    (project.root / "changelog.d/.tool").symlink_to(target)
    assert entries.fragment_files(project) == [project.root / "changelog.d/a.md"]
    (project.root / "changelog.d/old").symlink_to(target)
    with pytest.raises(ConfigError) as raised:
        entries.fragment_files(replace(project))
    why = (
        "this link leads to a folder outside the project root, where docgen reads nothing"
        if leads == "outside"
        else "this link leads to a folder holding b.md, and docgen follows no link here"
    )
    assert str(raised.value) == (
        f"changelog.d/old: error: {why}, so no release would take a note there: move the "
        "notes into changelog.d itself, or remove the link"
    )


def test_a_linked_folder_docgen_cannot_list_is_a_located_error(project, monkeypatch):
    """Its notes would pass unseen (the tests run as root, whom no mode keeps out)."""
    (project.root / "archive/z").mkdir(parents=True)
    for name in ("b.md", "a.md"):
        (project.root / "archive" / name).write_text("A.\n", "utf-8")
    put(project, "changelog.d/a.md", "A.\n")
    (project.root / "changelog.d/old").symlink_to(project.root / "archive")
    with pytest.raises(ConfigError) as raised:
        entries.fragment_files(project)
    assert "this link leads to a folder holding a.md," in str(raised.value)  # the first name

    def unlistable(top, onerror=None):  # type: ignore[no-untyped-def]
        onerror(PermissionError(13, "Permission denied", top))
        return iter(())

    monkeypatch.setattr(entries.os, "walk", unlistable)
    with pytest.raises(ConfigError) as raised:
        entries.fragment_files(replace(project))
    assert str(raised.value) == (
        "changelog.d/old: error: this link leads to a folder docgen cannot list (Permission "
        "denied), so no release would take a note there: move the notes into changelog.d "
        "itself, or remove the link"
    )


def test_a_link_to_a_folder_of_images_in_the_notes_folder_is_no_note(project):
    """A note may show images kept beside it: a linked folder holding no note is none."""
    (project.root / "assets").mkdir()
    (project.root / "assets/shot.png").write_bytes(b"\x89PNG")
    put(project, "changelog.d/a.md", "A.\n")
    (project.root / "changelog.d/img").symlink_to(project.root / "assets")
    assert entries.fragment_files(project) == [project.root / "changelog.d/a.md"]


def test_an_entry_with_bytes_that_are_not_utf8_is_a_located_error(project):
    # It used to be read with U+FFFD in place of the byte, which `build` then copied into
    # the overview: an entry is history, and docgen neither guesses at it nor rewrites it.
    path = project.root / DAY
    path.parent.mkdir()
    path.write_bytes(b"## v1.0.0\n\nCaf\xe9.\n")
    with pytest.raises(ConfigError) as raised:
        entries.read_entry(project, path)
    assert str(raised.value) == (
        f"{DAY}:3:4: error: invalid UTF-8 byte 0xe9 in the changelog entry"
    )


def test_fragments_are_the_md_notes_in_name_order(project):
    assert entries.fragment_files(project) == []
    put(project, "changelog.d/b.md", "B.\n")
    put(project, "changelog.d/a.md", "A.\n")
    put(project, "changelog.d/c.json", "{}\n")  # no name a note is given: not one
    put(project, "changelog.d/.d.md", "D.\n")  # hidden: an editor's file
    put(project, "changelog.d/README.txt", "How to write a note.\n")  # about the notes
    put(project, "changelog.d/readme.md", "How to write a note.\n")
    assert entries.fragment_files(project) == [
        project.root / "changelog.d/a.md",
        project.root / "changelog.d/b.md",
    ]


def test_a_link_inside_the_root_is_followed(project):
    target = put(project, "notes/real.md", "Real.\n")
    (project.root / "changelog.d").mkdir()
    (project.root / "changelog.d/link.md").symlink_to(target)
    assert entries.fragment_files(project) == [project.root / "changelog.d/link.md"]
    assert entries.within_root(project, project.root / "changelog.d/link.md")
    assert not entries.within_root(project, project.root.parent)


def test_a_fragment_linked_outside_the_root_is_refused_unread(make_project, run, tmp_path):
    project = make_project(files={"old.yaml": MINIMAL_REGISTRY})
    project.edit("profiles.yaml", "gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")
    assert run(project, "build").exit_code == 0
    secret = tmp_path / "outside.md"
    secret.write_text("hunter2\n", "utf-8")
    (project.root / "changelog.d").mkdir()
    (project.root / "changelog.d/leak.md").symlink_to(secret)
    before = project.snapshot()
    args = ["--version", "v1.0.0", "--since-file", "old.yaml", "--date", "2026-01-02"]
    result = run(project, "changelog", *args)
    assert result.exit_code == 2
    assert result.stderr == (
        "changelog.d/leak.md: error: the changelog fragment is a symbolic link that leaves "
        "the project root; docgen reads only files inside it\n"
    )
    assert "hunter2" not in result.output
    assert project.snapshot() == before
    assert secret.read_text("utf-8") == "hunter2\n"


@pytest.mark.parametrize(
    ("folder", "said", "command"),
    [
        ("changelog", "the changelog folder", "check"),
        ("changelog.d", "the notes folder", "changelog"),
    ],
)
def test_a_changelog_folder_linked_outside_the_root_is_refused_before_it_is_listed(
    make_project, run, tmp_path, folder, said, command
):
    """Linked outside, the folder was listed: an empty one counted as none, and the name
    of a file there was shown in the error (a hostile round)."""
    project = make_project(files={"old.yaml": MINIMAL_REGISTRY})
    assert run(project, "build").exit_code == 0
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret-name.mdx").write_text("x\n", "utf-8")
    (project.root / folder).symlink_to(outside)
    before = project.snapshot()
    args = ["--version", "v1.0.0", "--since-file", "old.yaml", "--date", "2026-01-02"]
    result = run(project, command, *(args if command == "changelog" else []))
    assert result.exit_code == 2
    assert result.stderr == (
        f"{folder}: error: {said} is a symbolic link that leaves the project root; docgen "
        "reads only files inside it\n"
    )
    assert "secret-name" not in result.output
    assert project.snapshot() == before


def test_an_entry_linked_from_outside_the_root_is_refused_unread(make_project, run, tmp_path):
    outside = tmp_path / "outside.mdx"
    outside.write_text(VALID.replace("Acme v1.0.0", "secret"), "utf-8")
    project = make_project(files={DAY: VALID})
    (project.root / "changelog/2026-01-03.mdx").symlink_to(outside)
    result = run(project, "check")
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "",
        "changelog/2026-01-03.mdx: error: the changelog entry is a symbolic link that leaves "
        "the project root; docgen reads only files inside it\n",
    )


def test_an_agents_pages_live_under_its_docs_base():
    reg = registry()
    assert entries.agent_base(reg, "beta") == "/guide/beta"
    slashed = MINIMAL_REGISTRY.replace("docs_base: /guide/{agent}", "docs_base: /g/{agent}/")
    assert entries.agent_base(registry(slashed), "alpha") == "/g/alpha"


def test_a_release_page_route_comes_from_the_entrys_date(project):
    assert entries.release_route(project, "2026-01-02") == "release-notes/2026/1/2"
    assert entries.release_route(project, "2026-13-01") == "2026-13-01"
    # Only YYYY-MM-DD, on every Python (3.11's date.fromisoformat also reads these).
    for name in ("20260102", "2026-W01-5", "2026-01-02T00"):
        assert entries.release_route(project, name) == name
    custom = replace(
        project, config=replace(project.config, release_route="r/{day}.{month}.{year}")
    )
    assert entries.release_route(custom, "2026-11-30") == "r/30.11.2026"


def test_an_entry_with_windows_line_endings_reads_as_the_same_entry(project):
    path = project.root / DAY
    path.parent.mkdir()
    path.write_bytes(VALID.replace("\n", "\r\n").encode())
    assert entries.read_entry(project, path) == entries.parse_entry(DAY, VALID)


def test_a_release_heading_may_end_in_blanks():
    (section,) = entries.parse_entry(DAY, "## v1.0.0 \t\n\nAcme v1.0.0 adds things.\n").sections
    assert (section.version, section.line) == ("v1.0.0", 1)


def test_a_fence_inside_an_mdx_comment_opens_no_code_block():
    """MDX reads a comment's fence as comment text: the releases after it stay releases."""
    text = "## v1.0.1\n\nAcme v1.0.1 fixes a thing.\n\n{/*\n```\n*/}\n\n## v1.0.0\n\nAcme v1.0.0.\n"
    entry = entries.parse_entry(DAY, text)
    assert [s.version for s in entry.sections] == ["v1.0.1", "v1.0.0"]
