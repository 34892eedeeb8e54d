"""Broken project templates: each gives an exact located error and changes nothing."""

from __future__ import annotations

import pytest
from bad_input_cases import BUILD, Case, check, param, template
from hypothesis import example, given, settings
from hypothesis import strategies as st

LONG_HEAD = "---\ntitle: x\ndescription: " + "y" * 2000 + "\n---\n\nText.\n"

TEMPLATES = [
    Case(
        "template-frontmatter-past-the-notice-reach",
        BUILD,
        (
            "templates/models.mdx.j2:1: error: docgen's notice would end 2182 characters into "
            "docs/models.mdx, past the first 2000, where docgen looks for it to tell the file "
            "is its own; shorten its frontmatter (2031 characters, registry text included)",
        ),
        templates=template(LONG_HEAD),
    ),
    Case(
        "template-unclosed-if",
        BUILD,
        (
            "templates/models.mdx.j2:6: error: template syntax: Unexpected end of template. Jinja "
            "was looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block "
            "that needs to be closed is 'if'.",
        ),
        templates=template("---\ntitle: x\n---\n\n{% if true %}\nhello\n"),
    ),
    Case(
        "template-undefined-name",
        BUILD,
        ("templates/models.mdx.j2:6: error: template failed: 'nope' is undefined",),
        templates=template("---\ntitle: x\n---\n\nText.\n{{ nope }}\n"),
    ),
    # Jinja compiles a literal past a float's range to ``inf``, a name Python does not know
    # (it was an internal error, exit 3).
    Case(
        "template-float-literal-too-large",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: a number too large for a "
            "float (written as a literal, such as 1e400)",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ 1e400 | gb }}\n"),
    ),
    Case(  # Jinja folds this one into the page's text as "inf" when it compiles it
        "template-float-literal-printed",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: a number too large for a "
            "float (written as a literal, such as 1e400)",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ 1e400 }}\n"),
    ),
    Case(
        "template-prints-infinity",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: {{ }} printed inf, no number a "
            "page can show",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ 1e308 * 10 }}\n"),
    ),
    Case(
        "template-misspelt-helper",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: 'model_table' is undefined; did "
            "you mean 'models_table'?",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ model_table() }}\n"),
    ),
    Case(
        "template-undefined-attribute",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: "
            "'Product' object has no attribute 'nmae'; did you mean 'name'?",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ product.nmae }}\n"),
    ),
    Case(
        "template-missing-host",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: hosts has no entry 'bx'; did you "
            "mean 'box'?",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ hosts['bx'].name }}\n"),
    ),
    Case(
        "template-profile-past-the-last",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: profiles has no element 5: it "
            "holds 1",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ serve_command(profiles[5]) }}\n"),
    ),
    Case(
        "template-prints-a-helpers-object",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: {{ }} printed a Description "
            "object, which a page cannot show as it is: print one of its fields",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ describe(profiles[0]) }}\n"),
    ),
    *(
        Case(
            f"template-turns-a-{kind.lower()}-into-text-{n}",
            BUILD,
            (
                f"templates/models.mdx.j2:5: error: template failed: the template turned a "
                f"{kind} object into text (with ~, string, pprint, join or format), which a "
                "page cannot show: print one of its fields",
            ),
            templates=template(f"---\ntitle: x\n---\n\n{{{{ {expression} }}}}\n"),
        )
        for n, (kind, expression) in enumerate(
            [
                ("Profile", '"p: " ~ profiles[0]'),
                ("Profile", "profiles[0] | string"),
                ("Host", "hosts.box | pprint"),
                ("Arg", '"{}".format(profiles[0].args)'),
                ("Arg", 'profiles[0].args | join(", ")'),
                ("Registry", "registry | string | length"),
            ]
        )
    ),
    Case(
        "template-divides-by-zero",
        BUILD,
        ("templates/models.mdx.j2:5: error: template failed: division by zero",),
        templates=template("---\ntitle: x\n---\n\n{{ (profiles | length) / 0 }}\n"),
    ),
    # An empty name named the templates folder: "templates: error: the template is a folder".
    Case(
        "template-includes-an-empty-name",
        BUILD,
        ("templates/models.mdx.j2:5: error: template not found: ''",),
        templates=template('---\ntitle: x\n---\n\n{% include "" %}\n'),
    ),
    # Jinja's truncate checks its length with ``assert``: the template's mistake, not an
    # internal error (exit 3, a hostile round's finding).
    Case(
        "template-truncates-too-short",
        BUILD,
        ("templates/models.mdx.j2:5: error: template failed: expected length >= 3, got 1",),
        templates=template('---\ntitle: x\n---\n\n{{ "xxxxxxx" | truncate(1) }}\n'),
    ),
    Case(
        "template-shows-a-huge-size",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: gb cannot show 1e+300 bytes: "
            "the number is too large",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ 1e300 | gb }}\n"),
    ),
    Case(
        "template-prints-a-list",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: {{ }} printed a list, which a "
            "page cannot show as it is: print its items in a loop, or join them (| join(', '))",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ enabled_features(profiles[0]) }}\n"),
    ),
    Case(
        "template-prints-a-mapping",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: {{ }} printed a mapping, which a "
            "page cannot show as it is: print one of its entries, or loop over them",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ hosts }}\n"),
    ),
    Case(
        "template-tag-left-open",
        BUILD,
        (
            "templates/models.mdx.j2:6:1: error: template syntax: unexpected character '#' "
            "(a tag or expression left open before it, or a character Jinja does not read "
            "there?)",
        ),
        templates=template("---\ntitle: x\n---\n\n{% for p in profiles %\n# {{ p.id }}\n"),
    ),
    Case(
        "template-unknown-filter",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template syntax: no filter named 'shout'; "
            "did you mean 'sort' or 'count'?",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ product.name | shout }}\n"),
    ),
    Case(
        "template-misspelt-filter",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template syntax: no filter named 'codeblock'; "
            "did you mean 'code_block'?",
        ),
        templates=template('---\ntitle: x\n---\n\n{{ "x" | codeblock("bash") }}\n'),
    ),
    Case(
        "template-reads-a-field-of-an-arg-it-misspelt",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: 'None' has no attribute "
            "'value' (perhaps a lookup that found nothing: a profile's arg(name) and "
            "override(id) give None for a name it does not hold, and an arg's name is written "
            "without its dashes)",
        ),
        templates=template(
            '---\ntitle: x\n---\n\n{{ profiles[0].arg("gpu-memory-utilisation").value }}\n'
        ),
    ),
    Case(
        "template-misspelt-filter-in-a-branch",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: no filter named 'codeblock'; "
            "did you mean 'code_block'?",
        ),
        templates=template(
            '---\ntitle: x\n---\n\n{% if product.name %}{{ "x" | codeblock }}{% endif %}\n'
        ),
    ),
    *(
        Case(
            f"template-prints-a-function-uncalled-{n}",
            BUILD,
            (
                "templates/models.mdx.j2:5: error: template failed: {{ }} printed a function "
                f"without calling it: call it, {call}",
            ),
            templates=template(f"---\ntitle: x\n---\n\n{expression}\n"),
        )
        for n, (expression, call) in enumerate(
            [
                ("{{ models_table }}", "models_table()"),
                ("{{ serve_command }}", "serve_command(...)"),
                ("{{ profiles[0].arg }}", "arg(...)"),
                ("{% macro m(x) %}{{ x }}{% endmacro %}{{ m }}", "m(...)"),
                ("{% macro n() %}a{% endmacro %}{{ n }}", "n()"),
            ]
        )
    ),
    Case(
        "template-missing-include",
        BUILD,
        ("templates/models.mdx.j2:5: error: template not found: _nope.mdx.j2",),
        templates=template("---\ntitle: x\n---\n\n{% include '_nope.mdx.j2' %}\n"),
    ),
    Case(
        "template-empty-page",
        BUILD,
        ("templates/models.mdx.j2:1: error: template rendered an empty page",),
        templates=template("{# nothing #}\n"),
    ),
    Case(
        "template-fence-in-code",
        BUILD,
        (
            "templates/models.mdx.j2:6: error: template failed: a code fence inside generated "
            "code; use code_block instead",
        ),
        templates=template("---\ntitle: x\n---\n\n```\n{{ '```' | in_code }}\n```\n"),
    ),
    Case(
        "template-unknown-override",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: profile 'vllm.box.tiny' has no "
            "override 'huge'",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ override_command(profiles[0], 'huge') }}\n"),
    ),
    Case(
        "template-profile-page-error",
        BUILD,
        (
            "templates/profiles/[profile].mdx.j2:5: error: template failed: "
            "'Profile' object has no attribute 'sumary'; did you mean 'summary'? (rendering it "
            "for profile 'vllm.box.tiny')",
        ),
        templates={"profiles/[profile].mdx.j2": "---\ntitle: x\n---\n\n{{ profile.sumary }}\n"},
    ),
    Case(
        "template-endless-loop",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template rendering took longer than 0.5 s (an "
            "endless loop?)",
        ),
        templates=template(
            "---\ntitle: x\n---\n\n{% for i in range(10**7) %}{% for j in range(10**7) %}"
            "{% endfor %}{% endfor %}\n"
        ),
        deadline=0.5,
    ),
    Case(
        "template-float-overflow",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: "
            "(34, 'Numerical result out of range')",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ 2.0 ** 5000 }}\n"),
    ),
]

