"""A new release: `docgen changelog` words it from the registry diff and the notes, checks
its version and date, and writes (or, with --dry-run, prints) the dated entry."""

from __future__ import annotations

import pytest
from conftest import MINIMAL_REGISTRY, REPO

from docgen.changelog import compose
from docgen.changelog.changes import Change
from docgen.registry.load import load_bytes

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
        "- The single-node DGX Spark `nvidia/Qwen3.6-35B-A3B-NVFP4` profile no longer "
        "enables multi-token prediction (MTP) speculative decoding by "
        "default.\n  It retains async scheduling and all other registered "
        "serve arguments.\n"
    )
    # the override as the setting a reader types, not docgen's id for it
    assert (
        '  Operators can now set `NEMOCLAW_VLLM_EXTRA_ARGS_JSON=\'["--no-async-scheduling",'
        '"--max-model-len","32768","--max-num-seqs","1","--max-num-batched-tokens","4096"]\'` '
        "to bound resource use while investigating long-context workflows on one DGX Spark."
    ) in bullet.splitlines()
    assert "bounded-long-context" not in bullet
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
    heading = (example.root / ENTRY).read_text("utf-8").split("\n").index("## v0.0.102") + 1
    assert result.stderr == (
        f"{ENTRY}:{heading}:1: error: version v0.0.102 is already released here; "
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
            ["--version", "0.1"],
            "--version: error: malformed version '0.1'; expected vX.Y.Z, e.g. v0.0.102",
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


def test_a_version_without_its_v_names_the_release_as_release_notes_reads_it(make_project, run):
    project = base_project(make_project, run)
    written = release(run, project, "0.1.0")
    assert written.stdout.startswith("write changelog/2026-01-02.mdx (v0.1.0)\n")
    assert "## v0.1.0\n" in project.read("changelog/2026-01-02.mdx")
    assert run(project, "release-notes", "0.1.0").exit_code == 0


def release(run, project, version: str, date: str = "2026-01-02"):
    return run(
        project, "changelog", "--version", version, "--since-file", "old.yaml", "--date", date
    )


@pytest.mark.parametrize("version", ["v1.0.0", "v0.0.1", "v10.20.30"])
def test_the_version_check_accepts_vx_y_z(make_project, run, version):
    project = base_project(make_project, run)
    result = release(run, project, version)
    assert (result.exit_code, result.stdout.splitlines(), result.stderr) == (
        0,
        [f"write changelog/2026-01-02.mdx ({version})", "write changelog/overview.mdx"],
        "",
    )
    assert f"\n## {version}\n\nAcme {version} " in project.read("changelog/2026-01-02.mdx")


@pytest.mark.parametrize("version", ["1.0", "v1.0", "v1.0.0-rc1", "V1.0.0", "v1.0.0.0", "vx.y.z"])
def test_the_version_check_refuses_anything_but_vx_y_z(make_project, run, version):
    project = base_project(make_project, run)
    before = project.snapshot()
    result = release(run, project, version)
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "",
        f"--version: error: malformed version '{version}'; expected vX.Y.Z, e.g. v0.0.102\n",
    )
    assert project.snapshot() == before


