"""Building the typed model: every object frozen, typed, and tied to its registry node."""

from __future__ import annotations

import pytest
from conftest import MINIMAL_REGISTRY, REPO
from test_load import broken

from docgen.registry.load import load, load_bytes
from docgen.registry.vllm_settings import VllmSettings

EXTRAS = "vllm:\n  extra_flags:\n    my-list: {type: list}\n  extra_values:\n    dtype: [fp9]\n"


def test_worked_example_loads_into_typed_objects():
    reg = load(REPO / "profiles.yaml")
    spark = reg.profiles["vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4"]
    assert spark.model.hf == "nvidia/Qwen3.6-35B-A3B-NVFP4"
    assert spark.host.name == "DGX Spark"
    assert spark.image is not None and spark.image.tag == "26.05.post1-py3"
    util = spark.arg("gpu-memory-utilization")
    assert util is not None and util.tokens == ("--gpu-memory-utilization", "0.4")
    assert str(util.source.location) == "profiles.yaml:101:7"
    assert spark.expect_absent == ("speculative-config",)
    assert reg.host_default("dgx-station").model.id == "deepseek-v4-flash"
    assert reg.default_agent.id == "openclaw"
    with pytest.raises(AttributeError):
        spark.id = "other"  # type: ignore[misc]


def test_each_object_keeps_the_location_and_text_of_its_node():
    reg = load_bytes(MINIMAL_REGISTRY.encode(), "p.yaml")
    profile = reg.profiles["vllm.box.tiny"]
    assert str(profile.source) == "p.yaml:33:3 profiles.vllm.box.tiny"
    assert (str(reg.hosts["box"].source), reg.hosts["box"].source.text) == (
        "p.yaml:20:3 hosts.box",
        "Big Box",
    )
    assert str(reg.agents[1].source) == "p.yaml:16:5 agents.[1]"
    assert str(reg.images["img"].source) == "p.yaml:22:3 images.img"
    assert str(profile.overrides[0].source) == "p.yaml:44:7 profiles.vllm.box.tiny.overrides.small"
    first = profile.args[0]
    assert (str(first.source), first.source.text) == (
        "p.yaml:39:7 profiles.vllm.box.tiny.args.max-model-len",
        "--max-model-len 32768",
    )


def test_defaults_fill_what_the_registry_leaves_out():
    reg = load_bytes(MINIMAL_REGISTRY.encode(), "p.yaml")
    profile = reg.profiles["vllm.box.tiny"]
    assert (profile.support, profile.selection, profile.summary) == ("supported", "automatic", "")
    assert reg.product.onboard == "onboard --non-interactive"
    assert dict(reg.product.provider_env) == {}
    assert reg.vllm == VllmSettings()


def test_evidence_results_are_kept_as_the_registry_writes_them():
    text = broken(
        "    overrides:",
        "    evidence:\n      - {date: 2026-01-02, host: Box, results: {ok: true, tps: 12.5}}\n"
        "    overrides:",
    )
    evidence = load_bytes(text.encode(), "p.yaml").profiles["vllm.box.tiny"].evidence[0]
    assert (evidence.date, evidence.host, evidence.setup) == ("2026-01-02", "Box", "")
    assert evidence.results == (("ok", "true"), ("tps", "12.5"))
    assert str(evidence.source) == "p.yaml:44:9 profiles.vllm.box.tiny.evidence.[0]"


def test_args_take_the_tokens_of_flags_the_registry_declares():
    text = broken("      max-num-seqs: 2", "      max-num-seqs: 2\n      my-list: [a, b c]")
    reg = load_bytes((text + EXTRAS).encode(), "p.yaml")
    arg = reg.profiles["vllm.box.tiny"].arg("my-list")
    assert arg is not None and arg.tokens == ("--my-list", "a", "b c")
    assert dict(reg.vllm.extra_flags) == {"my-list": {"type": "list"}}
    assert dict(reg.vllm.extra_values) == {"dtype": ["fp9"]}


def test_the_registry_holds_no_raw_yaml():
    reg = load_bytes((MINIMAL_REGISTRY + EXTRAS).encode(), "p.yaml")
    assert not hasattr(reg, "data")
    with pytest.raises(TypeError):
        reg.vllm.extra_flags["other"] = {}  # type: ignore[index]


def test_equal_values_of_another_type_or_sign_keep_their_own_argv_words():
    """Profiles share most of their arguments, so their words are worked out once per
    value; yet 1, 1.0 and True are equal in Python, and so are 0.0 and -0.0."""
    import shlex

    from docgen.registry.builder import Builder
    from docgen.registry.source import load_text

    builder = Builder(load_text(MINIMAL_REGISTRY, "p.yaml"))
    for value, words in [
        (1, ("--max-model-len", "1")),
        (1.0, ("--max-model-len", "1.0")),
        (True, ("--max-model-len",)),
        (0.0, ("--max-model-len", "0.0")),
        (-0.0, ("--max-model-len", "-0.0")),
        (1, ("--max-model-len", "1")),
        ([1, 2], ("--max-model-len", "[1, 2]")),
    ]:
        (arg,) = builder.args(("profiles", "p"), {"max-model-len": value})
        assert arg.tokens == words
        assert arg.source.text == shlex.join(words)


def test_an_evidence_result_of_a_bare_number_or_boolean_is_no_text_to_blame():
    """A result that is only ``false``, ``true`` or a number says nothing of whose it is
    (any table cell may show it): worded results alone are nodes blame can name."""
    registry = MINIMAL_REGISTRY.replace(
        "    host: box\n",
        "    host: box\n    evidence:\n      - date: 2026-01-02\n        host: Big Box\n"
        "        results: {oom: false, passed: true, runs: 20, peak: 22.75 GiB, ok: 20/20}\n",
        1,
    )
    profile = load_bytes(registry.encode(), "p.yaml").profiles["vllm.box.tiny"]
    shown = {s.keypath[-1]: s.text for s in profile.texts if "results" in s.keypath}
    assert shown == {"peak": "22.75 GiB", "ok": "20/20"}
