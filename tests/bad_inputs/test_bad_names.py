"""Name-like registry fields (ids, environment variable names, the CLI, model names,
image references, the onboard command) that hold a control character or shell syntax:
each is a located error, printed on one line, and changes nothing.

A trailing newline once passed every pattern (Python's ``$`` matches before a final
newline), so ``docgen serve-command P | bash`` ran a second command and a profile id
named a file with a newline in it.
"""

from __future__ import annotations

import pytest
from bad_input_cases import BUILD, ID_RULE, Case, check, param, reg
from conftest import MINIMAL_REGISTRY

ENV_RULE = "names must match ^[A-Za-z_][A-Za-z0-9_]*$"
NEWLINE = "it holds a control character (U+000A)"
PLAIN = "one line of text without control characters"
CLI_TOKEN = (
    "a placeholder for the agent's CLI in shared pages, such as $$nemoclaw: after any run of "
    "$, % or @, a letter, then letters, digits, dots, dashes and underscores, ending in a "
    "letter or digit (nothing MDX gives a meaning: the CLI put in its place never makes "
    "markup of escaped text)"
)
FLAG = "names must match ^[a-z0-9][a-z0-9_.-]*$"
ONBOARD = (
    "words of letters, digits and _ @ % + = : , . / - separated by single spaces "
    "(no quotes or other shell syntax)"
)


def product(line: str) -> str:
    """The minimal registry with ``line`` added to the product section."""
    return reg("  model_env: ACME_MODEL\n", f"  model_env: ACME_MODEL\n{line}\n")


