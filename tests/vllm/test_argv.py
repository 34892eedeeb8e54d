"""Tests of docgen.vllm.argv: the argv tokens of a registry value, and operator argv checks."""

from __future__ import annotations

from typing import Any

import pytest

from docgen.vllm.catalog import Catalog
from docgen.vllm.flag import Flag


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.load()


def _flag(catalog: Catalog, name: str) -> Flag:
    flag = catalog.lookup(name)
    assert flag is not None, name
    return flag


# --- tokens -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value", "tokens"),
    [
        ("enable-prefix-caching", True, ["--enable-prefix-caching"]),
        ("enable-prefix-caching", False, ["--no-enable-prefix-caching"]),
        ("async-scheduling", False, ["--no-async-scheduling"]),
        ("gpu-memory-utilization", 0.4, ["--gpu-memory-utilization", "0.4"]),
        ("gpu-memory-utilization", 0.1 + 0.2, ["--gpu-memory-utilization", "0.30000000000000004"]),
        ("max-model-len", 262144, ["--max-model-len", "262144"]),
        ("max-model-len", "32k", ["--max-model-len", "32k"]),
        ("kv-cache-dtype", "fp8", ["--kv-cache-dtype", "fp8"]),
        ("tp", 2, ["--tensor-parallel-size", "2"]),
        (
            "compilation-config",
            {"cudagraph_mode": "FULL_AND_PIECEWISE", "custom_ops": ["all"]},
            [
                "--compilation-config",
                '{"cudagraph_mode":"FULL_AND_PIECEWISE","custom_ops":["all"]}',
            ],
        ),
        ("speculative-config", {"z": "é", "a": 1}, ["--speculative-config", '{"z":"é","a":1}']),
        ("allowed-origins", ["*"], ["--allowed-origins", '["*"]']),
        ("served-model-name", ["qwen", "default"], ["--served-model-name", "qwen", "default"]),
        ("numa-bind-nodes", [0, 1], ["--numa-bind-nodes", "0", "1"]),
        ("middleware", ["a.B", "c.D"], ["--middleware", "a.B", "--middleware", "c.D"]),
        ("device-ids", [2, 3, 5], ["--device-ids", "2,3,5"]),
        ("chat-template", None, ["--chat-template", "None"]),
    ],
)
def test_tokens(catalog: Catalog, name: str, value: Any, tokens: list[str]) -> None:
    assert catalog.tokens(name, value) == tokens


def test_tokens_refuse_false_for_a_flag_without_negation(catalog: Catalog) -> None:
    with pytest.raises(ValueError, match="has no --no- form"):
        catalog.tokens("disable-log-stats", False)


def _valid_sample(flag: Flag) -> Any:
    """A value every flag of this shape must accept."""
    samples: dict[str, Any] = {"bool": True, "int": 1, "float": 0.5, "json": {}, "str": "x"}
    if flag.choices:
        choice = flag.choices[0]
        sample: Any = int(choice) if flag.value_type == "int" else choice
        return [sample] if flag.type == "list" else sample
    if flag.type == "list":
        return [1] if flag.item_type == "int" else ["a"]
    if flag.json_keys:
        return {flag.json_keys[0]: 1}
    return samples[flag.type]


def test_every_valid_registry_value_gives_argv_the_parser_model_accepts(catalog: Catalog) -> None:
    for name in catalog.names():
        flag = _flag(catalog, name)
        values = [_valid_sample(flag)] + ([False] if flag.negations else [])
        for value in values:
            assert catalog.check_value(name, value) == [], (name, value)
            assert catalog.check_argv(catalog.tokens(name, value)) == [], (name, value)


# --- check_argv ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "tokens",
    [
        ["--max-num-seqs", "2", "--disable-log-requests"],
        ["--no-async-scheduling", "--max-model-len", "32768", "--max-num-batched-tokens", "4096"],
        ["--max-model-len=32k", "--gpu-memory-utilization=0.5"],
        ["-tp", "2", "-pp=1", "--device-memory-utilization", "0.8"],
        ["--max_model_len", "32K", "--enable_prefix_caching", "--disable-prefix-caching"],
        [
            "--compilation-config.mode",
            "3",
            "-cc.cudagraph_mode=FULL",
            "--compilation_config.custom_ops+",
            "a,b",
        ],
        ["--max-model-len", "-1", "--seed", "0"],
        ["--api-key", "k1", "k2", "--port", "8001"],
        ["-O3", "-O", "2", "-O=1"],
        ["--speculative-config", '{"method":"mtp","num_speculative_tokens":2}'],
        ["--reasoning-parser", "NONE", "--tool-call-parser", "None"],
        [
            "--async-scheduling",
            "--max-model-len",
            "262144",
            "--no-async-scheduling",
            "--max_model_len=32768",
            "--disable-log-requests",
            "--api-key",
            "a",
            "b",
            "--middleware",
            "m1",
            "--middleware",
            "m2",
            "--compilation-config",
            '{"mode":1}',
            "-cc.mode",
            "3",
            "-cc.pass_config.x",
            "true",
            "-cc.custom_ops+",
            "all,none",
        ],
    ],
)
def test_check_argv_accepts(catalog: Catalog, tokens: list[str]) -> None:
    assert catalog.check_argv(tokens) == []


