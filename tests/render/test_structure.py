"""An <AgentOnly> block is cut only where it leaves MDX's structure as it found it: both
tags at the top level or both in one fenced code block; never inside an expression, a
comment or a JSX tag, whose text a variant would cut in two."""

from __future__ import annotations

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from mdxc import compile_mdx, mdx_text_of, mdx_trees, require_mdx

from docgen.render.structure import ACROSS, INSIDE, TOP, Tags, places

HEAD = "---\ntitle: G\n---\n\n"
VARIANT = "docs/_build/agent-variants/guide/page.alpha.generated.mdx"


def test_where_each_line_stands():
    lines = [
        "Text with `{code}` and \\{ escaped.",  # 0: top
        "{/* a comment",  # 1: top (it opens here)
        "<AgentOnly> in it */}",  # 2: inside
        '<Note title="one',  # 3: top
        'two">',  # 4: inside the tag
        "\t```sh",  # 5: top: a fence opens after a tab too
        "ls",  # 6: in the block opened on line 5
        "```",  # 7: closes it
        "after",  # 8: top
    ]
    assert places(lines) == [TOP, TOP, None, TOP, None, TOP, 5, 5, TOP]


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        # The probe's page: its variants ended in '{/*\n*/ alert(1)}', live code.
        (
            '{/*\n<AgentOnly variant="beta">\n*/}\n\t```\n</AgentOnly>\n*/ alert(1)}\n',
            6,
            INSIDE,
        ),
        ('<Note title="a\n<AgentOnly variant="beta">\nb">\n</AgentOnly>\n</Note>\n', 6, INSIDE),
        ('<AgentOnly variant="beta">\n```sh\nls\n</AgentOnly>\n```\n', 5, ACROSS),
    ],
)
def test_a_tag_that_would_cut_what_holds_it_is_a_located_error(
    make_project, run, body, line, message
):
    project = make_project(templates={}, files={"docs/guide/page.mdx": HEAD + body})
    before = project.snapshot()
    outcome = run(project, "build")
    assert outcome.exit_code == 2
    assert f"docs/guide/page.mdx:{line}: error: {message}" in outcome.stderr.splitlines()
    assert project.snapshot() == before


@pytest.mark.parametrize(
    ("lines", "read"),
    [
        (
            ["<Tabs>", "<Tab", '  title="a">', "x", "</Tab>", "y", "</Tabs>"],
            [(0, "Tabs"), (2, "Tab"), (4, "/Tab"), (6, "/Tabs")],  # a tag ends at its '>'
        ),
        (["<Tabs>", "<Tab>", "</Tabs>"], [(0, "Tabs"), (1, "Tab"), (2, "/Tabs")]),
        (["Use `a", "<Note>", "b` here.", "", "after"], []),  # in a code span: text
        (["> <Note>", "> x", "> </Note>", "after"], [(0, "Note"), (2, "/Note")]),
        (["> <Note>", "> x", "", "after"], [(0, "Note")]),
        (["```mdx", "<Note>", "```"], []),  # in fenced code: text
        (["{/* <Note> */}", '<AgentOnly variant="a">'], [(1, "AgentOnly")]),
        (
            ["a <b>bold</b> and <br /> c", "<>", "</>"],
            [(0, "b"), (0, "/b"), (0, "br/"), (1, ""), (2, "/")],
        ),
    ],
)
def test_which_jsx_tags_a_page_reads_and_where(lines, read):
    """The tags the balance of each variant is judged by: where MDX reads one as a tag
    (not in a code span, fenced code or a comment), at the line where it ends."""
    tags: Tags = []
    places(lines, tags)
    assert tags == read


UNBALANCED = (
    "the {} variant drops {} but keeps its element's other tag (MDX would refuse it): an "
    "<AgentOnly> block holds one of a JSX element's tags but not both; put both in it, or "
    "neither"
)


