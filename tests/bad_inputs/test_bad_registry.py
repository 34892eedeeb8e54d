"""Registry values of the wrong type, references to nothing, values out of range and
directive text: each gives an exact located error and changes nothing.
"""

from __future__ import annotations

import pytest
from bad_input_cases import BUILD, DIRECTIVE, Case, arg, check, param, reg
from conftest import MINIMAL_REGISTRY

AGENT_CLI = (
    "an agent's command holds letters, digits, dots, dashes and underscores, and starts and "
    "ends with a letter or digit (a page shows it in the CLI token's place, where an "
    "underscore at an end would make emphasis)"
)

REGISTRY_TYPES = [
    Case(
        "schema-version",
        BUILD,
        ("profiles.yaml:1:9: error: schema must be 1, got 2",),
        reg("schema: 1", "schema: 2"),
    ),
    Case(
        "unknown-section",
        BUILD,
        ("profiles.yaml:50:1: error: unknown key 'extras' at the top level",),
        MINIMAL_REGISTRY + "extras: {}\n",
    ),
    Case(
        "unknown-product-key",
        BUILD,
        (
            "profiles.yaml:2:1: error: missing required key 'cli_token' in product",
            "profiles.yaml:4:3: error: unknown key 'cli_tokn' in product; did you mean "
            "'cli_token'?",
        ),
        reg("  cli_token:", "  cli_tokn:"),
    ),
    Case(
        "missing-label",
        BUILD,
        ("profiles.yaml:28:3: error: missing required key 'label' in models.tiny",),
        reg("    label: Tiny 1B\n", ""),
    ),
    Case(
        "empty-product-name",
        BUILD,
        ("profiles.yaml:3:9: error: product.name must not be empty",),
        reg("  name: Acme", '  name: ""'),
    ),
    Case(
        "host-arch-choice",
        BUILD,
        ("profiles.yaml:20:30: error: hosts.box.arch is 'x86'; expected one of: arm64, amd64",),
        reg("arch: amd64", "arch: x86"),
    ),
    Case(
        "image-built-for-another-arch",
        BUILD,
        (
            "profiles.yaml:37:12: error: image 'img' is built for linux/arm64, but host 'box' "
            "is amd64",
        ),
        reg("    platform: linux/amd64\n", "    platform: linux/arm64\n"),
    ),
    Case(
        "model-host-support-contradicts-its-profile",
        BUILD,
        (
            "profiles.yaml:32:28: error: model 'tiny' says support 'deferred' on host 'box', "
            "but its profile 'vllm.box.tiny' there is 'supported' (it sets no support, and that "
            "is the default): set it in one place",
        ),
        reg(
            "    notes: Box default.\n",
            "    notes: Box default.\n    hosts: {box: {support: deferred}}\n",
        ),
    ),
    Case(
        "gated-not-boolean",
        BUILD,
        ("profiles.yaml:31:12: error: models.tiny.gated must be true or false, got 'maybe'",),
        reg("    notes: Box", "    gated: maybe\n    notes: Box"),
    ),
    Case(
        "model-revision",
        BUILD,
        (
            "profiles.yaml:31:15: error: models.tiny.revision 'main' is malformed: a commit of "
            "the model's repository, 7 to 64 lowercase hexadecimal digits (a branch or tag name "
            "moves; pin the commit it points at)",
        ),
        reg("    notes: Box", "    revision: main\n    notes: Box"),
    ),
    Case(
        "hf-id-without-org",
        BUILD,
        ("profiles.yaml:29:9: error: models.tiny.hf 'Tiny-1B' is malformed",),
        reg("hf: acme/Tiny-1B", "hf: Tiny-1B"),
    ),
    Case(
        "image-digest",
        BUILD,
        (
            "profiles.yaml:24:13: error: images.img.digest "
            "'md5:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' is malformed",
        ),
        reg("sha256:aaaa", "md5:aaaa"),
    ),
    Case(
        "image-platform",
        BUILD,
        ("profiles.yaml:26:15: error: images.img.platform 'amd64' is malformed",),
        reg("platform: linux/amd64", "platform: amd64"),
    ),
    Case(
        "image-bytes-string",
        BUILD,
        ("profiles.yaml:25:23: error: images.img.compressed_bytes must be an integer, got '1 GB'",),
        reg("compressed_bytes: 1234567890", "compressed_bytes: 1 GB"),
    ),
    Case(
        "args-as-list",
        BUILD,
        (
            "profiles.yaml:46:15: error: profiles.vllm.box.tiny.overrides.small.args must be a "
            "mapping, got a list",
        ),
        reg(
            "        args:\n          gpu-memory-utilization: 0.3",
            "        args: [gpu-memory-utilization]",
        ),
    ),
    Case(
        "support-choice",
        BUILD,
        (
            "profiles.yaml:36:14: error: profiles.vllm.box.tiny.support is 'beta'; expected one "
            "of: supported, experimental, deferred, disabled",
        ),
        reg("    default: true\n    image", "    support: beta\n    image"),
    ),
    Case(
        "docs-base-relative",
        BUILD,
        (
            "profiles.yaml:7:14: error: product.docs_base 'guide/{agent}' is malformed: Root of "
            "published routes; may contain {agent}.",
        ),
        reg("docs_base: /guide/{agent}", "docs_base: guide/{agent}"),
    ),
    Case(
        "agent-cli-with-space",
        BUILD,
        (f"profiles.yaml:14:10: error: agents.[0].cli 'acme cli' is malformed: {AGENT_CLI}",),
        reg("    cli: acme\n", "    cli: acme cli\n"),
    ),
    # A page shows the CLI where the token stands: `__x__` in prose is emphasis (a hostile
    # round's finding); an underscore inside a word is not.
    Case(
        "agent-cli-underscores-at-its-ends",
        BUILD,
        (f"profiles.yaml:14:10: error: agents.[0].cli '__x__' is malformed: {AGENT_CLI}",),
        reg("    cli: acme\n", "    cli: __x__\n"),
    ),
    Case(
        "agent-missing-title",
        BUILD,
        ("profiles.yaml:16:5: error: missing required key 'title' in agents.[1]",),
        reg("    title: Acme for Beta\n", ""),
    ),
    Case(
        "env-name",
        BUILD,
        (
            "profiles.yaml:38:11: error: invalid id '1BAD' in profiles.vllm.box.tiny.env: names "
            "must match ^[A-Za-z_][A-Za-z0-9_]*$",
        ),
        reg("    image: img\n", "    image: img\n    env: {1BAD: x}\n"),
    ),
    Case(
        "tradeoffs-not-list",
        BUILD,
        (
            "profiles.yaml:49:11: error: profiles.vllm.box.tiny.overrides.small.tradeoffs must be "
            "a list, got 'It lowers throughput.'",
        ),
        reg("          - It lowers throughput.", "          It lowers throughput."),
    ),
    Case(
        "evidence-result-mapping",
        BUILD,
        (
            "profiles.yaml:44:53: error: profiles.vllm.box.tiny.evidence.[0].results.kv must be a "
            "string or a number or an integer or true or false, got a mapping",
        ),
        reg(
            "    overrides:",
            "    evidence:\n      - {date: 2026-01-02, host: Box, results: {kv: {a: 1}}}\n"
            "    overrides:",
        ),
    ),
]

