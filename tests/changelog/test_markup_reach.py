"""Where the ``changelog-no-markup`` rule reads an entry on disk: everything below a right
SPDX header (text above the first release too); below a wrong header, which is its own
problem, only the release sections, from each heading on."""

from __future__ import annotations

import pytest
from conftest import MINIMAL_REGISTRY

from docgen.changelog.entries import header, parse_entry
from docgen.changelog.history import check_entry
from docgen.registry.load import load_bytes

REGISTRY = load_bytes(MINIMAL_REGISTRY.encode(), "profiles.yaml")
HEADER = header(REGISTRY)
WRONG_HEADER = (
    "{/* a hand-written header\n that goes on\n over lines\n and lines\n with {x} in it */}\n"
)


def found(text: str) -> list[tuple[int, str]]:
    entry = parse_entry("changelog/2026-01-02.mdx", text)
    return [(p.location.line, p.rule) for p in check_entry(entry, REGISTRY, set())]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            HEADER + "\nIntro {x}.\n\n## v0.2.0\n\nAcme v0.2.0 adds <b> things.\n",
            [(6, "changelog-no-markup"), (10, "changelog-no-markup")],
        ),
        (
            WRONG_HEADER
            + "<b>above</b>\n## v0.2.0\n{y} first.\n\n## v0.1.0\n\nAcme v0.1.0 adds {z}.\n",
            [(1, "changelog-header"), (8, "changelog-no-markup"), (12, "changelog-no-markup")],
        ),
        (
            "{/* no header */}\n\nText {x}.\n",
            [(1, "changelog-header"), (1, "changelog-heading")],
        ),
    ],
    ids=["right-header", "wrong-header", "wrong-header-no-release"],
)
def test_the_rule_reads_below_the_header_or_from_the_first_release(text, expected):
    assert found(text) == expected


def test_a_hostile_entry_is_said_in_a_bounded_number_of_problems():
    """A million bad lines cost a hundred problems, not a million (time, memory, output)."""
    from docgen.changelog.history import MAX_ENTRY_PROBLEMS

    text = HEADER + "\n## v0.2.0\n\n" + "{\n" * 200_000
    entry = parse_entry("changelog/2026-01-02.mdx", text)
    problems = check_entry(entry, REGISTRY, set())
    assert len(problems) == MAX_ENTRY_PROBLEMS + 1
    first = HEADER.count("\n") + 4
    assert [p.location.line for p in problems[:3]] == [first, first + 1, first + 2]
    assert str(problems[-1]) == (
        f"changelog/2026-01-02.mdx:{first + MAX_ENTRY_PROBLEMS}: error: more problems in this "
        f"entry are not listed (the first {MAX_ENTRY_PROBLEMS} are)"
    )
