"""Project settings (docgen/config.py): where they are read from, their defaults, and a
located error for every setting a user can get wrong.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import given
from hypothesis import strategies as st

from docgen.config import Config, Project, load_project
from docgen.errors import ConfigError, Location, Problem


def settings(tmp_path: Path, files: dict[str, str | bytes]) -> Path:
    """A project root holding the given settings files."""
    root = tmp_path / "proj"
    root.mkdir()
    for name, text in files.items():
        if isinstance(text, bytes):
            (root / name).write_bytes(text)
        else:
            (root / name).write_text(text, "utf-8")
    return root


def problems(root: Path, registry: str | None = None, rule: str = "settings") -> list[str]:
    """The located messages of the settings error ``load_project`` raises."""
    with pytest.raises(ConfigError) as caught:
        load_project(root, registry)
    assert all(p.rule == rule for p in caught.value.problems)
    return [str(p) for p in caught.value.problems]


def test_a_project_without_settings_uses_the_defaults(tmp_path):
    root = settings(tmp_path, {})
    project = load_project(root)
    assert project == Project(root.resolve(), Config())
    assert project.config == Config(
        registry="profiles.yaml",
        templates="templates",
        docs="docs",
        changelog="changelog",
        variants="docs/_build/agent-variants",
        variant_pattern="{dir}/{stem}.{agent}.generated.mdx",
        export="docs/_build/registry.json",
        fragments="changelog.d",
        changelog_link="",
        release_route="release-notes/{year}/{month}/{day}",
        routes={},
    )
    assert project.registry_path == root.resolve() / "profiles.yaml"
    assert project.path("docs/a.mdx") == root.resolve() / "docs/a.mdx"


def test_the_root_is_resolved(tmp_path):
    root = settings(tmp_path, {})
    assert load_project(root / ".." / "proj").root == root.resolve()


def test_settings_come_from_pyproject_tool_docgen(tmp_path):
    root = settings(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "x"\n\n[tool.docgen]\n'
            'docs = "site/docs"\nregistry = "data/profiles.yaml"\n'
            '[tool.docgen.routes]\n"site/docs/a.mdx" = "/alpha/"\n'
        },
    )
    config = load_project(root).config
    assert (config.docs, config.registry, config.templates) == (
        "site/docs",
        "data/profiles.yaml",
        "templates",
    )
    assert config.routes == {"site/docs/a.mdx": "/alpha/"}
    assert load_project(root).registry_path == root.resolve() / "data/profiles.yaml"


def test_a_pyproject_without_a_docgen_table_gives_the_defaults(tmp_path):
    root = settings(tmp_path, {"pyproject.toml": '[tool.other]\ndocs = "x"\n'})
    assert load_project(root).config == Config()
    root.joinpath("pyproject.toml").write_text('tool = "x"\n', "utf-8")  # not docgen's
    assert load_project(root).config == Config()


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('[project]\nname = "x"\n\n[tool]\ndocgen = "site"\n', "pyproject.toml:5:1"),
        ('[[tool.docgen]]\ndocs = "site"\n', "pyproject.toml:1:1"),
        ('[project]\nname = "x"\n\n[ tool ]\ndocgen = "site"\n', "pyproject.toml:5:1"),
    ],
)
def test_a_docgen_setting_that_is_no_table_is_refused_not_ignored(tmp_path, text, where):
    root = settings(tmp_path, {"pyproject.toml": text})
    with pytest.raises(ConfigError) as caught:
        load_project(root)
    assert str(caught.value) == f"{where}: error: [tool.docgen] must be a table of settings"


def test_settings_in_both_files_are_refused(tmp_path):
    root = settings(
        tmp_path,
        {
            "docgen.toml": 'docs = "from-toml"\n',
            "pyproject.toml": '[tool.docgen]\ndocs = "from-pyproject"\ntemplates = "tpl"\n',
        },
    )
    with pytest.raises(ConfigError) as caught:
        load_project(root)
    assert str(caught.value) == (
        "docgen.toml: error: settings are in both docgen.toml and pyproject.toml's "
        "[tool.docgen]: keep one"
    )


def test_settings_beside_an_empty_tool_table_are_refused(tmp_path):
    """An empty [tool.docgen] still says the settings are there: keep one place."""
    root = settings(
        tmp_path,
        {"docgen.toml": 'docs = "from-toml"\n', "pyproject.toml": "[tool.docgen]\n"},
    )
    with pytest.raises(ConfigError) as caught:
        load_project(root)
    assert str(caught.value).startswith("docgen.toml: error: settings are in both")


def test_a_setting_named_tool_in_pyproject_is_an_unknown_setting(tmp_path):
    """Only a docgen.toml's [tool.docgen] line gets the "remove the line" advice."""
    root = settings(tmp_path, {"pyproject.toml": "[tool.docgen]\ntool = 1\n"})
    assert problems(root) == ["pyproject.toml:2:1: error: unknown setting 'tool'"]


