"""The benchmark harness cannot rot: a small corpus validates, builds, checks and drifts."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

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
tables = load("tables")


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


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Every figure of one tiny corpus, one run each, as ``run.py`` measures it."""
    work = tmp_path_factory.mktemp("measured")
    settings = bench.Bench(bench.docgen_script(), work, repeat=1, cold_repeat=1, budget=60)
    return bench.measure(settings, 10, 2, 3, 8, baselines=False)


def test_every_command_is_measured_with_its_peak_memory(measured: Any) -> None:
    figures = measured.figures
    for _, name in (*tables.TIME_COLUMNS, *tables.RSS_COLUMNS):
        assert len(figures[name].samples) == 1, name
    timed = [f for f in figures.values() if f.cpu]
    assert all(f.memory is not None and f.memory.name in figures for f in timed)
    assert figures[tables.FRESH].memory.name == tables.FRESH_RSS
    assert figures[tables.FRESH].targets == {18: 0.9}
    assert figures[tables.COLD].targets == {8: 4.0, 18: 1.3}


def test_growth_tables_show_every_figure(measured: Any) -> None:
    times = tables.growth_times([measured])
    memory = tables.growth_memory([measured])
    for column, _ in tables.TIME_COLUMNS:
        assert f"| {column} |" in times.splitlines()[0]
    for column, _ in tables.RSS_COLUMNS:
        assert f"| {column} |" in memory.splitlines()[0]
    assert times.splitlines()[2].startswith("| 10 | 2 | ")
    assert memory.splitlines()[2].startswith("| 10 | ")


def test_fresh_clone_holds_the_docs_and_no_cache(built: Path, tmp_path: Path) -> None:
    clone = load("clone")
    origin = clone.commit_corpus(built, tmp_path / "origin")
    fresh = clone.fresh_clone(origin, tmp_path / "fresh")
    assert (built / ".docgen-cache").is_dir() and not (fresh / ".docgen-cache").exists()
    assert sorted(p.relative_to(fresh) for p in (fresh / "docs").rglob("*.mdx")) == sorted(
        p.relative_to(built) for p in (built / "docs").rglob("*.mdx")
    )
    env = clone.keyless(tmp_path / "home")
    assert env["XDG_CACHE_HOME"] == str(tmp_path / "home")


def test_main_table_marks_both_issues_targets() -> None:
    figures = {}
    for name in tables.TARGETS:
        unit = "MB" if name.startswith("peak RSS") else "files" if "written" in name else "s"
        figure = bench.Figure(name, unit, samples=[200.0 if unit == "MB" else 1.0])
        figures[name] = figure
    tables.set_targets(figures.values())
    result = tables.Result(2000, 200, 8805, 1, figures)
    text = tables.main_table(result, [], at_target=True)
    lines = {line.split(" | ")[0].lstrip("| "): line for line in text.splitlines()}
    assert lines[tables.FRESH].endswith("| ≤ 0.90 s (#18) | **missed** (#18) |")
    assert lines[tables.COLD].endswith("| ≤ 1.30 s (#18), ≤ 4.00 s (#8) | met |")
    assert lines[tables.CHECK_RSS].endswith("≤ 150 MB (#18), ≤ 300 MB (#8) | **missed** (#18) |")
    assert lines[tables.EXAMPLE].endswith("| **missed** (#8, #18) |")
    assert lines[tables.WRITTEN].endswith("| **missed** (#8) |")