REGISTRY_REFERENCES = [
    Case(
        "unknown-model",
        BUILD,
        (
            "profiles.yaml:34:12: error: profile 'vllm.box.tiny' names unknown model 'tiyn'; did "
            "you mean 'tiny'?",
        ),
        reg("    model: tiny", "    model: tiyn"),
    ),
    Case(
        "unknown-host",
        BUILD,
        (
            "profiles.yaml:35:11: error: profile 'vllm.box.tiny' names unknown host 'bx'; did you "
            "mean 'box'?",
        ),
        reg("    host: box", "    host: bx"),
    ),
    Case(
        "unknown-image",
        BUILD,
        (
            "profiles.yaml:37:12: error: profile 'vllm.box.tiny' names unknown image 'image'; did "
            "you mean 'img'?",
        ),
        reg("    image: img", "    image: image"),
    ),
    Case(
        "second-host-default",
        BUILD,
        (
            "profiles.yaml:53:14: error: host 'box' already has a default profile, "
            "'vllm.box.tiny' (line 33)",
        ),
        MINIMAL_REGISTRY + "  vllm.box.two:\n    model: tiny\n    host: box\n    default: true\n"
        "    args: {max-model-len: 1024}\n",
    ),
    Case(
        "override-turns-on-a-flag-the-profile-turns-off",
        BUILD,
        (
            "profiles.yaml:47:11: error: vLLM refuses to start profile 'vllm.box.tiny' with "
            "override 'small': --enable-auto-tool-choice requires --tool-call-parser",
        ),
        MINIMAL_REGISTRY.replace("max-num-seqs: 2", "enable-auto-tool-choice: false").replace(
            "gpu-memory-utilization: 0.3", "enable-auto-tool-choice: true"
        ),
    ),
    Case(
        "model-host-support-against-the-first-profile-there",
        BUILD,
        (
            "profiles.yaml:32:28: error: model 'tiny' says support 'experimental' on host "
            "'box', but its profile 'vllm.box.tiny' there is 'supported' (it sets no support, "
            "and that is the default): set it in one place",
        ),
        MINIMAL_REGISTRY.replace(
            "    notes: Box default.\n",
            "    notes: Box default.\n    hosts: {box: {support: experimental}}\n",
        )
        + "  vllm.box.tiny-b:\n    model: tiny\n    host: box\n    support: experimental\n"
        "    image: img\n    args:\n      max-model-len: 4096\n",
    ),
    Case(
        "third-host-default-names-the-first",
        BUILD,
        (
            "profiles.yaml:53:14: error: host 'box' already has a default profile, "
            "'vllm.box.tiny' (line 33)",
            "profiles.yaml:58:14: error: host 'box' already has a default profile, "
            "'vllm.box.tiny' (line 33)",
        ),
        MINIMAL_REGISTRY
        + "".join(
            f"  vllm.box.{n}:\n    model: tiny\n    host: box\n    default: true\n"
            "    args: {max-model-len: 1024}\n"
            for n in ("two", "three")
        ),
    ),
    Case(
        "duplicate-agent-id",
        BUILD,
        ("profiles.yaml:16:9: error: duplicate agent id 'alpha'",),
        reg("  - id: beta", "  - id: alpha"),
    ),
    Case(
        "two-default-agents",
        BUILD,
        ("profiles.yaml:19:14: error: more than one agent is the default",),
        reg("    cli: acme-beta\n", "    cli: acme-beta\n    default: true\n"),
    ),
    Case(
        "two-default-agents-then-another",  # the agent after them is not blamed
        BUILD,
        ("profiles.yaml:19:14: error: more than one agent is the default",),
        reg(
            "    cli: acme-beta\n",
            "    cli: acme-beta\n    default: true\n  - id: gamma\n    title: G\n    cli: g\n",
        ),
    ),
    Case(
        "unknown-vllm-release",
        BUILD,
        (
            "profiles.yaml:27:11: error: vLLM 0.1.0 is older than 0.8.5.post1, the oldest release "
            "docgen has argument data for",
        ),
        reg("    platform: linux/amd64", "    platform: linux/amd64\n    vllm: 0.1.0"),
    ),
]

