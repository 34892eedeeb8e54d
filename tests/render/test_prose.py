"""Registry values in the settings sentences (docgen.render.prose) are escaped for MDX prose.

Each test puts one hostile value into the worked example's registry, builds it, checks
the exact sentence in the page source, then compiles every generated page with MDX 3
and reads the sentence back literally.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from conftest import MINIMAL_REGISTRY, Project
from markupsafe import Markup
from mdxc import mdx_read, require_mdx

from docgen.render.prose import code, count, feature

SETUP = "docs/inference/set-up-vllm.mdx"
STATION = "docs/profiles/vllm.dgx-station-gb300.single.deepseek-v4-flash.mdx"
SPARK = "docs/profiles/vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4.mdx"
STATION_MTP = "speculative-config: {method: mtp, num_speculative_tokens: 3}"
STATION_HOST = "dgx-station: {name: DGX Station, arch: arm64, image: ngc-vllm-26.05-arm64}"


def lines_with(text: str, needle: str) -> list[str]:
    return [line for line in text.splitlines() if needle in line]


def build(project: Project, run) -> dict[str, str]:
    """Build the project (exit 0) and return every generated page, variants included."""
    result = run(project, "build")
    assert result.exit_code == 0, result.output
    return {
        p.relative_to(project.root).as_posix(): p.read_text("utf-8")
        for p in sorted((project.root / "docs").rglob("*.mdx"))
    }


def read_back(pages: dict[str, str]) -> dict[str, str]:
    """Compile every page with MDX 3 (none may fail) and return its literal text."""
    readbacks = mdx_read(pages)
    assert {path: rb.error for path, rb in readbacks.items() if rb.error} == {}
    return {path: rb.text or "" for path, rb in readbacks.items()}


def add_vllm_section(project: Project, section: str) -> None:
    project.write("profiles.yaml", project.read("profiles.yaml") + section)


def test_speculative_method_is_escaped_prose_on_every_page(example, run):
    require_mdx()
    example.edit(
        "profiles.yaml",
        STATION_MTP,
        'speculative-config: {method: "{props.x} <b>", num_speculative_tokens: 3}',
    )
    pages = build(example, run)
    assert lines_with(pages[SETUP], "props.x") == [
        "For the managed single-node DGX Station `deepseek-ai/DeepSeek-V4-Flash` profile, "
        r"NemoClaw enables &#123;props.x} \<b> speculative decoding.",
        r"NemoClaw enables &#123;props.x} \<b> speculative decoding.",
        """  --speculative-config '{"method":"{props.x} <b>","num_speculative_tokens":3}' \\""",
    ]
    assert lines_with(pages[STATION], "speculative decoding.") == [
        r"NemoClaw enables &#123;props.x} \<b> speculative decoding."
    ]
    texts = read_back(pages)
    assert (
        "For the managed single-node DGX Station deepseek-ai/DeepSeek-V4-Flash profile, "
        "NemoClaw enables {props.x} <b> speculative decoding.\n" in texts[SETUP]
    )
    assert "NemoClaw enables {props.x} <b> speculative decoding.\n" in texts[STATION]


def test_a_count_that_is_not_a_number_word_is_escaped_prose(example, run):
    """A flag the registry redeclares as text reaches count() as text, not as a number."""
    require_mdx()
    add_vllm_section(example, "vllm:\n  extra_flags:\n    max-num-seqs: {type: str}\n")
    example.edit("profiles.yaml", "max-num-seqs: 4\n", 'max-num-seqs: "{props.y} <i>"\n')
    pages = build(example, run)
    retains = (
        "The profile uses a `262144`-token context window, `--gpu-memory-utilization 0.4`, "
        r"an `fp8` KV cache, &#123;props.y} \<i> concurrent sequences, an `8192`-token batch "
        "limit, chunked prefill, prefix caching, and its registered parsers and acceleration "
        "backends."
    )
    assert lines_with(pages[SETUP], "props.y") == [
        retains,
        retains,
        "  --max-num-seqs '{props.y} <i>' \\",
    ]
    assert lines_with(pages[SPARK], "concurrent sequences") == [retains]
    text = read_back(pages)[SPARK]
    assert "an fp8 KV cache, {props.y} <i> concurrent sequences, an 8192-token batch" in text


def test_host_name_in_the_lead_sentence_is_escaped_prose(example, run):
    require_mdx()
    example.edit(
        "profiles.yaml", STATION_HOST, 'dgx-station: {name: "DGX {props.h} <u> #", arch: arm64}'
    )
    pages = build(example, run)
    assert lines_with(pages[SETUP], "For the managed single-node DGX {") == []
    assert lines_with(pages[SETUP], "For the managed single-node DGX \\{") == [
        r"For the managed single-node DGX \{props.h} \<u> \# "
        "`deepseek-ai/DeepSeek-V4-Flash` profile, "
        "NemoClaw enables multi-token prediction (MTP) speculative decoding."
    ]
    text = read_back(pages)[SETUP]
    assert (
        "For the managed single-node DGX {props.h} <u> # deepseek-ai/DeepSeek-V4-Flash profile, "
        "NemoClaw enables multi-token prediction (MTP) speculative decoding.\n" in text
    )


def test_backticks_in_a_registry_value_make_one_code_span_that_reads_back(example, run):
    """A value the registry declares (extra_values) lands in a code span in prose."""
    require_mdx()
    add_vllm_section(example, 'vllm:\n  extra_values:\n    kv-cache-dtype: ["`fp8` a``b"]\n')
    example.edit(
        "profiles.yaml",
        "kv-cache-dtype: fp8\n",
        'kv-cache-dtype: "`fp8` a``b"\n',
    )
    pages = build(example, run)
    assert lines_with(pages[SPARK], "a``b") == [
        "The profile uses a `262144`-token context window, `--gpu-memory-utilization 0.4`, "
        "a ``` `fp8` a``b ``` KV cache, four concurrent sequences, an `8192`-token batch limit, "
        "chunked prefill, prefix caching, and its registered parsers and acceleration backends.",
        "  --kv-cache-dtype '`fp8` a``b' \\",
    ]
    text = read_back(pages)[SPARK]
    assert "--gpu-memory-utilization 0.4, a `fp8` a``b KV cache, four concurrent" in text


@pytest.mark.parametrize(
    ("value", "span"),
    [
        ("a`b", "``a`b``"),
        ("`x`", "`` `x` ``"),
        ("``", "``` `` ```"),
        ("`", "`` ` ``"),
        ("a ``` b", "````a ``` b````"),
        (" `a` ", "``  `a`  ``"),
    ],
)
def test_code_spans_of_values_with_backticks(value: str, span: str) -> None:
    assert code(value) == span


def test_code_spans_with_backticks_read_back_literally() -> None:
    values = ["a`b", "`x`", "``", "`", "a ``` b", " `a` ", "{x} `<y>`"]
    docs = {str(i): f"Use {code(value)} here.\n" for i, value in enumerate(values)}
    readbacks = mdx_read(docs)
    assert {i: (rb.error, rb.text) for i, rb in readbacks.items()} == {
        str(i): (None, f"Use {value} here.") for i, value in enumerate(values)
    }


@pytest.mark.parametrize(
    ("number", "phrase"),
    [
        (4, "four concurrent sequences"),
        (1, "one concurrent sequence"),
        ("1", "one concurrent sequence"),
        (16, "16 concurrent sequences"),
        ("{x} <b>", r"&#123;x} \<b> concurrent sequences"),
        ("-2", "-2 concurrent sequences"),
        ("*many*", r"\*many\* concurrent sequences"),
    ],
)
def test_count_exact(number: object, phrase: str) -> None:
    assert count(number, "concurrent sequence") == phrase


@pytest.mark.parametrize(
    ("config", "phrase"),
    [
        (
            {"method": "mtp", "num_speculative_tokens": 3},
            "multi-token prediction (MTP) speculative decoding",
        ),
        ({"method": "deepseek_mtp"}, "multi-token prediction (MTP) speculative decoding"),
        ({"method": "eagle3"}, "eagle3 speculative decoding"),
        ({"method": "{props.x} <b>"}, r"&#123;props.x} \<b> speculative decoding"),
        ({"method": " ngram_gpu "}, "ngram_gpu speculative decoding"),
        ({"method": ""}, "speculative decoding"),
        ({}, "speculative decoding"),
        ('{"method": "mtp"}', "speculative decoding"),
    ],
)
def test_speculative_feature_phrase_exact(config: object, phrase: str) -> None:
    name = feature(SimpleNamespace(name="speculative-config", value=config))
    assert name == phrase
    assert isinstance(name, Markup)  # already MDX: templates must not escape it again


def test_a_feature_turned_off_or_a_plain_setting_is_no_feature() -> None:
    assert feature(SimpleNamespace(name="async-scheduling", value=True)) == "async scheduling"
    assert feature(SimpleNamespace(name="async-scheduling", value=False)) is None
    assert feature(SimpleNamespace(name="max-num-seqs", value=4)) is None
    assert feature(None) is None


def test_a_feature_phrase_in_a_template_is_escaped_exactly_once(make_project, run):
    registry = MINIMAL_REGISTRY.replace(
        "      max-num-seqs: 2\n",
        "      max-num-seqs: 2\n      speculative-config: {method: '{x} <b> a_b'}\n",
    )
    project = make_project(
        registry=registry,
        templates={"spec.mdx.j2": "{{ enabled_features(profiles[0]) | join }}\n"},
    )
    result = run(project, "build")
    assert result.exit_code == 0, result.output
    assert project.read("docs/spec.mdx").splitlines()[-1] == (
        r"&#123;x} \<b> a_b speculative decoding"
    )


def test_lists_mixing_markup_and_text_escape_the_text_once(make_project, run):
    template = (
        '{{ [code("a<b"), "c<d", "e<f"] | sentence_list }}\n'
        '{{ [code("a<b"), "c<d"] | join(" / ") }}\n'
        '{{ ["c<d", "e<f"] | join(", ") }}\n'
    )
    project = make_project(templates={"lists.mdx.j2": template})
    result = run(project, "build")
    assert result.exit_code == 0, result.output
    assert project.read("docs/lists.mdx").splitlines()[-3:] == [
        r"`a<b`, c&#60;d, and e&#60;f",
        r"`a<b` / c&#60;d",
        r"c&#60;d, e\<f",  # one text: only its first word's escape is a reference
    ]


def test_the_launchers_shared_args_are_described_as_the_profiles_own():
    """The command holds the shared args: the sentences that restate it name them too."""
    from docgen.registry.load import load_bytes
    from docgen.render.prose import describe, enabled_features

    launcher = "launcher:\n  shared_args:\n    async-scheduling: true\n    max-num-seqs: 8\n"
    text = MINIMAL_REGISTRY.replace("      max-num-seqs: 2\n", "") + launcher
    profile = load_bytes(text.encode(), "p.yaml").profiles["vllm.box.tiny"]
    described = describe(profile)
    assert described.enables == ("async scheduling",)
    assert "eight concurrent sequences" in described.uses
    assert enabled_features(profile) == ["async scheduling"]


def test_described_phrases_print_as_written_in_a_template(make_project, run):
    """``describe``'s phrases are MDX already: printed or joined, their code spans stay
    code (they were escaped a second time, as ``\\`4096\\``)."""
    registry = MINIMAL_REGISTRY.replace(
        "      max-num-seqs: 2\n",
        "      max-num-seqs: 2\n      kv-cache-dtype: fp8\n      async-scheduling: false\n",
    )
    template = (
        "{% set d = describe(profiles[0]) %}"
        '{{ d.uses | join(", ") }}\n{{ d.uses[0] }}\n{{ d.disables | join }}\n'
    )
    project = make_project(registry=registry, templates={"d.mdx.j2": template})
    result = run(project, "build")
    assert result.exit_code == 0, result.output
    assert project.read("docs/d.mdx").splitlines()[-3:] == [
        "a `32768`-token context window, `--gpu-memory-utilization 0.5`, two concurrent "
        "sequences, an `fp8` KV cache, prefix caching",
        "a `32768`-token context window",
        "async scheduling",
    ]
