"""`docgen changelog`, exactly, where the wording tests leave room: the closing link's title
when the page cannot be read, the names in an error of a project's own changelog template,
the text read whatever the locale, and an older entry kept byte for byte under a new one."""

from __future__ import annotations

import locale
import os
from collections.abc import Iterator

import pytest
from conftest import CHANGELOG_DRY_RUN, MINIMAL_REGISTRY

from docgen.changelog import compose
from docgen.registry.load import load_bytes

TUNED = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")
HEADER = (
    "{/*\n * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.\n"
    " * SPDX-License-Identifier: Apache-2.0\n */}\n"
)
BULLET = (
    "- The single-node Big Box `acme/Tiny-1B` profile now uses "
    "`--gpu-memory-utilization 0.6` instead of "
    "`--gpu-memory-utilization 0.5`.\n"
)
DRY_RUN = CHANGELOG_DRY_RUN


def tuned_project(make_project, files: dict[str, str] | None = None):
    return make_project(registry=TUNED, files={"old.yaml": MINIMAL_REGISTRY, **(files or {})})


@pytest.mark.parametrize(
    ("page", "link"),
    [
        ("docs/faq.mdx", "[faq](/guide/alpha/faq)"),
        (
            "docs/inference/local/set-up.mdx",
            "[set-up](/guide/alpha/inference/local/set-up)",
        ),
    ],
    ids=["top-level", "nested"],
)
def test_a_link_page_not_on_disk_is_titled_by_its_routes_last_part(make_project, run, page, link):
    """The page is not built yet: its title is the last part of its route. (It is
    published, by a template: a link to a page the project never publishes is refused.)"""
    project = tuned_project(make_project, {"docgen.toml": f'changelog_link = "{page}"\n'})
    project.write(f"templates/{page.removeprefix('docs/')}.j2", "Text.\n")
    result = run(project, *DRY_RUN)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "## v0.1.0\n\n"
        "Acme v0.1.0 updates the managed vLLM serving profiles for Big Box.\n\n"
        f"{BULLET}"
        f"  For more information, refer to {link}.\n"
    )


def test_a_link_page_that_leaves_the_root_is_not_read_for_its_title(make_project, run, tmp_path):
    """A page that is a symbolic link out of the project is not read: its route names it."""
    outside = tmp_path / "outside.mdx"
    outside.write_text('---\ntitle: "Someone Else\'s Page"\n---\n', "utf-8")
    project = tuned_project(make_project, {"docgen.toml": 'changelog_link = "docs/away.mdx"\n'})
    project.write("templates/away.mdx.j2", "Text.\n")  # published (see above)
    (project.root / "docs").mkdir()
    os.symlink(outside, project.root / "docs/away.mdx")
    result = run(project, *DRY_RUN)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.endswith(
        f"{BULLET}  For more information, refer to [away](/guide/alpha/away).\n"
    )


@pytest.mark.parametrize(
    ("template", "text", "error"),
    [
        (
            "bullet",
            "{{ group.subject }}.\n{{ group.nope }}\n",
            "template failed: 'Group' object has no attribute 'nope'; a Group has subject, "
            "changes, named, profile",
        ),
        ("summary", "Acme {{ version }}.\n{{ nope }}\n", "template failed: 'nope' is undefined"),
    ],
)
def test_an_error_in_a_projects_own_changelog_template_names_it(
    make_project, run, template, text, error
):
    """A project may override the built-in `_changelog/*.mdx.j2`; an error in its own copy
    is reported against that template, at its line."""
    project = tuned_project(make_project)
    project.write(f"templates/_changelog/{template}.mdx.j2", text)
    result = run(project, *DRY_RUN)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"_changelog/{template}.mdx.j2:2: error: {error}\n"


@pytest.fixture
def ascii_locale() -> Iterator[None]:
    """The C locale (its text encoding is ASCII), as on a bare container or CI runner."""
    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    try:
        yield
    finally:
        locale.setlocale(locale.LC_CTYPE, before)


def test_entries_notes_and_page_titles_are_read_as_utf8_in_any_locale(
    make_project, run, ascii_locale
):
    """The link page's title, a waiting note and the entry of the same day are UTF-8 text,
    whatever the locale's encoding."""
    older = f"{HEADER}\n## v0.0.9\n\nAcme v0.0.9 adds the caf\u00e9 profile.\n"
    project = tuned_project(
        make_project,
        {
            "docs/models.mdx": '---\ntitle: "Mod\u00e8les"\n---\n',
            "changelog.d/note.md": "Fixed the na\u00efve retry.\n",
            "changelog/2026-12-01.mdx": older,
        },
    )
    project.write("docgen.toml", 'changelog_link = "docs/models.mdx"\n')
    result = run(project, *DRY_RUN[:-1])
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    assert project.read("changelog/2026-12-01.mdx") == (
        f"{HEADER}\n"
        "## v0.1.0\n\n"
        "Acme v0.1.0 updates the managed vLLM serving profiles for Big Box.\n\n"
        f"{BULLET}"
        "  For more information, refer to [Mod\u00e8les](/guide/alpha/models).\n"
        "- Fixed the na\u00efve retry.\n"
        "\n## v0.0.9\n\nAcme v0.0.9 adds the caf\u00e9 profile.\n"
    )


def test_an_older_entry_is_kept_byte_for_byte_below_the_new_release():
    """Only the blank lines between the header and the older text go; an indented comment
    (or any other leading blank) stays as written."""
    registry = load_bytes(MINIMAL_REGISTRY.encode(), "profiles.yaml")
    new = compose.Release("v1.0.1", "Acme v1.0.1 ships.", ("- B.",))
    old = "  {/* kept */}\n## v1.0.0\n\nAcme v1.0.0 ships.\n\n- A.\n"
    assert compose.entry_text(registry, new, f"{HEADER}\n\n{old}") == (
        f"{HEADER}\n## v1.0.1\n\nAcme v1.0.1 ships.\n\n- B.\n\n{old}"
    )