NAMES = [
    Case(
        "profile-env-name-newline",
        BUILD,
        (
            "profiles.yaml:38:11: error: invalid id 'reboot\\n' in profiles.vllm.box.tiny.env: "
            f"{NEWLINE}; {ENV_RULE}",
        ),
        reg("    image: img\n", '    image: img\n    env: {"reboot\\n": "1"}\n'),
    ),
    Case(
        ("serve-command-env-name-newline"),
        ("serve-command", "vllm.box.tiny"),
        (
            "profiles.yaml:38:11: error: invalid id 'reboot\\n' in profiles.vllm.box.tiny.env: "
            f"{NEWLINE}; {ENV_RULE}",
        ),
        reg("    image: img\n", '    image: img\n    env: {"reboot\\n": "1"}\n'),
    ),
    Case(
        "model-env-newline",
        BUILD,
        ("profiles.yaml:5:14: error: product.model_env 'reboot\\n' is malformed: " + NEWLINE,),
        reg("  model_env: ACME_MODEL", '  model_env: "reboot\\n"'),
    ),
    Case(
        "extra-args-env-newline",
        BUILD,
        ("profiles.yaml:6:19: error: product.extra_args_env 'reboot\\n' is malformed: " + NEWLINE,),
        reg("  extra_args_env: ACME_EXTRA_ARGS_JSON", '  extra_args_env: "reboot\\n"'),
    ),
    Case(
        "provider-env-name-newline",
        BUILD,
        (
            "profiles.yaml:6:18: error: invalid id 'ACME_PROVIDER\\n' in product.provider_env: "
            f"{NEWLINE}; {ENV_RULE}",
        ),
        product('  provider_env: {"ACME_PROVIDER\\n": install-vllm}'),
    ),
    Case(
        "agent-env-name-carriage-return",
        BUILD,
        (
            "profiles.yaml:16:11: error: invalid id 'ACME_AGENT\\r' in agents.[0].env: it holds "
            f"a control character (U+000D); {ENV_RULE}",
        ),
        reg("    default: true\n", '    default: true\n    env: {"ACME_AGENT\\r": alpha}\n'),
    ),
    Case(
        "agent-cli-newline",
        BUILD,
        (
            "profiles.yaml:14:10: error: agents.[0].cli 'reboot\\n' is malformed: "
            f"{NEWLINE}; an agent's command holds letters, digits, dots, dashes and "
            "underscores, and starts and ends with a letter or digit (a page shows it in the "
            "CLI token's place, where an underscore at an end would make emphasis)",
        ),
        reg("    cli: acme\n", '    cli: "reboot\\n"\n'),
    ),
    Case(
        "profile-id-newline",
        BUILD,
        (
            "profiles.yaml:33:3: error: invalid id 'vllm.box.tiny\\n' in profiles: "
            f"{NEWLINE}; {ID_RULE}",
        ),
        reg("  vllm.box.tiny:", '  "vllm.box.tiny\\n":'),
    ),
    Case(
        "host-id-newline",
        BUILD,
        (
            f"profiles.yaml:20:3: error: invalid id 'box\\n' in hosts: {NEWLINE}; {ID_RULE}",
            "profiles.yaml:35:11: error: profile 'vllm.box.tiny' names unknown host 'box'; did "
            "you mean 'box\\n'?",
        ),
        reg("  box: {", '  "box\\n": {'),
    ),
    Case(
        "profile-host-reference-newline",
        BUILD,
        (
            "profiles.yaml:35:11: error: profile 'vllm.box.tiny' names unknown host 'box\\n'; "
            "did you mean 'box'?",
            "profiles.yaml:35:11: error: profiles.vllm.box.tiny.host 'box\\n' is malformed: "
            f"{NEWLINE}; {ID_RULE}",
        ),
        reg("    host: box\n", '    host: "box\\n"\n'),
    ),
    Case(
        "model-id-newline",
        BUILD,
        (
            f"profiles.yaml:28:3: error: invalid id 'tiny\\n' in models: {NEWLINE}; {ID_RULE}",
            "profiles.yaml:34:12: error: profile 'vllm.box.tiny' names unknown model 'tiny'; did "
            "you mean 'tiny\\n'?",
        ),
        reg("  tiny:\n", '  "tiny\\n":\n'),
    ),
    Case(
        "agent-id-newline",
        BUILD,
        (
            "profiles.yaml:16:9: error: agents.[1].id 'beta\\n' is malformed: "
            + NEWLINE
            + f"; {ID_RULE}",
        ),
        reg("  - id: beta\n", '  - id: "beta\\n"\n'),
    ),
    Case(
        "override-id-newline",
        BUILD,
        (
            "profiles.yaml:44:7: error: invalid id 'small\\n' in "
            f"profiles.vllm.box.tiny.overrides: {NEWLINE}; {ID_RULE}",
        ),
        reg("      small:", '      "small\\n":'),
    ),
    Case(
        "hf-newline",
        BUILD,
        ("profiles.yaml:29:9: error: models.tiny.hf 'acme/Tiny-1B\\n' is malformed: " + NEWLINE,),
        reg("    hf: acme/Tiny-1B", '    hf: "acme/Tiny-1B\\n"'),
    ),
    Case(
        "served-name-bell",
        BUILD,
        (
            "profiles.yaml:31:18: error: models.tiny.served_name 'tiny\\x07' is malformed: it "
            f"holds a control character (U+0007); {PLAIN}",
        ),
        reg("    label: Tiny 1B\n", '    label: Tiny 1B\n    served_name: "tiny\\a"\n'),
    ),
    Case(
        "served-name-right-to-left-override",
        BUILD,
        (
            "profiles.yaml:31:18: error: models.tiny.served_name 'tiny\\u202e' is malformed: it "
            f"holds a control character (U+202E); {PLAIN}",
        ),
        reg("    label: Tiny 1B\n", '    label: Tiny 1B\n    served_name: "tiny\\u202e"\n'),
    ),
    Case(
        "arg-value-right-to-left-override",
        BUILD,
        (
            "profiles.yaml:41:21: error: '--max-num-seqs' expects an integer, got '2\\u202e'",
            "profiles.yaml:41:21: error: profiles.vllm.box.tiny.args.max-num-seqs '2\\u202e' is "
            "malformed: it holds a control character (U+202E); command text holds no control "
            "characters but tab and newline",
        ),
        reg("      max-num-seqs: 2\n", '      max-num-seqs: "2\\u202e"\n'),
    ),
    Case(
        "registry-line-separator-in-a-comment",
        BUILD,
        (
            "profiles.yaml:11:15: error: U+2028 (LINE SEPARATOR), which YAML reads as a line "
            "break and editors do not: end lines with a newline, and write such a character in "
            "a double-quoted string as its escape",
        ),
        reg("agents:\n", "agents:  # one\u2028two\n"),
    ),
    Case(
        "registry-escape-character-in-plain-text",
        BUILD,
        (
            "profiles.yaml:13:17: error: YAML allows no character U+001B here (no control "
            "character but tab and line breaks): remove it, or write it as an escape in a "
            "double-quoted string",
        ),
        reg("    title: Acme for Alpha\n", "    title: Acme \x1b for Alpha\n"),
    ),
    Case(
        "image-ref-newline",
        BUILD,
        (
            "profiles.yaml:23:10: error: images.img.ref 'example.org/vllm:1.0\\n' is malformed: "
            + NEWLINE,
        ),
        reg("    ref: example.org/vllm:1.0", '    ref: "example.org/vllm:1.0\\n"'),
    ),
    Case(
        "cli-token-newline",
        BUILD,
        (
            "profiles.yaml:4:14: error: product.cli_token '$$acme\\n' is malformed: "
            f"{NEWLINE}; {CLI_TOKEN}",
        ),
        reg("  cli_token: $$acme", '  cli_token: "$$acme\\n"'),
    ),
    # A backslash in the token: the CLI put in its place took the escape off `\{`, and the
    # registry's `{alert(1)}` became an expression in every variant.
    Case(
        "cli-token-backslash",
        BUILD,
        ("profiles.yaml:4:14: error: product.cli_token '\\\\' is malformed: " + CLI_TOKEN,),
        reg("  cli_token: $$acme", '  cli_token: "\\\\"'),
    ),
    Case(
        "cli-token-space",
        BUILD,
        ("profiles.yaml:4:14: error: product.cli_token '$$a b' is malformed: " + CLI_TOKEN,),
        reg("  cli_token: $$acme", '  cli_token: "$$a b"'),
    ),
    Case(
        "docs-base-line-separator",
        BUILD,
        (
            "profiles.yaml:7:14: error: product.docs_base '/guide/{agent}\\u2028' is malformed: "
            "it holds a control character (U+2028); Root of published routes; may contain "
            "{agent}.",
        ),
        reg("  docs_base: /guide/{agent}", '  docs_base: "/guide/{agent}\\u2028"'),
    ),
    Case(
        "id-with-delete",
        BUILD,
        (
            "profiles.yaml:33:3: error: invalid id 'vllm.box.tiny\\x7f' in profiles: it holds a "
            f"control character (U+007F); {ID_RULE}",
        ),
        reg("  vllm.box.tiny:", '  "vllm.box.tiny\\x7f":'),
    ),
    Case(
        "id-with-next-line",
        BUILD,
        (
            "profiles.yaml:33:3: error: invalid id 'vllm.box.tiny\\x85' in profiles: it holds a "
            f"control character (U+0085); {ID_RULE}",
        ),
        reg("  vllm.box.tiny:", '  "vllm.box.tiny\\N":'),
    ),
    Case(
        "expect-absent-newline",
        BUILD,
        (
            "profiles.yaml:38:23: error: profiles.vllm.box.tiny.expect.absent.[0] "
            f"'quantization\\n' is malformed: {NEWLINE}",
            "profiles.yaml:38:23: error: unknown vLLM flag '--quantization\\n'; did you mean "
            "'--quantization'?",
        ),
        reg("    args:\n", '    expect: {absent: ["quantization\\n"]}\n    args:\n'),
    ),
    Case(
        "extra-values-flag-newline",
        BUILD,
        (
            "profiles.yaml:52:5: error: extra_values names unknown vLLM flag '--dtype\\n'; did you "
            "mean '--dtype'?",
            f"profiles.yaml:52:5: error: invalid id 'dtype\\n' in vllm.extra_values: {NEWLINE}; "
            f"{FLAG}",
        ),
        MINIMAL_REGISTRY + 'vllm:\n  extra_values:\n    "dtype\\n": [fp9]\n',
    ),
    Case(
        "onboard-second-command",
        BUILD,
        ("profiles.yaml:6:12: error: product.onboard 'onboard; reboot' is malformed: " + ONBOARD,),
        product("  onboard: onboard; reboot"),
    ),
    Case(
        "onboard-command-substitution",
        BUILD,
        (
            "profiles.yaml:6:12: error: product.onboard 'onboard $(reboot)' is malformed: "
            + ONBOARD,
        ),
        product("  onboard: onboard $(reboot)"),
    ),
    Case(
        "onboard-newline",
        BUILD,
        (
            "profiles.yaml:6:12: error: product.onboard 'onboard\\nreboot' is malformed: "
            f"{NEWLINE}; {ONBOARD}",
        ),
        product('  onboard: "onboard\\nreboot"'),
    ),
    Case(
        "serve-command-profile-argument-newline",
        ("serve-command", "vllm.box.tiny\nreboot"),
        (
            "serve-command: error: unknown profile 'vllm.box.tiny\\nreboot'; did you mean "
            "'vllm.box.tiny'?",
        ),
    ),
]

CASES = NAMES


@pytest.mark.parametrize("case", [param(c) for c in CASES])
def test_bad_input_is_a_located_error_and_changes_nothing(make_project, run, monkeypatch, case):
    check(case, make_project, run, monkeypatch)
