"""What ``check`` blames drift on when the registry changed since the last commit: a
value removed outright is named where it stood in the committed registry, and a value
the commit holds unchanged (a host whose name the new text repeats) is never blamed."""

from __future__ import annotations

import subprocess

import pytest
from conftest import MINIMAL_REGISTRY, REPO, Project, git

SPARK = "vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4"
MTP = "      speculative-config: {method: mtp, num_speculative_tokens: 3, moe_backend: triton}\n"
BEFORE = (REPO / "tests/fixtures/profiles-v0.0.101.yaml").read_text("utf-8")


@pytest.fixture(autouse=True, params=["in a forked copy", "in this process"])
def since_commit(request, monkeypatch):
    """``check`` learns what changed since the commit in a forked copy, or (where it
    cannot fork) itself: the blame is the same."""
    from docgen import parallel

    if request.param == "in a forked copy":
        monkeypatch.setattr(parallel, "_can_fork", lambda: True)
        monkeypatch.setattr(parallel, "LARGE_REGISTRY", 0)
    else:
        monkeypatch.setenv("DOCGEN_JOBS", "1")


def committed_before(example: Project, run) -> str:
    """The worked example at the release before the seed, built and committed; returns
    the registry the seed's pull request ends with."""
    after = example.read("profiles.yaml")
    example.write("profiles.yaml", BEFORE)
    assert run(example, "build").exit_code == 0
    git(example.root, "init", "-q")
    git(example.root, "add", ".")
    git(example.root, "commit", "-qm", "v0.0.101")
    return after


def blamed(example: Project, run) -> list[str]:
    result = run(example, "check")
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    return sorted({line.strip() for line in lines if "behind it:" in line})


def test_a_pure_removal_is_blamed_where_the_value_stood_in_the_commit(example, run):
    committed_before(example, run)
    example.edit("profiles.yaml", MTP, "")
    assert blamed(example, run) == [
        f"registry entry behind it: HEAD:profiles.yaml:117:7 profiles.{SPARK}.args."
        "speculative-config"
    ]


def test_a_commit_that_todays_rules_refuse_still_locates_a_removal(example, run):
    """The committed registry is history: an expectation it broke when committed (so
    ``check`` would refuse it now) does not hide where a removed value stood."""
    committed_before(example, run)
    good = "present: {async-scheduling: true, gpu-memory-utilization: 0.4}"
    example.edit("profiles.yaml", good, good.replace("0.4}", "0.5}"))
    assert run(example, "check").exit_code == 2  # the committed state breaks a rule
    git(example.root, "commit", "-qam", "an expectation its args break")
    example.edit("profiles.yaml", good.replace("0.4}", "0.5}"), good)
    example.edit("profiles.yaml", MTP, "")
    assert blamed(example, run) == [
        f"registry entry behind it: HEAD:profiles.yaml:117:7 profiles.{SPARK}.args."
        "speculative-config"
    ]


@pytest.mark.parametrize(
    ("good", "broken"),
    [
        ("staging_reserve_bytes: 3221225472", 'staging_reserve_bytes: "3 GiB"'),
        ("    digest: sha256:", "    digest: [1, x]\n    old-digest: sha256:"),
    ],
)
def test_a_commit_that_breaks_the_schema_gives_drift_without_its_blame(example, run, good, broken):
    """A committed registry the schema refuses is no history to compare with (every reader
    of a model relies on its shape): the drift is reported as if outside git, never a crash."""
    assert run(example, "build").exit_code == 0
    git(example.root, "init", "-q")
    example.edit("profiles.yaml", good, broken)
    git(example.root, "add", ".")
    git(example.root, "commit", "-qm", "a registry the schema refuses")
    example.edit("profiles.yaml", broken, good)
    example.edit("profiles.yaml", "max-num-seqs: 4\n", "max-num-seqs: 3\n")
    assert blamed(example, run) == [
        f"registry entry behind it: profiles.yaml:{_line_of(example, 'max-num-seqs: 3')}:7 "
        f"profiles.{SPARK}.args.max-num-seqs"
    ]


def _line_of(example: Project, text: str) -> int:
    return example.read("profiles.yaml").split("\n").index(f"      {text}") + 1


def test_the_seeds_whole_change_blames_only_what_changed(example, run):
    example.write("profiles.yaml", committed_before(example, run))
    found = blamed(example, run)
    assert f"registry entry behind it: HEAD:profiles.yaml:117:7 profiles.{SPARK}.args." \
        "speculative-config" in found  # fmt: skip
    assert not [line for line in found if "hosts." in line or ".n1x." in line]
    # What the seed added: the override and the evidence (setup and results, as pages show).
    added = ("overrides.bounded-long-context", ".evidence.[0].", "HEAD:")
    assert all(any(part in line for part in added) for line in found)
    assert any(".evidence.[0].results.KV cache" in line for line in found)


