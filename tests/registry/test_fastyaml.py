"""The fast YAML path (libyaml): the same data and positions as the careful path (ruamel),
or a refusal so that the careful path reads the document."""

from __future__ import annotations

import json

import pytest
from conftest import REPO
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from docgen.errors import DocgenError
from docgen.registry.fastyaml import RUAMEL_MAX_BYTES, load_fast
from docgen.registry.source import load_text


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\nb: [x, 'y', \"z\"]\nc: {d: null, e: true}\n",
        "list:\n  - {k: 1.5}\n  - - nested\n    - ~\n",
        "text: |\n  literal\n  block\nfolded: >\n  one\n  two\n",
        "when: 2026-01-02\nplus: +1\nexp: 1e3\nword: True\n",
        # a value left empty is placed after its key's ':', as libyaml places it
        # (ruamel.yaml placed it at the next key: a hostile round), a null below its key
        # where it stands
        "a:\n  b:\n  c: 1\nd:\ne:\n  null\nf:\n",
        # ... after a quoted key's closing quote, a space or an explicit key (a review)
        '"ab":\n"a\\"b:":\n\'a\'\'b\':\ncd :\n? ef\n:\ng: 1\n',
        # ... a key written unlike its value (~, 1e3, .5, -0) and one whose ':' follows
        # a blank or a comment line
        "~:\n1e3:\n.5:\n-0:\na:b:\n? h\n\n# c\n:\ni: 1\n",
    ],
    ids=[
        *("flow", "block", "scalars", "core-schema"),
        *("empty-values", "empty-after-odd-keys", "empty-after-keys-written-otherwise"),
    ],
)
def test_the_fast_path_reads_small_documents_as_the_careful_one_does(text):
    fast, careful = load_fast(text, "p"), load_text(text, "p")
    assert fast is not None
    assert json.dumps(fast.data) == json.dumps(careful.data)
    assert (fast.positions.keys, fast.positions.values) == (
        careful.positions.keys,
        careful.positions.values,
    )


#: Every plain scalar YAML 1.2's core schema reads as a boolean or a null, and near
#: misses it reads as text.
CORE_WORDS = [
    *("true", "True", "TRUE", "false", "False", "FALSE"),
    *("null", "Null", "NULL", "~", ""),
    *("tRUE", "fALSE", "yes", "No", "on", "OFF", "nULL", "NuLL"),
]


@pytest.mark.parametrize("word", CORE_WORDS)
def test_each_spelling_of_a_boolean_or_null_reads_as_the_careful_path_reads_it(word):
    text = f"a: {word}\nb: [{word}]\n"
    fast, careful = load_fast(text, "p"), load_text(text, "p")
    assert fast is not None  # the common document: never left to the careful path
    assert json.dumps(fast.data) == json.dumps(careful.data)


@pytest.mark.parametrize(
    "number", [".5e3", "-.5E3", ".1E1", "+.9e3", ".5e+3", "1.5e3", "5e3", ".5"]
)
def test_each_spelling_of_a_number_reads_as_the_careful_path_reads_it(number):
    """ruamel.yaml reads ``.5e3`` as text, ``.5e+3`` and ``5e3`` as numbers: one file
    must read the same whether or not something in it sends it down the careful path."""
    text = f"a: {number}\nb: [{number}]\n"
    fast, careful = load_fast(text, "p"), load_text(text, "p")
    assert fast is not None
    assert _typed(fast.data) == _typed(careful.data)


def test_an_empty_stream_is_left_to_the_careful_path():
    assert load_fast("", "p") is None
    assert load_fast("# only a comment\n", "p") is None


def test_fast_and_careful_yaml_paths_agree_on_data_and_positions():
    for name in ("profiles.yaml", "tests/fixtures/profiles-v0.0.101.yaml"):
        text = (REPO / name).read_text()
        fast, careful = load_fast(text, "p"), load_text(text, "p")
        assert fast is not None
        assert json.dumps(fast.data) == json.dumps(careful.data)
        assert fast.positions.keys == careful.positions.keys
        assert fast.positions.values == careful.positions.values


@pytest.mark.parametrize(
    "text",
    ["a: !!str 1\n", "a: &x 1\nb: *x\n", "a: 0o17\n", "a: 1_000\n", "a: 1\na: 2\n", "a: [1\n"],
)
def test_fast_path_declines_what_it_cannot_read_exactly(text):
    assert load_fast(text, "p") is None


