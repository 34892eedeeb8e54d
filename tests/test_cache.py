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

from docgen import cache, registry, schema
from docgen.config import load_project
from docgen.errors import DocgenError
from docgen.registry import load_bytes
from docgen.yamlsource import RUAMEL_WORDING_BYTES, load_fast, load_text


def test_compiled_schema_check_is_up_to_date():
    spec = importlib.util.spec_from_file_location("build", REPO / "scripts/build_schema_check.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    shipped = (REPO / "docgen" / "_schema_check.py").read_text("utf-8")
    assert build.generate() == shipped, "run: python3 scripts/build_schema_check.py"


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
