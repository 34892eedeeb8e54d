"""docgen's one door to git: the registry as committed at a revision (`--since`), the
changelog files changed since one (the gate), and the exact error for each failure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import MINIMAL_REGISTRY, Project

from docgen.changelog import git as docgen_git
from docgen.config import load_project
from docgen.errors import ConfigError, RegistryError
from docgen.io.files import MAX_BYTES

TUNED = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")


def git(project, *args: str) -> None:
    subprocess.run(["git", *args], cwd=project.root, check=True, capture_output=True)


def commit(project, message: str) -> None:
    git(project, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", message)


def commit_as_folder(project, path: str, message: str) -> None:
    """Commit ``path`` as a folder holding one file, then take the folder out of the work
    tree (the path is free for what the test writes there next)."""
    project.write(f"{path}/README", "a folder, then\n")
    git(project, "add", ".")
    commit(project, message)
    (project.root / path / "README").unlink()
    (project.root / path).rmdir()


def test_since_git_revision_and_the_changelog_gate(make_project, run):
    project = make_project()
    git(project, "init", "-q")
    git(project, "-c", "user.email=a@b", "-c", "user.name=a", "add", ".")
    git(project, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "base")
    project.write("profiles.yaml", TUNED)
    result = run(project, "diff", "--since", "HEAD")
    assert result.output.splitlines()[0] == (
        "profiles.yaml:40:7: arg-changed vllm.box.tiny gpu-memory-utilization: 0.5 -> 0.6"
    )
    run(project, "build")
    gate = run(project, "check", "--changelog-since", "HEAD")
    assert gate.exit_code == 1
    assert (
        "profiles.yaml:40:7: error: the registry changed since HEAD (1 semantic change) "
        "but there is no new changelog entry or note in changelog.d/"
    ) in gate.output
    project.write("changelog.d/note.md", "Tuned memory.\n")
    assert run(project, "check", "--changelog-since", "HEAD").exit_code == 0
    missing = run(project, "diff", "--since", "nope")
    assert missing.exit_code == 2
    assert missing.stderr == "--since: error: unknown git revision 'nope'\n"
    # The gate's revision is given by check's own option, and named by it.
    gate_missing = run(project, "check", "--changelog-since", "nope")
    assert gate_missing.exit_code == 2
    assert gate_missing.stderr == "--changelog-since: error: unknown git revision 'nope'\n"


def test_history_that_todays_rules_refuse_is_still_compared_with(make_project, run):
    # The committed registry set a flag today's catalog no longer knows (an upgrade),
    # and this change removes it: the older state is history, not today's input.
    stale = MINIMAL_REGISTRY.replace(
        "      max-num-seqs: 2\n", "      max-num-seqs: 2\n      some-removed-flag: true\n"
    )
    project = make_project(registry=stale)
    git(project, "init", "-q")
    git(project, "-c", "user.email=a@b", "-c", "user.name=a", "add", ".")
    git(project, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "base")
    assert run(project, "validate").exit_code == 2  # today's rules refuse it
    project.write("profiles.yaml", MINIMAL_REGISTRY)
    result = run(project, "diff", "--since", "HEAD")
    assert result.exit_code == 0, result.output
    assert "arg-removed vllm.box.tiny some-removed-flag" in result.output
    project.write("old.yaml", stale)
    from_file = run(project, "diff", "--since-file", "old.yaml").output
    assert from_file == result.output.replace("HEAD:profiles.yaml", "old.yaml")
    run(project, "build")
    gate = run(project, "check", "--changelog-since", "HEAD")
    assert gate.exit_code == 1 and "changelog-gate" not in gate.stderr, gate.output
    assert "the registry changed since HEAD (1 semantic change)" in gate.output
    project.write("old.yaml", stale.replace("tiny:", "tiny: [", 1))  # no history at all
    assert run(project, "diff", "--since-file", "old.yaml").exit_code == 2


def test_shallow_clone_is_a_clear_error(make_project, run, tmp_path):
    project = make_project()
    git(project, "init", "-q")
    for n in range(2):
        project.write("profiles.yaml", MINIMAL_REGISTRY + f"# {n}\n")
        git(
            project, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qam", str(n)
        ) if n else git(project, "add", ".")
        if not n:
            git(project, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "0")
    clone = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{project.root}", str(clone)], check=True
    )
    result = run(Project(clone), "diff", "--since", "HEAD~1")
    assert result.exit_code == 2
    assert result.stderr == (
        "--since: error: unknown git revision 'HEAD~1' (this is a shallow "
        "clone: fetch more history, e.g. `git fetch --unshallow`)\n"
    )


def test_a_registry_committed_as_a_link_is_said_to_be_one(make_project, run):
    """git keeps a link as a blob holding its target: read as YAML, that text is a
    string, and the old message said the registry "must be a mapping"."""
    project = make_project(registry=None)
    project.write("real.yaml", MINIMAL_REGISTRY)
    os.symlink("real.yaml", project.root / "profiles.yaml")
    git(project, "init", "-q")
    git(project, "add", ".")
    commit(project, "a linked registry")
    (project.root / "profiles.yaml").unlink()
    project.write("profiles.yaml", TUNED)  # a file of its own now
    result = run(project, "diff", "--since", "HEAD")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "--since: error: profiles.yaml at revision 'HEAD' is a symbolic link (to "
        "'real.yaml'), not a file: docgen reads no registry through a link in history\n"
    )
    git(project, "add", ".")
    commit(project, "a file again")
    assert run(project, "diff", "--since", "HEAD").exit_code == 0  # a small file is a file


@pytest.fixture
def repo(make_project) -> Project:
    """The minimal project committed as HEAD (the registry in a sub-folder of the
    repository, to show paths are taken from the repository's top)."""
    project = make_project(registry=None)
    project.write("site/profiles.yaml", MINIMAL_REGISTRY)
    project.write("site/changelog/2026-01-01.mdx", "## v0.0.1\n")
    project.write("site/.gitignore", "changelog/*.tmp\n")
    git(project, "init", "-q")
    git(project, "add", ".")
    commit(project, "base")
    return project


def site(repo: Project):
    return load_project(repo.root / "site")


def test_the_registry_is_read_as_committed_byte_for_byte(repo):
    repo.write("site/profiles.yaml", TUNED)
    assert docgen_git.registry_bytes_at(site(repo), "HEAD") == (
        MINIMAL_REGISTRY.encode(),
        "HEAD:site/profiles.yaml",  # named from the repository's top, as git names it
    )
    commit_all = ["-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qam", "tuned"]
    git(repo, *commit_all)
    assert docgen_git.registry_bytes_at(site(repo), "HEAD")[0] == TUNED.encode()
    assert docgen_git.registry_bytes_at(site(repo), "HEAD~1")[0] == MINIMAL_REGISTRY.encode()


def test_the_changed_files_are_the_changed_then_the_new_ones_git_does_not_ignore(repo):
    project = site(repo)
    assert docgen_git.changed_since(project, "HEAD", "changelog") == []
    repo.write("site/changelog/2026-01-01.mdx", "## v0.0.1\n\nEdited.\n")
    repo.write("site/changelog/2026-01-02.mdx", "## v0.0.2\n")
    repo.write("site/changelog/draft.tmp", "ignored\n")
    repo.write("site/docs/page.mdx", "outside the folder\n")
    # Both from the project's root, though it sits below the repository's top.
    assert docgen_git.changed_since(project, "HEAD", "changelog") == [
        "changelog/2026-01-01.mdx",
        "changelog/2026-01-02.mdx",
    ]


def test_a_git_failure_gives_no_changed_files(tmp_path: Path):
    project = load_project(tmp_path)
    assert docgen_git.changed_since(project, "HEAD", "changelog") == []


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("nope", "--since: error: unknown git revision 'nope'"),
        ("HEAD~1", "--since: error: unknown git revision 'HEAD~1'"),
    ],
)
def test_an_unknown_revision_is_refused(repo, ref, message):
    with pytest.raises(ConfigError) as caught:
        docgen_git.registry_bytes_at(site(repo), ref)
    assert str(caught.value) == message


