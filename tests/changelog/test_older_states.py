"""An older registry state (a commit, or a file named with ``--since-file``) is read for
what it held, not judged by today's start-time rules: a state vLLM would refuse to start
can still be the base of a diff and of the changelog gate."""

from __future__ import annotations

from conftest import MINIMAL_REGISTRY, git

# vLLM refuses to start with --enable-auto-tool-choice but no --tool-call-parser.
REFUSED = MINIMAL_REGISTRY.replace(
    "      enable-prefix-caching: true\n",
    "      enable-prefix-caching: true\n      enable-auto-tool-choice: true\n",
)
FIXED = REFUSED.replace(
    "      enable-auto-tool-choice: true\n",
    "      enable-auto-tool-choice: true\n      tool-call-parser: hermes\n",
)


def test_the_refused_state_is_refused_by_validate(make_project, run):
    project = make_project(registry=REFUSED)
    result = run(project, "validate")
    assert result.exit_code == 2
    assert "tool-call-parser" in result.stderr


def test_a_file_vllm_would_refuse_is_still_a_base_to_diff_against(make_project, run):
    project = make_project(registry=FIXED, files={"old.yaml": REFUSED})
    result = run(project, "diff", "--since-file", "old.yaml")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    assert result.stdout == (
        "profiles.yaml:44:7: arg-added vllm.box.tiny tool-call-parser: (none) -> hermes\n"
        "1 semantic change\n"
    )


def test_a_commit_vllm_would_refuse_is_still_a_base_to_diff_against(make_project, run):
    project = make_project(registry=REFUSED)
    git(project.root, "init", "-q")
    git(project.root, "add", ".")
    git(project.root, "commit", "-qm", "refused")
    project.write("profiles.yaml", FIXED)
    result = run(project, "diff", "--since", "HEAD")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    assert result.stdout == (
        "profiles.yaml:44:7: arg-added vllm.box.tiny tool-call-parser: (none) -> hermes\n"
        "1 semantic change\n"
    )


def test_the_gate_finds_an_entry_in_a_nested_changelog_folder(make_project, run):
    project = make_project(
        files={"pyproject.toml": '[tool.docgen]\nchangelog = "docs/notes/changelog"\n'}
    )
    git(project.root, "init", "-q")
    git(project.root, "add", ".")
    git(project.root, "commit", "-qm", "base")
    project.edit("profiles.yaml", "max-num-seqs: 2", "max-num-seqs: 3")
    assert run(project, "check", "--changelog-since", "HEAD").exit_code == 1
    project.write("docs/notes/changelog/2026-01-01.mdx", "## v0.0.1\n\nAcme v0.0.1 tunes.\n")
    result = run(project, "check", "--changelog-since", "HEAD")
    assert "no new changelog entry" not in result.output
