"""A model's facts per host: support state and selection come from what the model entry
declares for a host, else from its profile there, else supported and automatic; a
declaration that contradicts the profile is a located error; the export carries them."""

from __future__ import annotations

import json

from conftest import MINIMAL_REGISTRY

from docgen.changelog.diff import diff
from docgen.export import export_data
from docgen.registry.load import load_bytes
from docgen.registry.rules import Checker
from docgen.registry.source import load_text

TWO_HOSTS = MINIMAL_REGISTRY.replace(
    "  box: {name: Big Box, arch: amd64}\n",
    "  spark: {name: Spark, arch: arm64}\n  box: {name: Big Box, arch: amd64}\n",
)


def with_hosts(hosts: str, text: str = TWO_HOSTS) -> str:
    return text.replace(
        "    notes: Box default.\n", f"    notes: Box default.\n    hosts: {hosts}\n"
    )


def facts(text: str) -> list[tuple[str, str | None, str | None, str]]:
    registry = load_bytes(text.encode(), "p.yaml")
    return [
        (on.host, on.support, on.selection, on.min_compute_capability)
        for on in registry.registered_hosts(registry.models["tiny"])
    ]


def test_a_host_without_a_profile_defaults_to_supported_and_automatic():
    assert facts(with_hosts("{spark: {}}")) == [
        ("spark", "supported", "automatic", ""),
        ("box", "supported", "automatic", ""),
    ]


def test_a_host_entry_declares_its_own_support_and_selection():
    text = with_hosts("{spark: {support: deferred, selection: explicit-only}}")
    assert facts(text)[0] == ("spark", "deferred", "explicit-only", "")


def test_a_profile_host_takes_the_profiles_state():
    text = TWO_HOSTS.replace(
        "    host: box\n    default: true\n",
        "    host: box\n    support: experimental\n    selection: explicit-only\n",
    )
    text = text[: text.index("    overrides:\n")]  # chosen by its id, it takes none
    assert facts(text) == [("box", "experimental", "explicit-only", "")]


def test_a_host_entry_that_contradicts_the_profile_there_is_a_located_error():
    text = with_hosts("{box: {support: deferred}}", MINIMAL_REGISTRY)
    problems = [str(p) for p in Checker(load_text(text, "p.yaml")).run()]
    assert problems == [
        "p.yaml:32:28: error: model 'tiny' says support 'deferred' on host 'box', but its "
        "profile 'vllm.box.tiny' there is 'supported' (it sets no support, and that is the "
        "default): set it in one place"
    ]


def test_a_host_entry_that_contradicts_what_the_profile_sets_says_so():
    text = with_hosts("{box: {support: deferred}}", MINIMAL_REGISTRY).replace(
        "    host: box\n", "    host: box\n    support: experimental\n", 1
    )
    problems = [str(p) for p in Checker(load_text(text, "p.yaml")).run()]
    assert problems == [
        "p.yaml:32:28: error: model 'tiny' says support 'deferred' on host 'box', but its "
        "profile 'vllm.box.tiny' there says 'experimental': set it in one place"
    ]


def test_a_host_entry_that_agrees_with_the_profile_is_accepted():
    text = with_hosts("{box: {support: supported, selection: automatic}}", MINIMAL_REGISTRY)
    assert Checker(load_text(text, "p.yaml")).run() == []


def test_the_export_lists_each_model_with_its_facts_on_every_host():
    text = with_hosts("{spark: {support: deferred, min_compute_capability: '12.1'}}")
    data = export_data(load_bytes(text.encode(), "p.yaml"))
    assert json.loads(json.dumps(data["models"])) == [
        {
            "id": "tiny",
            "hf": "acme/Tiny-1B",
            "gated": False,
            "hosts": [
                {"host": "spark", "min_compute_capability": "12.1", "support": "deferred",
                 "selection": "automatic"},
                {"host": "box", "min_compute_capability": None, "support": "supported",
                 "selection": "automatic"},
            ],
        }
    ]  # fmt: skip


def test_declaring_a_hosts_support_is_a_model_change_diff_reports():
    old = load_bytes(with_hosts("{spark: {}}").encode(), "p.yaml")
    new = load_bytes(with_hosts("{spark: {support: deferred}}").encode(), "p.yaml")
    changes = [(c.kind, c.subject, c.name, c.old, c.new) for c in diff(old, new)]
    assert changes == [("model-changed", "tiny", "hosts", "spark", "spark (deferred)")]


def test_an_image_built_for_another_arch_than_its_host_is_a_located_error():
    text = MINIMAL_REGISTRY.replace("    platform: linux/amd64\n", "    platform: linux/arm64\n")
    problems = [str(p) for p in Checker(load_text(text, "p.yaml")).run()]
    assert problems == [
        "p.yaml:37:12: error: image 'img' is built for linux/arm64, but host 'box' is amd64"
    ]


def test_a_hosts_default_image_for_another_arch_is_a_located_error():
    text = MINIMAL_REGISTRY.replace(
        "  box: {name: Big Box, arch: amd64}\n", "  box: {name: Big Box, arch: arm64, image: img}\n"
    ).replace("    image: img\n", "")
    problems = [str(p) for p in Checker(load_text(text, "p.yaml")).run()]
    assert problems == [
        "p.yaml:20:44: error: image 'img' is built for linux/amd64, but host 'box' is arm64"
    ]