def test_outside_a_repository_git_says_why(tmp_path: Path):
    (tmp_path / "profiles.yaml").write_text(MINIMAL_REGISTRY, "utf-8")
    with pytest.raises(ConfigError) as caught:
        docgen_git.registry_bytes_at(load_project(tmp_path), "HEAD")
    assert str(caught.value).startswith(
        "--since: error: cannot read a git repository: fatal: not a git repository"
    )


def test_without_git_installed(repo, monkeypatch):
    monkeypatch.setenv("PATH", str(repo.root / "no-such-folder"))
    with pytest.raises(ConfigError) as caught:
        docgen_git.registry_bytes_at(site(repo), "HEAD")
    assert str(caught.value) == "--since: error: git is not installed"
    with pytest.raises(ConfigError) as caught:
        docgen_git.changed_since(site(repo), "HEAD", "changelog")
    assert str(caught.value) == "--since: error: git is not installed"


def test_a_folder_whose_name_starts_with_a_dash_is_a_folder_to_git(repo):
    """The folder is passed after ``--``: a name like ``-drafts`` is never read as an option."""
    repo.write("site/-drafts/2026-01-01.mdx", "## v0.0.1\n")
    git(repo, "add", ".")
    commit(repo, "drafts")
    repo.write("site/-drafts/2026-01-01.mdx", "## v0.0.1\n\nEdited.\n")
    repo.write("site/-drafts/2026-01-02.mdx", "## v0.0.2\n")
    assert docgen_git.changed_since(site(repo), "HEAD", "-drafts") == [
        "-drafts/2026-01-01.mdx",
        "-drafts/2026-01-02.mdx",
    ]


