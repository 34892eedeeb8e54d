"""A tab between tokens is white space to every YAML reader docgen uses, as YAML 1.2 and
libyaml read it (ruamel.yaml refused it: a tab in a comment sent a file to it, or an
anchor did, and a file the fast path took was refused); one inside an unquoted value is a
located error on both paths."""

from __future__ import annotations

import pytest
from conftest import Project

from docgen.errors import DocgenError
from docgen.registry.fastyaml import RUAMEL_MAX_BYTES, load_fast
from docgen.registry.source import load_text
from docgen.registry.yaml_tabs import UNQUOTED_TAB, for_ruamel

SEPARATING = [
    "a:\t4\n",
    "a: 4\t\n",
    "a: 4\t# why\t\n",
    "a: [1,\t2]\t\n",
    "# a\tcomment\na: 1\n",
    # a block scalar's header, and an unquoted value's folding white space (a review:
    # each was read by libyaml and refused by ruamel.yaml)
    "a: |\t\n  x\n",
    "a: >-\t# folded\n  x\n",
    "a: b\t\n  c\n",
    "a: b\n  \tc\n",
    "\ufeffa:\tb\n",  # libyaml counts no leading byte-order mark
]


@pytest.mark.parametrize("text", SEPARATING)
def test_a_tab_between_tokens_is_a_space_to_both_readers(text):
    fast = load_fast(text, "p")
    assert fast is not None
    assert load_text(text, "p").data == fast.data  # ruamel.yaml, through for_ruamel


def test_tabs_inside_quotes_and_block_text_stay_text():
    text = 'a: "x\ty"\nb: |\n  c\td\n'
    assert for_ruamel(text, "p") == (text, None)
    assert load_text(text, "p").data == {"a": "x\ty", "b": "c\td\n"}


@pytest.mark.parametrize(
    ("text", "at"),
    [
        ("a: x\ty\n", "1:5"),
        ("a: 1\nb: [x\ty]\n", "2:6"),
        ("a: x \ty\n", "1:6"),
        ("a: 1\n---\nc: x\ty\n", "3:5"),  # said alike where the fast path declines too
    ],
)
def test_a_tab_inside_an_unquoted_value_is_refused_on_both_paths(text, at):
    for anchored in (text, text + "c: &n 1\n"):  # the fast path, then the careful one
        with pytest.raises(DocgenError) as caught:
            load_fast(anchored, "p") or load_text(anchored, "p")
        assert str(caught.value) == f"p:{at}: error: {UNQUOTED_TAB}"


def test_a_large_file_with_a_tab_in_a_comment_stays_on_the_fast_path():
    """A tab sent a file under 512 KB to ruamel.yaml, twenty times slower (a review)."""
    text = "".join(f"a{i}: 1\n" for i in range(RUAMEL_MAX_BYTES // 8)) + "# a\tb\n"
    assert load_fast(text, "p") is not None


def test_a_tab_after_a_frontmatter_key_and_in_the_navigation_passes(make_project, run):
    page = '---\ntitle:\t"Tabbed"\n---\n\nBody.\n'
    project: Project = make_project(files={"docs/guide.mdx": page})
    assert run(project, "build").exit_code == 0
    assert run(project, "check").exit_code == 0