CASES = TEMPLATES


@pytest.mark.parametrize("case", [param(c) for c in CASES])
def test_bad_input_is_a_located_error_and_changes_nothing(make_project, run, monkeypatch, case):
    check(case, make_project, run, monkeypatch)


def test_a_syntax_error_in_a_crlf_template_is_at_its_line_and_column(make_project, run):
    """A Windows checkout's template: Jinja's offset counts each CRLF as one character."""
    from bad_input_cases import template as one_template

    text = "---\r\ntitle: x\r\n---\r\n\r\nText.\r\n{{ product.name ? }}\r\n"
    project = make_project(templates=one_template(text))
    outcome = run(project, "build")
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith(
        "templates/models.mdx.j2:6:17: error: template syntax: unexpected character '?'"
    ), outcome.stderr


def test_a_broken_agentonly_block_a_template_renders_is_located_in_the_template(make_project, run):
    """An ``<AgentOnly>`` block is checked in the page a template renders, which is not on
    disk (and is never edited by hand): the error names the template, at the line that
    reads as the rendered one when one does, and says which line of the text it renders
    for which page it is."""
    from bad_input_cases import template as one_template

    text = (
        '---\ntitle: x\n---\n\n{{ cli }} guide.\n\n<AgentOnly variant="gamma">\nHi.\n</AgentOnly>\n'
    )
    project = make_project(templates=one_template(text))
    before = project.snapshot()
    outcome = run(project, "build")
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith(
        "templates/models.mdx.j2:7: error: unknown agent 'gamma' in <AgentOnly>"
    ), outcome.stderr
    assert "'beta' (line 7 of the text it renders for docs/models.mdx)\n" in outcome.stderr
    assert project.snapshot() == before


