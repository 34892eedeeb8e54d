"""Tests of docgen.vllm.versions: an image's declared vLLM release decides what is valid."""

from __future__ import annotations

import json

import pytest
from conftest import MINIMAL_REGISTRY, REPO

from docgen.registry.load import load_bytes
from docgen.vllm import versions
from docgen.vllm.catalog import Catalog
from docgen.vllm.versions import VERSIONS_FILE, UnknownRelease, VersionIndex, release_key

DATA = REPO / "docgen" / "data"
SAMPLED = "among the sampled releases it exists in"


def registry(version: str | None, args: str = "", image: str = "old-image") -> str:
    """MINIMAL_REGISTRY with its image renamed, declaring ``version``, and extra args."""
    text = MINIMAL_REGISTRY.replace("  img:\n", f"  {image}:\n", 1)
    text = text.replace("    image: img\n", f"    image: {image}\n", 1)
    if version is not None:
        text = text.replace(
            "    platform: linux/amd64\n", f"    platform: linux/amd64\n    vllm: {version}\n", 1
        )
    return text.replace(
        "      enable-prefix-caching: true\n", f"      enable-prefix-caching: true\n{args}", 1
    )


def position(text: str, needle: str) -> str:
    """``line:col`` (1-based) of the first ``needle`` in ``text``."""
    before = text[: text.index(needle)]
    return f"{before.count(chr(10)) + 1}:{len(before) - before.rfind(chr(10))}"


def errors(text: str) -> list[str]:
    try:
        load_bytes(text.encode("utf-8"), "profiles.yaml")
    except Exception as exc:  # RegistryError: compare its printed lines
        return str(exc).splitlines()
    return []


# --- the example, through the CLI ---------------------------------------------


def test_async_scheduling_on_vllm_0_9_2_is_a_located_error(make_project, run):
    text = registry("0.9.2", "      async-scheduling: true\n")
    project = make_project(text)
    before = project.snapshot()
    result = run(project, "check")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"profiles.yaml:{position(text, 'async-scheduling')}: error: '--async-scheduling' is "
        f"not in vLLM 0.9.2 (image 'old-image'); {SAMPLED} 0.10.0 through 0.34.0"
    ]
    assert project.snapshot() == before


def test_the_same_profile_passes_on_an_image_that_declares_0_10_0(make_project, run):
    project = make_project(registry("0.10.0", "      async-scheduling: true\n"))
    result = run(project, "validate")
    assert result.exit_code == 0, result.stderr


def test_no_declared_version_checks_against_the_shipped_catalog(make_project, run):
    project = make_project(registry(None, "      async-scheduling: true\n"))
    assert run(project, "validate").exit_code == 0


# --- flags, negations and values of one release ---------------------------------------


def test_parser_names_and_value_lists_follow_the_release() -> None:
    text = registry(
        "0.9.2",
        "      tool-call-parser: qwen3_coder\n"
        "      reasoning-parser: qwen3\n"
        "      kv-cache-dtype: fp8_inc\n",
    )
    assert errors(text) == [
        f"profiles.yaml:{position(text, 'qwen3_coder')}: error: tool-call parser 'qwen3_coder' "
        f"is not in vLLM 0.9.2 (image 'old-image'); {SAMPLED} 0.10.0 through 0.34.0",
        f"profiles.yaml:{position(text, 'fp8_inc')}: error: value 'fp8_inc' of "
        f"'--kv-cache-dtype' is not in vLLM 0.9.2 (image 'old-image'); {SAMPLED} 0.10.0 "
        "through 0.34.0",
    ]


def test_a_release_that_takes_any_value_counts_as_having_it() -> None:
    """--block-size lists its values up to 0.17.1 and takes any number from 0.18.1 on
    (no list): 256 exists there too, so the span runs to the newest release."""
    text = registry("0.9.2", "      block-size: 256\n")
    line = position(text, "block-size: 256").split(":")[0]
    assert errors(text) == [
        f"profiles.yaml:{line}:19: error: value '256' of '--block-size' is not "
        f"in vLLM 0.9.2 (image 'old-image'); {SAMPLED} 0.11.2 through 0.34.0"
    ]


