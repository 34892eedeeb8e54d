"""``check`` in a fresh clone (no ``.docgen-cache/``): what docs CI runs.

There is no cache to look up and ``check`` stores none, so the plan records no reads,
and an output whose file on disk already holds its text keeps only its digest (the
forked copy that renders half the pages then sends back little). These tests hold that
plan to what a complete plan says, output for output, and ``check`` to the report it
printed before, drift, blame and refusals included.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest
from conftest import Project

from docgen.cache import FOLDER, cached_plan
from docgen.config import load_project
from docgen.io.reads import Inside
from docgen.outputs import Output, on_disk
from docgen.plan import plan

SETUP = "docs/inference/set-up-vllm.mdx"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def drift(example: Project) -> None:
    """One page edited by hand, and a registry edit that changes other pages."""
    example.edit(SETUP, "vLLM", "VLLM")
    example.edit("profiles.yaml", "max-num-seqs: 4", "max-num-seqs: 5")


def test_a_fresh_check_keeps_the_text_of_drifted_outputs_only(example: Project) -> None:
    drift(example)
    project = load_project(example.root)
    fresh, digest = cached_plan(project, stored=False)
    full = plan(project)
    assert (digest, fresh.record, fresh.complete) == ("", None, False)
    assert [o.path for o in fresh.outputs] == [o.path for o in full.outputs]
    # What the pages give is slimmed where they render; the navigation, the export and
    # the changelog overview are made once, after them, and keep their text.
    made_after = {"docs/index.yml", project.config.export, "changelog/overview.mdx"}
    drifted = set()
    for slim, whole in zip(fresh.outputs, full.outputs, strict=True):
        on_file = (example.root / whole.path).read_text("utf-8")
        if whole.path in made_after:
            assert (slim.text, slim.digest) == (whole.text, "")
        elif on_file == whole.text:
            assert (slim.text, slim.digest, slim.verified) == ("", sha(whole.text), True)
        else:
            drifted.add(whole.path)
            assert (slim.text, slim.digest, slim.sources) == (whole.text, "", whole.sources)
            assert not slim.verified
    assert made_after <= {o.path for o in full.outputs}
    assert SETUP in drifted
    assert len(drifted) > 1  # the registry edit reached other pages
    assert len(drifted) < len(full.outputs)


def test_a_slim_output_keeps_its_frontmatter_for_the_navigation(example: Project) -> None:
    full = plan(load_project(example.root))
    page = next(o for o in full.outputs if o.path.startswith("docs/profiles/"))
    slim = page.digest_only()
    assert page.text.startswith("---\n")
    assert slim.head == page.text.split("\n---", 1)[0]
    assert "title:" in slim.head
    assert (slim.text, slim.sources, slim.digest, slim.verified) == ("", (), sha(page.text), False)
    assert slim.digest_only() is slim
    assert page.digest_only(verified=True).verified


def test_a_fresh_check_prints_what_a_check_from_a_complete_plan_prints(
    example: Project, run, monkeypatch: pytest.MonkeyPatch
) -> None:
    drift(example)
    fresh = run(example, "check")
    assert not (example.root / FOLDER).exists()  # check stores nothing
    # The same check from a complete plan: cached_plan as it was before fresh clones.
    import docgen.cache

    monkeypatch.setattr(
        docgen.cache,
        "cached_plan",
        lambda project, stored=True, stage=None, on_registry=None: (
            plan(project, on_registry=on_registry),
            "",
        ),
    )
    whole = run(example, "check")
    assert fresh.exit_code == whole.exit_code == 1
    assert (fresh.stdout, fresh.stderr) == (whole.stdout, whole.stderr)
    assert "\n-" in fresh.output and "VLLM" in fresh.output and "max-num-seqs" in fresh.output


def test_a_fresh_check_of_a_tree_in_sync_passes_and_stores_nothing(example: Project, run) -> None:
    built = run(example, "build")
    assert built.exit_code == 0
    for cache in (example.root / FOLDER).iterdir():
        cache.unlink()
    (example.root / FOLDER).rmdir()
    outcome = run(example, "check")
    assert outcome.exit_code == 0, outcome.output
    assert "match the registry" in outcome.output
    assert not (example.root / FOLDER).exists()


def test_a_file_that_leads_outside_the_root_is_never_taken_as_on_disk(
    example: Project, tmp_path: Path
) -> None:
    page = plan(load_project(example.root)).by_path()[SETUP]
    outside = tmp_path / "outside.mdx"
    outside.write_text(page.text, "utf-8")
    target = example.root / SETUP
    root = Inside(example.root)
    assert on_disk(root, page)
    target.unlink()
    assert not on_disk(root, page)
    os.symlink(outside, target)
    assert not on_disk(root, page)  # the same text, but outside the project
    missing = Output("docs/inference/none.mdx", page.text, page.origin)
    assert not on_disk(root, missing)


def test_a_fresh_check_refuses_a_page_linked_outside_as_a_complete_plan_does(
    example: Project, run, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.mdx"
    outside.write_text((example.root / SETUP).read_text("utf-8"), "utf-8")
    (example.root / SETUP).unlink()
    os.symlink(outside, example.root / SETUP)
    before = outside.read_bytes()
    outcome = run(example, "check")
    assert outcome.exit_code == 2
    said = f"{SETUP}:1:1: error: it leads outside the project root (through a symbolic link)"
    assert said in outcome.output
    assert "refusing to write" not in outcome.output  # a check writes nothing
    assert outside.read_bytes() == before


def test_a_check_on_a_machine_without_a_key_writes_nothing_anywhere(
    example: Project, run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Docs CI: neither the clone nor the user's cache folder gets a file (no cache, no
    key, no compiled template). Once a build made the key, a check that renders keeps the
    templates' compiled code there, and only there."""
    home = tmp_path / "xdg"
    home.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.delenv("DOCGEN_NO_TEMPLATE_CACHE", raising=False)
    before = example.snapshot()
    drift(example)
    edited = example.snapshot()
    assert run(example, "check").exit_code == 1
    assert example.snapshot() == edited and not any(home.iterdir())
    assert edited != before
    assert run(example, "build").exit_code == 0
    assert (home / "docgen" / "cache-key").is_file()
    shutil.rmtree(example.root / FOLDER)  # as in a fresh clone: the pages are rendered
    built = example.snapshot()
    assert run(example, "check").exit_code == 0
    assert example.snapshot() == built and any((home / "docgen" / "templates").iterdir())


def test_a_check_that_renders_beside_an_unusable_cache_holds_only_drifted_texts(
    example: Project,
) -> None:
    """A clone that has ``.docgen-cache/`` but no plan or record this machine can use
    renders every page, as a fresh clone does: what it finds on disk as it is stays a
    digest (so no process holds every page's text), and only a drifted file's text on
    disk is kept for its report."""
    from docgen.changes import CHANGED, UNCHANGED
    from docgen.verbs.build import check

    (example.root / FOLDER).mkdir()
    drift(example)
    report = check(load_project(example.root))
    same = [c for c in report.changes if c.status == UNCHANGED]
    changed = [c for c in report.changes if c.status == CHANGED]
    assert same and changed
    assert all(c.old is None for c in same)
    made_after = {"docs/index.yml", "docs/_build/registry.json", "changelog/overview.mdx"}
    rendered = [c.output for c in same if c.path not in made_after]
    assert rendered and all(o.verified and not o.text for o in rendered)
    assert all(c.old and c.output.text and c.old != c.output.text for c in changed)
    assert SETUP in {c.path for c in changed}
