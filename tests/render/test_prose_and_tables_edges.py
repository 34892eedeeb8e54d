"""Phrases and table cells at their edges, each pinned because a mutation round found
it untested."""

from __future__ import annotations

import jinja2
import pytest
from conftest import MINIMAL_REGISTRY
from markupsafe import Markup

from docgen.registry.builder import _history_tokens
from docgen.registry.load import load_bytes
from docgen.render.prose import article, count, enabled_features, feature
from docgen.render.tables import join, long_date, models_table


@pytest.mark.parametrize("number", range(1, 10))
def test_a_count_up_to_nine_is_a_word(number):
    words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    assert count(number, "concurrent sequence").startswith(words[number - 1] + " ")


@pytest.mark.parametrize(
    ("word", "said"), [("hybrid8", "a"), ("fp8", "an"), ("hf8", "an"), ("hy", "a")]
)
def test_the_article_follows_how_the_word_is_read(word, said):
    """A letter is spelled out (an fp8) unless a vowel or ``y`` after it makes it a word."""
    assert article(word) == said


def test_a_speculative_method_named_in_capitals_is_multi_token_prediction():
    arg = type("Arg", (), {"name": "speculative-config", "value": {"method": "MTP"}})()
    assert feature(arg) == "multi-token prediction (MTP) speculative decoding"


def test_enabled_features_leave_out_the_flag_asked_to():
    args = "      async-scheduling: true\n      speculative-config: {method: mtp}\n"
    text = MINIMAL_REGISTRY.replace("      max-num-seqs: 2\n", args)
    profile = load_bytes(text.encode(), "p.yaml").profiles["vllm.box.tiny"]
    assert enabled_features(profile, "speculative-config") == ["async scheduling"]
    assert len(enabled_features(profile)) == 2


def test_a_separator_joining_markup_is_escaped_for_mdx():
    joined = join(jinja2.Environment(), [Markup("`a`"), Markup("`b`")], " {and} ")
    assert joined == Markup("`a` \\{and} `b`")


def test_a_model_no_profile_serves_shows_none_for_its_hosts():
    spare = "  spare:\n    hf: acme/Spare-1B\n    label: Spare 1B\n"
    text = MINIMAL_REGISTRY.replace("models:\n", f"models:\n{spare}")
    table = str(models_table(load_bytes(text.encode(), "p.yaml")))
    assert "| `spare` | `acme/Spare-1B` | None |" in table


@pytest.mark.parametrize(
    ("value", "tokens"),
    [
        (True, ("--gone",)),
        (False, ("--no-gone",)),
        ({"a": 1, "b": [1, 2]}, ("--gone", '{"a":1,"b":[1,2]}')),
        (0.5, ("--gone", "0.5")),
    ],
)
def test_an_older_states_unknown_flag_is_written_as_the_catalog_writes_flags(value, tokens):
    assert _history_tokens("gone", value) == tokens


@pytest.mark.parametrize(
    ("cell", "refused"),
    [
        ("a \\| b", False),  # an escaped pipe stays in the cell
        ("a \\\\| b", True),  # an escaped backslash, then a pipe that ends the cell
        ("a \\\\\\| b", False),
        ("a | b", True),
    ],
)
def test_a_markup_cell_with_a_pipe_no_backslash_escapes_is_refused(cell, refused):
    from docgen.render.tables import table

    if refused:
        with pytest.raises(ValueError, match="ends the cell"):
            table(["H"], [[Markup(cell)]])
    else:
        assert f"| {cell} |" in table(["H"], [[Markup(cell)]])


def test_gb_refuses_a_negative_size():
    """It showed ``-0.00 GB`` for -5 bytes."""
    from docgen.render.tables import gb

    assert gb(0) == "0.00 GB"
    with pytest.raises(ValueError, match="gb takes a size in bytes, 0 or more, got -5"):
        gb(-5)


@pytest.mark.parametrize(("digits", "shown"), [(0, "1 GB"), (20, "1." + "0" * 20 + " GB")])
def test_gb_takes_zero_to_twenty_decimals(digits, shown):
    from docgen.render.tables import gb

    assert gb(1_000_000_000, digits) == shown
    with pytest.raises(ValueError, match="gb takes 0 to 20 decimals, got 21"):
        gb(1_000_000_000, 21)
    with pytest.raises(ValueError, match="gb takes 0 to 20 decimals, got -1"):
        gb(1_000_000_000, -1)


@pytest.mark.parametrize(
    ("rows", "said"),
    [
        ([[1, 2]], "table row 1 has 2 cells, but the table has 1 header"),
        ([[1], []], "table row 2 has 0 cells, but the table has 1 header"),
    ],
)
def test_a_table_row_has_one_cell_per_header(rows, said):
    """GFM drops a cell past the headers without a word, and pads a short row."""
    from docgen.render.tables import table

    with pytest.raises(ValueError, match=f"^{said}: give each row one value per header$"):
        table(["a"], rows)
    assert table(["a", "b"], [iter([1, 2])]) == "| a | b |\n|---|---|\n| 1 | 2 |"


@pytest.mark.parametrize(
    ("iso", "said"),
    [
        ("2026-08-04", "August 4, 2026"),
        ("2026-08-14", "August 14, 2026"),
        ("2027-12-31", "December 31, 2027"),
    ],
)
def test_a_long_date_names_the_month_and_the_day_without_a_leading_zero(iso, said):
    assert long_date(iso) == said
