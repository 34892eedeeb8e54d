"""The launcher section: the shared args and steps the product's launcher adds to every
managed profile's command, each profile's opt-outs, and vLLM's start-time rules between
flags, all checked by ``validate`` and used by every consumer of the command."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from conftest import MINIMAL_REGISTRY

from docgen.export import export_data
from docgen.registry.load import load_bytes
from docgen.registry.rules import Checker
from docgen.registry.serve import override_command, serve_command
from docgen.registry.source import load_text

LAUNCHER = """\
launcher:
  shared_args:
    port: 8000
    trust-remote-code: true
  before_serve:
    install-loader:
      run: [pip, install, "vllm[fastsafetensors]"]
      when: {load-format: fastsafetensors}
    warm-up:
      run: [nvidia-smi]
"""


def registry(text: str = MINIMAL_REGISTRY + LAUNCHER, *edits: tuple[str, str]):
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return load_bytes(text.encode(), "p.yaml")


def problems(text: str) -> list[str]:
    return [str(p) for p in Checker(load_text(text, "p.yaml")).run()]


def with_edits(*edits: tuple[str, str]) -> str:
    text = MINIMAL_REGISTRY + LAUNCHER
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def test_the_command_is_the_launchers_steps_then_shared_args_then_the_profiles_own():
    reg = registry(MINIMAL_REGISTRY + LAUNCHER, ("max-num-seqs: 2", "load-format: fastsafetensors"))
    command = serve_command(reg.profiles["vllm.box.tiny"])
    assert command.steps == (("pip", "install", "vllm[fastsafetensors]"), ("nvidia-smi",))
    assert command.argv == [
        "vllm", "serve", "acme/Tiny-1B", "--port", "8000", "--trust-remote-code",
        "--max-model-len", "32768", "--gpu-memory-utilization", "0.5",
        "--load-format", "fastsafetensors", "--enable-prefix-caching",
    ]  # fmt: skip
    assert command.shell() == (
        "pip install 'vllm[fastsafetensors]' && nvidia-smi && vllm serve acme/Tiny-1B "
        "--port 8000 --trust-remote-code --max-model-len 32768 --gpu-memory-utilization 0.5 "
        "--load-format fastsafetensors --enable-prefix-caching"
    )
    assert command.shell(multiline=True) == (
        "pip install 'vllm[fastsafetensors]' &&\n"
        "nvidia-smi &&\n"
        "vllm serve acme/Tiny-1B \\\n  --port 8000 \\\n  --trust-remote-code \\\n"
        "  --max-model-len 32768 \\\n  --gpu-memory-utilization 0.5 \\\n"
        "  --load-format fastsafetensors \\\n  --enable-prefix-caching"
    )


def test_a_step_runs_only_for_profiles_whose_args_match_its_when():
    reg = registry()  # the profile loads without fastsafetensors
    assert [s.id for s in reg.profiles["vllm.box.tiny"].steps] == ["warm-up"]
    other = registry(MINIMAL_REGISTRY + LAUNCHER, ("max-num-seqs: 2", "load-format: auto"))
    assert [s.id for s in other.profiles["vllm.box.tiny"].steps] == ["warm-up"]


def test_a_profile_omits_shared_args_and_steps():
    reg = registry(
        MINIMAL_REGISTRY + LAUNCHER,
        (
            "    image: img\n",
            "    image: img\n"
            "    launcher: {omit_args: [trust-remote-code], omit_steps: [warm-up]}\n",
        ),
    )
    profile = reg.profiles["vllm.box.tiny"]
    assert [a.name for a in profile.shared_args] == ["port"]
    assert profile.steps == ()
    assert serve_command(profile).argv[3:5] == ["--port", "8000"]
    assert "--trust-remote-code" not in serve_command(profile).argv


def test_a_profile_may_set_a_shared_arg_it_omits_in_its_own_args():
    """Omitting ``--port`` from the shared args frees the profile to set its own."""
    text = with_edits(
        ("    image: img\n", "    image: img\n    launcher: {omit_args: [port]}\n"),
        ("max-num-seqs: 2", "max-num-seqs: 2\n      port: 9000"),
    )
    assert problems(text) == []
    argv = serve_command(registry(text).profiles["vllm.box.tiny"]).argv
    assert argv.count("--port") == 1
    assert argv[argv.index("--port") + 1] == "9000"


def test_the_export_and_the_json_command_show_the_steps(make_project, run):
    reg = registry()
    (exported,) = export_data(reg)["profiles"]
    assert exported["before"] == [["nvidia-smi"]]
    assert exported["argv"][3:6] == ["--port", "8000", "--trust-remote-code"]
    project = make_project(registry=MINIMAL_REGISTRY + LAUNCHER)
    shown = run(project, "serve-command", "vllm.box.tiny", "--format", "json")
    assert json.loads(shown.stdout)["before"] == [["nvidia-smi"]]


def test_without_a_launcher_section_the_command_is_the_profiles_alone():
    command = serve_command(registry(MINIMAL_REGISTRY).profiles["vllm.box.tiny"])
    assert command.steps == () and command.argv[3] == "--max-model-len"


@pytest.mark.parametrize(
    ("edits", "expected"),
    [
        (
            [
                (
                    "    image: img\n",
                    "    image: img\n    launcher: {omit_args: [trust-remote-cod]}\n",
                )
            ],
            "p.yaml:38:28: error: profile 'vllm.box.tiny' omits 'trust-remote-cod', which is "
            "not one of launcher.shared_args; did you mean 'trust-remote-code'?",
        ),
        (
            [("    image: img\n", "    image: img\n    launcher: {omit_steps: [warmup]}\n")],
            "p.yaml:38:29: error: profile 'vllm.box.tiny' omits step 'warmup', which is not "
            "one of launcher.before_serve; did you mean 'warm-up'?",
        ),
        (
            [("      max-num-seqs: 2\n", "      port: 9000\n")],
            "p.yaml:41:7: error: '--port' is one of launcher.shared_args (line 52), which the "
            "command already sets; remove it here, or list it in profile 'vllm.box.tiny' "
            "launcher.omit_args to set it here instead",
        ),
        (
            [("    port: 8000\n", "    prot: 8000\n")],
            "p.yaml:52:5: error: unknown vLLM flag '--prot'; did you mean '--port'?",
        ),
        (
            [("when: {load-format: fastsafetensors}", "when: {load-fromat: fastsafetensors}")],
            "p.yaml:57:14: error: unknown vLLM flag '--load-fromat'; did you mean '--load-format'?",
        ),
        (
            [("    image: img\n", "    image: img\n    expect: {absent: [port]}\n")],
            "p.yaml:38:23: error: profile 'vllm.box.tiny' expects '--port' to be absent, but "
            "launcher.shared_args sets it; list it in the profile's launcher.omit_args",
        ),
        (
            [("    image: img\n", "    image: img\n    expect: {present: {port: 9000}}\n")],
            # at the shared arg (a line lower: the expect line comes first)
            "p.yaml:53:11: error: profile 'vllm.box.tiny' expects '--port' to be 9000, but "
            "launcher.shared_args sets 8000",
        ),
    ],
    ids=[
        "unknown-omitted-arg",
        "unknown-omitted-step",
        "profile-sets-a-shared-arg",
        "unknown-shared-flag",
        "unknown-when-flag",
        "expect-absent-a-shared-arg",
        "expect-present-differs-from-a-shared-arg",
    ],
)
def test_launcher_mistakes_are_located_errors(edits, expected):
    assert problems(with_edits(*edits)) == [expected]


def test_a_shared_arg_satisfies_expect_present():
    text = with_edits(("    image: img\n", "    image: img\n    expect: {present: {port: 8000}}\n"))
    assert problems(text) == []


# --- vLLM's start-time rules between flags --------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ("enable-auto-tool-choice: true", "--enable-auto-tool-choice requires --tool-call-parser"),
        ("enable-log-outputs: true", "--enable-log-outputs requires --enable-log-requests"),
        (
            "enable-per-request-metrics: true\n      disable-log-stats: true",
            "--enable-per-request-metrics cannot be combined with --disable-log-stats",
        ),
    ],
    ids=["tool-choice-without-parser", "log-outputs-without-requests", "metrics-without-stats"],
)
def test_a_command_vllm_refuses_to_start_is_refused_at_the_flag(args, expected):
    text = MINIMAL_REGISTRY.replace("      max-num-seqs: 2\n", f"      {args}\n")
    assert problems(text) == [
        f"p.yaml:41:7: error: vLLM refuses to start profile 'vllm.box.tiny': {expected}"
    ]


@pytest.mark.parametrize(
    "args",
    [
        "enable-auto-tool-choice: true\n      tool-call-parser: hermes",
        "enable-auto-tool-choice: false",
        "enable-log-outputs: true\n      enable-log-requests: true",
        "enable-per-request-metrics: true",
    ],
)
def test_a_command_that_meets_every_rule_passes(args):
    assert problems(MINIMAL_REGISTRY.replace("      max-num-seqs: 2\n", f"      {args}\n")) == []


def test_an_override_that_breaks_a_rule_is_named():
    text = MINIMAL_REGISTRY.replace(
        "      max-num-seqs: 2\n",
        "      enable-auto-tool-choice: true\n      tool-call-parser: hermes\n",
    ).replace("          gpu-memory-utilization: 0.3\n", "          tool-call-parser: ''\n")
    assert problems(text) == [
        "p.yaml:41:7: error: vLLM refuses to start profile 'vllm.box.tiny' with override "
        "'small': --enable-auto-tool-choice requires --tool-call-parser"
    ]


def test_every_override_that_breaks_a_rule_is_named():
    """Not only the first: each override is checked with the profile's own args."""
    text = MINIMAL_REGISTRY.replace(
        "      max-num-seqs: 2\n",
        "      enable-auto-tool-choice: true\n      tool-call-parser: hermes\n",
    ).replace("          gpu-memory-utilization: 0.3\n", "          tool-call-parser: ''\n")
    second = (
        "      bare:\n        summary: No parser.\n        args:\n"
        "          tool-call-parser: ''\n        tradeoffs:\n          - None.\n"
    )
    text = text.replace("    overrides:\n", "    overrides:\n" + second, 1)
    assert [p.split(": error: ", 1)[1] for p in problems(text)] == [
        f"vLLM refuses to start profile 'vllm.box.tiny' with override '{name}': "
        "--enable-auto-tool-choice requires --tool-call-parser"
        for name in ("bare", "small")
    ]


