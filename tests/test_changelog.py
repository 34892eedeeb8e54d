"""Semantic registry diff, dated changelog entries, history checks and release notes."""

from __future__ import annotations

import subprocess

import pytest
from conftest import MINIMAL_REGISTRY, REPO

SEED = "tests/fixtures/profiles-v0.0.101.yaml"
SEED_SUMMARY = (
    "reduces the managed single-node DGX Spark Qwen profile's default memory demand "
    "during long-context agent workflows."
)
ENTRY = "changelog/2026-08-04.mdx"


def seed_args(*extra: str) -> list[str]:
    return [
        "changelog",
        "--version",
        "v0.0.102",
        "--since-file",
        str(REPO / SEED),
        "--date",
        "2026-08-04",
        "--summary",
        SEED_SUMMARY,
        *extra,
    ]


def test_seed_release_is_written_by_one_command(example, run):
    committed = example.read(ENTRY)
    (example.root / ENTRY).unlink()
    (example.root / "changelog/overview.mdx").unlink()
    result = run(example, *seed_args())
    assert result.exit_code == 0, result.output
    assert example.read(ENTRY) == committed
    lines = committed.splitlines()
    assert lines[:4] == [
        "{/*",
        " * SPDX-FileCopyrightText: Copyright (c) 2026 NVIDIA CORPORATION & AFFILIATES. "
        "All rights reserved.",
        " * SPDX-License-Identifier: Apache-2.0",
        " */}",
    ]
    assert lines[5] == "## v0.0.102"
    assert lines[7].startswith("NemoClaw v0.0.102 reduces the managed single-node DGX Spark")
    bullet = "\n".join(lines[9:])
    assert bullet.startswith(
        "- The DGX Spark `nvidia/Qwen3.6-35B-A3B-NVFP4` profile no longer "
        "enables multi-token prediction (MTP) speculative decoding by "
        "default.\n  It retains async scheduling and all other registered "
        "serve arguments.\n"
    )
    assert "  Operators can now apply the `bounded-long-context` override" in bullet
    assert "  It does not guarantee protection against a DGX Spark host freeze." in bullet
    assert bullet.endswith(
        "  For more information, refer to [Set Up vLLM](/user-guide/openclaw/"
        "inference/local-inference/set-up-vllm)."
    )
    assert run(example, "build").exit_code == 0
    assert run(example, "check").exit_code == 0


def test_rerunning_a_release_is_refused_without_touching_the_file(example, run):
    before = example.snapshot()
    result = run(example, *seed_args())
    assert result.exit_code == 2
    assert result.stderr == (
        f"{ENTRY}: error: version v0.0.102 is already released here; "
        "entries are history and are never rewritten\n"
    )
    assert example.snapshot() == before


def test_dry_run_prints_the_section_and_writes_nothing(example, run):
    (example.root / ENTRY).unlink()
    before = example.snapshot()
    result = run(example, *seed_args("--dry-run"))
    assert result.exit_code == 0
    assert result.output.startswith("## v0.0.102\n\nNemoClaw v0.0.102 reduces")
    assert example.snapshot() == before


def with_change(text: str = MINIMAL_REGISTRY) -> str:
    return text.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")


def base_project(make_project, run):
    project = make_project(files={"old.yaml": MINIMAL_REGISTRY})
    project.write("profiles.yaml", with_change())
    assert run(project, "build").exit_code == 0
    return project


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["--version", "0.1.0"],
            "--version: error: malformed version '0.1.0'; expected vX.Y.Z, e.g. v0.0.102",
        ),
        (
            ["--version", "v1.0.0", "--date", "2026-02-30"],
            "--date: error: malformed date '2026-02-30'; expected a real date as YYYY-MM-DD",
        ),
        (
            ["--version", "v1.0.0", "--date", "yesterday"],
            "--date: error: malformed date 'yesterday'; expected a real date as YYYY-MM-DD",
        ),
    ],
)
def test_bad_version_and_date_are_refused(make_project, run, args, expected):
    project = base_project(make_project, run)
    before = project.snapshot()
    result = run(project, "changelog", "--since-file", "old.yaml", *args)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [expected]
    assert project.snapshot() == before


def test_empty_diff_without_notes_is_refused(make_project, run):
    project = make_project(files={"old.yaml": MINIMAL_REGISTRY})
    before = project.snapshot()
    result = run(
        project,
        "changelog",
        "--version",
        "v1.0.0",
        "--since-file",
        "old.yaml",
        "--date",
        "2026-01-02",
    )
    assert result.exit_code == 2
    assert result.stderr == (
        "profiles.yaml: error: nothing to release: the registry has no "
        "semantic change since that state and changelog.d/ holds no notes\n"
    )
    assert project.snapshot() == before


