"""The typed model: the vLLM catalog a registry gives each image, and derived values."""

from __future__ import annotations

import pytest
from conftest import MINIMAL_REGISTRY
from test_load import broken

from docgen.registry.load import load_bytes
from docgen.registry.model import Registry, dotted
from docgen.registry.vllm_settings import VllmSettings
from docgen.vllm.versions import UnknownRelease

EXTRAS = "vllm:\n  extra_flags:\n    my-flag: {type: int}\n"


def registry(text: str = MINIMAL_REGISTRY) -> Registry:
    return load_bytes(text.encode(), "p.yaml")


def test_the_catalog_of_an_image_is_the_release_it_declares_plus_the_registry_extras():
    text = broken("    platform: linux/amd64", "    platform: linux/amd64\n    vllm: 0.10.0")
    reg = registry(text + EXTRAS)
    assert reg.catalog().version == "0.34.0"
    assert reg.catalog("img").version == "0.10.0"
    assert reg.catalog("unknown-image").version == "0.34.0"
    for catalog in (reg.catalog(), reg.catalog("img")):
        flag = catalog.lookup("my-flag")
        assert flag is not None and flag.type == "int"
    assert reg.catalog("img").lookup("aggregate-engine-logging") is None
    assert reg.catalog().lookup("aggregate-engine-logging") is not None


def test_an_image_without_a_release_and_a_registry_without_extras_use_the_shipped_catalog():
    reg = registry()
    assert reg.catalog("img").version == reg.catalog().version == "0.34.0"
    assert reg.catalog().lookup("my-flag") is None


def test_vllm_settings_name_an_unknown_release():
    with pytest.raises(UnknownRelease):
        VllmSettings().catalog("0.1.0", "img")


@pytest.mark.parametrize(
    ("section", "flags", "values"),
    [
        (None, {}, {}),
        (5, {}, {}),
        ({"extra_flags": 5, "extra_values": {"dtype": ["x"]}}, {}, {"dtype": ["x"]}),
        ({"extra_flags": {"f": {"type": "int"}}}, {"f": {"type": "int"}}, {}),
    ],
    ids=["absent", "not-a-mapping", "flags-malformed", "flags"],
)
def test_vllm_settings_of_a_parsed_section_leave_out_what_has_the_wrong_shape(
    section, flags, values
):
    settings = VllmSettings.of(section)
    assert (dict(settings.extra_flags), dict(settings.extra_values)) == (flags, values)


def test_the_argv_starts_with_the_flags_the_model_implies_unless_args_set_them():
    text = broken("    label: Tiny 1B\n", "    label: Tiny 1B\n    revision: abc1234\n")
    text = text.replace("    label: Tiny 1B\n", "    label: Tiny 1B\n    served_name: tiny\n", 1)
    profile = registry(text).profiles["vllm.box.tiny"]
    assert profile.tokens[:4] == ("--revision", "abc1234", "--served-model-name", "tiny")
    text = broken("      max-num-seqs: 2", "      max-num-seqs: 2\n      served-model-name: other")
    text = text.replace("    label: Tiny 1B\n", "    label: Tiny 1B\n    served_name: tiny\n", 1)
    tokens = registry(text).profiles["vllm.box.tiny"].tokens
    assert tokens[:2] == ("--max-model-len", "32768")
    assert tokens.count("--served-model-name") == 1 and "other" in tokens


def test_an_image_tag_is_the_part_after_the_last_colon_of_its_name():
    reg = registry()
    assert reg.images["img"].tag == "1.0"
    bare = registry(broken("ref: example.org/vllm:1.0", "ref: localhost:5000/vllm"))
    assert bare.images["img"].tag == ""


def test_dotted_key_paths():
    assert dotted(("profiles", "x", "args", "dtype")) == "profiles.x.args.dtype"
    assert dotted(("agents", 1, "id")) == "agents.[1].id"