def test_a_rule_broken_through_the_shared_args_stands_at_the_launcher():
    text = MINIMAL_REGISTRY + "launcher:\n  shared_args: {enable-auto-tool-choice: true}\n"
    assert problems(text) == [
        "p.yaml:51:17: error: vLLM refuses to start profile 'vllm.box.tiny': "
        "--enable-auto-tool-choice requires --tool-call-parser"
    ]


# --- a host's default image -----------------------------------------------------------


def test_a_profile_that_names_no_image_runs_its_hosts_default():
    text = MINIMAL_REGISTRY.replace(
        "  box: {name: Big Box, arch: amd64}\n", "  box: {name: Big Box, arch: amd64, image: img}\n"
    ).replace("    image: img\n", "")
    profile = registry(text).profiles["vllm.box.tiny"]
    assert profile.image is not None and profile.image.id == "img"
    own = registry(MINIMAL_REGISTRY.replace("    image: img\n", "")).profiles["vllm.box.tiny"]
    assert own.image is None


def test_a_hosts_unknown_image_is_a_located_error():
    text = MINIMAL_REGISTRY.replace(
        "  box: {name: Big Box, arch: amd64}\n",
        "  box: {name: Big Box, arch: amd64, image: imgx}\n",
    )
    assert problems(text) == [
        "p.yaml:20:44: error: host 'box' names unknown image 'imgx'; did you mean 'img'?"
    ]


