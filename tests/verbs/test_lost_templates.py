"""A templates folder that is gone (moved, or the setting left at its default) never
makes ``build`` delete the pages it made."""

from __future__ import annotations

from conftest import MINIMAL_TEMPLATE


def test_a_build_without_its_templates_folder_deletes_no_page(make_project, run):
    project = make_project()
    assert run(project, "build").exit_code == 0
    (project.root / "templates").rename(project.root / "tpl")
    before = project.snapshot()
    for command in ("build", "check"):
        outcome = run(project, command)
        assert outcome.exit_code == 2
        assert outcome.stderr.startswith("docs/models.mdx: error: a build would delete this")
        assert "the templates folder 'templates' does not exist" in outcome.stderr
        assert project.snapshot() == before
    project.write("docgen.toml", 'templates = "tpl"\n')
    assert run(project, "build").exit_code == 0
    assert (project.root / "docs/models.mdx").is_file()


def test_pages_deleted_by_hand_or_an_emptied_folder_are_pruned(make_project, run):
    project = make_project()
    assert run(project, "build").exit_code == 0
    (project.root / "templates/models.mdx.j2").unlink()  # the folder stays: an intent
    assert run(project, "build").exit_code == 0
    assert not (project.root / "docs/models.mdx").exists()


def test_a_folder_that_pruning_empties_is_removed_up_to_the_docs_folder(make_project, run):
    project = make_project(templates={"guides/deep/models.mdx.j2": MINIMAL_TEMPLATE})
    project.write("templates/kept/models.mdx.j2", MINIMAL_TEMPLATE)
    assert run(project, "build").exit_code == 0
    made = [p.relative_to(project.root).as_posix() for p in project.root.rglob("*.mdx")]
    assert "docs/guides/deep/models.mdx" in made
    project.write("docs/kept/notes.txt", "a person's file\n")
    for template in ("guides/deep/models.mdx.j2", "kept/models.mdx.j2"):
        (project.root / "templates" / template).unlink()
    assert run(project, "build").exit_code == 0
    # the emptied folders are gone, deepest first; one holding a person's file stays
    assert not (project.root / "docs/guides").exists()
    assert project.read("docs/kept/notes.txt") == "a person's file\n"
    assert not (project.root / "docs/kept/models.mdx").exists()
    assert (project.root / "docs").is_dir()
    assert (project.root / "templates/guides/deep").is_dir()  # a person's folder: kept
    assert run(project, "check").exit_code == 0


def test_pruning_keeps_every_folder_a_setting_names(make_project, run):
    """The docs, variants and changelog folders (and the export's) stay, emptied or not:
    a setting names them, and the next build writes there."""
    settings = 'export = "data/out/registry.json"\nchangelog = "notes/changelog"\n'
    entry = "## v0.0.1\n\nAcme v0.0.1 adds a profile.\n"
    project = make_project(files={"docgen.toml": settings, "notes/changelog/2026-01-01.mdx": entry})
    assert run(project, "build").exit_code in (0, 1)  # 1: the entry's own history findings
    assert (project.root / "notes/changelog/overview.mdx").is_file()
    (project.root / "templates/models.mdx.j2").unlink()
    (project.root / "notes/changelog/2026-01-01.mdx").unlink()
    assert run(project, "build").exit_code == 0
    for folder in ("docs", "docs/_build/agent-variants", "notes/changelog", "data/out"):
        assert (project.root / folder).is_dir(), folder
    assert not any((project.root / "docs/_build/agent-variants").iterdir())
    assert not (project.root / "notes/changelog/overview.mdx").exists()


def test_templates_under_the_docs_folder_are_located_with_or_without_the_cache(make_project, run):
    """Each would never render, and build said nothing: each is a located error naming
    where it goes, from a fresh clone or from a tree whose cache says it is in sync."""
    project = make_project()
    assert run(project, "build").exit_code == 0
    for path in ("docs/guide/extra.mdx.j2", "docs/b.json.J2"):
        project.write(path, MINIMAL_TEMPLATE)
    project.write("docs/_drafts/old.mdx.j2", MINIMAL_TEMPLATE)  # a `_` folder: set aside
    project.write("docs/.cache/x.html.j2", "")  # a hidden one: a tool's
    before = project.snapshot()
    said = "error: a template under the docs folder is never rendered: move it to templates/"
    for command in ("check", "build", "check"):
        outcome = run(project, command)
        assert (outcome.exit_code, outcome.stderr) == (
            2,
            f"docs/b.json.J2: {said}b.json.J2\ndocs/guide/extra.mdx.j2: {said}guide/extra.mdx.j2\n",
        )
        assert project.snapshot() == before


def test_templates_under_a_docs_folder_that_holds_the_templates_folder_render(make_project, run):
    """The docs folder is the root: it holds anything (a virtual environment with
    templates of its own), so nothing under it is taken for a misplaced template."""
    project = make_project(files={"docgen.toml": 'docs = "."\nexport = "registry.json"\n'})
    project.write("venv/lib/pkg/templates/page.html.j2", "")
    assert run(project, "build").exit_code == 0, run(project, "build").stderr
    assert (project.root / "models.mdx").is_file()


def test_templates_kept_in_the_docs_folder_itself_are_no_strays(make_project, run):
    """``templates = "docs"``: the templates sit beside the pages they make."""
    project = make_project(templates={}, files={"docgen.toml": 'templates = "docs"\n'})
    project.write("docs/guide/models.mdx.j2", MINIMAL_TEMPLATE)
    assert run(project, "build").exit_code == 0, run(project, "build").stderr
    assert (project.root / "docs/guide/models.mdx").is_file()
    assert run(project, "check").exit_code == 0


def test_a_changelog_link_names_a_page_of_a_docs_folder_that_is_the_root(make_project, run):
    """docs = ".": the pages are named without "./", as the setting names them; every
    value was refused, the suggestion (./models.mdx) too."""
    settings = 'docs = "."\nexport = "registry.json"\nchangelog_link = "models.mdx"\n'
    project = make_project(files={"docgen.toml": settings})
    assert run(project, "build").exit_code == 0, run(project, "build").stderr
    project.write("docgen.toml", settings.replace('"models.mdx"', '"model.mdx"'))
    refused = run(project, "check")
    assert refused.exit_code == 2
    assert refused.stderr.endswith("publishes; did you mean 'models.mdx'?\n"), refused.stderr


def test_a_stray_template_is_refused_with_no_templates_folder_and_not_through_a_link(
    make_project, run
):
    """With no templates folder, a template put under docs/ is the likeliest mistake:
    refused, not ignored. A templates folder that is a link into docs/ holds templates,
    not strays."""
    project = make_project(templates={}, files={"docs/page.mdx.j2": MINIMAL_TEMPLATE})
    outcome = run(project, "check")
    assert (outcome.exit_code, outcome.stderr) == (
        2,
        "docs/page.mdx.j2: error: a template under the docs folder is never rendered: "
        "move it to templates/page.mdx.j2\n",
    )
    (project.root / "docs/src").mkdir()
    (project.root / "docs/page.mdx.j2").rename(project.root / "docs/src/page.mdx.j2")
    (project.root / "templates").symlink_to("docs/src")
    assert run(project, "build").exit_code == 0, run(project, "build").stderr
    assert (project.root / "docs/page.mdx").is_file()
