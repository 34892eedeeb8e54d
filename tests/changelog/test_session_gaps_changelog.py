"""Changelog behaviour this session added that no test pinned: the column of a problem
in a note whose lines end in spaces."""

from __future__ import annotations

from test_no_markup_rule import NOTE, OPEN, RELEASE, TAG, project, refused  # noqa: F401


def test_trailing_spaces_on_a_note_line_do_not_move_a_problems_column(project, run):  # noqa: F811
    """The column is where the text stands in the note: the spaces after it (which the
    bullet drops) shift nothing."""
    project.write(NOTE, "Fixes the <p thing.   \n    and {x} here,  \t\n")
    refused(
        project,
        run,
        RELEASE,
        [
            f"{NOTE}:1:11: error: '<p' {TAG}",
            f"{NOTE}:2:9: error: {OPEN}",
        ],
    )