def test_the_version_check_refuses_a_released_version_on_any_day(make_project, run):
    project = base_project(make_project, run)
    assert release(run, project, "v1.0.0").exit_code == 0
    before = project.snapshot()
    again = release(run, project, "v1.0.0", "2026-01-03")
    entry = "changelog/2026-01-02.mdx"
    heading = (project.root / entry).read_text("utf-8").split("\n").index("## v1.0.0") + 1
    assert (again.exit_code, again.stdout, again.stderr) == (
        2,
        "",
        f"{entry}:{heading}:1: error: version v1.0.0 is already released here; entries "
        "are history and are never rewritten\n",
    )
    assert project.snapshot() == before
    newer = release(run, project, "v1.0.1", "2026-01-03")
    assert (newer.exit_code, newer.stdout.splitlines()) == (
        0,
        ["write changelog/2026-01-03.mdx (v1.0.1)", "update changelog/overview.mdx"],
    )


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
        "profiles.yaml: error: nothing to release: the registry has no change a release "
        "describes since that state and changelog.d/ holds no notes\n"
    )
    assert project.snapshot() == before


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
    assert (project.root / "changelog.d").is_dir()  # the notes folder waits for the next
    text = project.read("changelog/2026-01-02.mdx")
    assert (
        "- The single-node Big Box `acme/Tiny-1B` profile now uses `--gpu-memory-utilization 0.6` "
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
    assert second.stdout.splitlines() == [
        "write changelog/2026-01-02.mdx (v1.0.1)",
        "update changelog/overview.mdx",
        "merged and removed more.md",
    ]
    text = project.read("changelog/2026-01-02.mdx")
    assert text.index("## v1.0.1") < text.index("## v1.0.0")
    assert text.startswith("{/*\n * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.\n")
    assert text.count("SPDX-FileCopyrightText") == 1
    assert run(project, "build").exit_code == 0
    assert run(project, "check").exit_code == 0


def test_a_release_of_notes_alone_is_not_said_to_update_profiles(make_project, run):
    """The default summary spoke of updated profiles when no profile changed."""
    project = make_project(files={"old.yaml": MINIMAL_REGISTRY})
    assert run(project, "build").exit_code == 0
    project.write("changelog.d/fix.md", "Fixed a typo.\n")
    result = run(project, "changelog", "--since-file", "old.yaml",
                 "--version", "v1.0.0", "--date", "2026-01-02", "--dry-run")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (
        result.stdout == "## v1.0.0\n\nAcme v1.0.0 brings the changes below.\n\n- Fixed a typo.\n"
    )


def test_a_release_dated_before_a_lower_version_is_written_with_a_warning(make_project, run):
    """A typo in --date went unremarked, and the overview's dates ran backwards; a later
    release of an older line (a backport) is no such thing."""
    project = base_project(make_project, run)
    project.write("changelog.d/a.md", "First.\n")
    assert release(run, project, "v0.3.0", "2026-12-07").exit_code == 0
    project.write("changelog.d/b.md", "Second.\n")
    early = release(run, project, "v0.4.0", "2026-12-01")
    assert early.exit_code == 0, early.output
    assert early.stdout.splitlines()[-1] == (
        "--date: warning: v0.4.0 is dated 2026-12-01, before v0.3.0 (2026-12-07), a lower "
        "version: the overview lists releases by version, so their dates run backwards there"
    )
    project.write("changelog.d/c.md", "Again.\n")
    dry = run(project, "changelog", "--version", "v0.5.0", "--since-file", "old.yaml",
              "--date", "2026-12-02", "--dry-run")  # fmt: skip
    assert dry.exit_code == 0 and dry.stdout.startswith("## v0.5.0\n"), dry.output
    assert "--date: warning: v0.5.0 is dated 2026-12-02, before v0.3.0" in dry.stderr  # before
    project.write("changelog.d/c.md", "Backport.\n")
    backport = release(run, project, "v0.2.9", "2026-12-08")
    assert backport.exit_code == 0 and "--date: warning" not in backport.output


def test_hidden_files_in_the_notes_folder_are_no_notes(make_project, run):
    """An editor's lock (``.#fix.md``, a dangling link) stopped the release ("cannot read
    changelog note"), and a hidden ``.draft.md`` was merged and deleted."""
    import os

    project = base_project(make_project, run)
    project.write("changelog.d/fix.md", "Fixed the Beta installer.\n")
    project.write("changelog.d/.draft.md", "Not ready.\n")
    os.symlink("root@host.1234:1700000000", project.root / "changelog.d/.#fix.md")
    result = release(run, project, "v1.0.0")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "merged and removed fix.md"
    text = project.read("changelog/2026-01-02.mdx")
    assert "- Fixed the Beta installer.\n" in text and "Not ready" not in text
    assert sorted(p.name for p in (project.root / "changelog.d").iterdir()) == [
        ".#fix.md",
        ".draft.md",
    ]
    assert run(project, "check").exit_code == 0


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
    assert "- v0.0.103 (2026-08-10): " in (example.read("changelog/overview.mdx"))
    check = run(example, "check")
    assert check.exit_code == 0, check.output
    built = run(example, "build").output  # the pages, variants, export, overview, navigation
    assert built == "0 written, 0 updated, 0 pruned, 31 unchanged\n"


# -- the wording's building blocks, one by one ---------------------------------------------


def test_changes_are_grouped_by_subject_in_first_seen_order_and_ranked_within():
    changes = [
        Change("arg-added", "p1", "a"),
        Change("expect-changed", "p2", "expect"),
        Change("host-default-changed", "box", "default model"),
        Change("profile-renamed", "p1"),
        Change("model-changed", "tiny", "label"),
        Change("arg-removed", "p1", "b"),
        Change("model-changed", "box", "notes"),
        Change("some-new-kind", "p1"),
    ]
    groups = compose.groups(changes)
    assert [g.subject for g in groups] == ["p1", "host:box", "model:tiny", "model:box"]
    assert [c.kind for c in groups[0].changes] == [
        "profile-renamed",
        "arg-removed",
        "arg-added",
        "some-new-kind",
    ]
    assert groups[0].profile is None


def test_a_group_names_the_first_profile_its_changes_carry():
    first, second = object(), object()
    group = compose.Group(
        "p",
        (
            Change("arg-added", "p", extra={}),
            Change("arg-changed", "p", extra={"profile": first}),
            Change("arg-removed", "p", extra={"profile": second}),
        ),
    )
    assert group.profile is first


def test_a_bullet_is_one_sentence_per_line_under_a_dash():
    assert compose.bullet(["  One. ", "", "Two.", "   "]) == "- One.\n  Two."


def test_a_release_section_is_heading_summary_and_bullets():
    release = compose.Release("v1.0.0", "Acme v1.0.0 ships.", ("- A.", "- B."))
    assert release.section() == "## v1.0.0\n\nAcme v1.0.0 ships.\n\n- A.\n- B.\n"


def test_the_entry_text_puts_a_new_release_on_top_under_the_header():
    registry = load_bytes(MINIMAL_REGISTRY.encode(), "profiles.yaml")
    header = (
        "{/*\n * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.\n"
        " * SPDX-License-Identifier: Apache-2.0\n */}\n"
    )
    new = compose.Release("v1.0.1", "Acme v1.0.1 ships.", ("- B.",))
    old = "## v1.0.0\n\nAcme v1.0.0 ships.\n\n- A.\n"
    assert compose.entry_text(registry, new, None) == f"{header}\n{new.section()}"
    assert compose.entry_text(registry, new, f"{header}\n\n{old}") == (
        f"{header}\n{new.section()}\n{old}"
    )
    # An existing entry without the header gets it (the history check asks for it).
    assert compose.entry_text(registry, new, old) == f"{header}\n{new.section()}\n{old}"
    plain = load_bytes(
        MINIMAL_REGISTRY.replace(
            "  spdx:\n    copyright: Copyright (c) 2026 Acme Inc.\n    license: Apache-2.0\n", ""
        ).encode(),
        "profiles.yaml",
    )
    assert compose.entry_text(plain, new, None) == new.section()


def test_a_same_day_release_keeps_an_entrys_windows_line_ends(make_project, run):
    project = base_project(make_project, run)
    args = ["--since-file", "old.yaml", "--date", "2026-01-02", "--summary", "tunes it."]
    assert run(project, "changelog", "--version", "v1.0.0", *args).exit_code == 0
    entry = project.root / "changelog/2026-01-02.mdx"
    entry.write_bytes(entry.read_bytes().replace(b"\n", b"\r\n"))  # a Windows checkout
    project.write("changelog.d/more.md", "- Documented the Alpha agent.\n")
    again = ["--since-file", "profiles.yaml", "--date", "2026-01-02"]
    assert run(project, "changelog", "--version", "v1.0.1", *again).exit_code == 0
    written = entry.read_bytes()
    assert b"## v1.0.1" in written and written.count(b"\n") == written.count(b"\r\n")
    # The overview lists the release it added, so the tree is left in sync.
    assert "v1.0.1" in project.read("changelog/overview.mdx")
    assert run(project, "check").exit_code == 0


@pytest.mark.parametrize("dry_run", [[], ["--dry-run"]])
@pytest.mark.parametrize(
    ("text", "at", "code"),
    [
        ("- Fixed a \x1b[31mred\x1b[0m flip.\n", "1:11", "001B"),
        ("- Fixed a\n  \u202eflip.\n", "2:3", "202E"),
        ("- Fixed\ta \x00 flip.\r\n", "1:11", "0000"),
        ("- Fixed a \u2028flip.\n", "1:11", "2028"),
    ],
)
def test_a_note_holding_a_control_character_is_refused_at_it(
    make_project, run, text, at, code, dry_run
):
    """A note is untrusted text: an escape sequence or a bidirectional override in it
    went into the entry, and so into the published page, which shows the text reordered
    (a tab and the line ends are text)."""
    project = base_project(make_project, run)
    project.write("changelog.d/fix.md", text)
    before = project.snapshot()
    args = ["changelog", "--since-file", "old.yaml", "--version", "v0.1.0", *dry_run]
    result = run(project, *args, "--date", "2026-01-02")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"changelog.d/fix.md:{at}: error: the note holds U+{code}, a control character no "
        "page shows as text (an escape, or a bidirectional override that reorders what a "
        "reader sees): remove it\n"
    )
    assert project.snapshot() == before


