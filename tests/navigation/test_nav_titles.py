"""A per-profile page's navigation title comes from its frontmatter only, whether the
plan holds the page's text (a drifted page, a dry run) or only its digest (a build)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from docgen.nav_output import _entry
from docgen.navigation import NavRegion
from docgen.outputs import Output

BODY_TITLE = "Intro.\n\n```yaml\ntitle: Not the page's title\n```\n"


@pytest.mark.parametrize(
    ("text", "title"),
    [
        (BODY_TITLE, "p"),  # no frontmatter: the slug
        (f'---\ntitle: "The Page"\n---\n\n{BODY_TITLE}', "The Page"),
        (f"---\ndescription: d\n---\n\n{BODY_TITLE}", "p"),
    ],
)
def test_a_title_is_the_frontmatters_in_a_plan_with_text_or_digests(text, title):
    page = Output("docs/profiles/p.mdx", text, "templates/profiles/[profile].mdx.j2")
    nav = SimpleNamespace(path="docs/index.yml")
    region = NavRegion("profiles", "", 1, 2, "  ")
    shown = [_entry(None, nav, region, p, set()) for p in (page, page.digest_only())]  # type: ignore[arg-type]
    assert shown[0] == shown[1]
    assert shown[0][0] == f'  - page: "{title}"'


@pytest.mark.parametrize(
    "line",
    [
        'title: "DGX Spark \\"GB10\\" C:\\\\x"',  # as mdx_fm writes a quote and a backslash
        'title: "a\\u2028b \\u00e9"',
        "title: 'it''s \"quoted\"'",
        'title: A "b" c',
        "title: plain # a comment",
        'title: "The Page"',
        "title: The Page",
        "title: Plain title\n  continued here",  # a plain value goes on in an indented line
        "title: Plain title\n\n  after a blank line",
        'title: "Quoted"\ndescription: d',
        "title: 1.5",
    ],
)
def test_a_title_reaches_the_navigation_as_the_frontmatter_says_it(line):
    """The navigation's YAML reads the title the page's frontmatter gives, escaped once."""
    import yaml

    page = Output("docs/profiles/p.mdx", f"---\n{line}\n---\n\nBody.\n", "t.mdx.j2")
    nav = SimpleNamespace(path="docs/index.yml")
    region = NavRegion("profiles", "", 1, 2, "  ")
    entry = _entry(None, nav, region, page.digest_only(), set())  # type: ignore[arg-type]
    assert yaml.safe_load(entry[0].strip()[2:])["page"] == str(yaml.safe_load(line)["title"])
