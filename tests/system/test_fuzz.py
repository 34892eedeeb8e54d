"""The fuzzer, bounded for CI: hostile edits of the worked example keep every promise
tests/fuzzing.py lists. ``scripts/fuzz.py`` runs it longer, with new random examples."""

from __future__ import annotations

import os
from pathlib import Path

from fuzzing import Edit, edits, exercise
from hypothesis import HealthCheck, given, settings
from mdxc import compile_mdx

#: Examples per CI run (the same ones every run: derandomized).
EXAMPLES = int(os.environ.get("DOCGEN_FUZZ_EXAMPLES", "100"))


def test_no_hostile_edit_breaks_a_promise(tmp_path: Path) -> None:
    pages: dict[str, str] = {}

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(edit=edits)
    def one(edit: Edit) -> None:
        run = exercise(tmp_path / "fuzz", edit)
        pages.update({f"{edit!r} {name}": text for name, text in run.pages.items()})

    one()
    failed = {name: error for name, error in compile_mdx(pages).items() if error}
    assert failed == {}