def test_syntax_errors_in_large_text_are_worded_by_libyaml():
    text = "".join(f"a{i}: 1\n" for i in range(RUAMEL_MAX_BYTES // 5)) + "b: [1\n"
    with pytest.raises(DocgenError) as info:
        load_fast(text, "p.yaml")
    lines = text.count("\n")
    assert str(info.value) == (
        f"p.yaml:{lines + 1}:1: error: did not find expected ',' or ']' (in a flow sequence "
        f"that starts at {lines}:4)"
    )


PLAIN = "".join(f"a{i}: 1\n" for i in range(RUAMEL_MAX_BYTES // 5))
BEYOND = (
    "in a file over 512 KB docgen reads only plain YAML (no anchors, aliases, merge keys, "
    "tags or directives; numbers in decimal), since its careful reader would take minutes at "
    "this size"
)


@pytest.mark.parametrize(
    ("tail", "message"),
    [
        ("a7: 2\n", "duplicate key 'a7' (first defined on line 8)"),
        ("b: &x [1]\n", f"the anchor '&x': {BEYOND}"),
        ("b: *x\n", f"an alias: {BEYOND}"),
        ("b: !!str 1\n", f"a YAML tag: {BEYOND}"),
        ("b: 0x1F\n", f"the number '0x1F': {BEYOND}"),
        ("b: 0b101\n", f"the number '0b101': {BEYOND}"),
        ("b: {<<: {c: 1}}\n", f"a merge key: {BEYOND}"),
    ],
    ids=["duplicate", "anchor", "alias", "tag", "number", "binary", "merge"],
)
def test_in_large_text_what_the_fast_path_cannot_read_is_a_located_error(tail, message):
    """ruamel.yaml takes minutes and gigabytes over megabytes: beyond its limit the fast
    path's refusal is the answer, at once, located."""
    with pytest.raises(DocgenError) as info:
        load_fast(PLAIN + tail, "p.yaml")
    assert str(info.value).startswith(f"p.yaml:{PLAIN.count(chr(10)) + 1}:")
    assert str(info.value).endswith(f": error: {message}")


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\n",  # what the fast path declines
        "a: [1\n",  # a syntax error ruamel.yaml words
        "a: \x07\n",  # a character YAML refuses
        '"<<": {a: 1}\n',  # a quoted "<<" is a key, no merge
    ],
    ids=["declined", "syntax", "character", "quoted-merge-key"],
)
def test_text_of_exactly_the_careful_readers_limit_is_still_its_to_read(text):
    """At the limit ruamel.yaml still reads what the fast path declines; one character
    more and the fast path answers alone (a mutation round: the bound was untested)."""
    at_limit = load_fast(text, "p", careful_max=len(text))
    if text.startswith('"<<"'):  # the fast path reads it: a plain key
        assert at_limit is not None and at_limit.data == {"<<": {"a": 1}}
        return
    assert at_limit is None
    with pytest.raises(DocgenError):
        load_fast(text, "p", careful_max=len(text) - 1)


def test_a_tag_directive_in_large_text_is_refused():
    """``%TAG`` without ``%YAML``: a directive the fast path does not read (a mutation
    round: only ``%YAML`` was tested)."""
    with pytest.raises(DocgenError) as info:
        load_fast("%TAG !e! tag:example.com,2000:\n---\n" + PLAIN, "p.yaml")
    assert str(info.value).endswith(f": error: a YAML directive (%YAML, %TAG): {BEYOND}")


@pytest.mark.parametrize("value", ["05d9e1c3a0b7f2e8d4c6a1b3e5f7091a2b3c4d5e", "01-ai/Yi-1.5"])
def test_in_large_text_a_string_that_starts_like_a_number_is_a_string(value):
    """A commit SHA or a model name that starts with ``0`` and a digit is no number."""
    loaded = load_fast(PLAIN + f"b: {value}\n", "p.yaml")
    assert loaded is not None and loaded.data["b"] == value


def test_the_fast_path_measures_nesting_as_it_reads():
    with pytest.raises(DocgenError) as info:
        load_fast("k: " + "[" * 100 + "]" * 100 + "\n", "p.yaml")
    assert str(info.value) == "p.yaml:1:68: error: YAML nesting deeper than 64 levels"


# -- the fast path against ruamel.yaml, on generated documents -------------------------

#: Plain scalars where YAML 1.2's core schema and YAML 1.1 habits part ways.
TRICKY = [
    "1", "-1", "+1", "0", "007", "0x1F", "0o17", "1_000", "1e3", "1E-3", "-.5", "1.", ".5",
    ".inf", "-.Inf", ".NaN", "nan", "true", "True", "TRUE", "false", "yes", "no", "on", "off",
    "null", "Null", "NULL", "~", "12:30", "2026-01-02", "1.0.0", "v1", "0.4", "a b", "x-y",
    "--flag", "é", "a#b", "3.14e+2", "0b101", "0X1F", "09", "0_1", "05d9e1c3a0", "01-ai/Yi",
    "0e1", "00", ".5e3", "-.5E3", ".1E1", ".5e+3", "+.5e-3", "1.5e3", "-5E3",
]  # fmt: skip
plain = st.one_of(st.sampled_from(TRICKY), st.from_regex(r"[a-z][a-z0-9_.-]{0,8}", fullmatch=True))
scalar_text = st.one_of(
    plain,
    plain.map(lambda s: f"'{s}'"),
    plain.map(lambda s: json.dumps(s)),
)
keys = st.from_regex(r"[a-z][a-z0-9-]{0,6}", fullmatch=True)
trees = st.recursive(
    scalar_text,
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=4),
        st.dictionaries(keys, inner, min_size=1, max_size=4),
    ),
    max_leaves=12,
)


