"""The registry schema's patterns mean one thing in every engine that reads them.

JSON Schema patterns are ECMA-262 regular expressions, where ``$`` matches only at the
very end of the string. Python's ``$`` also matches before a final newline, so under
plain ``re.search`` a name ``"reboot\\n"`` passed and reached a printed shell command.
docgen's two engines (the compiled check, fastjsonschema; the explaining one, jsonschema)
must both read ``$`` as the end, agree on every document, and agree with a real ECMA-262
engine (Node.js) where one is installed.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import MINIMAL_REGISTRY
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docgen.errors import CONTROL
from docgen.registry import _schema_check, schema
from docgen.registry.source import load_text

#: Characters where the engines could differ: line ends, other controls, separators.
TRICKY = "\n\r\t\x00\x07\x1b\x7f\x85\u2028\u2029\u200e\u202e\u2066\u061c $^.-_/:@"


def patterns() -> list[str]:
    """Every ``pattern`` in the shipped schema."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                found.append(node["pattern"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema.schema())
    return sorted(set(found))


PATTERNS = patterns()


def whole(source: str) -> re.Pattern[str]:
    """The pattern as a whole-string match, with no anchor semantics involved."""
    return re.compile(source.removeprefix("^").removesuffix("$"))


def texts(source: str) -> st.SearchStrategy[str]:
    """Strings near the pattern: matches, matches with a tricky character put in, noise."""
    match = st.from_regex(whole(source), fullmatch=True)
    spliced = st.builds(
        lambda text, char, at: text[: at % (len(text) + 1)] + char + text[at % (len(text) + 1) :],
        match,
        st.sampled_from(TRICKY),
        st.integers(0, 64),
    )
    noise = st.text(st.sampled_from("ab09AZ" + TRICKY) | st.characters(), max_size=8)
    return st.one_of(match, match.map(lambda t: t + "\n"), spliced, noise)


def test_every_pattern_anchors_the_whole_string():
    for source in PATTERNS:
        assert source.startswith("^") and source.endswith("$"), source
        assert "|" not in source.replace("\\|", ""), source  # no top-level alternation
        assert source.count("$") - source.count("\\$") == 1, source
        assert (
            "\\Z" not in source and "\\z" not in source and "(?" not in source.replace("(?!", "")
        ), source  # portable ECMA-262: no Python-only anchors or flags


def test_the_end_anchor_is_the_end_of_the_string_in_both_engines():
    ids = schema.pattern(schema.schema()["$defs"]["id"]["pattern"])
    assert ids.search("reboot") and not ids.search("reboot\n")
    compiled = _schema_check.REGEX_PATTERNS[schema.schema()["$defs"]["id"]["pattern"]]
    assert not compiled.search("reboot\n")


