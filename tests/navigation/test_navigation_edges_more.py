"""The navigation's reader and writer at their edges: slugs and routes a link reaches,
a navigation that is no list, and values the managed region writes."""

from __future__ import annotations

import pytest

from docgen import navigation
from docgen.errors import ConfigError, Location
from docgen.nav_slugs import linkable
from docgen.registry.fastyaml import load_located


def parsed(text: str) -> navigation.Navigation:
    data = load_located(text, "docs/index.yml")
    return navigation.parse(data, "docs/index.yml")


def problems(text: str) -> list[str]:
    with pytest.raises(ConfigError) as raised:
        parsed(text)
    return [str(p) for p in raised.value.problems]


def test_a_slug_may_hold_a_tilde():
    nav = parsed(
        "navigation:\n  - section: Guide\n    slug: v1~beta\n    contents:\n"
        "      - page: A\n        path: a.mdx\n"
    )
    assert [p.route for p in nav.pages] == ["/v1~beta/a"]


def test_a_navigation_that_is_text_is_said_to_have_no_list_once():
    assert problems("navigation: some text\n") == [
        "docs/index.yml:1:13: error: the navigation has no 'navigation' list"
    ]


@pytest.mark.parametrize("route", ["/release-日本語", "/a/release-日本語/x", "/release-x日本"])
def test_a_route_segment_that_turns_beyond_ascii_is_one_no_link_reaches(route):
    """A segment that starts as a slug may end as none: the whole segment must be one."""
    assert linkable(route, {}, Location("docs/index.yml", 1, 1)) is not None


@pytest.mark.parametrize("word", ["on", "off", "On", "OFF", "yes", "null"])
def test_a_word_yaml_reads_as_a_boolean_or_null_is_written_quoted(word):
    """The managed region writes a profile's slug and path: ``slug: on`` reads as true."""
    from docgen.nav_output import _scalar

    assert _scalar(word) == f'"{word}"'
    assert _scalar(f"{word}x") == f"{word}x"


def test_a_title_that_is_no_text_gives_no_title():
    """A frontmatter ``title`` YAML reads as a number (through an anchor, past the quick
    reading) is no title: the region falls back to the slug."""
    from docgen.nav_output import _title
    from docgen.outputs import Output

    page = Output("docs/p.mdx", "---\ntitle: &a 5\n---\n\nText.\n", "t")
    assert _title(page) is None