def _committed_registry(repo: Project, size: int) -> None:
    """Commit a registry of exactly ``size`` bytes (the minimal one, padded with comments)."""
    pad = size - len(MINIMAL_REGISTRY.encode())
    lines, rest = divmod(pad, 80)
    text = MINIMAL_REGISTRY + ("#" * 79 + "\n") * lines + ("#" * (rest - 1) + "\n" if rest else "")
    assert len(text.encode()) == size
    repo.write("site/profiles.yaml", text)
    git(repo, "add", ".")
    commit(repo, f"{size} bytes")


def test_a_registry_of_exactly_the_limit_is_read(repo):
    _committed_registry(repo, MAX_BYTES)
    assert len(docgen_git.registry_bytes_at(site(repo), "HEAD")[0]) == MAX_BYTES


def test_a_registry_over_the_limit_is_refused_with_its_size(repo):
    _committed_registry(repo, 4_150_001)  # 4.15 MB: shown rounded to one decimal
    with pytest.raises(ConfigError) as caught:
        docgen_git.registry_bytes_at(site(repo), "HEAD")
    assert str(caught.value) == (
        "--since: error: profiles.yaml at revision 'HEAD' is 4.2 MB; "
        "docgen reads registries up to 4 MB"
    )


def test_a_registry_that_is_a_folder_at_the_revision_is_refused(repo):
    (repo.root / "site/profiles.yaml").unlink()
    repo.write("site/profiles.yaml/README", "a folder\n")
    git(repo, "add", "-A")
    commit(repo, "a folder")
    with pytest.raises(ConfigError) as caught:
        docgen_git.registry_bytes_at(site(repo), "HEAD")
    assert str(caught.value) == (
        "--since: error: cannot read profiles.yaml at revision 'HEAD': it is a tree, not a file"
    )


def test_a_registry_missing_at_the_revision_is_new_since_then(repo):
    git(repo, "rm", "-q", "site/profiles.yaml")
    commit(repo, "removed")
    repo.write("site/profiles.yaml", MINIMAL_REGISTRY)
    with pytest.raises(docgen_git.NewSince) as caught:
        docgen_git.registry_bytes_at(site(repo), "HEAD")
    assert str(caught.value) == (
        "--since: error: profiles.yaml at revision 'HEAD' did not exist: there is no older "
        "registry to compare with"
    )


