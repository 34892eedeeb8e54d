"""Registry decisions at their edges, each pinned because a mutation round found it
untested: what validates, what is refused and in which words, and what the typed model
holds."""

from __future__ import annotations

import pytest
from conftest import MINIMAL_REGISTRY

from docgen.errors import RegistryError
from docgen.registry.load import load_bytes
from docgen.registry.rules import Checker
from docgen.registry.serve import serve_command
from docgen.registry.source import load_text

ARGS = "    args:\n      max-model-len"
SHARED = "launcher:\n  shared_args:\n    max-num-seqs: 4\n    port: 8000\n"
AT_SHARED = (
    "p.yaml:42:7: error: '--max-num-seqs' is one of launcher.shared_args (line 53), which "
    "the command already sets; remove it here, or list it in profile 'vllm.box.tiny' "
    "launcher.omit_args to set it here instead"
)


def edited(*edits: tuple[str, str], text: str = MINIMAL_REGISTRY) -> str:
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def problems(text: str) -> list[str]:
    return [str(p) for p in Checker(load_text(text, "p.yaml")).run()]


def test_a_site_url_with_a_five_digit_port_is_accepted():
    url = "https://docs.example.com:12345"
    text = edited(
        ("  docs_base: /guide/{agent}\n", f"  docs_base: /guide/{{agent}}\n  site_url: {url}\n")
    )
    assert load_bytes(text.encode(), "p.yaml").product.site_url == url


def test_a_license_that_would_close_the_frontmatter_comment_is_refused():
    text = edited(("    license: Apache-2.0", '    license: "Apache-2.0 */"'))
    assert problems(text) == [
        "p.yaml:10:14: error: product.spdx.license holds '*/'; it is one line of plain text "
        "(no line breaks, control characters or '*/')"
    ]


def test_a_profile_arg_that_the_launcher_shares_is_one_error_whatever_expect_says():
    """The profile's own value is the one ``expect`` compares (no second error)."""
    guard = f"    expect: {{present: {{max-num-seqs: 2}}}}\n{ARGS}"
    assert problems(edited((ARGS, guard)) + SHARED) == [AT_SHARED]


def test_omitting_one_shared_arg_does_not_free_another():
    text = edited((ARGS, f"    launcher: {{omit_args: [port]}}\n{ARGS}")) + SHARED
    assert problems(text) == [AT_SHARED]


def test_a_profile_without_an_image_is_checked_against_its_hosts_images_vllm():
    text = edited(
        ("  box: {name: Big Box, arch: amd64}", "  box: {name: Big Box, arch: amd64, image: old}"),
        ("    image: img\n", ""),
        ("images:\n", "images:\n  old: {ref: example.org/vllm:0.9.2, vllm: 0.9.2}\n"),
        ("      max-num-seqs: 2\n", "      max-num-seqs: 2\n      async-scheduling: true\n"),
    )
    assert [p for p in problems(text) if "async-scheduling" in p] == [
        "p.yaml:42:7: error: '--async-scheduling' is not in vLLM 0.9.2 (image 'old'); among "
        "the sampled releases it exists in 0.10.0 through 0.34.0"
    ]


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (
            f"0x{10**100:x}",
            "p.yaml:39:22: error: integer longer than docgen's limit of 100 digits (written in "
            "decimal)",
        ),
        ('"None"', "p.yaml:41:21: error: '--max-num-seqs' expects an integer, got 'None'"),
    ],
    ids=["a-hundred-and-one-digits-in-hex", "None-for-a-flag-without-none"],
)
def test_integer_values_vllm_would_not_read_are_refused(value, said):
    text = edited(("max-num-seqs: 2", "max-num-seqs: 2"))
    if value.startswith("0x"):
        text = edited(("max-model-len: 32768", f"max-model-len: {value}"), text=text)
    else:
        text = edited(("max-num-seqs: 2", f"max-num-seqs: {value}"), text=text)
    with pytest.raises(RegistryError) as info:
        load_bytes(text.encode(), "p.yaml")
    assert str(info.value) == said


def test_a_json_flag_given_a_quoted_string_is_refused():
    text = edited(("max-num-seqs: 2", "speculative-config: '\"abc\"'"))
    with pytest.raises(RegistryError) as info:
        load_bytes(text.encode(), "p.yaml")
    assert str(info.value) == "p.yaml:41:27: error: '--speculative-config' expects a JSON object"


def test_a_lone_dash_is_a_value_not_an_option():
    text = edited(("max-num-seqs: 2", "served-model-name: '-'"))
    profile = load_bytes(text.encode(), "p.yaml").profiles["vllm.box.tiny"]
    assert "--served-model-name -" in serve_command(profile).shell()


def test_a_product_without_a_model_setting_uses_model():
    text = edited(("  model_env: ACME_MODEL\n", ""))
    assert load_bytes(text.encode(), "p.yaml").product.model_env == "MODEL"


def test_a_json_value_is_printed_with_javascripts_lowercase_escapes():
    """A control character inside a JSON flag's value is written as JSON escapes it."""
    text = edited(("max-num-seqs: 2", 'hf-overrides: {x: "a\\u202eb"}'))
    profile = load_bytes(text.encode(), "p.yaml").profiles["vllm.box.tiny"]
    assert '{"x":"a\\u202eb"}' in serve_command(profile).shell()


def test_a_host_entry_that_declares_no_capability_differs_from_one_that_says_nothing():
    """``min_compute_capability: null`` declares "none" (a diff tells it from an entry
    that leaves it unset)."""
    said = edited(
        (
            "    notes: Box default.",
            "    notes: Box default.\n    hosts: {box: {min_compute_capability: null}}",
        )
    )
    unsaid = edited(("    notes: Box default.", "    notes: Box default.\n    hosts: {box: {}}"))
    declared = load_bytes(said.encode(), "p.yaml").models["tiny"].hosts["box"]
    assert (declared.min_compute_capability, declared.declared) == ("", "none")
    assert load_bytes(unsaid.encode(), "p.yaml").models["tiny"].hosts["box"].declared is None


def test_every_tradeoff_of_an_override_is_a_source_blame_can_name():
    text = edited(
        (
            "          - It lowers throughput.\n",
            "          - It lowers throughput.\n          - It costs latency.\n",
        )
    )
    override = load_bytes(text.encode(), "p.yaml").profiles["vllm.box.tiny"].overrides[0]
    assert [s.keypath[-2:] for s in override.texts] == [
        ("small", "summary"),
        ("tradeoffs", 0),
        ("tradeoffs", 1),
    ]
    assert [s.text for s in override.texts[1:]] == ["It lowers throughput.", "It costs latency."]


def test_an_empty_arg_value_is_said_once():
    """``max-num-seqs:`` left empty was said twice at one place: by the rules, and again as
    the schema's list of the types a value may have."""
    text = edited(("      max-num-seqs: 2\n", "      max-num-seqs:\n"))
    with pytest.raises(RegistryError) as info:
        load_bytes(text.encode(), "p.yaml")
    assert [p.message for p in info.value.problems] == [
        "'--max-num-seqs' cannot be null; remove the flag"
    ]
