"""``depth.too_deep``: what nests past what MDX's compiler takes is found wherever it is
(on a line, over a paragraph's lines, in a fence's prefix, in footnotes), and realistic
text is not refused. Each refused case here makes MDX 3 run out of stack (checked with
its compiler where it is installed); each accepted one compiles."""

from __future__ import annotations

import pytest
from mdxc import compile_mdx, mdx_available

from docgen.changelog.depth import MAX_LEVELS, too_deep

DEEP = {
    "fence-in-list-items": ["- " * 700 + "```", "code", "```"],
    "ordered-items-that-continue-a-paragraph": [
        "Deep",
        *["2. " + "*a " * 60] * 40,
        *["2. " + " a*" * 60] * 40,
    ],
    "quote-lines-in-a-list-item": [
        "- Deep",
        *["  > " + "*a " * 60] * 40,
        *["  > " + " a*" * 60] * 40,
    ],
    "footnote-labels": ["".join(f"[^a{i}]: - " for i in range(2000)) + "x"],
    "marks-between-words": ["*a _a " * 1000 + "x" + " a_ a*" * 1000],
}
FINE = {
    "table": [
        "| Model | Download | Disk |",
        "|---|---|---|",
        *[f"| `model-{n}` | **{n}** GB | **{2 * n}** GB |" for n in range(60)],
    ],
    "bullets-with-emphasis": [f"- **Item {n}** is *new*." for n in range(80)],
    "code-spans": ["Set `" + "_" * 300 + "` as the separator."],
    "a-hundred-levels": ["- " * (MAX_LEVELS - 1) + "x"],
}


@pytest.mark.parametrize("lines", DEEP.values(), ids=DEEP.keys())
def test_nesting_mdx_cannot_compile_is_found(lines):
    assert list(too_deep(lines))
    if mdx_available():
        assert "call stack" in (compile_mdx({"x": "\n".join(lines) + "\n"})["x"] or "")


@pytest.mark.parametrize("lines", FINE.values(), ids=FINE.keys())
def test_realistic_text_is_not_refused(lines):
    assert list(too_deep(lines)) == []
    if mdx_available():
        assert compile_mdx({"x": "\n".join(lines) + "\n"}) == {"x": None}


def test_a_quote_that_starts_after_a_paragraph_counts_its_marks_afresh():
    """A ``>`` line after a paragraph opens a quote, a block of its own: its emphasis
    marks do not add to the paragraph's (the same lines without ``>`` do)."""
    lines = ["*" * 150, "> " + "*" * 60]
    assert list(too_deep(lines)) == []
    assert list(too_deep(["*" * 150, "*" * 60])) == [(1, 50)]
