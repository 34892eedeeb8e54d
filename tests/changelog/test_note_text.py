"""A note becomes bullets of an entry one sentence per line, and keeps what its
structure means: a code block's lines and indentation, a list's items."""

from __future__ import annotations

import pytest

from docgen.changelog.note_text import note_bullets
from docgen.errors import ConfigError


def shown(text: str) -> list[str]:
    return ["\n".join(line for _number, line in bullet) for bullet in note_bullets(text)]


def test_prose_is_one_sentence_per_line_under_a_dash():
    assert shown("\n- Fixed it.\n\n   It retries.\n") == ["- Fixed it.\n  It retries."]
    assert shown("Fixed it.\r\nIt retries.\r") == ["- Fixed it.\n  It retries."]
    assert shown("-\nFixed it.\n") == ["- Fixed it."]
    assert shown(" \n\t\n") == []


def test_a_code_block_keeps_its_lines_and_their_indentation():
    note = "Set the port:\n\n```yaml\nserver:\n  port: 8000\n\n  host: 0.0.0.0\n```\nThen go.\n"
    assert shown(note) == [
        "- Set the port:\n  ```yaml\n  server:\n    port: 8000\n\n    host: 0.0.0.0\n  ```\n"
        "  Then go."
    ]


def test_a_list_gives_a_bullet_per_item_and_keeps_nested_items():
    assert shown("- One.\n- Two.\n  - Under two.\n  Still two.\n") == [
        "- One.",
        "- Two.\n  - Under two.\n  Still two.",
    ]
    assert shown("Fixed:\n- one\n- two\n") == ["- Fixed:\n  - one\n  - two"]  # one bullet


def test_each_line_keeps_its_line_number_in_the_note():
    assert note_bullets("- A.\n\n- B.\n  ```sh\n  ls\n  ```\n") == [
        [(1, "- A.")],
        [(3, "- B."), (4, "  ```sh"), (5, "  ls"), (6, "  ```")],
    ]


def test_a_code_block_never_closed_is_a_located_error():
    with pytest.raises(ConfigError) as raised:
        note_bullets("Run:\n\n~~~~sh\nls\n~~~\n", "changelog.d/x.md")
    assert str(raised.value.problems[0].location) == "changelog.d/x.md:3"
    assert "never closes: end it with ~~~~" in raised.value.problems[0].message


def test_an_entry_shows_a_note_s_code_and_list_as_written(make_project, run):
    """Through ``docgen changelog``, judged by the MDX compiler: the YAML keeps its
    nesting, each listed item is a bullet, and the entry compiles."""
    from conftest import MINIMAL_REGISTRY
    from mdxc import mdx_read, require_mdx

    require_mdx()
    tuned = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")
    project = make_project(
        registry=tuned,
        files={
            "old.yaml": MINIMAL_REGISTRY,
            "changelog.d/a.md": "Set the port:\n\n```yaml\nserver:\n  port: 8000\n```\n",
            "changelog.d/b.md": "- One.\n- Two.\n",
        },
    )
    args = ("changelog", "--version", "v0.1.0", "--since-file", "old.yaml", "--date", "2026-12-01")
    assert run(project, *args).exit_code == 0
    entry = project.read("changelog/2026-12-01.mdx")
    assert "- Set the port:\n  ```yaml\n  server:\n    port: 8000\n  ```\n- One.\n- Two.\n" in entry
    readback = mdx_read({"entry": entry})["entry"]
    assert readback.error is None
    assert "server:\n  port: 8000" in (readback.text or "")
    assert run(project, "build").exit_code == 0
    assert run(project, "check").exit_code == 0  # the history rules take the entry


def test_a_lone_dash_opens_an_item_and_inline_triple_backticks_open_no_block():
    """As CommonMark reads them (the review's two notes): an empty list marker starts an
    item whose text follows; backticks in a backtick fence's info make it inline code."""
    assert shown("- first\n-\n  second\n") == ["- first", "- second"]
    assert shown("```docgen build``` now skips.\n") == ["- ```docgen build``` now skips."]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("```\n```\n", 1),  # an empty code block
        ("{/* to do */}\n", 1),
        ("&nbsp;\n", 1),
        ("&#8203;\n", 1),  # a zero-width space, as a character reference
        ("\u200b\n", 1),  # and as itself
        ("- Fixed the installer.\n- &nbsp; {/* x */}\n", 2),
    ],
)
def test_a_bullet_that_shows_no_text_is_a_located_error(text: str, line: int) -> None:
    """Each became a bullet that looks empty on the page (a hostile user's finding)."""
    with pytest.raises(ConfigError) as raised:
        note_bullets(text, "changelog.d/n.md")
    assert [str(p) for p in raised.value.problems] == [
        f"changelog.d/n.md:{line}: error: this bullet shows no text (only comments, character "
        "references, code fences or invisible characters): say what changed, or remove it"
    ]


@pytest.mark.parametrize("text", ["```bash\nls\n```\n", "- Fixed.\n  {/* why */}\n", "&amp;\n"])
def test_a_bullet_with_code_a_comment_beside_text_or_a_reference_shows_text(text: str) -> None:
    assert note_bullets(text, "changelog.d/n.md")
