"""Whatever a page shows, a change to it is a change ``diff`` reports.

Each field of the worked example's registry (one leaf per schema field: every profile's
``args.*`` is one field) is changed to another valid value; when the outputs ``build``
would write change, ``diff`` must report at least one change, and one the changelog words
unless the table of kinds it leaves out (``diff.LEFT_OUT``) names all of them.
Fields the worked example leaves unset are added (``ADDITIONS``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import REPO

from docgen.changelog.diff import diff
from docgen.config import load_project
from docgen.errors import ConfigError, RegistryError
from docgen.plan import plan
from docgen.registry.load import load_bytes
from docgen.registry.source import load_text

#: Mapping levels whose keys are names the registry chooses (ids, flags, variables).
NAMED = {"hosts", "images", "models", "profiles", "args", "env", "overrides", "shared_args",
         "before_serve", "present", "results", "provider_env", "when"}  # fmt: skip


def leaves(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """(key path, value) of every scalar and every list of scalars."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from leaves(value, (*path, key))
    elif isinstance(node, list) and any(isinstance(i, (dict, list)) for i in node):
        for index, value in enumerate(node):
            yield from leaves(value, (*path, index))
    else:
        yield path, node


def field(path: tuple[Any, ...]) -> str:
    """The schema field of a key path: chosen names and list indexes become ``*``."""
    parts = []
    for at, key in enumerate(path):
        named = at > 0 and path[at - 1] in NAMED
        parts.append("*" if named or isinstance(key, int) else str(key))
    return ".".join(parts)