@pytest.mark.parametrize("make", ["folder", "fifo", "device"])
def test_a_settings_name_that_holds_no_file_is_refused(tmp_path, make):
    root = settings(tmp_path, {})
    target = root / "docgen.toml"
    if make == "folder":
        target.mkdir()
    elif make == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/zero")
    with pytest.raises(ConfigError) as caught:
        load_project(root)
    assert str(caught.value) == "docgen.toml: error: the settings file is not a regular file"


def test_an_unknown_setting_suggests_the_closest_name(tmp_path):
    root = settings(tmp_path, {"docgen.toml": 'docs = "d"\n  template = "tpl"\n'})
    assert problems(root) == [
        "docgen.toml:2:3: error: unknown setting 'template'; did you mean 'templates'?"
    ]


def test_an_unknown_setting_in_pyproject_is_located_in_pyproject(tmp_path):
    root = settings(tmp_path, {"pyproject.toml": '[project]\n\n[tool.docgen]\nexprot = "x"\n'})
    assert problems(root) == [
        "pyproject.toml:4:1: error: unknown setting 'exprot'; did you mean 'export'?"
    ]


def test_an_unknown_setting_far_from_any_name_has_no_suggestion(tmp_path):
    root = settings(tmp_path, {"docgen.toml": 'colour = "blue"\n'})
    assert problems(root) == ["docgen.toml:1:1: error: unknown setting 'colour'"]


def test_invalid_toml_is_located_at_its_line_and_column(tmp_path):
    root = settings(tmp_path, {"docgen.toml": 'docs = "d"\nexport = \n'})
    assert problems(root) == [
        "docgen.toml:2:10: error: invalid TOML: Invalid value (at line 2, column 10)"
    ]


def test_settings_that_are_not_utf8_are_a_settings_error_at_the_byte(tmp_path):
    root = settings(tmp_path, {"docgen.toml": b'docs = "d"\nexport = "caf\xe9"\n'})
    assert problems(root, rule="settings") == ["docgen.toml:2:14: error: invalid UTF-8 byte 0xe9"]


def test_every_wrong_setting_is_reported_at_once(tmp_path):
    root = settings(
        tmp_path,
        {"docgen.toml": 'docs = 1\ntemplate = "t"\nroutes = {"a.mdx" = 2}\n'},
    )
    assert problems(root) == [
        "docgen.toml:1:1: error: setting 'docs' must be a string",
        "docgen.toml:2:1: error: unknown setting 'template'; did you mean 'templates'?",
        "docgen.toml:3:1: error: setting 'routes' maps 'a.mdx' to no route: write a string",
    ]


def test_routes_must_be_a_table(tmp_path):
    root = settings(tmp_path, {"docgen.toml": 'routes = "a"\n'})
    assert problems(root) == [
        "docgen.toml:1:1: error: setting 'routes' must map page paths to routes"
    ]


@pytest.mark.parametrize("value", ["/abs/docs", "../outside", "docs/../../up", " ", ""])
def test_a_path_setting_must_stay_inside_the_project(tmp_path, value):
    root = settings(tmp_path, {"docgen.toml": f'docs = "{value}"\n'})
    assert problems(root) == [
        f"docgen.toml:1:1: error: path '{value}' must be relative and stay inside the project"
    ]


