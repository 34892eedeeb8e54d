"""The careful YAML reader (ruamel.yaml): plain data, the position of every node, and
located refusals of duplicate keys, alias bombs and recursive aliases."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import MINIMAL_REGISTRY

from docgen.errors import RegistryError
from docgen.registry.load import load, load_bytes
from docgen.registry.source import Positions, load_text, walk_leaves

TEXT = "a:\n  b: [1, two]\n  c:\n    - x: 2026-01-02\nd: 1.5\n"


def test_data_is_plain_python_with_timestamps_left_as_text():
    data = load_text(TEXT, "p.yaml").data
    assert data == {"a": {"b": [1, "two"], "c": [{"x": "2026-01-02"}]}, "d": 1.5}
    assert type(data) is dict and type(data["a"]["b"]) is list


def test_every_key_and_value_has_its_line_and_column():
    positions = load_text(TEXT, "p.yaml").positions
    assert positions.keys == {
        ("a",): (1, 1),
        ("a", "b"): (2, 3),
        ("a", "c"): (3, 3),
        ("a", "c", 0, "x"): (4, 7),
        ("d",): (5, 1),
    }
    assert positions.values[("a", "b", 1)] == (2, 10)
    assert positions.values[("a", "c", 0)] == (4, 7)
    assert positions.values[("d",)] == (5, 4)


def test_a_position_falls_back_to_the_nearest_written_ancestor():
    positions = load_text(TEXT, "p.yaml").positions
    assert str(positions.of_key(("a", "c", 0, "x"))) == "p.yaml:4:7"
    assert str(positions.of_value(("a", "c", 0, "x"))) == "p.yaml:4:10"
    assert str(positions.of_key(("a", "c", 0, "x", "missing"))) == "p.yaml:4:7"
    assert str(positions.of_value(("nowhere",))) == "p.yaml:1:1"
    assert str(Positions("q.yaml", values={("k",): (3, 2)}).of_key(("k",))) == "q.yaml:3:2"


def test_leaves_are_walked_in_document_order_with_their_key_paths():
    assert list(walk_leaves(load_text(TEXT, "p.yaml").data)) == [
        (("a", "b", 0), 1),
        (("a", "b", 1), "two"),
        (("a", "c", 0, "x"), "2026-01-02"),
        (("d",), 1.5),
    ]


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
        "loop.yaml:19:8: error: recursive YAML alias: a node contains itself"
    )


@pytest.mark.parametrize(
    ("text", "where"),
    [("a:\n  hf: &r {a: *r}\n", "p:2:7"), ("a: &r [*r, 1]\n", "p:1:4")],
    ids=["mapping", "list"],
)
def test_an_alias_inside_its_own_node_is_refused_not_read_as_null(text, where):
    """ruamel.yaml reads such an alias as null, a value the file does not hold."""
    with pytest.raises(RegistryError) as info:
        load_bytes(text.encode(), "p")
    assert str(info.value) == f"{where}: error: recursive YAML alias: a node contains itself"


def test_an_alias_repeated_outside_its_node_is_read():
    assert load_text("x: &a [1]\ny: [*a, *a]\n", "p").data == {"x": [1], "y": [[1], [1]]}


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


@pytest.mark.parametrize(("value", "read"), [("!!str Example", "Example"), ("!!str 5", "5")])
def test_a_string_tagged_str_is_read_as_a_string(value, read):
    """YAML's own ``!!str`` tag: ruamel.yaml keeps such a scalar as a tagged object,
    which the schema then called "not a string"."""
    text = MINIMAL_REGISTRY.replace("name: Acme", f"name: {value}", 1)
    assert "name: !!str" in text
    assert load_bytes(text.encode(), "p.yaml").product.name == read


@pytest.mark.parametrize("directive", ["%YAML 1.1", "%YAML 1.3"])
def test_a_directive_for_another_yaml_version_is_refused(directive):
    """Under ``%YAML 1.1`` ruamel.yaml reads ``010`` as 8 and ``yes`` as true."""
    text = f"# registry\n{directive}\n---\n{MINIMAL_REGISTRY}"
    with pytest.raises(RegistryError) as info:
        load_bytes(text.encode(), "p.yaml")
    assert str(info.value) == (
        f"p.yaml:2:1: error: the registry is YAML 1.2, but the directive '{directive}' asks "
        "for another version: remove it"
    )


def test_a_directive_for_yaml_1_2_is_read():
    text = f"%YAML 1.2\n---\n{MINIMAL_REGISTRY}"
    assert load_bytes(text.encode(), "p.yaml").product.name == "Acme"


def test_a_byte_count_past_what_javascript_reads_exactly_is_refused():
    """Sizes print as ``(bytes / 1e9).toFixed(2)`` and the export is read by JavaScript:
    past 2^53 - 1 a count loses its last digits."""
    size = "\n    download_bytes: 9007199254740992"
    text = MINIMAL_REGISTRY.replace("    notes: Box default.", f"    notes: Box default.{size}", 1)
    with pytest.raises(RegistryError) as info:
        load_bytes(text.encode(), "p.yaml")
    assert str(info.value) == (
        "p.yaml:32:21: error: models.tiny.download_bytes must be at most 9007199254740991 "
        "(2^53 - 1, the largest integer JavaScript reads exactly), got 9007199254740992"
    )
    exact = text.replace("9007199254740992", "9007199254740991")
    assert load_bytes(exact.encode(), "p.yaml").models["tiny"].download_bytes == 2**53 - 1
