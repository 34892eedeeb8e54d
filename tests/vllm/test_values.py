"""Tests of docgen.vllm.values: a registry value checked against its flag, and vLLM's ints."""

from __future__ import annotations

from typing import Any

import pytest

from docgen.vllm.catalog import Catalog
from docgen.vllm.values import parse_int


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.load()


# --- check_value --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        (
            "enable-prefix-caching",
            "yes",
            "'--enable-prefix-caching' is an on/off flag: use true or false, got 'yes'",
        ),
        (
            "disable-log-stats",
            False,
            "'--disable-log-stats' has no --no- form in vLLM; "
            "remove the flag instead of setting it to false",
        ),
        ("max-num-seqs", True, "'--max-num-seqs' takes a value, not true/false"),
        ("max-num-seqs", "four", "'--max-num-seqs' expects an integer, got 'four'"),
        ("max-num-seqs", 4.5, "'--max-num-seqs' expects an integer, got 4.5"),
        ("max-model-len", "1.5K", "'--max-model-len' expects an integer, got '1.5K'"),
        (
            "max-num-batched-tokens",
            "auto",
            "'--max-num-batched-tokens' expects an integer, got 'auto'",
        ),
        (
            "gpu-memory-utilization",
            "high",
            "'--gpu-memory-utilization' expects a number, got 'high'",
        ),
        ("gpu-memory-utilization", 1.5, "'--gpu-memory-utilization' must be > 0 and <= 1, got 1.5"),
        ("gpu-memory-utilization", 0, "'--gpu-memory-utilization' must be > 0 and <= 1, got 0"),
        ("max-model-len", -2, "'--max-model-len' must be >= -1, got -2"),
        ("video-pruning-rate", 1.0, "'--video-pruning-rate' must be >= 0.0 and < 1.0, got 1.0"),
        ("max-num-seqs", 0, "'--max-num-seqs' must be a positive integer, got 0"),
        ("block-size", 0, "'--block-size' must be a positive integer, got 0"),
        ("tensor-parallel-size", -1, "'--tensor-parallel-size' must be a positive integer, got -1"),
        (
            "max-num-batched-tokens",
            "0k",
            "'--max-num-batched-tokens' must be a positive integer, got 0",
        ),
        (
            "kv-cache-dtype",
            "fp9",
            "invalid value 'fp9' for '--kv-cache-dtype'; did you mean 'fp8'?",
        ),
        (
            "dtype",
            "double",
            "invalid value 'double' for '--dtype'; "
            "expected one of: auto, bfloat16, float, float16, float32, half",
        ),
        (
            "quantization",
            "modelopt_fp9",
            "invalid value 'modelopt_fp9' for '--quantization'; "
            "did you mean 'modelopt_fp4', 'modelopt_mxfp8' or 'modelopt'?",
        ),
        (
            "reasoning-parser",
            "qwen4",
            "invalid value 'qwen4' for '--reasoning-parser'; did you mean 'qwen3'?",
        ),
        ("max-lora-rank", 17, "invalid value '17' for '--max-lora-rank'; did you mean '1'?"),
        ("max-lora-rank", "big", "'--max-lora-rank' expects an integer, got 'big'"),
        (
            "speculative-config",
            {"methd": "mtp"},
            "unknown key 'methd' in '--speculative-config'; did you mean 'method'?",
        ),
        (
            "speculative-config",
            '{"method":1"x":2}',
            "'--speculative-config' expects JSON: "
            "Expecting ',' delimiter: line 1 column 12 (char 11)",
        ),
        ("speculative-config", 3, "'--speculative-config' expects a JSON object"),
        # YAML's 1e400 is infinite: Python would write it Infinity, which is no JSON
        *(
            (
                "override-generation-config",
                value,
                "'--override-generation-config' holds a number JSON cannot write (infinite or NaN)",
            )
            for value in (
                {"n": float("inf")},
                {"n": [1, {"m": float("nan")}]},
                '{"n": NaN}',
                '{"n": 1e400}',
                '{"n": -Infinity}',
            )
        ),
        ("numa-bind-nodes", [0, "one"], "'--numa-bind-nodes' expects integers, got 'one'"),
        (
            "collect-detailed-traces",
            ["all", "gpu"],
            "invalid value 'gpu' for '--collect-detailed-traces'; "
            "expected one of: all, model, worker",
        ),
        ("served-model-name", [], "'--served-model-name' needs at least one value"),
        ("chat-template", ["a"], "'--chat-template' expects a single value, got a list"),
        ("port", None, "'--port' cannot be null; remove the flag"),
    ],
)
def test_check_value_reports(catalog: Catalog, name: str, value: Any, message: str) -> None:
    assert catalog.check_value(name, value) == [message]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("enable-prefix-caching", True),
        ("enable-prefix-caching", False),
        ("disable-log-stats", True),
        ("max-num-seqs", 4),
        ("max-num-seqs", "4"),
        ("max-model-len", "32k"),
        ("max-model-len", "128K"),
        ("max-model-len", "25.6k"),
        ("max-model-len", "auto"),
        ("max-model-len", "AUTO"),
        ("max-model-len", -1),
        ("gpu-memory-utilization", 0.4),
        ("gpu-memory-utilization", 1),
        ("gpu-memory-utilization", "0.9"),
        ("kv-cache-dtype", "fp8"),
        ("attention-backend", "flashinfer"),
        ("attention-backend", "FLASH_ATTN"),
        ("attention-backend", "Auto"),
        ("mamba-backend", "triton"),
        ("reasoning-parser", "None"),
        ("reasoning-parser", "none"),
        ("optimization-level", 3),
        ("max-lora-rank", 16),
        ("mm-processor-device", "cuda"),
        ("speculative-config", {"method": "mtp", "num_speculative_tokens": 2}),
        ("speculative-config", '{"method":"mtp"}'),
        ("hf-overrides", {"anything": {"goes": 1}}),
        ("allowed-origins", ["*"]),
        ("pt-load-map-location", "cuda:0"),
        ("api-key", ["a", "b"]),
        ("api-key", "a"),
        ("numa-bind-nodes", [0, "1"]),
        ("chat-template", None),
        ("tool-call-parser", ""),
    ],
)
def test_check_value_accepts(catalog: Catalog, name: str, value: Any) -> None:
    assert catalog.check_value(name, value) == []


def test_check_value_reports_every_unknown_json_key(catalog: Catalog) -> None:
    problems = catalog.check_value("compilation-config", {"mdoe": 3, "mode": 3, "zzz": 1})
    assert problems == [
        "unknown key 'mdoe' in '--compilation-config'; did you mean 'mode'?",
        "unknown key 'zzz' in '--compilation-config'",
    ]


@pytest.mark.parametrize(
    ("text", "human", "auto", "expected"),
    [
        ("32k", True, False, 32000),
        ("32K", True, False, 32768),
        ("25.6k", True, False, 25600),
        ("1m", True, False, 1_000_000),
        ("2G", True, False, 2 * 2**30),
        ("1.5K", True, False, None),
        ("32k", False, False, None),
        (" 42 ", False, False, 42),
        ("auto", True, True, -1),
        ("-1", False, True, -1),
        ("auto", True, False, None),
        ("4.0", False, False, None),
    ],
)
def test_parse_int_follows_vllm(text: str, human: bool, auto: bool, expected: int | None) -> None:
    assert parse_int(text, human=human, auto=auto) == expected
