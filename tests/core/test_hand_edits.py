"""A hand edit of a file docgen writes, as `check` tells it: with the build's cache, a file
that changed while nothing it is made of did is said to be edited by hand (`docgen build`
would undo the edit), naming the template to make it in; without the cache (a fresh clone)
it is drift like any other. The verdict is the same either way."""

from __future__ import annotations

import json
import shutil

from docgen import cache

PAGE = "docs/inference/set-up-vllm.mdx"
TEMPLATE = "templates/inference/set-up-vllm.mdx.j2"
EDITED = (
    "edited since docgen wrote it, though nothing it is made of changed: `docgen build` "
    f"would undo the edit; make it in {TEMPLATE} or the registry instead"
)


def test_a_hand_edit_is_named_so_and_the_template_to_make_it_in(example, run):
    assert run(example, "build").exit_code == 0
    example.edit(PAGE, "## Use an Existing Server", "## Use Your Existing Server")
    checked = run(example, "check")
    assert checked.exit_code == 1
    lines = checked.stdout.splitlines()
    assert lines[0].startswith(f"{PAGE}:") and lines[0].endswith(f": error: {EDITED}")
    assert checked.stderr.endswith(
        "1 generated file is edited by hand: `docgen build` would undo the edits\n"
    )
    report = json.loads(run(example, "check", "--format", "json").stdout)
    assert [(f["path"], f["edited"]) for f in report["files"] if f["status"] == "changed"] == [
        (PAGE, True)
    ]
    shutil.rmtree(example.root / cache.FOLDER)  # a fresh clone cannot tell
    fresh = run(example, "check")
    assert fresh.exit_code == 1
    assert fresh.stdout.splitlines()[0].endswith(": error: out of date with the registry")
    assert "hand edit" not in fresh.stdout


def test_a_registry_edit_is_not_taken_for_a_hand_edit(example, run):
    assert run(example, "build").exit_code == 0
    example.edit("profiles.yaml", "max-num-seqs: 16", "max-num-seqs: 17")
    checked = run(example, "check")
    assert checked.exit_code == 1
    assert "edited since docgen wrote it" not in checked.stdout
    assert "out of date with the registry" in checked.stdout
    report = json.loads(run(example, "check", "--format", "json").stdout)
    assert not any(f.get("edited") for f in report["files"])


def test_a_hand_edit_of_a_variant_points_at_the_file_its_notice_names(example, run):
    """A variant is made from a page (itself a template's, or written by hand): its
    notice names the file to edit."""
    assert run(example, "build").exit_code == 0
    variant = "docs/_build/agent-variants/inference/set-up-vllm.openclaw.generated.mdx"
    assert f"{TEMPLATE} (the openclaw variant)" in example.read(variant)  # what it names
    example.edit(variant, "## Use an Existing Server", "## Use Your Existing Server")
    first = run(example, "check").stdout.splitlines()[0]
    assert first.startswith(f"{variant}:") and first.endswith(
        ": error: edited since docgen wrote it, though nothing it is made of changed: "
        "`docgen build` would undo the edit; make it in the file its notice names (or a "
        "template), or the registry instead"
    )


def test_pages_a_checkout_brought_back_from_another_registry_are_not_hand_edits(example, run):
    """The build's cache knew the current registry, and git put back the pages of the
    committed one: drift the registry is behind, not a hand edit (it was called one)."""
    import subprocess

    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run([*git, *args], cwd=example.root, check=True, capture_output=True)
    example.edit("profiles.yaml", "max-num-seqs: 16", "max-num-seqs: 17")
    assert run(example, "build").exit_code == 0
    subprocess.run([*git, "checkout", "--", "docs"], cwd=example.root, check=True)
    checked = run(example, "check")
    assert checked.exit_code == 1
    assert "edited since docgen wrote it" not in checked.stdout
    assert "out of date with the registry" in checked.stdout
    assert "registry entry behind it: profiles.yaml:" in checked.stdout
    report = json.loads(run(example, "check", "--format", "json").stdout)
    assert not any(f.get("edited") for f in report["files"])


def test_a_hand_edit_of_the_product_name_is_a_hand_edit(example, run):
    """The edit rewrites the product's name on a page, whose every other value git holds
    unchanged: the name merely shows in the edited line and is not behind it (it was
    blamed, and the edit never called one)."""
    import subprocess

    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run([*git, *args], cwd=example.root, check=True, capture_output=True)
    assert run(example, "build").exit_code == 0
    example.edit(PAGE, "NemoClaw forces the", "NemoClawX forces the")
    report = json.loads(run(example, "check", "--format", "json").stdout)
    drifted = [f for f in report["files"] if f["status"] == "changed"]
    assert [(f["path"], f["edited"], f["sources"]) for f in drifted] == [(PAGE, True, [])]


def test_a_committed_registry_edit_with_older_pages_checked_out_is_no_hand_edit(example, run):
    """The registry edit is committed, and git puts back the pages built before it: the
    registry is behind the drift (a review caught this called a hand edit)."""
    import subprocess

    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    assert run(example, "build").exit_code == 0
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "v1"]):
        subprocess.run([*git, *args], cwd=example.root, check=True, capture_output=True)
    example.edit("profiles.yaml", "max-num-seqs: 16", "max-num-seqs: 17")
    assert run(example, "build").exit_code == 0
    for args in (["add", "-A"], ["commit", "-qm", "v2"], ["checkout", "HEAD~1", "--", "docs"]):
        subprocess.run([*git, *args], cwd=example.root, check=True, capture_output=True)
    checked = run(example, "check")
    assert checked.exit_code == 1
    assert "edited since docgen wrote it" not in checked.stdout
    assert "max-num-seqs" in checked.stdout and "registry entry behind it" in checked.stdout