def test_outside_a_git_repository_blame_is_what_the_new_text_shows(example, run):
    example.write("profiles.yaml", BEFORE)
    assert run(example, "build").exit_code == 0
    example.edit("profiles.yaml", "max-num-seqs: 4\n", "max-num-seqs: 3\n")
    assert blamed(example, run) == [
        f"registry entry behind it: profiles.yaml:109:7 profiles.{SPARK}.args.max-num-seqs"
    ]


def test_a_registry_as_committed_blames_what_the_new_text_shows(example, run):
    """A pull request's checkout: the edit is committed, the docs were not rebuilt."""
    committed_before(example, run)
    example.edit("profiles.yaml", "max-num-seqs: 4\n", "max-num-seqs: 3\n")
    git(example.root, "commit", "-qam", "tune")
    assert blamed(example, run) == [
        f"registry entry behind it: profiles.yaml:109:7 profiles.{SPARK}.args.max-num-seqs"
    ]


ARGS = "      enable-prefix-caching: true\n"
BATCHED = MINIMAL_REGISTRY.replace(ARGS, ARGS + "      max-num-batched-tokens: 8192\n")


def committed(project: Project, run, built: str, commit: str) -> None:
    """The docs built from the registry ``built``, committed with the registry ``commit``."""
    project.write("profiles.yaml", built)
    assert run(project, "build").exit_code == 0
    project.write("profiles.yaml", commit)
    git(project.root, "init", "-q")
    git(project.root, "add", ".")
    git(project.root, "commit", "-qm", "base")


def test_a_commit_that_breaks_a_start_rule_still_locates_a_removal(make_project, run):
    """The committed registry sets a flag vLLM would refuse to start with (the working one
    drops it): it is an older state, read without vLLM's start-time rules."""
    project = make_project()
    refused = BATCHED.replace(ARGS, ARGS + "      enable-auto-tool-choice: true\n")
    committed(project, run, built=BATCHED, commit=refused)
    project.write("profiles.yaml", MINIMAL_REGISTRY)
    assert blamed(project, run) == [
        "registry entry behind it: HEAD:profiles.yaml:44:7 "
        "profiles.vllm.box.tiny.args.max-num-batched-tokens"
    ]


def test_dropping_the_vllm_section_leaves_the_blame_on_the_changed_value(make_project, run):
    """The vllm settings have no node a page shows: dropping them is no removed value."""
    extra = MINIMAL_REGISTRY.replace(
        "profiles:\n", "vllm:\n  extra_flags: {acme-flag: {type: bool}}\nprofiles:\n"
    )
    project = make_project()
    committed(project, run, built=extra, commit=extra)
    tuned = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6")
    project.write("profiles.yaml", tuned)
    assert blamed(project, run) == [
        "registry entry behind it: profiles.yaml:40:7 "
        "profiles.vllm.box.tiny.args.gpu-memory-utilization"
    ]


def test_this_process_loads_the_registry_once_for_plan_and_blame(example, run, monkeypatch):
    """Computed here, the blame reuses the registry just planned; computed in a forked
    copy, the copy builds its own (not counted here)."""
    from docgen.registry import load

    committed_before(example, run)
    example.edit("profiles.yaml", MTP, "")
    loads: list[object] = []
    for name in ("load_registry", "loaded"):
        real = getattr(load, name)
        counted = lambda project, real=real: loads.append(1) or real(project)  # noqa: E731
        monkeypatch.setattr(load, name, counted)
    assert len(blamed(example, run)) == 1
    assert len(loads) == 1


def test_what_changed_is_learned_from_the_registry_the_plan_loaded(
    example, run, monkeypatch, tmp_path
):
    """The copy that learns what changed since the commit starts once the plan has the
    working registry, and shares it: only the committed one is built for the blame."""
    from docgen.changelog import older

    committed_before(example, run)
    example.edit("profiles.yaml", MTP, "")
    seen = tmp_path / "seen"
    real = older.since_commit

    def spied(project, working, revisions):
        with seen.open("a", encoding="utf-8") as log:  # a forked copy writes here too
            log.write("shared\n" if working is not None else "built again\n")
        return real(project, working, revisions)

    monkeypatch.setattr(older, "since_commit", spied)
    assert len(blamed(example, run)) == 1
    assert seen.read_text("utf-8") == "shared\n"


