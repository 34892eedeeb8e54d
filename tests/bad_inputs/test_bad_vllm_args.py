"""Bad vLLM flags and values in profile args, and broken expectations on them: each gives an
exact located error and changes nothing.
"""

from __future__ import annotations

import pytest
from bad_input_cases import BUILD, Case, arg, check, param, reg
from conftest import MINIMAL_REGISTRY

VLLM_FLAGS = [
    Case(
        "unknown-flag",
        BUILD,
        (
            "profiles.yaml:41:7: error: unknown vLLM flag '--max-num-seq'; did you mean "
            "'--max-num-seqs'?",
        ),
        arg("max-num-seq: 2"),
    ),
    Case(
        "value-read-as-an-option",
        BUILD,
        (
            "profiles.yaml:41:18: error: '--root-path' is given the value '--port', which "
            "vLLM's parser reads as an option, not a value; a value cannot start with '-' "
            "(unless it is a negative number)",
        ),
        arg('root-path: "--port"'),
    ),
    Case(
        "list-item-read-as-an-option",  # a flag expect: absent would not see
        BUILD,
        (
            "profiles.yaml:41:24: error: '--ignore-patterns' is given the value "
            "'--speculative-config', which vLLM's parser reads as an option, not a value; a "
            "value cannot start with '-' (unless it is a negative number)",
        ),
        arg('ignore-patterns: ["*.pt", "--speculative-config", "{}"]'),
    ),
    Case(
        "alias-flag",
        BUILD,
        ("profiles.yaml:41:7: error: write '--tp' by its full name, '--tensor-parallel-size'",),
        arg("tp: 2"),
    ),
    Case(
        "tensor-parallel-zero",
        BUILD,
        ("profiles.yaml:41:29: error: '--tensor-parallel-size' must be a positive integer, got 0",),
        arg("tensor-parallel-size: 0"),
    ),
    Case(
        "flag-with-dashes",
        BUILD,
        (
            "profiles.yaml:41:7: error: write the flag '--max-num-seqs' without its dashes, "
            "as 'max-num-seqs'",
        ),
        arg("--max-num-seqs: 2"),
    ),
    Case(
        "flag-with-dashes-in-when",
        BUILD,
        (
            "profiles.yaml:54:14: error: write the flag '--max-num-seqs' without its dashes, as "
            "'max-num-seqs'",
        ),
        reg("    overrides:", "    overrides:") + "launcher:\n  before_serve:\n    s:\n      "
        "run: [echo]\n      when: {--max-num-seqs: 2}\n",
    ),  # fmt: skip
    Case(
        "flag-with-one-dash",
        BUILD,
        (
            "profiles.yaml:41:7: error: write the flag '-max-num-seqs' without its dashes, as "
            "'max-num-seqs'",
        ),
        arg("-max-num-seqs: 2"),
    ),  # fmt: skip
    Case(
        "integer-flag-text",
        BUILD,
        ("profiles.yaml:41:21: error: '--max-num-seqs' expects an integer, got 'two'",),
        arg("max-num-seqs: two"),
    ),
    Case(
        "choice-outside-list",
        BUILD,
        (
            "profiles.yaml:41:23: error: invalid value 'fp9' for '--kv-cache-dtype'; did you mean "
            "'fp8'?",
        ),
        arg("kv-cache-dtype: fp9"),
    ),
    Case(
        "false-without-no-form",
        BUILD,
        (
            "profiles.yaml:41:26: error: '--disable-log-stats' has no --no- form in vLLM; remove "
            "the flag instead of setting it to false",
        ),
        arg("disable-log-stats: false"),
    ),
    Case(
        "on-off-flag-given-text",
        BUILD,
        (
            "profiles.yaml:42:30: error: '--enable-prefix-caching' is an on/off flag: use true or "
            "false, got 'sure'",
        ),
        reg("enable-prefix-caching: true", "enable-prefix-caching: sure"),
    ),
    Case(
        "broken-json-flag",
        BUILD,
        (
            "profiles.yaml:41:27: error: '--speculative-config' expects JSON: Expecting value: "
            "line 1 column 12 (char 11)",
        ),
        arg("speculative-config: '{\"method\": mtp}'"),
    ),
    Case(
        "json-flag-with-an-infinite-number",  # YAML reads 1e400 as infinite
        BUILD,
        (
            "profiles.yaml:41:35: error: '--override-generation-config' holds a number JSON "
            "cannot write (infinite or NaN)",
        ),
        arg("override-generation-config: {n: 1e400}"),
    ),
    Case(
        "unknown-json-key",
        BUILD,
        (
            "profiles.yaml:41:27: error: unknown key 'cudagraph_mod' in '--compilation-config'; "
            "did you mean 'cudagraph_mode'?",
        ),
        arg("compilation-config: {cudagraph_mod: FULL}"),
    ),
    Case(
        "override-unknown-flag",
        BUILD,
        ("profiles.yaml:47:11: error: unknown vLLM flag '--gpu-mem'",),
        reg("          gpu-memory-utilization: 0.3", "          gpu-mem: 0.3"),
    ),
    Case(
        "extra-values-unknown-flag",
        BUILD,
        (
            "profiles.yaml:52:5: error: extra_values names unknown vLLM flag '--kv-cache-dtyp'; "
            "did you mean '--kv-cache-dtype'?",
        ),
        MINIMAL_REGISTRY + "vllm:\n  extra_values:\n    kv-cache-dtyp: [fp9]\n",
    ),
]

