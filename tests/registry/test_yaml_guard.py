"""ruamel.yaml's constructors failed with Python's own errors (exit 3) on values a file
can hold: every YAML reader docgen uses (the registry, the navigation, a page's
frontmatter, a rendered YAML file) gives a located error for each, or reads it."""

from __future__ import annotations

import itertools

import pytest

from docgen import navigation
from docgen.errors import DocgenError, Location
from docgen.registry.source import load_text
from docgen.render import file_kinds, frontmatter

READERS = {
    "registry": lambda text: load_text(text, "p.yaml"),
    "navigation": lambda text: navigation._round_trip(text, "docs/index.yml"),
    "frontmatter": lambda text: frontmatter._careful(text, "docs/x.mdx"),
    "rendered": lambda text: file_kinds._refuse_unparsed(
        "docs/x.yaml", text, Location("templates/x.yaml.j2")
    ),
}
TAGS = ["", "!!bool ", "!!int ", "!!float ", "!!null ", "!!timestamp ", "!!binary ", "!!set "]
TAGS += ["!!omap ", "!!pairs ", "!!map ", "!!seq ", "!!str ", "!foo ", "!!value ", "!!merge "]
VALUES = ["", "x", "1x", "[a]", "{a: 1}", "[{? [a]: 1}]", "{? {a: 1}: 2}", "[[1]]", "~", "="]
VALUES += ["<<", "2024-02-30", "2024-01-01 25:00:00", "-_", "._", "0x_", "0x", "0b2", "1e+"]
VALUES += ["1" * 5000, ".nan", "+", "-", ".", "[a: 1, a: 2]"]  # an !!omap's key twice


@pytest.mark.parametrize("reader", READERS)
def test_no_tag_and_value_makes_a_reader_fail_with_pythons_own_error(reader):
    for tag, value in itertools.product(TAGS, VALUES):
        text = f"k: {tag}{value}\n"
        try:
            READERS[reader](text)
        except DocgenError as exc:
            assert str(exc).count(": error: ") == 1, (text, str(exc))


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("k: !!bool foo\n", "1:4: error: 'foo' cannot be read as !!bool: fix the value, or "
         "remove the tag"),
        ("k: !!int 1e3\n", "1:4: error: '1e3' cannot be read as !!int"),
        ("k: -_\n", "1:4: error: '-_' reads as a number in YAML 1.2, but no number can be "
         "read from it"),
        ("k: [1, ._]\n", "1:8: error: '._' reads as a number in YAML 1.2"),
        ("k:\n  ? [{a: 1}]\n  : x\n", "2:5: error: a mapping key is a list or a mapping"),
        # no JSON holds a set, an ordered map or bytes: a navigation took a set's entries
        # for a tab's slugs (exit 3) and bytes for a page's path (a review)
        ("k: !!set {a}\n", "1:4: error: the YAML tag '!!set' has no meaning in the navigation"),
        ("k: !!binary AAAA\n", "1:4: error: the YAML tag '!!binary' has no meaning in the"),
        ("k: !!omap [a: 1, a: 2]\n", "1:4: error: the YAML tag '!!omap' has no meaning in"),
    ],
)  # fmt: skip
def test_the_navigation_says_where_and_what(text, said):
    with pytest.raises(DocgenError) as caught:
        navigation._round_trip(text, "docs/index.yml")
    assert str(caught.value).startswith(f"docs/index.yml:{said}")


def test_a_date_python_makes_no_date_of_is_text_in_the_navigation():
    """``2024-02-30`` crashed the careful reader (a tab in a comment sent the file there;
    a fresh-eyes review): YAML 1.2 has no timestamps, and the fast path reads it as text."""
    assert navigation._round_trip("k: 2024-02-30\n", "docs/index.yml") == {"k": "2024-02-30"}
