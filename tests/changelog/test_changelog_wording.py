"""How ``docgen changelog`` words a release, exactly: the summary, one bullet per changed
subject with its changes in a fixed order, hand-written notes, and the closing link."""

from __future__ import annotations

import pytest
from conftest import MINIMAL_REGISTRY

SECOND_PROFILE = """\
  vllm.box.small:
    model: tiny
    host: box
    image: img
    selection: explicit-only
    args:
      max-model-len: 8192
"""
LINK = "  For more information, refer to [Models](/guide/alpha/models).\n"


def edited(*pairs: tuple[str, str], base: str = MINIMAL_REGISTRY) -> str:
    for old, new in pairs:
        assert old in base, old
        base = base.replace(old, new, 1)
    return base


@pytest.fixture
def release(make_project, run):
    """Write ``old`` as the base and ``new`` as the registry; return the dry-run section."""

    def dry_run(old: str, new: str, *options: str, notes: dict[str, str] | None = None) -> str:
        project = make_project(registry=new, files={"old.yaml": old, **(notes or {})})
        assert run(project, "build").exit_code == 0
        args = ["changelog", "--since-file", "old.yaml", "--version", "v0.1.0"]
        result = run(project, *args, "--date", "2026-12-01", "--dry-run", *options)
        assert result.exit_code == 0, result.output
        return result.stdout

    return dry_run


ONE_PROFILE_EDITS = (
    ("      max-num-seqs: 2\n", ""),
    ("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6"),
    (
        "      enable-prefix-caching: true\n",
        "      enable-prefix-caching: true\n      dtype: half\n",
    ),
    (
        "    default: true\n    image: img",
        "    default: true\n    support: experimental\n    image: img",
    ),
)


def test_a_profiles_changes_are_one_bullet_in_a_fixed_order(release):
    """Removed, changed, added arguments, then support: whatever order the diff has."""
    section = release(MINIMAL_REGISTRY, edited(*ONE_PROFILE_EDITS))
    assert section == (
        "## v0.1.0\n\n"
        "Acme v0.1.0 updates the managed vLLM serving profiles for Big Box.\n\n"
        "- The single-node Big Box `acme/Tiny-1B` profile no longer sets `--max-num-seqs 2`.\n"
        "  The single-node Big Box `acme/Tiny-1B` profile now uses "
        "`--gpu-memory-utilization 0.6` instead "
        "of `--gpu-memory-utilization 0.5`.\n"
        "  The single-node Big Box `acme/Tiny-1B` profile now sets `--dtype half`.\n"
        "  The single-node Big Box `acme/Tiny-1B` profile is now experimental "
        "instead of supported.\n"
        f"{LINK}"
    )


def test_an_expectation_change_is_left_out_and_does_not_hide_later_changes(release):
    old = MINIMAL_REGISTRY + SECOND_PROFILE
    new = edited(
        ("    args:\n      max-model-len: 32768", "    expect:\n      absent: [quantization]\n"
         "    args:\n      max-model-len: 32768"),
        ("      max-model-len: 8192", "      max-model-len: 4096"),
        base=old,
    )  # fmt: skip
    section = release(old, new)
    assert section.split("\n\n", 2)[2] == (
        "- The single-node Big Box `acme/Tiny-1B` profile `vllm.box.small` now uses "
        "`--max-model-len 4096` instead of "
        "`--max-model-len 8192`.\n"
        f"{LINK}"
    )


def test_profiles_of_one_model_on_hosts_of_one_name_are_named_even_across_topologies(
    release,
):
    """What a bullet names a profile by is its host's name and its model: a multi-node
    twin, or a host of the same name under another id, needs the id too."""
    base = MINIMAL_REGISTRY.replace("hosts:\n", "hosts:\n  box2: {name: Big Box, arch: amd64}\n")
    multi = SECOND_PROFILE.replace("vllm.box.small", "vllm.box.multi")
    multi += "    topology: multi-node\n"
    other = SECOND_PROFILE.replace("vllm.box.small", "vllm.box2.small").replace(
        "host: box", "host: box2"
    )
    body = release(base, base + multi + other).split("\n\n", 2)[2]
    assert body.count("profile `vllm.box.multi` serves") == 1
    assert body.count("profile `vllm.box2.small` serves") == 1


def test_profiles_that_share_topology_host_and_model_are_named_by_their_ids(release):
    """Two profiles of one model on one host: each bullet names its profile, or the two
    would read alike; a profile with no such twin is named as before (see above)."""
    old = MINIMAL_REGISTRY + SECOND_PROFILE
    new = edited(
        ("max-model-len: 32768", "max-model-len: 16384"),
        ("      max-model-len: 8192", "      max-model-len: 4096"),
        base=old + SECOND_PROFILE.replace("vllm.box.small", "vllm.box.third"),
    )
    assert release(old, new).split("\n\n", 2)[2] == (
        "- The single-node Big Box `acme/Tiny-1B` profile `vllm.box.tiny` now uses "
        "`--max-model-len 16384` instead of `--max-model-len 32768`.\n"
        f"{LINK}"
        "- The single-node Big Box `acme/Tiny-1B` profile `vllm.box.small` now uses "
        "`--max-model-len 4096` instead of `--max-model-len 8192`.\n"
        f"{LINK}"
        "- A new Big Box profile `vllm.box.third` serves `acme/Tiny-1B` (supported, selected "
        "explicitly).\n"
        f"{LINK}"
    )


