"""The semantic rules on top of the schema: references, defaults, vLLM args checked
against the catalog of the image's release, ``expect``, and the registry's own flags."""

from __future__ import annotations

import pytest
from conftest import MINIMAL_REGISTRY
from test_load import broken

from docgen.errors import RegistryError
from docgen.registry import rules
from docgen.registry.load import load_bytes
from docgen.registry.rules import Checker
from docgen.registry.source import load_text


def problems(text: str) -> list[str]:
    """The rules' problems with a registry text, as printed (the schema is not asked)."""
    return [str(problem) for problem in Checker(load_text(text, "p.yaml")).run()]


def with_release(version: str) -> str:
    """The minimal registry whose image declares vLLM ``version``."""
    return broken("    platform: linux/amd64", f"    platform: linux/amd64\n    vllm: {version}")


def test_extra_flags_and_values_declared_by_the_registry(make_project, run):
    text = MINIMAL_REGISTRY + (
        "vllm:\n  extra_flags:\n    my-flag: {type: int}\n"
        "  extra_values:\n    kv-cache-dtype: [fp9]\n"
    )
    text = text.replace(
        "      max-num-seqs: 2",
        "      max-num-seqs: 2\n      my-flag: 3\n      kv-cache-dtype: fp9",
    )
    result = run(make_project(registry=text), "validate")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("section", "expected"),
    [
        ("vllm: 5\n", "p.yaml:50:7: error: vllm must be a mapping, got 5"),
        (
            "vllm:\n  extra_flags: 5\n",
            "p.yaml:51:16: error: vllm.extra_flags must be a mapping, got 5",
        ),
        (
            "vllm:\n  extra_flags:\n    foo: {type: nope}\n",
            "p.yaml:52:17: error: vllm.extra_flags.foo.type is 'nope'; expected one of: "
            "int, float, str, bool, json, list",
        ),
        (
            "vllm:\n  extra_values:\n    dtype: 5\n",
            "p.yaml:52:12: error: vllm.extra_values.dtype must be a list, got 5",
        ),
    ],
    ids=["section", "flags", "flag-type", "values"],
)
def test_a_malformed_vllm_section_is_the_schemas_error_not_a_crash(section, expected):
    with pytest.raises(RegistryError) as info:
        load_bytes((MINIMAL_REGISTRY + section).encode(), "p.yaml")
    assert str(info.value).splitlines() == [expected]


def test_args_are_checked_against_the_release_the_image_declares():
    text = with_release("0.10.0").replace(
        "      max-num-seqs: 2", "      max-num-seqs: 2\n      aggregate-engine-logging: true"
    )
    assert problems(text) == [
        "p.yaml:43:7: error: '--aggregate-engine-logging' is not in vLLM 0.10.0 (image 'img'); "
        "among the sampled releases it exists in 0.11.2 through 0.34.0"
    ]
    undeclared = MINIMAL_REGISTRY.replace("max-num-seqs: 2", "aggregate-engine-logging: true")
    assert problems(undeclared) == []


def test_an_unknown_release_is_reported_once_and_args_use_the_default_catalog():
    assert problems(with_release("0.1.0")) == [
        "p.yaml:27:11: error: vLLM 0.1.0 is older than 0.8.5.post1, the oldest release "
        "docgen has argument data for"
    ]


def test_registry_text_may_not_hold_a_directive():
    assert problems(broken("  name: Acme\n", "  name: Acme <AgentOnly>\n")) == [
        "p.yaml:3:9: error: registry text may not contain an <AgentOnly> tag or a docgen "
        "region marker: generated pages would read it as a directive"
    ]


def with_expect(present: str, args: str = "") -> str:
    """The minimal registry with extra ``args`` and an ``expect: present:`` mapping."""
    extra = "      enable-prefix-caching: true\n" + args
    text = broken("      enable-prefix-caching: true\n", extra)
    return text.replace(
        "    overrides:", f"    expect:\n      present: {present}\n    overrides:", 1
    )


TP = "      tensor-parallel-size: 2\n"
SPEC = "      speculative-config: {method: ngram, num_speculative_tokens: 3}\n"


@pytest.mark.parametrize(
    ("present", "args"),
    [
        ('{tensor-parallel-size: "2"}', TP),
        ("{tensor-parallel-size: 2}", '      tensor-parallel-size: "2"\n'),
        ('{gpu-memory-utilization: "0.5"}', ""),
        ("{served-model-name: tiny}", "      served-model-name: [tiny]\n"),
        ("""{speculative-config: '{"method":"ngram","num_speculative_tokens":3}'}""", SPEC),
        ("{enable-prefix-caching: true, max-model-len: '32768'}", ""),
    ],
    ids=["string-for-int", "int-for-string", "string-for-float", "scalar-for-list", "json", "two"],
)
def test_expect_present_compares_the_argv_values_produce(make_project, run, present, args):
    result = run(make_project(registry=with_expect(present, args)), "validate")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "profiles.yaml: ok (1 profile, 1 model, 1 host, 2 agents)\n"


def test_expect_present_refuses_a_different_argv(make_project, run):
    project = make_project(registry=with_expect('{tensor-parallel-size: "4"}', TP))
    before = project.snapshot()
    message = (
        "profiles.yaml:43:29: error: profile 'vllm.box.tiny' expects "
        "'--tensor-parallel-size' to be 4, but its args set 2"
    )
    for command in ("validate", "build"):
        result = run(project, command)
        assert (result.exit_code, result.stderr.splitlines()) == (2, [message]), command
    assert project.snapshot() == before


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("ftp://" + "x" * 54, "ftp://" + "x" * 54),  # 60 characters: quoted whole
        ("ftp://" + "x" * 55, "ftp://" + "x" * 51 + "..."),  # 61: cut to 57 and "..."
        ("ftp://a\nb", "ftp://a\\nb"),
    ],
    ids=["sixty", "sixty-one", "line-break"],
)
def test_a_wrong_site_url_is_quoted_whole_up_to_sixty_characters(url, shown):
    assert rules.site_url_problem(url) == (
        "must be an absolute http(s) URL such as https://docs.example.com "
        f"(no query, fragment, spaces or quotes; a port up to 65535), got '{shown}'"
    )


@pytest.mark.parametrize(
    "url",
    ["https://docs.example.com:65535/a%20b/", "http://x.example:1", "https://x.example/%7Eme"],
)
def test_a_site_url_with_a_port_and_escapes_is_accepted(url):
    assert rules.site_url_problem(url) is None


@pytest.mark.parametrize("url", ["https://docs.example.com:0", "https://docs.example.com:65536"])
def test_a_site_url_with_a_port_no_server_listens_on_is_refused(url):
    """Ports run from 1 to 65535 (a mutation sample found neither end pinned)."""
    problem = rules.site_url_problem(url)
    assert problem is not None and problem.endswith(f"got '{url}'")
