"""Two outputs with one path are a located error (exit 2, nothing written), never a build
that writes one file twice and a `check` that fails ever after."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import Outcome, Project

Run = Callable[..., Outcome]
SHARED = "Run `$$acme status`.\n"  # a page with a variant per agent


def refused(project: Project, run: Run, expected: str) -> None:
    before = project.snapshot()
    for command in ("build", "check"):
        result = run(project, command)
        assert (result.exit_code, result.stdout, result.stderr) == (2, "", expected + "\n")
    assert project.snapshot() == before


def test_a_variant_pattern_without_the_agent_is_refused(make_project, run: Run) -> None:
    project = make_project(
        templates={"setup.mdx.j2": SHARED},
        files={"pyproject.toml": '[tool.docgen]\nvariant_pattern = "{dir}/{stem}.mdx"\n'},
    )
    refused(
        project,
        run,
        "pyproject.toml:2:1: error: the 'alpha' and 'beta' variants of docs/setup.mdx would be "
        "written to one file, docs/_build/agent-variants/setup.mdx; change the setting "
        "'variant_pattern' so each has a path of its own",
    )


def test_an_export_at_a_pages_path_is_refused(make_project, run: Run) -> None:
    project = make_project(files={"docgen.toml": 'export = "docs/models.mdx"\n'})
    refused(
        project,
        run,
        "docgen.toml:1:1: error: two outputs would be written to docs/models.mdx: "
        "templates/models.mdx.j2 and the export; change the setting 'export' so each has a "
        "path of its own",
    )


def test_an_export_over_a_hand_written_page_is_refused(make_project, run: Run) -> None:
    project = make_project(
        files={"docs/hand.mdx": "# Mine\n", "docgen.toml": '\nexport = "docs/hand.mdx"\n'}
    )
    refused(
        project,
        run,
        "docgen.toml:2:1: error: two outputs would be written to docs/hand.mdx: the "
        "hand-written page docs/hand.mdx and the export; change the setting 'export' so each "
        "has a path of its own",
    )


def test_variants_in_the_docs_folder_over_their_page_are_refused(make_project, run: Run) -> None:
    project = make_project(
        templates={"setup.mdx.j2": SHARED},
        files={"docgen.toml": 'variants = "docs"\nvariant_pattern = "{dir}/{stem}.mdx"\n'},
    )
    refused(
        project,
        run,
        "docgen.toml:2:1: error: two outputs would be written to docs/setup.mdx: "
        "templates/setup.mdx.j2 and the 'alpha' and 'beta' variants of docs/setup.mdx; change "
        "the setting 'variant_pattern' so each has a path of its own",
    )


def test_two_templates_of_one_page_are_refused_at_the_template(make_project, run: Run) -> None:
    project = make_project(
        templates={
            "profiles/[profile].mdx.j2": "Profile {{ profile.id }}.\n",
            "profiles/vllm.box.tiny.mdx.j2": "Hand-picked.\n",
        }
    )
    refused(
        project,
        run,
        "templates/profiles/vllm.box.tiny.mdx.j2: error: two outputs would be written to "
        "docs/profiles/vllm.box.tiny.mdx: templates/profiles/[profile].mdx.j2 and "
        "templates/profiles/vllm.box.tiny.mdx.j2; rename one of them",
    )


@pytest.mark.parametrize("pattern", ["{dir}/{stem}.{agent}.mdx", "{stem}.{agent}.generated.mdx"])
def test_patterns_that_keep_outputs_apart_still_build(make_project, run: Run, pattern) -> None:
    project = make_project(
        templates={"setup.mdx.j2": SHARED},
        files={"docgen.toml": f'variant_pattern = "{pattern}"\n'},
    )
    assert run(project, "build").exit_code == 0
    assert run(project, "check").exit_code == 0


def test_ids_that_run_together_in_a_variant_name_blame_the_registry(make_project, run: Run):
    """Agent ``x.alpha`` of page ``vllm.box.tiny`` and agent ``alpha`` of page
    ``vllm.box.tiny.x`` share one variant file under the default pattern: the registry's
    ids are the cause (no setting is written anywhere to blame)."""
    from conftest import MINIMAL_REGISTRY

    second = MINIMAL_REGISTRY.split("profiles:\n", 1)[1].replace(
        "vllm.box.tiny:", "vllm.box.tiny.x:"
    )
    registry = MINIMAL_REGISTRY.replace(
        "  - id: beta\n", "  - id: x.alpha\n    title: X\n    cli: acme-x\n  - id: beta\n"
    ).replace("    default: true\n    image: img", "    image: img", 1) + second.replace(
        "    default: true\n", "", 1
    )
    project = make_project(registry=registry, templates={"profiles/[profile].mdx.j2": SHARED})
    result = run(project, "build")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(  # at the agent whose variant came second
        "profiles.yaml:12:5: error: two outputs would be written to "
        "docs/_build/agent-variants/profiles/vllm.box.tiny.x.alpha.generated.mdx: the 'x.alpha' "
        "variant of docs/profiles/vllm.box.tiny.mdx and the 'alpha' variant of "
        "docs/profiles/vllm.box.tiny.x.mdx; their ids run together in the file name: rename "
        "the agent 'alpha' or the page, or set 'variant_pattern'"
    ), result.stderr


@pytest.mark.parametrize(
    ("profile", "agent", "where", "fix"),
    [
        ("vllm." + "p" * 195, "b" * 45, "33:3", "profile"),  # the page fits, a variant not
        ("vllm." + "p" * 55, "b" * 200, "16:5", "agent"),
    ],
)
def test_a_file_name_too_long_for_a_file_system_is_refused_at_the_id(
    make_project, run: Run, profile: str, agent: str, where: str, fix: str
) -> None:
    """A name over 255 bytes cannot be written or read: the registry id that makes it so
    is located, where the file system would only say 'File name too long'."""
    from conftest import MINIMAL_REGISTRY

    registry = MINIMAL_REGISTRY.replace("vllm.box.tiny:", f"{profile}:").replace(
        "  - id: beta\n", f"  - id: {agent}\n"
    )
    project = make_project(registry=registry, templates={"profiles/[profile].mdx.j2": SHARED})
    before = project.snapshot()
    for command in ("build", "check"):
        result = run(project, command)
        assert result.exit_code == 2, result.output
        first = result.stderr.splitlines()[0]
        assert first.startswith(f"profiles.yaml:{where}: error: the file name of the "), first
        assert first.endswith(f"which no file system holds: shorten this {fix}'s id"), first
        assert "File name too long" not in result.stderr
    assert project.snapshot() == before


def test_a_per_profile_template_whose_own_name_is_too_long_is_blamed_not_the_profile(
    make_project, run: Run
) -> None:
    """A 255-byte template name makes its per-profile page's name too long with any
    profile id, here a short one: the page is located at the template, whose name is the
    one to shorten, not at the profile whose id the page's name holds."""
    template = "[profile]-" + "x" * 238 + ".mdx.j2"
    assert len(template.encode()) == 255
    project = make_project(templates={f"profiles/{template}": "Same for every agent.\n"})
    before = project.snapshot()
    for command in ("build", "check"):
        result = run(project, command)
        assert result.exit_code == 2, result.output
        assert result.stderr.splitlines()[0] == (
            f"templates/profiles/{template}: error: the file name of templates/profiles/"
            f"{template} would be 256 bytes, longer than 255, which no file system holds: "
            "shorten its name"
        )
    assert project.snapshot() == before