def test_a_committed_removal_is_blamed_where_it_stood_at_the_changelog_base(example, run):
    """Docs CI checks a pull request whose removal is committed: the working registry is
    the last commit's, and the docs on disk are the base's, so the base names it."""
    committed_before(example, run)
    git(example.root, "branch", "-q", "base")
    example.edit("profiles.yaml", MTP, "")
    git(example.root, "commit", "-qam", "drop MTP")
    assert blamed(example, run) == []  # nothing changed since the last commit
    result = run(example, "check", "--changelog-since", "base")
    assert result.exit_code == 1, result.output
    behind = {line.strip() for line in result.stdout.splitlines() if "behind it:" in line}
    assert behind == {
        f"registry entry behind it: base:profiles.yaml:117:7 profiles.{SPARK}.args."
        "speculative-config"
    }


def _committed(example: Project, run) -> None:
    assert run(example, "build").exit_code == 0
    git(example.root, "init", "-q")
    git(example.root, "add", ".")
    git(example.root, "commit", "-qm", "built")


def test_a_removed_profile_is_blamed_where_it_stood_on_every_page_that_listed_it(example, run):
    """A whole profile removed: its id leaves the setup page's table, the navigation and
    the export, and each of them names it where it stood in the commit."""
    _committed(example, run)
    station = "vllm.dgx-station-gb300.single.deepseek-r1-distill-70b"
    text = example.read("profiles.yaml")
    start = text.index(f"  {station}:\n")
    example.write("profiles.yaml", text[:start] + text[text.index("\n\n", start) + 1 :])
    line = text[:start].count("\n") + 1
    assert blamed(example, run) == [
        f"registry entry behind it: HEAD:profiles.yaml:{line}:3 profiles.{station}"
    ]
    result = run(example, "check", "--format", "json")
    files = [f for f in json_files(result.stdout) if f["status"] == "changed"]
    assert {f["path"] for f in files} >= {"docs/_build/registry.json", "docs/index.yml"}
    assert all(f["sources"] for f in files), files


def test_a_removed_override_is_blamed_by_its_example_and_its_export_arguments(example, run):
    _committed(example, run)
    text = example.read("profiles.yaml")
    start = text.index("    overrides:\n      bounded-long-context:")
    example.write("profiles.yaml", text[:start] + text[text.index("    evidence:", start) :])
    result = run(example, "check", "--format", "json")
    keys = {
        f["path"]: {s["key"] for s in f["sources"]}
        for f in json_files(result.stdout)
        if f["status"] == "changed"
    }
    override = f"profiles.{SPARK}.overrides.bounded-long-context"
    assert keys["docs/_build/registry.json"] == {override}
    page = keys[f"docs/profiles/{SPARK}.mdx"]
    assert f"{override}.summary" in page and f"{override}.tradeoffs.[0]" in page
    assert all(keys.values()), keys


def json_files(stdout: str) -> list[dict]:
    import json

    return json.loads(stdout)["files"]


def test_a_removal_in_a_project_below_the_repository_top_is_named_as_git_names_it(
    example, run, tmp_path
):
    """With the project in ``site/`` of its repository, the older registry is
    ``HEAD:site/profiles.yaml`` (which ``git show`` reads); a GitHub annotation names no
    file of the tree for it, and says the value was removed."""
    import shutil

    repo = tmp_path / "repo"
    shutil.copytree(example.root, repo / "site")
    site = Project(repo / "site")
    assert run(site, "build").exit_code == 0
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "built")
    site.edit("profiles.yaml", "      max-num-seqs: 16\n", "")
    result = run(site, "check", "--format", "github")
    assert result.exit_code == 1, result.output
    removed = [line for line in result.stdout.splitlines() if "was removed" in line]
    assert removed and all(line.startswith("::error::HEAD:site/profiles.yaml:") for line in removed)
    stood = removed[0].split("::error::", 1)[1].split(":")[2]
    shown = subprocess.run(
        ["git", "show", "HEAD:site/profiles.yaml"], cwd=repo, capture_output=True, text=True
    )
    assert "max-num-seqs: 16" in shown.stdout.splitlines()[int(stood) - 1]


def test_a_removed_profile_is_blamed_by_its_own_values_where_no_page_shows_its_id(
    make_project, run
):
    """A page that lists profiles by model and host shows no id: the removed profile is
    still named, by the values that only it held (its context length), and not by those
    the remaining profile holds too (its memory fraction)."""
    twin = (
        "  vllm.box.tiny-long:\n    model: tiny\n    host: box\n    image: img\n"
        "    args:\n      max-model-len: 65536\n      gpu-memory-utilization: 0.5\n"
    )
    with_twin = MINIMAL_REGISTRY.replace("profiles:\n", f"profiles:\n{twin}")
    project = make_project()
    committed(project, run, built=with_twin, commit=with_twin)
    project.write("profiles.yaml", MINIMAL_REGISTRY)
    page = project.read("docs/models.mdx")
    assert "65536" in page and "tiny-long" not in page
    line = with_twin[: with_twin.index(twin)].count("\n") + 1
    result = run(project, "check", "--format", "json")
    behind = {
        f["path"]: {(s["key"], s["file"], s["line"]) for s in f["sources"]}
        for f in json_files(result.stdout)
        if f["status"] == "changed"
    }
    removed = ("profiles.vllm.box.tiny-long", "HEAD:profiles.yaml", line)
    assert behind == {path: {removed} for path in behind}
    assert {"docs/models.mdx", "docs/_build/registry.json"} <= behind.keys()