def changed(value: Any) -> list[Any]:
    """Other values of the same type to try, the most likely valid first."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value * 2]
    if isinstance(value, float):
        return [round(value / 2, 3)]
    if isinstance(value, str):
        digits = re.sub(r"\d", lambda m: str((int(m[0]) + 1) % 10), value)
        return [alt for alt in (digits, value + "x", value.upper()) if alt != value]
    if isinstance(value, list):
        return [value[:-1], [*value, value[-1]]] if value else []
    if isinstance(value, dict):
        return [{**value, "x": 1}]
    return []


def with_value(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    copy = json.loads(json.dumps(data, default=str))
    node = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copy


def outputs(project: Any, registry: Any) -> dict[str, str]:
    return {o.path: o.text for o in plan(project, registry).outputs}


SPARK = "vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4"
#: Fields the worked example leaves unset, added with a valid value.
ADDITIONS = [
    ("profiles.*.env.*", ("profiles", SPARK, "env"), [{"VLLM_LOGGING_LEVEL": "DEBUG"}]),
    ("profiles.*.summary", ("profiles", SPARK, "summary"), ["The DGX Spark default."]),
    ("profiles.*.launcher.omit_args", ("profiles", SPARK, "launcher"), [{"omit_args": ["port"]}]),
    (
        "profiles.*.launcher.omit_steps",
        ("profiles", SPARK, "launcher"),
        [{"omit_steps": ["install-fastsafetensors"]}],
    ),
    (
        "profiles.*.host (of a profile that is no host's default)",
        ("profiles", "vllm.linux-amd64-nvidia.single.qwen3-6-27b-fp8", "host"),
        ["dgx-spark"],
    ),
    (
        "profiles.*.selection (of a profile that is no host's default)",
        ("profiles", "vllm.linux-amd64-nvidia.single.qwen3-6-27b-fp8", "selection"),
        ["automatic"],
    ),
    ("models.*.served_name", ("models", "qwen3.6-27b", "served_name"), ["qwen-27b"]),
    ("models.*.revision", ("models", "qwen3.6-27b", "revision"), ["e89b16e"]),
    ("hosts.*.notes", ("hosts", "n1x", "notes"), ["Deferred preview."]),
    (
        "images.*.platform (of an image no profile runs)",
        ("images", "vllm-openai-0.22.0", "platform"),
        ["linux/amd64"],
    ),
    (
        "models.*.hosts.*.support",
        ("models", "qwen3.6-27b", "hosts", "dgx-spark", "support"),
        ["deferred"],
    ),
    (
        "models.*.hosts.*.selection",
        ("models", "qwen3.6-27b", "hosts", "dgx-spark", "selection"),
        ["explicit-only"],
    ),
    ("images.*.notes", ("images", "vllm-openai-0.22.0", "notes"), ["For Ultra."]),
    ("product.site_url", ("product", "site_url"), ["https://docs.example.com"]),
]


def candidates(name: str, value: Any, data: dict[str, Any]) -> list[Any]:
    """Other valid values for fields whose values are names or choices, then ``changed``."""
    references = {"profiles.*.model": "models", "profiles.*.host": "hosts",
                  "profiles.*.image": "images"}  # fmt: skip
    choices = {
        "profiles.*.support": ["experimental", "deferred", "supported"],
        "profiles.*.selection": ["explicit-only", "automatic"],
        "hosts.*.arch": ["amd64", "arm64"],
        "profiles.*.evidence.*.date": ["2026-08-05"],
        "images.*.digest": [str(value)[:-1] + ("0" if str(value)[-1:] != "0" else "1")],
        "launcher.before_serve.*.when.*": ["auto"],
        "hosts.*.image": [k for k in data["images"] if k != value],
    }
    if name in references:
        found = [k for k in data[references[name]] if k != value]
    else:
        found = [c for c in choices.get(name, []) if c != value]
    return [*found, *changed(value)]


#: Fields with no other valid value at the first place they occur, and why that is fine.
NO_OTHER_VALUE = {
    "schema": "the format version: every other value is refused",
    "profiles.*.host": "the first profile is its host's default, and every other host has "
    "one already; ADDITIONS moves a profile that is no default",
    "profiles.*.expect.present.*": "a guard must agree with the args it guards; changing "
    "both is an arg change, tried at profiles.*.args.*",
    "hosts.*.arch": "every host runs an image built for its arch, so an arch alone cannot "
    "change; no page shows a host's arch",
    "images.*.platform": "the first image runs on arm64 hosts, so its platform alone cannot "
    "change; ADDITIONS changes the platform of an image no profile runs",
    "profiles.*.selection": "the first profile that sets it is its host's default, which "
    "cannot be explicit-only; ADDITIONS changes it on a profile that is no default",
}


def edits() -> Iterator[tuple[str, tuple[Any, ...], list[Any]]]:
    data = load_text((REPO / "profiles.yaml").read_text("utf-8"), "profiles.yaml").data
    seen: set[str] = set(NO_OTHER_VALUE)
    for path, value in leaves(data):
        name = field(path)
        if name not in seen:
            seen.add(name)
            yield name, path, candidates(name, value, data)
    yield from ADDITIONS


EDITS = list(edits())


@pytest.fixture(scope="module")
def base() -> tuple[Any, Any, Any, dict[str, str]]:
    project = load_project(REPO)
    text = (REPO / "profiles.yaml").read_text("utf-8")
    data = load_text(text, "profiles.yaml").data
    registry = load_bytes(text.encode(), "profiles.yaml")
    return project, data, registry, outputs(project, registry)


def test_every_schema_field_of_the_worked_example_is_tried():
    names = [name for name, _, _ in EDITS]
    assert len(names) >= 59  # the fields the worked example sets, and the 12 it leaves unset
    for expected in ("profiles.*.args.*", "profiles.*.env.*", "launcher.shared_args.*",
                     "launcher.before_serve.*.run", "images.*.digest", "hosts.*.name",
                     "models.*.download_bytes", "agents.*.cli", "product.name"):  # fmt: skip
        assert any(n == expected or n.startswith(expected) for n in names), expected


@pytest.mark.parametrize(("name", "path", "others"), EDITS, ids=[e[0] for e in EDITS])
def test_a_field_edit_that_changes_an_output_is_a_change_diff_reports(base, name, path, others):
    project, data, registry, before = base
    tried = 0
    for other in others:
        text = json.dumps(with_value(data, path, other), default=str)
        try:
            edited = load_bytes(text.encode(), "profiles.yaml")
        except RegistryError:
            continue  # not a valid registry: nothing to build
        tried += 1
        try:
            after = outputs(project, edited)
        except ConfigError:
            continue  # the project refuses it (an agent renamed away from its navigation)
        if after == before:
            continue
        changes = diff(registry, edited)
        moved = sorted(p for p in after if after[p] != before.get(p))
        assert changes, f"{name} = {other!r} changes {moved} but diff reports nothing"
        return
    assert tried, f"no other valid value for {name} among {others!r}: add one, or say why"
