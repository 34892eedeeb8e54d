"""An included partial is rendered once per the values it can see (docgen/render/partials.py).

Each test renders the same templates twice: with a recording renderer, whose includes
go through the memo, and with a renderer that records nothing (no memo), and the texts
must be equal. Then it checks what the memo did: rendered once, replayed the reads, or
refused to remember a value that could change.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import MINIMAL_REGISTRY
from hypothesis import given, settings
from hypothesis import strategies as st

from docgen.registry.load import load_bytes
from docgen.registry.model import Registry
from docgen.render.environment import Renderer
from docgen.render.reads import recording

Pages = Callable[..., tuple[list[str], Renderer]]


@pytest.fixture(scope="module")
def registry() -> Registry:
    return load_bytes(MINIMAL_REGISTRY.encode(), "profiles.yaml")


@pytest.fixture
def pages(registry: Registry, tmp_path: Path) -> Pages:
    """Factory: write templates, render the named pages in order with one memoizing
    renderer, and assert that a renderer without the memo gives the same texts."""

    def make(
        templates: dict[str, str], *names: str, **context: object
    ) -> tuple[list[str], Renderer]:
        for name, body in templates.items():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(body, "utf-8")
        memo = Renderer(registry, [tmp_path])
        plain = Renderer(registry, [tmp_path], recording=False)
        texts = [memo.render(name, name, context) for name in names]
        assert texts == [plain.render(name, name, context) for name in names]
        return texts, memo

    return make


PARTIAL = "{{ p.id }} serves {{ p.model.hf }} with {{ cli }} ({{ n }}).\n"


def test_a_partial_included_with_the_same_values_is_rendered_once(pages, registry):
    [pid] = registry.profiles
    page = '{% for p in profiles %}{% with n=1 %}{% include "_p.j2" %}{% endwith %}{% endfor %}'
    texts, renderer = pages(
        {"a.j2": page, "b.j2": page + "again\n", "_p.j2": PARTIAL}, "a.j2", "b.j2"
    )
    assert texts[1] == texts[0] + "again\n"
    assert texts[0].startswith(f"{pid} serves ")
    [(key, partial)] = renderer.partials.kept().items()
    assert key[0] == "_p.j2"
    assert dict(key[1])["p"] == ("entry", "Profile", pid)
    assert partial.text == texts[0]


def test_other_values_render_the_partial_again(pages):
    page = '{% for n in [1, 2, 1, 1.0, true, "1"] %}{% include "_n.j2" %}{% endfor %}'
    texts, renderer = pages({"a.j2": page, "_n.j2": "[{{ n }}]"}, "a.j2")
    assert texts == ["[1][2][1][1.0][true][1]"]  # docgen writes a boolean as YAML does
    assert len(renderer.partials.kept()) == 5  # 1, 2, 1.0, True and "1" are five values


def test_negative_zero_is_not_zero(pages):
    page = '{% for n in [0.0, -0.0] %}{% include "_n.j2" %}{% endfor %}'
    assert pages({"a.j2": page, "_n.j2": "[{{ n }}]"}, "a.j2")[0] == ["[0.0][-0.0]"]


def test_markup_and_text_of_the_same_characters_are_two_values(pages):
    page = '{% for v in ["<b>", "<b>" | safe] %}{% include "_v.j2" %}{% endfor %}'
    texts, _ = pages({"a.j2": page, "_v.j2": "{{ v }}|"}, "a.j2")
    assert texts[0].endswith("<b>|") and not texts[0].startswith("<b>|")


def test_a_partial_that_sees_a_list_is_rendered_each_time(pages):
    """A list can change between two includes: the partial is never remembered."""
    page = (
        "{% set seen = [] %}"
        '{% for n in [1, 2] %}{% set _ = seen.append(n) %}{% include "_l.j2" %}{% endfor %}'
    )
    texts, renderer = pages({"a.j2": page, "_l.j2": "{{ seen | join(',') }};"}, "a.j2")
    assert texts == ["1;1,2;"]
    assert renderer.partials.kept() == {}


def test_a_tuple_holding_a_list_is_no_value_to_remember_a_partial_by(pages):
    """A tuple is keyed by its items; one holding a list, which can change, by none (a
    mutation round: keyed alike, the second include replayed the first's text)."""
    page = (
        '{% set t = (1, [2]) %}{% include "_t.j2" %}'
        '{% set t = (1, [3]) %}{% include "_t.j2" %}'
        '{% set t = (1, (2,)) %}{% include "_t.j2" %}{% include "_t.j2" %}'
    )
    texts, renderer = pages({"a.j2": page, "_t.j2": "{{ t[1][0] }};"}, "a.j2")
    assert texts == ["2;3;2;2;"]
    assert len(renderer.partials.kept()) == 1  # the tuple of values alone


def test_two_pages_that_extend_one_base_each_show_their_own_blocks(pages):
    """A template a page extends goes through the include memo too: the child's own
    context is passed on, never a remembered text (a mutation round: with one child
    only, remembering the base went unseen)."""
    templates = {
        "base.j2": "<{% block body %}base{% endblock %}>",
        "one.j2": '{% extends "base.j2" %}{% block body %}one{% endblock %}',
        "two.j2": '{% extends "base.j2" %}{% block body %}two{% endblock %}',
    }
    texts, _ = pages(templates, "one.j2", "two.j2")
    assert texts == ["<one>", "<two>"]


def test_a_partial_that_includes_another_is_rendered_each_time(pages):
    """The inner partial sees ``x``, which the outer one's free names do not list."""
    page = '{% set x = 1 %}{% include "_outer.j2" %}{% set x = 2 %}{% include "_outer.j2" %}'
    inner = {"_outer.j2": '({% include "_inner.j2" %})', "_inner.j2": "{{ x }}"}
    texts, renderer = pages({"a.j2": page, **inner}, "a.j2")
    assert texts == ["(1)(2)"]
    kept = renderer.partials.kept()
    assert {key[0] for key in kept} == {"_inner.j2"}
    assert sorted(dict(key[1])["x"] for key in kept) == [("int", 1), ("int", 2)]


@pytest.mark.parametrize(
    "partial",
    [
        '{% from "_m.j2" import f with context %}{{ f() }}',
        '{% import "_m.j2" as m with context %}{{ m.f() }}',
    ],
    ids=["from-import", "import"],
)
def test_a_partial_importing_macros_with_context_shows_each_pages_own_values(pages, partial):
    """A macro imported with context reads names (here the page's own ``cli``) that the
    importing partial's free names do not list: each page shows its own value."""
    templates = {
        "_m.j2": "{% macro f() %}({{ cli }}){% endmacro %}",
        "_p.j2": partial,
        "a.j2": '{% set cli = "one" %}{% include "_p.j2" %}',
        "b.j2": '{% set cli = "two" %}{% include "_p.j2" %}',
    }
    texts, renderer = pages(templates, "a.j2", "b.j2")
    assert texts == ["(one)", "(two)"]
    assert renderer.partials.kept() == {}


def test_a_profile_of_another_registry_is_not_taken_for_the_plans_own(pages, registry):
    """Two profiles with one id, one of them not this plan's: each renders its own text."""
    [pid] = registry.profiles
    hf = registry.profiles[pid].model.hf
    other = load_bytes(MINIMAL_REGISTRY.replace(hf, f"{hf}-other").encode(), "profiles.yaml")
    page = '{% for p in mine + theirs %}{% include "_p.j2" %}{% endfor %}'
    texts, renderer = pages(
        {"a.j2": page, "_p.j2": "{{ p.model.hf }};"},
        "a.j2",
        mine=(registry.profiles[pid],),
        theirs=(other.profiles[pid],),
    )
    assert texts == [f"{hf};{hf}-other;"]
    assert len(renderer.partials.kept()) == 1  # only the plan's own profile is remembered


@pytest.mark.parametrize(
    "page",
    [
        '{% include "_g.j2" %}|{% set cli = "other" %}{% include "_g.j2" %}',
        '{% for cli in ["x", "y"] %}{% include "_g.j2" %}|{% endfor %}',
        '{% include "_g.j2" %}|{% set profiles = [] %}{% include "_g.j2" %}',
    ],
    ids=["set", "loop", "filtered-section"],
)
def test_a_page_that_sets_a_global_s_name_gives_the_partial_its_own_value(pages, page):
    """Globals are free names too: a page's own ``cli`` or ``profiles`` is what the
    partial sees (``jinja2.meta`` alone would leave every global's name out)."""
    partial = "{{ cli }}:{% for p in profiles %}{{ p.id }}{% endfor %}"
    texts, _ = pages({"a.j2": page, "_g.j2": partial}, "a.j2")
    assert len(set(texts[0].split("|")[:2])) == 2


def test_a_recursive_include_goes_as_deep_as_without_the_memo(pages):
    """An include the memo does not keep (it includes itself) adds no frame to the
    render: a recursion plain Jinja finishes, the memo finishes too."""
    partial = '{% if n > 0 %}{% with n = n - 1 %}{% include "_r.j2" %}{% endwith %}{% endif %}x'
    texts, _ = pages({"a.j2": '{% include "_r.j2" %}', "_r.j2": partial}, "a.j2", n=700)
    assert texts == ["x" * 701]


def test_a_partial_showing_a_global_s_text_is_keyed_by_it(pages, registry, tmp_path):
    """``cli`` is the product's CLI token as text, read as no registry part: a later plan
    whose token changed must not reuse the partial's text."""
    from docgen.incremental import derived_digests, reads_hold, with_digests

    page = '{% for p in profiles %}{% include "_c.j2" %}{% endfor %}'
    _, first = pages({"a.j2": page, "_c.j2": "{{ cli }} onboard {{ p.id }}"}, "a.j2")
    earlier = {  # as a record keeps them: each read with its digest
        key: (text, with_digests(dict(reads), registry.parts))
        for key, (text, reads) in first.partials.kept().items()
    }
    token = registry.product.cli_token
    edited = load_bytes(
        MINIMAL_REGISTRY.replace(f"cli_token: {token}", f"cli_token: {token}x", 1).encode(),
        "profiles.yaml",
    )
    assert edited.product.cli_token == f"{token}x"
    renderer = Renderer(edited, [tmp_path])
    digest_of = derived_digests(renderer)
    renderer.partials.start_from(earlier, lambda p: reads_hold(p.reads, edited.parts, digest_of))
    text = renderer.render("a.j2", "a.j2", {})
    assert text == Renderer(edited, [tmp_path], recording=False).render("a.j2", "a.j2", {})
    assert text.startswith(f"{token}x onboard ")
    same = Renderer(registry, [tmp_path])  # the same registry: the partial is reused
    same.partials.start_from(earlier, lambda p: reads_hold(p.reads, registry.parts, digest_of))
    same.render("a.j2", "a.j2", {})
    assert same.partials.made == {}


def test_a_partial_that_names_an_undefined_value_is_not_remembered(pages):
    page = '{% include "_d.j2" %}{% include "_d.j2" %}'
    texts, renderer = pages({"a.j2": page, "_d.j2": "{{ nope | default('d') }}"}, "a.j2")
    assert texts == ["dd"]
    assert renderer.partials.kept() == {}


def test_a_helper_passed_under_another_name_is_not_remembered(pages):
    page = '{% with f=serve_command %}{% include "_f.j2" %}{% endwith %}'
    texts, renderer = pages({"a.j2": page, "_f.j2": "{{ f is callable }}"}, "a.j2")
    assert texts == ["true"]
    assert renderer.partials.kept() == {}


def test_extends_imports_and_includes_without_context_still_work(pages):
    templates = {
        "base.j2": "<{% block body %}base{% endblock %}>",
        "child.j2": '{% extends "base.j2" %}{% block body %}child{% endblock %}',
        "macros.j2": "{% macro twice(x) %}{{ x }}{{ x }}{% endmacro %}",
        "a.j2": (
            '{% import "macros.j2" as m %}{{ m.twice("m") }}'
            '{% include "plain.j2" without context %}'
            '{% include "missing.j2" ignore missing %}'
            '{% include "plain.j2" %}'
        ),
        "plain.j2": "[{{ product.name }}]",
    }
    texts, _ = pages(templates, "child.j2", "a.j2")
    assert texts[0] == "<child>"
    assert texts[1].startswith("mm[")


def test_a_remembered_partial_records_its_reads_in_every_page_that_includes_it(pages, registry):
    [pid] = registry.profiles
    page = '{% for p in profiles %}{% with n=1 %}{% include "_p.j2" %}{% endwith %}{% endfor %}'
    _, renderer = pages({"a.j2": page, "_p.j2": PARTIAL}, "a.j2")
    for _ in range(2):  # rendered, then remembered: the reads are the same
        with recording() as reads:
            renderer.render("a.j2", "a.j2", {})
        assert ("profiles", pid) in reads
        assert ("models", registry.profiles[pid].model.id) in reads


def test_an_error_in_a_partial_is_located_in_it_and_nothing_is_remembered(registry, tmp_path):
    from docgen.errors import TemplateError

    (tmp_path / "a.j2").write_text('{% include "_e.j2" %}', "utf-8")
    (tmp_path / "_e.j2").write_text("fine\n{{ product.nmae }}\n", "utf-8")
    renderer = Renderer(registry, [tmp_path])
    with pytest.raises(TemplateError) as caught:
        renderer.render("a.j2", "templates/a.j2", {})
    assert "nmae" in caught.value.problems[0].message
    assert caught.value.problems[0].location.line == 2
    assert renderer.partials.kept() == {}


def test_an_earlier_partial_is_used_only_while_it_holds(pages, registry, tmp_path):
    """A partial from an earlier plan gives its text only while ``holds`` says its reads
    are unchanged; one that does not hold is rendered again and not kept."""
    [pid] = registry.profiles
    page = '{% for p in profiles %}{% include "_p.j2" %}{% endfor %}'
    texts, first = pages({"a.j2": page, "_p.j2": "{{ p.id }};"}, "a.j2")
    [(key, partial)] = first.partials.kept().items()
    earlier = {key: ("remembered;", partial.reads)}
    for holds, text in ((True, "remembered;"), (False, f"{pid};")):
        renderer = Renderer(registry, [tmp_path])
        renderer.partials.start_from(earlier, lambda _partial, holds=holds: holds)
        assert renderer.render("a.j2", "a.j2", {}) == text
        assert renderer.partials.kept()[key].text == text
    unused = Renderer(registry, [tmp_path])
    unused.partials.start_from(earlier, lambda _partial: False)
    assert unused.partials.kept() == {}  # never included, and it does not hold: dropped
    unused.partials.start_from(earlier, lambda _partial: True)
    assert unused.partials.kept() == {key: ("remembered;", partial.reads)}


VALUES = st.one_of(
    st.integers(-3, 3),
    st.floats(allow_nan=False, width=16),
    st.booleans(),
    st.none(),
    st.text("ab<&", max_size=3),
    st.lists(st.integers(0, 2), max_size=2),
    st.tuples(st.integers(0, 2), st.text("a", max_size=1)),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(VALUES, VALUES), min_size=1, max_size=6))
