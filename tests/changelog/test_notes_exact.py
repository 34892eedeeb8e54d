"""`docgen release-notes`, exactly, at its edges: the section's text is kept as written
(only the blank lines around it go), and a site URL but slashes is an absolute http(s) URL."""

from __future__ import annotations

import pytest

HEADER = (
    "{/*\n * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.\n"
    " * SPDX-License-Identifier: Apache-2.0\n */}\n"
)
# The newer release's last line ends in a Markdown hard line break (two spaces); the older
# one's last line ends in a capital X and the file in blank lines.
ENTRY = (
    f"{HEADER}\n"
    "## v0.2.0\n\n"
    "Acme v0.2.0 tunes a profile.\n\n"
    "- Tuned the [Big Box profile](/guide/alpha/models).  \n\n"
    "## v0.1.0\n\n"
    "Acme v0.1.0 is the first release for the Big Box X\n\n\n"
)


@pytest.fixture
def released(make_project, run):
    project = make_project(files={"changelog/2026-02-01.mdx": ENTRY})
    assert run(project, "build").exit_code == 0
    return project


@pytest.mark.parametrize(
    ("version", "notes"),
    [
        (
            "v0.2.0",
            "## v0.2.0\n\nAcme v0.2.0 tunes a profile.\n\n"
            "- Tuned the [Big Box profile](https://acme.example/guide/alpha/models).  \n",
        ),
        ("v0.1.0", "## v0.1.0\n\nAcme v0.1.0 is the first release for the Big Box X\n"),
    ],
)
def test_the_section_is_kept_as_written_but_for_the_blank_lines_around_it(
    released, run, version, notes
):
    result = run(released, "release-notes", version, "--site-url", "https://acme.example")
    assert (result.exit_code, result.stdout, result.stderr) == (0, notes, "")


@pytest.mark.parametrize(
    "site_url",
    [
        "/X/",
        "X",
        "javascript:alert(1)//",
        "https://x.example:99999",
        "https://x.example:0",
        "https://x.example/%",
        "https://x.example/%zz/",
    ],
)
def test_a_site_url_but_slashes_must_be_an_absolute_http_url(released, run, site_url):
    """A bare path or name (or a ``javascript:`` URL) would be put in front of every link:
    refused before anything is printed (issue 15, item 12)."""
    result = run(released, "release-notes", "v0.2.0", "--site-url", site_url)
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "",
        "--site-url: error: the site URL must be an absolute http(s) URL such as "
        "https://docs.example.com (no query, fragment, spaces or quotes; a port up to 65535), "
        f"got '{site_url}'\n",
    )