# --- what a fresh-eyes review found ------------------------------------------------------


def test_an_override_that_sets_a_steps_flag_runs_the_step():
    text = with_edits(
        ("          gpu-memory-utilization: 0.3\n", "          load-format: fastsafetensors\n")
    )
    profile = registry(text).profiles["vllm.box.tiny"]
    assert [s.id for s in profile.steps] == ["warm-up"]
    small = profile.override("small")
    command = serve_command(profile, small)
    assert command.steps == (("pip", "install", "vllm[fastsafetensors]"), ("nvidia-smi",))


def test_a_when_value_matches_the_argv_it_gives_not_how_it_is_written():
    text = with_edits(
        ("when: {load-format: fastsafetensors}", "when: {max-num-seqs: '2'}"),
    )
    assert [s.id for s in registry(text).profiles["vllm.box.tiny"].steps] == [
        "install-loader",
        "warm-up",
    ]
    text = MINIMAL_REGISTRY.replace(
        "      max-num-seqs: 2\n",
        "      speculative-config: {num_speculative_tokens: 3, method: mtp}\n",
    ) + (
        "launcher:\n  before_serve:\n    spec:\n      run: [echo]\n"
        "      when: {speculative-config: {method: mtp, num_speculative_tokens: 3}}\n"
    )
    assert [s.id for s in registry(text).profiles["vllm.box.tiny"].steps] == ["spec"]


