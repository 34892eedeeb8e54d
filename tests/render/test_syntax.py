"""How an MDX page is laid out, and every reader of pages agreeing on it.

The frontmatter split, the fence rules and the notice live in ``docgen.render.syntax``;
the variants engine, the notice writer, the MkDocs converter and the vLLM command
reader all go through it, so each case here is checked against all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

import pytest
from conftest import Outcome, Project

from docgen.errors import Location, PageError
from docgen.integrations import vllm_verify
from docgen.integrations.mdx_to_markdown import convert
from docgen.render import syntax, variants
from docgen.render.syntax import CLOSING, CODE, OPENING, PROSE

NOTE = syntax.notice("templates/t.mdx.j2", "profiles.yaml")
AGENTS = [SimpleNamespace(id="alpha", cli="acme"), SimpleNamespace(id="beta", cli="acme-beta")]

#: (case, page text, frontmatter or None when there is none, body, body's first line)
PAGES = [
    ("plain", "---\ntitle: T\n---\nBody.\n", "title: T", "Body.\n", 4),
    ("empty-frontmatter", "---\n---\nBody.\n", "", "Body.\n", 3),
    ("empty-then-rule", "---\n---\nBody.\n\n---\n\nMore.\n", "", "Body.\n\n---\n\nMore.\n", 3),
    ("crlf", "---\r\ntitle: T\r\n---\r\nBody.\r\n", "title: T", "Body.\r\n", 4),
    ("crlf-empty", "---\r\n---\r\nBody.\r\n", "", "Body.\r\n", 3),
    ("no-closing-marker", "---\ntitle: T\nBody.\n", None, "---\ntitle: T\nBody.\n", 1),
    ("rule-later", "---\ntitle: T\n---\nBody.\n\n---\n\nMore.\n", "title: T", "Body.\n\n---\n\nMore.\n", 4),  # noqa: E501
    ("rule-without-frontmatter", "Body.\n\n---\n\nMore.\n", None, "Body.\n\n---\n\nMore.\n", 1),
    ("only-frontmatter", "---\ntitle: T\n---\n", "title: T", "", 4),
    ("only-frontmatter-no-newline", "---\ntitle: T\n---", "title: T", "", 4),
    ("only-empty-frontmatter", "---\n---", "", "", 3),
    ("marker-alone", "---\n", None, "---\n", 1),
    ("marker-with-space", "--- \ntitle: T\n---\nBody.\n", "title: T", "Body.\n", 4),
    ("markers-with-blanks", "---\t\ntitle: T\n---  \nBody.\n", "title: T", "Body.\n", 4),
    ("marker-indented", " ---\ntitle: T\n---\nBody.\n", None, " ---\ntitle: T\n---\nBody.\n", 1),
]  # fmt: skip
PAGE_IDS = [case[0] for case in PAGES]


@pytest.mark.parametrize(
    ("text", "frontmatter", "body", "first"), [c[1:] for c in PAGES], ids=PAGE_IDS
)
def test_the_split_finds_where_the_body_starts(text, frontmatter, body, first):
    parts = syntax.split(text)
    assert parts.has_frontmatter == (frontmatter is not None)
    assert parts.frontmatter == (frontmatter or "")
    assert (parts.body, parts.first_line) == (body, first)
    assert parts.head + parts.body == text
    closed = "" if frontmatter is None else parts.head + ("" if parts.head.endswith("\n") else "\n")
    assert parts.closed_head == closed


def test_the_mdx_compiler_finds_the_same_frontmatter():
    """The real judge: remark-frontmatter, as Fern's MDX 3 reads pages, finds frontmatter
    in exactly the pages the split does, with the same YAML (blanks after a fence's
    dashes allowed, an indented fence not)."""
    from mdxc import mdx_read, require_mdx

    require_mdx()
    found = mdx_read({case[0]: case[1] for case in PAGES})
    for case, text, _frontmatter, _body, _first in PAGES:
        assert found[case].error is None, case
        parts = syntax.split(text)
        assert found[case].frontmatter == (parts.frontmatter if parts.has_frontmatter else None)


@pytest.mark.parametrize(
    ("text", "frontmatter", "body", "first"), [c[1:] for c in PAGES], ids=PAGE_IDS
)
def test_the_notice_goes_where_the_body_starts(text, frontmatter, body, first):
    noted = syntax.with_notice(text, NOTE, Location("p.mdx", 1), "p.mdx")
    if frontmatter is None:
        assert noted == f"{NOTE}\n\n{text}"
    else:
        parts = syntax.split(text)
        assert noted == f"{parts.closed_head}\n{NOTE}\n{body}"
        assert noted.startswith(parts.head)
    assert syntax.owned(noted)


@pytest.mark.parametrize(
    ("text", "frontmatter", "body", "first"), [c[1:] for c in PAGES], ids=PAGE_IDS
)
def test_the_variants_engine_agrees(text, frontmatter, body, first):
    page = variants.parse("p.mdx", text, AGENTS)  # type: ignore[arg-type]
    assert (page.body_text, page.first_line) == (body, first)
    assert page.frontmatter == (frontmatter or "")
    assert page.body[0].number == first
    rendered = variants.render(page, AGENTS[0], "$$acme", "p.mdx")  # type: ignore[arg-type]
    assert rendered == variants.collapse_blank_runs(syntax.split(text).closed_head + body)


@pytest.mark.parametrize(
    ("text", "frontmatter", "body", "first"), [c[1:] for c in PAGES], ids=PAGE_IDS
)
def test_the_markdown_converter_agrees(text, frontmatter, body, first):
    result = convert(text)
    assert result.title == ("T" if frontmatter else None)
    expected = convert(body.replace("\r\n", "\n")).markdown.removeprefix(NO_META)
    assert result.markdown == (
        f'---\ntitle: "T"\n---\n\n# T\n\n{expected}' if frontmatter else NO_META + expected
    )


#: The meta block the converter writes for a page with no title or description.
NO_META = "---\n{}\n---\n\n"


def test_a_page_with_empty_frontmatter_gets_its_notice_below_it(
    make_project: Callable[..., Project], run: Callable[..., Outcome]
) -> None:
    page = "---\n---\nRun `$$acme status`.\n\n---\n\nMore.\n"
    project = make_project(
        templates={"empty.mdx.j2": "---\n---\nText.\n\n---\n\nMore.\n"},
        files={"docs/hand.mdx": page},
    )
    assert run(project, "build").exit_code == 0
    generated = project.read("docs/empty.mdx")
    assert generated.startswith("---\n---\n\n{/* This file is generated by docgen from ")
    assert generated.endswith(" */}\nText.\n\n---\n\nMore.\n")
    variant = project.read("docs/_build/agent-variants/hand.alpha.generated.mdx")
    assert variant.startswith("---\n---\n\n{/* This file is generated by docgen from ")
    assert variant.endswith(" */}\nRun `acme status`.\n\n---\n\nMore.\n")
    assert run(project, "check").exit_code == 0


def test_a_crlf_page_declares_its_agents_in_its_frontmatter(
    make_project: Callable[..., Project], run: Callable[..., Outcome]
) -> None:
    page = '---\r\ntitle: "x"\r\nagent-variants: ["beta"]\r\n---\r\nRun `$$acme`.\r\n'
    project = make_project(templates={}, files={"docs/one.mdx": page})
    result = run(project, "build")
    assert (result.exit_code, result.stderr) == (
        2,
        "docs/one.mdx:5: error: '$$acme' on a page published only for 'beta': write the CLI "
        "name literally or publish the page for more agents\n",
    )
    project.write("docs/one.mdx", page.replace('["beta"]', '["alpha", "beta"]'))
    assert run(project, "build").exit_code == 0
    variants_dir = project.root / "docs/_build/agent-variants"
    assert sorted(p.name for p in variants_dir.iterdir()) == [
        "one.alpha.generated.mdx",
        "one.beta.generated.mdx",
    ]
    beta = (variants_dir / "one.beta.generated.mdx").read_bytes().decode()
    # The page is read with its CRLF line ends as LF: a variant has one kind of line end.
    assert beta.startswith('---\ntitle: "x"\nagent-variants: ["alpha", "beta"]\n---\n\n{/* ')
    assert beta.endswith(" */}\nRun `acme-beta`.\n")
    assert run(project, "check").exit_code == 0


# -- the notice ----------------------------------------------------------------------------


def test_the_notice_names_its_sources_in_mdx_or_plain_words():
    mdx = syntax.notice("templates/a.mdx.j2", "profiles.yaml")
    assert mdx == (
        "{/* This file is generated by docgen from profiles.yaml and templates/a.mdx.j2. "
        "Do not edit it by hand: change those and run `docgen build`. */}"
    )
    plain = syntax.notice("templates/a.mdx.j2", "profiles.yaml", comment="plain")
    assert plain == mdx[4:-4]


def test_ownership_is_the_notice_near_the_top():
    # The notice in its place marks a file; the words elsewhere in the text do not (they
    # used to: a hand-written page that said "generated by docgen" was deleted as stale).
    assert syntax.owned("{/* " + "x" * 1900 + " */}\n" + NOTE + "\n") is False
    assert not syntax.owned("x" * 1900 + syntax.NOTICE_MARK)
    assert not syntax.owned("x" * 1990 + syntax.NOTICE_MARK)
    assert not syntax.owned("# A page about docgen\n")
    assert not syntax.owned("{/* generated by docgen */}\n")  # a person's words, not docgen's
    # An editor's BOM before docgen's file leaves it docgen's, for every reader that asks.
    assert syntax.owned("\ufeff" + NOTE + "\n")
    assert syntax.hash_owned("\ufeff# " + NOTE[4:-4] + "\nx: 1\n")
    assert syntax.owned(NOTE + "\n\n" + "x" * 3000)
    assert not syntax.owned("x" * 1990 + "\n" + NOTE + "\n")


# -- fenced code ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "fence"),
    [
        ("```", syntax.Fence(0, "```", "")),
        ("~~~~ bash", syntax.Fence(0, "~~~~", " bash")),
        ('    ```bash title="x"', syntax.Fence(4, "```", 'bash title="x"')),
        ("~~~ `x`", syntax.Fence(0, "~~~", " `x`")),
        ("```js `x`", None),  # backticks in a backtick fence's info: inline code
        ("``", None),
        ("\t```", syntax.Fence(1, "```", "")),  # MDX 3 too: no bound on a fence's indent
        ("text ```", None),
    ],
)
def test_what_opens_a_fence(line, fence):
    assert syntax.opening(line) == fence


@pytest.mark.parametrize(
    ("info", "language"),
    [("bash", "bash"), (' bash title="x"', "bash"), ("bash{1,3}", "bash"), ("{.py}", ""), ("", "")],
)
def test_a_fences_language_is_its_first_word(info, language):
    assert syntax.Fence(0, "```", info).language == language


@pytest.mark.parametrize(
    ("line", "closes"),
    [
        ("```", True),
        ("  ````  ", True),
        ("        ```", True),
        ("```\r", True),
        ("``", False),
        ("~~~", False),
        ("```bash", False),
        ("``` x", False),
        ("", False),
    ],
)
def test_what_closes_a_backtick_fence(line, closes):
    assert syntax.Fence(0, "```", "").closed_by(line) is closes


def test_each_line_has_a_role_and_an_open_fence_runs_to_the_end():
    lines = ["a", "```bash", "```sh", "x", "```", "b", "~~~", "```"]
    found = [role for role, _fence in syntax.roles(lines)]
    assert found == [PROSE, OPENING, CODE, CODE, CLOSING, PROSE, OPENING, CODE]
    blocks = list(syntax.code_blocks(lines))
    assert blocks[0] == "a" and blocks[2] == "b"
    assert blocks[1] == syntax.CodeBlock(syntax.Fence(0, "```", "bash"), ("```sh", "x"), 1, True)
    assert blocks[3] == syntax.CodeBlock(syntax.Fence(0, "~~~", ""), ("```",), 6, False)


INDENTED = (
    "1. Start it:\n\n    ```bash\n    vllm serve m --a 1\n    ```\n\n2. Then `vllm serve x`.\n"
)
NESTED = "```bash\n```sh\nvllm serve inner\n```\nvllm serve after\n"


def test_the_vllm_reader_and_the_converter_agree_on_an_indented_fence():
    shown = list(vllm_verify.page_commands("p.mdx", INDENTED))
    assert [(s.location.line, s.argv) for s in shown] == [(4, ("vllm", "serve", "m", "--a", "1"))]
    assert "<pre><code" not in convert(INDENTED).markdown  # Markdown: indented code
    assert "        vllm serve m --a 1\n" in convert(INDENTED).markdown


def test_an_opening_line_inside_a_fence_is_code_for_every_reader():
    shown = list(vllm_verify.page_commands("p.mdx", NESTED))
    assert [(s.location.line, s.argv) for s in shown] == [(3, ("vllm", "serve", "inner"))]
    assert convert(NESTED).markdown == NO_META + NESTED
    heading = "## Setup\n\n```text\n```md\n## Not a heading\n```\n"
    page = variants.parse("p.mdx", heading, AGENTS)  # type: ignore[arg-type]
    assert variants.empty_sections(page, ["alpha", "beta"]) == []


@pytest.mark.parametrize("extra", range(-4, 5))
def test_a_notice_is_placed_only_where_it_is_found(extra):
    """``with_notice`` counts where the notice would end; a page it accepts is one docgen
    reads as its own, and one just past the reach is refused at its place."""
    note = syntax.notice("templates/p.mdx.j2", "profiles.yaml")
    room = syntax.NOTICE_REACH - len("---\ntitle: \n---\n") - 1 - len(note) - 1
    text = f"---\ntitle: {'x' * (room + extra)}\n---\n\nBody.\n"
    where = Location("templates/p.mdx.j2", 1)
    if extra <= 0:
        assert syntax.owned(syntax.with_notice(text, note, where, "docs/p.mdx"))
    else:
        with pytest.raises(PageError) as refused:
            syntax.with_notice(text, note, where, "docs/p.mdx")
        end = syntax.NOTICE_REACH + extra
        assert str(refused.value).startswith(
            f"templates/p.mdx.j2:1: error: docgen's notice would end {end} characters into"
        )
        page = f"---\ntitle: {'x' * (room + extra)}\n---\n{note}\nBody.\n"
        assert not syntax.owned(page)  # what it would have written


def test_a_notice_too_long_for_the_reach_is_refused_on_a_page_without_frontmatter():
    note = syntax.notice("templates/" + "d/" * 1000 + "p.mdx.j2", "profiles.yaml")
    with pytest.raises(PageError):
        syntax.with_notice("Body.\n", note, Location("p", 1), "p")
    short = syntax.notice("templates/p.mdx.j2", "profiles.yaml")
    assert syntax.owned(syntax.with_notice("Body.\n", short, Location("p", 1), "p"))


def test_a_notice_after_a_rule_in_the_body_is_no_claim_to_the_page(make_project, run):
    """The notice counts only in its one place, after the frontmatter as the compiler reads
    it: a hand-written page that shows the notice after a thematic break in its body (its
    frontmatter closed by ``--- ``) is the author's, never pruned."""
    note = syntax.notice("templates/hand.mdx.j2", "profiles.yaml")
    page = f"---\ntitle: Hand\n--- \n\nIntro.\n\n---\n\n{note}\n\nImportant text.\n"
    assert not syntax.owned(page)
    project = make_project(files={"docs/hand.mdx": page})
    assert run(project, "build").exit_code == 0
    assert project.read("docs/hand.mdx") == page
