"""Registry loading and validation: every rule gives one exact, located message."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import MINIMAL_REGISTRY

from docgen.errors import RegistryError
from docgen.registry.load import load, load_bytes


def broken(old: str, new: str) -> str:
    assert old in MINIMAL_REGISTRY, old
    return MINIMAL_REGISTRY.replace(old, new, 1)


# (case id, registry text, the exact first error line on stderr)
BROKEN = [
    (
        "duplicate-key",
        broken(
            "  box: {name: Big Box, arch: amd64}\n",
            "  box: {name: Big Box, arch: amd64}\n  box: {name: Other}\n",
        ),
        "profiles.yaml:21:3: error: duplicate key 'box' (first defined on line 20)",
    ),
    (
        "tab-indent",
        broken("  name: Acme\n", "\tname: Acme\n"),
        "profiles.yaml:3:1: error: tab characters are not allowed for indentation; use spaces",
    ),
    ("empty-file", "", "profiles.yaml:1:1: error: the file is empty; expected a mapping"),
    (
        "comment-only",
        "# nothing here\n",
        "profiles.yaml:1:1: error: the file is empty; expected a mapping",
    ),
    (
        "not-a-mapping",
        "- one\n- two\n",
        "profiles.yaml:1:1: error: the registry must be a mapping of sections",
    ),
    (
        "syntax",
        broken("hosts:\n", "hosts: [\n"),
        "profiles.yaml:21:1: error: expected ',' or ']', but got '<scalar>'",
    ),
    (
        "unknown-top-key",
        MINIMAL_REGISTRY + "extras: 1\n",
        "profiles.yaml:50:1: error: unknown key 'extras' at the top level",
    ),
    (
        "unknown-profile-key",
        broken("    default: true\n    image", "    defualt: true\n    image"),
        "profiles.yaml:36:5: error: unknown key 'defualt' in profiles.vllm.box.tiny; "
        "did you mean 'default'?",
    ),
    (
        "missing-required",
        broken("    host: box\n", ""),
        "profiles.yaml:33:3: error: missing required key 'host' in profiles.vllm.box.tiny",
    ),
    (
        "wrong-schema-version",
        broken("schema: 1", "schema: 2"),
        "profiles.yaml:1:9: error: schema must be 1, got 2",
    ),
    (
        "bad-enum",
        broken("    default: true\n    image", "    support: beta\n    image"),
        "profiles.yaml:36:14: error: profiles.vllm.box.tiny.support is 'beta'; expected one of: "
        "supported, experimental, deferred, disabled",
    ),
    (
        "bad-type",
        broken("    default: true\n    image", "    default: yes\n    image"),
        "profiles.yaml:36:14: error: profiles.vllm.box.tiny.default must be true or false, "
        "got 'yes'",
    ),
    (
        "bad-id",
        broken("  vllm.box.tiny:", "  Vllm Box:"),
        "profiles.yaml:33:3: error: invalid id 'Vllm Box' in profiles: ids use lowercase letters, "
        "digits, '.', '_' and '-', start with a letter or digit, and contain no '..'",
    ),
    (
        "dotdot-id",
        broken("  vllm.box.tiny:", "  vllm..tiny:"),
        "profiles.yaml:33:3: error: invalid id 'vllm..tiny' in profiles: ids use lowercase "
        "letters, digits, '.', '_' and '-', start with a letter or digit, and contain no '..'",
    ),
    (
        "unknown-model",
        broken("    model: tiny", "    model: tiyn"),
        "profiles.yaml:34:12: error: profile 'vllm.box.tiny' names unknown model 'tiyn'; "
        "did you mean 'tiny'?",
    ),
    (
        "unknown-host",
        broken("    host: box", "    host: bx"),
        "profiles.yaml:35:11: error: profile 'vllm.box.tiny' names unknown host 'bx'; "
        "did you mean 'box'?",
    ),
    (
        "unknown-image",
        broken("    image: img", "    image: image"),
        "profiles.yaml:37:12: error: profile 'vllm.box.tiny' names unknown image 'image'; "
        "did you mean 'img'?",
    ),
    (
        "two-defaults",
        MINIMAL_REGISTRY + "  vllm.box.other:\n    model: tiny\n    host: box\n"
        "    default: true\n    args: {max-model-len: 1024}\n",
        "profiles.yaml:53:14: error: host 'box' already has a default profile, 'vllm.box.tiny' "
        "(line 33)",
    ),
    (
        "unknown-flag",
        broken("      max-num-seqs: 2", "      max-num-seq: 2"),
        "profiles.yaml:41:7: error: unknown vLLM flag '--max-num-seq'; did you mean "
        "'--max-num-seqs', '--max-num-active-seqs' or '--max-num-queued-reqs'?",
    ),
    (
        "flag-type",
        broken("      max-num-seqs: 2", "      max-num-seqs: two"),
        "profiles.yaml:41:21: error: '--max-num-seqs' expects an integer, got 'two'",
    ),
    (
        "utilization-range",
        broken("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 1.5"),
        "profiles.yaml:40:31: error: '--gpu-memory-utilization' must be > 0 and <= 1, got 1.5",
    ),
    (
        "zero-seqs",
        broken("      max-num-seqs: 2", "      max-num-seqs: 0"),
        "profiles.yaml:41:21: error: '--max-num-seqs' must be a positive integer, got 0",
    ),
    (
        "bad-choice",
        broken("      max-num-seqs: 2", "      kv-cache-dtype: fp9"),
        "profiles.yaml:41:23: error: invalid value 'fp9' for '--kv-cache-dtype'; "
        "did you mean 'fp8'?",
    ),
    (
        "false-without-negation",
        broken("      max-num-seqs: 2", "      disable-log-stats: false"),
        "profiles.yaml:41:26: error: '--disable-log-stats' has no --no- form in vLLM; remove the "
        "flag instead of setting it to false",
    ),
    (
        "broken-json",
        broken("      max-num-seqs: 2", "      speculative-config: '{\"method\": mtp}'"),
        "profiles.yaml:41:27: error: '--speculative-config' expects JSON: Expecting value: "
        "line 1 column 12 (char 11)",
    ),
    (
        "override-flag",
        broken("          gpu-memory-utilization: 0.3", "          gpu-mem: 0.3"),
        "profiles.yaml:47:11: error: unknown vLLM flag '--gpu-mem'",
    ),
    (
        "expect-absent",
        broken("    overrides:", "    expect:\n      absent: [max-num-seqs]\n    overrides:"),
        "profiles.yaml:41:7: error: profile 'vllm.box.tiny' expects '--max-num-seqs' to be absent, "
        "but its args set it",
    ),
    (
        "expect-present",
        broken("    overrides:", "    expect:\n      present: {max-num-seqs: 4}\n    overrides:"),
        "profiles.yaml:41:21: error: profile 'vllm.box.tiny' expects '--max-num-seqs' to be 4, "
        "but its args set 2",
    ),
    (
        "expect-unknown-flag",
        broken("    overrides:", "    expect:\n      absent: [spec-config]\n    overrides:"),
        "profiles.yaml:44:16: error: unknown vLLM flag '--spec-config'; did you mean "
        "'--speculative-config', '--pooler-config' or '--eplb-config'?",
    ),
    (
        "bad-evidence-date",
        broken(
            "    overrides:", "    evidence:\n      - {date: 2026-13-45, host: Box}\n    overrides:"
        ),
        "profiles.yaml:44:16: error: invalid date '2026-13-45'; expected a real date as YYYY-MM-DD",
    ),
    (
        "bad-digest",
        broken("sha256:aaaa", "sha1:aaaa"),
        "profiles.yaml:24:13: error: images.img.digest 'sha1:" + "a" * 64 + "' is malformed",
    ),
    (
        "no-agents",
        broken("agents:\n  - id: alpha", "agents: []\nunused:\n  - id: alpha"),
        "profiles.yaml:11:9: error: agents must not be empty",
    ),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in BROKEN], ids=[c[0] for c in BROKEN])
def test_broken_registry_is_a_located_error(make_project, run, text, expected):
    project = make_project(registry=text)
    before = project.snapshot()
    for command in ("validate", "build", "check"):
        result = run(project, command)
        assert result.exit_code == 2, (command, result.output)
        assert result.stderr.splitlines()[0] == expected
        assert "Traceback" not in result.output
        assert project.snapshot() == before


def test_all_problems_are_reported_in_one_run(make_project, run):
    text = broken("      max-num-seqs: 2", "      max-num-seqs: two\n      bogus-flag: 1")
    text = text.replace("    host: box", "    host: bx")
    result = run(make_project(registry=text), "validate")
    lines = result.stderr.splitlines()
    assert result.exit_code == 2
    assert lines == [
        "profiles.yaml:35:11: error: profile 'vllm.box.tiny' names unknown host 'bx'; "
        "did you mean 'box'?",
        "profiles.yaml:41:21: error: '--max-num-seqs' expects an integer, got 'two'",
        "profiles.yaml:42:7: error: unknown vLLM flag '--bogus-flag'",
    ]


def test_invalid_utf8_names_line_and_column():
    raw = MINIMAL_REGISTRY.encode().replace(b"Big Box", b"Big \xff Box")
    with pytest.raises(RegistryError) as info:
        load_bytes(raw, "profiles.yaml")
    assert str(info.value) == "profiles.yaml:20:19: error: invalid UTF-8 byte 0xff"


def test_alias_bomb_is_stopped_quickly_in_bounded_memory():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for n in range(1, 9):
        lines.append(f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 10) + "]")
    with pytest.raises(RegistryError) as info:
        load_bytes(("\n".join(lines) + "\n").encode(), "bomb.yaml")
    assert "YAML aliases expand to more than" in str(info.value)
    assert str(info.value).startswith("bomb.yaml:")


def test_recursive_alias_does_not_hang():
    text = MINIMAL_REGISTRY.replace(
        "hosts:\n  box: {name: Big Box, arch: amd64}", "hosts: &h\n  box: *h"
    )
    with pytest.raises(RegistryError) as info:
        load_bytes(text.encode(), "loop.yaml")
    assert str(info.value).splitlines()[0] == (
        "loop.yaml:19:8: error: hosts.box must be a mapping, got null"
    )


def test_missing_registry_file(tmp_path: Path):
    with pytest.raises(RegistryError) as info:
        load(tmp_path / "profiles.yaml")
    assert str(info.value) == "profiles.yaml: error: registry file not found"


def test_worked_example_loads_into_typed_objects():
    reg = load(Path(__file__).parent.parent / "profiles.yaml")
    spark = reg.profiles["vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4"]
    assert spark.model.hf == "nvidia/Qwen3.6-35B-A3B-NVFP4"
    assert spark.host.name == "DGX Spark"
    assert spark.image is not None and spark.image.tag == "26.05.post1-py3"
    util = spark.arg("gpu-memory-utilization")
    assert util is not None and util.tokens == ("--gpu-memory-utilization", "0.4")
    assert str(util.source.location) == "profiles.yaml:98:7"
    assert spark.expect_absent == ("speculative-config",)
    assert reg.host_default("dgx-station").model.id == "deepseek-v4-flash"
    assert reg.default_agent.id == "openclaw"
    with pytest.raises(AttributeError):
        spark.id = "other"  # type: ignore[misc]


def test_extra_flags_and_values_declared_by_the_registry(make_project, run):
    text = MINIMAL_REGISTRY + (
        "vllm:\n  extra_flags:\n    my-flag: {type: int}\n"
        "  extra_values:\n    kv-cache-dtype: [fp9]\n"
    )
    text = text.replace(
        "      max-num-seqs: 2",
        "      max-num-seqs: 2\n      my-flag: 3\n      kv-cache-dtype: fp9",
    )
    result = run(make_project(registry=text), "validate")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the mapping starts at line 2; the first 'b' is on line 4
        (
            "a:\n  x: 1\n  y: 2\n  b: 1\n  c: 2\n  b: 3\n",
            "d.yaml:6:3: error: duplicate key 'b' (first defined on line 4)",
        ),
        (
            "a:\n  - {b: 1, c: 2, b: 3}\n",
            "d.yaml:2:18: error: duplicate key 'b' (first defined on line 2)",
        ),
        # an equal key in a nested mapping is not the first definition
        (
            "a: 1\nq:\n  a: 1\na: 2\n",
            "d.yaml:4:1: error: duplicate key 'a' (first defined on line 1)",
        ),
    ],
)
def test_duplicate_key_names_the_line_of_its_first_definition(tmp_path: Path, text, expected):
    (tmp_path / "d.yaml").write_text(text, "utf-8")
    with pytest.raises(RegistryError) as caught:
        load(tmp_path / "d.yaml", "d.yaml")
    assert str(caught.value.problems[0]) == expected


def with_expect(present: str, args: str = "") -> str:
    """The minimal registry with extra ``args`` and an ``expect: present:`` mapping."""
    extra = "      enable-prefix-caching: true\n" + args
    text = broken("      enable-prefix-caching: true\n", extra)
    return text.replace(
        "    overrides:", f"    expect:\n      present: {present}\n    overrides:", 1
    )


TP = "      tensor-parallel-size: 2\n"
SPEC = "      speculative-config: {method: ngram, num_speculative_tokens: 3}\n"


@pytest.mark.parametrize(
    ("present", "args"),
    [
        ('{tensor-parallel-size: "2"}', TP),
        ("{tensor-parallel-size: 2}", '      tensor-parallel-size: "2"\n'),
        ('{gpu-memory-utilization: "0.5"}', ""),
        ("{served-model-name: tiny}", "      served-model-name: [tiny]\n"),
        ("""{speculative-config: '{"method":"ngram","num_speculative_tokens":3}'}""", SPEC),
        ("{enable-prefix-caching: true, max-model-len: '32768'}", ""),
    ],
    ids=["string-for-int", "int-for-string", "string-for-float", "scalar-for-list", "json", "two"],
)
def test_expect_present_compares_the_argv_values_produce(make_project, run, present, args):
    result = run(make_project(registry=with_expect(present, args)), "validate")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "profiles.yaml: ok (1 profiles, 1 models, 1 hosts, 2 agents)\n"


def test_expect_present_refuses_a_different_argv(make_project, run):
    project = make_project(registry=with_expect('{tensor-parallel-size: "4"}', TP))
    before = project.snapshot()
    message = (
        "profiles.yaml:43:29: error: profile 'vllm.box.tiny' expects "
        "'--tensor-parallel-size' to be 4, but its args set 2"
    )
    for command in ("validate", "build"):
        result = run(project, command)
        assert (result.exit_code, result.stderr.splitlines()) == (2, [message]), command
    assert project.snapshot() == before