def test_profiles_hosts_and_models_each_get_their_own_bullet(release):
    big = "  big:\n    hf: acme/Big-70B\n    label: Big 70B\n"
    old = edited(("profiles:\n", f"{big}profiles:\n")) + SECOND_PROFILE.replace(
        "model: tiny", "model: big"
    )
    new = edited(
        ("    notes: Box default.", "    notes: Box default.\n    min_compute_capability: '8.0'"),
        ("    default: true\n    image: img", "    image: img"),
        ("    selection: explicit-only\n", "    default: true\n"),
        base=old,
    )
    body = release(old, new).split("\n\n", 2)[2]
    assert body == (
        "- The single-node Big Box `acme/Big-70B` profile is now selected automatically.\n"
        f"{LINK}"
        "- Big Box now defaults to `acme/Big-70B` instead of `acme/Tiny-1B`.\n"
        f"{LINK}"
        "- The `tiny` model's min compute capability is now `8.0`.\n"
        f"{LINK}"
    )


@pytest.mark.parametrize(
    ("old_value", "new_value", "sentence"),
    [
        (None, "'8.0'", "The `tiny` model's min compute capability is now `8.0`."),
        ("'7.5'", "'8.0'", "The `tiny` model's min compute capability is now `8.0` instead of `7.5`."),  # noqa: E501
        ("'7.5'", None, "The `tiny` model no longer declares a min compute capability (it was `7.5`)."),  # noqa: E501
    ],
)  # fmt: skip
def test_a_model_value_added_changed_or_removed(release, old_value, new_value, sentence):
    def with_capability(value: str | None) -> str:
        if value is None:
            return MINIMAL_REGISTRY
        extra = f"    notes: Box default.\n    min_compute_capability: {value}"
        return edited(("    notes: Box default.", extra))

    body = release(with_capability(old_value), with_capability(new_value)).split("\n\n", 2)[2]
    assert body == f"- {sentence}\n{LINK}"


TUNED = (("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6"),)


@pytest.mark.parametrize(
    ("summary", "line"),
    [
        ("tunes memory", "Acme v0.1.0 tunes memory."),
        ("Acme v0.1.0 tunes memory", "Acme v0.1.0 tunes memory."),
        ("tunes memory.", "Acme v0.1.0 tunes memory."),
        ("brings these changes:", "Acme v0.1.0 brings these changes:"),
        ("finally tunes memory!", "Acme v0.1.0 finally tunes memory!"),
        ("tunes memory at last?", "Acme v0.1.0 tunes memory at last?"),
        # another version that only starts like this one: the lead still comes first
        ("Acme v0.1.01 was a typo", "Acme v0.1.0 Acme v0.1.01 was a typo."),
    ],
)
def test_a_given_summary_gets_the_lead_and_one_full_stop(release, summary, line):
    section = release(MINIMAL_REGISTRY, edited(*TUNED), "--summary", summary)
    assert section.split("\n\n")[1] == line


def test_notes_follow_the_bullets_as_bullets_of_their_own(release):
    notes = {
        "changelog.d/a.md": "- Fixed the launcher.\nIt now waits for the port.\n",
        "changelog.d/b.md": "Plain note without a dash.\n",
    }
    body = release(MINIMAL_REGISTRY, edited(*TUNED), notes=notes).split("\n\n", 2)[2]
    assert body.endswith(
        f"{LINK}- Fixed the launcher.\n  It now waits for the port.\n- Plain note without a dash.\n"
    )


def test_the_link_names_the_first_page_template_when_no_link_page_is_set(make_project, run):
    templates = {
        "profiles/[profile].mdx.j2": '---\ntitle: "{{ profile.id }}"\n---\n\nPage.\n',
        "setup.mdx.j2": '---\ntitle: "Set Up"\n---\n\n{{ models_table() }}\n',
    }
    project = make_project(
        registry=edited(*TUNED), templates=templates, files={"old.yaml": MINIMAL_REGISTRY}
    )
    assert run(project, "build").exit_code == 0
    args = ["changelog", "--since-file", "old.yaml", "--version", "v0.1.0", "--dry-run"]
    result = run(project, *args)
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith(
        "  For more information, refer to [Set Up](/guide/alpha/setup).\n"
    )


def test_no_link_sentence_without_a_page_template(make_project, run):
    templates = {"profiles/[profile].mdx.j2": '---\ntitle: "{{ profile.id }}"\n---\n\nPage.\n'}
    project = make_project(
        registry=edited(*TUNED), templates=templates, files={"old.yaml": MINIMAL_REGISTRY}
    )
    assert run(project, "build").exit_code == 0
    args = ["changelog", "--since-file", "old.yaml", "--version", "v0.1.0", "--dry-run"]
    result = run(project, *args)
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("instead of `--gpu-memory-utilization 0.5`.\n")


