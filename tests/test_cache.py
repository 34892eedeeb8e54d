"""The compiled schema check and the content-addressed plan cache."""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import json
import pickle
import stat
from pathlib import Path

import pytest
from conftest import MINIMAL_REGISTRY, REPO
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from docgen import cache, registry, schema
from docgen.config import load_project
from docgen.errors import DocgenError
from docgen.registry import load_bytes
from docgen.yamlsource import RUAMEL_WORDING_BYTES, load_fast, load_text


def _schema_builder():
    spec = importlib.util.spec_from_file_location("build", REPO / "scripts/build_schema_check.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    return build


def test_compiled_schema_check_is_up_to_date():
    from docgen import _schema_check

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
    from test_registry import BROKEN

    for _case, text, _expected in BROKEN:
        doc = load_fast(text, "p.yaml")
        if doc is None or not isinstance(doc.data, dict):
            continue
        if schema.validate(doc.data, doc.positions):
            assert not schema.is_valid(doc.data)
    example = load_text((REPO / "profiles.yaml").read_text(), "p")
    assert schema.is_valid(example.data)


def test_fast_and_careful_yaml_paths_agree_on_data_and_positions():
    for name in ("profiles.yaml", "tests/fixtures/profiles-v0.0.101.yaml"):
        text = (REPO / name).read_text()
        fast, careful = load_fast(text, "p"), load_text(text, "p")
        assert fast is not None
        assert json.dumps(fast.data) == json.dumps(careful.data)
        assert fast.positions.keys == careful.positions.keys
        assert fast.positions.values == careful.positions.values


@pytest.mark.parametrize(
    "text",
    ["a: !!str 1\n", "a: &x 1\nb: *x\n", "a: 0o17\n", "a: 1_000\n", "a: 1\na: 2\n", "a: [1\n"],
)
def test_fast_path_declines_what_it_cannot_read_exactly(text):
    assert load_fast(text, "p") is None


def test_errors_in_a_registry_libyaml_reads_are_located_without_ruamel(monkeypatch):
    monkeypatch.setattr(registry, "load_text", None)  # never called
    with pytest.raises(DocgenError) as info:
        load_bytes(
            MINIMAL_REGISTRY.replace("max-num-seqs: 2", "max-num-seqs: two").encode(),
            "profiles.yaml",
        )
    assert str(info.value) == (
        "profiles.yaml:41:21: error: '--max-num-seqs' expects an integer, got 'two'"
    )


def test_build_stores_the_plan_and_check_reuses_it_without_writing(make_project, run):
    project = make_project()
    assert run(project, "build").exit_code == 0
    stored = list((project.root / cache.FOLDER).glob("*.pickle"))
    assert len(stored) == 1
    digest = cache.key(load_project(project.root))
    assert stored[0].name == f"{digest}.pickle"
    plan = cache.load(load_project(project.root), digest)
    assert plan is not None and not plan.complete
    before = project.snapshot()
    assert run(project, "check").exit_code == 0
    assert project.snapshot() == before


def test_an_input_edit_misses_the_cache_and_check_names_the_registry_line(make_project, run):
    project = make_project()
    run(project, "build")
    old_key = cache.key(load_project(project.root))
    project.edit("profiles.yaml", "max-num-seqs: 2", "max-num-seqs: 3")
    assert cache.key(load_project(project.root)) != old_key
    result = run(project, "check")
    assert result.exit_code == 1
    assert (
        "registry entry behind it: profiles.yaml:41:7 profiles.vllm.box.tiny.args."
        "max-num-seqs" in result.output
    )


def test_hand_edit_of_a_generated_file_is_found_on_a_cache_hit(make_project, run):
    project = make_project()
    run(project, "build")
    project.edit("docs/models.mdx", "Tiny", "Tony")
    result = run(project, "check")
    assert result.exit_code == 1
    assert "docs/models.mdx:" in result.output and "+| `tiny` | `acme/Tiny-1B`" in result.output
    assert run(project, "build").exit_code == 0
    assert "Tony" not in project.read("docs/models.mdx")


def test_generated_pages_and_filled_regions_do_not_change_the_key(make_project, run):
    page = "{/* docgen:begin models-table */}\n{/* docgen:end */}\n"
    project = make_project(files={"docs/hand.mdx": page})
    before = cache.key(load_project(project.root))
    run(project, "build")
    assert project.read("docs/hand.mdx") != page
    assert cache.key(load_project(project.root)) == before


def test_a_damaged_cache_file_is_ignored(make_project, run):
    project = make_project()
    run(project, "build")
    for stored in (project.root / cache.FOLDER).glob("*.pickle"):
        stored.write_bytes(b"garbage")
    assert run(project, "check").exit_code == 0


class _Planted:
    """Unpickling this creates a file: proof that a cache file was unpickled."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Path(self.marker).touch, ())


def test_a_cache_file_from_elsewhere_is_never_unpickled(make_project, run, tmp_path):
    project = make_project()
    assert run(project, "build").exit_code == 0
    marker = tmp_path / "unpickled"
    payload = pickle.dumps(_Planted(str(marker)))
    for stored in (project.root / cache.FOLDER).glob("*.pickle"):
        # the right format, a seal made with a key that is not this user's
        forged = hmac.new(b"k" * 32, payload, hashlib.sha256).digest()
        stored.write_bytes(cache.FORMAT + forged + payload)
    assert run(project, "check").exit_code == 0
    assert not marker.exists()


def test_a_cache_sealed_under_another_key_is_ignored(make_project, run):
    project = make_project()
    assert run(project, "build").exit_code == 0
    digest = cache.key(load_project(project.root))
    assert cache.load(load_project(project.root), digest) is not None
    original = cache.key_file().read_bytes()
    try:
        cache.key_file().write_bytes(bytes(32))
        assert cache.load(load_project(project.root), digest) is None
    finally:
        cache.key_file().write_bytes(original)
    assert cache.load(load_project(project.root), digest) is not None
    assert stat.S_IMODE(cache.key_file().stat().st_mode) == 0o600


def test_a_renewed_key_makes_the_next_build_store_the_plan_again(make_project, run):
    project = make_project()
    assert run(project, "build").exit_code == 0
    digest = cache.key(load_project(project.root))
    original = cache.key_file().read_bytes()
    try:
        cache.key_file().unlink()  # as when ~/.cache is cleared
        assert cache.load(load_project(project.root), digest) is None
        assert run(project, "build").exit_code == 0
        assert cache.load(load_project(project.root), digest) is not None
    finally:
        cache.key_file().write_bytes(original)


def test_syntax_errors_in_large_text_are_worded_by_libyaml():
    text = "".join(f"a{i}: 1\n" for i in range(RUAMEL_WORDING_BYTES // 5)) + "b: [1\n"
    with pytest.raises(DocgenError) as info:
        load_fast(text, "p.yaml")
    lines = text.count("\n")
    assert str(info.value) == f"p.yaml:{lines + 1}:1: error: did not find expected ',' or ']'"


def test_the_fast_path_measures_nesting_as_it_reads():
    with pytest.raises(DocgenError) as info:
        load_fast("k: " + "[" * 100 + "]" * 100 + "\n", "p.yaml")
    assert str(info.value) == "p.yaml:1:68: error: YAML nesting deeper than 64 levels"


# -- the fast path against ruamel.yaml, on generated documents -------------------------

#: Plain scalars where YAML 1.2's core schema and YAML 1.1 habits part ways.
TRICKY = [
    "1", "-1", "+1", "0", "007", "0x1F", "0o17", "1_000", "1e3", "1E-3", "-.5", "1.", ".5",
    ".inf", "-.Inf", ".NaN", "nan", "true", "True", "TRUE", "false", "yes", "no", "on", "off",
    "null", "Null", "NULL", "~", "12:30", "2026-01-02", "1.0.0", "v1", "0.4", "a b", "x-y",
    "--flag", "é", "a#b", "3.14e+2",
]  # fmt: skip
plain = st.one_of(st.sampled_from(TRICKY), st.from_regex(r"[a-z][a-z0-9_.-]{0,8}", fullmatch=True))
scalar_text = st.one_of(
    plain,
    plain.map(lambda s: f"'{s}'"),
    plain.map(lambda s: json.dumps(s)),
)
keys = st.from_regex(r"[a-z][a-z0-9-]{0,6}", fullmatch=True)
trees = st.recursive(
    scalar_text,
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=4),
        st.dictionaries(keys, inner, min_size=1, max_size=4),
    ),
    max_leaves=12,
)


def _flow(node: object) -> str:
    if isinstance(node, list):
        return "[" + ", ".join(_flow(n) for n in node) + "]"
    if isinstance(node, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in node.items()) + "}"
    return str(node)


def _block(node: object, indent: int, flow_from: int) -> list[str]:
    pad = "  " * indent
    if not isinstance(node, (list, dict)) or indent >= flow_from:
        return [_flow(node)]
    out = []
    items = node.items() if isinstance(node, dict) else (("-", v) for v in node)
    for key, value in items:
        head = f"{pad}{key}:" if isinstance(node, dict) else f"{pad}-"
        if isinstance(value, (list, dict)) and value and indent + 1 < flow_from:
            out += [head, *_block(value, indent + 1, flow_from)]
        else:
            out.append(f"{head} {_block(value, indent + 1, flow_from)[0]}")
    return out


def _typed(value: object) -> object:
    """The data with every scalar's type kept (1, 1.0 and True all differ)."""
    if isinstance(value, dict):
        return [(k, _typed(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return (type(value).__name__, repr(value))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(keys, trees, min_size=1, max_size=5), st.integers(min_value=1, max_value=4))
def test_the_fast_path_reads_generated_documents_exactly_as_ruamel_does(tree, flow_from):
    text = "\n".join(_block(tree, 0, flow_from)) + "\n"
    try:
        careful = load_text(text, "p")
    except DocgenError:
        assume(False)  # not YAML at all: nothing to compare
    fast = load_fast(text, "p")
    if fast is None:
        return  # declined: ruamel.yaml reads it, as above
    assert _typed(fast.data) == _typed(careful.data), text
    assert fast.positions.keys == careful.positions.keys, text
    assert fast.positions.values == careful.positions.values, text
