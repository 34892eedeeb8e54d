"""The semantic diff's exact text, the context each change hands a project's own bullet
template, and how git's own failures read (through a stand-in ``git`` on ``PATH``)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import MINIMAL_REGISTRY, Project

from docgen.changelog.changes import LEFT_OUT, Change

BASE = MINIMAL_REGISTRY
# A second profile of the same model and host, appended after the last line (from line 50).
EXTRA = "  vllm.box.extra:\n    model: tiny\n    host: box\n    args: {max-model-len: 1024}\n"


def edit(text: str, *pairs: tuple[str, str]) -> str:
    """``text`` with each ``(old, new)`` replaced; each ``old`` must occur exactly once."""
    for old, new in pairs:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def diff_lines(make_project, run, old: str, new: str) -> list[str]:
    """What `diff --since-file old.yaml` prints from ``old`` to ``new``, line by line."""
    project = make_project(registry=new, files={"old.yaml": old})
    result = run(project, "diff", "--since-file", "old.yaml")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    return result.stdout.splitlines()


# --- the text of one change -----------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "text"),
    [
        (Change("profile-added", "vllm.box.x"), "profile-added vllm.box.x"),
        (
            Change("arg-added", "p", "max-num-seqs", None, "4"),
            "arg-added p max-num-seqs: (none) -> 4",
        ),
        (
            Change("arg-removed", "p", "max-num-seqs", "4"),
            "arg-removed p max-num-seqs: 4 -> (none)",
        ),
        (
            Change("model-changed", "tiny", "gated", False, True),
            "model-changed tiny gated: false -> true",
        ),
        (  # a change to an invisible character read as no change (a hostile round)
            Change("env-changed", "p", "X", "a\tb", "a\tb\u200b\u00ad"),
            "env-changed p X: a\\tb -> a\\tb\\u200b\\xad",
        ),
    ],
    ids=["no-source-name-or-values", "only-new", "only-old", "booleans", "invisible"],
)
def test_a_change_without_a_source_reads_kind_subject_name_and_values(change, text):
    assert str(change) == text


def test_an_added_or_removed_profile_is_one_line_without_name_or_values(make_project, run):
    renamed = EXTRA.replace("vllm.box.extra", "vllm.box.other").replace("tiny", "big")
    new = edit(BASE, ("  tiny:\n", "  big: {hf: acme/Big-7B, label: Big 7B}\n  tiny:\n"))
    assert diff_lines(make_project, run, BASE + EXTRA, new + renamed) == [
        "profiles.yaml:51:3: profile-added vllm.box.other",
        "old.yaml:50:3: profile-removed vllm.box.extra",
        "profiles.yaml:28:3: model-added big",
        "3 semantic changes",
    ]


def test_a_list_value_reads_as_its_words_and_two_absent_flags_are_listed(make_project, run):
    new = edit(
        BASE,
        (
            "      max-num-seqs: 2\n",
            "      max-num-seqs: 2\n      ignore-patterns: ['*.pt', '*.bin']\n",
        ),
        (
            "    image: img\n",
            "    image: img\n    expect: {absent: [speculative-config, quantization]}\n",
        ),
    )
    assert diff_lines(make_project, run, BASE, new) == [
        "profiles.yaml:43:7: arg-added vllm.box.tiny ignore-patterns: (none) -> *.pt *.bin",
        "profiles.yaml:33:3: expect-changed vllm.box.tiny expect: (none) -> "
        "absent speculative-config, quantization",
        "2 semantic changes",
    ]


@pytest.mark.parametrize("ref", ["example.org/vllm:2.0", "XXXX"])
def test_a_profile_that_gains_an_image_of_only_a_ref_is_an_image_change(make_project, run, ref):
    """Whatever the ref: "no image" never compares equal to an image."""
    old = edit(BASE, ("    image: img\n", ""))
    new = edit(
        BASE,
        ("    image: img\n", "    image: bare\n"),
        ("images:\n", f"images:\n  bare: {{ref: {ref}}}\n"),
    )
    assert diff_lines(make_project, run, old, new) == [
        f"profiles.yaml:22:3: image-changed vllm.box.tiny image: (none) -> {ref}",
        "profiles.yaml:22:3: image-updated bare added",
        "2 semantic changes",
    ]


def test_a_model_changed_after_a_new_model_is_still_listed(make_project, run):
    """Models are compared in the newer order; a new one (nothing to compare) is skipped,
    not the end of the comparison."""
    new = edit(
        BASE,
        ("  tiny:\n", "  big: {hf: acme/Big-7B, label: Big 7B}\n  tiny:\n"),
        ("label: Tiny 1B", "label: Tiny One B"),
    )
    assert diff_lines(make_project, run, BASE, new) == [
        "profiles.yaml:29:3: model-changed tiny label: Tiny 1B -> Tiny One B",
        "profiles.yaml:28:3: model-added big",
        "2 semantic changes",
    ]


# --- the context a project's own bullet template receives -----------------------------

# Each change of a group, then what its context holds (by id, name or slug).
CONTEXT_BULLET = (
    "{% for c in group.changes %}\n"
    "{{ c.kind }} {{ c.subject }} {{ c.name }}:{% for key, value in c.extra | dictsort %}"
    " {{ key }}={{ value.id if value.id is defined else value.name }}{% endfor %}\n"
    "\n"
    "{% endfor %}\n"
)


def test_a_bullet_template_gets_the_profiles_overrides_args_and_model_behind_each_change(
    make_project, run
):
    gone = "      gone:\n        summary: Old.\n        args: {max-num-seqs: 1}\n"
    tight = "      tight:\n        summary: Less.\n        args: {max-num-seqs: 2}\n"
    tradeoff = "          - It lowers throughput.\n"
    old = edit(BASE, (tradeoff, tradeoff + gone))
    new = edit(
        BASE,
        ("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6"),
        ("          gpu-memory-utilization: 0.3\n", "          gpu-memory-utilization: 0.2\n"),
        (tradeoff, tradeoff + tight),
        ("label: Tiny 1B", "label: Tiny One B"),
    )
    project = make_project(
        registry=new,
        files={"old.yaml": old},
        templates={"models.mdx.j2": "Models.\n", "_changelog/bullet.mdx.j2": CONTEXT_BULLET},
    )
    assert run(project, "build").exit_code == 0
    result = run(
        project, "changelog", "--since-file", "old.yaml", "--version", "v0.1.0",
        "--date", "2026-12-01", "--dry-run",
    )  # fmt: skip
    assert (result.exit_code, result.stderr) == (0, "")
    profiles = "old_profile=vllm.box.tiny profile=vllm.box.tiny"
    assert result.stdout.splitlines() == [
        "## v0.1.0",
        "",
        "Acme v0.1.0 updates the managed vLLM serving profiles for Big Box.",
        "",
        "- arg-changed vllm.box.tiny gpu-memory-utilization: arg=gpu-memory-utilization "
        f"old_arg=gpu-memory-utilization {profiles}",
        "  override-added vllm.box.tiny tight: old_profile=vllm.box.tiny override=tight "
        "profile=vllm.box.tiny",
        "  override-changed vllm.box.tiny small: old_profile=vllm.box.tiny override=small "
        "profile=vllm.box.tiny",
        "  override-removed vllm.box.tiny gone: old_profile=vllm.box.tiny override=gone "
        "profile=vllm.box.tiny",
        "- model-changed tiny label: model=tiny",
    ]


# --- git's own failures, through a stand-in git ----------------------------------------

REAL_GIT = shutil.which("git")
GIT_USER = ("-c", "user.email=a@b", "-c", "user.name=a")


@pytest.fixture
def committed(make_project) -> Project:
    """The minimal project committed as HEAD."""
    project = make_project()
    for args in (("init", "-q"), ("add", "."), (*GIT_USER, "commit", "-qm", "base")):
        subprocess.run(["git", *args], cwd=project.root, check=True, capture_output=True)
    return project


@pytest.fixture
def stand_in_git(tmp_path: Path, monkeypatch):
    """Put a ``git`` first on PATH that runs ``action`` (shell) when its arguments contain
    ``when``, and the real git otherwise."""

    def install(when: str, action: str) -> None:
        folder = tmp_path / "stand-in"
        folder.mkdir()
        script = folder / "git"
        cases = f'  *{when}*) {action};;\n  *) exec "{REAL_GIT}" "$@";;\n'
        script.write_text(f'#!/bin/sh\ncase "$*" in\n{cases}esac\n', "utf-8")
        script.chmod(0o755)
        monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")

    return install


def test_a_git_message_that_is_not_utf8_is_shown_with_replacement_characters(
    committed, run, stand_in_git
):
    """A git speaking Latin-1 (a non-UTF-8 locale): docgen still says what git said."""
    stand_in_git("--show-toplevel", r"printf 'fatal: d\351p\364t introuvable\n' >&2; exit 128")
    result = run(committed, "diff", "--since", "HEAD")
    assert (result.exit_code, result.stderr) == (
        2,
        "--since: error: cannot read a git repository: fatal: d\ufffdp\ufffdt introuvable\n",
    )


def test_a_git_failure_without_a_message_says_git_failed(committed, run, stand_in_git):
    stand_in_git("--show-toplevel", "exit 1")
    result = run(committed, "diff", "--since", "HEAD")
    assert (result.exit_code, result.stderr) == (
        2,
        "--since: error: cannot read a git repository: git failed\n",
    )


def test_a_failing_shallow_check_after_an_unknown_revision_is_reported(
    committed, run, stand_in_git
):
    stand_in_git("--is-shallow-repository", "echo 'fatal: cannot tell' >&2; exit 128")
    result = run(committed, "diff", "--since", "nope")
    assert (result.exit_code, result.stderr) == (
        2,
        "--since: error: cannot read git: fatal: cannot tell\n",
    )


def test_a_shallow_answer_that_is_not_utf8_is_not_a_shallow_clone(committed, run, stand_in_git):
    stand_in_git("--is-shallow-repository", r"printf '\377\n'")
    result = run(committed, "diff", "--since", "nope")
    assert (result.exit_code, result.stderr) == (
        2,
        "--since: error: unknown git revision 'nope'\n",
    )


@pytest.mark.parametrize("ref", ["HEAD..HEAD", "--all"])
def test_since_takes_one_revision_not_a_range_or_an_option(committed, run, ref):
    result = run(committed, "diff", "--since", ref)
    assert (result.exit_code, result.stderr) == (
        2,
        f"--since: error: unknown git revision '{ref}'\n",
    )


@pytest.mark.parametrize("verb", [["diff", "--since"], ["check", "--changelog-since"]])
def test_a_revision_with_a_line_break_is_named_on_one_line(committed, run, verb):
    """A newline in the revision was printed raw: the error took two lines, the second
    free to start with ``::error``."""
    result = run(committed, *verb, "x\n::error file=a::forged")
    assert (result.exit_code, result.stdout) == (2, "")
    assert (
        result.stderr == f"{verb[-1]}: error: unknown git revision 'x\\n::error file=a::forged'\n"
    )


REGISTERED = edit(
    BASE,
    ("    notes: Box default.\n", "    notes: Box default.\n    min_compute_capability: '8.9'\n"
     "    hosts: {box: {}}\n"),
)  # fmt: skip


def test_a_models_own_capability_is_not_a_change_of_the_hosts_it_is_registered_for(
    make_project, run
):
    """Host entries that leave the capability to the model show no change when the model's
    own changes (the min_compute_capability change says so, once)."""
    new = REGISTERED.replace("min_compute_capability: '8.9'", "min_compute_capability: '9.0'")
    assert diff_lines(make_project, run, REGISTERED, new) == [
        "profiles.yaml:28:3: model-changed tiny min_compute_capability: 8.9 -> 9.0",
        "1 semantic change",
    ]


def test_a_host_entry_that_declares_no_minimum_is_a_change(make_project, run):
    declared = REGISTERED.replace(
        "hosts: {box: {}}", "hosts: {box: {min_compute_capability: null}}"
    )
    assert diff_lines(make_project, run, REGISTERED, declared) == [
        "profiles.yaml:28:3: model-changed tiny hosts: box -> box (none)",
        "1 semantic change",
    ]


STEP = BASE + "launcher:\n  before_serve:\n    warm:\n      run: [nvidia-smi]\n"


def test_a_steps_summary_alone_is_a_change_no_release_needs(make_project, run):
    """A page may show it (the diff reports every change that can alter an output), but
    the step runs the same: ``step-summary-changed`` is one a changelog leaves out."""
    summed = STEP + "      summary: Wake the GPU.\n"
    assert diff_lines(make_project, run, STEP, summed) == [
        "profiles.yaml:52:5: step-summary-changed launcher warm: (none) -> Wake the GPU.",
        "1 semantic change",
    ]
    assert "step-summary-changed" in LEFT_OUT


def test_a_steps_command_is_a_launcher_change(make_project, run):
    moved = STEP.replace("run: [nvidia-smi]", "run: [nvidia-smi, -L]")
    assert diff_lines(make_project, run, STEP, moved) == [
        "profiles.yaml:52:5: launcher-changed launcher warm: nvidia-smi -> nvidia-smi -L",
        "1 semantic change",
    ]


OTHER_HOST = "  box: {name: Big Box, arch: amd64}\n  other: {name: Other Box, arch: arm64}\n"


def test_the_facts_of_a_host_entry_read_in_order_separated_by_commas(make_project, run):
    old = edit(
        BASE,
        ("  box: {name: Big Box, arch: amd64}\n", OTHER_HOST),
        ("    notes: Box default.\n", "    notes: Box default.\n    hosts: {other: {}}\n"),
    )
    facts = "{min_compute_capability: '9.0', support: experimental, selection: explicit-only}"
    new = old.replace("hosts: {other: {}}", f"hosts: {{other: {facts}}}")
    assert diff_lines(make_project, run, old, new) == [
        "profiles.yaml:29:3: model-changed tiny hosts: other -> other (9.0, experimental, "
        "explicit-only)",
        "1 semantic change",
    ]


# --- what a profile leaves out of the launcher, and its summary ---------------------------

LAUNCHER = (
    "launcher:\n  shared_args: {port: 8000, host: 0.0.0.0}\n"
    "  before_serve:\n    warm: {run: [nvidia-smi]}\n"
)
OMITS = (
    "    image: img\n    summary: Fast.\n"
    "    launcher: {omit_args: [port, host], omit_steps: [warm]}\n"
)


def test_a_profile_that_starts_omitting_launcher_parts_lists_them_at_the_profile(make_project, run):
    new = edit(BASE, ("    image: img\n", OMITS)) + LAUNCHER
    assert diff_lines(make_project, run, BASE + LAUNCHER, new) == [
        "profiles.yaml:33:3: profile-changed vllm.box.tiny summary:  -> Fast.",
        "profiles.yaml:33:3: launcher-changed vllm.box.tiny omit_args: (none) -> --port, --host",
        "profiles.yaml:33:3: launcher-changed vllm.box.tiny omit_steps: (none) -> warm",
        "3 semantic changes",
    ]


def test_a_profile_that_stops_omitting_launcher_parts_lists_what_it_omitted(make_project, run):
    old = edit(BASE, ("    image: img\n", OMITS)) + LAUNCHER
    new = edit(old, ("summary: Fast.", "summary: Faster."), ("[port, host]", "[host]"))
    assert diff_lines(make_project, run, old, new) == [
        "profiles.yaml:33:3: profile-changed vllm.box.tiny summary: Fast. -> Faster.",
        "profiles.yaml:33:3: launcher-changed vllm.box.tiny omit_args: --port, --host -> --host",
        "2 semantic changes",
    ]


def test_a_git_message_of_several_lines_is_said_on_the_errors_one(committed, run, stand_in_git):
    # git's "dubious ownership" advice runs over several lines.
    stand_in_git(
        "--show-toplevel",
        "printf 'fatal: detected dubious ownership\\nTo add an exception:\\n\\n"
        "  git config\\n' >&2; exit 128",
    )
    result = run(committed, "diff", "--since", "HEAD")
    assert (result.exit_code, result.stderr) == (
        2,
        "--since: error: cannot read a git repository: fatal: detected dubious ownership "
        "To add an exception: git config\n",
    )


@pytest.mark.parametrize("verb", ["diff", "changelog"])
def test_a_repository_without_a_commit_says_so_and_how_a_first_release_is_written(
    make_project, run, verb
):
    project = make_project()
    subprocess.run(["git", "init", "-q"], cwd=project.root, check=True)
    more = ("--version", "v0.1.0") if verb == "changelog" else ()
    result = run(project, verb, "--since", "HEAD", *more)
    assert (result.exit_code, result.stderr) == (
        2,
        "--since: error: unknown git revision 'HEAD' (the repository has no commit yet: commit "
        "the registry first; a first release is written from a note, see `docgen changelog "
        "--help`)\n",
    )


def test_a_shared_arg_changed_while_no_profile_stayed_is_a_launcher_change(make_project, run):
    """No profile is in both states to show that the flag only moved: the commands changed
    (it was called arg-moved, and the changelog left the change out)."""
    old = BASE + "launcher:\n  shared_args: {port: 8000}\n"
    new = old.replace("port: 8000", "port: 9000").replace("vllm.box.tiny:", "vllm.box.tiny2:")
    found = diff_lines(make_project, run, old, new)
    assert "profiles.yaml:51:17: launcher-changed launcher --port: --port 8000 -> --port 9000" in (
        found
    )
    assert not any("arg-moved" in line for line in found)
