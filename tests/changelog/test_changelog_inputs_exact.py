"""`docgen changelog`'s inputs, exactly at their edges: a note that cannot be read is named
a changelog note, a version number of nine digits is one, a quoted text of exactly the
shown length is whole, and the gate finds a new entry in a changelog folder nested below
others."""

from __future__ import annotations

import pytest
from conftest import MINIMAL_REGISTRY

from docgen.changelog import entries

TUNED = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")
WRITE = ["changelog", "--since-file", "old.yaml", "--version", "v0.1.0", "--date", "2026-12-01"]


def test_a_note_that_is_not_utf8_is_named_a_changelog_note(make_project, run):
    project = make_project(registry=TUNED, files={"old.yaml": MINIMAL_REGISTRY})
    (project.root / "changelog.d").mkdir()
    (project.root / "changelog.d/fix.md").write_bytes(b"- fine\n- adds \xff here\n")
    result = run(project, *WRITE)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "changelog.d/fix.md:2:8: error: invalid UTF-8 byte 0xff in the changelog note\n"
    )


@pytest.mark.parametrize(
    ("version", "problem"),
    [
        ("v012345678.0.0", "version 'v012345678.0.0' has a leading zero; write v12345678.0.0"),
        ("v0.0.012345678", "version 'v0.0.012345678' has a leading zero; write v0.0.12345678"),
        ("v0123456789.0.0", "version 'v0123456789.0.0' has a number of more than 9 digits"),
    ],
)
def test_a_version_number_may_have_nine_digits_and_no_more(version, problem):
    """(Asked only of a text that is not a version: the leading zero is what is wrong.)"""
    assert entries.version_problem(version) == problem


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("x" * entries.SHOWN, "x" * entries.SHOWN),
        ("x" * (entries.SHOWN + 1), "x" * (entries.SHOWN - 3) + "..."),
        ("a\nb", "a\\nb"),
    ],
    ids=["exactly-shown", "one-more", "line-break"],
)
def test_a_quoted_text_is_cut_only_past_the_shown_length(text, quoted):
    assert entries.shown(text) == quoted
