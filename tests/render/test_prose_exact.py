"""``a`` or ``an`` before a setting's value, as the value is read aloud, exactly: in the
phrases a template gets from ``describe`` and from ``article`` itself."""

from __future__ import annotations

import pytest
from conftest import MINIMAL_REGISTRY

from docgen.render.prose import article


def profile(pid: str, max_model_len: int, kv_cache_dtype: str) -> str:
    return (
        f"  {pid}:\n    model: tiny\n    host: box\n    args:\n"
        f"      max-model-len: {max_model_len}\n      kv-cache-dtype: {kv_cache_dtype}\n"
    )


def test_the_settings_sentences_read_each_limit_and_cache_type_with_its_article(make_project, run):
    registry = (
        MINIMAL_REGISTRY
        + profile("vllm.box.eleven-thousand", 11000, "int8_per_token_head")
        + profile("vllm.box.eighteen", 18, "fp8")
        + profile("vllm.box.eighteen-thousand", 18000, "auto")
        + profile("vllm.box.eleven", 11, "bfloat16")
        + profile("vllm.box.hundred-ten-thousand", 110000, "nvfp4")
        + profile("vllm.box.eight-k", 8192, "octave_k3v3")
    )
    template = (
        "{% for p in profiles %}\n"
        "{{ p.id }}:{% for s in settings_sentences(p, product.name) %} {{ s }}{% endfor %}\n\n"
        "{% endfor %}\n"
    )
    project = make_project(registry=registry, templates={"settings.mdx.j2": template})
    result = run(project, "build")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    body = project.read("docs/settings.mdx").split("*/}\n\n", 1)[1]
    retains = "The profile uses"
    assert body.splitlines() == [
        f"vllm.box.tiny: {retains} a `32768`-token context window, "
        "`--gpu-memory-utilization 0.5`, two concurrent sequences, and prefix caching.",
        f"vllm.box.eleven-thousand: {retains} an `11000`-token context window and "
        "an `int8_per_token_head` KV cache.",
        f"vllm.box.eighteen: {retains} an `18`-token context window and an `fp8` KV cache.",
        f"vllm.box.eighteen-thousand: {retains} an `18000`-token context window and "
        "an `auto` KV cache.",
        f"vllm.box.eleven: {retains} an `11`-token context window and a `bfloat16` KV cache.",
        f"vllm.box.hundred-ten-thousand: {retains} a `110000`-token context window and "
        "an `nvfp4` KV cache.",
        f"vllm.box.eight-k: {retains} an `8192`-token context window and "
        "an `octave_k3v3` KV cache.",
    ]


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("", "a"),
        (8192, "an"),
        (800, "an"),
        (11, "an"),
        (18, "an"),
        (11000, "an"),
        (18000, "an"),
        (11000000, "an"),
        (110, "a"),
        (1100, "a"),
        (110000, "a"),
        (180000, "a"),
        (4096, "a"),
        ("auto", "an"),
        ("Int8", "an"),
        ("e4m3", "an"),
        ("octave", "an"),
        ("a", "an"),
        ("fp8", "an"),
        ("FP8", "an"),
        ("x", "an"),
        ("half", "a"),
        ("bfloat16", "a"),
        ("u8", "a"),
    ],
)
def test_article_exact(word: object, expected: str) -> None:
    assert article(word) == expected


def test_async_scheduling_switched_off_is_said_to_be_disabled(make_project, run):
    registry = MINIMAL_REGISTRY.replace(
        "      enable-prefix-caching: true\n",
        "      enable-prefix-caching: true\n      async-scheduling: false\n",
    )
    template = "{% for s in settings_sentences(profiles[0], product.name) %}{{ s }}\n{% endfor %}"
    project = make_project(registry=registry, templates={"settings.mdx.j2": template})
    result = run(project, "build")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    body = project.read("docs/settings.mdx").split("*/}\n\n", 1)[1]
    assert body.splitlines()[0] == "Acme does not enable async scheduling."


def sentences_of(make_project, run, extra_args: str, expect: str = "") -> list[str]:
    """The settings sentences of the minimal profile with ``extra_args`` added."""
    registry = MINIMAL_REGISTRY.replace(
        "      enable-prefix-caching: true\n", "      enable-prefix-caching: true\n" + extra_args
    ).replace("    overrides:\n", expect + "    overrides:\n", 1)
    template = "{% for s in settings_sentences(profiles[0], product.name) %}{{ s }}\n{% endfor %}"
    project = make_project(registry=registry, templates={"settings.mdx.j2": template})
    result = run(project, "build")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    return project.read("docs/settings.mdx").split("*/}\n\n", 1)[1].splitlines()


USES = "The profile uses a `32768`-token context window, `--gpu-memory-utilization 0.5`, two "
USES += "concurrent sequences, prefix caching"


@pytest.mark.parametrize(
    ("extra_args", "ending"),
    [
        ("", "."),
        ("      tool-call-parser: hermes\n      enable-auto-tool-choice: true\n",
         ", and its registered parsers."),
        ("      attention-backend: FLASHINFER\n", ", and its registered acceleration backends."),
        ("      reasoning-parser: qwen3\n      moe-backend: marlin\n",
         ", and its registered parsers and acceleration backends."),
        ("      quantization: fp8\n      load-format: safetensors\n", "."),
    ],
    ids=["nothing", "parsers only", "backends only", "both", "quantization and load format"],
)  # fmt: skip
def test_registered_parsers_and_backends_are_claimed_only_where_set(
    make_project, run, extra_args, ending
):
    lines = sentences_of(make_project, run, extra_args)
    uses = USES.replace(", prefix caching", ", and prefix caching") if ending == "." else USES
    assert lines == [uses + ending]


def test_a_state_is_described_without_a_change_word(make_project, run):
    lines = sentences_of(make_project, run, "")
    assert not any(word in line for line in lines for word in ("retain", "keeps", "still"))


def test_an_expect_absent_feature_is_said_to_be_off(make_project, run):
    lines = sentences_of(make_project, run, "", "    expect:\n      absent: [speculative-config]\n")
    assert lines[0] == (
        "Acme does not enable speculative decoding, including multi-token prediction (MTP)."
    )


def test_a_setting_switched_off_is_not_listed_among_those_the_profile_uses(make_project, run):
    """``enable-prefix-caching: false`` turns the feature off: the sentence that lists what
    the profile uses leaves it out."""
    registry = MINIMAL_REGISTRY.replace(
        "enable-prefix-caching: true", "enable-prefix-caching: false"
    )
    template = "{% for s in settings_sentences(profiles[0], product.name) %}{{ s }}\n{% endfor %}"
    project = make_project(registry=registry, templates={"settings.mdx.j2": template})
    assert run(project, "build").exit_code == 0
    body = project.read("docs/settings.mdx").split("*/}\n\n", 1)[1]
    uses = (
        "The profile uses a `32768`-token context window, `--gpu-memory-utilization 0.5`, "
        "and two concurrent sequences.\n"
    )
    assert uses in body
