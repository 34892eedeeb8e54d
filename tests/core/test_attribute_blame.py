"""``blame.attribute``, exactly: a removed value is blamed only when it shows more often in
the old text than in the new, and values the older registry held unchanged are blamed
when nothing else is (a template that now shows them)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from docgen.blame import attribute
from docgen.errors import Location
from docgen.outputs import Output
from docgen.registry.model import Source

SEQS = Source(
    ("profiles", "p", "args", "max-num-seqs"),
    Location("HEAD:profiles.yaml", 44, 7),
    "--max-num-seqs 2",
)
PORT = Source(
    ("profiles", "p", "args", "port"), Location("HEAD:profiles.yaml", 45, 7), "--port 8000"
)
HOST = Source(("hosts", "box"), Location("profiles.yaml", 21, 3), "Big Box")
MODEL = Source(("models", "tiny"), Location("profiles.yaml", 26, 3), "acme/Tiny-1B")


def page(text: str, *sources: Source) -> Output:
    return Output("docs/models.mdx", text, "templates/models.mdx.j2", sources)


def test_a_removed_value_shown_as_often_in_the_new_lines_is_not_blamed():
    """Both removed values stood in the old line; the rewritten line still shows one of
    them, so only the other is behind the drift."""
    old = "vllm serve m --max-num-seqs 2 --port 8000\n"
    new = "vllm serve m --max-num-seqs 2\n"
    assert attribute(old, page(new), gone=(SEQS, PORT)) == [PORT]


def test_a_removed_value_shown_only_in_the_new_lines_is_not_blamed():
    assert attribute("Models.\n", page("Models: --max-num-seqs 2\n"), gone=(SEQS,)) == []


def test_values_the_commit_holds_unchanged_are_blamed_when_nothing_else_is():
    """The template now shows the host's name; the older registry held it as it is."""
    old = "| Host | Model |\n"
    new = "| Host | Model |\n| Big Box | acme/Tiny-1B |\n"
    kept = frozenset({(HOST.keypath, HOST.text), (MODEL.keypath, MODEL.text)})
    assert attribute(old, page(new, HOST, MODEL), kept=kept) == [HOST, MODEL]


def test_a_value_the_commit_holds_unchanged_is_not_blamed_beside_a_changed_one():
    old = "| Host | Model |\n"
    new = "| Host | Model |\n| Big Box | acme/Tiny-1B |\n"
    kept = frozenset({(HOST.keypath, HOST.text)})
    assert attribute(old, page(new, HOST, MODEL), kept=kept) == [MODEL]


SEQS_NOW = Source(SEQS.keypath, Location("profiles.yaml", 44, 7), "--max-num-seqs 6")
BATCH = Source(
    ("profiles", "p", "args", "max-num-batched-tokens"),
    Location("profiles.yaml", 45, 7),
    "--max-num-batched-tokens 6",
)
PROSE_OLD = "The profile retains `2` concurrent sequences and a `6`-token batch limit.\n"
PROSE_NEW = "The profile retains `6` concurrent sequences and a `6`-token batch limit.\n"


def test_an_argument_shown_by_its_value_alone_is_blamed_when_it_changed_since_the_commit():
    """Prose shows "`6` concurrent sequences", no flag: the argument whose value changed
    since the commit is behind it, and not one the commit held as it is."""
    kept = frozenset({(BATCH.keypath, BATCH.text), (HOST.keypath, HOST.text)})
    assert attribute(PROSE_OLD, page(PROSE_NEW, HOST, SEQS_NOW, BATCH), kept=kept) == [SEQS_NOW]


def test_a_bare_value_is_blamed_on_nothing_without_the_commit_to_tell_what_changed():
    assert attribute(PROSE_OLD, page(PROSE_NEW, SEQS_NOW, BATCH)) == []


def test_a_bare_value_shown_no_more_often_than_before_is_not_blamed():
    kept = frozenset({(HOST.keypath, HOST.text)})
    old = "`6` concurrent sequences, `2` more.\n"
    new = "`6` concurrent sequences, `3` more.\n"
    assert attribute(old, page(new, HOST, SEQS_NOW), kept=kept) == []


def test_a_short_removed_id_is_blamed_only_where_it_stood_as_a_whole_token():
    """A removed profile ``a`` is not behind a line that shows ``a-2``, ``0.a``, a word
    holding the letter, or ``data``; it is behind the line that listed ``a`` itself."""
    short = Source(("profiles", "a"), Location("HEAD:profiles.yaml", 40, 3), "a")
    unrelated = "| `a-2` | at data 0.a\n"
    assert attribute(unrelated, page("| `b-2` | bt info 0.b\n"), gone=(short,)) == []
    assert attribute("| `a` | x\n| `b` | y\n", page("| `b` | y\n"), gone=(short,)) == [short]