@pytest.mark.parametrize(
    ("name", "how"),
    [
        ("fix.MD", "in lowercase"),
        ("fix.txt", "a Markdown file"),
        ("fix.markdown", "a Markdown file"),
        ("fix.mdx", "a Markdown file"),
        ("fix.md.txt", "with nothing after it (this name ends '.txt')"),
        ("fix.md.j2", "with nothing after it (this name ends '.j2')"),
        ("fix.MD.j2", "with nothing after it (this name ends '.j2')"),
        ("fix.md ", "with nothing after it (this name ends ' ')"),
        ("fix.md~", "with nothing after it (this name ends '~')"),
        ("fix.md copy", "with nothing after it (this name ends ' copy')"),
        ("fix.md\u200b", "with nothing after it (this name ends '\\u200b')"),
        ("fix.rst.orig", "a Markdown file"),
    ],
)
def test_a_note_named_in_other_capitals_or_another_suffix_is_refused_not_left_out(
    make_project, run, name, how
):
    """``n.MD``, ``n.txt``, ``n.md.j2`` or ``n.md `` was no note and no error: it waited for
    a release that never took it (``docgen changelog`` said the folder holds no notes)."""
    project = base_project(make_project, run)
    project.write(f"changelog.d/{name}", "Fixed the Beta installer.\n")
    before = project.snapshot()
    result = release(run, project, "v1.0.0")
    assert result.exit_code == 2
    assert result.stderr == f"changelog.d/{name}: error: a note is named *.md, {how}: fix.md\n"
    assert project.snapshot() == before