def test_a_value_no_release_has_gets_the_usual_message_with_that_release_s_list() -> None:
    text = registry("0.9.2", "      kv-cache-dtype: bogus\n")
    assert errors(text) == [
        f"profiles.yaml:{position(text, 'bogus')}: error: invalid value 'bogus' for "
        "'--kv-cache-dtype'; expected one of: auto, fp8, fp8_e4m3, fp8_e5m2"
    ]


def test_a_negation_the_release_lacks_is_an_error() -> None:
    text = registry("0.9.2", "      enable-auto-tool-choice: false\n")
    assert errors(text) == [
        f"profiles.yaml:{position(text, 'false')}: error: "
        f"'--no-enable-auto-tool-choice' is not in vLLM 0.9.2 (image 'old-image'); {SAMPLED} "
        "0.10.0 through 0.34.0"
    ]


def test_flags_removed_since_are_valid_on_the_release_that_had_them(make_project, run):
    project = make_project(registry("0.9.2", "      enable-reasoning: true\n      swap-space: 4\n"))
    result = run(project, "serve-command", "vllm.box.tiny")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.rstrip().endswith("--enable-reasoning --swap-space 4")


def test_a_flag_only_older_releases_have_names_them() -> None:
    text = registry("0.20.2", "      swap-space: 4\n")
    assert errors(text) == [
        f"profiles.yaml:{position(text, 'swap-space')}: error: '--swap-space' is not in vLLM "
        f"0.20.2 (image 'old-image'); {SAMPLED} 0.8.5.post1 through 0.17.1"
    ]


def test_overrides_and_expect_use_the_image_s_release() -> None:
    text = registry("0.9.2").replace(
        "          gpu-memory-utilization: 0.3\n",
        "          gpu-memory-utilization: 0.3\n          async-scheduling: true\n",
    )
    assert errors(text) == [
        f"profiles.yaml:{position(text, 'async-scheduling')}: error: '--async-scheduling' is "
        f"not in vLLM 0.9.2 (image 'old-image'); {SAMPLED} 0.10.0 through 0.34.0"
    ]
    absent = registry("0.9.2", "    expect:\n      absent: [async-scheduling]\n")
    absent = absent.replace("      enable-prefix-caching: true\n    expect:", "    expect:")
    assert errors(absent) == []


# --- versions that are not sampled, too old or malformed ------------------------------


def test_a_version_between_samples_is_checked_as_the_one_below_and_says_so() -> None:
    text = registry("0.22.0", "      linear-backend: auto\n")
    assert errors(text) == [
        f"profiles.yaml:{position(text, 'linear-backend')}: error: '--linear-backend' is not in "
        "vLLM 0.22.0 (image 'old-image'; checked as 0.21.0, the nearest sampled release below "
        f"it); {SAMPLED} 0.22.1 through 0.34.0"
    ]


def test_a_four_part_release_number_is_accepted() -> None:
    assert errors(registry("0.10.1.1", "      async-scheduling: true\n")) == []


def test_a_release_older_than_the_data_is_an_error_on_the_image_s_vllm_value() -> None:
    text = registry("0.7.2", "      async-scheduling: true\n")
    assert errors(text) == [
        f"profiles.yaml:{position(text, '0.7.2')}: error: vLLM 0.7.2 is older than 0.8.5.post1, "
        "the oldest release docgen has argument data for"
    ]


def test_a_malformed_version_is_the_schema_s_error_only() -> None:
    text = registry("latest")
    assert errors(text) == [
        f"profiles.yaml:{position(text, 'latest')}: error: images.old-image.vllm 'latest' is "
        "malformed"
    ]


# --- the index itself -----------------------------------------------------------------