REGISTRY_RANGES = [
    Case(
        "utilization-above-one",
        BUILD,
        ("profiles.yaml:40:31: error: '--gpu-memory-utilization' must be > 0 and <= 1, got 1.5",),
        reg("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 1.5"),
    ),
    Case(
        "max-num-seqs-zero",
        BUILD,
        ("profiles.yaml:41:21: error: '--max-num-seqs' must be a positive integer, got 0",),
        arg("max-num-seqs: 0"),
    ),
    Case(
        "negative-model-len",
        BUILD,
        ("profiles.yaml:39:22: error: '--max-model-len' must be >= -1, got -2",),
        reg("max-model-len: 32768", "max-model-len: -2"),
    ),
    Case(
        "compressed-bytes-zero",
        BUILD,
        ("profiles.yaml:25:23: error: images.img.compressed_bytes must be greater than 0, got 0",),
        reg("compressed_bytes: 1234567890", "compressed_bytes: 0"),
    ),
    Case(
        "evidence-date-feb-30",
        BUILD,
        (
            "profiles.yaml:44:16: error: invalid date '2026-02-30'; expected a real date as "
            "YYYY-MM-DD",
        ),
        reg(
            "    overrides:", "    evidence:\n      - {date: 2026-02-30, host: Box}\n    overrides:"
        ),
    ),
]

REGISTRY_TEXT = [
    Case(
        "note-with-agentonly-line",
        BUILD,
        (f"profiles.yaml:31:12: error: {DIRECTIVE}",),
        reg("    notes: Box default.", '    notes: "Box.\\n<AgentOnly variant=\\"beta\\">"'),
    ),
    Case(
        "summary-with-region-marker",
        BUILD,
        (f"profiles.yaml:45:18: error: {DIRECTIVE}",),
        reg("        summary: Use less memory.", "        summary: '{/* docgen:end */}'"),
    ),
    Case(
        "label-with-inline-agentonly",
        BUILD,
        (f"profiles.yaml:30:12: error: {DIRECTIVE}",),
        reg("    label: Tiny 1B", "    label: Tiny </AgentOnly> 1B"),
    ),
    Case(
        "surrogate-escape",
        BUILD,
        (
            "profiles.yaml:30:12: error: registry text contains an unpaired UTF-16 surrogate "
            "(write the character itself instead of a \\ud83d-style escape)",
        ),
        reg("    label: Tiny 1B", '    label: "Tiny \\ud83d\\ude42"'),
    ),
]

CASES = REGISTRY_TYPES + REGISTRY_REFERENCES + REGISTRY_RANGES + REGISTRY_TEXT


@pytest.mark.parametrize("case", [param(c) for c in CASES])
def test_bad_input_is_a_located_error_and_changes_nothing(make_project, run, monkeypatch, case):
    check(case, make_project, run, monkeypatch)