def test_a_fragment_linked_outside_the_root_is_refused_unread(make_project, run, tmp_path):
    project = base_project(make_project, run)
    secret = tmp_path / "outside.md"
    secret.write_text("hunter2\n", "utf-8")
    (project.root / "changelog.d").mkdir()
    (project.root / "changelog.d/leak.md").symlink_to(secret)
    before = project.snapshot()
    args = ["--version", "v1.0.0", "--since-file", "old.yaml", "--date", "2026-01-02"]
    result = run(project, "changelog", *args)
    assert result.exit_code == 2
    assert result.stderr == (
        "changelog.d/leak.md: error: the changelog fragment is a symbolic link that leaves "
        "the project root; docgen reads only files inside it\n"
    )
    assert "hunter2" not in result.output
    assert project.snapshot() == before
    assert secret.read_text("utf-8") == "hunter2\n"


def test_fragments_are_merged_then_removed_and_same_day_release_goes_on_top(make_project, run):
    project = base_project(make_project, run)
    project.write("changelog.d/fix.md", "Fixed the Beta installer.\nIt now retries once.\n")
    first = run(
        project,
        "changelog",
        "--version",
        "v1.0.0",
        "--since-file",
        "old.yaml",
        "--date",
        "2026-01-02",
        "--summary",
        "tunes the Big Box profile.",
    )
    assert first.exit_code == 0, first.output
    assert not (project.root / "changelog.d/fix.md").exists()
    text = project.read("changelog/2026-01-02.mdx")
    assert (
        "- The Big Box `acme/Tiny-1B` profile now uses `--gpu-memory-utilization 0.6` "
        "instead of `--gpu-memory-utilization 0.5`."
    ) in text
    assert "- Fixed the Beta installer.\n  It now retries once.\n" in text
    project.write("changelog.d/more.md", "- Documented the Alpha agent.\n")
    second = run(
        project,
        "changelog",
        "--version",
        "v1.0.1",
        "--since-file",
        "profiles.yaml",
        "--date",
        "2026-01-02",
    )
    assert second.exit_code == 0, second.output
    text = project.read("changelog/2026-01-02.mdx")
    assert text.index("## v1.0.1") < text.index("## v1.0.0")
    assert text.startswith("{/*\n * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.\n")
    assert text.count("SPDX-FileCopyrightText") == 1
    assert run(project, "build").exit_code == 0
    assert run(project, "check").exit_code == 0


DAMAGED = [
    (
        "header",
        lambda t: t.replace("Apache-2.0", "MIT", 1),
        1,
        "the entry must start with the exact SPDX header",
    ),
    (
        "html-comment",
        lambda t: t + "<!-- note -->\n",
        16,
        "HTML comments are not allowed in changelog entries; use {/* ... */}",
    ),
    (
        "token",
        lambda t: t + "Run `$$nemoclaw onboard`.\n",
        16,
        "the CLI token '$$nemoclaw' is not replaced in changelog entries; write the CLI name "
        "literally",
    ),
    (
        "agentonly",
        lambda t: t + '<AgentOnly variant="hermes">\n',
        16,
        "<AgentOnly> is not resolved in changelog entries",
    ),
    (
        "relative-link",
        lambda t: t.replace("(/user-guide/openclaw/inference/local-inference/", "(../inference/"),
        15,
        "relative link '../inference/set-up-vllm': changelog links must be root-absolute routes "
        "such as /user-guide/...",
    ),
    (
        "dead-link",
        lambda t: t.replace("local-inference/set-up-vllm", "local-inference/nope"),
        15,
        "link '/user-guide/openclaw/inference/local-inference/nope' does not resolve to a page the "
        "project publishes",
    ),
    (
        "bad-heading",
        lambda t: t.replace("## v0.0.102", "## Version 0.0.102"),
        1,
        "no release heading: add '## vX.Y.Z'",
    ),
    (
        "order",
        lambda t: t + "\n## v0.0.103\n\nNemoClaw v0.0.103 adds things.\n",
        17,
        "v0.0.103 comes after v0.0.102: list releases newest first",
    ),
]


@pytest.mark.parametrize(
    ("edit", "line", "message"), [c[1:] for c in DAMAGED], ids=[c[0] for c in DAMAGED]
)
def test_damaged_past_entry_fails_check_with_file_and_line(example, run, edit, line, message):
    example.write(ENTRY, edit(example.read(ENTRY)))
    result = run(example, "check")
    assert result.exit_code == 1
    assert f"{ENTRY}:{line}: error: {message}" in result.output


def test_duplicate_version_across_files_and_bad_file_name(example, run):
    example.write("changelog/2026-08-05.mdx", example.read(ENTRY))
    example.write("changelog/2026-13-01.mdx", example.read(ENTRY).replace("v0.0.102", "v0.0.1"))
    result = run(example, "check")
    assert result.exit_code == 1
    assert (
        f"changelog/2026-08-05.mdx:6: error: version v0.0.102 is already released in {ENTRY}"
    ) in result.output
    assert (
        "changelog/2026-13-01.mdx:1: error: changelog file name '2026-13-01.mdx' is not a "
        "real date as YYYY-MM-DD.mdx"
    ) in result.output


def git(project, *args: str) -> None:
    subprocess.run(["git", *args], cwd=project.root, check=True, capture_output=True)


