"""The model table lists every host a model is registered for (its profiles' and the ones
its ``hosts`` names, without a duplicate profile per host), its minimum compute capability
per host where they differ, and "None" where the registry declares nothing."""

from __future__ import annotations

from conftest import MINIMAL_REGISTRY, REPO

from docgen.registry.load import load_bytes
from docgen.registry.rules import Checker
from docgen.registry.source import load_text
from docgen.render.environment import Renderer

REAL_PAGE = REPO / "tests/fixtures/nemoclaw-docs/docs/inference/set-up-vllm.mdx"


def table_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("| `")]


def test_every_row_of_the_worked_examples_table_is_the_real_pages_row(example, run):
    assert run(example, "build").exit_code == 0
    generated = [
        row
        for row in table_rows(example.read("docs/inference/set-up-vllm.mdx"))
        if row.count("|") == 6  # the model table's rows: five cells
    ]
    assert len(generated) == 5
    real = table_rows(REAL_PAGE.read_text("utf-8"))
    for row in generated:
        assert row in real, row


def render_table(text: str) -> list[str]:
    registry = load_bytes(text.encode(), "p.yaml")
    return table_rows(str(Renderer(registry, []).models_table()))


TWO_HOSTS = MINIMAL_REGISTRY.replace(
    "  box: {name: Big Box, arch: amd64}\n",
    "  spark: {name: Spark, arch: arm64}\n  box: {name: Big Box, arch: amd64}\n",
)


def test_a_model_registered_for_another_host_lists_it_in_host_order_without_a_profile():
    text = TWO_HOSTS.replace(
        "    notes: Box default.\n", "    notes: Box default.\n    hosts: {spark: {}}\n"
    )
    assert render_table(text) == [
        "| `tiny` | `acme/Tiny-1B` | Spark, Big Box | None | Box default. |"
    ]
    assert len(load_bytes(text.encode(), "p.yaml").profiles) == 1


def test_capabilities_that_differ_per_host_are_listed_lowest_first():
    text = TWO_HOSTS.replace(
        "    notes: Box default.\n",
        "    notes: Box default.\n    min_compute_capability: '12.1'\n"
        "    hosts: {spark: {}, box: {min_compute_capability: '9.0'}}\n",
    )
    assert render_table(text) == [
        "| `tiny` | `acme/Tiny-1B` | Spark, Big Box | `9.0` on Big Box; `12.1` on Spark "
        "| Box default. |"
    ]


def test_no_minimum_on_one_host_says_none_there():
    text = TWO_HOSTS.replace(
        "    notes: Box default.\n",
        "    min_compute_capability: '8.9'\n    hosts: {spark: {min_compute_capability: null}}\n",
    )
    assert render_table(text) == [
        "| `tiny` | `acme/Tiny-1B` | Spark, Big Box | None on Spark; `8.9` on Big Box | None |"
    ]


def test_an_unknown_host_is_a_located_error():
    text = MINIMAL_REGISTRY.replace(
        "    notes: Box default.\n", "    notes: Box default.\n    hosts: {bx: {}}\n"
    )
    problems = [str(p) for p in Checker(load_text(text, "p.yaml")).run()]
    assert problems == [
        "p.yaml:32:13: error: model 'tiny' is registered for unknown host 'bx'; did you mean 'box'?"
    ]


def render_profiles(text: str) -> list[str]:
    registry = load_bytes(text.encode(), "p.yaml")
    return table_rows(str(Renderer(registry, []).env.globals["profiles_table"]()))


def test_the_profile_list_has_the_fields_a_profiles_list_shows():
    text = MINIMAL_REGISTRY.replace(
        "    notes: Box default.\n", "    notes: Box default.\n    download_bytes: 2000000000\n"
    )
    assert render_profiles(text) == [
        "| `vllm.box.tiny` | Tiny 1B on one Big Box | vLLM | `acme/Tiny-1B` | single-node "
        "| automatic | supported | `3.23 GB` |"
    ]


def test_a_multi_node_profile_without_sizes_says_none():
    text = MINIMAL_REGISTRY.replace(
        "    host: box\n    default: true\n", "    host: box\n    topology: multi-node\n"
    )
    assert render_profiles(text) == [
        "| `vllm.box.tiny` | Tiny 1B on Big Box nodes | vLLM | `acme/Tiny-1B` | multi-node "
        "| automatic | supported | None |"
    ]