def test_a_path_setting_is_normalised_to_posix(tmp_path):
    root = settings(tmp_path, {"docgen.toml": 'docs = "site\\\\docs/./x"\n'})
    assert load_project(root).config.docs == "site/docs/x"


def test_the_variant_pattern_must_stay_inside_the_project(tmp_path):
    root = settings(tmp_path, {"docgen.toml": 'variant_pattern = "../{dir}/{stem}.{agent}.mdx"\n'})
    assert problems(root) == [
        "docgen.toml:1:1: error: path '../d/s.a.mdx' must be relative and stay inside the project"
    ]


def test_plain_text_settings_are_kept_as_written(tmp_path):
    root = settings(
        tmp_path,
        {
            "docgen.toml": 'variant_pattern = "{dir}/./{stem}-{agent}.mdx"\n'
            'changelog_link = "./docs/../docs/x.mdx"\n'
        },
    )
    config = load_project(root).config
    assert config.variant_pattern == "{dir}/./{stem}-{agent}.mdx"
    assert config.changelog_link == "./docs/../docs/x.mdx"


@pytest.mark.parametrize(
    "link", ["profiles.yaml", "/etc/passwd", "site/../../x.mdx", "site", "site/a.yml", "x/a.mdx"]
)
def test_the_changelog_link_must_name_a_page_of_the_docs_folder(tmp_path, link):
    """Else ``changelog`` stopped with an internal error, or linked bullets to a route
    outside the site (``/guide/alpha/../../x``); ``check`` and ``build`` said nothing."""
    root = settings(tmp_path, {"docgen.toml": f'docs = "site"\nchangelog_link = "{link}"\n'})
    assert problems(root) == [
        f"docgen.toml:2:1: error: setting 'changelog_link' names '{link}', which is no page of "
        "the docs folder: name the page changelog bullets link to, such as 'site/index.mdx'"
    ]


@pytest.mark.parametrize("page", ["site/changelog.md", "site/guide/index.mdx"])
def test_the_changelog_link_may_name_a_markdown_or_mdx_page(tmp_path, page):
    """A hand-written ``.md`` page is a page of the docs folder as an ``.mdx`` one is."""
    root = settings(tmp_path, {"docgen.toml": f'docs = "site"\nchangelog_link = "{page}"\n'})
    assert load_project(root).config.changelog_link == page


def test_with_the_root_as_docs_folder_the_link_may_name_any_page_inside_it(tmp_path):
    root = settings(tmp_path, {"docgen.toml": 'docs = "."\nchangelog_link = "./a/index.mdx"\n'})
    assert load_project(root).config.changelog_link == "./a/index.mdx"
    for outside in ("/etc/x.mdx", "../x.mdx"):
        (root / "docgen.toml").write_text(f'docs = "."\nchangelog_link = "{outside}"\n', "utf-8")
        assert problems(root) == [
            f"docgen.toml:2:1: error: setting 'changelog_link' names '{outside}', which is no "
            "page of the docs folder: name the page changelog bullets link to, such as "
            "'index.mdx'"
        ]


def test_a_missing_root_is_a_located_error(tmp_path):
    missing = tmp_path / "nowhere"
    assert problems(missing) == [f"{missing}: error: project root does not exist"]
    (tmp_path / "a-file").write_text("", "utf-8")  # a root that is there, but no folder
    assert problems(tmp_path / "a-file") == [
        f"{tmp_path / 'a-file'}: error: project root is not a directory"
    ]


def test_the_registry_argument_overrides_the_setting(tmp_path):
    root = settings(tmp_path, {"docgen.toml": 'registry = "a.yaml"\n'})
    assert load_project(root, "data\\b.yaml").config.registry == "data/b.yaml"
    inside = str(root / "data" / "c.yaml")
    assert load_project(root, inside).config.registry == "data/c.yaml"


def test_the_registry_argument_may_not_leave_the_project(tmp_path):
    root = settings(tmp_path, {})
    outside = str(tmp_path / "elsewhere.yaml")
    assert problems(root, outside) == [
        f"{outside}: error: the registry must lie inside the project root"
    ]
    assert problems(root, "../up.yaml") == [
        "../up.yaml: error: path '../up.yaml' must be relative and stay inside the project"
    ]


