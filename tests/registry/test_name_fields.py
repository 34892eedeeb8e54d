"""Name-like registry fields hold no control character, and no printed command holds a
word the shell would split, run or expand.

Every string field of the schema is either prose (rendered escaped in pages) or has a
whole-string pattern; each pattern refuses every control character (C0, DEL, C1, the
line and paragraph separators, the bidirectional controls), except that command text
(argument and environment values) may hold tab and newline, which quoting keeps.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import MINIMAL_REGISTRY
from hypothesis import find
from hypothesis import strategies as st

from docgen.errors import CONTROL
from docgen.registry import schema
from docgen.registry.model import Product
from docgen.registry.serve import ServeCommand, assignment, override_command
from docgen.registry.source import load_text

#: Every character ``errors.CONTROL`` holds.
CONTROLS = [chr(c) for c in range(0x3000) if CONTROL.fullmatch(chr(c))]
#: String fields that are prose: pages render them escaped, so they may hold any text.
PROSE = {
    "product.name",
    "product.site_url",  # a URL: registry/rules.py has its own rule for it
    "product.spdx.copyright",
    "product.spdx.license",
    "agents.[].title",
    "hosts.*.name",
    "hosts.*.notes",
    "images.*.notes",
    "models.*.label",
    "models.*.notes",
    "profiles.*.summary",
    "profiles.*.overrides.*.summary",
    "profiles.*.overrides.*.tradeoffs.[]",
    "profiles.*.evidence.[].host",
    "profiles.*.evidence.[].setup",
    "profiles.*.evidence.[].results.*",
    "profiles.*.evidence.[].results.<key>",
}


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = schema.schema()["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _strings(node: dict[str, Any], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each place of the schema that can hold a string, with its (resolved) schema."""
    node = _resolve(node)
    kinds = node.get("type", [])
    if "string" in ([kinds] if isinstance(kinds, str) else kinds) or "enum" in node:
        yield path, node
    for name, sub in node.get("properties", {}).items():
        yield from _strings(sub, f"{path}.{name}".lstrip("."))
    for word, suffix in (("additionalProperties", "*"), ("items", "[]")):
        if isinstance(node.get(word), dict):
            yield from _strings(node[word], f"{path}.{suffix}")
    if "propertyNames" in node:
        yield f"{path}.<key>", _resolve(node["propertyNames"])
    elif isinstance(node.get("additionalProperties"), dict):
        yield f"{path}.<key>", {}


def _patterns(node: dict[str, Any]) -> list[str]:
    found = [node["pattern"]] if "pattern" in node else []
    return found + [p for sub in node.get("allOf", []) for p in _patterns(_resolve(sub))]


FIELDS = dict(_strings(schema.schema(), ""))


def test_every_string_field_is_prose_or_has_a_whole_string_pattern():
    unchecked = [
        path
        for path, node in FIELDS.items()
        if path not in PROSE and not _patterns(node) and "enum" not in node and "const" not in node
    ]
    assert unchecked == []
    assert set(PROSE) <= set(FIELDS), set(PROSE) - set(FIELDS)


def _example(source: str) -> str:
    whole = source.removeprefix("^").removesuffix("$")
    return find(st.from_regex(whole, fullmatch=True), lambda text: len(text) >= 2)


@pytest.mark.parametrize(
    "path", sorted(p for p, node in FIELDS.items() if _patterns(node)), ids=str
)
def test_each_patterned_field_refuses_every_control_character(path):
    value = schema.schema()["$defs"]["value"]["pattern"]
    for source in _patterns(FIELDS[path]):
        spared = "\t\n" if source == value else ""
        compiled, example = schema.pattern(source), _example(source)
        assert compiled.search(example), (source, example)
        for char in CONTROLS:
            for text in (example + char, char + example, example[:1] + char + example[1:]):
                assert (compiled.search(text) is not None) == (char in spared), (path, text)


