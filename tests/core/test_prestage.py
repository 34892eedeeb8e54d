"""A build stages each page's text as soon as it is rendered (``docgen.prestage``): no
process holds every page's text, the tree written is the one a build holding every text
writes, and a failed build leaves nothing behind."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import Project, staging_on_another_device

from docgen import cache, inputs
from docgen.config import load_project
from docgen.errors import OwnershipError
from docgen.io import staging, writes
from docgen.io.writes import STAGING, TMP_SUFFIX, Write
from docgen.outputs import Output
from docgen.prestage import Prestage

OWN = ".docgen-cache"
EXPORT = "docs/_build/registry.json"


def _files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` but docgen's own folder, by content."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and OWN not in p.relative_to(root).parts
    }


def _edited(project: Project) -> None:
    """Inputs that change pages, variants and the export, and add a page in a new folder."""
    project.edit("profiles.yaml", "max-num-seqs: 4\n", "max-num-seqs: 6\n")
    project.write(
        "templates/fleet/hosts.mdx.j2", '---\ntitle: "Hosts"\n---\n\n{{ models_table() }}\n'
    )


def _writes_seen(monkeypatch: pytest.MonkeyPatch) -> list[Write]:
    """Every write ``writes.apply`` is given from now on."""
    seen: list[Write] = []
    real = writes.Transaction.run

    def run(self: writes.Transaction, todo: Any, progress: Any) -> None:
        seen.extend(todo)
        real(self, todo, progress)

    monkeypatch.setattr(writes.Transaction, "run", run)
    return seen


def test_a_build_writes_each_page_from_where_it_was_staged_and_the_tree_is_the_same(
    example: Project, run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    holding = Project(tmp_path / "holding")
    shutil.copytree(example.root, holding.root)
    for project in (example, holding):
        assert run(project, "build").exit_code == 0
        _edited(project)
    seen = _writes_seen(monkeypatch)
    assert run(example, "build").exit_code == 0
    staged = {w.path for w in seen if w.staged is not None}
    held = {w.path for w in seen if w.staged is None and w.text is not None}
    assert "docs/fleet/hosts.mdx" in staged and "docs/inference/set-up-vllm.mdx" in staged
    assert held == {EXPORT}  # made once every page is rendered, written with the rest
    assert all(w.text == "" and f"/{OWN}/{STAGING}/" in (w.staged or "") for w in seen if w.staged)
    assert not (example.root / OWN / STAGING).exists()
    monkeypatch.setattr(Prestage, "open", classmethod(lambda cls, project: None))
    del seen[:]
    assert run(holding, "build").exit_code == 0
    assert {w.path for w in seen if w.text} == staged | held  # every text held until written
    assert _files(example.root) == _files(holding.root)
    assert run(example, "check").exit_code == 0


def test_a_build_that_fails_after_staging_leaves_the_tree_as_it_was(make_project, run) -> None:
    project = make_project()
    project.write("docs/models.mdx", "written by hand\n")  # where the build would write
    before = project.snapshot()
    outcome = run(project, "build")
    assert outcome.exit_code == 2
    assert "docs/models.mdx:1:1: error: written by hand" in outcome.output
    assert project.snapshot() == before
    assert not (project.root / OWN).exists()  # not even docgen's own folder is left


def test_a_hand_edit_after_a_build_that_found_its_pages_on_disk_is_still_drift(
    example: Project, run
) -> None:
    assert run(example, "build").exit_code == 0
    shutil.rmtree(example.root / OWN)
    assert run(example, "build").exit_code == 0  # renders again: every page is on disk
    project = load_project(example.root)
    stored = cache.load(project, inputs.key(project))
    assert stored is not None and stored.outputs
    assert not [o.path for o in stored.outputs if o.verified or o.staged]
    example.edit("docs/inference/set-up-vllm.mdx", "vllm serve", "vllm  serve")
    outcome = run(example, "check")
    assert outcome.exit_code == 1
    assert "docs/inference/set-up-vllm.mdx" in outcome.output


def test_a_staged_text_that_cannot_be_written_as_utf8_is_refused_and_nothing_staged(
    make_project,
) -> None:
    project = load_project(make_project().root)
    stage = Prestage.open(project)
    assert stage is not None
    with pytest.raises(OwnershipError) as caught:
        stage.output(Output("docs/late.mdx", "fine \u00e9 then \udc80 here\n", "t.j2"))
    assert str(caught.value.problems[0]).startswith("docs/late.mdx:1:1: error: cannot write")
    assert os.listdir(stage.folder) == []
    stage.close(failed=True)
    assert not (project.root / OWN).exists()


def test_a_text_staged_on_another_file_system_than_its_page_is_copied_beside_it(
    make_project, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = load_project(make_project().root)
    stage = Prestage.open(project)
    assert stage is not None
    page = stage.output(Output("docs/a.mdx", "new a\n", "t.j2"))
    assert page.staged.startswith(stage.folder) and page.text == ""
    staging_on_another_device(monkeypatch)
    (project.root / "docs").mkdir()
    writes.apply(project, [Write("docs/a.mdx", "", new=True, staged=page.staged)])
    assert (project.root / "docs/a.mdx").read_text("utf-8") == "new a\n"
    assert not os.path.exists(page.staged)
    assert not list(project.root.rglob(f"*{TMP_SUFFIX}"))
    stage.close()
    assert not (project.root / OWN / STAGING).exists()


def test_what_a_killed_build_staged_is_swept_before_the_next_one_stages(make_project) -> None:
    project = load_project(make_project().root)
    left = project.root / OWN / STAGING / f"1-1{TMP_SUFFIX}"
    left.parent.mkdir(parents=True)
    (project.root / OWN / ".gitignore").write_text("*\n", "utf-8")
    left.write_text("half a page", "utf-8")
    stage = Prestage.open(project)
    assert stage is not None and not left.exists()
    kept = stage.output(Output("docs/a.mdx", "a\n", "t.j2")).staged
    staging.sweep_temporaries(project, ["docs/a.mdx"], keep={kept})  # as writes.apply does
    assert os.path.exists(kept)
    stage.close()
    assert not os.path.exists(kept)


def test_an_output_known_only_by_its_digest_is_never_written_as_an_empty_file(
    make_project,
) -> None:
    """A plan output with neither its text nor a staged file cannot be written: the write
    stops (an internal error, also under ``python -O``) before touching anything."""
    from docgen.changes import NEW, Change, Report
    from docgen.sync import apply

    project = load_project(make_project().root)
    page = Output("docs/x.mdx", "text\n", "t.j2").digest_only()
    with pytest.raises(AssertionError, match="no text to write for docs/x.mdx"):
        apply(project, Report([Change("docs/x.mdx", NEW, page, None)]))
    assert not (project.root / "docs").exists()


def test_a_failed_staging_write_is_a_located_error_and_changes_nothing(
    example: Project, run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk (or a file size limit) while a page is staged: exit 2, said where."""
    assert run(example, "build").exit_code == 0
    _edited(example)
    before = _files(example.root)
    real = writes.write_new

    def full(path: str, data: Any, mode: Any) -> None:
        if staging.TMP_SUFFIX in path and STAGING in path:
            raise OSError(28, "No space left on device")
        real(path, data, mode)

    monkeypatch.setattr(writes, "write_new", full)
    result = run(example, "build")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("docs/")
    assert ": cannot write docs/" in result.stderr
    assert result.stderr.endswith(": No space left on device; no file was changed\n")
    assert _files(example.root) == before
