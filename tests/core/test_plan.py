"""``plan()`` on small projects: what it renders, which pages it reads, one walk per command."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from conftest import Project

from docgen import cache, sync
from docgen.config import load_project
from docgen.errors import PageError
from docgen.io import files
from docgen.plan import plan
from docgen.render.syntax import notice, owned

VARIANTS = "docs/_build/agent-variants"
REGIONS = "Intro.\n\n{/* docgen:begin models-table */}\n{/* docgen:end */}\n"


def test_a_template_page_with_its_variants_and_the_export(make_project: Callable[..., Project]):
    the_plan = plan(load_project(make_project().root))
    assert [(o.path, o.kind) for o in the_plan.outputs] == [
        ("docs/models.mdx", "page"),
        (f"{VARIANTS}/models.alpha.generated.mdx", "variant"),
        (f"{VARIANTS}/models.beta.generated.mdx", "variant"),
        ("docs/_build/registry.json", "export"),
    ]
    page = the_plan.by_path()["docs/models.mdx"]
    assert page.text.startswith('---\ntitle: "Models"\n---\n\n{/* This file is generated')
    assert owned(page.text) and page.origin == "templates/models.mdx.j2"
    assert page.sources and the_plan.complete
    assert the_plan.pages == (("docs/models.mdx", ("alpha", "beta")),)
    assert the_plan.texts == ()


def test_hand_written_pages_are_published_with_their_text_kept_or_filled(
    make_project: Callable[..., Project],
):
    project = make_project(
        templates={},
        files={
            "docs/plain.mdx": "Plain.\n",
            "docs/regions.mdx": REGIONS,
            "docs/shared.mdx": '---\nagent-variants: ["beta"]\n---\nFor Beta.\n',
            "docs/old.mdx": notice("templates/old.mdx.j2", "profiles.yaml") + "\nStale.\n",
        },
    )
    the_plan = plan(load_project(project.root))
    assert the_plan.pages == (
        ("docs/plain.mdx", ("alpha", "beta")),
        ("docs/regions.mdx", ("alpha", "beta")),
        ("docs/shared.mdx", ("beta",)),
    )
    assert the_plan.texts == (
        ("docs/plain.mdx", "Plain.\n"),
        ("docs/shared.mdx", '---\nagent-variants: ["beta"]\n---\nFor Beta.\n'),
    )
    region = the_plan.by_path()["docs/regions.mdx"]
    assert region.kind == "region" and "| Slug | Hugging Face model |" in region.text
    assert "docs/old.mdx" not in the_plan.by_path()


def test_only_pages_that_really_lie_in_the_docs_folder_are_read(
    make_project: Callable[..., Project], tmp_path
):
    outside = tmp_path / "outside.mdx"
    outside.write_text("Run `$$acme x`.\n", "utf-8")
    project = make_project(
        templates={},
        files={f"{VARIANTS}/mine.mdx": "Run `$$acme y`.\n", "docs/own.mdx": "Own.\n"},
    )
    (project.root / "docs/link.mdx").symlink_to(outside)
    os.mkfifo(project.root / "docs/pipe.mdx")  # opening it would wait for a writer forever
    the_plan = plan(load_project(project.root))
    assert [path for path, _ in the_plan.pages] == ["docs/own.mdx"]


def test_invalid_utf8_in_a_hand_written_page_is_located(make_project: Callable[..., Project]):
    project = make_project(templates={})
    (project.root / "docs").mkdir()
    (project.root / "docs/p.mdx").write_bytes(b"---\ntitle: x\n---\n\xff\n")
    with pytest.raises(PageError) as info:
        plan(load_project(project.root))
    assert str(info.value) == "docs/p.mdx:4:1: error: invalid UTF-8 byte 0xff in the page"


@pytest.mark.parametrize("stored", [False, True], ids=["cold", "cached"])
def test_one_command_walks_the_docs_folder_once(
    make_project: Callable[..., Project], run, monkeypatch: pytest.MonkeyPatch, stored: bool
):
    project = make_project(files={"docs/hand.mdx": "Run `$$acme status`.\n"})
    if stored:
        assert run(project, "build").exit_code == 0
    walked: list[str] = []
    walk = files._walk
    monkeypatch.setattr(files, "_walk", lambda p, top: walked.append(top) or walk(p, top))
    loaded = load_project(project.root)
    the_plan, _digest = cache.cached_plan(loaded)
    assert the_plan.complete is not stored
    report = sync.compare(loaded, the_plan)
    assert report.in_sync is stored
    if not stored:
        plan(loaded)  # as a build that re-plans after a cache hit found drift
    folders = [str(loaded.root / name) for name in ("changelog", "docs", "templates")]
    assert sorted(walked) == folders  # each folder once