@pytest.mark.parametrize(
    ("edit", "sentence"),
    [
        (
            ("    notes: Box default.", "    notes: Box default.\n    gated: true"),
            "The `tiny` model now requires accepting its license on Hugging Face.",
        ),
        (
            ("    notes: Box default.", "    notes: Box default, tuned."),
            "The `tiny` model's note now reads: Box default, tuned.",
        ),
        (
            ("    notes: Box default.\n", ""),
            "The `tiny` model no longer has a note.",
        ),
    ],
    ids=["gated", "notes", "notes-removed"],
)
def test_a_model_field_is_worded_for_a_reader(release, edit, sentence):
    """It printed Python's ``True`` ("gated is now `True`") and "its notes is now"; a
    release of model facts alone does not say it updates the serving profiles."""
    section = release(MINIMAL_REGISTRY, edited(edit))
    summary, body = section.split("\n\n", 2)[1:]
    assert summary == "Acme v0.1.0 updates the registry's models that its pages show."
    assert body == f"- {sentence}\n{LINK}"


def test_a_release_of_launcher_and_model_facts_names_both_in_its_summary(release):
    """It said "models and launcher settings" whatever changed: a model's label alone too."""
    new = edited(("    notes: Box default.\n", "    notes: Box default, tuned.\n"))
    new += "launcher:\n  shared_args: {port: 8000}\n"
    summary = release(MINIMAL_REGISTRY, new).split("\n\n", 2)[1]
    assert summary == (
        "Acme v0.1.0 updates the registry's models and launcher settings that its pages show."
    )


def test_an_override_whose_words_changed_says_so_not_that_its_setting_did(release):
    """Its summary and tradeoffs changed, its arguments did not: the bullet said operators
    "now set" the setting they already set."""
    new = edited(
        ("Use less memory.", "Use the least memory this box allows."),
        ("It lowers throughput.", "It lowers throughput a lot."),
    )
    body = release(MINIMAL_REGISTRY, new).split("\n\n", 2)[2]
    assert body == (
        "- The documented `small` override for the single-node Big Box `acme/Tiny-1B` "
        "profile now reads: Use the least memory this box allows.\n"
        "  It lowers throughput a lot.\n"
        f"{LINK}"
    )


def test_what_a_profile_retains_leaves_out_what_the_release_adds(release):
    """MTP replaced by async scheduling: the bullet said the profile "retains async
    scheduling", and then that it "now enables" it."""
    mtp = "      speculative-config: {method: mtp, num_speculative_tokens: 3}\n"
    old = edited(
        ("      enable-prefix-caching: true\n", f"      enable-prefix-caching: true\n{mtp}")
    )
    new = edited((mtp, "      async-scheduling: true\n"), base=old)
    body = release(old, new).split("\n\n", 2)[2]
    retains = next(line for line in body.splitlines() if "It retains" in line)
    assert "async scheduling" not in retains
    assert "now enables async scheduling by default." in body


def test_a_steps_condition_that_changed_is_not_worded_as_a_new_command(release):
    """Its ``when`` changed, its command did not: the bullet said the launcher "now runs X
    instead of X"."""
    launcher = (
        "launcher:\n  before_serve:\n    install-loader:\n"
        '      run: [pip, install, "vllm[fastsafetensors]"]\n'
        "      when: {load-format: fastsafetensors}\n"
    )
    old = MINIMAL_REGISTRY + launcher
    new = old.replace("fastsafetensors}", "fastsafetensors, max-num-seqs: 2}")
    body = release(old, new).split("\n\n", 2)[2]
    assert body.startswith(
        "- The launcher's `install-loader` step (`pip install 'vllm[fastsafetensors]'`) now "
        "runs for other profiles: the serve arguments it runs for changed.\n"
    )


def test_a_shorter_omit_list_names_what_was_left_out_before(release):
    """It read as if the remaining flag were newly left out, while the other came back."""
    launcher = "launcher:\n  shared_args:\n    port: 8000\n    trust-remote-code: true\n"
    omit = "    launcher: {omit_args: [trust-remote-code, port]}\n"
    old = edited(("    image: img\n", f"    image: img\n{omit}")) + launcher
    new = old.replace("[trust-remote-code, port]", "[port]")
    body = release(old, new).split("\n\n", 2)[2]
    assert body.startswith(
        "- The single-node Big Box `acme/Tiny-1B` profile now leaves out these shared serve "
        "arguments: `--port` (before: `--trust-remote-code, --port`).\n"
    )


def test_a_profile_that_moves_host_names_both_hosts_by_name(release):
    """It named the old host by its id ("instead of host `box`")."""
    two = edited(
        (
            "  box: {name: Big Box, arch: amd64}\n",
            "  box: {name: Big Box, arch: amd64}\n  gpu: {name: GPU Server}\n",
        )
    )  # noqa: E501
    moved = two.replace("    host: box\n    default: true\n", "    host: gpu\n    default: true\n")
    body = release(two, moved).split("\n\n", 2)[2]
    assert "now targets GPU Server instead of Big Box." in body