def _problems(old: str, new: str) -> list[str]:
    assert old in MINIMAL_REGISTRY
    doc = load_text(MINIMAL_REGISTRY.replace(old, new, 1), "p.yaml")
    return [str(p) for p in schema.validate(doc.data, doc.positions)]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "      max-num-seqs: 2\n",
            '      max-num-seqs: 2\n      chat-template: "line\\nnext\\r"\n',
            "p.yaml:42:22: error: profiles.vllm.box.tiny.args.chat-template 'line\\nnext\\r' is "
            "malformed: it holds a control character (U+000D); command text holds no control "
            "characters but tab and newline",
        ),
        (
            "    image: img\n",
            '    image: img\n    env: {A: "x\\ty\\u2029"}\n',
            "p.yaml:38:14: error: profiles.vllm.box.tiny.env.A 'x\\ty\\u2029' is malformed: it "
            "holds a control character (U+2029); command text holds no control characters but "
            "tab and newline",
        ),
        (
            "  tiny:\n",
            '  "tiny\\x1b[31m":\n',
            "p.yaml:28:3: error: invalid id 'tiny\\x1b[31m' in models: it holds a control "
            "character (U+001B); ids use lowercase letters, digits, '.', '_' and '-', start with "
            "a letter or digit, and contain no '..'",
        ),
    ],
    ids=["arg-value-carriage-return", "env-value-paragraph-separator", "id-escape-sequence"],
)
def test_a_control_character_is_named_and_the_message_stays_one_line(old, new, expected):
    assert _problems(old, new) == [expected]
    assert not CONTROL.search(expected)


def test_command_text_may_hold_tab_and_newline():
    new = '      max-num-seqs: 2\n      chat-template: "{{ a }}\\n\\t{{ b }}"\n'
    assert _problems("      max-num-seqs: 2\n", new) == []


ONBOARD_OK = ["onboard --non-interactive", "setup --yes --mode=a,b:c/d@e%f+g", "x"]
ONBOARD_BAD = [
    "onboard; reboot",
    "onboard && reboot",
    "onboard | sh",
    "onboard $(reboot)",
    "onboard `reboot`",
    "onboard 'quoted word'",
    'onboard "x"',
    "onboard  --twice-spaced",
    " onboard",
    "onboard ",
    "onboard > file",
    "onboard *",
    "onboard ~",
    "onboard\treboot",
    "",
]


@pytest.mark.parametrize("text", ONBOARD_OK + ONBOARD_BAD)
def test_onboard_is_shell_safe_words(text):
    line = f"  model_env: ACME_MODEL\n  onboard: {json.dumps(text)}\n"
    problems = _problems("  model_env: ACME_MODEL\n", line)
    assert (problems == []) == (text in ONBOARD_OK), problems


def test_an_environment_variable_name_the_shell_would_not_read_is_never_printed():
    for name in ("reboot\n", "A B", "A;B", "1A", "", "A=B", "é"):
        with pytest.raises(ValueError, match="not an environment variable name"):
            assignment(name, "x")
        with pytest.raises(ValueError, match="not an environment variable name"):
            ServeCommand(((name, "1"),), "m", ()).shell()
    assert assignment("A_1", "it's") == "A_1='it'\"'\"'s'"


def test_override_command_quotes_any_onboard_word_that_is_not_shell_safe(make_project):
    """Defence in depth: the schema admits only safe words, and those read unchanged."""
    from docgen.registry.load import load

    project = make_project()
    registry = load(project.root / "profiles.yaml")
    profile = registry.profiles["vllm.box.tiny"]
    product = Product("Acme", "$$acme", onboard="onboard; reboot $(x)")
    text = override_command(product, profile, profile.overrides[0], "$$acme")
    assert text.endswith("\n  $$acme 'onboard;' reboot '$(x)'")
    safe = override_command(registry.product, profile, profile.overrides[0], "acme")
    assert safe.endswith("\n  acme onboard --non-interactive")