def test_a_value_is_not_counted_inside_a_longer_number():
    """``0.5`` is not in ``10.5``, and ``5`` is not in ``0.5``."""
    five = Source(("profiles", "p", "args", "x"), Location("HEAD:profiles.yaml", 9, 7), "5")
    assert attribute("ratio 0.5\n", page("ratio 0.25\n"), gone=(five,)) == []


def test_the_export_view_keys_profiles_by_id_so_a_removal_moves_no_other_line():
    """Blame compares the export as one ``path: value`` line per value: with list items
    keyed by position, removing the first profile would change the path of every later
    profile's lines (megabytes of differing lines at 2,000 profiles, each counted for
    every registry text). Keyed by id, only the removed profile's lines differ."""
    import json

    from conftest import REPO

    from docgen.blame import _export_view
    from docgen.drift_diff import LineDiff

    new = (REPO / "docs/_build/registry.json").read_text("utf-8")
    data = json.loads(new)
    data["profiles"].insert(0, {**data["profiles"][0], "id": "vllm.gone.profile"})
    old = json.dumps(data, indent=2)
    more, fewer = LineDiff(*_export_view(old, new)).changed()
    assert not more
    assert fewer and all(line.startswith(".profiles[vllm.gone.profile].") for line in fewer)


@given(
    text=st.text(alphabet="ab1._- é\u0663", min_size=1, max_size=4),
    haystack=st.text(alphabet="ab1._- é\u0663\n", max_size=40),
)
def test_a_value_is_counted_as_the_whole_token_regex_counts_it(text, haystack):
    """``_count`` finds each occurrence with ``str.find`` and checks its two neighbours:
    exactly what a regex with word, dot and dash lookarounds finds, overlaps included (a
    dot that ends a sentence, at the end or before a blank, ends a value that does not end
    in a digit: ``MTP off.``, not ``2.``)."""
    import re

    from docgen.blame import _count

    after = r"(?![\w.-])" if text[-1].isdigit() else r"(?![\w-])(?!\.\S)"
    token = r"(?<![\w.-])" + re.escape(text) + after
    assert _count(text, haystack) == len(re.findall(token, haystack))


BRACKETED = Source(("hosts", "box", "name"), Location("profiles.yaml", 21, 9), "Big [x] Box")
PIPED = Source(("hosts", "box", "name"), Location("profiles.yaml", 21, 9), "Big | Box")


def test_a_value_a_page_shows_escaped_is_blamed():
    """Prose shows ``Big \\[x\\] Box`` and a table cell ``Big \\| Box``: the raw text stands
    on no line, and the host was blamed for nothing (its source left out of the report)."""
    old = "Runs on Big Box.\n"
    assert attribute(old, page("Runs on Big \\[x\\] Box.\n", BRACKETED)) == [BRACKETED]
    table = "| Host |\n| --- |\n| Big \\| Box |\n"
    assert attribute("| Host |\n| --- |\n", page(table, PIPED)) == [PIPED]
    gone = attribute("Runs on Big \\[x\\] Box.\n", page("Runs on a box.\n"), gone=(BRACKETED,))
    assert gone == [BRACKETED]  # a removed value, shown escaped in the old text


FREE = Source(("hosts", "box", "notes"), Location("profiles.yaml", 22, 10), "<4 GB free")
LISTED = Source(("hosts", "box", "notes"), Location("profiles.yaml", 22, 10), "1. first")


def test_a_value_moved_from_code_to_prose_is_not_blamed_for_its_escape():
    """Prose shows ``\\<4 GB free``, which holds the raw text too: counted twice, a value
    that only moved from a code span to prose was blamed."""
    old = "Needs `<4 GB free`.\n"
    assert attribute(old, page("Needs \\<4 GB free.\n", FREE)) == []
    assert attribute(old, page("Needs `<4 GB free` or \\<4 GB free.\n", FREE)) == [FREE]


def test_a_value_prose_escapes_at_a_lines_start_is_blamed():
    assert attribute("Notes:\n", page("Notes:\n1\\. first\n", LISTED)) == [LISTED]


EXPORTED = Source(("hosts", "box", "notes"), Location("profiles.yaml", 22, 10), "export FOO=1")
IMPORTED = Source(("hosts", "box", "notes"), Location("profiles.yaml", 22, 10), "import x")


def test_a_value_prose_escapes_as_mdx_import_or_export_is_blamed():
    """At a line's start prose shows ``export FOO=1`` as ``&#101;xport FOO=1`` (else MDX
    reads an ESM export): with no escapable character in it, the value was looked for only
    as it is, and blamed for nothing."""
    old = "Notes:\n"
    assert attribute(old, page("Notes:\n&#101;xport FOO=1\n", EXPORTED)) == [EXPORTED]
    assert attribute(old, page("Notes:\n&#105;mport x\n", IMPORTED)) == [IMPORTED]