def _flow(node: object) -> str:
    if isinstance(node, list):
        return "[" + ", ".join(_flow(n) for n in node) + "]"
    if isinstance(node, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in node.items()) + "}"
    return str(node)


def _block(node: object, indent: int, flow_from: int) -> list[str]:
    pad = "  " * indent
    if not isinstance(node, (list, dict)) or indent >= flow_from:
        return [_flow(node)]
    out = []
    items = node.items() if isinstance(node, dict) else (("-", v) for v in node)
    for key, value in items:
        head = f"{pad}{key}:" if isinstance(node, dict) else f"{pad}-"
        if isinstance(value, (list, dict)) and value and indent + 1 < flow_from:
            out += [head, *_block(value, indent + 1, flow_from)]
        else:
            out.append(f"{head} {_block(value, indent + 1, flow_from)[0]}")
    return out


def _typed(value: object) -> object:
    """The data with every scalar's type kept (1, 1.0 and True all differ)."""
    if isinstance(value, dict):
        return [(k, _typed(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return (type(value).__name__, repr(value))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(keys, trees, min_size=1, max_size=5), st.integers(min_value=1, max_value=4))
def test_the_fast_path_reads_generated_documents_exactly_as_ruamel_does(tree, flow_from):
    text = "\n".join(_block(tree, 0, flow_from)) + "\n"
    try:
        careful = load_text(text, "p")
    except DocgenError:
        assume(False)  # not YAML at all: nothing to compare
    fast = load_fast(text, "p")
    if fast is None:
        return  # declined: ruamel.yaml reads it, as above
    assert _typed(fast.data) == _typed(careful.data), text
    assert fast.positions.keys == careful.positions.keys, text
    assert fast.positions.values == careful.positions.values, text


def test_a_character_yaml_refuses_in_a_large_registry_is_located_by_the_fast_path():
    """Past what ruamel.yaml reads in bounded time, libyaml's refusal of a control
    character is located at its line and column (it was left to ruamel.yaml: minutes)."""
    from docgen.errors import RegistryError
    from docgen.registry.fastyaml import RUAMEL_MAX_BYTES, load_fast

    filler = "".join(f"k{n}: {'v' * 60}\n" for n in range(RUAMEL_MAX_BYTES // 60))
    with pytest.raises(RegistryError) as refused:
        load_fast(filler + "last: a\x1bb\n", "big.yaml")
    (problem,) = refused.value.problems
    line = filler.count("\n") + 1
    assert (problem.location.line, problem.location.col) == (line, 8)
    assert problem.message.startswith("YAML allows no character U+001B here")


def _verdict(text: str) -> object:
    """What the registry's reader makes of ``text``: its data, or its located error."""
    try:
        doc = load_fast(text, "p") or load_text(text, "p")
    except DocgenError as exc:
        return str(exc)
    return json.dumps(doc.data)


@pytest.mark.parametrize(
    "text",
    [
        "a:\t4\nb: 1\n",  # a tab between a key and its value
        "a: 4\t\nb: 1\n",  # a tab after a value
        "a: 4\t# why\nb: 1\n",  # a tab before a comment
        "a: x\ty\nb: 1\n",  # a tab inside a plain value
        "a: 1\n\ufeff\nb: 1\n",  # a byte-order mark on a later line
        "a: 1\n\ufeffb: 1\n",
        "a: =\nb: <<\n",  # YAML 1.1's value and merge keys, as values
        "a: -_\nb: 1\n",  # a number to ruamel.yaml's resolver that its constructor fails on
        "a: [1, ._]\nb: 1\n",
        "a:\n  ? [{x: 1}]\n  : 1\nb: 1\n",  # a key no mapping can hold
        "a: 'x\ty'\nb: 1\nc: |\n  c\td\n",  # tabs where both readers take them
    ],
)
def test_one_verdict_whether_or_not_an_anchor_sends_the_file_to_the_careful_path(text):
    """An anchor added on an unrelated line turned a registry the fast path took into one
    refused on a line nobody touched (a tab, a byte-order mark), or one refused into an
    internal error (a hostile round)."""
    anchored = text.replace("b: 1\n", "b: &anchor 1\n").replace("b: <<\n", "b: &anchor <<\n")
    assert anchored != text
    plain, careful = _verdict(text), _verdict(anchored)
    assert plain == careful


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("a: 1\n\ufeff\nb: 1\n", "p:2:1: error: a byte-order mark (U+FEFF) stands here"),
        ("a: 1\n  \ufeffb: [\n", "p:2:3: error: a byte-order mark (U+FEFF) stands here"),
        # inside a quoted value a mark is text: the unclosed list is the error
        ('a: "x\ufeff"\nb: [\n', "p:2:4: error: this '[' list is never closed"),
    ],
)
def test_a_byte_order_mark_is_named_where_it_opens_a_line_not_inside_a_value(text, said):
    """The mark's message took over an unrelated error on its line (a fresh-eyes review)."""
    with pytest.raises(DocgenError) as caught:
        load_text(text, "p")
    assert str(caught.value).startswith(said)
