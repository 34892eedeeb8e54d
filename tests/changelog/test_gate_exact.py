"""The changelog gate, exactly: its finding, and which changed files count as an entry
when the project sits below the repository's top."""

from __future__ import annotations

import subprocess

import pytest
from conftest import MINIMAL_REGISTRY, Project, git

from docgen.config import load_project
from docgen.errors import ConfigError, Location, Problem
from docgen.verbs.releases import changelog_gate

TUNED = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")
ENTRY = "site/changelog/2026-01-01.mdx"


def committed_files(make_project, files: dict[str, str]):
    """A project of just ``files``, committed as HEAD."""
    project = make_project(registry=None)
    for name, text in files.items():
        project.write(name, text)
    git(project.root, "init", "-q")
    git(project.root, "add", ".")
    git(project.root, "commit", "-qm", "base")
    return project


def committed_site(make_project):
    """A project in ``site/`` of a repository, committed, then its registry tuned."""
    project = make_project(registry=None)
    project.write("site/profiles.yaml", MINIMAL_REGISTRY)
    project.write(ENTRY, "## v0.0.1\n")
    git(project.root, "init", "-q")
    git(project.root, "add", ".")
    git(project.root, "commit", "-qm", "base")
    project.write("site/profiles.yaml", TUNED)
    return project


def test_the_gate_names_the_first_change_its_count_and_its_rule(make_project):
    project = committed_site(make_project)
    assert changelog_gate(load_project(project.root / "site"), "HEAD") == [
        Problem(
            "the registry changed since HEAD (1 semantic change) but there is no new "
            "changelog entry or note in changelog.d/: run `docgen changelog` or add a note",
            Location("profiles.yaml", 40, 7),
            rule="changelog-gate",
        )
    ]


def test_a_release_added_to_an_entry_counts(make_project):
    """An entry of the same day may gain a second release: that is a new one."""
    project = committed_site(make_project)
    project.write(ENTRY, "## v0.0.2\n\nTuned.\n\n## v0.0.1\n")
    assert changelog_gate(load_project(project.root / "site"), "HEAD") == []


def test_a_new_entry_counts(make_project):
    project = committed_site(make_project)
    project.write("site/changelog/2026-01-02.mdx", "## v0.0.2\n\nTuned.\n")
    assert changelog_gate(load_project(project.root / "site"), "HEAD") == []


def test_an_old_entry_edited_deleted_or_moved_is_no_new_release(make_project):
    project = committed_site(make_project)
    site = load_project(project.root / "site")
    project.write(ENTRY, "## v0.0.1\n\nEdited.\n")
    assert [p.rule for p in changelog_gate(site, "HEAD")] == ["changelog-gate"]
    (project.root / ENTRY).unlink()
    assert [p.rule for p in changelog_gate(site, "HEAD")] == ["changelog-gate"]
    project.write("site/changelog/2026-01-02.mdx", "## v0.0.1\n")  # the same release, moved
    assert [p.rule for p in changelog_gate(site, "HEAD")] == ["changelog-gate"]


def test_the_overview_git_names_from_the_repositorys_top_is_no_entry(make_project):
    """``site/changelog/overview.mdx`` changed: its file name is the overview's, no entry."""
    project = committed_site(make_project)
    project.write("site/changelog/overview.mdx", "Rebuilt.\n")
    assert [p.rule for p in changelog_gate(load_project(project.root / "site"), "HEAD")] == [
        "changelog-gate"
    ]


def test_a_committed_overview_git_names_from_the_repositorys_top_is_no_entry(make_project):
    """The overview was committed, then rebuilt: git diff names it from the repository's
    top (``site/changelog/overview.mdx``); its file name alone decides, and it is none."""
    project = make_project(registry=None)
    project.write("site/profiles.yaml", MINIMAL_REGISTRY)
    project.write(ENTRY, "## v0.0.1\n")
    project.write("site/changelog/overview.mdx", "Built.\n")
    git(project.root, "init", "-q")
    git(project.root, "add", ".")
    git(project.root, "commit", "-qm", "base")
    project.write("site/profiles.yaml", TUNED)
    project.write("site/changelog/overview.mdx", "Rebuilt.\n")
    assert [p.rule for p in changelog_gate(load_project(project.root / "site"), "HEAD")] == [
        "changelog-gate"
    ]


def test_a_note_the_release_would_refuse_fails_the_gate_as_the_release_would(make_project):
    """A note passes the gate only if `docgen changelog` would take it."""
    project = committed_site(make_project)
    site = load_project(project.root / "site")
    project.write("site/changelog.d/tuned.md", "")
    with pytest.raises(ConfigError) as caught:
        changelog_gate(site, "HEAD")
    assert str(caught.value) == (
        "changelog.d/tuned.md: error: the note is empty: say what changed in a sentence, "
        "or delete the file"
    )
    project.write("site/changelog.d/tuned.md", "- Uses {more} memory.\n")
    with pytest.raises(ConfigError) as caught:
        changelog_gate(site, "HEAD")
    assert str(caught.value).startswith("changelog.d/tuned.md:1:")
    project.write("site/changelog.d/tuned.md", "- Uses more memory.\n")
    assert changelog_gate(site, "HEAD") == []