def test_the_raw_registry_data_is_let_go_once_its_part_digests_are_taken():
    """A registry keeps its parsed YAML only to digest its parts: after that, the data is
    freed (most of a large registry's memory) and the digests stay as they were."""
    from docgen.registry.parts import part_digests
    from docgen.registry.source import load_text

    reg = registry()
    data = load_text(MINIMAL_REGISTRY, "p.yaml").data
    assert reg._document == data
    digests = reg.parts
    assert reg._document is None
    assert reg.parts is digests and dict(digests) == part_digests(data)
    assert ("profiles",) in digests


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["product"].update(name="Other"),
        lambda d: next(iter(d["profiles"].values())).update(default=False),
        lambda d: next(iter(d["hosts"].values())).update(name="Renamed"),
        lambda d: d["models"].update(extra={"hf": "org/extra"}),
        lambda d: d.update(profiles={"first": {}, **d["profiles"]}),
        lambda d: d.update(hosts=None),
        lambda d: d.pop("images"),
        lambda d: d.update(unknown={"a": 1}),
    ],
)
def test_the_whole_registry_digest_changes_with_any_change_of_its_data(edit):
    """A template that reads the registry beyond its sections reads it all (``("*",)``):
    that digest is made of the sections' digests, and still tells any edit apart."""
    import copy

    from docgen.registry.parts import EVERYTHING, part_digests
    from docgen.registry.source import load_text

    data = load_text(MINIMAL_REGISTRY, "p.yaml").data
    edited = copy.deepcopy(data)
    edit(edited)
    assert edited != data
    assert part_digests(edited)[EVERYTHING] != part_digests(data)[EVERYTHING]
    assert part_digests(copy.deepcopy(data))[EVERYTHING] == part_digests(data)[EVERYTHING]


#: Where a profile's embedded entries stand in a registry's data.
EMBEDDED = {
    "model": lambda data, p: data["models"][p["model"]],
    "host": lambda data, p: data["hosts"][p["host"]],
    "image": lambda data, p: data["images"][p.get("image") or data["hosts"][p["host"]]["image"]],
    "launcher": lambda data, p: data["launcher"],
    "vllm": lambda data, p: data["vllm"],
}


@pytest.mark.parametrize("entry", EMBEDDED)
def test_a_profiles_digest_covers_each_entry_it_embeds_and_no_other(entry):
    """A profile's part covers its model, host, image (its own or its host's default),
    the launcher and the vLLM settings: an edit of one reaches every profile that embeds
    it, and no other."""
    import copy
    from pathlib import Path

    from docgen.registry.parts import part_digests
    from docgen.registry.source import load_text

    data = load_text(Path("profiles.yaml").read_text("utf-8"), "profiles.yaml").data
    data.setdefault("vllm", {})
    first, profile = next(iter(data["profiles"].items()))
    edited = copy.deepcopy(data)
    EMBEDDED[entry](edited, edited["profiles"][first])["edited"] = True
    before, after = part_digests(data), part_digests(edited)
    for pid, other in data["profiles"].items():
        embeds = EMBEDDED[entry](data, other) is EMBEDDED[entry](data, profile)
        assert (after[("profiles", pid)] != before[("profiles", pid)]) == embeds, pid


@pytest.mark.parametrize(("key", "other"), [("true", '"true"'), ("null", '"null"')])
def test_a_key_that_differs_only_in_type_changes_its_profiles_digest(key, other):
    """A page shows an evidence result's key by its type (True, true): a key that JSON
    would write alike still tells the two registries apart."""
    from docgen.registry.parts import part_digests
    from docgen.registry.source import load_text

    def digests(written: str) -> dict[tuple[str, ...], str]:
        evidence = f"      - date: 2026-01-01\n        host: h\n        results: {{{written}: 1}}\n"
        text = broken("    args:\n", f"    evidence:\n{evidence}    args:\n")
        return part_digests(load_text(text, "p.yaml").data)

    profile = ("profiles", "vllm.box.tiny")
    assert digests(key)[profile] != digests(other)[profile]