@pytest.mark.parametrize("source", PATTERNS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_both_engines_read_each_pattern_as_a_whole_string_match(source, data):
    text = data.draw(texts(source))
    expected = whole(source).fullmatch(text) is not None
    assert (schema.pattern(source).search(text) is not None) == expected
    assert (_schema_check.REGEX_PATTERNS[source].search(text) is not None) == expected


def _set(path: tuple[Any, ...], key: bool = False) -> Callable[[dict[str, Any], str], None]:
    """A setter that puts a string at ``path`` in a registry, or renames the key there."""

    def put(data: dict[str, Any], text: str) -> None:
        *parents, last = path
        node = data
        for part in parents:
            node = node[part]
        if key:
            node[text] = node.pop(last)
        else:
            node[last] = text

    return put


#: Name-like places of the minimal registry (values, and keys renamed to the text).
SLOTS = {
    "profile-id": _set(("profiles", "vllm.box.tiny"), key=True),
    "host-id": _set(("hosts", "box"), key=True),
    "model-ref": _set(("profiles", "vllm.box.tiny", "model")),
    "agent-id": _set(("agents", 0, "id")),
    "agent-cli": _set(("agents", 1, "cli")),
    "model-env": _set(("product", "model_env")),
    "extra-args-env": _set(("product", "extra_args_env")),
    "onboard": _set(("product", "onboard")),
    "cli-token": _set(("product", "cli_token")),
    "docs-base": _set(("product", "docs_base")),
    "hf": _set(("models", "tiny", "hf")),
    "served-name": _set(("models", "tiny", "served_name")),
    "image-ref": _set(("images", "img", "ref")),
    "override-id": _set(("profiles", "vllm.box.tiny", "overrides", "small"), key=True),
    "arg-name": _set(("profiles", "vllm.box.tiny", "args", "max-num-seqs"), key=True),
    "arg-value": _set(("profiles", "vllm.box.tiny", "args", "max-num-seqs")),
}


def _registry() -> dict[str, Any]:
    data = load_text(MINIMAL_REGISTRY, "p.yaml").data
    data["profiles"]["vllm.box.tiny"]["env"] = {"ACME_X": "1"}
    data["models"]["tiny"]["served_name"] = "tiny"
    return data


BASE = _registry()
ANY_TEXT = st.text(st.sampled_from("abAZ09._-/:@$;'\" =" + TRICKY) | st.characters(), max_size=10)


def _near_names() -> st.SearchStrategy[str]:
    plain = st.sampled_from(["reboot", "vllm.box.tiny", "ACME_X", "acme/Tiny-1B", "onboard -y"])
    return st.one_of(
        ANY_TEXT,
        st.builds(lambda a, c: a + c, plain, st.sampled_from(TRICKY)),
        st.builds(lambda c, a: c + a, st.sampled_from(TRICKY), plain),
    )


@pytest.mark.parametrize("slot", list(SLOTS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_near_names())
def test_both_engines_accept_and_refuse_the_same_registries(slot, text):
    data = copy.deepcopy(BASE)
    SLOTS[slot](data, text)
    explained = list(schema._validator().iter_errors(data))
    assert schema.is_valid(data) == (explained == []), (slot, text, explained)
    if CONTROL.search(text.replace("\t", "").replace("\n", "")):
        assert explained, (slot, text)  # no name or command text holds a control character


def test_a_disagreement_is_refused_at_the_entry_never_built(monkeypatch):
    """Should the engines ever disagree, the registry is refused (located), not built."""
    from fastjsonschema import JsonSchemaValueException

    def refuse(value: Any, *args: Any, **kwargs: Any) -> Any:
        raise JsonSchemaValueException("no")

    for name in dir(_schema_check):
        if name.startswith("validate"):
            monkeypatch.setattr(_schema_check, name, refuse)
    doc = load_text(MINIMAL_REGISTRY, "p.yaml")
    assert [str(p) for p in schema.validate(doc.data, doc.positions)] == [
        "p.yaml:20:3: error: hosts.box does not match the registry schema "
        "(docgen cannot say why; please report it)"
    ]


def _ecma_cases() -> Iterator[tuple[str, str]]:
    samples = ["", "a", "reboot", "vllm.box.tiny", "ACME_X", "acme/Tiny-1B", "sha256:" + "a" * 64]
    samples += ["onboard --non-interactive", "/guide/{agent}", "0.9.2", "linux/amd64", "a..b"]
    for source in PATTERNS:
        for base in samples:
            for char in TRICKY:
                yield source, base + char
                yield source, char + base
            yield source, base


def test_the_patterns_mean_the_same_to_an_ecma_262_engine():
    node = shutil.which("node")
    if node is None:
        pytest.skip("needs Node.js for an ECMA-262 regular expression engine")
    cases = list(_ecma_cases())
    script = (
        "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{"
        "const c=JSON.parse(s);"
        "process.stdout.write(JSON.stringify(c.map(([p,t])=>new RegExp(p).test(t))))})"
    )
    done = subprocess.run(
        [node, "-e", script],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    ecma = json.loads(done.stdout)
    python = [schema.pattern(p).search(t) is not None for p, t in cases]
    compiled = [_schema_check.REGEX_PATTERNS[p].search(t) is not None for p, t in cases]
    differ = [case for case, e, p in zip(cases, ecma, python, strict=True) if e != p]
    assert differ == []
    assert compiled == python


def test_the_control_character_classes_are_one_rule():
    """The schema's ``plain`` class is ``errors.CONTROL``; ``value`` spares tab and newline."""
    defs = schema.schema()["$defs"]
    plain, value = (
        schema.pattern(defs["plain"]["pattern"]),
        schema.pattern(defs["value"]["pattern"]),
    )
    for code in [*range(0x3000), 0xFEFF, 0xFFFD, 0x1F642, 0xE0001]:
        char = chr(code)
        refused = CONTROL.fullmatch(char) is not None
        assert (plain.fullmatch(char) is None) == refused, hex(code)
        assert (value.fullmatch(char) is None) == (refused and char not in "\t\n"), hex(code)