@pytest.mark.parametrize(
    ("body", "said"),
    [
        # alpha's variant dropped the block and kept a <Note> never closed (a hostile
        # round); said at the tag it drops (where the tag ends, for one over lines)
        ('<Note>\n<AgentOnly variant="beta">\nx\n</Note>\n</AgentOnly>\n', ["8: alpha", "</Note>"]),
        (
            '<AgentOnly variant="beta">\n<Note type="tip">\nx\n</AgentOnly>\n</Note>\n',
            ["6: alpha", "<Note>"],
        ),
        # An opening tag over lines, a '>' in an attribute, an element in an attribute, a
        # fragment (a fresh-eyes review's shapes)
        (
            '<AgentOnly variant="alpha">\n<Note\n  title="x">\ny\n</AgentOnly>\n\nz\n</Note>\n',
            ["7: beta", "<Note>"],
        ),
        (
            '<AgentOnly variant="alpha">\n<Note title="a > b">\ny\n</AgentOnly>\n</Note>\n',
            ["6: beta", "<Note>"],
        ),
        (
            '<AgentOnly variant="alpha">\n<Card icon={<Icon />}>\ny\n</AgentOnly>\n</Card>\n',
            ["6: beta", "<Card>"],
        ),
        ('<AgentOnly variant="alpha">\n<>\ny\n</AgentOnly>\n</>\n', ["6: beta", "<>"]),
        # beta drops one <Tab> and another element's </Tab>: balanced among themselves,
        # they left <Tabs> </Tab> <Tab> </Tabs>, which MDX refuses (a fresh-eyes review);
        # said at the dropped tag whose element's other tag beta keeps
        (
            '<Tabs>\n<AgentOnly variant="alpha">\n<Tab>\n</AgentOnly>\nx\n</Tab>\n<Tab>\ny\n'
            '<AgentOnly variant="alpha">\n</Tab>\n</AgentOnly>\n</Tabs>\n',
            ["7: beta", "<Tab>"],
        ),
        # </A> and <A> dropped from two blocks with another element opened between them
        # leave <A> <B> </A> </B>: the order of what stays open counts
        (
            '<Note>\n<AgentOnly variant="alpha">\n</Note>\n</AgentOnly>\n<Tip>\n'
            '<AgentOnly variant="alpha">\n<Note>\n</AgentOnly>\n</Note>\n</Tip>\n',
            ["7: beta", "</Note>"],
        ),
    ],
)
def test_a_block_that_holds_one_tag_of_an_element_is_a_located_error(make_project, run, body, said):
    project = make_project(templates={}, files={"docs/guide/page.mdx": HEAD + body})
    before = project.snapshot()
    outcome = run(project, "build")
    assert outcome.exit_code == 2
    (line, agent), tag = said[0].split(": "), said[1]
    expected = f"docs/guide/page.mdx:{line}: error: {UNBALANCED.format(agent, tag)}"
    assert expected in outcome.stderr.splitlines(), outcome.stderr
    assert project.snapshot() == before


def test_an_element_per_agent_around_shared_text_is_no_error(make_project, run):
    """Each variant balances its own element: it built before the rule (a review)."""
    require_mdx()
    body = (
        '<AgentOnly variant="alpha">\n<Note>\n</AgentOnly>\n'
        '<AgentOnly variant="beta">\n<Warning>\n</AgentOnly>\n'
        "Shared body.\n"
        '<AgentOnly variant="alpha">\n</Note>\n</AgentOnly>\n'
        '<AgentOnly variant="beta">\n</Warning>\n</AgentOnly>\n'
    )
    project = make_project(templates={}, files={"docs/guide/page.mdx": HEAD + body})
    assert run(project, "build").exit_code == 0, run(project, "build").stderr
    texts = {a: project.read(VARIANT.replace(".alpha.", f".{a}.")) for a in ("alpha", "beta")}
    assert compile_mdx(texts) == {"alpha": None, "beta": None}


@pytest.mark.parametrize(
    "body",
    [
        # beta's variant drops "</Note> <Note>": one element less, and it compiles
        '<Note>\na\n<AgentOnly variant="alpha">\n</Note>\n\n<Note>\n</AgentOnly>\nb\n</Note>\n',
        # two blocks, the second closing what the first opened
        '<AgentOnly variant="alpha">\n<Note>\n</AgentOnly>\nShared.\n'
        '<AgentOnly variant="alpha">\n</Note>\n</AgentOnly>\n',
        # an element that closes itself is both its tags: dropping it drops neither alone
        '<Note>\n<AgentOnly variant="alpha">\n<Icon name="x" />\n</AgentOnly>\nb\n</Note>\n',
    ],
)
def test_dropped_tags_that_leave_the_elements_around_them_as_they_were_are_no_error(
    make_project, run, body
):
    """A block whose tags close one element and open another like it was refused, though
    the variant that drops it compiles (a hostile round)."""
    require_mdx()
    project = make_project(templates={}, files={"docs/guide/page.mdx": HEAD + body})
    outcome = run(project, "build")
    assert outcome.exit_code == 0, outcome.stderr
    texts = {a: project.read(VARIANT.replace(".alpha.", f".{a}.")) for a in ("alpha", "beta")}
    assert compile_mdx(texts) == {"alpha": None, "beta": None}