def test_any_sequence_of_includes_renders_as_without_the_memo(registry, tmp_path_factory, calls):
    """Whatever values a page passes, in whatever order, the memo changes no text."""
    folder = tmp_path_factory.mktemp("partials")
    # A list prints only as text made of it (``{{ }}`` refuses to print one as it is).
    (folder / "_v.j2").write_text("{{ a | string }}/{{ b | string }}/{{ a is sameas b }};", "utf-8")
    (folder / "a.j2").write_text(
        '{% for a, b in calls %}{% include "_v.j2" %}{% endfor %}', "utf-8"
    )
    memo = Renderer(registry, [folder]).render("a.j2", "a.j2", {"calls": calls})
    plain = Renderer(registry, [folder], recording=False).render("a.j2", "a.j2", {"calls": calls})
    assert memo == plain


def test_replayed_reads_keep_a_derived_reads_digest_and_leave_an_entrys_to_the_plan():
    """A remembered partial's reads, replayed into a page: a derived read (the models
    table) with the digest it had, an entry's to be looked up (a mutation round: a
    derived read replayed without its digest never held again)."""
    from docgen.registry.parts import DERIVED
    from docgen.render.reads import note, replay

    with recording() as reads:
        note(("hosts", "box"))
        replay([((DERIVED, "models_table"), "d1"), (("hosts", "box"), "x"), (("models",), "y")])
    assert reads == {("hosts", "box"): "", (DERIVED, "models_table"): "d1", ("models",): ""}


def test_a_section_the_registry_is_asked_for_is_read_as_that_section(registry):
    """``registry.hosts`` reads the hosts, not the whole registry (a mutation round: read
    as everything, any edit rendered the page again)."""
    from docgen.registry.parts import EVERYTHING
    from docgen.render.reads import note_object

    with recording() as reads:
        note_object(registry, "hosts")
        note_object(registry, "no_such_section")
    assert reads == {("hosts",): "", EVERYTHING: ""}
