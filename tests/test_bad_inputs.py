"""The bad-input corpus: every input a user can get wrong gives an exact located error.

One table, one row per case. Each case builds a small project, runs one docgen
command, and asserts the exit code (2 for an input to fix, 1 for drift or a broken
changelog history), the exact message lines (gcc style, ``path:line:col: error: ...``),
that no traceback escaped, and that the project tree is byte-for-byte unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from conftest import MINIMAL_REGISTRY, Project

from docgen.render import environment as render

ID_RULE = (
    "ids use lowercase letters, digits, '.', '_' and '-', start with a letter or digit, "
    "and contain no '..'"
)
DIRECTIVE = (
    "registry text may not contain an <AgentOnly> tag or a docgen region marker: "
    "generated pages would read it as a directive"
)
OLD = MINIMAL_REGISTRY.replace("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.4")
ENTRY = """\
{/*
 * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.
 * SPDX-License-Identifier: Apache-2.0
 */}

## v1.0.0

Acme v1.0.0 updates the managed vLLM serving profiles for Big Box.

- The Big Box `acme/Tiny-1B` profile now uses `--gpu-memory-utilization 0.5` instead of \
`--gpu-memory-utilization 0.4`.
  For more information, refer to [models](/guide/alpha/models).
"""
CHANGELOG = ("changelog", "--since-file", "old.yaml", "--date", "2026-01-03")


def reg(old: str, new: str) -> str:
    """The minimal registry with one edit."""
    assert old in MINIMAL_REGISTRY, old
    return MINIMAL_REGISTRY.replace(old, new, 1)


def arg(line: str) -> str:
    """The minimal registry with ``max-num-seqs: 2`` (line 41) replaced by ``line``."""
    return reg("      max-num-seqs: 2\n", f"      {line}\n")


def entry(old: str = "", new: str = "", tail: str = "") -> dict[str, str]:
    """Files for a released project whose entry ``changelog/2026-01-02.mdx`` is edited."""
    assert old in ENTRY, old
    return {"old.yaml": OLD, "changelog/2026-01-02.mdx": ENTRY.replace(old, new, 1) + tail}


def page(body: str, frontmatter: str = "") -> dict[str, str]:
    """A hand-written shared page ``docs/guide.mdx`` (it uses the CLI token)."""
    head = f"---\ntitle: Guide\n{frontmatter}---\n\n"
    return {"docs/guide.mdx": f"{head}Run `$$acme onboard`.\n\n{body}"}


def template(text: str) -> dict[str, str]:
    return {"models.mdx.j2": text}


@dataclass(frozen=True)
class Case:
    """One bad input: what to run, and exactly what docgen must say."""

    id: str
    args: tuple[str, ...]
    expected: tuple[str, ...]
    registry: str | bytes = MINIMAL_REGISTRY
    templates: dict[str, str] | None = None
    files: dict[str, str | bytes] = field(default_factory=dict)
    code: int = 2
    #: Run ``docgen build`` before the snapshot (the case is about a built project).
    built: bool = False
    #: Template render deadline for this case, in seconds.
    deadline: float | None = None
    #: A click usage error: ``expected`` is the last line, after click's usage text.
    usage: bool = False
    #: A known bug in docgen: the case is expected to fail until it is fixed.
    bug: str = ""

    def make(self, make_project: Callable[..., Project]) -> Project:
        text = {k: v for k, v in self.files.items() if isinstance(v, str)}
        raw = {k: v for k, v in self.files.items() if isinstance(v, bytes)}
        if isinstance(self.registry, bytes):
            raw["profiles.yaml"] = self.registry
        registry = self.registry if isinstance(self.registry, str) else None
        project = make_project(registry=registry, templates=self.templates, files=text)
        for name, data in raw.items():
            (project.root / name).parent.mkdir(parents=True, exist_ok=True)
            (project.root / name).write_bytes(data)
        return project


BUILD = ("build",)
CHECK = ("check",)

REGISTRY_SYNTAX = [
    Case(
        "yaml-unclosed-flow-list",
        BUILD,
        ("profiles.yaml:21:1: error: expected ',' or ']', but got '<scalar>'",),
        reg("hosts:\n", "hosts: [\n"),
    ),
    Case(
        "yaml-duplicate-flag",
        BUILD,
        ("profiles.yaml:42:7: error: duplicate key 'max-num-seqs' (first defined on line 41)",),
        arg("max-num-seqs: 2\n      max-num-seqs: 4"),
    ),
    Case(
        "yaml-tab-indentation",
        BUILD,
        ("profiles.yaml:30:1: error: tab characters are not allowed for indentation; use spaces",),
        reg("    label: Tiny 1B", "\tlabel: Tiny 1B"),
    ),
    Case(
        "yaml-mapping-value-in-scalar",
        BUILD,
        ("profiles.yaml:30:16: error: mapping values are not allowed here",),
        reg("    label: Tiny 1B", "    label: Tiny: 1B"),
    ),
    Case(
        "yaml-unclosed-quote",
        BUILD,
        ("profiles.yaml:50:1: error: found unexpected end of stream",),
        reg("    label: Tiny 1B", '    label: "Tiny 1B'),
    ),
    Case(
        "yaml-undefined-alias",
        BUILD,
        ("profiles.yaml:31:12: error: found undefined alias 'nowhere'",),
        reg("    notes: Box default.", "    notes: *nowhere"),
    ),
    Case(
        "yaml-recursive-alias",
        BUILD,
        ("profiles.yaml:19:8: error: hosts.box must be a mapping, got null",),
        reg("hosts:\n  box: {name: Big Box, arch: amd64}", "hosts: &h\n  box: *h"),
    ),
    Case(
        "yaml-invalid-utf8",
        BUILD,
        ("profiles.yaml:20:19: error: invalid UTF-8 byte 0xff",),
        MINIMAL_REGISTRY.encode().replace(b"Big Box", b"Big \xff Box"),
    ),
    Case(
        "yaml-empty",
        BUILD,
        ("profiles.yaml:1:1: error: the file is empty; expected a mapping",),
        "",
    ),
    Case(
        "yaml-top-level-list",
        BUILD,
        ("profiles.yaml:1:1: error: the registry must be a mapping of sections",),
        "- schema\n- product\n",
    ),
]

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
        "gated-not-boolean",
        BUILD,
        ("profiles.yaml:31:12: error: models.tiny.gated must be true or false, got 'maybe'",),
        reg("    notes: Box", "    gated: maybe\n    notes: Box"),
    ),
    Case(
        "model-revision",
        BUILD,
        ("profiles.yaml:31:15: error: models.tiny.revision 'main' is malformed",),
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
        ("profiles.yaml:14:10: error: agents.[0].cli 'acme cli' is malformed",),
        reg("    cli: acme\n", "    cli: acme cli\n"),
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

VLLM_FLAGS = [
    Case(
        "unknown-flag",
        BUILD,
        (
            "profiles.yaml:41:7: error: unknown vLLM flag '--max-num-seq'; did you mean "
            "'--max-num-seqs', '--max-num-active-seqs' or '--max-num-queued-reqs'?",
        ),
        arg("max-num-seq: 2"),
    ),
    Case(
        "alias-flag",
        BUILD,
        ("profiles.yaml:41:7: error: write '--tp' by its full name, '--tensor-parallel-size'",),
        arg("tp: 2"),
    ),
    Case(
        "tensor-parallel-zero",
        BUILD,
        ("profiles.yaml:41:29: error: '--tensor-parallel-size' must be a positive integer, got 0",),
        arg("tensor-parallel-size: 0"),
    ),
    Case(
        "flag-with-dashes",
        BUILD,
        (
            "profiles.yaml:41:7: error: invalid id '--max-num-seqs' in "
            "profiles.vllm.box.tiny.args: names must match ^[a-z0-9][a-z0-9_.-]*$",
            "profiles.yaml:41:7: error: unknown vLLM flag '----max-num-seqs'; did you mean "
            "'--max-num-seqs', '--max-num-active-seqs' or '--max-num-queued-reqs'?",
        ),
        arg("--max-num-seqs: 2"),
    ),
    Case(
        "integer-flag-text",
        BUILD,
        ("profiles.yaml:41:21: error: '--max-num-seqs' expects an integer, got 'two'",),
        arg("max-num-seqs: two"),
    ),
    Case(
        "choice-outside-list",
        BUILD,
        (
            "profiles.yaml:41:23: error: invalid value 'fp9' for '--kv-cache-dtype'; did you mean "
            "'fp8'?",
        ),
        arg("kv-cache-dtype: fp9"),
    ),
    Case(
        "false-without-no-form",
        BUILD,
        (
            "profiles.yaml:41:26: error: '--disable-log-stats' has no --no- form in vLLM; remove "
            "the flag instead of setting it to false",
        ),
        arg("disable-log-stats: false"),
    ),
    Case(
        "on-off-flag-given-text",
        BUILD,
        (
            "profiles.yaml:42:30: error: '--enable-prefix-caching' is an on/off flag: use true or "
            "false, got 'sure'",
        ),
        reg("enable-prefix-caching: true", "enable-prefix-caching: sure"),
    ),
    Case(
        "broken-json-flag",
        BUILD,
        (
            "profiles.yaml:41:27: error: '--speculative-config' expects JSON: Expecting value: "
            "line 1 column 12 (char 11)",
        ),
        arg("speculative-config: '{\"method\": mtp}'"),
    ),
    Case(
        "unknown-json-key",
        BUILD,
        (
            "profiles.yaml:41:27: error: unknown key 'cudagraph_mod' in '--compilation-config'; "
            "did you mean 'cudagraph_mode', 'cudagraph_mm_encoder' or 'cudagraph_num_of_warmups'?",
        ),
        arg("compilation-config: {cudagraph_mod: FULL}"),
    ),
    Case(
        "override-unknown-flag",
        BUILD,
        ("profiles.yaml:47:11: error: unknown vLLM flag '--gpu-mem'",),
        reg("          gpu-memory-utilization: 0.3", "          gpu-mem: 0.3"),
    ),
    Case(
        "extra-values-unknown-flag",
        BUILD,
        (
            "profiles.yaml:52:5: error: extra_values names unknown vLLM flag '--kv-cache-dtyp'; "
            "did you mean '--kv-cache-dtype', '--mamba-cache-dtype' or '--kv-cache-metrics'?",
        ),
        MINIMAL_REGISTRY + "vllm:\n  extra_values:\n    kv-cache-dtyp: [fp9]\n",
    ),
]

EXPECTATIONS = [
    Case(
        "expect-absent-but-set",
        BUILD,
        (
            "profiles.yaml:41:7: error: profile 'vllm.box.tiny' expects '--max-num-seqs' to be "
            "absent, but its args set it",
        ),
        reg("    overrides:", "    expect:\n      absent: [max-num-seqs]\n    overrides:"),
    ),
    Case(
        "expect-present-differs",
        BUILD,
        (
            "profiles.yaml:41:21: error: profile 'vllm.box.tiny' expects '--max-num-seqs' to be "
            "4, but its args set 2",
        ),
        reg("    overrides:", "    expect:\n      present: {max-num-seqs: 4}\n    overrides:"),
    ),
    Case(
        "expect-present-unset",
        BUILD,
        (
            "profiles.yaml:44:32: error: profile 'vllm.box.tiny' expects '--enforce-eager', but "
            "its args do not set it",
        ),
        reg("    overrides:", "    expect:\n      present: {enforce-eager: true}\n    overrides:"),
    ),
    Case(
        "expect-unknown-flag",
        BUILD,
        (
            "profiles.yaml:44:16: error: unknown vLLM flag '--spec-config'; did you mean "
            "'--speculative-config', '--pooler-config' or '--eplb-config'?",
        ),
        reg("    overrides:", "    expect:\n      absent: [spec-config]\n    overrides:"),
    ),
    Case(
        "expect-unknown-rule",
        BUILD,
        ("profiles.yaml:44:7: error: unknown key 'missing' in profiles.vllm.box.tiny.expect",),
        reg("    overrides:", "    expect:\n      missing: [max-num-seqs]\n    overrides:"),
    ),
]

IDS = [
    Case(
        "id-with-slash",
        BUILD,
        (f"profiles.yaml:33:3: error: invalid id 'vllm/box/tiny' in profiles: {ID_RULE}",),
        reg("  vllm.box.tiny:", "  vllm/box/tiny:"),
    ),
    Case(
        "id-with-dotdot",
        BUILD,
        (f"profiles.yaml:33:3: error: invalid id '../../etc' in profiles: {ID_RULE}",),
        reg("  vllm.box.tiny:", "  ../../etc:"),
    ),
    Case(
        "id-absolute-path",
        BUILD,
        (f"profiles.yaml:33:3: error: invalid id '/tmp/evil' in profiles: {ID_RULE}",),
        reg("  vllm.box.tiny:", "  /tmp/evil:"),
    ),
    Case(
        "id-uppercase-space",
        BUILD,
        (f"profiles.yaml:33:3: error: invalid id 'Vllm Box' in profiles: {ID_RULE}",),
        reg("  vllm.box.tiny:", "  Vllm Box:"),
    ),
    Case(
        "model-slug-with-slash",
        BUILD,
        (
            f"profiles.yaml:28:3: error: invalid id 'acme/tiny' in models: {ID_RULE}",
            f"profiles.yaml:34:12: error: profiles.vllm.box.tiny.model 'acme/tiny' is malformed: "
            f"{ID_RULE}",
        ),
        reg("  tiny:\n", "  acme/tiny:\n").replace("model: tiny", "model: acme/tiny"),
    ),
    Case(
        "override-id-with-slash",
        BUILD,
        (
            "profiles.yaml:44:7: error: invalid id '../small' in "
            f"profiles.vllm.box.tiny.overrides: {ID_RULE}",
        ),
        reg("      small:", "      ../small:"),
    ),
    Case(
        "host-id-too-long",
        BUILD,
        (
            f"profiles.yaml:20:3: error: hosts: '{'b' * 201}' is too long",
            "profiles.yaml:35:11: error: profile 'vllm.box.tiny' names unknown host 'box'",
        ),
        reg("  box: {", "  " + "b" * 201 + ": {"),
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

TEMPLATES = [
    Case(
        "template-unclosed-if",
        BUILD,
        (
            "templates/models.mdx.j2:6: error: template syntax: Unexpected end of template. Jinja "
            "was looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block "
            "that needs to be closed is 'if'.",
        ),
        templates=template("---\ntitle: x\n---\n\n{% if true %}\nhello\n"),
    ),
    Case(
        "template-undefined-name",
        BUILD,
        ("templates/models.mdx.j2:6: error: template failed: 'nope' is undefined",),
        templates=template("---\ntitle: x\n---\n\nText.\n{{ nope }}\n"),
    ),
    Case(
        "template-undefined-attribute",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: "
            "'docgen.registry.model.Product object' has no attribute 'nmae'",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ product.nmae }}\n"),
    ),
    Case(
        "template-unknown-filter",
        BUILD,
        ("templates/models.mdx.j2:5: error: template syntax: No filter named 'shout'.",),
        templates=template("---\ntitle: x\n---\n\n{{ product.name | shout }}\n"),
    ),
    Case(
        "template-missing-include",
        BUILD,
        ("templates/models.mdx.j2:5: error: template not found: _nope.mdx.j2",),
        templates=template("---\ntitle: x\n---\n\n{% include '_nope.mdx.j2' %}\n"),
    ),
    Case(
        "template-empty-page",
        BUILD,
        ("templates/models.mdx.j2:1: error: template rendered an empty page",),
        templates=template("{# nothing #}\n"),
    ),
    Case(
        "template-fence-in-code",
        BUILD,
        (
            "templates/models.mdx.j2:6: error: template failed: a code fence inside generated "
            "code; use code_block instead",
        ),
        templates=template("---\ntitle: x\n---\n\n```\n{{ '```' | in_code }}\n```\n"),
    ),
    Case(
        "template-unknown-override",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: profile 'vllm.box.tiny' has no "
            "override 'huge'",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ override_command(profiles[0], 'huge') }}\n"),
    ),
    Case(
        "template-profile-page-error",
        BUILD,
        (
            "templates/profiles/[profile].mdx.j2:5: error: template failed: "
            "'docgen.registry.model.Profile object' has no attribute 'nope'",
        ),
        templates={"profiles/[profile].mdx.j2": "---\ntitle: x\n---\n\n{{ profile.nope }}\n"},
    ),
    Case(
        "template-endless-loop",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template rendering took longer than 0.5 s (an "
            "endless loop?)",
        ),
        templates=template("---\ntitle: x\n---\n\n{% for i in range(10**12) %}{% endfor %}\n"),
        deadline=0.5,
    ),
    Case(
        "template-float-overflow",
        BUILD,
        (
            "templates/models.mdx.j2:5: error: template failed: "
            "(34, 'Numerical result out of range')",
        ),
        templates=template("---\ntitle: x\n---\n\n{{ 2.0 ** 5000 }}\n"),
    ),
]

PAGES = [
    Case(
        "agentonly-nested",
        BUILD,
        (
            "docs/guide.mdx:8: error: nested <AgentOnly> block (the block opened on line 7 is "
            "still open)",
            "docs/guide.mdx:11: error: stray </AgentOnly> without an opening tag",
        ),
        files=page(
            '<AgentOnly variant="alpha">\n<AgentOnly variant="beta">\nx\n'
            "</AgentOnly>\n</AgentOnly>\n"
        ),
    ),
    Case(
        "agentonly-unclosed",
        BUILD,
        ("docs/guide.mdx:7: error: unclosed <AgentOnly> block: add </AgentOnly> on its own line",),
        files=page('<AgentOnly variant="alpha">\nx\n'),
    ),
    Case(
        "agentonly-stray-close",
        BUILD,
        ("docs/guide.mdx:8: error: stray </AgentOnly> without an opening tag",),
        files=page("x\n</AgentOnly>\n"),
    ),
    Case(
        "agentonly-inline",
        BUILD,
        (
            "docs/guide.mdx:7: error: inline <AgentOnly> tag: put each opening and closing tag "
            "alone on its own line",
        ),
        files=page('Only <AgentOnly variant="alpha">this</AgentOnly>.\n'),
    ),
    Case(
        "agentonly-unknown-agent",
        BUILD,
        ("docs/guide.mdx:7: error: unknown agent 'alhpa' in <AgentOnly>; did you mean 'alpha'?",),
        files=page('<AgentOnly variant="alhpa">\nx\n</AgentOnly>\n'),
    ),
    Case(
        "agentonly-no-agent",
        BUILD,
        ("docs/guide.mdx:7: error: <AgentOnly> names no agent",),
        files=page('<AgentOnly variant="">\nx\n</AgentOnly>\n'),
    ),
    Case(
        "agentonly-empty-heading",
        BUILD,
        (
            "docs/guide.mdx:7: error: heading 'Beta only' has no content in the alpha variant: "
            "move the heading into the <AgentOnly> block that holds its body",
        ),
        files=page('## Beta only\n\n<AgentOnly variant="beta">\nx\n</AgentOnly>\n'),
    ),
    Case(
        "token-on-single-agent-page",
        BUILD,
        (
            "docs/guide.mdx:6: error: '$$acme' on a page published only for 'alpha': write the "
            "CLI name literally or publish the page for more agents",
        ),
        files=page("x\n", 'agent-variants: ["alpha"]\n'),
    ),
    Case(
        "agent-variants-not-flow-list",
        BUILD,
        (
            'docs/guide.mdx:3: error: agent-variants must be a flow list like ["openclaw", '
            '"hermes"]',
        ),
        files=page("x\n", "agent-variants: alpha\n"),
    ),
    Case(
        "agent-variants-unknown-agent",
        BUILD,
        ("docs/guide.mdx:3: error: agent-variants names unknown agent 'gamma'",),
        files=page("x\n", 'agent-variants: ["alpha", "gamma"]\n'),
    ),
    Case(
        "runtime-component",
        BUILD,
        (
            "docs/guide.mdx:7: error: runtime component <AgentCli> is not resolved in variants: "
            "write the CLI token or literal text instead",
        ),
        files=page("Run <AgentCli /> now.\n"),
    ),
    Case(
        "region-unknown",
        BUILD,
        ("docs/ref.mdx:3: error: unknown region 'model-table'; did you mean 'models-table'?",),
        files={"docs/ref.mdx": "# Ref\n\n{/* docgen:begin model-table */}\n{/* docgen:end */}\n"},
    ),
    Case(
        "region-unclosed",
        BUILD,
        ("docs/ref.mdx:3: error: region 'models-table' is never closed: add {/* docgen:end */}",),
        files={"docs/ref.mdx": "# Ref\n\n{/* docgen:begin models-table */}\n"},
    ),
    Case(
        "region-end-without-begin",
        BUILD,
        ("docs/ref.mdx:3: error: docgen:end without a docgen:begin",),
        files={"docs/ref.mdx": "# Ref\n\n{/* docgen:end */}\n"},
    ),
    Case(
        "region-malformed-marker",
        BUILD,
        (
            "docs/ref.mdx:3: error: malformed docgen marker: write {/* docgen:begin NAME */} or "
            "{/* docgen:end */} alone on a line",
        ),
        files={"docs/ref.mdx": "# Ref\n\nSee {/* docgen:begin models-table */}\n"},
    ),
    Case(
        "region-nested",
        BUILD,
        (
            "docs/ref.mdx:2: error: docgen:begin inside region 'models-table' (opened on line 1); "
            "close it first",
        ),
        files={
            "docs/ref.mdx": "{/* docgen:begin models-table */}\n"
            "{/* docgen:begin host-defaults */}\n{/* docgen:end */}\n"
        },
    ),
    Case(
        "region-unknown-profile",
        BUILD,
        (
            "docs/ref.mdx:1: error: unknown profile 'vllm.box.tin' in region 'serve-command'; did "
            "you mean 'vllm.box.tiny'?",
        ),
        files={
            "docs/ref.mdx": "{/* docgen:begin serve-command vllm.box.tin */}\n{/* docgen:end */}\n"
        },
    ),
    Case(
        "region-unexpected-argument",
        BUILD,
        ("docs/ref.mdx:1: error: region 'models-table' takes no arguments",),
        files={"docs/ref.mdx": "{/* docgen:begin models-table wide */}\n{/* docgen:end */}\n"},
    ),
    Case(
        "hand-written-at-generated-path",
        BUILD,
        (
            "docs/models.mdx:1:1: error: refusing to overwrite docs/models.mdx: it has no docgen "
            "notice, so it was written by hand (move it away or delete it to let docgen generate "
            "it from templates/models.mdx.j2)",
        ),
        files={"docs/models.mdx": "# Mine\n"},
    ),
    Case(
        "page-invalid-utf8",
        BUILD,
        ("docs/bad.mdx:1: error: invalid UTF-8 in page",),
        files={"docs/bad.mdx": b"# Caf\xe9\n\nOK\n"},
    ),
]

CHANGELOG_ARGS = [
    Case(
        "changelog-malformed-version",
        (*CHANGELOG, "--version", "1.0.1"),
        ("--version: error: malformed version '1.0.1'; expected vX.Y.Z, e.g. v0.0.102",),
        files={"old.yaml": OLD},
    ),
    Case(
        "changelog-impossible-date",
        (*CHANGELOG, "--version", "v1.0.1", "--date", "2026-02-30"),
        ("--date: error: malformed date '2026-02-30'; expected a real date as YYYY-MM-DD",),
        files={"old.yaml": OLD},
    ),
    Case(
        "changelog-duplicate-version",
        (*CHANGELOG, "--version", "v1.0.0"),
        (
            "changelog/2026-01-02.mdx: error: version v1.0.0 is already released here; entries "
            "are history and are never rewritten",
        ),
        files=entry(),
        built=True,
    ),
    Case(
        "changelog-nothing-to-release",
        (
            "changelog",
            "--since-file",
            "profiles.yaml",
            "--date",
            "2026-01-03",
            "--version",
            "v1.0.1",
        ),
        (
            "profiles.yaml: error: nothing to release: the registry has no semantic change since "
            "that state and changelog.d/ holds no notes",
        ),
    ),
    Case(
        "changelog-no-base",
        ("changelog", "--version", "v1.0.1", "--date", "2026-01-03"),
        ("docgen: error: give exactly one of --since REF and --since-file FILE",),
    ),
    Case(
        "changelog-missing-base-file",
        ("changelog", "--since-file", "gone.yaml", "--version", "v1.0.1", "--date", "2026-01-03"),
        ("gone.yaml: error: cannot read registry: No such file or directory",),
    ),
    Case(
        "changelog-broken-base-file",
        (*CHANGELOG, "--version", "v1.0.1"),
        ("old.yaml:21:1: error: expected ',' or ']', but got '<scalar>'",),
        files={"old.yaml": OLD.replace("hosts:\n", "hosts: [\n")},
    ),
]

HISTORY = [
    Case(
        "history-spdx-header",
        CHECK,
        (
            "changelog/2026-01-02.mdx:1: error: the entry must start with the exact SPDX header:",
            "{/*",
            " * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.",
            " * SPDX-License-Identifier: Apache-2.0",
            " */}",
        ),
        files=entry("Apache-2.0", "MIT"),
        code=1,
        built=True,
    ),
    Case(
        "history-html-comment",
        CHECK,
        (
            "changelog/2026-01-02.mdx:12: error: HTML comments are not allowed in changelog "
            "entries; use {/* ... */}",
        ),
        files=entry(tail="<!-- note -->\n"),
        code=1,
        built=True,
    ),
    Case(
        "history-cli-token",
        CHECK,
        (
            "changelog/2026-01-02.mdx:12: error: the CLI token '$$acme' is not replaced in "
            "changelog entries; write the CLI name literally",
        ),
        files=entry(tail="Run `$$acme onboard`.\n"),
        code=1,
        built=True,
    ),
    Case(
        "history-agentonly",
        CHECK,
        ("changelog/2026-01-02.mdx:12: error: <AgentOnly> is not resolved in changelog entries",),
        files=entry(tail='<AgentOnly variant="beta">\n'),
        code=1,
        built=True,
    ),
    Case(
        "history-relative-link",
        CHECK,
        (
            "changelog/2026-01-02.mdx:11: error: relative link '../models': changelog links must "
            "be root-absolute routes such as /user-guide/...",
        ),
        files=entry("(/guide/alpha/models)", "(../models)"),
        code=1,
        built=True,
    ),
    Case(
        "history-dead-link",
        CHECK,
        (
            "changelog/2026-01-02.mdx:11: error: link '/guide/alpha/nope' does not resolve to a "
            "page the project publishes",
        ),
        files=entry("(/guide/alpha/models)", "(/guide/alpha/nope)"),
        code=1,
        built=True,
    ),
    Case(
        "history-version-order",
        CHECK,
        (
            "changelog/2026-01-02.mdx:13: error: v1.0.1 comes after v1.0.0: list releases newest "
            "first",
        ),
        files=entry(tail="\n## v1.0.1\n\nAcme v1.0.1 adds things.\n"),
        code=1,
        built=True,
    ),
    Case(
        "history-duplicate-version",
        CHECK,
        (
            "changelog/2026-01-05.mdx:6: error: version v1.0.0 is already released in "
            "changelog/2026-01-02.mdx",
        ),
        files={**entry(), "changelog/2026-01-05.mdx": ENTRY},
        code=1,
        built=True,
    ),
    Case(
        "history-impossible-file-date",
        CHECK,
        (
            "changelog/2026-13-01.mdx:1: error: changelog file name '2026-13-01.mdx' is not a "
            "real date as YYYY-MM-DD.mdx",
        ),
        files={**entry(), "changelog/2026-13-01.mdx": ENTRY.replace("v1.0.0", "v0.9.0")},
        code=1,
        built=True,
    ),
]

SETTINGS = [
    Case(
        "root-missing",
        ("--root", "/nonexistent/docgen-root", "build"),
        ("/nonexistent/docgen-root: error: project root is not a directory",),
    ),
    Case(
        "init-over-a-project",
        ("init",),
        (
            "{root}/profiles.yaml: error: a project is already here; docgen init never overwrites "
            "files",
        ),
    ),
    Case(
        "config-invalid-toml",
        BUILD,
        ("docgen.toml:1:8: error: invalid TOML: Invalid value (at line 1, column 8)",),
        files={"docgen.toml": "docs = \n"},
    ),
    Case(
        "config-unknown-setting",
        BUILD,
        ("docgen.toml:1:1: error: unknown setting 'template'; did you mean 'templates'?",),
        files={"docgen.toml": 'template = "tpl"\n'},
    ),
    Case(
        "config-setting-not-string",
        BUILD,
        ("docgen.toml:1:1: error: setting 'docs' must be a string",),
        files={"docgen.toml": "docs = 1\n"},
    ),
    Case(
        "config-invalid-utf8",
        BUILD,
        ("docgen.toml:1:12: error: invalid UTF-8 byte 0xe9",),
        files={"docgen.toml": b'docs = "caf\xe9"\n'},
    ),
]

CLI_ARGS = [
    Case(
        "serve-command-unknown-profile",
        ("serve-command", "vllm.box.tin"),
        ("serve-command: error: unknown profile 'vllm.box.tin'; did you mean 'vllm.box.tiny'?",),
    ),
    Case(
        "serve-command-unknown-override",
        ("serve-command", "vllm.box.tiny", "--override", "smal"),
        (
            "--override: error: profile 'vllm.box.tiny' has no override 'smal'; did you mean "
            "'small'?",
        ),
    ),
    Case(
        "extra-args-not-json",
        ("serve-command", "vllm.box.tiny", "--extra-args-json", "[--max-num-seqs"),
        ("--extra-args-json: error: not valid JSON: Expecting value at column 2",),
    ),
    Case(
        "extra-args-not-strings",
        ("serve-command", "vllm.box.tiny", "--extra-args-json", "[1, 2]"),
        ("--extra-args-json: error: must be a JSON array of vLLM serve argument strings",),
    ),
    Case(
        "extra-args-unknown-flag",
        ("serve-command", "vllm.box.tiny", "--extra-args-json", '["--max-num-seq", "4"]'),
        (
            "--extra-args-json: error: token 1 ('--max-num-seq'): unknown option '--max-num-seq'; "
            "did you mean '--max-num-seqs', '--max-num-active-seqs' or '--max-num-queued-reqs'?",
        ),
    ),
    Case(
        "extra-args-control-character",
        ("serve-command", "vllm.box.tiny", "--extra-args-json", '["--max-num\\u0007-seqs", "4"]'),
        ("--extra-args-json: error: token 1 contains a control character",),
    ),
    Case(
        "extra-args-bad-value",
        ("serve-command", "vllm.box.tiny", "--extra-args-json", '["--max-num-seqs", "many"]'),
        (
            "--extra-args-json: error: token 2 ('many'): '--max-num-seqs' expects an integer, got "
            "'many'",
        ),
    ),
    Case(
        "changelog-missing-version",
        ("changelog", "--since-file", "old.yaml"),
        ("Error: Missing option '--version'.",),
        files={"old.yaml": OLD},
        usage=True,
    ),
    Case(
        "diff-without-since",
        ("diff",),
        ("docgen: error: give exactly one of --since REF and --since-file FILE",),
    ),
    Case(
        "diff-both-bases",
        ("diff", "--since", "HEAD", "--since-file", "old.yaml"),
        ("docgen: error: give exactly one of --since REF and --since-file FILE",),
        files={"old.yaml": OLD},
    ),
    Case(
        "check-unknown-format",
        ("check", "--format", "xml"),
        ("Error: Invalid value for '--format': 'xml' is not one of 'text', 'json', 'github'.",),
        usage=True,
    ),
    Case(
        "registry-missing",
        ("--registry", "nope.yaml", "validate"),
        ("nope.yaml: error: registry file not found",),
    ),
    Case(
        "release-notes-unknown-version",
        ("release-notes", "v9.9.9"),
        ("release-notes: error: no release v9.9.9 in changelog/ (known: v1.0.0)",),
        files=entry(),
        built=True,
    ),
]

CASES = (
    REGISTRY_SYNTAX
    + REGISTRY_TYPES
    + REGISTRY_REFERENCES
    + REGISTRY_RANGES
    + VLLM_FLAGS
    + EXPECTATIONS
    + IDS
    + REGISTRY_TEXT
    + TEMPLATES
    + PAGES
    + CHANGELOG_ARGS
    + HISTORY
    + SETTINGS
    + CLI_ARGS
)


def test_corpus_is_broad_and_ids_are_unique():
    assert len(CASES) >= 60
    assert len({c.id for c in CASES}) == len(CASES)


def param(case: Case) -> object:
    marks = [pytest.mark.xfail(strict=True, reason=case.bug)] if case.bug else []
    return pytest.param(case, id=case.id, marks=marks)


@pytest.mark.parametrize("case", [param(c) for c in CASES])
def test_bad_input_is_a_located_error_and_changes_nothing(make_project, run, monkeypatch, case):
    project = case.make(make_project)
    if case.built:
        assert run(project, "build").exit_code == 0
    if case.deadline is not None:
        monkeypatch.setattr(render, "RENDER_SECONDS", case.deadline)
    before = project.snapshot()
    result = run(project, *case.args)
    assert result.exit_code == case.code, result.output
    shown = (result.stderr if case.code == 2 else result.stdout).splitlines()
    assert (result.stdout if case.code == 2 else result.stderr) == ""
    if case.usage:
        assert shown[0].startswith("Usage: ")
        shown = shown[-len(case.expected) :]
    expected = tuple(line.replace("{root}", str(project.root)) for line in case.expected)
    assert tuple(shown) == expected
    assert "Traceback" not in result.output
    assert project.snapshot() == before