def test_a_broken_block_a_template_may_have_included_is_at_the_template_without_a_line(
    make_project, run
):
    """The rendered line reads as one of the template's own lines, but the block comes
    from a partial it includes: no line of the template is named then, only the file."""
    from bad_input_cases import template as one_template

    opening = '<AgentOnly variant="alpha">'
    text = f"---\ntitle: x\n---\n\n{{{{ cli }}}} guide.\n\n{opening}\nHi.\n</AgentOnly>\n\n"
    templates = one_template(text + '{% include "_partials/bad.j2" %}\n')
    templates["_partials/bad.j2"] = f"{opening}\nunclosed\n"
    project = make_project(templates=templates)
    outcome = run(project, "build")
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith("templates/models.mdx.j2: error: "), outcome.stderr


def test_a_broken_block_from_an_included_partial_is_located_in_the_partial(make_project, run):
    """The one template line that reads as the rendered one is the partial's: located
    there, in the file a person edits."""
    from bad_input_cases import template as one_template

    text = '---\ntitle: x\n---\n\n{{ cli }} guide.\n\n{% include "_partials/bad.j2" %}\n'
    templates = one_template(text)
    templates["_partials/bad.j2"] = 'Intro.\n<AgentOnly variant="gamma">\nHi.\n</AgentOnly>\n'
    project = make_project(templates=templates)
    outcome = run(project, "build")
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith(
        "templates/_partials/bad.j2:2: error: unknown agent 'gamma' in <AgentOnly>"
    ), outcome.stderr


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ('title: "{{ "Models" | mdx_fm }}"', "expected <block end>, but found '<scalar>'"),
        ("title: [{{ 'x' }}", "this '[' list is never closed"),
        ("- item {{ 'a list, not a mapping' }}", "frontmatter must be a mapping of keys"),
    ],
    ids=["quoted-twice", "unclosed-list", "not-a-mapping"],
)
def test_a_frontmatter_a_template_renders_is_read_as_fern_and_the_preview_read_it(
    make_project, run, line, why
):
    """A page whose frontmatter is no YAML mapping passed build and check, then broke the
    MkDocs preview and Fern: it is a located error at the partial's line, nothing written."""
    from bad_input_cases import template as one_template

    templates = one_template('{% include "_partials/head.j2" %}\n\nText.\n')
    templates["_partials/head.j2"] = f"---\n{line}\n---\n"
    project = make_project(templates=templates)
    before = project.snapshot()
    for command in ("build", "check"):
        outcome = run(project, command)
        assert outcome.exit_code == 2
        assert outcome.stderr.startswith("templates/_partials/head.j2:2: error: "), outcome.stderr
        assert why in outcome.stderr
        assert "(line 2 of the text it renders for docs/models.mdx)" in outcome.stderr
        assert project.snapshot() == before


