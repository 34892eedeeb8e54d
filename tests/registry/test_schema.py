"""The registry's schema: the compiled yes/no check agrees with jsonschema, and every
violation is worded for a person and located at its line."""

from __future__ import annotations

import importlib.util

import pytest
from conftest import MINIMAL_REGISTRY, REPO
from test_load import BROKEN, broken

from docgen.registry import schema
from docgen.registry.fastyaml import load_fast
from docgen.registry.source import load_text


def _schema_builder():
    spec = importlib.util.spec_from_file_location("build", REPO / "scripts/build_schema_check.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    return build


def test_compiled_schema_check_is_up_to_date():
    from docgen.registry import _schema_check

    build = _schema_builder()
    assert build.schema_digest() == _schema_check.SCHEMA_SHA256, (
        "the schema changed: run python3 scripts/build_schema_check.py"
    )


def test_schema_builder_records_the_digest_of_the_schema_it_compiles():
    build = _schema_builder()
    code = build.generate()
    assert f'SCHEMA_SHA256 = "{build.schema_digest()}"' in code
    namespace: dict[str, object] = {}
    exec(compile(code, "generated", "exec"), namespace)  # the installed fastjsonschema runs it
    example = load_text((REPO / "profiles.yaml").read_text(), "p")
    assert namespace["validate"](example.data) == example.data


def test_fast_check_never_accepts_what_jsonschema_rejects():
    for _case, text, _expected in BROKEN:
        doc = load_fast(text, "p.yaml")
        if doc is None or not isinstance(doc.data, dict):
            continue
        if schema.validate(doc.data, doc.positions):
            assert not schema.is_valid(doc.data)
    example = load_text((REPO / "profiles.yaml").read_text(), "p")
    assert schema.is_valid(example.data)


def violations(text: str) -> list[str]:
    """The schema's problems with a registry text, as printed."""
    doc = load_text(text, "p.yaml")
    return [str(problem) for problem in schema.validate(doc.data, doc.positions)]


def test_the_worked_example_and_the_minimal_registry_are_valid():
    for text in ((REPO / "profiles.yaml").read_text(), MINIMAL_REGISTRY):
        doc = load_text(text, "p.yaml")
        assert schema.is_valid(doc.data)
        assert schema.validate(doc.data, doc.positions) == []


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "  box: {name: Big Box, arch: amd64}",
            "  box: {name: Big Box, arch: amd64, color: red}",
            "p.yaml:20:37: error: unknown key 'color' in hosts.box",
        ),
        (
            "    label: Tiny 1B\n",
            "",
            "p.yaml:28:3: error: missing required key 'label' in models.tiny",
        ),
        (
            "    compressed_bytes: 1234567890",
            "    compressed_bytes: many",
            "p.yaml:25:23: error: images.img.compressed_bytes must be an integer, got 'many'",
        ),
        (
            "  box: {name: Big Box",
            "  Box: {name: Big Box",
            "p.yaml:20:3: error: invalid id 'Box' in hosts: ids use lowercase letters, digits, "
            "'.', '_' and '-', start with a letter or digit, and contain no '..'",
        ),
    ],
    ids=["unknown-key", "missing-key", "wrong-type", "bad-id"],
)
def test_a_violation_is_mapped_to_the_line_that_holds_it(old, new, expected):
    assert violations(broken(old, new)) == [expected]


def test_only_the_entries_the_compiled_check_rejects_are_explained():
    text = broken("  box: {name: Big Box, arch: amd64}", "  box: {name: 5, arch: amd64}")
    doc = load_text(text, "p.yaml")
    assert not schema.is_valid(doc.data)
    assert [str(p) for p in schema.validate(doc.data, doc.positions)] == [
        "p.yaml:20:15: error: hosts.box.name must be a string, got 5"
    ]


def test_the_schema_is_shipped_as_text_and_as_data():
    assert schema.schema()["$defs"]["vllm"]["type"] == "object"
    assert '"$defs"' in schema.schema_text()
