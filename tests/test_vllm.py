"""Tests of docgen.vllm.catalog: the shipped catalog, value checks, argv tokens and argv checks."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from docgen.vllm.catalog import CATALOG_FILE, VERSIONS_FILE, Catalog, Flag, parse_int

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "docgen" / "data"
REFERENCE = ROOT / ".." / "shared" / "reference" / "vllm_serve_args.json"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.load()


def _flag(catalog: Catalog, name: str) -> Flag:
    flag = catalog.lookup(name)
    assert flag is not None, name
    return flag


# --- the shipped catalog ------------------------------------------------------------


def test_shipped_catalog_is_vllm_0_34_0_with_327_options(catalog: Catalog) -> None:
    assert catalog.version == "0.34.0"
    assert catalog.commit == "62d4bc3c7"
    assert len(catalog.names()) == 327
    assert catalog.names() == sorted(catalog.names())
    assert "model_tag" not in catalog.names()


def test_load_is_cached(catalog: Catalog) -> None:
    assert Catalog.load() is catalog


def test_catalog_knows_negations(catalog: Catalog) -> None:
    assert _flag(catalog, "async-scheduling").negations == ("no-async-scheduling",)
    assert _flag(catalog, "enable-prefix-caching").negations == (
        "no-enable-prefix-caching",
        "disable-prefix-caching",
    )
    assert "disable-log-requests" in _flag(catalog, "enable-log-requests").negations
    assert _flag(catalog, "disable-log-stats").negations == ()


def test_catalog_records_types_and_traits(catalog: Catalog) -> None:
    max_model_len = _flag(catalog, "max-model-len")
    assert (max_model_len.type, max_model_len.human_readable_int) == ("int", True)
    assert max_model_len.accepts_auto and max_model_len.constraints == (("ge", -1),)
    assert _flag(catalog, "gpu-memory-utilization").constraints == (("gt", 0), ("le", 1))
    assert _flag(catalog, "seed").constraints == (("ge", 0), ("le", 2**32 - 1))
    assert _flag(catalog, "max-lora-rank").choices == tuple(
        str(n) for n in (1, 8, 16, 32, 64, 128, 256, 320, 512)
    )
    speculative = _flag(catalog, "speculative-config")
    assert speculative.json_keys is not None and "method" in speculative.json_keys
    assert _flag(catalog, "kv-cache-dtype").choices_enforced is False
    assert _flag(catalog, "dtype").choices_enforced is True
    assert _flag(catalog, "served-model-name").nargs == "+"
    assert _flag(catalog, "cudagraph-capture-sizes").deprecated


def test_records_build_the_same_flag_as_the_constructor(catalog: Catalog) -> None:
    for name in catalog.names():
        flag = _flag(catalog, name)
        assert replace(flag) == flag
        assert hash(replace(flag)) == hash(flag)


def test_lookup_takes_names_and_aliases_only(catalog: Catalog) -> None:
    assert _flag(catalog, "tp").name == "tensor-parallel-size"
    assert _flag(catalog, "device-memory-utilization").name == "gpu-memory-utilization"
    assert _flag(catalog, "max-model-len").aliases == ()
    assert _flag(catalog, "tensor-parallel-size").aliases == ("-tp",)
    assert catalog.lookup("no-async-scheduling") is None
    assert catalog.lookup("disable-prefix-caching") is None
    assert catalog.lookup("max-model") is None
    assert catalog.lookup("--max-model-len") is None


def test_suggest_names_the_closest_flag_first(catalog: Catalog) -> None:
    assert catalog.suggest("max-modle-len").startswith("; did you mean '--max-model-len'")
    assert catalog.suggest("--enable-prefix-cachng").startswith(
        "; did you mean '--enable-prefix-caching'"
    )
    assert catalog.suggest("gpu-memory-utilisation") == "; did you mean '--gpu-memory-utilization'?"
    assert catalog.suggest("zzzzzzzz") == ""


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


def test_check_value_of_an_unknown_flag_is_a_programming_error(catalog: Catalog) -> None:
    with pytest.raises(KeyError, match="--nope"):
        catalog.check_value("nope", 1)


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
                    "unknown option '--max-model'; "
                    "did you mean '--max-model-len', '--model' or '--spec-model'?",
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
        (["--tp", "2"], [(0, "unknown option '--tp'; did you mean '-tp', '--dtype' or '--port'?")]),
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


def test_effective_keeps_the_last_value(catalog: Catalog) -> None:
    tokens = [
        "--async-scheduling",
        "--max-model-len", "262144",
        "--no-async-scheduling",
        "--max_model_len=32768",
        "--disable-log-requests",
        "--api-key", "a", "b",
        "--middleware", "m1", "--middleware", "m2",
        "--compilation-config", '{"mode":1}',
        "-cc.mode", "3",
        "-cc.pass_config.x", "true",
        "-cc.custom_ops+", "all,none",
    ]  # fmt: skip
    assert catalog.effective(tokens) == {
        "async-scheduling": False,
        "max-model-len": "32768",
        "enable-log-requests": False,
        "api-key": ["a", "b"],
        "middleware": ["m1", "m2"],
        "compilation-config": {
            "mode": 3,
            "pass_config": {"x": True},
            "custom_ops": ["all", "none"],
        },
    }


# --- extend -------------------------------------------------------------------------


def test_extend_adds_a_flag_and_a_value_without_changing_the_original(catalog: Catalog) -> None:
    extended = catalog.extend(
        {"my-plugin-mode": {"type": "str", "choices": ["fast", "slow"]}},
        {"quantization": ["my_quant"], "tp": ["ignored"], "not-a-flag": ["x"]},
    )
    assert extended.lookup("my-plugin-mode") is not None
    assert extended.check_value("my-plugin-mode", "fast") == []
    assert extended.check_value("my-plugin-mode", "fats") == [
        "invalid value 'fats' for '--my-plugin-mode'; did you mean 'fast'?"
    ]
    assert extended.check_value("quantization", "my_quant") == []
    assert catalog.check_value("quantization", "my_quant") != []
    assert catalog.lookup("my-plugin-mode") is None
    assert len(extended.names()) == 328
    assert extended.version == catalog.version


def test_extend_declares_negatable_booleans(catalog: Catalog) -> None:
    extended = catalog.extend(
        {"my-switch": {"type": "bool", "negatable": True}, "my-once": {"type": "bool"}}, {}
    )
    assert extended.tokens("my-switch", False) == ["--no-my-switch"]
    assert extended.check_argv(["--no-my-switch", "--my-once"]) == []
    assert extended.check_value("my-once", False) == [
        "'--my-once' has no --no- form in vLLM; remove the flag instead of setting it to false"
    ]


def test_extend_rejects_an_unknown_type(catalog: Catalog) -> None:
    with pytest.raises(ValueError, match="unknown type 'tuple'"):
        catalog.extend({"x": {"type": "tuple"}}, {})


# --- the data files -----------------------------------------------------------------


def test_versions_file_holds_the_history_for_version_checks() -> None:
    data = json.loads((DATA / VERSIONS_FILE).read_text(encoding="utf-8"))
    matrix = data["flag_version_matrix"]
    versions = matrix["versions"]
    assert versions[0] == "0.8.5.post1" and versions[-1] == "0.34.0" and len(versions) == 30
    seen = [versions[i] for i in matrix["present_in"]["--async-scheduling"]]
    assert seen[0] == "0.10.0" and seen[-1] == "0.34.0"
    assert "0.34.0" not in [versions[i] for i in matrix["present_in"]["--swap-space"]]
    assert len(data["removed_flags"]) == 65
    assert "qwen3" in data["parsers"]["reasoning_parsers"]
    assert data["parsers"]["tool_call_parser_history"]["minimax"]["last_seen"] == "0.23.0"
    assert {"--kv-cache-dtype", "--tokenizer-mode"} <= data["value_history"].keys()


def test_data_files_are_compact_and_sorted() -> None:
    for name in (CATALOG_FILE, VERSIONS_FILE):
        text = (DATA / name).read_text(encoding="utf-8")
        data = json.loads(text)
        compact = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert text == compact + "\n", name


def test_build_script_reproduces_the_shipped_files(tmp_path: Path) -> None:
    if not REFERENCE.is_file():
        pytest.skip(f"reference data not found: {REFERENCE} (expected ../shared beside the repo)")
    script = ROOT / "scripts" / "build_vllm_catalog.py"
    subprocess.run(
        [sys.executable, str(script), str(REFERENCE), str(tmp_path)],
        check=True,
        capture_output=True,
    )
    for name in (CATALOG_FILE, VERSIONS_FILE):
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name
