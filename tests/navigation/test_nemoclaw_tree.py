"""NemoClaw's real docs tree (tests/fixtures/nemoclaw-docs, its files unchanged) with this
repository's registry and templates: variants exactly for the pages and agents its
navigation lists, and its six real changelog entries checked against the routes that
navigation publishes: no error on a published route, every unpublished one reported, and
none left once a copy of the navigation lists the missing pages."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from docgen import navigation
from docgen.config import load_project

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "nemoclaw-docs"
BUILT = "docs/_build/agent-variants"
UNRESOLVED = re.compile(r"link '(/[^']*)' does not resolve to a page the project publishes")


@pytest.fixture
def tree(tmp_path, run):
    """The fixture tree, built: docgen generates the vLLM page NemoClaw writes by hand."""
    root = tmp_path / "nemoclaw"
    shutil.copytree(FIXTURE / "docs", root / "docs")
    (root / "docs/inference/set-up-vllm.mdx").unlink()
    shutil.copy(REPO / "profiles.yaml", root)
    shutil.copytree(REPO / "templates", root / "templates")
    (root / "docgen.toml").write_text('changelog = "docs/changelog"\n', "utf-8")
    return root


def built(run, root: Path):
    from conftest import Project

    project = Project(root)
    result = run(project, "build")
    assert result.exit_code in (0, 1), result.output  # 1: the changelog's own findings
    return project


def test_variants_are_exactly_those_the_navigation_lists(tree, run):
    built(run, tree)
    made = {p.relative_to(tree).as_posix() for p in (tree / BUILT).rglob("*.mdx")}
    nav = navigation.load(load_project(tree))
    assert nav is not None
    sources = {p.relative_to(tree).as_posix() for p in (tree / "docs").rglob("*.mdx")}
    listed = {
        page.path
        for variant in nav.variants
        for page in variant.pages
        if page.path.startswith(BUILT)
        and re.sub(rf"^{BUILT}/(.*)\.{variant.slug}\.generated\.mdx$", r"docs/\1.mdx", page.path)
        in sources
    }
    assert made == listed
    assert f"{BUILT}/manage-sandboxes/messaging-channels.hermes.generated.mdx" in made
    assert f"{BUILT}/manage-sandboxes/messaging-channels.deepagents.generated.mdx" not in made
    assert f"{BUILT}/inference/set-up-vllm.deepagents.generated.mdx" in made


def unresolved(run, project) -> set[str]:
    return set(UNRESOLVED.findall(run(project, "check").stdout))


def test_only_links_to_pages_the_navigation_does_not_publish_are_reported(tree, run):
    project = built(run, tree)
    reported = unresolved(run, project)
    assert len(reported) == 27
    assert "/user-guide/openclaw/reference/commands" not in reported
    assert "/user-guide/openclaw/manage-sandboxes/mcp-servers/manage-mcp-servers" in reported


def test_once_the_navigation_lists_the_missing_pages_every_link_resolves(tree, run):
    project = built(run, tree)
    missing = unresolved(run, project)
    yaml = YAML(typ="rt")
    data = yaml.load((tree / "docs/index.yml").read_text("utf-8"))
    variants = {v["slug"]: v for v in data["navigation"][0]["variants"]}
    for route in sorted(missing):
        _tab, variant, *sections, slug = route.strip("/").split("/")
        layout = variants[variant]["layout"]
        for section in sections:
            found = next((i for i in layout if "section" in i and i.get("slug") == section), None)
            if found is None:
                found = {"section": section, "slug": section, "contents": []}
                layout.append(found)
            layout = found.setdefault("contents", [])
        layout.append({"page": slug, "path": "index.mdx", "slug": slug})
    out = io.StringIO()
    yaml.dump(data, out)
    (tree / "docs/index.yml").write_text(out.getvalue(), "utf-8")
    assert unresolved(run, project) == set()
