"""Paths stay inside the project root: ids, settings, symbolic links and --registry.

Every test snapshots the whole temporary folder (the project root and a sibling
folder ``outside``) and proves that a refused build changed nothing in either.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from conftest import MINIMAL_REGISTRY, MINIMAL_TEMPLATE

ID_RULE = (
    "ids use lowercase letters, digits, '.', '_' and '-', start with a letter or digit, "
    "and contain no '..'"
)
PROFILE_PAGE = "---\ntitle: x\n---\n\n{{ profile.id | mdx_code }}\n"
TEMPLATES = {"models.mdx.j2": MINIMAL_TEMPLATE, "profiles/[profile].mdx.j2": PROFILE_PAGE}
SECRET = "hunter2"


def everything(folder: Path) -> dict[str, str]:
    """Every file and symbolic link under ``folder`` (links by target, files by content)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_symlink():
            out[rel] = f"-> {os.readlink(path)}"
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the project root, with a file that must never be read or written."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.mdx").write_text(f"## {SECRET}\n\n{SECRET}: yes\n", "utf-8")
    return folder


def refused(run, project, tmp_path: Path, *args: str) -> list[str]:
    """Run a command that must fail with exit 2 and change nothing anywhere."""
    before = everything(tmp_path)
    result = run(project, *args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert everything(tmp_path) == before
    return result.stderr.splitlines()


# -- registry ids never become paths outside the root --------------------------------

BAD_IDS = ["../escape", "/abs/olute", "dir/name", "x/../../y", "..", "C:\\x"]


@pytest.mark.parametrize("bad", BAD_IDS)
def test_profile_ids_that_are_paths_are_rejected(make_project, run, tmp_path, outside, bad):
    registry = MINIMAL_REGISTRY.replace("  vllm.box.tiny:", f"  {bad!r}:".replace("'", '"'))
    project = make_project(registry=registry, templates=TEMPLATES)
    assert refused(run, project, tmp_path, "build") == [
        f"profiles.yaml:33:3: error: invalid id '{bad}' in profiles: {ID_RULE}"
    ]


@pytest.mark.parametrize("bad", BAD_IDS)
def test_agent_ids_that_are_paths_are_rejected(make_project, run, tmp_path, outside, bad):
    registry = MINIMAL_REGISTRY.replace("  - id: alpha", f"  - id: {bad!r}".replace("'", '"'))
    project = make_project(registry=registry, templates=TEMPLATES)
    assert refused(run, project, tmp_path, "build") == [
        f"profiles.yaml:12:9: error: agents.[0].id {bad!r} is malformed: {ID_RULE}"
    ]


# -- symbolic links ------------------------------------------------------------------

LEADS_OUT = (
    "it leads outside the project root (through a symbolic link), where docgen neither reads "
    "nor writes: replace the link with a file or folder inside the root"
)


@pytest.mark.parametrize("command", ["build", "check"])
def test_output_folder_linked_outside_the_root_is_refused(
    make_project, run, tmp_path, outside, command
):
    project = make_project(templates=TEMPLATES)
    (project.root / "docs").mkdir()
    (project.root / "docs" / "profiles").symlink_to(outside, target_is_directory=True)
    page = "docs/profiles/vllm.box.tiny.mdx"
    assert refused(run, project, tmp_path, command) == [f"{page}:1:1: error: {LEADS_OUT}"]


def test_output_file_linked_outside_the_root_is_refused(make_project, run, tmp_path, outside):
    project = make_project(templates=TEMPLATES)
    (project.root / "docs").mkdir()
    (project.root / "docs" / "models.mdx").symlink_to(outside / "secret.mdx")
    assert refused(run, project, tmp_path, "build") == [f"docs/models.mdx:1:1: error: {LEADS_OUT}"]


def test_variants_folder_linked_outside_refuses_every_variant(make_project, run, tmp_path, outside):
    project = make_project(templates=TEMPLATES)
    (project.root / "docs").mkdir()
    (project.root / "docs" / "_build").symlink_to(outside, target_is_directory=True)
    lines = refused(run, project, tmp_path, "build")
    expected = [
        "docs/_build/agent-variants/models.alpha.generated.mdx",
        "docs/_build/agent-variants/models.beta.generated.mdx",
        "docs/_build/agent-variants/profiles/vllm.box.tiny.alpha.generated.mdx",
        "docs/_build/agent-variants/profiles/vllm.box.tiny.beta.generated.mdx",
        "docs/_build/registry.json",
    ]
    assert lines == [f"{p}:1:1: error: {LEADS_OUT}" for p in expected]


def test_a_link_that_stays_inside_the_root_is_followed(make_project, run):
    project = make_project(templates=TEMPLATES)
    (project.root / "generated").mkdir()
    (project.root / "docs").mkdir()
    (project.root / "docs" / "profiles").symlink_to("../generated", target_is_directory=True)
    assert run(project, "build").exit_code == 0
    assert (project.root / "generated" / "vllm.box.tiny.mdx").is_file()
    assert run(project, "check").exit_code == 0


def test_hand_written_page_linked_outside_is_never_read(make_project, run, tmp_path, outside):
    project = make_project(templates=TEMPLATES)
    (project.root / "docs").mkdir()
    (project.root / "docs" / "leak.mdx").symlink_to(outside / "secret.mdx")
    before = everything(outside)
    result = run(project, "build")
    assert result.exit_code == 0, result.output
    docs = project.root / "docs"
    generated = [p for p in docs.rglob("*") if p.is_file() and not p.is_symlink()]
    assert generated and not any(SECRET in p.read_text("utf-8") for p in generated)
    assert everything(outside) == before


def test_hand_written_pages_in_a_folder_linked_outside_are_never_read(
    make_project, run, tmp_path, outside
):
    (outside / "secret.mdx").write_text(f"Run `$$acme {SECRET}`.\n", "utf-8")
    project = make_project(templates=TEMPLATES)
    (project.root / "docs").mkdir()
    (project.root / "docs" / "linked").symlink_to(outside, target_is_directory=True)
    (project.root / "docs" / "own.mdx").write_text("Run `$$acme status`.\n", "utf-8")
    before = everything(outside)
    result = run(project, "build")
    assert result.exit_code == 0, result.output
    variants = project.root / "docs/_build/agent-variants"
    assert sorted(p.name for p in variants.glob("own.*")) == [
        "own.alpha.generated.mdx",
        "own.beta.generated.mdx",
    ]
    assert not any(SECRET in p.read_text("utf-8") for p in variants.rglob("*.mdx"))
    assert everything(outside) == before


def test_template_include_cannot_climb_out_of_the_templates(make_project, run, tmp_path, outside):
    include = '{% include "../../outside/secret.mdx" %}\n'
    project = make_project(templates={**TEMPLATES, "leak.mdx.j2": include})
    lines = refused(run, project, tmp_path, "build")
    assert lines == ["templates/leak.mdx.j2:1: error: template not found: ../../outside/secret.mdx"]


def test_changelog_entry_linked_outside_is_not_read(make_project, run, tmp_path, outside):
    project = make_project(templates=TEMPLATES)
    (project.root / "changelog").mkdir()
    (project.root / "changelog" / "2026-01-01.mdx").symlink_to(outside / "secret.mdx")
    result = run(project, "check")
    assert SECRET not in result.output
    assert result.exit_code == 2
    assert result.stderr.startswith("changelog/2026-01-01.mdx:")


def test_registry_linked_outside_is_not_read(make_project, run, tmp_path, outside):
    (outside / "registry.yaml").write_text(f"schema: {SECRET}\n", "utf-8")
    project = make_project(registry=None, templates=TEMPLATES)
    (project.root / "profiles.yaml").symlink_to(outside / "registry.yaml")
    lines = refused(run, project, tmp_path, "validate")
    assert lines == [
        "profiles.yaml: error: the registry is a symbolic link that leaves the project root; "
        "docgen reads only files inside it"
    ]


# -- settings and --registry ---------------------------------------------------------

BAD_SETTINGS = [
    ("docs", "/tmp/docs"),
    ("templates", "../templates"),
    ("variants", "docs/../../variants"),
    ("export", "/etc/registry.json"),
    ("changelog", ".."),
    ("fragments", "notes/../../../x"),
    ("registry", "../profiles.yaml"),
    ("docs", ""),
]


@pytest.mark.parametrize(("key", "value"), BAD_SETTINGS)
def test_setting_paths_outside_the_root_are_rejected_in_docgen_toml(
    make_project, run, tmp_path, key, value
):
    project = make_project(files={"docgen.toml": f'# settings\n{key} = "{value}"\n'})
    assert refused(run, project, tmp_path, "build") == [
        f"docgen.toml:2:1: error: path '{value}' must be relative and stay inside the project"
    ]


@pytest.mark.parametrize(("key", "value"), BAD_SETTINGS[:3])
def test_setting_paths_outside_the_root_are_rejected_in_pyproject(
    make_project, run, tmp_path, key, value
):
    pyproject = f'[project]\nname = "x"\n\n[tool.docgen]\n{key} = "{value}"\n'
    project = make_project(files={"pyproject.toml": pyproject})
    assert refused(run, project, tmp_path, "build") == [
        f"pyproject.toml:5:1: error: path '{value}' must be relative and stay inside the project"
    ]


def test_variant_pattern_leaving_the_root_is_rejected(make_project, run, tmp_path):
    pattern = "../../../../{stem}.{agent}.mdx"
    project = make_project(files={"docgen.toml": f'variant_pattern = "{pattern}"\n'})
    assert refused(run, project, tmp_path, "build") == [
        "docgen.toml:1:1: error: path '../../../../s.a.mdx' must be relative and stay inside "
        "the project"
    ]


@pytest.mark.parametrize("command", ["build", "check", "validate"])
def test_registry_option_outside_the_root_is_rejected(make_project, run, tmp_path, command):
    project = make_project()
    (tmp_path / "x.yaml").write_text(MINIMAL_REGISTRY, "utf-8")
    relative = refused(run, project, tmp_path, "--registry", "../x.yaml", command)
    assert relative == [
        "../x.yaml: error: path '../x.yaml' must be relative and stay inside the project"
    ]
    absolute = str(tmp_path / "x.yaml")
    assert refused(run, project, tmp_path, "--registry", absolute, command) == [
        f"{absolute}: error: the registry must lie inside the project root"
    ]


def test_registry_option_inside_the_root_is_accepted(make_project, run):
    project = make_project(files={"registries/main.yaml": MINIMAL_REGISTRY})
    (project.root / "profiles.yaml").unlink()
    inside = str(project.root / "registries" / "main.yaml")
    for registry in ("registries/main.yaml", inside):
        result = run(project, "--registry", registry, "validate")
        assert result.exit_code == 0, result.output
