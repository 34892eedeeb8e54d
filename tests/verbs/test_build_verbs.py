"""The core ``build`` and ``check`` verbs: what they write, and the report they return."""

from __future__ import annotations

import pytest

from docgen.changes import CHANGED, NEW, STALE, UNCHANGED
from docgen.config import load_project
from docgen.verbs.build import build, check

EDIT = ("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")


@pytest.fixture
def project(make_project):
    return make_project()


def statuses(report) -> dict[str, str]:
    return {c.path: c.status for c in report.changes}


def test_a_first_build_writes_every_output_and_a_second_writes_none(project):
    first = build(load_project(project.root))
    assert set(statuses(first.report).values()) == {NEW}
    assert first.changed == len(first.report.changes) > 0
    assert all((project.root / c.path).is_file() for c in first.report.changes)
    second = build(load_project(project.root))
    assert set(statuses(second.report).values()) == {UNCHANGED}
    assert second.changed == 0


def test_a_dry_run_reports_and_writes_nothing(project):
    before = project.snapshot()
    built = build(load_project(project.root), dry_run=True)
    assert built.dry_run and built.changed > 0
    assert project.snapshot() == before


def test_progress_hears_each_write_and_the_total(project):
    heard: list[tuple[int, int]] = []
    built = build(
        load_project(project.root), progress=lambda done, total: heard.append((done, total))
    )
    total = built.changed
    assert heard == [(n, total) for n in range(1, total + 1)]


def test_check_in_sync_from_the_cache_then_names_the_registry_line_behind_drift(project):
    build(load_project(project.root))
    assert check(load_project(project.root)).in_sync  # a cache hit: digests only
    project.edit("profiles.yaml", *EDIT)
    report = check(load_project(project.root))
    drifted = report.of(CHANGED)
    assert not report.in_sync and drifted
    for change in drifted:  # a complete plan: texts and sources, never a digest-only output
        assert change.output is not None and change.output.text and not change.output.digest
        assert [s.name for s in change.behind()] == [
            "profiles.vllm.box.tiny.args.gpu-memory-utilization"
        ]


def test_check_finds_stale_generated_files(project):
    build(load_project(project.root))
    project.write("templates/extra.mdx.j2", '---\ntitle: "Extra"\n---\n\nExtra page.\n')
    build(load_project(project.root))
    (project.root / "templates/extra.mdx.j2").unlink()
    report = check(load_project(project.root))
    assert statuses(report)["docs/extra.mdx"] == STALE
    assert (project.root / "docs/extra.mdx").is_file()  # check writes nothing


def test_check_adds_the_changelog_history_rules(project):
    build(load_project(project.root))
    project.write("changelog/2026-01-01.mdx", "## v0.0.1\n\nNo header.\n")
    report = check(load_project(project.root))
    assert [p.rule for p in report.findings] == ["changelog-header"]
    assert report.findings[0].location is not None
    assert report.findings[0].location.path == "changelog/2026-01-01.mdx"
    assert not report.in_sync
