"""The in-sync line for no generated file, and the percent escape of a diff line that
would start a workflow command in ``check --format github``."""

from __future__ import annotations

from docgen import report
from docgen.changes import CHANGED, Change, Report
from docgen.plan import Output


def test_no_generated_file_is_counted_in_the_plural():
    assert report.matching(0) == "0 generated files match the registry"
    assert [line.text for line in report.check_text(Report([]), verbose=False)] == [
        "0 generated files match the registry"
    ]


def test_an_escaped_line_escapes_its_percent_signs_first():
    """The runner decodes ``%3A`` back to ``:``; a page's own ``%3A`` must reach the log as
    it stands, so its ``%`` is escaped too (before the escapes docgen adds)."""
    assert report._inert("::x::50%3A") == "%3A%3Ax%3A%3A50%253A"
    assert report._inert("50%3A plain") == "50%3A plain"  # starts nothing: as it is


def test_a_drifted_page_line_with_a_percent_escape_keeps_it_in_the_github_diff():
    old, new = "Say ##[x] at 50%3A.\nend\n", "Say ##[x] at 50%3A.\nend, edited\n"
    drift = Report([Change("docs/p.mdx", CHANGED, Output("docs/p.mdx", new, "t.mdx.j2"), old)])
    texts = [line.text for line in report.check_github(drift)]
    assert " Say ##%5Bx] at 50%253A." in texts
    assert "+end, edited" in texts