def test_a_block_inside_one_jsx_element_varies_it_and_every_variant_compiles(make_project, run):
    require_mdx()
    body = '<Note>\nShared.\n\n<AgentOnly variant="alpha">\nOnly alpha.\n</AgentOnly>\n</Note>\n'
    project = make_project(templates={}, files={"docs/guide/page.mdx": HEAD + body})
    assert run(project, "build").exit_code == 0
    texts = {a: project.read(VARIANT.replace(".alpha.", f".{a}.")) for a in ("alpha", "beta")}
    assert "Only alpha" in texts["alpha"] and "Only alpha" not in texts["beta"]
    assert all("<Note>" in t and "</Note>" in t for t in texts.values())
    assert compile_mdx(texts) == {"alpha": None, "beta": None}


def test_tags_inside_one_code_block_vary_its_lines_and_every_variant_compiles(make_project, run):
    require_mdx()
    body = (
        "Run:\n\n\t```sh\n\tcurl x | \\\n"
        '<AgentOnly variant="alpha">\n\t  AGENT=alpha \\\n</AgentOnly>\n'
        '<AgentOnly variant="beta">\n\t  AGENT=beta \\\n</AgentOnly>\n'
        "\t  bash\n\t```\n\nDone.\n"
    )
    project = make_project(templates={}, files={"docs/guide/page.mdx": HEAD + body})
    assert run(project, "build").exit_code == 0
    alpha = project.read(VARIANT)
    assert "AGENT=alpha" in alpha and "AGENT=beta" not in alpha and "AgentOnly" not in alpha
    assert compile_mdx({"alpha": alpha}) == {"alpha": None}


@pytest.mark.parametrize(
    "before",
    [
        "{/* use { */}",
        'Open {"{"} and {`}`}.',
        "{ // a } here\n}",
        "> ```js\n> f() {\n> ```",
        "- ```js\n  f() {\n  ```",
        "Type `x {\ny` here.",
    ],
)
def test_braces_in_comments_strings_code_and_containers_hold_no_tag(before):
    """Valid MDX 3 (the compiler takes each page): the block after it stands at the top."""
    require_mdx()
    page = before + '\n\n<AgentOnly variant="a">\n\nA.\n\n</AgentOnly>\n'
    assert compile_mdx({"page": page}) == {"page": None}
    assert places(page.split("\n"))[-4] == TOP


def test_a_brace_inside_a_comment_never_ends_it_early():
    """The review's page: a '}' inside a comment does not close it, so a tag after it
    stands inside, and no variant turns the comment's text into live code."""
    lines = ["Hi.", "", "{/* a } here", "</AgentOnly>", "", "{alert(1)}", "*/}"]
    assert places(lines) == [TOP, TOP, TOP, None, None, None, None]


def test_a_code_block_in_a_list_item_or_quote_ends_with_its_container():
    """MDX 3 ends the block where its list item or blockquote ends (the compiler reads
    the line after as JSX): a tag there stands at the top level, and is read."""
    require_mdx()
    for page in ("- ```js\n  x\n<b>t</b>\n", "> ```js\n> x\n<b>t</b>\n"):
        assert "t" in (mdx_text_of({"page": page})["page"] or "")
        assert places(page.split("\n"))[2] == TOP
    assert places(["- ```js", "  x", "", "  y", "  ```", "z"]) == [TOP, 0, 0, 0, 0, TOP]


def test_a_comment_after_a_list_items_code_block_is_read_as_one(make_project, run):
    body = '- ```js\n  x\n<AgentOnly variant="beta">\n{/*\n</AgentOnly>\n*/ alert(1)}\n'
    project = make_project(templates={}, files={"docs/guide/page.mdx": HEAD + body})
    outcome = run(project, "build")
    assert outcome.exit_code == 2
    assert f"docs/guide/page.mdx:9: error: {INSIDE}" in outcome.stderr.splitlines()