@pytest.mark.parametrize(
    ("page", "route"),
    [
        ("docs/a/b.mdx", "a/b"),
        ("docs/index.md", "index"),
        ("docs/a.b/c", "a.b/c"),
        ("docs/readme", "readme"),
        ("other/x.mdx", "other/x"),
        ("docs/mapped.mdx", "guide/mapped"),
    ],
)
def test_the_route_of_a_page(page, route):
    config = Config(routes={"docs/mapped.mdx": "/guide/mapped/"})
    assert config.route(page) == route


def test_a_settings_error_is_exit_code_two():
    error = ConfigError.at(Location("docgen.toml", 1, 1), "x")
    assert error.exit_code == 2
    assert error.problems == (Problem("x", Location("docgen.toml", 1, 1), rule="settings"),)


def test_a_settings_file_linked_from_outside_the_root_is_refused_unread(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "pyproject.toml").write_text('[tool.docgen]\ndocs = "elsewhere"\n', "utf-8")
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").symlink_to(outside / "pyproject.toml")
    with pytest.raises(ConfigError) as caught:
        load_project(root)
    assert str(caught.value) == (
        "pyproject.toml: error: the settings file is a symbolic link that leaves the project "
        "root; docgen reads only files inside it"
    )


def test_a_settings_file_linked_inside_the_root_is_read(tmp_path):
    root = tmp_path / "proj"
    (root / "conf").mkdir(parents=True)
    (root / "conf" / "docgen.toml").write_text('docs = "pages"\n', "utf-8")
    (root / "docgen.toml").symlink_to(root / "conf" / "docgen.toml")
    assert load_project(root).config.docs == "pages"


PATH_PART = st.sampled_from(["docs", "a", "x.mdx", "b.c.mdx", ".", "..", ".h", "", "x."])


@given(
    docs=st.lists(PATH_PART, min_size=1, max_size=3).map("/".join),
    rest=st.lists(PATH_PART, min_size=1, max_size=4).map("/".join),
)
def test_a_variants_folder_and_stem_are_what_pure_posix_path_says(docs, rest):
    from docgen.config import _folder_and_stem

    source = f"{docs}/{rest}"
    try:
        rel = PurePosixPath(source).relative_to(docs)
    except ValueError:
        with pytest.raises(ValueError):
            _folder_and_stem(source, docs)
        return
    assert _folder_and_stem(source, docs) == (rel.parent.as_posix(), rel.stem)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "docs/inference/set-up.mdx",
            "docs/_build/agent-variants/inference/set-up.hermes.generated.mdx",
        ),
        ("docs/index.mdx", "docs/_build/agent-variants/index.hermes.generated.mdx"),
        ("docs/a/b.c.mdx", "docs/_build/agent-variants/a/b.c.hermes.generated.mdx"),
        ("docs/./a/x.mdx", "docs/_build/agent-variants/a/x.hermes.generated.mdx"),
    ],
)
def test_a_variant_goes_under_the_variants_folder_by_its_pattern(tmp_path, source, expected):
    from docgen.config import variant_path

    project = load_project(settings(tmp_path, {}))
    assert variant_path(project, source, "hermes") == expected


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("changelog", "profiles.yaml", "must name a folder; 'profiles.yaml' is a file"),
        ("docs", "profiles.yaml", "must name a folder; 'profiles.yaml' is a file"),
        ("fragments", "profiles.yaml", "must name a folder; 'profiles.yaml' is a file"),
        ("export", "docs", "must name a file; 'docs' is a folder"),
    ],
)
def test_a_path_setting_that_names_the_wrong_kind_is_refused_at_the_setting(
    tmp_path, key, value, message
):
    root = settings(tmp_path, {"docgen.toml": f'\n{key} = "{value}"\n'})
    (root / "profiles.yaml").write_text("schema: 1\n", "utf-8")
    (root / "docs").mkdir()
    with pytest.raises(ConfigError) as caught:
        load_project(root)
    assert str(caught.value) == f"docgen.toml:2:1: error: setting '{key}' {message}"