@pytest.mark.parametrize(("agent", "code"), [("b" * 40, 0), ("b" * 41, 2)])
def test_a_file_name_of_exactly_255_bytes_is_written(
    make_project, run: Run, agent: str, code: int
) -> None:
    """255 bytes is what a file system holds: a variant name of that size
    (``<profile id>.<agent id>.generated.mdx``) is written, one byte more is refused."""
    from conftest import MINIMAL_REGISTRY

    profile = "vllm." + "p" * 195  # the longest profile id
    registry = MINIMAL_REGISTRY.replace("vllm.box.tiny:", f"{profile}:").replace(
        "  - id: beta\n", f"  - id: {agent}\n"
    )
    project = make_project(registry=registry, templates={"profiles/[profile].mdx.j2": SHARED})
    result = run(project, "build")
    assert result.exit_code == code, result.output
    variant = f"{profile}.{agent}.generated.mdx"
    assert len(variant.encode()) == 255 + len(agent) - 40
    assert any(p.name == variant for p in project.root.rglob("*.mdx")) == (code == 0)


def test_a_variant_over_a_hand_written_page_blames_the_variants_setting(
    make_project, run: Run
) -> None:
    """The setting is on line 1: blamed there, not at the agent (whose id is no fault)."""
    project = make_project(
        files={
            "docgen.toml": 'variants = "docs"\n',
            "docs/guide.mdx": f'---\ntitle: "G"\n---\n\n{SHARED}',
            "docs/guide.alpha.generated.mdx": '---\ntitle: "Mine"\n---\n\nHand.\n',
        }
    )
    refused(
        project,
        run,
        "docgen.toml:1:1: error: two outputs would be written to docs/guide.alpha.generated.mdx: "
        "the hand-written page docs/guide.alpha.generated.mdx and the 'alpha' variant of "
        "docs/guide.mdx; change the setting 'variants' so each has a path of its own",
    )


