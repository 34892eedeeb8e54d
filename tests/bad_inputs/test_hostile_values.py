"""Values built to crash a parser: integers of thousands of digits, human-readable sizes
that overflow a float, JSON nested thousands of levels deep. Each is a located error with
exit 2, in the registry (libyaml's fast path and ruamel.yaml's careful one) and through
``--extra-args-json``; the messages stay short however long the value is.
"""

from __future__ import annotations

import json
import re

import pytest
from bad_input_cases import Case, arg, check, param, reg

from docgen.vllm.values import MAX_JSON_DEPTH, JsonLimit, load_json

HUGE_INT = "9" * 5000
HUGE_HUMAN = "9" * 400 + "k"
DEEP_LIST = "[" * 20_000 + "]" * 20_000
DEEP_OBJECT = '{"a":' * 20_000 + "1" + "}" * 20_000
SERVE = ("serve-command", "vllm.box.tiny", "--extra-args-json")
LONG_INT = "integer longer than docgen's limit of 100 digits (written in decimal)"
TOO_DEEP = "JSON nested deeper than docgen's limit of 64 levels"


def extra(*tokens: object) -> tuple[str, ...]:
    return (*SERVE, json.dumps(list(tokens)))


CASES = [
    Case(
        "yaml-int-5000-digits",
        ("validate",),
        (f"profiles.yaml:41:21: error: {LONG_INT}",),
        registry=arg(f"max-num-seqs: {HUGE_INT}"),
    ),
    Case(  # an anchor sends the document down ruamel.yaml's path
        "yaml-int-5000-digits-careful-path",
        ("validate",),
        (f"profiles.yaml:41:21: error: {LONG_INT}",),
        registry=arg(f"max-num-seqs: &n {HUGE_INT}"),
    ),
    Case(  # a hex literal has no digit limit in int(), but its value is as long
        "yaml-hex-int-past-the-limit",
        ("validate",),
        (f"profiles.yaml:41:21: error: {LONG_INT}",),
        registry=arg("max-num-seqs: 0x" + "f" * 200),
    ),
    Case(
        "yaml-int-5000-digits-in-an-image-field",
        ("validate",),
        (f"profiles.yaml:25:23: error: {LONG_INT}",),
        registry=reg("compressed_bytes: 1234567890", f"compressed_bytes: {HUGE_INT}"),
    ),
    Case(
        "human-size-of-400-digits",
        ("validate",),
        (
            "profiles.yaml:39:22: error: '--max-model-len' expects an integer of at most 100 "
            "digits, got one of 400",
        ),
        registry=reg("max-model-len: 32768", f'max-model-len: "{HUGE_HUMAN}"'),
    ),
    Case(
        "json-flag-nested-20000-levels",
        ("validate",),
        (f"profiles.yaml:41:21: error: '--hf-overrides': {TOO_DEEP}",),
        registry=arg(f"hf-overrides: '{DEEP_LIST}'"),
    ),
    Case(
        "json-flag-object-nested-20000-levels",
        ("validate",),
        (f"profiles.yaml:41:21: error: '--hf-overrides': {TOO_DEEP}",),
        registry=arg(f"hf-overrides: '{DEEP_OBJECT}'"),
    ),
    Case(
        "extra-args-human-size-of-400-digits",
        extra("--max-model-len", HUGE_HUMAN),
        (
            "--extra-args-json: error: token 2 ('9999999999999999999999999999999999999999..."
            "999999999k' (401 characters)): '--max-model-len' expects an integer of at most 100 "
            "digits, got one of 400",
        ),
    ),
    Case(
        "extra-args-string-of-5000-digits",
        extra("--max-model-len", HUGE_INT),
        (
            "--extra-args-json: error: token 2 ('9999999999999999999999999999999999999999..."
            "9999999999' (5,000 characters)): '--max-model-len' expects an integer of at most "
            "100 digits, got one of 5,000",
        ),
    ),
    Case(
        "extra-args-bare-number-of-5000-digits",
        (*SERVE, f'["--max-model-len", {HUGE_INT}]'),
        (f"--extra-args-json: error: JSON holds an {LONG_INT}",),
    ),
    Case(
        "extra-args-array-nested-20000-levels",
        (*SERVE, DEEP_LIST),
        (f"--extra-args-json: error: {TOO_DEEP}",),
    ),
    Case(
        "extra-args-json-flag-nested-20000-levels",
        extra("--hf-overrides", DEEP_OBJECT),
        (
            '--extra-args-json: error: token 2 (\'{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":...'
            "}}}}}}}}}}' (120,001 characters)): '--hf-overrides': " + TOO_DEEP,
        ),
    ),
]


@pytest.mark.parametrize("case", [param(c) for c in CASES])
def test_hostile_value_is_a_located_error_and_changes_nothing(make_project, run, monkeypatch, case):
    check(case, make_project, run, monkeypatch)


def test_json_at_the_depth_limit_is_read_and_one_deeper_is_refused():
    assert load_json("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH) is not None
    with pytest.raises(JsonLimit, match="deeper than docgen's limit of 64 levels"):
        load_json("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))


def test_brackets_and_escaped_quotes_inside_json_strings_do_not_count_as_nesting():
    text = json.dumps({"a": "[" * 500 + '\\"{' * 500, "b": ["\\\\", "]]]"]})
    assert load_json(text) == json.loads(text)


def test_integers_up_to_the_limit_are_read():
    assert load_json("[" + "9" * 100 + "]") == [int("9" * 100)]
    with pytest.raises(JsonLimit, match=re.escape(LONG_INT)):
        load_json("9" * 101)
