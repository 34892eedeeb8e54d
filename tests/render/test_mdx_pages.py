"""Every MDX file the repository ships compiles with the MDX 3 compiler Fern uses."""

from __future__ import annotations

from conftest import REPO
from mdxc import compile_mdx, require_mdx


def test_every_committed_mdx_page_compiles():
    require_mdx()
    pages = {
        p.relative_to(REPO).as_posix(): p.read_text("utf-8")
        for folder in ("docs", "changelog")
        for p in sorted((REPO / folder).rglob("*.mdx"))
    }
    assert "docs/inference/set-up-vllm.mdx" in pages
    errors = {name: error for name, error in compile_mdx(pages).items() if error}
    assert errors == {}


def test_pages_built_from_a_hostile_registry_compile(make_project, run):
    require_mdx()
    from conftest import MINIMAL_REGISTRY

    hostile = "{{ 7*7 }} {% raw %} <script>x</script> $$acme | `tick` *em* # h"
    text = MINIMAL_REGISTRY.replace("notes: Box default.", f"notes: {hostile!r}")
    text = text.replace("label: Tiny 1B", "label: 'Tiny {x} <b>'")
    text = text.replace("summary: Use less memory.", 'summary: "Use {less} <i>memory</i>"')
    project = make_project(
        registry=text,
        templates={
            "models.mdx.j2": "---\ntitle: {{ models.tiny.label | mdx_fm }}\n---\n\n"
            "{{ models.tiny.label }} and {{ models.tiny.notes }}\n\n"
            "{{ models_table() }}\n\n"
            "{% for p in profiles %}{% for o in p.overrides %}{{ o.summary }}\n\n"
            "{{ override_command(p, o) | code_block('bash') }}\n{% endfor %}"
            "{% endfor %}",
        },
    )
    assert run(project, "build").exit_code == 0
    page = project.read("docs/models.mdx")
    assert "49" not in page, "registry text must never be evaluated as a template"
    assert compile_mdx({"models.mdx": page}) == {"models.mdx": None}
