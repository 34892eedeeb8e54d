"""The benchmark harness cannot rot: a small corpus validates, builds, checks and drifts."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest
from conftest import REPO, Outcome, invoke_cli

BENCHMARKS = REPO / "benchmarks"


def load(name: str) -> ModuleType:
    """Import a script from benchmarks/ (a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(f"benchmarks_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


corpus = load("corpus")
bench = load("run")


def docgen(root: Path, *args: str) -> Outcome:
    return invoke_cli(["--root", str(root), *args])


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 20-profile, 5-page corpus after one build (shared: tests must not change it)."""
    root = tmp_path_factory.mktemp("bench") / "corpus"
    corpus.write(root, 20, 5)
    assert docgen(root, "validate").exit_code == 0
    result = docgen(root, "build")
    assert result.exit_code == 0, result.output
    return root


def test_small_corpus_builds_then_checks_in_sync(built: Path) -> None:
    assert docgen(built, "check").exit_code == 0
    shared = sorted((built / "docs" / "shared").rglob("*.mdx"))
    assert len(shared) == 5
    assert any("docgen:begin models-table" in p.read_text("utf-8") for p in shared)
    variants = list((built / "docs" / "_build" / "agent-variants" / "shared").rglob("*.mdx"))
    assert len(variants) == 5 * 3


def test_second_build_writes_nothing(built: Path) -> None:
    before = bench.snapshot(built)
    result = docgen(built, "build")
    assert bench.summary_count(result.output) == 0
    assert bench.touched(before, bench.snapshot(built)) == 0


def test_registry_edit_is_reported_as_drift(built: Path, tmp_path: Path) -> None:
    edited = shutil.copytree(built, tmp_path / "edited")
    profile = bench.edit_registry(edited / "profiles.yaml")
    result = docgen(edited, "check", "-q")
    assert result.exit_code == 1
    assert f"docs/profiles/{profile}.mdx" in result.output


def test_corpus_is_deterministic(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    corpus.write(one, 30, 4, seed=3)
    corpus.write(two, 30, 4, seed=3)
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(two) for p in two.rglob("*") if p.is_file())
    assert all((one / f).read_bytes() == (two / f).read_bytes() for f in files)
