"""Loading a registry: every problem in one run, each one exact and located, and the
file guards (missing, undecodable) in front of the YAML reader."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import MINIMAL_REGISTRY

from docgen.errors import DocgenError, RegistryError
from docgen.registry import load as registry
from docgen.registry.load import checked, load, load_bytes


def broken(old: str, new: str) -> str:
    assert old in MINIMAL_REGISTRY, old
    return MINIMAL_REGISTRY.replace(old, new, 1)


# (case id, registry text, the exact first error line on stderr)
BROKEN = [
    (
        "duplicate-key",
        broken(
            "  box: {name: Big Box, arch: amd64}\n",
            "  box: {name: Big Box, arch: amd64}\n  box: {name: Other}\n",
        ),
        "profiles.yaml:21:3: error: duplicate key 'box' (first defined on line 20)",
    ),
    (
        "tab-indent",
        broken("  name: Acme\n", "\tname: Acme\n"),
        "profiles.yaml:3:1: error: tab characters are not allowed for indentation; use spaces",
    ),
    ("empty-file", "", "profiles.yaml:1:1: error: the file is empty; expected a mapping"),
    (
        "comment-only",
        "# nothing here\n",
        "profiles.yaml:1:1: error: the file is empty; expected a mapping",
    ),
    (
        "not-a-mapping",
        "- one\n- two\n",
        "profiles.yaml:1:1: error: the registry must be a mapping of sections",
    ),
    (
        "syntax",
        broken("hosts:\n", "hosts: [\n"),
        "profiles.yaml:21:1: error: expected ',' or ']', but got '<scalar>' (in a flow "
        "sequence that starts at 19:8)",
    ),
    (  # said plainly, at the '<<' key (ruamel.yaml points at the anchored scalar)
        "merge-of-an-alias-to-a-scalar",
        broken("schema: 1\n", "schema: 1\nx: &x hello\n").replace(
            "    model: tiny\n", "    model: tiny\n    <<: *x\n"
        ),
        "profiles.yaml:36:5: error: a merge key ('<<') takes a mapping or a list of mappings, "
        "but it merges a scalar",
    ),
    (  # a '<<' inside a block scalar or a nested mapping is not the key in question
        "merge-after-a-text-and-a-nested-merge",
        broken("schema: 1\n", "schema: 1\nx: &x hello\ny: &y {a: 1}\n").replace(
            "    notes: Box default.\n",
            "    notes: |\n      <<: a line of text\n    extra:\n      <<: *y\n    <<: *x\n",
        ),
        "profiles.yaml:37:5: error: a merge key ('<<') takes a mapping or a list of mappings, "
        "but it merges a scalar",
    ),
    (  # a list item's mapping: its '<<' stands after the dash; a later valid one is not it
        "merge-in-a-list-item",
        broken("schema: 1\n", "schema: 1\nx: &x hello\nm: &m {a: 1}\n").replace(
            "  - id: alpha\n", "  - <<: *x\n    id: alpha\n"
        ),
        "profiles.yaml:14:5: error: a merge key ('<<') takes a mapping or a list of mappings, "
        "but it merges a scalar",
    ),
    (  # a valid '<<' at the same column, in a mapping above, is not the one in question
        "merge-after-a-valid-one-above",
        broken("schema: 1\n", "schema: 1\nx: &x hello\nm: &m {arch: amd64}\n")
        .replace("  box: {name: Big Box, arch: amd64}\n", "  box:\n    <<: *m\n    name: Big Box\n")
        .replace("    label: Tiny 1B\n", "    label: Tiny 1B\n    <<: *x\n"),
        "profiles.yaml:35:5: error: a merge key ('<<') takes a mapping or a list of mappings, "
        "but it merges a scalar",
    ),
    (  # in a flow mapping: said plainly, where the mapping starts
        "merge-in-a-flow-mapping",
        broken("schema: 1\n", "schema: 1\nx: &x hello\n").replace(
            "  box: {name: Big Box,", "  box: {<<: *x, name: Big Box,"
        ),
        "profiles.yaml:21:8: error: a merge key ('<<') takes a mapping or a list of mappings, "
        "but it merges a scalar",
    ),
    (  # ruamel.yaml points at the mapping's first key
        "merge-of-a-list-of-scalars",
        broken("    model: tiny\n", "    model: tiny\n    <<: [5]\n"),
        "profiles.yaml:35:5: error: a merge key ('<<') takes a mapping or a list of mappings, "
        "but it merges a scalar",
    ),
    (  # a page's title holds it: beyond 200 characters it was refused at the template
        "label-too-long",
        broken("    label: Tiny 1B\n", f"    label: {'L' * 5000}\n"),
        "profiles.yaml:30:12: error: models.tiny.label is 5,000 characters long; at most 200",
    ),
    (
        "id-too-long",
        broken("  box: {name: Big Box", f"  {'b' * 201}: {{name: Big Box").replace(
            "host: box\n", f"host: {'b' * 201}\n"
        ),
        "profiles.yaml:20:3: error: a key of hosts is 201 characters long; at most 200",
    ),
    (
        "unknown-top-key",
        MINIMAL_REGISTRY + "extras: 1\n",
        "profiles.yaml:50:1: error: unknown key 'extras' at the top level",
    ),
    (
        "unknown-profile-key",
        broken("    default: true\n    image", "    defualt: true\n    image"),
        "profiles.yaml:36:5: error: unknown key 'defualt' in profiles.vllm.box.tiny; "
        "did you mean 'default'?",
    ),
    (
        "missing-required",
        broken("    host: box\n", ""),
        "profiles.yaml:33:3: error: missing required key 'host' in profiles.vllm.box.tiny",
    ),
    (
        "wrong-schema-version",
        broken("schema: 1", "schema: 2"),
        "profiles.yaml:1:9: error: schema must be 1, got 2",
    ),
    (
        "bad-enum",
        broken("    default: true\n    image", "    support: beta\n    image"),
        "profiles.yaml:36:14: error: profiles.vllm.box.tiny.support is 'beta'; expected one of: "
        "supported, experimental, deferred, disabled",
    ),
    (
        "bad-type",
        broken("    default: true\n    image", "    default: yes\n    image"),
        "profiles.yaml:36:14: error: profiles.vllm.box.tiny.default must be true or false, "
        "got 'yes'",
    ),
    (
        "bad-id",
        broken("  vllm.box.tiny:", "  Vllm Box:"),
        "profiles.yaml:33:3: error: invalid id 'Vllm Box' in profiles: ids use lowercase letters, "
        "digits, '.', '_' and '-', start with a letter or digit, and contain no '..'",
    ),
    (
        "dotdot-id",
        broken("  vllm.box.tiny:", "  vllm..tiny:"),
        "profiles.yaml:33:3: error: invalid id 'vllm..tiny' in profiles: ids use lowercase "
        "letters, digits, '.', '_' and '-', start with a letter or digit, and contain no '..'",
    ),
    (
        "unknown-model",
        broken("    model: tiny", "    model: tiyn"),
        "profiles.yaml:34:12: error: profile 'vllm.box.tiny' names unknown model 'tiyn'; "
        "did you mean 'tiny'?",
    ),
    (
        "unknown-host",
        broken("    host: box", "    host: bx"),
        "profiles.yaml:35:11: error: profile 'vllm.box.tiny' names unknown host 'bx'; "
        "did you mean 'box'?",
    ),
    (
        "unknown-image",
        broken("    image: img", "    image: image"),
        "profiles.yaml:37:12: error: profile 'vllm.box.tiny' names unknown image 'image'; "
        "did you mean 'img'?",
    ),
    (
        "two-defaults",
        MINIMAL_REGISTRY + "  vllm.box.other:\n    model: tiny\n    host: box\n"
        "    default: true\n    args: {max-model-len: 1024}\n",
        "profiles.yaml:53:14: error: host 'box' already has a default profile, 'vllm.box.tiny' "
        "(line 33)",
    ),
    (
        "unknown-flag",
        broken("      max-num-seqs: 2", "      max-num-seq: 2"),
        "profiles.yaml:41:7: error: unknown vLLM flag '--max-num-seq'; did you mean "
        "'--max-num-seqs'?",
    ),
    (
        "flag-type",
        broken("      max-num-seqs: 2", "      max-num-seqs: two"),
        "profiles.yaml:41:21: error: '--max-num-seqs' expects an integer, got 'two'",
    ),
    (
        "utilization-range",
        broken("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 1.5"),
        "profiles.yaml:40:31: error: '--gpu-memory-utilization' must be > 0 and <= 1, got 1.5",
    ),
    (
        "zero-seqs",
        broken("      max-num-seqs: 2", "      max-num-seqs: 0"),
        "profiles.yaml:41:21: error: '--max-num-seqs' must be a positive integer, got 0",
    ),
    (
        "bad-choice",
        broken("      max-num-seqs: 2", "      kv-cache-dtype: fp9"),
        "profiles.yaml:41:23: error: invalid value 'fp9' for '--kv-cache-dtype'; "
        "did you mean 'fp8'?",
    ),
    (
        "false-without-negation",
        broken("      max-num-seqs: 2", "      disable-log-stats: false"),
        "profiles.yaml:41:26: error: '--disable-log-stats' has no --no- form in vLLM; remove the "
        "flag instead of setting it to false",
    ),
    (
        "broken-json",
        broken("      max-num-seqs: 2", "      speculative-config: '{\"method\": mtp}'"),
        "profiles.yaml:41:27: error: '--speculative-config' expects JSON: Expecting value: "
        "line 1 column 12 (char 11)",
    ),
    (
        "override-flag",
        broken("          gpu-memory-utilization: 0.3", "          gpu-mem: 0.3"),
        "profiles.yaml:47:11: error: unknown vLLM flag '--gpu-mem'",
    ),
    (
        "expect-absent",
        broken("    overrides:", "    expect:\n      absent: [max-num-seqs]\n    overrides:"),
        "profiles.yaml:41:7: error: profile 'vllm.box.tiny' expects '--max-num-seqs' to be absent, "
        "but its args set it",
    ),
    (
        "expect-present",
        broken("    overrides:", "    expect:\n      present: {max-num-seqs: 4}\n    overrides:"),
        "profiles.yaml:41:21: error: profile 'vllm.box.tiny' expects '--max-num-seqs' to be 4, "
        "but its args set 2",
    ),
    (
        "expect-unknown-flag",
        broken("    overrides:", "    expect:\n      absent: [spec-config]\n    overrides:"),
        "profiles.yaml:44:16: error: unknown vLLM flag '--spec-config'; did you mean "
        "'--speculative-config', '--pooler-config' or '--eplb-config'?",
    ),
    (
        "bad-evidence-date",
        broken(
            "    overrides:", "    evidence:\n      - {date: 2026-13-45, host: Box}\n    overrides:"
        ),
        "profiles.yaml:44:16: error: invalid date '2026-13-45'; expected a real date as YYYY-MM-DD",
    ),
    (
        "bad-digest",
        broken("sha256:aaaa", "sha1:aaaa"),
        "profiles.yaml:24:13: error: images.img.digest 'sha1:" + "a" * 64 + "' is malformed",
    ),
    (
        "no-agents",
        broken("agents:\n  - id: alpha", "agents: []\nunused:\n  - id: alpha"),
        "profiles.yaml:11:9: error: agents must not be empty",
    ),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in BROKEN], ids=[c[0] for c in BROKEN])
def test_broken_registry_is_a_located_error(make_project, run, text, expected):
    project = make_project(registry=text)
    before = project.snapshot()
    for command in ("validate", "build", "check"):
        result = run(project, command)
        assert result.exit_code == 2, (command, result.output)
        assert result.stderr.splitlines()[0] == expected
        assert "Traceback" not in result.output
        assert project.snapshot() == before


@pytest.fixture
def checked_beside(monkeypatch):
    """Every registry is checked by a forked copy while its model is built."""
    from docgen import parallel

    monkeypatch.setattr(parallel, "LARGE_REGISTRY", 0)
    monkeypatch.setattr(parallel, "_can_fork", lambda: True)


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in BROKEN], ids=[c[0] for c in BROKEN])
def test_checks_beside_the_build_report_what_they_report_alone(checked_beside, text, expected):
    with pytest.raises(DocgenError) as caught:
        load_bytes(text.encode(), "profiles.yaml")
    assert str(caught.value).splitlines()[0] == expected


def test_a_registry_the_builder_chokes_on_is_reported_by_the_checks(checked_beside):
    from docgen.registry import builder

    text = broken("    model: tiny\n", "    model: [tiny]\n")
    with pytest.raises(TypeError):
        builder.build(registry.load_fast(text, "profiles.yaml"))  # type: ignore[arg-type]
    with pytest.raises(RegistryError) as caught:
        load_bytes(text.encode(), "profiles.yaml")
    assert "model" in str(caught.value)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_a_registry_checked_beside_its_build_is_the_one_built_alone(checked_beside, monkeypatch):
    beside = load_bytes(MINIMAL_REGISTRY.encode(), "profiles.yaml")
    from docgen import parallel

    monkeypatch.setattr(parallel, "LARGE_REGISTRY", 10**12)
    assert beside == load_bytes(MINIMAL_REGISTRY.encode(), "profiles.yaml")


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in BROKEN], ids=[c[0] for c in BROKEN])
def test_a_plan_started_before_the_checks_ended_reports_what_they_find(
    checked_beside, make_project, run, text, expected
):
    """``build`` and ``check`` start planning on the model while the checks go on; a
    registry they refuse gives their error, and nothing is written or left staged."""
    project = make_project(registry=text)
    before = project.snapshot()
    for command in ("build", "check"):
        result = run(project, command)
        assert result.exit_code == 2, (command, result.output)
        assert result.stderr.splitlines()[0] == expected
        assert project.snapshot() == before


def test_an_error_of_a_plan_on_a_refused_registry_gives_way_to_the_checks(checked_beside):
    """The block that reads an unchecked model may break on it: the checks' errors are
    raised instead, and the copy that ran them is reaped."""
    text = broken("      max-num-seqs: 2", "      max-num-seqs: two")
    with pytest.raises(RegistryError) as caught, checked(text, "profiles.yaml"):
        raise TypeError("what a template reading 'two' as a number raises")
    assert str(caught.value) == (
        "profiles.yaml:41:21: error: '--max-num-seqs' expects an integer, got 'two'"
    )
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_an_error_of_a_plan_on_an_accepted_registry_is_raised_as_it_is(checked_beside):
    with (
        pytest.raises(KeyError, match="a template's own mistake"),
        checked(MINIMAL_REGISTRY, "profiles.yaml") as reg,
    ):
        assert reg.profiles
        raise KeyError("a template's own mistake")


def test_checks_the_copy_could_not_finish_are_run_here_on_the_text(checked_beside, monkeypatch):
    """This process no longer holds the parsed document once the model is built: when the
    copy dies, the text is parsed again and checked here."""
    from docgen import parallel

    monkeypatch.setattr(parallel, "_serve", lambda *_args: os._exit(1))
    text = broken("      max-num-seqs: 2", "      max-num-seqs: two")
    with pytest.raises(RegistryError) as caught, checked(text, "profiles.yaml"):
        pass
    assert "'--max-num-seqs' expects an integer, got 'two'" in str(caught.value)
    with checked(MINIMAL_REGISTRY, "profiles.yaml") as reg:
        assert reg.profiles


def test_where_nothing_forks_a_large_registry_is_checked_first_and_parsed_once(monkeypatch):
    """With one processor (or ``DOCGEN_JOBS=1``) the checks cannot run beside the block:
    they run before it, on the document just parsed (never parsed a second time)."""
    from docgen import parallel

    monkeypatch.setattr(parallel, "LARGE_REGISTRY", 0)
    monkeypatch.setenv("DOCGEN_JOBS", "1")
    parsed: list[str] = []
    real = registry.load_fast
    monkeypatch.setattr(registry, "load_fast", lambda *a: parsed.append(a[1]) or real(*a))
    ran: list[bool] = []
    text = broken("      max-num-seqs: 2", "      max-num-seqs: two")
    with pytest.raises(RegistryError), checked(text, "profiles.yaml"):
        ran.append(True)
    assert not ran and parsed == ["profiles.yaml"]
    with checked(MINIMAL_REGISTRY, "profiles.yaml") as reg:
        assert reg.profiles
    assert parsed == ["profiles.yaml", "profiles.yaml"]


def test_a_refused_registry_is_refused_after_a_block_that_ended_well(checked_beside):
    text = broken("      max-num-seqs: 2", "      max-num-seqs: two")
    with pytest.raises(RegistryError), checked(text, "profiles.yaml") as reg:
        assert reg.profiles  # the model of a registry not yet checked


def test_all_problems_are_reported_in_one_run(make_project, run):
    text = broken("      max-num-seqs: 2", "      max-num-seqs: two\n      bogus-flag: 1")
    text = text.replace("    host: box", "    host: bx")
    result = run(make_project(registry=text), "validate")
    lines = result.stderr.splitlines()
    assert result.exit_code == 2
    assert lines == [
        "profiles.yaml:35:11: error: profile 'vllm.box.tiny' names unknown host 'bx'; "
        "did you mean 'box'?",
        "profiles.yaml:41:21: error: '--max-num-seqs' expects an integer, got 'two'",
        "profiles.yaml:42:7: error: unknown vLLM flag '--bogus-flag'",
    ]


def test_invalid_utf8_names_line_and_column():
    raw = MINIMAL_REGISTRY.encode().replace(b"Big Box", b"Big \xff Box")
    with pytest.raises(RegistryError) as info:
        load_bytes(raw, "profiles.yaml")
    assert str(info.value) == "profiles.yaml:20:19: error: invalid UTF-8 byte 0xff"


def test_missing_registry_file(tmp_path: Path):
    with pytest.raises(RegistryError) as info:
        load(tmp_path / "profiles.yaml")
    assert str(info.value) == "profiles.yaml: error: registry file not found"


def test_errors_in_a_registry_libyaml_reads_are_located_without_ruamel(monkeypatch):
    monkeypatch.setattr(registry, "load_text", None)  # never called
    with pytest.raises(DocgenError) as info:
        load_bytes(
            MINIMAL_REGISTRY.replace("max-num-seqs: 2", "max-num-seqs: two").encode(),
            "profiles.yaml",
        )
    assert str(info.value) == (
        "profiles.yaml:41:21: error: '--max-num-seqs' expects an integer, got 'two'"
    )


@pytest.mark.parametrize("text", [case[1] for case in BROKEN])
def test_an_unchecked_registry_is_a_model_or_none_never_an_error(text: str) -> None:
    """History (the committed registry a blame compares with) is built without the checks:
    whatever its text, the answer is a model or None, never an exception."""
    built = registry.unchecked(text.encode("utf-8"), "HEAD:profiles.yaml")
    assert built is None or built.path == "HEAD:profiles.yaml"


@pytest.mark.parametrize(
    "raw", [b"\xff\xfe not UTF-8", b"- a list\n- of items\n", b"profiles: 3\n", b"a: [\n"]
)
def test_an_unchecked_registry_that_cannot_be_built_is_none(raw: bytes) -> None:
    assert registry.unchecked(raw, "HEAD:profiles.yaml") is None


def test_an_unchecked_registry_that_passes_the_checks_is_the_checked_model() -> None:
    raw = MINIMAL_REGISTRY.encode("utf-8")
    assert registry.unchecked(raw, "profiles.yaml") == load_bytes(raw, "profiles.yaml")


def test_the_readings_beyond_yaml_1_2_that_the_readme_names_hold(tmp_path):
    """README: a merge key brings an anchor's keys in, and ``_`` groups a number's digits."""
    text = broken("      max-num-seqs: 2\n", "      <<: {max-num-seqs: 2}\n").replace(
        "max-model-len: 32768", "max-model-len: 32_768"
    )
    path = tmp_path / "profiles.yaml"
    path.write_text(text, "utf-8")
    args = {a.name: a.value for a in next(iter(load(path).profiles.values())).args}
    assert args["max-num-seqs"] == 2 and args["max-model-len"] == 32768


def test_a_registry_setting_that_names_no_file_is_said_at_the_setting(make_project, run):
    """``registry = "profile.yaml"``: the mistake is the setting's, so the error stands
    there and names the YAML file the root holds; a --registry path that names no file
    is said at that path, as before."""
    project = make_project(files={"docgen.toml": 'docs = "docs"\nregistry = "profile.yaml"\n'})
    outcome = run(project, "check")
    assert (outcome.exit_code, outcome.stderr) == (
        2,
        "docgen.toml:2:1: error: the registry file 'profile.yaml' does not exist; "
        "did you mean 'profiles.yaml'?\n",
    )
    given = run(project, "--registry", "nope.yaml", "check")
    assert given.exit_code == 2
    assert given.stderr.startswith("nope.yaml: error: registry file not found")


def test_a_registry_setting_that_names_no_file_is_said_at_the_setting_by_diff_too(
    make_project, run
):
    """``diff --since REF`` reads the committed registry beside the one on disk: a setting
    that names no file is the same slip, said at the same place."""
    from conftest import git

    project = make_project()
    git(project.root, "init", "-q")
    git(project.root, "add", ".")
    git(project.root, "commit", "-qm", "base")
    project.write("docgen.toml", 'registry = "profile.yaml"\n')
    for args in (["diff", "--since", "HEAD"], ["check"]):
        outcome = run(project, *args)
        assert (outcome.exit_code, outcome.stderr) == (
            2,
            "docgen.toml:1:1: error: the registry file 'profile.yaml' does not exist; "
            "did you mean 'profiles.yaml'?\n",
        ), args


def test_a_registry_setting_that_names_a_folder_is_said_at_the_setting(make_project, run):
    """``registry = "docs"``: a folder is the setting's slip as a missing file is, said at
    the setting by every command that reads the registry (it was said at the folder)."""
    from conftest import git

    project = make_project()
    (project.root / "docs").mkdir(exist_ok=True)
    git(project.root, "init", "-q")
    git(project.root, "add", ".")
    git(project.root, "commit", "-qm", "base")
    project.write("docgen.toml", 'registry = "docs"\n')
    for args in (["diff", "--since", "HEAD"], ["check"], ["build"]):
        outcome = run(project, *args)
        assert (outcome.exit_code, outcome.stderr) == (
            2,
            "docgen.toml:1:1: error: the registry file 'docs' is a folder, not a file\n",
        ), args
    given = run(project, "--registry", "docs", "check")  # a path given: said at the path
    assert given.stderr == (
        "docs: error: the registry is a folder, not a file; docgen reads only regular files\n"
    )


@pytest.mark.parametrize(
    ("pinned", "holds"),
    [
        ("32K", True),  # vLLM reads 32K as 32768
        ("'32768'", True),
        ("32k", False),  # 32000
        ("32769", False),
    ],
)
def test_an_expected_integer_is_compared_as_vllm_reads_it(pinned, holds):
    """``expect: present: {max-model-len: 256K}`` was said not to hold over 262144, though
    vLLM reads both alike (a hostile round)."""
    text = broken(
        "    overrides:", f"    expect:\n      present: {{max-model-len: {pinned}}}\n    overrides:"
    )
    if holds:
        assert load_bytes(text.encode(), "profiles.yaml") is not None
        return
    with pytest.raises(RegistryError) as caught:
        load_bytes(text.encode(), "profiles.yaml")
    assert f"expects '--max-model-len' to be {pinned}, but its args set 32768" in str(caught.value)