def test_a_template_page_at_a_per_profile_pages_path_blames_the_templates_first(
    make_project, run: Run
) -> None:
    """Two templates make one page, and the export lands there too: renaming a template is
    the fix, not moving the export."""
    per_profile = '---\ntitle: "{{ profile.id }}"\n---\n\nText.\n'
    project = make_project(
        templates={
            "inference/[profile].mdx.j2": per_profile,
            "inference/vllm.box.tiny.mdx.j2": '---\ntitle: "T"\n---\n\nText.\n',
        },
        files={"docgen.toml": 'export = "docs/inference/vllm.box.tiny.mdx"\n'},
    )
    result = run(project, "build")
    assert result.exit_code == 2
    assert result.stderr.startswith("templates/inference/"), result.stderr
    assert "rename one of them" in result.stderr and "setting 'export'" not in result.stderr


def test_a_hand_written_overview_where_the_release_overview_goes_says_how_to_keep_it(
    make_project, run: Run
) -> None:
    """NemoClaw keeps its changelog overview by hand, in the changelog folder."""
    page = "---\ntitle: Release Notes\n---\n\nEvery release.\n"
    entry = (
        "{/*\n * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.\n"
        " * SPDX-License-Identifier: Apache-2.0\n */}\n\n## v0.1.0\n\nAcme v0.1.0 is the first.\n"
    )
    project = make_project(
        files={
            "docs/changelog/overview.mdx": page,
            "docs/changelog/2026-01-01.mdx": entry,
            "docgen.toml": 'changelog = "docs/changelog"\n',
        }
    )
    result = run(project, "build")
    assert result.exit_code == 2
    assert result.stderr == (
        "docgen.toml:1:1: error: two outputs would be written to docs/changelog/overview.mdx: "
        "the hand-written page docs/changelog/overview.mdx and the release overview; change "
        "the setting 'changelog' so each has a path of its own, or set overview = \"none\" "
        "to keep the hand-written one\n"
    )
    project.write("docgen.toml", 'changelog = "docs/changelog"\noverview = "none"\n')
    assert run(project, "build").exit_code == 0
    assert project.read("docs/changelog/overview.mdx") == page
