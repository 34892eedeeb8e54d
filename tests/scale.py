"""Larger generated projects for the reliability tests, and helpers to run docgen on them.

``write_corpus`` loads benchmarks/corpus.py (a folder of scripts, not a package) and
writes a deterministic project: a registry of N profiles, this repository's templates,
and P hand-written shared pages with AgentOnly blocks, the CLI token and regions.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from conftest import Outcome, invoke_cli

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

Tree = dict[str, bytes]
#: docgen's plan cache: not an output, safe to delete, never committed.
CACHE = ".docgen-cache"


@cache
def corpus() -> ModuleType:
    spec = importlib.util.spec_from_file_location("benchmarks_corpus", BENCHMARKS / "corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def write_corpus(root: Path, profiles: int, pages: int, seed: int = 8) -> None:
    corpus().write(root, profiles, pages, seed=seed)


def snapshot(root: Path) -> Tree:
    """Every file under ``root`` but the plan cache: project-relative POSIX path -> bytes."""
    files = {p.relative_to(root).as_posix(): p for p in sorted(root.rglob("*")) if p.is_file()}
    return {rel: p.read_bytes() for rel, p in files.items() if not rel.startswith(f"{CACHE}/")}


def docgen(root: Path, *args: str) -> Outcome:
    """Run docgen in this process (no start-up cost)."""
    return invoke_cli(["--root", str(root), *args])


def docgen_process(root: Path, *args: str, **options: Any) -> subprocess.Popen[bytes]:
    """Start ``python -m docgen --root ROOT ARGS`` with stdout and stderr piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "docgen", "--root", str(root), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **options,
    )