_PIECES = st.sampled_from(
    [
        "a",
        " ",
        "\t",
        "{",
        "}",
        "<",
        ">",
        "/",
        "*",
        "'",
        '"',
        "`",
        "\\",
        "```",
        "~~~",
        "- ",
        "> ",
        "export ",
        "=",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_PIECES, max_size=12).map("".join), max_size=8))
def test_where_a_line_stands_depends_only_on_the_lines_before_it(lines):
    # variants reads the places of a page's lines only up to its last tag.
    whole = places(lines)
    assert all(places(lines[:k]) == whole[:k] for k in range(len(lines)))


@pytest.mark.parametrize(
    "lines",
    [
        # a lone backtick: a blank line ends the paragraph, and the code span it never opened
        ["Use the `foo", "", '<AgentOnly variant="a">', "x", "</AgentOnly>"],
        # a fence opened on the line of a "1)" list marker holds the brace
        [
            "1) ~~~js",
            "   const x = {",
            "   ~~~",
            "",
            '<AgentOnly variant="a">',
            "x",
            "</AgentOnly>",
        ],
    ],
    ids=["backtick-left-open", "fence-after-paren-marker"],
)
def test_a_tag_after_what_closes_at_a_paragraphs_end_stands_at_the_top(lines):
    """The compiler reads the tag as JSX at the top level (its text is read), and so must
    docgen, or a variant gets a false "inside an expression" error."""
    require_mdx()
    assert "x" in (mdx_text_of({"page": "\n".join(lines) + "\n"})["page"] or "")
    assert places(lines)[-3:] == [TOP, TOP, TOP]


_BLOCK = '<AgentOnly variant="a">\n\nA.\n\n</AgentOnly>\n'


#: Prose that ends in what could go on a statement: once a statement was misread as
#: going on, it ran on through such paragraphs and every later tag was refused.
_PROSE = "Versions look like v1.\n\nRun the installer, then:\n\n"
#: Text before a block and whether MDX reads the block at the top level (the statement
#: complete, or never one); the block follows after a blank line.
STATEMENTS = [
    ("import {A} from './a'", True),
    ("export const a = 1", True),
    ("export const a =", False),  # acorn reads on past the blank line, into the block
    ("export const f = () =>", False),
    ("export const a = {\n  b: 1,", False),  # MDX refuses the page: no variant's doing
    ("export const t = `a\n\nb`", True),  # a template literal over a blank line
    ("export const Note = () => <p>Don't</p>", True),  # an apostrophe in JSX text
    ("export default function A() {\n\n  return 1\n}", True),
    ("export const a = 1 // a comment (", True),
    ("export const a = 1 /* a\n\ncomment */", True),
    ("export const a = 1 + /* c */", False),  # a comment is no operand (a review)
    ("export const a = /* value */", False),
    ("export const a = 1 <", False),
    ("export const B = <Note>\n  x\n</Note>", True),
    ("Intro.\nexport const a =", True),  # goes on a paragraph: text, not a statement
    ("- item\nexport const a =", True),  # goes on the list item's paragraph
    ("export\tconst a =", True),  # the word and a tab: text
    (" export const a =", True),  # indented: text
    # no paragraph is open after these: the statement starts (a review)
    ('<AgentOnly variant="b">\n\nB.\n\n</AgentOnly>\nexport const a =', False),
    ("# Title\nexport const a =", False),
    ("***\nexport const a =", False),
    ("```\nx\n```\nexport const a =", False),
    ("{/* c */}\nexport const a =", False),
    ("<Note>x</Note>\nexport const a =", True),  # text beside a tag: a paragraph
    # complete statements whose end looks like more to come (a review: each refused every
    # later tag, prose and all)
    ("export const semver = /^v[0-9]+/", True),
    ("export const next = count++", True),
    ("export const X = m.default", True),
    ("export const a = [1", False),  # MDX refuses the page, and docgen the tag
    ("export const a = {\n  b: 1", False),  # an open bracket alone reads on
    ("export const t = `a \\` b", False),  # an escaped backtick ends no template literal
    ("export const a =\n// a note", False),  # a comment line leaves the end as it was
    ("export const a = 1 /* a\n*/", True),  # a comment closed at a line's start
    (f"export const semver = /^v[0-9]+/\n\n{_PROSE}", True),
    (f"export const next = count++\n\n{_PROSE}", True),
    (f"export const X = m.default\n\n{_PROSE}", True),
    (f'export const Home = () => <a href="/">https://nvidia.com</a>\n\n{_PROSE}', True),
]