def test_release_numbers_sort_as_vllm_releases() -> None:
    order = ["0.8.5", "0.8.5.post1", "0.9.2", "0.10.0", "0.10.1.1", "0.10.2", "0.34.0"]
    keys = [release_key(v) for v in order]
    assert keys == sorted(k for k in keys if k is not None)
    assert release_key("v0.9.2") == release_key("0.9.2")
    assert release_key("latest") is None and release_key("1") is None


def test_release_maps_to_the_nearest_sampled_release_at_or_below() -> None:
    index = VersionIndex.load()
    assert index.release("0.9.2").sampled == "0.9.2"
    assert index.release("0.22.0", "x").label == (
        "vLLM 0.22.0 (image 'x'; checked as 0.21.0, the nearest sampled release below it)"
    )
    assert index.release("0.40.0").sampled == "0.34.0"
    with pytest.raises(UnknownRelease, match="older than 0.8.5.post1"):
        index.release("0.8.5")


def test_describe_joins_runs_of_releases() -> None:
    index = VersionIndex.load()
    assert index.describe(index.positions("--disable-log-requests")) == (
        "0.8.5.post1 through 0.16.0 and 0.33.0 through 0.34.0"
    )
    assert index.describe(index.positions("--expand-tools-even-if-tool-choice-none")) == "0.9.2"


def test_the_catalog_of_0_34_0_is_the_shipped_catalog() -> None:
    shipped = Catalog.load()
    same = shipped.for_version("0.34.0")
    assert same.names() == shipped.names()
    for name in shipped.names():
        assert same.lookup(name) == shipped.lookup(name), name


def test_an_old_release_has_its_own_flags_and_forms() -> None:
    old = Catalog.load().for_version("0.9.2")
    assert old.version == "0.9.2"
    assert old.lookup("async-scheduling") is None
    assert old.lookup("disable-log-requests") is not None  # its own flag then
    assert old.lookup("enable-log-requests") is None
    assert old.tokens("enable-reasoning", False) == ["--no-enable-reasoning"]
    block_size = old.lookup("block-size")
    assert block_size is not None and block_size.choices == ("1", "8", "16", "32", "64", "128")
    assert old.check_value("block-size", 256) != []
    assert Catalog.load().check_value("block-size", 256) == []


def test_extra_flags_apply_on_top_of_a_release() -> None:
    text = registry("0.9.2", "      my-plugin-mode: fast\n") + (
        "vllm:\n  extra_flags:\n    my-plugin-mode: {type: str, choices: [fast, slow]}\n"
    )
    assert errors(text) == []


def test_the_history_is_read_only_when_an_image_declares_a_version() -> None:
    versions._version_index.cache_clear()
    assert errors(registry(None)) == []
    assert versions._version_index.cache_info().currsize == 0
    assert errors(registry("0.34.0")) == []
    assert versions._version_index.cache_info().currsize == 1


# --- the data file ----------------------------------------------------------------


def test_versions_file_holds_the_history_for_version_checks() -> None:
    data = json.loads((DATA / VERSIONS_FILE).read_text(encoding="utf-8"))
    matrix = data["flag_version_matrix"]
    sampled = matrix["versions"]
    assert sampled[0] == "0.8.5.post1" and sampled[-1] == "0.34.0" and len(sampled) == 30
    seen = [sampled[i] for i in matrix["present_in"]["--async-scheduling"]]
    assert seen[0] == "0.10.0" and seen[-1] == "0.34.0"
    assert "0.34.0" not in [sampled[i] for i in matrix["present_in"]["--swap-space"]]
    assert len(data["removed_flags"]) == 65
    assert "qwen3" in data["parsers"]["reasoning_parsers"]
    assert data["parsers"]["tool_call_parser_history"]["minimax"]["last_seen"] == "0.23.0"
    assert {"--kv-cache-dtype", "--tokenizer-mode"} <= data["value_history"].keys()