@pytest.mark.parametrize("files", [{}, {"docgen.toml": 'docs = "docs"\n'}])
def test_a_default_path_of_the_wrong_kind_is_refused_at_the_path(tmp_path, files):
    """No settings file says ``changelog``: the error names the file in the way, not a
    settings file (there may be none) nor a line that does not set it."""
    root = settings(tmp_path, files)
    (root / "profiles.yaml").write_text("schema: 1\n", "utf-8")
    (root / "changelog").write_text("x\n", "utf-8")
    with pytest.raises(ConfigError) as caught:
        load_project(root)
    assert str(caught.value) == (
        "changelog: error: setting 'changelog' (by default 'changelog') must name a folder; "
        "'changelog' is a file"
    )


def test_a_docgen_toml_with_a_tool_docgen_table_says_where_settings_go(tmp_path):
    root = settings(tmp_path, {"docgen.toml": '[tool.docgen]\ndocs = "docs"\n'})
    assert problems(root) == [
        "docgen.toml:1:1: error: docgen.toml holds its settings at the top level: remove the "
        "[tool.docgen] line"
    ]


def test_a_route_that_is_no_string_is_located_at_its_page(tmp_path):
    text = '[tool.docgen]\ndocs = "docs"\n\n[tool.docgen.routes]\n"docs/x.mdx" = 3\n'
    root = settings(tmp_path, {"pyproject.toml": text})
    assert problems(root) == [
        "pyproject.toml:5:2: error: setting 'routes' maps 'docs/x.mdx' to no route: write a string"
    ]


def test_beside_docgen_toml_a_pyproject_docgen_cannot_read_is_another_tools(tmp_path):
    """A monorepo's site/pyproject.toml may be a link to the repository's, or hold TOML a
    newer tool reads: with docgen.toml there, it is none of docgen's business."""
    root = settings(tmp_path, {"docgen.toml": 'docs = "site-docs"\n'})
    (root / "pyproject.toml").write_text("[project\nname = 'x'\n", "utf-8")
    assert load_project(root).config.docs == "site-docs"
    (root / "pyproject.toml").unlink()
    outside = tmp_path / "outside.toml"
    outside.write_text("[tool.other]\n", "utf-8")
    (root / "pyproject.toml").symlink_to(outside)
    assert load_project(root).config.docs == "site-docs"


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (
            'export = "cl/2026-01-01.mdx"',
            "docgen.toml:1:1: error: setting 'export' puts the export at cl/2026-01-01.mdx, an "
            "entry in the changelog folder (setting 'changelog'), which docgen reads: write "
            "it elsewhere",
        ),
        (
            'export = "Changelog/x.mdx"',
            "docgen.toml:1:1: error: setting 'export' puts the export at Changelog/x.mdx, an "
            "entry in the changelog folder (setting 'changelog'), which docgen reads: write "
            "it elsewhere",
        ),
        ('docs = "g/docs"', "docgen.toml:1:1: error: path 'g/docs' lies in git's own folder, .git"),
    ],
)
def test_a_path_is_placed_as_the_file_system_resolves_it(tmp_path, setting, message):
    """A link inside the root (``cl`` to ``changelog``, ``g`` to ``.git``), or other
    capitals, led around the check of where a path may lie (review finding)."""
    (tmp_path / "changelog").mkdir()
    (tmp_path / ".git").mkdir()
    (tmp_path / "cl").symlink_to("changelog")
    (tmp_path / "g").symlink_to(".git")
    (tmp_path / "docgen.toml").write_text(setting + "\n")
    with pytest.raises(ConfigError) as raised:
        load_project(tmp_path)
    assert [str(p) for p in raised.value.problems] == [message]


@pytest.mark.parametrize("export", ["changelog/registry.json", "templates/registry.json"])
def test_the_export_may_lie_in_a_folder_docgen_reads_when_it_reads_no_such_file(tmp_path, export):
    """The changelog folder's entries are ``.mdx`` files and the templates ``.j2`` ones: a
    JSON export there is read as neither."""
    (tmp_path / "docgen.toml").write_text(f'export = "{export}"\n')
    assert load_project(tmp_path).config.export == export