PROFILE_PAGE = "docs/profiles/vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4.mdx"


def _committed(example, run) -> None:
    """The worked example built, and committed with its pages."""
    import subprocess

    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    assert run(example, "build").exit_code == 0
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "built"]):
        subprocess.run([*git, *args], cwd=example.root, check=True, capture_output=True)


def _drifted(example, run) -> list[tuple[str, bool, list[str]]]:
    report = json.loads(run(example, "check", "--format", "json").stdout)
    files = [f for f in report["files"] if f["status"] == "changed"]
    return [(f["path"], f["edited"], [s["key"] for s in f["sources"]]) for f in files]


def test_a_hand_edit_of_a_value_no_commit_holds_is_a_hand_edit(example, run):
    """A hand edit of a command's value: the line shows the registry's arg, which did not
    change since the build, and no commit holds the edited text (it was called out of date,
    and blamed on the arg's line)."""
    _committed(example, run)
    example.edit(PROFILE_PAGE, "  --max-num-seqs 4 \\\n", "  --max-num-seqs 7 \\\n")
    assert _drifted(example, run) == [(PROFILE_PAGE, True, [])]
    checked = run(example, "check")
    assert checked.stdout.splitlines()[0].endswith(
        f": error: {EDITED.replace(TEMPLATE, 'templates/profiles/[profile].mdx.j2')}"
    )
    assert "registry entry behind it" not in checked.stdout


def test_the_same_text_as_committed_is_drift_the_registry_is_behind(example, run):
    """Committed, the same text may be older pages a checkout brought back: git holds it,
    so the arg its line shows is named."""
    import subprocess

    _committed(example, run)
    example.edit(PROFILE_PAGE, "  --max-num-seqs 4 \\\n", "  --max-num-seqs 7 \\\n")
    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run([*git, "commit", "-qam", "x"], cwd=example.root, check=True)
    [(path, edited, keys)] = _drifted(example, run)
    assert (path, edited) == (PROFILE_PAGE, False)
    assert keys == ["profiles.vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4.args.max-num-seqs"]


def test_git_is_asked_about_regular_files_only(example, run):
    """git hash-object opens what it is given: a FIFO where a page goes blocked it, and
    check with it, for ever."""
    import os
    import signal

    from docgen.changelog.git import never_committed
    from docgen.config import load_project

    _committed(example, run)
    os.unlink(example.root / PROFILE_PAGE)
    os.mkfifo(example.root / PROFILE_PAGE)
    example.edit(PAGE, "## Use an Existing Server", "## Use Your Existing Server")

    def stuck(*_args: object) -> None:
        raise TimeoutError("blocked on the FIFO")

    before = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(20)
    try:
        found = never_committed(load_project(example.root), [PROFILE_PAGE, PAGE])
        checked = run(example, "check")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
    assert found == {PAGE}
    assert checked.exit_code == 1


def test_a_staged_hand_edit_of_a_shared_arg_is_a_hand_edit(example, run):
    """git add puts the edit in the index, not in a commit: still a hand edit (a review
    found it blamed on the launcher's port once blame named shared args)."""
    import subprocess

    _committed(example, run)
    example.edit(PROFILE_PAGE, "  --port 8000 \\\n", "  --port 9000 \\\n")
    subprocess.run(["git", "add", "-A"], cwd=example.root, check=True)
    assert _drifted(example, run) == [(PROFILE_PAGE, True, [])]
    subprocess.run(["git", "restore", "--staged", "."], cwd=example.root, check=True)
    assert _drifted(example, run) == [(PROFILE_PAGE, True, [])]


def test_a_build_says_which_hand_edit_it_undoes_and_where_it_belongs(example, run):
    """A build rewrites a hand-edited page as any drifted one, and says it was a hand
    edit (the same verdict check gives: git holds no such text); a page git brought back
    from the commit is no hand edit, though the cache kept it as built too."""
    import subprocess

    _committed(example, run)
    example.edit(PROFILE_PAGE, "  --max-num-seqs 4 \\\n", "  --max-num-seqs 7 \\\n")
    quiet = run(example, "build", "--dry-run", "-q")  # the drift: one path a line, as ever
    assert quiet.stdout == f"would update {PROFILE_PAGE}\n"
    built = run(example, "build")
    assert built.exit_code == 0
    assert (
        f"update {PROFILE_PAGE}\n  edited by hand: make the edit in "
        "templates/profiles/[profile].mdx.j2 or the registry\n"
    ) in built.stdout
    assert "--max-num-seqs 7" not in example.read(PROFILE_PAGE)
    example.edit("profiles.yaml", "max-num-seqs: 16", "max-num-seqs: 17")
    assert run(example, "build").exit_code == 0
    subprocess.run(["git", "checkout", "--", "docs"], cwd=example.root, check=True)
    again = run(example, "build")
    assert again.exit_code == 0 and "update " in again.stdout
    assert "edited by hand" not in again.stdout
