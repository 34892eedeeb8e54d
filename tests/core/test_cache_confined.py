"""The cache key hashes exactly what rendering reads, so a warm cache never hides a change or
an error: each case is run with the cache a build left and again without it, and both runs
must give the same verdict and output."""

from __future__ import annotations

import shutil
from collections.abc import Callable

import pytest
from conftest import MINIMAL_TEMPLATE, Outcome, Project

from docgen import cache

Run = Callable[..., Outcome]
INCLUDE = MINIMAL_TEMPLATE + '{% include "_inc/p.j2" %}\n'


def warm_and_cold(project: Project, run: Run, *args: str) -> Outcome:
    """``args`` run with the build's cache, then without it: the same outcome."""
    warm = run(project, *args)
    shutil.rmtree(project.root / cache.FOLDER, ignore_errors=True)
    cold = run(project, *args)
    assert (warm.exit_code, warm.output) == (cold.exit_code, cold.output)
    return cold


@pytest.fixture
def linked(make_project: Callable[..., Project], run: Run) -> Project:
    """A project whose page includes a partial through a linked folder inside the root."""
    project = make_project(templates={"models.mdx.j2": INCLUDE})
    project.write("shared/p.j2", "PARTIAL-V1\n")
    (project.root / "templates/_inc").symlink_to("../shared", target_is_directory=True)
    assert run(project, "build").exit_code == 0
    assert "PARTIAL-V1" in project.read("docs/models.mdx")
    return project


def test_a_partial_in_a_linked_folder_inside_the_root_is_an_input(linked: Project, run: Run):
    linked.write("shared/p.j2", "PARTIAL-V2\n")
    done = warm_and_cold(linked, run, "check")
    assert done.exit_code == 1 and "+PARTIAL-V2" in done.stdout


def test_a_linked_folder_led_elsewhere_is_an_input(linked: Project, run: Run):
    linked.write("other/p.j2", "OTHER\n")
    (linked.root / "templates/_inc").unlink()
    (linked.root / "templates/_inc").symlink_to("../other", target_is_directory=True)
    done = warm_and_cold(linked, run, "check")
    assert done.exit_code == 1 and "+OTHER" in done.stdout


@pytest.mark.parametrize("folder", ["templates/dir.mdx.j2", "changelog/2025-01-05.mdx"])
def test_a_folder_where_a_file_is_expected_is_an_error_with_a_warm_cache_too(
    make_project: Callable[..., Project], run: Run, folder: str
) -> None:
    project = make_project()
    assert run(project, "build").exit_code == 0
    (project.root / folder).mkdir(parents=True)
    done = warm_and_cold(project, run, "build")
    assert done.exit_code == 2, done.output
    assert done.stderr.startswith(f"{folder}: error: ")


def test_the_key_reads_nothing_through_a_template_folder_linked_outside_the_root(
    make_project: Callable[..., Project], tmp_path
) -> None:
    """A linked folder that leads out of the root is a marker in the key (where it leads),
    never read: a file changing out there leaves the key as it was."""
    from docgen.config import load_project
    from docgen.inputs import key

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "p.j2").write_text("V1\n", "utf-8")
    project = make_project()
    (project.root / "templates/_inc").symlink_to(outside, target_is_directory=True)
    before = key(load_project(project.root))
    (outside / "p.j2").write_text("V2\n", "utf-8")
    assert key(load_project(project.root)) == before