@pytest.mark.parametrize(
    ("text", "where", "name"),
    [
        (
            '[project]\nname = "x"\n\n[tool.doc-gen]\ndocs = "site"\n',
            "pyproject.toml:4:1",
            "doc-gen",
        ),
        ('[tool.doc_gen]\ndocs = "site"\n', "pyproject.toml:1:1", "doc_gen"),
        ('[tool."DocGen"]\ndocs = "site"\n', "pyproject.toml:1:1", "DocGen"),
        ('[tool.DOCGEN.routes]\na = "/a"\n', "pyproject.toml:1:1", "DOCGEN"),
        (
            '[tool.Docgen]\ndocs = "site"\n[tool.docgen.routes]\na = "/a"\n',
            "pyproject.toml:1:1",
            "Docgen",
        ),
    ],
)
def test_a_table_one_slip_from_tool_docgen_is_refused_not_left_unread(tmp_path, text, where, name):
    """Its settings were left unread, and the project ran on the defaults."""
    root = settings(tmp_path, {"pyproject.toml": text, "profiles.yaml": ""})
    with pytest.raises(ConfigError) as caught:
        load_project(root)
    assert str(caught.value) == (
        f"{where}: error: [tool.{name}] is no table docgen reads: its settings go in [tool.docgen]"
    )


def test_tables_of_other_tools_are_not_taken_for_a_slip(tmp_path):
    tools = ["docs", "docsgen", "dogen", "pydocgen", "docgenie", "codegen", "poetry", "ruff"]
    text = "".join(f"[tool.{t}]\nx = 1\n" for t in tools)  # real tools' names, near docgen
    root = settings(tmp_path, {"pyproject.toml": text, "profiles.yaml": ""})
    assert load_project(root).config == Config()
    # With docgen.toml, pyproject.toml's tables are other tools' business.
    (tmp_path / "b").mkdir()
    other = settings(tmp_path / "b", {"pyproject.toml": "[tool.doc-gen]\nx = 1\n"})
    (other / "docgen.toml").write_text('docs = "site"\n', "utf-8")
    assert load_project(other).config.docs == "site"


@pytest.mark.parametrize(
    ("setting", "where"),
    [
        ('fragments = "docs/notes"', "in the docs folder (setting 'docs')"),
        ('fragments = "docs"', "the docs folder (setting 'docs')"),
        ('fragments = "changelog"', "the changelog folder (setting 'changelog')"),
        ('fragments = "templates/notes"', "in the templates folder (setting 'templates')"),
        ('fragments = "."', "the project's root"),
        # In one folder and above another: said where it lies.
        ('fragments = "docs"\nchangelog = "docs/changelog"', "the docs folder (setting 'docs')"),
        (
            'fragments = "site"\ndocs = "site/docs"',
            "a folder that holds the docs folder (setting 'docs')",
        ),
        # Through a link inside the root, as the file system resolves it.
        ('fragments = "pages/notes"', "in the docs folder (setting 'docs')"),
    ],
)
def test_the_notes_folder_is_a_folder_of_its_own(tmp_path, setting, where):
    """A release merges and deletes the ``.md`` files of the notes folder: in the docs folder
    it deleted a hand-written page (a hostile round's finding)."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "pages").symlink_to("docs")
    (tmp_path / "docgen.toml").write_text(setting + "\n")
    with pytest.raises(ConfigError) as raised:
        load_project(tmp_path)
    value = setting.split('"')[1]
    assert [str(p) for p in raised.value.problems] == [
        f"docgen.toml:1:1: error: setting 'fragments' puts the notes folder at {value}, "
        f"{where}: a release merges and deletes the .md files there, so give notes a folder "
        "of their own, such as changelog.d"
    ]


@pytest.mark.parametrize(
    ("settings", "notes"),
    [
        ('fragments = "notes"', "notes"),
        ('docs = "."', "changelog.d"),
        ('docs = "."\nfragments = "docs/notes"', "docs/notes"),
    ],
)
def test_a_notes_folder_of_its_own_is_taken(tmp_path, settings, notes):
    """Docs at the root hold every folder: the notes folder is then one of its own still."""
    (tmp_path / "docgen.toml").write_text(settings + "\n")
    assert load_project(tmp_path).config.fragments == notes