def test_a_line_of_values_is_named_by_its_own_words_only_when_one_line_fits():
    from docgen.errors import Location, Problem
    from docgen.render.failures import in_template

    problem = Problem("bad", Location("docs/a.mdx", 2))
    rendered = '---\ntitle: ""A""\n---\n'
    sources = {
        "templates/a.mdx.j2": '---\ntitle: "{{ t | mdx_fm }}"\n{{ other }}\n---\n',
        "templates/_b.j2": 'subtitle: "{{ s }}"\n{% if x %}title{% endif %}: x\n',
    }
    at = in_template(problem, "docs/a.mdx", rendered, "templates/a.mdx.j2", sources).location
    assert at == Location("templates/a.mdx.j2", 2)  # not the lines of tags alone
    sources["templates/_e.j2"] = "{{ a }}title: {{ b }}\n"  # tags at both ends fit too much
    at = in_template(problem, "docs/a.mdx", rendered, "templates/a.mdx.j2", sources).location
    assert at == Location("templates/a.mdx.j2", 2)
    sources["templates/_c.j2"] = 'title: "{{ u }}"\n'
    at = in_template(problem, "docs/a.mdx", rendered, "templates/a.mdx.j2", sources).location
    assert at == Location("templates/a.mdx.j2")  # two lines fit: the template alone
    sources["templates/_d.j2"] = 'title: ""A""\n'
    at = in_template(problem, "docs/a.mdx", rendered, "templates/a.mdx.j2", sources).location
    assert at == Location("templates/_d.j2", 1)  # a line that reads as it is comes first


@settings(max_examples=500, deadline=None)
@example(["a", "b", "b"], "ab")  # a middle word may not reach into the last one
@example(["ab", "ba"], "aba")  # nor the first and the last overlap
@given(
    st.lists(st.text("ab| ", max_size=4), min_size=2, max_size=5),
    st.text("ab|x", max_size=14),
)
def test_a_lines_words_fit_as_a_pattern_of_them_would_match(words, said):
    """``_fits`` finds each word leftmost, where a pattern (``a.*?b``) backtracked without
    end on a long line of registry text: they agree on every line."""
    import re

    from docgen.render.failures import _fits

    line = "{{ v }}".join(words)
    own = "".join(words)
    if len(own.replace(" ", "")) < 3 or not (words[0].strip() or words[-1].strip()):
        return  # lines _fits never takes, by its own rule
    pattern = ".*?".join(re.escape(w) for w in words)
    assert _fits(line, said) == (re.fullmatch(pattern, said, re.DOTALL) is not None)


def test_a_long_line_of_registry_text_is_placed_in_one_pass():
    from docgen.render.failures import _fits

    assert not _fits("{{ a }} | {{ b }} | {{ c }} | {{ d }} end", "x | " * 50_000)


def test_a_rendered_line_is_placed_among_the_templates_its_page_renders_with(make_project, run):
    """Another page's partial, loaded first, fits the same rendered line: it is no
    candidate, since this page neither includes nor imports it."""
    from bad_input_cases import template as one_template

    templates = one_template('{% include "_partials/head.j2" %}\nText.\n')  # models.mdx.j2
    templates["_partials/head.j2"] = '---\ntitle: {{ "Models" | mdx_fm }}\n---\n'
    templates["z.mdx.j2"] = "---\ntitle: {{ product.name }}: bad\n---\n\nText.\n"
    project = make_project(templates=templates)
    outcome = run(project, "build")
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith("templates/z.mdx.j2:2: error: invalid YAML frontmatter")


def test_an_include_in_a_branch_not_taken_keeps_the_search_to_the_pages_templates(
    make_project, run
):
    """A partial named in a branch not taken was never loaded: it rendered nothing, and
    the search stays among what the page reaches (it used to widen to every template
    loaded, another page's partial too)."""
    from bad_input_cases import template as one_template

    templates = one_template('{% include "_p/head.j2" %}\nText.\n')  # models.mdx.j2
    templates["_p/head.j2"] = '---\ntitle: {{ "Models" | mdx_fm }}\n---\n'
    templates["z.mdx.j2"] = (
        '{% if false %}{% include "./_p/never.j2" %}{% endif %}---\n'
        "title: {{ product.name }}: bad\n---\n\nText.\n"
    )
    project = make_project(templates=templates)
    outcome = run(project, "build")
    assert outcome.stderr.startswith("templates/z.mdx.j2:2: error: invalid YAML"), outcome.stderr