def test_a_registry_missing_from_the_working_tree_is_not_found_not_new(repo):
    # Run from a folder that is not the project's root, the registry is not there: that
    # is what to say, not that the committed one "did not exist".
    (repo.root / "site/profiles.yaml").unlink()
    with pytest.raises(RegistryError) as caught:
        docgen_git.registry_bytes_at(site(repo), "HEAD")
    assert str(caught.value) == "profiles.yaml: error: registry file not found"


def test_a_folder_where_the_registry_was_is_refused_in_gits_words(repo):
    git(repo, "rm", "-q", "site/profiles.yaml")
    commit_as_folder(repo, "site/profiles.yaml", "a folder")
    repo.write("site/profiles.yaml", MINIMAL_REGISTRY)
    with pytest.raises(ConfigError) as caught:
        docgen_git.registry_bytes_at(site(repo), "HEAD")
    assert str(caught.value) == (
        "--since: error: cannot read profiles.yaml at revision 'HEAD': it is a tree, not a file"
    )


def test_a_registry_linked_from_outside_the_repository_has_no_history(repo, tmp_path: Path):
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(MINIMAL_REGISTRY, "utf-8")
    (repo.root / "site/profiles.yaml").unlink()
    (repo.root / "site/profiles.yaml").symlink_to(outside)
    with pytest.raises(ConfigError) as caught:
        docgen_git.registry_bytes_at(site(repo), "HEAD")
    assert str(caught.value) == (
        "--since: error: profiles.yaml leads outside the git repository: git has no history of it"
    )


def test_the_older_registry_may_come_from_standard_input(make_project, run):
    import sys

    project = make_project()
    project.write("old.yaml", MINIMAL_REGISTRY)
    project.write("profiles.yaml", TUNED)
    from_file = run(project, "diff", "--since-file", "old.yaml").stdout
    piped = subprocess.run(
        [sys.executable, "-m", "docgen", "--root", str(project.root), "diff", "--since-file", "-"],
        input=MINIMAL_REGISTRY.encode(),
        capture_output=True,
        check=False,
    )
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.decode() == from_file
    broken = subprocess.run(
        [sys.executable, "-m", "docgen", "--root", str(project.root), "diff", "--since-file", "-"],
        input=b"schema: [\n",
        capture_output=True,
        check=False,
    )
    assert broken.returncode == 2 and broken.stderr.decode().startswith("<stdin>:"), broken.stderr


def test_an_older_registry_from_a_pipe_is_read_up_to_max_bytes_and_no_further():
    import io

    from docgen.changelog.older import _streamed

    assert len(_streamed(io.BytesIO(b"#" * MAX_BYTES), "<stdin>")) == MAX_BYTES
    with pytest.raises(RegistryError) as caught:
        _streamed(io.BytesIO(b"#" * (MAX_BYTES + 1)), "<stdin>")
    assert str(caught.value) == f"<stdin>: error: the registry is over {MAX_BYTES} bytes"