@pytest.mark.parametrize(
    "highest", ["v0.0.999999999", "v0.999999999.999999999", "v999999999.999999999.999999999"]
)
def test_a_note_waiting_after_the_highest_possible_numbers_passes_the_gate(make_project, highest):
    """The gate composes the next release in memory: after ``v0.0.999999999`` that is
    ``v0.1.0`` (a number has at most 9 digits), never an error about a ``--version``
    flag ``check`` does not have."""
    project = committed_site(make_project)
    project.write("site/profiles.yaml", MINIMAL_REGISTRY)
    project.write(ENTRY, f"## {highest}\n")
    git(project.root, "commit", "-qam", "highest")
    project.write("site/profiles.yaml", TUNED)
    project.write("site/changelog.d/tuned.md", "- Uses more memory.\n")
    site = load_project(project.root / "site")
    if highest.startswith("v999999999"):  # no version comes after it: said at the entry
        already = f"^changelog/2026-01-01.mdx:1:1: error: version {highest} is already released"
        with pytest.raises(ConfigError, match=already):
            changelog_gate(site, "HEAD")
    else:
        assert changelog_gate(site, "HEAD") == []


def test_a_registry_new_since_the_revision_passes_the_gate(make_project):
    """The change that adopts docgen: no older registry to compare with."""
    project = committed_files(make_project, {"README.md": "A repository before docgen.\n"})
    project.write("profiles.yaml", MINIMAL_REGISTRY)
    git(project.root, "add", ".")
    git(project.root, "commit", "-qm", "adopt docgen")
    assert changelog_gate(load_project(project.root), "HEAD~1") == []
    from docgen.changelog.git import NewSince, registry_bytes_at

    with pytest.raises(NewSince) as caught:
        registry_bytes_at(load_project(project.root), "HEAD~1")
    assert str(caught.value) == (
        "--since: error: profiles.yaml at revision 'HEAD~1' did not exist: there is no older "
        "registry to compare with"
    )


def test_a_renamed_registry_is_no_adoption_of_docgen(make_project):
    """profiles.yaml at the revision, registry.yaml now: the gate cannot compare, and says
    so (a rename with a change must not pass as a new registry)."""
    project = committed_files(make_project, {"profiles.yaml": MINIMAL_REGISTRY})
    (project.root / "profiles.yaml").rename(project.root / "registry.yaml")
    project.write("docgen.toml", 'registry = "registry.yaml"\n')
    with pytest.raises(ConfigError) as caught:
        changelog_gate(load_project(project.root), "HEAD")
    assert str(caught.value) == (
        "--changelog-since: error: registry.yaml at revision 'HEAD' did not exist: there is no "
        "older registry to compare with"
    )


def test_a_moved_entry_is_no_new_release(make_project):
    project = committed_site(make_project)
    git(project.root, "mv", ENTRY, "site/changelog/2026-01-05.mdx")
    assert [p.rule for p in changelog_gate(load_project(project.root / "site"), "HEAD")] == [
        "changelog-gate"
    ]


def test_an_entry_committed_with_crlf_and_edited_is_no_new_release(make_project):
    project = committed_site(make_project)
    project.write(ENTRY, "## v0.0.1\r\n")
    git(project.root, "add", ENTRY)
    git(project.root, "commit", "-qm", "crlf")  # the entry alone: the registry stays tuned
    project.write(ENTRY, "## v0.0.1\r\n\r\nEdited.\r\n")
    assert [p.rule for p in changelog_gate(load_project(project.root / "site"), "HEAD")] == [
        "changelog-gate"
    ]


def test_a_registry_renamed_from_any_name_is_no_adoption(make_project):
    """The settings at the revision named another registry: the project used docgen."""
    settings = 'registry = "serving.yaml"\n'
    project = committed_files(
        make_project, {"serving.yaml": MINIMAL_REGISTRY, "docgen.toml": settings}
    )
    (project.root / "serving.yaml").rename(project.root / "other.yaml")
    project.write("docgen.toml", 'registry = "other.yaml"\n')
    with pytest.raises(ConfigError):
        changelog_gate(load_project(project.root), "HEAD")


def test_entries_moved_with_their_folder_are_no_new_release(make_project):
    project = committed_site(make_project)
    git(project.root, "mv", "site/changelog", "site/history")
    project.write("site/docgen.toml", 'changelog = "history"\n')
    assert [p.rule for p in changelog_gate(load_project(project.root / "site"), "HEAD")] == [
        "changelog-gate"
    ]


def test_a_release_heading_inside_an_mdx_comment_is_no_release(make_project):
    project = committed_site(make_project)
    project.write(ENTRY, "{/*\n## v0.0.2\n*/}\n\n## v0.0.1\n")
    assert [p.rule for p in changelog_gate(load_project(project.root / "site"), "HEAD")] == [
        "changelog-gate"
    ]


