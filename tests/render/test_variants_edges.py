"""Variant decisions at their edges, each pinned because a mutation round found it
untested: which sections count as empty, how blank runs and paths come out, what a page's
structure allows, and how a page's agent list is compared."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from docgen.errors import PageError
from docgen.render import variants
from docgen.render.audience import check_listed

TOKEN = "$$acme"
AGENTS = [
    SimpleNamespace(id="alpha", cli="acme"),
    SimpleNamespace(id="beta", cli="acme-beta"),
]
SOURCE = "docs/guide.mdx"
TARGET = "docs/_build/agent-variants/guide.beta.generated.mdx"
ALPHA_ONLY = '<AgentOnly variant="alpha">\nAlpha only.\n</AgentOnly>\n'


def problems(body: str) -> list[str]:
    """What ``check`` says of a shared page with ``body`` published for both agents."""
    page = variants.parse(SOURCE, f"---\ntitle: G\n---\n\n{body}", AGENTS)
    try:
        variants.check(page, AGENTS, TOKEN)
    except PageError as exc:
        return [str(p) for p in exc.problems]
    return []


def beta_variant(body: str) -> str:
    page = variants.parse(SOURCE, f"---\ntitle: G\n---\n\n{body}", AGENTS)
    return variants.render(page, AGENTS[1], TOKEN, TARGET)


def test_an_h6_heading_left_empty_in_a_variant_is_located():
    assert problems(f"## Sec\n\n###### Sub\n\n{ALPHA_ONLY}") == [
        f"{SOURCE}:7: error: heading 'Sub' has no content in the beta variant: move the "
        "heading into the <AgentOnly> block that holds its body"
    ]


def test_a_line_of_text_ending_in_a_comment_is_content():
    assert problems(f"## Sec\n\nRun it now. {{/* note */}}\n\n{ALPHA_ONLY}") == []


def test_a_dropped_block_leaves_one_blank_line_between_paragraphs():
    assert beta_variant(f"Para one.\n\n{ALPHA_ONLY}\nPara two.\n").endswith(
        "Para one.\n\nPara two.\n"
    )


def test_the_agent_guide_import_is_dropped_from_a_page_without_blocks():
    body = 'import { AgentGuide } from "../components/AgentGuide";\n\nRun `$$acme`.\n'
    shown = beta_variant(body)
    assert "AgentGuide" not in shown and "Run `acme-beta`." in shown


def test_an_image_source_is_aimed_from_the_variants_folder():
    shown = beta_variant('<img src="./pic.png" alt="x" />\n\nRun `$$acme`.\n')
    assert '<img src="../../pic.png" alt="x" />' in shown


def test_a_page_naming_its_agents_alone_is_shared():
    assert variants.is_shared("---\ntitle: G\nagent-variants: [alpha]\n---\n\nText.\n", TOKEN)
    assert not variants.is_shared("---\ntitle: G\n---\n\nText.\n", TOKEN)


@pytest.mark.parametrize(
    "structure",
    [
        "+ ~~~sh\n  echo {\n  ~~~\n",  # a fence in a list item opened with '+'
        "{\n  // don't show this\n}\n",  # a line comment inside an expression
    ],
    ids=["plus-list-item-fence", "line-comment-in-an-expression"],
)
def test_a_block_after_this_structure_stands_outside_it(structure):
    assert problems(f"Intro.\n\n{structure}\n{ALPHA_ONLY}") == []


def test_a_pages_agents_and_the_navigations_agree_in_any_order():
    page = variants.parse(
        SOURCE, "---\ntitle: G\nagent-variants: [beta, alpha]\n---\n\nText.\n", AGENTS
    )
    check_listed(page, [AGENTS[1], AGENTS[0]], AGENTS, "docs/index.yml")  # no error


def parse_problems(body: str) -> list[str]:
    try:
        variants.parse(SOURCE, f"---\ntitle: G\n---\n\n{body}", AGENTS)
    except PageError as exc:
        return [str(p) for p in exc.problems]
    return []


def test_a_closing_tag_inside_a_comment_is_one_problem_and_the_block_stays_open():
    body = '<AgentOnly variant="alpha">\n{/*\n</AgentOnly>\n*/}\nalpha\n</AgentOnly>\n'
    assert parse_problems(body) == [
        f"{SOURCE}:7: error: this <AgentOnly> tag stands inside an MDX expression or comment, "
        "an import or export statement, or a JSX tag: cutting the page there would break what "
        "holds it; move the tag out"
    ]


def test_a_nested_block_is_said_once_without_judging_its_agents():
    body = '<AgentOnly variant="alpha">\n<AgentOnly variant="bogus">\nx\n</AgentOnly>\n'
    assert parse_problems(body) == [
        f"{SOURCE}:6: error: nested <AgentOnly> block (the block opened on line 5 is still open)"
    ]


def test_a_changelog_link_is_compared_as_a_normal_path():
    from docgen.outputs_check import refuse_unknown_link

    project = SimpleNamespace(config=SimpleNamespace(changelog_link="docs/./inference/a.mdx"))
    refuse_unknown_link(project, ["docs/inference/a.mdx"])  # no error


def test_a_page_is_published_for_its_agents_in_the_order_it_names_them():
    from docgen.render.audience import published_for

    page = variants.parse(
        SOURCE, "---\ntitle: G\nagent-variants: [beta, alpha]\n---\n\nText.\n", AGENTS
    )
    assert [a.id for a in published_for(page, AGENTS)] == ["beta", "alpha"]
