"""Each kind of claim the worked example's templates make about a profile's state, exact:
how a reader selects it (default, by model setting, explicit-only by stable ID), what
its support state means (a Deferred preview notice, Experimental, disabled), the
evidence sentence, override headings as titles, and the firewall rule."""

from __future__ import annotations

from conftest import Project

SETUP = "docs/inference/set-up-vllm.mdx"
PROFILE = "docs/profiles/{}.mdx"
SPARK = "vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4"
N1X = "vllm.n1x.single.qwen3-6-35b-a3b-nvfp4"
QWEN_27B = "vllm.linux-amd64-nvidia.single.qwen3-6-27b-fp8"
FIRST_PROFILE_HEADER = "  vllm.linux-amd64-nvidia.single.qwen3-6-27b-fp8:\n"


def built(project: Project, run) -> Project:
    result = run(project, "build")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    return project


def state_block(project: Project, pid: str) -> list[str]:
    """The lines between the settings sentences and the image sentence of a profile page."""
    lines = project.read(PROFILE.format(pid)).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("The profile uses")) + 2
    end = next(i for i, line in enumerate(lines) if line.startswith("The profile runs the"))
    return lines[start:end]


def test_a_host_default_says_it_is_selected_by_default(example, run):
    assert state_block(built(example, run), SPARK) == [
        "NemoClaw selects this profile by default on DGX Spark.",
    ]


def test_an_explicit_only_profile_says_how_to_select_it_by_stable_id(example, run):
    assert state_block(built(example, run), QWEN_27B) == [
        "This profile is explicit-only, so it does not change the Linux with an NVIDIA GPU "
        "default or appear in the interactive model picker.",
        "Select its stable ID after confirming that `$$nemoclaw profiles list` reports it as "
        "compatible.",
        "",
        "```bash",
        f"$$nemoclaw onboard --profile {QWEN_27B}",
        "```",
        "",
    ]


def test_an_automatic_profile_that_is_no_default_is_selected_by_the_model_setting(example, run):
    example.edit("profiles.yaml", "    selection: explicit-only\n", "    selection: automatic\n")
    assert state_block(built(example, run), QWEN_27B) == [
        "Select this profile on Linux with an NVIDIA GPU with `NEMOCLAW_VLLM_MODEL=qwen3.6-27b`.",
    ]


def test_a_deferred_default_gets_the_preview_notice_on_its_page_and_the_setup_page(example, run):
    project = built(example, run)
    assert state_block(project, N1X) == [
        "NemoClaw selects this profile by default on N1x.",
        "",
        '<Warning title="N1x Preview">',
        "The N1x profile is a Deferred preview: its validation is still pending.",
        "Do not rely on it as a supported path until its support state is promoted.",
        "</Warning>",
        "",
    ]
    lead = project.read(SETUP).split("*/}\n\n", 1)[1].splitlines()[:2]
    assert lead[1] == "It also provides a Deferred N1x preview pending validation."


def test_without_a_deferred_default_the_setup_page_promises_no_preview(example, run):
    example.edit("profiles.yaml", "    support: deferred\n", "    support: supported\n")
    project = built(example, run)
    assert "preview" not in project.read(SETUP).lower()
    assert "<Warning title=" not in project.read(PROFILE.format(N1X))


def test_an_experimental_and_a_disabled_profile_say_what_that_means(example, run):
    example.edit("profiles.yaml", "    support: deferred\n", "    support: experimental\n")
    project = built(example, run)
    assert state_block(project, N1X) == [
        "NemoClaw selects this profile by default on N1x.",
        "This profile is Experimental: its validation is bounded, and it does not establish "
        "general support for other models, images, or serving arguments.",
    ]
    # A host's default cannot be disabled: the disabled profile is no longer N1x's default.
    example.edit(
        "profiles.yaml",
        "    host: n1x\n    default: true\n    support: experimental\n",
        "    host: n1x\n    support: disabled\n",
    )
    assert state_block(built(example, run), N1X) == [
        "NemoClaw does not offer this profile: it is disabled.",
    ]


def test_the_evidence_line_is_a_sentence_that_says_what_was_measured(example, run):
    page = built(example, run).read(PROFILE.format(SPARK))
    assert (
        "On August 4, 2026, validation on DGX Spark (GB10) measured these results with this "
        "setup: MTP off, async scheduling on, GPU-memory utilization 0.4.\n\n| Measurement |"
    ) in page


def test_an_override_heading_is_a_title_not_an_id(example, run):
    page = built(example, run).read(PROFILE.format(SPARK))
    assert "### Bounded Long Context\n" in page
    assert "### bounded-long-context" not in page


def test_the_firewall_rule_allows_the_launchers_port_from_the_docker_subnet(example, run):
    example.edit("profiles.yaml", "    port: 8000\n", "    port: 8001\n")
    text = built(example, run).read(SETUP)
    assert (
        "Use a host firewall with default-deny inbound rules.\n"
        "Allow TCP port `8001` only from the OpenShell Docker subnet to its gateway address, "
        "keep loopback access, and deny the port on every other interface.\n"
        "Do not expose the port to your LAN or the internet.\n"
    ) in text
    assert "When vLLM is already running on `localhost:8001`," in text