def test_a_shared_arg_is_not_repeated_by_a_model_derived_flag():
    text = (
        MINIMAL_REGISTRY.replace(
            "    label: Tiny 1B\n", "    label: Tiny 1B\n    served_name: tiny\n"
        )
        + "launcher:\n  shared_args: {served-model-name: acme-tiny}\n"
    )
    argv = serve_command(registry(text).profiles["vllm.box.tiny"]).argv
    assert argv.count("--served-model-name") == 1 and argv[3:5] == [
        "--served-model-name",
        "acme-tiny",
    ]


def test_an_omit_list_written_as_a_string_is_the_schemas_one_error(make_project, run):
    text = with_edits(("    image: img\n", "    image: img\n    launcher: {omit_args: port}\n"))
    result = run(make_project(registry=text), "validate")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert "omit_args" in result.stderr and "list" in result.stderr


def test_an_older_state_that_breaks_a_start_rule_is_still_a_diff_base(make_project, run):
    old = MINIMAL_REGISTRY.replace(
        "      max-num-seqs: 2\n", "      enable-auto-tool-choice: true\n"
    )
    new = MINIMAL_REGISTRY.replace(
        "      max-num-seqs: 2\n",
        "      enable-auto-tool-choice: true\n      tool-call-parser: hermes\n",
    )
    project = make_project(registry=new, files={"old.yaml": old})
    result = run(project, "diff", "--since-file", "old.yaml")
    assert result.exit_code == 0, result.output
    assert "arg-added vllm.box.tiny tool-call-parser" in result.stdout


@pytest.mark.parametrize(
    ("model_field", "when"),
    [
        ("served_name: tiny", "{served-model-name: tiny}"),
        ("revision: 0123abc", "{revision: 0123abc}"),
    ],
)
def test_a_step_whose_when_the_model_sets_runs(model_field, when):
    """The model's ``--served-model-name`` and ``--revision`` are in the command as much
    as the profile's args are: a ``when`` on them is met."""
    text = with_edits(
        ("when: {load-format: fastsafetensors}", f"when: {when}"),
        ("    label: Tiny 1B\n", f"    label: Tiny 1B\n    {model_field}\n"),
    )
    profile = registry(text).profiles["vllm.box.tiny"]
    assert [s.id for s in profile.steps] == ["install-loader", "warm-up"]
    assert serve_command(profile).steps[0] == ("pip", "install", "vllm[fastsafetensors]")