def test_since_git_revision_and_the_changelog_gate(make_project, run):
    project = make_project()
    git(project, "init", "-q")
    git(project, "-c", "user.email=a@b", "-c", "user.name=a", "add", ".")
    git(project, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "base")
    project.write("profiles.yaml", with_change())
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
    from conftest import Project

    result = run(Project(clone), "diff", "--since", "HEAD~1")
    assert result.exit_code == 2
    assert result.stderr == (
        "--since: error: unknown git revision 'HEAD~1' (this is a shallow "
        "clone: fetch more history, e.g. `git fetch --unshallow`)\n"
    )


def test_release_notes_are_plain_markdown_with_absolute_links(example, run):
    result = run(example, "release-notes", "v0.0.102", "--site-url", "https://docs.example.com")
    assert result.exit_code == 0
    assert result.output.startswith("## v0.0.102\n\nNemoClaw v0.0.102 reduces")
    assert "{/*" not in result.output
    assert (
        "[Set Up vLLM](https://docs.example.com/user-guide/openclaw/inference/"
        "local-inference/set-up-vllm)"
    ) in result.output
    missing = run(example, "release-notes", "v9.9.9")
    assert missing.exit_code == 2
    assert missing.stderr == (
        "release-notes: error: no release v9.9.9 in changelog/ (known: v0.0.102)\n"
    )


def test_overview_page_lists_every_release(example):
    text = example.read("changelog/overview.mdx")
    assert (
        "- [v0.0.102](/user-guide/openclaw/release-notes/2026/8/4) (2026-08-04): NemoClaw "
        "v0.0.102 reduces" in text
    )


def test_a_new_release_leaves_the_tree_in_sync(example, run):
    """`changelog` refreshes what the entries generate (the overview) in the same command."""
    assert run(example, "check").exit_code == 0
    args = ["--version", "v0.0.103", "--since-file", str(REPO / SEED), "--date", "2026-08-10"]
    result = run(example, "changelog", *args)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "write changelog/2026-08-10.mdx (v0.0.103)",
        "update changelog/overview.mdx",
    ]
    assert "- [v0.0.103](/user-guide/openclaw/release-notes/2026/8/10) (2026-08-10): " in (
        example.read("changelog/overview.mdx")
    )
    check = run(example, "check")
    assert check.exit_code == 0, check.output
    assert run(example, "build").output == "0 written, 0 updated, 0 pruned, 30 unchanged\n"


def test_overview_drift_names_the_changelog_entry_not_the_registry(example, run):
    example.edit(ENTRY, "NemoClaw v0.0.102 reduces", "NemoClaw v0.0.102 lowers")
    result = run(example, "check")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "changelog/overview.mdx:11:1: error: out of date with the changelog entries"
    assert lines[-1] == f"  changelog entry behind it: {ENTRY}:6:1 v0.0.102"
    assert "registry" not in result.stdout
    assert result.stderr == "docs are out of sync with the changelog entries: run `docgen build`\n"
    github = run(example, "check", "--format", "github").stdout.splitlines()
    assert github[:3] == [
        "::error file=changelog/overview.mdx,line=11::out of date with the changelog entries",
        f"::error file={ENTRY},line=6,col=1::v0.0.102 changed; run docgen build to update "
        "changelog/overview.mdx",
        "::notice::1 generated file is out of sync with the changelog entries; run docgen build",
    ]
    assert run(example, "build").exit_code == 0
    assert run(example, "check").exit_code == 0


def test_diff_counts_in_the_singular_and_q_leaves_the_count_out(make_project, run):
    project = make_project(files={"old.yaml": MINIMAL_REGISTRY})
    project.write("profiles.yaml", with_change())
    change = "profiles.yaml:40:7: arg-changed vllm.box.tiny gpu-memory-utilization: 0.5 -> 0.6"
    result = run(project, "diff", "--since-file", "old.yaml")
    assert result.output.splitlines() == [change, "1 semantic change"]
    quiet = run(project, "diff", "-q", "--since-file", "old.yaml")
    assert (quiet.exit_code, quiet.output.splitlines()) == (0, [change])
    project.write("profiles.yaml", with_change().replace("max-num-seqs: 2", "max-num-seqs: 3"))
    assert run(project, "diff", "--since-file", "old.yaml").output.endswith(
        "\n2 semantic changes\n"
    )


def test_release_notes_without_a_site_url_warn_that_links_stay_relative(example, run):
    result = run(example, "release-notes", "v0.0.102")
    assert result.exit_code == 0
    assert "](/user-guide/openclaw/inference/local-inference/set-up-vllm)" in result.stdout
    assert result.stderr == (
        "release-notes: warning: neither product.site_url nor --site-url is set, so the "
        "root-absolute link '/user-guide/openclaw/inference/local-inference/set-up-vllm' "
        "stays relative\n"
    )
    assert run(example, "release-notes", "v0.0.102", "-q").stderr == ""
    linked = run(example, "release-notes", "v0.0.102", "--site-url", "https://docs.example.com")
    assert linked.stderr == ""
