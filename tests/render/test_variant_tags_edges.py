"""Edges of the AgentOnly rules that no other test reached: blanks after a tag, an escaped
tag in prose, a comment under a heading, ``agent-variants:`` outside a frontmatter, and a
code block's language."""

from __future__ import annotations

import pytest

from docgen.render import mdx, variants

FRONT = "---\ntitle: x\n---\n\n"


def test_blanks_after_a_tag_leave_it_a_tag(make_project, run):
    page = FRONT + 'Intro.\n\n<AgentOnly variant="alpha"> \nAlpha only.\n</AgentOnly>\t\n'
    project = make_project(files={"docs/p.mdx": page})
    result = run(project, "build")
    assert result.exit_code == 0, result.output
    alpha = project.read("docs/_build/agent-variants/p.alpha.generated.mdx")
    beta = project.read("docs/_build/agent-variants/p.beta.generated.mdx")
    assert "Alpha only." in alpha and "AgentOnly" not in alpha
    assert "Intro." in beta and "Alpha only." not in beta


def test_an_escaped_tag_in_prose_is_text(make_project, run):
    page = FRONT + 'Run `$$acme`.\n\nWrite \\<AgentOnly variant="x"> to mark a block.\n'
    project = make_project(files={"docs/p.mdx": page})
    assert run(project, "build").exit_code == 0
    beta = project.read("docs/_build/agent-variants/p.beta.generated.mdx")
    assert 'Write \\<AgentOnly variant="x"> to mark a block.' in beta


def test_a_comment_under_a_heading_is_no_content(make_project, run):
    page = FRONT + '## Setup\n\n{/* TODO: screenshots */}\n\n<AgentOnly variant="alpha">\nx\n'
    project = make_project(files={"docs/p.mdx": page + "</AgentOnly>\n"})
    result = run(project, "build")
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "docs/p.mdx:5: error: heading 'Setup' has no content in the beta variant"
    ), result.stderr


@pytest.mark.parametrize(
    ("text", "shared"),
    [
        ("---\ntitle: x\nagent-variants: [alpha]\n---\n\nPlain.\n", True),
        ("agent-variants: [alpha]\n\nPlain page.\n", False),  # no frontmatter: prose
        ("The `agent-variants:` key lists agents.\n", False),
    ],
)
def test_only_a_frontmatter_key_makes_a_page_shared(text, shared):
    assert variants.is_shared(text, "$$acme") is shared


@pytest.mark.parametrize("lang", ["bash\n## Injected heading", "bash\r## x", "ba`sh"])
def test_a_code_blocks_language_is_one_line_without_backticks(lang):
    with pytest.raises(ValueError, match="code block language must be one line"):
        mdx.code_block("echo hi", lang)


def test_a_line_indented_four_spaces_is_no_heading(make_project, run):
    """MDX has no indented code: ``    ## x`` is a paragraph, content of the section above
    it. Taken for a heading, it left ``Setup`` empty in the beta variant."""
    page = FRONT + '## Setup\n\n<AgentOnly variant="alpha">\nAlpha.\n</AgentOnly>\n\n    ## x\n'
    project = make_project(files={"docs/p.mdx": page})
    result = run(project, "build")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    assert "## x" in project.read("docs/_build/agent-variants/p.beta.generated.mdx")
