"""Which template files become pages, and where they go."""

from __future__ import annotations

from pathlib import Path

from docgen import config
from docgen.render.pages import PROFILE_SLOT, page_path, page_templates


def test_page_templates_are_every_template_outside_underscore_and_dot_folders(tmp_path: Path):
    project = config.Project(tmp_path, config.Config())
    assert page_templates(project) == []
    for name in (
        "models.mdx.j2",
        "guide/[profile].mdx.j2",
        "guide/setup.md.j2",
        "_partials/table.mdx.j2",
        "guide/_draft.mdx.j2",
        ".hidden/x.mdx.j2",
        "notes.txt",
    ):
        path = tmp_path / "templates" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x", "utf-8")
    assert page_templates(project) == [
        "guide/[profile].mdx.j2",
        "guide/setup.md.j2",
        "models.mdx.j2",
    ]
    assert PROFILE_SLOT == "[profile]"


def test_a_page_template_renders_into_the_docs_folder(tmp_path: Path):
    project = config.Project(tmp_path, config.Config(docs="site/docs"))
    assert page_path(project, "models.mdx.j2") == "site/docs/models.mdx"
    assert page_path(project, "guide/[profile].mdx.j2") == "site/docs/guide/[profile].mdx"


def test_the_worked_examples_pages_state_only_what_the_registry_holds(example, run):
    """An image without a digest, size or platform, another provider setting and a setup
    note that starts with a dot: no empty code span, no hard-coded setting, no lost dot."""
    example.edit(
        "profiles.yaml",
        "    digest: sha256:7be6c2f676c36059a494fe17254e69ae5c677535ba6191044e5fc8e42a91c773\n"
        "    compressed_bytes: 8928665752\n    platform: linux/amd64\n",
        "",
    )
    example.edit("profiles.yaml", "{NEMOCLAW_PROVIDER: install-vllm}", "{NEMOCLAW_PROVIDER: vllm}")
    example.edit("profiles.yaml", "setup: MTP off,", "setup: .NET client, MTP off,")
    assert run(example, "build", "-q").exit_code == 0
    page = example.read("docs/inference/set-up-vllm.mdx")
    assert "` `" not in page
    assert "uses the image under `nvcr.io/nvidia/vllm:26.03.post1-py3`." in page
    assert "  NEMOCLAW_PROVIDER=vllm \\\n  bash" in page and "install-vllm" not in page
    assert "with this setup: .NET client, MTP off, async scheduling on" in page
