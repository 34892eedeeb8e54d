"""The changelog no-markup rule judged by the real MDX 3 compiler: of many small entries
made of the fragments that have fooled the rule (list markers, fences, quotes, indents,
tabs, comments, tags, expressions, ESM), every one the rule passes compiles, to a tree
that runs nothing (no expression but a comment, no JSX, no ESM).

The entries come from a seeded generator, so a run is deterministic; the seeds and
sizes here take a few seconds (one compiler call for the whole batch). A longer search:
``SEEDS=1-40 python3 -m pytest tests/changelog/test_markup_against_mdx.py``.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from docgen.changelog.markup import markup_problems

#: What may open a line: mostly nothing (where paragraphs and their edges are), then
#: indents, tabs, quotes and list markers (nested, past 1, with zeros).
PREFIXES = (
    *([""] * 12),
    *(" ", "  ", "   ", "   ", "    ", "    ", "      ", "\t", " \t"),
    *("> ", ">", "> > ", "- > ", "> - "),
    *("- ", "- ", "* ", "+ ", "  - ", "\t- ", "-    "),
    *("1. ", "2. ", "2. ", "01. ", "1) ", "3) ", "- 1. ", "  2. ", "1.     "),
)
#: What may follow: fences, what starts or ends a block, comments, and what runs code.
FRAGMENTS = (
    *("```", "```js", "```js", "~~~", "~~~js", "````", "`code`", "`{x}`"),
    *("---", "***", "> a", "- a", "1. a", "2. a", "01. a", "", ""),
    *("{/*", "*/}", "{/* a", "a */}", "a {/* c */} b"),
    *("{x}", "{x}", "<b>x</b>", "<x", "import x from 'y'", "export const a = 1"),
    *("\\{x}", "\\<y>", "&lt;b&gt;", "[a](b)", "text"),
)
#: Tree nodes where MDX runs or renders code.
RUNS = ("mdxFlowExpression", "mdxTextExpression", "mdxJsxFlowElement", "mdxJsxTextElement")
COMMENT = re.compile(r"\s*/\*.*?\*/\s*", re.S)


def _seeds() -> list[int]:
    given = os.environ.get("SEEDS", "")
    if not given:
        return [1, 2, 3]
    first, _, last = given.partition("-")
    return list(range(int(first), int(last or first) + 1))


def _entries(seed: int, count: int = 1000) -> Iterator[str]:
    chance = random.Random(seed)
    for _ in range(count):
        lines = ["Para."]
        for _ in range(chance.randint(2, 7)):
            if chance.random() < 0.15:
                lines.append("")
                continue
            words = [chance.choice(FRAGMENTS) for _ in range(chance.choice((1, 1, 1, 2)))]
            lines.append(chance.choice(PREFIXES) + " ".join(words))
        yield "\n".join(lines) + "\n"


def _code(node: Any) -> Iterator[str]:
    """The kinds of node in a tree that run or render code (a comment runs nothing)."""
    if isinstance(node, dict):
        kind = node.get("type")
        if kind == "mdxjsEsm" or (kind in RUNS and not COMMENT.fullmatch(str(node.get("value")))):
            yield str(kind)
        for value in node.values():
            yield from _code(value)
    elif isinstance(node, list):
        for value in node:
            yield from _code(value)


@pytest.mark.parametrize("seed", _seeds())
def test_what_the_rule_passes_compiles_and_runs_nothing_in_mdx(seed):
    from mdxc import compile_mdx, mdx_trees, require_mdx

    require_mdx()
    passed = {str(n): text for n, text in enumerate(_entries(seed))}
    passed = {n: text for n, text in passed.items() if not list(markup_problems(text.split("\n")))}
    assert len(passed) > 50  # the generator still reaches text the rule passes
    failed = {passed[n]: error for n, error in compile_mdx(passed).items() if error is not None}
    assert not failed, json.dumps(failed, indent=1)[:2000]
    trees = mdx_trees(passed)
    running = {n: sorted(set(_code(tree))) for n, tree in trees.items()}
    found = {passed[n]: kinds for n, kinds in running.items() if kinds}
    assert not found, json.dumps(found, indent=1)[:2000]


#: Entries the seeded runs found (or that stand for them): MDX reads a fence indented
#: four or more that goes on a paragraph, or follows a blank line, so a later fence
#: line closes it and what follows runs; a multi-line comment in a paragraph that a line
#: starting a block ends, or in a list item or a quote, fails to compile.
FOUND = (
    "Para.\n      ~~~js\nb\n~~~\n{x}\n",
    "Para.\n\n      ~~~js\n~~~\n{x}\n",
    "- a\n\n      ~~~js\n  ~~~\n  {x}\n",
    "text {/* a\n- b */}\n",
    "text {/* a\n# b */}\n",
    "Para.\n*** {/* a\n***\na */}\n",
    "- item\n{/* a\nb */}\n",
    "  - {/*\na {/* c */} b\n",
    "{/* a\n~~~js\na {/* c */} b\n\nx\n",
    "Para.\n\n- Serve it:\n\t```\n {console.log(1)}\n",  # a tab is four columns
    "First release.\n\n- Fixed X.\n\n  {/* note\nmore */}\n",
    "First release {/* a\n{/* b */}\n",
    "Faster for n <\n***\n",
    "import {/* x\n*/} from 'data:text/javascript,console.log(1)'\n",
    "- a {/* c\n2. d */}\n",
    "# Release notes {/* draft\nfor review */}\n",
    "# Fixed a <\nb\n",
    "- x\n {/* a\n b */}\n",
    "Para.\n \t1. a\n{/* a\n01. */}\n",
    "- Fixed a bug.\r\rexport const a = 1\n",  # a lone CR is a line end to MDX
    "- Ex:\n\n  ```\n\u00a0\n  {x}\n  ```\n",  # U+00A0 is no blank to MDX
    "- Ex:\n\n  ```\n  foo\n  ```\u00a0\n  ```\n  {x}\n  ```\n",  # nor closes a fence
    "- Steps:\n  1. Pipe it into the tool with <\n  2)\n",  # an empty item ends it
    "[a](/`x) {x} `y)\n",  # a link's target is read before code spans
    '[a](b "`") {x} `"\n',  # and its title
    "| a | b |\n| - | - |\n| `x | {x} | y` |\n",  # a table's cells before code spans
    "a\n| - |\n`x | {x} | y`\n",
    "text {/* a\n| - |\nb */}\n",  # a delimiter row makes a table of the line above
    "| a | b |\n| - | - |\n| {/* c\nd */} |\n",
    "text {/* a\n[^1]: b */}\n",  # a footnote definition starts a block
    "[^1]: {/* a\nb */}\n",
    "\ufeffimport x from 'y'\n",  # MDX drops a byte order mark
)
#: Ordinary text the rule passes, and MDX compiles: a comment a bullet goes on with, on
#: a lazy line, after a tab or a fence; inline code that looks like a fence.
VALID = (
    "- A new profile. {/* a comment\n   over two lines */}\n",
    "- Fixed X {/* see PR\nfor details */} and Y.\n",
    "- Fixed X {/* see\n\tmore */}\n",
    "```yaml\n- a: 1\n```\nText {/* c\nd */} more\n",
    "Text {/* a\n#hashtag b */} more\n",
    "```x``` is inline.\n\n```bash\necho {x}\n```\n",
    "Para.\n\n{/* a\n- b\n*/}\n",
    "- Fixed X.\n  {/* see PR 12\n  for details */}\n",
    "- x\n\n  {/* a\n  # b\n  */}\n",
    "| a | b |\n| - | - |\n| `x` | y |\n",
)


@pytest.mark.parametrize("text", FOUND)
def test_entries_mdx_fails_on_or_runs_are_refused(text):
    from mdxc import compile_mdx, mdx_trees, require_mdx

    require_mdx()
    error = compile_mdx({"e": text})["e"]
    assert error is not None or list(_code(mdx_trees({"e": text})["e"]))  # MDX's verdict
    assert list(markup_problems(text.split("\n")))


@pytest.mark.parametrize("text", VALID)
def test_ordinary_text_mdx_compiles_is_passed(text):
    from mdxc import compile_mdx, require_mdx

    require_mdx()
    assert compile_mdx({"e": text})["e"] is None  # MDX's verdict
    assert not list(markup_problems(text.split("\n")))