def test_a_block_after_an_import_or_export_stands_where_mdx_reads_it():
    """MDX reads a statement as JavaScript up to a blank line where it is complete (a
    hostile round: a block cut out of ``export const a =`` left variants MDX refuses).
    docgen takes the block's tag for the top level where the compiler reads the block as
    a top-level element, and only there."""
    pages = {str(n): f"{text}\n\n{_BLOCK}" for n, (text, _top) in enumerate(STATEMENTS)}
    trees = mdx_trees(pages)
    wrong = []
    for n, (text, top) in enumerate(STATEMENTS):
        tree, lines = trees[str(n)], pages[str(n)].split("\n")
        read_at_top = not isinstance(tree, str) and any(
            node["type"] == "mdxJsxFlowElement" and node.get("attributes")[0]["value"] == "a"
            for node in tree["children"]
        )
        tag = len(lines) - 1 - lines[::-1].index('<AgentOnly variant="a">')
        if read_at_top is not top or (places(lines)[tag] == TOP) is not top:
            wrong.append((text, top, read_at_top, places(lines)[tag]))
    assert wrong == []


#: Statement pieces of what the reader claims to tell exactly: no JSX, no lone '/' (a
#: regular expression or a division) and no '${}' (see render/statements: those it may
#: misread either way; a generated JSX element left open was a false accept it cannot see).
_JS = st.sampled_from(
    ["export const a = ", "a", "1", "=", "=>", "(", ")", "{", "}", "[", "]", ",", "+", "++",
     "-", "*", ".x", "'s'", "'", '"', "`", "/* c */", "// c", " ", "\n", "\n\n",
     "return", "from", "m.default"]
)  # fmt: skip


@settings(max_examples=4, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate])
@given(st.lists(st.lists(_JS, min_size=1, max_size=10).map("".join), min_size=40, max_size=40))
def _statements_property(texts: list[str]) -> None:
    pages = {str(n): f"export const a = {t}\n\n{_BLOCK}" for n, t in enumerate(texts)}
    trees = mdx_trees(pages)
    for key, page in pages.items():
        lines = page.split("\n")
        tag = len(lines) - 1 - lines[::-1].index('<AgentOnly variant="a">')
        tree = trees[key]
        if places(lines)[tag] != TOP or isinstance(tree, str):
            continue  # refused (a misread refuses, never accepts), or no valid page
        assert any(
            node["type"] == "mdxJsxFlowElement" and node.get("name") == "AgentOnly"
            for node in tree["children"]
        ), page


def test_a_block_docgen_takes_for_the_top_level_after_a_statement_is_there():
    """Generated statements: where docgen takes the tag for the top level and the page
    compiles, MDX reads the block there too, so no variant cuts a statement."""
    require_mdx()
    _statements_property()


@pytest.mark.parametrize(
    "body",
    [
        'Intro.\n\nexport const a =\n<AgentOnly variant="beta">\n1\n</AgentOnly>\n\nText.\n',
        'export const a =\n\n<AgentOnly variant="beta">\n1\n</AgentOnly>\n\nText.\n',
        'export const a = 1\n<AgentOnly variant="beta">\nb\n</AgentOnly>\n',
    ],
)
def test_a_block_inside_an_import_or_export_is_a_located_error(make_project, run, body):
    """The hostile round's page compiled, and two of its three variants did not."""
    project = make_project(templates={}, files={"docs/guide/page.mdx": HEAD + body})
    before = project.snapshot()
    outcome = run(project, "build")
    line = 5 + body.split("\n").index('<AgentOnly variant="beta">')
    assert outcome.exit_code == 2
    assert f"docs/guide/page.mdx:{line}: error: {INSIDE}" in outcome.stderr.splitlines()
    assert project.snapshot() == before