def test_a_renamed_profile_is_blamed_at_its_new_id_where_the_id_shows(example, run):
    """A rename since the commit changes no value but the id: each changed file that showed
    the old id (the setup page's table, the navigation, the export) names the profile
    where it now stands."""
    _committed(example, run)
    renamed = SPARK.replace("qwen3", "qwen")
    example.edit("profiles.yaml", f"  {SPARK}:\n", f"  {renamed}:\n")
    result = run(example, "check", "--format", "json")
    changed = [f for f in json_files(result.stdout) if f["status"] == "changed"]
    assert {f["path"] for f in changed} >= {"docs/_build/registry.json", "docs/index.yml"}
    line = example.read("profiles.yaml").split("\n").index(f"  {renamed}:") + 1
    for file in changed:
        keys = {(s["key"], s["line"]) for s in file["sources"]}
        assert (f"profiles.{renamed}", line) in keys, file["path"]


def test_a_removed_profile_is_not_blamed_for_a_value_another_profile_held_too(make_project, run):
    """Both profiles held ``--max-num-seqs 2``; one is removed and the other now holds 3:
    the page of the one that stays names its own edit, not the removal."""
    twin = (
        "  vllm.box.tiny-long:\n    model: tiny\n    host: box\n    image: img\n"
        "    args:\n      max-model-len: 65536\n      max-num-seqs: 2\n"
    )
    with_twin = MINIMAL_REGISTRY.replace("profiles:\n", f"profiles:\n{twin}")
    project = make_project(
        templates={
            "[profile].mdx.j2": "---\ntitle: x\n---\n\n"
            "{{ serve_command(profile) | code_block('bash') }}\n"
        }
    )
    committed(project, run, built=with_twin, commit=with_twin)
    project.write("profiles.yaml", MINIMAL_REGISTRY.replace("max-num-seqs: 2", "max-num-seqs: 3"))
    result = run(project, "check", "--format", "json")
    behind = {
        f["path"]: {s["key"] for s in f["sources"]}
        for f in json_files(result.stdout)
        if f["status"] == "changed"
    }
    assert behind["docs/vllm.box.tiny.mdx"] == {"profiles.vllm.box.tiny.args.max-num-seqs"}


@pytest.mark.parametrize(
    ("old", "new", "behind"),
    [
        (
            "    notes: Supported override.\n",
            "    notes: Supported override only.\n",
            "profiles.yaml:70:5 models.qwen3.6-27b.notes",
        ),
        (
            '    label: Qwen3.6 27B FP8\n    min_compute_capability: "8.9"\n',
            '    label: Qwen3.6 27B FP8\n    min_compute_capability: "9.0"\n',
            "profiles.yaml:68:5 models.qwen3.6-27b.min_compute_capability",
        ),
        (
            "    notes: Supported override.\n",
            "",
            "HEAD:profiles.yaml:70:5 models.qwen3.6-27b.notes",
        ),
        (
            "    ref: nvcr.io/nvidia/vllm:26.05.post1-py3\n",
            "    ref: nvcr.io/nvidia/vllm:26.05.post2-py3\n",
            "profiles.yaml:41:5 images.ngc-vllm-26.05-arm64.ref",
        ),
        (
            "    compressed_bytes: 8928665752\n    platform: linux/amd64\n",
            "    compressed_bytes: 8928665752\n",
            "HEAD:profiles.yaml:50:5 images.ngc-vllm-26.03-amd64.platform",
        ),
    ],
    ids=["changed", "changed-capability", "deleted", "image-ref", "image-platform-deleted"],
)
def test_an_entrys_own_field_is_blamed_for_the_text_it_changes(example, run, old, new, behind):
    """A model's notes or compute capability show only in the models table, an image's
    ref and platform on the pages that run it: drift there named no registry entry (the
    entry's one node before, its hf id or digest, did not change)."""
    registry = example.read("profiles.yaml")
    committed(example, run, registry, registry)
    example.edit("profiles.yaml", old, new)
    assert blamed(example, run) == [f"registry entry behind it: {behind}"]