def test_the_older_registry_may_come_from_a_process_substitution(make_project, run):
    """``--since-file <(git show HEAD:profiles.yaml)`` names a pipe outside the project
    (``/dev/fd/63``): it is read as standard input is. A pipe inside the project is not
    (the tree is untrusted: nothing may make a check wait on it)."""
    import shutil

    if shutil.which("bash") is None:
        pytest.skip("no bash to make a process substitution")
    project = make_project()
    project.write("old.yaml", MINIMAL_REGISTRY)
    project.write("profiles.yaml", TUNED)
    from_file = run(project, "diff", "--since-file", "old.yaml").stdout
    command = f"{sys.executable} -m docgen --root . diff --since-file <(cat old.yaml)"
    done = subprocess.run(
        ["bash", "-c", command], cwd=project.root, capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout == from_file
    os.mkfifo(project.root / "old.fifo")
    refused = run(project, "diff", "--since-file", "old.fifo")
    assert (refused.exit_code, refused.stderr) == (
        2,
        "old.fifo: error: the registry is a FIFO, not a file; docgen reads only regular files\n",
    )
    # named from outside the project, through a link or /proc, it is the project's FIFO still
    outside = project.root.parent / "to-the-fifo"
    outside.symlink_to(project.root / "old.fifo")
    for given in (str(outside), f"/proc/self/root{project.root}/old.fifo"):
        linked = run(project, "diff", "--since-file", given)
        assert linked.exit_code == 2 and "is a FIFO, not a file" in linked.stderr, linked.output


def test_diff_shows_a_newline_or_an_escape_in_registry_text_without_obeying_it(make_project, run):
    project = make_project()
    project.write("old.yaml", MINIMAL_REGISTRY)
    project.write(
        "profiles.yaml",
        MINIMAL_REGISTRY.replace("notes: Box default.", 'notes: "Two\\nlines \\e]0;title\\a"'),
    )
    result = run(project, "diff", "--since-file", "old.yaml")
    assert result.exit_code == 0, result.output
    [line] = [x for x in result.stdout.splitlines() if "Two" in x]
    assert line.endswith("-> Two\\nlines \\x1b]0;title\\x07"), line


def test_a_shallow_clone_without_the_branch_point_is_a_clear_error(make_project, run, tmp_path):
    """actions/checkout clones one commit deep: the gate compared the branch with the base
    itself and blamed it for what the base changed since (a false failure, and `diff`
    showed the base's change reversed)."""
    project = make_project()
    git(project, "init", "-q", "-b", "main")
    git(project, "add", ".")
    commit(project, "base")
    git(project, "checkout", "-q", "-b", "feature")
    project.write("docs/extra.md", "branch work\n")
    git(project, "add", ".")
    commit(project, "feature")
    git(project, "checkout", "-q", "main")
    project.write("profiles.yaml", TUNED)
    project.write("changelog.d/tuned.md", "Tuned memory.\n")
    git(project, "add", ".")
    commit(project, "tuned on main")
    full, shallow = tmp_path / "full", tmp_path / "shallow"
    source = f"file://{project.root}"
    for clone, depth in ((full, []), (shallow, ["--depth", "1"])):
        subprocess.run(
            ["git", "clone", "-q", *depth, "-b", "feature", source, str(clone)], check=True
        )
        fetch = ["git", "fetch", "-q", *depth, "origin", "main:refs/remotes/origin/main"]
        subprocess.run(fetch, cwd=clone, check=True)
        assert run(Project(clone), "build").exit_code == 0
    assert run(Project(full), "check", "--changelog-since", "origin/main").exit_code == 0
    before = Project(shallow).snapshot()
    result = run(Project(shallow), "check", "--changelog-since", "origin/main")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "--changelog-since: error: this shallow clone does not hold where the history of "
        "HEAD meets 'origin/main', so what this branch changed cannot be told from what "
        "'origin/main' changed since: fetch the history between them (`git fetch "
        "--unshallow`, or `fetch-depth: 0` with actions/checkout)\n"
    )
    assert Project(shallow).snapshot() == before


def test_a_repository_of_sha256_objects_is_read_as_any_other(make_project, run):
    """git names an object by 64 hex digits there: the committed registry was taken for
    one that "did not exist"."""
    project = make_project()
    init = subprocess.run(
        ["git", "init", "-q", "--object-format=sha256"], cwd=project.root, capture_output=True
    )
    if init.returncode != 0:
        pytest.skip("this git cannot make a repository of sha256 objects")
    git(project, "add", ".")
    commit(project, "base")
    project.write("profiles.yaml", TUNED)
    result = run(project, "diff", "--since", "HEAD")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        "profiles.yaml:40:7: arg-changed vllm.box.tiny gpu-memory-utilization: 0.5 -> 0.6\n"
    )


def test_a_settings_file_that_was_a_folder_at_the_revision_is_no_settings_then(make_project, run):
    """What the settings named at a revision is read from its settings files; one that was
    a folder then held none (the gate stopped with "a tree, not a file")."""
    project = make_project()
    git(project, "init", "-q")
    commit_as_folder(project, "docgen.toml", "base")
    project.write("profiles.yaml", TUNED)
    project.write("changelog.d/tuned.md", "Tuned memory.\n")
    assert run(project, "build").exit_code == 0
    result = run(project, "check", "--changelog-since", "HEAD")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