def test_a_release_heading_outside_the_changelog_folder_is_no_known_release(make_project):
    # A page or a test fixture with "## v0.0.2" at the revision: v0.0.2 is still new.
    project = committed_files(
        make_project,
        {
            "site/profiles.yaml": MINIMAL_REGISTRY,
            ENTRY: "## v0.0.1\n",
            "site/docs/notes.mdx": "## v0.0.2\n",
            "site/tests/fixtures/changelog/2026-02-02.mdx": "## v0.0.2\n",
        },
    )
    project.write("site/profiles.yaml", TUNED)
    project.write(ENTRY, "## v0.0.2\n\nTuned.\n\n## v0.0.1\n")
    assert changelog_gate(load_project(project.root / "site"), "HEAD") == []


def test_a_note_that_waited_at_the_revision_says_nothing_of_later_changes(make_project):
    project = committed_files(
        make_project,
        {"site/profiles.yaml": MINIMAL_REGISTRY, "site/changelog.d/earlier.md": "Earlier.\n"},
    )
    project.write("site/profiles.yaml", TUNED)
    site = load_project(project.root / "site")
    assert [p.rule for p in changelog_gate(site, "HEAD")] == ["changelog-gate"]
    project.write("site/changelog.d/earlier.md", "Earlier.\n\nAlso tuned memory.\n")
    assert changelog_gate(site, "HEAD") == []


EMPTY = (
    "--changelog-since: error: unknown git revision '' (an empty revision: is the variable "
    "that names it set?)\n"
)


def test_an_empty_revision_is_refused_not_a_gate_turned_off(make_project, run):
    project = committed_site(make_project)
    result = run(project, "--root", str(project.root / "site"), "check", "--changelog-since", "")
    assert (result.exit_code, result.stderr) == (2, EMPTY)


def test_an_empty_revision_in_a_shallow_clone_is_no_history_to_fetch(make_project, run, tmp_path):
    """``--changelog-since "$BASE_REF"`` in CI, the variable unset: fetching more history
    would not help."""
    project = committed_site(make_project)
    clone = tmp_path / "shallow"
    source = f"file://{project.root}"
    subprocess.run(["git", "clone", "-q", "--depth", "1", source, str(clone)], check=True)
    result = run(Project(clone), "--root", str(clone / "site"), "check", "--changelog-since", "")
    assert (result.exit_code, result.stderr) == (2, EMPTY)
    result = run(Project(clone), "--root", str(clone / "site"), "check", "--changelog-since", "x1")
    assert "this is a shallow clone" in result.stderr


def test_a_branch_is_judged_from_where_it_left_the_revision(make_project):
    # main tuned the registry after the branch left it (with a note, since released and
    # removed); the branch changed no registry: main's change is not the branch's.
    project = committed_files(make_project, {"profiles.yaml": MINIMAL_REGISTRY})
    git(project.root, "branch", "-q", "-m", "main")
    git(project.root, "checkout", "-qb", "feature")
    git(project.root, "checkout", "-q", "main")
    project.write("profiles.yaml", TUNED)
    git(project.root, "commit", "-qam", "tuned on main")
    git(project.root, "checkout", "-q", "feature")
    assert changelog_gate(load_project(project.root), "main") == []
    project.write("profiles.yaml", MINIMAL_REGISTRY.replace("0.5", "0.7"))  # its own change
    assert [p.rule for p in changelog_gate(load_project(project.root), "main")] == [
        "changelog-gate"
    ]


@pytest.mark.parametrize("name", ["my note.md", "\u00e9t\u00e9.md", 'q"uote.md'])
def test_a_new_note_of_any_name_counts(make_project, name):
    # git quotes such names in its plain listing: they must still be the notes they are.
    project = committed_files(make_project, {"site/profiles.yaml": MINIMAL_REGISTRY})
    project.write("site/profiles.yaml", TUNED)
    project.write(f"site/changelog.d/{name}", "Tuned memory.\n")
    site = load_project(project.root / "site")
    assert changelog_gate(site, "HEAD") == []
    git(project.root, "add", "-A")
    git(project.root, "commit", "-qm", "note")
    assert changelog_gate(site, "HEAD~1") == []


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_note_that_is_no_file_fails_the_gate_as_the_release_would(make_project, kind):
    """``docgen changelog`` refuses a folder or a FIFO named as a note; the gate took it
    for no note at all, and asked for one."""
    import os

    project = committed_site(make_project)
    note = project.root / "site/changelog.d/n.md"
    note.parent.mkdir(parents=True)
    note.mkdir() if kind == "folder" else os.mkfifo(note)
    what = "a folder" if kind == "folder" else "a FIFO"
    with pytest.raises(ConfigError) as raised:
        changelog_gate(load_project(project.root / "site"), "HEAD")
    assert [str(p) for p in raised.value.problems] == [
        f"changelog.d/n.md: error: the changelog note is {what}, not a file; docgen reads "
        "only regular files"
    ]