EXPECTATIONS = [
    Case(
        "expect-absent-but-set",
        BUILD,
        (
            "profiles.yaml:41:7: error: profile 'vllm.box.tiny' expects '--max-num-seqs' to be "
            "absent, but its args set it",
        ),
        reg("    overrides:", "    expect:\n      absent: [max-num-seqs]\n    overrides:"),
    ),
    Case(
        "expect-present-differs",
        BUILD,
        (
            "profiles.yaml:41:21: error: profile 'vllm.box.tiny' expects '--max-num-seqs' to be "
            "4, but its args set 2",
        ),
        reg("    overrides:", "    expect:\n      present: {max-num-seqs: 4}\n    overrides:"),
    ),
    Case(
        "expect-present-unset",
        BUILD,
        (
            "profiles.yaml:44:32: error: profile 'vllm.box.tiny' expects '--enforce-eager', but "
            "its args do not set it",
        ),
        reg("    overrides:", "    expect:\n      present: {enforce-eager: true}\n    overrides:"),
    ),
    Case(
        "expect-unknown-flag",
        BUILD,
        (
            "profiles.yaml:44:16: error: unknown vLLM flag '--spec-config'; did you mean "
            "'--speculative-config', '--pooler-config' or '--eplb-config'?",
        ),
        reg("    overrides:", "    expect:\n      absent: [spec-config]\n    overrides:"),
    ),
    Case(
        "expect-absent-with-dashes",
        BUILD,
        (
            "profiles.yaml:44:16: error: write the flag '--speculative-config' without its "
            "dashes, as 'speculative-config'",
        ),
        reg("    overrides:", "    expect:\n      absent: [--speculative-config]\n    overrides:"),
    ),  # fmt: skip
    Case(
        "expect-present-with-dashes",
        BUILD,
        (
            "profiles.yaml:44:17: error: write the flag '--max-num-seqs' without its dashes, as "
            "'max-num-seqs'",
        ),
        reg("    overrides:", "    expect:\n      present: {--max-num-seqs: 2}\n    overrides:"),
    ),  # fmt: skip
    Case(
        "expect-unknown-rule",
        BUILD,
        ("profiles.yaml:44:7: error: unknown key 'missing' in profiles.vllm.box.tiny.expect",),
        reg("    overrides:", "    expect:\n      missing: [max-num-seqs]\n    overrides:"),
    ),
]

CASES = VLLM_FLAGS + EXPECTATIONS


@pytest.mark.parametrize("case", [param(c) for c in CASES])
def test_bad_input_is_a_located_error_and_changes_nothing(make_project, run, monkeypatch, case):
    check(case, make_project, run, monkeypatch)