@pytest.mark.parametrize(
    ("tokens", "problems"),
    [
        (
            ["--max-num-seqs", "2", "--max-model", "32k"],
            [
                (
                    2,
                    "unknown option '--max-model'; did you mean '--max-model-len' or '--model'?",
                )
            ],
        ),
        (["--port", "8000", "--max-model-len"], [(2, "'--max-model-len' expects a value")]),
        (
            ["--max-model-len", "--enforce-eager"],
            [(0, "'--max-model-len' expects a value, got the option '--enforce-eager'")],
        ),
        (
            ["--enforce-eager", "qwen"],
            [
                (
                    1,
                    "unexpected argument 'qwen'; "
                    "'--enforce-eager' is an on/off flag and takes no value",
                )
            ],
        ),
        (["qwen", "--enforce-eager"], [(0, "unexpected argument 'qwen'")]),
        (
            ["--no-async-scheduling=1"],
            [(0, "'--no-async-scheduling' is an on/off flag and takes no value, got '1'")],
        ),
        (["--max-num-seqs", "four"], [(1, "'--max-num-seqs' expects an integer, got 'four'")]),
        (["--max-num-seqs=0"], [(0, "'--max-num-seqs' must be a positive integer, got 0")]),
        (["--max-model-len", "1.5K"], [(1, "'--max-model-len' expects an integer, got '1.5K'")]),
        (
            ["-tp", "2", "--gpu-memory-utilization", "1.5"],
            [(3, "'--gpu-memory-utilization' must be > 0 and <= 1, got 1.5")],
        ),
        (
            ["--kv-cache-dtype", "fp9"],
            [(1, "invalid value 'fp9' for '--kv-cache-dtype'; did you mean 'fp8'?")],
        ),
        (
            ["--speculative-config", '{"method":1"x":2}'],
            [
                (
                    1,
                    "'--speculative-config' expects JSON: "
                    "Expecting ',' delimiter: line 1 column 12 (char 11)",
                )
            ],
        ),
        (
            ["--port", "1", "--compilation-config.mdoe", "3"],
            [(2, "unknown key 'mdoe' in '--compilation-config'; did you mean 'mode'?")],
        ),
        (
            ["-cc.mdoe+", "a,b"],
            [(0, "unknown key 'mdoe' in '--compilation-config'; did you mean 'mode'?")],
        ),
        (
            ["--max-model-len.x", "3"],
            [(0, "'--max-model-len.x' is not accepted: only JSON options take dotted keys")],
        ),
        (["--compilation-config.mode"], [(0, "'--compilation-config.mode' expects a value")]),
        (
            ["--api-key", "a", "b", "--numa-bind-nodes", "0", "x"],
            [(5, "'--numa-bind-nodes' expects integers, got 'x'")],
        ),
        (
            ["-Ofast"],
            [(0, "invalid value 'fast' for '--optimization-level'; expected one of: 0, 1, 2, 3")],
        ),
        (["--tp", "2"], [(0, "unknown option '--tp'; did you mean '-tp' or '--dtype'?")]),
        (
            # An unknown option written with its value takes no next token as its value.
            ["--no-such-flag=1", "stray"],
            [(0, "unknown option '--no-such-flag'"), (1, "unexpected argument 'stray'")],
        ),
        (
            ["--no-disable-log-stats", "--port", "x"],
            [
                (
                    0,
                    "unknown option '--no-disable-log-stats'; did you mean '--disable-log-stats', "
                    "'--disable-log-deltas' or '--disable-log-outputs'?",
                ),
                (2, "'--port' expects an integer, got 'x'"),
            ],
        ),
    ],
)
def test_check_argv_reports(
    catalog: Catalog, tokens: list[str], problems: list[tuple[int, str]]
) -> None:
    assert catalog.check_argv(tokens) == problems


def test_check_argv_does_not_report_the_value_of_an_unknown_option_again(catalog: Catalog) -> None:
    assert [index for index, _ in catalog.check_argv(["--swap-space", "4", "x"])] == [0, 2]


# --- requirements ----------------------------------------------------------------------


def test_an_empty_value_turns_no_flag_on() -> None:
    """A flag set to nothing (an empty text, list or JSON object), false or null is off,
    so a rule that needs it is broken; any other value is on (0 too)."""
    from docgen.vllm import requirements

    for empty in ("", [], {}, None, False):
        assert not requirements.is_on({"x": empty}, "x"), empty
    for value in ("a", [1], {"k": 1}, True, 0):
        assert requirements.is_on({"x": value}, "x"), value