def test_an_explicit_only_profile_takes_no_override():
    """It is chosen by its id (``onboard --profile``), which NemoClaw refuses beside
    its extra-args setting: an override there is a registry error, and the command
    helper refuses to print one for it."""
    explicit = (
        "    host: box\n    default: true\n",
        "    host: box\n    selection: explicit-only\n",
    )
    assert problems(with_edits(explicit)) == [
        "p.yaml:44:7: error: profile 'vllm.box.tiny' is explicit-only: it is chosen by its "
        "id, which cannot be combined with ACME_EXTRA_ARGS_JSON, so override "
        "'small' can never be applied; drop the override or make the profile automatic"
    ]
    automatic = registry().profiles["vllm.box.tiny"]
    product = registry().product
    assert override_command(product, automatic, automatic.overrides[0], "$$acme") == (
        "ACME_MODEL=tiny \\\n"
        '  ACME_EXTRA_ARGS_JSON=\'["--gpu-memory-utilization","0.3"]\' \\\n'
        "  $$acme onboard --non-interactive"
    )
    named = replace(automatic, selection="explicit-only")
    with pytest.raises(ValueError, match="explicit-only: it is chosen by its id"):
        override_command(product, named, automatic.overrides[0], "$$acme")


@pytest.mark.parametrize(
    ("field", "never"), [("selection", "explicit-only"), ("support", "disabled")]
)
def test_a_default_profile_is_one_its_host_offers(field, never):
    """A page then said both "selects this profile by default" and "does not change the
    default" (or "does not offer this profile")."""
    text = with_edits(
        (
            "    host: box\n    default: true\n",
            f"    host: box\n    default: true\n    {field}: {never}\n",
        )
    )
    assert problems(text)[0] == (
        f"p.yaml:37:{len(field) + 7}: error: profile 'vllm.box.tiny' is its host's default, "
        f"but a default cannot be {never}; drop 'default: true' or choose another {field}"
    )
    # An explicit-only profile's override is refused too (test above), and nothing else.
    assert problems(text)[1:] == (
        [
            "p.yaml:45:7: error: profile 'vllm.box.tiny' is explicit-only: it is chosen by its "
            "id, which cannot be combined with ACME_EXTRA_ARGS_JSON, so override "
            "'small' can never be applied; drop the override or make the profile automatic"
        ]
        if never == "explicit-only"
        else []
    )


def test_expect_sees_the_flags_the_model_adds():
    """``--served-model-name`` and ``--revision`` come from the model: ``expect`` guards
    the whole command."""
    model = (
        "    label: Tiny 1B\n",
        "    label: Tiny 1B\n    served_name: tiny\n    revision: 0123abc\n",
    )
    absent = with_edits(
        model,
        (
            "    args:\n      max-model-len",
            "    expect: {absent: [revision]}\n    args:\n      max-model-len",
        ),
    )
    assert problems(absent) == [
        "p.yaml:40:23: error: profile 'vllm.box.tiny' expects '--revision' to be absent, "
        "but its model's revision sets it"
    ]
    present = with_edits(
        model,
        (
            "    args:\n      max-model-len",
            "    expect: {present: {served-model-name: tiny}}\n    args:\n      max-model-len",
        ),
    )
    assert problems(present) == []
    other = present.replace("served-model-name: tiny}", "served-model-name: big}")
    assert problems(other) == [
        "p.yaml:31:18: error: profile 'vllm.box.tiny' expects '--served-model-name' to be big, "
        "but its model's served_name sets tiny"
    ]


def test_a_when_on_a_list_flag_matches_the_words_the_command_gives():
    """``served-model-name`` takes several words: ``[tiny]`` and the model's ``tiny``
    give the same argv, as ``expect: present`` already judged."""
    text = with_edits(
        ("when: {load-format: fastsafetensors}", "when: {served-model-name: [tiny]}"),
        ("    label: Tiny 1B\n", "    label: Tiny 1B\n    served_name: tiny\n"),
    )
    assert [s.id for s in registry(text).profiles["vllm.box.tiny"].steps] == [
        "install-loader",
        "warm-up",
    ]
    other = text.replace(
        "when: {served-model-name: [tiny]}", "when: {served-model-name: [tiny, x]}"
    )
    assert [s.id for s in registry(other).profiles["vllm.box.tiny"].steps] == ["warm-up"]