def _summary_line(run, project, summary: str, version: str = "v1.0.1") -> str:
    result = run(
        project, "changelog", "--version", version, "--since-file", "old.yaml",
        "--date", "2026-01-02", "--summary", summary, "--dry-run",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return result.stdout.split(f"## {version}\n\n", 1)[1].split("\n", 1)[0]


def test_a_summary_is_led_by_the_product_and_version_unless_it_is(make_project, run):
    """``Acme v1.0.10`` does not lead with ``Acme v1.0.1``; a summary that ends as a
    sentence may end in a colon, as one that introduces the bullets does."""
    project = base_project(make_project, run)
    assert _summary_line(run, project, "Acme v1.0.1 fixes it") == "Acme v1.0.1 fixes it."
    assert _summary_line(run, project, "Acme v1.0.10 is out") == "Acme v1.0.1 Acme v1.0.10 is out."
    assert _summary_line(run, project, "Highlights:") == "Acme v1.0.1 Highlights:"
    assert _summary_line(run, project, "Done!") == "Acme v1.0.1 Done!"


def test_a_version_number_of_ten_digits_is_refused(make_project, run):
    project = base_project(make_project, run)
    result = release(run, project, "v1234567890.0.0")
    assert (result.exit_code, result.stderr) == (
        2,
        "--version: error: version 'v1234567890.0.0' has a number of more than 9 digits\n",
    )


def test_markup_in_the_summary_is_located_at_the_option(make_project, run):
    project = base_project(make_project, run)
    result = run(
        project, "changelog", "--version", "v1.0.1", "--since-file", "old.yaml",
        "--date", "2026-01-02", "--summary", "Fixes <b>x</b> now",
    )  # fmt: skip
    assert result.exit_code == 2
    assert result.stderr.startswith("--summary: error: '<b' starts an HTML or JSX tag"), (
        result.stderr
    )


def test_a_release_heading_inside_a_comment_starts_no_release():
    from docgen.changelog.entries import parse_entry

    text = "## v1.0.1\n\nFixed.\n\n{/*\n## v1.0.0\n*/}\n"
    assert [s.version for s in parse_entry("changelog/2026-01-02.mdx", text).sections] == ["v1.0.1"]


def test_a_note_whose_bullet_shows_nothing_is_refused_and_nothing_changes(make_project, run):
    project = base_project(make_project, run)
    project.write("changelog.d/fix.md", "- Fixed the installer.\n- &nbsp;\n")
    before = project.snapshot()
    result = release(run, project, "v1.0.0")
    assert (result.exit_code, result.stderr) == (
        2,
        "changelog.d/fix.md:2: error: this bullet shows no text (only comments, character "
        "references, code fences or invisible characters): say what changed, or remove it\n",
    )
    assert project.snapshot() == before


def test_registry_text_with_braces_makes_a_release_check_accepts_and_mdx_reads(make_project, run):
    """Pages escape ``{`` (MDX reads a lone ``}`` as text), but an entry shows no bare
    ``}``: registry text docgen words into a release has each one escaped, where it was
    refused at the entry it would write (for a value every page showed fine)."""
    from mdxc import mdx_text_of, require_mdx

    require_mdx()
    braced = MINIMAL_REGISTRY.replace("name: Acme", 'name: "Ac}me"')
    old = braced.replace("notes: Box default.", 'notes: "Box {default}."')
    new = old.replace("summary: Use less memory.", 'summary: "Use {less} memory, }{x}."')
    new = new.replace('notes: "Box {default}."', 'notes: "Box {default} }."')
    project = make_project(registry=new, files={"old.yaml": old})
    assert run(project, "build").exit_code == 0
    args = ["--since-file", "old.yaml", "--version", "v0.1.0", "--date", "2026-12-01"]
    result = run(project, "changelog", *args)
    assert result.exit_code == 0, result.output
    assert run(project, "check").exit_code == 0
    entry = project.read("changelog/2026-12-01.mdx")
    assert "Use \\{less\\} memory, \\}\\{x\\}" in entry
    read = mdx_text_of({"entry": entry})["entry"]
    assert "use {less} memory, }{x}" in read.lower() and "Box {default} }." in read
    assert "Ac}me v0.1.0" in read


def test_a_release_does_not_start_a_second_changelog_beside_the_docs_one(make_project, run):
    """NemoClaw keeps its entries in docs/changelog; without the setting, the release went
    to a new changelog/ folder, and the real one stayed unchecked."""
    project = make_project(registry=with_change(), files={"old.yaml": MINIMAL_REGISTRY})
    project.write("docs/changelog/2026-01-01.mdx", "## v0.0.1\n")
    args = ["changelog", "--version", "v1.0.0", "--since-file", "old.yaml", "--date", "2026-01-02"]
    before = project.snapshot()
    result = run(project, *args)
    assert (result.exit_code, result.stderr) == (
        2,
        "docgen.toml: error: the changelog folder 'changelog' does not exist, but "
        "'docs/changelog' holds dated entries: set changelog = \"docs/changelog\" (or set "
        "changelog to the folder you mean, to start one there)\n",
    )
    assert project.snapshot() == before
    project.write("docgen.toml", 'changelog = "changelog"\n')  # meant: a changelog of its own
    assert run(project, *args).exit_code == 0
    assert (project.root / "changelog/2026-01-02.mdx").is_file()
