"""Tests of docgen.vllm.catalog: the shipped catalog, lookups, extension and its data files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from docgen.vllm.catalog import CATALOG_FILE, Catalog
from docgen.vllm.flag import Flag
from docgen.vllm.versions import VERSIONS_FILE

DATA = REPO / "docgen" / "data"
REFERENCE = REPO / ".." / "shared" / "reference" / "vllm_serve_args.json"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.load()


def _flag(catalog: Catalog, name: str) -> Flag:
    flag = catalog.lookup(name)
    assert flag is not None, name
    return flag


# --- the shipped catalog ------------------------------------------------------------


def test_shipped_catalog_is_vllm_0_34_0_with_327_options(catalog: Catalog) -> None:
    assert catalog.version == "0.34.0"
    assert catalog.commit == "62d4bc3c7"
    assert len(catalog.names()) == 327
    assert catalog.names() == sorted(catalog.names())
    assert "model_tag" not in catalog.names()


def test_load_is_cached(catalog: Catalog) -> None:
    assert Catalog.load() is catalog


def test_catalog_knows_negations(catalog: Catalog) -> None:
    assert _flag(catalog, "async-scheduling").negations == ("no-async-scheduling",)
    assert _flag(catalog, "enable-prefix-caching").negations == (
        "no-enable-prefix-caching",
        "disable-prefix-caching",
    )
    assert "disable-log-requests" in _flag(catalog, "enable-log-requests").negations
    assert _flag(catalog, "disable-log-stats").negations == ()


def test_catalog_records_types_and_traits(catalog: Catalog) -> None:
    max_model_len = _flag(catalog, "max-model-len")
    assert (max_model_len.type, max_model_len.human_readable_int) == ("int", True)
    assert max_model_len.accepts_auto and max_model_len.constraints == (("ge", -1),)
    assert _flag(catalog, "gpu-memory-utilization").constraints == (("gt", 0), ("le", 1))
    assert _flag(catalog, "seed").constraints == (("ge", 0), ("le", 2**32 - 1))
    assert _flag(catalog, "max-lora-rank").choices == tuple(
        str(n) for n in (1, 8, 16, 32, 64, 128, 256, 320, 512)
    )
    speculative = _flag(catalog, "speculative-config")
    assert speculative.json_keys is not None and "method" in speculative.json_keys
    assert _flag(catalog, "kv-cache-dtype").choices_enforced is False
    assert _flag(catalog, "dtype").choices_enforced is True
    assert _flag(catalog, "served-model-name").nargs == "+"
    assert _flag(catalog, "cudagraph-capture-sizes").deprecated


def test_lookup_takes_names_and_aliases_only(catalog: Catalog) -> None:
    assert _flag(catalog, "tp").name == "tensor-parallel-size"
    assert _flag(catalog, "device-memory-utilization").name == "gpu-memory-utilization"
    assert _flag(catalog, "max-model-len").aliases == ()
    assert _flag(catalog, "tensor-parallel-size").aliases == ("-tp",)
    assert catalog.lookup("no-async-scheduling") is None
    assert catalog.lookup("disable-prefix-caching") is None
    assert catalog.lookup("max-model") is None
    assert catalog.lookup("--max-model-len") is None


def test_suggest_names_the_closest_flag_first(catalog: Catalog) -> None:
    assert catalog.suggest("max-modle-len").startswith("; did you mean '--max-model-len'")
    assert catalog.suggest("--enable-prefix-cachng").startswith(
        "; did you mean '--enable-prefix-caching'"
    )
    assert catalog.suggest("gpu-memory-utilisation") == "; did you mean '--gpu-memory-utilization'?"
    assert catalog.suggest("zzzzzzzz") == ""


def test_check_value_of_an_unknown_flag_is_a_programming_error(catalog: Catalog) -> None:
    with pytest.raises(KeyError, match="--nope"):
        catalog.check_value("nope", 1)


# --- extend -------------------------------------------------------------------------


def test_extend_adds_a_flag_and_a_value_without_changing_the_original(catalog: Catalog) -> None:
    extended = catalog.extend(
        {"my-plugin-mode": {"type": "str", "choices": ["fast", "slow"]}},
        {"quantization": ["my_quant"], "tp": ["ignored"], "not-a-flag": ["x"]},
    )
    assert extended.lookup("my-plugin-mode") is not None
    assert extended.check_value("my-plugin-mode", "fast") == []
    assert extended.check_value("my-plugin-mode", "fats") == [
        "invalid value 'fats' for '--my-plugin-mode'; did you mean 'fast'?"
    ]
    assert extended.check_value("quantization", "my_quant") == []
    assert catalog.check_value("quantization", "my_quant") != []
    assert catalog.lookup("my-plugin-mode") is None
    assert len(extended.names()) == 328
    assert extended.version == catalog.version


def test_extend_declares_negatable_booleans(catalog: Catalog) -> None:
    extended = catalog.extend(
        {"my-switch": {"type": "bool", "negatable": True}, "my-once": {"type": "bool"}}, {}
    )
    assert extended.tokens("my-switch", False) == ["--no-my-switch"]
    assert extended.check_argv(["--no-my-switch", "--my-once"]) == []
    assert extended.check_value("my-once", False) == [
        "'--my-once' has no --no- form in vLLM; remove the flag instead of setting it to false"
    ]


def test_extend_rejects_an_unknown_type(catalog: Catalog) -> None:
    with pytest.raises(ValueError, match="unknown type 'tuple'"):
        catalog.extend({"x": {"type": "tuple"}}, {})


# --- the data files -----------------------------------------------------------------


def test_data_files_are_compact_and_sorted() -> None:
    for name in (CATALOG_FILE, VERSIONS_FILE):
        text = (DATA / name).read_text(encoding="utf-8")
        data = json.loads(text)
        compact = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert text == compact + "\n", name


def test_build_script_reproduces_the_shipped_files(tmp_path: Path) -> None:
    if not REFERENCE.is_file():
        pytest.skip(f"reference data not found: {REFERENCE} (expected ../shared beside the repo)")
    script = REPO / "scripts" / "build_vllm_catalog.py"
    subprocess.run(
        [sys.executable, str(script), str(REFERENCE), str(tmp_path)],
        check=True,
        capture_output=True,
    )
    for name in (CATALOG_FILE, VERSIONS_FILE):
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), name
