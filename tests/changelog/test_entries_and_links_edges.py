"""What mutation testing found unpinned in the changelog entries and links: hidden notes,
an entry's size in bytes, and where (and whether) a link a script could hide in is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_entries import put

from docgen import config
from docgen.changelog import entries
from docgen.changelog.links import text_link_problems
from docgen.errors import ConfigError
from docgen.io.files import MAX_BYTES

ENTRY = "changelog/2026-01-02.mdx"
ROOT = "changelog-link-root-absolute"


@pytest.fixture
def project(tmp_path: Path) -> config.Project:
    """An empty project with the default settings."""
    return config.Project(tmp_path, config.Config())


def test_an_editors_hidden_file_among_the_notes_is_no_note(project):
    """A hidden ``.#note.md`` (an editor's lock file) beside a note is not read as one."""
    put(project, "changelog.d/note.md", "A note.\n")
    put(project, "changelog.d/.#note.md", "user@host.1234\n")
    assert entries.fragment_files(project) == [project.root / "changelog.d/note.md"]


def test_an_entry_too_large_is_measured_in_bytes_not_characters():
    """Two-byte characters that fit the limit as characters but not as bytes are refused."""
    text = "é" * (MAX_BYTES // 2 + 1)
    with pytest.raises(ConfigError) as raised:
        entries.refuse_oversized(ENTRY, text)
    assert str(raised.value).startswith(f"{ENTRY}: error: the changelog entry would be 4.0 MB;")
    assert entries.refuse_oversized(ENTRY, "é" * (MAX_BYTES // 2)) == "é" * (MAX_BYTES // 2)


def test_an_image_whose_source_starts_slash_backslash_is_refused_at_its_column():
    """``/\\host`` is another site to a browser: an image from there is refused where its
    source starts."""
    line = "- See ![logo](/\\evil.example/logo.png)."
    [problem] = text_link_problems(line + "\n", ENTRY)
    assert (problem.location.line, problem.location.col) == (1, line.index("/\\") + 1)
    assert problem.message.startswith("link '/\\evil.example/logo.png' is not a route;")


def test_a_web_address_in_capitals_is_a_web_address():
    """A scheme is case-insensitive: ``HTTPS://`` and ``MAILTO:`` links are accepted."""
    text = "- See [site](HTTPS://Example.org/x) or [mail](MAILTO:a@example.org).\n"
    assert text_link_problems(text, ENTRY) == []


def test_a_script_defined_in_an_ordered_list_item_with_a_parenthesis_is_refused():
    """``1)`` opens a list item as ``1.`` does: a definition there is a definition."""
    line = "1) [x]: javascript:alert(1)"
    [problem] = text_link_problems(line + "\n", ENTRY)
    assert (problem.location.line, problem.location.col) == (1, line.index("javascript") + 1)
    assert problem.rule == ROOT


def test_a_script_on_the_line_after_its_definition_is_refused_at_that_line():
    """A definition's target may stand on the next line: the refusal points there."""
    text = "- A note.\n\n[x]:\n  javascript:alert(1)\n"
    [problem] = text_link_problems(text, ENTRY)
    assert problem.location.line == 4
    assert "uses the scheme 'javascript:'" in problem.message


def test_a_target_after_a_closing_bracket_with_no_opening_one_is_no_definition():
    """Without a ``[`` before it, ``]: javascript:...`` is text, not a definition."""
    assert text_link_problems("## v1.0.0\n\n- Fixed ]: javascript:alert(1)\n\n", ENTRY) == []
